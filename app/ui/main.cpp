// lanescope: the desktop app. Interactive by default; --screenshot renders one
// frame to a PNG and exits (GLFW under X, EGL surfaceless with no display);
// --bench-frames measures frame cost with the catalog's largest layout.
#include "ui/app.hpp"

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

struct Args {
    std::string compare_arch, compare_instruction, pin, verify, corrupt;
    int compare_wave = -1;
    std::string arch, instruction, operands, screenshot, size, theme, color_by, tab;
    std::string waves, tiles_per_wave, shape;  // tile mode (as lanescope-cli's tile options)
    int k_width = 0;                            // --k-width (0: the instruction's own)
    bool transposed = false;                    // --transposed
    ls::Modifiers mods;
    int bench_frames = 0;
    int quit_after = 0;
    int block = -2;
    float zoom = 0;
    float zoom_percent = 0;  // --zoom N%: cells at N % of their natural size (100 %: every label in full)
    bool panel = false;
    bool headless = false, no_labels = false, registers = false, no_settings = false, verbose = false;
    // The Memory tab (any of these opens it).
    std::string memory, order, swizzle, grouping;
    int ld = -1, pad = -1, issue = -1;
    bool transpose = false, store = false, no_side_by_side = false;
    bool memory_given() const {
        return !memory.empty() || !order.empty() || !swizzle.empty() || !grouping.empty() || ld >= 0 || pad >= 0 ||
               issue >= 0 || transpose || store || no_side_by_side;
    }
};

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
    if (!pin || pin->kind != Hover::Kind::Element) return;
    const Arrangement arr = arrange(c.shapes, p);
    const PlacedGrid* g = arr.find(pin->operand == ls::Operand::C ? ls::Operand::D : pin->operand);
    if (!g) return;
    const int bi = std::max(0, pin->element.block - std::max(0, app.settings.view.block));
    const int bpr = std::max(1, g->blocks_per_row);
    const float x = g->grid.x0 + (bi % bpr) * (g->shape.cols * arr.cell_w + p.block_gap) + (pin->element.col + 0.5f) * arr.cell_w;
    const float y = g->grid.y0 + (bi / bpr) * (g->shape.rows * arr.cell_h + p.block_gap) + (pin->element.row + 0.5f) * arr.cell_h;
    c.view.pan_x = p.panel_w * 0.5f - x, c.view.pan_y = p.panel_h * 0.5f - y;
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

std::vector<ls::Operand> parse_operands(const std::string& text, const ls::Instruction& ins) {
    std::vector<ls::Operand> out;
    const auto legal = ls::operands_of(ins);
    std::string legal_names;
    for (ls::Operand op : legal) legal_names += (legal_names.empty() ? "" : ", ") + std::string(ls::operand_name(op));
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string word = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!word.empty()) {
            const auto op = ls::parse_operand(word);
            if (!op || std::find(legal.begin(), legal.end(), *op) == legal.end())
                throw ls::Error("unknown operand '" + word + "' for " + ins.mnemonic + "; legal: " + legal_names);
            out.push_back(*op);
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

// "D,3,5" -> {"D", "3", "5"} (empty parts kept, so strict parsing can refuse them).
std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    for (size_t at = 0;;) {
        const size_t comma = text.find(',', at);
        parts.push_back(text.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) return parts;
        at = comma + 1;
    }
}

int run(int argc, char** argv, Clock::time_point t_start) {
    Args a;
    CLI::App cli{"lanescope: see which lane, VGPR and bits hold each matrix element of AMD MFMA/WMMA instructions"};
    cli.add_option("-i,--instruction", a.instruction, "mnemonic or builtin name");
    cli.add_option("-a,--arch", a.arch, "gfx id, family or product (gfx942, cdna3, mi300x, rdna4, ...)");
    cli.add_option("--operand", a.operands, "show only these operands, comma-separated (A,B,D,K,SA,SB)");
    // Numbers are parsed strictly (no sign, no empty text, no trailing letters, in range).
    auto add_int = [&cli](const std::string& names, int& into, int lo, int hi, const std::string& help) {
        const std::string flag = names.substr(names.find_last_of(',') + 1);
        return cli
            .add_option_function<std::string>(
                names,
                [&into, lo, hi, flag](const std::string& text) {
                    try {
                        into = static_cast<int>(ls::parse_integer(text, lo, hi, flag));
                    } catch (const ls::Error& e) {
                        throw CLI::ValidationError(e.what());
                    }
                },
                help + " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")")
            ->type_name("INT");
    };
    add_int("--cbsz", a.mods.cbsz, 0, 255, "broadcast block size");
    add_int("--abid", a.mods.abid, 0, 255, "broadcast block id");
    add_int("--blgp", a.mods.blgp, 0, 255, "B lane group pattern");
    add_int("--opsel", a.mods.opsel, 0, 255, "operand select");
    add_int("-w,--wave", a.mods.wave, 32, 128, "wave size (32 or 64 on RDNA; 128 names an NVIDIA warpgroup)");
    add_int("--opsel-a", a.mods.opsel_a, 0, 255, "scale byte select of A (mfma_scale)");
    add_int("--opsel-b", a.mods.opsel_b, 0, 255, "scale byte select of B (mfma_scale)");
    add_int("--selector", a.mods.selector, 0, 255, "sparsity selector (NVIDIA mma.sp)");
    cli.add_option("--screenshot", a.screenshot, "render one frame to this PNG and exit (no display needed)");
    cli.add_option("--size", a.size, "screenshot / benchmark size WxH (default 1400x900)");
    add_int("--bench-frames", a.bench_frames, 1, 1000000, "render N frames of the largest layout (or, with --waves/--tiles-per-wave/--shape, that tile) with a moving pointer; print timings");
    cli.add_option("--theme", a.theme, "light or dark")->check(CLI::IsMember({"light", "dark"}));
    cli.add_option("--color-by,--color", a.color_by, "lane, register or block")->check(CLI::IsMember({"lane", "register", "block"}));
    cli.add_option("--tab,--view", a.tab, "layout, registers, compare, values, details or memory")
        ->check(CLI::IsMember({"layout", "registers", "compare", "values", "details", "memory"}));
    // The Memory tab: the operand (the first of --operand, else B) as a tile in memory.
    cli.add_option("--memory", a.memory, "memory view: where the tile lies, lds or global")->check(CLI::IsMember({"lds", "global"}));
    cli.add_option("--order", a.order, "memory view: row or col (major)")->check(CLI::IsMember({"row", "col"}));
    add_int("--ld", a.ld, 1, 1 << 16, "memory view: leading dimension in elements (default: the contiguous extent)");
    add_int("--pad", a.pad, 0, 4096, "memory view: padding elements after each line");
    cli.add_option("--swizzle", a.swizzle, "memory view: XOR swizzle VEC,PER_PHASE,MAX_PHASE (e.g. 8,2,8)");
    cli.add_flag("--transpose", a.transpose, "memory view: the transpose load (where one serves the operand)");
    cli.add_flag("--store", a.store, "memory view: stores of C/D instead of loads");
    cli.add_flag("--no-side-by-side", a.no_side_by_side, "memory view: only the chosen load, not plain and transposed together");
    add_int("--issue", a.issue, 0, 1 << 20, "memory view: the wave-level instruction whose banks are shown");
    cli.add_option("--grouping", a.grouping, "memory view: the LDS pass grouping by name (as listed in the view)");
    add_int("--block", a.block, -1, 1 << 20, "show only this block (-1: all)");
    cli.add_option_function<std::string>(
           "--zoom",
           [&a](const std::string& text) {
               try {
                   if (!text.empty() && text.back() == '%')
                       a.zoom_percent = static_cast<float>(ls::parse_decimal(text.substr(0, text.size() - 1), 1, 400, "--zoom (percent)"));
                   else
                       a.zoom = static_cast<float>(ls::parse_decimal(text, 0.3, 3.0, "--zoom"));
               } catch (const ls::Error& e) {
                   throw CLI::ValidationError(e.what());
               }
           },
           "zoom factor relative to fit (1: the whole picture; 0.3 .. 3), or N% of the natural cell size (100%: every label "
           "in full; 1% .. 400%), centred on the --pin element when one is given")
        ->type_name("NUMBER");
    cli.add_option("--compare-arch", a.compare_arch, "compare with this architecture (opens the Compare tab)");
    cli.add_option("--compare-instruction", a.compare_instruction, "compare with this instruction (default: the same one)");
    add_int("--compare-wave", a.compare_wave, 32, 128, "wave size of the compared instruction");
    cli.add_option("--pin", a.pin, "pin the highlight of an element, OP,ROW,COL[,BLOCK] (e.g. D,3,5), or a lane, LANE,N");
    cli.add_option("--verify", a.verify,
                   "screenshot: run \"Verify on GPU\" first with this device: auto (the instruction vendor's GPU: HIP on AMD, CUDA on NVIDIA) or software");
    cli.add_option("--corrupt", a.corrupt,
                   "with --verify: check a deliberately wrong layout, OP:swap-lanes:L1:L2 or OP:shift-regs (shows red cells)");
    add_int("--quit-after-frames", a.quit_after, 1, 100000000, "interactive window: close after N frames (smoke tests)");
    cli.add_option("--waves", a.waves, "tile mode: wave grid WMxWN (Triton's warpsPerCTA), e.g. 2x2");
    cli.add_option("--tiles-per-wave", a.tiles_per_wave, "tile mode: instruction tiles per wave RMxRN (tilesPerWarp), e.g. 2x1");
    cli.add_option("--shape", a.shape, "tile mode: tensor shape TMxTN or TMxTNxTK (C/D is TMxTN, A TMxTK, B TKxTN)");
    cli.add_option_function<std::string>(
           "--k-width",
           [&a](const std::string& text) {
               try {
                   a.k_width = ls::parse_k_width(text);
               } catch (const ls::Error& e) {
                   throw CLI::ValidationError(e.what());
               }
           },
           "tile mode: Triton's kWidth of A and B (default the instruction's own)")
        ->type_name("N");
    cli.add_flag("--transposed", a.transposed, "tile mode: Triton's transposed C/D (lanes along M)");
    cli.add_flag("--panel", a.panel, "screenshot only the layout panel, not the whole window");
    cli.add_flag("--registers", a.registers, "show the register view beside the matrices");
    cli.add_flag("--no-labels", a.no_labels, "hide tile labels");
    cli.add_flag("--headless", a.headless, "render with EGL (no window system) even when a display exists");
    cli.add_flag("--no-settings", a.no_settings, "neither read nor write the settings file");
    cli.add_flag("-v,--verbose", a.verbose, "print timings (start to first frame)");
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
        for (const char* name : {"wave", "cbsz", "abid", "blgp", "opsel", "opsel_a", "opsel_b"}) {
            ls::ResolvedModifiers all;
            const ls::Modifiers& m = settings.selection.mods;
            all.cbsz = m.cbsz, all.abid = m.abid, all.blgp = m.blgp, all.opsel = m.opsel, all.wave = m.wave;
            all.opsel_a = m.opsel_a, all.opsel_b = m.opsel_b;
            const int v = modifier_value(all, name);
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
    for (const char* name : {"cbsz", "abid", "blgp", "opsel", "wave", "opsel_a", "opsel_b", "selector"}) {
        ls::ResolvedModifiers probe;
        probe.cbsz = a.mods.cbsz, probe.abid = a.mods.abid, probe.blgp = a.mods.blgp, probe.opsel = a.mods.opsel;
        probe.wave = a.mods.wave, probe.opsel_a = a.mods.opsel_a, probe.opsel_b = a.mods.opsel_b;
        probe.selector = a.mods.selector;
        const int v = modifier_value(probe, name);
        if (v != -1) set_modifier(sel.mods, name, v);
    }
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
        only = parse_operands(a.operands, *checked.ins);
    } catch (const ls::Error& e) {
        std::cerr << "lanescope: " << e.what() << "\n";
        return 2;
    }
    // The Memory tab's settings: every value checked here, with what is legal.
    std::optional<MemorySettings> memory;
    if (a.memory_given() || a.tab == "memory") {
        MemorySettings ms;
        ms.operand = !only.empty() ? only.front() : checked.find(ls::Operand::B) ? ls::Operand::B : checked.layouts.front().operand();
        ms.tile.space = a.memory == "global" ? ls::MemorySpace::Global : ls::MemorySpace::Lds;
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
            if (a.compare_instruction.empty()) other.instruction = carry_instruction(cat, *checked.ins, t);
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
    // --pin: "D,3,5[,block]" pins an element, "lane,17" a lane; every number strict and inside the operand.
    // In tile mode elements are the tile's and "lane,17,W" pins lane 17 of wave W.
    std::optional<Hover> pin;
    if (!a.pin.empty() && tile_mode) {
        const std::vector<std::string> parts = split_commas(a.pin);
        try {
            Hover h;
            if ((parts[0] == "lane" || parts[0] == "LANE") && (parts.size() == 2 || parts.size() == 3)) {
                h.kind = Hover::Kind::Lane;
                h.lane = static_cast<int>(ls::parse_integer(parts[1], 0, checked.wave() - 1, "lane"));
                h.wave = parts.size() == 3 ? static_cast<int>(ls::parse_integer(parts[2], 0, tile.waves() - 1, "wave")) : -1;
            } else if (parts.size() == 3) {
                const auto op = ls::parse_operand(parts[0]);
                const ls::TileLayout* t = op ? tile.find(*op) : nullptr;
                if (!t) throw ls::Error("operand '" + parts[0] + "' is not shown for " + checked.ins->mnemonic);
                h.kind = Hover::Kind::Element;
                h.operand = t->operand();
                h.element = {0, static_cast<int>(ls::parse_integer(parts[1], 0, t->rows() - 1, "row")),
                             static_cast<int>(ls::parse_integer(parts[2], 0, t->cols() - 1, "col"))};
                h.wave = t->where(h.element).front().wave;
            } else {
                throw ls::Error("it has " + std::to_string(parts.size()) + " comma-separated parts");
            }
            pin = h;
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: --pin '" << a.pin << "': " << e.what()
                      << "; legal in tile mode: OP,ROW,COL inside the operand's tile (e.g. D,3,5), lane,N or lane,N,WAVE\n";
            return 2;
        }
    }
    if (!a.pin.empty() && !tile_mode) {
        const std::vector<std::string> parts = split_commas(a.pin);
        try {
            Hover h;
            const std::string head = parts[0];
            if ((head == "lane" || head == "LANE") && parts.size() == 2) {
                h.kind = Hover::Kind::Lane;
                h.lane = static_cast<int>(ls::parse_integer(parts[1], 0, checked.wave() - 1, "lane"));
            } else if (parts.size() == 3 || parts.size() == 4) {
                const auto op = ls::parse_operand(head);
                const ls::OperandLayout* l = op ? checked.find(*op) : nullptr;
                if (!l) throw ls::Error("operand '" + head + "' is not shown for " + checked.ins->mnemonic);
                const ls::Element e{parts.size() == 4 ? static_cast<int>(ls::parse_integer(parts[3], 0, l->blocks() - 1, "block")) : 0,
                                    static_cast<int>(ls::parse_integer(parts[1], 0, l->rows() - 1, "row")),
                                    static_cast<int>(ls::parse_integer(parts[2], 0, l->cols() - 1, "col"))};
                h.kind = Hover::Kind::Element;
                h.operand = *op;
                h.element = e;
            } else {
                throw ls::Error("it has " + std::to_string(parts.size()) + " comma-separated parts");
            }
            pin = h;
        } catch (const ls::Error& e) {
            std::cerr << "lanescope: --pin '" << a.pin << "': " << e.what()
                      << "; legal: OP,ROW,COL[,BLOCK] inside the operand (e.g. D,3,5) or lane,N\n";
            return 2;
        }
    }
    if (a.bench_frames > 0 && tile_mode) {
        // A tile: the selected instruction (-a, -i) over the given tile, labels on, every operand.
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
                if (a.compare_instruction.empty()) other.instruction = carry_instruction(cat, *app.set.ins, t);
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
