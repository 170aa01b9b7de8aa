// The one colour palette and labelling scheme of lanescope: the desktop app,
// the SVG/TikZ/PNG figures and the gallery all take colours and tile labels
// from here, so a figure and a screenshot of the same layout look alike.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lanescope {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
    std::string hex() const;  // "#RRGGBB"
};

enum class ColorBy { Lane, Register, Block };
enum class Theme { Light, Dark };

struct ThemeColors {
    Rgb background, text, grid, highlight, muted;
};
ThemeColors theme_colors(Theme t);

// Up to 16 categorical colours that stay apart for the common colour-vision
// deficiencies: the 8 Okabe-Ito hues, then the same hues at another lightness.
// Index wraps modulo 16.
Rgb categorical(int index, Theme t);
int categorical_count();

// Lanes are grouped the way the hardware groups them: a lane group is the set
// of lanes that covers the rows (or columns) once, i.e. M lanes on CDNA
// (4, 16 or 32) and 16 lanes on RDNA. Colouring "by lane" colours by lane group,
// so a 4x4 16-block MFMA shows 16 colours and a 32x32 one shows 2.
// NVIDIA groups as PTX does: groupID = lane / 4 (threadID_in_group = lane % 4)
// for mma, mma.sp and ldmatrix/stmatrix (8 groups per warp); the warp of the
// warpgroup (lane / 32) for wgmma.
int lane_group_size(const Instruction& ins);
int lane_group(const Instruction& ins, int lane);
int lane_groups(const Instruction& ins, int wave);

// The colour of one tile (an element at one location).
Rgb tile_color(const Instruction& ins, ColorBy by, const Element& e, const Location& loc, Theme t);

// A shade per lane within its lane group's hue, so lane order reads without
// labels: the group's first lane has the group's colour (categorical(group)),
// later ones are lighter (light theme) or darker (dark theme), up to 50 %.
// The shade steps by lane on AMD (lane % lane_group_size), by PTX's
// threadID_in_group (lane % 4) for mma/ldmatrix and by groupID within the
// warp ((lane % 32) / 4) for wgmma. lane_shade_steps: how many shades a group has.
int lane_shade_steps(const Instruction& ins);
int lane_shade(const Instruction& ins, int lane);  // 0 .. lane_shade_steps - 1
Rgb lane_color(const Instruction& ins, int lane, Theme t);
// lane_color of a lane of a Space: TMEM lanes take a hue per lane quarter (the warp w%4
// of a warpgroup that may access lanes 32*(w%4)..+31, PTX ISA §9.7.16.2.1), lighter down
// the quarter's 32 lanes; registers as lane_color.
Rgb lane_color(const Instruction& ins, Space space, int lane, Theme t);
// The colour of a location by where it lives: lane_color(space, loc.lane) for registers
// and TMEM; shared memory a hue per 16-byte chunk of its 128-byte line (banks
// 4c..4c+3, so a swizzle shows as the hues permuted from line to line), lighter with
// the line's place in its period of 8 lines (the rows of a core matrix).
Rgb location_color(const Instruction& ins, Space space, const Location& loc, Theme t);
// The colour group of a lane of a space: TMEM lane quarters (lane%128)/32, else lane_group.
int space_lane_group(const Instruction& ins, Space space, int lane);
// tile_color, but ColorBy::Lane gives lane_color (the app's cells; figures may use either);
// in TMEM and shared memory ColorBy::Lane gives location_color.
Rgb tile_shade(const Instruction& ins, ColorBy by, const Element& e, const Location& loc, Theme t,
               Space space = Space::Registers);
// An operand's element format as `info` and the figures name it: its type
// (operand_type, info's "types" row), a title ("FP4 E2M1" for the f8f6f4
// formats of the OCP MX spec, else the type's name, "f16"), and the modifier
// that chose it, written as the query's title writes modifiers: "cbsz=4"
// (mfma_scale A), "blgp=2" (mfma_scale B), "matrix_a_fmt=4" (gfx1250 A); ""
// where the instruction fixes the type (every NVIDIA row, every other AMD row).
struct OperandFormat {
    ElemType type = ElemType::F32;
    std::string title;      // "FP4 E2M1", "f16", "e4m3"
    std::string chosen_by;  // "cbsz=4", "matrix_b_fmt=0", ""
};
OperandFormat operand_format(const Instruction& ins, Operand op, const ResolvedModifiers& mods);
// What the lane colours mean, for legends: "lanes 0–31" (AMD), "groupID 3 (T12–15)"
// (mma), "warp 1 (T32–63)" (wgmma); and what the shade within a group steps by:
// "lane", "threadID_in_group", "groupID".
std::string lane_group_text(const Instruction& ins, int group);
// lane_group_text of a space's groups: TMEM "TMEM lanes 32–63 (warp w%4 = 1)", shared
// memory the 16-byte chunks location_color gives a hue: "bytes 16–31 of a line (banks
// 4–7)"; registers as above.
std::string lane_group_text(const Instruction& ins, Space space, int group);
std::string lane_shade_text(const Instruction& ins);
// What colouring by lane means in one location space, in the words every legend uses: the hue
// classes and how many there are (TMEM: the 4 lane quarters a warp w%4 may access; shared memory:
// the 8 16-byte chunks of a line; registers: the lane groups of `lanes` lanes), what the shade
// steps by, and the app legend's short heading. One place for the figures' and the app's words.
struct SpaceColourWords {
    int classes = 0;
    std::string hue;      // "TMEM lane quarter (the lanes warp w%4 of a warpgroup may access)"
    std::string shade;    // ", shaded by lane within the quarter"
    std::string heading;  // "TMEM: colour = lane quarter (warp w%4 allowed), shade = lane:"
};
SpaceColourWords space_colour_words(const Instruction& ins, Space space, int lanes);
// The colour of a cell of a tile of many waves (tile.hpp): a hue per wave
// (waves 8..15 a deeper set of the same 8 hues; repeating after 16), lighter
// (light theme) or darker (dark theme) shades, up to 55 %, for the later lane
// groups within the wave. The app's tile mode and the tile figures share it.
Rgb wave_color(int wave, int lane_group, int lane_groups, Theme t);
// wave_color shaded by the lane within its lane group (lane_shade), up to 30 %
// further towards white (light theme) or black (dark theme): the group's first
// lane has wave_color itself. The app's tile mode: lane order reads at fit.
Rgb wave_lane_color(const Instruction& ins, int wave, int lane, int lane_groups, Theme t);
// Text drawn on dark or light tiles: whichever contrasts more.
Rgb text_on(const Rgb& fill);

// Tile labels: "v3 · L17" for a whole register, "v0[15:0] · L17" for part of one,
// "v[1:0] · L5" for a 64-bit pair. The short form drops the bit range
// ("v0 · L17") for small tiles.
std::string tile_label(const Location& loc, int element_bits, bool with_bits = true);

// ---- The one composition of a cell's label -------------------------------
// Every front end (the app's cells and tooltips, the CLI's layout/where/which
// text, the figures) names a location through cell_label, in the vendor's terms:
//   AMD:    register "v0[15:0]" (bits where the element is part of a register,
//           "v[1:0]" for a 64-bit pair, "v0[31:30]+v1[3:0]" across two), lane "L17".
//   NVIDIA: PTX's fragment element names, per thread: "a0".."a7" for the f16 A of
//           m16n8k16 (two per .f16x2 register: a0 = first register's low half),
//           "b0".., "c0".."c3" / "d0".. for the accumulators, "e" for mma.sp's
//           metadata (with its bits: "e[3:0]"), ldmatrix/stmatrix's destination
//           registers "r0[15:0]"; thread "T17".
struct CellLabel {
    std::string reg;         // "v0[15:0]", "v[1:0]", "a5", "r1[31:16]"
    std::string reg_bare;    // without bits: "v0", "v[1:0]", "a5", "r1"
    std::string reg_short;   // compact part: "v0.hi", "v1.b2", "v0.n5" (else reg_bare)
    std::string lane;        // "L17" (AMD) or "T17" (NVIDIA)
    std::string number;      // "17"
};
// In the other spaces (Space; the layout's space(): front ends pass it):
//   TensorMemory: lane "L5" ("CTA1 L5" under cta_group::2: CTA 1's lanes are 128..255),
//           reg the 32-bit column "c7" ("c7[15:0]" for part of one); text "L5 c7".
//   SharedMemory: reg the element's byte address "0x0480" (= 128*lane + 4*reg + bit_lo/8),
//           lane its bank "b0" (the word of the 128-byte line); text "0x0480 b0".
CellLabel cell_label(const Instruction& ins, Operand op, const Location& loc, int element_bits,
                     Space space = Space::Registers);
// The elements one 16-byte chunk of shared memory holds (their (row, col) in the
// operand's matrix), named in the operand's own index letters (A: m, k; B: k, n;
// else r, c), in the forms a picture may take, richest first:
//   {"B[k0..7][n3]", "k0..7 n3", "k0n3"}: a run along one index ("B[k8][n0..7]", ...);
//   elements that are no run: {"B[k0][n3] +7", "k0 n3 +7", "k0n3"} (the first, and how many more).
// The figures and the app label a shared-memory chunk with one of these.
std::vector<std::string> smem_chunk_labels(Operand op, const std::vector<std::pair<int, int>>& elements);
// A shared-memory location's byte address: 128*lane + 4*reg + bit_lo/8 (lanescope.hpp's Space).
int smem_address(const Location& loc);

// The forms a cell's text takes, richest first (a picture uses the richest
// that fits all of its cells).
enum class LabelForm {
    Full,      // "v0[15:0] · L17"
    TwoLines,  // "v0[15:0]" over "L17"
    Short,     // "v0.hi" over "L17"
    OneLine,   // "v0 L17"
    Lane,      // "L17"
    WaveLane,  // tiles of many waves: "w1" over "L17"
    Number,    // "17": the lane number alone (the app draws it in a smaller font)
    None,      // colours only
};
// The one or two lines of a cell in a form ("" when the form has no second line;
// WaveLane: {"", lane}, the caller puts the wave first).
std::pair<std::string, std::string> cell_label_lines(const Instruction& ins, Operand op, const Location& loc, int element_bits,
                                                     LabelForm form, Space space = Space::Registers);
// One line with a separator: cell_label_text(..., " \u00B7 ") = "v0[15:0] · L17",
// (..., ":") = "v0[15:0]:L17" (the CLI's form), "a5:T17" on NVIDIA.
// TMEM and shared memory ignore the separator: "L5 c7", "CTA1 L5 c7", "0x0480 b0".
std::string cell_label_text(const Instruction& ins, Operand op, const Location& loc, int element_bits,
                            const std::string& separator = " \u00B7 ", Space space = Space::Registers);

// A register in a table's "reg" column: "v3" on AMD; on NVIDIA the PTX name of
// the element this location holds ("a0", "d2", "e", "r1"; cell_label's reg_bare).
// TMEM: the column number "7"; shared memory: the byte address "0x0480".
std::string reg_column_text(const Instruction& ins, Operand op, const Location& loc, int element_bits,
                            Space space = Space::Registers);
// A location in a table's "lane" column: the lane number (thread, AMD lane, TMEM lane
// 0..255); shared memory: the bank.
std::string lane_column_text(const Location& loc, Space space);
// The titles of a table's register and lane columns: ("reg", "lane") for registers,
// ("column", "tmem_lane") for TMEM, ("address", "bank") for shared memory.
std::pair<std::string, std::string> location_column_titles(Space space);
// A lane as a row header: "T5" (NVIDIA), "L5" (AMD), TMEM "lane 5" ("CTA1 lane 5"),
// shared memory the line's first address "0x0480".
std::string lane_axis_text(const Instruction& ins, int lane, Space space);
// A register as a column header or axis name (register `reg` of every lane):
// "v3" on AMD; on NVIDIA, where PTX names elements rather than registers, the
// register's elements: "a0/a1" (.f16x2), "a0/a1/a2/a3" (four 8-bit), "d2"
// (32-bit), "a1" (both registers of a 64-bit element), "e", "r1" (ldmatrix).
// TMEM: "col 7"; shared memory: the bank "b7".
std::string register_text(const Instruction& ins, Operand op, int reg, int element_bits, Space space = Space::Registers);

}  // namespace lanescope
