"""The scale factors' path from shared memory in Python: lanescope.load(..., operand="SFA"|"SFB",
memory="smem") returns the CLI's JSON (core's ScaleFactorTile) and its entries as numpy arrays.
Expectations are CUTLASS's formulas evaluated here (sm100_blockscaled_layout.hpp's atom
((32,4),(VS,4)):((16,4),(0,1)); SM100_UTCCP_4x32dp128bit: row l -> TMEM lanes l + 32p), never
lanescope's own output. Not confirmed on hardware."""
import numpy as np
import pytest

import lanescope

INS = "tcgen05_mma_m128n256k64_f32_e2m1_mxf4nvf4_2x_ue8m0"


def test_sfa_arrays_follow_cutlass_atom():
    d = lanescope.load("sm_100a", INS, operand="SFA", memory="smem")
    a = d["arrays"]
    m, kb = a["row"], a["col"]
    assert len(m) == 128 * 4
    np.testing.assert_array_equal(a["smem_byte"], 16 * (m % 32) + 4 * ((m // 32) % 4) + kb % 4)
    np.testing.assert_array_equal(a["tmem_column"], m // 32)
    np.testing.assert_array_equal(a["tmem_byte"], kb % 4)
    np.testing.assert_array_equal(a["tmem_lanes"], (m % 32)[:, None] + 32 * np.arange(4)[None, :])
    np.testing.assert_array_equal(a["sfa_id"], 2 * (kb // 2))  # 2X: SFA_ID 0 or 2 (the halfword)
    assert not a["smem_byte"].flags.writeable


def test_one_scale_factor_is_answered_with_its_sfa_id():
    d = lanescope.load("sm_100a", INS, operand="SFA", memory="smem", row=33, col=3)
    (e,) = d["entries"]
    assert e["smem_byte"] == 16 * 1 + 4 * 1 + 3
    assert e["sfa_id"] == 2 and e["j"] == 1
    assert "--sfa-id 2" in d["answer"]
    # Layout.load() gives the same.
    L = lanescope.layout("sm_100a", INS, operand="SFA")
    assert L.load(memory="smem", row=33, col=3)["entries"] == d["entries"]


def test_sfb_and_bad_input():
    d = lanescope.load("sm_100a", INS, operand="SFB", memory="smem", row=5, col=200)  # SFB: row K-block, col n
    (e,) = d["entries"]
    assert e["smem_byte"] == 512 * 1 + 16 * (200 % 32) + 4 * ((200 // 32) % 4) + 5 % 4 + 1024 * (5 // 4)
    with pytest.raises(lanescope.QueryError, match="legal"):
        lanescope.load("sm_100a", INS, operand="SFA", memory="smem", row=128, col=0)
    # An ordinary load plan has no "arrays".
    assert "arrays" not in lanescope.load("sm_90a", "mma_m16n8k16_f32_f16", operand="A")
