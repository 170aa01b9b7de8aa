// Work limits of the front ends (limits.hpp).
#include "lanescope/limits.hpp"

namespace lanescope {

namespace {

// 16777216 -> "16,777,216"
std::string grouped(long long v) {
    std::string digits = std::to_string(v), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

long long tile_placements(const TileLayout& t) {
    return static_cast<long long>(t.waves()) * t.steps() * static_cast<long long>(t.instruction().entries().size());
}

long long tile_slots(const TileLayout& t) {
    return static_cast<long long>(t.waves()) * t.lanes() * static_cast<long long>(t.steps()) * t.instruction().regs();
}

void check_tile_work(const TileLayout& t, long long limit, const std::string& what, const std::string& why) {
    const long long placements = tile_placements(t), slots = tile_slots(t);
    if (placements <= limit && slots <= limit) return;
    const bool by_slots = slots > placements;
    throw Error("the " + std::string(operand_name(t.operand())) + " tile (" + std::to_string(t.rows()) + " x " +
                std::to_string(t.cols()) + "; " + t.params().describe() + ") has " +
                grouped(by_slots ? slots : placements) +
                (by_slots ? " registers (waves x lanes x registers per lane)"
                          : " placements (elements x the waves and registers holding each)") +
                "; " + what + " handles at most " + grouped(limit) + " (" + why +
                "); legal: a smaller --shape, fewer --waves or --tiles-per-wave");
}

}  // namespace lanescope
