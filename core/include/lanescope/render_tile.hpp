// Text renderings of tiles (tile.hpp): the JSON contract of docs/json.md gains
// "wave" in each entry and the tile parameters at the top.
#pragma once

#include "lanescope/render.hpp"
#include "lanescope/tile.hpp"

#include <string>

namespace lanescope {

// "\"waves\": [WM, WN], \"tiles_per_wave\": [RM, RN], \"shape\": [TM, TN, TK], ..." (no braces).
std::string tile_json_fields(const TileLayout& t);
std::string render_tile_layout(const Query& q, const TileLayout& t, View view, Format format);
// The same bytes, streamed into `out` as they are produced (large tiles).
void render_tile_layout(const Query& q, const TileLayout& t, View view, Format format, TextSink& out);
std::string render_tile_where(const Query& q, const TileLayout& t, const Element& e, Format format);
std::string render_tile_which(const Query& q, const TileLayout& t, int wave, int reg, int lane, Format format);
// Everything one lane of one wave holds, register by register.
std::string render_tile_lane(const Query& q, const TileLayout& t, int wave, int lane, Format format);
// D[row][col] of a tile and every A, B and C placement that feeds it (sum over the tile's K).
std::string render_tile_trace(const Query& q, const TileLayout& a, const TileLayout& b, const TileLayout& c,
                              const TileLayout& d, const Element& e, Format format);

}  // namespace lanescope
