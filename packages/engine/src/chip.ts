/**
 * The resolved chip: the plain values every generic component (weave, commit, power, layout,
 * results) receives from a chip family, whatever the family. A family resolves its own
 * validated config into one of these (chips/<family>/resolve.ts) and may add fields of its
 * own (the SCC's LUTs); generic code reads only what is declared here.
 * Units: periods and latencies in ps, sizes in bytes.
 */
import type { PowerConfig, VfPoint } from './chip-schema';
import type { DramTiming } from './dram/ddr';
import type { Topology } from './topology';
import { periodPsFromMHz } from './units';

export interface ResolvedCache {
  sets: number;
  ways: number;
  hitCycles: number;
  writeBack: boolean;
  allocateOnWrite: boolean;
}

/** The part of every family's config that generic code reads (power domains, clocks). */
export interface ChipConfigBase {
  name: string;
  power: PowerConfig;
  islands: { tiles: number[][]; vf: VfPoint[] };
  clocks: { baseMHz: number; divisor: number; tileDivisors?: number[]; meshMHz: number; memoryMHz: number };
}

export interface ResolvedChip {
  /** The chip family (chips/<family>/): decides the core class, address map and floorplan. */
  family: string;
  config: ChipConfigBase;
  topo: Topology;
  l1d: ResolvedCache;
  l2: ResolvedCache | null;
  missesInFlight: number;
  wcbBytes: number;
  meshPeriodPs: number;
  memPeriodPs: number;
  hopPs: number; // one hop, one direction
  flitBytes: number;
  contentionWindowPs: number;
  controllers: number;
  controllerTile: Int32Array; // controller -> tile
  nearestController: Int32Array; // core -> controller of its private memory
  coreOverheadCycles: number;
  dramAccessPs: number; // memory-clock part of a DRAM access
  /** Each controller's DRAM: banks, rows and bus timing (dram/ddr.ts), or a fixed service time. */
  dram: DramTiming;
  /** Bytes of each tile's on-chip buffer (the SCC's MPB; 0 when the family has none). */
  mpbBytes: number;
  mpbLocalCycles: number;
  mpbRemoteCycles: number;
  baseMHz: number;
  tileDivisors: Int32Array; // initial divisor per tile
  islandOfTile: Int32Array;
  islands: number;
  vf: Map<number, { freqMHz: number; volts: number }>;
  privateBase: number; // core address of private memory
  privateBytes: number;
  sharedBase: number;
  sharedBytes: number;
  tasRegisters: number;
  poolBytes: number;
  ctrlBytes: number; // address space per controller
  /** Bytes of state the family's memory-side units keep in the shared buffer (committer-owned; 0 or absent: none). */
  unitStateBytes?: number;
  /**
   * Pages per core whose protection levels the shared state holds for the views (layout.ts
   * `pages`, page-protection.ts); a range with more pages keeps its levels private (not shown).
   * 0 or absent: no page regions (the state keeps its size).
   */
  protectedPagesPerCore?: number;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep-merges overrides onto a base (arrays replace). */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? deepMerge(base[k], v) : v;
  return out;
}

/** Period of a core clock at a divisor, in ps (1600/3 MHz -> 1875 ps). */
export function corePeriodPs(chip: ResolvedChip, divisor: number): number {
  return periodPsFromMHz(chip.baseMHz / divisor);
}
