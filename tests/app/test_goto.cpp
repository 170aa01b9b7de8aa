// The go-to box and --pin (model/goto.hpp): the forms users type, strictly.
#include "model/goto.hpp"
#include "model/notes.hpp"

#include <catch2/catch.hpp>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet selection(const char* arch, const char* ins, int wave = -1) {
    Selection s{arch, ins, {}};
    s.mods.wave = wave;
    return resolve_selection(ls::Catalog::builtin(), s);
}
}  // namespace

TEST_CASE("go to: elements in every spelling") {
    const LayoutSet set = selection("gfx942", "v_mfma_f32_32x32x8_f16");
    for (const char* text : {"A 3 7", "A,3,7", "a[3][7]", "A[3] [7]", " A 3 7 "}) {
        INFO(text);
        const Hover h = parse_place(text, set, nullptr);
        CHECK(h.kind == Hover::Kind::Element);
        CHECK(h.operand == ls::Operand::A);
        CHECK(h.element == ls::Element{0, 3, 7});
    }
    const Hover d = parse_place("D[13][7]", set, nullptr);
    CHECK(d.operand == ls::Operand::D);
    CHECK(d.element == ls::Element{0, 13, 7});
    // Outside the operand (A is 32x8): refused with the range.
    CHECK_THROWS_WITH(parse_place("A 3 8", set, nullptr), Catch::Contains("col"));
    CHECK_THROWS(parse_place("A 32 0", set, nullptr));
    CHECK_THROWS(parse_place("A 3", set, nullptr));
    CHECK_THROWS(parse_place("A 3 4 5 6 7", set, nullptr));
    CHECK_THROWS(parse_place("K 0 0", set, nullptr));  // not sparse: no K
    CHECK_THROWS(parse_place("Q 1 2", set, nullptr));
    CHECK_THROWS(parse_place("", set, nullptr));
    CHECK_THROWS(parse_place("A -1 2", set, nullptr));
}

TEST_CASE("go to: blocks of a multi-block instruction") {
    const LayoutSet set = selection("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    CHECK(parse_place("B 2 3 b15", set, nullptr).element == ls::Element{15, 2, 3});
    CHECK(parse_place("B,2,3,15", set, nullptr).element == ls::Element{15, 2, 3});
    CHECK(parse_place("B 2 3 block 4", set, nullptr).element == ls::Element{4, 2, 3});
    CHECK_THROWS(parse_place("B 2 3 b16", set, nullptr));  // 16 blocks: 0..15
}

TEST_CASE("go to: lanes and threads") {
    const LayoutSet set = selection("gfx1100", "v_wmma_f32_16x16x16_f16", 64);
    for (const char* text : {"lane 17", "lane,17", "L17", "l17", "T17", "thread 17"}) {
        INFO(text);
        const Hover h = parse_place(text, set, nullptr);
        CHECK(h.kind == Hover::Kind::Lane);
        CHECK(h.lane == 17);
        CHECK(h.wave == -1);
    }
    CHECK(parse_place("lane 63", set, nullptr).lane == 63);
    CHECK_THROWS(parse_place("lane 64", set, nullptr));    // wave64: lanes 0..63
    CHECK_THROWS(parse_place("lane 3 wave 1", set, nullptr));  // no waves outside tile mode
    CHECK_THROWS(parse_place("lane", set, nullptr));
    const LayoutSet w32 = selection("gfx1100", "v_wmma_f32_16x16x16_f16", 32);
    CHECK_THROWS(parse_place("L40", w32, nullptr));
}

TEST_CASE("go to: tile mode takes the tile's coordinates and a wave") {
    const LayoutSet set = selection("gfx942", "v_mfma_f32_32x32x8_f16");
    const TileSet tile = resolve_tile(set, ls::parse_tile_params("2x2", "2x2", "256x256x64"));
    const Hover e = parse_place("D 200 100", set, &tile);
    CHECK(e.kind == Hover::Kind::Element);
    CHECK(e.element == ls::Element{0, 200, 100});
    CHECK(e.wave >= 0);
    CHECK_THROWS(parse_place("D 256 0", set, &tile));
    const Hover l = parse_place("lane 17 wave 3", set, &tile);
    CHECK(l.lane == 17);
    CHECK(l.wave == 3);
    CHECK(parse_place("lane,17,2", set, &tile).wave == 2);
    CHECK(parse_place("w1 L5", set, &tile).wave == 1);
    CHECK_THROWS(parse_place("lane 17 wave 4", set, &tile));  // 2x2 waves: 0..3
}

TEST_CASE("go to: the status bar names the pinned place and where it lives (core's cell label)") {
    const LayoutSet set = selection("gfx942", "v_mfma_f32_32x32x8_f16");
    const Hover h = parse_place("A 3 5", set, nullptr);
    CHECK(place_text(h, set) == "A[3][5]");
    // 32x32x8 f16: A[i][k] in lane i + 32*(k/4), register k%4/2, bits 16*(k%2) (CDNA3 ISA, MFMA operand layout).
    const std::string where = place_location(h, set, nullptr);
    CHECK(where.find("L35") != std::string::npos);
    CHECK(where.find("v0") != std::string::npos);
    CHECK(where.find("31:16") != std::string::npos);
}

TEST_CASE("notes: why lanes repeat (RDNA3 wave64) and which lanes compute which block (4x4x4, 16 blocks)") {
    const LayoutSet rdna3 = selection("gfx1100", "v_wmma_f32_16x16x16_f16", 64);
    // RDNA3 ISA (WMMA): A and B are replicated in lanes 16-31 (and, in wave64, 32-63).
    const ls::OperandLayout* a = rdna3.find(ls::Operand::A);
    REQUIRE(a);
    const Replication r = replication_of(*a);
    CHECK(r.copies == 4);
    CHECK(r.step == 16);
    const auto notes = picture_notes(rdna3);
    REQUIRE(!notes.empty());
    CHECK(notes.front().find("A and B") != std::string::npos);
    CHECK(notes.front().find("lanes 32\u201363 repeat lanes 0\u201331") != std::string::npos);
    CHECK(replication_of(*rdna3.find(ls::Operand::D)).copies == 0);  // D is not replicated
    // CDNA3 ISA: the 16-block 4x4x4 MFMA computes block b in lanes 4b..4b+3.
    const LayoutSet b16 = selection("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    for (ls::Operand op : {ls::Operand::A, ls::Operand::B, ls::Operand::D}) {
        const BlockLanes bl = block_lanes(*b16.find(op));
        CHECK(bl.lanes == 4);
        CHECK(bl.first == 0);
    }
    const auto bn = picture_notes(b16);
    REQUIRE(bn.size() == 1);
    CHECK(bn[0].find("b15: 60\u201363") != std::string::npos);
    CHECK(picture_notes(selection("gfx942", "v_mfma_f32_32x32x8_f16")).empty());  // nothing the picture does not say
}
