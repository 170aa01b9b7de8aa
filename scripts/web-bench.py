#!/usr/bin/python3
"""Speed of the web page (docs/web.md) in headless Chromium: the time from navigation to the
first picture, and how long a hover takes to answer (hit-test, outlines, the CLI's tooltip),
on the largest instruction and on a 256x256 tile. A benchmark, not a test: it prints numbers
(goals: first picture < 1000 ms, a hover within one frame, 16.7 ms).

  scripts/web-bench.py [--site build-web/site] [--hovers 200]
"""
import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "web"))
import test_web  # noqa: E402  (the DevTools driver and the loopback server)

LINKS = [
    ("largest instruction: wgmma m64n256k16 bf16, A, B and D",
     "#arch=sm_90a&i=wgmma_m64n256k16_f32_bf16&operand=all"),
    ("largest AMD: v_mfma_f32_32x32x64_f8f6f4, A, B and D",
     "#arch=gfx950&i=v_mfma_f32_32x32x64_f8f6f4&operand=all"),
    ("a 256x256 tile: C of 2x2 waves of v_mfma_f32_32x32x8_f16",
     "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=C&waves=2x2&shape=256x256"),
]


def main():
    ap = argparse.ArgumentParser()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    ap.add_argument("--site", default=os.path.join(root, "build-web", "site"))
    ap.add_argument("--hovers", type=int, default=200)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="lanescope-web-bench.")
    httpd = test_web.serve(a.site)
    base = "http://127.0.0.1:%d/index.html" % httpd.server_address[1]
    b = test_web.Browser(os.path.join(work, "profile"), work)
    rng = random.Random(28)
    try:
        b.size(1400, 900)
        print("| view | first picture ms | render ms | engine ms | display list ms | paint ms | tiles |"
              " hover median ms | hover p90 ms | hover max ms |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for label, link in LINKS:
            firsts, renders, parts = [], [], []
            for _ in range(3):  # a fresh page each time (the wasm compiled again, from the HTTP cache)
                b.open(base + link)
                for _ in range(100):
                    t = b.js("window.lanescopeTimes")
                    if t.get("firstPicture"):
                        break
                firsts.append(t["firstPicture"])
                renders.append(t["renderMs"])
                parts.append((t["engineMs"], t.get("parseMs", 0), t.get("paintMs", 0)))
            fig = b.js("lanescopePage.figure()")
            b.js("window.lanescopeTimes.hover = []")
            for _ in range(a.hovers):
                i = rng.randrange(fig["tiles"])
                x, y, w, h = b.js("lanescopePage.tileBox(%d)" % i)
                sx, sy = b.js("lanescopePage.toScreen(%f, %f)" % (x + w / 2, y + h / 2))
                b.mouse(sx, sy, modifiers=8 if rng.random() < 0.25 else 0)
            hv = sorted(b.js("window.lanescopeTimes.hover"))
            med = lambda k: statistics.median(p[k] for p in parts)  # noqa: E731
            print("| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %.2f | %.2f | %.2f |" % (
                label, statistics.median(firsts), statistics.median(renders), med(0), med(1), med(2), fig["tiles"],
                statistics.median(hv),
                hv[len(hv) * 9 // 10], hv[-1]))
    finally:
        b.close()
        httpd.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
