// The cell cache: every tile of one operand view (rectangle, fill, label and
// what it stands for), built once when the instruction, modifiers, colouring
// or zoom change. The UI draws and hit-tests from it every frame.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/palette.hpp"

#include <functional>
#include <string>
#include <vector>

namespace lsapp {

namespace ls = lanescope;

enum class ViewKind { Matrix, Registers };

struct Tile {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // in grid pixels, origin top-left
    ls::Rgb fill, text;
    std::string label;                     // empty when it does not fit; " ×N" when N places hold it
    ls::Element element;
    ls::Location loc;                      // the first location (matrix view) or this slot part
    int copies = 1;                        // how many locations hold the element
};

struct GridStyle {
    float cell_w = 72, cell_h = 18, block_gap = 8;
    ls::ColorBy color_by = ls::ColorBy::Lane;
    ls::Theme theme = ls::Theme::Light;
    bool labels = true;
    int block = -1;  // -1: every block; else only this one
    int blocks_per_row = 0;  // blocks wrap after this many (0: all side by side)
    // Width in pixels of a label in the UI font; tests pass a fixed-width guess.
    std::function<float(const std::string&)> text_width;
};

struct TileGrid {
    ls::Operand operand = ls::Operand::A;
    ViewKind view = ViewKind::Matrix;
    float width = 0, height = 0;
    int rows = 0, cols = 0, blocks_shown = 0, first_block = 0, blocks_per_row = 1;
    float cell_w = 0, cell_h = 0, block_gap = 0, slot_w = 0;
    int regs = 0, lanes = 0;
    std::vector<Tile> tiles;
    std::vector<int> slot_first;  // register view: first tile of each (lane, reg) slot, size lanes*regs+1

    // The tile under (x, y) in grid pixels, or -1.
    int hit(float x, float y) const;
};

TileGrid build_matrix_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style);
TileGrid build_register_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style);

// The label that fits a cell `width` wide: the full one, the short one, or none.
std::string fitting_label(const ls::Location& loc, int element_bits, float width, const GridStyle& style);

// Label of an element in the register view, e.g. "3,5" or "b2:3,5".
std::string element_label(const ls::Element& e, int blocks);

// Size of one cell so that `count` cells fill `avail` pixels, between `minimum`
// and `natural` (fit-to-panel zoom).
float fit_cell(float natural, float minimum, float avail, int count);

// How many blocks per row make the cells largest when `blocks` blocks of
// cols x rows cells (per picture column/row) share avail_w x avail_h.
int best_blocks_per_row(int blocks, int cols, int rows, float avail_w, float avail_h, float natural_w, float natural_h,
                        float min_h);

// Cell width that fits the longest full label of this operand at zoom 1.
float natural_cell_width(const ls::OperandLayout& layout, const GridStyle& style);

}  // namespace lsapp
