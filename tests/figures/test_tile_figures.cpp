// Tile figures (figure with --waves/--tiles-per-wave/--shape) checked from
// first principles: which wave holds a cell follows from the wave grid alone
// (docs/tiles.md: row r of C/A is in wave row (r / (M*RM)) mod WM, column c of
// C/B in wave column (c / (N*RN)) mod WN; A is shared along N, B along M), and
// which lane group from the single instruction's where() at (r mod M, c mod N).
// The SVG's fill rectangles are parsed back and must cover every cell exactly,
// with exactly the expected colours.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "skip.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#include <stb/stb_image.h>

namespace ls = lanescope;
namespace fig = lanescope::figures;
using namespace figtest;

namespace {

struct TileCase {
    const char* arch;
    const char* instruction;
    ls::Operand operand;
    ls::TileParams params;  // m, n, k as given (0: one wave-grid tile / the instruction's K)
    int wave = -1;
};

ls::TileParams params(int wm, int wn, int rm, int rn, int m = 0, int n = 0, int k = 0) {
    ls::TileParams p;
    p.waves_m = wm, p.waves_n = wn, p.tiles_m = rm, p.tiles_n = rn, p.m = m, p.n = n, p.k = k;
    return p;
}

const std::vector<TileCase>& cases() {
    static const std::vector<TileCase> c = {
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::D, params(2, 2, 2, 1, 128, 128)},
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::A, params(2, 2, 2, 1, 128, 128, 16)},
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::B, params(2, 2, 2, 1, 128, 128, 16)},
        {"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::D, params(4, 1, 1, 1)},
        {"gfx950", "v_mfma_f32_16x16x32_f16", ls::Operand::A, params(4, 1, 1, 2, 64, 32, 64)},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", ls::Operand::A, params(2, 2, 1, 1), 32},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", ls::Operand::D, params(2, 2, 1, 2, 64, 64), 32},
        {"gfx1200", "v_wmma_f32_16x16x16_f16", ls::Operand::B, params(1, 2, 1, 1, 16, 64, 32), 32},
    };
    return c;
}

struct Resolved {
    const ls::Instruction* ins;
    const ls::Target* target;
    ls::ResolvedModifiers mods;
};
Resolved resolve(const TileCase& c) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target(c.arch);
    const ls::Instruction& ins = cat.find_instruction(t, c.instruction);
    ls::Modifiers m;
    m.wave = c.wave;
    return {&ins, &t, ls::resolve_modifiers(ins, t, m)};
}

fig::FigureSpec spec_of(const Resolved& r, std::vector<ls::Operand> ops, std::optional<ls::TileParams> tile) {
    fig::FigureSpec s;
    s.ins = r.ins, s.target = r.target, s.mods = r.mods, s.operands = std::move(ops), s.tile = tile;
    return s;
}

// The expected fills of every cell of a tile operand, from the wave grid and
// the single instruction's lanes.
std::vector<std::vector<std::string>> expected_fills(const TileCase& c, const Resolved& r, int& rows, int& cols) {
    const ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, c.operand, r.mods);
    const ls::TileParams& p = c.params;
    const int M = r.ins->m, N = r.ins->n;
    const int WM = p.waves_m, WN = p.waves_n, waves = WM * WN;
    const bool rows_m = c.operand != ls::Operand::B, cols_n = c.operand != ls::Operand::A;
    const int TM = p.m ? p.m : M * p.tiles_m * WM, TN = p.n ? p.n : N * p.tiles_n * WN, TK = p.k ? p.k : r.ins->k;
    rows = rows_m ? TM : TK;
    cols = cols_n ? TN : TK;
    const int group = ls::is_cdna(r.ins->families.front()) ? M : 16;  // the hardware's lane group
    const int groups = r.mods.wave / group;
    std::vector<std::vector<std::string>> out(static_cast<size_t>(rows) * cols);
    for (int row = 0; row < rows; ++row)
        for (int col = 0; col < cols; ++col) {
            std::vector<int> wms, wns;
            for (int w = 0; w < WM; ++w)
                if (!rows_m || (row / (M * p.tiles_m)) % WM == w) wms.push_back(w);
            for (int w = 0; w < WN; ++w)
                if (!cols_n || (col / (N * p.tiles_n)) % WN == w) wns.push_back(w);
            std::vector<std::string>& f = out[static_cast<size_t>(row) * cols + col];
            for (const ls::Location& loc : L.where({0, row % L.rows(), col % L.cols()}))
                for (int wm : wms)
                    for (int wn : wns)
                        f.push_back((waves > 1 ? ls::wave_color(wm * WN + wn, loc.lane / group, groups, ls::Theme::Light)
                                               : ls::categorical(loc.lane / group, ls::Theme::Light))
                                        .hex());
            std::sort(f.begin(), f.end());
        }
    return out;
}

// Parses the SVG's fill rectangles back onto a rows x cols grid: every
// rectangle must sit on cell columns and inside one cell row, and every cell
// must be covered exactly once (its slices' heights add up to the cell).
// Returns each cell's fills, sorted; an empty result after a FAIL_CHECK.
std::vector<std::vector<std::string>> cells_from_svg(const std::string& svg, int rows, int cols) {
    const std::vector<SvgRect> rects = svg_fill_rects(svg);
    REQUIRE_FALSE(rects.empty());
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    for (const SvgRect& r : rects) {
        x0 = std::min(x0, r.x), y0 = std::min(y0, r.y);
        x1 = std::max(x1, r.x + r.w), y1 = std::max(y1, r.y + r.h);
    }
    const double cw = (x1 - x0) / cols, ch = (y1 - y0) / rows;
    const double eps = 0.03;  // two decimals in the file
    std::vector<std::vector<std::string>> fills(static_cast<size_t>(rows) * cols);
    std::vector<double> covered(fills.size(), 0.0);
    for (const SvgRect& r : rects) {
        const double c_from = (r.x - x0) / cw, c_to = (r.x + r.w - x0) / cw;
        const int a = static_cast<int>(std::lround(c_from)), b = static_cast<int>(std::lround(c_to));
        const int row = static_cast<int>(std::floor((r.y - y0 + eps) / ch));
        if (std::abs(c_from - a) * cw > eps || std::abs(c_to - b) * cw > eps || b <= a || row < 0 || row >= rows ||
            r.y + r.h > y0 + (row + 1) * ch + eps) {
            FAIL_CHECK("rectangle at " << r.x << "," << r.y << " size " << r.w << "x" << r.h << " is not on the cell grid");
            return {};
        }
        for (int c = a; c < b; ++c) {
            fills[static_cast<size_t>(row) * cols + c].push_back(r.fill);
            covered[static_cast<size_t>(row) * cols + c] += r.h;
        }
    }
    size_t bad = 0;
    for (size_t i = 0; i < covered.size(); ++i) {
        bad += std::abs(covered[i] - ch) > 2 * eps;
        std::sort(fills[i].begin(), fills[i].end());
    }
    CHECK(bad == 0);
    return fills;
}

double label_em(const std::string& s) {  // an upper bound of DejaVu Sans advances, per character
    double em = 0;
    for (char c : s) em += std::string("[]():.,").find(c) != std::string::npos ? 0.4 : 0.64;
    return em;
}

}  // namespace

TEST_CASE("tile SVG: every cell covered once per copy, coloured by the wave the wave grid gives it") {
    for (const TileCase& c : cases())
        for (double width : {0.0, 320.0, 667.0}) {  // natural, a column and a page in CSS px
            INFO(c.arch << " " << c.instruction << " " << ls::operand_name(c.operand) << " " << c.params.describe()
                        << " width " << width);
            const Resolved r = resolve(c);
            fig::FigureSpec spec = spec_of(r, {c.operand}, c.params);
            spec.fit_width = width;
            spec.min_font = width > 0 ? 5 / 0.75 : 0;
            const fig::Figure f = fig::build_figure(spec);
            const std::string svg = fig::to_svg(f);
            REQUIRE(xml_problem(svg).empty());
            int rows = 0, cols = 0;
            const auto expected = expected_fills(c, r, rows, cols);
            const auto got = cells_from_svg(svg, rows, cols);
            REQUIRE(got.size() == expected.size());
            size_t wrong = 0;
            for (size_t i = 0; i < got.size(); ++i)
                if (got[i] != expected[i]) {
                    if (wrong++ < 3)
                        FAIL_CHECK("cell (" << i / cols << ", " << i % cols << "): " << got[i].size() << " fills, expected "
                                            << expected[i].size());
                }
            CHECK(wrong == 0);
            // Every wave's colour appears, and the legend names every wave.
            const int waves = c.params.waves_m * c.params.waves_n;
            std::set<std::string> all;
            for (const auto& v : got) all.insert(v.begin(), v.end());
            const int group = ls::is_cdna(r.ins->families.front()) ? r.ins->m : 16;
            for (int w = 0; w < waves; ++w) {
                CHECK(all.count(ls::wave_color(w, 0, r.mods.wave / group, ls::Theme::Light).hex()) == 1);
                CHECK(svg.find(">wave " + std::to_string(w) + " (" + std::to_string(w / c.params.waves_n) + "," +
                               std::to_string(w % c.params.waves_n) + ")<") != std::string::npos);
            }
            // The title carries the tile parameters (with the shape filled in).
            const ls::TileLayout t(*r.ins, *r.target, c.operand, r.mods, c.params);
            CHECK(svg.find(t.params().describe()) != std::string::npos);
            // Labelled figures name the wave first: "w3 v12" over "L17", the wave one of the cell's.
            for (const SvgTile& tile : svg_tiles(svg)) {
                REQUIRE(tile.lines.size() == 2);
                REQUIRE(tile.lines[0].rfind('w', 0) == 0);
                const int w = std::atoi(tile.lines[0].c_str() + 1);
                CHECK(w < waves);
                CHECK(tile.lines[1].rfind('L', 0) == 0);
            }
            if (width == 0) CHECK(svg_tiles(svg).size() == t.entries().size());  // natural: every copy labelled
        }
}

TEST_CASE("tile registers view: a block per wave, every part of every lane register, the wave's hue") {
    const TileCase tcs[] = {
        {"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::A, params(2, 2, 2, 1, 128, 64, 16)},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", ls::Operand::D, params(2, 2, 1, 2, 64, 64), 32},
    };
    for (const TileCase& c : tcs) {
        INFO(c.instruction << " " << ls::operand_name(c.operand) << " " << c.params.describe());
        const Resolved r = resolve(c);
        fig::FigureSpec spec = spec_of(r, {c.operand}, c.params);
        spec.view = ls::View::Registers;
        const std::string svg = fig::to_svg(fig::build_figure(spec));
        REQUIRE(xml_problem(svg).empty());
        const ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, c.operand, r.mods);
        const ls::TileLayout t(*r.ins, *r.target, c.operand, r.mods, c.params);
        const ls::TileParams& p = c.params;
        const int M = r.ins->m, N = r.ins->n, WN = p.waves_n, group = ls::is_cdna(r.ins->families.front()) ? M : 16;
        const int groups = r.mods.wave / group;
        const std::vector<SvgTile> tiles = svg_tiles(svg);
        CHECK(tiles.size() == t.entries().size());  // one part per (element, wave, location)
        std::set<std::string> ids;
        size_t wrong = 0;
        for (const SvgTile& tile : tiles) {
            REQUIRE(ids.insert(tile.id).second);
            // "A.w1.v3.l17.0" and "A[r][c]": the element's wave, lane and register from first principles.
            int wave = -1, reg = -1, lane = -1, row = -1, col = -1;
            REQUIRE(std::sscanf(tile.id.c_str() + 2, "w%d.v%d.l%d", &wave, &reg, &lane) == 3);
            REQUIRE(std::sscanf(tile.lines[0].c_str() + 1, "[%d][%d]", &row, &col) == 2);
            const bool rows_m = c.operand != ls::Operand::B, cols_n = c.operand != ls::Operand::A;
            bool ok = (!rows_m || (row / (M * p.tiles_m)) % p.waves_m == wave / WN) &&
                      (!cols_n || (col / (N * p.tiles_n)) % WN == wave % WN);
            bool placed = false;
            for (const ls::Location& loc : L.where({0, row % L.rows(), col % L.cols()}))
                placed = placed || (loc.lane == lane && loc.reg == reg % L.regs());
            ok = ok && placed && tile.fill == ls::wave_color(wave, lane / group, groups, ls::Theme::Light).hex();
            if (!ok && wrong++ < 3) FAIL_CHECK("tile " << tile.id << " '" << tile.lines[0] << "' fill " << tile.fill);
        }
        CHECK(wrong == 0);
        for (int w = 0; w < t.waves(); ++w) CHECK(svg.find(">wave " + std::to_string(w) + "</text>") != std::string::npos);
        // Fitted to a column: colours only, no per-cell text, no font under the minimum.
        spec.fit_width = 320, spec.min_font = 5 / 0.75;
        const std::string small = fig::to_svg(fig::build_figure(spec));
        CHECK(xml_problem(small).empty());
        CHECK(svg_tiles(small).empty());
        CHECK_FALSE(svg_fill_rects(small).empty());
    }
}

TEST_CASE("a tile of one wave and one sub-tile is drawn as its instruction, apart from the heading") {
    struct One {
        const char* arch;
        const char* instruction;
        std::vector<ls::Operand> ops;
        int wave;
        double width;
    };
    const One ones[] = {
        {"gfx942", "v_mfma_f32_32x32x8_f16", {ls::Operand::D}, -1, 0},
        {"gfx942", "v_mfma_f32_32x32x8_f16", {ls::Operand::A, ls::Operand::B, ls::Operand::D}, -1, 0},
        {"gfx942", "v_mfma_f32_16x16x16_f16", {ls::Operand::D}, -1, 320},
        {"gfx942", "v_mfma_f32_32x32x8_f16", {ls::Operand::A, ls::Operand::B, ls::Operand::D}, -1, 1000},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", {ls::Operand::A}, 64, 0},
        {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", {ls::Operand::A}, -1, 667},
        {"gfx942", "v_mfma_f32_32x32x8_f16", {ls::Operand::A}, -1, -1},  // registers view, natural
        {"gfx1100", "v_wmma_f32_16x16x16_f16", {ls::Operand::D}, 32, -320},  // registers view, a column
    };
    for (const One& o : ones) {
        INFO(o.arch << " " << o.instruction << " operands " << o.ops.size() << " width " << o.width);
        const Resolved r = resolve({o.arch, o.instruction, ls::Operand::D, {}, o.wave});
        fig::FigureSpec a = spec_of(r, o.ops, std::nullopt), b = spec_of(r, o.ops, ls::TileParams{});
        if (o.width < 0) a.view = b.view = ls::View::Registers;  // a negative width: the registers view
        a.fit_width = b.fit_width = o.width == -1 ? 0 : std::abs(o.width);
        a.min_font = b.min_font = a.fit_width > 0 ? 5 / 0.75 : 0;
        const fig::Figure fa = fig::build_figure(a), fb = fig::build_figure(b);
        CHECK(fa.title != fb.title);
        REQUIRE(fa.tiles.size() == fb.tiles.size());
        REQUIRE_FALSE(fa.tiles.empty());
        // A longer (wrapped) title may move everything down by one amount.
        const double dy = fb.tiles.front().y - fa.tiles.front().y;
        CHECK(dy >= 0);
        size_t differ = 0;
        for (size_t i = 0; i < fa.tiles.size(); ++i) {
            const fig::Tile &x = fa.tiles[i], &y = fb.tiles[i];
            differ += !(x.x == y.x && std::abs(x.y + dy - y.y) < 1e-9 && x.w == y.w && x.h == y.h && x.fill == y.fill &&
                        x.ink == y.ink && x.id == y.id && x.lines == y.lines);
        }
        CHECK(differ == 0);
        CHECK(fa.tile_font == fb.tile_font);
        CHECK(fa.tile_grid == fb.tile_grid);
        REQUIRE(fa.lines.size() == fb.lines.size());
        for (size_t i = 0; i < fa.lines.size(); ++i) {
            CHECK(fa.lines[i].x1 == fb.lines[i].x1);
            CHECK(fa.lines[i].y1 + dy == Approx(fb.lines[i].y1));
            CHECK(fa.lines[i].width == fb.lines[i].width);
        }
        REQUIRE(fa.legend.size() == fb.legend.size());
        for (size_t i = 0; i < fa.legend.size(); ++i) {
            CHECK(fa.legend[i].label == fb.legend[i].label);
            CHECK(fa.legend[i].color == fb.legend[i].color);
        }
        CHECK(fa.legend_title == fb.legend_title);
        // The indices, the subtitle and the legend: every non-bold text, shifted by dy.
        std::vector<std::pair<std::string, double>> ia, ib;
        for (const fig::Text& t : fa.texts)
            if (!t.bold) ia.push_back({t.text, t.y + dy});
        for (const fig::Text& t : fb.texts)
            if (!t.bold) ib.push_back({t.text, t.y});
        REQUIRE(ia.size() == ib.size());
        for (size_t i = 0; i < ia.size(); ++i) {
            CHECK(ia[i].first == ib[i].first);
            CHECK(ia[i].second == Approx(ib[i].second));
        }
    }
}

TEST_CASE("tile frames: instruction tiles thin, waves thicker, the wave grid's repetitions as the frame") {
    const TileCase c{"gfx942", "v_mfma_f32_32x32x8_f16", ls::Operand::D, params(2, 2, 2, 1, 256, 256)};
    const Resolved r = resolve(c);
    for (double width : {0.0, 667.0}) {
        fig::FigureSpec spec = spec_of(r, {c.operand}, c.params);
        spec.fit_width = width;
        spec.min_font = width > 0 ? 5 / 0.75 : 0;
        const fig::Figure f = fig::build_figure(spec);
        double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
        for (const fig::Tile& t : f.tiles) {
            x0 = std::min(x0, t.x), y0 = std::min(y0, t.y);
            x1 = std::max(x1, t.x + t.w), y1 = std::max(y1, t.y + t.h);
        }
        const double cw = (x1 - x0) / 256, ch = (y1 - y0) / 256;
        // Horizontal lines across the whole tile, by row; vertical ones by column.
        std::map<int, double> row_line, col_line;
        for (const fig::Line& l : f.lines) {
            if (l.y1 == l.y2 && std::abs(std::abs(l.x2 - l.x1) - (x1 - x0)) < 1e-6)
                row_line[static_cast<int>(std::lround((l.y1 - y0) / ch))] = l.width;
            if (l.x1 == l.x2 && std::abs(std::abs(l.y2 - l.y1) - (y1 - y0)) < 1e-6)
                col_line[static_cast<int>(std::lround((l.x1 - x0) / cw))] = l.width;
        }
        INFO("width " << width);
        // Rows: an instruction is 32 rows, a wave 2 sub-tiles (64), the wave grid 2 waves (128).
        std::set<int> rows_expected, cols_expected;
        for (int i = 0; i <= 256; i += 32) rows_expected.insert(i), cols_expected.insert(i);
        std::set<int> rows_seen, cols_seen;
        for (const auto& [k, w] : row_line) rows_seen.insert(k);
        for (const auto& [k, w] : col_line) cols_seen.insert(k);
        CHECK(rows_seen == rows_expected);
        CHECK(cols_seen == cols_expected);
        const double frame = row_line[0];
        CHECK(row_line[256] == frame);
        CHECK(row_line[128] == frame);              // a repetition of the wave grid's tile
        CHECK(row_line[64] < frame);                // a wave boundary
        CHECK(row_line[32] < row_line[64]);         // an instruction boundary inside a wave
        CHECK(col_line[64] == frame);               // columns: N 32 x 1 sub-tile x 2 waves
        CHECK(col_line[32] < frame);
        CHECK(col_line[32] == row_line[64]);        // a wave boundary either way
        CHECK(col_line[192] == frame);
    }
}

TEST_CASE("tile TikZ at a column and a page: every font at least --min-font, the width kept, labels inside cells") {
    struct Case {
        const char* tile;
        const char* width;  // "" is TikZ's default, a column
        double width_pt, min_font;
    };
    const char* d256 = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D --waves 2x2 --tiles-per-wave 2x1 --shape 256x256";
    const char* gemm256 = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all --waves 2x2 --tiles-per-wave 2x1 --shape 256x256x64";
    const char* rdna3 = "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand all --waves 2x2";
    const char* small = "-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand D --waves 2x1";
    const Case cases[] = {
        {d256, "", 240, 5},      {d256, "", 240, 7},     {d256, "--width page", 500, 5}, {d256, "--width page", 500, 7},
        {gemm256, "--width page", 500, 5},               {rdna3, "", 240, 5},            {rdna3, "--width 20cm", 569.06, 7},
        {small, "", 240, 5},     {small, "--width page", 500, 7},
    };
    for (const Case& c : cases) {
        const char* t = c.tile;
        const std::pair<const char*, double> width{c.width, c.width_pt};
        const double min_font = c.min_font;
        INFO(t << " " << width.first << " --min-font " << min_font);
        Run r = cli(std::string("figure ") + t + " --format tikz " + width.first + " --min-font " +
                    std::to_string(static_cast<int>(min_font)) + "pt -o -");
        REQUIRE(r.status == 0);
        const std::string& tex = r.out;
        const size_t bg = tex.find("] (0,0) rectangle (");
        REQUIRE(bg != std::string::npos);
        const double w_units = std::atof(tex.c_str() + bg + 19);
        CHECK(w_units * 0.5 <= width.second + 0.5);
        CHECK(w_units * 0.5 >= 0.6 * width.second);
        size_t fonts = 0;
        for (size_t p = tex.find("\\fontsize{"); p != std::string::npos; p = tex.find("\\fontsize{", p + 1)) {
            CHECK(std::atof(tex.c_str() + p + 10) >= min_font - 1e-9);
            ++fonts;
        }
        CHECK(fonts > 3);
        const size_t style = tex.find("tile/.style={");
        REQUIRE(style != std::string::npos);
        const double tile_pt = std::atof(tex.c_str() + tex.find("\\fontsize{", style) + 10);
        size_t nodes = 0;
        for (size_t p = tex.find("\\node[tile,"); p != std::string::npos; p = tex.find("\\node[tile,", p + 1)) {
            ++nodes;
            const std::string node = tex.substr(p, tex.find(";\n", p) - p);
            const double w = std::atof(node.c_str() + node.find("minimum width=") + 14);
            const std::string text = node.substr(node.rfind('{') + 1, node.rfind('}') - node.rfind('{') - 1);
            for (size_t a = 0;;) {
                const size_t b = text.find("\\\\", a);
                const std::string line = text.substr(a, b == std::string::npos ? std::string::npos : b - a);
                if (label_em(line) * tile_pt > w) FAIL_CHECK("label '" << line << "' is wider than its " << w << " pt cell");
                if (b == std::string::npos) break;
                a = b + 2;
            }
        }
        // Big tiles are colours only: fills, no nodes.
        if (std::string(t).find("256x256") != std::string::npos) {
            CHECK(nodes == 0);
            CHECK(tex.find("\\fill[") != std::string::npos);
        }
    }
}

TEST_CASE("tile PNG: every wave's colour in its pixels, at a small and a large size") {
    if (fig::find_font().empty()) {
        LANESCOPE_SKIP("no TrueType font (fonts-dejavu-core): PNG test skipped");
    }
    const TileCase c{"gfx942", "v_mfma_f32_16x16x16_f16", ls::Operand::D, params(2, 4, 1, 1)};
    const Resolved r = resolve(c);
    for (double width : {0.0, 320.0}) {
        fig::FigureSpec spec = spec_of(r, {c.operand}, c.params);
        spec.fit_width = width;
        spec.min_font = width > 0 ? 5 / 0.75 : 0;
        const fig::Figure f = fig::build_figure(spec);
        const std::vector<std::uint8_t> png = fig::to_png(f, 1.0);
        int w = 0, h = 0, ch = 0;
        unsigned char* px = stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &ch, 3);
        REQUIRE(px != nullptr);
        CHECK(w == static_cast<int>(std::ceil(f.width)));
        std::set<unsigned> seen;
        for (int i = 0; i < w * h; ++i) seen.insert((px[3 * i] << 16) | (px[3 * i + 1] << 8) | px[3 * i + 2]);
        stbi_image_free(px);
        for (int wave = 0; wave < 8; ++wave)
            for (int g = 0; g < 4; ++g) {
                const ls::Rgb k = ls::wave_color(wave, g, 4, ls::Theme::Light);
                INFO("wave " << wave << " lane group " << g << " width " << width);
                CHECK(seen.count((k.r << 16) | (k.g << 8) | k.b) == 1);
            }
    }
}

TEST_CASE("wave colours: a distinct hue per wave, lane groups as shades, in both themes") {
    for (ls::Theme th : {ls::Theme::Light, ls::Theme::Dark}) {
        std::set<std::string> waves;
        for (int w = 0; w < 16; ++w) waves.insert(ls::wave_color(w, 0, 4, th).hex());
        CHECK(waves.size() == 16);
        std::set<std::string> all;
        for (int w = 0; w < 16; ++w)
            for (int g = 0; g < 4; ++g) all.insert(ls::wave_color(w, g, 4, th).hex());
        CHECK(all.size() == 64);
        CHECK(ls::wave_color(16, 1, 2, th) == ls::wave_color(0, 1, 2, th));  // repeats after 16
        CHECK(ls::wave_color(3, 0, 1, th) == ls::wave_color(3, 0, 4, th));   // group 0 is the wave's hue
    }
}

TEST_CASE("figure with bad tile options: a clear message, exit 2 (malformed) or 1 (not legal here), nothing written or clobbered") {
    const std::string dir = temp_dir("tilebad");
    const std::string base = "figure -a gfx942 -i v_mfma_f32_32x32x8_f16 ";
    struct Bad {
        std::string args, says;
        int status;  // README: a malformed option is a usage error (2), a tile this instruction cannot make is 1
    };
    const Bad bads[] = {
        {"--operand D --waves 2", "expected WMxWN", 2},
        {"--operand D --waves 0x2", "--waves '0x2' is not legal", 2},
        {"--operand all --waves 2x2x2", "expected WMxWN", 2},
        {"--operand D --tiles-per-wave ax1", "--tiles-per-wave 'ax1' is not legal", 2},
        {"--operand D --shape 100x64", "not a multiple of the wave grid's M tile 32", 1},
        {"--operand D --waves 2x2 --shape 64x96", "not a multiple of the wave grid's N tile 64", 1},
        {"--operand A --shape 64x64x12", "not a multiple of the instruction's K 8", 1},
        {"--operand all --shape 64x64x12", "not a multiple of the instruction's K 8", 1},
        {"--operand D --shape 64x64x8x8", "expected TMxTN or TMxTNxTK", 2},
        {"--operand D --waves 2x2 --color block", "legal with tile options: lane", 1},
        {"--operand D --waves 2x2 --shape 4096x4096", "figure draws at most 2097152", 1},
    };
    const std::string kept = dir + "/kept.svg";
    fig::write_file_atomic(kept, "mine");
    const char* outs[] = {"/new.svg", "/new.png", "/new.tex"};
    size_t n = 0;
    for (const Bad& b : bads) {
        INFO(b.args);
        const char* out = outs[n++ % 3];  // each format in turn
        Run r = cli(base + b.args + " -o " + dir + out);
        CHECK(r.status == b.status);
        CHECK(r.err.find(b.says) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir + out));
        r = cli(base + b.args + " -o " + kept);
        CHECK(r.status == b.status);
        CHECK(read_file(kept) == "mine");
    }
    Run r = cli("figure -a gfx942 -i v_mfma_f32_4x4x4_16b_f16 --operand D --waves 2x2 -o " + dir + "/x.svg");
    CHECK(r.status == 1);
    CHECK(r.err.find("single-block instructions only") != std::string::npos);
    size_t entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        (void)e;
        ++entries;
    }
    CHECK(entries == 1);  // kept.svg alone: no temporary left behind
    std::filesystem::remove_all(dir);
}

TEST_CASE("figure without tile options is the single-instruction figure, with them all three formats") {
    const std::string dir = temp_dir("tileok");
    const std::string base = "figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand all ";
    Run plain = cli(base + "-o -");
    Run single = cli(base + "--waves 1x1 -o -");
    REQUIRE(plain.status == 0);
    REQUIRE(single.status == 0);
    CHECK(plain.out != single.out);  // the title names the tile
    CHECK(plain.out.find("waves 1x1") == std::string::npos);
    CHECK(single.out.find("waves 1x1, tiles per wave 1x1, shape 32x32x8") != std::string::npos);
    const std::string tile = base + "--waves 2x2 --tiles-per-wave 2x1 --shape 128x128x16 ";
    for (const char* name : {"/t.svg", "/t.tex", "/t.png"}) {
        if (std::string(name) == "/t.png" && fig::find_font().empty()) continue;
        INFO(name);
        Run r = cli(tile + "--width page -o " + dir + name);
        CHECK(r.status == 0);
        CHECK(std::filesystem::file_size(dir + name) > 1000);
    }
    CHECK(xml_problem(read_file(dir + "/t.svg")).empty());
    CHECK(read_file(dir + "/t.tex").find("\\begin{tikzpicture}") != std::string::npos);
    std::filesystem::remove_all(dir);
}
