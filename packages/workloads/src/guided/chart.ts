/**
 * From the rows of a guided entry's runs to one table and one chart, for the web gallery and the
 * CLI alike. Pure functions: rows in, rows and points out.
 */
import type { ExperimentInput, Row } from '@manycore/engine';
import type { GuidedExperiment, PaperPoint } from './types';

/** One point of a guided chart. `run` is the index of the run it came from (-1 for the paper's). */
export interface ChartPoint {
  x: number | string;
  y: number;
  series: string;
  run: number;
  /** the paper's points: what the paper says */
  label?: string;
}

/**
 * The rows of run `run` of `entry` as the sweep's table: the run index, then, when the entry's
 * runs use more than one chip preset (a comparison of chips), the run's preset as `chip`, then
 * the run's workload parameters that the row does not already give (so the swept parameter is
 * always there), then the row's own fields.
 */
export function sweepRows(entry: GuidedExperiment, run: number, rows: readonly Row[]): Row[] {
  const e = entry.experiments[run];
  const params = (e?.workload.params ?? {}) as Record<string, unknown>;
  const presetOf = (x: GuidedExperiment['experiments'][number] | undefined) => (x?.chip as { preset?: string } | undefined)?.preset ?? 'scc';
  const chips = new Set(entry.experiments.map(presetOf)).size > 1;
  return rows.map((row) => {
    const out: Row = { run };
    if (chips) out.chip = presetOf(e);
    for (const [k, v] of Object.entries(params)) if (!(k in row) && (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')) out[k] = v;
    for (const [k, v] of Object.entries(row)) out[k] = v;
    return out;
  });
}

function fieldsOf(series: string | string[] | undefined): string[] {
  return series === undefined ? [] : Array.isArray(series) ? series : [series];
}

function xOf(v: unknown): number | string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  return null;
}

/** The chart points of one run's sweep rows (see sweepRows), per the entry's chart hint. */
export function chartPoints(entry: GuidedExperiment, run: number, rows: readonly Row[]): { lab: ChartPoint[]; paper: ChartPoint[] } {
  const hint = entry.chart;
  if (!hint) return { lab: [], paper: [] };
  const seriesFields = fieldsOf(hint.series);
  const lab: ChartPoint[] = [];
  const paper: ChartPoint[] = [];
  const paperField = entry.paper?.rowField;
  const paperSource = entry.paper?.source ?? '';
  const groups = new Map<string, { x: number | string; series: string; sum: number; max: number; n: number }>();
  for (const row of rows) {
    const x = xOf(row[hint.x]);
    const y = row[hint.y];
    if (x === null || typeof y !== 'number' || !Number.isFinite(y)) continue;
    const series = seriesFields.map((f) => String(row[f] ?? '')).join(' ');
    if (hint.aggregate) {
      const key = JSON.stringify([x, series]);
      const g = groups.get(key) ?? { x, series, sum: 0, max: -Infinity, n: 0 };
      g.sum += y;
      g.max = Math.max(g.max, y);
      g.n++;
      groups.set(key, g);
    } else lab.push({ x, y, series, run });
    const p = paperField ? row[paperField] : undefined;
    if (typeof p === 'number' && Number.isFinite(p) && p > 0 && !paper.some((q) => q.x === x && q.series === series && q.y === p))
      paper.push({ x, y: p, series, run, label: `${typeof row.paper === 'string' ? row.paper : String(p)} (${paperSource})` });
  }
  for (const g of groups.values()) lab.push({ x: g.x, y: hint.aggregate === 'max' ? g.max : g.sum / g.n, series: g.series, run });
  return { lab, paper };
}

/**
 * The paper's fixed points in the chart's units: absolute ones as they are, relative ones once
 * the lab point they are relative to has arrived (the others are left out until then).
 */
export function resolvePaperPoints(points: readonly PaperPoint[], lab: readonly ChartPoint[]): ChartPoint[] {
  const out: ChartPoint[] = [];
  for (const p of points) {
    const series = p.series ?? '';
    if (!p.relativeTo) {
      out.push({ x: p.x, y: p.y, series, run: -1, label: p.label });
      continue;
    }
    const ax = p.relativeTo.x ?? p.x;
    const as = p.relativeTo.series ?? series;
    const anchor = lab.find((q) => q.x === ax && q.series === as);
    if (anchor) out.push({ x: p.x, y: p.y * anchor.y, series, run: -1, label: p.label });
  }
  return out;
}

/** The chip preset an entry is about, for grouping: the first preset of its runs that is not the SCC's, else 'scc'. */
export function chipOf(entry: GuidedExperiment): string {
  for (const e of entry.experiments) {
    const preset = (e.chip as { preset?: string } | undefined)?.preset ?? 'scc';
    if (preset !== 'scc') return preset;
  }
  return 'scc';
}

/** Workload family headings of the gallery, by workload name. */
const FAMILIES: Record<string, string> = {
  memtest: 'Memory and caches',
  'l1-stream': 'Memory and caches',
  'stale-read': 'Memory and caches',
  'mpb-pingpong': 'Message passing (MPB, RCCE)',
  'rcce-pair': 'Message passing (MPB, RCCE)',
  'rcce-bcast': 'Message passing (MPB, RCCE)',
  'socket-pingpong': 'Message passing (MPB, RCCE)',
  'mpi-sweep': 'MPI (RCKMPI channels)',
  'dvfs-kernels': 'Power and DVFS',
  pipeline: 'Pipeline and shared DRAM',
  'dram-hops': 'Pipeline and shared DRAM',
  'nbody-ring': 'SICSA challenge (n-body, concordance)',
  concordance: 'SICSA challenge (n-body, concordance)',
  'latency-ladder': 'TILE64',
  'tile-messages': 'TILE64',
};

/** The gallery heading of an entry: its chip when not the SCC, else its workload family. */
export function familyOf(entry: GuidedExperiment): string {
  // an entry that switches a protocol bug on (guided/bugs.ts)
  const bugOn = (e: ExperimentInput) => {
    const bug = (e.workload.params as Record<string, unknown> | undefined)?.bug;
    return bug !== undefined && bug !== 'none';
  };
  if (entry.experiments.some(bugOn)) return 'Break the protocol';
  const chip = chipOf(entry);
  if (chip === 'mesh') return 'Big meshes';
  if (chip === 'tile64') return 'TILE64';
  return FAMILIES[String(entry.experiments[0]?.workload.name)] ?? 'Other';
}

/** A short description of one run for progress lines: the swept value, else its parameters. */
export function describeRun(entry: GuidedExperiment, run: number): string {
  const e: ExperimentInput | undefined = entry.experiments[run];
  if (!e) return '';
  const params = (e.workload.params ?? {}) as Record<string, unknown>;
  if (entry.sweep && entry.experiments.every((x) => x.workload.name === e.workload.name)) {
    const others = Object.entries(params).filter(([k, v]) => k !== entry.sweep!.param && entry.experiments.some((x) => (x.workload.params as Record<string, unknown>)?.[k] !== v));
    const preset = (x: ExperimentInput) => (x.chip as { preset?: string } | undefined)?.preset ?? 'scc';
    const on = entry.experiments.some((x) => preset(x) !== preset(e)) ? ` on ${preset(e)}` : '';
    return [`${entry.sweep.param}=${String(params[entry.sweep.param])}`, ...others.map(([k, v]) => `${k}=${String(v)}`)].join(', ') + on;
  }
  const chip = e.chip as { preset?: string; overrides?: { mesh?: { width?: number; height?: number } } } | undefined;
  const mesh = chip?.overrides?.mesh ? ` on ${chip.overrides.mesh.width}x${chip.overrides.mesh.height} tiles` : '';
  return `${String(e.workload.name)} ${Object.entries(params).map(([k, v]) => `${k}=${String(v)}`).join(', ')}${mesh}`.trim();
}
