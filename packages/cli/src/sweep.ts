/**
 * `manycore sweep`: a grid of parameter values over one experiment, run on a local pool (at
 * most --jobs points at once, each a simulation on worker threads), resumable, merged into
 * DIR/rows.json and DIR/rows.csv; or, with --emit slurm|k8s, written out as a Slurm job array
 * or a Kubernetes Indexed Job instead of run.
 *
 * DIR: sweep.json (the spec, sweep-spec.ts), points/NNNN.json (each point's experiment),
 * results/NNNN.json (its `manycore run --out` results JSON, written atomically when the point
 * succeeds), results/NNNN.error.txt (why it failed), rows.json / rows.csv (sweep-merge.ts).
 * Resume rule: a DIR whose sweep.json is the same spec keeps every point whose results file
 * is a finished result of that point and runs the others (failed ones again); a DIR holding a
 * different spec, or files but no sweep.json, is a UsageError (nothing is overwritten).
 * Every point is validated before anything is written or run. Outcome: exit 1 when a point
 * failed (the others still run; rows merge from the finished ones); on abort (SIGINT) the
 * points in flight are abandoned, finished ones stay, and the message says how to resume.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Simulation, type Experiment, type Results } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { nodeHost } from '@manycore/workers/node-host';
import { UsageError } from './args';
import { K8S_DEFAULT_CLAIM, K8S_DEFAULT_IMAGE, k8sManifest, pointText, shq, slurmScript } from './emit';
import { writeAtomically } from './io';
import { checkResult, mergeRows, type PointState } from './sweep-merge';
import { buildPoints, describeValues, parseBase, pointFile, specDifference, sweepSpec, type SweepPoint, type SweepSpec } from './sweep-spec';
import type { SweepArgs } from './sweep-args';
import { versionText } from './version';

/** Runs one point's experiment; `abandon` stops it (its promise may then reject). */
export type RunPoint = (experiment: Experiment) => { results: Promise<Results>; abandon: () => void };

export interface SweepDeps {
  runPoint?: RunPoint;
  /** aborting abandons the points in flight and returns (interrupted) */
  signal?: AbortSignal;
  /** progress and messages (default: stderr) */
  log?: (text: string) => void;
  /** whether progress redraws one line (default: stderr is a TTY and not --quiet) */
  tty?: boolean;
  now?: () => number;
}

export interface SweepOutcome {
  total: number;
  kept: number;
  ran: number;
  failed: number[];
  interrupted: boolean;
  /** points with neither results nor an error (after --merge or an interruption) */
  missing: number;
  /** what was written for a scheduler (--emit) */
  emitted?: string;
}

/** The default runner: the CLI's bundled worker, the host's CPUs shared among the jobs. */
export function workerPointRunner(hostCpus: number): RunPoint {
  const workerUrl = new URL('./worker.mjs', import.meta.url);
  return (experiment) => {
    const host = nodeHost(workerUrl);
    return {
      results: new Simulation(experiment, workloads, { coresPerWorker: 'auto', hostCpus }).start(host),
      abandon: () => host.terminateAll?.(),
    };
  };
}

function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${what} ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} ${file}: not valid JSON (${(err as Error).message})`);
  }
}

const resultsFile = (dir: string, i: number) => join(dir, 'results', pointFile(i));
const errorFile = (dir: string, i: number) => join(dir, 'results', pointFile(i).replace(/\.json$/, '.error.txt'));

/** What is on disk for each point (a results file that is not a finished result of its point counts as missing). */
export function pointStates(dir: string, points: readonly SweepPoint[], onStale?: (index: number, reason: string) => void): PointState[] {
  return points.map((p) => {
    const rf = resultsFile(dir, p.index);
    if (existsSync(rf)) {
      const c = checkResult(readFileSync(rf, 'utf8'), p.experiment);
      if (c.ok) return { status: 'ok', digest: c.digest, rows: c.rows };
      onStale?.(p.index, c.reason);
    }
    const ef = errorFile(dir, p.index);
    if (existsSync(ef)) return { status: 'failed', error: readFileSync(ef, 'utf8').trim() };
    return { status: 'missing' };
  });
}

/**
 * Makes DIR hold this spec: a new or empty DIR gets sweep.json and the points; a DIR with the
 * same spec is resumed (its sweep.json is kept); anything else is a UsageError.
 * Returns whether DIR already held this sweep.
 */
export function prepareDir(dir: string, spec: SweepSpec, points: readonly SweepPoint[]): boolean {
  const specFile = join(dir, 'sweep.json');
  let resumed = false;
  if (existsSync(specFile)) {
    const diff = specDifference(readJsonFile(specFile, '--out'), spec);
    if (diff)
      throw new UsageError(`--out ${dir} holds a different sweep (${diff}); give another --out, or remove ${dir} to start this sweep there (nothing was changed)`);
    resumed = true;
  } else if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new UsageError(`--out ${dir} is not empty and holds no sweep.json; give a new or empty directory (nothing was changed)`);
  }
  if (!resumed) writeAtomically(specFile, JSON.stringify(spec, null, 2) + '\n');
  mkdirSync(join(dir, 'results'), { recursive: true });
  for (const p of points) {
    const file = join(dir, 'points', pointFile(p.index));
    const text = pointText(p);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeAtomically(file, text);
  }
  return resumed;
}

/** Merges DIR's finished points into rows.json and rows.csv; returns the document. */
export function writeMerged(dir: string, spec: SweepSpec, states: readonly PointState[]) {
  const m = mergeRows(spec, states);
  writeAtomically(join(dir, 'rows.json'), m.json);
  writeAtomically(join(dir, 'rows.csv'), m.csv);
  return m.doc;
}

function duration(ms: number): string {
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** One progress line: bar, points done / total, failures, elapsed, estimate. */
export function progressText(done: number, total: number, failed: number, elapsedMs: number, ranDone: number, left: number, width = 20): string {
  const filled = total ? Math.round((done / total) * width) : width;
  const eta = ranDone > 0 && left > 0 ? `, about ${duration((elapsedMs / ranDone) * left)} left` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} points, ${failed} failed, ${duration(elapsedMs)}${eta}`;
}

/** `manycore sweep --merge DIR`. */
async function mergeOnly(args: SweepArgs, log: (t: string) => void): Promise<SweepOutcome> {
  const dir = args.out;
  const raw = readJsonFile(join(dir, 'sweep.json'), '--merge') as SweepSpec;
  const base = parseBase(raw.base, join(dir, 'sweep.json'));
  const points = buildPoints(base, raw.vary ?? []);
  const spec = sweepSpec(base, raw.vary, points, raw.cli);
  const diff = specDifference(raw, spec);
  if (diff) throw new UsageError(`--merge ${dir}: sweep.json is not consistent (${diff})`);
  const states = pointStates(dir, points, (i, reason) => log(`point ${i}: results/${pointFile(i)} is not a finished result (${reason})\n`));
  const doc = writeMerged(dir, spec, states);
  log(mergedLine(dir, doc));
  return { total: points.length, kept: doc.finished, ran: 0, failed: doc.failed, interrupted: false, missing: doc.missing.length };
}

function mergedLine(dir: string, doc: ReturnType<typeof writeMerged>): string {
  const gaps = [...(doc.failed.length ? [`failed: ${list(doc.failed)}`] : []), ...(doc.missing.length ? [`missing: ${list(doc.missing)}`] : [])];
  return `wrote ${join(dir, 'rows.json')} and ${join(dir, 'rows.csv')}: ${doc.rows.filter((r) => r.status === 'ok').length} rows of ${doc.finished}/${doc.points} points${gaps.length ? ` (${gaps.join('; ')})` : ''}\n`;
}

function list(ix: readonly number[]): string {
  return ix.length > 12 ? `${ix.slice(0, 12).join(', ')}, ... (${ix.length})` : ix.join(', ');
}

/** The default command that runs this CLI in emitted Slurm work: this node and this CLI's entry, absolute. */
export function defaultManycoreCommand(): string {
  return `${shq(process.execPath)} ${shq(resolve(process.argv[1] ?? 'manycore'))}`;
}

export async function sweep(args: SweepArgs, deps: SweepDeps = {}): Promise<SweepOutcome> {
  const log = deps.log ?? ((t: string) => void process.stderr.write(t));
  const now = deps.now ?? (() => performance.now());
  if (args.merge) return mergeOnly(args, log);
  const dir = args.out;
  const file = args.experimentFile!;
  const base = parseBase(readJsonFile(file, '--experiment'), file);
  const points = buildPoints(base, args.vary);
  const spec = sweepSpec(base, args.vary, points, versionText().trim());
  const resumed = prepareDir(dir, spec, points);
  const states = pointStates(dir, points, (i, reason) => log(`point ${i}: results/${pointFile(i)} is not a finished result of it (${reason}); running it again\n`));
  const todo = points.filter((p) => states[p.index]!.status !== 'ok');
  const kept = points.length - todo.length;

  if (args.emit) {
    const abs = resolve(dir);
    let target: string;
    if (args.emit === 'slurm') {
      mkdirSync(join(dir, 'logs'), { recursive: true });
      target = join(dir, 'slurm.sbatch');
      writeAtomically(target, slurmScript(spec, abs, args.manycore ?? defaultManycoreCommand()));
      log(`wrote ${target}: a job array of ${points.length} tasks${kept ? ` (${kept} points already have results)` : ''}\nsubmit: sbatch ${shq(target)}; then merge: manycore sweep --merge ${shq(dir)}\n`);
    } else {
      target = join(dir, 'job.yaml');
      const opts = { image: args.image ?? K8S_DEFAULT_IMAGE, parallelism: args.parallelism ?? Math.min(points.length, 8), resultsClaim: args.resultsClaim ?? K8S_DEFAULT_CLAIM, manycore: args.manycore ?? 'manycore' };
      writeAtomically(target, k8sManifest(spec, points, opts));
      log(`wrote ${target}: an Indexed Job of ${points.length} completions (image ${opts.image}, results on claim ${opts.resultsClaim})\napply: kubectl apply -f ${shq(target)}; copy the results into ${join(dir, 'results')}/ and merge: manycore sweep --merge ${shq(dir)}\n`);
    }
    return { total: points.length, kept, ran: 0, failed: [], interrupted: false, missing: todo.length, emitted: target };
  }

  const cpus = availableParallelism();
  const jobs = Math.max(1, Math.min(args.jobs === 'auto' ? cpus : args.jobs, todo.length || 1));
  const runPoint = deps.runPoint ?? workerPointRunner(Math.max(1, Math.floor(cpus / jobs)));
  const tty = deps.tty ?? (process.stderr.isTTY && !args.quiet);
  const say = (t: string) => {
    if (!args.quiet || tty) log(t);
  };
  say(
    `sweep: ${points.length} points (${spec.vary.map((v) => `${v.path}: ${v.values.length}`).join(' x ')})${resumed ? `, resuming in ${dir}: ${kept} finished point${kept === 1 ? '' : 's'} kept, ${todo.length} to run` : ` in ${dir}`}, ${jobs} at a time\n`,
  );
  const t0 = now();
  const failed: number[] = [];
  let ran = 0;
  let next = 0;
  const inFlight = new Set<ReturnType<RunPoint>>();
  const signal = deps.signal;
  const draw = () => {
    if (tty) log('\r' + progressText(kept + ran + failed.length, points.length, failed.length, now() - t0, ran + failed.length, todo.length - ran - failed.length) + '\x1b[K');
  };
  const timer = tty ? setInterval(draw, 500) : undefined;
  timer?.unref?.();
  const worker = async () => {
    while (!signal?.aborted) {
      const p = todo[next++];
      if (!p) return;
      const handle = runPoint(p.experiment);
      inFlight.add(handle);
      let error: string | undefined;
      let results: Results | undefined;
      try {
        results = await handle.results;
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      } finally {
        inFlight.delete(handle);
      }
      if (signal?.aborted) return; // abandoned: nothing is written for a point in flight
      if (results) {
        writeAtomically(resultsFile(dir, p.index), JSON.stringify(results, null, 2) + '\n');
        rmSync(errorFile(dir, p.index), { force: true });
        states[p.index] = { status: 'ok', digest: results.digest, rows: results.workload.rows };
        ran++;
      } else {
        writeAtomically(errorFile(dir, p.index), `point ${p.index} (${describeValues(p.values)}) failed:\n${error}\n`);
        states[p.index] = { status: 'failed', error: error! };
        failed.push(p.index);
      }
      const line = `[${kept + ran + failed.length}/${points.length}] ${duration(now() - t0)}  point ${p.index} (${describeValues(p.values)})${error ? `  FAILED: ${error.split('\n')[0]}` : ''}`;
      if (tty) {
        if (error) log('\r\x1b[2K' + line + '\n');
        draw();
      } else if (!args.quiet || error) log(line + '\n');
    }
  };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((res) => {
    onAbort = () => {
      for (const h of inFlight) h.abandon();
      res();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([Promise.all(Array.from({ length: jobs }, worker)), aborted]);
  if (onAbort) signal?.removeEventListener('abort', onAbort);
  if (timer) clearInterval(timer);
  if (tty) log('\r\x1b[2K');
  failed.sort((a, b) => a - b);
  if (signal?.aborted) {
    const done = kept + ran;
    log(
      `sweep interrupted: ${done} of ${points.length} points finished and kept in ${join(dir, 'results')} (points in flight were abandoned); run the same command again to resume\n`,
    );
    return { total: points.length, kept, ran, failed, interrupted: true, missing: points.length - kept - ran - failed.length };
  }
  const doc = writeMerged(dir, spec, states);
  log(`sweep: ${points.length} points, ${kept} kept, ${ran} ran, ${failed.length} failed, ${duration(now() - t0)}\n` + mergedLine(dir, doc));
  if (failed.length) log(`manycore: ${failed.length} point${failed.length === 1 ? '' : 's'} failed (${list(failed)}); the errors are in ${join(dir, 'results')}/NNNN.error.txt; run the same command again to retry them\n`);
  return { total: points.length, kept, ran, failed, interrupted: false, missing: 0 };
}

/** The CLI's `manycore sweep`: Ctrl-C (SIGINT) interrupts cleanly (exit 130); exit 1 when a point failed (or, with --merge, is missing). */
export async function sweepCommand(args: SweepArgs): Promise<void> {
  const ac = new AbortController();
  const onInt = () => ac.abort();
  process.on('SIGINT', onInt);
  let outcome: SweepOutcome;
  try {
    outcome = await sweep(args, { signal: ac.signal });
  } finally {
    process.off('SIGINT', onInt);
  }
  if (outcome.interrupted) process.exit(130);
  if (outcome.failed.length || (args.merge && outcome.missing)) process.exitCode = 1;
}
