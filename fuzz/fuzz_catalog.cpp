// Fuzz target: catalog text -> Catalog::parse -> every accepted row laid out.
// Any row the loader accepts must lay out without a crash, an overflow or an
// exception other than lanescope::Error.
#include "lanescope/lanescope.hpp"
#include "lanescope/render.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ls = lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ls::Catalog cat;
    try {
        cat = ls::Catalog::parse(text, "fuzz");
    } catch (const ls::Error&) {
        return 0;  // refused with a message: fine
    }
    size_t rows = 0;
    for (const ls::Instruction& ins : cat.instructions()) {
        if (++rows > 4) break;  // bounded work per input
        for (ls::Family fam : ins.families) {
            const ls::Target* t = nullptr;
            for (const ls::Target& x : cat.targets())
                if (x.family == fam) {
                    t = &x;
                    break;
                }
            for (int wave : t->wave_sizes) {
                ls::Modifiers m;
                m.wave = wave;
                const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, *t, m);
                const ls::Query q{&ins, t, mods};
                (void)ls::render_info(q, ls::Format::Json);
                for (ls::Operand op : ls::operands_of(ins)) {
                    const ls::OperandLayout L = ls::layout_of(ins, *t, op, mods);
                    if (L.elements() > 0) (void)L.where({0, L.rows() - 1, L.cols() - 1});
                    if (L.regs() > 0) (void)L.which(L.regs() - 1, L.lanes() - 1);
                }
                (void)ls::trace(ins, *t, mods, {0, ins.m - 1, ins.n - 1});
                // Every legal value of every modifier, one at a time.
                for (const ls::ModifierRange& r : ls::modifier_ranges(ins, *t, mods))
                    for (int v : r.values) {
                        ls::Modifiers one = m;
                        ls::set_modifier(one, r.name, v);
                        try {
                            const ls::ResolvedModifiers rm = ls::resolve_modifiers(ins, *t, one);
                            for (ls::Operand op : ls::operands_of(ins)) (void)ls::layout_of(ins, *t, op, rm);
                        } catch (const ls::Error&) {
                            // a combination the rules refuse (abid with cbsz): fine
                        }
                    }
            }
        }
    }
    return 0;
}
