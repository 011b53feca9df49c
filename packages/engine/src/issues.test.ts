import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues, issueFields } from './experiment';
import { plainIssue, unitOf, withUnit } from './issues';

const words = (schema: z.ZodType, value: unknown): string[] => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a problem');
  return r.error.issues.map(plainIssue);
};

describe('validation problems in plain words', () => {
  const S = z.strictObject({
    cores: z.number().int().min(1).max(48),
    quantumNs: z.number().positive().max(1e6),
    bufferBytes: z.number().int().min(32).max(64 * 1024 * 1024),
    channel: z.enum(['original', 'improved']),
    divisor: z.number().int().min(2).max(16),
    rowBytes: z.number().refine((n) => (n & (n - 1)) === 0, 'a power of two'),
    chunkBytes: z.number().multipleOf(32),
    hopMeshCycles: z.number().int().min(1),
    meshMHz: z.number().lt(2000),
    l2Enabled: z.boolean(),
    name: z.string().min(1),
  });
  const ok = { cores: 4, quantumNs: 1000, bufferBytes: 8192, channel: 'original', divisor: 3, rowBytes: 2048, chunkBytes: 64, hopMeshCycles: 4, meshMHz: 800, l2Enabled: true, name: 'x' };
  const one = (patch: Record<string, unknown>) => words(S, { ...ok, ...patch });

  it('maps each kind of problem, with the unit from the field name', () => {
    expect(one({ cores: 1024 })).toEqual(['at most 48 cores']);
    expect(one({ cores: 0 })).toEqual(['at least 1 core']);
    expect(one({ cores: 2.5 })).toEqual(['a whole number']);
    expect(one({ cores: 'many' })).toEqual(['a number']);
    expect(one({ quantumNs: 0 })).toEqual(['more than 0 ns']);
    expect(one({ quantumNs: 2e6 })).toEqual(['at most 1000000 ns']);
    expect(one({ bufferBytes: 16 })).toEqual(['at least 32 bytes']);
    expect(one({ bufferBytes: 2 ** 27 })).toEqual(['at most 64 MB']);
    expect(one({ channel: 'fast' })).toEqual(['one of: original, improved']);
    expect(one({ divisor: 40 })).toEqual(['at most 16']);
    expect(one({ rowBytes: 100 })).toEqual(['must be a power of two bytes']);
    expect(one({ chunkBytes: 33 })).toEqual(['a multiple of 32 bytes']);
    expect(one({ hopMeshCycles: 0 })).toEqual(['at least 1 cycle']);
    expect(one({ meshMHz: 2500 })).toEqual(['less than 2000 MHz']);
    expect(one({ l2Enabled: 'yes' })).toEqual(['true or false']);
    expect(one({ name: '' })).toEqual(['not empty']);
    expect(one({ colour: 1 })).toEqual(['unknown field: colour']);
    expect(words(S, { ...ok, cores: undefined })).toEqual(['required: a number']);
  });

  it('units: singular and plural, bytes in KB/MB/GB when exact', () => {
    expect(unitOf('caches.l1d.sizeBytes')).toEqual({ one: 'byte', many: 'bytes' });
    expect(unitOf('seed')).toBeNull();
    expect(withUnit(1, 'cores')).toBe('1 core');
    expect(withUnit(1, 'processes')).toBe('1 process');
    expect(withUnit(3, 'processes')).toBe('3 processes');
    expect(withUnit(1536, 'sizeBytes')).toBe('1536 bytes');
    expect(withUnit(2048, 'sizeBytes')).toBe('2 KB');
    expect(withUnit(2 ** 30, 'sizeBytes')).toBe('1 GB');
    expect(withUnit(7, 'seed')).toBe('7');
  });

  it('the CLI lines and the editor fields carry the same words', () => {
    const r = S.safeParse({ ...ok, cores: 1024, channel: 'fast' });
    expect(r.success).toBe(false);
    expect(formatIssues(r.error!, 'workload.params (x)')).toBe('workload.params (x).cores: at most 48 cores\nworkload.params (x).channel: one of: original, improved');
    expect(issueFields(r.error!, 'workload.params')).toEqual({ 'workload.params.cores': 'at most 48 cores', 'workload.params.channel': 'one of: original, improved' });
  });
});
