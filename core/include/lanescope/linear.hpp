// Layouts as linear maps over GF(2), in Triton's convention (LinearLayout):
// each bit of the register index, the lane and the warp (wave) moves to one
// (row, col), and an index maps to the XOR of the moves of its set bits.
//
// The register dimension numbers the elements one lane holds in
// register-and-bit order (element 0 is the lowest bits of the first register),
// not VGPRs: an f16 pair in one VGPR is two register indices.
#pragma once

#include "lanescope/tile.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope {

struct LinearLayout {
    std::vector<std::pair<int, int>> reg, lane, warp;  // (row, col) each index bit moves to
    int rows = 0, cols = 0;                            // the "shape"
    std::pair<int, int> apply(int reg_index, int lane_index, int warp_index) const;
    int reg_count() const { return 1 << reg.size(); }
    int lane_count() const { return 1 << lane.size(); }
    int warp_count() const { return 1 << warp.size(); }
};

// The elements each (wave, lane) of a tile holds, in register-and-bit order;
// index wave * lanes + lane. An element spanning registers counts once, where
// it starts. Throws Error when one slot holds several elements (modifiers that
// broadcast), as such a layout is no function of (register, lane, wave).
std::vector<std::vector<Element>> held_elements(const TileLayout& t);
// The same when every (wave, lane) holds as many elements as the others, as the
// linear and CuTe forms need: empty, with `held` filled; else why not (in words).
std::string uniform_held_elements(const TileLayout& t, std::vector<std::vector<Element>>& held);

// The tile as a linear layout, checked by evaluating the bases back over every
// (register, lane, wave); or, when it is not linear, why (in words).
struct LinearResult {
    std::optional<LinearLayout> layout;
    std::string why_not;
};
LinearResult to_linear(const TileLayout& t);

// {"register": [[r, c], ...], "lane": [...], "warp": [...], "block": [], "shape": [R, C]}
std::string render_linear(const LinearLayout& l);
// Reads that form (Triton's dump of a LinearLayout's bases, dims in row, col
// order); throws Error naming `origin` and what is wrong.
LinearLayout parse_linear(std::string_view text, std::string_view origin);

}  // namespace lanescope
