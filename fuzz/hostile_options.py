#!/usr/bin/env python3
"""A small hostile sweep of lanescope-cli's options: each base query is run alone and
with one extra option that changes something (a non-default value), and every run is judged:

  crash    exit status outside 0, 1, 2, 4, 5, or "internal error" on stderr
  hang     still running after --limit seconds (killed)
  ignored  exit 0 with exactly the output of the base query: the option did nothing, and said nothing
  unnamed  refused (exit 1 or 2) without naming the option as typed
  silent   refused without "legal" (what would be accepted) in the message

Usage: fuzz/hostile_options.py build/cli/lanescope-cli [--limit 20]
Prints one line per finding and a summary; exits 1 when anything was found. Expected findings
(options that are documented no-ops) are listed in KNOWN and reported apart."""
import json
import subprocess
import sys
import time

GFX942 = "-a gfx942 -i v_mfma_f32_32x32x8_f16"
G1250 = "-a gfx1250 -i v_wmma_f32_16x16x128_f8f6f4"
SCALE = "-a gfx1250 -i v_wmma_scale_f32_16x16x128_f8f6f4"
RDNA3 = "-a gfx1100 -i v_wmma_f32_16x16x16_f16"
WGMMA = "-a sm_90a -i wgmma_m64n64k16_f32_f16"
TC05 = "-a sm_100a -i tcgen05_mma_m128n64k16_f32_f16"
TC05_TS = "-a sm_100a -i tcgen05_mma_m128n64k16_f32_f16_ts"
SM120 = "-a sm_120a -i mma_m16n8k64_f32_e2m1_mxf4_2x_ue8m0"
DESC = "--descriptor 0x4000004000010000"
DESC_SBO = "--descriptor 0x4000008000010000"  # wgmma 128B, LBO 16, SBO 2048: not CUTLASS's canonical B (SBO 1024)

# (base query, [extra options]); every extra changes a default, so "ignored" means it did nothing.
CASES = [
    (f"trace {GFX942} --row 1 --col 2", ["--operand B", "--operand Z", "--block 1", "--view registers", "--waves 2x1",
                                         "--k-width 8", "--transposed"]),
    (f"where {GFX942} --operand A --row 1 --col 2", ["--block 1", "--view registers", "--waves 2x1", "--k-width 8",
                                                     "--transposed", "--cbsz 1"]),
    (f"which {GFX942} --operand A --reg 0 --lane 3", ["--of-wave 1", "--block 1", "--view registers", "--waves 2x1",
                                                      "--k-width 8", "--wave-size 64"]),
    (f"layout {GFX942} --operand C", ["--view registers", "--k-width 8", "--transposed", "--block 1", "--waves 2x1"]),
    (f"layout {G1250} --operand A", ["--matrix-a-fmt fp4 --k-width 8", "--matrix-b-fmt fp4", "--k-width 8",
                                     "--k-width 32", "--matrix-a-scale 1", "--index-key 1"]),
    (f"layout {SCALE} --operand SA", ["--k-width 8", "--transposed", "--matrix-a-scale 1", "--matrix-b-scale 1"]),
    (f"layout {SCALE} --operand all --waves 1x1", ["--k-width 16"]),
    (f"layout {RDNA3} --operand A", ["--wave 64", "--opsel 4", "--k-width 16"]),
    (f"info {GFX942}", ["--cbsz 1", "--format json"]),
    (f"load {GFX942} --operand A", ["--grouping '8 consecutive lanes'", "--memory global --grouping '8 consecutive lanes'",
                                    "--pad 4", "--swizzle 4,1,2", "--store", "--top 3", "--tables", "--namespace x"]),
    (f"load {GFX942} --operand A --sweep --top 3", ["--memory global", "--order col", "--ld 16", "--top 1"]),
    (f"header {GFX942} -o /dev/stdout", ["--tables", "--waves 2x1", "--operand B"]),
    (f"verify --device software {GFX942}", ["--corrupt A:shift-regs", "--corrupt D:swap-lanes:0:32",
                                            "--max-mismatches 1", "--every-modifier --cbsz 1"]),
    ("verify --device software -a gfx942 -i v_mfma_f32_32x32x2f32", ["--corrupt A:shift-regs", "--corrupt A:swap-lanes:0:1"]),
    (f"verify --device software {RDNA3}", ["--corrupt A:swap-lanes:0:16", "--corrupt A:swap-lanes:0:1"]),
    # Shared memory and Tensor Memory (JSON bases: their elements are compared, not the echoed modifiers).
    (f"layout {WGMMA} --operand A --format json", [DESC, "--swizzle 64B", "--lbo 128", "--major MN", "--k-width 8",
                                                    "--tmem-load 32x32b"]),
    (f"layout {WGMMA} --operand D --format json", ["--swizzle 64B", "--sbo 2048", "--smem-address 1024", "--base-offset 1",
                                                    "--k-width 8", "--transposed", "--selector 1"]),
    (f"layout {WGMMA} --operand B --format json", ["--swizzle 64B", "--swizzle none", "--major MN", "--swizzle none --lbo 0",
                                                    "--smem-address 16", "--base-offset 1", DESC_SBO, "--tmem-load 32x32b",
                                                    "--lbo 7", "--swizzle 1"]),
    (f"layout {TC05} --operand D --format json", ["--tmem-load 32x32b", "--tmem-load 7", "--num-warps 8", "--swizzle 64B",
                                                   "--lbo 128", "--half-split 8", "--sfa-id 1"]),
    (f"layout {TC05} --operand A --format json", ["--tmem-load 32x32b", "--swizzle 64B", "--major MN", "--num-warps 8"]),
    (f"layout {TC05_TS} --operand A --format json", ["--swizzle 64B", "--major MN", "--lbo 128", DESC]),
    (f"layout {SM120} --operand SB --format json", ["--sf-thread-b 3", "--sf-byte-b 2", "--swizzle 64B", "--tmem-load 32x32b"]),
    (f"where {TC05} --operand D --row 5 --col 3 --format json", ["--tmem-load 32x32b", "--swizzle 64B", "--half-split 8"]),
    (f"figure {WGMMA} --operand D -o /dev/stdout", [DESC, "--lbo 128"]),
    ("conformance --target gfx908 --clang /bin/false", ["--tool-timeout 1", "--jobs 3", "--objdump /bin/true"]),
]

# Documented no-ops or expected refusals without the word "legal", with the reason.
KNOWN = {
    # Same output for a reason: wave 0 of a 2x1 tile, and kWidth 8 vs the own 4, hold the same K in v0 lane 3.
    ("which", "--waves 2x1"): "wave 0 of the tile holds what one instruction holds",
    ("which", "--k-width 8"): "v0 of lane 3 holds K 0-1 at kWidth 4 and 8 alike",
    ("which", "--wave-size 64"): "64 is gfx942's only wave size (the default)",
    ("verify", "--max-mismatches 1"): "a passing check has no mismatches to limit",
    # Refused in the words of the option at fault, which is not the first word of the extra.
    ("layout", "--matrix-a-fmt fp4 --k-width 8"): "names --k-width, the option refused",
    ("verify", "--every-modifier --cbsz 1"): "names --cbsz, the option refused",
    # The base query itself is refused (the fake compiler does not run): the extras cannot be judged.
    ("conformance", "--tool-timeout 1"): "base refused", ("conformance", "--jobs 3"): "base refused",
    ("conformance", "--objdump /bin/true"): "base refused",
    # CLI11's own messages for options a subcommand does not have and for repeated options (they name the
    # option; the CLI's start-up, not these surfaces, words them).
    ("trace", "--view registers"): "CLI11", ("where", "--view registers"): "CLI11", ("which", "--view registers"): "CLI11",
    ("which", "--block 1"): "CLI11", ("layout", "--block 1"): "CLI11", ("load", "--top 1"): "CLI11 (repeated)",
    ("which", "--of-wave 1"): "says what to give instead (the tile options)",
}


def run(cli, args, limit):
    t0 = time.time()
    try:
        p = subprocess.run(cli + " " + args, shell=True, capture_output=True, timeout=limit, text=True, errors="replace")
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return None, "", "", time.time() - t0


def same_answer(a, b):
    """The same elements where they are: a JSON answer's entries (its modifiers echo what was asked), else the text."""
    try:
        ja, jb = json.loads(a), json.loads(b)
    except ValueError:
        return a == b
    if isinstance(ja, dict) and isinstance(jb, dict):
        strip = lambda j: {k: v for k, v in j.items() if k not in ("modifiers", "notes", "formula", "modifiers_legal")}
        return strip(ja) == strip(jb)
    return ja == jb


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else "build/cli/lanescope-cli"
    limit = float(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 20.0
    findings, known, runs, slowest = [], [], 0, (0.0, "")
    for base, extras in CASES:
        b = run(cli, base, limit)
        runs += 1
        if b[0] == 4 and "not built" in b[2]:
            continue  # the GPU backend is not built here: verify and conformance cannot be judged
        for extra in extras:
            args = base + " " + extra
            rc, out, err, secs = run(cli, args, limit)
            runs += 1
            slowest = max(slowest, (secs, args))
            word = extra.split()[0]
            what = None
            if rc is None:
                what = f"hang (> {limit:.0f} s)"
            elif rc not in (0, 1, 2, 4, 5) or "internal error" in err:
                what = f"crash (exit {rc}): {err.strip()[:200]}"
            elif rc == 0 and b[0] == 0 and same_answer(out, b[1]):
                what = "ignored: the same output as without it"
            elif rc in (1, 2) and word not in err and word.lstrip("-") not in err:
                what = f"unnamed: refused without naming {word}: {err.strip()[:200]}"
            elif rc in (1, 2) and "legal" not in err and "leave it out" not in err:
                what = f"silent: no legal alternative: {err.strip()[:200]}"
            if what:
                key = (base.split()[0], extra)
                (known if key in KNOWN else findings).append(f"lanescope-cli {args}\n    {what}")
    for f in findings:
        print("FINDING " + f)
    for k in known:
        print("known   " + k)
    print(f"{runs} runs, {len(findings)} findings, {len(known)} known; slowest {slowest[0]:.2f} s: {slowest[1]}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
