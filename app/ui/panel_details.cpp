// Details: the instruction's facts, builtin signature, formulas and a HIP
// snippet of the lane -> element index math.
#include "ui/app.hpp"
#include "model/selection.hpp"
#include "model/snippet.hpp"

#include "lanescope/render.hpp"

namespace lsapp {

void draw_details_panel(App& app) {
    const ls::Instruction& ins = *app.set.ins;
    const ls::Target& t = *app.set.target;
    const ls::ResolvedModifiers& m = app.set.mods;
    ImGui::BeginChild("details###details", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::Text("%s  on  %s", display_name(ins).c_str(), t.title.c_str());
    if (!name_note(ins).empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", name_note(ins).c_str());
        ImGui::PopTextWrapPos();
    }
    if (ins.kind == ls::LayoutKind::Wgmma)
        ImGui::TextWrapped("B (%dx%d %s) is read from shared memory through a matrix descriptor: no thread's registers hold it, "
                           "so it has no register layout to draw.", ins.k, ins.n, std::string(ls::elem_name(ins.b)).c_str());
    auto row = [](const char* k, const std::string& v) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(k);
        ImGui::TableSetColumnIndex(1);
        ImGui::PushTextWrapPos(0.0f);  // long values (signatures, sources) wrap inside the panel
        ImGui::TextUnformatted(v.c_str());
        ImGui::PopTextWrapPos();
    };
    if (ins.vendor() == ls::Vendor::NVIDIA && ImGui::BeginTable("facts###facts", 2, ImGuiTableFlags_BordersInnerH)) {
        // The vendor's own facts from core (PTX spelling, target, registers, source, confidence).
        ImGui::TableSetupColumn("fact", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("registers per thread  ").x);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        for (const auto& [k, v] : ls::instruction_facts(ls::Query{&ins, &t, m})) row(k.c_str(), v);
        ImGui::EndTable();
    }
    if (ins.vendor() != ls::Vendor::NVIDIA && ImGui::BeginTable("facts###facts", 2, ImGuiTableFlags_BordersInnerH)) {
        ImGui::TableSetupColumn("fact", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("register file SA/SB  ").x);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        row("builtin", ins.builtin(m.wave));
        row("signature", ins.signature(m.wave));
        row("shape", ins.shape() + (ins.blocks > 1 ? ", " + std::to_string(ins.blocks) + " blocks" : ""));
        row("types", std::string(ls::elem_name(ls::operand_type(ins, ls::Operand::A, m))) + " x " +
                         std::string(ls::elem_name(ls::operand_type(ins, ls::Operand::B, m))) + " + " +
                         std::string(ls::elem_name(ins.c)) + " -> " + std::string(ls::elem_name(ins.c)));
        row("operations", std::to_string(ins.ops()) + " per instruction");
        row("cycles", std::to_string(ls::effective_cycles(ins, m)));
        row("opcode", [&] { char b[16]; std::snprintf(b, sizeof b, "0x%X", ins.opcode); return std::string(b); }());
        row("wave", std::to_string(m.wave) + (m.describe().empty() ? "" : ", " + m.describe()));
        std::string regs;
        for (ls::Operand op : ls::operands_of(ins))
            regs += std::string(ls::operand_name(op)) + ": " + std::to_string(ls::operand_regs(ins, op, m)) + "  ";
        row("VGPRs per lane", regs);
        const ls::ExecFacts f = ls::exec_facts(ins, t, m);
        row("co-execution", f.coexec ? "yes, " + std::to_string(f.coexec_cycles) + " cycles for VALU work" : "no");
        for (const auto& rf : f.register_files) row(("register file " + std::string(ls::operand_name(rf.first))).c_str(), rf.second);
        if (!f.value_modifiers.empty()) row("value-only modifiers", f.value_modifiers);
        row("features", ins.features);
        row("source", ins.source + " (catalog line " + std::to_string(ins.catalog_line) + ")");
        ImGui::EndTable();
    }
    if (!ls::instruction_evidence(ins, m).confidence.empty() &&
        ImGui::CollapsingHeader("Confidence and alternatives", ImGuiTreeNodeFlags_DefaultOpen)) {
        // Core's evidence per operand: how sure the layout is, why, and the other readings a source gives.
        ImGui::PushTextWrapPos(0.0f);
        for (ls::Operand op : ls::operands_of(ins)) {
            const ls::Evidence ev = ls::layout_evidence(ins, op, m);
            if (ev.confidence.empty()) continue;
            ImGui::Text("%s: confidence %s", std::string(ls::operand_name(op)).c_str(), ev.confidence.c_str());
            ImGui::Indent();
            if (!ev.why.empty()) ImGui::TextUnformatted(ev.why.c_str());
            if (!ev.sources.empty()) ImGui::TextDisabled("sources: %s", ev.sources.c_str());
            for (size_t i = 0; i < ev.alternatives.size(); ++i) {
                const ls::Alternative& a = ev.alternatives[i];
                ImGui::Text("alternative %zu: %s", i + 1, a.reading.c_str());
                ImGui::Indent();
                if (!a.source.empty()) ImGui::TextDisabled("from %s", a.source.c_str());
                if (!a.differs.empty()) ImGui::TextDisabled("%s", a.differs.c_str());
                ImGui::Unindent();
            }
            ImGui::Unindent();
        }
        ImGui::PopTextWrapPos();
    }
    if (app.tile.active() && ImGui::CollapsingHeader("Tile", ImGuiTreeNodeFlags_DefaultOpen)) {
        // Tile mode (Layout tab): parameters, each operand's registers per lane and register order.
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(tile_summary(app.tile.tiles, ins).c_str());
        ImGui::TextDisabled("reg = step * (instruction's registers) + instruction register; the step's digits in the order "
                            "above, fastest first (docs/tiles.md).");
        ImGui::PopTextWrapPos();
    }
    if (ImGui::CollapsingHeader("Formulas", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushTextWrapPos(0.0f);  // long formulas and sources wrap at the panel's edge
        // Formulas once, in a monospace font: the family's text, then only the operand formulas it does not already hold.
        const std::string family = ls::family_formulas(ins, m);
        if (app.mono_font) ImGui::PushFont(app.mono_font);
        ImGui::TextUnformatted(family.c_str());
        for (const auto& l : app.set.layouts) {
            if (l.formula().empty() || family.find(l.formula()) != std::string::npos) continue;
            ImGui::Text("%s:", std::string(ls::operand_name(l.operand())).c_str());
            ImGui::Indent();
            ImGui::TextUnformatted(l.formula().c_str());
            ImGui::Unindent();
        }
        if (app.mono_font) ImGui::PopFont();
        ImGui::TextDisabled("%s", ls::family_source(ins.kind).c_str());
        const std::string notes = ls::modifier_notes(ins, t);
        if (!notes.empty()) ImGui::TextUnformatted(notes.c_str());
        // Every symbol the formulas above use, defined for this instruction.
        std::string shown = ls::family_formulas(ins, m);
        for (const auto& l : app.set.layouts) shown += "\n" + l.formula();
        ImGui::Text("Symbols:");
        ImGui::Indent();
        for (const ls::FormulaSymbol& s : ls::formula_symbols(ins, shown))
            ImGui::TextWrapped("%s: %s", s.symbol.c_str(), s.meaning.c_str());
        ImGui::Unindent();
        ImGui::PopTextWrapPos();
    }
    const char* lang = ins.vendor() == ls::Vendor::NVIDIA ? "CUDA" : "HIP";
    if (ImGui::CollapsingHeader((std::string(lang) + " snippet: load_a, load_b, store_c###snippet").c_str(),
                                ImGuiTreeNodeFlags_DefaultOpen)) {
        const std::string code = hip_snippet(app.set);
        if (ImGui::Button("Copy to clipboard")) {
            ImGui::SetClipboardText(code.c_str());
            app.status = std::string(lang) + " snippet copied";
        }
        if (app.mono_font) ImGui::PushFont(app.mono_font);
        ImGui::TextUnformatted(code.c_str());
        if (app.mono_font) ImGui::PopFont();
    }
    ImGui::EndChild();
}

}  // namespace lsapp
