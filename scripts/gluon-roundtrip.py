#!/usr/bin/env python3
"""Evaluate `lanescope-cli layout --format gluon` back in Gluon and compare with lanescope.

For each case, lanescope prints Python (docs/tiles.md, "Gluon"): the named constructor
(`layout = AMDMFMALayout(...)`, `gl.DotOperandLayout(...)`, `AMDWMMALayout(...)`,
`gl.NVMMADistributedLayout(...)`) where one exists, and always
`linear = gl.DistributedLinearLayout(...)`. This script executes that text with an installed
Triton (3.6 here), asks Triton for each layout's linear layout at the printed shape
(`GluonOpBuilder.to_linear_layout`), and compares it with lanescope's own linear layout
(`layout --format linear`, JSON): bases equal (exact), equal as maps (the same element in the
same register/lane/warp once the bases are read as functions) or different.

    python3 scripts/gluon-roundtrip.py LANESCOPE_CLI OUT.jsonl [--summary OUT.md]

Needs no GPU: Triton builds layouts on the host. Each case runs in a worker process; Triton
aborts the process on some layouts it refuses, so the parent records that case as an error
and starts a new worker after it.
"""
import itertools
import json
import subprocess
import sys

from restarting_worker import run_restarting


def cases():
    """(label, lanescope-cli arguments) for every case."""
    grids = ["1x1", "2x2", "4x1", "1x4"]
    tpws = ["1x1", "2x1", "1x2"]
    # MFMA (gfx942 = Triton's version 3, gfx950 = 4): C with and without transposed,
    # A and B with every kWidth Triton accepts, over wave grids, tiles per wave, K steps.
    mfma = [("gfx942", "v_mfma_f32_32x32x8_f16", 32, 32, 8, [4, 8, 16]),
            ("gfx942", "v_mfma_f32_16x16x16_f16", 16, 16, 16, [4, 8, 16]),
            ("gfx950", "v_mfma_f32_32x32x16_f16", 32, 32, 16, [8, 16]),
            ("gfx950", "v_mfma_f32_16x16x32_bf16", 16, 16, 32, [8, 16]),
            ("gfx942", "v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, [8, 16])]
    # WMMA: RDNA3 (version 1), RDNA4 (2), gfx1250 (3); 16x16, kWidth does not change Triton's K.
    wmma = [("gfx1100", "v_wmma_f32_16x16x16_f16", 16, 16, 16, [16, 8]),
            ("gfx1200", "v_wmma_f32_16x16x16_f16", 16, 16, 16, [8, 4, 16]),
            ("gfx1250", "v_wmma_f32_16x16x32_f16", 16, 16, 32, [8, 16, 2])]
    for family, rows in (("mfma", mfma), ("wmma", wmma)):
        for (arch, ins, m, n, k, kwidths), grid, tpw in itertools.product(rows, grids, tpws):
            wm, wn = map(int, grid.split("x"))
            rm, rn = map(int, tpw.split("x"))
            tile = ["-a", arch, "-i", ins, "--waves", grid, "--tiles-per-wave", tpw]
            for transposed in (False, True):
                shape = f"{m * wm * rm}x{n * wn * rn}x{k}"
                yield (f"{arch} {ins} C {grid} {tpw} {shape}{' transposed' if transposed else ''}",
                       tile + ["--operand", "C", "--shape", shape] + (["--transposed"] if transposed else []))
            for op, kw, ksteps in itertools.product("AB", kwidths, [1, 2]):
                # MFMA: Triton's instruction K grows with kWidth, K * kWidth / (the instruction's own
                # elements per lane, M * K / 64); the shape holds one or two of those K steps.
                kt = max(k, k * kw // (m * k // 64)) if family == "mfma" else k
                shape = f"{m * wm * rm}x{n * wn * rn}x{kt * ksteps}"
                yield (f"{arch} {ins} {op} {grid} {tpw} {shape} kWidth {kw}",
                       tile + ["--operand", op, "--shape", shape, "--k-width", str(kw)])
    # NVIDIA: mma.sync m16n8k16 (Triton's mma v2) and wgmma (v3): C, and A/B of mma.sync.
    for grid, tpw, reps in itertools.product(["1x1", "2x2", "4x1", "2x4"], ["1x1", "2x2"], [(1, 1, 1), (2, 2, 2), (1, 4, 2)]):
        wm, wn = map(int, grid.split("x"))
        rm, rn = map(int, tpw.split("x"))
        for op in "CAB":
            shape = f"{16 * wm * rm * reps[0]}x{8 * wn * rn * reps[1]}x{16 * reps[2]}"
            args = ["-a", "sm_80", "-i", "mma_m16n8k16_f32_f16", "--operand", op, "--waves", grid,
                    "--tiles-per-wave", tpw, "--shape", shape]
            yield f"sm_80 mma_m16n8k16_f32_f16 {op} {grid} {tpw} {shape}", args
    # Other types: the fragment layouts change with the element width (kWidth = 32 bits / element).
    for ins, k in [("mma_m16n8k16_f32_bf16", 16), ("mma_m16n8k16_f16_f16", 16), ("mma_m16n8k8_f32_tf32", 8),
                   ("mma_m16n8k8_f32_f16", 8), ("mma_m16n8k32_s32_s8", 32), ("mma_m16n8k32_f32_e4m3", 32),
                   ]:
        for grid, op in itertools.product(["1x1", "2x2"], "CAB"):
            wm, wn = map(int, grid.split("x"))
            shape = f"{32 * wm}x{16 * wn}x{2 * k}"
            args = ["-a", "sm_89", "-i", ins, "--operand", op, "--waves", grid, "--shape", shape]
            yield f"sm_89 {ins} {op} {grid} {shape}", args
    for ins in ["wgmma_m64n64k16_f32_bf16", "wgmma_m64n64k16_f16_f16", "wgmma_m64n64k8_f32_tf32",
                "wgmma_m64n64k32_f32_e4m3", "wgmma_m64n64k32_s32_s8", "wgmma_m64n8k16_f32_f16"]:
        n = int(ins.split("n")[1].split("k")[0])
        for grid in ["1x1", "2x2"]:
            wm, wn = map(int, grid.split("x"))
            shape = f"{64 * wm}x{n * wn}x{int(ins.split('k')[1].split('_')[0])}"
            args = ["-a", "sm_90", "-i", ins, "--operand", "C", "--waves", grid, "--shape", shape]
            yield f"sm_90 {ins} C {grid} {shape}", args
    for n in (64, 128, 256):
        for grid in ["1x1", "2x1"]:
            wm = int(grid.split("x")[0])
            shape = f"{64 * wm}x{n}x16"
            args = ["-a", "sm_90", "-i", f"wgmma_m64n{n}k16_f32_f16", "--operand", "C", "--waves", grid,
                    "--shape", shape]
            yield f"sm_90 wgmma_m64n{n}k16_f32_f16 C {grid} {shape}", args


def as_map(bases):
    """The layout as a function: (input dim, index) -> output coordinate, for every index."""
    out = {}
    for dim, vecs in bases.items():
        for i in range(1 << len(vecs)):
            x = [0] * (len(vecs[0]) if vecs else 2)
            for b, v in enumerate(vecs):
                if i >> b & 1:
                    x = [a ^ c for a, c in zip(x, v)]
            out[(dim, i)] = tuple(x)
    return out


def triton_bases(builder, layout, shape):
    ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
    return {k: [list(x) for x in getattr(ll, k)] for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases")}


def compare(ours, theirs):
    keys = ("reg_bases", "lane_bases", "warp_bases", "block_bases")
    if all(ours.get(k, []) == theirs.get(k, []) for k in keys):
        return "equal"
    if as_map({k: ours.get(k, []) for k in keys}) == as_map({k: theirs.get(k, []) for k in keys}):
        return "equal as maps"
    return "differ"


def run_case(cli, builder, label, args):
    rec = {"case": label, "args": args}
    g = subprocess.run([cli, "layout", *args, "--format", "gluon"], capture_output=True, text=True)
    lin = subprocess.run([cli, "layout", *args, "--format", "linear"], capture_output=True, text=True)
    if g.returncode != 0 or lin.returncode != 0:
        rec["error"] = "lanescope-cli: " + (g.stderr or lin.stderr).strip()
        return rec
    ours_json = json.loads(lin.stdout)
    ours = {"reg_bases": ours_json.get("register", []), "lane_bases": ours_json.get("lane", []),
            "warp_bases": ours_json.get("warp", []), "block_bases": ours_json.get("block", [])}
    shape = ours_json["shape"]
    if args[args.index("-a") + 1].startswith("sm_"):
        # lanescope counts a wgmma warpgroup's 128 threads as lanes; Gluon has 32 lanes per warp
        # and the warpgroup's 4 warps as warps: lane bases past the fifth are warp bases.
        ours["warp_bases"] = ours["lane_bases"][5:] + ours["warp_bases"]
        ours["lane_bases"] = ours["lane_bases"][:5]
    ns = {}
    try:
        exec(g.stdout, ns)  # noqa: S102 - the text under test, printed by lanescope-cli
    except Exception as e:  # noqa: BLE001
        rec["error"] = f"Gluon refused the text: {type(e).__name__}: {e}"
        return rec
    rec["named"] = type(ns["layout"]).__name__ if "layout" in ns else None
    rec["named_inferred"] = "inferred" in g.stdout
    # The DistributedLinearLayout always, the named constructor where one is printed.
    for var, key, keep in (("linear", "linear", "triton_linear"), ("layout", "named_result", "triton_named")):
        if var not in ns:
            continue
        try:
            theirs = triton_bases(builder, ns[var], shape)
            rec[key] = compare(ours, theirs)
            if rec[key] != "equal":
                rec["ours"], rec[keep] = ours, theirs
        except Exception as e:  # noqa: BLE001
            rec[key] = f"error: {type(e).__name__}: {e}"
    return rec


def worker(cli, start, out_path):
    from triton._C.libtriton import ir, gluon_ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    with open(out_path, "a") as out:
        for i, (label, args) in enumerate(cases()):
            if i < start:
                continue
            out.write(json.dumps(run_case(cli, builder, label, args)) + "\n")
            out.flush()


def summary(out_path):
    recs = [json.loads(line) for line in open(out_path)]
    import collections
    by = collections.Counter()
    for r in recs:
        by[("DistributedLinearLayout", r.get("linear", "error: " + r.get("error", "?")))] += 1
        if r.get("named"):
            kind = r["named"] + (" (inferred)" if r.get("named_inferred") else "")
            by[(kind, r.get("named_result", "?"))] += 1
    lines = [f"{len(recs)} cases", "", "| evaluated form | result | cases |", "|---|---|---|"]
    for (kind, res), n in sorted(by.items()):
        lines.append(f"| {kind} | {res} | {n} |")
    bad = [r for r in recs if r.get("linear") != "equal" or r.get("named_result", "equal") not in ("equal", "equal as maps")]
    if bad:
        lines += ["", "Cases not equal:", ""] + [f"- {r['case']}: {r.get('error') or (r.get('linear'), r.get('named_result'))}" for r in bad]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--summary"):
        sys.exit("usage: gluon-roundtrip.py LANESCOPE_CLI OUT.jsonl [--summary OUT.md]")
    cli, out_path = sys.argv[1], sys.argv[2]
    open(out_path, "w").close()
    total = sum(1 for _ in cases())
    import triton
    sys.stderr.write(f"triton {triton.__version__}: {total} cases\n")
    run_restarting(out_path, total, [sys.executable, __file__, "--worker", cli],
                   lambda i: dict(zip(("case", "args"), list(itertools.islice(cases(), i, i + 1))[0])))
    text = f"triton {triton.__version__}\n\n" + summary(out_path)
    sys.stdout.write(text)
    if len(sys.argv) == 5:
        open(sys.argv[4], "w").write(text)


if __name__ == "__main__":
    main()
