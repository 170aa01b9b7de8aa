// Linear layouts (linear.hpp): every basis is checked by evaluating it back
// over every (register index, lane, wave) against the engine's entries.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/linear.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <tuple>

namespace {
namespace ls = lanescope;

// From the entries (element -> slot), independently of which(): per (wave, lane)
// the elements by (reg, bit_lo); false when a slot holds two elements.
bool lists_from_entries(const ls::TileLayout& t, std::vector<std::vector<ls::Element>>& out) {
    std::map<std::tuple<int, int, int, int>, ls::Element> by_slot;  // wave, lane, reg, bit_lo
    for (const auto& e : t.entries())
        if (!by_slot.emplace(std::make_tuple(e.at.wave, e.at.loc.lane, e.at.loc.reg, e.at.loc.bit_lo), e.element).second)
            return false;
    out.assign(static_cast<size_t>(t.waves()) * t.lanes(), {});
    for (const auto& [slot, e] : by_slot) out[std::get<0>(slot) * t.lanes() + std::get<1>(slot)].push_back(e);
    return true;
}

bool pow2(size_t v) { return v && !(v & (v - 1)); }

}  // namespace

TEST_CASE("linear format: bases evaluate back to the engine, or the layout truly is not linear", "[slow]") {
    int linear = 0, not_linear = 0;
    auto check = [&](const lstest::Case& c, ls::Operand op, const ls::TileParams& p) {
        ls::TileLayout t(*c.ins, *c.target, op, c.mods, p);
        INFO(c.name() << " " << ls::operand_name(op) << " " << t.params().describe());
        ls::LinearResult r = ls::to_linear(t);
        std::vector<std::vector<ls::Element>> lists;
        bool function = lists_from_entries(t, lists);
        if (r.layout) {
            ++linear;
            REQUIRE(function);
            const auto& L = *r.layout;
            REQUIRE(L.rows == t.rows());
            REQUIRE(L.cols == t.cols());
            REQUIRE(L.lane_count() == t.lanes());
            REQUIRE(L.warp_count() == t.waves());
            // One assertion per layout, not per slot: the sanitizer run's -O0 spent minutes counting them.
            for (int w = 0; w < t.waves(); ++w)
                for (int l = 0; l < t.lanes(); ++l) {
                    const auto& list = lists[w * t.lanes() + l];
                    if (static_cast<int>(list.size()) != L.reg_count())
                        FAIL("wave " << w << " lane " << l << " holds " << list.size() << " elements, the bases " << L.reg_count());
                    for (int i = 0; i < L.reg_count(); ++i) {
                        const auto rc = L.apply(i, l, w);
                        if (rc.first != list[i].row || rc.second != list[i].col)
                            FAIL("register " << i << " lane " << l << " wave " << w << ": bases give (" << rc.first << ", "
                                             << rc.second << "), the engine (" << list[i].row << ", " << list[i].col << ")");
                    }
                }
            return;
        }
        ++not_linear;
        REQUIRE_FALSE(r.why_not.empty());
        if (!function) return;  // a slot holds several elements: no map from slots at all
        // Otherwise no XOR map fits: sizes are no powers of two, or index 0 is not (0, 0), or the
        // per-bit moves read off single bits miss some index.
        bool sizes = pow2(lists[0].size()) && pow2(t.lanes()) && pow2(t.waves()) && pow2(t.rows()) && pow2(t.cols());
        for (const auto& l : lists) sizes &= l.size() == lists[0].size();
        if (!sizes) return;
        auto at = [&](size_t i, int l, int w) { return lists[w * t.lanes() + l][i]; };
        if (at(0, 0, 0).row != 0 || at(0, 0, 0).col != 0) return;
        bool mismatch = false;
        for (int w = 0; w < t.waves() && !mismatch; ++w)
            for (int l = 0; l < t.lanes() && !mismatch; ++l)
                for (size_t i = 0; i < lists[0].size() && !mismatch; ++i) {
                    int row = 0, col = 0;
                    for (size_t b = 1; b < lists[0].size(); b *= 2)
                        if (i & b) row ^= at(b, 0, 0).row, col ^= at(b, 0, 0).col;
                    for (int b = 1; b < t.lanes(); b *= 2)
                        if (l & b) row ^= at(0, b, 0).row, col ^= at(0, b, 0).col;
                    for (int b = 1; b < t.waves(); b *= 2)
                        if (w & b) row ^= at(0, 0, b).row, col ^= at(0, 0, b).col;
                    mismatch = row != at(i, l, w).row || col != at(i, l, w).col;
                }
        REQUIRE(mismatch);
    };
    lstest::for_each_default([&](const lstest::Case& c) {
        if (c.ins->blocks != 1) return;
        for (ls::Operand op : ls::operands_of(*c.ins)) {
            if (ls::layout_of(*c.ins, *c.target, op, c.mods).space() != ls::Space::Registers) continue;  // wgmma B
            check(c, op, {});
            if (op == ls::Operand::A || op == ls::Operand::B || op == ls::Operand::C) check(c, op, {2, 2, 1, 2, 0, 0, c.ins->k * 2});
        }
    });
    WARN("layouts linear: " << linear << ", not linear: " << not_linear);
    CHECK(linear > 300);
    CHECK(not_linear > 0);
}

TEST_CASE("a rotation is refused, never printed as a basis") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx908");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x2f32");
    ls::Modifiers m;
    m.blgp = 3;  // rotate B's lanes by 16: addition mod 64, not an XOR
    ls::TileLayout tile(ins, t, ls::Operand::B, ls::resolve_modifiers(ins, t, m), {});
    auto r = ls::to_linear(tile);
    CHECK_FALSE(r.layout);
    lstest::Run x = lstest::run_command(std::string(LANESCOPE_CLI) + " layout -a gfx908 -i v_mfma_f32_32x32x2f32 --operand B --blgp 3 -f linear");
    CHECK(x.status == 1);
    CHECK(x.out.empty());
    CHECK(x.err.find("not linear") != std::string::npos);
}

TEST_CASE("the CLI's linear output matches its JSON contract, and reads back") {
    for (const std::string q : {"-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --waves 2x2 --tiles-per-wave 2x1 --shape 128x64x32",
                                "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand C --waves 1x2 --shape 32x64",
                                "-a gfx950 -i v_mfma_f32_16x16x32_bf16 --operand B"}) {
        INFO(q);
        lstest::Run lin = lstest::run_command(std::string(LANESCOPE_CLI) + " layout " + q + " -f linear");
        lstest::Run js = lstest::run_command(std::string(LANESCOPE_CLI) + " layout " + q + " -f json");
        REQUIRE(lin.status == 0);
        REQUIRE(js.status == 0);
        auto L = nlohmann::json::parse(lin.out);
        auto J = nlohmann::json::parse(js.out);
        CHECK(L["block"].empty());
        CHECK(L["shape"][0] == J["rows"]);
        CHECK(L["shape"][1] == J["cols"]);
        // Per (wave, lane): the elements by (reg, bit_lo) from the JSON entries.
        std::map<std::tuple<int, int, int, int>, std::pair<int, int>> slots;
        for (const auto& e : J["entries"])
            slots[{e.value("wave", 0), e["lane"].get<int>(), e["reg"].get<int>(), e["bit_lo"].get<int>()}] = {e["row"], e["col"]};
        std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> lists;
        for (const auto& [k, v] : slots) lists[{std::get<0>(k), std::get<1>(k)}].push_back(v);
        size_t checked = 0;
        for (const auto& [wl, list] : lists)
            for (size_t i = 0; i < list.size(); ++i) {
                int row = 0, col = 0;
                auto fold = [&](const nlohmann::json& b, long long x) {
                    for (size_t n = 0; n < b.size(); ++n)
                        if (x >> n & 1) row ^= b[n][0].get<int>(), col ^= b[n][1].get<int>();
                };
                fold(L["register"], static_cast<long long>(i));
                fold(L["lane"], wl.second);
                fold(L["warp"], wl.first);
                REQUIRE(row == list[i].first);
                REQUIRE(col == list[i].second);
                ++checked;
            }
        CHECK(checked == J["entries"].size());
        auto file = lstest::temp_path("lanescope_linear.json");
        {
            std::ofstream f(file);
            f << lin.out;
        }
        lstest::Run back = lstest::run_command(std::string(LANESCOPE_CLI) + " layout --linear " + file.string() + " -f linear");
        CHECK(back.status == 0);
        CHECK(back.out == lin.out);
        lstest::Run shown = lstest::run_command(std::string(LANESCOPE_CLI) + " layout --linear " + file.string() + " -f json");
        REQUIRE(shown.status == 0);
        CHECK(nlohmann::json::parse(shown.out)["entries"].size() == checked);
        std::filesystem::remove(file);
    }
}

TEST_CASE("linear input: --linear refuses malformed layouts with the reason") {
    auto file = lstest::temp_path("lanescope_linear_bad.json");
    for (const char* bad : {"{\"register\": [[1, 0]], \"lane\": [[0, 1]], \"shape\": [3, 2]}",
                            "{\"register\": [[1, 0]], \"lane\": [[0, 9]], \"shape\": [2, 2]}",
                            "{\"register\": [[1, 0]], \"shape\": [2, 2]}", "{\"register\": [[1.5, 0]], \"lane\": [], \"shape\": [2, 2]}",
                            "[1, 2", "not json"}) {
        {
            std::ofstream f(file);
            f << bad;
        }
        lstest::Run r = lstest::run_command(std::string(LANESCOPE_CLI) + " layout --linear " + file.string());
        INFO(bad << ": " << r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find(file.string()) != std::string::npos);
    }
    lstest::Run r = lstest::run_command(std::string(LANESCOPE_CLI) + " layout --linear /nonexistent/x.json");
    CHECK(r.status == 1);
    std::filesystem::remove(file);
}
