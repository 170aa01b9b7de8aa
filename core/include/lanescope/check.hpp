// Checking someone else's layout against lanescope's: what a kernel's index
// math, a compiler or another tool claims, in any form lanescope prints (the
// JSON contract, CSV, a linear layout). For Catch2/GoogleTest users:
//
//   lanescope::TileLayout t(ins, gfx, lanescope::Operand::A, mods, lanescope::TileParams{});
//   lanescope::CheckResult r = lanescope::check_layout(t, lanescope::parse_layout_text(text, "mine.json"));
//   REQUIRE(r.equal);   // else r.differences says which elements and where
#pragma once

#include "lanescope/linear.hpp"
#include "lanescope/tile.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// One place an element lives: (wave, lane, reg, bits) for the JSON contract and
// CSV; (wave, lane, register index) for a linear layout (reg and bits -1).
struct Placement {
    int wave = 0, lane = 0, reg = -1, bit_lo = -1, bit_hi = -1, index = -1;
    bool operator<(const Placement& o) const;
    bool operator==(const Placement& o) const;
    std::string label() const;  // "w1:v3[15:0]:L17" or "w1:L17:i6"
};

// A layout read from text: either placements per element, or a linear layout.
struct GivenLayout {
    std::string origin;
    bool linear = false;
    LinearLayout linear_layout;                           // when linear
    std::vector<std::pair<Element, Placement>> entries;   // otherwise
    std::string operand;                                  // from the JSON contract, if it says
};
// Recognises the JSON contract ("entries"), a linear layout ("register",
// "lane", ...) and CSV (a header row naming row, col, lane, reg, bit_lo,
// bit_hi, and optionally block, wave). Throws Error naming `origin`.
GivenLayout parse_layout_text(std::string_view text, std::string_view origin);

struct LayoutDifference {
    Element element;
    std::vector<Placement> expected;  // lanescope's
    std::vector<Placement> given;     // the checked layout's
};
struct CheckResult {
    bool equal = false;
    size_t elements = 0;                       // elements compared
    std::vector<LayoutDifference> differences; // sorted by element
    std::string note;                          // e.g. why a linear form cannot match
};
CheckResult check_layout(const TileLayout& expected, const GivenLayout& given);
// The same for one instruction's layout (multi-block ones too, except against a linear form).
CheckResult check_layout(const OperandLayout& expected, const GivenLayout& given);

}  // namespace lanescope
