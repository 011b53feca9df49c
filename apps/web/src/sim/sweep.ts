/**
 * A guided sweep in the browser: the entry's experiments run one after another on the same
 * engine as the lab (a LiveRun each: Web Workers, the main thread only reads shared memory),
 * and each finished run adds its rows and its chart points at once. Stop disposes the run in
 * progress and keeps the points so far.
 *
 * The state and its updates are pure (tested in sweep.test.ts); SweepRunner drives them with a
 * `start(experiment)` function so tests can pass a fake one.
 */
import { parseExperiment, type ExperimentInput, type Row } from '@manycore/engine';
import { chartPoints, describeRun, resolvePaperPoints, sweepRows, type ChartPoint, type GuidedExperiment } from '@manycore/workloads';
import { LiveRun, type LiveRunOptions } from './live-run';

export type SweepStatus = 'running' | 'done' | 'stopped' | 'error';

export interface SweepState {
  status: SweepStatus;
  /** runs in the entry */
  total: number;
  /** runs finished */
  done: number;
  /** the run in progress (index), or -1 */
  current: number;
  rows: Row[];
  lab: ChartPoint[];
  /** paper values read from the rows (PaperValues.rowField) */
  paperRows: ChartPoint[];
  digests: string[];
  error: string | null;
}

export function initialSweep(entry: GuidedExperiment): SweepState {
  return { status: 'running', total: entry.experiments.length, done: 0, current: entry.experiments.length > 0 ? 0 : -1, rows: [], lab: [], paperRows: [], digests: [], error: null };
}

/** The state after run `index` finished with `rows`. */
export function addRun(state: SweepState, entry: GuidedExperiment, index: number, rows: readonly Row[], digest: string): SweepState {
  const r = sweepRows(entry, index, rows);
  const p = chartPoints(entry, index, r);
  const done = state.done + 1;
  const finished = done >= state.total;
  return {
    ...state,
    done,
    current: finished ? -1 : index + 1,
    status: finished ? 'done' : state.status,
    rows: [...state.rows, ...r],
    lab: [...state.lab, ...p.lab],
    paperRows: [...state.paperRows, ...p.paper],
    digests: [...state.digests, digest],
  };
}

export function stopSweep(state: SweepState): SweepState {
  return state.status === 'running' ? { ...state, status: 'stopped', current: -1 } : state;
}

export function failSweep(state: SweepState, entry: GuidedExperiment, index: number, message: string): SweepState {
  return { ...state, status: 'error', current: -1, error: `run ${index + 1} (${describeRun(entry, index)}): ${message}` };
}

/** The paper's points to draw now: fixed ones (relative ones once their lab anchor is there) and those read from rows. */
export function paperPoints(entry: GuidedExperiment, state: SweepState): ChartPoint[] {
  return [...resolvePaperPoints(entry.paper?.points ?? [], state.lab), ...state.paperRows];
}

/** "run 3 of 15: hops=3", "done: 15 runs", "stopped after 2 of 15 runs". */
export function progressText(entry: GuidedExperiment, state: SweepState): string {
  const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
  switch (state.status) {
    case 'running':
      return `run ${state.current + 1} of ${state.total}: ${describeRun(entry, state.current)}`;
    case 'done':
      return `done: ${runs(state.total)}, ${state.lab.length} point${state.lab.length === 1 ? '' : 's'}`;
    case 'stopped':
      return `stopped after ${state.done} of ${runs(state.total)}`;
    case 'error':
      return `failed at ${state.error ?? 'a run'}`;
  }
}

/** One run as the runner sees it: a promise of its rows, and a way to stop it. */
export interface StartedRun {
  finished: Promise<{ rows: Row[]; digest: string }>;
  stop(): void;
}

/** Runs the entry's experiments in order; `onChange` after every state change. */
export class SweepRunner {
  state: SweepState;
  private current: StartedRun | null = null;
  private stopped = false;

  constructor(
    readonly entry: GuidedExperiment,
    private readonly start: (experiment: ExperimentInput) => StartedRun,
    private readonly onChange: (s: SweepState) => void,
  ) {
    this.state = initialSweep(entry);
  }

  private set(s: SweepState): void {
    this.state = s;
    this.onChange(s);
  }

  async run(): Promise<SweepState> {
    for (let i = 0; i < this.entry.experiments.length; i++) {
      if (this.stopped) break;
      this.set({ ...this.state, current: i });
      let r: StartedRun;
      try {
        r = this.start(this.entry.experiments[i]!);
      } catch (err) {
        this.set(failSweep(this.state, this.entry, i, err instanceof Error ? err.message : String(err)));
        break;
      }
      this.current = r;
      try {
        const out = await r.finished;
        if (this.stopped) break;
        this.set(addRun(this.state, this.entry, i, out.rows, out.digest));
      } catch (err) {
        if (this.stopped) break;
        this.set(failSweep(this.state, this.entry, i, err instanceof Error ? err.message : String(err)));
        break;
      } finally {
        this.current = null;
        r.stop();
      }
    }
    return this.state;
  }

  /** Stops the run in progress; the points so far stay. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.current?.stop();
    this.set(stopSweep(this.state));
  }
}

/** Starts each run as a LiveRun (workers, frame pacing, flat out); stop() disposes it and rejects `finished`. */
export function liveRunStarter(opts: Omit<LiveRunOptions, 'speedNsPerS'>): (experiment: ExperimentInput) => StartedRun {
  return (experiment) => {
    const run = new LiveRun(parseExperiment(experiment), { ...opts, speedNsPerS: Infinity });
    let reject: (err: Error) => void = () => {};
    const finished = new Promise<{ rows: Row[]; digest: string }>((resolve, rej) => {
      reject = rej;
      run.finished().then((r) => resolve({ rows: r.workload.rows, digest: r.digest }), rej);
    });
    run.start();
    return {
      finished,
      stop: () => {
        if (run.active) reject(new Error('stopped'));
        run.dispose();
      },
    };
  };
}
