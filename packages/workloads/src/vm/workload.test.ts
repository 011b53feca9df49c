import { describe, expect, it } from 'vitest';
import { Simulation, type Results, type Row } from '@manycore/engine';
import { workloads } from '../index';
import type { VmExtra } from './workload';

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
    expect(one.digest).toBe('70ec756861241788');
    expect(two.digest).toBe('7e689d78eda5d07a');
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
    expect(vm.moves).toEqual([{ className: 'Association', fromCore: expect.any(Number), toCore: expect.any(Number), bytes: 20 }]);
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
    const big = rowOf(run({ ...base, imageFillerKB: 10240 }));
    const bigHuge = rowOf(run({ ...base, imageFillerKB: 10240, hugePages: true }));
    expect(big.bytecodes).toBe(small.bytecodes);
    expect(big.correct).toBe(true);
    expect(big.timeNs as number).toBeGreaterThan(1.03 * (small.timeNs as number));
    expect(bigHuge.timeNs as number).toBeLessThan(big.timeNs as number);
    expect(() => run({ imageFillerKB: 10240 })).toThrow(/does not fit in core 0's 1024 KB heap/);
    expect(() => run({ imageFillerKB: 64 }, 'scc')).toThrow(/imageFillerKB: TILE64 only/);
  });

  it('bad parameters name the problem', () => {
    expect(() => run({ heapKB: 1000 })).toThrow(/heapKB = 1000: a heap is a power of two of at least 64 KB/);
    expect(() => run({ cores: 65 })).toThrow(/cores = 65, but the chip has 64 cores/);
    expect(() => run({ cores: 56, heapKB: 4096 })).toThrow(/heapKB = 4096 on 56 cores needs \d+ MB of shared memory; the chip maps 256 MB/);
  });
});
