#include "model/notes.hpp"

#include <algorithm>

namespace lsapp {

namespace {
const char* const kDash = "\u2013";
std::string range(int a, int b) { return std::to_string(a) + kDash + std::to_string(b); }
}  // namespace

Replication replication_of(const ls::OperandLayout& l) {
    Replication rep;
    if (l.space() != ls::Space::Registers) return rep;
    for (int b = 0; b < l.blocks(); ++b)
        for (int r = 0; r < l.rows(); ++r)
            for (int c = 0; c < l.cols(); ++c) {
                const std::vector<ls::Location> locs = l.where({b, r, c});
                if (locs.size() < 2) return {};
                const int step = locs[1].lane - locs[0].lane;
                if (step <= 0) return {};
                if (rep.copies == 0) rep = {static_cast<int>(locs.size()), step};
                if (static_cast<int>(locs.size()) != rep.copies || step != rep.step) return {};
                for (size_t k = 1; k < locs.size(); ++k)
                    if (locs[k].lane != locs[0].lane + static_cast<int>(k) * step || locs[k].reg != locs[0].reg ||
                        locs[k].bit_lo != locs[0].bit_lo)
                        return {};
            }
    return rep;
}

BlockLanes block_lanes(const ls::OperandLayout& l) {
    if (l.blocks() < 2 || l.space() != ls::Space::Registers) return {};
    BlockLanes out{l.lanes() / l.blocks(), -1};
    for (int b = 0; b < l.blocks(); ++b)
        for (int r = 0; r < l.rows(); ++r)
            for (int c = 0; c < l.cols(); ++c)
                for (const ls::Location& loc : l.where({b, r, c})) {
                    const int first = loc.lane - b * out.lanes;
                    if (out.first < 0) out.first = first - first % std::max(1, out.lanes);
                    if (first < out.first || first >= out.first + out.lanes) return {};
                }
    if (out.first < 0) return {};
    return out;
}

std::vector<std::string> picture_notes(const LayoutSet& set) {
    std::vector<std::string> notes;
    if (!set.ins) return notes;
    // Replicated operands, those alike in one sentence ("A and B").
    struct Rep {
        std::string names;
        Replication r;
        std::string formula;
    };
    std::vector<Rep> reps;
    for (const ls::OperandLayout& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        const Replication r = replication_of(l);
        if (r.copies < 2) continue;
        auto same = std::find_if(reps.begin(), reps.end(), [&](const Rep& x) { return x.r.copies == r.copies && x.r.step == r.step; });
        const std::string name = l.operand() == ls::Operand::D ? "C / D" : std::string(ls::operand_name(l.operand()));
        // Core's formula says why ("every copy must hold the value"): its part before the inverse.
        std::string f = l.formula();
        const size_t inv = f.find("  Inverse");
        if (inv != std::string::npos) f.erase(inv);
        if (same == reps.end()) reps.push_back({name, r, f});
        else same->names += " and " + name;
    }
    for (const Rep& x : reps) {
        const int held = x.r.step, last = x.r.copies * x.r.step - 1;
        std::string lanes = "L";
        for (int k = 1; k < x.r.copies && k < 4; ++k) lanes += ", L+" + std::to_string(k * held);
        if (x.r.copies > 4) lanes += ", \u2026";
        std::string s = x.names + (x.names.find(" and ") != std::string::npos ? " are" : " is") + " replicated: each element is in " + std::to_string(x.r.copies) + " lanes (" + lanes +
                        "), so lanes " + range(held, last) + " hold copies of lanes " + range(0, held - 1) + "'s values";
        if (set.wave() > held * 2 && x.r.copies * held == set.wave())
            s += "; in wave" + std::to_string(set.wave()) + ", lanes " + range(set.wave() / 2, set.wave() - 1) + " repeat lanes " +
                 range(0, set.wave() / 2 - 1);
        s += ". Core's layout: " + x.formula;
        notes.push_back(s);
    }
    // Blocks: which lane group computes which block.
    if (set.ins->blocks > 1) {
        std::string names;
        BlockLanes common;
        bool alike = true;
        for (const ls::OperandLayout& l : set.layouts) {
            if (l.operand() == ls::Operand::C || l.blocks() < 2) continue;
            const BlockLanes bl = block_lanes(l);
            if (bl.lanes == 0) {
                alike = false;
                continue;
            }
            if (names.empty()) common = bl;
            else if (bl.lanes != common.lanes || bl.first != common.first) alike = false;
            names += (names.empty() ? "" : ", ") + std::string(l.operand() == ls::Operand::D ? "C / D" : ls::operand_name(l.operand()));
        }
        const int n = set.ins->blocks;
        std::string s = std::to_string(n) + " blocks, each its own " + std::to_string(set.ins->m) + "x" + std::to_string(set.ins->n) +
                        "x" + std::to_string(set.ins->k) + " product";
        if (!names.empty() && alike && common.lanes > 0) {
            const int g = common.lanes;
            s += ": block b is lanes " + std::to_string(g) + "b" + kDash + std::to_string(g) + "b+" + std::to_string(g - 1) + " of " + names +
                 " (b0: lanes " + range(common.first, common.first + g - 1) + ", b1: " + range(common.first + g, common.first + 2 * g - 1) +
                 ", \u2026, b" + std::to_string(n - 1) + ": " + range(common.first + (n - 1) * g, common.first + n * g - 1) + ")";
        } else if (!names.empty()) {
            s += "; the lane groups differ by operand here (a broadcast modifier): hover a block to see its lanes";
        }
        notes.push_back(s + ".");
    }
    return notes;
}

std::vector<std::string> tile_notes(const LayoutSet& set) {
    std::vector<std::string> notes;
    for (const ls::OperandLayout& l : set.layouts) {
        if (l.operand() == ls::Operand::C || l.space() == ls::Space::Registers) continue;
        const std::string name = l.operand() == ls::Operand::D ? "C / D" : std::string(ls::operand_name(l.operand()));
        if (l.space() == ls::Space::SharedMemory)
            notes.push_back(name + " is not in the tile: each instruction reads it from shared memory through a matrix descriptor, "
                                   "so no lane holds it (tile mode off, the Layout and Memory tabs draw it from its descriptor).");
        else
            notes.push_back(name + " is not in the tile: it lives in Tensor Memory, in no lane's registers (tile mode off, the "
                                   "Layout tab draws it there).");
    }
    return notes;
}

}  // namespace lsapp
