/**
 * `manycore guided list|run`: the guided experiments of @manycore/workloads (the same registry
 * as the web gallery). `run ID` runs every experiment of the entry (at most --jobs at once, each
 * on worker threads as `manycore fidelity` does; results do not depend on the order), prints
 * progress to stderr and the chart's points to stdout, and writes the rows of every run (with
 * the run index and the run's parameters) as JSON and CSV. An unknown ID is a usage error
 * naming the valid ones.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ExperimentInput, Row } from '@manycore/engine';
import { chartPoints, describeRun, guidedExperiments, resolvePaperPoints, sweepRows, type ChartPoint, type GuidedExperiment, type RunOutput } from '@manycore/workloads';
import { UsageError } from './args';
import { workerRunner, writeAtomically } from './io';
import type { GuidedArgs } from './guided-args';

export type GuidedRun = RunOutput;
export type RunOne = (experiment: ExperimentInput) => Promise<GuidedRun>;

export function entryOf(id: string): GuidedExperiment {
  const g = guidedExperiments.find((x) => x.id === id);
  if (!g) throw new UsageError(`guided run: unknown entry "${id}" (valid: ${guidedExperiments.map((x) => x.id).join(', ')})`);
  return g;
}

/** The lines of `manycore guided list`. */
export function listText(): string {
  const w = Math.max(...guidedExperiments.map((g) => g.id.length));
  return guidedExperiments.map((g) => `${g.id.padEnd(w)}  ${String(g.experiments.length).padStart(3)} run${g.experiments.length === 1 ? ' ' : 's'}  ${g.title}\n`).join('');
}

export function listJson(): string {
  return (
    JSON.stringify(
      guidedExperiments.map((g) => ({ id: g.id, title: g.title, runs: g.experiments.length, sweep: g.sweep?.param ?? null, summary: g.summary })),
      null,
      2,
    ) + '\n'
  );
}

/** Where `--out` puts the JSON and the CSV: a .json or .csv file and the other beside it, else a directory (default: the current one). */
export function outputPaths(id: string, out: string | undefined): { json: string; csv: string } {
  const o = out ?? '.';
  if (/\.json$/i.test(o)) return { json: o, csv: o.replace(/\.json$/i, '.csv') };
  if (/\.csv$/i.test(o)) return { json: o.replace(/\.csv$/i, '.json'), csv: o };
  return { json: join(o, `${id}.json`), csv: join(o, `${id}.csv`) };
}

function csvField(v: unknown): string {
  const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV of rows: the union of their fields in order of first appearance. */
export function toCsv(rows: readonly Row[]): string {
  const cols: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  return [cols.map(csvField).join(','), ...rows.map((r) => cols.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
}

/**
 * Runs every experiment of `entry`, at most `jobs` at once; `onRun(done, total, run index,
 * error?)` after each. Returns the outputs by run index (undefined where a run failed) and the errors.
 */
export async function runEntry(
  entry: GuidedExperiment,
  run: RunOne,
  jobs: number,
  onRun?: (done: number, total: number, index: number, error?: string) => void,
): Promise<{ outputs: (GuidedRun | undefined)[]; errors: { run: number; message: string }[] }> {
  const outputs: (GuidedRun | undefined)[] = new Array<GuidedRun | undefined>(entry.experiments.length);
  const errors: { run: number; message: string }[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= entry.experiments.length) return;
      let error: string | undefined;
      try {
        outputs[i] = await run(entry.experiments[i]!);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        errors.push({ run: i, message: error });
      }
      onRun?.(++done, entry.experiments.length, i, error);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, entry.experiments.length)) }, worker));
  errors.sort((a, b) => a.run - b.run);
  return { outputs, errors };
}

/** The JSON document `guided run` writes: the entry, each run, every row, and the chart's points. */
export function guidedDocument(entry: GuidedExperiment, outputs: (GuidedRun | undefined)[], errors: { run: number; message: string }[]) {
  const rows: Row[] = [];
  const lab: ChartPoint[] = [];
  const paperRows: ChartPoint[] = [];
  outputs.forEach((o, i) => {
    if (!o) return;
    const r = sweepRows(entry, i, o.rows);
    rows.push(...r);
    const p = chartPoints(entry, i, r);
    lab.push(...p.lab);
    paperRows.push(...p.paper);
  });
  const paper = [...resolvePaperPoints(entry.paper?.points ?? [], lab), ...paperRows];
  return {
    schema: 'manycore-guided/1',
    id: entry.id,
    title: entry.title,
    ...(entry.source ? { source: entry.source } : {}),
    ...(entry.sweep ? { sweep: entry.sweep } : {}),
    ...(entry.chart ? { chart: entry.chart } : {}),
    runs: entry.experiments.map((experiment, run) => {
      const o = outputs[run];
      const e = errors.find((x) => x.run === run);
      return { run, experiment, ...(o ? { digest: o.digest, wallMs: Math.round(o.wallMs), rows: o.rows.length } : {}), ...(e ? { error: e.message } : {}) };
    }),
    rows,
    points: { lab, paper, ...(entry.paper ? { paperSource: entry.paper.source } : {}) },
  };
}


function fmt(v: number): string {
  return Number(v.toPrecision(6)).toString();
}

/** The chart's points as text: x, series, lab value, and the paper's where it gives one. */
export function pointsText(entry: GuidedExperiment, doc: ReturnType<typeof guidedDocument>): string {
  if (!entry.chart) return `${doc.rows.length} row${doc.rows.length === 1 ? '' : 's'}\n`;
  const { x, y } = entry.chart;
  const lines = [`${x}  ${entry.chart.series ? 'series  ' : ''}${y}${doc.points.paper.length ? '  (paper)' : ''}`];
  for (const p of doc.points.lab) {
    const paper = doc.points.paper.find((q) => q.x === p.x && q.series === p.series);
    lines.push(`  ${String(p.x)}  ${p.series ? p.series + '  ' : ''}${fmt(p.y)}${paper ? `  (${fmt(paper.y)})` : ''}`);
  }
  for (const q of doc.points.paper) if (!doc.points.lab.some((p) => p.x === q.x && p.series === q.series)) lines.push(`  ${String(q.x)}  ${q.series ? q.series + '  ' : ''}-  (${fmt(q.y)})`);
  return lines.join('\n') + '\n';
}

export async function guided(args: GuidedArgs, runOne?: RunOne): Promise<void> {
  if (args.action === 'list') {
    process.stdout.write(args.json ? listJson() : listText());
    return;
  }
  const entry = entryOf(args.id!);
  const paths = outputPaths(entry.id, args.out);
  const cpus = availableParallelism();
  const jobs = args.jobs === 'auto' ? cpus : args.jobs;
  // each of the `jobs` runs at once gets its share of the CPUs for its worker layout, so runs
  // use the CPUs side by side instead of several runs' epoch barriers taking turns on them
  const run: RunOne = runOne ?? workerRunner(args.coresPerWorker, Math.max(1, Math.floor(cpus / Math.min(jobs, entry.experiments.length))));
  const t0 = performance.now();
  const tty = process.stderr.isTTY && !args.quiet;
  process.stderr.write(args.quiet ? '' : `${entry.title}: ${entry.experiments.length} run${entry.experiments.length === 1 ? '' : 's'}\n`);
  const { outputs, errors } = await runEntry(entry, run, jobs, (done, total, i, error) => {
    const line = `[${done}/${total}] ${((performance.now() - t0) / 1000).toFixed(0)} s  run ${i}: ${describeRun(entry, i)}${error ? `  FAILED: ${error}` : ''}`;
    if (tty) process.stderr.write('\r' + line.slice(0, (process.stderr.columns || 100) - 1) + '\x1b[K' + (error ? '\n' : ''));
    else if (!args.quiet) process.stderr.write(line + '\n');
  });
  if (tty) process.stderr.write('\r\x1b[2K');
  const doc = guidedDocument(entry, outputs, errors);
  writeAtomically(paths.json, JSON.stringify(doc, null, 2) + '\n');
  writeAtomically(paths.csv, toCsv(doc.rows));
  process.stdout.write(pointsText(entry, doc));
  process.stdout.write(`wrote ${paths.json} and ${paths.csv} (${doc.rows.length} rows of ${entry.experiments.length - errors.length} runs, ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  if (errors.length) {
    process.stderr.write(`manycore: ${errors.length} of ${entry.experiments.length} runs failed: ${errors.map((e) => `run ${e.run}: ${e.message}`).join('; ')}\n`);
    process.exitCode = 1;
  }
}
