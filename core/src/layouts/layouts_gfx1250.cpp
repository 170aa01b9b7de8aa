// The gfx1250/gfx1251 (CDNA5) layout formulas: WMMA, scaled WMMA and SWMMAC in
// wave32, and the evidence behind each one.
//
// Packing inside a lane: element e of a lane sits at bits [e*b, e*b + b - 1] of
// the lane's operand VGPRs concatenated little-endian (b = 32, 16, 8, 6 or 4;
// 6-bit elements straddle VGPR boundaries). B[k][j] follows A's rule with j in
// place of i.
//
// Named formulas (each cites its sources; confidence in gfx1250_evidence):
//  * dense(w)   A[i][k] in lane i%16 + 16*(floor(k/w)%2), element
//               w*floor(k/2w) + k%w (+ K/2*floor(i/16) for the 32-row A of
//               32x16x128). Triton 3.6 LinearLayoutConversions.cpp (WMMA v3,
//               kWidth = w), AMD's rocjitsu emulator (gfx1250 WMMA), and for
//               16-bit a Triton review ("k 0-7 and 16-23 in lanes 0-15").
//  * acc16      C/D[i][j] in lane j + 16*floor(i/8), element i%8 (Triton WMMA v3,
//               rocjitsu; RDNA4 wave32's rule).
//  * acc32x16   C/D[i][j] in lane j + 16*floor((i%16)/8), VGPR 8*floor(i/16) + i%8
//               (rocjitsu only).
//  * scales     scale[i][kb] in lane i + 16*matrix_a_scale, byte kb of the 32-bit
//               (scale) or 64-bit (scale16) scale operand; kb = floor(k/32) or
//               floor(k/16) (rocjitsu's block-scaled path; Triton's scaled-dot
//               tests put the same byte in lane i and a copy in lanes 16-31).
//  * sparse     SWMMAC: A compressed to K/2 in dense(w) at K/2, given in dense
//               coordinates (a 4:2 group's two stored values share one slot);
//               8-bit B in dense(32); the index in contiguous blocks of groups
//               per lane (rocjitsu only).
#include "lanescope/lanescope.hpp"
#include "layouts/layout_spec.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace lanescope::detail {

namespace {

using std::to_string;

bool scale16(const Instruction& ins) { return ins.builtin_pattern.find("scale16") != std::string::npos; }

// The data format of A or B: the row's own type, or matrix_a_fmt / matrix_b_fmt on f8f6f4.
ElemType ab_type(const Instruction& ins, bool is_a, const ResolvedModifiers& mods) {
    const ElemType t = is_a ? ins.a : ins.b;
    if (t != ElemType::F8F6F4) return t;
    static const ElemType kFormats[] = {ElemType::FP8, ElemType::BF8, ElemType::FP6, ElemType::BF6, ElemType::FP4};
    const int fmt = is_a ? mods.matrix_a_fmt : mods.matrix_b_fmt;
    return fmt >= 0 && fmt <= 4 ? kFormats[fmt] : ElemType::FP8;
}

// Block width w of the dense rule for A/B of this instruction and format.
int dense_width(const Instruction& ins, ElemType t) {
    const int bits = elem_bits(t);
    if (bits == 32) return 2;
    if (bits == 16) return 8;
    if (bits == 8) return 16;  // 16x16x64 and (disputed) 16x16x128
    return 32;                 // FP6/BF6/FP4: 32 values per block
}

// dense(w) for an operand of `rows` (M of A, N of B) by K.
OperandSpec dense_ab(bool is_a, int rows, int K, ElemType t, int w) {
    OperandSpec s;
    s.rows = is_a ? rows : K;
    s.cols = is_a ? K : rows;
    s.type = t;
    s.width = s.stride = elem_bits(t);
    const int per_lane = rows / 16 * K / 2;
    s.regs = per_lane * s.width / 32;
    const std::string idx = is_a ? "i" : "j", W = to_string(w), W2 = to_string(2 * w), half = to_string(K / 2);
    const bool tall = rows > 16;
    s.formula = "lane = " + idx + (tall ? "%16" : "") + " + 16*(floor(k/" + W + ")%2), element e = " +
                (tall ? half + "*floor(" + idx + "/16) + " : "") + W + "*floor(k/" + W2 + ") + k%" + W + " (" +
                to_string(s.width) + "-bit elements packed from bit 0" +
                (s.width == 6 ? ", straddling VGPR boundaries" : "") + ").  Inverse: " + idx + " = lane%16" +
                (tall ? " + 16*floor(e/" + half + ")" : "") + ", k = " + W2 + "*floor(e" + (tall ? "%" + half : "") +
                "/" + W + ") + " + W + "*floor(lane/16) + e%" + W + ".";
    s.place = [=](int, int r, int c, std::vector<Slot>& out) {
        const int row = is_a ? r : c, k = is_a ? c : r;
        out.push_back({row % 16 + 16 * ((k / w) % 2), K / 2 * (row / 16) + w * (k / (2 * w)) + k % w});
    };
    return s;
}

OperandSpec accumulator(const Instruction& ins, ElemType t) {
    OperandSpec s;
    s.rows = ins.m;
    s.cols = ins.n;
    s.type = t;
    s.width = s.stride = elem_bits(t);
    const int items = ins.m / 2;  // 8 per lane for 16 rows, 16 for 32
    s.regs = items * s.width / 32;
    if (ins.m == 32) {
        s.formula = "lane = j + 16*floor((i%16)/8), VGPR = 8*floor(i/16) + i%8.  Inverse: j = lane%16, i = 16*floor(G/8) "
                    "+ 8*floor(lane/16) + G%8.";
        s.place = [](int, int i, int j, std::vector<Slot>& out) { out.push_back({j + 16 * ((i % 16) / 8), 8 * (i / 16) + i % 8}); };
        return s;
    }
    s.formula = "lane = j + 16*floor(i/8), element e = i%8 (" + to_string(s.width) +
                "-bit elements packed).  Inverse: j = lane%16, i = 8*floor(lane/16) + e.";
    s.place = [](int, int i, int j, std::vector<Slot>& out) { out.push_back({j + 16 * (i / 8), i % 8}); };
    return s;
}

ElemType scale_type(int fmt) { return fmt == 1 ? ElemType::E5M3 : fmt == 2 ? ElemType::E4M3 : ElemType::E8M0; }

OperandSpec scale_operand(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const bool is_a = op == Operand::SA;
    const int M = is_a ? ins.m : ins.n, block = scale16(ins) ? 16 : 32, KB = ins.k / block;
    const int sel = is_a ? mods.matrix_a_scale : mods.matrix_b_scale;
    s.rows = is_a ? M : KB;
    s.cols = is_a ? KB : M;
    s.type = scale_type(is_a ? mods.matrix_a_scale_fmt : mods.matrix_b_scale_fmt);
    s.width = s.stride = 8;
    s.regs = KB * 8 / 32;
    const std::string idx = is_a ? "i" : "j";
    const int lane_add = M > 16 ? 0 : 16 * sel;
    s.formula = std::string(is_a ? "scale_a[i][kb]" : "scale_b[kb][j]") + ": lane = " + idx +
                (lane_add ? " + 16" : "") + " (matrix_" + (is_a ? "a" : "b") + "_scale " + (sel ? "ROW1" : "ROW0") +
                "), byte kb of the " + to_string(32 * s.regs) + "-bit scale operand; kb = floor(k/" + to_string(block) +
                ") (" + std::string(elem_name(s.type)) + ").";
    s.place = [=](int, int r, int c, std::vector<Slot>& out) {
        const int row = is_a ? r : c, kb = is_a ? c : r;
        out.push_back({row + lane_add, kb});
    };
    return s;
}

// SWMMAC A in dense coordinates: the compressed A (K/2 stored values per row) in
// dense(w) at K/2; a 4:2 group's two stored values are adjacent elements, so
// the group's slot is one 2b-bit pair.
OperandSpec sparse_a(const Instruction& ins) {
    OperandSpec s;
    const int w = dense_width(ins, ins.a), hw = w / 2, b = elem_bits(ins.a);
    s.rows = 16;
    s.cols = ins.k;
    s.type = ins.a;
    s.width = s.stride = 2 * b;
    s.regs = ins.k / 8 * 2 * b / 32;
    const std::string H = to_string(hw), W = to_string(w);
    s.formula = "stored values at K/2 in the dense rule (blocks of " + W + "); for the 4:2 group of k: lane = i + 16*(floor(k/" +
                to_string(4 * hw) + ")%2), pair q = " + H + "*floor(k/" + to_string(4 * w) + ") + floor(k/4)%" + H +
                " holds the group's two stored values (lower k first).  Inverse: i = lane%16, k in 4*(" +
                to_string(2 * hw) + "*floor(q/" + H + ") + " + H + "*floor(lane/16) + q%" + H + ") + {0..3}.";
    s.place = [=](int, int i, int k, std::vector<Slot>& out) {
        const int g = k / 4;
        out.push_back({i + 16 * ((g / hw) % 2), hw * (g / w) + g % hw});
    };
    return s;
}

OperandSpec sparse_index(const Instruction& ins, const ResolvedModifiers&) {
    OperandSpec s;
    const int G = ins.k / 8;  // 4:2 groups per lane: 8 (16-bit, 32-bit index) or 16 (8-bit, 64-bit index)
    s.rows = 16;
    s.cols = ins.k;
    s.type = ElemType::IDX;
    s.width = s.stride = 4;
    s.regs = G * 4 / 32;
    const std::string g = to_string(G);
    s.formula = "lane = i + 16*floor(k/" + to_string(4 * G) + "), 4-bit field q = floor(k/4)%" + g + " at bits 4q of the " +
                to_string(32 * s.regs) +
                "-bit index (bits [1:0] locate the first stored value, [3:2] the second).  Inverse: i = lane%16, k in "
                "4*(" + g + "*floor(lane/16) + q) + {0..3}.";
    s.place = [=](int, int i, int k, std::vector<Slot>& out) {
        const int grp = k / 4;
        out.push_back({i + 16 * (grp / G), grp % G});
    };
    return s;
}

}  // namespace

OperandSpec gfx1250_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    if (op == Operand::C) return accumulator(ins, ins.c);
    if (op == Operand::D) return accumulator(ins, ins.d_type());
    if (op == Operand::SA || op == Operand::SB) return scale_operand(ins, op, mods);
    if (op == Operand::K) return sparse_index(ins, mods);
    const bool is_a = op == Operand::A;
    if (ins.kind == LayoutKind::SwmmacGfx1250) {
        if (is_a) return sparse_a(ins);
        // B: 16-bit in dense(8) at K = 64; 8-bit at K = 128 in 32-element blocks.
        return dense_ab(false, 16, ins.k, ins.b, elem_bits(ins.b) == 8 ? 32 : dense_width(ins, ins.b));
    }
    const ElemType t = ab_type(ins, is_a, mods);
    return dense_ab(is_a, is_a ? ins.m : ins.n, ins.k, t, dense_width(ins, t));
}

std::vector<Operand> gfx1250_operands(const Instruction& ins) {
    std::vector<Operand> ops = {Operand::A, Operand::B, Operand::C, Operand::D};
    if (ins.kind == LayoutKind::SwmmacGfx1250) ops.push_back(Operand::K);
    if (ins.kind == LayoutKind::WmmaScaleGfx1250) {
        ops.push_back(Operand::SA);
        ops.push_back(Operand::SB);
    }
    return ops;
}

std::string gfx1250_geometry(const Instruction& ins) {
    const std::string shape = ins.shape() + " with " + std::string(elem_name(ins.a)) + " A";
    if (ins.blocks != 1) return "shape " + shape + " has more than one block";
    const int bits = elem_bits(ins.a);
    const bool scaled = ins.kind == LayoutKind::WmmaScaleGfx1250;
    if ((ins.prefix_opcode != 0) != scaled)
        return scaled ? "a scaled row needs its prefix opcode (35+.. or 3a+..)"
                      : "only wmma_scale_gfx1250 rows have a prefix opcode";
    if (ins.d && !(ins.c == ElemType::F32 && *ins.d == ElemType::BF16 && elem_bits(ins.a) == 16))
        return "a D type different from C's is bf16 from an f32 C with 16-bit A/B (bf16f32) only";
    if (ins.kind == LayoutKind::SwmmacGfx1250) {
        if (ins.m == 16 && ins.n == 16 && ((bits == 16 && ins.k == 64) || (bits == 8 && ins.k == 128))) return {};
        return "shape " + shape + " has no gfx1250 SWMMAC layout";
    }
    if (ins.m == 32 && ins.n == 16 && ins.k == 128 && ins.a == ElemType::FP4) return {};
    if (ins.m != 16 || ins.n != 16) return "shape " + shape + " has no gfx1250 WMMA layout";
    if (ins.a == ElemType::F8F6F4 && ins.k == 128) return {};
    if (scaled) return "scaled rows are f8f6f4 16x16x128 or fp4 32x16x128";
    if ((bits == 32 && ins.k == 4) || (bits == 16 && ins.k == 32) || (bits == 8 && (ins.k == 64 || ins.k == 128))) return {};
    return "shape " + shape + " has no gfx1250 WMMA layout";
}

const char* gfx1250_geometry_legal() {
    return "16x16x4 f32, 16x16x32 f16/bf16, 16x16x64 and 16x16x128 8-bit, 16x16x128 f8f6f4, 32x16x128 fp4 "
           "(scaled: f8f6f4 16x16x128, fp4 32x16x128); SWMMAC 16x16x64 16-bit, 16x16x128 8-bit";
}

std::string gfx1250_family_source(LayoutKind k) {
    const std::string dense =
        "dense A/B block rule and C/D: Triton 3.6 lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (AMD WMMA "
        "version 3, kWidth 2/8/16; equal to Triton 3.6's own dump for every 16x16x{4,32,64,128} operand) and AMD's "
        "rocjitsu emulator (gfx1250 WMMA); 8-bit 16x16x128 disputed by a quotation of the CDNA5 ISA guide §7.12.2 "
        "(w = 8); FP6/FP4 and 32x16x128 f4 from rocjitsu (and Triton's scaled-dot layouts)";
    switch (k) {
        case LayoutKind::WmmaGfx1250: return dense;
        case LayoutKind::WmmaScaleGfx1250:
            return dense + "; scales from rocjitsu's block-scaled path (Triton's scaled-dot tests: same byte, lane i)";
        case LayoutKind::SwmmacGfx1250:
            return "AMD's rocjitsu emulator only (gfx1250 SWMMAC: compressed A in the dense rule at K/2, 8-bit B in "
                   "32-element blocks, the index in contiguous blocks); C/D as dense WMMA (Triton 3.6, rocjitsu)";
        default: return "";
    }
}

// ------------------------------------------------------------- evidence ----

namespace {
const char* kTriton = "Triton 3.6 (LinearLayoutConversions.cpp, AMD WMMA version 3; its own layout dump)";
const char* kRocjitsu = "AMD's rocjitsu GPU emulator (gfx1250 WMMA)";

Evidence high(std::string sources, std::string why) { return {"high", std::move(sources), std::move(why), {}}; }
Evidence one_source(std::string sources, std::string why) {
    return {"low, one source", std::move(sources), std::move(why), {}};
}

// Which elements an alternative block width would move, counted by the formulas.
std::string moved_by(const Instruction& ins, bool is_a, ElemType t, int w_chosen, int w_other) {
    const int rows = is_a ? ins.m : ins.n;
    OperandSpec a = dense_ab(is_a, rows, ins.k, t, w_chosen), b = dense_ab(is_a, rows, ins.k, t, w_other);
    std::vector<int> moved;
    std::vector<Slot> sa, sb;
    for (int k = 0; k < ins.k; ++k) {
        sa.clear();
        sb.clear();
        a.place(0, is_a ? 0 : k, is_a ? k : 0, sa);
        b.place(0, is_a ? 0 : k, is_a ? k : 0, sb);
        if (sa[0].lane != sb[0].lane || sa[0].item != sb[0].item) moved.push_back(k);
    }
    // Runs of k, e.g. "k 8-15, 24-31, ...".
    std::string runs;
    for (size_t n = 0; n < moved.size();) {
        size_t m = n;
        while (m + 1 < moved.size() && moved[m + 1] == moved[m] + 1) ++m;
        runs += (runs.empty() ? "" : ", ") + to_string(moved[n]) + (m > n ? "-" + to_string(moved[m]) : "");
        n = m + 1;
    }
    return to_string(moved.size()) + " of every " + to_string(ins.k) + " k move to another lane or element (k " + runs +
           ", in every " + (is_a ? "row" : "column") + "); a plain GEMM with A and B both read this way gives the same D, "
           "so only mixed layouts (transpose loads, block scales, one operand from elsewhere) tell them apart";
}
}  // namespace

Evidence gfx1250_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    const std::string both = std::string(kTriton) + "; " + kRocjitsu;
    if (op == Operand::C || op == Operand::D) {
        if (ins.m == 32)
            return one_source(kRocjitsu, "the 32x16 accumulator appears in rocjitsu only (Triton 3.6 has no 32x16 WMMA)");
        return high(both, "two independent sources agree (the same rule as RDNA4 wave32)");
    }
    if (op == Operand::SA || op == Operand::SB)
        return one_source(std::string(kRocjitsu) + " (block-scaled path)",
                          "rocjitsu alone says which half-wave matrix_a/b_scale selects and where scale16 puts its "
                          "16-wide blocks; Triton's scaled-dot tests agree on byte floor(k/32) in lane i only");
    if (op == Operand::K)
        return one_source(kRocjitsu, std::string("rocjitsu alone gives the index: contiguous blocks of 4:2 groups per lane "
                                                 "(") + (elem_bits(ins.a) == 8 ? "16 groups, 64 bits" : "8 groups, 32 bits; "
                                                 "the 16-bit split is read by analogy with the 8-bit one") + ")");
    const bool is_a = op == Operand::A;
    if (ins.kind == LayoutKind::SwmmacGfx1250)
        return one_source(kRocjitsu, is_a ? "compressed A in the dense rule at K/2: rocjitsu only"
                                          : (elem_bits(ins.b) == 8 ? "8-bit B at K = 128 in 32-element blocks (rocjitsu's "
                                                                     "comment: unlike dense WMMA K = 128): rocjitsu only"
                                                                   : "16-bit B in the dense rule at K = 64: rocjitsu only"));
    if (ins.m == 32 && is_a)
        return one_source(kRocjitsu, "the 32-row FP4 A (rows 16-31 in VGPRs 8-15) appears in rocjitsu only");
    const ElemType t = ab_type(ins, is_a, mods);
    const int bits = elem_bits(t);
    if (bits == 6 || bits == 4) {
        Evidence e{"low", std::string(kRocjitsu) + " (block-scaled path); Triton's scaled-dot layouts",
                   "FP6/FP4 in 32-value blocks: Triton's scaled-dot layouts and rocjitsu's block-scaled path agree, "
                   "but rocjitsu's unscaled path places them differently and no hardware test is public",
                   {}};
        return e;
    }
    if (bits == 8 && ins.k == 128) {
        Evidence e{"disputed", std::string(kTriton) + " (kWidth 16); " + kRocjitsu + " (its PR: hardware-validated)",
                   "the chosen reading w = 16 is Triton's and rocjitsu's; a second reading exists", {}};
        e.alternatives.push_back(
            {"w = 8: " + std::string(is_a ? "A[i][k] in lane i" : "B[k][j] in lane j") +
                 " + 16*(floor(k/8)%2), element 8*floor(k/16) + k%8",
             "a reviewer's quotation of AMD's CDNA5 ISA guide §7.12.2 (the guide itself is not public)",
             moved_by(ins, is_a, t, 16, 8)});
        return e;
    }
    std::string why = "two independent sources agree";
    if (bits == 16) why += " (and a Triton review: \"k 0-7 and 16-23 in lanes 0-15\")";
    return high(both, why);
}

}  // namespace lanescope::detail
