// SFA / SFB of a block-scaled tcgen05.mma in shared memory (scale_factor_figure.hpp):
// the bytes of one CTA's SF tile, 16 to a row (one tcgen05.cp source row), each
// labelled with its (row or column, K-block) from core's ScaleFactorTile.
#include "figure_util.hpp"
#include "lanescope/scale_factor_figure.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lanescope::figures {

namespace {



}  // namespace

Figure build_scale_factor_figure(const ScaleFactorFigureSpec& spec) {
    const Query& q = spec.query;
    if (!q.ins || !q.target) throw Error("build_scale_factor_figure: no instruction or target given");
    const ScaleFactorTile& t = spec.tile;
    const bool a = t.operand == Operand::SA;
    const std::string op_name(operand_name(t.operand)), X = a ? "SFA" : "SFB", x = a ? "m" : "n";
    const std::vector<std::pair<int, int>> map = t.byte_map();
    const int rows = t.bytes / 16;

    const ThemeColors tc = theme_colors(spec.theme);
    Figure f;
    f.background = tc.background;
    f.tile_stroke = tc.grid;
    f.hover_titles = spec.hover_titles;
    const bool fit = spec.fit_width > 0;
    const double m = fit ? (spec.min_font > 0 ? spec.min_font : 10) : 9;
    const double margin = fit ? 0.8 * m : 16, title_font = fit ? 1.5 * m : 16, small = fit ? m : 10;
    const double axis_w = text_width("0x0000", small) + 0.8 * small;
    const std::string widest = x + num(t.mn_padded - 1);
    double font = f.tile_font;
    double cw = std::max(30.0, std::ceil(text_width(widest, font) + 0.8 * font));
    const double lanes_w = text_width("\u2192 lanes 127 159 191 223, cols 28\u201331", small) + small;
    bool labels = true;
    if (fit) {
        cw = std::max(1.0, (spec.fit_width - 2 * margin - axis_w - lanes_w) / 16);
        font = std::min(1.2 * m, m * cw / (text_width(widest, m) + 0.8 * m));
        labels = font >= m;
        font = std::max(font, m);
    }
    f.tile_font = font, f.tile_line = font * 10.5 / 9;
    const double rh = labels ? 2 * f.tile_line + 0.6 * font : std::max(4.0, cw * 0.6);

    f.title = q.ins->mnemonic + " operand " + X + " in shared memory, on its way to Tensor Memory";
    f.subtitle = q.target->gfx + ", " + num(t.mn) + (a ? " rows" : " columns") + " x " + num(t.kblocks) +
                 " K-blocks of " + num(t.vec) + " (" + num(t.nsf) + " per MMA), " + num(t.bytes) + " bytes per CTA" +
                 (t.cta_group == 2 && a ? " (CTA 0; CTA 1 holds rows " + num(t.mn) + "\u2013" + num(2 * t.mn - 1) +
                                              " at the same bytes)"
                                        : "");
    const double text_w = fit ? spec.fit_width - 2 * margin : std::max(16 * cw + axis_w + lanes_w, 560.0);
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
    const double x0 = margin + axis_w;
    f.texts.push_back({x0 - 0.4 * small, y + small, "byte", small, Anchor::End, false, tc.muted});
    for (int c = 0; c < 16; ++c)
        f.texts.push_back({x0 + (c + 0.5) * cw, y + small, "+" + num(c), small, Anchor::Middle, false, tc.muted});
    y += 1.5 * small;

    // One row per 16-byte source row of the copy; a cell per byte.
    for (int r = 0; r < rows; ++r) {
        f.texts.push_back({x0 - 0.4 * small, y + 0.5 * rh + 0.35 * small, hex(16 * r, 4, HexCase::Upper), small, Anchor::End, false, tc.text});
        for (int c = 0; c < 16; ++c) {
            const int byte = 16 * r + c;
            const auto [mn, kb] = map[static_cast<size_t>(byte)];
            const double cx = x0 + c * cw;
            if (mn < 0) {
                f.boxes.push_back(empty_cell(cx, y, cw, rh, tc));
                continue;
            }
            const ScaleFactorPlace p = t.place(mn, kb);
            Tile tile;
            tile.x = cx, tile.y = y, tile.w = cw, tile.h = rh;
            tile.fill = categorical(p.tmem_column, spec.theme);
            tile.ink = text_on(tile.fill);
            tile.ref = op_name + "." + hex(static_cast<std::uint64_t>(byte), 4, HexCase::Upper);
            tile.id = labels ? tile.ref : "";
            if (labels) tile.lines = {x + num(mn), "kb" + num(kb)};
            tile.hover = scale_factor_answer(t, p);
            f.tiles.push_back(std::move(tile));
        }
        // tcgen05.cp.32x128b.warpx4: source row l to lanes l + 32p (SFB of cta_group::2: in both CTAs).
        std::string lanes;
        for (int cta = 0; cta < (!a && t.cta_group == 2 ? 2 : 1); ++cta)
            for (int p = 0; p < 4; ++p) lanes += (lanes.empty() ? "" : " ") + num(128 * cta + 32 * p + r % 32);
        const int col0 = 4 * ((16 * r) / 512);
        f.texts.push_back({x0 + 16 * cw + 0.6 * small, y + 0.5 * rh + 0.35 * small,
                           "\u2192 lanes " + lanes + ", cols " + num(col0) + "\u2013" + num(col0 + 3), small, Anchor::Start,
                           false, tc.text});
        y += rh;
    }
    double content_w = x0 + 16 * cw + lanes_w;

    // Legend: the TMEM column each byte reaches; then the formulas, notes and confidence.
    double ly = y + 1.6 * small, lx = margin;
    f.legend_title = "Colour by the TMEM column the byte is copied to:";
    f.texts.push_back({lx, ly + small - 0.2 * small, f.legend_title, small, Anchor::Start, true, tc.text});
    lx += text_width(f.legend_title, small) * 1.12 + 1.4 * small;
    const int columns = t.bytes / 512 * 4;
    for (int c = 0; c < std::min(columns, categorical_count()); ++c)
        f.legend.push_back({categorical(c, spec.theme), "column " + num(c)});
    for (const LegendEntry& e : f.legend) {
        const double w = small + 0.4 * small + text_width(e.label, small) + 1.4 * small;
        if (lx + w > content_w && lx > margin) lx = margin, ly += 1.6 * small;
        f.boxes.push_back({lx, ly, small, small, e.color, true, tc.grid, 0.5});
        f.texts.push_back({lx + 1.4 * small, ly + 0.8 * small, e.label, small, Anchor::Start, false, tc.text});
        lx += w;
    }
    ly += 1.8 * small;
    auto caption = [&](const std::string& s, const Rgb& color) {
        for (const std::string& l : wrap(s, small, content_w - margin, " ")) {
            f.texts.push_back({margin, ly + small, l, small, Anchor::Start, false, color});
            ly += 1.35 * small;
        }
    };
    if (t.mn_padded != t.mn) caption("Empty cells: the padding rows " + num(t.mn) + "\u2013" + num(t.mn_padded - 1) +
                                         " of CUTLASS's 128-row block.", tc.muted);
    caption("shared memory: " + t.smem_formula, tc.text);
    caption("copy: " + t.copy_formula, tc.text);
    caption("TMEM: " + t.tmem_formula, tc.text);
    caption("MMA: " + t.id_formula, tc.text);
    for (const std::string& n : t.notes) caption("note: " + n, tc.muted);
    caption("Confidence " + t.evidence.confidence + ": " + t.evidence.why + ".", tc.text);
    for (const Text& tx : f.texts) content_w = std::max(content_w, tx.anchor == Anchor::Start ? tx.x + text_width(tx.text, tx.size) : tx.x);
    f.width = std::ceil(fit ? std::max(spec.fit_width, content_w + margin) : content_w + margin);
    f.height = std::ceil(ly + margin);
    return f;
}

}  // namespace lanescope::figures
