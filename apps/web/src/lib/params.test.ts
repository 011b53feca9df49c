import { describe, expect, it } from 'vitest';
import { defaultExperiment, prepareRun, PRESETS } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import {
  chipCores,
  chipFieldPaths,
  chipFields,
  draftOf,
  experimentFields,
  fieldKeyOf,
  fieldValue,
  followChip,
  overridesProblem,
  parseInput,
  runBlockedReason,
  setPath,
  validateDraft,
  withField,
  withOverridesProblem,
  withPreset,
  workloadFields,
  type Draft,
} from './params';
import { applyVariant, CHIP_VARIANTS, variantOf } from './chip-variants';

describe('editor fields from the schemas', () => {
  it('derives workload fields with defaults, ranges and descriptions', () => {
    const f = workloadFields(workloads, 'memtest');
    expect(f.map((x) => x.name)).toEqual(['controller', 'accesses']);
    expect(f[1]).toMatchObject({ key: 'param.accesses', kind: 'integer', default: 64, min: 1, max: 16384 });
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
    expect(validateDraft(d, workloads).fieldErrors['param.accesses']).toBe('at least 1 access');
    d = withField(base(), acc, 2.5);
    expect(validateDraft(d, workloads).fieldErrors['param.accesses']).toBe('a whole number');
    const div = chipFields().find((x) => x.name === 'clocks.divisor')!;
    d = withField(base(), div, 40);
    expect(validateDraft(d, workloads).fieldErrors['chip.clocks.divisor']).toBe('at most 16');
    const q = experimentFields()[1]!;
    d = withField(base(), q, -5);
    expect(validateDraft(d, workloads).fieldErrors['exp.quantumNs']).toBe('more than 0 ns');
  });

  it('a chip-dependent problem lands on the field it concerns, in plain words', () => {
    const ctrl = workloadFields(workloads, 'memtest')[0]!;
    const v = validateDraft(withField(base(), ctrl, 9), workloads);
    expect(v.experiment).toBeNull();
    expect(v.fieldErrors).toEqual({ 'param.controller': 'at most 3: this chip has 4 memory controllers (0..3)' });
    expect(v.general).toEqual([]);
    const l1 = draftOf(defaultExperiment('l1-stream', {}));
    const cores = workloadFields(workloads, 'l1-stream').find((f) => f.name === 'cores')!;
    const big = validateDraft(withField(l1, cores, 100), workloads);
    expect(big.fieldErrors).toEqual({ 'param.cores': 'at most 48: this chip has 48 cores' });
    expect(runBlockedReason(big)).toBe('Fix 1 problem in the editor: cores');
  });

  it('a chip problem of a path no field shows lands beside the overrides JSON', () => {
    const d: Draft = { ...base(), chip: { preset: 'scc', overrides: { caches: { l1d: { sizeBytes: -16 } } } } };
    const v = validateDraft(d, workloads);
    expect(v.fieldErrors).toEqual({ 'chip.overrides': 'chip.caches.l1d.sizeBytes: more than 0 bytes' });
    expect(runBlockedReason(v)).toBe('Fix 1 problem in the editor: chip overrides (JSON)');
  });

  it('says why Run is disabled, naming every field', () => {
    const l1 = draftOf(defaultExperiment('l1-stream', {}));
    const f = workloadFields(workloads, 'l1-stream');
    const d = withField(withField(l1, f.find((x) => x.name === 'cores')!, 0), f.find((x) => x.name === 'bufferBytes')!, 16);
    const v = validateDraft(d, workloads);
    expect(v.fieldErrors).toEqual({ 'param.cores': 'at least 1 core', 'param.bufferBytes': 'at least 32 bytes' });
    expect(runBlockedReason(v)).toBe('Fix 2 problems in the editor: cores, bufferBytes');
    expect(runBlockedReason(validateDraft(l1, workloads))).toBeNull();
    const other = validateDraft({ ...l1, workload: { name: 'nope', params: {} } }, workloads);
    expect(runBlockedReason(other)).toBe('Fix 1 problem in the editor: workload.name');
  });

  it('maps the engine\'s field paths to editor keys', () => {
    expect(fieldKeyOf('workload.params.cores')).toBe('param.cores');
    expect(fieldKeyOf('chip.clocks.divisor')).toBe('chip.clocks.divisor');
    expect(fieldKeyOf('stop.maxTimeNs')).toBe('exp.stop.maxTimeNs');
  });
});

describe('overrides JSON', () => {
  it('text that does not parse is a problem naming the JSON error, and it blocks Run', () => {
    const r = overridesProblem('{"clocks": ');
    expect(r.value).toBeNull();
    expect(r.problem).toMatch(/^not valid JSON: .*JSON.*\. Run waits until it parses\.$/);
    expect(overridesProblem('[1]').problem).toBe('a JSON object is needed, like {"clocks":{"divisor":5}}, not a list. Run waits until it is one.');
    expect(overridesProblem('5').problem).toBe('a JSON object is needed, like {"clocks":{"divisor":5}}, not 5. Run waits until it is one.');
    expect(overridesProblem('')).toEqual({ problem: null, value: {} });
    expect(overridesProblem('{"clocks":{"divisor":5}}')).toEqual({ problem: null, value: { clocks: { divisor: 5 } } });
    const ok = validateDraft(draftOf(defaultExperiment()), workloads);
    expect(ok.experiment).not.toBeNull();
    const blocked = withOverridesProblem(ok, r.problem);
    expect(blocked.experiment).toBeNull();
    expect(blocked.fieldErrors['chip.overrides']).toBe(r.problem);
    expect(runBlockedReason(blocked)).toBe('Fix 1 problem in the editor: chip overrides (JSON)');
    expect(withOverridesProblem(ok, null)).toBe(ok);
  });
});

describe('a chip with another core count', () => {
  const l1 = (params: Record<string, number> = {}) => draftOf(defaultExperiment('l1-stream', params));
  const onChip = (d: Draft, preset: string, overrides: Record<string, unknown>): Draft => ({ ...d, chip: { preset, overrides } });
  const mesh256 = { mesh: { width: 16, height: 8 } };

  it('a core count that used the whole chip follows it, and says so', () => {
    expect(chipCores({ preset: 'scc', overrides: {} })).toBe(48);
    expect(chipCores({ preset: 'mesh', overrides: mesh256 })).toBe(256);
    const d = l1();
    const r = followChip(onChip(d, 'mesh', mesh256), workloads, 48, 256);
    expect(r.draft.workload.params).toEqual({ cores: 256 });
    expect(r.note).toBe('cores follows the chip: 48 → 256 (it used all 48 cores of the previous chip; this one has 256).');
    const back = followChip(onChip(r.draft, 'scc', {}), workloads, 256, 48);
    expect(back.draft.workload.params).toEqual({ cores: 48 });
    expect(validateDraft(back.draft, workloads).experiment).not.toBeNull();
  });

  it('a smaller core count stays, and the note says how many cores run', () => {
    const r = followChip(onChip(l1({ cores: 16 }), 'mesh', mesh256), workloads, 48, 256);
    expect(r.draft.workload.params).toEqual({ cores: 16 });
    expect(r.note).toBe('cores stays 16: the run uses 16 of this chip\'s 256 cores.');
  });

  it('a count the smaller chip cannot run is flagged (and the field says why)', () => {
    const d = onChip(l1({ cores: 100 }), 'scc', {});
    const r = followChip(d, workloads, 256, 48);
    expect(r.draft).toBe(d);
    expect(r.note).toBe('cores=100 needs 100 cores but this chip has 48: lower it (see the field).');
    expect(validateDraft(r.draft, workloads).fieldErrors['param.cores']).toBe('at most 48: this chip has 48 cores');
  });

  it('counts with a core besides (a root) follow as cores - 1; a value the workload cannot take stays, with the reason', () => {
    const b = draftOf(defaultExperiment('rcce-bcast', { receivers: 47 }));
    const r = followChip(onChip(b, 'mesh', { mesh: { width: 4, height: 4 } }), workloads, 48, 32);
    expect(r.draft.workload.params).toMatchObject({ receivers: 31 });
    expect(r.note).toBe('receivers follows the chip: 47 → 31 (it used all 48 cores of the previous chip; this one has 32).');
    // the improved RCKMPI channel has 48 sections: 256 processes cannot run, so processes stays 48
    const m = draftOf(defaultExperiment('mpi-sweep', {}));
    const s = followChip(onChip(m, 'mesh', mesh256), workloads, 48, 256);
    expect(s.draft.workload.params).toEqual({});
    expect(s.note).toBe(
      'processes stays 48: all 256 cores cannot run here (processes=256: at most 48: the improved channel has 48 base sections (one per process)). The run uses 48 of this chip\'s 256 cores.',
    );
  });

  it('no note for a workload without a core count, or the same core count', () => {
    const d = draftOf(defaultExperiment('memtest', {}));
    expect(followChip(d, workloads, 48, 256)).toEqual({ draft: d, note: null });
    expect(followChip(l1(), workloads, 48, 48)).toEqual({ draft: l1(), note: null });
    if (PRESETS.tile64) expect(followChip(onChip(l1(), 'tile64', {}), workloads, 48, 64)).toEqual({ draft: onChip(l1(), 'tile64', {}), note: null }); // l1-stream is not a TILE64 workload
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
