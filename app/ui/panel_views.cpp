// The operand views: the GEMM picture (A left, B above, D at the crossing),
// the register views (lanes x VGPRs), and compare mode. All of them draw a
// cached texture and only the highlights per frame.
#include "ui/app.hpp"

#include <cmath>

namespace lsapp {

namespace {

ImVec2 add(ImVec2 a, float x, float y) { return ImVec2(a.x + x, a.y + y); }

std::string grid_title(const App& app, const ls::OperandLayout& l, bool registers) {
    std::string s = l.operand() == ls::Operand::D ? "C / D" : std::string(ls::operand_name(l.operand()));
    s += "  " + std::to_string(l.rows()) + "x" + std::to_string(l.cols()) +
         (l.blocks() > 1 ? " x" + std::to_string(l.blocks()) + " blocks" : "") + "  " +
         std::string(ls::elem_name(l.type())) + "  " + std::to_string(l.regs()) + " " +
         std::string(ls::register_noun(app.set.ins->vendor())) + (l.regs() == 1 ? "" : "s");
    if (registers) s += "  (rows: lanes, columns: " + std::string(ls::register_noun(app.set.ins->vendor())) + "s)";
    else if (l.elements() > 0) {
        const size_t copies = l.where({0, 0, 0}).size();
        if (copies > 1) s += "  (each element in " + std::to_string(copies) + " places; first shown)";
    }
    (void)app;
    return s;
}

const OperandView* view_of(const App& app, ls::Operand op) {
    for (const auto& v : app.views)
        if (v.operand == op) return &v;
    return nullptr;
}

}  // namespace

void draw_grid(App& app, const TileGrid& grid, TileTexture& tex, const OperandHighlight* hl, const char* id,
               const std::vector<std::uint8_t>* diff, const LayoutSet* other, const OperandVerify* verified) {
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, grid.width), std::max(1.0f, grid.height)));
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (tex.ready()) {
        // The cached picture is opaque: drawing it without blending halves
        // llvmpipe's per-pixel work for the largest quads of the frame.
        dl->AddCallback([](const ImDrawList*, const ImDrawCmd*) { glDisable(GL_BLEND); }, nullptr);
        dl->AddImage(tex.id(), p0, add(p0, static_cast<float>(tex.width()), static_cast<float>(tex.height())),
                     ImVec2(0, 1), ImVec2(1, 0));
        dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    }
    const ls::ThemeColors colors = ls::theme_colors(app.settings.view.theme);
    const ImU32 strong = to_imgui(colors.highlight), weak = to_imgui(colors.highlight, 200),
                wash = to_imgui(colors.highlight, 70);
    const float thick = 3.0f * app.scale, thin = 1.5f * app.scale;
    const bool matrix = grid.view == ViewKind::Matrix;
    // Only what changes per frame: highlights of the hovered / pinned thing.
    if (hl) {
        for (const Tile& t : grid.tiles) {
            const size_t idx = matrix ? static_cast<size_t>((t.element.block * grid.rows + t.element.row) * grid.cols + t.element.col)
                                      : static_cast<size_t>(t.loc.lane) * grid.regs + t.loc.reg;
            const auto& mask = matrix ? hl->elements : hl->slots;
            const std::uint8_t level = idx < mask.size() ? mask[idx] : 0;
            if (!level) continue;
            const ImVec2 a = add(p0, t.x0 + 1, t.y0 + 1), b = add(p0, t.x1, t.y1);
            if (level == 2) dl->AddRectFilled(a, b, wash);
            dl->AddRect(a, b, level == 2 ? strong : weak, 0.0f, 0, level == 2 ? thick : thin);
        }
    }
    if (verified) {
        // "Verify on GPU": green for verified cells, red for wrong ones, over the cached tiles.
        const ImU32 ok_line = to_imgui(verify_ok_colour), ok_wash = to_imgui(verify_ok_colour, 40);
        const ImU32 bad_line = to_imgui(verify_wrong_colour), bad_wash = to_imgui(verify_wrong_colour, 110);
        for (const Tile& t : grid.tiles) {
            const CellState st = verified->at(t.element);
            if (st == CellState::Unchecked) continue;
            const ImVec2 a = add(p0, t.x0 + 1, t.y0 + 1), b = add(p0, t.x1, t.y1);
            const bool wrong = st == CellState::Wrong;
            dl->AddRectFilled(a, b, wrong ? bad_wash : ok_wash);
            dl->AddRect(a, b, wrong ? bad_line : ok_line, 0.0f, 0, wrong ? thick : 2.0f * app.scale);
        }
    }
    if (diff) {
        const ImU32 mark = to_imgui(app.settings.view.theme == ls::Theme::Dark ? ls::Rgb{255, 255, 255} : ls::Rgb{0, 0, 0});
        for (const Tile& t : grid.tiles) {
            const size_t idx = static_cast<size_t>((t.element.block * grid.rows + t.element.row) * grid.cols + t.element.col);
            if (idx >= diff->size() || !(*diff)[idx]) continue;
            const ImVec2 a = add(p0, t.x0 + 2, t.y0 + 2), b = add(p0, t.x1 - 1, t.y1 - 1);
            // A corner flag and an outline: the label stays readable.
            const float f = std::min(b.x - a.x, b.y - a.y) * 0.45f;
            dl->AddTriangleFilled(a, ImVec2(a.x + f, a.y), ImVec2(a.x, a.y + f), mark);
            dl->AddRect(a, b, mark, 0.0f, 0, thin);
        }
    }
    if (!hovered) return;
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int hit = grid.hit(m.x - p0.x, m.y - p0.y);
    if (hit < 0) return;
    const Tile& t = grid.tiles[static_cast<size_t>(hit)];
    Hover h;
    if (ImGui::GetIO().KeyShift) {
        h.kind = Hover::Kind::Lane;
        h.lane = t.loc.lane;
    } else {
        h.kind = Hover::Kind::Element;
        h.operand = grid.operand;
        h.element = t.element;
    }
    if (!other) {
        app.frame_hover = h;
        if (clicked) app.want_pin = h;
    }
    ImGui::BeginTooltip();
    std::string text = describe_element(other ? *other : app.set, grid.operand, t.element);
    if (!matrix)
        text = "v" + std::to_string(t.loc.reg) + " lane " + std::to_string(t.loc.lane) + " bits " +
               std::to_string(t.loc.bit_lo) + ".." + std::to_string(std::min(t.loc.bit_hi, 31)) + " holds\n" + text;
    ImGui::PushTextWrapPos(520 * app.scale);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    if (verified) {
        if (const std::string* note = verified->note(t.element)) {
            ImGui::PushTextWrapPos(520 * app.scale);
            ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "Verify on GPU: WRONG. What the hardware did:");
            ImGui::TextUnformatted(note->c_str());
            ImGui::PopTextWrapPos();
        } else if (verified->at(t.element) == CellState::Verified) {
            ImGui::TextColored(ImVec4(0.1f, 0.55f, 0.2f, 1), "Verify on GPU: verified on %s", app.verify.facts.device.c_str());
        }
    }
    ImGui::TextDisabled("Shift: whole lane   Click: pin   Esc: unpin");
    ImGui::EndTooltip();
}

void draw_layout_panel(App& app) {
    ImGui::BeginChild("layout_canvas###layout_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    app.layout_avail = ImGui::GetContentRegionAvail();
    if (app.settings.view.fit && (std::fabs(app.layout_avail.x - app.fit_avail_used.x) > 8 ||
                                  std::fabs(app.layout_avail.y - app.fit_avail_used.y) > 8))
        app.grids_dirty = true;  // the panel changed size: refit
    if (app.grids_dirty) app.rebuild_grids();
    app.layout_panel_min = ImGui::GetWindowPos();
    app.layout_panel_max = add(app.layout_panel_min, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y);
    const float th = ImGui::GetTextLineHeightWithSpacing();
    const float gap = 18 * app.scale;
    const ImVec2 origin = ImGui::GetCursorPos();
    float right = 0, bottom = 0;
    auto place = [&](ls::Operand op, float x, float y, bool registers) {
        OperandView* v = const_cast<OperandView*>(view_of(app, op));
        const ls::OperandLayout* l = app.set.find(op);
        if (!v || !l) return;
        const TileGrid& g = registers ? v->registers : v->matrix;
        ImGui::SetCursorPos(ImVec2(origin.x + x, origin.y + y - th));
        ImGui::TextUnformatted(grid_title(app, *l, registers).c_str());
        ImGui::SetCursorPos(ImVec2(origin.x + x, origin.y + y));
        const std::string id = std::string(registers ? "reg_" : "mat_") + std::string(ls::operand_name(op));
        draw_grid(app, g, registers ? v->registers_tex : v->matrix_tex, app.links.find(op), id.c_str(), nullptr, nullptr,
                  app.verify_for(op));
        right = std::max(right, x + std::max(g.width, ImGui::CalcTextSize(grid_title(app, *l, registers).c_str()).x));
        bottom = std::max(bottom, y + g.height);
    };
    auto size_of = [&](ls::Operand op) {
        const OperandView* v = view_of(app, op);
        return v ? ImVec2(v->matrix.width, v->matrix.height) : ImVec2(0, 0);
    };
    if (!app.only_operands.empty()) {
        // Only the operands asked for, left to right.
        float x = 0;
        for (ls::Operand op : app.only_operands) {
            const ls::Operand shown = op == ls::Operand::C ? ls::Operand::D : op;
            place(shown, x, th, false);
            x += size_of(shown).x + gap;
        }
    } else {
        const ImVec2 a = size_of(ls::Operand::A), b = size_of(ls::Operand::B);
        const float top = th + b.y + gap + th;  // A and D start below B
        place(ls::Operand::B, a.x + gap, th, false);
        place(ls::Operand::A, 0, top, false);
        place(ls::Operand::D, a.x + gap, top, false);
        float x = 0;
        const float extra_y = bottom + gap + th;
        for (ls::Operand op : {ls::Operand::K, ls::Operand::SA, ls::Operand::SB}) {
            if (!app.set.find(op)) continue;
            place(op, x, extra_y, false);
            x += size_of(op).x + gap;
        }
        if (app.settings.view.show_registers) {
            float rx = right + 2 * gap;
            for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D, ls::Operand::K}) {
                const OperandView* v = view_of(app, op);
                if (!v) continue;
                place(op, rx, th, true);
                rx += std::max(v->registers.width, ImGui::CalcTextSize(grid_title(app, *app.set.find(op), true).c_str()).x) + gap;
            }
        }
    }
    ImGui::SetCursorPos(ImVec2(origin.x + right + gap, origin.y + bottom + gap));
    ImGui::Dummy(ImVec2(1, 1));
    ImGui::EndChild();
}

void draw_registers_panel(App& app) {
    ImGui::BeginChild("regs_canvas###regs_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const float th = ImGui::GetTextLineHeightWithSpacing();
    const float gap = 18 * app.scale;
    const ImVec2 origin = ImGui::GetCursorPos();
    // Lane numbers on the left: hovering one highlights everything that lane holds.
    const TileGrid* first = app.views.empty() ? nullptr : &app.views.front().registers;
    float x = 0, bottom = 0;
    if (first) {
        const float lane_w = ImGui::CalcTextSize("L00").x + 8 * app.scale;
        ImGui::SetCursorPos(ImVec2(origin.x, origin.y + th));
        const ImVec2 p0 = ImGui::GetCursorScreenPos();
        ImGui::InvisibleButton("lanes###lanes", ImVec2(lane_w, first->height));
        const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
        for (int lane = 0; lane < first->lanes; ++lane) {
            const std::string s = "L" + std::to_string(lane);
            dl->AddText(add(p0, 2, lane * first->cell_h + (first->cell_h - ImGui::GetFontSize()) * 0.5f), text, s.c_str());
        }
        if (hovered) {
            const int lane = static_cast<int>((ImGui::GetIO().MousePos.y - p0.y) / first->cell_h);
            if (lane >= 0 && lane < first->lanes) {
                Hover h;
                h.kind = Hover::Kind::Lane;
                h.lane = lane;
                app.frame_hover = h;
                if (clicked) app.want_pin = h;
            }
        }
        x = lane_w + 4 * app.scale;
    }
    for (auto& v : app.views) {
        if (v.operand == ls::Operand::C) continue;
        const ls::OperandLayout* l = app.set.find(v.operand);
        const std::string title = grid_title(app, *l, false);
        ImGui::SetCursorPos(ImVec2(origin.x + x, origin.y));
        ImGui::TextUnformatted(title.c_str());
        ImGui::SetCursorPos(ImVec2(origin.x + x, origin.y + th));
        const std::string id = "regs_" + std::string(ls::operand_name(v.operand));
        draw_grid(app, v.registers, v.registers_tex, app.links.find(v.operand), id.c_str(), nullptr, nullptr,
                  app.verify_for(v.operand));
        x += std::max(v.registers.width, ImGui::CalcTextSize(title.c_str()).x) + gap;
        bottom = std::max(bottom, th + v.registers.height);
    }
    ImGui::SetCursorPos(ImVec2(origin.x + x, origin.y + bottom + gap));
    ImGui::Dummy(ImVec2(1, 1));
    ImGui::EndChild();
}

void draw_compare_panel(App& app) {
    CompareState& c = app.compare;
    if (ImGui::Checkbox("Compare with a second instruction", &c.enabled)) {
        if (c.enabled && c.selection.instruction == Selection{}.instruction) c.selection = app.settings.selection;
        app.compare_dirty = true;
    }
    if (!c.enabled) {
        ImGui::TextWrapped("Put a second instruction beside the current one (the same builtin on RDNA3 and RDNA4, "
                           "wave32 and wave64, two modifier settings, an MFMA and its sparse twin) and see which "
                           "elements are placed differently, cell by cell.");
        return;
    }
    // Second instruction: architecture, instruction, wave.
    const ls::Target* ct = nullptr;
    try {
        ct = &app.catalog.find_target(c.selection.arch);
    } catch (const ls::Error&) {
        ct = app.set.target;
    }
    ImGui::SetNextItemWidth(280 * app.scale);
    if (ImGui::BeginCombo("architecture##cmp", ct->title.c_str())) {
        for (const ls::Target& t : app.catalog.targets())
            if (ImGui::Selectable(t.title.c_str(), &t == ct) && &t != ct) {
                try {
                    c.selection.instruction =
                        carry_instruction(app.catalog, app.catalog.find_instruction(*ct, c.selection.instruction), t);
                } catch (const ls::Error&) {
                    c.selection.instruction = carry_instruction(app.catalog, *app.set.ins, t);
                }
                c.selection.arch = t.gfx;
                c.selection.mods = ls::Modifiers{};
                app.compare_dirty = true;
            }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(320 * app.scale);
    if (ImGui::BeginCombo("instruction##cmp", c.selection.instruction.c_str())) {
        for (const ls::Instruction* ins : app.catalog.on(ct->family))
            if (ImGui::Selectable(ins->mnemonic.c_str(), ins->mnemonic == c.selection.instruction)) {
                c.selection.instruction = ins->mnemonic;
                c.selection.mods = ls::Modifiers{};
                app.compare_dirty = true;
            }
        ImGui::EndCombo();
    }
    if (ct->wave_sizes.size() > 1) {
        ImGui::SameLine();
        for (int w : ct->wave_sizes) {
            const std::string label = "wave" + std::to_string(w) + "##cmpw";
            if (ImGui::RadioButton(label.c_str(), c.set.ins && c.set.mods.wave == w)) {
                c.selection.mods.wave = w;
                app.compare_dirty = true;
            }
            ImGui::SameLine();
        }
        ImGui::NewLine();
    }
    if (c.set.ins) {
        for (const ls::ModifierRange& r : ls::modifier_ranges(*c.set.ins, *c.set.target, c.set.mods)) {
            if (r.values.size() < 2 || r.name == "wave") continue;
            int v = modifier_value(c.set.mods, r.name);
            ImGui::SetNextItemWidth(120 * app.scale);
            const std::string label = r.name + "##cmp";
            if (ImGui::SliderInt(label.c_str(), &v, r.values.front(), r.values.back())) {
                if (std::find(r.values.begin(), r.values.end(), v) != r.values.end()) {
                    set_modifier(c.selection.mods, r.name, v);
                    app.compare_dirty = true;
                }
            }
            ImGui::SameLine();
        }
        ImGui::NewLine();
    }
    if (!c.error.empty()) {
        ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "%s", c.error.c_str());
        return;
    }
    const std::string left_lanes = ls::lane_group_name(*app.set.ins, app.set.mods.wave);
    const std::string right_lanes = c.set.ins ? ls::lane_group_name(*c.set.ins, c.set.mods.wave) : "?";
    ImGui::TextDisabled("Left: %s on %s (%s).  Right: %s on %s (%s).  Marked cells are placed differently.",
                        app.set.ins->mnemonic.c_str(), app.set.target->gfx.c_str(), left_lanes.c_str(),
                        c.set.ins ? c.set.ins->mnemonic.c_str() : "?", c.set.target ? c.set.target->gfx.c_str() : "?",
                        right_lanes.c_str());
    ImGui::BeginChild("cmp_canvas###cmp_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const float gap = 24 * app.scale;
    for (auto& cv : c.views) {
        OperandView* mine = nullptr;
        for (auto& v : c.left)
            if (v.operand == cv.operand) mine = &v;
        const LayoutDiff* d = nullptr;
        for (const auto& x : c.diffs)
            if (x.operand == cv.operand) d = &x;
        ImGui::Text("%s:  %s", std::string(ls::operand_name(cv.operand)).c_str(),
                    d ? d->note.c_str() : "only in the second instruction");
        const std::vector<std::uint8_t>* mask = d && d->comparable ? &d->differs : nullptr;
        const float y = ImGui::GetCursorPosY();
        float h = cv.matrix.height;
        if (mine) {
            ImGui::PushID("mine");
            draw_grid(app, mine->matrix, mine->matrix_tex, app.links.find(cv.operand),
                      (std::string("cmp_l_") + std::string(ls::operand_name(cv.operand))).c_str(), mask);
            ImGui::PopID();
            ImGui::SameLine(0, gap);
            h = std::max(h, mine->matrix.height);
        }
        ImGui::SetCursorPosY(y);
        draw_grid(app, cv.matrix, cv.matrix_tex, nullptr,
                  (std::string("cmp_r_") + std::string(ls::operand_name(cv.operand))).c_str(), mask, &c.set);
        ImGui::SetCursorPosY(y + h + gap * 0.5f);
    }
    ImGui::EndChild();
}

}  // namespace lsapp
