// The scale-factor path of block-scaled tcgen05.mma: global -> shared (CUTLASS's
// Sm1xxBlockScaledBasicChunk) -> Tensor Memory (tcgen05.cp.32x128b.warpx4) -> the
// MMA's SF_ID. Sources and rules: lanescope/scale_factors.hpp.
#include "lanescope/scale_factors.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>

namespace lanescope {

namespace {

constexpr int kBlkMN = 128;     // CUTLASS Blk_MN: rows of one basic block
constexpr int kBlkSF = 4;       // CUTLASS Blk_SF: K-blocks of one basic block
constexpr int kBlockBytes = 512;

// The K-major atom ((32,4),(VS,4)):((16,4),(0,1)): SF(mn, kb) inside one 128 x 4 block.
int atom_byte(int mn, int kb) { return 16 * (mn % 32) + 4 * ((mn / 32) % 4) + kb % 4; }

bool block_scaled(const Instruction& ins) { return ins.kind == LayoutKind::Tcgen05Mma && ins.scale_vec > 0; }

}  // namespace

std::string scale_factor_path_refusal(const Instruction& ins, Operand op) {
    if (op != Operand::SA && op != Operand::SB)
        return "the scale-factor path is SFA's or SFB's; legal: --operand SFA (SA) or SFB (SB)";
    if (!block_scaled(ins))
        return ins.mnemonic + " has no scale factors in Tensor Memory; legal: a block-scaled tcgen05.mma (kind::mxf8f6f4, "
                              "mxf4, mxf4nvf4)";
    if (ins.scale_vec != 1 && ins.scale_vec != 2 && ins.scale_vec != 4)
        return "the " + num(ins.scale_vec) + " scale factors per row of sm_103a's K = 96 are not staged as CUTLASS's "
               "128 x 4 blocks of 1X/2X/4X (its SM103 path was not read; the TMEM layout itself is low confidence); "
               "legal: the K = 32/64/128 forms (1, 2 or 4 scale factors per row)";
    if (op == Operand::SB && ins.cta_group == 2 && ins.m == 128)
        return "SFB of a cta_group::2 M = 128 MMA sits in TMEM as CUTLASS's ScaleFactorDuplicated2by2 (`where --operand "
               "SFB` shows it), but the tcgen05.cp that fills that 2x2 pattern was not read from CUTLASS; legal here: "
               "SFA, or SFB of cta_group::1 and of cta_group::2 M = 256";
    return "";
}

ScaleFactorTile scale_factor_tile(const Instruction& ins, Operand op) {
    const std::string refusal = scale_factor_path_refusal(ins, op);
    if (!refusal.empty()) throw Error("--operand " + std::string(op == Operand::SB ? "SFB" : "SFA") + ": " + refusal);
    ScaleFactorTile t;
    const bool a = op == Operand::SA;
    t.operand = op;
    t.cta_group = ins.cta_group;
    t.nsf = ins.scale_vec;
    t.vec = ins.scale_vec == 4 ? 16 : 32;
    t.extent = a ? ins.m : ins.n;
    // SFA: each CTA of a pair its own M/2 rows (2x1SM ALayout); SFB: the whole N in every CTA.
    t.mn = a ? ins.m / ins.cta_group : ins.n;
    t.mn_padded = (t.mn + kBlkMN - 1) / kBlkMN * kBlkMN;
    t.kblocks = kBlkSF;
    t.bytes = t.mn_padded / kBlkMN * kBlockBytes;
    const std::string x = a ? "m" : "n", X = a ? "SFA" : "SFB", id = a ? "--sfa-id" : "--sfb-id";
    const std::string xc = a && ins.cta_group == 2 ? "x = m%" + num(t.mn) + " (CTA floor(m/" + num(t.mn) + "))" : "x = " + x;
    t.smem_formula = X + "(" + x + ", kb), " + xc + ": byte 512*floor(x/128) + 16*(x%32) + 4*(floor(x/32)%4) + kb%4 + " +
                     num(t.bytes) + "*floor(kb/4) of the CTA's SF tile (CUTLASS deduce_smem_layout" + X +
                     ": the atom ((32,4),(VS,4)):((16,4),(0,1)) per 128 " + (a ? "rows" : "columns") + " x 4 K-blocks; " +
                     num(t.mn_padded / kBlkMN) + " block(s) of 512 bytes per 4 K-blocks" +
                     (t.mn_padded != t.mn ? ", " + x + " " + num(t.mn) + ".." + num(t.mn_padded - 1) + " padding" : "") + ")";
    t.global_formula = X + "(" + x + ", kb) in global memory: byte 512*(ceil(K/" + num(t.vec) + "/4)*floor(" + x +
                       "/128) + floor(kb/4)) + 16*(" + x + "%32) + 4*(floor(" + x +
                       "/32)%4) + kb%4 (CUTLASS tile_atom_to_shape_" + X +
                       ": tile_to_shape(atom, (MN, K, L), Step<_2,_1,_3>): the 4-K-block groups first, then the 128-" +
                       (a ? "row" : "column") + " blocks, then L)";
    t.copy_formula = "one tcgen05.cp" + std::string(ins.cta_group == 2 ? ".cta_group::2" : ".cta_group::1") +
                     ".32x128b.warpx4 per 512-byte block b: source row l (16 bytes at 512b + 16l) to TMEM lanes l, l+32, "
                     "l+64, l+96" + std::string(a || ins.cta_group == 1 ? "" : " of both CTAs") +
                     ", columns 4b .. 4b+3 (byte i of the row: column 4b + floor(i/4), byte i%4) (CUTLASS "
                     "SM100_UTCCP_4x32dp128bit_" + (ins.cta_group == 2 ? "2cta" : "1cta") + ")";
    t.tmem_formula = "TMEM lanes 32p + x%32 (p = 0..3), column floor(x/32), byte kb%4 from the SF's base column, as "
                     "`where --operand " + X + "` lays it out";
    t.id_formula = "MMA floor(kb/" + num(t.nsf) + ") of the 4-K-block group reads K-block kb with " + id + " " +
                   num(t.nsf) + "*floor((kb%4)/" + num(t.nsf) + ") and j = kb%" + num(t.nsf);
    if (ins.cta_group == 2)
        t.notes.push_back(a ? "cta_group::2: each CTA stages and copies the SFA of its own " + num(t.mn) +
                                  " rows (CUTLASS's MMA_M = M / 2 per CTA)"
                            : "cta_group::2 M = 256: each CTA holds the SFB of the pair's whole N (CUTLASS's 2x1SM "
                              "kernels; MMA_N_SFB = N rounded up to 128)");
    t.notes.push_back("K-blocks past the 4 shown continue at +" + num(t.bytes) +
                      " bytes per 4 in shared memory and are copied by the next tcgen05.cp (to the columns the next "
                      "MMAs' scale-factor address names)");
    t.evidence = {"medium",
                  "CUTLASS sm100_blockscaled_layout.hpp (Sm1xxBlockScaledBasicChunk, tile_atom_to_shape_SF*, "
                  "deduce_smem_layoutSF*); CUTLASS copy_traits_sm100.hpp SM100_UTCCP_4x32dp128bit; PTX ISA §9.7.16.9.2, "
                  "§9.7.16.10.7",
                  "the staging is CUTLASS's convention (one source; PTX fixes only the TMEM side, which the copy "
                  "reproduces); not confirmed on hardware: no Blackwell GPU was available",
                  {}};
    return t;
}

ScaleFactorPlace ScaleFactorTile::place(int x_in, int kb) const {
    if (x_in < 0 || x_in >= extent || kb < 0 || kb >= kMaxKBlocks)
        throw Error(std::string(operand == Operand::SA ? "SFA row m" : "SFB column n") + " " + num(x_in) + ", K-block " +
                    num(kb) + " is outside the tile; legal: " + (operand == Operand::SA ? "m" : "n") + " 0.." +
                    num(extent - 1) + ", K-block 0.." + num(kMaxKBlocks - 1) + " (K-block kb = k/" + num(vec) +
                    "; past " + num(kblocks - 1) + ": the next groups of " + num(kblocks) + " along the K tile)");
    ScaleFactorPlace p;
    p.mn = x_in;
    p.kb = kb;
    const bool split = operand == Operand::SA && cta_group == 2;
    p.cta = split ? x_in / mn : 0;
    const int x = split ? x_in % mn : x_in;
    p.smem_byte = static_cast<std::uint32_t>(kBlockBytes * (x / kBlkMN) + atom_byte(x, kb) + bytes * (kb / kBlkSF));
    const int in_block = static_cast<int>(p.smem_byte % kBlockBytes);
    p.copy = static_cast<int>(p.smem_byte / kBlockBytes);
    p.copy_row = in_block / 16;
    p.copy_byte = in_block % 16;
    // tcgen05.cp.32x128b.warpx4: row l -> lanes l + 32p; byte i of the row -> column 4b + i/4, byte i%4.
    const int block_in_group = p.copy % (bytes / kBlockBytes);
    p.tmem_column = 4 * block_in_group + p.copy_byte / 4;
    p.tmem_byte = p.copy_byte % 4;
    const int first_cta = split ? p.cta : 0, ctas = split ? 1 : cta_group;
    for (int c = first_cta; c < first_cta + ctas; ++c)
        for (int q = 0; q < 4; ++q) p.tmem_lanes.push_back(128 * c + 32 * q + p.copy_row);
    p.mma = kb / nsf;
    p.sf_id = nsf * ((kb % 4) / nsf);
    p.j = kb % nsf;
    return p;
}

std::vector<std::pair<int, int>> ScaleFactorTile::byte_map() const {
    std::vector<std::pair<int, int>> out(static_cast<size_t>(bytes), {-1, -1});
    for (int x = 0; x < mn; ++x)
        for (int kb = 0; kb < kblocks; ++kb) out[place(x, kb).smem_byte] = {x, kb};
    return out;
}

std::string scale_factor_answer(const ScaleFactorTile& t, const ScaleFactorPlace& p) {
    const bool a = t.operand == Operand::SA;
    std::string lanes;
    for (size_t i = 0; i < p.tmem_lanes.size(); ++i) lanes += (i ? ", " : "") + num(p.tmem_lanes[i]);
    return std::string(a ? "SFA(" : "SFB(") + num(p.mn) + ", kb " + num(p.kb) + "): shared-memory byte " +
           num(p.smem_byte) + " of " + (t.cta_group == 2 && a ? "CTA " + num(p.cta) + "'s" : "the CTA's") +
           " SF tile (tcgen05.cp " + num(p.copy) + ", source row " + num(p.copy_row) + ", byte " + num(p.copy_byte) +
           ") -> TMEM lanes " + lanes + ", column " + num(p.tmem_column) + " after the copy's base column, bits " +
           num(8 * p.tmem_byte + 7) + ":" + num(8 * p.tmem_byte) + "; read by MMA " + num(p.mma) + " with " +
           (a ? "--sfa-id " : "--sfb-id ") + num(p.sf_id) + " as its scale factor j = " + num(p.j) + " (`where --operand " +
           (a ? "SFA --sfa-id " : "SFB --sfb-id ") + num(p.sf_id) + " --row " + num(a ? p.mn : p.j) + " --col " +
           num(a ? p.j : p.mn) + "`)";
}

std::uint64_t scale_factor_global_byte(int mn, int kb, int problem_kblocks) {
    const std::uint64_t kgroups = static_cast<std::uint64_t>((problem_kblocks + kBlkSF - 1) / kBlkSF);
    return kBlockBytes * (kgroups * static_cast<std::uint64_t>(mn / kBlkMN) + static_cast<std::uint64_t>(kb / kBlkSF)) +
           static_cast<std::uint64_t>(atom_byte(mn, kb));
}

}  // namespace lanescope
