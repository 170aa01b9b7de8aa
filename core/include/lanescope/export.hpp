// `layout --format linear|cute|gluon`: an operand's layout written as another
// tool's input — Triton's linear-layout JSON, a CuTe (thread, value) layout
// (with CUTLASS's TMEM atom where one exists), or Gluon code. The CLI and the
// app's Copy menu both print these bytes.
#pragma once

#include "lanescope/request.hpp"
#include "lanescope/tile.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanescope {

// The operands an export of "every operand" writes: those that live in registers (wgmma's B is
// in shared memory, read through a descriptor, and has no register form; `layout --operand B` draws it).
std::vector<Operand> exported_operands(const Query& q);

// Throws the refusal render_export gives a multi-block instruction (for front ends that check it first).
void check_export(const Query& q, Export form);
// One operand (`op`, tiled by tp) or every exported operand (nullopt, each tiled by tp.for_operand).
// Throws Error, with what is legal, for a multi-block instruction (several products, which no
// layout of one matrix describes) and for a layout the form cannot express.
std::string render_export(const Query& q, const TileParams& tp, std::optional<Operand> op, Export form);

}  // namespace lanescope
