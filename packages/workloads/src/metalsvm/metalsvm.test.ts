/**
 * metalsvm: the page-ownership protocol's faults and mails come out as the protocol implies for
 * cases counted by hand, every mode computes the sequential result bit for bit, lazy release
 * faults less than strong consistency, parameters the chip or the layout cannot take are named,
 * and the default run keeps its golden values.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, type Results } from '@manycore/engine';
import { workloads } from '../index';
import { reference } from './jor';

const run = (params: Record<string, unknown>): Results =>
  new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'metalsvm', params }, seed: 1 }, workloads, {}).runInline();
const row = (params: Record<string, unknown>) => run(params).workload.rows[0]!;

describe('metalsvm', () => {
  it('strong consistency: faults and mails as page ownership implies', () => {
    // One 4 KB page per row (512 columns), at least 3 rows per core. Across each of the n - 1
    // boundaries between core i-1 (last row a) and core i (first row b), per iteration on `old`:
    // i takes a at its start (1), i-1 takes a back and takes b at its end (2); on `new`, i's
    // first store to b takes it back from i-1 (1), except in the first iteration, when b is still
    // i's. No page moves again before its owner's mail is served, so no mail is forwarded:
    // faults = mails = (n - 1)(4 I - 1).
    expect(row({ consistency: 'strong', cores: 2, iterations: 3, rows: 16 })).toMatchObject({ faults: 11, mails: 11, correct: true });
    expect(row({ consistency: 'strong', cores: 4, iterations: 3, rows: 32 })).toMatchObject({ faults: 33, mails: 33, correct: true });
    expect(row({ consistency: 'strong', cores: 4, iterations: 2, rows: 32, controllers: 4 })).toMatchObject({ faults: 21, mails: 21, correct: true });
  });

  it('lazy release: one fault and one mail per neighbour page per barrier, fewer than strong', () => {
    // each core reads its two neighbours' edge pages once per iteration: 2 (n - 1) I
    const lazy = row({ consistency: 'lazy', cores: 4, iterations: 3, rows: 32 });
    expect(lazy).toMatchObject({ faults: 18, mails: 18, correct: true });
    const strong = row({ consistency: 'strong', cores: 4, iterations: 3, rows: 32 });
    expect(lazy.faults as number).toBeLessThan(strong.faults as number);
  });

  it('one core takes no fault and sends no mail; message passing takes none either', () => {
    expect(row({ consistency: 'strong', cores: 1, iterations: 2, rows: 16 })).toMatchObject({ faults: 0, mails: 0, correct: true });
    expect(row({ consistency: 'message-passing', cores: 4, iterations: 3, rows: 32 })).toMatchObject({ faults: 0, mails: 0, correct: true });
  });

  it('every mode computes the sequential result bit for bit, on 1 and 4 controllers, with uneven splits', () => {
    for (const consistency of ['strong', 'lazy', 'message-passing'])
      for (const controllers of [1, 4]) expect(row({ consistency, controllers, cores: 5, iterations: 3, rows: 24 }).correct).toBe(true);
    // rows shorter than a page: neighbours share pages (false sharing), still correct
    expect(row({ consistency: 'strong', cores: 3, iterations: 2, rows: 64, columns: 64 })).toMatchObject({ correct: true });
    expect(row({ consistency: 'lazy', cores: 3, iterations: 2, rows: 64, columns: 64 })).toMatchObject({ correct: true });
  });

  it('the reference moves heat in from the hot edge (the check is not vacuous)', () => {
    const a = reference(16, 16, 1, 1);
    const b = reference(16, 16, 2, 1);
    expect(a[16 + 5]).not.toBe(b[16 + 5]);
    expect(a[0]).toBe(1);
  });

  it('names parameters the chip or the layout cannot take', () => {
    expect(() => run({ cores: 49 })).toThrow(/cores=49 but this chip has 48 cores/);
    expect(() => run({ columns: 100 })).toThrow(/columns=100 is not a power of two/);
    expect(() => run({ cores: 8, rows: 4 })).toThrow(/cores=8 but rows=4: each core needs at least one row/);
    expect(() => run({ controllers: 4, rows: 10, columns: 16, cores: 2 })).toThrow(/does not split into 4 parts of whole 4 KB pages/);
    expect(() => run({ controllers: 2 })).toThrow(/controllers/);
    expect(() => run({ consistency: 'release' })).toThrow(/consistency/);
  });

  it('golden: the default run', () => {
    const r = run({});
    expect(r.workload.rows).toEqual([GOLDEN_ROW]);
    expect(r.digest).toBe(GOLDEN_DIGEST);
  });
});

// 8 cores, 4 iterations of 128 x 512, strong, one controller: (8 - 1)(4 x 4 - 1) = 105 faults
const GOLDEN_ROW = { consistency: 'strong', controllers: 1, cores: 8, timeNs: 4673078.236032057, faults: 105, mails: 105, correct: true, iterations: 4, matrix: '128x512' };
const GOLDEN_DIGEST = '84598c959398033e';
