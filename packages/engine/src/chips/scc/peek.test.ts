import { describe, expect, it } from 'vitest';
import { runProgram } from '../../testing';
import { C, type Sim } from '../../vocabulary';
import type { SccCore as Core } from './core';

const SHARED = 0x80000000; // first shared DRAM page (controller 0), cached by default
const PAGE = 1 << 24;

/** Everything a peek must leave alone: clock, counters, caches (tags, LRU, flags, bytes), logs, the write-combine buffer. */
function state(core: Core): string {
  const cache = (c: Core['l1']) => [...c.tags, ...c.lru, ...c.flags, ...c.data].join(',');
  const wcb = core as unknown as { wcbKey: number; wcbMask: number; wcbData: Uint8Array };
  return JSON.stringify({
    now: core.now,
    counters: Object.keys(C).map((k) => core.counter(k as keyof typeof C)),
    l1: cache(core.l1),
    l2: cache(core.l2!),
    logs: [core.logCount, core.txnCount],
    wcb: [wcb.wcbKey, wcb.wcbMask, ...wcb.wcbData],
  });
}

/**
 * Cores 0 and 5: core 0 stores to a cached line it holds (L1 write-through, L2 write-back: the
 * value stays in its L2), an uncached page (memory) and an MPBT page (the write-combine buffer);
 * each peek is checked to leave `state` unchanged; then timed loads.
 */
function run(peek: boolean) {
  const seen: Record<string, number> = {};
  const r = runProgram({
    cores: [0, 5],
    *program(core: Core): Sim {
      const uncached = SHARED + PAGE;
      const mpbt = SHARED + 2 * PAGE;
      core.mapPage(uncached, 'uncached');
      core.mapPage(mpbt, 'mpbt');
      const look = (name: string, addr: number) => {
        if (!peek) return;
        const before = state(core);
        seen[name] = core.peek32(addr);
        if (state(core) !== before) seen[`${name} changed state`] = 1;
      };
      if (core.id === 0) {
        core.load32(SHARED); // cached in L1 and L2
        core.store32(SHARED, 7); // stays dirty in core 0's L2
        core.store32(uncached + 16, 0xcafe0001);
        core.store32(mpbt + 40, 0xbeef0002); // in the write-combine buffer
        look('cachedOwnCopy', SHARED);
        look('uncached', uncached + 16);
        look('mpbtInWcb', mpbt + 40);
        look('neighbourInWcbLine', mpbt + 44);
      }
      yield* core.barrier(); // drains the write-combine buffer, not the L2
      if (core.id === 5) {
        look('cachedMemory', SHARED); // core 0's dirty L2 line is not in memory
        look('uncachedOther', uncached + 16);
        look('mpbtOther', mpbt + 40);
        const t = core.now;
        seen.load = core.load32(mpbt + 40);
        seen.loadPs = core.now - t;
      }
      if (core.id === 0) {
        const t = core.now;
        seen.load0 = core.load32(SHARED);
        seen.load0Ps = core.now - t;
      }
    },
  });
  return { seen, digest: r.digest };
}

describe('SccCore.peek32 (untimed, not for simulated code)', () => {
  it('returns what a load would (own cached copy, memory with own writes, the write-combine buffer) and changes nothing', () => {
    const plain = run(false);
    const peeked = run(true);
    expect(peeked.seen).toEqual({
      cachedOwnCopy: 7,
      uncached: 0xcafe0001,
      mpbtInWcb: 0xbeef0002,
      neighbourInWcbLine: 0,
      cachedMemory: 0,
      uncachedOther: 0xcafe0001,
      mpbtOther: 0xbeef0002,
      ...plain.seen,
    });
    expect(plain.seen).toMatchObject({ load: 0xbeef0002, load0: 7 });
    expect(plain.seen.loadPs).toBeGreaterThan(0);
    expect(peeked.digest).toBe(plain.digest);
  });

  it('names an unaligned or unmapped address', () => {
    expect(() =>
      runProgram({
        cores: [0],
        *program(core: Core): Sim {
          core.peek32(SHARED + 6);
        },
      }),
    ).toThrow(/peek32 at 0x80000006: not 4-byte aligned/);
    expect(() =>
      runProgram({
        cores: [0],
        *program(core: Core): Sim {
          core.peek32(0xfe000000);
        },
      }),
    ).toThrow(/0xfe000000 is not mapped/);
  });
});
