// Refusals and notes that name their real cause, and readers that take what lanescope writes:
// the Gluon/linear readers refuse what Python refuses, Gluon's named forms carry only the k_width
// Triton takes, CuTe's scales follow their operand's convention, MN-major swizzled descriptors
// never put two elements on one byte, and `check` reads back lanescope's own JSON of the layouts
// it checks (a CTA pair's 512 threads; the largest tile of docs/limits.md's check row).
#include "lanescope/cute.hpp"
#include "lanescope/gluon.hpp"
#include "lanescope/lanescope.hpp"
#include "lanescope/linear.hpp"
#include "lanescope/smem.hpp"
#include "shell_run.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace ls = lanescope;

namespace {
struct Q {
    const ls::Target* t;
    const ls::Instruction* ins;
};
Q find(const char* arch, const char* name) {
    const ls::Target& t = ls::Catalog::target(arch);
    return {&t, &ls::Catalog::builtin(t.family).find_instruction(t, name)};
}
ls::ResolvedModifiers resolve(const Q& q, const ls::Modifiers& m = ls::Modifiers{}) {
    return ls::resolve_modifiers(*q.ins, *q.t, m);
}
lstest::Run cli(const std::string& args) { return lstest::run_command(std::string(LANESCOPE_CLI) + " " + args); }
}  // namespace

TEST_CASE("a positional argument after a keyword argument is refused, as Python refuses it", "[readers]") {
    // Python's grammar: "positional argument follows keyword argument" is a SyntaxError.
    CHECK_THROWS_WITH(ls::parse_linear("DistributedLinearLayout(reg_bases=[[1, 0]], [[0, 1]], [], [], [2, 2])", "t"),
                      Catch::Contains("positional argument follows a keyword argument"));
    // All positional, or positional then keywords, is legal Python and is read.
    const ls::LinearLayout L = ls::parse_linear("DistributedLinearLayout([[1, 0]], [[0, 1]], [], [], [2, 2])", "t");
    CHECK(L.reg.size() == 1);
    CHECK(L.lane.size() == 1);
    CHECK_NOTHROW(ls::parse_linear("DistributedLinearLayout([[1, 0]], lane_bases=[[0, 1]], warp_bases=[], "
                                   "block_bases=[], shape=[2, 2])", "t"));
    // The named-layout reader alike.
    CHECK_THROWS_WITH(ls::parse_gluon_named_layout("AMDMFMALayout(version=3, [32, 32, 8], True, [1, 1])", "t"),
                      Catch::Contains("positional argument follows a keyword argument"));
}

TEST_CASE("Gluon's named forms carry only a k_width Triton takes", "[gluon]") {
    // Triton 3.6 (amd/_layouts.py, AMDWMMALayout): version 3 dot operands take kWidth 2, 8 or 16.
    const std::set<int> wmma3 = {2, 8, 16};
    const ls::Target& t = ls::Catalog::target("gfx1250");
    const std::regex kw("k_width=([0-9]+)");
    int named = 0;
    for (const ls::Instruction& ins : ls::Catalog::builtin(t.family).instructions()) {
        if (!ins.on(t.family) || ins.blocks != 1) continue;
        for (ls::Operand op : {ls::Operand::A, ls::Operand::B}) {
            const ls::ResolvedModifiers m = ls::resolve_modifiers(ins, t, ls::Modifiers{});
            const ls::TileLayout tl(ins, t, op, m, ls::TileParams{});
            const ls::GluonForm g = ls::gluon_of(tl, ins, t, m);
            std::smatch s;
            if (!std::regex_search(g.named, s, kw)) {
                CHECK(g.named.find("k_width") == std::string::npos);
                continue;
            }
            ++named;
            INFO(ins.mnemonic << " " << ls::operand_name(op) << ": " << g.named);
            CHECK(wmma3.count(std::stoi(s[1].str())) == 1);
        }
    }
    CHECK(named > 0);
    // SWMMAC 16x16x128 8-bit B would need kWidth 32: no named form, and the note says so.
    const Q sw = find("gfx1250", "v_swmmac_f32_16x16x128_fp8_fp8");
    const ls::ResolvedModifiers m = resolve(sw);
    const ls::GluonForm g = ls::gluon_of(ls::TileLayout(*sw.ins, *sw.t, ls::Operand::B, m, ls::TileParams{}), *sw.ins, *sw.t, m);
    CHECK(g.named.empty());
    CHECK_THAT(g.named_note, Catch::Contains("no named Gluon layout") && Catch::Contains("(32)"));
}

TEST_CASE("the Gluon note names the instruction's own modifiers", "[gluon]") {
    const Q f8 = find("gfx1250", "v_wmma_f32_16x16x128_f8f6f4");
    ls::Modifiers m;
    m.matrix_a_fmt = 4;  // FP4 (LLVM's MATRIX_FMT_FP4)
    const ls::ResolvedModifiers r = resolve(f8, m);
    const ls::GluonForm g = ls::gluon_of(ls::TileLayout(*f8.ins, *f8.t, ls::Operand::A, r, ls::TileParams{}), *f8.ins, *f8.t, r);
    CHECK_THAT(g.named_note, Catch::Contains("matrix_a_fmt"));
    CHECK_THAT(g.named_note, !Catch::Contains("cbsz") && !Catch::Contains("blgp"));
    // gfx950's mfma_scale takes A's format in cbsz (LLVM's cbsz = A's f8f6f4 format): named there.
    const Q mf = find("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4");
    ls::Modifiers b;
    b.cbsz = 4;  // FP4
    const ls::ResolvedModifiers rb = resolve(mf, b);
    const ls::GluonForm gb = ls::gluon_of(ls::TileLayout(*mf.ins, *mf.t, ls::Operand::A, rb, ls::TileParams{}), *mf.ins, *mf.t, rb);
    CHECK_THAT(gb.named_note, Catch::Contains("cbsz") && !Catch::Contains("matrix_a_fmt"));
}

TEST_CASE("header's missing mma() helper says the instruction's own reason", "[header]") {
    const std::string h = lstest::temp_path("refusals_header.hpp").string();
    struct Case {
        const char* ins;
        const char* says;
        const char* never;
    };
    // v_wmma_f32_16x16x32_f16 has A, B, C, D only (operands_of); SWMMAC adds the index, wmma_scale the scales.
    for (const Case& c : {Case{"v_wmma_f32_16x16x32_f16", "__builtin_amdgcn_wmma_f32_16x16x32_f16(", "scales"},
                          Case{"v_swmmac_f32_16x16x128_fp8_fp8", "sparse index", "scales"},
                          Case{"v_wmma_scale_f32_16x16x128_f8f6f4", "block scales", "sparse"}}) {
        const Q q = find("gfx1250", c.ins);
        const auto ops = ls::operands_of(*q.ins);
        INFO(c.ins);
        const lstest::Run r = cli(std::string("header -a gfx1250 -i ") + c.ins + " -o " + h);
        REQUIRE(r.status == 0);
        std::ifstream in(h);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const size_t at = text.find("No mma() helper");
        REQUIRE(at != std::string::npos);
        const std::string line = text.substr(at, text.find('\n', at) - at);
        CHECK_THAT(line, Catch::Contains(c.says) && !Catch::Contains(c.never));
        if (std::find(ops.begin(), ops.end(), ls::Operand::K) == ops.end())
            CHECK_THAT(line, !Catch::Contains("sparse index"));
    }
    std::filesystem::remove(h);
}

TEST_CASE("a refusal names the option as typed: which --wave-size", "[cli]") {
    // gfx942 runs wave64 only; the value came from --wave-size.
    const lstest::Run r = cli("which -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand D --waves 2x2 --wave-size 32 --reg 0 --lane 0");
    CHECK(r.status != 0);
    CHECK_THAT(r.err, Catch::Contains("--wave-size 32") && !Catch::Contains("--wave 32"));
}

TEST_CASE("SWMMAC A has no linear form because of its sparsity, and says so", "[linear]") {
    // lanescope.hpp: sparse A is given in dense coordinates; the K elements of a group share a slot.
    const Q sw = find("gfx1250", "v_swmmac_f32_16x16x128_fp8_fp8");
    const ls::LinearResult res = ls::to_linear(ls::TileLayout(*sw.ins, *sw.t, ls::Operand::A, resolve(sw), ls::TileParams{}));
    REQUIRE_FALSE(res.layout);
    CHECK_THAT(res.why_not, Catch::Contains("sparse") && !Catch::Contains("under these modifiers"));
    // MFMA A under a cbsz broadcast is a modifiers matter, still named as one.
    const Q mf = find("gfx942", "v_mfma_f32_32x32x8_f16");
    const ls::LinearResult dense = ls::to_linear(ls::TileLayout(*mf.ins, *mf.t, ls::Operand::A, resolve(mf), ls::TileParams{}));
    CHECK(dense.layout);
}

TEST_CASE("CuTe's SB follows B's convention (N, K/32)", "[cute]") {
    // docs/tiles.md: B is (N, K) in CuTe (MMA_Traits), n + k * N; its scales SB are (N, K/32).
    const Q q = find("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4");
    const ls::TileLayout t(*q.ins, *q.t, ls::Operand::SB, resolve(q), ls::TileParams{});
    const ls::CuteResult c = ls::to_cute(t);
    REQUIRE(c.layout);
    const int N = t.cols();  // lanescope's SB is (K/32) x N
    CHECK(c.layout->rows == N);
    const ls::OperandLayout& L = t.instruction();
    int checked = 0;
    for (int lane = 0; lane < L.lanes(); ++lane)
        for (const ls::SlotPart& p : L.which(0, lane)) {
            if (p.elem_bit_lo != 0) continue;
            // Value v of the lane in register-and-bit order: SB holds one byte per lane here.
            CHECK(c.layout->apply(lane, 0) == p.element.col + p.element.row * N);
            ++checked;
        }
    CHECK(checked == L.lanes());
}

TEST_CASE("MN-major swizzled descriptors never put two elements on one byte", "[smem]") {
    const ls::Target& h100 = ls::Catalog::target("sm_90a");
    const ls::Instruction& ins = ls::Catalog::builtin(ls::Family::Hopper).find_instruction(h100, "wgmma_m64n128k16_f32_f16");
    // Every LBO/SBO pair over a few multiples of the 128B atom (8 rows x 128 bytes): refused, or each
    // element on its own bytes (an independent property: the addresses are distinct).
    int refused = 0, accepted = 0;
    for (int lbo : {1024, 2048, 4096})
        for (int sbo : {1024, 2048, 4096}) {
            ls::Modifiers m;
            m.smem_major = 1;
            m.swizzle = 3;
            m.lbo = lbo;
            m.sbo = sbo;
            const ls::ResolvedModifiers r = ls::resolve_modifiers(ins, h100, m);
            try {
                const ls::SmemOperand s = ls::smem_operand(ins, ls::Operand::B, r);
                std::set<std::uint32_t> seen;
                for (int n = 0; n < s.mn; ++n)
                    for (int k = 0; k < s.k; ++k) seen.insert(s.address(n, k));
                INFO("lbo " << lbo << " sbo " << sbo);
                CHECK(seen.size() == static_cast<size_t>(s.mn) * s.k);
                ++accepted;
            } catch (const ls::Error& e) {
                CHECK_THAT(std::string(e.what()), Catch::Contains("overlap") && Catch::Contains("B["));
                ++refused;
            }
        }
    CHECK(refused > 0);
    CHECK(accepted > 0);
    const lstest::Run r = cli("load -a sm_90a -i wgmma_m64n128k16_f32_f16 --operand B --memory smem --major MN "
                              "--swizzle 128B --lbo 1024 --sbo 1024 --format json");
    CHECK(r.status != 0);
    CHECK_THAT(r.err, Catch::Contains("B[0][64]") && Catch::Contains("B[8][0]"));
}

TEST_CASE("check reads back the JSON lanescope writes", "[check]") {
    const std::string f = lstest::temp_path("refusals_check.json").string();
    // tcgen05's cta_group::2 D read back by 8 warps a CTA: 512 threads of the pair.
    const std::string pair = "-a sm_100a -i tcgen05_mma_m128n128k16_f32_f16_2cta --operand D --tmem-load 32x32b --num-warps 8";
    REQUIRE(cli("layout " + pair + " --format json -o " + f).status == 0);
    lstest::Run r = cli("check " + pair + " --layout " + f);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("equal"));
    // docs/limits.md: check takes tiles up to 4,194,304 placements; a 1024x1024 C tile has 1,048,576.
    const std::string big = "-a gfx942 -i v_mfma_f32_32x32x8_f16 --operand C --waves 2x2 --shape 1024x1024";
    REQUIRE(cli("layout " + big + " --format json -o " + f).status == 0);
    REQUIRE(std::filesystem::file_size(f) > (size_t(64) << 20));  // past the other readers' 64 MiB
    r = cli("check " + big + " --layout " + f);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("equal"));
    std::filesystem::remove(f);
}
