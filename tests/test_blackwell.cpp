// NVIDIA Blackwell catalog (core/catalog/blackwell.txt) and the sm_120 block-scaled
// mma.sync layouts. Expectations come from CUDA 13.0 ptxas's acceptance (as
// PTX ISA §9.7.16 / §9.7.14.5.14 state it and scripts/ptxas-matrix.sh measured),
// PTX's tables and CUTLASS's SM120 CuTe layouts, evaluated here independently.
#include "lanescope/blackwell.hpp"
#include "lanescope/lanescope.hpp"
#include "lanescope/search.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

namespace ls = lanescope;

namespace {
const ls::Instruction& find(const std::string& arch, const std::string& name) {
    const ls::Target& t = ls::Catalog::target(arch);
    return ls::Catalog::builtin(t.family).find_instruction(t, name);
}
std::string refusal(const std::string& arch, const std::string& name) {
    try {
        find(arch, name);
    } catch (const ls::Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("blackwell catalog: the catalog text passes every check", "[blackwell]") {
    REQUIRE_NOTHROW(ls::Catalog::check_builtin());
}

TEST_CASE("blackwell catalog: short names decode kind, cta_group, shape and types", "[blackwell]") {
    const ls::Instruction& a = find("sm_100a", "tcgen05_mma_m128n256k16_f32_f16");
    CHECK(a.kind == ls::LayoutKind::Tcgen05Mma);
    CHECK(a.mnemonic == "tcgen05.mma.cta_group::1.kind::f16");
    CHECK(a.mma_kind == "f16");
    CHECK(a.cta_group == 1);
    CHECK((a.m == 128 && a.n == 256 && a.k == 16));
    CHECK((a.a == ls::ElemType::F16 && a.b == ls::ElemType::F16 && a.c == ls::ElemType::F32));
    CHECK_FALSE(a.a_in_tmem);
    CHECK_FALSE(a.ws);
    CHECK_FALSE(a.sparse());

    const ls::Instruction& b = find("sm_100a", "tcgen05_mma_sp_m256n256k128_f32_e2m1_mxf4nvf4_4x_ue4m3_2cta_ts");
    CHECK(b.mnemonic == "tcgen05.mma.sp.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X");
    CHECK(b.cta_group == 2);
    CHECK(b.tcgen05_sparse);
    CHECK(b.sparse());
    CHECK(b.a_in_tmem);
    CHECK(b.scale_vec == 4);
    CHECK(b.scale_block == 0);
    CHECK(b.scale_type == ls::ElemType::UE4M3);
    CHECK(b.k == 128);  // sparse mxf4nvf4: K doubled (PTX Table 39)

    const ls::Instruction& ws = find("sm_100a", "tcgen05_mma_ws_m32n64k32_s32_s8_u8");
    CHECK(ws.ws);
    CHECK(ws.mma_kind == "i8");
    CHECK((ws.a == ls::ElemType::S8 && ws.b == ls::ElemType::U8 && ws.c == ls::ElemType::S32));

    // block32 at K = 64 (mxf4): 2 factors per row; block16 at K = 96 (sm_103a): 6.
    CHECK(find("sm_100a", "tcgen05_mma_m128n8k64_f32_e2m1_mxf4_block32_ue8m0").scale_vec == 2);
    const ls::Instruction& k96 = find("sm_103a", "tcgen05_mma_m256n256k96_f32_e2m1_mxf4nvf4_block16_ue4m3_2cta");
    CHECK(k96.scale_vec == 6);
    CHECK(k96.scale_block == 16);
    CHECK(k96.targets == std::vector<std::string>{"sm_103a"});
}

TEST_CASE("blackwell catalog: the PTX spelling alone names the row's first instruction", "[blackwell]") {
    const ls::Instruction& r = find("sm_100a", "tcgen05.mma.cta_group::2.kind::tf32");
    CHECK((r.m == 256 && r.n == 256 && r.k == 8 && r.a == ls::ElemType::TF32));
    CHECK(r.short_name == "tcgen05_mma_m256n256k8_f32_tf32_2cta");
    CHECK(&find("sm_100a", "TCGEN05.MMA.CTA_GROUP::2.KIND::TF32") == &r);  // any case; built once
}

TEST_CASE("blackwell catalog: tcgen05.ld/st fields (m = lanes, n = bits per lane x num)", "[blackwell]") {
    const ls::Instruction& ld = find("sm_100a", "tcgen05.ld.sync.aligned.16x256b.x8.b32");
    CHECK(ld.kind == ls::LayoutKind::Tcgen05LdSt);
    CHECK(ld.tmem_shape == "16x256b");
    CHECK(ld.tmem_num == 8);
    CHECK((ld.m == 16 && ld.n == 2048 && ld.k == 0));
    CHECK_FALSE(ld.store);
    CHECK_FALSE(ld.pack16);
    REQUIRE(ld.stated_regs.size() == 1);
    CHECK(ld.stated_regs[0].second == 32);  // 4 x num registers (PTX Table 49)
    CHECK(ld.short_name == "tcgen05_ld_16x256b_x8");

    const ls::Instruction& st = find("sm_110a", "tcgen05_st_16x32bx2_x128_unpack16");
    CHECK(st.store);
    CHECK(st.pack16);
    CHECK(st.mnemonic == "tcgen05.st.sync.aligned.16x32bx2.x128.unpack::16b.b32");
    CHECK((st.m == 16 && st.n == 32 * 128));

    // .num is bounded per shape: 16x128b stops at .x64 (ptxas: "Illegal vector size: 256").
    CHECK(refusal("sm_100a", "tcgen05.ld.sync.aligned.16x128b.x128.b32").find("legal: .x1") != std::string::npos);

    const ls::Instruction& cp = find("sm_100a", "tcgen05.cp.cta_group::2.64x128b.warpx2::02_13.b8x16.b6x16_p32");
    CHECK(cp.kind == ls::LayoutKind::Tcgen05Cp);
    CHECK(cp.tmem_shape == "64x128b.warpx2::02_13");
    CHECK(cp.cta_group == 2);
    CHECK((cp.m == 64 && cp.n == 128));
}

TEST_CASE("blackwell catalog: legal exactly where CUDA 13.0 ptxas accepts it", "[blackwell]") {
    // kind::i8: sm_100a and sm_110a only (ptxas: "Feature '.kind::i8' not supported on .target 'sm_103a'").
    const std::string i8 = refusal("sm_103a", "tcgen05.mma.cta_group::1.kind::i8");
    CHECK(i8.find("is legal on sm_100a, sm_110a; not on sm_103a") != std::string::npos);
    CHECK(refusal("sm_110a", "tcgen05.mma.cta_group::1.kind::i8").empty());
    // tcgen05 is refused on sm_120a and on plain sm_100 (no a/f).
    CHECK(refusal("sm_120a", "tcgen05.ld.sync.aligned.32x32b.x1.b32").find("not on sm_120a") != std::string::npos);
    CHECK(refusal("sm_100", "tcgen05_mma_m128n256k16_f32_f16").find("not on sm_100 ") != std::string::npos);
    CHECK(refusal("sm_100f", "tcgen05_mma_m128n256k16_f32_f16").empty());
    // scale_vec needs an a target; block32 works on f.
    CHECK_FALSE(refusal("sm_100f", "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X").empty());
    CHECK(refusal("sm_100f", "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32").empty());
    // K = 96 only on sm_103a.
    CHECK(refusal("sm_100a", "tcgen05_mma_m256n256k96_f32_e2m1_mxf4_block32_ue8m0_2cta").find("K = 96 needs sm_103a") !=
          std::string::npos);
    // ld.red: sm_103a and sm_110a (and their f targets), never sm_100a.
    CHECK_FALSE(refusal("sm_100a", "tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32").empty());
    CHECK(refusal("sm_103a", "tcgen05.ld.red.sync.aligned.32x32b.x2.min.NaN.f32").empty());
    // Block-scaled mma.sync is sm_120's: refused on sm_100a; CUTLASS's qualifier order is accepted.
    const std::string mx = "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e2m1.f32.ue8m0";
    CHECK(refusal("sm_100a", mx).find("not on sm_100a") != std::string::npos);
    const ls::Instruction& m120 = find("sm_120a", mx);
    CHECK(&find("sm_121a", "mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e2m1.f32.ue8m0") ==
          &m120);
    CHECK(m120.kind == ls::LayoutKind::MmaBlockScale);
    CHECK(m120.scale_vec == 1);
    // kind::f8f6f4 with fp8 types assembles on sm_100a too; with e2m1 it is sm_120's.
    CHECK(refusal("sm_100a", "mma_m16n8k32_f32_e4m3_e5m2_f8f6f4").empty());
    CHECK_FALSE(refusal("sm_100a", "mma_m16n8k32_f32_e2m1_f8f6f4").empty());
    // scale_vec::4X with ue8m0 is PTX 9.1's (§1.3) and CUDA 13.0's ptxas refuses it: the catalog has it as a
    // PTX-only row (laid out on sm_120a, marked PTX-only; conformance --ptxas expects ptxas's refusal), and
    // still only where PTX allows block-scaled mma.sync.
    CHECK(refusal("sm_120a", "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue8m0").empty());
    CHECK(ls::ptx_only(find("sm_120a", "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue8m0")));
    CHECK_THAT(refusal("sm_100a", "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue8m0"), Catch::Contains("PTX-only"));
    // Sparse mxf4 needs an a target.
    CHECK_FALSE(refusal("sm_120f", "mma_sp_m16n8k128_f32_e2m1_mxf4_2x_ue8m0").empty());
    CHECK(refusal("sm_121a", "mma_sp_m16n8k128_f32_e2m1_mxf4_2x_ue8m0").empty());
    // The Ampere/Hopper rows stay valid on Blackwell; wgmma does not.
    CHECK(refusal("sm_120", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32").empty());
    CHECK(refusal("sm_100a", "ldmatrix_x4").empty());
    CHECK_FALSE(refusal("sm_100a", "wgmma_m64n128k16_f32_f16").empty());
}

TEST_CASE("blackwell catalog: collector qualifiers and .ashift are accepted where ptxas takes them", "[blackwell]") {
    // ptxas 13.0: .collector::a::* and .ashift (A in TMEM) on the non-.ws forms, in either order;
    // .collector::b0..3::* on .ws; .ashift with a descriptor A and the crossed collectors are refused.
    const ls::Instruction& c = find("sm_100a", "tcgen05.mma.cta_group::1.kind::f16.collector::a::use");
    CHECK(c.mnemonic == "tcgen05.mma.cta_group::1.kind::f16");
    const ls::Instruction& sh = find("sm_100a", "tcgen05.mma.cta_group::1.kind::f16.collector::a::discard.ashift");
    CHECK(sh.a_in_tmem);
    CHECK(&find("sm_110a", "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b3::discard") ==
          &find("sm_110a", "tcgen05.mma.ws.cta_group::1.kind::i8"));
    CHECK_FALSE(refusal("sm_100a", "tcgen05.mma.ws.cta_group::1.kind::f16.collector::a::fill").empty());
    CHECK_FALSE(refusal("sm_100a", "tcgen05.mma.cta_group::1.kind::f16.collector::b0::fill").empty());
    CHECK_FALSE(refusal("sm_100a", "tcgen05.mma.ws.cta_group::1.kind::f16.ashift").empty());
    CHECK(refusal("sm_100a", "tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::fill").find("cannot be combined") !=
          std::string::npos);
    // ptxas refuses .ashift with every block-scaled kind, on every target.
    CHECK(refusal("sm_103a", "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.ashift").find("not legal") !=
          std::string::npos);
    // The collector does not change where the spelling is legal (i8 still not on sm_103a).
    CHECK(refusal("sm_103a", "tcgen05.mma.ws.cta_group::1.kind::i8.collector::b0::fill").find("not on sm_103a") !=
          std::string::npos);
}

TEST_CASE("blackwell catalog: bad shapes are refused with what is legal", "[blackwell]") {
    const std::string n = refusal("sm_100a", "tcgen05_mma_m128n264k16_f32_f16");
    CHECK(n.find("is not a shape") != std::string::npos);
    CHECK(n.find("8..256/8") != std::string::npos);
    // cta_group::2 N steps by 16; i8 cta_group::2 by 32.
    CHECK_FALSE(refusal("sm_100a", "tcgen05_mma_m256n24k16_f32_f16_2cta").empty());
    CHECK_FALSE(refusal("sm_100a", "tcgen05_mma_m256n48k32_s32_s8_2cta").empty());
    CHECK(refusal("sm_100a", "tcgen05_mma_m128n24k32_s32_s8").empty());  // PTX: N = 24 is legal with cta_group::1
    // .ws: cta_group::1, M 32/64/128, N 64/128/256.
    CHECK_FALSE(refusal("sm_100a", "tcgen05_mma_ws_m32n32k16_f32_f16").empty());
}

TEST_CASE("blackwell catalog: every spelling for the ptxas witness", "[blackwell]") {
    const std::vector<ls::Instruction> all = ls::blackwell_spellings();
    std::map<ls::LayoutKind, int> by_kind;
    std::set<std::string> names;
    for (const ls::Instruction& i : all) {
        ++by_kind[i.kind];
        CHECK(names.insert(i.short_name).second);
        CHECK_FALSE(i.targets.empty());
    }
    // tcgen05.mma: 4 kinds x 2 cta_groups x dense/sparse + .ws / .ws.sp x 4 kinds + 10 block-scaled spellings
    // x 2 x 2 (PTX §9.7.16.10.9), each with A from a descriptor and from TMEM.
    CHECK(by_kind[ls::LayoutKind::Tcgen05Mma] == 2 * (16 + 8 + 40));
    // tcgen05.ld + st: 37 shape x num, each plain and packed (CUTLASS's 74 TMEM load atoms, and the stores);
    // ld.red: 2 shapes x 7 nums x (8 f32 + 2 u32 + 2 s32).
    CHECK(by_kind[ls::LayoutKind::Tcgen05LdSt] == 2 * 74 + 2 * 7 * 12);
    CHECK(by_kind[ls::LayoutKind::Tcgen05Cp] == 2 * 6 * 3);
    const ls::Target& t = ls::Catalog::target("sm_103a");
    for (const ls::Instruction& i : all)
        if (i.mma_kind == "i8") CHECK_FALSE(ls::claimed_on(i, t));
}

// --- sm_120 block-scaled mma.sync layouts --------------------------------------

namespace {
// (thread, value index) of each element of an operand: value index = bit / element stride.
struct Owner {
    int lane, value;
};
std::map<std::pair<int, int>, Owner> owners(const ls::OperandLayout& L, int stride) {
    std::map<std::pair<int, int>, Owner> out;
    for (const auto& e : L.entries())
        out[{e.element.row, e.element.col}] = {e.loc.lane, (32 * e.loc.reg + e.loc.bit_lo) / stride};
    return out;
}
// A CuTe layout (shape, stride), modes flattened: coordinate -> index.
long cute(const std::vector<int>& shape, const std::vector<long>& stride, long flat) {
    long idx = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
        idx += (flat % shape[i]) * stride[i];
        flat /= shape[i];
    }
    return idx;
}
}  // namespace

TEST_CASE("sm_120 m16n8k64 e2m1 fragments equal CUTLASS SM120_16x8x64_TN_VS", "[blackwell][layouts]") {
    const ls::Instruction& ins = find("sm_120a", "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue4m3");
    const ls::Target& t = ls::Catalog::target("sm_120a");
    const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, {});
    // ALayout ((4,8),(8,2,2)):((128,1),(16,8,512)) : (thread, value) -> m + 16 k.
    const auto a = owners(ls::layout_of(ins, t, ls::Operand::A, mods), 4);
    REQUIRE(a.size() == 16 * 64);
    for (int thr = 0; thr < 32; ++thr)
        for (int v = 0; v < 32; ++v) {
            const long idx = cute({4, 8}, {128, 1}, thr) + cute({8, 2, 2}, {16, 8, 512}, v);
            const Owner o = a.at({static_cast<int>(idx % 16), static_cast<int>(idx / 16)});
            CHECK((o.lane == thr && o.value == v));
        }
    // BLayout ((4,8),(8,2)):((64,1),(8,256)) : (thread, value) -> n + 8 k.
    const auto b = owners(ls::layout_of(ins, t, ls::Operand::B, mods), 4);
    for (int thr = 0; thr < 32; ++thr)
        for (int v = 0; v < 16; ++v) {
            const long idx = cute({4, 8}, {64, 1}, thr) + cute({8, 2}, {8, 256}, v);
            const Owner o = b.at({static_cast<int>(idx / 8), static_cast<int>(idx % 8)});  // B is K x N
            CHECK((o.lane == thr && o.value == v));
        }
    // SFALayout ((2,2,8),K):((8,0,1),16): thread t holds SF_A of row 8*(t%2) + t/4 (t%4 in {0,1} at thread-id 0).
    const auto sa = owners(ls::layout_of(ins, t, ls::Operand::SA, mods), 8);
    for (int m = 0; m < 16; ++m)
        for (int j = 0; j < 4; ++j) {
            const Owner o = sa.at({m, j});
            CHECK(cute({2, 2, 8}, {8, 0, 1}, o.lane) == m);
            CHECK(o.lane % 4 < 2);
            CHECK(o.value == j);  // byte j of the scale register (4X: byte-id 0)
        }
    // SFBLayout ((4,8),K):((0,1),8): thread t holds SF_B of column t/4.
    const auto sb = owners(ls::layout_of(ins, t, ls::Operand::SB, mods), 8);
    for (int j = 0; j < 4; ++j)
        for (int n = 0; n < 8; ++n) {
            const Owner o = sb.at({j, n});
            CHECK(cute({4, 8}, {0, 1}, o.lane) == n);
            CHECK(o.value == j);
        }
}

TEST_CASE("sm_120 m16n8k32 kind::f8f6f4: PTX's fragment with e2m1 in bits 5:2 of its container", "[blackwell][layouts]") {
    const ls::Instruction& ins = find("sm_120a", "mma_m16n8k32_f32_e2m1_e3m2_f8f6f4");
    const ls::Target& t = ls::Catalog::target("sm_120a");
    const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, {});
    const ls::OperandLayout A = ls::layout_of(ins, t, ls::Operand::A, mods);
    CHECK(A.regs() == 4);
    for (const auto& e : A.entries()) {
        const int i = (32 * e.loc.reg + e.loc.bit_lo) / 8, lane = e.loc.lane, g = lane / 4, q = lane % 4;
        // PTX 9.7.14.5.10: a_i row g + 8*((i/4)%2), column 4q + i%4 + 16*(i/8).
        CHECK(e.element.row == g + 8 * ((i / 4) % 2));
        CHECK(e.element.col == 4 * q + i % 4 + 16 * (i / 8));
        CHECK(e.loc.bit_lo % 8 == 2);  // e2m1: bits 5:2
        CHECK(e.loc.bit_hi - e.loc.bit_lo == 3);
    }
    const ls::OperandLayout B = ls::layout_of(ins, t, ls::Operand::B, mods);
    CHECK(B.regs() == 2);
    for (const auto& e : B.entries()) {
        CHECK(e.loc.bit_lo % 8 == 0);  // e3m2: bits 5:0
        CHECK(e.loc.bit_hi - e.loc.bit_lo == 5);
        const int i = (32 * e.loc.reg + e.loc.bit_lo) / 8, lane = e.loc.lane;
        CHECK(e.element.row == 4 * (lane % 4) + i % 4 + 16 * (i / 4));  // k
        CHECK(e.element.col == lane / 4);                              // n
    }
    const ls::Evidence ev = ls::layout_evidence(ins, ls::Operand::A, mods);
    CHECK(ev.confidence == "high");
    CHECK(ev.why.find("not confirmed on hardware") != std::string::npos);
}

TEST_CASE("sm_120 scale-factor selectors move SF_A / SF_B as PTX's byte-id and thread-id say", "[blackwell][layouts]") {
    const ls::Instruction& ins = find("sm_120a", "mma_m16n8k64_f32_e2m1_mxf4_2x_ue8m0");
    const ls::Target& t = ls::Catalog::target("sm_120a");
    ls::Modifiers m;
    m.sf_thread_a = 1;
    m.sf_byte_a = 2;
    m.sf_thread_b = 3;
    m.sf_byte_b = 2;
    const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, m);
    for (const auto& e : ls::layout_of(ins, t, ls::Operand::SA, mods).entries()) {
        // thread-id-a 1: the lane pair 4g + {2, 3}; row m from lane 4*(m%8) + m/8 + 2.
        CHECK(e.loc.lane == 4 * (e.element.row % 8) + e.element.row / 8 + 2);
        CHECK(e.loc.bit_lo == 8 * (2 + e.element.col));  // bytes byte-id + j
    }
    for (const auto& e : ls::layout_of(ins, t, ls::Operand::SB, mods).entries()) {
        CHECK(e.loc.lane == 4 * e.element.col + 3);
        CHECK(e.loc.bit_lo == 8 * (2 + e.element.row));
    }
    // Table 37's ranges: 2X takes byte-id 0 or 2; 4X only 0; thread-id-a 0..1.
    ls::Modifiers bad;
    bad.sf_byte_a = 1;
    CHECK_THROWS_WITH(ls::resolve_modifiers(ins, t, bad), Catch::Contains("legal: 0, 2"));
    const ls::Instruction& x4 = find("sm_120a", "mma_m16n8k64_f32_e2m1_mxf4nvf4_4x_ue4m3");
    bad.sf_byte_a = 2;
    CHECK_THROWS_WITH(ls::resolve_modifiers(x4, t, bad), Catch::Contains("legal: 0"));
    // Not block-scaled: the selectors do not apply.
    ls::Modifiers stray;
    stray.sf_thread_b = 1;
    CHECK_THROWS(ls::resolve_modifiers(find("sm_120a", "mma_m16n8k32_f32_e4m3_f8f6f4"), t, stray));
}

// Search (lanescope/search.hpp) finds the Blackwell spellings a target lists, by what a kernel
// author types: the PTX words and the short names' parts. Which rows exist where is the sheet's
// ptxas matrix (tcgen05 on sm_100a, not on sm_120a; block-scaled mma.sync on sm_120a only).
TEST_CASE("search: Blackwell spellings and short names are found on the targets that have them") {
    // One listed row per PTX spelling (and A's space): hits are named by spelling, short name and A's place.
    struct Hit { std::string ptx, short_name; bool a_in_tmem; };
    auto hits = [](const std::string& arch, const std::string& q) {
        const ls::Target& t = ls::Catalog::target(arch);
        std::vector<Hit> out;
        for (const ls::SearchHit& h : ls::search(ls::Catalog::builtin(t.family), t, q))
            out.push_back({h.ins->mnemonic, h.ins->short_name, h.ins->a_in_tmem});
        return out;
    };
    auto has = [](const std::vector<Hit>& v, const std::string& ptx, int a_in_tmem = -1) {
        return std::any_of(v.begin(), v.end(), [&](const Hit& h) { return h.ptx == ptx && (a_in_tmem < 0 || h.a_in_tmem == (a_in_tmem == 1)); });
    };
    // "tcgen05 f16 256": kind::f16 (N = 256 is the rows' first shape), cta_group::1 and ::2.
    const auto f16 = hits("sm_100a", "tcgen05 f16 256");
    CHECK(has(f16, "tcgen05.mma.cta_group::1.kind::f16"));
    CHECK(has(f16, "tcgen05.mma.cta_group::2.kind::f16"));
    for (const Hit& h : f16) CHECK(h.ptx.rfind("tcgen05.mma", 0) == 0);
    // "mxf4nvf4": every hit is that kind, scale_vec::4X among them.
    const auto nv = hits("sm_100a", "mxf4nvf4");
    CHECK(has(nv, "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"));
    for (const Hit& h : nv) CHECK(h.ptx.find("kind::mxf4nvf4") != std::string::npos);
    CHECK(has(hits("sm_120a", "mxf4nvf4 m16n8k64"),
              "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"));
    CHECK(has(hits("sm_100a", "16x32bx2"), "tcgen05.ld.sync.aligned.16x32bx2.x2.b32"));
    // Short-name parts: cta_group::2 with A in Tensor Memory.
    CHECK(has(hits("sm_100a", "2cta ts"), "tcgen05.mma.cta_group::2.kind::f16", 1));
    for (const Hit& h : hits("sm_100a", "2cta ts")) CHECK(h.a_in_tmem);
    // Where ptxas refuses them, search does not offer them.
    CHECK(hits("sm_120a", "tcgen05").empty());
    CHECK(hits("sm_100", "tcgen05").empty());  // tcgen05 needs an a or f target
    CHECK(hits("sm_100a", "mxf4nvf4 m16n8k64").empty());
    // The rows list shows are the rows search walks.
    const ls::Target& t = ls::Catalog::target("sm_100a");
    CHECK(ls::search(ls::Catalog::builtin(t.family), t, "").size() == ls::listed_on(ls::Catalog::builtin(t.family), t).size());
}
