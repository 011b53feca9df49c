/**
 * The TILE64 family: Tilera's 8 x 8 tiles of one core each, per-page caching regimes (homed,
 * read-only, user-managed), home L2 slices as a memory-side unit, a software-refilled data
 * TLB, raw network messages and DMA. Source: ../shared/reference/tile64-roarvm.md (paper 000).
 */
import type { ChipFamily, ChipPreset } from '../family';
import { Tile64Core } from './core';
import { commitFill } from './home-slice';
import { tile64Preset } from './preset';
import { resolveTile64, type Tile64Chip } from './resolve';
import { Tile64ChipSchema, type Tile64ChipConfig } from './schema';

export const tile64Family: ChipFamily<Tile64ChipConfig, Tile64Chip, Tile64Core> = {
  name: 'tile64',
  title: 'Tilera TILE64',
  schema: Tile64ChipSchema,
  resolve: resolveTile64,
  makeCore: (id, chip, views, seed) => new Tile64Core(id, chip, views, seed),
  floorplan: (chip) => ({
    width: chip.topo.width,
    height: chip.topo.height,
    coresPerTile: 1,
    tileStore: { label: 'L2 (home)', bytes: chip.config.caches.l2.sizeBytes },
    controllers: Array.from(chip.controllerTile, (tile, m) => ({ tile, label: `DDR${m}` })),
    domains: [],
    transactionBytes: chip.config.caches.l2.lineBytes,
    unitOccupancy: {
      label: 'home L2 slice',
      bytesPerTile: chip.homeSliceBytes, // home-slice.ts: tags[slots], stamps[slots], stamp counter
      slotsPerTile: chip.homeSets * chip.homeWays,
      tagOffsetWords: 0,
      bytesPerSlot: chip.config.caches.l2.lineBytes,
      note: `Homing: shared page k on tile k mod ${chip.topo.tiles}, each core's private pages on its own tile (the default page tables)`,
      tileNotes: Array.from({ length: chip.topo.tiles }, (_, t) => homeNotes(chip, t)),
    },
  }),
  // a WLOG_UNIT entry of this family: lineId = home tile, aux = physical line key
  commitUnit: (views, chip, home, key) => commitFill(views, chip, home, key),
};

/** What tile t is the home of in the default page tables (core.ts): shared page k on tile k mod tiles, its core's private pages. */
function homeNotes(chip: Tile64Chip, t: number): string[] {
  const tiles = chip.topo.tiles;
  const n = t < chip.sharedPages ? Math.ceil((chip.sharedPages - t) / tiles) : 0;
  const pages = Array.from({ length: Math.min(n, 3) }, (_, i) => t + i * tiles).join(', ');
  const shared = n === 0 ? 'no shared page' : `shared pages ${pages}${n > 3 ? `, … ${t + (n - 1) * tiles}` : ''} (${n} of ${chip.sharedPages})`;
  return [`home of ${shared}`, `and of core ${t}'s ${chip.privatePages} private pages`];
}

export const tile64Presets: Record<string, ChipPreset<Tile64ChipConfig>> = {
  tile64: {
    family: 'tile64',
    chip: tile64Preset,
    description: 'Tilera TILE64: 64 cores on an 8x8 mesh, 8 KB L1D + 64 KB L2 per tile, homed / read-only / user-managed pages, 600 MHz',
    source: '../shared/reference/tile64-roarvm.md section 1 (paper 000)',
  },
};

export { Tile64Core } from './core';
export { REGIME_NAMES, type RegimeName, type Tile64Chip } from './resolve';
export { Tile64ChipSchema, type Tile64ChipConfig } from './schema';
export { tile64Preset } from './preset';
export { Tlb } from './tlb';
