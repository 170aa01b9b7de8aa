"""The CLI run in process: what it must never do to the host process (start the interpreter, take
its file descriptors, leave files), its exit statuses as exceptions, the catalog per call, the
modifiers round trip, and bounded notebook pictures and text."""
import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

import lanescope

ARCH, INS = "gfx942", "v_mfma_f32_32x32x8_f16"
SOURCE = os.environ.get("LANESCOPE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def run_python(code, cwd=None):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, cwd=cwd,
                          timeout=120)


# --- the interpreter is never started with the CLI's words ------------------------------------
@pytest.mark.parametrize("words", [("bench", "--runs", "1", "--catalog-rows", "0"), ("bench", "--largest")])
def test_bench_never_starts_the_host_program(tmp_path, monkeypatch, words):
    marker = tmp_path / "RAN"
    for name in ("layout", "where", "which", "info", "header", "load", "check", "figure"):
        (tmp_path / name).write_text(f"open({str(marker)!r}, 'a').write('x')\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(lanescope.UsageError, match="lanescope-cli bench"):
        lanescope.cli(*words)
    assert not marker.exists()


# --- no file descriptor and no file is taken for the output -----------------------------------
def test_another_threads_output_stays_out_of_the_answer():
    # faulthandler's thread writes fd 1 without the GIL while to_json() runs: it must not land in it.
    code = ("import faulthandler, json, sys, lanescope as ls\n"
            f"L = ls.layout({ARCH!r}, {INS!r}, 'C', waves=(2, 2), shape=(256, 256))\n"
            "ref = L.to_json()\n"
            "faulthandler.dump_traceback_later(0.002, repeat=True, file=sys.stdout)\n"
            "texts = [L.to_json() for _ in range(5)]\n"
            "faulthandler.cancel_dump_traceback_later()\n"
            "bad = sum(t != ref for t in texts)\n"
            "json.loads(texts[-1])\n"
            "sys.stderr.write('BAD %d\\n' % bad)\n")
    p = run_python(code)
    assert p.returncode == 0, p.stderr
    assert "BAD 0" in p.stderr, p.stderr
    assert "Timeout (" in p.stdout  # the thread did write meanwhile, to the real standard output


def test_calls_open_no_file_descriptor():
    # Every descriptor number is taken and the limit set just above: a call that opened a capture file
    # (or dup'ed one) fails; one that writes into memory does not.
    code = ("import json, os, resource, lanescope as ls\n"
            f"L = ls.layout({ARCH!r}, {INS!r}, 'C', waves=(2, 2), shape=(64, 64))\n"
            "ref = L.to_json(); info = ls.cli('info', '-a', 'gfx942', '-i', 'v_mfma_f32_32x32x8_f16')\n"
            "top = max(int(n) for n in os.listdir('/proc/self/fd'))\n"
            "held = []\n"
            "while True:\n"
            "    fd = os.open('/dev/null', os.O_RDONLY)\n"
            "    if fd > top: os.close(fd); break\n"
            "    held.append(fd)\n"
            "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
            "resource.setrlimit(resource.RLIMIT_NOFILE, (top + 1, hard))\n"
            "ok = L.to_json() == ref and ls.cli('info', '-a', 'gfx942', '-i', 'v_mfma_f32_32x32x8_f16') == info\n"
            "r = L.check(ref)\n"
            "print('OK' if ok and r.equal else 'DIFFER')\n")
    p = run_python(code)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "OK"


def test_check_of_text_makes_no_temporary_file(monkeypatch, tmp_path):
    # tempfile's directory is one that does not exist: a check that wrote its text to a file fails.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "missing"))
    L = lanescope.layout(ARCH, INS, "C")
    assert L.check(L.to_json()).equal and L.check(L).equal
    assert lanescope.check(L.json(), ARCH, INS, "C").equal
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "fifo", "dir"])
def test_check_refuses_what_is_no_regular_file_before_reading(tmp_path, path):
    if path == "fifo":
        os.mkfifo(tmp_path / "fifo")  # no writer: reading it would wait forever
    if path == "dir":
        (tmp_path / "dir").mkdir()
    name = path if path.startswith("/") else str(tmp_path / path)
    t0 = time.time()
    with pytest.raises(lanescope.QueryError, match="regular") as e:
        lanescope.check(name, ARCH, INS, "C")
    assert time.time() - t0 < 5
    assert name in str(e.value) and "legal" in str(e.value)


def test_check_refuses_a_file_over_the_input_limit(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(lanescope._core.max_check_input_bytes + 1)  # sparse: nothing is written
    with pytest.raises(lanescope.QueryError, match="more than the input limit") as e:
        lanescope.check(big, ARCH, INS, "C")
    assert "512 MiB" in str(e.value)  # docs/limits.md: check --layout reads at most 512 MiB


def test_check_of_a_path_reads_the_file(tmp_path):
    L = lanescope.layout(ARCH, INS, "C")
    (tmp_path / "l.json").write_text(L.to_json())
    assert lanescope.check(tmp_path / "l.json", ARCH, INS, "C").equal
    assert lanescope.check(str(tmp_path / "l.json"), ARCH, INS, "C").equal


# --- exit statuses 4 and 5 are answers, not bugs ------------------------------------------------
def test_cli_check_that_differs_raises_mismatch_with_the_explanation(tmp_path):
    words = ["-a", ARCH, "-i", INS, "--operand", "A", "--waves", "2x2", "--shape", "64x64x32"]
    k8 = lanescope.cli("layout", *words, "--k-width", "8", "--format", "json")
    (tmp_path / "k8.json").write_text(k8)
    with pytest.raises(lanescope.MismatchError) as e:
        lanescope.cli("check", *words, "--layout", str(tmp_path / "k8.json"))
    assert not isinstance(e.value, lanescope.InternalError)
    assert e.value.status == 5
    # check's explanation (Triton's kWidth, docs/python.md's example) is kept in the message and output
    assert "kWidth 8" in str(e.value) and "kWidth 8" in e.value.output
    assert lanescope.cli("check", *words, "--k-width", "8", "--layout", str(tmp_path / "k8.json")).startswith("equal")


def test_cli_verify_without_a_gpu_raises_no_device():
    try:
        out = lanescope.cli("verify", "-a", "sm_90a", "-i", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                            "--device", "cuda")
    except lanescope.NoDeviceError as e:
        assert e.status == 4 and "GPU" in str(e)
    except lanescope.MismatchError:
        pass  # a GPU that disagrees: an answer too
    else:
        assert out  # a GPU is here and agreed


# --- --catalog per call --------------------------------------------------------------------------
def test_a_second_catalog_is_the_one_used(tmp_path):
    rows = open(os.path.join(SOURCE, "core", "catalog", "instructions.txt")).read()
    (tmp_path / "a.txt").write_text(rows)
    (tmp_path / "b.txt").write_text("".join(l for l in rows.splitlines(True) if "mfma_f32_32x32x8" not in l
                                            and "v_mfma_f32_32x32x8_f16" not in l))
    q = ["info", "-a", ARCH, "-i", INS]
    assert lanescope.cli("--catalog", str(tmp_path / "a.txt"), *q)
    with pytest.raises(lanescope.QueryError, match="unknown instruction"):
        lanescope.cli("--catalog", str(tmp_path / "b.txt"), *q)
    assert lanescope.cli("--catalog", str(tmp_path / "a.txt"), *q)
    # the same path edited is read again
    (tmp_path / "a.txt").write_text((tmp_path / "b.txt").read_text() + "\n# edited\n")
    with pytest.raises(lanescope.QueryError, match="unknown instruction"):
        lanescope.cli("--catalog", str(tmp_path / "a.txt"), *q)


# --- Layout.modifiers asks for the same layout ------------------------------------------------
ROUND_TRIPS = [
    ("gfx942", "v_mfma_f32_4x4x4_16b_f16", "A", dict(cbsz=2, abid=1)),
    ("gfx942", "v_mfma_f32_32x32x1_2b_f32", "B", dict(blgp=3)),
    ("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", "A", dict(cbsz=4, blgp=2, opsel_a=1)),
    ("gfx1100", "v_wmma_f32_16x16x16_f16", "C", dict(wave=64)),
    ("sm_90a", "wgmma_m64n64k16_f32_f16", "B", dict(smem_address=0x400, sbo=2048)),
    ("sm_90a", "wgmma_m64n64k16_f32_f16", "B", dict(lbo=256, smem_address=0x800)),
    ("sm_90a", "wgmma_m64n64k16_f32_f16", "B", dict(major="MN", swizzle="128B", sbo=1024, base_offset=1)),
    ("sm_100a", "tcgen05_mma_m128n64k16_f32_f16", "B", dict(swizzle="128B", sbo=1024, smem_address=0x1000)),
    ("sm_100a", "tcgen05_mma_m128n64k16_f32_f16", "D", dict(tmem_load="32x32b", num_warps=4)),
]


@pytest.mark.parametrize("arch,ins,operand,mods", ROUND_TRIPS)
def test_modifiers_round_trip(arch, ins, operand, mods):
    try:
        L = lanescope.layout(arch, ins, operand, **mods)
    except lanescope.UsageError as e:  # a keyword this instruction does not take: the case is wrong, say so
        pytest.fail(f"{mods}: {e}")
    except lanescope.QueryError as e:
        pytest.skip(f"not a legal query here: {e}")
    again = lanescope.layout(arch, ins, operand, **L.modifiers)
    assert again.modifiers == L.modifiers
    assert again.to_json() == L.to_json(), (mods, L.modifiers)


# --- unknown keywords suggest only keywords the function takes --------------------------------
def test_catalog_is_not_suggested_for_layout():
    with pytest.raises(lanescope.UsageError) as e:
        lanescope.layout(ARCH, INS, "C", catalg="x")
    assert "catalog=" not in str(e.value).splitlines()[0]
    assert "catalog=" not in str(e.value)  # nor listed as legal


# --- notebook pictures and text are bounded ---------------------------------------------------
def test_a_large_layout_shows_its_repr_in_a_notebook_at_once():
    L = lanescope.layout(ARCH, INS, "C", waves=(2, 2), shape=(2048, 1024))  # the figure limit: legal to draw
    t0 = time.time()
    assert L._repr_html_() is None and L._repr_svg_() is None
    assert time.time() - t0 < 1
    assert len(repr(L)) < 400


def test_a_small_layout_draws_inline():
    L = lanescope.layout(ARCH, INS, "C", waves=(2, 2), shape=(128, 128))
    assert L._repr_html_().startswith('<div class="lanescope-layout"') and L._repr_svg_().lstrip().startswith("<")


def test_repr_and_str_of_a_huge_tile_are_bounded():
    L = lanescope.layout(ARCH, INS, "C", waves=(2, 8), shape=(512, 32768))
    t0 = time.time()
    r, s = repr(L), str(L)
    assert time.time() - t0 < 2
    assert len(r) < 400 and len(s) < 1000
    assert "L.table()" in s and "16,777,216" in s  # says what was left out and how to get it


@pytest.mark.parametrize("command", ["list", "info", "layout", "where", "which", "trace", "header", "check",
                                     "figure", "load", "tma", "banks", "verify"])
def test_keywords_come_from_the_option_table_not_from_a_message(command):
    # The keywords are read from the CLI's option set-up (a binding), never parsed out of an error
    # text; they are what the lanescope-cli binary lists as legal for an unknown option.
    from conftest import run_cli
    required = {"which": ["--lane=0"], "check": ["--layout=-"], "figure": ["--out=-"], "trace": ["--row=0", "--col=0"],
                "tma": ["--box=8x8"]}.get(command, [])
    rc, out, err = run_cli(command, *required, "--lanescope-unknown-option")
    head = f"legal options of {command}:"
    line = next(l for l in err.splitlines() if l.startswith(head))
    listed = [w for w in line[len(head):].split() if w.startswith("--")]
    assert lanescope._core.cli_options(command) == listed
