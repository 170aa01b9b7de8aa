// Inputs and D: edit A, B, C (cells and generators); D = A*B + C in the
// instruction's types, per element and per lane register (value and hex).
#include "ui/app.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace lsapp {

namespace {

bool draw_matrix(App& app, const char* name, Matrix& m, bool editable, float height = 0) {
    bool changed = false;
    ImGui::PushID(name);
    ImGui::Text("%s  (%dx%d%s, %s)", name, m.rows, m.cols, m.blocks > 1 ? (" x" + std::to_string(m.blocks)).c_str() : "",
                std::string(ls::elem_name(m.type)).c_str());
    if (editable) {
        static const Generator gens[] = {Generator::Zeros, Generator::Identity, Generator::Ramp, Generator::Random,
                                         Generator::OneHot};
        for (Generator g : gens) {
            ImGui::SameLine();
            // A button that would pass the column's edge goes to the next line (nothing clipped).
            if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(generator_name(g)).x + 2 * ImGui::GetStyle().FramePadding.x)
                ImGui::NewLine();
            if (ImGui::SmallButton(generator_name(g))) {
                generate(m, g, static_cast<unsigned>(app.generator_seed++), 0, app.inputs.flavor);
                changed = true;
            }
        }
    }
    const int rows = m.blocks * m.rows;
    float cell_w = 58 * app.scale;
    if (!editable) {
        // Read-only (D): columns as wide as the widest value, so that more of them are in view.
        float widest = ImGui::CalcTextSize("-0.00").x;
        char buf[32];
        for (double v : m.v) {
            std::snprintf(buf, sizeof buf, "%.6g", v);
            widest = std::max(widest, ImGui::CalcTextSize(buf).x);
        }
        cell_w = std::min(cell_w * 1.5f, std::ceil(widest + 4 * app.scale));
    }
    if (m.cols * (cell_w + ImGui::GetStyle().CellPadding.x * 2) + ImGui::CalcTextSize("000").x > ImGui::GetContentRegionAvail().x)
        ImGui::TextDisabled("%d columns: scroll sideways in the table for the rest", m.cols);
    // ImGui tables hold at most 64 columns: wide matrices come in chunks of 32 columns.
    constexpr int kChunk = 32;
    for (int c0 = 0; c0 < m.cols; c0 += kChunk) {
        const int cols = std::min(kChunk, m.cols - c0);
        if (m.cols > kChunk) ImGui::TextDisabled("columns %d-%d", c0, c0 + cols - 1);
        ImGui::PushID(c0);
        if (ImGui::BeginTable("cells", cols + 1,
                              ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInner |
                                  ImGuiTableFlags_SizingFixedFit,
                              ImVec2(0, height > 0 ? height : std::min(260.0f * app.scale, (rows + 2) * ImGui::GetFrameHeight())))) {
            ImGui::TableSetupScrollFreeze(1, 0);
            ImGui::TableSetupColumn("row", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000").x);
            for (int c = 0; c < cols; ++c) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, cell_w);
            ImGuiListClipper clipper;
            clipper.Begin(rows);
            while (clipper.Step()) {
                for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
                    ImGui::TableNextRow();
                    ImGui::TableSetColumnIndex(0);
                    ImGui::TextDisabled("%d", r);
                    for (int c = 0; c < cols; ++c) {
                        ImGui::TableSetColumnIndex(c + 1);
                        double& v = m.v[static_cast<size_t>(r) * m.cols + c0 + c];
                        ImGui::PushID(r * 1024 + c);
                        ImGui::SetNextItemWidth(cell_w);
                        if (editable) {
                            if (ImGui::InputDouble("##v", &v, 0, 0, "%.4g")) {
                                v = quantize(v, m.type, app.inputs.flavor);
                                changed = true;
                            }
                        } else {
                            ImGui::Text("%.6g", v);
                        }
                        ImGui::PopID();
                    }
                }
            }
            ImGui::EndTable();
        }
        ImGui::PopID();
    }
    ImGui::PopID();
    return changed;
}

}  // namespace

void draw_values_panel(App& app) {
    ImGui::BeginChild("values###values", ImVec2(0, 0), false);
    ImGui::TextWrapped("Values are rounded to each operand's type when entered (ties to even; %s FP8/BF8). D = A*B + C "
                       "with exact products and sums, rounded once to D's type%s.",
                       app.inputs.flavor == Fp8Flavor::Fnuz ? "FNUZ" : "OCP",
                       app.set.ins->kind == ls::LayoutKind::Mfma && app.set.mods.cbsz > 0 ? "; cbsz/abid broadcast A" : "");
    bool changed = false;
    if (app.set.ins->sparse() && app.inputs.k.empty()) {
        // Wrapped at the panel's edge (never clipped); NVIDIA's PTX calls it 2:4 sparsity.
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s sparse A: only the first two non-zeros of each group of four k are stored and count "
                            "(the index follows from their positions).",
                            app.set.ins->vendor() == ls::Vendor::NVIDIA ? "2:4" : "4:2");
        ImGui::PopTextWrapPos();
    }
    // Two columns: the inputs on the left (scrolling), D on the right, always in view.
    const float total_w = ImGui::GetContentRegionAvail().x;
    const float d_w = std::floor(total_w * 0.45f);
    ImGui::BeginChild("inputs###inputs", ImVec2(total_w - d_w - 8 * app.scale, 0), false);
    changed |= draw_matrix(app, "A", app.inputs.a, true);
    changed |= draw_matrix(app, app.set.find(ls::Operand::B) ? "B" : "B in shared memory", app.inputs.b, true);
    changed |= draw_matrix(app, "C", app.inputs.c, true);
    if (!app.inputs.k.empty()) changed |= draw_matrix(app, "K (sparse index, 0..3)", app.inputs.k, true);
    if (!app.inputs.sa.empty()) changed |= draw_matrix(app, "SA (E8M0, 127 = 1.0)", app.inputs.sa, true);
    if (!app.inputs.sb.empty()) changed |= draw_matrix(app, "SB (E8M0, 127 = 1.0)", app.inputs.sb, true);
    if (changed) app.values_dirty = true;
    ImGui::EndChild();
    ImGui::SameLine(0, 8 * app.scale);
    ImGui::BeginChild("result###result", ImVec2(0, 0), false);
    const float d_rows = static_cast<float>(app.outputs.d.blocks * app.outputs.d.rows + 2) * ImGui::GetFrameHeight();
    const int chunks = (app.outputs.d.cols + 31) / 32;
    const float room = ImGui::GetContentRegionAvail().y - (ImGui::GetTextLineHeightWithSpacing() * (1 + chunks) + ImGui::GetFrameHeightWithSpacing() + 8 * app.scale);
    draw_matrix(app, "D = A*B + C", app.outputs.d, false, std::max(80.0f * app.scale, std::min(d_rows, room / std::max(1, chunks))));

    const ls::OperandLayout* D = app.set.find(ls::Operand::D);
    if (D && ImGui::CollapsingHeader("D registers per lane (hex)")) {
        const int shown = std::min(D->regs(), 63);  // ImGui's 64-column limit (wgmma N = 256 has 128)
        if (shown < D->regs()) ImGui::TextDisabled("registers 0..%d of %d shown", shown - 1, D->regs());
        if (ImGui::BeginTable("dregs", shown + 1,
                              ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInner |
                                  ImGuiTableFlags_SizingFixedFit,
                              ImVec2(0, 300 * app.scale))) {
            ImGui::TableSetupScrollFreeze(1, 1);
            ImGui::TableSetupColumn("lane", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("L000").x);
            for (int r = 0; r < shown; ++r)
                ImGui::TableSetupColumn(("v" + std::to_string(r)).c_str(), ImGuiTableColumnFlags_WidthFixed,
                                        ImGui::CalcTextSize("00000000").x);
            ImGui::TableHeadersRow();
            for (int lane = 0; lane < D->lanes(); ++lane) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::Text("L%d", lane);
                for (int r = 0; r < shown; ++r) {
                    ImGui::TableSetColumnIndex(r + 1);
                    const size_t i = static_cast<size_t>(lane) * D->regs() + r;
                    if (i < app.outputs.d_words.size()) ImGui::Text("%08" PRIX32, app.outputs.d_words[i]);
                }
            }
            ImGui::EndTable();
        }
    }
    ImGui::EndChild();
    ImGui::EndChild();
}

}  // namespace lsapp
