/**
 * SCC-tile meshes of any size: the parts of an SCC-family config that follow from the mesh
 * size (voltage islands, memory controllers, test-and-set registers, the LUT), and the mesh
 * sizes the web lab and the CLI offer (MESH_VARIANTS, one definition for both).
 *
 * The schema (schema.ts) derives a part only when the config does not give it: the `scc`
 * preset gives every part explicitly (its numbers come from the SCC documentation), the `mesh`
 * preset gives none, so `--preset mesh --chip mesh.width=32 --chip mesh.height=16` is a whole
 * 1024-core chip. Derived values land in the validated config, which results echo (results.chip).
 * deriveMesh(6, 4) gives exactly the SCC preset's islands, controllers, registers and LUT.
 *
 * (doc) = SCC documentation (../shared/reference/scc.md), (model) = a choice of this lab for
 * meshes the SCC never had, with its reasoning.
 */
import { makeTopology, tileAt, tileHops, type Topology } from '../../topology';
import { LINE_BYTES, LUT_ENTRIES, MAX_CONTROLLERS, PAGE_BYTES, SPACE_SHIFT } from '../../vocabulary';

/** Address space of one memory controller: 2^28 lines of 32 B in a line id (vocabulary.ts) = 8 GB. */
export const CONTROLLER_BYTES = 2 ** SPACE_SHIFT * LINE_BYTES;
/** 16 MB LUT pages one controller can back. */
export const CONTROLLER_PAGES = CONTROLLER_BYTES / PAGE_BYTES;
/** Bytes of MPB address space per tile (the SCC's 16 KB MPB): one 16 MB LUT page maps 1024 tiles. */
const MPB_TILE_STRIDE = 16384;

/** The SCC preset's LUT layout (doc, scc.md 7): these pages stay where the SCC has them on every mesh. */
export const SCC_LUT = {
  /** private memory of a core from page 0; at most the SCC preset's 41 pages (656 MB) */
  maxPrivatePages: 41,
  sharedBasePage: 0x80,
  /** the shared window runs from 0x80 up to the MPB pages at 0xC0 */
  sharedWindowPages: 0x40,
  /** pages per shared group: one group per controller, 15 pages each on the SCC (4 x 15 = 60) */
  maxSharedGroupPages: 15,
  mpbBasePage: 0xc0,
} as const;

export interface LutLayout {
  privatePages: number;
  sharedBasePage: number;
  sharedPages: number;
  sharedGroupPages: number;
  mpbBasePage: number;
}

export interface MeshParts {
  islands: number[][];
  controllers: { x: number; y: number }[];
  testAndSetRegisters: number;
  lut: LutLayout;
}

/** Voltage islands of 2 x 2 tiles (doc: the SCC's 6 islands of 4 tiles; model: the same on any mesh, smaller at odd edges). */
export function islands2x2(width: number, height: number): number[][] {
  const out: number[][] = [];
  for (let by = 0; by < height; by += 2)
    for (let bx = 0; bx < width; bx += 2) {
      const list: number[] = [];
      for (let y = by; y < Math.min(by + 2, height); y++) for (let x = bx; x < Math.min(bx + 2, width); x++) list.push(y * width + x);
      out.push(list);
    }
  return out;
}

/**
 * Memory controllers on the left and right edges (doc: the SCC has 4, at (0,0), (5,0), (0,2),
 * (5,2): one per side for every 2 rows). Model: one per side per 2 rows on any mesh, evenly
 * spread down each edge, at most MAX_CONTROLLERS in all (a line id has 4 bits of space: 14
 * DRAM controllers besides the MPB and test-and-set spaces), so 7 per side; a one-column mesh
 * has one side. Ordered by row, then column, as the SCC numbers them.
 */
export function meshControllers(width: number, height: number): { x: number; y: number }[] {
  const sides = width > 1 ? [0, width - 1] : [0];
  const perSide = Math.max(1, Math.min(Math.floor(MAX_CONTROLLERS / sides.length), Math.floor(height / 2)));
  const out: { x: number; y: number }[] = [];
  for (const x of sides) for (let i = 0; i < perSide; i++) out.push({ x, y: Math.floor((i * height) / perSide) });
  return out.sort((a, b) => a.y - b.y || a.x - b.x);
}

/** The controller of each core's private memory: the nearest by hops, ties to the lower index (the SCC's quadrants). */
export function nearestControllers(topo: Topology, controllerTile: ArrayLike<number>): Int32Array {
  const out = new Int32Array(topo.cores);
  for (let tile = 0; tile < topo.tiles; tile++) {
    let best = 0;
    for (let m = 1; m < controllerTile.length; m++) if (tileHops(topo, tile, controllerTile[m]!) < tileHops(topo, tile, controllerTile[best]!)) best = m;
    for (let k = 0; k < topo.coresPerTile; k++) out[tile * topo.coresPerTile + k] = best;
  }
  return out;
}

/** Shared pages each controller backs: whole groups, spread round-robin over the controllers (resolve.ts). */
export function sharedPagesPerController(sharedPages: number, sharedGroupPages: number, controllers: number): number {
  return Math.ceil(sharedPages / sharedGroupPages / controllers) * sharedGroupPages;
}

/**
 * The LUT of a mesh, keeping what `given` fixes and deriving the rest (model, after the SCC
 * preset's layout, scc.md 7):
 * - MPBs at page 0xC0 as on the SCC, one page per 1024 tiles (16 KB apart);
 * - shared window at page 0x80: one group of consecutive pages per controller, 15 pages as on
 *   the SCC while the groups fit in the 64 pages below the MPBs (14 controllers: 4 each);
 * - private pages per core from page 0: the SCC preset's 41 (656 MB), or fewer, so that the
 *   busiest controller (the most cores nearest to it) backs all its cores' private pages and
 *   its shared groups in its 8 GB. Returns an error message when even one page each does not fit.
 */
export function deriveLut(topo: Topology, controllerTile: ArrayLike<number>, given: Partial<LutLayout> = {}): LutLayout | string {
  const controllers = controllerTile.length;
  const mpbBasePage = given.mpbBasePage ?? SCC_LUT.mpbBasePage;
  const sharedBasePage = given.sharedBasePage ?? SCC_LUT.sharedBasePage;
  const sharedGroupPages = given.sharedGroupPages ?? Math.max(1, Math.min(SCC_LUT.maxSharedGroupPages, Math.floor(SCC_LUT.sharedWindowPages / controllers)));
  const sharedPages = given.sharedPages ?? Math.min(controllers * sharedGroupPages, SCC_LUT.sharedWindowPages);
  let privatePages = given.privatePages;
  if (privatePages === undefined) {
    const perCtrl = new Int32Array(controllers);
    for (const m of nearestControllers(topo, controllerTile)) perCtrl[m]! += 1;
    const busiest = Math.max(...perCtrl);
    const shared = sharedPages > 0 ? sharedPagesPerController(sharedPages, sharedGroupPages, controllers) : 0;
    const fit = Math.floor((CONTROLLER_PAGES - shared) / Math.max(1, busiest));
    if (fit < 1)
      return `a ${topo.width}x${topo.height} mesh puts ${busiest} cores' private memory on one controller: with ${shared} shared pages there, not even one 16 MB page each fits in its ${CONTROLLER_BYTES / 1024 ** 3} GB`;
    // private pages start at page 0 and stop below the shared window and the MPB pages
    privatePages = Math.min(SCC_LUT.maxPrivatePages, fit, sharedPages > 0 ? sharedBasePage : LUT_ENTRIES, mpbBasePage);
  }
  return { privatePages, sharedBasePage, sharedPages, sharedGroupPages, mpbBasePage };
}

/** Every part of an SCC-family config that follows from the mesh size (see the functions above). */
export function deriveMesh(width: number, height: number, coresPerTile = 2): MeshParts {
  const topo = makeTopology(width, height, coresPerTile);
  const controllers = meshControllers(width, height);
  const lut = deriveLut(
    topo,
    controllers.map((m) => tileAt(topo, m.x, m.y)),
  );
  if (typeof lut === 'string') throw new Error(lut);
  return {
    islands: islands2x2(width, height),
    controllers,
    // one test-and-set register per core (doc: the SCC has 48, one per core)
    testAndSetRegisters: topo.cores,
    lut,
  };
}

/** Pages of MPB address space a mesh needs (one per 1024 tiles). */
export function mpbPages(tiles: number): number {
  return Math.ceil(tiles / (PAGE_BYTES / MPB_TILE_STRIDE));
}

/** A mesh size offered by the web lab's chip menu and by the CLI: a preset and its overrides. */
export interface MeshVariant {
  id: string;
  label: string;
  preset: string;
  overrides: { mesh?: { width: number; height: number } };
}

function meshVariant(width: number, height: number): MeshVariant {
  return {
    id: `mesh-${width}x${height}`,
    label: `${width}×${height} tiles, ${width * height * 2} cores`,
    preset: 'mesh',
    overrides: { mesh: { width, height } },
  };
}

/** The mesh sizes offered by the web lab and the CLI (ids are stable: share links and tests use them). */
export const MESH_VARIANTS: readonly MeshVariant[] = [
  { id: 'scc', label: 'SCC: 6×4 tiles, 48 cores', preset: 'scc', overrides: {} },
  meshVariant(8, 8),
  meshVariant(16, 8),
  meshVariant(16, 16),
  meshVariant(32, 16),
];
