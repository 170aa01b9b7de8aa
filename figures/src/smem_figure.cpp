// NVIDIA shared memory as a figure: a wgmma / tcgen05 operand's tile
// as its matrix descriptor lays it out, 128-byte rows of 16-byte chunks, each
// chunk coloured by its core matrix and labelled with the elements it holds, the
// swizzle's chunk permutation written in each chunk, and the descriptor beside
// it. Every address is core's (SmemOperand::address); nothing is recomputed here.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace lanescope::figures {

namespace {



}  // namespace

Figure build_smem_figure(const SmemFigureSpec& spec) {
    const Query& q = spec.query;
    if (!q.ins || !q.target) throw Error("build_smem_figure: no instruction or target given");
    const SmemOperand& so = spec.operand;
    const Instruction& ins = *q.ins;

    // Every element's chunk, from core's byte map.
    std::map<std::uint32_t, const SmemChunk*> chunks;  // absolute chunk number (address / 16)
    const std::vector<SmemChunk> all = smem_chunks(so);
    for (const SmemChunk& ch : all) chunks[ch.address / 16] = &ch;
    std::vector<std::uint32_t> rows;  // the 128-byte rows holding elements, ascending
    for (const auto& [n, ch] : chunks)
        if (rows.empty() || rows.back() != n / 8) rows.push_back(n / 8);
    int cores = 0;
    for (const SmemChunk& ch : all) cores = std::max(cores, ch.core + 1);

    const ThemeColors tc = theme_colors(spec.theme);
    Figure f;
    f.background = tc.background;
    f.tile_stroke = tc.grid;
    f.hover_titles = spec.hover_titles;
    const bool fit = spec.fit_width > 0;
    const double m = fit ? (spec.min_font > 0 ? spec.min_font : 10) : 9;
    const double margin = fit ? 0.8 * m : 16, title_font = fit ? 1.5 * m : 16, small = fit ? m : 10;
    const bool swizzled = so.desc.swizzle != SmemSwizzle::None;
    const std::string op_name(operand_name(so.operand));

    // Labels: the richest form whose widest label fits the chunk at the tile font.
    const int digits = rows.empty() ? 4 : std::max(4, static_cast<int>(hex(rows.back() * 128, 1, HexCase::Upper).size()) - 2);
    const double axis_w = text_width(hex(0, digits, HexCase::Upper), small) + 0.8 * small;
    double font = f.tile_font;
    int form = 0;  // smem_chunk_labels' index; 3 = no label
    auto need = [&](int fm, double size) {
        double w = 0;
        for (const auto& [n, ch] : chunks) {
            w = std::max(w, text_width(smem_chunk_labels(so.operand, ch->elements)[static_cast<size_t>(fm)], size));
            w = std::max(w, text_width(smem_chunk_place(so, *ch), size));
        }
        return w + 0.8 * size;
    };
    double cw = std::max(48.0, std::ceil(need(0, font)));
    if (fit) {
        cw = std::max(1.0, (spec.fit_width - 2 * margin - axis_w) / 8);
        form = 3;
        for (int fm = 0; fm < 3; ++fm) {
            const double size = std::min(1.2 * m, m * cw / need(fm, m));
            if (size >= m) {
                form = fm, font = size;
                break;
            }
        }
        if (form == 3) font = m;
    }
    f.tile_font = font, f.tile_line = font * 10.5 / 9;
    const double rh = form == 3 ? std::max(4.0, cw * 0.4) : 2 * f.tile_line + 0.6 * font;
    const double gap_h = std::max(0.8 * small, rh * 0.6);

    // Heading.
    f.title = ins.mnemonic + " operand " + op_name + " in shared memory";
    f.subtitle = q.target->gfx + ", " + std::to_string(so.rows) + " x " + std::to_string(so.cols) + " " +
                 std::string(elem_name(so.type)) + ", " + std::string(smem_major_name(so.major)) + "-major, swizzle " +
                 std::string(smem_swizzle_name(so.desc.swizzle)) + ", read through a " +
                 std::string(descriptor_format_name(so.desc.format)) + " matrix descriptor";
    const double text_w = fit ? spec.fit_width - 2 * margin : std::max(8 * cw + axis_w, 560.0);
    double y = margin + title_font;
    for (const std::string& l : wrap(f.title, title_font, text_w, " ")) {
        f.texts.push_back({margin, y, l, title_font, Anchor::Start, true, tc.text});
        y += 1.25 * title_font;
    }
    for (const std::string& l : wrap(f.subtitle, small, text_w, ", ")) {
        f.texts.push_back({margin, y - 0.2 * small, l, small, Anchor::Start, false, tc.muted});
        y += 1.3 * small;
    }
    y += 0.6 * small;

    // Column headers: the chunk's offset in its row and its banks.
    const double x0 = margin + axis_w;
    f.texts.push_back({x0 - 0.4 * small, y + small, "address", small, Anchor::End, false, tc.muted});
    for (int c = 0; c < 8; ++c) {
        const std::string head = "c" + std::to_string(c) + " +" + std::to_string(16 * c);
        f.texts.push_back({x0 + (c + 0.5) * cw, y + small, text_width(head, small) <= cw ? head : "c" + std::to_string(c), small,
                           Anchor::Middle, false, tc.muted});
    }
    y += 1.5 * small;
    const double tile_top = y;

    // The rows: 8 chunks each; rows the tile skips are one marked gap.
    for (size_t i = 0; i < rows.size(); ++i) {
        if (i > 0 && rows[i] != rows[i - 1] + 1) {
            const std::uint32_t skipped = rows[i] - rows[i - 1] - 1;
            f.texts.push_back({x0 + 4 * cw, y + 0.5 * gap_h + 0.35 * small,
                               "\u22EE " + std::to_string(skipped) + " row" + (skipped == 1 ? "" : "s") + " of 128 bytes not read (" +
                                   hex((rows[i - 1] + 1) * 128, digits, HexCase::Upper) + "\u2013" + hex(rows[i] * 128 - 1, digits, HexCase::Upper) + ")",
                               small, Anchor::Middle, false, tc.muted});
            y += gap_h;
        }
        const std::uint32_t row = rows[i];
        f.texts.push_back({x0 - 0.4 * small, y + 0.5 * rh + 0.35 * small, hex(row * 128, digits, HexCase::Upper), small, Anchor::End, false,
                           tc.text});
        for (int c = 0; c < 8; ++c) {
            const std::uint32_t n = row * 8 + static_cast<std::uint32_t>(c);
            const double x = x0 + c * cw;
            const auto it = chunks.find(n);
            if (it == chunks.end()) {
                f.boxes.push_back(empty_cell(x, y, cw, rh, tc));
                continue;
            }
            const SmemChunk& ch = *it->second;
            Tile t;
            t.x = x, t.y = y, t.w = cw, t.h = rh;
            t.fill = categorical(ch.core, spec.theme);
            t.ink = text_on(t.fill);
            t.ref = op_name + "." + hex(n * 16, 4, HexCase::Upper);
            t.id = form == 3 ? "" : t.ref;
            const std::vector<std::string> labels = smem_chunk_labels(so.operand, ch.elements);
            if (form < 3) t.lines = {labels[static_cast<size_t>(form)], smem_chunk_place(so, ch)};
            t.hover = smem_chunk_description(so, ch);
            f.tiles.push_back(std::move(t));
        }
        y += rh;
    }
    const double tile_right = x0 + 8 * cw;
    double bottom = y;

    // The descriptor: beside the tile, or below it when fitted to a width.
    const double px = fit ? margin : tile_right + 2 * small;
    const double pw = fit ? spec.fit_width - 2 * margin : 44 * small;
    double py = fit ? bottom + 1.6 * small : tile_top;
    auto line = [&](const std::string& s, bool bold, const Rgb& color) {
        for (const std::string& l : wrap(s, small, pw, " ")) {
            f.texts.push_back({px, py + small, l, small, Anchor::Start, bold, color});
            py += 1.35 * small;
        }
    };
    line(std::string(descriptor_format_name(so.desc.format)) + " matrix descriptor " + hex(so.value, 16, HexCase::Upper), true, tc.text);
    for (const DescriptorField& d : descriptor_fields(so.value, so.desc.format)) {
        std::string s = "bits " + std::to_string(d.lo) + "\u2013" + std::to_string(d.hi) + "  " + d.name;
        if (!d.ignored) s += " = " + std::to_string(d.bits) + (d.bytes >= 0 ? " (" + std::to_string(d.bytes) + " B)" : "");
        line(s, false, d.ignored ? tc.muted : tc.text);
    }
    py += 0.5 * small;
    line("start " + hex(so.desc.start, 4, HexCase::Upper) + ", LBO " + std::to_string(so.desc.lbo) + " B" + (so.lbo_used ? "" : " (not used)") +
             ", SBO " + std::to_string(so.desc.sbo) + " B" + (so.sbo_used ? "" : " (not used)") + ", base offset " +
             std::to_string(so.desc.base_offset) + (so.base_offset_used ? "" : " (not used)") + ", " +
             std::string(smem_major_name(so.major)) + "-major, swizzle " + std::string(smem_swizzle_name(so.desc.swizzle)),
         false, tc.text);
    py += 0.5 * small;
    line(so.formula, false, tc.text);
    for (const std::string& n : so.notes) line("note: " + n, false, tc.muted);
    bottom = std::max(bottom, py);
    double content_w = fit ? spec.fit_width - margin : px + pw;

    // Legend: core matrices, unread chunks, what a chunk's lines say.
    double ly = bottom + 1.6 * small, lx = margin;
    const double swatch = small, legend_w = content_w;
    f.legend_title = "Colour by core matrix (8 rows x 16 bytes, numbered along MN first):";
    f.texts.push_back({lx, ly + swatch - 0.2 * small, f.legend_title, small, Anchor::Start, true, tc.text});
    lx += text_width(f.legend_title, small) * 1.12 + 1.4 * small;
    auto place = [&](double w) {
        if (lx + w > legend_w && lx > margin) lx = margin, ly += 1.6 * small;
    };
    for (int i = 0; i < std::min(cores, categorical_count()); ++i) {
        std::string label;
        for (int j = i; j < cores; j += categorical_count()) label += (label.empty() ? "" : ", ") + std::to_string(j);
        f.legend.push_back({categorical(i, spec.theme), label});
    }
    for (const LegendEntry& e : f.legend) {
        const double w = swatch + 0.4 * small + text_width(e.label, small) + 1.4 * small;
        place(w);
        f.boxes.push_back({lx, ly, swatch, swatch, e.color, true, tc.grid, 0.5});
        f.texts.push_back({lx + swatch + 0.4 * small, ly + swatch - 0.2 * small, e.label, small, Anchor::Start, false, tc.text});
        lx += w;
    }
    const std::string unread = "16 bytes this instruction does not read";
    place(swatch + 0.4 * small + text_width(unread, small) + 1.4 * small);
    f.boxes.push_back(empty_cell(lx, ly, swatch, swatch, tc));
    f.texts.push_back({lx + swatch + 0.4 * small, ly + swatch - 0.2 * small, unread, small, Anchor::Start, false, tc.text});
    ly += 1.8 * small;
    auto caption = [&](const std::string& s, const Rgb& color) {
        for (const std::string& l : wrap(s, small, legend_w - margin, " ")) {
            f.texts.push_back({margin, ly + small, l, small, Anchor::Start, false, color});
            ly += 1.35 * small;
        }
    };
    if (form < 3)
        caption(std::string("Each chunk: the elements it holds, over ") +
                    (swizzled ? "its 16-byte chunk index in the 128-byte row before \u2192 after the swizzle (the XOR of the "
                                "formula above)."
                              : "the 4 banks it lies in (bank = address / 4 mod 32)."),
                tc.muted);
    caption(std::string(smem_model_confirmation(so.desc.format)), tc.text);
    for (const Text& t : f.texts) content_w = std::max(content_w, t.anchor == Anchor::Start ? t.x + text_width(t.text, t.size) : t.x);
    f.width = std::ceil(fit ? std::max(spec.fit_width, content_w + margin) : content_w + margin);
    f.height = std::ceil(ly + margin);
    return f;
}

}  // namespace lanescope::figures
