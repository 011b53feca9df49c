import { describe, expect, it } from 'vitest';
import { Simulation, type Row } from '@manycore/engine';
import type { Dsm, DsmApp } from '../api';
import { DSM_APP_NAMES, dsmApps } from '../apps';
import { sor } from '../apps/sor';
import { makeDsmWorkload } from '../workload';
import { workloads } from '../../index';
import { reduceNotices, type Interval } from './lrc';
import { ObjectRuntime } from './object';
import type { DsmTransport } from './transport';

/**
 * A page of small objects with false sharing: `objects` objects of 64 B (8 per 512 B, one page
 * for 64). Processor p's set is every object (or, `split`, its contiguous share); it first reads
 * its set in index order (`readFirst`: lazy allocation places them in that order), then `rounds`
 * times writes the objects of its set with index % procs == p (`split`: all of its share; value 100 (r + 1) + k in the
 * first double), meets the others at a barrier and reads its whole set.
 */
interface Fs {
  objects: number;
  rounds: number;
  readFirst: boolean;
  split: boolean;
}
const OBJ = 64;
const setOf = (s: Fs, me: number, procs: number): [number, number] => (s.split ? [Math.floor((me * s.objects) / procs), Math.floor(((me + 1) * s.objects) / procs)] : [0, s.objects]);
const falseShare: DsmApp<Fs> = {
  name: 'fs',
  title: 'test: false sharing on a page of small objects',
  sizes: { small: { objects: 8, rounds: 1, readFirst: true, split: false }, 'paper-sm': { objects: 8, rounds: 3, readFirst: true, split: false }, 'paper-lg': { objects: 128, rounds: 1, readFirst: true, split: true } },
  describe: (s) => `${s.objects} objects, ${s.rounds} rounds`,
  locks: () => 0,
  *run(dsm: Dsm, s: Fs) {
    const arr = dsm.alloc('fs', s.objects, OBJ);
    const c = dsm.core;
    const [lo, hi] = setOf(s, dsm.me, dsm.procs);
    if (s.readFirst) for (let k = lo; k < hi; k++) c.loadF64(yield* dsm.open(arr, k, false));
    for (let r = 0; r < s.rounds; r++) {
      for (let k = lo; k < hi; k++) if (s.split || k % dsm.procs === dsm.me) c.storeF64(yield* dsm.open(arr, k, true), 100 * (r + 1) + k);
      yield* dsm.barrier();
      for (let k = lo; k < hi; k++) c.loadF64(yield* dsm.open(arr, k, false));
    }
  },
  *check(dsm: Dsm, s: Fs) {
    let bad = 0;
    for (let k = 0; k < s.objects; k++) if (dsm.core.loadF64(yield* dsm.open({ id: 0, name: 'fs', count: s.objects, objectBytes: OBJ }, k, false)) !== 100 * s.rounds + k) bad++;
    return { correct: bad === 0, detail: `${bad} of ${s.objects} objects differ` };
  },
};

const sorMini: DsmApp = { ...sor, name: 'sor-mini', sizes: { ...sor.sizes, small: { rows: 66, cols: 1023, steps: 2 } } } as DsmApp;
/** The apps' own tiny sizes (their tests') where `small` takes over ~10 s on 4 processors. */
const TINY: Record<string, unknown> = { 'barnes-hut': { bodies: 256, steps: 2 }, 'water-spatial': { molecules: 216, steps: 2 } };
const apps: Record<string, DsmApp> = Object.fromEntries(
  Object.entries(dsmApps).map(([name, app]) => [name, (TINY[name] ? { ...app, sizes: { ...app.sizes, small: TINY[name] } } : app) as DsmApp]),
);
const fsCold: DsmApp<Fs> = { ...falseShare, name: 'fs-cold', sizes: { ...falseShare.sizes, small: { objects: 8, rounds: 1, readFirst: false, split: false } } };
const reg = { ...workloads, dsm: makeDsmWorkload({ ...apps, fs: falseShare as DsmApp, 'fs-cold': fsCold as DsmApp, 'sor-mini': sorMini }) };
function run(params: Record<string, unknown>): Row {
  return new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params }, seed: 1 }, reg).runInline().workload.rows[0]!;
}
const counts = (x: Row) => ({
  messages: x.messages,
  bytes: x.bytes,
  overlappedRequests: x.overlappedRequests,
  rounds: x.rounds,
  readFaults: x.readFaults,
  writeFaults: x.writeFaults,
  writeNotices: x.writeNotices,
  diffs: x.diffs,
  twins: x.twins,
  memoryPerProcessorBytes: x.memoryPerProcessorBytes,
});

describe('object runtime (SkidMarks-like) on cluster-1999', () => {
  it('counts a page of falsely shared objects by hand: no diffs (the page runtime makes two), one fault of each kind per processor', () => {
    const x = run({ app: 'fs', runtime: 'object', processors: 2 });
    expect(x.correct).toBe(true);
    // each processor: 1 write fault (write aggregation makes all 8 objects read-write, 1 twin),
    // 1 read fault (read aggregation fetches the other's 4 objects in one request)
    // messages: barrier 2 + 2 fetches x 2 + end barrier 2; rounds: 2 barriers x 2 + 2 fetches
    // notices: 4 changed objects in P1's arrival + 4 in P0's departure
    // bytes (lrc.ts: TreadMarks' encoding, NPROCS = 32): arrival 4 + vt 64 + record (~p 2 + vt 64
    // + 4 single objects x 2, every other OID) = 142; departure 4 + 74 = 78;
    // OBJ_REQ 4 + 4 + 4 x 12 = 56; OBJ_REPLY 4 + 4 + 4 x (12 + 64) = 312; empty end barrier 68 + 4
    expect(counts(x)).toEqual({ messages: 8, bytes: 142 + 78 + 2 * (56 + 312) + 68 + 4, overlappedRequests: 2, rounds: 6, readFaults: 2, writeFaults: 2, writeNotices: 8, diffs: 0, twins: 2, memoryPerProcessorBytes: 4096 });
    const p = run({ app: 'fs', runtime: 'page', processors: 2 });
    expect(p.correct).toBe(true);
    // the same messages and faults, but one multiple-writer diff per processor and one notice per page
    expect([p.messages, p.overlappedRequests, p.readFaults, p.writeFaults, p.diffs, p.writeNotices]).toEqual([8, 2, 2, 2, 2, 2]);
  });

  it('without read aggregation each invalid object is its own fault, request and round', () => {
    const x = run({ app: 'fs', runtime: 'object', processors: 2, readAggregation: false });
    expect(x.correct).toBe(true);
    // 4 read faults per processor, each a 1-object request (4 + 4 + 12) and reply (4 + 4 + 12 + 64)
    expect(counts(x)).toMatchObject({ readFaults: 8, overlappedRequests: 8, rounds: 2 + 8 + 2, messages: 2 + 16 + 2, bytes: 142 + 78 + 8 * (20 + 84) + 68 + 4, writeFaults: 2 });
  });

  it('without write aggregation each object written is its own write fault, without a twin; the notices stay', () => {
    const x = run({ app: 'fs', runtime: 'object', processors: 2, writeAggregation: false });
    expect(x.correct).toBe(true);
    expect(counts(x)).toMatchObject({ writeFaults: 8, twins: 0, writeNotices: 8, messages: 8, readFaults: 2 });
  });

  it('without lazy allocation every processor holds the whole array; with it, only the objects it opened', () => {
    // each processor uses only its half of 128 objects of 64 B (4 KB): lazily one page, eagerly both
    const half = run({ app: 'fs', runtime: 'object', processors: 2, size: 'paper-lg' });
    const whole = run({ app: 'fs', runtime: 'object', processors: 2, size: 'paper-lg', lazyAllocation: false });
    expect(half.correct && whole.correct).toBe(true);
    expect([half.allocatedPerProcessorBytes, whole.allocatedPerProcessorBytes]).toEqual([4096, 8192]);
    expect(half.messages).toBe(whole.messages);
  });

  it('lazily placed objects: one joins the twinned page it lands on (no write fault); one placed invalid is fetched alone', () => {
    // no reading first: processor 0 places 0 (write fault, twin), then 2, 4, 6 on the twinned page
    // (read-write at once); after the barrier it places 1, 3, 5, 7 one by one as it reads them,
    // each invalid with nothing else invalid on its page yet: 4 read faults, 4 rounds
    const x = run({ app: 'fs-cold', runtime: 'object', processors: 2 });
    expect(x.correct).toBe(true);
    expect(counts(x)).toMatchObject({ writeFaults: 2, twins: 2, readFaults: 8, overlappedRequests: 8, writeNotices: 8 });
    const eager = run({ app: 'fs-cold', runtime: 'object', processors: 2, lazyAllocation: false });
    expect(counts(eager)).toMatchObject({ writeFaults: 2, readFaults: 2, overlappedRequests: 2 });
  });

  it('write-notice reduction sends a repeated interval as an empty difference: 3x fewer notices, the same messages', () => {
    const on = run({ app: 'fs', runtime: 'object', processors: 2, size: 'paper-sm' });
    const off = run({ app: 'fs', runtime: 'object', processors: 2, size: 'paper-sm', writeNoticeReduction: false });
    expect(on.correct && off.correct).toBe(true);
    // 3 rounds: 4 notices per processor per round whole; reduced, rounds 2 and 3 send 0
    expect([on.writeNotices, off.writeNotices]).toEqual([8, 24]);
    expect(on.messages).toBe(off.messages);
    expect(on.overlappedRequests).toBe(off.overlappedRequests);
    // a reduced record: marker 2 B + base 2 B, vs 4 single objects x 2 B: 4 B less each, 2 intervals x 2 messages
    expect((off.bytes as number) - (on.bytes as number)).toBe(4 * 4);
  });

  it('reduceNotices picks the most recent similar own interval and sends only the difference', () => {
    const iv = (id: number, units: number[]): Interval => ({ proc: 0, id, vt: new Int32Array(1), vtSum: id, units: Int32Array.from(units) });
    const own = [iv(1, [1, 2, 3, 4, 5, 6]), iv(2, [10, 11])];
    expect(reduceNotices(own, Int32Array.from([1, 2, 3, 4, 5, 7]))).toEqual({ base: 1, plus: Int32Array.from([7]), minus: Int32Array.from([6]) });
    expect(reduceNotices(own, Int32Array.from([20, 21, 22]))).toBeNull(); // nothing similar: sent whole
  });

  it('SOR (one page per colour row) sends the same messages, overlapped requests and rounds on both runtimes, and takes the same faults', () => {
    const p = run({ app: 'sor-mini', runtime: 'page', processors: 4 });
    const o = run({ app: 'sor-mini', runtime: 'object', processors: 4, writeNoticeReduction: false });
    expect(p.correct && o.correct).toBe(true);
    for (const k of ['messages', 'overlappedRequests', 'rounds', 'readFaults', 'allocatedPerProcessorBytes'] as const) expect([k, o[k]]).toEqual([k, p[k]]);
    // write faults differ by mechanism: SkidMarks compares each twinned page at the release and
    // drops the twin, so every page written takes a fault and a twin in every interval (132 at the
    // initialisation + 4 phases x 64 rows); TreadMarks keeps a written page read-write with its
    // twin until its diff is made, so only the rows whose diffs a neighbour asked for fault again
    // (132 + 3 x 6: workload.test.ts) and name themselves in a later interval's notices
    expect([p.writeFaults, p.twins, o.writeFaults, o.twins]).toEqual([132 + 18, 132 + 18, 132 + 256, 132 + 256]);
    // diffs: exactly the 24 fetched (made at the request, lazily); none at a later write fault
    expect([o.diffs, p.diffs, o.writeNotices, p.writeNotices]).toEqual([0, 24, 1164, 450]);
    // bytes differ in the barriers' records (the page runtime's name fewer pages: above) and in
    // the unit messages: a row travels whole (reply 4 + 4 + 12 + 4096 B) where
    // the page runtime sends a run-length diff (4 B per run of changed words: the words a
    // relaxation leaves unchanged split the runs), and OBJ_REQ is 20 B vs DIFF_REQ 16 B
    expect(o.bytes).toBe(104952);
    expect(p.bytes).toBe(102180);
  });

  it('SOR at the default size on 32 processors: the same messages, rounds and read faults; barrier bytes equal without write-notice reduction where both name the same units', { timeout: 30_000 }, () => {
    // the rows of every processor (no summary): msgTypes "type:datagrams:bytes" per processor
    const perType = (params: Record<string, unknown>) => {
      const res = new Simulation(
        { version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'sor', processors: 32, ...params } }, seed: 1 },
        { ...workloads, dsm: { ...workloads.dsm, summarize: undefined, extra: undefined } },
      ).runInline();
      const by: Record<number, [number, number]> = {};
      const sum = { messages: 0, bytes: 0, rounds: 0, overlappedRequests: 0, readFaults: 0, writeFaults: 0, writeNotices: 0 };
      for (const row of res.workload.rows) {
        for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += row[k] as number;
        for (const e of String(row.msgTypes).split(' ').filter(Boolean)) {
          const [t, n, b] = e.split(':').map(Number) as [number, number, number];
          const o = (by[t] ??= [0, 0]);
          o[0] += n;
          o[1] += b;
        }
      }
      return { by, sum };
    };
    const p = perType({ runtime: 'page' });
    const o = perType({ runtime: 'object' });
    const oFull = perType({ runtime: 'object', writeNoticeReduction: false });
    for (const k of ['messages', 'rounds', 'overlappedRequests', 'readFaults'] as const) expect([k, o.sum[k], oFull.sum[k]]).toEqual([k, p.sum[k], p.sum[k]]);
    // write faults: the object runtime every page written in every interval (32 x 80 + 4), the
    // page runtime the initialisation's pages and then only the rows diffed at a request (above)
    expect([o.sum.writeFaults, oFull.sum.writeFaults, p.sum.writeFaults]).toEqual([2564, 2564, 950]);
    // barrier arrivals (4) and departures (5): the object runtime's records name each band of
    // rows (one range of OIDs), the page runtime's only the pages it faulted on in the interval
    expect([oFull.by[4], oFull.by[5]]).toEqual([
      [310, 41354],
      [310, 629734],
    ]);
    expect([p.by[4], p.by[5]]).toEqual([
      [310, 38674],
      [310, 546234],
    ]);
    expect([oFull.sum.writeNotices, p.sum.writeNotices]).toEqual([79484, 29450]);
    // with reduction (the object runtime's default) a phase's record goes as an empty difference
    // from the one two intervals back: marker 2 B + base 2 B instead of one range 6 B, 2 B less
    // for each of the 5,952 reduced records sent (372 B in arrivals, 11,532 B in departures)
    expect([o.by[4], o.by[5]]).toEqual([
      [310, 41354 - 372],
      [310, 629734 - 11532],
    ]);
    // the unit messages: DIFF_REQ 16 B vs OBJ_REQ 20 B; a page's run-length diff (12 B + 8 B per
    // diff + 4 B per run of changed words) vs the page's part of a row whole (4,116 B)
    expect([p.by[16], o.by[16], p.by[17], o.by[17]]).toEqual([
      [496, 496 * 16],
      [496, 496 * 20],
      [496, 2021432], // 2,259,352 when each write fault after a request made the page's diff: a reply then carried two diffs where it now carries one
      [496, 496 * 4116],
    ]);
  });

  for (const app of DSM_APP_NAMES)
    it(`${app} (small size; Barnes-Hut 256 bodies, Water-Spatial 216 molecules) on 4 processors is correct with every switch on`, { timeout: 30_000 }, () => {
      const x = run({ app, runtime: 'object', processors: 4 });
      expect([x.check, x.correct]).toEqual([x.check, true]);
      expect(x.diffs).toBe(0);
    });

  it('is deterministic and rejects a node without aliased views with a message', () => {
    const a = run({ app: 'fs', runtime: 'object', processors: 3, size: 'paper-lg' });
    const b = run({ app: 'fs', runtime: 'object', processors: 3, size: 'paper-lg' });
    expect(a).toEqual(b);
    const bare = { core: {}, me: 0, procs: 1, maxDatagramBytes: 1472, sharedBase: 0, regionBytes: 1 << 26 } as unknown as DsmTransport;
    expect(() => new ObjectRuntime(bare, 0)).toThrow('dsm object runtime: this node offers no aliased mappings (transport mapAliases / mprotectRange)');
  });
});
