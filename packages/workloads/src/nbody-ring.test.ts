import { describe, expect, it } from 'vitest';
import { Simulation, coreHops, resolveChip, type Results, type Row } from '@manycore/engine';
import { workloads } from './index';
import { FIELD_CHARS, decodeBodies, encodeBodies, formatNumber, messageBytes, referenceBodies, ringCores } from './nbody-ring';

function results(params: Record<string, unknown>): Results {
  return new Simulation({ version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'nbody-ring', params } }, workloads).runInline();
}
const run = (params: Record<string, unknown>): Row => results(params).workload.rows[0]!;

describe('nbody-ring', () => {
  it('one message of 1024 bodies x 7 numbers of 9 characters: about 65 KB; numbers survive the text round trip to 9 characters', () => {
    expect(messageBytes({ bodies: 1024, encoding: 'text' })).toBe(32 + 1024 * 7 * 9);
    expect(messageBytes({ bodies: 1024, encoding: 'text' })).toBeGreaterThan(63 * 1024);
    for (const x of [0, 0.5, -0.123456789, 12.5, -999.25, 1e9, -3.2e-7]) {
      const t = formatNumber(x);
      expect(t).toHaveLength(FIELD_CHARS);
      expect(Math.abs(parseFloat(t) - x)).toBeLessThanOrEqual(Math.max(1e-6, Math.abs(x) * 1e-2));
    }
    const s = new Float64Array([0.25, -1.5, 3.125]);
    const buf = new Uint8Array(27);
    encodeBodies(s, 'text', buf);
    const back = new Float64Array(3);
    decodeBodies(buf, 'text', back);
    expect([...back]).toEqual([0.25, -1.5, 3.125]);
  });

  it('the ring runs controller -> workers -> controller over neighbouring cores', () => {
    const chip = resolveChip('scc');
    const ring = ringCores({ workers: 16 }, chip);
    expect(ring).toHaveLength(17);
    for (let i = 1; i < ring.length; i++) expect(coreHops(chip.topo, ring[i - 1]!, ring[i]!)).toBeLessThanOrEqual(1);
  });

  it('the final state matches the single-core reference (and differs from the state a step earlier)', () => {
    const res = results({ workers: 3, bodies: 96, steps: 3 });
    expect(res.workload.correct).toBe(true);
    expect(res.workload.rows[0]!.correct).toBe(true);
    expect(res.workload.referenceDigest).not.toBe('');
    const a = referenceBodies(1, { bodies: 96, steps: 3, encoding: 'text' });
    const b = referenceBodies(1, { bodies: 96, steps: 2, encoding: 'text' });
    expect(a).not.toEqual(b);
    expect(run({ workers: 5, bodies: 64, steps: 2, encoding: 'binary' }).correct).toBe(true);
  });

  it('1024 bodies: step time is lowest at 2-3 workers and rises steeply by 16', () => {
    const ps = [1, 2, 3, 4, 8, 16];
    const rows = ps.map((workers) => run({ workers, steps: 1 }));
    for (const r of rows) expect(r.correct).toBe(true);
    const t = rows.map((r) => r.stepNs as number);
    const best = ps[t.indexOf(Math.min(...t))]!;
    expect([2, 3]).toContain(best);
    expect(t[0]!).toBeGreaterThan(Math.min(...t) * 1.2);
    // rising from 4 on, steeply: 16 workers take more than twice the best step
    for (let i = 4; i < ps.length; i++) expect(t[i]!).toBeGreaterThan(t[i - 1]!);
    expect(t[ps.indexOf(16)]!).toBeGreaterThan(2.5 * Math.min(...t));
  });

  it('the mechanism is the per-hop decoding and encoding: with binary messages 16 workers beat 4', () => {
    const t4 = run({ workers: 4, steps: 1, encoding: 'binary' }).stepNs as number;
    const t16 = run({ workers: 16, steps: 1, encoding: 'binary' }).stepNs as number;
    expect(t16).toBeLessThan(t4);
  });
});
