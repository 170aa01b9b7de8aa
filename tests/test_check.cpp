// `check` and lanescope::check_layout: a layout in any printed form equals
// lanescope's, and any moved element is reported with both placements.
#include "shell_run.hpp"

#include "lanescope/check.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {
namespace ls = lanescope;
using lstest::Run;
using lstest::cli;
std::string write(const std::string& name, const std::string& text) { return lstest::write_temp(name, text); }
}  // namespace

TEST_CASE("check: every printed form of a layout is equal to it (exit 0)") {
    for (const std::string q : {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --shape 64x64x16",
                                "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand B --waves 2x1 --tiles-per-wave 1x2 --shape 32x64x32",
                                "-a cdna3 -i v_mfma_f32_32x32x1_2b_f32 --operand C", "-a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --operand A --cbsz 2"}) {
        for (const char* form : {"json", "csv", "linear"}) {
            Run out = cli("layout " + q + " -f " + form);
            if (out.status != 0) {
                REQUIRE(std::string(form) == "linear");  // multi-block layouts have no linear form
                continue;
            }
            std::string file = write(std::string("lanescope_check.") + form, out.out);
            Run r = cli("check " + q + " --layout " + file);
            INFO(q << " " << form << "\n" << r.out << r.err);
            CHECK(r.status == 0);
            CHECK(r.out.rfind("equal:", 0) == 0);
            std::filesystem::remove(file);
        }
    }
}

TEST_CASE("check: a moved element is listed with both placements (exit 5)") {
    const std::string q = "-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand C";
    Run out = cli("layout " + q + " -f json");
    REQUIRE(out.status == 0);
    auto j = nlohmann::json::parse(out.out);
    // Swap the lanes of C[0][0] and C[0][1], as a kernel with an off-by-one would.
    for (auto& e : j["entries"]) {
        if (e["row"] == 0 && e["col"] == 0) e["lane"] = 1;
        else if (e["row"] == 0 && e["col"] == 1) e["lane"] = 0;
    }
    std::string file = write("lanescope_check_moved.json", j.dump());
    Run r = cli("check " + q + " --layout " + file);
    CHECK(r.status == 5);
    CHECK(r.out.find("2 of 256 elements") != std::string::npos);
    CHECK(r.out.find("C[0][0]") != std::string::npos);
    CHECK(r.out.find("w0:v0[31:0]:L0") != std::string::npos);
    CHECK(r.out.find("w0:v0[31:0]:L1") != std::string::npos);
    Run js = cli("check " + q + " --layout " + file + " --format json");
    CHECK(js.status == 5);
    auto d = nlohmann::json::parse(js.out);
    CHECK(d["equal"] == false);
    REQUIRE(d["differences"].size() == 2);
    CHECK(d["differences"][0]["lanescope"][0] == "w0:v0[31:0]:L0");
    CHECK(d["differences"][0]["given"][0] == "w0:v0[31:0]:L1");
    // A missing entry is a difference too.
    j["entries"].erase(j["entries"].begin() + 5);
    std::string file2 = write("lanescope_check_missing.json", j.dump());
    CHECK(cli("check " + q + " --layout " + file2).status == 5);
    std::filesystem::remove(file);
    std::filesystem::remove(file2);
}

TEST_CASE("check: bad input exits 1 with the reason") {
    const std::string q = "check -a gfx942 -i v_mfma_f32_16x16x16_f16 --operand C --layout ";
    for (const char* bad : {"", "row,col\n1,2\n", "{\"entries\": [{\"row\": -1}]}", "[{}]", "{\"x\": 1}",
                            "block,row,col,reg,lane,bit_lo,bit_hi\n0,0,zero,0,0,0,31\n"}) {
        std::string file = write("lanescope_check_bad", bad);
        Run r = cli(q + file);
        INFO(bad << ": " << r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find("error:") != std::string::npos);
        std::filesystem::remove(file);
    }
    CHECK(cli(q + "/nonexistent.json").status == 1);
    Run a = cli("layout -a gfx942 -i v_mfma_f32_16x16x16_f16 --operand A -f json");
    std::string file = write("lanescope_check_a.json", a.out);
    Run r = cli(q + file);  // says operand A, checked as C
    CHECK(r.status == 1);
    CHECK(r.err.find("describes operand A") != std::string::npos);
    std::filesystem::remove(file);
}

TEST_CASE("check_layout in C++: equal to its own linear form, different from another instruction's") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    auto mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
    ls::TileLayout tile(ins, t, ls::Operand::C, mods, ls::TileParams{2, 1, 1, 2, 0, 0, 0});
    auto lin = ls::to_linear(tile);
    REQUIRE(lin.layout);
    auto same = ls::check_layout(tile, ls::parse_layout_text(ls::render_linear(*lin.layout), "mine"));
    CHECK(same.equal);
    CHECK(same.elements == 64u * 64u);
    // Swap two lane bases: a different layout over the same shape.
    auto other = *lin.layout;
    std::swap(other.lane[0], other.lane[1]);
    auto diff = ls::check_layout(tile, ls::parse_layout_text(ls::render_linear(other), "swapped"));
    CHECK_FALSE(diff.equal);
    CHECK(diff.differences.size() > 0);
    CHECK(diff.differences.size() < 64u * 64u);
}
