// "Verify on GPU" overlay from real reports of lanescope::gpu: the software
// device passes everywhere; a corrupted claimed layout turns exactly the cells
// of that operand whose claimed places the corruption moved red.
#include "lanescope/gpu.hpp"
#include "model/verify_from_gpu.hpp"
#include "model/verify_overlay.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <tuple>

namespace ls = lanescope;
namespace gpu = lanescope::gpu;
using namespace lsapp;

namespace {
LayoutSet make(const char* arch, const char* ins, ls::Modifiers m = {}) {
    return resolve_selection(ls::Catalog::builtin(), Selection{arch, ins, m});
}
using Key = std::tuple<int, int, int>;
Key key(const ls::Element& e) { return {e.block, e.row, e.col}; }

// Elements whose set of claimed places differs between the true layout and the
// corrupted one (from the layouts alone, not from the verification).
std::set<Key> moved_elements(const gpu::ClaimedLayout& a, const gpu::ClaimedLayout& b) {
    auto places = [](const gpu::ClaimedLayout& L) {
        std::map<Key, std::set<std::tuple<int, int, int>>> m;
        for (const ls::Entry& e : L.entries) m[key(e.element)].insert({e.loc.reg, e.loc.lane, e.loc.bit_lo});
        return m;
    };
    const auto pa = places(a), pb = places(b);
    std::set<Key> out;
    for (const auto& kv : pa) {
        const auto it = pb.find(kv.first);
        if (it == pb.end() || it->second != kv.second) out.insert(kv.first);
    }
    return out;
}

std::set<Key> red_cells(const OperandVerify& v) {
    std::set<Key> out;
    for (int b = 0; b < v.blocks; ++b)
        for (int i = 0; i < v.rows; ++i)
            for (int j = 0; j < v.cols; ++j)
                if (v.at({b, i, j}) == CellState::Wrong) out.insert({b, i, j});
    return out;
}
}  // namespace

TEST_CASE("verify on the software device: every cell of every operand is verified") {
    struct Case { const char* arch; const char* ins; int wave; };
    const Case cases[] = {{"gfx942", "v_mfma_f32_4x4x4_16b_f16", -1},     // 16 blocks
                          {"gfx942", "v_mfma_f32_32x32x8_f16", -1},
                          {"gfx942", "v_smfmac_f32_16x16x32_f16", -1},    // sparse: index K
                          {"gfx1100", "v_wmma_f32_16x16x16_f16", 64},
                          {"gfx1200", "v_wmma_f32_16x16x16_f16", 32}};
    for (const Case& c : cases) {
        ls::Modifiers m;
        m.wave = c.wave;
        const LayoutSet set = make(c.arch, c.ins, m);
        gpu::SoftwareDevice dev;
        const gpu::Report r = gpu::verify(*set.ins, *set.target, set.mods, dev);
        INFO(r.summary());
        REQUIRE(r.passed);
        const VerifyFacts f = verify_facts_from(r);
        const VerifyOverlay o = make_verify_overlay(set, f);
        size_t total = 0;
        for (const auto& l : set.layouts) {
            if (l.operand() == ls::Operand::C) continue;
            const OperandVerify* v = o.find(l.operand());
            REQUIRE(v);
            CHECK(v->cells.size() == static_cast<size_t>(l.blocks()) * l.rows() * l.cols());
            for (int b = 0; b < l.blocks(); ++b)
                for (int i = 0; i < l.rows(); ++i)
                    for (int j = 0; j < l.cols(); ++j) CHECK(v->at({b, i, j}) == CellState::Verified);
            total += v->cells.size();
        }
        CHECK(o.verified == static_cast<int>(total));
        CHECK(o.wrong == 0);
        CHECK(verify_status(f, o) == "verified: " + std::to_string(total) + " cells PASS");
    }
}

TEST_CASE("verify with a corrupted layout: the moved cells are red with a note, red = the cells the report names") {
    const LayoutSet set = make("gfx942", "v_mfma_f32_16x16x16_f16");
    for (const char* spec : {"A:swap-lanes:0:1", "A:swap-lanes:3:40", "B:swap-lanes:5:17"}) {
        INFO(spec);
        const gpu::Corruption c = gpu::parse_corruption(spec);
        const gpu::ClaimedLayout truth = gpu::claimed_from_core(*set.ins, *set.target, c.operand, set.mods);
        const std::set<Key> expect = moved_elements(truth, gpu::apply(truth, c));
        REQUIRE(!expect.empty());

        gpu::SoftwareDevice dev;
        gpu::VerifyOptions opts;
        opts.claimed = gpu::corrupted_layouts(*set.ins, *set.target, set.mods, c);
        const gpu::Report r = gpu::verify(*set.ins, *set.target, set.mods, dev, opts);
        CHECK_FALSE(r.passed);
        const VerifyFacts f = verify_facts_from(r);
        const VerifyOverlay o = make_verify_overlay(set, f);

        // The corrupted operand: exactly the cells whose claimed places moved, each with a note.
        const OperandVerify& v = *o.find(c.operand);
        CHECK(red_cells(v) == expect);
        for (const Key& k : expect) {
            const std::string* note = v.note({std::get<0>(k), std::get<1>(k), std::get<2>(k)});
            REQUIRE(note);
            CHECK(!note->empty());
        }
        // In every operand the red cells are exactly those the report names (C's
        // drawn on D). The probe may also name cells of an operand that was not
        // corrupted (a misplaced A disturbs the B probe); the overlay shows the
        // report as it is.
        std::map<ls::Operand, std::set<Key>> named;
        for (const auto& is : r.issues) named[is.operand == ls::Operand::C ? ls::Operand::D : is.operand].insert(key(is.element));
        size_t named_total = 0;
        for (const auto& ov : o.operands) {
            CHECK(red_cells(ov) == named[ov.operand]);
            named_total += named[ov.operand].size();
        }
        CHECK(o.wrong == static_cast<int>(named_total));
        CHECK(verify_status(f, o).rfind("FAIL: " + std::to_string(r.mismatch_count) + " mismatches", 0) == 0);
    }
}
