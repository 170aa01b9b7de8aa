"""Pictures: the figures' SVG inline (_repr_svg_, _repr_html_) and figure() files, as the CLI draws them."""
import os
import re

import lanescope
from conftest import SANITIZED, run_cli


def test_repr_svg_is_the_cli_figure():
    L = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="C")
    svg = L._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and svg.rstrip().endswith("</svg>")
    rc, out, err = run_cli("figure", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "C",
                           "--format", "svg", "-o", "-")
    assert rc == 0, err
    assert svg == out
    html = L._repr_html_()
    assert html.startswith("<div") and "<svg" in html and "<title>" in html


def test_tile_svg_and_files(tmp_path):
    tile = dict(waves=(2, 1), shape=(32, 16, 16)) if SANITIZED else dict(waves=(2, 2), shape=(64, 64, 16))
    T = lanescope.layout("gfx942", "v_mfma_f32_16x16x16_f16", operand="A", **tile)
    assert "<svg" in T._repr_svg_()
    png, tex = tmp_path / "a.png", tmp_path / "a.tex"
    T.figure(png)
    T.figure(str(tex))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "tikzpicture" in tex.read_text()
    svg = lanescope.figure(None, "gfx942", "v_mfma_f32_16x16x16_f16", operand="C" if SANITIZED else "all", theme="dark")
    assert "<svg" in svg


def test_too_large_to_draw_falls_back_to_repr():
    big = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="C", waves=(4, 4), shape=(2048, 2048, 8))
    assert big._repr_svg_() is None and "lanescope.Layout" in repr(big)


def test_repr_html_hover_titles_name_each_element_where_it_lives():
    # AMD's Matrix Instruction Calculator for v_mfma_f32_32x32x8_f16 (the seeds): A[i][k] is in lane
    # i + 32 * (k // 4), VGPR (k % 4) // 2, bits [15:0] for even k and [31:16] for odd k.
    L = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="A")
    html = L._repr_html_()
    titles = re.findall(r'<rect[^>]*><title>([^<]*)</title></rect>', html)
    assert len(titles) == 32 * 8  # one per element of A: no element held twice
    seen = set()
    for t in titles:
        m = re.fullmatch(r"A\[(\d+)\]\[(\d+)\]: v(\d+)\[(\d+):(\d+)\] L(\d+)", t)
        assert m, t
        i, k, reg, hi, lo, lane = map(int, m.groups())
        assert (lane, reg) == (i + 32 * (k // 4), (k % 4) // 2), t
        assert (hi, lo) == ((15, 0) if k % 2 == 0 else (31, 16)), t
        seen.add((i, k))
    assert len(seen) == 32 * 8
    assert "A[1][6]: v1[15:0] L33" in titles
    # The plain SVG (the CLI's figure without --hover-titles) has no per-tile titles.
    assert "</title></rect>" not in L._repr_svg_()


def test_hover_titles_are_svg_only():
    rc, out, err = run_cli("figure", "-a", "gfx942", "-i", "v_mfma_f32_32x32x8_f16", "--operand", "A",
                           "--hover-titles", "--format", "png", "-o", "-")
    assert rc != 0 and "--hover-titles" in err and "svg" in err
