/**
 * The page map: a live map of each node's protected pages (invalid / read-only / read-write,
 * and which pages have a twin), read from the run's state by page-map.ts.
 *
 * Contract
 * - Shows only when the run's state has page regions (the family's protectedPagesPerCore) and
 *   some node has protected pages, whatever the chip or workload: the data decide. Once shown
 *   for a run it stays (scrubbing back before the runtime protected its range says so).
 * - One row per node that protects pages, one cell per page on a shared page axis (a canvas:
 *   one ImageData of a pixel per column, scaled; a column covering several pages shows their
 *   mean colour), a twin strip under each row, the counts (valid, read-only, read-write,
 *   twins) beside it, a legend with the totals, and a line naming the page under the pointer
 *   (node, page, address, state). A node whose range exceeds the map says "not visible". The
 *   axis shows the active pages (page-map.ts activePages) or, with the toggle, the whole range.
 * - Follows the telemetry the other views read: live, or the scrubbed snapshot (the recorder
 *   copies the page regions). Redraws only when the levels changed (page-map.ts hash); while a
 *   run goes it reads the state at most every READ_MS, and spaces reads so that reading and
 *   painting take at most MAP_SHARE of the wall time (a big map refreshes less often).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { palette } from '../lib/theme';
import { frameLoop } from '../sim/frame-loop';
import type { LiveRun } from '../sim/live-run';
import { DataTable, type ChartTable } from './CanvasCard';
import { COUNT, PAGE_COLOURS, PageMapData, rgb } from './page-map';

/** Least wall time between two reads of the page levels while the run goes, ms. */
const READ_MS = 50;
/** Most of the main thread's time the map's reads and paints may take while the run goes (host timing: it decides only how often the map refreshes). */
const MAP_SHARE = 0.05;
const LABEL_W = 64;
const COUNTS_W = 250;
const TOP = 18;

function rowPx(nodes: number): number {
  return nodes <= 64 ? 16 : nodes <= 128 ? 7 : 3;
}

function hexRgb(c: string): number[] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : [255, 255, 255];
}

export function PageMap({ run }: { run: LiveRun }) {
  const data = useMemo(() => new PageMapData(run.sim.views.layout), [run]);
  const [shown, setShown] = useState(false);
  const [rows, setRows] = useState(0);
  const [whole, setWhole] = useState(false);
  const wholeRef = useRef(whole);
  wholeRef.current = whole;
  const runRef = useRef(run);
  runRef.current = run;
  const canvas = useRef<HTMLCanvasElement>(null);
  const totals = useRef<HTMLParagraphElement>(null);
  const axisNote = useRef<HTMLSpanElement>(null);
  const hoverLine = useRef<HTMLParagraphElement>(null);
  const section = useRef<HTMLElement>(null);
  const hover = useRef({ row: -1, page: -1 });
  const hoverVersion = useRef(0);
  const nodes = data.nodes;
  const rh = rowPx(Math.max(1, rows));
  const showCounts = rh >= 10;
  const cssH = TOP + Math.max(1, rows) * rh + 4;
  const geometry = (w: number) => {
    const gridW = Math.max(16, w - LABEL_W - (showCounts ? COUNTS_W : 8));
    const axis = Math.max(1, wholeRef.current ? data.maxPages : data.activePages);
    return { gridW, axis, pw: gridW / axis };
  };

  useEffect(() => {
    let lastT: unknown = null;
    let lastV = -1;
    let readAt = -Infinity;
    let gapMs = READ_MS;
    let drawnData = -1;
    let drawnHover = -1;
    let drawnWidth = -1;
    let drawnWhole = false;
    let image: ImageData | null = null;
    let off: HTMLCanvasElement | null = null;
    return frameLoop.add((now) => {
      const r = runRef.current;
      if (r.status === 'ready') return;
      const t = r.telemetry;
      const v = t.views;
      const fresh = t !== lastT;
      // read when the telemetry moved (while running at most every READ_MS), at once when it was swapped (scrubbing)
      const t0 = performance.now();
      let didRead = false;
      if (fresh || (t.version !== lastV && (r.status !== 'running' || now - readAt >= gapMs))) {
        didRead = true;
        lastT = t;
        lastV = t.version;
        readAt = now;
        data.read(v);
        if (data.any && !shown) setShown(true);
        if (data.rows !== rows) setRows(data.rows);
        // the totals as text and attributes (the e2e tests read them)
        const ro = data.total(COUNT.readOnly);
        const rw = data.total(COUNT.readWrite);
        const inv = data.total(COUNT.invalid);
        const tw = data.total(COUNT.twins);
        let protecting = 0;
        for (let n = 0; n < nodes; n++) if (data.pages[n]! > 0) protecting++;
        const text = protecting
          ? `${protecting} of ${nodes} nodes protect pages · valid ${ro + rw} · read-only ${ro} · read-write ${rw} · invalid ${inv} · twins ${tw}`
          : 'no node has protected pages at this time';
        if (totals.current && totals.current.textContent !== text) totals.current.textContent = text;
        const s = section.current;
        if (s) {
          s.dataset.valid = String(ro + rw);
          s.dataset.readOnly = String(ro);
          s.dataset.readWrite = String(rw);
          s.dataset.invalid = String(inv);
          s.dataset.twins = String(tw);
        }
      }
      const c = canvas.current;
      if (!c || data.rows === 0) return;
      const w = c.clientWidth;
      if (data.version === drawnData && hoverVersion.current === drawnHover && w === drawnWidth && wholeRef.current === drawnWhole) return;
      drawnData = data.version;
      drawnHover = hoverVersion.current;
      drawnWidth = w;
      drawnWhole = wholeRef.current;
      const dpr = window.devicePixelRatio || 1;
      const { gridW, axis, pw } = geometry(w);
      const note = axis < data.maxPages ? `· pages 0–${axis - 1} of ${data.maxPages} (beyond them each node's pages are all alike; the counts include them)` : `· all ${data.maxPages} pages`;
      if (axisNote.current && axisNote.current.textContent !== note) axisNote.current.textContent = note;
      const rowsNow = data.rows;
      const rhNow = rowPx(rowsNow);
      const hNow = TOP + rowsNow * rhNow + 4;
      const columns = Math.max(1, Math.min(axis, Math.floor(gridW * dpr)));
      // the geometry, for tests that point at a page
      c.dataset.gridX = String(LABEL_W);
      c.dataset.gridW = String(gridW);
      c.dataset.top = String(TOP);
      c.dataset.rowPx = String(rhNow);
      c.dataset.columns = String(columns);
      c.dataset.axisPages = String(axis);
      if (!image || image.width !== columns || image.height !== rowsNow * 2) {
        image = new ImageData(columns, rowsNow * 2);
        off = document.createElement('canvas');
        off.width = columns;
        off.height = rowsNow * 2;
      }
      data.paint(v, columns, axis, image.data, hexRgb(palette.canvas));
      off!.getContext('2d')!.putImageData(image, 0, 0);
      if (c.width !== Math.round(w * dpr) || c.height !== Math.round(hNow * dpr)) {
        c.width = Math.round(w * dpr);
        c.height = Math.round(hNow * dpr);
      }
      const ctx = c.getContext('2d', { alpha: false })!;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = palette.canvas;
      ctx.fillRect(0, 0, w, hNow);
      ctx.imageSmoothingEnabled = false;
      ctx.font = `${rhNow >= 14 ? 11 : 10}px system-ui, sans-serif`;
      ctx.textBaseline = 'middle';
      ctx.fillStyle = palette.muted;
      ctx.fillText('page 0', LABEL_W, TOP / 2);
      const axisText = `page ${axis - 1}`;
      ctx.fillText(axisText, LABEL_W + gridW - ctx.measureText(axisText).width, TOP / 2);
      const levelH = Math.max(1, Math.round(rhNow * 0.62));
      const twinH = Math.max(1, rhNow - levelH - (rhNow >= 6 ? 2 : 0));
      const h = hover.current;
      for (let row = 0; row < rowsNow; row++) {
        const n = data.rowNode[row]!;
        const y = TOP + row * rhNow;
        if (rhNow >= 7) {
          ctx.fillStyle = row === h.row ? palette.ink : palette.muted;
          ctx.fillText(`node ${n}`, 2, y + rhNow / 2);
        }
        const note = data.rowNote(n);
        if (note) {
          if (rhNow >= 7) {
            ctx.fillStyle = palette.muted;
            ctx.fillText(note, LABEL_W + 4, y + rhNow / 2);
          }
          continue;
        }
        ctx.drawImage(off!, 0, 2 * row, columns, 1, LABEL_W, y, gridW, levelH);
        ctx.drawImage(off!, 0, 2 * row + 1, columns, 1, LABEL_W, y + levelH, gridW, twinH);
        // page separators where a page is wide enough to see them
        if (pw >= 6) {
          ctx.fillStyle = palette.canvas;
          for (let p = 1, end = Math.min(axis, data.pages[n]!); p < end; p++) ctx.fillRect(LABEL_W + p * pw - 0.5, y, 1, levelH + twinH);
        }
        if (showCounts) {
          ctx.fillStyle = palette.ink;
          ctx.fillText(`${data.valid(n)} valid · ${data.count(n, COUNT.readOnly)} ro · ${data.count(n, COUNT.readWrite)} rw · ${data.count(n, COUNT.twins)} twins`, LABEL_W + gridW + 8, y + rhNow / 2);
        }
      }
      const hn = h.row >= 0 && h.row < rowsNow ? data.rowNode[h.row]! : -1;
      if (hn >= 0 && h.page >= 0 && h.page < axis && data.visible[hn]) {
        ctx.strokeStyle = palette.ink;
        ctx.lineWidth = 1;
        ctx.strokeRect(LABEL_W + h.page * pw - 0.5, TOP + h.row * rhNow - 0.5, Math.max(1, pw) + 1, rhNow);
      }
      const line = hn >= 0 ? (data.describe(v, hn, h.page) ?? (data.rowNote(hn) ? `node ${hn}: ${data.rowNote(hn)}` : '')) : '';
      const el = hoverLine.current;
      if (el && el.textContent !== (line || '\u00a0')) el.textContent = line || '\u00a0';
      if (didRead) gapMs = Math.max(READ_MS, (performance.now() - t0) / MAP_SHARE);
    }, 2);
  }, [data, nodes, showCounts, shown, rows]);

  const onMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const { gridW, axis } = geometry(e.currentTarget.clientWidth);
    const row = Math.floor((y - TOP) / rh);
    const page = x >= LABEL_W && x < LABEL_W + gridW ? Math.floor(((x - LABEL_W) / gridW) * axis) : -1;
    const next = row >= 0 && row < data.rows ? { row, page } : { row: -1, page: -1 };
    if (next.row !== hover.current.row || next.page !== hover.current.page) {
      hover.current = next;
      hoverVersion.current++;
    }
  };
  const onLeave = () => {
    hover.current = { row: -1, page: -1 };
    hoverVersion.current++;
  };

  const table: ChartTable = {
    caption: 'Protected pages per node',
    columns: ['node', 'range', 'pages', 'valid', 'read-only', 'read-write', 'invalid', 'twins'],
    rows: () =>
      Array.from({ length: nodes }, (_, n) => n)
        .filter((n) => data.pages[n]! > 0)
        .map((n) => [
          `node ${n}`,
          `0x${data.base[n]!.toString(16)} + ${data.pages[n]} x ${data.pageBytes[n]} B`,
          String(data.pages[n]),
          ...(data.visible[n] ? [data.valid(n), data.count(n, COUNT.readOnly), data.count(n, COUNT.readWrite), data.count(n, COUNT.invalid), data.count(n, COUNT.twins)].map(String) : ['not visible', '', '', '', '']),
        ]),
  };

  if (!shown) return null;
  return (
    <section ref={section} className="card page-map" data-testid="page-map">
      <header className="card-head">
        <div>
          <h3>Pages</h3>
          <p className="sub">Each node&apos;s protected pages as its runtime left them: a page fault makes a page valid, a write notice invalidates it, a twin is kept until the diff is made.</p>
        </div>
        <div className="card-tools">
          <button type="button" className="small" onClick={() => setWhole((x) => !x)} aria-pressed={whole} data-testid="pages-whole" title="Show every page of the protected ranges, or only the active part">
            {whole ? 'active pages' : 'whole range'}
          </button>
        </div>
      </header>
      <p className="legend" data-testid="pages-legend">
        {(
          [
            ['invalid', PAGE_COLOURS.invalid],
            ['read-only', PAGE_COLOURS.readOnly],
            ['read-write', PAGE_COLOURS.readWrite],
            ['twin (strip under the page)', PAGE_COLOURS.twin],
          ] as const
        ).map(([label, c]) => (
          <span key={label} className="legend-item" style={{ marginRight: 12 }}>
            <span aria-hidden="true" style={{ display: 'inline-block', width: 10, height: 10, marginRight: 4, background: rgb(c) }} />
            {label}
          </span>
        ))}
        <span className="sub" ref={axisNote} data-testid="pages-axis" />
      </p>
      <p ref={totals} className="sub" data-testid="pages-totals">
        –
      </p>
      <div className="canvas-wrap" style={{ height: cssH }}>
        <canvas
          ref={canvas}
          role="img"
          aria-label="Page map: one row per node, one cell per protected page (the numbers are in the data table below)"
          data-testid="canvas-pages"
          style={{ width: '100%', height: cssH, display: 'block' }}
          onPointerMove={onMove}
          onPointerLeave={onLeave}
        />
      </div>
      <p ref={hoverLine} className="sub" data-testid="pages-hover">
        {'\u00a0'}
      </p>
      <DataTable id="pages" table={table} version={() => data.version} />
    </section>
  );
}
