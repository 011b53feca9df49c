import { describe, expect, it } from 'vitest';
import { ExperimentError, prepareRun, Simulation, type SccChipConfig } from '@manycore/engine';
import { workloads } from './index';

const exp = (preset: string, params: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
  version: 1,
  chip: { preset, overrides },
  workload: { name: 'l1-stream', params },
});

describe('l1-stream', () => {
  it('refuses more cores than the chip has, naming both numbers (no silent clamping)', () => {
    expect(() => prepareRun(exp('scc', { cores: 49 }), workloads)).toThrow(ExperimentError);
    expect(() => prepareRun(exp('scc', { cores: 49 }), workloads)).toThrow('workload.params (l1-stream): cores=49 but this chip has 48 cores');
    expect(prepareRun(exp('scc', { cores: 48 }), workloads).settings.participants).toHaveLength(48);
    // the parameter schema is not the limit: a 1024-core mesh takes 1024
    const big = prepareRun(exp('mesh', { cores: 1024 }, { mesh: { width: 32, height: 16 } }), workloads);
    expect(big.settings.participants).toEqual(Array.from({ length: 1024 }, (_, i) => i));
    expect(() => prepareRun(exp('mesh', { cores: 2000 }, { mesh: { width: 32, height: 16 } }), workloads)).toThrow('workload.params (l1-stream): cores=2000 but this chip has 1024 cores');
  });

  it('runs on every core of a 1024-core mesh', () => {
    // 1000 loads of 4 B: 4000 B of the 8 KB buffer, 125 lines, each a cold miss from DRAM
    const r = new Simulation(exp('mesh', { cores: 1024, loads: 1000 }, { mesh: { width: 32, height: 16 } }), workloads).runInline();
    expect(r.simulated.chip.activeCores).toBe(1024);
    expect(r.simulated.chip.loads).toBe(1024 * 1000);
    expect(r.workload.rows).toHaveLength(1024);
    for (const c of [0, 511, 1023]) expect(r.simulated.cores[c]).toMatchObject({ loads: 1000, l1Misses: 125, l1Hits: 875, dramReads: 125 });
    expect(r.simulated.controllers).toHaveLength(14);
    expect(r.simulated.controllers.reduce((s, m) => s + m.reads, 0)).toBe(1024 * 125);
    expect((r.chip as SccChipConfig).testAndSetRegisters).toBe(1024); // derived, and echoed in the results
  }, 60_000);
});
