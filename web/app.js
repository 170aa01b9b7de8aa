// lanescope in the browser (docs/web.md). The page holds no layout knowledge: every
// picture, tooltip, fact, search hit, message and download is lanescope-cli's own
// answer, computed by the CLI compiled to WebAssembly (web/bind.cpp). The link's
// keys are the CLI's long options ('-' written '_'; 'i' is --instruction); 'pin'
// is the page's own.
'use strict';

// The link's keys: lanescope-cli figure's long options ('-' written '_'; 'i' is --instruction), read
// from the engine's own `figure --help` when it has loaded (learnOptions), less those the page sets
// itself; FLAGS: those of them that take no value (in a link the key alone, or =1).
let LINK_KEYS = new Set(['i', 'pin']);
let FLAGS = new Set();
const PAGE_SET = new Set(['instruction', 'out', 'format', 'help', 'version', 'catalog']);
// Options only `figure` has; the element queries (where, which, layout, info, header) get the rest.
const FIGURE_ONLY = new Set(['view', 'color', 'color_by', 'theme', 'width', 'min_font', 'scale', 'memory', 'order', 'ld',
                             'pad', 'swizzle', 'transpose', 'store', 'grouping', 'issue']);
const TILE_KEYS = new Set(['waves', 'tiles_per_wave', 'shape', 'k_width', 'transposed']);
const PAGE_KEYS = new Set(['pin', 'at']);
const DOWNLOADS = [
  ['SVG', 'figure', '.svg'], ['PNG', 'figure', '.png'], ['TikZ', 'figure', '.tex'], ['JSON', 'json', '.json'],
  ['linear', 'linear', '.txt'], ['Gluon', 'gluon', '.py'], ['CuTe', 'cute', '.txt'], ['header', 'header', '.hpp'],
];
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';  // where the PNG renderer looks (figures/src/png.cpp)

const $ = (id) => document.getElementById(id);
let engine = null;
let stderr = [];
let state = new Map();     // the link: key -> value ('' for a flag)
let fig = null;            // the figure shown: {width, height, boxes, ids, lines, index, ...}
let view = {x: 0, y: 0, s: 1};
let hover = null;          // tile index under the pointer
const times = window.lanescopeTimes = {hover: []};  // for scripts/web-bench.py
let shiftDown = false;
let drawnShift = false;    // the shift state the outlines were drawn for
const tipCache = new Map();

// ---- the link -------------------------------------------------------------------------------
let linkError = '';         // why the link could not be read ('' when it could)
// The figure's options from `figure --help` (the engine's words): every link key and which take no value.
function learnOptions() {
  const r = cli(['figure', '--help']);
  const keys = new Set(['i', 'pin', 'at']), flags = new Set();
  for (const m of r.err.matchAll(/^ +(?:-\w,)?--([a-z][a-z0-9-]*)( [^ ])?/gm)) {
    const k = m[1].replace(/-/g, '_');
    if (PAGE_SET.has(k)) continue;
    keys.add(k);
    if (!m[2]) flags.add(k);
  }
  if (keys.size > 3) { LINK_KEYS = keys; FLAGS = flags; }
}
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
function legalKeysText() {
  return [...LINK_KEYS].join(', ') + " (lanescope-cli figure's long options with '-' written '_', i for --instruction; " +
         "pin and at are the page's own)";
}
// The legal key nearest a misspelt one (at most 1 edit for keys of 3 letters or fewer, else 2; of equals,
// one as long as the typed key): 'wavez' -> 'waves'.
function closestKey(k) {
  const typed = k.toLowerCase(), most = typed.length <= 3 ? 1 : 2;
  let best = null, bestD = most + 1;
  for (const c of LINK_KEYS) {
    const d = editDistance(typed, c) + (c.length === typed.length ? 0 : 0.5);
    if (d < bestD) { best = c; bestD = d; }
  }
  return best;
}
function editDistance(a, b) {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({length: b.length + 1}, (_, j) => j);
  for (let i = 1; i <= a.length; ++i) {
    const cur = [i];
    for (let j = 1; j <= b.length; ++j) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
// Why a decoded key=value cannot be one option and its value ('' when it can).
function keyProblem(k, v, part) {
  const shown = (t) => "'" + (t.length > 40 ? t.slice(0, 40) + '…' : t) + "'";
  const ctl = (t) => 'U+' + t.match(CONTROL)[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  if (k === '') return `this link's part ${shown(part)} has an empty key; every part is KEY=VALUE (or a flag, KEY alone); legal keys: ` + legalKeysText();
  if (CONTROL.test(k)) return `this link's key ${shown(k)} holds a control character (${ctl(k)}); legal keys: ` + legalKeysText();
  if (CONTROL.test(v)) return `this link's value of '${k}' holds a control character (${ctl(v)}, e.g. a newline written %0A): ` +
                             'a value is one argument of the option, with no newline, tab or other control character; correct or remove it';
  if (!LINK_KEYS.has(k)) {
    const near = closestKey(k);
    return `this link's key ${shown(k)} is not one the page takes` + (near ? `; did you mean '${near}'?` : '') +
           '\nlegal keys: ' + legalKeysText();
  }
  return '';
}
function parseHash(hash) {
  const m = new Map();
  linkError = '';
  // A part that is not percent-encoding ('%ZZ', a lone '%') is said, not thrown: the page keeps working.
  const decode = (s, part) => {
    try { return decodeURIComponent(s); } catch (e) {
      if (!linkError) linkError = `this link's part '${part}' is not valid percent-encoding (a '%' must start %XX, e.g. %20 for a space, %25 for '%'); correct or remove it`;
      return null;
    }
  };
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decode(eq < 0 ? part : part.slice(0, eq), part);
    const v = eq < 0 ? '' : decode(part.slice(eq + 1).replace(/\+/g, ' '), part);
    if (k === null || v === null) continue;
    const why = keyProblem(k.replace(/-/g, '_'), v, part);
    if (why) { if (!linkError) linkError = why; continue; }
    m.set(k.replace(/-/g, '_'), v);
  }
  return m;
}
function hashOf(m) {
  const enc = (s) => encodeURIComponent(s).replace(/%2C/g, ',').replace(/%3A/g, ':');
  return '#' + [...m].map(([k, v]) => (v === '' && FLAGS.has(k) ? enc(k) : enc(k) + '=' + enc(v))).join('&');
}
function setKey(k, v) {
  if (v === null || v === undefined || (v === '' && !FLAGS.has(k))) state.delete(k); else state.set(k, v);
}
function commit() {
  const h = hashOf(state);
  if (location.hash !== h) history.replaceState(null, '', h);
  render();
}

// ---- the engine: one CLI run ----------------------------------------------------------------
// The engine takes its command line one argument a line: an argument holding a line break would be
// several (parseHash refuses control characters; this is the last guard).
function joined(argv) {
  if (argv.some((a) => /[\n\r]/.test(a))) throw new Error('an argument holds a line break: ' + JSON.stringify(argv));
  return argv.join('\n');
}
function cli(args, outName) {
  stderr = [];
  const out = outName ? '/out/' + outName : null;
  const argv = out ? args.concat(['-o', out]) : args;
  const rc = engine.run(joined(argv));
  let bytes = null;
  if (out) {
    try { bytes = engine.FS.readFile(out); engine.FS.unlink(out); } catch (e) { bytes = null; }
  }
  return {rc, bytes, text: bytes ? new TextDecoder().decode(bytes) : '', err: stderr.join('\n')};
}
// `figure` drawn for the canvas: the engine keeps its display list and writes no file.
function draw(args) {
  stderr = [];
  const rc = engine.draw(joined(args.concat(['-o', '-'])));  // -o: figure requires it; nothing is written
  return {rc, err: stderr.join('\n')};
}
// The command line of `cmd` for the link's state; `extra` is appended.
function argsFor(cmd, extra = [], opts = {}) {
  const a = [cmd];
  for (const [k, v] of state) {
    if (PAGE_KEYS.has(k)) continue;
    if (cmd !== 'figure' && FIGURE_ONLY.has(k)) continue;
    if (cmd !== 'figure' && k === 'operand') continue;
    if (opts.noTile && TILE_KEYS.has(k)) continue;
    const opt = k === 'i' ? '--instruction' : '--' + k.replace(/_/g, '-');
    // A value is one argument: one that starts with '-' is written --opt=VALUE (else it would read as an option).
    if (FLAGS.has(k) && (v === '' || v === '1' || v === 'true')) a.push(opt);
    else if (v.startsWith('-')) a.push(opt + '=' + v);
    else a.push(opt, v);
  }
  return a.concat(extra);
}
function operandKey() { return state.get('operand') || 'A'; }

// ---- drawing --------------------------------------------------------------------------------
function showMessage(text) {
  const m = $('message');
  m.textContent = text;
  m.hidden = !text;
}
function render() {
  delete document.body.dataset.ready;
  tipCache.clear();
  hideTip();
  syncControls();
  fig = null;
  schedulePaint();
  $('overlay').replaceChildren();
  if (linkError) {
    showMessage(linkError);
    $('facts-text').textContent = '';
    document.body.dataset.ready = '1';
    return;
  }
  if (!state.get('arch') || !state.get('i')) {
    showMessage(state.get('arch') ? 'Pick an instruction: type in the search box.' :
                'Pick an architecture (gfx942, gfx950, sm_90a, …) and an instruction.');
    $('facts-text').textContent = '';
    document.body.dataset.ready = '1';
    return;
  }
  const t0 = performance.now();
  const r = draw(argsFor('figure'));
  times.engineMs = performance.now() - t0;  // the engine's share (scripts/web-bench.py)
  if (r.rc !== 0) {
    showMessage(r.err || 'lanescope-cli figure failed (exit ' + r.rc + ')');
    fig = null;
  } else {
    showMessage('');
    const t1 = performance.now();
    // The engine's display list of the figure just drawn (web/bind.cpp): the page paints it on a
    // <canvas>, as figures/src/svg.cpp writes it, and hit-tests the same tiles.
    fig = readFigure(engine);
    times.parseMs = performance.now() - t1;  // reading the display list (painting comes after render)
    const ov = $('overlay');
    ov.setAttribute('width', fig.width);
    ov.setAttribute('height', fig.height);
    ov.setAttribute('viewBox', `0 0 ${fig.width} ${fig.height}`);
    indexFigure();
    if (!viewFromLink()) fitView();
  }
  document.title = 'lanescope · ' + state.get('i') + ' · ' + state.get('arch');
  applyPin();
  if (atError) showMessage(atError);
  drawHighlights();
  times.renderMs = performance.now() - t0;
  // The first picture: painted in the frame after this (ms since navigation started). The facts
  // and the modifier menus come after it has been painted.
  const generation = ++renders;
  const t2 = performance.now();
  requestAnimationFrame(() => {
    times.paintMs = performance.now() - t2;  // the canvas painted, the frame laid out
    if (!times.firstPicture) times.firstPicture = performance.now();
    setTimeout(() => safely(() => {
      if (generation !== renders) return;
      const info = cli(argsFor('info', [], {noTile: true}), 'info.txt');
      showFacts(info.rc === 0 ? info.text : info.err);
      buildModifiers();
      // Every tile's lane now, after the picture, so that no hover (shift+hover: everything a lane
      // holds) waits for `layout --format json`.
      learnLanes();
      document.body.dataset.ready = '1';
    }), 0);
  });
}
let renders = 0;

// Tiles by element, lane and row/column, and a bucket grid for hit-testing.
function indexFigure() {
  const n = fig.ids.length;
  fig.parsed = new Array(n);
  fig.byElement = new Map();
  fig.byLane = new Map();
  fig.byRow = new Map();
  fig.byCol = new Map();
  const push = (map, k, i) => { let l = map.get(k); if (!l) map.set(k, l = []); l.push(i); };
  for (let i = 0; i < n; ++i) {
    const p = parseId(fig.ids[i]);
    fig.parsed[i] = p;
    if (!p) continue;
    push(fig.byElement, p.elementKey, i);
    if (p.kind === 'matrix') {
      push(fig.byRow, p.op + '.' + p.block + '.' + p.row, i);
      push(fig.byCol, p.op + '.' + p.block + '.' + p.col, i);
    }
    if (p.lane) push(fig.byLane, p.lane, i);
  }
  fig.lanesKnown = !fig.parsed.some((p) => p && p.kind === 'matrix');
  // Buckets of 32x32 units.
  const B = 32, cols = Math.ceil(fig.width / B) + 1, rowsN = Math.ceil(fig.height / B) + 1;
  fig.bucket = {B, cols, cells: new Array(cols * rowsN)};
  for (let i = 0; i < n; ++i) {
    const [x, y, w, h] = fig.boxes.subarray(4 * i, 4 * i + 4);
    for (let by = Math.floor(y / B); by <= Math.floor((y + h) / B); ++by)
      for (let bx = Math.floor(x / B); bx <= Math.floor((x + w) / B); ++bx) {
        const c = by * cols + bx;
        (fig.bucket.cells[c] || (fig.bucket.cells[c] = [])).push(i);
      }
  }
}
// "A.0.3.17.1" (matrix: operand, block, row, col, n-th location), "A.v3.l17.0" or "A.w1.v3.l17.0"
// (registers: [wave], register, lane, n-th part), "mem0.r.c.n" (memory cells).
function parseId(id) {
  if (!id) return null;
  const f = id.split('.');
  let m;
  if (f.length === 5 && /^\d+$/.test(f[1]))
    return {kind: 'matrix', op: f[0], block: +f[1], row: +f[2], col: +f[3], n: +f[4],
            elementKey: f.slice(0, 4).join('.')};
  if ((m = /^([A-Z]+)\.(?:w(\d+)\.)?v(\d+)\.l(\d+)\.(\d+)$/.exec(id)))
    return {kind: 'registers', op: m[1], wave: m[2] === undefined ? null : +m[2], reg: +m[3], lane: (m[2] || 0) + ':' + m[4],
            laneNo: +m[4], n: +m[5], elementKey: id.slice(0, id.lastIndexOf('.'))};
  return {kind: 'other', elementKey: id};
}
// The lane of every matrix-view tile, asked for once per figure: after the first picture is painted
// (the picture does not wait for it), or by an earlier shift+hover.
function learnLanes() {
  if (!fig || fig.lanesKnown) return;  // no figure (a refused link): nothing to learn
  fig.lanesKnown = true;
  const lanes = laneTables();
  for (let i = 0; i < fig.parsed.length; ++i) {
    const p = fig.parsed[i];
    if (!p || p.kind !== 'matrix') continue;
    const locs = lanes.get(p.op);
    const at = locs && locs.get(p.block + '.' + p.row + '.' + p.col);
    if (at && at[p.n]) {
      p.lane = at[p.n];
      let l = fig.byLane.get(p.lane);
      if (!l) fig.byLane.set(p.lane, l = []);
      l.push(i);
    }
  }
}
// Per operand drawn in the matrix view: element "b.r.c" -> the lane ("wave:lane") of each location,
// in the order of `where` (the figure's n), from `layout --format json`.
function laneTables() {
  const tables = new Map();
  if ((state.get('view') || 'matrix') !== 'matrix' || state.has('memory')) return tables;
  const ops = new Set(fig.ids.map((id) => id.split('.')[0]).filter((o) => /^[A-Z]+$/.test(o)));
  for (const op of ops) {
    const r = cli(argsFor('layout', ['--operand', op, '--format', 'json']), 'layout.json');
    if (r.rc !== 0) continue;
    const j = JSON.parse(r.text);
    const m = new Map();
    for (const e of j.entries) {
      const k = (e.block || 0) + '.' + e.row + '.' + e.col;
      let l = m.get(k);
      if (!l) m.set(k, l = []);
      l.push((e.wave || 0) + ':' + e.lane);
    }
    tables.set(op, m);
  }
  return tables;
}

// ---- zoom and pan ---------------------------------------------------------------------------
function applyView() {
  $('canvas').style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.s})`;
  schedulePaint();
}

// ---- painting the engine's display list -----------------------------------------------------
// The engine's display list, painted by paint.js once per change of figure or view (zoom, pan,
// resize), never on hover: the outlines are the overlay above it.
let paintQueued = false;
function schedulePaint() {
  if (paintQueued) return;
  paintQueued = true;
  requestAnimationFrame(paint);
}
function paint() {
  paintQueued = false;
  const c = $('paint'), st = $('stage');
  const dpr = window.devicePixelRatio || 1, W = st.clientWidth, H = st.clientHeight;
  if (c.width !== Math.round(W * dpr) || c.height !== Math.round(H * dpr)) {
    c.width = Math.round(W * dpr);
    c.height = Math.round(H * dpr);
    c.style.width = W + 'px';
    c.style.height = H + 'px';
  }
  const g = c.getContext('2d');
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.clearRect(0, 0, c.width, c.height);
  if (!fig) return;
  const t0 = performance.now();
  paintFigure(g, fig, view, W, H, dpr);
  times.lastPaintMs = performance.now() - t0;
}
// at=SCALE,X,Y (the page's own key): the zoom, and the figure point (user units) at the stage's centre.
let atError = '';
function viewFromLink() {
  atError = '';
  const v = state.get('at');
  if (v === undefined || !fig) return false;
  const f = v.split(',').map(Number);
  if (f.length !== 3 || !f.every(Number.isFinite) || f[0] < 0.02 || f[0] > 32) {
    atError = `at=${v}: legal: at=SCALE,X,Y, the zoom (0.02 to 32; 1 is 1:1) and the figure point at the picture's centre`;
    return false;
  }
  const st = $('stage').getBoundingClientRect();
  view = {s: f[0], x: st.width / 2 - f[1] * f[0], y: st.height / 2 - f[2] * f[0]};
  applyView();
  return true;
}
let atTimer = null;
function viewToLink() {
  clearTimeout(atTimer);
  atTimer = setTimeout(() => {
    if (!fig) return;
    const st = $('stage').getBoundingClientRect(), r = (x) => +x.toFixed(2);
    state.set('at', [r(view.s), r((st.width / 2 - view.x) / view.s), r((st.height / 2 - view.y) / view.s)].join(','));
    history.replaceState(null, '', hashOf(state));
  }, 150);
}
function fitView() {
  if (!fig) return;
  const st = $('stage').getBoundingClientRect();
  // The hint line under the picture keeps its own strip (it would cover the figure's last row).
  const s = Math.min((st.width - 16) / fig.width, (st.height - 30) / fig.height, 2);
  view = {s, x: (st.width - fig.width * s) / 2, y: 8};
  applyView();
}
function figurePoint(ev) {
  const st = $('stage').getBoundingClientRect();
  return [(ev.clientX - st.left - view.x) / view.s, (ev.clientY - st.top - view.y) / view.s];
}
function hit(x, y) {
  if (!fig || !fig.bucket) return null;
  const {B, cols, cells} = fig.bucket;
  if (x < 0 || y < 0) return null;
  const list = cells[Math.floor(y / B) * cols + Math.floor(x / B)];
  if (!list) return null;
  for (const i of list) {
    const b = fig.boxes;
    if (x >= b[4 * i] && x < b[4 * i] + b[4 * i + 2] && y >= b[4 * i + 1] && y < b[4 * i + 1] + b[4 * i + 3])
      return fig.ids[i] ? i : null;  // memory figures' frames and padding have no name
  }
  return null;
}

// ---- hover, tooltip, pin --------------------------------------------------------------------
// The CLI's answer for one tile: `where` for an element, `which` for a lane's register.
function tipText(i) {
  if (shiftDown) learnLanes();
  const p = fig.parsed[i];
  const key = fig.ids[i] + (shiftDown ? '+lane' : '');
  if (tipCache.has(key)) return tipCache.get(key);
  let r;
  if (p.kind === 'matrix') {
    if (shiftDown && p.lane) {
      const [w, l] = p.lane.split(':');
      r = cli(argsFor('which', ['--operand', p.op, '--lane', l].concat(tileMode() ? ['--of-wave', w] : [])), 'tip.txt');
    } else {
      r = cli(argsFor('where', ['--operand', p.op, '--row', '' + p.row, '--col', '' + p.col, '--block', '' + p.block]), 'tip.txt');
    }
  } else if (p.kind === 'registers') {
    const extra = ['--operand', p.op, '--lane', '' + p.laneNo].concat(shiftDown ? [] : ['--reg', '' + p.reg]);
    if (p.wave !== null) extra.push('--of-wave', '' + p.wave);
    r = cli(argsFor('which', extra), 'tip.txt');
  } else {
    // A shared-memory chunk: its bytes, banks and elements, as the figure's own hover title says them.
    r = {rc: 0, text: (fig.hovers[i] || fig.lines[i].join(' ')) + '\n'};
  }
  const text = r.rc === 0 ? r.text : r.err;
  tipCache.set(key, text);
  return text;
}
function tileMode() { for (const k of TILE_KEYS) if (state.has(k)) return true; return false; }
function showTip(i, ev) {
  const t = $('tooltip');
  t.textContent = tipText(i);
  t.hidden = false;
  const st = $('stage').getBoundingClientRect();
  let x = ev.clientX - st.left + 14, y = ev.clientY - st.top + 14;
  const w = t.offsetWidth, h = t.offsetHeight;
  if (x + w > st.width) x = Math.max(0, ev.clientX - st.left - w - 14);
  if (y + h > st.height) y = Math.max(0, ev.clientY - st.top - h - 14);
  t.style.left = x + 'px';
  t.style.top = y + 'px';
}
function hideTip() { $('tooltip').hidden = true; }
// The tiles to outline for tile i: its element's locations (a D/C element: also A's row and B's
// column, the GEMM's definition), or with shift everything its lane holds.
function linked(i) {
  if (shiftDown) learnLanes();
  const p = fig.parsed[i];
  if (!p) return {strong: [], weak: []};
  if (shiftDown && p.lane) return {strong: fig.byLane.get(p.lane) || [], weak: []};
  const strong = fig.byElement.get(p.elementKey) || [i];
  let weak = [];
  if (p.kind === 'matrix' && (p.op === 'D' || p.op === 'C'))
    weak = (fig.byRow.get('A.' + p.block + '.' + p.row) || fig.byRow.get('A.0.' + p.row) || [])
        .concat(fig.byCol.get('B.' + p.block + '.' + p.col) || fig.byCol.get('B.0.' + p.col) || []);
  return {strong, weak};
}
let pinned = null;
function drawHighlights() {
  const ov = $('overlay');
  if (!fig) { ov.replaceChildren(); return; }
  const rects = [];
  const rect = (i, cls) => {
    const b = fig.boxes, r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.setAttribute('class', cls);
    r.setAttribute('x', b[4 * i]);
    r.setAttribute('y', b[4 * i + 1]);
    r.setAttribute('width', b[4 * i + 2]);
    r.setAttribute('height', b[4 * i + 3]);
    rects.push(r);
  };
  const lw = Math.max(1, 1.5 / view.s);
  for (const [idx, cls] of [[pinned, 'pin'], [hover, 'hov']]) {
    if (idx === null || idx === undefined) continue;
    const l = linked(idx);
    for (const i of l.weak) rect(i, cls + ' weak');
    for (const i of l.strong) rect(i, cls);
  }
  ov.replaceChildren(...rects);
  ov.style.setProperty('--lw', lw);
}
function pinKey(i) {
  const p = fig.parsed[i];
  if (p.kind === 'matrix') return [p.op, p.row, p.col].concat(p.block ? [p.block] : []).join(',');
  if (p.kind === 'registers') return [p.op, 'v' + p.reg, 'l' + p.laneNo].concat(p.wave !== null ? ['w' + p.wave] : []).join(',');
  return /^[A-Z]+\.0x[0-9A-F]+$/.test(fig.ids[i]) ? fig.ids[i] : null;  // a shared-memory chunk: B.0x0010
}
// pin=A,3,17[,block] (matrix view), pin=A,v3,l17[,wW] (registers view) or pin=B.0x0010 (a chunk of
// the shared-memory view, by its first byte).
function applyPin() {
  pinned = null;
  $('pinned').hidden = true;
  const v = state.get('pin');
  if (!v || !fig) return;
  const f = v.split(',');
  let id = null;
  if (/^[A-Z]+\.0x[0-9A-F]+$/.test(v)) id = v;
  else if (f.length >= 3 && /^\d+$/.test(f[1])) id = [f[0], f[3] || 0, f[1], f[2], 0].join('.');
  else if (f.length >= 3) id = f[0] + '.' + (f[3] ? f[3] + '.' : '') + f[1] + '.' + f[2] + '.0';
  const i = id ? fig.ids.indexOf(id) : -1;
  if (i < 0) {
    showMessage('pin=' + v + ': no such element in this figure; legal: pin=OPERAND,ROW,COL[,BLOCK] in the matrix view, ' +
                'pin=OPERAND,vREG,lLANE[,wWAVE] in the registers view, pin=OPERAND.0xADDRESS (a chunk\'s first byte, ' +
                'four hex digits) in the shared-memory view');
    return;
  }
  pinned = i;
  $('pinned').hidden = false;
  $('pin-text').textContent = tipText(i);
}

// ---- controls -------------------------------------------------------------------------------
function syncControls() {
  $('arch').value = state.get('arch') || '';
  if (document.activeElement !== $('search')) $('search').value = state.get('i') || '';
  $('operand').value = state.get('operand') || 'A';
  $('view').value = state.get('view') || 'matrix';
  for (const el of document.querySelectorAll('[data-key]')) {
    const k = el.dataset.key;
    if (el.type === 'checkbox') el.checked = state.has(k);
    else el.value = state.get(k) || '';
  }
}
// One menu per modifier the instruction has, with its legal values (info --format json's
// modifiers_legal), each under the link key of the CLI option that sets it and spelled as that option
// takes it (the engine's menuOf: wgmma's smem_major is --major K|MN, its swizzle codes 0-3 are
// none..128B); a field no option sets (wgmma's smem_a) has no menu. Every element is built, never parsed.
function quiet(text) {
  const p = document.createElement('p');
  p.className = 'quiet';
  p.textContent = text;
  return p;
}
// The engine's message when the operand shown does not take `key`=`v` ('' when it does, or when the
// figure shows several operands).
function refusedFor(key, v) {
  const op = state.get('operand') || 'all';
  if (op === 'all' || op === 'ALL') return '';
  const saved = state.get(key);
  state.set(key, v);
  const r = cli(argsFor('which', ['--operand', op, '--lane', '0']), 'probe.txt');
  if (saved === undefined) state.delete(key); else state.set(key, saved);
  return r.rc === 0 ? '' : r.err.replace(/^lanescope-cli: (error: )?/, '').split('\n')[0];
}
function buildModifiers() {
  const box = $('mods');
  box.replaceChildren();
  const r = cli(argsFor('info', ['--format', 'json'], {noTile: true}), 'info.json');
  if (r.rc !== 0) { box.appendChild(quiet('—')); return; }
  const legal = JSON.parse(r.text).modifiers_legal || {};
  for (const [field, values] of Object.entries(legal)) {
    if (!Array.isArray(values) || values.length < 2) continue;
    const menu = JSON.parse(engine.menuOf(field, values.join(',')));
    if (!menu) continue;
    const name = menu.key;
    const label = document.createElement('label');
    label.textContent = name + ' ';
    const sel = document.createElement('select');
    sel.dataset.mod = name;
    sel.appendChild(new Option('default', ''));
    // A value the operand shown does not take (tcgen05's tmem_load: D only) is offered disabled, the
    // engine's reason as its title (`which` for one lane: the figure's check, cheaply).
    let why = '';
    for (const v of menu.values) {
      const o = new Option(v, v);
      const reason = refusedFor(name, v);
      if (reason) { o.disabled = true; o.title = why = reason; }
      sel.appendChild(o);
    }
    if (why && [...sel.options].slice(1).every((o) => o.disabled)) { sel.disabled = true; label.title = why; }
    const given = state.get(name);
    if (given !== undefined) {
      // The link's spelling of a listed value (any case) selects it; another value stays as typed.
      const same = menu.values.find((v) => v.toLowerCase() === given.toLowerCase());
      if (same === undefined) sel.appendChild(new Option(given, given));
      sel.value = same === undefined ? given : same;
    } else {
      sel.value = '';
    }
    sel.onchange = () => { setKey(name, sel.value); commit(); };
    label.appendChild(sel);
    box.appendChild(label);
  }
  if (!box.children.length) box.appendChild(quiet('none that move data'));
}
function searchHits(q) {
  const r = cli(['list', '--arch', state.get('arch') || 'gfx942', '--search', q || ' ', '--format', 'json'], 'hits.json');
  if (r.rc !== 0) return {err: r.err};
  const j = JSON.parse(r.text);
  return {hits: (j.targets[0] || {instructions: []}).instructions};
}
function showHits() {
  const q = $('search').value.trim();
  const ol = $('hits');
  const res = searchHits(q);
  const item = (cls, text) => {
    const li = document.createElement('li');
    li.className = cls;
    li.textContent = text;
    return li;
  };
  ol.replaceChildren();
  if (res.err) { ol.appendChild(item('err', res.err)); ol.hidden = false; return; }
  for (const h of res.hits.slice(0, 60)) {
    const li = document.createElement('li'), b = document.createElement('b'), span = document.createElement('span');
    b.textContent = h.instruction;
    span.textContent = `${h.shape} · ${h.types}${h.blocks > 1 ? ' · ' + h.blocks + ' blocks' : ''}`;
    li.append(b, ' ', span);
    li.onmousedown = (e) => { e.preventDefault(); pick(h.instruction); };
    ol.appendChild(li);
  }
  if (!res.hits.length) ol.appendChild(item('quiet', 'no instruction matches every word'));
  ol.hidden = false;
}
function pick(name) {
  // A new instruction: its modifiers and pin no longer apply.
  const keep = new Map();
  for (const [k, v] of state) if (['arch', 'operand', 'view'].includes(k) || TILE_KEYS.has(k)) keep.set(k, v);
  if (!keep.has('operand')) keep.set('operand', 'all');
  state = new Map([['arch', keep.get('arch')], ['i', name], ['operand', keep.get('operand')],
                   ...[...keep].filter(([k]) => !['arch', 'i', 'operand'].includes(k))]);
  $('hits').hidden = true;
  $('search').blur();
  commit();
}
// `info`'s text as the CLI prints it; its "fact  value" table set as two columns so it reads in a
// narrow panel (the words are the CLI's, only the line breaks differ).
function showFacts(text) {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => /^fact\s+value$/.test(l));
  if (head < 0) { $('facts-text').textContent = text; return; }
  const col = lines[head].indexOf('value');
  let end = head + 1;
  while (end < lines.length && lines[end].trim()) ++end;
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const table = el('table');
  for (const l of lines.slice(head + 1, end)) {
    const tr = el('tr');
    tr.append(el('th', l.slice(0, col).trim()), el('td', l.slice(col)));
    table.appendChild(tr);
  }
  $('facts-text').replaceChildren(el('p', lines.slice(0, head).join('\n').trim(), 'title'), table,
                                  el('pre', lines.slice(end).join('\n').trim()));
}

function download(label, kind, ext) {
  if (!state.get('arch') || !state.get('i')) return;
  const op = operandKey();
  const base = 'lanescope_' + state.get('i').replace(/[^A-Za-z0-9_.-]/g, '_') + '_' + op;
  let r;
  if (kind === 'figure') {
    if (ext === '.png') ensureFont();
    r = cli(argsFor('figure'), 'download' + ext);
  } else if (kind === 'header') {
    r = cli(argsFor('header'), 'download' + ext);
  } else {
    r = cli(argsFor('layout', ['--operand', op, '--format', kind]), 'download' + ext);
  }
  if (r.rc !== 0 || !r.bytes) { showMessage(label + ': ' + (r.err || 'failed')); return; }
  const url = URL.createObjectURL(new Blob([r.bytes], {type: 'application/octet-stream'}));
  const a = document.createElement('a');
  a.href = url;
  a.download = base + ext;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
function ensureFont() {
  try { engine.FS.stat(FONT); return; } catch (e) { /* fetched below */ }
  const x = new XMLHttpRequest();
  x.open('GET', 'DejaVuSans.ttf', false);  // once, for the first PNG
  x.overrideMimeType('text/plain; charset=x-user-defined');
  x.send();
  const s = x.responseText, b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; ++i) b[i] = s.charCodeAt(i) & 0xff;
  engine.FS.mkdirTree(FONT.slice(0, FONT.lastIndexOf('/')));
  engine.FS.writeFile(FONT, b);
}

function wire() {
  const list = cli(['list', '--format', 'json'], 'targets.json');
  if (list.rc === 0)
    $('arch-list').replaceChildren(...JSON.parse(list.text).targets.map((t) => {
      const o = document.createElement('option');
      o.value = t.target;
      o.textContent = t.arch;
      return o;
    }));
  $('arch').onchange = () => { setKey('arch', $('arch').value.trim()); commit(); };
  $('search').oninput = showHits;
  $('search').onfocus = () => { $('search').select(); showHits(); };
  $('search').onblur = () => { $('hits').hidden = true; syncControls(); };
  $('search').onkeydown = (e) => {
    if (e.key === 'Enter') {
      const first = $('hits').querySelector('li b');
      pick(first ? first.textContent : $('search').value.trim());
    } else if (e.key === 'Escape') $('search').blur();
  };
  // Another figure: the pin and the zoom of the last one no longer apply.
  $('operand').onchange = () => { setKey('operand', $('operand').value); state.delete('pin'); state.delete('at'); commit(); };
  $('view').onchange = () => {
    setKey('view', $('view').value === 'matrix' ? null : $('view').value);
    state.delete('pin');
    state.delete('at');
    commit();
  };
  for (const el of document.querySelectorAll('[data-key]'))
    el.onchange = () => { setKey(el.dataset.key, el.type === 'checkbox' ? (el.checked ? '' : null) : el.value.trim()); commit(); };
  const dl = $('downloads');
  for (const [label, kind, ext] of DOWNLOADS) {
    const b = document.createElement('button');
    b.textContent = label;
    b.dataset.download = label;
    b.onclick = () => download(label, kind, ext);
    dl.appendChild(b);
  }
  $('fit').onclick = () => { fitView(); drawHighlights(); state.delete('at'); history.replaceState(null, '', hashOf(state)); };
  $('one').onclick = () => { view = {s: 1, x: 8, y: 8}; applyView(); drawHighlights(); viewToLink(); };
  $('unpin').onclick = () => { state.delete('pin'); commit(); };

  const stage = $('stage');
  let drag = null;
  stage.addEventListener('wheel', (e) => {
    e.preventDefault();
    const st = stage.getBoundingClientRect();
    const f = Math.exp(-e.deltaY * 0.0015), s = Math.min(32, Math.max(0.02, view.s * f));
    const px = e.clientX - st.left, py = e.clientY - st.top;
    view.x = px - (px - view.x) * (s / view.s);
    view.y = py - (py - view.y) * (s / view.s);
    view.s = s;
    applyView();
    viewToLink();
  }, {passive: false});
  stage.addEventListener('mousedown', (e) => { drag = {x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false}; });
  window.addEventListener('mouseup', (e) => {
    if (drag && !drag.moved && fig && e.target.closest('#stage')) {
      const i = hit(...figurePoint(e));
      if (i !== null) {
        const k = pinKey(i);
        if (k) { setKey('pin', state.get('pin') === k ? null : k); history.replaceState(null, '', hashOf(state)); applyPin(); drawHighlights(); }
      }
    }
    drag = null;
  });
  stage.addEventListener('mousemove', (e) => {
    const t0 = performance.now();
    onMove(e);
    times.hover.push(performance.now() - t0);
  });
  const onMove = (e) => {
    shiftDown = e.shiftKey;
    if (drag && (drag.moved || Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3)) {
      drag.moved = true;
      view.x = drag.vx + e.clientX - drag.x;
      view.y = drag.vy + e.clientY - drag.y;
      applyView();
      viewToLink();
      hideTip();
      return;
    }
    const i = hit(...figurePoint(e));
    if (i !== hover || shiftDown !== drawnShift) { hover = i; drawnShift = shiftDown; drawHighlights(); }
    if (i === null) hideTip(); else showTip(i, e);
  };
  stage.addEventListener('mouseleave', () => { hover = null; hideTip(); drawHighlights(); });
  window.addEventListener('hashchange', () => { state = parseHash(location.hash); normalise(); safely(render); });
  window.addEventListener('resize', () => { if (!viewFromLink()) fitView(); schedulePaint(); });
}
// A link without an operand shows the GEMM (A, B and D).
function normalise() { if (state.get('i') && !state.has('operand')) state.set('operand', 'all'); }

// A fault of the page itself is said in the message box; the picker stays (never a blank page).
function safely(f) {
  try { f(); } catch (e) {
    showMessage('lanescope page: ' + e + ' (a fault of the page; the link is kept: correct it in the picker)');
    document.body.dataset.ready = '1';
  }
}

lanescopeEngine({
  printErr: (line) => stderr.push(line),
  print: (line) => stderr.push(line),
}).then((m) => {
  engine = m;
  engine.FS.mkdirTree('/out');
  learnOptions();
  wire();
  state = parseHash(location.hash);
  normalise();
  safely(render);
}, (e) => { document.body.textContent = 'lanescope: the engine did not load: ' + e; });

// For tests and the benchmark (scripts/web-bench.py): hit-test a figure point, read the state.
window.lanescopePage = {
  tileAt: (x, y) => hit(x, y),
  tileBox: (i) => Array.from(fig.boxes.subarray(4 * i, 4 * i + 4)),
  tileId: (i) => fig.ids[i],
  toScreen: (x, y) => { const st = $('stage').getBoundingClientRect(); return [st.left + view.x + x * view.s, st.top + view.y + y * view.s]; },
  figure: () => (fig ? {width: fig.width, height: fig.height, tiles: fig.ids.length,
                        labelled: fig.colors.filter((v, k) => k % 3 === 2 && v).length} : null),
  findTile: (id) => (fig ? fig.ids.indexOf(id) : -1),
  view: () => ({...view}),
  laneOf: (i) => { if (!fig || !fig.parsed[i]) return null; learnLanes(); return fig.parsed[i].lane || null; },
};
