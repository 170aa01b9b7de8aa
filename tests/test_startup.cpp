// What the start-up work (docs/cli.md, start-up) made lazy or narrower answers as
// the whole computation does: a layout of one element or one slot equals that part
// of the whole layout; a shared-memory operand spans exactly the lines its slots
// reach (lanes = highest slot line + 1, computed from the extents without placing
// every element).
#include "lanescope/lanescope.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace ls = lanescope;

namespace {
struct Query {
    const char* arch;
    const char* name;
    ls::Operand op;
    ls::Modifiers mods;
};

ls::Modifiers smem(int major, int swizzle) {
    ls::Modifiers m;
    m.smem_major = major;
    m.swizzle = swizzle;
    return m;
}
}  // namespace

TEST_CASE("start-up: a layout of some elements, or of one slot, is that part of the whole layout", "[tcgen05]") {
    const auto& cat = ls::Catalog::builtin();
    ls::Modifiers load;
    load.tmem_load = 4;  // 16x256b
    const std::vector<Query> queries = {
        {"sm_100a", "tcgen05_mma_m256n256k16_f16_f16_2cta", ls::Operand::D, {}},
        {"sm_100a", "tcgen05_mma_ws_m32n256k16_f16_f16", ls::Operand::D, {}},
        {"sm_100a", "tcgen05_mma_m64n128k16_f16_f16", ls::Operand::D, {}},
        {"sm_100a", "tcgen05_mma_m128n256k16_f16_f16", ls::Operand::D, load},
        {"sm_100a", "tcgen05_ld_16x256b_x8", ls::Operand::D, {}},
        {"sm_100a", "tcgen05_ld_16x32bx2_x4", ls::Operand::D, {}},
        {"sm_90a", "wgmma_m64n128k16_f32_f16", ls::Operand::B, {}},
        {"gfx942", "v_mfma_f32_32x32x1_2b_f32", ls::Operand::D, {}},
    };
    for (const Query& q : queries) {
        INFO(q.name);
        const ls::Target& t = cat.find_target(q.arch);
        const ls::Instruction& ins = cat.find_instruction(t, q.name);
        const ls::ResolvedModifiers r = ls::resolve_modifiers(ins, t, q.mods);
        const ls::OperandLayout whole = ls::layout_of(ins, t, q.op, r);
        std::vector<ls::Element> some;
        for (int b = 0; b < whole.blocks(); ++b)
            for (int i = 0; i < 7; ++i) some.push_back({b, (i * 37) % whole.rows(), (i * 53 + b) % whole.cols()});
        const ls::OperandLayout part = ls::layout_of_elements(ins, t, q.op, r, some);
        for (const ls::Element& e : some) CHECK(part.where(e) == whole.where(e));
        for (int i = 0; i < 9; ++i) {
            const int lane = (i * 29) % whole.lanes(), reg = (i * 11) % whole.regs();
            const ls::OperandLayout slot = ls::layout_of_slot(ins, t, q.op, r, reg, lane);
            const auto a = slot.which(reg, lane), b = whole.which(reg, lane);
            REQUIRE(a.size() == b.size());
            for (size_t n = 0; n < a.size(); ++n) {
                CHECK(a[n].element == b[n].element);
                CHECK(a[n].bit_lo == b[n].bit_lo);
                CHECK(a[n].bit_hi == b[n].bit_hi);
            }
        }
    }
}

TEST_CASE("start-up: a shared-memory operand spans the lines its slots reach", "[smem]") {
    const auto& cat = ls::Catalog::builtin();
    const std::vector<Query> queries = {
        {"sm_90a", "wgmma_m64n256k16_f32_f16", ls::Operand::B, smem(0, 3)},
        {"sm_90a", "wgmma_m64n256k16_f32_f16", ls::Operand::B, smem(1, 1)},
        {"sm_90a", "wgmma_m64n64k16_f32_f16", ls::Operand::B, smem(0, 0)},
        {"sm_90a", "wgmma_m64n64k16_f32_f16", ls::Operand::B, smem(1, 0)},
        {"sm_100a", "tcgen05_mma_m128n256k16_f16_f16", ls::Operand::A, smem(0, 2)},
        {"sm_100a", "tcgen05_mma_m128n64k8_f32_tf32", ls::Operand::B, smem(1, 4)},
        {"sm_100a", "tcgen05_mma_m128n128k32_f32_e4m3", ls::Operand::B, smem(0, 1)},
    };
    for (const Query& q : queries) {
        INFO(q.name << " major " << q.mods.smem_major << " swizzle " << q.mods.swizzle);
        const ls::Target& t = cat.find_target(q.arch);
        const ls::Instruction& ins = cat.find_instruction(t, q.name);
        ls::ResolvedModifiers r;
        try {
            r = ls::resolve_modifiers(ins, t, q.mods);
        } catch (const ls::Error& e) {
            FAIL(e.what());
        }
        const ls::OperandLayout l = ls::layout_of(ins, t, q.op, r);
        REQUIRE(l.space() == ls::Space::SharedMemory);
        int top = -1;
        for (const ls::Entry& e : l.entries()) top = std::max(top, e.loc.lane);
        CHECK(l.lanes() == top + 1);
    }
}
