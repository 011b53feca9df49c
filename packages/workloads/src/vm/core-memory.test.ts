import { describe, expect, it } from 'vitest';
import { C, CORE_COUNTERS, STALL_NAMES } from '@manycore/engine';
import { CAUSE_NAMES, CoreVmMemory, type ScalarCore } from './core-memory';
import { ROUTINE, ROUTINE_NAMES } from './format';

const PERIOD = 1000; // ps
const TLB_MISS_CYCLES = 30;

/**
 * A scripted core: the address says what an access does, as a TILE64 core would charge it
 * (busy cycles, a stall under one cause, a remote read, a TLB miss, a local L2 miss).
 */
class FakeCore implements ScalarCore {
  now = 0;
  readonly period = PERIOD;
  readonly c = new Float64Array(CORE_COUNTERS);
  readonly tlb = { misses: 0 };
  remoteReads = 0;
  counterAt(i: number): number {
    return this.c[i]!;
  }
  private busy(cycles: number): void {
    this.now += cycles * PERIOD;
    this.c[C.busyPs] += cycles * PERIOD;
  }
  private stall(counter: number, cycles: number): void {
    this.now += cycles * PERIOD;
    this.c[counter] += cycles * PERIOD;
  }
  load32(addr: number): number {
    if (addr >= 5000) {
      this.tlb.misses++;
      this.busy(TLB_MISS_CYCLES);
    }
    const a = addr % 5000;
    this.busy(1);
    if (a >= 4000) {
      this.c[C.l2Misses] += 1; // local L2 miss: DRAM fill
      this.stall(C.stallL2MissPs, 80);
    } else if (a >= 2000) {
      this.remoteReads++; // read at a non-home tile: the home's L2
      this.stall(C.stallL2MissPs, 40);
    } else if (a >= 1000) this.stall(C.stallL1MissPs, 8);
    return 0;
  }
  store32(addr: number): void {
    this.load32(addr);
  }
  load8(addr: number): number {
    return this.load32(addr);
  }
  store8(addr: number): void {
    this.load32(addr);
  }
  compute(cycles: number): void {
    this.busy(cycles);
  }
  /** time outside the memory (a wait for the baton): a stall the routines must not see */
  waitOutside(cycles: number): void {
    this.stall(C.stallWaitPs, cycles);
  }
}

const cause = (m: CoreVmMemory, r: number, k: (typeof CAUSE_NAMES)[number]) => m.causePs[r * CAUSE_NAMES.length + CAUSE_NAMES.indexOf(k)]! / PERIOD;
const causesOf = (m: CoreVmMemory, r: number) => Object.fromEntries(CAUSE_NAMES.map((k) => [k, cause(m, r, k)]).filter(([, v]) => v !== 0));

describe('CoreVmMemory: time per VM routine, split by cause from the core counters', () => {
  it('names the engine stall causes after executed, TLB refill and remote home', () => {
    expect(CAUSE_NAMES).toEqual(['executed', 'tlbRefill', 'remoteHome', ...STALL_NAMES]);
  });

  it('splits each routine into executed work, TLB refills, remote-home, L1- and L2-miss stalls; the causes sum to its time', () => {
    const core = new FakeCore();
    const m = new CoreVmMemory(core, { tlb: core.tlb, tlbMissCycles: TLB_MISS_CYCLES, remote: core });
    m.enter(ROUTINE.fetchBytecode);
    m.load8(2000); // remote: 1 + 40
    m.compute(2);
    m.load8(7000); // TLB miss (30) then remote: 1 + 40
    m.enter(ROUTINE.stack);
    m.store32(1000, 0); // 1 + 8 (L1 miss)
    m.load32(10); // 1
    m.enter(ROUTINE.allocate);
    m.load32(4000); // local L2 miss: 1 + 80
    m.enter(ROUTINE.fetchBytecode); // ends the allocate span
    m.flush();
    expect(causesOf(m, ROUTINE.fetchBytecode)).toEqual({ executed: 4, tlbRefill: 30, remoteHome: 80 });
    expect(causesOf(m, ROUTINE.stack)).toEqual({ executed: 2, l1Miss: 8 });
    expect(causesOf(m, ROUTINE.allocate)).toEqual({ executed: 1, l2Miss: 80 });
    for (let r = 0; r < ROUTINE_NAMES.length; r++) {
      const sum = CAUSE_NAMES.reduce((a, k) => a + cause(m, r, k), 0);
      expect(sum).toBeCloseTo(m.routinePs[r]! / PERIOD, 9);
    }
    expect(m.routinePs[ROUTINE.fetchBytecode]! / PERIOD).toBe(114);
  });

  it('drops time spent outside the accesses (flush, then sync) and counts a charged span', () => {
    const core = new FakeCore();
    const m = new CoreVmMemory(core, { tlb: core.tlb, tlbMissCycles: TLB_MISS_CYCLES, remote: core });
    m.enter(ROUTINE.lookup);
    m.load32(1000); // 1 + 8
    m.flush();
    core.waitOutside(500); // waiting for the baton: no routine's
    m.sync();
    m.load32(10);
    m.flush();
    core.compute(20); // a baton's message, done on the core directly
    m.charge(ROUTINE.migrate, 20 * PERIOD);
    m.enter(ROUTINE.fetchBytecode);
    expect(causesOf(m, ROUTINE.lookup)).toEqual({ executed: 2, l1Miss: 8 });
    expect(causesOf(m, ROUTINE.migrate)).toEqual({ executed: 20 });
    expect(m.routinePs[ROUTINE.migrate]).toBe(20 * PERIOD);
    expect(cause(m, ROUTINE.lookup, 'wait')).toBe(0);
  });

  it('a span with both remote reads and local L2 misses splits its L2-miss stall by their counts', () => {
    const core = new FakeCore();
    const m = new CoreVmMemory(core, { remote: core });
    m.enter(ROUTINE.lookup);
    m.load32(2000); // remote 40
    m.load32(2000); // remote 40
    m.load32(4000); // local 80
    m.enter(ROUTINE.stack);
    expect(m.mixedSpans).toBe(1);
    expect(cause(m, ROUTINE.lookup, 'remoteHome')).toBeCloseTo((160 * 2) / 3, 9);
    expect(cause(m, ROUTINE.lookup, 'l2Miss')).toBeCloseTo(160 / 3, 9);
    // without the sources (SCC: no homing, no TLB) the engine's causes only
    const scc = new FakeCore();
    const n = new CoreVmMemory(scc);
    n.enter(ROUTINE.lookup);
    n.load32(7000);
    n.enter(ROUTINE.stack);
    expect(causesOf(n, ROUTINE.lookup)).toEqual({ executed: 31, l2Miss: 40 });
  });
});
