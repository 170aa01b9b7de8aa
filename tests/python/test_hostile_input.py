"""The hostile-input audit of the module (auditB): each class of argument that used to reach the CLI
unchecked, to be coerced, or to crash, with what the refusal must say. Expectations come from the CLI
binary (a separate process: its option lists, its suggestions, its JSON and files) or from facts
outside lanescope (file signatures, Python's own rules), never from the module's own output."""
import copy
import json
import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

import lanescope
from conftest import CLI, SANITIZED, run_cli

ARCH, INS = "gfx942", "v_mfma_f32_32x32x8_f16"
FIELDS = ("block", "row", "col", "lane", "reg", "bit_lo", "bit_hi")
_PROBE = {"which": ["--lane=0"], "check": ["--layout=x"], "figure": ["--out=x"]}


def cli_options(command):
    """The long options the CLI binary lists for `command` when given an unknown one, as keyword names."""
    rc, out, err = run_cli(command, *_PROBE.get(command, []), "--no-such-option-here")
    line = next(l for l in err.splitlines() if l.startswith(f"legal options of {command}:"))
    return [w[2:].replace("-", "_") for w in line.split(":", 1)[1].split()]


def cli_suggestion(command, key):
    """The option the CLI binary suggests for --KEY, as a keyword name."""
    rc, out, err = run_cli(command, *_PROBE.get(command, []), "--" + key.replace("_", "-"))
    m = re.search(r"did you mean '--([a-z-]+)'", err)
    return m.group(1).replace("-", "_") if m else None


def legal_listed(message):
    """The keyword names a refusal lists as legal (after 'legal keywords...:')."""
    tail = re.split(r"legal keywords[^:]*: ", message)[-1]
    return [w[:-1] for w in tail.split() if w.endswith("=")]


def C():
    return lanescope.layout(ARCH, INS, operand="C")


# --- A1: a NUL character would end the C text the engine reads ---------------------------------
@pytest.mark.parametrize("name,call", [
    ("arch", lambda: lanescope.layout("gfx942\x00junk", INS)),
    ("instruction", lambda: lanescope.layout(ARCH, INS + "\x00zzz")),
    ("operand", lambda: lanescope.layout(ARCH, INS, operand="C\x00Q")),
    ("cbsz", lambda: lanescope.layout(ARCH, INS, operand="C", cbsz="0\x00abc")),
    ("path", lambda: C().figure("/tmp/lanescope-nul\x00.svg")),
    ("cli argument 1", lambda: lanescope.cli("list\x00garbage", "--arch", "gfx942")),
    ("arch", lambda: lanescope.instructions("gfx942\x00zz")),
    ("operand", lambda: lanescope.where(ARCH, INS, "C\x00", 0, 0)),
    ("arch", lambda: lanescope.facts(ARCH + "\x00", INS)),
    ("namespace", lambda: lanescope.header(ARCH, INS, namespace="a\x00b")),
    ("layout", lambda: lanescope.check("{}\x00", ARCH, INS, "C")),
    ("text", lambda: lanescope.LinearLayout('{"reg_bases":[]}\x00')),
])
def test_a_nul_character_is_refused_naming_the_argument(name, call):
    with pytest.raises(lanescope.UsageError) as e:
        call()
    assert str(e.value).startswith(name + " ") and "contains a NUL character" in str(e.value), str(e.value)
    assert not os.path.exists("/tmp/lanescope-nul")  # the truncated name was never written


# --- A2/A3: keywords a function sets itself -------------------------------------------------
@pytest.mark.parametrize("key,function,command,call", [
    ("out", "layout()", "layout", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("format", "layout()", "layout", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("format", "load()", "load", lambda k: lanescope.load(ARCH, INS, "A", **k)),
    ("out", "header()", "header", lambda k: lanescope.header(ARCH, INS, **k)),
    ("format", "where()", "where", lambda k: lanescope.where(ARCH, INS, "C", 0, 0, **k)),
    ("format", "facts()", "info", lambda k: lanescope.facts(ARCH, INS, **k)),
    ("format", "check()", "check", lambda k: lanescope.check(C(), ARCH, INS, "C", **k)),
    ("operand", "Layout.figure()", "figure", lambda k: C().figure(**k)),
    ("out", "Layout.figure()", "figure", lambda k: C().figure(**k)),
    ("cbsz", "Layout.figure()", "figure", lambda k: C().figure(**k)),
    ("out", "Layout.header()", "header", lambda k: C().header(**k)),
    ("sweep", "sweep()", "load", lambda k: lanescope.sweep(ARCH, INS, "A", **k)),
    ("of_wave", "which()", "which", lambda k: lanescope.which(ARCH, INS, "C", 0, **k)),
])
def test_a_keyword_the_function_sets_is_refused_with_what_is_legal(key, function, command, call, tmp_path):
    value = str(tmp_path / "never.txt") if key == "out" else ("A" if key == "operand" else
                                                             (True if key == "sweep" else ("csv" if key == "format" else 1)))
    with pytest.raises(lanescope.UsageError) as e:
        call({key: value})
    msg = str(e.value)
    assert msg.startswith(f"{key}= is set by {function}"), msg
    assert "At Most" not in msg                      # not CLI11's internal words
    listed = legal_listed(msg)
    assert listed and key not in listed
    assert set(listed) <= set(cli_options(command)), set(listed) - set(cli_options(command))
    assert not (tmp_path / "never.txt").exists()     # nothing written


def test_a_layout_given_out_is_not_poisoned(tmp_path):
    # layout(out=...) once made every later text go to that file and return ''.
    with pytest.raises(lanescope.UsageError):
        lanescope.layout(ARCH, INS, operand="C", out=str(tmp_path / "o.json"))
    assert not (tmp_path / "o.json").exists()


# --- A4/A5: names are checked always, help/version are not keywords -------------------------
@pytest.mark.parametrize("key,value,function,call", [
    ("help", "x", "header()", lambda k: lanescope.header(ARCH, INS, **k)),
    ("help", "1", "load()", lambda k: lanescope.load(ARCH, INS, "A", **k)),
    ("help", "x", "sweep()", lambda k: lanescope.sweep(ARCH, INS, "A", **k)),
    ("help", "1", "layout()", lambda k: lanescope.layout(ARCH, INS, **k)),
    ("version", "x", "where()", lambda k: lanescope.where(ARCH, INS, "C", 0, 0, **k)),
    ("help", None, "layout()", lambda k: lanescope.layout(ARCH, INS, **k)),
    ("bogus", None, "layout()", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("cbzs", None, "layout()", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("sweep", False, "layout()", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("store", False, "layout()", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("hover_titles", False, "layout()", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("foo", 1, "layout()", lambda k: lanescope.layout(ARCH, INS, operand="C", **k)),
    ("bogus", None, "facts()", lambda k: lanescope.facts(ARCH, INS, **k)),
    ("bogus", False, "Layout.load()", lambda k: C().load(**k)),
])
def test_an_unknown_keyword_is_refused_whatever_its_value(key, value, function, call):
    with pytest.raises(lanescope.UsageError) as e:
        call({key: value})
    msg = str(e.value)
    assert msg.startswith(f"unknown keyword {key}= for {function}"), msg
    assert "Usage:" not in msg and "--help" not in msg   # not the CLI's help text
    command = {"layout()": "layout", "header()": "header", "load()": "load", "sweep()": "load", "where()": "where",
               "facts()": "info", "Layout.load()": "load"}[function]
    near = cli_suggestion(command, key)
    if near in legal_listed(msg):  # the CLI's own suggestion, in Python's spelling
        assert f"did you mean {near}=?" in msg, (near, msg)


def test_layout_lists_the_clis_options_as_its_keywords():
    with pytest.raises(lanescope.UsageError) as e:
        lanescope.layout(ARCH, INS, operand="C", cbzs=None)
    assert "did you mean cbsz=?" in str(e.value)
    # the CLI's layout options, less what layout() sets itself or the Layout's texts choose, and the
    # CLI's own options (--catalog goes before the subcommand: lanescope.cli('--catalog', FILE, ...))
    expected = set(cli_options("layout")) - {"arch", "instruction", "operand", "format", "out", "view", "linear",
                                             "version", "help", "catalog"}
    assert set(legal_listed(str(e.value))) == expected


def test_none_and_false_still_mean_not_given():
    a = lanescope.layout(ARCH, INS, operand="C", cbsz=None, transposed=False)
    b = lanescope.layout(ARCH, INS, operand="C")
    for f in FIELDS:
        assert (getattr(a, f) == getattr(b, f)).all()


# --- A6: wrong types are refused, not coerced -----------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: lanescope.layout(ARCH, INS, operand="C", cbsz=[1]),
    lambda: lanescope.layout(ARCH, INS, operand="C", cbsz=(1,)),
    lambda: lanescope.layout(ARCH, INS, operand="C", waves=(2.0, 2)),
    lambda: lanescope.from_gluon(object(), (32.9, 32.99)),
    lambda: lanescope.from_gluon(object(), ("32", "32")),
    lambda: lanescope.from_gluon(object(), (True, 32)),
    lambda: lanescope.from_gluon(object(), (0, 32)),
    lambda: lanescope.from_gluon(object(), (32,)),
    lambda: lanescope.from_gluon(object(), None),
])
def test_wrong_types_are_refused(call):
    # the shape is judged before Triton is needed, so this holds with or without Triton
    with pytest.raises(lanescope.UsageError):
        call()


# --- A7: text that is not UTF-8 -------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: lanescope.layout(ARCH, "\ud800"),
    lambda: lanescope.cli("layout", "-a", "gfx942", "-i", "\ud800"),
    lambda: lanescope.search(ARCH, "\ud800"),
    lambda: lanescope.LinearLayout(None),
    lambda: lanescope.LinearLayout("\ud800"),
    lambda: lanescope.check(b"\xff\xfe", ARCH, INS, "C"),
    lambda: lanescope.check("\ud800", ARCH, INS, "C"),
    lambda: lanescope.layout(ARCH, INS, operand="C", cbsz="\udc80"),
    lambda: C().figure("/tmp/\udc80.svg"),
])
def test_invalid_text_is_a_usage_error(call):
    with pytest.raises(lanescope.UsageError) as e:
        call()
    assert "_core" not in str(e.value) and "incompatible" not in str(e.value)  # no private signature


# --- B: check() reads a str path; its messages name what the user gave -----------------------
def test_check_reads_a_str_naming_a_file(tmp_path):
    rc, out, err = run_cli("layout", "-a", ARCH, "-i", INS, "--operand", "C", "--format", "json")
    assert rc == 0, err
    path = tmp_path / "c.json"
    path.write_text(out)  # the CLI's own JSON: equal by definition
    assert lanescope.check(str(path), ARCH, INS, "C").equal
    assert lanescope.check(path, ARCH, INS, "C").equal
    assert lanescope.check(json.dumps(json.loads(out)), ARCH, INS, "C").equal  # one-line JSON is text, not a name
    assert not lanescope.check(str(path), ARCH, INS, "C", cbsz=None).differing


@pytest.mark.parametrize("given", ["missing.json", "sub"])
def test_check_a_path_it_cannot_read_names_it(tmp_path, given):
    (tmp_path / "sub").mkdir()
    for layout in (str(tmp_path / given), tmp_path / given):
        with pytest.raises(lanescope.QueryError) as e:
            lanescope.check(layout, ARCH, INS, "C")
        assert str(tmp_path / given) in str(e.value) and "legal" in str(e.value)


@pytest.mark.parametrize("layout,operand", [("", "C"), ({}, "C"), ("{}", "C"), ("C-as-A", "A")])
def test_check_messages_name_no_temporary_file(layout, operand):
    if layout == "C-as-A":
        layout = run_cli("layout", "-a", ARCH, "-i", INS, "--operand", "C", "--format", "json")[1]
    with pytest.raises(lanescope.Error) as e:
        lanescope.check(layout, ARCH, INS, operand)
    assert not re.search(r"tmp\w*\.layout", str(e.value)), str(e.value)
    assert "the layout given to check" in str(e.value)


# --- C: figures ----------------------------------------------------------------------------
def test_figure_dash_is_refused():
    with pytest.raises(lanescope.UsageError, match="path=None"):
        C().figure("-")


@pytest.mark.parametrize("name,magic", [("a.PNG", b"\x89PNG\r\n\x1a\n"), ("a.Svg", b"<"), ("a.TEX", None)])
def test_figure_extension_in_any_case(tmp_path, name, magic):
    C().figure(tmp_path / name)
    data = (tmp_path / name).read_bytes()
    if magic is not None:
        assert data.startswith(magic) or data.lstrip().startswith(magic), data[:16]
    else:  # TikZ: the CLI's own .tex for the same query
        rc, out, err = run_cli("figure", "-a", ARCH, "-i", INS, "--operand", "C", "-o", str(tmp_path / "cli.tex"))
        assert rc == 0, err
        assert data == (tmp_path / "cli.tex").read_bytes()


@pytest.mark.parametrize("name,fmt", [("a.pdf", None), ("a.jpg", None), ("b.svg", "png"), ("b.PNG", "svg"),
                                      ("b.tex", "svg")])
def test_figure_unknown_or_contrary_extension_is_refused(tmp_path, name, fmt):
    with pytest.raises(lanescope.UsageError) as e:
        C().figure(tmp_path / name, format=fmt)
    assert ".svg" in str(e.value) and ".png" in str(e.value) and ".tex" in str(e.value), str(e.value)
    assert not (tmp_path / name).exists()


# --- D1: Layout.modifiers are keywords that ask for the same layout --------------------------
ROUND_TRIPS = [
    ("sm_90a", "wgmma_m64n64k16_f32_f16", "B", {"swizzle": "64B", "major": "MN"}),
    ("sm_100a", "tcgen05_mma_m128n64k16_f32_f16", "D", {"tmem_load": "32x32b"}),
    ("sm_120a", "mma_m16n8k64_f32_e2m1_mxf4_2x_ue8m0", "SB", {"sf_byte_b": 2, "sf_thread_b": 3}),
    ("gfx942", "v_mfma_f32_32x32x1_2b_f32", "A", {"cbsz": 1, "abid": 1}),
]


def _cli_words(kw):
    return [w for k, v in kw.items() for w in ("--" + k.replace("_", "-"), str(v))]


@pytest.mark.parametrize("arch,ins,op,kw", ROUND_TRIPS, ids=[r[1] for r in ROUND_TRIPS])
def test_modifiers_round_trip(arch, ins, op, kw):
    first = lanescope.layout(arch, ins, operand=op, **kw)
    mods = first.modifiers
    # keyword names the CLI has, values it takes, no "not given" -1, no default
    assert set(mods) <= set(cli_options("layout")), mods
    assert all(v != -1 for v in mods.values()), mods
    bare = lanescope.layout(arch, ins, operand=op)
    assert bare.modifiers == {}, bare.modifiers
    again = lanescope.layout(arch, ins, operand=op, **mods)
    # the CLI's JSON for the original keywords is the witness
    rc, out, err = run_cli("layout", "-a", arch, "-i", ins, "--operand", op, *_cli_words(kw), "--format", "json")
    assert rc == 0, err
    entries = json.loads(out)["entries"]
    for f in FIELDS:
        assert (getattr(again, f) == np.array([e[f] for e in entries], dtype=np.int32)).all(), f
    # and the modifiers matter here (a round trip that dropped them would fail), except where the
    # layout is the same with and without them (the CLI says so too)
    rc, bare_out, err = run_cli("layout", "-a", arch, "-i", ins, "--operand", op, "--format", "json")
    bare_json = json.loads(bare_out)
    project = lambda j: (j["space"], [[e[f] for f in FIELDS] for e in j["entries"]])
    if project(bare_json) != project(json.loads(out)):
        assert bare.space != again.space or any(not np.array_equal(getattr(bare, f), getattr(again, f)) for f in FIELDS)
    assert again.space == json.loads(out)["space"]


# --- D3: to_json() holds one copy of a large text --------------------------------------------
@pytest.mark.skipif(SANITIZED, reason="ASan's allocator changes the peak; the Release suite measures it")
def test_to_json_of_a_large_layout_holds_about_one_copy():
    code = ("import resource, lanescope as ls\n"
            "L = ls.layout('gfx942','v_mfma_f32_32x32x8_f16',operand='C',waves=(4,4),shape=(512,512))\n"
            "ls.layout('gfx942','v_mfma_f32_32x32x8_f16',operand='C').to_json()\n"
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "s = L.to_json()\n"
            "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print(len(s), (after - before) * 1024)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
    assert p.returncode == 0, p.stderr
    size, grown = map(int, p.stdout.split())
    assert size > 20_000_000
    assert grown < 1.5 * size, (size, grown)  # was about 2x (a std::string, a bytes and the str)


def test_large_json_equals_the_clis():
    words = ["-a", ARCH, "-i", INS, "--operand", "C", "--waves", "2x2", "--shape", "128x128"]
    rc, out, err = run_cli("layout", *words, "--format", "json")
    assert rc == 0, err
    assert lanescope.layout(ARCH, INS, operand="C", waves=(2, 2), shape=(128, 128)).to_json() == out


# --- E1: messages with the standard streams closed ------------------------------------------
@pytest.mark.parametrize("redirect", ["0<&- 1>&-", "1>&-", "0<&-", "0<&- 1>&- 2>/dev/null"])
def test_messages_survive_closed_standard_streams(tmp_path, redirect):
    out = tmp_path / "m.txt"
    code = ("import lanescope as ls\n"
            "try:\n ls.layout('gfx942','v_mfma_f32_32x32x8_f16',operand='C').header(namespace='int')\n"
            f"except Exception as e:\n open({str(out)!r}, 'w').write(type(e).__name__ + ': ' + str(e))\n"
            f"open({str(out) + '.ok'!r}, 'w').write(ls.layout('gfx942','v_mfma_f32_32x32x8_f16',operand='C').to_json())\n")
    subprocess.run(f"{sys.executable} -c \"$CODE\" {redirect}", shell=True, env={**os.environ, "CODE": code},
                   check=False)
    rc, _, cli_err = run_cli("header", "-a", ARCH, "-i", INS, "--namespace", "int", "-o", "-")
    assert rc != 0
    text = out.read_text()
    assert text.startswith("QueryError: ") or text.startswith("UsageError: "), text
    assert "namespace 'int'" in text and "namespace 'int'" in cli_err
    # and a text still comes back whole
    assert (tmp_path / "m.txt.ok").read_text() == run_cli("layout", "-a", ARCH, "-i", INS, "--operand", "C",
                                                           "--format", "json")[1]


# --- G1-G3 ---------------------------------------------------------------------------------
def test_block_bases_stay_block_bases():
    text = '{"reg_bases":[[0,1]],"lane_bases":[[1,0]],"warp_bases":[[0,0]],"block_bases":[[2,0]],"shape":[4,2]}'
    L = lanescope.LinearLayout(text)
    assert L.bases["warp"] == [[0, 0]] and L.bases["block"] == [[2, 0]]
    back = json.loads(L.to_json())
    assert back["warp_bases"] == [[0, 0]] and back["block_bases"] == [[2, 0]]


def test_block_bases_of_every_form_are_the_readers():
    # Triton's LinearLayout::toString() and a Gluon constructor with its block base spelled in
    # another order: the engine's reader says which bases were block bases, not a bracket count.
    text = (" - register=1 -> (0, 1)\n - lane=1 -> (1, 0)\n - warp=1 -> (0, 0)\n - block=1 -> (2, 0)\n"
            "where out dims are: [dim0 (size 4), dim1 (size 2)]")
    L = lanescope.LinearLayout(text)
    assert L.bases["warp"] == [[0, 0]] and L.bases["block"] == [[2, 0]]
    gluon = ("DistributedLinearLayout(block_bases=[[2, 0]], reg_bases=[[0, 1]], lane_bases=[[1, 0]], "
             "warp_bases=[[0, 0]], shape=[4, 2])")
    L = lanescope.LinearLayout(gluon)
    assert L.bases["warp"] == [[0, 0]] and L.bases["block"] == [[2, 0]]


def test_an_uninitialised_core_layout_raises():
    code = ("import lanescope, lanescope._core as c\n"
            "for m in ('info', 'arrays', 'inverse'):\n"
            "    try:\n        getattr(c.Layout.__new__(c.Layout), m)()\n"
            "    except lanescope.UsageError as e:\n        print('refused', m)\n"
            "try:\n    c.Layout.info(object())\n"
            "except lanescope.UsageError:\n    print('refused object')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
    assert p.returncode == 0, (p.returncode, p.stderr)  # was -11 (a segfault)
    assert p.stdout.split("\n")[:4] == ["refused info", "refused arrays", "refused inverse", "refused object"]


@pytest.mark.parametrize("call,needle", [
    (lambda: lanescope.layouts(ARCH, INS, operand="A"), "legal"),
    (lambda: C().to_gluon(form=None), "'named'"),
    (lambda: pickle.dumps(C()), "to_json()"),
    (lambda: copy.deepcopy(C()), "to_json()"),
])
def test_refusals_say_what_is_legal(call, needle):
    with pytest.raises(lanescope.UsageError) as e:
        call()
    assert needle in str(e.value)
