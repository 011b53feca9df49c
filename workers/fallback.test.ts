/**
 * The fallback without SharedArrayBuffer gives the digests of shared memory: golden experiments
 * run (a) inline on shared buffers, (b) on worker threads (8 cores per worker, the bundled
 * worker) and (c) through the fallback host and its runner, here joined by a MessageChannel
 * instead of a Web Worker (the same messages, transfers and yields between slices), with the
 * driver reading only its mirror. Live control (pause, step, a divisor change, resume) goes
 * through the host's control channel, and the changed run replays to its digest.
 */
import { existsSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeLayout, resolveChip, Simulation, type ExperimentInput } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { fallbackHost, type WorkerLike } from './fallback-host';
import { mirroredSegments, segmentBytes, type FromFallbackWorker, type ToFallbackWorker } from './fallback-protocol';
import { FallbackRunner, inThreadFallbackHost } from './fallback-runner';
import { nodeHost } from './node-host';

const workerUrl = new URL('../packages/cli/dist/worker.mjs', import.meta.url);

/** A "worker" in this thread: the runner behind a MessageChannel, yielding with setImmediate between slices. */
function channelWorker(): WorkerLike {
  const { port1, port2 } = new MessageChannel();
  const runner = new FallbackRunner(workloads, {
    post: (msg, transfer) => port2.postMessage(msg, transfer),
    nowMs: () => performance.now(),
    later: (fn) => setImmediate(fn),
  });
  port2.on('message', (msg: ToFallbackWorker) => runner.receive(msg));
  const w: WorkerLike = {
    onmessage: null,
    postMessage: (msg, transfer) => port1.postMessage(msg, transfer),
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
  port1.on('message', (data: FromFallbackWorker) => w.onmessage?.({ data }));
  return w;
}

const scc = (name: string, params: Record<string, unknown>): ExperimentInput => ({ version: 1, chip: { preset: 'scc' }, workload: { name, params: params as Record<string, number> }, seed: 1 });

// from packages/workloads/src/golden.test.ts
const GOLDEN: [string, Record<string, unknown>, string][] = [
  ['mpb-pingpong', { hops: 3, bytes: 256 }, '9bed29c6ac6efe42'],
  ['stale-read', {}, '5a6cf66bc8f25197'],
  ['rcce-pair', {}, '570bc6352b6c56b3'],
  ['memtest', { controller: 2 }, '4d6ed21b958804db'],
];

describe('fallback digests equal shared-memory digests', () => {
  it.each(GOLDEN)('%s %o: inline shared, 8 cores per worker thread, fallback', async (name, params, golden) => {
    const exp = scc(name, params);
    const inline = new Simulation(exp, workloads).runInline();
    expect(inline.digest).toBe(golden);
    if (existsSync(fileURLToPath(workerUrl))) {
      const threads = await new Simulation(exp, workloads, { coresPerWorker: 8 }).start(nodeHost(workerUrl));
      expect(threads.digest).toBe(golden);
    }
    const sim = new Simulation(exp, workloads, { memory: 'mirror' });
    expect(sim.views.state instanceof SharedArrayBuffer).toBe(false);
    expect(sim.views.pool.byteLength).toBe(0); // the driver only mirrors the state
    const host = name === 'stale-read' ? inThreadFallbackHost(workloads) : fallbackHost(channelWorker);
    const r = await sim.start(host);
    expect(r.digest).toBe(golden);
    expect(r.host.name).toBe(name === 'stale-read' ? 'in-thread-fallback-1-worker' : 'browser-fallback-1-worker');
    expect([r.host.workers, r.host.coresPerWorker]).toEqual([1, 48]);
    expect(r.workload.rows).toEqual(inline.workload.rows);
    expect(host.stats().copies).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

describe('live control through the fallback host', () => {
  const exp = scc('l1-stream', { loads: 200_000, cores: 16 });
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 4000 && !ok(); i++) await new Promise((r) => setTimeout(r, 2));
    expect(ok()).toBe(true);
  };

  it('starts paused, steps one epoch, takes a divisor change, resumes; the change replays to the digest', async () => {
    const sim = new Simulation(exp, workloads, { memory: 'mirror' });
    sim.pause(); // before the start: travels with the start message
    const host = fallbackHost(channelWorker);
    const done = sim.start(host);
    await until(() => sim.progress().status === 'paused');
    const e0 = sim.progress().epoch;
    expect(e0).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(sim.progress().epoch).toBe(e0);
    sim.step();
    await until(() => sim.progress().epoch === e0 + 1 && sim.progress().status === 'paused');
    sim.setIslandDivisor(1, 6);
    sim.resume();
    await until(() => sim.liveChangeAcknowledged() || sim.progress().status === 'done');
    const live = await done;
    const events = sim.appliedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'island-divisor', island: 1, divisor: 6 });
    expect(live.simulated.islands[1]!.divisor).toBe(6);
    expect(new Simulation({ ...exp, timeline: events }, workloads).runInline().digest).toBe(live.digest);
    expect(live.digest).not.toBe(new Simulation(exp, workloads).runInline().digest);
    // many copies while it ran, each the mirrored regions only
    const s = host.stats();
    expect(s.copies).toBeGreaterThan(3);
    expect(s.lastBytes).toBeLessThan(sim.run.layout.stateBytes / 20);
  }, 60_000);

  it('stop ends the run at a boundary with the results so far', async () => {
    const sim = new Simulation(exp, workloads, { memory: 'mirror' });
    const done = sim.start(fallbackHost(channelWorker));
    await until(() => sim.progress().epoch > 3);
    sim.stop();
    const r = await done;
    expect(r.simulated.stopped).toBe(true);
    expect(r.simulated.endTimeNs).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a run of several workers with a message naming the fix', async () => {
    const sim = new Simulation(exp, workloads, { coresPerWorker: 8 });
    await expect(sim.start(fallbackHost(channelWorker))).rejects.toThrow("the fallback runs every core in one worker; this run has 6 workers (use Simulation memory 'mirror')");
  });

  it('an error in the worker rejects the run with its message', async () => {
    // a workload the driver knows and the worker's registry does not
    const registry = { ...workloads, 'only-here': { ...workloads['memtest']!, name: 'only-here' } };
    const sim = new Simulation(scc('only-here', {}), registry, { memory: 'mirror' });
    await expect(sim.start(fallbackHost(channelWorker))).rejects.toThrow('workload.name: unknown workload "only-here"');
  }, 60_000);
});

describe('what a slice copies on the 48-core SCC', () => {
  it('the mirrored regions, with the used part of the series and events', () => {
    const layout = computeLayout(resolveChip('scc', {}));
    const ctl = new Int32Array(32);
    const none = segmentBytes(mirroredSegments(layout, ctl, []));
    ctl[8] = 100; // CTL.seriesCount
    const withSeries = segmentBytes(mirroredSegments(layout, ctl, []));
    expect(withSeries - none).toBe(100 * layout.seriesStride * 8);
    // counters 48 x CORE_SLOTS x 8 B, MPBs 24 x 8 KB, the message matrix 48 x 48 x 16 B, ...: well under 1 % of the state
    expect(none).toBeGreaterThan(48 * 48 * 16 + 24 * 8192);
    expect(none).toBeLessThan(layout.stateBytes / 100);
    console.log(`fallback copy, 48-core SCC: ${none} B per slice + ${layout.seriesStride * 8} B per series sample (state ${layout.stateBytes} B)`);
  });
});
