/**
 * The pipeline's plan: which core runs each stage (id or snake order), where each stage's
 * shared output buffer lives, the input data and the stage transformation. Pure functions of
 * the parameters, the chip and the seed, so every core (and the driver) derives the same plan.
 */
import { asScc, coreHops, tileAt, type ResolvedChip } from '@manycore/engine';
import { sharedAddrOnController } from '../placement';

export const PIPELINE_MODES = ['private', 'uncached-shared', 'cached-shared'] as const;
export type PipelineMode = (typeof PIPELINE_MODES)[number];
export const PIPELINE_ORDERS = ['id', 'snake'] as const;
export type PipelineOrder = (typeof PIPELINE_ORDERS)[number];
export const PIPELINE_PLACEMENTS = ['nearest', 'sequential'] as const;
export type PipelinePlacement = (typeof PIPELINE_PLACEMENTS)[number];

/**
 * Cores in pipeline order. id: 0, 1, 2, ... (on the SCC the hop from core 11 to 12, 23 to 24
 * and 35 to 36 crosses the whole mesh: 6 hops). snake: tiles row by row, left to right on
 * even rows and right to left on odd rows, both cores of a tile in turn, so consecutive
 * stages are on the same tile or one hop apart.
 */
export function stageCores(chip: ResolvedChip, stages: number, order: PipelineOrder): number[] {
  const topo = chip.topo;
  const all: number[] = [];
  if (order === 'id') for (let c = 0; c < topo.cores; c++) all.push(c);
  else
    for (let y = 0; y < topo.height; y++)
      for (let i = 0; i < topo.width; i++) {
        const x = y % 2 === 0 ? i : topo.width - 1 - i;
        const tile = tileAt(topo, x, y);
        for (let k = 0; k < topo.coresPerTile; k++) all.push(tile * topo.coresPerTile + k);
      }
  return all.slice(0, stages);
}

/** Sum of the mesh hops between consecutive stages, and the longest one. */
export function stageHops(chip: ResolvedChip, cores: readonly number[]): { total: number; max: number } {
  let total = 0;
  let max = 0;
  for (let s = 1; s < cores.length; s++) {
    const h = coreHops(chip.topo, cores[s - 1]!, cores[s]!);
    total += h;
    max = Math.max(max, h);
  }
  return { total, max };
}

/** Number of slots of each shared output buffer (double buffering). */
export const SLOTS = 2;

/**
 * Shared output buffer of every stage (SLOTS x chunkBytes, line aligned) and its controller.
 * The shared window is mapped through the LUT in groups of 15 pages per controller (scc.md 7).
 * nearest: each stage's buffer is on the controller nearest its core (the writer writes
 * close by, the next stage reads across the mesh); sequential: buffers one after another from
 * the start of the shared window, as a simple shared-memory allocator would place them (on the
 * SCC all of them land in the first group: controller 0).
 */
export function stageBuffers(chip: ResolvedChip, cores: readonly number[], chunkBytes: number, placement: PipelinePlacement): { addr: number; controller: number }[] {
  const bytes = Math.ceil((SLOTS * chunkBytes) / 4096) * 4096;
  const used = new Array<number>(chip.controllers).fill(0);
  return cores.map((core, s) => {
    if (placement === 'sequential') {
      const addr = chip.sharedBase + s * bytes;
      return { addr, controller: controllerOf(chip, addr) };
    }
    const m = chip.nearestController[core]!;
    const addr = sharedAddrOnController(chip, m) + used[m]! * bytes;
    used[m]! += 1;
    return { addr, controller: m };
  });
}

/** Controller that the LUT maps a shared address to. */
export function controllerOf(chip: ResolvedChip, addr: number): number {
  const lut = asScc(chip).config.lut;
  const page = Math.floor((addr - chip.sharedBase) / (1 << 24));
  return Math.floor(page / lut.sharedGroupPages) % chip.controllers;
}

// ------------------------------------------------------------------ data

/** A 32-bit mix (splitmix-style finaliser). */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Byte j of the input stream that `seed` names (stage 0 generates it). */
export function inputByte(seed: number, j: number): number {
  return (mix32((seed * 0x9e3779b1) ^ mix32(j >>> 2)) >>> ((j & 3) * 8)) & 0xff;
}

/** Fills dst with input bytes [from, from + dst.length). */
export function inputBytes(seed: number, from: number, dst: Uint8Array, n = dst.length): void {
  for (let i = 0; i < n; i++) dst[i] = inputByte(seed, from + i);
}

/** The stage operation, applied to every byte by every stage: b -> (5 b + 7) mod 256 (a bijection). */
export function stageOp(b: number): number {
  return (b * 5 + 7) & 0xff;
}

/** Table of the operation applied `times` times. */
export function opTable(times: number): Uint8Array {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    let v = b;
    for (let k = 0; k < times; k++) v = stageOp(v);
    t[b] = v;
  }
  return t;
}
