// Hover linking: what to highlight in every operand view when the pointer is
// on an element (its locations; for D/C the A row and B column that produce
// it; for A/B the D row/column they feed) or on a lane (everything that lane
// holds). Locations come from the engine's where()/which() only.
#pragma once

#include "model/memory_view.hpp"
#include "model/selection.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lsapp {

struct Hover {
    enum class Kind { None, Element, Lane };
    Kind kind = Kind::None;
    ls::Operand operand = ls::Operand::A;
    ls::Element element;
    int lane = -1;
    int wave = -1;  // tile mode: the wave of the hovered cell or lane (-1: none / every wave)
    bool operator==(const Hover& o) const {
        return kind == o.kind && operand == o.operand && element == o.element && lane == o.lane && wave == o.wave;
    }
    bool operator!=(const Hover& o) const { return !(*this == o); }
};

// Highlight levels per element and per (lane, reg) slot: 0 none, 1 related,
// 2 the hovered thing itself.
struct OperandHighlight {
    ls::Operand operand = ls::Operand::A;
    std::vector<std::uint8_t> elements;  // index: element_index()
    std::vector<std::uint8_t> slots;     // index: lane * regs + reg
    // The non-zero entries of the two masks (indices), so that a frame draws
    // highlights in the time of what is marked, not of the whole grid.
    std::vector<int> marked, marked_slots;
};

struct Links {
    std::vector<OperandHighlight> operands;  // one per layout, same order as LayoutSet::layouts
    OperandHighlight tmem_d;                 // LayoutSet::tmem_d: D's marked elements where TMEM holds them
    const OperandHighlight* find(ls::Operand op) const;
};

int element_index(const ls::OperandLayout& l, const ls::Element& e);

// Fills every highlight's `marked` and `marked_slots` from its masks.
void index_marks(Links& links);

Links compute_links(const LayoutSet& set, const Hover& hover);

// The Memory view's share of the links: levels per memory cell (from the
// operand's element levels of `links`, so a fragment cell and its memory cell
// light up together), plus, for an element of the memory operand, the lane
// that reads it: its other elements (level 1) and its loads (outlined).
// A lane hover marks what the lane holds (2) and what it reads itself (1).
struct MemoryHighlight {
    std::vector<std::pair<int, std::uint8_t>> cells;  // (cell, level), each cell once
    std::vector<int> ops;  // indices into the ops: the loads of the lane concerned
    int op = -1;           // the load that reads the hovered element
};
MemoryHighlight memory_links(const Links& links, const ls::OperandLayout& layout, const MemoryGrid& grid,
                             const std::vector<ls::MemoryOp>& ops, const Hover& hover);

// Tooltip text for an element: its locations and the formula in words.
std::string describe_element(const LayoutSet& set, ls::Operand op, const ls::Element& e);

}  // namespace lsapp
