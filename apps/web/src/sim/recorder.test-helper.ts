/**
 * For the recorder's tests (recorder.test.ts on worker threads, recorder-fallback.test.ts in the
 * fallback): the experiment they record, the simulated part of results built from a restored
 * snapshot, and the one check that a recording is exact: its epoch log is the run's boundaries
 * and four snapshots spread over the run equal fresh runs stopped at their times.
 */
import { expect } from 'vitest';
import { buildResults, parseExperiment, Simulation, type Experiment, type PreparedRun, type Results, type Views } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import type { LiveRun } from './live-run';
import { readBoundaries, scratchViews, type Recorder } from './recorder';
import { stoppedAt } from './replay';

// messages between cores (matrix, received totals), MPB traffic and DRAM: 4 pairs of RCCE shifts
export const SCRUB_EXPERIMENT: Experiment = parseExperiment({
  version: 2,
  chip: { preset: 'scc', overrides: {} },
  workload: { name: 'rcce-pair', params: { benchmark: 'shift', pairs: 4, hops: 2, rounds: 30 } },
  quantumNs: 500,
  sampleIntervalNs: 2000,
});

/** The simulated part of the results, as a run stopped at the state `v` holds would report it. */
export function simulatedOf(run: PreparedRun, v: Views): Results['simulated'] {
  const plain = { ...run, workload: { ...run.workload, summarize: undefined, extra: undefined } } as PreparedRun;
  return buildResults(plain, v, [], { wallMs: 0, workers: 1, coresPerWorker: 1, host: 'snapshot', stopped: true }).simulated;
}

/**
 * The epoch log holds every committed epoch's end, increasing, and each snapshot sits on its
 * epoch; four snapshots spread over the run equal fresh runs stopped at their times, every
 * simulated field, and the received totals were derived (the live buffer's are the last sample's).
 */
export function expectRecordingExact(run: LiveRun, rec: Recorder, full: Results): void {
  const snaps = rec.snapshots();
  const b = readBoundaries(run.sim.views);
  expect(b.committed).toBe(full.simulated.epochs);
  for (let i = 1; i < b.timesPs.length; i++) expect(b.timesPs[i]).toBeGreaterThan(b.timesPs[i - 1]!);
  for (const s of snaps) {
    const k = b.epochs.indexOf(s.epoch);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(b.timesPs[k]).toBe(s.timePs);
  }
  const picks = [0, 1, 2, 3].map((i) => snaps[Math.floor((i * (snaps.length - 1)) / 3)]!);
  const scratch = scratchViews(run.sim.views);
  for (const s of picks) {
    expect(rec.restore(s.epoch, scratch)).toBe(true);
    const stopped = new Simulation(stoppedAt(SCRUB_EXPERIMENT, s.timePs), workloads).runInline();
    expect(stopped.simulated.epochs).toBe(s.epoch);
    const mine = simulatedOf(run.sim.run, scratch);
    expect(mine.cores).toEqual(stopped.simulated.cores);
    expect(mine).toEqual(stopped.simulated);
    // the counters are not trivially equal: the run moved on after this snapshot
    expect(mine.chip.loads).toBeLessThan(full.simulated.chip.loads);
  }
  rec.restore(picks[picks.length - 1]!.epoch, scratch);
  expect(simulatedOf(run.sim.run, scratch).cores.some((c) => c.messagesReceived > 0)).toBe(true);
}
