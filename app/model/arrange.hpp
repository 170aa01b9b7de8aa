// Where every operand of the Layout tab goes: a pure function of the grids'
// shapes, the panel's size and the view (zoom, pan). The UI draws at these
// rectangles; tests walk the whole catalog and check that at "fit" every
// operand lies whole inside the panel, nothing overlaps, and the tiles use a
// good part of the room.
#pragma once

#include "lanescope/lanescope.hpp"

#include <vector>

namespace lsapp {

namespace ls = lanescope;

struct Rect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float w() const { return x1 - x0; }
    float h() const { return y1 - y0; }
    bool contains(float x, float y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
    // Whole inside `outer`, at least `margin` from each of its edges.
    bool inside(const Rect& outer, float margin = 0) const {
        return x0 >= outer.x0 + margin - 0.01f && y0 >= outer.y0 + margin - 0.01f && x1 <= outer.x1 - margin + 0.01f &&
               y1 <= outer.y1 - margin + 0.01f;
    }
    bool overlaps(const Rect& o) const { return x0 < o.x1 - 0.01f && o.x0 < x1 - 0.01f && y0 < o.y1 - 0.01f && o.y0 < y1 - 0.01f; }
};

// One grid to place: an operand's matrix view (rows x cols per block) or,
// with `registers`, its register view (lanes x register parts).
struct GridShape {
    ls::Operand op = ls::Operand::A;
    int rows = 0, cols = 0, blocks = 1;
    bool registers = false;
    bool tmem_d = false;  // the Registers tab's D in Tensor Memory beside D's tcgen05.ld registers (LayoutSet::tmem_d)
};

struct ArrangeParams {
    float panel_w = 0, panel_h = 0;
    float margin = 10;       // kept free at every edge of the panel
    float gap = 18;          // between operands
    float heading_h = 18;    // the operand's title line, above its grid
    float axis_w = 20;       // row tick numbers, left of each grid
    float axis_h = 14;       // column tick numbers, between title and grid
    float block_gap = 8;     // between the blocks of a multi-block operand
    float min_column_w = 24; // a grid column is never narrower than its short title ("SA")
    float natural_w = 80, natural_h = 34;  // the "100 %" cell: the richest label fits
    float max_grid_px = 8192;              // a grid's texture may not exceed this (GL limit)
    // View: cell size relative to the fitted one, and the picture's offset
    // from its centred position (pixels). 1, 1, 0, 0 is "fit".
    float zoom_x = 1, zoom_y = 1, pan_x = 0, pan_y = 0;
    // Only these operands, in a row or a column (whichever gives larger cells)
    // instead of the GEMM picture (A left, B above, D at the crossing).
    bool gemm = true;
};

struct PlacedGrid {
    GridShape shape;
    int blocks_per_row = 1;
    Rect heading;  // the title line (the title must fit its width)
    Rect grid;     // the tiles
    Rect axis_left, axis_top;  // room for tick numbers
};

struct Arrangement {
    float cell_w = 0, cell_h = 0;          // at the current zoom
    float fit_cell_w = 0, fit_cell_h = 0;  // at zoom 1
    float zoom_x = 1, zoom_y = 1;          // after clamping
    float pan_x = 0, pan_y = 0;            // after clamping
    int blocks_per_row = 1;
    Rect panel;    // 0,0 .. panel_w, panel_h
    Rect content;  // bounding box of everything placed
    std::vector<PlacedGrid> grids;
    const PlacedGrid* find(ls::Operand op, bool registers = false) const;
};

// The arrangement for these grids in this panel. In the GEMM picture A sits
// left of D, B above D, C/D at the crossing; SA (M x K/32) left of A, SB
// (K/32 x N) above B; the sparse index K (M x K, like A) below A or left of
// it, whichever gives larger cells; register views (registers = true) to
// the right. All grids share one cell size, so A's rows meet D's rows and
// B's columns meet D's columns; multi-block operands wrap their blocks into
// rows when that makes cells larger.
Arrangement arrange(const std::vector<GridShape>& shapes, const ArrangeParams& p);

// Zoom by `factor` about the point (px, py) of the panel: what is under the
// pointer stays under it. Returns the new view parameters (zoom, pan).
ArrangeParams zoom_about(const std::vector<GridShape>& shapes, ArrangeParams p, float factor, float px, float py);

// The zoom at which cells have their natural ("100 %") size.
ArrangeParams actual_size(const std::vector<GridShape>& shapes, ArrangeParams p);

}  // namespace lsapp
