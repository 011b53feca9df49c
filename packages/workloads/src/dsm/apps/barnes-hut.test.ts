import { describe, expect, it } from 'vitest';
import type { Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp } from '../api';
import { barnesHut, bhArraysOf, bhReferenceCached, type BhSize } from './barnes-hut';
import { B_VEL, BODY_BYTES, CELL_BYTES, LEAF_BYTES } from './bh-model';
import { bhReference } from './bh-reference';
import { runInterleaved, runOnLocal, runPhases } from './test-helper';

const tiny: BhSize = { bodies: 256, steps: 2 };

describe('barnes-hut on LocalDsm', () => {
  it('tiny: the DSM program gives the reference bit for bit on one processor', () => {
    const r = runOnLocal(barnesHut, tiny);
    expect(r.check!.correct).toBe(true);
    expect(r.check!.detail).toContain('position 0.00e+0, velocity 0.00e+0, acceleration 0.00e+0');
  });

  it('small: check passes', () => {
    const t = Date.now();
    const r = runOnLocal(barnesHut, barnesHut.sizes.small);
    console.log('small', barnesHut.describe(barnesHut.sizes.small), 'wall ms', Date.now() - t, 'simulated ns', r.runTimeNs);
    expect(r.check!.correct).toBe(true);
  }, 60_000);

  it('check fails when one body velocity is wrong', () => {
    const broken: DsmApp<BhSize> = {
      ...barnesHut,
      *check(dsm: Dsm, size: BhSize): Sim<CheckResult> {
        const p = yield* dsm.open(bhArraysOf(dsm)!.bodies, 17, true);
        dsm.core.storeF64(p + B_VEL, dsm.core.loadF64(p + B_VEL) * (1 + 1e-6));
        return yield* barnesHut.check(dsm, size);
      },
    };
    const r = runOnLocal(broken, tiny);
    expect(r.check!.correct).toBe(false);
    expect(r.check!.detail).toMatch(/worst body 17/);
  });

  it('several processors (interleaved on one memory, parallel tree build with locks, cost zones) agree with the reference', () => {
    for (const procs of [3, 5]) {
      const c = runInterleaved(barnesHut, tiny, procs);
      expect(c.correct, `${procs} processors: ${c.detail}`).toBe(true);
    }
  });

  it('golden: the reference physics and the simulated time at the tiny size', () => {
    const ref = bhReference(tiny);
    let pot = 0;
    for (let b = 0; b < tiny.bodies; b++) pot += ref.phi[b]! / tiny.bodies;
    expect({ cells: ref.cells, leaves: ref.leaves, n2b: ref.n2b, nbc: ref.nbc }).toEqual({ cells: 17, leaves: 85, n2b: 12839, nbc: 8790 });
    expect(pot).toBe(-0.2258657171246592);
    expect(ref.pos[0]).toBe(-2.8780510744876344);
    // the simulated time of the whole run on one 300 MHz node (loads, stores, x87 model costs)
    expect(runOnLocal(barnesHut, tiny).runTimeNs).toBe(30249298.101);
  });

  it('access pattern per phase on one processor (1 step) follows the tree', () => {
    const size: BhSize = { bodies: 256, steps: 1 };
    const ref = bhReferenceCached(size);
    const ph = runPhases(barnesHut, size);
    const n = size.bodies;
    const D = ref.depth;
    const get = (i: number, k: string): number => ph[i]!.get(k) ?? 0;
    expect(ph.length).toBe(7 + D);
    // init (processor 0): every body written, the root cell, the root box
    expect([get(0, 'bodies:w'), get(0, 'cells:w'), get(0, 'global:w')]).toEqual([n, 1, 1]);
    // tree build: each body read for its coordinates and written into a leaf, again when moved by a subdivision;
    // one lock per insertion, one per subdivision (cells - 1), CountLock
    expect([get(1, 'bodies:r'), get(1, 'bodies:w'), get(1, 'acquire')]).toEqual([n + ref.moves, n + ref.moves, n + ref.cells]);
    // centre of mass, depth by depth: each leaf and cell written once (reopened for its stores after its children's
    // opens); each body read once; each node read for its depth, to sum its children and as a child
    const sum = (k: string): number => ph.slice(2, 3 + D).reduce((s, m) => s + (m.get(k) ?? 0), 0);
    expect([sum('leaves:w'), sum('cells:w'), sum('bodies:r')]).toEqual([ref.leaves, ref.cells, n]);
    expect(sum('leaves:r') + sum('cells:r')).toBe(3 * (ref.cells + ref.leaves) - 1);
    // cost zones (one processor takes the whole tree): the root read for the average cost, then each node opened
    // as a child for its cost and again to descend
    expect(get(3 + D, 'bodies:r')).toBe(n);
    expect(get(3 + D, 'cells:r') + get(3 + D, 'leaves:r')).toBe(2 * (ref.cells + ref.leaves));
    // forces: one open per node visited by the walks, one per body-body term; each own body read before its walk
    // and written after it
    expect(get(4 + D, 'cells:r') + get(4 + D, 'leaves:r')).toBe(ref.visits);
    expect([get(4 + D, 'bodies:r'), get(4 + D, 'bodies:w')]).toEqual([ref.n2b + n, n]);
    // update: each own body written; the extent under CountLock
    expect([get(5 + D, 'bodies:w'), get(5 + D, 'acquire'), get(5 + D, 'global:w')]).toEqual([n, 1, 1]);
  });

  it('object sizes, sizes and locks', () => {
    expect([BODY_BYTES, CELL_BYTES, LEAF_BYTES]).toEqual([112, 104, 120]);
    expect(barnesHut.describe(barnesHut.sizes['paper-lg'])).toBe('131072 bodies, 3 steps');
    expect(barnesHut.describe(barnesHut.sizes['paper-sm'])).toBe('32768 bodies, 3 steps');
    expect(barnesHut.locks(barnesHut.sizes.small, 32)).toBe(2049);
    expect(() => runOnLocal(barnesHut, { bodies: 1, steps: 1 })).toThrow(/bodies must be an integer in 2\.\./);
  });
});
