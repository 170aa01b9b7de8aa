// Execution facts: VALU co-execution, register files, alignment, value-only
// modifiers. Source: CALC's per-instruction fields (coexec, coexec_delay,
// c_d_arch, gpr_byte_align) and the ISA guides; CDNA4 is taken as CDNA3.
#include "lanescope/lanescope.hpp"

#include <algorithm>
#include <cctype>
#include <set>

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
            f.value_modifiers = ins.scales ? "neg/abs on C only (ISA level); scales multiply by 2^(e-127)"
                                           : "neg/abs on C only (ISA level); no scales (as if both were 2^0)";
    } else if (fam == Family::CDNA5) {
        // gfx1250: one VGPR file; llvm-mc-22 accepts any VGPR start for these operands.
        f.coexec = false;
        f.gpr_alignment_bytes = 4;
        for (Operand op : operands_of(ins))
            f.register_files.emplace_back(op, op == Operand::K && ins.k == 128 && elem_bits(ins.a) == 8
                                                  ? "VGPR pair (64-bit index; the clang-22 builtin writes only the lower VGPR)"
                                                  : "VGPR");
        if (ins.a == ElemType::IU8)
            f.value_modifiers = "neg_lo:[a_signed,b_signed,0] selects signed inputs; clamp saturates";
        else if (elem_bits(ins.a) == 8 || ins.a == ElemType::F8F6F4 || ins.a == ElemType::FP4)
            f.value_modifiers = "no A/B negation; c_mod -C (neg_lo:[0,0,1]) or |C| (neg_hi:[0,0,1])";
        else
            f.value_modifiers = "neg_a/neg_b negate A/B (neg_lo/neg_hi); c_mod -C or |C|";
        f.value_modifiers += "; matrix_a_reuse/matrix_b_reuse are register-reuse hints";
        if (ins.kind == LayoutKind::WmmaScaleGfx1250)
            f.value_modifiers += "; scale_fmt (E8M0/E5M3/E4M3) reinterprets the scale bytes";
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

namespace {

// Symbols of formula text: runs of letters, digits and '_' with leading digits
// dropped ("2q" is q, "16g" is g), plus a prime when "'" follows and is not a
// possessive ("b'" but not "k's").
std::set<std::string> formula_tokens(std::string_view s) {
    std::set<std::string> out;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t i = 0; i < s.size();) {
        if (!word(s[i])) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < s.size() && word(s[j])) ++j;
        size_t a = i;
        while (a < j && std::isdigit(static_cast<unsigned char>(s[a]))) ++a;
        std::string tok(s.substr(a, j - a));
        if (!tok.empty() && j < s.size() && s[j] == '\'' &&
            (j + 1 >= s.size() || !std::isalpha(static_cast<unsigned char>(s[j + 1]))))
            tok += '\'';
        if (!tok.empty()) out.insert(tok);
        i = j;
    }
    return out;
}

std::string range_words(int n) { return n <= 1 ? "always 0" : "0.." + std::to_string(n - 1); }

}  // namespace

// NVIDIA's formulas use PTX's vocabulary (PTX ISA 9.0 §9.7.14.5).
std::vector<FormulaSymbol> nvidia_formula_symbols(const Instruction& ins, std::string_view text,
                                                  const std::set<std::string>& tok) {
    auto has = [&](const char* t) { return tok.count(t) > 0; };
    auto contains = [&](const char* t) { return text.find(t) != std::string_view::npos; };
    std::vector<FormulaSymbol> out;
    auto add = [&](std::string sym, std::string meaning) { out.push_back({std::move(sym), std::move(meaning)}); };
    if (ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05LdSt || ins.kind == LayoutKind::Tcgen05Cp) {
        // Tensor Memory (layouts_tcgen05.cpp): lanes and columns of TMEM, or the threads of a tcgen05.ld.
        const bool ld = ins.kind == LayoutKind::Tcgen05LdSt;
        if (has("m")) add("m", "row of D (and of A, SFA, the metadata) (" + range_words(ins.m) + ")");
        if (has("m'")) add("m'", "the row inside its CTA's share of the rows");
        if (has("n")) add("n", "column of D (and of SFB) (" + range_words(ins.n) + ")");
        if (has("k")) add("k", "position along K: column of A and of the metadata (" + range_words(ins.k) + ")");
        if (has("c")) add("c", ld ? "the TMEM column the unpacked message gives register r" : "the CTA of a cta_group::2 pair (0 or 1)");
        if (has("x")) add("x", "the row (SFA) or column (SFB) inside its CTA's share");
        if (has("j")) add("j", "the scale factor's number along K (0 .. scale_vec - 1)");
        if (has("h")) add("h", ld ? "the 16-bit half of the register (0 low, 1 high)" : "which half of N (0 or 1)");
        if (has("p")) add("p", "a 32-lane partition of Tensor Memory (0..3): the copies of a scale factor");
        if (has("q")) add("q", "a sparse group of dense k: floor(k / group size)");
        if (has("t")) add("t", "the thread's lane in its warp (0..31)");
        if (has("r")) add("r", "the thread's 32-bit register, from the first of the message");
        if (has("e")) add("e", "the thread's element number, as Triton counts registers (16-bit: two per register)");
        if (has("w")) add("w", "the warp's number among the warps that read D");
        if (contains("32b") || contains("64b") || contains("128b") || contains("256b"))
            add("b", "bits, in a tcgen05.ld shape's name: 16x256b is 16 lanes x 256 bits");
        for (const char* l : {"E", "F", "G"})
            if (has(l)) add(l, std::string("Layout ") + l + ": PTX's name of one tcgen05.mma data-path layout (§9.7.16.10.5)");
        if (has("floor")) add("floor(x)", "x rounded down to a whole number");
        if (contains("%")) add("x%n", "remainder of x divided by n");
        return out;
    }
    const bool matrices = ins.kind == LayoutKind::LdStMatrix;
    if (has("row")) add("row", matrices ? "row of the 8x8 matrix as it lies in memory (0..7)" : "row of the operand: m of A and of C/D");
    if (has("col")) add("col", matrices ? "column of the 8x8 matrix as it lies in memory (0..7)" : "column of the operand: k of A, n of C/D");
    if (has("k")) add("k", "position along K: column of A, row of B (" + range_words(ins.k) + ")");
    if (has("n")) add("n", "column of B and of C/D (" + range_words(ins.n) + ")");
    if (has("lane")) add("lane", "the thread's lane in its warp (0..31)");
    if (has("T")) add("T", "the thread's index in its warpgroup (0..127): 32*warp + lane");
    if (has("w")) add("w", "the warp's rank in its warpgroup: floor(T/32)");
    if (has("g")) add("g", "the lane's quad (PTX groupID): floor(lane/4)");
    if (has("t")) add("t", "the lane's place in its quad (PTX threadID_in_group): lane%4");
    if (has("i")) add("i", "the PTX element index: the thread's elements of this operand in register-list order (a0, a1, ...)");
    if (has("r")) add("r", "the element's 32-bit register in the operand's register list, from 0: floor(i/p) for p elements "
                           "per register (f64: a 64-bit register)");
    if (has("e")) add("e", "the element's place in its register: i%p, lower places in lower bits");
    if (has("c")) add("c", "a 2:4 chunk of four consecutive k: floor(k/4)");
    if (has("f")) add("f", "the sparsity selector (--selector): which lanes of a quad give metadata");
    if (has("m")) add("m", "the 8x8 matrix's number (the operand's block): .x1, .x2 and .x4 move 1, 2 or 4 matrices");
    if (contains("M_m[")) add("M_m[r][c]", "element (r, c) of matrix m as it lies in memory");
    if (has("floor")) add("floor(x)", "x rounded down to a whole number");
    if (contains("%")) add("x%n", "remainder of x divided by n");
    if (contains(" lane/")) add("lane/n", "whole-number division: floor(lane/n)");
    return out;
}

std::vector<FormulaSymbol> formula_symbols(const Instruction& ins, std::string_view text) {
    const std::set<std::string> tok = formula_tokens(text);
    if (!ins.families.empty() && vendor_of(ins.families.front()) == Vendor::NVIDIA)
        return nvidia_formula_symbols(ins, text, tok);
    auto has = [&](const char* t) { return tok.count(t) > 0; };
    auto contains = [&](const char* t) { return text.find(t) != std::string_view::npos; };
    std::vector<FormulaSymbol> out;
    auto add = [&](std::string sym, std::string meaning) { out.push_back({std::move(sym), std::move(meaning)}); };
    const std::string m = std::to_string(ins.m);
    const int lanes = is_cdna(ins.families.empty() ? Family::CDNA3 : ins.families.front()) ? 64 : 32;

    if (has("i")) add("i", "row of A and of C/D (" + range_words(ins.m) + ")");
    if (has("j")) add("j", "column of B and of C/D (" + range_words(ins.n) + ")");
    if (has("k"))
        add("k", "position along K: column of A, row of B (" + range_words(ins.k) + ")" +
                     (ins.sparse() ? "; for sparse A and the index K, the dense k (a 4:2 group is four k)" : ""));
    if (has("b")) add("b", "block (" + range_words(ins.blocks) + ")");
    if (has("b'")) add("b'", "the block whose A values block b reads (the cbsz/abid broadcast)");
    if (has("lane") || has("lanes")) add("lane", "lane of the wave that holds the value");
    if (has("VGPR")) add("VGPR", "register that holds the value, counted from the operand's first VGPR");
    if (has("G")) add("G", "a VGPR number, counted from the operand's first VGPR (v0 is G = 0)");
    if (contains("v[")) add("v[h:l]", "VGPRs h down to l, as assembly writes them (v[1:0]: a 64-bit pair)");
    if (has("p") && (contains("2p") || contains("pair floor")))
        add("p", "VGPR pair number: the 64-bit value sits in VGPRs 2p and 2p+1");
    if (has("item") || has("items"))
        add("item", "slot of the value inside its lane: items of the element's width packed upwards from bit 0 of "
                    "the operand's first VGPR, so item t of a w-bit type sits at bits w*t..w*t+w-1 of the lane");
    if (has("e")) add("e", "the value's item number in its lane (as item: counted in elements from bit 0 of the first VGPR)");
    if (has("g")) add("g", "the lane's group of " + m + " lanes: floor(lane/" + m + ")");
    if (has("q")) add("q", "a 4:2 group's number within its lane: the pair of stored values (and, in K, the 4-bit field) it uses");
    if (has("r")) add("r", "copy number: the same element is held by each of these lanes (replication)");
    const bool s16 = ins.builtin_pattern.find("scale16") != std::string::npos;
    const std::string scale_word = ins.kind == LayoutKind::WmmaScaleGfx1250 ? "8-bit (E8M0, E5M3 or E4M3)" : "E8M0";
    if (has("kb")) add("kb", s16 ? "block of 16 k sharing one scale: floor(k/16)" : "block of 32 k sharing one scale: floor(k/32)");
    if (has("scale_a")) add("scale_a[i][kb]", "the " + scale_word + " scale of A's row i for k block kb (operand SA)");
    if (has("scale_b")) add("scale_b[kb][j]", "the " + scale_word + " scale of B's column j for k block kb (operand SB)");
    if (has("set")) add("set", "which index set of the K VGPR the instruction reads (chosen by abid)");
    if (has("index_key")) add("index_key", "which index set of the K VGPR the instruction reads (opsel / index_key)");
    if (contains("p(l)")) {
        add("l", "a lane (" + range_words(lanes) + ")");
        add("p(l)", "the lane whose B values lane l receives under the BLGP pattern");
    } else if (has("l")) {
        add("l", "a lane (" + range_words(lanes) + ")");
    }
    bool bitn = false;
    for (const std::string& t : tok)
        if (t.size() > 3 && t.compare(0, 3, "bit") == 0 && std::isdigit(static_cast<unsigned char>(t[3]))) bitn = true;
    if (bitn) add("bitN(x)", "bit N of x (0 or 1)");
    if (has("floor")) add("floor(x)", "x rounded down to a whole number");
    if (contains("%")) add("x%n", "remainder of x divided by n");
    if (contains(" lane/")) add("lane/n", "whole-number division: floor(lane/n)");
    if (contains("{0..3}")) add("{0..3}", "any of 0, 1, 2, 3: the four k of a 4:2 group");
    return out;
}

std::string formula_symbols_text(const Instruction& ins, std::string_view formulas, std::string_view indent) {
    std::string s;
    for (const FormulaSymbol& f : formula_symbols(ins, formulas))
        s += std::string(indent) + f.symbol + ": " + f.meaning + "\n";
    return s;
}

}  // namespace lanescope

namespace lanescope {

// Encoding formats. GFX9/CDNA VOP3P-MAI: dword 0 bits 31:23 = 0x1A7, opcode in
// bits 22:16 (LLVM VOP3PInstructions.td, VOP3P_MAI encoding; CDNA3/CDNA4 ISA
// guides, "VOP3P-MAI"). GFX11/GFX12 VOP3P: bits 31:23 = 0x198, opcode in bits
// 22:16 (LLVM VOP3P real encodings for GFX11/GFX12; RDNA3/RDNA4 ISA guides).
// The opcode width is a fact of each format: a family whose opcode field is
// wider says so here, never in a caller's mask.
EncodingFormat encoding_format(Family f) {
    if (is_cdna(f))
        return {"VOP3P-MAI", 0xD3800000u, 16, 7, 2,
                "GFX9 VOP3P-MAI: dword 0 bits 31:23 = 0x1A7, OP bits 22:16 (CDNA3/CDNA4 ISA guides; LLVM VOP3P_MAI)"};
    // gfx1250 widened the VOP3P opcode to 8 bits: llvm-mc-22 -mcpu=gfx1250 encodes
    // v_wmma_f16_16x16x128_fp8_fp8 as dword 0 0xCC840000 (opcode 0x84; with bit 23
    // cleared the word disassembles as v_pk_lshlrev_b16).
    if (f == Family::CDNA5)
        return {"VOP3P (GFX12.5)", 0xCC000000u, 16, 8, 2,
                "gfx1250 VOP3P: dword 0 bits 31:24 = 0xCC, OP bits 23:16 (llvm-mc-22 -mcpu=gfx1250 -show-encoding)"};
    if (vendor_of(f) == Vendor::AMD)
        return {"VOP3P", 0xCC000000u, 16, 7, 2,
                "GFX11/GFX12 VOP3P: dword 0 bits 31:23 = 0x198, OP bits 22:16 (RDNA3/RDNA4 ISA guides; LLVM VOP3P)"};
    return {"PTX", 0, 0, 0, 0, "PTX instructions have no fixed binary encoding at this level"};
}

std::vector<EncodingWord> encoding_words(const Instruction& ins) {
    std::vector<EncodingWord> out;
    if (ins.vendor() != Vendor::AMD) return out;
    const EncodingFormat fmt = encoding_format(ins.families.front());
    // The prefix instruction of a multi-word row (the catalog's "PREFIX+OPCODE"):
    // gfx950's v_mfma_scale_* load their scales with v_mfma_ld_scale_b32 (0x2c)
    // before the MFMA word; gfx1250's wmma_scale* with v_wmma_ld_scale_paired_b32
    // (0x35) or v_wmma_ld_scale16_paired_b64 (0x3A) before the WMMA word.
    int dword = 0;
    if (ins.prefix_opcode) {
        out.push_back({dword, fmt.word0_fixed | (ins.prefix_opcode << fmt.opcode_lo), ins.prefix_opcode,
                       ins.prefix_mnemonic, "prefix"});
        dword += fmt.dwords;
    }
    out.push_back({dword, fmt.word0_fixed | (ins.opcode << fmt.opcode_lo), ins.opcode, ins.mnemonic, "matrix"});
    return out;
}

std::string compiler_selection(const Instruction& ins) {
    if (ins.kind != LayoutKind::MfmaScaled || ins.vendor() != Vendor::AMD) return "";
    const std::string b = ins.builtin(64);
    if (ins.scales)
        return b + " with a scale argument that is not a literal 0 (either one); with both scales a literal 0 "
                   "clang-22 emits the unscaled f8f6f4 form instead (no ld_scale prefix, no SA/SB)";
    return b + " with both scale arguments a literal 0 (clang-22; the op_sel arguments are then dropped): "
               "the unscaled instruction, one MFMA word without the v_mfma_ld_scale_b32 prefix and without "
               "scale operands SA/SB; A, B, C and D as in the scaled form";
}

}  // namespace lanescope
