// PTX probe kernels for NVIDIA instructions, generated from the catalog row:
// the instruction's spelling is emitted exactly as the catalog writes it, with
// as many registers per operand as the catalog claims, so the driver's JIT
// (ptxas) checks spelling, target and register counts before the probe runs.
#pragma once

#include "nvidia.hpp"

#include <string>
#include <vector>

namespace lanescope::gpu::detail {

// 32-bit registers per lane of each operand, as the catalog gives them.
struct PtxRegs {
    int a = 0, b = 0, c = 0, d = 0, e = 0;  // e: sparse metadata
};

// The kernel's input buffer is a sequence of segments, each at a word offset.
struct PtxSegment {
    enum Kind { Registers, SharedImage, LaneAddresses } kind = Registers;
    Operand operand = Operand::A;  // Registers: which operand; SharedImage: B (wgmma) or the rows (ld/st)
    int lanes = 0, regs = 0;       // Registers: lanes x regs words, lane-major; others: words in `regs`
    int offset = 0;                // first word in the buffer
};

struct PtxKernel {
    std::string text;                 // the module; entry point "lanescope_probe"
    int threads = 32;                 // one block: a warp, or a warpgroup for wgmma
    std::vector<PtxSegment> inputs;
    int in_words = 0;
    bool out_is_image = false;        // stmatrix: the shared rows come back, not registers
    int out_lanes = 32, out_regs = 0; // out buffer: lane-major registers, or (1, words)
};

// `target`: the PTX .target ("sm_80", "sm_90a"); `selector`: mma.sp's sparsity selector.
PtxKernel ptx_kernel(const std::string& mnemonic, const NvSpelling& s, const std::string& target, const PtxRegs& regs,
                     int selector);

}  // namespace lanescope::gpu::detail
