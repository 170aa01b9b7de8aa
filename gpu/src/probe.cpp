// Probe kernel source: one function per instruction and modifier set. The
// prelude (gpu/kernels/probe_prelude.h) is embedded at build time.
#include "lanescope/gpu.hpp"

#include "probe_prelude.inc"  // kProbePrelude

#include <algorithm>
#include <string>
#include <vector>

namespace lanescope::gpu {

std::string probe_prelude() { return kProbePrelude; }

namespace {
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t at = 0;
    for (;;) {
        size_t next = s.find(sep, at);
        out.push_back(s.substr(at, next - at));
        if (next == std::string::npos) return out;
        at = next + 1;
    }
}
}  // namespace

std::string probe_function(const Instruction& ins, const Target& t, const ResolvedModifiers& mods,
                           const std::string& name) {
    const std::string vec = ins.vector_types(mods.wave);
    const size_t gt = vec.find('>');
    std::vector<std::string> in = split(vec.substr(0, gt), ',');
    if (gt == std::string::npos || in.size() != 3)
        throw Error("catalog line " + std::to_string(ins.catalog_line) + ": vector types '" + vec +
                    "' are not \"A,B,C>D\"");
    const std::string dtype = vec.substr(gt + 1);
    const int lanes = mods.wave;
    std::string body;
    body += "LANESCOPE_PROBE void " + name + "(const unsigned* in, unsigned* out) {\n";
    body += "    const unsigned lane = __builtin_amdgcn_workitem_id_x();\n";
    int offset = 0;
    // The builtin keeps its full vector type whatever the format: f8f6f4's A/B
    // are v8i32 while FP6 uses 6 of the registers and FP4 4 (the instruction's
    // operand shrinks; the compiler reads the format from cbsz/blgp). The type
    // must hold the registers of the widest format (format 0, FP8).
    // gfx1250's f8f6f4 WMMA likewise: v16i32 A/B, 16/12/8 registers for 8/6/4-bit data.
    const bool gfx1250 = ins.kind == LayoutKind::WmmaGfx1250 || ins.kind == LayoutKind::WmmaScaleGfx1250 ||
                         ins.kind == LayoutKind::SwmmacGfx1250;
    ResolvedModifiers widest = mods;
    if (ins.kind == LayoutKind::MfmaScaled) widest.cbsz = widest.blgp = 0;
    if (gfx1250) widest.matrix_a_fmt = widest.matrix_b_fmt = 0;
    auto load = [&](const std::string& type, const std::string& var, Operand op) {
        const int regs = operand_regs(ins, op, mods);
        int full = operand_regs(ins, op, widest);
        // gfx1250's 8-bit SWMMAC index is a VGPR pair, but the clang-22 builtin
        // takes an int and leaves the upper VGPR unwritten: the builtin carries one.
        if (gfx1250 && op == Operand::K && type == "int") full = 1;
        const int copied = std::min(regs, full);
        body += "    " + type + " " + var + (full != regs ? " = {0}" : "") + ";\n";
        // The catalog's builtin type and its register count must agree.
        body += "    _Static_assert(sizeof(" + var + ") == " + std::to_string(4 * full) + ", \"operand " +
                std::string(operand_name(op)) + ": the builtin's type is not " + std::to_string(full) +
                " registers\");\n";
        body += "    __builtin_memcpy(&" + var + ", in + " + std::to_string(offset) + " + lane * " + std::to_string(regs) +
                ", " + (full != regs ? std::to_string(4 * copied) : "sizeof " + var) + ");\n";
        offset += regs * lanes;
    };
    load(in[0], "a", Operand::A);
    load(in[1], "b", Operand::B);
    load(in[2], "c", Operand::C);
    const bool sparse = ins.sparse();
    if (sparse) load("int", "idx", Operand::K);
    if ((ins.kind == LayoutKind::MfmaScaled && ins.scales) || ins.kind == LayoutKind::WmmaScaleGfx1250) {
        // gfx1250's scale16 forms take 64-bit scales (two VGPRs).
        const std::string st = operand_regs(ins, Operand::SA, mods) == 2 ? "i64" : "int";
        load(st, "sa", Operand::SA);
        load(st, "sb", Operand::SB);
    }
    auto num = [](int v) { return std::to_string(v); };
    std::string args;
    const bool integer = ins.a == ElemType::IU8 || ins.a == ElemType::IU4;
    switch (ins.kind) {
        case LayoutKind::Mfma:
            args = "a, b, c, " + num(mods.cbsz) + ", " + num(mods.abid) + ", " + num(mods.blgp);
            break;
        case LayoutKind::MfmaScaled:
            // The unscaled form: the same builtin with both scales a literal 0.
            if (ins.scales)
                args = "a, b, c, " + num(mods.cbsz) + ", " + num(mods.blgp) + ", " + num(mods.opsel_a) + ", sa, " +
                       num(mods.opsel_b) + ", sb";
            else
                args = "a, b, c, " + num(mods.cbsz) + ", " + num(mods.blgp) + ", 0, 0, 0, 0";
            break;
        case LayoutKind::SmfmacCdna3:
        case LayoutKind::SmfmacCdna4: args = "a, b, c, idx, " + num(mods.cbsz) + ", " + num(mods.abid); break;
        case LayoutKind::WmmaRdna3:
            if (integer)
                args = "0, a, 0, b, c, 0";
            else if (elem_bits(ins.c) == 16)
                args = "a, b, c, " + num(mods.opsel == 4 ? 1 : 0);
            else
                args = "a, b, c";
            break;
        case LayoutKind::WmmaRdna4: args = integer ? "0, a, 0, b, c, 0" : "a, b, c"; break;
        // gfx1250: the builtins' constant arguments as clang-22 takes them (neg,
        // c_mod, reuse and clamp 0: they change values or are hints, never placement).
        case LayoutKind::WmmaGfx1250:
            if (integer)
                args = "0, a, 0, b, c, 0, 0";
            else if (ins.a == ElemType::F8F6F4)
                args = num(mods.matrix_a_fmt) + ", a, " + num(mods.matrix_b_fmt) + ", b, (short)0, c";
            else if (ins.a == ElemType::FP4)
                args = "a, b, (short)0, c";
            else if (elem_bits(ins.a) == 8)
                args = "a, b, (short)0, c, 0, 0";
            else
                args = "0, a, 0, b, (short)0, c, 0, 0";
            break;
        case LayoutKind::WmmaScaleGfx1250:
            args = (ins.a == ElemType::F8F6F4
                        ? num(mods.matrix_a_fmt) + ", a, " + num(mods.matrix_b_fmt) + ", b, "
                        : std::string("a, b, ")) +
                   "(short)0, c, " + num(mods.matrix_a_scale) + ", " + num(mods.matrix_a_scale_fmt) + ", sa, " +
                   num(mods.matrix_b_scale) + ", " + num(mods.matrix_b_scale_fmt) + ", sb, 0, 0";
            break;
        case LayoutKind::SwmmacGfx1250:
            if (ins.a == ElemType::IU8)
                args = "0, a, 0, b, c, idx, 0, 0, 0";
            else if (elem_bits(ins.a) == 8)
                args = "a, b, c, idx, 0, 0";
            else
                args = "0, a, 0, b, c, idx, 0, 0";
            break;
        case LayoutKind::MmaSync:
        case LayoutKind::MmaSparse:
        case LayoutKind::LdStMatrix:
        case LayoutKind::Wgmma:
        case LayoutKind::Tcgen05Mma:
        case LayoutKind::Tcgen05LdSt:
        case LayoutKind::Tcgen05Cp:
        case LayoutKind::MmaBlockScale:
            throw Error(ins.mnemonic + " is an NVIDIA instruction: its probe kernel is PTX (ptx_probe_source)");
        case LayoutKind::SwmmacRdna4: {
            // index_key: the builtin takes the chosen set in the low bits; the
            // compiler folds the shift into the instruction's index_key field.
            int sets = 1;
            for (const ModifierRange& r : modifier_ranges(ins, t, mods))
                if (r.name == "opsel") sets = int(r.values.size());
            const int shift = mods.opsel * (32 / sets);
            const std::string key = "(int)((unsigned)idx >> " + num(shift) + ")";
            args = integer ? "0, a, 0, b, c, " + key + ", 0" : "a, b, c, " + key;
            break;
        }
    }
    body += "    " + dtype + " d = " + ins.builtin(mods.wave) + "(" + args + ");\n";
    const int dregs = operand_regs(ins, Operand::D, mods);
    body += "    _Static_assert(sizeof(d) == " + num(4 * dregs) + ", \"operand D: the builtin's type is not " +
            num(dregs) + " registers\");\n";
    body += "    __builtin_memcpy(out + lane * " + num(dregs) + ", &d, sizeof d);\n}\n";
    return body;
}

std::string probe_source(const Instruction& ins, const Target& t, const ResolvedModifiers& mods) {
    return probe_prelude() + "\n// " + ins.mnemonic + (mods.describe().empty() ? "" : " " + mods.describe()) + "\n" +
           probe_function(ins, t, mods, "lanescope_probe");
}

}  // namespace lanescope::gpu
