// The desktop app's command line: every option and what it sets, apart from
// main() so that tests can parse with it. Options that lanescope-cli takes for
// the same view (layout, figure, load, the tile options) have the CLI's names and
// values (tests/app checks each against lanescope-cli's own --help).
#pragma once

#include "lanescope/lanescope.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace lsapp {

namespace ls = lanescope;

struct AppArgs {
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
    bool transpose = false, store = false, no_side_by_side = false, ld_shared = false;
    bool memory_given() const {
        return !memory.empty() || !order.empty() || !swizzle.empty() || !grouping.empty() || ld >= 0 || pad >= 0 ||
               issue >= 0 || transpose || store || no_side_by_side || ld_shared;
    }
};

// Adds every option of the app to `cli`, each writing into `a`. Numbers are parsed
// strictly; gfx1250's controls take LLVM's names (fp4, ROW1, E4M3) as lanescope-cli does.
void add_app_options(CLI::App& cli, AppArgs& a);

// --operand's list: names of the instruction's operands, comma-separated, or "all" alone ({}: every operand).
// An empty item ("A,", ",B"), a name given twice ("A,A") or one the instruction lacks is refused (ls::Error,
// naming what is legal).
std::vector<ls::Operand> parse_operand_list(const std::string& text, const ls::Instruction& ins);

// One field of chosen modifiers by that name (-1: not given), as ls::modifier_value reads resolved ones.
int modifier_field(const ls::Modifiers& m, std::string_view name);

}  // namespace lsapp
