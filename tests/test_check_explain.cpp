// check that explains (check.hpp): the basis that differs, whether the given
// layout is one-to-one, a summary by wave/lane/register, the real cause when
// element widths or modifiers differ; Gluon's named constructors read back as
// the bases Triton 3.6 gives them (tests/data/triton); and the outputs checked
// by their consumers' rules (Gluon's kWidths and surjectivity, C++ names).
#include "shell_run.hpp"
#include "triton_dump.hpp"

#include "lanescope/check.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/header.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace {
namespace ls = lanescope;
using lstest::cli;
using lstest::Run;

ls::GivenLayout given_linear(const ls::LinearLayout& x) {
    ls::GivenLayout g;
    g.linear = true;
    g.linear_layout = x;
    return g;
}

// The lines of `text` before the first one starting with `prefix` (npos: all).
size_t line_at(const std::string& text, const std::string& prefix) {
    if (text.rfind(prefix, 0) == 0) return 0;
    const size_t at = text.find("\n" + prefix);
    return at == std::string::npos ? at : at + 1;
}

// Python for a Triton dump record's parameters, written from Gluon's constructors' signatures
// (triton/experimental/gluon/language/_layouts.py, amd/_layouts.py).
std::string gluon_text(const nlohmann::json& rec) {
    const auto& p = rec["params"];
    const std::string kind = rec["layout"];
    auto list = [](const nlohmann::json& v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i].get<int>());
        return s + "]";
    };
    const std::string tf = p["transposed"].get<bool>() ? "True" : "False";
    std::string parent;
    if (kind.rfind("mfma", 0) == 0)
        parent = "AMDMFMALayout(version=" + std::to_string(p["version"].get<int>()) + ", instr_shape=" + list(p["instr_shape"]) +
                 ", transposed=" + tf + ", warps_per_cta=" + list(p["warps_per_cta"]) +
                 ", element_bitwidth=" + std::to_string(p["element_bitwidth"].get<int>()) +
                 ", tiles_per_warp=" + list(p["tiles_per_warp"]) + ")";
    else
        parent = "AMDWMMALayout(version=" + std::to_string(p["version"].get<int>()) + ", transposed=" + tf +
                 ", warps_per_cta=" + list(p["warps_per_cta"]) + ", instr_shape=" + list(p["instr_shape"]) +
                 ", tiles_per_warp=" + list(p["tiles_per_warp"]) + ")";
    if (kind.size() > 4 && kind.substr(kind.size() - 4) == "_dot")
        return "layout = gl.DotOperandLayout(operand_index=" + std::to_string(p["operand_index"].get<int>()) +
               ", parent=" + parent + ", k_width=" + std::to_string(p["k_width"].get<int>()) + ")\n";
    return "layout = " + parent + "\n";
}

// One catalog instruction for each Triton layout of the dump: the one its instr_shape names.
std::pair<const char*, const char*> instruction_for(const nlohmann::json& rec) {
    const auto& p = rec["params"];
    const int version = p["version"], m = p["instr_shape"][0], k = p["instr_shape"][2];
    if (std::string(rec["layout"]).rfind("mfma", 0) == 0)
        return {version == 3 ? "gfx942" : "gfx950", m == 32 ? "v_mfma_f32_32x32x8_f16" : "v_mfma_f32_16x16x16_f16"};
    if (version == 1) return {"gfx1100", "v_wmma_f32_16x16x16_f16"};
    if (version == 2) return {"gfx1200", "v_wmma_f32_16x16x16_f16"};
    return {"gfx1250", k == 4    ? "v_wmma_f32_16x16x4_f32"
                       : k == 32 ? "v_wmma_f32_16x16x32_f16"
                       : k == 64 ? "v_wmma_f32_16x16x64_fp8_fp8"
                                 : "v_wmma_f32_16x16x128_fp8_fp8"};
}

std::vector<std::pair<int, int>> bases_of(const nlohmann::json& b) {
    std::vector<std::pair<int, int>> v;
    for (const auto& x : b) v.push_back({x[0], x[1]});
    return v;
}

}  // namespace

TEST_CASE("check names the basis that differs, summarizes by wave/lane/register and says whether the layout is one-to-one") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    const auto mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
    ls::TileParams tp;
    tp.waves_m = tp.waves_n = 2;
    tp.m = 128;
    tp.n = 64;
    const ls::TileLayout c(ins, t, ls::Operand::C, mods, tp);
    const ls::LinearLayout L = *ls::to_linear(c).layout;
    REQUIRE(L.reg.size() >= 3);
    // Register basis 1 moved to where basis 2 goes (so two bases coincide: not one-to-one).
    ls::LinearLayout broken = L;
    broken.reg[1] = L.reg[2];
    const ls::CheckResult r = ls::check_layout(c, given_linear(broken));
    REQUIRE_FALSE(r.equal);
    REQUIRE(r.bases.size() == 1);
    CHECK(r.bases[0].dim == "register");
    CHECK(r.bases[0].index == 1);
    CHECK(r.bases[0].given == L.reg[2]);
    CHECK(r.bases[0].expected == L.reg[1]);
    CHECK(r.bases_note.empty());
    // Two equal bases: every element is held twice or not at all.
    CHECK(r.one_to_one.known);
    CHECK_FALSE(r.one_to_one.injective);
    CHECK_FALSE(r.one_to_one.surjective);
    CHECK(r.one_to_one.places == static_cast<size_t>(L.places()));
    CHECK(r.one_to_one.elements_held == static_cast<size_t>(L.places() / 2));
    CHECK(r.one_to_one.why.find("register basis 2") != std::string::npos);
    // The summary counts the places whose element changed, evaluated here from the bases.
    size_t differing = 0;
    std::set<int> slots;
    for (int w = 0; w < L.warp_count(); ++w)
        for (int l = 0; l < L.lane_count(); ++l)
            for (int i = 0; i < L.reg_count(); ++i)
                if (L.apply(i, l, w) != broken.apply(i, l, w)) ++differing, slots.insert(i);
    CHECK(r.summary.places == static_cast<size_t>(L.places()));
    CHECK(r.summary.differing_places == differing);
    CHECK(r.summary.by_wave.size() == 4);
    CHECK(r.summary.by_lane.size() == 64);
    REQUIRE(r.summary.by_slot.size() == slots.size());
    for (const auto& [label, n] : r.summary.by_slot) {
        const int i = std::stoi(label.substr(1));
        CHECK((i >> 1 & 1) == 1);  // only indices with bit 1 set move
        CHECK(n == differing / slots.size());
    }
    // A permutation of the bases is one-to-one and covers the shape; a zero basis is not one-to-one.
    ls::LinearLayout swapped = L;
    std::swap(swapped.lane[0], swapped.reg[0]);
    const auto r2 = ls::check_layout(c, given_linear(swapped));
    CHECK(r2.one_to_one.injective);
    CHECK(r2.one_to_one.surjective);
    CHECK(r2.bases.size() == 2);
    ls::LinearLayout zero = L;
    zero.warp[0] = {0, 0};
    const auto r3 = ls::check_layout(c, given_linear(zero));
    CHECK_FALSE(r3.one_to_one.injective);
    CHECK(r3.one_to_one.why.find("warp basis 0 [0, 0] is zero") != std::string::npos);
    CHECK(r3.one_to_one.elements_held == static_cast<size_t>(L.places() / 2));

    // In the CLI: the basis, one-to-one and the summary come before an element list of --show lines.
    const std::string file = lstest::write_temp("lanescope_broken_basis.json", ls::render_linear(broken));
    const std::string q = "check -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C --waves 2x2 --shape 128x64 --layout " + file;
    Run out = cli(q);
    CHECK(out.status == 5);
    const size_t basis = line_at(out.out, "basis: register 1 (register index 2): yours [" +
                                              std::to_string(L.reg[2].first) + ", " + std::to_string(L.reg[2].second) +
                                              "], lanescope's [" + std::to_string(L.reg[1].first) + ", " +
                                              std::to_string(L.reg[1].second) + "]");
    const size_t one = line_at(out.out, "your layout: not one-to-one");
    const size_t summary = line_at(out.out, "places that hold another element: " + std::to_string(differing) + " of 8192");
    const size_t list = line_at(out.out, "element ");
    REQUIRE(basis != std::string::npos);
    REQUIRE(one != std::string::npos);
    REQUIRE(summary != std::string::npos);
    REQUIRE(list != std::string::npos);
    CHECK(basis < list);
    CHECK(one < list);
    CHECK(summary < list);
    size_t rows = 0;
    for (size_t at = list; (at = out.out.find("\nC[", at)) != std::string::npos; ++at) ++rows;
    CHECK(rows == 10);  // the default --show
    Run three = cli(q + " --show 3");
    rows = 0;
    for (size_t at = 0; (at = three.out.find("\nC[", at)) != std::string::npos; ++at) ++rows;
    CHECK(rows == 3);
    CHECK(three.out.find("--show N lists N") != std::string::npos);
    Run none = cli(q + " --show 0");
    CHECK(none.out.find("\nelement ") == std::string::npos);
    Run json = cli(q + " --format json");
    const auto j = nlohmann::json::parse(json.out);
    CHECK(j["bases"].size() == 1);
    CHECK(j["bases"][0]["dim"] == "register");
    CHECK(j["one_to_one"]["injective"] == false);
    CHECK(j["summary"]["differing_places"] == differing);
    CHECK(j["differences"].size() == 8192);  // --format json still lists them all
    CHECK(cli(q + " --show -1").status == 2);
    std::filesystem::remove(file);
}

TEST_CASE("check: a list with an element in two places, or two elements in one, is not one-to-one") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("gfx942");
    const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    const ls::OperandLayout a = ls::layout_of(ins, t, ls::Operand::A, ls::resolve_modifiers(ins, t, ls::Modifiers{}));
    ls::GivenLayout g;
    for (const ls::Entry& e : a.entries()) {
        ls::Placement p;
        p.lane = e.loc.lane, p.reg = e.loc.reg, p.bit_lo = e.loc.bit_lo, p.bit_hi = e.loc.bit_hi;
        g.entries.push_back({e.element, p});
    }
    CHECK(ls::check_layout(a, g).one_to_one.injective);
    CHECK(ls::check_layout(a, g).one_to_one.surjective);
    // Element 1 written over element 0's place: element 1 is nowhere else, element 0's place holds two.
    g.entries[1].second = g.entries[0].second;
    const auto r = ls::check_layout(a, g);
    CHECK_FALSE(r.equal);
    CHECK_FALSE(r.one_to_one.injective);
    CHECK(r.one_to_one.shared_places == 1);
    CHECK(r.one_to_one.elements_held == static_cast<size_t>(a.elements()));
}

TEST_CASE("check: element widths and modifiers that differ are the cause, before any permutation") {
    // gfx950's f8f6f4 MFMA reads A as FP6 under cbsz=2 (AMD CDNA4 ISA, the CBSZ format field): 6-bit elements.
    const std::string base = "-a gfx950 -i v_mfma_scale_f32_32x32x64_f8f6f4 --operand A";
    Run fp6 = cli("layout " + base + " --cbsz 2 --format json");
    REQUIRE(fp6.status == 0);
    const std::string file = lstest::write_temp("lanescope_fp6.json", fp6.out);
    Run r = cli("check " + base + " --layout " + file);
    CHECK(r.status == 5);
    const size_t ex = line_at(r.out, "explanation: element widths differ: your elements are 6-bit (fp6), lanescope's 8-bit");
    CHECK(ex != std::string::npos);
    CHECK(r.out.find("equals lanescope's with cbsz=2 (--cbsz 2)") != std::string::npos);
    CHECK(r.out.find("K permuted") == std::string::npos);
    CHECK(r.out.find("modifiers: the file says modifiers cbsz=2") != std::string::npos);
    CHECK(cli("check " + base + " --cbsz 2 --layout " + file).status == 0);
    // The same without the contract's type fields: the width comes from the bits each element spans.
    Run csv = cli("layout " + base + " --cbsz 2 --format csv");
    const std::string csv_file = lstest::write_temp("lanescope_fp6.csv", csv.out);
    Run r2 = cli("check " + base + " --layout " + csv_file);
    CHECK(r2.out.find("explanation: element widths differ: your elements are 6-bit, lanescope's 8-bit") != std::string::npos);
    std::filesystem::remove(file);
    std::filesystem::remove(csv_file);
}

TEST_CASE("check reads Gluon's named constructors as Triton 3.6 lays them out (every record of its dump)", "[slow]") {
    const auto& cat = ls::Catalog::builtin();
    size_t compared = 0, refused = 0;
    for (const nlohmann::json& rec : lstest::triton_records()) {
        const auto [gfx, mnemonic] = instruction_for(rec);
        const ls::Target& t = cat.find_target(gfx);
        const ls::Instruction& ins = cat.find_instruction(t, mnemonic);
        ls::Modifiers m;
        m.wave = t.family == ls::Family::CDNA3 || t.family == ls::Family::CDNA4 ? 64 : 32;
        const auto mods = ls::resolve_modifiers(ins, t, m);
        const std::string kind = rec["layout"];
        const bool dot = kind.size() > 4 && kind.substr(kind.size() - 4) == "_dot";
        const ls::Operand op = !dot ? ls::Operand::C : rec["params"]["operand_index"] == 0 ? ls::Operand::A : ls::Operand::B;
        const std::string text = gluon_text(rec);
        INFO(text << rec.dump());
        ls::GivenLayout g = ls::parse_layout_text(text, "pasted");
        REQUIRE(g.named);
        CHECK_FALSE(g.shape_given);
        if (rec.contains("error")) {
            // Triton refused this kWidth; so does the reader, naming what is legal.
            CHECK_THROWS_WITH(ls::resolve_given_layout(g, ins, t, op, mods, 16, 16), Catch::Contains("legal: 2, 8, 16"));
            ++refused;
            continue;
        }
        ls::resolve_given_layout(g, ins, t, op, mods, rec["shape"][0], rec["shape"][1]);
        REQUIRE(g.linear);
        const ls::LinearLayout& L = g.linear_layout;
        CHECK(L.rows == rec["shape"][0].get<int>());
        CHECK(L.cols == rec["shape"][1].get<int>());
        CHECK(L.reg == bases_of(rec["reg_bases"]));
        CHECK(L.lane == bases_of(rec["lane_bases"]));
        CHECK(L.warp == bases_of(rec["warp_bases"]));
        ++compared;
    }
    WARN("named constructors compared with Triton 3.6's bases: " << compared << ", refused as Triton did: " << refused);
    CHECK(compared == 10080 - 1920);
    CHECK(refused == 1920);
}

TEST_CASE("check reads what --format gluon prints, named forms alone, and refuses the ones for another query") {
    const std::string q = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --waves 2x2";
    for (const char* op : {"A", "B", "C"}) {
        Run g = cli(std::string("layout ") + q + " --operand " + op + " --format gluon");
        REQUIRE(g.status == 0);
        const size_t at = g.out.find("\nlayout = ");
        REQUIRE(at != std::string::npos);
        const std::string named = g.out.substr(at + 10, g.out.find('\n', at + 1) - at - 10);
        CHECK(named.find("DistributedLinearLayout") == std::string::npos);
        const std::string file = lstest::write_temp(std::string("lanescope_named_") + op + ".py", named + "\n");
        Run c = cli(std::string("check ") + q + " --operand " + op + " --layout " + file);
        INFO(named << "\n" << c.out << c.err);
        CHECK(c.status == 0);
        CHECK(c.out.find("the file gives no shape") != std::string::npos);
        std::filesystem::remove(file);
    }
    auto refused = [&](const std::string& text, const std::string& args, const std::string& why) {
        const std::string file = lstest::write_temp("lanescope_named_bad.py", text);
        Run c = cli("check " + args + " --layout " + file);
        INFO(text << "\n" << c.err);
        CHECK(c.status == 1);
        CHECK(c.err.find(why) != std::string::npos);
        std::filesystem::remove(file);
    };
    const std::string mfma = "AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=False, warps_per_cta=[2, 2])";
    refused("gl.DotOperandLayout(operand_index=0, parent=" + mfma + ", k_width=4)", q + " --operand B", "not B's (--operand)");
    refused(mfma, q + " --operand A", "DotOperandLayout(operand_index=");
    refused(mfma, "-a gfx942 -i v_mfma_f32_16x16x16_f16 --operand C", "is not v_mfma_f32_16x16x16_f16 on gfx942's [16, 16]");
    refused(mfma, "-a gfx950 -i v_mfma_f32_32x32x8_f16 --operand C", "gfx950 is MFMA version 4");
    refused(mfma, "-a gfx1100 -i v_wmma_f32_16x16x16_f16 --operand C", "is not an MFMA instruction");
    refused("DotOperandLayout(operand_index=0, parent=" + mfma + ", k_width=32)", q + " --operand A", "legal: 1, 2, 4, 8, 16");
    refused("DotOperandLayout(operand_index=2, parent=" + mfma + ", k_width=4)", q + " --operand A", "operand_index must be");
    refused("AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=maybe, warps_per_cta=[2, 2])", q + " --operand C",
            "not a value Gluon's layouts take");
    refused("AMDMFMALayout(version=3, instr_shape=[32, 32, 8], colour=1, warps_per_cta=[2, 2])", q + " --operand C",
            "has no argument 'colour'");
    refused("AMDMFMALayout(version=3, instr_shape=[32, 32, 8], warps_per_cta=[2, 2]", q + " --operand C", "ends inside");
    refused(std::string(5000, ' ') + "AMDMFMALayout(", q + " --operand C", "ends inside the constructor");
    refused("layout = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])", q + " --operand C", "not a layout lanescope reads");
    refused("AMDMFMALayout(version=3, instr_shape=" + std::string(100, '[') + ")", q + " --operand C", "64 levels");
    // A shape from --shape: the named layout at 128 x 64 is lanescope's at --shape 128x64.
    const std::string file = lstest::write_temp("lanescope_named_shape.py", mfma + "\n");
    CHECK(cli("check " + q + " --operand C --shape 128x64 --layout " + file).status == 0);
    std::filesystem::remove(file);
}

TEST_CASE("check reads NVIDIA's NVMMADistributedLayout, wgmma warpgroups numbered along M first as Triton 3.6 does") {
    const auto& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_90");
    const ls::Instruction& ins = cat.find_instruction(t, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
    ls::Modifiers m;
    m.wave = 128;
    const auto mods = ls::resolve_modifiers(ins, t, m);
    ls::GivenLayout g = ls::parse_layout_text(
        "layout = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 2], instr_shape=[16, 8, 16])\n", "pasted");
    ls::resolve_given_layout(g, ins, t, ls::Operand::C, mods, 128, 16);
    // Measured in Triton 3.6 (docs/verification/2026-12-01-h200-gluon.md): warp bases [16,0] [32,0] [64,0] [0,8].
    CHECK(ls::render_distributed_linear(g.linear_layout, 32).find("warp_bases=[[16, 0], [32, 0], [64, 0], [0, 8]]") !=
          std::string::npos);
    // mma.sync m16n8k16 (mma v2): what --format gluon prints reads back equal, A at kWidth 2 (32 bits of f16).
    for (const char* op : {"A", "B", "C"}) {
        const std::string q = std::string("-a sm_80 -i mma_m16n8k16_f32_f16 --waves 2x2 --operand ") + op;
        Run out = cli("layout " + q + " --format gluon");
        const size_t at = out.out.find("\nlayout = ");
        REQUIRE(at != std::string::npos);
        const std::string file =
            lstest::write_temp("lanescope_nv_named.py", out.out.substr(at + 1, out.out.find('\n', at + 1) - at));
        Run c = cli("check " + q + " --layout " + file);
        INFO(out.out << c.out << c.err);
        CHECK(c.status == 0);
        std::filesystem::remove(file);
    }
}

TEST_CASE("gluon output: --format gluon prints only what Gluon takes: Triton's kWidths, surjective DistributedLinearLayouts") {
    // MFMA at --k-width 32: the bases, no named form, and the reason.
    Run k32 = cli("layout -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand A --k-width 32 --format gluon");
    REQUIRE(k32.status == 0);
    CHECK(k32.out.find("k_width=32)") == std::string::npos);
    CHECK(k32.out.find("no named Gluon layout: the kWidth this operand needs (32) is not one Triton takes") !=
          std::string::npos);
    CHECK(k32.out.find("linear = gl.DistributedLinearLayout(") != std::string::npos);
    // Every named DotOperandLayout printed has a kWidth of its parent's legal list.
    for (const char* q : {"-a gfx942 -i v_mfma_f32_32x32x8_f16", "-a gfx950 -i v_mfma_f32_32x32x64_f8f6f4",
                          "-a gfx1100 -i v_wmma_f32_16x16x16_f16", "-a gfx1200 -i v_wmma_f32_16x16x16_f16",
                          "-a gfx1250 -i v_wmma_f32_16x16x128_fp8_fp8", "-a sm_80 -i mma_m16n8k16_f32_f16"})
        for (const char* kw : {"", " --k-width 1", " --k-width 2", " --k-width 4", " --k-width 8", " --k-width 16",
                               " --k-width 32", " --k-width 64"})
            for (const char* op : {"A", "B"}) {
                Run g = cli(std::string("layout ") + q + " --operand " + op + kw + " --format gluon");
                if (g.status != 0) continue;  // a kWidth the tile refuses
                const size_t at = g.out.find("k_width=");
                if (at == std::string::npos) continue;
                const int value = std::stoi(g.out.substr(at + 8));
                const std::string parent = g.out.find("AMDMFMALayout(") != std::string::npos   ? "AMDMFMALayout"
                                           : g.out.find("AMDWMMALayout(") != std::string::npos ? "AMDWMMALayout"
                                                                                                : "NVMMADistributedLayout";
                const size_t v = g.out.find("version=");
                const int version = g.out[v + 8] == '[' ? g.out[v + 9] - '0' : g.out[v + 8] - '0';
                INFO(q << " " << op << kw << "\n" << g.out);
                const auto legal = ls::gluon_k_widths(parent, version, 16);
                if (!legal.empty() && std::string(q).find("sm_80") == std::string::npos)
                    CHECK(std::find(legal.begin(), legal.end(), value) != legal.end());
            }
    // A linear layout whose bases do not span its shape: refused for Gluon, with the count.
    ls::LinearLayout L;
    L.rows = 32, L.cols = 32;
    L.reg = {{1, 0}, {2, 0}};
    L.lane = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}};
    L.warp = {};
    CHECK_THROWS_WITH(ls::render_distributed_linear(L, 64), Catch::Contains("reach 256 of the 32 x 32 = 1024 elements"));
    const std::string file = lstest::write_temp("lanescope_not_surjective.json", ls::render_linear(L));
    Run g = cli("layout --linear " + file + " --format gluon");
    CHECK(g.status == 1);
    CHECK(g.out.empty());
    CHECK(g.err.find("must be surjective") != std::string::npos);
    CHECK(cli("layout --linear " + file + " --format linear").status == 0);  // other forms print it as it is
    L.reg.push_back({8, 0});
    L.reg.push_back({16, 0});
    CHECK_NOTHROW(ls::render_distributed_linear(L, 64));
    std::filesystem::remove(file);
}

TEST_CASE("header --namespace: every :: part a C++ identifier, and main, std, _ and __ names refused with nothing written") {
    const std::string q = "header -a gfx942 -i v_mfma_f32_32x32x8_f16 --namespace ";
    const auto dir = std::filesystem::temp_directory_path() / "lanescope_ns_test";
    std::filesystem::create_directories(dir);
    const std::string out = (dir / "h.hpp").string();
    for (const char* bad : {"main", "std", "std2", "posix", "_x", "__x", "a__b", "_Upper", "a::__b", "a::", "::a",
                            "a:::b", "a::int", "int", "9a", "a-b", "a b", "a::b::", "a:b"}) {
        std::filesystem::remove(out);
        Run r = cli(q + "'" + bad + "' -o " + out);
        INFO(bad << ": " << r.err);
        CHECK(r.status == 1);
        CHECK(r.err.find("--namespace") != std::string::npos);
        CHECK(r.err.find("legal:") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
    }
    // Legal ones compile in a program that has main (the host compiler, C++17 nested namespaces).
    for (const char* good : {"kernels", "a::b", "my_ns::main", "x1::_y"}) {
        Run r = cli(q + "'" + good + "' -o " + out);
        INFO(good << ": " << r.err);
        REQUIRE(r.status == 0);
        std::ofstream((dir / "main.cpp").string()) << "#include \"h.hpp\"\nint main() { return 0; }\n";
        Run build = lstest::run_command("cd " + dir.string() + " && c++ -std=c++17 -fsyntax-only -Wall -Werror main.cpp");
        INFO(build.out << build.err);
        CHECK(build.status == 0);
    }
    std::filesystem::remove_all(dir);
}
