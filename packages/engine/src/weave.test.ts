/**
 * Contract tests for weave.ts.
 * Calendar (a controller's booked service intervals, sorted, disjoint, merged):
 * - book(m, arrival, service) serves in the first free slot at or after the arrival: empty
 *   calendar, back-to-back arrivals queueing, an earlier arrival after a later booking served
 *   earlier, gaps filled exactly, adjacent intervals merged, prune dropping old intervals;
 *   a model check against a brute-force first-fit over a list of booked slots.
 * Weaver.run over hand-written transaction records (layout.ts TXN_BYTES entries, as
 * CoreBase.txnRecord writes them). Controller queueing on the 'fixed' DRAM model (one service
 * time per transaction on the calendar), which isolates the booking machinery:
 * - two cores at one controller at the same time: the higher core id waits exactly
 *   the service time, charged to its delay and to its stall counter of the record's cause;
 * - an earlier arrival goes first whatever its core id; weights divide the charged delay; a
 *   core's later arrivals are shifted by its own earlier waits; bookings persist across epochs;
 * - the result depends only on the records (not on the order the cores' logs were written or
 *   a core's records are listed), and is bit-identical on a fresh state;
 * - link flits and utilisation (flits x mesh period over the contention window) grow with the
 *   flits on the X-Y route; a link's packets wait the M/D/1 time for that utilisation.
 * On the 'ddr' model (the SCC preset's DDR3-800, dram/ddr.ts):
 * - a record's transactions are at the lines its shape gives (first + floor(i / repeat) x
 *   stride): a stream within one row is one activation and row hits;
 * - two interleaved streams to one bank (different rows) conflict and cost more than the same
 *   streams in two banks; a model check against a reference FCFS DRAM (banks, open rows,
 *   tRCD / tRP / tRAS / tRTP / tWR, first-fit column slots) with one transaction per core.
 */
import { describe, expect, it } from 'vitest';
import { freshState, reusedState } from './testing';
import fc from 'fast-check';
import type { ResolvedChip } from './chip';
import { resolveChip } from './chips/registry';
import { CAL_CAP, computeLayout, CORE_SLOTS, CTRL_SLOTS, LINK_SLOTS, S, TXN_BYTES, TXN_TARGET_MPB, type Layout, type Views } from './layout';
import { DIR_E, DIR_N, DIR_S, DIR_W } from './topology';
import { C, STALL_DRAM, STALL_L2_MISS } from './vocabulary';
import type { DdrTiming } from './dram/ddr';
import { Calendar, CTRL, LINK, Weaver } from './weave';

// the booking machinery on the fixed-service model; the DDR model below
const chip: ResolvedChip = resolveChip('scc', { memory: { poolBytes: 2 * 128 * 1024, dram: { model: 'fixed' } } });
const layout: Layout = computeLayout(chip, { wlogCap: 64, txnCap: 64 });
const SERVICE = chip.dram.model === 'fixed' ? chip.dram.servicePs : NaN;
const Q = 1_000_000; // 1 us quantum

const fixture = (): Views => freshState(layout);
/** One state reused by the property tests, zeroed at each call. */
const cleanFixture = reusedState(layout);
let calState: Views | null = null; // the calendar property test zeroes only what a calendar uses

interface Txn {
  core: number;
  first: number; // arrival of the first transaction at the target, ps
  last?: number; // arrival of the last (count > 1), ps
  target?: number; // controller index, or TXN_TARGET_MPB | tile
  count?: number;
  write?: boolean;
  cause?: number;
  weight?: number; // misses in flight when issued
  flits?: number; // raw flits field (request flits << 16 | response flits)
  line?: number; // line id of the first transaction (DRAM: its bank and row)
  stride?: number; // lines from one line to the next (default 0: all at `line`)
  repeat?: number; // transactions per line before the stride (default 1)
  bytes?: number; // bytes per transaction (default 32)
}

/** Appends a transaction record to its core's log in the layout's format (core.ts txnRecord). */
function addTxn(v: Views, t: Txn): void {
  const lay = v.layout;
  const b = t.core * CORE_SLOTS;
  const r = v.core[b + S.txnCount]!;
  const bytes = t.bytes ?? 32;
  const data = 1 + Math.ceil(bytes / chip.flitBytes);
  const flits = t.flits ?? (t.write ? (data << 16) | 1 : (1 << 16) | data);
  const tile = Math.floor(t.core / chip.topo.coresPerTile);
  const p = (t.core * lay.txnCap * TXN_BYTES + r * TXN_BYTES) >>> 2;
  v.txnF[p >>> 1] = t.first;
  v.txnU[p + 2] = t.target ?? 0;
  v.txnU[p + 3] = (tile | ((t.cause ?? STALL_L2_MISS) << 20) | ((t.weight ?? 1) << 24)) >>> 0;
  v.txnU[p + 4] = flits;
  v.txnU[p + 5] = t.count ?? 1;
  v.txnF[(p >>> 1) + 3] = t.last ?? t.first;
  v.txnU[p + 8] = t.line ?? 0;
  v.txnU[p + 9] = (((t.stride ?? 0) << 16) | ((t.repeat ?? 1) << 8) | bytes) >>> 0;
  v.core[b + S.txnCount] = r + 1;
}

/** Starts a new epoch's logs (the committer zeroes the counts after each commit). */
function resetLogs(v: Views): void {
  for (let core = 0; core < chip.topo.cores; core++) v.core[core * CORE_SLOTS + S.txnCount] = 0;
}

const ctrlSlot = (v: Views, m: number, slot: number) => v.ctrl[m * CTRL_SLOTS + slot]!;
const coreSlot = (v: Views, core: number, slot: number) => v.core[core * CORE_SLOTS + slot]!;
const linkSlot = (v: Views, link: number, slot: number) => v.links[link * LINK_SLOTS + slot]!;

/** Booked intervals of controller m, read from the shared calendar region. */
function intervals(v: Views, m: number): [number, number][] {
  const n = ctrlSlot(v, m, CTRL.calCount);
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) out.push([v.cal[(m * CAL_CAP + i) * 2]!, v.cal[(m * CAL_CAP + i) * 2 + 1]!]);
  return out;
}

describe('Calendar.book', () => {
  it('serves at the arrival on an empty calendar', () => {
    const v = fixture();
    const cal = new Calendar(v);
    expect(cal.count(0)).toBe(0);
    expect(cal.book(0, 5000, 100)).toBe(5000);
    expect(intervals(v, 0)).toEqual([[5000, 5100]]);
    expect(ctrlSlot(v, 0, CTRL.lastFinishPs)).toBe(5100);
    expect(cal.count(1)).toBe(0); // controllers are independent
    expect(cal.book(1, 5050, 100)).toBe(5050);
  });

  it('queues back-to-back arrivals and merges them into one interval', () => {
    const v = fixture();
    const cal = new Calendar(v);
    expect([cal.book(0, 1000, 100), cal.book(0, 1000, 100), cal.book(0, 1000, 100), cal.book(0, 1150, 100)]).toEqual([1000, 1100, 1200, 1300]);
    expect(intervals(v, 0)).toEqual([[1000, 1400]]);
    expect(cal.book(0, 1400, 100)).toBe(1400); // exactly at the end: no wait, merged
    expect(intervals(v, 0)).toEqual([[1000, 1500]]);
    expect(ctrlSlot(v, 0, CTRL.lastFinishPs)).toBe(1500);
  });

  it('serves an earlier arrival booked after a later one earlier (no wait behind the future)', () => {
    const v = fixture();
    const cal = new Calendar(v);
    expect(cal.book(0, 10_000, 100)).toBe(10_000);
    expect(cal.book(0, 1000, 100)).toBe(1000);
    expect(intervals(v, 0)).toEqual([
      [1000, 1100],
      [10_000, 10_100],
    ]);
    expect(cal.book(0, 9950, 100)).toBe(10_100); // does not fit before 10,000: after the booking
    expect(cal.book(0, 9900, 100)).toBe(9900); // fits exactly before it: merged into it
    expect(intervals(v, 0)).toEqual([
      [1000, 1100],
      [9900, 10_200],
    ]);
    expect(ctrlSlot(v, 0, CTRL.lastFinishPs)).toBe(10_200);
  });

  it('fills a gap that fits exactly (merging both neighbours) and skips one that does not', () => {
    const v = fixture();
    const cal = new Calendar(v);
    cal.book(0, 0, 100);
    cal.book(0, 200, 100);
    cal.book(0, 450, 100);
    expect(cal.count(0)).toBe(3);
    expect(cal.book(0, 120, 100)).toBe(300); // [120, 220) overlaps [200, 300): first fit is 300, joining it
    expect(intervals(v, 0)).toEqual([
      [0, 100],
      [200, 400],
      [450, 550],
    ]);
    expect(cal.book(0, 50, 100)).toBe(100); // inside [0, 100): served at its end, joins [200, 400)
    expect(intervals(v, 0)).toEqual([
      [0, 400],
      [450, 550],
    ]);
    expect(cal.book(0, 0, 50)).toBe(400); // the 50 ps gap at 400
    expect(intervals(v, 0)).toEqual([[0, 550]]);
    expect(cal.bookedAfter(0, 500)).toBe(50);
    expect(cal.bookedAfter(0, -1)).toBe(550);
  });

  it('prune drops intervals that ended before the horizon; their time is free again', () => {
    const v = fixture();
    const cal = new Calendar(v);
    cal.book(0, 0, 100);
    cal.book(0, 1000, 100);
    cal.book(0, 5000, 100);
    cal.prune(0, 1100); // [1000, 1100) ends at the horizon: kept
    expect(intervals(v, 0)).toEqual([
      [1000, 1100],
      [5000, 5100],
    ]);
    cal.prune(0, 1101);
    expect(intervals(v, 0)).toEqual([[5000, 5100]]);
    cal.prune(0, 0);
    expect(cal.count(0)).toBe(1);
    expect(cal.book(0, 1050, 100)).toBe(1050); // history forgotten
    cal.prune(0, 1e12);
    expect(cal.count(0)).toBe(0);
  });

  it('keeps at most CAL_CAP intervals, forgetting the oldest', () => {
    const v = fixture();
    const cal = new Calendar(v);
    for (let i = 0; i <= CAL_CAP; i++) cal.book(0, i * 1000, 100);
    expect(cal.count(0)).toBe(CAL_CAP);
    expect(intervals(v, 0)[0]).toEqual([1000, 1100]);
    expect(cal.book(0, 0, 100)).toBe(0); // the forgotten slot is free
    expect(cal.book(0, 1000, 100)).toBe(1100); // a remembered one is not
  });

  it('matches a brute-force first fit and keeps intervals sorted, disjoint and merged (property)', () => {
    const booking = fc.record({ arrival: fc.integer({ min: 0, max: 5000 }), service: fc.integer({ min: 1, max: 300 }) });
    fc.assert(
      fc.property(fc.array(booking, { maxLength: 120 }), (bookings) => {
        calState ??= fixture();
        const v = calState;
        v.cal.fill(0); // a calendar lives in the cal and ctrl regions only
        v.ctrl.fill(0);
        const cal = new Calendar(v);
        const slots: [number, number][] = [];
        const free = (s: number, e: number) => slots.every(([a, b]) => e <= a || s >= b);
        for (const { arrival, service } of bookings) {
          const candidates = [arrival, ...slots.map(([, b]) => b).filter((b) => b >= arrival)].sort((a, b) => a - b);
          const expected = candidates.find((t) => free(t, t + service))!;
          expect(cal.book(0, arrival, service)).toBe(expected);
          slots.push([expected, expected + service]);
        }
        const iv = intervals(v, 0);
        for (let i = 0; i < iv.length; i++) {
          expect(iv[i]![0]).toBeLessThan(iv[i]![1]);
          if (i > 0) expect(iv[i]![0]).toBeGreaterThan(iv[i - 1]![1]); // disjoint and not adjacent (merged)
        }
        expect(cal.bookedAfter(0, -1)).toBe(bookings.reduce((s, b) => s + b.service, 0));
        if (bookings.length > 0) expect(ctrlSlot(v, 0, CTRL.lastFinishPs)).toBe(Math.max(...slots.map(([, b]) => b)));
      }),
      { numRuns: 200 },
    );
  });
});

describe('Weaver.run: controller queueing', () => {
  // cores 0 and 1 sit on tile 0 with controller 0: no links on their route, no network delay
  it('two cores at one controller at the same time: the second waits exactly one service time', () => {
    const v = fixture();
    expect(chip.controllerTile[0]).toBe(0);
    expect(SERVICE).toBe(20_000); // 16 memory cycles at 800 MHz
    addTxn(v, { core: 1, first: 1000 });
    addTxn(v, { core: 0, first: 1000 });
    const delay = Array.from(new Weaver(chip, v).run(0, Q, Q));
    expect(delay[0]).toBe(0);
    expect(delay[1]).toBe(SERVICE); // the tie goes to the lower core id
    expect(delay.slice(2).every((d) => d === 0)).toBe(true);
    expect(coreSlot(v, 1, C.stallL2MissPs)).toBe(SERVICE);
    expect(coreSlot(v, 0, C.stallL2MissPs)).toBe(0);
    expect(coreSlot(v, 1, C.stallNetworkPs)).toBe(0);
    expect(coreSlot(v, 1, C.clockPs)).toBe(0); // the weaver reports delays; the committer moves clocks
    expect(ctrlSlot(v, 0, CTRL.requests)).toBe(2);
    expect(ctrlSlot(v, 0, CTRL.epochRequests)).toBe(2);
    expect(ctrlSlot(v, 0, CTRL.reads)).toBe(2);
    expect(ctrlSlot(v, 0, CTRL.writes)).toBe(0);
    expect(ctrlSlot(v, 0, CTRL.busyPs)).toBe(2 * SERVICE);
    expect(ctrlSlot(v, 0, CTRL.queueDelayPs)).toBe(SERVICE);
    expect(ctrlSlot(v, 0, CTRL.queueMax)).toBe(1);
    expect(ctrlSlot(v, 0, CTRL.queueDepth)).toBe(0);
    expect(ctrlSlot(v, 0, CTRL.lastFinishPs)).toBe(1000 + 2 * SERVICE);
    for (let m = 1; m < chip.controllers; m++) expect(ctrlSlot(v, m, CTRL.requests)).toBe(0);
  });

  it('an earlier arrival is served first whatever its core id; the charge goes to the record cause', () => {
    const v = fixture();
    addTxn(v, { core: 0, first: 1001, cause: STALL_DRAM, write: true });
    addTxn(v, { core: 1, first: 1000 });
    const delay = new Weaver(chip, v).run(0, Q, Q);
    expect(delay[1]).toBe(0);
    expect(delay[0]).toBe(SERVICE - 1);
    expect(coreSlot(v, 0, C.stallDramPs)).toBe(SERVICE - 1);
    expect(coreSlot(v, 0, C.stallL2MissPs)).toBe(0);
    expect(ctrlSlot(v, 0, CTRL.writes)).toBe(1);
    expect(ctrlSlot(v, 0, CTRL.reads)).toBe(1);
  });

  it('a wait is divided by the misses the core had in flight (weight)', () => {
    const v = fixture();
    addTxn(v, { core: 0, first: 0 });
    addTxn(v, { core: 1, first: 0, weight: 2 });
    const delay = new Weaver(chip, v).run(0, Q, Q);
    expect(delay[1]).toBe(SERVICE / 2);
    expect(coreSlot(v, 1, C.stallL2MissPs)).toBe(SERVICE / 2);
    expect(ctrlSlot(v, 0, CTRL.queueDelayPs)).toBe(SERVICE); // the controller saw the whole wait
  });

  it('queues a burst of one record (count) once, and shifts a core’s later arrivals by its own waits', () => {
    const v = fixture();
    // core 0: one arrival at 0; core 1: arrivals at 0 and SERVICE (a coalesced record)
    addTxn(v, { core: 0, first: 0 });
    addTxn(v, { core: 1, first: 0, last: SERVICE, count: 2 });
    const delay = new Weaver(chip, v).run(0, Q, Q);
    // core 1's first waits SERVICE; its second was issued after, so it arrives at 2 x SERVICE
    // and finds the controller free: SERVICE in all, not 2 x SERVICE
    expect(delay[0]).toBe(0);
    expect(delay[1]).toBe(SERVICE);
    expect(ctrlSlot(v, 0, CTRL.requests)).toBe(3);
    expect(intervals(v, 0)).toEqual([[0, 3 * SERVICE]]);
  });

  it('bookings persist across epochs: a run-ahead booking delays only later arrivals; a lagging one still queues', () => {
    const v = fixture();
    const w = new Weaver(chip, v);
    addTxn(v, { core: 0, first: 1_500_000 }); // ran ahead of the epoch [0, 1 us)
    addTxn(v, { core: 0, first: 900_000 });
    expect(Array.from(w.run(0, Q, Q)).every((d) => d === 0)).toBe(true);
    expect(ctrlSlot(v, 0, CTRL.queueDepth)).toBe(1); // still booked after the epoch end
    resetLogs(v);
    addTxn(v, { core: 1, first: 1_200_000 }); // before the future booking: no wait
    addTxn(v, { core: 1, first: 1_510_000 }); // inside it: waits to its end
    addTxn(v, { core: 0, first: 905_000, cause: STALL_DRAM }); // a lagging core, in the past
    const d = w.run(Q, 2 * Q, Q);
    expect(d[1]).toBe(10_000);
    expect(d[0]).toBe(15_000);
    expect(coreSlot(v, 1, C.stallL2MissPs)).toBe(10_000);
    expect(coreSlot(v, 0, C.stallDramPs)).toBe(15_000);
    expect(ctrlSlot(v, 0, CTRL.requests)).toBe(5);
    expect(ctrlSlot(v, 0, CTRL.epochRequests)).toBe(3);
  });

  it('serves 48 simultaneous arrivals in core-id order, each waiting its rank x the service time', () => {
    const v = fixture();
    for (let core = 0; core < 48; core++) addTxn(v, { core, first: 2000, target: 0 });
    new Weaver(chip, v).run(0, Q, Q);
    for (let core = 0; core < 48; core++) expect(coreSlot(v, core, C.stallL2MissPs)).toBe(core * SERVICE);
    expect(ctrlSlot(v, 0, CTRL.queueMax)).toBe(47);
    expect(ctrlSlot(v, 0, CTRL.queueDelayPs)).toBe(((47 * 48) / 2) * SERVICE);
    expect(intervals(v, 0)).toEqual([[2000, 2000 + 48 * SERVICE]]);
  });

  it('is first come, first served over cores: a model check with one arrival per core (property)', () => {
    const arrival = fc.integer({ min: 0, max: 40 }).map((k) => k * 5000); // many ties, some gaps
    fc.assert(
      fc.property(fc.array(fc.option(arrival, { nil: undefined }), { minLength: 48, maxLength: 48 }), (arrivals) => {
        const v = cleanFixture();
        arrivals.forEach((first, core) => first !== undefined && addTxn(v, { core, first, target: 1 }));
        new Weaver(chip, v).run(0, Q, Q);
        const queue = arrivals.flatMap((a, core) => (a === undefined ? [] : [{ a, core }])).sort((x, y) => x.a - y.a || x.core - y.core);
        let free = 0;
        const wait = new Array<number>(48).fill(0);
        for (const { a, core } of queue) {
          const start = Math.max(a, free);
          wait[core] = start - a;
          free = start + SERVICE;
        }
        for (let core = 0; core < 48; core++) expect(coreSlot(v, core, C.stallL2MissPs)).toBe(wait[core]);
        expect(ctrlSlot(v, 1, CTRL.requests)).toBe(queue.length);
      }),
      { numRuns: 100 },
    );
  });

  it('books every transaction of a large burst (more arrivals than its initial buffers)', () => {
    const v = fixture();
    // two streams of 5000, each one transaction every 2 service times: together they fill the controller
    addTxn(v, { core: 0, first: 0, last: 4999 * 2 * SERVICE, count: 5000 });
    addTxn(v, { core: 1, first: 0, last: 4999 * 2 * SERVICE, count: 5000 });
    const delay = new Weaver(chip, v).run(0, 200 * Q, Q);
    expect(ctrlSlot(v, 0, CTRL.requests)).toBe(10_000);
    expect(delay[0]).toBe(0);
    // core 1's first transaction waits SERVICE and shifts the rest of its burst by as much:
    // they then alternate with core 0's without further waits
    expect(delay[1]).toBe(SERVICE);
    expect(intervals(v, 0)).toEqual([[0, 10_000 * SERVICE]]);
  });

  it('MPB transactions load links but never a controller', () => {
    const v = fixture();
    addTxn(v, { core: 0, first: 0, target: TXN_TARGET_MPB | 1, write: true });
    addTxn(v, { core: 2, first: 0, target: TXN_TARGET_MPB | 1, write: true });
    new Weaver(chip, v).run(0, Q, Q);
    for (let m = 0; m < chip.controllers; m++) expect(ctrlSlot(v, m, CTRL.requests)).toBe(0);
    expect(linkSlot(v, 0 * 4 + DIR_E, LINK.flits)).toBe(3); // tile 0 -> 1: core 0's 3 request flits
    expect(linkSlot(v, 1 * 4 + DIR_W, LINK.flits)).toBe(1); // the 1-flit acknowledgement back
  });
});

describe('Weaver.run: determinism', () => {
  const arrivals = (n: number) => fc.uniqueArray(fc.integer({ min: 0, max: 200 }).map((k) => k * 2500), { minLength: 1, maxLength: n });
  // cores 0, 1 (tile 0) use controller 0 and cores 10, 11 (tile 5) controller 1: no links on
  // the way, so every delay is a controller wait; a core's arrivals are distinct (its records
  // reach the controller in one order whatever order its log lists them in)
  const cores = [0, 1, 10, 11];
  const recordSet = fc.tuple(
    ...cores.map((core) =>
      arrivals(6).chain((times) =>
        fc.tuple(
          ...times.map((first) =>
            fc
              .record({ weight: fc.integer({ min: 1, max: 2 }), cause: fc.constantFrom(STALL_L2_MISS, STALL_DRAM), write: fc.boolean() })
              .map((r) => ({ ...r, core, first, target: core < 10 ? 0 : 1 })),
          ),
        ),
      ),
    ),
  );

  function weave(records: Txn[][], coreOrder: number[]): { delay: number[]; core: number[]; ctrl: number[] } {
    const v = cleanFixture();
    for (const i of coreOrder) for (const t of records[i]!) addTxn(v, t);
    const delay = Array.from(new Weaver(chip, v).run(0, Q, Q));
    return { delay, core: Array.from(v.core), ctrl: Array.from(v.ctrl) };
  }

  it('does not depend on the order the cores’ logs were written in, nor on a core’s record order (property)', () => {
    let contended = 0;
    fc.assert(
      fc.property(recordSet, fc.integer({ min: 0, max: 1000 }), (records, seed) => {
        const a = weave(records, [0, 1, 2, 3]);
        // the same records, cores written last-to-first, each core's records in another order
        const shuffled = records.map((list, i) => list.map((t, k) => ({ t, key: (k * 7919 + seed * (i + 3)) % 101 })).sort((x, y) => x.key - y.key).map((x) => x.t));
        const b = weave(shuffled, [3, 2, 1, 0]);
        expect(b.delay).toEqual(a.delay);
        expect(b.ctrl).toEqual(a.ctrl);
        for (const core of cores)
          for (const slot of [C.stallL2MissPs, C.stallDramPs, C.stallNetworkPs]) expect(b.core[core * CORE_SLOTS + slot]).toBe(a.core[core * CORE_SLOTS + slot]);
        // what the cores are charged is what the controllers saw, divided by the weights
        const total = a.delay.reduce((s, d) => s + d, 0);
        const queued = a.ctrl[CTRL.queueDelayPs]! + a.ctrl[CTRL_SLOTS + CTRL.queueDelayPs]!;
        expect(total).toBeLessThanOrEqual(queued);
        expect(total).toBeGreaterThanOrEqual(queued / 2);
        if (total > 0) contended++;
      }),
      { numRuns: 100 },
    );
    expect(contended).toBeGreaterThan(20); // the property saw real queueing
  });

  it('books components apart exactly as one queue over all cores would: a model check with cores that bridge controllers (property)', () => {
    // cores on the tiles of controllers 0..3 (tiles 0, 5, 12, 17); a record goes to its core's
    // own controller or, now and then, to another one, which joins the two into one component
    const home = new Map([
      [0, 0],
      [1, 0],
      [10, 1],
      [11, 1],
      [24, 2],
      [25, 2],
      [34, 3],
    ]);
    const who = [...home.keys()];
    const recordsOf = fc.tuple(
      ...who.map((core) =>
        arrivals(5).chain((times) =>
          fc.tuple(
            ...times.map((first) =>
              fc
                .record({ weight: fc.integer({ min: 1, max: 2 }), cause: fc.constantFrom(STALL_L2_MISS, STALL_DRAM), away: fc.integer({ min: 0, max: 7 }) })
                .map((r) => ({ core, first, weight: r.weight, cause: r.cause, target: r.away < 4 ? r.away : home.get(core)! })),
            ),
          ),
        ),
      ),
    );
    let bridged = 0;
    fc.assert(
      fc.property(recordsOf, (records) => {
        const v = cleanFixture();
        for (const list of records) for (const t of list) addTxn(v, t);
        new Weaver(chip, v).run(0, Q, Q);
        // reference: one queue over every core (key: arrival shifted by the core's waits so far,
        // then core id), each controller a brute-force first fit of SERVICE
        const pending = records.map((list) => [...list].sort((x, y) => x.first - y.first));
        const shift = new Map<number, number>(who.map((c) => [c, 0]));
        const stall = new Map<string, number>();
        const booked: [number, number][][] = [[], [], [], []];
        const queueDelay = [0, 0, 0, 0];
        for (;;) {
          let best = -1;
          for (let i = 0; i < pending.length; i++) {
            const t = pending[i]![0];
            if (!t) continue;
            const b = best < 0 ? undefined : pending[best]![0]!;
            const key = t.first + shift.get(t.core)!;
            if (!b || key < b.first + shift.get(b.core)! || (key === b.first + shift.get(b.core)! && t.core < b.core)) best = i;
          }
          if (best < 0) break;
          const t = pending[best]!.shift()!;
          const a = t.first + shift.get(t.core)!;
          const slots = booked[t.target]!;
          const free = (s: number) => slots.every(([x, y]) => s + SERVICE <= x || s >= y);
          const start = [a, ...slots.map(([, y]) => y).filter((y) => y >= a)].sort((x, y) => x - y).find(free)!;
          slots.push([start, start + SERVICE]);
          const wait = start - a;
          if (wait > 0) {
            queueDelay[t.target]! += wait;
            shift.set(t.core, shift.get(t.core)! + wait / t.weight);
            const key = `${t.core}/${t.cause}`;
            stall.set(key, (stall.get(key) ?? 0) + wait / t.weight);
          }
        }
        for (const core of who)
          for (const [cause, slot] of [
            [STALL_L2_MISS, C.stallL2MissPs],
            [STALL_DRAM, C.stallDramPs],
          ] as const)
            expect(coreSlot(v, core, slot)).toBe(stall.get(`${core}/${cause}`) ?? 0);
        for (let m = 0; m < 4; m++) expect(ctrlSlot(v, m, CTRL.queueDelayPs)).toBe(queueDelay[m]);
        if (records.some((list) => list.some((t) => t.target !== home.get(t.core))) && stall.size > 0) bridged++;
      }),
      { numRuns: 100 },
    );
    expect(bridged).toBeGreaterThan(20); // the property saw bridged components with real queueing
  });

  it('gives bit-identical delays, links and controller state for the same records on a fresh state', () => {
    const records: Txn[][] = [
      [{ core: 0, first: 0, count: 4, last: 30_000 }],
      [{ core: 7, first: 1000, target: 2, weight: 2 }],
      [{ core: 30, first: 1000, target: 3, count: 3, last: 90_000, write: true }],
      [{ core: 46, first: 5000, target: 0, count: 5, last: 60_000 }],
      [{ core: 21, first: 5000, target: TXN_TARGET_MPB | 20 }],
    ];
    const run = (order: number[]) => {
      const v = fixture();
      for (const i of order) for (const t of records[i]!) addTxn(v, t);
      const delay = Array.from(new Weaver(chip, v).run(0, Q, Q));
      return { delay, links: Array.from(v.links), ctrl: Array.from(v.ctrl), core: Array.from(v.core) };
    };
    const a = run([0, 1, 2, 3, 4]);
    const b = run([4, 3, 2, 1, 0]);
    expect(b).toEqual(a);
    expect(a.delay[46]).toBeGreaterThan(0); // links and controller 0 were both contended
    expect(a.core[46 * CORE_SLOTS + C.stallNetworkPs]).toBeGreaterThan(0);
  });
});

describe('Weaver.run: links', () => {
  // core 46 is on tile 23 (5, 3); controller 0 on tile 0 (0, 0). X-Y routes: the request goes
  // west along y = 3 then north along x = 0; the response east along y = 0 then south along x = 5
  const requestLinks = [...[5, 4, 3, 2, 1].map((x) => (18 + x) * 4 + DIR_W), ...[3, 2, 1].map((y) => y * 6 * 4 + DIR_N)];
  const responseLinks = [...[0, 1, 2, 3, 4].map((x) => x * 4 + DIR_E), ...[0, 1, 2].map((y) => (y * 6 + 5) * 4 + DIR_S)];
  const WINDOW = chip.contentionWindowPs;
  const FLIT = chip.meshPeriodPs;

  /** One record of `count` reads from core 46, spaced so that the controller never queues. */
  function reads(count: number, flits?: number): { v: Views; delay: number } {
    const v = fixture();
    addTxn(v, { core: 46, first: 0, last: (count - 1) * 2 * SERVICE, count, flits });
    const delay = new Weaver(chip, v).run(0, Q, Q)[46]!;
    return { v, delay };
  }

  it('adds each transaction’s flits to every link of its route there and back, and nowhere else', () => {
    const { v } = reads(10);
    expect(WINDOW).toBe(10_000_000);
    for (const l of requestLinks) expect(linkSlot(v, l, LINK.flits)).toBe(10); // 1 header flit each
    for (const l of responseLinks) expect(linkSlot(v, l, LINK.flits)).toBe(30); // header + 2 data flits
    const onRoute = new Set([...requestLinks, ...responseLinks]);
    for (let l = 0; l < chip.topo.links; l++) if (!onRoute.has(l)) expect(linkSlot(v, l, LINK.flits)).toBe(0);
  });

  it('utilisation is flits x mesh period over the window, and grows with flits', () => {
    const a = reads(10);
    const b = reads(20);
    for (const l of requestLinks) {
      expect(linkSlot(a.v, l, LINK.utilization)).toBeCloseTo((10 * FLIT) / WINDOW, 15);
      expect(linkSlot(b.v, l, LINK.utilization)).toBeCloseTo((20 * FLIT) / WINDOW, 15);
    }
    for (const l of responseLinks) expect(linkSlot(b.v, l, LINK.utilization)).toBeCloseTo((60 * FLIT) / WINDOW, 15);
    // each packet waits the M/D/1 time of every link it crosses: rho x period / (1 - rho)
    const md1 = (rho: number) => (rho * FLIT) / (1 - rho);
    const expected = (n: number) => n * 8 * (md1((n * FLIT) / WINDOW) + md1((3 * n * FLIT) / WINDOW));
    expect(a.delay).toBeCloseTo(expected(10), 6);
    expect(b.delay).toBeCloseTo(expected(20), 6);
    expect(b.delay).toBeGreaterThan(4 * a.delay); // twice the packets, each waiting more than twice as long
    expect(coreSlot(b.v, 46, C.stallNetworkPs)).toBe(b.delay); // all of it network, no controller wait
    expect(ctrlSlot(b.v, 0, CTRL.queueDelayPs)).toBe(0);
  });

  it('caps utilisation at 0.98', () => {
    const { v } = reads(100, (60000 << 16) | 3);
    for (const l of requestLinks) expect(linkSlot(v, l, LINK.utilization)).toBe(0.98);
  });

  it('is a decaying window: an idle 1 us epoch keeps 90 % of a 10 us window', () => {
    const { v } = reads(10);
    const w = new Weaver(chip, v);
    resetLogs(v);
    w.run(Q, 2 * Q, Q);
    for (const l of responseLinks) {
      expect(linkSlot(v, l, LINK.flits)).toBe(30); // cumulative count unchanged
      expect(linkSlot(v, l, LINK.utilization)).toBeCloseTo((0.9 * 30 * FLIT) / WINDOW, 15);
    }
  });
});

describe('Weaver.run: the DDR model', () => {
  const ddrChip: ResolvedChip = resolveChip('scc', { memory: { poolBytes: 2 * 128 * 1024 } });
  const ddrLayout: Layout = computeLayout(ddrChip, { wlogCap: 64, txnCap: 64 });
  const T = ddrChip.dram as DdrTiming;
  const ROW_LINES = 256; // 8 KB rows of 32 B lines
  const BANKS = 8;
  /** Controller-local line at column `col` of `row` in `bank` (row:bank:column). */
  const lineAt = (bank: number, row: number, col = 0) => (row * BANKS + bank) * ROW_LINES + col;
  const ddrFixture = (): Views => freshState(ddrLayout);
  const ddrClean = reusedState(ddrLayout);

  it('a stream within one row is one activation, then row hits at no extra cost', () => {
    expect(T.model).toBe('ddr');
    const v = ddrFixture();
    // 8 B stores, 4 per line, 64 of them over 16 lines of row 0 of bank 3, one every 20 ns
    addTxn(v, { core: 0, first: 0, last: 63 * 20_000, count: 64, line: lineAt(3, 0), stride: 1, repeat: 4, bytes: 8, write: true, cause: STALL_DRAM });
    const delay = new Weaver(ddrChip, v).run(0, Q, Q);
    expect(delay[0]).toBe(T.tRcdPs); // the first waits for its ACT; the rest are row hits
    expect(coreSlot(v, 0, C.stallDramPs)).toBe(T.tRcdPs);
    expect([ctrlSlot(v, 0, CTRL.rowMisses), ctrlSlot(v, 0, CTRL.rowHits), ctrlSlot(v, 0, CTRL.rowConflicts)]).toEqual([1, 63, 0]);
    expect([ctrlSlot(v, 0, CTRL.writes), ctrlSlot(v, 0, CTRL.reads)]).toEqual([64, 0]);
    expect(ctrlSlot(v, 0, CTRL.busyPs)).toBe(64 * 10_000); // a BC4 in a tCCD slot each
    expect(ctrlSlot(v, 0, CTRL.queueDelayPs)).toBe(T.tRcdPs);
  });

  it('two interleaved streams to one bank cost more than the same streams in two banks', () => {
    const run = (otherBank: number) => {
      const v = ddrFixture();
      // cores 0 and 1 (tile 0, controller 0: no links), 32 line reads each, one every 20 ns
      addTxn(v, { core: 0, first: 0, last: 31 * 20_000, count: 32, line: lineAt(0, 0), stride: 1 });
      addTxn(v, { core: 1, first: 0, last: 31 * 20_000, count: 32, line: lineAt(otherBank, 1), stride: 1 });
      const delay = new Weaver(ddrChip, v).run(0, Q, Q);
      return { total: delay[0]! + delay[1]!, hits: ctrlSlot(v, 0, CTRL.rowHits), misses: ctrlSlot(v, 0, CTRL.rowMisses), conflicts: ctrlSlot(v, 0, CTRL.rowConflicts) };
    };
    const same = run(0);
    const apart = run(1);
    expect(apart).toEqual({ total: apart.total, hits: 62, misses: 2, conflicts: 0 });
    expect(same.conflicts).toBeGreaterThan(50); // the streams take turns in one bank: PRE, ACT each time
    expect(same.total).toBeGreaterThan(10 * apart.total);
    expect(same.total).toBeGreaterThan(50 * (T.tRpPs + T.tRcdPs));
  });

  it('is first come, first served with bank parallelism: a model check against a reference DRAM (property)', () => {
    // the reference: arrivals in (time, core) order; per bank its open row and ready times; a
    // list of booked column slots searched by brute force for the first fit
    const slotPs = 10_000; // DDR3: every transaction up to 64 B takes a tCCD slot
    const reference = (xs: { core: number; a: number; line: number; write: boolean }[]) => {
      const banks = new Map<number, { row: number; colReady: number; preReady: number }>();
      const slots: [number, number][] = [];
      const wait = new Array<number>(48).fill(0);
      const out = { hits: 0, misses: 0, conflicts: 0 };
      for (const x of [...xs].sort((p, q) => p.a - q.a || p.core - q.core)) {
        const bankId = Math.floor(x.line / ROW_LINES) % BANKS;
        const row = Math.floor(x.line / (ROW_LINES * BANKS));
        const b = banks.get(bankId);
        let col: number;
        let act = -1;
        if (b && b.row === row) {
          out.hits++;
          col = Math.max(x.a, b.colReady);
        } else if (!b) {
          out.misses++;
          act = x.a;
          col = act + T.tRcdPs;
        } else {
          out.conflicts++;
          act = Math.max(x.a, b.preReady) + T.tRpPs;
          col = act + T.tRcdPs;
        }
        const free = (s: number) => slots.every(([p, q]) => s + slotPs <= p || s >= q);
        const start = [col, ...slots.map(([, q]) => q).filter((q) => q >= col)].sort((p, q) => p - q).find(free)!;
        slots.push([start, start + slotPs]);
        const nb = b ?? { row, colReady: 0, preReady: 0 };
        if (act >= 0) {
          nb.row = row;
          nb.colReady = act + T.tRcdPs;
          nb.preReady = act + T.tRasPs;
        }
        nb.preReady = Math.max(nb.preReady, x.write ? start + T.cwlPs + 5_000 + T.tWrPs : start + T.tRtpPs);
        banks.set(bankId, nb);
        wait[x.core] = start - x.a;
      }
      return { wait, out };
    };
    const txn = fc.record({
      a: fc.integer({ min: 0, max: 40 }).map((k) => k * 5000),
      bank: fc.integer({ min: 0, max: 2 }),
      row: fc.integer({ min: 0, max: 2 }),
      col: fc.integer({ min: 0, max: 255 }),
      write: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fc.option(txn, { nil: undefined }), { minLength: 48, maxLength: 48 }), (list) => {
        const v = ddrClean();
        const xs = list.flatMap((t, core) => (t === undefined ? [] : [{ core, a: t.a, line: lineAt(t.bank, t.row, t.col), write: t.write }]));
        for (const x of xs) addTxn(v, { core: x.core, first: x.a, target: 1, line: (1 << 28) + x.line, write: x.write, cause: STALL_DRAM });
        new Weaver(ddrChip, v).run(0, Q, Q);
        const ref = reference(xs);
        for (let core = 0; core < 48; core++) expect(coreSlot(v, core, C.stallDramPs)).toBe(ref.wait[core]);
        expect([ctrlSlot(v, 1, CTRL.rowHits), ctrlSlot(v, 1, CTRL.rowMisses), ctrlSlot(v, 1, CTRL.rowConflicts)]).toEqual([ref.out.hits, ref.out.misses, ref.out.conflicts]);
        expect(ctrlSlot(v, 1, CTRL.requests)).toBe(xs.length);
      }),
      { numRuns: 150 },
    );
  });
});
