#!/usr/bin/env python3
"""Bank wavefronts on an H200 against lanescope's NVIDIA bank model (docs/verification/).

  banks.py make CLI > patterns.txt         every pattern with lanescope's prediction
                                           (lanescope-cli banks -a sm_90a --access A --addresses ... --format json)
  banks.py compare patterns.txt NCU.csv [SASS.txt]
                                           NCU.csv: ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
                                           of bank_probe patterns.txt (one launch per pattern, 64 accesses each);
                                           measured = (count - 1) / 64 (ncu adds one wavefront per launch)
The patterns: conflict-free, strided (2- to 32-way), broadcast, the n^1 / n^2 address pairs of
64/128-bit loads, permutations, padded and XOR-swizzled ldmatrix rows, rows sharing banks."""
import csv, json, random, subprocess, sys

LOOPS = 64
W32 = ["ld.shared.u32", "st.shared.u32"]
W64 = ["ld.shared.v2.u32", "st.shared.v2.u32"]
W128 = ["ld.shared.v4.u32", "st.shared.v4.u32"]
LDM = ["ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x4.trans", "stmatrix.x1", "stmatrix.x2", "stmatrix.x4",
       "stmatrix.x4.trans"]


def patterns():
    rnd = random.Random(26)
    out = []
    def add(name, access, addrs):
        out.append((name, access, [int(a) for a in addrs]))
    for acc in W32:
        add("stride4", acc, [4 * i for i in range(32)])
        add("stride8", acc, [8 * i for i in range(32)])
        add("stride128", acc, [128 * i for i in range(32)])
        add("stride132", acc, [132 * i for i in range(32)])
        add("broadcast", acc, [0] * 32)
        add("pairs-same-word", acc, [4 * (i // 2) for i in range(32)])
        add("stride256-halves", acc, [256 * (i % 16) + 4 * (i // 16) for i in range(32)])
        perm = list(range(32)); rnd.shuffle(perm)
        add("permuted-words", acc, [4 * p for p in perm])
        add("random", acc, [4 * rnd.randrange(4096) for _ in range(32)])
    for acc in W64:
        add("stride8", acc, [8 * i for i in range(32)])
        add("stride16", acc, [16 * i for i in range(32)])
        add("stride128", acc, [128 * i for i in range(32)])
        add("broadcast", acc, [0] * 32)
        add("pairs-n^1", acc, [8 * (i // 2) for i in range(32)])
        add("pairs-n^2", acc, [8 * ((i & ~2) // 1 % 32) for i in range(32)])
        add("X64-halves", acc, [8 * (i % 16) + (128 if i >= 16 else 0) for i in range(32)])
        add("half-2way", acc, [8 * (i % 8) + 256 * ((i // 8) % 2) + 64 * (i // 16) for i in range(32)])
        add("random", acc, [8 * rnd.randrange(2048) for _ in range(32)])
    for acc in W128:
        add("stride16", acc, [16 * i for i in range(32)])
        add("stride32", acc, [32 * i for i in range(32)])
        add("stride128", acc, [128 * i for i in range(32)])
        add("broadcast", acc, [0] * 32)
        add("pairs-n^1", acc, [16 * (i // 2) for i in range(32)])
        add("pairs-n^2", acc, [16 * (i & ~2) for i in range(32)])
        add("groups-of-4", acc, [16 * (i // 4) for i in range(32)])
        add("quarters-same", acc, [16 * (i % 8) for i in range(32)])
        add("X-quarters", acc, [16 * (i % 8) + (128 * ((i % 8) // 4)) * ((i // 8) % 2) for i in range(32)])
        add("random", acc, [16 * rnd.randrange(1024) for _ in range(32)])
    for acc in LDM:
        add("rows-contiguous", acc, [16 * i for i in range(32)])
        add("rows-stride128", acc, [128 * i for i in range(32)])
        add("rows-stride144-padded", acc, [144 * i for i in range(32)])
        add("rows-xor-swizzled", acc, [128 * i + 16 * ((i ^ (i // 8)) % 8) for i in range(32)])
        add("rows-xor-128B", acc, [128 * i + 16 * (i % 8) for i in range(32)])
        add("rows-stride64", acc, [64 * i for i in range(32)])
        add("all-same-row", acc, [0] * 32)
        add("X-matrices", acc, [16 * (i % 4) + 128 * ((i % 8) // 4) + 64 * ((i // 8) % 2) for i in range(32)])
        add("random-rows", acc, [16 * rnd.randrange(1024) for _ in range(32)])
    return out


def predict(cli, access, addrs):
    r = subprocess.run([cli, "banks", "-a", "sm_90a", "--access", access, "--addresses", ",".join(map(str, addrs)),
                        "--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("lanescope-cli banks failed for %s %s: %s" % (access, addrs, r.stderr))
    return json.loads(r.stdout)["wavefronts"]


def main():
    if sys.argv[1] == "make":
        for name, acc, addrs in patterns():
            print(name, acc, " ".join(map(str, addrs)), predict(sys.argv[2], acc, addrs))
        return
    rows = [l.split() for l in open(sys.argv[2]) if l.strip()]
    counts = []
    for r in csv.reader(open(sys.argv[3])):
        if len(r) > 3 and r[-3] == "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum":
            counts.append(float(r[-1].replace(",", "")))
    if len(counts) != len(rows):
        raise SystemExit("%d patterns but %d ncu measurements" % (len(rows), len(counts)))
    print("| # | access | pattern | ncu wavefronts (per access) | lanescope | equal |")
    print("|---|---|---|---|---|---|")
    equal = 0
    by_access = {}
    for i, (r, c) in enumerate(zip(rows, counts)):
        measured = (c - 1) / LOOPS
        pred = int(r[-1])
        ok = measured == pred
        equal += ok
        a = by_access.setdefault(r[1], [0, 0])
        a[0] += 1
        a[1] += ok
        print("| %d | %s | %s | %g (%d counted) | %d | %s |" % (i, r[1], r[0], measured, c, pred, "yes" if ok else "NO"))
    print()
    for a, (n, ok) in by_access.items():
        print("%s: %d/%d equal" % (a, ok, n))
    print("%d patterns, %d equal to lanescope's wavefronts" % (len(rows), equal))
    sys.exit(0 if equal == len(rows) else 1)


main()
