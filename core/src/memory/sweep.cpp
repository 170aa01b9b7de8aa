// `load --sweep`: the paddings and XOR swizzles (and, where legal, the
// transpose loads) of one operand's tile, each planned by plan_memory and
// ranked by the cost the engine counts (LDS bank cycles, or global cache
// lines) against the bound no layout can beat. Candidates and ranking:
// docs/memory.md, "Which padding or swizzle (--sweep)".
#include "lanescope/limits.hpp"
#include "lanescope/memory.hpp"
#include "util/text_util.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace lanescope {

std::string SweepCandidate::options() const {
    std::string s;
    auto add = [&](const std::string& w) { s += (s.empty() ? "" : " ") + w; };
    if (pad > 0) add("--pad " + std::to_string(pad));
    if (swizzle.active())
        add("--swizzle " + std::to_string(swizzle.vec) + "," + std::to_string(swizzle.per_phase) + "," +
            std::to_string(swizzle.max_phase));
    if (transpose) add("--transpose");
    if (ld_shared) add("--ld-shared");
    if (reorder) add("--order " + std::string(memory_order_name(order)));
    if (ld > 0) add("--ld " + std::to_string(ld));
    return s;
}

namespace {

// How many choices a candidate makes (a pad, a swizzle, the transpose loads, a leading dimension).
int complexity(const SweepCandidate& c) { return (c.pad > 0) + c.swizzle.active() + c.transpose + c.ld_shared + (c.ld > 0); }

// The operand's distinct elements one wave holds, the most over the waves of a tile.
long long elements_per_wave(const Query& q, const MemoryRequest& r) {
    if (r.tiles && !r.tiles->single()) {
        TileLayout L(*q.ins, *q.target, r.operand, q.mods, *r.tiles);
        std::map<int, std::set<std::pair<int, int>>> of_wave;
        for (const TileEntry& e : L.entries()) of_wave[e.at.wave].insert({e.element.row, e.element.col});
        size_t most = 0;
        for (const auto& [w, s] : of_wave) most = std::max(most, s.size());
        return static_cast<long long>(most);
    }
    OperandLayout L = layout_of(*q.ins, *q.target, r.operand, q.mods);
    std::set<std::tuple<int, int, int>> s;
    for (const Entry& e : L.entries()) s.insert({e.element.block, e.element.row, e.element.col});
    return static_cast<long long>(s.size());
}

long long placements(const Query& q, const MemoryRequest& r) {
    if (r.tiles && !r.tiles->single())
        return tile_placements(TileLayout(*q.ins, *q.target, r.operand, q.mods, *r.tiles));
    return static_cast<long long>(layout_of(*q.ins, *q.target, r.operand, q.mods).entries().size());
}

// The cost of one plan: per wave, the sum of its instructions' bank cycles (LDS) or cache lines
// (global); the worst wave, with that wave's sum of the engine's per-instruction minimum.
std::pair<long long, long long> plan_cost(const MemoryPlan& p) {
    std::map<int, std::pair<long long, long long>> of_wave;
    if (!p.banks.empty()) {
        for (const BankReport& b : p.banks) {
            of_wave[b.wave].first += b.cycles;
            of_wave[b.wave].second += b.minimum_cycles;
        }
    } else {
        for (const CoalescingReport& c : p.coalescing) {
            of_wave[c.wave].first += c.cache_lines;
            of_wave[c.wave].second += c.minimum_lines;
        }
    }
    std::pair<long long, long long> worst{0, 0};
    for (const auto& [w, c] : of_wave)
        if (c.first > worst.first) worst = c;
    return worst;
}

// The worst bank of any pass of the plan's LDS instructions.
SweepConflict worst_conflict(const MemoryPlan& p) {
    SweepConflict w;
    for (const BankReport& b : p.banks)
        for (const BankPass& pass : b.passes)
            if (pass.cycles > w.ways) {
                w.ways = pass.cycles;
                w.mnemonic = b.mnemonic;
                w.bank = pass.bank;
                w.words = pass.bank_words;
            }
    return w;
}

// The worst wave's LDS cycles with grouping `g` for every instruction that offers it (the others:
// their default).
long long cost_under(const Query& q, const MemoryPlan& p, const std::string& g) {
    const int wave = q.mods.wave;
    std::map<std::string, bool> offers;
    for (const BankReport& b : p.banks)
        if (!offers.count(b.mnemonic)) {
            const auto offered = pass_groupings(*q.target, b.mnemonic, wave);
            offers[b.mnemonic] =
                std::any_of(offered.begin(), offered.end(), [&](const PassGrouping& x) { return x.name == g; });
        }
    MemoryPlan again;
    if (std::all_of(offers.begin(), offers.end(), [](const auto& x) { return x.second; })) {
        again.banks = analyse_banks(p.ops, *q.target, wave, g);
    } else {
        for (const auto& [m, offered] : offers) {
            std::vector<MemoryOp> mine;
            for (const MemoryOp& op : p.ops)
                if (op.mnemonic == m) mine.push_back(op);
            for (BankReport& b : analyse_banks(mine, *q.target, wave, offered ? g : std::string()))
                again.banks.push_back(std::move(b));
        }
    }
    return plan_cost(again).first;
}

std::string bytes_text(long long b) { return std::to_string(b) + " B"; }

// Why the best row does not reach the bound, in words taken from the plans.
std::string why_not_minimum(const SweepReport& s, bool lds, int bits) {
    const SweepRow& best = s.rows.front();
    const std::string unit = lds ? " cycles" : " lines";
    std::string out = "no candidate reaches the minimum of " + std::to_string(s.minimum) + unit + ": the best needs " +
                      std::to_string(best.cost) + unit;
    if (!lds)
        return out + " (its lanes' accesses spread over " + std::to_string(best.cost) + " 128-byte lines where " +
               std::to_string(s.bytes_per_wave) + " bytes would fill " + std::to_string(s.minimum) + ")";
    const SweepRow* free = nullptr;
    for (const SweepRow& r : s.rows)
        if (r.conflict.ways <= 1) {
            free = &r;
            break;
        }
    if (best.conflict.ways > 1 && !free) {
        const SweepConflict& c = best.conflict;
        out += ", and every candidate has a bank conflict: in the best (" +
               (best.candidate.options().empty() ? std::string("no options") : best.candidate.options()) + "), a pass of " +
               c.mnemonic + " reads " + std::to_string(c.ways) + " distinct words of bank " + std::to_string(c.bank) + " (";
        std::vector<std::string> who;
        for (const auto& [addr, lane] : c.words) who.push_back("lane " + std::to_string(lane) + " at byte " + std::to_string(addr));
        out += text::join(who, ", ") + ")";
        // Equal steps between the words: say how far apart, against the bytes the banks span and the line pitch.
        bool even = c.words.size() > 1;
        const long long step = even ? c.words[1].first - c.words[0].first : 0;
        for (size_t n = 2; even && n < c.words.size(); ++n) even = c.words[n].first - c.words[n - 1].first == step;
        if (even) {
            out += ", " + bytes_text(step) + " apart";
            if (best.line_bytes > 0 && step % best.line_bytes == 0)
                out += " (" + (step == best.line_bytes ? std::string("one line") : std::to_string(step / best.line_bytes) + " lines") +
                       " of " + bytes_text(best.line_bytes) + ")";
            out += step % s.bytes_per_cycle == 0
                       ? ": a multiple of the " + bytes_text(s.bytes_per_cycle) + " the banks span, so each lands in the same bank"
                       : ": a step that comes back to the same bank";
        }
        out += "; no padding, swizzle, order or ld tried spreads those words over the banks within one pass";
        return out;
    }
    if (free && free != &best) {
        out += " with a " + std::to_string(best.conflict.ways) + "-way conflict; the best conflict-free row (" +
               (free->candidate.options().empty() ? std::string("no options") : free->candidate.options()) + ") needs " +
               std::to_string(free->cost) + unit;
        if (free->instruction_minimum > s.minimum)
            out += " (its instructions' own minimum is " + std::to_string(free->instruction_minimum) +
                   ": their passes move fewer bytes than the " + bytes_text(s.bytes_per_cycle) + " the banks serve per cycle)";
        return out;
    }
    // Conflict-free, yet above the bound: lanes load copies, or the passes are not full.
    out += " without a bank conflict";
    if (best.loaded_bytes > s.bytes_per_wave) {
        out += ": the wave's lanes load " + bytes_text(best.loaded_bytes) + ", " +
               std::to_string(best.loaded_bytes / std::max<long long>(1, s.bytes_per_wave)) + " times the operand's " +
               bytes_text(s.bytes_per_wave) + " (lanes hold copies of the same elements, and each copy is loaded), and " +
               bytes_text(best.loaded_bytes) + " / " + bytes_text(s.bytes_per_cycle) + " per cycle = " +
               std::to_string((best.loaded_bytes + s.bytes_per_cycle - 1) / s.bytes_per_cycle) + " cycles";
        return out;
    }
    out += ": its instructions' passes each take a cycle and move fewer than the " + bytes_text(s.bytes_per_cycle) +
           " the banks serve per cycle (instruction minimum " + std::to_string(best.instruction_minimum) + "; " +
           std::to_string(bits) + "-bit elements in " + std::to_string(best.instructions_per_wave) +
           " instructions per wave)";
    return out;
}

// What every candidate of one sweep shares: the request without its layout options, the tile's
// extent, the paddings tried and the placements of one plan.
struct SweepSpace {
    const Query& q;
    MemoryRequest base;
    int rows = 0, cols = 0;
    bool nvidia = false, lds = false;
    int bits = 0;
    MemoryOrder given_order = MemoryOrder::RowMajor;
    int given_ld = 0;
    int bytes_per_cycle = 0;        // banks x bank bytes (LDS), or 128 (cache line)
    int pad_step = 1, pad_max = 0;  // paddings 0, pad_step, ... up to pad_max (elements)
    long long per_plan = 0;         // placements of one plan

    int lines_of(MemoryOrder o) const { return o == MemoryOrder::RowMajor ? rows : cols; }
    int extent_of(MemoryOrder o) const { return contiguous_extent(o, rows, cols); }
    // The leading dimension a candidate is planned with.
    int ld_of(const SweepCandidate& c) const { return c.ld > 0 ? c.ld : c.reorder ? extent_of(c.order) : given_ld; }
};

// The request without its pad, swizzle, transpose and ld-shared, the tile's extent (refuses a tile over
// the planning limit), the bytes served per cycle and the paddings: whole dwords (the bank width) from 0
// to two rows of banks (or two cache lines).
SweepSpace space_of(const Query& q, const MemoryRequest& r) {
    SweepSpace sp{q, r};
    sp.base.tile.pad = 0;
    sp.base.tile.swizzle = XorSwizzle{};
    sp.base.transpose = false;
    sp.base.ld_shared = false;
    sp.nvidia = q.target->vendor() == Vendor::NVIDIA;
    std::tie(sp.rows, sp.cols) = memory_extent(q, sp.base);
    sp.lds = sp.base.tile.space == MemorySpace::Lds;
    sp.bits = sp.base.tile.element_bits;
    sp.given_order = sp.base.tile.order;
    sp.given_ld = sp.base.tile.ld;
    if (sp.lds) {
        const BankModel bm = bank_model(*q.target);
        sp.bytes_per_cycle = bm.banks * bm.bank_bytes;
    } else {
        sp.bytes_per_cycle = 128;
    }
    sp.pad_step = std::lcm(sp.bits, 32) / sp.bits;
    sp.pad_max = 2 * sp.bytes_per_cycle * 8 / sp.bits;
    return sp;
}

// The report's metric and the bound no candidate can beat: the bytes one wave holds over the bytes the
// banks (or a cache line) serve per cycle.
void set_bound(const SweepSpace& sp, SweepReport& s) {
    s.lines = sp.lines_of(sp.given_order);
    s.bytes_per_cycle = sp.bytes_per_cycle;
    if (sp.lds) s.metric = sp.nvidia ? "shared-memory bank wavefronts per warp" : "LDS bank cycles per wave";
    else s.metric = "128-byte cache lines per wave";
    s.bytes_per_wave = (elements_per_wave(sp.q, sp.base) * sp.bits + 7) / 8;
    s.minimum = (s.bytes_per_wave + s.bytes_per_cycle - 1) / s.bytes_per_cycle;
}

// Triton-style XOR swizzles of the tile in `order` with leading dimension `ld`: VEC elements of 1 to 16
// bytes, PER_PHASE lines per phase up to two rows of banks, MAX_PHASE from 2 up; only those the tile
// allows and that differ from a smaller MAX_PHASE.
std::vector<XorSwizzle> swizzles_of(const SweepSpace& sp, MemoryOrder order, int ld) {
    std::vector<XorSwizzle> out;
    const int bits = sp.bits;
    const int lines = sp.lines_of(order), extent = sp.extent_of(order);
    const long long line_bytes = std::max<long long>(1, 1LL * ld * bits / 8);
    for (int vec = 1; vec <= extent && vec * bits <= 128; vec *= 2) {
        if (vec * bits % 8) continue;
        for (int pp = 1; pp == 1 || pp * line_bytes <= 2LL * sp.bytes_per_cycle; pp *= 2)
            for (int mp = 2; 1LL * vec * mp <= ld && mp <= 64; mp *= 2) {
                if ((lines - 1) / pp < mp / 2) break;  // lines never reach the upper phases: as MAX_PHASE/2
                MemoryTile t = sp.base.tile;
                t.order = order;
                t.ld = ld;
                t.swizzle = {vec, pp, mp};
                try {
                    check_memory_tile(t, sp.rows, sp.cols);
                } catch (const Error&) {
                    continue;  // moves a position beyond ld: not a layout of this tile
                }
                out.push_back(t.swizzle);
            }
    }
    return out;
}

// The candidates of the given order and ld: each padding, then each swizzle (the report counts both).
std::vector<SweepCandidate> plain_candidates_of(const SweepSpace& sp, SweepReport& s) {
    std::vector<SweepCandidate> out;
    for (int pad = 0; pad <= sp.pad_max; pad += sp.pad_step)
        out.push_back({pad, XorSwizzle{}, false, false, sp.given_order, false, 0});
    for (const XorSwizzle& z : swizzles_of(sp, sp.given_order, sp.given_ld))
        out.push_back({0, z, false, false, sp.given_order, false, 0});
    s.pad_step = sp.pad_step;
    s.pad_max = sp.pad_max / sp.pad_step * sp.pad_step;
    s.swizzles = static_cast<int>(out.size()) - (s.pad_max / sp.pad_step + 1);
    return out;
}

// Bounded work: refuses candidates (up to the cap) x the tile's placements over the sweep's budget.
void check_work(const SweepSpace& sp, size_t candidates) {
    const size_t n = std::min(candidates, static_cast<size_t>(kMaxSweepCandidates));
    const long long work = sp.per_plan * static_cast<long long>(n);
    if (work > kMaxSweepPlacements)
        throw Error("--sweep plans " + std::to_string(n) + " candidates of " + std::to_string(sp.per_plan) +
                    " placements each (" + std::to_string(work) + " in all); a sweep plans at most " +
                    std::to_string(kMaxSweepPlacements) +
                    " placements; legal: a smaller --shape, fewer --waves or --tiles-per-wave, or one instruction "
                    "(no tile options)");
}

// The request without its --grouping: a grouping applies to each candidate (refused where its
// instructions do not offer it), not to the plain plan or the transpose probes.
MemoryRequest ungrouped_of(const SweepSpace& sp) {
    MemoryRequest ungrouped = sp.base;
    ungrouped.grouping.clear();
    return ungrouped;
}

// Whether the engine plans transpose loads for the tile in `order` with `ld` at some padding (their
// alignment may need one: FP6 lines of a multiple of 16 bytes); `note` gets the unpadded tile's refusal.
bool transposable(const SweepSpace& sp, MemoryOrder order, int ld, std::string* note) {
    for (int pad = 0; pad <= sp.pad_max; pad += sp.pad_step) {
        MemoryRequest t = ungrouped_of(sp);
        t.tile.order = order;
        t.tile.ld = ld;
        t.transpose = true;
        t.tile.pad = pad;
        try {
            plan_memory(sp.q, t);
            return true;
        } catch (const Error& e) {
            if (pad == 0 && note) *note = e.what();
        }
    }
    return false;
}

// Whether the given tile gets transpose candidates; where not, the report's note says why.
bool transpose_candidates(const SweepSpace& sp, SweepReport& s) {
    if (sp.nvidia) {
        s.transpose_note = "NVIDIA has no transpose loads: ldmatrix's .trans follows the tile's order; the sweep ranks "
                           "ldmatrix against plain " + std::string(sp.base.store ? "st.shared" : "ld.shared") + " (--ld-shared)";
        return false;
    }
    if (sp.base.store) {
        s.transpose_note = "stores have no transpose form";
        return false;
    }
    const bool transpose = transposable(sp, sp.given_order, sp.given_ld, &s.transpose_note);
    if (transpose) s.transpose_note.clear();
    return transpose;
}

// NVIDIA: each candidate of the group followed (after the group) by its --ld-shared twin; AMD: none.
void add_ld_shared(const SweepSpace& sp, std::vector<SweepCandidate>& group) {
    if (!sp.nvidia) return;
    const size_t n = group.size();
    for (size_t i = 0; i < n; ++i) {
        SweepCandidate c = group[i];
        c.ld_shared = true;
        group.push_back(c);
    }
}

// The first group: the plain candidates, their --ld-shared twins and their transpose copies, counted in
// the report and cut to the cap.
std::vector<SweepCandidate> first_candidates(const SweepSpace& sp, const std::vector<SweepCandidate>& plain_candidates,
                                             bool transpose, SweepReport& s) {
    std::vector<SweepCandidate> all = plain_candidates;
    add_ld_shared(sp, all);
    if (transpose)
        for (SweepCandidate c : plain_candidates) {
            c.transpose = true;
            all.push_back(c);
        }
    s.candidates = static_cast<int>(all.size());
    if (all.size() > static_cast<size_t>(kMaxSweepCandidates)) all.resize(kMaxSweepCandidates);
    return all;
}

// The request that plans one candidate.
MemoryRequest request_of(const SweepSpace& sp, const SweepCandidate& c) {
    MemoryRequest req = sp.base;
    req.tile.order = c.order;
    req.tile.ld = sp.ld_of(c);
    req.tile.pad = c.pad;
    req.tile.swizzle = c.swizzle;
    req.transpose = c.transpose;
    req.ld_shared = c.ld_shared;
    return req;
}

// Re-costing under each grouping is done for plans of at most this many placements.
constexpr long long kGroupingPlacements = 4096;

// One sweep under way: what its candidates share, the plain plan, the report it fills, and how far it got.
struct SweepRun {
    const SweepSpace& sp;
    const MemoryPlan& plain;  // the given tile's plan, reused for the candidate without options
    SweepReport& s;
    bool grouping_noted = false;  // the note that large plans are not ranked under other groupings is made
    size_t planned = 0;           // candidates planned so far (or admitted to a group being planned)
};

// Whether the candidate gets a plan (into `p`): not where the engine refuses it, nor (NVIDIA, without
// --ld-shared, which stands for ldmatrix) where the planner fell back to ld.shared, as its --ld-shared
// twin is that plan; each candidate without one is listed in the report's skipped with the reason.
bool plan_candidate(SweepRun& run, const SweepCandidate& c, const MemoryRequest& req, MemoryPlan& p) {
    const SweepSpace& sp = run.sp;
    try {
        const bool is_plain = c.pad == 0 && !c.swizzle.active() && !c.transpose && !c.ld_shared && c.order == sp.given_order &&
                              req.tile.ld == sp.given_ld && sp.base.grouping.empty();
        p = is_plain ? run.plain : plan_memory(sp.q, req);
    } catch (const Error& e) {
        run.s.skipped.push_back((c.options().empty() ? std::string("(none)") : c.options()) + ": " + e.what());
        return false;
    }
    if (sp.nvidia && !c.ld_shared &&
        std::none_of(p.ops.begin(), p.ops.end(), [](const MemoryOp& op) { return op.mnemonic.find("matrix") != std::string::npos; })) {
        run.s.skipped.push_back((c.options().empty() ? std::string("(none)") : c.options()) + ": " +
                                (p.notes.empty() ? std::string("no ldmatrix plan") : p.notes.front()));
        return false;
    }
    return true;
}

// A candidate's row from its plan: the cost, wave 0's instructions and bytes, the padding's bytes, the
// groupings the cycles rest on and the worst conflict.
SweepRow row_of(const SweepSpace& sp, const SweepCandidate& c, const MemoryRequest& req, const MemoryPlan& p) {
    SweepRow row;
    row.candidate = c;
    std::tie(row.cost, row.instruction_minimum) = plan_cost(p);
    row.instructions_per_wave = p.instructions_per_wave;
    std::map<int, std::string> issues;
    for (const MemoryOp& op : p.ops)
        if (op.wave == 0) issues.emplace(op.issue, op.mnemonic);
    for (const auto& issue : issues) {
        const std::string& m = issue.second;  // a plain reference: lambdas capture no structured binding in C++17
        auto it = std::find_if(row.instructions.begin(), row.instructions.end(),
                               [&](const std::pair<std::string, int>& x) { return x.first == m; });
        if (it == row.instructions.end()) row.instructions.push_back({m, 1});
        else ++it->second;
    }
    row.lines = sp.lines_of(c.order);
    for (const MemoryOp& op : p.ops)
        if (op.wave == 0) row.loaded_bytes += op.bytes;
    row.ld = req.tile.ld;
    row.line_bytes = 1LL * (req.tile.ld + c.pad) * sp.bits / 8;
    // Bytes beyond the tile's own: the padding, and an ld past the given one (or the extent).
    const int ld_base = c.order == sp.given_order ? sp.given_ld : sp.extent_of(c.order);
    row.pad_bytes = (1LL * row.lines * (c.pad + std::max(0, req.tile.ld - ld_base)) * sp.bits + 7) / 8;
    for (const BankReport& b : p.banks) {
        if (b.wave != 0) continue;
        const std::string g = b.mnemonic + ": " + b.grouping.name + " (" + b.grouping.confidence + ")";
        if (std::find(row.groupings.begin(), row.groupings.end(), g) == row.groupings.end()) row.groupings.push_back(g);
        if (std::find(row.confidences.begin(), row.confidences.end(), b.grouping.confidence) == row.confidences.end())
            row.confidences.push_back(b.grouping.confidence);
    }
    row.conflict = worst_conflict(p);
    return row;
}

// Under every offered grouping, where the row's own grouping is inferred (and the plans are small enough
// to count again a few times: one instruction or a small tile): its cost under each, the groupings its
// instructions offer joining the report's list; over that size, a note once.
void rank_under_groupings(SweepRun& run, const MemoryPlan& p, SweepRow& row) {
    const SweepSpace& sp = run.sp;
    SweepReport& s = run.s;
    const bool inferred = std::find(row.confidences.begin(), row.confidences.end(), "inferred") != row.confidences.end();
    if (sp.lds && sp.base.grouping.empty() && inferred && sp.per_plan > kGroupingPlacements && !run.grouping_noted) {
        run.grouping_noted = true;
        s.notes.push_back("rows whose pass grouping is inferred are not ranked under the other groupings: " +
                          std::to_string(sp.per_plan) + " placements per plan is over " +
                          std::to_string(kGroupingPlacements) +
                          "; rank under one with --grouping NAME (a name not offered is refused with those that are)");
    }
    if (sp.lds && sp.base.grouping.empty() && inferred && sp.per_plan <= kGroupingPlacements) {
        std::vector<std::string> mnemonics;  // in the order the plan issues them
        for (const BankReport& b : p.banks)
            if (std::find(mnemonics.begin(), mnemonics.end(), b.mnemonic) == mnemonics.end()) mnemonics.push_back(b.mnemonic);
        for (const std::string& m : mnemonics)
            for (const PassGrouping& g : pass_groupings(*sp.q.target, m, sp.q.mods.wave))
                if (std::none_of(s.by_grouping.begin(), s.by_grouping.end(),
                                 [&](const SweepGroupingRank& x) { return x.grouping == g.name; }))
                    s.by_grouping.push_back({g.name, g.confidence, 0, 0});
        row.cost_by_grouping.assign(s.by_grouping.size(), -1);
        for (size_t n = 0; n < s.by_grouping.size(); ++n) row.cost_by_grouping[n] = cost_under(sp.q, p, s.by_grouping[n].grouping);
    }
}

// Plans one candidate and adds its row to the report (or its refusal to the skipped).
void plan_row(SweepRun& run, const SweepCandidate& c) {
    const MemoryRequest req = request_of(run.sp, c);
    MemoryPlan p;
    if (!plan_candidate(run, c, req, p)) return;
    SweepRow row = row_of(run.sp, c, req, p);
    rank_under_groupings(run, p, row);
    run.s.rows.push_back(std::move(row));
}

// Whether `more` candidates fit the candidate cap and the placement budget beside those planned (they
// are counted either way; where not, a note says what was left out).
bool affordable(SweepRun& run, size_t more, const std::string& what) {
    const bool ok = run.planned + more <= static_cast<size_t>(kMaxSweepCandidates) &&
                    run.sp.per_plan * static_cast<long long>(run.planned + more) <= kMaxSweepPlacements;
    run.s.candidates += static_cast<int>(more);
    if (ok) run.planned += more;
    else run.s.notes.push_back(what + " (" + std::to_string(more) + " candidates) not searched: beyond the cap of " +
                               std::to_string(kMaxSweepCandidates) + " candidates or " +
                               std::to_string(kMaxSweepPlacements) + " placements");
    return ok;
}

// Plans a group of candidates, where it is not empty and is affordable.
void plan_all(SweepRun& run, const std::vector<SweepCandidate>& group, const std::string& what) {
    if (group.empty() || !affordable(run, group.size(), what)) return;
    for (const SweepCandidate& c : group) plan_row(run, c);
}

// The other order's paddings and swizzles (with their --ld-shared twins and, where the engine plans them,
// transpose copies); the order is listed as searched where any of them is planned.
void search_other_order(SweepRun& run, MemoryOrder other) {
    const SweepSpace& sp = run.sp;
    std::vector<SweepCandidate> group;
    const int ld = sp.extent_of(other);
    for (int pad = 0; pad <= sp.pad_max; pad += sp.pad_step) group.push_back({pad, XorSwizzle{}, false, false, other, true, 0});
    for (const XorSwizzle& z : swizzles_of(sp, other, ld)) group.push_back({0, z, false, false, other, true, 0});
    add_ld_shared(sp, group);
    if (!sp.base.store && transposable(sp, other, ld, nullptr)) {
        const size_t n = group.size();
        for (size_t i = 0; i < n; ++i) {
            SweepCandidate c = group[i];
            c.transpose = true;
            group.push_back(c);
        }
    }
    const size_t before = run.s.rows.size();
    plan_all(run, group, std::string("--order ") + std::string(memory_order_name(other)));
    if (run.s.rows.size() > before) run.s.orders.push_back(std::string(memory_order_name(other)));
}

// Swizzles need vec * max_phase <= ld: for an order searched, its swizzles with the power-of-two ld above
// its own (none where its ld is one already); the ld is listed as tried where any of them is planned.
void search_wider_ld(SweepRun& run, MemoryOrder order) {
    const SweepSpace& sp = run.sp;
    SweepReport& s = run.s;
    if (std::find(s.orders.begin(), s.orders.end(), std::string(memory_order_name(order))) == s.orders.end()) return;
    const int ld0 = order == sp.given_order ? sp.given_ld : sp.extent_of(order);
    int ld2 = 1;
    while (ld2 < ld0) ld2 *= 2;
    if (ld2 == ld0 || ld2 > (1 << 24)) return;
    std::vector<SweepCandidate> group;
    for (const XorSwizzle& z : swizzles_of(sp, order, ld2)) group.push_back({0, z, false, false, order, order != sp.given_order, ld2});
    add_ld_shared(sp, group);
    const size_t before = s.rows.size();
    plan_all(run, group, "--ld " + std::to_string(ld2) + " with swizzles");
    if (s.rows.size() > before) s.lds_tried.push_back(ld2);
}

// Paddings with swizzles: the best few of each (by cost, then instructions) planned so far, combined per
// order, ld and ld-shared, where the tile allows the combination.
std::vector<SweepCandidate> combined_candidates(const SweepSpace& sp, const std::vector<SweepRow>& rows) {
    std::map<std::tuple<int, int, bool>, std::pair<std::vector<const SweepRow*>, std::vector<const SweepRow*>>> by_layout;
    for (const SweepRow& x : rows) {
        const SweepCandidate& c = x.candidate;
        if (c.transpose) continue;
        auto& slot = by_layout[{static_cast<int>(c.order), sp.ld_of(c), c.ld_shared}];
        if (c.pad > 0 && !c.swizzle.active()) slot.first.push_back(&x);
        if (c.pad == 0 && c.swizzle.active()) slot.second.push_back(&x);
    }
    std::vector<SweepCandidate> combos;
    auto better = [](const SweepRow* a, const SweepRow* b) {
        return std::make_tuple(a->cost, a->instructions_per_wave, a->pad_bytes) <
               std::make_tuple(b->cost, b->instructions_per_wave, b->pad_bytes);
    };
    for (auto& [key, lists] : by_layout) {
        auto& [pads, swz] = lists;
        std::stable_sort(pads.begin(), pads.end(), better);
        std::stable_sort(swz.begin(), swz.end(), better);
        constexpr size_t kEach = 6;
        for (size_t i = 0; i < std::min(kEach, pads.size()); ++i)
            for (size_t j = 0; j < std::min(kEach, swz.size()); ++j) {
                SweepCandidate c = swz[j]->candidate;
                c.pad = pads[i]->candidate.pad;
                MemoryTile t = sp.base.tile;
                t.order = c.order;
                t.ld = sp.ld_of(c);
                t.pad = c.pad;
                t.swizzle = c.swizzle;
                try {
                    check_memory_tile(t, sp.rows, sp.cols);
                } catch (const Error&) {
                    continue;
                }
                combos.push_back(c);
            }
    }
    return combos;
}

// Beyond the paddings and swizzles of the given tile (LDS, where the kernel chooses the layout): the
// other order, a power-of-two ld that gives swizzles room, and paddings combined with swizzles -- each
// group planned only while the candidate cap and the placement budget allow.
void search_beyond_given(SweepRun& run) {
    const SweepSpace& sp = run.sp;
    const MemoryOrder other = sp.given_order == MemoryOrder::RowMajor ? MemoryOrder::ColMajor : MemoryOrder::RowMajor;
    if (sp.lines_of(other) > 1 || sp.extent_of(other) > 1) search_other_order(run, other);
    for (MemoryOrder order : {sp.given_order, other}) search_wider_ld(run, order);
    const size_t before = run.s.rows.size();
    plan_all(run, combined_candidates(sp, run.s.rows), "paddings combined with swizzles");
    run.s.combined = static_cast<int>(run.s.rows.size() - before);
}

// Ranks the rows best first: by cost, instructions and padding bytes, then the simpler candidate.
void rank_rows(std::vector<SweepRow>& rows) {
    auto key = [&](const SweepRow& x) {
        const SweepCandidate& c = x.candidate;
        return std::make_tuple(x.cost, x.instructions_per_wave, x.pad_bytes, complexity(c), c.reorder,
                               c.transpose, c.ld_shared, c.pad, c.swizzle.max_phase, c.swizzle.vec, c.swizzle.per_phase, c.ld);
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const SweepRow& a, const SweepRow& b) { return key(a) < key(b); });
}

// The ranking under each offered grouping: rows planned before a grouping was met are costed for it, the
// row that ranks first under each is found, and every row gets a cost under each.
void rank_by_grouping(const SweepSpace& sp, SweepReport& s) {
    // Rows planned before a grouping was met (another row's instructions offer it): planned again for it.
    for (SweepRow& x : s.rows) {
        if (x.cost_by_grouping.empty() || x.cost_by_grouping.size() == s.by_grouping.size()) continue;
        const MemoryPlan p = plan_memory(sp.q, request_of(sp, x.candidate));
        for (size_t g = x.cost_by_grouping.size(); g < s.by_grouping.size(); ++g)
            x.cost_by_grouping.push_back(cost_under(sp.q, p, s.by_grouping[g].grouping));
    }
    // Under each offered grouping: the row that ranks first there (a row whose own grouping is not
    // inferred keeps its cost).
    for (size_t g = 0; g < s.by_grouping.size(); ++g) {
        auto cost = [&](const SweepRow& x) {
            return g < x.cost_by_grouping.size() && x.cost_by_grouping[g] >= 0 ? x.cost_by_grouping[g] : x.cost;
        };
        size_t best = 0;
        for (size_t n = 1; n < s.rows.size(); ++n)
            if (std::make_tuple(cost(s.rows[n]), s.rows[n].instructions_per_wave, s.rows[n].pad_bytes) <
                std::make_tuple(cost(s.rows[best]), s.rows[best].instructions_per_wave, s.rows[best].pad_bytes))
                best = n;
        s.by_grouping[g].best = best;
        s.by_grouping[g].cost = cost(s.rows[best]);
        if (s.rows[best].candidate.options() != s.rows.front().candidate.options()) s.depends_on_grouping = true;
    }
    for (SweepRow& x : s.rows) x.cost_by_grouping.resize(s.by_grouping.size(), -1);
    for (SweepRow& x : s.rows)
        for (size_t g = 0; g < s.by_grouping.size(); ++g)
            if (x.cost_by_grouping[g] < 0) x.cost_by_grouping[g] = x.cost;
}

}  // namespace

SweepReport sweep_memory(const Query& q, const MemoryRequest& r) {
    SweepSpace sp = space_of(q, r);  // refuses a tile over the planning limit
    SweepReport s;
    set_bound(sp, s);
    const std::vector<SweepCandidate> plain_candidates = plain_candidates_of(sp, s);
    // Bounded work: candidates x the tile's placements, checked before any planning (and again with the
    // transpose copies).
    sp.per_plan = placements(q, sp.base);
    check_work(sp, plain_candidates.size());
    // The plain plan first: a request the engine cannot plan at all is refused in its own words.
    const MemoryPlan plain = plan_memory(q, ungrouped_of(sp));
    const bool transpose = transpose_candidates(sp, s);
    const std::vector<SweepCandidate> all = first_candidates(sp, plain_candidates, transpose, s);
    check_work(sp, all.size());

    SweepRun run{sp, plain, s};
    for (const SweepCandidate& c : all) plan_row(run, c);
    if (s.rows.empty()) {
        std::string why = s.skipped.empty() ? std::string("no candidate") : s.skipped.front();
        throw Error("--sweep: the engine planned none of the " + std::to_string(all.size()) + " candidates (" + why + ")");
    }
    s.orders.push_back(std::string(memory_order_name(sp.given_order)));
    s.lds_tried.push_back(sp.given_ld);
    run.planned = all.size();
    if (sp.lds) search_beyond_given(run);
    s.planned = static_cast<int>(run.planned);

    rank_rows(s.rows);
    rank_by_grouping(sp, s);
    s.reaches_minimum = s.rows.front().cost <= s.minimum;
    s.why = s.reaches_minimum ? "the best row reaches the minimum: no layout costs less" : why_not_minimum(s, sp.lds, sp.bits);
    return s;
}

}  // namespace lanescope
