// The seed documents' tables and store_c/load_a examples, reproduced.
// Expectations are transcribed from shared/seeds (S0: CDNA4 dense MFMA page,
// S1: RDNA3 WMMA page, S2: CDNA3 sparse page, S3: xf32 ISA page).
#include "helpers.hpp"

#include <catch2/catch.hpp>

using namespace lstest;

namespace {
const ls::Catalog& cat() { return ls::Catalog::builtin(); }

ls::Location one(const ls::OperandLayout& L, int b, int i, int j) {
    auto locs = L.where({b, i, j});
    REQUIRE(locs.size() == 1);
    return locs[0];
}
}  // namespace

TEST_CASE("S0: 32x32 two-block accumulator, row bands of four") {
    const auto& t = cat().find_target("gfx950");
    const auto& ins = cat().find_instruction(t, "__builtin_amdgcn_mfma_f32_32x32x1f32");
    auto D = ls::layout_of(ins, t, ls::Operand::D, ls::Modifiers{});
    // Rows | Lanes | accVGPRs (block 0; block 1 adds 16)
    const int table[8][3] = {{0, 0, 0}, {4, 32, 0}, {8, 0, 4}, {12, 32, 4}, {16, 0, 8}, {20, 32, 8}, {24, 0, 12}, {28, 32, 12}};
    for (int b = 0; b < 2; ++b)
        for (const auto& row : table)
            for (int di = 0; di < 4; ++di)
                for (int j = 0; j < 32; ++j) {
                    auto loc = one(D, b, row[0] + di, j);
                    CHECK(loc.lane == row[1] + j);
                    CHECK(loc.reg == row[2] + di + 16 * b);
                }
}

TEST_CASE("S0: 16x16 four-block accumulator") {
    const auto& t = cat().find_target("gfx950");
    const auto& ins = cat().find_instruction(t, "mfma_f32_16x16x4f16");
    auto D = ls::layout_of(ins, t, ls::Operand::D, ls::Modifiers{});
    for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
                auto loc = one(D, b, i, j);
                CHECK(loc.lane == 16 * (i / 4) + j);  // rows 0-3 lanes 0-15, 4-7 lanes 16-31, ...
                CHECK(loc.reg == i % 4 + 4 * b);      // block k adds 4k
            }
}

TEST_CASE("S0: 4x4 sixteen-block accumulator") {
    const auto& t = cat().find_target("gfx950");
    const auto& ins = cat().find_instruction(t, "v_mfma_f32_4x4x1_16b_f32");
    auto D = ls::layout_of(ins, t, ls::Operand::D, ls::Modifiers{});
    for (int b = 0; b < 16; ++b)
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                auto loc = one(D, b, i, j);
                CHECK(loc.lane / 4 == b);  // lanes 4b..4b+3 hold block b
                CHECK(loc.reg == i);       // accVGPRs 0-3 are the rows
            }
}

TEST_CASE("S0: FP64 16x16 and 4x4 accumulators") {
    const auto& t = cat().find_target("gfx950");
    auto D16 = ls::layout_of(cat().find_instruction(t, "v_mfma_f64_16x16x4_f64"), t, ls::Operand::D, ls::Modifiers{});
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            auto loc = one(D16, 0, i, j);
            CHECK(loc.lane == 16 * (i % 4) + j);  // rows 0,4,8,12 -> lanes 0-15; 1,5,9,13 -> 16-31 ...
            CHECK(loc.reg == 2 * (i / 4));        // pair i/4 = physical v[2p+1:2p]
            CHECK(loc.bit_hi == 63);
        }
    auto D4 = ls::layout_of(cat().find_instruction(t, "v_mfma_f64_4x4x4_4b_f64"), t, ls::Operand::D, ls::Modifiers{});
    for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                auto loc = one(D4, b, i, j);
                CHECK(loc.lane == 16 * i + 4 * b + j);  // row 0 block 0 lanes 0-3, block 1 lanes 4-7, row 1 lanes 16-31
                CHECK(loc.reg == 0);
            }
}

TEST_CASE("S0: MfmaCdna4F16Policy load_a/load_b/store_c for v_mfma_f32_16x16x32_f16") {
    const auto& t = cat().find_target("mi355x");
    const auto& ins = cat().find_instruction(t, "v_mfma_f32_16x16x32_f16");
    auto A = ls::layout_of(ins, t, ls::Operand::A, ls::Modifiers{});
    auto B = ls::layout_of(ins, t, ls::Operand::B, ls::Modifiers{});
    auto D = ls::layout_of(ins, t, ls::Operand::D, ls::Modifiers{});
    for (int lane = 0; lane < 64; ++lane)
        for (int e = 0; e < 8; ++e) {
            // load_a: row = lane % 16, k = 8 * (lane / 16) + e; frag[e] is the e-th half of the v8half.
            auto pa = A.which(e / 2, lane);
            bool found = false;
            for (const auto& p : pa)
                found = found || (p.element == ls::Element{0, lane % 16, 8 * (lane / 16) + e} && p.bit_lo == 16 * (e % 2));
            CHECK(found);
            auto pb = B.which(e / 2, lane);
            found = false;
            for (const auto& p : pb)
                found = found || (p.element == ls::Element{0, 8 * (lane / 16) + e, lane % 16} && p.bit_lo == 16 * (e % 2));
            CHECK(found);
        }
    for (int L = 0; L < 64; ++L)
        for (int G = 0; G < 4; ++G) {
            auto parts = D.which(G, L);
            REQUIRE(parts.size() == 1);
            CHECK(parts[0].element.row == 4 * (L / 16) + (G % 4));  // store_c: i = 4*floor(L/16) + G%4
            CHECK(parts[0].element.col == L % 16);                  //          j = L mod 16
        }
}

TEST_CASE("S1: RDNA3 wave32 WMMA: replicated A/B, interleaved C, store_c") {
    const auto& t = cat().find_target("gfx1100");
    const auto& ins = cat().find_instruction(t, "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32");
    auto A = ls::layout_of(ins, t, ls::Operand::A, ls::Modifiers{});
    auto D = ls::layout_of(ins, t, ls::Operand::D, ls::Modifiers{});
    REQUIRE(A.lanes() == 32);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 16; ++k) {
            auto locs = A.where({0, i, k});
            REQUIRE(locs.size() == 2);  // lanes i and i + 16 hold identical copies
            CHECK(locs[0].lane == i);
            CHECK(locs[1].lane == i + 16);
            CHECK(locs[0].reg == k / 2);  // VGPR v holds K {2v, 2v+1}
            CHECK(locs[0].bit_lo == 16 * (k % 2));
        }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            auto loc = one(D, 0, i, j);
            CHECK(loc.lane == j + (i % 2 ? 16 : 0));  // even rows lanes 0-15, odd rows 16-31
            CHECK(loc.reg == i / 2);
        }
    for (int L = 0; L < 32; ++L)
        for (int G = 0; G < 8; ++G) {
            auto parts = D.which(G, L);
            REQUIRE(parts.size() == 1);
            CHECK(parts[0].element.row == G * 2 + L / 16);  // store_c: row = G*2 + L/16
            CHECK(parts[0].element.col == L % 16);          //          col = L mod 16
        }
}

TEST_CASE("S2: CDNA3 SMFMAC accumulators and their inverses") {
    const auto& t = cat().find_target("gfx942");
    auto D16 = ls::layout_of(cat().find_instruction(t, "v_smfmac_f32_16x16x64_fp8_fp8"), t, ls::Operand::D, ls::Modifiers{});
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            auto loc = one(D16, 0, i, j);
            CHECK(loc.lane == 16 * (i / 4) + j);
            CHECK(loc.reg == i % 4);
        }
    for (int L = 0; L < 64; ++L)
        for (int G = 0; G < 4; ++G) {
            auto p = D16.which(G, L);
            REQUIRE(p.size() == 1);
            CHECK(p[0].element.row == 4 * (L / 16) + G % 4);
            CHECK(p[0].element.col == L % 16);
        }
    auto D32 = ls::layout_of(cat().find_instruction(t, "smfmac_f32_32x32x32_bf8_fp8"), t, ls::Operand::D, ls::Modifiers{});
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            auto loc = one(D32, 0, i, j);
            CHECK(loc.lane == (32 * (i / 4)) % 64 + j);
            CHECK(loc.reg == 4 * (i / 8) + i % 4);
        }
    for (int L = 0; L < 64; ++L)
        for (int G = 0; G < 16; ++G) {
            auto p = D32.which(G, L);
            REQUIRE(p.size() == 1);
            CHECK(p[0].element.row == (8 * (G / 4)) % 32 + 4 * (L / 32) + G % 4);
            CHECK(p[0].element.col == L % 32);
        }
}

TEST_CASE("S3: v_mfma_f32_16x16x8_xf32 facts") {
    const auto& t = cat().find_target("gfx942");
    const auto& ins = cat().find_instruction(t, "v_mfma_f32_16x16x8xf32");  // the other spelling S3 gives
    CHECK(ins.mnemonic == "v_mfma_f32_16x16x8_xf32");
    CHECK(ins.opcode == 62);
    CHECK((0xD3800000u | (ins.opcode << 16)) == 0xD3BE0000u);
    CHECK(ins.m == 16);
    CHECK(ins.n == 16);
    CHECK(ins.k == 8);
    CHECK(ins.cycles == 16);  // "4 passes"
    // Not on CDNA4 (S0: XF32 is not supported on CDNA4).
    CHECK_THROWS_AS(cat().find_instruction(cat().find_target("gfx950"), "v_mfma_f32_16x16x8_xf32"), ls::Error);
}
