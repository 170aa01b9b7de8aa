// A layout as Gluon code (Triton 3.6's triton.experimental.gluon): the named
// layout that builds it where one exists (AMDMFMALayout, AMDWMMALayout,
// NVMMADistributedLayout, DotOperandLayout over one of them) and always the
// DistributedLinearLayout with its bases (exact by construction: the tile's
// linear form, linear.hpp).
#pragma once

#include "lanescope/linear.hpp"
#include "lanescope/tile.hpp"

#include <string>

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

}  // namespace lanescope
