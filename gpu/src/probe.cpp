// Probe kernel source: one function per instruction and modifier set. The
// prelude (gpu/kernels/probe_prelude.h) is embedded at build time.
#include "lanescope/gpu.hpp"

#include "probe_prelude.inc"  // kProbePrelude

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
    ResolvedModifiers widest = mods;
    if (ins.kind == LayoutKind::MfmaScaled) widest.cbsz = widest.blgp = 0;
    auto load = [&](const std::string& type, const std::string& var, Operand op) {
        const int regs = operand_regs(ins, op, mods);
        const int full = operand_regs(ins, op, widest);
        body += "    " + type + " " + var + (full != regs ? " = {0}" : "") + ";\n";
        // The catalog's builtin type and its register count must agree.
        body += "    _Static_assert(sizeof(" + var + ") == " + std::to_string(4 * full) + ", \"operand " +
                std::string(operand_name(op)) + ": the builtin's type is not " + std::to_string(full) +
                " registers\");\n";
        body += "    __builtin_memcpy(&" + var + ", in + " + std::to_string(offset) + " + lane * " + std::to_string(regs) +
                ", " + (full != regs ? std::to_string(4 * regs) : "sizeof " + var) + ");\n";
        offset += regs * lanes;
    };
    load(in[0], "a", Operand::A);
    load(in[1], "b", Operand::B);
    load(in[2], "c", Operand::C);
    const bool sparse = ins.sparse();
    if (sparse) load("int", "idx", Operand::K);
    if (ins.kind == LayoutKind::MfmaScaled && ins.scales) {
        load("int", "sa", Operand::SA);
        load("int", "sb", Operand::SB);
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
        case LayoutKind::MmaSync:
        case LayoutKind::MmaSparse:
        case LayoutKind::LdStMatrix:
        case LayoutKind::Wgmma:
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
