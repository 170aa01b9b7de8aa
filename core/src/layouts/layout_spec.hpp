// One operand's layout as a formula: the shared shape of every family's
// formulas (core/src/layouts/layouts.cpp for AMD, core/src/layouts/layouts_nvidia.cpp for
// NVIDIA). Internal to the core library.
#pragma once

#include "lanescope/lanescope.hpp"

#include <functional>
#include <string>
#include <vector>

namespace lanescope::detail {

// Item `item` of `lane` starts at bit item*stride + offset of the lane's
// operand registers (registers concatenated little-endian, first register = 0).
struct Slot {
    int lane, item;
};
using Placer = std::function<void(int b, int r, int c, std::vector<Slot>&)>;

struct OperandSpec {
    Space space = Space::Registers;  // where the slots are (Slot::lane, registers: see lanescope.hpp)
    int blocks = 1, rows = 0, cols = 0;
    ElemType type = ElemType::F32;
    int width = 32;            // bits one element occupies in a slot
    int stride = 32, offset = 0;
    int regs = 0;
    int lanes = 0;             // the space's lane count (shared memory: 128-byte lines); 0 = the query's wave
    Placer place;
    std::string formula;
};

// NVIDIA families (layouts_nvidia.cpp).
OperandSpec nvidia_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
std::vector<Operand> nvidia_operands(const Instruction& ins);
std::string nvidia_family_source(LayoutKind k);
// Legal sparsity-selector values (empty where the instruction has none).
std::vector<int> nvidia_selectors(const Instruction& ins);
// One line per lane group: which lane supplies which row address (ldmatrix/stmatrix).
std::string nvidia_address_rule(const Instruction& ins);

// NVIDIA catalog rows (catalog_nvidia.cpp): true when the row's families are
// NVIDIA's; then `out` receives the row's instructions (several for a wgmma N range).
// `check` false skips the family rules and the register counts (the built-in rows,
// checked when built).
bool is_nvidia_row(const std::vector<std::string_view>& fields);
// Empty when the NVIDIA family's formulas can lay out `ins`, else what is wrong.
std::string nvidia_rule_violation(const Instruction& ins);
void parse_nvidia_row(const std::vector<std::string_view>& fields, std::string_view origin, int line, bool check,
                      std::vector<Instruction>& out);

// NVIDIA shared-memory operands (core/src/memory/nvidia_smem.cpp): wgmma B, wgmma A
// in its SS form (smem_a), tcgen05.mma A (not in TMEM) and B, laid out from the
// descriptor's fields in Space::SharedMemory (lane = 128-byte line, reg = 32-bit
// word = bank). Throws Error with the rule for what the hardware does not allow.
OperandSpec smem_operand_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// Checks the smem modifiers of `m` for `ins` (throws Error naming the option and
// what is legal) and fills r's smem fields (a --descriptor is decoded into them).
void resolve_smem_modifiers(const Instruction& ins, const Target& t, const Modifiers& m, ResolvedModifiers& r);
// Their ranges for UIs (smem_a, smem_major, swizzle, base_offset).
void smem_modifier_ranges(const Instruction& ins, const ResolvedModifiers& cur, std::vector<ModifierRange>& out);

// gfx1250/gfx1251 families (layouts_gfx1250.cpp).
OperandSpec gfx1250_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
std::vector<Operand> gfx1250_operands(const Instruction& ins);
// Empty when the gfx1250 formulas can lay out this row's shape, else what is wrong.
std::string gfx1250_geometry(const Instruction& ins);
const char* gfx1250_geometry_legal();
std::string gfx1250_family_source(LayoutKind k);
Evidence gfx1250_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods);

}  // namespace lanescope::detail
