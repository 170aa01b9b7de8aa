// The frame-time benchmark (--bench-frames N). Four phases over the catalog's
// largest layout (or, with the tile options, the given instruction's tile): "fit" (every operand whole on screen, the pointer moving
// from tile to tile), "zoom" (wheel steps from fit to 100 %), "100 %" (cells at natural size, every label in full,
// the picture panned every frame and the pointer on tiles) and the zoom back to fit. It reports the worst frame of all. It fails loudly
// (message, non-zero exit) when the fitted picture is not whole, when the
// labels are missing at 100 %, or when the pointer did not hover tiles.
#include "ui/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

namespace lsapp {

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

// The centre of the i-th probed cell: operands in turn, cells spread over each,
// only cells visible in the canvas.
bool probe_point(const App& app, int i, ImVec2* out) {
    const Canvas& c = app.layout_canvas;
    const size_t n = c.arr.grids.size();
    for (size_t attempt = 0; attempt < n; ++attempt) {
        // The visible part of the grid.
        const Rect& g = c.arr.grids[(static_cast<size_t>(i) + attempt) % n].grid;
        const float x0 = std::max(g.x0, 2.0f), y0 = std::max(g.y0, 2.0f);
        const float x1 = std::min(g.x1, c.size.x - 2), y1 = std::min(g.y1, c.size.y - 2);
        if (x1 - x0 < 2 || y1 - y0 < 2) continue;
        const float fx = static_cast<float>((i * 37) % 997) / 997.0f, fy = static_cast<float>((i * 61) % 991) / 991.0f;
        *out = ImVec2(c.origin.x + x0 + (x1 - x0) * fx, c.origin.y + y0 + (y1 - y0) * fy);
        return true;
    }
    return false;
}

struct Phase {
    std::vector<double> app_ms, frame_ms;
    std::vector<double> texture_ms, build_ms;  // of app_ms: texture fills, and a grid rebuild or resize
    int hovered = 0;
    int resized = 0;    // frames that changed the Layout canvas's size
    long vertices = 0;  // ImGui vertices per frame (mean)
    double worst() const { return frame_ms.empty() ? 0 : *std::max_element(frame_ms.begin(), frame_ms.end()); }
};

// `frames` frames, `before(i)` changing the view ahead of frame i, the pointer on a tile.
Phase run_phase(App& app, Platform& platform, int frames, const std::function<void(int)>& before) {
    Phase ph;
    for (int i = 0; i < frames; ++i) {
        if (before) before(i);
        ImVec2 p(-1, -1);
        probe_point(app, i, &p);
        const auto t0 = Clock::now();
        const int rebuilds = app.rebuilds;
        const ImVec2 size = app.layout_canvas.size;
        ph.app_ms.push_back(run_frame(app, platform, &p));
        ph.resized += size.x != app.layout_canvas.size.x || size.y != app.layout_canvas.size.y;
        ph.texture_ms.push_back(app.frame_texture_ms);
        ph.build_ms.push_back(app.rebuilds != rebuilds ? app.last_rebuild_ms : 0.0);
        platform.present();
        ph.frame_ms.push_back(ms(t0, Clock::now()));
        ph.hovered += app.hover.kind == Hover::Kind::Element;
        if (const ImDrawData* dd = ImGui::GetDrawData()) ph.vertices += dd->TotalVtxCount;
    }
    if (frames > 0) ph.vertices /= frames;
    return ph;
}

// Moves the view to a new part of the picture: centres a point of one operand after
// another (the GEMM's empty corner is skipped), as a drag or a jump would.
void pan_to(App& app, int i) {
    Canvas& c = app.layout_canvas;
    ArrangeParams centred = app.canvas_params(c, false);
    centred.pan_x = centred.pan_y = 0;
    const Arrangement at0 = arrange(c.shapes, centred);
    if (!at0.grids.empty()) {
        const Rect& g = at0.grids[static_cast<size_t>(i) % at0.grids.size()].grid;
        const float fx = static_cast<float>((i * 13) % 101) / 100.0f, fy = static_cast<float>((i * 29) % 103) / 102.0f;
        c.view.pan_x = c.size.x * 0.5f - (g.x0 + g.w() * fx);
        c.view.pan_y = c.size.y * 0.5f - (g.y0 + g.h() * fy);
    }
    c.arr = arrange(c.shapes, app.canvas_params(c, false));  // where the tiles will be
}

// Zooming as the wheel does, about the panel's centre, one step (about x 1.25) per frame from
// the current zoom to `target` (zoom_x, zoom_y; the last step lands on it).
Phase zoom_phase(App& app, Platform& platform, float target_x, float target_y) {
    Canvas& c = app.layout_canvas;
    const float from_x = std::max(0.01f, c.view.zoom_x), from_y = std::max(0.01f, c.view.zoom_y);
    const float rx = target_x / from_x, ry = target_y / from_y;
    const float most = std::max({rx, 1 / rx, ry, 1 / ry});
    const int steps = std::clamp(static_cast<int>(std::ceil(std::log(most) / std::log(1.25f))), 1, 64);
    return run_phase(app, platform, steps, [&app, &c, from_x, from_y, rx, ry, steps](int i) {
        const ArrangeParams p = app.canvas_params(c, false);
        const float f = static_cast<float>(i + 1) / steps;
        const float zx = from_x * std::pow(rx, f), zy = from_y * std::pow(ry, f);
        ArrangeParams v = zoom_about(c.shapes, p, zx / std::max(0.01f, c.view.zoom_x), p.panel_w * 0.5f, p.panel_h * 0.5f);
        v.zoom_x = zx, v.zoom_y = zy;
        c.view = v;
        c.arr = arrange(c.shapes, app.canvas_params(c, false));
    });
}

}  // namespace

int run_benchmark(App& app, Platform& platform, int frames, int width, int height, double start_ms) {
    const auto t_first = Clock::now();
    const ImVec2 away(-1, -1);
    run_frame(app, platform, &away);
    platform.present();
    const double first_ms = start_ms + ms(t_first, Clock::now());
    run_frame(app, platform, &away);  // settle window sizes
    platform.present();
    const double fit_build_ms = app.last_rebuild_ms;
    std::vector<std::string> problems;

    // Phase 1: fit. Every operand must be on screen, whole.
    const int half = std::max(1, frames / 2);
    const Phase fit = run_phase(app, platform, half, nullptr);
    const Canvas& c = app.layout_canvas;
    const Rect panel{0, 0, c.size.x, c.size.y};
    // Every operand the picture has (a tile's, or the instruction's A, B, D, ... with C drawn as D).
    const size_t operands = app.layout_shapes().size();
    if (c.arr.grids.size() != operands)
        problems.push_back("the layout shows " + std::to_string(c.arr.grids.size()) + " of " + std::to_string(operands) + " operands");
    std::string fit_forms;
    for (const PlacedGrid& g : c.arr.grids) {
        if (!g.grid.inside(panel, 1))
            problems.push_back(std::string(ls::operand_name(g.shape.op)) + " is not whole inside the layout panel at fit");
        for (const auto& v : app.views)
            if (v.operand == g.shape.op) {
                fit_forms += std::string(fit_forms.empty() ? "" : ", ") + std::string(ls::operand_name(v.operand)) + " " +
                             label_form_name(v.matrix.form);
                if (!v.matrix_tex.ready()) problems.push_back(std::string(ls::operand_name(v.operand)) + " has no texture");
            }
    }
    const float fit_w = c.arr.cell_w, fit_h = c.arr.cell_h;

    // Phase 2: zoom from fit to 100 % as the wheel does (every step a new cell size: the caches are rebuilt).
    const ArrangeParams natural = actual_size(app.layout_canvas.shapes, app.canvas_params(app.layout_canvas, false));
    const Phase zoom_in = zoom_phase(app, platform, natural.zoom_x, natural.zoom_y);
    const double actual_build_ms = app.last_rebuild_ms;
    // Phase 3: 100 %: every label in full, panning to a new part of the picture every frame.
    const Phase actual = run_phase(app, platform, frames - half, [&app](int i) { pan_to(app, i); });
    std::string actual_forms;
    for (const auto& v : app.views) {
        if (v.operand == ls::Operand::C) continue;
        actual_forms += std::string(actual_forms.empty() ? "" : ", ") + std::string(ls::operand_name(v.operand)) + " " +
                        label_form_name(v.matrix.form);
        if (v.matrix.form == LabelForm::None)
            problems.push_back(std::string(ls::operand_name(v.operand)) + " has no labels at 100 %");
    }
    const float actual_w = app.layout_canvas.arr.cell_w, actual_h = app.layout_canvas.arr.cell_h;
    // Phase 4: back to fit.
    const Phase zoom_out = zoom_phase(app, platform, 1.0f, 1.0f);
    // The strip above the canvas must not re-wrap as the cells' text changes: a new canvas size
    // rebuilds every grid (one such frame took 45-65 ms on the 256x256 tile).
    for (const auto& [name, ph] : {std::pair<const char*, const Phase*>{"zooming in", &zoom_in}, {"at 100 %", &actual},
                                   {"zooming out", &zoom_out}})
        if (ph->resized > 0)
            problems.push_back("the canvas changed size " + std::to_string(ph->resized) + " times " + name);
    for (const Phase* ph : {&fit, &actual})
        if (ph->hovered < static_cast<int>(ph->app_ms.size() * 9 / 10))
            problems.push_back("the pointer hovered a tile in only " + std::to_string(ph->hovered) + " of " +
                               std::to_string(ph->app_ms.size()) + " frames");

    size_t tiles = 0;
    for (const auto& v : app.views)
        if (v.operand != ls::Operand::C) tiles += v.matrix.tiles.size();
    std::printf("lanescope bench: %s on %s, %zu matrix tiles (A, B, D%s%s), %dx%d, %d frames\n", app.set.ins->mnemonic.c_str(),
                app.set.target->gfx.c_str(), tiles, app.set.find(ls::Operand::K) ? ", K" : "",
                app.set.find(ls::Operand::SA) ? ", SA, SB" : "", width, height, frames);
    if (app.tile.active())
        std::printf("%s", tile_summary(app.tile.tiles, *app.set.ins).c_str());
    else if (app.tile.enabled)
        problems.push_back("the tile was refused: " + app.tile.error);
    std::printf("renderer: %s (%s)\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                platform.mode() == Platform::Mode::Surfaceless ? "EGL surfaceless" : "X11 window");
    std::printf("start to first frame: %.1f ms\n", first_ms);
    std::printf("fit:   every operand whole in a %.0fx%.0f panel, cells %.2fx%.2f px, labels: %s\n", c.size.x, c.size.y, fit_w,
                fit_h, fit_forms.c_str());
    std::printf("       cache build %.1f ms; pointer on a tile in %d/%zu frames; %ld vertices per frame\n", fit_build_ms,
                fit.hovered, fit.app_ms.size(), fit.vertices);
    std::printf("       app CPU per frame (UI + draw data): p50 %.3f ms  p95 %.3f ms\n", pct(fit.app_ms, 0.5), pct(fit.app_ms, 0.95));
    std::printf("       whole frame (incl. GL render + finish): p50 %.3f ms  p95 %.3f ms\n", pct(fit.frame_ms, 0.5),
                pct(fit.frame_ms, 0.95));
    std::printf("100 %%: cells %.0fx%.0f px, labels: %s, panned every frame\n", actual_w, actual_h, actual_forms.c_str());
    std::printf("       cache build %.1f ms; pointer on a tile in %d/%zu frames; %ld vertices per frame\n", actual_build_ms,
                actual.hovered, actual.app_ms.size(), actual.vertices);
    std::printf("       app CPU per frame (UI + draw data): p50 %.3f ms  p95 %.3f ms\n", pct(actual.app_ms, 0.5),
                pct(actual.app_ms, 0.95));
    std::printf("       whole frame (incl. GL render + finish): p50 %.3f ms  p95 %.3f ms\n", pct(actual.frame_ms, 0.5),
                pct(actual.frame_ms, 0.95));
    std::printf("zoom:  fit -> 100 %% in %zu wheel steps, 100 %% -> fit in %zu: whole frame p50 %.3f ms, worst %.1f ms in, %.1f ms out\n",
                zoom_in.frame_ms.size(), zoom_out.frame_ms.size(), pct(zoom_in.frame_ms, 0.5), zoom_in.worst(), zoom_out.worst());
    for (const auto& [name, ph] : {std::pair<const char*, const Phase*>{"in", &zoom_in}, {"out", &zoom_out}}) {
        if (ph->app_ms.empty()) continue;
        const size_t w = static_cast<size_t>(std::max_element(ph->app_ms.begin(), ph->app_ms.end()) - ph->app_ms.begin());
        std::printf("       zoom %s: worst app CPU %.1f ms (texture fills %.1f ms, grid rebuild %.1f ms)\n", name, ph->app_ms[w],
                    ph->texture_ms[w], ph->build_ms[w]);
    }
    std::printf("cache builds in all: %d\n", app.rebuilds);
    // The worst frame of every measured phase (fit, zoom in, panning at 100 %, zoom out): the smoothness goal is <= 50 ms.
    double worst = 0;
    const char* where = "fit";
    for (const auto& [name, ph] : {std::pair<const char*, const Phase*>{"fit", &fit}, {"zoom in", &zoom_in}, {"100 % pan", &actual},
                                   {"zoom out", &zoom_out}})
        if (ph->worst() > worst) worst = ph->worst(), where = name;
    int over = 0;
    for (const Phase* ph : {&fit, &zoom_in, &actual, &zoom_out})
        over += static_cast<int>(std::count_if(ph->frame_ms.begin(), ph->frame_ms.end(), [](double v) { return v > 50.0; }));
    std::printf("worst frame: %.1f ms (%s); frames over 50 ms: %d\n", worst, where, over);
    if (!problems.empty()) {
        for (const std::string& p : problems) std::fprintf(stderr, "lanescope bench: FAILED: %s\n", p.c_str());
        return 1;
    }
    std::printf("bench: OK (whole picture at fit, labels at 100 %%)\n");
    return 0;
}

// The Memory tab's benchmark (--bench-frames N with --view memory): the
// selection as given, at fit, the pointer moving over memory cells (hover
// links, tooltips, the selected instruction's outlines and conflicts).
int run_memory_benchmark(App& app, Platform& platform, int frames, int width, int height) {
    const ImVec2 away(-1, -1);
    for (int i = 0; i < 2; ++i) run_frame(app, platform, &away), platform.present();
    const double build_ms = app.memory.rebuild_ms;
    std::vector<double> app_ms, frame_ms;
    int hovered = 0;
    long vertices = 0;
    const Canvas& c = app.memory.canvas;
    for (int i = 0; i < frames; ++i) {
        ImVec2 p(-1, -1);
        if (!c.arr.grids.empty()) {
            // Memory grids and the fragment in turn, cells spread over each.
            const size_t k = static_cast<size_t>(i) % c.arr.grids.size();
            const Rect& g = c.arr.grids[k].grid;
            // In a memory grid, the operand's part of each line (not the rest of ld, not the pad).
            const MemoryGrid* mg = k + 1 == c.arr.grids.size() ? nullptr : k == 0 ? &app.memory.grid : &app.memory.second;
            const float part = mg && mg->positions > 0 ? static_cast<float>(mg->extent) / mg->positions : 1.0f;
            const float fx = static_cast<float>((i * 37) % 997) / 997.0f, fy = static_cast<float>((i * 61) % 991) / 991.0f;
            p = ImVec2(c.origin.x + g.x0 + g.w() * part * fx, c.origin.y + g.y0 + g.h() * fy);
        }
        const auto t0 = Clock::now();
        app_ms.push_back(run_frame(app, platform, &p));
        platform.present();
        frame_ms.push_back(ms(t0, Clock::now()));
        hovered += app.hover.kind != Hover::Kind::None;
        if (const ImDrawData* dd = ImGui::GetDrawData()) vertices += dd->TotalVtxCount;
    }
    const MemoryViewState& m = app.memory;
    std::printf("lanescope bench (memory): %s on %s, operand %s, %zu memory cells%s + %zu fragment cells, %dx%d, %d frames\n",
                app.set.ins->mnemonic.c_str(), app.set.target->gfx.c_str(), std::string(ls::operand_name(m.settings.operand)).c_str(),
                m.grid.cells.size(), m.show_second ? " x 2 (plain, transposed)" : "", m.fragment.tiles.size(), width, height, frames);
    std::printf("       %s; cells %.2fx%.2f px; cache build %.1f ms\n", plan_kind_name(m.active().kind), c.arr.cell_w, c.arr.cell_h,
                build_ms);
    std::printf("       pointer on a cell in %d/%d frames; %ld vertices per frame\n", hovered, frames, frames ? vertices / frames : 0);
    std::printf("       app CPU per frame: p50 %.3f ms  p95 %.3f ms; whole frame: p50 %.3f ms  p95 %.3f ms\n", pct(app_ms, 0.5),
                pct(app_ms, 0.95), pct(frame_ms, 0.5), pct(frame_ms, 0.95));
    if (hovered < frames * 9 / 10) {
        std::fprintf(stderr, "lanescope bench: FAILED: the pointer hovered a cell in only %d of %d frames\n", hovered, frames);
        return 1;
    }
    return 0;
}

}  // namespace lsapp
