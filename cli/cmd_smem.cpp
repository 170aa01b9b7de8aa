// NVIDIA shared memory in the CLI: `load --memory smem` (an operand read
// through a wgmma / tcgen05 matrix descriptor), `tma` (where a tiled
// cp.async.bulk.tensor puts a box) and `banks` (the wavefronts / LDS cycles of
// one warp-wide access). The model is core's (lanescope/smem.hpp).
#include "common.hpp"

#include "lanescope/numbers.hpp"
#include "lanescope/scale_factors.hpp"
#include "lanescope/smem.hpp"
#include "lanescope/render_smem.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

namespace lscli {

namespace {

// "D0xD1" -> (D0, D1). A malformed value is a usage error (exit 2), as every malformed number is.
std::pair<int, int> parse_box(const std::string& text, const std::string& flag) {
    const size_t x = text.find_first_of("xX");
    if (x == std::string::npos)
        throw UsageError(flag + " '" + text + "' is not legal; legal: D0xD1 (inner x outer box elements, e.g. 64x128)");
    try {
        const int d0 = static_cast<int>(ls::parse_integer(text.substr(0, x), 1, 256, flag + " D0"));
        const int d1 = static_cast<int>(ls::parse_integer(text.substr(x + 1), 1, 256, flag + " D1"));
        return {d0, d1};
    } catch (const UsageError&) {
        throw;
    } catch (const ls::Error& e) {
        throw UsageError(std::string(e.what()) + " (" + flag + " D0xD1: inner x outer box elements, e.g. 64x128)");
    }
}

ls::SmemSwizzle parse_swizzle_word(const std::string& text, bool tcgen05) {
    const auto s = ls::parse_smem_swizzle(text);
    if (!s)
        throw UsageError("--swizzle '" + text + "' is not legal for a shared-memory descriptor or TMA box; legal: none, 32B, "
                        "64B, 128B" + std::string(tcgen05 ? ", 128B_base32B" : " (tcgen05 also 128B_base32B)"));
    return *s;
}

}  // namespace

bool smem_load_requested(const Options& o, const MemoryArgs& a, const CLI::App* sub) {
    if (a.memory == "smem") {
        // mma.sync operands in shared memory are loaded by ldmatrix / ld.shared (memory_request); the
        // descriptor path is for wgmma and tcgen05.mma.
        try {
            Options plain = o;
            plain.mods = ls::Modifiers{};
            plain.mods.wave = o.mods.wave;
            const Resolved r = resolve(plain);
            return r.ins->kind == ls::LayoutKind::Wgmma || r.ins->kind == ls::LayoutKind::Tcgen05Mma;
        } catch (const ls::Error&) {
            return true;  // the descriptor path names what is wrong
        }
    }
    if (sub->get_option("--memory")->count() > 0 || o.arch.empty() || o.instruction.empty()) return false;
    try {
        Options plain = o;
        plain.mods = ls::Modifiers{};
        plain.mods.wave = o.mods.wave;
        const Resolved r = resolve(plain);
        const ls::Operand op = parse_operand_or_throw(o.operand, *r.ins);
        return (r.ins->kind == ls::LayoutKind::Wgmma && op == ls::Operand::B) ||
               (r.ins->kind == ls::LayoutKind::Tcgen05Mma && ls::read_by_descriptor(*r.ins, op));
    } catch (const ls::Error&) {
        return false;
    }
}

SmemPick pick_smem_operand(const Options& o, const MemoryArgs& a) {
    Options q = o;
    {
        Options plain = o;
        plain.mods = ls::Modifiers{};
        plain.mods.wave = o.mods.wave;
        const Resolved r0 = resolve(plain);
        const ls::Operand op = parse_operand_or_throw(o.operand, *r0.ins);
        if (!ls::read_by_descriptor(*r0.ins, op))
            throw ls::Error("--memory smem: operand " + std::string(ls::operand_name(op)) + " of " + r0.ins->mnemonic +
                            " is not read through a shared-memory descriptor; legal: " + ls::descriptor_operands_text(*r0.ins));
        if (r0.ins->kind == ls::LayoutKind::Wgmma && op == ls::Operand::A) q.mods.smem_a = 1;
        if (!a.swizzle.empty())
            q.mods.swizzle = static_cast<int>(parse_swizzle_word(a.swizzle, r0.ins->kind == ls::LayoutKind::Tcgen05Mma));
    }
    Resolved r = resolve(q);
    const ls::Operand op = parse_operand_or_throw(q.operand, *r.ins);
    ls::SmemOperand so = ls::smem_operand(*r.ins, op, r.query.mods);
    return {std::move(r), op, std::move(so)};
}

namespace {

// `load --memory smem --operand SFA|SFB`: the scale factors' path from memory (lanescope/scale_factors.hpp).
int run_scale_factor_load(const Options& o, const Resolved& r, ls::Operand op) {
    const std::vector<std::string> allowed = {"--arch", "--instruction", "--operand", "--memory", "--row", "--col",
                                              "--format", "--out", "--catalog", "--wave"};
    const auto extra = given_options_except(o, allowed);
    if (!extra.empty())
        throw UsageError(extra.front() + " does not apply to the scale factors' path from memory; legal with --memory "
                         "smem --operand SFA|SFB: --row, --col (one scale factor), --format table|csv|json, -o");
    if (o.format != "table" && o.format != "csv" && o.format != "json")
        throw ls::Error("--format '" + o.format + "' is not legal for load --memory smem; legal: table, csv, json");
    const ls::ScaleFactorTile t = ls::scale_factor_tile(*r.ins, op);
    return emit(o, ls::render_scale_factor_tile(r.query, t, parse_format(o.format), o.row, o.col));
}

}  // namespace

int run_smem_load(const Options& o, const MemoryArgs& a, const CLI::App*, const std::string& tma_box) {
    {
        Options plain = o;
        plain.mods = ls::Modifiers{};
        plain.mods.wave = o.mods.wave;
        const Resolved r0 = resolve(plain);
        const ls::Operand op = parse_operand_or_throw(o.operand, *r0.ins);
        if (r0.ins->kind == ls::LayoutKind::Tcgen05Mma && (op == ls::Operand::SA || op == ls::Operand::SB))
            return run_scale_factor_load(o, r0, op);
        if (o.row >= 0 || o.col >= 0)
            throw UsageError("--row / --col pick one scale factor of --operand SFA|SFB; legal for operand " +
                             std::string(ls::operand_name(op)) + ": leave them out");
    }
    const std::vector<std::string> allowed = {"--arch", "--instruction", "--operand", "--memory", "--major", "--swizzle",
                                              "--lbo", "--sbo", "--smem-address", "--base-offset", "--descriptor",
                                              "--tma-box", "--format", "--out", "--catalog", "--wave"};
    const auto extra = given_options_except(o, allowed);
    if (!extra.empty())
        throw UsageError(extra.front() + " does not apply to a shared-memory operand read through a matrix descriptor "
                         "(no thread issues loads for it); legal with --memory smem: --major K|MN, --swizzle "
                         "none|32B|64B|128B|128B_base32B, --lbo, --sbo, --smem-address, --base-offset, --descriptor 0x..., "
                         "--tma-box D0xD1, --format table|csv|json");
    if (o.format != "table" && o.format != "csv" && o.format != "json")
        throw ls::Error("--format '" + o.format + "' is not legal for load --memory smem; legal: table, csv, json");
    const auto [r, op, so] = pick_smem_operand(o, a);
    const ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, op, r.query.mods);
    std::optional<ls::TmaComparison> tc;
    if (!tma_box.empty()) {
        const auto [d0, d1] = parse_box(tma_box, "--tma-box");
        try {
            tc = ls::compare_tma(so, d0, d1);
        } catch (const ls::Error& e) {
            // The box rules speak of tma's --box; here the box was given as --tma-box.
            std::string m = e.what();
            if (m.rfind("--box", 0) == 0) m = "--tma-box" + m.substr(5);
            throw ls::Error(m);
        }
    }
    return emit(o, ls::render_smem_operand(r.query, so, L, tc ? &*tc : nullptr, parse_format(o.format)));
}

// ----------------------------------------------------------- tma, banks ---

namespace {

struct SmemArgs {
    std::string box, swizzle = "none", access, addresses, address_text;
    int element_bits = 16;
};

int run_tma(const Options& o, const SmemArgs& a) {
    if (a.box.empty()) throw UsageError("tma needs --box D0xD1 (inner x outer elements, CUDA's order)");
    if (!o.arch.empty()) {
        const ls::Target& t = ls::Catalog::target(o.arch);
        if (t.vendor() != ls::Vendor::NVIDIA || (t.family != ls::Family::Hopper && t.family != ls::Family::Blackwell &&
                                                 t.family != ls::Family::BlackwellGeForce))
            throw ls::Error("--arch " + o.arch + ": TMA (cp.async.bulk.tensor) exists on sm_90 and later; legal: an "
                            "sm_90 or later target");
    }
    ls::TmaBox b;
    std::tie(b.inner, b.outer) = parse_box(a.box, "--box");
    b.element_bits = a.element_bits;
    b.swizzle = parse_swizzle_word(a.swizzle, true);
    try {  // a malformed address is a usage error (exit 2); one TMA cannot write to is the engine's refusal (1)
        b.smem_address =
            a.address_text.empty() ? 0 : static_cast<std::uint32_t>(parse_number64(a.address_text, (1u << 18) - 1, "--smem-address"));
    } catch (const ls::Error& e) {
        throw UsageError(e.what());
    }
    return emit(o, ls::render_tma(b, parse_format(o.format)));
}

std::vector<std::uint32_t> parse_addresses(const std::string& text) {
    std::vector<std::uint32_t> out;
    if (text.empty()) throw UsageError("banks needs --addresses a0,a1,...,a31 (one shared-memory byte address per lane)");
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        try {  // a malformed address is a usage error (exit 2), as every malformed number is
            out.push_back(static_cast<std::uint32_t>(parse_number64(part, (1u << 18) - 1, "--addresses")));
        } catch (const ls::Error& e) {
            throw UsageError(std::string(e.what()) + " (--addresses: one byte address per lane, comma-separated)");
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

int run_banks(const Options& o, const SmemArgs& a) {
    if (o.arch.empty()) throw UsageError("banks needs --arch (e.g. -a sm_90a, -a gfx942)");
    if (a.access.empty()) throw UsageError("banks needs --access (e.g. ld.shared.v4.u32, ldmatrix.x4, ds_read_b128)");
    const ls::Target& t = ls::Catalog::target(o.arch);
    const auto addrs = parse_addresses(a.addresses);
    const ls::Format f = parse_format(o.format);
    if (f != ls::Format::Table && f != ls::Format::Json)  // its phases are several tables and a verdict: no one CSV table
        throw ls::Error("--format '" + o.format + "' is not legal for banks; legal: table, json");
    return emit(o, ls::render_bank_access(t, a.access, addrs, f));
}

}  // namespace

void register_smem_commands(CLI::App& app, Options& o, std::vector<Command>& out) {
    // The arguments belong to this command line: the runs (in `out`) own them, CLI11 writes into them.
    const auto args = std::make_shared<SmemArgs>();
    SmemArgs& a = *args;
    if (registers(o, "tma")) {
        CLI::App* sub = app.add_subcommand("tma", "where a tiled cp.async.bulk.tensor (TMA) puts each element of a 2-D box "
                                                  "in shared memory (swizzle, padding, absolute-address anchoring)");
        out.push_back({sub, [&o, args] { return run_tma(o, *args); }});
        if (sets_up(o, "tma")) {
            sub->add_option("-a,--arch", o.arch, "target (optional; sm_90 or later)");
            sub->add_option("--box", a.box, "box D0xD1: inner x outer elements (CUDA's boxDim order)")->required();
            add_int_option(sub, "--element-bits", a.element_bits, 8, 64, "element size in bits: 8, 16, 32, 64");
            sub->add_option("--swizzle", a.swizzle, "none, 32B, 64B, 128B, 128B_base32B (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B)")
                ->capture_default_str();
            sub->add_option("--smem-address", a.address_text, "destination shared-memory byte address (128-byte aligned; default 0)");
            sub->add_option("--format", o.format, "table, csv, markdown, json")->capture_default_str();
            sub->add_option("-o,--out", o.out, "write to FILE");
            sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
        }
    }
    if (registers(o, "banks")) {
        CLI::App* sub = app.add_subcommand("banks", "how many wavefronts (NVIDIA) or LDS cycles (AMD) one warp/wave-wide "
                                                    "shared-memory access costs, phase by phase");
        out.push_back({sub, [&o, args] { return run_banks(o, *args); }});
        if (sets_up(o, "banks")) {
            sub->add_option("-a,--arch", o.arch, "target (sm_90a, gfx942, ...) (required)");
            sub->add_option("--access", a.access,
                            "NVIDIA: " + ls::smem_access_names() + "; AMD: ds_read_b32|b64|b96|b128, ds_write_* (required)");
            sub->add_option("--addresses", a.addresses, "one byte address per lane, comma-separated (decimal or 0x) (required)");
            sub->add_option("--format", o.format, "table, json")->capture_default_str();
            sub->add_option("-o,--out", o.out, "write to FILE");
            sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
        }
    }
}

}  // namespace lscli
