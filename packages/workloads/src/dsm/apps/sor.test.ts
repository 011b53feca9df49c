import { describe, expect, it } from 'vitest';
import { sor, sorBand, sorChecksum, sorReference, sorWidth, type SorSize } from './sor';
import { runInterleaved, runOnLocal } from './test-helper';

const tiny: SorSize = { rows: 6, cols: 9, steps: 2 };

describe('Red-Black SOR on the sequential runtime', () => {
  it('at small: the shared grid is bit-exact equal to the plain-JavaScript reference (wall time in the report)', () => {
    const r = runOnLocal(sor, sor.sizes.small);
    expect(r.check).toEqual({ correct: true, detail: '258 x 1023 grid bit-exact equal to the sequential run after 4 steps; checksum 136554.95706266316' });
    const ref = sorReference(sor.sizes.small);
    expect(sorChecksum(ref.red, ref.black)).toBe(136554.95706266316);
  });

  it('at a tiny size: golden checksum and values (catches any change of the arithmetic or the initial values)', () => {
    const r = runOnLocal(sor, tiny);
    expect(r.check.correct).toBe(true);
    expect(r.check.detail).toContain('checksum 48.73962616920471');
    const ref = sorReference(tiny);
    expect(sorWidth(tiny)).toBe(5);
    // row 1 (odd) red = columns 1, 3, 5, 7 relaxed twice; the unused slot (column 9) stays 0
    expect(Array.from(ref.red.subarray(5, 10))).toEqual([0.99078369140625, 0.8327407836914062, 0.78961181640625, 0.8660964965820312, 0]);
    // boundary row 0 (red = even columns) stays 1
    expect(Array.from(ref.red.subarray(0, 5))).toEqual([1, 1, 1, 1, 1]);
  });

  it('several processors (interleaved between barriers) give the bit-exact sequential grid, also with more processors than rows', () => {
    expect(runInterleaved(sor, { rows: 18, cols: 9, steps: 2 }, 4, { fine: false })).toEqual({ correct: true, detail: '18 x 9 grid bit-exact equal to the sequential run after 2 steps; checksum 128.5742256641388' });
    expect(runInterleaved(sor, { rows: 5, cols: 7, steps: 3 }, 4, { fine: false }).correct).toBe(true); // 3 interior rows: one band is empty
    expect(sorBand({ rows: 5, cols: 7, steps: 3 }, 0, 4)).toEqual([1, 1]);
  });

  it('the check fails, naming the element, when one shared value differs from the sequential run', () => {
    const r = runOnLocal(sor, tiny, undefined, function* (dsm) {
      // the arrays are the first two allocated: red is id 0
      const addr = yield* dsm.open({ id: 0, name: 'red', count: tiny.rows, objectBytes: 8 * sorWidth(tiny) }, 2, true);
      dsm.core.storeF64(addr + 8 * 2, dsm.core.loadF64(addr + 8 * 2) + 2 ** -40);
    });
    expect(r.check.correct).toBe(false);
    expect(r.check.detail).toMatch(/^grid differs from the sequential run: first at red row 2 slot 2: /);
  });

  it('one processor opens every row of its colour once per phase for writing and every row of the other colour once for reading', () => {
    const { counts, check } = runOnLocal(sor, tiny);
    expect(check.correct).toBe(true);
    // init: 6 rows per colour; each step: 4 interior rows written in its phase, 6 rows read in the other phase
    expect(Object.fromEntries(counts.writes)).toEqual({ red: 6 + 2 * 4, black: 6 + 2 * 4 });
    expect(Object.fromEntries(counts.reads)).toEqual({ red: 2 * 6, black: 2 * 6 });
    expect(counts.perObject.get('red')!.get(1)).toBe(1 + 2 + 2);
    expect(counts.perObject.get('red')!.get(0)).toBe(1 + 2);
    expect(counts.barriers).toBe(1 + 2 * 2);
    expect(counts.acquires.size).toBe(0);
  });

  it('processor 1 of 4 opens its own band once per phase and the two boundary rows of its neighbours once per phase, nothing else', () => {
    const size: SorSize = { rows: 18, cols: 9, steps: 2 };
    expect(sorBand(size, 1, 4)).toEqual([5, 9]);
    const { counts } = runOnLocal(sor, size, { me: 1, procs: 4 });
    for (const colour of ['red', 'black']) {
      expect(counts.writes.get(colour)).toBe(4 + 2 * 4);
      expect(counts.reads.get(colour)).toBe(2 * 6);
      const per = counts.perObject.get(colour)!;
      expect([...per.keys()].sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9]);
      expect([4, 5, 6, 7, 8, 9].map((i) => per.get(i))).toEqual([2, 5, 5, 5, 5, 2]);
    }
    expect(counts.barriers).toBe(5);
    expect(counts.polls).toBe(4 + 2 * 2 * 4);
  });

  it('bands cover the interior rows exactly once, in order', () => {
    const size = sor.sizes['paper-sm'];
    const bands = Array.from({ length: 32 }, (_, p) => sorBand(size, p, 32));
    expect(bands[0]![0]).toBe(1);
    expect(bands[31]![1]).toBe(size.rows - 1);
    for (let p = 1; p < 32; p++) expect(bands[p]![0]).toBe(bands[p - 1]![1]);
    expect(sorWidth(size) * 8).toBe(8192); // a colour row of the paper's grid is two whole 4 KB pages
  });

  it('describes sizes and rejects bad ones with a message naming the field', () => {
    expect(sor.describe(sor.sizes['paper-lg'])).toBe('4094 x 2047, 20 steps (red and black arrays of 4094 rows x 1024 doubles)');
    expect(sor.locks(sor.sizes.small, 32)).toBe(0);
    expect(() => sorReference({ rows: 2, cols: 9, steps: 1 })).toThrow('sor: rows must be an integer >= 3, got 2');
    expect(() => sorReference({ rows: 5, cols: 9, steps: 0.5 })).toThrow('sor: steps must be an integer >= 1, got 0.5');
  });
});
