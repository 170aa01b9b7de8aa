// Gluon constructors (gluon.hpp). The named layouts' parameters follow
// Triton's python/triton/experimental/gluon/language/_layouts.py and
// amd/_layouts.py (Triton 3.6): AMDMFMALayout(version, instr_shape,
// transposed, warps_per_cta, element_bitwidth, tiles_per_warp),
// AMDWMMALayout(version, transposed, warps_per_cta, instr_shape,
// tiles_per_warp), NVMMADistributedLayout(version, warps_per_cta,
// instr_shape), DotOperandLayout(operand_index, parent, k_width). The AMD ones
// are witnessed by tests/data/triton (Triton 3.6's own layouts: equal bases,
// equal parameters). Every form printed here was evaluated back in Triton
// 3.6's Gluon on the host (scripts/gluon-roundtrip.py, 1,278 cases, the log in
// docs/verification/2026-12-01-h200-gluon.md): the named forms, NVIDIA's too,
// give lanescope's bases exactly, which is why a wgmma grid with warpgroups
// along both M and N gets none (Triton numbers them along M first).
#include "lanescope/gluon.hpp"
#include "layouts/layout_spec.hpp"

#include <algorithm>

namespace lanescope {

namespace {

std::string num(long long v) { return std::to_string(v); }
std::string pair(int a, int b) { return "[" + num(a) + ", " + num(b) + "]"; }

}  // namespace

GluonForm gluon_of(const TileLayout& t, const Instruction& ins, const Target& target) {
    GluonForm g;
    const LinearResult lin = to_linear(t);
    const bool nvidia = target.vendor() == Vendor::NVIDIA;
    if (lin.layout) g.linear = "gl." + render_distributed_linear(*lin.layout, nvidia ? 32 : t.lanes());
    else g.why_not_linear = lin.why_not;

    const TileParams& p = t.params();
    const Operand op = t.operand();
    const bool dot = op == Operand::A || op == Operand::B;
    const bool acc = op == Operand::C || op == Operand::D;
    std::string parent;
    int k_width = 0;
    const Family f = target.family;
    // Triton's named layouts know no modifiers (cbsz/abid, blgp, opsel): only default-modifier layouts have one.
    bool default_modifiers = false;
    try {
        Modifiers m;
        if (!nvidia) m.wave = t.lanes();
        const auto a = layout_of(ins, target, op, resolve_modifiers(ins, target, m)).entries();
        const auto b = t.instruction().entries();
        default_modifiers = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Entry& x, const Entry& y) {
                                return x.element == y.element && x.loc == y.loc;
                            });
    } catch (const Error&) {
    }
    if (!lin.layout) {
        g.named_note = "no named Gluon layout: Triton's layouts are linear and this one is not";
    } else if (!default_modifiers) {
        g.named_note = "no named Gluon layout under these modifiers (Triton's layouts have no cbsz/abid, blgp or opsel)";
    } else if (!dot && !acc) {
        g.named_note = "no named Gluon layout for operand " + std::string(operand_name(op)) + " (only A, B, C/D have one)";
    } else if (t.triton() == TritonLayout::Mfma && ins.m == ins.n && (ins.m == 16 || ins.m == 32)) {
        const int version = f == Family::CDNA1 ? 1 : f == Family::CDNA2 ? 2 : f == Family::CDNA3 ? 3 : 4;
        // Triton's instr_shape K grows with kWidth (two 32x32x8 issues at kWidth 8 are its 32x32x16).
        const int kw = t.k_width(), native = t.native_k_width();
        const int k = dot && kw > 0 && native > 0 ? ins.k * kw / native : ins.k;
        parent = "AMDMFMALayout(version=" + num(version) + ", instr_shape=[" + num(ins.m) + ", " + num(ins.n) + ", " +
                 num(k) + "], transposed=" + (p.transposed ? "True" : "False") + ", warps_per_cta=" +
                 pair(p.waves_m, p.waves_n) + ", element_bitwidth=" + num(elem_bits(ins.c)) +
                 ", tiles_per_warp=" + pair(p.tiles_m, p.tiles_n) + ")";
        k_width = kw;
        g.named_note = "named form: as Triton 3.6 builds it (witnessed by its own layouts, tests/data/triton)";
    } else if ((t.triton() == TritonLayout::Wmma1 || t.triton() == TritonLayout::Wmma2 || t.triton() == TritonLayout::Wmma3) &&
               ins.m == 16 && ins.n == 16) {
        const int version = t.triton() == TritonLayout::Wmma1 ? 1 : t.triton() == TritonLayout::Wmma2 ? 2 : 3;
        parent = "AMDWMMALayout(version=" + num(version) + ", transposed=" + (p.transposed ? "True" : "False") +
                 ", warps_per_cta=" + pair(p.waves_m, p.waves_n) + ", instr_shape=[" + num(ins.m) + ", " + num(ins.n) + ", " +
                 num(ins.k) + "], tiles_per_warp=" + pair(p.tiles_m, p.tiles_n) + ")";
        k_width = t.k_width();
        g.named_note = "named form: as Triton 3.6 builds it (witnessed by its own layouts, tests/data/triton)";
    } else if (ins.kind == LayoutKind::MmaSync && ins.m == 16 && ins.n == 8 && p.tiles_m == 1 && p.tiles_n == 1) {
        parent = "gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=" + pair(p.waves_m, p.waves_n) +
                 ", instr_shape=[16, 8])";
        k_width = 32 / std::max(1, elem_bits(ins.a));
        g.named_note = "named form: Triton 3.6 evaluates it to these bases (mma v2; kWidth = 32 bits / element; "
                       "measured: docs/verification/2026-12-01-h200-gluon.md)";
    } else if (ins.kind == LayoutKind::Wgmma && acc && p.tiles_m == 1 && p.tiles_n == 1 && p.waves_m > 1 && p.waves_n > 1) {
        // Triton 3.6 numbers the warps of warps_per_cta=[4*WM, WN] along M first, so its warpgroup g is
        // lanescope's wave (g % WM) * WN + g / WM: the same elements per thread, other wave numbers.
        g.named_note = "no named Gluon layout with this wave numbering: NVMMADistributedLayout(version=[3, 0], "
                       "warps_per_cta=" + pair(4 * p.waves_m, p.waves_n) + ", ...) numbers warpgroups along M first "
                       "(its warpgroup g is lanescope's wave (g % " + num(p.waves_m) + ") * " + num(p.waves_n) +
                       " + g / " + num(p.waves_m) + "); the DistributedLinearLayout is the exact one";
    } else if (ins.kind == LayoutKind::Wgmma && acc && p.tiles_m == 1 && p.tiles_n == 1) {
        parent = "gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=" + pair(4 * p.waves_m, p.waves_n) +
                 ", instr_shape=[16, " + num(ins.n) + ", " + num(256 / std::max(1, elem_bits(ins.a))) + "])";
        g.named_note = "named form: Triton 3.6 evaluates it to these bases (mma v3: a warpgroup is 4 warps along M; "
                       "measured: docs/verification/2026-12-01-h200-gluon.md)";
    } else {
        g.named_note = "no named Gluon layout for " + ins.mnemonic + " (" + std::string(layout_kind_name(ins.kind)) +
                       (p.tiles_m * p.tiles_n > 1 ? ", tiles per wave" : "") +
                       "); the DistributedLinearLayout is the exact one";
    }
    if (!parent.empty())
        g.named = dot ? "gl.DotOperandLayout(operand_index=" + num(op == Operand::A ? 0 : 1) + ", parent=" + parent +
                            ", k_width=" + num(k_width) + ")"
                      : parent;
    return g;
}

// A tcgen05.mma D read back with --tmem-load: Triton 3.6's own constructors (scripts/triton-tmem-layouts.py
// dumps what they build; tests/test_tcgen05.cpp compares them element by element).
GluonForm gluon_of(const TileLayout& t, const Instruction& ins, const Target& target, const ResolvedModifiers& mods) {
    GluonForm g = gluon_of(t, ins, target);
    const Operand op = t.operand();
    if (ins.kind != LayoutKind::Tcgen05Mma || mods.tmem_load <= 0 || (op != Operand::C && op != Operand::D)) return g;
    const detail::TmemRegBases b = detail::tcgen05_tmem_reg_bases(ins, mods);
    const std::string dtype = b.element_bits == 16 ? (ins.d_type() == ElemType::BF16 ? "gl.bfloat16" : "gl.float16")
                                                   : ins.d_type() == ElemType::S32 ? "gl.int32" : "gl.float32";
    // Triton infers 16x32bx2 from a 32x32b request on a 64-row block; it refuses it by name.
    const std::string variant = b.variant == "16x32bx2" ? "32x32b" : b.variant;
    g.named = "get_tmem_reg_layout(" + dtype + ", [" + num(b.rows) + ", " + num(b.cols) +
              "], TensorMemoryLayout(block=(" + num(b.rows) + ", " + num(b.cols) + "), col_stride=" +
              num(32 / b.element_bits) + "), num_warps=" + num(b.num_warps) + ", instr_variant=\"" + variant + "\")";
    g.named_note = "named form: Triton 3.6's get_tmem_reg_layout for a TMEM block of D (" + b.message +
                   "; witnessed by its own layouts, tests/data/triton)";
    return g;
}

std::string render_gluon(const GluonForm& g, const std::string& title) {
    std::string s = "# " + title + "\n";
    s += "from triton.experimental.gluon import language as gl\n";
    if (g.named.find("AMDMFMALayout") != std::string::npos || g.named.find("AMDWMMALayout") != std::string::npos)
        s += "from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout\n";
    if (g.named.find("get_tmem_reg_layout") != std::string::npos)
        s += "from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, get_tmem_reg_layout\n";
    if (!g.named.empty()) s += "# " + g.named_note + "\nlayout = " + g.named + "\n";
    else s += "# " + g.named_note + "\n";
    if (!g.linear.empty()) s += "# the same layout as bases (exact: lanescope's linear form)\nlinear = " + g.linear + "\n";
    else s += "# no DistributedLinearLayout: " + g.why_not_linear + "\n";
    return s;
}

}  // namespace lanescope
