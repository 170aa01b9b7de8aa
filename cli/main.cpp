// lanescope-cli: headless queries of the layout engine.
//
// Subcommands are a table of {name, help, options, handler}; each handler gets
// the parsed options and returns an exit status. Errors from the engine are
// lanescope::Error: printed to stderr, exit status 1. Usage errors: status 2.
#include "lanescope/lanescope.hpp"
#include "lanescope/render.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ls = lanescope;
namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultArch = "cdna3";
constexpr const char* kDefaultInstruction = "v_mfma_f32_32x32x8_f16";

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
    bool all = false;
};

const ls::Catalog& catalog(const Options& o) {
    static std::unique_ptr<ls::Catalog> loaded;
    if (o.catalog.empty()) return ls::Catalog::builtin();
    if (!loaded) loaded = std::make_unique<ls::Catalog>(ls::Catalog::load_file(o.catalog));
    return *loaded;
}

ls::Format parse_format(const std::string& s) {
    if (s == "table") return ls::Format::Table;
    if (s == "csv") return ls::Format::Csv;
    if (s == "markdown" || s == "md") return ls::Format::Markdown;
    if (s == "json") return ls::Format::Json;
    throw ls::Error("unknown format '" + s + "'; legal: table, csv, markdown, json");
}

ls::View parse_view(const std::string& s) {
    if (s == "matrix") return ls::View::Matrix;
    if (s == "registers" || s == "register") return ls::View::Registers;
    throw ls::Error("unknown view '" + s + "'; legal: matrix, registers");
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

struct Resolved {
    const ls::Target* target;
    const ls::Instruction* ins;
    ls::Query query;
};

Resolved resolve(const Options& o) {
    const ls::Catalog& cat = catalog(o);
    const ls::Target& t = cat.find_target(o.arch);
    int implied_wave = 0;
    const ls::Instruction& ins = cat.find_instruction(t, o.instruction, &implied_wave);
    ls::Modifiers m = o.mods;
    if (implied_wave) {
        if (m.wave >= 0 && m.wave != implied_wave)
            throw ls::Error("--wave " + std::to_string(m.wave) + " contradicts the builtin name " + o.instruction +
                            " (wave" + std::to_string(implied_wave) + ")");
        m.wave = implied_wave;
    }
    Resolved r{&t, &ins, {}};
    r.query.ins = &ins;
    r.query.target = &t;
    r.query.mods = ls::resolve_modifiers(ins, t, m);
    return r;
}

// Writes to --out atomically (temp file + rename), or to stdout.
int emit(const Options& o, const std::string& text) {
    if (o.out.empty() || o.out == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    fs::path target(o.out);
    fs::path tmp = target;
    tmp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream f(tmp, std::ios::binary);
        if (!f) throw ls::Error("cannot write '" + o.out + "': the directory does not exist or is not writable");
        f << text;
        if (!f.flush()) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throw ls::Error("cannot write '" + o.out + "': write failed (disk full?)");
        }
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw ls::Error("cannot write '" + o.out + "': " + ec.message());
    }
    return 0;
}

int cmd_list(const Options& o) {
    const ls::Catalog& cat = catalog(o);
    std::vector<const ls::Target*> targets;
    if (o.list_arch.empty() || o.list_arch == "all") {
        // One target per family, in order.
        for (ls::Family f : {ls::Family::CDNA1, ls::Family::CDNA2, ls::Family::CDNA3, ls::Family::CDNA4,
                             ls::Family::RDNA3, ls::Family::RDNA4})
            for (const auto& t : cat.targets())
                if (t.family == f) {
                    targets.push_back(&t);
                    break;
                }
    } else {
        targets.push_back(&cat.find_target(o.list_arch));
    }
    return emit(o, ls::render_list(cat, targets, parse_format(o.format)));
}

int cmd_info(const Options& o) {
    Resolved r = resolve(o);
    return emit(o, ls::render_info(r.query, parse_format(o.format)));
}

int cmd_layout(const Options& o) {
    Resolved r = resolve(o);
    const ls::Format f = parse_format(o.format);
    const ls::View v = parse_view(o.view);
    if (o.operand == "all" || o.operand == "ALL") {
        std::string text;
        auto ops = ls::operands_of(*r.ins);
        if (f == ls::Format::Json) text += "[\n";
        for (size_t n = 0; n < ops.size(); ++n) {
            ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, ops[n], r.query.mods);
            text += ls::render_layout(r.query, L, v, f);
            if (f == ls::Format::Json && n + 1 < ops.size()) text += ",";
            if (f != ls::Format::Json) text += "\n";
        }
        if (f == ls::Format::Json) text += "]\n";
        return emit(o, text);
    }
    ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods);
    return emit(o, ls::render_layout(r.query, L, v, f));
}

int cmd_where(const Options& o) {
    Resolved r = resolve(o);
    if (o.row < 0 || o.col < 0) throw ls::Error("where needs --row R and --col C (and --block B on multi-block instructions)");
    ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods);
    return emit(o, ls::render_where(r.query, L, {o.block, o.row, o.col}, parse_format(o.format)));
}

int cmd_which(const Options& o) {
    Resolved r = resolve(o);
    if (o.reg < 0 || o.lane < 0) throw ls::Error("which needs --reg G and --lane L");
    ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods);
    return emit(o, ls::render_which(r.query, L, o.reg, o.lane, parse_format(o.format)));
}

int cmd_trace(const Options& o) {
    Resolved r = resolve(o);
    if (o.row < 0 || o.col < 0) throw ls::Error("trace needs --row I and --col J of D (and --block B on multi-block instructions)");
    ls::OperandLayout D = ls::layout_of(*r.ins, *r.target, ls::Operand::D, r.query.mods);
    D.where({o.block, o.row, o.col});  // range check with a clear message
    ls::Trace t = ls::trace(*r.ins, *r.target, r.query.mods, {o.block, o.row, o.col});
    return emit(o, ls::render_trace(r.query, t, parse_format(o.format)));
}

// Every layout of the catalog (every target family, wave size, operand; default
// modifiers) as JSON: into files under --out, or only into memory.
struct ExportStats {
    size_t layouts = 0, entries = 0, bytes = 0;
};
ExportStats export_all(const ls::Catalog& cat, const std::string& dir) {
    ExportStats st;
    if (!dir.empty()) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec || !fs::is_directory(dir)) throw ls::Error("cannot create directory '" + dir + "'");
    }
    for (ls::Family fam : {ls::Family::CDNA1, ls::Family::CDNA2, ls::Family::CDNA3, ls::Family::CDNA4,
                           ls::Family::RDNA3, ls::Family::RDNA4}) {
        const ls::Target* t = nullptr;
        for (const auto& x : cat.targets())
            if (x.family == fam) {
                t = &x;
                break;
            }
        for (const ls::Instruction* ins : cat.on(fam))
            for (int wave : t->wave_sizes) {
                ls::Modifiers m;
                m.wave = wave;
                ls::Query q{ins, t, ls::resolve_modifiers(*ins, *t, m)};
                for (ls::Operand op : ls::operands_of(*ins)) {
                    ls::OperandLayout L = ls::layout_of(*ins, *t, op, q.mods);
                    std::string json = ls::render_layout(q, L, ls::View::Matrix, ls::Format::Json);
                    ++st.layouts;
                    st.entries += L.entries().size();
                    st.bytes += json.size();
                    if (!dir.empty()) {
                        std::string name = std::string(ls::family_name(fam)) + "_" + ins->builtin(wave).substr(17) +
                                           "_" + std::string(ls::operand_name(op)) + ".json";
                        std::ofstream f(fs::path(dir) / name, std::ios::binary);
                        if (!(f << json)) throw ls::Error("cannot write '" + (fs::path(dir) / name).string() + "'");
                    }
                }
            }
    }
    return st;
}

int cmd_export(const Options& o) {
    if (o.out.empty()) throw ls::Error("export needs --out DIR");
    auto t0 = std::chrono::steady_clock::now();
    ExportStats st = export_all(catalog(o), o.out);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("wrote %zu layouts (%zu entries, %.1f MB) to %s in %.0f ms\n", st.layouts, st.entries, st.bytes / 1e6,
                o.out.c_str(), ms);
    return 0;
}

// Speed goals: one `layout` query as a whole process under 5 ms; every layout
// of the catalog as JSON under 1 s.
int cmd_bench(const Options& o) {
    const ls::Catalog& cat = catalog(o);
    auto t0 = std::chrono::steady_clock::now();
    ExportStats st = export_all(cat, "");
    double export_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("export every layout as JSON (in memory): %zu layouts, %zu entries, %.1f MB in %.1f ms (goal < 1000 ms)\n",
                st.layouts, st.entries, st.bytes / 1e6, export_ms);

    std::string self = fs::read_symlink("/proc/self/exe").string();
    const char* argv[] = {self.c_str(), "layout", "--arch", "cdna3", "--instruction", "v_mfma_f32_32x32x1_2b_f32",
                          "--operand", "C", "--format", "json", nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::vector<double> times;
    for (int n = 0; n < o.runs; ++n) {
        auto s = std::chrono::steady_clock::now();
        pid_t pid;
        if (posix_spawn(&pid, self.c_str(), &actions, nullptr, const_cast<char**>(argv), environ) != 0)
            throw ls::Error("cannot start " + self);
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw ls::Error("the timed layout query failed");
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
    }
    posix_spawn_file_actions_destroy(&actions);
    std::sort(times.begin(), times.end());
    std::printf("one `layout --format json` query (32x32x1 2-block C, 2048 entries) as a whole process, %d runs: "
                "median %.2f ms, p90 %.2f ms, max %.2f ms (goal < 5 ms)\n",
                o.runs, times[times.size() / 2], times[times.size() * 9 / 10], times.back());
    return 0;
}

void add_target_options(CLI::App* sub, Options& o, bool with_operand) {
    sub->add_option("-a,--arch", o.arch,
                     "architecture: family (cdna1..cdna4, rdna3, rdna3.5, rdna4), gfx id (gfx942) or product (mi300x)")
        ->capture_default_str();
    sub->add_option("-i,--instruction", o.instruction,
                    "ISA mnemonic (either spelling) or builtin name, case-insensitive")
        ->capture_default_str();
    if (with_operand)
        sub->add_option("-o,--operand", o.operand, "operand: A, B, C, D, K (sparse index), SA, SB (scales); layout: all")
            ->capture_default_str();
    sub->add_option("--cbsz", o.mods.cbsz, "CBSZ: A broadcast size (MFMA), A format (mfma_scale), index-set gate (SMFMAC)");
    sub->add_option("--abid", o.mods.abid, "ABID: broadcast block (MFMA), sparse index set (SMFMAC)");
    sub->add_option("--blgp", o.mods.blgp, "BLGP: B lane-group pattern 0-7 (MFMA), B format (mfma_scale), f64 negation");
    sub->add_option("--opsel", o.mods.opsel,
                    "OPSEL as encoded: 4 = op_sel:[0,0,1] (RDNA3 16-bit C/D high half), index_key (RDNA4 SWMMAC), "
                    "scale byte (mfma_scale)");
    sub->add_option("--opsel-a", o.mods.opsel_a, "mfma_scale: byte of the A-scale VGPR (0-3)");
    sub->add_option("--opsel-b", o.mods.opsel_b, "mfma_scale: byte of the B-scale VGPR (0-3)");
    sub->add_option("-w,--wave", o.mods.wave, "wave size on RDNA: 32 (default) or 64");
    sub->add_option("-f,--format", o.format, "output: table, csv, markdown, json")->capture_default_str();
    sub->add_option("--out", o.out, "write to this file instead of stdout");
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"lanescope-cli: where every element of an AMD GPU matrix instruction lives (lane, VGPR, bits).\n"
                 "Examples:\n"
                 "  lanescope-cli list --arch gfx942\n"
                 "  lanescope-cli layout --arch cdna3 --instruction v_mfma_f32_32x32x8_f16 --operand C\n"
                 "  lanescope-cli where --arch gfx1100 -i wmma_f32_16x16x16_f16_w32 --operand A --row 3 --col 5\n"
                 "  lanescope-cli which --arch mi300x -i v_mfma_f32_16x16x16_f16 --operand D --reg 2 --lane 17\n"
                 "  lanescope-cli trace --arch cdna3 -i v_mfma_f32_32x32x1_2b_f32 --row 4 --col 7 --block 1\n",
                 "lanescope-cli"};
    app.require_subcommand(1);
    app.add_option("--catalog", o.catalog, "use this catalog file instead of the built-in one");
    app.set_version_flag("--version", "lanescope-cli 0.1.0");

    struct Command {
        const char* name;
        const char* help;
        int (*run)(const Options&);
        CLI::App* sub = nullptr;
    };
    Command commands[] = {
        {"list", "list the catalog (per architecture, with counts)", cmd_list},
        {"info", "an instruction's facts and layout formulas", cmd_info},
        {"layout", "a whole operand: each element's slots (--view matrix) or each slot's elements (--view registers)",
         cmd_layout},
        {"where", "where one element lives: --row R --col C [--block B]", cmd_where},
        {"which", "what one register of one lane holds: --reg G --lane L", cmd_which},
        {"trace", "every A, B, C (K, SA, SB) location that feeds one D element: --row I --col J [--block B]",
         cmd_trace},
        {"export", "write every layout of the catalog as JSON files into --out DIR", cmd_export},
        {"bench", "measure the speed goals (whole-process query time, export of every layout)", cmd_bench},
    };
    for (Command& c : commands) {
        c.sub = app.add_subcommand(c.name, c.help);
        const std::string name = c.name;
        if (name == "list") {
            c.sub->add_option("-a,--arch", o.list_arch, "only this architecture (default: one target per family)");
            c.sub->add_option("-f,--format", o.format, "output: table, csv, markdown, json")->capture_default_str();
            c.sub->add_option("--out", o.out, "write to this file instead of stdout");
        } else if (name == "export") {
            c.sub->add_option("--out", o.out, "directory for the JSON files")->required();
        } else if (name == "bench") {
            c.sub->add_option("--runs", o.runs, "process launches to time")->capture_default_str()->check(CLI::Range(1, 100000));
        } else {
            add_target_options(c.sub, o, name != "info");
        }
        if (name == "layout")
            c.sub->add_option("--view", o.view, "matrix (element -> slots) or registers (slot -> elements)")
                ->capture_default_str();
        if (name == "where" || name == "trace") {
            c.sub->add_option("--row", o.row, "row index")->required();
            c.sub->add_option("--col", o.col, "column index")->required();
            c.sub->add_option("--block", o.block, "block index (multi-block instructions)")->capture_default_str();
        }
        if (name == "which") {
            c.sub->add_option("--reg", o.reg, "register, counted from the operand's first VGPR")->required();
            c.sub->add_option("--lane", o.lane, "lane")->required();
        }
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        for (Command& c : commands)
            if (c.sub->parsed()) return c.run(o);
    } catch (const ls::Error& e) {
        std::fprintf(stderr, "lanescope-cli: error: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lanescope-cli: internal error: %s\n", e.what());
        return 3;
    }
    return 2;
}
