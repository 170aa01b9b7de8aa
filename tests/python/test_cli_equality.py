"""The module's layouts equal lanescope-cli's JSON (a separate process) element by element."""
import numpy as np
import pytest

import lanescope
from conftest import SANITIZED, cli_json, run_cli

FIELDS = ("block", "row", "col", "lane", "reg", "bit_lo", "bit_hi")


def _cases():
    # Two instructions of every family (one target each), every operand; then tiles and modifiers.
    seen = set()
    for t in lanescope.architectures():
        if t["family"] in seen:
            continue
        seen.add(t["family"])
        for ins in lanescope.instructions(t["name"])[:1 if SANITIZED else 2]:
            for op in ins["operands"]:
                yield t["name"], ins["mnemonic"], op, {}
    yield "gfx942", "v_mfma_f32_32x32x8_f16", "A", {"waves": (2, 2), "shape": (128, 128, 32), "k_width": 8}
    yield "gfx942", "v_mfma_f32_32x32x8_f16", "B", {"waves": "2x1", "tiles_per_wave": "1x2", "shape": "64x128x16"}
    yield "gfx942", "v_mfma_f32_16x16x16_f16", "C", {"waves": (1, 4), "transposed": True}
    yield "gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", {"cbsz": 4}
    yield "gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", "SA", {"opsel_a": 2}
    yield "gfx942", "v_mfma_f32_16x16x4_4b_f16", "A", {"cbsz": 2, "abid": 1}
    yield "gfx1100", "v_wmma_f32_16x16x16_f16", "A", {"wave": 64}
    yield "gfx1100", "v_wmma_f16_16x16x16_f16", "D", {"opsel": 4}
    yield "gfx1250", "v_wmma_f32_16x16x128_f8f6f4", "A", {"matrix_a_fmt": "fp6"}
    yield "sm_90", "wgmma_m64n64k16_f32_f16", "D", {}
    yield "sm_90", "wgmma_m64n64k16_f32_f16", "B", {"swizzle": "64B"}
    yield "sm_80", "mma_m16n8k16_f32_f16", "C", {"waves": (2, 2), "shape": (64, 32, 16)}


def _words(arch, ins, op, kw):
    words = ["-a", arch, "-i", ins, "--operand", op]
    for k, v in kw.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            words.append(flag)
        else:
            words += [flag, "x".join(map(str, v)) if isinstance(v, tuple) else str(v)]
    return words


CASES = list(_cases())


@pytest.mark.parametrize("arch,ins,op,kw", CASES, ids=[f"{a}-{i}-{o}-{len(k)}" for a, i, o, k in CASES])
def test_equals_cli_json(arch, ins, op, kw):
    rc, out, err = run_cli("layout", *_words(arch, ins, op, kw), "--format", "json")
    if rc != 0:  # the CLI refuses it: the module must refuse it with the same message
        with pytest.raises(lanescope.Error) as e:
            lanescope.layout(arch, ins, operand=op, **kw)
        assert str(e.value) in err
        return
    import json
    j = json.loads(out)
    L = lanescope.layout(arch, ins, operand=op, **kw)
    assert (L.rows, L.cols, L.blocks, L.lanes, L.regs, L.space, L.type) == (
        j["rows"], j["cols"], j["blocks"], j["lanes"], j["regs"], j["space"], j["type"])
    entries = j["entries"]
    assert len(L) == len(entries)
    for f in FIELDS:
        assert (getattr(L, f) == np.array([e[f] for e in entries], dtype=np.int32)).all(), f
    waves = np.array([e.get("wave", 0) for e in entries], dtype=np.int32)
    assert (L.wave == waves).all()
    assert L.to_json() == out  # the text is the CLI's, byte for byte


def test_text_exports_equal_cli():
    words = ["-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "A", "--waves", "2x2", "--shape", "64x64x16"]
    L = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="A", waves=(2, 2), shape=(64, 64, 16))
    for method, fmt in [("to_linear", "linear"), ("to_gluon_source", "gluon"), ("to_cute", "cute")]:
        rc, out, err = run_cli("layout", *words, "--format", fmt)
        assert rc == 0, err
        assert getattr(L, method)() == out
    assert L.linear()["shape"] == [64, 16]
    rc, out, _ = run_cli("header", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "-o", "-")
    assert lanescope.header("gfx942", "v_mfma_f32_32x32x8_f16") == out
    assert cli_json("load", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "A", "--format", "json") == \
        lanescope.load("gfx942", "v_mfma_f32_32x32x8_f16", operand="A")
    assert cli_json("load", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "B", "--pad", "4",
                    "--format", "json") == L.__class__("gfx942", "v_mfma_f32_32x32x8_f16", "B").load(pad=4)
    if SANITIZED:
        return  # the sweep ranks dozens of load plans: minutes in the Debug ASan build; the Release suite compares it
    s = lanescope.sweep("gfx942", "v_mfma_f32_32x32x8_f16", operand="A", top=3)
    assert s == cli_json("load", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "A", "--sweep",
                         "--top", "3", "--format", "json")
    assert lanescope.where("gfx942", "v_mfma_f32_32x32x8_f16", "C", 3, 5) == cli_json(
        "where", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "C", "--row", "3", "--col", "5",
        "--format", "json")
    assert lanescope.which("gfx942", "v_mfma_f32_32x32x8_f16", "C", lane=5, reg=3) == cli_json(
        "which", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "C", "--lane", "5", "--reg", "3",
        "--format", "json")


def test_catalog():
    names = {t["name"]: t for t in lanescope.architectures()}
    assert names["gfx942"]["wave_sizes"] == [64] and names["gfx942"]["family"] == "cdna3"
    assert set(names["gfx1100"]["wave_sizes"]) == {32, 64}
    rows = {i["mnemonic"]: i for i in lanescope.instructions("gfx942")}
    assert rows["v_mfma_f32_32x32x8_f16"]["shape"] == (32, 32, 8)  # CDNA3 ISA guide's instruction table
    assert rows["v_mfma_f32_32x32x8_f16"]["operands"] == ["A", "B", "C", "D"]
    hits = lanescope.search("gfx942", "32x32 bf16")
    assert hits and all("bf16" in h["mnemonic"] and "32x32" in h["mnemonic"] for h in hits)
    f = lanescope.facts("gfx942", "v_mfma_f32_32x32x8_f16")
    assert (f["m"], f["n"], f["k"]) == (32, 32, 8)
    assert f == cli_json("info", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--format", "json")
