// Fuzz target: text -> parse_layout_text (the JSON contract, CSV, every linear
// form) -> check_layout against two tiles (C of one MFMA; A of a 2x2-wave
// tile, whose waves share A). Refusals are lanescope::Error; an accepted
// layout is compared without a crash, and a layout equal to lanescope's has
// no difference listed. Linear layouts of more than 2^16 places are parsed
// but not compared here (the comparison of the largest, 2^24, is measured in
// docs/tiles.md, not fuzzed under sanitizers).
#include "lanescope/check.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace ls = lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ls::GivenLayout g;
    try {
        g = ls::parse_layout_text(text, "fuzz");
    } catch (const ls::Error&) {
        return 0;
    }
    if (g.linear && g.linear_layout.places() > (1 << 16)) return 0;
    if (!g.linear && g.entries.size() > (1 << 16)) return 0;
    static const auto& cat = ls::Catalog::builtin();
    static const ls::Target& t = cat.find_target("gfx942");
    static const ls::Instruction& ins = cat.find_instruction(t, "v_mfma_f32_32x32x8_f16");
    static const auto mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
    static const ls::TileLayout c(ins, t, ls::Operand::C, mods, ls::TileParams{});
    static const ls::TileLayout a(ins, t, ls::Operand::A, mods, ls::TileParams{2, 2, 1, 1, 0, 0, 16});
    for (const ls::TileLayout* tile : {&c, &a}) {
        ls::CheckResult r = ls::check_layout(*tile, g);
        if (r.equal && (r.differing || !r.differences.empty())) std::abort();
        if (r.differences.size() > r.differing) std::abort();
    }
    ls::CheckResult one = ls::check_layout(c.instruction(), g);
    if (one.equal && one.differing) std::abort();
    return 0;
}
