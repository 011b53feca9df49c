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

  // paper 003 lines 2219-2233: memory-bound kernels need fewer cycles but more time as the
  // divisor grows; with the paper's power model (C V^2 f) the dot product's GFlops/W rises steeply
  // from divisor 2 to 5 (the voltage drops) and by about 25 % more from 5 to 16
  for (const kernel of ['dot', 'matvec']) {
    it(`${kernel} (memory-bound): cycles fall and time rises with the divisor; GFlops/W (paper's C V^2 f) >= 1.5x from 2 to 5, then +10-60 % to 16`, () => {
      const divisors = [2, 5, 8, 16];
      const rows = divisors.map((divisor) => run({ kernel, divisor }));
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.cycles as number).toBeLessThan(rows[i - 1]!.cycles as number);
        expect(rows[i]!.kernelTimeNs as number).toBeGreaterThan(rows[i - 1]!.kernelTimeNs as number);
      }
      const paper = rows.map((r) => r.gflopsPerWattPaper as number);
      expect(paper[1]! / paper[0]!).toBeGreaterThanOrEqual(1.5);
      expect(paper[3]! / paper[1]!).toBeGreaterThanOrEqual(1.1);
      expect(paper[3]! / paper[1]!).toBeLessThanOrEqual(1.6);
      // the paper's definition is flops / (cycles x C V^2): at one voltage (5..16) it follows the cycles
      expect(paper[3]! / paper[1]!).toBeCloseTo((rows[1]!.cycles as number) / (rows[3]!.cycles as number), 9);
      // with the lab's full core power (activity, leakage) the jump from 2 to 5 stays, and the
      // most efficient divisor is 5 or above; leakage makes the slowest clocks lose some of it
      const lab = rows.map((r) => r.gflopsPerW as number);
      expect(lab[1]! / lab[0]!).toBeGreaterThan(2.5);
      expect(lab.indexOf(Math.max(...lab))).toBeGreaterThan(0);
      expect(Math.max(...lab.slice(1)) / Math.min(...lab.slice(1))).toBeLessThan(1.6);
      for (const r of rows) {
        expect(r.ipc as number).toBeGreaterThan(0);
        expect(r.ipc as number).toBeLessThan(1);
      }
    });
  }

  it('matmul (compute-bound): about the same cycles at every divisor, time scales with the period; GFlops/W (paper) flat from 5 to 16', () => {
    const a = run({ kernel: 'matmul', divisor: 2 });
    const m = run({ kernel: 'matmul', divisor: 5 });
    const b = run({ kernel: 'matmul', divisor: 16 });
    expect((b.cycles as number) / (a.cycles as number)).toBeGreaterThan(0.9);
    expect((b.cycles as number) / (a.cycles as number)).toBeLessThan(1.02);
    expect((b.kernelTimeNs as number) / (a.kernelTimeNs as number)).toBeGreaterThan(7);
    // "optimal from a frequency divisor of 5 to 16" (lines 2219-2220)
    expect((m.gflopsPerWattPaper as number) / (a.gflopsPerWattPaper as number)).toBeGreaterThan(2.5);
    expect(Math.abs((b.gflopsPerWattPaper as number) / (m.gflopsPerWattPaper as number) - 1)).toBeLessThan(0.05);
  });
});
