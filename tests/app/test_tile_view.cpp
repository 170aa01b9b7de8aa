// Tile mode of the app (app/model/tile_view): colours per wave and lane
// group, the legend, the cached grids, hover links and the tooltip text.
// Expectations come from the tile's definition (docs/tiles.md): waves along N
// share A, waves along M share B, each C/D element lives in one wave, and a
// lane's registers hold what TileLayout::which says.
#include "model/tile_view.hpp"

#include <catch2/catch.hpp>

#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins, ls::Modifiers m = {}) {
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}
ls::TileParams big() { return ls::parse_tile_params("2x2", "2x2", "256x256x64"); }
}  // namespace

TEST_CASE("tile view: the options parse like the CLI's and refuse what is not legal") {
    const ls::TileParams p = ls::parse_tile_params("2x4", "2x1", "256x128x64");
    CHECK(p.waves_m == 2);
    CHECK(p.waves_n == 4);
    CHECK(p.tiles_m == 2);
    CHECK(p.tiles_n == 1);
    CHECK(p.m == 256);
    CHECK(p.n == 128);
    CHECK(p.k == 64);
    CHECK(ls::parse_tile_params("", "", "").single());
    CHECK(ls::parse_tile_params("", "", "64x32").k == 0);
    for (const char* bad : {"0x2", "2x", "x2", "2", "2x2x2", "-1x2", "2y2", "99999x1"})
        CHECK_THROWS_AS(ls::parse_tile_params(bad, "", ""), ls::Error);
    CHECK_THROWS_AS(ls::parse_tile_params("", "1x1x1", ""), ls::Error);
    CHECK_THROWS_AS(ls::parse_tile_params("", "", "64"), ls::Error);
    CHECK_THROWS_WITH(ls::parse_tile_params("", "", "64x"), Catch::Contains("TMxTN or TMxTNxTK"));
}

TEST_CASE("tile view: a 256x256 tile of 2x2 waves has the sizes and registers its definition gives") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const TileSet ts = resolve_tile(set, big());
    REQUIRE(ts.layouts.size() == 3);  // A, B, D (C is drawn as D)
    const ls::TileLayout& A = *ts.find(ls::Operand::A);
    const ls::TileLayout& B = *ts.find(ls::Operand::B);
    const ls::TileLayout& D = *ts.find(ls::Operand::C);
    CHECK(D.operand() == ls::Operand::D);
    CHECK((D.rows() == 256 && D.cols() == 256));
    CHECK((A.rows() == 256 && A.cols() == 64));
    CHECK((B.rows() == 64 && B.cols() == 256));
    // Registers per lane from element counts: D is split over 4 waves of 64 lanes (f32: one
    // element a register); each wave holds half of A's rows (f16: two a register), half of B's columns.
    CHECK(D.regs() == 256 * 256 / 4 / 64);
    CHECK(A.regs() == 128 * 64 / 64 / 2);
    CHECK(B.regs() == 64 * 128 / 64 / 2);
    const std::string summary = tile_summary(ts, *set.ins);
    CHECK_THAT(summary, Catch::Contains("waves 2x2, tiles per wave 2x2, shape 256x256x64"));
    CHECK_THAT(summary, Catch::Contains("C / D: 256x256, 256 VGPRs per lane"));
}

TEST_CASE("tile view: illegal tiles are refused with core's message, never half-built") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    ls::TileParams p;
    p.waves_m = 2, p.waves_n = 2, p.m = 100;
    CHECK_THROWS_WITH(resolve_tile(set, p), Catch::Contains("not a multiple"));
    p.m = 0, p.k = 12;
    CHECK_THROWS_WITH(resolve_tile(set, p), Catch::Contains("instruction's K 8"));
    // Larger than the app draws (core allows up to 16M elements): refused with the limit named.
    CHECK_NOTHROW(resolve_tile(set, ls::parse_tile_params("2x2", "", "1024x1024x64")));
    CHECK_THROWS_WITH(resolve_tile(set, ls::parse_tile_params("2x2", "", "2048x1024x64")), Catch::Contains("at most 1048576 cells"));
    // Multi-block instructions have no tiles (Triton's layouts do not use them).
    CHECK_THROWS_AS(resolve_tile(make("gfx942", "v_mfma_f32_4x4x4_16b_f16"), ls::TileParams{}), ls::Error);
}

TEST_CASE("tile view: a distinct hue per wave, distinct shades per lane group, the legend lists both") {
    for (ls::Theme theme : {ls::Theme::Light, ls::Theme::Dark}) {
        std::set<std::tuple<int, int, int>> seen;
        for (int w = 0; w < 16; ++w)
            for (int g = 0; g < 4; ++g) {
                const ls::Rgb c = ls::wave_color(w, g, 4, theme);
                seen.insert({c.r, c.g, c.b});
            }
        CHECK(seen.size() == 64);
    }
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");  // lane groups of 16: 4 per wave
    const TileSet ts = resolve_tile(set, big());
    const auto legend = tile_legend(ts, ls::Theme::Light);
    REQUIRE(legend.size() == 4 + 4);
    std::set<int> codes;
    for (const auto& e : legend) codes.insert(e.code);
    CHECK(codes.size() == legend.size());
    CHECK(legend[1].text == "wave 1 (0,1)");
    CHECK(legend[2].text == "wave 2 (1,0)");
    CHECK(legend[5].text == "lanes 16\u201331");
    // A wave entry matches exactly that wave's cells; a lane-group entry that group in every wave.
    for (int w = 0; w < 4; ++w)
        for (int g = 0; g < 4; ++g) {
            const int key = tile_colour_key(w, g, 4);
            for (const auto& e : legend)
                CHECK(tile_legend_matches(e.code, key, 4) ==
                      (e.kind == TileLegendEntry::Kind::Wave ? e.index == w : e.index == g));
        }
}

TEST_CASE("tile view: beyond 16 waves the legend has one entry per hue, naming the waves that share it") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const TileSet ts = resolve_tile(set, ls::parse_tile_params("4x8", "1x1", ""));  // 32 waves
    const auto legend = tile_legend(ts, ls::Theme::Light);
    REQUIRE(legend.size() == 16 + 2);
    CHECK(legend[3].text == "waves 3, 19");
    // Wave 19 has wave 3's hue: both match its entry, wave 4 does not.
    CHECK(ls::wave_color(19, 0, 2, ls::Theme::Light) == ls::wave_color(3, 0, 2, ls::Theme::Light));
    CHECK(tile_legend_matches(legend[3].code, tile_colour_key(19, 1, 2), 2));
    CHECK(tile_legend_matches(legend[3].code, tile_colour_key(3, 0, 2), 2));
    CHECK_FALSE(tile_legend_matches(legend[3].code, tile_colour_key(4, 0, 2), 2));
    const TileSet many = resolve_tile(set, ls::parse_tile_params("8x8", "1x1", ""));  // 64 waves
    CHECK(tile_legend(many, ls::Theme::Light)[5].text == "waves 5, 21, 37, \u2026");
    const TileSet most = resolve_tile(set, ls::parse_tile_params("32x32", "1x1", ""));  // 1024 waves
    CHECK(tile_legend(most, ls::Theme::Light)[15].text == "waves 15, 31, 47, \u2026");
}

TEST_CASE("tile view: the grid colours each cell by the wave and lane group that hold it") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const TileSet ts = resolve_tile(set, ls::parse_tile_params("2x2", "1x1", "128x128x16"));
    GridStyle st;
    st.cell_w = 3, st.cell_h = 3;
    for (const ls::TileLayout& t : ts.layouts) {
        const TileGrid g = build_tile_matrix_grid(t, ts, st);
        REQUIRE(g.tiles.size() == static_cast<size_t>(t.rows()) * t.cols());
        CHECK(g.form == LabelForm::None);  // 3 px cells carry no text
        std::set<int> keys;
        for (const Tile& tile : g.tiles) {
            const auto locs = t.where(tile.element);
            REQUIRE(tile.copies == static_cast<int>(locs.size()));
            // A: shared by the 2 waves along N; B: by the 2 along M; D: one wave.
            CHECK(tile.copies == (t.operand() == ls::Operand::D ? 1 : 2));
            CHECK(std::find(locs.begin(), locs.end(), ls::TileLocation{tile.wave, tile.loc}) != locs.end());
            // The wave's hue and lane group's shade (the group's first lane exactly), lighter with the lane.
            if (tile.loc.lane % 32 == 0) CHECK(tile.fill == ls::wave_color(tile.wave, tile.loc.lane / 32, 2, ls::Theme::Light));
            CHECK(tile.fill == ls::wave_lane_color(*set.ins, tile.wave, tile.loc.lane, 2, ls::Theme::Light));
            CHECK(tile.copy_fills.size() == static_cast<size_t>(tile.copies > 1 ? tile.copies : 0));
            keys.insert(tile.key);
        }
        // D: every wave and both lane groups appear; A and B show their first copy (wn = 0 or wm = 0).
        CHECK(keys.size() == (t.operand() == ls::Operand::D ? 8u : 4u));
    }
}

TEST_CASE("tile view: labels name the wave first and shrink with the cell") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const TileSet ts = resolve_tile(set, big());
    const ls::TileLayout& D = *ts.find(ls::Operand::D);
    GridStyle st;  // 7 px per character, 14 px lines
    const float natural = natural_tile_cell_width(*set.ins, D, st);
    CHECK(choose_tile_label_form(*set.ins, D, natural, 40, st) == LabelForm::Full);
    CHECK(choose_tile_label_form(*set.ins, D, 3, 3, st) == LabelForm::None);
    CHECK(choose_tile_label_form(*set.ins, D, 7 * 3 + 4, 16, st) == LabelForm::Number);  // "63" fits, "w3 L63" does not
    CHECK(choose_tile_label_form(*set.ins, D, 7 * 3 + 4, 30, st) == LabelForm::WaveLane);  // "w3" over "L63"
    CHECK(tile_label_lines(*set.ins, ls::Operand::D, 3, ls::Location{2, 63, 0, 31}, 32, LabelForm::WaveLane) == std::make_pair(std::string("w3"), std::string("L63")));
    const auto full = tile_label_lines(*set.ins, ls::Operand::D, 3, ls::Location{255, 63, 0, 31}, 32, LabelForm::Full);
    CHECK(full.first == "w3 v255 \u00B7 L63");
    CHECK(tile_label_lines(*set.ins, ls::Operand::D, 1, ls::Location{2, 5, 0, 31}, 32, LabelForm::Lane).first == "w1 L5");
    CHECK(tile_label_lines(*set.ins, ls::Operand::D, 1, ls::Location{2, 5, 0, 31}, 32, LabelForm::Number).first == "5");
}

TEST_CASE("tile view: hovering an A element highlights its 2 waves' copies, its A cell and the D row it feeds") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const TileSet ts = resolve_tile(set, big());
    const ls::TileLayout& A = *ts.find(ls::Operand::A);
    const ls::TileLayout& D = *ts.find(ls::Operand::D);
    for (int row : {0, 70, 255})
        for (int k : {0, 9, 63}) {
            const std::vector<int> waves = waves_holding(A, {0, row, k});
            REQUIRE(waves.size() == 2);          // the 2 waves along N
            CHECK(waves[0] / 2 == waves[1] / 2); // of one wave row wm
            CHECK(waves[0] % 2 != waves[1] % 2);
            Hover h;
            h.kind = Hover::Kind::Element;
            h.operand = ls::Operand::A;
            h.element = {0, row, k};
            const Links links = compute_tile_links(ts, h);
            const OperandHighlight& ha = *links.find(ls::Operand::A);
            REQUIRE(ha.marked.size() == 1);
            CHECK(ha.marked[0] == row * A.cols() + k);
            const OperandHighlight& hd = *links.find(ls::Operand::D);
            CHECK(hd.marked.size() == static_cast<size_t>(D.cols()));
            for (int i : hd.marked) CHECK(i / D.cols() == row);
            CHECK(links.find(ls::Operand::B)->marked.empty());
            const std::string tip = describe_tile_element(ts, ls::Operand::A, {0, row, k});
            CHECK_THAT(tip, Catch::Contains("held in 2 places, by waves " + std::to_string(waves[0]) + " " + std::to_string(waves[1])));
            CHECK_THAT(tip, Catch::Contains("register order (fastest first): k_step x8, tile_m x2, repeat_m x2"));
        }
    // B: the 2 waves along M.
    const std::vector<int> bw = waves_holding(*ts.find(ls::Operand::B), {0, 5, 200});
    REQUIRE(bw.size() == 2);
    CHECK(bw[0] % 2 == bw[1] % 2);
}

TEST_CASE("tile view: hovering a D element marks it, the whole A row and the whole B column") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");
    const TileSet ts = resolve_tile(set, big());
    Hover h;
    h.kind = Hover::Kind::Element;
    h.operand = ls::Operand::D;
    h.element = {0, 77, 190};
    const Links links = compute_tile_links(ts, h);
    const OperandHighlight& ha = *links.find(ls::Operand::A);
    const OperandHighlight& hb = *links.find(ls::Operand::B);
    const OperandHighlight& hd = *links.find(ls::Operand::D);
    REQUIRE(ha.marked.size() == 64);
    for (int i : ha.marked) CHECK((i / 64 == 77 && ha.elements[static_cast<size_t>(i)] == 1));
    REQUIRE(hb.marked.size() == 64);
    for (int i : hb.marked) CHECK((i % 256 == 190 && hb.elements[static_cast<size_t>(i)] == 1));
    REQUIRE(hd.marked.size() == 1);
    CHECK(hd.elements[static_cast<size_t>(77 * 256 + 190)] == 2);
}

TEST_CASE("tile view: a lane of a wave highlights exactly what that lane holds, in every operand") {
    for (const char* arch_ins : {"gfx942/v_mfma_f32_32x32x8_f16", "gfx1100/v_wmma_f32_16x16x16_f16"}) {
        const std::string s = arch_ins;
        const LayoutSet set = make(s.substr(0, s.find('/')).c_str(), s.substr(s.find('/') + 1).c_str());
        const TileSet ts = resolve_tile(set, ls::parse_tile_params("2x2", "2x1", ""));
        for (int wave : {0, 3})
            for (int lane : {0, 17, set.wave() - 1}) {
                Hover h;
                h.kind = Hover::Kind::Lane;
                h.lane = lane;
                h.wave = wave;
                const Links links = compute_tile_links(ts, h);
                for (const ls::TileLayout& t : ts.layouts) {
                    // Independently: every entry of this (wave, lane).
                    std::set<int> expect;
                    for (const ls::TileEntry& e : t.entries())
                        if (e.at.wave == wave && e.at.loc.lane == lane) expect.insert(e.element.row * t.cols() + e.element.col);
                    const OperandHighlight& hl = *links.find(t.operand());
                    const std::set<int> got(hl.marked.begin(), hl.marked.end());
                    CHECK(got == expect);
                    for (int i : hl.marked) CHECK(hl.elements[static_cast<size_t>(i)] == 2);
                    // A lane's registers hold regs() * (32 / bits) elements, at most (sub-register packing).
                    CHECK(!expect.empty());
                }
            }
    }
}
