/** Picking chart axes for a workload's result rows, whatever the workload. */
import { plural } from './format';
export type RowRecord = Record<string, unknown>;

export interface Axes {
  x: string | null;
  y: string | null;
  group: string | null;
  numeric: string[];
  categorical: string[];
}

const Y_TIME = /(ns|us|ms|time|latency|trip)$/i;
const Y_OTHER = /(w|watts|gbps|rate|seen)$/i;

export function chooseAxes(rows: readonly RowRecord[]): Axes {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of rows)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
  const numeric = keys.filter((k) => rows.every((r) => r[k] === undefined || (typeof r[k] === 'number' && Number.isFinite(r[k]))));
  const categorical = keys.filter((k) => !numeric.includes(k) && rows.every((r) => ['string', 'boolean', 'undefined'].includes(typeof r[k])));
  const x = numeric[0] ?? null;
  const rest = numeric.filter((k) => k !== x);
  const y = rest.find((k) => Y_TIME.test(k)) ?? rest.find((k) => Y_OTHER.test(k)) ?? rest[0] ?? null;
  return { x, y, group: categorical[0] ?? null, numeric, categorical };
}

/** Points of y against x, one group per distinct value of `group`. */
export function groupPoints(rows: readonly RowRecord[], x: string, y: string, group: string | null): { label: string; points: [number, number][] }[] {
  const out = new Map<string, [number, number][]>();
  for (const r of rows) {
    const xv = r[x];
    const yv = r[y];
    if (typeof xv !== 'number' || typeof yv !== 'number') continue;
    const g = group ? `${group}=${String(r[group])}` : y;
    if (!out.has(g)) out.set(g, []);
    out.get(g)!.push([xv, yv]);
  }
  return [...out.entries()].map(([label, points]) => ({ label, points }));
}

/** What a workload says to plot of its rows by default (WorkloadDef.chart). */
export interface ChartSpec {
  x: string;
  y: string;
  series?: string;
  logX?: boolean;
  logY?: boolean;
}

export interface ChartAxes extends Axes {
  /** Whether x and y are the workload's declared ones. */
  declared: boolean;
  logX: boolean | undefined;
  logY: boolean;
}

/**
 * The axes to draw by default: the workload's declared chart when its x and y are numeric
 * columns of these rows (group: its series column, or none), else chooseAxes' guess.
 */
export function axesFor(rows: readonly RowRecord[], spec?: ChartSpec | null): ChartAxes {
  const auto = chooseAxes(rows);
  if (spec && auto.numeric.includes(spec.x) && auto.numeric.includes(spec.y)) {
    const hasSeries = spec.series !== undefined && rows.some((r) => r[spec.series!] !== undefined);
    return { ...auto, x: spec.x, y: spec.y, group: hasSeries ? spec.series! : null, declared: true, logX: spec.logX, logY: spec.logY ?? false };
  }
  return { ...auto, declared: false, logX: undefined, logY: false };
}

/** Dash patterns that tell series apart where their lines overlap (solid first). */
export const SERIES_DASHES: readonly (readonly number[])[] = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [1, 5]];

export function seriesDash(i: number): number[] {
  return [...SERIES_DASHES[i % SERIES_DASHES.length]!];
}

/**
 * Groups of series whose points coincide (same x values, y within `rel` of the chart's y
 * range): drawn on top of each other they would hide each other, so the chart says so.
 */
export function coincidentSeries(groups: readonly { label: string; points: readonly (readonly [number, number])[] }[], rel = 0.005): string[][] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const g of groups)
    for (const [, y] of g.points) {
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  const tol = Math.max((hi - lo) * rel, Math.abs(hi) * 1e-9, 0);
  const key = (g: (typeof groups)[number]) => [...g.points].sort((a, b) => a[0] - b[0]);
  const sorted = groups.map(key);
  const same = (a: readonly (readonly [number, number])[], b: readonly (readonly [number, number])[]) =>
    a.length > 0 && a.length === b.length && a.every((p, i) => p[0] === b[i]![0] && Math.abs(p[1] - b[i]![1]) <= tol);
  const used = new Set<number>();
  const out: string[][] = [];
  for (let i = 0; i < groups.length; i++) {
    if (used.has(i)) continue;
    const set = [groups[i]!.label];
    for (let j = i + 1; j < groups.length; j++)
      if (!used.has(j) && same(sorted[i]!, sorted[j]!)) {
        used.add(j);
        set.push(groups[j]!.label);
      }
    if (set.length > 1) out.push(set);
  }
  return out;
}

/** The note under a table cut at its first rows: "1 more row in the CSV export." */
export function moreRowsNote(more: number): string {
  return `${more} ${plural(more, 'more row')} in the CSV export.`;
}
