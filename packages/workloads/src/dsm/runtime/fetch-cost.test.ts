import { describe, expect, it } from 'vitest';
import { Simulation, type Results } from '@manycore/engine';
import { workloads } from '../../index';
import { PAPER_FETCH_NS } from './fetch-cost';

function run(params: Record<string, unknown> = {}): Results {
  return new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm-fetch', params }, seed: 1 }, workloads).runInline();
}

describe('dsm-fetch on cluster-1999 (paper 004 line 308)', () => {
  const rows = run().workload.rows;

  it('one request and one reply per fetch; the diff is one run of the changed words', () => {
    expect(rows.map((r) => [r.measurement, r.changedBytes, r.diffBytes, r.messages])).toEqual([
      ['diff', 4, 8, 2],
      ['diff', 64, 68, 2],
      ['diff', 512, 516, 2],
      ['diff', 2048, 2052, 2],
      ['page-sized diff', 4096, 4100, 2],
    ]);
    expect(rows.map((r) => r.paperNs)).toEqual([PAPER_FETCH_NS.diffLow, 0, 0, 0, PAPER_FETCH_NS.page]);
  });

  it('grows with the diff: the wire and the per-byte software costs', () => {
    const t = rows.map((r) => r.timeNs as number);
    for (let k = 1; k < t.length; k++) expect(t[k]!).toBeGreaterThan(t[k - 1]!);
    // a page-sized reply is 3 frames (1472 B of payload each) on each of two links at 100 Mbps
    // plus ~4 KB of per-byte send and receive work: well over 4096 x 8 / 100 Mbps = 328 us more
    // than the smallest diff would be without the software; here at least the wire difference
    expect(t[4]! - t[0]!).toBeGreaterThan(328_000);
  });

  it('rejects sizes that are not whole words of a page', () => {
    expect(() => run({ sizes: '4,6' })).toThrow(/multiple of 4 from 4 to 4096/);
  });
});
