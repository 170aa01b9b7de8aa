// The layout formulas, one small set per family, and the engine that turns a
// formula into both directions of the element <-> (register, lane, bits) map.
//
// Every family gives, for an element, its *nominal* slots: (lane, item), where
// item e of a lane starts at bit e*stride + offset of the lane's operand
// registers (registers concatenated little-endian, first VGPR = 0). Modifiers
// that move data (cbsz/abid, blgp, index-set selects, opsel halves) are applied
// inside the formulas, exactly where the hardware applies them.
//
// Sources (keys as in docs/sources.md):
//  * mfma:         I4 §7.1.4 general closed form, checked equal to CALC for every
//                  CDNA1-3 dense instruction; f64 4x4x4 C/D follows CALC and the
//                  seed S0 row-to-lane table (lane = j + 4b + 16i).
//                  cbsz/abid: CALC (block b reads block 2^cbsz*floor(b/2^cbsz)+abid);
//                  blgp: I4 Table 29 / CALC.
//  * mfma_scaled:  I4 §7.1.5.1 (FP8 in 16-element chunks, FP6/FP4 contiguous),
//                  §7.2.1 (scales), BLOG, RJ.
//  * smfmac_cdna3: CALC (hardware-checked after fix f5a87dd), I4 Tables 34-37.
//  * smfmac_cdna4: I4 §7.5.1.3 (B and index tables); A in the dense-MFMA
//                  layout per AMD's composable_kernel (ck_tile gfx950 sparse
//                  MFMA and its on-GPU layout test), rocjitsu (RJ).
//  * wmma_rdna3:   CALC, seed S1 tables and store_c example.
//  * wmma_rdna4, swmmac_rdna4: CALC v1.3.x (checked position by position).
//  * wmma_gfx1250, wmma_scale_gfx1250, swmmac_gfx1250: layouts_gfx1250.cpp
//                  (Triton 3.6 WMMA v3, rocjitsu; evidence per operand).
#include "lanescope/lanescope.hpp"
#include "lanescope/options.hpp"
#include "lanescope/palette.hpp"
#include "lanescope/smem.hpp"
#include "layouts/layout_spec.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <map>

namespace lanescope {

namespace {

int log2i(int v) {
    int r = 0;
    while ((1 << r) < v) ++r;
    return r;
}

using detail::OperandSpec;
using detail::Slot;

bool is16(ElemType t) { return elem_bits(t) == 16; }
bool is_gfx1250(const Instruction& ins) {
    return ins.kind == LayoutKind::WmmaGfx1250 || ins.kind == LayoutKind::WmmaScaleGfx1250 ||
           ins.kind == LayoutKind::SwmmacGfx1250;
}
// Modifiers that change values but never placement (clang-22 builtins -> llvm-mc-22 fields).
std::string gfx1250_value_modifiers(const Instruction& ins) {
    std::string s;
    if (ins.a == ElemType::IU8)
        s = "neg_lo:[a_signed,b_signed,0]: the builtin's a_signed/b_signed (signedness; values only); clamp saturates";
    else if (elem_bits(ins.a) == 8 || ins.a == ElemType::F8F6F4 || ins.a == ElemType::FP4)
        s = "neg_lo/neg_hi: no A/B negation (the assembler refuses it); c_mod 1 = neg_lo:[0,0,1] (-C), 2 = "
            "neg_hi:[0,0,1] (|C|) (values only)";
    else
        s = "neg_lo/neg_hi: neg_a/neg_b negate A/B" + std::string(ins.a == ElemType::F32 ? " (f32: neg_lo only)" : "") +
            "; c_mod 1 = neg_lo:[0,0,1] (-C), 2 = neg_hi:[0,0,1] (|C|) (values only)";
    return s + "\nmatrix_a_reuse / matrix_b_reuse: register-reuse hints (dword0 bits 13/14; no data moves)\n";
}
bool is8(ElemType t) { return elem_bits(t) == 8; }

// RDNA4 A/B placement from a k-bit spec, LSB first: 'i' = next item bit,
// '4' = lane bit 4 (+16), '5' = lane bit 5 (+32).
void apply_kspec(const char* spec, int k, int* lane_add, int* item) {
    int item_bit = 0;
    *lane_add = 0;
    *item = 0;
    for (int bit = 0; spec[bit]; ++bit) {
        int v = (k >> bit) & 1;
        switch (spec[bit]) {
            case 'i': *item |= v << item_bit++; break;
            case '4': *lane_add |= v << 4; break;
            case '5': *lane_add |= v << 5; break;
        }
    }
}
int kspec_items(const char* spec) {
    int n = 0;
    for (const char* p = spec; *p; ++p) n += *p == 'i';
    return 1 << n;
}

// BLGP lane-group patterns: the lane whose B value lane `l` uses.
int blgp_source(int blgp, int l) {
    switch (blgp) {
        case 1: return l % 32;
        case 2: return l % 32 + 32;
        case 3: return (l + 16) % 64;
        case 4: return l % 16;
        case 5: return l % 16 + 16;
        case 6: return l % 16 + 32;
        case 7: return l % 16 + 48;
        default: return l;
    }
}

const char* format_name(int code) {
    static const char* kNames[] = {"FP8 E4M3", "BF8 E5M2", "FP6 E2M3", "BF6 E3M2", "FP4 E2M1"};
    return code >= 0 && code <= 4 ? kNames[code] : "?";
}
ElemType format_type(int code) {
    static const ElemType kTypes[] = {ElemType::FP8, ElemType::BF8, ElemType::FP6, ElemType::BF6, ElemType::FP4};
    return code >= 0 && code <= 4 ? kTypes[code] : ElemType::FP8;
}

bool mfma_blgp_moves_data(const Instruction& ins) { return ins.kind == LayoutKind::Mfma && ins.a != ElemType::F64; }

// Index sets of the sparse index VGPR: each set is 4 bits per group of four dense k.
int sparse_pairs_per_lane(const Instruction& ins, int wave);
int sparse_sets(const Instruction& ins, int wave) { return 32 / (4 * sparse_pairs_per_lane(ins, wave)); }

// ------------------------------------------------------------------ CDNA ---

// Standard CDNA accumulator layout (I4 §7.1.4; CALC).
OperandSpec mfma_cd(const Instruction& ins, ElemType type) {
    OperandSpec s;
    s.blocks = ins.kind == LayoutKind::Mfma ? ins.blocks : 1;
    s.rows = ins.m;
    s.cols = ins.n;
    s.type = type;
    s.width = s.stride = elem_bits(type) == 64 ? 64 : 32;
    const int M = ins.m, N = ins.n, B = s.blocks;
    s.regs = M * N * B * s.width / (64 * 32);
    if (type == ElemType::F64 && M == 4) {
        s.place = [](int b, int i, int j, std::vector<Slot>& out) { out.push_back({j + 4 * b + 16 * i, 0}); };
        s.formula = "lane = j + 4*b + 16*i, VGPR pair 0 (v[1:0]).  Inverse: j = lane%4, b = (lane/4)%4, i = lane/16.";
        return s;
    }
    const int H = type == ElemType::F64 ? 1 : 4;
    const int BI = std::max(1, (64 * H + M * N - 1) / (M * N));
    const int MI = 64 / (BI * N);
    const int G = M / (H * MI);
    s.place = [=](int b, int i, int j, std::vector<Slot>& out) {
        int lane = j + N * ((i / H) % MI + MI * (b % BI));
        int item = i % H + H * (i / (H * MI) + G * (b / BI));
        out.push_back({lane, item});
    };
    if (type == ElemType::F64)
        s.formula = "lane = j + " + std::to_string(N) + "*(i%4), VGPR pair floor(i/4) (v[2p+1:2p]).  Inverse: j = lane%" +
                    std::to_string(N) + ", i = 4*p + lane/" + std::to_string(N) + ".";
    else if (M == 32)
        s.formula = "lane = j + 32*(floor(i/4)%2), VGPR = i%4 + 4*floor(i/8)" + std::string(B > 1 ? " + 16*b" : "") +
                    ".  Inverse: j = lane%32, i = 8*floor((G%16)/4) + 4*floor(lane/32) + G%4" +
                    std::string(B > 1 ? ", b = floor(G/16)" : "") + ".";
    else if (M == 16)
        s.formula = "lane = j + 16*floor(i/4), VGPR = i%4" + std::string(B > 1 ? " + 4*b" : "") +
                    ".  Inverse: j = lane%16, i = 4*floor(lane/16) + G%4" + std::string(B > 1 ? ", b = floor(G/4)" : "") +
                    ".";
    else
        s.formula = "lane = j + 4*b, VGPR = i.  Inverse: j = lane%4, b = floor(lane/4), i = G.";
    return s;
}

// Dense A/B (I4 §7.1.4): K_L = K*M*blocks/64 values per lane; lane group
// floor(k/K_L) sits above the block's lanes.
OperandSpec mfma_ab(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const bool is_a = op == Operand::A;
    const int M = is_a ? ins.m : ins.n, K = ins.k, B = ins.blocks;
    const int KL = K * M * B / 64;
    s.blocks = B;
    s.rows = is_a ? M : K;
    s.cols = is_a ? K : M;
    s.type = is_a ? ins.a : ins.b;
    s.width = s.stride = elem_bits(s.type);
    s.regs = std::max(1, KL * s.width / 32);
    const int cbsz = mods.cbsz, abid = mods.abid;
    const int blgp = mfma_blgp_moves_data(ins) ? mods.blgp : 0;
    const std::string mn = std::to_string(M), kl = std::to_string(KL);
    const std::string idx = is_a ? "i" : "j";
    std::string lane = idx + " + " + mn + "*(b";
    if (is_a && cbsz > 0) lane = idx + " + " + mn + "*(b'";
    lane += KL < K ? " + " + std::to_string(B) + "*floor(k/" + kl + "))" : ")";
    if (B == 1) lane = KL < K ? idx + " + " + mn + "*floor(k/" + kl + ")" : idx;
    s.formula = "lane = " + lane + ", item = k%" + kl + " (" + std::to_string(s.width) + "-bit items packed from bit 0)";
    if (is_a && cbsz > 0)
        s.formula += "; cbsz=" + std::to_string(cbsz) + " abid=" + std::to_string(abid) +
                     ": block b reads block b' = " + std::to_string(1 << cbsz) + "*floor(b/" +
                     std::to_string(1 << cbsz) + ") + " + std::to_string(abid);
    if (!is_a && blgp > 0) s.formula += "; blgp=" + std::to_string(blgp) + ": lane l reads lane p(l) of the table above";
    s.formula += ".  Inverse: " + idx + " = lane%" + mn + (B > 1 ? ", b = floor(lane/" + mn + ")%" + std::to_string(B) : "") +
                 ", k = " + (KL < K ? kl + "*floor(lane/" + std::to_string(M * B) + ") + item" : "item") + ".";
    s.place = [=](int b, int r, int c, std::vector<Slot>& out) {
        int row = is_a ? r : c;   // i or j
        int k = is_a ? c : r;
        int blk = b;
        if (is_a && cbsz > 0) blk = (b >> cbsz << cbsz) + abid;
        int lane = row + M * (blk + B * (k / KL));
        if (!is_a) lane = blgp_source(blgp, lane);
        out.push_back({lane, k % KL});
    };
    return s;
}

// CDNA4 f8f6f4 A/B: the format (cbsz for A, blgp for B) sets the layout.
OperandSpec scaled_ab(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const bool is_a = op == Operand::A;
    const int fmt = is_a ? mods.cbsz : mods.blgp;
    const int M = is_a ? ins.m : ins.n, K = ins.k;
    s.rows = is_a ? M : K;
    s.cols = is_a ? K : M;
    s.type = format_type(fmt);
    s.width = s.stride = elem_bits(s.type);
    s.regs = 32 * s.width / 32;  // 32 items per lane: 8, 6 or 4 VGPRs
    const std::string idx = is_a ? "i" : "j", mn = std::to_string(M);
    if (fmt <= 1) {
        const int groups = 64 / M, span = 1024 / M;
        s.formula = std::string(format_name(fmt)) + ": lane = " + idx + " + " + mn + "*(floor(k/16)%" +
                    std::to_string(groups) + "), byte e = 16*floor(k/" + std::to_string(span) +
                    ") + k%16 (16-element chunks: VGPRs 0-3 hold k in 16g..16g+15, VGPRs 4-7 the same " +
                    std::to_string(span) + " higher).  Inverse: k = " + std::to_string(span) +
                    "*floor(e/16) + 16*floor(lane/" + mn + ") + e%16.";
        s.place = [=](int, int r, int c, std::vector<Slot>& out) {
            int row = is_a ? r : c, k = is_a ? c : r;
            out.push_back({row + M * ((k / 16) % groups), 16 * (k / span) + k % 16});
        };
    } else {
        s.formula = std::string(format_name(fmt)) + ": lane = " + idx + " + " + mn +
                    "*floor(k/32), item e = k%32 packed contiguously (" + std::to_string(s.width) +
                    " bits each; FP6 items straddle VGPR boundaries).  Inverse: k = 32*floor(lane/" + mn + ") + e.";
        s.place = [=](int, int r, int c, std::vector<Slot>& out) {
            int row = is_a ? r : c, k = is_a ? c : r;
            out.push_back({row + M * (k / 32), k % 32});
        };
    }
    return s;
}

// Scale operands: one E8M0 byte per row (column) and 32-wide K block, in the
// byte that opsel selects of one VGPR (I4 §7.2.1).
OperandSpec scaled_scale(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const bool is_a = op == Operand::SA;
    const int M = is_a ? ins.m : ins.n, KB = ins.k / 32;
    const int sel = is_a ? mods.opsel_a : mods.opsel_b;
    s.rows = is_a ? M : KB;
    s.cols = is_a ? KB : M;
    s.type = ElemType::E8M0;
    s.width = 8;
    s.stride = 32;
    s.offset = 8 * sel;
    s.regs = 1;
    const std::string idx = is_a ? "i" : "j", blk = is_a ? "kb" : "kb";
    s.formula = std::string(is_a ? "scale_a[i][kb]" : "scale_b[kb][j]") + ": lane = " + idx + " + " +
                std::to_string(M) + "*kb, bits [" + std::to_string(8 * sel + 7) + ":" + std::to_string(8 * sel) +
                "] (opsel_" + (is_a ? "a" : "b") + "=" + std::to_string(sel) + ") of the scale VGPR; kb = floor(k/32).";
    s.place = [=](int, int r, int c, std::vector<Slot>& out) {
        int row = is_a ? r : c, kb = is_a ? c : r;
        out.push_back({row + M * kb, 0});
    };
    return s;
}

// Sparse A and its index on CDNA (SMFMAC), shared by CDNA3 and CDNA4: the
// compressed A (M x K/2) sits in the plain dense-MFMA layout, `KL` dense k per
// lane; the 4:2 group q of a lane keeps its two stored values as items 2q, 2q+1
// and its 4-bit index field at bits 4q of the selected set. A is given in dense
// coordinates: the four k of a group share the slot of its stored pair.
//  CDNA3: CALC (hardware-checked), I4 Tables 34-37.
//  CDNA4: composable_kernel ck_tile gfx950 sparse MFMA (A one K access, B two;
//         sparse_gfx9.hpp at 05d45561, on-GPU layout test over all 14 gfx950
//         SMFMAC), rocjitsu exec_smfmac_*; index fields I4 §7.5.
OperandSpec sparse_a_or_index(const Instruction& ins, Operand op, int set, const std::string& set_rule) {
    OperandSpec s;
    const int M = ins.m, KL = ins.k * M / 64;  // dense k per lane
    const int w = elem_bits(ins.a), pairs = KL / 4;
    const std::string mn = std::to_string(M), kl = std::to_string(KL);
    s.rows = M;
    s.cols = ins.k;
    const std::string lane = "lane = i + " + mn + "*floor(k/" + kl + "), ";
    if (op == Operand::A) {
        s.type = ins.a;
        s.width = s.stride = 2 * w;
        s.regs = pairs * 2 * w / 32;
        s.formula = lane + "pair q = floor((k%" + kl +
                    ")/4) holds the group's two stored values (items 2q, 2q+1, lower k first).  Inverse: i = lane%" +
                    mn + ", k in 4*q + " + kl + "*floor(lane/" + mn + ") + {0..3}.";
    } else {
        s.type = ElemType::IDX;
        s.width = s.stride = 4;
        s.offset = set * 4 * pairs;
        s.regs = 1;
        s.formula = lane + "4-bit field for group q = floor((k%" + kl + ")/4) at bits 4q + " +
                    std::to_string(4 * pairs) +
                    "*set (bits [1:0] locate the first stored value, [3:2] the second); " + set_rule +
                    " (here set " + std::to_string(set) + ").";
    }
    s.place = [=](int, int i, int k, std::vector<Slot>& out) { out.push_back({i + M * (k / KL), (k % KL) / 4}); };
    return s;
}

// CDNA3 SMFMAC (CALC; I4 Tables 34-37).
OperandSpec smfmac3(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    const int M = ins.m, K = ins.k;
    const int KL = K * M / 64;  // dense k per lane
    if (op != Operand::B) {
        const int sets = 32 / KL;  // 4-bit field per 4:2 group, KL/4 groups
        return sparse_a_or_index(ins, op, mods.cbsz == 0 ? mods.abid : 0,
                                 std::to_string(sets) + " sets, set = abid when cbsz = 0");
    }
    OperandSpec s;
    const int w = elem_bits(ins.a);
    const std::string mn = std::to_string(M), kl = std::to_string(KL);
    s.rows = K;
    s.cols = ins.n;
    s.type = ins.b;
    s.width = s.stride = w;
    s.regs = KL * w / 32;
    s.formula = "lane = j + " + mn + "*floor(k/" + kl + "), item = k%" + kl + ".  Inverse: j = lane%" + mn +
                ", k = " + kl + "*floor(lane/" + mn + ") + item.";
    s.place = [=](int, int k, int j, std::vector<Slot>& out) { out.push_back({j + M * (k / KL), k % KL}); };
    return s;
}

// CDNA4 SMFMAC: B (I4 §7.5.1.3) stacks two K-halves, item e holds
// k = (K/2)*floor(e/K0) + K0*g + e%K0; A and the index do not (see above).
OperandSpec smfmac4(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    const int M = ins.m, K = ins.k, half = K / 2;
    const int w = elem_bits(ins.a);
    const int K0 = w == 16 ? 8 : 16;
    if (op != Operand::B) {
        const int sets = 32 / (K * M / 64);
        const int set = (mods.cbsz == 0 && sets > 1) ? mods.abid : 0;
        return sparse_a_or_index(ins, op, set,
                                 sets > 1 ? std::to_string(sets) + " sets, set = abid[0] when cbsz = 0"
                                          : std::string("1 set (cbsz/abid ignored)"));
    }
    OperandSpec s;
    const std::string mn = std::to_string(M), k0 = std::to_string(K0), hs = std::to_string(half);
    s.rows = K;
    s.cols = ins.n;
    s.type = ins.b;
    s.width = s.stride = w;
    s.regs = 2 * K0 * w / 32;
    s.formula = "lane = j + " + mn + "*floor((k%" + hs + ")/" + k0 + "), item e = " + k0 + "*floor(k/" + hs +
                ") + k%" + k0 + ".  Inverse: k = " + hs + "*floor(e/" + k0 + ") + " + k0 + "*floor(lane/" + mn +
                ") + e%" + k0 + ".";
    s.place = [=](int, int k, int j, std::vector<Slot>& out) { out.push_back({j + M * ((k % half) / K0), K0 * (k / half) + k % K0}); };
    return s;
}

// ------------------------------------------------------------------ RDNA ---

OperandSpec wmma3(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const int wave = mods.wave, copies = wave / 16;
    if (op == Operand::A || op == Operand::B) {
        const bool is_a = op == Operand::A;
        s.rows = is_a ? 16 : ins.k;
        s.cols = is_a ? ins.k : 16;
        s.type = is_a ? ins.a : ins.b;
        s.width = s.stride = elem_bits(s.type);
        s.regs = 16 * s.width / 32;
        const std::string idx = is_a ? "i" : "j";
        s.formula = "lanes " + idx + " + 16*r for r = 0.." + std::to_string(copies - 1) +
                    " (every copy must hold the value), item = k.  Inverse: " + idx + " = lane%16, k = item.";
        s.place = [=](int, int r, int c, std::vector<Slot>& out) {
            int row = is_a ? r : c, k = is_a ? c : r;
            for (int rep = 0; rep < copies; ++rep) out.push_back({row + 16 * rep, k});
        };
        return s;
    }
    s.rows = s.cols = 16;
    s.type = ins.c;
    const int P = wave / 16;  // rows interleaved across lane groups
    s.regs = 16 / P;
    s.stride = 32;
    if (is16(ins.c)) {
        s.width = 16;
        s.offset = mods.opsel == 4 ? 16 : 0;
        s.formula = "lane = j + 16*(i%" + std::to_string(P) + "), VGPR = floor(i/" + std::to_string(P) + "), bits " +
                    (mods.opsel == 4 ? "[31:16] (opsel=4)" : "[15:0] (opsel=0)") + ".  Inverse: j = lane%16, i = " +
                    std::to_string(P) + "*G + floor(lane/16).";
    } else {
        s.width = 32;
        s.formula = "lane = j + 16*(i%" + std::to_string(P) + "), VGPR = floor(i/" + std::to_string(P) +
                    ").  Inverse: j = lane%16, i = " + std::to_string(P) + "*G + floor(lane/16).";
    }
    s.place = [=](int, int i, int j, std::vector<Slot>& out) { out.push_back({j + 16 * (i % P), i / P}); };
    return s;
}

const char* wmma4_spec(const Instruction& ins, Operand op, int wave) {
    const ElemType t = op == Operand::A ? ins.a : ins.b;
    const bool w32 = wave == 32;
    if (ins.kind == LayoutKind::WmmaRdna4) {
        if (is16(t)) return w32 ? "ii4i" : "ii45";
        if (is8(t)) return w32 ? "iii4" : "ii54";
        if (ins.k == 16) return "iii4";  // iu4 16x16x16: wave64 leaves lanes 32-63 unused
        return w32 ? "iiii4" : "iii54";
    }
    // swmmac: B specs over k bits, A specs over group bits (k/4).
    if (op == Operand::B) {
        if (is16(t)) return w32 ? "iii4i" : "iii45";
        if (is8(t) || ins.k == 32) return w32 ? "iiii4" : "iii54";
        return w32 ? "iiiii4" : "iiii54";
    }
    if (is16(t)) return w32 ? "i4i" : "i45";
    if (is8(t)) return w32 ? "ii4" : "i54";
    if (ins.k == 32) return "ii4";  // iu4 16x16x32: wave64 uses lanes 0-31 only
    return w32 ? "iii4" : "ii54";
}

std::string kspec_words(const char* spec, const std::string& var) {
    std::string lane, item;
    int item_bit = 0;
    for (int bit = 0; spec[bit]; ++bit) {
        std::string b = "bit" + std::to_string(bit) + "(" + var + ")";
        if (spec[bit] == 'i') item += (item.empty() ? "" : " + ") + std::to_string(1 << item_bit++) + "*" + b;
        else lane += std::string(" + ") + (spec[bit] == '4' ? "16*" : "32*") + b;
    }
    return lane + "; item = " + item;
}

OperandSpec wmma4_c(const Instruction& ins, const ResolvedModifiers& mods) {
    OperandSpec s;
    const bool w32 = mods.wave == 32;
    s.rows = s.cols = 16;
    s.type = ins.c;
    s.width = s.stride = elem_bits(ins.c);
    const int items = w32 ? 8 : 4;
    s.regs = items * s.width / 32;
    s.formula = w32 ? "lane = j + 16*floor(i/8), item = i%8 (" + std::to_string(s.width) +
                          "-bit items packed).  Inverse: j = lane%16, i = 8*floor(lane/16) + item."
                    : "lane = j + 16*floor(i/8) + 32*(floor(i/4)%2), item = i%4 (" + std::to_string(s.width) +
                          "-bit items packed).  Inverse: j = lane%16, i = 8*((lane/16)%2) + 4*floor(lane/32) + item.";
    s.place = [=](int, int i, int j, std::vector<Slot>& out) {
        int lane = j + 16 * (i / 8) + (w32 ? 0 : 32 * ((i / 4) % 2));
        out.push_back({lane, i % items});
    };
    return s;
}

OperandSpec rdna4_ab(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const bool is_a = op == Operand::A;
    const char* spec = wmma4_spec(ins, op, mods.wave);
    s.rows = is_a ? 16 : ins.k;
    s.cols = is_a ? ins.k : 16;
    s.type = is_a ? ins.a : ins.b;
    const int w = elem_bits(s.type);
    const std::string idx = is_a ? "i" : "j";
    if (ins.kind == LayoutKind::SwmmacRdna4 && is_a) {
        s.width = s.stride = 2 * w;
        s.regs = std::max(1, kspec_items(spec) * 2 * w / 32);
        s.formula = "lane = i" + kspec_words(spec, "floor(k/4)") +
                    " names the pair of stored values of k's group of four (lower k first).";
        s.place = [=](int, int i, int k, std::vector<Slot>& out) {
            int add, item;
            apply_kspec(spec, k / 4, &add, &item);
            out.push_back({i + add, item});
        };
        return s;
    }
    s.width = s.stride = w;
    s.regs = std::max(1, kspec_items(spec) * w / 32);
    s.formula = "lane = " + idx + kspec_words(spec, "k") + " (" + std::to_string(w) + "-bit items packed).";
    s.place = [=](int, int r, int c, std::vector<Slot>& out) {
        int row = is_a ? r : c, k = is_a ? c : r, add, item;
        apply_kspec(spec, k, &add, &item);
        out.push_back({row + add, item});
    };
    return s;
}

OperandSpec swmmac4_index(const Instruction& ins, const ResolvedModifiers& mods) {
    OperandSpec s = rdna4_ab(ins, Operand::A, mods);
    const int pairs = kspec_items(wmma4_spec(ins, Operand::A, mods.wave));
    const int sets = 32 / (4 * pairs);
    s.type = ElemType::IDX;
    s.width = s.stride = 4;
    s.offset = mods.opsel * 4 * pairs;
    s.regs = 1;
    s.formula = "lane as A, 4-bit field for pair q at bits 4q + " + std::to_string(4 * pairs) + "*index_key; " +
                std::to_string(sets) + " set(s) selected by opsel/index_key (here " + std::to_string(mods.opsel) + ").";
    return s;
}

int sparse_pairs_per_lane(const Instruction& ins, int wave) {
    switch (ins.kind) {
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4: return ins.k * ins.m / 64 / 4;  // dense k per lane / 4
        case LayoutKind::SwmmacRdna4: return kspec_items(wmma4_spec(ins, Operand::A, wave));
        default: return 0;
    }
}


// ------------------------------------------------------- family rules ------
//
// What each formula family can lay out. A catalog row enters only if its
// family's rule accepts it, and the engine checks the same rule before it
// evaluates a formula, so no row can make a formula divide by zero, index
// outside the wave or grow without bound. A new family adds one entry here.

struct FamilyRule {
    LayoutKind kind;
    std::vector<Family> gpus;          // GPU families the formulas are written for
    std::vector<ElemType> ab_types;    // legal A and B element types
    std::vector<ElemType> c_types;     // legal C/D element types
    const char* geometry_legal;        // the accepted shapes, in words
    // Empty when the formulas lay out this shape; else what is wrong.
    std::function<std::string(const Instruction&)> geometry;
};

std::string shape_text(const Instruction& ins) {
    return ins.shape() + " with " + std::to_string(ins.blocks) + " block(s)";
}

// RDNA4 k-bit specs: K (or K/4 for sparse A) must be exactly the span the spec addresses.
std::string kspec_geometry(const Instruction& ins) {
    if (ins.m != 16 || ins.n != 16 || ins.blocks != 1) return "shape " + shape_text(ins) + " is not 16x16xK, 1 block";
    for (int wave : {32, 64}) {
        for (Operand op : {Operand::A, Operand::B}) {
            const size_t bits = std::string_view(wmma4_spec(ins, op, wave)).size();
            const long long span = 1LL << bits;
            const long long need = ins.kind == LayoutKind::SwmmacRdna4 && op == Operand::A ? ins.k / 4 : ins.k;
            if (span != need || (ins.kind == LayoutKind::SwmmacRdna4 && ins.k % 4 != 0))
                return "K = " + std::to_string(ins.k) + " does not fit the " + std::string(elem_name(ins.a)) +
                       " placement (it covers K = " +
                       std::to_string(ins.kind == LayoutKind::SwmmacRdna4 && op == Operand::A ? 4 * span : span) + ")";
        }
    }
    return {};
}

const std::vector<FamilyRule>& family_rules() {
    using E = ElemType;
    const std::vector<Family> cdna = {Family::CDNA1, Family::CDNA2, Family::CDNA3, Family::CDNA4};
    static const std::vector<FamilyRule> kRules = {
        {LayoutKind::Mfma, cdna, {E::F64, E::F32, E::XF32, E::F16, E::BF16, E::I8, E::FP8, E::BF8},
         {E::F64, E::F32, E::I32},
         "MxN 32x32 (1 or 2 blocks), 16x16 (1 or 4), 4x4 (16; f64: 4); f64 16x16 (1); K*M*blocks a multiple of 64, "
         "K <= 256",
         [](const Instruction& ins) -> std::string {
             const bool f64 = ins.c == ElemType::F64;
             const std::vector<std::pair<int, int>> tiles =
                 f64 ? std::vector<std::pair<int, int>>{{16, 1}, {4, 4}}
                     : std::vector<std::pair<int, int>>{{32, 1}, {32, 2}, {16, 1}, {16, 4}, {4, 16}};
             if (ins.m != ins.n ||
                 std::find(tiles.begin(), tiles.end(), std::make_pair(ins.m, ins.blocks)) == tiles.end())
                 return "shape " + shape_text(ins) + " has no MFMA accumulator layout";
             if (ins.k > 256 || (1LL * ins.k * ins.m * ins.blocks) % 64 != 0)
                 return "K = " + std::to_string(ins.k) + " leaves lanes without A/B values (K*M*blocks = " +
                        std::to_string(1LL * ins.k * ins.m * ins.blocks) + ")";
             if ((ins.a == E::F64) != f64 || (ins.b == E::F64) != f64) return "f64 A/B go with f64 C and only with it";
             return {};
         }},
        {LayoutKind::MfmaScaled, {Family::CDNA4}, {E::F8F6F4}, {E::F32},
         "16x16x128 or 32x32x64, 1 block (32 values per lane)",
         [](const Instruction& ins) -> std::string {
             if (ins.m != ins.n || (ins.m != 16 && ins.m != 32) || ins.blocks != 1 || 1LL * ins.k * ins.m != 2048)
                 return "shape " + shape_text(ins) + " does not put 32 values in each lane";
             return {};
         }},
        {LayoutKind::SmfmacCdna3, {Family::CDNA3, Family::CDNA4}, {E::F16, E::BF16, E::I8, E::FP8, E::BF8},
         {E::F32, E::I32}, "16x16 or 32x32, 1 block, M*K*bits(A) = 8192 (16x16x32 f16, 32x32x32 i8, ...)",
         [](const Instruction& ins) -> std::string {
             if (ins.m != ins.n || (ins.m != 16 && ins.m != 32) || ins.blocks != 1 ||
                 1LL * ins.m * ins.k * elem_bits(ins.a) != 8192)
                 return "shape " + shape_text(ins) + " with " + std::string(elem_name(ins.a)) +
                        " A has no CDNA3 sparse layout";
             return {};
         }},
        {LayoutKind::SmfmacCdna4, {Family::CDNA4}, {E::F16, E::BF16, E::I8, E::FP8, E::BF8}, {E::F32, E::I32},
         "16x16 or 32x32, 1 block, M*K*bits(A) = 16384 (16x16x64 f16, 32x32x64 i8, ...)",
         [](const Instruction& ins) -> std::string {
             if (ins.m != ins.n || (ins.m != 16 && ins.m != 32) || ins.blocks != 1 ||
                 1LL * ins.m * ins.k * elem_bits(ins.a) != 16384)
                 return "shape " + shape_text(ins) + " with " + std::string(elem_name(ins.a)) +
                        " A has no CDNA4 sparse layout";
             return {};
         }},
        {LayoutKind::WmmaRdna3, {Family::RDNA3}, {E::F16, E::BF16, E::IU8, E::IU4}, {E::F16, E::BF16, E::F32, E::I32},
         "16x16x16, 1 block",
         [](const Instruction& ins) -> std::string {
             if (ins.m != 16 || ins.n != 16 || ins.k != 16 || ins.blocks != 1)
                 return "shape " + shape_text(ins) + " is not 16x16x16, 1 block";
             return {};
         }},
        {LayoutKind::WmmaRdna4, {Family::RDNA4}, {E::F16, E::BF16, E::IU8, E::IU4, E::FP8, E::BF8},
         {E::F16, E::BF16, E::F32, E::I32}, "16x16x16 (iu4 also 16x16x32), 1 block", kspec_geometry},
        {LayoutKind::SwmmacRdna4, {Family::RDNA4}, {E::F16, E::BF16, E::IU8, E::IU4, E::FP8, E::BF8},
         {E::F16, E::BF16, E::F32, E::I32}, "16x16x32 (iu4 also 16x16x64), 1 block", kspec_geometry},
        {LayoutKind::WmmaGfx1250, {Family::CDNA5}, {E::F32, E::F16, E::BF16, E::FP8, E::BF8, E::IU8, E::F8F6F4, E::FP4},
         {E::F32, E::F16, E::BF16, E::I32}, detail::gfx1250_geometry_legal(), detail::gfx1250_geometry},
        {LayoutKind::WmmaScaleGfx1250, {Family::CDNA5}, {E::F8F6F4, E::FP4}, {E::F32}, detail::gfx1250_geometry_legal(),
         detail::gfx1250_geometry},
        {LayoutKind::SwmmacGfx1250, {Family::CDNA5}, {E::F16, E::BF16, E::FP8, E::BF8, E::IU8},
         {E::F32, E::F16, E::BF16, E::I32}, detail::gfx1250_geometry_legal(), detail::gfx1250_geometry},
    };
    return kRules;
}

std::string types_text(const std::vector<ElemType>& v) {
    std::string s;
    for (ElemType t : v) s += (s.empty() ? "" : " ") + std::string(elem_name(t));
    return s;
}

// Empty if the family's formulas can lay out `ins`; else "what, legal: ...".
std::string rule_violation(const Instruction& ins) {
    const FamilyRule* rule = nullptr;
    for (const FamilyRule& r : family_rules())
        if (r.kind == ins.kind) rule = &r;
    const std::string fam(layout_kind_name(ins.kind));
    if (!ins.families.empty() && vendor_of(ins.families.front()) == Vendor::NVIDIA) {
        for (Family f : ins.families)
            if (vendor_of(f) != Vendor::NVIDIA) return "an NVIDIA row cannot also name " + std::string(family_name(f));
        // Rules of core/catalog/nvidia.txt's families, after the same bounds as AMD's.
        const bool no_k = ins.kind == LayoutKind::LdStMatrix || ins.kind == LayoutKind::Tcgen05LdSt ||
                          ins.kind == LayoutKind::Tcgen05Cp;
        // tcgen05.ld/st: n counts bits per lane (up to 16x256b.x32 = 8192).
        const int max_n = ins.kind == LayoutKind::Tcgen05LdSt ? 8192 : 1024;
        if (ins.m <= 0 || ins.n <= 0 || ins.k < (no_k ? 0 : 1) || ins.blocks <= 0 || ins.m > 1024 || ins.n > max_n ||
            ins.k > 4096 || ins.blocks > 64)
            return "shape " + shape_text(ins) + " is out of range for " + fam +
                   ", legal: the shapes of core/catalog/nvidia.txt's " + fam + " rows";
        const std::string why =
            detail::is_tcgen05(ins) ? detail::tcgen05_rule_violation(ins) : detail::nvidia_rule_violation(ins);
        return why.empty() ? why : "shape or types of " + shape_text(ins) + " not laid out by " + fam + ", legal: " + why;
    }
    if (!rule) return "layout family '" + fam + "' has no rules";
    if (ins.families.empty()) return "no GPU family given";
    for (Family f : ins.families)
        if (std::find(rule->gpus.begin(), rule->gpus.end(), f) == rule->gpus.end()) {
            std::string legal;
            for (Family g : rule->gpus) legal += (legal.empty() ? "" : " ") + std::string(family_name(g));
            return "layout " + fam + " is not written for " + std::string(family_name(f)) + ", legal: " + legal;
        }
    auto has = [](const std::vector<ElemType>& v, ElemType t) { return std::find(v.begin(), v.end(), t) != v.end(); };
    if (!has(rule->ab_types, ins.a) || !has(rule->ab_types, ins.b))
        return "A/B types " + std::string(elem_name(ins.a)) + "," + std::string(elem_name(ins.b)) + " are not laid out by " +
               fam + ", legal: " + types_text(rule->ab_types);
    if (elem_bits(ins.a) != elem_bits(ins.b))
        return "A and B types " + std::string(elem_name(ins.a)) + "," + std::string(elem_name(ins.b)) +
               " differ in width, legal: A and B of one width";
    if (!has(rule->c_types, ins.c))
        return "C type " + std::string(elem_name(ins.c)) + " is not laid out by " + fam + ", legal: " + types_text(rule->c_types);
    if (ins.m <= 0 || ins.n <= 0 || ins.k <= 0 || ins.blocks <= 0 || ins.m > 1024 || ins.n > 1024 || ins.k > 4096 ||
        ins.blocks > 64)
        return "shape " + shape_text(ins) + " is out of range, legal for " + fam + ": " + rule->geometry_legal;
    std::string why = rule->geometry(ins);
    if (!why.empty()) return why + ", legal for " + fam + ": " + rule->geometry_legal;
    return {};
}


// The guard at the engine's boundary, whatever a catalog (or a caller) says:
// no formula (or modifier range) is evaluated for a row its family's rule refuses.
void require_layable(const Instruction& ins) {
    if (const std::string why = rule_violation(ins); !why.empty())
        throw Error(ins.mnemonic + " (" + std::string(layout_kind_name(ins.kind)) + ") cannot be laid out: " + why);
}

OperandSpec spec_for(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    require_layable(ins);
    const Operand acc = op == Operand::D ? Operand::C : op;
    switch (ins.kind) {
        case LayoutKind::Mfma:
            return acc == Operand::C ? mfma_cd(ins, ins.c) : mfma_ab(ins, acc, mods);
        case LayoutKind::MfmaScaled:
            if (acc == Operand::C) return mfma_cd(ins, ins.c);
            if (acc == Operand::SA || acc == Operand::SB) return scaled_scale(ins, acc, mods);
            return scaled_ab(ins, acc, mods);
        case LayoutKind::SmfmacCdna3:
            return acc == Operand::C ? mfma_cd(ins, ins.c) : smfmac3(ins, acc, mods);
        case LayoutKind::SmfmacCdna4:
            return acc == Operand::C ? mfma_cd(ins, ins.c) : smfmac4(ins, acc, mods);
        case LayoutKind::WmmaRdna3:
            return wmma3(ins, acc, mods);
        case LayoutKind::WmmaRdna4:
            return acc == Operand::C ? wmma4_c(ins, mods) : rdna4_ab(ins, acc, mods);
        case LayoutKind::SwmmacRdna4:
            if (acc == Operand::C) return wmma4_c(ins, mods);
            if (acc == Operand::K) return swmmac4_index(ins, mods);
            return rdna4_ab(ins, acc, mods);
        case LayoutKind::WmmaGfx1250:
        case LayoutKind::WmmaScaleGfx1250:
        case LayoutKind::SwmmacGfx1250:
            return detail::gfx1250_spec(ins, op, mods);  // D differs from C on bf16f32
        case LayoutKind::MmaSync:
        case LayoutKind::MmaSparse:
        case LayoutKind::LdStMatrix:
        case LayoutKind::Wgmma:
        case LayoutKind::MmaBlockScale:
            return detail::nvidia_spec(ins, op, mods);
        case LayoutKind::Tcgen05Mma:
        case LayoutKind::Tcgen05LdSt:
        case LayoutKind::Tcgen05Cp:
            return detail::tcgen05_spec(ins, op, mods);
    }
    throw Error("internal: unknown layout family");
}

// Bits of a builtin vector type: "v16f32" -> 512, "i32" -> 32; 0 if unknown.
int vector_bits(std::string_view v) {
    long count = 1;
    if (!v.empty() && v[0] == 'v') {
        size_t n = 1;
        count = 0;
        while (n < v.size() && v[n] >= '0' && v[n] <= '9' && count < 1000) count = count * 10 + (v[n++] - '0');
        v.remove_prefix(n);
        if (count <= 0 || count > 64) return 0;
    }
    static const std::pair<const char*, int> kScalars[] = {{"f64", 64}, {"i64", 64}, {"f32", 32}, {"i32", 32},
                                                           {"f16", 16}, {"bf16", 16}, {"i16", 16}, {"i8", 8}};
    for (const auto& [name, bits] : kScalars)
        if (v == name) return static_cast<int>(count) * bits;
    return 0;
}

}  // namespace

void validate_instruction(const Instruction& ins) {
    std::string why = rule_violation(ins);
    if (!why.empty()) throw Error(why);
    // NVIDIA rows have no builtin vector types: their stated register counts are
    // checked against the formulas where core/catalog/nvidia.txt is read.
    if (ins.vendor() == Vendor::NVIDIA) return;
    // Register counts: the builtin's vector types must hold what the formulas place.
    for (int wave : {32, 64}) {
        // Only the wave sizes the row's targets run.
        bool runs = false;
        for (const Target& t : Catalog().targets())
            if (ins.on(t.family))
                runs = runs || std::find(t.wave_sizes.begin(), t.wave_sizes.end(), wave) != t.wave_sizes.end();
        if (!runs) continue;
        const std::string vec = ins.vector_types(wave);
        const std::vector<std::string> parts = text::split(vec.substr(0, vec.find('>')), ',');
        if (parts.size() != 3) throw Error("vectors '" + vec + "' are not A,B,C>D, legal: e.g. v4f16,v4f16,v16f32>v16f32");
        ResolvedModifiers mods;
        mods.wave = wave;
        const Operand ops[3] = {Operand::A, Operand::B, Operand::C};
        for (int n = 0; n < 3; ++n) {
            const int bits = vector_bits(text::trim(parts[static_cast<size_t>(n)]));
            if (bits == 0)
                throw Error("vector type '" + parts[static_cast<size_t>(n)] +
                            "' is unknown, legal: [vN]f64|i64|f32|i32|f16|bf16|i16|i8 with N <= 64");
            const int regs = spec_for(ins, ops[n], mods).regs;
            if ((bits + 31) / 32 != regs)
                throw Error(std::string("operand ") + std::string(operand_name(ops[n])) + " type " +
                            parts[static_cast<size_t>(n)] + " holds " + std::to_string((bits + 31) / 32) +
                            " VGPR(s) per lane but the " + std::string(layout_kind_name(ins.kind)) + " formulas place " +
                            std::to_string(regs) + " (wave" + std::to_string(wave) + "), legal: a vector of " +
                            std::to_string(regs) + " VGPR(s)");
        }
        if (is_gfx1250(ins)) {
            // D's vector (bf16f32: C f32, D bf16) and, for f8f6f4, every format's
            // A/B registers inside the builtin's (always full-size) vectors.
            const int dbits = vector_bits(text::trim(vec.substr(vec.find('>') + 1)));
            const int dregs = spec_for(ins, Operand::D, mods).regs;
            if ((dbits + 31) / 32 != dregs)
                throw Error("operand D type " + vec.substr(vec.find('>') + 1) + " holds " + std::to_string((dbits + 31) / 32) +
                            " VGPR(s) per lane but the " + std::string(layout_kind_name(ins.kind)) + " formulas place " +
                            std::to_string(dregs) + ", legal: a vector of " + std::to_string(dregs) + " VGPR(s)");
            for (int fmt = 0; ins.a == ElemType::F8F6F4 && fmt <= 4; ++fmt) {
                ResolvedModifiers f = mods;
                f.matrix_a_fmt = f.matrix_b_fmt = fmt;
                for (int n = 0; n < 2; ++n)
                    if (spec_for(ins, ops[n], f).regs * 32 > vector_bits(text::trim(parts[static_cast<size_t>(n)])))
                        throw Error("format " + std::to_string(fmt) + " of operand " + std::string(operand_name(ops[n])) +
                                    " needs more VGPRs than the builtin's " + parts[static_cast<size_t>(n)]);
            }
        }
    }
}

// ---------------------------------------------------------------- engine ---

bool Element::operator<(const Element& o) const {
    if (block != o.block) return block < o.block;
    if (row != o.row) return row < o.row;
    return col < o.col;
}
bool Location::operator<(const Location& o) const {
    if (reg != o.reg) return reg < o.reg;
    if (lane != o.lane) return lane < o.lane;
    return bit_lo < o.bit_lo;
}

class LayoutBuilder {
public:
    // The whole operand; or, with `only`, the entries of those elements alone; or,
    // with `only_slot` >= 0 (lane * regs + reg), every element placed and the parts
    // of that slot alone kept (the placement is a function of the element, so a
    // slot's contents need every element placed, but nothing else stored).
    static OperandLayout build(Operand op, const OperandSpec& s, int lanes, const std::vector<Element>* only = nullptr,
                               int only_slot = -1) {
        OperandLayout L;
        L.operand_ = op;
        L.space_ = s.space;
        L.type_ = s.type;
        L.blocks_ = s.blocks;
        L.rows_ = s.rows;
        L.cols_ = s.cols;
        L.lanes_ = lanes;
        L.regs_ = s.regs;
        L.bits_ = s.width;
        L.formula_ = s.formula;
        L.outside_note_ = s.outside_note;
        const bool part = only || only_slot != -1;
        L.part_ = only ? OperandLayout::Part::Elements : only_slot != -1 ? OperandLayout::Part::Slot : OperandLayout::Part::Whole;
        L.part_slot_ = only_slot;
        // Whole: per element; Elements: per covered element; Slot: none (only the slot's parts).
        if (!part) L.first_entry_.assign(static_cast<size_t>(L.elements()) + 1, 0);
        const size_t n_slots = static_cast<size_t>(lanes * s.regs);
        std::vector<std::pair<int, SlotPart>> parts;  // (slot, part), grouped by slot below
        if (!part) {
            parts.reserve(static_cast<size_t>(L.elements()));
            L.entries_.reserve(static_cast<size_t>(L.elements()));
        }
        std::vector<Slot> slots;
        std::vector<Location> locs;
        auto place = [&](const Element& e) {
            const int b = e.block, r = e.row, c = e.col;
            slots.clear();
            s.place(b, r, c, slots);
            if (only_slot >= 0) {  // one slot: an element that does not reach it is passed by
                const int lane = only_slot / s.regs, reg = only_slot % s.regs;
                bool reaches = false;
                for (const Slot& sl : slots) {
                    const int pos = sl.item * s.stride + s.offset;
                    reaches = reaches || (sl.lane == lane && pos / 32 <= reg && reg <= (pos + s.width - 1) / 32);
                }
                if (!reaches) return;
            }
            locs.clear();
            for (const Slot& sl : slots) {
                const int pos = sl.item * s.stride + s.offset;
                Location loc{pos / 32, sl.lane, pos % 32, pos % 32 + s.width - 1};
                if (sl.lane < 0 || sl.lane >= lanes || loc.reg >= s.regs || (pos + s.width - 1) / 32 >= s.regs)
                    throw Error("internal: " + std::string(operand_name(op)) + " element (" + std::to_string(b) + "," +
                                std::to_string(r) + "," + std::to_string(c) + ") placed outside the operand (lane " +
                                std::to_string(sl.lane) + ", bit " + std::to_string(pos) + ")");
                locs.push_back(loc);
            }
            if (locs.size() > 1) {  // replicated elements (RDNA3) only
                std::sort(locs.begin(), locs.end());
                locs.erase(std::unique(locs.begin(), locs.end()), locs.end());
            }
            for (const Location& loc : locs) {
                if (only_slot == -1) L.entries_.push_back({e, loc});
                // Split the element over the registers it covers.
                for (int bit = loc.bit_lo; bit <= loc.bit_hi;) {
                    const int reg = loc.reg + bit / 32;
                    const int lo = bit % 32;
                    const int hi = std::min(31, lo + (loc.bit_hi - bit));
                    const int slot = loc.lane * s.regs + reg;
                    if ((!only && only_slot == -1) || slot == only_slot) parts.push_back({slot, SlotPart{lo, hi, e, bit - loc.bit_lo}});
                    bit += hi - lo + 1;
                }
            }
            if (!part) L.first_entry_[static_cast<size_t>((b * s.rows + r) * s.cols + c) + 1] = static_cast<int>(L.entries_.size());
        };
        if (only) {
            // Sorted and in range (where() refuses the others with its message).
            L.covered_ = *only;
            std::sort(L.covered_.begin(), L.covered_.end());
            L.covered_.erase(std::unique(L.covered_.begin(), L.covered_.end()), L.covered_.end());
            L.covered_.erase(std::remove_if(L.covered_.begin(), L.covered_.end(), [&](const Element& e) { return !L.contains(e); }),
                             L.covered_.end());
            L.first_entry_.assign(L.covered_.size() + 1, 0);
            for (size_t i = 0; i < L.covered_.size(); ++i) {
                place(L.covered_[i]);
                L.first_entry_[i + 1] = static_cast<int>(L.entries_.size());
            }
        } else if (only_slot >= 0 && static_cast<size_t>(only_slot) < n_slots && s.candidates) {
            // The family names the elements the slot's items may hold: place only those.
            const int lane = only_slot / s.regs, reg = only_slot % s.regs;
            std::vector<Element> maybe;
            for (int item = std::max(0, (32 * reg - s.offset - s.width + 1) / s.stride);
                 item * s.stride + s.offset < 32 * (reg + 1); ++item)
                s.candidates(lane, item, maybe);
            std::sort(maybe.begin(), maybe.end());
            maybe.erase(std::unique(maybe.begin(), maybe.end()), maybe.end());
            for (const Element& e : maybe)
                if (L.contains(e)) place(e);
        } else if (only_slot < 0 || static_cast<size_t>(only_slot) < n_slots) {
            for (int b = 0; b < s.blocks; ++b)
                for (int r = 0; r < s.rows; ++r)
                    for (int c = 0; c < s.cols; ++c) place({b, r, c});
        }
        if (part) {  // one slot's parts (or none, for elements): sorted by bit, then element
            L.slot_parts_.reserve(parts.size());
            for (const auto& p : parts) L.slot_parts_.push_back(p.second);
            std::sort(L.slot_parts_.begin(), L.slot_parts_.end(), [](const SlotPart& x, const SlotPart& y) {
                return x.bit_lo != y.bit_lo ? x.bit_lo < y.bit_lo : x.element < y.element;
            });
            return L;
        }
        // Counting sort by slot (a flat array instead of one small vector per slot), then
        // each slot's parts by bit, then element.
        L.slot_first_.assign(n_slots + 1, 0);
        for (const auto& p : parts) ++L.slot_first_[static_cast<size_t>(p.first) + 1];
        for (size_t i = 0; i < n_slots; ++i) L.slot_first_[i + 1] += L.slot_first_[i];
        L.slot_parts_.resize(parts.size());
        std::vector<int> next(L.slot_first_.begin(), L.slot_first_.end() - 1);
        for (const auto& p : parts) L.slot_parts_[static_cast<size_t>(next[static_cast<size_t>(p.first)]++)] = p.second;
        auto by_bit = [](const SlotPart& x, const SlotPart& y) {
            return x.bit_lo != y.bit_lo ? x.bit_lo < y.bit_lo : x.element < y.element;
        };
        if (only_slot >= 0 && static_cast<size_t>(only_slot) < n_slots)
            std::sort(L.slot_parts_.begin(), L.slot_parts_.end(), by_bit);
        else if (!part)
            for (size_t i = 0; i < n_slots; ++i)
                std::sort(L.slot_parts_.begin() + L.slot_first_[i], L.slot_parts_.begin() + L.slot_first_[i + 1], by_bit);
        return L;
    }
};

bool OperandLayout::contains(const Element& e) const {
    return e.block >= 0 && e.block < blocks_ && e.row >= 0 && e.row < rows_ && e.col >= 0 && e.col < cols_;
}

std::vector<Location> OperandLayout::where(const Element& e) const {
    if (!contains(e))
        throw Error("element (block " + std::to_string(e.block) + ", row " + std::to_string(e.row) + ", col " +
                    std::to_string(e.col) + ") is outside operand " + std::string(operand_name(operand_)) +
                    "; legal: block 0.." + std::to_string(blocks_ - 1) + ", row 0.." + std::to_string(rows_ - 1) +
                    ", col 0.." + std::to_string(cols_ - 1) + outside_note_);
    if (part_ == Part::Slot || (part_ == Part::Elements && !std::binary_search(covered_.begin(), covered_.end(), e)))
        throw Error("internal: this layout of operand " + std::string(operand_name(operand_)) +
                    " was made for other elements (layout_of_elements / layout_of_slot); use layout_of for every element");
    // Whole: by the element's linear index; Elements: by its place among the covered ones.
    const size_t idx = part_ == Part::Elements
                           ? static_cast<size_t>(std::lower_bound(covered_.begin(), covered_.end(), e) - covered_.begin())
                           : static_cast<size_t>((e.block * rows_ + e.row) * cols_ + e.col);
    std::vector<Location> out;
    for (int n = first_entry_[idx]; n < first_entry_[idx + 1]; ++n) out.push_back(entries_[static_cast<size_t>(n)].loc);
    return out;
}

std::vector<SlotPart> OperandLayout::which(int reg, int lane) const {
    if (reg < 0 || reg >= regs_ || lane < 0 || lane >= lanes_)
        throw Error("slot (reg " + std::to_string(reg) + ", lane " + std::to_string(lane) + ") is outside operand " +
                    std::string(operand_name(operand_)) + "; legal: reg 0.." + std::to_string(regs_ - 1) +
                    ", lane 0.." + std::to_string(lanes_ - 1));
    const size_t slot = static_cast<size_t>(lane * regs_ + reg);
    if (part_ == Part::Elements || (part_ == Part::Slot && static_cast<int>(slot) != part_slot_))
        throw Error("internal: this layout of operand " + std::string(operand_name(operand_)) +
                    " was made for another slot (layout_of_elements / layout_of_slot); use layout_of for every slot");
    if (part_ == Part::Slot) return slot_parts_;  // that slot's parts alone
    return std::vector<SlotPart>(slot_parts_.begin() + slot_first_[slot], slot_parts_.begin() + slot_first_[slot + 1]);
}

std::vector<Entry> OperandLayout::entries() const { return entries_; }

// ------------------------------------------------------------- modifiers ---

namespace {
struct Legal {
    std::vector<int> values;  // empty: does not apply
    std::string why;          // for "does not apply" and for the range
    bool moves_data = true;
};

std::vector<int> range(int lo, int hi) {
    std::vector<int> v;
    for (int i = lo; i <= hi; ++i) v.push_back(i);
    return v;
}

bool cdna4_new(const Instruction& ins) { return ins.features.find("gfx950-insts") != std::string::npos; }

// A gfx1250 WMMA/SWMMAC has no CBSZ/ABID/BLGP/OPSEL: the controls this one has (f8f6f4 formats, wmma_scale's
// scale rows and formats, SWMMAC's index_key), or that it has none.
std::string gfx1250_no_field(const Instruction& ins) {
    std::string controls;
    if (ins.a == ElemType::F8F6F4 || ins.b == ElemType::F8F6F4) controls = "--matrix-a-fmt, --matrix-b-fmt";
    if (ins.kind == LayoutKind::WmmaScaleGfx1250)
        controls += std::string(controls.empty() ? "" : ", ") +
                    "--matrix-a-scale, --matrix-b-scale, --matrix-a-scale-fmt, --matrix-b-scale-fmt";
    if (ins.kind == LayoutKind::SwmmacGfx1250) controls += std::string(controls.empty() ? "" : ", ") + "--index-key";
    return "gfx1250 WMMA/SWMMAC have no such field (" +
           (controls.empty() ? ins.mnemonic + " takes no modifiers" : ins.mnemonic + "'s controls: " + controls) + ")";
}

Legal legal_wave(const Instruction& ins, const Target& t) {
    if (ins.vendor() == Vendor::NVIDIA) {
        if (ins.kind == LayoutKind::Wgmma) return {{128}, "a warpgroup: 4 warps, threads T = 0..127"};
        if (ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05Cp)
            return {{32}, "issued by one thread of a warp; the operands live in Tensor Memory (128 lanes per CTA), and "
                          "--tmem-load reads D back with 4 or 8 warps"};
        return {{32}, "a warp: 32 lanes"};
    }
    if (is_cdna(t.family)) return {{64}, "CDNA runs matrix instructions in wave64 only"};
    if (t.family == Family::CDNA5)
        return {{32}, "gfx1250/gfx1251 run WMMA and SWMMAC in wave32 only (clang-22 refuses -mwavefrontsize64 there; "
                      "there are no _w64 builtins)"};
    return {{32, 64}, "RDNA: wave32 or wave64 (the _w32 / _w64 builtins)"};
}

Legal legal_cbsz(const Instruction& ins) {
    if (ins.vendor() == Vendor::NVIDIA) return {{}, "PTX instructions have no CBSZ field"};
    if (is_gfx1250(ins)) return {{}, gfx1250_no_field(ins)};
    switch (ins.kind) {
        case LayoutKind::Mfma:
            if (ins.a == ElemType::F64) return {{}, "f64 MFMA ignores CBSZ/ABID"};
            if (ins.blocks == 1) return {{}, "single-block instructions have no A broadcast (CBSZ/ABID)"};
            return {range(0, std::min(4, log2i(ins.blocks))), "broadcast size: 2^cbsz blocks share one block's A"};
        case LayoutKind::MfmaScaled:
            return {range(0, 4), "A format: 0 FP8 E4M3, 1 BF8 E5M2, 2 FP6 E2M3, 3 BF6 E3M2, 4 FP4 E2M1"};
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4:
            return {range(0, 3), "with cbsz = 0, abid selects the sparse-index set", true};
        default: return {{}, "RDNA WMMA/SWMMAC have no CBSZ field"};
    }
}

Legal legal_abid(const Instruction& ins, int cbsz) {
    if (ins.vendor() == Vendor::NVIDIA) return {{}, "PTX instructions have no ABID field"};
    if (is_gfx1250(ins)) return {{}, gfx1250_no_field(ins)};
    switch (ins.kind) {
        case LayoutKind::Mfma: {
            Legal c = legal_cbsz(ins);
            if (c.values.empty()) return {{}, c.why};
            return {range(0, (1 << cbsz) - 1), "the block (within each group of 2^cbsz) whose A is broadcast"};
        }
        case LayoutKind::MfmaScaled:
            if (!ins.scales) return {{}, "the unscaled f8f6f4 form has no ABID"};
            return {{}, "the scaled instruction sets ABID[0] = 1 itself (it enables the scales)"};
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4: {
            int sets = sparse_sets(ins, 64);
            if (sets == 1) return {{0}, "one index set only (8-bit CDNA4 sparse ops use all 32 index bits)"};
            return {range(0, sets - 1), "sparse-index set (used when cbsz = 0)"};
        }
        default: return {{}, "RDNA WMMA/SWMMAC have no ABID field"};
    }
}

Legal legal_blgp(const Instruction& ins, const Target& t) {
    if (ins.vendor() == Vendor::NVIDIA) return {{}, "PTX instructions have no BLGP field"};
    if (is_gfx1250(ins)) return {{}, gfx1250_no_field(ins)};
    switch (ins.kind) {
        case LayoutKind::Mfma:
            if (ins.a == ElemType::F64) {
                if (t.family == Family::CDNA2) return {{}, "CDNA2 f64 MFMA supports no BLGP"};
                return {range(0, 7), "f64: BLGP is a negation mask (bit0 A, bit1 B, bit2 C); moves no data", false};
            }
            if (t.family == Family::CDNA1 || t.family == Family::CDNA2) return {range(0, 7), "B lane-group pattern"};
            if (cdna4_new(ins)) return {{}, "not documented for the CDNA4 wider-K single-block instructions"};
            if (ins.blocks > 1 || ins.a == ElemType::F32) return {range(0, 7), "B lane-group pattern"};
            return {{}, "single-block F16/BF16/I8/XF32/FP8 MFMA on CDNA3/CDNA4 has no BLGP"};
        case LayoutKind::MfmaScaled:
            return {range(0, 4), "B format: 0 FP8 E4M3, 1 BF8 E5M2, 2 FP6 E2M3, 3 BF6 E3M2, 4 FP4 E2M1"};
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4: return {{}, "SMFMAC has no BLGP"};
        default: return {{}, "RDNA WMMA/SWMMAC have no BLGP field"};
    }
}

Legal legal_opsel(const Instruction& ins, int wave) {
    if (ins.vendor() == Vendor::NVIDIA) return {{}, "PTX instructions have no OPSEL field"};
    if (is_gfx1250(ins)) return {{}, gfx1250_no_field(ins)};
    switch (ins.kind) {
        case LayoutKind::WmmaRdna3:
            if (is16(ins.c)) return {{0, 4}, "op_sel:[0,0,1] (4) puts C/D in bits [31:16]; 0 in [15:0]"};
            return {{}, "only the 16-bit-output RDNA3 WMMA have OPSEL"};
        case LayoutKind::SwmmacRdna4:
            return {range(0, sparse_sets(ins, wave) - 1), "index_key: which set of the sparse index VGPR"};
        case LayoutKind::MfmaScaled:
            if (!ins.scales) return {{}, "the unscaled f8f6f4 form has no scale operands (no op_sel)"};
            return {range(0, 3), "scale byte for SA and SB (see --opsel-a / --opsel-b)"};
        default: return {{}, std::string(is_cdna(ins.families.front()) ? "CDNA MFMA/SMFMAC" : "RDNA4 WMMA") +
                                 " have no OPSEL that moves data"};
    }
}

Legal legal_selector(const Instruction& ins) {
    std::vector<int> v = detail::nvidia_selectors(ins);
    if (v.empty())
        return {{}, ins.vendor() == Vendor::NVIDIA ? "only mma.sp has a sparsity selector"
                                                   : "only NVIDIA mma.sp has a sparsity selector"};
    return {v, "sparsity selector: which lane(s) of each quad give the metadata"};
}

// gfx1250 controls (the assembler's fields; llvm-mc-22 -mcpu=gfx1250).
Legal legal_matrix_fmt(const Instruction& ins, bool a) {
    if (is_gfx1250(ins) && (a ? ins.a : ins.b) == ElemType::F8F6F4)
        return {range(0, 4), std::string("matrix_") + (a ? "a" : "b") +
                                 "_fmt: 0 FP8 E4M3, 1 BF8 E5M2, 2 FP6 E2M3, 3 BF6 E3M2, 4 FP4 E2M1 (16, 16, 12, 12, 8 VGPRs)"};
    return {{}, "only the gfx1250 f8f6f4 WMMA have matrix_a_fmt / matrix_b_fmt"};
}
Legal legal_matrix_scale(const Instruction& ins, bool a) {
    if (ins.kind != LayoutKind::WmmaScaleGfx1250) return {{}, "only gfx1250 wmma_scale*/wmma_scale16* have scale operands"};
    if (a && ins.m == 32)
        return {{0}, "matrix_a_scale ROW1 on the 32-row f4 WMMA: A's 32 rows of scales fill the wave, and no source "
                     "says what ROW1 selects there"};
    return {range(0, 1), std::string("matrix_") + (a ? "a" : "b") +
                             "_scale: 0 ROW0 (lanes 0-15 give the scales), 1 ROW1 (lanes 16-31)"};
}
Legal legal_matrix_scale_fmt(const Instruction& ins) {
    if (ins.kind != LayoutKind::WmmaScaleGfx1250) return {{}, "only gfx1250 wmma_scale*/wmma_scale16* have scale formats"};
    return {range(0, 2), "scale format: 0 E8M0, 1 E5M3, 2 E4M3 (reinterprets the scale bytes; moves none)", false};
}
Legal legal_index_key(const Instruction& ins) {
    if (ins.kind != LayoutKind::SwmmacGfx1250) return {{}, "only gfx1250 SWMMAC have index_key (RDNA4 SWMMAC: --opsel)"};
    return {{0}, "the assembler accepts index_key 0-1 (dword0 bit 11), but no public source says which index bits 1 "
                 "selects when the index fills its VGPRs; lanescope lays out index_key 0 only"};
}

// NVIDIA Blackwell, Tensor Memory (layouts_tcgen05.cpp).
Legal legal_tmem_load(const Instruction& ins) {
    Legal l;
    l.values = detail::tcgen05_tmem_load_values(ins, l.why);
    return l;
}
Legal legal_num_warps(const Instruction& ins, int tmem_load) {
    if (ins.kind != LayoutKind::Tcgen05Mma) return {{}, "only a tcgen05.mma D read back with --tmem-load has warps"};
    if (tmem_load == 0) return {{}, "--num-warps goes with --tmem-load (the warps that read D back)"};
    return {{4, 8}, "the warps that read D (Triton's num_warps): warp w reads TMEM lanes 32*(w%4) .. +31"};
}
Legal legal_sf_id(const Instruction& ins, bool a) {
    Legal l;
    l.values = detail::tcgen05_sf_id_values(ins, a, l.why);
    return l;
}
Legal legal_half_split(const Instruction& ins) {
    Legal l;
    l.values = detail::tcgen05_half_split_values(ins, l.why);
    return l;
}

Legal legal_opsel_ab(const Instruction& ins) {
    if (ins.kind == LayoutKind::MfmaScaled && ins.scales)
        return {range(0, 3), "scale byte: bits [8n+7:8n] of the scale VGPR"};
    return {{}, "only mfma_scale_* have scale operands"};
}

// sm_120 block-scaled mma.sync (PTX 9.7.14.3, Table 37): byte-id 0..3 for
// scale_vec::1X, 0 or 2 for 2X, 0 for 4X; thread-id 0..1 for A, 0..3 for B.
Legal legal_sf_byte(const Instruction& ins) {
    if (ins.kind != LayoutKind::MmaBlockScale || ins.scale_vec == 0)
        return {{}, "only sm_120's block-scaled mma.sync has scale-factor selectors"};
    if (ins.scale_vec == 1) return {range(0, 3), "byte-id: the byte of the scale register holding the factor (scale_vec::1X)"};
    if (ins.scale_vec == 2) return {{0, 2}, "byte-id: the first of the two bytes holding the factors (scale_vec::2X)"};
    return {{0}, "byte-id: scale_vec::4X uses all four bytes"};
}
Legal legal_sf_thread(const Instruction& ins, bool a) {
    if (ins.kind != LayoutKind::MmaBlockScale || ins.scale_vec == 0)
        return {{}, "only sm_120's block-scaled mma.sync has scale-factor selectors"};
    if (a) return {range(0, 1), "thread-id-a: which lane pair of each quad (4g + {0,1} or 4g + {2,3}) supplies SF_A"};
    return {range(0, 3), "thread-id-b: which lane of each quad supplies SF_B"};
}

std::string values_text(const std::vector<int>& v) {
    if (v.empty()) return "none";
    bool contiguous = v.size() >= 2;
    for (size_t i = 1; i < v.size(); ++i) contiguous = contiguous && v[i] == v[i - 1] + 1;
    if (contiguous) return std::to_string(v.front()) + ".." + std::to_string(v.back());
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s;
}

int check(const char* name, int given, int fallback, const Legal& legal, const Instruction& ins, const Target& t) {
    if (given < 0) {
        // The target's default may not apply (a wgmma runs on 128 threads, not a warp).
        if (!legal.values.empty() && std::find(legal.values.begin(), legal.values.end(), fallback) == legal.values.end())
            return legal.values.front();
        return fallback;
    }
    const std::string where = ins.mnemonic + " on " + t.gfx;
    if (legal.values.empty()) {
        if (given == 0) return 0;  // the encoding's default is always fine
    {
        // 0 (the encoding's default) is legal only where the option's parser takes it (--num-warps is 1..64) and
        // is a plain number: a named option's 0 is a name (--matrix-a-fmt's fp8) that means nothing here.
        const ModifierOption* o = find_modifier_option(std::string("--") + name);
        const bool zero = !o || (o->lo == 0 && o->value == OptionValue::Integer);
        throw Error(std::string("--") + name + " does not apply to " + where + ": " + legal.why + "; legal: " +
                    (zero ? "0 (or leave the option out)" : "leave the option out"));
    }
    }
    if (std::find(legal.values.begin(), legal.values.end(), given) == legal.values.end())
        throw Error(std::string("--") + name + " " + std::to_string(given) + " is not legal for " + where +
                    "; legal: " + values_text(legal.values) + " (" + legal.why + ")");
    return given;
}
}  // namespace

std::string ResolvedModifiers::describe() const {
    std::string s;
    auto add = [&](const char* n, int v) {
        if (v) s += (s.empty() ? "" : " ") + std::string(n) + "=" + std::to_string(v);
    };
    add("cbsz", cbsz);
    add("abid", abid);
    add("blgp", blgp);
    add("opsel", opsel);
    add("opsel_a", opsel_a);
    add("opsel_b", opsel_b);
    add("selector", selector);
    add("matrix_a_fmt", matrix_a_fmt);
    add("matrix_b_fmt", matrix_b_fmt);
    add("matrix_a_scale", matrix_a_scale);
    add("matrix_b_scale", matrix_b_scale);
    add("matrix_a_scale_fmt", matrix_a_scale_fmt);
    add("matrix_b_scale_fmt", matrix_b_scale_fmt);
    add("index_key", index_key);
    if (tmem_load) s += (s.empty() ? "" : " ") + std::string("tmem_load=") + text::lower(modifier_value_name("tmem_load", tmem_load));
    add("num_warps", num_warps);
    add("sfa_id", sfa_id);
    add("sfb_id", sfb_id);
    add("half_split", half_split);
    add("sf_byte_a", sf_byte_a);
    add("sf_thread_a", sf_thread_a);
    add("sf_byte_b", sf_byte_b);
    add("sf_thread_b", sf_thread_b);
    add("smem_a", smem_a);
    auto add_set = [&](const char* n, int v, const std::string& text) {
        if (v >= 0) s += (s.empty() ? "" : " ") + std::string(n) + "=" + text;
    };
    add_set("smem_major", smem_major, smem_major == 1 ? "MN" : "K");
    add_set("swizzle", swizzle, std::string(smem_swizzle_name(static_cast<SmemSwizzle>(swizzle < 0 ? 0 : swizzle))));
    add_set("lbo", lbo, std::to_string(lbo));
    add_set("sbo", sbo, std::to_string(sbo));
    add_set("smem_address", smem_address, std::to_string(smem_address));
    add_set("base_offset", base_offset, std::to_string(base_offset));
    if (descriptor) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(*descriptor));
        s += (s.empty() ? "" : " ") + std::string("descriptor=") + hex;
    }
    return s;
}

ResolvedModifiers resolve_modifiers(const Instruction& ins, const Target& t, const Modifiers& m) {
    require_layable(ins);
    if (!ins.on(t.family))
        throw Error(ins.mnemonic + " does not exist on " + t.gfx + " (" + std::string(family_title(t.family)) + ")");
    ResolvedModifiers r;
    r.wave = check("wave", m.wave, t.default_wave, legal_wave(ins, t), ins, t);
    r.cbsz = check("cbsz", m.cbsz, 0, legal_cbsz(ins), ins, t);
    r.abid = check("abid", m.abid, 0, legal_abid(ins, r.cbsz), ins, t);
    r.blgp = check("blgp", m.blgp, 0, legal_blgp(ins, t), ins, t);
    r.opsel = check("opsel", m.opsel, 0, legal_opsel(ins, r.wave), ins, t);
    r.opsel_a = check("opsel-a", m.opsel_a, r.opsel, legal_opsel_ab(ins), ins, t);
    r.opsel_b = check("opsel-b", m.opsel_b, r.opsel, legal_opsel_ab(ins), ins, t);
    r.selector = check("selector", m.selector, 0, legal_selector(ins), ins, t);
    r.matrix_a_fmt = check("matrix-a-fmt", m.matrix_a_fmt, 0, legal_matrix_fmt(ins, true), ins, t);
    r.matrix_b_fmt = check("matrix-b-fmt", m.matrix_b_fmt, 0, legal_matrix_fmt(ins, false), ins, t);
    r.matrix_a_scale = check("matrix-a-scale", m.matrix_a_scale, 0, legal_matrix_scale(ins, true), ins, t);
    r.matrix_b_scale = check("matrix-b-scale", m.matrix_b_scale, 0, legal_matrix_scale(ins, false), ins, t);
    r.matrix_a_scale_fmt = check("matrix-a-scale-fmt", m.matrix_a_scale_fmt, 0, legal_matrix_scale_fmt(ins), ins, t);
    r.matrix_b_scale_fmt = check("matrix-b-scale-fmt", m.matrix_b_scale_fmt, 0, legal_matrix_scale_fmt(ins), ins, t);
    r.index_key = check("index-key", m.index_key, 0, legal_index_key(ins), ins, t);
    // --tmem-load is a shape (32x32b), or a shape with its .num (32x32b.x64): the shape is checked here,
    // the .num with the layout (tcgen05_tmem_reg_bases names the legal ones).
    const int tmem_shape = m.tmem_load > 0 ? detail::tmem_load_shape(m.tmem_load) : m.tmem_load;
    if (const Legal l = legal_tmem_load(ins);
        m.tmem_load > 0 && !l.values.empty() && std::find(l.values.begin(), l.values.end(), tmem_shape) == l.values.end()) {
        // Named as PTX and Gluon spell the shapes.
        std::string legal;
        for (int v : l.values)
            if (v > 0) legal += (legal.empty() ? "" : ", ") + text::lower(modifier_value_name("tmem_load", v));
        throw Error("--tmem-load " + text::lower(modifier_value_name("tmem_load", m.tmem_load)) + " is not legal for " +
                    ins.mnemonic + " on " + t.gfx + "; legal: " + (legal.empty() ? "none" : legal) + " (" + l.why + ")");
    }
    r.tmem_load = check("tmem-load", tmem_shape, 0, legal_tmem_load(ins), ins, t);
    if (r.tmem_load > 0) r.tmem_load = m.tmem_load;  // with its .num
    r.num_warps = check("num-warps", m.num_warps, r.tmem_load ? 4 : 0, legal_num_warps(ins, r.tmem_load), ins, t);
    if (r.tmem_load > 0) detail::tcgen05_tmem_reg_bases(ins, r);  // refuses a .num the read-back cannot use
    r.sfa_id = check("sfa-id", m.sfa_id, 0, legal_sf_id(ins, true), ins, t);
    r.sfb_id = check("sfb-id", m.sfb_id, 0, legal_sf_id(ins, false), ins, t);
    std::string why;
    const auto splits = detail::tcgen05_half_split_values(ins, why);
    r.half_split = check("half-split", m.half_split, splits.empty() ? 0 : splits.front(), legal_half_split(ins), ins, t);
    r.sf_byte_a = check("sf-byte-a", m.sf_byte_a, 0, legal_sf_byte(ins), ins, t);
    r.sf_thread_a = check("sf-thread-a", m.sf_thread_a, 0, legal_sf_thread(ins, true), ins, t);
    r.sf_byte_b = check("sf-byte-b", m.sf_byte_b, 0, legal_sf_byte(ins), ins, t);
    r.sf_thread_b = check("sf-thread-b", m.sf_thread_b, 0, legal_sf_thread(ins, false), ins, t);
    detail::resolve_smem_modifiers(ins, t, m, r);
    return r;
}

std::vector<ModifierRange> modifier_ranges(const Instruction& ins, const Target& t, const ResolvedModifiers& cur) {
    require_layable(ins);
    std::vector<ModifierRange> out;
    auto add = [&](const char* name, const Legal& l) {
        if (l.values.empty() || (l.values.size() == 1 && std::string(name) != "wave")) return;
        out.push_back({name, l.values, l.why, l.moves_data});
    };
    add("wave", legal_wave(ins, t));
    add("cbsz", legal_cbsz(ins));
    add("abid", legal_abid(ins, cur.cbsz));
    add("blgp", legal_blgp(ins, t));
    add("opsel", legal_opsel(ins, cur.wave));
    if (ins.kind == LayoutKind::MfmaScaled && ins.scales) {
        add("opsel_a", legal_opsel_ab(ins));
        add("opsel_b", legal_opsel_ab(ins));
    }
    add("selector", legal_selector(ins));
    add("matrix_a_fmt", legal_matrix_fmt(ins, true));
    add("matrix_b_fmt", legal_matrix_fmt(ins, false));
    add("matrix_a_scale", legal_matrix_scale(ins, true));
    add("matrix_b_scale", legal_matrix_scale(ins, false));
    add("matrix_a_scale_fmt", legal_matrix_scale_fmt(ins));
    add("matrix_b_scale_fmt", legal_matrix_scale_fmt(ins));
    add("index_key", legal_index_key(ins));
    add("tmem_load", legal_tmem_load(ins));
    add("num_warps", legal_num_warps(ins, cur.tmem_load));
    add("sfa_id", legal_sf_id(ins, true));
    add("sfb_id", legal_sf_id(ins, false));
    add("half_split", legal_half_split(ins));
    add("sf_byte_a", legal_sf_byte(ins));
    add("sf_thread_a", legal_sf_thread(ins, true));
    add("sf_byte_b", legal_sf_byte(ins));
    add("sf_thread_b", legal_sf_thread(ins, false));
    detail::smem_modifier_ranges(ins, cur, out);
    return out;
}

std::vector<int> wave_sizes(const Instruction& ins, const Target& t) {
    if (ins.vendor() != t.vendor()) return {};
    if (ins.vendor() == Vendor::AMD) return t.wave_sizes;
    return legal_wave(ins, t).values;
}

std::string lane_group_name(const Instruction& ins, int wave) {
    if (ins.vendor() == Vendor::AMD) return "wave" + std::to_string(wave);
    return wave == 128 ? "warpgroup" : "warp";
}

namespace {
// The integer modifier fields, by name and member, in one order for both structs (they share
// field names); the names are modifier_field_names().
constexpr std::string_view kFieldNames[] = {
    "cbsz",      "abid",      "blgp",          "opsel",         "wave",           "opsel_a",        "opsel_b",
    "selector",  "matrix_a_fmt", "matrix_b_fmt", "matrix_a_scale", "matrix_b_scale", "matrix_a_scale_fmt",
    "matrix_b_scale_fmt", "index_key", "tmem_load", "num_warps", "sfa_id", "sfb_id", "half_split",
    "sf_byte_a", "sf_thread_a", "sf_byte_b", "sf_thread_b", "smem_a", "smem_major", "swizzle", "lbo", "sbo",
    "smem_address", "base_offset"};
constexpr size_t kFieldCount = sizeof kFieldNames / sizeof kFieldNames[0];

template <class Mods>
const std::array<int Mods::*, kFieldCount>& field_members() {
    static const std::array<int Mods::*, kFieldCount> members = {
        &Mods::cbsz,          &Mods::abid,           &Mods::blgp,           &Mods::opsel,
        &Mods::wave,          &Mods::opsel_a,        &Mods::opsel_b,        &Mods::selector,
        &Mods::matrix_a_fmt,  &Mods::matrix_b_fmt,   &Mods::matrix_a_scale, &Mods::matrix_b_scale,
        &Mods::matrix_a_scale_fmt, &Mods::matrix_b_scale_fmt, &Mods::index_key, &Mods::tmem_load,
        &Mods::num_warps,     &Mods::sfa_id,         &Mods::sfb_id,         &Mods::half_split,
        &Mods::sf_byte_a,     &Mods::sf_thread_a,    &Mods::sf_byte_b,      &Mods::sf_thread_b,
        &Mods::smem_a,        &Mods::smem_major,     &Mods::swizzle,        &Mods::lbo,
        &Mods::sbo,           &Mods::smem_address,   &Mods::base_offset};
    return members;
}

template <class Mods>
auto modifier_field(Mods& m, std::string_view name) -> decltype(&m.cbsz) {
    using Plain = std::remove_const_t<Mods>;
    for (size_t i = 0; i < kFieldCount; ++i)
        if (kFieldNames[i] == name) return &(m.*field_members<Plain>()[i]);
    return nullptr;
}
}  // namespace

const std::vector<std::string_view>& modifier_field_names() {
    static const std::vector<std::string_view> names(std::begin(kFieldNames), std::end(kFieldNames));
    return names;
}

int modifier_value(const ResolvedModifiers& m, std::string_view name) {
    const int* field = modifier_field(m, name);
    return field ? *field : 0;
}

int modifier_value(const Modifiers& m, std::string_view name) {
    const int* field = modifier_field(m, name);
    return field ? *field : -1;
}

void set_modifier(Modifiers& m, std::string_view name, int value) {
    if (int* field = modifier_field(m, name)) *field = value;
}

namespace {
const std::vector<std::string>* value_names(std::string_view modifier) {
    static const std::vector<std::string> kFmt = {"fp8", "bf8", "fp6", "bf6", "fp4"};
    static const std::vector<std::string> kRow = {"row0", "row1"};
    static const std::vector<std::string> kScaleFmt = {"e8m0", "e5m3", "e4m3"};
    if (modifier == "tmem_load") return &detail::tmem_load_names();
    static const std::vector<std::string> kSwizzle = {"none", "32b", "64b", "128b", "128b_base32b"};
    static const std::vector<std::string> kMajor = {"k", "mn"};
    if (modifier == "swizzle") return &kSwizzle;
    if (modifier == "smem_major") return &kMajor;
    if (modifier == "matrix_a_fmt" || modifier == "matrix_b_fmt") return &kFmt;
    if (modifier == "matrix_a_scale" || modifier == "matrix_b_scale") return &kRow;
    if (modifier == "matrix_a_scale_fmt" || modifier == "matrix_b_scale_fmt") return &kScaleFmt;
    return nullptr;
}
}  // namespace

std::string modifier_value_name(std::string_view modifier, int value) {
    // -1 is "not given" (the shared-memory fields' ranges offer it): the canonical value applies.
    if (value == -1) return "default";
    const auto* names = value_names(modifier);
    if (!names || value < 0 || value >= static_cast<int>(names->size())) return "";
    return text::upper((*names)[static_cast<size_t>(value)]);
}

std::optional<int> parse_modifier_value(std::string_view modifier, std::string_view raw) {
    // As every number (numbers.hpp): the text is the value, with no surrounding space.
    std::string t = text::lower(raw);
    if (t.empty() || t.size() > 32) return std::nullopt;
    const auto* names = value_names(modifier);
    if (std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        if (t.size() > 6) return std::nullopt;  // no legal value is that large; stoi would overflow
        // The shared-memory words are names only: a number would be ambiguous (wgmma's descriptor
        // encodes 128B as 1, tcgen05's as 2; a TMA map's 32B is 1).
        if (modifier == "swizzle" || modifier == "smem_major") return std::nullopt;
        const int v = std::stoi(t);
        // A named field's number is the index of its name (0..names-1), nothing past them.
        if (names && (v >= static_cast<int>(names->size()) || (*names)[static_cast<size_t>(v)].empty())) return std::nullopt;
        return v;
    }
    if (!names) return std::nullopt;
    for (const char* prefix : {"matrix_scale_fmt_", "matrix_scale_", "matrix_fmt_"})
        if (t.rfind(prefix, 0) == 0) {
            t = t.substr(std::string_view(prefix).size());
            break;
        }
    for (size_t n = 0; n < names->size(); ++n)
        if (!(*names)[n].empty() && (*names)[n] == t) return static_cast<int>(n);
    return std::nullopt;
}

std::string modifier_value_names(std::string_view modifier) {
    const auto* names = value_names(modifier);
    if (!names) return "a number";
    if (modifier == "tmem_load") return detail::tmem_load_names_text();
    std::string s;
    for (const auto& n : *names) s += (s.empty() ? "" : " ") + n;
    return s + " (or 0.." + std::to_string(names->size() - 1) + ")";
}

// --------------------------------------------------------------- queries ---

std::vector<Operand> operands_of(const Instruction& ins) {
    if (detail::is_tcgen05(ins)) return detail::tcgen05_operands(ins);
    if (ins.vendor() == Vendor::NVIDIA) return detail::nvidia_operands(ins);
    if (is_gfx1250(ins)) return detail::gfx1250_operands(ins);
    std::vector<Operand> ops = {Operand::A, Operand::B, Operand::C, Operand::D};
    if (ins.sparse()) ops.push_back(Operand::K);
    if (ins.kind == LayoutKind::MfmaScaled && ins.scales) {
        ops.push_back(Operand::SA);
        ops.push_back(Operand::SB);
    }
    return ops;
}

namespace {
void require_operand(const Instruction& ins, const Target& t, Operand op) {
    if (!ins.on(t.family))
        throw Error(ins.mnemonic + " does not exist on " + t.gfx + " (" + std::string(family_title(t.family)) + ")");
    auto ops = operands_of(ins);
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) {
        std::string legal;
        for (Operand o : ops) legal += (legal.empty() ? "" : ", ") + std::string(operand_name(o));
        throw Error("operand " + std::string(operand_name(op)) + " does not exist for " + ins.mnemonic + "; legal: " +
                    legal);
    }
}

// The lanes of an operand's space: the wave's, unless the space has its own
// (Tensor Memory lanes, shared-memory lines, the threads of a tcgen05.ld).
int spec_lanes(const OperandSpec& s, const ResolvedModifiers& mods) { return s.lanes > 0 ? s.lanes : mods.wave; }
}  // namespace

OperandLayout layout_of(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods) {
    require_operand(ins, t, op);
    const OperandSpec s = spec_for(ins, op, mods);
    return LayoutBuilder::build(op, s, spec_lanes(s, mods));
}

OperandLayout layout_of_elements(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods,
                                 const std::vector<Element>& elements) {
    require_operand(ins, t, op);
    const OperandSpec s = spec_for(ins, op, mods);
    return LayoutBuilder::build(op, s, spec_lanes(s, mods), &elements);
}

OperandLayout layout_of_slot(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods, int reg,
                             int lane) {
    require_operand(ins, t, op);
    const OperandSpec s = spec_for(ins, op, mods);
    const int lanes = spec_lanes(s, mods);
    // A slot outside the operand keeps nothing; which() refuses it with its message.
    const bool inside = reg >= 0 && reg < s.regs && lane >= 0 && lane < lanes;
    return LayoutBuilder::build(op, s, lanes, nullptr, inside ? lane * s.regs + reg : -2);
    const OperandSpec spec = spec_for(ins, op, mods);
    return LayoutBuilder::build(op, spec, spec.lanes > 0 ? spec.lanes : mods.wave);
}

bool computes_product(const Instruction& ins) { return ins.kind != LayoutKind::LdStMatrix;
}

OperandLayout layout_of(const Instruction& ins, const Target& t, Operand op, const Modifiers& mods) {
    return layout_of(ins, t, op, resolve_modifiers(ins, t, mods));
}

int operand_regs(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    return spec_for(ins, op, mods).regs;
}

ElemType operand_type(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    return spec_for(ins, op, mods).type;
}

Space operand_space(const Instruction& ins, Operand op, const ResolvedModifiers& mods) { return spec_for(ins, op, mods).space; }

PairSlot pair_slot(const Instruction& ins, Operand op, const ResolvedModifiers& mods, const Location& loc) {
    return detail::tcgen05_pair_slot(ins, op, mods, loc);
}

std::string pair_slot_text(const Instruction& ins, Operand op, const ResolvedModifiers& mods, const Location& loc) {
    const PairSlot p = pair_slot(ins, op, mods, loc);
    if (p.warp < 0) return p.pair ? "CTA" + std::to_string(p.cta) + " L" + std::to_string(p.lane) : "";
    return (p.pair ? "CTA" + std::to_string(p.cta) + " " : std::string()) + "T" + std::to_string(p.lane) + " (warp " +
           std::to_string(p.warp) + ")" + (p.load >= 0 ? ", load " + std::to_string(p.load) + " r" + std::to_string(p.load_reg) : "");
}

namespace {
// An operand in shared memory (wgmma B and SS A, tcgen05.mma A and B) is laid out by its
// matrix descriptor's canonical layout, not by a fragment formula: its own evidence.
Evidence smem_evidence(const Instruction& ins) {
    const bool blackwell = detail::is_tcgen05(ins);
    Evidence e;
    e.sources = blackwell ? "PTX ISA §9.7.16.4.1 (shared memory descriptor), §9.7.16.10.6 (shared memory layout and "
                            "swizzling); CUTLASS mma_sm100_desc.hpp make_umma_desc (UMMA::SmemDescriptor)"
                          : "PTX ISA §9.7.15.5.1.2 (shared memory matrix layout, matrix descriptor); CUTLASS "
                            "mma_sm90_desc.hpp / mma_traits_sm90_gmma.hpp make_gmma_desc (GmmaDescriptor)";
    if (blackwell) {
        e.confidence = "medium";
        e.why = "the descriptor's canonical layout: PTX's text and CUTLASS's make_umma_desc agree, and the same layouts "
                "were measured for wgmma on an H200; not confirmed on hardware: no Blackwell GPU was available";
    } else {
        e.confidence = "high";
        e.why = "the descriptor's canonical layout: PTX's text and CUTLASS's make_gmma_desc agree, measured element by "
                "element on an H200 (every swizzle, both major-nesses, several LBO/SBO and base offsets)";
    }
    return e;
}
}  // namespace

Evidence layout_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    if ((ins.kind == LayoutKind::Wgmma || ins.kind == LayoutKind::Tcgen05Mma) &&
        (op == Operand::A || op == Operand::B) && operand_space(ins, op, mods) == Space::SharedMemory)
        return smem_evidence(ins);
    if (ins.kind == LayoutKind::MmaBlockScale) return detail::mma_block_scale_evidence(ins, op, mods);
    if (!is_gfx1250(ins) && !detail::is_tcgen05(ins)) return {};
    require_layable(ins);
    if (detail::is_tcgen05(ins)) return detail::tcgen05_evidence(ins, op, mods);
    return detail::gfx1250_evidence(ins, op, mods);
}

Evidence instruction_evidence(const Instruction& ins, const ResolvedModifiers& mods) {
    if (!is_gfx1250(ins) && !detail::is_tcgen05(ins) && ins.kind != LayoutKind::MmaBlockScale) return {};
    // The weakest operand's confidence; every operand's alternatives (named by operand).
    auto rank = [](const std::string& c) {
        return c == "high" ? 3 : c == "disputed" || c == "medium" ? 2 : c == "low" ? 1 : 0;
    };
    Evidence out;
    out.confidence = "high";
    int worst = 3;
    for (Operand op : operands_of(ins)) {
        Evidence e = layout_evidence(ins, op, mods);
        if (rank(e.confidence) < worst) {
            worst = rank(e.confidence);
            out.confidence = e.confidence;
            out.sources = e.sources;
            out.why = std::string(operand_name(op)) + ": " + e.why;
        }
        for (Alternative a : e.alternatives) {
            a.reading = std::string(operand_name(op)) + ": " + a.reading;
            out.alternatives.push_back(std::move(a));
        }
    }
    if (worst == 3) {
        out.sources = layout_evidence(ins, operands_of(ins).front(), mods).sources;
        out.why = "every operand: two independent sources agree";
        if (detail::is_tcgen05(ins)) out.why += "; not confirmed on hardware: no Blackwell GPU was available";
    }
    return out;
}

OperandFormat operand_format(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandFormat f;
    f.type = operand_type(ins, op, mods);
    f.title = std::string(elem_name(f.type));
    for (int code = 0; code <= 4; ++code)
        if (format_type(code) == f.type) f.title = format_name(code);
    const bool a = op == Operand::A, b = op == Operand::B;
    if (!a && !b) return f;
    // The fields that pick an f8f6f4 format (modifier_ranges names them the same way).
    if (ins.kind == LayoutKind::MfmaScaled) f.chosen_by = a ? "cbsz=" + std::to_string(mods.cbsz) : "blgp=" + std::to_string(mods.blgp);
    else if (is_gfx1250(ins) && (a ? ins.a : ins.b) == ElemType::F8F6F4)
        f.chosen_by = a ? "matrix_a_fmt=" + std::to_string(mods.matrix_a_fmt) : "matrix_b_fmt=" + std::to_string(mods.matrix_b_fmt);
    return f;
}

int effective_cycles(const Instruction& ins, const ResolvedModifiers& mods) {
    if (ins.kind == LayoutKind::MfmaScaled && (mods.cbsz <= 1 || mods.blgp <= 1)) return ins.cycles_fp8;
    return ins.cycles;
}

std::string family_source(LayoutKind k) {
    switch (k) {
        case LayoutKind::Mfma:
            return "AMD CDNA4 ISA guide §7.1.4 closed form (I4), equal to the AMD Matrix Instruction Calculator (CALC) "
                   "for CDNA1-3; f64 4x4x4 C/D from CALC and the ROCm CDNA4 MFMA builtins page (S0); cbsz/abid/blgp from CALC and I4 Table 29";
        case LayoutKind::MfmaScaled:
            return "AMD CDNA4 ISA guide §7.1.5.1 (FP8 16-element chunks, FP6/FP4 contiguous) and §7.2.1 (E8M0 scales); "
                   "ROCm blog 'Matrix Core Programming on CDNA3 and CDNA4'; rocjitsu MFMA emulator";
        case LayoutKind::SmfmacCdna3:
            return "AMD Matrix Instruction Calculator (hardware-checked, fix f5a87dd); CDNA4 ISA guide Tables 34-37";
        case LayoutKind::SmfmacCdna4:
            return "AMD CDNA4 ISA guide §7.5.1.3 (B and index tables, index-set rules); A and index lanes from AMD's "
                   "composable_kernel (ck_tile gfx950 sparse MFMA, checked by its on-GPU layout test) and the rocjitsu "
                   "emulator (high confidence)";
        case LayoutKind::WmmaRdna3:
            return "AMD Matrix Instruction Calculator (RDNA3); the ROCm RDNA3 WMMA builtins page (S1): tables and store_c example";
        case LayoutKind::WmmaRdna4:
        case LayoutKind::SwmmacRdna4:
            return "AMD Matrix Instruction Calculator v1.3 (RDNA4), checked position by position";
        case LayoutKind::WmmaGfx1250:
        case LayoutKind::WmmaScaleGfx1250:
        case LayoutKind::SwmmacGfx1250:
            return detail::gfx1250_family_source(k);
        case LayoutKind::MmaSync:
        case LayoutKind::MmaSparse:
        case LayoutKind::LdStMatrix:
        case LayoutKind::Wgmma:
        case LayoutKind::MmaBlockScale:
            return detail::nvidia_family_source(k);
        case LayoutKind::Tcgen05Mma:
        case LayoutKind::Tcgen05LdSt:
        case LayoutKind::Tcgen05Cp:
            return detail::tcgen05_family_source(k);
    }
    return "";
}

std::string family_formulas(const Instruction& ins, const ResolvedModifiers& mods) {
    std::string s;
    const auto all = operands_of(ins);
    const bool has_c = std::find(all.begin(), all.end(), Operand::C) != all.end();
    for (Operand op : all) {
        if (op == Operand::D && has_c) continue;  // D is laid out as C
        OperandSpec sp = spec_for(ins, op, mods);
        s += std::string(operand_name(op)) + (op == Operand::C ? "/D" : "") + ": " + sp.formula + "\n";
    }
    if (ins.kind == LayoutKind::Mfma && mods.blgp > 0 && mfma_blgp_moves_data(ins))
        s += "BLGP " + std::to_string(mods.blgp) +
             ": p(l) = " + std::vector<std::string>{"l", "l%32", "l%32 + 32", "(l+16)%64", "l%16", "l%16 + 16",
                                                    "l%16 + 32", "l%16 + 48"}[static_cast<size_t>(mods.blgp)] + "\n";
    return s;
}

std::string modifier_notes(const Instruction& ins, const Target& t) {
    require_layable(ins);
    std::string s;
    auto note = [&](const char* name, const Legal& l) {
        s += std::string(name) + ": " + (l.values.empty() ? "not available (" + l.why + ")" : values_text(l.values) + " — " + l.why) +
             "\n";
    };
    if (ins.vendor() == Vendor::NVIDIA) {
        note("lanes", legal_wave(ins, t));
        if (detail::is_tcgen05(ins)) {
            // Only the Tensor Memory controls this instruction has (named shapes for --tmem-load).
            if (const Legal l = legal_tmem_load(ins); l.values.size() > 1) {
                std::string names;
                for (int v : l.values)
                    if (v > 0) names += (names.empty() ? "" : " ") + text::lower(modifier_value_name("tmem_load", v));
                s += "tmem_load: " + names + " — " + l.why + "\n";
                note("num_warps", legal_num_warps(ins, 1));
            }
            for (const auto& [name, l] : {std::pair<const char*, Legal>{"sfa_id", legal_sf_id(ins, true)},
                                          {"sfb_id", legal_sf_id(ins, false)}, {"half_split", legal_half_split(ins)}})
                if (!l.values.empty()) note(name, l);
            return s;
        }
        note("selector", legal_selector(ins));
        return s;
    }
    note("wave", legal_wave(ins, t));
    if (is_gfx1250(ins)) {
        // Only the controls this instruction has; the CDNA/RDNA4 fields in one line.
        auto control = [&](const char* name, const Legal& l) {
            if (!l.values.empty()) note(name, l);
        };
        control("matrix_a_fmt", legal_matrix_fmt(ins, true));
        control("matrix_b_fmt", legal_matrix_fmt(ins, false));
        control("matrix_a_scale", legal_matrix_scale(ins, true));
        control("matrix_b_scale", legal_matrix_scale(ins, false));
        control("matrix_a_scale_fmt", legal_matrix_scale_fmt(ins));
        control("matrix_b_scale_fmt", legal_matrix_scale_fmt(ins));
        control("index_key", legal_index_key(ins));
        if (ins.kind == LayoutKind::SwmmacGfx1250)
            s += std::string("index width: ") + (elem_bits(ins.a) == 8
                     ? "64 bits (a VGPR pair; the clang-22 builtin takes a 32-bit int and leaves the upper VGPR unwritten)"
                     : "32 bits (one VGPR)") + "\n";
        s += "cbsz, abid, blgp, opsel: not on gfx1250 (those are CDNA and RDNA4 fields)\n";
        s += gfx1250_value_modifiers(ins);
        return s;
    }
    note("cbsz", legal_cbsz(ins));
    note("abid", legal_abid(ins, 0));
    note("blgp", legal_blgp(ins, t));
    note("opsel", legal_opsel(ins, t.default_wave));
    if (ins.kind == LayoutKind::WmmaRdna3 || ins.kind == LayoutKind::WmmaRdna4 || ins.kind == LayoutKind::SwmmacRdna4) {
        if (ins.a == ElemType::IU8 || ins.a == ElemType::IU4)
            s += "neg_lo: the builtin's a_signed/b_signed (signedness; values only); clamp saturates\n";
        else if (ins.a == ElemType::FP8 || ins.a == ElemType::BF8)
            s += "neg/neg_hi: not available on A/B (values only)\n";
        else
            s += "neg/neg_hi: negate A/B halves or C (assembler only; values only)\n";
    }
    return s;
}

Trace trace(const Instruction& ins, const Target& t, const ResolvedModifiers& mods, const Element& d) {
    if (!computes_product(ins))
        throw Error(ins.mnemonic + " moves data and computes no product; trace needs an instruction with D = A*B + C");
    Trace tr;
    tr.d = d;
    OperandLayout D = layout_of(ins, t, Operand::D, mods);
    tr.d_locations = D.where(d);
    const auto ops = operands_of(ins);
    const int b = d.block;
    if (std::find(ops.begin(), ops.end(), Operand::A) != ops.end()) {
        OperandLayout A = layout_of(ins, t, Operand::A, mods);
        for (int k = 0; k < ins.k; ++k) tr.terms.push_back({Operand::A, {b, d.row, k}, A.where({b, d.row, k})});
    } else {
        for (int k = 0; k < ins.k; ++k) tr.terms.push_back({Operand::A, {b, d.row, k}, {}});
    }
    if (std::find(ops.begin(), ops.end(), Operand::B) != ops.end()) {
        OperandLayout B = layout_of(ins, t, Operand::B, mods);
        for (int k = 0; k < ins.k; ++k) tr.terms.push_back({Operand::B, {b, k, d.col}, B.where({b, k, d.col})});
        if (B.space() == Space::SharedMemory)
            tr.note = "B is read from shared memory through its matrix descriptor: its locations are 128-byte lines "
                      "(lane) and banks (reg) of the descriptor's layout, byte = 128*line + 4*bank + bit_lo/8.";
    } else {
        for (int k = 0; k < ins.k; ++k) tr.terms.push_back({Operand::B, {b, k, d.col}, {}});
        tr.note = std::string(std::find(ops.begin(), ops.end(), Operand::A) == ops.end() ? "A and B are" : "B is") +
                  " read from shared memory through " + (std::find(ops.begin(), ops.end(), Operand::A) == ops.end()
                                                             ? "their matrix descriptors; they have"
                                                             : "its matrix descriptor; it has") +
                  " no register slots.";
    }
    OperandLayout C = layout_of(ins, t, Operand::C, mods);
    tr.terms.push_back({Operand::C, d, C.where(d)});
    if (ins.kind == LayoutKind::Tcgen05Mma) {
        if (ins.tcgen05_sparse) {
            OperandLayout Kx = layout_of(ins, t, Operand::K, mods);
            for (int k = 0; k < ins.k; k += 4) tr.terms.push_back({Operand::K, {0, d.row, k}, Kx.where({0, d.row, k})});
        }
        if (ins.scale_vec > 0) {
            OperandLayout SA = layout_of(ins, t, Operand::SA, mods), SB = layout_of(ins, t, Operand::SB, mods);
            for (int j = 0; j < SA.cols(); ++j) tr.terms.push_back({Operand::SA, {0, d.row, j}, SA.where({0, d.row, j})});
            for (int j = 0; j < SB.rows(); ++j) tr.terms.push_back({Operand::SB, {0, j, d.col}, SB.where({0, j, d.col})});
            tr.note += (tr.note.empty() ? "" : " ") + std::string("Each product A[m][k]*B[k][n] is scaled by SFA[m][k/") +
                       std::to_string(ins.k / ins.scale_vec) + "] * SFB[k/" + std::to_string(ins.k / ins.scale_vec) + "][n].";
        }
    } else if (ins.sparse() && ins.vendor() == Vendor::NVIDIA) {
        OperandLayout Kx = layout_of(ins, t, Operand::K, mods);
        for (int k = 0; k < ins.k; k += 4) tr.terms.push_back({Operand::K, {0, d.row, k}, Kx.where({0, d.row, k})});
        tr.note = "2:4 sparsity: in each group of four k, the metadata nibble says which two A values are stored; only "
                  "those two B rows are multiplied. Selector " + std::to_string(mods.selector) +
                  " picks the lanes that give the metadata.";
    } else if (ins.sparse()) {
        OperandLayout Kx = layout_of(ins, t, Operand::K, mods);
        for (int k = 0; k < ins.k; k += 4) tr.terms.push_back({Operand::K, {0, d.row, k}, Kx.where({0, d.row, k})});
        tr.note = "4:2 sparsity: in each group of four k, the index field says which two A values are stored; only "
                  "those two B rows are multiplied.";
    }
    if (ins.kind == LayoutKind::MfmaScaled && ins.scales) {
        OperandLayout SA = layout_of(ins, t, Operand::SA, mods), SB = layout_of(ins, t, Operand::SB, mods);
        for (int kb = 0; kb < ins.k / 32; ++kb) tr.terms.push_back({Operand::SA, {0, d.row, kb}, SA.where({0, d.row, kb})});
        for (int kb = 0; kb < ins.k / 32; ++kb) tr.terms.push_back({Operand::SB, {0, kb, d.col}, SB.where({0, kb, d.col})});
        tr.note = "each product A[i][k]*B[k][j] is scaled by 2^(SA[i][k/32]-127) * 2^(SB[k/32][j]-127).";
    }
    if (ins.kind == LayoutKind::WmmaScaleGfx1250) {
        OperandLayout SA = layout_of(ins, t, Operand::SA, mods), SB = layout_of(ins, t, Operand::SB, mods);
        const int block = ins.k / SA.cols();
        for (int kb = 0; kb < SA.cols(); ++kb) tr.terms.push_back({Operand::SA, {0, d.row, kb}, SA.where({0, d.row, kb})});
        for (int kb = 0; kb < SB.rows(); ++kb) tr.terms.push_back({Operand::SB, {0, kb, d.col}, SB.where({0, kb, d.col})});
        tr.note = "each product A[i][k]*B[k][j] is scaled by SA[i][k/" + std::to_string(block) + "] * SB[k/" +
                  std::to_string(block) + "][j] (scale formats " + modifier_value_name("matrix_a_scale_fmt", mods.matrix_a_scale_fmt) +
                  " / " + modifier_value_name("matrix_b_scale_fmt", mods.matrix_b_scale_fmt) + ").";
    }
    if (ins.kind == LayoutKind::Mfma && mods.cbsz > 0)
        tr.note = "cbsz/abid: block " + std::to_string(b) + " reads A from block " +
                  std::to_string((b >> mods.cbsz << mods.cbsz) + mods.abid) + "'s lanes.";
    return tr;
}

}  // namespace lanescope
