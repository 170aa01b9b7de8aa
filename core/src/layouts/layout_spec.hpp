// One operand's layout as a formula: the shared shape of every family's
// formulas (core/src/layouts/layouts.cpp for AMD, core/src/layouts/layouts_nvidia.cpp for
// NVIDIA). Internal to the core library.
#pragma once

#include "lanescope/lanescope.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::detail {

// Item `item` of `lane` starts at bit item*stride + offset of the lane's
// operand registers (registers concatenated little-endian, first register = 0).
struct Slot {
    int lane, item;
};
using Placer = std::function<void(int b, int r, int c, std::vector<Slot>&)>;
// The other direction, where a family states it: the elements item `item` of `lane`
// may hold. Only a hint for one-slot queries (layout_of_slot): each candidate is
// placed again and kept only where the placement puts it, so a family without it
// (or with a loose one) answers the same, only slower.
using Candidates = std::function<void(int lane, int item, std::vector<Element>&)>;

struct OperandSpec {
    Space space = Space::Registers;  // where the slots are (Slot::lane, registers: see lanescope.hpp)
    int blocks = 1, rows = 0, cols = 0;
    ElemType type = ElemType::F32;
    int width = 32;            // bits one element occupies in a slot
    int stride = 32, offset = 0;
    int regs = 0;
    int lanes = 0;             // lanes of the space (TMEM: 128 per CTA); 0: the query's wave (mods.wave)
    Placer place;
    Candidates candidates;  // may be empty
    std::string formula;
    std::string outside_note;  // appended to the refusal of an element outside the operand (what to ask instead)
};

// The value bits (offset, width) of a type in an 8-bit container of kind::f8f6f4 / mxf8f6f4:
// e2m1 bits 5:2, e3m2/e2m3 bits 5:0, 8-bit types all 8 (layouts_nvidia.cpp; sm_120 registers and
// tcgen05's A in Tensor Memory).
std::pair<int, int> fp_container_bits(ElemType t);

// NVIDIA families (layouts_nvidia.cpp).
OperandSpec nvidia_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
std::vector<Operand> nvidia_operands(const Instruction& ins);
std::string nvidia_family_source(LayoutKind k);
// The evidence of an sm_120 block-scaled mma.sync operand (MmaBlockScale).
Evidence mma_block_scale_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
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
// One NVIDIA row as read: its instructions are made from it, one per N (one for a
// row without an N range). builtin(Family) keeps a row with an N range (wgmma's)
// as this and makes only the N a name asks for.
struct RangedRow {
    Instruction base;      // spellings (mnemonic, short_name, aliases) with "{n}" for N
    std::vector<int> ns;   // the legal N, ascending
    std::vector<int> hw;   // the N run on hardware
    bool ranged = false;   // the shape has {N}
    bool hw_row = false;   // the source names HW
    std::string regs;      // the regs field ("A4 C=N/2 D=N/2")
    std::string origin;
    Instruction make(int n) const;
    // The N whose spelling `name` (lower case) is, when it is one of this row's.
    std::optional<int> n_of(std::string_view name) const;
};
// `lazy` given and `check` false: a row with an N range goes there instead of into `out`.
void parse_nvidia_row(const std::vector<std::string_view>& fields, std::string_view origin, int line, bool check,
                      std::vector<Instruction>& out, std::vector<RangedRow>* lazy = nullptr);

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

// NVIDIA Blackwell tcgen05 families (layouts_tcgen05.cpp): tcgen05.mma (D, A, SA, SB, K in
// Tensor Memory; D read back as registers with the tmem_load / num_warps modifiers),
// tcgen05.ld / tcgen05.st (the register fragment), tcgen05.cp.
bool is_tcgen05(const Instruction& ins);
OperandSpec tcgen05_spec(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
std::vector<Operand> tcgen05_operands(const Instruction& ins);
// Empty when the tcgen05 formulas can lay out `ins`, else what is wrong.
std::string tcgen05_rule_violation(const Instruction& ins);
std::string tcgen05_family_source(LayoutKind k);
Evidence tcgen05_evidence(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// Legal modifier values, each with the rule in words (`why`); empty: does not apply.
std::vector<int> tcgen05_tmem_load_values(const Instruction& ins, std::string& why);
std::vector<int> tcgen05_sf_id_values(const Instruction& ins, bool a, std::string& why);
std::vector<int> tcgen05_half_split_values(const Instruction& ins, std::string& why);
// The register layout of a tcgen05.mma D read back by mods.tmem_load with mods.num_warps
// warps, as Triton 3.6's get_tmem_reg_layout builds it: each bit of the register index
// (elements, Triton's numbering), of the lane and of the warp moves to one (row m, col n) of D.
struct TmemRegBases {
    std::vector<std::pair<int, int>> reg, lane, warp;
    // cta_group::2 (Layout A: {128, 0}, CTA c holds rows 128c..; Layout B: {64, 0}): the CTA of the pair,
    // each CTA's warps reading their own CTA's TMEM; the thread is 32*num_warps*cta + 32*warp + lane.
    std::vector<std::pair<int, int>> cta;
    int rows = 0, cols = 0, element_bits = 32, num_warps = 4;
    char layout = 'D';     // D's TMEM layout (PTX's letters A-G): Triton's constructors name D, F and A only
    std::string variant;   // "32x32b" ... as Gluon's instr_variant spells it
    std::string message;   // one tcgen05.ld of the read-back: "tcgen05.ld.sync.aligned.32x32b.x64.b32"
    std::string cute_atom; // the CUTLASS copy atom of that message: "SM100_TMEM_LOAD_16dp256b8x"
    // The loads each thread issues: `loads` of `regs_per_load` 32-bit registers each; register r of the
    // thread is register r % regs_per_load of load floor(r / regs_per_load) (PTX's .num stops at .x128).
    int num = 1, regs_per_load = 1, loads = 1;
    std::string shape;     // the load's PTX shape (16x32bx2 where Triton lowers 32x32b so)
};
// --tmem-load values: shape s (1 32x32b .. 5 16x32bx2) alone, or with .num 2^j: s + 8*(j + 1).
inline int tmem_load_shape(int v) { return v % 8; }
inline int tmem_load_num(int v) { return v / 8 ? 1 << (v / 8 - 1) : 0; }  // 0: the fewest loads
const std::vector<std::string>& tmem_load_names();  // by value: "none", "32x32b", ..., "32x32b.x1", ...
std::string tmem_load_names_text();                 // the legal names, summarised for --help
// Throws Error (with the rule) where Triton or PTX refuses the load.
TmemRegBases tcgen05_tmem_reg_bases(const Instruction& ins, const ResolvedModifiers& mods);
// lanescope::pair_slot for the tcgen05 families.
PairSlot tcgen05_pair_slot(const Instruction& ins, Operand op, const ResolvedModifiers& mods, const Location& loc);

}  // namespace lanescope::detail
