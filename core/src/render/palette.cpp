// Palette and labels shared by the app and the figures.
#include "lanescope/palette.hpp"
#include "lanescope/smem.hpp"

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

namespace {
// tcgen05 operands (TMEM lanes, or the threads of the warps that tcgen05.ld/st) and
// wgmma group by 32: a warp, or the TMEM lane quarter warp w%4 may access.
bool warp_grouped(const Instruction& ins) {
    return ins.kind == LayoutKind::Wgmma || ins.kind == LayoutKind::Tcgen05Mma || ins.kind == LayoutKind::Tcgen05LdSt ||
           ins.kind == LayoutKind::Tcgen05Cp;
}
}  // namespace

int lane_group_size(const Instruction& ins) {
    if (ins.vendor() == Vendor::NVIDIA) return warp_grouped(ins) ? 32 : 4;  // warp or lane quarter / PTX's groupID
    return is_cdna(ins.families.front()) ? ins.m : 16;
}

int lane_group(const Instruction& ins, int lane) { return lane / lane_group_size(ins); }

int space_lane_group(const Instruction& ins, Space space, int lane) {
    if (space == Space::TensorMemory) return (lane % 128) / 32;
    return lane_group(ins, lane);
}

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
    if (ins.vendor() == Vendor::NVIDIA) return warp_grouped(ins) ? 8 : 4;
    return lane_group_size(ins);
}

int lane_shade(const Instruction& ins, int lane) {
    if (lane < 0) return 0;
    if (ins.vendor() == Vendor::NVIDIA) return warp_grouped(ins) ? (lane % 32) / 4 : lane % 4;
    return lane % lane_group_size(ins);
}

Rgb lane_color(const Instruction& ins, int lane, Theme t) {
    const Rgb base = categorical(lane_group(ins, lane), t);
    const int steps = lane_shade_steps(ins);
    if (steps <= 1) return base;
    const double f = 0.5 * lane_shade(ins, lane) / (steps - 1);
    return mix(base, t == Theme::Dark ? Rgb{0, 0, 0} : Rgb{255, 255, 255}, f);
}

Rgb location_color(const Instruction& ins, Space space, const Location& loc, Theme t) {
    if (space == Space::SharedMemory) {
        // A hue per 16-byte chunk of the 128-byte line (banks 4c..4c+3): a swizzle shows as the
        // chunks' hues permuted from row to row; lighter with the line's place in its 8-line period.
        const Rgb base = categorical((loc.reg % 32) / 4, t);
        return mix(base, t == Theme::Dark ? Rgb{0, 0, 0} : Rgb{255, 255, 255}, 0.45 * (loc.lane % 8) / 7.0);
    }
    return lane_color(ins, space, loc.lane, t);
}

Rgb lane_color(const Instruction& ins, Space space, int lane, Theme t) {
    if (space != Space::TensorMemory) return lane_color(ins, lane, t);
    // TMEM: a hue per lane quarter (the warp w%4 that may access it), lighter down its 32 lanes.
    const Rgb base = categorical(space_lane_group(ins, space, lane), t);
    return mix(base, t == Theme::Dark ? Rgb{0, 0, 0} : Rgb{255, 255, 255}, 0.5 * ((lane % 32) / 4) / 7.0);
}

Rgb tile_shade(const Instruction& ins, ColorBy by, const Element& e, const Location& loc, Theme t, Space space) {
    if (by == ColorBy::Lane && space != Space::Registers) return location_color(ins, space, loc, t);
    return by == ColorBy::Lane ? lane_color(ins, loc.lane, t) : tile_color(ins, by, e, loc, t);
}

std::string lane_group_text(const Instruction& ins, int group) {
    const int size = lane_group_size(ins);
    const std::string range = std::to_string(group * size) + "\u2013" + std::to_string(group * size + size - 1);
    if (ins.vendor() != Vendor::NVIDIA) return "lanes " + range;
    if (warp_grouped(ins)) return "warp " + std::to_string(group) + " (T" + range + ")";
    return "groupID " + std::to_string(group) + " (T" + range + ")";
}

std::string lane_group_text(const Instruction& ins, Space space, int group) {
    if (space == Space::Registers) return lane_group_text(ins, group);
    const std::string range = std::to_string(group * 32) + "\u2013" + std::to_string(group * 32 + 31);
    if (space == Space::TensorMemory)  // PTX ISA §9.7.16.2.1: warp w of a warpgroup reaches lanes 32*(w%4)..+31
        return "TMEM lanes " + range + " (warp w%4 = " + std::to_string(group) + ")";
    // Shared memory (location_color): 16-byte chunk g of a 128-byte line, banks 4g..4g+3.
    return "bytes " + std::to_string(16 * group) + "\u2013" + std::to_string(16 * group + 15) + " of a line (banks " +
           std::to_string(4 * group) + "\u2013" + std::to_string(4 * group + 3) + ")";
}

std::string lane_shade_text(const Instruction& ins) {
    if (ins.vendor() != Vendor::NVIDIA) return "lane";
    return warp_grouped(ins) ? "groupID" : "threadID_in_group";
}

SpaceColourWords space_colour_words(const Instruction& ins, Space space, int lanes) {
    if (space == Space::TensorMemory)
        return {4, "TMEM lane quarter (the lanes warp w%4 of a warpgroup may access)", ", shaded by lane within the quarter",
                "TMEM: colour = lane quarter (warp w%4 allowed), shade = lane:"};
    if (space == Space::SharedMemory)
        return {8, "16-byte chunk of the 128-byte line (its 4 banks)",
                ", shaded by the line's place in its period of 8 lines (the rows of a core matrix)",
                "shared memory: colour = 16-byte chunk (a swizzle permutes them), shade = line:"};
    SpaceColourWords w;
    w.classes = lane_groups(ins, lanes);
    if (ins.vendor() != Vendor::NVIDIA) {
        w.hue = "lane group";
        w.shade = ", shade by lane within the group (lightest = last lane)";
        w.heading = "colour = lane group, shade = lane (lighter = higher):";
        return w;
    }
    // A warp per group where core groups by warp (wgmma, tcgen05 read-backs), else PTX's groupID.
    const bool by_warp = lane_group_size(ins) == 32;
    w.hue = by_warp ? (ins.kind == LayoutKind::Wgmma ? "warp of the warpgroup" : "warp") : "groupID";
    w.shade = ", shade by " + lane_shade_text(ins) + (by_warp ? " within the warp (lightest = " : " (lightest = ") +
              std::to_string(lane_shade_steps(ins) - 1) + ")";
    w.heading = lane_shade_text(ins) == "groupID" ? "colour = warp, shade = groupID 0\u21927:"
                                                  : "colour = groupID, shade = threadID_in_group 0\u21923:";
    return w;
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

std::string hex_address(int address) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04X", static_cast<unsigned>(address));
    return buf;
}

// TMEM: "L5" of one CTA; "CTA1 L5" under cta_group::2 (lanes 128..255 are CTA 1's).
std::string tmem_lane_text(const Instruction& ins, int lane) {
    const std::string l = "L" + std::to_string(lane % 128);
    return ins.cta_group == 2 || lane >= 128 ? "CTA" + std::to_string(lane / 128) + " " + l : l;
}
// A shared-memory element's bits within its byte where it is not whole bytes from bit 0: "[3:0]" for the
// low e2m1 of a byte, "[7:6]+0x0101[3:0]" for a 6-bit value that runs on into the next byte.
std::string smem_bits_text(const Location& loc) {
    const int width = loc.bit_hi - loc.bit_lo + 1, lo = loc.bit_lo % 8;
    if (lo == 0 && width % 8 == 0) return "";
    if (lo + width <= 8) return bits_text(lo + width - 1, lo);
    const Location next{loc.reg, loc.lane, loc.bit_lo + (8 - lo), loc.bit_hi};
    return bits_text(7, lo) + "+" + hex_address(128 * next.lane + 4 * next.reg + next.bit_lo / 8) + bits_text(lo + width - 9, 0);
}
}  // namespace

int smem_address(const Location& loc) { return 128 * loc.lane + 4 * loc.reg + loc.bit_lo / 8; }

CellLabel cell_label(const Instruction& ins, Operand op, const Location& loc, int bits, Space space) {
    CellLabel l;
    if (space == Space::TensorMemory) {
        // TMEM cell: lane (of its CTA) and 32-bit column, the bits where the element is part of one.
        l.number = std::to_string(loc.lane % 128);
        l.lane = tmem_lane_text(ins, loc.lane);
        l.reg_bare = "c" + std::to_string(loc.reg);
        l.reg = bits >= 32 && loc.bit_lo == 0 ? l.reg_bare : l.reg_bare + bits_text(loc.bit_hi, loc.bit_lo);
        l.reg_short = l.reg_bare + part_suffix(loc);
        return l;
    }
    if (space == Space::SharedMemory) {
        // Shared memory: the element's byte address and its bank (the 32-bit word of its line).
        const int bank = loc.reg % 32;
        l.number = std::to_string(bank);
        l.lane = "b" + l.number;
        l.reg_bare = l.reg_short = hex_address(smem_address(loc));
        l.reg = l.reg_bare + smem_bits_text(loc);
        return l;
    }
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
                                                     LabelForm form, Space space) {
    const CellLabel l = cell_label(ins, op, loc, bits, space);
    // TMEM names a cell lane first ("L5 c7"), as PTX writes (lane, column); over two lines too.
    if (space == Space::TensorMemory && (form == LabelForm::Full || form == LabelForm::OneLine))
        return {l.lane + " " + (form == LabelForm::Full ? l.reg : l.reg_bare), ""};
    if (space == Space::TensorMemory && (form == LabelForm::TwoLines || form == LabelForm::Short))
        return {l.lane, form == LabelForm::Short ? l.reg_short : l.reg};
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

std::vector<std::string> smem_chunk_labels(Operand op, const std::vector<std::pair<int, int>>& elements) {
    if (elements.empty()) return {"", "", ""};
    // The operand's index letters: A is M x K, B is K x N (PTX's names of their extents).
    const char row_letter = op == Operand::A ? 'm' : op == Operand::B ? 'k' : 'r';
    const char col_letter = op == Operand::A ? 'k' : op == Operand::B ? 'n' : 'c';
    int r0 = elements.front().first, r1 = r0, c0 = elements.front().second, c1 = c0;
    for (const auto& [r, c] : elements) r0 = std::min(r0, r), r1 = std::max(r1, r), c0 = std::min(c0, c), c1 = std::max(c1, c);
    auto span = [](char letter, int lo, int hi) {
        return letter + std::to_string(lo) + (hi > lo ? ".." + std::to_string(hi) : "");
    };
    const std::string name(operand_name(op));
    // A run: one row or one column, every index between the ends present once.
    const bool run = (r0 == r1 || c0 == c1) &&
                     static_cast<long long>(r1 - r0 + 1) * (c1 - c0 + 1) == static_cast<long long>(elements.size());
    if (run) {
        const std::string rs = span(row_letter, r0, r1), cs = span(col_letter, c0, c1);
        return {name + "[" + rs + "][" + cs + "]", rs + " " + cs, span(row_letter, r0, r0) + span(col_letter, c0, c0)};
    }
    const std::string more = " +" + std::to_string(elements.size() - 1);
    const std::string rs = span(row_letter, elements.front().first, elements.front().first),
                      cs = span(col_letter, elements.front().second, elements.front().second);
    return {name + "[" + rs + "][" + cs + "]" + more, rs + " " + cs + more, rs + cs};
}

std::string tile_label(const Location& loc, int bits, bool with_bits) {
    std::string reg = with_bits ? register_bits("v", loc, bits, true)
                                : bits == 64 && loc.bit_lo == 0 ? register_bits("v", loc, bits, true) : "v" + std::to_string(loc.reg);
    return reg + " \u00B7 L" + std::to_string(loc.lane);
}

std::string cell_label_text(const Instruction& ins, Operand op, const Location& loc, int bits, const std::string& separator,
                            Space space) {
    const CellLabel l = cell_label(ins, op, loc, bits, space);
    // TMEM "L5 c7" / "CTA1 L5 c7"; shared memory "0x0480 b0": one word each side of a space,
    // whatever the separator (the CLI's ":" is for register:thread).
    if (space == Space::TensorMemory) return l.lane + " " + l.reg;
    if (space == Space::SharedMemory) return l.reg + " " + l.lane;
    return l.reg + separator + l.lane;
}

std::string reg_column_text(const Instruction& ins, Operand op, const Location& loc, int bits, Space space) {
    if (space == Space::TensorMemory) return std::to_string(loc.reg);
    if (space == Space::SharedMemory) return hex_address(smem_address(loc));
    if (ins.vendor() != Vendor::NVIDIA) return "v" + std::to_string(loc.reg);
    return cell_label(ins, op, loc, bits).reg_bare;
}

std::string lane_column_text(const Location& loc, Space space) {
    return std::to_string(space == Space::SharedMemory ? loc.reg % 32 : loc.lane);
}

std::pair<std::string, std::string> location_column_titles(Space space) {
    switch (space) {
        case Space::TensorMemory: return {"column", "tmem_lane"};
        case Space::SharedMemory: return {"address", "bank"};
        case Space::Registers: break;
    }
    return {"reg", "lane"};
}

std::string lane_axis_text(const Instruction& ins, int lane, Space space) {
    if (space == Space::TensorMemory) {
        const std::string l = "lane " + std::to_string(lane % 128);
        return ins.cta_group == 2 || lane >= 128 ? "CTA" + std::to_string(lane / 128) + " " + l : l;
    }
    if (space == Space::SharedMemory) return hex_address(128 * lane);
    return (ins.vendor() == Vendor::NVIDIA ? "T" : "L") + std::to_string(lane);
}

std::string register_text(const Instruction& ins, Operand op, int reg, int bits, Space space) {
    if (space == Space::TensorMemory) return "col " + std::to_string(reg);
    if (space == Space::SharedMemory) return "b" + std::to_string(reg % 32);
    if (ins.vendor() != Vendor::NVIDIA) return "v" + std::to_string(reg);
    if (bits >= 64) return cell_label(ins, op, Location{reg - reg % 2, 0, 0, 63}, 64).reg_bare;
    if (bits >= 32 || bits <= 0 || ins.kind == LayoutKind::LdStMatrix || op == Operand::K)
        return cell_label(ins, op, Location{reg, 0, 0, 31}, 32).reg_bare;
    std::string s;
    for (int lo = 0; lo + bits <= 32; lo += bits)
        s += (s.empty() ? "" : "/") + cell_label(ins, op, Location{reg, 0, lo, lo + bits - 1}, bits).reg_bare;
    return s;
}

std::string smem_chunk_place(const SmemOperand& so, const SmemChunk& ch) {
    if (so.desc.swizzle != SmemSwizzle::None) return "c" + std::to_string(ch.before) + "\u2192c" + std::to_string(ch.after());
    return "b" + std::to_string(ch.first_bank()) + "\u2013" + std::to_string(ch.first_bank() + 3);
}

std::string smem_chunk_description(const SmemOperand& so, const SmemChunk& ch) {
    const int a = static_cast<int>(ch.address);
    std::string s = hex_address(a) + "\u2013" + hex_address(a + 15) + ": banks " + std::to_string(ch.first_bank()) + "\u2013" +
                    std::to_string(ch.first_bank() + 3) + ", core matrix " + std::to_string(ch.core) + ", " +
                    smem_chunk_labels(so.operand, ch.elements)[0];
    if (so.desc.swizzle != SmemSwizzle::None)
        s += ", chunk " + std::to_string(ch.before) + " before the swizzle, " + std::to_string(ch.after()) + " after";
    return s;
}

}  // namespace lanescope
