// Tiles against Triton 3.6's own AMD layouts, element by element.
//
// tests/data/triton/triton-3.6-amd-layouts.jsonl.gz was written by
// scripts/triton-layouts.py from Triton 3.6.0 (AMDMFMALayout, AMDWMMALayout
// and DotOperandLayout converted with to_linear_layout): one JSON per line,
// its bases ([dim0, dim1] per set bit of the register, lane and warp index,
// XOR-combined) or Triton's refusal. Every record Triton lays out is compared
// with lanescope's TileLayout for each catalog instruction of that Triton
// layout whose K divides the record's: the elements each (wave, lane) holds in
// register-and-bit order (Triton's `register` index counts elements), both
// through which() and where().
#include "helpers.hpp"
#include "triton_dump.hpp"

#include "lanescope/lanescope.hpp"
#include "lanescope/tile.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace {
namespace ls = lanescope;
using Basis = std::vector<std::array<int, 2>>;

Basis bases(const nlohmann::json& j) {
    Basis b;
    for (const auto& v : j) b.push_back({v[0].get<int>(), v[1].get<int>()});
    return b;
}

std::array<int, 2> apply(const Basis& b, int x) {
    std::array<int, 2> out{0, 0};
    for (size_t i = 0; i < b.size(); ++i)
        if (x >> i & 1) {
            out[0] ^= b[i][0];
            out[1] ^= b[i][1];
        }
    return out;
}

// The catalog instructions that follow each Triton layout, by (layout version, M).
struct Candidate {
    const char* gfx;
    const char* mnemonic;
};
std::vector<Candidate> candidates(const std::string& layout, int version, int m) {
    if (layout.rfind("mfma", 0) == 0) {
        if (version == 3)
            return m == 32 ? std::vector<Candidate>{{"gfx942", "v_mfma_f32_32x32x8_f16"}, {"gfx942", "v_mfma_f32_32x32x16_fp8_fp8"}}
                           : std::vector<Candidate>{{"gfx942", "v_mfma_f32_16x16x16_f16"}, {"gfx942", "v_mfma_f32_16x16x32_fp8_fp8"}};
        return m == 32 ? std::vector<Candidate>{{"gfx950", "v_mfma_f32_32x32x8_f16"}, {"gfx950", "v_mfma_f32_32x32x16_f16"},
                                                {"gfx950", "v_mfma_i32_32x32x32_i8"}}
                       : std::vector<Candidate>{{"gfx950", "v_mfma_f32_16x16x16_f16"}, {"gfx950", "v_mfma_f32_16x16x32_f16"},
                                                {"gfx950", "v_mfma_i32_16x16x64_i8"}};
    }
    if (version == 1) return {{"gfx1100", "v_wmma_f32_16x16x16_f16"}, {"gfx1100", "v_wmma_i32_16x16x16_iu8"}};
    if (version == 2) return {{"gfx1200", "v_wmma_f32_16x16x16_f16"}, {"gfx1201", "v_wmma_i32_16x16x16_iu8"}};
    // Version 3 (gfx1250): every dense 16x16 shape; Triton's dot layout depends on kWidth and K only.
    return {{"gfx1250", "v_wmma_f32_16x16x4_f32"}, {"gfx1250", "v_wmma_f32_16x16x32_f16"},
            {"gfx1250", "v_wmma_f32_16x16x64_fp8_fp8"}, {"gfx1250", "v_wmma_f32_16x16x128_fp8_fp8"},
            {"gfx1251", "v_wmma_i32_16x16x64_iu8"}};
}


}  // namespace

TEST_CASE("tiles equal Triton 3.6's AMD layouts element by element", "[tile][triton]") {
    const auto start = std::chrono::steady_clock::now();
    const auto& lines = lstest::triton_records();
    REQUIRE(lines.size() == 10080);
    const auto& cat = ls::Catalog::builtin();
    long long records = 0, compared = 0, elements = 0, refused = 0, no_instruction = 0, k_too_small = 0;
    std::map<std::string, long long> per_layout;
    for (const nlohmann::json& r : lines) {
        const std::string layout = r["layout"];
        const auto& p = r["params"];
        if (r.contains("error")) {
            ++refused;
            // Triton refuses only kWidth values outside its list; lanescope refuses them too (checked below where
            // the instruction exists).
            continue;
        }
        ++records;
        const int version = p["version"];
        const auto ishape = p["instr_shape"];
        const bool dot = layout.size() > 4 && layout.substr(layout.size() - 4) == "_dot";
        const int op_index = dot ? p["operand_index"].get<int>() : -1;
        const int k_width = dot ? p["k_width"].get<int>() : 0;
        const auto shape = r["shape"];
        const int d0 = shape[0], d1 = shape[1];
        const Basis reg = bases(r["reg_bases"]), lane = bases(r["lane_bases"]), warp = bases(r["warp_bases"]);
        REQUIRE(r["block_bases"].empty());
        const auto cands = candidates(layout, version, ishape[0]);
        if (cands.empty()) {
            ++no_instruction;
            continue;
        }
        bool any = false;
        // The first candidate's K divides every record's, so it meets every combination of the dump; the
        // others (other element widths and K, other kWidths of their own) on the 2x2 wave grid, to stay fast.
        const bool all_candidates = p["warps_per_cta"] == nlohmann::json::array({2, 2});
        for (size_t ci = 0; ci < (all_candidates ? cands.size() : 1); ++ci) {
            const Candidate& c = cands[ci];
            const ls::Target& tg = cat.find_target(c.gfx);
            const ls::Instruction& ins = cat.find_instruction(tg, c.mnemonic);
            ls::Modifiers m;
            m.wave = tg.family == ls::Family::RDNA3 || tg.family == ls::Family::RDNA4 || tg.family == ls::Family::CDNA5 ? 32 : 64;
            const auto mods = ls::resolve_modifiers(ins, tg, m);
            ls::TileParams tp;
            tp.waves_m = p["warps_per_cta"][0];
            tp.waves_n = p["warps_per_cta"][1];
            tp.tiles_m = p["tiles_per_warp"][0];
            tp.tiles_n = p["tiles_per_warp"][1];
            tp.transposed = p["transposed"];
            ls::Operand op = ls::Operand::D;
            if (op_index == 0) {
                op = ls::Operand::A;
                tp.m = d0;
                tp.k = d1;
            } else if (op_index == 1) {
                op = ls::Operand::B;
                tp.k = d0;
                tp.n = d1;
            } else {
                tp.m = d0;
                tp.n = d1;
            }
            if (op != ls::Operand::D) {
                tp.k_width = k_width;
                if (tp.k % ins.k != 0) {
                    ++k_too_small;
                    continue;
                }
                // The other dimension of the dot operand: the wave grid's tile.
                if (op == ls::Operand::A) tp.n = ins.n * tp.tiles_n * tp.waves_n;
                else tp.m = ins.m * tp.tiles_m * tp.waves_m;
            }
            const ls::TileLayout t(ins, tg, op, mods, tp);
            INFO(r.dump());
            INFO(c.gfx << " " << c.mnemonic << " " << ls::operand_name(op) << " " << t.params().describe());
            REQUIRE(t.triton() != ls::TritonLayout::None);
            REQUIRE(t.rows() == d0);
            REQUIRE(t.cols() == d1);
            REQUIRE(t.waves() == 1 << warp.size());
            REQUIRE(t.lanes() == 1 << lane.size());
            const int per_lane = 1 << reg.size();
            std::vector<int> count(static_cast<size_t>(d0) * d1, 0);  // Triton's places per element
            for (int w = 0; w < t.waves(); ++w)
                for (int l = 0; l < t.lanes(); ++l) {
                    const auto got = lstest::lane_elements(t, w, l);
                    REQUIRE(static_cast<int>(got.size()) == per_lane);
                    const auto wl = apply(warp, w), ll = apply(lane, l);
                    for (int i = 0; i < per_lane; ++i) {
                        const auto ri = apply(reg, i);
                        const ls::Element want{0, wl[0] ^ ll[0] ^ ri[0], wl[1] ^ ll[1] ^ ri[1]};
                        ++count[static_cast<size_t>(want.row) * d1 + want.col];
                        if (!(got[static_cast<size_t>(i)] == want)) {
                            INFO("wave " << w << " lane " << l << " register index " << i << ": lanescope (" << got[i].row
                                         << ", " << got[i].col << "), Triton (" << want.row << ", " << want.col << ")");
                            REQUIRE(got[static_cast<size_t>(i)] == want);
                        }
                    }
                    elements += per_lane;
                }
            // where() names the same places: every (wave, lane) Triton puts an element in, as many times.
            for (int row = 0; row < d0; row += std::max(1, d0 / 8))
                for (int col = 0; col < d1; col += std::max(1, d1 / 8)) {
                    const auto locs = t.where({0, row, col});
                    for (const auto& at : locs) {
                        bool found = false;
                        for (const auto& part : t.which(at.wave, at.loc.reg, at.loc.lane))
                            found = found || part.element == ls::Element{0, row, col};
                        REQUIRE(found);
                    }
                    const long long want = count[static_cast<size_t>(row) * d1 + col];
                    const int parts = (t.instruction().element_bits() + 31) / 32;
                    REQUIRE(static_cast<long long>(locs.size()) == want * parts);
                }
            ++compared;
            any = true;
            ++per_layout[layout + " v" + std::to_string(version)];
        }
        if (!any) ++no_instruction;
        REQUIRE(any);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    WARN("Triton 3.6 dump: " << records << " layouts, " << refused << " refused by Triton; " << compared
                              << " (record, instruction) comparisons, " << elements << " elements equal; "
                              << no_instruction << " records without a catalog instruction of their K; "
                              << k_too_small << " pairs skipped (record K below the instruction's K); " << seconds << " s");
    for (const auto& [k, v] : per_layout) WARN(k << ": " << v);
    CHECK(compared > 8000);
}

TEST_CASE("kWidth values Triton refuses are refused, naming the legal ones", "[tile][triton]") {
    const auto& cat = ls::Catalog::builtin();
    struct Case {
        const char* gfx;
        const char* mnemonic;
        int k_width;
        const char* legal;
    };
    for (const Case& c : {Case{"gfx1100", "v_wmma_f32_16x16x16_f16", 4, "legal: 8, 16"},
                          Case{"gfx1200", "v_wmma_f32_16x16x16_f16", 2, "legal: 4, 8, 16"},
                          Case{"gfx1200", "v_wmma_f32_16x16x16_f16", 32, "legal: 4, 8, 16"}}) {
        const ls::Target& tg = cat.find_target(c.gfx);
        const ls::Instruction& ins = cat.find_instruction(tg, c.mnemonic);
        ls::Modifiers m;
        m.wave = 32;
        const auto mods = ls::resolve_modifiers(ins, tg, m);
        ls::TileParams tp;
        tp.k_width = c.k_width;
        INFO(c.gfx << " " << c.mnemonic << " kWidth " << c.k_width);
        REQUIRE_THROWS_WITH(ls::TileLayout(ins, tg, ls::Operand::A, mods, tp), Catch::Contains(c.legal));
    }
}

TEST_CASE("every gfx1250 instruction: one wave at its own kWidth is the instruction; dense WMMA is Triton's v3", "[tile][triton]") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& tg = cat.find_target("gfx1250");
    int triton = 0, own = 0;
    for (const ls::Instruction* ins : cat.on(tg.family)) {
        ls::Modifiers m;
        m.wave = 32;
        const auto mods = ls::resolve_modifiers(*ins, tg, m);
        for (ls::Operand op : ls::operands_of(*ins)) {
            const ls::OperandLayout L = ls::layout_of(*ins, tg, op, mods);
            if (L.blocks() != 1) continue;
            ls::TileParams one;
            one.waves_m = 1;  // tile mode, one wave: the instruction itself
            const ls::TileLayout t(*ins, tg, op, mods, one);
            INFO(ins->mnemonic << " " << ls::operand_name(op));
            const auto te = t.entries();
            const auto& le = L.entries();
            REQUIRE(te.size() == le.size());
            for (size_t i = 0; i < te.size(); ++i) {
                REQUIRE(te[i].element == le[i].element);
                REQUIRE(te[i].at.loc == le[i].loc);
            }
            const bool dense16 = ins->m == 16 && ins->n == 16 && ins->mnemonic.rfind("v_wmma_f", 0) == 0 &&
                                 ins->mnemonic.find("f8f6f4") == std::string::npos;
            if (dense16 && (op == ls::Operand::A || op == ls::Operand::B || op == ls::Operand::D))
                CHECK(t.triton() == ls::TritonLayout::Wmma3);
            (t.triton() == ls::TritonLayout::Wmma3 ? triton : own)++;
        }
    }
    WARN("gfx1250 operands: " << triton << " as Triton's WMMA v3, " << own << " lanescope's own composition");
    CHECK(triton > 0);
}
