// A layout as Gluon code (Triton 3.6's triton.experimental.gluon): the named
// layout that builds it where one exists (AMDMFMALayout, AMDWMMALayout,
// NVMMADistributedLayout, DotOperandLayout over one of them) and always the
// DistributedLinearLayout with its bases (exact by construction: the tile's
// linear form, linear.hpp).
#pragma once

#include "lanescope/linear.hpp"
#include "lanescope/tile.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct GluonForm {
    std::string named;       // "gl.DotOperandLayout(operand_index=0, parent=AMDMFMALayout(...), k_width=4)", or ""
    std::string named_note;  // how sure the named form is, or why there is none
    std::string linear;      // "gl.DistributedLinearLayout(...)", or "" when the layout is not linear
    std::string why_not_linear;
};
GluonForm gluon_of(const TileLayout& t, const Instruction& ins, const Target& target);
// The same under the query's modifiers: a tcgen05.mma D read back with tmem_load is named
// as Triton 3.6 builds it, TensorMemoryLayout(...) with get_tmem_reg_layout(...).
GluonForm gluon_of(const TileLayout& t, const Instruction& ins, const Target& target, const ResolvedModifiers& mods);
// Python that Gluon evaluates: imports, then `layout = ...` (the named form)
// and `linear = ...`, with comments saying what each is.
std::string render_gluon(const GluonForm& g, const std::string& title);

// The kWidth values Triton takes for a DotOperandLayout over `parent`
// ("AMDMFMALayout", "AMDWMMALayout" with its version, "NVMMADistributedLayout"
// with its major version and the operand's element bits): empty when any is legal.
// WMMA v1 8/16, v2 4/8/16, v3 2/8/16 (TritonGPU DotOperandEncodingAttr::verify,
// and Triton 3.6's refusals in tests/data/triton); MFMA 1..16 (powers of two:
// what Triton's AMD backend builds, kBase x kPack; above 16 it is refused);
// mma v2 32 / bits (nvidiaDotToLinearLayout: kWidth elements make 32 bits).
std::vector<int> gluon_k_widths(std::string_view parent, int version, int element_bits);

// A named Gluon constructor as a user pastes it (the output of gluon_of):
// gl.DotOperandLayout(operand_index=, parent=..., k_width=) over
// AMDMFMALayout(version, instr_shape, transposed, warps_per_cta,
// element_bitwidth, tiles_per_warp), AMDWMMALayout(version, transposed,
// warps_per_cta, instr_shape, tiles_per_warp) or
// NVMMADistributedLayout(version, warps_per_cta, instr_shape), or one of the
// three alone (C/D). Arguments by name; defaults as Gluon's (element_bitwidth
// 32, tiles_per_warp [1, 1], transposed False).
struct GluonNamedLayout {
    std::string parent;                 // "AMDMFMALayout", "AMDWMMALayout", "NVMMADistributedLayout"
    int version = 0, version_minor = 0;
    std::vector<int> instr_shape;       // as given (2 or 3 numbers)
    bool transposed = false;
    int warps_m = 1, warps_n = 1, tiles_m = 1, tiles_n = 1;
    int element_bitwidth = 32;
    int operand_index = -1;             // DotOperandLayout: 0 (A) or 1 (B); -1: the parent alone (C/D)
    int k_width = 0;
    std::string text;                   // the constructor as read (for messages)
};
// True when `text` holds a call of one of the named constructors (and no
// DistributedLinearLayout, which is read as bases instead).
bool has_gluon_named_layout(std::string_view text);
// Reads the first named constructor of `text` (a DotOperandLayout if there is
// one); throws Error naming `origin`, the argument and what is legal.
GluonNamedLayout parse_gluon_named_layout(std::string_view text, std::string_view origin);
// The linear layout Triton gives `g` at rows x cols, for instruction `ins`
// (whose shape the constructor must name): the tile with g's parameters
// (warps_per_cta, tiles_per_warp, transposed, k_width) in linear form, the
// inverse of gluon_of. Throws Error when g names another instruction family,
// shape, element width or operand, or a kWidth Triton refuses.
LinearLayout gluon_named_linear(const GluonNamedLayout& g, const Instruction& ins, const Target& target, Operand op,
                                const ResolvedModifiers& mods, int rows, int cols);

}  // namespace lanescope
