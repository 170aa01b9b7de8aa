// Properties every layout must have, checked for every catalog entry on every
// family, both wave sizes, and every legal modifier combination.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <vector>

using namespace lstest;

namespace {

bool is_sparse_grouped(const ls::Instruction& ins, ls::Operand op) {
    return ins.sparse() && (op == ls::Operand::A || op == ls::Operand::K);
}

// Checks one operand; returns a description of the first problem, or "".
std::string check_operand(const Case& c, ls::Operand op) {
    ls::OperandLayout L = ls::layout_of(*c.ins, *c.target, op, c.mods);
    auto entries = L.entries();
    if (entries.empty()) return "no entries";
    // Every element has at least one location; forward (where) and the entry
    // list agree; inverse (which) names the element at the same bits.
    size_t seen = 0;
    for (int b = 0; b < L.blocks(); ++b)
        for (int r = 0; r < L.rows(); ++r)
            for (int col = 0; col < L.cols(); ++col) {
                auto locs = L.where({b, r, col});
                if (locs.empty()) return "element without a location";
                for (const auto& loc : locs) {
                    if (loc.lane < 0 || loc.lane >= L.lanes() || loc.reg < 0 || loc.reg >= L.regs() ||
                        loc.bit_lo < 0 || loc.bit_lo > 31 || loc.bit_hi - loc.bit_lo + 1 != L.element_bits() ||
                        loc.reg + loc.bit_hi / 32 >= L.regs())
                        return "location out of range";
                    bool found = false;
                    for (const auto& p : L.which(loc.reg, loc.lane))
                        found = found || (p.element == ls::Element{b, r, col} && p.bit_lo == loc.bit_lo && p.elem_bit_lo == 0);
                    if (!found) return "which() does not name the element where() put";
                    ++seen;
                }
            }
    if (seen != entries.size()) return "entries() and where() disagree";
    // Inverse -> forward: every slot part names an element whose location covers it.
    for (int lane = 0; lane < L.lanes(); ++lane)
        for (int reg = 0; reg < L.regs(); ++reg)
            for (const auto& p : L.which(reg, lane)) {
                bool found = false;
                for (const auto& loc : L.where(p.element)) {
                    int start = loc.reg * 32 + loc.bit_lo + p.elem_bit_lo;
                    found = found || (loc.lane == lane && start == reg * 32 + p.bit_lo);
                }
                if (!found) return "which() names an element whose where() does not cover that slot";
            }
    return "";
}

}  // namespace

TEST_CASE("forward and inverse agree for every layout and modifier combination", "[slow]") {
    size_t layouts = 0;
    for_each_combination([&](const Case& c) {
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            std::string problem = check_operand(c, op);
            INFO(c.name() << " operand " << ls::operand_name(op));
            REQUIRE(problem == "");
            ++layouts;
        }
    });
#ifdef LANESCOPE_TEST_SANITIZED
    CHECK(layouts > 750);  // every 4th combination (helpers.hpp)
#else
    CHECK(layouts > 3000);
#endif
}

TEST_CASE("without modifiers no two elements of a block share a bit") {
    size_t layouts = 0;
    for_each_default([&](const Case& c) {
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            ls::OperandLayout L = ls::layout_of(*c.ins, *c.target, op, c.mods);
            INFO(c.name() << " operand " << ls::operand_name(op));
            ++layouts;
            // (block, lane, absolute bit) -> the entry that owns it (-1: none yet); a flat table, not a
            // map: under the sanitizers' -O0 a std::map of every bit took minutes.
            const auto entries = L.entries();
            const long long bits = 32LL * L.regs();
            std::vector<int> owner(static_cast<size_t>(L.blocks() * L.lanes() * bits), -1);
            for (size_t n = 0; n < entries.size(); ++n) {
                const auto& e = entries[n];
                if (e.element.block >= L.blocks() || e.loc.lane >= L.lanes() || e.loc.reg * 32 + e.loc.bit_hi >= bits)
                    FAIL("an entry outside the operand's blocks, lanes or registers");
                for (int bit = e.loc.reg * 32 + e.loc.bit_lo; bit <= e.loc.reg * 32 + e.loc.bit_hi; ++bit) {
                    int& slot = owner[static_cast<size_t>((e.element.block * L.lanes() + e.loc.lane) * bits + bit)];
                    if (slot < 0) {
                        slot = static_cast<int>(n);
                        continue;
                    }
                    const ls::Element& first = entries[static_cast<size_t>(slot)].element;
                    // Only the four dense k of one 4:2 group may share their stored pair.
                    if (!is_sparse_grouped(*c.ins, op) || first.row != e.element.row || first.col / 4 != e.element.col / 4)
                        FAIL("two elements share a bit: " << first.row << "," << first.col << " and "
                                                          << e.element.row << "," << e.element.col);
                }
            }
        }
    });
    CHECK(layouts > 700);  // every operand of every instruction, each wave size
}

TEST_CASE("dense operands fill their registers exactly") {
    // Bits covered = elements x width x copies; with no overlap (checked above)
    // that makes the layout a bijection onto its slots.
    for_each_default([&](const Case& c) {
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C}) {
            ls::OperandLayout L = ls::layout_of(*c.ins, *c.target, op, c.mods);
            INFO(c.name() << " operand " << ls::operand_name(op));
            if (is_sparse_grouped(*c.ins, op)) continue;
            // (lane, bit) covered: a flat table (a std::set of every bit took minutes at the sanitizers' -O0).
            const size_t capacity = static_cast<size_t>(L.lanes()) * L.regs() * 32;
            std::vector<bool> covered(capacity, false);
            size_t covered_bits = 0;
            for (const auto& e : L.entries())
                for (int bit = e.loc.reg * 32 + e.loc.bit_lo; bit <= e.loc.reg * 32 + e.loc.bit_hi; ++bit) {
                    const size_t at = static_cast<size_t>(e.loc.lane) * L.regs() * 32 + static_cast<size_t>(bit);
                    if (e.loc.lane >= L.lanes() || bit >= L.regs() * 32) FAIL("an entry outside the operand's lanes or registers");
                    if (!covered[at]) covered[at] = true, ++covered_bits;
                }
            const bool rdna3_half = c.ins->kind == ls::LayoutKind::WmmaRdna3 && op == ls::Operand::C &&
                                    ls::elem_bits(c.ins->c) == 16;  // one half of each VGPR
            const bool rdna_unused_lanes = c.mods.wave == 64 &&
                                           ((c.ins->kind == ls::LayoutKind::WmmaRdna4 && c.ins->a == ls::ElemType::IU4 &&
                                             c.ins->k == 16 && op != ls::Operand::C));
            if (rdna3_half)
                CHECK(covered_bits * 2 == capacity);
            else if (rdna_unused_lanes)
                CHECK(covered_bits * 2 == capacity);  // lanes 32-63 unused (reference §5.2)
            else if (c.ins->kind == ls::LayoutKind::WmmaRdna3 && op != ls::Operand::C)
                CHECK(covered_bits == capacity);  // replicated copies fill every lane
            else
                CHECK(covered_bits == capacity);
        }
    });
}

TEST_CASE("register counts equal the builtin's vector types") {
    for_each_default([&](const Case& c) {
        std::string v = c.ins->vector_types(c.mods.wave);
        auto gt = v.find('>');
        std::vector<std::string> in;
        size_t start = 0;
        for (size_t i = 0; i <= gt; ++i)
            if (i == gt || v[i] == ',') {
                in.push_back(v.substr(start, i - start));
                start = i + 1;
            }
        REQUIRE(in.size() == 3);
        std::string d = v.substr(gt + 1);
        INFO(c.name() << " vectors " << v);
        int a = ls::operand_regs(*c.ins, ls::Operand::A, c.mods);
        int b = ls::operand_regs(*c.ins, ls::Operand::B, c.mods);
        if (c.ins->kind == ls::LayoutKind::MfmaScaled) {
            // The builtin always passes v8i32; FP8 uses all 8 VGPRs (default format 0).
            CHECK(a == 8);
            CHECK(b == 8);
        }
        CHECK(a == vector_regs(in[0]));
        CHECK(b == vector_regs(in[1]));
        CHECK(ls::operand_regs(*c.ins, ls::Operand::C, c.mods) == vector_regs(in[2]));
        CHECK(ls::operand_regs(*c.ins, ls::Operand::D, c.mods) == vector_regs(d));
        // The sparse index: one VGPR, but two for gfx1250's 8-bit SWMMAC (a 64-bit index, which
        // llvm-mc-22 requires as v[n:n+1]; the builtin passes only an int).
        const bool wide_index = c.ins->kind == ls::LayoutKind::SwmmacGfx1250 && ls::elem_bits(c.ins->a) == 8;
        if (c.ins->sparse()) CHECK(ls::operand_regs(*c.ins, ls::Operand::K, c.mods) == (wide_index ? 2 : 1));
    });
}

TEST_CASE("cbsz/abid: the broadcast block's lanes supply every block", "[slow]") {
    for_each_combination([&](const Case& c) {
        if (c.ins->kind != ls::LayoutKind::Mfma || c.mods.cbsz == 0) return;
        ls::ResolvedModifiers plain = c.mods;
        plain.cbsz = plain.abid = 0;
        plain.blgp = 0;
        ls::OperandLayout A = ls::layout_of(*c.ins, *c.target, ls::Operand::A, c.mods);
        ls::OperandLayout A0 = ls::layout_of(*c.ins, *c.target, ls::Operand::A, plain);
        const int group = 1 << c.mods.cbsz;
        INFO(c.name());
        for (int b = 0; b < A.blocks(); ++b) {
            const int source = group * (b / group) + c.mods.abid;  // ISA: block within each group of 2^cbsz
            for (int i = 0; i < A.rows(); ++i)
                for (int k = 0; k < A.cols(); ++k)
                    if (A.where({b, i, k}) != A0.where({source, i, k}))  // one FAIL, not an assertion per element
                        FAIL("block " << b << " A[" << i << "][" << k << "] is not where block " << source << "'s is");
        }
        // C and D do not move.
        ls::OperandLayout D = ls::layout_of(*c.ins, *c.target, ls::Operand::D, c.mods);
        ls::OperandLayout D0 = ls::layout_of(*c.ins, *c.target, ls::Operand::D, plain);
        CHECK(D.entries().size() == D0.entries().size());
    });
}

TEST_CASE("blgp: each pattern reads B from the lane group the ISA names") {
    // I4 Table 29: the lane group each lane's B value comes from, per pattern,
    // written as (lane group of 16 -> source group of 16).
    const int source_group[8][4] = {
        {0, 1, 2, 3},  // 0: no change
        {0, 1, 0, 1},  // 1: lanes 0-31 broadcast to both halves
        {2, 3, 2, 3},  // 2: lanes 32-63 broadcast
        {1, 2, 3, 0},  // 3: rotate by 16
        {0, 0, 0, 0},  // 4: lanes 0-15 to every quarter
        {1, 1, 1, 1},  // 5: lanes 16-31
        {2, 2, 2, 2},  // 6: lanes 32-47
        {3, 3, 3, 3},  // 7: lanes 48-63
    };
    size_t checked = 0;
    std::set<int> patterns;
    for_each_combination([&](const Case& c) {
        if (c.ins->kind != ls::LayoutKind::Mfma || c.mods.blgp == 0 || c.ins->a == ls::ElemType::F64 || c.mods.cbsz)
            return;
        ls::ResolvedModifiers plain = c.mods;
        plain.blgp = 0;
        ls::OperandLayout B = ls::layout_of(*c.ins, *c.target, ls::Operand::B, c.mods);
        ls::OperandLayout B0 = ls::layout_of(*c.ins, *c.target, ls::Operand::B, plain);
        INFO(c.name());
        for (const auto& e : B0.entries()) {
            auto moved = B.where(e.element);
            REQUIRE(moved.size() == 1);
            const int lane = e.loc.lane;
            REQUIRE(moved[0].lane == source_group[c.mods.blgp][lane / 16] * 16 + lane % 16);
            REQUIRE(moved[0].reg == e.loc.reg);
            REQUIRE(moved[0].bit_lo == e.loc.bit_lo);
        }
        ++checked;
        patterns.insert(c.mods.blgp);
    });
    // Every pattern 1-7 was checked, on many instructions (fewer when sampled).
    CHECK(patterns.size() == 7);
    CHECK(checked > 100 / kCombinationStride);
}

TEST_CASE("f64 blgp is negation and moves no data") {
    const auto& cat = ls::Catalog::builtin();
    const auto& t = cat.find_target("gfx942");
    const auto& ins = cat.find_instruction(t, "v_mfma_f64_16x16x4_f64");
    for (int blgp = 0; blgp < 8; ++blgp) {
        ls::Modifiers m;
        m.blgp = blgp;
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::C}) {
            auto L = ls::layout_of(ins, t, op, m);
            auto L0 = ls::layout_of(ins, t, op, ls::Modifiers{});
            auto e = L.entries(), e0 = L0.entries();
            REQUIRE(e.size() == e0.size());
            for (size_t n = 0; n < e.size(); ++n) REQUIRE(e[n].loc == e0[n].loc);
        }
    }
    // CDNA2 f64 has no BLGP at all.
    const auto& t2 = cat.find_target("gfx90a");
    ls::Modifiers m;
    m.blgp = 1;
    CHECK_THROWS_AS(ls::resolve_modifiers(cat.find_instruction(t2, "v_mfma_f64_16x16x4f64"), t2, m), ls::Error);
}
