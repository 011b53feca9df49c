import { describe, expect, it } from 'vitest';
import { Simulation, type Results, type Row } from '@manycore/engine';
import { workloads } from '../index';
import type { VmExtra } from './workload';
import { CELL_CLASS0, CELL_VACATED } from './heap-objects';

function run(params: Record<string, unknown>, preset = 'tile64'): Results {
  return new Simulation({ version: 1, chip: { preset }, workload: { name: 'vm', params } }, workloads).runInline();
}
const rowOf = (r: Results): Row => r.workload.rows[0]!;
const vmOf = (r: Results): VmExtra => (r.workload as unknown as { vm: VmExtra }).vm;

describe('vm on the TILE64 (paper 000)', () => {
  const one = run({ benchmark: 'compiler', size: 2, cores: 1 });
  const two = run({ benchmark: 'compiler', size: 2, cores: 2 });

  it('answers the reference run\'s result with the same bytecode count on 1 and 2 cores (golden digest)', () => {
    for (const r of [one, two]) {
      expect(rowOf(r)).toMatchObject({ correct: true, result: rowOf(r).referenceResult, bytecodes: rowOf(r).referenceBytecodes });
    }
    expect(rowOf(two).bytecodes).toBe(rowOf(one).bytecodes);
    expect(rowOf(one).migrations).toBe(0);
    // moved only by VmExtra's heapMap and the moves' offsets and times (nothing simulated): without them, b587ad02060df61b and c0b00c26e0333914;
    // the heap map walked in simulated memory (peek32) has the replay's cells: with heapMap.replayMatches: true added back, ff87218eb45ef7b8 and 0a945a3e1629d350
    expect(one.digest).toBe('dd33c219ba4dfbc6');
    expect(two.digest).toBe('2a161695be963f2a');
  });

  it('two cores pass the baton and are slower; the new cost is mostly bytecode fetch from remote methods', () => {
    const a = rowOf(one);
    const b = rowOf(two);
    expect(b.migrations as number).toBeGreaterThan(100);
    expect(b.timeNs as number).toBeGreaterThan(1.3 * (a.timeNs as number));
    const growth = (name: string) => (b[`${name}Cycles`] as number) - (a[`${name}Cycles`] as number);
    for (const other of ['fetchClass', 'lookup', 'activate', 'return', 'stack', 'objectAccess', 'primitive', 'allocate', 'clock']) expect(growth('fetchBytecode')).toBeGreaterThan(growth(other));
    // every migration is one raw message and, with the clock call, one trap into the kernel
    expect(vmOf(two).baton.reduce((s, e) => s + e.count, 0)).toBe(b.migrations);
    expect(b.clockCycles as number).toBeGreaterThan(200 * (b.migrations as number));
    const noClock = rowOf(run({ benchmark: 'compiler', size: 2, cores: 2, clockCall: false }));
    expect(noClock.clockCycles).toBe(0);
    expect(noClock.migrations).toBe(b.migrations);
    expect(noClock.timeNs as number).toBeLessThan(b.timeNs as number);
  });

  it('splits each routine by cause (the causes sum to it) and by core (the cores sum to it); the split comes from the core counters', () => {
    for (const r of [one, two]) {
      const vm = vmOf(r);
      expect(vm.causes).toEqual(['executed', 'tlbRefill', 'remoteHome', 'l1Miss', 'l2Miss', 'dram', 'mpb', 'network', 'wait', 'flush']);
      expect(vm.perCore.map((c) => c.core)).toEqual(vm.heaps.map((h) => h.core));
      vm.routines.forEach((rt, i) => {
        expect(rt.cycles).toBe(rowOf(r)[`${rt.name}Cycles`]);
        expect(Object.values(rt.causes).reduce((a, b) => a + b, 0)).toBe(rt.cycles);
        expect(vm.perCore.reduce((a, c) => a + c.cycles[i]!, 0)).toBe(rt.cycles);
      });
      // each cause, summed over the routines, is at most what the cores' counters hold (they also count the snapshot's load and the waits)
      const total = (k: string) => vm.routines.reduce((a, rt) => a + rt.causes[k]!, 0);
      const engine = (f: (c: Results['simulated']['cores'][number]) => number) => (r.simulated.cores.reduce((a, c) => a + f(c), 0) * 600) / 1000; // ns -> 600 MHz cycles
      expect(total('executed') + total('tlbRefill')).toBeLessThanOrEqual(engine((c) => c.busyNs) + 1);
      expect(total('executed') + total('tlbRefill')).toBeGreaterThan(0.9 * engine((c) => c.busyNs));
      expect(total('l1Miss')).toBeLessThanOrEqual(engine((c) => c.stallNs.l1Miss) + 1);
      expect(total('remoteHome') + total('l2Miss')).toBeLessThanOrEqual(engine((c) => c.stallNs.l2Miss) + 1);
      expect(total('remoteHome') + total('l2Miss')).toBeGreaterThan(0.8 * engine((c) => c.stallNs.l2Miss));
      expect(total('wait')).toBe(0); // waiting for the baton is nobody's routine
    }
    // with migrations, bytecode fetch waits on the methods' remote home (paper 000 Fig. 11's first source); on one core it never does
    const share = (r: Results) => {
      const fb = vmOf(r).routines.find((rt) => rt.name === 'fetchBytecode')!;
      return fb.causes.remoteHome! / fb.cycles;
    };
    expect(rowOf(two).migrations as number).toBeGreaterThan(0);
    expect(share(one)).toBe(0);
    expect(share(two)).toBeGreaterThan(0.5);
    expect(share(two)).toBeGreaterThan(share(one));
    // the per-core view: the thread runs on both cores, the foreign primitives on the main core
    const v2 = vmOf(two);
    const prim = v2.routines.findIndex((rt) => rt.name === 'primitive');
    expect(v2.perCore.every((c) => c.cycles.reduce((a, b) => a + b, 0) > 0)).toBe(true);
    expect(v2.perCore[0]!.cycles[prim]!).toBeGreaterThan(0);
    // the SCC: no homing and no TLB in its model, so no remote-home or TLB time; its shared heaps stall on DRAM and the MPB
    const scc = vmOf(run({ benchmark: 'compiler', size: 2, cores: 2 }, 'scc'));
    const sccTotal = (k: string) => scc.routines.reduce((a, rt) => a + rt.causes[k]!, 0);
    for (const rt of scc.routines) expect(Object.values(rt.causes).reduce((a, b) => a + b, 0)).toBe(rt.cycles);
    expect(sccTotal('remoteHome') + sccTotal('tlbRefill')).toBe(0);
    expect(sccTotal('dram')).toBeGreaterThan(0);
    expect(sccTotal('mpb')).toBeGreaterThan(0);
  });

  it('a global read-mostly heap stops the baton; replicated methods make bytecode fetch local', () => {
    const global = rowOf(run({ benchmark: 'compiler', size: 2, cores: 2, replication: 'global' }));
    expect(global.migrations).toBe(0);
    expect(global.correct).toBe(true);
    const methods = rowOf(run({ benchmark: 'compiler', size: 2, cores: 2, replication: 'methods' }));
    expect(methods.migrations).toBe(rowOf(two).migrations);
    expect(methods.fetchBytecodeCycles as number).toBeLessThan(0.5 * (rowOf(two).fetchBytecodeCycles as number));
  });

  it('a store into a replicated object moves it to the read-write heap, once, and the heap map says which', () => {
    const r = run({ benchmark: 'compiler', size: 2, cores: 3, replication: 'all-but-contexts' });
    expect(rowOf(r).storeBarrierMoves).toBe(1);
    const vm = vmOf(r);
    expect(vm.moves).toEqual([
      { className: 'Association', fromCore: expect.any(Number), toCore: expect.any(Number), bytes: 20, fromOffset: expect.any(Number), toOffset: expect.any(Number), timeNs: expect.any(Number) },
    ]);
    // the move happened during the run; the heap map (walked in the simulated memory at the end) shows it
    const m = vm.moves[0]!;
    expect(m.timeNs).toBeGreaterThan(0);
    expect(m.timeNs).toBeLessThan(rowOf(r).timeNs as number);
    expect(vm.heapMap.heaps.reduce((a, h) => a + h.vacatedObjects, 0)).toBe(1);
    const cellAt = (region: string, core: number, offset: number) => {
      const h = vm.heapMap.heaps.find((x) => x.region === region && x.core === core)!;
      return Uint8Array.from(atob(h.cells), (c) => c.charCodeAt(0))[Math.floor(offset / h.cellBytes)]!;
    };
    expect(vm.heapMap.heaps.find((x) => x.region === 'readMostly' && x.core === m.fromCore)!.vacatedObjects).toBe(1);
    expect(cellAt('readMostly', m.fromCore, m.fromOffset)).toBe(CELL_VACATED); // the old copy, left in its read-mostly slice
    expect(cellAt('readWrite', m.toCore, m.toOffset)).toBeGreaterThanOrEqual(CELL_CLASS0); // a live object where the copy went
    expect(vm.heapMap.classes).toContain('Association');
    expect(vm.heaps.length).toBe(3);
    // the snapshot is in the read-mostly slices (except the boot context, on the main core's read-write heap)
    expect(vm.heaps[0]!.readWrite).toEqual({ context: expect.any(Number) });
    expect(Object.keys(vm.heaps[1]!.readMostly).sort()).toEqual(['class', 'method', 'methodDict', 'other', 'symbol']);
  });

  it('tinyBenchmarks: SmallInteger receivers keep the thread where it is', () => {
    const fib = rowOf(run({ benchmark: 'tiny-fib', size: 10, cores: 2 }));
    expect(fib).toMatchObject({ correct: true, result: 177 });
    expect(fib.migrations as number).toBeLessThanOrEqual(2);
  });

  it('a large image (imageFillerKB) spreads the objects over pages: the TLB misses cost time, huge pages take it back', () => {
    const base = { benchmark: 'compiler', size: 2, cores: 1, clockCall: false, heapKB: 16384 };
    const small = rowOf(run(base));
    const bigRun = run({ ...base, imageFillerKB: 10240 });
    const bigHugeRun = run({ ...base, imageFillerKB: 10240, hugePages: true });
    const big = rowOf(bigRun);
    const bigHuge = rowOf(bigHugeRun);
    expect(big.bytecodes).toBe(small.bytecodes);
    expect(big.correct).toBe(true);
    expect(big.timeNs as number).toBeGreaterThan(1.03 * (small.timeNs as number));
    expect(bigHuge.timeNs as number).toBeLessThan(big.timeNs as number);
    // the time goes to the TLB refill handler (paper 000 Fig. 11's third source, dtlb_miss), which huge pages remove
    const tlbCycles = (r: Results) => vmOf(r).routines.reduce((a, rt) => a + rt.causes.tlbRefill!, 0);
    expect(tlbCycles(bigRun)).toBeGreaterThan(0.5 * ((big.timeNs as number) - (small.timeNs as number)) * 0.6);
    expect(tlbCycles(bigHugeRun)).toBeLessThan(0.1 * tlbCycles(bigRun));
    expect(() => run({ imageFillerKB: 10240 })).toThrow(/does not fit in core 0's 1024 KB heap/);
    expect(() => run({ imageFillerKB: 64 }, 'scc')).toThrow(/imageFillerKB: TILE64 only/);
  });

  it('bad parameters name the problem', () => {
    expect(() => run({ heapKB: 1000 })).toThrow(/heapKB = 1000: a heap is a power of two of at least 64 KB/);
    expect(() => run({ cores: 65 })).toThrow(/cores = 65, but the chip has 64 cores/);
    expect(() => run({ cores: 56, heapKB: 4096 })).toThrow(/heapKB = 4096 on 56 cores needs \d+ MB of shared memory; the chip maps 256 MB/);
  });
});
