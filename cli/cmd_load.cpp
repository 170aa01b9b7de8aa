// `lanescope-cli load` (issue 13): how each lane loads (or stores) its operand
// from a tile in LDS or global memory: per-lane addresses, the vector accesses
// chosen, LDS bank conflicts, global coalescing; table, CSV, JSON or HIP code.
#include "common.hpp"

#include "lanescope/header.hpp"
#include "lanescope/memory.hpp"

#include <cctype>

namespace lscli {

namespace {

struct LoadArgs : MemoryArgs {
    std::string name;     // --namespace for --format hip
    bool tables = false;  // --tables: --format hip with the address table instead of closed forms
};

int run_load(const Options& o, const LoadArgs& a) {
    if (o.operand == "all" || o.operand == "ALL") throw ls::Error("load takes one operand (--operand A, B, C or D), not all");
    const bool hip = o.format == "hip";
    if (!hip && !a.name.empty())
        throw UsageError("--namespace names the generated code of --format hip; it does not apply to --format " + o.format);
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
    static LoadArgs a;
    if (!registers(o, "load")) return;
    CLI::App* sub = app.add_subcommand(
        "load", "how each lane loads (or --store stores) an operand from a tile in LDS or global memory: per-lane "
                "addresses, the vector accesses chosen, LDS bank conflicts, global coalescing");
    out.push_back({sub, [&o] { return run_load(o, a); }});
    if (!sets_up(o, "load")) return;
    add_target_options(sub, o, true);
    sub->get_option("--format")->description("output: table, csv, markdown, json (the contract of docs/memory.md), hip");
    add_memory_options(sub, a);
    sub->add_option("--namespace", a.name, "--format hip: namespace of the generated code");
    sub->add_flag("--tables", a.tables, "--format hip: a constexpr address table instead of closed-form addresses (host-side checks)");
    add_tile_options(sub, o);
    sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
}

}  // namespace lscli
