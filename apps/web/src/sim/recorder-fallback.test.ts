/// <reference types="node" />
/**
 * Scrub snapshots in the fallback mode (no SharedArrayBuffer): the run is never held at a
 * boundary there (one worker runs every core in slices and copies the state into the main
 * thread's mirror), so the recorder captures the mirror after each applied slice
 * (LiveRun.onSliceApplied -> Recorder.captureAtBoundary). Checked here with the fallback's
 * runner on this thread (inThreadFallbackHost: the Web Worker's messages and transfers):
 * the mirror holds the epoch log; every snapshot sits on a boundary of it and equals a fresh
 * run stopped at that boundary, every counter; the held-boundary capture takes nothing there;
 * a small budget thins the recording and says so; the run's digest is unchanged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildResults, CTL, parseExperiment, Simulation, type Experiment, type PreparedRun, type Results, type Views } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { inThreadFallbackHost } from '@manycore/workers/fallback-runner';
import { LiveRun } from './live-run';
import { readBoundaries, Recorder, scratchViews, snapshotBytes } from './recorder';
import { stoppedAt } from './replay';

// messages between cores (matrix, received totals), MPB traffic and DRAM: 4 pairs of RCCE shifts
const EXPERIMENT: Experiment = parseExperiment({
  version: 2,
  chip: { preset: 'scc', overrides: {} },
  workload: { name: 'rcce-pair', params: { benchmark: 'shift', pairs: 4, hops: 2, rounds: 30 } },
  quantumNs: 500,
  sampleIntervalNs: 2000,
});

const runs: LiveRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) r.dispose();
});

/** The simulated part of the results, as a run stopped at the state `v` holds would report it. */
function simulatedOf(run: PreparedRun, v: Views): Results['simulated'] {
  const plain = { ...run, workload: { ...run.workload, summarize: undefined, extra: undefined } } as PreparedRun;
  return buildResults(plain, v, [], { wallMs: 0, workers: 1, coresPerWorker: 1, host: 'snapshot', stopped: true }).simulated;
}

/** A fallback run with a recorder on its slice hook; `sliceEpochs` lists the epoch of every applied slice copy. */
async function recordedFallbackRun(recOpts: { budgetBytes?: number }, speedNsPerS = Infinity) {
  const run = new LiveRun(EXPERIMENT, {
    coresPerWorker: 8,
    host: () => {
      throw new Error('the fallback must not start the shared-memory host');
    },
    fallback: true,
    fallbackHost: () => inThreadFallbackHost(workloads),
    registry: workloads,
    speedNsPerS,
  });
  runs.push(run);
  // clock () => 0: no wall-time spacing, so every boundary the rules allow is taken
  const rec = new Recorder(run.sim.views, { ...recOpts, clock: () => 0 });
  const held = new Recorder(run.sim.views, { clock: () => 0 });
  const sliceEpochs: number[] = [];
  let heldTaken = 0;
  run.onSliceApplied(() => {
    sliceEpochs.push(run.sim.views.ctl[CTL.epoch]!);
    if (held.capture()) heldTaken++; // the held-boundary rule: the mirror is never Paused in a run going flat out
    rec.captureAtBoundary();
  });
  const done = run.finished();
  run.start();
  const results = await done;
  return { run, rec, results, sliceEpochs, heldTaken };
}

describe('recorder in the fallback mode', () => {
  const full = new Simulation(EXPERIMENT, workloads).runInline();

  it('captures the mirror after each slice; each snapshot equals a run stopped at its boundary', async () => {
    const { run, rec, results, sliceEpochs, heldTaken } = await recordedFallbackRun({});
    expect(results.digest).toBe(full.digest); // recording never changes the run
    expect(heldTaken).toBe(0); // without the slice hook there would be no snapshot at all
    // the mirror holds the epoch log: every committed epoch's end, increasing
    const b = readBoundaries(run.sim.views);
    expect(b.committed).toBe(full.simulated.epochs);
    for (let i = 1; i < b.timesPs.length; i++) expect(b.timesPs[i]).toBeGreaterThan(b.timesPs[i - 1]!);
    // one snapshot per slice that ended on a new boundary time (epochs repeating a time are skipped)
    const snaps = rec.snapshots();
    const expected = [...new Set(sliceEpochs)].filter((e) => e === 1 || b.epochs.includes(e));
    expect(snaps.map((s) => s.epoch)).toEqual(expected);
    expect(snaps.length).toBeGreaterThan(4);
    expect(snaps.every((s) => s.source === 'live')).toBe(true);
    for (const s of snaps) {
      const k = b.epochs.indexOf(s.epoch);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(b.timesPs[k]).toBe(s.timePs);
    }
    expect(rec.notice()).toBeNull();
    // four snapshots spread over the run against fresh runs stopped at their times
    const picks = [0, 1, 2, 3].map((i) => snaps[Math.floor((i * (snaps.length - 1)) / 3)]!);
    const scratch = scratchViews(run.sim.views);
    for (const s of picks) {
      expect(rec.restore(s.epoch, scratch)).toBe(true);
      const stopped = new Simulation(stoppedAt(EXPERIMENT, s.timePs), workloads).runInline();
      expect(stopped.simulated.epochs).toBe(s.epoch);
      const mine = simulatedOf(run.sim.run, scratch);
      expect(mine).toEqual(stopped.simulated);
      expect(mine.chip.loads).toBeLessThan(full.simulated.chip.loads); // the run moved on after it
    }
    rec.restore(picks[picks.length - 1]!.epoch, scratch);
    expect(simulatedOf(run.sim.run, scratch).cores.some((c) => c.messagesReceived > 0)).toBe(true);
  }, 60_000);

  it('keeps to its budget in the fallback: thinned, with the notice, every kept snapshot still exact', async () => {
    const bytes = snapshotBytes(new Simulation(EXPERIMENT, workloads).views.layout);
    // the speed governor (100 us of simulated time per wall second) bounds each slice at its budget: many more slices than 4 slots
    const { run, rec, results, sliceEpochs } = await recordedFallbackRun({ budgetBytes: 4 * bytes + 100 }, 100_000);
    expect(results.digest).toBe(full.digest);
    expect(rec.maxSnapshots).toBe(4);
    expect(new Set(sliceEpochs).size).toBeGreaterThan(12);
    expect(rec.count).toBeLessThanOrEqual(4);
    expect(rec.usedBytes).toBeLessThanOrEqual(rec.budgetBytes);
    expect(rec.thinned).toBeGreaterThan(0);
    expect(rec.notice()).toContain(`every ${2 ** rec.thinned}`);
    const last = rec.snapshots()[rec.count - 1]!;
    const scratch = scratchViews(run.sim.views);
    rec.restore(last.epoch, scratch);
    expect(simulatedOf(run.sim.run, scratch)).toEqual(new Simulation(stoppedAt(EXPERIMENT, last.timePs), workloads).runInline().simulated);
  }, 60_000);
});
