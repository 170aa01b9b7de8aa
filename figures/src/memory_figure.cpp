// The memory view as a figure: an operand's tile in memory coloured
// by the lane that reads each element, each lane's accesses framed, and the
// LDS banks of one wave-level instruction. Built as the same figure model as
// the layout figures, so SVG, TikZ and PNG show the same thing.
#include "figure_util.hpp"
#include "lanescope/figures.hpp"
#include "lanescope/transpose.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace lanescope::figures {

namespace {

// One slice of a memory cell: the lane whose access reads it, that access's
// issue index, and the lane that receives the element (differs for transpose loads).
struct Reader {
    int lane = 0, issue = 0, receiver = 0;
};

enum class LabelForm { Full, Short, None };  // "L17" over "i0"; "L17"; colours only

// One plan drawn: a memory grid and its bank strip (or coalescing caption).
struct MemoryPanel {
    std::string key;                   // id prefix: "plain", "tr", "store"
    std::vector<std::string> heading;  // lines
    MemoryPlan plan;
    bool transposed = false;
    std::vector<std::vector<Reader>> cells;  // lines * line_len, memory order
    const BankReport* banks = nullptr;       // the chosen issue's (LDS)
    const CoalescingReport* coalescing = nullptr;
    std::vector<std::string> caption;        // lines
    // Bank strip: per pass, per bank, the lanes hitting it (a lane once per bank)
    // and the distinct dwords the bank must supply.
    std::vector<std::vector<std::vector<int>>> hits;
    std::vector<std::vector<int>> dwords;
    int max_hits = 1;
    double x = 0, y = 0, w = 0;
};

// A lane as core's cell_label names it: "L17" (AMD), "T17" (NVIDIA).
std::string lane_text(const Instruction& ins, Operand op, int lane) { return cell_label(ins, op, Location{0, lane, 0, 31}, 32).lane; }

std::vector<std::string> cell_lines(const Instruction& ins, Operand op, const Reader& r, bool transposed, LabelForm form) {
    if (form == LabelForm::None) return {};
    std::vector<std::string> lines{lane_text(ins, op, r.lane)};
    if (form == LabelForm::Full)
        lines.push_back("i" + std::to_string(r.issue) + (transposed ? "\u2192" + lane_text(ins, op, r.receiver) : ""));
    return lines;
}

std::string plan_words(const MemoryPlan& p, bool nvidia) {
    std::map<std::string, int> count;  // mnemonic -> wave-level instructions
    std::set<std::pair<std::string, int>> seen;
    for (const MemoryOp& op : p.ops)
        if (op.wave == 0 && seen.insert({op.mnemonic, op.issue}).second) ++count[op.mnemonic];
    std::string s;
    for (const auto& [m, n] : count) s += (s.empty() ? "" : ", ") + std::to_string(n) + " x " + m;
    return s + (nvidia ? " per warp" : " per wave");
}

// What every part of a memory figure draws from: the instruction and operand, the tile in memory
// (its lines of line_len elements), the banks, the issue drawn in full.
struct MemoryContext {
    const Instruction& ins;
    Operand op;
    const MemoryTile& tile;
    const BankModel& model;
    int lines = 0, line_len = 0, issue = 0;
    bool nvidia = false, lds = false;
    Theme theme = Theme::Light;
};

// A plan's panel: its key, the plan of request r and the heading that names its instructions (and,
// on NVIDIA, what it does instead; with --transpose, the lane rule's confidence); refuses an --issue
// beyond the plan's instructions.
MemoryPanel memory_panel(const Query& q, const MemoryRequest& r, const std::string& key, int issue) {
    MemoryPanel p;
    p.key = key;
    p.plan = plan_memory(q, r);
    p.transposed = r.transpose;
    const int issues = wave_instruction_count(p.plan.ops, 0);
    if (issue < 0 || issue >= issues)
        throw Error("--issue " + std::to_string(issue) + " is not legal for the " +
                    (r.store ? "stores" : r.transpose ? "transpose loads" : "plain loads") + ": legal 0.." +
                    std::to_string(issues - 1) + " (" + std::to_string(issues) + " instructions per wave)");
    const bool nvidia = q.target->vendor() == Vendor::NVIDIA;
    std::string what = r.store ? "stores" : r.transpose ? "transpose loads" : "plain loads";
    if (nvidia) what = p.plan.ops.empty() || p.plan.ops.front().mnemonic.find("matrix") == std::string::npos
                           ? (r.store ? "st.shared stores" : "ld.shared loads")
                           : (r.store ? "stmatrix stores" : "ldmatrix loads");
    p.heading.push_back(what + ": " + plan_words(p.plan, nvidia));
    for (const std::string& n : p.plan.notes)
        if (nvidia && n.find("instead") != std::string::npos) p.heading.push_back(n);
    if (r.transpose) {
        // The lane rule's confidence, from the transpose-load catalog.
        const std::string& m = p.plan.ops.front().mnemonic;
        const TransposeLoad* tl = TransposeCatalog::builtin().find(*q.target, m, q.mods.wave);
        if (tl)
            p.heading.push_back("lane rule " + std::string(transpose_rule_name(tl->rule)) + ", confidence " +
                                tl->confidence + " (" + tl->confidence_basis + ")");
    }
    return p;
}

// Each memory cell's readers: the lane, issue and receiving lane of every delivery of the plan.
void fill_readers(MemoryPanel& p, const MemoryContext& c, int layout_rows) {
    p.cells.assign(static_cast<size_t>(c.lines) * c.line_len, {});
    for (const MemoryOp& op : p.plan.ops)
        for (const Delivery& d : op.delivers) {
            const long long bit = element_bit_address(c.tile, memory_row(d.element, layout_rows), d.element.col);
            p.cells[static_cast<size_t>(bit / c.tile.element_bits)].push_back({op.lane, op.issue, d.at.lane});
        }
}

// The chosen issue's banks (per pass, per bank: the lanes hitting it and the distinct dwords it
// supplies) and their caption, or its coalescing caption in global memory.
void analyse_issue(MemoryPanel& p, const MemoryContext& c) {
    const BankModel& model = c.model;
    for (const BankReport& b : p.plan.banks)
        if (b.wave == 0 && b.issue == c.issue) p.banks = &b;
    for (const CoalescingReport& r : p.plan.coalescing)
        if (r.wave == 0 && r.issue == c.issue) p.coalescing = &r;
    if (p.banks) {
        const BankReport& b = *p.banks;
        std::map<int, const MemoryOp*> by_lane;
        for (const MemoryOp& op : p.plan.ops)
            if (op.wave == 0 && op.issue == c.issue) by_lane[op.lane] = &op;
        int worst = 1;
        for (const BankPass& pass : b.passes) {
            std::vector<std::vector<int>> hit(static_cast<size_t>(model.banks));
            std::vector<std::set<long long>> ds(static_cast<size_t>(model.banks));
            for (int lane : pass.lanes) {
                const MemoryOp& op = *by_lane.at(lane);
                for (long long d = op.address / model.bank_bytes; d <= (op.address + op.bytes - 1) / model.bank_bytes;
                     ++d) {
                    const size_t bank = static_cast<size_t>(d % model.banks);
                    if (hit[bank].empty() || hit[bank].back() != lane) hit[bank].push_back(lane);
                    ds[bank].insert(d);
                }
            }
            std::vector<int> n;
            for (size_t k = 0; k < hit.size(); ++k) {
                p.max_hits = std::max(p.max_hits, static_cast<int>(hit[k].size()));
                n.push_back(static_cast<int>(ds[k].size()));
                worst = std::max(worst, n.back());
            }
            p.hits.push_back(std::move(hit));
            p.dwords.push_back(std::move(n));
        }
        const PassGrouping& g = b.grouping;
        const bool nv = c.nvidia;
        p.caption.push_back("banks of issue " + std::to_string(b.issue) + " (" + b.mnemonic + "): " +
                            std::to_string(b.passes.size()) + (nv ? " phase" : " pass") +
                            (b.passes.size() == 1 ? "" : nv ? "s" : "es") + ", " + std::to_string(b.cycles) +
                            (nv ? " wavefronts" : " cycles") + " vs conflict-free minimum " +
                            std::to_string(b.minimum_cycles) +
                            (worst > 1 ? " (worst bank " + std::to_string(worst) + "-way)" : " (no conflict)"));
        p.caption.push_back(std::string(nv ? "phases '" : "grouping '") + g.name + "', " + g.confidence + " (" +
                            g.source + "); " + std::to_string(model.banks) + " banks of " +
                            std::to_string(model.bank_bytes) + " bytes, " + model.confidence);
    } else if (p.coalescing) {
        const CoalescingReport& r = *p.coalescing;
        p.caption.push_back("issue " + std::to_string(r.issue) + " (" + r.mnemonic + "): " + std::to_string(r.bytes) +
                            " bytes, " + std::to_string(r.cache_lines) + " cache lines of 128 bytes (minimum " +
                            std::to_string(r.minimum_lines) + "), " + std::to_string(r.segments_64b) +
                            " segments of 64 bytes (minimum " + std::to_string(r.minimum_segments) + ")");
    }
}

// The widest label of each form at the natural font, and the most readers of one cell.
struct MemoryNeeds {
    double full = 1, short_form = 1;
    int max_readers = 1;
};

MemoryNeeds memory_label_needs(const std::vector<MemoryPanel>& panels, const MemoryContext& c, double font) {
    MemoryNeeds n;
    for (const MemoryPanel& p : panels)
        for (const std::vector<Reader>& cell : p.cells) {
            n.max_readers = std::max(n.max_readers, static_cast<int>(cell.size()));
            for (const Reader& r : cell) {
                for (const std::string& s : cell_lines(c.ins, c.op, r, p.transposed, LabelForm::Full))
                    n.full = std::max(n.full, text_width(s, font) + 0.6 * font);
                for (const std::string& s : cell_lines(c.ins, c.op, r, p.transposed, LabelForm::Short))
                    n.short_form = std::max(n.short_form, text_width(s, font) + 0.6 * font);
            }
        }
    for (const MemoryPanel& p : panels)
        for (const auto& pass : p.hits)
            for (const auto& bank : pass)
                for (int lane : bank)
                    n.short_form = std::max(n.short_form, text_width(lane_text(c.ins, c.op, lane), font) + 0.6 * font);
    n.full = std::max(n.full, n.short_form);
    return n;
}

// Sizes in user units; a fitted figure derives every size from min_font.
struct MemoryGeometry {
    bool fit = false, stacked = false;  // stacked: fitted to a width, plain and transposed one under the other
    double m = 8, margin = 16, index_font = 8, heading_font = 11, title_font = 16, subtitle_font = 11, legend_font = 10,
           caption_font = 10;
    double panel_left = 0, panel_gap = 28;
    // Columns no lane reads in any line are narrow: each column's left edge, in cells.
    std::vector<double> colx;
    std::vector<bool> used;
    double line_cells = 0;
    int strip_cols = 32;  // banks across the bank strip
    LabelForm form = LabelForm::Full;
    double cw = 0, ch_slice = 0, tf = 0, strip_slice = 0, ch = 0;
    int col_step = 1, row_step = 1;
    double fw = 1.2, conflict_w = 0;  // frame widths
};

// The fonts, margins and gaps: natural sizes, or in a fitted figure all from min_font.
void memory_fonts(MemoryGeometry& g, const MemoryFigureSpec& spec, const std::vector<MemoryPanel>& panels,
                  const MemoryContext& c) {
    const bool fit = spec.fit_width > 0;
    const double m = fit ? (spec.min_font > 0 ? spec.min_font : 10) : 8;
    g.fit = fit, g.m = m;
    g.margin = fit ? 0.8 * m : 16, g.index_font = m, g.heading_font = fit ? 1.1 * m : 11,
    g.title_font = fit ? 1.5 * m : 16, g.subtitle_font = fit ? m : 11, g.legend_font = fit ? m : 10,
    g.caption_font = fit ? m : 10;
    g.panel_left = std::max(text_width(std::to_string(std::max(c.lines, c.model.banks)), g.index_font),
                            c.lds ? text_width("bank", g.index_font) : 0.0) + 0.9 * g.index_font;
    g.panel_gap = fit ? 1.5 * m : 28;
    // Fitted to a width, plain and transposed stack (each takes the whole width); else side by side.
    g.stacked = fit && panels.size() > 1;
}

// Columns no lane reads in any line (the room of ld beyond the tile, the padding) are drawn narrow,
// so the figure's width goes to the elements; the bank strip is at most max(line, 32) banks wide.
void memory_columns(MemoryGeometry& g, const std::vector<MemoryPanel>& panels, const MemoryContext& c) {
    constexpr double kNarrow = 0.3;
    const int line_len = c.line_len;
    g.colx.assign(static_cast<size_t>(line_len) + 1, 0);
    g.used.assign(static_cast<size_t>(line_len), false);
    for (const MemoryPanel& p : panels)
        for (size_t i = 0; i < p.cells.size(); ++i)
            if (!p.cells[i].empty()) g.used[i % static_cast<size_t>(line_len)] = true;
    for (int k = 0; k < line_len; ++k) g.colx[k + 1] = g.colx[k] + (g.used[k] ? 1.0 : kNarrow);
    g.line_cells = g.colx[line_len];
    // The bank strip is at most max(line, 32) banks wide; more banks continue below.
    g.strip_cols = c.model.banks;
    while (g.strip_cols > 32 && g.strip_cols / 2 >= g.line_cells && g.strip_cols % 2 == 0) g.strip_cols /= 2;
}

// The cell size and label form: natural, or in a fitted figure the richest form whose labels fit
// the cells the width leaves at a font of at least m; then the index steps and frame widths.
void memory_cells(MemoryGeometry& g, const MemoryFigureSpec& spec, const std::vector<MemoryPanel>& panels,
                  const MemoryNeeds& needs, const MemoryContext& c) {
    const double font = Figure().tile_font, line = Figure().tile_line;
    const double m = g.m;
    double columns = 0;  // cells across the panels in a row
    for (const MemoryPanel& p : panels)
        columns = g.stacked
                      ? std::max(columns, std::max(g.line_cells, p.banks ? static_cast<double>(g.strip_cols) : 0.0))
                      : columns + std::max(g.line_cells, p.banks ? static_cast<double>(g.strip_cols) : 0.0);
    const double across = g.stacked ? 1.0 : static_cast<double>(panels.size());
    g.form = LabelForm::Full;
    g.cw = std::max(30.0, std::ceil(needs.full + 2)), g.ch_slice = 2 * line + 5, g.tf = font;
    if (g.fit) {
        const double W = spec.fit_width;
        const double fixed = 2 * g.margin + across * g.panel_left + (across - 1) * g.panel_gap +
                             (panels.front().banks ? 6 * m * across : 0);
        const double cw_fit = std::max(0.5, (W - fixed) / std::max(1.0, columns));
        if (font * cw_fit / needs.full >= m) g.form = LabelForm::Full;
        else if (font * cw_fit / needs.short_form >= m) g.form = LabelForm::Short;
        else g.form = LabelForm::None;
        if (g.form != LabelForm::None) {
            const double need = g.form == LabelForm::Full ? needs.full : needs.short_form;
            g.tf = std::min(font * cw_fit / need, 1.2 * m);
            g.cw = std::min(cw_fit, 1.6 * need * g.tf / font);
            g.ch_slice = (g.form == LabelForm::Full ? 2 * line + 5 : line + 5) * g.tf / font;
        } else {
            g.tf = m;
            g.cw = cw_fit;
            g.ch_slice = cw_fit / static_cast<double>(needs.max_readers);
        }
    }
    g.strip_slice = g.form == LabelForm::None ? std::max(g.cw * 0.5, 1.0) : (line + 5) * g.tf / font;
    g.ch = g.ch_slice * static_cast<double>(needs.max_readers);
    g.col_step = 1;
    while (g.col_step < 4096 &&
           g.col_step * g.cw <
               text_width(std::to_string(std::max(c.line_len, c.model.banks) - 1), g.index_font) + 0.4 * g.index_font)
        g.col_step *= 2;
    g.row_step = 1;
    while (g.row_step < 4096 && g.row_step * g.ch < 1.1 * g.index_font) g.row_step *= 2;
    // Frame widths follow the cell size, so small cells keep their colour.
    g.fw = g.fit ? std::min(1.2, std::max(0.3, g.cw / 10)) : 1.2;
    g.conflict_w = std::max(0.6, 1.2 * g.fw);
}

Rgb pad_color(Theme theme) { return theme == Theme::Light ? Rgb{214, 214, 214} : Rgb{70, 70, 70}; }
Rgb conflict_color() { return Rgb{213, 0, 0}; }

// The title (instruction, operand, memory) and the subtitle (target, tile, ld, pad, swizzle,
// modifiers, axes), wrapped in a fitted figure; returns the panels' top.
double draw_memory_heading(Figure& f, const MemoryFigureSpec& spec, const MemoryContext& c, int rows, int cols,
                           const MemoryGeometry& g, const ThemeColors& tc, double& content_w) {
    const Query& q = spec.query;
    const MemoryTile& tile = c.tile;
    const bool row_major = tile.order == MemoryOrder::RowMajor;
    const std::string opn(operand_name(c.op));
    const bool nvidia = c.nvidia;
    f.title = c.ins.mnemonic + "  \u00B7  operand " + opn + " in " +
              (c.lds ? (nvidia ? "shared memory" : "LDS") : "global memory");
    std::string sw = tile.swizzle.active() ? "swizzle " + std::to_string(tile.swizzle.vec) + "," +
                                                 std::to_string(tile.swizzle.per_phase) + "," + std::to_string(tile.swizzle.max_phase)
                                           : "no swizzle";
    const std::string mods = q.mods.describe();
    f.subtitle =
        q.target->gfx + " (" + std::string(family_title(q.target->family)) + "), " + (nvidia ? "warp" : "wave") +
        std::to_string(q.mods.wave) + "  \u00B7  " + (row_major ? "row-major" : "column-major") + " " +
        std::to_string(rows) + " x " + std::to_string(cols) + " " + type_words(c.ins, c.op, q.mods) + ", ld " +
        std::to_string(tile.ld) + ", pad " + std::to_string(tile.pad) + ", " + sw + "  \u00B7  " +
        (mods.empty() ? "default modifiers" : mods) + "  \u00B7  rows: " + (row_major ? "tile rows" : "tile columns") +
        " in memory order, columns: element positions";
    const double avail = g.fit ? spec.fit_width - 2 * g.margin : 1e9;
    std::vector<std::string> title_lines =
        g.fit ? wrap(f.title, g.title_font * 1.12, avail, "  \u00B7  ") : std::vector<std::string>{f.title};
    std::vector<std::string> subtitle_lines =
        g.fit ? wrap(f.subtitle, g.subtitle_font, avail, "  \u00B7  ") : std::vector<std::string>{f.subtitle};
    double y = g.margin + g.title_font;
    for (const std::string& s : title_lines) {
        f.texts.push_back({g.margin, y, s, g.title_font, Anchor::Start, true, tc.text});
        content_w = std::max(content_w, g.margin + text_width(s, g.title_font) * 1.12);
        y += 1.2 * g.title_font;
    }
    y += 0.3 * g.subtitle_font;
    for (const std::string& s : subtitle_lines) {
        f.texts.push_back({g.margin, y, s, g.subtitle_font, Anchor::Start, false, tc.muted});
        content_w = std::max(content_w, g.margin + text_width(s, g.subtitle_font));
        y += 1.2 * g.subtitle_font;
    }
    return y + 0.6 * g.m;
}

// A panel's width: row indices, its grid or bank strip (whichever is wider) and room for the strip's cycle counts.
double memory_panel_width(const MemoryPanel& p, const MemoryGeometry& g) {
    return g.panel_left + std::max(g.line_cells * g.cw, p.banks ? g.strip_cols * g.cw : 0) + (p.banks ? 6 * g.m : 0);
}

// The width a panel's heading and caption wrap to.
double memory_panel_room(double pw, const MemoryGeometry& g, const MemoryFigureSpec& spec) {
    return g.fit ? (g.stacked ? spec.fit_width - 2 * g.margin : std::max(pw, 8 * g.m)) : std::max(pw, 480.0);
}

// Each panel's heading wrapped to its room; returns the most lines one has (side by side, the grids
// start at one height: below the longest heading).
size_t wrap_memory_headings(std::vector<MemoryPanel>& panels, const MemoryGeometry& g, const MemoryFigureSpec& spec) {
    size_t heading_lines = 0;
    for (MemoryPanel& p : panels) {
        const double room = memory_panel_room(memory_panel_width(p, g), g, spec);
        std::vector<std::string> wrapped;
        for (const std::string& h : p.heading)
            for (const std::string& s : wrap(h, g.heading_font * 1.12, room, ", ")) wrapped.push_back(s);
        p.heading = wrapped;
        heading_lines = std::max(heading_lines, wrapped.size());
    }
    return heading_lines;
}

// The grid's column indices (read columns every col_step; an unread run: its first column where the
// number fits) and row indices.
void draw_memory_indices(Figure& f, double gx, double gy, const MemoryContext& c, const MemoryGeometry& g,
                         const ThemeColors& tc) {
    const double cw = g.cw, m = g.m;
    const std::vector<bool>& used = g.used;
    for (int k = 0; k < c.line_len; ++k) {
        const bool first_unused = !used[k] && (k == 0 || used[k - 1]);
        if (used[k] ? k % g.col_step != 0 : !first_unused) continue;
        int run_end = k;
        while (!used[k] && run_end < c.line_len && !used[run_end]) ++run_end;
        const double room = used[k] ? cw : (g.colx[run_end] - g.colx[k]) * cw;
        if (!used[k] && room < text_width(std::to_string(k), g.index_font) + 0.4 * g.index_font) continue;
        f.texts.push_back({gx + g.colx[k] * cw + (used[k] ? 0.5 * cw : 0.0), gy - 0.35 * m, std::to_string(k),
                           g.index_font, used[k] ? Anchor::Middle : Anchor::Start, false, tc.muted});
    }
    for (int r = 0; r < c.lines; r += g.row_step)
        f.texts.push_back({gx - 0.375 * g.index_font, gy + (r + 0.5) * g.ch + 0.35 * g.index_font, std::to_string(r),
                           g.index_font, Anchor::End, false, tc.muted});
}

// The grid's cells: elements (one slice per reading lane), padding, unused room of ld.
void draw_memory_cells(Figure& f, const MemoryPanel& p, size_t pi, double gx, double gy, const MemoryContext& c,
                       const MemoryGeometry& g, const ThemeColors& tc) {
    const Rgb pad_fill = pad_color(c.theme);
    const double full_cw = g.cw, ch = g.ch;
    for (int r = 0; r < c.lines; ++r)
        for (int k = 0; k < c.line_len; ++k) {
            const double cx = gx + g.colx[k] * full_cw, cy = gy + r * ch;
            const double cw = (g.colx[k + 1] - g.colx[k]) * full_cw;  // narrow where no lane reads
            const std::vector<Reader>& readers = p.cells[static_cast<size_t>(r) * c.line_len + k];
            const std::string where = std::to_string(pi) + "." + std::to_string(r) + "." + std::to_string(k);
            if (k >= c.tile.ld) {
                Tile t;
                t.x = cx, t.y = cy, t.w = cw, t.h = ch, t.fill = pad_fill, t.ink = text_on(pad_fill);
                t.id = "pad" + where;
                f.tiles.push_back(std::move(t));
                continue;
            }
            if (readers.empty()) {
                f.boxes.push_back(empty_cell(cx, cy, cw, ch, tc));
                continue;
            }
            const double h = ch / static_cast<double>(readers.size());
            for (size_t n = 0; n < readers.size(); ++n) {
                Tile t;
                t.x = cx, t.y = cy + n * h, t.w = cw, t.h = h;
                t.fill = tile_color(c.ins, ColorBy::Lane, Element{}, Location{0, readers[n].lane, 0, 0}, c.theme);
                t.ink = text_on(t.fill);
                t.id = "mem" + where + "." + std::to_string(n);
                t.lines = cell_lines(c.ins, c.op, readers[n], p.transposed, g.form);
                f.tiles.push_back(std::move(t));
            }
        }
}

// Frames: one per access of one lane (split where it wraps to the next line), thick for the issue
// drawn in full.
void draw_access_frames(Figure& f, const MemoryPanel& p, double gx, double gy, const MemoryContext& c,
                        const MemoryGeometry& g, const ThemeColors& tc) {
    const double cw = g.cw, ch = g.ch;
    const int line_len = c.line_len;
    const double inset = std::min(1.0, cw * 0.1);
    for (const MemoryOp& op : p.plan.ops) {
        long long first = op.address * 8 / c.tile.element_bits;
        const long long end = ((op.address + op.bytes) * 8 + c.tile.element_bits - 1) / c.tile.element_bits;
        const double w = op.issue == c.issue ? 1.5 * g.fw : 0.5 * g.fw;
        while (first < end) {
            const long long r = first / line_len, c0 = first % line_len;
            const long long c1 = std::min<long long>(line_len, c0 + (end - first));
            if (r >= c.lines) break;
            const double x1 = gx + g.colx[c0] * cw + inset, x2 = gx + g.colx[c1] * cw - inset;
            const double y1 = gy + r * ch + inset, y2 = gy + (r + 1) * ch - inset;
            f.lines.push_back({x1, y1, x2, y1, tc.text, w});
            f.lines.push_back({x2, y1, x2, y2, tc.text, w});
            f.lines.push_back({x2, y2, x1, y2, tc.text, w});
            f.lines.push_back({x1, y2, x1, y1, tc.text, w});
            first += c1 - c0;
        }
    }
}

// The bank strip under the caption: a row per pass, a column per bank with the lanes hitting it,
// a red frame where a bank serves several dwords, each pass's cycles beside it; banks beyond the
// strip's width continue in a block below. Returns the strip's bottom.
double draw_bank_strip(Figure& f, const MemoryPanel& p, size_t pi, double x, double py, const MemoryContext& c,
                       const MemoryGeometry& g, const ThemeColors& tc, double& content_w) {
    const double cw = g.cw, m = g.m, index_font = g.index_font;
    const int strip_cols = g.strip_cols;
    const bool nvidia = c.nvidia;
    const Rgb conflict = conflict_color();
    const double sx = x + g.panel_left;
    const double row_h = std::max(g.strip_slice * p.max_hits, 1.3 * index_font);  // room for "p0" and the cycles
    // Banks beyond the strip's width continue in a block below (64 banks as two rows of 32).
    for (int b0 = 0; b0 < c.model.banks; b0 += strip_cols) {
        py += 0.5 * m + index_font + 0.35 * m;
        const double sy = py;
        const int b1 = std::min(c.model.banks, b0 + strip_cols);
        f.texts.push_back({sx - 0.375 * index_font, sy - 0.35 * m, "bank", index_font, Anchor::End, false, tc.muted});
        for (int b = b0; b < b1; b += g.col_step)
            f.texts.push_back({sx + (b - b0 + 0.5) * cw, sy - 0.35 * m, std::to_string(b), index_font, Anchor::Middle,
                               false, tc.muted});
        for (size_t pass = 0; pass < p.hits.size(); ++pass) {
            const double ry = sy + static_cast<double>(pass) * row_h;
            f.texts.push_back({sx - 0.375 * index_font, ry + 0.5 * row_h + 0.35 * index_font,
                               "p" + std::to_string(pass), index_font, Anchor::End, false, tc.muted});
            if (b0 == 0) {
                const int cycles = p.banks->passes[pass].cycles;
                f.texts.push_back({sx + strip_cols * cw + 0.4 * m, ry + 0.5 * row_h + 0.35 * index_font,
                                   std::to_string(cycles) + (nvidia ? (cycles == 1 ? " wavefront" : " wavefronts")
                                                                    : (cycles == 1 ? " cycle" : " cycles")),
                                   index_font, Anchor::Start, cycles > 1, cycles > 1 ? conflict : tc.muted});
                content_w =
                    std::max(content_w, sx + strip_cols * cw + 0.4 * m +
                                            text_width(nvidia ? "64 wavefronts" : "64 cycles", index_font) * 1.12);
            }
            for (int b = b0; b < b1; ++b) {
                const std::vector<int>& lanes = p.hits[pass][static_cast<size_t>(b)];
                const double bx = sx + (b - b0) * cw;
                const std::string id =
                    "bank" + std::to_string(pi) + "." + std::to_string(pass) + "." + std::to_string(b) + ".";
                if (lanes.empty()) {  // a bank no lane of this pass needs
                    Tile t;
                    t.x = bx, t.y = ry, t.w = cw, t.h = row_h, t.fill = tc.background, t.ink = tc.text;
                    t.id = id + "idle";
                    f.tiles.push_back(std::move(t));
                    continue;
                }
                const double h = row_h / static_cast<double>(lanes.size());
                for (size_t n = 0; n < lanes.size(); ++n) {
                    Tile t;
                    t.x = bx, t.y = ry + n * h, t.w = cw, t.h = h;
                    t.fill = tile_color(c.ins, ColorBy::Lane, Element{}, Location{0, lanes[n], 0, 0}, c.theme);
                    t.ink = text_on(t.fill);
                    t.id = id + std::to_string(n);
                    if (g.form != LabelForm::None) t.lines = {lane_text(c.ins, c.op, lanes[n])};
                    f.tiles.push_back(std::move(t));
                }
                if (p.dwords[pass][static_cast<size_t>(b)] > 1) {  // a conflict: red frame
                    const double in = std::min(1.0, cw * 0.1), wc = g.conflict_w;
                    const double x1 = bx + in, x2 = bx + cw - in, y1 = ry + in, y2 = ry + row_h - in;
                    f.lines.push_back({x1, y1, x2, y1, conflict, wc});
                    f.lines.push_back({x2, y1, x2, y2, conflict, wc});
                    f.lines.push_back({x2, y2, x1, y2, conflict, wc});
                    f.lines.push_back({x1, y2, x1, y1, conflict, wc});
                }
            }
        }
        py = sy + row_h * static_cast<double>(p.hits.size());
    }
    return py;
}

// One panel at x, panel_top: its heading, grid (indices, cells, access frames), caption and bank
// strip; returns its bottom.
double draw_memory_panel(Figure& f, MemoryPanel& p, size_t pi, double x, double panel_top, size_t heading_lines,
                         const MemoryFigureSpec& spec, const MemoryContext& c, const MemoryGeometry& g,
                         const ThemeColors& tc, double& content_w) {
    const double m = g.m, heading_font = g.heading_font, caption_font = g.caption_font;
    p.x = x;
    p.w = memory_panel_width(p, g);
    const double room = memory_panel_room(p.w, g, spec);
    double py = panel_top;
    for (const std::string& s : p.heading) {
        f.texts.push_back({x, py + heading_font, s, heading_font, Anchor::Start, true, tc.text});
        content_w = std::max(content_w, x + text_width(s, heading_font) * 1.12);
        py += 1.25 * heading_font;
    }
    if (!g.stacked) py = panel_top + 1.25 * heading_font * static_cast<double>(heading_lines);
    py += 0.5 * m + g.index_font + 0.35 * m;
    const double gx = x + g.panel_left, gy = py;
    draw_memory_indices(f, gx, gy, c, g, tc);
    draw_memory_cells(f, p, pi, gx, gy, c, g, tc);
    draw_access_frames(f, p, gx, gy, c, g, tc);
    py = gy + c.lines * g.ch;
    // Caption and bank strip.
    py += 0.8 * m;
    for (const std::string& cap : p.caption)
        for (const std::string& s : wrap(cap, caption_font, room, ", ")) {
            py += caption_font;
            f.texts.push_back({x, py, s, caption_font, Anchor::Start, false, tc.text});
            content_w = std::max(content_w, x + text_width(s, caption_font));
            py += 0.25 * caption_font;
        }
    if (p.banks) py = draw_bank_strip(f, p, pi, x, py, c, g, tc, content_w);
    return py;
}

// The legend under the panels: lane groups, padding, empty room of ld, frames, conflicts, and what
// the cells' text says; returns the last row's top.
double draw_memory_legend(Figure& f, const MemoryFigureSpec& spec, const std::vector<MemoryPanel>& panels,
                          const MemoryContext& c, int extent, const MemoryGeometry& g, const ThemeColors& tc,
                          double bottom, double& content_w) {
    const Instruction& ins = c.ins;
    const bool nvidia = c.nvidia, fit = g.fit;
    const double m = g.m, margin = g.margin;
    const Rgb pad_fill = pad_color(c.theme), conflict = conflict_color();
    const int groups = lane_groups(ins, spec.query.mods.wave);
    for (int i = 0; i < std::min(groups, categorical_count()); ++i) {
        std::string label;
        for (int j = i; j < groups; j += categorical_count()) label += (label.empty() ? "" : ", ") + legend_label(ins, ColorBy::Lane, j);
        f.legend.push_back({categorical(i, spec.theme), label});
    }
    // NVIDIA: threads, phases and 4-byte words.
    f.legend_title = nvidia ? "Colour by the reading thread's group:" : "Colour by the reading lane's group:";
    const double lf = g.legend_font, swatch = fit ? m : 12;
    const double legend_w = (fit ? spec.fit_width : std::max(content_w, 420.0)) - margin;
    double lx = margin, ly = bottom + (fit ? 1.8 * m : 22);
    f.texts.push_back({lx, ly + swatch - 0.2 * lf, f.legend_title, lf, Anchor::Start, true, tc.text});
    lx += text_width(f.legend_title, lf) * 1.12 + 1.4 * lf;
    auto place = [&](double w) {
        if (lx + w > legend_w && lx > margin) lx = margin, ly += (fit ? 1.5 * m : 18);
    };
    for (const LegendEntry& e : f.legend) {
        const double w = swatch + 0.4 * lf + text_width(e.label, lf) + 1.4 * lf;
        place(w);
        f.boxes.push_back({lx, ly, swatch, swatch, e.color, true, tc.grid, 0.5});
        f.texts.push_back({lx + swatch + 0.4 * lf, ly + swatch - 0.2 * lf, e.label, lf, Anchor::Start, false, tc.text});
        content_w = std::max(content_w, lx + w - 1.4 * lf);
        lx += w;
    }
    // Swatches of the other marks (not legend entries: those are the colour classes).
    std::vector<std::pair<int, std::string>> marks;  // 0 padding, 1 room, 2 frame, 3 conflict
    if (c.tile.pad > 0) marks.push_back({0, "padding"});
    if (c.tile.ld > extent) marks.push_back({1, "room of ld beyond the tile"});
    marks.push_back({2, std::string(nvidia ? "one thread's access" : "one lane's access") + " (thick: issue " +
                            std::to_string(c.issue) + ")"});
    if (c.lds)
        marks.push_back(
            {3, nvidia ? "bank serving several 4-byte words in one phase" : "bank serving several dwords in one pass"});
    const std::string who = nvidia ? "thread" : "lane";
    std::string form_words = g.form == LabelForm::Full
                                 ? (panels.back().transposed ? "cells: reading " + who + ", issue\u2192receiving " + who
                                                             : "cells: reading " + who + ", issue")
                             : g.form == LabelForm::Short ? "cells: reading " + who
                                                          : "";
    for (const auto& [kind, label] : marks) {
        const double w = swatch + 0.4 * lf + text_width(label, lf) + 1.4 * lf;
        place(w);
        if (kind == 0) f.boxes.push_back({lx, ly, swatch, swatch, pad_fill, true, tc.grid, 0.5});
        if (kind == 1) f.boxes.push_back(empty_cell(lx, ly, swatch, swatch, tc));
        if (kind >= 2) {
            const Rgb col = kind == 2 ? tc.text : conflict;
            const double wl = kind == 2 ? 1.5 * g.fw : g.conflict_w;
            f.lines.push_back({lx, ly, lx + swatch, ly, col, wl});
            f.lines.push_back({lx + swatch, ly, lx + swatch, ly + swatch, col, wl});
            f.lines.push_back({lx + swatch, ly + swatch, lx, ly + swatch, col, wl});
            f.lines.push_back({lx, ly + swatch, lx, ly, col, wl});
        }
        f.texts.push_back({lx + swatch + 0.4 * lf, ly + swatch - 0.2 * lf, label, lf, Anchor::Start, false, tc.text});
        content_w = std::max(content_w, lx + w - 1.4 * lf);
        lx += w;
    }
    if (!form_words.empty()) {
        const double w = text_width(form_words, lf) + 1.4 * lf;
        place(w);
        f.texts.push_back({lx, ly + swatch - 0.2 * lf, form_words, lf, Anchor::Start, false, tc.muted});
        content_w = std::max(content_w, lx + w - 1.4 * lf);
    }
    return ly;
}

}  // namespace

Figure build_memory_figure(const MemoryFigureSpec& spec) {
    const Query& q = spec.query;
    if (!q.ins || !q.target) throw Error("build_memory_figure: no instruction or target given");
    if (spec.request.tiles && !spec.request.tiles->single())
        throw Error("memory figures draw one instruction's operand; tile options (--waves, --tiles-per-wave, --shape) are "
                    "legal with `load`, not with a memory figure");
    const Instruction& ins = *q.ins;
    const MemoryRequest& req = spec.request;
    const OperandLayout layout = layout_of(ins, *q.target, req.operand, q.mods);
    const auto [rows, cols] = memory_extent(q, req);
    if (req.tile.element_bits != layout.element_bits())
        throw Error("the memory tile's element size (" + std::to_string(req.tile.element_bits) + " bits) is not the operand's (" +
                    std::to_string(layout.element_bits()) + " bits)");
    check_memory_tile(req.tile, rows, cols);
    const MemoryTile& tile = req.tile;
    const bool row_major = tile.order == MemoryOrder::RowMajor;
    const int lines = row_major ? rows : cols;
    const int extent = contiguous_extent(tile.order, rows, cols);
    const int line_len = tile.ld + tile.pad;
    if (static_cast<long long>(lines) * line_len > 262144)
        throw Error("a memory figure of " + std::to_string(lines) + " lines of " + std::to_string(line_len) +
                    " elements is too large to draw; legal: at most 262144 cells (a smaller --ld or --pad)");
    const BankModel model = bank_model(*q.target);
    const bool nvidia = q.target->vendor() == Vendor::NVIDIA, lds = tile.space == MemorySpace::Lds;
    const MemoryContext c{ins, req.operand, tile, model, lines, line_len, spec.issue, nvidia, lds, spec.theme};

    // The plans: the request's, and with --transpose the plain one beside it.
    std::vector<MemoryPanel> panels;
    if (req.transpose && spec.compare) {
        MemoryRequest plain = req;
        plain.transpose = false;
        panels.push_back(memory_panel(q, plain, "plain", spec.issue));
    }
    panels.push_back(memory_panel(q, req, req.store ? "store" : req.transpose ? "tr" : "plain", spec.issue));
    for (MemoryPanel& p : panels) {
        fill_readers(p, c, layout.rows());
        analyse_issue(p, c);
    }

    // Label sizes at the natural font: the widest label of each form decides.
    const ThemeColors tc = theme_colors(spec.theme);
    Figure f;
    f.background = tc.background;
    f.tile_stroke = tc.grid;
    const double font = f.tile_font, line = f.tile_line;
    const MemoryNeeds needs = memory_label_needs(panels, c, font);
    MemoryGeometry g;
    memory_fonts(g, spec, panels, c);
    memory_columns(g, panels, c);
    memory_cells(g, spec, panels, needs, c);
    f.tile_font = g.tf, f.tile_line = line * g.tf / font;

    double content_w = 0;
    const double top = draw_memory_heading(f, spec, c, rows, cols, g, tc, content_w);

    // Panels side by side (stacked when fitted to a width).
    double x = g.margin, bottom = top, panel_top = top;
    const size_t heading_lines = wrap_memory_headings(panels, g, spec);
    for (size_t pi = 0; pi < panels.size(); ++pi) {
        MemoryPanel& p = panels[pi];
        const double py = draw_memory_panel(f, p, pi, x, panel_top, heading_lines, spec, c, g, tc, content_w);
        bottom = std::max(bottom, py);
        content_w = std::max(content_w, x + p.w);
        if (g.stacked) panel_top = bottom + g.panel_gap;
        else x += p.w + g.panel_gap;
    }

    const double ly = draw_memory_legend(f, spec, panels, c, extent, g, tc, bottom, content_w);
    const double swatch = g.fit ? g.m : 12;
    f.width = std::ceil(std::max(content_w, g.fit ? 0.0 : 420.0) + g.margin);
    if (g.fit) f.width = std::max(f.width, std::ceil(spec.fit_width));
    f.height = std::ceil(ly + swatch + g.margin);
    return f;
}

}  // namespace lanescope::figures
