/**
 * Contract tests for overlay.ts (a core's uncommitted line images, keyed by line id):
 * - insert(k) returns the byte offset of k's image (a new slot, in insertion order, or k's
 *   existing slot); find(k) returns that offset until clear(), -1 for a key never inserted;
 * - clear() forgets every key in O(1) (no per-slot work) and slots are reused from 0;
 * - keys whose hashes collide (same low bits, e.g. one line offset in every memory space)
 *   are all kept apart, even with the table holding `capacity` of them, and while it grows;
 * - a model check against a Map over random insert/find sequences and clears, with epochs
 *   that take the overlay past its initial room (images keep their offsets and bytes).
 * Growth itself (initial room, doubling) has its own tests in overlay-growth.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Overlay } from './overlay';
import { dramLineId, LINE_BYTES, LINE_WORDS, MAX_CONTROLLERS, mpbLineId, tasLineId } from './vocabulary';

describe('Overlay: find / insert', () => {
  it('an empty overlay finds nothing', () => {
    const o = new Overlay(16);
    expect(o.size).toBe(0);
    expect(o.capacity).toBe(16);
    for (const k of [0, 1, 0xffffffff, dramLineId(3, 4096)]) expect(o.find(k)).toBe(-1);
  });

  it('hands out image slots in insertion order and finds each key at its slot', () => {
    const o = new Overlay(8);
    const keys = [42, 0, 0xffffffff, mpbLineId(5, 64), tasLineId(7)];
    keys.forEach((k, i) => expect(o.insert(k)).toBe(i * LINE_BYTES));
    expect(o.size).toBe(keys.length);
    keys.forEach((k, i) => expect(o.find(k)).toBe(i * LINE_BYTES));
    expect(o.find(43)).toBe(-1);
    expect(o.find(1)).toBe(-1);
  });

  it('inserting a key twice returns its existing slot and does not grow the overlay', () => {
    const o = new Overlay(4);
    expect(o.insert(100)).toBe(0);
    expect(o.insert(200)).toBe(32);
    expect(o.insert(100)).toBe(0);
    expect(o.insert(200)).toBe(32);
    expect(o.size).toBe(2);
  });

  it('data and data32 are the same images; an image stays at its slot while others are added', () => {
    const o = new Overlay(4); // (read data / data32 after an insert: a growing overlay may replace them)
    const a = o.insert(dramLineId(0, 0));
    for (let i = 0; i < LINE_BYTES; i++) o.data[a + i] = i + 1;
    const b = o.insert(dramLineId(1, 0));
    o.data32.fill(0xdeadbeef, b >>> 2, (b >>> 2) + LINE_WORDS);
    expect(o.find(dramLineId(0, 0))).toBe(a);
    expect(Array.from(o.data.subarray(a, a + LINE_BYTES))).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    // little-endian view of bytes 1, 2, 3, 4 (the engine runs on little-endian hosts)
    expect(o.data32[a >>> 2]).toBe(0x04030201);
    expect(o.data32[(b >>> 2) + 7]).toBe(0xdeadbeef);
  });
});

describe('Overlay: clear', () => {
  it('forgets every key; slots are handed out from 0 again', () => {
    const o = new Overlay(8);
    for (let k = 0; k < 8; k++) o.insert(k * 1000 + 7);
    expect(o.size).toBe(8);
    o.clear();
    expect(o.size).toBe(0);
    for (let k = 0; k < 8; k++) expect(o.find(k * 1000 + 7)).toBe(-1);
    expect(o.insert(5007)).toBe(0); // was slot 5 before the clear
    expect(o.insert(99)).toBe(32);
    expect(o.find(5007)).toBe(0);
    expect(o.find(7)).toBe(-1);
    expect(o.size).toBe(2);
  });

  it('a key of an earlier epoch is not found even when its stale slot sits in a new probe chain', () => {
    const o = new Overlay(4); // table of 8 slots: keys equal modulo 8 share a home slot
    o.insert(8);
    o.insert(16);
    o.clear();
    o.insert(24); // lands in the home slot that held 8
    expect(o.find(8)).toBe(-1);
    expect(o.find(16)).toBe(-1);
    expect(o.find(24)).toBe(0);
  });

  it('does not touch the images (no per-slot work): the bytes stay, only the keys are forgotten', () => {
    const o = new Overlay(2);
    const a = o.insert(11);
    o.data.fill(0xab, a, a + LINE_BYTES);
    o.clear();
    expect(o.find(11)).toBe(-1);
    expect(o.data[a]).toBe(0xab);
  });

  it('keeps apart one line offset in every DRAM space, the MPB and test-and-set spaces (same low bits)', () => {
    // the hash is an odd multiplier, so the home slot depends only on the key's low bits: line
    // ids that differ only in their space bits (31..28) all collide
    const keys: number[] = [];
    for (let m = 0; m < MAX_CONTROLLERS; m++) keys.push(dramLineId(m, 0x40));
    keys.push(mpbLineId(0, 0x40), tasLineId(2));
    const o = new Overlay(keys.length);
    keys.forEach((k, i) => expect(o.insert(k)).toBe(i * LINE_BYTES));
    keys.forEach((k, i) => expect(o.find(k)).toBe(i * LINE_BYTES));
    expect(new Set(keys.map((k) => o.find(k))).size).toBe(keys.length);
    expect(o.find(dramLineId(0, 0x60))).toBe(-1);
  });

  it('keeps colliding keys apart while it grows (keys equal modulo every table size)', () => {
    const o = new Overlay(300); // grows 64 -> 128 -> 256 -> 300 lines; tables of at most 1024 slots
    for (let k = 0; k < 300; k++) {
      const at = o.insert(k * 1024 + 9);
      expect(at).toBe(k * LINE_BYTES);
      for (let w = 0; w < LINE_WORDS; w++) o.data32[(at >>> 2) + w] = k * 8 + w;
    }
    for (let k = 0; k < 300; k++) {
      expect(o.find(k * 1024 + 9)).toBe(k * LINE_BYTES);
      for (let w = 0; w < LINE_WORDS; w++) expect(o.data32[k * LINE_WORDS + w]).toBe(k * 8 + w);
    }
    expect(o.find(300 * 1024 + 9)).toBe(-1);
  });

  it('does not bring keys of an earlier epoch back when it grows', () => {
    const o = new Overlay(200);
    const old = Array.from({ length: 40 }, (_, k) => dramLineId(k % 4, k * 4096));
    old.forEach((k) => o.insert(k));
    o.clear();
    for (let k = 0; k < 150; k++) o.insert(mpbLineId(k % 24, Math.floor(k / 24) * 32)); // grows past 64 and 128 lines
    expect(o.size).toBe(150);
    for (const k of old) expect(o.find(k)).toBe(-1);
    expect(o.insert(old[7]!)).toBe(150 * LINE_BYTES); // a new line of this epoch
  });

  it('holds `capacity` keys on one probe chain and still ends a search for an absent key', () => {
    const cap = 64; // table of 128 slots: keys k * 128 + 5 share a home slot
    const o = new Overlay(cap);
    for (let k = 0; k < cap; k++) expect(o.insert(k * 128 + 5)).toBe(k * LINE_BYTES);
    expect(o.size).toBe(cap);
    for (let k = cap - 1; k >= 0; k--) expect(o.find(k * 128 + 5)).toBe(k * LINE_BYTES);
    expect(o.find(cap * 128 + 5)).toBe(-1);
    expect(o.find(5 + 2 ** 31)).toBe(-1);
    o.clear();
    for (let k = 0; k < cap; k++) expect(o.find(k * 128 + 5)).toBe(-1);
  });
});

describe('Overlay: model check', () => {
  type Op = { kind: 'insert'; key: number } | { kind: 'find'; key: number };
  const CAP = 150; // past the initial room of 64 lines: the overlay grows within an epoch
  // a key pool with many home-slot collisions (keys equal modulo 512), one line offset in every
  // DRAM space (equal low bits), plus arbitrary uint32s
  const key = fc.oneof(
    fc.integer({ min: 0, max: 199 }).map((k) => k * 512 + 3),
    fc.integer({ min: 0, max: 13 }).map((m) => dramLineId(m, 0x1000)),
    fc.integer({ min: 0, max: 0xffffffff }),
  );
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: key.map((k) => ({ kind: 'insert' as const, key: k })) },
    { weight: 2, arbitrary: key.map((k) => ({ kind: 'find' as const, key: k })) },
  );

  it('behaves like a Map from line id to slot, cleared at each epoch; images survive other inserts', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 400 }), { minLength: 1, maxLength: 4 }), (epochs) => {
        const o = new Overlay(CAP);
        const model = new Map<number, number>();
        const mark = (k: number, w: number) => (Math.imul(k, 2654435761) ^ (w * 0x5bd1e995)) >>> 0;
        const everInserted = new Set<number>();
        /** Every key of this epoch at its slot with its image; every key of an earlier epoch gone. */
        const check = () => {
          for (const [k, at] of model) {
            expect(o.find(k)).toBe(at);
            for (let w = 0; w < LINE_WORDS; w++) expect(o.data32[(at >>> 2) + w]).toBe(mark(k, w));
          }
          for (const k of everInserted) if (!model.has(k)) expect(o.find(k)).toBe(-1);
        };
        const ops = epochs.flatMap((list, e) => (e === 0 ? list : [null, ...list])); // null: clear()
        for (const x of ops) {
          if (x === null) {
            check();
            o.clear();
            model.clear();
          } else if (x.kind === 'insert') {
            if (!model.has(x.key) && model.size === CAP) continue; // the caller checks capacity
            const at = o.insert(x.key);
            if (model.has(x.key)) expect(at).toBe(model.get(x.key));
            else {
              expect(at).toBe(model.size * LINE_BYTES);
              model.set(x.key, at);
              everInserted.add(x.key);
              for (let w = 0; w < LINE_WORDS; w++) o.data32[(at >>> 2) + w] = mark(x.key, w); // the caller fills the image
            }
          } else {
            const at = o.find(x.key);
            expect(at).toBe(model.has(x.key) ? model.get(x.key) : -1);
          }
          expect(o.size).toBe(model.size);
        }
        check();
      }),
      { numRuns: 200 },
    );
  });
});
