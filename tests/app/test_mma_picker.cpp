// The Blackwell instruction selectors (model/mma_picker.hpp). Every combination the menus
// offer, walked menu by menu, names exactly one catalog instruction, which the catalog's own
// name lookup reads back to the same row, shape and types; every template row legal on the
// target (blackwell_spellings, one instruction per PTX spelling, an enumeration apart from
// the forms) is reached. What the menus must not offer is CUDA 13.0 ptxas's acceptance
// (docs/blackwell.md): kind::i8 is refused on sm_103a, K = 96 exists only on sm_103a
// (kind::mxf4 / mxf4nvf4, cta_group::2, M = 256), sm_120a has no tcgen05.
#include "model/mma_picker.hpp"

#include "lanescope/blackwell.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <set>

namespace ls = lanescope;

namespace {

struct Walk {
    std::vector<std::vector<std::string>> leaves;  // facet keys of each combination offered
    std::vector<size_t> form_of;                   // the form each names
    bool every_leaf_one = true;
};

// Depth-first over the menus: at each facet, every value it offers under the choices above.
Walk walk(const std::vector<ls::Instruction>& forms) {
    Walk w;
    std::vector<size_t> all(forms.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<std::string> keys;
    std::function<void(const std::vector<size_t>&, int)> go = [&](const std::vector<size_t>& cand, int f) {
        if (f == lsapp::kMmaFacets) {
            w.every_leaf_one &= cand.size() == 1;
            w.leaves.push_back(keys);
            w.form_of.push_back(cand.front());
            return;
        }
        const lsapp::FacetSplit split = lsapp::split_by(forms, cand, static_cast<lsapp::MmaFacet>(f));
        for (size_t i = 0; i < split.keys.size(); ++i) {
            keys.push_back(split.keys[i]);
            go(split.candidates[i], f + 1);
            keys.pop_back();
        }
    };
    go(all, 0);
    return w;
}

std::set<std::string> menu_values(const std::vector<ls::Instruction>& forms, lsapp::MmaFacet f,
                                  const std::function<bool(const ls::Instruction&)>& where) {
    std::set<std::string> out;
    for (const ls::Instruction& i : forms)
        if (where(i)) out.insert(lsapp::facet_key(i, f));
    return out;
}

}  // namespace

TEST_CASE("Blackwell selectors: every combination offered is one catalog instruction, every row is reachable",
          "[app][blackwell]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const std::vector<ls::Instruction> spellings = ls::blackwell_spellings();
    for (const char* gfx : {"sm_100a", "sm_103a", "sm_120a"}) {
        CAPTURE(gfx);
        const ls::Target& t = cat.find_target(gfx);
        const std::vector<ls::Instruction>& forms = lsapp::mma_forms(t);
        REQUIRE(!forms.empty());
        const Walk w = walk(forms);
        CHECK(w.every_leaf_one);
        CHECK(w.leaves.size() == forms.size());  // no two forms alike in every facet, none missed

        std::set<int> reached;
        for (size_t n = 0; n < w.leaves.size(); ++n) {
            const ls::Instruction& f = forms[w.form_of[n]];
            reached.insert(f.catalog_line);
            // The menus chosen as walked land on that form, nothing reset on the way.
            const bool edge = n == 0 || n + 1 == w.leaves.size() || forms[w.form_of[n - 1]].catalog_line != f.catalog_line ||
                              forms[w.form_of[n + 1]].catalog_line != f.catalog_line;
            if (edge || n % 997 == 0) {
                const lsapp::MmaPick pick = lsapp::pick_mma(forms, w.leaves[n]);
                REQUIRE(pick.form == &f);
                for (const lsapp::MmaMenu& m : pick.menus)
                    CHECK(m.keys[static_cast<size_t>(m.chosen)] == w.leaves[n][static_cast<size_t>(m.facet)]);
            }
            // The catalog reads the selected short name back as the same instruction (a sample:
            // the lookup parses the name; every row's first and last form are in it). The walk itself visits every combination.
            if (edge || n % 997 == 0) {
                const ls::Instruction& back = cat.find_instruction(t, f.short_name);
                CHECK(back.catalog_line == f.catalog_line);
                CHECK(back.mnemonic == f.mnemonic);
                CHECK(back.m == f.m);
                CHECK(back.n == f.n);
                CHECK(back.k == f.k);
                CHECK(back.a == f.a);
                CHECK(back.b == f.b);
                CHECK(back.a_in_tmem == f.a_in_tmem);
            }
        }
        std::set<int> rows;
        for (const ls::Instruction& s : spellings)
            if ((s.kind == ls::LayoutKind::Tcgen05Mma || s.kind == ls::LayoutKind::MmaBlockScale) && ls::claimed_on(s, t))
                rows.insert(s.catalog_line);
        CHECK(reached == rows);
    }
}

TEST_CASE("Blackwell selectors: the menus offer only what ptxas accepts on the target, named", "[app][blackwell]") {
    const ls::Catalog& cat = ls::Catalog::builtin();
    auto any = [](const ls::Instruction&) { return true; };
    auto tc = [](const ls::Instruction& i) { return i.kind == ls::LayoutKind::Tcgen05Mma; };
    const auto& b200 = lsapp::mma_forms(cat.find_target("sm_100a"));
    const auto& b300 = lsapp::mma_forms(cat.find_target("sm_103a"));
    const auto& rtx = lsapp::mma_forms(cat.find_target("sm_120a"));
    using F = lsapp::MmaFacet;
    CHECK(menu_values(b200, F::Kind, tc) ==
          std::set<std::string>{"f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"});
    CHECK(menu_values(b300, F::Kind, tc).count("i8") == 0);
    CHECK(menu_values(rtx, F::CtaGroup, any) == std::set<std::string>{""});  // no tcgen05 on sm_120a
    CHECK(menu_values(rtx, F::Kind, any) == std::set<std::string>{"f8f6f4", "mxf8f6f4", "mxf4", "mxf4nvf4"});
    CHECK(menu_values(b200, F::K, tc).count("96") == 0);
    CHECK(menu_values(b300, F::K, [](const ls::Instruction& i) { return i.k == 96; }) == std::set<std::string>{"96"});
    CHECK(menu_values(b300, F::M, [](const ls::Instruction& i) { return i.k == 96; }) == std::set<std::string>{"256"});
    // cta_group::2 has M = 128 and 256; .ws is cta_group::1 only, M 32, 64, 128.
    CHECK(menu_values(b200, F::M, [](const ls::Instruction& i) { return i.cta_group == 2; }) ==
          std::set<std::string>{"128", "256"});
    CHECK(menu_values(b200, F::CtaGroup, [](const ls::Instruction& i) { return i.ws; }) == std::set<std::string>{"1"});
    // mxf4nvf4's scale vectors on sm_100a: 2X, 4X, block16, block32; 4X and block16 also take ue4m3.
    CHECK(menu_values(b200, F::ScaleVec, [](const ls::Instruction& i) { return i.mma_kind == "mxf4nvf4" && i.cta_group; }) ==
          std::set<std::string>{"scale_vec::2X", "scale_vec::4X", "block16", "block32"});

    // Changing one menu to a value the rest do not allow keeps a legal instruction: kind::i8 from
    // kind::f16 cta_group::2 N = 16 (cta_group::2 kind::i8 takes N = 32..256 in steps of 32, PTX
    // ISA's tcgen05.mma shape table; CUDA 13.0 ptxas agrees).
    std::vector<std::string> want = lsapp::facet_keys(cat.find_instruction(cat.find_target("sm_100a"),
                                                                          "tcgen05_mma_m256n16k16_f32_f16_2cta"));
    want[static_cast<size_t>(F::Kind)] = "i8";
    const lsapp::MmaPick pick = lsapp::pick_mma(b200, want);
    REQUIRE(pick.form);
    CHECK(pick.form->mma_kind == "i8");
    CHECK(pick.form->cta_group == 2);
    CHECK(pick.form->m == 256);
    CHECK(pick.form->n == 32);  // N = 16 is not legal for i8 with cta_group::2: the menu's first value
    // Named values in the menus.
    CHECK(lsapp::facet_value_name(F::CtaGroup, "2") == "cta_group::2 (CTA pair)");
    CHECK(lsapp::facet_value_name(F::ASpace, "tmem") == "Tensor Memory (_ts)");
    CHECK(lsapp::facet_value_name(F::AType, "e2m1") == "e2m1 (FP4)");
    CHECK(lsapp::facet_value_name(F::Kind, "mxf4nvf4") == "kind::mxf4nvf4");
}
