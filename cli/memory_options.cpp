// The memory tile options shared by `load` and `figure --memory`:
// one parser, so both commands take and refuse the same words.
#include "common.hpp"

#include "lanescope/numbers.hpp"

namespace lscli {

namespace {

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

const char* const kMemoryFlags[] = {"--memory", "--order", "--ld", "--pad", "--swizzle", "--transpose", "--store", "--grouping", "--ld-shared"};

}  // namespace

void add_memory_options(CLI::App* sub, MemoryArgs& a) {
    sub->add_option("--memory", a.memory, "where the tile lies: lds or global (AMD); smem (NVIDIA shared memory: mma.sync operands by ldmatrix / ld.shared, wgmma/tcgen05 operands read through a matrix descriptor)")->capture_default_str();
    sub->add_option("--order", a.order, "row (row-major) or col (column-major)")->capture_default_str();
    add_int_option(sub, "--ld", a.ld, 1, 1 << 24, "leading dimension in elements (default: the tile's contiguous extent)");
    add_int_option(sub, "--pad", a.pad, 0, 1 << 24, "elements of padding after each line (default 0)");
    sub->add_option("--swizzle", a.swizzle, "XOR swizzle VEC,PER_PHASE,MAX_PHASE: pos ^= VEC*((line/PER_PHASE)%MAX_PHASE); with --memory smem the descriptor's none|32B|64B|128B|128B_base32B");
    sub->add_flag("--transpose", a.transpose, "use the hardware transpose loads (gfx950 ds_read_*_tr_*, gfx12 global_load_tr_*)");
    sub->add_flag("--store", a.store, "plan the stores of C/D instead of loads");
    sub->add_option("--grouping", a.grouping, "LDS pass grouping to analyse banks with (the table lists those offered)");
    sub->add_flag("--ld-shared", a.ld_shared, "NVIDIA: plain ld.shared / st.shared instead of ldmatrix / stmatrix");
}

bool memory_options_given(const CLI::App* sub) {
    for (const char* flag : kMemoryFlags)
        if (sub->get_option(flag)->count() > 0) return true;
    return false;
}

ls::MemoryRequest memory_request(const Options& o, const MemoryArgs& a, const Resolved& r) {
    const bool nvidia = r.target->vendor() == ls::Vendor::NVIDIA;
    if (nvidia) {
        // NVIDIA's on-chip shared memory is the LDS of the model; the default "lds" reads as smem.
        if (a.memory != "smem" && a.memory != "lds")
            throw ls::Error("--memory '" + a.memory + "' is not legal on " + r.target->gfx +
                            "; legal: smem (NVIDIA fragments are loaded from shared memory by ldmatrix or ld.shared)");
    } else if (a.memory != "lds" && a.memory != "global") {
        throw ls::Error("--memory '" + a.memory + "' is not legal; legal: lds, global" +
                        std::string(a.memory == "smem" ? " (smem is NVIDIA's shared memory)" : ""));
    }
    if (a.ld_shared && !nvidia)
        throw ls::Error("--ld-shared chooses NVIDIA's plain ld.shared over ldmatrix; " + r.target->gfx +
                        " is AMD (legal: leave --ld-shared out)");
    if (a.order != "row" && a.order != "col")
        throw ls::Error("--order '" + a.order + "' is not legal; legal: row (row-major), col (column-major)");
    ls::MemoryRequest req;
    req.operand = parse_operand_or_throw(o.operand, *r.ins);
    req.transpose = a.transpose;
    req.store = a.store;
    req.grouping = a.grouping;
    req.ld_shared = a.ld_shared;
    if (tile_mode(o)) req.tiles = tile_params(o);
    req.tile.space = a.memory == "global" ? ls::MemorySpace::Global : ls::MemorySpace::Lds;  // lds, or NVIDIA smem
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
    return req;
}

}  // namespace lscli
