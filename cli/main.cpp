// lanescope-cli: headless queries of the layout engine.
//
// Subcommands are a table of {name, help, options, handler}; each handler gets
// the parsed options and returns an exit status. Errors from the engine are
// lanescope::Error: printed to stderr, exit status 1. Usage errors: status 2.
#include "common.hpp"

#include "lanescope/cute.hpp"

#include <algorithm>
#include <array>
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

using namespace lscli;
namespace fs = std::filesystem;

namespace {

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

// A linear layout handed to us (--linear FILE), shown element by element.
std::string render_given_linear(const ls::LinearLayout& L, const std::string& format) {
    if (format == "linear") return ls::render_linear(L);
    const ls::Format f = parse_format(format);
    // (row, col) -> every (warp, lane, register index) that maps there.
    std::vector<std::vector<std::array<int, 3>>> at(static_cast<size_t>(L.rows) * L.cols);
    for (int w = 0; w < L.warp_count(); ++w)
        for (int l = 0; l < L.lane_count(); ++l)
            for (int r = 0; r < L.reg_count(); ++r) {
                auto rc = L.apply(r, l, w);
                at[static_cast<size_t>(rc.first) * L.cols + rc.second].push_back({w, l, r});
            }
    std::string s;
    if (f == ls::Format::Json) {
        s = "{\"rows\": " + std::to_string(L.rows) + ", \"cols\": " + std::to_string(L.cols) + ", \"entries\": [\n";
        bool first = true;
        for (int row = 0; row < L.rows; ++row)
            for (int col = 0; col < L.cols; ++col)
                for (const auto& x : at[static_cast<size_t>(row) * L.cols + col]) {
                    s += first ? "" : ",\n";
                    first = false;
                    s += "{\"row\": " + std::to_string(row) + ", \"col\": " + std::to_string(col) + ", \"wave\": " +
                         std::to_string(x[0]) + ", \"lane\": " + std::to_string(x[1]) + ", \"index\": " + std::to_string(x[2]) + "}";
                }
        return s + "\n]}\n";
    }
    std::vector<std::vector<std::string>> rows;
    if (f == ls::Format::Csv) {
        rows.push_back({"row", "col", "wave", "lane", "index"});
        for (int row = 0; row < L.rows; ++row)
            for (int col = 0; col < L.cols; ++col)
                for (const auto& x : at[static_cast<size_t>(row) * L.cols + col])
                    rows.push_back({std::to_string(row), std::to_string(col), std::to_string(x[0]), std::to_string(x[1]),
                                    std::to_string(x[2])});
        return ls::render_grid(rows, f);
    }
    std::vector<std::string> head = {"row\\col"};
    for (int c = 0; c < L.cols; ++c) head.push_back(std::to_string(c));
    rows.push_back(head);
    for (int row = 0; row < L.rows; ++row) {
        std::vector<std::string> line = {std::to_string(row)};
        for (int col = 0; col < L.cols; ++col) {
            std::string cell;
            for (const auto& x : at[static_cast<size_t>(row) * L.cols + col])
                cell += (cell.empty() ? "" : " ") + std::string("w") + std::to_string(x[0]) + ":L" + std::to_string(x[1]) +
                        ":i" + std::to_string(x[2]);
            line.push_back(cell.empty() ? "-" : cell);
        }
        rows.push_back(line);
    }
    return "Linear layout: " + std::to_string(L.reg_count()) + " register indices x " + std::to_string(L.lane_count()) +
           " lanes x " + std::to_string(L.warp_count()) + " waves over " + std::to_string(L.rows) + " x " +
           std::to_string(L.cols) + " (cells: wave:lane:register index)\n\n" + ls::render_grid(rows, f);
}

std::string linear_of(const Resolved& r, ls::Operand op, const ls::TileParams& tp) {
    ls::TileLayout t(*r.ins, *r.target, op, r.query.mods, tp);
    ls::LinearResult res = ls::to_linear(t);
    if (!res.layout)
        throw ls::Error("the layout of " + std::string(ls::operand_name(op)) + " of " + r.ins->mnemonic +
                        " is not linear over GF(2), so it has no linear-layout form: " + res.why_not);
    return ls::render_linear(*res.layout);
}

std::string cute_of(const Resolved& r, ls::Operand op, const ls::TileParams& tp) {
    ls::TileLayout t(*r.ins, *r.target, op, r.query.mods, tp);
    ls::CuteResult res = ls::to_cute(t);
    if (!res.layout)
        throw ls::Error("the (lane, value) -> element map of " + std::string(ls::operand_name(op)) + " of " + r.ins->mnemonic +
                        " is not expressible as a CuTe layout: " + res.why_not);
    return res.layout->text() + "\n";
}

int cmd_layout(const Options& o) {
    if (!o.linear_file.empty()) {
        ls::LinearLayout L = ls::parse_linear(read_text_file(o.linear_file), o.linear_file);
        return emit(o, render_given_linear(L, o.format));
    }
    Resolved r = resolve(o);
    if (o.format == "cute") {
        const ls::TileParams tp = tile_params(o);
        if (o.operand == "all" || o.operand == "ALL") {
            std::string text;
            for (ls::Operand op : ls::operands_of(*r.ins)) text += std::string(ls::operand_name(op)) + ": " + cute_of(r, op, tp);
            return emit(o, text);
        }
        return emit(o, cute_of(r, parse_operand_or_throw(o.operand, *r.ins), tp));
    }
    if (o.format == "linear") {
        const ls::TileParams tp = tile_params(o);
        if (o.operand == "all" || o.operand == "ALL") {
            std::string text = "[\n";
            auto ops = ls::operands_of(*r.ins);
            for (size_t n = 0; n < ops.size(); ++n) text += linear_of(r, ops[n], tp) + (n + 1 < ops.size() ? ",\n" : "");
            return emit(o, text + "]\n");
        }
        return emit(o, linear_of(r, parse_operand_or_throw(o.operand, *r.ins), tp));
    }
    const ls::Format f = parse_format(o.format);
    const ls::View v = parse_view(o.view);
    const bool tiled = tile_mode(o);
    const ls::TileParams tp = tiled ? tile_params(o) : ls::TileParams{};
    auto render = [&](ls::Operand op) {
        if (tiled) return ls::render_tile_layout(r.query, ls::TileLayout(*r.ins, *r.target, op, r.query.mods, tp), v, f);
        return ls::render_layout(r.query, ls::layout_of(*r.ins, *r.target, op, r.query.mods), v, f);
    };
    if (o.operand == "all" || o.operand == "ALL") {
        std::string text;
        auto ops = ls::operands_of(*r.ins);
        if (f == ls::Format::Json) text += "[\n";
        for (size_t n = 0; n < ops.size(); ++n) {
            text += render(ops[n]);
            if (f == ls::Format::Json && n + 1 < ops.size()) text += ",";
            if (f != ls::Format::Json) text += "\n";
        }
        if (f == ls::Format::Json) text += "]\n";
        return emit(o, text);
    }
    return emit(o, render(parse_operand_or_throw(o.operand, *r.ins)));
}

int cmd_where(const Options& o) {
    Resolved r = resolve(o);
    if (o.row < 0 || o.col < 0) throw ls::Error("where needs --row R and --col C (and --block B on multi-block instructions)");
    if (tile_mode(o)) {
        ls::TileLayout t(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods, tile_params(o));
        return emit(o, ls::render_tile_where(r.query, t, {o.block, o.row, o.col}, parse_format(o.format)));
    }
    ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods);
    return emit(o, ls::render_where(r.query, L, {o.block, o.row, o.col}, parse_format(o.format)));
}

int cmd_which(const Options& o_in) {
    // In tile mode --wave names a wave of the tile and --wave-size the wave size.
    Options o = o_in;
    if (tile_mode(o)) {
        o.wave_index = o.mods.wave < 0 ? 0 : o.mods.wave;
        o.mods.wave = o.wave_size;
    } else if (o.wave_size >= 0) {
        if (o.mods.wave >= 0 && o.mods.wave != o.wave_size)
            throw ls::Error("--wave " + std::to_string(o.mods.wave) + " contradicts --wave-size " + std::to_string(o.wave_size));
        o.mods.wave = o.wave_size;
    }
    Resolved r = resolve(o);
    if (o.reg < 0 || o.lane < 0) throw ls::Error("which needs --reg G and --lane L");
    if (tile_mode(o)) {
        ls::TileLayout t(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods, tile_params(o));
        return emit(o, ls::render_tile_which(r.query, t, o.wave_index, o.reg, o.lane, parse_format(o.format)));
    }
    ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, parse_operand_or_throw(o.operand, *r.ins), r.query.mods);
    return emit(o, ls::render_which(r.query, L, o.reg, o.lane, parse_format(o.format)));
}

// Exit status of `check` when the layouts differ (0: equal; 1: bad input).
constexpr int kCheckDiffers = 5;

std::string placements_text(const std::vector<ls::Placement>& ps) {
    std::string s;
    for (const auto& p : ps) s += (s.empty() ? "" : " ") + p.label();
    return s.empty() ? "(nowhere)" : s;
}

int cmd_check(const Options& o) {
    if (o.layout_file.empty()) throw ls::Error("check needs --layout FILE (the JSON contract, CSV or a linear layout)");
    Resolved r = resolve(o);
    const ls::Operand op = parse_operand_or_throw(o.operand, *r.ins);
    ls::GivenLayout given = ls::parse_layout_text(read_text_file(o.layout_file), o.layout_file);
    if (!given.operand.empty() && given.operand != ls::operand_name(op))
        throw ls::Error(o.layout_file + " describes operand " + given.operand + ", not " + std::string(ls::operand_name(op)) +
                        " (--operand)");
    ls::CheckResult res = tile_mode(o) ? ls::check_layout(ls::TileLayout(*r.ins, *r.target, op, r.query.mods, tile_params(o)), given)
                                       : ls::check_layout(ls::layout_of(*r.ins, *r.target, op, r.query.mods), given);
    const std::string what = std::string(ls::operand_name(op)) + " of " + r.ins->mnemonic + " on " + r.target->gfx;
    std::string text;
    if (o.format == "json") {
        text = "{\"equal\": " + std::string(res.equal ? "true" : "false") + ", \"elements\": " + std::to_string(res.elements) +
               ", \"note\": " + ls::json_string(res.note) + ", \"differences\": [";
        for (size_t n = 0; n < res.differences.size(); ++n) {
            const auto& d = res.differences[n];
            auto list = [](const std::vector<ls::Placement>& ps) {
                std::string s = "[";
                for (size_t i = 0; i < ps.size(); ++i) s += (i ? ", " : "") + ls::json_string(ps[i].label());
                return s + "]";
            };
            text += (n ? ",\n" : "\n") + std::string("{\"block\": ") + std::to_string(d.element.block) + ", \"row\": " +
                    std::to_string(d.element.row) + ", \"col\": " + std::to_string(d.element.col) + ", \"lanescope\": " +
                    list(d.expected) + ", \"given\": " + list(d.given) + "}";
        }
        text += "]}\n";
    } else if (res.equal) {
        text = "equal: " + o.layout_file + " places all " + std::to_string(res.elements) + " elements of " + what +
               " as lanescope does\n";
    } else {
        text = "differ: " + o.layout_file + " places " + std::to_string(res.differences.size()) + " of " +
               std::to_string(res.elements) + " elements of " + what + " differently from lanescope\n";
        if (!res.note.empty()) text += "note: " + res.note + "\n";
        const size_t shown = std::min<size_t>(res.differences.size(), 200);
        std::vector<std::vector<std::string>> rows = {{"element", "lanescope", "given"}};
        for (size_t n = 0; n < shown; ++n) {
            const auto& d = res.differences[n];
            rows.push_back({ls::element_label(op, d.element, d.element.block ? 2 : 1), placements_text(d.expected),
                            placements_text(d.given)});
        }
        text += ls::render_grid(rows, ls::Format::Table);
        if (shown < res.differences.size())
            text += "... and " + std::to_string(res.differences.size() - shown) + " more (--format json lists all)\n";
    }
    emit(o, text);
    return res.equal ? 0 : kCheckDiffers;
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

    struct CoreCommand {
        const char* name;
        const char* help;
        int (*run)(const Options&);
        CLI::App* sub = nullptr;
    };
    CoreCommand core_commands[] = {
        {"list", "list the catalog (per architecture, with counts)", cmd_list},
        {"info", "an instruction's facts and layout formulas", cmd_info},
        {"layout", "a whole operand: each element's slots (--view matrix) or each slot's elements (--view registers)",
         cmd_layout},
        {"where", "where one element lives: --row R --col C [--block B]", cmd_where},
        {"which", "what one register of one lane holds: --reg G --lane L", cmd_which},
        {"trace", "every A, B, C (K, SA, SB) location that feeds one D element: --row I --col J [--block B]",
         cmd_trace},
        {"check", "compare a layout (JSON contract, CSV or linear, --layout FILE) with lanescope's: exit 0 equal, 5 differ",
         cmd_check},
        {"export", "write every layout of the catalog as JSON files into --out DIR", cmd_export},
        {"bench", "measure the speed goals (whole-process query time, export of every layout)", cmd_bench},
    };
    std::vector<Command> commands;
    for (CoreCommand& c : core_commands) {
        c.sub = app.add_subcommand(c.name, c.help);
        commands.push_back({c.sub, [&o, run = c.run] { return run(o); }});
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
        if (name == "layout") {
            c.sub->add_option("--view", o.view, "matrix (element -> slots) or registers (slot -> elements)")
                ->capture_default_str();
            c.sub->add_option("--linear", o.linear_file,
                              "show a linear layout read from FILE ({\"register\": [[r, c], ...], \"lane\": ..., "
                              "\"warp\": ..., \"shape\": [R, C]}); --format table, csv, json or linear");
        }
        if (name == "where" || name == "trace") {
            c.sub->add_option("--row", o.row, "row index")->required();
            c.sub->add_option("--col", o.col, "column index")->required();
            c.sub->add_option("--block", o.block, "block index (multi-block instructions)")->capture_default_str();
        }
        if (name == "which") {
            c.sub->add_option("--reg", o.reg, "register, counted from the operand's first VGPR")->required();
            c.sub->add_option("--lane", o.lane, "lane")->required();
            c.sub->add_option("--wave-size", o.wave_size, "wave size on RDNA (32 or 64); with tile options, --wave is the wave index");
        }
        if (name == "layout" || name == "where" || name == "which" || name == "check") add_tile_options(c.sub, o);
        if (name == "check")
            c.sub->add_option("--layout", o.layout_file, "the layout to check: the JSON contract, CSV or a linear layout")
                ->required();
    }

    register_figure_commands(app, o, commands);
    register_verify_commands(app, o, commands);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        for (Command& c : commands)
            if (c.sub->parsed()) return c.run();
    } catch (const ls::Error& e) {
        std::fprintf(stderr, "lanescope-cli: error: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lanescope-cli: internal error: %s\n", e.what());
        return 3;
    }
    return 2;
}
