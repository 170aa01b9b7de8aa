// Labels in each Space: a TMEM cell is named by its lane and
// column ("L5 c7"), a shared-memory element by its byte address and bank
// ("0x0496 b5"), never by a register and thread that do not exist; register
// operands keep PTX's names. Expectations come from the PTX ISA: Layout D of
// tcgen05.mma puts D[m][n] at TMEM lane m, column n (§9.7.16.10.5, M = 128,
// cta_group::1); the canonical K-major layouts as byte formulas (wgmma
// §9.7.15.5.1.2: lin = (n%8)*W + (n/8)*SBO + k*e for swizzle width W, the 128B
// swizzle XOR-ing address bits [7,10) into [4,7): CuTe's Swizzle<3,4,3>); the
// bank of a byte address is (address/4) % 32.
#include "lanescope/lanescope.hpp"
#include "lanescope/palette.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

namespace ls = lanescope;

namespace {
lstest::Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }

std::string hex4(int a) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04X", a);
    return buf;
}

const ls::Instruction& tcgen05(const char* name) {
    return ls::Catalog::builtin(ls::Family::Blackwell).find_instruction(ls::Catalog::target("sm_100a"), name);
}
}  // namespace

TEST_CASE("TMEM cells are named by lane and column: Layout D puts D[m][n] at (m, n)", "[spaces][tmem]") {
    const ls::Instruction& ins = tcgen05("tcgen05_mma_m128n64k16_f32_f16");
    const ls::Target& t = ls::Catalog::target("sm_100a");
    const ls::OperandLayout L = ls::layout_of(ins, t, ls::Operand::D, ls::resolve_modifiers(ins, t, {}));
    REQUIRE(L.space() == ls::Space::TensorMemory);
    for (int m : {0, 5, 31, 32, 77, 127})
        for (int n : {0, 7, 63}) {
            const auto locs = L.where({0, m, n});
            REQUIRE(locs.size() == 1);
            const std::string label = ls::cell_label_text(ins, ls::Operand::D, locs[0], 32, ":", L.space());
            CHECK(label == "L" + std::to_string(m) + " c" + std::to_string(n));
            CHECK(ls::reg_column_text(ins, ls::Operand::D, locs[0], 32, L.space()) == std::to_string(n));
            CHECK(ls::lane_column_text(locs[0], L.space()) == std::to_string(m));
        }
    CHECK(ls::location_column_titles(ls::Space::TensorMemory) == std::make_pair(std::string("column"), std::string("tmem_lane")));
    CHECK(ls::register_text(ins, ls::Operand::D, 7, 32, ls::Space::TensorMemory) == "col 7");
    CHECK(ls::lane_axis_text(ins, 5, ls::Space::TensorMemory) == "lane 5");
    // The lane quarter is the warp w%4 that may access it (PTX ISA §9.7.16.2.1): 32 lanes each.
    CHECK(ls::space_lane_group(ins, ls::Space::TensorMemory, 31) == 0);
    CHECK(ls::space_lane_group(ins, ls::Space::TensorMemory, 32) == 1);
    CHECK(ls::space_lane_group(ins, ls::Space::TensorMemory, 127) == 3);
    CHECK(ls::lane_group_text(ins, ls::Space::TensorMemory, 1).find("warp w%4 = 1") != std::string::npos);
}

TEST_CASE("cta_group::2 names the CTA of a TMEM lane", "[spaces][tmem]") {
    const ls::Instruction& ins = tcgen05("tcgen05_mma_m128n64k16_f32_f16");
    ls::Instruction pair = ins;
    pair.cta_group = 2;
    CHECK(ls::cell_label_text(pair, ls::Operand::D, ls::Location{7, 133, 0, 31}, 32, ":", ls::Space::TensorMemory) == "CTA1 L5 c7");
    CHECK(ls::cell_label_text(pair, ls::Operand::D, ls::Location{7, 5, 0, 31}, 32, ":", ls::Space::TensorMemory) == "CTA0 L5 c7");
    CHECK(ls::lane_axis_text(pair, 133, ls::Space::TensorMemory) == "CTA1 lane 5");
}

TEST_CASE("shared-memory elements are named by byte address and bank (wgmma B, K-major 128B)", "[spaces][smem]") {
    const ls::Target& t = ls::Catalog::target("sm_90a");
    const ls::Instruction& ins = ls::Catalog::builtin(ls::Family::Hopper).find_instruction(t, "wgmma_m64n128k16_f32_f16");
    ls::Modifiers m;
    m.smem_major = 0;  // K-major
    m.swizzle = 3;     // 128B
    m.sbo = 1024;      // 8 rows of 128 bytes (CUTLASS's value)
    m.smem_address = 0;
    const ls::OperandLayout L = ls::layout_of(ins, t, ls::Operand::B, ls::resolve_modifiers(ins, t, m));
    REQUIRE(L.space() == ls::Space::SharedMemory);
    for (int k : {0, 3, 15})
        for (int n : {0, 9, 64, 127}) {
            const int lin = (n % 8) * 128 + (n / 8) * 1024 + k * 2;
            const int address = lin ^ (((lin >> 7) & 7) << 4);
            const auto locs = L.where({0, k, n});
            REQUIRE(locs.size() == 1);
            const std::string bank = std::to_string((address / 4) % 32);
            CHECK(ls::cell_label_text(ins, ls::Operand::B, locs[0], 16, ":", L.space()) == hex4(address) + " b" + bank);
            CHECK(ls::reg_column_text(ins, ls::Operand::B, locs[0], 16, L.space()) == hex4(address));
            CHECK(ls::lane_column_text(locs[0], L.space()) == bank);
        }
    CHECK(ls::location_column_titles(ls::Space::SharedMemory) == std::make_pair(std::string("address"), std::string("bank")));
}

TEST_CASE("register operands keep PTX's names beside operands in other spaces", "[spaces]") {
    const ls::Target& t = ls::Catalog::target("sm_90a");
    const ls::Instruction& ins = ls::Catalog::builtin(ls::Family::Hopper).find_instruction(t, "wgmma_m64n128k16_f32_f16");
    // PTX's D fragment of wgmma: d0 is thread 0's first register (§9.7.15.5.1.1).
    CHECK(ls::cell_label_text(ins, ls::Operand::D, ls::Location{0, 0, 0, 31}, 32, ":", ls::Space::Registers) == "d0:T0");
    CHECK(ls::location_column_titles(ls::Space::Registers) == std::make_pair(std::string("reg"), std::string("lane")));
}

TEST_CASE("the CLI speaks each space's terms", "[spaces][cli]") {
    SECTION("TMEM D: lane and column, no register or thread") {
        const auto r = cli("where -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand D --row 5 --col 7");
        REQUIRE(r.status == 0);
        CHECK(r.out.find("L5 c7") != std::string::npos);
        CHECK(r.out.find("column") != std::string::npos);
        CHECK(r.out.find("tmem_lane") != std::string::npos);
        CHECK(r.out.find("d7") == std::string::npos);
        CHECK(r.out.find("T5") == std::string::npos);
        const auto j = cli("where -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand D --row 5 --col 7 --format json");
        REQUIRE(j.status == 0);
        const auto doc = nlohmann::json::parse(j.out);
        const auto& loc = doc.at("locations").at(0);
        CHECK(loc.at("lane") == 5);  // the promised fields keep their meaning
        CHECK(loc.at("reg") == 7);
        CHECK(loc.at("label") == "L5 c7");
        CHECK_FALSE(loc.contains("ptx"));
    }
    SECTION("shared-memory B: the label is the JSON's address and bank") {
        const auto j = cli("where -a sm_90a -i wgmma_m64n128k16_f32_f16 --operand B --row 3 --col 9 --format json");
        REQUIRE(j.status == 0);
        const auto doc = nlohmann::json::parse(j.out);
        const auto& loc = doc.at("locations").at(0);
        const int address = 128 * loc.at("lane").get<int>() + 4 * loc.at("reg").get<int>() + loc.at("bit_lo").get<int>() / 8;
        CHECK(loc.at("label") == hex4(address) + " b" + std::to_string((address / 4) % 32));
        CHECK(doc.at("confidence") == "high");
        CHECK(doc.at("confidence_sources").get<std::string>().find("make_gmma_desc") != std::string::npos);
        const auto r = cli("where -a sm_90a -i wgmma_m64n128k16_f32_f16 --operand B --row 3 --col 9");
        REQUIRE(r.status == 0);
        CHECK(r.out.find("address") != std::string::npos);
        CHECK(r.out.find("b11:T9") == std::string::npos);
    }
    SECTION("tcgen05 B in shared memory has the descriptor's evidence, not the scale factors'") {
        const auto j = cli("layout -a sm_100a -i tcgen05_mma_m128n64k16_f32_f16 --operand B --format json");
        REQUIRE(j.status == 0);
        CHECK(j.out.find("scales layout agree") == std::string::npos);
        CHECK(j.out.find("make_umma_desc") != std::string::npos);
        CHECK(j.out.find("not confirmed on hardware") != std::string::npos);
    }
}
