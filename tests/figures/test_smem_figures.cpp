// The shared-memory figure (figure --memory smem on a wgmma / tcgen05.mma
// operand) checked from the PTX ISA's byte formula, not from core:
// for a K-major, 128B-swizzled wgmma B (K x N f16), element (k, n) lies at
//     lin = (n % 8) * 128 + (n / 8) * SBO + k * 2,   SBO = 1024 (8 rows of 128 B),
//     address = lin ^ (((lin >> 7) % 8) << 4)         (16-byte chunk ^= 128-byte row mod 8)
// (PTX ISA "Shared Memory Matrix Layout" and "Swizzling Modes"; CUTLASS Swizzle<3,4,3>),
// its core matrix (8 rows x 16 bytes, numbered along N first) (k / 8) * (N / 8) + n / 8.
// The SVG's chunks are parsed back: every chunk's id (first address), colour and
// labels must be those of the elements the formula puts there.
#include "xml_check.hpp"

#include "lanescope/figures.hpp"
#include "lanescope/smem.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace ls = lanescope;
namespace fig = lanescope::figures;
using namespace figtest;

namespace {

fig::SmemFigureSpec wgmma_b(int swizzle, ls::Theme theme = ls::Theme::Light) {
    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_90a");
    const ls::Instruction& ins = cat.find_instruction(t, "wgmma_m64n128k16_f32_f16");
    ls::Modifiers m;
    m.swizzle = swizzle;
    fig::SmemFigureSpec s;
    s.query.ins = &ins, s.query.target = &t, s.query.mods = ls::resolve_modifiers(ins, t, m);
    s.operand = ls::smem_operand(ins, ls::Operand::B, s.query.mods);
    s.theme = theme;
    return s;
}

}  // namespace

TEST_CASE("smem figure: every chunk of a 128B-swizzled wgmma B is where the PTX byte formula puts it", "[figures][smem]") {
    const fig::SmemFigureSpec spec = wgmma_b(3);
    REQUIRE(spec.operand.desc.sbo == 1024);  // CUTLASS's make_gmma_desc for this tile
    const int K = 16, N = 128;
    struct Want {
        std::set<int> ks, ns;
        int core = -1, before = -1;
    };
    std::map<unsigned, Want> want;  // chunk address -> what it holds
    for (int k = 0; k < K; ++k)
        for (int n = 0; n < N; ++n) {
            const unsigned lin = (n % 8) * 128 + (n / 8) * 1024 + k * 2;
            const unsigned addr = lin ^ (((lin >> 7) % 8) << 4);
            Want& w = want[addr & ~15u];
            w.ks.insert(k), w.ns.insert(n);
            w.core = (k / 8) * (N / 8) + n / 8;
            w.before = static_cast<int>((lin / 16) % 8);
        }
    const fig::Figure f = fig::build_smem_figure(spec);
    const std::string svg = fig::to_svg(f);
    REQUIRE(xml_problem(svg).empty());
    const std::vector<SvgTile> tiles = svg_tiles(svg);
    REQUIRE(tiles.size() == want.size());  // 256 chunks of 8 elements
    int checked = 0;
    for (const SvgTile& t : tiles) {
        REQUIRE(t.id.rfind("B.0x", 0) == 0);
        const unsigned a = static_cast<unsigned>(std::stoul(t.id.substr(2), nullptr, 16));
        INFO("chunk " << t.id);
        REQUIRE(want.count(a) == 1);
        const Want& w = want.at(a);
        REQUIRE(w.ns.size() == 1);
        REQUIRE(w.ks.size() == 8);
        CHECK(t.fill == ls::categorical(w.core, spec.theme).hex());
        REQUIRE(t.lines.size() == 2);
        CHECK(t.lines[0] == "B[k" + std::to_string(*w.ks.begin()) + ".." + std::to_string(*w.ks.rbegin()) + "][n" +
                                std::to_string(*w.ns.begin()) + "]");
        CHECK(t.lines[1] == "c" + std::to_string(w.before) + "\u2192c" + std::to_string((a / 16) % 8));
        ++checked;
    }
    CHECK(checked == 256);
    // The descriptor beside the tile: its value, its fields, the ignored ones named ignored.
    CHECK(svg.find("0x4000004000010000") != std::string::npos);
    CHECK(svg.find("stride_byte_offset = 64 (1024 B)") != std::string::npos);
    CHECK(svg.find("ignored") != std::string::npos);
    CHECK(svg.find("H200") != std::string::npos);
}

TEST_CASE("smem figure: hover titles name each chunk's address range, banks, core matrix and elements", "[figures][smem]") {
    fig::SmemFigureSpec spec = wgmma_b(3);
    spec.hover_titles = true;
    const std::string svg = fig::to_svg(fig::build_smem_figure(spec));
    REQUIRE(xml_problem(svg).empty());
    // Row 1 (n = 1): lin 128..159, chunk 0 -> 0 ^ 1 = 1: address 0x0090, banks 4..7 of bank = addr/4 % 32.
    CHECK(svg.find("<title>0x0090\u20130x009F: banks 4\u20137, core matrix 0, B[k0..7][n1], chunk 0 before the swizzle, 1 "
                   "after</title>") != std::string::npos);
}

TEST_CASE("smem figure: NVIDIA words only; tcgen05 says it is not confirmed on hardware", "[figures][smem]") {
    const std::string svg = fig::to_svg(fig::build_smem_figure(wgmma_b(3)));
    CHECK(svg.find("LDS") == std::string::npos);
    CHECK(svg.find("cycles") == std::string::npos);
    CHECK(svg.find("lane") == std::string::npos);

    const ls::Catalog& cat = ls::Catalog::builtin();
    const ls::Target& t = cat.find_target("sm_100a");
    const ls::Instruction* ins = &cat.find_instruction(t, "tcgen05_mma_m128n64k16_f32_f16");
    REQUIRE(ins);
    fig::SmemFigureSpec s;
    s.query.ins = ins, s.query.target = &t, s.query.mods = ls::resolve_modifiers(*ins, t, ls::Modifiers{});
    s.operand = ls::smem_operand(*ins, ls::Operand::B, s.query.mods);
    const fig::Figure f = fig::build_smem_figure(s);
    std::string text;
    for (const fig::Text& x : f.texts) text += x.text + "\n";
    CHECK(text.find("not confirmed on hardware") != std::string::npos);
    CHECK(text.find("tcgen05 matrix descriptor") != std::string::npos);
    // TikZ and PNG draw the same figure.
    CHECK(fig::to_tikz(f).find("\\begin{tikzpicture}") != std::string::npos);
    if (!fig::find_font().empty()) CHECK(fig::to_png(f, 1.0).size() > 1000);
}

TEST_CASE("smem figure: the CLI draws it and refuses what does not apply", "[figures][smem]") {
    const std::string dir = temp_dir("smemfig");
    const std::string base = "figure -a sm_90a -i wgmma_m64n128k16_f32_f16 --operand B --memory smem --swizzle 128B ";
    for (const char* ext : {".svg", ".tex", ".png"}) {
        const Run r = cli(base + "-o " + dir + "/b" + ext);
        INFO(r.err);
        CHECK(r.status == 0);
        CHECK(read_file(dir + "/b" + ext).size() > 100);
    }
    const Run hover = cli(base + "--hover-titles -o " + dir + "/h.svg");
    CHECK(hover.status == 0);
    CHECK(read_file(dir + "/h.svg").find("<title>0x0000\u20130x000F") != std::string::npos);

    const Run tikz_hover = cli(base + "--hover-titles -o " + dir + "/h.tex");
    CHECK(tikz_hover.status != 0);
    CHECK(tikz_hover.err.find("--hover-titles is written by SVG only") != std::string::npos);
    const Run amd = cli("figure -a gfx942 -i v_mfma_f32_32x32x8_f16 --operand B --memory smem -o " + dir + "/x.svg");
    CHECK(amd.status != 0);
    CHECK(amd.err.find("smem is NVIDIA's shared memory") != std::string::npos);
    const Run d = cli("figure -a sm_90a -i wgmma_m64n128k16_f32_f16 --operand D --memory smem -o " + dir + "/x.svg");
    CHECK(d.status != 0);
    CHECK(d.err.find("not read through a shared-memory descriptor") != std::string::npos);
    const Run ld = cli(base + "--ld 64 -o " + dir + "/x.svg");
    CHECK(ld.status != 0);
    CHECK(ld.err.find("--ld does not apply") != std::string::npos);
    const Run sw = cli("figure -a sm_90a -i wgmma_m64n128k16_f32_f16 --operand B --memory smem --swizzle 96B -o " + dir + "/x.svg");
    CHECK(sw.status != 0);
    CHECK(sw.err.find("legal: none, 32B, 64B, 128B") != std::string::npos);
    CHECK(!std::filesystem::exists(dir + "/x.svg"));
}

TEST_CASE("smem figure: an mma.sync operand's ldmatrix plan is drawn in NVIDIA's words", "[figures][smem]") {
    const std::string dir = temp_dir("smemfig_ldm");
    for (const char* extra : {"", "--ld-shared "}) {
        const Run r = cli(std::string("figure -a sm_90a -i mma_m16n8k16_f32_f16 --operand A --memory smem ") + extra + "-o " + dir +
                          "/a.svg");
        INFO(r.err);
        REQUIRE(r.status == 0);
        const std::string svg = read_file(dir + "/a.svg");
        CHECK(svg.find("LDS") == std::string::npos);
        CHECK(svg.find("cycles") == std::string::npos);
        CHECK(svg.find("dwords") == std::string::npos);
        CHECK(svg.find("phase") != std::string::npos);
        CHECK(svg.find("wavefronts") != std::string::npos);
        CHECK(svg.find(*extra ? "ld.shared" : "ldmatrix") != std::string::npos);
    }
}
