/**
 * The message-passing and DVFS charts' data: the finished runs of this session (one run of
 * dvfs-kernels or rcce-pair is one point of its trend, so each chart collects the runs of its
 * workload as they finish) turned into lines. Pure: records in, series out.
 */
import type { Results } from '@manycore/engine';

export type RowRecord = Record<string, unknown>;

export interface RunRecord {
  digest: string;
  workload: string;
  params: Record<string, unknown>;
  rows: RowRecord[];
  /** Chip power over the whole run (simulated.chip.avgPowerW). */
  avgPowerW: number;
}

export function recordOf(r: Results): RunRecord {
  return { digest: r.digest, workload: r.workload.name, params: r.workload.params, rows: r.workload.rows as RowRecord[], avgPowerW: r.simulated.chip.avgPowerW };
}

export interface Series {
  label: string;
  points: [number, number][];
  /** The series holds a point of the current run. */
  current: boolean;
}

const numOf = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Groups points by key in first-seen order; a later record's point at the same x replaces an
 * earlier one (re-running an experiment does not stack duplicates); points sorted by x.
 */
function collect(records: readonly RunRecord[], current: string | null, each: (rec: RunRecord, add: (key: string, x: number | null, y: number | null) => void) => void): Series[] {
  const groups = new Map<string, { pts: Map<number, number>; current: boolean }>();
  for (const rec of records)
    each(rec, (key, x, y) => {
      if (x === null || y === null) return;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { pts: new Map(), current: false }));
      g.pts.set(x, y);
      if (rec.digest === current) g.current = true;
    });
  return [...groups.entries()].map(([label, g]) => ({ label, current: g.current, points: [...g.pts.entries()].sort((a, b) => a[0] - b[0]) }));
}

export const SWEEP_Y = ['latencyNs', 'sectionReads', 'packets'] as const;
export type SweepY = (typeof SWEEP_Y)[number];

/** mpi-sweep: a row field against the message size, one line per op, channel and process count (sizes > 0 only: log axis). */
export function sweepSeries(records: readonly RunRecord[], y: SweepY, current: string | null): Series[] {
  return collect(records, current, (rec, add) => {
    if (rec.workload !== 'mpi-sweep') return;
    for (const r of rec.rows) {
      const bytes = numOf(r.bytes);
      add(`${String(r.op)} · ${String(r.channel)} · ${String(r.processes)} procs`, bytes !== null && bytes > 0 ? bytes : null, numOf(r[y]));
    }
  });
}

export const DVFS_Y = ['gflopsPerW', 'kernelTimeNs', 'cycles', 'avgPowerW', 'gflops'] as const;
export type DvfsY = (typeof DVFS_Y)[number];

/** dvfs-kernels: a row field against the clock divisor, one line per kernel. */
export function dvfsSeries(records: readonly RunRecord[], y: DvfsY, current: string | null): Series[] {
  return collect(records, current, (rec, add) => {
    if (rec.workload !== 'dvfs-kernels') return;
    for (const r of rec.rows) add(String(r.kernel), numOf(r.divisor), numOf(r[y]));
  });
}

export const POWER_Y = ['chipPowerW', 'powerW'] as const;
export type PowerY = (typeof POWER_Y)[number];

/** Active cores of an rcce-pair run: two per pair. */
export function activeCores(params: Record<string, unknown>, rows: readonly RowRecord[]): number | null {
  const pairs = numOf(rows[0]?.pairs) ?? numOf(params.pairs);
  return pairs === null ? null : 2 * pairs;
}

/**
 * rcce-pair: chip power against the active cores, one line per benchmark and hop distance.
 * chipPowerW = the whole run's average; powerW = over the timed rounds only.
 */
export function powerSeries(records: readonly RunRecord[], y: PowerY, current: string | null): Series[] {
  return collect(records, current, (rec, add) => {
    if (rec.workload !== 'rcce-pair' || rec.rows.length === 0) return;
    const r = rec.rows[0]!;
    const w = numOf(r[y]) ?? (y === 'chipPowerW' ? rec.avgPowerW : null);
    const hops = r.hops ?? rec.params.hops;
    add(`${String(r.benchmark ?? rec.params.benchmark)}, ${String(hops)} ${hops === 1 ? 'hop' : 'hops'}`, activeCores(rec.params, rec.rows), w);
  });
}
