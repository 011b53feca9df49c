import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runProgram } from '../../testing';
import { DUE } from '../../core';
import { PROT_NONE, PROT_READ, PROT_READ_WRITE } from '../../page-protection';
import type { SccCore as Core } from './core';
import type { Sim } from '../../vocabulary';

const SHARED = 0x80000000; // first shared DRAM page (controller 0)

describe('non-coherent caches', () => {
  it('a reader sees its stale cached copy until it flushes; the writer must write back', () => {
    const seen: Record<string, number> = {};
    runProgram({
      cores: [0, 5],
      *program(core: Core): Sim {
        core.load32(SHARED);
        yield* core.barrier();
        if (core.id === 0) core.store32(SHARED, 7); // L1 write-through, L2 write-back: stays dirty in core 0's L2
        yield* core.barrier();
        if (core.id === 5) seen.beforeFlush = core.load32(SHARED);
        if (core.id === 0) core.flush();
        yield* core.barrier();
        if (core.id === 5) {
          seen.staleStill = core.load32(SHARED);
          core.flush();
          seen.afterFlush = core.load32(SHARED);
        }
      },
    });
    expect(seen).toEqual({ beforeFlush: 0, staleStill: 0, afterFlush: 7 });
  });

  it('a store that misses does not allocate: it goes to memory and the next load misses', () => {
    const stats: number[] = [];
    const r = runProgram({
      cores: [0],
      *program(core) {
        core.store32(SHARED + 64, 1);
        stats.push(core.load32(SHARED + 64));
      },
    });
    expect(stats).toEqual([1]); // the core reads its own write back
    expect(r.simulated.cores[0]!.dramWrites).toBe(1);
    expect(r.simulated.cores[0]!.l1Misses).toBe(2);
    expect(r.simulated.cores[0]!.dramReads).toBe(1);
  });

  it('stores that miss go to memory one transaction per store; a line loaded first takes them and goes back whole', () => {
    const line = new Uint8Array(32).fill(5);
    const r = runProgram({
      cores: [0, 2],
      *program(core) {
        const base = SHARED + core.id * 4096;
        // 4 lines written as 32-bit stores: core 0 into uncached-in-cache lines, core 2 after
        // loading one word of each line (software allocate-on-write), then flushing
        for (let i = 0; i < 4; i++) {
          if (core.id === 2) core.load32(base + i * 32);
          core.writeRange(base + i * 32, 32, line);
        }
        if (core.id === 2) core.flush();
        core.fence();
      },
    });
    const [c0, c2] = [r.simulated.cores[0]!, r.simulated.cores[2]!];
    expect(c0.stores).toBe(32);
    expect(c0.dramWrites).toBe(32); // no write-allocate: every 4 B store is a transaction
    expect(c0.dramReads).toBe(0);
    expect(c2.dramWrites).toBe(4); // the flush writes the 4 dirty lines back whole
    expect(c2.stores).toBe(32);
  });

  it('MPBT lines are cached in L1 only; CL1INVMB drops them so a poll sees new data', () => {
    const seen: number[] = [];
    runProgram({
      cores: [0, 2],
      *program(core) {
        const flag = core.mpbOf(2, 64);
        if (core.id === 2) seen.push(core.load32(flag)); // cache the MPBT line
        yield* core.barrier();
        if (core.id === 0) {
          core.store32(flag, 99);
          core.drainWcb();
        }
        yield* core.barrier();
        if (core.id === 2) {
          seen.push(core.load32(flag)); // stale L1 copy
          core.invalidateMpbt();
          seen.push(core.load32(flag));
        }
      },
    });
    expect(seen).toEqual([0, 0, 99]);
  });

  it('CL1INVMB drops every MPBT line, also after more MPBT fills than L1 has slots', () => {
    const misses: number[] = [];
    runProgram({
      cores: [0],
      *program(core) {
        const slots = core.l1.slots;
        // 1.5 x the L1's slots of MPB lines, from several tiles' MPBs
        const lines = Math.ceil((slots * 3) / 2);
        const mpbLine = (i: number) => core.mpbAddr(Math.floor(i / 512), (i % 512) * 32);
        for (let i = 0; i < lines; i++) core.load32(mpbLine(i));
        if (core.due()) yield DUE;
        core.invalidateMpbt();
        const before = core.counter('l1Misses');
        for (let i = lines - 64; i < lines; i++) core.load32(mpbLine(i)); // the most recent fills
        misses.push(core.counter('l1Misses') - before);
        core.invalidateMpbt();
        const mid = core.counter('l1Misses');
        core.load32(mpbLine(lines - 1)); // a single fill since the last CL1INVMB
        core.invalidateMpbt();
        core.load32(mpbLine(lines - 1));
        misses.push(core.counter('l1Misses') - mid);
        yield DUE;
      },
    });
    expect(misses).toEqual([64, 2]);
  });

  it('the write-combine buffer merges stores to one line into one memory write', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        for (let i = 0; i < 8; i++) core.store32(core.mpbOf(1, i * 4), i);
        core.drainWcb();
        core.fence();
      },
    });
    expect(r.simulated.cores[0]!.mpbWrites).toBe(1);
  });

  it('an uncached read of the MPB returns the first 8 bytes of the line (SCC quirk)', () => {
    const seen: number[] = [];
    runProgram({
      cores: [0],
      *program(core) {
        core.store32(core.mpbOf(0, 0), 0x11111111);
        core.store32(core.mpbOf(0, 8), 0x22222222);
        core.drainWcb();
        core.invalidateMpbt();
        seen.push(core.load32(core.mpbOf(0, 8))); // MPBT (cached in L1): correct
        core.invalidateMpbt();
        core.mapPage(core.mpbOf(0, 0), 'uncached');
        seen.push(core.load32(core.mpbOf(0, 8))); // uncached: bytes 0..3 of the line
        yield DUE;
      },
    });
    expect(seen).toEqual([0x22222222, 0x11111111]);
  });

  it('uncached pages bypass the caches: every access is a memory transaction', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        core.mapPage(SHARED, 'uncached');
        for (let i = 0; i < 10; i++) core.load32(SHARED);
        core.fence();
      },
    });
    expect(r.simulated.cores[0]!.dramReads).toBe(10);
    expect(r.simulated.cores[0]!.l1Hits).toBe(0);
  });
});

describe('timing', () => {
  it('every picosecond of a core is busy, stalled or asleep', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 4095 })), { minLength: 1, maxLength: 60 }), (ops) => {
        const r = runProgram({
          cores: [0, 9],
          *program(core) {
            for (const [op, arg] of ops) {
              const addr = (op % 2 ? SHARED : core.privateBase) + arg * 32;
              if (op === 0) core.load32(addr);
              else if (op === 1) core.store32(addr, arg);
              else if (op === 2) core.compute(arg % 50);
              else if (op === 3) core.readRange(addr, 96);
              else if (op === 4) yield* core.sleep(arg % 7);
              else core.fence();
              if (core.due()) yield DUE;
            }
          },
        });
        for (const c of r.simulated.cores.filter((x) => x.runs)) {
          const stalls = Object.values(c.stallNs).reduce((a, b) => a + b, 0);
          expect(c.busyNs + stalls + c.sleepNs).toBeCloseTo(c.endTimeNs, 3);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('two misses overlap: independent misses take about half as long as dependent ones', () => {
    const t: Record<string, number> = {};
    runProgram({
      cores: [0],
      *program(core) {
        let t0 = core.now;
        for (let i = 0; i < 64; i++) {
          core.load32(SHARED + i * 32);
          core.fence();
        }
        t.dependent = core.now - t0;
        t0 = core.now;
        for (let i = 64; i < 128; i++) core.load32(SHARED + i * 32);
        core.fence();
        t.overlapped = core.now - t0;
      },
    });
    expect(t.overlapped! / t.dependent!).toBeGreaterThan(0.45);
    expect(t.overlapped! / t.dependent!).toBeLessThan(0.56);
  });

  it('a waiter wakes exactly when the releasing write becomes visible, whatever the quantum', () => {
    const wakes = [100, 1000, 5000].map((quantumNs) => {
      let at = 0;
      let sentAt = 0;
      runProgram({
        cores: [0, 47],
        quantumNs,
        *program(core) {
          const flag = core.mpbOf(47, 0);
          if (core.id === 0) {
            core.compute(3000);
            sentAt = core.now;
            core.store32(flag, 1);
            core.drainWcb();
          } else {
            yield* core.waitUntil(flag, '==', 1);
            at = core.now;
          }
        },
      });
      return { at, sentAt };
    });
    expect(new Set(wakes.map((w) => w.at)).size).toBe(1);
    // write: 45 core cycles + 2 x 8 hops x 4 mesh cycles after the store issued; then the
    // waiter's local poll read (15 core cycles)
    const w = wakes[0]!;
    const expected = w.sentAt + 45 * 1875 + 2 * 8 * 4 * 1250 + 15 * 1875;
    expect(Math.abs(w.at - expected)).toBeLessThan(2000);
  });
});

describe('contention', () => {
  it('message latency does not depend on the quantum (links are measured over a fixed window)', () => {
    const rt = [100, 1000, 5000].map((quantumNs) => {
      let t = 0;
      runProgram({
        cores: [0, 7],
        quantumNs,
        *program(core) {
          const other = core.id === 0 ? 7 : 0;
          const t0 = core.now;
          for (let i = 1; i <= 4; i++) {
            if (core.id === 7) yield* core.waitUntil(core.mpbOf(7, 8160), '==', i);
            core.writeRange(core.mpbOf(other), 1024, i);
            core.store32(core.mpbOf(other, 8160), i);
            if (core.id === 0) yield* core.waitUntil(core.mpbOf(0, 8160), '==', i);
          }
          if (core.id === 0) t = core.now - t0;
        },
      });
      return t;
    });
    expect(rt[0]).toBeGreaterThan(0);
    expect(rt[0]).toBe(rt[1]);
    expect(rt[2]).toBe(rt[1]);
  });

  it('a core that runs ahead does not make earlier arrivals of other cores wait (controller calendar)', () => {
    let lat = 0;
    runProgram({
      cores: [0, 2],
      *program(core) {
        // core 2's buffer is in another DRAM bank (8 KB rows, row:bank:column) than core 0's, so
        // only the controller's bus is shared
        const base = SHARED + core.id * (1 << 20) + (core.id === 2 ? 8192 : 0);
        if (core.id === 0) {
          core.copy(base + (1 << 19), base, 8192); // one long step (256 line reads, 2048 store misses), far past the epoch end
          core.fence();
        } else {
          const t0 = core.now;
          for (let i = 0; i < 64; i++) {
            core.load32(base + i * 32);
            core.fence();
            if (core.due()) yield DUE;
          }
          lat = (core.now - t0) / 64;
        }
      },
    });
    expect(lat / 1000).toBeGreaterThan(142);
    expect(lat / 1000).toBeLessThan(142.5 * 1.05); // zero-load latency at 1 hop: 142.5 ns (a row hit; the first read opens the row)
  });

  it('a saturated controller makes cores wait (12 streaming cores on one controller)', () => {
    const cores = [0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17];
    const r = runProgram({
      cores,
      *program(core) {
        core.mapPage(SHARED, 'uncached');
        // streams 8 KB apart start in different DRAM banks (12 streams on 8 banks), so the
        // controller's bus rather than one bank is the bottleneck
        const base = SHARED + cores.indexOf(core.id) * 8192;
        for (let i = 0; i < 2000; i++) {
          core.load32(base + i * 32);
          if (core.due()) yield DUE;
        }
        core.fence();
      },
    });
    const c0 = r.simulated.controllers[0]!;
    expect(c0.requests).toBe(12 * 2000);
    expect(c0.utilization).toBeGreaterThan(0.6);
    expect(c0.queueMax).toBeGreaterThan(10);
    expect(r.simulated.cores[0]!.stallNs.dram).toBeGreaterThan(r.simulated.cores[0]!.busyNs);
  });
});

describe('flush as line traffic', () => {
  it('a flush of a dirty L2 writes back each dirty line at its own controller and reads the flush region at the private one', () => {
    const N = 2048; // 64 KB dirty (a whole dirty L2 would take more write-log room than these tests give)
    const onCtrl1 = SHARED + 15 * (1 << 24); // shared page 15: the second group, controller 1
    const r = runProgram({
      cores: [0], // private memory (and so the flush region) at controller 0
      *program(core) {
        for (let i = 0; i < N; i++) {
          const a = onCtrl1 + i * 32;
          core.load32(a); // allocate: L1 and L2 (a read at controller 1)
          core.store32(a, i); // L1 write-through, L2 write-back: the line is dirty in L2
          if (core.due()) yield DUE;
        }
        core.flush();
      },
    });
    const [c0, c1] = r.simulated.controllers;
    // controller 1: the N allocating reads, then the N write-backs
    expect([c1!.reads, c1!.writes]).toEqual([N, N]);
    // controller 0: one read per line of the L2-sized flush region, no writes
    expect([c0!.reads, c0!.writes]).toEqual([8192, 0]);
    // each a transaction to its own line: both are sequential streams (the flush evicts the
    // least recently used way of every set in turn: the buffer's lines in order), so nearly all
    // are row hits; 256 KB is 32 rows of 8 KB on 8 banks: 8 first activations, 24 conflicts
    expect([c0!.rowMisses, c0!.rowConflicts, c0!.rowHits]).toEqual([8, 24, 8192 - 32]);
    expect(c1!.rowMisses + c1!.rowConflicts).toBeLessThan(0.02 * 2 * N);
    expect(r.simulated.cores[0]!.flushes).toBe(1);
  });

  it('scattered dirty lines go back one by one at their controller; the region reads stay one stream', () => {
    const N = 1024;
    const onCtrl1 = SHARED + 15 * (1 << 24);
    const r = runProgram({
      cores: [0],
      *program(core) {
        for (let i = 0; i < N; i++) {
          const a = onCtrl1 + ((i * 2477) % 65536) * 32; // no stride: each line somewhere else in 2 MB
          core.load32(a);
          core.store32(a, i);
          if (core.due()) yield DUE;
        }
        core.flush(); // fits one epoch's transaction log (2048 records in these tests)
      },
    });
    const [c0, c1] = r.simulated.controllers;
    expect([c1!.reads, c1!.writes]).toEqual([N, N]);
    expect([c0!.reads, c0!.writes]).toEqual([8192, 0]);
  });
});

describe('long bursts under contention', () => {
  it('twelve cores flushing at once share the controller instead of being charged their backlog again and again', () => {
    const r = runProgram({
      cores: [0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17],
      *program(core) {
        core.flush(); // 8192 reads on the nearest controller (0) in one call
      },
    });
    const ends = r.simulated.cores.filter((c) => c.runs).map((c) => c.endTimeNs);
    // the bus alone needs 12 x 8192 x 10 ns = 0.98 ms. The flush regions (the top of each core's
    // private memory) start in the same DRAM bank, so the streams take turns in one bank and
    // most reads are row conflicts; first come, first served, a bank does one row cycle
    // (tRAS + tRP = 52.5 ns) per conflict at worst: 12 x 8192 x 52.5 ns = 5.16 ms. Before the
    // fix (charged its backlog again and again) one flush cost about a second.
    expect(Math.max(...ends)).toBeGreaterThan(983_000);
    expect(Math.max(...ends)).toBeLessThan(5_300_000);
    const c0 = r.simulated.controllers[0]!;
    expect(c0.reads).toBe(12 * 8192);
    expect(c0.rowConflicts).toBeGreaterThan(0.4 * c0.reads);
  });
});

describe('synchronisation', () => {
  it('test-and-set locks give mutual exclusion: no increment is lost', () => {
    const counter = SHARED + 4096;
    const cores = [0, 1, 2, 3, 10, 20, 30, 47];
    let final = 0;
    runProgram({
      cores,
      *program(core) {
        for (let i = 0; i < 5; i++) {
          yield* core.lock(3);
          core.invalidateMpbt();
          // uncached-style read-modify-write through memory: flush around the critical section
          core.flush();
          const v = core.load32(counter);
          core.store32(counter, v + 1);
          core.flush();
          core.release(3);
          if (core.due()) yield DUE;
        }
        yield* core.barrier();
        core.flush();
        if (core.id === 0) final = core.load32(counter);
      },
    });
    expect(final).toBe(cores.length * 5);
  });

  it('reports a deadlock naming the cores and what they wait for', () => {
    expect(() =>
      runProgram({
        cores: [0, 1],
        *program(core) {
          yield* core.waitUntil(core.mpbOf(core.id, 0), '==', 1);
        },
      }),
    ).toThrow(/deadlock: no core can run \(core 0 waits on a flag.*core 1 waits on a flag/);
  });

  it('rejects unaligned accesses and unmapped addresses with the core and address', () => {
    expect(() => runProgram({ cores: [3], *program(core) { core.load32(SHARED + 2); } })).toThrow(/core 3: unaligned 4-byte access at 0x80000002/);
    expect(() => runProgram({ cores: [4], *program(core) { core.load32(0x7f000000); } })).toThrow(/core 4: address 0x7f000000 is not mapped/);
    expect(() => runProgram({ cores: [4], *program(core) { core.load32(core.mpbAddr(23, 20000)); } })).toThrow(/tile 24's MPB/);
  });

  it('stops a program that writes too much without yielding, with advice', () => {
    expect(() =>
      runProgram({
        cores: [0],
        *program(core) {
          for (let i = 0; i < 10000; i++) core.store32(SHARED + i * 32, i);
        },
      }),
    ).toThrow(/core 0: more than 4096 line writes without yielding; yield DUE in long loops/);
  });
});

describe('aliased views (mapAliases)', () => {
  // three views of 64 KB: view 0 at the end of the first 16 MB LUT page, views 1 and 2 in the
  // next LUT page (the fold happens before the LUT: the views need not share a LUT page)
  const BASE = 0x00ff0000;
  const BYTES = 0x10000;

  it('a store through one view is read through the others: one physical line in the caches and in memory', () => {
    const got: Record<string, number | number[]> = {};
    const r = runProgram({
      cores: [0],
      *program(core) {
        core.mapAliases(BASE, BYTES, 3);
        // a store that misses (no write-allocate) goes to memory; a load through another view reads it there
        core.storeF64(BASE + 2 * BYTES + 8, 7.25);
        got.fromMemory = core.loadF64(BASE + BYTES + 8);
        const misses = core.l1.valid;
        // the line is now in L1: a store through view 0 updates it, and views 1 and 2 hit it
        core.storeF64(BASE + 8, 2.5);
        got.view1 = core.loadF64(BASE + BYTES + 8);
        got.view2 = core.loadF64(BASE + 2 * BYTES + 8);
        got.l1LinesAdded = core.l1.valid - misses;
        // bulk ranges fold line by line (a range that crosses pages and views' line offsets)
        const src = new Uint8Array(100).map((_, i) => i + 1);
        core.writeRange(BASE + 2 * BYTES + 4096 - 36, 100, src);
        const dst = new Uint8Array(100);
        core.readRange(BASE + 4096 - 36, 100, dst);
        got.bulk = [dst[0]!, dst[50]!, dst[99]!];
        // past the last view: its own memory, not folded
        got.beyond = core.loadF64(BASE + 3 * BYTES + 8);
        core.storeF64(BASE + 3 * BYTES + 16, 9);
        got.view0After = core.loadF64(BASE + 16);
      },
    });
    expect(got).toEqual({ fromMemory: 7.25, view1: 2.5, view2: 2.5, l1LinesAdded: 0, bulk: [1, 51, 100], beyond: 0, view0After: 0 });
    expect(r.simulated.cores[0]!.dramWrites).toBeGreaterThan(0);
  });

  it('the first load through view 1 after view 0 hits L1 in l1d.hitCycles', () => {
    const cycles: number[] = [];
    const r = runProgram({
      cores: [0],
      *program(core) {
        core.mapAliases(BASE, BYTES, 2);
        core.load32(BASE + 64);
        core.fence();
        const t = core.now;
        core.load32(BASE + BYTES + 64);
        cycles.push((core.now - t) / core.period, core.chip.l1d.hitCycles);
      },
    });
    expect(cycles[0]).toBe(cycles[1]);
    expect(r.simulated.cores[0]).toMatchObject({ l1Misses: 1, l1Hits: 1 });
  });

  it('each view keeps its own page protection', () => {
    const log: string[] = [];
    runProgram({
      cores: [0],
      *program(core) {
        core.mapAliases(BASE, BYTES, 3);
        const pages = BYTES / 4096;
        core.enableProtection({ base: BASE, bytes: 3 * BYTES, pageBytes: 4096, initial: PROT_NONE, trapCycles: 0 }, function* () {});
        for (let p = 0; p < pages; p++) {
          core.protection.set(pages + p, PROT_READ);
          core.protection.set(2 * pages + p, PROT_READ_WRITE);
        }
        core.store32(BASE + 2 * BYTES + 4, 11); // the read-write view
        log.push(String(core.load32(BASE + BYTES + 4))); // the read-only view: same memory
        const attempts: Array<() => void> = [
          () => core.load32(BASE + 4), // the invalid view
          () => core.store32(BASE + BYTES + 4, 1), // the read-only view
          () => core.readRange(BASE + 4096, 64), // a bulk range through the invalid view
        ];
        for (const f of attempts) {
          try {
            f();
            log.push('allowed');
          } catch (e) {
            log.push((e as Error).message);
          }
        }
      },
    });
    expect(log).toEqual([
      '11',
      'core 0: load from 0xff0004 on invalid page 0: take the fault first (yield* core.touch(addr, bytes, false))',
      'core 0: store to 0x1000004 on read-only page 16: take the fault first (yield* core.touch(addr, bytes, true))',
      'core 0: load from 0xff1000 on invalid page 1: take the fault first (yield* core.touch(addr, bytes, false))',
    ]);
  });

  it('rejects views that are not whole pages, fewer than 2 copies, or outside private memory', () => {
    const attempt = (base: number, bytes: number, copies: number) => () =>
      runProgram({
        cores: [2],
        *program(core) {
          core.mapAliases(base, bytes, copies);
        },
      });
    expect(attempt(BASE, 5000, 3)).toThrow('core 2: aliased views need whole 4 KB pages and at least 2 copies (got 0xff0000 + 5000 x 3)');
    expect(attempt(BASE + 8, 4096, 3)).toThrow('core 2: aliased views need whole 4 KB pages and at least 2 copies (got 0xff0008 + 4096 x 3)');
    expect(attempt(BASE, 4096, 1)).toThrow('core 2: aliased views need whole 4 KB pages and at least 2 copies (got 0xff0000 + 4096 x 1)');
    expect(attempt(0x28000000, 1 << 24, 2)).toThrow('core 2: aliased views 0x28000000..0x29ffffff do not fit in private memory (0x0..0x28ffffff)');
  });
});
