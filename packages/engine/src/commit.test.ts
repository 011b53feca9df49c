/**
 * Contract tests for commit.ts (the commit phase between two epochs), over a state set up as
 * the driver does (Committer.initState) with hand-written write-log entries (layout.ts
 * WLOG_BYTES records, as CoreBase.appendWrite writes them) and scheduler slots (S):
 * - buffered writes of several cores are applied in (visible time, core, sequence) order: the
 *   last writer in that order wins, masked bytes merge in that order (a model check; one
 *   committer over several epochs of ten cores' logs with descents: the merge of runs);
 * - a core blocked on a flag (as CoreBase.waitLine leaves it) is woken at exactly the
 *   releasing write's visible time + its poll cost; at its block time + poll when the
 *   condition already held then; not at all when the condition was undone before it looked;
 *   every core waiting on a line is checked, and only the lines waited on this epoch;
 * - test-and-set requests are granted in the same order and wake the requester one poll later;
 * - an ideal barrier releases every participant at the latest arrival, and only when all
 *   live participants have arrived; the next epoch ends one quantum after the slowest core.
 */
import { describe, expect, it } from 'vitest';
import { zeroState } from './testing';
import fc from 'fast-check';
import type { ResolvedChip } from './chip';
import { resolveChip } from './chips/registry';
import { Committer, type RunSettings } from './commit';
import { allocateBuffers, computeLayout, CORE_SLOTS, CTL, CTLF, makeViews, S, Status, WLOG_BYTES, WLOG_TAS, WLOG_WRITE, type Layout, type Views } from './layout';
import { readCommittedLine, valueAt } from './memory';
import { BlockReason, C, CoreState, dramLineId, LINE_BYTES, LINE_WORDS, mpbLineId, tasLineId, WaitOp } from './vocabulary';

const chip: ResolvedChip = resolveChip('scc', { memory: { poolBytes: 4 * 128 * 1024 } });
const layout: Layout = computeLayout(chip, { wlogCap: 64, txnCap: 64 });
const Q = 1_000_000; // 1 us quantum: the first epoch is [0, 1 us)

interface Fixture {
  v: Views;
  committer: Committer;
}


let reused: Views | null = null;

/**
 * A state initialised as the driver does, for `participants`, with their clocks at the end
 * of the first epoch (runnable cores ran until they passed it). One buffer is reused, zeroed
 * first (the caches are not the committer's business).
 */
function fixture(participants: number[]): Fixture {
  if (!reused) {
    const { state, pool } = allocateBuffers(layout);
    reused = makeViews(layout, state, pool);
  }
  const v = reused;
  zeroState(v);
  const settings: RunSettings = { quantumPs: Q, samplePs: 10 * Q, stopAtPs: Infinity, timeline: [], participants };
  const committer = new Committer(chip, v, settings);
  committer.initState();
  for (const core of participants) v.core[core * CORE_SLOTS + C.clockPs] = Q;
  return { v, committer };
}

const slot = (v: Views, core: number, s: number) => v.core[core * CORE_SLOTS + s]!;

/** Appends a write-log entry to `core`'s log (core.ts appendWrite; kind WLOG_TAS as testAndSet). */
function logEntry(v: Views, core: number, visiblePs: number, lineId: number, mask: number, data: (i: number) => number, kind = WLOG_WRITE): void {
  const b = core * CORE_SLOTS;
  const i = v.core[b + S.logCount]!;
  const at = (core * layout.wlogCap + i) * WLOG_BYTES;
  v.wlogF[at >>> 3] = visiblePs;
  v.wlogU[(at >>> 2) + 2] = lineId;
  v.wlogU[(at >>> 2) + 3] = mask >>> 0;
  v.wlogU[(at >>> 2) + 4] = kind;
  v.wlogU[(at >>> 2) + 5] = i; // sequence: log order
  const bytes = new Uint8Array(v.state, layout.off.wlog + at + 32, LINE_BYTES);
  for (let k = 0; k < LINE_BYTES; k++) bytes[k] = data(k) & 0xff;
  v.core[b + S.logCount] = i + 1;
}

/** A little-endian 32-bit `value` at byte `off` of a line (mask: those 4 bytes). */
function store32(v: Views, core: number, visiblePs: number, lineId: number, off: number, value: number): void {
  logEntry(v, core, visiblePs, lineId, 0xf << off, (k) => (k >= off && k < off + 4 ? value >>> ((k - off) * 8) : 0));
}

function lineBytes(v: Views, lineId: number): number[] {
  const w = new Uint32Array(LINE_WORDS);
  readCommittedLine(v, lineId, w, 0);
  return Array.from(new Uint8Array(w.buffer));
}

function load32(v: Views, lineId: number, off: number): number {
  return valueAt(Uint8Array.from(lineBytes(v, lineId)), off, 4);
}

/** Blocks `core` on a flag as CoreBase.waitLine does: wait record, then blockOn(Flag). */
function blockOnFlag(v: Views, core: number, atPs: number, lineId: number, off: number, size: number, op: WaitOp, value: number, pollPs: number): void {
  const b = core * CORE_SLOTS;
  v.core[b + S.waitLine] = lineId;
  v.core[b + S.waitOffset] = off;
  v.core[b + S.waitSize] = size;
  v.core[b + S.waitOp] = op;
  v.core[b + S.waitValue] = value;
  v.core[b + S.waitReadPs] = pollPs;
  block(v, core, atPs, BlockReason.Flag);
}

/** CoreBase.blockOn: the core's clock stops at `atPs`. */
function block(v: Views, core: number, atPs: number, reason: BlockReason): void {
  const b = core * CORE_SLOTS;
  v.core[b + S.blockedAtPs] = atPs;
  v.core[b + S.wakePs] = NaN;
  v.core[b + C.state] = CoreState.Blocked;
  v.core[b + C.blockedOn] = reason;
  v.core[b + C.clockPs] = atPs;
}

const FLAG = dramLineId(0, 0x80000); // a shared DRAM line
const OTHER = mpbLineId(3, 64);

describe('Committer.commit: write order', () => {
  it('the write visible last wins, whatever its core id', () => {
    const { v, committer } = fixture([0, 1]);
    store32(v, 0, 500_000, FLAG, 0, 0xaaaaaaaa);
    store32(v, 1, 400_000, FLAG, 0, 0xbbbbbbbb);
    expect(committer.commit()).toBe(true);
    expect(load32(v, FLAG, 0)).toBe(0xaaaaaaaa);
    expect(committer.error).toBeNull();
  });

  it('at equal visible times the higher core id is applied last', () => {
    const { v, committer } = fixture([0, 1, 2]);
    store32(v, 2, 600_000, FLAG, 0, 22);
    store32(v, 0, 600_000, FLAG, 0, 0);
    store32(v, 1, 600_000, FLAG, 0, 11);
    committer.commit();
    expect(load32(v, FLAG, 0)).toBe(22);
  });

  it('within a core, time comes first, then the sequence', () => {
    const { v, committer } = fixture([0]);
    store32(v, 0, 700_000, FLAG, 0, 1); // seq 0
    store32(v, 0, 700_000, FLAG, 0, 2); // seq 1, same time: applied after seq 0
    store32(v, 0, 900_000, OTHER, 8, 3); // seq 2, later
    store32(v, 0, 800_000, OTHER, 8, 4); // seq 3, earlier: overwritten by seq 2
    committer.commit();
    expect(load32(v, FLAG, 0)).toBe(2);
    expect(load32(v, OTHER, 8)).toBe(3);
  });

  it('merges masked bytes of several cores in that order, and empties the logs', () => {
    const { v, committer } = fixture([0, 1, 2]);
    logEntry(v, 0, 100_000, FLAG, 0x0f, () => 0x11); // bytes 0..3
    logEntry(v, 1, 200_000, FLAG, 0x3c, () => 0x22); // bytes 2..5
    logEntry(v, 2, 150_000, FLAG, 0x60, () => 0x33); // bytes 5..6, between the two
    committer.commit();
    expect(lineBytes(v, FLAG).slice(0, 8)).toEqual([0x11, 0x11, 0x22, 0x22, 0x22, 0x22, 0x33, 0]);
    for (const core of [0, 1, 2]) expect(slot(v, core, S.logCount)).toBe(0);
  });

  it('orders more entries than its initial sort buffers (48 cores x 30 writes)', () => {
    const cores = Array.from({ length: 48 }, (_, i) => i);
    const { v, committer } = fixture(cores);
    const lines = [FLAG, dramLineId(1, 0x100), mpbLineId(0, 0)];
    const last = new Map<number, { t: number; core: number; seq: number; value: number }>();
    for (const core of cores)
      for (let seq = 0; seq < 30; seq++) {
        const t = ((core * 37 + seq * 11) % 23) * 10_000; // ties across and within cores
        const line = lines[(core + seq) % 3]!;
        const value = core * 1000 + seq;
        store32(v, core, t, line, 12, value);
        const cur = last.get(line);
        if (!cur || t > cur.t || (t === cur.t && (core > cur.core || (core === cur.core && seq > cur.seq)))) last.set(line, { t, core, seq, value });
      }
    expect(committer.commit()).toBe(true);
    for (const line of lines) expect(load32(v, line, 12)).toBe(last.get(line)!.value);
  });

  it('applies writes like a model sorted by (visible time, core, sequence) (property)', () => {
    const lines = [FLAG, dramLineId(2, 0x40), mpbLineId(10, 0)];
    const cores = [0, 1, 5, 47];
    const entry = fc.record({
      core: fc.integer({ min: 0, max: cores.length - 1 }),
      t: fc.integer({ min: 0, max: 6 }).map((k) => k * 100_000), // few distinct times: many ties
      line: fc.integer({ min: 0, max: lines.length - 1 }),
      mask: fc.integer({ min: 0, max: 0xffffffff }),
      fill: fc.integer({ min: 1, max: 255 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
        const { v, committer } = fixture(cores);
        const perCore = new Map<number, number>();
        const logged = entries.map((e) => {
          const core = cores[e.core]!;
          const seq = perCore.get(core) ?? 0;
          perCore.set(core, seq + 1);
          logEntry(v, core, e.t, lines[e.line]!, e.mask, (k) => e.fill + k);
          return { ...e, core, seq };
        });
        expect(committer.commit()).toBe(true);
        const model = lines.map(() => new Array<number>(LINE_BYTES).fill(0));
        logged.sort((a, b) => a.t - b.t || a.core - b.core || a.seq - b.seq);
        for (const e of logged) for (let k = 0; k < LINE_BYTES; k++) if ((e.mask >>> k) & 1) model[e.line]![k] = (e.fill + k) & 0xff;
        lines.forEach((id, i) => expect(lineBytes(v, id)).toEqual(model[i]));
      }),
      { numRuns: 150 },
    );
  });
});

describe('Committer.commit: write order over epochs (the merge of per-core runs)', () => {
  it('one committer over three epochs applies many cores\' writes like the model (seeded property)', () => {
    const lines = [FLAG, dramLineId(1, 0x2000), mpbLineId(4, 96)];
    const cores = [0, 1, 2, 3, 5, 8, 13, 21, 34, 47]; // 10 logs: runs merged in pairs, one run left over
    // per core a run of ascending times with descents (a store visible later than the next one)
    const coreLog = fc.array(
      fc.record({ dt: fc.integer({ min: -3, max: 4 }).map((k) => k * 50_000), line: fc.integer({ min: 0, max: 2 }), word: fc.integer({ min: 0, max: 7 }), full: fc.boolean(), fill: fc.integer({ min: 1, max: 255 }) }),
      { maxLength: 60 },
    );
    const epoch = fc.array(coreLog, { minLength: cores.length, maxLength: cores.length });
    fc.assert(
      fc.property(fc.array(epoch, { minLength: 3, maxLength: 3 }), (epochs) => {
        const { v, committer } = fixture(cores);
        const model = lines.map(() => new Array<number>(LINE_BYTES).fill(0));
        epochs.forEach((logs, e) => {
          const logged: { t: number; core: number; seq: number; line: number; mask: number; fill: number }[] = [];
          logs.forEach((log, ci) => {
            const core = cores[ci]!;
            let t = (e + 1) * Q;
            log.forEach((w, seq) => {
              t = Math.max(e * Q, t + w.dt);
              const mask = w.full ? 0xffffffff : (0xf << (4 * w.word)) >>> 0; // a line or a word store
              logEntry(v, core, t, lines[w.line]!, mask, (k) => w.fill + k + seq);
              logged.push({ t, core, seq, line: w.line, mask, fill: w.fill + seq });
            });
          });
          expect(committer.commit()).toBe(true);
          logged.sort((a, b) => a.t - b.t || a.core - b.core || a.seq - b.seq);
          for (const w of logged) for (let k = 0; k < LINE_BYTES; k++) if ((w.mask >>> k) & 1) model[w.line]![k] = (w.fill + k) & 0xff;
          lines.forEach((id, i) => expect(lineBytes(v, id)).toEqual(model[i]));
          for (const core of cores) expect(slot(v, core, S.logCount)).toBe(0);
        });
      }),
      { seed: 20261125, numRuns: 60 },
    );
  });
});

describe('Committer.commit: flag waiters', () => {
  it('wakes a waiter at exactly the releasing write’s visible time + its poll cost', () => {
    const { v, committer } = fixture([0, 2, 3, 4]);
    blockOnFlag(v, 2, 300_000, FLAG, 4, 4, WaitOp.Eq, 7, 5000);
    blockOnFlag(v, 3, 100_000, FLAG, 4, 4, WaitOp.Gt, 8, 2000);
    blockOnFlag(v, 4, 100_000, OTHER, 0, 4, WaitOp.Ne, 0, 2000); // another line: not released
    store32(v, 0, 400_000, FLAG, 4, 3); // does not satisfy either
    store32(v, 0, 450_000, FLAG, 4, 7); // releases core 2
    store32(v, 0, 480_000, FLAG, 4, 9); // releases core 3
    store32(v, 0, 490_000, FLAG, 0, 1); // same line, other bytes: nothing changes
    expect(committer.commit()).toBe(true);

    expect(slot(v, 2, C.state)).toBe(CoreState.Runnable);
    expect(slot(v, 2, C.clockPs)).toBe(455_000);
    expect(slot(v, 2, S.wakePs)).toBe(455_000);
    expect(slot(v, 2, C.stallWaitPs)).toBe(155_000);
    expect(slot(v, 2, S.tasResult)).toBe(7); // the value waitLine returns

    expect(slot(v, 3, C.clockPs)).toBe(482_000);
    expect(slot(v, 3, C.stallWaitPs)).toBe(382_000);
    expect(slot(v, 3, S.tasResult)).toBe(9);

    expect(slot(v, 4, C.state)).toBe(CoreState.Blocked);
    expect(slot(v, 4, S.wakePs)).toBeNaN();
    expect(slot(v, 4, C.stallWaitPs)).toBe(0);
    expect(slot(v, 4, C.clockPs)).toBe(100_000);
  });

  it('a condition that already held when the core blocked wakes it at its block time + poll', () => {
    const { v, committer } = fixture([0, 2]);
    blockOnFlag(v, 2, 300_000, FLAG, 0, 4, WaitOp.Ge, 5, 5000);
    store32(v, 0, 200_000, FLAG, 0, 5); // visible before the core looked at 300,000
    committer.commit();
    expect(slot(v, 2, C.state)).toBe(CoreState.Runnable);
    expect(slot(v, 2, C.clockPs)).toBe(305_000);
    expect(slot(v, 2, C.stallWaitPs)).toBe(5000);
  });

  it('…even when a later write undoes it after the block time', () => {
    const { v, committer } = fixture([0, 2]);
    blockOnFlag(v, 2, 300_000, FLAG, 0, 4, WaitOp.Eq, 5, 5000);
    store32(v, 0, 200_000, FLAG, 0, 5);
    store32(v, 0, 350_000, FLAG, 0, 6); // too late: the core saw 5 at 300,000
    committer.commit();
    expect(slot(v, 2, C.clockPs)).toBe(305_000);
    expect(slot(v, 2, S.tasResult)).toBe(5);
    expect(load32(v, FLAG, 0)).toBe(6);
  });

  it('…and is not delayed by a later write that satisfies it again', () => {
    const { v, committer } = fixture([0, 2]);
    blockOnFlag(v, 2, 300_000, FLAG, 0, 4, WaitOp.Ge, 5, 5000);
    store32(v, 0, 200_000, FLAG, 0, 5);
    store32(v, 0, 350_000, FLAG, 0, 8);
    committer.commit();
    expect(slot(v, 2, C.clockPs)).toBe(305_000);
    expect(slot(v, 2, S.tasResult)).toBe(5);
  });

  it('a condition undone before the core looked does not wake it', () => {
    const { v, committer } = fixture([0, 2]);
    blockOnFlag(v, 2, 300_000, FLAG, 0, 4, WaitOp.Eq, 5, 5000);
    store32(v, 0, 200_000, FLAG, 0, 5);
    store32(v, 0, 250_000, FLAG, 0, 6); // the core saw 6 at 300,000
    committer.commit();
    expect(slot(v, 2, C.state)).toBe(CoreState.Blocked);
    expect(slot(v, 2, S.wakePs)).toBeNaN();
  });

  it('releases every one of several cores waiting on the same line', () => {
    const { v, committer } = fixture([0, 1, 2, 3, 4, 5]);
    for (const core of [1, 2, 3, 4]) blockOnFlag(v, core, 100_000, FLAG, 8, 4, WaitOp.Ge, 3, core * 1000);
    blockOnFlag(v, 5, 100_000, OTHER, 8, 4, WaitOp.Ge, 3, 5000);
    store32(v, 0, 400_000, FLAG, 8, 3);
    expect(committer.commit()).toBe(true);
    expect([1, 2, 3, 4].map((core) => slot(v, core, C.clockPs))).toEqual([401_000, 402_000, 403_000, 404_000]);
    expect(slot(v, 5, C.state)).toBe(CoreState.Blocked);
  });

  it('rebuilds its waiters by line every epoch: a core that waits on another line is not woken by its old one', () => {
    const { v, committer } = fixture([0, 1, 2, 3]);
    blockOnFlag(v, 1, 100_000, FLAG, 0, 4, WaitOp.Eq, 7, 1000);
    blockOnFlag(v, 2, 100_000, FLAG, 0, 4, WaitOp.Eq, 7, 2000);
    blockOnFlag(v, 3, 100_000, OTHER, 0, 4, WaitOp.Eq, 9, 3000);
    store32(v, 0, 400_000, FLAG, 0, 7);
    expect(committer.commit()).toBe(true);
    expect([1, 2].map((core) => slot(v, core, C.clockPs))).toEqual([401_000, 402_000]);
    expect(slot(v, 3, C.state)).toBe(CoreState.Blocked);
    // next epoch: core 1 now waits on OTHER for 7; FLAG (7 again) is written first, then OTHER
    blockOnFlag(v, 1, 1_100_000, OTHER, 0, 4, WaitOp.Eq, 7, 1000);
    store32(v, 0, 1_200_000, FLAG, 0, 7);
    store32(v, 0, 1_500_000, OTHER, 0, 7);
    store32(v, 0, 1_600_000, OTHER, 0, 9);
    expect(committer.commit()).toBe(true);
    expect(slot(v, 1, C.clockPs)).toBe(1_501_000); // by OTHER, not by its old line FLAG at 1.2 us
    expect(slot(v, 1, S.tasResult)).toBe(7);
    expect(slot(v, 2, C.clockPs)).toBe(402_000); // runnable since the first epoch: untouched
    expect(slot(v, 3, C.clockPs)).toBe(1_603_000);
    expect(slot(v, 3, S.tasResult)).toBe(9);
  });

  it('names the waiting cores when nothing can run', () => {
    const { v, committer } = fixture([2, 3]);
    blockOnFlag(v, 2, 300_000, FLAG, 4, 4, WaitOp.Eq, 1, 5000);
    v.core[3 * CORE_SLOTS + C.state] = CoreState.Finished;
    expect(committer.commit()).toBe(false);
    expect(committer.error).toBe('deadlock: no core can run (core 2 waits on a flag (space 0, line 0x4000, offset 4))');
    expect(v.ctl[CTL.status]).toBe(Status.Error);
  });
});

describe('Committer.commit: test-and-set', () => {
  const REG = 9;

  function testAndSet(v: Views, core: number, atPs: number, oneWayPs: number): void {
    // SccCore.testAndSet: a TAS entry visible one way later; blocked on Lock; poll = one way
    logEntry(v, core, atPs + oneWayPs, tasLineId(REG), 1, () => 0, WLOG_TAS);
    v.core[core * CORE_SLOTS + S.waitReadPs] = oneWayPs;
    block(v, core, atPs, BlockReason.Lock);
  }

  it('grants the register to the earliest request; each requester wakes one way after its request arrived', () => {
    const { v, committer } = fixture([0, 1, 2]);
    testAndSet(v, 1, 110_000, 10_000); // arrives 120,000
    testAndSet(v, 0, 100_000, 10_000); // arrives 110,000: first
    committer.commit();
    expect(v.tas[REG]).toBe(1);
    expect(slot(v, 0, S.tasResult)).toBe(0); // acquired
    expect(slot(v, 1, S.tasResult)).toBe(1);
    expect(slot(v, 0, C.clockPs)).toBe(120_000);
    expect(slot(v, 1, C.clockPs)).toBe(130_000);
    expect(slot(v, 0, C.state)).toBe(CoreState.Runnable);
    expect(slot(v, 1, C.state)).toBe(CoreState.Runnable);
  });

  it('a release between two requests lets the second acquire too, and wakes a lock waiter', () => {
    const { v, committer } = fixture([0, 1, 2, 3]);
    v.tas[REG] = 1; // held by core 2 since an earlier epoch
    blockOnFlag(v, 3, 50_000, tasLineId(REG), 0, 1, WaitOp.Eq, 0, 20_000); // SccCore.lock's wait
    testAndSet(v, 0, 100_000, 10_000); // arrives 110,000: finds it held
    logEntry(v, 2, 115_000, tasLineId(REG), 1, () => 0); // release (a write of 0)
    testAndSet(v, 1, 110_000, 10_000); // arrives 120,000: acquires
    committer.commit();
    expect(slot(v, 0, S.tasResult)).toBe(1);
    expect(slot(v, 1, S.tasResult)).toBe(0);
    expect(v.tas[REG]).toBe(1);
    expect(slot(v, 3, C.state)).toBe(CoreState.Runnable);
    expect(slot(v, 3, C.clockPs)).toBe(135_000); // the release + its poll
  });
});

describe('Committer.commit: ideal barrier', () => {
  it('releases every participant at the latest arrival', () => {
    const { v, committer } = fixture([0, 1, 2]);
    block(v, 0, 100_000, BlockReason.Barrier);
    block(v, 1, 250_000, BlockReason.Barrier);
    block(v, 2, 180_000, BlockReason.Barrier);
    expect(committer.commit()).toBe(true);
    for (const core of [0, 1, 2]) {
      expect(slot(v, core, C.state)).toBe(CoreState.Runnable);
      expect(slot(v, core, C.clockPs)).toBe(250_000);
      expect(slot(v, core, S.wakePs)).toBe(250_000);
    }
    expect([0, 1, 2].map((core) => slot(v, core, C.stallWaitPs))).toEqual([150_000, 0, 70_000]);
    expect(slot(v, 3, C.state)).toBe(CoreState.Idle); // not a participant
    // the next epoch: from this end to one quantum after the slowest runnable core
    expect(v.ctlF[CTLF.epochStartPs]).toBe(Q);
    expect(v.ctlF[CTLF.epochEndPs]).toBe(250_000 + Q);
  });

  it('keeps waiting while a live participant has not arrived', () => {
    const { v, committer } = fixture([0, 1, 2]);
    block(v, 0, 100_000, BlockReason.Barrier);
    block(v, 1, 250_000, BlockReason.Barrier);
    expect(committer.commit()).toBe(true); // core 2 still runs
    expect(slot(v, 0, C.state)).toBe(CoreState.Blocked);
    expect(slot(v, 1, C.state)).toBe(CoreState.Blocked);
    expect(slot(v, 0, S.wakePs)).toBeNaN();
    expect(v.ctlF[CTLF.epochEndPs]).toBe(2 * Q);
    // next epoch: core 2 arrives later than both
    block(v, 2, 1_400_000, BlockReason.Barrier);
    expect(committer.commit()).toBe(true);
    expect([0, 1, 2].map((core) => slot(v, core, C.clockPs))).toEqual([1_400_000, 1_400_000, 1_400_000]);
    expect([0, 1, 2].map((core) => slot(v, core, C.stallWaitPs))).toEqual([1_300_000, 1_150_000, 0]);
  });

  it('fails with a deadlock when a participant finished while the others wait at a barrier', () => {
    const { v, committer } = fixture([0, 1, 2]);
    block(v, 0, 100_000, BlockReason.Barrier);
    block(v, 1, 250_000, BlockReason.Barrier);
    v.core[2 * CORE_SLOTS + C.state] = CoreState.Finished;
    expect(committer.commit()).toBe(false);
    expect(committer.error).toBe('deadlock: 1 core(s) finished while 2 wait at a barrier');
    expect(v.ctl[CTL.status]).toBe(Status.Error);
    expect(slot(v, 0, C.state)).toBe(CoreState.Blocked);
  });
});
