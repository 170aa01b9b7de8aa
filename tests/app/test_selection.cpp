#include "model/selection.hpp"

#include <catch2/catch.hpp>

namespace ls = lanescope;
using namespace lsapp;

TEST_CASE("modifiers: every value the engine offers is accepted - others are dropped, not fatal") {
    const auto& cat = ls::Catalog::builtin();
    for (const ls::Target& t : cat.targets()) {
        for (const ls::Instruction* ins : cat.on(t.family)) {
            const ls::ResolvedModifiers def = ls::resolve_modifiers(*ins, t, ls::Modifiers{});
            for (const ls::ModifierRange& r : ls::modifier_ranges(*ins, t, def)) {
                for (int v : r.values) {
                    ls::Modifiers m;
                    set_modifier(m, r.name, v);
                    const ls::Modifiers legal = legalize(*ins, t, m);
                    const ls::ResolvedModifiers res = ls::resolve_modifiers(*ins, t, legal);
                    CHECK(modifier_value(res, r.name) == v);
                }
            }
        }
    }
}

TEST_CASE("modifiers: an illegal value is reset to its default") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");  // single block: no cbsz
    ls::Modifiers m;
    m.cbsz = 3;
    CHECK_THROWS_AS(ls::resolve_modifiers(ins, t, m), ls::Error);
    const ls::Modifiers legal = legalize(ins, t, m);
    CHECK(legal.cbsz == -1);
    // And through a selection: switching instruction keeps working.
    Selection s{"gfx942", "v_mfma_f32_32x32x8_f16", m};
    CHECK_NOTHROW(resolve_selection(cat, s));
}

TEST_CASE("modifiers: abid depends on cbsz, and the legal set follows it") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_4x4x4_16b_f16");
    ls::Modifiers m;
    m.cbsz = 2;
    m.abid = 3;
    const ls::ResolvedModifiers r = ls::resolve_modifiers(ins, t, legalize(ins, t, m));
    CHECK(r.cbsz == 2);
    CHECK(r.abid == 3);
    for (const auto& range : ls::modifier_ranges(ins, t, r))
        if (range.name == "abid") CHECK(range.values.size() == 4u);  // 2^cbsz values
}

TEST_CASE("selection: wave size from a _w64 builtin name - unknown names throw with a message") {
    const auto& cat = ls::Catalog::builtin();
    const LayoutSet set = resolve_selection(cat, Selection{"gfx1100", "wmma_f32_16x16x16_f16_w64", {}});
    CHECK(set.mods.wave == 64);
    CHECK(set.find(ls::Operand::D)->lanes() == 64);
    CHECK_THROWS_AS(resolve_selection(cat, Selection{"gfx942", "v_nonsense", {}}), ls::Error);
    CHECK_THROWS_AS(resolve_selection(cat, Selection{"gfx9999", "v_mfma_f32_32x32x8_f16", {}}), ls::Error);
}

TEST_CASE("switching architecture keeps the same instruction where it exists") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& rdna3 = cat.find_target("gfx1100");
    const ls::Target& rdna4 = cat.find_target("gfx1200");
    const ls::Instruction& w = cat.find_instruction(rdna3, "v_wmma_f32_16x16x16_f16");
    CHECK(carry_instruction(cat, w, rdna4) == "v_wmma_f32_16x16x16_f16");
    const ls::Target& cdna3 = cat.find_target("gfx942");
    const ls::Target& cdna2 = cat.find_target("gfx90a");
    const ls::Instruction& m = cat.find_instruction(cdna3, "v_mfma_f32_32x32x8_f16");
    const std::string on2 = carry_instruction(cat, m, cdna2);
    CHECK(cat.find_instruction(cdna2, on2).builtin_pattern == m.builtin_pattern);
    // Nothing alike on RDNA: the target's first instruction.
    CHECK(carry_instruction(cat, m, rdna3) == cat.on(rdna3.family).front()->mnemonic);
}

TEST_CASE("the benchmark's largest layout is at least as large as every other") {
    const auto& cat = ls::Catalog::builtin();
    const auto [t, ins] = largest_layout(cat);
    REQUIRE(t != nullptr);
    REQUIRE(ins != nullptr);
    const ls::ResolvedModifiers r = ls::resolve_modifiers(*ins, *t, [&] { ls::Modifiers m; m.wave = t->wave_sizes.back(); return m; }());
    long best = 0;
    for (ls::Operand op : ls::operands_of(*ins))
        if (op != ls::Operand::C) best += ls::layout_of(*ins, *t, op, r).elements();
    const ls::Instruction& small = cat.find_instruction(cat.find_target("gfx942"), "v_mfma_f32_32x32x8_f16");
    long other = 0;
    for (ls::Operand op : ls::operands_of(small))
        if (op != ls::Operand::C) other += ls::layout_of(small, cat.find_target("gfx942"), op, ls::Modifiers{}).elements();
    CHECK(best >= other);
}

TEST_CASE("modifiers: every field is legalized on its own, Blackwell's and shared memory's too") {
    // A stale choice of one family (a scale-factor id on a kind::f16 MMA) drops only itself: the
    // read-back and the descriptor's swizzle the user chose stay.
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_100a");
    const ls::Instruction& ins = cat.find_instruction(t, "tcgen05_mma_m128n256k16_f16_f16");
    ls::Modifiers m;
    set_modifier(m, "tmem_load", 1);  // 32x32b
    set_modifier(m, "swizzle", 3);    // 128B
    set_modifier(m, "sfa_id", 2);     // not block-scaled: refused
    CHECK_THROWS_AS(ls::resolve_modifiers(ins, t, m), ls::Error);
    const ls::Modifiers legal = legalize(ins, t, m);
    CHECK(modifier_value(legal, "sfa_id") == -1);
    CHECK(modifier_value(legal, "tmem_load") == 1);
    CHECK(modifier_value(legal, "swizzle") == 3);
    CHECK(ls::modifier_field_names().size() == 31);
}
