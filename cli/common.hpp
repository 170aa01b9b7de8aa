// Shared pieces of lanescope-cli's subcommands: options, name resolution,
// output. Each group of subcommands lives in its own file and registers itself.
#pragma once

#include "entry.hpp"

#include "lanescope/lanescope.hpp"
#include "lanescope/render.hpp"
#include "lanescope/check.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/memory.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/tile.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace lanescope::figures {
struct Figure;
}

namespace lscli {

namespace ls = lanescope;


// A usage error (exit status 2): a missing or malformed flag.
struct UsageError : ls::Error {
    using ls::Error::Error;
};

struct Options {
    std::string command;  // the subcommand's name, for messages
    std::string catalog;
    std::string arch;         // required by every query of one instruction
    std::string list_arch;
    std::string search;       // list --search WORDS
    std::string instruction;  // required by every query of one instruction
    std::string operand = "A";
    std::string view = "matrix";
    std::string format = "table";
    std::string out;
    ls::Modifiers mods;
    int row = -1, col = -1, block = 0, reg = -1, lane = -1;
    int runs = 50;  // bench: launches per timed command (the start-up table times some 40 commands)
    // Tiles (docs/tiles.md): empty = a single instruction.
    std::string waves, tiles_per_wave, shape;
    int k_width = 0;          // --k-width (Triton's kWidth of A/B); 0 = the instruction's own
    bool transposed = false;  // --transposed (Triton's isTransposed / transposed of C/D)
    std::string linear_file;  // layout --linear FILE
    std::string layout_file;  // check --layout FILE
    int check_show = 10;      // check --show N: differing elements listed
    std::string header_namespace;  // header --namespace
    bool header_tables = false;    // header --tables
    int wave_index = -1;  // which: the wave of a tile (--of-wave W)
    int wave_size = -1;   // which: --wave-size, another spelling of --wave (the wave size)
    std::string wave_flag = "--wave";  // the flag that gave the wave size, for messages
    int catalog_rows = 100000;  // bench: the synthetic catalog's size
    bool bench_largest = false;  // bench --largest: the largest legal requests
    bool bench_instructions = false;  // bench --instructions: callgrind counts of the start-up queries
    const CLI::App* sub = nullptr;  // the parsed subcommand (which options were given)
    // The subcommand named on the command line ("" if none): only its options are
    // set up (setting up every subcommand's options was most of a query's start-up).
    std::string invoked;
    // The invoked subcommand is one of subcommand_names(): only it is registered.
    bool alone = false;
    // The option names the command line holds ("--wave", "-w": each word's name up to '=';
    // a short option's first letter). Unless every_option, the modifier and tile options
    // (most of a subcommand's options, and most of CLI11's set-up time) are added only
    // when named there; --help, and any parse error, set the command line up again with
    // every option, so help and messages are the same.
    std::vector<std::string> typed;
    bool every_option = true;
    FigureHooks figure;  // this command line's (lanescope_cli_main_with)
};

// Whether an option of these CLI11 names ("-w,--wave") is set up: always with
// every_option, else only when the command line names it.
// The options typed on the command line (their names, into o.typed), and whether --help asks for
// every option (unless every_option, only the typed ones are set up: sets_up_option).
void note_typed_options(Options& o, int argc, char** argv, bool every_option);
bool sets_up_option(const Options& o, std::string_view names);

// Whether subcommand `name` gets its options: only the invoked one does. Every
// subcommand is still registered, so --help and the unknown-subcommand message
// list them all with their descriptions.
inline bool sets_up(const Options& o, const std::string& name) { return o.invoked == name; }
// Every subcommand's name. When the command line names one of them, only that one
// is registered; otherwise (no subcommand, --help, a typo) all are, without their
// options, so --help and the unknown-subcommand message list them. A name missing
// here is still registered (with every other subcommand): only slower to start.
const std::vector<std::string>& subcommand_names();
// Whether subcommand `name` is registered at all (see subcommand_names()).
inline bool registers(const Options& o, const std::string& name) { return !o.alone || o.invoked == name; }

// Empty values ("--waves ''") are usage errors everywhere, as "--reg ''" is:
// throws UsageError naming the first empty option of `app` or its parsed subcommands.
void refuse_empty_values(const CLI::App& app);
// Messages name an option as it was typed: a message that starts with an option's
// long name (--instruction) starts instead with the spelling the command line used
// (-i), and CLI11's "1 required TEXT missing" says what the value is.
std::string name_options_as_typed(const std::string& message, const CLI::App& app, int argc, char** argv);
// A parse error's message: CLI11's, with its options named as typed; unknown options
// named one by one with the nearest legal option and the subcommand's options.
std::string parse_error_text(const CLI::ParseError& e, const CLI::App& app, int argc, char** argv);
// The options given on the command line of o.sub that are not in `allowed` (long names).
std::vector<std::string> given_options_except(const Options& o, const std::vector<std::string>& allowed);

// A registered subcommand: its CLI11 node and what runs when it was chosen.
struct Command {
    CLI::App* sub;
    std::function<int()> run;
};

const ls::Catalog& catalog(const Options& o);
// The targets `list` shows without --arch: one per family, in order: the family's first, or with a
// search the one with the most matches (a Blackwell spelling is legal on sm_100a, not on sm_100).
std::vector<const ls::Target*> list_targets(const ls::Catalog& cat, const std::string& search);
using lanescope::parse_format;  // request.hpp
using lanescope::parse_view;
ls::Operand parse_operand_or_throw(const std::string& s, const ls::Instruction& ins);

struct Resolved {
    const ls::Target* target;
    const ls::Instruction* ins;
    ls::Query query;
};
// Refuses, as typed, a shared-memory or Tensor Memory modifier asked of a --operand that lives elsewhere.
void refuse_other_space_modifiers(const Options& o, const Resolved& r);
// Target, instruction and validated modifiers from the options; throws ls::Error.
Resolved resolve(const Options& o);
// The whole text of a file ("-": standard input, or a front end's input in process); throws
// ls::Error naming it.
std::string read_text_file(const std::string& path);
// printf to standard output and error, through ls::files (write_stdout, write_stderr), so that a
// front end running the CLI in process (ls::files::Capture) takes every byte; never std::printf.
void out_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
void err_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
// lanescope-cli's own process (cli_main.cpp's main says so): only there is /proc/self/exe
// lanescope-cli. In process (the Python module: /proc/self/exe is the interpreter; the web page;
// the fuzzers) the CLI starts no copy of itself and looks for nothing beside its executable.
void mark_own_process();
bool own_process();
// The lanescope-cli executable to start for `what` (bench's whole-process measurements); throws
// UsageError outside lanescope-cli's own process, saying so.
std::string own_executable(const std::string& what);
// Writes to o.out atomically (temp file + rename; special files written through),
// or to stdout; a failed write throws ls::Error.
int emit(const Options& o, const std::string& text);
// The same for output produced piece by piece: written as it comes (never held
// whole), made the target's only when complete; nothing is left if it throws.
int emit_streamed(const Options& o, const std::function<void(ls::TextSink&)>& produce);
// --arch, --instruction, [--operand], the modifiers, --format, -o/--out.
void add_target_options(CLI::App* sub, Options& o, bool with_operand);
// The modifier flags (--cbsz ... --wave), strictly parsed.
void add_modifier_options(CLI::App* sub, Options& o);
// The NVIDIA shared-memory descriptor flags (--major, --swizzle except on load/figure, --lbo, --sbo,
// --smem-address, --base-offset, --descriptor); part of add_modifier_options.
void add_smem_options(CLI::App* sub, Options& o);
// A whole number in decimal or 0x hexadecimal, 0..hi; throws ls::Error naming `flag`.
std::uint64_t parse_number64(const std::string& text, std::uint64_t hi, const std::string& flag);
// An integer flag parsed strictly (no sign unless lo < 0, no empty text, no overflow), in lo..hi.
CLI::Option* add_int_option(CLI::App* sub, const std::string& names, int& into, int lo, int hi, const std::string& help);
CLI::Option* add_size_option(CLI::App* sub, const std::string& names, size_t& into, int lo, int hi, const std::string& help);
CLI::Option* add_double_option(CLI::App* sub, const std::string& names, double& into, double lo, double hi,
                               const std::string& help);

// Tile options: --waves WMxWN, --tiles-per-wave RMxRN, --shape TMxTN[xTK].
void add_tile_options(CLI::App* sub, Options& o);
// Checks the form of --waves, --tiles-per-wave and --shape while parsing: a
// malformed value is a usage error (exit 2); a well-formed tile the instruction
// cannot make is a bad query (exit 1), as an illegal --cbsz is.
void check_tile_option_forms(CLI::App* sub);
bool tile_mode(const Options& o);
// Parses the tile options strictly; throws ls::Error naming the option and the legal form.
ls::TileParams tile_params(const Options& o);

// The memory tile options of `load` and `figure` (memory_options.cpp).
struct MemoryArgs {
    std::string memory = "lds";
    std::string order = "row";
    int ld = -1;
    int pad = 0;
    std::string swizzle;
    bool transpose = false;
    bool store = false;
    std::string grouping;
    bool ld_shared = false;  // NVIDIA: plain ld.shared / st.shared instead of ldmatrix / stmatrix
};
// --memory, --order, --ld, --pad, --swizzle, --transpose, --store, --grouping, --ld-shared.
void add_memory_options(CLI::App* sub, MemoryArgs& a);
// Whether any of those was given on the command line.
bool memory_options_given(const CLI::App* sub);
// The request they describe for o.operand of the resolved instruction (element
// size the operand's, ld defaulting to the contiguous extent), checked; throws
// ls::Error naming what is wrong and what is legal.
ls::MemoryRequest memory_request(const Options& o, const MemoryArgs& a, const Resolved& r);

// Groups of subcommands defined in their own files.
void register_figure_commands(CLI::App& app, Options& o, std::vector<Command>& out);  // cmd_figure.cpp
void register_verify_commands(CLI::App& app, Options& o, std::vector<Command>& out);  // cmd_verify.cpp
void register_load_commands(CLI::App& app, Options& o, std::vector<Command>& out);    // cmd_load.cpp
void register_smem_commands(CLI::App& app, Options& o, std::vector<Command>& out);    // cmd_smem.cpp (tma, banks)
// `load --memory smem` (cmd_smem.cpp): an NVIDIA operand read through a matrix descriptor.
int run_smem_load(const Options& o, const MemoryArgs& a, const CLI::App* sub, const std::string& tma_box);
// The operand of o read through a shared-memory descriptor (wgmma A with smem_a set, --swizzle
// read as the descriptor's word), as `load --memory smem` and `figure --memory smem` take it;
// throws Error naming the operands legal when o.operand is not read through a descriptor.
struct SmemPick {
    Resolved r;
    ls::Operand op;
    ls::SmemOperand so;
};
SmemPick pick_smem_operand(const Options& o, const MemoryArgs& a);
// Whether `load` of o.operand goes to shared memory through a descriptor (--memory smem on a
// wgmma / tcgen05.mma operand, or a wgmma B / tcgen05 operand with --memory not given); mma.sync
// operands with --memory smem are planned as ldmatrix / ld.shared loads (memory_request).
bool smem_load_requested(const Options& o, const MemoryArgs& a, const CLI::App* sub);

}  // namespace lscli
