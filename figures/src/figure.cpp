// The figure model: from an instruction's operand layouts to tiles, axes,
// block frames, title and legend. Every output format draws this model.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace lanescope::figures {

namespace {

// Geometry in user units. Chosen so labels of DejaVu Sans 9 fit their tiles.
constexpr double kMargin = 16;
constexpr double kPanelLeft = 34;   // room for row indices
constexpr double kPanelTop = 44;    // panel heading, block label, column indices
constexpr double kBlockGap = 30;    // room for the next block's label and indices
constexpr double kPanelGap = 24;
constexpr double kIndexFont = 8;
constexpr double kHeadingFont = 11;

struct Panel {
    Operand op;
    OperandLayout layout;
    int block_cols = 1, block_rows = 1;  // block grid
    std::vector<std::pair<int, int>> block_at;  // block -> (grid col, grid row)
    int rows = 0, cols = 0;  // cells per block
    double x = 0, y = 0;     // panel origin
    double width(double cw) const { return kPanelLeft + block_cols * cols * cw + (block_cols - 1) * kBlockGap; }
    double height(double ch) const { return kPanelTop + block_rows * rows * ch + (block_rows - 1) * kBlockGap; }
};

std::string axis_words(Operand op, bool sparse, View view) {
    if (view == View::Registers) return "rows: lanes, columns: VGPRs";
    switch (op) {
        case Operand::A: return sparse ? "rows: i, columns: k (a 4:2 group shares one slot)" : "rows: i, columns: k";
        case Operand::B: return "rows: k, columns: j";
        case Operand::C:
        case Operand::D: return "rows: i, columns: j";
        case Operand::K: return "rows: i, columns: k (one 4-bit field per group of four)";
        case Operand::SA: return "rows: i, columns: k/32";
        case Operand::SB: return "rows: k/32, columns: j";
    }
    return "";
}

std::string color_words(ColorBy by) {
    switch (by) {
        case ColorBy::Lane: return "lane group";
        case ColorBy::Register: return "register";
        case ColorBy::Block: return "block";
    }
    return "";
}

// Splits a palette label "v0[15:0] · L17" into its register and lane lines.
std::vector<std::string> split_label(const std::string& label) {
    static const std::string sep = " \u00B7 ";
    const size_t at = label.find(sep);
    if (at == std::string::npos) return {label};
    return {label.substr(0, at), label.substr(at + sep.size())};
}

std::string bits_words(int lo, int hi) { return "[" + std::to_string(hi) + ":" + std::to_string(lo) + "]"; }

}  // namespace

std::string legend_label(const Instruction& ins, ColorBy by, int index) {
    switch (by) {
        case ColorBy::Lane: {
            const int g = lane_group_size(ins);
            return "lanes " + std::to_string(index * g) + "-" + std::to_string(index * g + g - 1);
        }
        case ColorBy::Register: return "v" + std::to_string(index);
        case ColorBy::Block: return "block " + std::to_string(index);
    }
    return "";
}

Figure build_figure(const FigureSpec& spec) {
    if (!spec.ins || !spec.target) throw Error("build_figure: no instruction or target given");
    if (spec.operands.empty()) throw Error("build_figure: no operand given");
    const Instruction& ins = *spec.ins;
    const ThemeColors tc = theme_colors(spec.theme);
    Figure f;
    f.background = tc.background;
    f.tile_stroke = tc.grid;
    const double font = f.tile_font, line = f.tile_line;

    std::vector<Panel> panels;
    for (Operand op : spec.operands) {
        Panel p{op, layout_of(ins, *spec.target, op, spec.mods), 1, 1, {}, 0, 0, 0, 0};
        panels.push_back(std::move(p));
    }
    const bool gemm = spec.view == View::Matrix && panels.size() == 3 && panels[0].op == Operand::A &&
                      panels[1].op == Operand::B && panels[2].op == Operand::D;

    // Cell size shared by all panels, so the GEMM arrangement lines up.
    double cw = 44, ch = 0;
    if (spec.view == View::Matrix) {
        size_t max_locs = 1;
        for (const Panel& p : panels) {
            const std::vector<Entry> es = p.layout.entries();
            for (size_t i = 0; i < es.size();) {
                size_t j = i;
                while (j < es.size() && es[j].element == es[i].element) {
                    for (const std::string& s : split_label(tile_label(es[j].loc, p.layout.element_bits())))
                        cw = std::max(cw, std::ceil(text_width(s, font)) + 8);
                    ++j;
                }
                max_locs = std::max(max_locs, j - i);
                i = j;
            }
        }
        ch = static_cast<double>(max_locs) * (2 * line + 5);
    } else {
        int max_parts = 1;
        double part_w = 40;
        bool two_lines = false;
        for (const Panel& p : panels)
            for (int lane = 0; lane < p.layout.lanes(); ++lane)
                for (int reg = 0; reg < p.layout.regs(); ++reg) {
                    const std::vector<SlotPart> parts = p.layout.which(reg, lane);
                    max_parts = std::max(max_parts, static_cast<int>(parts.size()));
                    for (const SlotPart& s : parts) {
                        part_w = std::max(part_w, std::ceil(text_width(element_label(p.op, s.element, p.layout.blocks()), font)) + 8);
                        if (s.bit_lo != 0 || s.bit_hi != 31) two_lines = true;
                    }
                }
        cw = max_parts * part_w;
        ch = two_lines ? 2 * line + 5 : line + 9;
    }

    // Block grids and panel positions.
    for (Panel& p : panels) {
        const int nb = spec.view == View::Matrix ? p.layout.blocks() : 1;
        p.rows = spec.view == View::Matrix ? p.layout.rows() : p.layout.lanes();
        p.cols = spec.view == View::Matrix ? p.layout.cols() : p.layout.regs();
        if (gemm) {
            // A stacks its blocks down, B across, D on the diagonal: a batched GEMM.
            p.block_cols = p.op == Operand::A ? 1 : nb;
            p.block_rows = p.op == Operand::B ? 1 : nb;
            for (int b = 0; b < nb; ++b)
                p.block_at.push_back({p.op == Operand::A ? 0 : b, p.op == Operand::B ? 0 : b});
        } else {
            p.block_cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(nb))));
            p.block_rows = (nb + p.block_cols - 1) / p.block_cols;
            for (int b = 0; b < nb; ++b) p.block_at.push_back({b % p.block_cols, b / p.block_cols});
        }
    }
    const double header = kMargin + 40;
    double content_w = 0, content_h = 0;
    if (gemm) {
        Panel &a = panels[0], &b = panels[1], &d = panels[2];
        const double aw = a.width(cw), bh = b.height(ch);
        a.x = kMargin, a.y = header + bh + kPanelGap;
        b.x = kMargin + aw + kPanelGap, b.y = header;
        d.x = b.x, d.y = a.y;
        content_w = std::max(d.x + d.width(cw), b.x + b.width(cw));
        content_h = std::max(a.y + a.height(ch), d.y + d.height(ch));
    } else {
        double x = kMargin;
        for (Panel& p : panels) {
            p.x = x, p.y = header;
            x += p.width(cw) + kPanelGap;
            content_w = std::max(content_w, p.x + p.width(cw));
            content_h = std::max(content_h, p.y + p.height(ch));
        }
    }

    // Tiles, indices, block frames.
    for (const Panel& p : panels) {
        const OperandLayout& L = p.layout;
        const std::string opn(operand_name(p.op));
        std::string heading = std::string(operand_title(p.op)) + "  " + std::string(elem_name(L.type())) + ", " +
                              std::to_string(L.regs()) + " " + std::string(register_noun(ins.vendor())) +
                              (L.regs() == 1 ? "" : "s") + " per lane  (" +
                              axis_words(p.op, ins.sparse(), spec.view) + ")";
        f.texts.push_back({p.x, p.y + 12, heading, kHeadingFont, Anchor::Start, true, tc.text});
        const int nb = static_cast<int>(p.block_at.size());
        for (int b = 0; b < nb; ++b) {
            const double bx = p.x + kPanelLeft + p.block_at[b].first * (p.cols * cw + kBlockGap);
            const double by = p.y + kPanelTop + p.block_at[b].second * (p.rows * ch + kBlockGap);
            if (nb > 1) f.texts.push_back({bx, by - 14, "block " + std::to_string(b), kIndexFont, Anchor::Start, true, tc.muted});
            for (int c = 0; c < p.cols; ++c)
                f.texts.push_back({bx + (c + 0.5) * cw, by - 3,
                                   spec.view == View::Matrix ? std::to_string(c) : "v" + std::to_string(c), kIndexFont,
                                   Anchor::Middle, false, tc.muted});
            for (int r = 0; r < p.rows; ++r)
                f.texts.push_back({bx - 3, by + (r + 0.5) * ch + kIndexFont * 0.35, std::to_string(r), kIndexFont,
                                   Anchor::End, false, tc.muted});
            if (spec.view == View::Matrix) {
                for (int r = 0; r < p.rows; ++r)
                    for (int c = 0; c < p.cols; ++c) {
                        const Element e{b, r, c};
                        const std::vector<Location> locs = L.where(e);
                        const double x = bx + c * cw, y = by + r * ch;
                        if (locs.empty()) {
                            f.boxes.push_back({x, y, cw, ch, tc.background, true, tc.grid, 0.5});
                            continue;
                        }
                        const double h = ch / static_cast<double>(locs.size());
                        for (size_t n = 0; n < locs.size(); ++n) {
                            Tile t;
                            t.x = x, t.y = y + n * h, t.w = cw, t.h = h;
                            t.fill = tile_color(ins, spec.color, e, locs[n], spec.theme);
                            t.ink = text_on(t.fill);
                            t.id = opn + "." + std::to_string(b) + "." + std::to_string(r) + "." + std::to_string(c) + "." +
                                   std::to_string(n);
                            t.lines = split_label(tile_label(locs[n], L.element_bits()));
                            f.tiles.push_back(std::move(t));
                        }
                    }
            } else {
                for (int lane = 0; lane < p.rows; ++lane)
                    for (int reg = 0; reg < p.cols; ++reg) {
                        const std::vector<SlotPart> parts = L.which(reg, lane);
                        const double x = bx + reg * cw, y = by + lane * ch;
                        if (parts.empty()) {
                            f.boxes.push_back({x, y, cw, ch, tc.background, true, tc.grid, 0.5});
                            continue;
                        }
                        const double w = cw / static_cast<double>(parts.size());
                        for (size_t n = 0; n < parts.size(); ++n) {
                            const SlotPart& s = parts[n];
                            Tile t;
                            t.x = x + n * w, t.y = y, t.w = w, t.h = ch;
                            t.fill = tile_color(ins, spec.color, s.element, Location{reg, lane, s.bit_lo, s.bit_hi}, spec.theme);
                            t.ink = text_on(t.fill);
                            t.id = opn + ".v" + std::to_string(reg) + ".l" + std::to_string(lane) + "." + std::to_string(n);
                            t.lines.push_back(element_label(p.op, s.element, L.blocks()));
                            if (s.bit_lo != 0 || s.bit_hi != 31) t.lines.push_back(bits_words(s.bit_lo, s.bit_hi));
                            f.tiles.push_back(std::move(t));
                        }
                    }
            }
            // Block frame: the separators between blocks.
            const double x2 = bx + p.cols * cw, y2 = by + p.rows * ch;
            f.lines.push_back({bx, by, x2, by, tc.text, 1.5});
            f.lines.push_back({x2, by, x2, y2, tc.text, 1.5});
            f.lines.push_back({x2, y2, bx, y2, tc.text, 1.5});
            f.lines.push_back({bx, y2, bx, by, tc.text, 1.5});
        }
    }

    // Heading.
    const int wave = spec.mods.wave;
    f.title = ins.mnemonic;
    std::string ops;
    for (const Panel& p : panels) ops += (ops.empty() ? "" : ", ") + std::string(operand_name(p.op));
    const std::string mods = spec.mods.describe();
    f.subtitle = spec.target->gfx + " (" + std::string(family_title(spec.target->family)) + "), " +
                 lane_group_name(ins, wave) + "  \u00B7  " + ins.shape() + (ins.blocks > 1 ? " x" + std::to_string(ins.blocks) + " blocks" : "") +
                 "  \u00B7  operand" + (panels.size() > 1 ? "s " : " ") + ops + "  \u00B7  " +
                 (mods.empty() ? "default modifiers" : mods) + "  \u00B7  " +
                 (spec.view == View::Matrix ? "matrix view" : "registers view") + ", colour by " + color_words(spec.color);
    f.texts.push_back({kMargin, kMargin + 14, f.title, 16, Anchor::Start, true, tc.text});
    f.texts.push_back({kMargin, kMargin + 32, f.subtitle, 11, Anchor::Start, false, tc.muted});
    content_w = std::max({content_w, kMargin + text_width(f.title, 16) * 1.12, kMargin + text_width(f.subtitle, 11)});

    // Legend: one swatch per colour class shown.
    int classes = 0;
    switch (spec.color) {
        case ColorBy::Lane: classes = lane_groups(ins, wave); break;
        case ColorBy::Register:
            for (const Panel& p : panels) classes = std::max(classes, p.layout.regs());
            break;
        case ColorBy::Block: classes = ins.blocks; break;
    }
    const int distinct = std::min(classes, categorical_count());
    for (int i = 0; i < distinct; ++i) {
        std::string label;
        for (int j = i; j < classes; j += categorical_count())
            label += (label.empty() ? "" : ", ") + legend_label(ins, spec.color, j);
        f.legend.push_back({categorical(i, spec.theme), label});
    }
    f.legend_title = "Colour by " + color_words(spec.color) + ":";
    const double legend_w = std::max(content_w, 420.0) - kMargin;
    double lx = kMargin, ly = content_h + 22;
    f.texts.push_back({lx, ly + 10, f.legend_title, 10, Anchor::Start, true, tc.text});
    lx += text_width(f.legend_title, 10) * 1.12 + 14;  // bold runs wider than the regular estimate
    for (const LegendEntry& e : f.legend) {
        const double w = 16 + text_width(e.label, 10) + 14;
        if (lx + w > legend_w && lx > kMargin + 120) lx = kMargin + 120, ly += 18;
        f.boxes.push_back({lx, ly, 12, 12, e.color, true, tc.grid, 0.5});
        f.texts.push_back({lx + 16, ly + 10, e.label, 10, Anchor::Start, false, tc.text});
        lx += w;
    }
    f.width = std::ceil(std::max(content_w, 420.0) + kMargin);
    f.height = std::ceil(ly + 12 + kMargin);
    return f;
}

FigureFormat parse_figure_format(const std::string& s) {
    if (s == "svg") return FigureFormat::Svg;
    if (s == "tikz" || s == "tex" || s == "latex") return FigureFormat::Tikz;
    if (s == "png") return FigureFormat::Png;
    throw Error("unknown figure format '" + s + "'; legal: svg, tikz, png");
}

ColorBy parse_color_by(const std::string& s) {
    if (s == "lane") return ColorBy::Lane;
    if (s == "register" || s == "reg") return ColorBy::Register;
    if (s == "block") return ColorBy::Block;
    throw Error("unknown colouring '" + s + "'; legal: lane, register, block");
}

Theme parse_theme(const std::string& s) {
    if (s == "light") return Theme::Light;
    if (s == "dark") return Theme::Dark;
    throw Error("unknown theme '" + s + "'; legal: light, dark");
}

}  // namespace lanescope::figures
