// Shared helpers for the tests: walking the catalog and its legal modifiers.
#pragma once

#include "lanescope/lanescope.hpp"
#include "lanescope/tile.hpp"

#include <algorithm>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lstest {

namespace ls = lanescope;

// One representative target per family.
inline std::vector<const ls::Target*> family_targets() {
    std::vector<const ls::Target*> out;
    const auto& cat = ls::Catalog::builtin();
    for (ls::Family f : {ls::Family::CDNA1, ls::Family::CDNA2, ls::Family::CDNA3, ls::Family::CDNA4,
                         ls::Family::RDNA3, ls::Family::RDNA4, ls::Family::CDNA5})
        for (const auto& t : cat.targets())
            if (t.family == f) {
                out.push_back(&t);
                break;
            }
    return out;
}

struct Case {
    const ls::Instruction* ins;
    const ls::Target* target;
    ls::ResolvedModifiers mods;
    std::string name() const {
        std::string m = mods.describe();
        return target->gfx + " " + ins->mnemonic + " (" + ins->builtin(mods.wave) + ") wave" +
               std::to_string(mods.wave) + (m.empty() ? "" : " " + m);
    }
};

// Every catalog entry on every family, each wave size, with default modifiers.
inline void for_each_default(const std::function<void(const Case&)>& fn) {
    for (const ls::Target* t : family_targets())
        for (const ls::Instruction* ins : ls::Catalog::builtin().on(t->family))
            for (int wave : t->wave_sizes) {
                ls::Modifiers m;
                m.wave = wave;
                fn({ins, t, ls::resolve_modifiers(*ins, *t, m)});
            }
}

// Every legal combination of cbsz, abid, blgp, opsel (and opsel_a/b) too. Under the
// sanitizers (CI's second run, instrumented: some 20-40x slower) every instruction
// still comes, with every 4th of its combinations (from a phase that moves from one instruction to
// the next) and its last: each formula's code runs instrumented; the Release run checks every combination.
#ifdef LANESCOPE_TEST_SANITIZED
constexpr int kCombinationStride = 4;
#else
constexpr int kCombinationStride = 1;
#endif

inline void for_each_combination(const std::function<void(const Case&)>& fn) {
    int bases = 0;
    for_each_default([&](const Case& base) {
        constexpr int kStride = kCombinationStride;
        // Each instruction starts the sampling at another phase, so that every value of an inner
        // modifier (blgp's 8 patterns, opsel) is visited on some instruction.
        int index = bases++ % kStride;
        std::optional<Case> held;  // the latest combination not visited, visited last
        auto visit = [&](const Case& c) {
            if (index++ % kStride == 0) fn(c), held.reset();
            else held = c;
        };
        auto values = [&](const char* name, const ls::ResolvedModifiers& cur) {
            for (const auto& r : ls::modifier_ranges(*base.ins, *base.target, cur))
                if (r.name == name) return r.values;
            return std::vector<int>{0};
        };
        ls::ResolvedModifiers cur = base.mods;
        for (int cbsz : values("cbsz", cur)) {
            cur.cbsz = cbsz;
            for (int abid : values("abid", cur))
                for (int blgp : values("blgp", cur))
                    for (int opsel : values("opsel", cur)) {
                        ls::Modifiers m;
                        m.wave = base.mods.wave;
                        m.cbsz = cbsz;
                        m.abid = abid;
                        m.blgp = blgp;
                        m.opsel = opsel;
                        visit({base.ins, base.target, ls::resolve_modifiers(*base.ins, *base.target, m)});
                    }
        }
        if (held) fn(*held);
    });
}

// Registers of a builtin vector type token: "v4f16" -> 2, "i64" -> 2, "f32" -> 1.
inline int vector_regs(const std::string& tok) {
    int count = 1;
    size_t p = 0;
    if (tok[0] == 'v') {
        p = 1;
        count = 0;
        while (p < tok.size() && isdigit(static_cast<unsigned char>(tok[p]))) count = count * 10 + (tok[p++] - '0');
    }
    int bits = std::stoi(tok.substr(p + (tok.compare(p, 2, "bf") == 0 ? 2 : 1)));
    return (count * bits + 31) / 32;
}

// The elements one (wave, lane) of a tile holds, in register-and-bit order, by which().
inline std::vector<ls::Element> lane_elements(const ls::TileLayout& t, int wave, int lane) {
    std::vector<ls::Element> out;
    for (int reg = 0; reg < t.regs(); ++reg) {
        auto parts = t.which(wave, reg, lane);
        std::sort(parts.begin(), parts.end(), [](const ls::SlotPart& a, const ls::SlotPart& b) { return a.bit_lo < b.bit_lo; });
        for (const auto& p : parts)
            if (p.elem_bit_lo == 0) out.push_back(p.element);
    }
    return out;
}

}  // namespace lstest
