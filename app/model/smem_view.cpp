// The Memory tab's descriptor view (smem_view.hpp): core's SmemOperand and chunks, indexed for drawing.
#include "model/smem_view.hpp"

#include "lanescope/options.hpp"
#include "lanescope/palette.hpp"

#include <algorithm>
#include <numeric>

namespace lsapp {

bool descriptor_operand(const LayoutSet& set, ls::Operand op) {
    return set.ins && set.target && ls::in_shared_memory(*set.ins, op, set.mods);  // core's rule (smem.hpp)
}

SmemView build_smem_view(const LayoutSet& set, ls::Operand op) {
    SmemView v;
    v.operand = op;
    if (!descriptor_operand(set, op)) {
        v.error = std::string("operand ") + std::string(ls::operand_name(op)) + " is not read through a matrix descriptor";
        return v;
    }
    try {
        v.so = ls::smem_operand(*set.ins, op, set.mods);
    } catch (const ls::Error& e) {
        v.error = e.what();
        return v;
    }
    const ls::SmemOperand& so = *v.so;
    v.chunks = ls::smem_chunks(so);
    v.chunk_of_element.assign(static_cast<size_t>(so.rows) * so.cols, -1);
    const int e = std::max(1, so.element_bits);
    v.cell_bits = e % 8 == 0 || 8 % e == 0 ? e : std::gcd(e, 8);
    const int cells = std::max(1, 128 / v.cell_bits), per_value = std::max(1, e / v.cell_bits);
    v.element_of_cell.assign(v.chunks.size(), std::vector<int>(static_cast<size_t>(cells), -1));
    for (size_t i = 0; i < v.chunks.size(); ++i) {
        const ls::SmemChunk& ch = v.chunks[i];
        v.cores = std::max(v.cores, ch.core + 1);
        if (v.rows.empty() || v.rows.back() != ch.address / 128) v.rows.push_back(ch.address / 128);
        for (const auto& [r, c] : ch.elements) {
            const int index = r * so.cols + c;
            v.chunk_of_element[static_cast<size_t>(index)] = static_cast<int>(i);
            const auto [mn, k] = so.mn_k(r, c);
            // The value's bits from core's address and bit (a 6-bit value may run into the next byte).
            const int at = (static_cast<int>(so.address(mn, k) - ch.address) * 8 + so.bit(mn, k)) / v.cell_bits;
            for (int c = at; c < std::min(cells, at + per_value); ++c)
                if (v.element_of_cell[i][static_cast<size_t>(c)] < 0) v.element_of_cell[i][static_cast<size_t>(c)] = index;
        }
    }
    return v;
}

bool scale_factor_operand(const LayoutSet& set, ls::Operand op) {
    return set.ins && set.target && (op == ls::Operand::SA || op == ls::Operand::SB) && set.find(op) &&
           ls::scale_factor_path_refusal(*set.ins, op).empty();
}

ScaleFactorView build_scale_factor_view(const LayoutSet& set, ls::Operand op) {
    ScaleFactorView v;
    v.operand = op;
    if (!set.ins) {
        v.error = "no instruction";
        return v;
    }
    try {
        v.tile = ls::scale_factor_tile(*set.ins, op);
        v.bytes = v.tile->byte_map();
    } catch (const ls::Error& e) {
        v.tile.reset();
        v.error = e.what();
    }
    return v;
}

std::string ScaleFactorView::label(int byte) const {
    if (!tile || byte < 0 || byte >= static_cast<int>(bytes.size()) || bytes[static_cast<size_t>(byte)].first < 0) return "";
    const auto [x, kb] = bytes[static_cast<size_t>(byte)];
    return std::string(operand == ls::Operand::SA ? "m" : "n") + std::to_string(x) + " kb" + std::to_string(kb);
}

std::string ScaleFactorView::description(int byte) const {
    if (label(byte).empty()) return tile ? "byte " + std::to_string(byte) + ": padding (CUTLASS's 128-row block)" : "";
    const auto [x, kb] = bytes[static_cast<size_t>(byte)];
    return ls::scale_factor_answer(*tile, tile->place(x, kb));
}

int ScaleFactorView::column(int byte) const {
    if (label(byte).empty()) return -1;
    const auto [x, kb] = bytes[static_cast<size_t>(byte)];
    return tile->place(x, kb).tmem_column;
}

int SmemView::chunk_at(std::uint32_t address) const {
    const std::uint32_t first = address / 16 * 16;
    auto it = std::lower_bound(chunks.begin(), chunks.end(), first,
                               [](const ls::SmemChunk& c, std::uint32_t a) { return c.address < a; });
    return it != chunks.end() && it->address == first ? static_cast<int>(it - chunks.begin()) : -1;
}

std::optional<ls::Element> SmemView::element_at(int chunk, int byte) const { return element_at_bit(chunk, 8 * byte); }

std::optional<ls::Element> SmemView::element_at_bit(int chunk, int bit) const {
    if (!so || chunk < 0 || chunk >= static_cast<int>(chunks.size()) || bit < 0 || bit >= 128) return std::nullopt;
    const int index = element_of_cell[static_cast<size_t>(chunk)][static_cast<size_t>(bit / cell_bits)];
    if (index < 0) return std::nullopt;
    return ls::Element{0, index / so->cols, index % so->cols};
}

int SmemView::row_of(int chunk) const {
    const std::uint32_t row = chunks[static_cast<size_t>(chunk)].address / 128;
    return static_cast<int>(std::lower_bound(rows.begin(), rows.end(), row) - rows.begin());
}

int smem_cells_per_row(const SmemView& v) { return v.so ? 128 * 8 / v.cell_bits : 0; }

TileGrid smem_tile_grid(const SmemView& v, const GridStyle& style) {
    TileGrid g;
    g.operand = v.operand;
    g.view = ViewKind::Matrix;
    g.space = ls::Space::SharedMemory;
    if (!v.so) return g;
    const int cols = smem_cells_per_row(v), rows = static_cast<int>(v.rows.size());
    const int bits = v.so->element_bits;
    const int per_chunk = 128 / v.cell_bits;
    g.rows = rows, g.cols = cols, g.blocks_shown = 1, g.blocks_per_row = 1;
    g.cell_w = style.cell_w, g.cell_h = style.cell_h;
    g.width = cols * style.cell_w, g.height = rows * style.cell_h;
    g.form = LabelForm::None;
    const ls::ThemeColors tc = ls::theme_colors(style.theme);
    g.tiles.resize(static_cast<size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            Tile& t = g.tiles[static_cast<size_t>(r) * cols + c];
            t.x0 = c * style.cell_w, t.y0 = r * style.cell_h, t.x1 = t.x0 + style.cell_w, t.y1 = t.y0 + style.cell_h;
            const std::uint32_t byte = smem_cell_address(v, r * cols + c);
            const int chunk = v.chunk_at(byte);
            const auto e = v.element_at_bit(chunk, c % per_chunk * v.cell_bits);
            if (!e) {
                t.fill = tc.background, t.text = tc.text, t.copies = 0, t.key = -1;
                continue;
            }
            const int core = v.chunks[static_cast<size_t>(chunk)].core;
            t.fill = ls::categorical(core, style.theme);
            t.text = ls::text_on(t.fill);
            t.element = *e;
            // The element's own first byte and bits (core's), whichever of its cells this is.
            const auto [mn, k] = v.so->mn_k(e->row, e->col);
            const std::uint32_t first = v.so->address(mn, k);
            const int lo = static_cast<int>(first % 4 * 8) + v.so->bit(mn, k);
            t.loc = ls::Location{static_cast<int>(first % 128 / 4), static_cast<int>(first / 128), lo, lo + bits - 1};
            t.key = core;
        }
    return g;
}

int smem_cell_of(const SmemView& v, const ls::Element& e) {
    if (!v.so || e.block != 0 || e.row < 0 || e.col < 0 || e.row >= v.so->rows || e.col >= v.so->cols) return -1;
    const int chunk = v.chunk_of_element[static_cast<size_t>(e.row) * v.so->cols + e.col];
    if (chunk < 0) return -1;
    const auto [mn, k] = v.so->mn_k(e.row, e.col);
    const std::uint32_t a = v.so->address(mn, k);
    return v.row_of(chunk) * smem_cells_per_row(v) + static_cast<int>((a % 128 * 8 + static_cast<std::uint32_t>(v.so->bit(mn, k))) /
                                                                      static_cast<std::uint32_t>(v.cell_bits));
}

std::uint32_t smem_cell_address(const SmemView& v, int cell) {
    const int cols = smem_cells_per_row(v);
    return v.rows[static_cast<size_t>(cell / cols)] * 128 +
           static_cast<std::uint32_t>(cell % cols * v.cell_bits / 8);
}

void colour_by_core_matrix(TileGrid& fragment, const SmemView& v, ls::Theme theme) {
    if (!v.so) return;
    for (Tile& t : fragment.tiles) {
        if (t.element.row >= v.so->rows || t.element.col >= v.so->cols) continue;
        const int chunk = v.chunk_of_element[static_cast<size_t>(t.element.row) * v.so->cols + t.element.col];
        if (chunk < 0) continue;
        t.key = v.chunks[static_cast<size_t>(chunk)].core;
        t.fill = ls::categorical(t.key, theme);
        t.text = ls::text_on(t.fill);
        t.copy_fills.clear(), t.copy_keys.clear();
    }
}

DescriptorControls descriptor_controls(const LayoutSet& set, const SmemView& v) {
    DescriptorControls c;
    if (v.so) {
        c.major = static_cast<int>(v.so->major);
        c.swizzle = static_cast<int>(v.so->desc.swizzle);
        c.lbo = static_cast<int>(v.so->desc.lbo);
        c.sbo = static_cast<int>(v.so->desc.sbo);
        c.start = static_cast<int>(v.so->desc.start);
        c.base_offset = v.so->desc.base_offset;
    }
    const bool whole = set.chosen.descriptor.has_value();
    c.lbo_chosen = whole || set.chosen.lbo >= 0;
    c.sbo_chosen = whole || set.chosen.sbo >= 0;
    c.start_chosen = whole || set.chosen.smem_address >= 0;
    c.base_chosen = whole || set.chosen.base_offset >= 0;
    if (set.ins && set.target)
        for (const ls::ModifierRange& r : ls::modifier_ranges(*set.ins, *set.target, set.mods)) {
            if (r.name == "smem_major") c.majors = r.values;
            if (r.name == "swizzle") c.swizzles = r.values;
        }
    if (c.majors.empty()) c.majors = {c.major};
    if (c.swizzles.empty()) c.swizzles = {c.swizzle};
    return c;
}

DescriptorApplied apply_descriptor_text(const ls::Modifiers& mods, const std::string& text) {
    DescriptorApplied out;
    out.mods = mods;
    const ls::ModifierOption* row = ls::find_modifier_option("descriptor");
    try {
        if (!row) throw ls::Error("no descriptor option");
        ls::apply_option_value(out.mods, *row, ls::parse_option_value(*row, text, "--descriptor"));
    } catch (const ls::Error& e) {
        out.error = e.what();
        out.mods = mods;
    }
    return out;
}

}  // namespace lsapp
