/// <reference types="node" />
/**
 * PairRun: the CPU split, the progress labels, the overlay lines and their version (pure), and
 * two runs at once on real worker threads (the node host and the CLI's bundled worker, built by
 * `npm run build:node`): both in flight together, each with the digest it gets alone, and a
 * stop that ends both.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CTL, seriesOffsets, Simulation, type ExperimentInput } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { nodeHost } from '@manycore/workers/node-host';
import { browserPacerHost } from './frame-pacer';
import { overlayLines, PairRun, PairStopped, pairHostCpus, progressLabel, samplesChanged, sumInto } from './pair-run';
import { SeriesColumns } from './telemetry';
import { fakeFrames } from './fake-frames.test-helper';

describe('pair-run, pure parts', () => {
  it('splits the host CPUs between the runs that go at once', () => {
    expect(pairHostCpus(2)).toBe(1);
    expect(pairHostCpus(8)).toBe(4);
    expect(pairHostCpus(7)).toBe(3);
    expect(pairHostCpus(1)).toBe(1);
    expect(pairHostCpus(0)).toBe(1);
    expect(pairHostCpus(Number.NaN)).toBe(1);
    expect(pairHostCpus(8, 1)).toBe(8); // one side alone keeps every CPU
  });

  it('labels progress with the simulated time and how a side ended', () => {
    expect(progressLabel('A', 4200, 'running')).toBe('A: 4.2 µs');
    expect(progressLabel('B', 3900, 'paused')).toBe('B: 3.9 µs');
    expect(progressLabel('B', 12_345, 'done')).toBe('B: 12.3 µs, done');
    expect(progressLabel('A', 800, 'halted')).toBe('A: 800 ns, stopped');
    expect(progressLabel('A', 5000, 'stopped')).toBe('A: 5 µs, stopped at its time limit');
    expect(progressLabel('A', 5000, 'error')).toBe('A: 5 µs, failed');
  });

  /** Columns of a chip with one island and two controllers, one sample per (t, power, flits, requests). */
  function columns(samples: [number, number, number, number, number][]): SeriesColumns {
    const s = new SeriesColumns(1, 2);
    const off = seriesOffsets(1, 2);
    const rec = new Float64Array(off.coreUtilization);
    for (const [tNs, w, f, r0, r1] of samples) {
      rec[off.timePs] = tNs * 1000;
      rec[off.chipPowerW] = w;
      rec[off.flitsPerUs] = f;
      rec[off.controllerRequests] = r0;
      rec[off.controllerRequests + 1] = r1;
      s.pushRecord(rec, 0, 64);
    }
    return s;
  }

  it('draws A and B from their own series, A solid and B dashed, a side without data empty', () => {
    const a = columns([
      [100, 10, 1, 0, 0],
      [200, 12, 2, 10, 0],
    ]);
    const b = columns([[100, 9, 1, 0, 0]]);
    const [la, lb] = overlayLines(a, b, (s) => s.chipPowerW.view());
    expect(Array.from(la!.xs)).toEqual([100, 200]);
    expect(Array.from(la!.ys)).toEqual([10, 12]);
    expect(la!.dash).toBeUndefined();
    expect(Array.from(lb!.xs)).toEqual([100]);
    expect(Array.from(lb!.ys)).toEqual([9]);
    expect(lb!.dash).toEqual([7, 4]);
    const [, none] = overlayLines(a, null, (s) => s.chipPowerW.view());
    expect(none!.xs.length).toBe(0);
    expect(none!.ys.length).toBe(0);
  });

  it('sees a change when a sample arrives or the series is thinned, not otherwise', () => {
    const seen = { length: 0, lastNs: 0 };
    expect(samplesChanged(null, seen)).toBe(false);
    const a = columns([[100, 10, 1, 0, 0]]);
    expect(samplesChanged(a, seen)).toBe(true);
    expect(seen).toEqual({ length: 1, lastNs: 100 });
    expect(samplesChanged(a, seen)).toBe(false);
    a.pushRecord(new Float64Array(seriesOffsets(1, 2).coreUtilization).map((_, i) => (i === 0 ? 300_000 : 1)), 0, 64);
    expect(samplesChanged(a, seen)).toBe(true);
    expect(seen).toEqual({ length: 2, lastNs: 300 });
    const thinned = columns([
      [100, 10, 1, 0, 0],
      [400, 10, 1, 0, 0],
    ]); // same count, another last time
    expect(samplesChanged(thinned, seen)).toBe(true);
    expect(samplesChanged(thinned, seen)).toBe(false);
  });

  it('sums the controllers into a reused buffer (total bandwidth)', () => {
    const a = columns([
      [100, 0, 0, 0, 0],
      [200, 0, 0, 10, 5], // 10 and 5 requests of 64 B in 100 ns: 6.4 and 3.2 GB/s
    ]);
    const scratch = { data: new Float64Array(0) };
    const sum = sumInto(a.controllerGBps, a.length, scratch);
    expect(sum.length).toBe(2);
    expect(sum[0]).toBe(0);
    expect(sum[1]).toBeCloseTo(9.6, 12);
    const again = sumInto(a.controllerGBps, a.length, scratch);
    expect(again.buffer).toBe(sum.buffer); // no new buffer per redraw
  });
});

const workerUrl = new URL('../../../../packages/cli/dist/worker.mjs', import.meta.url);
const BASE: ExperimentInput = {
  version: 1,
  chip: { preset: 'scc', overrides: {} },
  workload: { name: 'l1-stream', params: { cores: 16, loads: 3000, bufferBytes: 65536, strideBytes: 32 } },
};
/** The same experiment forked: tile 0 at divisor 16 from 2 µs on. */
const FORK: ExperimentInput = { ...BASE, timeline: [{ kind: 'tile-divisor', atNs: 2000, tile: 0, divisor: 16 }] } as ExperimentInput;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Long enough to be stopped in the middle (a few hundred epochs). */
const LONG: ExperimentInput = { ...BASE, workload: { name: 'l1-stream', params: { cores: 16, loads: 200_000, bufferBytes: 65536, strideBytes: 32 } } };

function pair(hostCpus: number, a: ExperimentInput = BASE, b: ExperimentInput = FORK) {
  const frames = fakeFrames(4);
  cleanups.push(frames.stop);
  const p = new PairRun({ A: a as never, B: b as never }, {
    coresPerWorker: 'auto',
    hostCpus,
    host: () => nodeHost(workerUrl),
    registry: workloads,
    frames,
    pacerHost: (run) => browserPacerHost(() => Atomics.load(run().sim.views.ctl, CTL.status) === 1),
  });
  cleanups.push(() => p.dispose());
  return { p, frames };
}

describe('PairRun on worker threads', () => {
  const digests = { A: '', B: '' };
  beforeAll(() => {
    if (!existsSync(fileURLToPath(workerUrl))) throw new Error('run `npm run build:node` first (npm test does)');
    digests.A = new Simulation(BASE, workloads).runInline().digest;
    digests.B = new Simulation(FORK, workloads).runInline().digest;
  });

  it('runs A and B at the same time, on half the CPUs each, with the digests each gets alone', async () => {
    const { p, frames } = pair(4);
    expect(p.cpusEach).toBe(2);
    expect(p.runs.A!.workers).toBe(2); // 16 cores fitted to 2 CPUs: 2 workers of 8
    expect(p.runs.B!.workers).toBe(2);
    // at frames: were both in flight with simulated time past zero at once?
    let together = 0;
    frames.add(() => {
      const a = p.runs.A!;
      const b = p.runs.B!;
      if (a.active && b.active && a.liveTelemetry.simNs > 0 && b.liveTelemetry.simNs > 0) together++;
    });
    const done = await p.start();
    expect(done.A!.results.digest).toBe(digests.A);
    expect(done.B!.results.digest).toBe(digests.B);
    expect(digests.A).not.toBe(digests.B);
    expect(together).toBeGreaterThan(0);
    expect(p.samplesVersion).toBeGreaterThan(0);
    // the live series read per frame hold the samples of the results
    expect([...p.runs.A!.liveTelemetry.series.timeNs.view()]).toEqual(done.A!.results.series.timeNs);
    const live = p.runs.B!.liveTelemetry.series.chipPowerW.view();
    const final = done.B!.results.series.chipPowerW; // rounded to 10 significant digits in the results
    expect(live.length).toBe(final.length);
    live.forEach((w, i) => expect(Math.abs(w - final[i]!)).toBeLessThan(1e-8 * Math.max(1, Math.abs(w))));
    expect(p.status('A')).toBe('done');
    expect(p.active).toBe(false);
  });

  it('stop() ends both at once and start() says it was stopped', async () => {
    const { p } = pair(2, LONG, LONG);
    expect(p.cpusEach).toBe(1);
    const started = p.start();
    const ctlA = p.runs.A!.sim.views.ctl;
    const ctlB = p.runs.B!.sim.views.ctl;
    const t0 = performance.now();
    while ((Atomics.load(ctlA, CTL.epoch) < 2 || Atomics.load(ctlB, CTL.epoch) < 2) && performance.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 2));
    expect(p.active).toBe(true);
    p.stop();
    await expect(started).rejects.toBeInstanceOf(PairStopped);
    expect(p.status('A')).toBe('halted');
    expect(p.status('B')).toBe('halted');
    expect(p.active).toBe(false);
    expect(p.stopped).toBe(true);
  });
});
