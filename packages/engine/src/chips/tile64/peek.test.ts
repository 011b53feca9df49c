import { describe, expect, it } from 'vitest';
import { runProgram } from '../../testing';
import { C } from '../../vocabulary';
import type { Tile64Core } from './core';

const PAGE = 65536;

/** Everything a peek must leave alone: clock, counters, caches (tags, LRU, flags, bytes), TLB, logs. */
function state(core: Tile64Core): string {
  const cache = (c: Tile64Core['l1']) => [...c.tags, ...c.lru, ...c.flags, ...c.data].join(',');
  const t = core.tlb as unknown as { misses: number; hits: number; pages: Int32Array; stamps: Float64Array };
  return JSON.stringify({
    now: core.now,
    counters: Object.keys(C).map((k) => core.counter(k as keyof typeof C)),
    l1: cache(core.l1),
    l2: cache(core.l2),
    tlb: [t.misses, t.hits, ...t.pages, ...t.stamps],
    logs: [core.logCount, core.txnCount, core.remoteReads, core.remoteWrites],
  });
}

/**
 * Cores 0 and 9: core 0 stores to a local homed page, a page homed on tile 9 (remote) and a
 * user-managed page (its own copies only); each peek is checked to leave `state` unchanged;
 * then timed loads whose values and times are recorded.
 */
function run(peek: boolean) {
  const seen: Record<string, number> = {};
  const r = runProgram<Tile64Core>({
    preset: 'tile64',
    cores: [0, 9],
    *program(core) {
      const local = core.sharedBase; // homed on tile 0
      const remote = core.sharedBase + 9 * PAGE; // homed on tile 9
      const user = core.sharedBase + 30 * PAGE;
      core.mapRegion(user, PAGE, 'user-managed');
      const look = (name: string, addr: number) => {
        if (!peek) return;
        const before = state(core);
        seen[name] = core.peek32(addr);
        if (state(core) !== before) seen[`${name} changed state`] = 1;
      };
      if (core.id === 0) {
        core.load32(user + 64); // the user-managed line cached here
        core.store32(local + 8, 0x11111111);
        core.store32(remote + 12, 0xdeadbeef);
        core.store32(user + 64, 42); // own copies only: memory still 0
        look('local', local + 8);
        look('remote', remote + 12);
        look('userOwnCopy', user + 64);
        look('never written', local + 4096);
      }
      yield* core.barrier();
      if (core.id === 9) {
        look('remoteAtHome', remote + 12);
        look('userMemoryBeforeFlush', user + 64); // not cached on tile 9: memory
      }
      yield* core.barrier();
      if (core.id === 0) core.flushLine(user + 64);
      core.fence();
      yield* core.barrier();
      if (core.id === 9) {
        look('userMemoryAfterFlush', user + 64);
        const t = core.now;
        seen.load = core.load32(remote + 12);
        seen.loadPs = core.now - t;
      }
      if (core.id === 0) {
        const t = core.now;
        seen.load0 = core.load32(user + 64);
        seen.load0Ps = core.now - t;
      }
    },
  });
  return { seen, digest: r.digest };
}

describe('Tile64Core.peek32 (untimed, not for simulated code)', () => {
  it('returns what a load would (memory with own writes; the own user-managed copy) and changes nothing', () => {
    const plain = run(false);
    const peeked = run(true);
    expect(peeked.seen).toEqual({
      local: 0x11111111,
      remote: 0xdeadbeef,
      userOwnCopy: 42,
      'never written': 0,
      remoteAtHome: 0xdeadbeef,
      userMemoryBeforeFlush: 0,
      userMemoryAfterFlush: 42,
      ...plain.seen,
    });
    // the timed loads after the peeks take the same time and the whole run is the same run
    expect(plain.seen.load).toBe(0xdeadbeef);
    expect(plain.seen.loadPs).toBeGreaterThan(0);
    expect(peeked.digest).toBe(plain.digest);
  });

  it('names an unmapped or unaligned address', () => {
    expect(() =>
      runProgram<Tile64Core>({
        preset: 'tile64',
        cores: [0],
        *program(core) {
          core.peek32(core.sharedBase + 2);
        },
      }),
    ).toThrow(/peek32 at 0x[0-9a-f]+2: not 4-byte aligned/);
    expect(() =>
      runProgram<Tile64Core>({
        preset: 'tile64',
        cores: [0],
        *program(core) {
          core.peek32(0x10000);
        },
      }),
    ).toThrow(/peek32 at 0x10000: the address is not mapped/);
  });
});
