// The Memory tab's descriptor view (model/smem_view.hpp) against the canonical layouts' formulas:
// wgmma's 128B-swizzled K-major B is PTX's canonical layout (PTX ISA §9.7.15.5.1.2: rows of 128
// bytes, SBO 1024 between groups of 8 rows) under CuTe's Swizzle<3,4,3> (include/cute/swizzle.hpp:
// bits 4-6 of the byte address ^= bits 7-9), so B(k, n) of f16 lies at swz(128 n + 2 k).
#include "model/smem_view.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {
std::uint32_t swizzle_128b(std::uint32_t a) { return a ^ (((a >> 7) & 7u) << 4); }

GridStyle style() {
    GridStyle st;
    st.cell_w = 4, st.cell_h = 30;
    st.text_width = [](const std::string& s) { return 7.0f * static_cast<float>(s.size()); };
    return st;
}
}  // namespace

TEST_CASE("smem view: which operands a matrix descriptor reads") {
    const auto& cat = ls::Catalog::builtin();
    const LayoutSet wg = resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", {}});
    CHECK(descriptor_operand(wg, ls::Operand::B));
    CHECK_FALSE(descriptor_operand(wg, ls::Operand::A));  // the RS form: A in registers
    CHECK_FALSE(descriptor_operand(wg, ls::Operand::D));
    ls::Modifiers ss;
    ss.smem_a = 1;
    CHECK(descriptor_operand(resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", ss}), ls::Operand::A));
    const LayoutSet tc = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k16_f16_f16", {}});
    CHECK(descriptor_operand(tc, ls::Operand::A));
    CHECK(descriptor_operand(tc, ls::Operand::B));
    const LayoutSet ts = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k16_f16_f16_ts", {}});
    CHECK_FALSE(descriptor_operand(ts, ls::Operand::A));  // A in Tensor Memory
    CHECK(descriptor_operand(ts, ls::Operand::B));
    CHECK_FALSE(descriptor_operand(resolve_selection(cat, {"sm_90", "mma_m16n8k16_f32_f16", {}}), ls::Operand::B));
    CHECK_FALSE(build_smem_view(wg, ls::Operand::D).ok());
}

TEST_CASE("smem view: wgmma's 128B K-major B, every element at CuTe's Swizzle<3,4,3> address, once") {
    const auto& cat = ls::Catalog::builtin();
    ls::Modifiers m;
    m.swizzle = 3;
    m.smem_major = 0;
    const LayoutSet set = resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", m});
    const SmemView v = build_smem_view(set, ls::Operand::B);
    REQUIRE(v.ok());
    CHECK(v.so->rows == 16);
    CHECK(v.so->cols == 128);
    CHECK(v.rows.size() == 128);   // one 128-byte row per n: its 16 k are 32 bytes of it
    CHECK(v.chunks.size() == 256); // 16 x 128 x 2 bytes / 16
    CHECK(smem_cells_per_row(v) == 64);
    const TileGrid g = smem_tile_grid(v, style());
    REQUIRE(g.tiles.size() == 128u * 64u);
    std::set<std::pair<int, int>> seen;
    for (int k = 0; k < 16; ++k)
        for (int n = 0; n < 128; ++n) {
            const ls::Element e{0, k, n};
            const int cell = smem_cell_of(v, e);
            REQUIRE(cell >= 0);
            const Tile& t = g.tiles[static_cast<size_t>(cell)];
            CHECK(t.copies > 0);
            CHECK(t.element == e);
            // The cell's byte: its row's address plus 2 bytes per cell.
            const std::uint32_t byte = v.rows[static_cast<size_t>(cell / 64)] * 128 + static_cast<std::uint32_t>(cell % 64 * 2);
            CHECK(byte == swizzle_128b(128u * static_cast<std::uint32_t>(n) + 2u * static_cast<std::uint32_t>(k)));
            // The hover reads the element back from its chunk and byte.
            const int chunk = v.chunk_at(byte);
            REQUIRE(chunk >= 0);
            CHECK(v.element_at(chunk, static_cast<int>(byte % 16)) == std::optional<ls::Element>(e));
            seen.insert({k, n});
        }
    CHECK(seen.size() == 16u * 128u);
    int held = 0;
    for (const Tile& t : g.tiles) held += t.copies > 0;
    CHECK(held == 16 * 128);  // the rest of each row is not read: 96 of its 128 bytes
    // A chunk's label: its 8 k of one n, and its chunk index before -> after the XOR (row n = 1: 0 -> 1).
    const ls::SmemChunk& c = v.chunks[static_cast<size_t>(v.chunk_at(128))];
    CHECK(ls::smem_chunk_labels(ls::Operand::B, c.elements)[0] == "B[k8..15][n1]");
    CHECK(ls::smem_chunk_place(*v.so, c) == "c1\u2192c0");
}

TEST_CASE("smem view: the swizzle follows the start address (absolute bits 7-9), as the H200 showed") {
    const auto& cat = ls::Catalog::builtin();
    ls::Modifiers m;
    m.swizzle = 3;
    m.smem_address = 0x180;  // row 3 of a 1024-byte period
    const LayoutSet set = resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", m});
    const SmemView v = build_smem_view(set, ls::Operand::B);
    REQUIRE(v.ok());
    for (int n = 0; n < 8; ++n)
        for (int k = 0; k < 16; k += 8) {
            const int cell = smem_cell_of(v, {0, k, n});
            REQUIRE(cell >= 0);
            const std::uint32_t byte = v.rows[static_cast<size_t>(cell / 64)] * 128 + static_cast<std::uint32_t>(cell % 64 * 2);
            CHECK(byte == swizzle_128b(0x180u + 128u * static_cast<std::uint32_t>(n) + 2u * static_cast<std::uint32_t>(k)));
        }
}

TEST_CASE("smem view: the controls offer core's legal values and show the values in use") {
    const auto& cat = ls::Catalog::builtin();
    const LayoutSet wg = resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", {}});
    const DescriptorControls c = descriptor_controls(wg, build_smem_view(wg, ls::Operand::B));
    CHECK(c.swizzles == std::vector<int>{0, 1, 2, 3});  // wgmma has no 128B_base32B
    CHECK(c.swizzle == 3);                              // CUTLASS's default for this tile: 128B
    CHECK(c.sbo == 1024);
    CHECK_FALSE(c.lbo_chosen);
    const LayoutSet tc = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k16_f16_f16", {}});
    const DescriptorControls t = descriptor_controls(tc, build_smem_view(tc, ls::Operand::B));
    // K-major: no 128B_base32B (CUTLASS's make_umma_desc static_asserts it; PTX Table 55 has no K-major atom).
    CHECK(t.swizzles == std::vector<int>{0, 1, 2, 3});
    ls::Modifiers mn;
    mn.smem_major = 1;
    const LayoutSet tf = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k8_f32_tf32", mn});
    CHECK(descriptor_controls(tf, build_smem_view(tf, ls::Operand::B)).swizzles == std::vector<int>{4});  // MN-major 32-bit
    // A whole descriptor: its fields become the operand's.
    const DescriptorApplied d = apply_descriptor_text(wg.chosen, "0x4000004000010040");
    REQUIRE(d.error.empty());
    const LayoutSet from = resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", d.mods});
    const SmemView fv = build_smem_view(from, ls::Operand::B);
    REQUIRE(fv.ok());
    CHECK(fv.so->desc.start == 0x40 * 16);  // start_address field 0x40, in 16-byte units
    CHECK(descriptor_controls(from, fv).start_chosen);
    CHECK(apply_descriptor_text(wg.chosen, "0xZZ").error.find("legal") != std::string::npos);
}

TEST_CASE("smem view: tcgen05's padded e3m2 tile, every cell at the value's own bits (PTX §9.7.16.10.4.4)") {
    // kind::mxf8f6f4 e3m2, K-major 128B: slot byte swz(128 m + k) for m < 8 (SBO 1024 past that), the value
    // of slot i of a chunk at bit 6 i of the chunk; 2-bit cells (a 6-bit value covers three).
    const auto& cat = ls::Catalog::builtin();
    const LayoutSet set = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k32_f32_e3m2_mxf8f6f4_1x_ue8m0", {}});
    const SmemView v = build_smem_view(set, ls::Operand::A);
    REQUIRE(v.ok());
    CHECK(v.cell_bits == 2);
    CHECK(smem_cells_per_row(v) == 512);
    const TileGrid g = smem_tile_grid(v, style());
    for (int m = 0; m < 16; ++m)
        for (int k = 0; k < 32; ++k) {
            const std::uint32_t slot = swizzle_128b(128u * static_cast<std::uint32_t>(m % 8) + 1024u * static_cast<std::uint32_t>(m / 8) +
                                                    static_cast<std::uint32_t>(k));
            const std::uint32_t bit = 8 * (slot & ~15u) + slot % 16 * 6;  // absolute bit of the value
            const int cell = smem_cell_of(v, {0, m, k});
            REQUIRE(cell >= 0);
            const Tile& t = g.tiles[static_cast<size_t>(cell)];
            CHECK(t.element == ls::Element{0, m, k});
            CHECK(v.rows[static_cast<size_t>(cell / 512)] * 1024 + static_cast<std::uint32_t>(cell % 512) * 2 == bit);
            CHECK(t.loc.bit_lo == static_cast<int>(bit % 32));
            CHECK(t.loc.bit_hi == static_cast<int>(bit % 32) + 5);
            CHECK(v.element_at_bit(v.chunk_at(bit / 8), static_cast<int>(bit % 128)) == std::optional<ls::Element>(ls::Element{0, m, k}));
        }
}

TEST_CASE("smem view: SFA / SFB bytes carry their (m, kb) as CUTLASS's SF atom places them") {
    // CUTLASS sm100_blockscaled_layout.hpp, Sm1xxBlockScaledBasicChunk: ((32,4),(VS,4)):((16,4),(0,1)), so
    // byte 16*(m%32) + 4*(m/32) + kb of a 128-row block holds SF(m, kb); tcgen05.cp.32x128b.warpx4 copies
    // 16-byte row l to TMEM lanes l + 32p, byte i to column i/4 (CUTLASS SM100_UTCCP_4x32dp128bit).
    const auto& cat = ls::Catalog::builtin();
    const LayoutSet s = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_2x_ue8m0", {}});
    CHECK(scale_factor_operand(s, ls::Operand::SA));
    CHECK(scale_factor_operand(s, ls::Operand::SB));
    CHECK_FALSE(scale_factor_operand(s, ls::Operand::A));
    const ScaleFactorView v = build_scale_factor_view(s, ls::Operand::SA);
    REQUIRE(v.ok());
    CHECK(v.rows() == 32);
    for (int m : {0, 33, 70, 127})
        for (int kb = 0; kb < 4; ++kb) {
            const int byte = 16 * (m % 32) + 4 * (m / 32) + kb;
            CHECK(v.label(byte) == "m" + std::to_string(m) + " kb" + std::to_string(kb));
            CHECK(v.column(byte) == m / 32);
        }
    const ScaleFactorView b = build_scale_factor_view(s, ls::Operand::SB);
    REQUIRE(b.ok());
    CHECK(b.rows() == 64);  // N = 256: two 512-byte blocks
    CHECK(b.label(512 + 16 * 3 + 4 * 1 + 2) == "n" + std::to_string(128 + 32 + 3) + " kb2");
    // Not a block-scaled kind: no scale factors.
    const LayoutSet f16 = resolve_selection(cat, {"sm_100a", "tcgen05_mma_m128n256k16_f16_f16", {}});
    CHECK_FALSE(scale_factor_operand(f16, ls::Operand::SA));
}
