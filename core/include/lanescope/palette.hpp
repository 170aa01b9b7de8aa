// The one colour palette and labelling scheme of lanescope: the desktop app,
// the SVG/TikZ/PNG figures and the gallery all take colours and tile labels
// from here, so a figure and a screenshot of the same layout look alike.
#pragma once

#include "lanescope/lanescope.hpp"

#include <cstdint>
#include <string>

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
int lane_group_size(const Instruction& ins);
int lane_group(const Instruction& ins, int lane);
int lane_groups(const Instruction& ins, int wave);

// The colour of one tile (an element at one location).
Rgb tile_color(const Instruction& ins, ColorBy by, const Element& e, const Location& loc, Theme t);
// The colour of a cell of a tile of many waves (tile.hpp): a hue per wave
// (waves 8..15 a deeper set of the same 8 hues; repeating after 16), lighter
// (light theme) or darker (dark theme) shades, up to 55 %, for the later lane
// groups within the wave. The app's tile mode and the tile figures share it.
Rgb wave_color(int wave, int lane_group, int lane_groups, Theme t);
// Text drawn on dark or light tiles: whichever contrasts more.
Rgb text_on(const Rgb& fill);

// Tile labels: "v3 · L17" for a whole register, "v0[15:0] · L17" for part of one,
// "v[1:0] · L5" for a 64-bit pair. The short form drops the bit range
// ("v0 · L17") for small tiles.
std::string tile_label(const Location& loc, int element_bits, bool with_bits = true);

}  // namespace lanescope
