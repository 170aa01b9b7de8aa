// NVIDIA shared memory rendered: an operand read through a wgmma / tcgen05
// matrix descriptor (its fields, the element -> byte map, a TMA box read back),
// and where a TMA box puts each element. The CLI (load --memory smem, tma) and
// the other front ends print these; the model is lanescope/smem.hpp.
#include "lanescope/render_smem.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace lanescope {

namespace {



// Where TMA put operand element (mn, k): K-major tiles are rows of K (row = mn, col = k), MN-major rows of MN.
std::map<std::pair<int, int>, std::uint32_t> tma_map(const TmaBox& b) {
    std::map<std::pair<int, int>, std::uint32_t> m;
    for (const TmaEntry& e : tma_entries(b)) m[{e.row, e.col}] = e.address;
    return m;
}

int count_equal(const SmemOperand& so, const std::map<std::pair<int, int>, std::uint32_t>& m, std::vector<std::string>* diffs) {
    int eq = 0;
    for (int mn = 0; mn < so.mn; ++mn)
        for (int k = 0; k < so.k; ++k) {
            const std::pair<int, int> rc = so.major == SmemMajor::K ? std::pair<int, int>{mn, k} : std::pair<int, int>{k, mn};
            // The padded sub-byte types: TMA's 16U4/16U6_ALIGN16B fill the 8-bit tile's slots.
            const std::uint32_t d = so.slot_address(mn, k), t = m.at(rc);
            if (d == t) ++eq;
            else if (diffs && diffs->size() < 8) {
                diffs->push_back(std::string(operand_name(so.operand)) + "[" +
                                 num(so.operand == Operand::A ? mn : k) + "][" + num(so.operand == Operand::A ? k : mn) +
                                 "]: the descriptor reads byte " + num(d) + ", TMA wrote box element (row " + num(rc.first) +
                                 ", col " + num(rc.second) + ") at byte " + num(t));
            }
        }
    return eq;
}

}  // namespace

TmaComparison compare_tma(const SmemOperand& so, int d0, int d1) {
    TmaComparison c;
    c.box.inner = d0;
    c.box.outer = d1;
    c.box.element_bits = so.slot_bits;
    c.box.swizzle = so.desc.swizzle;
    c.box.smem_address = so.desc.start;
    const int inner_need = so.major == SmemMajor::K ? so.k : so.mn;
    const int outer_need = so.major == SmemMajor::K ? so.mn : so.k;
    if (d0 < inner_need || d1 < outer_need)
        throw Error("--tma-box " + num(d0) + "x" + num(d1) + " does not cover the operand: a " +
                        std::string(smem_major_name(so.major)) + "-major operand needs a box of at least " +
                        num(inner_need) + "x" + num(outer_need) + " (inner = " + (so.major == SmemMajor::K ? "K" : "MN") +
                        ", outer = " + (so.major == SmemMajor::K ? "MN" : "K") + ")");
    check_tma_box(c.box);  // the descriptor's start is TMA's destination
    const auto m = tma_map(c.box);
    c.compared = so.mn * so.k;
    c.equal = count_equal(so, m, &c.differences);
    if (c.equal == c.compared) return c;
    // Why: try the one change that makes them agree.
    const int pitch = tma_pitch(c.box);
    SmemOperand t = so;
    t.desc.base_offset = 0;
    if (so.desc.base_offset != 0 && count_equal(t, m, nullptr) == c.compared) {
        c.why = "this descriptor's base offset must be 0 for a TMA tile at this address: TMA anchors the swizzle at the "
                "absolute shared-memory address, and base offset " + num(so.desc.base_offset) + " shifts the pattern's rows";
        return c;
    }
    t = so;
    const bool k_major = so.major == SmemMajor::K;
    const bool swz = swizzle_span(so.desc.swizzle) > 0;
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

namespace {

std::string fields_json(const std::vector<DescriptorField>& fs) {
    std::string s = "[";
    for (size_t i = 0; i < fs.size(); ++i) {
        const auto& f = fs[i];
        s += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + json_string(f.name) + ", \"bits\": [" + num(f.lo) + ", " +
             num(f.hi) + "], \"value\": " + num(static_cast<long long>(f.bits)) +
             (f.bytes >= 0 ? ", \"bytes\": " + num(f.bytes) : "") + ", \"ignored\": " + (f.ignored ? "true" : "false") +
             ", \"meaning\": " + json_string(f.meaning) + "}";
    }
    return s + "]";
}

}  // namespace

std::string render_smem_operand(const Query& q, const SmemOperand& so, const OperandLayout& L,
                                const TmaComparison* tc, Format f) {
    const auto fields = descriptor_fields(so.value, so.desc.format);
    const std::string op(operand_name(so.operand));
    if (f == Format::Json) {
        std::string base = render_layout(q, L, View::Matrix, Format::Json);
        const size_t cut = base.find("\"entries\": [");
        std::string s = base.substr(0, cut);
        s += "\"memory\": {\"space\": \"smem\", \"major\": " + json_string(std::string(smem_major_name(so.major))) +
             ", \"swizzle\": " + json_string(std::string(smem_swizzle_name(so.desc.swizzle))) +
             ", \"element_bits\": " + num(so.element_bits) + ", \"slot_bits\": " + num(so.slot_bits) +
             ", \"padded\": " + (so.padded() ? "true" : "false") + ", \"start_address\": " + num(so.desc.start) +
             ", \"lbo\": " + num(so.desc.lbo) + ", \"sbo\": " + num(so.desc.sbo) + ", \"base_offset\": " +
             num(so.desc.base_offset) + ", \"lbo_used\": " + (so.lbo_used ? "true" : "false") + ", \"sbo_used\": " +
             (so.sbo_used ? "true" : "false") + ", \"base_offset_used\": " + (so.base_offset_used ? "true" : "false") +
             ", \"mn\": " + num(so.mn) + ", \"k\": " + num(so.k) + "},\n";
        s += "\"descriptor\": {\"value\": " + json_string(hex(so.value, 16)) + ", \"format\": " +
             json_string(std::string(descriptor_format_name(so.desc.format))) + ", \"fields\": " + fields_json(fields) + "},\n";
        s += "\"formula\": " + json_string(so.formula) + ",\n\"notes\": [";
        for (size_t i = 0; i < so.notes.size(); ++i) s += (i ? ", " : "") + json_string(so.notes[i]);
        s += "],\n\"instructions_per_wave\": 1, \"instructions\": [{\"mnemonic\": " + json_string(q.ins->mnemonic) +
             ", \"count\": 1}],\n";
        if (tc) {
            s += "\"tma\": {\"box\": [" + num(tc->box.inner) + ", " + num(tc->box.outer) + "], \"pitch\": " +
                 num(tma_pitch(tc->box)) + ", \"smem_address\": " + num(tc->box.smem_address) + ", \"compared\": " +
                 num(tc->compared) + ", \"equal\": " + num(tc->equal) + ", \"reads_back\": " +
                 (tc->equal == tc->compared ? "true" : "false") + ", \"why\": " + json_string(tc->why) + ", \"differences\": [";
            for (size_t i = 0; i < tc->differences.size(); ++i) s += (i ? ", " : "") + json_string(tc->differences[i]);
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
    if (f == Format::Csv) {
        std::string s = "row,col,mn,k,address,bank,core_matrix,bit_lo,bit_hi\n";
        for (int row = 0; row < so.rows; ++row)
            for (int col = 0; col < so.cols; ++col) {
                const auto [mn, k] = so.mn_k(row, col);
                const std::uint32_t a = so.address(mn, k);
                const int bl = static_cast<int>(a % 4) * 8 + so.bit(mn, k);
                s += num(row) + "," + num(col) + "," + num(mn) + "," + num(k) + "," + num(a) + "," + num((a / 4) % 32) + "," +
                     num(so.core_matrix(mn, k)) + "," + num(bl) + "," + num(bl + so.element_bits - 1) + "\n";
            }
        return s;
    }
    // Table: the descriptor, then the operand's element -> byte map as a grid of addresses.
    std::string s = q.ins->mnemonic + " on " + q.target->gfx + ", operand " + op + " (" + num(so.rows) + " x " +
                    num(so.cols) + " " + std::string(elem_name(so.type)) + ") in shared memory, read through a " +
                    std::string(descriptor_format_name(so.desc.format)) + " matrix descriptor; 1 instruction\n";
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
             num(tma_pitch(tc->box)) + " B): " +
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

std::string render_tma(const TmaBox& b, Format f) {
    const auto entries = tma_entries(b);
    const int pitch = tma_pitch(b);
    std::string s;
    if (f == Format::Json) {
        s = "{\"box\": [" + num(b.inner) + ", " + num(b.outer) + "], \"element_bits\": " + num(b.element_bits) +
            ", \"swizzle\": " + json_string(std::string(smem_swizzle_name(b.swizzle))) + ", \"smem_address\": " +
            num(b.smem_address) + ", \"pitch\": " + num(pitch) + ", \"bytes\": " + num(static_cast<long long>(pitch) * b.outer) +
            ", \"padded\": " + (pitch > b.inner * b.element_bits / 8 ? "true" : "false") +
            ", \"rule\": \"lin = smem_address + row*pitch + col*element_bytes; address = swizzle(lin) on the absolute "
            "address (base offset 0)\",\n\"entries\": [\n";
        for (size_t i = 0; i < entries.size(); ++i)
            s += "{\"row\": " + num(entries[i].row) + ", \"col\": " + num(entries[i].col) + ", \"address\": " +
                 num(entries[i].address) + ", \"bank\": " + num((entries[i].address / 4) % 32) + "}" +
                 (i + 1 < entries.size() ? ",\n" : "\n");
        s += "]}\n";
    } else if (f == Format::Csv || f == Format::Markdown) {  // one table (RFC 4180 / GitHub Flavored Markdown)
        std::vector<std::vector<std::string>> rows = {{"row", "col", "address", "bank"}};
        for (const auto& e : entries) rows.push_back({num(e.row), num(e.col), num(e.address), num((e.address / 4) % 32)});
        s = render_grid(rows, f);
    } else {
        const int ebytes = b.element_bits / 8, per_chunk = 16 / ebytes;
        s = "TMA box " + num(b.inner) + "x" + num(b.outer) + " (inner x outer) of " + num(b.element_bits) +
            "-bit elements, swizzle " + std::string(smem_swizzle_name(b.swizzle)) + ", at shared byte " +
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
    return s;
}

std::string render_bank_access(const Target& t, std::string_view access, const std::vector<std::uint32_t>& addrs, Format f) {
    if (f != Format::Table && f != Format::Json)  // its phases are several tables and a verdict: no one CSV table
        throw Error("--format is not legal for banks; legal: table, json");
    if (t.vendor() == Vendor::NVIDIA) {
        const SmemAccess acc = parse_smem_access(access);
        if (acc.matrix && acc.store && t.family != Family::Hopper && t.family != Family::Blackwell &&
            t.family != Family::BlackwellGeForce)
            throw Error("stmatrix exists on sm_90 and later; " + t.gfx + " has none");
        const SmemBankReport rep = smem_bank_wavefronts(acc, addrs);
        std::string s = render_smem_banks(rep, f);
        if (f == Format::Json) s = "{\"arch\": " + json_string(t.gfx) + ", " + s.substr(1);
        else s = t.gfx + " " + s;
        return s;
    }
    // AMD: the LDS model of `load` (pass groupings, bank cycles) for one wave-level access.
    const int wave = static_cast<int>(addrs.size());
    if (std::find(t.wave_sizes.begin(), t.wave_sizes.end(), wave) == t.wave_sizes.end())
        throw Error("--addresses: " + std::to_string(wave) + " given; " + t.gfx + " takes one address per lane of a wave (" +
                        [&] {
                            std::string w;
                            for (int x : t.wave_sizes) w += (w.empty() ? "" : " or ") + std::to_string(x);
                            return w;
                        }() + ")");
    int bytes = 0;
    const std::string m(access);
    for (const auto& [suffix, b] : std::vector<std::pair<std::string, int>>{{"b128", 16}, {"b96", 12}, {"b64", 8}, {"b32", 4},
                                                                           {"u16", 2}, {"b16", 2}, {"u8", 1}, {"i8", 1}, {"i16", 2}})
        if (m.size() > suffix.size() && m.compare(m.size() - suffix.size(), suffix.size(), suffix) == 0 && bytes == 0) bytes = b;
    if ((m.rfind("ds_read", 0) != 0 && m.rfind("ds_write", 0) != 0 && m.rfind("ds_load", 0) != 0 && m.rfind("ds_store", 0) != 0) || bytes == 0)
        throw Error("--access '" + m + "' is not an LDS access lanescope models on " + t.gfx +
                        "; legal: ds_read_b32|b64|b96|b128, ds_write_b32|b64|b96|b128, ds_read_u8|u16 (gfx12: ds_load_*/ds_store_*)");
    std::vector<MemoryOp> ops;
    for (int l = 0; l < wave; ++l) {
        MemoryOp op;
        op.lane = l;
        op.mnemonic = m;
        op.address = addrs[static_cast<size_t>(l)];
        op.bytes = bytes;
        op.width_bits = 8 * bytes;
        ops.push_back(op);
    }
    const auto reps = analyse_banks(ops, t, wave);
    if (reps.empty()) throw Error("internal: no bank report for " + m);
    const BankReport& rep = reps.front();
    const BankModel bm = bank_model(t);
    std::string s;
    if (f == Format::Json) {
        s = "{\"arch\": " + json_string(t.gfx) + ", \"access\": " + json_string(m) + ", \"bytes_per_lane\": " + num(bytes) +
            ", \"wavefronts\": " + num(rep.cycles) + ", \"cycles\": " + num(rep.cycles) + ", \"minimum\": " +
            num(rep.minimum_cycles) + ", \"grouping\": {\"name\": " + json_string(rep.grouping.name) + ", \"source\": " +
            json_string(rep.grouping.source) + ", \"confidence\": " + json_string(rep.grouping.confidence) + "}, \"bank_model\": {\"banks\": " +
            num(bm.banks) + ", \"bank_bytes\": " + num(bm.bank_bytes) + ", \"source\": " + json_string(bm.source) + "},\n\"phases\": [";
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
    return s;
}

std::string render_smem_banks(const SmemBankReport& r, Format f) {
    const SmemAccess& a = r.access;
    const std::string phase_kind = a.matrix ? "8 row addresses (one 8x8 matrix)"
                                   : r.phases.empty() ? ""
                                   : num(static_cast<long long>(r.phases[0].lanes.size())) + " lanes";
    if (f == Format::Json) {
        std::string s = "{\"access\": \"" + a.name + "\", \"bytes_per_lane\": " + num(a.bytes) + ", \"store\": " +
                        (a.store ? "true" : "false") + ", \"lanes_used\": " + num(a.lanes_used) +
                        ", \"merged\": " + (r.merged ? "true" : "false") + ", \"merge_rule\": \"" + r.merge_rule +
                        "\", \"wavefronts\": " + num(r.wavefronts) + ", \"minimum\": " + num(r.minimum) +
                        ", \"bank_model\": {\"banks\": 32, \"bank_bytes\": 4, \"source\": \"CUDA C++ Programming Guide "
                        "(shared memory, compute capability 5.x+); phases measured on an H200 with Nsight Compute\"},\n"
                        " \"phases\": [";
        for (size_t p = 0; p < r.phases.size(); ++p) {
            const SmemPhase& ph = r.phases[p];
            s += std::string(p ? ",\n  " : "\n  ") + "{\"lanes\": [";
            for (size_t i = 0; i < ph.lanes.size(); ++i) s += (i ? ", " : "") + num(ph.lanes[i]);
            s += "], \"wavefronts\": " + num(ph.wavefronts) + ", \"words_per_bank\": [";
            for (size_t b = 0; b < 32; ++b) s += (b ? ", " : "") + num(ph.words_per_bank[b]);
            s += "]}";
        }
        return s + "]}\n";
    }
    std::string s = a.name + ": " + num(a.bytes) + " bytes per " + (a.matrix ? "row address" : "lane") + ", " +
                    num(static_cast<long long>(r.phases.size())) + " phase" + (r.phases.size() == 1 ? "" : "s") +
                    " of " + phase_kind + "; 32 banks x 4 bytes\n";
    if (r.merged) s += "merged: " + r.merge_rule + "\n";
    s += "wavefronts: " + num(r.wavefronts) + " (minimum for these bytes: " + num(r.minimum) + ")\n\n";
    s += "phase  lanes    wavefronts  distinct words per bank 0..31 (. = none)\n";
    for (size_t p = 0; p < r.phases.size(); ++p) {
        const SmemPhase& ph = r.phases[p];
        std::string lanes = num(ph.lanes.front()) + "-" + num(ph.lanes.back());
        std::string row;
        for (int b = 0; b < 32; ++b) {
            const int n = ph.words_per_bank[static_cast<size_t>(b)];
            row += n == 0 ? '.' : n < 10 ? static_cast<char>('0' + n) : '+';
            if (b % 8 == 7 && b < 31) row += ' ';
        }
        char line[160];
        std::snprintf(line, sizeof line, "%-6zu %-8s %-11d %s\n", p, lanes.c_str(), ph.wavefronts, row.c_str());
        s += line;
    }
    return s;
}

// ------------------------------------------------------- scale factors ---
namespace {

std::string lanes_text(const std::vector<int>& lanes) {
    std::string s;
    for (int l : lanes) s += (s.empty() ? "" : " ") + num(l);
    return s;
}

std::string scale_factor_json(const Query& q, const ScaleFactorTile& t, const std::vector<ScaleFactorPlace>& ps) {
    std::string s = "{" + query_header_json(q) + ", \"operand\": \"" + std::string(operand_name(t.operand)) +
                    "\", \"memory\": \"smem\", \"path\": {\"cta_group\": " + num(t.cta_group) + ", \"mn\": " + num(t.mn) +
                    ", \"mn_padded\": " + num(t.mn_padded) + ", \"scale_factors_per_mma\": " + num(t.nsf) +
                    ", \"vector_size\": " + num(t.vec) + ", \"kblocks\": " + num(t.kblocks) + ", \"bytes\": " +
                    num(t.bytes) + ", \"copy\": " + json_string(t.copy_shape) + ", \"smem_formula\": " +
                    json_string(t.smem_formula) + ", \"global_formula\": " + json_string(t.global_formula) +
                    ", \"copy_formula\": " + json_string(t.copy_formula) + ", \"tmem_formula\": " +
                    json_string(t.tmem_formula) + ", \"id_formula\": " + json_string(t.id_formula) + "}, \"notes\": [";
    for (size_t i = 0; i < t.notes.size(); ++i) s += (i ? ", " : "") + json_string(t.notes[i]);
    s += "], " + evidence_json(t.evidence) + ", \"entries\": [";
    const bool a = t.operand == Operand::SA;
    for (size_t i = 0; i < ps.size(); ++i) {
        const ScaleFactorPlace& p = ps[i];
        s += std::string(i ? ", " : "") + "{\"row\": " + num(a ? p.mn : p.kb) + ", \"col\": " + num(a ? p.kb : p.mn) +
             ", \"cta\": " + num(p.cta) + ", \"smem_byte\": " + num(p.smem_byte) + ", \"copy\": " + num(p.copy) +
             ", \"copy_row\": " + num(p.copy_row) + ", \"copy_byte\": " + num(p.copy_byte) + ", \"tmem_lanes\": [";
        for (size_t k = 0; k < p.tmem_lanes.size(); ++k) s += (k ? ", " : "") + num(p.tmem_lanes[k]);
        s += "], \"tmem_column\": " + num(p.tmem_column) + ", \"tmem_byte\": " + num(p.tmem_byte) + ", \"bit_lo\": " +
             num(8 * p.tmem_byte) + ", \"bit_hi\": " + num(8 * p.tmem_byte + 7) + ", \"mma\": " + num(p.mma) +
             ", \"" + (a ? "sfa_id" : "sfb_id") + "\": " + num(p.sf_id) + ", \"j\": " + num(p.j) + "}";
    }
    s += "]";
    if (ps.size() == 1) s += ", \"answer\": " + json_string(scale_factor_answer(t, ps.front()));
    return s + "}\n";
}

}  // namespace

std::string render_scale_factor_tile(const Query& q, const ScaleFactorTile& t, Format f, int row, int col) {
    const bool a = t.operand == Operand::SA;
    std::vector<ScaleFactorPlace> ps;
    if (row >= 0 || col >= 0) {
        if (row < 0 || col < 0)
            throw Error(std::string("one scale factor needs both --row and --col (") +
                        (a ? "SFA: --row m, --col K-block" : "SFB: --row K-block, --col n") + ")");
        ps.push_back(a ? t.place(row, col) : t.place(col, row));
    } else {
        for (int x = 0; x < t.extent; ++x)
            for (int kb = 0; kb < t.kblocks; ++kb) ps.push_back(t.place(x, kb));
    }
    if (f == Format::Json) return scale_factor_json(q, t, ps);
    const std::string X = a ? "SFA" : "SFB", id = a ? "sfa_id" : "sfb_id";
    std::vector<std::vector<std::string>> rows = {
        {"element", "cta", "smem_byte", "tcgen05.cp", "src_row", "src_byte", "tmem_lanes", "column", "bits", "mma", id, "j"}};
    for (const ScaleFactorPlace& p : ps)
        rows.push_back({X + "[" + num(a ? p.mn : p.kb) + "][" + num(a ? p.kb : p.mn) + "]", num(p.cta), num(p.smem_byte),
                        num(p.copy), num(p.copy_row), num(p.copy_byte), lanes_text(p.tmem_lanes), num(p.tmem_column),
                        "[" + num(8 * p.tmem_byte + 7) + ":" + num(8 * p.tmem_byte) + "]", num(p.mma), num(p.sf_id),
                        num(p.j)});
    if (f != Format::Table) return render_grid(rows, f);
    std::string s = query_title(q) + "\n" + X + " from memory to Tensor Memory (" + (a ? "row m" : "column n") +
                    ", K-block kb = k/" + num(t.vec) + "; " + num(t.nsf) + " per MMA, " + num(t.kblocks) +
                    " K-blocks = one 512-byte block per 128 " + (a ? "rows" : "columns") + ")\n";
    s += "  shared memory: " + t.smem_formula + "\n  global memory: " + t.global_formula + "\n  copy: " + t.copy_formula +
         "\n  TMEM: " + t.tmem_formula + "\n  MMA: " + t.id_formula + "\n";
    for (const std::string& n : t.notes) s += "  note: " + n + "\n";
    if (ps.size() == 1) s += "  answer: " + scale_factor_answer(t, ps.front()) + "\n";
    return s + "\n" + render_grid(rows, f) + evidence_text(t.evidence);
}

}  // namespace lanescope
