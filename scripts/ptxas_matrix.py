#!/usr/bin/env python3
"""ptxas acceptance matrix of NVIDIA matrix-instruction spellings.

Writes one line per spelling: the spelling (with " [a-tmem]" when tcgen05.mma's A
operand is a Tensor Memory address), a tab, and the targets whose ptxas accepted
it (comma-separated, "-" for none). The spellings are every form that
core/catalog/blackwell.txt describes plus the PTX spelling of every row of
core/catalog/nvidia.txt (one N per wgmma row); the targets are every sm_ target
lanescope knows from sm_80 on. One PTX file per target holds every spelling, one
per line, and ptxas reports each refusal with its line, so the whole matrix takes
one ptxas call per target.

This is how the `targets` of core/catalog/blackwell.txt were determined (CUDA 13.0,
ptxas V13.0.88); `lanescope-cli conformance --ptxas` re-checks the catalog
against ptxas in CI.

usage: scripts/ptxas_matrix.py [--ptxas PATH] [--catalog core/catalog/nvidia.txt] > matrix.tsv
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

TARGETS = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a",
           "sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f",
           "sm_110", "sm_110a", "sm_110f",
           "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f"]
F8F6F4 = ["e4m3", "e5m2", "e2m3", "e3m2", "e2m1"]


def regs(prefix, count, start=0):
    return "{" + ",".join(f"{prefix}{start + i}" for i in range(count)) + "}"


def tcgen05_mma():
    out = []
    plain = ["f16", "tf32", "f8f6f4", "i8"]
    scaled = [("mxf8f6f4", ["", ".scale_vec::1X", ".block32"]),
              ("mxf4", ["", ".scale_vec::2X", ".block32"]),
              ("mxf4nvf4", ["", ".scale_vec::2X", ".scale_vec::4X", ".block32", ".block16"])]
    for ws in ["", ".ws"]:
        for sp in ["", ".sp"]:
            for cta in [1, 2]:
                if ws and cta == 2:
                    continue
                kinds = [(k, "") for k in plain]
                if not ws:
                    kinds += [(k, ".block_scale" + q) for k, qs in scaled for q in qs]
                for kind, bs in kinds:
                    spelling = f"tcgen05.mma{ws}{sp}.cta_group::{cta}.kind::{kind}{bs}"
                    for tmem in [False, True]:
                        a = "[r2]" if tmem else "d0"
                        meta = ", [r3]" if sp else ""
                        scales = ", [r4], [r5]" if bs else ""
                        ops = f"[r0], {a}, d1{meta}, r1{scales}, p"
                        out.append((spelling + (" [a-tmem]" if tmem else ""), f"{spelling} {ops};"))
    return out


LDST = [("32x32b", 1, 128), ("16x64b", 1, 128), ("16x128b", 2, 64), ("16x256b", 4, 32), ("16x32bx2", 1, 128)]


def tcgen05_ldst():
    out = []
    for shape, per, top in LDST:
        num = 1
        while num <= top:
            for pack in [False, True]:
                n = per * num
                half = ", 1" if shape == "16x32bx2" else ""
                ld = f"tcgen05.ld.sync.aligned.{shape}.x{num}{'.pack::16b' if pack else ''}.b32"
                st = f"tcgen05.st.sync.aligned.{shape}.x{num}{'.unpack::16b' if pack else ''}.b32"
                out.append((ld, f"{ld} {regs('r', n, 10)}, [r0]{half};"))
                out.append((st, f"{st} [r0]{half}, {regs('r', n, 10)};"))
            num *= 2
    # tcgen05.ld.red (sm_103a, sm_110a): .x2 and up, 32x32b and 16x32bx2 only.
    for shape in ["32x32b", "16x32bx2"]:
        num = 2
        while num <= 128:
            for op in ["min", "max"]:
                for mod in ["", ".abs", ".NaN", ".abs.NaN"]:
                    for ty in ["f32", "u32", "s32"]:
                        if ty != "f32" and mod:
                            continue
                        s = f"tcgen05.ld.red.sync.aligned.{shape}.x{num}.{op}{mod}.{ty}"
                        half = ", 1" if shape == "16x32bx2" else ""
                        p = "f" if ty == "f32" else "r"
                        out.append((s, f"{s} {regs(p, num, 10)}, {p}1, [r0]{half};"))
            num *= 2
    return out


def tcgen05_cp():
    out = []
    for cta in [1, 2]:
        for shape in ["128x256b", "4x256b", "128x128b", "64x128b.warpx2::02_13", "64x128b.warpx2::01_23", "32x128b.warpx4"]:
            for dec in ["", ".b8x16.b6x16_p32", ".b8x16.b4x16_p64"]:
                s = f"tcgen05.cp.cta_group::{cta}.{shape}{dec}"
                out.append((s, f"{s} [r0], d0;"))
    return out


def mma_block_scale():
    out = []
    sf = "r30, {h0, h1}, r31, {h2, h3}"
    for d in ["f32", "f16"]:
        for t1 in F8F6F4:
            for t2 in F8F6F4:
                dr = regs("f", 4) if d == "f32" else regs("r", 2, 20)
                s = f"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.{d}.{t1}.{t2}.{d}"
                out.append((s, f"{s} {dr}, {regs('r', 4)}, {regs('r', 2, 4)}, {dr};"))
                s = f"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.{d}.{t1}.{t2}.{d}"
                out.append((s, f"{s} {dr}, {regs('r', 4)}, {regs('r', 4, 4)}, {dr}, r8, 0;"))
    f4 = regs("f", 4)
    for t1 in F8F6F4:
        for t2 in F8F6F4:
            for q in ["", ".scale_vec::1X"]:
                s = f"mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale{q}.f32.{t1}.{t2}.f32.ue8m0"
                out.append((s, f"{s} {f4}, {regs('r', 4)}, {regs('r', 2, 4)}, {f4}, {sf};"))
                s = f"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale{q}.f32.{t1}.{t2}.f32.ue8m0"
                out.append((s, f"{s} {f4}, {regs('r', 4)}, {regs('r', 4, 4)}, {f4}, r8, 0, {sf};"))
    for kind, q, st in [("mxf4", "", "ue8m0"), ("mxf4", ".scale_vec::2X", "ue8m0"),
                        ("mxf4nvf4", "", "ue8m0"), ("mxf4nvf4", ".scale_vec::2X", "ue8m0"),
                        ("mxf4nvf4", ".scale_vec::4X", "ue4m3"), ("mxf4nvf4", ".scale_vec::4X", "ue8m0"),
                        ("mxf4nvf4", ".scale_vec::2X", "ue4m3")]:
        s = f"mma.sync.aligned.m16n8k64.row.col.kind::{kind}.block_scale{q}.f32.e2m1.e2m1.f32.{st}"
        out.append((s, f"{s} {f4}, {regs('r', 4)}, {regs('r', 2, 4)}, {f4}, {sf};"))
        s = f"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::{kind}.block_scale{q}.f32.e2m1.e2m1.f32.{st}"
        out.append((s, f"{s} {f4}, {regs('r', 4)}, {regs('r', 4, 4)}, {f4}, r8, 0, {sf};"))
    # CUTLASS's qualifier order (kind and scale before the shape), one of each kind.
    for s in ["mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e2m1.f32.ue8m0",
              "mma.sync.aligned.kind::mxf4.block_scale.scale_vec::2X.m16n8k64.row.col.f32.e2m1.e2m1.f32.ue8m0",
              "mma.sync.aligned.kind::mxf4nvf4.block_scale.scale_vec::4X.m16n8k64.row.col.f32.e2m1.e2m1.f32.ue4m3"]:
        k = 32 if "m16n8k32" in s else 64
        out.append((s, f"{s} {f4}, {regs('r', 4)}, {regs('r', 2, 4)}, {f4}, {sf};"))
    return out


def reg_for(ty):
    return {"f32": "f", "f64": "fd"}.get(ty, "r")


def nvidia_txt(path):
    """The PTX spelling of every nvidia.txt row (wgmma: its smallest N)."""
    out = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        ptx, layout, shape, nfield, types, rg = f[1], f[4], f[5], f[6], f[8], f[9]
        counts = {w[0]: w[1:] for w in rg.split()}
        a, b, c = [t.strip() for t in types.split(",")]
        if layout == "wgmma":
            n = int(re.match(r"(\d+)", nfield).group(1))
            s = ptx.replace("{N}", str(n))
            dn = n // 2 if "=N/2" in counts["D"] else n // 4
            dr = regs(reg_for(c), dn)
            tail = ", p, 1, 1, 0, 0" if a in ("f16", "bf16") else ", p" if a in ("s8", "u8") else ", p, 1, 1"
            out.append((s, f"{s} {dr}, d0, d1{tail};"))
            continue
        if layout == "ldstmatrix":
            d = regs("r", int(counts["D"]), 10)
            out.append((ptx, f"{ptx} [d0], {d};" if ptx.startswith("stmatrix") else f"{ptx} {d}, [d0];"))
            continue

        def vec(letter, ty, start):
            n = int(counts[letter])
            if ty == "f64":
                return regs("fd", n // 2, start)
            return regs(reg_for(ty) if letter in "CD" else "r", n, start)
        ops = f"{vec('D', c, 100)}, {vec('A', a, 200)}, {vec('B', b, 300)}, {vec('C', c, 400)}"
        if layout == "mma_sp":
            ops += ", r8, 0"
        out.append((ptx, f"{ptx} {ops};"))
    return out


HEADER = """.version {version}
.target {target}
.address_size 64
.visible .entry k()
{{
  .reg .b32 r<600>;
  .reg .f32 f<600>;
  .reg .f64 fd<600>;
  .reg .b16 h<8>;
  .reg .b64 d<4>;
  .reg .pred p;
"""


def accepted(ptxas, target, lines):
    """The indices of `lines` that ptxas accepts on `target`."""
    head = HEADER.format(version="9.0", target=target)
    first = head.count("\n") + 1
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "m.ptx")
        with open(src, "w") as fh:
            fh.write(head + "".join("  " + l + "\n" for l in lines) + "  ret;\n}\n")
        res = subprocess.run([ptxas, "-arch=" + target, src, "-o", os.path.join(tmp, "m.cubin")],
                             capture_output=True, text=True)
    bad = set()
    for m in re.finditer(r"line (\d+); error", res.stderr):
        bad.add(int(m.group(1)) - first)
    if res.returncode != 0 and not bad:
        sys.exit(f"ptxas failed on {target} without a line: {res.stderr[:400]}")
    return {i for i in range(len(lines)) if i not in bad}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--catalog", default=os.path.join(here, "..", "core", "catalog", "nvidia.txt"))
    args = ap.parse_args()
    spellings = tcgen05_mma() + tcgen05_ldst() + tcgen05_cp() + mma_block_scale() + nvidia_txt(args.catalog)
    lines = [s[1] for s in spellings]
    ok = {t: accepted(args.ptxas, t, lines) for t in TARGETS}
    for i, (name, _) in enumerate(spellings):
        ts = [t for t in TARGETS if i in ok[t]]
        print(f"{name}\t{','.join(ts) if ts else '-'}")


if __name__ == "__main__":
    main()
