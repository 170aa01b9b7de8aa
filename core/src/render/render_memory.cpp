// `lanescope-cli load`: the plan of one request, rendered as a table, CSV, the
// JSON contract (docs/memory.md) or HIP code that issues the plan.
#include "lanescope/render_memory.hpp"
#include "lanescope/render_tile.hpp"
#include "lanescope/limits.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace lanescope {

namespace {


std::string hexaddr(long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", v);
    return buf;
}

// The layout the request is about, as (element in memory coordinates, wave, location) rows.
struct Row {
    Element element;  // as the layout names it
    Element memory;   // row/col in the memory tile
    int wave;
    Location loc;
};
struct Layout {
    std::string type;
    int bits = 0, blocks = 1, rows = 0, cols = 0, regs = 0, lanes = 0, waves = 1;
    std::string tile_fields;  // JSON, tiles only
    std::vector<Row> rows_;
};

Layout layout_for(const Query& q, const MemoryRequest& r) {
    Layout out;
    if (r.tiles && !r.tiles->single()) {
        TileLayout L(*q.ins, *q.target, r.operand, q.mods, *r.tiles);
        out.type = elem_name(L.instruction().type());
        out.bits = L.instruction().element_bits();
        out.rows = L.rows();
        out.cols = L.cols();
        out.regs = L.regs();
        out.lanes = L.lanes();
        out.waves = L.waves();
        out.tile_fields = tile_json_fields(L);
        for (const TileEntry& e : L.entries()) out.rows_.push_back({e.element, e.element, e.at.wave, e.at.loc});
        return out;
    }
    OperandLayout L = layout_of(*q.ins, *q.target, r.operand, q.mods);
    out.type = elem_name(L.type());
    out.bits = L.element_bits();
    out.blocks = L.blocks();
    out.rows = L.rows();
    out.cols = L.cols();
    out.regs = L.regs();
    out.lanes = L.lanes();
    for (const Entry& e : L.entries()) {
        Element m = e.element;
        m.row = memory_row(e.element, L.rows());
        m.block = 0;
        out.rows_.push_back({e.element, m, 0, e.loc});
    }
    return out;
}

std::string swizzle_json(const XorSwizzle& s) {
    return "{\"vec\": " + num(s.vec) + ", \"per_phase\": " + num(s.per_phase) + ", \"max_phase\": " + num(s.max_phase) + "}";
}

std::string memory_words(const Target& target, const MemoryTile& t) {
    std::string s = std::string(memory_space_name(target, t.space)) + ", " + (t.order == MemoryOrder::RowMajor ? "row" : "column") +
                    "-major, ld " + num(t.ld) + ", pad " + num(t.pad) + ", " + num(t.element_bits) + "-bit elements";
    if (t.swizzle.active())
        s += ", XOR swizzle vec " + num(t.swizzle.vec) + " per_phase " + num(t.swizzle.per_phase) + " max_phase " +
             num(t.swizzle.max_phase);
    return s;
}

std::vector<const MemoryOp*> by_lane_then_issue(const std::vector<MemoryOp>& ops) {
    std::vector<const MemoryOp*> v;
    for (const auto& op : ops) v.push_back(&op);
    std::sort(v.begin(), v.end(), [](const MemoryOp* a, const MemoryOp* b) {  // (wave, lane, issue) is unique
        return std::tie(a->wave, a->lane, a->issue) < std::tie(b->wave, b->lane, b->issue);
    });
    return v;
}

// One op of each wave-level instruction of wave 0 (the others differ only in addresses).
std::vector<const MemoryOp*> issues_of(const std::vector<MemoryOp>& ops, int wave = 0) {
    std::map<int, const MemoryOp*> first;
    for (const auto& op : ops)
        if (op.wave == wave && !first.count(op.issue)) first[op.issue] = &op;
    std::vector<const MemoryOp*> v;
    for (auto& [i, op] : first) v.push_back(op);
    return v;
}

std::string reg_range(const MemoryOp& op, bool nvidia) {
    // NVIDIA: PTX's 32-bit registers of the fragment (ldmatrix/stmatrix: one per matrix, width_bits / 32).
    const bool matrix = op.mnemonic.find("matrix") != std::string::npos;
    const int n = op.via_temp ? 1 : nvidia ? std::max(1, matrix ? op.width_bits / 32 : (op.bytes + 3) / 4)
                                           : std::max(1, (op.bytes + 3) / 4);
    const std::string v = nvidia ? "r" : "v";
    std::string s = n == 1 ? v + num(op.reg) : nvidia ? "r" + num(op.reg) + "..r" + num(op.reg + n - 1)
                                                      : "v[" + num(op.reg) + ":" + num(op.reg + n - 1) + "]";
    if (op.via_temp) s += " bits " + num(op.bit) + ".." + num(op.bit + op.width_bits - 1) +
                          (nvidia ? " via a scratch register" : " via a scratch VGPR");
    else if (op.bytes < 4 && op.bit) s += " bits " + num(op.bit) + ".." + num(op.bit + 8 * op.bytes - 1);
    return s;
}

}  // namespace

std::pair<int, int> memory_extent(const Query& q, const MemoryRequest& r) {
    if (r.tiles && !r.tiles->single()) {
        TileLayout L(*q.ins, *q.target, r.operand, q.mods, *r.tiles);
        check_tile_work(L, kMaxMemoryPlacements, r.store ? "planning stores" : "planning loads",
                        "every element's access is planned and its banks analysed in memory");
        return {L.rows(), L.cols()};
    }
    OperandLayout L = layout_of(*q.ins, *q.target, r.operand, q.mods);
    return {L.blocks() * L.rows(), L.cols()};
}

MemoryPlan plan_memory(const Query& q, const MemoryRequest& r) {
    memory_extent(q, r);  // refuses a tile over the work limit before any planning
    if (r.transpose && r.store) throw Error("--transpose and --store do not go together: transpose loads only read");
    MemoryPlan p;
    if (r.ld_shared && q.target->vendor() != Vendor::NVIDIA)
        throw Error("--ld-shared chooses NVIDIA's plain ld.shared / st.shared over ldmatrix / stmatrix; " + q.target->gfx +
                    " is AMD (legal: leave --ld-shared out)");
    if (q.target->vendor() == Vendor::NVIDIA) {
        if (r.transpose)
            throw Error("--transpose selects AMD's transpose loads; on NVIDIA ldmatrix's .trans is chosen from the tile's "
                        "order (legal: leave --transpose out; --ld-shared for plain ld.shared)");
        if (r.tiles && !r.tiles->single())
            throw Error("NVIDIA shared-memory plans are modelled for one instruction's operand; legal: leave the tile "
                        "options out");
        if (r.tile.space != MemorySpace::Lds)
            throw Error("NVIDIA plans are modelled from shared memory (ldmatrix, ld.shared); legal: --memory smem");
        const std::string matrix = r.store ? "stmatrix" : "ldmatrix";
        const std::string plain = r.store ? "st.shared" : "ld.shared";
        bool planned = false;
        if (!r.ld_shared) {
            try {
                p.ops = plan_matrix_loads(*q.ins, *q.target, r.operand, q.mods, r.tile, r.store);
                planned = true;
                p.notes.push_back(matrix + ": every register of the fragment is one m8n8 matrix of this tile (--ld-shared "
                                  "plans " + plain + " instead)");
            } catch (const Error& e) {
                p.notes.push_back(plain + " instead of " + matrix + ": " + e.what());
            }
        }
        if (!planned) {
            p.ops = r.store ? plan_stores(*q.ins, *q.target, r.operand, q.mods, r.tile, r.tiles)
                            : plan_plain_loads(*q.ins, *q.target, r.operand, q.mods, r.tile, r.tiles);
            if (r.ld_shared) p.notes.push_back(plain + ", as asked (--ld-shared)");
        }
    } else if (r.store) p.ops = plan_stores(*q.ins, *q.target, r.operand, q.mods, r.tile, r.tiles);
    else if (r.transpose) p.ops = plan_transposed_loads(*q.ins, *q.target, r.operand, q.mods, r.tile, r.tiles);
    else p.ops = plan_plain_loads(*q.ins, *q.target, r.operand, q.mods, r.tile, r.tiles);
    p.banks = analyse_banks(p.ops, *q.target, q.mods.wave, r.grouping);
    if (!r.grouping.empty() && p.banks.empty())
        throw Error("--grouping applies to LDS accesses; this plan has none (memory " +
                    std::string(memory_space_name(r.tile.space)) + "); legal: --memory lds, or leave --grouping out");
    p.coalescing = analyse_coalescing(p.ops);
    p.instructions_per_wave = wave_instruction_count(p.ops, 0);
    return p;
}

std::string render_memory(const Query& q, const MemoryRequest& r, Format f) { return render_memory(q, r, plan_memory(q, r), f); }

std::string render_memory(const Query& q, const MemoryRequest& r, const MemoryPlan& plan, Format f) {
    const Layout L = layout_for(q, r);
    const MemoryTile& t = r.tile;
    const std::string op_name(operand_name(r.operand));
    const std::string direction = r.store ? "store" : "load";
    const bool nvidia = q.target->vendor() == Vendor::NVIDIA;
    std::string kind = r.store ? "stores" : r.transpose ? "transposed loads" : "plain loads";
    if (nvidia && !plan.ops.empty() && plan.ops.front().mnemonic.find("matrix") != std::string::npos)
        kind = r.store ? "stores (stmatrix)" : "matrix loads (ldmatrix)";
    // How sure the operand's layout is (gfx1250), in the words layout/where/which use.
    const Evidence ev = layout_evidence(*q.ins, r.operand, q.mods);
    if (f == Format::Json) {
        std::string s = "{" + query_header_json(q) + ", ";
        if (!L.tile_fields.empty()) s += L.tile_fields + ", ";
        s += "\"operand\": " + json_string(op_name) + ", \"view\": \"matrix\", \"type\": " + json_string(L.type) +
             ", \"element_bits\": " + num(L.bits) + ", \"space\": \"registers\", \"blocks\": " + num(L.blocks) +
             ", \"rows\": " + num(L.rows) +
             ", \"cols\": " + num(L.cols) + ", \"regs\": " + num(L.regs) + ", \"lanes\": " + num(L.lanes) +
             (ev.confidence.empty() ? "" : ", " + evidence_json(ev)) + ",\n";
        s += "\"memory\": {\"space\": " + json_string(memory_space_name(*q.target, t.space)) + ", \"order\": " +
             json_string(memory_order_name(t.order)) + ", \"ld\": " + num(t.ld) + ", \"pad\": " + num(t.pad) +
             ", \"swizzle\": " + swizzle_json(t.swizzle) + ", \"element_bits\": " + num(t.element_bits) +
             ", \"alignment_rule\": " + json_string(alignment_rule(*q.target, t.space)) + "},\n";
        s += "\"direction\": " + json_string(direction) + ", \"transpose\": " + (r.transpose ? "true" : "false") +
             ", \"instructions_per_wave\": " + num(plan.instructions_per_wave) + ", \"notes\": [";
        for (size_t n = 0; n < plan.notes.size(); ++n) s += (n ? ", " : "") + json_string(plan.notes[n]);
        s += "],\n";
        s += "\"entries\": [\n";
        for (size_t n = 0; n < L.rows_.size(); ++n) {
            const Row& e = L.rows_[n];
            s += "{\"block\": " + num(e.element.block) + ", \"row\": " + num(e.element.row) + ", \"col\": " +
                 num(e.element.col) + (L.tile_fields.empty() ? "" : ", \"wave\": " + num(e.wave)) + ", \"lane\": " +
                 num(e.loc.lane) + ", \"reg\": " + num(e.loc.reg) + ", \"bit_lo\": " + num(e.loc.bit_lo) +
                 ", \"bit_hi\": " + num(e.loc.bit_hi) + ", \"address\": " +
                 num(element_address(t, e.memory.row, e.memory.col)) + "}" + (n + 1 < L.rows_.size() ? ",\n" : "\n");
        }
        s += "],\n\"loads\": [\n";
        const auto ordered = by_lane_then_issue(plan.ops);
        for (size_t n = 0; n < ordered.size(); ++n) {
            const MemoryOp& op = *ordered[n];
            s += "{\"wave\": " + num(op.wave) + ", \"lane\": " + num(op.lane) + ", \"issue\": " + num(op.issue) +
                 ", \"mnemonic\": " + json_string(op.mnemonic) + ", \"address\": " + num(op.address) + ", \"bytes\": " +
                 num(op.bytes) + ", \"reg\": " + num(op.reg) + ", \"bit\": " + num(op.bit) + ", \"width_bits\": " +
                 num(op.width_bits) + ", \"via_temp\": " + (op.via_temp ? "true" : "false") + ", \"builtin\": " +
                 json_string(op.builtin) + ", \"elements\": " + num(static_cast<long long>(op.delivers.size())) + "}" +
                 (n + 1 < ordered.size() ? ",\n" : "\n");
        }
        s += "],\n\"banks\": [";
        if (!plan.banks.empty()) {
            const BankModel bm = bank_model(*q.target);
            for (size_t n = 0; n < plan.banks.size(); ++n) {
                const BankReport& b = plan.banks[n];
                s += std::string(n ? ",\n" : "\n") + "{\"wave\": " + num(b.wave) + ", \"issue\": " + num(b.issue) +
                     ", \"mnemonic\": " + json_string(b.mnemonic) + ", \"cycles\": " + num(b.cycles) +
                     (nvidia ? ", \"wavefronts\": " + num(b.cycles) : std::string()) +
                     ", \"minimum_cycles\": " + num(b.minimum_cycles) + ", \"grouping\": {\"name\": " +
                     json_string(b.grouping.name) + ", \"source\": " + json_string(b.grouping.source) +
                     ", \"confidence\": " + json_string(b.grouping.confidence) + "}, \"passes\": [";
                for (size_t p = 0; p < b.passes.size(); ++p) {
                    s += std::string(p ? ", " : "") + "{\"lanes\": [";
                    for (size_t l = 0; l < b.passes[p].lanes.size(); ++l) s += (l ? ", " : "") + num(b.passes[p].lanes[l]);
                    s += "], \"cycles\": " + num(b.passes[p].cycles) + "}";
                }
                s += "], \"bank_model\": {\"banks\": " + num(bm.banks) + ", \"bank_bytes\": " + num(bm.bank_bytes) +
                     ", \"source\": " + json_string(bm.source) + ", \"confidence\": " + json_string(bm.confidence) + "}}";
            }
            s += "\n";
        }
        s += "],\n\"groupings_offered\": [";
        if (!plan.banks.empty()) {
            const auto offered = pass_groupings(*q.target, plan.banks.front().mnemonic, q.mods.wave);
            for (size_t n = 0; n < offered.size(); ++n)
                s += (n ? ", " : "") + std::string("{\"name\": ") + json_string(offered[n].name) + ", \"confidence\": " +
                     json_string(offered[n].confidence) + "}";
        }
        s += "],\n\"coalescing\": [";
        for (size_t n = 0; n < plan.coalescing.size(); ++n) {
            const CoalescingReport& c = plan.coalescing[n];
            s += std::string(n ? ",\n" : "\n") + "{\"wave\": " + num(c.wave) + ", \"issue\": " + num(c.issue) +
                 ", \"mnemonic\": " + json_string(c.mnemonic) + ", \"bytes\": " + num(c.bytes) + ", \"unique_bytes\": " +
                 num(c.unique_bytes) + ", \"cache_lines\": " + num(c.cache_lines) + ", \"minimum_lines\": " +
                 num(c.minimum_lines) + ", \"segments_64b\": " + num(c.segments_64b) + ", \"minimum_segments\": " +
                 num(c.minimum_segments) + "}";
        }
        return s + (plan.coalescing.empty() ? "" : "\n") + "]}\n";
    }
    std::vector<std::vector<std::string>> grid;
    if (f == Format::Csv || f == Format::Markdown) {  // one table each (render.hpp)
        grid.push_back({"wave", "lane", "issue", "mnemonic", "address", "bytes", "reg", "bit", "width_bits", "via_temp"});
        for (const MemoryOp* op : by_lane_then_issue(plan.ops))
            grid.push_back({num(op->wave), num(op->lane), num(op->issue), op->mnemonic, num(op->address), num(op->bytes),
                            num(op->reg), num(op->bit), num(op->width_bits), op->via_temp ? "1" : "0"});
        return render_grid(grid, f);
    }
    const bool md = f == Format::Markdown;
    std::string out = (md ? "### " : "") + std::string(r.store ? "Stores of " : "Loads of ") + op_name + " of " +
                      query_title(q) + (r.tiles && !r.tiles->single() ? " (tile: " + with_shape(*r.tiles, *q.ins).describe() + ")" : "") +
                      "\nmemory: " + memory_words(*q.target, t) + "\n" + kind + ": " + num(plan.instructions_per_wave) +
                      " instructions per " + (nvidia ? "warp" : "wave") + "\nalignment: " +
                      alignment_rule(*q.target, t.space) + "\n" + evidence_text(ev);
    for (const std::string& n : plan.notes) out += "note: " + n + "\n";
    out += "\n";
    // Per-lane address table: one column per wave-level instruction.
    const auto issues = issues_of(plan.ops);
    std::vector<std::string> head = {L.waves > 1 ? "wave:lane" : "lane"};
    for (const MemoryOp* op : issues) head.push_back("#" + num(op->issue) + " " + op->mnemonic);
    grid.push_back(head);
    std::map<std::pair<int, int>, std::map<int, const MemoryOp*>> at;
    for (const auto& op : plan.ops) at[{op.wave, op.lane}][op.issue] = &op;
    for (const auto& [key, row_ops] : at) {
        std::vector<std::string> row = {L.waves > 1 ? num(key.first) + ":" + num(key.second) : num(key.second)};
        for (const MemoryOp* op : issues) {
            auto it = row_ops.find(op->issue);
            row.push_back(it == row_ops.end() ? "-" : hexaddr(it->second->address));
        }
        grid.push_back(row);
    }
    out += (md ? "#### " : "") + std::string("Byte address per lane (from the tile's start)\n") + render_grid(grid, f) + "\n";
    grid.clear();
    grid.push_back({"issue", "mnemonic", "bytes", "registers", "lanes", "builtin"});
    std::map<int, int> lanes_of_issue;  // wave 0's lanes taking part in each issue
    for (const auto& o : plan.ops)
        if (o.wave == 0) ++lanes_of_issue[o.issue];
    for (const MemoryOp* op : issues) {
        const int lanes = lanes_of_issue[op->issue];
        grid.push_back({num(op->issue), op->mnemonic, num(op->bytes), reg_range(*op, nvidia), num(lanes),
                        op->builtin.empty() ? "-" : op->builtin});
    }
    out += (md ? "#### " : "") + std::string(nvidia ? "Instructions (warp 0)\n" : "Instructions (wave 0)\n") + render_grid(grid, f) + "\n";
    if (!plan.banks.empty()) {
        const BankModel bm = bank_model(*q.target);
        out += (md ? "#### " : "") + std::string(nvidia ? "Shared-memory banks: " : "LDS banks: ") + num(bm.banks) + " x " +
               num(bm.bank_bytes) + " bytes (" + bm.confidence + "; " + bm.source + ")\n";
        grid.clear();
        if (nvidia)
            grid.push_back({"issue", "mnemonic", "phases", "wavefronts", "conflict-free", "worst phase", "phases (confidence)"});
        else
            grid.push_back({"issue", "mnemonic", "passes", "cycles", "conflict-free", "worst pass", "grouping (confidence)"});
        std::set<std::string> sources;
        for (const BankReport& b : plan.banks) {
            if (b.wave != 0) continue;
            int worst = 0;
            for (const auto& p : b.passes) worst = std::max(worst, p.cycles);
            grid.push_back({num(b.issue), b.mnemonic, num(static_cast<long long>(b.passes.size())), num(b.cycles),
                            num(b.minimum_cycles), num(worst) + "-way",
                            b.grouping.name + " (" + b.grouping.confidence + ")"});
            sources.insert(b.grouping.name + ": " + b.grouping.source);
        }
        out += render_grid(grid, f);
        for (const auto& s : sources) out += (nvidia ? "phases " : "grouping ") + s + "\n";
        if (nvidia) {
            // Each instruction's banks phase by phase (distinct words per bank; . = none).
            std::map<std::pair<int, int>, const MemoryOp*> by;
            std::map<int, std::map<int, const MemoryOp*>> lanes_of;
            for (const MemoryOp& op : plan.ops)
                if (op.wave == 0) lanes_of[op.issue][op.lane] = &op;
            for (const BankReport& b : plan.banks) {
                if (b.wave != 0) continue;
                out += "#" + num(b.issue) + " " + b.mnemonic + ": " + num(b.cycles) + " wavefronts\n";
                for (size_t p = 0; p < b.passes.size(); ++p) {
                    std::map<long long, std::set<long long>> words;  // bank -> words
                    for (int lane : b.passes[p].lanes) {
                        const MemoryOp* op = lanes_of[b.issue][lane];
                        if (!op) continue;
                        for (long long w = op->address / 4; w <= (op->address + op->bytes - 1) / 4; ++w) words[w % 32].insert(w);
                    }
                    std::string row;
                    for (int bank = 0; bank < 32; ++bank) {
                        const size_t n = words.count(bank) ? words[bank].size() : 0;
                        row += n == 0 ? '.' : n < 10 ? static_cast<char>('0' + n) : '+';
                        if (bank % 8 == 7 && bank < 31) row += ' ';
                    }
                    const auto& ls = b.passes[p].lanes;
                    char line[200];
                    std::snprintf(line, sizeof line, "  phase %-2zu lanes %2d-%-2d  %d  %s\n", p, ls.front(), ls.back(),
                                  b.passes[p].cycles, row.c_str());
                    out += line;
                }
            }
            return out;
        }
        const auto offered = pass_groupings(*q.target, plan.banks.front().mnemonic, q.mods.wave);
        out += "other groupings (--grouping NAME):";
        for (size_t n = 1; n < offered.size(); ++n) out += (n > 1 ? "," : "") + std::string(" '") + offered[n].name + "'";
        out += "\n";
    }
    if (!plan.coalescing.empty()) {
        grid.clear();
        grid.push_back({"issue", "mnemonic", "bytes", "128-byte lines", "minimum", "64-byte segments", "minimum"});
        for (const CoalescingReport& c : plan.coalescing)
            if (c.wave == 0)
                grid.push_back({num(c.issue), c.mnemonic, num(c.bytes), num(c.cache_lines), num(c.minimum_lines),
                                num(c.segments_64b), num(c.minimum_segments)});
        out += (md ? "#### " : "") + std::string("Global coalescing (wave 0)\n") + render_grid(grid, f);
    }
    return out;
}

namespace {

// The vector type a transpose builtin's suffix names: _v2i32, _v3i32, _i32, _v4i16, _v8f16, ...

std::string plain_type(int bytes) {
    switch (bytes) {
        case 1: return "unsigned char";
        case 2: return "unsigned short";
        case 4: return "unsigned";
        case 8: return "ls_u32x2";
        case 12: return "ls_u32x3";
        default: return "ls_u32x4";
    }
}

// Closed-form address of one issue over x = wave * lanes + lane (lanes a power of two): the
// lanes taking part as a constant mask of the lane (the same in every wave), and the address as
// c + sum of bit_b(x) * m_b (integer-affine: strides, padding) or c ^ XOR of bit_b(x) * m_b
// (swizzles), checked over every (wave, lane) that takes part. Empty when neither fits: the
// caller keeps a table.
struct AddressForm {
    std::string expr, active;  // active empty: every lane
};
std::optional<AddressForm> address_form(const std::vector<long long>& a, int waves, int lanes) {
    if ((lanes & (lanes - 1)) || lanes > 64 || (waves & (waves - 1))) return std::nullopt;
    const long long none = 0xFFFFFFFFLL;
    unsigned long long mask = 0;
    for (int l = 0; l < lanes; ++l)
        if (a[static_cast<size_t>(l)] != none) mask |= 1ULL << l;
    for (int w = 0; w < waves; ++w)
        for (int l = 0; l < lanes; ++l)
            if ((a[static_cast<size_t>(w) * lanes + l] != none) != ((mask >> l & 1) != 0)) return std::nullopt;
    if (mask == 0) return AddressForm{"0u", "false"};
    int lane_bits = 0, wave_bits = 0;
    while ((1 << lane_bits) < lanes) ++lane_bits;
    while ((1 << wave_bits) < waves) ++wave_bits;
    const int bits = lane_bits + wave_bits;
    int x0 = 0;
    while (!(mask >> x0 & 1)) ++x0;
    const long long a0 = a[static_cast<size_t>(x0)];
    for (bool additive : {true, false}) {
        std::vector<long long> m(static_cast<size_t>(bits), 0);
        std::vector<bool> known(static_cast<size_t>(bits), false);
        long long c = a0;
        for (int b = 0; b < bits; ++b) {
            const long long other = a[static_cast<size_t>(x0 ^ (1 << b))];
            if (other == none) continue;
            known[static_cast<size_t>(b)] = true;
            const bool set = x0 >> b & 1;
            m[static_cast<size_t>(b)] = additive ? (set ? a0 - other : other - a0) : (a0 ^ other);
            if (set) c = additive ? c - m[static_cast<size_t>(b)] : c ^ m[static_cast<size_t>(b)];
        }
        bool ok = true;
        for (int x = 0; x < waves * lanes && ok; ++x) {
            if (a[static_cast<size_t>(x)] == none) continue;
            long long v = c;
            for (int b = 0; b < bits; ++b)
                if (x >> b & 1) {
                    if (!known[static_cast<size_t>(b)]) ok = false;
                    v = additive ? v + m[static_cast<size_t>(b)] : v ^ m[static_cast<size_t>(b)];
                }
            ok = ok && v == a[static_cast<size_t>(x)];
        }
        if (!ok || c < 0 || (!additive && c > 0xFFFFFFFFLL)) continue;
        // Terms: bits of one variable with one multiplier per unit grouped as (v & mask) * k (additive) or
        // (v & mask) << s (XOR of single bits); the rest bit by bit.
        std::map<std::pair<std::string, long long>, unsigned> groups;
        std::vector<std::string> terms;
        for (int b = 0; b < bits; ++b) {
            const long long mb = m[static_cast<size_t>(b)];
            if (!known[static_cast<size_t>(b)] || mb == 0) continue;
            const std::string v = b < lane_bits ? "lane" : "wave";
            const int bit = b < lane_bits ? b : b - lane_bits;
            if (additive && mb > 0 && mb % (1LL << bit) == 0)
                groups[{v, mb >> bit}] |= 1u << bit;
            else if (!additive && mb > 0 && (mb & (mb - 1)) == 0 && mb >= (1LL << bit))
                groups[{v, mb >> bit}] |= 1u << bit;
            else
                terms.push_back((additive && mb < 0 ? "0u - " : "") + std::string("(((unsigned)") + v + " >> " + num(bit) +
                                " & 1u) * " + num(mb < 0 ? -mb : mb) + "u)");
        }
        for (const auto& [key, msk] : groups) {
            std::string t = "((unsigned)" + key.first + " & " + num(msk) + "u)";
            if (key.second != 1) {
                if (additive) {
                    t = "(" + t + " * " + num(key.second) + "u)";
                } else {
                    int shift = 0;
                    while ((1LL << shift) < key.second) ++shift;
                    t = "(" + t + " << " + num(shift) + ")";
                }
            }
            terms.push_back(t);
        }
        AddressForm f;
        f.expr = num(c) + "u";
        for (const auto& t : terms) {
            if (additive && t.rfind("0u - ", 0) == 0) f.expr += " - " + t.substr(5);
            else f.expr += (additive ? " + " : " ^ ") + t;
        }
        const unsigned long long all = lanes == 64 ? ~0ULL : (1ULL << lanes) - 1;
        if (mask != all) f.active = "(" + num(static_cast<long long>(mask >> 1)) + "ull << 1 | " + num(static_cast<long long>(mask & 1)) + "ull) >> lane & 1u";
        return f;
    }
    return std::nullopt;
}

// Where the address is neither affine nor an XOR form (padding with a swizzle): the (row, col) whose
// byte the lane's access starts at, each a closed form of (wave, lane), and the tile's address
// formula (memory.hpp) written out. Plain accesses of whole bytes only; checked for every lane.
std::optional<AddressForm> element_form(const MemoryPlan& plan, const MemoryTile& tile, int issue, int waves, int lanes) {
    if (tile.element_bits % 8) return std::nullopt;
    const long long none = 0xFFFFFFFFLL;
    std::vector<long long> rows(static_cast<size_t>(waves) * lanes, none), cols(rows.size(), none);
    for (const MemoryOp& op : plan.ops) {
        if (op.issue != issue) continue;
        if (!op.builtin.empty() || op.via_temp) return std::nullopt;
        bool found = false;
        for (const Delivery& d : op.delivers) {
            const Element& e = d.element;
            if (element_address(tile, e.row, e.col) == op.address) {
                rows[static_cast<size_t>(op.wave) * lanes + op.lane] = e.row;
                cols[static_cast<size_t>(op.wave) * lanes + op.lane] = e.col;
                found = true;
                break;
            }
        }
        if (!found) return std::nullopt;
    }
    const std::optional<AddressForm> fr = address_form(rows, waves, lanes), fc = address_form(cols, waves, lanes);
    if (!fr || !fc) return std::nullopt;
    const bool row_major = tile.order == MemoryOrder::RowMajor;
    const std::string line = row_major ? "row" : "col", pos = row_major ? "col" : "row";
    std::string p = pos;
    if (tile.swizzle.active())
        p = "(" + pos + " ^ " + num(tile.swizzle.vec) + "u * ((" + line + " / " + num(tile.swizzle.per_phase) + "u) % " +
            num(tile.swizzle.max_phase) + "u))";
    AddressForm f;
    f.expr = "[&] { const unsigned row = " + fr->expr + ", col = " + fc->expr + "; return (" + line + " * " +
             num(static_cast<long long>(tile.ld) + tile.pad) + "u + " + p + ") * " + num(tile.element_bits / 8) + "u; }()";
    f.active = fr->active;
    return f;
}

}  // namespace

std::string render_memory_hip(const Query& q, const MemoryRequest& r, const std::string& name) {
    return render_memory_hip(q, r, plan_memory(q, r), name);
}

std::string render_memory_hip(const Query& q, const MemoryRequest& r, const MemoryPlan& plan, const std::string& name,
                              bool tables) {
    if (q.target->vendor() == Vendor::NVIDIA)
        throw Error("--format hip writes HIP code for AMD targets; " + q.target->gfx +
                    " is NVIDIA (legal: table, csv, markdown, json)");
    const Layout L = layout_for(q, r);
    const int waves = L.waves, lanes = L.lanes;
    std::vector<const MemoryOp*> issues = issues_of(plan.ops);
    const int n_issues = static_cast<int>(issues.size());
    bool builtins = false;
    for (const auto& op : plan.ops) builtins |= !op.builtin.empty();
    // Tables: per wave, issue and lane the address (0xFFFFFFFF: the lane does not take part) and the unit bit.
    std::vector<long long> addr(static_cast<size_t>(waves) * n_issues * lanes, 0xFFFFFFFFLL);
    std::vector<int> unit(addr.size(), 0), dst(addr.size(), 0), width(addr.size(), 0);
    std::map<int, int> slot_of_issue;
    for (int n = 0; n < n_issues; ++n) slot_of_issue[issues[n]->issue] = n;
    for (const auto& op : plan.ops) {
        if (op.address > 0xFFFFFFFELL) throw Error("the tile exceeds 4 GiB; HIP code addresses 32-bit offsets");
        const size_t at = (static_cast<size_t>(op.wave) * n_issues + slot_of_issue.at(op.issue)) * lanes + op.lane;
        addr[at] = op.address;
        unit[at] = op.unit_bit;
        dst[at] = op.reg * 32 + op.bit;
        width[at] = op.width_bits;
    }
    const bool lds = r.tile.space == MemorySpace::Lds;
    const std::string space = lds ? "LS_LDS" : "LS_GLOBAL";
    std::string s = "// Generated by lanescope-cli load: " + std::string(r.store ? "stores of " : "loads of ") +
                    std::string(operand_name(r.operand)) + " of " + query_title(q) + "\n// memory: " + memory_words(*q.target, r.tile) +
                    "\n// " + num(n_issues) + " instructions per wave. Compiles as HIP device code (clang -x hip) and, "
                    "for plain loads, as host C++ with clang (the engine's own check runs it there).\n";
    s += "#pragma once\n#if defined(__HIP__)\n#ifndef LS_HD\n#define LS_HD __attribute__((host)) __attribute__((device))\n#endif\n"
         "#else\n#ifndef LS_HD\n#define LS_HD\n#endif\n#endif\n"
         "#if defined(__HIP_DEVICE_COMPILE__)\n#ifndef LS_LDS\n#define LS_LDS __attribute__((address_space(3)))\n"
         "#define LS_GLOBAL __attribute__((address_space(1)))\n#endif\n#else\n#ifndef LS_LDS\n#define LS_LDS\n"
         "#define LS_GLOBAL\n#endif\n#endif\n\n";
    s += "namespace " + name + " {\n\n";
    s += "typedef unsigned ls_u32x2 __attribute__((ext_vector_type(2)));\n"
         "typedef unsigned ls_u32x3 __attribute__((ext_vector_type(3)));\n"
         "typedef unsigned ls_u32x4 __attribute__((ext_vector_type(4)));\n";
    std::set<std::string> vec_types;
    for (const auto& op : plan.ops)
        if (!op.builtin.empty()) {
            auto [type, count] = builtin_vector(op.builtin);
            if (count > 1)
                vec_types.insert("typedef " + type + " ls_" + op.builtin.substr(op.builtin.rfind('_') + 1) +
                                 " __attribute__((ext_vector_type(" + num(count) + ")));\n");
        }
    for (const auto& v : vec_types) s += v;
    // Per issue: the address as a closed form of (wave, lane) where one fits, else a row of the table;
    // the unit bit inline where every lane shares it.
    std::vector<std::optional<AddressForm>> forms(static_cast<size_t>(n_issues));
    std::vector<int> shared_unit(static_cast<size_t>(n_issues), -1);
    bool need_address = false, need_unit = false;
    for (int n = 0; n < n_issues; ++n) {
        std::vector<long long> a(static_cast<size_t>(waves) * lanes);
        int u = -2;
        for (int w = 0; w < waves; ++w)
            for (int l = 0; l < lanes; ++l) {
                const size_t at = (static_cast<size_t>(w) * n_issues + n) * lanes + l;
                a[static_cast<size_t>(w) * lanes + l] = addr[at];
                if (addr[at] == 0xFFFFFFFFLL) continue;
                u = u == -2 || u == unit[at] ? unit[at] : -1;
            }
        if (!tables) forms[static_cast<size_t>(n)] = address_form(a, waves, lanes);
        if (!tables && !forms[static_cast<size_t>(n)]) forms[static_cast<size_t>(n)] = element_form(plan, r.tile, issues[n]->issue, waves, lanes);
        shared_unit[static_cast<size_t>(n)] = u;  // -1: lanes differ, -2: no lane takes part
        need_address |= !forms[static_cast<size_t>(n)];
        need_unit |= u == -1;
    }
    s += "\nstruct Plan {\n    static constexpr int waves = " + num(waves) + ", lanes = " + num(lanes) + ", issues = " +
         num(n_issues) + ", regs = " + num(L.regs) + ";\n";
    if (need_address) {
        s += "    // Byte offset per (wave, issue, lane) from the tile's start; 0xFFFFFFFF: lane not active.\n";
        s += "    static constexpr unsigned address[" + num(static_cast<long long>(std::max<size_t>(1, addr.size()))) + "] = {";
        for (size_t n = 0; n < addr.size(); ++n) s += (n % 16 ? " " : "\n        ") + hexaddr(addr[n]) + "u,";
        s += "\n    };\n";
    }
    // Through a scratch register each lane may move its own bits: where they go and how many.
    bool temp = false;
    for (const auto& op : plan.ops) temp |= op.via_temp;
    if (temp || need_unit) {
        s += "    static constexpr unsigned char unit_bit[" + num(static_cast<long long>(std::max<size_t>(1, unit.size()))) + "] = {";
        for (size_t n = 0; n < unit.size(); ++n) s += (n % 32 ? " " : "\n        ") + num(unit[n]) + ",";
        s += "\n    };\n";
    }
    if (temp) {
        s += "    static constexpr unsigned dst_bit[" + num(static_cast<long long>(std::max<size_t>(1, dst.size()))) + "] = {";
        for (size_t n = 0; n < dst.size(); ++n) s += (n % 32 ? " " : "\n        ") + num(dst[n]) + ",";
        s += "\n    };\n    static constexpr unsigned char width[" + num(static_cast<long long>(std::max<size_t>(1, width.size()))) +
             "] = {";
        for (size_t n = 0; n < width.size(); ++n) s += (n % 32 ? " " : "\n        ") + num(width[n]) + ",";
        s += "\n    };\n";
    }
    s += "};\n\n";
    s += "// Copies n bits from src (bit src_bit on) to dst (bit dst_bit on), lowest bit first.\n"
         "LS_HD inline void ls_copy_bits(unsigned char* dst, int dst_bit, const unsigned char* src, int src_bit, int n) {\n"
         "    for (int b = 0; b < n; ++b) {\n"
         "        const int from = src_bit + b, to = dst_bit + b;\n"
         "        const unsigned bit = (src[from >> 3] >> (from & 7)) & 1u;\n"
         "        dst[to >> 3] = (unsigned char)((dst[to >> 3] & ~(1u << (to & 7))) | (bit << (to & 7)));\n"
         "    }\n}\n\n";
    const bool tiled = waves > 1;
    const std::string wave_param = tiled ? "int wave, " : "";
    const std::string at0 = tiled ? "(wave * Plan::issues + " : "(";
    if (builtins) s += "#if defined(__HIP__)\n";
    if (r.store) {
        s += "// Writes lane `lane`'s fragment regs to the tile at base (" + std::string(lds ? "LDS" : "global memory") +
             ").\n" + (builtins ? "__attribute__((device)) inline" : "LS_HD inline") + " void drain(" + space +
             " unsigned char* base, " + wave_param + "int lane, const unsigned (&regs)[" + num(std::max(1, L.regs)) +
             "]) {\n";
    } else {
        s += "// Fills lane `lane`'s fragment regs from the tile at base (" + std::string(lds ? "LDS" : "global memory") +
             ").\n" + (builtins ? "__attribute__((device)) inline" : "LS_HD inline") + " void fill(const " + space +
             " unsigned char* base, " + wave_param + "int lane, unsigned (&regs)[" + num(std::max(1, L.regs)) + "]) {\n";
    }
    s += std::string("    (void)lane;\n") + (tiled ? "    (void)wave;\n" : "");
    for (int n = 0; n < n_issues; ++n) {
        const MemoryOp& op = *issues[n];
        const std::optional<AddressForm>& form = forms[static_cast<size_t>(n)];
        const int su = shared_unit[static_cast<size_t>(n)];
        const std::string unit_bit = su == -1 || op.via_temp ? "Plan::unit_bit[at]" : num(std::max(0, su));
        s += "    {  // #" + num(op.issue) + " " + op.mnemonic + " -> " + reg_range(op, false) + "\n";
        if (!form || op.via_temp || su == -1) s += "        const int at = " + at0 + num(n) + ") * Plan::lanes + lane;\n";
        if (form) {
            s += "        const unsigned addr = " + form->expr + ";  // closed form of (wave, lane)\n";
            s += "        if (" + (form->active.empty() ? std::string("true") : form->active) + ") {\n";
        } else {
            s += "        const unsigned addr = Plan::address[at];\n";
            s += "        if (addr != 0xFFFFFFFFu) {\n";
        }
        if (!op.builtin.empty()) {
            auto [type, count] = builtin_vector(op.builtin);
            const std::string vt = count > 1 ? "ls_" + op.builtin.substr(op.builtin.rfind('_') + 1) : type;
            const std::string as = op.builtin.find("global_") != std::string::npos ? "LS_GLOBAL" : "LS_LDS";
            s += "            " + vt + " v = " + op.builtin + "((" + as + " " + vt + "*)(base + addr));\n";
            s += "            ls_copy_bits((unsigned char*)regs, " + num(op.reg * 32 + op.bit) +
                 ", (const unsigned char*)&v, 0, (int)(8 * sizeof v));\n";
        } else if (r.store) {
            const std::string ty = plain_type(op.bytes);
            s += "            " + ty + " v = " + ty + "();\n";
            s += op.via_temp ? "            ls_copy_bits((unsigned char*)&v, Plan::unit_bit[at], (const unsigned char*)regs, "
                               "Plan::dst_bit[at], Plan::width[at]);\n"
                             : "            ls_copy_bits((unsigned char*)&v, 0, (const unsigned char*)regs, " +
                                   num(op.reg * 32 + op.bit) + ", " + num(op.width_bits) + ");\n";
            s += "            *(" + space + " " + ty + "*)(base + addr) = v;\n";
        } else {
            const std::string ty = plain_type(op.bytes);
            s += "            const " + ty + " v = *(const " + space + " " + ty + "*)(base + addr);\n";
            if (op.via_temp) {
                s += "            ls_copy_bits((unsigned char*)regs, Plan::dst_bit[at], (const unsigned char*)&v, "
                     "Plan::unit_bit[at], Plan::width[at]);\n";
            } else if (op.bytes >= 4 && op.bit == 0) {
                const char* comp[] = {"x", "y", "z", "w"};
                if (op.bytes == 4) s += "            regs[" + num(op.reg) + "] = v;\n";
                else
                    for (int d = 0; d < op.bytes / 4; ++d)
                        s += "            regs[" + num(op.reg + d) + "] = v." + comp[d] + ";\n";
            } else {
                s += "            ls_copy_bits((unsigned char*)regs, " + num(op.reg * 32 + op.bit) +
                     ", (const unsigned char*)&v, " + unit_bit + ", " + num(op.width_bits) + ");\n";
            }
        }
        s += "        }\n    }\n";
    }
    s += "}\n";
    if (builtins) s += "#endif\n";
    return s + "\n}  // namespace " + name + "\n";
}

// ------------------------------------------------------ transpose info ---
namespace {

std::string json_list(const std::vector<std::string>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json_string(v[i]);
    return s + "]";
}

}  // namespace

std::string render_transpose_info(const TransposeLoad& load, const Target& t, Format format) {
    if (format == Format::Json) {
        std::string s = "{\"arch\": " + json_string(t.arch_name()) + ", \"target\": " + json_string(t.gfx) +
                        ", \"instruction\": " + json_string(load.mnemonic) + ", \"mnemonic\": " + json_string(load.mnemonic) +
                        ", \"kind\": \"transpose_load\", \"wave_size\": " + num(load.wave) + ",\n";
        std::vector<std::string> fams;
        for (Family f : load.families) fams.push_back(std::string(family_name(f)));
        s += "\"families\": " + json_list(fams) + ", \"builtins\": [";
        for (size_t i = 0; i < load.builtins.size(); ++i)
            s += std::string(i ? ", " : "") + "{\"name\": " + json_string("__builtin_amdgcn_" + load.builtins[i]) +
                 ", \"prototype\": " + json_string(transpose_builtin_prototype(load, load.builtins[i]).prototype) + "}";
        s += "],\n\"features\": " + json_string(load.features) + ", \"memory\": " +
             json_string(memory_space_name(load.space)) + ", \"encoding\": " + json_string(load.encoding) +
             ", \"opcode\": " + num(load.opcode) + ", \"example\": " + json_string(load.example) + ",\n";
        s += "\"lane_bits\": " + num(load.lane_bits) + ", \"element_bits\": " + num(load.element_bits) +
             ", \"elements_per_lane\": " + num(load.per_lane()) + ", \"group\": " + num(load.group) +
             ", \"vgprs\": " + num(load.vgprs) + ", \"vgpr_alignment\": " + json_string(load.vgpr_even ? "even" : "any") +
             ", \"address_alignment_bytes\": " + num(load.address_align) + ", \"exec\": " + json_string(load.exec) + ",\n";
        s += "\"rule\": " + json_string(transpose_rule_name(load.rule)) + ", \"rule_formula\": " +
             json_string(load.rule == TransposeRule::Unknown ? "unknown: " + load.rule_unknown_why
                                                             : transpose_rule_formula(load.rule)) +
             ",\n\"confidence\": " + json_string(load.confidence) + ", \"confidence_basis\": " +
             json_string(load.confidence_basis) + ",\n\"feeds\": [";
        const auto feeds = transpose_feeds_on(load, t);
        for (size_t i = 0; i < feeds.size(); ++i) {
            const auto& x = feeds[i];
            s += std::string(i ? ",\n " : "\n ") + "{\"instruction\": " + json_string(x.instruction) + ", \"operand\": " +
                 json_string(x.operand) + ", \"order\": " + json_string(x.order == "row-major" ? "row" : "col") +
                 (x.format.empty() ? "" : ", \"format\": " + json_string(x.format)) + ", \"calls\": " + num(x.calls) +
                 ", \"builtin\": " + json_string(x.builtin) + "}";
        }
        s += "],\n\"source\": " + json_string(load.source) + ", \"catalog_line\": " + num(load.catalog_line) + "}\n";
        return s;
    }
    std::vector<std::vector<std::string>> rows = {{"fact", "value"}};
    for (auto& [k, v] : transpose_load_facts(load, t)) rows.push_back({k, v});
    if (format == Format::Csv || format == Format::Markdown) return render_grid(rows, format);  // one table: the facts
    const bool md = format == Format::Markdown;
    std::string out = (md ? "## " : "") + load.mnemonic + " on " + t.gfx + " (" + std::string(family_title(t.family)) +
                      "), wave" + num(load.wave) + ": transpose load\n\n";
    out += render_grid(rows, md ? Format::Markdown : Format::Table);
    out += "\nLane rule (" + std::string(transpose_rule_name(load.rule)) + "):\n  " +
           (load.rule == TransposeRule::Unknown ? "unknown: " + load.rule_unknown_why : transpose_rule_formula(load.rule)) +
           "\n";
    out += "Confidence: " + load.confidence + " (" + load.confidence_basis + ")\n";
    out += "Source: " + load.source + " (keys of docs/sources.md)\n";
    return out;
}

}  // namespace lanescope
