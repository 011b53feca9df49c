/**
 * The VM's views (issue 15 item 5): the heap map, the baton's path over the mesh and the
 * stalls by VM routine of a finished `vm` run, drawn from the results (vm-views.ts shapes them).
 *
 * Contract
 * - Shows only when the results carry `workload.vm` of the VmExtra shape (vmExtraOf): the data
 *   decide, not the workload's name. Draws nothing while a run goes (the VM reports its heaps,
 *   baton edges and routines only at the end).
 * - Heap map: one column per core's heap, a bar for its read-write heap (the snapshot's bytes
 *   by role, then the bytes the run allocated) and one for its read-mostly slice (dashed
 *   outline: user-managed pages); with replication 'global' one more column for the single
 *   read-mostly heap. Every bar shares one byte scale. Each store-barrier move is an arrow from
 *   the read-mostly region the object left to the read-write heap it went to, labelled with its
 *   class. Under it, one cell per core with its counts (data-testid vm-heap-core-<k>) and the
 *   moves in words (vm-heap-move-<i>).
 * - Object map (objectMap): each heap object by object, one column per core, its read-write
 *   heap's strip of cells above and its read-mostly slice's below (the global read-mostly heap
 *   its own column), drawn in one canvas pass (runs of equal cells as one rectangle), coloured
 *   by class (the OBJECT_CLASS_COLOURS classes with most cells, the rest as one colour; an HTML
 *   legend of the classes present) or by regime (homed read-write, user-managed read-mostly),
 *   vacated and free cells in their own colours. A time slider (and a play button) replays the
 *   store-barrier moves in simulated-time order: at step k the first k moves are drawn as arrows
 *   from the cell the object left to the cell it reached; a later move's object is still shown
 *   at its old cell. Hover or tap on a cell: a tooltip (React text) with its core, heap, class
 *   and byte range. A malformed heapMap shows its message instead of the map.
 * - Baton path: the cores at their tile positions from the chip view's floorplan (chipGeometry:
 *   the family's FloorplanSpec, no family constants here), an arrow per (from, to) whose width
 *   grows with its migrations, and the totals: migrations, per 1000 bytecodes (the row's
 *   field), per simulated second (migrations / timeNs).
 * - Stalls by routine: horizontal bars of the cycles per VM routine, largest first, with the
 *   share of the total, and the run's timeNs; each bar stacked by cause (executed work, TLB
 *   refills, remote-home and the engine's stall causes, as the results split it; one colour
 *   per cause, in the results' order) when the results carry the split.
 * - Routines per core: one horizontal bar per core (readable at 56 cores: thin rows, every
 *   labelled with its core and total), stacked by routine (the ROUTINE_COLOURS - 1 largest in
 *   colour, the rest as "other"), on one cycle scale; its DataTable holds every routine.
 * - Each view has its numbers in a DataTable, SVG/PNG export (CanvasCard) and takes its colours
 *   from the theme's palette at draw time (light, dark, high contrast).
 */
import { useEffect, useMemo, useState } from 'react';
import { scaleLinear } from 'd3';
import { coreHops, coreTile, tileAt, tileX, tileY, type ResolvedChip, type Results, type Topology } from '@manycore/engine';
import { chipGeometry, type ChipGeometry, type Rect } from '../charts/chip-draw';
import { ScaledPainter, type Painter } from '../charts/painter';
import { TICK } from '../charts/draw';
import { integer, num, pct, simTime, size } from '../lib/format';
import { palette } from '../lib/theme';
import { CanvasCard, type ChartTable } from './CanvasCard';
import {
  CELL_CLASS0,
  CELL_FREE,
  CELL_VACATED,
  ROLES,
  ROUTINE_TITLES,
  batonPath,
  describeCell,
  movesAt,
  objectMap,
  describeCause,
  describeMove,
  heapMap,
  perCoreRoutines,
  routineBars,
  vmExtraOf,
  vmRowOf,
  type BatonPathData,
  type CoreRoutines,
  type HeapMapData,
  type HeapRegionName,
  type ObjectMapData,
  type ObjectMove,
  type Role,
  type RoutineBar,
} from './vm-views';

/** Colour of each role, of the bytes allocated during the run and of a store-barrier move (from the palette in force). */
function roleColour(r: Role | 'allocated'): string {
  const i = r === 'allocated' ? 7 : ROLES.indexOf(r);
  return palette.category[i % palette.category.length]!;
}
const moveColour = () => palette.select;

/** Most move arrows labelled with their class on the heap map (beyond it the list below names them). */
const MAX_MOVE_LABELS = 12;
/** Most moves listed in words under the heap map. */
const MAX_MOVES_LISTED = 24;

// ------------------------------------------------------------------ heap map drawing

interface HeapLayout {
  box: { x: number; y: number; w: number; h: number };
  legendH: number;
  colW: number;
  barW: number;
  /** x of the left edge of column i's read-write bar and read-mostly bar (-1 when the column has none) */
  rwX(i: number): number;
  rmX(i: number): number;
  y(bytes: number): number;
  ticks: number[];
}

function heapLayout(p: Painter, d: HeapMapData): HeapLayout {
  const nCols = d.columns.length + (d.global ? 1 : 0);
  const items = legendItems(d);
  const perLine = Math.max(1, Math.floor((p.width - 70) / 170));
  const legendH = 18 * Math.ceil(items.length / perLine) + 8;
  const arrowRoom = d.moves.length ? 44 : 8;
  const box = { x: 64, y: 6 + legendH + arrowRoom, w: p.width - 64 - 14, h: 0 };
  box.h = Math.max(40, p.height - box.y - 40);
  const colW = box.w / Math.max(1, nCols);
  const bars = d.global ? 1 : 2; // bars per core column
  const barW = Math.max(1, Math.min(40, (colW - (colW > 8 ? 4 : 1)) / bars));
  // ticks at round numbers of the unit the axis reads in (B or KB of 1024 B)
  const unit = d.maxBytes >= 2048 ? 1024 : 1;
  const u = scaleLinear()
    .domain([0, Math.max(1, d.maxBytes / unit)])
    .nice(4);
  const [, top] = u.domain() as [number, number];
  const y = scaleLinear()
    .domain([0, top * unit])
    .range([box.y + box.h, box.y]);
  const left = (i: number) => box.x + i * colW + (colW - bars * barW) / 2;
  return {
    box,
    legendH,
    colW,
    barW,
    rwX: (i) => (i < d.columns.length ? left(i) : -1),
    rmX: (i) => (d.global ? (i === -1 ? box.x + d.columns.length * colW + (colW - barW) / 2 : -1) : i >= 0 && i < d.columns.length ? left(i) + barW : -1),
    y: (b) => y(b),
    ticks: u.ticks(4).map((t) => t * unit),
  };
}

function legendItems(d: HeapMapData): { label: string; colour: () => string; dashed?: boolean; arrow?: boolean }[] {
  const out: { label: string; colour: () => string; dashed?: boolean; arrow?: boolean }[] = ROLES.map((r) => ({ label: r, colour: () => roleColour(r) }));
  out.push({ label: 'allocated in the run', colour: () => roleColour('allocated') });
  if (d.replication !== 'none') out.push({ label: 'read-mostly (dashed)', colour: () => palette.canvas, dashed: true });
  if (d.moves.length) out.push({ label: 'store-barrier move', colour: moveColour, arrow: true });
  return out;
}

function stack(p: Painter, x: number, w: number, L: HeapLayout, parts: [number, string][], dashed: boolean): number {
  let acc = 0;
  for (const [bytes, colour] of parts) {
    if (bytes <= 0) continue;
    const y0 = L.y(acc);
    const y1 = L.y(acc + bytes);
    p.rect(x, y1, w, Math.max(0.5, y0 - y1), { fill: colour });
    acc += bytes;
  }
  if (acc > 0 && w >= 3) p.rect(x, L.y(acc), w, L.y(0) - L.y(acc), { stroke: palette.ink, lineWidth: 1, ...(dashed ? { dash: [3, 2] } : {}) });
  return acc;
}

function arrowHead(p: Painter, fx: number, fy: number, tx: number, ty: number, colour: string, s = 8): void {
  const a = Math.atan2(ty - fy, tx - fx);
  p.path(
    (c) => {
      c.moveTo(tx, ty);
      c.lineTo(tx - Math.cos(a - 0.45) * s, ty - Math.sin(a - 0.45) * s);
      c.lineTo(tx - Math.cos(a + 0.45) * s, ty - Math.sin(a + 0.45) * s);
      c.closePath();
    },
    { fill: colour },
  );
}

export function drawHeapMap(p: Painter, d: HeapMapData): void {
  const L = heapLayout(p, d);
  const { box } = L;
  // legend
  let lx = box.x;
  let ly = 12;
  for (const it of legendItems(d)) {
    const w = 22 + p.measure(it.label, TICK) + 16;
    if (lx + w > box.x + box.w && lx > box.x) {
      lx = box.x;
      ly += 18;
    }
    if (it.arrow) {
      p.line(lx, ly, lx + 12, ly, { stroke: it.colour(), lineWidth: 2 });
      arrowHead(p, lx, ly, lx + 15, ly, it.colour(), 6);
    } else p.rect(lx, ly - 6, 15, 12, { fill: it.colour(), stroke: palette.ink, lineWidth: 1, ...(it.dashed ? { dash: [3, 2] } : {}) });
    p.text(lx + 21, ly, it.label, { size: TICK, color: palette.ink, baseline: 'middle' });
    lx += w;
  }
  // axis
  for (const t of L.ticks) {
    p.line(box.x, L.y(t), box.x + box.w, L.y(t), { stroke: palette.grid, lineWidth: 1 });
    p.text(box.x - 6, L.y(t), size(t), { size: 12, color: palette.muted, anchor: 'end', baseline: 'middle' });
  }
  p.line(box.x, box.y + box.h, box.x + box.w, box.y + box.h, { stroke: palette.muted, lineWidth: 1 });
  // bars
  const regimeLabels = L.barW >= 16;
  d.columns.forEach((c, i) => {
    const x = L.rwX(i);
    stack(p, x, L.barW, L, [...ROLES.map((r) => [c.readWrite[r], roleColour(r)] as [number, string]), [c.allocatedBytes, roleColour('allocated')]], false);
    if (!d.global) stack(p, L.rmX(i), L.barW, L, ROLES.map((r) => [c.readMostly[r], roleColour(r)] as [number, string]), true);
    if (regimeLabels) {
      p.text(x + L.barW / 2, box.y + box.h + 4, 'rw', { size: 11, color: palette.muted, anchor: 'middle', baseline: 'top' });
      if (!d.global) p.text(L.rmX(i) + L.barW / 2, box.y + box.h + 4, 'rm', { size: 11, color: palette.muted, anchor: 'middle', baseline: 'top' });
    }
  });
  if (d.global) {
    const gx = L.rmX(-1);
    stack(p, gx, L.barW, L, ROLES.map((r) => [d.global!.readMostly[r], roleColour(r)] as [number, string]), true);
  }
  // column labels (every k-th when narrow)
  const every = Math.max(1, Math.ceil(44 / L.colW));
  const labelY = box.y + box.h + (regimeLabels ? 18 : 6);
  d.columns.forEach((c, i) => {
    if (i % every !== 0 && i !== d.columns.length - 1) return;
    p.text(box.x + i * L.colW + L.colW / 2, labelY, L.colW >= 44 ? `core ${c.core}` : String(c.core), { size: 12, color: palette.ink, anchor: 'middle', baseline: 'top' });
  });
  if (d.global) p.text(box.x + d.columns.length * L.colW + L.colW / 2, labelY, L.colW >= 60 ? 'global rm' : 'rm', { size: 12, color: palette.ink, anchor: 'middle', baseline: 'top' });
  p.text(14, box.y + box.h / 2, 'bytes', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
  // store-barrier moves: from the top of the read-mostly region the object left to the top of the read-write heap it went to
  const col = moveColour();
  d.moves.forEach((m, k) => {
    const fromX = m.fromColumn < 0 ? L.rmX(-1) : L.rmX(m.fromColumn);
    const toX = L.rwX(m.toColumn);
    if (fromX < 0 || toX < 0) return;
    const fromBytes = m.fromColumn < 0 ? d.global!.bytes : d.columns[m.fromColumn]!.readMostlyBytes;
    const to = d.columns[m.toColumn]!;
    const fx = fromX + L.barW / 2;
    const fy = L.y(fromBytes) - 2;
    const tx = toX + L.barW / 2;
    const ty = L.y(to.readWriteBytes) - 3;
    const peak = box.y - 14 - (k % 3) * 8;
    const cx = (fx + tx) / 2;
    p.circle(fx, fy, 3.5, { fill: col });
    p.path(
      (c) => {
        c.moveTo(fx, fy);
        c.quadraticCurveTo(cx, 2 * peak - (fy + ty) / 2, tx, ty);
      },
      { stroke: col, lineWidth: 2 },
    );
    arrowHead(p, cx, peak, tx, ty, col);
    if (k < MAX_MOVE_LABELS) p.text(cx, peak - 4, m.className, { size: 12, weight: 'bold', color: col, anchor: 'middle', baseline: 'bottom' });
  });
}

// ------------------------------------------------------------------ object map drawing

/** Classes drawn in a colour of their own on the object map (the rest share one). */
const OBJECT_CLASS_COLOURS = 7;
/** The category colours the classes take (the palette's 7th, black or white, is the vacated cells' ink). */
const CLASS_SLOTS = [0, 1, 2, 3, 4, 5, 7];
export type ColourBy = 'class' | 'regime';

interface ObjectLayout {
  x0: number;
  colW: number;
  stripW: number;
  rwTop: number;
  rmTop: number;
  cellPx: number;
  cells: number;
  height: number;
}

/** Pixels per cell (vertical), the two bands' tops and the column width for a painter `width` wide. */
export function objectLayout(width: number, d: Pick<ObjectMapData, 'columns' | 'cellsPerHeap'>): ObjectLayout {
  const cellPx = Math.max(1, Math.min(2, 256 / d.cellsPerHeap));
  const band = d.cellsPerHeap * cellPx;
  const x0 = 64;
  const colW = Math.max(2, (width - x0 - 10) / Math.max(1, d.columns.length));
  const stripW = Math.max(1, Math.min(28, colW - (colW > 6 ? 3 : 1)));
  const rwTop = 20;
  const rmTop = rwTop + band + 34;
  return { x0, colW, stripW, rwTop, rmTop, cellPx, cells: d.cellsPerHeap, height: rmTop + band + 26 };
}

/** The cell under (x, y), or null. */
export function objectCellAt(L: ObjectLayout, d: ObjectMapData, x: number, y: number): { column: number; region: HeapRegionName; cell: number } | null {
  const column = Math.floor((x - L.x0) / L.colW);
  if (column < 0 || column >= d.columns.length) return null;
  const left = L.x0 + column * L.colW + (L.colW - L.stripW) / 2;
  if (x < left - 2 || x > left + L.stripW + 2) return null;
  for (const region of ['readWrite', 'readMostly'] as const) {
    const top = region === 'readWrite' ? L.rwTop : L.rmTop;
    const cell = Math.floor((y - top) / L.cellPx);
    if (cell >= 0 && cell < L.cells && d.columns[column]![region]) return { column, region, cell };
  }
  return null;
}

/** Colour of each class code shown in its own colour (the classes with most cells), by code. */
function classColours(d: ObjectMapData): Map<number, string> {
  const m = new Map<number, string>();
  d.present.slice(0, OBJECT_CLASS_COLOURS).forEach((c, i) => m.set(c.code, palette.category[CLASS_SLOTS[i]! % palette.category.length]!));
  return m;
}

function cellColour(code: number, region: HeapRegionName, by: ColourBy, colours: Map<number, string>): string | null {
  if (code === CELL_FREE) return null;
  if (code === CELL_VACATED) return palette.ink;
  if (by === 'regime') return region === 'readWrite' ? palette.category[0]! : palette.category[2]!;
  return colours.get(code) ?? palette.muted;
}

export function drawObjectMap(p: Painter, d: ObjectMapData, by: ColourBy, step: number): void {
  const L = objectLayout(p.width, d);
  const colours = classColours(d);
  const shown = movesAt(d, step);
  const pending = d.moves.slice(shown.length);
  // a later move's object is still at its old cell: its class (or read-mostly) colour there
  const codeOf = new Map(d.classes.map((n, i) => [n, CELL_CLASS0 + i]));
  const back = new Map<string, number>();
  for (const m of pending) back.set(`${m.fromColumn}:${m.fromCell}`, codeOf.get(m.className) ?? CELL_CLASS0);
  const band = L.cells * L.cellPx;
  p.text(8, L.rwTop + band / 2, 'read-write', { size: 12, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
  p.text(24, L.rwTop + band / 2, `${size(d.cellBytes.readWrite)}/cell`, { size: 11, color: palette.muted, anchor: 'middle', baseline: 'middle', rotate: -90 });
  p.text(8, L.rmTop + band / 2, 'read-mostly', { size: 12, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
  if (d.cellBytes.readMostly) p.text(24, L.rmTop + band / 2, `${size(d.cellBytes.readMostly)}/cell`, { size: 11, color: palette.muted, anchor: 'middle', baseline: 'middle', rotate: -90 });
  const every = Math.max(1, Math.ceil(36 / L.colW));
  d.columns.forEach((col, i) => {
    const x = L.x0 + i * L.colW + (L.colW - L.stripW) / 2;
    for (const region of ['readWrite', 'readMostly'] as const) {
      const h = col[region];
      const top = region === 'readWrite' ? L.rwTop : L.rmTop;
      if (!h) continue;
      p.rect(x, top, L.stripW, band, { fill: palette.idleCell });
      // runs of cells of one colour: one rectangle each
      let runStart = 0;
      let runColour: string | null = null;
      const flush = (end: number) => {
        if (runColour !== null) p.rect(x, top + runStart * L.cellPx, L.stripW, (end - runStart) * L.cellPx, { fill: runColour });
      };
      for (let c = 0; c <= h.cells.length; c++) {
        let colour: string | null = null;
        if (c < h.cells.length) {
          const code = region === 'readMostly' ? (back.get(`${i}:${c}`) ?? h.cells[c]!) : h.cells[c]!;
          colour = cellColour(code, region, by, colours);
        }
        if (c === h.cells.length || colour !== runColour) {
          flush(c);
          runStart = c;
          runColour = colour;
        }
      }
      if (L.stripW >= 3) p.rect(x, top, L.stripW, band, { stroke: palette.tileLine, lineWidth: 1, ...(region === 'readMostly' ? { dash: [3, 2] } : {}) });
    }
    const last = d.columns.length - 1;
    if ((i % every === 0 && last - i >= every) || i === last)
      p.text(x + L.stripW / 2, L.rmTop + band + 6, col.core < 0 ? 'global' : L.colW >= 40 ? `core ${col.core}` : String(col.core), { size: 12, color: palette.ink, anchor: 'middle', baseline: 'top' });
  });
  // the moves made by this step: arrows from the cell left to the cell reached, rings at both ends
  const col = moveColour();
  const centreX = (c: number) => L.x0 + c * L.colW + L.colW / 2;
  for (const m of shown) {
    const fx = centreX(m.fromColumn);
    const fy = L.rmTop + (m.fromCell + 0.5) * L.cellPx;
    const tx = centreX(m.toColumn);
    const ty = L.rwTop + (m.toCell + 0.5) * L.cellPx;
    const bend = m.fromColumn === m.toColumn ? L.colW / 2 + 18 : 0;
    const cx = (fx + tx) / 2 + bend;
    const cy = (fy + ty) / 2;
    for (const [w, c] of [
      [5, palette.canvas],
      [2, col],
    ] as const)
      p.path(
        (k) => {
          k.moveTo(fx, fy);
          k.quadraticCurveTo(cx, cy, tx, ty + 4);
        },
        { stroke: c, lineWidth: w },
      );
    arrowHead(p, cx, cy, tx, ty + 3, col, 9);
    p.circle(fx, fy, 4, { stroke: col, lineWidth: 2 });
    p.rect(tx - L.stripW / 2 - 2, ty - 3, L.stripW + 4, 6, { stroke: col, lineWidth: 2 });
  }
}

/** The object map card: the colour toggle, the time slider, the canvas, the hover tooltip, the legend. */
function ObjectMapCard({ d }: { d: ObjectMapData }) {
  const [by, setBy] = useState<ColourBy>('class');
  const [step, setStep] = useState(d.moves.length);
  const [playing, setPlaying] = useState(false);
  const [hover, setHover] = useState<{ x: number; y: number; column: number; region: HeapRegionName; cell: number } | null>(null);
  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => {
      setStep((s) => {
        if (s >= d.moves.length) {
          setPlaying(false);
          return s;
        }
        return s + 1;
      });
    }, 700);
    return () => clearInterval(t);
  }, [playing, d.moves.length]);
  const shown = movesAt(d, step);
  const last: ObjectMove | undefined = shown[shown.length - 1];
  const colours = classColours(d);
  const info = hover ? describeCell(d, hover.column, hover.region, hover.cell) : null;
  const legend =
    by === 'class'
      ? [
          ...d.present.slice(0, OBJECT_CLASS_COLOURS).map((c) => ({ label: `${c.name} (${c.cells} cells)`, colour: colours.get(c.code)! })),
          ...(d.present.length > OBJECT_CLASS_COLOURS ? [{ label: `other classes: ${d.present.slice(OBJECT_CLASS_COLOURS).map((c) => c.name).join(', ')}`, colour: palette.muted }] : []),
        ]
      : [
          { label: 'read-write heap, homed on its core', colour: palette.category[0]! },
          { label: 'read-mostly, user-managed (replicated in any cache)', colour: palette.category[2]! },
        ];
  legend.push({ label: 'vacated (a moved object’s old copy)', colour: palette.ink }, { label: 'free', colour: palette.idleCell });
  const arrows = shown.map((m) => `${m.className}:${m.fromCore}>${m.toCore}`).join(' ');
  const height = objectLayout(600, d).height;
  const token = useMemo(() => ({ d, by, step }), [d, by, step]); // a new drawing when the data, the colouring or the step changes
  return (
    <div
      data-testid="vm-object-map"
      data-colour-by={by}
      data-step={step}
      data-moves={d.moves.length}
      data-arrows={arrows}
      data-columns={d.columns.length}
      data-classes={d.present.length}
      style={{ marginBottom: '1rem' }}
    >
      <CanvasCard
        id="vm-object-map"
        title="Heap map, object by object"
        subtitle={
          <>
            Each core&apos;s heaps walked object by object in the simulated memory as the run left them (the headers read from memory: class and size; the object table says whether the object still lives
            there; read untimed, so the walk costs no simulated time): read-write heap above,
            read-mostly {d.columns.some((c) => c.core < 0) ? 'heap in its own column' : 'slice'} below, {d.cellsPerHeap} cells per heap, each showing the class of the object covering most of it.{' '}
            {d.moves.length
              ? `A store into a read-mostly object moves it to the storing core's read-write heap: ${d.moves.length} move${d.moves.length === 1 ? '' : 's'}; the slider replays them in simulated time.`
              : 'No store moved a read-mostly object in this run.'}
          </>
        }
        height={height}
        draw={(p) => drawObjectMap(p, d, by, step)}
        version={() => token}
        onPointer={(x, y, kind, ev) => {
          if (kind === 'leave') return setHover(null);
          const r = (ev as unknown as { currentTarget?: HTMLElement }).currentTarget?.getBoundingClientRect();
          const at = objectCellAt(objectLayout(r?.width ?? 600, d), d, x, y);
          setHover(at ? { ...at, x: r ? ev.clientX - r.left : x, y: r ? ev.clientY - r.top : y } : null);
        }}
        toolbar={
          <>
            <label className="inline">
              colour by{' '}
              <select value={by} onChange={(e) => setBy(e.target.value as ColourBy)} data-testid="vm-object-map-colour">
                <option value="class">class</option>
                <option value="regime">regime</option>
              </select>
            </label>
          </>
        }
      >
        {info && hover ? (
          <div className="tooltip" role="tooltip" data-testid="vm-object-map-tooltip" style={{ left: hover.x + 14, top: hover.y + 10 }}>
            {`${info.core}, ${info.heap}\n${info.what}\nbytes ${info.from}–${info.to} of the heap`}
          </div>
        ) : null}
      </CanvasCard>
      <div className="card" style={{ marginTop: '0.5rem', display: 'flex', flexWrap: 'wrap', gap: '0.4rem 1rem', alignItems: 'center' }}>
        <button type="button" className="small" disabled={d.moves.length === 0} onClick={() => (step >= d.moves.length ? (setStep(0), setPlaying(true)) : setPlaying(!playing))} data-testid="vm-object-map-play">
          {playing ? 'pause' : 'play'}
        </button>
        <label className="inline">
          moves{' '}
          <input
            type="range"
            min={0}
            max={d.moves.length}
            step={1}
            value={step}
            disabled={d.moves.length === 0}
            onChange={(e) => {
              setPlaying(false);
              setStep(Number(e.target.value));
            }}
            data-testid="vm-object-map-slider"
            aria-label="Store-barrier moves shown, in simulated-time order"
          />
        </label>
        <span data-testid="vm-object-map-step">
          {shown.length} of {d.moves.length} move{d.moves.length === 1 ? '' : 's'}
          {last ? ` · last: ${last.className} (${last.bytes} B) at ${simTime(last.timeNs)}, ${describeMove(last)}` : ''}
        </span>
        <ul data-testid="vm-object-map-legend" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexWrap: 'wrap', gap: '0.2rem 0.9rem', fontSize: '0.85rem', flexBasis: '100%' }}>
          {legend.map((it) => (
            <li key={it.label}>
              <span style={{ display: 'inline-block', width: 12, height: 12, background: it.colour, border: '1px solid var(--line)', marginRight: 4, verticalAlign: 'middle' }} />
              {it.label}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

// ------------------------------------------------------------------ baton path drawing

function centre(g: ChipGeometry, core: number): { x: number; y: number } {
  const r = g.cores[core]!;
  return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
}

/** Room around the tiles of the baton view's frame, and for its legend line, world units. */
const FRAME_PAD = 36;
const FRAME_LEGEND = 44;

/**
 * The part of the floorplan the baton view shows: the tiles of the VM's cores and one more tile
 * on each side (clamped to the mesh), so 3 cores fill the card and 56 show the whole mesh.
 */
export function batonFrame(g: ChipGeometry, topo: Topology, vmCores: number): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let c = 0; c < Math.min(vmCores, topo.cores); c++) {
    const t = coreTile(topo, c);
    x0 = Math.min(x0, tileX(topo, t));
    x1 = Math.max(x1, tileX(topo, t));
    y0 = Math.min(y0, tileY(topo, t));
    y1 = Math.max(y1, tileY(topo, t));
  }
  if (!Number.isFinite(x0)) return { x: 0, y: 0, w: g.width, h: g.height };
  x0 = Math.max(0, x0 - 1);
  y0 = Math.max(0, y0 - 1);
  x1 = Math.min(topo.width - 1, x1 + 1);
  y1 = Math.min(topo.height - 1, y1 + 1);
  const a = g.tiles[tileAt(topo, x0, y0)]!;
  const b = g.tiles[tileAt(topo, x1, y1)]!;
  return { x: a.x - FRAME_PAD, y: a.y - FRAME_PAD, w: b.x + b.w - a.x + 2 * FRAME_PAD, h: b.y + b.h - a.y + 2 * FRAME_PAD + FRAME_LEGEND };
}

export function drawBaton(outer: Painter, g: ChipGeometry, frame: Rect, b: BatonPathData, vmCores: number): void {
  const p = new ScaledPainter(outer, 1, -frame.x, -frame.y);
  const tilesBottom = frame.y + frame.h - FRAME_LEGEND;
  const inFrame = (r: Rect) => r.x + r.w > frame.x && r.x < frame.x + frame.w && r.y + r.h > frame.y && r.y < tilesBottom;
  // text of a readable size on screen: the card fits the frame in about 1000 x 620 CSS px (maxHeight)
  const fit = Math.min(1000 / frame.w, 620 / frame.h);
  const labelSize = Math.max(16, 13 / fit);
  for (const t of g.tiles) if (inFrame(t)) p.rect(t.x, t.y, t.w, t.h, { fill: palette.tile, stroke: palette.tileLine, lineWidth: 1 }, 6);
  const on = new Set(b.cores);
  g.cores.forEach((r, c) => {
    if (!inFrame(r)) return;
    if (c < vmCores) {
      const held = on.has(c) || c === 0; // core 0 starts with the baton
      p.rect(r.x, r.y, r.w, r.h, { fill: held ? palette.busy : palette.storeFill, stroke: palette.busy, lineWidth: 1 }, 4);
      p.text(r.x + r.w / 2, r.y + r.h / 2, String(c), { size: labelSize, weight: 'bold', color: held ? palette.canvas : palette.ink, anchor: 'middle', baseline: 'middle' });
    } else p.rect(r.x, r.y, r.w, r.h, { stroke: palette.tileLine, lineWidth: 1, dash: [3, 2] }, 4);
  });
  const labelAll = b.edges.length <= 16;
  const col = palette.category[0]!;
  // thinnest first, so the busiest edges are on top
  for (let i = b.edges.length - 1; i >= 0; i--) {
    const e = b.edges[i]!;
    const a = centre(g, e.from);
    const z = centre(g, e.to);
    const dx = z.x - a.x;
    const dy = z.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    // bend to the right of the direction of travel, so a -> b and b -> a stay apart
    const bend = Math.min(60, 18 + len * 0.12);
    const cx = (a.x + z.x) / 2 - uy * bend;
    const cy = (a.y + z.y) / 2 + ux * bend;
    const r = g.cores[e.to]!;
    const stop = Math.min(r.w, r.h) / 2 + 4;
    // leave the source core at its edge too, so its number stays readable
    const wx = cx - a.x;
    const wy = cy - a.y;
    const wl = Math.hypot(wx, wy) || 1;
    const sx = a.x + (wx / wl) * (stop - 4);
    const sy = a.y + (wy / wl) * (stop - 4);
    const vx = z.x - cx;
    const vy = z.y - cy;
    const vl = Math.hypot(vx, vy) || 1;
    const ex = z.x - (vx / vl) * stop;
    const ey = z.y - (vy / vl) * stop;
    p.path(
      (c) => {
        c.moveTo(sx, sy);
        c.quadraticCurveTo(cx, cy, ex, ey);
      },
      { stroke: col, lineWidth: e.widthPx, opacity: 0.8 },
    );
    arrowHead(p, cx, cy, ex + (vx / vl) * 2, ey + (vy / vl) * 2, col, 10 + e.widthPx);
    if (labelAll) {
      const mx = 0.25 * sx + 0.5 * cx + 0.25 * ex;
      const my = 0.25 * sy + 0.5 * cy + 0.25 * ey;
      const label = integer(e.count);
      const ls = Math.max(12, 11 / fit);
      const w = p.measure(label, ls) + 8;
      p.rect(mx - w / 2, my - ls * 0.7, w, ls * 1.4, { fill: palette.canvas, stroke: col, lineWidth: 1 }, 4);
      p.text(mx, my, label, { size: ls, color: palette.ink, anchor: 'middle', baseline: 'middle' });
    }
  }
  const legend = b.edges.length ? `arrow width: migrations (widest ${integer(b.edges[0]!.count)}); solid cores held the baton` : 'the baton never moved: no migrations';
  p.text(frame.x + FRAME_PAD, frame.y + frame.h - FRAME_LEGEND / 2, legend, { size: 12 / fit, color: palette.ink, baseline: 'middle' });
}

// ------------------------------------------------------------------ routines drawing

const ROUTINE_ROW = 22;
const LEGEND_ROW = 18;

/** Colour of the i-th cause or routine in a stacked bar (from the palette in force). */
const stackColour = (i: number) => palette.category[i % palette.category.length]!;

/** A legend of coloured squares, wrapped to the painter's width; returns its height. */
function drawLegend(p: Painter, x0: number, items: { label: string; colour: string }[]): number {
  let lx = x0;
  let ly = 12;
  for (const it of items) {
    const w = 22 + p.measure(it.label, TICK) + 16;
    if (lx + w > p.width - 8 && lx > x0) {
      lx = x0;
      ly += LEGEND_ROW;
    }
    p.rect(lx, ly - 6, 15, 12, { fill: it.colour, stroke: palette.ink, lineWidth: 1 });
    p.text(lx + 21, ly, it.label, { size: TICK, color: palette.ink, baseline: 'middle' });
    lx += w;
  }
  return items.length ? ly + 12 : 0;
}

function legendLines(items: number, perLine: number): number {
  return Math.ceil(items / Math.max(1, perLine));
}

function routinesHeight(n: number, causes: number): number {
  return 16 + legendLines(causes, 4) * LEGEND_ROW + n * ROUTINE_ROW + 30;
}

export function drawRoutines(p: Painter, bars: RoutineBar[], causes: string[] = []): void {
  const labelW = Math.max(80, ...bars.map((b) => p.measure(b.name, TICK))) + 12;
  const valueW = 150;
  const top = causes.length ? drawLegend(p, labelW, causes.map((c, i) => ({ label: c, colour: stackColour(i) }))) + 4 : 10;
  const box = { x: labelW, y: top, w: Math.max(40, p.width - labelW - valueW - 8), h: bars.length * ROUTINE_ROW };
  const max = Math.max(1, bars[0]?.cycles ?? 0);
  const x = scaleLinear().domain([0, max]).nice(4).range([box.x, box.x + box.w]);
  for (const t of x.ticks(4)) {
    p.line(x(t), box.y, x(t), box.y + box.h, { stroke: palette.grid, lineWidth: 1 });
    p.text(x(t), box.y + box.h + 6, num(t), { size: 12, color: palette.muted, anchor: 'middle', baseline: 'top' });
  }
  bars.forEach((b, i) => {
    const y = box.y + i * ROUTINE_ROW;
    p.text(box.x - 8, y + ROUTINE_ROW / 2, b.name, { size: TICK, color: palette.ink, anchor: 'end', baseline: 'middle' });
    const w = x(b.cycles) - box.x;
    if (b.causes.length) {
      let acc = 0;
      b.causes.forEach((c, k) => {
        if (c.cycles <= 0) return;
        const x0 = x(acc);
        acc += c.cycles;
        p.rect(x0, y + 3, Math.max(0.5, x(acc) - x0), ROUTINE_ROW - 6, { fill: stackColour(k) });
      });
      if (w > 2) p.rect(box.x, y + 3, w, ROUTINE_ROW - 6, { stroke: palette.ink, lineWidth: 1 });
    } else if (w > 0) p.rect(box.x, y + 3, Math.max(1, w), ROUTINE_ROW - 6, { fill: i === 0 ? palette.category[1]! : palette.category[0]! });
    p.text(box.x + Math.max(0, w) + 6, y + ROUTINE_ROW / 2, `${num(b.cycles)} · ${pct(b.share)}`, { size: 12, color: palette.ink, baseline: 'middle' });
  });
  p.text(box.x + box.w / 2, box.y + box.h + 22, 'core cycles, summed over the cores', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'top' });
}

/** Routines drawn in their own colour in the per-core bars (the rest are summed as "other"). */
const ROUTINE_COLOURS = 8;

/** The routines the per-core bars colour (the largest over the cores, at most ROUTINE_COLOURS - 1), by index into `names`. */
function colouredRoutines(names: string[], cores: CoreRoutines[]): number[] {
  const totals = names.map((_, i) => cores.reduce((a, c) => a + c.cycles[i]!, 0));
  return totals
    .map((t, i) => [t, i] as [number, number])
    .filter(([t]) => t > 0)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, names.length > ROUTINE_COLOURS ? ROUTINE_COLOURS - 1 : ROUTINE_COLOURS)
    .map(([, i]) => i);
}

/** One row per core: roomy up to 16 cores, then 14 px, which keeps every label readable at 56. */
function coreRowPx(cores: number): number {
  return cores <= 16 ? 20 : 14;
}

function coresHeight(cores: number, legendItems: number): number {
  return 16 + legendLines(legendItems, 4) * LEGEND_ROW + cores * coreRowPx(cores) + 36;
}

export function drawCoreRoutines(p: Painter, names: string[], cores: CoreRoutines[], maxTotal: number): void {
  const shown = colouredRoutines(names, cores);
  const others = names.map((_, i) => i).filter((i) => !shown.includes(i));
  const items = shown.map((i, k) => ({ label: names[i]!, colour: stackColour(k) }));
  if (others.length) items.push({ label: 'other routines', colour: palette.muted });
  const labelW = 64;
  const top = drawLegend(p, labelW, items) + 4;
  const rowH = coreRowPx(cores.length);
  const box = { x: labelW, y: top, w: Math.max(40, p.width - labelW - 90), h: cores.length * rowH };
  const x = scaleLinear()
    .domain([0, Math.max(1, maxTotal)])
    .nice(4)
    .range([box.x, box.x + box.w]);
  for (const t of x.ticks(4)) {
    p.line(x(t), box.y, x(t), box.y + box.h, { stroke: palette.grid, lineWidth: 1 });
    p.text(x(t), box.y + box.h + 6, num(t), { size: 12, color: palette.muted, anchor: 'middle', baseline: 'top' });
  }
  cores.forEach((c, j) => {
    const y = box.y + j * rowH;
    p.text(box.x - 8, y + rowH / 2, `core ${c.core}`, { size: rowH >= 16 ? TICK : 11, color: palette.ink, anchor: 'end', baseline: 'middle' });
    let acc = 0;
    const seg = (cycles: number, colour: string) => {
      if (cycles <= 0) return;
      const x0 = x(acc);
      acc += cycles;
      p.rect(x0, y + 1, Math.max(0.5, x(acc) - x0), rowH - 2, { fill: colour });
    };
    shown.forEach((i, k) => seg(c.cycles[i]!, stackColour(k)));
    seg(
      others.reduce((a, i) => a + c.cycles[i]!, 0),
      palette.muted,
    );
    p.text(x(c.total) + 6, y + rowH / 2, num(c.total), { size: 11, color: palette.ink, baseline: 'middle' });
  });
  p.text(box.x + box.w / 2, box.y + box.h + 22, 'core cycles in the VM routines, per core', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'top' });
}

// ------------------------------------------------------------------ the views

export function VmViews({ results, chip }: { results: Results; chip: ResolvedChip }) {
  const x = useMemo(() => vmExtraOf(results), [results]);
  const row = useMemo(() => vmRowOf(results), [results]);
  const heap = useMemo(() => (x ? heapMap(x) : null), [x]);
  const objects = useMemo((): { map: ObjectMapData | null; error: string | null } => {
    if (!x) return { map: null, error: null };
    try {
      return { map: objectMap(x), error: null };
    } catch (e) {
      return { map: null, error: e instanceof Error ? e.message : String(e) };
    }
  }, [x]);
  const baton = useMemo(() => (x && row ? batonPath(x, row) : null), [x, row]);
  const routines = useMemo(() => (x ? routineBars(x) : null), [x]);
  const perCore = useMemo(() => (x ? perCoreRoutines(x) : null), [x]);
  const geo = useMemo(() => chipGeometry(chip), [chip]);
  const frame = useMemo(() => batonFrame(geo, chip.topo, x?.cores ?? 0), [geo, chip, x]);
  if (!x || !row || !heap || !baton || !routines || !perCore) return null;
  const version = () => results;

  const heapTable: ChartTable = {
    caption: 'Heaps: the snapshot’s bytes by role in each region, the bytes the run allocated, the store-barrier moves',
    columns: ['heap', 'region', 'bytes', ...ROLES, 'allocated in the run', 'moves out', 'moves in'],
    rows: () => [
      ...heap.columns.flatMap((c) => [
        [`core ${c.core}`, 'read-write', String(c.readWriteBytes), ...ROLES.map((r) => String(c.readWrite[r])), String(c.allocatedBytes), '', String(c.movesIn)],
        ...(heap.global ? [] : [[`core ${c.core}`, 'read-mostly', String(c.readMostlyBytes), ...ROLES.map((r) => String(c.readMostly[r])), '', String(c.movesOut), '']]),
      ]),
      ...(heap.global ? [['global', 'read-mostly', String(heap.global.bytes), ...ROLES.map((r) => String(heap.global!.readMostly[r])), '', String(heap.global.movesOut), '']] : []),
    ],
    note: () => (heap.moves.length ? `Moves: ${heap.moves.map((m) => `${m.className} (${m.bytes} B), ${describeMove(m)}`).join('; ')}.` : 'No store-barrier moves.'),
  };
  const topo = chip.topo;
  const batonTable: ChartTable = {
    caption: 'Baton migrations from core to core, largest first',
    columns: ['from', 'to', 'migrations', 'share', 'hops'],
    rows: () => baton.edges.map((e) => [`core ${e.from}`, `core ${e.to}`, String(e.count), pct(e.share), e.from < topo.cores && e.to < topo.cores ? String(coreHops(topo, e.from, e.to)) : '–']),
    note: () => `${baton.migrations} migrations in all; ${baton.per1000Bytecodes} per 1000 bytecodes; ${num(baton.perSimSecond)} per simulated second.`,
  };
  const routineTable: ChartTable = {
    caption: 'Core cycles per VM routine, summed over the cores, largest first, and by cause',
    columns: ['routine', 'what', 'cycles', 'share', ...routines.activeCauses],
    rows: () => routines.bars.map((b) => [b.name, ROUTINE_TITLES[b.name] ?? b.name, String(b.cycles), pct(b.share), ...b.causes.map((c) => String(c.cycles))]),
    note: () =>
      `${routines.totalCycles} cycles in all; the run took ${simTime(row.timeNs)} (timeNs ${row.timeNs}).` +
      (routines.activeCauses.length ? ` Causes: ${routines.activeCauses.map((c) => `${c}: ${describeCause(c)}, ${routines.causeTotals[c]} cycles`).join('; ')}.` : ''),
  };
  const coresTable: ChartTable = {
    caption: 'Core cycles per VM routine on each core',
    columns: ['core', 'total', ...perCore.names],
    rows: () => perCore.cores.map((c) => [`core ${c.core}`, String(c.total), ...c.cycles.map(String)]),
    note: () => `Summed over the cores, each routine's cycles are the routines view's. ${perCore.cores.length} cores.`,
  };
  const busiest = perCore.cores.reduce<CoreRoutines | null>((a, c) => (a === null || c.total > a.total ? c : a), null);
  const largest = routines.bars[0];
  const largestCauses = largest ? largest.causes.map((c) => `${c.cause}:${c.cycles}`).join(' ') : '';
  const topCause = largest?.causes.reduce<{ cause: string; cycles: number } | null>((a, c) => (a === null || c.cycles > a.cycles ? c : a), null) ?? null;
  const runCycles = row.timeNs * chip.baseMHz * 1e-3; // timeNs × cycles per ns
  const listed = heap.moves.slice(0, MAX_MOVES_LISTED);

  return (
    <div className="vm-views" data-testid="vm-views">
      <div
        data-testid="vm-heap-map"
        data-replication={heap.replication}
        data-moves={heap.moves.length}
        data-read-mostly-bytes={heap.totals.readMostlyBytes}
        data-allocated-bytes={heap.totals.allocatedBytes}
        style={{ marginBottom: '1rem' }}
      >
        <CanvasCard
          id="vm-heap-map"
          title="Heap map: each core’s heap"
          subtitle={`Replication ${heap.replication}. ${heap.global ? "Each core's read-write heap (homed on its tile) and, in the last column, the one global read-mostly heap (user-managed pages, cached in any tile; dashed)" : "Each core's read-write heap (homed on its tile; left bar) and read-mostly slice (user-managed pages, cached in any tile; dashed)"}: the snapshot's bytes by role, dealt round-robin, and on top the bytes the run allocated there. ${heap.moves.length ? `A store into a read-mostly object moved it to a read-write heap (the arrow): ${heap.moves.length} move${heap.moves.length === 1 ? '' : 's'}.` : 'No store moved a read-mostly object.'}`}
          height={300}
          draw={(p) => drawHeapMap(p, heap)}
          version={version}
          table={heapTable}
        />
        <details className="card" style={{ marginTop: '0.5rem' }} open={heap.columns.length <= 16} data-testid="vm-heap-cores">
          <summary>
            Per core: {size(heap.totals.readWriteSnapshotBytes)} of snapshot and {size(heap.totals.allocatedBytes)} allocated in the read-write heaps, {size(heap.totals.readMostlyBytes)} read-mostly, {heap.moves.length}{' '}
            store-barrier move{heap.moves.length === 1 ? '' : 's'}
          </summary>
          <ol className="vm-heap-cores" aria-label="Heaps per core" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))', gap: '0.2rem 0.8rem', fontSize: '0.85rem' }}>
            {heap.columns.map((c) => (
              <li key={c.core} data-testid={`vm-heap-core-${c.core}`} data-core={c.core} data-read-write-bytes={c.readWriteBytes} data-read-mostly-bytes={c.readMostlyBytes} data-allocated-bytes={c.allocatedBytes}>
                <strong>core {c.core}</strong>: rw {size(c.readWriteSnapshotBytes)} + {size(c.allocatedBytes)} allocated{heap.global ? '' : ` · rm ${size(c.readMostlyBytes)}`}
                {c.movesIn || c.movesOut ? ` · moves ${c.movesOut} out, ${c.movesIn} in` : ''}
              </li>
            ))}
            {heap.global ? (
              <li data-testid="vm-heap-global" data-read-mostly-bytes={heap.global.bytes}>
                <strong>global read-mostly heap</strong>: {size(heap.global.bytes)}
                {heap.global.movesOut ? ` · moves ${heap.global.movesOut} out` : ''}
              </li>
            ) : null}
          </ol>
          {listed.length ? (
            <ul className="sub" data-testid="vm-heap-moves" style={{ margin: '0.2rem 0 0', paddingLeft: '1.2rem' }}>
              {listed.map((m, i) => (
                <li key={i} data-testid={`vm-heap-move-${i}`} data-class={m.className} data-from-core={m.fromCore} data-to-core={m.toCore} data-bytes={m.bytes}>
                  store barrier: {m.className} ({m.bytes} B) moved from {describeMove(m)}
                </li>
              ))}
              {heap.moves.length > listed.length ? <li>and {heap.moves.length - listed.length} more (in the data table)</li> : null}
            </ul>
          ) : null}
        </details>
      </div>

      {objects.map ? <ObjectMapCard d={objects.map} /> : null}
      {objects.error ? (
        <p className="card error" role="alert" data-testid="vm-object-map-error" style={{ marginBottom: '1rem' }}>
          The object-by-object heap map cannot be drawn: {objects.error}
        </p>
      ) : null}

      <div data-testid="vm-baton" data-migrations={baton.migrations} data-edges={baton.edges.length} data-per-1000-bytecodes={baton.per1000Bytecodes} data-per-sim-second={baton.perSimSecond} style={{ marginBottom: '1rem' }}>
        <CanvasCard
          id="vm-baton"
          title="The baton’s path over the mesh"
          subtitle={
            <>
              The interpreter thread moves to the receiver&apos;s core on a send or return (paper 000&apos;s baton passing); each arrow is the migrations from one core to another, its width grows with their
              number.{' '}
              <span data-testid="vm-baton-summary">
                <span data-testid="vm-baton-migrations">{baton.migrations}</span> migrations · <span data-testid="vm-baton-per-1000">{baton.per1000Bytecodes}</span> per 1000 bytecodes ·{' '}
                <span data-testid="vm-baton-per-second">{num(baton.perSimSecond)}</span> per simulated second (in {simTime(baton.timeNs)}).
              </span>
            </>
          }
          world={{ w: frame.w, h: frame.h }}
          maxHeight={620}
          draw={(p) => drawBaton(p, geo, frame, baton, x.cores)}
          version={version}
          table={batonTable}
        />
      </div>

      <div
        data-testid="vm-routines"
        data-largest={largest?.name ?? ''}
        data-largest-cycles={largest?.cycles ?? 0}
        data-largest-causes={largestCauses}
        data-causes={routines.activeCauses.join(' ')}
        data-total-cycles={routines.totalCycles}
        data-time-ns={row.timeNs}
        style={{ marginBottom: '1rem' }}
      >
        <CanvasCard
          id="vm-routines"
          title="Stalls by VM routine"
          subtitle={
            <>
              Core cycles spent in each routine&apos;s loads, stores and native work (its memory stalls included), summed over the cores, largest first, with its share
              {routines.activeCauses.length ? ', stacked by cause: executed work and TLB refills, stalls on a remote home, and the core’s own stall causes' : ''}.{' '}
              <span data-testid="vm-routines-summary">
                Largest: <span data-testid="vm-routines-largest">{largest ? `${largest.name} ${largest.cycles} cycles (${pct(largest.share)})` : '–'}</span> · {integer(routines.totalCycles)} cycles in the routines · the
                run took <span data-testid="vm-routines-time">{simTime(row.timeNs)}</span>, {num(runCycles)} cycles of one core at {num(chip.baseMHz)} MHz.
                {topCause && largest ? (
                  <>
                    {' '}
                    Most of {largest.name}: <span data-testid="vm-routines-top-cause">{`${topCause.cause} ${topCause.cycles} cycles (${pct(largest.cycles > 0 ? topCause.cycles / largest.cycles : 0)})`}</span>, {describeCause(topCause.cause)}.
                  </>
                ) : null}
              </span>
            </>
          }
          height={routinesHeight(routines.bars.length, routines.activeCauses.length)}
          draw={(p) => drawRoutines(p, routines.bars, routines.activeCauses)}
          version={version}
          table={routineTable}
        />
      </div>

      {perCore.cores.length ? (
        <div
          data-testid="vm-routines-cores"
          data-cores={perCore.cores.length}
          data-max-total={perCore.maxTotal}
          data-busiest-core={busiest?.core ?? -1}
          data-busiest-total={busiest?.total ?? 0}
          style={{ marginBottom: '1rem' }}
        >
          <CanvasCard
            id="vm-routines-cores"
            title="VM routines per core"
            subtitle={
              <>
                Each core&apos;s cycles in the VM routines, stacked by routine: where the interpreter thread ran (the baton&apos;s holders) and where the main core ran foreign primitives.{' '}
                <span data-testid="vm-routines-cores-summary">
                  Busiest: core {busiest?.core ?? '–'} with {integer(busiest?.total ?? 0)} cycles, of {perCore.cores.length} cores.
                </span>
              </>
            }
            height={coresHeight(perCore.cores.length, Math.min(ROUTINE_COLOURS, perCore.names.length))}
            draw={(p) => drawCoreRoutines(p, perCore.names, perCore.cores, perCore.maxTotal)}
            version={version}
            table={coresTable}
          />
        </div>
      ) : null}
    </div>
  );
}
