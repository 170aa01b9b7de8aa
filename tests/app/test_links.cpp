#include "model/links.hpp"

#include <catch2/catch.hpp>

#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins, ls::Modifiers m = {}) {
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}
size_t slot(const ls::OperandLayout& l, const ls::Location& loc) { return static_cast<size_t>(loc.lane) * l.regs() + loc.reg; }
}  // namespace

TEST_CASE("links: hovering a D element marks exactly its locations, the A row and the B column") {
    for (const char* ins : {"v_mfma_f32_32x32x8_f16", "v_mfma_f32_4x4x4_16b_f16"}) {
        const LayoutSet set = make("gfx942", ins);
        const ls::OperandLayout& D = *set.find(ls::Operand::D);
        const ls::Element e{D.blocks() - 1, 3, 2};
        Hover h;
        h.kind = Hover::Kind::Element;
        h.operand = ls::Operand::D;
        h.element = e;
        const Links links = compute_links(set, h);
        const OperandHighlight& hd = *links.find(ls::Operand::D);
        std::set<size_t> expect_slots;
        for (const auto& loc : D.where(e)) expect_slots.insert(slot(D, loc));
        for (size_t s = 0; s < hd.slots.size(); ++s) CHECK((hd.slots[s] == 2) == (expect_slots.count(s) == 1));
        for (size_t i = 0; i < hd.elements.size(); ++i)
            CHECK((hd.elements[i] != 0) == (static_cast<int>(i) == element_index(D, e)));
        const ls::OperandLayout& A = *set.find(ls::Operand::A);
        const OperandHighlight& ha = *links.find(ls::Operand::A);
        for (int b = 0; b < A.blocks(); ++b)
            for (int r = 0; r < A.rows(); ++r)
                for (int c = 0; c < A.cols(); ++c)
                    CHECK((ha.elements[static_cast<size_t>(element_index(A, {b, r, c}))] == 1) == (b == e.block && r == e.row));
        const ls::OperandLayout& B = *set.find(ls::Operand::B);
        const OperandHighlight& hb = *links.find(ls::Operand::B);
        for (int b = 0; b < B.blocks(); ++b)
            for (int r = 0; r < B.rows(); ++r)
                for (int c = 0; c < B.cols(); ++c)
                    CHECK((hb.elements[static_cast<size_t>(element_index(B, {b, r, c}))] == 1) == (b == e.block && c == e.col));
    }
}

TEST_CASE("links: hovering a lane marks everything that lane holds, in every operand") {
    const LayoutSet set = make("gfx1100", "v_wmma_f32_16x16x16_f16", [] { ls::Modifiers m; m.wave = 64; return m; }());
    const int lane = 37;
    Hover h;
    h.kind = Hover::Kind::Lane;
    h.lane = lane;
    const Links links = compute_links(set, h);
    for (const ls::OperandLayout& l : set.layouts) {
        const OperandHighlight& hl = *links.find(l.operand());
        std::set<int> expect;
        for (const ls::Entry& en : l.entries())
            if (en.loc.lane == lane) expect.insert(element_index(l, en.element));
        for (size_t i = 0; i < hl.elements.size(); ++i)
            CHECK((hl.elements[i] != 0) == (expect.count(static_cast<int>(i)) == 1));
        for (int lane2 = 0; lane2 < l.lanes(); ++lane2)
            for (int reg = 0; reg < l.regs(); ++reg)
                CHECK((hl.slots[static_cast<size_t>(lane2) * l.regs() + reg] != 0) == (lane2 == lane));
    }
}

TEST_CASE("links: hovering an A element marks its locations and the D row it feeds") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");
    const ls::OperandLayout& A = *set.find(ls::Operand::A);
    Hover h;
    h.kind = Hover::Kind::Element;
    h.operand = ls::Operand::A;
    h.element = {0, 5, 7};
    const Links links = compute_links(set, h);
    const OperandHighlight& ha = *links.find(ls::Operand::A);
    int marked_slots = 0;
    for (auto s : ha.slots) marked_slots += s != 0;
    CHECK(marked_slots == static_cast<int>(A.where(h.element).size()));
    const ls::OperandLayout& D = *set.find(ls::Operand::D);
    const OperandHighlight& hd = *links.find(ls::Operand::D);
    int marked = 0;
    for (auto s : hd.elements) marked += s != 0;
    CHECK(marked == D.cols());
    CHECK(hd.elements[static_cast<size_t>(element_index(D, {0, 5, 0}))] == 1);
    CHECK_FALSE(describe_element(set, ls::Operand::A, h.element).empty());
}

TEST_CASE("links: no hover, no highlight") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_32x32x8_f16");
    const Links links = compute_links(set, Hover{});
    for (const auto& h : links.operands) {
        for (auto v : h.elements) CHECK(v == 0);
        for (auto v : h.slots) CHECK(v == 0);
    }
}
