// Blackwell scale factors: 2-CTA SFB, .ws.sp metadata copies, ue4m3's name and the
// scale-factor path from memory. Expectations are CUTLASS's formulas evaluated here
// (sm100_blockscaled_layout.hpp's atom ((32,4),(VS,4)):((16,4),(0,1)), tile_to_shape with
// Step<_2,_1,_3>; the 2x1SM SFB over the whole N; ScaleFactorDuplicated2by2 with N rounded up
// to 128; tmem_e_frg_ws's copies; SM100_UTCCP_4x32dp128bit: row l -> lanes l + 32p), never
// lanescope's own output. Not confirmed on hardware.
#include "lanescope/lanescope.hpp"
#include "lanescope/blackwell.hpp"
#include "lanescope/render.hpp"
#include "lanescope/scale_factors.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

namespace ls = lanescope;

namespace {
const ls::Target& sm100a() { return ls::Catalog::target("sm_100a"); }
const ls::Instruction& find(const std::string& name) {
    return ls::Catalog::builtin(sm100a().family).find_instruction(sm100a(), name);
}
std::set<std::pair<int, int>> lanes_cols(const ls::Instruction& ins, ls::Operand op, int r, int c) {
    const ls::OperandLayout L = ls::layout_of(ins, sm100a(), op, ls::Modifiers{});
    std::set<std::pair<int, int>> out;
    for (const ls::Location& l : L.where({0, r, c})) out.insert({l.lane, l.reg});
    return out;
}
}  // namespace

TEST_CASE("scale factors: SFB of cta_group::2 M = 256 holds the whole N in both CTAs at column n/32", "[blackwell][sf]") {
    const ls::Instruction& ins = find("tcgen05_mma_m256n256k64_f32_e2m1_mxf4nvf4_4x_ue8m0_2cta");
    for (int n : {5, 130, 200, 255}) {
        std::set<std::pair<int, int>> want;
        for (int c = 0; c < 2; ++c)
            for (int p = 0; p < 4; ++p) want.insert({128 * c + 32 * p + n % 32, n / 32});
        CHECK(lanes_cols(ins, ls::Operand::SB, 1, n) == want);  // the old split put n = 200 at column 2 of CTA 1 only
    }
    CHECK(ls::layout_evidence(ins, ls::Operand::SB, ls::resolve_modifiers(ins, sm100a(), ls::Modifiers{})).confidence == "medium");
}

TEST_CASE("scale factors: SFB of cta_group::2 M = 128 is the 2x2 duplicated atom over N rounded up to 128", "[blackwell][sf]") {
    for (const char* name : {"tcgen05_mma_m128n64k64_f32_e2m1_mxf4nvf4_4x_ue8m0_2cta",
                             "tcgen05_mma_m128n192k64_f32_e2m1_mxf4nvf4_4x_ue8m0_2cta",
                             "tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_4x_ue8m0_2cta"}) {
        const ls::Instruction& ins = find(name);
        const int MN = (ins.n + 127) / 128 * 128, half = MN / 2;
        for (int n = 0; n < ins.n; n += 13) {
            std::set<std::pair<int, int>> want;
            for (int c = 0; c < 2; ++c)
                for (int q = 0; q < 2; ++q) want.insert({128 * c + n % 32 + 64 * (n / half) + 32 * q, (n % half) / 32});
            CHECK(lanes_cols(ins, ls::Operand::SB, 0, n) == want);
        }
    }
}

TEST_CASE("scale factors: .ws.sp metadata at M = 64 / 32 keeps 2 / 4 copies at lane strides 64 / 32", "[blackwell][sf]") {
    for (const char* name : {"tcgen05_mma_ws_sp_m64n128k64_f32_e4m3", "tcgen05_mma_ws_sp_m32n128k64_f32_e4m3"}) {
        const ls::Instruction& ins = find(name);
        const int copies = 128 / ins.m;
        for (int m : {0, 7, ins.m - 1}) {
            // 8-bit kinds: lane m, the 4-bit field of group k/4 (CUTLASS tmem_e_frg), then the copies.
            std::set<std::pair<int, int>> want;
            for (int i = 0; i < copies; ++i) want.insert({m + ins.m * i, 0});
            const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::K, ls::Modifiers{});
            std::set<std::pair<int, int>> got;
            for (const ls::Location& l : L.where({0, m, 4})) got.insert({l.lane, 0});
            CHECK(got == want);
        }
    }
}

TEST_CASE("scale factors: ue4m3 is named ue4m3; SFA / SFB are accepted as operand names", "[blackwell][sf]") {
    CHECK(ls::elem_name(ls::ElemType::UE4M3) == "ue4m3");
    CHECK(ls::parse_operand("SFA") == ls::Operand::SA);
    CHECK(ls::parse_operand("sfb") == ls::Operand::SB);
    CHECK(ls::parse_operand("SA") == ls::Operand::SA);
}

TEST_CASE("scale factors: the path from shared memory follows CUTLASS's atom and the 32x128b.warpx4 copy", "[blackwell][sf]") {
    const ls::Instruction& ins = find("tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_2x_ue8m0");
    const ls::ScaleFactorTile t = ls::scale_factor_tile(ins, ls::Operand::SB);
    for (int n = 0; n < 256; n += 7)
        for (int kb = 0; kb < 4; ++kb) {
            const ls::ScaleFactorPlace p = t.place(n, kb);
            // deduce_smem_layoutSFB: ((N_SFB/128,(32,4)),(VS,NSF)) : ((512,(16,4)),(0,1)), K groups outer.
            CHECK(p.smem_byte == static_cast<std::uint32_t>(512 * (n / 128) + 16 * (n % 32) + 4 * ((n / 32) % 4) + kb));
            CHECK(p.tmem_column == n / 32);
            CHECK(p.tmem_byte == kb);
            CHECK(p.sf_id == 2 * (kb / 2));  // 2X: SFB_ID 0 or 2 (PTX Table: 2X picks halfword 0 or 2)
            CHECK(p.j == kb % 2);
            CHECK(p.tmem_lanes == std::vector<int>{n % 32, 32 + n % 32, 64 + n % 32, 96 + n % 32});
            // The MMA's own TMEM layout (where --operand SFB --sfb-id) agrees with the copy's destination.
            ls::Modifiers m;
            m.sfb_id = p.sf_id;
            const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::SB, m);
            const auto w = L.where({0, p.j, n});
            REQUIRE(!w.empty());
            CHECK(w[0].reg == p.tmem_column);
            CHECK(w[0].bit_lo == 8 * p.tmem_byte);
        }
    // Global (tile_to_shape(atom, (MN, K, L), Step<_2,_1,_3>)): K = 512 elements, VS 32 -> 16 K-blocks, 4 groups.
    CHECK(ls::scale_factor_global_byte(130, 5, 16) == 512u * (4 * 1 + 1) + 16 * 2 + 4 * 0 + 1);
    // 2x2 SFB and K = 96 are refused, naming what is legal.
    CHECK_THROWS_WITH(ls::scale_factor_tile(find("tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_4x_ue8m0_2cta"), ls::Operand::SB),
                      Catch::Contains("legal here"));
}

TEST_CASE("scale factors: a K-block past this MMA's points at --sfa-id", "[blackwell][sf]") {
    const ls::Instruction& ins = find("tcgen05_mma_m128n256k32_f32_e4m3_mxf8f6f4_1x_ue8m0");
    const ls::OperandLayout L = ls::layout_of(ins, sm100a(), ls::Operand::SA, ls::Modifiers{});
    CHECK_THROWS_WITH(L.where({0, 0, 1}), Catch::Contains("--sfa-id"));
}

TEST_CASE("scale factors: K-blocks past the first 4 are the next groups along the K tile (deduce_smem_layoutSF*)",
          "[blackwell][sf]") {
    // CUTLASS deduce_smem_layoutSFA: ((MN/128,(32,4)),(VS,NSF),k-tile) with the K groups outermost: a group of 4
    // K-blocks is one 512-byte block per 128 rows; the next group follows at +512*ceil(MN/128).
    const ls::Instruction& ins = find("tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_2x_ue8m0");
    const ls::ScaleFactorTile sfb = ls::scale_factor_tile(ins, ls::Operand::SB);  // N = 256: 2 blocks per group
    for (int n : {0, 37, 130, 255})
        for (int kb : {4, 5, 9, 15}) {
            const ls::ScaleFactorPlace p = sfb.place(n, kb);
            CHECK(p.smem_byte ==
                  static_cast<std::uint32_t>(1024 * (kb / 4) + 512 * (n / 128) + 16 * (n % 32) + 4 * ((n / 32) % 4) + kb % 4));
            CHECK(p.copy == 2 * (kb / 4) + n / 128);  // one tcgen05.cp.32x128b.warpx4 per 512 bytes
            CHECK(p.mma == kb / 2);                   // 2X: two K-blocks per MMA
            CHECK(p.sf_id == 2 * ((kb % 4) / 2));     // PTX: 2X picks halfword 0 or 2 of the word
        }
    CHECK_THROWS_WITH(sfb.place(0, -1), Catch::Contains("legal"));
    CHECK_THROWS_WITH(sfb.place(256, 0), Catch::Contains("n 0..255"));
}

TEST_CASE("scale factors: the byte map holds each (m, kb) of a CTA once, padding past M", "[blackwell][sf]") {
    // SFB with N = 64: CUTLASS rounds the SF block up to 128 columns (Blk_MN), n = 64..127 padding.
    const ls::Instruction& ins = find("tcgen05_mma_m128n64k64_f32_e2m1_mxf4nvf4_4x_ue4m3");
    const ls::ScaleFactorTile t = ls::scale_factor_tile(ins, ls::Operand::SB);
    const auto map = t.byte_map();
    REQUIRE(map.size() == 512u);
    std::set<std::pair<int, int>> seen;
    int padding = 0;
    for (size_t b = 0; b < map.size(); ++b) {
        const auto [n, kb] = map[b];
        if (n < 0) {
            ++padding;
            // The atom's byte 16*(n%32) + 4*((n/32)%4) + kb: the padding bytes are those of n/32 = 2, 3.
            CHECK((b % 16) / 4 >= 2);
            continue;
        }
        CHECK(b == static_cast<size_t>(16 * (n % 32) + 4 * ((n / 32) % 4) + kb));
        CHECK(seen.insert({n, kb}).second);
    }
    CHECK(padding == 256);
    CHECK(seen.size() == 64u * 4u);
}

TEST_CASE("scale factors: one scale factor's answer names its byte, TMEM place and --sfa-id", "[blackwell][sf]") {
    const ls::Instruction& ins = find("tcgen05_mma_m128n256k32_f32_e4m3_mxf8f6f4_1x_ue8m0");
    const ls::ScaleFactorTile t = ls::scale_factor_tile(ins, ls::Operand::SA);
    // SFA(33, kb 2): byte 16*1 + 4*1 + 2 = 22; row 1 -> lanes 1, 33, 65, 97; column 1; 1X: MMA 2, SFA_ID 2 (byte 2).
    const std::string s = ls::scale_factor_answer(t, t.place(33, 2));
    CHECK_THAT(s, Catch::Contains("byte 22 ") && Catch::Contains("lanes 1, 33, 65, 97") && Catch::Contains("column 1 ") &&
                      Catch::Contains("bits 23:16") && Catch::Contains("MMA 2 with --sfa-id 2"));
}

TEST_CASE("sm_120 scale_vec::4X with ue8m0: PTX 9.1 allows it, CUDA 13.0 ptxas refuses it (a PTX-only row)",
          "[blackwell][sf][ptx-only]") {
    // PTX ISA 9.1 §1.3: "Adds support for .scale_vec::4X with .ue8m0 as .stype with .kind::mxf4nvf4 for mma/mma.sp".
    const ls::Target& t = ls::Catalog::target("sm_120a");
    const ls::Catalog& cat = ls::Catalog::builtin(t.family);
    const ls::Instruction& e8 = cat.find_instruction(t, "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue8m0");
    CHECK(ls::ptx_only(e8));
    CHECK(e8.scale_vec == 4);
    CHECK(e8.scale_type == ls::ElemType::E8M0);
    CHECK(e8.ptx_version == "9.1");
    const ls::Instruction& sp = cat.find_instruction(t, "mma_sp_m16n8k128_f32_e2m1_mxf4nvf4_4x_ue8m0");
    CHECK(ls::ptx_only(sp));
    // The ue4m3 form ptxas accepts is not PTX-only.
    CHECK_FALSE(ls::ptx_only(cat.find_instruction(t, "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue4m3")));
    // Its layout is the 4X one (PTX §9.7.14.5.14: the scale vector size, not the type, shapes SF_A): 4 per row.
    const ls::OperandLayout sa = ls::layout_of(e8, t, ls::Operand::SA, ls::Modifiers{});
    CHECK(sa.cols() == 4);
    CHECK(ls::render_info(ls::Query{&e8, &t, ls::resolve_modifiers(e8, t, ls::Modifiers{})}, ls::Format::Json)
              .find("\"ptx_only\": true") != std::string::npos);
}
