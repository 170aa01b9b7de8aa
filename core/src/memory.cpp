// Addresses of a tile in memory (see lanescope/memory.hpp).
#include "lanescope/memory.hpp"

namespace lanescope {

std::string_view memory_space_name(MemorySpace s) { return s == MemorySpace::Global ? "global" : "lds"; }
std::string_view memory_order_name(MemoryOrder o) { return o == MemoryOrder::RowMajor ? "row" : "col"; }

long long element_address(const MemoryTile& t, int row, int col) {
    const bool row_major = t.order == MemoryOrder::RowMajor;
    const long long line = row_major ? row : col;
    long long pos = row_major ? col : row;
    if (t.swizzle.active()) pos ^= static_cast<long long>(t.swizzle.vec) * ((line / t.swizzle.per_phase) % t.swizzle.max_phase);
    const long long index = line * (static_cast<long long>(t.ld) + t.pad) + pos;
    return index * t.element_bits / 8;
}

// Placeholders until the planners land (issue 13).
std::vector<MemoryOp> plan_plain_loads(const Instruction& ins, const Target&, Operand, const ResolvedModifiers&,
                                       const MemoryTile&, const std::optional<TileParams>&) {
    throw Error("plain loads are not modelled yet for " + ins.mnemonic);
}
std::vector<MemoryOp> plan_stores(const Instruction& ins, const Target&, Operand, const ResolvedModifiers&,
                                  const MemoryTile&, const std::optional<TileParams>&) {
    throw Error("stores are not modelled yet for " + ins.mnemonic);
}
BankModel bank_model(const Target&) { throw Error("the LDS bank model is not modelled yet"); }
std::vector<PassGrouping> pass_groupings(const Target&, std::string_view, int) { return {}; }
std::vector<BankReport> analyse_banks(const std::vector<MemoryOp>&, const Target&, int, std::string_view) { return {}; }
std::vector<CoalescingReport> analyse_coalescing(const std::vector<MemoryOp>&, int) { return {}; }

}  // namespace lanescope
