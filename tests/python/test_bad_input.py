"""Bad arguments from Python (tests/test_bad_input.cpp's spirit): each raises a lanescope.Error
(a ValueError for bad arguments) with the CLI's message, and never crashes the interpreter."""
import numpy as np
import pytest

import lanescope
from conftest import cli_message

ARCH, INS = "gfx942", "v_mfma_f32_32x32x8_f16"


@pytest.mark.parametrize("kw,cli_words", [
    ({"cbsz": 9}, ["--cbsz", "9"]),
    ({"cbsz": "x"}, ["--cbsz", "x"]),
    ({"cbsz": -1}, ["--cbsz=-1"]),
    ({"wave": 48}, ["--wave", "48"]),
    ({"waves": "2y2"}, ["--waves", "2y2"]),
    ({"shape": (100, 100)}, ["--shape", "100x100"]),
    ({"shape": (1 << 14, 1 << 14, 8)}, ["--shape", "16384x16384x8"]),  # past the tile limits
    ({"waves": (64, 64)}, ["--waves", "64x64"]),
    ({"k_width": 3}, ["--k-width", "3"]),
    ({"matrix_a_fmt": "fp5"}, ["--matrix-a-fmt", "fp5"]),
    ({"waves": ""}, ["--waves", ""]),
])
def test_same_message_as_cli(kw, cli_words):
    rc, message = cli_message("layout", "-a", ARCH, "-i", INS, "--operand", "A", *cli_words)
    with pytest.raises(lanescope.Error) as e:
        lanescope.layout(ARCH, INS, operand="A", **kw)
    assert isinstance(e.value, ValueError)
    assert isinstance(e.value, lanescope.UsageError if rc == 2 else lanescope.QueryError), (rc, e.value)
    # the option is named as Python spells it in the CLI's terms (--name=value); the rest is the CLI's text
    assert str(e.value).split("\n")[0].split(" ", 1)[-1] == message.split("\n")[0].split(" ", 1)[-1]


@pytest.mark.parametrize("args", [
    ("gfx9999", INS, "A"), (ARCH, "v_mfma_nope", "A"), (ARCH, INS, "Q"), (ARCH, INS, "K"), ("", INS, "A"),
    ("sm_90", "wgmma_m64n64k16_f32_f16", "K"),
])
def test_unknown_names(args):
    arch, ins, op = args
    rc, message = cli_message("layout", "--arch", arch, "--instruction", ins, "--operand", op)
    with pytest.raises(lanescope.Error) as e:
        lanescope.layout(arch, ins, operand=op)
    assert str(e.value) == message


@pytest.mark.parametrize("call", [
    lambda: lanescope.layout(942, INS),
    lambda: lanescope.layout(ARCH, None),
    lambda: lanescope.layout(ARCH, INS, operand=1),
    lambda: lanescope.layout(ARCH, INS, cbsz=True),
    lambda: lanescope.layout(ARCH, INS, cbsz=[1, 2.5]),
    lambda: lanescope.layout(ARCH, INS, cbsz={}),
    lambda: lanescope.layout(ARCH, INS, transposed=1),
    lambda: lanescope.layout(ARCH, INS, operand="C").where(1.5, 2),
    lambda: lanescope.layout(ARCH, INS, operand="C").where(99, 0),
    lambda: lanescope.layout(ARCH, INS, operand="C").where(-1, 0),
    lambda: lanescope.layout(ARCH, INS, operand="C").which(10 ** 9, 0),
    lambda: lanescope.layout(ARCH, INS, operand="C").which(0, 0, wave=3),
    lambda: lanescope.layout(ARCH, INS, operand="C").which(0, 1 << 40),
    lambda: lanescope.layout(ARCH, INS, operand="C").check("not a layout"),
    lambda: lanescope.layout(ARCH, INS, operand="C").check(object()),
    lambda: lanescope.layout(ARCH, INS, operand="C").figure(format="gif"),
    lambda: lanescope.layout(ARCH, INS, operand="C").figure(path=3),
    lambda: lanescope.layout(ARCH, INS, operand="all"),
    lambda: lanescope.instructions("nope"),
    lambda: lanescope.facts(ARCH, "nope"),
    lambda: lanescope.load(ARCH, INS, operand="A", order="diagonal"),
    lambda: lanescope.sweep(ARCH, INS, operand="A", top=-1),
    lambda: lanescope.header(ARCH, INS, tables="yes"),
    lambda: lanescope.cli("layout", "--arch"),
    lambda: lanescope.LinearLayout("{\"reg_bases\": [[1]]}"),
])
def test_raises_and_survives(call):
    with pytest.raises(lanescope.Error) as e:
        call()
    assert str(e.value)
    # the interpreter and the module still answer
    assert lanescope.layout(ARCH, INS, operand="C").lane_of[3, 5] == 5


def test_errors_are_classes():
    assert issubclass(lanescope.UsageError, ValueError) and issubclass(lanescope.QueryError, ValueError)
    assert issubclass(lanescope.UsageError, lanescope.Error) and issubclass(lanescope.InternalError, lanescope.Error)


def test_gluon_without_triton_names_triton():
    try:
        import triton  # noqa: F401
        pytest.skip("Triton is installed here")
    except ImportError:
        pass
    L = lanescope.layout(ARCH, INS, operand="C")
    for call in (lambda: L.to_gluon(), lambda: lanescope.from_gluon(object(), [32, 32]),
                 lambda: lanescope.assert_layout(object(), ARCH, INS, "C")):
        with pytest.raises(ImportError, match="Triton"):
            call()


# The hostile-input audit of the module: arguments that reached the CLI unchecked.
@pytest.mark.parametrize("call", [
    lambda: lanescope.layout("gfx942\x00junk", INS, operand="C"),                 # a NUL would end the C text
    lambda: lanescope.layout(ARCH, INS, operand="C", cbsz="0\x00abc"),
    lambda: lanescope.cli("list\x00garbage", "--arch", "gfx942"),
    lambda: lanescope.instructions("gfx942\x00zz"),
    lambda: lanescope.layout(ARCH, "\ud800"),                                     # a lone surrogate
    lambda: lanescope.search(ARCH, "\ud800"),
    lambda: lanescope.layout(ARCH, INS, operand="C", out="/tmp/never.json"),     # the function's own words
    lambda: lanescope.layout(ARCH, INS, operand="C", format="csv"),
    lambda: lanescope.load(ARCH, INS, "A", format="hip"),
    lambda: lanescope.header(ARCH, INS, out="/tmp/never.hpp"),
    lambda: lanescope.where(ARCH, INS, "C", 0, 0, format="csv"),
    lambda: lanescope.header(ARCH, INS, help="x"),
    lambda: lanescope.sweep(ARCH, INS, "A", help="x"),
    lambda: lanescope.where(ARCH, INS, "C", 0, 0, version="x"),
    lambda: lanescope.layout(ARCH, INS, operand="C", bogus=None),                 # a typo with "not given"
    lambda: lanescope.layout(ARCH, INS, operand="C", hover_titlez=False),
    lambda: lanescope.layout(ARCH, INS, operand="C", cbsz=[1]),                   # a list for one value
    lambda: lanescope.layouts(ARCH, INS, operand="A"),
    lambda: lanescope.check(b"\xff\xfe", ARCH, INS, "C"),
    lambda: lanescope.check("\ud800", ARCH, INS, "C"),
    lambda: lanescope.layout(ARCH, INS, operand="C").figure("-"),
])
def test_arguments_are_checked_before_the_cli(call):
    with pytest.raises(lanescope.UsageError):
        call()


# The audit's other classes, with what each refusal says: test_hostile_input.py.
