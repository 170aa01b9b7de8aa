// Execution facts: VALU co-execution, register files, alignment, value-only
// modifiers. Source: CALC's per-instruction fields (coexec, coexec_delay,
// c_d_arch, gpr_byte_align) and the ISA guides; CDNA4 is taken as CDNA3.
#include "lanescope/lanescope.hpp"

#include <algorithm>

namespace lanescope {

ExecFacts exec_facts(const Instruction& ins, const Target& t, const ResolvedModifiers& mods) {
    ExecFacts f;
    const Family fam = t.family;
    if (ins.vendor() == Vendor::NVIDIA) {
        // PTX registers are virtual: no register files, banks or alignment at this level.
        for (Operand op : operands_of(ins)) f.register_files.emplace_back(op, "32-bit PTX registers (.b32 / .f32 / .f64)");
        if (ins.kind == LayoutKind::Wgmma)
            f.value_modifiers = "scale-d (0: ignore C), imm-scale-a/b (negate A/B)" +
                                std::string(elem_bits(ins.a) == 16 ? ", imm-trans-b (B's memory order)" : "");
        else if (ins.c == ElemType::S32)
            f.value_modifiers = ".satfinite clamps the s32 result";
        return f;
    }
    if (is_cdna(fam)) {
        const bool sparse = ins.sparse();
        int delay = fam == Family::CDNA1 ? 8 : (sparse ? 8 : 4);
        // CALC: on CDNA3 the FP32 and FP64 instructions do not co-execute.
        bool fp32_or_64 = ins.a == ElemType::F32 || ins.a == ElemType::F64;
        f.coexec = !((fam == Family::CDNA3 || fam == Family::CDNA4) && fp32_or_64);
        f.coexec_cycles = f.coexec ? std::max(0, effective_cycles(ins, mods) - delay) : 0;
        f.gpr_alignment_bytes = fam == Family::CDNA1 ? 4 : 8;
        const std::string both = "ArchVGPR or AccVGPR";
        const std::string acc_only = "AccVGPR only";
        for (Operand op : operands_of(ins)) {
            std::string files = both;
            if ((op == Operand::C || op == Operand::D) && fam == Family::CDNA1) files = acc_only;
            if (op == Operand::K) files = "ArchVGPR only (even when C/D use AccVGPRs)";
            if (op == Operand::SA || op == Operand::SB) files = "ArchVGPR (LLVM forces VGPRs: inline and SGPR scales hit a hardware issue)";
            f.register_files.emplace_back(op, files);
        }
        if (ins.a == ElemType::F64 && fam != Family::CDNA2)
            f.value_modifiers = "blgp is neg:[A,B,C] on f64 (bit 0 negates A, bit 1 B, bit 2 C)";
        else if (ins.kind == LayoutKind::MfmaScaled)
            f.value_modifiers = "neg/abs on C only (ISA level); scales multiply by 2^(e-127)";
    } else {
        f.coexec = false;
        f.gpr_alignment_bytes = 4;
        for (Operand op : operands_of(ins)) f.register_files.emplace_back(op, "VGPR (RDNA has no AccVGPR file)");
        if (ins.a == ElemType::IU8 || ins.a == ElemType::IU4)
            f.value_modifiers = "neg_lo:[a_signed,b_signed,0] selects signed inputs; clamp saturates";
        else if (ins.a == ElemType::FP8 || ins.a == ElemType::BF8)
            f.value_modifiers = "no A/B negation; neg/neg_hi on C accepted by llvm-mc (unverified)";
        else
            f.value_modifiers = "neg/neg_hi negate A/B halves or C (assembler only)";
        if (ins.tied) f.value_modifiers += "; _tied: D keeps C's other 16-bit half";
    }
    return f;
}

}  // namespace lanescope
