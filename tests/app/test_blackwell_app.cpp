// The app's model on Blackwell: D read back by a tcgen05.ld beside D in Tensor Memory, linked
// element by element; compare across spaces; the list's short names. Expectations: PTX ISA
// §9.7.16.10.5 (Layout D, M = 128: TMEM lane = m, column = n) and Triton 3.6's
// get_tmem_reg_layout for 32x32b with 4 warps (lane bases m = 1..16, warp bases m = 32, 64,
// register bases n: thread = m, register = n), both independent of the app.
#include "model/links.hpp"
#include "model/selection.hpp"
#include "model/values.hpp"

#include <catch2/catch.hpp>

namespace ls = lanescope;

namespace {
lsapp::LayoutSet select_d(int tmem_load) {
    lsapp::Selection s{"sm_100a", "tcgen05_mma_m128n64k16_f32_f16", {}};
    s.mods.tmem_load = tmem_load;
    return lsapp::resolve_selection(ls::Catalog::builtin(), s);
}
}  // namespace

TEST_CASE("Blackwell app: --tmem-load shows D's registers and keeps D in Tensor Memory beside them") {
    const lsapp::LayoutSet plain = select_d(0);
    CHECK_FALSE(plain.tmem_d);
    CHECK(plain.find(ls::Operand::D)->space() == ls::Space::TensorMemory);
    const lsapp::LayoutSet set = select_d(1);  // 32x32b, 4 warps
    REQUIRE(set.tmem_d);
    CHECK(set.find(ls::Operand::D)->space() == ls::Space::Registers);
    CHECK(set.find(ls::Operand::D)->lanes() == 128);  // 4 warps' threads
    CHECK(set.tmem_d->space() == ls::Space::TensorMemory);
    CHECK(set.tmem_d->lanes() == 128);

    // Hovering D[37][5]: thread 37 register 5 (Triton 32x32b) and TMEM lane 37 column 5 (Layout D).
    lsapp::Hover h;
    h.kind = lsapp::Hover::Kind::Element;
    h.operand = ls::Operand::D;
    h.element = {0, 37, 5};
    const lsapp::Links links = lsapp::compute_links(set, h);
    const lsapp::OperandHighlight* regs = links.find(ls::Operand::D);
    REQUIRE(regs);
    const int regs_per_thread = set.find(ls::Operand::D)->regs();
    CHECK(regs->slots[static_cast<size_t>(37 * regs_per_thread + 5)] == 2);
    CHECK(links.tmem_d.slots[static_cast<size_t>(37 * set.tmem_d->regs() + 5)] == 2);
    CHECK(links.tmem_d.marked_slots.size() == 1);
    // A row of A marks D's row 37 in both places: 64 TMEM cells of lane 37.
    h.operand = ls::Operand::A;
    h.element = {0, 37, 3};
    const lsapp::Links row = lsapp::compute_links(set, h);
    int in_lane_37 = 0;
    for (int s : row.tmem_d.marked_slots) in_lane_37 += s / set.tmem_d->regs() == 37;
    CHECK(in_lane_37 == 64);
    CHECK(static_cast<int>(row.tmem_d.marked_slots.size()) == 64);
    // The thread's text names its warp and where tcgen05.ld read the element from.
    const std::string text = lsapp::describe_element(set, ls::Operand::D, {0, 37, 5});
    CAPTURE(text);
    CHECK(text.find("warp 1, lane 5 of that warp") != std::string::npos);
    CHECK(text.find("Tensor Memory lane 37, column 5") != std::string::npos);
    CHECK(text.find("not confirmed on hardware") != std::string::npos);
}

TEST_CASE("Blackwell app: compare wgmma (registers) with tcgen05 (Tensor Memory) says so instead of counting cells") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const lsapp::LayoutSet wg = lsapp::resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", {}});
    const lsapp::LayoutSet tc = lsapp::resolve_selection(cat, {"sm_100a", "tcgen05_mma_m64n128k16_f32_f16", {}});
    const lsapp::LayoutDiff d = lsapp::diff_layouts(*wg.find(ls::Operand::D), *tc.find(ls::Operand::D));
    CHECK_FALSE(d.comparable);
    CHECK(d.note.find("registers vs in Tensor Memory") != std::string::npos);
    // Both B operands are in shared memory: compared cell by cell.
    CHECK(lsapp::diff_layouts(*wg.find(ls::Operand::B), *tc.find(ls::Operand::B)).comparable);
}

TEST_CASE("Blackwell app: a list row selects itself by its short name (the PTX spelling names only the row's first)") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    for (const char* name : {"tcgen05_mma_m128n256k16_f32_f16_ts", "tcgen05_mma_m256n256k16_f32_f16_2cta"}) {
        const lsapp::LayoutSet set = lsapp::resolve_selection(cat, {"sm_100a", name, {}});
        CHECK(lsapp::selection_name(*set.ins) == name);
    }
    // Rows before Blackwell keep their PTX spelling.
    const lsapp::LayoutSet wg = lsapp::resolve_selection(cat, {"sm_90a", "wgmma_m64n128k16_f32_f16", {}});
    CHECK(lsapp::selection_name(*wg.ins) == wg.ins->mnemonic);
}
