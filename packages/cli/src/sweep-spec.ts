/**
 * The grid of a `manycore sweep`: parsing `--vary PATH=V1,V2,...`, the points (the cartesian
 * product of the varied values over one base experiment), their validation, and the spec
 * document (`DIR/sweep.json`) that resuming compares. Pure: no I/O and no simulation.
 *
 * Order: the first `--vary` varies slowest and the last fastest (nested loops in the order the
 * flags were given); point i's values are the mixed-radix digits of i. A PATH is a dotted path
 * into the experiment JSON (`workload.params.hops`, `quantumNs`, `chip.overrides.mesh.width`);
 * missing objects on the way are created, and whether the leaf exists is the experiment
 * schema's and the workload's business (every point goes through `prepareRun` before anything
 * runs, and a bad point is a UsageError naming the point, its values and the problem).
 */
import { ExperimentError, parseExperiment, prepareRun, type Experiment } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { parseValue, UsageError } from './args';

export const SWEEP_SCHEMA = 'manycore-sweep/1';
export const SWEEP_ORDER = 'cartesian product; the first --vary varies slowest, the last fastest';

/** One `--vary`: a dotted path and its values in the order given. */
export interface Vary {
  path: string;
  values: unknown[];
}

/** One point of the grid. */
export interface SweepPoint {
  index: number;
  /** the varied path -> this point's value */
  values: Record<string, unknown>;
  /** the normalised experiment of this point (what `manycore run --experiment` runs) */
  experiment: Experiment;
}

/** DIR/sweep.json. */
export interface SweepSpec {
  schema: typeof SWEEP_SCHEMA;
  /** `manycore --version` of the CLI that wrote it (recorded; not part of the identity) */
  cli: string;
  order: string;
  base: Experiment;
  vary: Vary[];
  points: { index: number; values: Record<string, unknown>; file: string }[];
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function checkPath(path: string, flag: string): string[] {
  const parts = path.split('.');
  if (path.trim() === '' || parts.some((p) => p === '' || FORBIDDEN.has(p)))
    throw new UsageError(`${flag}: bad path "${path}" (expected a dotted path into the experiment JSON, e.g. workload.params.hops)`);
  if (parts[0] === 'version') throw new UsageError(`${flag}: the experiment's version cannot be varied`);
  return parts;
}

/** Parses one `--vary PATH=V1,V2,...`; values are JSON when they parse (numbers, booleans), else text. */
export function parseVary(text: string | undefined): Vary {
  if (text === undefined || text.trim() === '') throw new UsageError('--vary needs PATH=V1,V2,... (e.g. workload.params.hops=1,2,3)');
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--vary ${text}: expected PATH=V1,V2,...`);
  const path = text.slice(0, eq).trim();
  checkPath(path, `--vary ${path}`);
  const raw = text.slice(eq + 1).split(',');
  const values: unknown[] = [];
  const seen = new Set<string>();
  raw.forEach((v, i) => {
    const t = v.trim();
    if (t === '') throw new UsageError(`--vary ${path}: value ${i + 1} of ${raw.length} is empty`);
    const value = parseValue(t);
    const key = JSON.stringify(value);
    if (seen.has(key)) throw new UsageError(`--vary ${path}: value ${t} is given twice`);
    seen.add(key);
    values.push(value);
  });
  return { path, values };
}

/** Checks a list of `--vary` for a path given twice, or one path inside another. */
export function checkVaries(varies: readonly Vary[]): void {
  if (varies.length === 0) throw new UsageError('sweep: at least one --vary PATH=V1,V2,... is needed');
  for (let i = 0; i < varies.length; i++)
    for (let j = 0; j < i; j++) {
      const a = varies[j]!.path;
      const b = varies[i]!.path;
      if (a === b) throw new UsageError(`--vary ${b}: the path is varied twice (give all its values in one --vary)`);
      if (b.startsWith(a + '.') || a.startsWith(b + '.')) throw new UsageError(`--vary ${b}: overlaps --vary ${a} (one is inside the other)`);
    }
}

/** A deep copy of plain JSON data. */
function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Sets `path` in a copy of `base` to `value`, creating objects on the way; a non-object on the way is a UsageError. */
export function withPath(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const parts = checkPath(path, `--vary ${path}`);
  const out = clone(base);
  let obj: Record<string, unknown> | unknown[] = out;
  for (let k = 0; k < parts.length - 1; k++) {
    const p = parts[k]!;
    let next = (obj as Record<string, unknown>)[p];
    if (next === undefined) {
      next = {};
      (obj as Record<string, unknown>)[p] = next;
    } else if (typeof next !== 'object' || next === null)
      throw new UsageError(`--vary ${path}: ${parts.slice(0, k + 1).join('.')} is ${JSON.stringify(next)} in the experiment, not an object`);
    obj = next as Record<string, unknown>;
  }
  const leaf = parts[parts.length - 1]!;
  if (Array.isArray(obj) && !(/^\d+$/.test(leaf) && Number(leaf) < obj.length))
    throw new UsageError(`--vary ${path}: ${parts.slice(0, -1).join('.')} is a list of ${obj.length}; "${leaf}" is not an index in it`);
  (obj as Record<string, unknown>)[leaf] = clone(value);
  return out;
}

/** Number of points of the grid. */
export function gridSize(varies: readonly Vary[]): number {
  return varies.reduce((n, v) => n * v.values.length, 1);
}

/** The values of point `index` (mixed radix, the last --vary fastest). */
export function pointValues(varies: readonly Vary[], index: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let rest = index;
  for (let k = varies.length - 1; k >= 0; k--) {
    const v = varies[k]!;
    out[v.path] = v.values[rest % v.values.length];
    rest = Math.floor(rest / v.values.length);
  }
  // in --vary order
  return Object.fromEntries(varies.map((v) => [v.path, out[v.path]]));
}

/** "workload.params.hops=3, workload.params.bytes=64" */
export function describeValues(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([p, v]) => `${p}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

/** The file name of point `index`: 0000.json (as `printf %04d` gives it). */
export function pointFile(index: number): string {
  return `${String(index).padStart(4, '0')}.json`;
}

/** Parses the base experiment (schema only: a point may be what makes it runnable); a problem names the file. */
export function parseBase(input: unknown, file: string): Experiment {
  try {
    return parseExperiment(input);
  } catch (err) {
    if (err instanceof ExperimentError) throw new UsageError(`--experiment ${file}: ${err.message}`);
    throw err;
  }
}

/**
 * Every point of the grid, each validated with `prepareRun` (the experiment schema, the chip
 * config, the workload's parameters and its placement on the chip). Throws a UsageError naming
 * the first bad points (at most 5) with their values and the problem.
 */
export function buildPoints(base: Experiment, varies: readonly Vary[], maxPoints = 100_000): SweepPoint[] {
  checkVaries(varies);
  const n = gridSize(varies);
  if (n > maxPoints) throw new UsageError(`sweep: ${n} points is more than ${maxPoints}; split the sweep`);
  const points: SweepPoint[] = [];
  const bad: string[] = [];
  let badCount = 0;
  for (let i = 0; i < n; i++) {
    const values = pointValues(varies, i);
    try {
      let input = base as unknown as Record<string, unknown>;
      for (const [path, value] of Object.entries(values)) input = withPath(input, path, value);
      const experiment = prepareRun(input, workloads).experiment;
      points.push({ index: i, values, experiment });
    } catch (err) {
      if (!(err instanceof ExperimentError || err instanceof UsageError)) throw err;
      badCount++;
      if (bad.length < 5) bad.push(`point ${i} (${describeValues(values)}): ${err.message.replace(/\n/g, '; ')}`);
    }
  }
  if (badCount > 0)
    throw new UsageError(
      `sweep: ${badCount} of ${n} points ${badCount === 1 ? 'is not a valid experiment' : 'are not valid experiments'} (nothing was run):\n  ${bad.join('\n  ')}${badCount > bad.length ? `\n  ... and ${badCount - bad.length} more` : ''}`,
    );
  return points;
}

/** The spec document of a sweep (DIR/sweep.json). */
export function sweepSpec(base: Experiment, varies: readonly Vary[], points: readonly SweepPoint[], cli: string): SweepSpec {
  return {
    schema: SWEEP_SCHEMA,
    cli,
    order: SWEEP_ORDER,
    base,
    vary: varies.map((v) => ({ path: v.path, values: [...v.values] })),
    points: points.map((p) => ({ index: p.index, values: p.values, file: `points/${pointFile(p.index)}` })),
  };
}

/** Canonical JSON (object keys sorted) for comparing specs whatever the key order on disk. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * Whether an existing sweep.json describes the same sweep as `spec` (same base experiment and
 * the same varied paths and values in the same order); returns the first difference, or
 * undefined when they are the same. The CLI version is not compared.
 */
export function specDifference(existing: unknown, spec: SweepSpec): string | undefined {
  if (existing === null || typeof existing !== 'object') return 'it is not a sweep spec';
  const e = existing as Partial<SweepSpec>;
  if (e.schema !== SWEEP_SCHEMA) return `its schema is ${JSON.stringify(e.schema)}, not ${SWEEP_SCHEMA}`;
  if (canonical(e.base) !== canonical(spec.base)) return 'the base experiment differs';
  const ev = Array.isArray(e.vary) ? e.vary : [];
  if (ev.map((v) => v.path).join(' ') !== spec.vary.map((v) => v.path).join(' '))
    return `it varies ${ev.map((v) => v.path).join(', ') || 'nothing'}, this sweep varies ${spec.vary.map((v) => v.path).join(', ')}`;
  for (const [k, v] of spec.vary.entries())
    if (canonical(ev[k]!.values) !== canonical(v.values)) return `the values of ${v.path} differ (${JSON.stringify(ev[k]!.values)} there, ${JSON.stringify(v.values)} here)`;
  return undefined;
}
