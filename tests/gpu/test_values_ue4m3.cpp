// PTX's unsigned e4m3 scale factor (.ue4m3, kind::mxf4nvf4) in the probes' encodings, against
// CUTLASS float8.h's float_ue4m3_t: 4 exponent bits, 3 mantissa bits, exponent bias 7, range
// [0, 448], denormals, no sign bit.
#include "values.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace lanescope;
using namespace lanescope::gpu::detail;

TEST_CASE("ue4m3: bias 7, range [0, 448], denormals, unsigned", "[values][ue4m3]") {
    CHECK(encode_value(ElemType::UE4M3, Family::BlackwellGeForce, 1.0) == 0x38);  // exponent 7 = bias
    CHECK(encode_value(ElemType::UE4M3, Family::BlackwellGeForce, 448.0) == 0x7E);
    CHECK(decode_value(ElemType::UE4M3, Family::BlackwellGeForce, 0x7E) == 448.0);   // the range's top
    CHECK(decode_value(ElemType::UE4M3, Family::BlackwellGeForce, 0x01) == std::ldexp(1.0, -9));  // smallest denormal
    CHECK(decode_value(ElemType::UE4M3, Family::BlackwellGeForce, 0x38) == 1.0);
    CHECK_THROWS_WITH(encode_value(ElemType::UE4M3, Family::BlackwellGeForce, -1.0), Catch::Contains("unsigned"));
}
