import { describe, expect, it } from 'vitest';
import { runProgram } from '../../testing';
import { periodPsFromMHz } from '../../units';
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
      core.send(1 - core.id, new Uint8Array(2000));
    })).toThrow(/a message carries 1\.\.1472 bytes \(network\.maxPayloadBytes\) from its payload of 2000, got 2000/);
    expect(run(function* (core) {
      if (core.id === 0) for (let i = 0; i < 9; i++) core.send(1, new Uint8Array(1));
      else yield* core.receive(0);
    })).toThrow(/node 1: node 0 sent message 9 before this node received message 1: more than network\.slotsPerPair \(8\)/);
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
