import { describe, expect, it } from 'vitest';
import { defaultExperiment, EXPERIMENT_VERSION, parseExperiment } from './experiment';
import { resolveChip } from './chips/registry';

describe('experiment schema', () => {
  it('fills defaults', () => {
    const e = parseExperiment({ version: 1, chip: { preset: 'scc' }, workload: { name: 'memtest' } });
    expect(e).toMatchObject({ seed: 1, quantumNs: 1000, timeline: [], stop: {}, chip: { overrides: {} }, workload: { params: {} } });
    expect(defaultExperiment().workload.name).toBe('memtest');
  });

  it('names every problem', () => {
    const bad = () => parseExperiment({ version: 1, chip: { preset: 'scc' }, workload: { name: 'x' }, seed: -1, colour: 1 });
    expect(bad).toThrow(/experiment: unknown field: colour/);
    expect(bad).toThrow(/experiment\.seed: at least 0\n/);
    expect(() => parseExperiment('nope')).toThrow(/expected a JSON object/);
    expect(() => parseExperiment({ version: 99, chip: { preset: 'scc' }, workload: { name: 'x' } })).toThrow(
      `experiment.version: 99 is newer than this lab understands (${EXPERIMENT_VERSION}); update the lab`,
    );
    expect(() =>
      parseExperiment({ version: 1, chip: { preset: 'scc' }, workload: { name: 'x' }, timeline: [{ kind: 'island-divisor', atNs: 5, island: 0, divisor: 40 }] }),
    ).toThrow(/experiment\.timeline\.0\.divisor/);
  });

  it('migrates version 1: an overridden controller service time becomes the fixed DRAM model', () => {
    const e = parseExperiment({ version: 1, chip: { preset: 'scc', overrides: { memory: { serviceMemCycles: 32 }, l2Enabled: false } }, workload: { name: 'memtest' } });
    expect(e.version).toBe(EXPERIMENT_VERSION);
    expect(e.chip.overrides).toEqual({ memory: { dram: { model: 'fixed', serviceMemCycles: 32 } }, l2Enabled: false });
    // and the chip it names resolves: the partial dram override merges over the preset
    expect((resolveChip('scc', e.chip.overrides).config as unknown as { memory: { dram: unknown } }).memory.dram).toMatchObject({ model: 'fixed', serviceMemCycles: 32, banks: 8 });
    const plain = parseExperiment({ version: 1, chip: { preset: 'scc', overrides: { l2Enabled: false } }, workload: { name: 'memtest' } });
    expect(plain.chip.overrides).toEqual({ l2Enabled: false });
  });
});
