// Element encodings against the formats' definitions (OCP FP8/MX specs; the
// FNUZ variants used by CDNA3; IEEE half; bfloat16).
#include "values.hpp"

#include <catch2/catch.hpp>

using namespace lanescope;
using namespace lanescope::gpu::detail;

TEST_CASE("1.0 has the encoding each format defines") {
    CHECK(encode_value(ElemType::F16, Family::RDNA3, 1.0) == 0x3C00);
    CHECK(encode_value(ElemType::BF16, Family::RDNA3, 1.0) == 0x3F80);
    CHECK(encode_value(ElemType::F32, Family::CDNA3, 1.0) == 0x3F800000u);
    CHECK(encode_value(ElemType::F64, Family::CDNA3, 1.0) == 0x3FF0000000000000ull);
    CHECK(encode_value(ElemType::FP8, Family::RDNA4, 1.0) == 0x38);  // OCP E4M3, bias 7
    CHECK(encode_value(ElemType::BF8, Family::RDNA4, 1.0) == 0x3C);  // OCP E5M2, bias 15
    CHECK(encode_value(ElemType::FP8, Family::CDNA3, 1.0) == 0x40);  // E4M3 FNUZ, bias 8
    CHECK(encode_value(ElemType::BF8, Family::CDNA3, 1.0) == 0x40);  // E5M2 FNUZ, bias 16
    CHECK(encode_value(ElemType::FP6, Family::CDNA4, 1.0) == 0x08);  // E2M3, bias 1
    CHECK(encode_value(ElemType::BF6, Family::CDNA4, 1.0) == 0x0C);  // E3M2, bias 3
    CHECK(encode_value(ElemType::FP4, Family::CDNA4, 1.0) == 0x2);   // E2M1, bias 1
    CHECK(encode_value(ElemType::E8M0, Family::CDNA4, 1.0) == 127);
    CHECK(encode_value(ElemType::E8M0, Family::CDNA4, 4.0) == 129);
    CHECK(encode_value(ElemType::IU4, Family::RDNA3, -1.0) == 0xF);
    CHECK(encode_value(ElemType::I8, Family::CDNA3, -2.0) == 0xFE);
}

TEST_CASE("largest finite values decode as the specs say") {
    CHECK(decode_value(ElemType::FP8, Family::RDNA4, 0x7E) == 448.0);   // OCP E4M3 max
    CHECK(decode_value(ElemType::BF8, Family::RDNA4, 0x7B) == 57344.0); // OCP E5M2 max
    CHECK(decode_value(ElemType::FP8, Family::CDNA3, 0x7F) == 240.0);   // E4M3 FNUZ max
    CHECK(decode_value(ElemType::FP4, Family::CDNA4, 0x7) == 6.0);
    CHECK(decode_value(ElemType::FP6, Family::CDNA4, 0x1F) == 7.5);
    CHECK(decode_value(ElemType::BF6, Family::CDNA4, 0x1F) == 28.0);
    CHECK(decode_value(ElemType::F16, Family::RDNA3, 0x7BFF) == 65504.0);
}

TEST_CASE("values the probe uses round-trip in every type") {
    for (ElemType t : {ElemType::F64, ElemType::F32, ElemType::XF32, ElemType::F16, ElemType::BF16, ElemType::I32,
                       ElemType::I8, ElemType::IU8, ElemType::IU4, ElemType::FP8, ElemType::BF8, ElemType::FP6,
                       ElemType::BF6, ElemType::FP4})
        for (Family f : {Family::CDNA3, Family::CDNA4, Family::RDNA4})
            for (double v : {0.0, 1.0, -1.0, 2.0, 3.0}) {
                INFO(elem_name(t) << " " << v);
                CHECK(decode_value(t, f, encode_value(t, f, v)) == v);
            }
}

TEST_CASE("values a type cannot hold are refused, not rounded") {
    CHECK_THROWS_AS(encode_value(ElemType::FP4, Family::CDNA4, 5.0), Error);
    CHECK_THROWS_AS(encode_value(ElemType::IU4, Family::RDNA3, 8.0), Error);
    CHECK_THROWS_AS(encode_value(ElemType::BF16, Family::RDNA3, 257.0), Error);
    CHECK_THROWS_AS(encode_value(ElemType::E8M0, Family::CDNA4, 3.0), Error);
}
