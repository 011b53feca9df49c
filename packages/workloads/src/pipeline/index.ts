/**
 * pipeline: the many-core pipeline of scc.md section 7. m stages (one core each) apply the same
 * operation to every byte of D bytes that flow through them in chunks of C bytes.
 *
 * Modes (how a chunk gets from stage s to stage s + 1)
 *  - private:         stage s receives the chunk with RCCE (8160 B pieces through the MPBs)
 *                     into a buffer in its private memory, transforms it there in place and
 *                     sends it on to stage s + 1. Up to the L2 size (256 KB) the buffer stays
 *                     in L2; larger chunks spill to DRAM.
 *  - uncached-shared: every stage has an output buffer of two chunk slots in shared DRAM,
 *                     mapped uncached (core.mapPage): every access is an 8 B DRAM transaction.
 *                     Stage s reads its input straight from stage s - 1's buffer and writes its
 *                     own; only a token of Z bytes (the chunk's number) travels, with RCCE.
 *  - cached-shared:   the same buffers, cached; with no coherence each stage flushes its whole
 *                     cache (the SCC's software flush, flushCache) before reading a chunk and
 *                     after writing it: 2 flushes per chunk per core. The caches do not allocate
 *                     on a write miss and the flush has just emptied them, so the stage writes
 *                     its output with software allocate-on-write (writeAllocated: one load per
 *                     line, then the stores hit; the second flush writes the lines back whole);
 *                     plain stores would each be a DRAM transaction.
 * Stage 0 reads the input from its private memory, where it generated it (from the seed) before
 * the timed run; the last stage writes into its own output buffer and checks every byte
 * against the input transformed m times. Tokens and chunks are synchronous RCCE sends, so a
 * stage hands over chunk k when the next stage has finished chunk k - 1 (two slots suffice).
 *
 * Flushing: the SCC has no instruction that flushes L2; its flush routine reads a region the size
 * of L2, which writes back the dirty lines and evicts everything. flushCache runs that routine
 * step by step (flush 'routine', the default), yielding like every long loop. flush 'engine'
 * calls core.flush(), which does the same reads in one call: the core then runs about 0.5 ms
 * past the epoch end, and the controller queueing of that burst is charged as if none of its
 * 8192 reads had been delayed by the ones before (the flushing core is not slowed down while
 * the others queue behind its future bookings), which inflates every flush under contention.
 *
 * Placement: stage order id or snake (stageCores); shared buffers on the controller nearest
 * each stage's core, or one after another from the start of the shared window (stageBuffers).
 * With several chunks in flight the active stages form a wave of consecutive stages, and the
 * order decides which controllers it loads: snake order puts 12 consecutive stages on
 * controller 1 (and on 3), whose flushes, writes and (nearest placement) buffers then share
 * one controller, where id order changes controller every 6 stages. At 48 stages, D = 2 MB,
 * C = 256 KB that makes snake order ~10 % slower in both shared modes (controller queueing,
 * not mesh links; it disappears with unlimited controller bandwidth).
 * Per-chunk work: workCyclesPerByte core cycles per byte on top of the loads and stores.
 *
 * Rows (one per run): {mode, order, stages, dataBytes, chunkBytes, timeNs, flushesPerCore,
 * throughputMBps, correct, ...}. timeNs runs from the common start (a harness barrier) to the
 * last stage's last byte. results.workload.stages: per stage its core, busy and wait time from
 * the engine's counters and its spans (Gantt: waiting for input, working, handing over).
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, type SccCore, type ResolvedChip, type Row, type Sim, type SimulatedStats, type WorkloadDef } from '@manycore/engine';
import { MAX_CORES } from '../lib/limits';
import { Rcce } from '../rcce/index';
import { touch, writeAllocated } from '../lib/mem';
import {
  PIPELINE_MODES,
  PIPELINE_ORDERS,
  PIPELINE_PLACEMENTS,
  SLOTS,
  inputBytes,
  opTable,
  stageBuffers,
  stageCores,
  stageHops,
  stageOp,
} from './plan';

export * from './plan';

const KB = 1024;
const MB = 1024 * KB;

export const FLUSH_METHODS = ['routine', 'engine'] as const;
export type FlushMethod = (typeof FLUSH_METHODS)[number];

const Params = z.strictObject({
  mode: z.enum(PIPELINE_MODES).default('private').describe('private (RCCE chunks), uncached-shared or cached-shared (tokens only)'),
  order: z.enum(PIPELINE_ORDERS).default('id').describe('stage order: by core id, or snake along the mesh'),
  stages: z.number().int().min(2).max(MAX_CORES).default(8).describe('pipeline stages, one core each'),
  dataBytes: z.number().int().min(32).max(64 * MB).default(1 * MB).describe('bytes through the pipeline (D)'),
  chunkBytes: z.number().int().min(32).max(1 * MB).default(64 * KB).describe('chunk size C, bytes (a multiple of 32)'),
  tokenBytes: z.number().int().min(4).max(8160).default(32).describe('shared modes: token size Z, bytes'),
  workCyclesPerByte: z.number().min(0).max(1000).default(1).describe('core cycles of work per byte per stage'),
  placement: z.enum(PIPELINE_PLACEMENTS).default('nearest').describe('shared buffers: on the controller nearest each stage, or sequential from the start of the shared window'),
  flush: z
    .enum(FLUSH_METHODS)
    .default('routine')
    .describe("cached-shared: the SCC flush routine stepped in the workload, or the engine's one-call core.flush()"),
});
type P = z.infer<typeof Params>;

function check(p: P, chip: ResolvedChip): void {
  if (p.chunkBytes % 32 !== 0) throw new WorkloadParamError(`chunkBytes must be a multiple of 32 (got ${p.chunkBytes})`);
  if (p.stages > chip.topo.cores) throw new WorkloadParamError(`${p.stages} stages need ${p.stages} cores; the chip has ${chip.topo.cores}`);
  if (p.chunkBytes > p.dataBytes) throw new WorkloadParamError(`chunkBytes (${p.chunkBytes}) is larger than dataBytes (${p.dataBytes})`);
}

// private memory layout of every stage core
const TOKEN_IN = 1 * MB;
const TOKEN_OUT = TOKEN_IN + 16 * KB;
const BUF = 2 * MB; // private mode: the chunk, received, transformed in place and sent
const SRC = 8 * MB;
const FLUSH_REGION = 96 * MB;

/** Bytes a stage handles before checking whether the epoch is over. */
const PIECE = 64;
/** Chunks whose spans a stage records (the Gantt view), at most. */
const MAX_SPANS = 4096;

const piece = new Uint8Array(PIECE);
const want = new Uint8Array(PIECE);

/** Transforms `bytes` from inAddr to outAddr; on the last stage, counts bytes that differ from the expected output. */
function* transform(core: SccCore, inAddr: number, outAddr: number, bytes: number, work: number, allocate: boolean, expect: { seed: number; table: Uint8Array; from: number } | null): Sim<number> {
  let bad = 0;
  for (let o = 0; o < bytes; o += PIECE) {
    const n = Math.min(PIECE, bytes - o);
    core.readRange(inAddr + o, n, piece);
    for (let i = 0; i < n; i++) piece[i] = stageOp(piece[i]!);
    if (work > 0) core.compute(work * n);
    if (allocate) writeAllocated(core, outAddr + o, n, piece);
    else core.writeRange(outAddr + o, n, piece);
    if (expect) {
      inputBytes(expect.seed, expect.from + o, want, n);
      for (let i = 0; i < n; i++) if (piece[i] !== expect.table[want[i]!]) bad++;
    }
    if (core.due()) yield DUE;
  }
  return bad;
}

/** Writes the first `bytes` of the input (stage 0, before the timed run). */
function* generate(core: SccCore, addr: number, bytes: number, seed: number): Sim<void> {
  const buf = new Uint8Array(2048);
  for (let o = 0; o < bytes; o += buf.length) {
    const n = Math.min(buf.length, bytes - o);
    inputBytes(seed, o, buf, n);
    writeAllocated(core, addr + o, n, buf);
    if (core.due()) yield DUE;
  }
}

/**
 * The SCC's software flush, as a routine of the workload: it reads one word of every line of a
 * flush region the size of L2 in private memory (two regions used in turn, so that none of its
 * lines is still cached), which writes back every dirty line and evicts everything from L2 and
 * L1 (both LRU). It yields as it goes, like every long loop here; the engine's core.flush()
 * models the same reads in one call (method 'engine').
 */
function* flushCache(core: SccCore, method: FlushMethod, turn: number): Sim<void> {
  if (core.due()) yield DUE;
  if (method === 'engine') {
    core.flush();
    if (core.due()) yield DUE;
    return;
  }
  const l2 = core.chip.config.l2Enabled && core.chip.l2 ? core.chip.l2.sets * core.chip.l2.ways * 32 : 0;
  const l1 = core.chip.l1d.sets * core.chip.l1d.ways * 32;
  const bytes = Math.max(l2, l1);
  const region = core.privateBase + FLUSH_REGION + (turn & 1) * bytes;
  for (let o = 0; o < bytes; o += 32) {
    core.readRange(region + o, 4);
    if ((o & 255) === 224) core.compute(1); // loop overhead, one cycle per 8 lines
    if (core.due()) yield DUE;
  }
  core.fence();
}

export const pipeline: WorkloadDef<P> = {
  name: 'pipeline',
  title: 'Many-core pipeline: private vs uncached vs cached shared memory',
  description:
    'm stages, one core each, stream D bytes in chunks of C: chunks by RCCE between private memories, or tokens only with the data in uncached or cached (flushed) shared DRAM; stages in id or snake order.',
  params: Params,
  participants: (p, chip) => {
    check(p, chip);
    return stageCores(chip, p.stages, p.order);
  },
  *program(core: SccCore, p: P, ctx) {
    const chip = core.chip;
    const cores = stageCores(chip, p.stages, p.order);
    const s = cores.indexOf(core.id);
    const m = p.stages;
    const last = s === m - 1;
    const prev = s > 0 ? cores[s - 1]! : -1;
    const next = last ? -1 : cores[s + 1]!;
    const chunks = Math.ceil(p.dataBytes / p.chunkBytes);
    const rcce = new Rcce(core, ctx.participants);
    const shared = p.mode !== 'private';
    const bufs = shared ? stageBuffers(chip, cores, p.chunkBytes, p.placement) : [];
    const base = core.privateBase;
    const table = last ? opTable(m) : null;

    // ---- set-up (untimed): the input on stage 0, page types of the shared buffers
    if (s === 0) yield* generate(core, base + SRC, p.dataBytes, ctx.seed);
    // private mode: the receive buffer is read once, as a warm-up round would (with no
    // write-allocate a buffer that is only ever written never enters the caches, and every
    // received word would be a DRAM write); a chunk larger than L2 still spills
    if (p.mode === 'private' && s > 0) yield* touch(core, base + BUF, p.chunkBytes);
    if (p.mode === 'uncached-shared') {
      const mine = [bufs[s]!, ...(s > 0 ? [bufs[s - 1]!] : [])];
      for (const b of mine) for (let page = b.addr >>> 24; page <= (b.addr + SLOTS * p.chunkBytes - 1) >>> 24; page++) core.mapPage(page * (1 << 24), 'uncached');
    }
    yield* core.barrier();

    const t0 = core.now;
    const spans: number[] = [];
    let mismatches = 0;
    let flushes = 0;
    let flushPs = 0;
    for (let k = 0; k < chunks; k++) {
      const bytes = Math.min(p.chunkBytes, p.dataBytes - k * p.chunkBytes);
      const tWait = core.now;
      // ---- input
      let inAddr: number;
      if (s === 0) inAddr = base + SRC + k * p.chunkBytes;
      else if (!shared) {
        yield* rcce.recv(base + BUF, bytes, prev);
        inAddr = base + BUF;
      } else {
        yield* rcce.recv(base + TOKEN_IN, p.tokenBytes, prev);
        const token = core.load32(base + TOKEN_IN);
        if (token !== k) throw new Error(`pipeline: stage ${s} expected token ${k}, got ${token}`);
        inAddr = bufs[s - 1]!.addr + (k % SLOTS) * p.chunkBytes;
      }
      const tIn = core.now;
      // ---- work
      if (p.mode === 'cached-shared') {
        const f0 = core.now;
        yield* flushCache(core, p.flush, flushes++);
        flushPs += core.now - f0;
      }
      const outAddr = shared ? bufs[s]!.addr + (k % SLOTS) * p.chunkBytes : base + BUF;
      mismatches += yield* transform(core, inAddr, outAddr, bytes, p.workCyclesPerByte, p.mode === 'cached-shared', table ? { seed: ctx.seed, table, from: k * p.chunkBytes } : null);
      if (p.mode === 'cached-shared') {
        const f0 = core.now;
        yield* flushCache(core, p.flush, flushes++);
        flushPs += core.now - f0;
      }
      const tWork = core.now;
      // ---- output
      if (next >= 0) {
        if (!shared) yield* rcce.send(base + BUF, bytes, next);
        else {
          core.store32(base + TOKEN_OUT, k);
          yield* rcce.send(base + TOKEN_OUT, p.tokenBytes, next);
        }
      }
      if (k < MAX_SPANS) spans.push((tWait - t0) / 1000, (tIn - t0) / 1000, (tWork - t0) / 1000, (core.now - t0) / 1000);
    }
    core.report({
      stage: s,
      core: core.id,
      startNs: t0 / 1000,
      endNs: core.now / 1000,
      mismatches: last ? mismatches : 0,
      flushes,
      flushNs: flushPs / 1000,
      checked: last,
      spans: spans.map((x) => Math.round(x * 1000) / 1000).join(','),
    });
  },
  summarize(rows: Row[], p: P): Row[] {
    const byStage = [...rows].sort((a, b) => (a.stage as number) - (b.stage as number));
    const start = Math.min(...byStage.map((r) => r.startNs as number));
    const end = Math.max(...byStage.map((r) => r.endNs as number));
    const timeNs = end - start;
    const cores = byStage.map((r) => r.core as number);
    const flushes = byStage.reduce((a, r) => a + (r.flushes as number), 0) / cores.length;
    const flushNs = byStage.reduce((a, r) => a + (r.flushNs as number), 0) / cores.length;
    const lastRow = byStage[byStage.length - 1]!;
    return [
      {
        mode: p.mode,
        order: p.order,
        stages: p.stages,
        dataBytes: p.dataBytes,
        chunkBytes: p.chunkBytes,
        tokenBytes: p.tokenBytes,
        workCyclesPerByte: p.workCyclesPerByte,
        placement: p.placement,
        timeNs,
        flushesPerCore: flushes,
        flushShare: flushNs / timeNs,
        throughputMBps: (p.dataBytes / timeNs) * 1000,
        correct: lastRow.checked === true && lastRow.mismatches === 0,
      },
    ];
  },
  extra(rows: Row[], p: P, chip, sim: SimulatedStats) {
    const byStage = [...rows].sort((a, b) => (a.stage as number) - (b.stage as number));
    const cores = byStage.map((r) => r.core as number);
    const lastRow = byStage[byStage.length - 1]!;
    const buffers = p.mode === 'private' ? [] : stageBuffers(chip, cores, p.chunkBytes, p.placement);
    return {
      correct: lastRow.checked === true && lastRow.mismatches === 0,
      mismatches: lastRow.mismatches as number,
      stageHops: stageHops(chip, cores),
      stages: byStage.map((r, s) => {
        const c = sim.cores[r.core as number]!;
        const nums = (r.spans as string).length ? (r.spans as string).split(',').map(Number) : [];
        const spans: { chunk: number; waitNs: number; inputNs: number; workNs: number; doneNs: number }[] = [];
        for (let i = 0; i + 3 < nums.length; i += 4) spans.push({ chunk: i / 4, waitNs: nums[i]!, inputNs: nums[i + 1]!, workNs: nums[i + 2]!, doneNs: nums[i + 3]! });
        return {
          stage: s,
          core: c.core,
          x: c.x,
          y: c.y,
          bufferController: buffers[s]?.controller ?? -1,
          busyNs: c.busyNs,
          waitNs: c.stallNs.wait,
          stallNs: c.stallNs,
          flushes: r.flushes as number,
          flushNs: r.flushNs as number,
          endNs: r.endNs as number,
          spans,
        };
      }),
    };
  },
};

export { dramHops } from './dram-hops';
