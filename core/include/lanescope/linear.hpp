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

// What a linear layout read from text may be: its legal size. A layout maps
// 2^(register + lane + warp bases) places, and every reader and consumer
// (layout --linear, check) visits each once, so the bases are bounded by the
// largest tile lanescope lays out: 16M (2^24) elements per operand (tile.hpp),
// lanes by the largest wave (a 128-lane warpgroup), warps by 1024 waves.
inline constexpr int kLinearMaxBasesLog2 = 24;        // register + lane + warp bases, in all
inline constexpr int kLinearMaxLaneBases = 7;         // 128 lanes
inline constexpr int kLinearMaxWarpBases = 10;        // 1024 waves
inline constexpr long long kLinearMaxCells = 1 << 24; // rows * cols

struct LinearLayout {
    std::vector<std::pair<int, int>> reg, lane, warp;  // (row, col) each index bit moves to
    int rows = 0, cols = 0;                            // the "shape"
    // How many of the last warp bases are block bases of the text read (parse_linear: Triton's
    // "block_bases", one CTA of a pair as one more wave); 0 for a layout lanescope made.
    int block_bases = 0;
    std::pair<int, int> apply(int reg_index, int lane_index, int warp_index) const;
    int reg_count() const { return 1 << reg.size(); }
    int lane_count() const { return 1 << lane.size(); }
    int warp_count() const { return 1 << warp.size(); }
    long long places() const { return 1LL << (reg.size() + lane.size() + warp.size()); }
    bool operator==(const LinearLayout& o) const {
        return reg == o.reg && lane == o.lane && warp == o.warp && rows == o.rows && cols == o.cols;
    }
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
// The same bases with a thread's lanes past `warp_lanes` (a warpgroup's threads 32..127 on
// NVIDIA) moved to the front of the warp bases: thread = warp_lanes * warp + lane, as Triton's
// DistributedLinearLayout splits them. Unchanged when warp_lanes is 0 or covers every lane.
LinearLayout split_warp_lanes(const LinearLayout& l, int warp_lanes);
// The lanes per warp the exported linear form of an operand splits its threads at: 32 for the
// registers of the warps that read a tcgen05.mma D back (--tmem-load, thread = 32*warp + lane,
// Triton 3.6's get_tmem_reg_layout); 0 (one wave of all its lanes, as before) otherwise.
int linear_warp_lanes(const Instruction& ins, const ResolvedModifiers& mods);
// Gluon's constructor for it: "DistributedLinearLayout(reg_bases=[...], lane_bases=[...],
// warp_bases=[...], block_bases=[...], shape=[R, C])", with lanes beyond `warp_lanes`
// (32 on NVIDIA, where a 128-lane warpgroup is four warps) moved to warp bases; block_bases
// the CTAs of a cluster (a tcgen05 CTA pair), none by default.
std::string render_distributed_linear(const LinearLayout& l, int warp_lanes,
                                     const std::vector<std::pair<int, int>>& block_bases = {});

// Reads a linear layout in any of the forms below; throws Error naming
// `origin`, what is wrong and what is legal (limits above):
//  * lanescope's: {"register", "lane", "warp", "block", "shape"} (render_linear);
//  * Triton's JSON (Gluon's DistributedLinearLayout fields, scripts/triton-layouts.py
//    records): {"reg_bases", "lane_bases", "warp_bases", "block_bases", "shape"}
//    (plus "layout" and "params", which are ignored);
//  * Gluon's constructor: DistributedLinearLayout(reg_bases=..., ...) (the first
//    such call in the text; the rest of the text is not read);
//  * the text of Triton's LinearLayout::toString():
//      " - register=1 -> (0, 1)\n   register=2 -> ... - lane=1 -> ...
//       where out dims are: [dim0 (size 32), dim1 (size 32)]"
//    (in-dims register, lane, warp, block; "is a size 1 dimension" lines and
//    "(empty layout with out-dims [...])" included; out dims dim0 = rows,
//    dim1 = cols in either order; lines may start with "//" or "#").
// A UTF-8 byte-order mark is skipped. Bases are [dim0, dim1] = [row, col];
// "register" counts elements (Triton's convention), as render_linear does.
// With `shape_optional`, a JSON or Gluon form without "shape" is read with rows
// and cols 0 (its user gives the shape; check takes lanescope's).
LinearLayout parse_linear(std::string_view text, std::string_view origin, bool shape_optional = false);
// Which form `text` is in, for messages: "lanescope JSON", "Triton JSON",
// "Gluon DistributedLinearLayout", "Triton LinearLayout text", or "" when none.
std::string_view linear_form_of(std::string_view text);
// Text after a UTF-8 byte-order mark, if it has one.
std::string_view without_bom(std::string_view text);

}  // namespace lanescope
