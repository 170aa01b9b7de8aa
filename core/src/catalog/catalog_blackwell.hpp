// NVIDIA Blackwell catalog (core/catalog/blackwell.txt): rows are templates,
// materialised one instruction at a time (catalog_blackwell.cpp).
#pragma once

#include "lanescope/lanescope.hpp"

#include <string>
#include <string_view>
#include <functional>
#include <vector>

namespace lanescope::detail {

// The instruction a Blackwell template spells as `name` (a PTX spelling, its
// CUTLASS-order alias or a short name; any case). nullptr when no template spells
// it. Throws Error when a template spells it but `t` is not a target whose ptxas
// accepts it ("... is legal on sm_100a, sm_110a; not on sm_103a"), or with a shape,
// type or .num the template does not allow (naming what is legal). The instruction
// lives as long as the process.
const Instruction* blackwell_find(const Target& t, std::string_view name);

// Every PTX spelling the templates hold, one instruction each (tcgen05.mma: also
// its A-in-TMEM form), with their ptxas targets: what `conformance --ptxas`
// assembles. `every_shape`: also one instruction per M, N, K and types (a short
// name each; tens of thousands).
// With `keep` (every_shape only): just the forms whose (M, N, K) it keeps, and no shapeless rows.
using ShapeFilter = std::function<bool(int m, int n, int k)>;
std::vector<Instruction> blackwell_instructions(bool every_shape = false, const ShapeFilter* keep = nullptr);

// Facts of a materialised Blackwell instruction's row (empty when `ins` is not one).
struct BlackwellFacts {
    std::string sass;     // SASS opcode family ("UTCHMMA.2CTA", "LDTM", "QMMA.SF.16832")
    std::string section;  // the row's first PTX ISA section ("PTX 9.7.16.10.9.1 #tcgen05-mma-instructions-mma")
    bool ptx_only = false;  // the row's targets field says "ptx-only" (lanescope/blackwell.hpp ptx_only)
};
BlackwellFacts blackwell_facts(const Instruction& ins);

// PTX's name of a type (e3m2, e2m3, e2m1, ue8m0, ue4m3 for lanescope's bf6, fp6, fp4, e8m0, ue4m3;
// elem_name otherwise): the names NVIDIA messages use, from the table the catalog reads them with.
std::string_view ptx_type_name(ElemType t);

// Parses core/catalog/blackwell.txt with every check (Catalog::check_builtin):
// fields, targets known to lanescope, and that each row's spellings name it back.
void blackwell_check();

}  // namespace lanescope::detail
