"""The module's arrays against independent facts: the seed documents' tables (as
tests/test_seeds.cpp transcribes them), Triton 3.6's own layouts (tests/data/triton, as
tests/test_tile_triton.cpp reads them) and properties any layout has."""
import gzip
import itertools
import json
import os

import numpy as np
import pytest

import lanescope
from conftest import SANITIZED, SOURCE


def test_seed_s0_32x32_two_block_accumulator():
    # CDNA4 dense MFMA page: rows | lanes | accVGPRs of block 0; block 1 adds 16.
    d = lanescope.layout("gfx950", "__builtin_amdgcn_mfma_f32_32x32x1f32", operand="D")
    assert d.shape == (2, 32, 32)
    table = [(0, 0, 0), (4, 32, 0), (8, 0, 4), (12, 32, 4), (16, 0, 8), (20, 32, 8), (24, 0, 12), (28, 32, 12)]
    for b in range(2):
        for row, lane, reg in table:
            for di in range(4):
                assert (d.lane_of[b, row + di, :] == lane + np.arange(32)).all()
                assert (d.reg_of[b, row + di, :] == reg + di + 16 * b).all()
    assert (d.copies == 1).all()


def test_seed_s0_16x16_four_block_accumulator():
    d = lanescope.layout("gfx950", "mfma_f32_16x16x4f16", operand="D")
    b, i, j = np.meshgrid(np.arange(4), np.arange(16), np.arange(16), indexing="ij")
    assert (d.lane_of == 16 * (i // 4) + j).all()
    assert (d.reg_of == i % 4 + 4 * b).all()


def test_seed_s0_4x4_sixteen_block_accumulator():
    d = lanescope.layout("gfx950", "v_mfma_f32_4x4x1_16b_f32", operand="D")
    b, i, _ = np.meshgrid(np.arange(16), np.arange(4), np.arange(4), indexing="ij")
    assert (d.lane_of // 4 == b).all()
    assert (d.reg_of == i).all()


def test_readme_example_32x32x8_c():
    # CDNA3 ISA guide's 32x32 accumulator: lane = j + 32*(floor(i/4)%2), VGPR = i%4 + 4*floor(i/8).
    c = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="C")
    i, j = np.meshgrid(np.arange(32), np.arange(32), indexing="ij")
    assert (c.lane_of == j + 32 * ((i // 4) % 2)).all()
    assert (c.reg_of == i % 4 + 4 * (i // 8)).all()
    assert c.where(3, 5) == [lanescope.Location(0, 5, 3, 0, 31)]


def _apply(bases, x):
    out = np.zeros((len(x), 2), dtype=np.int64)
    for bit, v in enumerate(bases):
        sel = (x >> bit) & 1 == 1
        out[sel] ^= np.array(v, dtype=np.int64)
    return out


_TRITON = {("mfma", 3, (32, 32, 8)): ("gfx942", "v_mfma_f32_32x32x8_f16"),
           ("mfma", 3, (16, 16, 16)): ("gfx942", "v_mfma_f32_16x16x16_f16"),
           ("mfma_dot", 3, (32, 32, 8)): ("gfx942", "v_mfma_f32_32x32x8_f16"),
           ("mfma_dot", 3, (16, 16, 16)): ("gfx942", "v_mfma_f32_16x16x16_f16"),
           ("wmma", 1, (16, 16, 16)): ("gfx1100", "v_wmma_f32_16x16x16_f16"),
           ("wmma_dot", 1, (16, 16, 16)): ("gfx1100", "v_wmma_f32_16x16x16_f16")}


def _records():
    path = os.path.join(SOURCE, "tests", "data", "triton", "triton-3.6-amd-layouts.jsonl.gz")
    with gzip.open(path, "rt") as f:
        for n, line in enumerate(f):
            r = json.loads(line)
            p = r["params"]
            key = (r["layout"], p.get("version"), tuple(p.get("instr_shape", [])))
            if key in _TRITON and "reg_bases" in r and n % (16 if SANITIZED else 4) == 0:
                yield r, _TRITON[key]


def test_tiles_equal_triton_36_layouts():
    """Each (wave, lane)'s elements in register-and-bit order (Triton's register index counts
    elements), read from the module's inverse view, against Triton's bases evaluated here."""
    compared = 0
    for r, (arch, ins) in _records():
        p = r["params"]
        m, n, k = p["instr_shape"]
        wm, wn = p["warps_per_cta"]
        tm, tn = p.get("tiles_per_warp", [1, 1])
        rows, cols = r["shape"]
        kw = dict(waves=(wm, wn), tiles_per_wave=(tm, tn))
        if r["layout"].endswith("_dot"):
            op = "A" if p["operand_index"] == 0 else "B"
            kw["k_width"] = p["k_width"]
            kw["shape"] = (rows, n * wn * tn, cols) if op == "A" else (m * wm * tm, cols, rows)
        else:
            op = "C"
            kw["shape"] = (rows, cols, k)
            kw["transposed"] = bool(p.get("transposed"))
        try:
            L = lanescope.layout(arch, ins, operand=op, **kw)
        except lanescope.QueryError:
            continue  # a kWidth or K lanescope's instruction does not take: test_tile_triton.cpp covers those
        assert (L.rows, L.cols) == (rows, cols)
        W, Lanes, R = (1 << len(r["warp_bases"]), 1 << len(r["lane_bases"]), 1 << len(r["reg_bases"]))
        theirs = (_apply(r["warp_bases"], np.arange(W))[:, None, None, :] ^
                  _apply(r["lane_bases"], np.arange(Lanes))[None, :, None, :] ^
                  _apply(r["reg_bases"], np.arange(R))[None, None, :, :])
        assert (L.waves, L.lanes) == (W, Lanes)
        rows, cols, lo = (v.reshape(W, Lanes, -1) for v in (L.row_at, L.col_at, L.bit_lo_at))
        held = (rows >= 0) & (lo % L.element_bits == 0)  # an element spanning registers counts once
        assert (held.sum(axis=2) == R).all(), r
        ours = np.stack([rows[held], cols[held]], axis=1).reshape(W, Lanes, R, 2)
        assert (ours == theirs).all(), r
        compared += 1
    assert compared >= (25 if SANITIZED else 100)


def test_inverse_is_the_inverse_of_the_placements():
    for arch, ins, op, kw in [("gfx942", "v_mfma_f32_32x32x8_f16", "A", dict(waves=(2, 2), shape=(64, 64, 16))),
                              ("gfx1100", "wmma_f32_16x16x16_f16_w32", "B", {}),
                              ("sm_80", "mma_m16n8k16_f32_f16", "A", {}),
                              ("gfx942", "v_smfmac_f32_16x16x32_f16", "K", {})]:
        L = lanescope.layout(arch, ins, operand=op, **kw)
        # every placement's register holds its element
        for idx in range(0, len(L), 7):
            parts = L.row_at[L.wave[idx], L.lane[idx], L.reg[idx]]
            cols = L.col_at[L.wave[idx], L.lane[idx], L.reg[idx]]
            assert any(parts[k] == L.row[idx] and cols[k] == L.col[idx] for k in range(len(parts)))
        # the dense views agree with where()
        for row, col in [(0, 0), (L.rows - 1, L.cols - 1), (L.rows // 2, L.cols // 3)]:
            first = L.where(row, col)[0]
            assert (L.lane_of[row, col], L.reg_of[row, col], L.wave_of[row, col]) == (first.lane, first.reg, first.wave)
            assert L.copies[row, col] == len(L.where(row, col))
