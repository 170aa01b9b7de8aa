// Shared pieces of lanescope-cli's subcommands.
#include "common.hpp"

#include "lanescope/files.hpp"
#include "lanescope/numbers.hpp"
#include "lanescope/options.hpp"
#include "lanescope/search.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace lscli {

namespace fs = std::filesystem;

const std::vector<std::string>& subcommand_names() {
    static const std::vector<std::string> kNames = {"list",   "info",  "layout", "where",  "which",       "trace",
                                                    "header", "check", "export", "bench",  "figure",      "gallery",
                                                    "verify", "conformance", "load", "tma", "banks"};
    return kNames;
}

std::vector<const ls::Target*> list_targets(const ls::Catalog& cat, const std::string& search) {
    std::vector<const ls::Target*> targets;
    for (ls::Family f : ls::all_families()) {
        const ls::Target* pick = nullptr;
        size_t most = 0;
        for (const auto& t : cat.targets()) {
            if (t.family != f) continue;
            const size_t n = search.empty() ? 0 : ls::search(cat, t, search).size();
            if (!pick || n > most) pick = &t, most = n;
            if (search.empty()) break;
        }
        if (pick) targets.push_back(pick);
    }
    return targets;
}

// --catalog FILE, loaded once per file as it is now: a process that runs the CLI many times (the
// Python module, the web page) gets the catalog each call names. Keyed by the path and the file's
// identity and time, so an edited file is read again; every catalog loaded stays (a reference one
// call took stays valid).
const ls::Catalog& catalog(const Options& o) {
    static std::mutex mu;
    static std::map<std::string, std::unique_ptr<ls::Catalog>> loaded;
    if (o.catalog.empty()) return ls::Catalog::builtin();
    struct stat st {};
    std::string key = o.catalog;
    if (::stat(o.catalog.c_str(), &st) == 0)
        key += "\n" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
               std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    std::lock_guard<std::mutex> lock(mu);
    std::unique_ptr<ls::Catalog>& c = loaded[key];
    if (!c) {
        try {
            c = std::make_unique<ls::Catalog>(ls::Catalog::load_file(o.catalog));
        } catch (...) {
            loaded.erase(key);
            throw;
        }
    }
    return *c;
}

ls::Operand parse_operand_or_throw(const std::string& s, const ls::Instruction& ins) {
    auto op = ls::parse_operand(s);
    if (!op) {
        std::string legal;
        for (auto o : ls::operands_of(ins)) legal += (legal.empty() ? "" : ", ") + std::string(ls::operand_name(o));
        throw ls::Error("unknown operand '" + s + "'; legal for " + ins.mnemonic + ": " + legal);
    }
    return *op;
}

Resolved resolve(const Options& o) {
    // No silent default instruction: the answer must be for what was asked.
    if (o.arch.empty() || o.instruction.empty())
        throw UsageError(o.command + " needs " +
                         std::string(o.arch.empty() && o.instruction.empty() ? "--arch and --instruction"
                                     : o.arch.empty()                          ? "--arch"
                                                                                : "--instruction") +
                         " (e.g. --arch gfx942 --instruction v_mfma_f32_32x32x8_f16); `lanescope-cli list` lists them");
    // The built-in catalog: only the target's family is read.
    const ls::Catalog* user = o.catalog.empty() ? nullptr : &catalog(o);
    const ls::Target& t = user ? user->find_target(o.arch) : ls::Catalog::target(o.arch);
    const ls::Catalog& cat = user ? *user : ls::Catalog::builtin(t.family);
    int implied_wave = 0;
    const ls::Instruction& ins = cat.find_instruction(t, o.instruction, &implied_wave);
    ls::Modifiers m = o.mods;
    if (implied_wave) {
        if (m.wave >= 0 && m.wave != implied_wave)
            throw ls::Error(o.wave_flag + " " + std::to_string(m.wave) + " contradicts the builtin name " + o.instruction +
                            " (wave" + std::to_string(implied_wave) + "); legal: " + o.wave_flag + " " +
                            std::to_string(implied_wave) + " or no " + o.wave_flag + " (or the _w" +
                            std::to_string(m.wave) + " builtin)");
        m.wave = implied_wave;
    }
    Resolved r{&t, &ins, {}};
    r.query.ins = &ins;
    r.query.target = &t;
    try {
        r.query.mods = ls::resolve_modifiers(ins, t, m);
    } catch (const ls::Error& e) {  // core names the field --wave; say the spelling that was typed
        std::string what = e.what();
        if (o.wave_flag == "--wave" || what.rfind("--wave ", 0) != 0) throw;
        for (size_t at = what.find("--wave "); at != std::string::npos; at = what.find("--wave ", at + o.wave_flag.size()))
            what.replace(at, 6, o.wave_flag);
        throw ls::Error(what);
    }
    refuse_other_space_modifiers(o, r);
    return r;
}

// The operand --operand names, when it was given and is one operand (not "all" or a word the command
// refuses itself): what the operand-specific refusals below are asked about.
std::optional<ls::Operand> named_operand(const Options& o) {
    const CLI::Option* named = o.sub ? o.sub->get_option_no_throw("--operand") : nullptr;
    return named && named->count() > 0 ? ls::parse_operand(o.operand) : std::nullopt;
}

// Modifiers of one location space shape only the operands that live there: a matrix descriptor's
// fields the operands in shared memory, the tcgen05.ld read-back the D in Tensor Memory. Asked with
// --operand naming an operand elsewhere they would change nothing, so they are refused, as typed.
void refuse_other_space_modifiers(const Options& o, const Resolved& r) {
    const std::optional<ls::Operand> parsed = named_operand(o);
    if (!parsed) return;
    const ls::Operand op = *parsed == ls::Operand::C ? ls::Operand::D : *parsed;
    const ls::Instruction& ins = *r.ins;
    const std::vector<ls::Operand> ops = ls::operands_of(ins);
    if (std::find(ops.begin(), ops.end(), *parsed) == ops.end()) return;  // the command names the legal operands
    const ls::Space space = ls::operand_space(ins, op, r.query.mods);
    const std::string name = std::string(ls::operand_name(*parsed)) + " of " + ins.mnemonic;
    const bool wgmma = ins.kind == ls::LayoutKind::Wgmma, tcgen05 = ins.kind == ls::LayoutKind::Tcgen05Mma;
    if ((wgmma || tcgen05) && space != ls::Space::SharedMemory)
        for (const ls::ModifierOption& opt : ls::modifier_options()) {  // the descriptor fields: core's "smem" group
            if (opt.group != "smem") continue;
            const bool given = opt.field == "descriptor" ? o.mods.descriptor.has_value() : ls::modifier_value(o.mods, opt.field) >= 0;
            if (!given) continue;
            const std::string flag = opt.flag();
            throw UsageError(flag + " describes an operand in shared memory, read through a matrix descriptor; " + name +
                             " lives in " + std::string(ls::space_title(space)) + "; legal: --operand B" +
                             (ins.a_in_tmem ? "" : " or A") +
                             (wgmma ? " (A of the SS form: `lanescope-cli load --memory smem --operand A`)" : "") +
                             ", or leave " + flag + " out");
        }
    if (tcgen05 && op != ls::Operand::D) {
        const ls::Modifiers& m = o.mods;
        const std::pair<const char*, bool> given[] = {{"--tmem-load", m.tmem_load > 0}, {"--num-warps", m.num_warps >= 0},
                                                      {"--half-split", m.half_split >= 0}};
        for (const auto& [flag, set] : given)
            if (set)
                throw UsageError(std::string(flag) + " chooses how D is read back from Tensor Memory (tcgen05.ld); " + name +
                                 " is not D; legal: --operand D (or C), or leave " + flag + " out");
    }
}

std::string read_text_file(const std::string& path) { return ls::files::read_input_text(path); }

namespace {
void vprint(bool to_err, const char* format, va_list args) {
    va_list again;
    va_copy(again, args);
    char small[1024];
    const int n = std::vsnprintf(small, sizeof small, format, args);
    std::string text;
    if (n >= static_cast<int>(sizeof small)) {
        text.resize(static_cast<size_t>(n) + 1);
        std::vsnprintf(text.data(), text.size(), format, again);
        text.resize(static_cast<size_t>(n));
    } else if (n > 0) {
        text.assign(small, static_cast<size_t>(n));
    }
    va_end(again);
    if (to_err) ls::files::write_stderr(text);
    else ls::files::write_stdout(text);
}
bool g_own_process = false;
}  // namespace

void out_printf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    vprint(false, format, args);
    va_end(args);
}

void err_printf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    vprint(true, format, args);
    va_end(args);
}

void mark_own_process() { g_own_process = true; }
bool own_process() { return g_own_process; }

std::string own_executable(const std::string& what) {
    if (!own_process())
        throw UsageError(what + " times lanescope-cli as whole processes, and this process is not lanescope-cli "
                                "(run in process, e.g. from Python, it would start the host program instead); "
                                "legal: run `lanescope-cli " + what + "` from a shell");
    std::error_code ec;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec || self.empty()) throw ls::Error("cannot find lanescope-cli's own executable (/proc/self/exe): " + ec.message());
    return self;
}

int emit(const Options& o, const std::string& text) {
    ls::files::write_output(o.out, text);
    return 0;
}

int emit_streamed(const Options& o, const std::function<void(ls::TextSink&)>& produce) {
    ls::files::OutputFile file(o.out);
    ls::TextSink sink([&file](std::string_view chunk) { file.write(chunk); });
    produce(sink);
    sink.finish();
    file.commit();
    return 0;
}

void note_typed_options(Options& o, int argc, char** argv, bool every_option) {
    for (int n = 1; n < argc && !every_option; ++n) {
        const std::string_view w = argv[n];
        if (w == "--") break;
        if (w.size() < 2 || w[0] != '-' || (w[1] >= '0' && w[1] <= '9')) continue;
        const std::string_view name = w[1] == '-' ? w.substr(0, w.find('=')) : w.substr(0, 2);
        if (name == "--help" || name == "-h") o.every_option = true;
        o.typed.emplace_back(name);
    }
}

bool sets_up_option(const Options& o, std::string_view names) {
    if (o.every_option) return true;
    for (size_t from = 0; from <= names.size();) {
        const size_t comma = std::min(names.find(',', from), names.size());
        const std::string_view name = names.substr(from, comma - from);
        if (std::find(o.typed.begin(), o.typed.end(), name) != o.typed.end()) return true;
        from = comma + 1;
    }
    return false;
}

void add_tile_options(CLI::App* sub, Options& o) {
    const bool any = sets_up_option(o, "--waves") || sets_up_option(o, "--tiles-per-wave") || sets_up_option(o, "--shape") ||
                     sets_up_option(o, "--k-width") || sets_up_option(o, "--transposed");
    if (!any) return;
    const std::string limits = " (" + ls::tile_limits_help() + ")";
    sub->add_option("--waves", o.waves, "tile: wave grid WMxWN (Triton's warpsPerCTA), e.g. 2x2; WM x WN at most " +
                                            std::to_string(ls::TileLimits::waves) + limits);
    sub->add_option("--tiles-per-wave", o.tiles_per_wave,
                    "tile: instruction tiles per wave RMxRN (tilesPerWarp), e.g. 2x1; RM x RN at most " +
                        std::to_string(ls::TileLimits::tiles_per_wave));
    sub->add_option("--shape", o.shape,
                    "tile: tensor shape TMxTN or TMxTNxTK (C/D is TMxTN, A TMxTK, B TKxTN); default one wave-grid tile; "
                    "at most " + std::to_string(ls::TileLimits::cells) + " elements per operand");
    sub->add_option_function<std::string>(
           "--k-width",
           [&o](const std::string& text) {
               try {
                   o.k_width = ls::parse_k_width(text);
               } catch (const ls::Error& e) {
                   throw CLI::ValidationError(e.what());
               }
           },
           "tile: Triton's kWidth of A and B (DotOperandLayout k_width): consecutive K elements per lane and register "
           "group; default the instruction's own; WMMA: 8|16 (RDNA3), 4|8|16 (RDNA4), 2|8|16 (gfx1250)")
        ->type_name("N");
    sub->add_flag("--transposed", o.transposed,
                  "tile: Triton's isTransposed (AMDMFMALayout) / transposed (AMDWMMALayout): C and D with lanes along M");
    check_tile_option_forms(sub);
}

void check_tile_option_forms(CLI::App* sub) {
    for (const char* flag : {"--waves", "--tiles-per-wave", "--shape"}) {
        CLI::Option* opt = sub->get_option_no_throw(flag);
        if (!opt) continue;
        const std::string name = flag;
        opt->check(
            [name](const std::string& text) -> std::string {
                try {
                    ls::parse_tile_params(name == "--waves" ? text : "", name == "--tiles-per-wave" ? text : "",
                                          name == "--shape" ? text : "");
                    if (text.empty())
                        return name + " '' is empty; legal: " +
                               (name == "--shape" ? "TMxTN or TMxTNxTK" : name == "--waves" ? "WMxWN" : "RMxRN") +
                               " (e.g. 2x2), or leave the option out";
                } catch (const ls::Error& e) {
                    return e.what();
                }
                return "";
            },
            "", "");
    }
}

void refuse_empty_values(const CLI::App& app) {
    std::vector<const CLI::App*> apps = {&app};
    for (const CLI::App* sub : app.get_subcommands()) apps.push_back(sub);
    for (const CLI::App* a : apps)
        for (const CLI::Option* opt : a->get_options()) {
            if (opt->count() == 0 || opt->get_type_size_max() == 0) continue;  // absent, or a flag
            for (const std::string& v : opt->results())
                if (v.empty()) {
                    std::string name = opt->get_name(false, true);
                    const std::string longest = name.substr(name.find_last_of(',') + 1);
                    // "Leave it out" only where that is legal: not for an option the subcommand needs (CLI11's
                    // required, or one whose help says "(required)" because the subcommand checks it itself).
                    const std::string& help = opt->get_description();
                    const bool says = help.find("(required") != std::string::npos;
                    throw UsageError(longest + " '' is empty; legal: " + help +
                                     (says ? "" : opt->get_required() ? " (the option is required)" : " (or leave the option out)"));
                }
        }
}

namespace {
// Every option of `app` and of its registered subcommands.
std::vector<const CLI::Option*> every_option(const CLI::App& app) {
    std::vector<const CLI::Option*> out = app.get_options();
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        for (const CLI::Option* opt : sub->get_options()) out.push_back(opt);
    return out;
}

// The name messages give an option: its last (longest) name, "--wave" of "-w,--wave".
std::string canonical_name(const CLI::Option& opt) {
    const std::string names = opt.get_name(false, true);
    return names.substr(names.find_last_of(',') + 1);
}

// The name of `opt` that the command line used ("-w" for -w 48 or -w48, "--wave" for
// --wave=48), or "" when it was not given.
std::string typed_name(const CLI::Option& opt, int argc, char** argv) {
    for (int n = 1; n < argc; ++n) {
        const std::string w = argv[n];
        if (w == "--") break;
        if (w.rfind("--", 0) == 0) {
            const std::string name = w.substr(2, w.find('=') - 2);
            for (const std::string& l : opt.get_lnames())
                if (l == name) return "--" + name;
        } else if (w.size() >= 2 && w[0] == '-' && !std::isdigit(static_cast<unsigned char>(w[1]))) {
            for (const std::string& sn : opt.get_snames())
                if (sn.size() == 1 && sn[0] == w[1]) return "-" + sn;
        }
    }
    return "";
}
}  // namespace

std::string name_options_as_typed(const std::string& message, const CLI::App& app, int argc, char** argv) {
    for (const CLI::Option* opt : every_option(app)) {
        const std::string canonical = canonical_name(*opt);
        if (canonical.empty() || message.compare(0, canonical.size(), canonical) != 0) continue;
        const char next = message.size() > canonical.size() ? message[canonical.size()] : ' ';
        if (next != ' ' && next != ':') continue;
        std::string typed = typed_name(*opt, argc, argv);
        if (typed.empty()) typed = canonical;
        std::string out = typed + message.substr(canonical.size());
        // CLI11's "--instruction: 1 required TEXT missing": say what the value is.
        const std::string missing = ": 1 required ";
        if (out.compare(typed.size(), missing.size(), missing) == 0 && out.size() > 8 &&
            out.compare(out.size() - 8, 8, " missing") == 0)
            out = typed + " needs a value (" + canonical + ": " + opt->get_description() + ")";
        return out;
    }
    return message;
}

std::string parse_error_text(const CLI::ParseError& e, const CLI::App& app, int argc, char** argv) {
    const std::string what = e.what();
    if (what.rfind("The following argument", 0) != 0) return name_options_as_typed(what, app, argc, argv);
    // Unknown options: name each as typed, with the subcommand's nearest option.
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
        if (s->parsed()) sub = s;
    std::vector<std::string> names;   // the options legal here
    std::vector<std::string> hidden;  // known here, but refused whenever given (not in --help)
    for (const CLI::App* a : {&app, sub}) {
        if (!a) continue;
        for (const CLI::Option* opt : a->get_options()) {
            if (opt->get_group().empty()) {  // hidden: kept only to be refused with the reason, not offered
                for (const std::string& l : opt->get_lnames()) hidden.push_back("--" + l);
                for (const std::string& sn : opt->get_snames()) hidden.push_back("-" + sn);
                continue;
            }
            for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
            for (const std::string& sn : opt->get_snames()) names.push_back("-" + sn);
        }
    }
    std::string out;
    for (int n = 1; n < argc; ++n) {
        const std::string w = argv[n];
        if (w == "--") break;
        if (w.size() < 2 || w[0] != '-' || std::isdigit(static_cast<unsigned char>(w[1]))) continue;
        const std::string name = w.rfind("--", 0) == 0 ? w.substr(0, w.find('=')) : w.substr(0, 2);
        if (std::find(names.begin(), names.end(), name) != names.end() ||
            std::find(hidden.begin(), hidden.end(), name) != hidden.end())
            continue;
        out += (out.empty() ? "" : "\n") + std::string("unknown option '") + name + "'" +
               (sub ? " for " + sub->get_name() : std::string());
        const auto near = ls::closest(name, names, 2);
        if (!near.empty()) out += "; did you mean '" + near.front() + "'?";
    }
    if (out.empty()) return what;
    std::string legal;
    for (const std::string& nm : names)
        if (nm.rfind("--", 0) == 0 && nm != "--help") legal += " " + nm;
    return out + "\nlegal options" + (sub ? " of " + sub->get_name() : std::string()) + ":" + legal;
}

std::vector<std::string> given_options_except(const Options& o, const std::vector<std::string>& allowed) {
    std::vector<std::string> out;
    if (!o.sub) return out;
    for (const CLI::Option* opt : o.sub->get_options()) {
        if (opt->count() == 0) continue;
        std::string names = opt->get_name(false, true);
        const std::string longest = names.substr(names.find_last_of(',') + 1);
        if (longest == "--help" || longest == "-h") continue;
        if (std::find(allowed.begin(), allowed.end(), longest) == allowed.end()) out.push_back(longest);
    }
    return out;
}

bool tile_mode(const Options& o) {
    return !o.waves.empty() || !o.tiles_per_wave.empty() || !o.shape.empty() || o.k_width != 0 || o.transposed;
}

ls::TileParams tile_params(const Options& o) {
    ls::TileParams p = ls::parse_tile_params(o.waves, o.tiles_per_wave, o.shape);
    p.k_width = o.k_width;
    p.transposed = o.transposed;
    // kWidth is Triton's parameter of the dot operands A and B, transposed of the accumulator C/D: asked of
    // the other kind by --operand they would change nothing (with --operand all each goes where it applies).
    const std::optional<ls::Operand> op = named_operand(o);
    if (op && p.k_width != 0 && (*op == ls::Operand::C || *op == ls::Operand::D))
        throw ls::Error("--k-width applies to A and B (Triton's DotOperandLayout kWidth); " + std::string(ls::operand_name(*op)) +
                        " is the accumulator, whose layout does not depend on it; legal: --operand A or B, or leave --k-width "
                        "out (C and D take --transposed)");
    if (op && p.transposed && (*op == ls::Operand::A || *op == ls::Operand::B))
        throw ls::Error("--transposed applies to C and D (Triton's transposed MFMA/WMMA accumulator); " +
                        std::string(ls::operand_name(*op)) + " is a dot operand, whose layout does not depend on it; legal: "
                        "--operand C or D, or leave --transposed out (A and B take --k-width)");
    return p;
}

namespace {
// One flag whose text `parse(text, flag)` turns into its value, or refuses with
// an ls::Error saying what is legal (reported by CLI11 as a usage error).
template <typename T, typename Parse>
CLI::Option* add_parsed_option(CLI::App* sub, const std::string& names, T& into, Parse parse, const std::string& help,
                               const char* type) {
    const std::string flag = names.substr(names.find_last_of(',') + 1);
    return sub
        ->add_option_function<std::string>(
            names,
            [&into, parse, flag](const std::string& text) {
                try {
                    into = parse(text, flag);
                } catch (const ls::Error& e) {
                    throw CLI::ValidationError(e.what());
                }
            },
            help)
        ->type_name(type);
}

std::string range_text(int lo, int hi) { return " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")"; }
}  // namespace

CLI::Option* add_int_option(CLI::App* sub, const std::string& names, int& into, int lo, int hi, const std::string& help) {
    auto parse = [lo, hi](const std::string& text, const std::string& flag) {
        return static_cast<int>(ls::parse_integer(text, lo, hi, flag));
    };
    return add_parsed_option(sub, names, into, parse, help + range_text(lo, hi), "INT");
}

CLI::Option* add_size_option(CLI::App* sub, const std::string& names, size_t& into, int lo, int hi,
                             const std::string& help) {
    auto parse = [lo, hi](const std::string& text, const std::string& flag) {
        return static_cast<size_t>(ls::parse_integer(text, lo, hi, flag));
    };
    return add_parsed_option(sub, names, into, parse, help + range_text(lo, hi), "INT");
}

CLI::Option* add_double_option(CLI::App* sub, const std::string& names, double& into, double lo, double hi,
                               const std::string& help) {
    auto parse = [lo, hi](const std::string& text, const std::string& flag) { return ls::parse_decimal(text, lo, hi, flag); };
    return add_parsed_option(sub, names, into, parse, help, "NUMBER");
}

namespace {
// One row of core's option table (lanescope/options.hpp) as an option of `sub`.
void add_table_option(CLI::App* sub, Options& o, const ls::ModifierOption& row) {
    if (!sets_up_option(o, row.names)) return;
    const std::string flag = row.flag();
    sub->add_option_function<std::string>(
           std::string(row.names),
           [&o, &row, flag](const std::string& text) {
               try {
                   ls::apply_option_value(o.mods, row, ls::parse_option_value(row, text, flag));
               } catch (const ls::Error& e) {
                   throw CLI::ValidationError(e.what());
               }
           },
           ls::option_help(row))
        ->type_name(std::string(row.type));
}
}  // namespace

void add_modifier_options(CLI::App* sub, Options& o) {
    // Wide ranges here; each instruction's legal values are checked (and listed) after.
    for (const ls::ModifierOption& row : ls::modifier_options())
        if (row.group != "smem") add_table_option(sub, o, row);
    add_smem_options(sub, o);
}

std::uint64_t parse_number64(const std::string& text, std::uint64_t hi, const std::string& flag) {
    return ls::parse_number64(text, hi, flag);
}

void add_smem_options(CLI::App* sub, Options& o) {
    // NVIDIA shared-memory descriptors (wgmma B and SS A, tcgen05.mma A/B): lanescope/smem.hpp.
    const std::string name = sub->get_name();
    for (const ls::ModifierOption& row : ls::modifier_options()) {
        if (row.group != "smem") continue;
        // load's and figure's --swizzle is the memory options' (smem words with --memory smem).
        if (row.field == "swizzle" && (name == "load" || name == "figure")) continue;
        add_table_option(sub, o, row);
    }
}

void add_target_options(CLI::App* sub, Options& o, bool with_operand) {
    sub->add_option("-a,--arch", o.arch,
                    "architecture (required): family (cdna1..cdna5, rdna3, rdna3.5, rdna4, ampere, ada, hopper), gfx or "
                    "sm id (gfx942, sm_90) or product (mi300x, h100)");
    sub->add_option("-i,--instruction", o.instruction,
                    "ISA mnemonic (either spelling) or builtin name; NVIDIA: PTX spelling or short name; "
                    "case-insensitive (required)");
    if (with_operand)
        sub->add_option("--operand", o.operand, "operand: A, B, C, D, K (sparse index), SA, SB (scales; SFA, SFB as PTX and CUTLASS name tcgen05's); layout: all")
            ->capture_default_str();
    add_modifier_options(sub, o);
    sub->add_option("-f,--format", o.format, "output: table, csv, markdown, json; layout also linear (Triton's LinearLayout bases), cute (CuTe shape:stride), gluon (Gluon constructors)")->capture_default_str();
    sub->add_option("-o,--out", o.out, "write to this file (atomically; - for stdout) instead of stdout");
}

}  // namespace lscli
