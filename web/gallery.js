// The gallery (docs/web.md): one row per instruction of the catalog, for the first target of each
// family, as the engine lists it (`lanescope-cli list --format json`); filters by architecture,
// element type, shape and name, kept in the link (#arch=gfx942&type=f16&shape=32x32x8&q=mfma).
// Each row's preview is `figure --operand all` (A, B and D as a GEMM) drawn by the engine when
// the row scrolls into view and painted from its display list (paint.js); its link opens the
// page on that instruction, with the facts panel (`info`).
'use strict';

const $ = (id) => document.getElementById(id);
const PREVIEW = 80;  // CSS pixels a side at most
let engine = null;
let rows = [];

function run(args, out) {
  const rc = engine.run(args.concat(['-o', '/out/' + out]).join('\n'));
  let text = '';
  try { text = new TextDecoder().decode(engine.FS.readFile('/out/' + out)); engine.FS.unlink('/out/' + out); } catch (e) { text = ''; }
  return {rc, text};
}
// An element with text (never parsed as HTML: no value of the catalog or the link becomes markup).
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function parseHash() {
  const m = new Map();
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    try { m.set(decodeURIComponent(part.slice(0, eq)), decodeURIComponent(part.slice(eq + 1))); } catch (e) { /* not percent-encoding: that filter is left empty */ }
  }
  return m;
}
function filters() { return {q: $('q').value.trim().toLowerCase(), arch: $('g-arch').value, type: $('g-type').value, shape: $('g-shape').value}; }
function writeHash() {
  const f = filters();
  const h = '#' + Object.entries(f).filter(([, v]) => v).map(([k, v]) => k + '=' + encodeURIComponent(v)).join('&');
  if (location.hash !== h) history.replaceState(null, '', h === '#' ? location.pathname : h);
}
function applyFilters() {
  const f = filters();
  let shown = 0;
  for (const r of rows) {
    const ok = (!f.arch || r.arch === f.arch || r.target === f.arch) && (!f.type || r.types.includes(f.type)) &&
               (!f.shape || r.shape === f.shape) &&
               (!f.q || f.q.split(/\s+/).every((w) => r.instruction.toLowerCase().includes(w) || r.builtin.toLowerCase().includes(w)));
    r.tr.hidden = !ok;
    if (ok) ++shown;
  }
  $('count').textContent = shown + ' of ' + rows.length + ' instructions';
  writeHash();
}

// Previews: drawn by the engine one at a time as rows come into view.
const queue = [];
let drawing = false;
function drawNext() {
  if (drawing) return;
  const r = queue.shift();
  if (!r) return;
  drawing = true;
  setTimeout(() => {
    drawing = false;
    if (!r.tr.hidden && !r.drawn) preview(r);
    drawNext();
  }, 0);
}
function preview(r) {
  r.drawn = true;
  const rc = engine.draw(['figure', '--arch', r.target, '--instruction', r.instruction, '--operand', 'all', '-o', '-'].join('\n'));
  if (rc !== 0) { r.canvas.title = 'no preview'; return; }
  const fig = readFigure(engine);
  const s = Math.min(PREVIEW / fig.width, PREVIEW / fig.height);
  const W = Math.max(1, Math.round(fig.width * s)), H = Math.max(1, Math.round(fig.height * s));
  const dpr = window.devicePixelRatio || 1;
  r.canvas.width = W * dpr;
  r.canvas.height = H * dpr;
  r.canvas.style.width = W + 'px';
  r.canvas.style.height = H + 'px';
  paintFigure(r.canvas.getContext('2d'), fig, {x: 0, y: 0, s}, W, H, dpr);
  r.canvas.dataset.drawn = '1';
}

function build(list) {
  const body = document.querySelector('#index tbody');
  const seen = {arch: new Set(), type: new Set(), shape: new Set()};
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) { const r = e.target.row; if (!r.drawn) { queue.push(r); drawNext(); } }
  }, {rootMargin: '200px'});
  for (const t of list.targets) {
    seen.arch.add(t.arch);
    for (const ins of t.instructions) {
      const r = {arch: t.arch, target: t.target, instruction: ins.instruction, builtin: ins.builtin, shape: ins.shape,
                 types: ins.types.split(','), blocks: ins.blocks, family: ins.layout_family};
      r.types.forEach((x) => seen.type.add(x));
      seen.shape.add(ins.shape);
      const link = 'index.html#arch=' + encodeURIComponent(t.target) + '&i=' + encodeURIComponent(ins.instruction) + '&operand=all';
      const tr = el('tr');
      const pv = el('td', undefined, 'pv'), a = el('a'), canvas = el('canvas');
      a.href = link;
      canvas.width = canvas.height = 1;
      a.appendChild(canvas);
      pv.appendChild(a);
      const name = el('td'), na = el('a', ins.instruction, 'name');
      na.href = link;
      name.append(na, el('br'), el('span', ins.builtin, 'quiet'));
      const arch = el('td', t.arch);
      if (t.target !== t.arch) arch.append(' ', el('span', t.target, 'quiet'));
      tr.append(pv, name, arch, el('td', ins.layout_family), el('td', ins.shape), el('td', ins.types), el('td', ins.blocks));
      r.tr = tr;
      r.canvas = canvas;
      tr.row = r;
      tr.dataset.target = t.target;
      tr.dataset.instruction = ins.instruction;
      body.appendChild(tr);
      io.observe(tr);
      rows.push(r);
    }
  }
  const fill = (sel, values, cmp) => { for (const v of [...values].sort(cmp)) sel.appendChild(new Option(v, v)); };
  fill($('g-arch'), seen.arch);
  fill($('g-type'), seen.type);
  const dims = (s) => s.split('x').map(Number);
  fill($('g-shape'), seen.shape, (a, b) => { const x = dims(a), y = dims(b); return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
}

lanescopeEngine({printErr: () => {}, print: () => {}}).then((m) => {
  engine = m;
  engine.FS.mkdirTree('/out');
  const list = run(['list', '--format', 'json'], 'list.json');
  build(JSON.parse(list.text));
  const h = parseHash();
  $('q').value = h.get('q') || '';
  for (const [id, k] of [['g-arch', 'arch'], ['g-type', 'type'], ['g-shape', 'shape']]) {
    const v = h.get(k) || '';
    const sel = $(id);
    if (v && ![...sel.options].some((o) => o.value === v)) sel.appendChild(new Option(v, v));
    sel.value = v;
  }
  for (const id of ['q', 'g-arch', 'g-type', 'g-shape']) $(id).addEventListener(id === 'q' ? 'input' : 'change', applyFilters);
  applyFilters();
  document.body.dataset.ready = '1';
}).catch((e) => { document.body.textContent = 'lanescope: the engine did not load: ' + e; });

// For tests (tests/web/test_web.py).
window.lanescopeGallery = {
  shown: () => rows.filter((r) => !r.tr.hidden).map((r) => [r.target, r.instruction]),
  total: () => rows.length,
  drawn: () => rows.filter((r) => r.canvas.dataset.drawn).length,
};
