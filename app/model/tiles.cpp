#include "model/tiles.hpp"

#include <algorithm>
#include <cmath>

namespace lsapp {

namespace {
constexpr float kLabelPad = 6;

float width_of(const GridStyle& s, const std::string& text) {
    return s.text_width ? s.text_width(text) : 7.0f * static_cast<float>(text.size());
}
}  // namespace

std::string fitting_label(const ls::Location& loc, int element_bits, float width, const GridStyle& style) {
    if (!style.labels) return {};
    std::string full = ls::tile_label(loc, element_bits, true);
    if (width_of(style, full) + kLabelPad <= width) return full;
    std::string brief = ls::tile_label(loc, element_bits, false);
    if (width_of(style, brief) + kLabelPad <= width) return brief;
    std::string lane_only = "L" + std::to_string(loc.lane);
    if (width_of(style, lane_only) + kLabelPad <= width) return lane_only;
    std::string number = std::to_string(loc.lane);
    if (width_of(style, number) + 2 <= width) return number;
    return {};
}

std::string element_label(const ls::Element& e, int blocks) {
    std::string s = std::to_string(e.row) + "," + std::to_string(e.col);
    return blocks > 1 ? "b" + std::to_string(e.block) + ":" + s : s;
}

float natural_cell_width(const ls::OperandLayout& layout, const GridStyle& style) {
    // The widest label appears at the highest register and lane.
    ls::Location probe{std::max(0, layout.regs() - 1), layout.lanes() - 1, 0, layout.element_bits() - 1};
    if (layout.element_bits() < 32) probe.bit_lo = 32 - layout.element_bits(), probe.bit_hi = 31;
    return std::ceil(width_of(style, ls::tile_label(probe, layout.element_bits(), true)) + kLabelPad + 2);
}

float fit_cell(float natural, float minimum, float avail, int count) {
    if (count <= 0) return natural;
    return std::floor(std::clamp(avail / static_cast<float>(count), minimum, std::max(minimum, natural)));
}

int best_blocks_per_row(int blocks, int cols, int rows, float avail_w, float avail_h, float natural_w, float natural_h,
                        float min_h) {
    // Prefer arrangements whose rows fit the height (cells cannot get shorter
    // than a line of text); among those, the one with the widest cells.
    int best = std::max(1, blocks);
    float best_score = -1e9f;
    for (int per_row = 1; per_row <= blocks; ++per_row) {
        const int block_rows = (blocks + per_row - 1) / per_row;
        const float cell_w = avail_w / static_cast<float>(per_row * cols);
        const float cell_h = avail_h / static_cast<float>(block_rows * rows);
        const bool fits = cell_h >= min_h;
        const float score = fits ? std::min(cell_w, natural_w) + std::min(cell_h, natural_h) : -1e6f + cell_h;
        if (score > best_score + 1e-3f) best_score = score, best = per_row;
    }
    return best;
}

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
    for (int bi = 0; bi < g.blocks_shown; ++bi) {
        const int b = g.first_block + bi;
        for (int r = 0; r < g.rows; ++r) {
            for (int c = 0; c < g.cols; ++c) {
                Tile t;
                t.element = {b, r, c};
                const std::vector<ls::Location> locs = layout.where(t.element);
                t.copies = static_cast<int>(locs.size());
                if (!locs.empty()) t.loc = locs.front();
                t.x0 = (bi % g.blocks_per_row) * stride + c * g.cell_w;
                t.y0 = (bi / g.blocks_per_row) * stride_y + r * g.cell_h;
                t.x1 = t.x0 + g.cell_w;
                t.y1 = t.y0 + g.cell_h;
                t.fill = locs.empty() ? ls::theme_colors(style.theme).muted
                                      : ls::tile_color(ins, style.color_by, t.element, t.loc, style.theme);
                t.text = ls::text_on(t.fill);
                if (!locs.empty()) t.label = fitting_label(t.loc, layout.element_bits(), g.cell_w, style);
                if (t.copies > 1 && !t.label.empty()) {
                    // Replicated element: say in how many places (the tooltip lists them).
                    std::string more = t.label + " \u00D7" + std::to_string(t.copies);
                    if (width_of(style, more) + kLabelPad <= g.cell_w) t.label = std::move(more);
                }
                g.tiles.push_back(std::move(t));
            }
        }
    }
    return g;
}

TileGrid build_register_grid(const ls::Instruction& ins, const ls::OperandLayout& layout, const GridStyle& style) {
    TileGrid g;
    g.operand = layout.operand();
    g.view = ViewKind::Registers;
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
                t.fill = ls::tile_color(ins, style.color_by, p.element, t.loc, style.theme);
                t.text = ls::text_on(t.fill);
                if (style.labels) {
                    std::string l = element_label(p.element, layout.blocks());
                    if (width_of(style, l) + kLabelPad <= t.x1 - t.x0) t.label = std::move(l);
                }
                g.tiles.push_back(std::move(t));
            }
        }
    }
    g.slot_first.back() = static_cast<int>(g.tiles.size());
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
