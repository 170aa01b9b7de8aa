// NVIDIA layout families: mma.sync, mma.sp, ldmatrix/stmatrix, wgmma.
//
// Vocabulary: a lane is a thread of the warp (0..31; for wgmma the thread's
// index T = 0..127 in its warpgroup); g = lane/4 (PTX's groupID), t = lane%4
// (threadID_in_group). Element i of a thread's operand is PTX's a_i / b_i / c_i
// / d_i; it sits at bits [w*i, w*i+w) of the operand's registers concatenated,
// the lower index in the lower bits (w = element width; f64 takes two 32-bit
// registers, low word first). Each placement below is the inverse map
// (row, col) -> (lane, i) of the forward form PTX states per lane.
//
// Sources (keys as in docs/sources.md): PTX ISA 9.0 fragment sections, restated
// as closed forms (REF: docs/sources.md), whose
// every form was checked on an H200 (216 of 216). Sections are cited per family.
#include "lanescope/lanescope.hpp"
#include "layouts/layout_spec.hpp"

#include <algorithm>
#include <string>

namespace lanescope::detail {

namespace {

std::string str(int v) { return std::to_string(v); }

// Elements per 32-bit register (f64: per 64-bit register pair): PTX's packing.
int per_reg(ElemType t) {
    const int w = elem_bits(t);
    return std::max(32, w) / w;
}

// --- mma.sync (PTX 9.7.14.5.2-.11) ---------------------------------

// A, M = 16: row = g + 8*(r%2), col = p*t + e + 4p*floor(r/2) with r = floor(i/p), e = i%p.
// A, M = 8:  row = g, col = p*t + i.
OperandSpec mma_a(const Instruction& ins, ElemType type) {
    OperandSpec s;
    const int M = ins.m, K = ins.k, p = per_reg(type), w = elem_bits(type);
    s.rows = M;
    s.cols = K;
    s.type = type;
    s.width = s.stride = w;
    s.regs = M * K / 32 * w / 32;
    const std::string P = str(p), P4 = str(4 * p);
    if (M == 8) {
        s.formula = "lane = 4*row + floor(col/" + P + "), i = col%" + P + ".  Forward: row = g, col = " + P +
                    "*t + i (g = lane/4, t = lane%4).";
        s.place = [=](int, int row, int col, std::vector<Slot>& out) { out.push_back({4 * row + col / p, col % p}); };
        return s;
    }
    s.formula = "lane = 4*(row%8) + floor((col%" + P4 + ")/" + P + "), i = " + P + "*(floor(row/8) + 2*floor(col/" + P4 +
                ")) + col%" + P + ".  Forward: row = g + 8*(r%2), col = " + P + "*t + e + " + P4 +
                "*floor(r/2) (r = floor(i/" + P + "), e = i%" + P + "; g = lane/4, t = lane%4).";
    s.place = [=](int, int row, int col, std::vector<Slot>& out) {
        out.push_back({4 * (row % 8) + (col % (4 * p)) / p, p * (row / 8 + 2 * (col / (4 * p))) + col % p});
    };
    return s;
}

// B (N = 8): k = p*t + e + 4p*r, n = g.
OperandSpec mma_b(const Instruction& ins, ElemType type) {
    OperandSpec s;
    const int K = ins.k, p = per_reg(type), w = elem_bits(type);
    s.rows = K;
    s.cols = 8;
    s.type = type;
    s.width = s.stride = w;
    s.regs = K * 8 / 32 * w / 32;
    const std::string P = str(p), P4 = str(4 * p);
    s.formula = "lane = 4*n + floor((k%" + P4 + ")/" + P + "), i = " + P + "*floor(k/" + P4 + ") + k%" + P +
                ".  Forward: k = " + P + "*t + e + " + P4 + "*r, n = g (r = floor(i/" + P + "), e = i%" + P + ").";
    s.place = [=](int, int k, int n, std::vector<Slot>& out) {
        out.push_back({4 * n + (k % (4 * p)) / p, p * (k / (4 * p)) + k % p});
    };
    return s;
}

// C/D 16x8: row = g + 8*floor(i/2), col = 2t + i%2; 8x8: row = g, col = 2t + i.
OperandSpec mma_cd(const Instruction& ins) {
    OperandSpec s;
    const int M = ins.m, w = elem_bits(ins.c);
    s.rows = M;
    s.cols = 8;
    s.type = ins.c;
    s.width = s.stride = w;
    s.regs = M * 8 / 32 * w / 32;
    if (M == 8) {
        s.formula = "lane = 4*row + floor(col/2), i = col%2.  Forward: row = g, col = 2t + i.";
        s.place = [](int, int row, int col, std::vector<Slot>& out) { out.push_back({4 * row + col / 2, col % 2}); };
        return s;
    }
    s.formula = "lane = 4*(row%8) + floor(col/2), i = 2*floor(row/8) + col%2.  Forward: row = g + 8*floor(i/2), col = "
                "2t + i%2.";
    s.place = [](int, int row, int col, std::vector<Slot>& out) {
        out.push_back({4 * (row % 8) + col / 2, 2 * (row / 8) + col % 2});
    };
    return s;
}

// --- mma.sp (PTX 9.7.14.6) ---------------------------------------------
// A in dense coordinates (16 x K): the four k of chunk c = floor(k/4) share the
// 32-bit register holding the chunk's two kept values (register floor(row/8) +
// 2*floor(c/4) of lane 4*(row%8) + c%4). K (metadata) in dense coordinates: the
// chunk's 4-bit field (bits 1:0 index of the low half's value, 3:2 the high
// half's) at bit 16*floor(row/8) + 4*(c%4) of lane 4*(row%8) + f (k16) or
// 4*(row%8) + 2f + floor(c/4) (k32), f the selector.
OperandSpec sparse_a(const Instruction& ins) {
    OperandSpec s;
    s.rows = 16;
    s.cols = ins.k;
    s.type = ins.a;
    s.width = s.stride = 32;
    s.regs = ins.k / 8;
    s.formula = "chunk c = floor(k/4): lane = 4*(row%8) + c%4, register floor(row/8) + 2*floor(c/4) holds the chunk's "
                "two kept values (bits 15:0 the one the metadata's first index names, 31:16 the second).";
    s.place = [](int, int row, int k, std::vector<Slot>& out) {
        const int c = k / 4;
        out.push_back({4 * (row % 8) + c % 4, row / 8 + 2 * (c / 4)});
    };
    return s;
}

OperandSpec sparse_k(const Instruction& ins, int selector) {
    OperandSpec s;
    s.rows = 16;
    s.cols = ins.k;
    s.type = ElemType::IDX;
    s.width = s.stride = 4;
    s.regs = 1;
    const bool k32 = ins.k == 32;
    s.formula = "chunk c = floor(k/4): 4-bit field at bits 16*floor(row/8) + 4*(c%4) of lane 4*(row%8) + " +
                std::string(k32 ? "2*f + floor(c/4)" : "f") + " (selector f = " + str(selector) +
                "; bits 1:0 index the low half's value in the chunk, 3:2 the high half's).  Only " +
                (k32 ? "lanes 4g + 2f and 4g + 2f + 1" : "lane 4g + f") + " of each quad give metadata.";
    s.place = [=](int, int row, int k, std::vector<Slot>& out) {
        const int c = k / 4;
        const int lane = 4 * (row % 8) + (k32 ? 2 * selector + c / 4 : selector);
        out.push_back({lane, 4 * (row / 8) + c % 4});
    };
    return s;
}

// --- ldmatrix / stmatrix (PTX 9.7.14.5.15-16) ------------------------------
// Block m = matrix m; row r of matrix m is the row whose address lane 8m + r gives.
OperandSpec ldst(const Instruction& ins) {
    OperandSpec s;
    s.blocks = ins.blocks;
    s.rows = 8;
    s.cols = 8;
    s.type = ins.a;
    s.width = s.stride = 16;
    s.regs = ins.blocks;
    if (ins.transposed) {
        s.formula = "matrix m -> register m; lane = 4*col + floor(row/2), bits " "[16*(row%2)+15 : 16*(row%2)] (.trans: "
                    "register m of lane 4g + t holds M_m[2t][g] low, M_m[2t+1][g] high).";
        s.place = [](int m, int row, int col, std::vector<Slot>& out) { out.push_back({4 * col + row / 2, 2 * m + row % 2}); };
    } else {
        s.formula = "matrix m -> register m; lane = 4*row + floor(col/2), bits [16*(col%2)+15 : 16*(col%2)] (register m "
                    "of lane 4g + t holds M_m[g][2t] low, M_m[g][2t+1] high).";
        s.place = [](int m, int row, int col, std::vector<Slot>& out) { out.push_back({4 * row + col / 2, 2 * m + col % 2}); };
    }
    return s;
}

// --- wgmma (PTX 9.7.15.5.1.1 figures; CuTe ALayout_64xK / CLayout_64xN) --------
// Warp w = floor(T/32) holds rows 16w..16w+15 in the mma m16n8kK fragment form.
OperandSpec wgmma_a(const Instruction& ins) {
    OperandSpec s;
    const int p = per_reg(ins.a), w = elem_bits(ins.a);
    s.rows = 64;
    s.cols = ins.k;
    s.type = ins.a;
    s.width = s.stride = w;
    s.regs = 4;
    const std::string P = str(p), P4 = str(4 * p);
    s.formula = "T = 32*floor(row/16) + 4*(row%8) + floor((col%" + P4 + ")/" + P + "), i = " + P +
                "*(floor((row%16)/8) + 2*floor(col/" + P4 + ")) + col%" + P + ".  Forward: row = 16w + g + 8*(r%2), col = " +
                P + "*t + e + " + P4 + "*floor(r/2) (w = floor(T/32), r = floor(i/" + P + "), e = i%" + P + ").";
    s.place = [=](int, int row, int col, std::vector<Slot>& out) {
        out.push_back({32 * (row / 16) + 4 * (row % 8) + (col % (4 * p)) / p,
                       p * ((row % 16) / 8 + 2 * (col / (4 * p))) + col % p});
    };
    return s;
}

OperandSpec wgmma_d(const Instruction& ins) {
    OperandSpec s;
    const int w = elem_bits(ins.c);
    s.rows = 64;
    s.cols = ins.n;
    s.type = ins.c;
    s.width = s.stride = w;
    s.regs = ins.n / 2 * w / 32;
    s.formula = "T = 32*floor(row/16) + 4*(row%8) + floor((col%8)/2), i = 4*floor(col/8) + 2*floor((row%16)/8) + col%2."
                "  Forward: row = 16w + g + 8*(floor(i/2)%2), col = 8*floor(i/4) + 2t + i%2 (w = floor(T/32)).";
    s.place = [](int, int row, int col, std::vector<Slot>& out) {
        out.push_back({32 * (row / 16) + 4 * (row % 8) + (col % 8) / 2, 4 * (col / 8) + 2 * ((row % 16) / 8) + col % 2});
    };
    return s;
}

}  // namespace

std::vector<Operand> nvidia_operands(const Instruction& ins) {
    switch (ins.kind) {
        case LayoutKind::MmaSparse: return {Operand::A, Operand::B, Operand::C, Operand::D, Operand::K};
        case LayoutKind::LdStMatrix: return {Operand::D};
        case LayoutKind::Wgmma: return {Operand::A, Operand::B, Operand::C, Operand::D};  // B in shared memory
        default: return {Operand::A, Operand::B, Operand::C, Operand::D};
    }
}

std::vector<int> nvidia_selectors(const Instruction& ins) {
    if (ins.kind != LayoutKind::MmaSparse) return {};
    if (ins.k == 32) return {0, 1};
    return {0, 1, 2, 3};
}

OperandSpec nvidia_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    const auto ops = nvidia_operands(ins);
    if (std::find(ops.begin(), ops.end(), op) == ops.end())
        throw Error("operand " + std::string(operand_name(op)) + " does not exist for " + ins.mnemonic);
    const Operand acc = op == Operand::D ? Operand::C : op;
    switch (ins.kind) {
        case LayoutKind::MmaSync:
            if (acc == Operand::A) return mma_a(ins, ins.a);
            if (acc == Operand::B) return mma_b(ins, ins.b);
            return mma_cd(ins);
        case LayoutKind::MmaSparse:
            if (acc == Operand::A) return sparse_a(ins);
            if (acc == Operand::K) return sparse_k(ins, mods.selector);
            if (acc == Operand::B) return mma_b(ins, ins.b);
            return mma_cd(ins);
        case LayoutKind::LdStMatrix: return ldst(ins);
        case LayoutKind::Wgmma:
            // B (and A in the SS form) in shared memory, laid out from its descriptor (nvidia_smem.cpp).
            if (acc == Operand::B || (acc == Operand::A && mods.smem_a == 1)) return smem_operand_spec(ins, op, mods);
            return acc == Operand::A ? wgmma_a(ins) : wgmma_d(ins);
        default: break;
    }
    throw Error("internal: " + ins.mnemonic + " is not in an NVIDIA layout family");
}

std::string nvidia_family_source(LayoutKind k) {
    switch (k) {
        case LayoutKind::MmaSync:
            return "PTX ISA 9.0 §9.7.14.5.2-.11 'Matrix Fragments for mma.mMnNkK' (one section per shape, cited per "
                   "row), as one closed form (docs/sources.md, mma_sync); hardware-checked on an H200 "
                   "(high confidence)";
        case LayoutKind::MmaSparse:
            return "PTX ISA 9.0 §9.7.14.6 sparse mma (fragments §9.7.14.6.2.1-2; the metadata only as figures), closed "
                   "form in docs/sources.md (mma_sp), hardware-checked on an H200 for every selector (high confidence)";
        case LayoutKind::LdStMatrix:
            return "PTX ISA 9.0 §9.7.14.5.15 ldmatrix and §9.7.14.5.16 stmatrix; hardware-checked on an "
                   "H200 with scattered row addresses (high confidence)";
        case LayoutKind::Wgmma:
            return "PTX ISA 9.0 §9.7.15.5.1.1 'Register Fragments' (figures only) and CuTe SM90 GMMA ALayout_64xK / "
                   "CLayout_64xN; one closed form (docs/sources.md, wgmma), hardware-checked on an H200 for the N of "
                   "docs/verification "
                   "(high confidence)";
        default: return "";
    }
}

std::string nvidia_address_rule(const Instruction& ins) {
    if (ins.kind != LayoutKind::LdStMatrix) return "";
    const int n = ins.blocks;
    std::string s = "lane 8m + r (m < " + str(n) + ", r = 0..7) supplies the shared-memory address of row r of matrix m "
                    "(8 consecutive b16, 16-byte aligned)";
    if (n < 4) s += "; the addresses of lanes " + str(8 * n) + "-31 are ignored";
    s += ". " + std::string(ins.store ? "stmatrix writes" : "ldmatrix reads") + " matrix m through register m" +
         (ins.transposed ? ", transposed (.trans)" : "") + ".";
    return s;
}

}  // namespace lanescope::detail
