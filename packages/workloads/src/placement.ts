/** Placement helpers shared by workloads: cores by hop distance. */
import { asScc, coreHops, coreTile, tileHops, WorkloadParamError, type ResolvedChip } from '@manycore/engine';

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
  return sharedRunOnController(chip, ctrl).addr;
}

/**
 * The first run of consecutive shared pages that the LUT maps to controller `ctrl`: its address
 * and its length in bytes (a group of sharedGroupPages 16 MB pages, or fewer at the end).
 */
export function sharedRunOnController(chip: ResolvedChip, ctrl: number): { addr: number; bytes: number } {
  const lut = asScc(chip).config.lut;
  const group = lut.sharedGroupPages;
  for (let s = 0; s < lut.sharedPages; s++) {
    const g = Math.floor(s / group);
    if (g % chip.controllers === ctrl) return { addr: chip.sharedBase + s * (1 << 24), bytes: Math.min(group, lut.sharedPages - s) * (1 << 24) };
  }
  throw new Error(`no shared page maps to controller ${ctrl}`);
}

/**
 * Disjoint core pairs whose tiles are exactly `hops` hops apart, as many as the mesh allows.
 * hops 0: the two cores of each tile. Otherwise tiles are matched (a maximum matching, found
 * by a small search in tile order) and each tile pair gives two core pairs: first the even
 * cores of every tile pair, then the odd ones. Pair 0 at hops 1, 2, 3, 8 is core 0 with core
 * 2, 4, 6, 46 on the SCC.
 */
export function pairsAtHops(chip: ResolvedChip, hops: number): [number, number][] {
  const topo = chip.topo;
  const cpt = topo.coresPerTile;
  if (hops === 0) {
    if (cpt < 2) return [];
    const out: [number, number][] = [];
    for (let k = 0; k + 1 < cpt; k += 2) for (let t = 0; t < topo.tiles; t++) out.push([t * cpt + k, t * cpt + k + 1]);
    return out;
  }
  const n = topo.tiles;
  const mate = new Int32Array(n).fill(-1);
  let best: Int32Array = mate.slice();
  let bestCount = 0;
  let budget = 200_000;
  const search = (t: number, count: number): boolean => {
    if (--budget < 0) return true;
    while (t < n && mate[t]! >= 0) t++;
    if (t >= n) {
      if (count > bestCount) {
        bestCount = count;
        best = mate.slice();
      }
      return count * 2 === n;
    }
    // an upper bound: every remaining tile matched
    let left = 0;
    for (let u = t; u < n; u++) if (mate[u]! < 0) left++;
    if (count + Math.floor(left / 2) <= bestCount) return false;
    for (let u = t + 1; u < n; u++) {
      if (mate[u]! >= 0 || tileHops(topo, t, u) !== hops) continue;
      mate[t] = u;
      mate[u] = t;
      if (search(t + 1, count + 1)) return true;
      mate[t] = -1;
      mate[u] = -1;
    }
    mate[t] = -2; // leave t unmatched
    const done = search(t + 1, count);
    mate[t] = -1;
    return done;
  };
  search(0, 0);
  const tilePairs: [number, number][] = [];
  for (let t = 0; t < n; t++) if (best[t]! > t) tilePairs.push([t, best[t]!]);
  const out: [number, number][] = [];
  for (let k = 0; k < cpt; k++) for (const [a, b] of tilePairs) out.push([a * cpt + k, b * cpt + k]);
  return out;
}

/** The error for a hop distance no core has from core 0: names the farthest there is. */
export function farthest(hops: number, chip: ResolvedChip): WorkloadParamError {
  const max = maxHopsFromTile(chip, coreTile(chip.topo, 0));
  return new WorkloadParamError(`hops=${hops} but no core is ${hops} hops from core 0 on this chip (the farthest is ${max})`, 'hops', `at most ${max}: no core is farther from core 0 on this chip`);
}
