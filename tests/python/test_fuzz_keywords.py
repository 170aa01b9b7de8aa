"""A fuzzer over the Python keywords: every public function called with random keyword names,
values and types (a fixed seed, a bounded time). Only clean refusals may come back: lanescope's
own errors (never InternalError, which is a bug), TypeError or ValueError; never a crash. A
keyword a function lists as legal is never refused as an option the CLI does not know."""
import os
import random
import time

import numpy as np
import pytest

import lanescope

SEED = 20261207
SECONDS = float(os.environ.get("LANESCOPE_FUZZ_SECONDS", "12"))  # the whole run stays well under 20 s
SANITIZED = bool(os.environ.get("LANESCOPE_SANITIZED"))

QUERIES = [
    ("gfx942", "v_mfma_f32_32x32x8_f16", "C"),
    ("gfx942", "v_mfma_f32_4x4x4_16b_f16", "A"),
    ("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", "A"),
    ("gfx1100", "v_wmma_f32_16x16x16_f16", "B"),
    ("gfx1250", "v_wmma_f32_16x16x32_f16", "A"),
    ("sm_80", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "A"),
    ("sm_90a", "wgmma_m64n64k16_f32_f16", "B"),
    ("sm_100a", "tcgen05_mma_m128n64k16_f32_f16", "D"),
]

# The values a keyword may get: well-formed small ones, the limits' edges and past them (refused at
# once), every Python type a user might pass by mistake.
VALUES = [None, True, False, 0, 1, 2, 3, 4, 7, 8, 16, 32, 64, 128, 255, 256, 1024, -1, -2, 2 ** 31, 2 ** 63, -(2 ** 63),
          10 ** 30, 0.5, float("nan"), float("inf"), 1e300, np.int64(2), np.int32(-1), np.bool_(True), np.float32(1.5),
          "", " ", "0", "1", "4", "x", "none", "default", "K", "MN", "mn", "32B", "64B", "128B", "128B_base32B",
          "fp8", "fp4", "e4m3", "row1", "32x32b", "16x256b", "16x64b", "2x2", "1x1024", "4096x4096", "0x0", "-1x2",
          "1e9", "0x400", "0xffffffffffffffff", "--help", "-", "--", "a,b", "a\nb", "\t", "é", "\ud800", "x\x00y",
          "A" * 5000, (2, 2), (1, 1), (0, 2), (-1, 1), (64, 64), (64, 64, 16), (32, 16, 16), (10 ** 9, 10 ** 9), (),
          (2.0, 2), ("2", "2"), (True, 1), [2, 2], [[1]], {"a": 1}, {1, 2}, b"x", bytearray(b"y"), object(), print,
          np.array([2, 2]), Ellipsis, slice(1), complex(1, 2)]

FUNCTIONS = {  # name: the CLI subcommand whose options are its keywords
    "layout": "layout", "layouts": "layout", "facts": "info", "where": "where", "which": "which", "check": "check",
    "header": "header", "load": "load", "sweep": "load", "figure": "figure",
}
METHODS = {"header": "header", "load": "load", "sweep": "load", "figure": "figure"}
CLI_WORDS = ["layout", "where", "which", "info", "list", "header", "load", "check", "figure", "tma", "banks", "trace",
             "-a", "-i", "--operand", "--format", "--row", "--col", "--lane", "--reg", "--waves", "--shape", "-o",
             "--catalog", "--help", "--version", "json", "table", "csv", "C", "A", "B", "D", "all", "gfx942", "sm_90a",
             "v_mfma_f32_32x32x8_f16", "wgmma_m64n64k16_f32_f16", "0", "-1", "2x2", "64x64", "x", "", "--swizzle",
             "128B", "--memory", "smem", "--layout", "-", "--sweep", "--top", "3", "--box", "64x64"]
CLEAN = (TypeError, ValueError, lanescope.Error)
NOT_KNOWN = ("The following arguments were not expected", "unknown option '--", "unknown keyword")


def keyword_names(rng, command):
    legal = lanescope._cli_options(command)
    others = sorted({n for c in set(FUNCTIONS.values()) for n in lanescope._cli_options(c)})
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(legal)
    if pick < 0.6:
        return rng.choice(others)
    if pick < 0.75:  # a typo of a legal name
        n = list(rng.choice(legal))
        i = rng.randrange(len(n))
        op = rng.randrange(3)
        if op == 0 and len(n) > 1:
            del n[i]
        elif op == 1:
            n.insert(i, rng.choice("abcdefghijklmnopqrstuvwxyz_"))
        else:
            n[i], n[-1] = n[-1], n[i]
        return "".join(n)
    return rng.choice(["help", "version", "catalog", "operand", "arch", "instruction", "format", "out", "view",
                       "linear", "layout", "show", "top", "path", "of_wave", "row", "col", "lane", "reg", "block",
                       "sweep", "a-b", "x" * 300, "é", "_", "__class__", "smem_a", "memory", "order", "ld", "pad"])


def options(rng, command):
    return {keyword_names(rng, command): rng.choice(VALUES) for _ in range(rng.randrange(0, 4))}


def call(rng, tmp_path):
    arch, ins, op = rng.choice(QUERIES)
    if rng.random() < 0.05:  # a wrong type for a positional argument
        arch = rng.choice(VALUES)
    kind = rng.random()
    if kind < 0.55:
        name = rng.choice(sorted(FUNCTIONS))
        command = FUNCTIONS[name]
        kw = options(rng, command)
        f = getattr(lanescope, name)
        if name in ("layout", "load", "sweep"):
            return kw, command, lambda: f(arch, ins, op, **kw)
        if name in ("layouts", "facts", "header"):
            return kw, command, lambda: f(arch, ins, **kw)
        if name == "where":
            return kw, command, lambda: f(arch, ins, op, rng.choice([0, 1, 5, -1, 10 ** 9]), rng.choice([0, 3, 2 ** 31]), **kw)
        if name == "which":
            return kw, command, lambda: f(arch, ins, op, rng.choice([0, 17, 200, -1]), rng.choice([None, 0, 2, 9999]), **kw)
        if name == "check":
            other = rng.choice(["{}", "", "not a layout", "{\"entries\": []}", {"x": 1}, str(tmp_path / "none.json"),
                                "/dev/null", 5, None])
            return kw, command, lambda: f(other, arch, ins, op, **kw)
        path = rng.choice([None, None, str(tmp_path / "f.svg"), str(tmp_path / "f.png"), tmp_path / "f.tex", 3, "-"])
        return kw, command, lambda: f(path, arch, ins, rng.choice(["all", op, "Q"]), **kw)
    if kind < 0.8:
        try:
            L = lanescope.layout(arch, ins, op)
        except CLEAN:
            return {}, None, lambda: None
        name = rng.choice(sorted(METHODS) + ["table", "to_json", "check", "where", "which", "slot", "svg"])
        if name in METHODS:
            command = METHODS[name]
            kw = options(rng, command)
            if name == "figure":
                return kw, command, lambda: L.figure(rng.choice([None, str(tmp_path / "m.svg")]), **kw)
            return kw, command, lambda: getattr(L, name)(**kw)
        if name == "table":
            return {}, None, lambda: L.table(rng.choice(VALUES[:40] + ["matrix", "registers"]),
                                             rng.choice(["table", "csv", "markdown", 3, None]))
        if name == "to_json":
            return {}, None, lambda: L.to_json(rng.choice(["matrix", "registers", "x", 1]))
        if name == "check":
            return {}, None, lambda: L.check(rng.choice(["{}", L.to_json(), L, {"a": [1]}, b"\xff", 1.5]),
                                             rng.choice([0, 10, -1, 10 ** 7, "3"]))
        if name in ("where", "which", "slot"):
            args = [rng.choice(VALUES[:30]) for _ in range(2)]
            return {}, None, lambda: getattr(L, name)(*args)
        return {}, None, lambda: L.svg(**options(rng, "figure"))
    if kind < 0.9:
        words = [rng.choice(CLI_WORDS) for _ in range(rng.randrange(1, 9))]
        if words[0] not in CLI_WORDS[:12]:
            words.insert(0, rng.choice(CLI_WORDS[:12]))
        return {}, None, lambda: lanescope.cli(*words)
    pick = rng.choice(["instructions", "search", "LinearLayout", "architectures"])
    if pick == "LinearLayout":
        return {}, None, lambda: lanescope.LinearLayout(rng.choice(VALUES))
    if pick == "architectures":
        return {}, None, lanescope.architectures
    return {}, None, lambda: getattr(lanescope, pick)(rng.choice(VALUES[:10] + ["gfx942"]), rng.choice(VALUES))


def test_random_keywords_give_only_clean_refusals(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # what the CLI words write (-o FILE) stays here
    rng = random.Random(SEED)
    end = time.time() + (SECONDS / 4 if SANITIZED else SECONDS)
    calls = refused = 0
    while time.time() < end:
        kw, command, f = call(rng, tmp_path)
        calls += 1
        try:
            f()
        except lanescope.InternalError as e:
            pytest.fail(f"InternalError (a bug) for keywords {kw!r}: {e}")
        except CLEAN as e:
            refused += 1
            legal = lanescope._cli_options(command) if command else []
            text = str(e)
            if isinstance(e, lanescope.UsageError) and any(s in text for s in NOT_KNOWN):
                named = [k for k in kw if k in legal and (f"--{k.replace('_', '-')}" in text or f"{k}=" in text.split("\n")[0])]
                bad = [k for k in named if f"unknown keyword {k}=" in text or "not expected" in text
                       or f"unknown option '--{k.replace('_', '-')}'" in text]
                assert not bad, f"keywords {bad} are listed as legal for {command} but refused: {text[:300]}"
        except Exception as e:  # noqa: BLE001 - anything else is not a clean refusal
            pytest.fail(f"{type(e).__name__} for keywords {kw!r}: {e}")
    print(f"{calls} calls, {refused} refused")
    assert calls > 50 and refused > 0, (calls, refused)


@pytest.mark.parametrize("function,command", sorted(FUNCTIONS.items()))
def test_every_legal_keyword_is_one_the_cli_takes(function, command):
    """Each name a function lists as legal reaches an option its CLI subcommand has (given a value that
    may be refused, but never as an unknown option)."""
    f = getattr(lanescope, function)
    for name in lanescope._cli_options(command):
        if name in lanescope._SETS or name in lanescope._QUERY_SETS or name in ("operand", "layout", "show", "top",
                                                                                 "sweep", "row", "col", "block", "lane",
                                                                                 "reg", "of_wave", "tmem_lane", "column"):
            continue
        kw = {name: "x"}
        try:
            if function in ("layout", "load", "sweep"):
                f("gfx942", "v_mfma_f32_32x32x8_f16", "C", **kw)
            elif function in ("layouts", "facts", "header"):
                f("gfx942", "v_mfma_f32_32x32x8_f16", **kw)
            elif function == "where":
                f("gfx942", "v_mfma_f32_32x32x8_f16", "C", 0, 0, **kw)
            elif function == "which":
                f("gfx942", "v_mfma_f32_32x32x8_f16", "C", 0, 0, **kw)
            elif function == "check":
                f("{}", "gfx942", "v_mfma_f32_32x32x8_f16", "C", **kw)
            else:
                f(None, "gfx942", "v_mfma_f32_32x32x8_f16", "C", **kw)
        except lanescope.InternalError as e:
            pytest.fail(f"{function}({name}=...): InternalError {e}")
        except CLEAN as e:
            text = str(e)
            assert not any(s in text for s in NOT_KNOWN), f"{function}({name}=...) is listed as legal but refused: {text[:300]}"
