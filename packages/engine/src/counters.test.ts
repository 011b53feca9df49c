/**
 * Performance counters: instructions (every operation declares its own), IPC as the RCCE study
 * defines it (instructions / wall-clock core cycles), non-cacheable reads, logged messages.
 */
import { describe, expect, it } from 'vitest';
import { CORE_SLOTS, S } from './layout';
import { LINE_LOOP_INSTRUCTIONS, POLL_MPBT_INSTRUCTIONS } from './chips/scc/core';
import { runProgram } from './testing';
import { C, CORE_COUNTERS } from './vocabulary';

const SHARED = 0x80000000; // first shared DRAM page

describe('counter slots', () => {
  it('C fits in CORE_COUNTERS and the scheduler fields S after it, within CORE_SLOTS', () => {
    const cs = Object.values(C);
    expect(new Set(cs).size).toBe(cs.length);
    for (const k of cs) expect(k).toBeLessThan(CORE_COUNTERS);
    const ss = Object.values(S);
    expect(new Set(ss).size).toBe(ss.length);
    for (const k of ss) {
      expect(k).toBeGreaterThanOrEqual(CORE_COUNTERS);
      expect(k).toBeLessThan(CORE_SLOTS);
    }
  });
});

describe('instructions (SCC)', () => {
  it('counts a known program exactly: N loads, M stores, compute(c, i), compute(c), a bulk read, CL1INVMB', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        const b = core.privateBase;
        for (let i = 0; i < 10; i++) core.load32(b + i * 4); // 10
        for (let i = 0; i < 3; i++) core.store32(b + 4096 + i * 4, i); // 3
        core.compute(100, 40); // 40
        core.compute(50); // default: one per cycle, 50
        core.readRange(b + 8192, 64); // 16 loads + 2 lines x LINE_LOOP_INSTRUCTIONS
        core.invalidateMpbt(); // 1
        core.loadF64(b + 16); // 1
      },
    });
    const c = r.simulated.cores[0]!;
    expect(c.instructions).toBe(10 + 3 + 40 + 50 + 16 + 2 * LINE_LOOP_INSTRUCTIONS + 1 + 1);
    expect(c.loads).toBe(10 + 16 + 1);
    expect(c.stores).toBe(3);
    expect(r.simulated.chip.instructions).toBe(c.instructions);
    // cores that do not run execute nothing
    expect(r.simulated.cores[1]!.instructions).toBe(0);
    expect(r.simulated.cores[1]!.ipc).toBe(0);
  });

  it('copy counts a load and a store per word and both loops\' overhead per line; writeRange a store per word', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        const b = core.privateBase;
        core.copy(b + 4096, b, 32); // 8 + 8 + 2 x 3
        core.writeRange(b + 8192, 12, 0); // 3 stores + 3
      },
    });
    expect(r.simulated.cores[0]!.instructions).toBe(8 + 8 + 2 * LINE_LOOP_INSTRUCTIONS + 3 + LINE_LOOP_INSTRUCTIONS);
  });

  it('IPC = instructions / wall-clock core cycles (the RCCE study): sleeping or waiting lowers it, busy time is not the divisor', () => {
    const run = (sleep: boolean) =>
      runProgram({
        cores: [0],
        *program(core) {
          core.compute(1000, 2000);
          if (sleep) yield* core.sleep((1000 * core.period) / 1000); // as long again, halted
        },
      }).simulated.cores[0]!;
    const busy = run(false);
    expect(busy.instructions).toBe(2000);
    expect(busy.cycles).toBeCloseTo(1000, 6);
    expect(busy.ipc).toBeCloseTo(2, 9);
    const half = run(true);
    expect(half.instructions).toBe(2000);
    expect(half.cycles).toBeCloseTo(2000, 6);
    expect(half.ipc).toBeCloseTo(1, 9);
    expect(half.ipc).toBeCloseTo(half.instructions / half.cycles, 12);
  });

  it('a spin on an MPB flag executes its poll loop once per poll read while it waits', () => {
    const waited: number[] = [];
    const r = runProgram({
      cores: [0, 2],
      *program(core) {
        const flag = core.mpbOf(0, 64);
        if (core.id === 2) {
          core.compute(20_000, 0);
          core.store32(flag, 1);
          return;
        }
        const t0 = core.now;
        yield* core.waitUntil(flag, '==', 1);
        waited.push((core.now - t0) / core.period);
      },
    });
    const c = r.simulated.cores[0]!;
    // local MPB poll read: 15 cycles (scc preset); the wait is about 20,000 cycles of core 2
    const polls = c.instructions / POLL_MPBT_INSTRUCTIONS;
    expect(Number.isInteger(polls)).toBe(true);
    expect(polls).toBeGreaterThanOrEqual(Math.floor(waited[0]! / 15) - 1);
    expect(polls).toBeLessThanOrEqual(Math.ceil(waited[0]! / 15) + 1);
    expect(waited[0]!).toBeGreaterThan(19_000);
    // polling IPC: 4 instructions per 15-cycle read
    expect(c.ipc).toBeGreaterThan(0.25);
    expect(c.ipc).toBeLessThan(0.28);
    expect(r.simulated.cores[2]!.instructions).toBe(1);
  });

  it('non-cacheable reads: scalar and bulk reads of an uncached page, one per bus read; cached reads are not', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        core.load32(SHARED + 4096); // cached: not counted
        core.mapPage(SHARED, 'uncached');
        for (let i = 0; i < 5; i++) core.load32(SHARED + i * 4); // 5
        core.readRange(SHARED + 64, 32); // 4 bus reads of 8 B
        core.mapPage(SHARED, 'cached');
      },
    });
    const c = r.simulated.cores[0]!;
    expect(c.nonCacheableReads).toBe(5 + 4);
    expect(c.instructions).toBe(1 + 5 + 8 + LINE_LOOP_INSTRUCTIONS);
  });

  it('logged messages are what a library logs (logMessage); messages per instruction = logged / instructions', () => {
    const r = runProgram({
      cores: [0],
      *program(core) {
        core.logMessage();
        core.logMessage(2);
        core.compute(300);
      },
    });
    const c = r.simulated.cores[0]!;
    expect(c.loggedMessages).toBe(3);
    expect(c.messagesPerInstruction).toBeCloseTo(3 / 300, 12);
  });
});

describe('instructions (TILE64)', () => {
  it('one per load and store; compute as declared; the software TLB refill handler one per cycle', () => {
    const r = runProgram({
      preset: 'tile64',
      cores: [0],
      *program(core) {
        const b = core.privateBase;
        for (let i = 0; i < 6; i++) core.load32(b + i * 4);
        core.store32(b + 64, 1);
        core.compute(10, 4);
      },
    });
    // one TLB miss (all in one 64 KB page): the refill handler runs tlb.missCycles of instructions
    const missCycles = (r.chip as unknown as { tlb: { missCycles: number } }).tlb.missCycles;
    expect(missCycles).toBeGreaterThan(0);
    expect(r.simulated.cores[0]!.instructions).toBe(6 + 1 + 4 + missCycles);
  });
});
