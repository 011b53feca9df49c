import { describe, expect, it } from 'vitest';
import { experimentFor, programWorkload, runProgram, type ProgramRun } from './testing';
import { fitCoresPerWorker, Simulation } from './simulation';
import { DUE } from './core';

describe('simulation driver', () => {
  it('stops at the time limit and says so', () => {
    const r = runProgram({
      cores: [0, 1],
      maxTimeNs: 50_000,
      *program(core) {
        for (;;) {
          core.compute(100);
          if (core.due()) yield DUE;
        }
      },
    });
    expect(r.simulated.stopped).toBe(true);
    expect(r.simulated.endTimeNs).toBeGreaterThanOrEqual(50_000);
    expect(r.simulated.endTimeNs).toBeLessThan(51_000);
  });

  it('skips stretches where nothing can happen instead of running empty epochs', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        yield* core.sleep(1_000_000); // 1 ms at a 1 us quantum
        core.compute(10);
      },
    });
    expect(r.simulated.endTimeNs).toBeGreaterThan(1_000_000);
    expect(r.simulated.epochs).toBeLessThan(10);
    expect(r.simulated.cores[0]!.sleepNs).toBe(1_000_000);
  });

  it('samples the time series at the requested interval', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        for (let i = 0; i < 100; i++) {
          core.compute(533); // about 1 us
          if (core.due()) yield DUE;
        }
      },
    });
    const t = r.series.timeNs;
    expect(t.length).toBeGreaterThanOrEqual(10);
    // a sample lands on the first epoch boundary past each interval: within one quantum
    for (let i = 1; i < t.length - 1; i++) expect(Math.abs(t[i]! - t[i - 1]! - r.series.intervalNs)).toBeLessThanOrEqual(1000);
    expect(r.series.coreUtilization[1]![0]).toBeGreaterThan(0.95);
  });
});

describe('fitCoresPerWorker', () => {
  it('gives one worker per core when the host has a CPU for each, else about one worker per CPU', () => {
    expect(fitCoresPerWorker(48, 64)).toBe(1);
    expect(fitCoresPerWorker(48, 48)).toBe(1);
    expect(fitCoresPerWorker(48, 2)).toBe(24);
    expect(fitCoresPerWorker(48, 1)).toBe(48);
    expect(fitCoresPerWorker(256, 6)).toBe(43); // 6 workers, the last with 41 cores
    expect(fitCoresPerWorker(48, 0)).toBe(48); // a host that reports no CPU count is taken as one
  });

  it("is what coresPerWorker 'auto' uses", () => {
    const run: ProgramRun = { cores: [0], program: function* () {} };
    const registry = { 'test-program': programWorkload(run) };
    const sim = new Simulation(experimentFor(run), registry, { coresPerWorker: 'auto', hostCpus: 2 });
    expect([sim.coresPerWorker, sim.workers]).toEqual([24, 2]);
    expect(new Simulation(experimentFor(run), registry, { coresPerWorker: 'auto', hostCpus: 96 }).workers).toBe(48);
  });
});
