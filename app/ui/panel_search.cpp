// Left column: architecture, family filter, search box with keyboard
// navigation, the result list, and the modifiers the instruction accepts.
#include "ui/app.hpp"
#include "model/selection.hpp"
#include "model/goto.hpp"
#include "model/mma_picker.hpp"

namespace lsapp {

namespace {

constexpr ls::LayoutKind kKinds[] = {ls::LayoutKind::Mfma,        ls::LayoutKind::MfmaScaled,
                                     ls::LayoutKind::SmfmacCdna3, ls::LayoutKind::SmfmacCdna4,
                                     ls::LayoutKind::WmmaRdna3,   ls::LayoutKind::WmmaRdna4,
                                     ls::LayoutKind::SwmmacRdna4, ls::LayoutKind::MmaSync,
                                     ls::LayoutKind::MmaSparse,   ls::LayoutKind::LdStMatrix,
                                     ls::LayoutKind::Wgmma};

// A Blackwell row in the list and the instruction its short name selected are equal, not the same object.
bool same_row(const ls::Instruction* a, const ls::Instruction* b) {
    return a == b || (a && b && !a->targets.empty() && a->short_name == b->short_name && a->mnemonic == b->mnemonic);
}

void draw_modifiers(App& app) {
    const auto ranges = ls::modifier_ranges(*app.set.ins, *app.set.target, app.set.mods);
    bool any = false;
    for (const ls::ModifierRange& r : ranges) {
        if (r.values.size() < 2) continue;
        any = true;
        const int current = modifier_value(app.set.mods, r.name);
        ImGui::PushID(r.name.c_str());
        // The field's name and what it does ("cbsz  A format"), then its values in words where they have them.
        const std::string role = modifier_role(*app.set.ins, r.name);
        ImGui::TextUnformatted(r.name.c_str());
        if (!role.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", role.c_str());
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.meaning.c_str());
        bool named = false;
        for (int v : r.values) named |= modifier_value_name(*app.set.ins, r.name, v) != std::to_string(v);
        ImGui::SameLine();
        ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), (named || !role.empty() ? 150 : 90) * app.scale));
        auto choose = [&](int v) {
            Selection s = app.settings.selection;
            set_modifier(s.mods, r.name, v);
            app.want_selection = s;
        };
        if (r.values.size() <= 4 && !named) {
            // Radio buttons beside the words when they fit, else on the next line (nothing clipped).
            float need = 0;
            for (int v : r.values)
                need += ImGui::GetFrameHeight() + ImGui::CalcTextSize(std::to_string(v).c_str()).x + 2 * ImGui::GetStyle().ItemSpacing.x;
            if (ImGui::GetContentRegionAvail().x < need) {
                ImGui::NewLine();
                ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 16 * app.scale);
            }
            for (size_t i = 0; i < r.values.size(); ++i) {
                if (i) ImGui::SameLine();
                const std::string label = std::to_string(r.values[i]);
                if (ImGui::RadioButton(label.c_str(), current == r.values[i]) && current != r.values[i]) choose(r.values[i]);
            }
        } else {
            ImGui::SetNextItemWidth(-1);
            auto text = [&](int v) { return modifier_menu_text(*app.set.ins, r.name, v); };
            if (ImGui::BeginCombo("##value", text(current).c_str())) {
                for (int v : r.values)
                    if (ImGui::Selectable(text(v).c_str(), v == current) && v != current) choose(v);
                ImGui::EndCombo();
            }
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s%s", r.meaning.c_str(), r.moves_data ? "" : " (values only)");
        ImGui::PopID();
    }
    if (!any) ImGui::TextDisabled("No modifiers move data for this instruction.");
}

// A Blackwell matrix multiply chosen by what it is (model/mma_picker.hpp): a menu per facet
// that has more than one legal value, each listing what the catalog spells on this target
// under the choices above it; a change selects the one instruction the choices name.
void draw_mma_picker(App& app) {
    const ls::Instruction& ins = *app.set.ins;
    if (ins.kind != ls::LayoutKind::Tcgen05Mma && ins.kind != ls::LayoutKind::MmaBlockScale) return;
    const std::vector<ls::Instruction>& forms = mma_forms(*app.set.target);
    const std::vector<std::string> now = facet_keys(ins);
    // Recomputed only when the instruction changes (the menus narrow tens of thousands of forms).
    static std::string picked_for;
    static MmaPick pick;
    if (const std::string key = app.set.target->gfx + " " + ins.short_name; key != picked_for) {
        pick = pick_mma(forms, now);
        picked_for = key;
    }
    if (!pick.form) return;
    ImGui::Spacing();
    if (!ImGui::CollapsingHeader("Choose the instruction", ImGuiTreeNodeFlags_DefaultOpen)) return;
    for (const MmaMenu& menu : pick.menus) {
        if (menu.keys.size() < 2) continue;
        ImGui::PushID(static_cast<int>(menu.facet));
        ImGui::TextUnformatted(facet_label(menu.facet).c_str());
        ImGui::SameLine(std::max(ImGui::GetCursorPosX(), 96 * app.scale));
        ImGui::SetNextItemWidth(-1);
        const std::string shown = facet_value_name(menu.facet, menu.keys[static_cast<size_t>(menu.chosen)]);
        if (ImGui::BeginCombo("##facet", shown.c_str())) {
            for (size_t i = 0; i < menu.keys.size(); ++i) {
                const std::string name = facet_value_name(menu.facet, menu.keys[i]);
                if (ImGui::Selectable(name.c_str(), static_cast<int>(i) == menu.chosen) && static_cast<int>(i) != menu.chosen) {
                    std::vector<std::string> want = now;
                    want[static_cast<size_t>(menu.facet)] = menu.keys[i];
                    const MmaPick to = pick_mma(forms, want);
                    Selection s = app.settings.selection;
                    s.instruction = to.form->short_name;
                    app.want_selection = s;
                }
            }
            ImGui::EndCombo();
        }
        ImGui::PopID();
    }
}

}  // namespace

std::string target_label(const ls::Target& t, float width) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float room = width - ImGui::GetFrameHeight() - 2 * st.FramePadding.x;
    if (ImGui::CalcTextSize(t.title.c_str()).x <= room) return t.title;
    const size_t comma = t.title.find(',');
    if (comma != std::string::npos) {
        const std::string shorter = t.title.substr(0, comma) + ")";
        if (ImGui::CalcTextSize(shorter.c_str()).x <= room) return shorter;
    }
    return t.gfx;
}

void draw_search_panel(App& app) {
    const ls::Target& target = *app.set.target;
    ImGui::TextUnformatted("Architecture");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##arch", target_label(target, ImGui::GetContentRegionAvail().x).c_str())) {
        for (const ls::Target& t : app.catalog.targets()) {
            if (ImGui::Selectable(t.title.c_str(), &t == &target) && &t != &target) app.want_arch = t.gfx;
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", target.title.c_str());  // the full name when the column is narrow
    ImGui::SetNextItemWidth(-1);
    std::string kind_label = app.kind_filter < 0 ? "all families" : std::string(ls::layout_kind_name(kKinds[app.kind_filter]));
    if (ImGui::BeginCombo("##kind", kind_label.c_str())) {
        if (ImGui::Selectable("all families", app.kind_filter < 0)) app.kind_filter = -1, app.hits_dirty = true;
        for (int i = 0; i < static_cast<int>(std::size(kKinds)); ++i) {
            const std::string name(ls::layout_kind_name(kKinds[i]));
            if (ImGui::Selectable(name.c_str(), app.kind_filter == i)) app.kind_filter = i, app.hits_dirty = true;
        }
        ImGui::EndCombo();
    }

    if (app.focus_search) {
        ImGui::SetKeyboardFocusHere();
        app.focus_search = false;
    }
    ImGui::SetNextItemWidth(-1);
    // CallbackHistory makes the text field keep Up/Down for itself (no focus
    // navigation), so the arrows move through the results below.
    const bool enter = ImGui::InputTextWithHint(
        "##search", "search: 32x32 bf16, sparse fp8 ... (Ctrl+K)", app.query, sizeof app.query,
        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackHistory,
        [](ImGuiInputTextCallbackData*) { return 0; });
    const bool typing = ImGui::IsItemActive();
    if (ImGui::IsItemEdited()) app.hits_dirty = true, app.cursor = 0;
    if (app.hits_dirty) {
        std::optional<ls::LayoutKind> kind;
        if (app.kind_filter >= 0) kind = kKinds[app.kind_filter];
        app.hits = search(app.catalog, target, app.query, kind);
        app.hits_dirty = false;
        app.cursor = std::clamp(app.cursor, 0, std::max(0, static_cast<int>(app.hits.size()) - 1));
    }
    bool moved = false;
    if (typing && !app.hits.empty()) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
            app.cursor = std::min(app.cursor + 1, static_cast<int>(app.hits.size()) - 1), moved = true;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) app.cursor = std::max(app.cursor - 1, 0), moved = true;
    }
    if (enter && !app.hits.empty()) {
        Selection s = app.settings.selection;
        s.instruction = selection_name(*app.hits[static_cast<size_t>(app.cursor)].ins);
        app.want_selection = s;
        app.focus_search = true;  // keep typing after Enter
    }
    ImGui::TextDisabled("%d match%s", static_cast<int>(app.hits.size()), app.hits.size() == 1 ? "" : "es");

    const float list_h = ImGui::GetContentRegionAvail().y * 0.5f;
    ImGui::BeginChild("hits###hits", ImVec2(0, list_h), true);
    if (app.scroll_to_current) {
        // The clipper only draws visible rows: scroll to the selected one first.
        for (size_t i = 0; i < app.hits.size(); ++i)
            if (same_row(app.hits[i].ins, app.set.ins)) {
                ImGui::SetScrollY(std::max(0.0f, i * ImGui::GetTextLineHeightWithSpacing() - list_h * 0.4f));
                app.scroll_to_current = false;
                break;
            }
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(app.hits.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const ls::Instruction* ins = app.hits[static_cast<size_t>(i)].ins;
            ImGui::PushID(i);
            const bool current = same_row(ins, app.set.ins);
            const bool under_cursor = i == app.cursor && app.query[0] != 0;
            const std::string name = display_name(*ins);
            if (ImGui::Selectable(name.c_str(), current || under_cursor)) {
                Selection s = app.settings.selection;
                s.instruction = selection_name(*ins);
                app.want_selection = s;
                app.cursor = i;
            }
            if (ImGui::IsItemHovered()) {
                // The full spelling (PTX on NVIDIA), the builtin and what tells alike rows apart.
                const std::string second = ins->vendor() == ls::Vendor::NVIDIA ? "PTX: " + ins->mnemonic : ins->builtin(app.set.wave());
                const std::string note = name_note(*ins);
                ImGui::SetTooltip("%s\n%s\n%s, %d block(s), %s x %s -> %s%s%s", ins->mnemonic.c_str(), second.c_str(), ins->shape().c_str(),
                                  ins->blocks, std::string(ls::elem_name(ins->a)).c_str(), std::string(ls::elem_name(ins->b)).c_str(),
                                  std::string(ls::elem_name(ins->c)).c_str(), note.empty() ? "" : "\n", note.c_str());
            }
            ImGui::PopID();
        }
    }
    if (moved) ImGui::SetScrollY(std::max(0.0f, app.cursor * ImGui::GetTextLineHeightWithSpacing() - list_h * 0.5f));
    ImGui::EndChild();

    draw_mma_picker(app);
    ImGui::Spacing();
    ImGui::TextUnformatted("Modifiers");
    ImGui::Separator();
    draw_modifiers(app);
    if (!app.selection_error.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "%s", app.selection_error.c_str());
        ImGui::PopTextWrapPos();
    }
    draw_verify_control(app);
    ImGui::Spacing();
    // Go to: an element or a lane, pinned (as a click) and brought into view (model/goto.hpp: the forms).
    ImGui::TextUnformatted("Go to");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    const bool tile_mode = app.tile.active();
    if (ImGui::InputTextWithHint("##goto", tile_mode ? "D 3 5, lane 17 wave 2" : "A 3 17, D[13][7], lane 17", app.goto_text,
                                 sizeof app.goto_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
        try {
            app.want_goto = parse_place(app.goto_text, app.set, tile_mode ? &app.tile.tiles : nullptr);
            app.goto_error.clear();
            if (app.tab != Tab::Layout && app.tab != Tab::Registers) app.set_tab(Tab::Layout);
        } catch (const ls::Error& e) {
            app.goto_error = std::string(e.what()) + "; legal: " + legal_forms(tile_mode);
        }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Pins an element or a lane and shows it: %s", legal_forms(tile_mode).c_str());
    if (!app.goto_error.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "%s", app.goto_error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Spacing();
    ImGui::TextUnformatted("View");
    ImGui::Separator();
    ViewSettings& v = app.settings.view;
    int by = static_cast<int>(v.color_by);
    ImGui::TextUnformatted("colour by");
    ImGui::SameLine();
    bool changed = ImGui::RadioButton("lane", &by, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("register", &by, 1);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("block", &by, 2);
    v.color_by = static_cast<ls::ColorBy>(by);
    changed |= ImGui::Checkbox("labels", &v.labels);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("registers beside", &v.show_registers);
    if (app.set.ins->blocks > 1) {
        ImGui::SetNextItemWidth(150 * app.scale);
        int shown = v.block;
        if (ImGui::SliderInt("block (-1 all)", &shown, -1, app.set.ins->blocks - 1)) v.block = shown, changed = true;
    }
    ImGui::PushTextWrapPos(0.0f);  // wraps beside the column's scroll bar instead of clipping
    ImGui::TextDisabled("Layout: wheel zooms, drag pans, Ctrl+0 fits");
    ImGui::PopTextWrapPos();
    if (changed) app.grids_dirty = app.compare_dirty = true, app.layout_canvas.fit();
}

}  // namespace lsapp
