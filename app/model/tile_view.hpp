// Tile mode of the Layout tab: one instruction repeated over a wave grid,
// sub-tiles per wave and a tensor shape (core's TileLayout, docs/tiles.md).
// Everything here is pure: the tile of every operand, the colour of a cell
// (hue per wave, shade per lane group within the wave), the legend, the
// cached matrix grids, hover links and tooltip text. The UI draws from it.
#pragma once

#include "model/links.hpp"
#include "model/tiles.hpp"

#include "lanescope/tile.hpp"

#include <string>
#include <vector>

namespace lsapp {

// The tile of every operand of the selection (C is drawn as D and left out).
struct TileSet {
    ls::TileParams params;                // as given; each layout's params() has the shape filled in
    std::vector<ls::TileLayout> layouts;  // in operands_of order, without C
    int lane_group_size = 1, lane_groups = 1;
    const ls::Instruction* ins = nullptr;  // the instruction tiled (labels name registers in its vendor's terms)
    const ls::TileLayout* find(ls::Operand op) const;  // C finds D
    bool empty() const { return layouts.empty(); }
    int waves() const { return params.waves_m * params.waves_n; }
};

// Builds the tiles; throws ls::Error (core's message: what is legal) for
// illegal parameters or a multi-block instruction, and for operands of more
// than 1,048,576 elements (1024x1024), which the app does not draw.
TileSet resolve_tile(const LayoutSet& set, const ls::TileParams& p);

// The colour key of a cell: wave * lane_groups + lane group.
int tile_colour_key(int wave, int lane_group, int lane_groups);

struct TileLegendEntry {
    enum class Kind { Wave, LaneGroup };
    Kind kind = Kind::Wave;
    int index = 0;     // the wave, or the lane group
    int code = 0;      // legend key the UI reports when hovered (unique over entries)
    ls::Rgb colour;
    std::string text;  // "wave 1 (0,1)", "lanes 32–63"
};
// The waves first (wave w = wm * WN + wn; beyond 16 waves one entry per hue,
// "waves 3, 19, 35, …"), then the lane groups (shades of wave 0).
std::vector<TileLegendEntry> tile_legend(const TileSet& ts, ls::Theme theme);
// Whether a cell of colour key `key` belongs to the legend entry with `code`.
bool tile_legend_matches(int code, int key, int lane_groups);

// Labels: the single-instruction forms (tiles.hpp) with the wave first,
// "w1 v12[15:0] · L17", "w1 v12" over "L17", ..., "w1 L17"; Number stays "17".
std::pair<std::string, std::string> tile_label_lines(const ls::Instruction& ins, ls::Operand op, int wave, const ls::Location& loc,
                                                     int element_bits, LabelForm form);
LabelForm choose_tile_label_form(const ls::Instruction& ins, const ls::TileLayout& t, float cell_w, float cell_h, const GridStyle& style);
float natural_tile_cell_width(const ls::Instruction& ins, const ls::TileLayout& t, const GridStyle& style);

// The matrix view of one operand's tile (Tile::wave set; copies: the waves,
// and lanes, holding the element; `style.copy` picks one as for instructions).
TileGrid build_tile_matrix_grid(const ls::TileLayout& t, const TileSet& ts, const GridStyle& style);
// That grid at another cell size (zoom): resize_matrix_grid with the tile's label form.
void resize_tile_matrix_grid(TileGrid& g, const ls::TileLayout& t, const TileSet& ts, const GridStyle& style);

// Hover links over the tiles (element masks only; no register slots):
// an element marks itself (2) and, across operands, the A row / B column that
// produce a D element or the D row / column an A / B element feeds (1); a lane
// (Hover::wave, or every wave when -1) marks everything it holds in every
// operand (2): TileLayout::which of that lane for all its registers.
Links compute_tile_links(const TileSet& ts, const Hover& hover);

// The waves holding a copy of an element (A: every wave along N of its row's
// wave; B: every wave along M; C/D: one).
std::vector<int> waves_holding(const ls::TileLayout& t, const ls::Element& e);

// Tooltip: the element, its every (wave, lane, register, bits), the tile's
// parameters and its register order.
std::string describe_tile_element(const TileSet& ts, ls::Operand op, const ls::Element& e);
// "k_step x8, tile_m x2, repeat_m x2" (fastest first).
std::string register_order_text(const ls::TileLayout& t);
// Details text: parameters, then per operand its shape, registers per lane and register order.
std::string tile_summary(const TileSet& ts, const ls::Instruction& ins);

}  // namespace lsapp
