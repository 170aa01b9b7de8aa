// Palette and labels shared by the app and the figures.
#include "lanescope/palette.hpp"

#include <cstdio>

namespace lanescope {

std::string Rgb::hex() const {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02X%02X%02X", r, g, b);
    return buf;
}

ThemeColors theme_colors(Theme t) {
    if (t == Theme::Dark) return {{0x1E, 0x1F, 0x22}, {0xE8, 0xE8, 0xE8}, {0x55, 0x58, 0x5E}, {0xFF, 0xD7, 0x00}, {0x8A, 0x8D, 0x93}};
    return {{0xFF, 0xFF, 0xFF}, {0x1A, 0x1A, 0x1A}, {0xB0, 0xB4, 0xBA}, {0xD0, 0x00, 0x70}, {0x70, 0x74, 0x7A}};
}

namespace {
// Okabe & Ito (2008), "Color Universal Design": distinguishable under
// protanopia, deuteranopia and tritanopia.
constexpr Rgb kOkabeIto[8] = {{0xE6, 0x9F, 0x00}, {0x56, 0xB4, 0xE9}, {0x00, 0x9E, 0x73}, {0xF0, 0xE4, 0x42},
                              {0x00, 0x72, 0xB2}, {0xD5, 0x5E, 0x00}, {0xCC, 0x79, 0xA7}, {0x99, 0x99, 0x99}};

Rgb mix(const Rgb& a, const Rgb& b, double t) {
    auto m = [t](std::uint8_t x, std::uint8_t y) { return static_cast<std::uint8_t>(x + (y - x) * t + 0.5); };
    return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)};
}
}  // namespace

int categorical_count() { return 16; }

Rgb categorical(int index, Theme t) {
    index = ((index % 16) + 16) % 16;
    Rgb base = kOkabeIto[index % 8];
    if (index >= 8) base = mix(base, t == Theme::Dark ? Rgb{0, 0, 0} : Rgb{255, 255, 255}, 0.55);
    if (t == Theme::Dark && index < 8) base = mix(base, Rgb{0, 0, 0}, 0.15);
    return base;
}

int lane_group_size(const Instruction& ins) {
    return is_cdna(ins.families.front()) ? ins.m : 16;
}

int lane_group(const Instruction& ins, int lane) { return lane / lane_group_size(ins); }

int lane_groups(const Instruction& ins, int wave) { return wave / lane_group_size(ins); }

Rgb tile_color(const Instruction& ins, ColorBy by, const Element& e, const Location& loc, Theme t) {
    switch (by) {
        case ColorBy::Lane: return categorical(lane_group(ins, loc.lane), t);
        case ColorBy::Register: return categorical(loc.reg, t);
        case ColorBy::Block: return categorical(e.block, t);
    }
    return categorical(0, t);
}

Rgb wave_color(int wave, int lane_group, int lane_groups, Theme t) {
    wave = ((wave % 16) + 16) % 16;
    const Rgb black{0, 0, 0}, white{255, 255, 255};
    Rgb base = categorical(wave % 8, t);
    if (wave >= 8) base = mix(base, t == Theme::Dark ? white : black, 0.35);
    if (lane_groups <= 1) return base;
    const int g = lane_group < 0 ? 0 : lane_group >= lane_groups ? lane_groups - 1 : lane_group;
    return mix(base, t == Theme::Dark ? black : white, 0.55 * g / (lane_groups - 1));
}

Rgb text_on(const Rgb& fill) {
    // Relative luminance (sRGB weights, no gamma: enough to pick black or white).
    const double y = 0.2126 * fill.r + 0.7152 * fill.g + 0.0722 * fill.b;
    return y > 140 ? Rgb{0x10, 0x10, 0x10} : Rgb{0xFA, 0xFA, 0xFA};
}

std::string tile_label(const Location& loc, int bits, bool with_bits) {
    const std::string lane = " \u00B7 L" + std::to_string(loc.lane);
    if (bits == 64 && loc.bit_lo == 0)
        return "v[" + std::to_string(loc.reg + 1) + ":" + std::to_string(loc.reg) + "]" + lane;
    std::string reg = "v" + std::to_string(loc.reg);
    if (with_bits && !(bits == 32 && loc.bit_lo == 0)) {
        if (loc.bit_hi <= 31)
            reg += "[" + std::to_string(loc.bit_hi) + ":" + std::to_string(loc.bit_lo) + "]";
        else
            reg += "[31:" + std::to_string(loc.bit_lo) + "]+v" + std::to_string(loc.reg + loc.bit_hi / 32) + "[" +
                   std::to_string(loc.bit_hi % 32) + ":0]";
    }
    return reg + lane;
}

}  // namespace lanescope
