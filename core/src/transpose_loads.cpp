// Transpose loads (CDNA4 ds_read_*_tr_*, RDNA4 global_load_tr_*): placeholder
// until their catalog rows and lane rules land.
#include "lanescope/memory.hpp"

namespace lanescope {

std::vector<MemoryOp> plan_transposed_loads(const Instruction& ins, const Target&, Operand, const ResolvedModifiers&,
                                            const MemoryTile&, const std::optional<TileParams>&) {
    throw Error("no transpose load is modelled yet for " + ins.mnemonic);
}

}  // namespace lanescope
