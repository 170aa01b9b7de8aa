// Fuzz target: the tile option parser (parse_tile_params, as --waves,
// --tiles-per-wave and --shape of lanescope-cli and the app) and what a tile it
// accepts is asked: its construction, its work limits, one element's where()
// and one slot's which() (never every element: a legal tile may be huge).
// Input: three lines, the texts of --waves, --tiles-per-wave and --shape; a
// fourth line, if any, picks the instruction and operand by its first byte.
#include "lanescope/lanescope.hpp"
#include "lanescope/limits.hpp"
#include "lanescope/tile.hpp"

#include "fuzz_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ls = lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 512) return 0;
    const std::vector<std::string> lines = fuzz_lines(data, size, 4);
    ls::TileParams p;
    try {
        p = ls::parse_tile_params(lines[0], lines[1], lines[2]);
    } catch (const ls::Error&) {
        return 0;
    }
    struct Pick {
        const char* arch;
        const char* ins;
    };
    static const Pick picks[] = {{"gfx942", "v_mfma_f32_32x32x8_f16"}, {"gfx942", "v_mfma_f32_4x4x4_16b_f16"},
                                 {"gfx1100", "v_wmma_f32_16x16x16_f16"}, {"gfx950", "v_mfma_f32_16x16x128_f8f6f4"},
                                 {"sm_90a", "wgmma_m64n256k16_f32_f16"}, {"sm_80", "ldmatrix_x1"}};
    const unsigned char sel = lines[3].empty() ? 0 : static_cast<unsigned char>(lines[3][0]);
    const Pick& pick = picks[sel % (sizeof picks / sizeof picks[0])];
    try {
        const ls::Catalog& cat = ls::Catalog::builtin();
        const ls::Target& t = cat.find_target(pick.arch);
        const ls::Instruction& ins = cat.find_instruction(t, pick.ins);
        const ls::ResolvedModifiers mods = ls::resolve_modifiers(ins, t, ls::Modifiers{});
        const auto ops = ls::operands_of(ins);
        const ls::Operand op = ops[(sel / 8) % ops.size()];
        ls::TileLayout tile(ins, t, op, mods, p);
        (void)ls::tile_placements(tile);
        (void)ls::tile_slots(tile);
        try {
            ls::check_tile_work(tile, ls::kMaxHeaderPlacements, "fuzz", "fuzz");
        } catch (const ls::Error&) {
        }
        if (tile.rows() > 0 && tile.cols() > 0) {
            (void)tile.where({0, tile.rows() - 1, tile.cols() - 1});
            (void)tile.where({0, tile.rows() / 2, 0});
        }
        if (tile.regs() > 0) (void)tile.which(tile.waves() - 1, tile.regs() - 1, tile.lanes() - 1);
    } catch (const ls::Error&) {
        // A refusal with a message is the expected answer to a tile the instruction cannot make.
    }
    return 0;
}
