#include "ui/app.hpp"
#include "model/goto.hpp"
#include "model/notes.hpp"
#include "model/copy_text.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lsapp {

namespace {
double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void apply_theme(ls::Theme theme) {
    if (theme == ls::Theme::Dark) ImGui::StyleColorsDark();
    else ImGui::StyleColorsLight();
    // Keep the tile palette's colours to the tiles: an opaque UI colour equal
    // to one of them (the light theme's disabled text is the palette's grey)
    // is moved by one step, so pixel counts of a screenshot stay meaningful.
    ImGuiStyle& style = ImGui::GetStyle();
    for (ImVec4& c : style.Colors) {
        for (int i = 0; i < ls::categorical_count(); ++i) {
            for (ls::Theme t : {ls::Theme::Light, ls::Theme::Dark}) {
                const ls::Rgb p = ls::categorical(i, t);
                auto byte = [](float f) { return static_cast<int>(f * 255.0f + 0.5f); };
                if (byte(c.x) == p.r && byte(c.y) == p.g && byte(c.z) == p.b)
                    c.x = std::max(0.0f, c.x - 2.0f / 255.0f);
            }
        }
    }
}
}  // namespace

App::App(const ls::Catalog& cat, Settings s, Platform& p) : catalog(cat), platform(p), settings(std::move(s)) {
    scale = platform.content_scale();
    ImGuiIO& io = ImGui::GetIO();
    // DejaVu Sans when installed (fonts-dejavu-core), else ImGui's built-in font.
    const float size = 15.0f * scale;
    ImFontConfig cfg;
    cfg.OversampleH = 1;
    cfg.PixelSnapH = true;
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
    font = nullptr;
    if (FILE* f = std::fopen("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb")) {
        std::fclose(f);
        font = io.Fonts->AddFontFromFileTTF("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size, &cfg, ranges);
    }
    if (!font) {
        ImFontConfig def;
        def.SizePixels = 13.0f * scale;
        font = io.Fonts->AddFontDefault(&def);
    }
    font_size = font->ConfigData ? font->ConfigData->SizePixels : size;  // FontSize is set only when the atlas builds
    // Cell labels: a size smaller than the UI's, so that more cells can carry text.
    cell_font_size = std::round(12.0f * scale);
    cell_font = nullptr;
    if (FILE* f = std::fopen("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb")) {
        std::fclose(f);
        cell_font = io.Fonts->AddFontFromFileTTF("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", cell_font_size, &cfg, ranges);
    }
    if (!cell_font) cell_font = font, cell_font_size = font_size;
    small_font_size = std::round(9.0f * scale);
    small_font = nullptr;
    if (FILE* f = std::fopen("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf", "rb")) {
        std::fclose(f);
        small_font = io.Fonts->AddFontFromFileTTF("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf", small_font_size, &cfg, ranges);
    }
    if (!small_font) small_font = cell_font, small_font_size = cell_font_size;
    mono_font = nullptr;
    if (FILE* f = std::fopen("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "rb")) {
        std::fclose(f);
        mono_font = io.Fonts->AddFontFromFileTTF("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", std::round(14.0f * scale), &cfg, ranges);
    }
    if (!mono_font) mono_font = font;
    apply_theme(settings.view.theme);
    ImGui::GetStyle().ScaleAllSizes(scale);
    regs_canvas.prefer_width = true;
    tab = static_cast<Tab>(std::clamp(settings.view.tab, 0, 5));
    tab_forced = tab != Tab::Layout;
    select(settings.selection);
}

App::~App() {
    for (auto& v : views) v.matrix_tex.release(), v.registers_tex.release(), v.side_tex.release(), v.inset_tex.release(), v.tmem_tex.release();
    for (auto& v : compare.views) v.matrix_tex.release(), v.registers_tex.release();
    for (auto& v : compare.left) v.matrix_tex.release();
    memory.tex.release(), memory.second_tex.release(), memory.fragment_tex.release();
}

GridStyle App::grid_style() const {
    GridStyle st;
    st.color_by = settings.view.color_by;
    st.theme = settings.view.theme;
    st.labels = settings.view.labels;
    st.block = settings.view.block;
    st.copy = copy;
    st.block_gap = 8 * scale;
    ImFont* f = cell_font;
    const float fs = cell_font_size;
    st.text_width = [f, fs](const std::string& text) { return f->CalcTextSizeA(fs, FLT_MAX, 0.0f, text.c_str()).x; };
    st.line_h = std::ceil(cell_font_size + 1);
    ImFont* sf = small_font;
    const float ss = small_font_size;
    st.small_text_width = [sf, ss](const std::string& text) { return sf->CalcTextSizeA(ss, FLT_MAX, 0.0f, text.c_str()).x; };
    st.small_line_h = std::ceil(small_font_size * 0.85f);  // digits only: no descenders
    st.cell_h = natural_cell_height(st);
    return st;
}

std::vector<GridShape> App::layout_shapes() const {
    std::vector<GridShape> out;
    if (tile.active()) {
        // Tile mode: the operands' tiles, no register views beside them (a tile's lanes are per wave).
        auto add_tile = [&](ls::Operand op) {
            if (const ls::TileLayout* t = tile.tiles.find(op)) out.push_back(GridShape{t->operand(), t->rows(), t->cols(), 1, false});
        };
        if (!only_operands.empty())
            for (ls::Operand op : only_operands) add_tile(op);
        else
            for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K, ls::Operand::SA, ls::Operand::SB})
                add_tile(op);
        return out;
    }
    auto add = [&](ls::Operand op, bool registers) {
        const ls::OperandLayout* l = set.find(op == ls::Operand::C ? ls::Operand::D : op);
        if (!l) return;
        if (registers && l->space() != ls::Space::Registers) return;  // wgmma B: no registers to show beside it
        GridShape g;
        g.op = l->operand();
        g.registers = registers;
        if (registers) {
            g.rows = l->lanes();
            g.cols = l->regs() * std::clamp(32 / std::max(1, l->element_bits()), 1, 4);
        } else {
            g.rows = l->rows();
            g.cols = l->cols();
            g.blocks = settings.view.block >= 0 && settings.view.block < l->blocks() ? 1 : l->blocks();
        }
        out.push_back(g);
    };
    if (!only_operands.empty()) {
        for (ls::Operand op : only_operands) add(op, false);
    } else {
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K, ls::Operand::SA, ls::Operand::SB})
            add(op, false);
    }
    if (settings.view.show_registers)
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K}) add(op, true);
    return out;
}

std::vector<GridShape> App::register_shapes() const {
    std::vector<GridShape> out;
    for (const auto& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        GridShape g;
        g.op = l.operand();
        g.registers = true;
        g.rows = l.lanes();
        g.cols = l.regs() * std::clamp(32 / std::max(1, l.element_bits()), 1, 4);
        out.push_back(g);
        if (l.operand() == ls::Operand::D && set.tmem_d) {
            // Where the registers were read from: D in Tensor Memory, beside them.
            g.tmem_d = true;
            g.rows = set.tmem_d->lanes();
            g.cols = set.tmem_d->regs() * std::clamp(32 / std::max(1, set.tmem_d->element_bits()), 1, 4);
            out.push_back(g);
        }
    }
    return out;
}

ArrangeParams App::canvas_params(const Canvas& c, bool registers) const {
    ArrangeParams p = c.view;
    const GridStyle st = grid_style();
    p.panel_w = c.size.x > 0 ? c.size.x : ImGui::GetIO().DisplaySize.x - (side_width + 40) * scale;
    p.panel_h = c.size.y > 0 ? c.size.y : ImGui::GetIO().DisplaySize.y - 6 * ImGui::GetFrameHeightWithSpacing();
    p.margin = 10 * scale;
    p.gap = 16 * scale;
    // Two lines: a narrow operand's title wraps (name and shape over type and registers) instead of losing them.
    p.heading_h = std::ceil(2 * ImGui::GetTextLineHeight() + 4 * scale);
    // Rows of blocks are named on the left ("b12–15"): room for the widest such name.
    // TMEM lanes and shared-memory lines are named in their own terms ("CTA1 lane 127", "0x0F80").
    float lane_text_w = st.text_width(registers ? "L63" : "127");
    if (registers && set.ins)
        for (const auto& l : set.layouts)
            if (l.space() != ls::Space::Registers)
                lane_text_w = std::max(lane_text_w, st.text_width(ls::lane_axis_text(*set.ins, l.lanes() - 1, l.space())));
    if (registers && set.ins && set.tmem_d)
        lane_text_w = std::max(lane_text_w, st.text_width(ls::lane_axis_text(*set.ins, set.tmem_d->lanes() - 1, ls::Space::TensorMemory)));
    p.axis_w = std::ceil(std::max(lane_text_w,
                                  !registers && set.ins && set.ins->blocks > 1 ? st.text_width("b00–00") : 0.0f) +
                         6 * scale);
    p.axis_h = std::ceil(cell_font_size + 3 * scale);
    p.block_gap = st.block_gap;
    // A column is at least as wide as a short two-line title ("A  32x1" over "f32 1v").
    // (registers: "SA  e8m0" over "1v", so that a narrow register view keeps its type and count)
    p.min_column_w = std::ceil(ImGui::CalcTextSize(registers ? "SA  e8m0" : "e8m0 [15:8] 1v").x + 4 * scale);
    p.gemm = registers ? false : only_operands.empty();
    if (registers) {
        p.natural_w = std::ceil(st.text_width(set.ins->blocks > 1 ? "b15:00,00" : "00,00") + 8 * scale);
        p.natural_h = std::ceil(st.line_h + 6 * scale);
    } else {
        float natural = 0;
        if (tile.active())
            for (const auto& t : tile.tiles.layouts) natural = std::max(natural, natural_tile_cell_width(*set.ins, t, st));
        else
            for (const auto& l : set.layouts) natural = std::max(natural, natural_cell_width(*set.ins, l, st));
        p.natural_w = natural;
        p.natural_h = natural_cell_height(st);
    }
    if (max_texture_size_ <= 0) {
        GLint max_size = 4096;
        glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
        max_texture_size_ = max_size;
    }
    p.max_grid_px = static_cast<float>(std::min(max_texture_size_, 8192)) - 2;
    return p;
}

void App::select(const Selection& s) {
    try {
        LayoutSet next = resolve_selection(catalog, s);
        set = std::move(next);
        settings.selection = s;
        settings.selection.instruction = selection_name(*set.ins);
        settings.selection.arch = set.target->gfx;
        settings.selection.mods = set.chosen;
        selection_error.clear();
    } catch (const ls::Error& e) {
        selection_error = e.what();
        if (!set.ins) {  // nothing valid yet: fall back to the default instruction
            set = resolve_selection(catalog, Selection{});
            settings.selection = Selection{};
        }
    }
    if (settings.view.block >= set.ins->blocks) settings.view.block = -1;
    resolve_tile_mode();
    // A new instruction or modifier opens on the whole picture.
    layout_canvas.fit();
    // Tensor Memory (128 lanes a CTA, four lane quarters) opens whole; registers open at "fit width".
    regs_canvas.prefer_width = !set.tmem_d && std::none_of(set.layouts.begin(), set.layouts.end(), [](const ls::OperandLayout& l) {
        return l.space() == ls::Space::TensorMemory;
    });
    regs_canvas.fit();
    copy = -1;
    hover = pinned = Hover{};
    // A verification belongs to one instruction and modifier setting.
    verify.have = false;
    verify.error.clear();
    verify.status.clear();
    verify.key.clear();
    grids_dirty = hits_dirty = values_dirty = compare_dirty = true;
    // The Memory tab keeps its controls; an operand the instruction lacks falls back to B (or the first).
    if (!set.find(memory.settings.operand)) {
        memory.settings.operand = set.find(ls::Operand::B) ? ls::Operand::B : set.layouts.front().operand();
        memory.settings.store = false;
    }
    memory.settings.issue = 0;
    memory.plans_dirty = true;
    memory.canvas.fit();
    links = compute_links(set, Hover{});
    links_for_ = Hover{};
    notes = picture_notes(set);
    goto_error.clear();
    request_redraw();
}

void App::centre_on(const Hover& h) {
    if (h.kind != Hover::Kind::Element) return;
    Canvas& c = layout_canvas;
    ArrangeParams p = canvas_params(c, false);
    p.pan_x = p.pan_y = 0;
    const Arrangement arr = arrange(c.shapes, p);
    const PlacedGrid* g = arr.find(h.operand == ls::Operand::C ? ls::Operand::D : h.operand);
    if (!g) return;
    const int bi = std::max(0, h.element.block - std::max(0, settings.view.block));
    const int bpr = std::max(1, g->blocks_per_row);
    const float x = g->grid.x0 + (bi % bpr) * (g->shape.cols * arr.cell_w + p.block_gap) + (h.element.col + 0.5f) * arr.cell_w;
    const float y = g->grid.y0 + (bi / bpr) * (g->shape.rows * arr.cell_h + p.block_gap) + (h.element.row + 0.5f) * arr.cell_h;
    c.view.pan_x = p.panel_w * 0.5f - x, c.view.pan_y = p.panel_h * 0.5f - y;
}

void App::resolve_tile_mode() {
    tile.tiles = TileSet{};
    tile.error.clear();
    tile.links = Links{};
    if (!tile.enabled || !set.ins) return;
    try {
        tile.tiles = resolve_tile(set, tile.want);
    } catch (const ls::Error& e) {
        tile.error = e.what();
    }
    tile.pick_wave = std::clamp(tile.pick_wave, 0, std::max(0, tile.tiles.waves() - 1));
    tile.pick_lane = std::clamp(tile.pick_lane, 0, std::max(0, set.wave() - 1));
    memory.plans_dirty = true;  // the Memory tab plans the tile (or, with tile mode off, one instruction)
}

void App::set_tile(bool enabled, const ls::TileParams& p) {
    if (enabled == tile.enabled && p == tile.want) return;
    tile.enabled = enabled;
    tile.want = p;
    resolve_tile_mode();
    layout_canvas.fit();
    copy = -1;
    hover = pinned = Hover{};
    links = compute_links(set, Hover{});
    links_for_ = Hover{};
    grids_dirty = true;
    request_redraw();
}

void App::render_texture(TileTexture& tex, const TileGrid& grid, const Rect* window) {
    const auto t0 = std::chrono::steady_clock::now();
    tex.render(grid, ls::theme_colors(settings.view.theme), cell_font, cell_font_size, small_font, small_font_size, window,
               &fill_buffers);
    frame_texture_ms += ms_since(t0);
}

bool App::drawn_as_d(ls::Operand op) const { return op == ls::Operand::C && set.find(ls::Operand::D) != nullptr; }

void App::rebuild_grids() {
    const auto t0 = std::chrono::steady_clock::now();
    // Textures are kept for reuse by the operand's new view (allocation is what costs most on llvmpipe).
    std::vector<OperandView> old = std::move(views);
    views.clear();
    // Both canvases are arranged for their current size and view.
    layout_canvas.shapes = layout_shapes();
    layout_canvas.arr = arrange(layout_canvas.shapes, canvas_params(layout_canvas, false));
    if (regs_canvas.size.x <= 0) regs_canvas.size = layout_canvas.size;
    regs_canvas.shapes = register_shapes();
    regs_canvas.arr = arrange(regs_canvas.shapes, canvas_params(regs_canvas, true));
    GridStyle st = grid_style();
    st.cell_w = layout_canvas.arr.cell_w;
    st.cell_h = layout_canvas.arr.cell_h;
    st.blocks_per_row = layout_canvas.arr.blocks_per_row;
    GridStyle reg_style = grid_style();
    reg_style.cell_w = regs_canvas.arr.cell_w;
    reg_style.cell_h = regs_canvas.arr.cell_h;
    GridStyle side_style = st;
    max_copies = 1;
    for (const auto& l : set.layouts) {
        OperandView v;
        v.operand = l.operand();
        if (drawn_as_d(l.operand())) {  // no grid of its own: building one cost as much as D's
            views.push_back(std::move(v));
            continue;
        }
        const ls::TileLayout* t = tile.active() ? tile.tiles.find(l.operand()) : nullptr;
        v.matrix = t && l.operand() != ls::Operand::C ? build_tile_matrix_grid(*t, tile.tiles, st) : build_matrix_grid(*set.ins, l, st);
        max_copies = std::max(max_copies, v.matrix.max_copies);
        v.registers = build_register_grid(*set.ins, l, reg_style);
        if (settings.view.show_registers && !tile.active()) v.side = build_register_grid(*set.ins, l, side_style);
        if (l.operand() == ls::Operand::D && set.tmem_d) v.tmem = build_register_grid(*set.ins, *set.tmem_d, reg_style);
        views.push_back(std::move(v));
    }
    for (auto& v : views)
        for (auto& o : old)
            if (o.operand == v.operand) {
                v.matrix_tex = o.matrix_tex, v.registers_tex = o.registers_tex, v.side_tex = o.side_tex, v.tmem_tex = o.tmem_tex;
                o.matrix_tex = o.registers_tex = o.side_tex = o.tmem_tex = TileTexture{};
            }
    for (auto& o : old) o.matrix_tex.release(), o.registers_tex.release(), o.side_tex.release(), o.inset_tex.release(), o.tmem_tex.release();
    inset_built_w = inset_built_h = -1;  // the enlarged scale grids follow in the next Layout frame
    // The textures are drawn when their grids are (draw_grid_at): only what is in view, only on the tab shown.
    for (auto& v : views) {
        v.matrix_tex.invalidate(), v.registers_tex.invalidate(), v.side_tex.invalidate(), v.tmem_tex.invalidate();
        if (v.tmem.tiles.empty()) v.tmem_tex.release();
        if (!settings.view.show_registers || tile.active()) v.side_tex.release();
    }
    layout_canvas.built_w = layout_canvas.arr.cell_w, layout_canvas.built_h = layout_canvas.arr.cell_h;
    regs_canvas.built_w = regs_canvas.arr.cell_w, regs_canvas.built_h = regs_canvas.arr.cell_h;
    grids_dirty = false;
    memory.tiles_dirty = true;  // colours, labels or theme may have changed: the Memory tab's grids follow
    last_rebuild_ms = ms_since(t0);
    ++rebuilds;
}

void App::resize_layout_grids() {
    const auto t0 = std::chrono::steady_clock::now();
    GridStyle st = grid_style();
    st.cell_w = layout_canvas.arr.cell_w;
    st.cell_h = layout_canvas.arr.cell_h;
    st.blocks_per_row = layout_canvas.arr.blocks_per_row;
    for (auto& v : views) {
        const ls::OperandLayout* l = set.find(v.operand);
        if (!l || drawn_as_d(v.operand)) continue;
        const ls::TileLayout* t = tile.active() && v.operand != ls::Operand::C ? tile.tiles.find(v.operand) : nullptr;
        if (t) resize_tile_matrix_grid(v.matrix, *t, tile.tiles, st);
        else resize_matrix_grid(v.matrix, *set.ins, *l, st);
        v.matrix_tex.invalidate();
        if (settings.view.show_registers && !tile.active()) {
            v.side = build_register_grid(*set.ins, *l, st);
            v.side_tex.invalidate();
        }
    }
    inset_built_w = inset_built_h = -1;
    layout_canvas.built_w = layout_canvas.arr.cell_w, layout_canvas.built_h = layout_canvas.arr.cell_h;
    last_rebuild_ms = ms_since(t0);
    ++rebuilds;
}

float compare_header_h(const App& app) { return ImGui::GetTextLineHeightWithSpacing() * 1.0f + 0 * app.scale; }

void App::rebuild_compare() {
    compare_dirty = false;
    for (auto& v : compare.views) v.matrix_tex.release(), v.registers_tex.release();
    for (auto& v : compare.left) v.matrix_tex.release();
    compare.views.clear();
    compare.left.clear();
    compare.diffs.clear();
    if (!compare.enabled) return;
    try {
        compare.set = resolve_selection(catalog, compare.selection);
        compare.error.clear();
    } catch (const ls::Error& e) {
        compare.error = e.what();
        return;
    }
    for (const auto& l : compare.set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        OperandView v;
        v.operand = l.operand();
        compare.views.push_back(std::move(v));
        if (const ls::OperandLayout* mine = set.find(l.operand())) compare.diffs.push_back(diff_layouts(*mine, l));
    }
    for (const auto& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        OperandView v;
        v.operand = l.operand();
        compare.left.push_back(std::move(v));
    }
    // The grids follow in arrange_compare, once the panel's size is known.
    compare.built_w = compare.built_h = -1;
    compare.canvas = ImVec2(0, 0);
}

std::vector<GridShape> App::compare_shapes(const LayoutSet& s) const {
    std::vector<GridShape> out;
    for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K, ls::Operand::SA, ls::Operand::SB})
        if (const ls::OperandLayout* l = s.find(op); l && l->operand() == op) out.push_back(GridShape{op, l->rows(), l->cols(), l->blocks(), false});
    // wgmma's B is in shared memory: an empty grid keeps room above C/D for the box that says so.
    if (s.ins->kind == ls::LayoutKind::Wgmma && !s.find(ls::Operand::B)) out.push_back(GridShape{ls::Operand::B, 0, s.ins->n, 1, false});
    return out;
}

void App::arrange_compare(ImVec2 size, float gap) {
    if (!compare.enabled || !compare.set.ins || !compare.error.empty()) return;
    const std::vector<GridShape> ls_ = compare_shapes(set), rs = compare_shapes(compare.set);
    ArrangeParams base = canvas_params(layout_canvas, false);
    base.zoom_x = base.zoom_y = 1, base.pan_x = base.pan_y = 0, base.gemm = true;
    const GridStyle st0 = grid_style();
    float natural = 0;
    for (const auto& l : set.layouts) natural = std::max(natural, natural_cell_width(*set.ins, l, st0));
    for (const auto& l : compare.set.layouts) natural = std::max(natural, natural_cell_width(*compare.set.ins, l, st0));
    base.natural_w = natural;
    // Narrow columns (a scaled MFMA's SA, a 16-column D beside a 128-column A at half the panel)
    // take the shorter title forms ("SA  16x4" over "e8m0 1v") rather than leaving the picture no room.
    base.min_column_w = std::ceil(ImGui::CalcTextSize("e8m0 1v").x + 4 * scale);
    const float name_h = std::ceil(ImGui::GetTextLineHeightWithSpacing());
    float best = -1;
    for (int stacked = 0; stacked < 2; ++stacked) {
        // Each side: a name line, then its picture.
        const float w = stacked ? size.x : std::floor((size.x - gap) * 0.5f);
        const float h = stacked ? std::floor((size.y - gap) * 0.5f) : size.y;
        ArrangeParams p = base;
        p.panel_w = std::max(1.0f, w), p.panel_h = std::max(1.0f, h - name_h);
        // One cell size for both sides: the smaller fit of the two (cells never grow past what
        // either side can take, so both stay whole).
        Arrangement a, b;
        for (int i = 0; i < 4; ++i) {
            a = arrange(ls_, p), b = arrange(rs, p);
            if (a.cell_w == b.cell_w && a.cell_h == b.cell_h) break;
            p.natural_w = std::min(a.cell_w, b.cell_w), p.natural_h = std::min(a.cell_h, b.cell_h);
        }
        // Larger cells win, squarer ones when the areas are close (flat 28x5 px cells read worse than 14x17).
        const float cw = std::min({a.cell_w, b.cell_w, base.natural_w}), ch = std::min({a.cell_h, b.cell_h, base.natural_h});
        const float score = cw * ch * std::sqrt(std::min(cw, ch) / std::max({cw, ch, 0.01f}));
        if (score > best * 1.05f) {
            best = score;
            compare.left_arr = a, compare.right_arr = b, compare.stacked = stacked;
            compare.left_box = Rect{0, 0, w, h};
            compare.right_box = stacked ? Rect{0, h + gap, w, 2 * h + gap} : Rect{w + gap, 0, 2 * w + gap, h};
        }
    }
    compare.name_h = name_h;
    const Arrangement& a = compare.left_arr;
    const Arrangement& b = compare.right_arr;
    compare.canvas = size;
    if (a.cell_w == compare.built_w && a.cell_h == compare.built_h && a.blocks_per_row == compare.built_bpr_left &&
        b.blocks_per_row == compare.built_bpr_right && !compare.left.empty() && compare.left.front().matrix.rows > 0)
        return;
    const ls::ThemeColors colors = ls::theme_colors(settings.view.theme);
    auto build = [&](std::vector<OperandView>& views, const LayoutSet& s, const Arrangement& arr) {
        GridStyle st = grid_style();
        st.block = -1;
        st.cell_w = arr.cell_w, st.cell_h = arr.cell_h, st.blocks_per_row = arr.blocks_per_row;
        for (auto& v : views) {
            const ls::OperandLayout* l = s.find(v.operand);
            if (!l) continue;
            v.matrix = build_matrix_grid(*s.ins, *l, st);
            v.matrix_tex.render(v.matrix, colors, cell_font, cell_font_size, small_font, small_font_size);
        }
    };
    build(compare.left, set, a);
    build(compare.views, compare.set, b);
    compare.built_w = a.cell_w, compare.built_h = a.cell_h;
    compare.built_bpr_left = a.blocks_per_row, compare.built_bpr_right = b.blocks_per_row;
}

void App::handle_shortcuts() {
    ImGuiIO& io = ImGui::GetIO();
    if (!platform.interactive()) return;
    const bool ctrl = io.KeyCtrl;
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_K) || ImGui::IsKeyPressed(GLFW_KEY_F))) focus_search = true;
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_S)) want_export = ExportRequest{!io.KeyShift, ""};
    // Zoom like an image viewer: Ctrl +/- about the centre (the wheel zooms about the pointer),
    // Ctrl 0 fits the whole picture, Ctrl 1 shows cells at their natural size.
    Canvas& c = tab == Tab::Registers ? regs_canvas : tab == Tab::Memory ? memory.canvas : layout_canvas;
    const bool regs = tab == Tab::Registers;
    auto params = [&] { return tab == Tab::Memory ? memory_canvas_params() : canvas_params(c, regs); };
    auto zoom = [&](float factor) {
        const ArrangeParams p = params();
        c.view = zoom_about(c.shapes, p, factor, p.panel_w * 0.5f, p.panel_h * 0.5f);
    };
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))) zoom(1.25f);
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))) zoom(1 / 1.25f);
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_0) || ImGui::IsKeyPressed(GLFW_KEY_KP_0))) c.fit_all();
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_1) || ImGui::IsKeyPressed(GLFW_KEY_KP_1))) c.view = actual_size(c.shapes, params());
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_B)) side_collapsed = !side_collapsed;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) pinned = Hover{};
}

void App::draw_menu() {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Export window as PNG", "Ctrl+S")) want_export = ExportRequest{true, ""};
        if (ImGui::MenuItem("Export layout panel as PNG", "Ctrl+Shift+S")) want_export = ExportRequest{false, ""};
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Alt+F4") && platform.window()) glfwSetWindowShouldClose(platform.window(), 1);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        ViewSettings& v = settings.view;
        const ViewSettings before = v;
        if (ImGui::MenuItem("Colour by lane group", nullptr, v.color_by == ls::ColorBy::Lane)) v.color_by = ls::ColorBy::Lane;
        if (ImGui::MenuItem("Colour by register", nullptr, v.color_by == ls::ColorBy::Register))
            v.color_by = ls::ColorBy::Register;
        if (ImGui::MenuItem("Colour by block", nullptr, v.color_by == ls::ColorBy::Block)) v.color_by = ls::ColorBy::Block;
        ImGui::Separator();
        ImGui::MenuItem("Labels", nullptr, &v.labels);
        ImGui::MenuItem("Register view beside the matrices", nullptr, &v.show_registers);
        ImGui::Separator();
        Canvas& c = tab == Tab::Registers ? regs_canvas : tab == Tab::Memory ? memory.canvas : layout_canvas;
        const ArrangeParams p = tab == Tab::Memory ? memory_canvas_params() : canvas_params(c, tab == Tab::Registers);
        if (ImGui::MenuItem("Fit (whole picture)", "Ctrl+0")) c.fit_all();
        if (ImGui::MenuItem("100 % (natural cell size)", "Ctrl+1")) c.view = actual_size(c.shapes, p);
        if (ImGui::MenuItem("Zoom in", "Ctrl++")) c.view = zoom_about(c.shapes, p, 1.25f, p.panel_w * 0.5f, p.panel_h * 0.5f);
        if (ImGui::MenuItem("Zoom out", "Ctrl+-"))
            c.view = zoom_about(c.shapes, p, 1 / 1.25f, p.panel_w * 0.5f, p.panel_h * 0.5f);
        if (ImGui::MenuItem("Side panel", "Ctrl+B", !side_collapsed)) side_collapsed = !side_collapsed;
        ImGui::Separator();
        if (ImGui::MenuItem("Light theme", nullptr, v.theme == ls::Theme::Light)) v.theme = ls::Theme::Light;
        if (ImGui::MenuItem("Dark theme", nullptr, v.theme == ls::Theme::Dark)) v.theme = ls::Theme::Dark;
        if (v.theme != before.theme) apply_theme(v.theme);  // colours only; sizes stay scaled
        if (v.color_by != before.color_by || v.labels != before.labels || v.theme != before.theme ||
            v.show_registers != before.show_registers)
            grids_dirty = compare_dirty = memory.tiles_dirty = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Copy")) {
        // The layout as lanescope-cli writes it (layout --format gluon|linear|cute, header), for the clipboard.
        const ls::TileParams tp = tile.active() ? tile.want : ls::TileParams{};
        auto copy = [&](CopyKind kind, std::optional<ls::Operand> op) {
            try {
                const std::string text = copy_text(set, tp, op, kind);
                ImGui::SetClipboardText(text.c_str());
                status = std::string("copied ") + copy_kind_name(kind) +
                         (op ? " of " + std::string(ls::operand_name(*op)) : kind == CopyKind::Header ? "" : " of every operand") + " (" +
                         std::to_string(std::count(text.begin(), text.end(), '\n')) + " lines)";
            } catch (const ls::Error& e) {
                status = e.what();
            }
        };
        for (CopyKind kind : {CopyKind::Gluon, CopyKind::Linear, CopyKind::Cute}) {
            if (!ImGui::BeginMenu(copy_kind_name(kind))) continue;
            if (ImGui::MenuItem("every operand")) copy(kind, std::nullopt);
            for (ls::Operand op : ls::operands_of(*set.ins))
                if (ImGui::MenuItem(std::string(ls::operand_name(op)).c_str())) copy(kind, op);
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("C++ header (lanescope-cli header)")) copy(CopyKind::Header, std::nullopt);
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void App::draw_status_bar() {
    const ls::Instruction& ins = *set.ins;
    std::string text = set.target->gfx + " (" + std::string(ls::family_title(set.target->family)) + ")  |  " +
                       display_name(ins) + "  |  " + ls::lane_group_name(ins, set.mods.wave);
    const std::string mods = set.mods.describe();
    if (!mods.empty()) text += "  " + mods;
    if (tile.active()) text += "  |  tile: waves " + std::to_string(tile.want.waves_m) + "x" + std::to_string(tile.want.waves_n);
    // Blackwell: no such GPU here; every layout of it says so (core's evidence).
    bool unconfirmed = false;
    for (const ls::OperandLayout& l : set.layouts)
        unconfirmed |= ls::layout_evidence(ins, l.operand(), set.mods).why.find("not confirmed on hardware") != std::string::npos;
    if (unconfirmed) text += "  |  not confirmed on hardware (no Blackwell GPU)";
    // What is under the pointer, then what is pinned and where it lives (the go-to box and clicks pin).
    if (hover.kind != Hover::Kind::None && hover != pinned) text += "  |  " + place_text(hover, set);
    if (pinned.kind != Hover::Kind::None) {
        const std::string where = place_location(pinned, set, tile.active() ? &tile.tiles : nullptr);
        text += "  |  pinned " + place_text(pinned, set) + (where.empty() ? "" : ": " + where) + " (Esc clears)";
    }
    if (!verify.error.empty()) text += "  |  Verify on GPU: " + verify.error;
    else if (verify.have && verify.key == selection_key())
        text += "  |  " + verify.status + " (" + verify.facts.device + ")";
    else text += gpu_backend_built() ? "  |  GPU backend: built in" : "  |  GPU backend: not built";
    if (!status.empty()) text += "  |  " + status;
    ImGui::Separator();
    ImGui::TextUnformatted(text.c_str());
}

void App::frame() {
    frame_hover = Hover{};
    frame_texture_ms = 0;
    frame_legend_key = -1;
    blits.clear();
    handle_shortcuts();
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus |
                                   // The clear colour is the background: one full-window pass less for llvmpipe.
                                   ImGuiWindowFlags_NoBackground;
    ImGui::Begin("lanescope###main", nullptr, flags);
    // The layout tab rebuilds once it knows its size (fit mode); other tabs here.
    if (grids_dirty && tab != Tab::Layout) rebuild_grids();
    if (compare_dirty && tab == Tab::Compare) rebuild_compare();
    draw_menu();

    const float status_h = ImGui::GetFrameHeightWithSpacing() + 4 * scale;
    const float body_h = ImGui::GetContentRegionAvail().y - status_h;
    // The left column can be narrowed (drag its edge) or collapsed (Ctrl+B, or the arrow).
    const float left_w =
        side_collapsed ? 0.0f : std::min(std::clamp(side_width, 180.0f, 520.0f), 0.28f * io.DisplaySize.x / scale) * scale;
    if (!side_collapsed) {
        ImGui::BeginChild("left###left", ImVec2(left_w, body_h), true);
        draw_search_panel(*this);
        ImGui::EndChild();
        ImGui::SameLine(0, 0);
        ImGui::InvisibleButton("splitter", ImVec2(6 * scale, body_h));
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
        if (ImGui::IsItemActive()) side_width = std::clamp(side_width + io.MouseDelta.x / scale, 180.0f, 520.0f);
        ImGui::SameLine(0, 0);
    }
    if (ImGui::ArrowButton("collapse", side_collapsed ? ImGuiDir_Right : ImGuiDir_Left)) side_collapsed = !side_collapsed;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(side_collapsed ? "Show the side panel (Ctrl+B)" : "Hide the side panel (Ctrl+B)");
    ImGui::SameLine();
    ImGui::BeginChild("right###right", ImVec2(0, body_h), false);
    if (ImGui::BeginTabBar("tabs###tabs")) {
        auto tab_item = [&](const char* label, Tab t) {
            ImGuiTabItemFlags f = (tab_forced && tab == t) ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(label, nullptr, f)) {
                if (!tab_forced) tab = t;
                return true;
            }
            return false;
        };
        if (tab_item("Layout###tab_layout", Tab::Layout)) draw_layout_panel(*this), ImGui::EndTabItem();
        if (tab_item("Registers###tab_regs", Tab::Registers)) draw_registers_panel(*this), ImGui::EndTabItem();
        if (tab_item("Compare###tab_compare", Tab::Compare)) draw_compare_panel(*this), ImGui::EndTabItem();
        if (tab_item("Inputs and D###tab_values", Tab::Values)) draw_values_panel(*this), ImGui::EndTabItem();
        if (tab_item("Memory###tab_memory", Tab::Memory)) draw_memory_panel(*this), ImGui::EndTabItem();
        if (tab_item("Details###tab_details", Tab::Details)) draw_details_panel(*this), ImGui::EndTabItem();
        ImGui::EndTabBar();
    }
    tab_forced = false;
    ImGui::EndChild();
    draw_status_bar();
    ImGui::End();
}

void App::after_frame() {
    if (want_arch) {
        Selection s = settings.selection;
        try {
            const ls::Target& to = catalog.find_target(*want_arch);
            s.arch = to.gfx;
            s.instruction = carry_instruction(catalog, *set.ins, to);
            if (s.mods.wave > 0 &&
                std::find(to.wave_sizes.begin(), to.wave_sizes.end(), s.mods.wave) == to.wave_sizes.end())
                s.mods.wave = -1;
            want_selection = s;
        } catch (const ls::Error& e) {
            status = e.what();
        }
        want_arch.reset();
        hits_dirty = true;
    }
    if (want_selection) {
        select(*want_selection);
        want_selection.reset();
    }
    if (want_verify) {
        want_verify = false;
        run_verify();
    }
    if (want_goto) {
        want_pin = pinned == *want_goto ? std::optional<Hover>() : want_goto;  // a pin, never a toggle
        centre_on(*want_goto);
        want_goto.reset();
    }
    if (want_pin) {
        pinned = (*want_pin == pinned) ? Hover{} : *want_pin;
        want_pin.reset();
        // The tile's "lane _ of wave _" fields show the lane pinned (click, Shift+click or --pin lane,L,W).
        if (pinned.kind == Hover::Kind::Lane && tile.active()) {
            tile.pick_lane = std::max(0, pinned.lane);
            if (pinned.wave >= 0) tile.pick_wave = pinned.wave;
        }
        request_redraw();
    }
    if (frame_legend_key != legend_key) {
        legend_key = frame_legend_key;
        request_redraw();
    }
    if (frame_hover != hover) {
        hover = frame_hover;
        request_redraw();
    }
    // Links follow the hover, or the pin when nothing is hovered.
    const Hover& h = active_hover();
    if (h != links_for_) {
        if (tile.active()) {
            // A hover on a tile cell carries its wave (tile coordinates); one from the Registers
            // tab does not (the instruction's coordinates; its lane is then that lane in every wave).
            const bool on_tile = h.wave >= 0;
            tile.links = compute_tile_links(tile.tiles, on_tile || h.kind == Hover::Kind::Lane ? h : Hover{});
            links = compute_links(set, on_tile ? Hover{} : h);
        } else {
            links = compute_links(set, h);
        }
        links_for_ = h;
    }
    if (values_dirty) {
        if (!inputs_match(inputs, set)) inputs = make_inputs(set);
        outputs = compute_d(set, inputs);
        values_dirty = false;
    }
    if (redraws_left > 0) --redraws_left;
}

}  // namespace lsapp
