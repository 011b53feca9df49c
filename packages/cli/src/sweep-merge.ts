/**
 * Merging a sweep's results into one table (DIR/rows.json and DIR/rows.csv), and deciding
 * whether a results file is a finished result of its point. Pure: the caller reads the files.
 *
 * A merged row is, in this order: `point` (the index), one column per varied path (named by
 * the path, e.g. `workload.params.hops`), `status`, `pointDigest` (the point's results digest)
 * and the workload row's fields (a field named like one of those is kept as `row.NAME`). Rows
 * come from finished points only, by point index and then in the workload's order; a point
 * that failed or has not run yet is one row with its values and `status` failed / missing,
 * and rows.json lists them. Nothing host-dependent (wall time, workers) is merged, so a sweep
 * run locally and the same sweep run as a Slurm array merge to identical files.
 */
import type { Row } from '@manycore/engine';
import { toCsv } from './guided';
import { canonical, type SweepSpec } from './sweep-spec';

export const ROWS_SCHEMA = 'manycore-sweep-rows/1';

/** What is on disk for one point. */
export type PointState =
  | { status: 'ok'; digest: string; rows: readonly Row[] }
  | { status: 'failed'; error: string }
  | { status: 'missing' };

/**
 * Whether `text` (a results file) is a finished result of the point whose normalised
 * experiment is `experiment`: JSON with the results schema, a digest, the workload's rows, and
 * the same experiment. Returns the state, or the reason it is not one.
 */
export function checkResult(text: string, experiment: unknown): { ok: true; digest: string; rows: Row[] } | { ok: false; reason: string } {
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${(err as Error).message})` };
  }
  const o = r as { schema?: unknown; digest?: unknown; experiment?: unknown; workload?: { rows?: unknown } } | null;
  if (!o || typeof o !== 'object') return { ok: false, reason: 'not a results object' };
  if (o.schema !== 'manycore-results/1') return { ok: false, reason: `schema ${JSON.stringify(o.schema)} is not manycore-results/1` };
  if (typeof o.digest !== 'string' || !Array.isArray(o.workload?.rows)) return { ok: false, reason: 'no digest or no workload rows' };
  if (canonical(o.experiment) !== canonical(experiment)) return { ok: false, reason: "its experiment is not this point's" };
  return { ok: true, digest: o.digest, rows: o.workload.rows as Row[] };
}

const SWEEP_FIELDS = ['point', 'status', 'pointDigest'];

/** The merged rows and the rows.json document. */
export function mergeRows(spec: SweepSpec, states: readonly PointState[]) {
  const paths = spec.vary.map((v) => v.path);
  const reserved = new Set([...SWEEP_FIELDS, ...paths]);
  const rows: Row[] = [];
  const failed: number[] = [];
  const missing: number[] = [];
  for (const p of spec.points) {
    const s = states[p.index] ?? { status: 'missing' };
    const head: Row = { point: p.index };
    for (const path of paths) head[path] = p.values[path] as Row[string];
    head.status = s.status;
    if (s.status !== 'ok') {
      (s.status === 'failed' ? failed : missing).push(p.index);
      rows.push(head);
      continue;
    }
    for (const r of s.rows) {
      const row: Row = { ...head, pointDigest: s.digest };
      for (const [k, v] of Object.entries(r)) row[reserved.has(k) ? `row.${k}` : k] = v;
      rows.push(row);
    }
  }
  const doc = {
    schema: ROWS_SCHEMA,
    points: spec.points.length,
    finished: spec.points.length - failed.length - missing.length,
    failed,
    missing,
    vary: spec.vary,
    rows,
  };
  return { doc, json: JSON.stringify(doc, null, 2) + '\n', csv: toCsv(rows) };
}
