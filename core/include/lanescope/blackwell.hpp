// NVIDIA Blackwell catalog (core/catalog/blackwell.txt) for the witnesses: its rows
// are templates that Catalog::find_instruction materialises one name at a time.
#pragma once

#include "lanescope/lanescope.hpp"

#include <vector>

namespace lanescope {

// Every PTX spelling the Blackwell templates hold, one instruction each
// (tcgen05.mma also with A in Tensor Memory), with the targets whose ptxas
// accepts it (Instruction::targets).
std::vector<Instruction> blackwell_spellings();
// Every matrix multiply the templates spell on `t` (tcgen05.mma on sm_100a/103a/110a,
// mma.sync kind::* on sm_120a/121a): one instruction per row, M, N, K, types and
// A's space, in the catalog's order. What the app's instruction selectors offer.
std::vector<Instruction> blackwell_mma_forms(const Target& t);
// Whether the catalog claims `ins` is legal on `t`: exactly `targets` where the row
// lists them (Blackwell); else the row's families from min_target on, an `a`
// min_target (sm_90a) meaning that target alone.
bool claimed_on(const Instruction& ins, const Target& t);
// Whether `ins` is PTX-only: PTX ISA (ins.ptx_version) allows it on its targets, but CUDA 13.0's
// ptxas does not accept it (the row's targets field ends "ptx-only"; `conformance --ptxas` expects
// ptxas to refuse it everywhere). info, list and JSON say so (kPtxOnly); its layout is shown as
// PTX defines it.
bool ptx_only(const Instruction& ins);
inline constexpr const char* kPtxOnly = "PTX-only: not accepted by CUDA 13.0 ptxas";

}  // namespace lanescope
