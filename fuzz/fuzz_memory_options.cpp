// Fuzz target: the memory options of `load` and `figure --memory`
// (cli/memory_options.cpp: --memory, --order, --ld, --pad, --swizzle,
// --grouping, with the tile options) and the plan they request, rendered as a
// table. Input: one option per line, in the order memory, order, ld, pad,
// swizzle, grouping, operand, waves, tiles-per-wave, shape, flags (t: transpose,
// s: store, w: load --sweep of one instruction; the first byte also picks the
// instruction).
#include "../cli/common.hpp"

#include "lanescope/memory.hpp"
#include "lanescope/numbers.hpp"
#include "lanescope/render_memory.hpp"

#include "fuzz_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ls = lanescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 512) return 0;
    const std::vector<std::string> lines = fuzz_lines(data, size, 11);
    struct Pick {
        const char* arch;
        const char* ins;
    };
    static const Pick picks[] = {{"gfx942", "v_mfma_f32_32x32x8_f16"}, {"gfx950", "v_mfma_f32_16x16x32_f16"},
                                 {"gfx1200", "v_wmma_f32_16x16x16_f16"}, {"gfx942", "v_mfma_f32_32x32x1_2b_f32"},
                                 {"gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4"}};
    const std::string& flags = lines[10];
    const unsigned char sel = flags.empty() ? 0 : static_cast<unsigned char>(flags[0]);
    lscli::Options o;
    o.arch = picks[sel % (sizeof picks / sizeof picks[0])].arch;
    o.instruction = picks[sel % (sizeof picks / sizeof picks[0])].ins;
    o.command = "load";
    o.operand = lines[6].empty() ? "A" : lines[6];
    o.waves = lines[7];
    o.tiles_per_wave = lines[8];
    o.shape = lines[9];
    lscli::MemoryArgs a;
    if (!lines[0].empty()) a.memory = lines[0];
    if (!lines[1].empty()) a.order = lines[1];
    try {
        // As CLI11 hands them over: strict integers in the options' ranges.
        if (!lines[2].empty()) a.ld = static_cast<int>(ls::parse_integer(lines[2], 1, 1 << 24, "--ld"));
        if (!lines[3].empty()) a.pad = static_cast<int>(ls::parse_integer(lines[3], 0, 1 << 24, "--pad"));
        a.swizzle = lines[4];
        a.grouping = lines[5];
        a.transpose = flags.find('t') != std::string::npos;
        a.store = flags.find('s') != std::string::npos;
        const lscli::Resolved r = lscli::resolve(o);
        const ls::MemoryRequest req = lscli::memory_request(o, a, r);
        // Legal tiles up to the planning limit are bounded work (a second or two of 10^6 placements in
        // Release, the benchmarks' business); past 2^16 elements only the refusals are fuzzed.
        const auto [rows, cols] = ls::memory_extent(r.query, req);
        if (1LL * rows * cols > (1LL << 16)) return 0;
        // The sweep of the scaled MFMA plans hundreds of candidates within the sweep's placement budget:
        // about 1 s in Release, beyond the 10 s hang timeout instrumented, so it is swept for the others.
        const bool sweepable = std::string(o.instruction).find("scale") == std::string::npos;
        if (flags.find('w') != std::string::npos && sweepable && !lscli::tile_mode(o))
            (void)ls::render_sweep(r.query, req, ls::sweep_memory(r.query, req), ls::Format::Json, "lanescope-cli load", 3);
        else
            (void)ls::render_memory(r.query, req, ls::Format::Table);
    } catch (const ls::Error&) {
        // Refused with a message: the expected answer to an illegal combination.
    }
    return 0;
}
