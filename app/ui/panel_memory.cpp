// The Memory tab: the selected operand as a tile in LDS or global memory,
// coloured by the lane that reads each element, the operand's fragment beside
// it (hover one, the other lights up), the wave-level instructions and, for
// LDS, the banks of the selected instruction with its conflicts. The planners,
// the bank model and the pass groupings are core's (lanescope/memory.hpp).
#include "ui/app.hpp"

#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace lsapp {

namespace {

ImVec2 add(ImVec2 a, float x, float y) { return ImVec2(a.x + x, a.y + y); }
const ImVec4 kErrorColour(0.80f, 0.15f, 0.10f, 1.0f);
const ImU32 kConflict = IM_COL32(0xD0, 0x10, 0x10, 255);

std::string op_name(ls::Operand op) { return std::string(ls::operand_name(op)); }

// "2 x ds_read_b64" per mnemonic, in issue order.
std::string instruction_counts(const MemoryPlan& p) {
    std::vector<std::pair<std::string, int>> counts;
    for (const IssueRow& r : p.issues) {
        if (!counts.empty() && counts.back().first == r.mnemonic) ++counts.back().second;
        else {
            bool found = false;
            for (auto& c : counts)
                if (c.first == r.mnemonic) ++c.second, found = true;
            if (!found) counts.emplace_back(r.mnemonic, 1);
        }
    }
    std::string s;
    for (const auto& c : counts) s += (s.empty() ? "" : " + ") + std::to_string(c.second) + " x " + c.first;
    return s;
}

// `waves` > 1 (tile mode): the counts are of every wave together, and say so.
// NVIDIA's words for its shared memory: phases and wavefronts, not LDS passes and cycles.
bool nvidia_target(const App& app) { return app.set.target && app.set.target->vendor() == ls::Vendor::NVIDIA; }

std::string plan_summary(const MemoryPlan& p, bool lds, int waves = 1, bool nvidia = false) {
    if (!p.ok()) return std::string(plan_kind_name(p.kind)) + ": " + p.error;
    std::string s = std::string(plan_kind_name(p.kind)) + (waves > 1 ? ", all " + std::to_string(waves) + " waves" : "") +
                    ": " + instruction_counts(p);
    if (lds && !p.banks.empty())
        s += ", " + std::to_string(p.cycles) + (nvidia ? " wavefronts" : " cycles") + " (conflict-free " +
             std::to_string(p.minimum_cycles) + ")";
    if (!lds && !p.coalescing.empty()) {
        int lines = 0, minimum = 0;
        for (const auto& c : p.coalescing) lines += c.cache_lines, minimum += c.minimum_lines;
        s += ", " + std::to_string(lines) + " cache lines (at least " + std::to_string(minimum) + ")";
    }
    if (!p.confidence.empty()) s += " [" + p.confidence + "]";
    return s;
}

const IssueRow* selected_issue(const App& app) {
    const MemoryPlan& p = app.memory.active();
    if (p.issues.empty()) return nullptr;
    const int i = std::clamp(app.memory.settings.issue, 0, static_cast<int>(p.issues.size()) - 1);
    return &p.issues[static_cast<size_t>(i)];
}

// The passes of the selected instruction: the bank report's when there is one.
std::vector<std::vector<int>> passes_of(const MemoryPlan& p, const IssueRow& r) {
    std::vector<std::vector<int>> out;
    if (r.report >= 0)
        for (const ls::BankPass& bp : p.banks[static_cast<size_t>(r.report)].passes) out.push_back(bp.lanes);
    return out;
}

}  // namespace

// --- App: plans, grids, canvas ----------------------------------------------------------

void App::rebuild_memory_plans() {
    MemoryViewState& m = memory;
    m.plans_dirty = false;
    m.tiles_dirty = true;
    // An operand a matrix descriptor reads: its tile in shared memory, no loads to plan.
    // SFA / SFB of a block-scaled tcgen05.mma: their bytes in shared memory (tcgen05.cp copies them).
    const bool sf = scale_factor_operand(set, m.settings.operand);
    m.sf = sf ? build_scale_factor_view(set, m.settings.operand) : ScaleFactorView{};
    m.descriptor = sf || descriptor_operand(set, m.settings.operand);
    m.descriptor_text[0] = 0;
    if (m.descriptor) {
        m.smem = sf ? SmemView{} : build_smem_view(set, m.settings.operand);
        m.smem_row_h = 0, m.smem_scroll = 0;  // a new tile opens with every label legible
        m.plain = m.transposed = m.store = MemoryPlan{};
        m.plain.error = m.transposed.error = m.store.error = "read through a matrix descriptor: the instruction loads it itself";
        m.grid = m.second = MemoryGrid{};
        m.show_second = false;
        return;
    }
    m.smem = SmemView{};
    // Tile mode: the tile operand of every wave, planned whole by core.
    m.settings.tiles = tile.active() ? std::optional<ls::TileParams>(tile.tiles.params) : std::nullopt;
    m.plain = make_plan(set, m.settings, MemoryPlan::Kind::Plain);
    m.transposed = make_plan(set, m.settings, MemoryPlan::Kind::Transposed);
    const bool result = m.settings.operand == ls::Operand::C || m.settings.operand == ls::Operand::D;
    if (result) m.store = make_plan(set, m.settings, MemoryPlan::Kind::Store);
    else m.store = MemoryPlan{}, m.store.kind = MemoryPlan::Kind::Store, m.store.error = "stores are of C/D only";
    if (!result) m.settings.store = false;
    const MemoryPlan& a = m.active();
    m.settings.issue = std::clamp(m.settings.issue, 0, std::max(0, static_cast<int>(a.issues.size()) - 1));
    m.show_second = m.settings.side_by_side && !m.settings.store && m.transposed.ok();
    MemoryMatrix mm;
    try {
        mm = memory_matrix(set, m.settings);
    } catch (const ls::Error&) {
        m.grid = m.second = MemoryGrid{};
        return;  // the plans carry the message
    }
    const ls::MemoryTile mt = effective_tile(mm, m.settings);
    // The main grid is the active plan, or the plain one when both are shown.
    const MemoryPlan& main = m.show_second ? m.plain : a;
    m.grid = build_memory_grid(m.settings.operand, mm, mt, main.ops);
    m.second = m.show_second ? build_memory_grid(m.settings.operand, mm, mt, m.transposed.ops) : MemoryGrid{};
}

std::vector<GridShape> App::memory_shapes() const {
    std::vector<GridShape> out;
    const ls::OperandLayout* l = set.find(memory.settings.operand);
    if (!l) return out;
    auto grid_shape = [&](const MemoryGrid& g) {
        GridShape s;
        s.op = g.operand;
        s.rows = g.lines;
        s.cols = g.positions;
        return s;
    };
    out.push_back(grid_shape(memory.grid));
    if (memory.show_second) out.push_back(grid_shape(memory.second));
    if (memory.settings.tiles) return out;  // tile mode: the Layout tab draws the tile's fragments
    GridShape frag;
    frag.op = l->operand();
    frag.rows = l->rows();
    frag.blocks = l->blocks();
    frag.cols = l->cols();
    out.push_back(frag);
    return out;
}

ArrangeParams App::memory_canvas_params() const {
    const Canvas& c = memory.canvas;
    ArrangeParams p = c.view;
    const GridStyle st = grid_style();
    p.panel_w = c.size.x > 0 ? c.size.x : ImGui::GetIO().DisplaySize.x - (side_width + 40) * scale;
    p.panel_h = c.size.y > 0 ? c.size.y : ImGui::GetIO().DisplaySize.y * 0.5f;
    p.margin = 8 * scale;
    p.gap = 14 * scale;
    p.heading_h = std::ceil(ImGui::GetTextLineHeight() + 4 * scale);
    p.axis_w = std::ceil(st.text_width("255") + 6 * scale);
    p.axis_h = std::ceil(cell_font_size + 3 * scale);
    p.block_gap = st.block_gap;
    p.min_column_w = std::ceil(ImGui::CalcTextSize("B").x + 4 * scale);
    p.gemm = false;
    // The "100 %" cell: a lane number ("63") on one line.
    p.natural_w = std::ceil(st.text_width("63") + 8 * scale);
    p.natural_h = std::ceil(st.line_h + 4 * scale);
    p.max_grid_px = 8190;
    return p;
}

void App::rebuild_memory_tiles() {
    const auto t0 = std::chrono::steady_clock::now();
    MemoryViewState& m = memory;
    m.tiles_dirty = false;
    m.tex.release(), m.second_tex.release(), m.fragment_tex.release();
    const ls::OperandLayout* l = set.find(m.settings.operand);
    if (!l || m.descriptor) return;  // a descriptor's tile: panel_smem.cpp builds its grids at its own cell sizes
    m.canvas.shapes = memory_shapes();
    m.canvas.arr = arrange(m.canvas.shapes, memory_canvas_params());
    GridStyle st = grid_style();
    st.cell_w = m.canvas.arr.cell_w;
    st.cell_h = m.canvas.arr.cell_h;
    st.block = -1;
    st.blocks_per_row = m.canvas.arr.blocks_per_row;
    st.copy = 0;
    const MemoryPlan& main = m.show_second ? m.plain : m.active();
    const TileSet* ts = m.settings.tiles ? &tile.tiles : nullptr;
    m.tiles = memory_tiles(*set.ins, m.grid, main.ops, st, ts);
    if (m.show_second) m.second_tiles = memory_tiles(*set.ins, m.second, m.transposed.ops, st, ts);
    m.fragment = ts ? TileGrid{} : build_matrix_grid(*set.ins, *l, st);
    const ls::ThemeColors colors = ls::theme_colors(settings.view.theme);
    m.tex.render(m.tiles, colors, cell_font, cell_font_size, small_font, small_font_size);
    if (m.show_second) m.second_tex.render(m.second_tiles, colors, cell_font, cell_font_size, small_font, small_font_size);
    if (!ts) m.fragment_tex.render(m.fragment, colors, cell_font, cell_font_size, small_font, small_font_size);
    m.canvas.built_w = m.canvas.arr.cell_w, m.canvas.built_h = m.canvas.arr.cell_h;
    m.rebuild_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

namespace {

// --- controls ----------------------------------------------------------------------------

// The next item on this line when `w` more pixels fit, else on the next one.
void flow(float w, float spacing = -1.0f) {
    ImGui::SameLine(0, spacing);
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
}
float radio_w(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

// "label [value]": the label first, as the rest of the row reads.
bool small_int(const char* label, int& v, int lo, int hi, float width) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0, 4);
    ImGui::SetNextItemWidth(width);
    int x = v;
    const std::string id = std::string("##") + label;
    if (!ImGui::InputInt(id.c_str(), &x, 0, 0)) return false;
    x = std::clamp(x, lo, hi);
    if (x == v) return false;
    v = x;
    return true;
}

// The operand the tab shows (every view of the tab: loads, or a descriptor's tile).
bool operand_radio(App& app) {
    MemorySettings& s = app.memory.settings;
    bool changed = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("operand");
    for (const ls::OperandLayout& l : app.set.layouts) {
        ImGui::SameLine();
        const std::string label = op_name(l.operand()) + "##memop";
        if (ImGui::RadioButton(label.c_str(), s.operand == l.operand()) && s.operand != l.operand()) {
            s.operand = l.operand();
            if (s.operand != ls::Operand::C && s.operand != ls::Operand::D) s.store = false;
            changed = true;
        }
    }
    if (changed) {
        app.memory.plans_dirty = true;
        app.memory.canvas.fit();
        app.request_redraw();
    }
    return changed;
}

void draw_controls(App& app) {
    MemoryViewState& m = app.memory;
    MemorySettings& s = m.settings;
    bool changed = false;
    const float sc = app.scale;
    changed |= operand_radio(app);
    ImGui::SameLine(0, 14 * sc);
    ImGui::TextUnformatted("in");
    ImGui::SameLine();
    if (ImGui::RadioButton(nvidia_target(app) ? "shared memory" : "LDS", s.tile.space == ls::MemorySpace::Lds)) changed |= s.tile.space != ls::MemorySpace::Lds, s.tile.space = ls::MemorySpace::Lds;
    ImGui::SameLine();
    if (ImGui::RadioButton("global", s.tile.space == ls::MemorySpace::Global))
        changed |= s.tile.space != ls::MemorySpace::Global, s.tile.space = ls::MemorySpace::Global;
    flow(radio_w("row-major") + radio_w("column-major") + 10 * sc, 14 * sc);
    if (ImGui::RadioButton("row-major", s.tile.order == ls::MemoryOrder::RowMajor))
        changed |= s.tile.order != ls::MemoryOrder::RowMajor, s.tile.order = ls::MemoryOrder::RowMajor, s.tile.ld = 0;
    ImGui::SameLine();
    if (ImGui::RadioButton("column-major", s.tile.order == ls::MemoryOrder::ColMajor))
        changed |= s.tile.order != ls::MemoryOrder::ColMajor, s.tile.order = ls::MemoryOrder::ColMajor, s.tile.ld = 0;
    // The contiguous extent of the matrix in memory (in tile mode the tile operand's).
    int extent = 1;
    try {
        const MemoryMatrix mm = memory_matrix(app.set, s);
        extent = ls::contiguous_extent(s.tile.order, mm.rows, mm.cols);
    } catch (const ls::Error&) {
    }
    // Second line: ld, pad, swizzle, access.
    ImGui::AlignTextToFramePadding();
    int ld = s.tile.ld > 0 ? s.tile.ld : extent;
    if (small_int("ld", ld, extent, 4096, 52 * sc)) s.tile.ld = ld, changed = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("leading dimension in elements (at least the contiguous extent, %d)", extent);
    ImGui::SameLine();
    changed |= small_int("pad", s.tile.pad, 0, 256, 40 * sc);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("elements of padding after each line (greyed in the grid)");
    ImGui::SameLine(0, 12 * sc);
    ImGui::TextUnformatted("swizzle");
    ImGui::SameLine();
    changed |= small_int("vec", s.tile.swizzle.vec, 0, 256, 34 * sc);
    ImGui::SameLine();
    changed |= small_int("per_phase", s.tile.swizzle.per_phase, 1, 256, 34 * sc);
    ImGui::SameLine();
    changed |= small_int("max_phase", s.tile.swizzle.max_phase, 1, 256, 34 * sc);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("XOR swizzle: position XOR vec * ((line / per_phase) %% max_phase); vec 0 or max_phase 1: none");
    flow(radio_w("plain") + radio_w("transposed") + radio_w("store") + 20 * sc, 14 * sc);
    const bool result = s.operand == ls::Operand::C || s.operand == ls::Operand::D;
    const bool showing_tr = s.transposed && m.transposed.ok();
    if (ImGui::RadioButton("plain", !showing_tr && !s.store)) changed |= s.transposed || s.store, s.transposed = s.store = false;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", plan_summary(m.plain, s.tile.space == ls::MemorySpace::Lds, 1, nvidia_target(app)).c_str());
    ImGui::SameLine();
    ImGui::BeginDisabled(!m.transposed.ok());
    if (ImGui::RadioButton("transposed", showing_tr && !s.store)) changed |= !s.transposed || s.store, s.transposed = true, s.store = false;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", plan_summary(m.transposed, s.tile.space == ls::MemorySpace::Lds, 1, nvidia_target(app)).c_str());
    ImGui::SameLine();
    ImGui::BeginDisabled(!result);
    if (ImGui::RadioButton("store", s.store)) changed |= !s.store, s.store = true;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", result ? plan_summary(m.store, s.tile.space == ls::MemorySpace::Lds, 1, nvidia_target(app)).c_str()
                                       : "stores are of C/D: choose operand C or D");
    if (m.transposed.ok()) {
        flow(radio_w("side by side"));
        changed |= ImGui::Checkbox("side by side", &s.side_by_side);
    }
    if (changed) {
        m.plans_dirty = true;
        m.canvas.fit();
        app.request_redraw();
    }
}

// --- the grids ---------------------------------------------------------------------------

// Tick numbers every power-of-two step that leaves room for the text.
void draw_ticks(const App& app, const PlacedGrid& pg, int rows, int cols, float cw, float ch, ImVec2 origin) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* f = app.cell_font;
    const float fs = app.cell_font_size;
    const ImU32 col = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    int rstep = 1;
    while (rstep * ch < fs + 1 && rstep < 4096) rstep *= 2;
    for (int r = 0; r < rows; r += rstep) {
        const std::string t = std::to_string(r);
        const ImVec2 sz = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
        dl->AddText(f, fs, add(origin, pg.grid.x0 - sz.x - 3, pg.grid.y0 + r * ch + (ch - sz.y) * 0.5f), col, t.c_str());
    }
    int cstep = 1;
    while (cstep * cw < f->CalcTextSizeA(fs, FLT_MAX, 0, "000").x + 3 && cstep < 4096) cstep *= 2;
    for (int c = 0; c < cols; c += cstep) {
        const std::string t = std::to_string(c);
        const ImVec2 sz = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
        dl->AddText(f, fs, add(origin, pg.grid.x0 + c * cw + (cw - sz.x) * 0.5f, pg.axis_top.y0 + 1), col, t.c_str());
    }
}

// Outline of the cells [first, last) of a grid, one rectangle per line they span.
void outline_range(ImDrawList* dl, const TileGrid& t, ImVec2 p0, int first, int last, ImU32 colour, float thick) {
    const int cols = std::max(1, t.cols);
    for (int c = first; c < last;) {
        const int line = c / cols, end = std::min(last, (line + 1) * cols);
        const float x0 = (c % cols) * t.cell_w, x1 = ((end - 1) % cols + 1) * t.cell_w;
        dl->AddRect(add(p0, x0 + 0.5f, line * t.cell_h + 0.5f), add(p0, x1, (line + 1) * t.cell_h), colour, 0, 0, thick);
        c = end;
    }
}

// One memory grid: the cached picture, the links, the selected instruction's
// cells and conflicts, and the hover.
void draw_memory_grid(App& app, const MemoryGrid& g, const TileGrid& tiles, TileTexture& tex, const MemoryPlan& plan,
                      bool active, ImVec2 p0, bool hovered, bool clicked) {
    draw_grid_at(app, tiles, tex, nullptr, p0, false, false);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    const float thick = 3.0f * app.scale, thin = 1.5f * app.scale;
    const ls::OperandLayout* l = app.set.find(g.operand);
    if (!l) return;
    // The selected instruction: its cells outlined, its bank conflicts marked.
    const IssueRow* row = active ? selected_issue(app) : nullptr;
    if (row) {
        const ImU32 mark = to_imgui(colors.text, 150);
        for (int i : row->ops) {
            const auto [a, b] = g.op_cells(plan.ops[static_cast<size_t>(i)]);
            outline_range(dl, tiles, p0, a, b, mark, std::max(1.0f, app.scale));
        }
        if (plan.bank_model && row->report >= 0) {
            const BankStrip strip = bank_strip(plan.ops, *row, *plan.bank_model, passes_of(plan, *row));
            const auto [hp, hb] = app.memory.bank_hover;
            if (hp >= 0 && static_cast<size_t>(hp) < strip.lanes.size()) {
                // The strip's bank under the pointer: the cells of its dwords in that pass.
                const ImU32 strong = to_imgui(colors.highlight), wash = to_imgui(colors.highlight, 90);
                for (int i : row->ops) {
                    const ls::MemoryOp& o = plan.ops[static_cast<size_t>(i)];
                    if (std::find(strip.lanes[static_cast<size_t>(hp)].begin(), strip.lanes[static_cast<size_t>(hp)].end(), o.lane) ==
                        strip.lanes[static_cast<size_t>(hp)].end())
                        continue;
                    const auto [a, b] = g.op_cells(o);
                    for (int c = a; c < b; ++c) {
                        const long long word = static_cast<long long>(c) * g.tile.element_bits / 8 / strip.bank_bytes;
                        if (word % strip.banks != hb) continue;
                        const Tile& t = tiles.tiles[static_cast<size_t>(c)];
                        dl->AddRectFilled(add(p0, t.x0 + 1, t.y0 + 1), add(p0, t.x1, t.y1), wash);
                        dl->AddRect(add(p0, t.x0 + 1, t.y0 + 1), add(p0, t.x1, t.y1), strong, 0, 0, thick);
                    }
                }
            }
            for (int c : conflict_cells(g, plan.ops, *row, strip)) {
                const Tile& t = tiles.tiles[static_cast<size_t>(c)];
                const ImVec2 a = add(p0, t.x0 + 1, t.y0 + 1), b = add(p0, t.x1, t.y1);
                const float f = std::max(3.0f, std::min(b.x - a.x, b.y - a.y) * 0.5f);
                dl->AddTriangleFilled(a, ImVec2(a.x + f, a.y), ImVec2(a.x, a.y + f), kConflict);
                dl->AddRect(a, b, kConflict, 0, 0, thin);
            }
        }
    }
    // Links: what is hovered (here, in the fragment, or in another tab's pin). Tile mode (no fragment here,
    // tile coordinates): a tile hover's element and the loads that bring it to its wave, or a wave's lane:
    // its loads and every cell it reads.
    MemoryHighlight hl;
    const Hover& ah = app.active_hover();
    if (!app.memory.settings.tiles) {
        hl = memory_links(app.links, *l, g, plan.ops, ah);
    } else if (ah.wave >= 0 && ah.kind != Hover::Kind::None) {
        std::set<int> lit;
        for (size_t i = 0; i < plan.ops.size(); ++i) {
            const ls::MemoryOp& o = plan.ops[i];
            for (const ls::Delivery& d : o.delivers) {
                if (d.wave != ah.wave) continue;
                const bool element = ah.kind == Hover::Kind::Element && ah.operand == g.operand && d.element == ah.element;
                const bool lane = ah.kind == Hover::Kind::Lane && d.at.lane == ah.lane;
                if (!element && !lane) continue;
                const int cell = g.cell_of(d.element);
                if (cell >= 0 && lit.insert(cell).second) hl.cells.emplace_back(cell, std::uint8_t(element ? 2 : 1));
                if (hl.ops.empty() || hl.ops.back() != static_cast<int>(i)) hl.ops.push_back(static_cast<int>(i));
                if (element) hl.op = static_cast<int>(i);
            }
        }
    }
    const ImU32 strong = to_imgui(colors.highlight), weak = to_imgui(colors.highlight, 200), wash = to_imgui(colors.highlight, 70);
    for (const auto& [cell, level] : hl.cells) {
        const Tile& t = tiles.tiles[static_cast<size_t>(cell)];
        const ImVec2 a = add(p0, t.x0 + 1, t.y0 + 1), b = add(p0, t.x1, t.y1);
        if (level == 2) dl->AddRectFilled(a, b, wash);
        dl->AddRect(a, b, level == 2 ? strong : weak, 0.0f, 0, level == 2 ? thick : thin);
    }
    for (int i : hl.ops) {
        const auto [a, b] = g.op_cells(plan.ops[static_cast<size_t>(i)]);
        outline_range(dl, tiles, p0, a, b, i == hl.op ? strong : weak, i == hl.op ? thick : thin);
    }
    if (!hovered) return;
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const int cell = tiles.hit(mp.x - p0.x, mp.y - p0.y);
    if (cell < 0) return;
    const MemoryCell& mc = g.cells[static_cast<size_t>(cell)];
    Hover h;
    // Tile mode: the element in tile coordinates with the reading wave, as the Layout tab's tile hovers are
    // (its links, and a pinned lane sets the wave field); a cell nobody reads is not a tile hover.
    const bool tile_mode = app.memory.settings.tiles.has_value();
    if (mc.kind == MemoryCell::Kind::Element && (!tile_mode || mc.op >= 0)) {
        if (tile_mode) h.wave = plan.ops[static_cast<size_t>(mc.op)].wave;
        if (ImGui::GetIO().KeyShift && mc.op >= 0) {
            h.kind = Hover::Kind::Lane;
            h.lane = plan.ops[static_cast<size_t>(mc.op)].lane;
        } else {
            h.kind = Hover::Kind::Element;
            h.operand = g.operand;
            h.element = mc.element;
        }
        app.frame_hover = h;
        if (clicked) app.want_pin = h;
    }
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(520 * app.scale);
    ImGui::TextUnformatted(describe_memory_cell(app.set, g, plan, cell).c_str());
    ImGui::PopTextWrapPos();
    if (mc.kind == MemoryCell::Kind::Element) ImGui::TextDisabled("Shift: the reading lane   Click: pin   Esc: unpin");
    ImGui::EndTooltip();
}

std::vector<std::string> memory_headings(const App& app, const MemoryGrid& g, const MemoryPlan& p, bool mark) {
    const bool lds = g.tile.space == ls::MemorySpace::Lds;
    std::string where = op_name(g.operand) + " in " + (lds ? (nvidia_target(app) ? "shared memory" : "LDS") : "global") + ", " +
                        (g.tile.order == ls::MemoryOrder::RowMajor ? "row-major" : "column-major") + ", ld " +
                        std::to_string(g.tile.ld) + (g.tile.pad ? " + pad " + std::to_string(g.tile.pad) : "");
    if (g.tile.swizzle.active())
        where += ", swizzle " + std::to_string(g.tile.swizzle.vec) + "/" + std::to_string(g.tile.swizzle.per_phase) + "/" +
                 std::to_string(g.tile.swizzle.max_phase);
    const ls::OperandLayout* l = app.set.find(g.operand);
    if (l && l->blocks() > 1) where += ", " + std::to_string(l->blocks()) + " blocks stacked";
    const std::string kind = (mark ? "\u2192 " : "") + std::string(plan_kind_name(p.kind));
    std::vector<std::string> out;
    if (p.ok()) out.push_back(where + ":  " + kind + " (" + instruction_counts(p) + ")");
    out.push_back(where + ":  " + kind);
    if (p.ok()) out.push_back(kind + " (" + instruction_counts(p) + ")");
    out.push_back(kind);
    return out;
}

void draw_memory_canvas(App& app, float height) {
    MemoryViewState& m = app.memory;
    Canvas& c = m.canvas;
    ImGui::BeginChild("memory_canvas###memory_canvas", ImVec2(0, height), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    if (std::fabs(size.x - c.size.x) > 0.5f || std::fabs(size.y - c.size.y) > 0.5f) {
        c.size = size;
        m.tiles_dirty = true;
    }
    c.origin = origin;
    ImGui::InvisibleButton("memory_canvas_button", ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
    const bool hovered = ImGui::IsItemHovered();
    ImGuiIO& io = ImGui::GetIO();
    if (hovered && io.MouseWheel != 0 && !c.shapes.empty())
        c.view = zoom_about(c.shapes, app.memory_canvas_params(), std::pow(1.2f, io.MouseWheel), io.MousePos.x - origin.x,
                            io.MousePos.y - origin.y);
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4 * app.scale)) {
        c.dragging = true;
        c.view.pan_x += io.MouseDelta.x, c.view.pan_y += io.MouseDelta.y;
    }
    const bool clicked = ImGui::IsItemDeactivated() && !c.dragging && hovered;
    if (!ImGui::IsItemActive()) c.dragging = false;
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) c.fit_all();
    if (m.tiles_dirty) app.rebuild_memory_tiles();
    c.arr = arrange(c.shapes, app.memory_canvas_params());
    c.view.zoom_x = c.arr.zoom_x, c.view.zoom_y = c.arr.zoom_y, c.view.pan_x = c.arr.pan_x, c.view.pan_y = c.arr.pan_y;
    if (c.arr.cell_w != c.built_w || c.arr.cell_h != c.built_h) {
        app.rebuild_memory_tiles();
        c.arr = arrange(c.shapes, app.memory_canvas_params());
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(origin, add(origin, size.x, size.y), true);
    const ls::OperandLayout* l = app.set.find(m.settings.operand);
    for (size_t i = 0; l && i < c.arr.grids.size(); ++i) {
        const PlacedGrid& pg = c.arr.grids[i];
        const bool over = hovered && !c.dragging && pg.grid.contains(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
        const ImVec2 p0 = add(origin, pg.grid.x0, pg.grid.y0);
        const bool fragment = !m.settings.tiles && i + 1 == c.arr.grids.size();
        if (fragment) {
            const std::string name = op_name(l->operand());
            // Its shape, type and registers as the Layout tab titles it, after what the grid is.
            std::vector<std::string> forms;
            const std::vector<std::string> titles = operand_title_forms(app, app.set, *l);
            const std::string what = name + " fragment: which lane and register hold each element";
            for (const std::string& t : titles)
                if (t.find('\n') == std::string::npos) forms.push_back(what + "  (" + t + ")");
            for (const std::string& t : titles)  // "C / D  32x32  f32 ..." -> "D fragment  32x32  f32 ..."
                if (const size_t gap = t.find("  "); gap != std::string::npos && gap < t.find('\n')) forms.push_back(name + " fragment" + t.substr(gap));
            forms.push_back(name + " fragment");
            forms.push_back(name);
            draw_heading(forms, pg.heading, origin);
            draw_operand_axes(app, pg, m.fragment, origin);  // a multi-block fragment's blocks named b0, b1, ...
            draw_grid_at(app, m.fragment, m.fragment_tex, app.links.find(l->operand()), p0, over, over && clicked);
            continue;
        }
        const bool second = i == 1 && m.show_second;
        const MemoryGrid& g = second ? m.second : m.grid;
        const MemoryPlan& plan = second ? m.transposed : (m.show_second ? m.plain : m.active());
        const bool active = &plan == &m.active();
        draw_heading(memory_headings(app, g, plan, active && m.show_second), pg.heading, origin);
        const TileGrid& tiles = second ? m.second_tiles : m.tiles;
        draw_ticks(app, pg, tiles.rows, tiles.cols, tiles.cell_w, tiles.cell_h, origin);
        if (second) draw_memory_grid(app, g, tiles, m.second_tex, plan, active, p0, over, over && clicked);
        else draw_memory_grid(app, g, tiles, m.tex, plan, active, p0, over, over && clicked);
        if (over && clicked && !active && !m.settings.store) {
            // Clicking the other grid makes it the one the table and the banks describe.
            m.settings.transposed = second;
            m.settings.issue = 0;
        }
    }
    dl->PopClipRect();
    ImGui::EndChild();
}

// --- instructions and banks --------------------------------------------------------------

// The issue table's columns: fixed widths from the widest text (auto-fit would
// take a few frames to settle, and screenshots have two).
std::vector<std::pair<const char*, float>> issue_columns(const MemoryPlan& p, bool lds, bool nvidia) {
    float mnemonic_w = ImGui::CalcTextSize("instruction").x;
    for (const IssueRow& r : p.issues) mnemonic_w = std::max(mnemonic_w, ImGui::CalcTextSize(r.mnemonic.c_str()).x);
    mnemonic_w += ImGui::CalcTextSize("00").x;  // ImGui 1.86 draws fixed columns a little narrower than asked
    auto w = [](const char* name, const char* widest) { return std::max(ImGui::CalcTextSize(name).x, ImGui::CalcTextSize(widest).x); };
    const bool waves = !p.issues.empty() && p.issues.back().wave > 0;  // tile mode: "12 w3"
    std::vector<std::pair<const char*, float>> c{{"#", w("#", waves ? "000 w00" : "000")}, {"instruction", mnemonic_w}, {"lanes", w("lanes", "64")},
                                                 {"bytes", w("bytes", "16")}};
    if (lds && nvidia) c.insert(c.end(), {{"wavefronts", w("wavefronts", "64")}, {"min", w("min", "64")}});
    else if (lds) c.insert(c.end(), {{"cycles", w("cycles", "64")}, {"min", w("min", "64")}});
    else c.insert(c.end(), {{"lines", w("lines", "64")}, {"64B", w("64B", "64")}, {"min", w("min", "64")}});
    return c;
}

float issue_table_width(const App& app) {
    const MemoryPlan& p = app.memory.active();
    float w = ImGui::GetStyle().ScrollbarSize + 2 * ImGui::GetStyle().WindowPadding.x + 12 * app.scale;
    for (const auto& c : issue_columns(p, app.memory.settings.tile.space == ls::MemorySpace::Lds, nvidia_target(app)))
        w += c.second + 2 * ImGui::GetStyle().CellPadding.x + 1;
    return w;
}

void draw_issue_table(App& app) {
    MemoryViewState& m = app.memory;
    const MemoryPlan& p = m.active();
    const bool lds = m.settings.tile.space == ls::MemorySpace::Lds;
    if (!p.ok()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(kErrorColour, "%s: %s", plan_kind_name(p.kind), p.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingFixedFit;
    const auto columns = issue_columns(p, lds, nvidia_target(app));
    if (!ImGui::BeginTable("issues###memory_issues", static_cast<int>(columns.size()), flags, ImVec2(0, 0))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const auto& c : columns) ImGui::TableSetupColumn(c.first, ImGuiTableColumnFlags_WidthFixed, c.second);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < p.issues.size(); ++i) {
        const IssueRow& r = p.issues[i];
        if (m.settings.tiles && r.wave != app.tile.pick_wave) continue;  // tile mode: the selected wave's
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string id = std::to_string(r.issue) + (r.wave ? " w" + std::to_string(r.wave) : "") + "##issue" + std::to_string(i);
        if (ImGui::Selectable(id.c_str(), m.settings.issue == static_cast<int>(i), ImGuiSelectableFlags_SpanAllColumns) &&
            m.settings.issue != static_cast<int>(i)) {
            m.settings.issue = static_cast<int>(i);
            app.request_redraw();
        }
        if (ImGui::IsItemHovered() && !r.builtin.empty()) ImGui::SetTooltip("builtin %s", r.builtin.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.mnemonic.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%d", r.lanes);
        ImGui::TableNextColumn();
        ImGui::Text("%d", r.bytes);
        if (lds) {
            const ls::BankReport* rep = r.report >= 0 ? &p.banks[static_cast<size_t>(r.report)] : nullptr;
            ImGui::TableNextColumn();
            if (rep && rep->cycles > rep->minimum_cycles) ImGui::TextColored(kErrorColour, "%d", rep->cycles);
            else if (rep) ImGui::Text("%d", rep->cycles);
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (rep) ImGui::Text("%d", rep->minimum_cycles);
            else ImGui::TextDisabled("-");
        } else {
            const ls::CoalescingReport* c = r.coalescing >= 0 ? &p.coalescing[static_cast<size_t>(r.coalescing)] : nullptr;
            ImGui::TableNextColumn();
            if (c) ImGui::Text("%d", c->cache_lines);
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (c) ImGui::Text("%d", c->segments_64b);
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (c) ImGui::Text("%d", c->minimum_lines);
            else ImGui::TextDisabled("-");
        }
    }
    ImGui::EndTable();
}

std::string lane_ranges(const std::vector<int>& lanes) {
    std::string s;
    for (size_t i = 0; i < lanes.size();) {
        size_t j = i;
        while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
        s += (s.empty() ? "" : ",") + std::to_string(lanes[i]) + (j > i ? "-" + std::to_string(lanes[j]) : "");
        i = j + 1;
    }
    return s;
}

void draw_banks(App& app) {
    MemoryViewState& m = app.memory;
    const MemoryPlan& p = m.active();
    const IssueRow* row = selected_issue(app);
    if (m.settings.tile.space != ls::MemorySpace::Lds) {
        ImGui::TextWrapped("Global memory: no banks; the table counts the distinct 128-byte cache lines and 64-byte segments "
                           "each wave-level instruction touches, against the fewest its bytes need.");
        return;
    }
    if (!p.ok() || !row) return;
    if (!p.bank_model || row->report < 0) {
        ImGui::TextColored(kErrorColour, "banks: %s", p.bank_error.empty() ? "no report for this instruction" : p.bank_error.c_str());
        return;
    }
    const ls::BankReport& rep = p.banks[static_cast<size_t>(row->report)];
    // The pass grouping of this mnemonic: the user may pick another one.
    const std::vector<ls::PassGrouping> offered = groupings_for(app.set, row->mnemonic);
    const std::string of_wave = m.settings.tiles ? " of wave " + std::to_string(row->wave) : "";
    const bool nv = nvidia_target(app);
    ImGui::TextWrapped("instruction %d%s, %s: %d %s, %d %s (conflict-free %d)", row->issue, of_wave.c_str(), row->mnemonic.c_str(),
                       static_cast<int>(rep.passes.size()), nv ? "phases" : "passes", rep.cycles, nv ? "wavefronts" : "cycles",
                       rep.minimum_cycles);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("lanes served together:");
    const std::string current = rep.grouping.name + " (" + rep.grouping.confidence + ")";
    // The menu goes beside the words when its text fits there, else on a line of its own (never clipped).
    const float need = ImGui::CalcTextSize(current.c_str()).x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
    ImGui::SetNextItemWidth(std::max(120.0f * app.scale, ImGui::GetContentRegionAvail().x));
    if (ImGui::BeginCombo("##grouping", current.c_str())) {
        for (const ls::PassGrouping& g : offered) {
            const std::string label = g.name + " (" + g.confidence + ")" + (g.confidence == "documented" ? "" : "  \u2190 not documented");
            if (ImGui::Selectable(label.c_str(), g.name == rep.grouping.name) && g.name != rep.grouping.name) {
                m.settings.grouping = g.name;
                m.plans_dirty = true;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("source: %s", g.source.c_str());
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("source: %s", rep.grouping.source.c_str());
    const BankStrip strip = bank_strip(p.ops, *row, *p.bank_model, passes_of(p, *row));
    // The strip: one column per bank, one row per pass; the number of distinct
    // dwords a bank must supply, red where it is more than one (a conflict).
    const float label_w = ImGui::CalcTextSize("phase 7: 9 cyc ").x;
    const float avail = ImGui::GetContentRegionAvail().x - label_w;
    const float cw = std::max(3.0f, std::floor(avail / std::max(1, strip.banks)));
    const float chh = std::max(8.0f, std::min(ImGui::GetTextLineHeight(),
                                              (ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeight() - 4) /
                                                  std::max<size_t>(1, strip.lanes.size() + 1)));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    ImFont* f = app.cell_font;
    const float fs = app.cell_font_size;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    // Bank numbers above, every few banks.
    int step = 1;
    while (step * cw < f->CalcTextSizeA(fs, FLT_MAX, 0, "63").x + 3) step *= 2;
    for (int b = 0; b < strip.banks; b += step)
        dl->AddText(f, fs, add(o, label_w + b * cw + 1, 0), dim, std::to_string(b).c_str());
    const float top = fs + 2;
    const ImVec2 mp = ImGui::GetIO().MousePos;
    for (size_t pi = 0; pi < strip.lanes.size(); ++pi) {
        const float y = top + pi * chh;
        const bool nv = nvidia_target(app);
        const std::string lbl = (nv ? "phase " : "pass ") + std::to_string(pi) + ": " + std::to_string(strip.pass_cycles[pi]) +
                                (nv ? " wf" : " cyc");
        dl->AddText(f, fs, add(o, 0, y + (chh - fs) * 0.5f), strip.pass_cycles[pi] > 1 ? kConflict : text, lbl.c_str());
        if (ImGui::IsMouseHoveringRect(add(o, 0, y), add(o, label_w, y + chh)))
            ImGui::SetTooltip(nv ? "phase %d: threads %s, %d wavefront(s)" : "pass %d: lanes %s, %d cycle(s)", static_cast<int>(pi),
                              lane_ranges(strip.lanes[pi]).c_str(), strip.pass_cycles[pi]);
        for (int b = 0; b < strip.banks; ++b) {
            const int n = strip.distinct[pi][static_cast<size_t>(b)];
            const ImVec2 a = add(o, label_w + b * cw, y), z = add(o, label_w + (b + 1) * cw - 1, y + chh - 1);
            const ImU32 fill = n == 0 ? to_imgui(colors.background) : n == 1 ? to_imgui(colors.grid) : kConflict;
            dl->AddRectFilled(a, z, fill);
            dl->AddRect(a, z, to_imgui(colors.grid, 160));
            if (n > 0) {
                const std::string t = std::to_string(n);
                const ImVec2 sz = f->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
                if (sz.x + 2 <= cw && sz.y <= chh + 2)
                    dl->AddText(f, fs, ImVec2(std::floor((a.x + z.x - sz.x) * 0.5f), std::floor((a.y + z.y - sz.y) * 0.5f)),
                                n > 1 ? IM_COL32(255, 255, 255, 255) : text, t.c_str());
            }
            if (mp.x >= a.x && mp.x < z.x + 1 && mp.y >= a.y && mp.y < z.y + 1 && ImGui::IsWindowHovered()) {
                m.frame_bank_hover = {static_cast<int>(pi), b};
                dl->AddRect(a, z, to_imgui(colors.highlight), 0, 0, 2 * app.scale);
            }
            if (mp.x >= a.x && mp.x < z.x + 1 && mp.y >= a.y && mp.y < z.y + 1 && ImGui::IsWindowHovered())
                ImGui::SetTooltip("bank %d, pass %d (lanes %s): %d distinct dword(s)%s", b, static_cast<int>(pi),
                                  lane_ranges(strip.lanes[pi]).c_str(), n, n > 1 ? ": a conflict" : "");
        }
    }
    ImGui::Dummy(ImVec2(label_w + strip.banks * cw, top + strip.lanes.size() * chh));
    if (strip.cycles != rep.cycles)
        ImGui::TextColored(kErrorColour, "(the strip counts %d cycles, the report %d)", strip.cycles, rep.cycles);
}

// Tile mode: what the grid is (the tile operand of every wave), the wave selector (the Layout tab's
// tile wave field) whose loads the table and the banks show, and each wave's share of the plan.
void draw_tile_summary(App& app) {
    MemoryViewState& m = app.memory;
    const bool lds = m.settings.tile.space == ls::MemorySpace::Lds;
    const MemoryPlan& p = m.active();
    const int waves = std::max(1, app.tile.tiles.waves());
    // The shape in use (0 in the fields means one wave-grid tile, one instruction K), as the Layout tab says.
    const ls::TileLayout* tl = app.tile.tiles.find(m.settings.operand);
    const std::string params = (tl ? tl->params() : app.tile.tiles.params).describe();
    ImGui::Text("Tile (%s): %s %dx%d, every wave's %s", params.c_str(),
                op_name(m.settings.operand).c_str(), m.grid.block_rows, m.grid.cols, plan_kind_name(p.kind));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("wave");
    ImGui::SameLine(0, 4);
    ImGui::SetNextItemWidth(std::ceil(ImGui::CalcTextSize("0000").x + 2 * ImGui::GetStyle().FramePadding.x));
    int w = app.tile.pick_wave;
    if (ImGui::InputInt("##memory_wave", &w, 0, 0)) app.tile.pick_wave = std::clamp(w, 0, waves - 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the wave (0..%d) whose instructions the table and the banks show", waves - 1);
    ImGui::SameLine();
    if (!p.ok()) {
        ImGui::TextDisabled("(no plan)");
        return;
    }
    const std::vector<WaveLoads> per = wave_loads(p);
    int lo = 1 << 30, hi = 0;
    for (const WaveLoads& x : per) lo = std::min(lo, x.instructions), hi = std::max(hi, x.instructions);
    const std::string counts = per.empty() ? "none" : lo == hi ? std::to_string(hi) : std::to_string(lo) + ".." + std::to_string(hi);
    const int worst = worst_wave(per, lds);
    const WaveLoads* wl = nullptr;
    for (const WaveLoads& x : per)
        if (x.wave == worst) wl = &x;
    std::string s = "instructions per wave: " + counts;
    if (wl && lds && !p.banks.empty())
        s += "; bank cycles of the worst wave: " + std::to_string(wl->cycles) + " (wave " + std::to_string(wl->wave) +
             ", conflict-free " + std::to_string(wl->minimum_cycles) + ")";
    if (wl && !lds && !p.coalescing.empty())
        s += "; cache lines of the worst wave: " + std::to_string(wl->cache_lines) + " (wave " + std::to_string(wl->wave) +
             ", at least " + std::to_string(wl->minimum_lines) + ")";
    ImGui::TextUnformatted(s.c_str());
    // The selected instruction belongs to the selected wave: a new wave (this field, the Layout tab's, a
    // pinned lane) selects its first instruction; an instruction of another wave (--issue) selects its wave.
    const IssueRow* row = selected_issue(app);
    if (!row) return;
    if (app.tile.pick_wave != m.shown_wave) {
        for (size_t i = 0; i < p.issues.size(); ++i)
            if (p.issues[i].wave == app.tile.pick_wave) {
                if (row->wave != app.tile.pick_wave) m.settings.issue = static_cast<int>(i);
                break;
            }
        app.request_redraw();
    } else if (row->wave != app.tile.pick_wave) {
        app.tile.pick_wave = row->wave;
        app.request_redraw();
    }
    m.shown_wave = app.tile.pick_wave;
}

}  // namespace

void draw_memory_panel(App& app) {
    MemoryViewState& m = app.memory;
    if (m.frame_bank_hover != m.bank_hover) app.request_redraw();
    m.bank_hover = m.frame_bank_hover;
    m.frame_bank_hover = {-1, -1};
    if (m.plans_dirty) app.rebuild_memory_plans();
    if (m.descriptor) {
        // A matrix descriptor's operand: its tile in shared memory (panel_smem.cpp).
        operand_radio(app);
        if (m.plans_dirty) app.rebuild_memory_plans();
        if (m.descriptor) return draw_smem_panel(app);
    }
    draw_legend(app);  // the Layout tab's colours, Fit and 100 % for this canvas
    draw_controls(app);
    if (m.plans_dirty) app.rebuild_memory_plans();
    const ls::OperandLayout* l = app.set.find(m.settings.operand);
    if (!l) {
        ImGui::TextColored(kErrorColour, "%s has no operand %s", app.set.ins->mnemonic.c_str(),
                           op_name(m.settings.operand).c_str());
        return;
    }
    // Both plans' counts, always: the switch is a click away.
    const bool lds = m.settings.tile.space == ls::MemorySpace::Lds;
    ImGui::PushTextWrapPos(0);
    const int waves = m.settings.tiles ? std::max(1, app.tile.tiles.waves()) : 1;
    if (m.settings.tiles) draw_tile_summary(app);
    if (m.settings.store) {
        ImGui::TextUnformatted(plan_summary(m.store, lds, waves, nvidia_target(app)).c_str());
    } else {
        ImGui::TextUnformatted(plan_summary(m.plain, lds, waves, nvidia_target(app)).c_str());
        if (m.transposed.ok()) {
            ImGui::TextUnformatted(plan_summary(m.transposed, lds, waves, nvidia_target(app)).c_str());
            if (ImGui::IsItemHovered() && !m.transposed.confidence_basis.empty())
                ImGui::SetTooltip("%s: %s", m.transposed.confidence.c_str(), m.transposed.confidence_basis.c_str());
        } else ImGui::TextDisabled("%s", plan_summary(m.transposed, lds, 1, nvidia_target(app)).c_str());
    }
    ImGui::PopTextWrapPos();
    const float bottom = std::min(220.0f * app.scale, ImGui::GetContentRegionAvail().y * 0.4f);
    draw_memory_canvas(app, ImGui::GetContentRegionAvail().y - bottom - ImGui::GetStyle().ItemSpacing.y);
    const float table_w = m.active().ok() ? std::min(issue_table_width(app), ImGui::GetContentRegionAvail().x * 0.6f)
                                          : ImGui::GetContentRegionAvail().x * 0.4f;
    ImGui::BeginChild("memory_issues_child", ImVec2(table_w, 0), false);
    draw_issue_table(app);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("memory_banks_child", ImVec2(0, 0), false);
    draw_banks(app);
    ImGui::EndChild();
}

}  // namespace lsapp
