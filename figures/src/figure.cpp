// The figure model: from an instruction's operand layouts to tiles, axes,
// block frames, title and legend. Every output format draws this model.
#include "figure_marks.hpp"
#include "figure_util.hpp"
#include "lanescope/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <functional>
#include <set>

namespace lanescope::figures {

namespace {

// Geometry in user units. The natural sizes are chosen so labels of DejaVu
// Sans 9 fit their tiles; a figure fitted to a width (FigureSpec::fit_width)
// derives every size from the smallest legible font instead.
struct Geometry {
    double margin = 16;
    double panel_left = 34;  // room for row indices
    double panel_top = 44;   // panel heading, block label, column indices
    double block_gap = 30;   // room for the next block's label and indices
    double panel_gap = 24;
    double index_font = 8, heading_font = 11, title_font = 16, subtitle_font = 11, legend_font = 10;
    double heading_base = 12;                  // heading baseline below the panel top
    double block_label_dy = 14, index_dy = 3;  // block label / column index baselines above the block
    double title_base = 14, subtitle_base = 32, header = 40;
    double legend_gap = 22, swatch = 12, legend_row = 18, legend_indent = 120, min_width = 420;
    double cw = 44, ch = 0;
    bool labels = true, block_labels = true;
    std::string block_word = "block ";
    int col_step = 1, row_step = 1;  // every n-th column / row index is written
    // A register axis where cells cannot name their register: "v3" under each
    // run of columns (or beside each run of rows) that one register holds.
    double reg_right = 0, reg_bottom = 0;
};

struct Panel {
    Operand op;
    OperandLayout layout;
    int block_cols = 1, block_rows = 1;  // block grid
    std::vector<std::pair<int, int>> block_at;  // block -> (grid col, grid row)
    int rows = 0, cols = 0;  // cells per block
    double x = 0, y = 0;     // panel origin
    std::vector<std::string> heading;  // one string per line
    double top = -1;                   // its own heading height (fitted GEMM's B); < 0: Geometry::panel_top
    // Tile mode: the operand's tile and, per cell (row-major), every (wave, location) holding it.
    std::shared_ptr<const TileLayout> tile;
    std::vector<std::vector<TileLocation>> cells;
    // The register of every column (or row) of each block when one register
    // holds the whole column (row) in every lane; empty when it does not.
    // Each is named as its cells would name it (core's cell_label: "v3" on AMD;
    // on NVIDIA the PTX element, "a1", which also fixes the register's half).
    std::vector<std::vector<int>> col_reg, row_reg;
    std::vector<std::vector<std::string>> col_name, row_name;
    // figure --crop: the window's first row and column (rows and cols then count the window's cells).
    int row0 = 0, col0 = 0;
    double panel_top(const Geometry& g) const { return top >= 0 ? top : g.panel_top; }
    double width(const Geometry& g) const {
        return g.panel_left + block_cols * cols * g.cw + (block_cols - 1) * g.block_gap + (row_reg.empty() ? 0 : g.reg_right);
    }
    double height(const Geometry& g) const {
        return panel_top(g) + block_rows * rows * g.ch + (block_rows - 1) * g.block_gap + (col_reg.empty() ? 0 : g.reg_bottom);
    }
};

// Smallest power of two n so that n cells of `cell` units hold `need` units.
int index_step(double cell, double need) {
    int n = 1;
    while (n < 4096 && n * cell < need) n *= 2;
    return n;
}

std::string axis_words(Operand op, bool sparse, View view) {
    if (view == View::Registers) return "rows: lanes, columns: VGPRs";
    switch (op) {
        case Operand::A: return sparse ? "rows: i, columns: dense k; a group of 4 k shares one slot" : "rows: i, columns: k";
        case Operand::B: return "rows: k, columns: j";
        case Operand::C:
        case Operand::D: return "rows: i, columns: j";
        case Operand::K: return "rows: i, columns: k (one 4-bit field per group of four)";
        case Operand::SA: return "rows: i, columns: k/32";
        case Operand::SB: return "rows: k/32, columns: j";
    }
    return "";
}

// What the colours mean; in Tensor Memory and shared memory "by lane" is core's
// location_color (palette.hpp): a hue per TMEM lane quarter, per 16-byte chunk of a line.
std::string color_words(const Instruction& ins, ColorBy by, Space space = Space::Registers) {
    switch (by) {
        case ColorBy::Lane: return space_colour_words(ins, space, 0).hue;
        case ColorBy::Register: return "register";
        case ColorBy::Block: return "block";
    }
    return "";
}

// What the shade within a lane group's hue steps by (core's space_colour_words).
std::string shade_words(const Instruction& ins, Space space = Space::Registers) {
    return space_colour_words(ins, space, 0).shade;
}

// The lines of a palette label (core's cell_label_lines), the empty second one dropped.
std::vector<std::string> label_lines(const std::pair<std::string, std::string>& l) {
    std::vector<std::string> out;
    if (!l.first.empty()) out.push_back(l.first);
    if (!l.second.empty()) out.push_back(l.second);
    return out;
}

std::string bits_words(int lo, int hi) { return "[" + std::to_string(hi) + ":" + std::to_string(lo) + "]"; }

// The most tiles a tile figure draws (a 2048x2048 C/D): about 2 GB of memory
// and a 350 MB SVG at natural size, a minute to draw.
constexpr long long kMaxFigureTiles = 1LL << 22;

// Tile figures: how a cell is labelled, richest first. Every cell of a figure
// uses the same form.
enum class TileForm { Full, Short, None };  // "w1 v3[15:0]" / "L17"; "w1 v3" / "L17"; colours only
// One instruction's matrix view: the same forms, then the lane number alone
// ("17") where register and lane do not fit, then colours only.
enum class CellForm { Full, Short, Lane, None };

// A register without its bits (core's reg_bare), but a sparse index operand
// keeps which 4-bit field it is: "v0.n5" (AMD), "e.n5" (NVIDIA) = bits [23:20].
std::string short_reg(const CellLabel& l, Operand op, const Location& loc) {
    if (op == Operand::K && loc.bit_hi - loc.bit_lo == 3 && loc.bit_lo % 4 == 0 && loc.bit_hi <= 31)
        return l.reg_bare + ".n" + std::to_string(loc.bit_lo / 4);
    return l.reg_bare;
}

// Lines as one hover text: "v3[15:0] L17".
std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += (out.empty() ? "" : " ") + l;
    return out;
}

// A cell's lines, composed by core (palette.hpp) in the vendor's terms: AMD
// "v0[15:0]" over "L17", NVIDIA "a0" over "T13"; Short drops the bits
// ("v0" over "L17"); Lane is the lane number alone.
std::vector<std::string> plain_cell_lines(const Instruction& ins, Operand op, const Location& loc, int element_bits, CellForm form,
                                          Space space) {
    switch (form) {
        case CellForm::Full: return label_lines(cell_label_lines(ins, op, loc, element_bits, LabelForm::TwoLines, space));
        case CellForm::Short: {
            if (space != Space::Registers) return label_lines(cell_label_lines(ins, op, loc, element_bits, LabelForm::Short, space));
            const CellLabel l = cell_label(ins, op, loc, element_bits);
            return {short_reg(l, op, loc), l.lane};
        }
        case CellForm::Lane: return label_lines(cell_label_lines(ins, op, loc, element_bits, LabelForm::Number, space));
        case CellForm::None: break;
    }
    return {};
}

// A cell's lines (plain_cell_lines); D of a tcgen05 read-back in registers in core's one model of
// the CTA pair (pair_slot): the thread within its CTA, "CTA1 T85", and with --tmem-load which
// tcgen05.ld of the thread and which register of it, "d3, load 0 r3" (Short: "d3"; Lane: "85").
std::vector<std::string> cell_lines(const FigureSpec& spec, Operand op, const Location& loc, int element_bits, CellForm form,
                                    Space space) {
    const Instruction& ins = *spec.ins;
    if (space == Space::Registers && ins.vendor() == Vendor::NVIDIA && form != CellForm::None) {
        if (const PairSlot p = pair_slot(ins, op, spec.mods, loc); p.warp >= 0) {
            if (form == CellForm::Lane) return {std::to_string(p.lane)};
            const CellLabel l = cell_label(ins, op, loc, element_bits);
            const std::string load = p.load >= 0 ? ", load " + std::to_string(p.load) + " r" + std::to_string(p.load_reg) : "";
            return {form == CellForm::Full ? l.reg + load : l.reg_bare,
                    (p.pair ? "CTA" + std::to_string(p.cta) + " " : std::string()) + "T" + std::to_string(p.lane)};
        }
    }
    return plain_cell_lines(ins, op, loc, element_bits, form, space);
}

// The label lines of one (wave, location) of a tile: the instruction's label
// (core's cell_label; Short: the register without its bits) with the wave
// first when the tile has several waves.
std::vector<std::string> tile_cell_lines(const Instruction& ins, Operand op, int wave, int waves, const Location& loc,
                                         int element_bits, TileForm form, Space space) {
    if (form == TileForm::None) return {};
    const CellLabel l = cell_label(ins, op, loc, element_bits, space);
    std::vector<std::string> lines =
        space != Space::Registers
            ? label_lines(cell_label_lines(ins, op, loc, element_bits, form == TileForm::Full ? LabelForm::TwoLines : LabelForm::Short, space))
            : std::vector<std::string>{form == TileForm::Full ? l.reg : short_reg(l, op, loc), l.lane};
    if (waves > 1) lines.front() = "w" + std::to_string(wave) + " " + lines.front();
    return lines;
}


// The axis words of a tile's operand: tile rows and columns are M, N and K.
std::string tile_axis_words(Operand op) {
    switch (op) {
        case Operand::A:
        case Operand::K: return "rows: M, columns: K";
        case Operand::SA: return "rows: M, columns: K/32";
        case Operand::B: return "rows: K, columns: N";
        case Operand::SB: return "rows: K/32, columns: N";
        case Operand::C:
        case Operand::D: return "rows: M, columns: N";
    }
    return "";
}
// What the caption says beyond shape and modifiers: the instruction's special
// facts (formats, sparsity, blocks) and how sure its layout is.
std::vector<std::string> special_facts(const Instruction& ins, const ResolvedModifiers& m, const std::vector<Operand>& ops) {
    std::vector<std::string> out;
    auto has = [&](Operand o) { return std::find(ops.begin(), ops.end(), o) != ops.end(); };
    // The formats a modifier chose (mfma_scale's cbsz/blgp, gfx1250's matrix_a_fmt/matrix_b_fmt): the headings' words.
    std::string formats;
    for (Operand op : operands_of(ins))
        if ((op == Operand::A || op == Operand::B) && !operand_format(ins, op, m).chosen_by.empty())
            formats += (formats.empty() ? "" : ", ") + std::string(operand_name(op)) + " " + type_words(ins, op, m);
    if (!formats.empty()) out.push_back(formats);
    if (ins.kind == LayoutKind::MfmaScaled) {
        if (has(Operand::SA) || has(Operand::SB))
            out.push_back("scales E8M0, one per 32 k: SA byte " + std::to_string(m.opsel_a) + " [" + std::to_string(8 * m.opsel_a + 7) +
                          ":" + std::to_string(8 * m.opsel_a) + "], SB byte " + std::to_string(m.opsel_b) + " [" +
                          std::to_string(8 * m.opsel_b + 7) + ":" + std::to_string(8 * m.opsel_b) + "] of the scale VGPR");
    }
    if (ins.sparse() && (has(Operand::A) || has(Operand::K)))
        out.push_back(std::string(ins.vendor() == Vendor::NVIDIA ? "2:4" : "4:2") +
                      " sparse A, compressed: 2 of every 4 k stored, drawn in dense coordinates (a group's 4 k share one slot)" +
                      (has(Operand::K) ? "; K: each group's 4-bit index field (the k of its 2 stored values, 2 bits each), named by nibble" : ""));
    if (ins.blocks > 1) out.push_back(std::to_string(ins.blocks) + " independent blocks, each framed and labelled");
    // wgmma reads B from shared memory (PTX: a matrix descriptor), so it has no register fragment to draw.
    if (ins.kind == LayoutKind::Wgmma && !has(Operand::B))
        out.push_back("B (" + std::to_string(ins.k) + "x" + std::to_string(ins.n) + " " + std::string(elem_name(ins.b)) +
                      ") lives in shared memory, read through a matrix descriptor: no register fragment, not drawn");
    // tcgen05.mma D read back by tcgen05.ld: the loads that exist, and the CTA pair's one model (core's pair_slot).
    if (ins.kind == LayoutKind::Tcgen05Mma && m.tmem_load > 0 && (has(Operand::D) || has(Operand::C))) {
        const PairSlot p = pair_slot(ins, Operand::D, m, Location{});
        std::string f = std::to_string(p.loads) + (p.loads == 1 ? " load" : " loads") + " per thread of " + p.load_ptx;
        if (p.loads > 1)
            f += " (register r of a thread: load floor(r/" + std::to_string(p.load_regs) + "), its register r%" +
                 std::to_string(p.load_regs) + ")";
        if (p.pair)
            f += "; T" + std::to_string(32 * m.num_warps) + "*c+t is thread t (warp floor(t/32)) of CTA c of the pair";
        out.push_back(f + "; not confirmed on hardware");
    }
    // Per-operand evidence where the family states it (gfx1250), else the row's word.
    std::string conf, alternatives;
    std::set<std::string> words;
    size_t alts = 0;
    for (Operand op : ops) {
        const Evidence e = layout_evidence(ins, op, m);
        if (e.confidence.empty()) continue;
        conf += (conf.empty() ? "" : ", ") + std::string(operand_name(op)) + " " + e.confidence;
        words.insert(e.confidence);
        alts += e.alternatives.size();
    }
    if (words.size() == 1) conf = *words.begin();  // one word for every operand drawn
    if (alts) alternatives = "; " + std::to_string(alts) + " other reading" + (alts > 1 ? "s" : "") + " (lanescope-cli info)";
    if (conf.empty()) conf = ins.confidence.empty() ? "high" : ins.confidence.substr(0, ins.confidence.find(':'));
    out.push_back("confidence: " + conf + alternatives + " (sources " + ins.source + ")");
    return out;
}

// figure --crop: the one operand drawn keeps only the window's rows and columns (its indices
// stay the operand's own); its heading says which window of which shape.
void apply_crop(std::vector<Panel>& panels, const FigureSpec& spec) {
    if (spec.crop.empty()) return;
    if (panels.size() != 1)
        throw Error("--crop " + spec.crop + ": a window of one operand's matrix; legal: --operand A, B, C, D, K, SA or SB, not all");
    if (spec.view != View::Matrix)
        throw Error("--crop " + spec.crop + ": a window of the matrix view (the operand's rows and columns); legal: --view matrix");
    Panel& p = panels.front();
    const CropWindow w = parse_crop(spec.crop, p.op, p.rows, p.cols);
    std::string& head = p.heading.front();
    const size_t axis = head.rfind("  (");
    head.insert(axis == std::string::npos ? head.size() : axis, ", window: " + crop_words(w, p.rows, p.cols));
    p.row0 = w.row0, p.col0 = w.col0, p.rows = w.rows, p.cols = w.cols;
}

// The register axes of a cropped panel: only the window's columns (rows).
void crop_register_axes(std::vector<Panel>& panels) {
    auto window = [](auto& v, int from, int count) {
        if (static_cast<int>(v.size()) >= from + count) v = std::decay_t<decltype(v)>(v.begin() + from, v.begin() + from + count);
    };
    for (Panel& p : panels) {
        for (auto& b : p.col_reg) window(b, p.col0, p.cols);
        for (auto& b : p.col_name) window(b, p.col0, p.cols);
        for (auto& b : p.row_reg) window(b, p.row0, p.rows);
        for (auto& b : p.row_name) window(b, p.row0, p.rows);
    }
}

// The first boundary of a run of `unit` rows (columns) inside a window that starts at `offset`.
int first_boundary(int offset, int unit) { return unit - offset % unit; }

// The operands as drawn, for --highlight's checks: shapes, slots, the window.
std::vector<DrawnOperand> drawn_operands(const std::vector<Panel>& panels, const std::vector<Operand>& scale_ops, const FigureSpec& spec) {
    std::vector<DrawnOperand> out;
    for (const Panel& p : panels) {
        DrawnOperand d{p.op, p.layout.blocks(), p.tile ? p.tile->rows() : p.layout.rows(), p.tile ? p.tile->cols() : p.layout.cols(),
                       p.layout.lanes(), p.tile ? p.tile->regs() : p.layout.regs(), {}};
        if (!spec.crop.empty()) d.window = CropWindow{p.rows, p.cols, p.row0, p.col0};
        out.push_back(d);
    }
    for (Operand op : scale_ops) {
        const OperandLayout L = layout_of(*spec.ins, *spec.target, op, spec.mods);
        out.push_back({op, L.blocks(), L.rows(), L.cols(), L.lanes(), L.regs(), {}});
    }
    return out;
}

// The lanes the panels' threads span (a tcgen05 read-back's warps: 128 or 256 threads), at least a wave.
int drawn_lanes(const std::vector<Panel>& panels, int wave) {
    for (const Panel& p : panels) wave = std::max(wave, p.layout.lanes());
    return wave;
}

// A legend entry (legend_label); a lane group of a tcgen05 read-back of a CTA pair in core's one
// model (pair_slot of the group's first thread): "CTA1 warp 3 (T96–127)", threads within the CTA.
std::string group_legend_label(const FigureSpec& spec, const std::vector<Panel>& panels, int group, Space space) {
    const Instruction& ins = *spec.ins;
    if (spec.color == ColorBy::Lane && space == Space::Registers && !spec.tile)
        for (const Panel& p : panels) {
            const int size = lane_group_size(ins), first = group * size;
            const PairSlot a = pair_slot(ins, p.op, spec.mods, Location{0, first, 0, 31});
            if (!a.pair || a.warp < 0) continue;
            const PairSlot b = pair_slot(ins, p.op, spec.mods, Location{0, first + size - 1, 0, 31});
            return "CTA" + std::to_string(a.cta) + " warp " + std::to_string(a.warp) + " (T" + std::to_string(a.lane) + "\u2013" +
                   std::to_string(b.lane) + ")";
        }
    return legend_label(ins, spec.color, group, space);
}

using CellColor = std::function<Rgb(const Element&, const TileLocation&, Space)>;

// The cells of one chunk of a scale panel: rows r0..r1-1, columns c0..c1-1 at (bx, by), its
// indices (the operand's own) and its frame; returns the chunk's right edge.
double draw_scale_chunk(Figure& f, const FigureSpec& spec, const OperandLayout& L, int r0, int r1, int c0, int c1, double bx,
                        double by, double cw, double ch, bool labels, bool fit, const Geometry& g, const ThemeColors& tc,
                        const CellColor& cell_color) {
    const Instruction& ins = *spec.ins;
    const Operand op = L.operand();
    const std::string opn(operand_name(op));
    const double im = g.index_font;
    const int cstep = index_step(cw, text_width(std::to_string(L.cols() - 1), im) + 0.4 * im);
    const int rstep = index_step(ch, 1.1 * im);
    // Register with bits over the lane in every cell.
    auto lines_of = [&](const Location& loc) -> std::vector<std::string> {
        if (L.space() != Space::Registers) return label_lines(cell_label_lines(ins, op, loc, L.element_bits(), LabelForm::TwoLines, L.space()));
        const CellLabel l = cell_label(ins, op, loc, L.element_bits());
        return {l.reg, l.lane};
    };
    for (int c = c0; c < c1; c += cstep)
        f.texts.push_back({bx + (c - c0 + 0.5) * cw, by - 0.35 * im, std::to_string(c), im, Anchor::Middle, false, tc.muted});
    for (int r = r0; r < r1; r += rstep)
        f.texts.push_back({bx - 0.375 * im, by + (r - r0 + 0.5) * ch + 0.35 * im, std::to_string(r), im, Anchor::End, false, tc.muted});
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) {
            const double x = bx + (c - c0) * cw, y = by + (r - r0) * ch;
            const std::vector<Location> locs = L.where({0, r, c});
            if (locs.empty()) {
                f.boxes.push_back(empty_cell(x, y, cw, ch, tc));
                continue;
            }
            const double h = ch / static_cast<double>(locs.size());
            for (size_t n = 0; n < locs.size(); ++n) {
                Tile t;
                t.x = x, t.y = y + n * h, t.w = cw, t.h = h;
                t.fill = cell_color(Element{0, r, c}, TileLocation{0, locs[n]}, L.space());
                t.ink = text_on(t.fill);
                t.id = opn + ".0." + std::to_string(r) + "." + std::to_string(c) + "." + std::to_string(n);
                if (labels) t.lines = lines_of(locs[n]);
                f.tiles.push_back(std::move(t));
            }
        }
    const double x2 = bx + (c1 - c0) * cw, y2 = by + (r1 - r0) * ch, fw = fit ? 1.0 : 1.5;
    f.lines.push_back({bx, by, x2, by, tc.text, fw});
    f.lines.push_back({x2, by, x2, y2, tc.text, fw});
    f.lines.push_back({x2, y2, bx, y2, tc.text, fw});
    f.lines.push_back({bx, y2, bx, by, tc.text, fw});
    return x2;
}

// One scale operand of a scaled GEMM picture, its heading at y, at the figure's tile font (never
// below the smallest legible one): register and byte field over the lane ("v0[7:0]" over "L17")
// in every cell; columns that do not fit the width wrap into chunks one under the other, and with
// `wrap_rows` (a figure too tall for its page) the rows into chunks side by side, as many as the
// width holds. The heading names the byte field every cell shares. Returns the panel's bottom.
double draw_scale_panel(Figure& f, const FigureSpec& spec, Operand op, const Geometry& g, bool fit, const ThemeColors& tc,
                        const CellColor& cell_color, double y, double& content_w, bool wrap_rows) {
    const Instruction& ins = *spec.ins;
    const double font = Figure().tile_font;
    const double min_font = fit ? (spec.min_font > 0 ? spec.min_font : 10) : 0;
    const double tf = std::max(f.tile_font, min_font);
    const double tl = f.tile_line * tf / f.tile_font;
    const double pad = fit ? 0.6 * tf : 8 * tf / font;
    const double avail = fit ? spec.fit_width - 2 * g.margin : 1e12;
    const double im = g.index_font, hf = g.heading_font;
    const OperandLayout L = layout_of(ins, *spec.target, op, spec.mods);
    const int bits = L.element_bits();
    const std::vector<Entry> es = L.entries();
    // The register and bits every cell shares, if one: "v0[7:0]".
    std::string shared;
    for (size_t n = 0; n < es.size(); ++n) {
        const std::string r = cell_label(ins, op, es[n].loc, bits, L.space()).reg;
        if (n == 0) shared = r;
        else if (r != shared) shared.clear();
        if (shared.empty()) break;
    }
    const double left = text_width(std::to_string(L.rows() - 1), im) + 0.5 * im;
    size_t max_locs_s = 1;
    for (int r = 0; r < L.rows(); ++r)
        for (int c = 0; c < L.cols(); ++c) max_locs_s = std::max(max_locs_s, L.where({0, r, c}).size());
    double cw = fit ? 1 : 44 * tf / font;
    for (const Entry& e : es) {
        const CellLabel l = cell_label(ins, op, e.loc, bits, L.space());
        for (const std::string& s : L.space() != Space::Registers
                                        ? label_lines(cell_label_lines(ins, op, e.loc, bits, LabelForm::TwoLines, L.space()))
                                        : std::vector<std::string>{l.reg, l.lane})
            cw = std::max(cw, text_width(s, tf) + pad);
    }
    const bool labels = left + cw <= avail;  // one column fits (else colours only)
    if (!labels) cw = std::max(0.5, avail - left);
    const int per_chunk = std::max(1, std::min(L.cols(), static_cast<int>((avail - left) / cw)));
    const int chunks = (L.cols() + per_chunk - 1) / per_chunk;
    const double ch = static_cast<double>(max_locs_s) * (2 * tl + 5 * tf / font);
    // Rows side by side (only where the columns did not wrap): each chunk its row indices and a gap.
    const double gap = 1.5 * im;
    int row_chunks = 1;
    if (wrap_rows && chunks == 1 && labels)
        row_chunks = std::max(1, std::min(L.rows(), static_cast<int>((avail + gap) / (left + L.cols() * cw + gap))));
    const int rows_per = (L.rows() + row_chunks - 1) / row_chunks;
    row_chunks = (L.rows() + rows_per - 1) / rows_per;
    // Heading: what the operand is, the byte field every cell shares, the axes.
    std::string head = std::string(operand_title(op)) + "  " + std::string(elem_name(L.type())) + ", " +
                       std::to_string(L.regs()) + " VGPR" + (L.regs() == 1 ? "" : "s") + " per lane" +
                       (shared.empty() ? std::string() : "; every scale in " + shared) + "  (" +
                       axis_words(op, false, View::Matrix) + ": a scale per 32 k" +
                       (chunks > 1 ? "; columns wrapped in " + std::to_string(chunks) + " rows" : std::string()) +
                       (row_chunks > 1 ? "; rows wrapped in " + std::to_string(row_chunks) + " side by side" : std::string()) + ")";
    std::vector<std::string> heads = fit ? wrap(head, hf * 1.12, avail, "  ") : std::vector<std::string>{head};
    for (size_t n = 0; n < heads.size(); ++n) {
        f.texts.push_back({g.margin, y + hf + 1.25 * hf * static_cast<double>(n), heads[n], hf, Anchor::Start, true, tc.text});
        content_w = std::max(content_w, g.margin + text_width(heads[n], hf) * 1.12);
    }
    double by = y + hf + 1.25 * hf * static_cast<double>(heads.size() - 1) + 0.5 * im + 1.2 * im, y2 = by;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const int c0 = chunk * per_chunk, c1 = std::min(L.cols(), c0 + per_chunk);
        if (chunk > 0) by = y2 + 1.7 * im;  // room for the chunk's column indices
        double bx = g.margin + left;
        for (int rc = 0; rc < row_chunks; ++rc) {
            const int r0 = rc * rows_per, r1 = std::min(L.rows(), r0 + rows_per);
            const double x2 = draw_scale_chunk(f, spec, L, r0, r1, c0, c1, bx, by, cw, ch, labels, fit, g, tc, cell_color);
            content_w = std::max(content_w, x2);
            y2 = std::max(y2, by + (r1 - r0) * ch);
            bx = x2 + gap + left;
        }
    }
    return y2;
}

// The scale operands of a scaled GEMM picture: one panel each, stacked under the GEMM.
void draw_scale_panels(Figure& f, const FigureSpec& spec, const std::vector<Operand>& scale_ops, const Geometry& g, bool fit,
                       const ThemeColors& tc, const CellColor& cell_color, double& content_w, double& content_h, bool wrap_rows) {
    const double step = fit ? 1.2 * g.index_font : g.panel_gap;
    double y = content_h + step;
    for (Operand op : scale_ops) {
        content_h = draw_scale_panel(f, spec, op, g, fit, tc, cell_color, y, content_w, wrap_rows);
        y = content_h + step;
    }
}

bool rows_are_k(Operand op) { return op == Operand::B || op == Operand::SB; }
bool cols_are_k(Operand op) { return op == Operand::A || op == Operand::K || op == Operand::SA; }


// What the request asks of every part of the figure: tile mode, the view, the GEMM picture, a fitted width.
struct Mode {
    bool tiled = false, matrix = false, gemm = false, fit = false;
    bool as_instruction = true;  // one instruction, or a tile of one wave and one step drawn exactly as it
    int tile_waves = 1;
};

// The scale operands a scaled GEMM picture (A, B, D, then SA and/or SB) draws in a row of their own
// under it, taken out of `gemm_ops`; none for any other request.
std::vector<Operand> split_scale_operands(const FigureSpec& spec, bool tiled, bool matrix,
                                          std::vector<Operand>& gemm_ops) {
    std::vector<Operand> scale_ops;
    if (!tiled && matrix && spec.operands.size() > 3 && spec.operands[0] == Operand::A && spec.operands[1] == Operand::B &&
        spec.operands[2] == Operand::D) {
        for (size_t n = 3; n < spec.operands.size(); ++n)
            if (spec.operands[n] == Operand::SA || spec.operands[n] == Operand::SB) scale_ops.push_back(spec.operands[n]);
        if (scale_ops.size() == spec.operands.size() - 3) gemm_ops.resize(3);
        else scale_ops.clear();
    }
    return scale_ops;
}

// A panel per operand drawn; in tile mode each with its tile and every cell's (wave, location)s,
// refused past kMaxFigureTiles.
std::vector<Panel> make_panels(const FigureSpec& spec, const std::vector<Operand>& gemm_ops, bool tiled) {
    const Instruction& ins = *spec.ins;
    std::vector<Panel> panels;
    long long tile_count = 0;  // tile mode: (element, wave, location)s over all panels
    for (Operand op : gemm_ops) {
        Panel p{op, layout_of(ins, *spec.target, op, spec.mods), 1, 1, {}, 0, 0, 0, 0, {}, -1, nullptr, {}, {}, {}, {}, {}, 0, 0};
        if (tiled) {
            p.tile = std::make_shared<const TileLayout>(ins, *spec.target, op, spec.mods, *spec.tile);
            // Every wave issues steps() copies of the instruction's entries.
            tile_count += static_cast<long long>(p.tile->waves()) * p.tile->steps() *
                          static_cast<long long>(p.layout.entries().size());
            if (tile_count > kMaxFigureTiles)
                throw Error("a figure of this tile has " + std::to_string(tile_count) + "+ tiles (elements times their copies); "
                            "legal: at most " + std::to_string(kMaxFigureTiles) + ", e.g. a 2048x2048 C/D or a 1024x1024x256 "
                            "GEMM; pick a smaller --shape");
            p.cells.resize(static_cast<size_t>(p.tile->rows()) * p.tile->cols());
            for (const TileEntry& e : p.tile->entries())
                p.cells[static_cast<size_t>(e.element.row) * p.tile->cols() + e.element.col].push_back(e.at);
        }
        panels.push_back(std::move(p));
    }
    return panels;
}

// Every (wave, location) holding element e of a panel (wave 0 for one instruction).
std::vector<TileLocation> cell_locs(const Panel& p, const Element& e) {
    if (p.tile) return p.cells[static_cast<size_t>(e.row) * p.tile->cols() + e.col];
    std::vector<TileLocation> out;
    for (const Location& l : p.layout.where(e)) out.push_back({0, l});
    return out;
}

// What register `reg` of `lane` in `wave` holds (wave 0 for one instruction).
std::vector<SlotPart> parts_of(const Panel& p, int wave, int reg, int lane) {
    return p.tile ? p.tile->which(wave, reg, lane) : p.layout.which(reg, lane);
}

int panel_waves(const Panel& p) { return p.tile ? p.tile->waves() : 1; }
int panel_regs(const Panel& p) { return p.tile ? p.tile->regs() : p.layout.regs(); }

// A cell's size, and the most locations one cell holds (its slices).
struct CellSize {
    double cw = 44, ch = 0;
    size_t max_locs = 1;
};

// The natural cell size shared by all panels, so the GEMM arrangement lines up: the widest label at
// the tile font decides.
CellSize natural_cell(const FigureSpec& spec, const std::vector<Panel>& panels, const Mode& mode, double font,
                      double line) {
    const Instruction& ins = *spec.ins;
    CellSize s;
    double& cw = s.cw;
    size_t& max_locs = s.max_locs;
    if (mode.tiled && mode.matrix) {
        for (const Panel& p : panels)
            for (const std::vector<TileLocation>& locs : p.cells) {
                for (const TileLocation& l : locs)
                    for (const std::string& t :
                         tile_cell_lines(ins, p.op, l.wave, mode.tile_waves, l.loc, p.layout.element_bits(),
                                         TileForm::Full, p.layout.space()))
                        cw = std::max(cw, std::ceil(text_width(t, font)) + 8);
                max_locs = std::max(max_locs, locs.size());
            }
        s.ch = static_cast<double>(max_locs) * (2 * line + 5);
    } else if (spec.view == View::Matrix) {
        for (const Panel& p : panels) {
            const std::vector<Entry> es = p.layout.entries();
            for (size_t i = 0; i < es.size();) {
                size_t j = i;
                while (j < es.size() && es[j].element == es[i].element) {
                    for (const std::string& t :
                         cell_lines(spec, p.op, es[j].loc, p.layout.element_bits(), CellForm::Full, p.layout.space()))
                        cw = std::max(cw, std::ceil(text_width(t, font)) + 8);
                    ++j;
                }
                max_locs = std::max(max_locs, j - i);
                i = j;
            }
        }
        s.ch = static_cast<double>(max_locs) * (2 * line + 5);
    } else {
        int max_parts = 1;
        double part_w = 40;
        bool two_lines = false;
        for (const Panel& p : panels)
            for (int w = 0; w < panel_waves(p); ++w)
                for (int lane = 0; lane < p.layout.lanes(); ++lane)
                    for (int reg = 0; reg < panel_regs(p); ++reg) {
                        const std::vector<SlotPart> parts = parts_of(p, w, reg, lane);
                        max_parts = std::max(max_parts, static_cast<int>(parts.size()));
                        for (const SlotPart& sp : parts) {
                            part_w = std::max(
                                part_w,
                                std::ceil(text_width(element_label(p.op, sp.element, p.layout.blocks()), font)) + 8);
                            if (sp.bit_lo != 0 || sp.bit_hi != 31) two_lines = true;
                        }
                    }
        cw = max_parts * part_w;
        s.ch = two_lines ? 2 * line + 5 : line + 9;
    }
    return s;
}

// The width each label form needs at the tile font with 0.6 em of padding (the natural cell adds a
// floor of 44 and 8 units of padding); only a fitted figure asks.
struct LabelNeeds {
    double full = 1, short_form = 1;  // short_form: tile mode's Short form, one instruction's without bits
    double lane = 1;                  // one instruction's lane-number form
};

LabelNeeds label_needs(const FigureSpec& spec, const std::vector<Panel>& panels, const Mode& mode, double font) {
    const Instruction& ins = *spec.ins;
    LabelNeeds n;
    if (!(spec.fit_width > 0)) return n;
    if (mode.tiled && mode.matrix) {
        for (const Panel& p : panels)
            for (const std::vector<TileLocation>& locs : p.cells)
                for (const TileLocation& l : locs) {
                    for (const std::string& s :
                         tile_cell_lines(ins, p.op, l.wave, mode.tile_waves, l.loc, p.layout.element_bits(),
                                         TileForm::Full, p.layout.space()))
                        n.full = std::max(n.full, text_width(s, font) + 0.6 * font);
                    for (const std::string& s :
                         tile_cell_lines(ins, p.op, l.wave, mode.tile_waves, l.loc, p.layout.element_bits(),
                                         TileForm::Short, p.layout.space()))
                        n.short_form = std::max(n.short_form, text_width(s, font) + 0.6 * font);
                    n.lane = std::max(n.lane, text_width(std::to_string(l.loc.lane), font) + 0.6 * font);
                }
        return n;
    }
    for (const Panel& p : panels) {
        if (spec.view == View::Matrix) {
            for (const Entry& e : p.layout.entries()) {
                for (const std::string& s : cell_lines(spec, p.op, e.loc, p.layout.element_bits(), CellForm::Full, p.layout.space()))
                    n.full = std::max(n.full, text_width(s, font) + 0.6 * font);
                for (const std::string& s : cell_lines(spec, p.op, e.loc, p.layout.element_bits(), CellForm::Short, p.layout.space()))
                    n.short_form = std::max(n.short_form, text_width(s, font) + 0.6 * font);
                n.lane = std::max(n.lane, text_width(std::to_string(e.loc.lane), font) + 0.6 * font);
            }
        } else {
            for (int w = 0; w < panel_waves(p); ++w)
                for (int lane = 0; lane < p.layout.lanes(); ++lane)
                    for (int reg = 0; reg < panel_regs(p); ++reg) {
                        const std::vector<SlotPart> parts = parts_of(p, w, reg, lane);
                        for (const SlotPart& s : parts)
                            n.full = std::max(
                                n.full,
                                (text_width(element_label(p.op, s.element, p.layout.blocks()), font) + 0.6 * font) *
                                    static_cast<double>(parts.size()));
                    }
        }
    }
    return n;
}

// Each panel's cells per block and its block grid: A stacks its blocks down, B across, D on the
// diagonal in the GEMM picture; else a near-square grid.
void place_blocks(std::vector<Panel>& panels, const FigureSpec& spec, const Mode& mode) {
    for (Panel& p : panels) {
        // Tiles: the matrix view is the tile's rows and columns; the registers
        // view has a block per wave (lanes x the tile's registers).
        const int nb = spec.view == View::Matrix ? p.layout.blocks() : panel_waves(p);
        p.rows = spec.view == View::Matrix ? p.layout.rows() : p.layout.lanes();
        p.cols = spec.view == View::Matrix ? p.layout.cols() : panel_regs(p);
        if (p.tile && mode.matrix) p.rows = p.tile->rows(), p.cols = p.tile->cols();
        if (mode.gemm) {
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
}

// Each panel's heading, one line: the operand, its type and registers, its axes.
void set_headings(std::vector<Panel>& panels, const FigureSpec& spec, bool matrix) {
    const Instruction& ins = *spec.ins;
    for (Panel& p : panels) {
        const OperandLayout& L = p.layout;
        const int regs = p.tile ? p.tile->regs() : L.regs();
        const bool sparse_a = ins.sparse() && p.op == Operand::A;
        p.heading = {std::string(operand_title(p.op)) + "  " + type_words(ins, p.op, spec.mods) +
                     (sparse_a ? std::string(ins.vendor() == Vendor::NVIDIA ? ", 2:4" : ", 4:2") + " compressed in dense coordinates" : "") + ", " +
                     std::to_string(regs) + " " + std::string(register_noun(ins.vendor())) +
                     (regs == 1 ? "" : "s") + " per lane  (" +
                     (p.tile && matrix ? tile_axis_words(p.op) : axis_words(p.op, ins.sparse(), spec.view)) + ")"};
    }
}

// NVIDIA in its own terms: the short name as the title (every wgmma N reads apart), the full PTX
// spelling first in the caption.
bool nvidia_short(const Instruction& ins) { return ins.vendor() == Vendor::NVIDIA && !ins.short_name.empty(); }

// The panels' one space other than registers (TMEM D, shared-memory B), else Registers.
Space panels_space(const std::vector<Panel>& panels) {
    Space space = panels.empty() ? Space::Registers : panels.front().layout.space();
    for (const Panel& p : panels)
        if (p.layout.space() != space) space = Space::Registers;
    return space;
}

// The figure's caption: its title, the subtitle (target, shape, operands, modifiers, view and
// colours) and the line of special facts and confidence under it.
struct Captions {
    std::string title, subtitle, facts;
};

Captions figure_captions(const FigureSpec& spec, const std::vector<Panel>& panels,
                         const std::vector<Operand>& scale_ops, const Mode& mode, Space space) {
    const Instruction& ins = *spec.ins;
    Captions c;
    c.title = nvidia_short(ins) ? ins.short_name : ins.mnemonic;
    if (mode.tiled) c.title += "  \u00B7  " + panels.front().tile->params().describe();
    std::string ops;
    for (const Panel& p : panels) ops += (ops.empty() ? "" : ", ") + std::string(operand_name(p.op));
    for (Operand op : scale_ops) ops += ", " + std::string(operand_name(op));
    if (ins.kind == LayoutKind::Wgmma && mode.matrix &&
        std::find(spec.operands.begin(), spec.operands.end(), Operand::B) == spec.operands.end() &&
        spec.operands.size() > 1)
        ops += " (B in shared memory)";
    const std::string mods = spec.mods.describe();
    c.subtitle = (nvidia_short(ins) ? "PTX " + ins.mnemonic + "  \u00B7  " : std::string()) + spec.target->gfx + " (" +
                 std::string(family_title(spec.target->family)) + "), " + lane_group_name(ins, spec.mods.wave) +
                 "  \u00B7  " + ins.shape() + (ins.blocks > 1 ? " x" + std::to_string(ins.blocks) + " blocks" : "") +
                 "  \u00B7  operand" + (spec.operands.size() > 1 ? "s " : " ") + ops + "  \u00B7  " +
                 (mods.empty() ? "default modifiers" : mods) + "  \u00B7  " +
                 (spec.view == View::Matrix ? "matrix view" : "registers view") + ", colour by " +
                 (mode.tiled && spec.color == ColorBy::Lane && mode.tile_waves > 1
                      ? (ins.vendor() == Vendor::NVIDIA ? "warp and lane group" : "wave and lane group")
                      : color_words(ins, spec.color, space));
    for (const std::string& fact : special_facts(ins, spec.mods, spec.operands))
        c.facts += (c.facts.empty() ? "" : "  \u00B7  ") + fact;
    return c;
}

// A fitted figure's fixed sizes, all from the smallest legible font m, and its title and subtitle
// lines wrapped to the width (a tile's title sized by the mnemonic).
void fit_header(Geometry& g, std::vector<std::string>& title_lines, std::vector<std::string>& subtitle_lines,
                const FigureSpec& spec, const std::vector<Panel>& panels, const Captions& c, bool tiled, double m) {
    const Instruction& ins = *spec.ins;
    const double W = spec.fit_width;
    g.margin = 0.8 * m;
    g.index_font = m, g.heading_font = 1.1 * m, g.subtitle_font = m, g.legend_font = m;
    // A tile's title (mnemonic and tile parameters) is sized by the mnemonic and wraps.
    const std::string sized = tiled ? (nvidia_short(ins) ? ins.short_name : ins.mnemonic) : c.title;
    g.title_font = std::max(m, std::min(1.5 * m, 1.5 * m * (W - 2 * g.margin) / (text_width(sized, 1.5 * m) * 1.12)));
    if (tiled) title_lines = wrap(c.title, g.title_font * 1.12, W - 2 * g.margin, "  \u00B7  ");
    int max_rows = 1;
    for (const Panel& p : panels) max_rows = std::max(max_rows, p.rows);
    g.panel_left = text_width(std::to_string(max_rows - 1), m) + 0.5 * m;
    // Beside a block: the next one's row indices; below it: the next one's
    // label and column indices (one gap serves both directions).
    g.block_gap = std::max(g.panel_left + 0.5 * m, 2.95 * m);
    g.panel_gap = 1.2 * m;
    g.index_dy = 0.35 * m;
    g.block_label_dy = 1.45 * m;
    g.legend_gap = 1.8 * m, g.swatch = m, g.legend_row = 1.5 * m, g.legend_indent = 0, g.min_width = 0;
    g.title_base = g.title_font;
    subtitle_lines = wrap(c.subtitle, g.subtitle_font, W - 2 * g.margin, "  \u00B7  ");
    for (const std::string& l : wrap(c.facts, g.subtitle_font, W - 2 * g.margin, "  \u00B7  "))
        subtitle_lines.push_back(l);
    g.subtitle_base =
        g.title_base + 0.4 * m + 1.2 * m + 1.2 * g.title_font * static_cast<double>(title_lines.size() - 1);
    g.header = g.subtitle_base + 1.2 * m * static_cast<double>(subtitle_lines.size() - 1) + 0.9 * m;
}

// A fitted figure's room for cells: its fixed parts at the fitted sizes, the cells across, and the
// cell width they leave.
struct FitWidth {
    double fixed = 0, cells = 0, cw = 0;
};

FitWidth fit_width(const Geometry& g, const std::vector<Panel>& panels, bool gemm, double W) {
    FitWidth w;
    w.fixed = 2 * g.margin;
    if (gemm) {
        const Panel &a = panels[0], &d = panels[2];
        w.fixed += 2 * g.panel_left + g.panel_gap + (d.block_cols - 1) * g.block_gap;
        w.cells = a.block_cols * a.cols + d.block_cols * d.cols;
    } else {
        for (const Panel& p : panels) {
            w.fixed += g.panel_left + (p.block_cols - 1) * g.block_gap;
            w.cells += p.block_cols * p.cols;
        }
        w.fixed += (panels.size() - 1) * g.panel_gap;
    }
    w.cw = std::max(0.5, (W - w.fixed) / std::max(1.0, w.cells));
    return w;
}

// Whether a register names every column (row) of a panel's blocks: if so, the panel keeps that axis
// (columns first) and says which; `max_name` grows to its widest name.
void find_register_axis(Panel& p, const Instruction& ins, double m, double& max_name, bool& rows_axis,
                        bool& cols_axis) {
    const int nb = p.layout.blocks();
    std::vector<std::vector<int>> cr(nb, std::vector<int>(p.layout.cols(), -2)),
        rr(nb, std::vector<int>(p.layout.rows(), -2));
    std::vector<std::vector<std::string>> cn(nb, std::vector<std::string>(p.layout.cols())),
        rn(nb, std::vector<std::string>(p.layout.rows()));
    for (const Entry& e : p.layout.entries()) {
        // The register (and on NVIDIA the element name) must be one per column (row).
        const std::string name = cell_label(ins, p.op, e.loc, p.layout.element_bits(), p.layout.space()).reg_bare;
        int& c = cr[e.element.block][e.element.col];
        std::string& cname = cn[e.element.block][e.element.col];
        c = (c == -2 || c == e.loc.reg) && (cname.empty() || cname == name) ? e.loc.reg : -1;
        cname = name;
        int& r = rr[e.element.block][e.element.row];
        std::string& rname = rn[e.element.block][e.element.row];
        r = (r == -2 || r == e.loc.reg) && (rname.empty() || rname == name) ? e.loc.reg : -1;
        rname = name;
        max_name = std::max(max_name, text_width(name, m));
    }
    auto uniform = [](const std::vector<std::vector<int>>& v) {
        for (const auto& b : v)
            for (int x : b)
                if (x == -1) return false;
        return true;
    };
    if (uniform(cr)) p.col_reg = cr, p.col_name = cn, cols_axis = true;
    else if (uniform(rr)) p.row_reg = rr, p.row_name = rn, rows_axis = true;
}

// Cells too small for their register: a register axis (its room taken from the cells), for panels
// whose columns or rows are one register each, unless it costs the cells too much; returns the
// cell width left.
double fit_register_axes(Geometry& g, std::vector<Panel>& panels, const Instruction& ins, bool gemm, const FitWidth& fw,
                         double W, double m) {
    double max_name = 0;
    bool rows_axis = false, cols_axis = false;
    for (Panel& p : panels) find_register_axis(p, ins, m, max_name, rows_axis, cols_axis);
    if (rows_axis) g.reg_right = max_name + 0.8 * m;
    if (cols_axis) g.reg_bottom = 1.5 * m;
    g.block_gap += std::max(g.reg_right, g.reg_bottom);
    double extra = 0;
    if (gemm) {
        extra += (panels[0].row_reg.empty() ? 0 : g.reg_right) +
                 (panels[1].row_reg.empty() && panels[2].row_reg.empty() ? 0 : g.reg_right) +
                 (panels[2].block_cols - 1) * std::max(g.reg_right, g.reg_bottom);
    } else {
        for (const Panel& p : panels)
            extra += (p.row_reg.empty() ? 0 : g.reg_right) + (p.block_cols - 1) * std::max(g.reg_right, g.reg_bottom);
    }
    const double cw_axis = std::max(0.5, (W - fw.fixed - extra) / std::max(1.0, fw.cells));
    if (cw_axis >= 0.8 * fw.cw) return cw_axis;
    // The axis would cost the cells too much (many blocks): none.
    g.block_gap -= std::max(g.reg_right, g.reg_bottom);
    g.reg_right = g.reg_bottom = 0;
    for (Panel& p : panels) p.col_reg.clear(), p.row_reg.clear(), p.col_name.clear(), p.row_name.clear();
    return fw.cw;
}

// A fitted figure's label form (the richest that fits at a font of at least m, else colours only),
// its tile font and its cell size.
void fit_labels(Figure& f, Geometry& g, TileForm& form, CellForm& cform, LabelNeeds needs, const Mode& mode,
                const CellSize& natural, double cw_fit, View view, double m) {
    const double font = Figure().tile_font, line = Figure().tile_line;
    double label_need = needs.full;
    // Tile mode: the labels without bits when the full ones do not fit (a tile
    // of one wave is drawn exactly as its instruction, labels or none).
    if (mode.tiled && mode.matrix && mode.tile_waves > 1 && font * cw_fit / label_need < m &&
        font * cw_fit / needs.short_form >= m)
        form = TileForm::Short, label_need = needs.short_form;
    // One instruction's matrix view: without the bits, then the lane alone.
    if (mode.as_instruction && mode.matrix && font * cw_fit / label_need < m) {
        if (font * cw_fit / needs.short_form >= m) cform = CellForm::Short, label_need = needs.short_form;
        else if (font * cw_fit / needs.lane >= m) cform = CellForm::Lane, label_need = needs.lane;
    }
    const double label_font = font * cw_fit / label_need;  // the tile font whose labels just fill cw_fit
    if (label_font >= m) {
        const double tf = std::min(label_font, 1.2 * m);
        f.tile_font = tf, f.tile_line = line * tf / font;
        g.cw = std::min(cw_fit, std::max(2 * label_need, natural.cw) * tf / font);
        g.ch = natural.ch * tf / font;
    } else {
        g.labels = false;
        cform = CellForm::None;
        f.tile_font = m, f.tile_line = line * m / font;  // unused, but no font below the minimum
        g.cw = cw_fit;
        g.ch = view == View::Matrix
                   ? (natural.max_locs > 1 ? 0.5 : 1.0) * cw_fit * static_cast<double>(natural.max_locs)
                   : std::min(cw_fit, 1.2 * m);
    }
}

// A fitted figure's indices (every n-th, so neighbours do not touch) and block labels ("block 15"
// where it fits over its block, else "b15", else none).
void fit_indices(Geometry& g, const std::vector<Panel>& panels, const FigureSpec& spec, const Mode& mode, double m) {
    const Instruction& ins = *spec.ins;
    int max_cols = 1;
    for (const Panel& p : panels) max_cols = std::max(max_cols, p.cols);
    std::string widest = std::to_string(max_cols - 1);
    if (spec.view != View::Matrix)
        for (const Panel& p : panels) {
            const std::string n = register_text(ins, p.op, p.cols - 1, p.layout.element_bits(), p.layout.space());
            if (text_width(n, m) > text_width(widest, m)) widest = n;
        }
    g.col_step = index_step(g.cw, text_width(widest, m) + 0.4 * m);
    g.row_step = index_step(g.ch, 1.1 * m);
    int min_cols = max_cols;
    for (const Panel& p : panels) min_cols = std::min(min_cols, p.cols);
    const bool wave_blocks = mode.tiled && !mode.matrix;
    const std::string last = std::to_string((wave_blocks ? mode.tile_waves : ins.blocks) - 1);
    // (each panel's blocks: the word where it fits, else the letter, else none;
    // a narrow panel of a GEMM picture, A of 32x32x1, may drop what D keeps)
    g.block_word =
        text_width(g.block_word + last, m) * 1.12 <= min_cols * g.cw ? g.block_word : g.block_word.substr(0, 1);
    g.block_labels = text_width(g.block_word.substr(0, 1) + last, m) * 1.12 <= max_cols * g.cw;
    if (g.block_labels && text_width(g.block_word + last, m) * 1.12 > min_cols * g.cw &&
        text_width("block " + last, m) * 1.12 <= max_cols * g.cw && g.block_word.size() == 1)
        g.block_word = wave_blocks ? (ins.vendor() == Vendor::NVIDIA ? "warp " : "wave ") : "block ";
}

// A fitted figure's panel headings, wrapped to the panel's width (A's in the GEMM picture may also
// use the gap beside it), and the panel tops they need.
void fit_panel_headings(Geometry& g, std::vector<Panel>& panels, const FigureSpec& spec, bool gemm, double m) {
    const double W = spec.fit_width;
    auto top_for = [&](double lines, bool blocks) {
        return g.heading_font + 1.25 * g.heading_font * (lines - 1) + 0.5 * m +
               (blocks && g.block_labels ? 1.3 * m : 0) + 1.2 * m;
    };
    double head_lines = 1;
    bool any_blocks = false;
    for (Panel& p : panels) {
        double room = p.width(g) - g.panel_left;
        if (gemm && p.op == Operand::A) room = p.width(g) + g.panel_gap * 0.5;
        if (gemm && p.op == Operand::D) room = W - g.margin - (g.margin + panels[0].width(g) + g.panel_gap);
        if (!gemm && panels.size() == 1) room = W - 2 * g.margin;
        // Bold runs about 12 % wider than the regular estimate. A heading
        // that needs more than two lines drops its axis words (the row and
        // column indices and the operand title say the same).
        const std::string full = p.heading.front();
        p.heading = wrap(full, g.heading_font * 1.12, std::max(room, 4 * m), "  ");
        if (p.heading.size() > 2 && full.find("  (") != std::string::npos)
            p.heading = wrap(full.substr(0, full.rfind("  (")), g.heading_font * 1.12, std::max(room, 4 * m), "  ");
        if (p.heading.size() > 2)  // a narrow panel: operand and type only
            p.heading = wrap(std::string(operand_name(p.op)) + "  " + type_words(*spec.ins, p.op, spec.mods, true),
                             g.heading_font * 1.12, std::max(room, 4 * m), "  ");
        any_blocks = any_blocks || p.block_at.size() > 1;
        // B heads its own row of the GEMM picture; A and D share theirs.
        if (gemm && p.op == Operand::B) {
            p.top = top_for(static_cast<double>(p.heading.size()), p.block_at.size() > 1);
            continue;
        }
        head_lines = std::max(head_lines, static_cast<double>(p.heading.size()));
    }
    g.heading_base = g.heading_font;
    g.panel_top = top_for(head_lines, any_blocks);
}

// Where each panel lies: the GEMM picture (B above D, A left of D), else a row, wgmma's with a frame
// where B would be (B lives in shared memory); grows the content's extent.
void place_panels(Figure& f, std::vector<Panel>& panels, const Geometry& g, const Instruction& ins, const Mode& mode,
                  const ThemeColors& tc, double& content_w, double& content_h) {
    const double header = g.margin + g.header;
    const double cw = g.cw, ch = g.ch;
    if (mode.gemm) {
        Panel &a = panels[0], &b = panels[1], &d = panels[2];
        const double aw = a.width(g), bh = b.height(g);
        a.x = g.margin, a.y = header + bh + g.panel_gap;
        b.x = g.margin + aw + g.panel_gap, b.y = header;
        d.x = b.x, d.y = a.y;
        content_w = std::max(d.x + d.width(g), b.x + b.width(g));
        content_h = std::max(a.y + a.height(g), d.y + d.height(g));
        return;
    }
    // wgmma's GEMM picture: B lives in shared memory, so where the GEMM
    // arrangement puts B (above D) a frame of B's K x N says so.
    const bool wgmma_b = ins.kind == LayoutKind::Wgmma && mode.matrix && !mode.tiled && panels.size() == 2 &&
                         panels[0].op == Operand::A && panels[1].op == Operand::D;
    std::vector<std::string> b_head;
    double b_top = 0;
    if (wgmma_b) {
        const std::string text = "B (K x N)  " + std::string(elem_name(ins.b)) +
                                 ": in shared memory, read through a matrix descriptor (no register fragment)";
        const double room = panels[1].width(g) - g.panel_left;
        b_head = mode.fit ? wrap(text, g.heading_font * 1.12, std::max(room, 4 * g.index_font), "  ")
                          : std::vector<std::string>{text};
        b_top = g.heading_font * 1.25 * static_cast<double>(b_head.size()) + 0.6 * g.index_font;
    }
    const double b_h = wgmma_b ? b_top + ins.k * ch + g.panel_gap : 0;
    double x = g.margin;
    for (Panel& p : panels) {
        p.x = x, p.y = header + b_h;
        x += p.width(g) + g.panel_gap;
        content_w = std::max(content_w, p.x + p.width(g));
        content_h = std::max(content_h, p.y + p.height(g));
    }
    if (wgmma_b) {
        const Panel& d = panels[1];
        const double bx = d.x + g.panel_left, by = header + b_top, w = d.cols * cw, h = ins.k * ch;
        for (size_t n = 0; n < b_head.size(); ++n) {
            f.texts.push_back({d.x, header + g.heading_font * (1 + 1.25 * static_cast<double>(n)), b_head[n],
                               g.heading_font, Anchor::Start, true, tc.text});
            content_w = std::max(content_w, d.x + text_width(b_head[n], g.heading_font) * 1.12);
        }
        f.boxes.push_back({bx, by, w, h, tc.background, true, tc.muted, 1.0});
        const std::string note = std::to_string(ins.k) + " x " + std::to_string(ins.n) + " in shared memory";
        if (text_width(note, g.index_font) < w && h > 1.5 * g.index_font)
            f.texts.push_back(
                {bx + w / 2, by + h / 2 + 0.35 * g.index_font, note, g.index_font, Anchor::Middle, false, tc.muted});
    }
}

// How a panel's cells are drawn: the label forms chosen, each cell's colour, the theme.
struct CellStyle {
    TileForm form;
    CellForm cform;
    const CellColor& color;
    const ThemeColors& tc;
};

// A location in full, as a hover text: "v3[15:0] L17" (a tile's adds its wave).
std::string full_location(const FigureSpec& spec, const Panel& p, const Mode& mode, int wave, const Location& loc) {
    const OperandLayout& L = p.layout;
    return joined(mode.as_instruction ? cell_lines(spec, p.op, loc, L.element_bits(), CellForm::Full, L.space())
                                      : tile_cell_lines(*spec.ins, p.op, wave, mode.tile_waves, loc, L.element_bits(),
                                                        TileForm::Full, L.space()));
}

// A block's label over it: the word where it fits over the block, else its letter, else none.
void draw_block_label(Figure& f, const Panel& p, const Geometry& g, int b, double bx, double by, bool fit,
                      const ThemeColors& tc) {
    const double cw = g.cw;
    std::string label = g.block_word + std::to_string(b);
    if (fit && text_width(label, g.index_font) * 1.12 > p.cols * cw)
        label = g.block_word.substr(0, 1) + std::to_string(b);
    if (!fit || text_width(label, g.index_font) * 1.12 <= p.cols * cw)
        f.texts.push_back({bx, by - g.block_label_dy, label, g.index_font, Anchor::Start, true, tc.muted});
    else if (text_width(label, g.index_font) * 1.12 <= p.cols * cw + g.panel_left)
        // A narrow block (A of 32x32x1): the letter may use the row indices' room beside it.
        f.texts.push_back({bx + p.cols * cw, by - g.block_label_dy, label, g.index_font, Anchor::End, true, tc.muted});
}

// The matrix view's cells of block b: a tile per (wave, location) of each element, slices one under
// the other; an element no lane holds is an empty box.
void draw_matrix_cells(Figure& f, const Panel& p, int b, double bx, double by, const FigureSpec& spec,
                       const Geometry& g, const Mode& mode, const CellStyle& st) {
    const OperandLayout& L = p.layout;
    const std::string opn(operand_name(p.op));
    const double cw = g.cw, ch = g.ch;
    const size_t first_tile = f.tiles.size();
    for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c) {
            const Element e{b, r + p.row0, c + p.col0};
            const std::vector<TileLocation> locs = cell_locs(p, e);
            const double x = bx + c * cw, y = by + r * ch;
            if (locs.empty()) {
                f.boxes.push_back(empty_cell(x, y, cw, ch, st.tc));
                continue;
            }
            const double h = ch / static_cast<double>(locs.size());
            for (size_t n = 0; n < locs.size(); ++n) {
                Tile t;
                t.x = x, t.y = y + n * h, t.w = cw, t.h = h;
                t.fill = st.color(e, locs[n], L.space());
                t.ink = text_on(t.fill);
                t.ref = opn + "." + std::to_string(b) + "." + std::to_string(e.row) + "." + std::to_string(e.col) +
                        "." + std::to_string(n);
                if (spec.hover_titles)
                    t.hover = element_label(p.op, e, L.blocks()) + ": " +
                              full_location(spec, p, mode, locs[n].wave, locs[n].loc);
                if (mode.tiled && st.form == TileForm::None) {  // anonymous: colours only
                    f.tiles.push_back(std::move(t));
                    continue;
                }
                t.id = t.ref;
                if (mode.as_instruction && g.labels)
                    t.lines = cell_lines(spec, p.op, locs[n].loc, L.element_bits(), st.cform, L.space());
                else if (mode.tiled && g.labels)
                    t.lines = tile_cell_lines(*spec.ins, p.op, locs[n].wave, mode.tile_waves, locs[n].loc,
                                              L.element_bits(), st.form, L.space());
                f.tiles.push_back(std::move(t));
            }
        }
    // Anonymous tiles in reading order (the n-th slices of a row of
    // cells side by side), so the formats merge runs of one colour.
    if (mode.tiled && st.form == TileForm::None)
        std::stable_sort(f.tiles.begin() + static_cast<std::ptrdiff_t>(first_tile), f.tiles.end(),
                         [](const Tile& a, const Tile& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
}

// The registers view's cells of block b (wave b of a tile): a tile per element part of each
// register of each lane, side by side; an empty slot is an empty box.
void draw_register_cells(Figure& f, const Panel& p, int b, double bx, double by, const FigureSpec& spec,
                         const Geometry& g, const Mode& mode, const CellStyle& st) {
    const OperandLayout& L = p.layout;
    const std::string opn(operand_name(p.op));
    const double cw = g.cw, ch = g.ch;
    for (int lane = 0; lane < p.rows; ++lane)
        for (int reg = 0; reg < p.cols; ++reg) {
            const std::vector<SlotPart> parts = parts_of(p, b, reg, lane);
            const double x = bx + reg * cw, y = by + lane * ch;
            if (parts.empty()) {
                f.boxes.push_back(empty_cell(x, y, cw, ch, st.tc));
                continue;
            }
            const double w = cw / static_cast<double>(parts.size());
            for (size_t n = 0; n < parts.size(); ++n) {
                const SlotPart& s = parts[n];
                Tile t;
                t.x = x + n * w, t.y = y, t.w = w, t.h = ch;
                t.fill = st.color(s.element, TileLocation{b, Location{reg, lane, s.bit_lo, s.bit_hi}}, L.space());
                t.ink = text_on(t.fill);
                t.ref = opn + (mode.tile_waves > 1 ? ".w" + std::to_string(b) : std::string()) + ".v" +
                        std::to_string(reg) + ".l" + std::to_string(lane) + "." + std::to_string(n);
                if (spec.hover_titles)
                    t.hover = full_location(spec, p, mode, b, Location{reg, lane, s.bit_lo, s.bit_hi}) + ": " +
                              element_label(p.op, s.element, L.blocks());
                if (mode.tiled && st.form == TileForm::None) {  // anonymous: colours only
                    f.tiles.push_back(std::move(t));
                    continue;
                }
                t.id = t.ref;
                if (g.labels) {
                    t.lines.push_back(element_label(p.op, s.element, L.blocks()));
                    if (s.bit_lo != 0 || s.bit_hi != 31) t.lines.push_back(bits_words(s.bit_lo, s.bit_hi));
                }
                f.tiles.push_back(std::move(t));
            }
        }
}

// The register axis: "v3" under each run of columns (beside each run of rows) of one register.
// Where not every run's name fits, every n-th run is named (n a power of two, the smallest whose
// names do not touch), so the names read at a regular step in the layout's own order; a tick marks
// every run's end.
void draw_register_runs(Figure& f, const std::vector<int>& regs, const std::vector<std::string>& names, bool cols_run,
                        const Panel& p, double bx, double by, const Geometry& g, const ThemeColors& tc) {
    const double cw = g.cw, ch = g.ch;
    const double cell = cols_run ? cw : ch;
    struct Run {
        size_t from, to;
    };
    std::vector<Run> runs;
    for (size_t i = 0; i < regs.size();) {
        size_t j = i;
        while (j < regs.size() && regs[j] == regs[i] && names[j] == names[i]) ++j;
        runs.push_back({i, j});
        i = j;
    }
    auto need = [&](const Run& r) {
        return cols_run ? text_width(names[r.from], g.index_font) + 0.4 * g.index_font : 1.1 * g.index_font;
    };
    auto mid = [&](const Run& r) { return (static_cast<double>(r.from + r.to) / 2) * cell; };
    size_t step = 1;
    for (; step < runs.size(); step *= 2) {
        bool fits = true;
        for (size_t n = step; n < runs.size() && fits; n += step)
            fits = mid(runs[n]) - mid(runs[n - step]) >= (need(runs[n]) + need(runs[n - step])) / 2;
        if (fits) break;
    }
    for (size_t n = 0; n < runs.size(); ++n) {
        const Run& r = runs[n];
        if (n % step == 0 && regs[r.from] >= 0) {
            const std::string& label = names[r.from];
            if (cols_run)
                f.texts.push_back({bx + mid(r), by + p.rows * ch + 1.1 * g.index_font, label, g.index_font,
                                   Anchor::Middle, false, tc.muted});
            else
                f.texts.push_back({bx + p.cols * cw + 0.4 * g.index_font, by + mid(r) + 0.35 * g.index_font, label,
                                   g.index_font, Anchor::Start, false, tc.muted});
        }
        if (r.to < regs.size() && cols_run)  // a tick between runs
            f.lines.push_back({bx + r.to * cw, by + p.rows * ch, bx + r.to * cw, by + p.rows * ch + 0.4 * g.index_font,
                               tc.muted, 0.5});
        else if (r.to < regs.size())
            f.lines.push_back({bx + p.cols * cw, by + r.to * ch, bx + p.cols * cw + 0.3 * g.index_font, by + r.to * ch,
                               tc.muted, 0.5});
    }
}

// A block's lines: sparse A's 4-k groups, a tile's instruction tiles and sub-tile groups inside it,
// and its frame, their widths following the cell size in a fitted figure.
void draw_block_lines(Figure& f, const Panel& p, double bx, double by, const Instruction& ins, const Geometry& g,
                      const Mode& mode, const ThemeColors& tc) {
    const OperandLayout& L = p.layout;
    const double cw = g.cw, ch = g.ch;
    // Sparse A and its index in dense coordinates: a line between the
    // 4-k groups whose two stored values share one slot.
    if (ins.sparse() && mode.matrix && !p.tile && (p.op == Operand::A || p.op == Operand::K))
        for (int c = first_boundary(p.col0, 4); c < p.cols; c += 4)
            f.lines.push_back(
                {bx + c * cw, by, bx + c * cw, by + p.rows * ch, tc.text, mode.fit ? std::max(0.4, cw / 12) : 1.0});
    // Block frame: the separators between blocks.
    const double x2 = bx + p.cols * cw, y2 = by + p.rows * ch;
    const double fw = mode.fit ? std::min(1.5, std::max(0.6, cw / 6)) : 1.5;
    if (p.tile && !mode.matrix)  // the instruction's copies (sub-tiles, K steps, repetitions) along the registers
        for (int c = L.regs(); c < p.cols; c += L.regs())
            f.lines.push_back({bx + c * cw, by, bx + c * cw, y2, tc.text, std::max(0.25, 0.3 * fw)});
    if (p.tile && mode.matrix) {
        // Inside a tile: the instruction tiles (thin), the waves' sub-tile groups
        // (medium) and the repetitions of the wave grid's tile (as the frame).
        const TileParams& tp = p.tile->params();
        const int r0 = L.rows(), c0 = L.cols();
        auto frame_width = [&](int at, int unit, int per_wave, int per_grid) {
            if (per_grid > 0 && at % (unit * per_grid) == 0) return fw;
            if (per_wave > 0 && at % (unit * per_wave) == 0) return std::max(0.5, 0.6 * fw);
            return std::max(0.25, 0.3 * fw);
        };
        for (int r = first_boundary(p.row0, r0); r < p.rows; r += r0) {
            const double w = rows_are_k(p.op) ? std::max(0.25, 0.3 * fw)
                                              : frame_width(r + p.row0, r0, tp.tiles_m, tp.tiles_m * tp.waves_m);
            f.lines.push_back({bx, by + r * ch, x2, by + r * ch, tc.text, w});
        }
        for (int c = first_boundary(p.col0, c0); c < p.cols; c += c0) {
            const double w = cols_are_k(p.op) ? std::max(0.25, 0.3 * fw)
                                              : frame_width(c + p.col0, c0, tp.tiles_n, tp.tiles_n * tp.waves_n);
            f.lines.push_back({bx + c * cw, by, bx + c * cw, y2, tc.text, w});
        }
    }
    f.lines.push_back({bx, by, x2, by, tc.text, fw});
    f.lines.push_back({x2, by, x2, y2, tc.text, fw});
    f.lines.push_back({x2, y2, bx, y2, tc.text, fw});
    f.lines.push_back({bx, y2, bx, by, tc.text, fw});
}

// One panel: its heading, then each block's label, indices, cells, register axes and lines.
void draw_panel(Figure& f, const Panel& p, const FigureSpec& spec, const Geometry& g, const Mode& mode,
                const CellStyle& st, double& content_w) {
    const Instruction& ins = *spec.ins;
    const OperandLayout& L = p.layout;
    const ThemeColors& tc = st.tc;
    const double cw = g.cw, ch = g.ch;
    for (size_t n = 0; n < p.heading.size(); ++n) {
        f.texts.push_back({p.x, p.y + g.heading_base + 1.25 * g.heading_font * static_cast<double>(n), p.heading[n],
                           g.heading_font, Anchor::Start, true, tc.text});
        if (mode.fit) content_w = std::max(content_w, p.x + text_width(p.heading[n], g.heading_font) * 1.12);
    }
    const int nb = static_cast<int>(p.block_at.size());
    for (int b = 0; b < nb; ++b) {
        const double bx = p.x + g.panel_left + p.block_at[b].first * (p.cols * cw + g.block_gap);
        const double by = p.y + p.panel_top(g) + p.block_at[b].second * (p.rows * ch + g.block_gap);
        if (nb > 1 && g.block_labels) draw_block_label(f, p, g, b, bx, by, mode.fit, tc);
        for (int c = 0; c < p.cols; c += g.col_step)
            f.texts.push_back({bx + (c + 0.5) * cw, by - g.index_dy,
                               spec.view == View::Matrix ? std::to_string(c + p.col0)
                                                         : register_text(ins, p.op, c, L.element_bits(), L.space()),
                               g.index_font, Anchor::Middle, false, tc.muted});
        for (int r = 0; r < p.rows; r += g.row_step)
            f.texts.push_back({bx - 0.375 * g.index_font, by + (r + 0.5) * ch + g.index_font * 0.35,
                               std::to_string(r + p.row0), g.index_font, Anchor::End, false, tc.muted});
        if (spec.view == View::Matrix) draw_matrix_cells(f, p, b, bx, by, spec, g, mode, st);
        else draw_register_cells(f, p, b, bx, by, spec, g, mode, st);
        if (spec.view == View::Matrix && !p.col_reg.empty())
            draw_register_runs(f, p.col_reg[b], p.col_name[b], true, p, bx, by, g, tc);
        if (spec.view == View::Matrix && !p.row_reg.empty())
            draw_register_runs(f, p.row_reg[b], p.row_name[b], false, p, bx, by, g, tc);
        draw_block_lines(f, p, bx, by, ins, g, mode, tc);
    }
}

// The title and subtitle lines at the top; grows the content's width.
void draw_heading(Figure& f, const Geometry& g, const std::vector<std::string>& title_lines,
                  const std::vector<std::string>& subtitle_lines, const ThemeColors& tc, double& content_w) {
    for (size_t n = 0; n < title_lines.size(); ++n)
        f.texts.push_back({g.margin, g.margin + g.title_base + 1.2 * g.title_font * static_cast<double>(n), title_lines[n],
                           g.title_font, Anchor::Start, true, tc.text});
    for (size_t n = 0; n < subtitle_lines.size(); ++n)
        f.texts.push_back({g.margin, g.margin + g.subtitle_base + 1.2 * g.subtitle_font * static_cast<double>(n),
                           subtitle_lines[n], g.subtitle_font, Anchor::Start, false, tc.muted});
    for (const std::string& s : title_lines) content_w = std::max(content_w, g.margin + text_width(s, g.title_font) * 1.12);
    for (const std::string& s : subtitle_lines) content_w = std::max(content_w, g.margin + text_width(s, g.subtitle_font));
}

// How many colour classes the legend shows: lane groups (TMEM's 4 quarters, a shared-memory line's 8
// chunks), registers or blocks.
int legend_classes(const FigureSpec& spec, const std::vector<Panel>& panels, Space legend_space, bool tiled) {
    const Instruction& ins = *spec.ins;
    int classes = 0;
    switch (spec.color) {
        case ColorBy::Lane:
            classes = legend_space == Space::TensorMemory ? 4
                      : legend_space == Space::SharedMemory ? 8
                                                            : lane_groups(ins, drawn_lanes(panels, spec.mods.wave));
            break;
        case ColorBy::Register:
            for (const Panel& p : panels) classes = std::max(classes, p.layout.regs());
            break;
        case ColorBy::Block: classes = ins.blocks; break;
    }
    for (const Panel& p : tiled && spec.color == ColorBy::Register ? panels : std::vector<Panel>{})
        classes = std::max(classes, p.tile->regs());
    return classes;
}

// A tile of several waves coloured by lane: a hue per wave (wave 0's lane groups as its shades),
// then the shades, and the legend's title.
void wave_legend(Figure& f, const FigureSpec& spec, const Panel& first, int tile_waves, int groups) {
    const Instruction& ins = *spec.ins;
    const TileParams& tp = first.tile->params();
    const std::string noun = ins.vendor() == Vendor::NVIDIA ? "warp" : "wave";
    for (int w = 0; w < std::min(tile_waves, 16); ++w) {
        std::string label;
        for (int v = w; v < tile_waves; v += 16)
            label += (label.empty() ? noun + " " : ", ") + std::to_string(v) + " (" + std::to_string(v / tp.waves_n) +
                     "," + std::to_string(v % tp.waves_n) + ")";
        f.legend.push_back({wave_color(w, 0, groups, spec.theme), label});
    }
    for (int lg = 0; lg < groups && groups > 1; ++lg)
        f.legend.push_back({wave_color(0, lg, groups, spec.theme), legend_label(ins, ColorBy::Lane, lg)});
    f.legend_title = "Colour by " + noun + " (wm,wn), shade by lane group:";
}

// The legend's title of a figure coloured by class: what the cell text and register axis say, when
// not the full label, then what the colours (and shades) mean.
std::string class_legend_title(const FigureSpec& spec, const std::vector<Panel>& panels, bool cell_text, CellForm cform,
                               bool register_axis, Space legend_space, bool shade_lanes) {
    const Instruction& ins = *spec.ins;
    const bool nvidia = ins.vendor() == Vendor::NVIDIA;
    return std::string(cell_text && cform == CellForm::Lane ? (nvidia ? "Cell text: thread. " : "Cell text: lane. ")
                                                            : "") +
           (cell_text && cform == CellForm::Short
                ? (nvidia ? "Cell text: PTX element, thread. " : "Cell text: register, lane. ")
                : "") +
           (cell_text && cform == CellForm::Short &&
                    std::any_of(panels.begin(), panels.end(), [](const Panel& p) { return p.op == Operand::K; })
                ? std::string(nvidia ? "e.n5" : "v0.n5") + ": the index field in bits [23:20] (nibble 5). "
                : std::string()) +
           (register_axis
                ? (legend_space == Space::TensorMemory
                       ? std::string("c7 by a run of cells: the TMEM column holding it. ")
                   : nvidia ? std::string("a1 by a run of cells: PTX's name of the fragment element holding it. ")
                            : "v3 by a run of cells: the VGPR holding it. ")
                : std::string()) +
           "Colour by " + color_words(ins, spec.color, legend_space) +
           (shade_lanes ? shade_words(ins, legend_space) : "") + ":";
}

// The legend drawn under the content: its title (a fitted figure wraps one wider than itself, at
// its sentences, then words), then the swatches, wrapping to the width; returns the last row's top.
double draw_legend(Figure& f, const Geometry& g, const FigureSpec& spec, bool fit, const ThemeColors& tc,
                   double& content_w, double content_h) {
    const double lf = g.legend_font, sw = g.swatch;
    const double legend_w = (fit ? spec.fit_width : std::max(content_w, g.min_width)) - g.margin;
    double lx = g.margin, ly = content_h + g.legend_gap;
    const std::vector<std::string> legend_lines =
        fit && text_width(f.legend_title, lf) * 1.12 > legend_w - g.margin ? wrap(f.legend_title, lf * 1.12, legend_w - g.margin, ". ")
                                                                         : std::vector<std::string>{f.legend_title};
    for (size_t n = 0; n < legend_lines.size(); ++n) {
        if (n > 0) ly += g.legend_row;
        std::string line = legend_lines[n];
        if (n + 1 < legend_lines.size() && !line.empty() && line.back() != '.') line += ".";  // the sentence's own stop
        f.texts.push_back({lx, ly + sw - 0.2 * lf, line, lf, Anchor::Start, true, tc.text});
    }
    lx += text_width(legend_lines.back(), lf) * 1.12 + 1.4 * lf;  // bold runs wider than the regular estimate
    for (const LegendEntry& e : f.legend) {
        const double w = sw + 0.4 * lf + text_width(e.label, lf) + 1.4 * lf;
        if (lx + w > legend_w && lx > g.margin + g.legend_indent) lx = g.margin + g.legend_indent, ly += g.legend_row;
        f.boxes.push_back({lx, ly, sw, sw, e.color, true, tc.grid, 0.5});
        f.texts.push_back({lx + sw + 0.4 * lf, ly + sw - 0.2 * lf, e.label, lf, Anchor::Start, false, tc.text});
        if (fit) content_w = std::max(content_w, lx + w - 1.4 * lf);
        lx += w;
    }
    return ly;
}

}  // namespace

std::string legend_label(const Instruction& ins, ColorBy by, int index, Space space) {
    switch (by) {
        case ColorBy::Lane: return lane_group_text(ins, space, index);  // core's: "lanes 0–15", "groupID 3 (T12–15)"
        case ColorBy::Register: return ins.vendor() == Vendor::NVIDIA ? "register " + std::to_string(index) : "v" + std::to_string(index);
        case ColorBy::Block: return "block " + std::to_string(index);
    }
    return "";
}

Figure build_figure_laid_out(const FigureSpec& spec, bool wrap_scale_rows) {
    if (!spec.ins || !spec.target) throw Error("build_figure: no instruction or target given");
    if (spec.operands.empty()) throw Error("build_figure: no operand given");
    const Instruction& ins = *spec.ins;
    const ThemeColors tc = theme_colors(spec.theme);
    Figure f;
    f.hover_titles = spec.hover_titles;
    f.background = tc.background;
    f.tile_stroke = tc.grid;
    const double font = f.tile_font, line = f.tile_line;

    Mode mode;
    mode.tiled = spec.tile.has_value();
    mode.matrix = spec.view == View::Matrix;
    if (mode.tiled && spec.color == ColorBy::Block)
        throw Error("a tile has one block, so colour by block says nothing; legal with tile options: lane (wave and lane "
                    "group), register");
    // A GEMM picture (A, B, D) of a scaled instruction may add SA and SB: they
    // take a row of their own under it, drawn at a legible size (below).
    std::vector<Operand> gemm_ops = spec.operands;
    const std::vector<Operand> scale_ops = split_scale_operands(spec, mode.tiled, mode.matrix, gemm_ops);
    std::vector<Panel> panels = make_panels(spec, gemm_ops, mode.tiled);
    mode.tile_waves = mode.tiled ? panels.front().tile->waves() : 1;
    // A tile of one wave and one step per operand is its instruction: drawn
    // exactly as the instruction's figure, only the title says more. Bigger
    // tiles drawn as colours only have anonymous cells (no per-cell text).
    bool repeated = mode.tile_waves > 1;
    for (const Panel& p : panels) repeated = repeated || (p.tile && p.tile->steps() > 1);
    mode.as_instruction = !mode.tiled || !repeated;
    TileForm form = TileForm::Full;  // tile mode's label form
    CellForm cform = CellForm::Full;  // one instruction's matrix view
    mode.gemm = spec.view == View::Matrix && panels.size() == 3 && panels[0].op == Operand::A &&
                panels[1].op == Operand::B && panels[2].op == Operand::D;

    Geometry g;
    if (mode.tiled && !mode.matrix)
        g.block_word = ins.vendor() == Vendor::NVIDIA ? "warp " : "wave ";  // a block per wave
    const CellSize natural = natural_cell(spec, panels, mode, font, line);
    g.cw = natural.cw, g.ch = natural.ch;
    const LabelNeeds needs = label_needs(spec, panels, mode, font);
    place_blocks(panels, spec, mode);
    set_headings(panels, spec, mode.matrix);
    apply_crop(panels, spec);

    // Heading texts, wrapped in a fitted figure.
    const int wave = spec.mods.wave;
    const Space space = panels_space(panels);
    const Captions captions = figure_captions(spec, panels, scale_ops, mode, space);
    f.title = captions.title;
    f.subtitle = captions.subtitle;
    // The special facts and the confidence: a line of their own under the subtitle.
    std::vector<std::string> subtitle_lines{f.subtitle, captions.facts};
    g.header += 1.2 * g.subtitle_font;
    std::vector<std::string> title_lines{f.title};

    mode.fit = spec.fit_width > 0;
    if (mode.fit) {
        // Every size follows from the smallest legible font m; the cells take
        // what is left of the width, and a tile label is drawn only when it fits
        // its cell at a font of at least m.
        const double m = spec.min_font > 0 ? spec.min_font : 10;
        fit_header(g, title_lines, subtitle_lines, spec, panels, captions, mode.tiled, m);
        const FitWidth fw = fit_width(g, panels, mode.gemm, spec.fit_width);
        double cw_fit = fw.cw;
        if (mode.as_instruction && mode.matrix && font * cw_fit / needs.short_form < m)
            cw_fit = fit_register_axes(g, panels, ins, mode.gemm, fw, spec.fit_width, m);
        fit_labels(f, g, form, cform, needs, mode, natural, cw_fit, spec.view, m);
        fit_indices(g, panels, spec, mode, m);
        fit_panel_headings(g, panels, spec, mode.gemm, m);
    }
    const double cw = g.cw, ch = g.ch;
    crop_register_axes(panels);
    if (mode.tiled && repeated && !g.labels) form = TileForm::None;
    // Colours-only tile figures outline their cells only where a cell is big
    // enough for the outline not to hide its colour.
    if (mode.tiled && repeated && !g.labels)
        f.tile_grid = std::min(cw, ch / static_cast<double>(natural.max_locs)) >= 4;
    // Fitted instruction figures likewise: a grid over cells under 4 units would hide their colour.
    if (mode.fit && mode.as_instruction && !g.labels)
        f.tile_grid = std::min(cw, ch / static_cast<double>(natural.max_locs)) >= 4;
    const int groups = lane_groups(ins, wave);
    // One instruction coloured by lane: core's lane_color, the group's hue
    // shaded per lane within it (AMD: by lane; NVIDIA mma: by threadID_in_group;
    // wgmma: by groupID within the warp), as the app draws it. (The registers
    // view has a row per lane: its lane groups keep their flat hue.)
    const bool shade_lanes = spec.color == ColorBy::Lane && mode.as_instruction && mode.matrix;
    const CellColor cell_color = [&](const Element& e, const TileLocation& at, Space s) {
        // TMEM by lane quarter, shared memory by 16-byte chunk (core's location_color).
        if (s != Space::Registers && spec.color == ColorBy::Lane) return location_color(ins, s, at.loc, spec.theme);
        if (mode.tiled && spec.color == ColorBy::Lane && mode.tile_waves > 1)
            return wave_color(at.wave, lane_group(ins, at.loc.lane), groups, spec.theme);
        return shade_lanes ? lane_color(ins, at.loc.lane, spec.theme) : tile_color(ins, spec.color, e, at.loc, spec.theme);
    };

    double content_w = 0, content_h = 0;
    place_panels(f, panels, g, ins, mode, tc, content_w, content_h);
    const CellStyle style{form, cform, cell_color, tc};
    for (const Panel& p : panels) draw_panel(f, p, spec, g, mode, style, content_w);
    draw_heading(f, g, title_lines, subtitle_lines, tc, content_w);

    // The scale operands of a scaled GEMM picture: rows of their own under it (draw_scale_panels).
    if (!scale_ops.empty())
        draw_scale_panels(f, spec, scale_ops, g, mode.fit, tc, cell_color, content_w, content_h, wrap_scale_rows);

    // Legend: one swatch per colour class shown.
    // Panels all in one space other than registers (TMEM D, shared-memory B): its colour classes
    // (core's location_color: 4 TMEM lane quarters, 8 chunks of a shared-memory line).
    const Space legend_space = space;
    const int classes = legend_classes(spec, panels, legend_space, mode.tiled);
    const int distinct = std::min(classes, categorical_count());
    if (mode.tiled && spec.color == ColorBy::Lane && mode.tile_waves > 1) {
        wave_legend(f, spec, panels.front(), mode.tile_waves, groups);
    } else {
        for (int i = 0; i < distinct; ++i) {
            std::string label;
            for (int j = i; j < classes; j += categorical_count())
                label += (label.empty() ? "" : ", ") + group_legend_label(spec, panels, j, legend_space);
            f.legend.push_back({categorical(i, spec.theme), label});
        }
        f.legend_title = class_legend_title(spec, panels, mode.matrix && mode.as_instruction, cform,
                                            g.reg_right > 0 || g.reg_bottom > 0, legend_space, shade_lanes);
    }
    const double ly = draw_legend(f, g, spec, mode.fit, tc, content_w, content_h);
    f.width = std::ceil(std::max(content_w, g.min_width) + g.margin);
    f.height = std::ceil(ly + g.swatch + g.margin);
    apply_highlight(f, spec, drawn_operands(panels, scale_ops, spec));
    return f;
}

double pt_per_unit(FigureFormat format) { return format == FigureFormat::Tikz ? 0.5 : 0.75; }

double parse_width_pt(const std::string& s) {
    if (s == "natural") return 0;
    if (s == "column") return 240;
    if (s == "page") return 500;
    const std::pair<const char*, double> units[] = {{"pt", 1.0}, {"bp", 72.27 / 72}, {"in", 72.27}, {"cm", 72.27 / 2.54},
                                                    {"mm", 72.27 / 25.4}, {"px", 0.75}};
    for (const auto& [unit, pt] : units) {
        const std::string u(unit);
        if (s.size() <= u.size() || s.compare(s.size() - u.size(), u.size(), u) != 0) continue;
        const std::string number = s.substr(0, s.size() - u.size());
        char* end = nullptr;
        const double v = std::strtod(number.c_str(), &end);
        if (end && end != number.c_str() && *end == '\0' && v * pt <= 20000 && v * pt >= 50) return v * pt;
        break;
    }
    throw Error("bad width '" + s + "'; legal: natural, column (240pt), page (500pt), or a length of at least 50pt such as "
                "246pt, 3.4in, 8.5cm, 85mm, 328px");
}

double parse_font_pt(const std::string& s) {
    std::string number = s;
    if (number.size() > 2 && number.compare(number.size() - 2, 2, "pt") == 0) number.resize(number.size() - 2);
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (number.empty() || !end || *end != '\0' || !(v >= 3 && v <= 30))
        throw Error("bad font size '" + s + "'; legal: 3pt to 30pt, e.g. 5pt");
    return v;
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
