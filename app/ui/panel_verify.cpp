// "Verify on GPU": runs lanescope::gpu::verify for the current instruction,
// target and modifiers (an intent, applied after the frame) and keeps the
// per-cell result that the operand views draw over their cached tiles.
#include "ui/app.hpp"

#ifdef LANESCOPE_HAVE_GPU
#include "model/verify_from_gpu.hpp"
#endif

#include <algorithm>
#include <chrono>

namespace lsapp {

namespace {
// One line for the UI and the status bar.
[[maybe_unused]] std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}
// Entry 0 is the selected instruction's vendor's GPU; entry 1 the software device.
const char* device_label(int device, ls::Vendor vendor) {
    if (device == 1) return "software device (catalog semantics, for demonstration)";
    return vendor == ls::Vendor::NVIDIA ? "NVIDIA GPU (CUDA)" : "AMD GPU (HIP)";
}
}  // namespace

bool gpu_backend_built() {
#ifdef LANESCOPE_HAVE_GPU
    return true;
#else
    return false;
#endif
}

std::string App::selection_key() const {
    if (!set.ins) return "";
    return set.target->gfx + "|" + set.ins->mnemonic + "|wave" + std::to_string(set.mods.wave) + "|" + set.mods.describe();
}

const OperandVerify* App::verify_for(ls::Operand op) const {
    if (!verify.have || verify.key != selection_key()) return nullptr;
    return verify.overlay.find(op);
}

void App::run_verify() {
    verify.have = false;
    verify.error.clear();
    verify.status.clear();
    verify.key = selection_key();
    request_redraw();
#ifndef LANESCOPE_HAVE_GPU
    verify.error = "GPU backend: not built";
#else
    namespace gpu = lanescope::gpu;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        std::string why;
        std::unique_ptr<gpu::Device> dev = gpu::make_device(
            verify.device == 1 ? "software" : set.ins->vendor() == ls::Vendor::NVIDIA ? "cuda" : "hip", &why);
        if (!dev) {
            verify.error = one_line(why.empty() ? "no device available" : why);
            return;
        }
        gpu::VerifyOptions opts;
        if (!verify.corrupt.empty()) {
            const gpu::Corruption c = gpu::parse_corruption(verify.corrupt);
            if (!set.find(c.operand))
                throw ls::Error("--corrupt: " + set.ins->mnemonic + " has no operand " + std::string(ls::operand_name(c.operand)));
            opts.claimed = gpu::corrupted_layouts(*set.ins, *set.target, set.mods, c);
        }
        const gpu::Report r = gpu::verify(*set.ins, *set.target, set.mods, *dev, opts);
        verify.facts = verify_facts_from(r);
        verify.overlay = make_verify_overlay(set, verify.facts);
        verify.status = verify_status(verify.facts, verify.overlay);
        verify.have = true;
    } catch (const ls::Error& e) {
        verify.error = one_line(e.what());
    }
    verify.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
#endif
}

void draw_verify_control(App& app) {
    VerifyState& v = app.verify;
    ImGui::Spacing();
    ImGui::TextUnformatted("Verify on GPU");
    ImGui::Separator();
    if (!gpu_backend_built()) {
        ImGui::TextDisabled("GPU backend: not built");
        return;
    }
    ImGui::SetNextItemWidth(-1);
    const ls::Vendor vendor = app.set.ins->vendor();
    if (ImGui::BeginCombo("###verify_device", device_label(v.device, vendor))) {
        for (int i = 0; i < 2; ++i)
            if (ImGui::Selectable(device_label(i, vendor), v.device == i)) v.device = i;
        ImGui::EndCombo();
    }
    if (ImGui::Button("Verify on GPU")) app.want_verify = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Runs %s with tagged inputs on the device and checks every cell of every operand.\n"
                          "Green: verified.  Red: the device placed it elsewhere (hover it for what it did).",
                          app.set.ins->mnemonic.c_str());
    const bool current = v.key == app.selection_key();
    ImGui::PushTextWrapPos(0);
    if (current && !v.error.empty()) {
        ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.1f, 1), "%s", v.error.c_str());
        ImGui::TextDisabled("Everything else works without a GPU.");
    } else if (current && v.have) {
        const bool pass = v.overlay.wrong == 0 && v.facts.passed;
        ImGui::TextColored(pass ? ImVec4(0.1f, 0.55f, 0.2f, 1) : ImVec4(0.85f, 0.2f, 0.1f, 1), "%s", v.status.c_str());
        ImGui::TextDisabled("%s (%.0f ms)", v.facts.device.c_str(), v.ms);
        if (!v.corrupt.empty()) ImGui::TextDisabled("claimed layout corrupted: %s", v.corrupt.c_str());
    }
    ImGui::PopTextWrapPos();
}

}  // namespace lsapp
