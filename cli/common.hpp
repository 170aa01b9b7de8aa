// Shared pieces of lanescope-cli's subcommands: options, name resolution,
// output. Each group of subcommands lives in its own file and registers itself.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/render.hpp"
#include "lanescope/check.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/tile.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace lscli {

namespace ls = lanescope;

inline constexpr const char* kDefaultArch = "cdna3";
inline constexpr const char* kDefaultInstruction = "v_mfma_f32_32x32x8_f16";

struct Options {
    std::string catalog;
    std::string arch = kDefaultArch;
    std::string list_arch;
    std::string instruction = kDefaultInstruction;
    std::string operand = "A";
    std::string view = "matrix";
    std::string format = "table";
    std::string out;
    ls::Modifiers mods;
    int row = -1, col = -1, block = 0, reg = -1, lane = -1;
    int runs = 200;
    // Tiles (docs/tiles.md): empty = a single instruction.
    std::string waves, tiles_per_wave, shape;
    std::string linear_file;  // layout --linear FILE
    std::string layout_file;  // check --layout FILE
    int wave_index = -1;  // which: the wave of a tile (--wave in tile mode)
    int wave_size = -1;   // which: --wave-size, the wave size when --wave names a wave
};

// A registered subcommand: its CLI11 node and what runs when it was chosen.
struct Command {
    CLI::App* sub;
    std::function<int()> run;
};

const ls::Catalog& catalog(const Options& o);
ls::Format parse_format(const std::string& s);
ls::View parse_view(const std::string& s);
ls::Operand parse_operand_or_throw(const std::string& s, const ls::Instruction& ins);

struct Resolved {
    const ls::Target* target;
    const ls::Instruction* ins;
    ls::Query query;
};
// Target, instruction and validated modifiers from the options; throws ls::Error.
Resolved resolve(const Options& o);
// The whole text of a file; throws ls::Error naming it.
std::string read_text_file(const std::string& path);
// Writes to o.out atomically (temp file + rename), or to stdout.
int emit(const Options& o, const std::string& text);
// --arch, --instruction, [--operand], the modifiers, --format, --out.
void add_target_options(CLI::App* sub, Options& o, bool with_operand);

// Tile options: --waves WMxWN, --tiles-per-wave RMxRN, --shape TMxTN[xTK].
void add_tile_options(CLI::App* sub, Options& o);
bool tile_mode(const Options& o);
// Parses the tile options strictly; throws ls::Error naming the option and the legal form.
ls::TileParams tile_params(const Options& o);

// Groups of subcommands defined in their own files.
void register_figure_commands(CLI::App& app, Options& o, std::vector<Command>& out);  // cmd_figure.cpp
void register_verify_commands(CLI::App& app, Options& o, std::vector<Command>& out);  // cmd_verify.cpp

}  // namespace lscli
