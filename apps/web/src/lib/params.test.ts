import { describe, expect, it } from 'vitest';
import { defaultExperiment, prepareRun } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { chipFields, draftOf, experimentFields, fieldValue, parseInput, setPath, validateDraft, withField, workloadFields } from './params';
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
      const exp = { ...defaultExperiment('l1-stream', { cores: 4, loads: 10 }), chip: { preset: 'scc', overrides: applyVariant({}, v.id) } };
      const run = prepareRun(exp, workloads);
      if (v.id === 'mesh-16x8') expect(run.chip.topo.cores).toBe(256);
      if (v.id === 'mesh-8x8') expect(run.chip.topo.cores).toBe(128);
      expect(variantOf(exp.chip.overrides)).toBe(v.id);
    }
  });

  it('switching variants keeps unrelated overrides', () => {
    const o = applyVariant({ clocks: { divisor: 5 }, mesh: { hopMeshCycles: 2 } }, 'mesh-16x8');
    expect(o).toMatchObject({ clocks: { divisor: 5 }, mesh: { hopMeshCycles: 2, width: 16, height: 8 } });
    expect(applyVariant(o, 'preset')).toEqual({ clocks: { divisor: 5 }, mesh: { hopMeshCycles: 2 } });
  });
});
