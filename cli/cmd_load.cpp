// `lanescope-cli load` (issue 13): how each lane loads (or stores) its operand
// from a tile in LDS or global memory: per-lane addresses, the vector accesses
// chosen, LDS bank conflicts, global coalescing; table, CSV, JSON or HIP code.
#include "common.hpp"

#include "lanescope/memory.hpp"
#include "lanescope/numbers.hpp"

#include <cctype>

namespace lscli {

namespace {

struct LoadArgs {
    std::string memory = "lds";
    std::string order = "row";
    int ld = -1;
    int pad = 0;
    std::string swizzle;
    bool transpose = false;
    bool store = false;
    std::string grouping;
    std::string name;  // --namespace for --format hip
};

ls::XorSwizzle parse_swizzle(const std::string& text) {
    const std::string form = "VEC,PER_PHASE,MAX_PHASE (e.g. 8,1,8; VEC 0 = no swizzle)";
    std::vector<long long> v;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        try {
            v.push_back(ls::parse_integer(part, 0, 65536, "--swizzle"));
        } catch (const ls::Error& e) {
            throw ls::Error("--swizzle '" + text + "' is not legal: expected " + form + " (" + e.what() + ")");
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (v.size() != 3) throw ls::Error("--swizzle '" + text + "' is not legal: expected " + form);
    if (v[1] < 1 || v[2] < 1)
        throw ls::Error("--swizzle '" + text + "' is not legal: PER_PHASE and MAX_PHASE must be >= 1 (" + form + ")");
    return {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
}

int run_load(const Options& o, const LoadArgs& a) {
    if (o.operand == "all" || o.operand == "ALL") throw ls::Error("load takes one operand (--operand A, B, C or D), not all");
    if (a.memory != "lds" && a.memory != "global")
        throw ls::Error("--memory '" + a.memory + "' is not legal; legal: lds, global");
    if (a.order != "row" && a.order != "col")
        throw ls::Error("--order '" + a.order + "' is not legal; legal: row (row-major), col (column-major)");
    const bool hip = o.format == "hip";
    if (!hip && o.format != "table" && o.format != "csv" && o.format != "json" && o.format != "markdown" && o.format != "md")
        throw ls::Error("--format '" + o.format + "' is not legal for load; legal: table, csv, markdown, json, hip");
    Resolved r = resolve(o);
    ls::MemoryRequest req;
    req.operand = parse_operand_or_throw(o.operand, *r.ins);
    req.transpose = a.transpose;
    req.store = a.store;
    req.grouping = a.grouping;
    if (tile_mode(o)) req.tiles = tile_params(o);
    req.tile.space = a.memory == "lds" ? ls::MemorySpace::Lds : ls::MemorySpace::Global;
    req.tile.order = a.order == "row" ? ls::MemoryOrder::RowMajor : ls::MemoryOrder::ColMajor;
    req.tile.pad = a.pad;
    if (!a.swizzle.empty()) req.tile.swizzle = parse_swizzle(a.swizzle);
    // The layout first: its element size, and the default ld (the contiguous extent).
    const auto [rows, cols] = ls::memory_extent(r.query, req);
    if (req.tiles && !req.tiles->single())
        req.tile.element_bits = ls::TileLayout(*r.ins, *r.target, req.operand, r.query.mods, *req.tiles).instruction().element_bits();
    else
        req.tile.element_bits = ls::layout_of(*r.ins, *r.target, req.operand, r.query.mods).element_bits();
    req.tile.ld = a.ld > 0 ? a.ld : ls::contiguous_extent(req.tile.order, rows, cols);
    ls::check_memory_tile(req.tile, rows, cols);
    try {
        if (hip) {
            std::string name = a.name;
            if (name.empty()) {
                name = "ls_" + r.target->gfx + "_" + r.ins->key(r.query.mods.wave) + "_" +
                       std::string(ls::operand_name(req.operand)) + (a.store ? "_store" : a.transpose ? "_load_tr" : "_load");
                for (char& c : name)
                    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
            } else {
                bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
                for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
                if (!ok) throw ls::Error("--namespace '" + name + "' is not a C++ identifier; legal: letters, digits, _");
            }
            return emit(o, ls::render_memory_hip(r.query, req, name));
        }
        return emit(o, ls::render_memory(r.query, req, parse_format(o.format)));
    } catch (const ls::Error& e) {
        if (a.transpose)
            throw ls::Error(std::string("--transpose: ") + e.what() +
                            " (transpose loads exist on gfx950 for LDS and on gfx1200/gfx1201 for global memory; "
                            "without --transpose lanescope plans plain loads)");
        throw;
    }
}

}  // namespace

void register_load_commands(CLI::App& app, Options& o, std::vector<Command>& out) {
    static LoadArgs a;
    CLI::App* sub = app.add_subcommand(
        "load", "how each lane loads (or --store stores) an operand from a tile in LDS or global memory: per-lane "
                "addresses, the vector accesses chosen, LDS bank conflicts, global coalescing");
    add_target_options(sub, o, true);
    sub->get_option("--format")->description("output: table, csv, markdown, json (the contract of docs/memory.md), hip");
    sub->add_option("--memory", a.memory, "where the tile lies: lds or global")->capture_default_str();
    sub->add_option("--order", a.order, "row (row-major) or col (column-major)")->capture_default_str();
    add_int_option(sub, "--ld", a.ld, 1, 1 << 24, "leading dimension in elements (default: the tile's contiguous extent)");
    add_int_option(sub, "--pad", a.pad, 0, 1 << 24, "elements of padding after each line (default 0)");
    sub->add_option("--swizzle", a.swizzle, "XOR swizzle VEC,PER_PHASE,MAX_PHASE: pos ^= VEC*((line/PER_PHASE)%MAX_PHASE)");
    sub->add_flag("--transpose", a.transpose, "use the hardware transpose loads (gfx950 ds_read_*_tr_*, gfx12 global_load_tr_*)");
    sub->add_flag("--store", a.store, "plan the stores of C/D instead of loads");
    sub->add_option("--grouping", a.grouping, "LDS pass grouping to analyse banks with (the table lists those offered)");
    sub->add_option("--namespace", a.name, "--format hip: namespace of the generated code");
    add_tile_options(sub, o);
    sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
    out.push_back({sub, [&o] { return run_load(o, a); }});
}

}  // namespace lscli
