// The app's model with NVIDIA targets: search words, selection, values, snippet.
#include "lanescope/palette.hpp"
#include "model/search.hpp"
#include "model/selection.hpp"
#include "model/snippet.hpp"
#include "model/values.hpp"

#include <catch2/catch.hpp>

namespace ls = lanescope;

namespace {
const ls::Target& target(const char* name) { return ls::Catalog::builtin().find_target(name); }
}  // namespace

TEST_CASE("search on NVIDIA: 'm16n8k16 bf16', 'wgmma 128', 'sparse', 'ldmatrix trans', PTX type words") {
    const auto& cat = ls::Catalog::builtin();
    auto hits = lsapp::search(cat, target("sm_90"), "m16n8k16 bf16");
    REQUIRE_FALSE(hits.empty());
    for (const auto& h : hits) {
        CHECK(h.ins->shape() == "16x8x16");
        CHECK(h.ins->a == ls::ElemType::BF16);
    }
    hits = lsapp::search(cat, target("h100"), "wgmma 128");
    REQUIRE_FALSE(hits.empty());
    CHECK(hits.front().ins->n == 128);
    for (const auto& h : hits) CHECK(h.ins->kind == ls::LayoutKind::Wgmma);
    hits = lsapp::search(cat, target("sm_80"), "sparse");
    CHECK(hits.size() == 4);
    hits = lsapp::search(cat, target("sm_90"), "ldmatrix trans");
    CHECK(hits.size() == 3);
    // tf32, e4m3 and s8 are normalised to lanescope's words (xf32, fp8, i8) and still match.
    hits = lsapp::search(cat, target("sm_90"), "mma tf32");
    REQUIRE_FALSE(hits.empty());
    for (const auto& h : hits) CHECK(h.ins->a == ls::ElemType::TF32);
    hits = lsapp::search(cat, target("sm_89"), "e4m3");
    REQUIRE(hits.size() == 4);
    hits = lsapp::search(cat, target("sm_89"), "s8");
    for (const auto& h : hits) CHECK(h.ins->a == ls::ElemType::S8);
    // Family filter.
    hits = lsapp::search(cat, target("sm_90"), "", ls::LayoutKind::LdStMatrix);
    CHECK(hits.size() == 12);
}

TEST_CASE("selection: every NVIDIA instruction resolves, with its lanes, switching vendors carries nothing odd") {
    const auto& cat = ls::Catalog::builtin();
    for (const char* arch : {"sm_80", "sm_89", "sm_90"})
        for (const ls::Instruction* ins : cat.on(target(arch).family)) {
            INFO(arch << " " << ins->mnemonic);
            const lsapp::LayoutSet set = lsapp::resolve_selection(cat, {arch, ins->mnemonic, {}});
            CHECK(set.mods.wave == (ins->kind == ls::LayoutKind::Wgmma ? 128 : 32));
            CHECK(set.layouts.size() == ls::operands_of(*ins).size());
        }
    // AMD -> NVIDIA: nothing alike, so the target's first instruction; NVIDIA -> AMD likewise.
    const ls::Instruction& mfma = cat.find_instruction(target("gfx942"), "v_mfma_f32_16x16x16_f16");
    CHECK(lsapp::carry_instruction(cat, mfma, target("sm_90")) == cat.on(ls::Family::Hopper).front()->mnemonic);
    const ls::Instruction& mma = cat.find_instruction(target("sm_90"), "mma_m16n8k16_f32_f16");
    CHECK(lsapp::carry_instruction(cat, mma, target("gfx942")) == cat.on(ls::Family::CDNA3).front()->mnemonic);
    // Same instruction on another NVIDIA family keeps it.
    CHECK(lsapp::carry_instruction(cat, mma, target("sm_80")) == mma.mnemonic);
    // An illegal selector is dropped, not fatal.
    ls::Modifiers m;
    m.selector = 3;
    const lsapp::LayoutSet sp = lsapp::resolve_selection(cat, {"sm_90", "mma_sp_m16n8k32_f32_f16", m});
    CHECK(sp.mods.selector == 0);
}

TEST_CASE("values and snippet on NVIDIA instructions") {
    const auto& cat = ls::Catalog::builtin();
    for (const char* name : {"mma_m16n8k16_f32_bf16", "mma_m16n8k8_f32_tf32", "mma_m16n8k32_f16_e4m3", "mma_m16n8k64_s32_s4",
                             "mma_sp_m16n8k16_f32_f16", "wgmma_m64n32k32_s32_s8"}) {
        INFO(name);
        const lsapp::LayoutSet set = lsapp::resolve_selection(cat, {"sm_90", name, {}});
        const std::string code = lsapp::hip_snippet(set);
        CHECK(code.find("PTX: ") != std::string::npos);
        CHECK(code.find("__builtin_amdgcn") == std::string::npos);
    }
    // tf32 values are rounded to 10 mantissa bits and sit in a register as f32 bits.
    CHECK(lsapp::quantize(1.0 + 1.0 / 4096, ls::ElemType::TF32, lsapp::Fp8Flavor::Ocp) == 1.0);
    CHECK(lsapp::encode(1.0, ls::ElemType::TF32, lsapp::Fp8Flavor::Ocp) == 0x3F800000u);
    CHECK(lsapp::quantize(300, ls::ElemType::U8, lsapp::Fp8Flavor::Ocp) == 255);
    CHECK(lsapp::quantize(1000, ls::ElemType::E4M3, lsapp::Fp8Flavor::Ocp) == 448);
}

// PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type": a thread's
// A fragment is a0..a7 (two .f16 per .f16x2 register), row groupID (a0,a1,a4,a5) or
// groupID + 8 (a2,a3,a6,a7), column threadID_in_group * 2 + (i & 1), + 8 for a4..a7;
// C/D is c0..c3 (f32), row groupID (c0,c1) or groupID + 8 (c2,c3).
TEST_CASE("NVIDIA labels: PTX fragment names and threads, groupID colours") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    lsapp::Selection sel{"sm_80", "mma_m16n8k16_f32_f16", {}};
    const lsapp::LayoutSet set = lsapp::resolve_selection(cat, sel);
    const ls::Instruction& ins = *set.ins;
    CHECK(lsapp::display_name(ins) == "mma_m16n8k16_f32_f16");
    const ls::OperandLayout& A = *set.find(ls::Operand::A);
    auto label = [&](const ls::OperandLayout& l, ls::Element e) {
        const auto locs = l.where(e);
        REQUIRE(locs.size() == 1u);
        return ls::cell_label_text(ins, l.operand(), locs.front(), l.element_bits());
    };
    CHECK(label(A, {0, 0, 1}) == "a1 \u00B7 T0");
    CHECK(label(A, {0, 8, 9}) == "a7 \u00B7 T0");
    CHECK(label(A, {0, 8, 2}) == "a2 \u00B7 T1");
    CHECK(label(A, {0, 5, 15}) == "a5 \u00B7 T23");  // groupID 5, threadID_in_group 3, column 8 + 6 + 1
    const ls::OperandLayout& D = *set.find(ls::Operand::D);
    CHECK(label(D, {0, 8, 1}) == "d3 \u00B7 T0");
    CHECK(label(D, {0, 0, 6}) == "d0 \u00B7 T3");
    // Colours by groupID (8 per warp), shades by threadID_in_group.
    CHECK(ls::lane_groups(ins, 32) == 8);
    CHECK(ls::lane_group(ins, 23) == 5);
    CHECK(ls::lane_shade(ins, 23) == 3);
    CHECK(ls::lane_group_text(ins, 5) == "groupID 5 (T20\u201323)");
    // wgmma: a hue per warp of the warpgroup.
    lsapp::Selection wg{"sm_90a", "wgmma_m64n256k16_f32_f16", {}};
    const lsapp::LayoutSet wset = lsapp::resolve_selection(cat, wg);
    CHECK(lsapp::display_name(*wset.ins) == "wgmma_m64n256k16_f32_f16");
    CHECK(ls::lane_groups(*wset.ins, 128) == 4);
    CHECK(ls::lane_group_text(*wset.ins, 1) == "warp 1 (T32\u201363)");
}

TEST_CASE("AMD list names: the _tied rows say so, and select themselves") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx1100");
    int tied = 0;
    for (const ls::Instruction* ins : cat.on(t.family)) {
        if (ins->builtin_pattern.find("_tied") == std::string::npos) continue;
        ++tied;
        CHECK(lsapp::display_name(*ins) == ins->mnemonic + " (tied)");
        CHECK(&cat.find_instruction(t, lsapp::selection_name(*ins)) == ins);
        CHECK(!lsapp::name_note(*ins).empty());
    }
    CHECK(tied >= 2);
}

TEST_CASE("modifier rows: scaled MFMA formats and scale bytes in words") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Instruction& ins = cat.find_instruction(cat.find_target("gfx950"), "v_mfma_scale_f32_16x16x128_f8f6f4");
    CHECK(lsapp::modifier_value_name(ins, "cbsz", 0) == "FP8 E4M3");
    CHECK(lsapp::modifier_value_name(ins, "cbsz", 4) == "FP4 E2M1");
    CHECK(lsapp::modifier_value_name(ins, "blgp", 2) == "FP6 E2M3");
    CHECK(lsapp::modifier_value_name(ins, "opsel_a", 1) == "[15:8]");
    CHECK(lsapp::modifier_role(ins, "cbsz") == "A format");
    CHECK(lsapp::modifier_role(ins, "opsel_b") == "SB byte");
}
