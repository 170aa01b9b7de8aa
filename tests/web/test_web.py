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
           "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&wavez=2x2",  # an unknown key
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

    check_gallery(b, cli, base, shots)

    # Screenshots at both sizes, checked from their pixels.
    for link in ("#arch=gfx950&i=v_mfma_scale_f32_16x16x128_f8f6f4&cbsz=4&operand=all&pin=A,3,17",
                 "#arch=sm_90a&i=wgmma_m64n128k16_f32_f16&operand=all",
                 "#arch=gfx942&i=v_mfma_f32_32x32x8_f16&operand=all&waves=2x2&shape=128x128x32"):
        for w, h in ((1100, 720), (1400, 900)):
            b.size(w, h)
            b.open(base + link)
            time.sleep(0.2)
            stage = b.js("(() => { const s = document.getElementById('stage').getBoundingClientRect(),"
                         " f = lanescopePage.figure(), a = lanescopePage.toScreen(0, 0),"
                         " z = lanescopePage.toScreen(f.width, f.height);"
                         " return [s.left, s.top, s.right, s.bottom, a[0], a[1], z[0], z[1]]; })()")
            whole = stage[4] >= stage[0] - 0.5 and stage[5] >= stage[1] - 0.5 and stage[6] <= stage[2] + 0.5 and stage[7] <= stage[3] + 0.5
            check(whole, "%s at %dx%d: the whole figure lies inside the view" % (link, w, h))
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
