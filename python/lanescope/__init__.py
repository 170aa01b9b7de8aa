"""lanescope: where every element of a GPU matrix instruction lives, from Python.

A thin layer over lanescope's C++ engine (the same one lanescope-cli and the app use):
the keywords are the CLI's flags (``cbsz=4`` is ``--cbsz 4``, ``k_width=8`` is
``--k-width 8``, ``waves=(2, 2)`` is ``--waves 2x2``), parsed by the CLI's own parser,
and every text (JSON, linear layouts, Gluon, CuTe, headers, checks, load plans,
figures) is lanescope-cli's output. Nothing is computed in Python but numpy indexing.

    >>> import lanescope
    >>> c = lanescope.layout("gfx942", "v_mfma_f32_32x32x8_f16", operand="C")
    >>> int(c.lane_of[3, 5]), int(c.reg_of[3, 5])
    (5, 3)

Errors are lanescope.Error subclasses (UsageError and QueryError are ValueErrors) whose
message is the CLI's. Triton/Gluon interop (from_gluon, to_gluon, assert_layout) needs
Triton; without it those raise ImportError. docs/python.md has the whole tour.
"""
from __future__ import annotations

import json as _json
import os as _os
from collections import namedtuple as _namedtuple

import numpy as _np

from ._errors import Error, InternalError, MismatchError, NoDeviceError, QueryError, StatusError, UsageError
from . import _core

__all__ = [
    "Error", "UsageError", "QueryError", "InternalError", "StatusError", "NoDeviceError", "MismatchError",
    "architectures", "instructions", "search", "facts",
    "layout", "layouts", "Layout", "LinearLayout", "Location", "Part",
    "where", "which", "check", "CheckResult", "header", "load", "sweep", "figure", "cli",
    "from_gluon", "to_gluon", "assert_layout",
]
__version__ = "0.1.0"

Location = _namedtuple("Location", "wave lane reg bit_lo bit_hi")
Location.__doc__ = "One place an element lives: wave of the tile (0 for one instruction), lane, register, bits."
Part = _namedtuple("Part", "block row col bit_lo bit_hi elem_bit_lo")
Part.__doc__ = "Bits [bit_lo, bit_hi] of a register hold bits elem_bit_lo.. of element (block, row, col)."

# Flags that take no value (True gives the flag, False leaves it out).
_FLAGS = {"transposed", "transpose", "store", "sweep", "tables", "hover_titles"}


# The one place keywords become lanescope-cli words. Each function names the CLI subcommand its
# keywords go to; a keyword is one of that subcommand's long options ('_' for '-'), as the CLI's own
# unknown-option message lists them, less the words the function sets itself (its format, its output,
# its positional arguments, a Layout's query). Every name is checked, whatever its value (None and
# False included); the value is then the CLI's to judge, with the CLI's message.
_SETS = {"arch": "the arch argument", "instruction": "the instruction argument",
         "format": "it reads lanescope-cli's JSON back (Layout.table(format=...) gives CSV and Markdown tables)",
         "out": "the text is returned, not written (figure(path) writes a file)"}
# Options whose value may be a tuple of whole numbers (WMxWN, RMxRN, TMxTN[xTK]).
_TUPLE_KEYS = {"waves", "tiles_per_wave", "shape"}
# What a subcommand needs before the CLI parses its options at all (its required options).
_PROBE_WORDS = {"which": ["--lane=0"], "check": ["--layout=-"], "figure": ["--out=-"]}
_cli_options_cache = {}
# lanescope-cli's own options (they go before the subcommand; its option list names them too): never
# a function's keyword, so never suggested for one (lanescope.cli('--catalog', FILE, ...) takes a catalog).
_CLI_OWN_OPTIONS = ("help", "version", "catalog")


def _cli_options(command):
    """`lanescope-cli COMMAND`'s long options as keyword names, in the CLI's order (help, version and
    catalog are the CLI's own, never keywords)."""
    if command not in _cli_options_cache:
        names = [w[2:].replace("-", "_") for w in _core.cli_options(command)]
        _cli_options_cache[command] = [n for n in names if n not in _CLI_OWN_OPTIONS]
    return _cli_options_cache[command]


# The keywords of a query (layout(), Layout(...)): the layout subcommand's options but its texts'.
_QUERY_SETS = {"view": "Layout.table(view=...) and to_json(view=...) choose the view",
               "linear": "Layout.to_linear() gives the linear layout"}


def _query_keywords():
    return [n for n in _cli_options("layout") if n not in _SETS and n not in _QUERY_SETS and n != "operand"]


def _cli_nearest(command, key):
    """The option lanescope-cli COMMAND suggests for --KEY (its "did you mean"), as a keyword name."""
    if not (key.isidentifier() and key.isascii()):
        return None
    rc, out, err = _core.run_cli([command, *_PROBE_WORDS.get(command, []), "--" + key.replace("_", "-")])
    at = err.find("did you mean '--")
    return err[at + 16:err.find("'", at + 16)].replace("-", "_") if at >= 0 else None


def _legal_text(legal):
    return " ".join(f"{n}=" for n in legal) if legal else "none"


def _check_keywords(options, command, sets=None, function=None):
    """Refuses a keyword the function sets itself or one `lanescope-cli COMMAND` does not have."""
    sets = {**_SETS, **(sets or {})}
    legal = [n for n in _cli_options(command) if n not in sets]
    what = function or f"{command}()"
    for key in options:
        if key in sets:
            raise UsageError(f"{key}= is set by {what}: {sets[key]}; legal keywords: {_legal_text(legal)}")
        if key not in legal:
            near = _cli_nearest(command, key)
            hint = f"; did you mean {near}=?" if near in legal else ""
            raise UsageError(f"unknown keyword {key}= for {what}{hint}\nlegal keywords of {what}: {_legal_text(legal)}")


def _option_words(options, command, sets=None, function=None):
    """The CLI words for keyword options: name=value -> --name=value (underscores as dashes), each name
    checked first (_check_keywords)."""
    _check_keywords(options, command, sets, function)
    words = []
    for key, value in options.items():
        if value is None:
            continue
        flag = "--" + key.replace("_", "-")
        if key in _FLAGS:
            if not isinstance(value, (bool, _np.bool_)):
                raise UsageError(f"{flag} is a flag: {key}=True or {key}=False, not {value!r}")
            if value:
                words.append(flag)
            continue
        if isinstance(value, (bool, _np.bool_)):
            raise UsageError(f"{flag} takes a value, not {value!r} (legal: `lanescope-cli layout --help` lists it)")
        if isinstance(value, (tuple, list)):
            if key not in _TUPLE_KEYS:
                raise UsageError(f"{flag} takes one value, not a {type(value).__name__} ({value!r}); a tuple is legal for "
                                 + ", ".join(sorted(_TUPLE_KEYS)))
            if not value or not all(isinstance(v, (int, _np.integer)) and not isinstance(v, bool) for v in value):
                raise UsageError(f"{flag} {value!r} is not legal: a tuple of whole numbers such as (2, 2), or 'WMxWN'")
            value = "x".join(str(int(v)) for v in value)
        elif isinstance(value, (int, _np.integer)):
            value = str(int(value))
        elif isinstance(value, float):
            value = repr(value)
        elif not isinstance(value, str):
            raise UsageError(f"{flag} {value!r} is not legal: a {type(value).__name__}; legal: a number or a name")
        words += _flag_value(flag, _text_arg(key, value))
    return words


def _flag_value(flag, value):
    """FLAG VALUE as two words (an empty value stays one, as on a command line); FLAG=VALUE when the
    value starts with '-', which would otherwise read as an option."""
    return [f"{flag}={value}"] if value.startswith("-") else [flag, value]


def _target_words(arch, instruction, operand=None):
    for name, value in (("arch", arch), ("instruction", instruction), ("operand", operand)):
        if value is not None or name != "operand":
            _text_arg(name, value)
    words = [*_flag_value("--arch", arch), *_flag_value("--instruction", instruction)]
    if operand is not None:
        words += _flag_value("--operand", operand)
    return words


def _message(err):
    """The CLI's message, without its program-name prefix and --help hint."""
    lines = []
    for line in err.strip().splitlines():
        if line == "Run with --help for more information.":
            continue
        for prefix in ("lanescope-cli: error: ", "lanescope-cli: internal error: ", "lanescope-cli: "):
            if line.startswith(prefix):
                line = line[len(prefix):]
                break
        lines.append(line)
    return "\n".join(lines) or "lanescope-cli failed without a message"


def _text_arg(name, value):
    """A str the engine reads as C text: no NUL (it would end the text there) and valid UTF-8."""
    if not isinstance(value, str):
        raise UsageError(f"{name} must be a str, not {type(value).__name__} ({value!r})")
    if "\x00" in value:
        raise UsageError(f"{name} {value!r} contains a NUL character; legal: text without NUL")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{name} {value!r} is not valid text (a lone surrogate); legal: a str that encodes as UTF-8") from None
    return value


def _checked_words(words):
    """Every word the CLI gets, as C text (the last guard: the functions name their own arguments first)."""
    return [_text_arg(f"argument {i + 1} ({str(w)[:40]!r}...)" if len(str(w)) > 40 else f"argument {i + 1}", str(w))
            for i, w in enumerate(words)]


# lanescope-cli's exit statuses as exceptions (0 is the answer; anything else unknown is a bug).
_STATUS_ERRORS = {1: QueryError, 2: UsageError, 4: NoDeviceError, 5: MismatchError}


def _run(words, ok=(0,), text=True, input=None):
    """lanescope-cli WORDS in process: (exit status, stdout as str, or bytes unless text); errors raised as
    lanescope.Error. The CLI writes its output straight into that one object (no file, no file descriptor);
    ``input`` is what its '-' reads (check --layout=-)."""
    rc, out, err = _core.run_cli(_checked_words(words), text, input)
    if rc in ok:
        return rc, out
    cls = _STATUS_ERRORS.get(rc, InternalError)
    if not issubclass(cls, StatusError):
        raise cls(_message(err))
    shown = out.decode("utf-8", "replace") if isinstance(out, bytes) else out
    parts = [_message(err)] if err.strip() else []
    parts += [shown.strip()] if shown.strip() else []
    raise cls("\n".join(parts) or f"lanescope-cli exit status {rc}", status=rc, output=shown)


def cli(*args: str) -> str:
    """lanescope-cli ARGS run in this process; its standard output (text). Raises lanescope.Error: UsageError
    (exit status 2), QueryError (1), NoDeviceError (4: verify found no GPU), MismatchError (5: check's layouts
    differ, a verify or conformance check failed; its ``output`` is the CLI's answer, e.g. check's explanation)."""
    for i, a in enumerate(args):
        _text_arg(f"cli argument {i + 1}", a)
    out = _run(list(args), text=False)[1]
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("cli(): the output is not text (a PNG figure?); legal: figure(path) writes it, "
                         "figure(format='png') returns its bytes") from None


# ---------------------------------------------------------------------------------------
# The catalog

def architectures() -> list:
    """Every target (gfx or sm id) with its family, title, products and wave sizes."""
    return _core.targets()


def instructions(arch: str, search: str = "") -> list:
    """The instructions of ``arch`` (dicts of their facts); with ``search`` only those matching its
    words, best first, as the app's search box and ``lanescope-cli list --search`` find them."""
    return _core.instructions(_text_arg("arch", arch), _text_arg("search", search))


def search(arch: str, words: str) -> list:
    """The instructions of ``arch`` matching ``words`` ("32x32 bf16", "sparse", "fp8"), best first."""
    return instructions(arch, words)


def facts(arch: str, instruction: str, **modifiers) -> dict:
    """An instruction's facts (``lanescope-cli info --format json``): shape, types, registers,
    cycles, builtin, encoding, formulas and their sources, under the given modifiers."""
    return _json.loads(_run(["info", *_target_words(arch, instruction),
                                   *_option_words(modifiers, "info", function="facts()"), "--format=json"])[1])


# ---------------------------------------------------------------------------------------
# Layouts

class Layout:
    """One operand of one instruction, or of a tile of many waves, as numpy arrays.

    Every placement (an element and one place it lives) is one index of the parallel int32
    arrays ``block row col wave lane reg bit_lo bit_hi`` (sorted by element, then place);
    ``entries`` is the same as one structured array. ``space`` says where they live:
    "registers" (lane = thread, reg = 32-bit register), "tmem" (lane = TMEM lane, reg =
    column) or "smem" (lane = 128-byte line, reg = 32-bit word = bank).

    Dense views: ``lane_of[row, col]``, ``reg_of``, ``wave_of``, ``bit_lo_of``, ``copies``
    (``[block, row, col]`` on multi-block instructions; the first place of each element;
    -1 where none); the inverse ``row_at[wave, lane, reg, part]``, ``col_at``,
    ``block_at``, ``bit_lo_at``, ``bit_hi_at`` (-1 where a register holds fewer parts).
    """

    def __init__(self, arch: str, instruction: str, operand: str = "A", **options):
        self._words = _checked_words([*_target_words(arch, instruction, operand),
                                      *_option_words(options, "layout", {**_QUERY_SETS, **_OPERAND}, "layout()")])
        self._given = set(options)
        self._core = _core.Layout(self._words)
        info = self._core.info()
        self._info = info
        self.arch, self.target, self.vendor = info["arch"], info["target"], info["vendor"]
        self.instruction, self.builtin, self.operand = info["instruction"], info["builtin"], info["operand"]
        self.type, self.element_bits, self.space = info["type"], info["element_bits"], info["space"]
        self.blocks, self.rows, self.cols = info["blocks"], info["rows"], info["cols"]
        self.waves, self.lanes, self.regs = info["waves"], info["lanes"], info["regs"]
        self.formula, self.modifiers, self.tiled = info["formula"], info["modifiers"], info["tiled"]
        self.axes = info["axes"]
        self._arrays = None
        self._inverse = None
        self._dense = None

    # --- arrays ---------------------------------------------------------------------
    def arrays(self) -> dict:
        """The parallel arrays as a dict (built once, in C++)."""
        if self._arrays is None:
            self._arrays = self._core.arrays()
            for a in self._arrays.values():
                a.setflags(write=False)
        return self._arrays

    block = property(lambda self: self.arrays()["block"], doc="block of each placement")
    row = property(lambda self: self.arrays()["row"], doc="row of each placement")
    col = property(lambda self: self.arrays()["col"], doc="column of each placement")
    wave = property(lambda self: self.arrays()["wave"], doc="wave of the tile of each placement (0: one instruction)")
    lane = property(lambda self: self.arrays()["lane"], doc="lane (thread; TMEM lane; shared-memory line)")
    reg = property(lambda self: self.arrays()["reg"], doc="register (TMEM column; shared-memory word)")
    bit_lo = property(lambda self: self.arrays()["bit_lo"], doc="first bit in the register (0..31)")
    bit_hi = property(lambda self: self.arrays()["bit_hi"], doc="last bit, inclusive (past 31: continues in the next registers)")

    @property
    def entries(self):
        """Every placement as one structured array (fields block row col wave lane reg bit_lo bit_hi)."""
        a = self.arrays()
        names = ("block", "row", "col", "wave", "lane", "reg", "bit_lo", "bit_hi")
        out = _np.empty(len(a["row"]), dtype=[(n, _np.int32) for n in names])
        for n in names:
            out[n] = a[n]
        return out

    def __len__(self):
        return len(self.arrays()["row"])

    @property
    def shape(self):
        """(rows, cols), or (blocks, rows, cols) on multi-block instructions: the dense views' shape."""
        return (self.rows, self.cols) if self.blocks == 1 else (self.blocks, self.rows, self.cols)

    def _dense_views(self):
        if self._dense is None:
            a = self.arrays()
            index = (a["block"].astype(_np.int64) * self.rows + a["row"]) * self.cols + a["col"]
            cells = self.blocks * self.rows * self.cols
            first_elems, first = _np.unique(index, return_index=True)
            views = {}
            for name, src in (("lane_of", "lane"), ("reg_of", "reg"), ("wave_of", "wave"), ("bit_lo_of", "bit_lo")):
                v = _np.full(cells, -1, dtype=_np.int32)
                v[first_elems] = a[src][first]
                views[name] = v.reshape(self.shape)
            views["copies"] = _np.bincount(index, minlength=cells).astype(_np.int32).reshape(self.shape)
            for v in views.values():
                v.setflags(write=False)
            self._dense = views
        return self._dense

    lane_of = property(lambda self: self._dense_views()["lane_of"], doc="lane of each element's first place, [row, col]")
    reg_of = property(lambda self: self._dense_views()["reg_of"], doc="register of each element's first place, [row, col]")
    wave_of = property(lambda self: self._dense_views()["wave_of"], doc="wave of each element's first place, [row, col]")
    bit_lo_of = property(lambda self: self._dense_views()["bit_lo_of"], doc="first bit of each element's first place")
    copies = property(lambda self: self._dense_views()["copies"], doc="how many places hold each element, [row, col]")

    def _inverse_views(self):
        if self._inverse is None:
            self._inverse = self._core.inverse()
            for v in self._inverse.values():
                v.setflags(write=False)
        return self._inverse

    row_at = property(lambda self: self._inverse_views()["row"], doc="row held by [wave, lane, reg, part] (-1: none)")
    col_at = property(lambda self: self._inverse_views()["col"], doc="column held by [wave, lane, reg, part] (-1: none)")
    block_at = property(lambda self: self._inverse_views()["block"], doc="block held by [wave, lane, reg, part]")
    bit_lo_at = property(lambda self: self._inverse_views()["bit_lo"], doc="first bit of [wave, lane, reg, part]")
    bit_hi_at = property(lambda self: self._inverse_views()["bit_hi"], doc="last bit of [wave, lane, reg, part]")

    # --- single queries -------------------------------------------------------------
    def where(self, row: int, col: int, block: int = 0) -> list:
        """Every place element (block, row, col) lives: [Location(wave, lane, reg, bit_lo, bit_hi)]."""
        _ints(row=row, col=col, block=block)
        return [Location(*t) for t in self._core.where(block, row, col)]

    def which(self, lane: int, reg: int, wave: int = 0) -> list:
        """What register ``reg`` of ``lane`` (of ``wave`` in a tile) holds: [Part(...)] in bit order."""
        _ints(lane=lane, reg=reg, wave=wave)
        return [Part(*t) for t in self._core.which(wave, lane, reg)]

    def slot(self, lane: int, reg: int) -> dict:
        """Slot (``lane``, ``reg``) in the CTA pair's one model and tcgen05.ld's loads: ``cta``, ``lane``
        (TMEM lane or thread within that CTA), ``warp`` (-1 in Tensor Memory), and under ``tmem_load``
        ``load``/``load_reg`` (which load of the thread and which register of it), ``loads``,
        ``load_ptx``; elsewhere cta 0, lane as given, the rest -1. Blackwell: not confirmed on hardware."""
        _ints(lane=lane, reg=reg)
        return self._core.slot(lane, reg)

    # --- lanescope-cli's texts ------------------------------------------------------
    def _text(self, *extra, command="layout"):
        return _run([command, *self._words, *extra])[1]

    def table(self, view: str = "matrix", format: str = "table") -> str:
        """The CLI's table (``view`` matrix or registers; ``format`` table, csv, markdown)."""
        return self._text(*_flag_value("--view", _str("view", view)), *_flag_value("--format", _str("format", format)))

    def to_json(self, view: str = "matrix") -> str:
        """The JSON contract of docs/json.md, byte for byte ``lanescope-cli layout ... --format json``."""
        return self._text(*_flag_value("--view", _str("view", view)), "--format=json")

    def json(self, view: str = "matrix") -> dict:
        """to_json() parsed."""
        return _json.loads(self.to_json(view))

    def to_linear(self) -> str:
        """Triton's LinearLayout bases as lanescope's JSON (``--format linear``); QueryError when not linear."""
        return self._text("--format=linear")

    def linear(self) -> dict:
        """to_linear() parsed: {"register": [[r, c], ...], "lane": ..., "warp": ..., "block": ..., "shape": [R, C]}."""
        return _json.loads(self.to_linear())

    def to_gluon_source(self) -> str:
        """Python that Gluon (Triton 3.6) evaluates: ``layout = ...`` (the named constructor, where one
        exists) and ``linear = gl.DistributedLinearLayout(...)`` (``--format gluon``)."""
        return self._text("--format=gluon")

    def to_cute(self) -> str:
        """The (thread, value) -> element map as a CuTe layout (``--format cute``)."""
        return self._text("--format=cute")

    def to_gluon(self, form: str = "named"):
        """Gluon's own layout object: the named constructor (``form="named"``, where one exists, else
        the linear one) or the DistributedLinearLayout (``form="linear"``). Needs Triton."""
        from . import _gluon
        return _gluon.to_gluon(self, form)

    def header(self, **options) -> str:
        """A C++17 header (HIP/CUDA) for this operand's instruction (``lanescope-cli header``);
        options: namespace=, tables=True."""
        words = list(self._words)
        at = words.index("--operand") if "--operand" in words else -1
        words = words[:at] + words[at + 2:] if at >= 0 else [w for w in words if not w.startswith("--operand=")]
        return _run(["header", *words, *self._method_words(options, "header", _HEADER_SETS, "Layout.header()"),
                     "--out=-"])[1]

    def check(self, other, show: int = 10) -> "CheckResult":
        """Compares ``other`` (JSON contract, CSV, linear text, a dict, a path, a Layout or a Gluon
        layout object) with this layout (``lanescope-cli check``); a ``str`` is a path as for
        ``lanescope.check``."""
        return _check(other, self._words, show, shape=(self.rows, self.cols))

    def load(self, **options) -> dict:
        """The operand-load plan (``lanescope-cli load --format json``, docs/memory.md): memory=, order=,
        ld=, pad=, swizzle=, transpose=, store=, grouping=."""
        return _scale_factor_arrays(_json.loads(_run(["load", *self._words,
                                                      *self._method_words(options, "load", _LOAD_SETS, "Layout.load()"),
                                                      "--format=json"])[1]))

    def sweep(self, top: int = 10, **options) -> dict:
        """Paddings and swizzles ranked for this operand's loads (``load --sweep --format json``)."""
        return _json.loads(_run(["load", *self._words,
                                 *self._method_words(options, "load", _SWEEP_SETS, "Layout.sweep()"),
                                 "--sweep", f"--top={top}", "--format=json"])[1])

    # --- pictures -------------------------------------------------------------------
    def figure(self, path=None, format: str = None, **options):
        """Writes the figure (SVG, TikZ or PNG, from ``format`` or the name's extension in any case:
        .svg, .png, .tex; another picture format's extension, or a format= the extension contradicts,
        is refused) as ``lanescope-cli figure`` draws it; options: view=, color=, theme=, scale=,
        width=, min_font=. Without ``path``: returns the bytes (str for SVG and TikZ); '-' is refused."""
        return _figure(self._words, path, format, self._method_words(options, "figure", _FIGURE_SETS, "Layout.figure()"))

    def _method_words(self, options, command, sets, function):
        """A method's keywords: its command's options less this Layout's query (asked again with layout())."""
        query = {n: "this Layout's query (layout(..., " + n + "=...) asks for another)"
                 for n in ("operand", *_query_keywords())
                 # load's and figure's swizzle= is the memory plan's (a wgmma/tcgen05 query's is its descriptor's)
                 if n != "swizzle" or n in self._given or command not in ("load", "figure")}
        return _option_words(options, command, {**query, **sets}, function)

    def svg(self, **options) -> str:
        """The figure as SVG text (the same labels and colours as the CLI's figures)."""
        return self.figure(format="svg", **options)

    def _cells(self):
        return self.blocks * self.rows * self.cols

    def _inline(self):
        """Whether a notebook draws this layout inline (at most _INLINE_CELLS elements)."""
        return self._cells() <= _INLINE_CELLS

    def _repr_svg_(self):
        if not self._inline():  # too large for a picture in a notebook: it shows repr() instead
            return None
        try:
            return self.svg()
        except Error:  # too large to draw: the notebook shows repr() instead
            return None

    def _repr_html_(self):
        if not self._inline():
            return None
        try:  # the figure with a hover title on every tile: the element and where it lives
            svg = self.svg(hover_titles=True)
        except Error:
            return None
        start = svg.find("<svg")
        return (f'<div class="lanescope-layout" title="{_html(repr(self))}">' + svg[start:] + "</div>")

    def __repr__(self):
        tile = f", {_bounded(self._info['describe'], 200)}" if self.tiled else ""
        return (f"<lanescope.Layout {self.operand} of {self.instruction} on {self.target}{tile}: "
                f"{self.shape_text()} {self.type} in {self.space}, {self.waves} wave(s) x {self.lanes} lanes x "
                f"{self.regs} regs>")

    def __reduce__(self):
        raise UsageError("a lanescope.Layout is not pickled (it holds the engine's layout); legal: keep its query "
                         "(layout(arch, instruction, operand, **modifiers)) or its to_json() text")

    def shape_text(self):
        return "x".join(str(n) for n in self.shape)

    def __str__(self):
        if self._cells() > _STR_CELLS:  # print(L) of a large tile: not a table of hundreds of megabytes
            return (f"{self!r}\n(its table of {self._cells():,} elements is not printed: str() prints at most "
                    f"{_STR_CELLS:,}; L.table() gives the whole table, L.figure(path) the picture)")
        try:
            return self.table()
        except Error as e:  # a table too large to read
            return f"{self!r}\n({e})"


# A notebook's inline picture (_repr_svg_, _repr_html_) of at most this many elements (128 x 128;
# about 3 MB of HTML with hover titles); a larger layout shows its repr. str() prints the table of
# at most _STR_CELLS elements (about 1 MB of text).
_INLINE_CELLS = 16384
_STR_CELLS = 65536


def _bounded(text, most):
    """`text`, or its first `most` characters and how many were left out."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text) - most} more characters)"


def _html(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _str(name, v):
    if not isinstance(v, str):
        raise UsageError(f"{name} must be a str, not {type(v).__name__} ({v!r})")
    return v


def _ints(**values):
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, (int, _np.integer)):
            raise UsageError(f"{name} must be a whole number, not {type(v).__name__} ({v!r})")
        if not -(1 << 31) <= int(v) < (1 << 31):
            raise QueryError(f"{name} {int(v)} is not legal; legal: a 32-bit index in the layout's range")


def layout(arch: str, instruction: str, operand: str = "A", **options) -> Layout:
    """One operand's layout: ``layout("gfx950", "v_mfma_scale_f32_16x16x128_f8f6f4", operand="A", cbsz=4)``.

    ``options`` are lanescope-cli's flags as keywords: the modifiers (cbsz, abid, blgp, opsel,
    opsel_a, opsel_b, wave, selector, matrix_a_fmt, matrix_b_fmt, matrix_a_scale, matrix_b_scale,
    matrix_a_scale_fmt, matrix_b_scale_fmt, index_key, tmem_load, num_warps, sfa_id, sfb_id,
    half_split, sf_byte_a, sf_thread_a, sf_byte_b, sf_thread_b; shared memory: major, swizzle,
    lbo, sbo, smem_address, base_offset, descriptor) and the tile (waves=(WM, WN) or "2x2",
    tiles_per_wave, shape=(TM, TN[, TK]), k_width, transposed=True)."""
    return Layout(arch, instruction, operand, **options)


def layouts(arch: str, instruction: str, **options) -> dict:
    """Every operand of the instruction: {"A": Layout, "B": ..., "C": ..., "D": ...}."""
    if "operand" in options:
        raise UsageError("layouts() gives every operand; legal: leave operand= out, or layout(..., operand=...) for one")
    return {op: Layout(arch, instruction, op, **options)
            for op in _core.operands(_text_arg("arch", arch), _text_arg("instruction", instruction))}


_TILE_KEYS = {"waves", "tiles_per_wave", "shape", "k_width", "transposed"}
# The words each function sets itself (beyond _SETS), with where the user gives them instead.
_OPERAND = {"operand": "the operand argument"}
_WHERE_SETS = {**_OPERAND, "row": "the row argument", "col": "the col argument", "block": "the block argument"}
_WHICH_SETS = {**_OPERAND, "lane": "the lane argument", "reg": "the reg argument", "of_wave": "the wave argument",
               "tmem_lane": "the lane argument", "column": "the reg argument"}
_CHECK_SETS = {**_OPERAND, "layout": "the layout argument", "show": "the show argument"}
_HEADER_SETS = {"operand": "header() writes the index math of every operand"}
_LOAD_SETS = {**_OPERAND, "sweep": "sweep() ranks paddings and swizzles; load() plans one layout's loads",
              "top": "sweep(top=...) ranks the best; load() plans one layout's loads"}
_SWEEP_SETS = {**_OPERAND, "sweep": "sweep() is the sweep", "top": "the top argument"}
_FIGURE_SETS = {**_OPERAND, "out": "the path argument (path=None returns the figure)", "format": "the format argument"}


def where(arch: str, instruction: str, operand: str, row: int, col: int, block: int = 0, **options) -> list:
    """Every place element (block, row, col) of ``operand`` lives (only that element is laid out
    on one instruction: the CLI's ``where``)."""
    _ints(row=row, col=col, block=block)
    words = ["where", *_target_words(arch, instruction, operand), *_option_words(options, "where", _WHERE_SETS, "where()"),
             f"--row={row}", f"--col={col}", "--format=json"]
    if block:
        words.append(f"--block={block}")
    return _json.loads(_run(words)[1])


def which(arch: str, instruction: str, operand: str, lane: int, reg: int = None, wave: int = None, **options):
    """What register ``reg`` of ``lane`` holds (every register of the lane without ``reg``; ``wave``:
    the wave of a tile): the CLI's ``which --format json``."""
    _ints(lane=lane)
    words = ["which", *_target_words(arch, instruction, operand),
             *_option_words(options, "which", _WHICH_SETS, "which()"),
             f"--lane={lane}", "--format=json"]
    if reg is not None:
        _ints(reg=reg)
        words.append(f"--reg={reg}")
    if wave is not None:
        _ints(wave=wave)
        words.append(f"--of-wave={wave}")
    return _json.loads(_run(words)[1])


class CheckResult:
    """The answer of ``check``: ``equal`` (bool), ``explanation`` (check's words, e.g. "equals
    lanescope's with kWidth 8"), ``differing`` (elements), ``json`` (the whole JSON answer)."""

    def __init__(self, data, text):
        self.json = data
        self.equal = bool(data.get("equal"))
        self.explanation = data.get("explanation", "")
        self.differing = data.get("differing", 0)
        self.text = text

    def __bool__(self):
        return self.equal

    def __repr__(self):
        return f"<lanescope.CheckResult equal={self.equal} differing={self.differing}: {self.explanation}>"


class _Path(str):
    """A layout file's path, checked (_layout_path): check gives it to the CLI to read."""


def _layout_text(other, shape=None):
    """The text `check --layout` reads for `other` (a _Path: the file the CLI reads)."""
    if isinstance(other, Layout):
        return other.to_json()
    if isinstance(other, LinearLayout):
        return other.to_json()
    if isinstance(other, dict):
        return _json.dumps(other)
    if isinstance(other, str) and _is_path_text(_text_arg("layout", other)):
        return _layout_path(other)
    if isinstance(other, _os.PathLike):
        return _layout_path(other)
    if isinstance(other, str):
        return _text_arg("layout", other)
    if isinstance(other, bytes):
        try:
            return other.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(f"check: the layout bytes are not UTF-8 text ({e}); legal: the text of a layout") from None
    mod = type(other).__module__ or ""
    if mod.startswith("triton"):
        from . import _gluon
        return _gluon.triton_json(other, shape)
    raise UsageError(f"check: cannot read a {type(other).__name__}; legal: the JSON contract or CSV text, a linear "
                     "layout (lanescope's or Triton's JSON, Gluon's DistributedLinearLayout(...), LinearLayout text), "
                     "a dict, a path, a lanescope.Layout or a Gluon layout object")


def _is_path_text(text):
    """check()'s rule for a str: one line that names an existing file, or one line that cannot be layout
    text (layout text is JSON, starting '{' or '[', CSV, with ',', a Gluon or LinearLayout constructor,
    with '(', or several lines), is a path."""
    one = text.strip()
    if "\n" in text or not one:
        return False
    return _os.path.isfile(text) or not (one.startswith(("{", "[")) or "," in one or "(" in one)


def _layout_path(path):
    """A layout file's path, refused before anything is read unless it is a regular file of at most the
    input limit of check --layout (docs/limits.md): a device (/dev/zero), a FIFO or a directory never is."""
    name = _os.fspath(path)
    if isinstance(name, bytes):
        name = _os.fsdecode(name)
    _text_arg("layout path", name)
    limit = _core.max_check_input_bytes
    legal = "legal: the path of a regular layout file (JSON, CSV or linear text) of at most " \
            f"{limit >> 20} MiB, or the layout's text itself"
    try:
        st = _os.stat(name)
    except (OSError, ValueError) as e:
        why = "no such file" if isinstance(e, FileNotFoundError) else (getattr(e, "strerror", None) or str(e))
        raise QueryError(f"check: cannot read the layout file {name!r}: {why}; {legal}") from None
    import stat as _stat
    if not _stat.S_ISREG(st.st_mode):
        kind = "a directory" if _stat.S_ISDIR(st.st_mode) else "not a regular file (a device, a FIFO or a socket)"
        raise QueryError(f"check: cannot read the layout file {name!r}: it is {kind}; {legal}")
    if st.st_size > limit:
        raise QueryError(f"check: cannot read the layout file {name!r}: it has {st.st_size} bytes, more than the "
                         f"input limit; {legal}")
    return _Path("./-" if name == "-" else name)  # '-' alone would be the CLI's standard input


def _check(other, words, show, shape=None):
    _ints(show=show)
    text = _layout_text(other, shape)
    given = None
    if isinstance(text, _Path):  # the CLI reads the file (bounded); its messages name the path given
        layout = _flag_value("--layout", text)
    else:  # the text in memory, read by the CLI as its '-': no temporary file
        layout, given = ["--layout=-"], text
    rc, out = _run(["check", *words, *layout, f"--show={show}", "--format=json"], ok=(0, 5), input=given)
    data = _json.loads(out)
    data.setdefault("equal", rc == 0)
    return CheckResult(data, out)


def check(layout, arch: str, instruction: str, operand: str = "A", show: int = 10, **options) -> CheckResult:
    """Compares ``layout`` (JSON contract, CSV, linear text, a dict, a path, a Layout, a Gluon layout)
    with lanescope's for the instruction, operand and tile: the CLI's ``check``.

    A ``str`` is a path when it is one line and names an existing file, or is one line that cannot
    be layout text (not JSON '{'/'[', no ',' of CSV, no '(' of a constructor); a path that cannot be
    read raises QueryError naming it. A ``pathlib.Path`` is always a path."""
    words = [*_target_words(arch, instruction, operand), *_option_words(options, "check", _CHECK_SETS, "check()")]
    shape = None
    if not isinstance(layout, (str, bytes, dict, _os.PathLike, Layout, LinearLayout)):
        ours = Layout(arch, instruction, operand, **options)
        shape = (ours.rows, ours.cols)
    return _check(layout, words, show, shape)


def header(arch: str, instruction: str, **options) -> str:
    """A C++17 header for the instruction (``lanescope-cli header``): index math, loads/stores, mma helpers."""
    return _run(["header", *_target_words(arch, instruction), *_option_words(options, "header", _HEADER_SETS, "header()"),
                 "--out=-"])[1]


def load(arch: str, instruction: str, operand: str = "A", **options) -> dict:
    """The operand-load planner (``lanescope-cli load --format json``, docs/memory.md).

    ``operand="SFA"`` / ``"SFB"`` with ``memory="smem"`` on a block-scaled tcgen05.mma: the scale
    factors' path from shared memory (``row=``, ``col=``: one of them; SFA row m, col K-block; SFB
    row K-block, col n), with ``"arrays"``: the entries' fields as numpy arrays (``tmem_lanes``
    one row per entry) and, for one scale factor, ``"answer"``."""
    return _scale_factor_arrays(_json.loads(_run(["load", *_target_words(arch, instruction, operand),
                                                  *_option_words(options, "load", _LOAD_SETS, "load()"),
                                                  "--format=json"])[1]))


def _scale_factor_arrays(data):
    """The scale-factor path's entries (core's ScaleFactorTile::place, as the CLI's JSON gives them)
    as read-only numpy arrays under data["arrays"]; other load plans are returned as they are."""
    entries = data.get("entries") if isinstance(data, dict) and "path" in data else None
    if not entries:
        return data
    arrays = {k: _np.array([e[k] for e in entries], dtype=_np.int64) for k in entries[0] if k != "tmem_lanes"}
    arrays["tmem_lanes"] = _np.array([e["tmem_lanes"] for e in entries], dtype=_np.int64)
    for a in arrays.values():
        a.setflags(write=False)
    data["arrays"] = arrays
    return data


def sweep(arch: str, instruction: str, operand: str = "A", top: int = 10, **options) -> dict:
    """Paddings and swizzles ranked for one operand's loads (``lanescope-cli load --sweep --format json``)."""
    return _json.loads(_run(["load", *_target_words(arch, instruction, operand),
                             *_option_words(options, "load", _SWEEP_SETS, "sweep()"),
                             "--sweep", f"--top={top}", "--format=json"])[1])


# The figure formats by file extension, as lanescope-cli figure reads a name (any case).
_FIGURE_EXTENSIONS = {".svg": "svg", ".png": "png", ".tex": "tikz"}


def _figure(words, path, format, option_words):
    if path is not None and not isinstance(path, (str, _os.PathLike)):
        raise UsageError(f"figure: path must be a str or a path, not {type(path).__name__}")
    if path is not None:
        path = _text_arg("path", _os.fspath(path))
        if path == "-":
            raise UsageError("figure: path '-' would write the figure to this process's standard output; legal: a file "
                             "name (.svg, .png, .tex, any case), or path=None to have the figure returned")
    if format is not None:
        _text_arg("format", format)
        named = _FIGURE_EXTENSIONS.get(_os.path.splitext(path)[1].lower()) if path is not None else None
        if named is not None and named != format:
            raise UsageError(f"figure: format={format!r} but the path {path!r} names {named}; legal: leave format out "
                             f"(the name's extension decides: .svg, .png, .tex, any case) or a name that matches it")
    extra = _flag_value("--format", format) if format is not None else []
    out = path if path is not None else "-"
    if path is None and format is None:
        extra = ["--format=svg"]
    rc, data = _run(["figure", *words, *option_words, *extra, f"--out={out}"], text=format != "png")
    return None if path is not None else data


def figure(path, arch: str, instruction: str, operand: str = "all", format: str = None, **options):
    """Writes a figure as ``lanescope-cli figure`` does (SVG, TikZ or PNG; operand "all": A, B and D
    as a GEMM); ``path=None`` returns it instead."""
    return _figure(_target_words(arch, instruction, operand), path, format,
                   _option_words(options, "figure", _FIGURE_SETS, "figure()"))


class LinearLayout:
    """A linear layout (Triton's LinearLayout over GF(2)): bases per input dimension and the
    element each (wave, lane, register index) holds, as arrays ``row col wave lane reg``."""

    def __init__(self, text: str):
        d = _core.linear_layout(_text_arg("text", text))
        self.rows, self.cols = d["rows"], d["cols"]
        warp = [list(b) for b in d["warp"]]
        # The engine reads Triton's block bases as warps after the warps (one CTA of a pair is one more
        # wave of the pair) and says how many; they are kept apart here, as Triton has them.
        blocks = d["block_bases"]
        self.bases = {"register": [list(b) for b in d["register"]], "lane": [list(b) for b in d["lane"]],
                      "warp": warp[:len(warp) - blocks], "block": warp[len(warp) - blocks:]}
        self.row, self.col, self.wave, self.lane, self.reg = d["row"], d["col"], d["wave"], d["lane_index"], d["reg"]

    def to_json(self) -> str:
        """Triton's JSON form (reg_bases, lane_bases, warp_bases, block_bases, shape)."""
        return _json.dumps({"reg_bases": self.bases["register"], "lane_bases": self.bases["lane"],
                            "warp_bases": self.bases["warp"], "block_bases": self.bases["block"],
                            "shape": [self.rows, self.cols]})

    def __repr__(self):
        return (f"<lanescope.LinearLayout {self.rows}x{self.cols}: {len(self.bases['register'])} register, "
                f"{len(self.bases['lane'])} lane, {len(self.bases['warp'])} warp bases>")


def from_gluon(layout, shape) -> LinearLayout:
    """A Gluon layout object (AMDMFMALayout, AMDWMMALayout, DotOperandLayout, NVMMADistributedLayout,
    DistributedLinearLayout, ...) at ``shape`` [rows, cols], as Triton lays it out. Needs Triton."""
    from . import _gluon
    return LinearLayout(_gluon.triton_json(layout, shape))


def to_gluon(layout: Layout, form: str = "named"):
    """lanescope's layout as a Gluon object (see Layout.to_gluon). Needs Triton."""
    if not isinstance(layout, Layout):
        raise UsageError(f"to_gluon takes a lanescope.Layout, not {type(layout).__name__}")
    return layout.to_gluon(form)


def assert_layout(gluon_layout, arch: str, instruction: str, operand: str = "C", **tile) -> None:
    """Raises AssertionError (message: check's explanation, e.g. "equals lanescope's with kWidth 8")
    unless the Gluon layout equals lanescope's for the instruction, operand and tile. Needs Triton."""
    from . import _gluon
    _gluon.require()
    ours = Layout(arch, instruction, operand, **tile)
    result = ours.check(gluon_layout)
    if not result.equal:
        raise AssertionError(result.explanation or f"differs from lanescope's in {result.differing} elements")
