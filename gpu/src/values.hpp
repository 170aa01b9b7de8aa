// Element values <-> register bits, per element type and family.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>

namespace lanescope::gpu::detail {

// Bits of `type` holding exactly `v`; throws Error if `v` is not representable.
uint64_t encode_value(ElemType type, Family f, double v);
double decode_value(ElemType type, Family f, uint64_t bits);

}  // namespace lanescope::gpu::detail
