/**
 * SCC chip resolution: a validated SccChipConfig -> SccChip, the plain values every component
 * receives (periods in ps, controller tiles, per-core LUTs, islands).
 * Invariants: every number a component needs is here; nothing below reads raw config.
 */
import type { ResolvedCache, ResolvedChip } from '../../chip';
import { resolveDram } from '../../dram/ddr';
import { ExperimentError } from '../../experiment';
import { makeTopology, tileAt } from '../../topology';
import { periodPsFromMHz } from '../../units';
import { ATTR_MPBT, LUT_ENTRIES, PAGE_BYTES, TARGET_DRAM, TARGET_MPB, lutEntry } from '../../vocabulary';
import { CONTROLLER_BYTES, nearestControllers } from './mesh';
import type { SccChipConfig } from './schema';

/** The SCC's resolved chip: the generic values plus the per-core LUTs and the MPB window. */
export interface SccChip extends ResolvedChip {
  family: 'scc';
  config: SccChipConfig;
  luts: Uint32Array; // cores * 256 entries
  mpbBase: number; // core address of tile 0's MPB; tile t at mpbBase + t * MPB_STRIDE
}

function resolveCache(c: SccChipConfig['caches']['l1d']): ResolvedCache {
  return {
    sets: c.sizeBytes / (c.ways * c.lineBytes),
    ways: c.ways,
    hitCycles: c.hitCycles,
    writeBack: c.writePolicy === 'write-back',
    allocateOnWrite: c.allocateOnWrite,
  };
}

export function resolveScc(config: SccChipConfig): SccChip {
  const topo = makeTopology(config.mesh.width, config.mesh.height, config.coresPerTile);
  const controllers = config.memory.controllers.length;
  const controllerTile = Int32Array.from(config.memory.controllers.map((m) => tileAt(topo, m.x, m.y)));
  const nearestController = nearestControllers(topo, controllerTile);
  const islandOfTile = new Int32Array(topo.tiles);
  config.islands.tiles.forEach((list, i) => list.forEach((t) => (islandOfTile[t] = i)));
  const vf = new Map(config.islands.vf.map((p) => [p.divisor, { freqMHz: p.freqMHz, volts: p.volts }]));
  const tileDivisors = Int32Array.from(config.clocks.tileDivisors ?? new Array<number>(topo.tiles).fill(config.clocks.divisor));

  // LUTs: private pages at the nearest controller (each core its own slice), shared pages in
  // groups across controllers (scc.md 7), one page per tile MPB (MPBT by default).
  const lut = config.lut;
  const coresPerCtrl = new Int32Array(controllers);
  const privateSlot = new Int32Array(topo.cores);
  for (let c = 0; c < topo.cores; c++) privateSlot[c] = coresPerCtrl[nearestController[c]!]!++;
  const sharedPagesPerCtrl = Math.ceil(lut.sharedPages / lut.sharedGroupPages / controllers) * lut.sharedGroupPages;
  const maxPrivate = Math.max(...coresPerCtrl) * lut.privatePages;
  const pagesPerCtrl = maxPrivate + sharedPagesPerCtrl;
  if (pagesPerCtrl * PAGE_BYTES > CONTROLLER_BYTES)
    throw new ExperimentError(`chip.lut: ${pagesPerCtrl} pages per controller exceed the ${CONTROLLER_BYTES / 1024 ** 3} GB a controller can address`);
  const mpbPages = Math.ceil(topo.tiles / MPB_TILES_PER_PAGE);
  const luts = new Uint32Array(topo.cores * LUT_ENTRIES);
  for (let c = 0; c < topo.cores; c++) {
    const base = c * LUT_ENTRIES;
    const ctrl = nearestController[c]!;
    for (let p = 0; p < lut.privatePages; p++)
      luts[base + p] = lutEntry(TARGET_DRAM, 0, ctrl, privateSlot[c]! * lut.privatePages + p);
    for (let s = 0; s < lut.sharedPages; s++) {
      const group = Math.floor(s / lut.sharedGroupPages);
      const mc = group % controllers;
      const within = Math.floor(group / controllers) * lut.sharedGroupPages + (s % lut.sharedGroupPages);
      luts[base + lut.sharedBasePage + s] = lutEntry(TARGET_DRAM, 0, mc, maxPrivate + within);
    }
    // MPBs: tile t at mpbBase + t x 16 KB, so one 16 MB page covers 1024 tiles
    for (let p = 0; p < mpbPages; p++) luts[base + lut.mpbBasePage + p] = lutEntry(TARGET_MPB, ATTR_MPBT, 0, p * MPB_TILES_PER_PAGE);
  }
  return {
    family: 'scc',
    config,
    topo,
    l1d: resolveCache(config.caches.l1d),
    l2: config.l2Enabled ? resolveCache(config.caches.l2) : null,
    missesInFlight: config.missesInFlight,
    wcbBytes: config.writeCombineBytes,
    meshPeriodPs: periodPsFromMHz(config.clocks.meshMHz),
    memPeriodPs: periodPsFromMHz(config.clocks.memoryMHz),
    hopPs: config.mesh.hopMeshCycles * periodPsFromMHz(config.clocks.meshMHz),
    flitBytes: config.mesh.flitBytes,
    contentionWindowPs: Math.round(config.mesh.contentionWindowNs * 1000),
    controllers,
    controllerTile,
    nearestController,
    coreOverheadCycles: config.memory.coreOverheadCycles,
    dramAccessPs: config.memory.accessMemCycles * periodPsFromMHz(config.clocks.memoryMHz),
    dram: resolveDram(config.memory.dram, periodPsFromMHz(config.clocks.memoryMHz)),
    mpbBytes: config.mpb.bytesPerTile,
    mpbLocalCycles: config.mpb.localAccessCycles,
    mpbRemoteCycles: config.mpb.remoteAccessCycles,
    baseMHz: config.clocks.baseMHz,
    tileDivisors,
    islandOfTile,
    islands: config.islands.tiles.length,
    vf,
    luts,
    privateBase: 0,
    privateBytes: lut.privatePages * PAGE_BYTES,
    sharedBase: lut.sharedBasePage * PAGE_BYTES,
    sharedBytes: lut.sharedPages * PAGE_BYTES,
    mpbBase: lut.mpbBasePage * PAGE_BYTES,
    tasRegisters: config.testAndSetRegisters,
    poolBytes: config.memory.poolBytes,
    ctrlBytes: pagesPerCtrl * PAGE_BYTES,
  };
}

/** Address stride between two tiles' MPBs in the core address space (the SCC MPB size). */
export const MPB_STRIDE = 16384;
export const MPB_TILES_PER_PAGE = PAGE_BYTES / MPB_STRIDE;

/** The chip as an SCC chip; throws for another family (a workload's SCC-only helper was given another chip). */
export function asScc(chip: ResolvedChip): SccChip {
  if (chip.family !== 'scc') throw new ExperimentError(`an SCC-family chip is needed here, got a ${chip.family} chip`);
  return chip as SccChip;
}
