/// <reference types="node" />
/**
 * LiveRun on real worker threads (the node host and the bundled worker of the CLI, built by
 * `npm run build:node`): frame pacing, the user's pause and a hidden page never change the
 * results, and the pacer never resumes a run the user paused.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CTL, Simulation, type ExperimentInput } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { nodeHost } from '@manycore/workers/node-host';
import { browserPacerHost } from './frame-pacer';
import { LiveRun } from './live-run';
import { fakeFrames } from './fake-frames.test-helper';

const workerUrl = new URL('../../../../packages/cli/dist/worker.mjs', import.meta.url);
const EXPERIMENT: ExperimentInput = {
  version: 1,
  chip: { preset: 'scc', overrides: {} },
  workload: { name: 'l1-stream', params: { cores: 16, loads: 3000, bufferBytes: 65536, strideBytes: 32 } },
};
const REQUEST_PAUSE = 1;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function liveRun(opts: { frameMs?: number; hidden?: () => boolean; workersAsleep?: boolean } = {}) {
  const frames = fakeFrames(opts.frameMs ?? 4);
  cleanups.push(frames.stop);
  let run: LiveRun | null = null;
  run = new LiveRun(EXPERIMENT as never, {
    coresPerWorker: 8,
    host: () => nodeHost(workerUrl),
    registry: workloads,
    frames,
    hidden: opts.hidden,
    pacerHost: browserPacerHost(() => Atomics.load(run!.sim.views.ctl, CTL.status) === 1),
  });
  cleanups.push(() => run!.dispose());
  return run;
}

async function finished(run: LiveRun, timeoutMs = 60_000): Promise<void> {
  const t0 = performance.now();
  while (run.status === 'running' || run.status === 'paused') {
    if (performance.now() - t0 > timeoutMs) throw new Error(`run still ${run.status}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let inlineDigest = '';
beforeAll(() => {
  if (!existsSync(fileURLToPath(workerUrl))) throw new Error('run `npm run build:node` first (npm test does)');
  inlineDigest = new Simulation(EXPERIMENT, workloads).runInline().digest;
});

describe('LiveRun with frame pacing', () => {
  it('a paced run gives the same digest as an inline run, and the pacer did hold the workers', async () => {
    const run = liveRun();
    const results = run.finished();
    run.start();
    await finished(run);
    expect(run.status).toBe('done');
    expect(run.results!.digest).toBe(inlineDigest);
    expect(await results).toBe(run.results); // finished() resolves with the same results
    const s = run.pacingStats()!;
    expect(s.frames).toBeGreaterThan(5);
    expect(s.heldMs).toBeGreaterThan(0);
  });

  it('the pacer never resumes a run the user paused; resume and step still work', async () => {
    const run = liveRun({ frameMs: 2 });
    run.start();
    const ctl = run.sim.views.ctl;
    while (Atomics.load(ctl, CTL.epoch) < 20) await new Promise((r) => setTimeout(r, 2));
    run.pause();
    expect(run.status).toBe('paused');
    await new Promise((r) => setTimeout(r, 100)); // the epoch in flight ends, frames keep coming
    const e0 = Atomics.load(ctl, CTL.epoch);
    await new Promise((r) => setTimeout(r, 200));
    expect(Atomics.load(ctl, CTL.epoch)).toBe(e0);
    expect(Atomics.load(ctl, CTL.request)).toBe(REQUEST_PAUSE);
    run.step();
    const t0 = performance.now();
    while (Atomics.load(ctl, CTL.epoch) === e0 && performance.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 100));
    expect(Atomics.load(ctl, CTL.epoch)).toBe(e0 + 1);
    expect(run.status).toBe('paused');
    run.resume();
    expect(run.status).toBe('running');
    await finished(run);
    expect(run.results!.digest).toBe(inlineDigest);
  });

  it('a hidden page is not paced', async () => {
    let hidden = true;
    const run = liveRun({ hidden: () => hidden });
    run.start();
    const ctl = run.sim.views.ctl;
    while (Atomics.load(ctl, CTL.epoch) < 20) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 50));
    expect(run.pacingStats()!.frames).toBe(0);
    expect(run.pacingStats()!.heldMs).toBe(0);
    hidden = false;
    await finished(run);
    expect(run.results!.digest).toBe(inlineDigest);
  });
});
