#include "ui/app.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

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
    apply_theme(settings.view.theme);
    ImGui::GetStyle().ScaleAllSizes(scale);
    tab = static_cast<Tab>(std::clamp(settings.view.tab, 0, 4));
    tab_forced = tab != Tab::Layout;
    select(settings.selection);
}

App::~App() {
    for (auto& v : views) v.matrix_tex.release(), v.registers_tex.release();
    for (auto& v : compare.views) v.matrix_tex.release(), v.registers_tex.release();
    for (auto& v : compare.left) v.matrix_tex.release();
}

GridStyle App::grid_style() const {
    GridStyle st;
    st.color_by = settings.view.color_by;
    st.theme = settings.view.theme;
    st.labels = settings.view.labels;
    st.block = settings.view.block;
    st.block_gap = 8 * scale;
    ImFont* f = font;
    const float fs = font_size;
    st.text_width = [f, fs](const std::string& text) { return f->CalcTextSizeA(fs, FLT_MAX, 0.0f, text.c_str()).x; };
    st.cell_h = std::floor((font_size + 6 * scale) * settings.view.zoom);
    return st;
}

void App::select(const Selection& s) {
    try {
        LayoutSet next = resolve_selection(catalog, s);
        set = std::move(next);
        settings.selection = s;
        settings.selection.instruction = set.ins->mnemonic;
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
    hover = pinned = Hover{};
    // A verification belongs to one instruction and modifier setting.
    verify.have = false;
    verify.error.clear();
    verify.status.clear();
    verify.key.clear();
    grids_dirty = hits_dirty = values_dirty = compare_dirty = true;
    links = compute_links(set, Hover{});
    links_for_ = Hover{};
    request_redraw();
}

float App::cell_width_for(const LayoutSet& s, GridStyle& st) {
    float natural = 0;
    for (const auto& l : s.layouts) natural = std::max(natural, natural_cell_width(l, st));
    if (!settings.view.fit) return std::floor(natural * settings.view.zoom);
    // Fit: the picture's columns and rows share the panel (A beside D, B above D).
    ImVec2 avail = layout_avail;
    if (avail.x <= 0 || avail.y <= 0) {
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        avail = ImVec2(d.x - 350 * scale, d.y - 4 * ImGui::GetFrameHeightWithSpacing());
    }
    fit_avail_used = avail;
    auto shown = [&](ls::Operand op, bool cols) {
        const ls::OperandLayout* l = s.find(op);
        if (!l) return 0;
        const int blocks = settings.view.block >= 0 ? 1 : l->blocks();
        return cols ? l->cols() * blocks : l->rows();
    };
    // Per block: columns and rows of the picture (blocks then wrap into rows).
    int cols = 0, rows = 0, pictures = 1;
    const ls::OperandLayout* D = s.find(ls::Operand::D);
    const int blocks = settings.view.block >= 0 || !D ? 1 : D->blocks();
    auto per_block = [&](ls::Operand op, bool c) {
        const ls::OperandLayout* l = s.find(op);
        return l ? (c ? l->cols() : l->rows()) : 0;
    };
    (void)shown;
    if (!only_operands.empty()) {
        for (ls::Operand op : only_operands) cols += per_block(op == ls::Operand::C ? ls::Operand::D : op, true);
        for (ls::Operand op : only_operands) rows = std::max(rows, per_block(op == ls::Operand::C ? ls::Operand::D : op, false));
        pictures = static_cast<int>(only_operands.size());
    } else {
        cols = per_block(ls::Operand::A, true) + per_block(ls::Operand::D, true);
        // The sparse index and the scales sit in a row under A and D.
        const int extra = std::max({per_block(ls::Operand::K, false), per_block(ls::Operand::SA, false),
                                    per_block(ls::Operand::SB, false)});
        rows = per_block(ls::Operand::B, false) + per_block(ls::Operand::D, false) + extra;
        pictures = extra > 0 ? 3 : 2;
    }
    const float th = ImGui::GetTextLineHeightWithSpacing();
    const float min_w = std::ceil(st.text_width("00") + 4 * scale);
    const float gaps = 18 * scale * static_cast<float>(pictures) + ImGui::GetStyle().ScrollbarSize;
    const float natural_h = st.cell_h;
    const float room_w = avail.x - gaps, room_h = avail.y - 3 * th - gaps;
    const float min_h = std::ceil(font_size + 3 * scale);
    st.blocks_per_row = best_blocks_per_row(blocks, cols, rows, room_w, room_h, natural, natural_h, min_h);
    const int block_rows = (blocks + st.blocks_per_row - 1) / st.blocks_per_row;
    const float block_gaps_w = st.block_gap * (st.blocks_per_row - 1) * pictures;
    const float block_gaps_h = st.block_gap * (block_rows - 1) * pictures;
    st.cell_h = fit_cell(natural_h, min_h, room_h - block_gaps_h, rows * block_rows);
    return fit_cell(natural, min_w, room_w - block_gaps_w, cols * st.blocks_per_row);
}

void App::rebuild_grids() {
    const auto t0 = std::chrono::steady_clock::now();
    GridStyle st = grid_style();
    st.cell_w = cell_width_for(set, st);
    const ls::ThemeColors colors = ls::theme_colors(settings.view.theme);
    for (auto& v : views) v.matrix_tex.release(), v.registers_tex.release();
    views.clear();
    // Register views label elements ("31,7"): their own cell size, not the matrices' fit.
    GridStyle reg_style = grid_style();
    reg_style.cell_w = std::ceil(reg_style.text_width(set.ins->blocks > 1 ? "b15:00,00" : "00,00") + 8 * scale);
    for (const auto& l : set.layouts) {
        OperandView v;
        v.operand = l.operand();
        v.matrix = build_matrix_grid(*set.ins, l, st);
        v.registers = build_register_grid(*set.ins, l, reg_style);
        views.push_back(std::move(v));
    }
    // Render after the vector stops moving (textures are GL objects).
    for (auto& v : views) {
        if (v.operand == ls::Operand::C) continue;  // C is drawn as D
        v.matrix_tex.render(v.matrix, colors, font, font_size);
        v.registers_tex.render(v.registers, colors, font, font_size);
    }
    grids_dirty = false;
    last_rebuild_ms = ms_since(t0);
    ++rebuilds;
}

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
    GridStyle st = grid_style();
    float cell_w = 0;
    for (const auto& l : set.layouts) cell_w = std::max(cell_w, natural_cell_width(l, st));
    for (const auto& l : compare.set.layouts) cell_w = std::max(cell_w, natural_cell_width(l, st));
    if (settings.view.fit) {
        // Both pictures side by side in the panel.
        int cols = 0;
        for (const auto& l : set.layouts) cols = std::max(cols, l.cols() * l.blocks());
        for (const auto& l : compare.set.layouts) cols = std::max(cols, l.cols() * l.blocks());
        const float avail = (layout_avail.x > 0 ? layout_avail.x : ImGui::GetIO().DisplaySize.x - 350 * scale) - 60 * scale;
        st.cell_w = fit_cell(cell_w, std::ceil(st.text_width("00") + 4 * scale), avail, 2 * cols);
    } else {
        st.cell_w = std::floor(cell_w * settings.view.zoom);
    }
    for (const auto& l : compare.set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        OperandView v;
        v.operand = l.operand();
        v.matrix = build_matrix_grid(*compare.set.ins, l, st);
        compare.views.push_back(std::move(v));
        if (const ls::OperandLayout* mine = set.find(l.operand())) compare.diffs.push_back(diff_layouts(*mine, l));
    }
    for (const auto& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        OperandView v;
        v.operand = l.operand();
        v.matrix = build_matrix_grid(*set.ins, l, st);
        compare.left.push_back(std::move(v));
    }
    const ls::ThemeColors colors = ls::theme_colors(settings.view.theme);
    for (auto& v : compare.views) v.matrix_tex.render(v.matrix, colors, font, font_size);
    for (auto& v : compare.left) v.matrix_tex.render(v.matrix, colors, font, font_size);
}

void App::handle_shortcuts() {
    ImGuiIO& io = ImGui::GetIO();
    if (!platform.interactive()) return;
    const bool ctrl = io.KeyCtrl;
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_K) || ImGui::IsKeyPressed(GLFW_KEY_F))) focus_search = true;
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_S)) want_export = ExportRequest{!io.KeyShift, ""};
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))) {
        settings.view.zoom = std::min(3.0f, settings.view.zoom * 1.25f), settings.view.fit = false;
        grids_dirty = compare_dirty = true;
    }
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))) {
        settings.view.zoom = std::max(0.3f, settings.view.zoom / 1.25f), settings.view.fit = false;
        grids_dirty = compare_dirty = true;
    }
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_0)) {
        settings.view.zoom = 1.0f, settings.view.fit = false;
        grids_dirty = compare_dirty = true;
    }
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
        if (ImGui::MenuItem("Fit to panel", nullptr, v.fit)) v.fit = !v.fit;
        if (ImGui::MenuItem("Zoom in", "Ctrl++")) v.zoom = std::min(3.0f, v.zoom * 1.25f), v.fit = false;
        if (ImGui::MenuItem("Zoom out", "Ctrl+-")) v.zoom = std::max(0.3f, v.zoom / 1.25f), v.fit = false;
        if (ImGui::MenuItem("Actual size", "Ctrl+0")) v.zoom = 1.0f, v.fit = false;
        ImGui::Separator();
        if (ImGui::MenuItem("Light theme", nullptr, v.theme == ls::Theme::Light)) v.theme = ls::Theme::Light;
        if (ImGui::MenuItem("Dark theme", nullptr, v.theme == ls::Theme::Dark)) v.theme = ls::Theme::Dark;
        if (v.theme != before.theme) apply_theme(v.theme);  // colours only; sizes stay scaled
        if (v.color_by != before.color_by || v.labels != before.labels || v.zoom != before.zoom || v.fit != before.fit ||
            v.theme != before.theme)
            grids_dirty = compare_dirty = true;
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void App::draw_status_bar() {
    const ls::Instruction& ins = *set.ins;
    std::string text = set.target->gfx + " (" + std::string(ls::family_title(set.target->family)) + ")  |  " +
                       ins.mnemonic + "  |  " + ls::lane_group_name(ins, set.mods.wave);
    const std::string mods = set.mods.describe();
    if (!mods.empty()) text += "  " + mods;
    const Hover& h = active_hover();
    if (h.kind == Hover::Kind::Element)
        text += "  |  " + std::string(ls::operand_name(h.operand)) + "[" + std::to_string(h.element.row) + "][" +
                std::to_string(h.element.col) + "]" + (set.ins->blocks > 1 ? " block " + std::to_string(h.element.block) : "");
    else if (h.kind == Hover::Kind::Lane)
        text += "  |  lane " + std::to_string(h.lane);
    if (pinned.kind != Hover::Kind::None) text += " (pinned, Esc clears)";
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
    const float left_w = 300 * scale;
    const float body_h = ImGui::GetContentRegionAvail().y - status_h;
    ImGui::BeginChild("left###left", ImVec2(left_w, body_h), true);
    draw_search_panel(*this);
    ImGui::EndChild();
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
    if (want_pin) {
        pinned = (*want_pin == pinned) ? Hover{} : *want_pin;
        want_pin.reset();
        request_redraw();
    }
    if (frame_hover != hover) {
        hover = frame_hover;
        request_redraw();
    }
    // Links follow the hover, or the pin when nothing is hovered.
    const Hover& h = active_hover();
    if (h != links_for_) {
        links = compute_links(set, h);
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
