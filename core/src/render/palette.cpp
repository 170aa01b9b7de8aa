// Palette and labels shared by the app and the figures.
#include "lanescope/palette.hpp"

#include <algorithm>
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
    if (ins.vendor() == Vendor::NVIDIA) return ins.kind == LayoutKind::Wgmma ? 32 : 4;  // warp / PTX's groupID
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

int lane_shade_steps(const Instruction& ins) {
    if (ins.vendor() == Vendor::NVIDIA) return ins.kind == LayoutKind::Wgmma ? 8 : 4;
    return lane_group_size(ins);
}

int lane_shade(const Instruction& ins, int lane) {
    if (lane < 0) return 0;
    if (ins.vendor() == Vendor::NVIDIA) return ins.kind == LayoutKind::Wgmma ? (lane % 32) / 4 : lane % 4;
    return lane % lane_group_size(ins);
}

Rgb lane_color(const Instruction& ins, int lane, Theme t) {
    const Rgb base = categorical(lane_group(ins, lane), t);
    const int steps = lane_shade_steps(ins);
    if (steps <= 1) return base;
    const double f = 0.5 * lane_shade(ins, lane) / (steps - 1);
    return mix(base, t == Theme::Dark ? Rgb{0, 0, 0} : Rgb{255, 255, 255}, f);
}

Rgb tile_shade(const Instruction& ins, ColorBy by, const Element& e, const Location& loc, Theme t) {
    return by == ColorBy::Lane ? lane_color(ins, loc.lane, t) : tile_color(ins, by, e, loc, t);
}

std::string lane_group_text(const Instruction& ins, int group) {
    const int size = lane_group_size(ins);
    const std::string range = std::to_string(group * size) + "\u2013" + std::to_string(group * size + size - 1);
    if (ins.vendor() != Vendor::NVIDIA) return "lanes " + range;
    if (ins.kind == LayoutKind::Wgmma) return "warp " + std::to_string(group) + " (T" + range + ")";
    return "groupID " + std::to_string(group) + " (T" + range + ")";
}

std::string lane_shade_text(const Instruction& ins) {
    if (ins.vendor() != Vendor::NVIDIA) return "lane";
    return ins.kind == LayoutKind::Wgmma ? "groupID" : "threadID_in_group";
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

Rgb wave_lane_color(const Instruction& ins, int wave, int lane, int lane_groups, Theme t) {
    const int groups = std::max(1, lane_groups);
    const int g = std::min(groups - 1, std::max(0, lane_group(ins, lane)));
    const Rgb base = wave_color(wave, g, groups, t);
    const int steps = lane_shade_steps(ins);
    if (steps <= 1) return base;
    return mix(base, t == Theme::Dark ? Rgb{0, 0, 0} : Rgb{255, 255, 255}, 0.3 * lane_shade(ins, lane) / (steps - 1));
}

Rgb text_on(const Rgb& fill) {
    // Relative luminance (sRGB weights, no gamma: enough to pick black or white).
    const double y = 0.2126 * fill.r + 0.7152 * fill.g + 0.0722 * fill.b;
    return y > 140 ? Rgb{0x10, 0x10, 0x10} : Rgb{0xFA, 0xFA, 0xFA};
}

namespace {
std::string bits_text(int hi, int lo) { return "[" + std::to_string(hi) + ":" + std::to_string(lo) + "]"; }

// A register name with the bits the element occupies: "v0[15:0]", "v[1:0]", "v0[31:30]+v1[3:0]".
std::string register_bits(const std::string& prefix, const Location& loc, int bits, bool pair_form) {
    if (pair_form && bits == 64 && loc.bit_lo == 0)
        return prefix + "[" + std::to_string(loc.reg + 1) + ":" + std::to_string(loc.reg) + "]";
    std::string reg = prefix + std::to_string(loc.reg);
    if (bits == 32 && loc.bit_lo == 0) return reg;
    if (loc.bit_hi <= 31) return reg + bits_text(loc.bit_hi, loc.bit_lo);
    return reg + bits_text(31, loc.bit_lo) + "+" + prefix + std::to_string(loc.reg + loc.bit_hi / 32) + bits_text(loc.bit_hi % 32, 0);
}

std::string part_suffix(const Location& loc) {
    const int width = loc.bit_hi - loc.bit_lo + 1;
    if (loc.bit_hi > 31 || width >= 32 || loc.bit_lo % width != 0) return "";
    if (width == 16) return loc.bit_lo ? ".hi" : ".lo";
    if (width == 8) return ".b" + std::to_string(loc.bit_lo / 8);
    if (width == 4) return ".n" + std::to_string(loc.bit_lo / 4);
    return "";
}

char ptx_letter(Operand op) {
    switch (op) {
        case Operand::A: return 'a';
        case Operand::B: return 'b';
        case Operand::C: return 'c';
        case Operand::D: return 'd';
        case Operand::K: return 'e';
        default: return 'x';
    }
}
}  // namespace

CellLabel cell_label(const Instruction& ins, Operand op, const Location& loc, int bits) {
    CellLabel l;
    l.number = std::to_string(loc.lane);
    if (ins.vendor() != Vendor::NVIDIA) {
        l.lane = "L" + l.number;
        l.reg = register_bits("v", loc, bits, true);
        l.reg_bare = bits == 64 && loc.bit_lo == 0 ? l.reg : "v" + std::to_string(loc.reg);
        l.reg_short = l.reg_bare + (bits == 64 ? "" : part_suffix(loc));
        return l;
    }
    l.lane = "T" + l.number;
    if (ins.kind == LayoutKind::LdStMatrix) {
        // The destination (source) registers of ldmatrix (stmatrix): r0, r1 ... two b16 each.
        l.reg = register_bits("r", loc, bits, false);
        l.reg_bare = "r" + std::to_string(loc.reg);
        l.reg_short = l.reg_bare + part_suffix(loc);
        return l;
    }
    if (op == Operand::K) {
        // mma.sp's metadata: one 32-bit register e, the bits this element's indices use.
        l.reg_bare = ins.kind == LayoutKind::MmaSparse && loc.reg == 0 ? "e" : "e" + std::to_string(loc.reg);
        l.reg = l.reg_bare + (bits >= 32 ? "" : bits_text(loc.bit_hi, loc.bit_lo));
        l.reg_short = l.reg;
        return l;
    }
    // PTX names a thread's fragment elements in order: two f16 per register give
    // a0 a1 | a2 a3 ...; a 64-bit element is one register pair.
    int index = loc.reg;
    if (bits == 64) index = loc.reg / 2;
    else if (bits > 0 && bits < 32 && 32 % bits == 0) index = loc.reg * (32 / bits) + loc.bit_lo / bits;
    l.reg = std::string(1, ptx_letter(op)) + std::to_string(index);
    l.reg_bare = l.reg_short = l.reg;
    return l;
}

std::pair<std::string, std::string> cell_label_lines(const Instruction& ins, Operand op, const Location& loc, int bits,
                                                     LabelForm form) {
    const CellLabel l = cell_label(ins, op, loc, bits);
    switch (form) {
        case LabelForm::Full: return {l.reg + " \u00B7 " + l.lane, ""};
        case LabelForm::TwoLines: return {l.reg, l.lane};
        case LabelForm::Short: return {l.reg_short, l.lane};
        case LabelForm::OneLine: return {l.reg_bare + " " + l.lane, ""};
        case LabelForm::Lane: return {l.lane, ""};
        case LabelForm::WaveLane: return {"", l.lane};
        case LabelForm::Number: return {l.number, ""};
        case LabelForm::None: break;
    }
    return {"", ""};
}

std::string tile_label(const Location& loc, int bits, bool with_bits) {
    std::string reg = with_bits ? register_bits("v", loc, bits, true)
                                : bits == 64 && loc.bit_lo == 0 ? register_bits("v", loc, bits, true) : "v" + std::to_string(loc.reg);
    return reg + " \u00B7 L" + std::to_string(loc.lane);
}

std::string cell_label_text(const Instruction& ins, Operand op, const Location& loc, int bits, const std::string& separator) {
    const CellLabel l = cell_label(ins, op, loc, bits);
    return l.reg + separator + l.lane;
}

std::string reg_column_text(const Instruction& ins, Operand op, const Location& loc, int bits) {
    if (ins.vendor() != Vendor::NVIDIA) return "v" + std::to_string(loc.reg);
    return cell_label(ins, op, loc, bits).reg_bare;
}

std::string register_text(const Instruction& ins, Operand op, int reg, int bits) {
    if (ins.vendor() != Vendor::NVIDIA) return "v" + std::to_string(reg);
    if (bits >= 64) return cell_label(ins, op, Location{reg - reg % 2, 0, 0, 63}, 64).reg_bare;
    if (bits >= 32 || bits <= 0 || ins.kind == LayoutKind::LdStMatrix || op == Operand::K)
        return cell_label(ins, op, Location{reg, 0, 0, 31}, 32).reg_bare;
    std::string s;
    for (int lo = 0; lo + bits <= 32; lo += bits)
        s += (s.empty() ? "" : "/") + cell_label(ins, op, Location{reg, 0, lo, lo + bits - 1}, bits).reg_bare;
    return s;
}

}  // namespace lanescope
