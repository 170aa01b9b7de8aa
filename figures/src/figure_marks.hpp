// figure --highlight and --crop: the words, their checks against the operands drawn, and the
// marks they leave on a built figure (not installed; docs/figures.md, "Highlight and crop").
#pragma once

#include "lanescope/figures.hpp"

#include <string>
#include <vector>

namespace lanescope::figures {

// A window of one operand's matrix: rows row0 .. row0+rows-1, columns col0 .. col0+cols-1.
struct CropWindow {
    int rows = 0, cols = 0, row0 = 0, col0 = 0;
    bool on() const { return rows > 0; }
};
// "ROWSxCOLS@R,C" checked against an operand of rows x cols ("" gives no window); throws Error
// naming the grammar, or the operand's shape when the window leaves it.
CropWindow parse_crop(const std::string& text, Operand op, int rows, int cols);
// "rows 64–79, columns 128–143 of 256 x 256": what a window's heading says.
std::string crop_words(const CropWindow& w, int rows, int cols);

// One operand as drawn: its shape (a tile's, in tile figures), slots and window.
struct DrawnOperand {
    Operand op = Operand::A;
    int blocks = 1, rows = 0, cols = 0, lanes = 0, regs = 0;
    CropWindow window;
};

// Outlines every tile that spec.highlight names (the theme's highlight colour, the union's
// border) and dims the others. Throws Error for a bad item (with the grammar and the drawn
// operands' legal ranges), an element outside its operand (naming the operand's shape) or
// outside the window, and an item that names no drawn cell.
void apply_highlight(Figure& f, const FigureSpec& spec, const std::vector<DrawnOperand>& drawn);

// build_figure without the page fit: one layout at spec.fit_width; `wrap_scale_rows` puts a
// scale operand's rows side by side (figure.cpp).
Figure build_figure_laid_out(const FigureSpec& spec, bool wrap_scale_rows);

}  // namespace lanescope::figures
