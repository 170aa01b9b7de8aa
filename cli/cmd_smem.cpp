// NVIDIA shared memory in the CLI: `load --memory smem` (an operand read
// through a wgmma / tcgen05 matrix descriptor), `tma` (where a tiled
// cp.async.bulk.tensor puts a box) and `banks` (the wavefronts / LDS cycles of
// one warp-wide access). The model is core's (lanescope/smem.hpp).
#include "common.hpp"

#include "lanescope/numbers.hpp"
#include "lanescope/smem.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace lscli {

namespace {

std::string num(long long v) { return std::to_string(v); }
std::string hex(std::uint64_t v, int digits) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return b;
}
std::string jstr(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            o += ' ';
            continue;
        }
        o += c;
    }
    return o + "\"";
}

bool is_smem_operand(const ls::Instruction& ins, ls::Operand op) {
    return (ins.kind == ls::LayoutKind::Wgmma && (op == ls::Operand::B || op == ls::Operand::A)) ||
           (ins.kind == ls::LayoutKind::Tcgen05Mma && (op == ls::Operand::B || (op == ls::Operand::A && !ins.a_in_tmem)));
}

// "D0xD1" -> (D0, D1).
std::pair<int, int> parse_box(const std::string& text, const std::string& flag) {
    const size_t x = text.find_first_of("xX");
    if (x == std::string::npos)
        throw ls::Error(flag + " '" + text + "' is not legal; legal: D0xD1 (inner x outer box elements, e.g. 64x128)");
    const int d0 = static_cast<int>(ls::parse_integer(text.substr(0, x), 1, 256, flag + " D0"));
    const int d1 = static_cast<int>(ls::parse_integer(text.substr(x + 1), 1, 256, flag + " D1"));
    return {d0, d1};
}

ls::SmemSwizzle parse_swizzle_word(const std::string& text, bool tcgen05) {
    const auto s = ls::parse_smem_swizzle(text);
    if (!s)
        throw ls::Error("--swizzle '" + text + "' is not legal for a shared-memory descriptor or TMA box; legal: none, 32B, "
                        "64B, 128B" + std::string(tcgen05 ? ", 128B_base32B" : " (tcgen05 also 128B_base32B)"));
    return *s;
}

struct TmaCompare {
    ls::TmaBox box;
    int equal = 0, compared = 0;
    std::vector<std::string> differences;  // first few
    std::string why;
    bool covered = true;
};

// Where TMA put operand element (mn, k): K-major tiles are rows of K (row = mn, col = k), MN-major rows of MN.
std::map<std::pair<int, int>, std::uint32_t> tma_map(const ls::TmaBox& b) {
    std::map<std::pair<int, int>, std::uint32_t> m;
    for (const ls::TmaEntry& e : ls::tma_entries(b)) m[{e.row, e.col}] = e.address;
    return m;
}

int count_equal(const ls::SmemOperand& so, const std::map<std::pair<int, int>, std::uint32_t>& m, std::vector<std::string>* diffs) {
    int eq = 0;
    for (int mn = 0; mn < so.mn; ++mn)
        for (int k = 0; k < so.k; ++k) {
            const std::pair<int, int> rc = so.major == ls::SmemMajor::K ? std::pair<int, int>{mn, k} : std::pair<int, int>{k, mn};
            const std::uint32_t d = so.address(mn, k), t = m.at(rc);
            if (d == t) ++eq;
            else if (diffs && diffs->size() < 8) {
                diffs->push_back(std::string(ls::operand_name(so.operand)) + "[" +
                                 num(so.operand == ls::Operand::A ? mn : k) + "][" + num(so.operand == ls::Operand::A ? k : mn) +
                                 "]: the descriptor reads byte " + num(d) + ", TMA wrote box element (row " + num(rc.first) +
                                 ", col " + num(rc.second) + ") at byte " + num(t));
            }
        }
    return eq;
}

TmaCompare compare_tma(const ls::SmemOperand& so, int d0, int d1) {
    TmaCompare c;
    c.box.inner = d0;
    c.box.outer = d1;
    c.box.element_bits = so.element_bits;
    c.box.swizzle = so.desc.swizzle;
    c.box.smem_address = so.desc.start;
    const int inner_need = so.major == ls::SmemMajor::K ? so.k : so.mn;
    const int outer_need = so.major == ls::SmemMajor::K ? so.mn : so.k;
    if (d0 < inner_need || d1 < outer_need)
        throw ls::Error("--tma-box " + num(d0) + "x" + num(d1) + " does not cover the operand: a " +
                        std::string(ls::smem_major_name(so.major)) + "-major operand needs a box of at least " +
                        num(inner_need) + "x" + num(outer_need) + " (inner = " + (so.major == ls::SmemMajor::K ? "K" : "MN") +
                        ", outer = " + (so.major == ls::SmemMajor::K ? "MN" : "K") + ")");
    ls::check_tma_box(c.box);  // the descriptor's start is TMA's destination
    const auto m = tma_map(c.box);
    c.compared = so.mn * so.k;
    c.equal = count_equal(so, m, &c.differences);
    if (c.equal == c.compared) return c;
    // Why: try the one change that makes them agree.
    const int pitch = ls::tma_pitch(c.box);
    ls::SmemOperand t = so;
    t.desc.base_offset = 0;
    if (so.desc.base_offset != 0 && count_equal(t, m, nullptr) == c.compared) {
        c.why = "this descriptor's base offset must be 0 for a TMA tile at this address: TMA anchors the swizzle at the "
                "absolute shared-memory address, and base offset " + num(so.desc.base_offset) + " shifts the pattern's rows";
        return c;
    }
    t = so;
    const bool k_major = so.major == ls::SmemMajor::K;
    const bool swz = ls::swizzle_span(so.desc.swizzle) > 0;
    if (k_major) t.desc.sbo = static_cast<std::uint32_t>(8 * pitch);
    else if (swz) t.desc.sbo = static_cast<std::uint32_t>(8 * pitch);
    else t.desc.lbo = static_cast<std::uint32_t>(8 * pitch);
    if (count_equal(t, m, nullptr) == c.compared) {
        c.why = std::string(k_major || swz ? "SBO" : "LBO") + " must be " + num(8 * pitch) + ": 8 rows of the box's " +
                num(pitch) + "-byte pitch (TMA pads rows narrower than the swizzle span to it)";
        return c;
    }
    if (!swz) {
        c.why = "without a swizzle TMA writes dense rows of " + num(pitch) + " bytes, while the canonical no-swizzle "
                "layout is 8-row x 16-byte core matrices: no LBO/SBO reads a TMA box of more than 16 bytes per row";
        return c;
    }
    c.why = "the descriptor's layout is not the TMA box's: the box's rows are " + num(pitch) + " bytes apart, swizzled "
            "at the absolute address";
    return c;
}

std::string fields_json(const std::vector<ls::DescriptorField>& fs) {
    std::string s = "[";
    for (size_t i = 0; i < fs.size(); ++i) {
        const auto& f = fs[i];
        s += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + jstr(f.name) + ", \"bits\": [" + num(f.lo) + ", " +
             num(f.hi) + "], \"value\": " + num(static_cast<long long>(f.bits)) +
             (f.bytes >= 0 ? ", \"bytes\": " + num(f.bytes) : "") + ", \"ignored\": " + (f.ignored ? "true" : "false") +
             ", \"meaning\": " + jstr(f.meaning) + "}";
    }
    return s + "]";
}

std::string render_smem_load(const Resolved& r, const ls::SmemOperand& so, const ls::OperandLayout& L,
                             const TmaCompare* tc, ls::Format f) {
    const auto fields = ls::descriptor_fields(so.value, so.desc.format);
    const std::string op(ls::operand_name(so.operand));
    if (f == ls::Format::Json) {
        std::string base = ls::render_layout(r.query, L, ls::View::Matrix, ls::Format::Json);
        const size_t cut = base.find("\"entries\": [");
        std::string s = base.substr(0, cut);
        s += "\"memory\": {\"space\": \"smem\", \"major\": " + jstr(std::string(ls::smem_major_name(so.major))) +
             ", \"swizzle\": " + jstr(std::string(ls::smem_swizzle_name(so.desc.swizzle))) +
             ", \"element_bits\": " + num(so.element_bits) + ", \"start_address\": " + num(so.desc.start) +
             ", \"lbo\": " + num(so.desc.lbo) + ", \"sbo\": " + num(so.desc.sbo) + ", \"base_offset\": " +
             num(so.desc.base_offset) + ", \"lbo_used\": " + (so.lbo_used ? "true" : "false") + ", \"sbo_used\": " +
             (so.sbo_used ? "true" : "false") + ", \"base_offset_used\": " + (so.base_offset_used ? "true" : "false") +
             ", \"mn\": " + num(so.mn) + ", \"k\": " + num(so.k) + "},\n";
        s += "\"descriptor\": {\"value\": " + jstr(hex(so.value, 16)) + ", \"format\": " +
             jstr(std::string(ls::descriptor_format_name(so.desc.format))) + ", \"fields\": " + fields_json(fields) + "},\n";
        s += "\"formula\": " + jstr(so.formula) + ",\n\"notes\": [";
        for (size_t i = 0; i < so.notes.size(); ++i) s += (i ? ", " : "") + jstr(so.notes[i]);
        s += "],\n\"instructions_per_wave\": 1, \"instructions\": [{\"mnemonic\": " + jstr(r.ins->mnemonic) +
             ", \"count\": 1}],\n";
        if (tc) {
            s += "\"tma\": {\"box\": [" + num(tc->box.inner) + ", " + num(tc->box.outer) + "], \"pitch\": " +
                 num(ls::tma_pitch(tc->box)) + ", \"smem_address\": " + num(tc->box.smem_address) + ", \"compared\": " +
                 num(tc->compared) + ", \"equal\": " + num(tc->equal) + ", \"reads_back\": " +
                 (tc->equal == tc->compared ? "true" : "false") + ", \"why\": " + jstr(tc->why) + ", \"differences\": [";
            for (size_t i = 0; i < tc->differences.size(); ++i) s += (i ? ", " : "") + jstr(tc->differences[i]);
            s += "]},\n";
        }
        s += "\"entries\": [\n";
        bool first = true;
        for (int row = 0; row < so.rows; ++row)
            for (int col = 0; col < so.cols; ++col) {
                const auto [mn, k] = so.mn_k(row, col);
                const std::uint32_t a = so.address(mn, k);
                const int bl = (static_cast<int>(a % 4)) * 8 + so.bit(mn, k);
                s += std::string(first ? "" : ",\n") + "{\"block\": 0, \"row\": " + num(row) + ", \"col\": " + num(col) +
                     ", \"mn\": " + num(mn) + ", \"k\": " + num(k) + ", \"lane\": " + num(a / 128) + ", \"reg\": " +
                     num((a % 128) / 4) + ", \"bit_lo\": " + num(bl) + ", \"bit_hi\": " + num(bl + so.element_bits - 1) +
                     ", \"address\": " + num(a) + ", \"bank\": " + num((a / 4) % 32) + ", \"core_matrix\": " +
                     num(so.core_matrix(mn, k)) + "}";
                first = false;
            }
        return s + "\n]}\n";
    }
    if (f == ls::Format::Csv) {
        std::string s = "row,col,mn,k,address,bank,core_matrix,bit_lo\n";
        for (int row = 0; row < so.rows; ++row)
            for (int col = 0; col < so.cols; ++col) {
                const auto [mn, k] = so.mn_k(row, col);
                const std::uint32_t a = so.address(mn, k);
                s += num(row) + "," + num(col) + "," + num(mn) + "," + num(k) + "," + num(a) + "," + num((a / 4) % 32) + "," +
                     num(so.core_matrix(mn, k)) + "," + num(static_cast<int>(a % 4) * 8 + so.bit(mn, k)) + "\n";
            }
        return s;
    }
    // Table: the descriptor, then the operand's element -> byte map as a grid of addresses.
    std::string s = r.ins->mnemonic + " on " + r.target->gfx + ", operand " + op + " (" + num(so.rows) + " x " +
                    num(so.cols) + " " + std::string(ls::elem_name(so.type)) + ") in shared memory, read through a " +
                    std::string(ls::descriptor_format_name(so.desc.format)) + " matrix descriptor; 1 instruction\n";
    s += "descriptor " + hex(so.value, 16) + "\n";
    for (const auto& fd : fields) {
        char line[200];
        std::snprintf(line, sizeof line, "  bits %2d-%-2d  %-20s %8llu%s  %s\n", fd.lo, fd.hi, fd.name.c_str(),
                      static_cast<unsigned long long>(fd.bits),
                      fd.bytes >= 0 ? (" (" + num(fd.bytes) + " B)").c_str() : "", fd.ignored ? "ignored by the hardware" : fd.meaning.c_str());
        s += line;
    }
    s += so.formula + "\n";
    for (const auto& n : so.notes) s += "note: " + n + "\n";
    if (tc) {
        s += "TMA box " + num(tc->box.inner) + "x" + num(tc->box.outer) + " at " + num(tc->box.smem_address) + " (pitch " +
             num(ls::tma_pitch(tc->box)) + " B): " +
             (tc->equal == tc->compared ? "the descriptor reads back what TMA wrote, element by element (" +
                                              num(tc->compared) + " elements)"
                                        : num(tc->compared - tc->equal) + " of " + num(tc->compared) +
                                              " elements differ: " + tc->why) +
             "\n";
        for (const auto& d : tc->differences) s += "  " + d + "\n";
    }
    s += "\nbyte address of " + op + "[row][col] (bank = address/4 % 32; core matrix in brackets)\n";
    s += "row\\col";
    for (int c = 0; c < so.cols; ++c) {
        char h[16];
        std::snprintf(h, sizeof h, "%11d", c);
        s += h;
    }
    s += "\n";
    for (int row = 0; row < so.rows; ++row) {
        char h[16];
        std::snprintf(h, sizeof h, "%7d", row);
        s += h;
        for (int col = 0; col < so.cols; ++col) {
            const auto [mn, k] = so.mn_k(row, col);
            char cell[32];
            std::snprintf(cell, sizeof cell, "%6u[%3d]", so.address(mn, k), so.core_matrix(mn, k));
            s += std::string(" ") + cell;
        }
        s += "\n";
    }
    return s;
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
               (r.ins->kind == ls::LayoutKind::Tcgen05Mma && is_smem_operand(*r.ins, op));
    } catch (const ls::Error&) {
        return false;
    }
}

int run_smem_load(const Options& o, const MemoryArgs& a, const CLI::App*, const std::string& tma_box) {
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
    Options q = o;
    {
        Options plain = o;
        plain.mods = ls::Modifiers{};
        plain.mods.wave = o.mods.wave;
        const Resolved r0 = resolve(plain);
        const ls::Operand op = parse_operand_or_throw(o.operand, *r0.ins);
        if (!is_smem_operand(*r0.ins, op))
            throw ls::Error("--memory smem: operand " + std::string(ls::operand_name(op)) + " of " + r0.ins->mnemonic +
                            " is not read through a shared-memory descriptor; legal: " +
                            (r0.ins->kind == ls::LayoutKind::Wgmma ? "A (the SS form) or B of wgmma"
                             : r0.ins->kind == ls::LayoutKind::Tcgen05Mma ? "B (and A unless it is in Tensor Memory)"
                                                                           : "the A and B of wgmma and tcgen05.mma"));
        if (r0.ins->kind == ls::LayoutKind::Wgmma && op == ls::Operand::A) q.mods.smem_a = 1;
        if (!a.swizzle.empty())
            q.mods.swizzle = static_cast<int>(parse_swizzle_word(a.swizzle, r0.ins->kind == ls::LayoutKind::Tcgen05Mma));
    }
    const Resolved r = resolve(q);
    const ls::Operand op = parse_operand_or_throw(q.operand, *r.ins);
    const ls::SmemOperand so = ls::smem_operand(*r.ins, op, r.query.mods);
    const ls::OperandLayout L = ls::layout_of(*r.ins, *r.target, op, r.query.mods);
    std::optional<TmaCompare> tc;
    if (!tma_box.empty()) {
        const auto [d0, d1] = parse_box(tma_box, "--tma-box");
        tc = compare_tma(so, d0, d1);
    }
    return emit(o, render_smem_load(r, so, L, tc ? &*tc : nullptr, parse_format(o.format)));
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
    b.smem_address = a.address_text.empty() ? 0 : static_cast<std::uint32_t>(parse_number64(a.address_text, (1u << 18) - 1, "--smem-address"));
    const auto entries = ls::tma_entries(b);
    const int pitch = ls::tma_pitch(b);
    const ls::Format f = parse_format(o.format);
    std::string s;
    if (f == ls::Format::Json) {
        s = "{\"box\": [" + num(b.inner) + ", " + num(b.outer) + "], \"element_bits\": " + num(b.element_bits) +
            ", \"swizzle\": " + jstr(std::string(ls::smem_swizzle_name(b.swizzle))) + ", \"smem_address\": " +
            num(b.smem_address) + ", \"pitch\": " + num(pitch) + ", \"bytes\": " + num(static_cast<long long>(pitch) * b.outer) +
            ", \"padded\": " + (pitch > b.inner * b.element_bits / 8 ? "true" : "false") +
            ", \"rule\": \"lin = smem_address + row*pitch + col*element_bytes; address = swizzle(lin) on the absolute "
            "address (base offset 0)\",\n\"entries\": [\n";
        for (size_t i = 0; i < entries.size(); ++i)
            s += "{\"row\": " + num(entries[i].row) + ", \"col\": " + num(entries[i].col) + ", \"address\": " +
                 num(entries[i].address) + ", \"bank\": " + num((entries[i].address / 4) % 32) + "}" +
                 (i + 1 < entries.size() ? ",\n" : "\n");
        s += "]}\n";
    } else if (f == ls::Format::Csv || f == ls::Format::Markdown) {  // one table (RFC 4180 / GitHub Flavored Markdown)
        std::vector<std::vector<std::string>> rows = {{"row", "col", "address", "bank"}};
        for (const auto& e : entries) rows.push_back({num(e.row), num(e.col), num(e.address), num((e.address / 4) % 32)});
        s = ls::render_grid(rows, f);
    } else {
        const int ebytes = b.element_bits / 8, per_chunk = 16 / ebytes;
        s = "TMA box " + num(b.inner) + "x" + num(b.outer) + " (inner x outer) of " + num(b.element_bits) +
            "-bit elements, swizzle " + std::string(ls::smem_swizzle_name(b.swizzle)) + ", at shared byte " +
            num(b.smem_address) + ": row pitch " + num(pitch) + " bytes" +
            (pitch > b.inner * ebytes ? " (rows padded to the swizzle span)" : "") + "\n";
        s += "Each box row's 16-byte chunks (" + num(per_chunk) + " elements each): where chunk c lands, as "
             "(address - row start) / 16\n";
        for (int r = 0; r < b.outer; ++r) {
            const std::uint32_t row_start = b.smem_address + static_cast<std::uint32_t>(r * pitch);
            std::string line = "row " + num(r) + " @" + num(row_start) + ":";
            for (int c = 0; c < b.inner; c += per_chunk) {
                const std::uint32_t at = entries[static_cast<size_t>(r * b.inner + c)].address;
                line += " " + num((static_cast<long long>(at) - row_start) / 16);
            }
            s += line + "\n";
        }
    }
    return emit(o, s);
}

std::vector<std::uint32_t> parse_addresses(const std::string& text) {
    std::vector<std::uint32_t> out;
    if (text.empty()) throw UsageError("banks needs --addresses a0,a1,...,a31 (one shared-memory byte address per lane)");
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        out.push_back(static_cast<std::uint32_t>(parse_number64(part, (1u << 18) - 1, "--addresses")));
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
    if (t.vendor() == ls::Vendor::NVIDIA) {
        const ls::SmemAccess acc = ls::parse_smem_access(a.access);
        if (acc.matrix && acc.store && t.family != ls::Family::Hopper && t.family != ls::Family::Blackwell &&
            t.family != ls::Family::BlackwellGeForce)
            throw ls::Error("stmatrix exists on sm_90 and later; " + o.arch + " has none");
        const ls::SmemBankReport rep = ls::smem_bank_wavefronts(acc, addrs);
        std::string s = ls::render_smem_banks(rep, f);
        if (f == ls::Format::Json) s = "{\"arch\": " + jstr(t.gfx) + ", " + s.substr(1);
        else s = t.gfx + " " + s;
        return emit(o, s);
    }
    // AMD: the LDS model of `load` (pass groupings, bank cycles) for one wave-level access.
    const int wave = static_cast<int>(addrs.size());
    if (std::find(t.wave_sizes.begin(), t.wave_sizes.end(), wave) == t.wave_sizes.end())
        throw ls::Error("--addresses: " + std::to_string(wave) + " given; " + t.gfx + " takes one address per lane of a wave (" +
                        [&] {
                            std::string w;
                            for (int x : t.wave_sizes) w += (w.empty() ? "" : " or ") + std::to_string(x);
                            return w;
                        }() + ")");
    int bytes = 0;
    const std::string m = a.access;
    for (const auto& [suffix, b] : std::vector<std::pair<std::string, int>>{{"b128", 16}, {"b96", 12}, {"b64", 8}, {"b32", 4},
                                                                           {"u16", 2}, {"b16", 2}, {"u8", 1}, {"i8", 1}, {"i16", 2}})
        if (m.size() > suffix.size() && m.compare(m.size() - suffix.size(), suffix.size(), suffix) == 0 && bytes == 0) bytes = b;
    if ((m.rfind("ds_read", 0) != 0 && m.rfind("ds_write", 0) != 0 && m.rfind("ds_load", 0) != 0 && m.rfind("ds_store", 0) != 0) || bytes == 0)
        throw ls::Error("--access '" + m + "' is not an LDS access lanescope models on " + t.gfx +
                        "; legal: ds_read_b32|b64|b96|b128, ds_write_b32|b64|b96|b128, ds_read_u8|u16 (gfx12: ds_load_*/ds_store_*)");
    std::vector<ls::MemoryOp> ops;
    for (int l = 0; l < wave; ++l) {
        ls::MemoryOp op;
        op.lane = l;
        op.mnemonic = m;
        op.address = addrs[static_cast<size_t>(l)];
        op.bytes = bytes;
        op.width_bits = 8 * bytes;
        ops.push_back(op);
    }
    const auto reps = ls::analyse_banks(ops, t, wave);
    if (reps.empty()) throw ls::Error("internal: no bank report for " + m);
    const ls::BankReport& rep = reps.front();
    const ls::BankModel bm = ls::bank_model(t);
    std::string s;
    if (f == ls::Format::Json) {
        s = "{\"arch\": " + jstr(t.gfx) + ", \"access\": " + jstr(m) + ", \"bytes_per_lane\": " + num(bytes) +
            ", \"wavefronts\": " + num(rep.cycles) + ", \"cycles\": " + num(rep.cycles) + ", \"minimum\": " +
            num(rep.minimum_cycles) + ", \"grouping\": {\"name\": " + jstr(rep.grouping.name) + ", \"source\": " +
            jstr(rep.grouping.source) + ", \"confidence\": " + jstr(rep.grouping.confidence) + "}, \"bank_model\": {\"banks\": " +
            num(bm.banks) + ", \"bank_bytes\": " + num(bm.bank_bytes) + ", \"source\": " + jstr(bm.source) + "},\n\"phases\": [";
        for (size_t p = 0; p < rep.passes.size(); ++p) {
            s += std::string(p ? ",\n " : "\n ") + "{\"lanes\": [";
            for (size_t i = 0; i < rep.passes[p].lanes.size(); ++i) s += (i ? ", " : "") + num(rep.passes[p].lanes[i]);
            s += "], \"wavefronts\": " + num(rep.passes[p].cycles) + "}";
        }
        s += "]}\n";
    } else {
        s = t.gfx + " " + m + ": " + num(bytes) + " bytes per lane, " + num(bm.banks) + " banks x " + num(bm.bank_bytes) +
            " bytes (" + bm.source + "); passes: " + rep.grouping.name + " (" + rep.grouping.confidence + ")\n";
        s += "cycles (wavefronts): " + num(rep.cycles) + " (minimum " + num(rep.minimum_cycles) + ")\n";
        for (size_t p = 0; p < rep.passes.size(); ++p) {
            const auto& ps = rep.passes[p];
            s += "pass " + num(static_cast<long long>(p)) + "  lanes " + num(ps.lanes.front()) + ".." + num(ps.lanes.back()) +
                 " (" + num(static_cast<long long>(ps.lanes.size())) + ")  cycles " + num(ps.cycles) + "\n";
        }
    }
    return emit(o, s);
}

}  // namespace

void register_smem_commands(CLI::App& app, Options& o, std::vector<Command>& out) {
    static SmemArgs a;
    if (registers(o, "tma")) {
        CLI::App* sub = app.add_subcommand("tma", "where a tiled cp.async.bulk.tensor (TMA) puts each element of a 2-D box "
                                                  "in shared memory (swizzle, padding, absolute-address anchoring)");
        out.push_back({sub, [&o] { return run_tma(o, a); }});
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
        out.push_back({sub, [&o] { return run_banks(o, a); }});
        if (sets_up(o, "banks")) {
            sub->add_option("-a,--arch", o.arch, "target (sm_90a, gfx942, ...)");
            sub->add_option("--access", a.access, "NVIDIA: " + ls::smem_access_names() + "; AMD: ds_read_b32|b64|b96|b128, ds_write_*");
            sub->add_option("--addresses", a.addresses, "one byte address per lane, comma-separated (decimal or 0x)");
            sub->add_option("--format", o.format, "table, json")->capture_default_str();
            sub->add_option("-o,--out", o.out, "write to FILE");
            sub->footer("Exit status: 0 success, 1 bad query or failed write (message on stderr), 2 usage error.");
        }
    }
}

}  // namespace lscli
