// Layouts checked against the closed forms in shared/reference/
// amd-matrix-builtins.md (sections named per test), written out here
// independently of the engine's formulas.
#include "helpers.hpp"

#include <catch2/catch.hpp>

using namespace lstest;

namespace {
const ls::Catalog& cat() { return ls::Catalog::builtin(); }

// Does `L` place element (b, r, c) at (lane, absolute bit position) with this width?
bool at(const ls::OperandLayout& L, ls::Element e, int lane, int bitpos) {
    for (const auto& loc : L.where(e))
        if (loc.lane == lane && loc.reg * 32 + loc.bit_lo == bitpos) return true;
    return false;
}

ls::OperandLayout lay(const char* arch, const char* name, ls::Operand op, ls::Modifiers m = {}) {
    const auto& t = cat().find_target(arch);
    return ls::layout_of(cat().find_instruction(t, name), t, op, m);
}
}  // namespace

TEST_CASE("§4.1 dense closed form: A lane and item for every multi-block shape") {
    struct Row {
        const char* name;
        int M, K, B;
    } rows[] = {{"v_mfma_f32_32x32x1_2b_f32", 32, 1, 2}, {"v_mfma_f32_16x16x4_4b_f16", 16, 4, 4},
                {"v_mfma_f32_4x4x4_16b_f16", 4, 4, 16}, {"v_mfma_f32_32x32x8_f16", 32, 8, 1},
                {"v_mfma_i32_16x16x32_i8", 16, 32, 1},  {"v_mfma_f32_16x16x8_xf32", 16, 8, 1}};
    for (const auto& r : rows) {
        auto A = lay("gfx942", r.name, ls::Operand::A);
        const int KL = r.K * r.M * r.B / 64, w = A.element_bits();
        for (int b = 0; b < r.B; ++b)
            for (int i = 0; i < r.M; ++i)
                for (int k = 0; k < r.K; ++k) {
                    INFO(r.name << " A[" << b << "][" << i << "][" << k << "]");
                    CHECK(at(A, {b, i, k}, i + r.M * (b + r.B * (k / KL)), (k % KL) * w));
                }
    }
}

TEST_CASE("§4.2 f8f6f4: FP8 in 16-element chunks, FP6/FP4 contiguous, scales by opsel") {
    for (int fmt = 0; fmt <= 4; ++fmt) {
        ls::Modifiers m;
        m.cbsz = fmt;
        m.blgp = fmt;
        for (const char* name : {"v_mfma_scale_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"}) {
            auto A = lay("gfx950", name, ls::Operand::A, m);
            auto B = lay("gfx950", name, ls::Operand::B, m);
            const int M = A.rows(), groups = 64 / M;
            const int w = fmt <= 1 ? 8 : (fmt <= 3 ? 6 : 4);
            CHECK(A.element_bits() == w);
            CHECK(A.regs() == 32 * w / 32);
            for (int lane = 0; lane < 64; ++lane)
                for (int e = 0; e < 32; ++e) {
                    const int g = lane / M, i = lane % M;
                    (void)groups;
                    const int k = fmt <= 1 ? (1024 / M) * (e / 16) + 16 * g + e % 16 : 32 * g + e;
                    INFO(name << " fmt " << fmt << " lane " << lane << " item " << e);
                    CHECK(at(A, {0, i, k}, lane, e * w));
                    CHECK(at(B, {0, k, i}, lane, e * w));
                }
        }
    }
    for (int sel = 0; sel < 4; ++sel) {
        ls::Modifiers m;
        m.opsel_a = sel;
        m.opsel_b = 3 - sel;
        auto SA = lay("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", ls::Operand::SA, m);
        auto SB = lay("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", ls::Operand::SB, m);
        for (int i = 0; i < 16; ++i)
            for (int kb = 0; kb < 4; ++kb) {
                CHECK(at(SA, {0, i, kb}, i + 16 * kb, 8 * sel));
                CHECK(at(SB, {0, kb, i}, i + 16 * kb, 8 * (3 - sel)));
            }
    }
    // FP6 item 5 straddles v0/v1 (bits 30..35 of the concatenation).
    ls::Modifiers fp6;
    fp6.cbsz = 2;
    auto A6 = lay("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", ls::Operand::A, fp6);
    auto parts = A6.which(1, 0);
    REQUIRE(!parts.empty());
    CHECK(parts[0].element == ls::Element{0, 0, 5});
    CHECK(parts[0].bit_lo == 0);
    CHECK(parts[0].bit_hi == 3);
    CHECK(parts[0].elem_bit_lo == 2);
}

TEST_CASE("§4.3 CDNA3 SMFMAC: A pairs, index fields and set selection") {
    struct Row {
        const char* name;
        int M, K, w;
    } rows[] = {{"v_smfmac_f32_16x16x32_f16", 16, 32, 16}, {"v_smfmac_f32_32x32x16_bf16", 32, 16, 16},
                {"v_smfmac_i32_16x16x64_i8", 16, 64, 8},   {"v_smfmac_f32_32x32x32_fp8_bf8", 32, 32, 8}};
    for (const auto& r : rows) {
        const int KL = r.K * r.M / 64, sets = r.w == 16 ? 4 : 2, W = 32 / sets;
        for (int cbsz : {0, 1})
            for (int abid = 0; abid < sets; ++abid) {
                ls::Modifiers m;
                m.cbsz = cbsz;
                m.abid = abid;
                auto A = lay("gfx942", r.name, ls::Operand::A, m);
                auto K = lay("gfx942", r.name, ls::Operand::K, m);
                auto B = lay("gfx942", r.name, ls::Operand::B, m);
                const int set = cbsz == 0 ? abid : 0;
                for (int i = 0; i < r.M; ++i)
                    for (int k = 0; k < r.K; ++k) {
                        const int lane = i + r.M * (k / KL), q = (k % KL) / 4;
                        INFO(r.name << " k " << k);
                        CHECK(at(A, {0, i, k}, lane, q * 2 * r.w));  // items 2q, 2q+1
                        CHECK(at(K, {0, i, k}, lane, 4 * q + set * W));
                        CHECK(at(B, {0, k, i % r.M}, i % r.M + r.M * (k / KL), (k % KL) * r.w));
                    }
            }
    }
}

TEST_CASE("§4.4 CDNA4 SMFMAC: B halves and index sets") {
    auto B = lay("gfx950", "v_smfmac_f32_16x16x64_f16", ls::Operand::B);
    for (int lane = 0; lane < 16; ++lane) {
        for (int k = 0; k < 8; ++k) CHECK(at(B, {0, k, lane}, lane, 16 * k));            // v0-v3: k 0-7
        for (int k = 32; k < 40; ++k) CHECK(at(B, {0, k, lane}, lane, 128 + 16 * (k - 32)));  // v4-v7: k 32-39
    }
    ls::Modifiers m;
    m.abid = 1;
    auto K = lay("gfx950", "v_smfmac_f32_16x16x64_f16", ls::Operand::K, m);
    CHECK(K.where({0, 0, 0})[0].bit_lo == 16);  // set 1 of two 16-bit sets
    ls::Modifiers bad;
    bad.abid = 1;
    CHECK_THROWS_AS(lay("gfx950", "v_smfmac_i32_16x16x128_i8", ls::Operand::K, bad), ls::Error);  // one set only
}

// §4.4 as corrected from AMD's composable_kernel (ck_tile gfx950 sparse MFMA:
// A one K access, B two), rocjitsu and a production gfx950 kernel: the
// compressed A sits in the dense-MFMA layout with P dense k per lane (16 for
// 16-bit types, 32 for 8-bit); group q keeps its pair in VGPR q (16-bit) or the
// 16-bit half q%2 of VGPR q/2 (8-bit); the index nibble q sits in A's lane.
TEST_CASE("§4.4 CDNA4 SMFMAC: worked examples of the corrected A and index") {
    auto A = lay("gfx950", "v_smfmac_f32_16x16x64_f16", ls::Operand::A);
    auto K = lay("gfx950", "v_smfmac_f32_16x16x64_f16", ls::Operand::K);
    const auto a18 = A.where({0, 1, 8}), a132 = A.where({0, 1, 32});
    REQUIRE(a18.size() == 1);
    REQUIRE(a132.size() == 1);
    CHECK((a18[0].lane == 1 && a18[0].reg == 2));    // not lane 17, v0
    CHECK((a132[0].lane == 33 && a132[0].reg == 0)); // not lane 1, v2
    CHECK(K.where({0, 1, 8})[0].lane == 1);
    CHECK(K.where({0, 1, 32})[0].lane == 33);
}

TEST_CASE("§4.4 CDNA4 SMFMAC: every element of all 14 instructions, every index set") {
    const auto& t = cat().find_target("gfx950");
    int count = 0;
    for (const ls::Instruction* ins : cat().on(ls::Family::CDNA4)) {
        if (ins->kind != ls::LayoutKind::SmfmacCdna4) continue;
        ++count;
        const int M = ins->m, Kd = ins->k, w = ls::elem_bits(ins->a);
        const int P = w == 16 ? 16 : 32, K0 = w == 16 ? 8 : 16;
        const std::vector<int> sets = w == 16 ? std::vector<int>{0, 1} : std::vector<int>{0};
        for (int cbsz : {0, 1})
            for (int abid : sets) {
                ls::Modifiers m;
                m.cbsz = cbsz;
                m.abid = abid;
                const int set = cbsz == 0 ? abid : 0;
                auto A = ls::layout_of(*ins, t, ls::Operand::A, m);
                auto K = ls::layout_of(*ins, t, ls::Operand::K, m);
                auto B = ls::layout_of(*ins, t, ls::Operand::B, m);
                CHECK(A.regs() == 4);
                CHECK(K.regs() == 1);
                CHECK(B.regs() == 8);
                for (int i = 0; i < M; ++i)
                    for (int k = 0; k < Kd; ++k) {
                        INFO(ins->mnemonic << " cbsz " << cbsz << " abid " << abid << " A[" << i << "][" << k << "]");
                        const int lane = i + M * (k / P), q = (k % P) / 4;
                        const ls::Location a = w == 16 ? ls::Location{q, lane, 0, 31}
                                                       : ls::Location{q / 2, lane, 16 * (q % 2), 16 * (q % 2) + 15};
                        CHECK(A.where({0, i, k}) == std::vector<ls::Location>{a});
                        const int nib = 4 * q + 16 * set;
                        CHECK(K.where({0, i, k}) == std::vector<ls::Location>{{0, lane, nib, nib + 3}});
                    }
                // B from I4 §7.5.1.3, inverse direction: lane group g, item e holds k = (K/2)*floor(e/K0) + K0*g + e%K0.
                for (int lane = 0; lane < 64; ++lane)
                    for (int e = 0; e < 2 * K0; ++e) {
                        const int j = lane % M, g = lane / M, k = (Kd / 2) * (e / K0) + K0 * g + e % K0;
                        INFO(ins->mnemonic << " B lane " << lane << " item " << e);
                        CHECK(at(B, {0, k, j}, lane, e * w));
                    }
            }
    }
    CHECK(count == 14);
}

TEST_CASE("§5.2 RDNA4 WMMA closed forms") {
    for (int wave : {32, 64}) {
        ls::Modifiers m;
        m.wave = wave;
        auto A16 = lay("gfx1201", "v_wmma_f32_16x16x16_f16", ls::Operand::A, m);
        auto A8 = lay("gfx1201", "v_wmma_i32_16x16x16_iu8", ls::Operand::A, m);
        auto A4 = lay("gfx1201", "v_wmma_i32_16x16x32_iu4", ls::Operand::A, m);
        auto C32 = lay("gfx1201", "v_wmma_f32_16x16x16_f16", ls::Operand::C, m);
        auto C16 = lay("gfx1201", "v_wmma_f16_16x16x16_f16", ls::Operand::C, m);
        for (int i = 0; i < 16; ++i) {
            for (int k = 0; k < 16; ++k) {
                if (wave == 32) {
                    CHECK(at(A16, {0, i, k}, i + 16 * ((k / 4) % 2), 32 * (2 * (k / 8) + (k / 2) % 2) + 16 * (k % 2)));
                    CHECK(at(A8, {0, i, k}, i + 16 * (k / 8), 32 * ((k / 4) % 2) + 8 * (k % 4)));
                } else {
                    CHECK(at(A16, {0, i, k}, i + 16 * ((k / 4) % 2) + 32 * ((k / 8) % 2), 32 * ((k / 2) % 2) + 16 * (k % 2)));
                    CHECK(at(A8, {0, i, k}, i + 16 * ((k / 8) % 2) + 32 * ((k / 4) % 2), 8 * (k % 4)));
                }
            }
            for (int k = 0; k < 32; ++k) {
                if (wave == 32)
                    CHECK(at(A4, {0, i, k}, i + 16 * (k / 16), 32 * ((k / 8) % 2) + 4 * (k % 8)));
                else
                    CHECK(at(A4, {0, i, k}, i + 16 * ((k / 16) % 2) + 32 * ((k / 8) % 2), 4 * (k % 8)));
            }
            for (int j = 0; j < 16; ++j) {
                if (wave == 32) {
                    CHECK(at(C32, {0, i, j}, j + 16 * (i / 8), 32 * (i % 8)));
                    CHECK(at(C16, {0, i, j}, j + 16 * (i / 8), 32 * ((i / 2) % 4) + 16 * (i % 2)));
                } else {
                    CHECK(at(C32, {0, i, j}, j + 16 * (i / 8) + 32 * ((i / 4) % 2), 32 * (i % 4)));
                    CHECK(at(C16, {0, i, j}, j + 16 * (i / 8) + 32 * ((i / 4) % 2), 32 * ((i / 2) % 2) + 16 * (i % 2)));
                }
            }
        }
    }
}

TEST_CASE("§5.3 RDNA4 SWMMAC closed forms and §6.7 index sets") {
    for (int wave : {32, 64}) {
        const int sets16 = wave == 32 ? 2 : 4;
        for (int key = 0; key < sets16; ++key) {
            ls::Modifiers m;
            m.wave = wave;
            m.opsel = key;
            auto A = lay("gfx1200", "v_swmmac_f32_16x16x32_f16", ls::Operand::A, m);
            auto K = lay("gfx1200", "v_swmmac_f32_16x16x32_f16", ls::Operand::K, m);
            auto B = lay("gfx1200", "v_swmmac_f32_16x16x32_f16", ls::Operand::B, m);
            const int W = 32 / sets16;
            for (int i = 0; i < 16; ++i)
                for (int k = 0; k < 32; ++k) {
                    INFO("wave " << wave << " key " << key << " k " << k);
                    if (wave == 32) {
                        CHECK(at(A, {0, i, k}, i + 16 * ((k / 8) % 2), 32 * (2 * (k / 16) + (k / 4) % 2)));
                        CHECK(at(K, {0, i, k}, i + 16 * ((k / 8) % 2), 8 * (k / 16) + 4 * ((k / 4) % 2) + key * W));
                        CHECK(at(B, {0, k, i}, i + 16 * ((k / 8) % 2), 32 * (4 * (k / 16) + (k / 2) % 4) + 16 * (k % 2)));
                    } else {
                        CHECK(at(A, {0, i, k}, i + 16 * (k / 8), 32 * ((k / 4) % 2)));
                        CHECK(at(K, {0, i, k}, i + 16 * (k / 8), 4 * ((k / 4) % 2) + key * W));
                        CHECK(at(B, {0, k, i}, i + 16 * (k / 8), 32 * ((k / 2) % 4) + 16 * (k % 2)));
                    }
                }
        }
        ls::Modifiers m;
        m.wave = wave;
        auto A = lay("gfx1200", "v_swmmac_i32_16x16x64_iu4", ls::Operand::A, m);
        auto B = lay("gfx1200", "v_swmmac_i32_16x16x64_iu4", ls::Operand::B, m);
        auto A8 = lay("gfx1200", "v_swmmac_i32_16x16x32_iu8", ls::Operand::A, m);
        for (int i = 0; i < 16; ++i) {
            for (int k = 0; k < 64; ++k) {
                if (wave == 32) {
                    CHECK(at(A, {0, i, k}, i + 16 * (k / 32), 32 * ((k / 16) % 2) + 8 * ((k / 4) % 4)));
                    CHECK(at(B, {0, k, i}, i + 16 * (k / 32), 32 * ((k / 8) % 4) + 4 * (k % 8)));
                } else {
                    CHECK(at(A, {0, i, k}, i + 16 * (k / 32) + 32 * ((k / 16) % 2), 8 * ((k / 4) % 4)));
                    CHECK(at(B, {0, k, i}, i + 16 * (k / 32) + 32 * ((k / 16) % 2), 32 * ((k / 8) % 2) + 4 * (k % 8)));
                }
            }
            for (int k = 0; k < 32; ++k) {
                if (wave == 32)
                    CHECK(at(A8, {0, i, k}, i + 16 * (k / 16), 32 * ((k / 8) % 2) + 16 * ((k / 4) % 2)));
                else
                    CHECK(at(A8, {0, i, k}, i + 16 * (k / 16) + 32 * ((k / 8) % 2), 16 * ((k / 4) % 2)));
            }
        }
    }
}

TEST_CASE("§5.1 RDNA3 wave64 and opsel") {
    ls::Modifiers m;
    m.wave = 64;
    m.opsel = 4;
    auto A = lay("gfx1151", "v_wmma_bf16_16x16x16_bf16", ls::Operand::A, m);
    auto D = lay("gfx1151", "v_wmma_bf16_16x16x16_bf16", ls::Operand::D, m);
    for (int i = 0; i < 16; ++i) {
        auto locs = A.where({0, i, 3});
        REQUIRE(locs.size() == 4);  // lanes i, i+16, i+32, i+48
        for (int r = 0; r < 4; ++r) CHECK(locs[static_cast<size_t>(r)].lane == i + 16 * r);
        for (int j = 0; j < 16; ++j) CHECK(at(D, {0, i, j}, j + 16 * (i % 4), 32 * (i / 4) + 16));
    }
}
