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

}  // namespace

SweepReport sweep_memory(const Query& q, const MemoryRequest& r) {
    MemoryRequest base = r;
    base.tile.pad = 0;
    base.tile.swizzle = XorSwizzle{};
    base.transpose = false;
    base.ld_shared = false;
    const bool nvidia = q.target->vendor() == Vendor::NVIDIA;
    const auto [rows, cols] = memory_extent(q, base);  // refuses a tile over the planning limit

    SweepReport s;
    const bool lds = base.tile.space == MemorySpace::Lds;
    const int bits = base.tile.element_bits;
    const MemoryOrder given_order = base.tile.order;
    auto lines_of = [&, rows = rows, cols = cols](MemoryOrder o) { return o == MemoryOrder::RowMajor ? rows : cols; };
    auto extent_of = [&, rows = rows, cols = cols](MemoryOrder o) { return contiguous_extent(o, rows, cols); };
    s.lines = lines_of(given_order);
    const int given_ld = base.tile.ld;
    if (lds) {
        const BankModel bm = bank_model(*q.target);
        s.bytes_per_cycle = bm.banks * bm.bank_bytes;
        s.metric = nvidia ? "shared-memory bank wavefronts per warp" : "LDS bank cycles per wave";
    } else {
        s.bytes_per_cycle = 128;
        s.metric = "128-byte cache lines per wave";
    }
    s.bytes_per_wave = (elements_per_wave(q, base) * bits + 7) / 8;
    s.minimum = (s.bytes_per_wave + s.bytes_per_cycle - 1) / s.bytes_per_cycle;

    // Paddings: whole dwords (the bank width) from 0 to two rows of banks (or two cache lines).
    const int pad_step = std::lcm(bits, 32) / bits;
    const int pad_max = 2 * s.bytes_per_cycle * 8 / bits;
    // Triton-style XOR swizzles: VEC elements of 1 to 16 bytes, PER_PHASE lines per phase up to two rows of
    // banks, MAX_PHASE from 2 up; only those the tile allows and that differ from a smaller MAX_PHASE.
    auto swizzles_of = [&, rows = rows, cols = cols](MemoryOrder order, int ld) {
        std::vector<XorSwizzle> out;
        const int lines = lines_of(order), extent = extent_of(order);
        const long long line_bytes = std::max<long long>(1, 1LL * ld * bits / 8);
        for (int vec = 1; vec <= extent && vec * bits <= 128; vec *= 2) {
            if (vec * bits % 8) continue;
            for (int pp = 1; pp == 1 || pp * line_bytes <= 2LL * s.bytes_per_cycle; pp *= 2)
                for (int mp = 2; 1LL * vec * mp <= ld && mp <= 64; mp *= 2) {
                    if ((lines - 1) / pp < mp / 2) break;  // lines never reach the upper phases: as MAX_PHASE/2
                    MemoryTile t = base.tile;
                    t.order = order;
                    t.ld = ld;
                    t.swizzle = {vec, pp, mp};
                    try {
                        check_memory_tile(t, rows, cols);
                    } catch (const Error&) {
                        continue;  // moves a position beyond ld: not a layout of this tile
                    }
                    out.push_back(t.swizzle);
                }
        }
        return out;
    };
    std::vector<SweepCandidate> plain_candidates;
    for (int pad = 0; pad <= pad_max; pad += pad_step)
        plain_candidates.push_back({pad, XorSwizzle{}, false, false, given_order, false, 0});
    for (const XorSwizzle& z : swizzles_of(given_order, given_ld))
        plain_candidates.push_back({0, z, false, false, given_order, false, 0});
    s.pad_step = pad_step;
    s.pad_max = pad_max / pad_step * pad_step;
    s.swizzles = static_cast<int>(plain_candidates.size()) - (s.pad_max / pad_step + 1);
    // Bounded work: candidates x the tile's placements, checked before any planning (and again with the
    // transpose copies).
    const long long per_plan = placements(q, base);
    auto check_work = [&](size_t candidates) {
        const size_t n = std::min(candidates, static_cast<size_t>(kMaxSweepCandidates));
        const long long work = per_plan * static_cast<long long>(n);
        if (work > kMaxSweepPlacements)
            throw Error("--sweep plans " + std::to_string(n) + " candidates of " + std::to_string(per_plan) +
                        " placements each (" + std::to_string(work) + " in all); a sweep plans at most " +
                        std::to_string(kMaxSweepPlacements) +
                        " placements; legal: a smaller --shape, fewer --waves or --tiles-per-wave, or one instruction "
                        "(no tile options)");
    };
    check_work(plain_candidates.size());
    // The plain plan first: a request the engine cannot plan at all is refused in its own words. A
    // --grouping applies to each candidate (refused where its instructions do not offer it), not here.
    MemoryRequest ungrouped = base;
    ungrouped.grouping.clear();
    const MemoryPlan plain = plan_memory(q, ungrouped);
    // Transpose loads: candidates where the engine plans them for this tile at some padding (their
    // alignment may need one: FP6 lines of a multiple of 16 bytes); the unpadded tile's refusal otherwise.
    auto transposable = [&](MemoryOrder order, int ld, std::string* note) {
        for (int pad = 0; pad <= pad_max; pad += pad_step) {
            MemoryRequest t = ungrouped;
            t.tile.order = order;
            t.tile.ld = ld;
            t.transpose = true;
            t.tile.pad = pad;
            try {
                plan_memory(q, t);
                return true;
            } catch (const Error& e) {
                if (pad == 0 && note) *note = e.what();
            }
        }
        return false;
    };
    bool transpose = false;
    if (nvidia) {
        s.transpose_note = "NVIDIA has no transpose loads: ldmatrix's .trans follows the tile's order; the sweep ranks "
                           "ldmatrix against plain " + std::string(base.store ? "st.shared" : "ld.shared") + " (--ld-shared)";
    } else if (base.store) {
        s.transpose_note = "stores have no transpose form";
    } else {
        transpose = transposable(given_order, given_ld, &s.transpose_note);
        if (transpose) s.transpose_note.clear();
    }

    std::vector<SweepCandidate> all = plain_candidates;
    auto add_ld_shared = [&](std::vector<SweepCandidate>& group) {
        if (!nvidia) return;
        const size_t n = group.size();
        for (size_t i = 0; i < n; ++i) {
            SweepCandidate c = group[i];
            c.ld_shared = true;
            group.push_back(c);
        }
    };
    add_ld_shared(all);
    if (transpose)
        for (SweepCandidate c : plain_candidates) {
            c.transpose = true;
            all.push_back(c);
        }
    s.candidates = static_cast<int>(all.size());
    if (all.size() > static_cast<size_t>(kMaxSweepCandidates)) all.resize(kMaxSweepCandidates);
    check_work(all.size());

    auto ld_of = [&](const SweepCandidate& c) { return c.ld > 0 ? c.ld : c.reorder ? extent_of(c.order) : given_ld; };
    // Re-costing under each grouping is done for plans of at most this many placements.
    constexpr long long kGroupingPlacements = 4096;
    bool grouping_noted = false;
    auto request_of = [&](const SweepCandidate& c) {
        MemoryRequest req = base;
        req.tile.order = c.order;
        req.tile.ld = ld_of(c);
        req.tile.pad = c.pad;
        req.tile.swizzle = c.swizzle;
        req.transpose = c.transpose;
        req.ld_shared = c.ld_shared;
        return req;
    };
    auto plan_row = [&](const SweepCandidate& c) {
        const MemoryRequest req = request_of(c);
        MemoryPlan p;
        try {
            const bool is_plain = c.pad == 0 && !c.swizzle.active() && !c.transpose && !c.ld_shared && c.order == given_order &&
                                  req.tile.ld == given_ld && base.grouping.empty();
            p = is_plain ? plain : plan_memory(q, req);
        } catch (const Error& e) {
            s.skipped.push_back((c.options().empty() ? std::string("(none)") : c.options()) + ": " + e.what());
            return;
        }
        // NVIDIA: a candidate without --ld-shared stands for ldmatrix; where the planner fell back to
        // ld.shared, its --ld-shared twin is that plan.
        if (nvidia && !c.ld_shared &&
            std::none_of(p.ops.begin(), p.ops.end(), [](const MemoryOp& op) { return op.mnemonic.find("matrix") != std::string::npos; })) {
            s.skipped.push_back((c.options().empty() ? std::string("(none)") : c.options()) + ": " +
                                (p.notes.empty() ? std::string("no ldmatrix plan") : p.notes.front()));
            return;
        }
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
        row.lines = lines_of(c.order);
        for (const MemoryOp& op : p.ops)
            if (op.wave == 0) row.loaded_bytes += op.bytes;
        row.ld = req.tile.ld;
        row.line_bytes = 1LL * (req.tile.ld + c.pad) * bits / 8;
        // Bytes beyond the tile's own: the padding, and an ld past the given one (or the extent).
        const int ld_base = c.order == given_order ? given_ld : extent_of(c.order);
        row.pad_bytes = (1LL * row.lines * (c.pad + std::max(0, req.tile.ld - ld_base)) * bits + 7) / 8;
        for (const BankReport& b : p.banks) {
            if (b.wave != 0) continue;
            const std::string g = b.mnemonic + ": " + b.grouping.name + " (" + b.grouping.confidence + ")";
            if (std::find(row.groupings.begin(), row.groupings.end(), g) == row.groupings.end()) row.groupings.push_back(g);
            if (std::find(row.confidences.begin(), row.confidences.end(), b.grouping.confidence) == row.confidences.end())
                row.confidences.push_back(b.grouping.confidence);
        }
        row.conflict = worst_conflict(p);
        // Under every offered grouping, where this plan's own rests on an inferred one (and the plans are
        // small enough to count again a few times: one instruction or a small tile).
        const bool inferred =
            std::find(row.confidences.begin(), row.confidences.end(), "inferred") != row.confidences.end();
        if (lds && base.grouping.empty() && inferred && per_plan > kGroupingPlacements && !grouping_noted) {
            grouping_noted = true;
            s.notes.push_back("rows whose pass grouping is inferred are not ranked under the other groupings: " +
                              std::to_string(per_plan) + " placements per plan is over " +
                              std::to_string(kGroupingPlacements) +
                              "; rank under one with --grouping NAME (a name not offered is refused with those that are)");
        }
        if (lds && base.grouping.empty() && inferred && per_plan <= kGroupingPlacements) {
            std::vector<std::string> mnemonics;  // in the order the plan issues them
            for (const BankReport& b : p.banks)
                if (std::find(mnemonics.begin(), mnemonics.end(), b.mnemonic) == mnemonics.end()) mnemonics.push_back(b.mnemonic);
            for (const std::string& m : mnemonics)
                for (const PassGrouping& g : pass_groupings(*q.target, m, q.mods.wave))
                    if (std::none_of(s.by_grouping.begin(), s.by_grouping.end(),
                                     [&](const SweepGroupingRank& x) { return x.grouping == g.name; }))
                        s.by_grouping.push_back({g.name, g.confidence, 0, 0});
            row.cost_by_grouping.assign(s.by_grouping.size(), -1);
            for (size_t n = 0; n < s.by_grouping.size(); ++n) row.cost_by_grouping[n] = cost_under(q, p, s.by_grouping[n].grouping);
        }
        s.rows.push_back(std::move(row));
    };
    for (const SweepCandidate& c : all) plan_row(c);
    if (s.rows.empty()) {
        std::string why = s.skipped.empty() ? std::string("no candidate") : s.skipped.front();
        throw Error("--sweep: the engine planned none of the " + std::to_string(all.size()) + " candidates (" + why + ")");
    }
    s.orders.push_back(std::string(memory_order_name(given_order)));
    s.lds_tried.push_back(given_ld);

    // Beyond the paddings and swizzles of the given tile (LDS, where the kernel chooses the layout): the
    // other order, a power-of-two ld that gives swizzles room, and paddings combined with swizzles --
    // each group planned only while the candidate cap and the placement budget allow.
    size_t planned = all.size();
    auto affordable = [&](size_t more, const std::string& what) {
        const bool ok = planned + more <= static_cast<size_t>(kMaxSweepCandidates) &&
                        per_plan * static_cast<long long>(planned + more) <= kMaxSweepPlacements;
        s.candidates += static_cast<int>(more);
        if (ok) planned += more;
        else s.notes.push_back(what + " (" + std::to_string(more) + " candidates) not searched: beyond the cap of " +
                               std::to_string(kMaxSweepCandidates) + " candidates or " +
                               std::to_string(kMaxSweepPlacements) + " placements");
        return ok;
    };
    auto plan_all = [&](const std::vector<SweepCandidate>& group, const std::string& what) {
        if (group.empty() || !affordable(group.size(), what)) return;
        for (const SweepCandidate& c : group) plan_row(c);
    };
    if (lds) {
        const MemoryOrder other = given_order == MemoryOrder::RowMajor ? MemoryOrder::ColMajor : MemoryOrder::RowMajor;
        if (lines_of(other) > 1 || extent_of(other) > 1) {
            std::vector<SweepCandidate> group;
            const int ld = extent_of(other);
            for (int pad = 0; pad <= pad_max; pad += pad_step) group.push_back({pad, XorSwizzle{}, false, false, other, true, 0});
            for (const XorSwizzle& z : swizzles_of(other, ld)) group.push_back({0, z, false, false, other, true, 0});
            add_ld_shared(group);
            if (!base.store && transposable(other, ld, nullptr)) {
                const size_t n = group.size();
                for (size_t i = 0; i < n; ++i) {
                    SweepCandidate c = group[i];
                    c.transpose = true;
                    group.push_back(c);
                }
            }
            const size_t before = s.rows.size();
            plan_all(group, std::string("--order ") + std::string(memory_order_name(other)));
            if (s.rows.size() > before) s.orders.push_back(std::string(memory_order_name(other)));
        }
        // Swizzles need vec * max_phase <= ld: a power-of-two ld above the extent gives them room.
        for (MemoryOrder order : {given_order, other}) {
            if (std::find(s.orders.begin(), s.orders.end(), std::string(memory_order_name(order))) == s.orders.end()) continue;
            const int ld0 = order == given_order ? given_ld : extent_of(order);
            int ld2 = 1;
            while (ld2 < ld0) ld2 *= 2;
            if (ld2 == ld0 || ld2 > (1 << 24)) continue;
            std::vector<SweepCandidate> group;
            for (const XorSwizzle& z : swizzles_of(order, ld2)) group.push_back({0, z, false, false, order, order != given_order, ld2});
            add_ld_shared(group);
            const size_t before = s.rows.size();
            plan_all(group, "--ld " + std::to_string(ld2) + " with swizzles");
            if (s.rows.size() > before) s.lds_tried.push_back(ld2);
        }
        // Paddings with swizzles: the best few of each (by cost, then instructions) combined, per order and ld.
        std::map<std::tuple<int, int, bool>, std::pair<std::vector<const SweepRow*>, std::vector<const SweepRow*>>> by_layout;
        for (const SweepRow& x : s.rows) {
            const SweepCandidate& c = x.candidate;
            if (c.transpose) continue;
            auto& slot = by_layout[{static_cast<int>(c.order), ld_of(c), c.ld_shared}];
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
                    MemoryTile t = base.tile;
                    t.order = c.order;
                    t.ld = ld_of(c);
                    t.pad = c.pad;
                    t.swizzle = c.swizzle;
                    try {
                        check_memory_tile(t, rows, cols);
                    } catch (const Error&) {
                        continue;
                    }
                    combos.push_back(c);
                }
        }
        const size_t before = s.rows.size();
        plan_all(combos, "paddings combined with swizzles");
        s.combined = static_cast<int>(s.rows.size() - before);
    }
    s.planned = static_cast<int>(planned);

    auto key = [&](const SweepRow& x) {
        const SweepCandidate& c = x.candidate;
        return std::make_tuple(x.cost, x.instructions_per_wave, x.pad_bytes, complexity(c), c.reorder,
                               c.transpose, c.ld_shared, c.pad, c.swizzle.max_phase, c.swizzle.vec, c.swizzle.per_phase, c.ld);
    };
    std::stable_sort(s.rows.begin(), s.rows.end(), [&](const SweepRow& a, const SweepRow& b) { return key(a) < key(b); });

    // Rows planned before a grouping was met (another row's instructions offer it): planned again for it.
    for (SweepRow& x : s.rows) {
        if (x.cost_by_grouping.empty() || x.cost_by_grouping.size() == s.by_grouping.size()) continue;
        const MemoryPlan p = plan_memory(q, request_of(x.candidate));
        for (size_t g = x.cost_by_grouping.size(); g < s.by_grouping.size(); ++g)
            x.cost_by_grouping.push_back(cost_under(q, p, s.by_grouping[g].grouping));
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

    s.reaches_minimum = s.rows.front().cost <= s.minimum;
    s.why = s.reaches_minimum ? "the best row reaches the minimum: no layout costs less" : why_not_minimum(s, lds, bits);
    return s;
}

}  // namespace lanescope
