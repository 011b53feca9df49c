import { describe, expect, it } from 'vitest';
import { Simulation, resolveChip, type Row } from '@manycore/engine';
import { workloads } from './index';
import { pairsAtHops } from './placement';
import { linearFit } from './lib/fit';

function run(params: Record<string, unknown>): Row[] {
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'rcce-pair', params } }, workloads).runInline().workload.rows;
}

const meanTime = (rows: Row[]) => rows.reduce((s, r) => s + (r.timeNs as number), 0) / rows.length;
const maxTime = (rows: Row[]) => Math.max(...rows.map((r) => r.timeNs as number));

const fit = linearFit;

describe('rcce-pair', () => {
  const chip = resolveChip('scc');

  it('accepts its own default rounds=0 (the benchmark default) when given explicitly', () => {
    const schema = workloads['rcce-pair']!.params;
    expect(schema.parse({}).rounds).toBe(0);
    expect(schema.parse({ rounds: 0 }).rounds).toBe(0);
    expect(schema.safeParse({ rounds: -1 }).success).toBe(false);
  });

  it('places pairs at the asked hop distance (24 pairs at 0..3 hops, 4 at 8)', () => {
    for (const h of [0, 1, 2, 3, 8]) {
      const pairs = pairsAtHops(chip, h);
      expect(pairs.length).toBe(h === 8 ? 4 : 24);
      const used = new Set(pairs.flat());
      expect(used.size).toBe(pairs.length * 2);
    }
    expect(pairsAtHops(chip, 1)[0]).toEqual([0, 2]);
    expect(pairsAtHops(chip, 3)[0]).toEqual([0, 6]);
    expect(() => run({ benchmark: 'shift', hops: 8, pairs: 5 })).toThrow(/only 4 disjoint pairs/);
  });

  it('Stencil and Pingpong pair time grows linearly with hop distance', () => {
    for (const benchmark of ['stencil', 'pingpong']) {
      const hops = [0, 1, 2, 3, 8];
      const t = hops.map((h) => run({ benchmark, hops: h })[0]!.timeNs as number);
      // strictly increasing with distance
      for (let i = 1; i < t.length; i++) expect(t[i]!).toBeGreaterThan(t[i - 1]!);
      // linear over the remote placements (at 0 hops the partner's MPB is on the same tile:
      // 15 instead of 45 + 8 x hops core cycles, below the line)
      const { slope, r2 } = fit(hops.slice(1), t.slice(1));
      expect(slope).toBeGreaterThan(0);
      expect(r2).toBeGreaterThan(0.98);
    }
  });

  it('24 Stencil or Shift pairs run as fast as one; 24 Share pairs slow down (memory saturates)', () => {
    for (const benchmark of ['stencil', 'shift']) {
      const one = meanTime(run({ benchmark, pairs: 1 }));
      const many = run({ benchmark, pairs: 24 });
      expect(many).toHaveLength(24);
      expect(maxTime(many) / one).toBeLessThan(1.05);
    }
    const one = meanTime(run({ benchmark: 'share', pairs: 1 }));
    const many = run({ benchmark: 'share', pairs: 24 });
    expect(meanTime(many) / one).toBeGreaterThan(1.3);
    expect(maxTime(many) / one).toBeGreaterThan(1.8);
  });

  it('chip power: ~31.6 W for one pair, ~50.8 W for 48 busy cores, linear in between, Share lowest', () => {
    const power = (benchmark: string, pairs: number) => run({ benchmark, pairs })[0]!.powerW as number;
    const p1 = power('stencil', 1);
    const p12 = power('stencil', 12);
    const p24 = power('stencil', 24);
    expect(p1).toBeGreaterThan(31.6 * 0.97);
    expect(p1).toBeLessThan(31.6 * 1.03);
    expect(p24).toBeGreaterThan(50.8 * 0.96);
    expect(p24).toBeLessThan(50.8 * 1.03);
    // linear: the midpoint lies on the line through the ends
    expect(Math.abs(p12 - (p1 + ((p24 - p1) * 11) / 23))).toBeLessThan(0.5);
    // ranked by activity: Share (stalled on memory) lowest, Stencil highest
    const share = power('share', 24);
    const shift = power('shift', 24);
    expect(share).toBeLessThan(shift);
    expect(shift).toBeLessThan(p24);
  });

  it('rows: messages and bytes from the message matrix', () => {
    const r = run({ benchmark: 'shift', rounds: 10 })[0]!;
    // 10 timed + 1 warm-up exchange each way
    expect(r.messages).toBe(22);
    expect(r.bytes as number).toBeGreaterThan(0);
    expect(r.busyRatio as number).toBeGreaterThan(0);
    expect(r.busyRatio as number).toBeLessThan(1);
  });
});
