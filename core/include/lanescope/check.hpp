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

#include "lanescope/gluon.hpp"
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
    // What the file says of its elements (the JSON contract's "type" and
    // "element_bits", else the bits each element spans in its placements when
    // every element spans as many): 0 / "" when it does not say.
    int element_bits = 0;
    std::string type;
    std::string modifiers;       // the contract's "modifiers" as "cbsz=2 abid=0", or ""
    // A linear layout whose text gave no shape (its rows and cols are 0 until
    // the check takes the shape of lanescope's layout, --shape).
    bool shape_given = true;
    // Gluon's named constructor (DotOperandLayout(...), AMDMFMALayout(...),
    // AMDWMMALayout(...), NVMMADistributedLayout(...)) as read: it becomes a
    // linear layout only with an instruction and a shape (resolve_named_layout).
    bool named = false;
    GluonNamedLayout named_layout;
};
// Recognises the JSON contract ("entries"), a linear layout in any form
// parse_linear reads, and CSV (a header row naming row, col, lane, reg, bit_lo,
// bit_hi, and optionally block, wave); a UTF-8 byte-order mark is skipped.
// Numbers are bounded: block 0..255, row and col 0..16777215, wave 0..4095,
// lane 0..255, reg 0..16777215, bit_lo and bit_hi 0..63. Throws Error naming
// `origin`, what is wrong and what is legal.
// Gluon's named constructors alone (as `layout --format gluon` prints them,
// with or without "gl."/"layout = ") are read too (gluon.hpp), and a linear
// layout without "shape" is read with rows and cols 0 (shape_given false).
GivenLayout parse_layout_text(std::string_view text, std::string_view origin);
// Makes `given` comparable with a layout of `ins` on `target`: a named Gluon
// constructor becomes the linear layout Triton gives it at rows x cols (the
// shape of lanescope's layout, from --shape when the file has none); a linear
// layout without a shape takes rows x cols. Throws Error when the constructor
// names another instruction, operand or parameter Triton refuses.
void resolve_given_layout(GivenLayout& given, const Instruction& ins, const Target& target, Operand op,
                          const ResolvedModifiers& mods, int rows, int cols);

struct LayoutDifference {
    Element element;
    std::vector<Placement> expected;  // lanescope's
    std::vector<Placement> given;     // the checked layout's
};
inline constexpr size_t kMaxListedDifferences = 100000;
// One basis of a linear layout that differs: "register" / "lane" / "warp",
// its index (the bit of that index), the checked layout's (row, col) and lanescope's.
struct BasisDifference {
    std::string dim;
    int index = 0;
    std::pair<int, int> given, expected;
};
// How many places (wave, lane, slot) of lanescope's layout hold another
// element in the checked one, by wave, by lane and by slot ("i3" or "v1[15:0]").
struct DifferenceSummary {
    size_t places = 0, differing_places = 0;
    std::vector<std::pair<int, size_t>> by_wave, by_lane;    // (index, places), ascending
    std::vector<std::pair<std::string, size_t>> by_slot;     // (slot label, places), in slot order
    int waves = 0, lanes = 0, slots = 0;                     // of lanescope's layout
};
// Whether the checked layout is one-to-one: each place holds one element and
// no element is held twice (injective), and every element of the shape is held (surjective).
struct OneToOne {
    bool known = false;
    bool injective = false, surjective = false;
    size_t places = 0, elements_held = 0, shape_elements = 0;
    size_t shared_places = 0;      // places that hold more than one element (lists only)
    std::string why;               // e.g. "register basis 2 is [0, 0]" or "lane basis 5 = register basis 1"
};
struct CheckResult {
    bool equal = false;
    size_t elements = 0;                       // elements compared
    size_t differing = 0;                      // elements placed differently (all of them)
    std::vector<LayoutDifference> differences; // sorted by element; the first kMaxListedDifferences
    std::string note;                          // e.g. why a linear form cannot match
    // The difference in the user's terms, when a cheap exact one fits (else
    // empty): "registers permuted: ...", "lanes permuted: ...", "transposed
    // (rows <-> cols)", "K permuted ... (D unchanged)", or an alternative's label.
    // Element widths, types or modifiers that differ come first: a permutation
    // never explains them.
    std::string explanation;
    std::vector<BasisDifference> bases;   // a linear layout's bases that differ from lanescope's
    std::string bases_note;               // e.g. "yours has 5 register bases, lanescope's 4"
    DifferenceSummary summary;            // filled when the layouts differ and both are functions of places
    OneToOne one_to_one;                  // of the checked layout
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
