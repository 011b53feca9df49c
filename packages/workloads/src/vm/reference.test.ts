import { describe, expect, it } from 'vitest';
import { buildProgram, expectedResult, sourceText, type Benchmark } from './program';
import { HostMemory, HostSpace, REFERENCE_MEMO, referenceRun, runReference } from './reference';
import { VmError } from './interpreter';

describe('referenceRun: the benchmarks outside the simulator', () => {
  const cases: [Benchmark, number][] = [
    ['tiny-loop', 1],
    ['tiny-fib', 12],
    ['compiler', 2],
  ];
  for (const [b, n] of cases) {
    it(`${b} ${n} answers expectedResult and counts the same bytecodes twice`, () => {
      const r = referenceRun(buildProgram(b), n, { sourceText: sourceText(b) });
      expect(r.result).toBe(expectedResult(b, n));
      expect(r.bytecodes).toBeGreaterThan(100);
      expect(r.counters.activations + r.counters.primitives).toBe(r.sends);
      // deterministic: a second run (interpreted again, not the kept result) counts exactly the same
      const again = runReference(buildProgram(b), n, { sourceText: sourceText(b) });
      expect(again.bytecodes).toBe(r.bytecodes);
      expect(again.sends).toBe(r.sends);
    });
  }

  it('keeps its last results per process: the same run answers the kept result, with counters of its own', () => {
    const p = buildProgram('tiny-fib');
    const first = referenceRun(p, 13, { sourceText: '' });
    const kept = referenceRun(p, 13, { sourceText: '' });
    expect(kept.image).toBe(first.image); // not interpreted again
    expect(kept.bytecodes).toBe(first.bytecodes);
    expect(kept.counters).not.toBe(first.counters);
    first.counters.bytecodes = -1; // a caller's copy: the kept result is not changed
    expect(referenceRun(p, 13, { sourceText: '' }).counters.bytecodes).toBe(kept.bytecodes);
    // another size or option is another run; only the last REFERENCE_MEMO are kept
    const other = referenceRun(p, 14, { sourceText: '' });
    expect(other.image).not.toBe(first.image);
    expect(other.result).toBe(expectedResult('tiny-fib', 14));
    for (let n = 0; n < REFERENCE_MEMO; n++) referenceRun(p, n, { sourceText: '' });
    expect(referenceRun(p, 13, { sourceText: '' }).image).not.toBe(first.image);
  });

  it('tiny-fib counts one send per call: benchFib\'s answer is its number of calls', () => {
    const r = referenceRun(buildProgram('tiny-fib'), 15, { sourceText: '' });
    expect(r.result).toBe(expectedResult('tiny-fib', 15));
    // every call of benchFib is one activation; run: (the entry) adds one
    expect(r.counters.activations).toBe(r.result + 1);
    expect(r.counters.contextsAllocated).toBeLessThan(30);
  });
});

describe('HostMemory', () => {
  it('stores and loads words and little-endian bytes, grows on a store, and names an address outside it', () => {
    const m = new HostMemory(64, 1 << 16);
    m.store32(8, 0x04030201);
    expect([8, 9, 10, 11].map((a) => m.load8(a))).toEqual([1, 2, 3, 4]);
    m.store8(10, 0xff);
    expect(m.load32(8)).toBe(0x04ff0201);
    m.store32(1000, 7);
    expect(m.sizeBytes).toBeGreaterThanOrEqual(1004);
    expect(m.load32(1000)).toBe(7);
    expect(m.load32(8)).toBe(0x04ff0201);
    expect(() => m.load32(1 << 15)).toThrow(/load at address 32768 \(0x8000\) is outside its \d+ bytes/);
    expect(() => m.store32(1 << 16, 1)).toThrow(/store at address 65536 is outside 0..65535/);
    expect(() => m.load32(-4)).toThrow(/outside/);
  });

  it('HostSpace allocates until its heap is full, then throws a VmError', () => {
    const s = new HostSpace({ heapBase: 0x1000, heapBytes: 64, otBase: 0x100, otEntries: 2, coreData: 0 });
    expect(s.allocate(8)).toBe(0x1000);
    expect(s.allocate(8)).toBe(0x1020);
    expect(() => s.allocate(1)).toThrow(VmError);
    expect(s.allocateOte()).toBe(0x100);
    expect(s.allocateOte()).toBe(0x104);
    expect(() => s.allocateOte()).toThrow(/object table full/);
    expect(s.homeOf(0x1010)).toBe(0);
    expect(s.homeOf(0x2000)).toBe(-1);
    expect(s.batonTarget(0x1010, 0)).toBe(-1);
  });
});
