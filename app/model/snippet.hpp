// A ready-to-paste HIP snippet of the lane -> element index math for
// load_a, load_b and store_c (in the style of the seeds' ComputePolicy
// examples). The index expressions are fitted to the engine's which() output
// and checked against every lane and value; where no simple expression fits,
// the snippet carries an exact lookup table instead.
#pragma once

#include "model/selection.hpp"

#include <string>
#include <vector>

namespace lsapp {

// One operand's per-lane fragment: for each lane, the elements it holds in
// order (registers ascending, low bits first).
struct Fragment {
    int lanes = 0, values = 0;
    std::vector<ls::Element> elements;  // lanes * values
    const ls::Element& at(int lane, int v) const { return elements[static_cast<size_t>(lane) * values + v]; }
};
Fragment fragment_of(const ls::OperandLayout& l);

// "(lane % 32)", "8 * (lane / 32) + v", ... or "" when no simple form fits.
// `field` is 0 block, 1 row, 2 col.
std::string fit_index(const Fragment& f, int field);

std::string hip_snippet(const LayoutSet& set);

}  // namespace lsapp
