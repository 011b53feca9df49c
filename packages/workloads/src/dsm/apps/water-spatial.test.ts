import { describe, expect, it } from 'vitest';
import type { Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp } from '../api';
import { runInterleaved, runOnLocal, runPhases } from './test-helper';
import { waterSpatial, wsArraysOf, type WsSize } from './water-spatial';
import { BOX_BYTES, MOL_BYTES, fOff, geometry, neighbours, partition } from './ws-model';
import { wsInitial, wsReference } from './ws-reference';

const tiny: WsSize = { molecules: 216, steps: 2 };

describe('water-spatial on LocalDsm', () => {
  it('tiny: every molecule bit-identical to the reference, sums within tolerance', () => {
    const r = runOnLocal(waterSpatial, tiny);
    expect(r.check!.correct).toBe(true);
    expect(r.check!.detail).toContain('all bit-identical');
  });

  it('small: check passes', () => {
    const t = Date.now();
    const r = runOnLocal(waterSpatial, waterSpatial.sizes.small);
    console.log('small', waterSpatial.describe(waterSpatial.sizes.small), 'wall ms', Date.now() - t, 'simulated ns', r.runTimeNs);
    expect(r.check!.correct).toBe(true);
  }, 60_000);

  it('check fails when one molecule position is wrong', () => {
    const broken: DsmApp<WsSize> = {
      ...waterSpatial,
      *check(dsm: Dsm, size: WsSize): Sim<CheckResult> {
        const p = yield* dsm.open(wsArraysOf(dsm)!.molecules, 100, true);
        dsm.core.storeF64(p + fOff(0, 1, 2), dsm.core.loadF64(p + fOff(0, 1, 2)) + 1e-12);
        return yield* waterSpatial.check(dsm, size);
      },
    };
    const r = runOnLocal(broken, tiny);
    expect(r.check!.correct).toBe(false);
    expect(r.check!.detail).toContain('1 differ (first: molecule 100)');
  });

  it('several processors (interleaved on one memory, fixed boxes, sums under locks) agree with the reference', () => {
    for (const procs of [2, 3, 8]) {
      const c = runInterleaved(waterSpatial, tiny, procs);
      expect(c.correct, `${procs} processors: ${c.detail}`).toBe(true);
    }
  });

  it('golden: the reference physics and the simulated time at the tiny size', () => {
    const ref = wsReference(tiny);
    expect([ref.pot, ref.vir, ref.kin[0], ref.mol[5]]).toEqual([-5975.944428164828, 5807764.6630857745, 105286.65127828706, 0.5998432501098406]);
    expect([ref.pairs, ref.interacting]).toEqual([92880, 12528]);
    expect(runOnLocal(waterSpatial, tiny).runTimeNs).toBe(206062578.348);
  });

  it('access pattern per phase on one processor (1 step) follows the boxes', () => {
    const size: WsSize = { molecules: 216, steps: 1 };
    const g = geometry(size.molecules);
    const { lists } = wsInitial(size);
    const ref = wsReference(size);
    const ph = runPhases(waterSpatial, size);
    const get = (i: number, k: string): number => ph[i]!.get(k) ?? 0;
    const boxes = g.b ** 3;
    let interfMolReads = 0;
    let interfBoxReads = 0;
    let potMolReads = 0;
    for (let b = 0; b < boxes; b++) {
      let around = 0;
      for (const nb of neighbours(g, b)) {
        interfMolReads += lists[nb]!.length * (1 + lists[b]!.length);
        interfBoxReads += 1 + lists[nb]!.length;
        around += lists[nb]!.length;
      }
      potMolReads += lists[b]!.length * (1 + around);
    }
    expect(ph.length).toBe(6);
    // PREDIC + INTRAF: each own molecule written once (one box head read per own box)
    expect([get(1, 'molecules:w'), get(1, 'boxes:r')]).toEqual([size.molecules, boxes]);
    // INTERF: each neighbour molecule once per own box, each own molecule once per neighbour molecule;
    // an own molecule reopened for writing per interacting pair; the virial under its lock
    expect([get(2, 'molecules:r'), get(2, 'boxes:r'), get(2, 'molecules:w'), get(2, 'acquire')]).toEqual([interfMolReads, interfBoxReads, ref.interacting, 1]);
    // CORREC + KINETI: each own molecule written once; the kinetic sums under their lock
    expect([get(3, 'molecules:w'), get(3, 'acquire'), get(3, 'global:w')]).toEqual([size.molecules, 1, 1]);
    // POTENG: each own molecule, then every molecule of its neighbour boxes
    expect([get(4, 'molecules:r'), get(4, 'acquire')]).toEqual([potMolReads, 1]);
  });

  it('partition: every box owned by exactly one processor; 32 processors on the small size each own 2', () => {
    for (const [b, procs] of [[4, 32], [7, 32], [15, 32], [4, 5], [2, 3]] as const) {
      const owned = Array.from({ length: procs }, (_, me) => partition(b, procs, me));
      expect(owned.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: b ** 3 }, (_, i) => i));
    }
    expect(partition(4, 32, 0)).toHaveLength(2);
  });

  it('object sizes, sizes and bad input', () => {
    expect([MOL_BYTES, BOX_BYTES]).toEqual([680, 24]);
    expect(waterSpatial.describe(waterSpatial.sizes['paper-sm'])).toBe('4096 molecules, 9 steps (7^3 boxes)');
    expect(waterSpatial.describe(waterSpatial.sizes['paper-lg'])).toBe('32768 molecules, 2 steps (15^3 boxes)');
    expect(waterSpatial.describe(waterSpatial.sizes.small)).toBe('1000 molecules, 2 steps (4^3 boxes)');
    expect(waterSpatial.locks(waterSpatial.sizes.small, 32)).toBe(3);
    expect(() => runOnLocal(waterSpatial, { molecules: 64, steps: 1 })).toThrow(/2 x cutoff\) is needed/);
  });
});
