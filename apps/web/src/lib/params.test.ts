import { describe, expect, it } from 'vitest';
import { defaultExperiment, prepareRun, PRESETS } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { chipFieldPaths, chipFields, draftOf, experimentFields, fieldValue, parseInput, setPath, validateDraft, withField, withPreset, workloadFields } from './params';
import { applyVariant, CHIP_VARIANTS, variantOf } from './chip-variants';

describe('editor fields from the schemas', () => {
  it('derives workload fields with defaults, ranges and descriptions', () => {
    const f = workloadFields(workloads, 'memtest');
    expect(f.map((x) => x.name)).toEqual(['controller', 'accesses']);
    expect(f[1]).toMatchObject({ key: 'param.accesses', kind: 'integer', default: 64, min: 1, max: 100000 });
    expect(f[0]!.max).toBeUndefined(); // MAX_SAFE_INTEGER is no real bound
    const enumField = workloadFields(workloads, 'stale-read').find((x) => x.name === 'mode');
    expect(enumField).toMatchObject({ kind: 'enum', options: ['both', 'no-flush', 'flush'] });
    for (const name of Object.keys(workloads)) expect(workloadFields(workloads, name).length).toBeGreaterThan(0);
  });

  it('derives chip and experiment fields', () => {
    const c = chipFields();
    expect(c.find((x) => x.name === 'clocks.divisor')).toMatchObject({ kind: 'integer', min: 2, max: 16 });
    expect(c.find((x) => x.name === 'l2Enabled')).toMatchObject({ kind: 'boolean' });
    expect(experimentFields().map((x) => x.key)).toEqual(['exp.seed', 'exp.quantumNs', 'exp.sampleIntervalNs', 'exp.stop.maxTimeNs']);
  });

  it('reads and writes fields; chip values equal to the preset leave no override', () => {
    let d = draftOf(defaultExperiment());
    const div = chipFields().find((x) => x.name === 'clocks.divisor')!;
    expect(fieldValue(d, div)).toBe(3);
    d = withField(d, div, 5);
    expect(d.chip.overrides).toEqual({ clocks: { divisor: 5 } });
    d = withField(d, div, 3);
    expect(d.chip.overrides).toEqual({});
    const acc = workloadFields(workloads, 'memtest')[1]!;
    expect(fieldValue(d, acc)).toBe(64);
    d = withField(d, acc, 16);
    expect(d.workload.params).toEqual({ accesses: 16 });
  });

  it('parses typed text', () => {
    const f = workloadFields(workloads, 'memtest')[1]!;
    expect(parseInput(f, '12')).toBe(12);
    expect(parseInput(f, '1e3')).toBe(1000);
    expect(parseInput(f, '12abc')).toBe('12abc');
    expect(parseInput(experimentFields()[3]!, '')).toBeUndefined();
  });

  it('sets nested paths immutably and prunes empty parents', () => {
    const a = { x: { y: 1 } };
    const b = setPath(a, 'x.z', 2);
    expect(a).toEqual({ x: { y: 1 } });
    expect(b).toEqual({ x: { y: 1, z: 2 } });
    expect(setPath({ x: { y: 1 } }, 'x.y', undefined)).toEqual({});
  });
});

describe('draft validation', () => {
  const base = () => draftOf(defaultExperiment('memtest', {}));

  it('accepts the default experiment', () => {
    const v = validateDraft(base(), workloads);
    expect(v.general).toEqual([]);
    expect(v.fieldErrors).toEqual({});
    expect(v.experiment?.workload.name).toBe('memtest');
  });

  it('names bad fields next to the field', () => {
    const acc = workloadFields(workloads, 'memtest')[1]!;
    let d = withField(base(), acc, 'many');
    expect(validateDraft(d, workloads).fieldErrors['param.accesses']).toMatch(/not a number/);
    d = withField(base(), acc, 0);
    expect(validateDraft(d, workloads).fieldErrors['param.accesses']).toMatch(/>=\s*1|too small/i);
    const div = chipFields().find((x) => x.name === 'clocks.divisor')!;
    d = withField(base(), div, 40);
    expect(validateDraft(d, workloads).fieldErrors['chip.clocks.divisor']).toBeTruthy();
    const q = experimentFields()[1]!;
    d = withField(base(), q, -5);
    expect(validateDraft(d, workloads).fieldErrors['exp.quantumNs']).toBeTruthy();
  });

  it('reports cross-field problems as general messages', () => {
    const ctrl = workloadFields(workloads, 'memtest')[0]!;
    const v = validateDraft(withField(base(), ctrl, 9), workloads);
    expect(v.experiment).toBeNull();
    expect(v.general.join('\n')).toMatch(/controller 9 does not exist/);
  });
});

describe('chip variants', () => {
  it('every variant is a valid chip that runs the default workloads', () => {
    for (const v of CHIP_VARIANTS) {
      const exp = { ...defaultExperiment('l1-stream', { cores: 4, loads: 10 }), chip: applyVariant({ preset: 'scc', overrides: {} }, v.id) };
      const run = prepareRun(exp, workloads);
      if (v.id === 'mesh-16x8') expect(run.chip.topo.cores).toBe(256);
      if (v.id === 'mesh-8x8') expect(run.chip.topo.cores).toBe(128);
      if (v.id === 'mesh-32x16') expect(run.chip.topo.cores).toBe(1024);
      expect(variantOf(exp.chip)).toBe(v.id);
    }
  });

  it('switching variants keeps unrelated overrides and drops what the mesh preset derives', () => {
    const o = applyVariant({ preset: 'scc', overrides: { clocks: { divisor: 5 }, mesh: { hopMeshCycles: 2 }, testAndSetRegisters: 64 } }, 'mesh-16x8');
    expect(o).toEqual({ preset: 'mesh', overrides: { clocks: { divisor: 5 }, mesh: { hopMeshCycles: 2, width: 16, height: 8 } } });
    expect(applyVariant(o, 'scc')).toEqual({ preset: 'scc', overrides: { clocks: { divisor: 5 }, mesh: { hopMeshCycles: 2 } } });
    // the mesh preset's own size is a variant too; explicit islands make a custom chip
    expect(variantOf({ preset: 'mesh', overrides: {} })).toBe('mesh-8x8');
    expect(variantOf({ preset: 'mesh', overrides: { mesh: { width: 5, height: 3 } } })).toBe('custom');
    expect(variantOf({ preset: 'scc', overrides: { islands: { tiles: [[0]] } } })).toBe('custom');
    // another family's overrides do not follow the chip into the SCC family
    expect(applyVariant({ preset: 'tile64', overrides: { clocks: { coreMHz: 700 } } }, 'mesh-8x8')).toEqual({ preset: 'mesh', overrides: { mesh: { width: 8, height: 8 } } });
  });
});

describe('chip fields per family', () => {
  it('the SCC family shows its fields from its schema', () => {
    expect(chipFields('scc').map((f) => f.name)).toEqual(chipFieldPaths('scc').map((p) => p.path));
    expect(chipFields('scc').find((f) => f.name === 'mpb.remoteAccessCycles')).toMatchObject({ kind: 'integer' });
  });

  it('TILE64 shows its own fields, derived from its schema', () => {
    if (!PRESETS.tile64) return; // the family is being finished
    const f = chipFields('tile64');
    expect(f.map((x) => x.name)).toEqual(['clocks.baseMHz', 'missesInFlight', 'homing.remoteBaseCycles', 'memory.accessCycles', 'tlb.hugePages', 'tlb.missCycles', 'dma.setupCycles']);
    expect(f.find((x) => x.name === 'tlb.hugePages')).toMatchObject({ kind: 'boolean' });
    expect(f.find((x) => x.name === 'missesInFlight')).toMatchObject({ kind: 'integer', min: 1, max: 16 });
    expect(f.some((x) => x.name.startsWith('mpb.'))).toBe(false);
    const d = draftOf({ ...defaultExperiment(), chip: { preset: 'tile64', overrides: {} } });
    expect(fieldValue(d, f.find((x) => x.name === 'clocks.baseMHz')!)).toBe(600);
    // an invalid value is named next to the TILE64 field
    const bad = withField(d, f.find((x) => x.name === 'missesInFlight')!, 99);
    expect(validateDraft(bad, workloads).fieldErrors['chip.missesInFlight']).toBeTruthy();
  });

  it('switching to another family clears the overrides and the timeline (and says so); within a family they stay', () => {
    const d = { ...draftOf(defaultExperiment()), timeline: [{ kind: 'island-divisor' as const, atNs: 0, island: 1, divisor: 5 }] };
    const withDiv = { ...d, chip: { preset: 'scc', overrides: { clocks: { divisor: 5 } } } };
    if (PRESETS.mesh) {
      const same = withPreset(withDiv, 'mesh');
      expect(same.cleared).toBeNull();
      expect(same.draft.chip).toEqual({ preset: 'mesh', overrides: { clocks: { divisor: 5 } } });
      expect(same.draft.timeline).toHaveLength(1);
    }
    if (!PRESETS.tile64) return;
    const other = withPreset(withDiv, 'tile64');
    expect(other.draft.chip).toEqual({ preset: 'tile64', overrides: {} });
    expect(other.draft.timeline).toEqual([]);
    expect(other.cleared).toContain('chip overrides');
    expect(other.cleared).toContain('1 timeline change');
    expect(withPreset({ ...d, timeline: [] }, 'tile64').cleared).toBeNull(); // nothing to clear, nothing to say
  });
});
