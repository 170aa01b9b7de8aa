// lanescope-cli's tile options (docs/tiles.md, docs/json.md): the JSON contract
// gains "wave" in each entry and the tile parameters at the top.
#include "shell_run.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace {
using lstest::Run;
Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }
const std::string kIns = "-a gfx942 -i v_mfma_f32_32x32x8_f16 ";
}  // namespace

TEST_CASE("layout with tile options: tile fields at the top, a wave in every entry") {
    Run r = cli("layout " + kIns + "--operand C --waves 2x2 --tiles-per-wave 2x1 --shape 256x128 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["waves"] == nlohmann::json::array({2, 2}));
    CHECK(j["tiles_per_wave"] == nlohmann::json::array({2, 1}));
    CHECK(j["shape"][0] == 256);
    CHECK(j["shape"][1] == 128);
    CHECK(j["rows"] == 256);
    CHECK(j["cols"] == 128);
    CHECK(j["wave"] == 64);  // still the wave size, as for one instruction
    // 256 x 128 over 4 waves of 64 lanes: 128 f32 per lane, one register each.
    CHECK(j["regs"] == 256 * 128 / (4 * 64));
    REQUIRE(j["entries"].size() == 256 * 128);
    std::set<std::tuple<int, int, int>> slots;
    std::vector<int> per_wave(4, 0);
    for (const auto& e : j["entries"]) {
        REQUIRE(e["wave"].is_number_integer());
        CHECK(slots.insert({e["wave"].get<int>(), e["lane"].get<int>(), e["reg"].get<int>()}).second);
        ++per_wave[e["wave"].get<int>()];
        // The wave grid's tile is 128 x 64 (32 x 2 x 2 by 32 x 1 x 2): wm from the row, wn from the column.
        const int row = e["row"], col = e["col"];
        CHECK(e["wave"] == ((row % 128) / 64) * 2 + (col % 64) / 32);
    }
    for (int n : per_wave) CHECK(n == 256 * 128 / 4);
}

TEST_CASE("A tiles: waves along N hold copies; K steps take the next registers") {
    Run r = cli("layout " + kIns + "--operand A --waves 2x2 --shape 64x64x32 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["rows"] == 64);
    CHECK(j["cols"] == 32);
    CHECK(j["regs"] == 4 * 2);  // 4 K steps of 2 VGPRs
    REQUIRE(j["entries"].size() == 64 * 32 * 2);
    for (const auto& e : j["entries"]) {
        const int row = e["row"], col = e["col"], wave = e["wave"], reg = e["reg"];
        CHECK(wave / 2 == row / 32);  // wm
        CHECK(reg / 2 == col / 8);    // the K step picks the register pair
    }
}

TEST_CASE("where and which answer per wave") {
    Run w = cli("where " + kIns + "--operand B --waves 2x2 --shape 64x64x16 --row 9 --col 40 --format json");
    REQUIRE(w.status == 0);
    auto j = nlohmann::json::parse(w.out);
    REQUIRE(j["locations"].size() == 2);  // waves along M share B
    CHECK(j["locations"][0]["wave"] == 1);
    CHECK(j["locations"][1]["wave"] == 3);
    // B 32x32x8: lane = j + 32 * (k / 4); the second K step is the next register pair.
    CHECK(j["locations"][0]["lane"] == 8 + 32 * 0);
    CHECK(j["locations"][0]["reg"] == 2 + 0);
    Run h = cli("which " + kIns + "--operand B --waves 2x2 --shape 64x64x16 --of-wave 3 --reg 2 --lane 8 --format json");
    REQUIRE(h.status == 0);
    auto k = nlohmann::json::parse(h.out);
    CHECK(k["wave_index"] == 3);
    REQUIRE(k["parts"].size() == 2);
    CHECK(k["parts"][0]["row"] == 8);
    CHECK(k["parts"][0]["col"] == 40);
    CHECK(k["parts"][1]["row"] == 9);
}

TEST_CASE("single-instruction output has no tile fields") {
    Run r = cli("layout " + kIns + "--operand C --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK_FALSE(j.contains("waves"));
    CHECK_FALSE(j["entries"][0].contains("wave"));
}

TEST_CASE("bad tile options: clear message, exit 2 (malformed) or 1 (a tile the instruction cannot make), nothing written") {
    auto out = lstest::temp_path("lanescope_tile_out.json");
    {
        std::ofstream f(out);
        f << "keep";
    }
    // A malformed value is a usage error (2), as --row 1x is; a well-formed tile the
    // instruction cannot make is a bad query (1), as an illegal --cbsz is.
    for (const auto& [bad, status] : std::vector<std::pair<const char*, int>>{
             {"--waves 2", 2}, {"--waves 2x0", 2}, {"--waves 2xx2", 2}, {"--tiles-per-wave 1x-1", 2}, {"--shape 1e3x64", 2},
             {"--waves ''", 2}, {"--shape 100x64", 1}, {"--shape 64x64x12", 1}, {"--waves 2x2 --shape 32x32", 1}}) {
        Run r = cli("layout " + kIns + "--operand A --out " + out.string() + " " + bad);
        INFO(bad << ": " << r.err);
        CHECK(r.status == status);
        const std::string option = std::string(bad).substr(0, std::string(bad).find(' '));
        CHECK(r.err.find(status == 1 ? "error:" : option) != std::string::npos);
        std::ifstream f(out);
        std::string s((std::istreambuf_iterator<char>(f)), {});
        CHECK(s == "keep");
    }
    Run r = cli("which " + kIns + "--operand C --waves 2x2 --of-wave 4 --reg 0 --lane 0");
    CHECK(r.status == 1);
    CHECK(r.err.find("wave 4 is out of range: 0..3") != std::string::npos);
    std::filesystem::remove(out);
}

TEST_CASE("ldmatrix/stmatrix .x1: every tile path answers; tile options are refused with the reason") {
    // Regression: a SIGFPE (the instruction's K is 0) in header, --format linear|cute and check.
    for (const char* ins : {"ldmatrix_x1", "stmatrix_x1_trans"}) {
        const std::string q = std::string("-a sm_90 -i ") + ins + " ";
        INFO(ins);
        Run h = cli("header " + q + "-o -");
        CHECK(h.status == 0);
        CHECK(h.out.find("namespace") != std::string::npos);
        Run lin = cli("layout " + q + "--operand D --format linear");
        CHECK(lin.status == 0);
        CHECK(nlohmann::json::parse(lin.out)["shape"] == nlohmann::json::array({8, 8}));
        Run cute = cli("layout " + q + "--operand D --format cute");
        CHECK(cute.status == 0);
        Run tiled = cli("layout " + q + "--operand D --waves 2x2 --format json");
        CHECK(tiled.status == 1);
        CHECK(tiled.err.find("no K") != std::string::npos);
        CHECK(tiled.out.empty());
    }
}

TEST_CASE("tile arithmetic: counts that are each legal but multiply past int are refused, naming the limit") {
    // Each of these multiplied past 32 bits (SIGFPE, a negative shape, bad_alloc); UBSan saw signed overflow.
    struct Case {
        const char* args;
        const char* says;
    };
    for (const Case& c : {Case{"--waves 65536x65536 --tiles-per-wave 65536x65536", "at most 1024 waves"},
                          Case{"--waves 1024x1 --tiles-per-wave 65536x65536", "RM x RN at most 4096"},
                          Case{"--tiles-per-wave 4097x1", "RM x RN at most 4096"},
                          Case{"--waves 1024x1 --tiles-per-wave 4096x1", "at most 16777216 elements per operand"},
                          Case{"--waves 32x32 --tiles-per-wave 64x64", "at most 16777216 elements per operand"},
                          Case{"--shape 65536x65536x65536", "at most 16777216 elements per operand"},
                          Case{"--waves 1x1024 --shape 512x32768x512", "placements"},
                          Case{"--shape 4096x4096 --operand C", "registers per lane"}}) {
        for (const char* cmd : {"layout", "where --row 0 --col 0", "which --reg 0 --lane 0", "header -o -"}) {
            // header writes every operand (C among them): --operand does not apply to it.
            std::string args = c.args;
            if (std::string(cmd).rfind("header", 0) == 0 && args.find(" --operand C") != std::string::npos)
                args.erase(args.find(" --operand C"));
            Run r = cli(std::string(cmd) + " " + kIns + args);
            INFO(cmd << " " << c.args << ": " << r.err);
            CHECK(r.status == 1);
            CHECK(r.err.find(c.says) != std::string::npos);
            CHECK(r.out.empty());
        }
    }
    // The limits are in the options' help.
    Run h = cli("layout --help");
    CHECK(h.out.find("at most 4096") != std::string::npos);
    CHECK(h.out.find("16777216 elements per operand") != std::string::npos);
}

TEST_CASE("tile options --k-width and --transposed: JSON fields, Triton's legal values, refusals where not modelled") {
    Run a = cli("layout " + kIns + "--operand A --waves 2x2 --shape 64x64x32 --k-width 8 --format json");
    REQUIRE(a.status == 0);
    auto j = nlohmann::json::parse(a.out);
    CHECK(j["k_width"] == 8);
    CHECK(j["transposed"] == false);
    // Triton (mfmaDotToLinearLayout): lane 0 holds A[0][0..7] in its first four registers at kWidth 8.
    for (const auto& e : j["entries"])
        if (e["wave"] == 0 && e["lane"] == 0 && e["reg"].get<int>() < 4) {
            CHECK(e["row"] == 0);
            CHECK(e["col"] < 8);
        }
    Run d = cli("layout " + kIns + "--operand A --format json");
    CHECK(nlohmann::json::parse(d.out).contains("k_width") == false);  // one instruction: no tile fields
    Run dt = cli("layout " + kIns + "--operand A --waves 1x1 --format json");
    CHECK(nlohmann::json::parse(dt.out)["k_width"] == 4);  // the instruction's own
    // Transposed C: lanes along M (Triton's isTransposed: lane bases (1,0)..(16,0)), so lane 1 holds
    // C[1][0] in its first register; not transposed, lanes run along N and lane 0 holds it in register 1.
    Run t = cli("where " + kIns + "--operand C --transposed --row 1 --col 0 --format json");
    REQUIRE(t.status == 0);
    CHECK(nlohmann::json::parse(t.out)["locations"][0]["lane"] == 1);
    CHECK(nlohmann::json::parse(t.out)["locations"][0]["reg"] == 0);
    Run n = cli("where " + kIns + "--operand C --row 1 --col 0 --format json");
    CHECK(nlohmann::json::parse(n.out)["locations"][0]["lane"] == 0);
    CHECK(nlohmann::json::parse(n.out)["locations"][0]["reg"] == 1);
    // WMMA: only the kWidth values Triton accepts; NVIDIA: no Triton parameters.
    Run w = cli("layout -a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand A --k-width 4");
    CHECK(w.status == 1);
    CHECK(w.err.find("legal: 8, 16") != std::string::npos);
    Run nv = cli("layout -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --k-width 8");
    CHECK(nv.status == 1);
    Run bad = cli("layout " + kIns + "--operand A --k-width 3");
    CHECK(bad.status == 2);
    CHECK(bad.err.find("power of two") != std::string::npos);
}

TEST_CASE("which --lane with tile options lists the whole lane; --of-wave names the wave; --wave is the size") {
    Run r = cli("which " + kIns + "--operand A --waves 2x2 --shape 64x64x32 --of-wave 3 --lane 33 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["wave_index"] == 3);
    REQUIRE(j["regs"].size() == 8);
    for (const auto& reg : j["regs"])
        for (const auto& p : reg["parts"]) CHECK(p["row"] == 33);  // lane 33 of wave 3 (wm 1): row 32 + 1
    Run old = cli("which " + kIns + "--operand A --waves 2x2 --wave 3 --reg 0 --lane 0");
    CHECK(old.status == 2);
    CHECK(old.err.find("--of-wave 3") != std::string::npos);
    Run size = cli("which -a gfx1100 -i __builtin_amdgcn_wmma_f32_16x16x16_f16_w64 --wave-size 32 --reg 0 --lane 0");
    CHECK(size.status == 1);
    CHECK(size.err.find("--wave-size 32 contradicts") != std::string::npos);
    // Without tile options too, --lane alone answers for the whole lane of the one instruction.
    Run noreg = cli("which " + kIns + "--operand A --lane 0");
    CHECK(noreg.status == 0);
    CHECK(noreg.out.rfind("lane 0 of A of ", 0) == 0);
    // wgmma runs in a warpgroup: --wave 128 is its legal size, in every subcommand.
    for (const char* cmd : {"layout", "which --reg 0 --lane 0"}) {
        Run wg = cli(std::string(cmd) + " -a sm_90 -i wgmma_m64n8k16_f32_f16 --operand D --wave 128");
        INFO(cmd << ": " << wg.err);
        CHECK(wg.status == 0);
    }
}

TEST_CASE("trace with tile options: every A, B and C placement of one D element of the tile") {
    Run r = cli("trace -a gfx1200 -i v_wmma_f32_16x16x16_f16 --waves 2x2 --shape 32x32x32 --row 17 --col 20 --format json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["d"]["locations"].size() == 1);
    CHECK(j["d"]["locations"][0]["wave"] == 3);
    CHECK(j["terms"].size() == 2 * 32 + 1);
    for (const auto& t : j["terms"]) {
        if (t["operand"] == "A") CHECK(t["locations"].size() == 2);  // waves 2 and 3 hold row 17
        if (t["operand"] == "B") CHECK(t["locations"].size() == 2);  // waves 1 and 3 hold col 20
    }
}

TEST_CASE("tile mode keeps gfx1250's confidence: the same evidence fields as one instruction") {
    // docs/json.md (gfx1250): layout, where and which objects carry confidence, confidence_why,
    // confidence_sources and alternatives; a tile composes copies of the instruction, so they are its own.
    const std::string ins = "-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --operand A --format json ";
    auto obj = [&](const std::string& args) {
        Run r = cli(args);
        INFO(args << "\n" << r.err);
        REQUIRE(r.status == 0);
        return nlohmann::json::parse(r.out);
    };
    const auto single = obj("where " + ins + "--row 0 --col 0");
    REQUIRE(single.contains("confidence"));
    for (const std::string& tiled : {"layout " + ins + "--waves 2x1", "where " + ins + "--waves 2x1 --row 0 --col 0",
                                     "which " + ins + "--waves 2x1 --reg 0 --lane 0",
                                     "which " + ins + "--waves 2x1 --lane 0"}) {
        INFO(tiled);
        const auto t = obj(tiled);
        for (const char* field : {"confidence", "confidence_why", "confidence_sources", "alternatives"}) {
            INFO(field);
            REQUIRE(t.contains(field));
            CHECK(t[field] == single[field]);
        }
    }
    // Text: the same "Confidence:" line; CSV stays one table.
    Run text = cli("where -a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --operand A --waves 2x1 --row 0 --col 0");
    CHECK(text.out.find("Confidence: ") != std::string::npos);
    Run csv = cli("where -a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4 --operand A --waves 2x1 --row 0 --col 0 --format csv");
    CHECK(csv.out.find("Confidence") == std::string::npos);
    // Other families carry none.
    const auto amd = obj("where -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --format json --waves 2x1 --row 0 --col 0");
    CHECK_FALSE(amd.contains("confidence"));
}
