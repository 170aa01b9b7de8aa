// `lanescope-cli load --sweep`: the ranked candidates of sweep_memory as a
// table, CSV, markdown or the JSON contract of docs/memory.md.
#include "lanescope/memory.hpp"
#include "lanescope/render.hpp"
#include "lanescope/numbers.hpp"
#include "lanescope/render_memory.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace lanescope {

namespace {


std::string ratio(long long cost, long long minimum) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", minimum > 0 ? static_cast<double>(cost) / static_cast<double>(minimum) : 0.0);
    return buf;
}

std::string instructions_words(const SweepRow& r) {
    std::string s;
    for (const auto& [m, n] : r.instructions) s += (s.empty() ? "" : ", ") + num(n) + " x " + m;
    return s;
}

// `command` without " NAME VALUE" (the request's --order or --ld, where a row names its own).
std::string without_option(std::string command, const std::string& name) {
    const std::string key = " " + name + " ";
    const size_t at = command.find(key);
    if (at == std::string::npos) return command;
    size_t end = at + key.size();
    if (end < command.size() && command[end] == '\'') end = command.find('\'', end + 1) + 1;
    else end = command.find(' ', end);
    return command.erase(at, end == std::string::npos || end == 0 ? std::string::npos : end - at);
}

std::string row_command(const std::string& command, const SweepRow& r) {
    const SweepCandidate& c = r.candidate;
    std::string base = command;
    if (c.reorder) base = without_option(base, "--order");
    if (c.reorder || c.ld > 0) base = without_option(base, "--ld");
    const std::string o = c.options();
    return o.empty() ? base : base + " " + o;
}

// The kind of choice a candidate makes, for the best row of each kind.
// "8 (bank 0: lanes 0, 4, 8, 12)": the worst pass's conflict, or "1" where none.
std::string ways_words(const SweepRow& r) {
    const SweepConflict& c = r.conflict;
    if (c.ways <= 1) return num(c.ways);
    std::string lanes;
    for (size_t n = 0; n < c.words.size() && n < 8; ++n) lanes += (n ? ", " : "") + num(c.words[n].second);
    if (c.words.size() > 8) lanes += ", ...";
    return num(c.ways) + " (bank " + num(c.bank) + ": lanes " + lanes + ")";
}

const char* kind_of(const SweepCandidate& c) {
    if (c.transpose) return "transpose";
    if (c.swizzle.active()) return "swizzle";
    return c.pad > 0 ? "pad" : "none";
}
const char* const kKinds[] = {"none", "pad", "swizzle", "transpose"};

// Rank (1-based, in the whole ranking) of the best row of each kind; 0 where none was ranked.
std::vector<size_t> best_of_kinds(const SweepReport& s) {
    std::vector<size_t> best(4, 0);
    for (size_t n = 0; n < s.rows.size(); ++n)
        for (size_t k = 0; k < 4; ++k)
            if (!best[k] && std::string(kind_of(s.rows[n].candidate)) == kKinds[k]) best[k] = n + 1;
    return best;
}

}  // namespace

std::string render_sweep(const Query& q, const MemoryRequest& r, const SweepReport& s, Format f,
                         const std::string& command, int top) {
    const bool lds = r.tile.space == MemorySpace::Lds;
    const size_t shown = top > 0 ? std::min(s.rows.size(), static_cast<size_t>(top)) : s.rows.size();
    const std::string op_name(operand_name(r.operand));
    const std::string unit = lds ? "cycles" : "lines";
    const std::string per = lds ? "bytes per cycle" : "bytes per 128-byte line";
    const Evidence ev = layout_evidence(*q.ins, r.operand, q.mods);  // the operand's layout (gfx1250), as `load` says it
    if (f == Format::Json) {
        std::string j = "{" + query_header_json(q) + ", \"operand\": " + json_string(op_name) +
                        (r.tiles && !r.tiles->single() ? ", \"tile\": " + json_string(with_shape(*r.tiles, *q.ins).describe()) : "") +
                        (ev.confidence.empty() ? "" : ", " + evidence_json(ev)) + ",\n";
        j += "\"memory\": {\"space\": " + json_string(memory_space_name(*q.target, r.tile.space)) + ", \"order\": " +
             json_string(memory_order_name(r.tile.order)) + ", \"ld\": " + num(r.tile.ld) + ", \"element_bits\": " +
             num(r.tile.element_bits) + ", \"lines\": " + num(s.lines) + "}, \"direction\": " +
             json_string(r.store ? "store" : "load") + ",\n";
        j += "\"sweep\": {\"metric\": " + json_string(s.metric) + ", \"bytes_per_wave\": " + num(s.bytes_per_wave) +
             ", \"bytes_per_cycle\": " + num(s.bytes_per_cycle) + ", \"minimum\": " + num(s.minimum) +
             ", \"minimum_formula\": \"ceil(bytes_per_wave / bytes_per_cycle)\"";
        if (lds) {
            const BankModel bm = bank_model(*q.target);
            j += ", \"bank_model\": {\"banks\": " + num(bm.banks) + ", \"bank_bytes\": " + num(bm.bank_bytes) +
                 ", \"source\": " + json_string(bm.source) + ", \"confidence\": " + json_string(bm.confidence) + "}";
        }
        j += ", \"pads\": {\"from\": 0, \"to\": " + num(s.pad_max) + ", \"step\": " + num(s.pad_step) +
             "}, \"swizzles\": " + num(s.swizzles) + ", \"transpose\": " + (s.transpose_note.empty() ? "true" : "false") +
             ", \"transpose_note\": " + json_string(s.transpose_note) + ", \"candidates\": " + num(s.candidates) +
             ", \"planned\": " + num(s.planned) + ", \"cap\": " + num(kMaxSweepCandidates) + ", \"combined\": " +
             num(s.combined) + ", \"orders\": [";
        for (size_t n = 0; n < s.orders.size(); ++n) j += (n ? ", " : "") + json_string(s.orders[n]);
        j += "], \"lds\": [";
        for (size_t n = 0; n < s.lds_tried.size(); ++n) j += (n ? ", " : "") + num(s.lds_tried[n]);
        j += "], \"notes\": [";
        for (size_t n = 0; n < s.notes.size(); ++n) j += (n ? ", " : "") + json_string(s.notes[n]);
        j += "], \"reaches_minimum\": " + std::string(s.reaches_minimum ? "true" : "false") + ", \"why\": " +
             json_string(s.why) + ", \"depends_on_grouping\": " + (s.depends_on_grouping ? "true" : "false") +
             ", \"groupings\": [";
        for (size_t n = 0; n < s.by_grouping.size(); ++n) {
            const SweepGroupingRank& g = s.by_grouping[n];
            j += std::string(n ? ", " : "") + "{\"grouping\": " + json_string(g.grouping) + ", \"confidence\": " +
                 json_string(g.confidence) + ", \"best_rank\": " + num(static_cast<long long>(g.best + 1)) +
                 ", \"cost\": " + num(g.cost) + ", \"options\": " + json_string(s.rows[g.best].candidate.options()) + "}";
        }
        j += "], \"skipped\": [";
        for (size_t n = 0; n < s.skipped.size(); ++n) j += (n ? ", " : "") + json_string(s.skipped[n]);
        j += "], \"ranked\": " + num(static_cast<long long>(s.rows.size())) + ", \"shown\": " +
             num(static_cast<long long>(shown)) + ", \"best\": {";
        const auto best = best_of_kinds(s);
        for (size_t k = 0; k < 4; ++k)
            j += std::string(k ? ", " : "") + "\"" + kKinds[k] + "\": " + (best[k] ? num(static_cast<long long>(best[k])) : "null");
        j += "}},\n\"command\": " + json_string(command) + ",\n\"rows\": [";
        for (size_t n = 0; n < shown; ++n) {
            const SweepRow& x = s.rows[n];
            const SweepCandidate& c = x.candidate;
            j += std::string(n ? ",\n" : "\n") + "{\"rank\": " + num(static_cast<long long>(n + 1)) + ", \"cost\": " +
                 num(x.cost) + ", \"minimum\": " + num(s.minimum) + ", \"ratio\": " + ratio(x.cost, s.minimum) +
                 ", \"instruction_minimum\": " + num(x.instruction_minimum) + ", \"instructions_per_wave\": " +
                 num(x.instructions_per_wave) + ", \"instructions\": [";
            for (size_t i = 0; i < x.instructions.size(); ++i)
                j += (i ? ", " : "") + std::string("{\"mnemonic\": ") + json_string(x.instructions[i].first) +
                     ", \"count\": " + num(x.instructions[i].second) + "}";
            j += "], \"pad\": " + num(c.pad) + ", \"swizzle\": {\"vec\": " + num(c.swizzle.vec) + ", \"per_phase\": " +
                 num(c.swizzle.per_phase) + ", \"max_phase\": " + num(c.swizzle.max_phase) + "}, \"transpose\": " +
                 (c.transpose ? "true" : "false") + ", \"ld_shared\": " + (c.ld_shared ? "true" : "false") +
                 ", \"pad_bytes\": " + num(x.pad_bytes) + ", \"groupings\": [";
            for (size_t i = 0; i < x.groupings.size(); ++i) j += (i ? ", " : "") + json_string(x.groupings[i]);
            j += "], \"confidence\": [";
            for (size_t i = 0; i < x.confidences.size(); ++i) j += (i ? ", " : "") + json_string(x.confidences[i]);
            j += "], \"options\": " + json_string(c.options()) + ", \"command\": " + json_string(row_command(command, x)) +
                 ", \"order\": " + json_string(memory_order_name(c.order)) + ", \"ld\": " +
                 num(x.ld) +
                 ", \"line_bytes\": " + num(x.line_bytes) + ", \"conflict_ways\": " + num(x.conflict.ways) +
                 ", \"worst_pass\": ";
            if (x.conflict.mnemonic.empty()) {
                j += "null";
            } else {
                j += "{\"mnemonic\": " + json_string(x.conflict.mnemonic) + ", \"bank\": " + num(x.conflict.bank) +
                     ", \"words\": [";
                for (size_t i = 0; i < x.conflict.words.size(); ++i)
                    j += (i ? ", " : "") + std::string("{\"address\": ") + num(x.conflict.words[i].first) +
                         ", \"lane\": " + num(x.conflict.words[i].second) + "}";
                j += "]}";
            }
            j += ", \"cost_by_grouping\": {";
            for (size_t i = 0; i < s.by_grouping.size() && i < x.cost_by_grouping.size(); ++i)
                j += (i ? ", " : "") + json_string(s.by_grouping[i].grouping) + ": " + num(x.cost_by_grouping[i]);
            j += "}}";
        }
        return j + (shown ? "\n" : "") + "]}\n";
    }
    std::vector<std::vector<std::string>> grid;
    if (f == Format::Csv || f == Format::Markdown) {  // one table each (render.hpp)
        grid.push_back({"rank", unit, "minimum", "ratio", "instruction_minimum", "instructions_per_wave", "instructions",
                        "pad_bytes", "confidence", "options", "command", "conflict_ways", "order", "ld"});
        for (size_t n = 0; n < shown; ++n) {
            const SweepRow& x = s.rows[n];
            grid.push_back({num(static_cast<long long>(n + 1)), num(x.cost), num(s.minimum), ratio(x.cost, s.minimum),
                            num(x.instruction_minimum), num(x.instructions_per_wave), instructions_words(x),
                            num(x.pad_bytes), text::join(x.confidences, "/"), x.candidate.options(), row_command(command, x),
                            num(x.conflict.ways), std::string(memory_order_name(x.candidate.order)), num(x.ld)});
        }
        return render_grid(grid, f);
    }
    const bool md = f == Format::Markdown;
    std::string out = (md ? "### " : "") + std::string("Sweep of ") + op_name + " of " + query_title(q) +
                      (r.tiles && !r.tiles->single() ? " (tile: " + with_shape(*r.tiles, *q.ins).describe() + ")" : "") + ": " +
                      (r.store ? "stores" : "loads") + ", " + std::string(memory_space_name(*q.target, r.tile.space)) + ", " +
                      (r.tile.order == MemoryOrder::RowMajor ? "row" : "column") + "-major, ld " + num(r.tile.ld) + ", " +
                      num(r.tile.element_bits) + "-bit elements, " + num(s.lines) + " lines\n" + evidence_text(ev);
    out += "cost: " + s.metric + (lds ? " (each instruction's passes under its pass grouping, as `load` counts them; the "
                                        "worst wave of a tile)"
                                      : " (distinct lines each instruction touches, as `load` counts them; the worst "
                                        "wave of a tile)") + "\n";
    out += "minimum: " + num(s.minimum) + " " + (s.minimum == 1 ? unit.substr(0, unit.size() - 1) : unit) + " = ceil(" +
           num(s.bytes_per_wave) + " bytes per wave / " +
           num(s.bytes_per_cycle) + " " + per;
    if (lds) {
        const BankModel bm = bank_model(*q.target);
        out += " (" + num(bm.banks) + " banks x " + num(bm.bank_bytes) + " bytes; " + bm.confidence + ")";
    }
    out += "); no layout costs less\n";
    out += "candidates: pad 0.." + num(s.pad_max) + " step " + num(s.pad_step) + " elements, " + num(s.swizzles) +
           " XOR swizzles (pad 0)" +
           (s.combined ? ", " + num(s.combined) + " paddings with swizzles" : std::string()) +
           (s.orders.size() > 1 ? ", orders " + text::join(s.orders, " and ") : std::string()) +
           (s.lds_tried.size() > 1 ? ", ld " + [&] {
               std::vector<std::string> v;
               for (int x : s.lds_tried) v.push_back(num(x));
               return text::join(v, " and ");
           }() : std::string()) + ", " +
           (s.transpose_note.empty() ? std::string("each also with --transpose") : "no --transpose (" + s.transpose_note + ")") +
           "; " + num(s.planned) + " planned" +
           (s.candidates > s.planned ? " (" + num(s.candidates - s.planned) + " beyond the cap of " +
                                           num(kMaxSweepCandidates) + " not planned)"
                                     : "") +
           ", " + num(static_cast<long long>(s.skipped.size())) + " refused by the engine, " +
           num(static_cast<long long>(s.rows.size())) + " ranked; showing " + num(static_cast<long long>(shown)) + "\n";
    out += "ranked by " + unit + ", then instructions per wave, then padding bytes, then the simpler options\n";
    {
        const auto best = best_of_kinds(s);
        std::string line;
        for (size_t k = 0; k < 4; ++k) {
            if (!best[k]) continue;
            const SweepRow& x = s.rows[best[k] - 1];
            line += (line.empty() ? "" : "; ") + std::string(kKinds[k]) + ": rank " + num(static_cast<long long>(best[k])) +
                    " (" + num(x.cost) + " " + unit + ", " + num(x.instructions_per_wave) + (x.instructions_per_wave == 1 ? " instruction, " : " instructions, ") +
                    num(x.pad_bytes) + " bytes" + (x.candidate.options().empty() ? "" : ", " + x.candidate.options()) + ")";
        }
        out += "best of each kind: " + line + "\n";
    }
    out += (s.reaches_minimum ? "verdict: " : "verdict: NOT at the minimum: ") + s.why + "\n";
    const auto& best_conf = s.rows.front().confidences;
    if (!s.by_grouping.empty() &&
        (s.depends_on_grouping || std::find(best_conf.begin(), best_conf.end(), "inferred") != best_conf.end())) {
        std::string line;
        for (const SweepGroupingRank& g : s.by_grouping) {
            const SweepRow& x = s.rows[g.best];
            line += (line.empty() ? "" : "; ") + std::string("'") + g.grouping + "' (" + g.confidence + "): " +
                    (x.candidate.options().empty() ? std::string("(none)") : x.candidate.options()) + ", " + num(g.cost) +
                    " " + unit;
        }
        out += std::string(s.depends_on_grouping ? "the answer DEPENDS on the pass grouping, which is inferred here"
                                                 : "the same best row under every offered pass grouping") +
               "; best under each: " + line + "\n";
    }
    for (const std::string& n : s.notes) out += "note: " + n + "\n";
    out += "\n";
    grid.push_back({"rank", unit, "x min", "instruction min", "instructions per wave", "pad bytes", "grouping confidence",
                    "conflict ways", "options"});
    for (size_t n = 0; n < shown; ++n) {
        const SweepRow& x = s.rows[n];
        grid.push_back({num(static_cast<long long>(n + 1)), num(x.cost), ratio(x.cost, s.minimum), num(x.instruction_minimum),
                        num(x.instructions_per_wave) + " (" + instructions_words(x) + ")", num(x.pad_bytes),
                        lds ? text::join(x.confidences, "/") : "-", lds ? ways_words(x) : "-",
                        x.candidate.options().empty() ? "(none)" : x.candidate.options()});
    }
    out += render_grid(grid, f);
    out += "\nreproduce a row: " + command + " OPTIONS\n";
    if (lds && shown) out += "groupings of row 1: " + text::join(s.rows.front().groupings, "; ") + "\n";
    if (!s.skipped.empty()) {
        out += "refused: " + s.skipped.front();
        if (s.skipped.size() > 1) out += " (and " + num(static_cast<long long>(s.skipped.size() - 1)) + " more; --format json lists them)";
        out += "\n";
    }
    return out;
}

}  // namespace lanescope
