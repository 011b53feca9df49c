/** Placement helpers shared by workloads: cores by hop distance. */
import { coreHops, coreTile, tileHops, type ResolvedChip } from '@manycore/engine';

/** The lowest-numbered core whose tile is `hops` hops from `tile`, or -1. */
export function coreAtHopsFromTile(chip: ResolvedChip, tile: number, hops: number): number {
  for (let c = 0; c < chip.topo.cores; c++) if (tileHops(chip.topo, coreTile(chip.topo, c), tile) === hops) return c;
  return -1;
}

/** The lowest-numbered core other than `from` that is `hops` hops from core `from`, or -1. */
export function coreAtHopsFromCore(chip: ResolvedChip, from: number, hops: number): number {
  for (let c = 0; c < chip.topo.cores; c++) if (c !== from && coreHops(chip.topo, from, c) === hops) return c;
  return -1;
}

/** Largest hop distance from a tile to any tile. */
export function maxHopsFromTile(chip: ResolvedChip, tile: number): number {
  let m = 0;
  for (let t = 0; t < chip.topo.tiles; t++) m = Math.max(m, tileHops(chip.topo, tile, t));
  return m;
}

/** Core address of the shared DRAM pages that the LUT maps to controller `ctrl`. */
export function sharedAddrOnController(chip: ResolvedChip, ctrl: number): number {
  const lut = chip.config.lut;
  const group = lut.sharedGroupPages;
  for (let s = 0; s < lut.sharedPages; s++) {
    const g = Math.floor(s / group);
    if (g % chip.controllers === ctrl) return chip.sharedBase + s * (1 << 24);
  }
  throw new Error(`no shared page maps to controller ${ctrl}`);
}
