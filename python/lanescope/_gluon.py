"""Triton/Gluon interop: lanescope's layouts as Gluon objects and back (needs Triton; 3.6 tested).

Thin: to_gluon evaluates lanescope-cli's ``--format gluon`` text; a Gluon object is read by
asking Triton itself for its linear layout (GluonOpBuilder.to_linear_layout), which
lanescope's readers and ``check`` take as Triton's JSON.
"""
import json

_builder = None


def require():
    """Imports Gluon, or raises ImportError naming Triton."""
    try:
        from triton.experimental import gluon  # noqa: F401
        from triton.experimental.gluon import language as gl  # noqa: F401
    except ImportError as e:
        raise ImportError("lanescope's Gluon interop (from_gluon, to_gluon, assert_layout) needs Triton with Gluon "
                          "(Triton 3.6: pip install triton==3.6.0); it could not be imported: " + str(e)) from e


def _get_builder():
    global _builder
    if _builder is None:
        from triton._C.libtriton import gluon_ir, ir
        ctx = ir.context()
        ir.load_dialects(ctx)
        _builder = (ctx, gluon_ir.GluonOpBuilder(ctx))
    return _builder[1]


def bases(layout, shape):
    """Triton's linear layout of a Gluon layout object at shape [rows, cols]: its bases as lists."""
    shape = checked_shape(shape)
    require()
    if hasattr(layout, "reg_bases") and hasattr(layout, "lane_bases"):  # DistributedLinearLayout: its own bases
        return {k: [list(x) for x in getattr(layout, k)] for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases")}
    builder = _get_builder()
    ll = builder.to_linear_layout(layout._to_ir(builder), shape)
    return {k: [list(x) for x in getattr(ll, k)] for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases")}


def triton_json(layout, shape):
    """Triton's JSON form of a Gluon layout object (what lanescope's readers and check read)."""
    d = bases(layout, shape)
    d["shape"] = checked_shape(shape)
    return json.dumps(d)


def checked_shape(shape):
    """[rows, cols] as whole numbers (not floats, strings or bools: nothing is rounded or parsed)."""
    from ._errors import UsageError
    ok = isinstance(shape, (tuple, list)) and len(shape) == 2 and all(
        hasattr(s, "__index__") and not isinstance(s, bool) and int(s.__index__()) > 0 for s in shape)
    if not ok:
        raise UsageError(f"a Gluon layout needs the tensor shape it lays out as (rows, cols) of positive whole numbers, "
                         f"not {shape!r}")
    return [int(s.__index__()) for s in shape]


def to_gluon(lay, form="named"):
    """The Gluon object lanescope-cli's --format gluon text builds for `lay`."""
    from ._errors import UsageError
    if form not in ("named", "linear"):
        raise UsageError(f"form {form!r} is not legal; legal: 'named' (the named constructor, else the linear one), "
                         "'linear' (DistributedLinearLayout)")
    require()
    ns = {}
    exec(lay.to_gluon_source(), ns)  # noqa: S102 - lanescope-cli's own output
    if form == "named" and "layout" in ns:
        return ns["layout"]
    return ns["linear"]
