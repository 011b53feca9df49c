import { describe, expect, it } from 'vitest';
import { Simulation, type Row } from '@manycore/engine';
import { workloads } from './index';
import { islandTilesOf } from './dvfs-kernels';

function run(params: Record<string, unknown>): Row {
  const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'dvfs-kernels', params } }, workloads).runInline();
  return r.workload.rows[0]!;
}

describe('dvfs-kernels', () => {
  it('slows the kernel core\'s whole voltage island, other tiles stay at divisor 3', () => {
    expect(islandTilesOf(0)).toEqual([0, 1, 6, 7]);
    expect(islandTilesOf(47)).toEqual([16, 17, 22, 23]);
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'dvfs-kernels', params: { kernel: 'matmul', divisor: 8 } } }, workloads).runInline();
    const islands = r.simulated.islands;
    expect(islands[0]!.divisor).toBe(8);
    expect(islands[0]!.volts).toBe(0.6);
    expect(islands[1]!.divisor).toBe(3);
    expect(islands[1]!.volts).toBe(0.8);
    expect(r.workload.rows[0]!.check).toMatch(/checked/);
  });

  for (const kernel of ['dot', 'matvec']) {
    it(`${kernel} (memory-bound): cycles fall and wall time rises with the divisor; GFlops/W jumps from 2 to 5, then stays nearly flat`, () => {
      const divisors = [2, 5, 8, 16];
      const rows = divisors.map((divisor) => run({ kernel, divisor }));
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.cycles as number).toBeLessThan(rows[i - 1]!.cycles as number);
        expect(rows[i]!.wallNs as number).toBeGreaterThan(rows[i - 1]!.wallNs as number);
      }
      const eff = rows.map((r) => r.gflopsPerW as number);
      expect(eff[1]! / eff[0]!).toBeGreaterThan(2.5); // 1.1 V -> 0.6 V
      const band = eff.slice(1);
      expect(Math.max(...band) / Math.min(...band)).toBeLessThan(1.5);
      // the most efficient divisor is 5 or above
      expect(eff.indexOf(Math.max(...eff))).toBeGreaterThan(0);
    });
  }

  it('matmul (compute-bound): about the same cycles at every divisor, time scales with the period', () => {
    const a = run({ kernel: 'matmul', divisor: 2 });
    const b = run({ kernel: 'matmul', divisor: 16 });
    expect((b.cycles as number) / (a.cycles as number)).toBeGreaterThan(0.9);
    expect((b.cycles as number) / (a.cycles as number)).toBeLessThan(1.02);
    expect((b.wallNs as number) / (a.wallNs as number)).toBeGreaterThan(7);
  });
});
