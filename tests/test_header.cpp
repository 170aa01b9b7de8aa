// Generated headers (header.hpp): compiled with the host compiler into a
// program that prints every which()/where() answer of every single-block
// catalog instruction; the answers must equal the engine's.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/header.hpp"
#include "lanescope/memory.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
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
    int closed = 0, tabled = 0;
    lstest::for_each_default([&](const lstest::Case& c) {
        if (c.ins->blocks != 1) return;
        std::string ns = "h" + std::to_string(headers++);
        ls::Query q{c.ins, c.target, c.mods};
        const std::string text = ls::render_header(q, {}, ns);
        for (size_t at = 0; (at = text.find("closed_form = ", at)) != std::string::npos; ++at)
            ++(text.compare(at, 18, "closed_form = true") == 0 ? closed : tabled);
        // Closed forms hold no tables of elements (a per-item register table at most).
        if (text.find("closed_form = false") == std::string::npos) CHECK(text.find("item_row[") == std::string::npos);
        std::ofstream(dir / (ns + ".hpp")) << text;
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
        // The same tile with --tables: every answer of the closed form equals the table form's.
        ls::HeaderOptions tables;
        tables.tables = true;
        const std::string table_text = ls::render_header(q, p, "tile_tables", tables);
        CHECK(table_text.find("closed_form = false") != std::string::npos);
        CHECK(table_text.find("closed_form = true") == std::string::npos);
        std::ofstream(dir / "tile_tables.hpp") << table_text;
        includes += "#include \"tile_tables.hpp\"\n";
        for (const char* X : {"A", "B", "C", "D"}) {
            const std::string a = std::string("tile::") + X, b = std::string("tile_tables::") + X;
            body += "    static_assert(" + a + "::closed_form && !" + b + "::closed_form, \"forms\");\n"
                    "    for (int w = 0; w < 4; ++w) for (int l = 0; l < 64; ++l) for (int i = 0; i < " + a + "::items; ++i) {\n"
                    "        auto x = " + a + "::which(w, l, i); auto y = " + b + "::which(w, l, i);\n"
                    "        auto s = " + a + "::slot(w, l, i); auto u = " + b + "::slot(w, l, i);\n"
                    "        if (x.row != y.row || x.col != y.col || s.reg != u.reg || s.bit_lo != u.bit_lo || s.bit_hi != u.bit_hi)\n"
                    "            std::printf(\"tables differ " + std::string(X) + " %d %d %d\\n\", w, l, i); }\n";
        }
        // Register order: X::step(k_step, tile_m, tile_n, repeat_m, repeat_n) is the engine's step_of.
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D}) {
            ls::TileLayout to(ins, t, op, q.mods, p);
            const std::string X(ls::operand_name(op));
            for (int step = 0; step < to.steps(); ++step) {
                const ls::TileLayout::Step d = to.step_digits(step);
                body += "    if (tile::" + X + "::step(" + std::to_string(d.k_step) + ", " + std::to_string(d.tile_m) + ", " +
                        std::to_string(d.tile_n) + ", " + std::to_string(d.repeat_m) + ", " + std::to_string(d.repeat_n) +
                        ") != " + std::to_string(step) + ") std::printf(\"step mismatch " + X + " " + std::to_string(step) + "\\n\");\n";
            }
        }
    }
    std::ofstream(dir / "main.cpp") << "#include <cstdio>\n" << includes << "int main() {\n" << body << "}\n";
    // Device-only HIP compiles are a separate CTest test; here the host compiler.
    lstest::Run build = lstest::run_command("cd " + dir.string() + " && c++ -std=c++17 -O0 -Wall -Wextra -Werror main.cpp -o main");
    INFO(build.err.substr(0, 4000));
    REQUIRE(build.status == 0);
    lstest::Run run = lstest::run_command((dir / "main").string());
    REQUIRE(run.status == 0);
    CHECK(run.out.find("tile mismatch") == std::string::npos);
    CHECK(run.out.find("tables differ") == std::string::npos);
    CHECK(run.out.find("step mismatch") == std::string::npos);
    CHECK(headers > 150);
    WARN("operands in closed form: " << closed << ", with tables (not linear): " << tabled);
    CHECK(closed > 4 * tabled);  // tables: slots shared by several elements (sparse index, scales)
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

// Loads of the width `load` plans: for A and B of every single-block AMD instruction (and a tile),
// row- and column-major in LDS at the default leading dimension, the header's vector access is the
// bytes of plan_plain_loads' instructions (where the plan uses one width and no scratch register).
TEST_CASE("header: vector loads have the width lanescope-cli load plans") {
    int compared = 0;
    std::vector<std::string> differ;
    auto check = [&](const ls::Query& q, const ls::TileParams& tp) {
        const std::string text = ls::render_header(q, tp, "h");
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B}) {
            const size_t at = text.find("struct " + std::string(ls::operand_name(op)) + " {");
            if (at == std::string::npos) continue;
            ls::TileLayout t(*q.ins, *q.target, op, q.mods, tp);
            const int eb = t.instruction().element_bits();
            for (ls::MemoryOrder order : {ls::MemoryOrder::RowMajor, ls::MemoryOrder::ColMajor}) {
                const bool row = order == ls::MemoryOrder::RowMajor;
                const size_t v = text.find(row ? "vec_row_major = " : "vec_col_major = ", at);
                REQUIRE(v != std::string::npos);
                const int vec = std::stoi(text.substr(v + 16));
                ls::MemoryTile m;
                m.space = ls::MemorySpace::Lds;
                m.order = order;
                m.element_bits = eb;
                m.ld = ls::contiguous_extent(order, t.rows(), t.cols());
                std::vector<ls::MemoryOp> ops;
                try {
                    ops = ls::plan_plain_loads(*q.ins, *q.target, op, q.mods, m,
                                               tp.single() ? std::nullopt : std::optional<ls::TileParams>(tp));
                } catch (const ls::Error&) {
                    continue;  // sparse A and the like: no plain plan
                }
                std::set<int> bytes;
                bool temp = false;
                for (const auto& o : ops) {
                    bytes.insert(o.bytes);
                    temp |= o.via_temp;
                }
                if (bytes.size() != 1 || temp || eb < 8) continue;
                ++compared;
                if (vec * eb / 8 != *bytes.begin())
                    differ.push_back(q.target->gfx + " " + q.ins->mnemonic + " " + std::string(ls::operand_name(op)) +
                                     (row ? " row" : " col") + ": header " + std::to_string(vec * eb / 8) + " bytes, plan " +
                                     std::to_string(*bytes.begin()));
            }
        }
    };
    lstest::for_each_default([&](const lstest::Case& c) {
        if (c.ins->blocks != 1 || c.ins->vendor() != ls::Vendor::AMD) return;
        check(ls::Query{c.ins, c.target, c.mods}, {});
    });
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    check(ls::Query{&ins, &t, ls::resolve_modifiers(ins, t, {})}, ls::parse_tile_params("2x2", "", "256x256x64"));
    for (const auto& d : differ) UNSCOPED_INFO(d);
    CHECK(differ.empty());
    CHECK(compared > 200);
    WARN("vector widths compared with load's plan: " << compared);
}

// ldmatrix (PTX 9.7.14.5.15): lane l receives in register j row l/4, elements 2(l%4) and 2(l%4)+1 of
// the 8x8 matrix whose row r (r = 0..7) lane 8j + r names (.trans: the transposed matrix). The
// header's ldmatrix_row, simulated that way on the host over a row- and a column-major tile whose
// elements encode their own (row, col), must deliver exactly the header's which() items.
TEST_CASE("header: ldmatrix row addresses deliver the operand's fragments (host simulation)") {
    const auto dir = lstest::temp_path("lanescope_header_ldmatrix");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_90");
    std::string includes, body;
    int n = 0;
    for (const auto& [name, tile] : std::vector<std::pair<std::string, ls::TileParams>>{
             {"mma_m16n8k16_f32_f16", ls::parse_tile_params("2x2", "", "64x32x32")},
             {"mma_m16n8k8_f32_bf16", {}},
             {"mma_m16n8k16_f16_f16", ls::parse_tile_params("1x2", "2x1", "")}}) {
        const ls::Instruction& ins = cat.find_instruction(t, name);
        const std::string ns = "l" + std::to_string(n++);
        const std::string text = ls::render_header(ls::Query{&ins, &t, ls::resolve_modifiers(ins, t, {})}, tile, ns);
        // A (rows form) and B (columns form) both get the helper.
        CHECK(text.find("ldmatrix_trans_row_major = false") != std::string::npos);
        CHECK(text.find("ldmatrix_trans_row_major = true") != std::string::npos);
        std::ofstream(dir / (ns + ".hpp")) << text;
        includes += "#include \"" + ns + ".hpp\"\n";
        for (const char* X : {"A", "B"}) {
            const std::string T = ns + "::" + X;
            body += "    check<" + T + ">(\"" + ns + " " + X + "\");\n";
        }
    }
    std::ofstream(dir / "main.cpp") << "#include <cstdio>\n#include <vector>\n" << includes << R"(
static int bad = 0, checked = 0;
template <typename X>
void check(const char* what) {
    for (int order = 0; order < 2; ++order) {
        const bool row_major = order == 0;
        const long ld = row_major ? X::cols : X::rows;
        std::vector<unsigned> mem(static_cast<size_t>(X::rows) * X::cols);  // (row << 16 | col) per element
        for (int r = 0; r < X::rows; ++r)
            for (int c = 0; c < X::cols; ++c) mem[row_major ? r * ld + c : c * ld + r] = unsigned(r) << 16 | unsigned(c);
        const bool trans = row_major == X::ldmatrix_trans_row_major;
        for (int w = 0; w < X::waves; ++w)
            for (int s = 0; s < X::steps; ++s)
                for (int l = 0; l < 32; ++l)
                    for (int j = 0; j < X::step_regs; ++j)
                        for (int e = 0; e < 2; ++e) {
                            // The matrix row (or, .trans, the column) this element comes from, and its place in it.
                            const int src_lane = 8 * j + (trans ? 2 * (l % 4) + e : l / 4);
                            const int pos = trans ? l / 4 : 2 * (l % 4) + e;
                            const unsigned* row = X::ldmatrix_row(mem.data(), ld, row_major, w, src_lane, s);
                            const unsigned got = row[pos];
                            const auto want = X::which(w, l, s * X::step_items + 2 * j + e);
                            ++checked;
                            if (got != (unsigned(want.row) << 16 | unsigned(want.col))) {
                                if (bad++ < 5) std::printf("%s order %d wave %d step %d lane %d reg %d: (%u, %u) not (%d, %d)\n", what,
                                                           order, w, s, l, j, got >> 16, got & 0xFFFF, want.row, want.col);
                            }
                        }
    }
}
int main() {
)" << body << "    std::printf(\"checked %d, bad %d\\n\", checked, bad);\n    return bad != 0;\n}\n";
    lstest::Run build = lstest::run_command("cd " + dir.string() + " && c++ -std=c++17 -O1 -Wall -Wextra -Werror main.cpp -o main");
    INFO(build.err.substr(0, 4000));
    REQUIRE(build.status == 0);
    lstest::Run run = lstest::run_command((dir / "main").string());
    INFO(run.out);
    CHECK(run.status == 0);
    CHECK(run.out.find("bad 0") != std::string::npos);
    std::filesystem::remove_all(dir);
}

// load --format hip: the closed-form addresses (docs/memory.md) fill and drain exactly what the
// --tables form (the per-(wave, issue, lane) table) does, for every wave and lane: plain loads,
// padding, a swizzle, sub-dword halves, a tile of waves, bytes through scratch registers, stores.
TEST_CASE("load --format hip: closed-form addresses equal the address table, every wave and lane") {
    if (lstest::run_command("command -v clang++-19 >/dev/null").status != 0) {
        LANESCOPE_SKIP("clang++-19 not found: host run skipped");
    }
    const auto dir = lstest::temp_path("lanescope_load_closed");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::vector<std::string> cases = {
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --order row",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --order row --ld 40 --pad 8",
        "-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand A --order row --ld 64 --swizzle 4,1,8",
        "-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand B --order row --ld 64 --pad 4 --swizzle 4,1,8",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --order row --pad 4 --swizzle 4,1,8",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --shape 128x128x32 --order row --pad 8 --swizzle 8,1,4",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --shape 128x128x32 --order row",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --waves 2x2 --shape 128x128x32 --order col --pad 8",
        "-a gfx942 -i v_mfma_i32_32x32x16_i8 --operand A --order col --ld 32 --pad 1",
        "-a gfx1100 -i v_wmma_f16_16x16x16_f16 --operand C --order row --ld 16 --pad 2 --memory global",
        "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D --store --memory global --waves 2x1",
    };
    std::string includes, body;
    int closed = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO(cases[i]);
        const std::string c = "c" + std::to_string(i), t = "t" + std::to_string(i);
        for (const auto& [ns, extra] : {std::pair<std::string, std::string>{c, ""}, {t, " --tables"}}) {
            lstest::Run g = lstest::run_command(std::string(LANESCOPE_CLI) + " load " + cases[i] + " --format hip --namespace " + ns +
                                                extra + " -o " + (dir / (ns + ".hpp")).string());
            REQUIRE(g.status == 0);
            includes += "#include \"" + ns + ".hpp\"\n";
        }
        std::ifstream in(dir / (c + ".hpp"));
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.find("closed form of (wave, lane)") != std::string::npos) ++closed;
        const bool store = cases[i].find("--store") != std::string::npos;
        const bool tiled = cases[i].find("--waves") != std::string::npos;
        const std::string w = tiled ? "w, " : "";
        body += "    for (int w = 0; w < " + c + "::Plan::waves; ++w) for (int l = 0; l < " + c + "::Plan::lanes; ++l) {\n";
        if (store) {
            body += "        unsigned regs[" + c + "::Plan::regs];\n"
                    "        for (int r = 0; r < " + c + "::Plan::regs; ++r) regs[r] = 0x9E3779B9u * unsigned(r + 7 * l + 131 * w + 1);\n"
                    "        static unsigned char m1[1 << 18], m2[1 << 18];\n"
                    "        " + c + "::drain(m1, " + w + "l, regs);\n        " + t + "::drain(m2, " + w + "l, regs);\n"
                    "        for (unsigned i = 0; i < sizeof m1; ++i) if (m1[i] != m2[i]) { std::printf(\"" + c + " differs\\n\"); break; }\n";
        } else {
            body += "        unsigned r1[" + c + "::Plan::regs] = {}, r2[" + c + "::Plan::regs] = {};\n"
                    "        " + c + "::fill(mem, " + w + "l, r1);\n        " + t + "::fill(mem, " + w + "l, r2);\n"
                    "        for (int r = 0; r < " + c + "::Plan::regs; ++r) if (r1[r] != r2[r]) std::printf(\"" + c +
                    " differs at wave %d lane %d reg %d\\n\", w, l, r);\n";
        }
        body += "        ++compared;\n    }\n";
    }
    CHECK(closed == static_cast<int>(cases.size()));
    std::ofstream(dir / "main.cpp") << "#include <cstdio>\n" << includes
                                    << "static unsigned char mem[1 << 20];\nint main() {\n    long compared = 0;\n"
                                       "    for (unsigned i = 0; i < sizeof mem; ++i) mem[i] = (unsigned char)((i * 2654435761u) >> 13);\n"
                                    << body << "    std::printf(\"compared %ld\\n\", compared);\n}\n";
    lstest::Run build = lstest::run_command("cd " + dir.string() + " && clang++-19 -std=c++17 -O1 -Wall -Werror main.cpp -o main");
    INFO(build.err.substr(0, 4000));
    REQUIRE(build.status == 0);
    lstest::Run run = lstest::run_command((dir / "main").string());
    INFO(run.out.substr(0, 2000));
    REQUIRE(run.status == 0);
    CHECK(run.out.find("differs") == std::string::npos);
    CHECK(run.out.find("compared") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("header: the default namespace and include guard are unique per instruction, on every target") {
    // Two headers included together must not share a guard (the second would be skipped silently, leaving the
    // first instruction's index math): tcgen05.mma m128n64k16 and m64n64k16 once both became
    // ls_sm_100a_tcgen05_mma_cta_group_1_kind_f16.
    const auto& cat = ls::Catalog::builtin();
    size_t names = 0, blackwell = 0;
    for (const ls::Target& t : cat.targets()) {
        std::map<std::string, std::string> seen;  // namespace -> the instruction that has it
        for (const ls::Instruction* ins : cat.on(t.family))
            for (int wave : t.wave_sizes) {
                ls::Modifiers m;
                m.wave = wave;
                ls::ResolvedModifiers r;
                try {
                    r = ls::resolve_modifiers(*ins, t, m);
                } catch (const ls::Error&) {
                    continue;  // not at this wave size
                }
                const std::string ns = ls::default_header_namespace(*ins, t, r.wave);
                const std::string who = ins->mnemonic + " (" + ins->key(r.wave) + ") wave" + std::to_string(r.wave);
                INFO(t.gfx << " " << who << ": " << ns);
                CHECK_NOTHROW(ls::check_namespace_name(ns, "--namespace"));
                CHECK(ns.rfind("ls_" + t.gfx + "_", 0) == 0);
                const auto [it, fresh] = seen.emplace(ns, who);
                if (!fresh && it->second == who) continue;  // one instruction at two wave sizes that are one builtin
                INFO("also " << it->second);
                CHECK(fresh);
                ++names;
                if (t.family == ls::Family::Blackwell) ++blackwell;
            }
    }
    CHECK(names > 1000);
    CHECK(blackwell > 100);
    // The two that collided, by the command line.
    auto guard = [](const std::string& ins) {
        const lstest::Run r = lstest::run_command(std::string(LANESCOPE_CLI) + " header -a sm_100a -i " + ins + " -o -");
        const size_t at = r.out.find("#ifndef ");
        return r.status == 0 && at != std::string::npos ? r.out.substr(at, r.out.find('\n', at) - at) : "failed: " + r.err;
    };
    const std::string a = guard("tcgen05_mma_m128n64k16_f32_f16"), b = guard("tcgen05_mma_m64n64k16_f32_f16"),
                      ts = guard("tcgen05_mma_m128n64k16_f32_f16_ts");
    CHECK(a == "#ifndef LANESCOPE_HEADER_ls_sm_100a_tcgen05_mma_m128n64k16_f32_f16");
    CHECK(b == "#ifndef LANESCOPE_HEADER_ls_sm_100a_tcgen05_mma_m64n64k16_f32_f16");
    CHECK(ts == "#ifndef LANESCOPE_HEADER_ls_sm_100a_tcgen05_mma_m128n64k16_f32_f16_ts");
}
