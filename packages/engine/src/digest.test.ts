import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, fnv1a64 } from './digest';
import { makeRng } from './rng';

describe('digest', () => {
  it('is 64-bit FNV-1a', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
  it('does not depend on key order, and does depend on values', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe('{"a":[1,{"c":3,"d":2}],"b":1}');
    expect(digestOf({ a: 1, b: 2 })).toBe(digestOf({ b: 2, a: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: 1.0000001 }));
  });
});

describe('rng', () => {
  it('is a deterministic stream per seed and core', () => {
    const a = makeRng(7, 3);
    const b = makeRng(7, 3);
    const xs = Array.from({ length: 5 }, () => a.u32());
    expect(Array.from({ length: 5 }, () => b.u32())).toEqual(xs);
    expect(makeRng(7, 4).u32()).not.toBe(xs[0]);
    expect(makeRng(8, 3).u32()).not.toBe(xs[0]);
  });
  it('is roughly uniform', () => {
    const r = makeRng(1);
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 20000; i++) buckets[r.int(10)]++;
    for (const n of buckets) expect(Math.abs(n - 2000)).toBeLessThan(200);
  });
});
