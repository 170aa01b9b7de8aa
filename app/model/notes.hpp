// What a learner must be told beside the picture, computed from core's layouts
// (never written per instruction): why an operand's elements sit in several
// lanes (RDNA3's replicated A and B) and how a multi-block instruction's blocks
// map to lane groups (v_mfma_f32_4x4x4_16b_f16: block b is lanes 4b..4b+3).
#pragma once

#include "model/selection.hpp"

#include <string>
#include <vector>

namespace lsapp {

// Lanes that repeat others: every element of the operand is in `copies` lanes
// lane0 + k * step (k = 0 .. copies-1), same register and bits. copies 0: not so.
struct Replication {
    int copies = 0, step = 0;
};
Replication replication_of(const ls::OperandLayout& l);

// Block b of every element lies in lanes [first + b * lanes, first + (b + 1) * lanes) of every
// operand given (lanes 0: the blocks do not map to lane groups so, e.g. under a broadcast).
struct BlockLanes {
    int lanes = 0, first = 0;
};
BlockLanes block_lanes(const ls::OperandLayout& l);

// The notes, one sentence each ("A and B: lanes 16–63 hold copies of lanes 0–15 ...").
std::vector<std::string> picture_notes(const LayoutSet& set);

// Tile mode's notes: the operands a tile leaves out (those not held in registers: wgmma's B,
// tcgen05's shared-memory and Tensor Memory operands), with where they live instead.
std::vector<std::string> tile_notes(const LayoutSet& set);

}  // namespace lsapp
