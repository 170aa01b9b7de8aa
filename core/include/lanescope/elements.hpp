// What an element type is, beyond its name and width (lanescope.hpp's elem_name
// and elem_bits): its C spelling, the small-float encodings (which fp8 a family
// means, where infinities and NaNs sit) and the codec every front end and the
// GPU checks use. One table, so the app's values, the generated code and the
// probes read the same bits.
//
// Sources: the OCP 8-bit Floating Point Specification (OFP8) rev. 1.0 (E4M3:
// no infinities, S.1111.111 NaN; E5M2: IEEE-like), the OCP Microscaling Formats
// (MX) v1.0 specification (FP6 E2M3/E3M2, FP4 E2M1: every code finite; E8M0:
// 2^(e-127), 0xFF NaN), LLVM's APFloat (Float8E4M3FNUZ, Float8E5M2FNUZ: bias 8
// and 16, 0x80 the only NaN, no infinities, no -0) for CDNA3's fp8/bf8, AMD's
// CDNA3 ISA guide (FNUZ on MI300) and CDNA4 ISA guide (OCP on MI350), IEEE 754
// binary16, bfloat16, and CUTLASS float8.h (float_ue4m3_t: unsigned e4m3).
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace lanescope {

// FP8/BF8 come in two encodings: OCP (E4M3FN / E5M2) on CDNA4, RDNA4, gfx1250
// and NVIDIA, and the "FNUZ" variants (bias 8 / 16, no negative zero) on CDNA3.
enum class Fp8Flavor { Ocp, Fnuz };
Fp8Flavor fp8_flavor(Family f);

// Where a small float keeps its special values.
enum class FloatSpecials {
    Ieee,      // all-ones exponent: infinity (mantissa 0) or NaN (f16, bf16, e5m2)
    OcpE4M3,   // no infinities; S.1111.111 is NaN (e4m3, ue4m3 without the sign)
    Fnuz,      // no infinities, no -0; 0x80 (sign set, all else 0) is the only NaN
    None,      // every code a finite number (fp6, bf6, fp4)
};
struct MiniFloat {
    int exp_bits = 0, man_bits = 0, bias = 0;
    bool sign = true;  // false: ue4m3, whose bit 7 is unused
    FloatSpecials specials = FloatSpecials::None;
    int bits() const { return (sign ? 1 : 0) + exp_bits + man_bits; }
    double max_finite() const;
};
// The small-float format of t (f16, bf16, every 4-, 6- and 8-bit float type, and tf32/xf32's
// e8m10 values — which registers hold as an f32's bits, not as a 19-bit code); nullopt for the others.
std::optional<MiniFloat> minifloat_of(ElemType t, Fp8Flavor flavor);
// The value of `code` (its low bits(): infinities and NaNs as the format has them).
double decode_minifloat(const MiniFloat& f, std::uint32_t code);
// x rounded to the nearest value of f (ties to even), saturating at the largest finite
// value (infinities included); NaN becomes 0 — the app's rule for the values it shows.
double round_minifloat(const MiniFloat& f, double x);
// The code of a value of f (as round_minifloat gives it); std::nullopt when x is not one.
std::optional<std::uint32_t> encode_minifloat(const MiniFloat& f, double x);

// The C/HIP type of one element in generated code and snippets ("_Float16", "__bf16",
// "float", ...); 8-bit and narrower codes are "unsigned char" (one code per entry).
std::string_view c_type(ElemType t);

}  // namespace lanescope
