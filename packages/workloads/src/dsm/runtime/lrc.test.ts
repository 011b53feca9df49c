import { describe, expect, it } from 'vitest';
import { PROT_READ, Simulation, type Row } from '@manycore/engine';
import type { Dsm, DsmApp } from '../api';
import { intervalBytes, LrcRuntime, rangeBytes, REDUCTION_WINDOW, TMK_NPROCS, unitLimit, wireProcs } from './lrc';
import { makeDsmWorkload } from '../workload';
import { workloads } from '../../index';

/** Closes the runtime's open interval directly (tests: the message paths below do not depend on why an interval closes). */
function closeNow(dsm: Dsm): void {
  (dsm as unknown as { closeInterval(): void }).closeInterval();
}

/**
 * The page runtime keeps a closed interval's page read-write with its twin (TreadMarks: no
 * mprotect at Tmk_interval_create), so a write in the next interval takes no fault and names
 * the page in no new interval. For tests that need one interval per write: make the page's diff
 * now and write-protect it, as a diff request would (Tmk_diff_sigio_handler). Object runtime:
 * nothing (its release compares and drops the twins).
 */
function diffNow(dsm: Dsm, page: number): void {
  const rt = dsm as unknown as { makeDiff?(p: number): void; twinSlot?: Int32Array };
  if (!rt.makeDiff || rt.twinSlot![page]! < 0) return;
  rt.makeDiff(page);
  dsm.core.protection.set(page, PROT_READ);
}

/**
 * Long runtime messages (regression: Barnes-Hut at paper-sm on 32 processors): processor 1
 * closes `intervals` intervals, each writing word 0 of one page under a lock it manages (local
 * acquires, which since lazy interval creation close no interval by themselves: closeNow after
 * each release); at the end barrier its arrival carries every interval (TreadMarks' encoding:
 * ~p 2 B + vector time 2 B x NPROCS (32, TreadMarks' compile-time maximum, though 16 run) + one
 * page 2 B = 68 B each), and the manager's departure to each of the 14 others carries them
 * again. With 8,000 intervals one message is 544,000 B of records: 9 datagrams of at most
 * 65,507 B, 17,000 line writes, more than one epoch's write log (16,384) and more than the 8
 * datagrams the receiver's socket buffer holds from one sender (network.slotsPerPair).
 */
const PROCS = 16;
const INTERVALS = 8000;
const longNotices: DsmApp<{ intervals: number }> = {
  name: 'long-notices',
  title: 'test: thousands of intervals in one barrier message',
  sizes: { small: { intervals: INTERVALS }, 'paper-sm': { intervals: INTERVALS }, 'paper-lg': { intervals: INTERVALS } },
  describe: (s) => `${s.intervals} intervals`,
  locks: () => 2,
  *run(dsm: Dsm, s) {
    const arr = dsm.alloc('v', 1024, 4); // one page
    if (dsm.me !== 1) return;
    for (let k = 0; k < s.intervals; k++) {
      yield* dsm.acquire(1); // managed by processor 1, which holds its token: no message
      dsm.core.store32(yield* dsm.open(arr, 0, true), k + 1);
      yield* dsm.release(1);
      closeNow(dsm);
      diffNow(dsm, 0);
    }
  },
  *check(dsm: Dsm, s) {
    const v = dsm.core.load32(yield* dsm.open({ id: 0, name: 'v', count: 1024, objectBytes: 4 }, 0, false));
    return { correct: v === s.intervals, detail: `word 0 = ${v}` };
  },
};

const reg = { ...workloads, dsm: makeDsmWorkload({ 'long-notices': longNotices as DsmApp }) };
const run = (runtime: string): Row =>
  new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'long-notices', runtime, processors: PROCS } }, seed: 1 }, reg).runInline().workload.rows[0]!;

describe('lrc: messages longer than a write log and a socket buffer', () => {
  it.each(['page', 'object'])('%s runtime: a 9-datagram barrier arrival and departures go through, notices exact', (runtime) => {
    const r = run(runtime);
    expect(r.correct).toBe(true);
    // notices: the arrival (8,000) and 14 departures (8,000 each); processor 1's departure is empty
    expect(r.writeNotices).toBe(15 * INTERVALS);
    // datagrams: arrivals (processor 1's 9, 14 others' 1 each) and departures (14 x 9, 1 empty)
    expect(r.messages).toBe(9 + 14 + 14 * 9 + 1);
    // bytes: each long message in 9 datagrams with a 4 B header each; a record is 68 B
    const record = 2 + 2 * 32 + 2;
    const longBytes = 2 * 32 + INTERVALS * record + 9 * 4; // arrival: vt, records
    const depBytes = INTERVALS * record + 9 * 4; // departure: records
    expect(r.bytes).toBe(longBytes + 14 * (4 + 2 * 32) + 14 * depBytes + 4);
  });
});

/**
 * More twins than the page runtime's twin area (regression: Water-Spatial/lg on 32 processors,
 * where processor 0 writes every molecule in one interval): processor 0 writes word k of each of
 * 1,100 pages (MAX_TWINS is 1,024) before the barrier; processor 1 then reads them all.
 */
const manyTwins: DsmApp<{ pages: number }> = {
  name: 'many-twins',
  title: 'test: more live twins than the twin area',
  sizes: { small: { pages: 1100 }, 'paper-sm': { pages: 1100 }, 'paper-lg': { pages: 1100 } },
  describe: (s) => `${s.pages} pages`,
  locks: () => 0,
  *run(dsm: Dsm, s) {
    const arr = dsm.alloc('v', s.pages * 1024, 4);
    if (dsm.me === 0) for (let k = 0; k < s.pages; k++) dsm.core.store32(yield* dsm.open(arr, k * 1024 + (k % 1024), true), k + 7);
    yield* dsm.barrier();
    if (dsm.me === 1) for (let k = 0; k < s.pages; k++) dsm.core.load32(yield* dsm.open(arr, k * 1024 + (k % 1024), false));
  },
  *check(dsm: Dsm, s) {
    let bad = 0;
    for (let k = 0; k < s.pages; k++) if (dsm.core.load32(yield* dsm.open({ id: 0, name: 'v', count: s.pages * 1024, objectBytes: 4 }, k * 1024 + (k % 1024), false)) !== k + 7) bad++;
    return { correct: bad === 0, detail: `${bad} pages wrong` };
  },
};

describe('page runtime: twins beyond the twin area', () => {
  it('1,100 twins live at once on one processor: every page written, diffed and fetched', () => {
    const r = new Simulation(
      { version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'many-twins', runtime: 'page', processors: 2 } }, seed: 1 },
      { ...workloads, dsm: makeDsmWorkload({ 'many-twins': manyTwins as DsmApp }) },
    ).runInline().workload.rows[0]!;
    expect(r.correct).toBe(true);
    expect(r.twins).toBe(1100);
    expect(r.writeFaults).toBe(1100);
    expect(r.diffs).toBe(1100); // processor 1's 1,100 read faults each ask for one diff
    expect(r.overlappedRequests).toBe(1100);
  });
});

/**
 * Host memory (lrc.ts collect): after each barrier a processor drops the intervals every
 * processor has seen (the page runtime keeps none; with write-notice reduction each processor's
 * last REDUCTION_WINDOW stay, the bases a reduced interval may name). Each of 4 processors
 * writes its word of page v under lock 0 in each of 70 rounds, a barrier after each; then
 * processor 1 closes 100 intervals under lock 1 writing words of page w (closeNow after each
 * local release), which processor 0 reads
 * only in the check, two barriers later: it asks processor 1 for 100 diffs of dropped intervals
 * (the page runtime orders them by the sums kept with its notices). The run is the same with
 * and without collecting (digest and row); only the intervals kept differ.
 */
const GC_PROCS = 4;
const GC_ROUNDS = 70;
const GC_BURST = 100;
const gcState = { collect: true, kept: [] as number[] };
const gcApp: DsmApp<{ rounds: number }> = {
  name: 'gc',
  title: 'test: intervals dropped after barriers',
  sizes: { small: { rounds: GC_ROUNDS }, 'paper-sm': { rounds: GC_ROUNDS }, 'paper-lg': { rounds: GC_ROUNDS } },
  describe: (s) => `${s.rounds} rounds`,
  locks: () => 2,
  *run(dsm: Dsm, s) {
    const rt = dsm as LrcRuntime;
    rt.hostCollect = gcState.collect;
    const v = dsm.alloc('v', 1024, 4);
    const w = dsm.alloc('w', 1024, 4);
    for (let r = 1; r <= s.rounds; r++) {
      yield* dsm.acquire(0);
      dsm.core.store32(yield* dsm.open(v, dsm.me, true), 100 * r + dsm.me);
      yield* dsm.release(0);
      yield* dsm.barrier();
      gcState.kept.push(rt.retainedIntervals());
    }
    if (dsm.me === 1)
      for (let k = 0; k < GC_BURST; k++) {
        yield* dsm.acquire(1);
        dsm.core.store32(yield* dsm.open(w, k, true), k + 1);
        yield* dsm.release(1);
        closeNow(dsm);
        diffNow(dsm, 1); // w is the second page
      }
    yield* dsm.barrier();
    gcState.kept.push(rt.retainedIntervals());
  },
  *check(dsm: Dsm, s) {
    let bad = 0;
    for (let p = 0; p < GC_PROCS; p++) if (dsm.core.load32(yield* dsm.open({ id: 0, name: 'v', count: 1024, objectBytes: 4 }, p, false)) !== 100 * s.rounds + p) bad++;
    for (let k = 0; k < GC_BURST; k++) if (dsm.core.load32(yield* dsm.open({ id: 1, name: 'w', count: 1024, objectBytes: 4 }, k, false)) !== k + 1) bad++;
    return { correct: bad === 0, detail: `${bad} words wrong` };
  },
};

describe('lrc: intervals dropped after barriers (host memory)', () => {
  const gcRun = (runtime: string, collect: boolean) => {
    gcState.collect = collect;
    gcState.kept = [];
    const res = new Simulation(
      { version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'gc', runtime, processors: GC_PROCS } }, seed: 1 },
      { ...workloads, dsm: makeDsmWorkload({ gc: gcApp as DsmApp }) },
    ).runInline();
    return { digest: res.digest, row: res.workload.rows[0]!, kept: gcState.kept };
  };
  it.each([
    // page: 211 of the 280 rounds' intervals; a processor that wrote v last before a barrier and
    // takes lock 0 first in the next round (its token is here) writes v without a fault (the page
    // kept read-write with its twin, TreadMarks): no new interval, its write rides on its last diff
    ['page', 0, 211],
    ['object', REDUCTION_WINDOW, GC_PROCS * GC_ROUNDS],
  ] as const)('%s runtime: the same run; kept intervals bounded (window %i) instead of growing', (runtime, window, roundIntervals) => {
    const all = gcRun(runtime, false);
    const some = gcRun(runtime, true);
    expect(some.row.correct).toBe(true);
    expect(some.digest).toBe(all.digest);
    expect(some.row).toEqual(all.row);
    // without collecting, each processor keeps every interval: the rounds', then processor 1's 100
    expect(all.kept.slice(-GC_PROCS)).toEqual(Array(GC_PROCS).fill(roundIntervals + GC_BURST));
    // with it, what is left after the last barrier: each processor's last `window` intervals
    expect(some.kept.slice(-GC_PROCS)).toEqual(Array(GC_PROCS).fill((GC_PROCS - 1) * Math.min(GC_ROUNDS, window) + Math.min(GC_ROUNDS + GC_BURST, window)));
    expect(Math.max(...some.kept)).toBe(GC_PROCS * window);
    if (runtime === 'page') expect(some.row.diffs).toBeGreaterThanOrEqual(GC_BURST); // the check fetched processor 1's 100 diffs of dropped intervals
  });
});

/**
 * Lazy interval creation (TreadMarks lock.c / interval.c, lrc.ts contract), 2 processors, lock 1
 * managed by processor 1 (which holds its token), array v of 4-byte words on one page:
 * 1. processor 1 reads v[1], then writes v[0], v[3], v[4] in three local critical sections of
 *    lock 1: no interval (nobody waits);
 * 2. processor 0 asks for lock 1 at 1 ms; processor 1 serves the request at its poll() at 10 ms:
 *    no interval was closed since its last release, so it closes interval 1 ({v0, v3, v4}; the
 *    page runtime: {page 0}) and grants; processor 0 reads v[0] = 7, writes v[1] = 9, releases;
 * 3. processor 1 writes v[2] (open interval), then acquires lock 1 back: the grant's notice names
 *    v[1] (page 0), which it made writable in its open interval (the object runtime's write
 *    aggregation twins the page), so it closes interval 2 first (its vector timestamp that of
 *    before the grant), then invalidates and reads v[1] = 9. The page runtime's page is still
 *    read-write from interval 1 (TreadMarks): the write takes no fault, nothing is dirty, no
 *    interval 2; the diff processor 0 asks for carries v[2].
 * Write notices sent: grant 1 -> 0 (3 objects | 1 page), grant 0 -> 1 (1), processor 1's
 * barrier arrival with its intervals (3 + 1 | 1), an empty departure: 8 | 3.
 */
const lazyState = { seen: [] as number[], vt: [] as number[] };
const lazyApp: DsmApp<Record<string, never>> = {
  name: 'lazy',
  title: 'test: lazy interval creation',
  sizes: { small: {}, 'paper-sm': {}, 'paper-lg': {} },
  describe: () => '2 processors, lock 1',
  locks: () => 2,
  *run(dsm: Dsm) {
    const v = dsm.alloc('v', 1024, 4);
    const c = dsm.core;
    if (dsm.me === 1) {
      c.load32(yield* dsm.open(v, 1, false));
      for (const [k, x] of [[0, 7], [3, 3], [4, 4]] as const) {
        yield* dsm.acquire(1);
        c.store32(yield* dsm.open(v, k, true), x);
        yield* dsm.release(1);
      }
      lazyState.vt.push((dsm as LrcRuntime).vt[1]!); // 0: no interval yet
      c.compute(3_000_000); // 10 ms
      yield* dsm.poll(); // serves processor 0's request
      lazyState.vt.push((dsm as LrcRuntime).vt[1]!); // 1
      c.store32(yield* dsm.open(v, 2, true), 5);
      yield* dsm.acquire(1);
      lazyState.vt.push((dsm as LrcRuntime).vt[1]!); // 2: closed by the grant's notice
      lazyState.seen.push(c.load32(yield* dsm.open(v, 1, false)));
      yield* dsm.release(1);
    } else {
      c.compute(300_000); // 1 ms
      yield* dsm.acquire(1);
      lazyState.seen.push(c.load32(yield* dsm.open(v, 0, false)));
      c.store32(yield* dsm.open(v, 1, true), 9);
      yield* dsm.release(1);
    }
    yield* dsm.barrier();
  },
  *check(dsm: Dsm) {
    const want = [7, 9, 5, 3, 4];
    let bad = 0;
    for (let k = 0; k < want.length; k++) if (dsm.core.load32(yield* dsm.open({ id: 0, name: 'v', count: 1024, objectBytes: 4 }, k, false)) !== want[k]) bad++;
    return { correct: bad === 0, detail: `${bad} words wrong` };
  },
};

describe('lrc: intervals created lazily, as TreadMarks does', () => {
  it.each([
    // page: processor 1's page stays read-write after interval 1 (TreadMarks: no mprotect at
    // Tmk_interval_create), so its write of v[2] takes no fault and leaves nothing dirty: the
    // grant's notice closes no interval (vt stays 1); processor 0's diff request, served while
    // processor 1 waits for the grant, makes interval 1's diff with v[2] in it
    ['page', 3, [0, 1, 1]],
    ['object', 8, [0, 1, 2]],
  ] as const)('%s runtime: local critical sections share one interval; a request and an incoming notice close it', (runtime, notices, vt) => {
    lazyState.seen = [];
    lazyState.vt = [];
    const row = new Simulation(
      { version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'lazy', runtime, processors: 2 } }, seed: 1 },
      { ...workloads, dsm: makeDsmWorkload({ lazy: lazyApp as DsmApp }) },
    ).runInline().workload.rows[0]!;
    expect(row.correct).toBe(true);
    expect(lazyState.seen).toEqual([7, 9]);
    expect(lazyState.vt).toEqual(vt);
    expect(row.writeNotices).toBe(notices);
  });
});

describe('lrc: interval records on the wire as TreadMarks encodes them (interval.c)', () => {
  it('ranges: a single unit 2 B, a run of two 4 B, a longer run 6 B (marker, first, last); 4 B fields double them', () => {
    expect(rangeBytes([5], 2)).toBe(2);
    expect(rangeBytes([5, 6], 2)).toBe(4);
    expect(rangeBytes([5, 6, 7, 8, 9], 2)).toBe(6);
    expect(rangeBytes([1, 3, 4, 6, 7, 8, 9, 20], 2)).toBe(2 + 4 + 6 + 2);
    expect(rangeBytes([1, 3, 4, 6, 7, 8, 9, 20], 4)).toBe(4 + 8 + 12 + 4);
    expect(rangeBytes([], 2)).toBe(0);
  });

  it('a record: ~p 2 B + vector time 2 B x NPROCS (TMK_NPROCS = 32 below 33 processors) + ranges; a reduced one adds marker and base', () => {
    expect(TMK_NPROCS).toBe(32);
    expect([wireProcs(2), wireProcs(32), wireProcs(48)]).toEqual([32, 32, 48]);
    const units = Int32Array.from([1, 3, 4, 6, 7, 8, 9, 20]);
    expect(intervalBytes({ units }, 32, 2)).toBe(2 + 64 + 14);
    expect(intervalBytes({ units }, 48, 2)).toBe(2 + 96 + 14);
    // reduced: + marker 2 B + base 2 B + the added units' ranges (+ marker + the removed units' ranges when any)
    expect(intervalBytes({ units, base: 3, plus: new Int32Array(0), minus: new Int32Array(0) }, 32, 2)).toBe(2 + 64 + 4);
    expect(intervalBytes({ units, base: 3, plus: Int32Array.from([2]), minus: Int32Array.from([7, 8, 9]) }, 32, 2)).toBe(2 + 64 + 4 + 2 + 2 + 6);
    // TreadMarks' limit for unit ids in 2 B fields: below ~NPROCS = 65,536 - 32 - 1; with reduction's two markers 2 fewer
    expect([unitLimit(32, 2, false), unitLimit(32, 2, true)]).toEqual([65503, 65501]);
  });

  it.each(['page', 'object'])('%s runtime: one barrier arrival carries exactly the record of the units written (one unit per page)', (runtime) => {
    // processor 1 writes word 0 of the given pages, then the barrier: its arrival carries one
    // record (66 B + ranges), the departure back names nothing new; the run without writes differs by the record alone
    const bytes = (pages: number[], count = 32, objectBytes = 4096): Row => {
      const app: DsmApp<Record<string, never>> = {
        name: 'wire',
        title: 'test: one interval record',
        sizes: { small: {}, 'paper-sm': {}, 'paper-lg': {} },
        describe: () => `${pages.length} pages`,
        locks: () => 0,
        *run(dsm: Dsm) {
          const v = dsm.alloc('v', count, objectBytes); // by default one object per page: OIDs = page ids
          if (dsm.me === 1) for (const p of pages) dsm.core.store32(yield* dsm.open(v, p, true), p + 1);
          yield* dsm.barrier();
        },
        *check() {
          return { correct: true, detail: '' };
        },
      };
      return new Simulation(
        { version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'wire', runtime, processors: 2 } }, seed: 1 },
        { ...workloads, dsm: makeDsmWorkload({ wire: app as DsmApp }) },
      ).runInline().workload.rows[0]!;
    };
    const none = bytes([]);
    const cases: Array<[number[], number]> = [
      [[5], 66 + 2],
      [[5, 6], 66 + 4],
      [[5, 6, 7, 8, 9], 66 + 6],
      [[20, 1, 7, 3, 9, 4, 6, 8], 66 + 2 + 4 + 6 + 2], // written out of order: sent as ascending ranges
    ];
    for (const [pages, record] of cases) {
      const r = bytes(pages);
      expect([pages, (r.bytes as number) - (none.bytes as number)]).toEqual([pages, record]);
      expect([r.messages, r.writeNotices]).toEqual([none.messages, pages.length]);
    }
    if (runtime === 'object') {
      // 70,000 OIDs do not fit below 65,501 (2 B fields with reduction's markers): ~p and units in 4 B fields, not wrapped
      const wide = bytes([0, 69_999], 70_000, 4);
      const wideNone = bytes([], 70_000, 4);
      expect((wide.bytes as number) - (wideNone.bytes as number)).toBe(4 + 64 + 4 + 4);
      expect(wide.writeNotices).toBe(2);
    }
  });
});
