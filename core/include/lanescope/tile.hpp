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
    // Triton's DotOperandLayout kWidth for A and B: the consecutive K elements
    // a lane holds per register group; 0 = the instruction's own (see
    // TileLayout::native_k_width()). C and D do not depend on it.
    int k_width = 0;
    // Triton's isTransposed (AMDMfmaEncodingAttr) / transposed
    // (AMDWmmaEncodingAttr): C and D laid out as the instruction's C/D
    // transposed (lanes along M). A and B do not depend on it (Triton 3.6).
    bool transposed = false;
    bool operator==(const TileParams& o) const {
        return waves_m == o.waves_m && waves_n == o.waves_n && tiles_m == o.tiles_m && tiles_n == o.tiles_n &&
               m == o.m && n == o.n && k == o.k && k_width == o.k_width && transposed == o.transposed;
    }
    // True when nothing differs from a single instruction (one wave, one
    // sub-tile, instruction shape, the instruction's own kWidth, not transposed).
    bool single() const;
    std::string describe() const;  // "waves 2x2, tiles per wave 2x1, shape 128x128x32[, kWidth 8][, transposed]"
    // The parameters as they apply to `op` when every operand is asked for
    // (--operand all): kWidth and transposed, which TileLayout refuses for K,
    // SA and SB (no Triton layout parameter describes them), left out there.
    TileParams for_operand(Operand op) const;
};

// The limits every tile obeys (checked in 64-bit before anything is built;
// each refusal names the one it passes).
struct TileLimits {
    static constexpr long long waves = 1024;             // WM x WN
    static constexpr long long tiles_per_wave = 4096;    // RM x RN
    static constexpr long long cells = 1LL << 24;        // elements per operand (rows x cols)
    static constexpr long long registers = 65536;        // 32-bit registers per lane
    static constexpr long long placements = 1LL << 24;   // (wave, lane, element) placements of one operand
};

// The parameters with the shape that applies filled in, as TileLayout::params() has them, without laying
// anything out: M = instruction M x RM x WM and N = instruction N x RN x WN when left 0 (one wave-grid tile),
// K the instruction's. What every description of a tile prints (describe() of these), never "0x0x0".
// (Parameters past TileLimits, which TileLayout refuses, keep their 0: no product overflows.)
inline TileParams with_shape(TileParams p, const Instruction& ins) {
    const auto fill = [](int& v, long long product) {
        if (v == 0 && product > 0 && product <= TileLimits::cells) v = static_cast<int>(product);
    };
    fill(p.m, static_cast<long long>(ins.m) * p.tiles_m * p.waves_m);
    fill(p.n, static_cast<long long>(ins.n) * p.tiles_n * p.waves_n);
    if (p.k == 0) p.k = ins.k;
    return p;
}

// One line for the options' --help: "limits: WM x WN <= 1024 waves, ...".
std::string tile_limits_help();

// The tile options as users type them (CLI and app): waves "WMxWN", tiles per
// wave "RMxRN", shape "TMxTN" or "TMxTNxTK"; an empty text keeps the default.
// Throws Error naming the option (--waves, --tiles-per-wave, --shape) and its
// legal form.
TileParams parse_tile_params(std::string_view waves, std::string_view tiles_per_wave, std::string_view shape);
// "--k-width N": a power of two 1..64 (which ones an instruction takes is
// checked by TileLayout); throws Error naming the option.
int parse_k_width(std::string_view text);

// Which of Triton's AMD layouts a family's matrix instructions follow
// (triton-lang/triton LinearLayoutConversions.cpp): MFMA (CDNA, any version),
// WMMA version 1 (RDNA3), 2 (RDNA4), 3 (gfx1250 family), or none (NVIDIA:
// Triton's NVIDIA layouts are not modelled).
enum class TritonLayout { None, Mfma, Wmma1, Wmma2, Wmma3 };
TritonLayout triton_layout_of(Family f);
// The kWidth values Triton accepts for a dot operand of this layout
// (TritonGPU DotOperandEncodingAttr::verify): WMMA v1 8/16, v2 4/8/16,
// v3 2/8/16; MFMA any (lanescope takes powers of two 1..64).
std::vector<int> triton_k_widths(TritonLayout l);

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
    // not multiples of the wave grid's tile or of the instruction K, limits of
    // TileLimits, kWidth values Triton refuses, multi-block instructions),
    // naming what is legal.
    TileLayout(const Instruction& ins, const Target& t, Operand op, const ResolvedModifiers& mods, const TileParams& p);

    Operand operand() const { return instr_.operand(); }
    const OperandLayout& instruction() const { return instr_; }
    const TileParams& params() const { return params_; }  // with m, n and k filled in (k_width as given)
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int waves() const { return params_.waves_m * params_.waves_n; }
    int lanes() const { return instr_.lanes(); }
    int steps() const { return steps_; }                   // instruction copies per wave
    int regs() const { return steps_ * instr_.regs(); }    // 32-bit registers per lane
    int elements() const { return rows_ * cols_; }
    // Which of Triton's layouts this operand follows element for element
    // (None: lanescope's own composition, e.g. NVIDIA, wave64 WMMA, sparse or
    // scale operands, broadcast modifiers).
    TritonLayout triton() const { return triton_; }
    // The kWidth the instruction itself has (the consecutive K elements one
    // lane holds from its first register); 0 where not modelled (C/D, None).
    int native_k_width() const { return native_k_width_; }
    // The kWidth in effect: the one given, else the instruction's own (0 for C/D and None).
    int k_width() const { return k_width_; }
    // Digits of the register step, fastest first, as (digit, count); counts of
    // 1 included. A digit may appear twice (RDNA3 with many K steps: Triton
    // takes some K steps before the sub-tiles and the rest after); the later
    // one is more significant.
    const std::vector<std::pair<TileDigit, int>>& register_order() const { return order_; }

    // Every (wave, lane, reg, bits) that holds this element; throws Error if out of range.
    std::vector<TileLocation> where(const Element& e) const;
    // What register `reg` of `lane` in `wave` holds (elements in tile coordinates).
    std::vector<SlotPart> which(int wave, int reg, int lane) const;
    // Every (element, location), sorted by element, then wave, then location.
    std::vector<TileEntry> entries() const;

    // The wave grid's position of a step: its digits. For tests and renderers.
    // Each step is one instruction copy at an offset only when kWidth is the
    // instruction's own; otherwise step_digits throws Error saying so.
    struct Step {
        int k_step = 0, tile_m = 0, tile_n = 0, repeat_m = 0, repeat_n = 0;
    };
    Step step_digits(int step) const;
    int step_of(const Step& s) const;

private:
    bool a_like() const;  // rows are M and the wave grid's N direction shares it
    bool b_like() const;  // cols are N and the M direction shares it
    Element instr_element(const Element& e) const;  // C/D transposed: the instruction's (j, i)
    // Triton's dot-operand layout (A/B): the element register index `t` of
    // `lane` in wave `wave` holds.
    Element dot_element(int wave, int lane, int t) const;
    OperandLayout instr_;
    TileParams params_;
    TritonLayout triton_ = TritonLayout::None;
    int native_k_width_ = 0, k_width_ = 0;
    int rows_ = 0, cols_ = 0, steps_ = 1;
    int k_steps_ = 1, rep_m_ = 1, rep_n_ = 1;
    std::vector<std::pair<TileDigit, int>> order_;
    // Triton's dot operands (A/B with triton_ != None).
    struct Dot {
        int nonk = 16;    // the instruction's M (A) or N (B): lanes along it
        int groups = 2;   // lane groups along K (64 / nonk for MFMA, 2 for WMMA)
        int slots = 1;    // elements a lane holds per instruction
        int ke1 = 1;      // K elements per lane before the sub-tiles
        int ke2 = 1;      // K elements per lane after them (RDNA3 only)
        bool lanes_share = false;  // RDNA3: the upper lanes hold a copy
        std::vector<Element> slot_element;             // [lane * slots + e]: the instruction's element
        std::vector<std::vector<Location>> slot_locs;  // [lane * slots + e]: its bits in that lane
        std::vector<int> slot_of;                      // [lane * rows * cols + instruction element]: e or -1
    } dot_;
    bool use_dot_ = false;
};

}  // namespace lanescope
