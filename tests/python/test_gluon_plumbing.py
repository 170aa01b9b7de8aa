"""The Gluon interop's plumbing with stand-ins for Triton's classes (this machine has no Triton):
to_gluon evaluates the CLI's --format gluon text, from_gluon and assert_layout read a
DistributedLinearLayout's bases and run check. Triton itself is exercised by
scripts/gluon-roundtrip-module.py (docs/python.md)."""
import sys
import types

import pytest

import lanescope


class _Recorded:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class DistributedLinearLayout:
    def __init__(self, reg_bases, lane_bases, warp_bases, block_bases, shape):
        self.reg_bases, self.lane_bases, self.warp_bases = reg_bases, lane_bases, warp_bases
        self.block_bases, self.shape = block_bases, shape


@pytest.fixture
def fake_triton(monkeypatch):
    names = ["triton", "triton.experimental", "triton.experimental.gluon", "triton.experimental.gluon.language",
             "triton.experimental.gluon.language.amd", "triton.experimental.gluon.language.nvidia"]
    mods = {n: types.ModuleType(n) for n in names}
    gl = mods["triton.experimental.gluon.language"]
    gl.DistributedLinearLayout = DistributedLinearLayout
    gl.DistributedLinearLayout.__module__ = "triton.experimental.gluon.language._layouts"
    gl.DotOperandLayout = type("DotOperandLayout", (_Recorded,), {})
    gl.NVMMADistributedLayout = type("NVMMADistributedLayout", (_Recorded,), {})
    amd = mods["triton.experimental.gluon.language.amd"]
    amd.AMDMFMALayout = type("AMDMFMALayout", (_Recorded,), {})
    amd.AMDWMMALayout = type("AMDWMMALayout", (_Recorded,), {})
    mods["triton.experimental.gluon"].language = gl
    for n, m in mods.items():
        monkeypatch.setitem(sys.modules, n, m)
    return gl


def test_to_gluon_and_back(fake_triton):
    kw = dict(waves=(2, 2), shape=(64, 64, 16), k_width=4)
    L = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="A", **kw)
    named = L.to_gluon()
    assert type(named).__name__ == "DotOperandLayout" and named.kwargs["k_width"] == 4
    assert type(named.kwargs["parent"]).__name__ == "AMDMFMALayout"
    linear = L.to_gluon("linear")
    assert isinstance(linear, DistributedLinearLayout) and linear.shape == [64, 16]
    back = lanescope.from_gluon(linear, [64, 16])
    assert (back.rows, back.cols) == (64, 16) and L.check(back).equal
    lanescope.assert_layout(linear, "gfx942", "v_mfma_f32_32x32x8_f16", "A", **kw)
    other = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="A", **dict(kw, k_width=8)).to_gluon("linear")
    with pytest.raises(AssertionError, match="kWidth 8"):
        lanescope.assert_layout(other, "gfx942", "v_mfma_f32_32x32x8_f16", "A", **kw)
    with pytest.raises(ValueError):
        L.to_gluon("bases")
