/**
 * TILE64 chip resolution: a validated Tile64ChipConfig -> Tile64Chip (plain values).
 *
 * Address map (model): 32-bit addresses, 64 KB pages. Every core sees its private window at
 * privateBase (homed on its own tile; physical pages core x privatePages ...) and one shared
 * window at sharedBase (pages homed round-robin over the tiles, shared page k on tile k mod
 * tiles). Physical page p lives on controller p mod controllers (pages interleaved), at
 * p div controllers x 64 KB there. A page-table entry packs valid, regime, home tile and
 * physical page (pte* below); each core keeps its own copy (mapRegion changes its view only,
 * as an mmap in each process would).
 */
import type { ResolvedChip } from '../../chip';
import { resolveDram } from '../../dram/ddr';
import { makeTopology, tileAt, tileHops, coreTile } from '../../topology';
import { periodPsFromMHz } from '../../units';
import type { Tile64ChipConfig } from './schema';

export const PAGE_SHIFT_64K = 16;
export const PAGES = 1 << 16; // 4 GB of 64 KB pages
export const REGIME_HOMED = 0;
export const REGIME_READ_ONLY = 1;
export const REGIME_USER_MANAGED = 2;
export const REGIME_NAMES = ['homed', 'read-only', 'user-managed'] as const;
export type RegimeName = (typeof REGIME_NAMES)[number];

const PTE_VALID = 0x80000000;
export function pte(regime: number, home: number, physPage: number): number {
  return (PTE_VALID | (regime << 29) | (home << 21) | physPage) >>> 0;
}
export function pteValid(e: number): boolean {
  return (e & PTE_VALID) !== 0;
}
export function pteRegime(e: number): number {
  return (e >>> 29) & 3;
}
export function pteHome(e: number): number {
  return (e >>> 21) & 0xff;
}
export function ptePhys(e: number): number {
  return e & 0xffff;
}

/** The TILE64's resolved chip: the generic values plus what its cores and units need. */
export interface Tile64Chip extends ResolvedChip {
  family: 'tile64';
  config: Tile64ChipConfig;
  privatePages: number;
  sharedPages: number;
  /** Physical page of shared page 0 (private pages come first). */
  sharedPhysBase: number;
  l1LineShift: number;
  l2LineShift: number;
  remoteBaseCycles: number;
  remotePerHopCycles: number;
  dramAccessCycles: number;
  dramPerHopCycles: number;
  homeSets: number;
  homeWays: number;
  /** Bytes of one tile's home-L2 tag state in the unit region. */
  homeSliceBytes: number;
  udnSlotBytes: number;
}

export function resolveTile64(config: Tile64ChipConfig): Tile64Chip {
  const topo = makeTopology(config.mesh.width, config.mesh.height, 1);
  const controllers = config.memory.controllers.length;
  const controllerTile = Int32Array.from(config.memory.controllers.map((m) => tileAt(topo, m.x, m.y)));
  const nearestController = new Int32Array(topo.cores);
  for (let c = 0; c < topo.cores; c++) {
    let best = 0;
    for (let m = 1; m < controllers; m++)
      if (tileHops(topo, coreTile(topo, c), controllerTile[m]!) < tileHops(topo, coreTile(topo, c), controllerTile[best]!)) best = m;
    nearestController[c] = best;
  }
  const islandOfTile = new Int32Array(topo.tiles);
  config.islands.tiles.forEach((list, i) => list.forEach((t) => (islandOfTile[t] = i)));
  const vf = new Map(config.islands.vf.map((p) => [p.divisor, { freqMHz: p.freqMHz, volts: p.volts }]));
  const corePs = periodPsFromMHz(config.clocks.baseMHz / config.clocks.divisor);
  const cache = (c: Tile64ChipConfig['caches']['l1d'], writeBack: boolean) => ({
    sets: c.sizeBytes / (c.ways * c.lineBytes),
    ways: c.ways,
    hitCycles: c.hitCycles,
    writeBack,
    allocateOnWrite: writeBack,
  });
  const privatePages = config.pages.privateBytes >>> PAGE_SHIFT_64K;
  const sharedPages = config.pages.sharedBytes >>> PAGE_SHIFT_64K;
  const homeSlots = config.homing.homeSets * config.homing.homeWays;
  const homeSliceBytes = homeSlots * 8 + 8;
  const udnSlotBytes = 64;
  return {
    family: 'tile64',
    config,
    topo,
    // (doc) L1D write-through, L2 write-back with write-allocate
    l1d: cache(config.caches.l1d, false),
    l2: cache(config.caches.l2, true),
    missesInFlight: config.missesInFlight,
    wcbBytes: 0,
    meshPeriodPs: periodPsFromMHz(config.clocks.meshMHz),
    memPeriodPs: periodPsFromMHz(config.clocks.memoryMHz),
    hopPs: config.mesh.hopCycles * corePs,
    flitBytes: config.mesh.flitBytes,
    contentionWindowPs: Math.round(config.mesh.contentionWindowNs * 1000),
    controllers,
    controllerTile,
    nearestController,
    coreOverheadCycles: config.memory.accessCycles,
    dramAccessPs: 0,
    dram: resolveDram(config.memory.dram, periodPsFromMHz(config.clocks.memoryMHz)),
    mpbBytes: (topo.tiles + 1) * udnSlotBytes, // each tile's raw-message receive slots, one per sender, then its doorbell (Tile64Core.udnPost)
    mpbLocalCycles: 0,
    mpbRemoteCycles: 0,
    baseMHz: config.clocks.baseMHz,
    tileDivisors: new Int32Array(topo.tiles).fill(config.clocks.divisor),
    islandOfTile,
    islands: config.islands.tiles.length,
    vf,
    privateBase: 0x10000000,
    privateBytes: config.pages.privateBytes,
    sharedBase: 0x80000000,
    sharedBytes: config.pages.sharedBytes,
    tasRegisters: 0,
    poolBytes: config.memory.poolBytes,
    ctrlBytes: Math.ceil((topo.tiles * privatePages + sharedPages) / controllers) << PAGE_SHIFT_64K,
    unitStateBytes: topo.tiles * homeSliceBytes,
    privatePages,
    sharedPages,
    sharedPhysBase: topo.tiles * privatePages,
    l1LineShift: Math.log2(config.caches.l1d.lineBytes),
    l2LineShift: Math.log2(config.caches.l2.lineBytes),
    remoteBaseCycles: config.homing.remoteBaseCycles,
    remotePerHopCycles: config.homing.remotePerHopCycles,
    dramAccessCycles: config.memory.accessCycles,
    dramPerHopCycles: config.memory.perHopCycles,
    homeSets: config.homing.homeSets,
    homeWays: config.homing.homeWays,
    homeSliceBytes,
    udnSlotBytes,
  };
}
