// The scale factors of a block-scaled tcgen05.mma (kind::mxf8f6f4, mxf4, mxf4nvf4)
// on their way from memory: where CUTLASS puts SFA / SFB in global and shared
// memory, which tcgen05.cp moves them into Tensor Memory, and which SF_ID the MMA
// needs to read a given K-block.
//
// Sources: CUTLASS include/cutlass/detail/sm100_blockscaled_layout.hpp
// (Sm1xxBlockScaledBasicChunk: the K-major atom ((32,4),(VS,4)):((16,4),(0,1)), one
// 512-byte block per 128 rows x 4 K-blocks; tile_atom_to_shape_SFA/SFB:
// tile_to_shape(atom, (MN, K, L), Step<_2,_1,_3>), K-blocks first; deduce_smem_layoutSFA/SFB:
// a K tile's blocks of 128 rows (SFB: N rounded up to 128, MMA_N_SFB) then the groups of
// 4 K-blocks); CUTLASS copy_traits_sm100.hpp SM100_UTCCP_4x32dp128bit_{1,2}cta
// (tcgen05.cp.32x128b.warpx4: 32 rows of 16 bytes, each to lanes l, l+32, l+64, l+96);
// PTX ISA §9.7.16.9 (tcgen05.cp) and §9.7.16.10.7 (block scaling, SF_ID the byte).
// Not confirmed on hardware: no Blackwell GPU was available.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

// One scale factor: row m of A (SFA) or column n of B (SFB), K-block kb (k / VS) of a K tile.
struct ScaleFactorPlace {
    int mn = 0, kb = 0;
    int cta = 0;                  // the CTA whose shared memory holds it (cta_group::2 SFA: floor(m / (M/2)))
    std::uint32_t smem_byte = 0;  // byte offset in the CTA's SF tile (deduce_smem_layoutSF*)
    int copy = 0;                 // which tcgen05.cp.32x128b.warpx4 of the tile moves it (one per 512-byte block)
    int copy_row = 0, copy_byte = 0;  // its 16-byte source row (0..31) and byte in that row
    std::vector<int> tmem_lanes;  // TMEM lanes written (128c + lane for CTA c)
    int tmem_column = 0;          // column after the SF's base column (the MMA's scale-factor address)
    int tmem_byte = 0;            // byte of that 32-bit cell (bits 8*byte .. 8*byte+7)
    int mma = 0;                  // which MMA along the K tile reads it (floor(kb / NSF))
    int sf_id = 0;                // the SFA_ID / SFB_ID that MMA needs (--sfa-id / --sfb-id)
    int j = 0;                    // its index among that MMA's scale factors (kb % NSF)
};

// A K tile's scale factors of one operand, as CUTLASS stages them.
struct ScaleFactorTile {
    Operand operand = Operand::SA;
    int cta_group = 1;
    int mn = 0;           // rows (SFA) / columns (SFB) one CTA holds
    int mn_padded = 0;    // rounded up to 128 (CUTLASS's Blk_MN; the rest is padding)
    int nsf = 0;          // scale factors per row per MMA (1, 2, 4)
    int vec = 0;          // K elements per scale factor (32, or 16 for block16 / 4X)
    int kblocks = 0;      // K-blocks in the tile: 4 (one 512-byte block's K), i.e. 4 / NSF MMAs
    int bytes = 0;        // the tile's bytes in one CTA
    std::string copy_shape = "tcgen05.cp.32x128b.warpx4";
    std::string smem_formula, global_formula, copy_formula, tmem_formula, id_formula;
    std::vector<std::string> notes;
    Evidence evidence;

    // Throws Error outside 0 <= mn < extent (SFA: M; SFB: N), 0 <= kb < kMaxKBlocks. K-blocks past
    // the first 4 (kblocks) are the next groups of 4 along the K tile: +bytes each in shared memory,
    // the next tcgen05.cp, to the columns its MMAs' scale-factor address names.
    ScaleFactorPlace place(int mn, int kb) const;
    static constexpr int kMaxKBlocks = 1 << 16;
    // One CTA's first 4 K-blocks, byte by byte (CTA 0; with cta_group::2 SFA, CTA 1 holds rows
    // mn..2*mn-1 at the same bytes): the (row or column, K-block) at each of its `bytes` bytes,
    // {-1, -1} for the padding rows past mn. What the figure and the app's Memory tab draw.
    std::vector<std::pair<int, int>> byte_map() const;

    int extent = 0;       // the operand's MN extent over the CTA pair (SFA: M, SFB: N)
};

// Empty when the scale-factor path of `op` (SA or SB) of `ins` is modelled, else why not.
std::string scale_factor_path_refusal(const Instruction& ins, Operand op);
// Throws Error (with what is legal) where scale_factor_path_refusal is not empty.
ScaleFactorTile scale_factor_tile(const Instruction& ins, Operand op);
// CUTLASS's global layout (tile_atom_to_shape_SF*): the byte of SF(mn, kb) in a problem whose
// K extent holds `problem_kblocks` K-blocks (K / VS), counted from the tensor's start (L = 0).
std::uint64_t scale_factor_global_byte(int mn, int kb, int problem_kblocks);

// One scale factor's path in a sentence: "SFA(33, kb 2): shared-memory byte 22 of the CTA's SF tile
// (tcgen05.cp 0, source row 1, byte 6) -> TMEM lanes 1, 33, 65, 97, column 1, bits 23:16; read by
// MMA 1 with --sfa-id 2 as its scale factor j = 0".
std::string scale_factor_answer(const ScaleFactorTile& t, const ScaleFactorPlace& p);

}  // namespace lanescope
