// Transpose loads as data: the CDNA4 ds_read_*_tr_* and RDNA4 global_load_tr_*
// instructions (core/catalog/transpose_loads.txt), their lane rules (two named
// families, core/src/memory/transpose_loads.cpp) and which MFMA/WMMA operands they can
// fill straight from a column-major A or a row-major B. The planner itself,
// plan_transposed_loads, is declared in memory.hpp beside the plain loads.
//
// Facts and confidence: docs/transpose-loads.md; sources in docs/sources.md.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/memory.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

// The lane-rule families. Each moves data only inside a shuffle group of G
// lanes; `s` is a source lane and `L` a destination lane, both local to the
// group, `i`/`e` element indices within a lane's E-element vector.
//   Group16   (gfx950): dst[L][e] = src[C*e + L/E][L%E], C = 16/E
//   Block8x8  (RDNA4 wave32, §4):               dst[L][e] = src[8*(L/8) + e][L%8]
//   Unknown   no source gives the rule; planning refuses with the row's reason.
enum class TransposeRule { Group16, Block8x8, Unknown };
std::string_view transpose_rule_name(TransposeRule r);  // "group16", "block8x8", "unknown"
// The rule's formula in words (with its source) and the address choice that feeds an operand.
std::string transpose_rule_formula(TransposeRule r);

// Where element i of source lane s lands: destination lane (local) and element.
struct TransposeSlot {
    int lane = 0, element = 0;
};
// Forward (source -> destination) and inverse (destination -> source) of a rule
// for a group of `group` lanes with `per_lane` elements per lane.
TransposeSlot transpose_destination(TransposeRule r, int per_lane, int s, int i);
TransposeSlot transpose_source(TransposeRule r, int per_lane, int L, int e);

// One catalog row: a transpose load at one wave size.
struct TransposeLoad {
    std::vector<Family> families;
    std::string mnemonic;
    int wave = 64;
    std::vector<std::string> builtins;  // without "__builtin_amdgcn_"
    std::string features;
    MemorySpace space = MemorySpace::Lds;
    std::string encoding;  // "DS", "VGLOBAL"
    int opcode = 0;
    std::string example;   // "ds_read_b64_tr_b16 v[0:1], v1 = 00 00 c6 d9 01 00 00 00"
    int lane_bits = 64;
    int element_bits = 16;
    int group = 16;
    int vgprs = 2;
    bool vgpr_even = true;
    int address_align = 8;
    std::string exec;
    TransposeRule rule = TransposeRule::Unknown;
    std::string rule_unknown_why;  // for Unknown rules
    std::string confidence;        // "high", "high-medium", "medium", "unknown"
    std::string confidence_basis;  // why
    std::vector<std::pair<LayoutKind, std::vector<Operand>>> feeds;
    std::string source;  // keys of docs/sources.md
    int catalog_line = 0;

    bool on(Family f) const;
    int per_lane() const;  // E: elements each lane reads (lane_bits / element_bits)
    // Full builtin name for an operand element type: the _f16/_bf16 variant for
    // those types, otherwise the integer one.
    std::string builtin_for(ElemType t) const;
};

// A builtin's C prototype, from its name (the vector-type suffix) and memory
// space, in the clang spelling tests compile:
// "v4f16 __builtin_amdgcn_ds_read_tr16_b64_v4f16(v4f16 __attribute__((address_space(3)))*)",
// with the vector type spelled out in `vector_typedef` ("typedef __fp16 v4f16 __attribute__((ext_vector_type(4)));").
struct BuiltinPrototype {
    std::string vector_type;     // "v4f16", "int"
    std::string scalar_type;     // "__fp16", "short", "__bf16", "int"
    int lanes = 1;               // vector length (1: a scalar)
    std::string vector_typedef;  // "" for a scalar
    std::string prototype;
};
BuiltinPrototype transpose_builtin_prototype(const TransposeLoad& load, std::string_view builtin);
// The element type and count a transpose-load builtin's name ends in: "..._v4f16" {"__fp16", 4},
// "..._i32" {"int", 1}. Throws Error for a name that ends in no such type.
std::pair<std::string, int> builtin_vector(std::string_view builtin);

class TransposeCatalog {
public:
    static const TransposeCatalog& builtin();  // core/catalog/transpose_loads.txt
    static std::string_view builtin_text();
    // Throws Error naming `origin`, the line and the field.
    static TransposeCatalog parse(std::string_view text, std::string_view origin);
    const std::vector<TransposeLoad>& rows() const { return rows_; }
    std::vector<const TransposeLoad*> on(Family f) const;
    // By mnemonic or builtin (with or without "__builtin_amdgcn_"), on `t`'s
    // family. A builtin fixes the wave size; a mnemonic takes `wave` (0: the
    // target's default, else the only row). nullptr when the name is none of these.
    const TransposeLoad* find(const Target& t, std::string_view name, int wave = 0) const;
    // The names (mnemonics and builtins) on a family, for "did you mean".
    std::vector<std::string> names(Family f) const;

private:
    std::vector<TransposeLoad> rows_;
};

// A transpose load that can fill `op` of `ins`, with how many calls it takes.
struct TransposeFeed {
    const TransposeLoad* load = nullptr;
    int calls = 0;          // instructions per operand (per lane)
    MemoryOrder order = MemoryOrder::RowMajor;  // the orientation it reads: column-major A, row-major B
    std::string builtin;    // the full builtin for the operand's element type
    std::string confidence; // the lane rule's confidence ("high", "high-medium", "medium")
};
// The transpose loads that fill `op` of `ins` on `t` under `mods` (empty when none does).
std::vector<TransposeFeed> transpose_loads_for(const Instruction& ins, const Target& t, Operand op,
                                               const ResolvedModifiers& mods);
// Why no transpose load fills it (empty when one does): the reason and what is legal.
std::string transpose_refusal(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods);

// The operands of `t`'s instructions that `load` fills: instruction, operand, its order in memory
// ("row-major" for B, "column-major" for A), the scaled-MFMA format ("" elsewhere), the builtin and calls.
struct TransposeFeedLine {
    std::string instruction, operand, order, format, builtin;
    int calls = 0;
};
std::vector<TransposeFeedLine> transpose_feeds_on(const TransposeLoad& load, const Target& t);

// `info` for a transpose load: its facts as (fact, value) rows (render_transpose_info,
// render_memory.hpp, prints them). The operands it feeds on `t` are listed with their calls.
std::vector<std::pair<std::string, std::string>> transpose_load_facts(const TransposeLoad& load, const Target& t);

}  // namespace lanescope
