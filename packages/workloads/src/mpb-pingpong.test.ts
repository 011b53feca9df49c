import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

function roundTrip(hops: number, bytes: number): number {
  const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { hops, bytes, iterations: 8 } } }, workloads).runInline();
  return r.workload.rows[0]!.roundTripNs as number;
}

describe('mpb-pingpong', () => {
  it('round trip grows with hops (linearly) and with payload', () => {
    const byHops = [0, 1, 2, 3, 8].map((h) => roundTrip(h, 32));
    for (let i = 1; i < byHops.length; i++) expect(byHops[i]!).toBeGreaterThan(byHops[i - 1]!);
    const perHop = (byHops[4]! - byHops[1]!) / 7;
    expect(Math.abs(byHops[3]! - byHops[1]! - 2 * perHop)).toBeLessThan(0.1 * perHop + 1);
    const byBytes = [32, 256, 1024, 4096].map((b) => roundTrip(3, b));
    for (let i = 1; i < byBytes.length; i++) expect(byBytes[i]!).toBeGreaterThan(byBytes[i - 1]!);
    expect(byBytes[3]! / byBytes[0]!).toBeGreaterThan(8);
  });

  it('counts the messages in the message matrix', () => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { hops: 8, iterations: 5 } } }, workloads).runInline();
    const m = r.simulated.messageMatrix.messages;
    const partner = r.simulated.cores.filter((c) => c.runs).map((c) => c.core)[1]!;
    expect(partner).toBe(46); // first core 8 hops from core 0 (tile 23 at (5,3))
    expect(m[0]![partner]).toBe(5);
    expect(m[partner]![0]).toBe(5);
    expect(r.simulated.messageMatrix.bytes[0]![partner]).toBeGreaterThanOrEqual(5 * 36);
  });

  it('rejects a hop distance the chip does not have', () => {
    expect(() =>
      new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { hops: 9 } } }, workloads),
    ).toThrow(/workload\.params \(mpb-pingpong\): hops=9 but no core is 9 hops from core 0/);
  });
});
