#include "model/tiles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_set>

namespace lsapp {

namespace {
constexpr float kLabelPad = 4;  // 2 px each side

float width_of(const GridStyle& s, const std::string& text) {
    return s.text_width ? s.text_width(text) : 7.0f * static_cast<float>(text.size());
}
}  // namespace

const char* label_form_name(LabelForm f) {
    switch (f) {
        case LabelForm::Full: return "full (v0[15:0] \u00B7 L17)";
        case LabelForm::TwoLines: return "two lines (v0[15:0] / L17)";
        case LabelForm::Short: return "short (v0 / L17)";
        case LabelForm::OneLine: return "one line (v0 L17)";
        case LabelForm::Lane: return "lane (L17)";
        case LabelForm::WaveLane: return "wave / lane (w1 / L17)";
        case LabelForm::Number: return "lane number (17)";
        case LabelForm::None: return "none (colours only)";
    }
    return "?";
}

std::pair<std::string, std::string> label_lines(const ls::Instruction& ins, ls::Operand op, const ls::Location& loc,
                                                int element_bits, LabelForm form, ls::Space space) {
    return ls::cell_label_lines(ins, op, loc, element_bits, form, space);
}

bool label_fits(LabelForm f, const std::string& l1, const std::string& l2, float cell_w, float cell_h, const GridStyle& style) {
    const bool two = f == LabelForm::TwoLines || f == LabelForm::Short || f == LabelForm::WaveLane;
    if (f == LabelForm::Number) {
        const float w = style.small_text_width ? style.small_text_width(l1) : 0.75f * width_of(style, l1);
        return style.small_line_h <= cell_h && w + 2 <= cell_w;
    }
    if ((two ? 2 : 1) * style.line_h + 2 > cell_h) return false;
    return std::max(width_of(style, l1), l2.empty() ? 0.0f : width_of(style, l2)) + kLabelPad <= cell_w;
}

namespace {
int digits(int v) { return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : 5 + (v >= 100000); }

// Cells whose labels are equally wide, whatever the form: the register part of a label (core's
// cell_label) depends on the register and bits alone, the lane part on the lane's digits (digits
// are equally wide in the cell font) and, in TMEM, on its CTA. Shared-memory labels are addresses
// (hex letters differ in width): each location is its own class there.
std::uint64_t label_width_class(const ls::Location& loc, ls::Space space) {
    const auto u = [](int v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)); };
    const std::uint64_t base = (u(loc.reg) << 32) ^ (u(loc.bit_lo & 0xff) << 24) ^ (u(loc.bit_hi & 0xff) << 16);
    if (space == ls::Space::SharedMemory) return base ^ (u(loc.lane) & 0xffff) ^ (std::uint64_t{1} << 63);
    if (space == ls::Space::TensorMemory) return base ^ u(digits(loc.lane % 128)) ^ (u(loc.lane / 128) << 4);
    return base ^ u(digits(loc.lane));
}

// The locations a matrix tile shows: one (copy k, clamped) or, for "all", the first.
ls::Location shown_location(const std::vector<ls::Location>& locs, int copy) {
    if (locs.empty()) return {};
    if (copy < 0) return locs.front();
    return locs[static_cast<size_t>(std::min(copy, static_cast<int>(locs.size()) - 1))];
}
}  // namespace

LabelForm choose_label_form(const ls::Instruction& ins, const ls::OperandLayout& layout, float cell_w, float cell_h,
                            const GridStyle& style) {
    if (!style.labels) return LabelForm::None;
    // Distinct locations shown (labels depend only on the location).
    std::vector<ls::Location> shown;
    for (int b = 0; b < layout.blocks(); ++b) {
        if (style.block >= 0 && style.block < layout.blocks() && b != style.block) continue;
        for (int r = 0; r < layout.rows(); ++r)
            for (int c = 0; c < layout.cols(); ++c) {
                const auto locs = layout.where({b, r, c});
                if (!locs.empty()) shown.push_back(shown_location(locs, style.copy));
            }
    }
    for (LabelForm f : {LabelForm::Full, LabelForm::TwoLines, LabelForm::Short, LabelForm::OneLine, LabelForm::Lane,
                        LabelForm::Number}) {
        // Every location is measured (bits and numbers vary).
        bool fits = true;
        std::string last1 = "\x01", last2;
        for (const ls::Location& loc : shown) {
            auto [l1, l2] = label_lines(ins, layout.operand(), loc, layout.element_bits(), f, layout.space());
            if (l1 == last1 && l2 == last2) continue;
            if (!label_fits(f, l1, l2, cell_w, cell_h, style)) {
                fits = false;
                break;
            }
            last1 = std::move(l1), last2 = std::move(l2);
        }
        if (fits) return f;
    }
    return LabelForm::None;
}

int colour_key(const ls::Instruction& ins, ls::ColorBy by, const ls::Element& e, const ls::Location& loc, ls::Space space) {
    switch (by) {
        case ls::ColorBy::Lane:
            // Core's location_color classes: TMEM lane quarters, shared memory 16-byte chunks.
            if (space == ls::Space::SharedMemory) return (loc.reg % 32) / 4;
            return ls::space_lane_group(ins, space, loc.lane);
        case ls::ColorBy::Register: return loc.reg;
        case ls::ColorBy::Block: return e.block;
    }
    return 0;
}

std::string element_label(const ls::Element& e, int blocks) {
    std::string s = std::to_string(e.row) + "," + std::to_string(e.col);
    return blocks > 1 ? "b" + std::to_string(e.block) + ":" + s : s;
}

float natural_cell_width(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style) {
    // The widest label appears at the highest register and lane.
    ls::Location probe{std::max(0, layout.regs() - 1), layout.lanes() - 1, 0, layout.element_bits() - 1};
    if (layout.element_bits() < 32) probe.bit_lo = 32 - layout.element_bits(), probe.bit_hi = 31;
    return std::ceil(width_of(style, ls::cell_label_text(ins, layout.operand(), probe, layout.element_bits(), " \u00B7 ", layout.space())) + kLabelPad + 2);
}

float natural_cell_height(const GridStyle& style) { return std::ceil(2 * style.line_h + 4); }

TileGrid build_matrix_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style) {
    TileGrid g;
    g.operand = layout.operand();
    g.view = ViewKind::Matrix;
    g.rows = layout.rows();
    g.cols = layout.cols();
    g.cell_w = style.cell_w;
    g.cell_h = style.cell_h;
    g.block_gap = style.block_gap;
    g.lanes = layout.lanes();
    g.regs = layout.regs();
    const bool one = style.block >= 0 && style.block < layout.blocks();
    g.first_block = one ? style.block : 0;
    g.blocks_shown = one ? 1 : layout.blocks();
    g.blocks_per_row = style.blocks_per_row > 0 ? std::min(style.blocks_per_row, g.blocks_shown) : g.blocks_shown;
    const float stride = g.cols * g.cell_w + g.block_gap;
    const float stride_y = g.rows * g.cell_h + g.block_gap;
    const int block_rows = (g.blocks_shown + g.blocks_per_row - 1) / g.blocks_per_row;
    g.width = g.blocks_per_row * stride - g.block_gap;
    g.height = block_rows * stride_y - g.block_gap;
    g.tiles.reserve(static_cast<size_t>(g.blocks_shown) * g.rows * g.cols);
    g.form = choose_label_form(ins, layout, g.cell_w, g.cell_h, style);
    for (int bi = 0; bi < g.blocks_shown; ++bi) {
        const int b = g.first_block + bi;
        for (int r = 0; r < g.rows; ++r) {
            for (int c = 0; c < g.cols; ++c) {
                Tile t;
                t.element = {b, r, c};
                const std::vector<ls::Location> locs = layout.where(t.element);
                t.copies = static_cast<int>(locs.size());
                g.max_copies = std::max(g.max_copies, t.copies);
                t.loc = shown_location(locs, style.copy);
                t.x0 = (bi % g.blocks_per_row) * stride + c * g.cell_w;
                t.y0 = (bi / g.blocks_per_row) * stride_y + r * g.cell_h;
                t.x1 = t.x0 + g.cell_w;
                t.y1 = t.y0 + g.cell_h;
                t.fill = locs.empty() ? ls::theme_colors(style.theme).muted
                                      : ls::tile_shade(ins, style.color_by, t.element, t.loc, style.theme, layout.space());
                t.key = colour_key(ins, style.color_by, t.element, t.loc, layout.space());
                t.text = ls::text_on(t.fill);
                if (style.copy < 0 && t.copies > 1) {
                    for (const ls::Location& l : locs) {
                        t.copy_fills.push_back(ls::tile_shade(ins, style.color_by, t.element, l, style.theme, layout.space()));
                        t.copy_keys.push_back(colour_key(ins, style.color_by, t.element, l, layout.space()));
                    }
                }
                if (!locs.empty() && g.form != LabelForm::None) {
                    auto lines = label_lines(ins, layout.operand(), t.loc, layout.element_bits(), g.form, layout.space());
                    t.label = std::move(lines.first);
                    t.label2 = std::move(lines.second);
                }
                g.tiles.push_back(std::move(t));
            }
        }
    }
    return g;
}

void resize_matrix_grid(TileGrid& g, const GridStyle& style, LabelForm form,
                        const std::function<std::pair<std::string, std::string>(const Tile&)>& label) {
    g.cell_w = style.cell_w;
    g.cell_h = style.cell_h;
    g.block_gap = style.block_gap;
    g.blocks_per_row = style.blocks_per_row > 0 ? std::min(style.blocks_per_row, g.blocks_shown) : g.blocks_shown;
    const float stride = g.cols * g.cell_w + g.block_gap, stride_y = g.rows * g.cell_h + g.block_gap;
    const int block_rows = (g.blocks_shown + g.blocks_per_row - 1) / std::max(1, g.blocks_per_row);
    g.width = g.blocks_per_row * stride - g.block_gap;
    g.height = block_rows * stride_y - g.block_gap;
    const bool relabel = form != g.form;
    g.form = form;
    if (relabel) g.label_of = form == LabelForm::None ? nullptr : label;
    for (Tile& t : g.tiles) {
        const int bi = t.element.block - g.first_block;
        t.x0 = (bi % g.blocks_per_row) * stride + t.element.col * g.cell_w;
        t.y0 = (bi / g.blocks_per_row) * stride_y + t.element.row * g.cell_h;
        t.x1 = t.x0 + g.cell_w;
        t.y1 = t.y0 + g.cell_h;
        if (relabel) t.label.clear(), t.label2.clear();
    }
}

void resize_matrix_grid(TileGrid& g, const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style) {
    // Each form's widest label over the locations shown (what choose_label_form measures), measured
    // the first time the cells are tall enough for the form: zooming in measures one form at a time,
    // over several steps, instead of all of them in the first step (tens of ms on the largest grids).
    if (g.form_widths.empty())
        for (LabelForm f : {LabelForm::Full, LabelForm::TwoLines, LabelForm::Short, LabelForm::OneLine, LabelForm::Lane,
                            LabelForm::Number})
            g.form_widths.push_back({f, -1.0f});
    auto widest_label = [&](LabelForm f) {
        float widest = 0;
        std::string last1 = "\x01", last2;
        std::unordered_set<std::uint64_t> measured;  // one cell of each width class (65,536 cells of D: 30 ms -> 1 ms)
        for (const Tile& t : g.tiles) {
            if (t.copies <= 0 || !measured.insert(label_width_class(t.loc, layout.space())).second) continue;
            auto [l1, l2] = label_lines(ins, layout.operand(), t.loc, layout.element_bits(), f, layout.space());
            if (l1 == last1 && l2 == last2) continue;
            const float w = f == LabelForm::Number ? (style.small_text_width ? style.small_text_width(l1) : 0.75f * width_of(style, l1))
                                                    : std::max(width_of(style, l1), l2.empty() ? 0.0f : width_of(style, l2));
            widest = std::max(widest, w);
            last1 = std::move(l1), last2 = std::move(l2);
        }
        return widest;
    };
    // The first form whose widest label fits (label_fits' rule, for every cell at once).
    LabelForm form = LabelForm::None;
    if (style.labels)
        for (auto& [f, widest] : g.form_widths) {
            const bool two = f == LabelForm::TwoLines || f == LabelForm::Short || f == LabelForm::WaveLane;
            const bool tall = f == LabelForm::Number ? style.small_line_h <= style.cell_h : (two ? 2 : 1) * style.line_h + 2 <= style.cell_h;
            if (!tall) continue;
            if (widest < 0) widest = widest_label(f);
            const bool fits = f == LabelForm::Number ? widest + 2 <= style.cell_w : widest + kLabelPad <= style.cell_w;
            if (fits) {
                form = f;
                break;
            }
        }
    const ls::Instruction* i = &ins;
    const ls::Operand op = layout.operand();
    const int bits = layout.element_bits();
    const ls::Space space = layout.space();
    resize_matrix_grid(g, style, form, [i, op, bits, form, space](const Tile& t) { return label_lines(*i, op, t.loc, bits, form, space); });
}

TileGrid build_register_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style) {
    TileGrid g;
    g.operand = layout.operand();
    g.view = ViewKind::Registers;
    g.space = layout.space();
    g.lanes = layout.lanes();
    g.regs = layout.regs();
    g.rows = g.lanes;
    g.cols = g.regs;
    g.cell_h = style.cell_h;
    g.cell_w = style.cell_w;
    const int parts = std::clamp(32 / std::max(1, layout.element_bits()), 1, 4);
    g.slot_w = style.cell_w * static_cast<float>(parts);
    g.width = g.regs * g.slot_w;
    g.height = g.lanes * g.cell_h;
    g.slot_first.assign(static_cast<size_t>(g.lanes) * g.regs + 1, 0);
    for (int lane = 0; lane < g.lanes; ++lane) {
        for (int reg = 0; reg < g.regs; ++reg) {
            g.slot_first[static_cast<size_t>(lane) * g.regs + reg] = static_cast<int>(g.tiles.size());
            const float x = reg * g.slot_w, y = lane * g.cell_h;
            for (const ls::SlotPart& p : layout.which(reg, lane)) {
                Tile t;
                t.element = p.element;
                t.loc = {reg, lane, p.bit_lo, p.bit_hi};
                // Low bits on the left, so packed elements read in order.
                t.x0 = x + g.slot_w * static_cast<float>(p.bit_lo) / 32.0f;
                t.x1 = x + g.slot_w * static_cast<float>(std::min(p.bit_hi, 31) + 1) / 32.0f;
                t.y0 = y;
                t.y1 = y + g.cell_h;
                t.fill = ls::tile_shade(ins, style.color_by, p.element, t.loc, style.theme, layout.space());
                t.text = ls::text_on(t.fill);
                t.key = colour_key(ins, style.color_by, p.element, t.loc, layout.space());
                if (style.labels) t.label = element_label(p.element, layout.blocks());
                g.tiles.push_back(std::move(t));
            }
        }
    }
    g.slot_first.back() = static_cast<int>(g.tiles.size());
    // One form for the whole view: element labels on every part, or on none.
    bool fits = style.line_h + 2 <= g.cell_h;
    for (const Tile& t : g.tiles)
        if (fits && !t.label.empty() && width_of(style, t.label) + kLabelPad > t.x1 - t.x0) fits = false;
    if (!fits)
        for (Tile& t : g.tiles) t.label.clear();
    return g;
}

int TileGrid::hit(float x, float y) const {
    if (x < 0 || y < 0 || x >= width || y >= height) return -1;
    if (view == ViewKind::Matrix) {
        const float stride = cols * cell_w + block_gap, stride_y = rows * cell_h + block_gap;
        const int bx = static_cast<int>(x / stride), by = static_cast<int>(y / stride_y);
        const float xin = x - bx * stride, yin = y - by * stride_y;
        if (xin >= cols * cell_w || yin >= rows * cell_h || bx >= blocks_per_row) return -1;  // in a gap between blocks
        const int bi = by * blocks_per_row + bx;
        if (bi >= blocks_shown) return -1;
        const int c = std::min(cols - 1, static_cast<int>(xin / cell_w));
        const int r = std::min(rows - 1, static_cast<int>(yin / cell_h));
        const size_t idx = (static_cast<size_t>(bi) * rows + r) * cols + c;
        return idx < tiles.size() ? static_cast<int>(idx) : -1;
    }
    const int lane = std::min(lanes - 1, static_cast<int>(y / cell_h));
    const int reg = std::min(regs - 1, static_cast<int>(x / slot_w));
    const size_t slot = static_cast<size_t>(lane) * regs + reg;
    for (int i = slot_first[slot]; i < slot_first[slot + 1]; ++i) {
        const Tile& t = tiles[static_cast<size_t>(i)];
        if (x >= t.x0 && x < t.x1) return i;
    }
    return -1;
}

}  // namespace lsapp
