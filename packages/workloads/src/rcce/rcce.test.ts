import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Simulation, type SccCore, type Row, type Sim, type WorkloadDef, type WorkloadRegistry } from '@manycore/engine';
import { checkPattern, fillPattern, touch } from '../lib/mem';
import { FLAG_READY, FLAG_SENT, RCCE_CHUNK_BYTES, RCCE_FLAG_OFFSET, Rcce } from './index';

/** Runs `body` on `cores` as a one-off workload; returns the reported rows. */
function run(cores: number[], body: (core: SccCore, rcce: Rcce) => Sim<void>): Row[] {
  const w: WorkloadDef<Record<string, never>, SccCore> = {
    name: 'rcce-test',
    title: 'RCCE test',
    description: 'test',
    params: z.strictObject({}),
    participants: () => cores,
    *program(core, _p, ctx) {
      yield* body(core, new Rcce(core, ctx.participants));
    },
  };
  const registry: WorkloadRegistry = { [w.name]: w };
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: w.name, params: {} } }, registry).runInline().workload.rows;
}

const MB = 1 << 20;

describe('RCCE', () => {
  it('puts the sent flag in the receiver\'s MPB, the data in the sender\'s own MPB, and the ready flag in the sender\'s MPB', () => {
    const rows = run([0, 4], function* (core, rcce) {
      const buf = core.privateBase + MB;
      if (core.id === 0) {
        yield* fillPattern(core, buf, 100, 9);
        yield* rcce.send(buf, 100, 4);
        // the receiver set "ready" bit 4 in OUR flag line; we cleared it on the way out
        core.report({ what: 'sender done', readyNow: rcce.flag(FLAG_READY, 4) });
      } else {
        // wait for "sent" bit 0 in OUR flag line (the sender wrote it here) without taking the chunk
        yield* rcce.waitFlags(FLAG_SENT, [0]);
        core.invalidateMpbt();
        const line = core.mpbOf(4, RCCE_FLAG_OFFSET);
        const sentByte = core.load8(line + FLAG_SENT);
        // the data is in the SENDER's communication buffer (core 0's MPB half), not in ours
        const inSender = core.load8(core.mpbOf(0, 0));
        const inMine = core.load8(core.mpbOf(4, 0));
        const peeked = yield* rcce.peek(buf, 100, 0);
        const peekBad = yield* checkPattern(core, buf, 100, 9);
        yield* rcce.recv(buf + 4096, 100, 0);
        const bad = yield* checkPattern(core, buf + 4096, 100, 9);
        core.report({ what: 'receiver', sentByte, inSender, inMine, peeked, peekBad, bad, sentAfter: rcce.flag(FLAG_SENT, 0) });
      }
    });
    const recv = rows.find((r) => r.what === 'receiver')!;
    expect(recv.sentByte).toBe(1); // bit 0 = core 0
    expect(recv.inSender).not.toBe(0);
    expect(recv.inMine).toBe(0);
    expect(recv.peeked).toBe(true);
    expect(recv.peekBad).toBe(-1);
    expect(recv.bad).toBe(-1);
    expect(recv.sentAfter).toBe(false);
    expect(rows.find((r) => r.what === 'sender done')!.readyNow).toBe(false);
  });

  it('moves messages in 8160 B chunks: one more byte costs another chunk and another round of flags', () => {
    const sizes = [RCCE_CHUNK_BYTES, RCCE_CHUNK_BYTES, RCCE_CHUNK_BYTES + 1, 2 * RCCE_CHUNK_BYTES, 20000]; // first: warm-up
    const rows = run([0, 2], function* (core, rcce) {
      const buf = core.privateBase + MB;
      yield* touch(core, buf, 20000);
      for (const [i, n] of sizes.entries()) {
        if (core.id === 0) yield* fillPattern(core, buf, n, i);
        yield* core.barrier();
        const t0 = core.now;
        const c0 = rcce.stats.chunksReceived;
        if (core.id === 0) yield* rcce.send(buf, n, 2);
        else {
          yield* rcce.recv(buf, n, 0);
          core.report({ n, chunks: rcce.stats.chunksReceived - c0, ns: (core.now - t0) / 1000, bad: yield* checkPattern(core, buf, n, i) });
        }
      }
    });
    expect(rows.map((r) => r.chunks)).toEqual([1, 1, 2, 2, 3]);
    for (const r of rows) expect(r.bad).toBe(-1);
    // the second chunk of 8161 B costs a full flag round trip on top of one byte
    expect((rows[2]!.ns as number) - (rows[1]!.ns as number)).toBeGreaterThan(500);
  });

  it('iRCCE: a ring of isend/irecv with waitAll completes in both directions at once', () => {
    const ring = [0, 5, 17, 30];
    const rows = run(ring, function* (core, rcce) {
      const me = rcce.rank;
      const n = ring.length;
      const right = ring[(me + 1) % n]!;
      const left = ring[(me - 1 + n) % n]!;
      const sbuf = core.privateBase + MB;
      const rbuf = core.privateBase + 2 * MB;
      yield* fillPattern(core, sbuf, 12000, core.id);
      const r = rcce.irecv(rbuf, 12000, left);
      const s = yield* rcce.isend(sbuf, 12000, right);
      const doneEarly = yield* rcce.test(r);
      yield* rcce.waitAll([s, r]);
      core.report({ core: core.id, doneEarly, bad: yield* checkPattern(core, rbuf, 12000, left), sDone: s.done });
    });
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      expect(r.bad).toBe(-1);
      expect(r.sDone).toBe(true);
    }
  });

  it('barrier: nobody leaves before the last core arrives', () => {
    const cores = [0, 1, 7, 20, 33, 47];
    const rows = run(cores, function* (core, rcce) {
      yield* core.sleep(1000 * (rcce.rank + 1)); // arrive at 1, 2, ... 6 us
      const arrived = core.now;
      yield* rcce.barrier();
      yield* rcce.barrier(); // reusable
      core.report({ arrived: arrived / 1000, left: core.now / 1000 });
    });
    const lastArrival = Math.max(...rows.map((r) => r.arrived as number));
    for (const r of rows) expect(r.left as number).toBeGreaterThan(lastArrival);
  });

  it('locks on the test-and-set registers make read-modify-writes of the MPB atomic', () => {
    const cores = [0, 3, 12, 40];
    const rows = run(cores, function* (core, rcce) {
      const counter = core.mpbOf(0, 4096);
      for (let i = 0; i < 10; i++) {
        yield* rcce.acquireLock(0);
        core.invalidateMpbt();
        core.store32(counter, core.load32(counter) + 1);
        rcce.releaseLock(0);
      }
      yield* rcce.barrier();
      core.invalidateMpbt();
      core.report({ total: core.load32(counter) });
    });
    for (const r of rows) expect(r.total).toBe(40);
  });

  it('logs messages as RCCE_put / RCCE_get calls (5 per chunk on each side), not polls: a receiver that waits long polls more but logs the same', () => {
    const logged = (delayCycles: number) =>
      run([0, 6], function* (core, rcce) {
        const buf = core.privateBase + MB;
        const m0 = core.counter('loggedMessages');
        const i0 = core.counter('instructions');
        if (core.id === 0) {
          core.compute(delayCycles, 0); // the receiver waits this long for the message
          yield* rcce.send(buf, 100, 6);
        } else yield* rcce.recv(buf, 100, 0);
        core.report({ core: core.id, msgs: core.counter('loggedMessages') - m0, instr: core.counter('instructions') - i0 });
      });
    const soon = logged(0);
    const late = logged(100_000);
    for (const rows of [soon, late]) for (const r of rows) expect(r.msgs).toBe(5); // put + flag write (get, put) + flag write (get, put)
    const recvInstr = (rows: Row[]) => rows.find((r) => r.core === 6)!.instr as number;
    expect(recvInstr(late)).toBeGreaterThan(recvInstr(soon) + 10_000); // the wait's poll loop
  });
});
