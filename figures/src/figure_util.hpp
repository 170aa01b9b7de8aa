// Small helpers shared by the figure serialisers (not installed).
#pragma once

#include "lanescope/figures.hpp"
#include "lanescope/lanescope.hpp"
#include "lanescope/palette.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::figures {

// Next code point of UTF-8 text starting at `i` (advances `i`); U+FFFD on bad bytes.
std::uint32_t next_codepoint(std::string_view s, size_t& i);

// Width of `s` in DejaVu Sans at `size` (advance widths of the glyphs lanescope
// uses; 0.62 em for the rest). Layout uses it, so it errs on the wide side.
double text_width(std::string_view s, double size);

// Greedy wrap of `text` into lines no wider than `width` at `size`: first at
// `sep` (e.g. "  "), then at single spaces for a piece that is still too wide.
std::vector<std::string> wrap(const std::string& text, double size, double width, const std::string& sep);

// Compact number for SVG/TikZ: at most two decimals, no trailing zeros.
void append_number(std::string& out, double v);

// An operand's element type in headings and captions, as core names it for
// `info` too (operand_format): the f8f6f4 formats by their full names and the
// modifier that chose them ("FP4 E2M1 (cbsz=4)", "FP4 E2M1 (matrix_a_fmt=4)"),
// else the type's name ("f16"). `short_form`: without the modifier.
std::string type_words(const Instruction& ins, Operand op, const ResolvedModifiers& m, bool short_form = false);

// An empty cell (or an empty legend swatch) at (x, y) of w x h: the theme's background, outlined
// in its grid colour. Every figure draws an empty place so.
Box empty_cell(double x, double y, double w, double h, const ThemeColors& tc);

// XML text/attribute escaping.
void append_xml(std::string& out, std::string_view s);

}  // namespace lanescope::figures
