import { describe, expect, it } from 'vitest';
import { Simulation, type Row } from '@manycore/engine';
import { workloads } from './index';

function run(params: Record<string, unknown>): Row {
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'rcce-bcast', params } }, workloads).runInline().workload.rows[0]!;
}

describe('rcce-bcast', () => {
  const ns = [1, 2, 4, 8, 16, 32, 47];
  const rows = ns.map((receivers) => run({ receivers, rounds: 4 }));

  it('every receiver gets the message (checked in the run); time grows with the receivers', () => {
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.timeNs as number).toBeGreaterThan(rows[i - 1]!.timeNs as number);
    for (const r of rows) {
      expect(r.busyRatio as number).toBeGreaterThan(0);
      expect(r.busyRatio as number).toBeLessThan(1);
    }
  });

  it('past 8 receivers the busy ratio falls: the sender announces each receiver under a lock and the pulls share its links', () => {
    const br = rows.map((r) => r.busyRatio as number);
    const at8 = br[ns.indexOf(8)]!;
    expect(at8).toBeGreaterThan(br[ns.indexOf(16)]!);
    expect(br[ns.indexOf(16)]!).toBeGreaterThan(br[ns.indexOf(47)]!);
  });

  it("linear (RCCE_bcast as shipped: one RCCE_send per receiver) costs about one send per receiver; the concurrent pull is far faster", () => {
    const lin = [1, 4, 16].map((receivers) => run({ receivers, rounds: 2, algorithm: 'linear' }));
    // 4x the receivers: at least 4x the time (farther receivers cost a little more each), at most 5x
    for (let i = 1; i < lin.length; i++) {
      const ratio = (lin[i]!.timeNs as number) / (lin[i - 1]!.timeNs as number);
      expect(ratio).toBeGreaterThan(4);
      expect(ratio).toBeLessThan(5);
    }
    const pull16 = run({ receivers: 16, rounds: 2 });
    expect(lin[2]!.timeNs as number).toBeGreaterThan(4 * (pull16.timeNs as number));
  });

  // scc.md 6 reports the busy ratio (IPC) PEAKING near 8 receivers. In this model it falls
  // from the first receiver on: the sender and every receiver do the same busy work per chunk
  // (one 32-bit copy loop each), and the sender's serial, locked flag writes only add waiting
  // as receivers are added. Also tried, none gives a peak: RCCE's linear RCCE_bcast (falls as
  // 1/N, above), counting the waiting (poll loops) as busy at a fraction f of its time (f = 0.3,
  // 0.5, 0.7: every series falls from N = 1; f = 1: 0.98, 0.91, 0.85, 0.80, 0.79 at 12, then
  // back to 0.82, a trough rather than a peak; the first receiver shares the root's tile, every
  // further one is farther and stalls more), and a finite service rate of the root's MPB port
  // (steeper fall past 16 receivers). See the notes on issue 4.
  it.fails('the busy ratio peaks near 8 receivers (not reproduced by this model)', () => {
    const br = rows.map((r) => r.busyRatio as number);
    const peak = ns[br.indexOf(Math.max(...br))]!;
    expect(peak).toBeGreaterThanOrEqual(4);
    expect(peak).toBeLessThanOrEqual(16);
  });
});
