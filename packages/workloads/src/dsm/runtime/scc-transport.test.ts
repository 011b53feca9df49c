/**
 * The SCC transport's contract (scc-transport.ts): datagrams arrive whole and in order per pair
 * through the MPBs, receiveAny takes senders round-robin, a fast sender is held by flow control
 * (one piece in flight per pair, the outgoing area's lines), and bad calls are named.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Simulation, type Row, type SccCore, type Sim, type WorkloadDef, type WorkloadRegistry } from '@manycore/engine';
import { PTE_CHANGE_CYCLES } from '../../metalsvm/costs';
import { IPI_OFFSET, MAILBOX_OFFSET, PIECE_MAX_BYTES, SCC_MAX_DATAGRAM_BYTES, sccTransport, sccTransportProblem, type SccDsmTransport } from './scc-transport';

/** Runs `body` on processors 0..procs-1 of the SCC preset; returns the reported rows. */
function run(procs: number, body: (core: SccCore, t: SccDsmTransport) => Sim<void>): Row[] {
  const w: WorkloadDef<Record<string, never>, SccCore> = {
    name: 'scc-transport-test',
    title: 'SCC transport test',
    description: 'test',
    params: z.strictObject({}),
    participants: () => Array.from({ length: procs }, (_, i) => i),
    *program(core) {
      const t = sccTransport(core, procs);
      yield* body(core, t);
      yield* t.drain();
    },
  };
  const registry: WorkloadRegistry = { [w.name]: w };
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: w.name, params: {} }, seed: 1 }, registry).runInline().workload.rows;
}

/** A datagram whose byte i is (i * 7 + tag) mod 251. */
function pattern(bytes: number, tag: number): Uint8Array {
  const b = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) b[i] = (i * 7 + tag) % 251;
  return b;
}
function matches(got: Uint8Array, bytes: number, tag: number): boolean {
  for (let i = 0; i < bytes; i++) if (got[i] !== (i * 7 + tag) % 251) return false;
  return true;
}

describe('SCC DSM transport', () => {
  it('delivers datagrams whole and in order per pair, a 64 KB one in 2 KB pieces', () => {
    const sizes = [5000, 10, SCC_MAX_DATAGRAM_BYTES, 2048];
    const rows = run(2, function* (core, t) {
      if (core.id === 1) {
        sizes.forEach((n, k) => t.send(0, pattern(n, k), n));
        // only the first piece fits the one mailbox line: the rest wait for acks
        core.report({ sentAtOnce: t.piecesSent });
      } else {
        const out = new Uint8Array(t.maxDatagramBytes);
        for (let k = 0; k < sizes.length; k++) {
          const n = yield* t.receiveAny(out);
          core.report({ k, n, from: t.lastFrom, intact: matches(out, n, k) });
        }
        core.report({ piecesReceived: t.piecesReceived });
      }
    });
    expect(rows.filter((r) => 'k' in r)).toEqual(sizes.map((n, k) => ({ k, n, from: 1, intact: true })));
    expect(rows.find((r) => 'sentAtOnce' in r)).toEqual({ sentAtOnce: 1 });
    const pieces = sizes.reduce((s, n) => s + Math.ceil(n / PIECE_MAX_BYTES), 0);
    expect(pieces).toBe(3 + 1 + 32 + 1);
    expect(rows.find((r) => 'piecesReceived' in r)).toEqual({ piecesReceived: pieces });
  });

  it('receiveAny takes senders round-robin from the one after the last taken', () => {
    const rows = run(4, function* (core, t) {
      const out = new Uint8Array(t.maxDatagramBytes);
      if (core.id === 0) {
        yield* t.receiveAny(out); // core 2's first: the only one there
        core.report({ first: t.lastFrom });
        core.compute(200_000); // all three are there by now
        expect(t.pendingArrivalPs()).toBeLessThanOrEqual(core.now);
        const order: number[] = [];
        for (let k = 0; k < 3; k++) {
          yield* t.receiveAny(out);
          order.push(t.lastFrom, out[0]!);
        }
        core.report({ order: order.join(' '), pendingAfter: t.pendingArrivalPs() });
      } else if (core.id === 2) {
        t.send(0, new Uint8Array([20]), 1);
        t.send(0, new Uint8Array([21]), 1);
      } else {
        // about 94 us later, in the same epoch as core 2's first (one compute call): core 0, woken
        // by core 2's ring, sees these announcements committed, but not yet due at its clock
        core.compute(50_000);
        t.send(0, new Uint8Array([core.id * 10]), 1);
      }
    });
    expect(rows.find((r) => 'first' in r)).toEqual({ first: 2 });
    // the next scan starts at 3: 3, then 1, then 2's second datagram
    expect(rows.find((r) => 'order' in r)).toEqual({ order: '3 30 1 10 2 21', pendingAfter: Infinity });
  });

  it('flow control holds a fast sender until the receiver copies each piece out', () => {
    const rows = run(2, function* (core, t) {
      const out = new Uint8Array(t.maxDatagramBytes);
      if (core.id === 1) {
        for (let k = 0; k < 6; k++) t.send(0, pattern(PIECE_MAX_BYTES, k), PIECE_MAX_BYTES);
        core.report({ announced: t.piecesSent });
        yield* t.drain(); // returns when the last one is announced: after the receiver took five
        core.report({ drainedNs: core.nowNs, announcedAfter: t.piecesSent });
      } else {
        // the mailbox line holds sender 1's first piece, unread while this core sleeps 1 ms
        yield* core.sleep(1_000_000);
        core.invalidateMpbt();
        const seq = core.load32(core.mpbOf(0, MAILBOX_OFFSET + 32 * 1));
        core.report({ mailboxSeqBeforeReceive: seq, startNs: core.nowNs });
        let intact = 0;
        for (let k = 0; k < 6; k++) if (matches(out, yield* t.receiveAny(out), k)) intact++;
        core.report({ intact });
      }
    });
    const get = (k: string) => rows.find((r) => k in r)!;
    expect(get('announced')).toEqual({ announced: 1 });
    expect(get('mailboxSeqBeforeReceive').mailboxSeqBeforeReceive).toBe(1);
    expect(get('drainedNs').announcedAfter).toBe(6);
    expect(get('drainedNs').drainedNs as number).toBeGreaterThan(get('mailboxSeqBeforeReceive').startNs as number);
    expect(get('intact')).toEqual({ intact: 6 });
  });

  it('shares the outgoing area between destinations: pieces that do not fit wait their turn', () => {
    const rows = run(5, function* (core, t) {
      const out = new Uint8Array(t.maxDatagramBytes);
      if (core.id === 0) {
        // 181 lines: two 64-line pieces fit, the third waits; small ones still fit beside them
        for (let d = 1; d <= 3; d++) t.send(d, pattern(PIECE_MAX_BYTES, d), PIECE_MAX_BYTES);
        t.send(4, pattern(100, 4), 100);
        core.report({ announced: t.piecesSent });
      } else {
        const n = yield* t.receiveAny(out);
        core.report({ at: core.id, intact: matches(out, n, core.id), from: t.lastFrom });
      }
    });
    expect(rows.find((r) => 'announced' in r)).toEqual({ announced: 3 });
    expect(rows.filter((r) => 'at' in r).sort((a, b) => (a.at as number) - (b.at as number))).toEqual([1, 2, 3, 4].map((at) => ({ at, intact: true, from: 0 })));
  });

  it('raises the receiver\'s interrupt status byte for the sender, and names bad calls', () => {
    const rows = run(3, function* (core, t) {
      if (core.id === 2) {
        expect(() => t.send(2, new Uint8Array(4), 4)).toThrow(/goes to another processor \(0..2\), got 2/);
        expect(() => t.send(0, new Uint8Array(SCC_MAX_DATAGRAM_BYTES + 1), SCC_MAX_DATAGRAM_BYTES + 1)).toThrow(/carries 1..65507 bytes/);
        t.send(0, new Uint8Array([1]), 1);
      } else if (core.id === 0) {
        yield* core.sleep(20_000);
        const line = new Uint32Array(8);
        core.interruptLines(core.mpbOf(0, IPI_OFFSET), line, 0);
        core.report({ ipiFrom2: line[0]! >>> 16 & 0xff, ipiFrom1: line[0]! >>> 8 & 0xff });
        yield* t.receiveAny(new Uint8Array(t.maxDatagramBytes));
      }
    });
    expect(rows.find((r) => 'ipiFrom2' in r)).toEqual({ ipiFrom2: 1, ipiFrom1: 0 });
    const mesh = { mpbBytes: 16384, topo: { coresPerTile: 2, cores: 1024 } };
    expect(sccTransportProblem(mesh, 65)).toMatch(/at most 64 processors, got 65/);
    expect(sccTransportProblem({ ...mesh, topo: { coresPerTile: 2, cores: 48 } }, 49)).toBe('49 processors, but the chip has 48 cores');
    expect(sccTransportProblem({ ...mesh, mpbBytes: 8192 }, 4)).toMatch(/needs 8192 B of MPB per core; this chip has 4096/);
    expect(sccTransportProblem(mesh, 64)).toBeNull();
  });

  it('offers the object runtime aliased views: a line stored through one view is loaded through another; mprotectRange charges a page-table change per page', () => {
    const rows = run(1, function* (core, t) {
      const bytes = 16 * 4096;
      t.mapAliases!(t.sharedBase, bytes, 3);
      t.protectPages(t.sharedBase, 3 * bytes, 4096, 0, function* () {});
      const c0 = core.now;
      t.mprotectRange!(16, 16, 1);
      t.mprotectRange!(32, 16, 2);
      const cycles = (core.now - c0) / core.period;
      const src = new Uint32Array(16).map((_, i) => 1000 + i);
      t.storeLines(t.sharedBase + 2 * bytes + 4096, 2, src, 0); // the read-write view
      const got = new Uint32Array(16);
      t.loadLines(t.sharedBase + bytes + 4096, 2, got, 0); // the read-only view: same memory
      const level = (v: number) => core.protection.get(core.protection.pageOf(t.sharedBase + v * bytes + 4096));
      core.report({ cycles, same: got.every((w, i) => w === src[i]), levels: [level(0), level(1), level(2)].join(' ') });
      yield* core.barrier();
    });
    expect(rows[0]).toEqual({ cycles: 32 * PTE_CHANGE_CYCLES, same: true, levels: '0 1 2' });
  });
});
