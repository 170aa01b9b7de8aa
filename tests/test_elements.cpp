// The element table (elements.hpp) against the formats' own specifications: IEEE 754 binary16,
// bfloat16, OCP OFP8 rev. 1.0 (E4M3: no infinities, S.1111.111 NaN, max 448; E5M2: IEEE-like,
// max 57344), LLVM APFloat's FNUZ formats (bias 8/16, 0x80 the only NaN, max 240/57344), the OCP MX
// v1.0 spec (FP6 E2M3 max 7.5, E3M2 max 28, FP4 E2M1 max 6, all finite), CUTLASS float_ue4m3_t.
#include "lanescope/elements.hpp"

#include <catch2/catch.hpp>

#include <cmath>

namespace ls = lanescope;
using ls::ElemType;

namespace {

ls::MiniFloat fmt(ElemType t, ls::Fp8Flavor fl = ls::Fp8Flavor::Ocp) {
    const auto f = ls::minifloat_of(t, fl);
    REQUIRE(f);
    return *f;
}

}  // namespace

TEST_CASE("elements: special and boundary codes decode as their specifications say") {
    const auto f16 = fmt(ElemType::F16);
    CHECK(ls::decode_minifloat(f16, 0x3C00) == 1.0);
    CHECK(ls::decode_minifloat(f16, 0x7BFF) == 65504.0);
    CHECK(std::isinf(ls::decode_minifloat(f16, 0x7C00)));
    CHECK(ls::decode_minifloat(f16, 0xFC00) == -INFINITY);
    CHECK(std::isnan(ls::decode_minifloat(f16, 0x7E00)));
    CHECK(ls::decode_minifloat(f16, 0x0001) == std::ldexp(1.0, -24));  // the smallest subnormal

    const auto e4m3 = fmt(ElemType::E4M3);
    CHECK(ls::decode_minifloat(e4m3, 0x7E) == 448.0);
    CHECK(std::isnan(ls::decode_minifloat(e4m3, 0x7F)));
    CHECK(std::isnan(ls::decode_minifloat(e4m3, 0xFF)));
    CHECK(ls::decode_minifloat(e4m3, 0x78) == 256.0);  // S.1111.000 is a number: no infinities
    CHECK(ls::decode_minifloat(e4m3, 0x01) == std::ldexp(1.0, -9));
    CHECK(ls::decode_minifloat(fmt(ElemType::FP8), 0x7E) == 448.0);  // AMD's fp8 on OCP families

    const auto e5m2 = fmt(ElemType::E5M2);
    CHECK(ls::decode_minifloat(e5m2, 0x7B) == 57344.0);
    CHECK(std::isinf(ls::decode_minifloat(e5m2, 0x7C)));
    CHECK(std::isnan(ls::decode_minifloat(e5m2, 0x7D)));

    const auto fnuz8 = fmt(ElemType::FP8, ls::Fp8Flavor::Fnuz), fnuz5 = fmt(ElemType::BF8, ls::Fp8Flavor::Fnuz);
    CHECK(ls::decode_minifloat(fnuz8, 0x7F) == 240.0);
    CHECK(std::isnan(ls::decode_minifloat(fnuz8, 0x80)));
    CHECK(ls::decode_minifloat(fnuz8, 0x08) == std::ldexp(1.0, -7));
    CHECK(ls::decode_minifloat(fnuz5, 0x7F) == 57344.0);
    CHECK(std::isnan(ls::decode_minifloat(fnuz5, 0x80)));

    CHECK(ls::decode_minifloat(fmt(ElemType::FP6), 0x1F) == 7.5);
    CHECK(ls::decode_minifloat(fmt(ElemType::BF6), 0x1F) == 28.0);
    CHECK(ls::decode_minifloat(fmt(ElemType::FP4), 0x7) == 6.0);
    CHECK(ls::decode_minifloat(fmt(ElemType::FP4), 0x1) == 0.5);
    CHECK(ls::decode_minifloat(fmt(ElemType::FP4), 0xF) == -6.0);

    const auto ue4m3 = fmt(ElemType::UE4M3);
    CHECK(ue4m3.bits() == 7);
    CHECK(ls::decode_minifloat(ue4m3, 0x7E) == 448.0);
    CHECK(std::isnan(ls::decode_minifloat(ue4m3, 0x7F)));
}

TEST_CASE("elements: the largest finite values and which family means which fp8") {
    CHECK(fmt(ElemType::F16).max_finite() == 65504.0);
    CHECK(fmt(ElemType::BF16).max_finite() == 3.3895313892515355e38);
    CHECK(fmt(ElemType::FP8, ls::Fp8Flavor::Fnuz).max_finite() == 240.0);
    CHECK(fmt(ElemType::BF8).max_finite() == 57344.0);
    CHECK(fmt(ElemType::TF32).max_finite() == 3.4011621342146535e38);
    CHECK(ls::fp8_flavor(ls::Family::CDNA3) == ls::Fp8Flavor::Fnuz);  // MI300: FNUZ
    CHECK(ls::fp8_flavor(ls::Family::CDNA4) == ls::Fp8Flavor::Ocp);   // MI350: OCP
}

TEST_CASE("elements: every code of the 4-, 6- and 8-bit formats encodes back to itself") {
    for (ElemType t : {ElemType::FP8, ElemType::BF8, ElemType::E4M3, ElemType::E5M2, ElemType::UE4M3, ElemType::FP6,
                       ElemType::BF6, ElemType::FP4})
        for (auto fl : {ls::Fp8Flavor::Ocp, ls::Fp8Flavor::Fnuz}) {
            const auto f = fmt(t, fl);
            for (std::uint32_t code = 0; code < (1u << f.bits()); ++code) {
                const double v = ls::decode_minifloat(f, code);
                INFO(ls::elem_name(t) << " code " << code);
                if (std::isnan(v)) {
                    CHECK_FALSE(ls::encode_minifloat(f, v));
                    continue;
                }
                const auto back = ls::encode_minifloat(f, v);
                REQUIRE(back);
                CHECK(*back == code);
                CHECK(ls::round_minifloat(f, v) == (std::isinf(v) ? std::copysign(f.max_finite(), v) : v));
            }
        }
}

TEST_CASE("elements: rounding is to nearest, ties to even, and saturates (infinities too)") {
    const auto f16 = fmt(ElemType::F16);
    CHECK(ls::round_minifloat(f16, 1.0 + std::ldexp(1.0, -11)) == 1.0);  // a tie: to the even mantissa
    CHECK(ls::round_minifloat(f16, 1.0 + 3 * std::ldexp(1.0, -11)) == 1.0 + std::ldexp(1.0, -9));
    CHECK(ls::round_minifloat(f16, INFINITY) == 65504.0);
    CHECK(ls::round_minifloat(f16, -INFINITY) == -65504.0);
    CHECK(ls::round_minifloat(f16, 1e9) == 65504.0);
    CHECK(ls::round_minifloat(f16, NAN) == 0.0);
    CHECK(ls::round_minifloat(fmt(ElemType::FP4), 5.0) == 4.0);   // 4 and 6 tie at 5: to 4 (mantissa 0)
    CHECK(ls::round_minifloat(fmt(ElemType::UE4M3), -3.0) == 0.0);  // unsigned
    CHECK_FALSE(ls::encode_minifloat(fmt(ElemType::E4M3), INFINITY));  // OCP e4m3 has no infinity
    CHECK(ls::encode_minifloat(fmt(ElemType::E5M2), -INFINITY) == 0xFCu);
    CHECK(ls::encode_minifloat(fmt(ElemType::FP8, ls::Fp8Flavor::Fnuz), -0.0) == 0u);  // FNUZ: no -0
}

TEST_CASE("elements: the C types of generated code") {
    CHECK(ls::c_type(ElemType::F16) == "_Float16");
    CHECK(ls::c_type(ElemType::BF16) == "__bf16");
    CHECK(ls::c_type(ElemType::XF32) == "float");
    CHECK(ls::c_type(ElemType::FP8) == "unsigned char");
}
