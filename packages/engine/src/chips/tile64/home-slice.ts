/**
 * The home L2 slices, a memory-side unit: which lines of homed pages each tile's L2 holds,
 * as the other tiles see it. A non-home access to a homed line is served by its home tile's
 * L2 when the line is there (about 40 cycles) and from memory through the home otherwise
 * (paper 000 Table 3).
 *
 * Determinism: during an epoch cores only read this state (`present`); a fill is a WLOG_UNIT
 * request that the committer applies (`commitFill`) in (visible time, core, sequence) order,
 * so every thread sees the same slices. A core's own fills of this epoch are visible to it at
 * once through its private RecentFills table. Geometry: homeSets x homeWays lines of the
 * L2's line size per tile, LRU. State per tile in views.unit (Int32): tags[slots] (key + 1,
 * 0 = empty), stamps[slots], then the tile's stamp counter. Keys are physical line numbers.
 */
import type { Views } from '../../layout';
import type { Tile64Chip } from './resolve';

function base(chip: Tile64Chip, tile: number): number {
  return (tile * chip.homeSliceBytes) >>> 2;
}

/** Is line `key` in tile `tile`'s home L2? Read-only; called on every non-home access. */
export function present(v: Views, chip: Tile64Chip, tile: number, key: number): boolean {
  const b = base(chip, tile);
  const set = key & (chip.homeSets - 1);
  const tags = v.unit;
  for (let w = 0; w < chip.homeWays; w++) if (tags[b + set * chip.homeWays + w] === key + 1) return true;
  return false;
}

/** Committer: line `key` is filled into (or touched in) tile `tile`'s home L2. */
export function commitFill(v: Views, chip: Tile64Chip, tile: number, key: number): void {
  const b = base(chip, tile);
  const slots = chip.homeSets * chip.homeWays;
  const set = key & (chip.homeSets - 1);
  const u = v.unit;
  const stampAt = b + 2 * slots;
  const stamp = u[stampAt]! + 1;
  u[stampAt] = stamp;
  let victim = -1;
  for (let w = 0; w < chip.homeWays; w++) {
    const s = set * chip.homeWays + w;
    if (u[b + s] === key + 1) {
      u[b + slots + s] = stamp;
      return;
    }
    if (victim < 0 || u[b + slots + s]! < u[b + slots + victim]!) victim = s;
  }
  u[b + victim] = key + 1;
  u[b + slots + victim] = stamp;
}

/** Lines this core filled into home slices during the current epoch (direct-mapped, 64 entries). */
export class RecentFills {
  private readonly keys = new Float64Array(64).fill(-1);
  private readonly epochs = new Float64Array(64);
  private epoch = 1;

  clear(): void {
    this.epoch++;
  }
  has(tile: number, key: number): boolean {
    const i = (key ^ (tile * 0x9e37)) & 63;
    return this.epochs[i] === this.epoch && this.keys[i] === tile * 4294967296 + key;
  }
  add(tile: number, key: number): void {
    const i = (key ^ (tile * 0x9e37)) & 63;
    this.epochs[i] = this.epoch;
    this.keys[i] = tile * 4294967296 + key;
  }
}
