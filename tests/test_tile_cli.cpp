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
    Run h = cli("which " + kIns + "--operand B --waves 2x2 --shape 64x64x16 --wave 3 --reg 2 --lane 8 --format json");
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
    Run r = cli("which " + kIns + "--operand C --waves 2x2 --wave 4 --reg 0 --lane 0");
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
