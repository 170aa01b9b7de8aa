// Checking someone else's layout against lanescope's: what a kernel's index
// math, a compiler or another tool claims, in any form lanescope prints (the
// JSON contract, CSV, a linear layout) or Triton prints (its linear layouts'
// JSON, Gluon's DistributedLinearLayout(...), LinearLayout::toString()).
// Reading and comparing are bounded by the input's legal size (linear.hpp's
// limits; at most kMaxListedDifferences differences are kept). For
// Catch2/GoogleTest users:
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
// Recognises the JSON contract ("entries"), a linear layout in any form
// parse_linear reads, and CSV (a header row naming row, col, lane, reg, bit_lo,
// bit_hi, and optionally block, wave); a UTF-8 byte-order mark is skipped.
// Numbers are bounded: block 0..255, row and col 0..16777215, wave 0..4095,
// lane 0..255, reg 0..16777215, bit_lo and bit_hi 0..63. Throws Error naming
// `origin`, what is wrong and what is legal.
GivenLayout parse_layout_text(std::string_view text, std::string_view origin);

struct LayoutDifference {
    Element element;
    std::vector<Placement> expected;  // lanescope's
    std::vector<Placement> given;     // the checked layout's
};
inline constexpr size_t kMaxListedDifferences = 100000;
struct CheckResult {
    bool equal = false;
    size_t elements = 0;                       // elements compared
    size_t differing = 0;                      // elements placed differently (all of them)
    std::vector<LayoutDifference> differences; // sorted by element; the first kMaxListedDifferences
    std::string note;                          // e.g. why a linear form cannot match
    // The difference in the user's terms, when a cheap exact one fits (else
    // empty): "registers permuted: ...", "lanes permuted: ...", "transposed
    // (rows <-> cols)", "K permuted ... (D unchanged)", or an alternative's label.
    std::string explanation;
};
// Another lanescope layout the given one may equal (e.g. other tile
// parameters); `label` completes "your layout equals lanescope's with ...".
struct CheckAlternative {
    std::string label;
    const TileLayout* layout = nullptr;
};
CheckResult check_layout(const TileLayout& expected, const GivenLayout& given,
                         const std::vector<CheckAlternative>& alternatives = {});
// The same for one instruction's layout (multi-block ones too, except against a linear form).
CheckResult check_layout(const OperandLayout& expected, const GivenLayout& given);

}  // namespace lanescope
