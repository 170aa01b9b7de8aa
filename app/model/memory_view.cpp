#include "model/memory_view.hpp"

#include "model/links.hpp"
#include "model/tile_view.hpp"

#include "lanescope/transpose.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace lsapp {

using lanescope::hex;
using lanescope::HexCase;

namespace {

bool is_result(ls::Operand op) { return op == ls::Operand::C || op == ls::Operand::D; }

// Cells that are not the operand's: the pad after each line is greyed, the
// rest of ld (another operand's part of a wider tile) stays background.
ls::Rgb padding_fill(ls::Theme t) { return t == ls::Theme::Dark ? ls::Rgb{0x3A, 0x3C, 0x41} : ls::Rgb{0xCD, 0xD0, 0xD5}; }
ls::Rgb unread_fill(ls::Theme t) { return t == ls::Theme::Dark ? ls::Rgb{0x2C, 0x2E, 0x32} : ls::Rgb{0xEC, 0xED, 0xF0}; }


}  // namespace

const char* plan_kind_name(MemoryPlan::Kind k) {
    switch (k) {
        case MemoryPlan::Kind::Plain: return "plain loads";
        case MemoryPlan::Kind::Transposed: return "transpose loads";
        case MemoryPlan::Kind::Store: return "stores";
    }
    return "";
}

// Blocks are stacked along the rows (memory.hpp: memory_row).
int memory_lines(const ls::OperandLayout& l, ls::MemoryOrder order) {
    return order == ls::MemoryOrder::RowMajor ? l.blocks() * l.rows() : l.cols();
}
int memory_extent(const ls::OperandLayout& l, ls::MemoryOrder order) {
    return ls::contiguous_extent(order, l.blocks() * l.rows(), l.cols());
}

ls::MemoryTile effective_tile(const ls::OperandLayout& l, const MemorySettings& s) {
    ls::MemoryTile t = s.tile;
    if (t.ld <= 0) t.ld = memory_extent(l, t.order);
    t.element_bits = l.element_bits();
    return t;
}

ls::MemoryTile effective_tile(const MemoryMatrix& mm, const MemorySettings& s) {
    ls::MemoryTile t = s.tile;
    if (t.ld <= 0) t.ld = ls::contiguous_extent(t.order, mm.rows, mm.cols);
    t.element_bits = mm.element_bits;
    return t;
}

MemoryMatrix memory_matrix(const LayoutSet& set, const MemorySettings& s) {
    const ls::OperandLayout* l = set.find(s.operand);
    if (!set.ins || !l)
        throw ls::Error(std::string(set.ins ? set.ins->mnemonic : "this instruction") + " has no operand " +
                        std::string(ls::operand_name(s.operand)));
    MemoryMatrix mm;
    mm.element_bits = l->element_bits();
    if (s.tiles) {
        const ls::TileLayout t(*set.ins, *set.target, s.operand, set.mods, *s.tiles);
        mm.rows = t.rows(), mm.cols = t.cols(), mm.block_rows = t.rows();
    } else {
        mm.rows = l->blocks() * l->rows(), mm.cols = l->cols(), mm.block_rows = l->rows();
    }
    return mm;
}

std::vector<WaveLoads> wave_loads(const MemoryPlan& p) {
    std::map<int, WaveLoads> by;
    for (const IssueRow& r : p.issues) {
        WaveLoads& w = by[r.wave];
        w.wave = r.wave;
        ++w.instructions;
        if (r.report >= 0) {
            w.cycles += p.banks[static_cast<size_t>(r.report)].cycles;
            w.minimum_cycles += p.banks[static_cast<size_t>(r.report)].minimum_cycles;
        }
        if (r.coalescing >= 0) {
            w.cache_lines += p.coalescing[static_cast<size_t>(r.coalescing)].cache_lines;
            w.minimum_lines += p.coalescing[static_cast<size_t>(r.coalescing)].minimum_lines;
        }
    }
    std::vector<WaveLoads> out;
    for (const auto& kv : by) out.push_back(kv.second);
    return out;
}

int worst_wave(const std::vector<WaveLoads>& w, bool lds) {
    int best = -1;
    long long cost = -1;
    for (const WaveLoads& x : w) {
        const long long c = lds ? x.cycles : x.cache_lines;
        if (c > cost) cost = c, best = x.wave;
    }
    return best;
}

std::vector<ls::PassGrouping> groupings_for(const LayoutSet& set, const std::string& mnemonic) {
    try {
        return ls::pass_groupings(*set.target, mnemonic, set.wave());
    } catch (const ls::Error&) {
        return {};
    }
}

MemoryPlan make_plan(const LayoutSet& set, const MemorySettings& s, MemoryPlan::Kind kind) {
    MemoryPlan plan;
    plan.kind = kind;
    const ls::Operand op = s.operand;
    try {
        const ls::MemoryTile tile = effective_tile(memory_matrix(set, s), s);
        switch (kind) {
            case MemoryPlan::Kind::Plain:
                // NVIDIA: ldmatrix where every register is one m8n8 matrix of the tile, else ld.shared (core decides).
                if (set.target->vendor() == ls::Vendor::NVIDIA && !s.ld_shared && !(s.tiles && !s.tiles->single())) {
                    try {
                        plan.ops = ls::plan_matrix_loads(*set.ins, *set.target, op, set.mods, tile, false);
                        break;
                    } catch (const ls::Error&) {
                    }
                }
                plan.ops = ls::plan_plain_loads(*set.ins, *set.target, op, set.mods, tile, s.tiles);
                break;
            case MemoryPlan::Kind::Transposed:
                plan.ops = ls::plan_transposed_loads(*set.ins, *set.target, op, set.mods, tile, s.tiles);
                break;
            case MemoryPlan::Kind::Store:
                if (!is_result(op)) throw ls::Error("stores are of C/D only; " + std::string(ls::operand_name(op)) + " is loaded");
                if (set.target->vendor() == ls::Vendor::NVIDIA && !s.ld_shared && !(s.tiles && !s.tiles->single())) {
                    try {
                        plan.ops = ls::plan_matrix_loads(*set.ins, *set.target, op, set.mods, tile, true);  // stmatrix
                        break;
                    } catch (const ls::Error&) {
                    }
                }
                plan.ops = ls::plan_stores(*set.ins, *set.target, op, set.mods, tile, s.tiles);
                break;
        }
    } catch (const ls::Error& e) {
        plan.error = e.what();
        plan.ops.clear();
        return plan;
    }
    if (plan.ops.empty() && plan.error.empty()) plan.error = std::string("no ") + plan_kind_name(kind) + " planned";
    if (kind == MemoryPlan::Kind::Transposed && !plan.ops.empty()) {
        // The lane rule is not in any AMD manual table: its confidence goes wherever the plan is shown.
        for (const ls::TransposeFeed& f : ls::transpose_loads_for(*set.ins, *set.target, op, set.mods))
            if (f.load && f.load->mnemonic == plan.ops.front().mnemonic) {
                plan.confidence = "lane rule " + std::string(ls::transpose_rule_name(f.load->rule)) + ", confidence " + f.confidence;
                plan.confidence_basis = f.load->confidence_basis + (f.load->source.empty() ? "" : " (sources: " + f.load->source + ")");
                break;
            }
    }
    // One row per wave-level instruction, in (wave, issue) order.
    std::map<std::pair<int, int>, size_t> rows;
    for (size_t i = 0; i < plan.ops.size(); ++i) {
        const ls::MemoryOp& o = plan.ops[i];
        const auto key = std::make_pair(o.wave, o.issue);
        auto it = rows.find(key);
        if (it == rows.end()) {
            IssueRow r;
            r.wave = o.wave, r.issue = o.issue, r.mnemonic = o.mnemonic, r.builtin = o.builtin;
            it = rows.emplace(key, plan.issues.size()).first;
            plan.issues.push_back(std::move(r));
        }
        IssueRow& r = plan.issues[it->second];
        r.ops.push_back(static_cast<int>(i));
        r.bytes = std::max(r.bytes, o.bytes);
    }
    std::sort(plan.issues.begin(), plan.issues.end(),
              [](const IssueRow& a, const IssueRow& b) { return std::make_pair(a.wave, a.issue) < std::make_pair(b.wave, b.issue); });
    for (IssueRow& r : plan.issues) {
        std::set<int> lanes;
        for (int i : r.ops) lanes.insert(plan.ops[static_cast<size_t>(i)].lane);
        r.lanes = static_cast<int>(lanes.size());
    }
    if (s.tile.space == ls::MemorySpace::Lds) {
        try {
            plan.bank_model = ls::bank_model(*set.target);
            plan.banks = ls::analyse_banks(plan.ops, *set.target, set.wave());
            // The user's grouping applies to the instructions it is offered for.
            if (!s.grouping.empty()) {
                for (ls::BankReport& rep : plan.banks) {
                    const auto offered = groupings_for(set, rep.mnemonic);
                    const bool has = std::any_of(offered.begin(), offered.end(),
                                                 [&](const ls::PassGrouping& g) { return g.name == s.grouping; });
                    if (!has) continue;
                    std::vector<ls::MemoryOp> mine;
                    for (const ls::MemoryOp& o : plan.ops)
                        if (o.wave == rep.wave && o.issue == rep.issue) mine.push_back(o);
                    const auto again = ls::analyse_banks(mine, *set.target, set.wave(), s.grouping);
                    if (!again.empty()) rep = again.front();
                }
            }
        } catch (const ls::Error& e) {
            plan.bank_error = e.what();
            plan.banks.clear();
        }
        if (plan.banks.empty() && plan.bank_error.empty()) plan.bank_error = "no bank analysis for these instructions";
        for (size_t k = 0; k < plan.banks.size(); ++k) {
            const ls::BankReport& rep = plan.banks[k];
            plan.cycles += rep.cycles;
            plan.minimum_cycles += rep.minimum_cycles;
            for (IssueRow& r : plan.issues)
                if (r.wave == rep.wave && r.issue == rep.issue) r.report = static_cast<int>(k);
        }
    } else {
        try {
            plan.coalescing = ls::analyse_coalescing(plan.ops);
        } catch (const ls::Error& e) {
            plan.bank_error = e.what();
        }
        for (size_t k = 0; k < plan.coalescing.size(); ++k)
            for (IssueRow& r : plan.issues)
                if (r.wave == plan.coalescing[k].wave && r.issue == plan.coalescing[k].issue) r.coalescing = static_cast<int>(k);
    }
    return plan;
}

std::pair<int, int> memory_position(const ls::MemoryTile& t, int row, int col) {
    const bool row_major = t.order == ls::MemoryOrder::RowMajor;
    const int line = row_major ? row : col;
    int pos = row_major ? col : row;
    // memory.hpp: pos XOR (vec * ((line / per_phase) % max_phase)).
    if (t.swizzle.active()) pos ^= t.swizzle.vec * ((line / std::max(1, t.swizzle.per_phase)) % t.swizzle.max_phase);
    return {line, pos};
}

int MemoryGrid::cell_of(const ls::OperandLayout& l, const ls::Element& e) const {
    if (!l.contains(e)) return -1;
    const size_t i = static_cast<size_t>(ls::memory_row(e, l.rows())) * l.cols() + e.col;
    return i < cell_of_element.size() ? cell_of_element[i] : -1;
}

int MemoryGrid::cell_of(const ls::Element& e) const {
    if (e.row < 0 || e.col < 0 || e.col >= cols || e.block < 0 || e.row >= block_rows) return -1;
    const size_t i = static_cast<size_t>(ls::memory_row(e, block_rows)) * cols + e.col;
    return i < cell_of_element.size() ? cell_of_element[i] : -1;
}

std::pair<int, int> MemoryGrid::op_cells(const ls::MemoryOp& op) const {
    const long long bits = std::max(1, tile.element_bits);
    const long long n = static_cast<long long>(cells.size());
    const long long first = std::clamp(op.address * 8 / bits, 0LL, n);
    const long long last = std::clamp((op.address + op.bytes) * 8 / bits, first, n);
    return {static_cast<int>(first), static_cast<int>(last)};
}

MemoryGrid build_memory_grid(const ls::OperandLayout& l, const ls::MemoryTile& tile, const std::vector<ls::MemoryOp>& ops) {
    MemoryMatrix mm;
    mm.rows = l.blocks() * l.rows(), mm.cols = l.cols(), mm.block_rows = l.rows(), mm.element_bits = l.element_bits();
    return build_memory_grid(l.operand(), mm, tile, ops);
}

MemoryGrid build_memory_grid(ls::Operand op, const MemoryMatrix& mm, const ls::MemoryTile& tile, const std::vector<ls::MemoryOp>& ops) {
    MemoryGrid g;
    g.operand = op;
    g.tile = tile;
    g.cols = mm.cols;
    g.block_rows = std::max(1, mm.block_rows);
    g.lines = tile.order == ls::MemoryOrder::RowMajor ? mm.rows : mm.cols;
    g.extent = ls::contiguous_extent(tile.order, mm.rows, mm.cols);
    g.positions = std::max(tile.ld, g.extent) + std::max(0, tile.pad);
    g.cells.assign(static_cast<size_t>(g.lines) * g.positions, MemoryCell{});
    for (int line = 0; line < g.lines; ++line)
        for (int p = std::max(tile.ld, g.extent); p < g.positions; ++p) g.cells[static_cast<size_t>(g.cell(line, p))].kind = MemoryCell::Kind::Padding;
    const int rows = mm.rows;
    g.cell_of_element.assign(static_cast<size_t>(rows) * mm.cols, -1);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < mm.cols; ++c) {
            const auto [line, pos] = memory_position(tile, r, c);
            if (line < 0 || line >= g.lines || pos < 0 || pos >= g.positions) continue;  // a swizzle past the line
            const int cell = g.cell(line, pos);
            MemoryCell& m = g.cells[static_cast<size_t>(cell)];
            m.kind = MemoryCell::Kind::Element;
            m.element = ls::Element{r / g.block_rows, r % g.block_rows, c};
            g.cell_of_element[static_cast<size_t>(r) * mm.cols + c] = cell;
        }
    for (size_t i = 0; i < ops.size(); ++i) {
        for (const ls::Delivery& d : ops[i].delivers) {
            const int cell = g.cell_of(d.element);
            if (cell < 0) continue;
            MemoryCell& m = g.cells[static_cast<size_t>(cell)];
            if (m.op < 0) m.op = static_cast<int>(i), m.to = d.at;
            ++m.readers;
        }
    }
    return g;
}

TileGrid memory_tiles(const ls::Instruction& ins, const MemoryGrid& g, const std::vector<ls::MemoryOp>& ops,
                      const GridStyle& style, const TileSet* tiles) {
    TileGrid t;
    t.operand = g.operand;
    t.view = ViewKind::Matrix;
    t.rows = g.lines;
    t.cols = g.positions;
    t.blocks_shown = 1;
    t.blocks_per_row = 1;
    t.cell_w = style.cell_w;
    t.cell_h = style.cell_h;
    t.width = g.positions * style.cell_w;
    t.height = g.lines * style.cell_h;
    const ls::ThemeColors colors = ls::theme_colors(style.theme);
    // Labels (the reading lane) only when every one of them fits.
    // Lane numbers are the Number form: the small font (label_fits).
    bool labels = style.labels;
    if (labels) {
        int widest = 0;
        for (const ls::MemoryOp& o : ops) widest = std::max(widest, o.lane);
        labels = label_fits(LabelForm::Number, std::to_string(widest), "", style.cell_w, style.cell_h, style);
    }
    t.form = labels ? LabelForm::Number : LabelForm::None;
    t.tile = tiles != nullptr;
    t.waves = tiles ? std::max(1, tiles->waves()) : 1;
    // Tile mode: every (wave, lane) an element reaches (B is read by each wave of a grid column); the cell
    // shows them all as the Layout tab shows an element's copies (stripes, or alternating columns at fit).
    std::vector<std::vector<std::pair<int, int>>> readers;
    if (tiles) {
        readers.resize(g.cells.size());
        for (const ls::MemoryOp& o : ops)
            for (const ls::Delivery& d : o.delivers) {
                const int cell = g.cell_of(d.element);
                if (cell >= 0) readers[static_cast<size_t>(cell)].emplace_back(d.wave, d.at.lane);
            }
        for (auto& r : readers) {
            std::sort(r.begin(), r.end());
            r.erase(std::unique(r.begin(), r.end()), r.end());
        }
    }
    t.tiles.reserve(g.cells.size());
    for (int line = 0; line < g.lines; ++line) {
        for (int p = 0; p < g.positions; ++p) {
            const MemoryCell& m = g.cells[static_cast<size_t>(g.cell(line, p))];
            Tile tile;
            tile.x0 = p * style.cell_w, tile.x1 = (p + 1) * style.cell_w;
            tile.y0 = line * style.cell_h, tile.y1 = (line + 1) * style.cell_h;
            tile.element = m.element;
            tile.key = -1;
            if (m.kind == MemoryCell::Kind::Padding) tile.fill = padding_fill(style.theme);
            else if (m.kind == MemoryCell::Kind::Unused) tile.fill = colors.background;
            else if (m.op < 0) tile.fill = unread_fill(style.theme);
            else {
                const ls::MemoryOp& o = ops[static_cast<size_t>(m.op)];
                tile.loc = ls::Location{o.reg, o.lane, 0, 0};
                if (tiles) {
                    const int groups = std::max(1, tiles->lane_groups);
                    const int group = std::min(groups - 1, o.lane / std::max(1, tiles->lane_group_size));
                    tile.wave = o.wave;
                    tile.fill = ls::wave_lane_color(ins, o.wave, o.lane, groups, style.theme);
                    tile.key = tile_colour_key(o.wave, group, groups);
                    const auto& rd = readers[static_cast<size_t>(g.cell(line, p))];
                    tile.copies = std::max(1, static_cast<int>(rd.size()));
                    t.max_copies = std::max(t.max_copies, tile.copies);
                    if (rd.size() > 1)
                        for (const auto& [wave, lane] : rd) {
                            tile.copy_fills.push_back(ls::wave_lane_color(ins, wave, lane, groups, style.theme));
                            tile.copy_keys.push_back(tile_colour_key(wave, std::min(groups - 1, lane / std::max(1, tiles->lane_group_size)), groups));
                        }
                } else {
                    tile.fill = ls::tile_shade(ins, style.color_by, m.element, tile.loc, style.theme);
                    tile.key = colour_key(ins, style.color_by, m.element, tile.loc);
                }
                if (labels) tile.label = std::to_string(o.lane);
            }
            tile.text = ls::text_on(tile.fill);
            t.tiles.push_back(std::move(tile));
        }
    }
    return t;
}

BankStrip bank_strip(const std::vector<ls::MemoryOp>& ops, const IssueRow& row, const ls::BankModel& model,
                     const std::vector<std::vector<int>>& passes) {
    BankStrip s;
    s.banks = std::max(1, model.banks);
    s.bank_bytes = std::max(1, model.bank_bytes);
    s.lanes = passes;
    s.distinct.assign(passes.size(), std::vector<int>(static_cast<size_t>(s.banks), 0));
    s.pass_cycles.assign(passes.size(), 0);
    std::map<int, size_t> pass_of_lane;
    for (size_t p = 0; p < passes.size(); ++p)
        for (int lane : passes[p]) pass_of_lane.emplace(lane, p);
    // Distinct bank words per (pass, bank): lanes reading the same word are one broadcast.
    std::vector<std::set<long long>> words(passes.size() * static_cast<size_t>(s.banks));
    for (int i : row.ops) {
        const ls::MemoryOp& o = ops[static_cast<size_t>(i)];
        const auto it = pass_of_lane.find(o.lane);
        if (it == pass_of_lane.end() || o.bytes <= 0) continue;
        for (long long w = o.address / s.bank_bytes; w <= (o.address + o.bytes - 1) / s.bank_bytes; ++w)
            words[it->second * static_cast<size_t>(s.banks) + static_cast<size_t>(w % s.banks)].insert(w);
    }
    for (size_t p = 0; p < passes.size(); ++p) {
        for (int b = 0; b < s.banks; ++b) {
            const int n = static_cast<int>(words[p * static_cast<size_t>(s.banks) + static_cast<size_t>(b)].size());
            s.distinct[p][static_cast<size_t>(b)] = n;
            s.pass_cycles[p] = std::max(s.pass_cycles[p], n);
        }
        s.cycles += s.pass_cycles[p];
    }
    return s;
}

std::vector<int> conflict_cells(const MemoryGrid& g, const std::vector<ls::MemoryOp>& ops, const IssueRow& row,
                                const BankStrip& strip) {
    std::vector<int> out;
    std::map<int, size_t> pass_of_lane;
    for (size_t p = 0; p < strip.lanes.size(); ++p)
        for (int lane : strip.lanes[p]) pass_of_lane.emplace(lane, p);
    const long long bits = std::max(1, g.tile.element_bits);
    for (int i : row.ops) {
        const ls::MemoryOp& o = ops[static_cast<size_t>(i)];
        const auto it = pass_of_lane.find(o.lane);
        if (it == pass_of_lane.end()) continue;
        const auto [first, last] = g.op_cells(o);
        for (int c = first; c < last; ++c) {
            const long long word = static_cast<long long>(c) * bits / 8 / strip.bank_bytes;
            if (strip.distinct[it->second][static_cast<size_t>(word % strip.banks)] > 1) out.push_back(c);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string describe_memory_cell(const LayoutSet& set, const MemoryGrid& g, const MemoryPlan& plan, int cell) {
    if (cell < 0 || cell >= static_cast<int>(g.cells.size())) return {};
    const MemoryCell& m = g.cells[static_cast<size_t>(cell)];
    const int line = cell / std::max(1, g.positions), pos = cell % std::max(1, g.positions);
    const long long address = static_cast<long long>(cell) * g.tile.element_bits / 8;
    std::ostringstream s;
    const char* line_name = g.tile.order == ls::MemoryOrder::RowMajor ? "row" : "column";
    s << line_name << " " << line << ", position " << pos << ": byte " << address << " (" << hex(static_cast<std::uint64_t>(address)) << ")";
    if (plan.bank_model && g.tile.space == ls::MemorySpace::Lds)
        s << ", bank " << (address / std::max(1, plan.bank_model->bank_bytes)) % std::max(1, plan.bank_model->banks);
    s << "\n";
    if (m.kind == MemoryCell::Kind::Padding) return s.str() + "padding (pad " + std::to_string(g.tile.pad) + " after ld " +
                                                     std::to_string(g.tile.ld) + "): never read";
    if (m.kind == MemoryCell::Kind::Unused)
        return s.str() + "inside ld but outside " + std::string(ls::operand_name(g.operand)) + ": not read by this operand";
    const ls::OperandLayout* l = set.find(g.operand);
    s << ls::operand_name(g.operand);
    if (l && l->blocks() > 1) s << "[block " << m.element.block << "]";
    s << "[" << m.element.row << "][" << m.element.col << "]\n";
    if (m.op < 0) {
        s << "not touched by the " << plan_kind_name(plan.kind) << (plan.ok() ? "" : " (" + plan.error + ")");
        return s.str();
    }
    const ls::MemoryOp& o = plan.ops[static_cast<size_t>(m.op)];
    const bool store = plan.kind == MemoryPlan::Kind::Store;
    s << (store ? "written by lane " : "read by lane ") << o.lane << ": " << o.mnemonic << " (instruction " << o.issue;
    if (o.wave) s << " of wave " << o.wave;
    s << "), bytes " << o.address << ".." << o.address + o.bytes - 1 << (store ? " from v" : " into v") << o.reg;
    if (o.bytes > 4) s << "..v" << o.reg + (o.bytes + 3) / 4 - 1;
    s << "\n";
    if (!o.builtin.empty()) s << "builtin " << o.builtin << "\n";
    if (l) s << (store ? "held in " : "lands in ") << ls::tile_label(m.to, l->element_bits(), true) << " (lane " << m.to.lane
             << ", v" << m.to.reg << " bits " << m.to.bit_lo << ".." << m.to.bit_hi << ")";
    if (m.readers > 1) s << "\n" << (store ? "written" : "read") << " by " << m.readers << " instructions (replicated)";
    return s.str();
}

}  // namespace lsapp
