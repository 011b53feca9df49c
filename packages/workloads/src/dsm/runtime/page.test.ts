import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import type { Dsm, DsmApp } from '../api';
import { makeDsmWorkload } from '../workload';
import { workloads } from '../../index';
import type { PageRuntime } from './page';

/**
 * The page runtime's protection calls and faults, counted by hand against TreadMarks' 1998
 * sources (page.ts contract): 2 processors, array v of 8 one-page objects.
 * 1. processor 0 writes pages 0, 1, 2 and 5: 4 write faults, 4 mprotect(read-write), 4 twins;
 * 2. barrier: processor 0 closes its interval without an mprotect (the pages stay read-write
 *    with their twins: Tmk_interval_create); processor 1 invalidates the 4 pages with one
 *    mprotect per run, [0, 2] and [5]: 2 calls (Tmk_page_inval_perform);
 * 3. processor 0 writes page 1 again: no fault, no twin, no notice;
 * 4. barrier (processor 0 wrote nothing new: no interval); processor 1 reads page 1: a read
 *    fault, mprotect(read-write) and mprotect(read-only) around the fetch (2 calls); processor 0
 *    makes the diff at the request (with the second write in it), replies, write-protects the
 *    page (1 call: Tmk_diff_sigio_handler);
 * 5. barrier; processor 0 writes page 1 a third time: a write fault and a twin again (1 call).
 */
const state = { calls: [] as Array<[string, number]>, seen: 0 };
const app: DsmApp<Record<string, never>> = {
  name: 'protect',
  title: 'test: mprotect calls of the page runtime',
  sizes: { small: {}, 'paper-sm': {}, 'paper-lg': {} },
  describe: () => '2 processors, 8 pages',
  locks: () => 0,
  *run(dsm: Dsm) {
    const rt = dsm as unknown as PageRuntime;
    const v = dsm.alloc('v', 8, 4096);
    const c = dsm.core;
    const note = (what: string) => state.calls.push([`${dsm.me}:${what}`, rt.mprotectCalls]);
    if (dsm.me === 0) {
      for (const p of [0, 1, 2, 5]) c.store32(yield* dsm.open(v, p, true), 10 + p);
      note('written');
    }
    yield* dsm.barrier();
    note('barrier 1');
    if (dsm.me === 0) c.store32(yield* dsm.open(v, 1, true), 21);
    yield* dsm.barrier();
    if (dsm.me === 1) {
      state.seen = c.load32(yield* dsm.open(v, 1, false));
      note('read');
    }
    yield* dsm.barrier();
    if (dsm.me === 0) {
      note('barrier 3');
      c.store32(yield* dsm.open(v, 1, true), 31);
      note('rewritten');
    }
  },
  *check() {
    return { correct: true, detail: '' };
  },
};

describe('page runtime: protection as TreadMarks 1998 (page.c, interval.c, diff.c)', () => {
  it('no mprotect at an interval close, one per run of invalidated pages, one after serving a diff; a rewrite before the diff takes no fault', () => {
    state.calls = [];
    state.seen = 0;
    const row = new Simulation(
      { version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'protect', runtime: 'page', processors: 2 } }, seed: 1 },
      { ...workloads, dsm: makeDsmWorkload({ protect: app as DsmApp }) },
    ).runInline().workload.rows[0]!;
    expect(Object.fromEntries(state.calls)).toEqual({
      '0:written': 4,
      '0:barrier 1': 4,
      '1:barrier 1': 2,
      '1:read': 4,
      '0:barrier 3': 5,
      '0:rewritten': 6,
    });
    expect(state.seen).toBe(21); // the diff made at the request carries the rewrite
    // notices: the 4 pages in barrier 1's departure to processor 1, then page 1 once more in the
    // end barrier's (the third write's interval); none for the second write
    expect([row.writeFaults, row.twins, row.readFaults, row.diffs, row.writeNotices]).toEqual([5, 5, 1, 1, 5]);
  });
});
