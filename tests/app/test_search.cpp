#include "model/search.hpp"

#include <catch2/catch.hpp>

namespace ls = lanescope;
using lsapp::search;

namespace {
const ls::Target& gfx(const char* name) { return ls::Catalog::builtin().find_target(name); }
}  // namespace

TEST_CASE("search: shape and type words rank the matching instructions first") {
    const auto& cat = ls::Catalog::builtin();
    const auto hits = search(cat, gfx("gfx942"), "32x32 bf16");
    REQUIRE_FALSE(hits.empty());
    for (const auto& h : hits) {
        CHECK(h.ins->m == 32);
        CHECK(h.ins->n == 32);
        CHECK((h.ins->a == ls::ElemType::BF16 || h.ins->mnemonic.find("bf16") != std::string::npos));
    }
    // Exact-word matches outrank the rest: the first hit is a dense bf16 32x32 MFMA.
    CHECK(hits.front().ins->a == ls::ElemType::BF16);
}

TEST_CASE("search: 'sparse fp8' finds only sparse instructions with FP8 inputs") {
    const auto& cat = ls::Catalog::builtin();
    const auto hits = search(cat, gfx("gfx942"), "sparse fp8");
    REQUIRE_FALSE(hits.empty());
    for (const auto& h : hits) {
        CHECK(h.ins->sparse());
        CHECK((h.ins->a == ls::ElemType::FP8 || h.ins->b == ls::ElemType::FP8));
    }
}

TEST_CASE("search: mnemonic and builtin substrings - prefix beats substring") {
    const auto& cat = ls::Catalog::builtin();
    auto hits = search(cat, gfx("gfx942"), "v_mfma_f32_32x32x8_f16");
    REQUIRE_FALSE(hits.empty());
    CHECK(hits.front().ins->mnemonic == "v_mfma_f32_32x32x8_f16");
    hits = search(cat, gfx("gfx942"), "mfma_f32_32x32x8f16");  // the builtin's spelling
    REQUIRE_FALSE(hits.empty());
    CHECK(hits.front().ins->builtin_pattern == "mfma_f32_32x32x8f16");
}

TEST_CASE("search: empty query lists the architecture - nonsense lists nothing - kinds filter") {
    const auto& cat = ls::Catalog::builtin();
    const auto& t = gfx("gfx1100");
    CHECK(search(cat, t, "").size() == cat.on(t.family).size());
    CHECK(search(cat, t, "mfma").empty());  // no MFMA on RDNA3
    CHECK(search(cat, gfx("gfx942"), "zzzz").empty());
    for (const auto& h : search(cat, gfx("gfx942"), "", ls::LayoutKind::SmfmacCdna3)) CHECK(h.ins->sparse());
}

TEST_CASE("search: spelling variants of types") {
    CHECK(lsapp::normalise_word("INT8") == "i8");
    CHECK(lsapp::normalise_word("fp16") == "f16");
    CHECK(lsapp::normalise_word("bfloat16") == "bf16");
    const auto& cat = ls::Catalog::builtin();
    const auto hits = search(cat, gfx("gfx942"), "int8");
    REQUIRE_FALSE(hits.empty());
    for (const auto& h : hits) CHECK((h.ins->a == ls::ElemType::I8 || h.ins->a == ls::ElemType::IU8));
}
