/// <reference types="node" />
/**
 * LiveRun in the fallback without SharedArrayBuffer (one worker owns the state; the run's views
 * are a mirror it copies into): the speed governor's pauses and resumes, a start paused, a step
 * and a live divisor change travel through the host's control channel, frame pacing is off, and
 * the digest is the inline run's. The fallback's runner runs on this thread here
 * (inThreadFallbackHost: the same messages as the Web Worker).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Simulation, type ExperimentInput } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import type { LiveRun } from './live-run';
import { fallbackLiveRun } from './fallback-run.test-helper';

const EXPERIMENT: ExperimentInput = {
  version: 1,
  chip: { preset: 'scc', overrides: {} },
  workload: { name: 'l1-stream', params: { cores: 16, loads: 3000, bufferBytes: 65536, strideBytes: 32 } },
};

const runs: LiveRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) r.dispose();
});

function fallbackRun(speedNsPerS = Infinity): LiveRun {
  const r = fallbackLiveRun(EXPERIMENT, speedNsPerS);
  runs.push(r);
  return r;
}

const until = async (ok: () => boolean, what: string) => {
  for (let i = 0; i < 5000 && !ok(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(ok(), what).toBe(true);
};

describe('LiveRun in the fallback mode', () => {
  const inline = new Simulation(EXPERIMENT, workloads).runInline();

  it('runs one worker with a mirror, no pacing; the governor holds it to its speed; same digest', async () => {
    const r = fallbackRun(400_000); // 400 us of simulated time per wall second
    expect(r.fallback).toBe(true);
    expect([r.sim.workers, r.sim.coresPerWorker, r.sim.memory]).toEqual([1, 48, 'mirror']);
    expect(r.pacingStats()).toBeNull();
    const t0 = performance.now();
    const done = r.finished();
    r.start();
    const results = await done;
    const wallS = (performance.now() - t0) / 1000;
    expect(results.digest).toBe(inline.digest);
    expect(results.host.name).toBe('in-thread-fallback-1-worker');
    // the governor paused and resumed it through control messages: it took at least its simulated time at that speed
    expect(wallS).toBeGreaterThan((results.simulated.endTimeNs / 400_000) * 0.8);
  }, 60_000);

  it('starts paused, steps, takes a divisor change while running, and replays to its digest', async () => {
    const r = fallbackRun();
    r.start(true);
    await until(() => r.progress().status === 'paused' && r.progress().epoch === 1, 'paused after the first epoch');
    r.step();
    await until(() => r.progress().epoch === 2 && r.progress().status === 'paused', 'one more epoch');
    r.setIslandDivisor(0, 6);
    const done = r.finished();
    r.resume();
    const results = await done;
    const tl = r.reproducible().timeline;
    expect(tl).toHaveLength(1);
    expect(tl[0]).toMatchObject({ kind: 'island-divisor', island: 0, divisor: 6 });
    expect(results.digest).toBe(new Simulation({ ...EXPERIMENT, timeline: tl }, workloads).runInline().digest);
    expect(results.digest).not.toBe(inline.digest);
  }, 60_000);
});
