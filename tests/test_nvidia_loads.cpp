// NVIDIA register operands from shared memory: ldmatrix / stmatrix
// plans for mma.sync fragments, ld.shared / st.shared plans, and their banks
// under the NVIDIA phase model. Expectations: the ldmatrix recipes of PTX ISA
// §9.7.14.5.15 (lane L of .x4 gives &A[L % 16][8 * (L / 16)] for a row-major
// 16x16 A; .x2.trans &B[L % 16][0] for a K x N row-major B; both run end to end
// on an H200), the bank rule bank = (address / 4) % 32 with ldmatrix's phases
// of 8 row addresses and ld.shared.v2's half-warps, counted by hand below.
#include "helpers.hpp"
#include "shell_run.hpp"

#include "lanescope/memory.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace {

namespace ls = lanescope;

struct Q {
    const ls::Target* t;
    const ls::Instruction* ins;
    ls::Query q;
};
Q query(const std::string& arch, const std::string& name) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target(arch);
    const ls::Instruction& ins = cat.find_instruction(t, name);
    return {&t, &ins, ls::Query{&ins, &t, ls::resolve_modifiers(ins, t, ls::Modifiers{})}};
}

ls::MemoryRequest request(ls::Operand op, ls::MemoryOrder order, int ld, int bits, int pad = 0) {
    ls::MemoryRequest r;
    r.operand = op;
    r.tile.space = ls::MemorySpace::Lds;
    r.tile.order = order;
    r.tile.ld = ld;
    r.tile.pad = pad;
    r.tile.element_bits = bits;
    return r;
}

long long address_of(const ls::MemoryPlan& p, int issue, int lane) {
    for (const ls::MemoryOp& op : p.ops)
        if (op.issue == issue && op.lane == lane) return op.address;
    return -1;
}

lstest::Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }

}  // namespace

TEST_CASE("ldmatrix.x4 fills mma.m16n8k16 A from a row-major tile, lane L at &A[L%16][8*(L/16)]", "[nvload]") {
    const Q q = query("sm_80", "mma_m16n8k16_f32_f16");
    const ls::MemoryPlan p = ls::plan_memory(q.q, request(ls::Operand::A, ls::MemoryOrder::RowMajor, 16, 16));
    REQUIRE(p.instructions_per_wave == 1);
    REQUIRE(p.ops.size() == 32);
    CHECK(p.ops.front().mnemonic == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
    for (int lane = 0; lane < 32; ++lane) CHECK(address_of(p, 0, lane) == ((lane % 16) * 16 + 8 * (lane / 16)) * 2);
    // Every element of A is delivered once, to the lane and register the fragment names.
    std::set<std::pair<int, int>> seen;
    for (const ls::MemoryOp& op : p.ops)
        for (const ls::Delivery& d : op.delivers) CHECK(seen.insert({d.element.row, d.element.col}).second);
    CHECK(seen.size() == 256);
    // Rows 32 bytes apart: rows i and i+4 of each matrix share banks (128 bytes): 2 wavefronts per phase.
    REQUIRE(p.banks.size() == 1);
    CHECK(p.banks[0].passes.size() == 4);
    CHECK(p.banks[0].cycles == 8);
    CHECK(p.banks[0].minimum_cycles == 4);
    // Padding one 16-byte chunk per row: rows 48 bytes apart cover the 32 banks exactly once.
    const ls::MemoryPlan padded = ls::plan_memory(q.q, request(ls::Operand::A, ls::MemoryOrder::RowMajor, 16, 16, 8));
    CHECK(padded.banks.at(0).cycles == 4);
    for (int lane = 0; lane < 32; ++lane) CHECK(address_of(padded, 0, lane) == ((lane % 16) * 24 + 8 * (lane / 16)) * 2);
}

TEST_CASE("ldmatrix .trans follows the tile's order: B row-major K x N needs .x2.trans, B^T row-major .x2", "[nvload]") {
    const Q q = query("sm_80", "mma_m16n8k16_f32_f16");
    const ls::MemoryPlan rm = ls::plan_memory(q.q, request(ls::Operand::B, ls::MemoryOrder::RowMajor, 8, 16));
    REQUIRE(rm.ops.size() == 16);  // .x2: lanes 0-15 give addresses
    CHECK(rm.ops.front().mnemonic == "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16");
    for (int lane = 0; lane < 16; ++lane) CHECK(address_of(rm, 0, lane) == lane * 8 * 2);  // &B[L][0]
    CHECK(rm.banks.at(0).cycles == 2);  // 8 rows of 16 bytes back to back: conflict-free
    const ls::MemoryPlan cm = ls::plan_memory(q.q, request(ls::Operand::B, ls::MemoryOrder::ColMajor, 16, 16));
    CHECK(cm.ops.front().mnemonic == "ldmatrix.sync.aligned.m8n8.x2.shared.b16");
    // &B^T[L%8][8*(L/8)]: B^T rows (N) of 16 elements, 32 bytes apart -> 2-way per matrix.
    for (int lane = 0; lane < 16; ++lane) CHECK(address_of(cm, 0, lane) == ((lane % 8) * 16 + 8 * (lane / 8)) * 2);
    CHECK(cm.banks.at(0).cycles == 4);
    const ls::MemoryPlan acol = ls::plan_memory(q.q, request(ls::Operand::A, ls::MemoryOrder::ColMajor, 16, 16));
    CHECK(acol.ops.front().mnemonic == "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
}

TEST_CASE("8-bit A: ldmatrix.x4 from a row-major tile; column-major needs ld.shared (.trans moves 16-bit units)", "[nvload]") {
    const Q q = query("sm_80", "mma_m16n8k32_s32_s8");
    const ls::MemoryPlan rm = ls::plan_memory(q.q, request(ls::Operand::A, ls::MemoryOrder::RowMajor, 32, 8));
    CHECK(rm.ops.front().mnemonic == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
    const ls::MemoryPlan cm = ls::plan_memory(q.q, request(ls::Operand::A, ls::MemoryOrder::ColMajor, 16, 8));
    CHECK(cm.ops.front().mnemonic == "ld.shared.u8");
    REQUIRE_FALSE(cm.notes.empty());
    CHECK(cm.notes.front().find("ld.shared instead of ldmatrix") != std::string::npos);
}

TEST_CASE("ld.shared plans: f32 C by ld.shared.v2 in half-warp phases; --ld-shared for A; f64 A", "[nvload]") {
    const Q q = query("sm_80", "mma_m16n8k16_f32_f16");
    // C 16x8 f32 row-major: lane (g, t) holds D[g][2t..2t+1] (regs 0-1) and D[g+8][2t..2t+1] (regs 2-3).
    const ls::MemoryPlan c = ls::plan_memory(q.q, request(ls::Operand::C, ls::MemoryOrder::RowMajor, 8, 32));
    REQUIRE(c.instructions_per_wave == 2);
    CHECK(c.ops.front().mnemonic == "ld.shared.v2.b32");
    CHECK(address_of(c, 0, 13) == (3 * 8 + 2) * 4);  // lane 13: g 3, t 1
    CHECK(address_of(c, 1, 13) == (11 * 8 + 2) * 4);
    // Each half-warp reads 128 contiguous bytes: 1 wavefront per phase, 2 per instruction.
    for (const ls::BankReport& b : c.banks) {
        CHECK(b.passes.size() == 2);
        CHECK(b.cycles == 2);
    }
    ls::MemoryRequest r = request(ls::Operand::A, ls::MemoryOrder::RowMajor, 16, 16);
    r.ld_shared = true;
    const ls::MemoryPlan a = ls::plan_memory(q.q, r);
    REQUIRE(a.instructions_per_wave == 4);
    // ld.shared.b32 of A[g][2t..2t+1]: word 8g + t, so rows g and g+4 meet in a bank: 2 wavefronts.
    for (const ls::BankReport& b : a.banks) CHECK(b.cycles == 2);
    const Q f64 = query("sm_80", "mma_m8n8k4_f64");
    const ls::MemoryPlan d = ls::plan_memory(f64.q, request(ls::Operand::A, ls::MemoryOrder::RowMajor, 4, 64));
    CHECK(d.ops.front().mnemonic == "ld.shared.v2.b32");
    CHECK(d.ops.front().bytes == 8);
}

TEST_CASE("stmatrix stores an f16 D on sm_90; before sm_90 st.shared, with the reason", "[nvload]") {
    ls::MemoryRequest r = request(ls::Operand::D, ls::MemoryOrder::RowMajor, 8, 16);
    r.store = true;
    const Q h = query("sm_90a", "mma_m16n8k16_f16_f16");
    const ls::MemoryPlan s90 = ls::plan_memory(h.q, r);
    CHECK(s90.ops.front().mnemonic == "stmatrix.sync.aligned.m8n8.x2.shared.b16");
    for (int lane = 0; lane < 16; ++lane) CHECK(address_of(s90, 0, lane) == lane * 16);  // &D[L][0]
    const Q a = query("sm_80", "mma_m16n8k16_f16_f16");
    const ls::MemoryPlan s80 = ls::plan_memory(a.q, r);
    CHECK(s80.ops.front().mnemonic == "st.shared.b32");
    REQUIRE_FALSE(s80.notes.empty());
    CHECK(s80.notes.front().find("sm_90") != std::string::npos);
}

TEST_CASE("NVIDIA plans refuse what does not exist, saying what is legal", "[nvload]") {
    const Q q = query("sm_80", "mma_m16n8k16_f32_f16");
    ls::MemoryRequest r = request(ls::Operand::A, ls::MemoryOrder::RowMajor, 16, 16);
    r.transpose = true;
    CHECK_THROWS_WITH(ls::plan_memory(q.q, r), Catch::Contains("ldmatrix's .trans"));
    r.transpose = false;
    r.tile.space = ls::MemorySpace::Global;
    CHECK_THROWS_WITH(ls::plan_memory(q.q, r), Catch::Contains("--memory smem"));
    const Q amd = query("gfx942", "v_mfma_f32_32x32x8_f16");
    ls::MemoryRequest ra = request(ls::Operand::A, ls::MemoryOrder::RowMajor, 8, 16);
    ra.ld_shared = true;
    CHECK_THROWS_WITH(ls::plan_memory(amd.q, ra), Catch::Contains("--ld-shared"));
}

TEST_CASE("load --sweep on NVIDIA ranks ldmatrix layouts and reaches the 4-wavefront minimum of a 16x16 f16 A", "[nvload]") {
    const Q q = query("sm_80", "mma_m16n8k16_f32_f16");
    const ls::SweepReport s = ls::sweep_memory(q.q, request(ls::Operand::A, ls::MemoryOrder::RowMajor, 16, 16));
    CHECK(s.minimum == 4);  // 512 bytes / 128 bytes per wavefront
    CHECK(s.reaches_minimum);
    REQUIRE_FALSE(s.rows.empty());
    CHECK(s.rows.front().cost == 4);
    CHECK(s.rows.front().instructions.at(0).first.rfind("ldmatrix", 0) == 0);
    // The given layout (no options) costs 8; ld.shared twins are ranked too.
    bool plain = false, ld_shared = false;
    for (const ls::SweepRow& x : s.rows) {
        if (x.candidate.options().empty()) {
            plain = true;
            CHECK(x.cost == 8);
        }
        ld_shared |= x.candidate.ld_shared;
    }
    CHECK(plain);
    CHECK(ld_shared);
}

TEST_CASE("lanescope-cli load --memory smem plans ldmatrix for mma.sync and keeps the load JSON contract", "[nvload][cli]") {
    const lstest::Run r = cli("load -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --memory smem --format json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["memory"]["space"] == "smem");
    CHECK(j["instructions_per_wave"] == 1);
    CHECK(j["loads"].size() == 32);
    CHECK(j["loads"][0]["mnemonic"] == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
    CHECK(j["entries"].size() == 256);
    REQUIRE(j["banks"].size() == 1);
    CHECK(j["banks"][0]["wavefronts"] == 8);
    CHECK(j["banks"][0]["cycles"] == 8);
    CHECK(j["banks"][0]["passes"].size() == 4);
    const lstest::Run bad = cli("load -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --memory global");
    CHECK(bad.status == 1);
    CHECK(bad.err.find("legal: smem") != std::string::npos);
    const lstest::Run hip = cli("load -a sm_80 -i mma_m16n8k16_f32_f16 --operand A --format hip");
    CHECK(hip.status == 1);
}

TEST_CASE("figure --memory smem draws an ldmatrix plan with its banks per phase", "[nvload][cli]") {
    const auto path = lstest::temp_path("nvload_fig.svg");
    const lstest::Run r =
        cli("figure --memory smem -a sm_80 -i mma_m16n8k16_f32_f16 --operand A -o " + path.string());
    REQUIRE(r.status == 0);
    std::ifstream in(path);
    const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(svg.find("ldmatrix.sync.aligned.m8n8.x4.shared.b16") != std::string::npos);
    CHECK(svg.find("4 phases, 8 wavefronts vs conflict-free minimum 4") != std::string::npos);
    CHECK(svg.find("in shared memory") != std::string::npos);
    std::filesystem::remove(path);
}
