/**
 * Two runs at the same time: Compare's A and B (an original and its fork, or any two
 * experiments), each a LiveRun on its own workers. Contract:
 *  - the host's CPUs are split between the runs that go at once: each fits its 'auto' worker
 *    layout to `pairHostCpus` (half the CPUs, at least 1); a fixed layout stays as set. The
 *    layout never changes results (the engine is deterministic), so each side's digest is the
 *    one it gets when run alone;
 *  - frame pacing as in the lab (each LiveRun's pacer on the page's frame loop); the main thread
 *    only stores control words and reads shared memory, it never waits;
 *  - once per animation frame (order 0, before the views draw) each running side's live
 *    telemetry is read; `samplesVersion` changes only when a side's time series got a sample;
 *  - `start()` resolves with both sides' results when both finished; when a side fails the other
 *    is stopped and it rejects with "A: <message>"; `stop()` stops both at once and it rejects
 *    with PairStopped. `finished(side)` resolves when that side alone is done (for its slot).
 * The pure parts (CPU split, progress label, overlay lines and their version) are exported for
 * the tests and the Compare page.
 */
import type { Experiment, HostAdapter, Results, WorkloadRegistry } from '@manycore/engine';
import type { LineSeries } from '../charts/draw';
import { simTime } from '../lib/format';
import { frameLoop } from './frame-loop';
import type { PacerHost, PacerOptions } from './frame-pacer';
import { LiveRun, type RunStatus } from './live-run';
import { MAX_WEB_WORKERS } from './worker-limit';
import type { SeriesColumns } from './telemetry';

export type Side = 'A' | 'B';
export const SIDES: readonly Side[] = ['A', 'B'];

/** Host CPUs each run fits its 'auto' layout to when `runs` runs go at once (at least 1). */
export function pairHostCpus(hostCpus: number, runs = 2): number {
  const cpus = Number.isFinite(hostCpus) && hostCpus >= 1 ? Math.floor(hostCpus) : 1;
  return Math.max(1, Math.floor(cpus / Math.max(1, runs)));
}

/** A side's state in a pair: its run's status, or 'halted' when the pair was stopped while it ran. */
export type SideStatus = RunStatus | 'halted';

/** A side's progress: "A: 4.200 µs" while it runs, with ", done" (or how it ended) once it ended. */
export function progressLabel(side: Side, simNs: number, status: SideStatus): string {
  const t = `${side}: ${simTime(simNs)}`;
  if (status === 'running' || status === 'paused' || status === 'ready') return t;
  const how = { done: 'done', stopped: 'stopped at its time limit', error: 'failed', halted: 'stopped' }[status];
  return `${t}, ${how}`;
}

export const A_COLOR = '#0072B2';
export const B_COLOR = '#D55E00';
export const B_DASH = [7, 4];

/** The lines of an overlay chart: A solid, B dashed, each over its own time axis (a side without data draws nothing). */
export function overlayLines(a: SeriesColumns | null, b: SeriesColumns | null, pick: (s: SeriesColumns, side: Side) => Float64Array): LineSeries[] {
  const empty = new Float64Array(0);
  return [
    { label: 'A', color: A_COLOR, xs: a ? a.timeNs.view() : empty, ys: a ? pick(a, 'A') : empty },
    { label: 'B', color: B_COLOR, dash: B_DASH, xs: b ? b.timeNs.view() : empty, ys: b ? pick(b, 'B') : empty },
  ];
}

/** The samples of a series last seen: their count and the last one's time, ns. */
export interface SeenSamples {
  length: number;
  lastNs: number;
}

/**
 * Did a sample arrive since `seen` (updated in place, no allocation)? The count changes, or the
 * last sample's time (when the engine thinned the series back to the same count).
 */
export function samplesChanged(s: SeriesColumns | null, seen: SeenSamples): boolean {
  const length = s ? s.length : 0;
  const lastNs = length > 0 ? s!.timeNs.get(length - 1) : 0;
  if (length === seen.length && lastNs === seen.lastNs) return false;
  seen.length = length;
  seen.lastNs = lastNs;
  return true;
}

/**
 * The sum of `cols` over the first `n` samples in a reused buffer (`scratch.data` grows when
 * needed, so redraws do not allocate): total memory bandwidth from the controllers' columns.
 */
export function sumInto(cols: readonly { view(): Float64Array }[], n: number, scratch: { data: Float64Array }): Float64Array {
  if (scratch.data.length < n) scratch.data = new Float64Array(Math.max(n, scratch.data.length * 2, 256));
  const out = scratch.data.subarray(0, n);
  out.fill(0);
  for (const c of cols) {
    const v = c.view();
    const m = Math.min(n, v.length);
    for (let i = 0; i < m; i++) out[i]! += v[i]!;
  }
  return out;
}

/** start() rejected because stop() was called. */
export class PairStopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'PairStopped';
  }
}

export interface PairRunOptions {
  coresPerWorker: number | 'auto';
  /** The host's CPUs (split between the runs). */
  hostCpus: number;
  host: () => HostAdapter;
  registry: WorkloadRegistry;
  pacing?: PacerOptions | null;
  /** Animation frames (default: the page's frame loop); for tests. */
  frames?: { add(cb: (now: number) => void, order?: number): () => void };
  /** For tests: the pacers' host and whether the page is hidden. */
  pacerHost?: (run: () => LiveRun) => PacerHost;
  hidden?: () => boolean;
}

export interface SideResult {
  results: Results;
  wallMs: number;
}

export class PairRun {
  readonly runs: { readonly [K in Side]?: LiveRun };
  /** Host CPUs each run's 'auto' layout was fitted to. */
  readonly cpusEach: number;
  /** Bumped when a side's time series got a sample (overlay charts redraw on it). */
  samplesVersion = 0;
  private readonly opts: PairRunOptions;
  private unframe: (() => void) | null = null;
  private readonly seen: Record<Side, SeenSamples> = { A: { length: 0, lastNs: 0 }, B: { length: 0, lastNs: 0 } };
  private stopReject: ((e: Error) => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private ended = false;
  /** stop() was called. */
  stopped = false;
  /** The runs still going were terminated (stop(), or the other side failed). */
  private halted = false;

  /** Throws the engine's message when an experiment cannot be prepared (nothing is started then). */
  constructor(experiments: { readonly [K in Side]?: Experiment }, opts: PairRunOptions) {
    this.opts = opts;
    const sides = SIDES.filter((s) => experiments[s]);
    this.cpusEach = pairHostCpus(opts.hostCpus, sides.length);
    const runs: { [K in Side]?: LiveRun } = {};
    try {
      for (const s of sides) {
        let run: LiveRun | null = null;
        run = new LiveRun(experiments[s]!, {
          coresPerWorker: opts.coresPerWorker,
          hostCpus: this.cpusEach,
          maxWorkers: Math.floor(MAX_WEB_WORKERS / sides.length), // both sides' workers run in one page
          host: opts.host,
          registry: opts.registry,
          ...(opts.pacing !== undefined ? { pacing: opts.pacing } : {}),
          ...(opts.frames ? { frames: opts.frames } : {}),
          ...(opts.pacerHost ? { pacerHost: opts.pacerHost(() => run!) } : {}),
          ...(opts.hidden ? { hidden: opts.hidden } : {}),
        });
        runs[s] = run;
      }
    } catch (err) {
      for (const r of Object.values(runs)) r.dispose();
      const side = sides[Object.keys(runs).length] ?? 'A';
      throw new Error(`${side}: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.runs = runs;
  }

  get sides(): Side[] {
    return SIDES.filter((s) => this.runs[s]);
  }
  /** Is any side still going? */
  get active(): boolean {
    return !this.ended && this.sides.some((s) => this.runs[s]!.active);
  }

  /** A side's state (undefined when the pair has no such side). */
  status(side: Side): SideStatus | undefined {
    const run = this.runs[side];
    if (!run) return undefined;
    return this.halted && run.active ? 'halted' : run.status;
  }

  /** Called when a side starts, ends, or the pair ends (not per frame). */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }
  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  /** That side's results, when it alone has finished. */
  finished(side: Side): Promise<SideResult> {
    const run = this.runs[side];
    if (!run) return Promise.reject(new Error(`${side} is not part of this pair`));
    return run.finished().then(
      (results) => ({ results, wallMs: run.wallMs }),
      (err: Error) => Promise.reject(new Error(`${side}: ${err.message}`)),
    );
  }

  /** Starts both runs at once; see the contract above. */
  start(): Promise<{ [K in Side]?: SideResult }> {
    const sides = this.sides;
    const stop = new Promise<never>((_, reject) => (this.stopReject = reject));
    const all = Promise.all(sides.map((s) => this.finished(s).then((r) => [s, r] as const)));
    for (const s of sides) this.runs[s]!.subscribe(() => this.emit());
    const frames = this.opts.frames ?? frameLoop;
    this.unframe = frames.add((now) => this.update(now), 0);
    for (const s of sides) this.runs[s]!.start();
    this.emit();
    return Promise.race([all, stop])
      .then(
        (pairs) => Object.fromEntries(pairs) as { [K in Side]?: SideResult },
        (err: Error) => {
          if (!(err instanceof PairStopped)) this.halt();
          throw err;
        },
      )
      .finally(() => {
        this.ended = true;
        this.unframe?.();
        this.unframe = null;
        this.emit();
      });
  }

  /** Reads each running side's telemetry (once per frame); true when any series got a sample. */
  update(nowMs: number): boolean {
    let grew = false;
    for (const s of SIDES) {
      const run = this.runs[s];
      if (!run || run.status === 'ready') continue;
      if (run.active) run.liveTelemetry.update(nowMs);
      if (samplesChanged(run.liveTelemetry.series, this.seen[s])) grew = true;
    }
    if (grew) this.samplesVersion++;
    return grew;
  }

  /** Stops both runs at once (the workers are terminated); start() rejects with PairStopped. */
  stop(): void {
    if (this.ended) return;
    this.stopped = true;
    this.halt();
    this.stopReject?.(new PairStopped());
  }

  private halt(): void {
    this.halted = true;
    for (const s of this.sides) {
      const run = this.runs[s]!;
      if (run.active) run.dispose();
    }
  }

  /** Frees the workers of both (after start() settled, or instead of it). */
  dispose(): void {
    this.unframe?.();
    this.unframe = null;
    for (const s of this.sides) this.runs[s]!.dispose();
  }
}
