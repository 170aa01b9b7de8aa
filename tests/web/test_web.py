#!/usr/bin/python3
"""The web page (docs/web.md) in headless Chromium, driven through the DevTools protocol
(Debian's python3-websocket), against build-web/site served on loopback.

Every expectation is lanescope-cli's own answer for the same question: tooltips equal
`where` / `which`, downloads equal the CLI's files byte for byte, search hits equal
`list --search`, a bad link shows the CLI's message. Screenshots at 1100x720 and
1400x900 are checked from their pixels (the figure whole inside the stage, lane colours
present) and kept under --shots for a person to look at.

  test_web.py --site build-web/site --cli build/cli/lanescope-cli [--shots DIR]
Exit 0: all passed; 1: a check failed; 77: no site built (scripts/web.sh builds it).
"""
import argparse
import base64
import functools
import http.server
import json
import os
import random
import re
import urllib.parse
import shutil
import socketserver
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

import websocket  # python3-websocket

FAILURES = []
SITE = []  # the site under test (its size is checked)


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILURES.append(what)
    return cond


# ---- the link's keys as the CLI's options (docs/web.md) ------------------------------------
FLAGS = {"transposed", "transpose", "store"}
FIGURE_ONLY = {"view", "color", "color_by", "theme", "width", "min_font", "scale", "memory", "order", "ld", "pad",
               "swizzle", "transpose", "store", "grouping", "issue"}


def parse_hash(h):
    out = []
    for part in h.lstrip("#").split("&"):
        if part:
            k, _, v = part.partition("=")
            out.append((k, v))
    return out


def cli_args(cmd, keys, extra=()):
    a = [cmd]
    for k, v in keys:
        if k == "pin" or (cmd != "figure" and (k in FIGURE_ONLY or k == "operand")):
            continue
        opt = "--instruction" if k == "i" else "--" + k.replace("_", "-")
        a += [opt] if k in FLAGS and v in ("", "1", "true") else [opt, v]
    return a + list(extra)


class Cli:
    def __init__(self, path, work):
        self.path, self.work = path, work

    def run(self, args, out_ext=None):
        """(rc, output bytes, stderr text) of one CLI run; with out_ext the answer goes to a file (-o)."""
        out = os.path.join(self.work, "cli-out" + out_ext) if out_ext else None
        p = subprocess.run([self.path] + args + (["-o", out] if out else []), capture_output=True)
        data = p.stdout
        if out and os.path.exists(out):
            with open(out, "rb") as f:
                data = f.read()
            os.remove(out)
        return p.returncode, data, p.stderr.decode().rstrip("\n")


# ---- the browser ----------------------------------------------------------------------------
class Browser:
    def __init__(self, profile, downloads):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--remote-debugging-port=0",
             "--user-data-dir=" + profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file) and len(open(port_file).read().split("\n")) >= 2:
                break
            time.sleep(0.05)
        port, path = open(port_file).read().split("\n")[:2]
        self.ws = websocket.create_connection("ws://127.0.0.1:%s%s" % (port, path), timeout=60)
        self.next_id = 0
        self.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        # Every page's own exceptions, for the checks that no link makes the page fail (window.__errors).
        self.page("Page.addScriptToEvaluateOnNewDocument", {"source":
                  "window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(String(e.message)));"
                  "window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));"})

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        while True:
            r = json.loads(self.ws.recv())
            if r.get("id") == self.next_id:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})

    def page(self, method, params=None):
        return self.send(method, params, self.session)

    def js(self, expr):
        r = self.page("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("page script failed: %s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def size(self, w, h):
        self.page("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})

    def open(self, url):
        self.page("Page.navigate", {"url": "about:blank"})
        self.page("Page.navigate", {"url": url})
        for _ in range(600):
            try:
                if self.js("document.body && document.body.dataset.ready === '1'"):
                    return True
            except RuntimeError:
                pass
            time.sleep(0.05)
        return False

    def mouse(self, x, y, kind="mouseMoved", modifiers=0, button="none"):
        self.page("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "modifiers": modifiers, "button": button,
                                                "clickCount": 1 if button != "none" else 0})

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(QuietHandler, directory=site)
    httpd = socketserver.TCPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


# ---- PNG pixels (zlib only) -----------------------------------------------------------------
def png_pixels(data):
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3))
        prev = line
    return w, h, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shots", default="")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.site, "lanescope.wasm")):
        print("no site at %s: build it with scripts/web.sh" % a.site)
        return 77
    work = tempfile.mkdtemp(prefix="lanescope-web-test.")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    cli = Cli(a.cli, work)
    # The gallery is the site: `lanescope-cli gallery -o DIR` writes it (the page, gallery.html, the
    # engine and the index as instructions.json); every check below runs on what it wrote.
    gallery = os.path.join(work, "gallery")
    rc, out, err = cli.run(["gallery", "--site", a.site, "-o", gallery])
    check(rc == 0 and os.path.exists(os.path.join(gallery, "gallery.html")),
          "lanescope-cli gallery -o DIR writes the site (%s)" % (err or out.decode().strip()))
    if rc != 0:
        print("%d failed" % len(FAILURES))
        return 1
    _, listed, _ = cli.run(["list", "--format", "json"])
    with open(os.path.join(gallery, "instructions.json"), "rb") as f:
        check(f.read() == listed, "gallery: instructions.json is `lanescope-cli list --format json`, byte for byte")
    for name in os.listdir(a.site):
        with open(os.path.join(a.site, name), "rb") as x, open(os.path.join(gallery, name), "rb") as y:
            check(x.read() == y.read(), "gallery: %s is the built site's" % name)
    rc, _, err = cli.run(["gallery", "--site", work, "-o", os.path.join(work, "g2")])
    check(rc != 0 and "not a built site" in err and not os.path.exists(os.path.join(work, "g2")),
          "gallery --site with no site: refused, nothing written (%s)" % err)
    SITE.append(gallery)
    httpd = serve(gallery)
    base = "http://127.0.0.1:%d/index.html" % httpd.server_address[1]
    b = Browser(os.path.join(work, "profile"), downloads)
    try:
        b.size(1400, 900)
        run_checks(b, cli, base, downloads, a.shots)
    finally:
        b.close()
        httpd.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print("%d failed" % len(FAILURES) if FAILURES else "all passed")
    return 1 if FAILURES else 0


def tile_center(b, tile_id):
    i = b.js("lanescopePage.findTile(%s)" % json.dumps(tile_id))
    if i is None or i < 0:
        return None
    x, y, w, h = b.js("lanescopePage.tileBox(%d)" % i)
    return b.js("lanescopePage.toScreen(%f, %f)" % (x + w / 2, y + h / 2))


def hover_text(b, tile_id, modifiers=0):
    at = tile_center(b, tile_id)
    if not at:
        return None
    b.mouse(at[0] - 1, at[1] - 1, modifiers=modifiers)
    b.mouse(at[0], at[1], modifiers=modifiers)
    return b.js("document.getElementById('tooltip').hidden ? null : document.getElementById('tooltip').textContent")


def run_checks(b, cli, base, downloads, shots):
    # Links: AMD (a scaled MFMA with a format modifier and a pin), NVIDIA (wgmma), a tile, registers view.
    links = [
        ("#arch=gfx950&i=v_mfma_scale_f32_16x16x128_f8f6f4&cbsz=4&operand=all&pin=A,3,17", "A", 3, 17, 0),
        ("#arch=sm_90a&i=wgmma_m64n128k16_f32_f16&operand=all", "D", 5, 100, 0),
        ("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=A&waves=2x2&shape=64x64x16", "A", 40, 9, 0),
        ("#arch=gfx942&i=v_mfma_f32_32x32x1_2b_f32&operand=all&cbsz=1&abid=1", "D", 4, 7, 1),
    ]
    for link, op, row, col, block in links:
        keys = parse_hash(link)
        check(b.open(base + link), "opens " + link)
        rc, svg, err = cli.run(cli_args("figure", keys), ".svg")
        fig = b.js("lanescopePage.figure()")
        check(fig is not None and fig["tiles"] > 0, link + ": a figure is drawn")
        # The page paints the engine's display list: as many labelled tiles as the CLI's SVG has
        # (one <tspan id> each), at the SVG's size.
        svg_text = svg.decode()
        size = svg_text.split("<svg", 1)[1].split(">", 1)[0]
        check(rc == 0 and fig is not None and svg_text.count("<tspan id=") == fig["labelled"] and
              ('width="%g"' % fig["width"]) in size and ('height="%g"' % fig["height"]) in size,
              link + ": the page paints the CLI's figure (same labelled tiles, same size)")
        msg = b.js("document.getElementById('message').hidden")
        check(msg, link + ": no message")
        rc, want, err = cli.run(cli_args("where", keys, ["--operand", op, "--row", str(row), "--col", str(col),
                                                          "--block", str(block)]), ".txt")
        got = hover_text(b, "%s.%d.%d.%d.0" % (op, block, row, col))
        check(rc == 0 and got == want.decode(), link + ": hover tooltip of %s[%d][%d] equals `lanescope-cli where`" % (op, row, col))
        if got != want.decode():
            print("  page: %r\n  cli:  %r" % (got, want.decode()))
        if "pin=" in link:
            pin = b.js("document.getElementById('pin-text').textContent")
            check(pin == want.decode(), link + ": the pinned element's text equals `where`")
        # Shift+hover: everything the lane holds, as `which --lane L` answers it.
        lane_text = hover_text(b, "%s.%d.%d.%d.0" % (op, block, row, col), modifiers=8)
        # The lane of the element's first location, as `where` names it (its table's lane and wave columns).
        rc, where_text, _ = cli.run(cli_args("where", keys, ["--operand", op, "--row", str(row), "--col", str(col),
                                                             "--block", str(block)]), ".txt")
        lines = [ln.split() for ln in where_text.decode().splitlines() if ln.strip()]
        head = lines[0]
        l = lines[1][head.index("lane")]
        w = lines[1][head.index("wave")] if "wave" in head else "0"
        lane = b.js("(() => { const i = lanescopePage.findTile(%s); return i < 0 ? null : lanescopePage.laneOf(i); })()"
                    % json.dumps("%s.%d.%d.%d.0" % (op, block, row, col)))
        check(lane == "%s:%s" % (w, l), link + ": the page's lane of %s[%d][%d] is `where`'s (%s)" % (op, row, col, lane))
        if lane:
            extra = ["--operand", op, "--lane", l] + (["--of-wave", w] if "waves=" in link else [])
            rc, want, err = cli.run(cli_args("which", keys, extra), ".txt")
            check(rc == 0 and lane_text == want.decode(), link + ": shift+hover equals `which --lane %s`" % l)
            n = b.js("document.querySelectorAll('#overlay rect').length")
            rc2, j, _ = cli.run(cli_args("layout", keys, ["--operand", op, "--format", "json"]), ".json")
            held = sum(1 for e in json.loads(j)["entries"] if e["lane"] == int(l) and e.get("wave", 0) == int(w))
            check(n >= held, link + ": shift+hover outlines every %s element lane %s holds (%d >= %d)" % (op, l, n, held))
        b.mouse(1, 1)

    # The registers view: a tile is one register of one lane; its tooltip is `which`.
    link = "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=A&view=registers&pin=A,v1,l5"
    keys = parse_hash(link)
    check(b.open(base + link), "opens " + link)
    rc, want, _ = cli.run(cli_args("which", keys, ["--operand", "A", "--lane", "37", "--reg", "1"]), ".txt")
    got = hover_text(b, "A.v1.l37.0")
    check(rc == 0 and got == want.decode(), link + ": hover of v1 of lane 37 equals `which --reg 1 --lane 37`")
    rc, want, _ = cli.run(cli_args("which", keys, ["--operand", "A", "--lane", "5", "--reg", "1"]), ".txt")
    check(b.js("document.getElementById('pin-text').textContent") == want.decode(), link + ": the pin is `which`'s answer")
    b.mouse(1, 1)

    # The picker: type words, the hits are `list --search`'s, Enter opens the first.
    check(b.open(base + "#arch=gfx942"), "opens a link with only an architecture")
    b.js("document.getElementById('search').focus()")
    b.page("Input.insertText", {"text": "32x32 bf16"})
    time.sleep(0.2)
    hits = b.js("[...document.querySelectorAll('#hits li b')].map(e => e.textContent)")
    rc, want, _ = cli.run(["list", "--arch", "gfx942", "--search", "32x32 bf16", "--format", "json"])
    want_names = [x["instruction"] for x in json.loads(want)["targets"][0]["instructions"]]
    check(hits == want_names, "picker: typed '32x32 bf16' lists `list --search`'s hits in order (%s)" % ", ".join(hits or []))
    b.page("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13})
    b.page("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13})
    time.sleep(0.3)
    h = b.js("location.hash")
    check(want_names and h == "#arch=gfx942&i=%s&operand=all" % want_names[0], "picker: Enter opens the first hit (%s)" % h)
    check(b.js("lanescopePage.figure() !== null"), "picker: the picked instruction is drawn")
    # A modifier menu changes the link.
    b.open(base + "#arch=gfx942&i=v_mfma_f32_32x32x1_2b_f32&operand=A")
    b.js("(() => { const s = document.querySelector('select[data-mod=cbsz]'); s.value = '1'; s.onchange(); })()")
    check(b.js("location.hash") == "#arch=gfx942&i=v_mfma_f32_32x32x1_2b_f32&operand=A&cbsz=1",
          "modifier menu: cbsz=1 written into the link")

    # Downloads: byte for byte the CLI's.
    link = "#arch=gfx950&i=v_mfma_scale_f32_16x16x128_f8f6f4&cbsz=4&operand=all"
    b.open(base + link)
    keys = parse_hash(link)
    expected = {
        "SVG": cli.run(cli_args("figure", keys), ".svg"),
        "TikZ": cli.run(cli_args("figure", keys), ".tex"),
        "JSON": cli.run(cli_args("layout", keys, ["--operand", "all", "--format", "json"]), ".json"),
        "header": cli.run(cli_args("header", keys), ".hpp"),
    }
    b.open(base + "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=A&waves=2x2")
    keys2 = parse_hash("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=A&waves=2x2")
    expected2 = {k.capitalize() if k != "cute" else "CuTe": cli.run(cli_args("layout", keys2, ["--operand", "A", "--format", k]))
                 for k in ("linear", "gluon", "cute")}
    expected2["PNG"] = cli.run(cli_args("figure", keys2), ".png")
    for page_link, exp in ((link, expected), ("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=A&waves=2x2", expected2)):
        b.open(base + page_link)
        for label, (rc, want, err) in exp.items():
            label = {"Linear": "linear", "Gluon": "Gluon"}.get(label, label)
            for f in os.listdir(downloads):
                os.remove(os.path.join(downloads, f))
            b.js("document.querySelector('button[data-download=\"%s\"]').click()" % label)
            got = None
            for _ in range(200):
                done = [f for f in os.listdir(downloads) if not f.endswith(".crdownload")]
                if done:
                    time.sleep(0.05)
                    got = open(os.path.join(downloads, done[0]), "rb").read()
                    break
                time.sleep(0.05)
            check(rc == 0 and got == want, "download %s of %s equals the CLI's output byte for byte (%s bytes)"
                  % (label, page_link, len(got) if got is not None else "none"))

    # Bad and stale links: the CLI's message, never a blank page.
    bad = ["#arch=gfx942&i=v_mfma_f32_32x32x8_f1",           # a typo: did you mean
           "#arch=gfx942&i=v_mfma_f32_32x32x1_2b_f32&cbsz=9",  # an illegal modifier value
           "#arch=gfx9999&i=v_mfma_f32_32x32x8_f16",          # an unknown architecture
           "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&waves=2y2"]  # a malformed tile
    for link in bad:
        b.open(base + link)
        keys = parse_hash(link)
        if not any(k == "operand" for k, _ in keys):
            keys.append(("operand", "all"))
        rc, _, want = cli.run(cli_args("figure", keys), ".svg")
        got = b.js("document.getElementById('message').hidden ? null : document.getElementById('message').textContent")
        check(rc != 0 and got == want, "bad link %s shows the CLI's message: %s" % (link, (got or "nothing").splitlines()[0]))
        check(b.js("document.getElementById('search') !== null && document.getElementById('arch').value") is not None,
              "bad link %s: the page stays usable" % link)
        check(b.js("document.body.dataset.ready === '1'"), "bad link %s: the page finished (facts and menus built)" % link)

    # A link that is not percent-encoding: said on the page (no exception, no blank page), and a
    # good link after it draws again.
    for link in ("#arch=gfx942&i=v_mfma_f32_32x32x8_f16%ZZ", "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&cbsz=%"):
        b.open(base + link)
        got = b.js("document.getElementById('message').hidden ? null : document.getElementById('message').textContent") or ""
        check("not valid percent-encoding" in got and "%XX" in got, "malformed link %s is said: %s" % (link, got[:80]))
        check(b.js("document.getElementById('search') !== null && document.getElementById('arch').value") is not None,
              "malformed link %s: the page stays usable" % link)
    b.js("location.hash = '#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=A'")
    for _ in range(100):
        if b.js("window.lanescopePage.figure() !== null"):
            break
        time.sleep(0.05)
    check(b.js("window.lanescopePage.figure() !== null"), "after a malformed link, a good one draws again")

    check_hostile_links(b, cli, base)
    check_menus(b, cli, base)
    check_memory_view(b, cli, base)
    fuzz_links(b, base, random.Random(35), 60)
    check_gallery(b, cli, base, shots)

    # Screenshots at both sizes, checked from their pixels.
    for link in ("#arch=gfx950&i=v_mfma_scale_f32_16x16x128_f8f6f4&cbsz=4&operand=all&pin=A,3,17",
                 "#arch=sm_90a&i=wgmma_m64n128k16_f32_f16&operand=all",
                 "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=all&waves=2x2&shape=128x128x32"):
        for w, h in ((800, 600), (1100, 720), (1400, 900)):
            b.size(w, h)
            b.open(base + link)
            time.sleep(0.2)
            stage = b.js("(() => { const s = document.getElementById('stage').getBoundingClientRect(),"
                         " f = lanescopePage.figure(), a = lanescopePage.toScreen(0, 0),"
                         " z = lanescopePage.toScreen(f.width, f.height);"
                         " return [s.left, s.top, s.right, s.bottom, a[0], a[1], z[0], z[1]]; })()")
            whole = stage[4] >= stage[0] - 0.5 and stage[5] >= stage[1] - 0.5 and stage[6] <= stage[2] + 0.5 and stage[7] <= stage[3] + 0.5
            check(whole, "%s at %dx%d: the whole figure lies inside the view" % (link, w, h))
            # The picture gets the room: most of the window's width, and a search box that shows a name.
            room = b.js("[document.getElementById('stage').clientWidth, document.getElementById('stage').clientHeight,"
                        " document.getElementById('search').clientWidth]")
            check(room[0] >= 0.85 * w - 400 * (w >= 1200) and room[1] >= 0.6 * (h - 90) and room[2] >= 280,
                  "%s at %dx%d: the picture is %dx%d px, the search box %d px wide" % (link, w, h, room[0], room[1], room[2]))
            png = base64.b64decode(b.page("Page.captureScreenshot", {"format": "png"})["data"])
            if shots:
                os.makedirs(shots, exist_ok=True)
                name = "web_%s_%dx%d.png" % (link.split("i=")[1].split("&")[0].replace(".", "_"), w, h)
                open(os.path.join(shots, name), "wb").write(png)
            pw, ph, rows = png_pixels(png)
            colours = set()
            x0, y0, x1, y1 = (int(v) for v in stage[4:8])
            for y in range(max(0, y0), min(ph, y1), 3):
                r = rows[y]
                for x in range(max(0, x0), min(pw, x1), 3):
                    colours.add(r[3 * x:3 * x + 3])
            # The lane-group hues of the palette (core palette.cpp): Okabe-Ito orange, sky blue, bluish green.
            hues = [bytes.fromhex(c) for c in ("E69F00", "56B4E9", "009E73")]
            present = [any(sum(abs(p - q) for p, q in zip(c, hue)) < 40 for c in colours) for hue in hues]
            check(pw == w and ph == h and all(present), "%s at %dx%d: lane colours in the picture (%s)" % (link, w, h, present))
    b.size(1400, 900)


PAYLOADS = ['<img src=x onerror="window.__xss=1">', '"><svg onload="window.__xss=1">', "<script>window.__xss=1</script>",
            "'><iframe srcdoc=\"<script>parent.__xss=1</script>\">"]


def page_state(b):
    """What the page shows now: its message, whether a figure is drawn, whether the picker is there,
    script run by a link (window.__xss) and the page's own exceptions (window.__errors)."""
    return b.js("({message: document.getElementById('message') && !document.getElementById('message').hidden ?"
                " document.getElementById('message').textContent : '', figure: !!(window.lanescopePage && lanescopePage.figure()),"
                " picker: !!document.getElementById('search') && !!document.getElementById('arch'),"
                " xss: window.__xss === undefined ? null : window.__xss, errors: window.__errors || []})")


def check_hostile_links(b, cli, base):
    """No value of a link, a file or the engine becomes HTML: script in every key, value and key name of
    a link (and in the picker's search) runs nothing; a value is one argument (a newline is refused,
    not split into options); a key that is no option of the page (help, an empty key, a typo) is
    refused with the legal keys, the page kept; a tile the page would freeze on is refused at once."""
    # The page's scripts build every element: none of them parses markup.
    for name in ("app.js", "gallery.js", "paint.js"):
        text = open(os.path.join(SITE[0], name)).read()
        found = [w for w in ("innerHTML", "insertAdjacentHTML", "outerHTML", "document.write") if w in text]
        check(not found, "%s builds elements from text, never from markup (%s)" % (name, ", ".join(found) or "none"))
    good = [("arch", "sm_90a"), ("i", "wgmma_m64n64k16_f32_f16"), ("operand", "B"), ("swizzle", "64B"), ("major", "K"),
            ("waves", "1x1"), ("pin", "B,0,0"), ("memory", "smem"), ("view", "matrix"), ("cbsz", "0"), ("at", "1,0,0")]
    q = lambda t: urllib.parse.quote(t, safe="")
    links = []
    for n, (k, _) in enumerate(good):  # the payload as each key's value, each key's name, and a key of its own
        for p in PAYLOADS[:2] if n else PAYLOADS:
            links.append("&".join("%s=%s" % (kk, q(p) if kk == k else q(v)) for kk, v in good[:3] + [good[n]]))
    for p in PAYLOADS:
        links.append("arch=sm_90a&i=wgmma_m64n64k16_f32_f16&operand=B&%s=1" % q(p))
        links.append("arch=sm_90a&i=wgmma_m64n64k16_f32_f16&operand=B&%s" % q(p))
        links.append("arch=sm_90a&i=%s" % q(p))
        links.append("arch=%s&i=wgmma_m64n64k16_f32_f16" % q(p))
    bad = []
    for link in links:
        b.open(base + "#" + link)
        st = page_state(b)
        if st["xss"] is not None or st["errors"] or not st["picker"] or not (st["message"] or st["figure"]):
            bad.append((link, st))
    check(not bad, "script in every key, value and key name of %d links runs nothing, the page says why (%s)" %
          (len(links), bad[:1]))
    b.js("document.getElementById('search').focus()")
    b.page("Input.insertText", {"text": PAYLOADS[0]})
    time.sleep(0.3)
    check(page_state(b)["xss"] is None, "script typed in the picker's search runs nothing")
    # Gallery: its filters from the link and from typing.
    gallery = base.replace("index.html", "gallery.html")
    for p in PAYLOADS:
        b.open(gallery + "#q=%s&arch=%s&type=%s&shape=%s&%s=1" % (q(p), q(p), q(p), q(p), q(p)))
        ok = b.js("window.__xss === undefined && (window.__errors || []).length === 0")
        check(ok, "gallery: script in every filter and key name of its link runs nothing (%s)" % p)
    b.js("document.getElementById('q').focus()")
    b.page("Input.insertText", {"text": PAYLOADS[1]})
    time.sleep(0.3)
    check(b.js("window.__xss === undefined"), "gallery: script typed in its search runs nothing")

    # A value is one argument: a newline (%0A) in a value or key is refused, not split into options.
    for link in ("#arch=gfx942&i=v_mfma_f32_4x4x4_16b_f16&operand=A&cbsz=1%0A--abid%0A1",
                 "#arch=gfx942&i=v_mfma_f32_4x4x4_16b_f16&operand=A&cbsz%0A--abid=1",
                 "#arch=gfx942%09&i=v_mfma_f32_4x4x4_16b_f16"):
        b.open(base + link)
        st = page_state(b)
        check("control character" in st["message"] and not st["figure"] and st["picker"],
              "%s: refused, naming the control character (%s)" % (link, st["message"][:90]))
    # A value that starts with '-' stays the option's value (the CLI's message for it), not an option.
    b.open(base + "#arch=gfx942&i=v_mfma_f32_4x4x4_16b_f16&operand=A&cbsz=--abid")
    st = page_state(b)
    rc, _, want = cli.run(["figure", "--arch", "gfx942", "--instruction", "v_mfma_f32_4x4x4_16b_f16", "--operand", "A",
                           "--cbsz=--abid"], ".svg")
    check(rc != 0 and st["message"] == want and "--cbsz" in want, "cbsz=--abid: the CLI's message for --cbsz's value (%s)"
          % st["message"][:80])
    # Keys the page does not take: said with the legal keys, the picker kept, never a replaced page.
    _, helptext, _ = cli.run(["figure", "--help"])
    options = set(m.replace("-", "_") for m in re.findall(r"^ +(?:-\w,)?--([a-z][a-z0-9-]*)", helptext.decode(), re.M))
    for link, said in (("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&help", "'help' is not one the page takes"),
                       ("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&=5", "empty key"),
                       ("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&out=x.svg", "'out' is not one the page takes"),
                       ("#arch=gfx942&i=v_mfma_f32_32x32x8_f16&wavez=2x2", "did you mean 'waves'?")):
        b.open(base + link)
        st = page_state(b)
        named = all(k in st["message"] for k in ("arch", "operand", "waves", "tiles_per_wave", "swizzle"))
        check(said in st["message"] and named and st["picker"] and not st["errors"],
              "%s: refused, naming the legal keys, the page kept (%s)" % (link, st["message"].splitlines()[0][:90] if st["message"] else ""))
    keys = set(re.search(r"legal keys: ([^(]*)", st["message"]).group(1).strip().split(", ")) if "legal keys" in st["message"] else set()
    check(keys == (options - {"instruction", "out", "format", "help", "version", "catalog"}) | {"i", "pin", "at"},
          "the legal keys are `figure --help`'s options and the page's own (%d)" % len(keys))
    # A tile at figure's own limit (2,097,152 cells) is refused by the page at once, in the CLI's words.
    t0 = time.time()
    b.open(base + "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=C&waves=2x2&shape=2048x1024")
    took = time.time() - t0
    st = page_state(b)
    check(took < 5 and "the web page draws at most" in st["message"] and "2097152 cells" in st["message"],
          "a 2048x1024 C tile: refused in %.1f s (%s)" % (took, st["message"][:100]))
    rc, _, _ = cli.run(["figure", "--arch", "gfx942", "--instruction", "v_mfma_f32_32x32x8_f16", "--operand", "C",
                        "--waves", "2x2", "--shape", "512x512"], ".svg")
    check(rc == 0 and b.open(base + "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=C&waves=2x2&shape=512x512") and
          page_state(b)["figure"], "a 512x512 C tile (262,144 cells) is drawn")


def check_menus(b, cli, base):
    """The Modifiers menus offer exactly the CLI's options and the values they take: each value of each
    menu, chosen, draws (no message), and lanescope-cli figure takes the same option and value."""
    _, helptext, _ = cli.run(["figure", "--help"])
    options = set(re.findall(r"^ +(?:-\w,)?--([a-z][a-z0-9-]*)", helptext.decode(), re.M))
    for link in ("#arch=sm_90a&i=wgmma_m64n64k16_f32_f16&operand=B", "#arch=sm_100a&i=tcgen05_mma_m128n64k16_f32_f16&operand=B",
                 "#arch=gfx942&i=v_mfma_f32_32x32x1_2b_f32&operand=A"):
        b.open(base + link)
        menus = b.js("[...document.querySelectorAll('select[data-mod]')].map(s => [s.dataset.mod,"
                     " [...s.options].slice(1).filter(o => !o.disabled).map(o => o.value)])")
        check(menus and all(k.replace("_", "-") in options for k, _ in menus),
              "%s: every menu is a CLI option (%s)" % (link, ", ".join(k for k, _ in menus or [])))
        refused = []

        def choose(key, v):  # the menu as a person uses it: the page draws again in place
            b.js("(() => { const s = document.querySelector('select[data-mod=%s]'); s.value = %s; s.onchange(); })()"
                 % (key, json.dumps(v)))
            for _ in range(200):
                if b.js("document.body.dataset.ready === '1'"):
                    break
                time.sleep(0.05)
        for key, values in menus:
            for v in values:
                choose(key, v)
                msg = page_state(b)["message"]
                keys = parse_hash(b.js("location.hash"))
                rc, _, err = cli.run(cli_args("figure", keys), ".svg")
                if msg or rc != 0 or (key, v) not in keys:
                    refused.append("%s=%s: %s" % (key, v, (msg or err).splitlines()[0] if (msg or err) else "not in the link"))
                choose(key, "")
        if "tcgen05" in link:
            off = b.js("(() => { const s = document.querySelector('select[data-mod=tmem_load]');"
                       " return s && [...s.options].filter(o => o.disabled).map(o => o.value); })()")
            check(bool(off) and "32X32B" in off, "%s: tmem_load's read-back shapes (D only) are offered disabled for B (%s)" % (link, off))
        check(not refused, "%s: every value of every menu draws, as lanescope-cli figure takes it (%s)" % (link, refused[:2]))


def check_memory_view(b, cli, base):
    """The shared-memory view: hovering a chunk names its bytes and banks (the figure's own hover title,
    lanescope-cli figure --hover-titles's <title>), a click pins it into the link, and the zoom and
    scroll position are kept in the link."""
    link = "#arch=sm_90a&i=wgmma_m64n64k16_f32_f16&operand=B&memory=smem&swizzle=64B"
    keys = parse_hash(link)
    check(b.open(base + link), "opens " + link)
    rc, svg, _ = cli.run(cli_args("figure", keys, ["--hover-titles"]), ".svg")
    # The SVG's hover titles, one per chunk, each starting with the chunk's bytes ("0x0010–0x001F: banks 4–7, ...").
    titles = [t.replace("&amp;", "&") for t in re.findall(r"<title>([^<]*)</title>", svg.decode())]
    tile = "B.0x0010"
    got = hover_text(b, tile)
    want = next((t for t in titles if t.startswith("0x0010\u2013")), "?")
    check(rc == 0 and got is not None and got.strip() == want and "banks" in want,
          "shared-memory view: hovering %s says the CLI's title (%s)" % (tile, (got or "").strip()))
    at = tile_center(b, tile)
    b.mouse(at[0], at[1], "mousePressed", button="left")
    b.mouse(at[0], at[1], "mouseReleased", button="left")
    time.sleep(0.2)
    h = b.js("location.hash")
    check("pin=B.0x0010" in h and b.js("document.getElementById('pin-text').textContent").strip() == want,
          "shared-memory view: a click pins the chunk into the link (%s)" % h)
    b.mouse(1, 1)
    b.page("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": at[0], "y": at[1], "deltaX": 0, "deltaY": -400})
    time.sleep(0.5)
    h = b.js("location.hash")
    v = b.js("lanescopePage.view()")
    check("&at=" in h, "shared-memory view: the zoom is written into the link (%s)" % h)
    b.open(base + h)
    v2 = b.js("lanescopePage.view()")
    check(v and v2 and abs(v["s"] - v2["s"]) < 0.01 and abs(v["x"] - v2["x"]) < 2 and abs(v["y"] - v2["y"]) < 2,
          "shared-memory view: the link reopens at the same zoom and position (%s, %s)" % (v, v2))
    check(b.js("document.getElementById('pinned').hidden") is False, "shared-memory view: the link reopens with the chunk pinned")
    b.open(base + "#arch=sm_90a&i=wgmma_m64n64k16_f32_f16&operand=B&at=100,x,1")
    check("at=100,x,1: legal: at=SCALE,X,Y" in page_state(b)["message"], "a malformed at= is said, with what is legal")


def fuzz_links(b, base, rnd, n):
    """The page's link parser on random links (seeded): random keys (legal, near-legal, junk, empty,
    markup) and values (numbers, names, markup, control characters, percent signs, long text, other
    scripts); each ends with a message or a figure: never an exception, a blank page or script run."""
    legal = ["arch", "i", "operand", "view", "cbsz", "abid", "blgp", "waves", "tiles_per_wave", "shape", "k_width",
             "transposed", "memory", "order", "ld", "pad", "swizzle", "major", "lbo", "sbo", "pin", "at", "tmem_load"]
    junk = ["", "help", "--", "-a", "wavez", "out", "format", "x" * 300, "__proto__", "constructor", "ARCH", "i-", "é", "%", "+"]
    values = ["", "0", "1", "-1", "2x2", "64x64x16", "A", "B", "all", "K", "MN", "128B", "lds", "smem", "registers",
              "gfx942", "sm_90a", "gfx950", "v_mfma_f32_32x32x8_f16", "wgmma_m64n64k16_f32_f16", "A,3,17", "B.0x0010",
              "1,10,10", "9" * 30, "0x10", "nan", "1e9", "\u00e9\u4e2d", "\\\\", "'", '"', "a b", "1\n2", "\t", "\x00", "\x7f"]
    failures = []
    for case in range(n):
        parts = []
        if rnd.random() < 0.8:
            parts += [("arch", rnd.choice(["gfx942", "gfx950", "sm_90a", "sm_100a", "gfx1100"])),
                      ("i", rnd.choice(["v_mfma_f32_32x32x8_f16", "v_mfma_f32_4x4x4_16b_f16", "wgmma_m64n64k16_f32_f16",
                                        "v_wmma_f32_16x16x16_f16", "tcgen05_mma_m128n64k16_f32_f16"]))]
        for _ in range(rnd.randint(0, 4)):
            r = rnd.random()
            k = rnd.choice(legal) if r < 0.6 else rnd.choice(junk) if r < 0.9 else rnd.choice(PAYLOADS)
            v = rnd.choice(values) if rnd.random() < 0.85 else rnd.choice(PAYLOADS)
            parts.append((k, v))
        enc = (lambda t: urllib.parse.quote(t, safe="")) if rnd.random() < 0.85 else (lambda t: t.replace("&", "").replace("#", ""))
        link = "#" + "&".join(enc(k) + ("" if v == "" and rnd.random() < 0.5 else "=" + enc(v)) for k, v in parts)
        if rnd.random() < 0.1:
            link += rnd.choice(["%", "%ZZ", "&&", "=", "&=&"])
        # A link of its own between cases: each case is a change of link (a hashchange).
        b.js("document.body.dataset.ready = '0'; location.hash = '#arch=fuzz'")
        for _ in range(100):
            if b.js("document.body.dataset.ready === '1'"):
                break
            time.sleep(0.025)
        b.js("document.body.dataset.ready = '0'")
        b.js("location.hash = %s" % json.dumps(link))
        done = False
        for _ in range(400):
            if b.js("document.body.dataset.ready === '1'"):
                done = True
                break
            time.sleep(0.025)
        st = page_state(b)
        fault = "a fault of the page" in st["message"]
        if not done or fault or st["errors"] or st["xss"] is not None or not st["picker"] or not (st["message"] or st["figure"]):
            failures.append((link, done, st))
    check(not failures, "fuzzing the link parser: %d random links each end in a message or a figure, no exception or script (%s)"
          % (n, failures[:2]))


def check_gallery(b, cli, base, shots):
    """The gallery (gallery.html): its index is `list --format json`'s instructions, its filters
    keep what the CLI's list says matches, a row opens the page on that instruction, previews are
    drawn, and the whole site is small (goal: under 20 MB)."""
    gallery = base.replace("index.html", "gallery.html")
    rc, out, _ = cli.run(["list", "--format", "json"])
    targets = json.loads(out)["targets"]
    every = [(t["target"], x["instruction"]) for t in targets for x in t["instructions"]]
    check(b.open(gallery), "opens the gallery")
    check(b.js("lanescopeGallery.total()") == len(every) and b.js("lanescopeGallery.shown()") == [list(e) for e in every],
          "gallery: one row per instruction of `list --format json` (%d), in its order" % len(every))
    twice = b.js("[...document.querySelectorAll('#index tbody tr')].filter((tr) => {"
                 " const w = tr.cells[2].textContent.trim().split(/\\s+/); return w.length > 1 && w[0] === w[1]; }).length")
    check(twice == 0, "gallery: no row names its architecture twice (%s rows do)" % twice)
    time.sleep(1.0)
    check(b.js("lanescopeGallery.drawn()") > 0, "gallery: previews of the rows in view are drawn (%s)" % b.js("lanescopeGallery.drawn()"))
    for w, h in ((1100, 720), (1400, 900)):
        b.size(w, h)
        time.sleep(0.5)
        wide = b.js("document.documentElement.scrollWidth - window.innerWidth")
        check(wide is not None and wide <= 1, "gallery at %dx%d: every column in the window (%s px beyond it)" % (w, h, wide))
        if shots:
            os.makedirs(shots, exist_ok=True)
            png = base64.b64decode(b.page("Page.captureScreenshot", {"format": "png"})["data"])
            open(os.path.join(shots, "web_gallery_%dx%d.png" % (w, h)), "wb").write(png)
    b.size(1400, 900)
    # Filters from the link: architecture, element type, shape; and typed words.
    check(b.open(gallery + "#arch=gfx942&type=f16&shape=32x32x8"), "opens the gallery filtered by a link")
    gfx942 = next(t for t in targets if t["target"] == "gfx942")
    want = [["gfx942", x["instruction"]] for x in gfx942["instructions"]
            if x["shape"] == "32x32x8" and "f16" in x["types"].split(",")]
    got = b.js("lanescopeGallery.shown()")
    check(bool(want) and got == want, "gallery: arch=gfx942&type=f16&shape=32x32x8 keeps the CLI list's matches (%s)" %
          ", ".join(x[1] for x in got or []))
    check(b.open(gallery), "opens the gallery again")
    b.js("document.getElementById('q').focus()")
    b.page("Input.insertText", {"text": "wgmma m64n256k16"})
    time.sleep(0.3)
    got = b.js("lanescopeGallery.shown()")
    want = [list(e) for e in every if "wgmma" in e[1].lower() and "m64n256k16" in e[1].lower()]
    check(bool(want) and got == want, "gallery: typed words keep the instructions whose name has them all (%d)" % len(want))
    check("q=wgmma" in b.js("location.hash"), "gallery: the filter is written to the link")
    # A row's link opens the page on that instruction (the GEMM, with its facts).
    target, name = got[0]
    b.js("document.querySelector('#index tbody tr:not([hidden]) a.name').click()")
    for _ in range(200):
        try:
            if b.js("location.pathname.endsWith('index.html') && document.body.dataset.ready === '1'"):
                break
        except RuntimeError:
            pass
        time.sleep(0.05)
    h = b.js("location.hash")
    keys = dict(parse_hash(h))
    check(keys.get("arch") == target and keys.get("i") == name and b.js("lanescopePage.figure() !== null"),
          "gallery: clicking %s opens the page on it (%s)" % (name, h))
    rc, info, _ = cli.run(["info", "--arch", target, "--instruction", name], ".txt")
    facts = b.js("document.getElementById('facts-text').textContent")
    first = info.decode().splitlines()[0].strip() if rc == 0 and info else "?"
    check(rc == 0 and first in (facts or ""), "gallery: the opened page's facts are `info`'s (%s)" % first)
    site = SITE[0]
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(site) for f in fs)
    check(size < 20e6, "the whole site, gallery included, is under 20 MB (%.1f MB)" % (size / 1e6))


if __name__ == "__main__":
    sys.exit(main())
