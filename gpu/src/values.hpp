// Element values <-> register bits, per element type and family.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>

namespace lanescope::gpu::detail {

// FP8/BF8 are the FNUZ variants on CDNA3 (bias 8 / 16) and OCP E4M3/E5M2 elsewhere.
bool fp8_is_fnuz(Family f);
// Bits of `type` holding exactly `v`; throws Error if `v` is not representable.
uint64_t encode_value(ElemType type, Family f, double v);
double decode_value(ElemType type, Family f, uint64_t bits);

}  // namespace lanescope::gpu::detail
