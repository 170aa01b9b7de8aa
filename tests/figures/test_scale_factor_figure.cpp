// The scale factors' figure (`figure --memory smem --operand SFA|SFB`) against CUTLASS's SF atom
// (sm100_blockscaled_layout.hpp, Sm1xxBlockScaledBasicChunk ((32,4),(VS,4)):((16,4),(0,1)): byte
// 16*(x%32) + 4*((x/32)%4) + kb of a 128-row block holds SF(x, kb)) and its copy
// (SM100_UTCCP_4x32dp128bit: byte i of a 16-byte row goes to TMEM column 4b + i/4), never lanescope's
// own output. Not confirmed on hardware.
#include "lanescope/scale_factor_figure.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <set>

namespace ls = lanescope;
namespace fig = lanescope::figures;

namespace {
fig::ScaleFactorFigureSpec spec_of(const std::string& name, ls::Operand op) {
    const ls::Target& t = ls::Catalog::target("sm_100a");
    const ls::Instruction& ins = ls::Catalog::builtin(t.family).find_instruction(t, name);
    fig::ScaleFactorFigureSpec s;
    s.query = ls::Query{&ins, &t, ls::resolve_modifiers(ins, t, ls::Modifiers{})};
    s.tile = ls::scale_factor_tile(ins, op);
    s.hover_titles = true;
    return s;
}
std::string ref(const char* op, int byte) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s.0x%04X", op, byte);
    return buf;
}
}  // namespace

TEST_CASE("scale-factor figure: every byte of SFA labelled with the (m, kb) CUTLASS's atom puts there", "[figures][sf]") {
    const fig::Figure f = fig::build_scale_factor_figure(spec_of("tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_2x_ue8m0", ls::Operand::SA));
    REQUIRE(f.tiles.size() == 512u);
    std::set<std::string> refs;
    for (const fig::Tile& t : f.tiles) refs.insert(t.ref);
    CHECK(refs.size() == 512u);
    for (int m = 0; m < 128; m += 7)
        for (int kb = 0; kb < 4; ++kb) {
            const int byte = 16 * (m % 32) + 4 * (m / 32) + kb;
            const auto it = std::find_if(f.tiles.begin(), f.tiles.end(), [&](const fig::Tile& t) { return t.ref == ref("SA", byte); });
            REQUIRE(it != f.tiles.end());
            CHECK(it->lines == std::vector<std::string>{"m" + std::to_string(m), "kb" + std::to_string(kb)});
            CHECK(it->fill == ls::categorical(m / 32, ls::Theme::Light));  // TMEM column (byte % 16) / 4
            CHECK_THAT(it->hover, Catch::Contains("--sfa-id " + std::to_string(2 * (kb / 2))));
        }
    std::string words;  // the captions, their wrapped lines joined
    for (const fig::Text& t : f.texts) words += t.text + " ";
    CHECK_THAT(words, Catch::Contains("not confirmed on hardware"));
    CHECK_THAT(fig::to_svg(f), Catch::Contains("<title>"));  // hover titles: each byte's path
}

TEST_CASE("scale-factor figure: SFB of N = 64 leaves CUTLASS's padding columns 64..127 empty", "[figures][sf]") {
    const fig::Figure f = fig::build_scale_factor_figure(spec_of("tcgen05_mma_m128n64k64_f32_e2m1_mxf4nvf4_4x_ue4m3", ls::Operand::SB));
    CHECK(f.tiles.size() == 64u * 4u);
    for (const fig::Tile& t : f.tiles) {
        const int byte = std::stoi(t.ref.substr(3), nullptr, 16);
        CHECK((byte % 16) / 4 < 2);  // n/32 = 0, 1 only
    }
}
