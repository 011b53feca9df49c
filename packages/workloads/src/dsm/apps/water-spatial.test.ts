import { describe, expect, it } from 'vitest';
import { Simulation, type Row, type Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp } from '../api';
import { workloads } from '../../index';
import { makeDsmWorkload } from '../workload';
import { dsmApps } from '.';
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

/**
 * Water-Spatial's start-up on the two runtimes (README "Water-Spatial at the paper sizes"): the
 * per-processor protocol counters between barriers (phase k ends at the k-th barrier: 0 INITIA,
 * then PREDIC, INTERF, CORREC per step, then POTENG), on 2 processors of cluster-1999.
 */
function phaseCounts(runtime: 'page' | 'object', size: WsSize, procs: number): { phases: number[][][]; row: Row } {
  const phases: number[][][] = Array.from({ length: procs }, () => []); // [proc][phase] = [overlappedRequests, messages]
  const wrapped = new Map<Dsm, Dsm>();
  const app: DsmApp<WsSize> = {
    ...waterSpatial,
    sizes: { ...waterSpatial.sizes, small: size },
    *run(dsm: Dsm, s: WsSize): Sim<void> {
      let last = [dsm.stats.overlappedRequests, dsm.stats.messages];
      const mark = (): void => {
        const now = [dsm.stats.overlappedRequests, dsm.stats.messages];
        phases[dsm.me]!.push([now[0]! - last[0]!, now[1]! - last[1]!]);
        last = now;
      };
      const w = new Proxy(dsm, {
        get(t, k) {
          if (k === 'barrier')
            return function* (): Sim<void> {
              mark();
              yield* t.barrier();
            };
          const v = Reflect.get(t, k) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
        },
      });
      wrapped.set(dsm, w);
      yield* waterSpatial.run(w, s);
    },
    check: (dsm: Dsm, s: WsSize) => waterSpatial.check(wrapped.get(dsm) ?? dsm, s),
  };
  const reg = { ...workloads, dsm: makeDsmWorkload({ ...dsmApps, 'water-spatial': app as DsmApp }) };
  const row = new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'water-spatial', runtime, processors: procs } }, seed: 1 }, reg).runInline().workload.rows[0]!;
  return { phases, row };
}

describe('water-spatial start-up on the DSM runtimes (why the object runtime loses at paper-lg)', () => {
  it('object runtime: after processor 0 fills every object (INITIA), each other processor fetches every object it first opens alone; a later step fetches page by page', { timeout: 30_000 }, () => {
    const size: WsSize = { molecules: 216, steps: 2 };
    const g = geometry(size.molecules);
    const { lists } = wsInitial(size);
    const procs = 2;
    const o = phaseCounts('object', size, procs);
    const p = phaseCounts('page', { molecules: 216, steps: 1 }, procs);
    expect([o.row.correct, p.row.correct]).toEqual([true, true]);
    for (let me = 1; me < procs; me++) {
      // the distinct objects processor me opens in step 0: its boxes and their molecules (PREDIC),
      // then the other neighbour boxes and their molecules (INTERF); with 2^3 boxes, all of them
      const own = partition(g.b, procs, me);
      const halo = new Set<number>();
      for (const b of own) for (const nb of neighbours(g, b)) if (!own.includes(nb)) halo.add(nb);
      const coldOwn = own.length + own.reduce((n, b) => n + lists[b]!.length, 0);
      const coldHalo = halo.size + [...halo].reduce((n, b) => n + lists[b]!.length, 0);
      expect(coldOwn + coldHalo).toBe(8 + 216);
      const [initia, predic0, interf0, correc0, , interf1] = o.phases[me]!;
      expect(initia![0]).toBe(0);
      // lazy allocation places each object at its first open, invalid (processor 0 wrote it): read
      // aggregation finds no other invalid object on its page, so one request (one round) per object
      expect(predic0![0]).toBe(coldOwn);
      // INTERF and CORREC: the same for the neighbours' boxes and molecules, plus the global sums
      // object when the lock's previous holder wrote it (InterfVirLock, KinetiSumLock)
      expect(interf0![0]! + correc0![0]!).toBeGreaterThanOrEqual(coldHalo);
      expect(interf0![0]! + correc0![0]!).toBeLessThanOrEqual(coldHalo + 2);
      // step 1: the neighbours' molecules, written again, now sit packed on this processor's pages:
      // at most one request per page of its local storage
      const pages = Math.ceil((8 * BOX_BYTES + 216 * MOL_BYTES) / 4096);
      expect(interf1![0]).toBeLessThanOrEqual(pages);
      expect(interf1![0]).toBeLessThan(coldHalo / 5);
      // the page runtime's start-up fetches whole pages of the global arrays (molecules in lattice
      // order, 6 to a page): several times fewer requests than the object runtime's
      const [, pPredic0, pInterf0, pCorrec0] = p.phases[me]!;
      expect(4 * (pPredic0![0]! + pInterf0![0]! + pCorrec0![0]!)).toBeLessThan(coldOwn + coldHalo);
    }
  });
});
