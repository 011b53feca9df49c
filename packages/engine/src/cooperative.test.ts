/**
 * The cooperative loop (cooperative.ts) on plain ArrayBuffers gives the digest of the blocking
 * loop on SharedArrayBuffers, however often it yields, and honours pause, step and stop at the
 * same epoch boundaries; it never waits (Atomics.wait would throw on these buffers).
 */
import { describe, expect, it } from 'vitest';
import type { SccCore } from './chips/scc/core';
import { CooperativeRun } from './cooperative';
import { DUE } from './core';
import { CTL } from './layout';
import { planOf, Simulation } from './simulation';
import { experimentFor, programWorkload, type ProgramRun } from './testing';

/** Eight cores pass a token round a ring through the MPBs (flag waits), with DRAM traffic between. */
const ring: ProgramRun<SccCore> = {
  cores: [0, 1, 2, 3, 4, 5, 6, 7],
  quantumNs: 200,
  *program(core) {
    const n = 8;
    const me = core.id;
    const next = (me + 1) % n;
    const buf = core.sharedBase + me * 4096;
    for (let round = 1; round <= 6; round++) {
      if (me === 0) core.store32(core.mpbOf(next, 0), round);
      const got = yield* core.waitUntil(core.mpbOf(me, 0), '>=', round);
      for (let i = 0; i < 64; i++) {
        core.store32(buf + i * 32, got * 1000 + i);
        core.compute(20);
        if (core.due()) yield DUE;
      }
      if (me !== 0) core.store32(core.mpbOf(next, 0), round);
    }
    yield* core.barrier();
    core.report({ core: me, value: core.load32(buf) });
  },
};
const registry = { 'test-program': programWorkload(ring) };
const experiment = experimentFor(ring);
const layout = { wlogCap: 4096, txnCap: 2048 };

describe('cooperative loop on plain buffers', () => {
  const reference = new Simulation(experiment, registry, { layout, coresPerWorker: 8 }).runInline();

  it('the reference run does some work', () => {
    expect(reference.simulated.epochs).toBeGreaterThan(20);
    expect(reference.workload.rows).toHaveLength(8);
  });

  it('plain buffers through the one-worker blocking loop give the shared digest', () => {
    const sim = new Simulation(experiment, registry, { layout, memory: 'plain', coresPerWorker: 2 });
    expect(sim.views.state instanceof SharedArrayBuffer).toBe(false);
    expect([sim.workers, sim.coresPerWorker]).toEqual([1, 48]); // one worker owns every core of the 48-core SCC
    expect(sim.runInline().digest).toBe(reference.digest);
  });

  it('yields, pauses, steps and resumes at epoch boundaries and gives the same digest', () => {
    const sim = new Simulation(experiment, registry, { layout, memory: 'plain' });
    const coop = new CooperativeRun(planOf(sim.run), registry, sim.views);
    const ctl = sim.views.ctl;
    let asked = 0;
    const everyThird = () => ++asked % 3 === 0;
    const ends: string[] = [];
    // two slices of three epochs each
    ends.push(coop.slice(everyThird), coop.slice(everyThird));
    expect(ends).toEqual(['yield', 'yield']);
    expect(ctl[CTL.epoch]).toBe(6);
    // a pause holds at the next boundary, and again on every call until the request changes
    sim.pause();
    expect(coop.slice(everyThird)).toBe('paused');
    const held = ctl[CTL.epoch]!;
    expect(held).toBe(7);
    expect(coop.slice(everyThird)).toBe('paused');
    expect(sim.progress().status).toBe('paused');
    expect(ctl[CTL.epoch]).toBe(held);
    // a step runs exactly one epoch and pauses again
    sim.step();
    expect(coop.slice(everyThird)).toBe('paused');
    expect(ctl[CTL.epoch]).toBe(held + 1);
    sim.resume();
    let slices = 0;
    let end = coop.slice(everyThird);
    while (end === 'yield') {
      slices++;
      end = coop.slice(everyThird);
    }
    expect(end).toBe('over');
    expect(slices).toBeGreaterThan(3);
    const r = sim.resultsOf([coop.result()], 'cooperative-test', 5);
    expect(r.digest).toBe(reference.digest);
    expect(r.simulated.epochs).toBe(reference.simulated.epochs);
    expect(r.host.name).toBe('cooperative-test');
    expect(ctl[CTL.epoch]).toBe(reference.simulated.epochs);
  });

  it('allocates and initialises its own buffers when given none, as a Simulation does', () => {
    const sim = new Simulation(experiment, registry, { layout, memory: 'plain' });
    const coop = new CooperativeRun(planOf(sim.run), registry);
    expect(coop.views.state).not.toBe(sim.views.state);
    expect(coop.slice(() => false)).toBe('over');
    // the driver's own views see nothing of it: copy the state over, as the web fallback does
    new Uint8Array(sim.views.state).set(new Uint8Array(coop.views.state));
    expect(sim.resultsOf([coop.result()], 'copied', 0).digest).toBe(reference.digest);
  });

  it('stops at a boundary on a stop request, and rejects a control word that does not exist', () => {
    const sim = new Simulation(experiment, registry, { layout, memory: 'plain' });
    const coop = new CooperativeRun(planOf(sim.run), registry, sim.views);
    let n = 0;
    expect(coop.slice(() => ++n >= 4)).toBe('yield');
    coop.control([CTL.request, 3]); // Request.Stop, as HostAdapter.control carries it
    expect(coop.slice(() => false)).toBe('over');
    expect(sim.progress().status).toBe('stopped');
    expect(ctl(sim)[CTL.epoch]).toBe(5);
    expect(sim.resultsOf([coop.result()], 'x', 0).simulated.stopped).toBe(true);
    expect(() => coop.control([99, 1])).toThrow('control: no ctl word 99');
  });
});

function ctl(sim: Simulation): Int32Array {
  return sim.views.ctl;
}
