// The selected instruction: target, instruction, legal modifiers and the
// engine's layouts of every operand. The app and its tests read layouts only
// from here; nothing in the app computes a placement itself.
#pragma once

#include "lanescope/lanescope.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lsapp {

namespace ls = lanescope;

struct Selection {
    std::string arch = "cdna3";
    std::string instruction = "v_mfma_f32_32x32x8_f16";
    ls::Modifiers mods;  // what the user chose; -1 = default
};

struct LayoutSet {
    const ls::Target* target = nullptr;
    const ls::Instruction* ins = nullptr;
    ls::ResolvedModifiers mods;
    ls::Modifiers chosen;                 // the legal part of Selection::mods
    std::vector<ls::OperandLayout> layouts;  // in operands_of order
    // With --tmem-load, D is the registers of the warps that read it back (tcgen05.ld): this is
    // D as it sits in Tensor Memory, drawn beside them (the Registers tab) and hover-linked.
    std::optional<ls::OperandLayout> tmem_d;

    const ls::OperandLayout* find(ls::Operand op) const;
    int wave() const { return mods.wave; }
};

// Resolves a selection; throws ls::Error for an unknown arch or instruction.
// Modifiers that are illegal for the instruction are dropped (reset to their
// default), each on its own (legalize), so switching instruction or architecture
// never fails on a stale modifier and keeps every choice that still applies.
LayoutSet resolve_selection(const ls::Catalog& cat, const Selection& sel);

// The legal subset of `want` for this instruction (see resolve_selection).
ls::Modifiers legalize(const ls::Instruction& ins, const ls::Target& t, ls::Modifiers want);

// Modifier fields by name: lanescope::modifier_value / set_modifier (core).
using ls::modifier_value;
using ls::set_modifier;

// Switching architecture: the same instruction where it exists there (by
// builtin name, then mnemonic), else the target's first instruction.
std::string carry_instruction(const ls::Catalog& cat, const ls::Instruction& current, const ls::Target& to);
// What --compare-arch compares `current` with on `to`: the same instruction (by builtin name, then
// mnemonic), else the first with the same shape, blocks, sparsity and A, B, C, D types. Never another
// instruction without a word: with no such row, throws ls::Error naming the legal --compare-instruction
// values (`to`'s instructions of the same types, else how to list them all).
std::string compare_instruction(const ls::Catalog& cat, const ls::Instruction& current, const ls::Target& to);

// How an instruction is named in the list, titles and the status bar: PTX's
// short form on NVIDIA ("wgmma_m64n256k16_f32_f16"; the PTX spelling goes in
// tooltips and Details), the mnemonic on AMD, with " (tied)" for a _tied builtin
// whose mnemonic an untied row shares (RDNA3 f16/bf16 WMMA).
std::string display_name(const ls::Instruction& ins);
// What tells a row apart from one that reads alike ("" when nothing does): the
// _tied builtins' "D is C's registers: the halves opsel does not write keep C".
std::string name_note(const ls::Instruction& ins);
// The name that selects exactly this row (a tied row's builtin, else the mnemonic).
std::string selection_name(const ls::Instruction& ins);

// What a modifier does and what each of its values means, in words for the
// modifier rows: ("cbsz", 4) of a scaled MFMA is "FP4 E2M1" (A's format),
// ("opsel_a", 1) "[15:8]" (SA's byte); plain numbers elsewhere.
std::string modifier_role(const ls::Instruction& ins, const std::string& name);       // "A format", "SA byte", "" if none
std::string modifier_value_name(const ls::Instruction& ins, const std::string& name, int value);  // "FP4 E2M1", "FP4", "2"
// A value as the modifier menus show it: its name and number, "FP4 E2M1 (4)", or the number alone ("2").
std::string modifier_menu_text(const ls::Instruction& ins, const std::string& name, int value);

// The instruction whose operands together have the most tiles (the frame
// benchmark's worst case), with its target.
std::pair<const ls::Target*, const ls::Instruction*> largest_layout(const ls::Catalog& cat);

}  // namespace lsapp
