import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

function run(params: Record<string, unknown> = {}, chip: Record<string, unknown> = {}) {
  return new Simulation({ version: 1, chip: { preset: 'scc', overrides: chip }, workload: { name: 'memtest', params } }, workloads).runInline();
}

describe('memtest', () => {
  it('latency grows linearly with hops and matches the SCC formula at each hop count', () => {
    const r = run();
    const reads = r.workload.rows.filter((x) => x.op === 'read');
    expect(reads.map((x) => x.hops)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // 533/800/800: 40 core cycles (75 ns) + 8 x n mesh cycles (10 ns per hop) + 46 memory cycles (57.5 ns)
    for (const row of reads) {
      const formula = 75 + 10 * (row.hops as number) + 57.5;
      expect(row.formulaNs).toBeCloseTo(formula, 6);
      expect(Math.abs((row.latencyNs as number) - formula) / formula).toBeLessThan(0.01);
    }
    // linear: successive differences are all about one hop (10 ns)
    for (let h = 1; h < reads.length; h++) {
      const d = (reads[h]!.latencyNs as number) - (reads[h - 1]!.latencyNs as number);
      expect(d).toBeGreaterThan(9.5);
      expect(d).toBeLessThan(10.5);
    }
    const writes = r.workload.rows.filter((x) => x.op === 'write');
    expect(writes).toHaveLength(9);
  });

  it('on a 16 x 16 mesh every core tests the chosen controller: latency keeps growing one hop at a time', () => {
    const r = new Simulation(
      { version: 1, chip: { preset: 'mesh', overrides: { mesh: { width: 16, height: 16 } } }, workload: { name: 'memtest', params: { accesses: 4 } } },
      workloads,
    ).runInline();
    const reads = r.workload.rows.filter((x) => x.op === 'read');
    expect(reads.length).toBeGreaterThan(20);
    // was falling past 18 hops: cores 240 and up reached another controller. Within 5 % of the
    // formula (from 12 hops the wrapped 1 MB slots meet rows other cores left open: row conflicts)
    for (let i = 1; i < reads.length; i++) expect(reads[i]!.latencyNs as number).toBeGreaterThan(reads[i - 1]!.latencyNs as number);
    for (const row of reads) expect(Math.abs((row.latencyNs as number) / (row.formulaNs as number) - 1)).toBeLessThan(0.05);
    expect(r.simulated.controllers.filter((c) => c.requests > 0).map((c) => c.controller)).toEqual([0]);
  });

  it('follows the clocks: at 800/1600/1066 the per-hop cost halves', () => {
    // DDR3-1066 (JESD79-3 bin 1066G, 8-8-8: the same 15 ns CL, tRCD, tRP at tCK 1.875 ns)
    const r = run({}, { clocks: { divisor: 2, meshMHz: 1600, memoryMHz: 1066 }, memory: { dram: { tCkNs: 1.875 } } });
    const reads = r.workload.rows.filter((x) => x.op === 'read');
    const perHop = ((reads[8]!.latencyNs as number) - (reads[0]!.latencyNs as number)) / 8;
    expect(perHop).toBeGreaterThan(4.8);
    expect(perHop).toBeLessThan(5.3);
  });

  it('rejects a memory clock that does not match the DRAM speed bin, naming both and the fix', () => {
    expect(() => run({}, { clocks: { memoryMHz: 1066 } })).toThrow(
      'chip.memory.dram.tCkNs: memory.dram.tCkNs 2.5 ns does not match clocks.memoryMHz 1066 (DDR3-1066: tCK 1.8762 ns); give that speed bin',
    );
    expect(() => run({}, { clocks: { memoryMHz: 1066 }, memory: { dram: { model: 'fixed' } } })).not.toThrow();
  });

  it('rejects a controller the chip does not have', () => {
    expect(() => run({ controller: 9 })).toThrow('workload.params (memtest): controller=9 but this chip has 4 memory controllers (0..3)');
  });
});
