// Work limits of the front ends: the largest tile each kind of answer is
// computed for, so that every legal request finishes in seconds and bounded
// memory (docs/limits.md has the measured table, `lanescope-cli bench` the
// numbers). A request over a limit is refused up front, naming the limit.
//
// The measure is the placement: one (element, wave, lane, register, bits) of a
// tile. An operand's placements are the instruction's placements times the
// instruction copies each wave holds times the waves, so an A operand that
// every wave along N shares counts once per wave.
#pragma once

#include "lanescope/tile.hpp"

#include <string>

namespace lanescope {

// Streamed answers (layout of a tile in any format): about 104 bytes of JSON each.
inline constexpr long long kMaxStreamedPlacements = 1LL << 24;
// Answers that hold every placement in memory while they compare or plan
// (check of a tile, load/store planning of a tile).
inline constexpr long long kMaxHeldPlacements = 1LL << 22;
// `check --layout FILE`: what lanescope itself writes of a tile at kMaxHeldPlacements (JSON: about
// 104 bytes a placement, up to 128 with large coordinates) is read; more placements are refused.
inline constexpr long long kMaxCheckInputBytes = kMaxHeldPlacements * 128;  // 512 MiB
// Load/store planning of a tile (load, figure --memory, the app's memory view):
// every access planned and its LDS banks analysed.
inline constexpr long long kMaxMemoryPlacements = 1LL << 20;
// `load --sweep`: candidates x the tile's placements (each candidate is one load plan), refused
// up front above this.
inline constexpr long long kMaxSweepPlacements = 1LL << 22;
// Figures of a tile (SVG, TikZ, PNG), over the operands drawn: every cell is
// built and held while drawn.
inline constexpr long long kMaxFigurePlacements = 1LL << 21;
// Generated C++ headers, per operand: closed forms checked against every placement
// before they are written (--tables writes every placement).
inline constexpr long long kMaxHeaderPlacements = 1LL << 20;

// Placements of the tile (waves x instruction copies per wave x the instruction's placements).
long long tile_placements(const TileLayout& t);
// Registers of the tile that may hold something: waves x lanes x registers per lane.
long long tile_slots(const TileLayout& t);
// Throws Error unless both counts are within `limit`: "<what> of <operand> tile ...
// has N placements; <what> handles at most LIMIT (<why>); legal: a smaller --shape, fewer
// --waves or --tiles-per-wave".
void check_tile_work(const TileLayout& t, long long limit, const std::string& what, const std::string& why);

}  // namespace lanescope
