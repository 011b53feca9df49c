import { describe, expect, it } from 'vitest';
import { parseExperiment, prepareRun, type ExperimentInput, type Row } from '@manycore/engine';
import { guidedById, guidedExperiments, workloads } from '@manycore/workloads';
import { SPEEDS } from '../components/Controls';
import { CORE_METRICS } from './metrics';
import { addRun, failSweep, initialSweep, paperPoints, progressText, stopSweep, SweepRunner, type StartedRun, type SweepState } from './sweep';

const quick = guidedById('pingpong-hops')!;
const rowsFor = (e: ExperimentInput): Row[] => {
  const p = e.workload.params as { hops: number; bytes: number };
  return [{ hops: p.hops, bytes: p.bytes, roundTripNs: 450 + 40 * p.hops }];
};

describe('the gallery uses the workloads registry', () => {
  it('every entry parses, its metric is a chip-view metric, and its speed is one the lab offers', () => {
    for (const g of guidedExperiments) {
      for (const e of g.experiments) expect(() => prepareRun(parseExperiment(e), workloads), g.id).not.toThrow();
      if (g.metric) expect(CORE_METRICS.map((m) => m.id), g.id).toContain(g.metric);
      if (g.speedNsPerS !== undefined) expect(SPEEDS.map((s) => s.nsPerS), g.id).toContain(g.speedNsPerS);
    }
  });
});

describe('sweep state', () => {
  it('adds each run\'s rows and points and counts progress', () => {
    let s = initialSweep(quick);
    expect(s).toMatchObject({ status: 'running', total: 8, done: 0, current: 0 });
    expect(progressText(quick, s)).toBe('run 1 of 8: hops=1');
    s = addRun(s, quick, 0, rowsFor(quick.experiments[0]!), 'd0');
    s = addRun(s, quick, 1, rowsFor(quick.experiments[1]!), 'd1');
    expect(s).toMatchObject({ done: 2, current: 2, status: 'running', digests: ['d0', 'd1'] });
    expect(s.lab).toEqual([
      { x: 1, y: 490, series: '', run: 0 },
      { x: 2, y: 530, series: '', run: 1 },
    ]);
    expect(s.rows[1]).toEqual({ run: 1, iterations: 4, hops: 2, bytes: 32, roundTripNs: 530 });
    expect(progressText(quick, s)).toBe('run 3 of 8: hops=3');
    const stopped = stopSweep(s);
    expect(stopped.lab).toHaveLength(2);
    expect(progressText(quick, stopped)).toBe('stopped after 2 of 8 runs');
    expect(stopSweep(stopped)).toBe(stopped);
    expect(progressText(quick, failSweep(s, quick, 2, 'no workers'))).toBe('failed at run 3 (hops=3): no workers');
  });

  it('finishes after the last run', () => {
    let s: SweepState = initialSweep(quick);
    quick.experiments.forEach((e, i) => (s = addRun(s, quick, i, rowsFor(e), `d${i}`)));
    expect(s).toMatchObject({ status: 'done', done: 8, current: -1 });
    expect(progressText(quick, s)).toBe('done: 8 runs, 8 points');
  });

  it('draws the paper\'s points beside the lab\'s: absolute at once, relative once the anchor arrived', () => {
    const nbody = guidedById('nbody-ring-workers')!;
    const s0 = initialSweep(nbody);
    expect(paperPoints(nbody, s0).map((p) => [p.x, p.y])).toEqual([
      [1, 967e6],
      [2, 648e6],
      [4, 702e6],
      [8, 1025e6],
      [16, 2032e6],
    ]);
    const conc = guidedById('concordance-cores')!;
    let s = initialSweep(conc);
    expect(paperPoints(conc, s)).toEqual([]);
    s = addRun(s, conc, 0, [{ cores: 1, timeNs: 1000 }], 'd');
    const p = paperPoints(conc, s);
    expect(p.map((q) => q.x)).toEqual([1, 2, 8, 32]);
    expect(p[1]!.y).toBeCloseTo((49 / 26.17) * 1000, 6);
  });
});

describe('SweepRunner', () => {
  /** A fake start: each run finishes when `release` is called. */
  function fakes() {
    const pending: { e: ExperimentInput; resolve: () => void; stopped: boolean }[] = [];
    const start = (e: ExperimentInput): StartedRun => {
      let resolve!: () => void;
      let reject!: (err: Error) => void;
      const finished = new Promise<{ rows: Row[]; digest: string }>((res, rej) => {
        resolve = () => res({ rows: rowsFor(e), digest: 'x' });
        reject = rej;
      });
      const item = { e, resolve, stopped: false };
      pending.push(item);
      return {
        finished,
        stop: () => {
          item.stopped = true;
          reject(new Error('stopped'));
        },
      };
    };
    return { pending, start };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('runs the experiments one after another and reports every change', async () => {
    const { pending, start } = fakes();
    const seen: number[] = [];
    const runner = new SweepRunner(quick, start, (s) => seen.push(s.lab.length));
    const done = runner.run();
    for (let i = 0; i < 8; i++) {
      await tick();
      expect(pending).toHaveLength(i + 1); // never two at once
      pending[i]!.resolve();
    }
    const final = await done;
    expect(final.status).toBe('done');
    expect(final.lab.map((p) => p.x)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Math.max(...seen)).toBe(8);
  });

  it('stop keeps the points so far and stops the run in progress', async () => {
    const { pending, start } = fakes();
    const runner = new SweepRunner(quick, start, () => {});
    const done = runner.run();
    await tick();
    pending[0]!.resolve();
    await tick();
    pending[1]!.resolve();
    await tick();
    runner.stop();
    const final = await done;
    expect(pending[2]!.stopped).toBe(true);
    expect(pending).toHaveLength(3);
    expect(final.status).toBe('stopped');
    expect(final.lab.map((p) => p.x)).toEqual([1, 2]);
  });

  it('a failed run ends the sweep with its message', async () => {
    const runner = new SweepRunner(
      quick,
      (e) => ({ finished: (e.workload.params as { hops: number }).hops === 2 ? Promise.reject(new Error('worker died')) : Promise.resolve({ rows: rowsFor(e), digest: 'x' }), stop: () => {} }),
      () => {},
    );
    const final = await runner.run();
    expect(final.status).toBe('error');
    expect(final.error).toBe('run 2 (hops=2): worker died');
    expect(final.lab).toHaveLength(1);
  });
});
