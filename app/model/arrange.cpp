#include "model/arrange.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace lsapp {

namespace {

// A candidate arrangement: which table column and row each grid sits in.
// Register views (row -1) hang from the top, right of everything else.
struct Plan {
    std::vector<int> col, row;  // per shape
    int cols = 0, rows = 0;
    int blocks_per_row = 1;
};

int block_columns(const GridShape& s, int bpr) { return s.registers ? 1 : std::min(std::max(1, s.blocks), bpr); }
int block_rows(const GridShape& s, int bpr) {
    const int bc = block_columns(s, bpr);
    return s.registers ? 1 : (std::max(1, s.blocks) + bc - 1) / bc;
}
float grid_w(const GridShape& s, int bpr, float cw, float bgap) {
    const int bc = block_columns(s, bpr);
    return bc * s.cols * cw + (bc - 1) * bgap;
}
float grid_h(const GridShape& s, int bpr, float ch, float bgap) {
    const int br = block_rows(s, bpr);
    return br * s.rows * ch + (br - 1) * bgap;
}

struct Sizes {
    std::vector<float> col_w, row_h;  // table columns and rows (rows: -1 rows excluded)
    float width = 0, height = 0;
};

Sizes measure(const std::vector<GridShape>& shapes, const Plan& plan, const ArrangeParams& p, float cw, float ch) {
    Sizes s;
    s.col_w.assign(static_cast<size_t>(plan.cols), 0.0f);
    s.row_h.assign(static_cast<size_t>(plan.rows), 0.0f);
    float hanging = 0;  // tallest register view
    for (size_t i = 0; i < shapes.size(); ++i) {
        const GridShape& g = shapes[i];
        const float w = p.axis_w + std::max(p.min_column_w, grid_w(g, plan.blocks_per_row, cw, p.block_gap));
        const float h = p.heading_h + p.axis_h + grid_h(g, plan.blocks_per_row, ch, p.block_gap);
        float& cwid = s.col_w[static_cast<size_t>(plan.col[i])];
        cwid = std::max(cwid, w);
        if (plan.row[i] < 0) hanging = std::max(hanging, h);
        else {
            float& rh = s.row_h[static_cast<size_t>(plan.row[i])];
            rh = std::max(rh, h);
        }
    }
    int used_cols = 0, used_rows = 0;
    for (float w : s.col_w) s.width += w, used_cols += w > 0;
    for (float h : s.row_h) s.height += h, used_rows += h > 0;
    s.width += p.gap * std::max(0, used_cols - 1);
    s.height += p.gap * std::max(0, used_rows - 1);
    s.height = std::max(s.height, hanging);
    return s;
}

// The largest cell size (per axis) for which the plan fits the room; sizes
// grow monotonically with the cell, so bisection finds it.
float largest(float room, float lo, float hi, const std::function<float(float)>& extent) {
    if (extent(lo) > room) return lo;
    for (int i = 0; i < 40; ++i) {
        const float mid = 0.5f * (lo + hi);
        (extent(mid) <= room ? lo : hi) = mid;
    }
    return lo;
}

std::vector<Plan> candidates(const std::vector<GridShape>& shapes, const ArrangeParams& p) {
    std::vector<Plan> out;
    int blocks = 1;
    for (const GridShape& s : shapes)
        if (!s.registers) blocks = std::max(blocks, s.blocks);
    auto index_of = [&](ls::Operand op) {
        for (size_t i = 0; i < shapes.size(); ++i)
            if (shapes[i].op == op && !shapes[i].registers) return static_cast<int>(i);
        return -1;
    };
    for (int bpr = 1; bpr <= blocks; ++bpr) {
        // Blocks as a regular grid: a row count that divides them (16 blocks: 1x16, 2x8, 4x4, 8x2, 16x1), never a ragged last row.
        if (blocks % bpr != 0) continue;
        if (p.gemm) {
            // Table columns: [K-left] [SA] [A] [D]; rows: [SB] [B] [D] [K-below].
            for (int k_below = 0; k_below < 2; ++k_below) {
                if (k_below && index_of(ls::Operand::K) < 0) continue;
                Plan pl;
                pl.blocks_per_row = bpr;
                pl.col.assign(shapes.size(), 0);
                pl.row.assign(shapes.size(), 0);
                const int cK = 0, cSA = 1, cA = 2, cD = 3, rSB = 0, rB = 1, rD = 2, rK = 3;
                int next_col = 4;
                for (size_t i = 0; i < shapes.size(); ++i) {
                    const GridShape& s = shapes[i];
                    int c = cD, r = rD;
                    if (s.registers) c = next_col++, r = -1;
                    else switch (s.op) {
                            case ls::Operand::A: c = cA, r = rD; break;
                            case ls::Operand::B: c = cD, r = rB; break;
                            case ls::Operand::SA: c = cSA, r = rD; break;
                            case ls::Operand::SB: c = cD, r = rSB; break;
                            case ls::Operand::K:
                                if (k_below) c = cA, r = rK;
                                else c = cK, r = rD;
                                break;
                            default: c = cD, r = rD; break;  // C, D
                        }
                    pl.col[i] = c;
                    pl.row[i] = r;
                }
                pl.cols = next_col;
                pl.rows = 4;
                out.push_back(pl);
            }
        } else {
            for (int column = 0; column < 2; ++column) {
                Plan pl;
                pl.blocks_per_row = bpr;
                for (size_t i = 0; i < shapes.size(); ++i) {
                    const int k = static_cast<int>(i);
                    if (shapes[i].registers) {
                        pl.col.push_back(static_cast<int>(shapes.size()) + k), pl.row.push_back(-1);
                        continue;
                    }
                    pl.col.push_back(column ? 0 : k);
                    pl.row.push_back(column ? k : 0);
                }
                pl.cols = 2 * static_cast<int>(shapes.size()) + 1;
                pl.rows = static_cast<int>(shapes.size()) + 1;
                out.push_back(pl);
            }
        }
    }
    return out;
}

struct Fitted {
    Plan plan;
    float cw = 0, ch = 0;
};

Fitted fit(const std::vector<GridShape>& shapes, const ArrangeParams& p) {
    const float room_w = std::max(1.0f, p.panel_w - 2 * p.margin), room_h = std::max(1.0f, p.panel_h - 2 * p.margin);
    Fitted best;
    float best_score = -1, best_shape = 1e9f;
    for (const Plan& pl : candidates(shapes, p)) {
        const float cw = largest(room_w, 0.0f, 4 * p.natural_w,
                                 [&](float c) { return measure(shapes, pl, p, c, 0).width; });
        const float ch = largest(room_h, 0.0f, 4 * p.natural_h,
                                 [&](float c) { return measure(shapes, pl, p, 0, c).height; });
        // Cells no larger than natural, and not stretched out of shape.
        // Whole pixels (crisp grid lines) once cells are large enough to care.
        // Below 2 px (large tiles) sixteenths: quarters would waste up to an eighth of the room.
        auto snap = [](float c) { return c >= 12 ? std::floor(c) : c >= 2 ? std::floor(c * 4) / 4 : std::floor(c * 16) / 16; };
        float fw = snap(std::min(cw, p.natural_w)), fh = snap(std::min(ch, p.natural_h));
        fh = std::min(fh, 2.0f * fw);
        fw = std::min(fw, 6.0f * std::max(fh, 1.0f));
        const float score = std::min(fw / p.natural_w, fh / p.natural_h);
        const Sizes s = measure(shapes, pl, p, fw, fh);
        const float shape = std::fabs(std::log(std::max(1.0f, s.width) / std::max(1.0f, s.height)) - std::log(room_w / room_h));
        if (score > best_score * 1.02f || (score >= best_score * 0.98f && score <= best_score * 1.02f && shape < best_shape)) {
            best_score = score, best_shape = shape;
            best.plan = pl, best.cw = fw, best.ch = fh;
        }
    }
    return best;
}

Arrangement place(const std::vector<GridShape>& shapes, const ArrangeParams& p, const Fitted& f) {
    Arrangement a;
    a.panel = {0, 0, p.panel_w, p.panel_h};
    a.fit_cell_w = f.cw, a.fit_cell_h = f.ch;
    a.blocks_per_row = f.plan.blocks_per_row;
    // Zoom: never below fit, never beyond 4x natural or the texture limit.
    float zmax_x = std::max(1.0f, 4 * p.natural_w / std::max(0.01f, f.cw));
    float zmax_y = std::max(1.0f, 4 * p.natural_h / std::max(0.01f, f.ch));
    for (const GridShape& g : shapes) {
        const float gw = grid_w(g, f.plan.blocks_per_row, f.cw, p.block_gap), gh = grid_h(g, f.plan.blocks_per_row, f.ch, p.block_gap);
        if (gw > 0) zmax_x = std::max(1.0f, std::min(zmax_x, p.max_grid_px / gw));
        if (gh > 0) zmax_y = std::max(1.0f, std::min(zmax_y, p.max_grid_px / gh));
    }
    a.zoom_x = std::clamp(p.zoom_x, 1.0f, zmax_x);
    a.zoom_y = std::clamp(p.zoom_y, 1.0f, zmax_y);
    // Whole pixels: crisp grid lines.
    auto snap = [](float c) { return std::max(1.0f, c >= 12 ? std::floor(c) : c >= 2 ? std::floor(c * 4) / 4 : std::floor(c * 16) / 16); };
    a.cell_w = a.zoom_x == 1 ? f.cw : snap(f.cw * a.zoom_x);
    a.cell_h = a.zoom_y == 1 ? f.ch : snap(f.ch * a.zoom_y);
    const Sizes s = measure(shapes, f.plan, p, a.cell_w, a.cell_h);
    // Centred in the room; pan moves it but never lets it leave the panel
    // (a picture smaller than the room stays centred).
    const float room_w = p.panel_w - 2 * p.margin, room_h = p.panel_h - 2 * p.margin;
    const float slack_x = std::max(0.0f, (s.width - room_w) * 0.5f), slack_y = std::max(0.0f, (s.height - room_h) * 0.5f);
    a.pan_x = std::clamp(p.pan_x, -slack_x, slack_x);
    a.pan_y = std::clamp(p.pan_y, -slack_y, slack_y);
    const float ox = std::round(p.margin + (room_w - s.width) * 0.5f + a.pan_x);
    const float oy = std::round(p.margin + (room_h - s.height) * 0.5f + a.pan_y);
    std::vector<float> col_x(s.col_w.size()), row_y(s.row_h.size());
    float x = ox;
    for (size_t c = 0; c < s.col_w.size(); ++c) {
        col_x[c] = std::round(x);  // whole pixels: textures are drawn 1:1
        if (s.col_w[c] > 0) x += s.col_w[c] + p.gap;
    }
    float y = oy;
    for (size_t r = 0; r < s.row_h.size(); ++r) {
        row_y[r] = std::round(y);
        if (s.row_h[r] > 0) y += s.row_h[r] + p.gap;
    }
    a.content = {ox, oy, ox + s.width, oy + s.height};
    for (size_t i = 0; i < shapes.size(); ++i) {
        const GridShape& g = shapes[i];
        PlacedGrid pg;
        pg.shape = g;
        pg.blocks_per_row = block_columns(g, f.plan.blocks_per_row);
        const float cx = col_x[static_cast<size_t>(f.plan.col[i])];
        const float cy = f.plan.row[i] < 0 ? oy : row_y[static_cast<size_t>(f.plan.row[i])];
        const float gw = grid_w(g, f.plan.blocks_per_row, a.cell_w, p.block_gap);
        const float gh = grid_h(g, f.plan.blocks_per_row, a.cell_h, p.block_gap);
        const float col_w = s.col_w[static_cast<size_t>(f.plan.col[i])];
        pg.heading = {cx, cy, cx + col_w, cy + p.heading_h};
        pg.axis_top = {cx + p.axis_w, cy + p.heading_h, cx + p.axis_w + gw, cy + p.heading_h + p.axis_h};
        pg.grid = {cx + p.axis_w, pg.axis_top.y1, cx + p.axis_w + gw, pg.axis_top.y1 + gh};
        pg.axis_left = {cx, pg.grid.y0, cx + p.axis_w, pg.grid.y1};
        a.grids.push_back(pg);
    }
    return a;
}

}  // namespace

const PlacedGrid* Arrangement::find(ls::Operand op, bool registers) const {
    for (const PlacedGrid& g : grids)
        if (g.shape.op == op && g.shape.registers == registers && !g.shape.tmem_d) return &g;
    return nullptr;
}

Arrangement arrange(const std::vector<GridShape>& shapes, const ArrangeParams& p) {
    if (shapes.empty()) {
        Arrangement a;
        a.panel = {0, 0, p.panel_w, p.panel_h};
        return a;
    }
    return place(shapes, p, fit(shapes, p));
}

ArrangeParams zoom_about(const std::vector<GridShape>& shapes, ArrangeParams p, float factor, float px, float py) {
    const Arrangement before = arrange(shapes, p);
    p.zoom_x = before.zoom_x * factor, p.zoom_y = before.zoom_y * factor;
    p.pan_x = before.pan_x, p.pan_y = before.pan_y;
    const Arrangement after = arrange(shapes, p);
    // Keep the picture point under the pointer where it was: the content
    // scales about its origin, so move the pan by the difference.
    const float u = before.content.w() > 0 ? (px - before.content.x0) / before.content.w() : 0.5f;
    const float v = before.content.h() > 0 ? (py - before.content.y0) / before.content.h() : 0.5f;
    const float want_x0 = px - u * after.content.w(), want_y0 = py - v * after.content.h();
    p.zoom_x = after.zoom_x, p.zoom_y = after.zoom_y;
    p.pan_x = after.pan_x + (want_x0 - after.content.x0);
    p.pan_y = after.pan_y + (want_y0 - after.content.y0);
    const Arrangement clamped = arrange(shapes, p);
    p.pan_x = clamped.pan_x, p.pan_y = clamped.pan_y;
    return p;
}

ArrangeParams actual_size(const std::vector<GridShape>& shapes, ArrangeParams p) {
    p.zoom_x = p.zoom_y = 1, p.pan_x = p.pan_y = 0;
    const Arrangement fitted = arrange(shapes, p);
    p.zoom_x = p.natural_w / std::max(0.01f, fitted.fit_cell_w);
    p.zoom_y = p.natural_h / std::max(0.01f, fitted.fit_cell_h);
    const Arrangement a = arrange(shapes, p);
    p.zoom_x = a.zoom_x, p.zoom_y = a.zoom_y;
    return p;
}

}  // namespace lsapp
