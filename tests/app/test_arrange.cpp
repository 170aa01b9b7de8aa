// The Layout tab's arrangement, checked over the whole catalog: at "fit",
// for every instruction, wave size, operand set and several window sizes,
// every operand lies whole inside the panel with a margin, no grid or title
// overlaps another, and the tiles use a good part of the room. Zoom and pan
// behave like an image viewer's.
#include "model/arrange.hpp"
#include "model/selection.hpp"
#include "model/tile_view.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace ls = lanescope;
using namespace lsapp;

namespace {

// The app's sizes at scale 1 (app/ui/app.cpp canvas_params) and the panel
// left for the picture in a window of W x H (side column, tabs, legend, status bar).
ArrangeParams params_for_window(int W, int H) {
    ArrangeParams p;
    p.panel_w = W - std::min(300.0f, 0.28f * W) - 40;
    p.panel_h = H - 150;
    p.margin = 10, p.gap = 16, p.heading_h = 19, p.axis_w = 28, p.axis_h = 15, p.block_gap = 8, p.min_column_w = 24;
    p.natural_w = 110, p.natural_h = 30;
    return p;
}

std::vector<GridShape> shapes_of(const LayoutSet& set, const std::vector<ls::Operand>& ops, bool registers) {
    std::vector<GridShape> out;
    for (ls::Operand op : ops) {
        const ls::OperandLayout* l = set.find(op);
        if (!l) continue;
        out.push_back({op, l->rows(), l->cols(), l->blocks(), false});
    }
    if (registers)
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K})
            if (const ls::OperandLayout* l = set.find(op); l && l->space() == ls::Space::Registers)
                out.push_back({op, l->lanes(), l->regs() * std::clamp(32 / std::max(1, l->element_bits()), 1, 4), 1, true});
    return out;
}

struct Stats {
    int arrangements = 0;
    double worst_fill = 1;
    std::string worst;
};

void check_arrangement(const std::vector<GridShape>& shapes, const ArrangeParams& p, const std::string& what, Stats& stats,
                       float min_cell_px = 2) {
    const Arrangement a = arrange(shapes, p);
    ++stats.arrangements;
    INFO(what << " in a " << p.panel_w << "x" << p.panel_h << " panel; cell " << a.cell_w << "x" << a.cell_h);
    REQUIRE(a.grids.size() == shapes.size());
    double tiles = 0;
    for (size_t i = 0; i < a.grids.size(); ++i) {
        const PlacedGrid& g = a.grids[i];
        INFO("grid " << i << " (" << ls::operand_name(g.shape.op) << (g.shape.registers ? " registers" : "") << ")");
        CHECK(g.grid.inside(a.panel, p.margin));
        CHECK(g.heading.inside(a.panel, p.margin));
        CHECK(g.grid.w() >= g.shape.cols * min_cell_px);  // at least 2 px per cell: something to see
        CHECK(g.grid.h() >= g.shape.rows * min_cell_px);
        CHECK(g.heading.w() >= p.min_column_w);  // room for at least the operand's name
        for (size_t j = i + 1; j < a.grids.size(); ++j) {
            const PlacedGrid& o = a.grids[j];
            CHECK_FALSE(g.grid.overlaps(o.grid));
            CHECK_FALSE(g.heading.overlaps(o.heading));
            CHECK_FALSE(g.grid.overlaps(o.heading));
            CHECK_FALSE(o.grid.overlaps(g.heading));
        }
        tiles += static_cast<double>(g.shape.rows) * g.shape.cols * g.shape.blocks * a.cell_w * a.cell_h;
    }
    // The picture is as large as the room allows (it reaches across the room in
    // one direction, unless cells already have their natural size), and its
    // tiles fill a good part of it (the GEMM picture's empty corner aside).
    const bool natural = a.cell_w >= p.natural_w - 1 || a.cell_h >= p.natural_h - 1;
    if (!natural)
        CHECK(std::max(a.content.w() / (p.panel_w - 2 * p.margin), a.content.h() / (p.panel_h - 2 * p.margin)) >= 0.85);
    const double fill = tiles / (static_cast<double>(a.content.w()) * a.content.h());
    if (fill < stats.worst_fill) stats.worst_fill = fill, stats.worst = what;
    CHECK(fill >= (p.gemm && shapes.size() > 2 ? 0.11 : 0.2));
}

}  // namespace

TEST_CASE("arrange: every operand of every catalog instruction fits whole, without overlap, at 1000x650 and up") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    Stats stats;
    for (const auto& [W, H] : {std::pair{1000, 650}, std::pair{1100, 720}, std::pair{1400, 900}, std::pair{1920, 1080}}) {
        const ArrangeParams p = params_for_window(W, H);
        for (const ls::Target& t : cat.targets()) {
            for (const ls::Instruction* ins : cat.on(t.family)) {
                for (int wave : t.wave_sizes) {
                    ls::Modifiers m;
                    m.wave = wave;
                    LayoutSet set;
                    try {
                        set = resolve_selection(cat, Selection{t.gfx, ins->mnemonic, m});
                    } catch (const ls::Error&) {
                        continue;  // not on this wave size
                    }
                    const std::string what = t.gfx + " " + ins->mnemonic + " wave" + std::to_string(wave);
                    const std::vector<ls::Operand> gemm = {ls::Operand::A,  ls::Operand::B,  ls::Operand::D,
                                                           ls::Operand::K,  ls::Operand::SA, ls::Operand::SB};
                    check_arrangement(shapes_of(set, gemm, false), p, what + " (GEMM)", stats);
                    if (W == 1400) check_arrangement(shapes_of(set, gemm, true), p, what + " (registers beside)", stats);
                    // Operand subsets (--operand): each alone, A with K, D with A.
                    ArrangeParams row = p;
                    row.gemm = false;
                    for (ls::Operand op : gemm)
                        if (set.find(op)) check_arrangement(shapes_of(set, {op}, false), row, what + " only " + std::string(ls::operand_name(op)), stats);
                    if (set.find(ls::Operand::K))
                        check_arrangement(shapes_of(set, {ls::Operand::A, ls::Operand::K}, false), row, what + " A,K", stats);
                    check_arrangement(shapes_of(set, {ls::Operand::A, ls::Operand::D}, false), row, what + " A,D", stats);
                }
            }
        }
    }
    INFO("worst fill " << stats.worst_fill << " for " << stats.worst);
    CHECK(stats.arrangements > 2000);
    WARN("arrangements checked: " << stats.arrangements << "; lowest tile fill " << stats.worst_fill << " (" << stats.worst << ")");
}

TEST_CASE("arrange: the GEMM picture lines A's rows up with D's and B's columns with D's") {
    const LayoutSet set = resolve_selection(ls::Catalog::builtin(), Selection{"gfx942", "v_mfma_f32_4x4x4_16b_f16", {}});
    const auto shapes = shapes_of(set, {ls::Operand::A, ls::Operand::B, ls::Operand::D}, false);
    const Arrangement a = arrange(shapes, params_for_window(1400, 900));
    const PlacedGrid *A = a.find(ls::Operand::A), *B = a.find(ls::Operand::B), *D = a.find(ls::Operand::D);
    REQUIRE((A && B && D));
    CHECK(A->grid.y0 == D->grid.y0);
    CHECK(A->grid.h() == D->grid.h());
    CHECK(B->grid.x0 == D->grid.x0);
    CHECK(B->grid.w() == D->grid.w());
    CHECK(A->grid.x1 < D->grid.x0);
    CHECK(B->grid.y1 < D->grid.y0);
}

TEST_CASE("arrange: zoom about the pointer keeps the point under it, pan never loses the picture") {
    const LayoutSet set = resolve_selection(ls::Catalog::builtin(), Selection{"gfx950", "v_smfmac_i32_32x32x64_i8", {}});
    const auto shapes = shapes_of(set, {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K}, false);
    ArrangeParams p = params_for_window(1400, 900);
    const Arrangement fit = arrange(shapes, p);
    // A point on D: its position relative to D's grid stays under the pointer.
    const PlacedGrid* D = fit.find(ls::Operand::D);
    const float px = D->grid.x0 + D->grid.w() * 0.3f, py = D->grid.y0 + D->grid.h() * 0.6f;
    const float u = (px - D->grid.x0) / fit.cell_w, v = (py - D->grid.y0) / fit.cell_h;  // in cells
    ArrangeParams z = zoom_about(shapes, p, 2.0f, px, py);
    const Arrangement zoomed = arrange(shapes, z);
    CHECK(zoomed.cell_w > fit.cell_w * 1.5f);
    const PlacedGrid* D2 = zoomed.find(ls::Operand::D);
    CHECK(std::fabs(D2->grid.x0 + u * zoomed.cell_w - px) < 0.1f * D2->grid.w());
    CHECK(std::fabs(D2->grid.y0 + v * zoomed.cell_h - py) < 0.1f * D2->grid.h());
    // Pan as far as one likes: the picture still covers the room (it is larger than it).
    for (float pan : {-1e5f, 1e5f}) {
        z.pan_x = pan, z.pan_y = -pan;
        const Arrangement a = arrange(shapes, z);
        CHECK(a.content.x0 <= p.margin + 0.5f);
        CHECK(a.content.x1 >= p.panel_w - p.margin - 0.5f);
        CHECK(a.content.y0 <= p.margin + 0.5f);
        CHECK(a.content.y1 >= p.panel_h - p.margin - 0.5f);
    }
    // Zoom out past fit: back to the whole picture, centred.
    const Arrangement back = arrange(shapes, zoom_about(shapes, z, 0.01f, px, py));
    CHECK(back.cell_w == fit.cell_w);
    CHECK(back.content.x0 == fit.content.x0);
    // 100 %: cells at their natural size (within the limits).
    const Arrangement actual = arrange(shapes, actual_size(shapes, p));
    CHECK(std::fabs(actual.cell_w - p.natural_w) <= 1);
    CHECK(std::fabs(actual.cell_h - p.natural_h) <= 1);
}

TEST_CASE("arrange: tiles of many waves (up to 512x512 C/D) fit whole, aligned, and zoom within the texture limit") {
    struct Case {
        const char *arch, *ins, *waves, *tiles, *shape;
    };
    const Case cases[] = {
        {"gfx942", "v_mfma_f32_32x32x8_f16", "2x2", "2x2", "256x256x64"},   // 65,536 + 2 x 16,384 cells
        {"gfx942", "v_mfma_f32_16x16x16_f16", "2x2", "2x2", "256x256x64"},
        {"gfx1100", "v_wmma_f32_16x16x16_f16", "2x2", "2x1", "256x256x64"},
        {"gfx942", "v_mfma_f32_32x32x8_f16", "4x1", "1x1", "512x128x32"},   // tall
        {"gfx942", "v_mfma_f32_32x32x8_f16", "1x4", "1x2", "64x512x16"},    // wide
        {"gfx942", "v_mfma_f32_32x32x8_f16", "2x2", "2x2", "512x512x128"},  // 4 x the largest the brief names
        {"gfx950", "v_mfma_scale_f32_32x32x64_f8f6f4", "2x2", "1x1", "128x128x128"},  // with SA, SB
    };
    const ls::Catalog& cat = ls::Catalog::builtin();
    Stats stats;
    for (const Case& c : cases) {
        const LayoutSet set = resolve_selection(cat, Selection{c.arch, c.ins, {}});
        const TileSet ts = resolve_tile(set, ls::parse_tile_params(c.waves, c.tiles, c.shape));
        std::vector<GridShape> shapes;
        for (const auto& t : ts.layouts) shapes.push_back({t.operand(), t.rows(), t.cols(), 1, false});
        const std::string what = std::string(c.ins) + " tile " + c.waves + " " + c.tiles + " " + c.shape;
        const int most = std::max({ts.find(ls::Operand::D)->rows(), ts.find(ls::Operand::D)->cols()});
        for (const auto& [W, H] : {std::pair{1000, 650}, std::pair{1100, 720}, std::pair{1400, 900}, std::pair{1920, 1080}}) {
            ArrangeParams p = params_for_window(W, H);
            p.max_grid_px = 8190;
            // Every element keeps at least a pixel (1.4 from 1100x720 up) for tiles up to 256 a side;
            // 512 a side gets half a pixel at 1000x650.
            const float min_px = most > 256 ? 0.5f : W >= 1100 ? 1.4f : 1.0f;
            check_arrangement(shapes, p, what, stats, min_px);
            const Arrangement a = arrange(shapes, p);
            const PlacedGrid *A = a.find(ls::Operand::A), *B = a.find(ls::Operand::B), *D = a.find(ls::Operand::D);
            REQUIRE((A && B && D));
            CHECK(A->grid.y0 == D->grid.y0);
            CHECK(A->grid.h() == D->grid.h());
            CHECK(B->grid.x0 == D->grid.x0);
            CHECK(B->grid.w() == D->grid.w());
            // 100 %: as close to natural as the texture limit allows; no grid beyond it.
            const Arrangement actual = arrange(shapes, actual_size(shapes, p));
            CHECK(actual.cell_w > a.cell_w);
            for (const PlacedGrid& g : actual.grids) {
                CHECK(g.grid.w() <= p.max_grid_px);
                CHECK(g.grid.h() <= p.max_grid_px);
            }
            if (most <= 256) CHECK(actual.cell_w >= 30);  // room for "w3" over "L63"
            // Zoom about a point and pan: the picture keeps covering the panel.
            ArrangeParams z = zoom_about(shapes, p, 6.0f, D->grid.x0 + 10, D->grid.y0 + 10);
            z.pan_x = 1e6f, z.pan_y = -1e6f;
            const Arrangement panned = arrange(shapes, z);
            CHECK(panned.content.x0 <= p.margin + 0.5f);
            CHECK(panned.content.y1 >= p.panel_h - p.margin - 0.5f);
        }
    }
    WARN("tile arrangements checked: " << stats.arrangements << "; lowest tile fill " << stats.worst_fill << " (" << stats.worst << ")");
}

TEST_CASE("arrange: blocks lie in a regular grid (rows of equal length), never a ragged last row") {
    // v_mfma_f32_4x4x4_16b_f16: 16 blocks of 4x4 (CDNA3 ISA): 1, 2, 4, 8 or 16 blocks to a row.
    const LayoutSet set = resolve_selection(ls::Catalog::builtin(), Selection{"gfx942", "v_mfma_f32_4x4x4_16b_f16", {}});
    for (auto [w, h] : {std::pair<int, int>{1100, 720}, {1400, 900}, {1000, 650}, {1920, 1080}}) {
        ArrangeParams p = params_for_window(w, h);
        p.gemm = true;
        const Arrangement a = arrange(shapes_of(set, {ls::Operand::A, ls::Operand::B, ls::Operand::D}, false), p);
        INFO(w << "x" << h << ": " << a.blocks_per_row << " blocks to a row");
        CHECK(16 % a.blocks_per_row == 0);
    }
}
