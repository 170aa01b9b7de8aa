#include "model/snippet.hpp"

#include <catch2/catch.hpp>

#include <set>

namespace ls = lanescope;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins) { return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, {}}); }
}  // namespace

TEST_CASE("snippet: the seeds' store_c math for v_mfma_f32_16x16x32_f16 (i = 4*(L/16) + G, j = L % 16)") {
    const LayoutSet set = make("gfx950", "v_mfma_f32_16x16x32_f16");
    const Fragment d = fragment_of(*set.find(ls::Operand::D));
    CHECK(d.values == 4);
    CHECK(fit_index(d, 1) == "4 * (lane / 16) + v");
    CHECK(fit_index(d, 2) == "(lane % 16)");
    // load_a: A-row = lane % 16, K = 8 * (lane / 16) + e.
    const Fragment a = fragment_of(*set.find(ls::Operand::A));
    CHECK(a.values == 8);
    CHECK(fit_index(a, 1) == "(lane % 16)");
    CHECK(fit_index(a, 2) == "8 * (lane / 16) + v");
}

TEST_CASE("snippet: every element of an operand is reached by some lane's fragment") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_4x4x4_16b_f16");
    for (const ls::OperandLayout& l : set.layouts) {
        const Fragment f = fragment_of(l);
        std::set<std::tuple<int, int, int>> seen;
        for (const auto& e : f.elements) seen.insert({e.block, e.row, e.col});
        CHECK(static_cast<int>(seen.size()) == l.elements());
    }
    const std::string code = hip_snippet(set);
    for (const char* fn : {"load_a", "load_b", "store_c", "__device__"}) CHECK(code.find(fn) != std::string::npos);
}
