// "Verify on GPU" overlay from plain report facts (no GPU backend needed).
#include "model/verify_overlay.hpp"

#include <catch2/catch.hpp>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins, ls::Modifiers m = {}) {
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}
size_t cells(const ls::OperandLayout& l) { return static_cast<size_t>(l.blocks()) * l.rows() * l.cols(); }
}  // namespace

TEST_CASE("verify overlay: every cell of a checked operand is verified, C is drawn as D") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    VerifyFacts f;
    f.passed = true;
    f.checked = ls::operands_of(*set.ins);
    const VerifyOverlay o = make_verify_overlay(set, f);
    CHECK(o.find(ls::Operand::C) == o.find(ls::Operand::D));
    size_t expect = 0;
    for (const auto& l : set.layouts) {
        if (l.operand() == ls::Operand::C) continue;
        expect += cells(l);
        const OperandVerify* v = o.find(l.operand());
        REQUIRE(v);
        REQUIRE(v->cells.size() == cells(l));
        for (CellState c : v->cells) CHECK(c == CellState::Verified);
    }
    CHECK(o.verified == static_cast<int>(expect));
    CHECK(o.wrong == 0);
    CHECK(verify_status(f, o) == "verified: " + std::to_string(expect) + " cells PASS");
}

TEST_CASE("verify overlay: issues mark exactly their cells wrong, with the note") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    VerifyFacts f;
    f.passed = false;
    f.mismatch_count = 7;
    f.checked = ls::operands_of(*set.ins);
    f.issues.push_back({ls::Operand::A, {0, 1, 2}, "the device used A(2,1)"});
    f.issues.push_back({ls::Operand::A, {0, 1, 2}, "second note"});
    f.issues.push_back({ls::Operand::C, {0, 5, 6}, "C went elsewhere"});
    f.issues.push_back({ls::Operand::B, {0, 999, 0}, "outside the operand: ignored"});
    const VerifyOverlay o = make_verify_overlay(set, f);
    const OperandVerify& A = *o.find(ls::Operand::A);
    const OperandVerify& D = *o.find(ls::Operand::D);
    CHECK(A.at({0, 1, 2}) == CellState::Wrong);
    CHECK(A.at({0, 2, 1}) == CellState::Verified);
    REQUIRE(A.note({0, 1, 2}));
    CHECK(*A.note({0, 1, 2}) == "the device used A(2,1)\nsecond note");
    CHECK(A.note({0, 0, 0}) == nullptr);
    CHECK(D.at({0, 5, 6}) == CellState::Wrong);
    REQUIRE(D.note({0, 5, 6}));
    CHECK(*D.note({0, 5, 6}) == "C: C went elsewhere");
    CHECK(o.wrong == 2);
    for (CellState c : o.find(ls::Operand::B)->cells) CHECK(c == CellState::Verified);
    CHECK(verify_status(f, o).rfind("FAIL: 7 mismatches", 0) == 0);
}

TEST_CASE("verify overlay: operands the report did not check stay unchecked") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    VerifyFacts f;
    f.checked = {ls::Operand::A, ls::Operand::D};  // C missing: D's cells (which are C's too) are not verified
    const VerifyOverlay o = make_verify_overlay(set, f);
    for (CellState c : o.find(ls::Operand::A)->cells) CHECK(c == CellState::Verified);
    for (CellState c : o.find(ls::Operand::B)->cells) CHECK(c == CellState::Unchecked);
    for (CellState c : o.find(ls::Operand::D)->cells) CHECK(c == CellState::Unchecked);
    CHECK(o.find(ls::Operand::A)->at({0, -1, 0}) == CellState::Unchecked);
}

TEST_CASE("verify overlay: its colours are not tile colours") {
    for (ls::Theme t : {ls::Theme::Light, ls::Theme::Dark})
        for (int i = 0; i < ls::categorical_count(); ++i) {
            CHECK(!(ls::categorical(i, t) == verify_ok_colour));
            CHECK(!(ls::categorical(i, t) == verify_wrong_colour));
        }
}
