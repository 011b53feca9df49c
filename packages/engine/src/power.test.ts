import { describe, expect, it } from 'vitest';
import { runProgram } from './testing';
import { DUE } from './core';

function busy(cores: number[], extra: Partial<Parameters<typeof runProgram>[0]> = {}) {
  return runProgram({
    cores,
    *program(core) {
      for (let i = 0; i < 200; i++) {
        core.compute(1000);
        if (core.due()) yield DUE;
      }
    },
    ...extra,
  });
}

describe('power (533/800/800)', () => {
  it('draws about 31.6 W with 2 busy cores and 46 idle, and about 50.8 W with all 48 busy', () => {
    expect(busy([0, 1]).simulated.chip.avgPowerW).toBeCloseTo(31.6, 0);
    expect(busy(Array.from({ length: 48 }, (_, i) => i)).simulated.chip.avgPowerW).toBeCloseTo(50.8, 0);
  });

  it('is linear in the number of busy cores', () => {
    const w = [2, 12, 24, 36, 48].map((n) => busy(Array.from({ length: n }, (_, i) => i)).simulated.chip.avgPowerW);
    const slope = (w[4]! - w[0]!) / 46;
    expect(slope).toBeGreaterThan(0.38);
    expect(slope).toBeLessThan(0.46);
    for (let i = 1; i < 4; i++) {
      const n = [2, 12, 24, 36, 48][i]!;
      expect(Math.abs(w[i]! - (w[0]! + slope * (n - 2)))).toBeLessThan(0.2);
    }
  });

  it('a timeline divisor change slows the island and cuts its power at the stated time', () => {
    const all = Array.from({ length: 48 }, (_, i) => i);
    const base = busy(all);
    const slowed = busy(all, { timeline: [{ kind: 'island-divisor', atNs: 50_000, island: 0, divisor: 8 }] });
    expect(slowed.simulated.events).toEqual([{ kind: 'island-divisor', atNs: 50_000, island: 0, divisor: 8 }]);
    const island0 = (r: typeof base) => r.simulated.islands[0]!;
    expect(island0(slowed).divisor).toBe(8);
    expect(island0(slowed).volts).toBe(0.6);
    // the island's cores (0..7: tiles 0,1,6,7 -> cores 0,1,2,3,12,13,14,15) take longer
    expect(slowed.simulated.cores[0]!.endTimeNs).toBeGreaterThan(base.simulated.cores[0]!.endTimeNs * 1.5);
    expect(slowed.simulated.cores[4]!.endTimeNs).toBe(base.simulated.cores[4]!.endTimeNs);
    // power of island 0 before and after the change, from the time series
    const s = slowed.series;
    const before = s.islandPowerW[s.timeNs.findIndex((t) => t >= 40_000)]![0]!;
    const after = s.islandPowerW[s.timeNs.findIndex((t) => t >= 70_000)]![0]!;
    expect(after).toBeLessThan(before * 0.3);
    expect(slowed.digest).not.toBe(base.digest);
  });

  it('counts waiting as polling activity, and chip time keeps up with cores that exchange messages', () => {
    const cores = Array.from({ length: 48 }, (_, i) => i);
    const r = runProgram({
      cores,
      *program(core) {
        const other = core.id ^ 1;
        for (let i = 1; i <= 200; i++) {
          if (core.id & 1) yield* core.waitUntil(core.mpbOf(core.id, 0), '==', i);
          core.store32(core.mpbOf(other, 0), i);
          if (!(core.id & 1)) yield* core.waitUntil(core.mpbOf(core.id, 0), '==', i);
        }
      },
    });
    const end = Math.max(...r.simulated.cores.map((c) => c.endTimeNs));
    // every epoch carries one message hop; chip time must not run a quantum per epoch ahead
    expect(r.series.timeNs.at(-1)!).toBeLessThanOrEqual(end + 1000);
    // about half of each core's time is waiting (spinning), half MPB stalls: well above idle
    const wait = r.simulated.cores.reduce((a, c) => a + c.stallNs.wait, 0) / 48 / end;
    expect(wait).toBeGreaterThan(0.4);
    expect(r.simulated.chip.avgPowerW).toBeGreaterThan(43);
  });
});
