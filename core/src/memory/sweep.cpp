// `load --sweep`: the paddings and XOR swizzles (and, where legal, the
// transpose loads) of one operand's tile, each planned by plan_memory and
// ranked by the cost the engine counts (LDS bank cycles, or global cache
// lines) against the bound no layout can beat. Candidates and ranking:
// docs/memory.md, "Which padding or swizzle (--sweep)".
#include "lanescope/limits.hpp"
#include "lanescope/memory.hpp"

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
    return s;
}

namespace {

// How many of the three choices a candidate makes (none, a pad, a swizzle, the transpose loads).
int complexity(const SweepCandidate& c) { return (c.pad > 0) + c.swizzle.active() + c.transpose; }

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

}  // namespace

SweepReport sweep_memory(const Query& q, const MemoryRequest& r) {
    MemoryRequest base = r;
    base.tile.pad = 0;
    base.tile.swizzle = XorSwizzle{};
    base.transpose = false;
    const auto [rows, cols] = memory_extent(q, base);  // refuses a tile over the planning limit

    SweepReport s;
    const bool lds = base.tile.space == MemorySpace::Lds;
    const int bits = base.tile.element_bits;
    const bool row_major = base.tile.order == MemoryOrder::RowMajor;
    s.lines = row_major ? rows : cols;
    const int extent = contiguous_extent(base.tile.order, rows, cols);
    const int ld = base.tile.ld;
    if (lds) {
        const BankModel bm = bank_model(*q.target);
        s.bytes_per_cycle = bm.banks * bm.bank_bytes;
        s.metric = "LDS bank cycles per wave";
    } else {
        s.bytes_per_cycle = 128;
        s.metric = "128-byte cache lines per wave";
    }
    s.bytes_per_wave = (elements_per_wave(q, base) * bits + 7) / 8;
    s.minimum = (s.bytes_per_wave + s.bytes_per_cycle - 1) / s.bytes_per_cycle;

    // Paddings: whole dwords (the bank width) from 0 to two rows of banks (or two cache lines).
    const int pad_step = std::lcm(bits, 32) / bits;
    const int pad_max = 2 * s.bytes_per_cycle * 8 / bits;
    std::vector<SweepCandidate> plain_candidates;
    for (int pad = 0; pad <= pad_max; pad += pad_step) plain_candidates.push_back({pad, XorSwizzle{}, false});
    // Triton-style XOR swizzles (pad 0): VEC elements of 1 to 16 bytes, PER_PHASE lines per phase up to two
    // rows of banks, MAX_PHASE from 2 up; only those the tile allows and that differ from a smaller MAX_PHASE.
    const long long line_bytes = std::max<long long>(1, 1LL * ld * bits / 8);
    for (int vec = 1; vec <= extent && vec * bits <= 128; vec *= 2) {
        if (vec * bits % 8) continue;
        for (int pp = 1; pp == 1 || pp * line_bytes <= 2LL * s.bytes_per_cycle; pp *= 2)
            for (int mp = 2; 1LL * vec * mp <= ld && mp <= 64; mp *= 2) {
                if ((s.lines - 1) / pp < mp / 2) break;  // lines never reach the upper phases: as MAX_PHASE/2
                MemoryTile t = base.tile;
                t.swizzle = {vec, pp, mp};
                try {
                    check_memory_tile(t, rows, cols);
                } catch (const Error&) {
                    continue;  // moves a position beyond ld: not a layout of this tile
                }
                plain_candidates.push_back({0, t.swizzle, false});
            }
    }
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
    bool transpose = false;
    if (base.store) {
        s.transpose_note = "stores have no transpose form";
    } else {
        for (const SweepCandidate& c : plain_candidates) {
            if (c.swizzle.active()) break;  // the paddings come first
            MemoryRequest t = ungrouped;
            t.transpose = true;
            t.tile.pad = c.pad;
            try {
                plan_memory(q, t);
                transpose = true;
                break;
            } catch (const Error& e) {
                if (c.pad == 0) s.transpose_note = e.what();
            }
        }
        if (transpose) s.transpose_note.clear();
    }

    std::vector<SweepCandidate> all = plain_candidates;
    if (transpose)
        for (SweepCandidate c : plain_candidates) {
            c.transpose = true;
            all.push_back(c);
        }
    s.candidates = static_cast<int>(all.size());
    if (all.size() > static_cast<size_t>(kMaxSweepCandidates)) all.resize(kMaxSweepCandidates);
    s.planned = static_cast<int>(all.size());
    check_work(all.size());

    for (const SweepCandidate& c : all) {
        MemoryRequest req = base;
        req.tile.pad = c.pad;
        req.tile.swizzle = c.swizzle;
        req.transpose = c.transpose;
        MemoryPlan p;
        try {
            p = c.pad == 0 && !c.swizzle.active() && !c.transpose && base.grouping.empty() ? plain : plan_memory(q, req);
        } catch (const Error& e) {
            s.skipped.push_back((c.options().empty() ? std::string("(none)") : c.options()) + ": " + e.what());
            continue;
        }
        SweepRow row;
        row.candidate = c;
        std::tie(row.cost, row.instruction_minimum) = plan_cost(p);
        row.instructions_per_wave = p.instructions_per_wave;
        std::map<int, std::string> issues;
        for (const MemoryOp& op : p.ops)
            if (op.wave == 0) issues.emplace(op.issue, op.mnemonic);
        for (const auto& [i, m] : issues) {
            auto it = std::find_if(row.instructions.begin(), row.instructions.end(),
                                   [&](const std::pair<std::string, int>& x) { return x.first == m; });
            if (it == row.instructions.end()) row.instructions.push_back({m, 1});
            else ++it->second;
        }
        row.pad_bytes = (1LL * s.lines * c.pad * bits + 7) / 8;
        for (const BankReport& b : p.banks) {
            if (b.wave != 0) continue;
            const std::string g = b.mnemonic + ": " + b.grouping.name + " (" + b.grouping.confidence + ")";
            if (std::find(row.groupings.begin(), row.groupings.end(), g) == row.groupings.end()) row.groupings.push_back(g);
            if (std::find(row.confidences.begin(), row.confidences.end(), b.grouping.confidence) == row.confidences.end())
                row.confidences.push_back(b.grouping.confidence);
        }
        s.rows.push_back(std::move(row));
    }
    if (s.rows.empty()) {
        std::string why = s.skipped.empty() ? std::string("no candidate") : s.skipped.front();
        throw Error("--sweep: the engine planned none of the " + std::to_string(all.size()) + " candidates (" + why + ")");
    }
    auto key = [](const SweepRow& x) {
        const SweepCandidate& c = x.candidate;
        return std::make_tuple(x.cost, x.instructions_per_wave, x.pad_bytes, complexity(c), c.transpose, c.pad,
                               c.swizzle.max_phase, c.swizzle.vec, c.swizzle.per_phase);
    };
    std::stable_sort(s.rows.begin(), s.rows.end(), [&](const SweepRow& a, const SweepRow& b) { return key(a) < key(b); });
    return s;
}

}  // namespace lanescope
