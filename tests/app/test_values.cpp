#include "model/values.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

namespace ls = lanescope;
using namespace lsapp;
using ET = ls::ElemType;

TEST_CASE("quantize: IEEE half and bfloat16, round to nearest even") {
    // 1/3 in binary16: 0x3555 = 0.333251953125; in bfloat16: 0x3EAB = 0.333984375.
    CHECK(quantize(1.0 / 3.0, ET::F16) == 0.333251953125);
    CHECK(quantize(1.0 / 3.0, ET::BF16) == 0.333984375);
    CHECK(encode(quantize(1.0 / 3.0, ET::F16), ET::F16) == 0x3555u);
    CHECK(encode(quantize(1.0 / 3.0, ET::BF16), ET::BF16) == 0x3EABu);
    CHECK(encode(1.0, ET::F16) == 0x3C00u);
    CHECK(encode(-2.0, ET::F16) == 0xC000u);
    CHECK(encode(65504.0, ET::F16) == 0x7BFFu);
    CHECK(encode(std::ldexp(1.0, -24), ET::F16) == 0x0001u);  // smallest subnormal
    // 2049 lies halfway between 2048 and 2050 in half: ties go to the even mantissa (2048).
    CHECK(quantize(2049.0, ET::F16) == 2048.0);
    CHECK(quantize(2051.0, ET::F16) == 2052.0);
    CHECK(encode(1.0, ET::BF16) == 0x3F80u);
}

TEST_CASE("quantize: FP8/BF8 in OCP and FNUZ encodings, FP6, FP4") {
    CHECK(quantize(0.3, ET::FP8) == 0.3125);            // E4M3: step 1/32 in [0.25, 0.5)
    CHECK(quantize(0.3, ET::BF8) == 0.3125);            // E5M2: step 1/16 in [0.25, 0.5)
    CHECK(quantize(1000.0, ET::FP8) == 448.0);          // OCP E4M3 largest finite
    CHECK(quantize(1000.0, ET::FP8, Fp8Flavor::Fnuz) == 240.0);
    CHECK(encode(1.0, ET::FP8) == 0x38u);               // bias 7
    CHECK(encode(1.0, ET::FP8, Fp8Flavor::Fnuz) == 0x40u);  // bias 8
    CHECK(encode(1.0, ET::BF8) == 0x3Cu);               // bias 15
    CHECK(encode(1.0, ET::BF8, Fp8Flavor::Fnuz) == 0x40u);  // bias 16
    CHECK(encode(-448.0, ET::FP8) == 0xFEu);
    CHECK(quantize(2.7, ET::FP4) == 3.0);
    CHECK(quantize(2.5, ET::FP4) == 2.0);               // tie: even mantissa
    CHECK(encode(6.0, ET::FP4) == 0x7u);
    CHECK(quantize(100.0, ET::FP6) == 7.5);
    CHECK(quantize(100.0, ET::BF6) == 28.0);
    CHECK(fp8_flavor(ls::Family::CDNA3) == Fp8Flavor::Fnuz);
    CHECK(fp8_flavor(ls::Family::RDNA4) == Fp8Flavor::Ocp);
}

TEST_CASE("quantize: integers clamp and round") {
    CHECK(quantize(200.0, ET::I8) == 127.0);
    CHECK(quantize(-200.0, ET::I8) == -128.0);
    CHECK(quantize(9.0, ET::IU4) == 7.0);
    CHECK(encode(-1.0, ET::I8) == 0xFFu);
    CHECK(encode(-1.0, ET::I32) == 0xFFFFFFFFu);
}

TEST_CASE("generators") {
    Matrix m;
    m.blocks = 2, m.rows = 4, m.cols = 3, m.type = ET::F16;
    m.v.assign(24, 5.0);
    generate(m, Generator::Zeros);
    for (double v : m.v) CHECK(v == 0.0);
    generate(m, Generator::Identity);
    for (int b = 0; b < 2; ++b)
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 3; ++c) CHECK(m.at(b, r, c) == (r == c ? 1.0 : 0.0));
    generate(m, Generator::OneHot, 1, 7);
    int ones = 0;
    for (double v : m.v) ones += v == 1.0;
    CHECK(ones == 1);
    CHECK(m.v[7] == 1.0);
    generate(m, Generator::Random, 42);
    const auto first = m.v;
    generate(m, Generator::Random, 42);
    CHECK(m.v == first);
    generate(m, Generator::Random, 43);
    CHECK(m.v != first);
    for (double v : m.v) CHECK(v == quantize(v, ET::F16));  // already representable
    generate(m, Generator::Ramp);
    CHECK(m.at(0, 0, 1) - m.at(0, 0, 0) == 0.25);
}

namespace {
LayoutSet make(const char* arch, const char* ins) {
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, {}});
}
}  // namespace

TEST_CASE("D = A*B + C in the instruction's types: hand-computed f16 case") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    Inputs in = make_inputs(set);
    generate(in.a, Generator::Zeros);
    generate(in.b, Generator::Zeros);
    in.a.at(0, 0, 0) = quantize(1.0 / 3.0, ET::F16);  // 0.333251953125
    in.b.at(0, 0, 0) = 3.0;
    in.a.at(0, 0, 1) = 0.5;
    in.b.at(0, 1, 0) = 0.25;
    in.c.at(0, 0, 0) = 1.0;
    in.c.at(0, 5, 6) = -2.5;
    const Outputs out = compute_d(set, in);
    CHECK(out.d.at(0, 0, 0) == 0.999755859375 + 0.125 + 1.0);
    CHECK(out.d.at(0, 5, 6) == -2.5);
    CHECK(out.d.at(0, 1, 1) == 0.0);
    // D's registers hold the f32 bits where the engine places each element.
    const ls::OperandLayout& D = *set.find(ls::Operand::D);
    const ls::Location loc = D.where({0, 0, 0}).front();
    const float expect = static_cast<float>(out.d.at(0, 0, 0));
    std::uint32_t bits;
    std::memcpy(&bits, &expect, 4);
    CHECK(out.d_words[static_cast<size_t>(loc.lane) * D.regs() + loc.reg] == bits);
}

TEST_CASE("D: identity A passes B through") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");
    Inputs in = make_inputs(set);
    generate(in.a, Generator::Identity);
    generate(in.b, Generator::Random, 7);
    const Outputs out = compute_d(set, in);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) CHECK(out.d.at(0, i, j) == in.b.at(0, i, j));
}

TEST_CASE("D: int8 products accumulate exactly in int32") {
    const LayoutSet set = make("gfx942", "v_mfma_i32_16x16x32_i8");
    Inputs in = make_inputs(set);
    std::fill(in.a.v.begin(), in.a.v.end(), 127.0);
    std::fill(in.b.v.begin(), in.b.v.end(), -128.0);
    const Outputs out = compute_d(set, in);
    CHECK(out.d.at(0, 3, 4) == 32.0 * 127 * -128);
}

TEST_CASE("D: sparse A keeps two values per group of four k") {
    const LayoutSet set = make("gfx942", "v_smfmac_f32_16x16x32_f16");
    const ls::OperandLayout& A = *set.find(ls::Operand::A);
    REQUIRE(A.cols() == 32);  // the engine's A is dense M x K
    Inputs in = make_inputs(set);
    CHECK(in.k.empty());      // so the index is implied by A's non-zeros
    for (int r = 0; r < in.a.rows; ++r)
        for (int g = 0; g < in.a.cols / 4; ++g) {
            int nonzero = 0;
            for (int p = 0; p < 4; ++p) nonzero += in.a.at(0, r, 4 * g + p) != 0;
            CHECK(nonzero <= 2);
        }
    generate(in.a, Generator::Zeros);
    generate(in.b, Generator::Ramp);
    in.a.at(0, 2, 6) = 1.0;  // group 1 (k = 4..7), position 2
    Outputs out = compute_d(set, in);
    for (int j = 0; j < 16; ++j) CHECK(out.d.at(0, 2, j) == in.b.at(0, 6, j));
    CHECK(out.d.at(0, 1, 0) == 0.0);
    // A third non-zero in one group cannot be stored: it does not count.
    in.a.at(0, 2, 4) = 1.0;
    in.a.at(0, 2, 5) = 1.0;
    out = compute_d(set, in);
    for (int j = 0; j < 16; ++j) CHECK(out.d.at(0, 2, j) == in.b.at(0, 4, j) + in.b.at(0, 5, j));
}

TEST_CASE("compare: same shape, different placement is counted cell by cell") {
    const auto& cat = ls::Catalog::builtin();
    ls::Modifiers w32, w64;
    w32.wave = 32;
    w64.wave = 64;
    const LayoutSet a = resolve_selection(cat, Selection{"gfx1100", "v_wmma_f32_16x16x16_f16", w32});
    const LayoutSet b = resolve_selection(cat, Selection{"gfx1100", "v_wmma_f32_16x16x16_f16", w64});
    const LayoutDiff same = diff_layouts(*a.find(ls::Operand::D), *a.find(ls::Operand::D));
    CHECK(same.comparable);
    CHECK(same.count == 0);
    const LayoutDiff d = diff_layouts(*a.find(ls::Operand::D), *b.find(ls::Operand::D));
    CHECK(d.comparable);
    CHECK(d.count > 0);
    const LayoutSet c = resolve_selection(cat, Selection{"gfx942", "v_mfma_f32_32x32x8_f16", {}});
    CHECK_FALSE(diff_layouts(*a.find(ls::Operand::D), *c.find(ls::Operand::D)).comparable);
}

TEST_CASE("compare: each change is classified (RDNA3 wave32 vs wave64, op_sel)") {
    const auto& cat = ls::Catalog::builtin();
    ls::Modifiers w32, w64;
    w32.wave = 32;
    w64.wave = 64;
    const LayoutSet a = resolve_selection(cat, Selection{"gfx1100", "v_wmma_f32_16x16x16_f16", w32});
    const LayoutSet b = resolve_selection(cat, Selection{"gfx1100", "v_wmma_f32_16x16x16_f16", w64});
    // RDNA3 ISA guide, 7.9: D element (m, n) is in VGPR m/2, lane n + 16 (m % 2) in wave32 and in
    // VGPR m/4, lane n + 16 (m % 4) in wave64; A/B are replicated in both lane halves (wave32) or
    // all four lane quarters (wave64).
    const LayoutDiff d = diff_layouts(*a.find(ls::Operand::D), *b.find(ls::Operand::D));
    auto at = [&](int r, int c) { return static_cast<Change>(d.differs[static_cast<size_t>(r * 16 + c)]); };
    CHECK(at(0, 3) == Change::Same);           // v0 lane 3 in both
    CHECK(at(1, 3) == Change::Same);           // v0 lane 19 in both
    CHECK(at(2, 3) == Change::Both);           // v1 lane 3 vs v0 lane 35
    CHECK(at(4, 3) == Change::OtherRegister);  // v2 lane 3 vs v1 lane 3
    CHECK(d.per_change[0] + d.count == 256);
    const LayoutDiff da = diff_layouts(*a.find(ls::Operand::A), *b.find(ls::Operand::A));
    CHECK(da.per_change[static_cast<int>(Change::Copies)] == 256);  // 2 copies vs 4
    // op_sel:[0,0,1] moves a 16-bit D to the high half of the same registers.
    ls::Modifiers hi;
    hi.opsel = 4;
    const LayoutSet lo16 = resolve_selection(cat, Selection{"gfx1100", "v_wmma_f16_16x16x16_f16", {}});
    const LayoutSet hi16 = resolve_selection(cat, Selection{"gfx1100", "v_wmma_f16_16x16x16_f16", hi});
    const LayoutDiff dh = diff_layouts(*lo16.find(ls::Operand::D), *hi16.find(ls::Operand::D));
    CHECK(dh.per_change[static_cast<int>(Change::BitsOnly)] == 256);
}

TEST_CASE("wgmma: B lives in shared memory, and D = A*B + C still uses it") {
    // PTX wgmma.mma_async reads B through a matrix descriptor: its layout is in shared memory, and it is an input.
    const LayoutSet s = make("sm_90a", "wgmma_m64n256k16_f32_f16");
    REQUIRE(s.find(ls::Operand::B) != nullptr);
    CHECK(s.find(ls::Operand::B)->space() == ls::Space::SharedMemory);
    Inputs in = make_inputs(s);
    CHECK(in.b.rows == 16);
    CHECK(in.b.cols == 256);
    CHECK(in.b.type == ET::F16);
    CHECK(inputs_match(in, s));  // kept across frames: edits to B are not reset
    // B = identity (the default), C = 0: D's first 16 columns are A, the rest 0 (an identity's property;
    // with B left out of the product D was C everywhere).
    generate(in.b, Generator::Identity);
    const Outputs out = compute_d(s, in);
    REQUIRE(out.d.rows == 64);
    REQUIRE(out.d.cols == 256);
    bool ok = true;
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 256; ++j) ok &= out.d.at(0, i, j) == (j < 16 ? in.a.at(0, i, j) : 0.0);
    CHECK(ok);
}

TEST_CASE("quantize: infinities saturate, xf32 sits in an f32 register") {
    CHECK(quantize(INFINITY, ET::F16) == 65504.0);
    CHECK(quantize(-INFINITY, ET::FP8) == -448.0);
    CHECK(quantize(INFINITY, ET::FP8, Fp8Flavor::Fnuz) == 240.0);
    CHECK(encode(1.5, ET::XF32) == 0x3FC00000u);  // as tf32: the f32's bits (IEEE 754 binary32 of 1.5)
    CHECK(encode(1.5, ET::TF32) == 0x3FC00000u);
    CHECK(encode(0.0, ET::FP8, Fp8Flavor::Fnuz) == 0x00u);
}
