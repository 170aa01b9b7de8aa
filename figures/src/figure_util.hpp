// Small helpers shared by the figure serialisers (not installed).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope::figures {

// Next code point of UTF-8 text starting at `i` (advances `i`); U+FFFD on bad bytes.
std::uint32_t next_codepoint(std::string_view s, size_t& i);

// Width of `s` in DejaVu Sans at `size` (advance widths of the glyphs lanescope
// uses; 0.62 em for the rest). Layout uses it, so it errs on the wide side.
double text_width(std::string_view s, double size);

// Compact number for SVG/TikZ: at most two decimals, no trailing zeros.
void append_number(std::string& out, double v);

// XML text/attribute escaping.
void append_xml(std::string& out, std::string_view s);

}  // namespace lanescope::figures
