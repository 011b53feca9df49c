/**
 * The chip-family seam: what a family of chips (chips/<family>/) gives the engine.
 *
 * A family owns everything that differs between manycore designs: its config schema and
 * presets, how a config resolves into plain values (topology, clocks, memory units, power
 * domains), its core class (address map, cache hierarchy policy per level, family-specific
 * operations offered to workloads as methods of that class), and the floorplan the web draws.
 * The generic engine (weave, commit, power, layout, scheduler, results) only ever sees the
 * ResolvedChip and CoreBase contracts.
 *
 * Invariants
 * - One family per run: the scheduler creates every core through `makeCore`, so all hot call
 *   sites see one core class (monomorphic).
 * - No family imports another (lint rule manycore/no-cross-family-import); shared code lives in
 *   the engine's generic modules.
 * - `resolve` is pure: the same config gives the same ResolvedChip on every thread.
 */
import type { z } from 'zod';
import type { ResolvedChip } from '../chip';
import type { CoreBase } from '../core';
import type { Views } from '../layout';

/** A named, sourced configuration of a family. */
export interface ChipPreset<C = unknown> {
  family: string;
  chip: C;
  description: string;
  /** Where the numbers come from (a reference note, a datasheet). */
  source: string;
}

/**
 * How the web draws a chip: tiles on a grid, what each tile holds, where the memory units
 * sit, which power domains exist. Plain data from the family; the web adds no family
 * knowledge of its own (world units are tiles: a tile is 1 x 1).
 */
export interface FloorplanSpec {
  /** Grid of tiles (routers at each tile, X-Y links between neighbours). */
  width: number;
  height: number;
  coresPerTile: number;
  /** What a tile holds besides its cores, drawn below them (e.g. "MPB 16 KB", "L2 64 KB"). */
  tileStore: { label: string; bytes: number } | null;
  /** Memory controllers: the tile whose router each attaches to, and a label. */
  controllers: { tile: number; label: string }[];
  /** Power domains drawn as outlines (islands of tiles), or none. */
  domains: { label: string; tiles: number[] }[];
  /** Bytes per memory transaction the controllers count (for bandwidth read-outs). */
  transactionBytes: number;
  /** A memory-side unit with a part per tile whose fill the web can show live; absent: none. */
  unitOccupancy?: UnitOccupancySpec;
}

/**
 * How to count the filled slots of each tile's part of a memory-side unit (e.g. TILE64's home
 * L2 slices) in the committed unit state (views.unit, Int32 words): tile t's part is the
 * `bytesPerTile` bytes from t x bytesPerTile; its tags are the `slotsPerTile` words from word
 * `tagOffsetWords` of the part on, a non-zero tag being a filled slot. Plain data: the web
 * decodes it without knowing the family (the committer writes the state between epochs; a read
 * during an epoch sees the last commit).
 */
export interface UnitOccupancySpec {
  /** What a tile's part is called ("home L2 slice"). */
  label: string;
  bytesPerTile: number;
  slotsPerTile: number;
  tagOffsetWords: number;
  /** Bytes one slot holds (a line), for read-outs in bytes. */
  bytesPerSlot: number;
  /** One sentence on what the parts serve, for the legend (e.g. which tile homes which pages). */
  note?: string;
  /** Per tile, short lines on what its part serves (e.g. the pages it is the home of), for tooltips. */
  tileNotes?: string[][];
}

export interface ChipFamily<C = unknown, R extends ResolvedChip = ResolvedChip, K extends CoreBase = CoreBase> {
  readonly name: string;
  readonly title: string;
  /** The family's config schema (strict: unknown keys rejected; cross-field errors name the component). */
  readonly schema: z.ZodType<C>;
  resolve(config: C): R;
  /** Creates core `id` of a run. Called once per core on the worker that owns it. */
  makeCore(id: number, chip: R, views: Views, seed: number): K;
  floorplan(chip: R): FloorplanSpec;
  /**
   * Applies one request a core logged for a family memory-side unit (WLOG_UNIT entries: `lineId`
   * and `aux` as the core wrote them), at commit, in the deterministic (visible time, core,
   * sequence) order. The unit's state lives in views.unit. A unit that writes a memory line
   * (e.g. a counter in committed memory) returns that line's id, so the committer checks the
   * line's waiters as after a write; otherwise it returns nothing (or -1).
   */
  commitUnit?(views: Views, chip: R, lineId: number, aux: number, core: number, atPs: number): number | void;
}

/** Any family, for registries. */
export type AnyChipFamily = ChipFamily<any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
