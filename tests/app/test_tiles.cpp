#include "model/tiles.hpp"
#include "model/selection.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins, int wave = -1) {
    ls::Modifiers m;
    m.wave = wave;
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}
std::set<std::string> fills(const TileGrid& g) {
    std::set<std::string> s;
    for (const auto& t : g.tiles) s.insert(t.fill.hex());
    return s;
}
}  // namespace

TEST_CASE("matrix grid: one tile per element, at a location the engine gives, in the palette's colour") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    for (const ls::OperandLayout& l : set.layouts) {
        GridStyle st;
        const TileGrid g = build_matrix_grid(*set.ins, l, st);
        REQUIRE(g.tiles.size() == static_cast<size_t>(l.elements()));
        for (const Tile& t : g.tiles) {
            const auto locs = l.where(t.element);
            CHECK(std::find(locs.begin(), locs.end(), t.loc) != locs.end());
            CHECK(t.fill == ls::tile_color(*set.ins, ls::ColorBy::Lane, t.element, t.loc, ls::Theme::Light));
            CHECK(t.copies == static_cast<int>(locs.size()));
        }
    }
}

TEST_CASE("matrix grid: D of a 16-block 4x4 shows 16 lane-group colours, a 32x32 shows 2, RDNA wave64 4") {
    struct Case { const char* arch; const char* ins; int wave; };
    for (const Case c : {Case{"gfx942", "v_mfma_f32_4x4x4_16b_f16", -1}, Case{"gfx942", "v_mfma_f32_32x32x8_f16", -1},
                         Case{"gfx1100", "v_wmma_f32_16x16x16_f16", 64}, Case{"gfx1200", "v_wmma_f32_16x16x16_f16", 32}}) {
        const LayoutSet set = make(c.arch, c.ins, c.wave);
        const TileGrid g = build_matrix_grid(*set.ins, *set.find(ls::Operand::D), GridStyle{});
        CHECK(static_cast<int>(fills(g).size()) == ls::lane_groups(*set.ins, set.mods.wave));
    }
}

TEST_CASE("grids: hit-testing the centre of every tile finds that tile") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    GridStyle st;
    st.cell_w = 30;
    st.cell_h = 12;
    for (const ls::OperandLayout& l : set.layouts) {
        for (const TileGrid& g : {build_matrix_grid(*set.ins, l, st), build_register_grid(*set.ins, l, st)}) {
            for (size_t i = 0; i < g.tiles.size(); ++i) {
                const Tile& t = g.tiles[i];
                CHECK(g.hit((t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2) == static_cast<int>(i));
            }
            CHECK(g.hit(-1, 0) == -1);
            CHECK(g.hit(g.width + 1, 0) == -1);
        }
    }
    // In the gap between blocks nothing is hit.
    const TileGrid g = build_matrix_grid(*set.ins, *set.find(ls::Operand::D), st);
    CHECK(g.hit(g.cols * g.cell_w + g.block_gap / 2, 1) == -1);
}

TEST_CASE("register grid: each part is what which() says that lane's register holds") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x16_fp8_fp8");
    for (const ls::OperandLayout& l : set.layouts) {
        const TileGrid g = build_register_grid(*set.ins, l, GridStyle{});
        size_t parts = 0;
        for (int lane = 0; lane < l.lanes(); ++lane)
            for (int reg = 0; reg < l.regs(); ++reg) parts += l.which(reg, lane).size();
        CHECK(g.tiles.size() == parts);
        for (const Tile& t : g.tiles) {
            const auto locs = l.where(t.element);
            bool found = false;
            for (const auto& loc : locs) found |= loc.lane == t.loc.lane && loc.reg <= t.loc.reg;
            CHECK(found);
        }
    }
}

TEST_CASE("labels fall back to shorter forms, never overflow the cell") {
    GridStyle st;  // 7 px per character in tests
    const ls::Location loc{3, 17, 16, 31};
    CHECK(fitting_label(loc, 16, 200, st) == ls::tile_label(loc, 16, true));
    CHECK(fitting_label(loc, 16, 70, st) == ls::tile_label(loc, 16, false));
    CHECK(fitting_label(loc, 16, 30, st) == "L17");
    CHECK(fitting_label(loc, 16, 10, st).empty());
    st.labels = false;
    CHECK(fitting_label(loc, 16, 200, st).empty());
    CHECK(fit_cell(80, 20, 400, 10) == 40);
    CHECK(fit_cell(80, 20, 4000, 10) == 80);
    CHECK(fit_cell(80, 20, 40, 10) == 20);
}
