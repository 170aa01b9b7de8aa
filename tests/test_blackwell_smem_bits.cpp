// tcgen05.mma's 4- and 6-bit A/B in shared memory, to the bit. Expectations are computed here,
// independently of lanescope's formulas, from:
//  - PTX ISA §9.7.16.10.4.4 ("contiguously packed along with padding") and §9.7.16.9.1.1/.2
//    ("a contiguous set of 16 elements of 4-bits each followed by 8 bytes of padding", "16 elements
//    of 6-bits each followed by 4 bytes of padding"): kind::f8f6f4 / kind::mxf8f6f4 put a 16-byte
//    chunk's 16 values at its bits 0, e, 2e, ... and leave the rest of the chunk empty;
//  - CUTLASS: these operands are allocated as uint8_t (the 8-bit tile, 16 slots per chunk) and
//    loaded by TMA with CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B (copy_sm90_desc.hpp);
//    make_umma_desc's K-major canonical layouts (mma_sm100_desc.hpp) and CuTe's Swizzle<B,4,3>;
//  - Triton's getCoreMatrixLinearLayout with fp4Padded: "each group of 16 offsets consists of 8
//    'real' and 8 'padded' offsets";
//  - kind::mxf4 / mxf4nvf4 (PTX §9.7.16.10.4.6): e2m1 two per byte, no padding.
// Nothing here is confirmed on Blackwell hardware.
#include "lanescope/lanescope.hpp"
#include "lanescope/palette.hpp"
#include "lanescope/smem.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

namespace ls = lanescope;

namespace {

const ls::Target& sm100a() { return ls::Catalog::target("sm_100a"); }
const ls::Instruction& find(const std::string& name) {
    return ls::Catalog::builtin(ls::Family::Blackwell).find_instruction(sm100a(), name);
}
ls::ResolvedModifiers mods(const ls::Instruction& ins, ls::Modifiers m) { return ls::resolve_modifiers(ins, sm100a(), m); }

// CuTe's Swizzle<B,4,3> on a byte address (include/cute/swizzle.hpp): bits 4.. ^= bits 7..
std::uint32_t swz(int mode, std::uint32_t a) {
    const int B = mode == 1 ? 1 : mode == 2 ? 2 : mode == 3 ? 3 : 0;
    const std::uint32_t mask = ((1u << B) - 1) << 7;
    return a ^ ((a & mask) >> 3);
}

// The 8-bit K-major tile's byte of (mn, k) as make_umma_desc lays it out (start 0, CUTLASS's LBO/SBO):
// no swizzle: core matrices of 8 rows x 16 bytes, SBO 128 between 8-row groups, LBO = 16 * MN between
// 16-byte K columns; swizzle of W bytes: rows W apart, 8-row groups 8W apart, then the XOR.
std::uint32_t tile_byte(int mode, int MN, int mn, int k) {
    if (mode == 0) return static_cast<std::uint32_t>((mn % 8) * 16 + (mn / 8) * 128 + (k % 16) + (k / 16) * 16 * MN);
    const int W = 16 << mode;  // 32, 64, 128
    return swz(mode, static_cast<std::uint32_t>((mn % 8) * W + (mn / 8) * 8 * W + k));
}

struct Case {
    const char* type;
    int bits;
};
const Case kTypes[] = {{"e2m1", 4}, {"e2m3", 6}, {"e3m2", 6}};
const char* kKinds[] = {"", "_mxf8f6f4_1x_ue8m0"};

}  // namespace

TEST_CASE("tcgen05 smem sub-byte: every swizzle x e2m1/e2m3/e3m2 x f8f6f4/mxf8f6f4 is the padded 8-bit tile, to the bit",
          "[blackwell][smem]") {
    for (const Case& c : kTypes)
        for (const char* kind : kKinds) {
            const std::string name = std::string("tcgen05_mma_m128n256k32_f32_") + c.type + kind;
            const ls::Instruction& ins = find(name);
            for (int mode = 0; mode <= 3; ++mode)
                for (ls::Operand op : {ls::Operand::A, ls::Operand::B}) {
                    INFO(name << " swizzle " << mode << " operand " << ls::operand_name(op));
                    ls::Modifiers m;
                    m.swizzle = mode;
                    const ls::ResolvedModifiers r = mods(ins, m);
                    ls::SmemOperand so;
                    REQUIRE_NOTHROW(so = ls::smem_operand(ins, op, r));  // the defaults are accepted
                    CHECK(so.element_bits == c.bits);
                    CHECK(so.slot_bits == 8);
                    CHECK(so.padded());
                    const ls::OperandLayout L = ls::layout_of(ins, sm100a(), op, m);  // no "internal" error
                    CHECK(L.space() == ls::Space::SharedMemory);
                    CHECK(L.element_bits() == c.bits);
                    std::set<long long> used;  // absolute bits holding a value
                    for (int mn = 0; mn < so.mn; ++mn)
                        for (int k = 0; k < so.k; ++k) {
                            const std::uint32_t slot = tile_byte(mode, so.mn, mn, k);
                            // Slot i of its chunk: the value at bit 8 * chunk address + i * e.
                            const long long want = 8LL * (slot & ~15u) + static_cast<long long>(slot % 16) * c.bits;
                            const long long got = 8LL * so.address(mn, k) + so.bit(mn, k);
                            CHECK(got == want);
                            CHECK(so.slot_address(mn, k) == slot);  // where TMA's 16U*_ALIGN16B puts its container
                            // The layout's location is the same bits: line, 32-bit word, bit_lo..bit_hi.
                            const int row = op == ls::Operand::A ? mn : k, col = op == ls::Operand::A ? k : mn;
                            const auto w = L.where({0, row, col});
                            REQUIRE(w.size() == 1);
                            CHECK(w[0].lane == want / 1024);
                            CHECK(w[0].reg == want % 1024 / 32);
                            CHECK(w[0].bit_lo == want % 32);
                            CHECK(w[0].bit_hi == want % 32 + c.bits - 1);
                            for (int b = 0; b < c.bits; ++b) CHECK(used.insert(want + b).second);  // no two share a bit
                        }
                    // The padding: no value in bytes 2e..15 of any chunk (4-bit: 8 of 16; 6-bit: 4 of 16).
                    for (long long b : used) CHECK(b % 128 < 16 * c.bits);
                }
        }
}

TEST_CASE("tcgen05 smem sub-byte: the values of a row's second chunk start its chunk, not mid-chunk", "[blackwell][smem]") {
    // A[0][16]: the 17th value of row 0 is slot 0 of the second 16-byte chunk (PTX's 16 values per chunk);
    // packing two per byte without padding would put it at byte 8 of the first.
    for (const char* kind : kKinds) {
        const ls::Instruction& ins = find(std::string("tcgen05_mma_m128n256k32_f32_e2m1") + kind);
        const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::A, mods(ins, {}));  // 128B
        CHECK(so.address(0, 16) == 16);
        CHECK(so.bit(0, 16) == 0);
        CHECK(so.address(0, 15) == 7);
        CHECK(so.bit(0, 15) == 4);
    }
    // kind::mxf4 (dense): e2m1 two per byte, no padding: A[0][16] at byte 8, low nibble first.
    const ls::Instruction& mx = find("tcgen05_mma_m128n256k64_f32_e2m1_mxf4_ue8m0");
    const ls::SmemOperand d = ls::smem_operand(mx, ls::Operand::A, mods(mx, {}));
    CHECK_FALSE(d.padded());
    CHECK(d.address(0, 16) == 8);
    CHECK(d.bit(0, 17) == 4);
    CHECK(d.address(0, 63) == 31);
}

TEST_CASE("tcgen05 smem sub-byte: labels name the bits of a byte, a 6-bit value across two bytes", "[blackwell][smem]") {
    const ls::Instruction& ins = find("tcgen05_mma_m128n256k32_f32_e3m2_mxf8f6f4_1x_ue8m0");
    const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::A, ls::Modifiers{});
    // A[0][1]: bits 6..11 of the chunk: byte 0 bits 7:6, byte 1 bits 3:0.
    const auto w1 = L.where({0, 0, 1});
    REQUIRE(w1.size() == 1);
    CHECK(ls::cell_label_text(ins, ls::Operand::A, w1[0], 6, " ", ls::Space::SharedMemory) == "0x0000[7:6]+0x0001[3:0] b0");
    // A[0][15]: bits 90..95: byte 11 bits 7:2.
    const auto w15 = L.where({0, 0, 15});
    REQUIRE(w15.size() == 1);
    CHECK(ls::cell_label_text(ins, ls::Operand::A, w15[0], 6, " ", ls::Space::SharedMemory) == "0x000B[7:2] b2");
    // e2m1: the low nibble is named too.
    const ls::Instruction& f4 = find("tcgen05_mma_m128n256k32_f32_e2m1");
    const auto w0 = ls::layout_of(f4, sm100a(), ls::Operand::A, ls::Modifiers{}).where({0, 0, 0});
    REQUIRE(w0.size() == 1);
    CHECK(ls::cell_label_text(f4, ls::Operand::A, w0[0], 4, " ", ls::Space::SharedMemory) == "0x0000[3:0] b0");
}

TEST_CASE("tcgen05 smem legality: sub-byte K-major only, K-major 128B_base32B refused, MN-major by width",
          "[blackwell][smem]") {
    auto refusal = [](const ls::Instruction& ins, ls::Operand op, ls::Modifiers m) -> std::string {
        try {
            ls::smem_operand(ins, op, mods(ins, m));
        } catch (const ls::Error& e) {
            return e.what();
        }
        return "";
    };
    ls::Modifiers mn;
    mn.smem_major = 1;
    for (const Case& c : kTypes)
        for (const char* kind : kKinds) {
            const ls::Instruction& ins = find(std::string("tcgen05_mma_m128n256k32_f32_") + c.type + kind);
            CHECK_THAT(refusal(ins, ls::Operand::B, mn), Catch::Contains("K-major only") && Catch::Contains("legal: --major K"));
            // The type as PTX names it (e2m1, e2m3, e3m2), not lanescope's AMD-side enumerator names.
            CHECK_THAT(refusal(ins, ls::Operand::B, mn), Catch::Contains(std::string("-bit ") + c.type + " A/B"));
            for (const char* amd : {"bf6", "fp6", "fp4"}) CHECK_THAT(refusal(ins, ls::Operand::B, mn), !Catch::Contains(amd));
        }
    CHECK_THAT(refusal(find("tcgen05_mma_m128n256k64_f32_e2m1_mxf4_ue8m0"), ls::Operand::A, mn), Catch::Contains("K-major only"));
    // K-major 128B_base32B: CUTLASS static_asserts it; PTX's Table 54 allows it, Table 55 has no atom.
    ls::Modifiers b32;
    b32.swizzle = 4;
    const ls::Instruction& f16 = find("tcgen05_mma_m128n256k16_f32_f16");
    CHECK_THAT(refusal(f16, ls::Operand::B, b32), Catch::Contains("Table 54") && Catch::Contains("Table 55") &&
                                                       Catch::Contains("make_umma_desc"));
    // MN-major: 8- and 16-bit with any swizzle but 128B_base32B; 32-bit only with 128B_base32B.
    const ls::Instruction& e4 = find("tcgen05_mma_m128n256k32_f32_e4m3");
    for (int mode = 0; mode <= 3; ++mode) {
        ls::Modifiers m = mn;
        m.swizzle = mode;
        CHECK(refusal(e4, ls::Operand::B, m).empty());
        CHECK(refusal(f16, ls::Operand::A, m).empty());
    }
    ls::Modifiers mnb32 = mn;
    mnb32.swizzle = 4;
    CHECK_THAT(refusal(e4, ls::Operand::B, mnb32), Catch::Contains("32-bit types only"));
    const ls::Instruction& tf = find("tcgen05_mma_m128n256k8_f32_tf32");
    CHECK(refusal(tf, ls::Operand::B, mnb32).empty());
    ls::Modifiers mn128 = mn;
    mn128.swizzle = 3;
    CHECK_THAT(refusal(tf, ls::Operand::B, mn128), Catch::Contains("128B_base32B"));
    // The ranges the front ends offer say the same.
    for (const ls::ModifierRange& rg : ls::modifier_ranges(find("tcgen05_mma_m128n256k32_f32_e2m1"), sm100a(), mods(find("tcgen05_mma_m128n256k32_f32_e2m1"), {})))
        if (rg.name == "smem_major") CHECK(rg.values == std::vector<int>{0});
    for (const ls::ModifierRange& rg : ls::modifier_ranges(f16, sm100a(), mods(f16, {})))
        if (rg.name == "swizzle") CHECK(rg.values == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("tcgen05 smem defaults: make_umma_desc's LBO/SBO for the canonical tiles", "[blackwell][smem]") {
    // CUTLASS make_umma_desc on tile_to_shape(atom, (MN, K)): K-major none SBO 128, LBO MN*16;
    // K-major swizzled SBO 8*W, LBO 16 (unused); MN-major none SBO 128, LBO MN*e/8*8; MN-major
    // swizzled SBO MN*e/8*8, LBO 8*W.
    const ls::Instruction& e4 = find("tcgen05_mma_m128n256k32_f32_e4m3");
    const ls::Instruction& f4 = find("tcgen05_mma_m128n256k32_f32_e2m3_mxf8f6f4_1x_ue8m0");
    for (const ls::Instruction* ins : {&e4, &f4})
        for (int mode = 0; mode <= 3; ++mode) {
            ls::Modifiers m;
            m.swizzle = mode;
            const ls::SmemOperand a = ls::smem_operand(*ins, ls::Operand::A, mods(*ins, m));
            const int W = mode ? 16 << mode : 0;
            CHECK(a.desc.sbo == static_cast<std::uint32_t>(mode ? 8 * W : 128));
            CHECK(a.desc.lbo == static_cast<std::uint32_t>(mode ? 16 : 128 * 16));
            if (ins == &e4) {
                m.smem_major = 1;
                const ls::SmemOperand b = ls::smem_operand(*ins, ls::Operand::B, mods(*ins, m));
                CHECK(b.desc.sbo == static_cast<std::uint32_t>(mode ? 256 * 8 : 128));
                CHECK(b.desc.lbo == static_cast<std::uint32_t>(mode ? 8 * W : 256 * 8));
            }
        }
}

TEST_CASE("tcgen05 A in TMEM (_ts): a 4/6-bit value's bits in its 8-bit container", "[blackwell][tmem]") {
    // 8-bit containers along columns, 4 per 32-bit column (PTX ISA §9.7.16.10.4.3); inside one, the bits
    // mma.sync's text gives its containers (PTX §9.7.14.5.14; CUTLASS fp4_shift): e2m1 5:2, e3m2/e2m3 5:0.
    // Low confidence: PTX's TMEM figures 199-201 are images.
    for (const Case& c : kTypes) {
        const ls::Instruction& ins = find(std::string("tcgen05_mma_m128n256k32_f32_") + c.type + "_ts");
        const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::A, ls::Modifiers{});
        CHECK(L.space() == ls::Space::TensorMemory);
        const int lo = c.bits == 4 ? 2 : 0;
        for (int m = 0; m < 128; m += 37)
            for (int k = 0; k < 32; ++k) {
                const auto w = L.where({0, m, k});
                REQUIRE(w.size() == 1);
                CHECK(w[0].lane == m);
                CHECK(w[0].reg == k / 4);
                CHECK(w[0].bit_lo == 8 * (k % 4) + lo);
                CHECK(w[0].bit_hi == 8 * (k % 4) + lo + c.bits - 1);
            }
    }
    // Sparse _ts (kind::f8f6f4 .sp): a 2:4 group's two stored values share 16 bits (the metadata says which k
    // is which), so the layout places the group; the formula says where a value sits in each 8-bit container,
    // with the type as PTX names it.
    for (const Case& c : kTypes) {
        const ls::Instruction& ins = find(std::string("tcgen05_mma_sp_m128n256k64_f32_") + c.type + "_ts");
        const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::A, ls::Modifiers{});
        const std::string bits = c.bits == 4 ? "bits 5:2" : "bits 5:0";
        CHECK_THAT(L.formula(), Catch::Contains(std::string("each stored ") + c.type + " value at " + bits));
        const auto w = L.where({0, 3, 9});
        REQUIRE(w.size() == 1);
        CHECK(w[0].reg == 16 * (9 / 4) / 32);  // group q = 2 at bits 16q of the row
        CHECK(w[0].bit_lo == 16 * (9 / 4) % 32);
    }
    // sm_120's mma.sync: the same containers in registers (A of m16n8k32: a0 in bits 5:2 for e2m1).
    const ls::Target& t120 = ls::Catalog::target("sm_120a");
    const ls::Instruction& mma = ls::Catalog::builtin(t120.family).find_instruction(t120, "mma_m16n8k32_f32_e2m1_e3m2_f8f6f4");
    const auto a = ls::layout_of(mma, t120, ls::Operand::A, ls::Modifiers{}).where({0, 0, 1});
    REQUIRE(a.size() == 1);
    CHECK(a[0].bit_lo == 10);
    CHECK(a[0].bit_hi == 13);
    const auto b = ls::layout_of(mma, t120, ls::Operand::B, ls::Modifiers{}).where({0, 1, 0});
    REQUIRE(b.size() == 1);
    CHECK(b[0].bit_lo == 8);
    CHECK(b[0].bit_hi == 13);
}

TEST_CASE("sm_103a K = 96: descriptor bit 52 (absolute LBO) is laid out, K continuing at address LBO", "[blackwell][smem]") {
    // CUTLASS's SM103 mma_unpack sets lbo_mode 1 with LBO = the next K chunk's start address: k-block 2 of a
    // 48-byte K (e2m1, K = 96) starts 96 bytes into its 128B swizzle row; its first 32 bytes finish that row
    // and the other 16 start the row at LBO. Low confidence (PTX: figures only); not confirmed on hardware.
    const ls::Target& t = ls::Catalog::target("sm_103a");
    const ls::Instruction& ins =
        ls::Catalog::builtin(t.family).find_instruction(t, "tcgen05_mma_m256n256k96_f32_e2m1_mxf4_block32_ue8m0_2cta");
    const std::uint32_t start = 96, lbo = 16384, sbo = 1024;
    // PTX Table 40's fields written out: start >> 4 in 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, version
    // 0b001 at 46, LBO mode at 52, 128B swizzle (2) at 61.
    const std::uint64_t desc = (start >> 4) | std::uint64_t{lbo >> 4} << 16 | std::uint64_t{sbo >> 4} << 32 |
                               std::uint64_t{1} << 46 | std::uint64_t{1} << 52 | std::uint64_t{2} << 61;
    ls::Modifiers m;
    m.descriptor = desc;
    const ls::SmemOperand so = ls::smem_operand(ins, ls::Operand::A, ls::resolve_modifiers(ins, t, m));
    CHECK(so.desc.lbo_mode == 1);
    CHECK(so.lbo_used);
    for (int mn = 0; mn < so.mn; ++mn)
        for (int k = 0; k < 96; ++k) {
            const std::uint32_t byte = static_cast<std::uint32_t>(k / 2), row = (mn % 8) * 128u + (mn / 8) * sbo;
            const std::uint32_t lin = 96 + byte < 128 ? start + row + byte : lbo + row + (96 + byte - 128);
            CHECK(so.address(mn, k) == swz(3, lin));
            CHECK(so.bit(mn, k) == 4 * (k % 2));
        }
    // Without a swizzle there is no row to continue: refused with the rule.
    m.descriptor = desc & ~(std::uint64_t{7} << 61);
    CHECK_THROWS_WITH(ls::smem_operand(ins, ls::Operand::A, ls::resolve_modifiers(ins, t, m)),
                      Catch::Contains("bit 52") && Catch::Contains("legal"));
}
