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
import { CTL, Simulation } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { fallbackLiveRun } from './fallback-run.test-helper';
import { LiveRun } from './live-run';
import { readBoundaries, Recorder, scratchViews, snapshotBytes } from './recorder';
import { stoppedAt } from './replay';
import { expectRecordingExact, SCRUB_EXPERIMENT, simulatedOf } from './recorder.test-helper';

const EXPERIMENT = SCRUB_EXPERIMENT;

const runs: LiveRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) r.dispose();
});

/** A fallback run with a recorder on its slice hook; `sliceEpochs` lists the epoch of every applied slice copy. */
async function recordedFallbackRun(recOpts: { budgetBytes?: number }, speedNsPerS = Infinity) {
  const run = fallbackLiveRun(EXPERIMENT, speedNsPerS);
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
    const b = readBoundaries(run.sim.views);
    // one snapshot per slice that ended on a new boundary time (epochs repeating a time are skipped)
    const snaps = rec.snapshots();
    const expected = [...new Set(sliceEpochs)].filter((e) => e === 1 || b.epochs.includes(e));
    expect(snaps.map((s) => s.epoch)).toEqual(expected);
    expect(snaps.length).toBeGreaterThan(4);
    expect(snaps.every((s) => s.source === 'live')).toBe(true);
    expect(rec.notice()).toBeNull();
    expectRecordingExact(run, rec, full); // the epoch log, and four snapshots against fresh runs stopped at their times
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
