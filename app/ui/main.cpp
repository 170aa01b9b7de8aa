// lanescope: the desktop app. Interactive by default; --screenshot renders one
// frame to a PNG and exits (GLFW under X, EGL surfaceless with no display);
// --bench-frames measures frame cost with the catalog's largest layout (or the named instruction or tile).
#include "ui/app.hpp"
#include "model/goto.hpp"
#include "model/options.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <CLI/CLI.hpp>
#include "lanescope/numbers.hpp"
#ifdef LANESCOPE_HAVE_GPU
#include "lanescope/gpu.hpp"
#endif

#include <algorithm>
#include <optional>
#include <chrono>
#include <cstdio>
#include <iostream>

namespace {

using Clock = std::chrono::steady_clock;
namespace ls = lanescope;
using namespace lsapp;

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

using Args = AppArgs;

}  // namespace

// One frame: UI, then GL. Returns the app-CPU milliseconds.
double lsapp::run_frame(App& app, Platform& platform, const ImVec2* synthetic_mouse) {
    const auto t0 = Clock::now();
    platform.new_frame();
    if (synthetic_mouse) ImGui::GetIO().MousePos = *synthetic_mouse;
    ImGui::NewFrame();
    app.frame();
    ImGui::Render();
    app.after_frame();
    const auto t1 = Clock::now();
    platform.render();
    return ms(t0, t1);
}

namespace {

std::string default_export_path(const App& app, bool whole) {
    return "lanescope-" + app.set.ins->mnemonic + "-" + app.set.target->gfx + (whole ? "" : "-layout") + ".png";
}

// Cuts the frame down to the layout panel (export of one panel).
// --zoom N%: the Layout tab's cells at N % of their natural size, the pinned
// element (if any) at the centre of the panel (the view clamps at the edges).
void focus_view(App& app, float percent, const std::optional<Hover>& pin) {
    Canvas& c = app.layout_canvas;
    ArrangeParams p = actual_size(c.shapes, app.canvas_params(c, false));
    p.zoom_x = std::max(1.0f, p.zoom_x * percent / 100.0f), p.zoom_y = std::max(1.0f, p.zoom_y * percent / 100.0f);
    p.pan_x = p.pan_y = 0;
    c.view = p;
    if (pin) app.centre_on(*pin);
}

void crop_to_layout_panel(const App& app, const Platform& platform, std::vector<unsigned char>& px, int& w, int& h) {
    int fw = 0, fh = 0;
    platform.framebuffer_size(&fw, &fh);
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const float sx = fw / std::max(1.0f, d.x), sy = fh / std::max(1.0f, d.y);
    const int x0 = std::clamp(static_cast<int>(app.layout_panel_min.x * sx), 0, w),
              y0 = std::clamp(static_cast<int>(app.layout_panel_min.y * sy), 0, h),
              x1 = std::clamp(static_cast<int>(app.layout_panel_max.x * sx), 0, w),
              y1 = std::clamp(static_cast<int>(app.layout_panel_max.y * sy), 0, h);
    if (x1 <= x0 || y1 <= y0) return;
    std::vector<unsigned char> crop(static_cast<size_t>(x1 - x0) * (y1 - y0) * 4);
    for (int y = y0; y < y1; ++y)
        std::copy(px.begin() + (static_cast<size_t>(y) * w + x0) * 4, px.begin() + (static_cast<size_t>(y) * w + x1) * 4,
                  crop.begin() + static_cast<size_t>(y - y0) * (x1 - x0) * 4);
    px.swap(crop);
    w = x1 - x0;
    h = y1 - y0;
}

void handle_export(App& app, Platform& platform) {
    if (!app.want_export) return;
    ExportRequest req = *app.want_export;
    app.want_export.reset();
    if (req.path.empty()) req.path = default_export_path(app, req.whole_window);
    int w = 0, h = 0;
    std::vector<unsigned char> px = platform.read_frame(&w, &h);
    for (size_t i = 3; i < px.size(); i += 4) px[i] = 255;
    if (!req.whole_window) crop_to_layout_panel(app, platform, px, w, h);
    std::string error;
    if (write_png(req.path, px, w, h, &error)) app.status = "saved " + req.path;
    else app.status = error;
    app.request_redraw();
}

int run(int argc, char** argv, Clock::time_point t_start) {
    Args a;
    CLI::App cli{"lanescope: see which lane, register and bits hold each matrix element of AMD and NVIDIA GPU matrix "
                 "instructions (MFMA, SMFMAC, WMMA, SWMMAC; mma.sync, mma.sp, wgmma, tcgen05, ldmatrix)"};
    add_app_options(cli, a);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help is 0; every argument error is a usage error: 2, as in lanescope-cli.
        return cli.exit(e) == 0 ? 0 : 2;
    }
    // An empty value ("--pin ''") is a usage error, never "not given" (as in lanescope-cli).
    for (const CLI::Option* opt : cli.get_options()) {
        if (opt->count() == 0 || opt->get_type_size_max() == 0) continue;  // absent, or a flag
        for (const std::string& v : opt->results())
            if (v.empty()) {
                const std::string names = opt->get_name(false, true);
                std::cerr << "lanescope: " << names.substr(names.find_last_of(',') + 1) << " '' is empty; legal: "
                          << opt->get_description() << ", or leave the option out\n";
                return 2;
            }
    }

    const ls::Catalog& cat = ls::Catalog::builtin();
    const bool offscreen = !a.screenshot.empty() || a.bench_frames > 0;
    const bool use_settings = !offscreen && !a.no_settings;
    const std::string settings_file = use_settings ? settings_path() : "";
    std::vector<std::string> settings_warnings;
    Settings settings = use_settings ? load_settings(settings_file, &settings_warnings) : Settings{};
    // A stale or hand-edited settings file must not stop the app: what no longer
    // applies is dropped, with a warning, and the rest is kept.
    try {
        const ls::Target& t = cat.find_target(settings.selection.arch);
        const ls::Instruction& ins = cat.find_instruction(t, settings.selection.instruction);
        ls::Modifiers kept;
        // The wave first: the other fields' legal values depend on it.
        std::vector<std::string_view> order = {"wave"};
        for (std::string_view f : modifier_fields())
            if (f != "wave") order.push_back(f);
        for (std::string_view name : order) {
            const int v = modifier_field(settings.selection.mods, name);
            if (v < 0) continue;
            ls::Modifiers trial = kept;
            set_modifier(trial, name, v);
            try {
                ls::resolve_modifiers(ins, t, trial);
                kept = trial;
            } catch (const ls::Error& e) {
                settings_warnings.push_back("ignoring " + std::string(name) + " = " + std::to_string(v) + ": " + e.what());
            }
        }
        settings.selection.mods = kept;
        resolve_selection(cat, settings.selection);
    } catch (const ls::Error& e) {
        settings_warnings.push_back("ignoring the remembered instruction: " + std::string(e.what()));
        settings.selection = Selection{};
    }
    for (const std::string& w : settings_warnings) std::cerr << "lanescope: settings " << settings_file << ": " << w << "\n";
    Selection& sel = settings.selection;
    const Selection remembered = sel;
    if (!a.arch.empty()) sel.arch = a.arch;
    if (!a.instruction.empty()) sel.instruction = a.instruction;
    if (!a.arch.empty() && a.instruction.empty()) {
        // Keep the remembered instruction where it exists on the new architecture.
        try {
            const ls::Target& t = cat.find_target(a.arch);
            const LayoutSet cur = resolve_selection(cat, Selection{remembered.arch, remembered.instruction, {}});
            sel.instruction = carry_instruction(cat, *cur.ins, t);
        } catch (const ls::Error&) {
        }
    }
    if (!a.instruction.empty() || !a.arch.empty()) sel.mods = ls::Modifiers{};
    for (std::string_view name : modifier_fields()) {
        const int v = modifier_field(a.mods, name);
        if (v != -1) set_modifier(sel.mods, name, v);
    }
    if (a.mods.descriptor) sel.mods.descriptor = a.mods.descriptor;  // --descriptor 0x...: a whole descriptor
    LayoutSet checked;
    try {
        // Names and explicitly given modifiers must be legal: say what is.
        const ls::Target& t = cat.find_target(sel.arch);
        const ls::Instruction& ins = cat.find_instruction(t, sel.instruction);
        ls::resolve_modifiers(ins, t, sel.mods);
        checked = resolve_selection(cat, sel);
    } catch (const ls::Error& e) {
        std::cerr << "lanescope: " << e.what() << "\n";
        return 2;
    }
    std::vector<ls::Operand> only;
    try {
        only = parse_operand_list(a.operands, *checked.ins);
    } catch (const ls::Error& e) {
        std::cerr << "lanescope: " << e.what() << "\n";
        return 2;
    }
    // --memory smem --operand A on wgmma: A from shared memory, the SS form (as lanescope-cli load takes it).
    if (a.memory == "smem" && !only.empty() && only.front() == ls::Operand::A && checked.ins->kind == ls::LayoutKind::Wgmma &&
        !descriptor_operand(checked, ls::Operand::A)) {
        sel.mods.smem_a = 1;
        try {
            checked = resolve_selection(cat, sel);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: " << e.what() << "\n";
            return 2;
        }
    }
    // The Memory tab's settings: every value checked here, with what is legal.
    std::optional<MemorySettings> memory;
    if (a.memory_given() || a.tab == "memory") {
        MemorySettings ms;
        ms.operand = !only.empty() ? only.front() : checked.find(ls::Operand::B) ? ls::Operand::B : checked.layouts.front().operand();
        ms.tile.space = a.memory == "global" ? ls::MemorySpace::Global : ls::MemorySpace::Lds;
        // In shared memory: what a matrix descriptor reads, and SFA / SFB of a block-scaled tcgen05.mma.
        auto in_smem = [&](ls::Operand op) { return descriptor_operand(checked, op) || scale_factor_operand(checked, op); };
        if (a.memory == "smem" && !in_smem(ms.operand)) {
            std::string legal;
            for (const ls::OperandLayout& o : checked.layouts)
                if (in_smem(o.operand())) legal += (legal.empty() ? "" : ", ") + std::string(ls::operand_name(o.operand()));
            std::cerr << "lanescope: --memory smem: operand " << ls::operand_name(ms.operand) << " of " << checked.ins->mnemonic
                      << " is not read through a matrix descriptor; legal: "
                      << (legal.empty() ? "an instruction with one (wgmma B or, with --smem-a 1, A; tcgen05.mma A and B)"
                                        : "--operand " + legal)
                      << "\n";
            return 2;
        }
        ms.tile.order = a.order == "col" ? ls::MemoryOrder::ColMajor : ls::MemoryOrder::RowMajor;
        const ls::OperandLayout& l = *checked.find(ms.operand);
        // The matrix in memory: the operand's, or with tile options the tile operand's (a tile core refuses is
        // reported below, with the other tile checks).
        MemoryMatrix mm;
        mm.rows = l.blocks() * l.rows(), mm.cols = l.cols(), mm.block_rows = l.rows(), mm.element_bits = l.element_bits();
        if (!a.waves.empty() || !a.tiles_per_wave.empty() || !a.shape.empty() || a.k_width != 0 || a.transposed) {
            try {
                MemorySettings probe = ms;
                probe.tiles = ls::parse_tile_params(a.waves, a.tiles_per_wave, a.shape);
                probe.tiles->k_width = a.k_width;
                probe.tiles->transposed = a.transposed;
                mm = memory_matrix(checked, probe);
            } catch (const ls::Error&) {
            }
        }
        const int extent = ls::contiguous_extent(ms.tile.order, mm.rows, mm.cols);
        if (a.ld >= 0 && a.ld < extent) {
            std::cerr << "lanescope: --ld " << a.ld << " is shorter than " << ls::operand_name(ms.operand) << "'s contiguous extent ("
                      << extent << " for --order " << (a.order.empty() ? "row" : a.order) << "); legal: " << extent << " or more\n";
            return 2;
        }
        ms.tile.ld = a.ld >= 0 ? a.ld : 0;
        ms.tile.pad = a.pad >= 0 ? a.pad : 0;
        if (!a.swizzle.empty()) {
            try {
                std::vector<std::string> parts;
                for (size_t at = 0;;) {
                    const size_t comma = a.swizzle.find(',', at);
                    parts.push_back(a.swizzle.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
                    if (comma == std::string::npos) break;
                    at = comma + 1;
                }
                if (parts.size() != 3) throw ls::Error("it has " + std::to_string(parts.size()) + " comma-separated parts");
                ms.tile.swizzle.vec = static_cast<int>(ls::parse_integer(parts[0], 0, 4096, "vec"));
                ms.tile.swizzle.per_phase = static_cast<int>(ls::parse_integer(parts[1], 1, 4096, "per_phase"));
                ms.tile.swizzle.max_phase = static_cast<int>(ls::parse_integer(parts[2], 1, 4096, "max_phase"));
            } catch (const ls::Error& e) {
                std::cerr << "lanescope: --swizzle '" << a.swizzle << "': " << e.what()
                          << "; legal: VEC,PER_PHASE,MAX_PHASE with VEC >= 0 and PER_PHASE, MAX_PHASE >= 1 (e.g. 8,2,8)\n";
                return 2;
            }
        }
        try {
            // The rest of core's rules (a swizzle that moves an element beyond ld, a tile too large).
            ls::check_memory_tile(effective_tile(mm, ms), mm.rows, mm.cols);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: memory tile: " << e.what() << "\n";
            return 2;
        }
        if (a.store && a.transpose) {
            std::cerr << "lanescope: --store and --transpose exclude each other (transpose loads are loads)\n";
            return 2;
        }
        if (a.store && ms.operand != ls::Operand::C && ms.operand != ls::Operand::D) {
            std::cerr << "lanescope: --store writes C/D; choose --operand D (or C), not " << ls::operand_name(ms.operand) << "\n";
            return 2;
        }
        ms.transposed = a.transpose;
        ms.store = a.store;
        ms.ld_shared = a.ld_shared;
        ms.side_by_side = !a.no_side_by_side;
        ms.grouping = a.grouping;
        ms.issue = a.issue >= 0 ? a.issue : 0;
        if (!ms.grouping.empty()) {
            // Checked before anything opens: the plan is pure computation.
            MemoryPlan probe = make_plan(checked, ms, ms.store ? MemoryPlan::Kind::Store : MemoryPlan::Kind::Plain);
            if (ms.transposed) {
                MemoryPlan tr = make_plan(checked, ms, MemoryPlan::Kind::Transposed);
                if (tr.ok()) probe = std::move(tr);
            }
            bool used = false;
            for (const ls::BankReport& r : probe.banks) used |= r.grouping.name == ms.grouping;
            if (!used) {
                std::string names;
                if (ms.tile.space == ls::MemorySpace::Lds)
                    for (const IssueRow& r : probe.issues)
                        for (const ls::PassGrouping& g : groupings_for(checked, r.mnemonic))
                            if (names.find("'" + g.name + "'") == std::string::npos) names += (names.empty() ? "'" : ", '") + g.name + "'";
                std::cerr << "lanescope: --grouping '" << ms.grouping << "' is offered for none of these instructions; legal: "
                          << (names.empty() ? "none (no LDS access)" : names) << "\n";
                return 2;
            }
        }
        if (a.tab.empty()) a.tab = "memory";
        memory = ms;
    }
    if (!a.theme.empty()) settings.view.theme = a.theme == "dark" ? ls::Theme::Dark : ls::Theme::Light;
    if (!a.color_by.empty())
        settings.view.color_by = a.color_by == "register" ? ls::ColorBy::Register
                                 : a.color_by == "block"  ? ls::ColorBy::Block
                                                          : ls::ColorBy::Lane;
    if (a.no_labels) settings.view.labels = false;
    if (a.registers) settings.view.show_registers = true;
    if (a.zoom > 0) settings.view.zoom = a.zoom, settings.view.fit = false;
    if (a.block >= -1) {
        if (a.block >= checked.ins->blocks) {
            std::cerr << "lanescope: --block " << a.block << " is outside " << checked.ins->mnemonic
                      << "; legal: -1 (all) or 0.." << checked.ins->blocks - 1 << "\n";
            return 2;
        }
        settings.view.block = a.block;
    } else if (settings.view.block >= checked.ins->blocks) {
        settings.view.block = -1;  // a remembered block the instruction does not have
    }
    if (offscreen && a.zoom <= 0) settings.view.zoom = 1.0f;

    int width = offscreen ? 1400 : settings.window.width, height = offscreen ? 900 : settings.window.height;
    if (!a.size.empty()) {
        int w = 0, h = 0;
        const size_t x = a.size.find_first_of("xX");
        try {
            if (x == std::string::npos) throw ls::Error("no 'x'");
            w = static_cast<int>(ls::parse_integer(a.size.substr(0, x), 320, 8192, "width"));
            h = static_cast<int>(ls::parse_integer(a.size.substr(x + 1), 240, 8192, "height"));
        } catch (const ls::Error&) {
            w = 0;
        }
        if (w == 0) {
            std::cerr << "lanescope: --size must be WxH with 320 <= W, 240 <= H, both <= 8192 (got '" << a.size << "')\n";
            return 2;
        }
        width = w, height = h;
    }
    if (!a.screenshot.empty()) {
        std::string error;
        if (!path_writable(a.screenshot, &error)) {
            std::cerr << "lanescope: " << error << "\n";
            return 2;
        }
    }
    if (!a.verify.empty() && a.verify != "auto" && a.verify != "software") {
        std::cerr << "lanescope: --verify must be auto (the instruction vendor's GPU: HIP on AMD, CUDA on NVIDIA) or software (got '" << a.verify << "')\n";
        return 2;
    }
    if (!a.corrupt.empty() && a.verify.empty()) {
        std::cerr << "lanescope: --corrupt needs --verify auto|software\n";
        return 2;
    }
    if (!a.verify.empty() && !gpu_backend_built()) {
        std::cerr << "lanescope: --verify: GPU backend: not built\n";
        return 2;
    }
    if (!a.corrupt.empty()) {
#ifdef LANESCOPE_HAVE_GPU
        try {
            const lanescope::gpu::Corruption c = lanescope::gpu::parse_corruption(a.corrupt);
            if (!checked.find(c.operand))
                throw ls::Error(checked.ins->mnemonic + " has no operand " + std::string(ls::operand_name(c.operand)));
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: --corrupt: " << e.what() << "\n";
            return 2;
        }
#endif
    }
    // --compare-*: checked before anything opens (the same check runs again once the app exists).
    if (!a.compare_arch.empty() || !a.compare_instruction.empty() || a.compare_wave > 0) {
        Selection other{a.compare_arch.empty() ? checked.target->gfx : a.compare_arch,
                        a.compare_instruction.empty() ? checked.ins->mnemonic : a.compare_instruction, {}};
        other.mods.wave = a.compare_wave;
        try {
            const ls::Target& t = cat.find_target(other.arch);
            if (a.compare_instruction.empty()) other.instruction = compare_instruction(cat, *checked.ins, t);
            const LayoutSet probe = resolve_selection(cat, other);
            ls::resolve_modifiers(*probe.ins, *probe.target, other.mods);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: compare: " << e.what() << "\n";
            return 2;
        }
    }
    // Tile mode: the options as lanescope-cli's; core checks the tile (and says what is legal).
    const bool tile_mode =
        !a.waves.empty() || !a.tiles_per_wave.empty() || !a.shape.empty() || a.k_width != 0 || a.transposed;
    // Tile options with the memory view: the Memory tab draws one instruction's operand of the tile and says so
    // in the view (as it does interactively), so nothing is silently dropped.
    const bool compare_given = !a.compare_arch.empty() || !a.compare_instruction.empty() || a.compare_wave > 0;
    if (tile_mode && (compare_given || a.tab == "compare")) {
        // The Compare tab puts two single instructions side by side; a tile is never silently dropped.
        std::cerr << "lanescope: " << (compare_given ? "--compare-arch/--compare-instruction/--compare-wave" : "--view compare")
                  << " and the tile options (--waves, --tiles-per-wave, --shape, --k-width, --transposed) exclude each "
                     "other: the Compare tab compares single instructions, not tiles; legal: one or the other\n";
        return 2;
    }
    ls::TileParams tile_params;
    TileSet tile;
    if (tile_mode) {
        try {
            tile_params = ls::parse_tile_params(a.waves, a.tiles_per_wave, a.shape);
            tile_params.k_width = a.k_width;
            tile_params.transposed = a.transposed;
            tile = resolve_tile(checked, tile_params);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: tile: " << e.what() << "\n";
            return 2;
        }
    }
    // --pin: an element or a lane, as the go-to box takes them (model/goto.hpp); every number strict and
    // inside the operand. In tile mode elements are the tile's and "lane,17,W" pins lane 17 of wave W.
    std::optional<Hover> pin;
    if (!a.pin.empty()) {
        try {
            pin = parse_place(a.pin, checked, tile_mode ? &tile : nullptr);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: --pin '" << a.pin << "': " << e.what() << "; legal" << (tile_mode ? " in tile mode" : "")
                      << ": " << legal_forms(tile_mode) << "\n";
            return 2;
        }
    }
    if (a.bench_frames > 0 && (tile_mode || !a.instruction.empty())) {
        // The named instruction (-a, -i, its modifiers), or its tile: labels on, every operand.
        settings.view.labels = true;
        settings.view.block = -1;
        only.clear();
    } else if (a.bench_frames > 0 && !memory) {
        const auto largest = largest_layout(cat);
        sel = Selection{largest.first->gfx, largest.second->mnemonic, {}};
        sel.mods.wave = largest.first->wave_sizes.back();
        settings.view.labels = true;
        settings.view.block = -1;
        only.clear();
    }

    Platform platform;
    std::string error;
    Platform::Mode mode = Platform::Mode::Window;
    if (offscreen) mode = (a.headless || !display_available()) ? Platform::Mode::Surfaceless : Platform::Mode::HiddenWindow;
    else if (!display_available()) {
        std::cerr << "lanescope: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window can open.\n"
                     "  For a picture without a display: lanescope --instruction I --arch A --screenshot out.png\n";
        return 1;
    }
    if (mode == Platform::Mode::Window) {
        // A remembered (or hand-written) size and place fitted to a monitor: never larger than the screen,
        // never off it (X11 positions wrap at 16 bits).
        const WindowSettings fitted = fit_window({settings.window.x, settings.window.y, width, height}, monitor_areas());
        settings.window.x = fitted.x, settings.window.y = fitted.y;
        width = fitted.width, height = fitted.height;
    }
    if (!platform.open(mode, width, height, &error)) {
        if (mode == Platform::Mode::HiddenWindow) {
            // A DISPLAY that cannot be reached: fall back to rendering without one.
            platform.close();
            std::string error2;
            if (!platform.open(Platform::Mode::Surfaceless, width, height, &error2)) {
                std::cerr << "lanescope: " << error << "; and without a display: " << error2 << "\n";
                return 1;
            }
        } else {
            std::cerr << "lanescope: " << error << "\n";
            platform.close();
            return 1;
        }
    }
    if (mode == Platform::Mode::Window && settings.window.x >= 0 && settings.window.y >= 0)
        glfwSetWindowPos(platform.window(), settings.window.x, settings.window.y);

    int rc = 0;
    if (a.verbose) std::cout << "context ready: " << ms(t_start, Clock::now()) << " ms\n";
    {
        App app(cat, settings, platform);
        if (a.verbose) std::cout << "app ready: " << ms(t_start, Clock::now()) << " ms\n";
        if (tile_mode) app.set_tile(true, tile_params);
        if (!only.empty()) app.show_only(only);
        // --zoom F: F times the fitted cell size, centred.
        if (a.zoom > 0) app.layout_canvas.view.zoom_x = app.layout_canvas.view.zoom_y = a.zoom;
        if (!a.compare_arch.empty() || !a.compare_instruction.empty() || a.compare_wave > 0) {
            Selection other{a.compare_arch.empty() ? app.set.target->gfx : a.compare_arch,
                            a.compare_instruction.empty() ? app.set.ins->mnemonic : a.compare_instruction, {}};
            other.mods.wave = a.compare_wave;
            try {
                const ls::Target& t = cat.find_target(other.arch);
                if (a.compare_instruction.empty()) other.instruction = compare_instruction(cat, *app.set.ins, t);
                const LayoutSet probe = resolve_selection(cat, other);
                ls::resolve_modifiers(*probe.ins, *probe.target, other.mods);
            } catch (const ls::Error& e) {
                std::cerr << "lanescope: compare: " << e.what() << "\n";
                rc = 2;
            }
            app.compare.enabled = true;
            app.compare.selection = other;
            app.compare_dirty = true;
            app.set_tab(Tab::Compare);
        } else if (a.tab == "compare" && !tile_mode) {
            // --view compare alone: compare with the nearest relative, so the tab shows a comparison:
            // the other wave size, else the same instruction on another architecture, else itself.
            Selection other{app.set.target->gfx, selection_name(*app.set.ins), {}};
            const ls::Target& here = *app.set.target;
            if (here.wave_sizes.size() > 1) {
                other.mods.wave = app.set.mods.wave == here.wave_sizes.front() ? here.wave_sizes.back() : here.wave_sizes.front();
            } else {
                for (const ls::Target& t : cat.targets()) {
                    if (&t == &here || t.vendor() != here.vendor()) continue;
                    try {
                        const std::string name = carry_instruction(cat, *app.set.ins, t);
                        if (cat.find_instruction(t, name).mnemonic == app.set.ins->mnemonic) {
                            other.arch = t.gfx, other.instruction = name;
                            break;
                        }
                    } catch (const ls::Error&) {
                    }
                }
            }
            app.compare.enabled = true;
            app.compare.selection = other;
            app.compare_dirty = true;
        }
        if (pin) app.want_pin = *pin;
        if (memory) {
            app.memory.settings = *memory;
            app.memory.plans_dirty = true;
            app.rebuild_memory_plans();
            // What cannot be shown is said, not silently replaced (the view shows the same message).
            if (memory->transposed && !app.memory.transposed.ok())
                std::cerr << "lanescope: --transpose: " << app.memory.transposed.error << "\n";
            if (memory->issue > 0 && memory->issue >= static_cast<int>(app.memory.active().issues.size()))
                std::cerr << "lanescope: --issue " << memory->issue << ": the " << plan_kind_name(app.memory.active().kind) << " have "
                          << app.memory.active().issues.size() << " instruction(s); showing the last\n";
            // Tile mode: --issue counts every wave's instructions in order; the wave field shows its wave.
            const auto& issues = app.memory.active().issues;
            if (tile_mode && !issues.empty()) {
                app.tile.pick_wave = issues[static_cast<size_t>(std::clamp(app.memory.settings.issue, 0, static_cast<int>(issues.size()) - 1))].wave;
                app.memory.shown_wave = app.tile.pick_wave;
            }
        }
        if (rc != 0) {
        } else if (!a.tab.empty())
            app.set_tab(a.tab == "registers" ? Tab::Registers
                        : a.tab == "compare" ? Tab::Compare
                        : a.tab == "values"  ? Tab::Values
                        : a.tab == "details" ? Tab::Details
                        : a.tab == "memory"  ? Tab::Memory
                                             : Tab::Layout);
        if (rc == 0 && !a.verify.empty()) {
            // Before the first frame, so the screenshot shows the overlay (or the reason there is none).
            app.verify.device = a.verify == "software" ? 1 : 0;
            app.verify.corrupt = a.corrupt;
            app.run_verify();
            if (!app.verify.error.empty()) std::cerr << "lanescope: verify: " << app.verify.error << "\n";
            else std::cout << app.verify.facts.summary << " -- " << app.verify.status << "\n";
        }
        if (rc != 0) {
        } else if (!a.screenshot.empty()) {
            // Two frames: the first sizes the windows and builds the caches.
            if (a.zoom_percent > 0) {
                // --zoom N%: one frame to size the canvas, then N % of the natural cell, centred on the pinned element.
                run_frame(app, platform, nullptr);
                focus_view(app, a.zoom_percent, pin);
            }
            for (int i = 0; i < 2; ++i) {
                run_frame(app, platform, nullptr);
                if (a.verbose) std::cout << "frame " << i << " done: " << ms(t_start, Clock::now()) << " ms (cache " << app.last_rebuild_ms << " ms)\n";
            }
            platform.present();
            const auto t_first = Clock::now();
            int w = 0, h = 0;
            std::vector<unsigned char> px = platform.read_frame(&w, &h);
            for (size_t i = 3; i < px.size(); i += 4) px[i] = 255;
            if (a.panel) crop_to_layout_panel(app, platform, px, w, h);
            if (!write_png(a.screenshot, px, w, h, &error)) {
                std::cerr << "lanescope: " << error << "\n";
                rc = 1;
            } else {
                std::cout << "wrote " << a.screenshot << " (" << w << "x" << h << ", " << app.set.ins->mnemonic << " on "
                          << app.set.target->gfx << (platform.mode() == Platform::Mode::Surfaceless ? ", EGL surfaceless" : ", X11")
                          << ")\n";
                if (a.verbose) std::cout << "start to first frame: " << ms(t_start, t_first) << " ms\n";
            }
        } else if (a.bench_frames > 0) {
            rc = memory ? run_memory_benchmark(app, platform, a.bench_frames, width, height)
                        : run_benchmark(app, platform, a.bench_frames, width, height, ms(t_start, Clock::now()));
        } else {
            bool first = true;
            int frames = 0;
            while (!platform.should_close() && (a.quit_after <= 0 || frames++ < a.quit_after)) {
                if (!app.busy() && a.quit_after <= 0) {
                    platform.wait_events();  // idle: no CPU until input arrives
                    app.request_redraw(2);
                } else {
                    platform.poll_events();
                }
                run_frame(app, platform, nullptr);
                handle_export(app, platform);
                platform.present();
                if (first && a.verbose) std::cout << "start to first frame: " << ms(t_start, Clock::now()) << " ms\n";
                first = false;
            }
            if (use_settings) {
                Settings out = app.settings;
                out.view.tab = static_cast<int>(app.tab);
                glfwGetWindowPos(platform.window(), &out.window.x, &out.window.y);
                glfwGetWindowSize(platform.window(), &out.window.width, &out.window.height);
                out.window = fit_window(out.window, monitor_areas());
                std::string save_error;
                if (!save_settings(out, settings_file, &save_error))
                    std::cerr << "lanescope: settings not saved: " << save_error << "\n";
            }
        }
    }
    platform.close();
    return rc;
}

}  // namespace

int main(int argc, char** argv) {
    const auto t_start = Clock::now();
    try {
        return run(argc, argv, t_start);
    } catch (const lanescope::Error& e) {
        std::cerr << "lanescope: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "lanescope: internal error: " << e.what() << "\n";
        return 3;
    }
}
