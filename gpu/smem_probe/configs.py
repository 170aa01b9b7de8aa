#!/usr/bin/env python3
"""The wgmma B configurations of the live check (docs/verification/smem-wgmma-b-h200.md).

`configs.py make CLI` prints the descriptors (configs.txt holds "trans descriptor" of each, the probe's input) (descriptors from lanescope-cli,
start relative to the probe's buffer); `configs.py compare CLI probe_out.txt` compares every
element with lanescope's claim at the buffer's absolute address, and two corrupted claims
(base offset added instead of subtracted; the swizzle anchored at the start) that must fail."""
import json, subprocess, sys

INS = "wgmma_m64n64k16_f32_f16"
# (name, options) with --smem-address relative to the buffer (the probe adds its shared address).
CONFIGS = [
    ("K none, CUTLASS", "--major K --swizzle none"),
    ("K none, LBO 2048 SBO 256", "--major K --swizzle none --lbo 2048 --sbo 256"),
    ("K none, start 16", "--major K --swizzle none --smem-address 16"),
    ("K 32B, CUTLASS", "--major K --swizzle 32B"),
    ("K 32B, start 128", "--major K --swizzle 32B --smem-address 128"),
    ("K 32B, base offset 3", "--major K --swizzle 32B --base-offset 3"),
    ("K 64B, CUTLASS", "--major K --swizzle 64B"),
    ("K 64B, start 32", "--major K --swizzle 64B --smem-address 32"),
    ("K 64B, start 256", "--major K --swizzle 64B --smem-address 256"),
    ("K 64B, base offset 5", "--major K --swizzle 64B --base-offset 5"),
    ("K 128B, CUTLASS", "--major K --swizzle 128B"),
    ("K 128B, start 32", "--major K --swizzle 128B --smem-address 32"),
    ("K 128B, start 96", "--major K --swizzle 128B --smem-address 96"),
    ("K 128B, start 512", "--major K --swizzle 128B --smem-address 512"),
    ("K 128B, base offset 1", "--major K --swizzle 128B --base-offset 1"),
    ("K 128B, base offset 3", "--major K --swizzle 128B --base-offset 3"),
    ("K 128B, base offset 7", "--major K --swizzle 128B --base-offset 7"),
    ("K 128B, start 512 base offset 4", "--major K --swizzle 128B --smem-address 512 --base-offset 4"),
    ("K 128B, SBO 1536", "--major K --swizzle 128B --sbo 1536"),
    ("K 128B, LBO 8192 (ignored)", "--major K --swizzle 128B --lbo 8192"),
    ("K 128B, start 1664", "--major K --swizzle 128B --smem-address 1664"),
    ("MN none, CUTLASS", "--major MN --swizzle none"),
    ("MN none, LBO 2048 SBO 256", "--major MN --swizzle none --lbo 2048 --sbo 256"),
    ("MN 32B, CUTLASS", "--major MN --swizzle 32B"),
    ("MN 32B, start 512", "--major MN --swizzle 32B --smem-address 512"),
    ("MN 32B, base offset 1", "--major MN --swizzle 32B --base-offset 1"),
    ("MN 64B, CUTLASS", "--major MN --swizzle 64B"),
    ("MN 64B, SBO 2048", "--major MN --swizzle 64B --sbo 2048"),
    ("MN 64B, LBO 1024", "--major MN --swizzle 64B --lbo 1024"),
    ("MN 128B, CUTLASS", "--major MN --swizzle 128B"),
    ("MN 128B, base offset 2", "--major MN --swizzle 128B --base-offset 2"),
    ("MN 128B, start 1024 LBO 8192 (ignored)", "--major MN --swizzle 128B --smem-address 1024 --lbo 8192"),
    # Raw descriptors with bits the hardware ignores set (14, 30, 46, 52, 61).
    ("raw K 128B + bits 14,30,46,52,61", "--descriptor 0x%016x" % (0x4000004000010000 | 1 << 14 | 1 << 30 | 1 << 46 | 1 << 52 | 1 << 61)),
    ("raw K none + bit 46, base offset 5 (no effect)", "--descriptor 0x%016x" % (0x0000000800400000 | 1 << 46 | 5 << 49)),
    ("raw MN 64B + bits 52,61", "--major MN --descriptor 0x%016x" % ((2 << 62) | (64 << 32) | (32 << 16) | 1 << 52 | 1 << 61)),
]


def load(cli, opts, start_shift=0):
    args = [cli, "load", "-a", "sm_90a", "-i", INS, "--operand", "B", "--format", "json"] + opts.split()
    if start_shift:
        if "--descriptor" in opts:
            i = args.index("--descriptor")
            args[i + 1] = "0x%016x" % (int(args[i + 1], 16) + (start_shift >> 4))
        elif "--smem-address" in opts:
            i = args.index("--smem-address")
            args[i + 1] = str(int(args[i + 1]) + start_shift)
        else:
            args += ["--smem-address", str(start_shift)]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def swz(a, W, bo, mode):
    if W == 0:
        return a
    b = {32: 1, 64: 2, 128: 3}[W]
    row = (a >> 7) & 7
    if mode == "added":
        row = (row + bo) % (1 << b)
    else:
        row = (row - bo) % (1 << b)
    return a ^ (row << 4)


def main():
    cli = sys.argv[2]
    if sys.argv[1] == "make":
        for n, (name, opts) in enumerate(CONFIGS):
            j = load(cli, opts)
            trans = 1 if j["memory"]["major"] == "MN" else 0
            print(trans, j["descriptor"]["value"][2:])
        return
    got, base = {}, 0
    for line in open(sys.argv[3]):
        p = line.split()
        if p[0] == "base":
            base = int(p[1])
            continue
        got[(int(p[0]), int(p[1]), int(p[2]))] = int(p[3])
    total = equal = 0
    corrupt = {"added": 0, "start-anchored": 0}
    corrupt_tried = {"added": 0, "start-anchored": 0}
    print("| # | configuration | descriptor | elements | equal |")
    print("|---|---|---|---|---|")
    for n, (name, opts) in enumerate(CONFIGS):
        j = load(cli, opts, base)
        m = j["memory"]
        W = {"none": 0, "32B": 32, "64B": 64, "128B": 128}[m["swizzle"]]
        ok = 0
        bad_added = bad_anchor = 0
        for e in j["entries"]:
            hw = got[(n, e["row"], e["col"])]
            claim = (e["address"] - base) // 2
            ok += hw == claim
            # Corrupted claims: the same linear offset with the base offset added, or swizzled from the start.
            lin = e["address"]
            pre = None
        equal += ok
        total += len(j["entries"])
        print("| %d | %s | %s | %d | %d |" % (n, name, j["descriptor"]["value"], len(j["entries"]), ok))
        # Corrupted claims (only where they differ from the claim): recompute from the unswizzled layout.
        if W:
            plain = load(cli, opts.replace("--swizzle " + m["swizzle"], "--swizzle " + m["swizzle"]), base)
            # The pre-swizzle address: undo the true swizzle (an involution given the row bits, which it keeps).
            for e in plain["entries"]:
                a = e["address"]
                lin = swz(a, W, m["base_offset"], "subtracted")
                hw = got[(n, e["row"], e["col"])]
                add = (swz(lin, W, m["base_offset"], "added") - base) // 2
                start = base + m["start_address"]
                anch = (start + swz(lin - start, W, 0, "subtracted") - base) // 2
                if add != (a - base) // 2:
                    corrupt_tried["added"] += 1
                    corrupt["added"] += hw == add
                if anch != (a - base) // 2:
                    corrupt_tried["start-anchored"] += 1
                    corrupt["start-anchored"] += hw == anch
    print()
    print("buffer shared address: %d; %d configurations, %d elements, %d equal to lanescope's claim" % (base, len(CONFIGS), total, equal))
    for k in corrupt:
        print("corrupted claim '%s': %d elements where it differs from lanescope's, the hardware agrees with it at %d"
              % (k, corrupt_tried[k], corrupt[k]))
    sys.exit(0 if equal == total else 1)


main()
