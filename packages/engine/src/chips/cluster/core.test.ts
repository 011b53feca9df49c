import { describe, expect, it } from 'vitest';
import { runProgram } from '../../testing';
import { periodPsFromMHz } from '../../units';
import { PROT_NONE, PROT_READ, PROT_READ_WRITE } from '../../page-protection';
import type { Sim } from '../../vocabulary';
import { resolveChip } from '../registry';
import type { ClusterCore } from './core';
import type { ClusterChip } from './resolve';

describe('cluster-1999 preset', () => {
  it("has paper 004's platform: 32 nodes at 300 MHz, 512 KB L2, 100 Mbps links; one power domain per node", () => {
    const chip = resolveChip('cluster-1999') as ClusterChip;
    expect(chip.family).toBe('cluster');
    expect(chip.topo).toMatchObject({ cores: 32, coresPerTile: 1 });
    expect(chip.baseMHz).toBe(300);
    expect(chip.config.caches.l2.sizeBytes).toBe(524288);
    expect(chip.bytePs).toBe(80_000); // one byte at 100 Mbit/s: 80 ns
    expect(chip.islands).toBe(32);
    expect(chip.config.islands.tiles[31]).toEqual([31]);
  });

  it('rejects bad configs naming the component', () => {
    expect(() => resolveChip('cluster-1999', { network: { linkMbps: 0 } })).toThrow(/chip\.network\.linkMbps/);
    expect(() => resolveChip('cluster-1999', { network: { mtu: 9000 } })).toThrow(/chip\.network: unknown field: mtu/);
    expect(() => resolveChip('cluster-1999', { caches: { l2: { ways: 3 } } })).toThrow(/cache l2: sizeBytes \/ \(ways x lineBytes\) must be a power of two/);
    expect(() => resolveChip('cluster-1999', { memory: { privateBytes: 1 << 30 } })).toThrow(/exceed the 8 GB/);
  });
});

/** Node 0 sends `bytes` to node 1 at time 0; node 1 records when the payload is in its buffer and what it got. */
function oneWay(bytes: number, chip: Record<string, unknown> = {}) {
  const got = { atPs: 0, bytes: 0, first: -1, last: -1, sendCpuPs: 0 };
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    chip,
    cores: [0, 1],
    *program(core) {
      const buf = new Uint8Array(bytes);
      if (core.id === 0) {
        for (let i = 0; i < bytes; i++) buf[i] = (i * 7 + 3) & 0xff;
        const t = core.now;
        core.send(1, buf);
        got.sendCpuPs = core.now - t;
      } else {
        got.bytes = yield* core.receive(0, buf);
        got.atPs = core.now;
        got.first = buf[0]!;
        got.last = buf[bytes - 1]!;
      }
    },
  });
  return got;
}

describe('cluster messages', () => {
  const cyclePs = periodPsFromMHz(300); // 3,333 ps: the engine's whole-ps period
  it('a 1-byte datagram: send CPU, a 64 B minimum frame + 20 B of preamble and gap on both links, the switch, receive CPU with wake-up', () => {
    const g = oneWay(1);
    expect(g.bytes).toBe(1);
    expect(g.first).toBe(3);
    expect(g.sendCpuPs).toBeCloseTo((9310 + 1) * cyclePs, 0);
    const wirePs = 84 * 80_000; // max(18 + 28 + 1, 64) + 20 byte times
    const expected = (9310 + 1) * cyclePs + 2 * wirePs + 2_000_000 + (7714 + 1596 + 1) * cyclePs;
    expect(g.atPs).toBeCloseTo(expected, -1);
  });

  it('a 1,472-byte datagram carries its data and pays its frame time and per-byte CPU on both sides', () => {
    const g = oneWay(1472);
    expect(g.bytes).toBe(1472);
    expect([g.first, g.last]).toEqual([3, (1471 * 7 + 3) & 0xff]);
    const wirePs = (18 + 28 + 1472 + 20) * 80_000;
    const expected = (9310 + 1472) * cyclePs + 2 * wirePs + 2_000_000 + (7714 + 1596 + 1472) * cyclePs;
    expect(g.atPs).toBeCloseTo(expected, -1);
  });

  it("back-to-back frames queue on the sender's link; the receiver's link serialises frames from two senders", () => {
    const at: number[] = [];
    runProgram<ClusterCore>({
      preset: 'cluster-1999',
      chip: { network: { sendOverheadCycles: 0, sendPerByteCycles: 0 } },
      cores: [0, 1, 2],
      *program(core) {
        const buf = new Uint8Array(1472);
        if (core.id === 0) {
          core.send(1, buf);
          core.send(1, buf);
        } else if (core.id === 2) core.send(1, buf);
        else {
          yield* core.receive(0);
          at.push(core.downlinkFreePs);
          yield* core.receive(0);
          at.push(core.downlinkFreePs);
          yield* core.receive(2);
          at.push(core.downlinkFreePs);
        }
      },
    });
    const frame = 1538 * 80_000;
    expect(at[0]).toBeCloseTo(2 * frame + 2_000_000, -1);
    expect(at[1]).toBeCloseTo(3 * frame + 2_000_000, -1); // the second frame left 1 frame later: it follows the first on the link
    expect(at[2]).toBeCloseTo(4 * frame + 2_000_000, -1); // node 2's frame reached the switch with the first, waits for both
  });

  it('refuses what a cluster cannot do, naming it', () => {
    const run = (program: (core: ClusterCore) => Sim<void>, cores = [0, 1]) => () => runProgram<ClusterCore>({ preset: 'cluster-1999', cores, program });
    expect(run(function* (core) {
      core.load32(core.privateBase + core.privateBytes);
    })).toThrow(/node \d: address 0x14000000 is outside its private memory .* a cluster has no shared memory/);
    expect(run(function* (core) {
      core.send(core.id, new Uint8Array(1));
    })).toThrow(/node \d: sends to itself/);
    expect(run(function* (core) {
      core.send(1 - core.id, new Uint8Array(70000));
    })).toThrow(/a message carries 1\.\.65507 bytes \(network\.maxDatagramBytes\) from its payload of 70000, got 70000/);
    expect(run(function* (core) {
      if (core.id === 0) for (let i = 0; i < 9; i++) core.send(1, new Uint8Array(1));
      else yield* core.receive(0);
    })).toThrow(/node 1: node 0 sent message 9 before this node received message 1: more than network\.slotsPerPair \(8\)/);
  });

  it('sendReady: a sender waits while the receiver holds slotsPerPair of its datagrams, and may send more than a write log of lines in one step', () => {
    // 20 datagrams of 65,507 B = 20 x 2,050 log entries (> 16,384) from one program step, to a
    // receiver that sleeps 10 ms first: without sendReady the log overflows and datagram 9
    // overwrites datagram 1 (the previous test)
    const got: number[] = [];
    const r = { waits: -1, senderDonePs: 0, receiverStartPs: 0, tookNinthFirstPs: 0 };
    runProgram<ClusterCore>({
      preset: 'cluster-1999',
      cores: [0, 1],
      *program(core) {
        const buf = new Uint8Array(65507);
        if (core.id === 0) {
          for (let k = 0; k < 20; k++) {
            yield* core.sendReady(1, buf.length);
            buf[0] = k;
            buf[65506] = 100 + k;
            core.send(1, buf);
          }
          r.waits = core.sendWaits;
          r.senderDonePs = core.now;
        } else {
          core.compute(3_000_000); // 10 ms at 300 MHz
          r.receiverStartPs = core.now;
          for (let k = 0; k < 20; k++) {
            yield* core.receive(0, buf);
            got.push(buf[0]! * 1000 + buf[65506]!);
          }
        }
      },
    });
    expect(got).toEqual(Array.from({ length: 20 }, (_, k) => k * 1000 + 100 + k)); // every datagram intact, in order
    // datagram 9 waits for the receiver (asleep until 10 ms) to take datagram 1, datagram 10 for
    // datagram 2 (arriving at about 11 ms); from then on the receiver, whose later datagrams are
    // all in its slots, takes them as they arrive and its counter runs ahead of the sender
    expect(r.waits).toBe(2);
    expect(r.senderDonePs).toBeGreaterThan(r.receiverStartPs); // the last sends came after the receiver woke
  });

  it('private memory keeps its data; caches hit the second time', () => {
    const seen: number[] = [];
    runProgram<ClusterCore>({
      preset: 'cluster-1999',
      cores: [0, 1],
      *program(core) {
        core.store32(core.privateBase + 64, 1000 + core.id);
        const t = core.now;
        seen.push(core.load32(core.privateBase + 64), Math.round((core.now - t) / periodPsFromMHz(300)));
      },
    });
    expect(seen).toEqual([1000, 3, 1001, 3]);
  });
});

describe('cluster datagrams of several frames, receive from any node, SIGIO polling', () => {
  const bytePs = 80_000;
  it('a 4 KB datagram is three frames back to back: the switch forwards the first when it is whole', () => {
    const g = oneWay(4096);
    expect(g.bytes).toBe(4096);
    expect(g.last).toBe((4095 * 7 + 3) & 0xff);
    // frames: 1472 + 1472 + 1152 payload bytes, each + 18 (Ethernet) + 28 (IP, UDP) + 20 (preamble, gap)
    const wire = 2 * (1472 + 66) + (1152 + 66);
    expect(wire).toBe(4294);
    const sendPs = g.sendCpuPs;
    // delivered = send CPU + first frame + switch + every frame on the receiver's link; then receive CPU
    const deliveredPs = sendPs + 1538 * bytePs + 2_000_000 + wire * bytePs;
    const receivePs = (7714 + 1596 + 4096) * periodPsFromMHz(300);
    expect(g.atPs).toBeCloseTo(deliveredPs + receivePs, -1);
  });

  it('receiveAny takes datagrams in the order their first frames left the switch, naming the sender', () => {
    const order: number[] = [];
    const sizes: number[] = [];
    runProgram<ClusterCore>({
      preset: 'cluster-1999',
      cores: [0, 1, 2, 3],
      *program(core) {
        if (core.id === 0) {
          const buf = new Uint8Array(3000);
          for (let i = 0; i < 3; i++) {
            sizes.push(yield* core.receiveAny(buf));
            order.push(core.lastFrom);
          }
        } else {
          // node 3 sends first, node 1 a large datagram 10 us later, node 2 a small one 20 us later
          yield* core.sleep(core.id === 3 ? 0 : core.id === 1 ? 10_000 : 20_000);
          core.send(0, new Uint8Array(core.id === 1 ? 3000 : 10));
        }
      },
    });
    // node 2's one small frame leaves the switch (about 60 us) before node 1's first full one (about 166 us)
    expect(order).toEqual([3, 2, 1]);
    expect(sizes).toEqual([10, 10, 3000]);
  });

  it('pendingArrivalPs is Infinity with nothing waiting and the arrival time once a datagram is there', () => {
    const seen: number[] = [];
    runProgram<ClusterCore>({
      preset: 'cluster-1999',
      cores: [0, 1],
      *program(core) {
        if (core.id === 1) core.send(0, new Uint8Array(1));
        else {
          seen.push(core.pendingArrivalPs());
          yield* core.sleep(500_000);
          const at = core.pendingArrivalPs();
          seen.push(at);
          core.interrupt();
          yield* core.receiveAny();
          seen.push(core.now - at);
          seen.push(core.pendingArrivalPs());
        }
      },
    });
    expect(seen[0]).toBe(Infinity);
    expect(seen[1]).toBeGreaterThan(0);
    expect(seen[1]).toBeLessThan(500_000_000);
    expect(seen[2]).toBeGreaterThan(0); // the interrupt and the receive's CPU time
    expect(seen[3]).toBe(Infinity);
  });
});

describe('cluster page protection', () => {
  it('faults are counted and charged; mprotect costs its cycles; an unprotected access is an error naming the page', () => {
    const log: Array<string | number> = [];
    const period = periodPsFromMHz(300);
    const res = runProgram<ClusterCore>({
      preset: 'cluster-1999',
      cores: [0],
      *program(core) {
        const base = core.privateBase + 65536;
        core.protectPages(base, 8 * 4096, 4096, PROT_NONE, function* (addr, write) {
          log.push(`${write ? 'w' : 'r'}${Math.floor((addr - base) / 4096)}`);
          core.mprotect(Math.floor((addr - base) / 4096), write ? PROT_READ_WRITE : PROT_READ);
        });
        core.store32(core.privateBase, 1); // outside the range: not checked
        let t = core.now;
        yield* core.touch(base + 4096 + 100, 8, false); // page 1: one read fault
        log.push(Math.round((core.now - t) / period));
        t = core.now;
        yield* core.touch(base + 4096, 4096 * 2, true); // pages 1 and 2: two write faults
        log.push(Math.round((core.now - t) / period));
        core.storeF64(base + 4096, 2.5);
        log.push(core.loadF64(base + 4096));
        yield* core.touch(base + 4096, 8, true); // allowed: free
        try {
          core.load32(base);
        } catch (e) {
          log.push((e as Error).message);
        }
      },
    });
    expect(log.slice(0, 6)).toEqual(['r1', 6000 + 3000, 'w1', 'w2', 2 * (6000 + 3000), 2.5]);
    expect(log[6]).toBe('core 0: load from 0x10010000 on invalid page 0: take the fault first (yield* core.touch(addr, bytes, false))');
    expect(res.simulated.cores[0]).toMatchObject({ readFaults: 1, writeFaults: 2 });
  });
});

describe('cluster aliased views', () => {
  it('three views of one range share memory and cache lines; each keeps its own protection', () => {
    const got: Array<number | string> = [];
    const period = periodPsFromMHz(300);
    runProgram<ClusterCore>({
      preset: 'cluster-1999',
      cores: [0],
      *program(core) {
        const base = core.privateBase + 1024 * 1024;
        const bytes = 4 * 4096;
        core.mapAliases(base, bytes, 3);
        core.protectPages(base, 3 * bytes, 4096, PROT_NONE, function* () {
          got.push('fault');
        });
        core.mprotectRange(4, 4, PROT_READ);
        core.mprotectRange(8, 4, PROT_READ_WRITE);
        core.storeF64(base + 2 * bytes + 8, 7.25); // the read-write view
        const t = core.now;
        got.push(core.loadF64(base + bytes + 8)); // the read-only view: same memory, an L1 hit
        got.push(Math.round((core.now - t) / period));
        try {
          core.storeF64(base + bytes + 8, 1);
        } catch (e) {
          got.push((e as Error).message);
        }
      },
    });
    expect(got).toEqual([7.25, 3, 'core 0: store to 0x10104008 on read-only page 4: take the fault first (yield* core.touch(addr, bytes, true))']);
  });
});

describe('host pool of exactly 4 GiB (regression)', () => {
  it('a datagram still arrives: the pool of 2^32 bytes keeps what is written (layout poolWords; it deadlocked at start)', () => {
    const g = oneWay(1, { memory: { poolBytes: 2 ** 32 } });
    expect([g.bytes, g.first]).toEqual([1, 3]);
    expect(g.atPs).toBe(oneWay(1).atPs); // host capacity, not a simulated cost
  });
});
