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

// What the command line and the remembered settings decide before anything opens, filled in by the
// checks below in order; the first check that fails ends the start-up with its exit status.
struct Startup {
    Args a;
    bool offscreen = false, use_settings = false;
    std::string settings_file;
    Settings settings;
    LayoutSet checked;
    std::vector<ls::Operand> only;
    std::optional<MemorySettings> memory;
    bool tile_mode = false;
    ls::TileParams tile_params;
    TileSet tile;
    std::optional<Hover> pin;
    int width = 0, height = 0;
};

// Decides whether the command line parses: an exit status to stop with (--help, a usage error), or none.
std::optional<int> parse_command_line(int argc, char** argv, Args& a) {
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
    return std::nullopt;
}

// Decides which parts of a remembered selection still apply: the modifiers one by one (the wave first),
// else the whole selection is dropped; each thing dropped adds a warning.
void prune_remembered_selection(const ls::Catalog& cat, Selection& remembered, std::vector<std::string>& warnings) {
    try {
        const ls::Target& t = cat.find_target(remembered.arch);
        const ls::Instruction& ins = cat.find_instruction(t, remembered.instruction);
        ls::Modifiers kept;
        // The wave first: the other fields' legal values depend on it.
        std::vector<std::string_view> order = {"wave"};
        for (std::string_view f : ls::modifier_field_names())
            if (f != "wave") order.push_back(f);
        for (std::string_view name : order) {
            const int v = modifier_field(remembered.mods, name);
            if (v < 0) continue;
            ls::Modifiers trial = kept;
            set_modifier(trial, name, v);
            try {
                ls::resolve_modifiers(ins, t, trial);
                kept = trial;
            } catch (const ls::Error& e) {
                warnings.push_back("ignoring " + std::string(name) + " = " + std::to_string(v) + ": " + e.what());
            }
        }
        remembered.mods = kept;
        resolve_selection(cat, remembered);
    } catch (const ls::Error& e) {
        warnings.push_back("ignoring the remembered instruction: " + std::string(e.what()));
        remembered = Selection{};
    }
}

// Decides the starting settings: the settings file's (interactive, unless --no-settings) or the defaults.
void load_remembered(const ls::Catalog& cat, Startup& s) {
    s.offscreen = !s.a.screenshot.empty() || s.a.bench_frames > 0;
    s.use_settings = !s.offscreen && !s.a.no_settings;
    s.settings_file = s.use_settings ? settings_path() : "";
    std::vector<std::string> settings_warnings;
    s.settings = s.use_settings ? load_settings(s.settings_file, &settings_warnings) : Settings{};
    // A stale or hand-edited settings file must not stop the app: what no longer
    // applies is dropped, with a warning, and the rest is kept.
    prune_remembered_selection(cat, s.settings.selection, settings_warnings);
    for (const std::string& w : settings_warnings) std::cerr << "lanescope: settings " << s.settings_file << ": " << w << "\n";
}

// Decides the initial selection: the remembered one with the command line's architecture, instruction
// and modifiers laid over it.
void apply_selection_options(const ls::Catalog& cat, const Args& a, Selection& sel) {
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
    for (std::string_view name : ls::modifier_field_names()) {
        const int v = modifier_field(a.mods, name);
        if (v != -1) set_modifier(sel.mods, name, v);
    }
    if (a.mods.descriptor) sel.mods.descriptor = a.mods.descriptor;  // --descriptor 0x...: a whole descriptor
}

// Decides whether the selection and --operand are legal (0, else 2 with the message); fills checked and only.
int check_selection(const ls::Catalog& cat, Startup& s) {
    Selection& sel = s.settings.selection;
    try {
        // Names and explicitly given modifiers must be legal: say what is.
        const ls::Target& t = cat.find_target(sel.arch);
        const ls::Instruction& ins = cat.find_instruction(t, sel.instruction);
        ls::resolve_modifiers(ins, t, sel.mods);
        s.checked = resolve_selection(cat, sel);
    } catch (const ls::Error& e) {
        std::cerr << "lanescope: " << e.what() << "\n";
        return 2;
    }
    try {
        s.only = parse_operand_list(s.a.operands, *s.checked.ins);
    } catch (const ls::Error& e) {
        std::cerr << "lanescope: " << e.what() << "\n";
        return 2;
    }
    // --memory smem --operand A on wgmma: A from shared memory, the SS form (as lanescope-cli load takes it).
    if (s.a.memory == "smem" && !s.only.empty() && s.only.front() == ls::Operand::A &&
        s.checked.ins->kind == ls::LayoutKind::Wgmma && !descriptor_operand(s.checked, ls::Operand::A)) {
        sel.mods.smem_a = 1;
        try {
            s.checked = resolve_selection(cat, sel);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: " << e.what() << "\n";
            return 2;
        }
    }
    return 0;
}

// Decides the matrix the memory tile lays out: the operand's, or with tile options the tile operand's
// (a tile core refuses is reported later, with the other tile checks).
MemoryMatrix memory_matrix_for(const Args& a, const LayoutSet& checked, const MemorySettings& ms) {
    const ls::OperandLayout& l = *checked.find(ms.operand);
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
    return mm;
}

// Decides whether --swizzle VEC,PER_PHASE,MAX_PHASE is legal (0, else 2 with the message); sets the tile's swizzle.
int parse_swizzle_option(const std::string& swizzle, MemorySettings& ms) {
    try {
        std::vector<std::string> parts;
        for (size_t at = 0;;) {
            const size_t comma = swizzle.find(',', at);
            parts.push_back(swizzle.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
        if (parts.size() != 3) throw ls::Error("it has " + std::to_string(parts.size()) + " comma-separated parts");
        ms.tile.swizzle.vec = static_cast<int>(ls::parse_integer(parts[0], 0, 4096, "vec"));
        ms.tile.swizzle.per_phase = static_cast<int>(ls::parse_integer(parts[1], 1, 4096, "per_phase"));
        ms.tile.swizzle.max_phase = static_cast<int>(ls::parse_integer(parts[2], 1, 4096, "max_phase"));
    } catch (const ls::Error& e) {
        std::cerr << "lanescope: --swizzle '" << swizzle << "': " << e.what()
                  << "; legal: VEC,PER_PHASE,MAX_PHASE with VEC >= 0 and PER_PHASE, MAX_PHASE >= 1 (e.g. 8,2,8)\n";
        return 2;
    }
    return 0;
}

// Decides whether --grouping names a grouping the plan's instructions offer (0, else 2 with the legal names).
// Checked before anything opens: the plan is pure computation.
int check_grouping_option(const LayoutSet& checked, const MemorySettings& ms) {
    MemoryPlan probe = make_plan(checked, ms, ms.store ? MemoryPlan::Kind::Store : MemoryPlan::Kind::Plain);
    if (ms.transposed) {
        MemoryPlan tr = make_plan(checked, ms, MemoryPlan::Kind::Transposed);
        if (tr.ok()) probe = std::move(tr);
    }
    bool used = false;
    for (const ls::BankReport& r : probe.banks) used |= r.grouping.name == ms.grouping;
    if (used) return 0;
    std::string names;
    if (ms.tile.space == ls::MemorySpace::Lds)
        for (const IssueRow& r : probe.issues)
            for (const ls::PassGrouping& g : groupings_for(checked, r.mnemonic))
                if (names.find("'" + g.name + "'") == std::string::npos) names += (names.empty() ? "'" : ", '") + g.name + "'";
    std::cerr << "lanescope: --grouping '" << ms.grouping << "' is offered for none of these instructions; legal: "
              << (names.empty() ? "none (no LDS access)" : names) << "\n";
    return 2;
}

// Decides the Memory tab's settings from the memory options (0), every value checked here with what is
// legal (2 with the message); with none of them and no --view memory, there are none.
int check_memory_options(Startup& s) {
    Args& a = s.a;
    const LayoutSet& checked = s.checked;
    if (!a.memory_given() && a.tab != "memory") return 0;
    MemorySettings ms;
    ms.operand = !s.only.empty()                 ? s.only.front()
                 : checked.find(ls::Operand::B) ? ls::Operand::B
                                                 : checked.layouts.front().operand();
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
    const MemoryMatrix mm = memory_matrix_for(a, checked, ms);
    const int extent = ls::contiguous_extent(ms.tile.order, mm.rows, mm.cols);
    if (a.ld >= 0 && a.ld < extent) {
        std::cerr << "lanescope: --ld " << a.ld << " is shorter than " << ls::operand_name(ms.operand) << "'s contiguous extent ("
                  << extent << " for --order " << (a.order.empty() ? "row" : a.order) << "); legal: " << extent << " or more\n";
        return 2;
    }
    ms.tile.ld = a.ld >= 0 ? a.ld : 0;
    ms.tile.pad = a.pad >= 0 ? a.pad : 0;
    if (!a.swizzle.empty())
        if (const int rc = parse_swizzle_option(a.swizzle, ms)) return rc;
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
    if (!ms.grouping.empty())
        if (const int rc = check_grouping_option(checked, ms)) return rc;
    if (a.tab.empty()) a.tab = "memory";
    s.memory = ms;
    return 0;
}

// Decides the view settings the command line gives (theme, colouring, labels, registers, zoom, block):
// 0, else 2 for a --block the instruction lacks.
int apply_view_options(Startup& s) {
    const Args& a = s.a;
    ViewSettings& view = s.settings.view;
    if (!a.theme.empty()) view.theme = a.theme == "dark" ? ls::Theme::Dark : ls::Theme::Light;
    if (!a.color_by.empty())
        view.color_by = a.color_by == "register" ? ls::ColorBy::Register
                        : a.color_by == "block"  ? ls::ColorBy::Block
                                                 : ls::ColorBy::Lane;
    if (a.no_labels) view.labels = false;
    if (a.registers) view.show_registers = true;
    if (a.zoom > 0) view.zoom = a.zoom, view.fit = false;
    if (a.block >= -1) {
        if (a.block >= s.checked.ins->blocks) {
            std::cerr << "lanescope: --block " << a.block << " is outside " << s.checked.ins->mnemonic
                      << "; legal: -1 (all) or 0.." << s.checked.ins->blocks - 1 << "\n";
            return 2;
        }
        view.block = a.block;
    } else if (view.block >= s.checked.ins->blocks) {
        view.block = -1;  // a remembered block the instruction does not have
    }
    if (s.offscreen && a.zoom <= 0) view.zoom = 1.0f;
    return 0;
}

// Decides the window (or offscreen frame) size: the default or --size WxH (0), else 2 with the message.
int parse_size_option(Startup& s) {
    s.width = s.offscreen ? 1400 : s.settings.window.width;
    s.height = s.offscreen ? 900 : s.settings.window.height;
    const std::string& size = s.a.size;
    if (size.empty()) return 0;
    int w = 0, h = 0;
    const size_t x = size.find_first_of("xX");
    try {
        if (x == std::string::npos) throw ls::Error("no 'x'");
        w = static_cast<int>(ls::parse_integer(size.substr(0, x), 320, 8192, "width"));
        h = static_cast<int>(ls::parse_integer(size.substr(x + 1), 240, 8192, "height"));
    } catch (const ls::Error&) {
        w = 0;
    }
    if (w == 0) {
        std::cerr << "lanescope: --size must be WxH with 320 <= W, 240 <= H, both <= 8192 (got '" << size << "')\n";
        return 2;
    }
    s.width = w, s.height = h;
    return 0;
}

// Decides whether the screenshot path, --verify and --corrupt are usable (0), else 2 with the message.
int check_output_options(const Startup& s) {
    const Args& a = s.a;
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
            if (!s.checked.find(c.operand))
                throw ls::Error(s.checked.ins->mnemonic + " has no operand " + std::string(ls::operand_name(c.operand)));
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: --corrupt: " << e.what() << "\n";
            return 2;
        }
#endif
    }
    return 0;
}

// Whether any --compare-* option is given.
bool compare_given(const Args& a) { return !a.compare_arch.empty() || !a.compare_instruction.empty() || a.compare_wave > 0; }

// Decides the instruction --compare-* names beside `here` (its own architecture and instruction where not
// given) into `other`: true where it is legal, else false with core's reason in `error`.
bool compare_selection(const ls::Catalog& cat, const Args& a, const LayoutSet& here, Selection& other, std::string& error) {
    other = Selection{a.compare_arch.empty() ? here.target->gfx : a.compare_arch,
                      a.compare_instruction.empty() ? here.ins->mnemonic : a.compare_instruction, {}};
    other.mods.wave = a.compare_wave;
    try {
        const ls::Target& t = cat.find_target(other.arch);
        if (a.compare_instruction.empty()) other.instruction = compare_instruction(cat, *here.ins, t);
        const LayoutSet probe = resolve_selection(cat, other);
        ls::resolve_modifiers(*probe.ins, *probe.target, other.mods);
    } catch (const ls::Error& e) {
        error = e.what();
        return false;
    }
    return true;
}

// Decides whether the tile options, --pin and --compare-* are legal together (0, else 2 with the message);
// fills tile_mode, tile_params, tile and pin.
int check_tile_and_pin(Startup& s) {
    const Args& a = s.a;
    // Tile mode: the options as lanescope-cli's; core checks the tile (and says what is legal).
    s.tile_mode = !a.waves.empty() || !a.tiles_per_wave.empty() || !a.shape.empty() || a.k_width != 0 || a.transposed;
    // Tile options with the memory view: the Memory tab draws one instruction's operand of the tile and says so
    // in the view (as it does interactively), so nothing is silently dropped.
    if (s.tile_mode && (compare_given(a) || a.tab == "compare")) {
        // The Compare tab puts two single instructions side by side; a tile is never silently dropped.
        std::cerr << "lanescope: " << (compare_given(a) ? "--compare-arch/--compare-instruction/--compare-wave" : "--view compare")
                  << " and the tile options (--waves, --tiles-per-wave, --shape, --k-width, --transposed) exclude each "
                     "other: the Compare tab compares single instructions, not tiles; legal: one or the other\n";
        return 2;
    }
    if (s.tile_mode) {
        try {
            s.tile_params = ls::parse_tile_params(a.waves, a.tiles_per_wave, a.shape);
            s.tile_params.k_width = a.k_width;
            s.tile_params.transposed = a.transposed;
            s.tile = resolve_tile(s.checked, s.tile_params);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: tile: " << e.what() << "\n";
            return 2;
        }
    }
    // --pin: an element or a lane, as the go-to box takes them (model/goto.hpp); every number strict and
    // inside the operand. In tile mode elements are the tile's and "lane,17,W" pins lane 17 of wave W.
    if (!a.pin.empty()) {
        try {
            s.pin = parse_place(a.pin, s.checked, s.tile_mode ? &s.tile : nullptr);
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: --pin '" << a.pin << "': " << e.what() << "; legal" << (s.tile_mode ? " in tile mode" : "")
                      << ": " << legal_forms(s.tile_mode) << "\n";
            return 2;
        }
    }
    return 0;
}

// Decides what --bench-frames measures: the named instruction or its tile, else (outside the Memory tab)
// the catalog's largest layout; labels on, every block and operand.
void apply_bench_selection(const ls::Catalog& cat, Startup& s) {
    const Args& a = s.a;
    if (a.bench_frames > 0 && (s.tile_mode || !a.instruction.empty())) {
        // The named instruction (-a, -i, its modifiers), or its tile: labels on, every operand.
        s.settings.view.labels = true;
        s.settings.view.block = -1;
        s.only.clear();
    } else if (a.bench_frames > 0 && !s.memory) {
        const auto largest = largest_layout(cat);
        s.settings.selection = Selection{largest.first->gfx, largest.second->mnemonic, {}};
        s.settings.selection.mods.wave = largest.first->wave_sizes.back();
        s.settings.view.labels = true;
        s.settings.view.block = -1;
        s.only.clear();
    }
}

// Decides how the platform opens (a window, a hidden window, EGL surfaceless) and opens it: 0, else 1 with
// the message.
int open_platform(Platform& platform, Startup& s) {
    std::string error;
    Platform::Mode mode = Platform::Mode::Window;
    if (s.offscreen) mode = (s.a.headless || !display_available()) ? Platform::Mode::Surfaceless : Platform::Mode::HiddenWindow;
    else if (!display_available()) {
        std::cerr << "lanescope: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window can open.\n"
                     "  For a picture without a display: lanescope --instruction I --arch A --screenshot out.png\n";
        return 1;
    }
    WindowSettings& window = s.settings.window;
    if (mode == Platform::Mode::Window) {
        // A remembered (or hand-written) size and place fitted to a monitor: never larger than the screen,
        // never off it (X11 positions wrap at 16 bits).
        const WindowSettings fitted = fit_window({window.x, window.y, s.width, s.height}, monitor_areas());
        window.x = fitted.x, window.y = fitted.y;
        s.width = fitted.width, s.height = fitted.height;
    }
    if (!platform.open(mode, s.width, s.height, &error)) {
        if (mode == Platform::Mode::HiddenWindow) {
            // A DISPLAY that cannot be reached: fall back to rendering without one.
            platform.close();
            std::string error2;
            if (!platform.open(Platform::Mode::Surfaceless, s.width, s.height, &error2)) {
                std::cerr << "lanescope: " << error << "; and without a display: " << error2 << "\n";
                return 1;
            }
        } else {
            std::cerr << "lanescope: " << error << "\n";
            platform.close();
            return 1;
        }
    }
    if (mode == Platform::Mode::Window && window.x >= 0 && window.y >= 0)
        glfwSetWindowPos(platform.window(), window.x, window.y);
    return 0;
}

// Decides what --view compare alone compares with: the nearest relative, so the tab shows a comparison:
// the other wave size, else the same instruction on another architecture, else itself.
Selection nearest_relative(const ls::Catalog& cat, const App& app) {
    Selection other{app.set.target->gfx, selection_name(*app.set.ins), {}};
    const ls::Target& here = *app.set.target;
    if (here.wave_sizes.size() > 1) {
        other.mods.wave = app.set.mods.wave == here.wave_sizes.front() ? here.wave_sizes.back() : here.wave_sizes.front();
        return other;
    }
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
    return other;
}

// Decides the Compare tab's other side from --compare-* or --view compare: 0, else 2 when --compare-*
// names nothing legal (said here; the tab shows it too).
int set_up_compare(const ls::Catalog& cat, const Startup& s, App& app) {
    const Args& a = s.a;
    int rc = 0;
    if (compare_given(a)) {
        Selection other;
        std::string error;
        if (!compare_selection(cat, a, app.set, other, error)) {
            std::cerr << "lanescope: compare: " << error << "\n";
            rc = 2;
        }
        app.compare.enabled = true;
        app.compare.selection = other;
        app.compare_dirty = true;
        app.set_tab(Tab::Compare);
    } else if (a.tab == "compare" && !s.tile_mode) {
        app.compare.enabled = true;
        app.compare.selection = nearest_relative(cat, app);
        app.compare_dirty = true;
    }
    return rc;
}

// Decides the Memory tab's plans from the checked memory settings, and says what of them cannot be shown.
void set_up_memory(const Startup& s, App& app) {
    const MemorySettings& memory = *s.memory;
    app.memory.settings = memory;
    app.memory.plans_dirty = true;
    app.rebuild_memory_plans();
    // What cannot be shown is said, not silently replaced (the view shows the same message).
    if (memory.transposed && !app.memory.transposed.ok())
        std::cerr << "lanescope: --transpose: " << app.memory.transposed.error << "\n";
    if (memory.issue > 0 && memory.issue >= static_cast<int>(app.memory.active().issues.size()))
        std::cerr << "lanescope: --issue " << memory.issue << ": the " << plan_kind_name(app.memory.active().kind) << " have "
                  << app.memory.active().issues.size() << " instruction(s); showing the last\n";
    // Tile mode: --issue counts every wave's instructions in order; the wave field shows its wave.
    const auto& issues = app.memory.active().issues;
    if (s.tile_mode && !issues.empty()) {
        app.tile.pick_wave = issues[static_cast<size_t>(std::clamp(app.memory.settings.issue, 0, static_cast<int>(issues.size()) - 1))].wave;
        app.memory.shown_wave = app.tile.pick_wave;
    }
}

// Decides the app's state before the first frame: tile, operands, zoom, compare, pin, memory, tab and the
// verification; 0, else 2 (then the tab and the verification are left as they are).
int set_up_app(const ls::Catalog& cat, const Startup& s, App& app) {
    const Args& a = s.a;
    if (s.tile_mode) app.set_tile(true, s.tile_params);
    if (!s.only.empty()) app.show_only(s.only);
    // --zoom F: F times the fitted cell size, centred.
    if (a.zoom > 0) app.layout_canvas.view.zoom_x = app.layout_canvas.view.zoom_y = a.zoom;
    const int rc = set_up_compare(cat, s, app);
    if (s.pin) app.want_pin = *s.pin;
    if (s.memory) set_up_memory(s, app);
    if (rc != 0) return rc;
    if (!a.tab.empty())
        app.set_tab(a.tab == "registers" ? Tab::Registers
                    : a.tab == "compare" ? Tab::Compare
                    : a.tab == "values"  ? Tab::Values
                    : a.tab == "details" ? Tab::Details
                    : a.tab == "memory"  ? Tab::Memory
                                         : Tab::Layout);
    if (!a.verify.empty()) {
        // Before the first frame, so the screenshot shows the overlay (or the reason there is none).
        app.verify.device = a.verify == "software" ? 1 : 0;
        app.verify.corrupt = a.corrupt;
        app.run_verify();
        if (!app.verify.error.empty()) std::cerr << "lanescope: verify: " << app.verify.error << "\n";
        else std::cout << app.verify.facts.summary << " -- " << app.verify.status << "\n";
    }
    return 0;
}

// Renders the frames of --screenshot and writes the PNG (the layout panel alone with --panel): 0, else 1.
int take_screenshot(App& app, Platform& platform, const Startup& s, Clock::time_point t_start) {
    const Args& a = s.a;
    // Two frames: the first sizes the windows and builds the caches.
    if (a.zoom_percent > 0) {
        // --zoom N%: one frame to size the canvas, then N % of the natural cell, centred on the pinned element.
        run_frame(app, platform, nullptr);
        focus_view(app, a.zoom_percent, s.pin);
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
    std::string error;
    if (!write_png(a.screenshot, px, w, h, &error)) {
        std::cerr << "lanescope: " << error << "\n";
        return 1;
    }
    std::cout << "wrote " << a.screenshot << " (" << w << "x" << h << ", " << app.set.ins->mnemonic << " on "
              << app.set.target->gfx << (platform.mode() == Platform::Mode::Surfaceless ? ", EGL surfaceless" : ", X11")
              << ")\n";
    if (a.verbose) std::cout << "start to first frame: " << ms(t_start, t_first) << " ms\n";
    return 0;
}

// The interactive frame loop (idle until input; --quit-after-frames N ends it after N frames), then the
// window's settings saved where settings are used.
void run_window(App& app, Platform& platform, const Startup& s, Clock::time_point t_start) {
    const Args& a = s.a;
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
    if (!s.use_settings) return;
    Settings out = app.settings;
    out.view.tab = static_cast<int>(app.tab);
    glfwGetWindowPos(platform.window(), &out.window.x, &out.window.y);
    glfwGetWindowSize(platform.window(), &out.window.width, &out.window.height);
    out.window = fit_window(out.window, monitor_areas());
    std::string save_error;
    if (!save_settings(out, s.settings_file, &save_error)) std::cerr << "lanescope: settings not saved: " << save_error << "\n";
}

// Decides everything before anything opens, in the order the checks report: 0, or the exit status to stop with.
int decide_startup(const ls::Catalog& cat, Startup& s) {
    load_remembered(cat, s);
    apply_selection_options(cat, s.a, s.settings.selection);
    if (const int rc = check_selection(cat, s)) return rc;
    if (const int rc = check_memory_options(s)) return rc;
    if (const int rc = apply_view_options(s)) return rc;
    if (const int rc = parse_size_option(s)) return rc;
    if (const int rc = check_output_options(s)) return rc;
    // --compare-*: checked before anything opens (the same check runs again once the app exists).
    if (compare_given(s.a)) {
        Selection other;
        std::string error;
        if (!compare_selection(cat, s.a, s.checked, other, error)) {
            std::cerr << "lanescope: compare: " << error << "\n";
            return 2;
        }
    }
    if (const int rc = check_tile_and_pin(s)) return rc;
    apply_bench_selection(cat, s);
    return 0;
}

int run(int argc, char** argv, Clock::time_point t_start) {
    Startup s;
    if (const std::optional<int> exit = parse_command_line(argc, argv, s.a)) return *exit;
    const ls::Catalog& cat = ls::Catalog::builtin();
    if (const int rc = decide_startup(cat, s)) return rc;

    Platform platform;
    if (const int rc = open_platform(platform, s)) return rc;
    int rc = 0;
    if (s.a.verbose) std::cout << "context ready: " << ms(t_start, Clock::now()) << " ms\n";
    {
        App app(cat, s.settings, platform);
        if (s.a.verbose) std::cout << "app ready: " << ms(t_start, Clock::now()) << " ms\n";
        rc = set_up_app(cat, s, app);
        if (rc == 0 && !s.a.screenshot.empty())
            rc = take_screenshot(app, platform, s, t_start);
        else if (rc == 0 && s.a.bench_frames > 0)
            rc = s.memory ? run_memory_benchmark(app, platform, s.a.bench_frames, s.width, s.height)
                          : run_benchmark(app, platform, s.a.bench_frames, s.width, s.height, ms(t_start, Clock::now()));
        else if (rc == 0)
            run_window(app, platform, s, t_start);
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
