/// <reference types="node" />
/**
 * Scrubbing is exact: snapshots the recorder takes while a paced LiveRun (real worker threads,
 * the CLI's bundled worker: `npm run build:node`) is held at epoch boundaries hold the same
 * simulated values as a fresh run stopped at that boundary (stop.maxTimeNs), every counter of
 * every core, link, controller and island; a replay to a boundary without a snapshot gives the
 * same; the epoch log lists the run's boundaries; a small budget thins the recording and says so.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CTL, CTLF, EPOCH_LOG_CAP, Simulation, type Results } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { nodeHost } from '@manycore/workers/node-host';
import { browserPacerHost } from './frame-pacer';
import { LiveRun } from './live-run';
import { readBoundaries, Recorder, scratchViews, snapshotBytes } from './recorder';
import { replayTo, stoppedAt } from './replay';
import { fakeFrames } from './fake-frames.test-helper';
import { expectRecordingExact, SCRUB_EXPERIMENT, simulatedOf } from './recorder.test-helper';

const workerUrl = new URL('../../../../packages/cli/dist/worker.mjs', import.meta.url);
const EXPERIMENT = SCRUB_EXPERIMENT;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A paced run on worker threads with a recorder capturing at every boundary it is held at. */
async function recordedRun(budgetBytes?: number): Promise<{ run: LiveRun; rec: Recorder }> {
  const frames = fakeFrames(2);
  cleanups.push(frames.stop);
  let run: LiveRun | null = null;
  run = new LiveRun(EXPERIMENT, {
    coresPerWorker: 2,
    host: () => nodeHost(workerUrl),
    registry: workloads,
    frames,
    pacerHost: browserPacerHost(() => Atomics.load(run!.sim.views.ctl, CTL.status) === 1),
  });
  cleanups.push(() => run!.dispose());
  const rec = new Recorder(run.sim.views, budgetBytes === undefined ? {} : { budgetBytes });
  cleanups.push(run.onBeforeRelease(() => rec.capture()));
  cleanups.push(frames.add(() => rec.capture()));
  const done = run.finished();
  run.start();
  // besides the pacer's holds, the user's pause at six points spread over the run (each is
  // captured when resume releases it), so the test does not hang on the host's timing
  const ctl = run.sim.views.ctl;
  const total = full.simulated.epochs;
  for (let k = 1; k <= 6 && run.active; k++) {
    while (run.active && Atomics.load(ctl, CTL.epoch) < (k * total) / 8) await new Promise((r) => setTimeout(r, 1));
    run.pause();
    while (run.active && Atomics.load(ctl, CTL.status) !== 1) await new Promise((r) => setTimeout(r, 1));
    run.resume();
  }
  await done;
  return { run, rec };
}

let full: Results;
beforeAll(() => {
  if (!existsSync(fileURLToPath(workerUrl))) throw new Error('run `npm run build:node` first (npm test does)');
  full = new Simulation(EXPERIMENT, workloads).runInline();
});

describe('recorder', () => {
  it('snapshots at paused boundaries equal fresh runs stopped at those times, every counter', async () => {
    const { run, rec } = await recordedRun();
    expect(run.results!.digest).toBe(full.digest); // recording never changes the run
    const snaps = rec.snapshots();
    expect(snaps.length).toBeGreaterThan(4);
    expectRecordingExact(run, rec, full);
  });

  it('a replay to a boundary without a snapshot gives that state, and is cached', async () => {
    const { run, rec } = await recordedRun();
    const b = readBoundaries(run.sim.views);
    let k = Math.floor(b.timesPs.length / 2);
    while (rec.at(b.epochs[k]!)) k++;
    const timePs = b.timesPs[k]!;
    const replay = await replayTo(run.reproducible(), timePs, { host: () => nodeHost(workerUrl), registry: workloads, coresPerWorker: 4 });
    cleanups.push(() => replay.dispose());
    expect(replay.status).toBe('stopped');
    expect(Atomics.load(replay.sim.views.ctl, CTL.epoch)).toBe(b.epochs[k]);
    rec.store(replay.sim.views, b.epochs[k]!, timePs);
    expect(rec.at(b.epochs[k]!)!.source).toBe('replay');
    const scratch = scratchViews(run.sim.views);
    rec.restore(b.epochs[k]!, scratch);
    const stopped = new Simulation(stoppedAt(EXPERIMENT, timePs), workloads).runInline();
    expect(simulatedOf(run.sim.run, scratch)).toEqual(stopped.simulated);
  });

  it('a budget of a few snapshots thins the recording, says so, and keeps the spacing', () => {
    // the capture rule driven by hand on a run's buffers (status Paused at epochs 1..40)
    const sim = new Simulation(EXPERIMENT, workloads);
    const v = sim.views;
    const rec = new Recorder(v, { budgetBytes: 6 * snapshotBytes(v.layout) + 100, clock: () => 0 });
    expect(rec.maxSnapshots).toBe(6);
    expect(rec.notice()).toBeNull();
    Atomics.store(v.ctl, CTL.status, 1);
    for (let e = 1; e <= 40; e++) {
      v.ctl[CTL.epoch] = e;
      v.ctl[CTL.epochLogCount] = e;
      v.epochLog[e - 1] = e * 1000;
      v.ctlF[CTLF.simTimePs] = e * 1000;
      v.core[0] = e; // a value to tell the snapshots apart
      rec.capture();
      expect(rec.capture()).toBe(false); // once per epoch
    }
    expect(rec.count).toBeLessThanOrEqual(6);
    expect(rec.usedBytes).toBeLessThanOrEqual(rec.budgetBytes);
    expect(rec.thinned).toBe(3);
    expect(rec.notice()).toBe(
      `recording thinned: every 8th snapshot kept, ${(rec.usedBytes / 2 ** 20).toFixed(0)} MB (budget ${(rec.budgetBytes / 2 ** 20).toFixed(0)} MB, ${(rec.bytesPerSnapshot / 1024).toFixed(0)} KB per snapshot); other epochs are replayed from the start`,
    );
    const epochs = rec.snapshots().map((s) => s.epoch);
    expect(epochs).toEqual([1, 9, 17, 25, 33]);
    const scratch = scratchViews(v);
    for (const e of epochs) {
      rec.restore(e, scratch);
      expect(scratch.core[0]).toBe(e);
      expect(scratch.ctlF[CTLF.simTimePs]).toBe(e * 1000);
    }
    // not paused: nothing is taken; an epoch repeating the previous boundary's time is not taken
    Atomics.store(v.ctl, CTL.status, 0);
    v.ctl[CTL.epoch] = 80;
    expect(rec.capture()).toBe(false);
    Atomics.store(v.ctl, CTL.status, 1);
    v.epochLog[78] = 80_000;
    v.ctlF[CTLF.simTimePs] = 80_000;
    expect(rec.capture()).toBe(false);
  });

  it('a full epoch log is counted, not silent: the committer stores up to the cap and the notice says so', () => {
    const sim = new Simulation(EXPERIMENT, workloads);
    const v = sim.views;
    v.ctl[CTL.epochLogCount] = EPOCH_LOG_CAP - 2; // as if the run had committed that many epochs already
    const r = sim.runInline();
    expect(v.ctl[CTL.epochLogCount]).toBe(EPOCH_LOG_CAP - 2 + r.simulated.epochs);
    expect(v.epochLog[EPOCH_LOG_CAP - 2]).toBeGreaterThan(0); // the first two epochs' ends, in the last two entries
    expect(v.epochLog[EPOCH_LOG_CAP - 1]).toBeGreaterThan(v.epochLog[EPOCH_LOG_CAP - 2]!);
    expect(r.digest).toBe(full.digest); // the log never changes a result
    const rec = new Recorder(v);
    expect(rec.notice()).toBe(`epoch log full: the timeline holds the first ${EPOCH_LOG_CAP} of ${EPOCH_LOG_CAP - 2 + r.simulated.epochs} epochs`);
    expect(readBoundaries(v).timesPs.length).toBeLessThanOrEqual(EPOCH_LOG_CAP);
  });

  it('spaces captures so they take at most 5 % of the wall time', () => {
    const v = new Simulation(EXPERIMENT, workloads).views;
    let now = 0;
    const rec = new Recorder(v, { clock: () => (now += 1) }); // every copy "takes" 1 ms
    Atomics.store(v.ctl, CTL.status, 1);
    const taken: number[] = [];
    for (let e = 1; e <= 60; e++) {
      v.ctl[CTL.epoch] = e;
      v.epochLog[e - 1] = e * 1000;
      v.ctlF[CTLF.simTimePs] = e * 1000;
      if (rec.capture()) taken.push(e);
    }
    // a capture at clock 1..2 allows the next from 2 + 19 = 21; each refused try advances the clock by 1
    expect(taken).toEqual([1, 20, 39, 58]);
  });
});
