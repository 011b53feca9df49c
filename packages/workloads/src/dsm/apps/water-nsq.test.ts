import { describe, expect, it } from 'vitest';
import { MOLECULE_BYTES, WATER_TOLERANCE, compLast, touchedOrder, waterBlockOf, waterNsq, waterReference, waterStart, type WaterSize } from './water-nsq';
import { runInterleaved, runOnLocal } from './test-helper';

const tiny: WaterSize = { molecules: 27, steps: 2 };

describe('Water-N-Squared on the sequential runtime', () => {
  it('at small: the shared molecules equal the plain-JavaScript reference (one processor: bit-exact)', () => {
    const r = runOnLocal(waterNsq, waterNsq.sizes.small);
    expect(r.check.correct).toBe(true);
    expect(r.check.detail).toMatch(/^216 molecules after 2 steps within 1e-9 of the sequential run \(largest deviation 0\.00e\+0\); kinetic sum /);
  });

  it('at a tiny size: golden energies after 2 steps (catch any change of the arithmetic or the initial state)', () => {
    const r = runOnLocal(waterNsq, tiny);
    expect(r.check.detail).toBe(
      '27 molecules after 2 steps within 1e-9 of the sequential run (largest deviation 0.00e+0); kinetic sum 0.00010942632078081907, POTA -70.86573696555182, POTR 0.5302985826095762, POTRF 0.014321212590734095',
    );
    const g = waterReference(tiny).globals;
    expect([g[4], g[5], g[6]]).toEqual([-70.86573696555182, 0.5302985826095762, 0.014321212590734095]);
  });

  it('several processors (interleaved between barriers) sum the forces in another order: within the tolerance, not bit-exact', () => {
    for (const [size, procs] of [
      [tiny, 4],
      [{ molecules: 64, steps: 2 }, 5],
    ] as const) {
      const c = runInterleaved(waterNsq, size, procs, { fine: false });
      expect(c.correct).toBe(true);
      const dev = Number(/largest deviation ([^)]+)\)/.exec(c.detail)![1]);
      expect(dev).toBeGreaterThan(0);
      expect(dev).toBeLessThan(1e-12);
    }
  });

  it('the check fails, naming the value, when one force component is off by 1e-6 of its field', () => {
    const r = runOnLocal(waterNsq, tiny, undefined, function* (dsm) {
      const mols = { id: 0, name: 'molecules', count: 27, objectBytes: MOLECULE_BYTES };
      const a = yield* dsm.open(mols, 5, true);
      const off = 24 + 8 * ((7 * 3 + 0) * 3 + 1); // F[FORCES][x][O]
      let max = 0;
      for (let m = 0; m < 27; m++) {
        const b = yield* dsm.open(mols, m, false);
        for (let k = 0; k < 9; k++) max = Math.max(max, Math.abs(dsm.core.loadF64(b + 24 + 8 * (7 * 9 + k))));
      }
      dsm.core.storeF64(a + off, dsm.core.loadF64(a + off) + 1e-6 * max);
    });
    expect(r.check.correct).toBe(false);
    expect(r.check.detail).toMatch(/^differs from the sequential run beyond 1e-9 relative: first at molecule 5 F\[7\]\[0\]\[1\]: /);
    expect(WATER_TOLERANCE).toBe(1e-9);
  });

  it('processor 1 of 4 reads its own block and the half of the array after it, in increasing order, and updates it under 3 block locks', () => {
    const size: WaterSize = { molecules: 64, steps: 2 };
    expect([waterStart(64, 1, 4), waterStart(64, 2, 4)]).toEqual([16, 32]);
    const { counts } = runOnLocal(waterNsq, size, { me: 1, procs: 4 });
    // pair loops: own m opened once, then 32 partners (m even) or 31 (m odd): 16 + 8 x 32 + 8 x 31 = 520 reads, 3 INTERFs + POTENG
    // plus KINETI 16 x 3 directions x 2 steps and POTENG's intra-molecular energy 16
    expect(counts.reads.get('molecules')).toBe(4 * 520 + 96 + 16);
    // INTRAF 3 x 16, updates 3 x 47 (molecules 16..62), mass scaling 3 x 16, PREDIC, CORREC, BNDRY 2 x 16 each
    expect(counts.writes.get('molecules')).toBe(48 + 3 * 47 + 48 + 3 * 32);
    const opened = [...counts.perObject.get('molecules')!.keys()].sort((a, b) => a - b);
    expect(opened).toEqual(Array.from({ length: 47 }, (_, i) => 16 + i));
    expect(touchedOrder(64, 1, 4)).toEqual(Array.from({ length: 47 }, (_, i) => 16 + i));
    // locks: blocks 1, 2, 3 once per INTERF; IntrafVir (4), InterfVir (5) 3 x; KinetiSum (6) 3 directions x 2 steps; PotengSum (7) once
    expect(Object.fromEntries(counts.acquires)).toEqual({ 1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 6, 7: 1 });
    expect(counts.releases).toBe(22);
    expect(counts.barriers).toBe(4 + 6 + 5);
    // processor 0 alone writes the globals (zeroing) besides the lock-protected sums
    expect(counts.writes.get('globals')).toBe(3 + 3 + 6 + 1);
  });

  it("SPLASH's comp_last rule computes every pair exactly once (even and odd n), and blocks cover the molecules", () => {
    for (const n of [2, 5, 8, 27, 64]) {
      const seen = new Map<string, number>();
      for (let m = 0; m < n; m++)
        for (let ic = m + 1; ic <= compLast(m, n); ic++) {
          const c = ic % n;
          const key = `${Math.min(m, c)}-${Math.max(m, c)}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      expect(seen.size).toBe((n * (n - 1)) / 2);
      expect([...seen.values()].every((v) => v === 1)).toBe(true);
    }
    expect(Array.from({ length: 10 }, (_, m) => waterBlockOf(10, m, 4))).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 3, 3]);
    expect(waterStart(10, 4, 4)).toBe(10);
  });

  it('describes sizes (672-byte molecules, as SPLASH) and rejects bad ones with a message naming the field', () => {
    expect(MOLECULE_BYTES).toBe(672);
    expect(waterNsq.describe(waterNsq.sizes['paper-sm'])).toBe('1728 mols, 2 steps (molecules of 672 bytes)');
    expect(waterNsq.locks(waterNsq.sizes.small, 32)).toBe(36);
    expect(() => waterReference({ molecules: 1, steps: 2 })).toThrow('water-nsq: molecules must be an integer >= 2, got 1');
    expect(() => waterReference({ molecules: 8, steps: 0 })).toThrow('water-nsq: steps must be an integer >= 1, got 0');
  });
});
