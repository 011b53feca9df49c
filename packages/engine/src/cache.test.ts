import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cache } from './cache';
import { Overlay } from './overlay';

function cache(sets: number, ways: number) {
  const buf = new ArrayBuffer(sets * ways * 48 + 64);
  const c = new Cache(buf, 0, sets, ways);
  c.reset();
  return c;
}

describe('cache', () => {
  it('starts empty after reset even over a zeroed buffer (0 is a valid tag)', () => {
    const c = cache(2, 2);
    expect(c.lookup(0)).toBe(-1);
    expect(c.valid).toBe(0);
  });

  it('evicts the least recently used way', () => {
    const c = cache(1, 2);
    const line = new Uint32Array(8);
    c.fill(c.victim(10), 10, line, 0, 0);
    c.fill(c.victim(11), 11, line, 0, 0);
    expect(c.lookup(10)).toBeGreaterThanOrEqual(0); // 10 is now most recent
    const v = c.victim(12);
    expect(c.tags[v]).toBe(11);
    c.fill(v, 12, line, 0, 0);
    expect(c.probe(11)).toBe(-1);
    expect(c.valid).toBe(2);
  });

  it('behaves like a reference LRU model (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 300 }), (keys) => {
        const c = cache(4, 2);
        const ref: number[][] = [[], [], [], []]; // per set, most recent last
        const line = new Uint32Array(8);
        for (const k of keys) {
          const set = ref[k & 3]!;
          const hit = c.lookup(k) >= 0;
          expect(hit).toBe(set.includes(k));
          if (hit) set.splice(set.indexOf(k), 1);
          else {
            c.fill(c.victim(k), k, line, 0, 0);
            if (set.length === 2) set.shift();
          }
          set.push(k);
        }
        expect(c.valid).toBe(ref.reduce((a, s) => a + s.length, 0));
      }),
    );
  });
});

describe('overlay', () => {
  it('finds exactly the lines inserted this epoch', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 50 }), { maxLength: 5 }), (epochs) => {
        const o = new Overlay(64);
        for (const keys of epochs) {
          o.clear();
          const seen = new Map<number, number>();
          for (const k of keys) {
            const at = o.insert(k);
            if (seen.has(k)) expect(at).toBe(seen.get(k));
            seen.set(k, at);
          }
          for (const [k, at] of seen) expect(o.find(k)).toBe(at);
          expect(o.size).toBe(seen.size);
          expect(o.find(123456789) >= 0).toBe(seen.has(123456789));
        }
      }),
    );
  });
});
