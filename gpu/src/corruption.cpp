// Deliberately wrong layouts: the probe must catch them and say where.
#include "lanescope/gpu.hpp"
#include "lanescope/numbers.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace lanescope::gpu {

Corruption parse_corruption(const std::string& text) {
    const std::string legal = "legal: OPERAND:swap-lanes:L1:L2 or OPERAND:shift-regs (OPERAND: A, B, C, D, K, SA, SB)";
    std::vector<std::string> parts;
    std::istringstream s(text);
    for (std::string p; std::getline(s, p, ':');) parts.push_back(p);
    if (parts.size() < 2) throw Error("bad corruption '" + text + "'; " + legal);
    auto op = parse_operand(parts[0]);
    if (!op) throw Error("bad corruption '" + text + "': unknown operand '" + parts[0] + "'; " + legal);
    Corruption c;
    c.operand = *op;
    if (parts[1] == "shift-regs" && parts.size() == 2) {
        c.kind = Corruption::ShiftRegisters;
        return c;
    }
    if (parts[1] == "swap-lanes" && parts.size() == 4) {
        c.kind = Corruption::SwapLanes;
        for (int n : {2, 3}) {
            try {  // 0..127: a wgmma warpgroup has 128 lanes
                (n == 2 ? c.lane_a : c.lane_b) = static_cast<int>(parse_integer(parts[static_cast<size_t>(n)], 0, 127, "lane"));
            } catch (const Error&) {
                throw Error("bad corruption '" + text + "': lane '" + parts[static_cast<size_t>(n)] +
                            "' is not a whole number in 0..127; " + legal);
            }
        }
        if (c.lane_a == c.lane_b) throw Error("bad corruption '" + text + "': the two lanes are the same; " + legal);
        return c;
    }
    throw Error("bad corruption '" + text + "'; " + legal);
}

std::string describe(const Corruption& c) {
    const std::string op(operand_name(c.operand));
    if (c.kind == Corruption::ShiftRegisters) return op + ": every register shifted by one (v(r) -> v(r+1 mod regs))";
    return op + ": lanes " + std::to_string(c.lane_a) + " and " + std::to_string(c.lane_b) + " swapped";
}

ClaimedLayout apply(const ClaimedLayout& original, const Corruption& c) {
    ClaimedLayout out = original;
    if (out.operand != c.operand) return out;
    for (Entry& e : out.entries) {
        if (c.kind == Corruption::ShiftRegisters) {
            // Shift whole registers; an element spanning several keeps its span.
            const int span = (e.loc.bit_hi / 32) + 1;
            e.loc.reg = (e.loc.reg + span) % out.regs;
            if (e.loc.reg + span > out.regs) e.loc.reg = 0;
        } else if (e.loc.lane == c.lane_a) {
            e.loc.lane = c.lane_b;
        } else if (e.loc.lane == c.lane_b) {
            e.loc.lane = c.lane_a;
        }
    }
    return out;
}

bool changes_layout(const ClaimedLayout& original, const Corruption& c) {
    if (c.kind == Corruption::SwapLanes && (c.lane_a >= original.lanes || c.lane_b >= original.lanes)) return false;
    auto contents = [](const ClaimedLayout& L) {
        std::map<std::tuple<int, int, int>, std::set<std::tuple<int, int, int>>> slots;
        for (const Entry& e : L.entries)
            slots[{e.loc.reg, e.loc.lane, e.loc.bit_lo}].insert({e.element.block, e.element.row, e.element.col});
        return slots;
    };
    return contents(original) != contents(apply(original, c));
}

std::string why_nothing_moves(const ClaimedLayout& original, const Corruption& c) {
    if (original.operand != c.operand || changes_layout(original, c)) return "";
    const std::string op(operand_name(c.operand));
    std::string why;
    if (c.kind == Corruption::ShiftRegisters)
        why = original.regs == 1 ? op + " has one register per lane, which a shift by one maps onto itself"
                                 : "shifting the " + std::to_string(original.regs) + " registers of " + op +
                                       " by one leaves every element where it was";
    else
        why = "lanes " + std::to_string(c.lane_a) + " and " + std::to_string(c.lane_b) + " hold the same elements of " +
              op + " (the operand is replicated across them)";
    // A corruption of this operand that does move an element, for the message.
    std::string legal;
    Corruption shift = c;
    shift.kind = Corruption::ShiftRegisters;
    if (c.kind != Corruption::ShiftRegisters && changes_layout(original, shift)) legal = op + ":shift-regs";
    // Lane 0 with each other lane, then neighbours: 2 x lanes tries at most.
    for (int n = 1; n < 2 * original.lanes - 2 && legal.empty(); ++n) {
        Corruption swap = c;
        swap.kind = Corruption::SwapLanes;
        swap.lane_a = n < original.lanes ? 0 : n - original.lanes + 1;
        swap.lane_b = n < original.lanes ? n : swap.lane_a + 1;
        if (changes_layout(original, swap))
            legal = op + ":swap-lanes:" + std::to_string(swap.lane_a) + ":" + std::to_string(swap.lane_b);
    }
    return why + ", so the claim would not change and the check would pass without testing anything; " +
           (legal.empty() ? "no lane swap or register shift moves an element of " + op + "; legal: another operand"
                          : "legal: a corruption that moves an element, e.g. " + legal);
}

LayoutSource corrupted_layouts(const Instruction& ins, const Target& t, const ResolvedModifiers& mods,
                               const Corruption& c) {
    const Instruction* pi = &ins;
    const Target* pt = &t;
    return [pi, pt, mods, c](Operand op) { return apply(probe_layout(*pi, *pt, op, mods), c); };
}

}  // namespace lanescope::gpu
