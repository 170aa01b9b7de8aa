#include "model/tile_view.hpp"

#include "lanescope/numbers.hpp"
#include "lanescope/palette.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace lsapp {

namespace {

constexpr float kLabelPad = 4;  // as tiles.cpp: 2 px each side
constexpr int kLaneGroupCode = 1 << 20;  // legend codes of lane groups start here
constexpr int kWaveHues = 16;            // distinct wave colours (ls::wave_color)
// Cells per operand the app draws: each is a cached Tile (about 200 bytes) and at least a
// fraction of a pixel; beyond this memory and time grow without showing more.
constexpr int kMaxTileCells = 1 << 20;

float width_of(const GridStyle& s, const std::string& text) {
    return s.text_width ? s.text_width(text) : 7.0f * static_cast<float>(text.size());
}

bool is_result(ls::Operand op) { return op == ls::Operand::C || op == ls::Operand::D; }
bool a_side(ls::Operand op) { return op == ls::Operand::A || op == ls::Operand::K || op == ls::Operand::SA; }
bool b_side(ls::Operand op) { return op == ls::Operand::B || op == ls::Operand::SB; }

int lane_group_of(const TileSet& ts, int lane) { return std::min(ts.lane_groups - 1, lane / std::max(1, ts.lane_group_size)); }

}  // namespace

const ls::TileLayout* TileSet::find(ls::Operand op) const {
    if (op == ls::Operand::C) op = ls::Operand::D;
    for (const auto& t : layouts)
        if (t.operand() == op) return &t;
    return nullptr;
}

TileSet resolve_tile(const LayoutSet& set, const ls::TileParams& p) {
    TileSet ts;
    ts.params = p;
    for (const ls::OperandLayout& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        if (l.space() != ls::Space::Registers) continue;  // wgmma B: one descriptor per instruction, no per-wave tile
        ts.layouts.emplace_back(*set.ins, *set.target, l.operand(), set.mods, p);
        const ls::TileLayout& t = ts.layouts.back();
        if (t.elements() > kMaxTileCells)
            throw ls::Error(std::string(ls::operand_name(t.operand())) + " of this tile has " + std::to_string(t.rows()) + "x" +
                            std::to_string(t.cols()) + " elements; the app draws at most " + std::to_string(kMaxTileCells) +
                            " cells per operand (e.g. 1024x1024; lanescope-cli prints larger tiles)");
    }
    if (ts.layouts.empty() && !p.single()) {
        // No register operand (tcgen05.mma: A/B in shared memory, D in Tensor Memory): core says why for D (or A).
        const ls::OperandLayout* l = set.find(ls::Operand::D) ? set.find(ls::Operand::D) : &set.layouts.front();
        ls::TileLayout(*set.ins, *set.target, l->operand(), set.mods, p);  // throws core's reason
        throw ls::Error(set.ins->mnemonic + " has no operand in registers: tiles compose the register layouts of many waves");
    }
    ts.lane_group_size = std::max(1, ls::lane_group_size(*set.ins));
    ts.ins = set.ins;
    ts.lane_groups = std::max(1, ls::lane_groups(*set.ins, set.wave()));
    return ts;
}

int tile_colour_key(int wave, int lane_group, int lane_groups) { return wave * std::max(1, lane_groups) + lane_group; }

std::vector<TileLegendEntry> tile_legend(const TileSet& ts, ls::Theme theme) {
    std::vector<TileLegendEntry> out;
    const int WN = ts.params.waves_n;
    // Hues repeat after 16 waves: then one entry per hue, naming the waves that share it.
    for (int w = 0; w < std::min(ts.waves(), kWaveHues); ++w) {
        TileLegendEntry e;
        e.kind = TileLegendEntry::Kind::Wave;
        e.index = e.code = w;
        e.colour = ls::wave_color(w, 0, ts.lane_groups, theme);
        if (ts.waves() <= kWaveHues) {
            e.text = "wave " + std::to_string(w) + " (" + std::to_string(w / WN) + "," + std::to_string(w % WN) + ")";
        } else {
            e.text = "waves " + std::to_string(w);
            int named = 1;
            for (int more = w + kWaveHues; more < ts.waves(); more += kWaveHues, ++named) {
                if (named == 3) {
                    e.text += ", \u2026";
                    break;
                }
                e.text += ", " + std::to_string(more);
            }
        }
        out.push_back(e);
    }
    if (ts.lane_groups > 1)
        for (int g = 0; g < ts.lane_groups; ++g) {
            TileLegendEntry e;
            e.kind = TileLegendEntry::Kind::LaneGroup;
            e.index = g;
            e.code = kLaneGroupCode + g;
            e.colour = ls::wave_color(0, g, ts.lane_groups, theme);
            e.text = "lanes " + std::to_string(g * ts.lane_group_size) + "\u2013" +
                     std::to_string(g * ts.lane_group_size + ts.lane_group_size - 1);
            out.push_back(e);
        }
    return out;
}

bool tile_legend_matches(int code, int key, int lane_groups) {
    lane_groups = std::max(1, lane_groups);
    if (code >= kLaneGroupCode) return key % lane_groups == code - kLaneGroupCode;
    return (key / lane_groups) % kWaveHues == code;
}

std::pair<std::string, std::string> tile_label_lines(const ls::Instruction& ins, ls::Operand op, int wave, const ls::Location& loc,
                                                     int element_bits, LabelForm form) {
    auto lines = label_lines(ins, op, loc, element_bits, form);
    if (form == LabelForm::WaveLane) lines.first = "w" + std::to_string(wave);
    else if (form != LabelForm::Number && form != LabelForm::None) lines.first = "w" + std::to_string(wave) + " " + lines.first;
    return lines;
}

namespace {
// The widest labels of a tile: the highest wave, register and lane with each
// bit range the instruction uses (digits are equally wide in the cell font).
std::vector<std::pair<int, ls::Location>> label_probes(const ls::TileLayout& t) {
    std::set<std::pair<int, int>> bits;
    for (const ls::Entry& e : t.instruction().entries()) bits.insert({e.loc.bit_lo, e.loc.bit_hi});
    std::vector<std::pair<int, ls::Location>> out;
    for (const auto& [lo, hi] : bits) out.push_back({t.waves() - 1, ls::Location{t.regs() - 1, t.lanes() - 1, lo, hi}});
    return out;
}
}  // namespace

LabelForm choose_tile_label_form(const ls::Instruction& ins, const ls::TileLayout& t, float cell_w, float cell_h, const GridStyle& style) {
    if (!style.labels) return LabelForm::None;
    const auto probes = label_probes(t);
    for (LabelForm f : {LabelForm::Full, LabelForm::TwoLines, LabelForm::Short, LabelForm::OneLine, LabelForm::Lane,
                        LabelForm::WaveLane, LabelForm::Number}) {
        bool fits = true;
        for (const auto& [wave, loc] : probes) {
            const auto [l1, l2] = tile_label_lines(ins, t.operand(), wave, loc, t.instruction().element_bits(), f);
            fits = fits && label_fits(f, l1, l2, cell_w, cell_h, style);
        }
        if (fits) return f;
    }
    return LabelForm::None;
}

float natural_tile_cell_width(const ls::Instruction& ins, const ls::TileLayout& t, const GridStyle& style) {
    float widest = 0;
    for (const auto& [wave, loc] : label_probes(t))
        widest = std::max(widest, width_of(style, tile_label_lines(ins, t.operand(), wave, loc, t.instruction().element_bits(), LabelForm::Full).first));
    return std::ceil(widest + kLabelPad + 2);
}

TileGrid build_tile_matrix_grid(const ls::TileLayout& t, const TileSet& ts, const GridStyle& style) {
    TileGrid g;
    g.operand = t.operand();
    g.view = ViewKind::Matrix;
    g.tile = true;
    g.waves = t.waves();
    g.rows = t.rows();
    g.cols = t.cols();
    g.cell_w = style.cell_w;
    g.cell_h = style.cell_h;
    g.block_gap = style.block_gap;
    g.lanes = t.lanes();
    g.regs = t.regs();
    g.blocks_shown = 1;
    g.blocks_per_row = 1;
    g.width = g.cols * g.cell_w;
    g.height = g.rows * g.cell_h;
    g.form = choose_tile_label_form(*ts.ins, t, g.cell_w, g.cell_h, style);
    const int bits = t.instruction().element_bits();
    // One pass over the entries (sorted by element, then wave): cheaper than where() per element.
    const std::vector<ls::TileEntry> entries = t.entries();
    g.tiles.resize(static_cast<size_t>(g.rows) * g.cols);
    const ls::Rgb muted = ls::theme_colors(style.theme).muted;
    for (int r = 0; r < g.rows; ++r)
        for (int c = 0; c < g.cols; ++c) {
            Tile& tile = g.tiles[static_cast<size_t>(r) * g.cols + c];
            tile.element = {0, r, c};
            tile.x0 = c * g.cell_w, tile.y0 = r * g.cell_h;
            tile.x1 = tile.x0 + g.cell_w, tile.y1 = tile.y0 + g.cell_h;
            tile.fill = muted;
            tile.copies = 0;
        }
    std::vector<const ls::TileEntry*> copies;
    auto flush = [&]() {
        if (copies.empty()) return;
        const ls::Element& e = copies.front()->element;
        Tile& tile = g.tiles[static_cast<size_t>(e.row) * g.cols + e.col];
        tile.copies = static_cast<int>(copies.size());
        g.max_copies = std::max(g.max_copies, tile.copies);
        const size_t k = style.copy < 0 ? 0 : std::min(static_cast<size_t>(style.copy), copies.size() - 1);
        tile.wave = copies[k]->at.wave;
        tile.loc = copies[k]->at.loc;
        const int group = lane_group_of(ts, tile.loc.lane);
        tile.fill = ls::wave_lane_color(*ts.ins, tile.wave, tile.loc.lane, ts.lane_groups, style.theme);
        tile.key = tile_colour_key(tile.wave, group, ts.lane_groups);
        tile.text = ls::text_on(tile.fill);
        if (style.copy < 0 && copies.size() > 1)
            for (const ls::TileEntry* c : copies) {
                const int cg = lane_group_of(ts, c->at.loc.lane);
                tile.copy_fills.push_back(ls::wave_lane_color(*ts.ins, c->at.wave, c->at.loc.lane, ts.lane_groups, style.theme));
                tile.copy_keys.push_back(tile_colour_key(c->at.wave, cg, ts.lane_groups));
            }
        if (g.form != LabelForm::None) {
            auto lines = tile_label_lines(*ts.ins, t.operand(), tile.wave, tile.loc, bits, g.form);
            tile.label = std::move(lines.first);
            tile.label2 = std::move(lines.second);
        }
        copies.clear();
    };
    for (const ls::TileEntry& e : entries) {
        if (!copies.empty() && !(copies.front()->element == e.element)) flush();
        copies.push_back(&e);
    }
    flush();
    return g;
}

void resize_tile_matrix_grid(TileGrid& g, const ls::TileLayout& t, const TileSet& ts, const GridStyle& style) {
    const LabelForm form = choose_tile_label_form(*ts.ins, t, style.cell_w, style.cell_h, style);
    const int bits = t.instruction().element_bits();
    const ls::Instruction* ins = ts.ins;
    const ls::Operand op = t.operand();
    resize_matrix_grid(g, style, form, [ins, op, bits, form](const Tile& c) { return tile_label_lines(*ins, op, c.wave, c.loc, bits, form); });
}

namespace {
void mark(const ls::TileLayout& t, OperandHighlight& h, int row, int col, std::uint8_t level) {
    if (row < 0 || col < 0 || row >= t.rows() || col >= t.cols()) return;
    auto& el = h.elements[static_cast<size_t>(row) * t.cols() + col];
    el = std::max(el, level);
}
}  // namespace

Links compute_tile_links(const TileSet& ts, const Hover& hover) {
    Links links;
    for (const ls::TileLayout& t : ts.layouts) {
        OperandHighlight h;
        h.operand = t.operand();
        h.elements.assign(static_cast<size_t>(t.elements()), 0);
        links.operands.push_back(std::move(h));
    }
    if (hover.kind == Hover::Kind::Lane) {
        for (size_t i = 0; i < ts.layouts.size(); ++i) {
            const ls::TileLayout& t = ts.layouts[i];
            if (hover.lane < 0 || hover.lane >= t.lanes()) continue;
            for (int w = 0; w < t.waves(); ++w) {
                if (hover.wave >= 0 && w != hover.wave) continue;
                for (int reg = 0; reg < t.regs(); ++reg)
                    for (const ls::SlotPart& p : t.which(w, reg, hover.lane)) mark(t, links.operands[i], p.element.row, p.element.col, 2);
            }
        }
    } else if (hover.kind == Hover::Kind::Element) {
        const ls::Element e = hover.element;
        for (size_t i = 0; i < ts.layouts.size(); ++i) {
            const ls::TileLayout& t = ts.layouts[i];
            OperandHighlight& h = links.operands[i];
            const ls::Operand op = t.operand();
            if (op == hover.operand || (is_result(op) && is_result(hover.operand))) {
                mark(t, h, e.row, e.col, 2);
            } else if (is_result(hover.operand)) {
                // D[i][j] = sum_k A[i][k] B[k][j] over the whole K of the tile.
                if (a_side(op))
                    for (int c = 0; c < t.cols(); ++c) mark(t, h, e.row, c, 1);
                if (b_side(op))
                    for (int r = 0; r < t.rows(); ++r) mark(t, h, r, e.col, 1);
            } else if (is_result(op) && a_side(hover.operand)) {
                for (int c = 0; c < t.cols(); ++c) mark(t, h, e.row, c, 1);
            } else if (is_result(op) && b_side(hover.operand)) {
                for (int r = 0; r < t.rows(); ++r) mark(t, h, r, e.col, 1);
            }
        }
    }
    index_marks(links);
    return links;
}

std::vector<int> waves_holding(const ls::TileLayout& t, const ls::Element& e) {
    std::vector<int> out;
    for (const ls::TileLocation& at : t.where(e))
        if (std::find(out.begin(), out.end(), at.wave) == out.end()) out.push_back(at.wave);
    std::sort(out.begin(), out.end());
    return out;
}

std::string register_order_text(const ls::TileLayout& t) {
    std::string s;
    for (const auto& [digit, count] : t.register_order())
        s += (s.empty() ? "" : ", ") + std::string(ls::tile_digit_name(digit)) + " x" + std::to_string(count);
    return s;
}

namespace {
std::string params_text(const ls::TileLayout& t) {
    const ls::TileParams& p = t.params();
    return "waves " + std::to_string(p.waves_m) + "x" + std::to_string(p.waves_n) + ", tiles per wave " +
           std::to_string(p.tiles_m) + "x" + std::to_string(p.tiles_n) + ", shape " + std::to_string(p.m) + "x" +
           std::to_string(p.n) + "x" + std::to_string(p.k);
}
}  // namespace

std::string describe_tile_element(const TileSet& ts, ls::Operand op, const ls::Element& e) {
    const ls::TileLayout* t = ts.find(op);
    if (!t || e.row < 0 || e.col < 0 || e.row >= t->rows() || e.col >= t->cols()) return {};
    std::ostringstream s;
    s << ls::operand_name(t->operand()) << "[" << e.row << "][" << e.col << "]  (" << ls::elem_name(t->instruction().type())
      << ")\n";
    const auto locs = t->where(e);
    const auto waves = waves_holding(*t, e);
    s << "held in " << locs.size() << (locs.size() == 1 ? " place" : " places");
    if (waves.size() > 1) {
        s << ", by waves";
        for (int w : waves) s << " " << w;
        s << (a_side(t->operand()) ? " (A is shared by the waves along N)" : b_side(t->operand()) ? " (B is shared by the waves along M)" : "");
    }
    s << ":\n";
    for (size_t i = 0; i < locs.size() && i < 16; ++i)
        s << "  wave " << locs[i].wave << ", lane " << locs[i].loc.lane << ", register v" << locs[i].loc.reg << ", bits "
          << locs[i].loc.bit_lo << ".." << locs[i].loc.bit_hi << "\n";
    if (locs.size() > 16) s << "  ...\n";
    s << "tile: " << params_text(*t) << "\n";
    s << "register order (fastest first): " << register_order_text(*t) << "\n";
    s << "reg = step * " << t->instruction().regs() << " + the instruction's register";
    return s.str();
}

std::string tile_summary(const TileSet& ts, const ls::Instruction& ins) {
    if (ts.empty()) return {};
    std::ostringstream s;
    s << "tile: " << params_text(ts.layouts.front()) << " (" << ts.waves() << " waves of " << ts.layouts.front().lanes()
      << " lanes)\n";
    for (const ls::TileLayout& t : ts.layouts) {
        const std::string name = t.operand() == ls::Operand::D ? "C / D" : std::string(ls::operand_name(t.operand()));
        s << name << ": " << t.rows() << "x" << t.cols() << ", " << t.regs() << " " << ls::register_noun(ins.vendor())
          << "s per lane (" << t.steps() << " instruction copies x " << t.instruction().regs() << "), register order "
          << register_order_text(t) << "\n";
    }
    return s.str();
}

}  // namespace lsapp
