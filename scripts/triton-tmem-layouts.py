#!/usr/bin/env python3
"""Dump Triton's own tcgen05.ld/st register layouts (Gluon get_tmem_reg_layout) as linear-layout bases.

The witness for lanescope's --tmem-load register layout of a tcgen05.mma D (docs/json.md, "Tensor Memory operands"):
Triton computes these layouts on the host, so no Blackwell GPU is needed, only an installed
Triton with Gluon (3.6). Writes one JSON object per line: {"variant", "block", "shape", "dtype",
"col_stride", "two_ctas", "num_warps", "reg_bases", "lane_bases", "warp_bases", "block_bases"}, or
"error" in place of the bases where Triton refuses the layout (an exception, or a process abort:
every case runs in a forked child, so an abort is recorded and the dump goes on).

    python3 scripts/triton-tmem-layouts.py OUT.jsonl
"""
import itertools, json, os, sys


def cases():
    for v, bm, n, w, (dt, cs), two in itertools.product(
            ["32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"], [64, 128],
            [8, 16, 24, 32, 48, 64, 96, 128, 192, 256], [4, 8],
            [("float32", 1), ("float16", 2), ("float16", 1)], [False, True]):
        for m in ([bm, 2 * bm] if two else [bm]):
            yield dict(variant=v, block=[bm, n], shape=[m, n], dtype=dt, col_stride=cs, two_ctas=two, num_warps=w)


def one(c):
    import triton.experimental.gluon.language as gl
    from triton.experimental.gluon.language.nvidia import blackwell as bw
    tl = bw.TensorMemoryLayout(tuple(c["block"]), col_stride=c["col_stride"], two_ctas=c["two_ctas"])
    ll = bw.get_tmem_reg_layout(getattr(gl, c["dtype"]), c["shape"], tl, c["num_warps"], instr_variant=c["variant"])
    return {k: [list(x) for x in getattr(ll, k)] for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases")}


def main():
    import triton
    import triton.experimental.gluon.language  # noqa: F401 (imported once, before the forks)
    sys.stderr.write(f"triton {triton.__version__}\n")
    with open(sys.argv[1], "w") as out:
        for c in cases():
            r, wfd = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                try:
                    res = one(c)
                except Exception as e:  # noqa: BLE001 - Triton's refusal is the record
                    res = {"error": f"{type(e).__name__}: {e}"[:400]}
                os.write(wfd, json.dumps(res).encode())
                os._exit(0)
            os.close(wfd)
            data = b""
            while chunk := os.read(r, 1 << 16):
                data += chunk
            os.close(r)
            _, status = os.waitpid(pid, 0)
            res = json.loads(data) if data else {"error": f"Triton aborted (wait status {status})"}
            out.write(json.dumps(dict(c, **res)) + "\n")


if __name__ == "__main__":
    main()
