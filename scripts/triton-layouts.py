#!/usr/bin/env python3
"""Dump Triton's own AMD layouts (MFMA, WMMA and their dot operands) as linear-layout bases.

The witness for lanescope's tile model (docs/tiles.md): Triton computes these layouts on the
host, so no AMD GPU is needed, only an installed Triton with Gluon (3.6 here). Writes one JSON
object per line: {"layout": "mfma"|"mfma_dot"|"wmma"|"wmma_dot", "params": {...}, "shape": [...],
"reg_bases": ..., "lane_bases": ..., "warp_bases": ..., "block_bases": ...}, or "error" in place
of the bases where Triton refuses the layout (or aborts on it).

    python3 scripts/triton-layouts.py OUT.jsonl

Each layout is computed by a worker process; Triton aborts the process on some illegal layouts,
so the parent records that one as an error and starts a new worker after it.
"""
import itertools
import json
import sys

from restarting_worker import run_restarting


def configs():
    grids = [[1, 1], [2, 2], [4, 1], [1, 4], [2, 1]]
    tpws = [[1, 1], [2, 1], [1, 2], [2, 2]]
    # MFMA: version 3 = gfx942, 4 = gfx950. instr_shape is (M, N, K); K of the 16-bit
    # instruction at kWidth 4 is 8 (32x32) or 16 (16x16), and grows with kWidth.
    for version, (m, n), transposed, warps, tpw in itertools.product(
            [3, 4], [(32, 32), (16, 16)], [False, True], grids, tpws):
        kbase = {32: 8, 16: 16}[m]
        cm, cn = m * tpw[0] * warps[0], n * tpw[1] * warps[1]
        for kw in [4, 8, 16]:
            p = dict(version=version, instr_shape=[m, n, kbase * kw // 4], transposed=transposed,
                     warps_per_cta=warps, tiles_per_warp=tpw, element_bitwidth=32)
            if kw == 4:
                for rm, rn in [(1, 1), (2, 1), (1, 2)]:
                    yield "mfma", p, [cm * rm, cn * rn]
            for op, ksteps in itertools.product([0, 1], [1, 2, 4]):
                kdim = kbase * kw // 4 * ksteps
                yield "mfma_dot", dict(p, operand_index=op, k_width=kw), [cm, kdim] if op == 0 else [kdim, cn]
    # WMMA: version 1 = RDNA3, 2 = RDNA4, 3 = gfx1250
    shapes = {1: [[16, 16, 16]], 2: [[16, 16, 16]],
              3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128]]}  # Triton 3.6 aborts on 32x16x128
    kwidths = {1: [16, 8], 2: [8, 4, 16], 3: [2, 8, 16, 4, 32]}
    for version in (1, 2, 3):
        for ishape, transposed, warps, tpw in itertools.product(shapes[version], [False, True], grids, tpws):
            p = dict(version=version, transposed=transposed, warps_per_cta=warps, instr_shape=ishape, tiles_per_warp=tpw)
            m, n, k = ishape
            cm, cn = m * tpw[0] * warps[0], n * tpw[1] * warps[1]
            for rm, rn in [(1, 1), (2, 1), (1, 2)]:
                yield "wmma", p, [cm * rm, cn * rn]
            for op, kw, ksteps in itertools.product([0, 1], kwidths[version], [1, 2, 4]):
                kdim = k * ksteps
                yield "wmma_dot", dict(p, operand_index=op, k_width=kw), [cm, kdim] if op == 0 else [kdim, cn]


def worker(start, out_path):
    import triton.experimental.gluon.language as gl
    from triton._C.libtriton import ir, gluon_ir
    from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout

    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    with open(out_path, "a") as out:
        for i, (name, p, shape) in enumerate(configs()):
            if i < start:
                continue
            rec = {"layout": name, "params": p, "shape": shape}
            try:
                q = {k: v for k, v in p.items() if k not in ("operand_index", "k_width")}
                parent = AMDMFMALayout(**q) if name.startswith("mfma") else AMDWMMALayout(**q)
                layout = gl.DotOperandLayout(operand_index=p["operand_index"], parent=parent,
                                             k_width=p["k_width"]) if name.endswith("_dot") else parent
                ll = b.to_linear_layout(layout._to_ir(b), list(shape))
                for key in ("reg_bases", "lane_bases", "warp_bases", "block_bases"):
                    rec[key] = [list(x) for x in getattr(ll, key)]
            except Exception as e:  # noqa: BLE001 - Triton's refusal is the record
                rec["error"] = f"{type(e).__name__}: {e}"
            out.write(json.dumps(rec) + "\n")
            out.flush()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]), sys.argv[3])
        return
    out_path = sys.argv[1]
    open(out_path, "w").close()
    total = sum(1 for _ in configs())
    import triton
    sys.stderr.write(f"triton {triton.__version__}: {total} layouts\n")
    run_restarting(out_path, total, [sys.executable, __file__, "--worker"],
                   lambda i: dict(zip(("layout", "params", "shape"), list(itertools.islice(configs(), i, i + 1))[0])))


if __name__ == "__main__":
    main()
