// "Verify on GPU": what a verification report says about each cell, as plain
// data the UI draws over the cached tiles. GL-free and free of lanescope::gpu:
// the caller copies the report's facts into VerifyFacts (see
// model/verify_from_gpu.hpp where the GPU backend is built).
#pragma once

#include "model/selection.hpp"
#include "lanescope/palette.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lsapp {

// The facts of one verification, copied from lanescope::gpu::Report.
struct VerifyCellIssue {
    ls::Operand operand = ls::Operand::A;
    ls::Element element;
    std::string note;  // what the hardware did
};
struct VerifyFacts {
    bool passed = false;
    std::string summary, device;
    long long mismatch_count = 0;
    std::vector<ls::Operand> checked;  // operands whose every cell was exercised
    std::vector<VerifyCellIssue> issues;
};

// Overlay colours (opaque outlines; the fill is a translucent wash of the same).
// Neither is in the tile palette, so screenshots can count them.
inline constexpr ls::Rgb verify_ok_colour{20, 160, 60};
inline constexpr ls::Rgb verify_wrong_colour{215, 25, 28};

enum class CellState : std::uint8_t { Unchecked = 0, Verified = 1, Wrong = 2 };

// Per-cell states of one drawn operand (C's cells are drawn, and judged, as D's).
struct OperandVerify {
    ls::Operand operand = ls::Operand::A;
    int rows = 0, cols = 0, blocks = 0;
    std::vector<CellState> cells;                // index: (block * rows + row) * cols + col
    std::map<size_t, std::string> notes;         // wrong cells: what the hardware did
    CellState at(const ls::Element& e) const;
    const std::string* note(const ls::Element& e) const;
    size_t index(const ls::Element& e) const { return (static_cast<size_t>(e.block) * rows + e.row) * cols + e.col; }
};

struct VerifyOverlay {
    std::vector<OperandVerify> operands;  // one per layout of the set except C
    int verified = 0, wrong = 0;          // cell counts over all operands
    const OperandVerify* find(ls::Operand op) const;
};

// Maps a report onto the set's cells: a cell named by an issue is Wrong (the
// notes of several issues of one cell are joined); every other cell of a
// checked operand is Verified; cells of unchecked operands stay Unchecked.
// Issues outside an operand's shape are ignored.
VerifyOverlay make_verify_overlay(const LayoutSet& set, const VerifyFacts& facts);

// "verified: N cells PASS" or "FAIL: k mismatches (m cells)".
std::string verify_status(const VerifyFacts& facts, const VerifyOverlay& overlay);

}  // namespace lsapp
