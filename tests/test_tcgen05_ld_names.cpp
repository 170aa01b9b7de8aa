// tcgen05.ld loads named as they exist, one model of the CTA pair, the search for the standard
// Blackwell GEMM and where info says the operands live.
//
// Expectations come from PTX ISA §9.7.16.8.3 (tcgen05.ld: .num is .x1, .x2, .x4 .. .x128) and its
// Table 49 (32-bit registers per thread of one load: 32x32b, 16x64b, 16x32bx2 num; 16x128b 2*num;
// 16x256b 4*num), computed here; from §9.7.16.8.1 (warp w of a warpgroup reaches TMEM lanes
// 32*(w%4) .. +31 of its own CTA) and CUTLASS's 2-SM CLayout (2,(M/2,N)):(M/2,(1,M)) (CTA c of
// an M = 256 pair holds rows 128c .. 128c+127). Nothing here ran on Blackwell hardware.
#include "lanescope/lanescope.hpp"
#include "lanescope/search.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace ls = lanescope;

namespace {

const ls::Target& sm100a() { return ls::Catalog::target("sm_100a"); }

// PTX §9.7.16.8.3 / Table 49: the largest .num of a shape and the registers of one .x1 load.
struct Shape {
    const char* name;
    int max_num, regs_x1;
};
constexpr Shape kShapes[] = {{"32x32b", 128, 1}, {"16x64b", 128, 1}, {"16x128b", 64, 2}, {"16x256b", 32, 4}, {"16x32bx2", 128, 1}};
int regs_per_load(const std::string& shape, int num) {
    for (const Shape& s : kShapes)
        if (shape == s.name) return s.regs_x1 * num;
    return 0;
}

const ls::Instruction& ins_named(const std::string& name) { return ls::Catalog::builtin().find_instruction(sm100a(), name); }

ls::ResolvedModifiers read_back(const ls::Instruction& ins, const std::string& load, int warps = 4) {
    ls::Modifiers m;
    const auto v = ls::parse_modifier_value("tmem_load", load);
    REQUIRE(v.has_value());
    m.tmem_load = *v;
    m.num_warps = warps;
    return ls::resolve_modifiers(ins, sm100a(), m);
}

std::string run(const std::string& args) {
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen((std::string(LANESCOPE_CLI) + " " + args + " 2>&1").c_str(), "r"), pclose);
    std::array<char, 4096> buf{};
    while (p && fgets(buf.data(), buf.size(), p.get())) out += buf.data();
    return out;
}

}  // namespace

TEST_CASE("tmem-load names every PTX .num of every shape, and no other") {
    for (const Shape& s : kShapes) {
        INFO(s.name);
        CHECK(ls::parse_modifier_value("tmem_load", s.name).has_value());  // the bare shape: the fewest loads
        for (int num = 1; num <= 256; num *= 2) {
            const std::string name = std::string(s.name) + ".x" + std::to_string(num);
            INFO(name);
            CHECK(ls::parse_modifier_value("tmem_load", name).has_value() == (num <= s.max_num));
        }
        CHECK_FALSE(ls::parse_modifier_value("tmem_load", std::string(s.name) + ".x3").has_value());
        CHECK_FALSE(ls::parse_modifier_value("tmem_load", std::string(s.name) + ".x0").has_value());
    }
}

TEST_CASE("a 128x256 f32 D read back by 4 warps: which load and which register of it holds an element") {
    const ls::Instruction& ins = ins_named("tcgen05_mma_m128n256k16_f32_f16");
    // 128 x 256 f32 over 128 threads: 256 registers each.
    const int regs = 128 * 256 / 128;
    for (const char* load : {"32x32b", "32x32b.x128", "32x32b.x64", "32x32b.x8", "16x256b", "16x256b.x32", "16x256b.x8",
                             "16x128b.x64", "16x64b.x16"}) {
        INFO(load);
        const std::string text = load;
        const std::string shape = text.substr(0, text.find('.'));
        const int num = text.find(".x") == std::string::npos ? 0 : std::stoi(text.substr(text.find(".x") + 2));
        const ls::ResolvedModifiers mods = read_back(ins, load);
        const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::D, mods);
        REQUIRE(L.regs() == regs);
        // Without a .num: the fewest legal loads, each the largest one PTX allows for the shape.
        int max_num = 0;
        for (const Shape& s : kShapes)
            if (shape == s.name) max_num = s.max_num;
        const int per_load = regs_per_load(shape, num ? num : std::min(max_num, regs / regs_per_load(shape, 1)));
        const std::string ptx = "tcgen05.ld.sync.aligned." + shape + ".x" + std::to_string(per_load / regs_per_load(shape, 1)) + ".b32";
        CHECK(L.formula().find(".x256") == std::string::npos);
        for (const ls::Entry& e : L.entries()) {
            if (e.element.col % 37 != 5) continue;  // a sample
            const ls::PairSlot p = ls::pair_slot(ins, ls::Operand::D, mods, e.loc);
            CHECK(p.load == e.loc.reg / per_load);
            CHECK(p.load_reg == e.loc.reg % per_load);
            CHECK(p.loads == regs / per_load);
            CHECK(p.load_ptx == ptx);
            CHECK(p.warp == e.loc.lane / 32);
            CHECK(p.warp == e.element.row / 32);  // §9.7.16.8.1: warp w reads lanes 32w .. 32w+31 (lane m = row m)
        }
    }
}

TEST_CASE("a .num past PTX's range or past what D gives each warp is refused with the legal list") {
    const ls::Instruction& ins = ins_named("tcgen05_mma_m128n64k16_f32_f16");
    // 64 columns: 16x256b reads 8 per message, so 8 repetitions: .x1 .. .x8 (PTX would allow .x32).
    try {
        read_back(ins, "16x256b.x16");
        FAIL("16x256b.x16 accepted on N = 64");
    } catch (const ls::Error& e) {
        const std::string what = e.what();
        for (int num = 1; num <= 64 / 8; num *= 2) CHECK(what.find("16x256b.x" + std::to_string(num)) != std::string::npos);
        CHECK(what.find("16x256b.x16,") == std::string::npos);
    }
    CHECK_NOTHROW(read_back(ins, "16x256b.x8"));
    const std::string out = run("where -a sm_100a -i tcgen05_mma_m128n256k16_f32_f16 --operand D --tmem-load 32x32b.x256 --row 0 --col 0");
    CHECK(out.find("32x32b.x1 .. .x128") != std::string::npos);  // the refusal lists what is legal (PTX: up to .x128)
}

TEST_CASE("the CTA pair in one model: CTA, TMEM lane or thread and warp within that CTA") {
    const ls::Instruction& ins = ins_named("tcgen05_mma_m256n256k16_f32_f16_2cta");
    const ls::ResolvedModifiers plain = ls::resolve_modifiers(ins, sm100a(), ls::Modifiers{});
    const int m = 205, n = 3;
    const int cta = m / 128, lane_in_cta = m % 128;  // Layout A (CUTLASS 2x1SM CLayout)
    for (const ls::Location& l : ls::layout_of(ins, sm100a(), ls::Operand::D, plain).where({0, m, n})) {
        const ls::PairSlot p = ls::pair_slot(ins, ls::Operand::D, plain, l);
        CHECK(p.pair);
        CHECK(p.cta == cta);
        CHECK(p.lane == lane_in_cta);
    }
    for (const char* load : {"16x256b", "32x32b", "16x128b"}) {
        INFO(load);
        const ls::ResolvedModifiers mods = read_back(ins, load);
        const auto locs = ls::layout_of(ins, sm100a(), ls::Operand::D, mods).where({0, m, n});
        REQUIRE(locs.size() == 1);
        const ls::PairSlot p = ls::pair_slot(ins, ls::Operand::D, mods, locs[0]);
        CHECK(p.cta == cta);
        CHECK(p.lane < 128);                  // a thread of its own CTA's 4 warps
        CHECK(p.warp == lane_in_cta / 32);    // §9.7.16.8.1: the warp of the TMEM lane quarter
        CHECK(p.warp == p.lane / 32);
    }
    // The CLI says the same in where's JSON (fields added beside lane / reg).
    const auto j = nlohmann::json::parse(run("where -a sm_100a -i tcgen05_mma_m256n256k16_f32_f16_2cta --operand D --row 205 "
                                             "--col 3 --tmem-load 16x256b --format json"));
    CHECK(j["locations"][0]["cta"] == cta);
    CHECK(j["locations"][0]["warp"] == lane_in_cta / 32);
    const auto t = nlohmann::json::parse(
        run("where -a sm_100a -i tcgen05_mma_m256n256k16_f32_f16_2cta --operand D --row 205 --col 3 --format json"));
    CHECK(t["locations"][0]["cta"] == cta);
    CHECK(t["locations"][0]["tmem_lane"] == lane_in_cta);
}

TEST_CASE("search finds the standard Blackwell GEMM by its words and by its exact short name") {
    const std::string want = "tcgen05_mma_m128n256k16_f32_f16";
    for (const char* q : {"tcgen05 m128n256k16 f32 f16", "tcgen05_mma_m128n256k16_f32_f16"}) {
        INFO(q);
        const auto hits = ls::search(ls::Catalog::builtin(), sm100a(), q);
        REQUIRE_FALSE(hits.empty());
        CHECK(hits.front().ins->short_name == want);
        CHECK(hits.front().ins->m == 128);
        CHECK(hits.front().ins->n == 256);
        CHECK(hits.front().ins->k == 16);
    }
}

TEST_CASE("info counts no registers for operands in shared memory or Tensor Memory") {
    const auto j = nlohmann::json::parse(run("info -a sm_100a -i tcgen05_mma_m128n256k16_f32_f16 --format json"));
    for (const char* op : {"A", "B", "C", "D"}) {
        INFO(op);
        CHECK(j["registers"][op] == 0);
        CHECK(j["operand_spaces"][op] != "registers");
    }
    CHECK(j["operand_spaces"]["B"] == "smem");
    CHECK(j["operand_spaces"]["D"] == "tmem");
    const auto w = nlohmann::json::parse(run("info -a sm_90 -i wgmma_m64n128k16_f32_f16 --format json"));
    CHECK(w["registers"]["B"] == 0);
    CHECK(w["operand_spaces"]["B"] == "smem");
    CHECK(w["registers"]["D"] == 64 * 128 / 128);  // wgmma D: M x N over a warpgroup's 128 threads
    const std::string text = run("info -a sm_100a -i tcgen05_mma_m128n256k16_f32_f16");
    CHECK(text.find("A, B in shared memory") != std::string::npos);
    CHECK(text.find("C, D in Tensor Memory") != std::string::npos);
}
