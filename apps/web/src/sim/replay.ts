/**
 * Exact epochs by replay, and forks at a time.
 *
 * Contract.
 * - `stoppedAt(experiment, timePs)`: the same experiment with `stop.maxTimeNs` = timePs / 1000
 *   (whole picoseconds, checked to round-trip). Epochs are bounded by the stop time and by
 *   nothing else that differs, so when timePs is an epoch boundary of a run of `experiment`,
 *   the stopped run makes the same epochs up to it and ends in the state that run had there
 *   (ARCHITECTURE.md, "The scheduling algorithm"; recorder.test.ts checks every counter).
 * - `replayTo(experiment, timePs, opts)`: runs that stopped experiment headless (a LiveRun
 *   without frame pacing or speed limit, on the host the caller gives) and resolves with the
 *   run, whose buffers hold the state at timePs; the caller copies it (Recorder.store).
 * - `forkExperiment(experiment, timePs, change)`: the experiment with one timeline event (an
 *   island's or a tile's divisor) at atNs = timePs / 1000. At a boundary of the original the
 *   event lands on that boundary, so the fork is the original up to timePs and a reproducible
 *   experiment (a link) of its own. Validated by the engine's schema (a bad change is an
 *   ExperimentError naming the field).
 */
import { ExperimentError, parseExperiment, PS_PER_NS, type Experiment, type HostAdapter, type TimelineEvent, type WorkloadRegistry } from '@manycore/engine';
import { LiveRun, mergeTimeline } from './live-run';

/** ns for a whole number of ps, exactly (throws when the value does not round-trip). */
export function nsOfPs(timePs: number): number {
  if (!Number.isInteger(timePs) || timePs <= 0) throw new ExperimentError(`time: expected a positive whole number of ps, got ${timePs}`);
  const ns = timePs / PS_PER_NS;
  if (Math.round(ns * PS_PER_NS) !== timePs) throw new ExperimentError(`time: ${timePs} ps is not exactly representable in ns`);
  return ns;
}

/** `experiment` stopped at `timePs` (an epoch boundary of its run). */
export function stoppedAt(experiment: Experiment, timePs: number): Experiment {
  return parseExperiment({ ...experiment, stop: { ...experiment.stop, maxTimeNs: nsOfPs(timePs) } });
}

export type ForkChange = { kind: 'island-divisor'; island: number; divisor: number } | { kind: 'tile-divisor'; tile: number; divisor: number };

/** The fork of `experiment` at `timePs` with `change` (a timeline event at exactly that time). */
export function forkExperiment(experiment: Experiment, timePs: number, change: ForkChange): Experiment {
  const atNs = nsOfPs(timePs);
  const ev: TimelineEvent = change.kind === 'island-divisor' ? { kind: 'island-divisor', atNs, island: change.island, divisor: change.divisor } : { kind: 'tile-divisor', atNs, tile: change.tile, divisor: change.divisor };
  return parseExperiment({ ...experiment, timeline: mergeTimeline(experiment.timeline, [ev]) });
}

export interface ReplayOptions {
  host: () => HostAdapter;
  registry: WorkloadRegistry;
  coresPerWorker: number | 'auto';
  hostCpus?: number;
}

/**
 * Replays `experiment` from the start to `timePs` headless. Resolves with the finished run
 * (status 'stopped', or 'done' when the workload ended exactly there); the caller disposes it.
 */
export async function replayTo(experiment: Experiment, timePs: number, opts: ReplayOptions): Promise<LiveRun> {
  const run = new LiveRun(stoppedAt(experiment, timePs), { ...opts, pacing: null, speedNsPerS: Infinity });
  const done = run.finished();
  run.start();
  try {
    await done;
  } catch (err) {
    run.dispose();
    throw err;
  }
  return run;
}
