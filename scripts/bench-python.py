#!/usr/bin/env python3
"""Benchmark (not a test): a 256x256x64 gfx942 tile's three operands to numpy, against the C++ engine.

For A, B and C of v_mfma_f32_32x32x8_f16 over waves 2x2 with shape 256x256x64: the time from
lanescope.layout(...) to its arrays (parse, lay out, placements, the eight int32 arrays) and the
dense lane_of/reg_of views, against the C++ engine alone making the same placements
(TileLayout + entries(), lanescope._core.engine_seconds). Best of RUNS each. Goal: numpy within
2x the engine's time.

    PYTHONPATH=build/python /usr/bin/python3 scripts/bench-python.py [RUNS]
"""
import sys
import time

import lanescope
from lanescope import _core

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
TILE = dict(waves=(2, 2), shape=(256, 256, 64))
ARCH, INS = "gfx942", "v_mfma_f32_32x32x8_f16"


def best(f):
    out = float("inf")
    for _ in range(RUNS):
        t = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - t)
    return out


total_np = total_dense = total_cpp = 0.0
print(f"{ARCH} {INS}, waves 2x2, shape 256x256x64, best of {RUNS}")
print("| operand | placements | C++ engine ms | to numpy ms | ratio | + lane_of/reg_of ms |")
print("|---|---|---|---|---|---|")
for op in "ABC":
    L = lanescope.layout(ARCH, INS, operand=op, **TILE)
    cpp = _core.engine_seconds(L._words, RUNS)
    to_np = best(lambda: lanescope.layout(ARCH, INS, operand=op, **TILE).arrays())
    dense = best(lambda: lanescope.layout(ARCH, INS, operand=op, **TILE).reg_of)
    total_cpp, total_np, total_dense = total_cpp + cpp, total_np + to_np, total_dense + dense
    print(f"| {op} | {len(L)} | {cpp * 1e3:.2f} | {to_np * 1e3:.2f} | {to_np / cpp:.2f} | {dense * 1e3:.2f} |")
print(f"| all | | {total_cpp * 1e3:.2f} | {total_np * 1e3:.2f} | {total_np / total_cpp:.2f} | {total_dense * 1e3:.2f} |")
print(f"goal: to numpy within 2x the engine: {'met' if total_np <= 2 * total_cpp else 'NOT met'}")

# Single queries: one where() on a fresh Layout (construction included), a tcgen05 D read back by
# tcgen05.ld against an MFMA's. Goal: each under 1 ms. Blackwell: not confirmed on hardware.
SINGLE = [
    ("gfx942", "v_mfma_f32_32x32x8_f16", dict(operand="D"), (5, 20)),
    ("sm_100a", "tcgen05_mma_m128n256k16_f32_f16", dict(operand="D", tmem_load="32x32b", num_warps=4), (5, 200)),
    ("sm_100a", "tcgen05_mma_m256n256k16_f32_f16_2cta", dict(operand="D", tmem_load="16x256b"), (205, 3)),
    ("sm_100a", "tcgen05_mma_m128n256k16_f32_f16", dict(operand="D"), (5, 200)),
]
print(f"\nsingle where() on a new Layout, best of {RUNS}")
print("| arch | instruction | options | ms |")
print("|---|---|---|---|")
slowest = 0.0
for arch, ins, opts, (r, c) in SINGLE:
    ms = best(lambda: lanescope.layout(arch, ins, **opts).where(r, c)) * 1e3
    slowest = max(slowest, ms)
    print(f"| {arch} | {ins} | {opts} | {ms:.3f} |")
print(f"goal: every single query under 1 ms: {'met' if slowest < 1 else 'NOT met'}")

# What a Python call adds to core's own work: one small layout to its arrays, against the engine
# making the same placements. Goal: at most 0.1 ms added.
SMALL = [("gfx942", "v_mfma_f32_16x16x16_f16", "D"), ("gfx942", "v_mfma_f32_32x32x8_f16", "D"),
         ("sm_90a", "mma_m16n8k16_f32_f16", "A")]
print(f"\none small layout to numpy, best of {max(RUNS, 200)}")
print("| arch | instruction | operand | C++ engine ms | Python ms | added ms |")
print("|---|---|---|---|---|---|")
most = 0.0
for arch, ins, op in SMALL:
    L = lanescope.layout(arch, ins, operand=op)
    cpp = _core.engine_seconds(L._words, max(RUNS, 200))
    py = min(best(lambda: lanescope.layout(arch, ins, operand=op).arrays()) for _ in range(max(1, 200 // RUNS)))
    most = max(most, py - cpp)
    print(f"| {arch} | {ins} | {op} | {cpp * 1e3:.3f} | {py * 1e3:.3f} | {(py - cpp) * 1e3:.3f} |")
print(f"goal: a Python call adds at most 0.1 ms: {'met' if most <= 1e-4 else 'NOT met'}")
