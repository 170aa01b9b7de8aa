// Paints the engine's display list of a figure (web/bind.cpp) on a canvas, as figures/src/svg.cpp
// writes it, in its order: background, boxes, tile fills, the tile grid, tile labels, lines, texts.
// Colours, labels and positions are the engine's; this only chooses what is on screen: tiles
// outside the view are skipped, and tile labels are left out while their font would be under 3
// device pixels (unreadable; the SVG download has them). Used by the page (app.js) and the
// gallery's previews (gallery.js). docs/web.md.
'use strict';

// The figure the engine drew last: {width, height, scene, boxes, colors, ids, lines}.
function readFigure(engine) {
  const scene = JSON.parse(engine.scene());
  const rows = engine.tileIds().split('\n');
  rows.pop();
  // What a pointer over each tile is told (a shared-memory chunk: its bytes and banks), where the figure says it.
  const hovers = engine.tileHovers ? engine.tileHovers().split('\n') : [];
  return {width: scene.width, height: scene.height, scene, boxes: Float64Array.from(engine.tileBoxes()),
          colors: Uint32Array.from(engine.tileColors()), ids: rows.map((r) => r.split('\t')[0]),
          lines: rows.map((r) => r.split('\t').slice(1)), hovers};
}

const colorText = new Map();
function css(n) {
  let c = colorText.get(n);
  if (!c) colorText.set(n, c = '#' + n.toString(16).padStart(6, '0'));
  return c;
}
const FONT_FAMILY = "'DejaVu Sans', Verdana, Arial, sans-serif";  // the SVG's (figures/src/svg.cpp)
// g: a 2D context; view {x, y, s}: figure units to CSS pixels; W x H: the canvas in CSS pixels.
function paintFigure(g, fig, view, W, H, dpr) {
  g.setTransform(view.s * dpr, 0, 0, view.s * dpr, view.x * dpr, view.y * dpr);
  const sc = fig.scene, b = fig.boxes, col = fig.colors, n = fig.ids.length;
  const x0 = -view.x / view.s, y0 = -view.y / view.s, x1 = x0 + W / view.s, y1 = y0 + H / view.s;
  const seen = (x, y, w, h) => x + w >= x0 && x <= x1 && y + h >= y0 && y <= y1;
  g.fillStyle = css(sc.background);
  g.fillRect(0, 0, sc.width, sc.height);
  for (const [x, y, w, h, fill, stroke, sw] of sc.boxes) {
    if (fill >= 0) { g.fillStyle = css(fill); g.fillRect(x, y, w, h); }
    if (sw > 0) { g.strokeStyle = css(stroke); g.lineWidth = sw; g.strokeRect(x, y, w, h); }
  }
  let last = -1;
  for (let i = 0; i < n; ++i) {
    const x = b[4 * i], y = b[4 * i + 1], w = b[4 * i + 2], h = b[4 * i + 3];
    if (!seen(x, y, w, h)) continue;
    if (col[3 * i] !== last) g.fillStyle = css(last = col[3 * i]);
    g.fillRect(x, y, w, h);
  }
  if (sc.tileGrid && n) {
    g.strokeStyle = css(sc.tileStroke);
    g.lineWidth = 0.5;
    g.beginPath();
    for (let i = 0; i < n; ++i) {
      const x = b[4 * i], y = b[4 * i + 1], w = b[4 * i + 2], h = b[4 * i + 3];
      if (seen(x, y, w, h)) g.rect(x, y, w, h);
    }
    g.stroke();
  }
  if (sc.tileFont * view.s * dpr >= 3) {
    g.font = sc.tileFont + 'px ' + FONT_FAMILY;
    g.textAlign = 'center';
    g.textBaseline = 'alphabetic';
    last = -1;
    for (let i = 0; i < n; ++i) {
      const x = b[4 * i], y = b[4 * i + 1], w = b[4 * i + 2], h = b[4 * i + 3], lines = fig.lines[i];
      if (!col[3 * i + 2] || !lines.length || !seen(x, y, w, h)) continue;
      if (col[3 * i + 1] !== last) g.fillStyle = css(last = col[3 * i + 1]);
      const base = y + (h - sc.tileLine * lines.length) / 2 + sc.tileLine * 0.78;
      for (let k = 0; k < lines.length; ++k) g.fillText(lines[k], x + w / 2, base + k * sc.tileLine);
    }
  }
  g.lineCap = 'square';
  for (const [xa, ya, xb, yb, w, color] of sc.lines) {
    g.strokeStyle = css(color);
    g.lineWidth = w;
    g.beginPath();
    g.moveTo(xa, ya);
    g.lineTo(xb, yb);
    g.stroke();
  }
  for (const [x, y, size, anchor, bold, color, text] of sc.texts) {
    g.font = (bold ? 'bold ' : '') + size + 'px ' + FONT_FAMILY;
    g.textAlign = anchor;
    g.fillStyle = css(color);
    g.fillText(text, x, y);
  }
}
