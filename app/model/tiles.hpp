// The cell cache: every tile of one operand view (rectangle, fill, label and
// what it stands for), built once when the instruction, modifiers, colouring
// or zoom change. The UI draws and hit-tests from it every frame.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/palette.hpp"

#include <functional>
#include <utility>
#include <string>
#include <vector>

namespace lsapp {

namespace ls = lanescope;

enum class ViewKind { Matrix, Registers };

// How a matrix tile is labelled: core's forms (palette.hpp: cell_label_lines
// composes every form). Every tile of one operand view uses the same form: the
// richest one that fits all of them (docs/app.md shows them); Number is drawn in
// the small cell font (GridStyle::small_line_h).
using LabelForm = ls::LabelForm;
const char* label_form_name(LabelForm f);

struct Tile {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // in grid pixels, origin top-left
    ls::Rgb fill, text;
    std::string label, label2;             // one or two lines; empty when the operand's form is None
    ls::Element element;
    ls::Location loc;                      // the location shown (matrix view) or this slot part
    int copies = 1;                        // how many locations hold the element
    int key = 0;                           // what the colour stands for: lane group, register or block
    int wave = -1;                         // tile mode: the wave of the location shown
    // "All copies" of a replicated element: one stripe per copy, left to right.
    std::vector<ls::Rgb> copy_fills;
    std::vector<int> copy_keys;
};

struct GridStyle {
    float cell_w = 72, cell_h = 18, block_gap = 8;
    ls::ColorBy color_by = ls::ColorBy::Lane;
    ls::Theme theme = ls::Theme::Light;
    bool labels = true;
    int block = -1;  // -1: every block; else only this one
    int blocks_per_row = 0;  // blocks wrap after this many (0: all side by side)
    int copy = -1;           // replicated elements: -1 shows every copy (stripes), k the k-th location
    float line_h = 14;       // height of one line of cell text
    float small_line_h = 10; // height of the small font's line (the Number form: lane numbers at fit)
    // Width in pixels of a label in the UI font; tests pass a fixed-width guess.
    std::function<float(const std::string&)> text_width;
    std::function<float(const std::string&)> small_text_width;  // the same in the small font (unset: 0.75 x text_width)
};

struct TileGrid {
    ls::Operand operand = ls::Operand::A;
    ViewKind view = ViewKind::Matrix;
    ls::Space space = ls::Space::Registers;  // register view: where its slots are (TMEM lanes x columns, ...)
    float width = 0, height = 0;
    int rows = 0, cols = 0, blocks_shown = 0, first_block = 0, blocks_per_row = 1;
    float cell_w = 0, cell_h = 0, block_gap = 0, slot_w = 0;
    LabelForm form = LabelForm::None;  // matrix view: the one label form of this operand
    int max_copies = 1;
    int regs = 0, lanes = 0;
    bool tile = false;  // tile mode (tile_view.hpp): elements in tile coordinates, Tile::wave set
    int waves = 1;
    std::vector<Tile> tiles;
    std::vector<int> slot_first;  // register view: first tile of each (lane, reg) slot, size lanes*regs+1
    // Labels made when a cell is drawn (a resized grid whose label form changed: only the cells in
    // view are ever labelled), else Tile::label / label2.
    std::function<std::pair<std::string, std::string>(const Tile&)> label_of;
    // The widest label of each form over the grid's cells (in the order choose_label_form tries them),
    // each measured at the first resize whose cells are tall enough for it, so that a zoom picks its form
    // without measuring every cell again.
    std::vector<std::pair<LabelForm, float>> form_widths;  // widest label per form; < 0: not measured yet
    std::pair<std::string, std::string> labels(const Tile& t) const {
        if (!label_of) return {t.label, t.label2};
        if (t.copies <= 0) return {};
        return label_of(t);
    }

    // The tile under (x, y) in grid pixels, or -1.
    int hit(float x, float y) const;
};

TileGrid build_matrix_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style);
TileGrid build_register_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style);

// A matrix grid at another cell size (zoom), without building it again: the cells' places
// follow style.cell_w / cell_h / blocks_per_row, their colours and locations are kept, and the
// labels are redone only when `form` differs from the grid's: then `label` gives a held cell's
// lines when it is drawn (TileGrid::label_of; it must outlive the grid's use).
void resize_matrix_grid(TileGrid& g, const GridStyle& style, LabelForm form,
                        const std::function<std::pair<std::string, std::string>(const Tile&)>& label);
// The same for an instruction's operand (the form chosen as build_matrix_grid chooses it).
void resize_matrix_grid(TileGrid& g, const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style);

// The two lines of a tile's label in a form ("" when the form has no second line): core's cell_label_lines.
std::pair<std::string, std::string> label_lines(const ls::Instruction& ins, ls::Operand op, const ls::Location& loc,
                                                int element_bits, LabelForm form, ls::Space space = ls::Space::Registers);

// The richest form in which every tile of this operand fits a cell_w x cell_h
// cell (labels off: None). `copy` as in GridStyle.
LabelForm choose_label_form(const ls::Instruction& ins, const ls::OperandLayout& layout, float cell_w, float cell_h,
                            const GridStyle& style);
// Whether a form's text fits: its line count x line height (Number: the small font) and width.
bool label_fits(LabelForm f, const std::string& l1, const std::string& l2, float cell_w, float cell_h, const GridStyle& style);

// Label of an element in the register view, e.g. "3,5" or "b2:3,5".
std::string element_label(const ls::Element& e, int blocks);

// The "100 %" cell: the operand's richest label fits (one line wide, two lines tall).
float natural_cell_width(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style);
float natural_cell_height(const GridStyle& style);

// The colour key of a location: lane group, register or block index.
int colour_key(const ls::Instruction& ins, ls::ColorBy by, const ls::Element& e, const ls::Location& loc,
               ls::Space space = ls::Space::Registers);

}  // namespace lsapp
