/**
 * Each protocol-bug switch produces the failure it names, detected and explained: the RCCE
 * deadlock's wait-for cycle, the stale flag copy of a skipped CL1INVMB, the cached-shared
 * pipeline's stale chunks caught by its check; and without the switch the same run is correct.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, SimulationFailed, type Results } from '@manycore/engine';
import { workloads } from '../index';

const run = (name: string, params: Record<string, unknown>): Results =>
  new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name, params }, seed: 1 }, workloads).runInline();

function failure(name: string, params: Record<string, unknown>): string {
  try {
    run(name, params);
  } catch (err) {
    expect(err).toBeInstanceOf(SimulationFailed);
    return (err as Error).message;
  }
  throw new Error('the run did not fail');
}

describe('protocol bugs', () => {
  it('rcce-pair deadlock: both cores send first; the run stops naming the wait-for cycle', () => {
    const msg = failure('rcce-pair', { benchmark: 'shift', rounds: 2, bug: 'deadlock' });
    // the pair at 1 hop: cores 0 and 2 (tiles 0 and 1)
    expect(msg).toBe("deadlock: wait-for cycle core 0 -> core 2 -> core 0 (core 0 waits for core 2's ready flag; core 2 waits for core 0's ready flag)");
  });

  it('rcce-pair deadlock with 3 pairs names one cycle and counts the others', () => {
    const msg = failure('rcce-pair', { benchmark: 'shift', rounds: 2, pairs: 3, bug: 'deadlock' });
    expect(msg).toMatch(/^deadlock: wait-for cycle core (\d+) -> core (\d+) -> core \1 \(.*\); 2 more cycles: /);
  });

  it('rcce-pair skip-cl1invmb: a flag wait spins on a stale L1 copy, named with both values', () => {
    const msg = failure('rcce-pair', { benchmark: 'shift', rounds: 2, bug: 'skip-cl1invmb' });
    expect(msg).toMatch(/^deadlock: .*core \d reads a stale copy of core \d's (sent|ready) flag in its L1 \(memory holds (\d+), its L1 holds (?!\2)\d+\): CL1INVMB was skipped/);
  });

  it('mpb-pingpong skip-cl1invmb: the partner never sees the flag; without the bug the run ends', () => {
    const msg = failure('mpb-pingpong', { iterations: 4, bug: 'skip-cl1invmb' });
    // core 2 (1 hop away) read its flag line before core 0's first flag arrived; core 0 polls its own copy too
    expect(msg).toBe(
      "deadlock: core 2 reads a stale copy of core 0's flag in its L1 (memory holds 1, its L1 holds 0): CL1INVMB was skipped; core 0 spins on a copy of core 2's flag in its L1 (memory and its L1 hold 0): CL1INVMB was skipped",
    );
    expect(run('mpb-pingpong', { iterations: 4 }).workload.rows).toHaveLength(1);
  });

  it('pipeline skip-flush: stale chunks, counted by the last stage; correct without the bug', () => {
    const params = { mode: 'cached-shared', stages: 3, dataBytes: 8192, chunkBytes: 2048, flush: 'engine' };
    const good = run('pipeline', params).workload.rows[0]!;
    expect(good.correct).toBe(true);
    expect(good.wrongBytes).toBeUndefined();
    const r = run('pipeline', { ...params, bug: 'skip-flush' });
    const bad = r.workload.rows[0]!;
    expect(bad.correct).toBe(false);
    expect(bad.wrongBytes as number).toBeGreaterThan(0);
    expect(bad.wrongBytes as number).toBeLessThanOrEqual(8192);
    expect(r.protocolBug?.bug).toBe('skip-flush');
  });

  it('pipeline skip-flush in another mode is an error naming the mode', () => {
    expect(() => run('pipeline', { mode: 'private', bug: 'skip-flush' })).toThrow(/bug=skip-flush skips the flush of the cached-shared mode, and mode is private/);
  });
});
