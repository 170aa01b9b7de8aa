// NVIDIA Blackwell tcgen05 layout families: where tcgen05.mma's operands sit in
// Tensor Memory (TMEM), the register fragment of tcgen05.ld / tcgen05.st, and the
// registers a kernel holds after reading a tcgen05.mma accumulator back.
//
// Vocabulary: TMEM is 128 lanes x 512 columns of 32-bit cells per CTA (PTX ISA
// §9.7.16.1); a TMEM Location is (reg = column, lane = TMEM lane, bits), a
// cta_group::2 operand numbering CTA 1's lanes 128..255. Columns and lanes are
// counted from the operand's base address (d-tmem, a-tmem, scale-A-tmem ...):
// L0 = C0 = 0. tcgen05.mma is issued by one thread, so its operands have no
// register fragment of their own; A and B in shared memory are described by
// their matrix descriptors (the shared-memory family, not here).
//
// Named formulas (each cites its sources; confidence in tcgen05_evidence):
//  * tmem_d_A..G  D(m, n) -> (lane, column): the data-path layouts of PTX ISA
//                 §9.7.16.10.5 (its figures are images), decoded from CUTLASS
//                 mma_traits_sm100_frag.hpp (tmem_frg, tmem_frg_ws) and Triton's
//                 tensorMemoryToLinearLayout (LinearLayoutConversions.cpp):
//                   D (M=128, and .ws M=128): lane m, column n
//                   F (M=64):                 lane m%16 + 32*(m/16), column n (lane alignment L0 = 0;
//                                             PTX also allows L0 = 16, not offered here)
//                   A (M=256, cta_group::2):  lane m (CTA m/128), column n
//                   B (M=128, cta_group::2):  CTA c = m/64, m' = m%64: lane 128c + m' + 64*(n/(N/2)),
//                                             column n%(N/2)
//                   C (M=128, cta_group::2, sparse): CTA c = m/64, Layout F on m' = m%64
//                   E (M=64 .ws):             lane m + 64*(n/(N/2)), column n%(N/2)
//                   G (M=32 .ws):             lane m + 32*(n/(N/4)), column n%(N/4)
//                 A 16-bit D sits in the low 16 bits of its column (PTX §9.7.16.10.4.1; CUTLASS
//                 COL_ADDR = 32/bits): not packed.
//  * tmem_a       A(m, k) in TMEM (CUTLASS *_TS atoms, tmem_frg): one row per lane as D's rows
//                 (cta_group::2 M=128 duplicates each row into lanes m' and m'+64), k packed along
//                 columns in b-bit containers (b = 32 tf32, 16 f16/bf16, 8 for 8-bit and 6-bit
//                 kinds, 4 for mxf4*: two e2m1 per byte).
//  * tmem_sf      SFA/SFB (PTX §9.7.16.10.7; CUTLASS tmem_sf_frg; Triton
//                 tensorMemoryScalesToLinearLayout): scale j of row m in lanes 32p + m%32 for
//                 every p (duplicated into the four 32-lane partitions), column m/32, byte
//                 SF_ID + j (sfa_id / sfb_id select the byte; 1X 0..3, 2X 0 or 2, 4X 0).
//  * tmem_meta    the sparse metadata (CUTLASS tmem_e_frg, M = 128; PTX §9.7.16.10.8).
//  * tcgen05_ldst the tcgen05.ld/st fragment (PTX §9.7.16.8.3 Table 49; CUTLASS copy_traits_sm100.hpp
//                 SM100_TMEM_LOAD_* traits; Triton getTileLayout), thread t, register r ->
//                 (TMEM lane offset in the warp's quarter, column):
//                   32x32b: (t, r); 16x64b: (t/4 + 8*(t%2), (t/2)%2 + 2r);
//                   16x128b: (t/4 + 8*(r%2), t%4 + 4*(r/2)); 16x256b: (t/4 + 8*((r/2)%2),
//                   2*(t%4) + r%2 + 8*(r/4)); 16x32bx2: (t%16, r) for t < 16, (t%16, r + imm) for
//                   t >= 16 (half_split = immHalfSplitoff in columns; CUTLASS passes N).
//                 pack::16b: register r bits [16h, 16h+16) = low half of column 2c + h.
//  * tmem_load    D read back by W warps with one tcgen05.ld shape: Triton 3.6's
//                 getDistributedLayoutForTmemLdSt (TritonNvidiaGPU/IR/Dialect.cpp) over the TMEM
//                 layout above, registers numbered as get_tmem_reg_layout numbers them.
#include "catalog/catalog_blackwell.hpp"
#include "lanescope/lanescope.hpp"
#include "lanescope/numbers.hpp"
#include "layouts/layout_spec.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <map>
#include <memory>
#include <string>

namespace lanescope::detail {

namespace {

bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

const char* kNotOnHardware = "not confirmed on hardware: no Blackwell GPU was available";
const char* kPtxLayouts = "PTX ISA §9.7.16.10.5 (data-path layouts; the figures are images)";
const char* kCutlassFrg = "CUTLASS mma_traits_sm100_frag.hpp (tmem_frg, tmem_frg_ws)";
const char* kTritonTmem = "Triton LinearLayoutConversions.cpp tensorMemoryToLinearLayout";

// ------------------------------------------------------------- D in TMEM ---

enum class DLayout { A, B, C, D, E, F, G };

DLayout d_layout(const Instruction& ins) {
    if (ins.cta_group == 2) return ins.m == 256 ? DLayout::A : ins.tcgen05_sparse ? DLayout::C : DLayout::B;
    if (ins.ws) return ins.m == 32 ? DLayout::G : ins.m == 64 ? DLayout::E : DLayout::D;
    return ins.m == 64 ? DLayout::F : DLayout::D;
}
char d_letter(DLayout l) { return "ABCDEFG"[static_cast<int>(l)]; }

struct Cell {
    int lane, col;
};
// D(m, n) -> (TMEM lane, column), from the base address.
Cell d_cell(DLayout l, int N, int m, int n) {
    switch (l) {
        case DLayout::D:
        case DLayout::A: return {m, n};
        case DLayout::F: return {m % 16 + 32 * (m / 16), n};
        case DLayout::B: return {128 * (m / 64) + m % 64 + 64 * (n / (N / 2)), n % (N / 2)};
        case DLayout::C: return {128 * (m / 64) + (m % 64) % 16 + 32 * ((m % 64) / 16), n};
        case DLayout::E: return {m + 64 * (n / (N / 2)), n % (N / 2)};
        case DLayout::G: return {m + 32 * (n / (N / 4)), n % (N / 4)};
    }
    return {m, n};
}
int d_columns(DLayout l, int N) {
    if (l == DLayout::B || l == DLayout::E) return N / 2;
    if (l == DLayout::G) return N / 4;
    return N;
}
std::string d_formula(DLayout l, int N) {
    const std::string h = num(N / 2), q = num(N / 4);
    switch (l) {
        case DLayout::D: return "lane = m, column = n";
        case DLayout::A: return "lane = m (CTA floor(m/128) of the pair: lanes 128..255 are CTA 1's), column = n";
        case DLayout::F:
            return "lane = m%16 + 32*floor(m/16) (half the data path: lanes 16-31 of each quarter are skipped; "
                   "lane alignment L0 = 0, PTX also allows 16), column = n";
        case DLayout::B:
            return "CTA c = floor(m/64), m' = m%64: lane = 128c + m' + 64*floor(n/" + h + "), column = n%" + h;
        case DLayout::C:
            return "CTA c = floor(m/64), m' = m%64: lane = 128c + m'%16 + 32*floor(m'/16) (Layout F per CTA), column = n";
        case DLayout::E: return "lane = m + 64*floor(n/" + h + "), column = n%" + h;
        case DLayout::G: return "lane = m + 32*floor(n/" + q + "), column = n%" + q;
    }
    return "";
}

OperandSpec tmem_d(const Instruction& ins) {
    OperandSpec s;
    const DLayout l = d_layout(ins);
    const int N = ins.n;
    s.space = Space::TensorMemory;
    s.lanes = 128 * ins.cta_group;
    s.rows = ins.m;
    s.cols = N;
    s.type = ins.d_type();
    s.width = elem_bits(s.type);
    s.stride = 32;
    s.regs = d_columns(l, N);
    s.formula = std::string("Layout ") + d_letter(l) + " (PTX data path): " + d_formula(l, N) +
                (s.width == 16 ? "; a 16-bit D sits in bits 15:0 of its 32-bit column (not packed)" : "") + ".";
    s.place = [=](int, int m, int n, std::vector<Slot>& out) {
        const Cell c = d_cell(l, N, m, n);
        out.push_back({c.lane, c.col});
    };
    // One-slot queries: column c holds only the n = c (mod the columns) of every layout above.
    const int M = ins.m, cols = s.regs;
    s.candidates = [M, N, cols](int, int column, std::vector<Element>& out) {
        for (int n = column; n >= 0 && n < N; n += cols)
            for (int m = 0; m < M; ++m) out.push_back({0, m, n});
    };
    return s;
}

// -------------------------------------------------------------- A in TMEM ---

// Bits of A's TMEM container.
int a_container_bits(const Instruction& ins) {
    if (ins.mma_kind == "tf32") return 32;
    if (ins.mma_kind == "f16") return 16;
    if (ins.mma_kind == "mxf4" || ins.mma_kind == "mxf4nvf4") return 4;
    return 8;  // i8, f8f6f4, mxf8f6f4: 8-bit containers (6- and 4-bit types too)
}
// 2:4 groups (1:2 for tf32, 4:8 for mxf4*): dense k per group of a sparse A.
int sparse_group(const Instruction& ins) {
    if (ins.mma_kind == "tf32") return 2;
    if (ins.mma_kind == "mxf4" || ins.mma_kind == "mxf4nvf4") return 8;
    return 4;
}

// The lanes of A's row m (D's rows: one row per lane).
std::vector<int> a_lanes(const Instruction& ins, int m) {
    if (ins.cta_group == 2 && ins.m == 128) {
        const int c = m / 64, mp = m % 64;
        return {128 * c + mp, 128 * c + mp + 64};
    }
    if (ins.cta_group == 1 && !ins.ws && ins.m == 64) return {m % 16 + 32 * (m / 16)};
    return {m};
}

OperandSpec tmem_a(const Instruction& ins) {
    OperandSpec s;
    const int b = a_container_bits(ins), K = ins.k;
    const bool sp = ins.tcgen05_sparse;
    const int g = sp ? sparse_group(ins) : 1;
    s.space = Space::TensorMemory;
    s.lanes = 128 * ins.cta_group;
    s.rows = ins.m;
    s.cols = K;
    s.type = ins.a;
    s.width = s.stride = sp ? b * g / 2 : b;
    // A dense 4/6-bit value in its 8-bit container: the bits mma.sync's containers give it (e2m1 5:2,
    // e3m2/e2m3 5:0; PTX §9.7.14.5.14, CUTLASS fp4_shift), taken for TMEM, whose figures 199-201 are images.
    const auto [value_lo, value_bits] = fp_container_bits(ins.a);
    const bool sub = !sp && b == 8 && elem_bits(ins.a) < 8;
    if (sub) s.width = value_bits, s.offset = value_lo;
    const int stored = sp ? K / 2 : K;
    s.regs = std::max(1, (stored * b + 31) / 32);
    const std::string rows = ins.cta_group == 2 && ins.m == 128
                                 ? "CTA c = floor(m/64), m' = m%64: lanes 128c + m' and 128c + m' + 64 (A duplicated "
                                   "between the subpartitions)"
                             : ins.cta_group == 1 && !ins.ws && ins.m == 64 ? "lane = m%16 + 32*floor(m/16) (Layout F's rows)"
                                                                           : std::string("lane = m");
    if (sp)
        s.formula = rows + "; the compressed row (K/2 stored values) packs " + num(b) + "-bit containers along columns: "
                    "group q = floor(k/" + num(g) + ") of " + num(g) + " dense k keeps " + num(g / 2) +
                    " value(s) at bits " + num(b * g / 2) + "*q of the row (column floor(" + num(b * g / 2) +
                    "*q/32)); the metadata says which" +
                    (b == 8 && elem_bits(ins.a) < 8
                         ? std::string("; each stored ") + std::string(detail::ptx_type_name(ins.a)) + " value at bits " +
                               num(value_lo + value_bits - 1) + ":" + num(value_lo) +
                               " of its 8-bit container, as mma.sync's containers (low: PTX figures 199-201 are images)"
                         : std::string()) + ".";
    else
        s.formula = rows + "; k packed along columns: column floor(" + num(b) + "*k/32), bits [" + num(b) + "*k%32, +" +
                    num(b) + ") (" + num(b) + "-bit containers" +
                    (sub ? "; the " + std::string(detail::ptx_type_name(ins.a)) + " value at bits " + num(value_lo + value_bits - 1) + ":" +
                               num(value_lo) + " of its container, as mma.sync's containers (low: PTX figures 199-201 are images)"
                         : "") + ").";
    const Instruction copy = ins;
    s.place = [=](int, int m, int k, std::vector<Slot>& out) {
        for (int lane : a_lanes(copy, m)) out.push_back({lane, sp ? k / g : k});
    };
    return s;
}

// ---------------------------------------------------------- scale factors ---

int sf_count(const Instruction& ins) { return ins.scale_vec; }

// SFB's extent in CUTLASS's 2x2 (cta_group::2, M = 128) atom: N rounded up to 128
// (CUTLASS sm100_blockscaled_layout.hpp, MMA_N_SFB = ceil_div(N, 128) * 128).
int sfb_mn_rounded(int n) { return (n + 127) / 128 * 128; }

// SFA of cta_group::2 splits M between the CTAs (2x1SM ALayout); SFB of cta_group::2 at
// M = 256 gives each CTA the pair's whole N (CUTLASS: the 2x1SM MMA_ScaleFactor is a
// 1-SM atom, TiledMMA_SF hands every CTA all of N, copy SM100_UTCCP_4x32dp128bit_2cta);
// at M = 128 SFB is CUTLASS's ScaleFactorDuplicated2by2.
OperandSpec tmem_sf(const Instruction& ins, bool is_a, int sf_id) {
    OperandSpec s;
    const int nsf = sf_count(ins), M = ins.m, N = ins.n, cg = ins.cta_group;
    const int cpg = (sf_id + nsf + 3) / 4;  // columns per 32-row group (K = 96 block16: 2)
    s.space = Space::TensorMemory;
    s.lanes = 128 * cg;
    s.type = ins.scale_type;
    s.width = s.stride = 8;
    const bool two_by_two = cg == 2 && M == 128 && !is_a;
    const int half = sfb_mn_rounded(N) / 2;  // the 2x2 atom's half of N
    int per_cta = 0;  // the rows (SFA) / columns (SFB) one CTA holds
    if (is_a) {
        s.rows = M;
        s.cols = nsf;
        per_cta = M / cg;
    } else {
        s.rows = nsf;
        s.cols = N;
        per_cta = two_by_two ? std::min(N, half) : N;
    }
    s.regs = std::max(1, (per_cta + 31) / 32) * cpg;
    const std::string id = is_a ? "sfa_id" : "sfb_id";
    const std::string bytes = "column " + num(cpg) + "*floor(x/32) + floor((" + id + " + j)/4), byte (" + id + " + j)%4 (" +
                              id + " = " + num(sf_id) + ")";
    if (is_a)
        s.formula = "SFA[m][j]: " + std::string(cg == 2 ? "CTA c = floor(m/" + num(per_cta) + "), x = m%" + num(per_cta) +
                                                              ": lanes 128c + 32p + x%32"
                                                        : "x = m: lanes 32p + x%32") +
                    " for p = 0..3 (duplicated into the four 32-lane partitions), " + bytes + ".";
    else if (two_by_two)
        s.formula = "SFB[j][n] (2x2 data path, CUTLASS ScaleFactorDuplicated2by2; MN = N rounded up to 128 = " +
                    num(2 * half) + "): x = n%" + num(half) + ", half h = floor(n/" + num(half) +
                    "): lanes 128c + 64h + x%32 and 128c + 64h + 32 + x%32 in both CTAs c, " + bytes + ".";
    else
        s.formula = "SFB[j][n]: x = n: lanes " + std::string(cg == 2 ? "128c + " : "") + "32p + x%32 for p = 0..3" +
                    (cg == 2 ? " in both CTAs c (each CTA holds the pair's whole N, as CUTLASS's 2x1SM kernels copy it)"
                             : "") +
                    ", " + bytes + ".";
    // j counts this MMA's scale factors only; a later K-block is another MMA's, picked by the ID.
    const std::string flag = is_a ? "--sfa-id" : "--sfb-id";
    s.outside_note = " (" + std::string(is_a ? "col" : "row") + " j = this MMA's scale factor 0.." + num(nsf - 1) +
                     " of each " + std::string(is_a ? "row" : "column") + "; K-block kb of a K tile is read by the MMA " +
                     "whose " + flag + " is " + num(nsf) + "*floor((kb%4)/" + num(nsf) + ") (" + flag + " " +
                     (nsf == 1 ? "0..3" : nsf == 2 ? "0 or 2" : "0") + "), as its j = kb%" + num(nsf) +
                     "; `load --memory smem --operand " + (is_a ? "SFA" : "SFB") +
                     "` shows every K-block's shared-memory byte, TMEM place and ID)";
    s.place = [=](int, int r, int c, std::vector<Slot>& out) {
        const int j = is_a ? c : r, idx = is_a ? r : c;
        const int item_in = (sf_id + j) % 4, col_in = (sf_id + j) / 4;
        if (two_by_two) {
            const int h = idx / half, x = idx % half;
            const int item = 4 * (cpg * (x / 32) + col_in) + item_in;
            for (int cta = 0; cta < 2; ++cta)
                for (int q = 0; q < 2; ++q) out.push_back({128 * cta + 64 * h + 32 * q + x % 32, item});
            return;
        }
        const bool split = is_a && cg == 2;
        const int x = split ? idx % per_cta : idx;
        const int item = 4 * (cpg * (x / 32) + col_in) + item_in;
        for (int cta = split ? idx / per_cta : 0; cta < (split ? idx / per_cta + 1 : cg); ++cta)
            for (int p = 0; p < 4; ++p) out.push_back({128 * cta + 32 * p + x % 32, item});
    };
    return s;
}

// ------------------------------------------------------- sparse metadata ---

OperandSpec tmem_meta(const Instruction& ins) {
    OperandSpec s;
    const int M = ins.m, cg = ins.cta_group, per_cta = M / cg;
    s.space = Space::TensorMemory;
    s.lanes = 128 * cg;
    s.rows = M;
    s.cols = ins.k;
    s.type = ElemType::IDX;
    s.width = s.stride = 4;
    const std::string& kind = ins.mma_kind;
    const int g = sparse_group(ins);
    enum { F16, TF32, B8, FP4 } form = kind == "f16" ? F16 : kind == "tf32" ? TF32 : g == 8 ? FP4 : B8;
    s.regs = form == F16 || form == TF32 ? 1 : 2;
    const std::string cta = cg == 2 ? "CTA c = floor(m/" + num(per_cta) + "), m' = m%" + num(per_cta) + " (lanes + 128c): "
                                    : "m' = m: ";
    switch (form) {
        case F16:
            s.formula = cta + "lane = m'%8 + 16*floor(m'/16) + 8*floor(k/16); the 4-bit field of group floor(k/4) at bit "
                              "4*floor((k%16)/4) + 16*(floor(m'/8)%2) of column 0";
            break;
        case TF32:
            s.formula = cta + "lane = m'%8 + 16*floor(m'/16) + 8*floor(k/8); the 4-bit field of pair floor(k/2) at bit "
                              "4*floor((k%8)/2) + 16*(floor(m'/8)%2) of column 0";
            break;
        case B8: s.formula = cta + "lane = m'; the 4-bit field of group floor(k/4) at bit 4*floor(k/4) (columns 0-1)"; break;
        case FP4: s.formula = cta + "lane = m'; the 4-bit field of group floor(k/8) at bit 4*floor(k/8) (columns 0-1)"; break;
    }
    s.formula += " (two 2-bit indices per 4:2 group; tf32: one 4-bit index per pair).";
    // .ws M = 64 / 32 (Layouts E / G): CUTLASS tmem_e_frg_ws repeats the per-row pattern in
    // the other lane halves / quarters (they compute other N blocks with the same rows of A).
    const int copies = ins.ws && M < 128 ? 128 / M : 1, copy_stride = M;
    if (copies > 1)
        s.formula += " .ws M = " + num(M) + ": " + num(copies) + " copies, at lanes + " + num(copy_stride) + "*i (i = 0.." +
                     num(copies - 1) + ", CUTLASS tmem_e_frg_ws).";
    s.place = [=](int, int m, int k, std::vector<Slot>& out) {
        const int c = m / per_cta, mp = m % per_cta;
        int lane = 0, item = 0;
        switch (form) {
            case F16:
                lane = mp % 8 + 16 * (mp / 16) + 8 * (k / 16);
                item = (k % 16) / 4 + 4 * ((mp / 8) % 2);
                break;
            case TF32:
                lane = mp % 8 + 16 * (mp / 16) + 8 * (k / 8);
                item = (k % 8) / 2 + 4 * ((mp / 8) % 2);
                break;
            case B8:
                lane = mp;
                item = k / 4;
                break;
            case FP4:
                lane = mp;
                item = k / 8;
                break;
        }
        for (int i = 0; i < copies; ++i) out.push_back({128 * c + lane + copy_stride * i, item});
    };
    return s;
}

// --------------------------------------------------- forward-built specs ---

// A spec from the forward map (lane, item) -> element. The inverse (element -> slots)
// is built on the first placement, in two passes into one array (no table for a query
// that only asks the spec's registers, type or formula); one-slot queries take the
// forward map itself as their candidates.
OperandSpec from_forward(OperandSpec s, int items, std::function<bool(int lane, int item, int& r, int& c)> fwd) {
    struct Inverse {
        std::once_flag once;
        std::vector<int> start;  // element e's slots: slots[start[e] .. start[e + 1])
        std::vector<Slot> slots;
    };
    auto inv = std::make_shared<Inverse>();
    auto map = std::make_shared<const std::function<bool(int, int, int&, int&)>>(std::move(fwd));
    const int lanes = s.lanes, rows = s.rows, cols = s.cols;
    auto build = [inv, map, lanes, items, rows, cols] {
        std::vector<int>& start = inv->start;
        start.assign(static_cast<size_t>(rows) * cols + 1, 0);
        for (int pass = 0; pass < 2; ++pass) {
            if (pass == 1) {
                for (size_t e = 1; e < start.size(); ++e) start[e] += start[e - 1];
                inv->slots.resize(static_cast<size_t>(start.back()));
            }
            for (int lane = 0; lane < lanes; ++lane)
                for (int item = 0; item < items; ++item) {
                    int r = 0, c = 0;
                    if (!(*map)(lane, item, r, c)) continue;
                    if (r < 0 || r >= rows || c < 0 || c >= cols)
                        throw Error("internal: tcgen05 forward map outside the operand (row " + num(r) + ", col " + num(c) + ")");
                    const size_t e = static_cast<size_t>(r) * cols + c;
                    if (pass == 0)
                        ++start[e + 1];
                    else
                        inv->slots[static_cast<size_t>(start[e]++)] = {lane, item};
                }
        }
        // start[e] now ends e's slots: shift back so that it begins them.
        for (size_t e = start.size() - 1; e > 0; --e) start[e] = start[e - 1];
        start[0] = 0;
    };
    s.place = [inv, build, cols](int, int r, int c, std::vector<Slot>& out) {
        std::call_once(inv->once, build);
        const size_t e = static_cast<size_t>(r) * cols + c;
        out.insert(out.end(), inv->slots.begin() + inv->start[e], inv->slots.begin() + inv->start[e + 1]);
    };
    s.candidates = [map, lanes, items](int lane, int item, std::vector<Element>& out) {
        int r = 0, c = 0;
        if (lane >= 0 && lane < lanes && item >= 0 && item < items && (*map)(lane, item, r, c)) out.push_back({0, r, c});
    };
    return s;
}

// ---------------------------------------------------- tcgen05.ld / .st ---

struct Atom {
    const char* shape;  // PTX
    const char* cute;   // CUTLASS SM100_TMEM_LOAD_<cute><num>x
    int lanes, cols, regs, max_num;
};
const Atom kAtoms[] = {
    {"32x32b", "32dp32b", 32, 1, 1, 128},  {"16x64b", "16dp64b", 16, 2, 1, 128}, {"16x128b", "16dp128b", 16, 4, 2, 64},
    {"16x256b", "16dp256b", 16, 8, 4, 32}, {"16x32bx2", "16dp32b", 16, 1, 1, 128},
};
const Atom* find_atom(const std::string& shape) {
    for (const Atom& a : kAtoms)
        if (shape == a.shape) return &a;
    return nullptr;
}

// Thread t, register r (any repetition) of the unpacked message -> (lane offset, column).
Cell ld_cell(const Atom& a, int t, int r) {
    const std::string s = a.shape;
    if (s == "32x32b") return {t, r};
    if (s == "16x64b") return {t / 4 + 8 * (t % 2), (t / 2) % 2 + 2 * r};
    if (s == "16x128b") return {t / 4 + 8 * (r % 2), t % 4 + 4 * (r / 2)};
    if (s == "16x256b") return {t / 4 + 8 * ((r / 2) % 2), 2 * (t % 4) + r % 2 + 8 * (r / 4)};
    return {t % 16, r};  // 16x32bx2, the second half's columns offset by the caller
}
const char* ld_formula(const Atom& a) {
    const std::string s = a.shape;
    if (s == "32x32b") return "lane offset = t, column = r";
    if (s == "16x64b") return "lane offset = floor(t/4) + 8*(t%2), column = floor(t/2)%2 + 2r";
    if (s == "16x128b") return "lane offset = floor(t/4) + 8*(r%2), column = t%4 + 4*floor(r/2)";
    if (s == "16x256b") return "lane offset = floor(t/4) + 8*(floor(r/2)%2), column = 2*(t%4) + r%2 + 8*floor(r/4)";
    return "lane offset = t%16, column = r for t < 16 and r + half_split for t >= 16 (the second half at taddr + "
           "immHalfSplitoff)";
}

int ld_columns(const Instruction& ins) {
    const Atom* a = find_atom(ins.tmem_shape);
    return a->cols * ins.tmem_num * (ins.pack16 ? 2 : 1);
}

OperandSpec tcgen05_ldst(const Instruction& ins, const ResolvedModifiers& mods) {
    const Atom& a = *find_atom(ins.tmem_shape);
    const bool x2 = std::string(a.shape) == "16x32bx2";
    const int C = ld_columns(ins), split = x2 ? (mods.half_split > 0 ? mods.half_split : C) : 0;
    const int pack = ins.pack16 ? 2 : 1;
    OperandSpec s;
    s.lanes = 32;
    s.rows = a.lanes;
    s.cols = x2 ? split + C : C;
    s.type = ins.pack16 ? ElemType::B16 : ElemType::F32;
    s.width = s.stride = 32 / pack;
    s.regs = a.regs * ins.tmem_num;
    s.formula = std::string(ins.store ? "tcgen05.st" : "tcgen05.ld") + " ." + a.shape + ".x" + num(ins.tmem_num) +
                ": thread t, register r -> (TMEM " + ld_formula(a) + "), rows = lane offsets in the warp's quarter " +
                "(lanes 32*(warp%4) + ...), columns from taddr's" +
                (ins.pack16 ? std::string("; ") + (ins.store ? ".unpack::16b" : ".pack::16b") +
                                  ": bits [16h, 16h+16) of register r are the low half of column 2c + h (c the "
                                  "column above)"
                            : std::string("")) +
                (x2 ? "; half_split = " + num(split) + " columns" : std::string("")) + ".";
    return from_forward(s, s.regs * pack, [=](int t, int item, int& r, int& c) {
        const int reg = item / pack, h = item % pack;
        const Cell cell = ld_cell(a, t, reg);
        r = cell.lane;
        c = pack * cell.col + h + (x2 && t >= 16 ? split : 0);
        return true;
    });
}

// ------------------------------------------------- tcgen05.mma D as registers ---

const char* kVariants[] = {"", "32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"};

// Why D of `ins` cannot be read back with variant v (0 = any variant), or "".
std::string tmem_load_refusal(const Instruction& ins, int v) {
    const DLayout l = d_layout(ins);
    // Layout A (cta_group::2, M = 256): CTA c of the pair holds rows 128c..128c+127 as Layout D
    // (CUTLASS CLayout (2,(M/2,N)):(M/2,(1,M)) over the 128-row tmem_frg), and each CTA's
    // warps read their own CTA's TMEM (PTX §9.7.16.8.1: a warp reaches its own CTA's lanes only).
    // Layouts B, E and G fill all 128 lanes with fewer columns (d_cell): the same load over those
    // lanes and columns, mapped back to D by the layout's formula.
    if (l == DLayout::C)
        return "--tmem-load is laid out for D in Layouts D, F, E, G (cta_group::1) and A, B (cta_group::2); this D is Layout "
               "C (cta_group::2 sparse, M = 128), whose TMEM placement rests on PTX's table alone (confidence low: no "
               "CUTLASS atom), so it is not read back here; ask the dense form (Layout B) or cta_group::1";
    const int bits = elem_bits(ins.d_type());
    if (bits != 32 && bits != 16) return "D of " + num(bits) + " bits is not read back by tcgen05.ld here";
    if (!pow2(ins.n))
        return "Triton 3.6 lays out power-of-two N only (TensorMemoryLayout: blockN must be a power of 2); N = " + num(ins.n);
    // One message's columns (32-bit; a 16-bit D packs two per register): 16x256b reads 8, 16x128b 4.
    static const int kMessageCols[] = {0, 1, 2, 4, 8, 1};
    const int packed = (bits == 16 ? d_columns(l, ins.n) / 2 : d_columns(l, ins.n));
    if (v > 0 && v <= 5 && packed < kMessageCols[v])
        return std::string(kVariants[v]) + " reads " + num(kMessageCols[v]) + " columns per message, more than this D's " +
               num(packed) + (bits == 16 ? " (16-bit, two per register)" : "") +
               (d_columns(l, ins.n) != ins.n ? " (Layout " + std::string(1, d_letter(l)) + " puts N = " + num(ins.n) + " in " +
                                                  num(d_columns(l, ins.n)) + " columns)"
                                             : "; Triton 3.6 refuses it (get_tmem_reg_layout: unsupported for shape [M, " +
                                                  num(ins.n) + "])");
    // Triton 3.6 refuses 16x32bx2 by name ("inferred implicitly and cannot be requested explicitly"):
    // it is what its 32x32b request becomes on Layout F, so that is the spelling to ask for.
    if (v == 5)
        return l == DLayout::F
                   ? "Triton 3.6 infers 16x32bx2 and refuses it by name (get_tmem_reg_layout: cannot be requested "
                     "explicitly); on Layout F (M = 64) --tmem-load 32x32b is that load (lanes 16-31 of a quarter read "
                     "the next columns, tcgen05.ld.sync.aligned.16x32bx2)"
                   : "16x32bx2 is what a 32x32b load becomes on Layout F (M = 64), where lanes 16-31 of a quarter hold "
                     "the next columns (Triton's lowerTMemLdSt infers it, and refuses it by name); on a 128-row D, "
                     "32x32b reads every lane";
    return "";
}

// ------------------------------------------------------------ tcgen05.cp ---

// Shared-memory rows -> TMEM lanes (PTX ISA §9.7.16.9.2; CUTLASS SM100_UTCCP_* ValIDs).
struct CpShape {
    const char* shape;
    int rows, words;
    const char* rule;
};
const CpShape kCpShapes[] = {
    {"128x256b", 128, 8, "lane = row"},
    {"128x128b", 128, 4, "lane = row"},
    {"4x256b", 4, 8, "lanes 32p + 28 + row for p = 0..3 (CUTLASS: a refresh of the last 4 lanes of each 32-lane partition)"},
    {"64x128b.warpx2::02_13", 64, 4, "lanes row and row + 64 (warps 0 and 2, 1 and 3 get the same rows)"},
    {"64x128b.warpx2::01_23", 64, 4, "lanes 64*floor(row/32) + row%32 and that + 32 (warps 0 and 1, 2 and 3 get the same rows)"},
    {"32x128b.warpx4", 32, 4, "lanes row + 32p for p = 0..3 (broadcast to the four warps' partitions)"},
};
const CpShape* find_cp(const std::string& shape) {
    for (const CpShape& c : kCpShapes)
        if (shape == c.shape) return &c;
    return nullptr;
}

OperandSpec tcgen05_cp(const Instruction& ins) {
    const CpShape& c = *find_cp(ins.tmem_shape);
    OperandSpec s;
    s.space = Space::TensorMemory;
    s.lanes = 128;
    s.rows = c.rows;
    s.cols = c.words;
    s.type = ElemType::F32;
    s.width = s.stride = 32;
    s.regs = c.words;
    s.formula = std::string("tcgen05.cp .") + c.shape + ": the 32-bit word c of shared-memory row `row` lands in column c of " +
                c.rule + (ins.cta_group == 2 ? "; cta_group::2 writes the same lanes of both CTAs of the pair" : "") + ".";
    const std::string shape = c.shape;
    s.place = [shape](int, int row, int col, std::vector<Slot>& out) {
        if (shape == "128x256b" || shape == "128x128b") out.push_back({row, col});
        else if (shape == "4x256b")
            for (int p = 0; p < 4; ++p) out.push_back({32 * p + 28 + row, col});
        else if (shape == "64x128b.warpx2::02_13")
            for (int q = 0; q < 2; ++q) out.push_back({row + 64 * q, col});
        else if (shape == "64x128b.warpx2::01_23")
            for (int q = 0; q < 2; ++q) out.push_back({64 * (row / 32) + row % 32 + 32 * q, col});
        else
            for (int p = 0; p < 4; ++p) out.push_back({row + 32 * p, col});
    };
    return s;
}

}  // namespace

bool is_tcgen05(const Instruction& ins) {
    return ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05LdSt || ins.kind == LayoutKind::Tcgen05Cp;
}

const std::vector<std::string>& tmem_load_names() {
    static const std::vector<std::string> kNames = [] {
        std::vector<std::string> n(8 * 9);
        n[0] = "none";
        for (int v = 1; v <= 5; ++v) {
            n[static_cast<size_t>(v)] = kVariants[v];
            const Atom& a = kAtoms[v == 5 ? 4 : v - 1];
            for (int j = 0; (1 << j) <= a.max_num; ++j) n[static_cast<size_t>(v + 8 * (j + 1))] = std::string(kVariants[v]) + ".x" + num(1 << j);
        }
        return n;
    }();
    return kNames;
}

std::string tmem_load_names_text() {
    std::string s = "none", nums;
    for (int v = 1; v <= 5; ++v) {
        s += std::string(" ") + kVariants[v];
        nums += std::string(nums.empty() ? "" : " ") + kVariants[v] + ".x1 .. .x" + num(kAtoms[v == 5 ? 4 : v - 1].max_num);
    }
    return s + " (or 0..5): the fewest loads that read D; or a shape with its .num (PTX §9.7.16.8.3, powers of two): " + nums;
}

TmemRegBases tcgen05_tmem_reg_bases(const Instruction& ins, const ResolvedModifiers& mods) {
    const int v = tmem_load_shape(mods.tmem_load), asked = tmem_load_num(mods.tmem_load), W = mods.num_warps;
    if (ins.kind != LayoutKind::Tcgen05Mma || v <= 0 || v > 5)
        throw Error("--tmem-load applies to the accumulator D of a tcgen05.mma; legal: 32x32b, 16x64b, 16x128b, "
                    "16x256b, 16x32bx2");
    if (W != 4 && W != 8) throw Error("--num-warps " + num(W) + " is not legal; legal: 4, 8 (one or two warpgroups)");
    if (const std::string why = tmem_load_refusal(ins, v); !why.empty()) throw Error("--tmem-load " + std::string(kVariants[v]) + " on " + ins.mnemonic + ": " + why);
    using B = std::pair<int, int>;  // (row, col) of TMEM, then (m, n) of D
    const DLayout dl = d_layout(ins);
    // cta_group::2: each CTA's warps read their own CTA's 128 lanes (Layout A: 128 rows of D as
    // Layout D; Layout B: 64 rows in all 128 lanes).
    const bool pair = dl == DLayout::A || dl == DLayout::B;
    const int bits = elem_bits(ins.d_type());
    // A 16-bit D: two adjacent columns per 32-bit register (.pack::16b); the 32-bit
    // plan runs on the packed columns (Triton: the castbbitwidth of the 16-bit case).
    // Layouts B, E, G hold D in d_columns(N) = N/2 or N/4 columns of all 128 lanes.
    const int pack = bits == 16 ? 2 : 1, Nc = d_columns(dl, ins.n) / pack;
    const bool instr32 = v == 1 || v == 5, layout16 = dl == DLayout::F;
    const Atom& a = kAtoms[v == 5 ? 0 : v - 1];
    // The message's own bases (Triton getTileLayout), TMEM (row, col).
    std::vector<B> reg, lane;
    if (v == 1 || v == 5) lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}};
    else if (v == 2) lane = {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}};
    else if (v == 3) lane = {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}, reg = {{8, 0}};
    else lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, reg = {{0, 1}, {8, 0}};
    int cols = a.cols;
    if (Nc < cols) throw Error("--tmem-load " + std::string(kVariants[v]) + ": N = " + num(ins.n) + " is narrower than one message");
    enum { None, Reg, Warp } row16 = None;
    if (!instr32 && !layout16) row16 = W > 4 ? Warp : Reg;
    int warps_to_tile = W / (row16 == Warp ? 8 : 4);
    int missing = Nc / cols;
    const int broadcast = warps_to_tile / std::min(missing, warps_to_tile);
    warps_to_tile /= broadcast;
    missing /= warps_to_tile;
    int num = missing;  // repetitions along columns of one message (.xN)
    if (missing > 1) {
        if (instr32 && layout16) {
            lane.pop_back();  // lane 16 -> the second half (16x32bx2)
            for (int i = 1; i < missing / 2; i *= 2) reg.push_back({0, cols * i});
            cols *= missing / 2;
            lane.push_back({0, cols});
            cols *= 2;
            num = missing / 2;
        } else {
            for (int i = 1; i < missing; i *= 2) reg.push_back({0, cols * i});
            cols *= missing;
        }
    }
    std::vector<B> warp = {{32, 0}, {64, 0}};
    if (row16 == Reg) reg.push_back({16, 0});
    if (row16 == Warp) warp.push_back({16, 0});
    for (int i = 1; i < warps_to_tile; i *= 2) warp.push_back({0, cols * i});
    cols *= warps_to_tile;
    for (int i = 1; i < broadcast; i *= 2) warp.push_back({0, 0});
    // Warp w of a warpgroup may only touch TMEM lanes 32*(w%4) .. +31 (PTX §9.7.16.8.1).
    for (size_t i = 0; i < warp.size(); ++i) {
        const int row = warp[i].first, want = i == 0 ? 32 : i == 1 ? 64 : 0;
        if (i < 2 ? row != want : (row & 96) != 0)
            throw Error("internal: --tmem-load puts a warp outside its TMEM lane quarter (PTX §9.7.16.8.1)");
    }
    // Through the TMEM layout (d_cell inverted, bit by bit): TMEM (row, col) -> D (m, n).
    //   D, A: identity.  F: rows 1..8 -> m, row 16 -> nothing, row 32 -> m 16, row 64 -> m 32.
    //   B, E: rows 1..32 -> m, row 64 -> n + N/2.  G: rows 1..16 -> m, row 32 -> n + N/4, row 64 -> n + N/2.
    const int N = ins.n;
    auto to_d = [&](B b) -> B {
        const int row = b.first;
        int m = row, n = b.second * pack;
        if (layout16) m = (row & 15) | ((row & 32) ? 16 : 0) | ((row & 64) ? 32 : 0);
        if (dl == DLayout::B || dl == DLayout::E) m = row & 63, n ^= (row & 64) ? N / 2 : 0;
        if (dl == DLayout::G) m = row & 31, n ^= ((row & 32) ? N / 4 : 0) ^ ((row & 64) ? N / 2 : 0);
        return {m, n};
    };
    TmemRegBases out;
    if (pack == 2) out.reg.push_back({0, 1});
    for (const B& b : reg) out.reg.push_back(to_d(b));
    for (const B& b : lane) out.lane.push_back(to_d(b));
    for (const B& b : warp) out.warp.push_back(to_d(b));
    if (pair) out.cta.push_back({dl == DLayout::A ? 128 : 64, 0});
    out.layout = d_letter(dl);
    out.rows = ins.m;
    out.cols = ins.n;
    out.element_bits = bits;
    out.num_warps = W;
    out.variant = kVariants[v];
    // Triton lowers a 32x32b load of Layout F to 16x32bx2 (lanes 16-31 read the next columns).
    const Atom& issued = instr32 && layout16 ? kAtoms[4] : a;
    // A thread's registers come in loads of .num repetitions each (PTX §9.7.16.8.3: .x1 .. .x128, Table 49:
    // registers per load), the message's own registers first, then its repetitions along the columns
    // (`num` of them per row block), then the second row block (row16 == Reg): register r is register
    // r % regs_per_load of load floor(r / regs_per_load). Without a .num: the fewest loads.
    const int most = std::min(num, issued.max_num);
    if (asked > most) {
        std::string legal;
        for (int k = 1; k <= most; k *= 2) legal += (legal.empty() ? "" : ", ") + std::string(kVariants[v]) + ".x" + lanescope::num(k);
        throw Error("--tmem-load " + std::string(kVariants[v]) + ".x" + lanescope::num(asked) + " on " + ins.mnemonic + ": legal: " + legal +
                    " (" + (asked > issued.max_num ? std::string("PTX §9.7.16.8.3: .num of ") + issued.shape + " is .x1 .. .x" +
                                                         lanescope::num(issued.max_num)
                                                   : "a load of .x" + lanescope::num(asked) + " reads more columns than this D gives each warp (" +
                                                         lanescope::num(num) + " repetitions of the " + issued.shape + " message)") +
                    ")");
    }
    out.num = asked ? asked : most;
    out.shape = issued.shape;
    out.regs_per_load = issued.regs * out.num;
    out.loads = std::max(1, ((1 << out.reg.size()) / pack) / out.regs_per_load);
    out.message = std::string("tcgen05.ld.sync.aligned.") + issued.shape + ".x" + lanescope::num(out.num) +
                  (pack == 2 ? ".pack::16b" : "") + ".b32" + (instr32 && layout16 ? ", " + lanescope::num(out.num) : "");
    out.cute_atom = std::string("SM100_TMEM_LOAD_") + issued.cute + lanescope::num(out.num) + "x" + (pack == 2 ? "_16b" : "");
    return out;
}

namespace {

// The spec of a linear layout (Triton's LinearLayout over GF(2)): slot (thread t, element e) holds
// D at the XOR of the bases of e's, t's lane's, warp's and CTA's set bits. Both directions are
// solved from the bases, so a one-element query costs a few XORs, not the whole layout: an
// element's slots are one solution of the linear system plus every combination of the bases
// that XOR to zero (a warp that broadcasts, Triton's zero bases).
OperandSpec from_linear(OperandSpec s, const TmemRegBases& L, int per_cta) {
    std::vector<int> basis;  // packed (row << 16 | col); input bits: element, lane (5), warp, CTA
    for (const auto* v : {&L.reg, &L.lane, &L.warp, &L.cta})
        for (const auto& b : *v) basis.push_back(b.first << 16 | b.second);
    const int ne = static_cast<int>(L.reg.size()), nw = static_cast<int>(L.warp.size());
    auto slot_of = [ne, nw, per_cta](std::uint64_t x) {
        const int e = static_cast<int>(x & ((1u << ne) - 1)), lane = static_cast<int>((x >> ne) & 31);
        const int warp = static_cast<int>((x >> (ne + 5)) & ((1u << nw) - 1)), cta = static_cast<int>(x >> (ne + 5 + nw));
        return Slot{per_cta * cta + 32 * warp + lane, e};
    };
    // Row echelon form: pivots[i] = (value, the input bits whose XOR it is); kernel: combinations giving 0.
    struct Echelon {
        std::vector<std::pair<int, std::uint64_t>> pivots;
        std::vector<std::uint64_t> kernel;
    };
    auto ech = std::make_shared<Echelon>();
    for (size_t i = 0; i < basis.size(); ++i) {
        int v = basis[i];
        std::uint64_t mask = std::uint64_t{1} << i;
        for (const auto& [pv, pm] : ech->pivots)
            if ((v ^ pv) < v) v ^= pv, mask ^= pm;
        if (v) {
            ech->pivots.push_back({v, mask});
            std::sort(ech->pivots.begin(), ech->pivots.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        } else {
            ech->kernel.push_back(mask);
        }
    }
    s.place = [ech, slot_of](int, int r, int c, std::vector<Slot>& out) {
        int v = r << 16 | c;
        std::uint64_t mask = 0;
        for (const auto& [pv, pm] : ech->pivots)
            if ((v ^ pv) < v) v ^= pv, mask ^= pm;
        if (v) return;  // no slot holds it
        const size_t first = out.size();
        for (std::uint64_t k = 0; k < (std::uint64_t{1} << ech->kernel.size()); ++k) {
            std::uint64_t x = mask;
            for (size_t j = 0; j < ech->kernel.size(); ++j)
                if ((k >> j) & 1) x ^= ech->kernel[j];
            out.push_back(slot_of(x));
        }
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                  [](const Slot& a, const Slot& b) { return a.lane != b.lane ? a.lane < b.lane : a.item < b.item; });
    };
    const int lanes = s.lanes, items = 1 << ne;
    s.candidates = [basis, ne, nw, per_cta, lanes, items](int t, int e, std::vector<Element>& out) {
        if (t < 0 || t >= lanes || e < 0 || e >= items) return;
        const std::uint64_t x = static_cast<std::uint64_t>(e) | static_cast<std::uint64_t>(t % 32) << ne |
                                static_cast<std::uint64_t>((t % per_cta) / 32) << (ne + 5) |
                                static_cast<std::uint64_t>(t / per_cta) << (ne + 5 + nw);
        int v = 0;
        for (size_t i = 0; i < basis.size(); ++i)
            if ((x >> i) & 1) v ^= basis[i];
        out.push_back({0, v >> 16, v & 0xffff});
    };
    return s;
}

OperandSpec tmem_load_regs(const Instruction& ins, const ResolvedModifiers& mods) {
    const TmemRegBases L = tcgen05_tmem_reg_bases(ins, mods);
    OperandSpec s;
    const int per_cta = 32 * L.num_warps;
    s.lanes = per_cta << L.cta.size();
    s.rows = L.rows;
    s.cols = L.cols;
    s.type = ins.d_type();
    s.width = s.stride = L.element_bits;
    const int elems = 1 << L.reg.size();
    s.regs = elems * L.element_bits / 32;
    auto bases_text = [](const std::vector<std::pair<int, int>>& v) {
        std::string t;
        for (const auto& b : v) t += (t.empty() ? "" : ", ") + std::string("[") + num(b.first) + ", " + num(b.second) + "]";
        return "[" + t + "]";
    };
    // Triton 3.6 builds D, F and A (get_tmem_reg_layout); B, E and G are the PTX load over CUTLASS's placement.
    static const char* kPlace[] = {"", "", "", "", "lane m + 64*floor(n/(N/2)), column n%(N/2)", "",
                                   "lane m + 32*floor(n/(N/4)), column n%(N/4)"};
    const int li = L.layout - 'A';
    const std::string how =
        L.layout == 'D' || L.layout == 'F' || L.layout == 'A'
            ? "Triton 3.6 get_tmem_reg_layout, instr_variant \"" + L.variant + "\""
            : "tcgen05.ld ." + L.variant + " over all 128 TMEM lanes of Layout " + std::string(1, L.layout) + ", D(m, n) at " +
                  (L.layout == 'B' ? std::string("lane m' + 64*floor(n/(N/2)), column n%(N/2) with m' = m - 64c") : kPlace[li]) +
                  (L.layout == 'B' ? " (CUTLASS's 2-SM 2x2 atom" : " (CUTLASS tmem_frg_ws") +
                  "; Triton has no TensorMemoryLayout for it)";
    s.formula = "D read back by " + num(L.num_warps) + " warps with " +
                (L.loads > 1 ? num(L.loads) + " loads per thread of " : std::string()) + L.message +
                (L.loads > 1 ? " (register r of a thread is register r%" + num(L.regs_per_load) + " of load floor(r/" +
                                   num(L.regs_per_load) + "))"
                             : std::string()) +
                " (" + how +
                "): thread = 32*warp + lane; element e of a thread (register " +
                (L.element_bits == 16 ? "floor(e/2), bits 16*(e%2)" : std::string("e")) +
                ") holds D at the XOR of the bases of e's, the lane's and the warp's set bits (m, n): register " +
                bases_text(L.reg) + ", lane " + bases_text(L.lane) + ", warp " + bases_text(L.warp) +
                ". Warp w reads TMEM lanes 32*(w%4) .. +31 only." +
                (L.cta.empty() ? std::string()
                               : " cta_group::2: thread " + num(per_cta) + "*c + t is thread t of CTA c of the pair, which reads "
                                 "its own CTA's TMEM: D rows " + num(L.cta[0].first) + "c .. " + num(L.cta[0].first) + "c+" +
                                 num(L.cta[0].first - 1) + " (CTA base [" + num(L.cta[0].first) + ", 0]).");
    return from_linear(s, L, per_cta);
}

}  // namespace

PairSlot tcgen05_pair_slot(const Instruction& ins, Operand op, const ResolvedModifiers& mods, const Location& loc) {
    PairSlot p;
    p.lane = loc.lane;
    if (!is_tcgen05(ins)) return p;
    p.pair = ins.cta_group == 2;
    const bool regs = ins.kind == LayoutKind::Tcgen05Mma && mods.tmem_load > 0 && (op == Operand::C || op == Operand::D);
    if (!regs) {
        if (ins.kind == LayoutKind::Tcgen05LdSt) return p;  // one warp's registers
        p.cta = loc.lane / 128, p.lane = loc.lane % 128;  // TMEM: 128 lanes per CTA
        return p;
    }
    const TmemRegBases L = tcgen05_tmem_reg_bases(ins, mods);
    const int per_cta = 32 * L.num_warps;
    p.cta = L.cta.empty() ? 0 : loc.lane / per_cta;
    p.lane = loc.lane % per_cta;
    p.warp = p.lane / 32;
    p.load = loc.reg / L.regs_per_load, p.load_reg = loc.reg % L.regs_per_load;
    p.loads = L.loads;
    p.load_regs = L.regs_per_load;
    p.load_ptx = L.message;
    return p;
}

std::vector<Operand> tcgen05_operands(const Instruction& ins) {
    switch (ins.kind) {
        case LayoutKind::Tcgen05Mma: {
            // A (in TMEM, or in shared memory through its descriptor) and B (shared memory:
            // detail::smem_operand_spec, core/src/memory/nvidia_smem.cpp).
            std::vector<Operand> ops = {Operand::A, Operand::B, Operand::C};
            ops.push_back(Operand::D);
            if (ins.tcgen05_sparse) ops.push_back(Operand::K);
            if (ins.scale_vec > 0) {
                ops.push_back(Operand::SA);
                ops.push_back(Operand::SB);
            }
            return ops;
        }
        default: return {Operand::D};
    }
}

OperandSpec tcgen05_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    const auto ops = tcgen05_operands(ins);
    if (std::find(ops.begin(), ops.end(), op) == ops.end())
        throw Error("operand " + std::string(operand_name(op)) + " does not exist for " + ins.mnemonic);
    switch (ins.kind) {
        case LayoutKind::Tcgen05Mma:
            switch (op) {
                case Operand::A: return ins.a_in_tmem ? tmem_a(ins) : smem_operand_spec(ins, op, mods);
                case Operand::B: return smem_operand_spec(ins, op, mods);
                case Operand::K: return tmem_meta(ins);
                case Operand::SA: return tmem_sf(ins, true, mods.sfa_id);
                case Operand::SB: return tmem_sf(ins, false, mods.sfb_id);
                default: return mods.tmem_load > 0 ? tmem_load_regs(ins, mods) : tmem_d(ins);
            }
        case LayoutKind::Tcgen05LdSt: return tcgen05_ldst(ins, mods);
        case LayoutKind::Tcgen05Cp: return tcgen05_cp(ins);
        default: break;
    }
    throw Error("internal: " + ins.mnemonic + " is not laid out by a tcgen05 family yet");
}

std::string tcgen05_rule_violation(const Instruction& ins) {
    switch (ins.kind) {
        case LayoutKind::Tcgen05Mma: {
            if (ins.cta_group != 1 && ins.cta_group != 2) return "tcgen05.mma has cta_group 1 or 2";
            const int M = ins.m, N = ins.n;
            if (ins.ws) {
                if (ins.cta_group != 1) return ".ws is cta_group::1 only";
                if (M != 32 && M != 64 && M != 128) return ".ws M is 32, 64 or 128";
                if (N != 64 && N != 128 && N != 256) return ".ws N is 64, 128 or 256";
            } else if (ins.cta_group == 1) {
                if (M != 64 && M != 128) return "cta_group::1 M is 64 or 128";
                if (N < 8 || N > 256 || N % 8) return "cta_group::1 N is 8..256, step 8";
            } else {
                if (M != 128 && M != 256) return "cta_group::2 M is 128 or 256";
                if (N < 16 || N > 256 || N % 16) return "cta_group::2 N is 16..256, step 16";
            }
            const bool block_scaled = ins.mma_kind.rfind("mx", 0) == 0;
            if (block_scaled != (ins.scale_vec > 0)) return "block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4) and only they have scale_vec";
            if (ins.scale_vec != 0 && ins.scale_vec != 1 && ins.scale_vec != 2 && ins.scale_vec != 3 && ins.scale_vec != 4 &&
                ins.scale_vec != 6)
                return "scale_vec is 1, 2, 4 (3, 6 at K = 96)";
            static const char* kKinds[] = {"f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"};
            if (std::find_if(std::begin(kKinds), std::end(kKinds), [&](const char* k) { return ins.mma_kind == k; }) ==
                std::end(kKinds))
                return "kind is f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4 or mxf4nvf4";
            if (ins.k <= 0 || ins.k > 256) return "K is 8..128 (the kind's 256 bits of A; sparse doubles it)";
            return "";
        }
        case LayoutKind::Tcgen05LdSt: {
            const Atom* a = find_atom(ins.tmem_shape);
            if (!a) return "tcgen05.ld/st shapes are 32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2";
            if (!pow2(ins.tmem_num) || ins.tmem_num > a->max_num)
                return std::string(".num of ") + a->shape + " is .x1 .. .x" + num(a->max_num) + " (powers of two)";
            if (ins.k != 0) return "tcgen05.ld/st have no K: shape MxNx0";
            return "";
        }
        case LayoutKind::Tcgen05Cp:
            if (!find_cp(ins.tmem_shape))
                return "tcgen05.cp shapes are 128x256b, 128x128b, 4x256b, 64x128b.warpx2::02_13, 64x128b.warpx2::01_23, "
                       "32x128b.warpx4";
            if (ins.cta_group != 1 && ins.cta_group != 2) return "tcgen05.cp has cta_group 1 or 2";
            return "";
        default: return "not a tcgen05 family";
    }
}

std::vector<int> tcgen05_tmem_load_values(const Instruction& ins, std::string& why) {
    if (ins.kind != LayoutKind::Tcgen05Mma) {
        why = "only a tcgen05.mma accumulator (D in Tensor Memory) is read back with tcgen05.ld";
        return {};
    }
    std::vector<int> v = {0};
    std::string refused;
    for (int i = 1; i <= 5; ++i) {
        const std::string r = tmem_load_refusal(ins, i);
        if (r.empty()) v.push_back(i);
        else if (refused.find(r) == std::string::npos) refused += (refused.empty() ? "" : "; ") + std::string(kVariants[i]) + ": " + r;
    }
    why = "the tcgen05.ld shape that reads D back into registers (0: D as it sits in Tensor Memory)" +
          (refused.empty() ? std::string() : "; refused: " + refused);
    return v;
}

std::vector<int> tcgen05_sf_id_values(const Instruction& ins, bool a, std::string& why) {
    if (ins.kind != LayoutKind::Tcgen05Mma || ins.scale_vec == 0) {
        why = "only block-scaled tcgen05.mma (kind::mxf8f6f4, mxf4, mxf4nvf4) have SFA_ID / SFB_ID";
        return {};
    }
    const std::string f = a ? "SFA_ID" : "SFB_ID";
    switch (ins.scale_vec) {
        case 1: why = f + ": the byte of the scale-factor word (scale_vec::1X: 0..3; idesc bits " + (a ? "29-30" : "4-5") + ")"; return {0, 1, 2, 3};
        case 2: why = f + ": the halfword of the scale-factor word (scale_vec::2X: 0 or 2)"; return {0, 2};
        default: why = f + ": scale_vec::" + num(ins.scale_vec) + "X uses the whole word (0 only)"; return {0};
    }
}

std::vector<int> tcgen05_half_split_values(const Instruction& ins, std::string& why) {
    if (ins.kind != LayoutKind::Tcgen05LdSt || ins.tmem_shape != "16x32bx2") {
        why = "only tcgen05.ld/st .16x32bx2 have immHalfSplitoff";
        return {};
    }
    const int C = ld_columns(ins);
    std::vector<int> v;
    for (int s = C; s + C <= 512 && v.size() < 16; s += C) v.push_back(s);
    why = "immHalfSplitoff: the column offset of the second half (threads 16-31); CUTLASS passes " + num(C);
    return v;
}

std::string tcgen05_family_source(LayoutKind k) {
    switch (k) {
        case LayoutKind::Tcgen05Mma:
            return std::string(kPtxLayouts) + " and §9.7.16.10.4-.8 (A, scale factors, metadata in Tensor Memory); " +
                   kCutlassFrg + ", tmem_sf_frg, tmem_e_frg; " + kTritonTmem +
                   " and tensorMemoryScalesToLinearLayout; the register layout after tcgen05.ld: Triton 3.6 "
                   "get_tmem_reg_layout (TritonNvidiaGPU Dialect.cpp getDistributedLayoutForTmemLdSt) on Layouts D, F "
                   "and A, the PTX load over CUTLASS's placement on B, E and G. " +
                   kNotOnHardware;
        case LayoutKind::Tcgen05LdSt:
            return std::string("PTX ISA §9.7.16.8.3-.4 (tcgen05.ld/st, Table 49) and figures 183-187; CUTLASS "
                               "copy_traits_sm100.hpp (SM100_TMEM_LOAD_* traits); Triton getTileLayout. ") +
                   kNotOnHardware;
        case LayoutKind::Tcgen05Cp: return std::string("PTX ISA §9.7.16.9 (tcgen05.cp). ") + kNotOnHardware;
        default: return "";
    }
}

Evidence tcgen05_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods) {
    auto ev = [](std::string conf, std::string sources, std::string why) {
        return Evidence{std::move(conf), std::move(sources), std::move(why) + "; " + kNotOnHardware, {}};
    };
    if (ins.kind == LayoutKind::Tcgen05LdSt)
        return ev("high",
                  "PTX ISA §9.7.16.8.3 Table 49 and figures 183-187; CUTLASS copy_traits_sm100.hpp SM100_TMEM_LOAD_" +
                      std::string(find_atom(ins.tmem_shape)->cute) + num(ins.tmem_num) + "x" + (ins.pack16 ? "_16b" : "") +
                      "; Triton getTileLayout",
                  "CUTLASS's published TMEM copy atoms and Triton's tile layouts agree (three sources)");
    if (ins.kind == LayoutKind::Tcgen05Cp) {
        const std::string sh = ins.tmem_shape;
        if (sh == "128x256b" || sh == "128x128b")
            return ev("high", "PTX ISA §9.7.16.9.2; CUTLASS copy_traits_sm100.hpp SM100_UTCCP_* (ValID); SASS UTCCP.T.S",
                      "one shared-memory row per TMEM lane: PTX's text and CUTLASS's ValID agree");
        if (sh == "4x256b")
            return ev("low", "CUTLASS SM100_UTCCP_4x256b (its comment only); PTX ISA §9.7.16.9.2",
                      "which lanes 4x256b writes rests on a CUTLASS comment ('the last 4 lanes of each subpartition')");
        return ev("medium", "CUTLASS SM100_UTCCP_* ValIDs; SASS UTCCP.T.S." + std::string(sh.rfind("32x", 0) == 0 ? "4x32dp128bit" : "2x64dp128bit"),
                  "the warp pairing rests on CUTLASS's ValID and the SASS name");
    }
    if (ins.kind != LayoutKind::Tcgen05Mma) return ev("low", "PTX ISA §9.7.16", "not a tcgen05 family");
    const DLayout l = d_layout(ins);
    const std::string letter(1, d_letter(l));
    if ((op == Operand::C || op == Operand::D) && mods.tmem_load > 0 && (l == DLayout::B || l == DLayout::E || l == DLayout::G))
        return ev(l == DLayout::B ? "high" : "medium",
                  "PTX ISA §9.7.16.8 (tcgen05.ld shapes) and §9.7.16.10.5 (Layout " + letter + "); CUTLASS copy_traits_sm100.hpp "
                  "SM100_TMEM_LOAD_* atoms; " + std::string(kCutlassFrg),
                  "the PTX load's threads and registers over Layout " + letter + " as CUTLASS places D" +
                      (l == DLayout::B ? ""
                       : l == DLayout::E ? " (medium: PTX's table reads \"2x3\" for .ws M = 64 where CUTLASS and tvm say 2x2; "
                                           "its figure is an image)"
                                         : " (medium: CUTLASS's tmem_frg_ws and PTX's \"1x4\" agree, but PTX's figure is an "
                                           "image)") +
                      "; Triton 3.6 has no layout for it to compare with");
    if ((op == Operand::C || op == Operand::D) && mods.tmem_load > 0)
        return ev("high",
                  "Triton 3.6 get_tmem_reg_layout (its own dump, scripts/triton-tmem-layouts.py); CUTLASS "
                  "copy_traits_sm100.hpp SM100_TMEM_LOAD_* atoms; " + std::string(kTritonTmem),
                  "the register layout is Triton 3.6's, element by element, over CUTLASS's TMEM copy atoms and the "
                  "Layout " + letter + " that both CUTLASS and Triton give");
    if (op == Operand::C || op == Operand::D) {
        switch (l) {
            case DLayout::D:
            case DLayout::F:
            case DLayout::A:
            case DLayout::B: {
                Evidence e = ev("high", std::string(kPtxLayouts) + "; " + kCutlassFrg + "; " + kTritonTmem + "; Apache TVM tirx tmem_datapath_layout",
                                "Layout " + letter + ": CUTLASS's TMEM atom and Triton's tensor-memory layout agree");
                if (l == DLayout::F)
                    e.alternatives.push_back({"lane alignment L0 = 16: lane = 16 + m%16 + 32*floor(m/16)",
                                              "PTX ISA §9.7.16.10.5 (Layout F allows either alignment; A, D and the metadata "
                                              "must use the same)",
                                              "every element moves 16 lanes up; lanescope lays out L0 = 0"});
                return e;
            }
            case DLayout::C:
                return ev("low", std::string(kPtxLayouts) + "; Apache TVM tirx tmem_datapath_layout",
                          "Layout C: the PTX table and TVM's prose say 'the same organization as F' per CTA; no CUTLASS "
                          "atom or Triton layout was found (single source, read from a table and prose)");
            case DLayout::E: {
                Evidence e = ev("medium", std::string(kCutlassFrg) + " (tmem_frg_ws M = 64); Apache TVM tirx",
                                "Layout E: CUTLASS's .ws atom (one authoritative source; TVM's prose agrees)");
                e.alternatives.push_back({"PTX's table names the organization '2x3'", "PTX ISA §9.7.16.10.5",
                                          "no reading of a 2x3 split fits 128 lanes; CUTLASS and TVM say 2x2 (taken here)"});
                return e;
            }
            case DLayout::G:
                return ev("medium", std::string(kCutlassFrg) + " (tmem_frg_ws M = 32 '1x4'); PTX ISA §9.7.16.10.5 '1x4'",
                          "Layout G: CUTLASS's .ws atom is the only source of the lanes; PTX names the 1x4 organization");
        }
    }
    // CUTLASS has *_TS atoms only for F16BF16, TF32, S8 and F8F6F4: none for the block-scaled kinds.
    const bool has_ts_atom = ins.scale_vec == 0;
    if (op == Operand::A)
        return ev(elem_bits(ins.a) < 8 && a_container_bits(ins) == 8 ? "low" : has_ts_atom ? "medium" : "low",
                  has_ts_atom ? "CUTLASS mma_traits_sm100_frag.hpp tmem_frg (NonInterleaved / Duplicated, *_TS atoms); PTX ISA "
                                "§9.7.16.10.4.3"
                              : "PTX ISA §9.7.16.10.4.3; CUTLASS mma_traits_sm100_frag.hpp tmem_frg (as its *_TS atoms of "
                                "the unscaled kinds place A; CUTLASS has no *_TS atom for a block-scaled kind)",
                  (has_ts_atom ? "A in Tensor Memory rests on CUTLASS's atoms alone"
                               : "A in Tensor Memory of a block-scaled kind: CUTLASS has no *_TS atom for it; lanescope "
                                 "places A as the unscaled kinds' tmem_frg does (by analogy)") +
                      std::string(elem_bits(ins.a) < 8 && a_container_bits(ins) == 8
                                      ? "; a 4/6-bit value's bits in its 8-bit container (e2m1 5:2, e3m2/e2m3 5:0) are "
                                        "those PTX's text gives mma.sync's containers (§9.7.14.5.14, CUTLASS fp4_shift): "
                                        "PTX figures 199-201, which show TMEM's, are images not read here"
                                      : "") +
                      (ins.tcgen05_sparse ? "; the compressed sparse A's packing is read by analogy" : ""));
    if (op == Operand::K && ins.ws && ins.m < 128)
        return ev("medium", "CUTLASS mma_traits_sm100_frag.hpp tmem_e_frg_ws (M = " + num(ins.m) + "); PTX ISA §9.7.16.10.8",
                  "the .ws metadata at M = " + num(ins.m) + " is CUTLASS's tmem_e_frg_ws alone: the M = 128 per-row "
                  "pattern with " + num(128 / ins.m) + " copies at lane stride " + num(ins.m));
    if (op == Operand::K)
        return ev("low", "CUTLASS mma_traits_sm100_frag.hpp tmem_e_frg (M = 128); PTX ISA §9.7.16.10.8 (figures 262-267)",
                  "the metadata layout is CUTLASS's M = 128 atom only" +
                      std::string(ins.m / ins.cta_group != 128 ? "; other M reuse it per CTA by analogy" : ""));
    // Scale factors.
    const bool two_by_two = ins.cta_group == 2 && ins.m == 128;
    if (ins.scale_vec == 3 || ins.scale_vec == 6)
        return ev("low", "PTX ISA §9.7.16.10.7 (K = 96 figures 234-258, images); CUTLASS SM103_MXF4_ULTRA_* (tmem_sf_frg "
                         "with NSF " + num(ins.scale_vec) + ")",
                  "sm_103a K = 96, " + num(ins.scale_vec) + " scale factors per row: PTX's figures are images; CUTLASS's "
                  "SM103 atoms reuse tmem_sf_frg with NSF = " + num(ins.scale_vec) + ", the bytes continuing those of "
                  "1X/2X/4X (an inference from one source, not a reading of PTX)");
    if (op == Operand::SB && two_by_two)
        return ev("medium", "CUTLASS mma_traits_sm100_frag.hpp tmem_sf_frg (ScaleFactorDuplicated2by2), "
                            "sm100_blockscaled_layout.hpp (MMA_N_SFB); PTX ISA §9.7.16.10.7",
                  "SFB on the 2x2 data path (cta_group::2, M = 128): CUTLASS's duplicated atom is the only source");
    if (op == Operand::SB && ins.cta_group == 2)
        return ev("medium", "CUTLASS mma_traits_sm100.hpp (the 2x1SM MMA_ScaleFactor, a 1-SM atom; TiledMMA_SF), "
                            "copy_traits_sm100.hpp SM100_UTCCP_4x32dp128bit_2cta, tmem_sf_frg; PTX ISA §9.7.16.10.7",
                  "SFB of a cta_group::2 M = 256 MMA: each CTA holds the pair's whole N at column n/32, as CUTLASS's "
                  "kernels copy it (CUTLASS is the only source)");
    return ev("high", "PTX ISA §9.7.16.10.7 ('duplicated to all 32 lane partitions', SF_ID the byte offset); CUTLASS "
                      "tmem_sf_frg; Triton tensorMemoryScalesToLinearLayout",
              "PTX's text, CUTLASS's atom and Triton's scales layout agree");
}

}  // namespace lanescope::detail
