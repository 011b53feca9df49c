import { describe, expect, it } from 'vitest';
import type { UnitOccupancySpec } from '@manycore/engine';
import { readUnitOccupancy, unitSlotsUsed, unitSummary } from './unit-occupancy';

// a hand-built unit: 3 tiles of 4 tag slots each, then 4 LRU stamps and a stamp counter (9 words, 36 bytes)
const spec: UnitOccupancySpec = { label: 'home L2 slice', bytesPerTile: 36, slotsPerTile: 4, tagOffsetWords: 0, bytesPerSlot: 64 };

function unit(): Int32Array {
  const u = new Int32Array(27);
  // tile 0: two lines (line numbers 0 and 7 stored as key + 1), stamps and counter non-zero
  u.set([1, 0, 8, 0, 5, 0, 6, 0, 6], 0);
  // tile 1: empty tags, but stamps and counter set (they must not count)
  u.set([0, 0, 0, 0, 3, 3, 3, 3, 9], 9);
  // tile 2: full, one tag negative (a line number past 2^31 - 1 still is a line)
  u.set([100, -5, 2, 3, 1, 2, 3, 4, 4], 18);
  return u;
}

describe('decoding a per-tile unit from the committed state (FloorplanSpec.unitOccupancy)', () => {
  it('counts the non-zero tags of each tile, never its stamps or counter', () => {
    const u = unit();
    expect([0, 1, 2].map((t) => unitSlotsUsed(u, spec, t))).toEqual([2, 0, 4]);
  });

  it('honours the tag offset inside a tile part', () => {
    // tags after a 2-word header per tile
    const s: UnitOccupancySpec = { ...spec, bytesPerTile: 24, slotsPerTile: 3, tagOffsetWords: 2 };
    const u = Int32Array.from([7, 7, 1, 0, 1, /* tile 1 */ 0, 0, 0, 0, 9]);
    expect(unitSlotsUsed(u, s, 0)).toBe(2);
    expect(unitSlotsUsed(u, s, 1)).toBe(1);
  });

  it('a state shorter than the description counts what is there (no read past the end)', () => {
    expect(unitSlotsUsed(unit().subarray(0, 20), spec, 2)).toBe(2); // words 18 and 19 only
    expect(unitSlotsUsed(new Int32Array(0), spec, 5)).toBe(0);
  });

  it('reads every tile into a reused array and says whether anything changed; sums it up', () => {
    const u = unit();
    const out = new Int32Array(3);
    expect(readUnitOccupancy(u, spec, out)).toBe(true);
    expect(Array.from(out)).toEqual([2, 0, 4]);
    expect(readUnitOccupancy(u, spec, out)).toBe(false);
    u[10] = 42; // a fill in tile 1
    expect(readUnitOccupancy(u, spec, out)).toBe(true);
    expect(Array.from(out)).toEqual([2, 1, 4]);
    expect(unitSummary(out)).toEqual({ tilesUsed: 3, total: 7, max: 4, maxTile: 2 });
    expect(unitSummary(new Int32Array(4))).toEqual({ tilesUsed: 0, total: 0, max: 0, maxTile: -1 });
  });
});
