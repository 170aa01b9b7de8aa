// `lanescope-cli load`: how each lane loads (or stores) its operand
// from a tile in LDS or global memory: per-lane addresses, the vector accesses
// chosen, LDS bank conflicts, global coalescing; table, CSV, JSON or HIP code.
#include "common.hpp"

#include "lanescope/header.hpp"
#include "lanescope/memory.hpp"
#include "lanescope/render_memory.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

namespace lscli {

namespace {

struct LoadArgs : MemoryArgs {
    std::string name;     // --namespace for --format hip
    bool tables = false;  // --tables: --format hip with the address table instead of closed forms
    bool sweep = false;   // --sweep: rank paddings and swizzles (sweep_memory)
    int top = 10;         // --sweep: rows shown (0: all)
    std::string tma_box;  // --tma-box D0xD1 (NVIDIA shared memory): does the descriptor read back a TMA box?
};

// A word as the shell reads it back: quoted unless it is plain.
std::string shell_word(const std::string& w) {
    bool plain = !w.empty();
    for (char c : w)
        if (!std::isalnum(static_cast<unsigned char>(c)) && std::string("_./,:=+-").find(c) == std::string::npos) plain = false;
    if (plain) return w;
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// The load command the sweep's rows complete: the options given, less those the sweep chooses or that
// only shape its own output.
std::string sweep_base_command(const Options& o, const CLI::App* sub) {
    std::string s = "lanescope-cli";
    if (!o.catalog.empty()) s += " --catalog " + shell_word(o.catalog);
    s += " load";
    const std::vector<std::string> drop = {"--sweep", "--top", "--format", "--out", "--help"};
    for (const CLI::Option* opt : sub->get_options()) {
        if (opt->count() == 0) continue;
        std::string names = opt->get_name(false, true);
        const std::string longest = names.substr(names.find_last_of(',') + 1);
        if (std::find(drop.begin(), drop.end(), longest) != drop.end()) continue;
        s += " " + longest;
        if (opt->get_expected_min() == 0) continue;  // a flag
        for (const std::string& v : opt->results()) s += " " + shell_word(v);
    }
    return s;
}

int run_sweep(const Options& o, const LoadArgs& a, const CLI::App* sub) {
    for (const char* flag : {"--pad", "--swizzle", "--transpose", "--ld-shared", "--namespace", "--tables"})
        if (sub->get_option(flag)->count() > 0)
            throw UsageError(std::string(flag) + " does not go with --sweep: the sweep " +
                             (std::string(flag) == "--namespace" || std::string(flag) == "--tables"
                                  ? "writes a ranking, not HIP code"
                                  : "tries the paddings, swizzles, transpose loads (AMD) and ld.shared (NVIDIA) itself") +
                             "; legal with --sweep: the target, instruction and operand, --memory, --order, --ld, "
                             "--store, --grouping, the tile options, --top N, --format table|csv|markdown|json, -o");
    // hip conflicts with --sweep (exit 2); a word that is no format at all is a bad query, as for load (exit 1).
    if (o.format == "hip") throw UsageError("--format hip does not go with --sweep; legal: table, csv, markdown, json");
    if (o.format != "table" && o.format != "csv" && o.format != "json" && o.format != "markdown" && o.format != "md")
        throw ls::Error("--format '" + o.format + "' is not legal for load --sweep; legal: table, csv, markdown, json");
    Resolved r = resolve(o);
    const ls::MemoryRequest req = memory_request(o, a, r);
    const ls::SweepReport s = ls::sweep_memory(r.query, req);
    return emit(o, ls::render_sweep(r.query, req, s, parse_format(o.format), sweep_base_command(o, sub), a.top));
}

int run_load(const Options& o, const LoadArgs& a, const CLI::App* sub) {
    if (o.operand == "all" || o.operand == "ALL") throw ls::Error("load takes one operand (--operand A, B, C or D), not all");
    if (smem_load_requested(o, a, sub)) return run_smem_load(o, a, sub, a.tma_box);
    if (o.row >= 0 || o.col >= 0)
        throw UsageError("--row / --col pick one scale factor of --memory smem --operand SFA|SFB (block-scaled tcgen05.mma); "
                         "legal here: leave them out");
    if (!a.tma_box.empty())
        throw UsageError("--tma-box compares a TMA box with a shared-memory descriptor: it goes with --memory smem (wgmma, "
                         "tcgen05.mma operands)");
    if (a.sweep) return run_sweep(o, a, sub);
    if (sub->get_option("--top")->count() > 0)
        throw UsageError("--top N counts the rows of --sweep; without --sweep load plans one layout; legal: add "
                         "--sweep, or leave --top out");
    const bool hip = o.format == "hip";
    if (!hip && !a.name.empty())
        throw UsageError("--namespace names the generated code of --format hip; it does not apply to --format " + o.format +
                         "; legal: --format hip --namespace NAME, or leave --namespace out");
    if (!hip && a.tables)
        throw UsageError("--tables chooses the address tables of --format hip; it does not apply to --format " + o.format +
                         "; legal: --format hip --tables, or leave --tables out");
    if (!hip && o.format != "table" && o.format != "csv" && o.format != "json" && o.format != "markdown" && o.format != "md")
        throw ls::Error("--format '" + o.format + "' is not legal for load; legal: table, csv, markdown, json, hip");
    Resolved r = resolve(o);
    const ls::MemoryRequest req = memory_request(o, a, r);
    try {
        if (hip) {
            std::string name = a.name;
            if (name.empty()) {
                name = "ls_" + r.target->gfx + "_" + r.ins->key(r.query.mods.wave) + "_" +
                       std::string(ls::operand_name(req.operand)) + (a.store ? "_store" : a.transpose ? "_load_tr" : "_load");
                for (char& c : name)
                    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
            } else {
                ls::check_namespace_name(name, "--namespace");
            }
            return emit(o, ls::render_memory_hip(r.query, req, ls::plan_memory(r.query, req), name, a.tables));
        }
        return emit(o, ls::render_memory(r.query, req, parse_format(o.format)));
    } catch (const ls::Error& e) {
        // core's refusal already says what is legal; name the option it concerns.
        if (a.transpose) throw ls::Error(std::string("--transpose: ") + e.what());
        if ((r.query.mods.cbsz || r.query.mods.abid) && std::string(e.what()).find("share register bits") != std::string::npos)
            throw ls::Error(std::string(e.what()) + " (CBSZ/ABID broadcast one block's A to the others inside the "
                            "instruction); legal: --cbsz 0 --abid 0, the registers as loaded before the broadcast");
        throw;
    }
}

}  // namespace

void register_load_commands(CLI::App& app, Options& o, std::vector<Command>& out) {
    if (!registers(o, "load")) return;
    // The arguments belong to this command line: its run (in `out`) owns them, CLI11 writes into them.
    const auto args = std::make_shared<LoadArgs>();
    LoadArgs& a = *args;
    CLI::App* sub = app.add_subcommand(
        "load", "how each lane loads (or --store stores) an operand from a tile in LDS or global memory: per-lane "
                "addresses, the vector accesses chosen, LDS bank conflicts, global coalescing");
    out.push_back({sub, [&o, sub, args] { return run_load(o, *args, sub); }});
    if (!sets_up(o, "load")) return;
    add_target_options(sub, o, true);
    sub->get_option("--format")->description("output: table, csv, markdown, json (the contract of docs/memory.md), hip");
    add_memory_options(sub, a);
    sub->add_option("--namespace", a.name, "--format hip: namespace of the generated code");
    sub->add_flag("--tables", a.tables, "--format hip: a constexpr address table instead of closed-form addresses (host-side checks)");
    sub->add_flag("--sweep", a.sweep,
                  "rank paddings, XOR swizzles and (where legal) --transpose for this operand by LDS bank cycles (global: "
                  "cache lines) against the conflict-free minimum, then instructions per wave (docs/memory.md)");
    add_int_option(sub, "--top", a.top, 0, 1000000, "--sweep: rows shown, best first (default 10; 0: all)");
    add_tile_options(sub, o);
    add_int_option(sub, "--row", o.row, 0, 1 << 20,
                   "--memory smem --operand SFA|SFB: one scale factor's path (SFA: row m; SFB: the K-block)");
    add_int_option(sub, "--col", o.col, 0, 1 << 20, "--memory smem --operand SFA|SFB: SFA: the K-block; SFB: column n");
    sub->add_option("--tma-box", a.tma_box, "--memory smem: a TMA box D0xD1 written at --smem-address with the same "
                                            "swizzle; says whether the descriptor reads it back element by element");
    sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
}

}  // namespace lscli
