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

  // scc.md 6 reports the busy ratio (IPC) PEAKING near 8 receivers. In this model it falls
  // from the first receiver on: the sender and every receiver do the same busy work per chunk
  // (one 32-bit copy loop each), and the sender's serial, locked flag writes only add waiting
  // as receivers are added. See the report of issue 4 for what is missing.
  it.fails('the busy ratio peaks near 8 receivers (not reproduced by this model)', () => {
    const br = rows.map((r) => r.busyRatio as number);
    const peak = ns[br.indexOf(Math.max(...br))]!;
    expect(peak).toBeGreaterThanOrEqual(4);
    expect(peak).toBeLessThanOrEqual(16);
  });
});
