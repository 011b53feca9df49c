/**
 * A run stopped before every core reported (a time limit, the scrub timeline's replay to an
 * early epoch) still gives results: a summary that can work from the rows it has does so
 * (rcce-pair: the pairs that finished), and one that cannot leaves the cores' own rows with a
 * note saying why (results.ts), instead of failing the results.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

const runOf = (name: string, params: Record<string, unknown>, maxTimeNs?: number) =>
  new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name, params }, ...(maxTimeNs ? { stop: { maxTimeNs } } : {}) }, workloads).runInline();

describe('results of a run stopped before every core reported', () => {
  it('rcce-bcast: the summary needs the root row; without it the rows are the cores\' own, with the reason', () => {
    const full = runOf('rcce-bcast', { receivers: 2 });
    expect(full.workload.summaryNote).toBeUndefined();
    expect(full.workload.rows).toHaveLength(1);
    // stopped at a tenth of its time: no core has reported yet
    const early = runOf('rcce-bcast', { receivers: 2 }, full.simulated.endTimeNs / 10);
    expect(early.simulated.stopped).toBe(true);
    expect(early.workload.rows).toEqual([]);
    expect(early.workload.summaryNote).toMatch(/^the run stopped before every core reported, so the rows are the cores' own \(the summary failed: /);
  });

  it('rcce-pair: a pair whose second core has not reported is left out, the finished pairs are summarised', () => {
    const full = runOf('rcce-pair', { hops: 1, pairs: 2 });
    expect(full.workload.rows.map((r) => r.pair)).toEqual([0, 1]);
    const early = runOf('rcce-pair', { hops: 1, pairs: 2 }, full.simulated.endTimeNs / 10);
    expect(early.workload.rows).toEqual([]);
    expect(early.workload.summaryNote).toBeUndefined();
  });
});
