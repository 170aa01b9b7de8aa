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
    const bool lds = tile.space == MemorySpace::Lds;

    // The plans: the request's, and with --transpose the plain one beside it.
    std::vector<MemoryPanel> panels;
    auto add_panel = [&](MemoryRequest r, const std::string& key) {
        MemoryPanel p;
        p.key = key;
        p.plan = plan_memory(q, r);
        p.transposed = r.transpose;
        const int issues = wave_instruction_count(p.plan.ops, 0);
        if (spec.issue < 0 || spec.issue >= issues)
            throw Error("--issue " + std::to_string(spec.issue) + " is not legal for the " +
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
                p.heading.push_back("lane rule " + std::string(transpose_rule_name(tl->rule)) + ", confidence " + tl->confidence + " (" +
                                    tl->confidence_basis + ")");
        }
        panels.push_back(std::move(p));
    };
    if (req.transpose && spec.compare) {
        MemoryRequest plain = req;
        plain.transpose = false;
        add_panel(plain, "plain");
    }
    add_panel(req, req.store ? "store" : req.transpose ? "tr" : "plain");

    for (MemoryPanel& p : panels) {
        p.cells.assign(static_cast<size_t>(lines) * line_len, {});
        for (const MemoryOp& op : p.plan.ops)
            for (const Delivery& d : op.delivers) {
                const long long bit = element_bit_address(tile, memory_row(d.element, layout.rows()), d.element.col);
                p.cells[static_cast<size_t>(bit / tile.element_bits)].push_back({op.lane, op.issue, d.at.lane});
            }
        for (const BankReport& b : p.plan.banks)
            if (b.wave == 0 && b.issue == spec.issue) p.banks = &b;
        for (const CoalescingReport& c : p.plan.coalescing)
            if (c.wave == 0 && c.issue == spec.issue) p.coalescing = &c;
        if (p.banks) {
            const BankReport& b = *p.banks;
            std::map<int, const MemoryOp*> by_lane;
            for (const MemoryOp& op : p.plan.ops)
                if (op.wave == 0 && op.issue == spec.issue) by_lane[op.lane] = &op;
            int worst = 1;
            for (const BankPass& pass : b.passes) {
                std::vector<std::vector<int>> hit(static_cast<size_t>(model.banks));
                std::vector<std::set<long long>> ds(static_cast<size_t>(model.banks));
                for (int lane : pass.lanes) {
                    const MemoryOp& op = *by_lane.at(lane);
                    for (long long d = op.address / model.bank_bytes; d <= (op.address + op.bytes - 1) / model.bank_bytes; ++d) {
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
            const bool nv = q.target->vendor() == Vendor::NVIDIA;
            p.caption.push_back("banks of issue " + std::to_string(b.issue) + " (" + b.mnemonic + "): " +
                                std::to_string(b.passes.size()) + (nv ? " phase" : " pass") +
                                (b.passes.size() == 1 ? "" : nv ? "s" : "es") + ", " + std::to_string(b.cycles) +
                                (nv ? " wavefronts" : " cycles") + " vs conflict-free minimum " + std::to_string(b.minimum_cycles) +
                                (worst > 1 ? " (worst bank " + std::to_string(worst) + "-way)" : " (no conflict)"));
            p.caption.push_back(std::string(nv ? "phases '" : "grouping '") + g.name + "', " + g.confidence + " (" + g.source + "); " +
                                std::to_string(model.banks) + " banks of " + std::to_string(model.bank_bytes) + " bytes, " +
                                model.confidence);
        } else if (p.coalescing) {
            const CoalescingReport& c = *p.coalescing;
            p.caption.push_back("issue " + std::to_string(c.issue) + " (" + c.mnemonic + "): " + std::to_string(c.bytes) +
                                " bytes, " + std::to_string(c.cache_lines) + " cache lines of 128 bytes (minimum " +
                                std::to_string(c.minimum_lines) + "), " + std::to_string(c.segments_64b) +
                                " segments of 64 bytes (minimum " + std::to_string(c.minimum_segments) + ")");
        }
    }

    // Label sizes at the natural font: the widest label of each form decides.
    const ThemeColors tc = theme_colors(spec.theme);
    Figure f;
    f.background = tc.background;
    f.tile_stroke = tc.grid;
    const double font = f.tile_font, line = f.tile_line;
    double full_need = 1, short_need = 1;
    int max_readers = 1;
    for (const MemoryPanel& p : panels)
        for (const std::vector<Reader>& cell : p.cells) {
            max_readers = std::max(max_readers, static_cast<int>(cell.size()));
            for (const Reader& r : cell) {
                for (const std::string& s : cell_lines(ins, req.operand, r, p.transposed, LabelForm::Full))
                    full_need = std::max(full_need, text_width(s, font) + 0.6 * font);
                for (const std::string& s : cell_lines(ins, req.operand, r, p.transposed, LabelForm::Short))
                    short_need = std::max(short_need, text_width(s, font) + 0.6 * font);
            }
        }
    for (const MemoryPanel& p : panels)
        for (const auto& pass : p.hits)
            for (const auto& bank : pass)
                for (int lane : bank) short_need = std::max(short_need, text_width(lane_text(ins, req.operand, lane), font) + 0.6 * font);
    full_need = std::max(full_need, short_need);

    // Geometry (user units); a fitted figure derives every size from min_font.
    const bool fit = spec.fit_width > 0;
    const double m = fit ? (spec.min_font > 0 ? spec.min_font : 10) : 8;
    double margin = fit ? 0.8 * m : 16, index_font = m, heading_font = fit ? 1.1 * m : 11, title_font = fit ? 1.5 * m : 16,
           subtitle_font = fit ? m : 11, legend_font = fit ? m : 10, caption_font = fit ? m : 10;
    const double panel_left = std::max(text_width(std::to_string(std::max(lines, model.banks)), index_font),
                                       lds ? text_width("bank", index_font) : 0.0) + 0.9 * index_font;
    const double panel_gap = fit ? 1.5 * m : 28;
    // Fitted to a width, plain and transposed stack (each takes the whole width); else side by side.
    const bool stacked = fit && panels.size() > 1;
    // Columns no lane reads in any line (the room of ld beyond the tile, the
    // padding) are drawn narrow, so the figure's width goes to the elements.
    constexpr double kNarrow = 0.3;
    std::vector<double> colx(static_cast<size_t>(line_len) + 1, 0);  // left edge of each column, in cells
    std::vector<bool> used(static_cast<size_t>(line_len), false);
    for (const MemoryPanel& p : panels)
        for (size_t i = 0; i < p.cells.size(); ++i)
            if (!p.cells[i].empty()) used[i % static_cast<size_t>(line_len)] = true;
    for (int c = 0; c < line_len; ++c) colx[c + 1] = colx[c] + (used[c] ? 1.0 : kNarrow);
    const double line_cells = colx[line_len];
    double columns = 0;  // cells across the panels in a row
    // The bank strip is at most max(line, 32) banks wide; more banks continue below.
    int strip_cols = model.banks;
    while (strip_cols > 32 && strip_cols / 2 >= line_cells && strip_cols % 2 == 0) strip_cols /= 2;
    for (const MemoryPanel& p : panels)
        columns = stacked ? std::max(columns, std::max(line_cells, p.banks ? static_cast<double>(strip_cols) : 0.0))
                          : columns + std::max(line_cells, p.banks ? static_cast<double>(strip_cols) : 0.0);
    const double across = stacked ? 1.0 : static_cast<double>(panels.size());
    LabelForm form = LabelForm::Full;
    double cw = std::max(30.0, std::ceil(full_need + 2)), ch_slice = 2 * line + 5, tf = font;
    if (fit) {
        const double W = spec.fit_width;
        const double fixed = 2 * margin + across * panel_left + (across - 1) * panel_gap + (panels.front().banks ? 6 * m * across : 0);
        const double cw_fit = std::max(0.5, (W - fixed) / std::max(1.0, columns));
        if (font * cw_fit / full_need >= m) form = LabelForm::Full;
        else if (font * cw_fit / short_need >= m) form = LabelForm::Short;
        else form = LabelForm::None;
        if (form != LabelForm::None) {
            const double need = form == LabelForm::Full ? full_need : short_need;
            tf = std::min(font * cw_fit / need, 1.2 * m);
            cw = std::min(cw_fit, 1.6 * need * tf / font);
            ch_slice = (form == LabelForm::Full ? 2 * line + 5 : line + 5) * tf / font;
        } else {
            tf = m;
            cw = cw_fit;
            ch_slice = cw_fit / static_cast<double>(max_readers);
        }
    }
    f.tile_font = tf, f.tile_line = line * tf / font;
    const double strip_slice = form == LabelForm::None ? std::max(cw * 0.5, 1.0) : (line + 5) * tf / font;
    const double ch = ch_slice * static_cast<double>(max_readers);
    const int col_step = [&] {
        int n = 1;
        while (n < 4096 && n * cw < text_width(std::to_string(std::max(line_len, model.banks) - 1), index_font) + 0.4 * index_font) n *= 2;
        return n;
    }();
    const int row_step = [&] {
        int n = 1;
        while (n < 4096 && n * ch < 1.1 * index_font) n *= 2;
        return n;
    }();

    // Heading.
    const std::string opn(operand_name(req.operand));
    const bool nvidia = q.target->vendor() == Vendor::NVIDIA;
    f.title = ins.mnemonic + "  \u00B7  operand " + opn + " in " + (lds ? (nvidia ? "shared memory" : "LDS") : "global memory");
    std::string sw = tile.swizzle.active() ? "swizzle " + std::to_string(tile.swizzle.vec) + "," +
                                                 std::to_string(tile.swizzle.per_phase) + "," + std::to_string(tile.swizzle.max_phase)
                                           : "no swizzle";
    const std::string mods = q.mods.describe();
    f.subtitle = q.target->gfx + " (" + std::string(family_title(q.target->family)) + "), " + (nvidia ? "warp" : "wave") +
                 std::to_string(q.mods.wave) +
                 "  \u00B7  " + (row_major ? "row-major" : "column-major") + " " + std::to_string(rows) + " x " +
                 std::to_string(cols) + " " + type_words(ins, req.operand, q.mods) + ", ld " + std::to_string(tile.ld) +
                 ", pad " + std::to_string(tile.pad) + ", " + sw + "  \u00B7  " + (mods.empty() ? "default modifiers" : mods) +
                 "  \u00B7  rows: " + (row_major ? "tile rows" : "tile columns") + " in memory order, columns: element positions";
    const double avail = fit ? spec.fit_width - 2 * margin : 1e9;
    std::vector<std::string> title_lines = fit ? wrap(f.title, title_font * 1.12, avail, "  \u00B7  ") : std::vector<std::string>{f.title};
    std::vector<std::string> subtitle_lines = fit ? wrap(f.subtitle, subtitle_font, avail, "  \u00B7  ") : std::vector<std::string>{f.subtitle};
    double y = margin + title_font;
    double content_w = 0;
    for (const std::string& s : title_lines) {
        f.texts.push_back({margin, y, s, title_font, Anchor::Start, true, tc.text});
        content_w = std::max(content_w, margin + text_width(s, title_font) * 1.12);
        y += 1.2 * title_font;
    }
    y += 0.3 * subtitle_font;
    for (const std::string& s : subtitle_lines) {
        f.texts.push_back({margin, y, s, subtitle_font, Anchor::Start, false, tc.muted});
        content_w = std::max(content_w, margin + text_width(s, subtitle_font));
        y += 1.2 * subtitle_font;
    }
    const double top = y + 0.6 * m;

    // Panels side by side.
    const Rgb pad_fill = spec.theme == Theme::Light ? Rgb{214, 214, 214} : Rgb{70, 70, 70};
    const Rgb conflict{213, 0, 0};
    // Frame widths follow the cell size, so small cells keep their colour.
    const double fw = fit ? std::min(1.2, std::max(0.3, cw / 10)) : 1.2;
    const double conflict_w = std::max(0.6, 1.2 * fw);
    double x = margin, bottom = top, panel_top = top;
    // Side by side, the grids start at one height: below the longest heading.
    size_t heading_lines = 0;
    for (MemoryPanel& p : panels) {
        const double pw = panel_left + std::max(line_cells * cw, p.banks ? strip_cols * cw : 0) + (p.banks ? 6 * m : 0);
        const double room = fit ? (stacked ? spec.fit_width - 2 * margin : std::max(pw, 8 * m)) : std::max(pw, 480.0);
        std::vector<std::string> wrapped;
        for (const std::string& h : p.heading)
            for (const std::string& s : wrap(h, heading_font * 1.12, room, ", ")) wrapped.push_back(s);
        p.heading = wrapped;
        heading_lines = std::max(heading_lines, wrapped.size());
    }
    for (size_t pi = 0; pi < panels.size(); ++pi) {
        MemoryPanel& p = panels[pi];
        p.x = x;
        const double grid_w = line_cells * cw, strip_w = p.banks ? strip_cols * cw : 0;
        p.w = panel_left + std::max(grid_w, strip_w) + (p.banks ? 6 * m : 0);
        const double room = fit ? (stacked ? spec.fit_width - 2 * margin : std::max(p.w, 8 * m)) : std::max(p.w, 480.0);
        double py = panel_top;
        for (const std::string& s : p.heading) {
            f.texts.push_back({x, py + heading_font, s, heading_font, Anchor::Start, true, tc.text});
            content_w = std::max(content_w, x + text_width(s, heading_font) * 1.12);
            py += 1.25 * heading_font;
        }
        if (!stacked) py = panel_top + 1.25 * heading_font * static_cast<double>(heading_lines);
        py += 0.5 * m + index_font + 0.35 * m;
        const double gx = x + panel_left, gy = py;
        for (int c = 0; c < line_len; ++c) {
            // Read columns every col_step; an unread run: its first column where the number fits.
            const bool first_unused = !used[c] && (c == 0 || used[c - 1]);
            if (used[c] ? c % col_step != 0 : !first_unused) continue;
            int run_end = c;
            while (!used[c] && run_end < line_len && !used[run_end]) ++run_end;
            const double room = used[c] ? cw : (colx[run_end] - colx[c]) * cw;
            if (!used[c] && room < text_width(std::to_string(c), index_font) + 0.4 * index_font) continue;
            f.texts.push_back({gx + colx[c] * cw + (used[c] ? 0.5 * cw : 0.0), gy - 0.35 * m, std::to_string(c), index_font,
                               used[c] ? Anchor::Middle : Anchor::Start, false, tc.muted});
        }
        for (int r = 0; r < lines; r += row_step)
            f.texts.push_back({gx - 0.375 * index_font, gy + (r + 0.5) * ch + 0.35 * index_font, std::to_string(r), index_font,
                               Anchor::End, false, tc.muted});
        // Cells: elements (one slice per reading lane), padding, unused room of ld.
        const double full_cw = cw;
        for (int r = 0; r < lines; ++r)
            for (int c = 0; c < line_len; ++c) {
                const double cx = gx + colx[c] * full_cw, cy = gy + r * ch;
                const double cw = (colx[c + 1] - colx[c]) * full_cw;  // narrow where no lane reads
                const std::vector<Reader>& readers = p.cells[static_cast<size_t>(r) * line_len + c];
                const std::string where = std::to_string(pi) + "." + std::to_string(r) + "." + std::to_string(c);
                if (c >= tile.ld) {
                    Tile t;
                    t.x = cx, t.y = cy, t.w = cw, t.h = ch, t.fill = pad_fill, t.ink = text_on(pad_fill);
                    t.id = "pad" + where;
                    f.tiles.push_back(std::move(t));
                    continue;
                }
                if (readers.empty()) {
                    f.boxes.push_back({cx, cy, cw, ch, tc.background, true, tc.grid, 0.5});
                    continue;
                }
                const double h = ch / static_cast<double>(readers.size());
                for (size_t n = 0; n < readers.size(); ++n) {
                    Tile t;
                    t.x = cx, t.y = cy + n * h, t.w = cw, t.h = h;
                    t.fill = tile_color(ins, ColorBy::Lane, Element{}, Location{0, readers[n].lane, 0, 0}, spec.theme);
                    t.ink = text_on(t.fill);
                    t.id = "mem" + where + "." + std::to_string(n);
                    t.lines = cell_lines(ins, req.operand, readers[n], p.transposed, form);
                    f.tiles.push_back(std::move(t));
                }
            }
        // Frames: one per access of one lane (split where it wraps to the next line).
        const double inset = std::min(1.0, cw * 0.1);
        for (const MemoryOp& op : p.plan.ops) {
            long long first = op.address * 8 / tile.element_bits;
            const long long end = ((op.address + op.bytes) * 8 + tile.element_bits - 1) / tile.element_bits;
            const double w = op.issue == spec.issue ? 1.5 * fw : 0.5 * fw;
            while (first < end) {
                const long long r = first / line_len, c0 = first % line_len;
                const long long c1 = std::min<long long>(line_len, c0 + (end - first));
                if (r >= lines) break;
                const double x1 = gx + colx[c0] * cw + inset, x2 = gx + colx[c1] * cw - inset;
                const double y1 = gy + r * ch + inset, y2 = gy + (r + 1) * ch - inset;
                f.lines.push_back({x1, y1, x2, y1, tc.text, w});
                f.lines.push_back({x2, y1, x2, y2, tc.text, w});
                f.lines.push_back({x2, y2, x1, y2, tc.text, w});
                f.lines.push_back({x1, y2, x1, y1, tc.text, w});
                first += c1 - c0;
            }
        }
        py = gy + lines * ch;
        // Caption and bank strip.
        py += 0.8 * m;
        for (const std::string& c : p.caption)
            for (const std::string& s : wrap(c, caption_font, room, ", ")) {
                py += caption_font;
                f.texts.push_back({x, py, s, caption_font, Anchor::Start, false, tc.text});
                content_w = std::max(content_w, x + text_width(s, caption_font));
                py += 0.25 * caption_font;
            }
        if (p.banks) {
            const double sx = x + panel_left;
            const double row_h = std::max(strip_slice * p.max_hits, 1.3 * index_font);  // room for "p0" and the cycles
            // Banks beyond the strip's width continue in a block below (64 banks as two rows of 32).
            for (int b0 = 0; b0 < model.banks; b0 += strip_cols) {
                py += 0.5 * m + index_font + 0.35 * m;
                const double sy = py;
                const int b1 = std::min(model.banks, b0 + strip_cols);
                f.texts.push_back({sx - 0.375 * index_font, sy - 0.35 * m, "bank", index_font, Anchor::End, false, tc.muted});
                for (int b = b0; b < b1; b += col_step)
                    f.texts.push_back({sx + (b - b0 + 0.5) * cw, sy - 0.35 * m, std::to_string(b), index_font, Anchor::Middle, false,
                                       tc.muted});
                for (size_t pass = 0; pass < p.hits.size(); ++pass) {
                    const double ry = sy + static_cast<double>(pass) * row_h;
                    f.texts.push_back({sx - 0.375 * index_font, ry + 0.5 * row_h + 0.35 * index_font, "p" + std::to_string(pass),
                                       index_font, Anchor::End, false, tc.muted});
                    if (b0 == 0) {
                        const int cycles = p.banks->passes[pass].cycles;
                        f.texts.push_back({sx + strip_cols * cw + 0.4 * m, ry + 0.5 * row_h + 0.35 * index_font,
                                           std::to_string(cycles) + (nvidia ? (cycles == 1 ? " wavefront" : " wavefronts")
                                                                     : (cycles == 1 ? " cycle" : " cycles")), index_font, Anchor::Start,
                                           cycles > 1, cycles > 1 ? conflict : tc.muted});
                        content_w = std::max(content_w, sx + strip_cols * cw + 0.4 * m + text_width(nvidia ? "64 wavefronts" : "64 cycles", index_font) * 1.12);
                    }
                    for (int b = b0; b < b1; ++b) {
                        const std::vector<int>& lanes = p.hits[pass][static_cast<size_t>(b)];
                        const double bx = sx + (b - b0) * cw;
                        const std::string id = "bank" + std::to_string(pi) + "." + std::to_string(pass) + "." + std::to_string(b) + ".";
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
                            t.fill = tile_color(ins, ColorBy::Lane, Element{}, Location{0, lanes[n], 0, 0}, spec.theme);
                            t.ink = text_on(t.fill);
                            t.id = id + std::to_string(n);
                            if (form != LabelForm::None) t.lines = {lane_text(ins, req.operand, lanes[n])};
                            f.tiles.push_back(std::move(t));
                        }
                        if (p.dwords[pass][static_cast<size_t>(b)] > 1) {  // a conflict: red frame
                            const double in = std::min(1.0, cw * 0.1), wc = conflict_w;
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
        }
        bottom = std::max(bottom, py);
        content_w = std::max(content_w, x + p.w);
        if (stacked) panel_top = bottom + panel_gap;
        else x += p.w + panel_gap;
    }

    // Legend: lane groups, padding, empty room of ld, frames, conflicts.
    const int groups = lane_groups(ins, q.mods.wave);
    for (int i = 0; i < std::min(groups, categorical_count()); ++i) {
        std::string label;
        for (int j = i; j < groups; j += categorical_count()) label += (label.empty() ? "" : ", ") + legend_label(ins, ColorBy::Lane, j);
        f.legend.push_back({categorical(i, spec.theme), label});
    }
    // NVIDIA: threads, phases and 4-byte words.
    f.legend_title = nvidia ? "Colour by the reading thread's group:" : "Colour by the reading lane's group:";
    const double lf = legend_font, swatch = fit ? m : 12;
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
    if (tile.pad > 0) marks.push_back({0, "padding"});
    if (tile.ld > extent) marks.push_back({1, "room of ld beyond the tile"});
    marks.push_back({2, std::string(nvidia ? "one thread's access" : "one lane's access") + " (thick: issue " +
                            std::to_string(spec.issue) + ")"});
    if (lds) marks.push_back({3, nvidia ? "bank serving several 4-byte words in one phase" : "bank serving several dwords in one pass"});
    const std::string who = nvidia ? "thread" : "lane";
    std::string form_words = form == LabelForm::Full ? (panels.back().transposed ? "cells: reading " + who + ", issue\u2192receiving " + who
                                                                                 : "cells: reading " + who + ", issue")
                             : form == LabelForm::Short ? "cells: reading " + who : "";
    for (const auto& [kind, label] : marks) {
        const double w = swatch + 0.4 * lf + text_width(label, lf) + 1.4 * lf;
        place(w);
        if (kind == 0) f.boxes.push_back({lx, ly, swatch, swatch, pad_fill, true, tc.grid, 0.5});
        if (kind == 1) f.boxes.push_back({lx, ly, swatch, swatch, tc.background, true, tc.grid, 0.5});
        if (kind >= 2) {
            const Rgb c = kind == 2 ? tc.text : conflict;
            const double wl = kind == 2 ? 1.5 * fw : conflict_w;
            f.lines.push_back({lx, ly, lx + swatch, ly, c, wl});
            f.lines.push_back({lx + swatch, ly, lx + swatch, ly + swatch, c, wl});
            f.lines.push_back({lx + swatch, ly + swatch, lx, ly + swatch, c, wl});
            f.lines.push_back({lx, ly + swatch, lx, ly, c, wl});
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
    f.width = std::ceil(std::max(content_w, fit ? 0.0 : 420.0) + margin);
    if (fit) f.width = std::max(f.width, std::ceil(spec.fit_width));
    f.height = std::ceil(ly + swatch + margin);
    return f;
}

}  // namespace lanescope::figures
