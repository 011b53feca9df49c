/**
 * The SCC family: Intel's Single-chip Cloud Computer and meshes built from its tiles (2 P54C
 * cores, a 16 KB message-passing buffer and a router per tile; private non-coherent caches;
 * per-core LUTs; test-and-set registers; voltage islands). Source: ../shared/reference/scc.md.
 */
import type { ChipFamily, ChipPreset } from '../family';
import { meshPreset, sccPreset } from './preset';
import { SccCore } from './core';
import { resolveScc, type SccChip } from './resolve';
import { SccChipSchema, type SccChipConfig, type SccChipInput } from './schema';

export const sccFamily: ChipFamily<SccChipConfig, SccChip, SccCore> = {
  name: 'scc',
  title: 'Intel SCC and SCC-tile meshes',
  schema: SccChipSchema,
  resolve: resolveScc,
  makeCore: (id, chip, views, seed) => new SccCore(id, chip, views, seed),
  floorplan: (chip) => ({
    width: chip.topo.width,
    height: chip.topo.height,
    coresPerTile: chip.topo.coresPerTile,
    tileStore: { label: 'MPB', bytes: chip.mpbBytes },
    controllers: Array.from(chip.controllerTile, (tile, m) => ({ tile, label: `MC${m}` })),
    domains: chip.config.islands.tiles.map((tiles, i) => ({ label: `island ${i}`, tiles })),
    transactionBytes: 32,
  }),
};

/** The family's presets (chips/registry.ts merges every family's). */
export const sccPresets: Record<string, ChipPreset<SccChipInput>> = {
  scc: {
    family: 'scc',
    chip: sccPreset,
    description: 'Intel SCC: 48 P54C cores on a 6x4 mesh, 16 KB MPB per tile, no cache coherence, 533/800/800',
    source: '../shared/reference/scc.md section 1',
  },
  mesh: {
    family: 'scc',
    chip: meshPreset,
    description:
      'SCC tiles on any mesh (8x8 unless mesh.width/mesh.height say otherwise, e.g. 32x16 = 1024 cores): islands, controllers, registers and LUT derived from the size',
    source: 'the scc preset (../shared/reference/scc.md section 1); derivation: chips/scc/mesh.ts (model)',
  },
};

export { SccCore } from './core';
export { MPB_STRIDE, MPB_TILES_PER_PAGE, asScc, type SccChip } from './resolve';
export { SccChipSchema, type SccChipConfig, type SccChipInput } from './schema';
export { meshPreset, sccPreset } from './preset';
export {
  CONTROLLER_BYTES,
  MESH_VARIANTS,
  deriveLut,
  deriveMesh,
  islands2x2,
  meshControllers,
  nearestControllers,
  type LutLayout,
  type MeshParts,
  type MeshVariant,
} from './mesh';
