#!/usr/bin/env python3
"""The Gluon round trip of scripts/gluon-roundtrip.py, through the Python module's objects.

For each of that script's cases (the same 1,278): L = lanescope.layout(...) with the case's
options as keywords; G = L.to_gluon() (the named Gluon object where lanescope names one) and
L.to_gluon("linear") (gl.DistributedLinearLayout); Triton's linear layout of each at L's shape
(GluonOpBuilder.to_linear_layout) compared with L.linear() (bases equal, in order);
lanescope.from_gluon(G, shape) compared with L element by element (its arrays against L's
lane_of / reg_of ... through lanescope.check); lanescope.assert_layout(G, ...) must pass.

    PYTHONPATH=build/python python3 scripts/gluon-roundtrip-module.py OUT.jsonl [--summary OUT.md]
"""
import collections
import importlib.util
import json
import os
import sys

import lanescope

_spec = importlib.util.spec_from_file_location("roundtrip", os.path.join(os.path.dirname(__file__), "gluon-roundtrip.py"))
roundtrip = importlib.util.module_from_spec(_spec)
sys.path.insert(0, os.path.dirname(__file__))
_spec.loader.exec_module(roundtrip)


def as_call(args):
    """lanescope-cli words -> (arch, instruction, operand, keywords)."""
    kw, i = {}, 0
    arch = ins = op = None
    while i < len(args):
        w = args[i]
        if w in ("-a", "--arch"):
            arch, i = args[i + 1], i + 2
        elif w in ("-i", "--instruction"):
            ins, i = args[i + 1], i + 2
        elif w == "--operand":
            op, i = args[i + 1], i + 2
        elif w == "--transposed":
            kw["transposed"], i = True, i + 1
        else:
            kw[w[2:].replace("-", "_")], i = args[i + 1], i + 2
    return arch, ins, op, kw


def ours_bases(L):
    lin = L.linear()
    ours = {"reg_bases": lin.get("register", []), "lane_bases": lin.get("lane", []),
            "warp_bases": lin.get("warp", []), "block_bases": lin.get("block", [])}
    if L.vendor == "NVIDIA":  # a warpgroup's 128 threads are 4 warps of 32 lanes in Gluon
        ours["warp_bases"] = ours["lane_bases"][5:] + ours["warp_bases"]
        ours["lane_bases"] = ours["lane_bases"][:5]
    return ours


def run_case(label, args):
    from lanescope import _gluon
    rec = {"case": label}
    arch, ins, op, kw = as_call(args)
    try:
        L = lanescope.layout(arch, ins, operand=op, **kw)
        forms = {"linear": L.to_gluon("linear")}
        named = L.to_gluon("named")
        if named is not forms["linear"] and type(named).__name__ != "DistributedLinearLayout":
            forms["named"] = named
            rec["named_object"] = type(named).__name__
    except lanescope.Error as e:
        rec["error"] = f"lanescope: {e}"
        return rec
    shape = [L.rows, L.cols]
    ours = ours_bases(L)
    for key, g in forms.items():
        try:
            theirs = _gluon.bases(g, shape)
            rec[key] = roundtrip.compare(ours, theirs)
            back = lanescope.from_gluon(g, shape)  # Triton's layout of the object, as lanescope reads it
            rec[key + "_check"] = "equal" if L.check(back).equal else "differ"
            lanescope.assert_layout(g, arch, ins, op, **kw)
            rec[key + "_assert"] = "passed"
        except AssertionError as e:
            rec[key + "_assert"] = f"failed: {e}"
        except Exception as e:  # noqa: BLE001
            rec[key] = f"error: {type(e).__name__}: {e}"
    return rec


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit("usage: gluon-roundtrip-module.py OUT.jsonl [--summary OUT.md]")
    import triton
    recs = []
    with open(sys.argv[1], "w") as out:
        for label, args in roundtrip.cases():
            rec = run_case(label, args)
            recs.append(rec)
            out.write(json.dumps(rec) + "\n")
    by = collections.Counter()
    for r in recs:
        if "error" in r:
            by[("lanescope", "error")] += 1
            continue
        for key in ("linear", "named"):
            if key not in r:
                continue
            kind = "DistributedLinearLayout" if key == "linear" else r["named_object"]
            by[(kind, "to_gluon bases " + r[key])] += 1
            by[(kind, "from_gluon check " + r.get(key + "_check", "-"))] += 1
            by[(kind, "assert_layout " + r.get(key + "_assert", "-"))] += 1
    lines = [f"triton {triton.__version__}, lanescope module {lanescope.__file__}", "", f"{len(recs)} cases", "",
             "| Gluon object | result | cases |", "|---|---|---|"]
    lines += [f"| {k} | {res} | {n} |" for (k, res), n in sorted(by.items())]
    bad = [r for r in recs if "error" in r or any(
        r.get(k) not in (None, "equal") for k in ("linear", "named")) or any(
        r.get(k + s, "passed" if s == "_assert" else "equal") not in ("equal", "passed")
        for k in ("linear", "named") if k in r for s in ("_check", "_assert"))]
    if bad:
        lines += ["", "Cases not equal:", ""] + [f"- {json.dumps(r)}" for r in bad[:40]]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if len(sys.argv) == 4:
        open(sys.argv[3], "w").write(text)


if __name__ == "__main__":
    main()
