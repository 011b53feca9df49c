/**
 * Drawing of the pipeline views on a Painter (canvas on screen, SVG/PNG for the exports):
 * the stage timeline (Gantt) and the stages on the mesh with their transfers.
 */
import { scaleLinear } from 'd3';
import { coreTile, tileAt, tileX, tileY, type ResolvedChip } from '@manycore/engine';
import { TICK, drawColorLegendBar, drawColorLegendTicks } from '../charts/draw';
import { palette } from '../lib/theme';
import { LINK_COLOR, chipGeometry, linkColor, type Rect } from '../charts/chip-draw';
import type { Painter } from '../charts/painter';
import { num, timeUnit } from '../lib/format';
import { LONG_HOPS, SEG_COLOR, SEG_LABEL, type SegKind, type Transfer } from './pipeline-gantt';

// ------------------------------------------------------------------ Gantt

export interface GanttRow {
  label: string;
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
  kinds: ArrayLike<SegKind>;
  /** A wait still going on (live): drawn from here to `nowNs`. */
  pendingFrom?: number;
}

export interface GanttOptions {
  rows: GanttRow[];
  /** Kinds shown in the legend, in order. */
  legend: SegKind[];
  xMaxNs: number;
  /** Live: the chip's time (pending waits end here; a thin line marks it). */
  nowNs?: number;
  /** A shaded stretch before the pipeline's start (the untimed set-up). */
  setupNs?: number;
  empty?: string;
}

export const GANTT_LEFT = 118;

/** Height of the Gantt canvas for `rows` stages. */
export function ganttHeight(rows: number): number {
  return Math.round(Math.min(760, Math.max(190, 92 + rows * (rows > 16 ? 13 : 26))));
}

export function drawGantt(p: Painter, o: GanttOptions): void {
  const legendY = 12;
  const box = { x: GANTT_LEFT, y: 30, w: p.width - GANTT_LEFT - 14, h: p.height - 30 - 44 };
  const xMax = Math.max(o.xMaxNs, 1);
  const unit = timeUnit(xMax);
  const x = scaleLinear()
    .domain([0, xMax / unit.div])
    .range([box.x, box.x + box.w]);
  const px = (ns: number) => x(ns / unit.div);
  // legend (swatches)
  let lx = box.x;
  for (const k of o.legend) {
    const w = 20 + p.measure(SEG_LABEL[k], TICK) + 16;
    p.rect(lx, legendY - 6, 14, 12, { fill: SEG_COLOR[k] });
    p.text(lx + 19, legendY, SEG_LABEL[k], { size: TICK, color: palette.ink, baseline: 'middle' });
    lx += w;
  }
  if (o.setupNs && o.setupNs > 0) {
    const w = px(o.setupNs) - box.x;
    p.rect(box.x, box.y, w, box.h, { fill: palette.grid });
    if (w > 60) p.text(box.x + w / 2, box.y + box.h + 34, 'set-up', { size: 12, color: palette.muted, anchor: 'middle', baseline: 'middle' });
  }
  // time axis
  for (const t of x.ticks(Math.max(2, Math.floor(box.w / 90)))) {
    const tx = x(t);
    p.line(tx, box.y, tx, box.y + box.h, { stroke: palette.grid, lineWidth: 1 });
    p.text(tx, box.y + box.h + 6, num(t), { size: TICK, color: palette.muted, anchor: 'middle', baseline: 'top' });
  }
  p.line(box.x, box.y + box.h, box.x + box.w, box.y + box.h, { stroke: palette.muted, lineWidth: 1 });
  p.text(box.x + box.w, box.y + box.h + 24, `simulated time (${unit.label})`, { size: TICK, color: palette.ink, anchor: 'end', baseline: 'top' });
  const n = o.rows.length;
  if (n === 0) return;
  const rowH = box.h / n;
  const barH = Math.max(3, Math.min(18, rowH * 0.72));
  const every = Math.max(1, Math.ceil(13 / rowH));
  // segments, one path per kind; within a row a segment that falls inside the pixel the
  // previous one already covered is skipped (thousands of live segments stay cheap)
  const rects = new Map<SegKind, [number, number, number, number][]>();
  let any = false;
  o.rows.forEach((r, i) => {
    const y = box.y + i * rowH + (rowH - barH) / 2;
    if (i % every === 0) p.text(box.x - 8, y + barH / 2, r.label, { size: Math.min(TICK, Math.max(9, rowH * 0.8)), color: palette.ink, anchor: 'end', baseline: 'middle' });
    let covered = -Infinity;
    const m = Math.min(r.starts.length, r.ends.length, r.kinds.length);
    for (let j = 0; j < m; j++) {
      const x1 = px(r.ends[j]!);
      if (x1 <= covered + 0.5) continue;
      const x0 = Math.max(px(r.starts[j]!), covered);
      const kind = r.kinds[j]!;
      let list = rects.get(kind);
      if (!list) rects.set(kind, (list = []));
      const w = x1 - x0;
      list.push([x0, y, w > 4 ? w - 1 : Math.max(0.75, w), barH]);
      covered = Math.max(x1, x0 + 0.75);
      any = true;
    }
    if (r.pendingFrom !== undefined && Number.isFinite(r.pendingFrom) && o.nowNs !== undefined && o.nowNs > r.pendingFrom) {
      const x0 = Math.max(px(r.pendingFrom), covered);
      const x1 = px(o.nowNs);
      if (x1 > x0) p.rect(x0, y, x1 - x0, barH, { fill: SEG_COLOR[3], opacity: 0.45 });
    }
  });
  for (const [kind, list] of rects)
    p.path(
      (c) => {
        for (const [rx, ry, rw, rh] of list) c.rect(rx, ry, rw, rh);
      },
      { fill: SEG_COLOR[kind] },
    );
  if (o.nowNs !== undefined && o.nowNs > 0) {
    const nx = px(o.nowNs);
    p.line(nx, box.y, nx, box.y + box.h, { stroke: palette.ink, lineWidth: 1, dash: [3, 3] });
  }
  if (!any && o.empty) p.text(box.x + box.w / 2, box.y + box.h / 2, o.empty, { size: 14, color: palette.muted, anchor: 'middle', baseline: 'middle' });
}

// ------------------------------------------------------------------ mesh

/**
 * Positions on the chip view's floorplan (chipGeometry in charts/chip-draw.ts), so the stages
 * sit where the chip view puts their cores and there is one floorplan to maintain.
 */
export interface MeshGeometry {
  width: number;
  height: number;
  tile(t: number): Rect;
  core(c: number): Rect;
  router(t: number): { x: number; y: number };
  controller(m: number): Rect;
  /** Left edge of the mesh (the legend starts here). */
  left: number;
  legendY: number;
}

export function meshGeometry(chip: ResolvedChip): MeshGeometry {
  const g = chipGeometry(chip);
  return {
    width: g.width,
    height: g.height,
    tile: (t) => g.tiles[t]!,
    core: (c) => g.cores[c]!,
    router: (t) => g.routers[t]!,
    controller: (m) => g.controllers[m]!.rect,
    left: g.tiles[0]!.x,
    legendY: g.legendY,
  };
}

export interface MeshFrame {
  chip: ResolvedChip;
  /** Stage cores in pipeline order. */
  cores: readonly number[];
  transfers: readonly Transfer[];
  /** Controller of the shared queue each stage works on (shared modes; -1: slots on several controllers), else empty. */
  buffers: readonly number[];
  /** Traffic of a transfer: the busiest link of its route, both directions, flits/µs; null without a run. */
  traffic(t: Transfer): number | null;
  linkMax: number;
  trafficTitle: string;
}

function routePoints(g: MeshGeometry, chip: ResolvedChip, t: Transfer): [number, number][] {
  const topo = chip.topo;
  const a = g.core(t.fromCore);
  const b = g.core(t.toCore);
  const pa: [number, number] = [a.x + a.w / 2, a.y + a.h];
  const pb: [number, number] = [b.x + b.w / 2, b.y + b.h];
  const ta = coreTile(topo, t.fromCore);
  const tb = coreTile(topo, t.toCore);
  if (ta === tb) return [[a.x + a.w / 2, a.y], [(a.x + b.x + b.w) / 2, Math.min(a.y, b.y) - 14], [b.x + b.w / 2, b.y]];
  // X then Y between the routers, each direction offset to its side of the channel
  const ax = tileX(topo, ta);
  const ay = tileY(topo, ta);
  const bx = tileX(topo, tb);
  const by = tileY(topo, tb);
  const ra = g.router(ta);
  const corner = g.router(tileAt(topo, bx, ay));
  const rb = g.router(tb);
  const dy = bx > ax ? -4 : 4;
  const dx = by > ay ? 4 : -4;
  const pts: [number, number][] = [pa];
  if (ax !== bx) pts.push([ra.x, ra.y + dy], [corner.x + (ay !== by ? dx : 0), corner.y + dy]);
  else pts.push([ra.x + dx, ra.y]);
  if (ay !== by) pts.push([rb.x + dx, rb.y]);
  pts.push(pb);
  return pts;
}

function arrowHead(p: Painter, from: [number, number], to: [number, number], color: string, size = 9): void {
  const ang = Math.atan2(to[1] - from[1], to[0] - from[0]);
  p.path(
    (c) => {
      c.moveTo(to[0], to[1]);
      c.lineTo(to[0] - Math.cos(ang - 0.45) * size, to[1] - Math.sin(ang - 0.45) * size);
      c.lineTo(to[0] - Math.cos(ang + 0.45) * size, to[1] - Math.sin(ang + 0.45) * size);
    },
    { fill: color },
  );
}

export function drawPipelineMesh(p: Painter, g: MeshGeometry, f: MeshFrame): void {
  const chip = f.chip;
  const stageOf = new Map<number, number>();
  f.cores.forEach((c, s) => stageOf.set(c, s));
  // controllers (shared modes: with the stages whose buffer they hold)
  for (let m = 0; m < chip.controllers; m++) {
    const r = g.controller(m);
    const held = f.buffers.map((mc, s) => (mc === m ? s : -1)).filter((s) => s >= 0);
    const rt = g.router(chip.controllerTile[m]!);
    p.line(r.x < rt.x ? r.x + r.w : r.x, rt.y, rt.x, rt.y, { stroke: palette.tileLine, lineWidth: 3 });
    p.rect(r.x, r.y, r.w, r.h, { fill: held.length ? '#007A5A' : palette.tile, stroke: palette.router, lineWidth: 1.25 }, 4);
    p.text(r.x + r.w / 2, r.y + r.h * 0.32, `MC${m}`, { size: 12, weight: 'bold', color: held.length ? '#ffffff' : palette.ink, anchor: 'middle', baseline: 'middle' });
    if (held.length) {
      const label = 'queue';
      p.text(r.x + r.w / 2, r.y + r.h * 0.72, label, { size: 10.5, color: '#ffffff', anchor: 'middle', baseline: 'middle' });
    }
  }
  // tiles and cores
  for (let t = 0; t < chip.topo.tiles; t++) {
    const o = g.tile(t);
    p.rect(o.x, o.y, o.w, o.h, { fill: palette.tile, stroke: palette.tileLine, lineWidth: 1 }, 6);
    const r = g.router(t);
    p.rect(r.x - 5, r.y - 5, 10, 10, { fill: palette.tileLine }, 2);
  }
  for (let c = 0; c < chip.topo.cores; c++) {
    const r = g.core(c);
    const s = stageOf.get(c);
    if (s === undefined) {
      p.rect(r.x, r.y, r.w, r.h, { fill: palette.canvas, stroke: palette.tileLine, lineWidth: 1, dash: [3, 2] }, 4);
      p.text(r.x + r.w / 2, r.y + r.h / 2, String(c), { size: 10, color: palette.muted, anchor: 'middle', baseline: 'middle' });
    } else {
      p.rect(r.x, r.y, r.w, r.h, { fill: palette.busy, stroke: palette.busy, lineWidth: 1 }, 4);
      p.text(r.x + r.w / 2, r.y + r.h / 2 - 7, `S${s}`, { size: 13, weight: 'bold', color: palette.canvas, anchor: 'middle', baseline: 'middle' });
      p.text(r.x + r.w / 2, r.y + r.h / 2 + 9, `core ${c}`, { size: 9.5, color: palette.canvas, anchor: 'middle', baseline: 'middle' });
    }
  }
  // shared queue: a dashed line from each stage to the controller of the queue's slots
  f.buffers.forEach((m, s) => {
    if (m < 0) return;
    const a = g.core(f.cores[s]!);
    const r = g.controller(m);
    const cx = r.x + r.w / 2 < a.x ? r.x + r.w : r.x;
    p.line(a.x + a.w / 2, a.y + a.h, cx, r.y + r.h / 2, { stroke: '#009E73', lineWidth: 1.25, dash: [4, 3], opacity: 0.7 });
  });
  // transfers: the X-Y route, coloured by traffic; a hop badge, long ones highlighted
  const labelAll = f.transfers.length <= 16;
  for (const t of f.transfers) {
    const pts = routePoints(g, chip, t);
    const v = f.traffic(t);
    const color = v === null ? palette.muted : v > 0 ? linkColor(f.linkMax > 0 ? Math.min(1, v / f.linkMax) : 0) : palette.idleLink;
    const long = t.hops >= LONG_HOPS;
    const arc = t.hops === 0;
    p.path(
      (c) => {
        c.moveTo(pts[0]![0], pts[0]![1]);
        if (arc) c.quadraticCurveTo(pts[1]![0], pts[1]![1], pts[2]![0], pts[2]![1]);
        else for (let i = 1; i < pts.length; i++) c.lineTo(pts[i]![0], pts[i]![1]);
      },
      { stroke: color, lineWidth: long ? 4.5 : 3 },
    );
    arrowHead(p, pts[pts.length - 2]!, pts[pts.length - 1]!, color);
    if (arc || (!labelAll && !long)) continue;
    // the badge: halfway along the first leg; a long transfer's at its turn (clear of the
    // short transfers' badges along the rows)
    const mid = pts[Math.floor(pts.length / 2)]!;
    const prev = pts[Math.floor(pts.length / 2) - 1]!;
    const turn = long && pts.length === 5;
    const bx = turn ? mid[0] : (mid[0] + prev[0]) / 2;
    const by = turn ? mid[1] : (mid[1] + prev[1]) / 2;
    const label = `${t.hops}`;
    p.circle(bx, by, 9, { fill: long ? '#D55E00' : palette.canvas, stroke: long ? '#D55E00' : palette.muted, lineWidth: 1.25 });
    p.text(bx, by + 0.5, label, { size: 11, weight: 'bold', color: long ? '#ffffff' : palette.ink, anchor: 'middle', baseline: 'middle' });
  }
  // legend
  const y = g.legendY;
  const lw = Math.min(260, g.width / 3);
  drawColorLegendBar(p, g.left, y + 14, lw, LINK_COLOR, f.trafficTitle);
  drawColorLegendTicks(p, g.left, y + 14, lw, f.linkMax, (v) => (v >= 10 ? String(Math.round(v)) : v.toFixed(1)));
  const x2 = g.left + lw + 40;
  p.circle(x2 + 8, y + 14, 8, { fill: '#D55E00' });
  p.text(x2 + 8, y + 14.5, String(LONG_HOPS), { size: 10, weight: 'bold', color: '#ffffff', anchor: 'middle', baseline: 'middle' });
  p.text(x2 + 22, y + 14, `hops between stages (≥ ${LONG_HOPS}: long)`, { size: 12, color: palette.ink, baseline: 'middle' });
  if (f.buffers.length) {
    p.line(x2, y + 36, x2 + 18, y + 36, { stroke: '#009E73', lineWidth: 1.5, dash: [4, 3] });
    p.text(x2 + 22, y + 36, "stage → controller of the shared queue", { size: 12, color: palette.ink, baseline: 'middle' });
  }
}
