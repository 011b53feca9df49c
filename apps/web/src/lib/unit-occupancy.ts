/**
 * The fill of a family's memory-side unit, per tile, decoded from the committed unit state
 * (views.unit) as the family's FloorplanSpec.unitOccupancy describes it (e.g. TILE64's home L2
 * slices): no family knowledge here. Reading while workers run is fine: the committer writes
 * the state between epochs, so a read sees the last commit, at worst a slightly stale count.
 */
import type { FloorplanSpec, UnitOccupancySpec } from '@manycore/engine';

/** The family's per-tile unit whose fill the chip view shows, or null when it has none. */
export function unitOccupancyOf(spec: FloorplanSpec): UnitOccupancySpec | null {
  return spec.unitOccupancy ?? null;
}

/** Filled slots (non-zero tags) of tile `tile`'s part of the unit; 0 when the state is shorter. */
export function unitSlotsUsed(unit: Int32Array, u: UnitOccupancySpec, tile: number): number {
  const start = ((tile * u.bytesPerTile) >>> 2) + u.tagOffsetWords;
  const end = Math.min(start + u.slotsPerTile, unit.length);
  let used = 0;
  for (let i = start; i < end; i++) if (unit[i] !== 0) used++;
  return used;
}

/** Filled slots of every tile into `out` (one entry per tile); returns whether any entry changed. */
export function readUnitOccupancy(unit: Int32Array, u: UnitOccupancySpec, out: Int32Array): boolean {
  let changed = false;
  for (let t = 0; t < out.length; t++) {
    const used = unitSlotsUsed(unit, u, t);
    if (out[t] !== used) {
      out[t] = used;
      changed = true;
    }
  }
  return changed;
}

/** A summary of the fill over the tiles: tiles holding anything, slots filled in all, the fullest tile. */
export function unitSummary(used: ArrayLike<number>): { tilesUsed: number; total: number; max: number; maxTile: number } {
  let tilesUsed = 0;
  let total = 0;
  let max = 0;
  let maxTile = -1;
  for (let t = 0; t < used.length; t++) {
    const n = used[t]!;
    if (n > 0) tilesUsed++;
    total += n;
    if (n > max) {
      max = n;
      maxTile = t;
    }
  }
  return { tilesUsed, total, max, maxTile };
}

