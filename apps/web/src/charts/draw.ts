/**
 * Chart drawing on a Painter: time-series lines, stacked bars, heatmaps, XY plots of
 * workload rows, colour legends. D3 supplies the scales, ticks, number formats and line
 * generators; colours are colour-blind safe (Okabe-Ito for categories, viridis for values).
 */
import { interpolateViridis, line as d3line, scaleLinear, scaleLog, type ScaleLinear } from 'd3';
import { num, timeUnit } from '../lib/format';
import { palette } from '../lib/theme';
import type { Painter } from './painter';

/**
 * Okabe & Ito's colour-blind-safe palette, ordered for the theme's background: the theme's
 * palette array itself (lib/theme.ts refills it when the theme changes).
 */
export const CATEGORY: readonly string[] = palette.category;
export const TICK = 13;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LineSeries {
  label: string;
  color: string;
  dash?: number[];
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
  width?: number;
}

export interface Marker {
  x: number;
  label: string;
}

function legendRow(p: Painter, items: { label: string; color: string; dash?: number[] }[], x0: number, y: number, maxW: number): number {
  let x = x0;
  let rows = 1;
  for (const it of items) {
    const w = 26 + p.measure(it.label, TICK) + 14;
    if (x + w > x0 + maxW && x > x0) {
      x = x0;
      y += 18;
      rows++;
    }
    p.line(x, y, x + 20, y, { stroke: it.color, lineWidth: 3, dash: it.dash ?? [] });
    p.text(x + 25, y, it.label, { size: TICK, color: palette.ink, baseline: 'middle' });
    x += w;
  }
  return rows;
}

/** Tick values an axis draws instead of its scale's own (log axes), and the x label format. */
interface AxisTicks {
  x?: number[];
  y?: number[];
  xFormat?: (v: number) => string;
}

function axes(
  p: Painter,
  box: Box,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
  xLabel: string,
  yLabel: string,
  yFormat = (v: number) => num(v),
  ticks: AxisTicks = {},
): void {
  for (const t of ticks.y ?? y.ticks(5)) {
    const py = y(t);
    p.line(box.x, py, box.x + box.w, py, { stroke: palette.grid, lineWidth: 1 });
    p.text(box.x - 6, py, yFormat(t), { size: TICK, color: palette.muted, anchor: 'end', baseline: 'middle' });
  }
  for (const t of ticks.x ?? x.ticks(Math.max(2, Math.floor(box.w / 90)))) {
    const px = x(t);
    p.line(px, box.y + box.h, px, box.y + box.h + 5, { stroke: palette.muted, lineWidth: 1 });
    p.text(px, box.y + box.h + 8, ticks.xFormat ? ticks.xFormat(t) : num(t), { size: TICK, color: palette.muted, anchor: 'middle', baseline: 'top' });
  }
  p.line(box.x, box.y + box.h, box.x + box.w, box.y + box.h, { stroke: palette.muted, lineWidth: 1 });
  p.line(box.x, box.y, box.x, box.y + box.h, { stroke: palette.muted, lineWidth: 1 });
  p.text(box.x + box.w / 2, box.y + box.h + 26, xLabel, { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'top' });
  p.text(14, box.y + box.h / 2, yLabel, { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
}

export interface LineChartOptions {
  series: LineSeries[];
  yLabel: string;
  /** x values are simulated ns; the axis picks its unit. */
  xMaxNs?: number;
  yMax?: number;
  markers?: Marker[];
  empty?: string;
  yFormat?: (v: number) => string;
}

export function drawLineChart(p: Painter, o: LineChartOptions): void {
  let xMax = o.xMaxNs ?? 0;
  let yMax = o.yMax ?? 0;
  let any = false;
  for (const s of o.series) {
    const n = Math.min(s.xs.length, s.ys.length);
    if (n > 0) any = true;
    for (let i = 0; i < n; i++) {
      if (s.xs[i]! > xMax) xMax = s.xs[i]!;
      if (o.yMax === undefined && s.ys[i]! > yMax) yMax = s.ys[i]!;
    }
  }
  const unit = timeUnit(xMax || 1);
  const legendH = o.series.length > 1 ? 18 * Math.ceil(o.series.length / Math.max(1, Math.floor((p.width - 70) / 120))) + 6 : 4;
  const box: Box = { x: 64, y: 10 + legendH, w: p.width - 64 - 14, h: p.height - 10 - legendH - 48 };
  const x = scaleLinear()
    .domain([0, (xMax || 1) / unit.div])
    .range([box.x, box.x + box.w]);
  const y = scaleLinear()
    .domain([0, yMax > 0 ? yMax * 1.08 : 1])
    .range([box.y + box.h, box.y])
    .nice(5);
  axes(p, box, x, y, `simulated time (${unit.label})`, o.yLabel, o.yFormat);
  if (o.series.length > 1)
    legendRow(
      p,
      o.series.map((s) => ({ label: s.label, color: s.color, ...(s.dash ? { dash: s.dash } : {}) })),
      box.x,
      12,
      box.w,
    );
  for (const m of o.markers ?? []) {
    const px = x(m.x / unit.div);
    p.line(px, box.y, px, box.y + box.h, { stroke: palette.marker, lineWidth: 1.5, dash: [5, 4] });
    p.text(px + 4, box.y + 4, m.label, { size: 12, color: palette.marker, baseline: 'top' });
  }
  if (!any) {
    p.text(box.x + box.w / 2, box.y + box.h / 2, o.empty ?? 'no samples yet: run the experiment', { size: 14, color: palette.muted, anchor: 'middle', baseline: 'middle' });
    return;
  }
  for (const s of o.series) {
    const n = Math.min(s.xs.length, s.ys.length);
    if (n === 0) continue;
    const idx = Array.from({ length: n }, (_, i) => i);
    const gen = d3line<number>()
      .x((i) => x(s.xs[i]! / unit.div))
      .y((i) => y(Math.max(0, s.ys[i]!)));
    p.path((ctx) => gen.context(ctx as never)(idx), { stroke: s.color, lineWidth: s.width ?? 2.25, ...(s.dash ? { dash: s.dash } : {}) });
  }
}

export interface Stack {
  label: string;
  color: string;
  value(i: number): number;
}

export interface BarsOptions {
  n: number;
  stacks: Stack[];
  xLabel: string;
  yLabel: string;
  barLabel?(i: number): string;
  /** Bars that run the workload (others are drawn faint). */
  active?(i: number): boolean;
}

export function drawStackedBars(p: Painter, o: BarsOptions): void {
  const legendH = 18 * Math.ceil(o.stacks.length / Math.max(1, Math.floor((p.width - 70) / 150))) + 6;
  const box: Box = { x: 64, y: 10 + legendH, w: p.width - 64 - 14, h: p.height - 10 - legendH - 48 };
  const y = scaleLinear().domain([0, 1]).range([box.y + box.h, box.y]);
  const bw = box.w / Math.max(1, o.n);
  for (const t of y.ticks(4)) {
    p.line(box.x, y(t), box.x + box.w, y(t), { stroke: palette.grid, lineWidth: 1 });
    p.text(box.x - 6, y(t), `${Math.round(t * 100)} %`, { size: TICK, color: palette.muted, anchor: 'end', baseline: 'middle' });
  }
  for (let i = 0; i < o.n; i++) {
    let acc = 0;
    const faint = o.active && !o.active(i);
    for (const s of o.stacks) {
      const v = Math.max(0, s.value(i));
      if (v <= 0) continue;
      const top = Math.min(1, acc + v);
      p.rect(box.x + i * bw + (bw > 4 ? 1 : 0), y(top), Math.max(0.5, bw - (bw > 4 ? 2 : 0)), y(acc) - y(top), { fill: s.color, ...(faint ? { opacity: 0.35 } : {}) });
      acc = top;
    }
  }
  const every = Math.max(1, Math.ceil(28 / bw));
  for (let i = 0; i < o.n; i += every)
    p.text(box.x + i * bw + bw / 2, box.y + box.h + 6, o.barLabel ? o.barLabel(i) : String(i), { size: 12, color: palette.muted, anchor: 'middle', baseline: 'top' });
  p.line(box.x, box.y + box.h, box.x + box.w, box.y + box.h, { stroke: palette.muted, lineWidth: 1 });
  p.text(box.x + box.w / 2, box.y + box.h + 26, o.xLabel, { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'top' });
  p.text(14, box.y + box.h / 2, o.yLabel, { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
  // legend (as swatches)
  let x = box.x;
  let ly = 12;
  for (const s of o.stacks) {
    const w = 20 + p.measure(s.label, TICK) + 14;
    if (x + w > box.x + box.w && x > box.x) {
      x = box.x;
      ly += 18;
    }
    p.rect(x, ly - 6, 14, 12, { fill: s.color });
    p.text(x + 19, ly, s.label, { size: TICK, color: palette.ink, baseline: 'middle' });
    x += w;
  }
}

/** Horizontal colour legend: gradient bar, ticks, title. */
export function drawColorLegend(p: Painter, x: number, y: number, w: number, interp: (t: number) => string, max: number, title: string, format: (v: number) => string, log = false): void {
  drawColorLegendBar(p, x, y, w, interp, title);
  drawColorLegendTicks(p, x, y, w, max, format, log);
}

/** The parts of a colour legend that do not depend on the data: the colour bar and the title. */
export function drawColorLegendBar(p: Painter, x: number, y: number, w: number, interp: (t: number) => string, title: string): void {
  const steps = 48;
  for (let i = 0; i < steps; i++) p.rect(x + (i * w) / steps, y, w / steps + 0.6, 12, { fill: interp(i / (steps - 1)) });
  p.rect(x, y, w, 12, { stroke: palette.muted, lineWidth: 0.75 });
  // a title longer than its bar and the gap after it is drawn smaller (not over the next bar's)
  const room = w + 50;
  const long = p.measure(title, TICK);
  p.text(x, y - 6, title, { size: long > room ? Math.max(8, (TICK * room) / long) : TICK, color: palette.ink });
}

/** The tick labels under a colour legend (0, the middle, `max`). */
export function drawColorLegendTicks(p: Painter, x: number, y: number, w: number, max: number, format: (v: number) => string, log = false): void {
  if (!(max > 0)) return;
  const ticks = log && max > 1 ? [0, Math.sqrt(max), max].map((v, i) => (i === 1 ? Math.round(v) : v)) : [0, max / 2, max];
  ticks.forEach((t, i) => {
    const px = log && max > 1 ? x + (Math.log1p(t) / Math.log1p(max)) * w : x + (t / (max || 1)) * w;
    p.text(px, y + 16, format(t), { size: 12, color: palette.muted, anchor: i === 0 ? 'start' : i === 2 ? 'end' : 'middle', baseline: 'top' });
  });
}

export interface HeatmapOptions {
  n: number;
  value(i: number, j: number): number;
  title: string;
}

export function drawHeatmap(p: Painter, o: HeatmapOptions): { box: Box; cell: number } {
  let max = 0;
  for (let i = 0; i < o.n; i++) for (let j = 0; j < o.n; j++) max = Math.max(max, o.value(i, j));
  const legendH = 46;
  const size = Math.max(10, Math.min(p.width - 70, p.height - legendH - 40));
  const cell = size / Math.max(1, o.n);
  const box: Box = { x: 56, y: legendH + 8, w: cell * o.n, h: cell * o.n };
  const color = (v: number) => (v <= 0 ? palette.grid : interpolateViridis(max > 0 ? Math.log1p(v) / Math.log1p(max) : 0));
  p.rect(box.x, box.y, box.w, box.h, { fill: palette.grid });
  for (let i = 0; i < o.n; i++)
    for (let j = 0; j < o.n; j++) {
      const v = o.value(i, j);
      if (v > 0) p.rect(box.x + j * cell, box.y + i * cell, cell + 0.3, cell + 0.3, { fill: color(v) });
    }
  p.rect(box.x, box.y, box.w, box.h, { stroke: palette.muted, lineWidth: 0.75 });
  const every = Math.max(1, Math.ceil(24 / cell));
  for (let i = 0; i < o.n; i += every) {
    p.text(box.x - 4, box.y + i * cell + cell / 2, String(i), { size: 11, color: palette.muted, anchor: 'end', baseline: 'middle' });
    p.text(box.x + i * cell + cell / 2, box.y + box.h + 4, String(i), { size: 11, color: palette.muted, anchor: 'middle', baseline: 'top' });
  }
  p.text(14, box.y + box.h / 2, 'sender core', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
  p.text(box.x + box.w / 2, box.y + box.h + 20, 'receiver core', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'top' });
  drawColorLegend(p, box.x, 22, Math.min(260, p.width - box.x - 20), interpolateViridis, max, o.title, (v) => num(v), true);
  if (max === 0) p.text(box.x + box.w / 2, box.y + box.h / 2, 'no messages yet', { size: 14, color: palette.muted, anchor: 'middle', baseline: 'middle' });
  return { box, cell };
}

export interface XYGroup {
  label: string;
  color: string;
  dash?: number[];
  points: [number, number][];
}

/**
 * Tick values of a log axis over [lo, hi] (lo > 0): the powers of `base` inside it, thinned to
 * at most `max`; on a base-10 axis that spans less than two decades, 2x and 5x as well.
 */
export function logTicks(lo: number, hi: number, base: number, max: number): number[] {
  const lb = Math.log(base);
  const out: number[] = [];
  for (let k = Math.floor(Math.log(lo) / lb - 1e-9); k <= Math.ceil(Math.log(hi) / lb + 1e-9); k++) {
    const v = Math.pow(base, k);
    const extra = base === 10 ? [v, 2 * v, 5 * v] : [v];
    for (const t of extra) if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) out.push(t);
  }
  const powers = out.filter((t) => Math.abs(Math.log(t) / lb - Math.round(Math.log(t) / lb)) < 1e-9);
  const pick = base === 10 && powers.length >= 3 ? powers : out;
  const step = Math.max(1, Math.ceil(pick.length / Math.max(1, max)));
  return pick.filter((_, i) => i % step === 0);
}

/** Options of drawXY; without them it behaves as it always did. */
export interface XYOptions {
  /** 'auto' (default: log 10 when the values span two decades), 'linear', or a log base (2 for sizes in bytes). */
  xScale?: 'auto' | 'linear' | number;
  /** Log y axis (base 10); ignored when a value is not positive. */
  logY?: boolean;
  xFormat?: (v: number) => string;
  yFormat?: (v: number) => string;
  /** Text shown when there are no points. */
  empty?: string;
}

/** Workload results: one line with points per group; log x when the values span decades. */
export function drawXY(p: Painter, groups: XYGroup[], xLabel: string, yLabel: string, opts: XYOptions = {}): void {
  const all = groups.flatMap((g) => g.points);
  const legendH = groups.length > 1 ? 24 : 4;
  const box: Box = { x: 64, y: 10 + legendH, w: p.width - 64 - 14, h: p.height - 10 - legendH - 48 };
  if (all.length === 0) {
    p.text(p.width / 2, p.height / 2, opts.empty ?? 'no rows', { size: 14, color: palette.muted, anchor: 'middle' });
    return;
  }
  const xs = all.map((q) => q[0]);
  const ys = all.map((q) => q[1]);
  const xmin = Math.min(...xs);
  const xmax = Math.max(...xs);
  const ymin = Math.min(...ys);
  const ymax = Math.max(...ys);
  const mode = opts.xScale ?? 'auto';
  const ticks: AxisTicks = opts.xFormat ? { xFormat: opts.xFormat } : {};
  let x: ScaleLinear<number, number>;
  if (typeof mode === 'number' && xmin > 0) {
    const lo = xmin === xmax ? xmin / mode : xmin;
    const hi = xmin === xmax ? xmax * mode : xmax;
    x = scaleLog()
      .base(mode)
      .domain([lo, hi])
      .range([box.x + 8, box.x + box.w - 8]) as unknown as ScaleLinear<number, number>;
    ticks.x = logTicks(lo, hi, mode, Math.max(2, Math.floor(box.w / 56)));
  } else {
    const useLog = mode === 'auto' && xmin > 0 && xmax / xmin >= 100;
    x = (useLog ? scaleLog().domain([xmin, xmax]) : scaleLinear().domain([Math.min(0, xmin), xmax === xmin ? xmax + 1 : xmax]))
      .range([box.x + 8, box.x + box.w - 8])
      .nice() as unknown as ScaleLinear<number, number>;
  }
  let y: ScaleLinear<number, number>;
  if (opts.logY && ymin > 0) {
    const ly = scaleLog()
      .domain([ymin / 1.15, ymax * 1.15])
      .range([box.y + box.h, box.y])
      .nice();
    const [lo, hi] = ly.domain() as [number, number];
    y = ly as unknown as ScaleLinear<number, number>;
    ticks.y = logTicks(lo, hi, 10, 6);
  } else
    y = scaleLinear()
      .domain([Math.min(0, ...ys), Math.max(...ys) * 1.08 || 1])
      .range([box.y + box.h, box.y])
      .nice(5);
  axes(p, box, x, y, xLabel, yLabel, opts.yFormat, ticks);
  if (groups.length > 1) legendRow(p, groups, box.x, 12, box.w);
  for (const g of groups) {
    const pts = [...g.points].sort((a, b) => a[0] - b[0]);
    const gen = d3line<[number, number]>()
      .x((d) => x(d[0]))
      .y((d) => y(d[1]));
    p.path((ctx) => gen.context(ctx as never)(pts), { stroke: g.color, lineWidth: 2, ...(g.dash ? { dash: g.dash } : {}) });
    for (const [a, b] of pts) p.circle(x(a), y(b), 3.5, { fill: g.color, stroke: palette.canvas, lineWidth: 1 });
  }
}
