/**
 * The pipeline's plan: which core runs each stage (id or snake order), where the shared-memory
 * modes' queue, input and output live, the input data and the expected output. Pure functions of
 * the parameters, the chip and the seed, so every core (and the driver) derives the same plan.
 */
import { asScc, coreHops, tileAt, type ResolvedChip } from '@manycore/engine';
import { sharedAddrOnController } from '../placement';

export const PIPELINE_MODES = ['private', 'uncached-shared', 'cached-shared'] as const;
export type PipelineMode = (typeof PIPELINE_MODES)[number];
export const PIPELINE_ORDERS = ['id', 'snake'] as const;
export type PipelineOrder = (typeof PIPELINE_ORDERS)[number];
export const PIPELINE_PLACEMENTS = ['sequential', 'interleaved'] as const;
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

/**
 * The shared-memory modes' buffers (paper 003 lines 4004-4018): the first core allocates them in
 * the shared window and sends their offsets to the other stages. One of them is the queue: at
 * most m - 1 slots of C bytes (lines 4017-4018: synchronous hand-overs bound the slots by m - 1), slot
 * k mod Q holding chunk k; the input (D bytes, read by the first stage) and the output (D bytes,
 * written by the last) are the others ("the buffers", plural, line 4006; the paper does not say
 * where input and output live: `ioBuffers: 'private'` puts them in the first and last stages'
 * private memories instead).
 *
 * Placement
 *  - sequential (the paper's set-up, lines 4098-4104): queue, input and output one after
 *    another from the start of the shared window, as the first core's allocator hands them out.
 *    The LUT points the first 15 shared entries (15 x 16 MB) at the controller at tile (0,0), so
 *    on the SCC everything sits on that one controller (MC0) up to 240 MB.
 *  - interleaved (what-if): queue slot j on controller j mod 4 (each controller's first shared
 *    group), input and output still from the start of the window.
 */
export interface SharedPlan {
  /** Queue slots Q. */
  slots: number;
  /** Core address and controller of every slot. */
  slotAddr: number[];
  slotController: number[];
  input: number;
  output: number;
  inputController: number;
  outputController: number;
}

/** Queue slots: `requested` (at most stages - 1); 0 or absent: stages - 1 (the paper's bound). */
export function queueSlots(stages: number, requested = 0): number {
  return Math.max(1, requested > 0 ? Math.min(stages - 1, requested) : stages - 1);
}

const PAGE = 4096;
const roundUp = (b: number) => Math.ceil(b / PAGE) * PAGE;

export function sharedPlan(chip: ResolvedChip, p: { stages: number; chunkBytes: number; dataBytes: number; slots?: number; placement: PipelinePlacement }): SharedPlan {
  const slots = queueSlots(p.stages, p.slots);
  const slotBytes = p.chunkBytes; // a multiple of 32: slots stay line aligned
  const slotAddr: number[] = [];
  let next = chip.sharedBase;
  if (p.placement === 'sequential') {
    for (let j = 0; j < slots; j++) slotAddr.push(next + j * slotBytes);
    next += roundUp(slots * slotBytes);
  } else {
    const used = new Array<number>(chip.controllers).fill(0);
    for (let j = 0; j < slots; j++) {
      const m = j % chip.controllers;
      slotAddr.push(sharedAddrOnController(chip, m) + used[m]!);
      used[m]! += slotBytes;
    }
    next += roundUp(used[0]!);
  }
  const input = next;
  const output = input + roundUp(p.dataBytes);
  if (output + p.dataBytes > chip.sharedBase + chip.sharedBytes) throw new Error(`pipeline: the shared buffers do not fit the shared window (${chip.sharedBytes} B)`);
  return { slots, slotAddr, slotController: slotAddr.map((a) => controllerOf(chip, a)), input, output, inputController: controllerOf(chip, input), outputController: controllerOf(chip, output + p.dataBytes - 1) };
}

/**
 * For the views: the controller of the shared data each stage works on (shared modes; every
 * stage works on every slot in turn, so this is the controller of slot 0 unless the slots are
 * interleaved, where it is -1).
 */
export function stageBuffers(chip: ResolvedChip, cores: readonly number[], p: { chunkBytes: number; dataBytes: number; slots?: number; placement: PipelinePlacement }): number[] {
  const plan = sharedPlan(chip, { ...p, stages: cores.length });
  const one = new Set(plan.slotController).size === 1;
  return cores.map(() => (one ? plan.slotController[0]! : -1));
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

/** 32-bit word j of the input stream that `seed` names (stage 0 writes it before the timed run). */
export function inputWord(seed: number, j: number): number {
  return mix32((seed * 0x9e3779b1) ^ mix32(j));
}

/** Byte j of the input stream (little-endian words). */
export function inputByte(seed: number, j: number): number {
  return (inputWord(seed, j >>> 2) >>> ((j & 3) * 8)) & 0xff;
}

/** Fills dst with input bytes [from, from + n). */
export function inputBytes(seed: number, from: number, dst: Uint8Array, n = dst.length): void {
  for (let i = 0; i < n; i++) dst[i] = inputByte(seed, from + i);
}

/**
 * Byte j of the output after `stages` stages each added 1 to every element of `elementBytes`
 * (paper 003 lines 4105-4107: "incremented the value read in the input by 1 and wrote it back").
 */
export function outputByte(seed: number, j: number, stages: number, elementBytes: 1 | 4): number {
  if (elementBytes === 1) return (inputByte(seed, j) + stages) & 0xff;
  const w = (inputWord(seed, j >>> 2) + stages) >>> 0;
  return (w >>> ((j & 3) * 8)) & 0xff;
}
