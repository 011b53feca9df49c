/**
 * shared-counter: under the SCC's test-and-set lock every increment counts; with the x86 LOCK
 * prefix (not carried across the SCC's cores) increments of other cores are overwritten, and the
 * row counts them. The bug is marked in the results and leaves the digest of bug 'none' alone.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, protocolBugOf, type Results } from '@manycore/engine';
import { workloads } from './index';

const run = (params: Record<string, unknown>, cores?: number): Results =>
  new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'shared-counter', params }, seed: 1 }, workloads, cores ? { coresPerWorker: cores } : {}).runInline();

describe('shared-counter', () => {
  it('the test-and-set lock loses no update', () => {
    const r = run({ cores: 4, increments: 30 });
    expect(r.workload.rows).toEqual([{ cores: 4, increments: 30, expected: 120, observed: 120, lostUpdates: 0, bug: 'none' }]);
    expect(r.protocolBug).toBeUndefined();
  });

  it('the LOCK prefix loses updates on 2 or more cores, and none on one', () => {
    const one = run({ cores: 1, increments: 30, bug: 'lock-prefix' }).workload.rows[0]!;
    expect(one).toMatchObject({ expected: 30, observed: 30, lostUpdates: 0 });
    const r = run({ cores: 4, increments: 30, bug: 'lock-prefix' });
    const row = r.workload.rows[0]!;
    expect(row.expected).toBe(120);
    expect(row.lostUpdates).toBe(120 - (row.observed as number));
    expect(row.lostUpdates as number).toBeGreaterThan(0);
    expect(row.observed as number).toBeGreaterThanOrEqual(30); // each core's own increments are never lost to itself
    expect(r.protocolBug).toEqual({ workload: 'shared-counter', bug: 'lock-prefix', expect: expect.stringMatching(/LOCK prefix.*lost updates/) });
  });

  it('protocolBugOf reads the switch from an experiment as a link gives it', () => {
    expect(protocolBugOf({ workload: { name: 'shared-counter', params: { bug: 'lock-prefix' } } }, workloads)?.bug).toBe('lock-prefix');
    expect(protocolBugOf({ workload: { name: 'shared-counter', params: { bug: 'none' } } }, workloads)).toBeNull();
    expect(protocolBugOf({ workload: { name: 'shared-counter', params: {} } }, workloads)).toBeNull();
    expect(protocolBugOf({ workload: { name: 'memtest', params: { bug: 'lock-prefix' } } }, workloads)).toBeNull();
  });

  it('rejects more cores than the chip has, naming both', () => {
    expect(() => run({ cores: 49 })).toThrow(/cores=49 but this chip has 48 cores/);
  });
});
