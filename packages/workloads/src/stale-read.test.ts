import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

describe('stale-read', () => {
  it('a reader misses the update without a flush and sees it with one', () => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'stale-read' } }, workloads).runInline();
    expect(r.workload.rows).toEqual([
      { flush: false, valueSeen: 0, valueWritten: 42 },
      { flush: true, valueSeen: 43, valueWritten: 43 },
    ]);
    const writer = r.simulated.cores[0]!;
    expect(writer.flushes).toBe(1);
  });
});
