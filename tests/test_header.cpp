// Generated headers (header.hpp): compiled with the host compiler into a
// program that prints every which()/where() answer of every single-block
// catalog instruction; the answers must equal the engine's.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/header.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <tuple>

namespace {
namespace ls = lanescope;

std::string expected_lines(const std::string& ns, const lstest::Case& c) {
    std::string s;
    for (ls::Operand op : ls::operands_of(*c.ins)) {
        ls::TileLayout t(*c.ins, *c.target, op, c.mods, {});
        const std::string X(ls::operand_name(op));
        // Items from the entries (not which()): per (wave, lane), by (reg, bit_lo, row, col).
        std::vector<std::vector<std::tuple<int, int, int, int>>> items(static_cast<size_t>(t.waves()) * t.lanes());
        for (const auto& e : t.entries())
            items[static_cast<size_t>(e.at.wave) * t.lanes() + e.at.loc.lane].push_back(
                {e.at.loc.reg, e.at.loc.bit_lo, e.element.row, e.element.col});
        for (size_t wl = 0; wl < items.size(); ++wl) {
            std::sort(items[wl].begin(), items[wl].end());
            for (size_t i = 0; i < items[wl].size(); ++i)
                s += ns + " " + X + " which " + std::to_string(wl / t.lanes()) + " " + std::to_string(wl % t.lanes()) + " " +
                     std::to_string(i) + " " + std::to_string(std::get<2>(items[wl][i])) + " " +
                     std::to_string(std::get<3>(items[wl][i])) + "\n";
        }
        for (int r = 0; r < t.rows(); ++r)
            for (int col = 0; col < t.cols(); ++col) {
                auto locs = t.where({0, r, col});
                for (size_t k = 0; k < locs.size(); ++k)
                    s += ns + " " + X + " where " + std::to_string(r) + " " + std::to_string(col) + " " + std::to_string(k) +
                         " " + std::to_string(locs[k].wave) + " " + std::to_string(locs[k].loc.lane) + " " +
                         std::to_string(locs[k].loc.reg) + " " + std::to_string(locs[k].loc.bit_lo) + " " +
                         std::to_string(locs[k].loc.bit_hi) + "\n";
            }
    }
    return s;
}

// The program's side: the same lines from the header's accessors.
std::string printer(const std::string& ns, const lstest::Case& c) {
    std::string s;
    for (ls::Operand op : ls::operands_of(*c.ins)) {
        const std::string T = ns + "::" + std::string(ls::operand_name(op));
        const std::string X(ls::operand_name(op));
        s += "    for (int w = 0; w < " + T + "::waves; ++w) for (int l = 0; l < " + T + "::lanes; ++l) for (int i = 0; i < " + T +
             "::items; ++i) { auto e = " + T + "::which(w, l, i); if (e.row >= 0) std::printf(\"" + ns + " " + X +
             " which %d %d %d %d %d\\n\", w, l, i, e.row, e.col); }\n";
        s += "    for (int r = 0; r < " + T + "::rows; ++r) for (int c = 0; c < " + T + "::cols; ++c) for (int k = 0; k < " + T +
             "::copies(r, c); ++k) { auto p = " + T + "::where(r, c, k); std::printf(\"" + ns + " " + X +
             " where %d %d %d %d %d %d %d %d\\n\", r, c, k, p.wave, p.lane, p.reg, p.bit_lo, p.bit_hi); }\n";
    }
    return s;
}

}  // namespace

TEST_CASE("generated headers agree with the engine on every element of every single-block instruction") {
    const auto dir = lstest::temp_path("lanescope_headers");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::string includes, body, expected;
    int headers = 0;
    lstest::for_each_default([&](const lstest::Case& c) {
        if (c.ins->blocks != 1) return;
        std::string ns = "h" + std::to_string(headers++);
        ls::Query q{c.ins, c.target, c.mods};
        std::ofstream(dir / (ns + ".hpp")) << ls::render_header(q, {}, ns);
        includes += "#include \"" + ns + ".hpp\"\n";
        body += printer(ns, c);
        expected += expected_lines(ns, c);
    });
    // A tile too: the composition's tables, not only the instruction's.
    {
        const auto& cat = ls::Catalog::builtin();
        const ls::Target& t = cat.find_target("gfx942");
        const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_16x16x16_f16");
        ls::Query q{&ins, &t, ls::resolve_modifiers(ins, t, {})};
        ls::TileParams p{2, 2, 2, 1, 128, 64, 32};
        std::ofstream(dir / "tile.hpp") << ls::render_header(q, p, "tile");
        includes += "#include \"tile.hpp\"\n";
        body += "    for (int w = 0; w < 4; ++w) for (int l = 0; l < 64; ++l) for (int i = 0; i < tile::D::items; ++i) {\n"
                "        auto e = tile::D::which(w, l, i); auto s = tile::D::where(e.row, e.col);\n"
                "        if (s.wave != w || s.lane != l || s.reg != tile::D::slot(w, l, i).reg) std::printf(\"tile mismatch\\n\"); }\n";
        ls::TileLayout tl(ins, t, ls::Operand::D, q.mods, p);
        // Steps: tile_n 1 x repeat_n 2 (N 64 over 2 waves of 16) x tile_m 2 x repeat_m 2 (M 128 over 2 waves x 2 x 16).
        CHECK(tl.regs() == 8 * 4);
    }
    std::ofstream(dir / "main.cpp") << "#include <cstdio>\n" << includes << "int main() {\n" << body << "}\n";
    // Device-only HIP compiles are a separate CTest test; here the host compiler.
    lstest::Run build = lstest::run_command("cd " + dir.string() + " && c++ -std=c++17 -O0 -Wall -Wextra -Werror main.cpp -o main");
    INFO(build.err.substr(0, 4000));
    REQUIRE(build.status == 0);
    lstest::Run run = lstest::run_command((dir / "main").string());
    REQUIRE(run.status == 0);
    CHECK(run.out.find("tile mismatch") == std::string::npos);
    CHECK(headers > 150);
    // Compare line by line (the program prints in the same order as expected_lines builds).
    std::string got = run.out;
    REQUIRE(got.size() == expected.size());
    CHECK(got == expected);
    std::filesystem::remove_all(dir);
}

TEST_CASE("header: bad input exits with the reason and writes nothing") {
    const auto out = lstest::temp_path("lanescope_header_bad.hpp");
    std::filesystem::remove(out);
    const std::string cli = std::string(LANESCOPE_CLI) + " header ";
    for (const std::string bad : {"-a gfx942 -i v_mfma_f32_32x32x1_2b_f32", "-a gfx942 -i v_mfma_f32_32x32x8_f16 --namespace 9x",
                                  "-a gfx942 -i v_mfma_f32_32x32x8_f16 --waves 2x2 --shape 48x64"}) {
        lstest::Run r = lstest::run_command(cli + bad + " -o " + out.string());
        INFO(bad << ": " << r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find("error:") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
    }
    CHECK(lstest::run_command(cli + "-a gfx942 -i v_mfma_f32_32x32x8_f16").status == 2);  // no -o
}
