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

}  // namespace lanescope
