import { describe, expect, it } from 'vitest';
import type { Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, SharedArrayDesc } from '../api';
import { runInterleaved, runOnLocal, runPhases } from './test-helper';

/**
 * A toy program over one shared array of 8-byte slots: slot 0 a counter each processor bumps
 * `bumps` times (read, open again, write: a lost update unless under lock 0), slot 1 the next
 * free position of an order log in slots 2.. (each processor appends its number once per phase).
 */
function toy(opts: { locked: boolean; bumps: number; phases: number; skipBarrierOf?: number }): DsmApp<number> {
  const slots = 2 + 64;
  const allocated = new WeakMap<Dsm, SharedArrayDesc>(); // as the apps do: check opens what run allocated
  return {
    name: 'toy',
    title: 'toy',
    sizes: { small: 0, 'paper-sm': 0, 'paper-lg': 0 },
    describe: () => 'toy',
    locks: () => 1,
    *run(dsm: Dsm): Sim<void> {
      const a = dsm.alloc('toy', slots, 8);
      allocated.set(dsm, a);
      const c = dsm.core;
      for (let ph = 0; ph < opts.phases; ph++) {
        for (let k = 0; k < opts.bumps; k++) {
          if (opts.locked) yield* dsm.acquire(0);
          const v = c.loadF64((yield* dsm.open(a, 0, false)) + 0);
          yield* dsm.poll();
          c.storeF64(yield* dsm.open(a, 0, true), v + 1);
          if (opts.locked) yield* dsm.release(0);
        }
        const q = yield* dsm.open(a, 1, true);
        const at = c.loadF64(q);
        c.storeF64(q, at + 1);
        c.storeF64(yield* dsm.open(a, 2 + at, true), dsm.me);
        if (dsm.me !== opts.skipBarrierOf) yield* dsm.barrier();
      }
    },
    *check(dsm: Dsm): Sim<CheckResult> {
      const a = allocated.get(dsm)!;
      const c = dsm.core;
      const count = c.loadF64(yield* dsm.open(a, 0, false));
      const n = c.loadF64(yield* dsm.open(a, 1, false));
      const order: number[] = [];
      for (let i = 0; i < n; i++) order.push(c.loadF64(yield* dsm.open(a, 2 + i, false)));
      return { correct: true, detail: `count ${count}; order ${order.join(' ')}` };
    },
  };
}

describe('runInterleaved', () => {
  it('fine: an unlocked read-modify-write loses updates, under the lock it does not', () => {
    expect(runInterleaved(toy({ locked: false, bumps: 5, phases: 1 }), 0, 3).detail).toMatch(/^count 5;/);
    expect(runInterleaved(toy({ locked: true, bumps: 5, phases: 1 }), 0, 3).detail).toMatch(/^count 15;/);
  });

  it('coarse: each barrier phase runs processor 0, 1, 2 in order, with no lost update', () => {
    expect(runInterleaved(toy({ locked: false, bumps: 5, phases: 3 }), 0, 3, { fine: false }).detail).toBe('count 45; order 0 1 2 0 1 2 0 1 2');
  });

  it('a processor that skips a barrier: a clear error naming who waits, not a hang', () => {
    expect(() => runInterleaved(toy({ locked: true, bumps: 1, phases: 2, skipBarrierOf: 1 }), 0, 3)).toThrow(
      'toy: no processor can go on: processor 0 waits for a barrier, processor 2 waits for a barrier; processors 1 finished',
    );
  });

  it('runPhases counts opens and acquires per barrier phase', () => {
    const ph = runPhases(toy({ locked: true, bumps: 2, phases: 2 }), 0);
    expect(ph.map((m) => Object.fromEntries(m))).toEqual([{ 'toy:r': 2, 'toy:w': 4, acquire: 2 }, { 'toy:r': 2, 'toy:w': 4, acquire: 2 }, {}]);
  });
});

describe('apps with combine: every processor checks its own part', () => {
  /** Each processor writes its number into its own slot; its check reads its slot only, and combine joins the verdicts in order. */
  const own: DsmApp<number> = {
    name: 'own',
    title: 'own',
    sizes: { small: 0, 'paper-sm': 0, 'paper-lg': 0 },
    describe: () => 'own',
    locks: () => 0,
    *run(dsm: Dsm): Sim<void> {
      const a = dsm.alloc('own', 8, 8);
      dsm.core.storeF64(yield* dsm.open(a, dsm.me, true), 10 + dsm.me);
      yield* dsm.barrier();
    },
    *check(dsm: Dsm): Sim<CheckResult> {
      const v = dsm.core.loadF64(yield* dsm.open({ id: 0, name: 'own', count: 8, objectBytes: 8 }, dsm.me, false));
      return { correct: v === 10 + dsm.me, detail: `p${dsm.me}=${v}` };
    },
    combine: (checks) => ({ correct: checks.every((c) => c.correct), detail: checks.map((c) => c.detail).join(' ') }),
  };

  it('runInterleaved runs the check on every processor, in order, and returns the combined verdict', () => {
    expect(runInterleaved(own, 0, 3)).toEqual({ correct: true, detail: 'p0=10 p1=11 p2=12' });
  });

  it('runOnLocal passes its one processor\'s check through combine', () => {
    expect(runOnLocal(own, 0).check).toEqual({ correct: true, detail: 'p0=10' });
  });
});
