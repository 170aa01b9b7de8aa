// The desktop app's command line (options.hpp).
#include "model/options.hpp"

#include "lanescope/numbers.hpp"
#include "lanescope/options.hpp"
#include "lanescope/tile.hpp"

#include <algorithm>


namespace lsapp {

int modifier_field(const ls::Modifiers& m, std::string_view name) { return ls::modifier_value(m, name); }

std::vector<ls::Operand> parse_operand_list(const std::string& text, const ls::Instruction& ins) {
    std::vector<ls::Operand> out;
    const auto legal = ls::operands_of(ins);
    std::string legal_names;
    for (ls::Operand op : legal) legal_names += (legal_names.empty() ? "" : ", ") + std::string(ls::operand_name(op));
    if (text.empty()) return out;
    for (size_t start = 0;;) {
        const size_t comma = text.find(',', start);
        const std::string word = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (word == "all" || word == "ALL") {
            // lanescope-cli's --operand all: every operand (the GEMM picture).
            if (text != word) throw ls::Error("--operand all names every operand; give it alone, not with others");
            return {};
        }
        if (word.empty())
            throw ls::Error("--operand '" + text + "' has an empty item; legal: operand names separated by single commas (" +
                            legal_names + "), or all");
        const auto op = ls::parse_operand(word);
        if (!op || std::find(legal.begin(), legal.end(), *op) == legal.end())
            throw ls::Error("unknown operand '" + word + "' for " + ins.mnemonic + "; legal: " + legal_names + ", or all");
        if (std::find(out.begin(), out.end(), *op) != out.end())
            throw ls::Error("--operand '" + text + "' names " + std::string(ls::operand_name(*op)) +
                            " twice; legal: each of " + legal_names + " at most once, or all");
        out.push_back(*op);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

void add_app_options(CLI::App& cli, AppArgs& a) {
    cli.add_option("-i,--instruction", a.instruction, "mnemonic or builtin name");
    cli.add_option("-a,--arch", a.arch, "gfx id, family or product (gfx942, cdna3, mi300x, rdna4, ...)");
    cli.add_option("--operand", a.operands, "show only these operands, comma-separated (A,B,D,K,SA,SB), or all");
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
    // The modifiers: core's one table (lanescope/options.hpp), as lanescope-cli takes them; --swizzle,
    // which the memory view's XOR swizzle shares, is added below.
    for (const ls::ModifierOption& row : ls::modifier_options()) {
        if (row.field == "swizzle") continue;
        const std::string flag = row.flag();
        cli.add_option_function<std::string>(
               std::string(row.names),
               [&a, &row, flag](const std::string& text) {
                   try {
                       ls::apply_option_value(a.mods, row, ls::parse_option_value(row, text, flag));
                   } catch (const ls::Error& e) {
                       throw CLI::ValidationError(e.what());
                   }
               },
               ls::option_help(row))
            ->type_name(std::string(row.type));
    }
    cli.add_option_function<std::string>(
        "--tma-box",
        [](const std::string&) {
            throw CLI::ValidationError("--tma-box: the app does not compare a TMA box with a descriptor yet; "
                                       "lanescope-cli load --memory smem --tma-box D0xD1 answers it");
        },
        "lanescope-cli load's TMA comparison (refused here, with where it is answered)");
    cli.add_option("--screenshot", a.screenshot, "render one frame to this PNG and exit (no display needed)");
    cli.add_option("--size", a.size, "screenshot / benchmark size WxH (default 1400x900)");
    add_int("--bench-frames", a.bench_frames, 1, 1000000, "render N frames of the largest layout (or of -i/-a's instruction, or with --waves/--tiles-per-wave/--shape its tile) with a moving pointer; print timings");
    cli.add_option("--theme", a.theme, "light or dark")->check(CLI::IsMember({"light", "dark"}));
    cli.add_option("--color-by,--color", a.color_by, "lane, register or block")->check(CLI::IsMember({"lane", "register", "block"}));
    // lanescope-cli figure's --view matrix is the Layout tab here.
    cli.add_option("--tab,--view", a.tab, "layout (or matrix, as lanescope-cli figure --view), registers, compare, values, details or memory")
        ->check(CLI::IsMember({"layout", "matrix", "registers", "compare", "values", "details", "memory"}));
    // The Memory tab: the operand (the first of --operand, else B) as a tile in memory.
    cli.add_option("--memory", a.memory,
                   "memory view: where the tile lies, lds or global; smem: an operand a matrix descriptor reads (wgmma B or SS A, "
                   "tcgen05.mma A/B), drawn from its descriptor as lanescope-cli load --memory smem lays it out")
        ->check(CLI::IsMember({"lds", "global", "smem"}));
    cli.add_option("--order", a.order, "memory view: row or col (major)")->check(CLI::IsMember({"row", "col"}));
    add_int("--ld", a.ld, 1, 1 << 24, "memory view: leading dimension in elements (default: the contiguous extent)");
    add_int("--pad", a.pad, 0, 1 << 24, "memory view: padding elements after each line");
    // --swizzle takes both: a descriptor's mode word (lanescope-cli's --swizzle none|32B|64B|128B|128B_base32B, the
    // smem modifier) or the memory view's XOR swizzle VEC,PER_PHASE,MAX_PHASE of a plain tile.
    cli.add_option_function<std::string>(
           "--swizzle",
           [&a](const std::string& text) {
               if (text.empty())
                   throw CLI::ValidationError("--swizzle '' is empty; legal: none, 32B, 64B, 128B, 128B_base32B (a descriptor's "
                                              "swizzle) or VEC,PER_PHASE,MAX_PHASE (the memory view's XOR swizzle, e.g. 8,2,8)");
               if (text.find(',') == std::string::npos) {
                   const ls::ModifierOption* row = ls::find_modifier_option("swizzle");
                   try {
                       ls::apply_option_value(a.mods, *row, ls::parse_option_value(*row, text, "--swizzle"));
                   } catch (const ls::Error& e) {
                       throw CLI::ValidationError(std::string(e.what()) +
                                                  "; or the memory view's XOR swizzle VEC,PER_PHASE,MAX_PHASE (e.g. 8,2,8)");
                   }
                   return;
               }
               a.swizzle = text;
           },
           "a shared-memory descriptor's swizzle none|32B|64B|128B|128B_base32B (wgmma, tcgen05.mma operands), or the memory "
           "view's XOR swizzle VEC,PER_PHASE,MAX_PHASE of a plain tile (e.g. 8,2,8)")
        ->type_name("MODE|V,P,M");
    cli.add_flag("--transpose", a.transpose, "memory view: the transpose load (where one serves the operand)");
    cli.add_flag("--store", a.store, "memory view: stores of C/D instead of loads");
    cli.add_flag("--ld-shared", a.ld_shared, "memory view (NVIDIA): plain ld.shared / st.shared instead of ldmatrix / stmatrix");
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
}

}  // namespace lsapp
