// Tiles of many waves: one instruction repeated over a workgroup's block.
//
// A tile is an instruction (with modifiers and wave size), a wave grid
// WM x WN, sub-tiles per wave RM x RN (contiguous within the wave) and a tensor
// shape the wave grid repeats to cover: TM x TN for C/D, TM x TK for A,
// TK x TN for B. The composition is the one Triton's AMD backend uses for its
// MFMA and WMMA layouts (LinearLayoutConversions.cpp: AMDMfmaEncodingAttr,
// AMDWmmaEncodingAttr and their dot operands, with warpsPerCTA and
// tilesPerWarp); docs/tiles.md spells out the order in which sub-tiles, K steps
// and repetitions take registers.
//
//   wave = wm * WN + wn                        (waves along N are adjacent)
//   C/D:  each element has one wave;
//   A:    waves along N share A (every wn holds its own copy);
//   B:    waves along M share B (every wm holds its own copy).
//   reg = step * instruction_regs + instruction_reg, where `step` numbers the
//   wave's sub-tiles, K steps and repetitions in register_order().
#pragma once

#include "lanescope/lanescope.hpp"

#include <string>
#include <vector>

namespace lanescope {

struct TileParams {
    int waves_m = 1, waves_n = 1;  // warpsPerCTA
    int tiles_m = 1, tiles_n = 1;  // tilesPerWarp
    int m = 0, n = 0, k = 0;       // tensor shape; 0 = one wave-grid tile (M, N) or one instruction K
    bool operator==(const TileParams& o) const {
        return waves_m == o.waves_m && waves_n == o.waves_n && tiles_m == o.tiles_m && tiles_n == o.tiles_n &&
               m == o.m && n == o.n && k == o.k;
    }
    // True when nothing differs from a single instruction (one wave, one sub-tile, instruction shape).
    bool single() const;
    std::string describe() const;  // "waves 2x2, tiles per wave 2x1, shape 128x128x32"
};

// The tile options as users type them (CLI and app): waves "WMxWN", tiles per
// wave "RMxRN", shape "TMxTN" or "TMxTNxTK"; an empty text keeps the default.
// Throws Error naming the option (--waves, --tiles-per-wave, --shape) and its
// legal form.
TileParams parse_tile_params(std::string_view waves, std::string_view tiles_per_wave, std::string_view shape);

// One digit of the register step: which repetition it counts, and how many.
enum class TileDigit { KStep, TileM, TileN, RepeatM, RepeatN };
std::string_view tile_digit_name(TileDigit d);  // "k_step", "tile_m", ...

struct TileLocation {
    int wave = 0;
    Location loc;
    bool operator<(const TileLocation& o) const;
    bool operator==(const TileLocation& o) const { return wave == o.wave && loc == o.loc; }
};
struct TileEntry {
    Element element;  // block is always 0: tiles are of single-block instructions
    TileLocation at;
};

class TileLayout {
public:
    // Throws Error for illegal parameters (non-positive counts, shapes that are
    // not multiples of the wave-grid tile or of the instruction K, multi-block
    // instructions), naming what is legal.
    TileLayout(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods, const TileParams& p);

    Operand operand() const { return instr_.operand(); }
    const OperandLayout& instruction() const { return instr_; }
    const TileParams& params() const { return params_; }  // with m, n, k filled in
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int waves() const { return params_.waves_m * params_.waves_n; }
    int lanes() const { return instr_.lanes(); }
    int steps() const { return steps_; }                   // instruction copies per wave
    int regs() const { return steps_ * instr_.regs(); }    // 32-bit registers per lane
    int elements() const { return rows_ * cols_; }
    // Digits of the register step, fastest first, as (digit, count); counts of 1 included.
    const std::vector<std::pair<TileDigit, int>>& register_order() const { return order_; }

    // Every (wave, lane, reg, bits) that holds this element; throws Error if out of range.
    std::vector<TileLocation> where(const Element& e) const;
    // What register `reg` of `lane` in `wave` holds (elements in tile coordinates).
    std::vector<SlotPart> which(int wave, int reg, int lane) const;
    // Every (element, location), sorted by element, then wave, then location.
    std::vector<TileEntry> entries() const;

    // The wave grid's position of a step: its digits. For tests and renderers.
    struct Step {
        int k_step = 0, tile_m = 0, tile_n = 0, repeat_m = 0, repeat_n = 0;
    };
    Step step_digits(int step) const;
    int step_of(const Step& s) const;

private:
    bool a_like() const;  // rows are M and the wave grid's N direction shares it
    bool b_like() const;  // cols are N and the M direction shares it
    OperandLayout instr_;
    TileParams params_;
    int rows_ = 0, cols_ = 0, steps_ = 1;
    int k_steps_ = 1, rep_m_ = 1, rep_n_ = 1;
    std::vector<std::pair<TileDigit, int>> order_;
};

}  // namespace lanescope

// ---------------------------------------------------------------------------
// Text renderings of tiles (the JSON contract of docs/json.md gains "wave" in
// each entry and the tile parameters at the top).
#include "lanescope/render.hpp"

namespace lanescope {

// "\"waves\": [WM, WN], \"tiles_per_wave\": [RM, RN], \"shape\": [TM, TN, TK], ..." (no braces).
std::string tile_json_fields(const TileLayout& t);
std::string render_tile_layout(const Query& q, const TileLayout& t, View view, Format format);
// The same bytes, streamed into `out` as they are produced (large tiles).
void render_tile_layout(const Query& q, const TileLayout& t, View view, Format format, TextSink& out);
std::string render_tile_where(const Query& q, const TileLayout& t, const Element& e, Format format);
std::string render_tile_which(const Query& q, const TileLayout& t, int wave, int reg, int lane, Format format);

}  // namespace lanescope
