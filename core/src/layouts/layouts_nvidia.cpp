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
#include "lanescope/numbers.hpp"
#include "layouts/layout_spec.hpp"

#include <algorithm>
#include <string>

namespace lanescope::detail {

// An 8-bit container's value bits (offset, width): e4m3/e5m2 fill it, e3m2/e2m3 take bits 5:0,
// e2m1 bits 5:2 (PTX ISA §9.7.14.5.14's text for mma.sync's registers; CUTLASS fp4_shift_A/B).
std::pair<int, int> fp_container_bits(ElemType t) {
    if (t == ElemType::FP4) return {2, 4};
    if (t == ElemType::FP6 || t == ElemType::BF6) return {0, 6};
    return {0, 8};
}

namespace {


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
    const std::string P = num(p), P4 = num(4 * p);
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
    const std::string P = num(p), P4 = num(4 * p);
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
                std::string(k32 ? "2*f + floor(c/4)" : "f") + " (selector f = " + num(selector) +
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
    const std::string P = num(p), P4 = num(4 * p);
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
    // The forward form above: thread T's element i (g = (T%32)/4, t = T%4).
    const int n = ins.n;
    s.candidates = [n](int lane, int i, std::vector<Element>& out) {
        const int w = lane / 32, g = (lane % 32) / 4, t = lane % 4;
        const int row = 16 * w + g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * t + i % 2;
        if (row < 64 && col < n) out.push_back({0, row, col});
    };
    return s;
}

// --- sm_120 mma.sync kind::f8f6f4 / mxf8f6f4 / mxf4 / mxf4nvf4 (PTX 9.7.14.5.14) ---
// A, B, C, D are mma.sync's m16n8k32 / m16n8k64 fragments (PTX 9.7.14.5.10-.11;
// CUTLASS mma_traits_sm120.hpp SM120_16x8x32_TN, SM120_16x8x64_TN_VS). Under
// kind::f8f6f4 and mxf8f6f4 every element sits in an 8-bit container: e4m3/e5m2
// fill it, e3m2/e2m3 take bits 5:0, e2m1 bits 5:2 (PTX 9.7.14.5.14; CUTLASS's
// fp4_shift_A/B). kind::mxf4 / mxf4nvf4 pack two e2m1 per byte.
bool containers(const Instruction& ins) { return ins.mma_kind == "f8f6f4" || ins.mma_kind == "mxf8f6f4"; }

std::pair<int, int> container_bits(ElemType t) { return fp_container_bits(t); }

OperandSpec block_scale_ab(const Instruction& ins, Operand op) {
    const ElemType t = op == Operand::A ? ins.a : ins.b;
    Instruction dense = ins;
    if (ins.tcgen05_sparse) dense.k = ins.k / 2;  // B of a sparse form: the dense fragment of K rows
    if (op == Operand::B) dense.k = ins.k;
    OperandSpec s = op == Operand::A ? mma_a(dense, containers(ins) ? ElemType::E4M3 : t)
                                     : mma_b(dense, containers(ins) ? ElemType::E4M3 : t);
    if (containers(ins)) {
        const auto [offset, width] = container_bits(t);
        s.type = t;
        s.offset = offset;
        s.width = width;
        s.formula += "  Each element in an 8-bit container" +
                     std::string(width == 8 ? "" : ", value bits " + num(offset + width - 1) + ":" + num(offset)) + ".";
    }
    return s;
}

// Sparse A (mma.sp::ordered_metadata, 2:4): dense coordinates 16 x K; the two kept
// values of chunk c = floor(k/4) sit together (16 bits of 8-bit containers, or 8
// bits of packed e2m1) where the compressed 16 x K/2 A's dense fragment puts
// compressed columns 2c, 2c+1.
OperandSpec block_scale_sparse_a(const Instruction& ins) {
    OperandSpec s;
    s.rows = 16;
    s.cols = ins.k;
    s.type = ins.a;
    const bool c8 = containers(ins);
    const int pair_bits = c8 ? 16 : 8, per = 32 / pair_bits, span = 4 * (c8 ? 4 : 8);  // compressed cols per lane group
    s.width = s.stride = pair_bits;
    s.regs = 4;
    s.formula = "chunk c = floor(k/4), j = 2c: lane = 4*(row%8) + floor((j%" + num(span) + ")/" + num(span / 4) +
                "), register floor(row/8) + 2*floor(j/" + num(span) + ") holds the chunk's two kept values (" +
                num(pair_bits) + " bits; the metadata names which).";
    s.place = [=](int, int row, int k, std::vector<Slot>& out) {
        const int j = 2 * (k / 4);
        const int lane = 4 * (row % 8) + (j % span) / (span / 4);
        const int reg = row / 8 + 2 * (j / span);
        out.push_back({lane, per * reg + (j % (span / 4)) / 2});
    };
    return s;
}

// sm_120's sparse metadata (mma.sp::ordered_metadata m16n8k64 kind::f8f6f4 / mxf8f6f4, m16n8k128
// kind::mxf4 / mxf4nvf4): the sparse index operand K of sparse_k, in dense coordinates 16 x K. A
// row has 16 chunks (2:4 of 8-bit containers: 4 k each; e2m1 packed, pairwise 4:8: 8 k each),
// 4 bits per chunk, 64 bits per row: the whole quad of groupID row%8 holds rows row%8 and row%8 + 8
// (16 bits of each thread per row), so the sparsity selector is 0 (PTX ISA §9.7.14.6; LLVM's NVVM
// mma.sp intrinsics take selector range [0, 1) for these types). Chunk c of a row: lane
// 4*(row%8) + floor(c/4), bits 16*floor(row/8) + 4*(c%4): PTX's m16n8k32 rule (sparse_k) with the
// quad's four threads in place of two.
OperandSpec block_scale_sparse_k(const Instruction& ins) {
    OperandSpec s;
    s.rows = 16;
    s.cols = ins.k;
    s.type = ElemType::IDX;
    s.width = s.stride = 4;
    s.regs = 1;
    const int chunk = containers(ins) ? 4 : 8;
    s.formula = "chunk c = floor(k/" + num(chunk) + "): 4-bit field at bits 16*floor(row/8) + 4*(c%4) of lane 4*(row%8) + "
                "floor(c/4) (sparsity selector 0: all four threads of each quad give metadata; bits 1:0 and 3:2 index the "
                "chunk's two kept " + std::string(chunk == 4 ? "values" : "pairs") + ").";
    s.place = [=](int, int row, int k, std::vector<Slot>& out) {
        const int c = k / chunk;
        out.push_back({4 * (row % 8) + c / 4, 4 * (row / 8) + c % 4});
    };
    return s;
}

// Scale factors (PTX 9.7.14.3 block scaling; CUTLASS SM120 SFALayout / SFBLayout).
// SA is M x V (V = scale_vec), SB is V x N. SF_A of row m is in lane
// 4*(m%8) + floor(m/8) + 2*thread_id_a, SF_B of column n in lane 4n + thread_id_b;
// factor j is byte byte_id + j of that lane's 32-bit scale register.
// byte-id and thread-id are the modifiers sf_byte_a/b, sf_thread_a/b (checked in
// resolve_modifiers against PTX's ranges).
OperandSpec block_scale_sf(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    OperandSpec s;
    const int v = std::max(1, ins.scale_vec);
    const bool a = op == Operand::SA;
    const int byte = a ? mods.sf_byte_a : mods.sf_byte_b, thread = a ? mods.sf_thread_a : mods.sf_thread_b;
    s.rows = a ? 16 : v;
    s.cols = a ? v : 8;
    s.type = ins.scale_type;
    s.width = s.stride = 8;
    s.regs = 1;
    s.offset = 8 * byte;
    if (a) {
        s.formula = "lane = 4*(row%8) + floor(row/8) + 2*" + num(thread) + " (thread-id-a), byte " + num(byte) +
                    " (byte-id-a) + col of the scale register";
        s.place = [=](int, int m, int j, std::vector<Slot>& out) { out.push_back({4 * (m % 8) + m / 8 + 2 * thread, j}); };
    } else {
        s.formula = "lane = 4*col + " + num(thread) + " (thread-id-b), byte " + num(byte) + " (byte-id-b) + row of the "
                    "scale register";
        s.place = [=](int, int j, int n, std::vector<Slot>& out) { out.push_back({4 * n + thread, j}); };
    }
    return s;
}

}  // namespace

std::vector<Operand> nvidia_operands(const Instruction& ins) {
    switch (ins.kind) {
        case LayoutKind::MmaSparse: return {Operand::A, Operand::B, Operand::C, Operand::D, Operand::K};
        case LayoutKind::LdStMatrix: return {Operand::D};
        case LayoutKind::Wgmma: return {Operand::A, Operand::B, Operand::C, Operand::D};  // B in shared memory
        case LayoutKind::MmaBlockScale: {
            // The sparse forms' metadata is the sparse index operand K (block_scale_sparse_k).
            std::vector<Operand> ops = {Operand::A, Operand::B, Operand::C, Operand::D};
            if (ins.tcgen05_sparse) ops.push_back(Operand::K);
            if (ins.scale_vec > 0) {
                ops.push_back(Operand::SA);
                ops.push_back(Operand::SB);
            }
            return ops;
        }
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
        case LayoutKind::MmaBlockScale:
            if (acc == Operand::SA || acc == Operand::SB) return block_scale_sf(ins, acc, mods);
            if (acc == Operand::K) return block_scale_sparse_k(ins);
            if (acc == Operand::A) return ins.tcgen05_sparse ? block_scale_sparse_a(ins) : block_scale_ab(ins, Operand::A);
            if (acc == Operand::B) return block_scale_ab(ins, Operand::B);
            return mma_cd(ins);
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
        case LayoutKind::MmaBlockScale:
            return "PTX ISA 9.1 §9.7.14.5.14 (kind::f8f6f4 / mxf8f6f4 / mxf4 / mxf4nvf4), the m16n8k32 / m16n8k64 fragments "
                   "of §9.7.14.5.10-.11 and block scaling §9.7.14.3; CUTLASS mma_traits_sm120.hpp (SM120_16x8x32_TN, "
                   "SM120_16x8x64_TN_VS ALayout, BLayout, SFALayout, SFBLayout); not confirmed on hardware: no Blackwell "
                   "GPU was available";
        default: return "";
    }
}

Evidence mma_block_scale_evidence(const Instruction& ins, Operand op, const ResolvedModifiers&) {
    Evidence e;
    const std::string hw = "; not confirmed on hardware: no Blackwell GPU was available";
    if (op == Operand::SA || op == Operand::SB) {
        e.confidence = "high";
        e.sources = "PTX ISA §9.7.14.3 (block scaling: thread-id / byte-id selectors, Table 37); CUTLASS "
                    "mma_traits_sm120.hpp SFALayout ((2,2,8),K):((8,0,1),16) / SFBLayout ((4,8),K):((0,1),8); Triton "
                    "getSM120DotScaledScaleLayout";
        e.why = "PTX's selector text, CUTLASS's SF layouts and Triton's scale layout agree on the owning lanes (which row "
                "of a lane pair rests on the two code sources); factor j in byte byte-id + j is medium (CUTLASS packs the "
                "vector little-endian)" + hw;
    } else if (op == Operand::K) {
        e.confidence = "medium";
        e.sources = "PTX ISA §9.7.14.6 (sparse mma metadata and sparsity selector; the m16n8k64 / m16n8k128 metadata "
                    "figures are images); LLVM NVVM mma.sp intrinsics (selector range [0, 1) for the f8f6f4 types)";
        e.why = "PTX's m16n8k32 metadata rule extended to the quad's four threads: 16 chunks x 4 bits per row fill the "
                "quad's 16-bit halves exactly, which fixes the threads; the order of chunks within a thread follows "
                "m16n8k32, one source" + hw;
    } else if (op == Operand::A && ins.tcgen05_sparse) {
        e.confidence = "medium";
        e.sources = "PTX ISA §9.7.14.6 (sparse mma fragments); CUTLASS mma_traits_sm120_sparse.hpp";
        e.why = "one closed form derived from the dense fragment of the compressed A (kept values of a 4-chunk side by "
                "side), not checked against a second source" + hw;
    } else {
        e.confidence = "high";
        e.sources = "PTX ISA §9.7.14.5.10-.11 fragments and §9.7.14.5.14 containers; CUTLASS mma_traits_sm120.hpp "
                    "(SM120_16x8x32_TN = SM80_16x8x32 layouts; SM120_16x8x64_TN_VS ALayout ((4,8),(8,2,2)):((128,1),"
                    "(16,8,512)), BLayout ((4,8),(8,2)):((64,1),(8,256)), CLayout SM80_16x8_Row)";
        e.why = "PTX's fragment tables and CUTLASS's SM120 traits agree" + hw;
    }
    return e;
}

std::string nvidia_address_rule(const Instruction& ins) {
    if (ins.kind != LayoutKind::LdStMatrix) return "";
    const int n = ins.blocks;
    std::string s = "lane 8m + r (m < " + num(n) + ", r = 0..7) supplies the shared-memory address of row r of matrix m "
                    "(8 consecutive b16, 16-byte aligned)";
    if (n < 4) s += "; the addresses of lanes " + num(8 * n) + "-31 are ignored";
    s += ". " + std::string(ins.store ? "stmatrix writes" : "ldmatrix reads") + " matrix m through register m" +
         (ins.transposed ? ", transposed (.trans)" : "") + ".";
    return s;
}

}  // namespace lanescope::detail
