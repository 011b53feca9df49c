/**
 * pipeline: the many-core pipeline of paper 003 lines 3718-4309 (scc.md section 7), as the
 * paper's code does it. m stages, one core each, every one applying the same operation to D
 * bytes that flow through in chunks of C bytes. The operation is the paper's placeholder (lines
 * 4105-4107): "incremented the value read in the input by 1 and wrote it back", a plain loop
 * over the chunk's 32-bit integers (element 'int32'; the paper does not name the type, see
 * below): load, add 1, store, in place. Every stage runs it (lines 3902-3917: receive, perform
 * the operation, send); the first stage first reads its chunk from the input buffer and the
 * last stage afterwards writes it to an output buffer, both plain copies (memcpy, 32-bit moves).
 *
 * Modes
 *  - private (lines 3950-3960): every buffer in private memory (malloc). Chunks go from stage to
 *    stage with synchronous RCCE send / receive (8160 B pieces through the MPBs, lines
 *    3869-3882) into the receiver's chunk buffer, which is not pre-touched: the SCC's caches do
 *    not allocate on a write miss, so the first chunk's receive writes every word to DRAM; later
 *    chunks find the buffer in L2 while it fits (C <= 256 KB).
 *  - uncached-shared / cached-shared (lines 4000-4067): the first core allocates the buffers in
 *    the shared window and sends their offsets to the other stages (set-up). One is a queue of Q
 *    = m - 1 slots of C bytes (the bound of line 4018; param `slots`), chunk k in slot k mod Q;
 *    only a Z-byte token (the chunk number) travels, by synchronous RCCE, from stage to stage,
 *    and the last stage returns it to the first (a ring: m token messages per step, line 4029),
 *    which waits for it before reusing the slot. The first stage copies input -> slot, every
 *    stage adds 1 in the slot in place, the last stage copies slot -> output; input and output
 *    are shared buffers of the first core's allocation too (`ioBuffers`). Placement as the
 *    paper's LUT set-up (lines 4098-4104): allocated from the start of the shared window, whose
 *    first 15 LUT entries point at the controller at tile (0,0): everything on MC0 (plan.ts).
 *    Uncached (/dev/rckncm): every load and store is a DRAM transaction of its own size (4 B
 *    for the int32 loop and the copies). Cached (/dev/rckdcm): with no coherence each stage
 *    flushes its whole cache before reading a chunk and after writing it, 2 flushes per chunk
 *    per core (lines 4059-4066, 4201-4207). The in-place add reads each line before writing it,
 *    so its stores hit; the copies' stores into lines the flush has just evicted each go to
 *    DRAM as a 4 B write (no write-allocate).
 *
 * Element: 'int32' (default) or 'byte'. The paper says "the value", not its type; a loop over
 * 32-bit ints is the plain C loop over a buffer of numbers. A consistency check, nothing fitted:
 * if Figure 2's 4 MB (about 0.2 s at 0 hops, lines 4113-4193) were accessed uncached, that is
 * about 190 ns per 4 B access, while a byte loop would need 48 ns per access, below the zero-load
 * DRAM latency of 40 core + 46 memory cycles (132 ns; 66 ns with 2 in flight). 'byte' is the
 * what-if: 4 x the transactions in uncached mode.
 * Loop cost: the load and the store are charged by the memory model; the add and the loop
 * control pair in the P54C's two pipes, LOOP_CYCLES = 2 cycles per element. workCyclesPerByte
 * (default 0: the paper's stage does nothing else) adds work per byte.
 *
 * What-if switches (never the default; the row shows each and the DRAM transactions):
 *  - allocateOnWrite: the workload's copies (input -> chunk buffer / slot, chunk buffer / slot ->
 *    output) load one word of each destination line first (software allocate-on-write, lib/mem
 *    writeAllocated), so the stores hit and the line goes back whole: fewer DRAM writes.
 *  - preTouch: private mode, every stage reads its chunk buffer once in set-up, so even the
 *    first chunk's receive hits L2 (the lab's earlier default, there for every stage but the first).
 *  - placement 'interleaved': queue slot j on controller j mod 4.
 *  - ioBuffers 'private': input in the first stage's private memory, output in the last's.
 *  - flush 'engine': core.flush(), the same reads in one call (the core then runs about 0.5 ms
 *    past the epoch end and the controller queueing of that burst is charged as if none of its
 *    reads had been delayed by the ones before); 'routine' (default) steps the SCC's software
 *    flush in the workload: one read per line of an L2-sized region in private memory.
 * Protocol bug 'skip-flush' (cached-shared mode only; any other mode is an error naming it):
 * each stage skips the flush after writing a chunk, so its +1 stays in dirty lines of its own L2
 * and the next stage, which flushes and reads memory, gets stale chunk data. The last stage's
 * check catches it: the row gets `bug` and `wrongBytes` (output bytes that differ from input + m;
 * both fields appear only when a bug is on, so rows and digests of correct runs are unchanged)
 * and `correct` is false. The run itself ends normally.
 * Set-up (untimed): the first stage generates the input from the seed (then flushes its cache,
 * so that every core starts the timed run with clean caches); the shared modes' offsets message.
 *
 * Rows (one per run): {mode, order, stages, dataBytes, chunkBytes, ..., timeNs, flushesPerCore,
 * flushShare, dramReads, dramWrites, throughputMBps, correct}. timeNs runs from the common start
 * (a barrier) to the end of the last stage (shared modes: to the first stage's receipt of the
 * last returned token); dramReads / dramWrites are the DRAM transactions of all stages in that
 * window (line fills, flush reads, uncached reads; write-backs, uncached and write-miss stores).
 * The last stage checks every byte it writes to the output against the input plus m, and after
 * the timed run (untimed) reads back the output and the queue slots of the last chunks.
 * results.workload.stages: per stage its core, busy and wait time, DRAM transactions and spans.
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, type SccCore, type ResolvedChip, type Row, type Sim, type SimulatedStats, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from '../lib/limits';
import { checkRcceChip, Rcce } from '../rcce/index';
import { mapUncached, touch, writeAllocated } from '../lib/mem';
import { PIPELINE_MODES, PIPELINE_ORDERS, PIPELINE_PLACEMENTS, inputBytes, outputByte, queueSlots, sharedPlan, stageCores, stageHops } from './plan';

export * from './plan';

const KB = 1024;
const MB = 1024 * KB;

export const FLUSH_METHODS = ['routine', 'engine'] as const;
export type FlushMethod = (typeof FLUSH_METHODS)[number];
export const PIPELINE_ELEMENTS = ['int32', 'byte'] as const;
export const PIPELINE_IO_BUFFERS = ['shared', 'private'] as const;

const Params = z.strictObject({
  mode: z.enum(PIPELINE_MODES).default('private').describe('private (chunks by RCCE), uncached-shared or cached-shared (a queue in shared DRAM, tokens by RCCE)'),
  order: z.enum(PIPELINE_ORDERS).default('id').describe('stage order: by core id, or snake along the mesh'),
  stages: z.number().int().min(2).max(MAX_CORES).default(8).describe('pipeline stages m, one core each'),
  dataBytes: z.number().int().min(32).max(64 * MB).default(1 * MB).describe('bytes through the pipeline (D, a multiple of 4)'),
  chunkBytes: z.number().int().min(32).max(1 * MB).default(64 * KB).describe('chunk size C, bytes (a multiple of 32)'),
  tokenBytes: z.number().int().min(4).max(8160).default(32).describe('shared modes: token size Z, bytes'),
  slots: z.number().int().min(0).max(MAX_CORES - 1).default(0).describe('shared modes: queue slots Q (0: stages - 1, the paper\'s bound; at most stages - 1)'),
  element: z.enum(PIPELINE_ELEMENTS).default('int32').describe('the loop\'s element: 32-bit ints (default) or bytes (what-if; uncached: one transaction per byte)'),
  workCyclesPerByte: z.number().min(0).max(1000).default(0).describe('extra core cycles of work per byte per stage (the paper\'s stage only adds 1)'),
  placement: z.enum(PIPELINE_PLACEMENTS).default('sequential').describe('shared queue: from the start of the shared window (the paper\'s LUT: all on the controller at (0,0)), or slots interleaved over the controllers (what-if)'),
  ioBuffers: z.enum(PIPELINE_IO_BUFFERS).default('shared').describe('shared modes: input and output in shared memory (default) or in the first / last stage\'s private memory (what-if)'),
  flush: z
    .enum(FLUSH_METHODS)
    .default('routine')
    .describe("cached-shared: the SCC flush routine stepped in the workload, or the engine's one-call core.flush()"),
  allocateOnWrite: z.boolean().default(false).describe('what-if: the copies load each destination line before writing it (software allocate-on-write)'),
  preTouch: z.boolean().default(false).describe('what-if, private mode: every stage reads its chunk buffer once in set-up'),
  bug: z.enum(['none', 'skip-flush']).default('none').describe('protocol bug: none, or skip-flush (cached-shared: no flush after writing a chunk)'),
});
type P = z.infer<typeof Params>;

function check(p: P, chip: ResolvedChip): void {
  if (p.chunkBytes % 32 !== 0) throw new WorkloadParamError(`chunkBytes must be a multiple of 32 (got ${p.chunkBytes})`, 'chunkBytes', 'a multiple of 32 bytes (one cache line)');
  if (p.dataBytes % 4 !== 0) throw new WorkloadParamError(`dataBytes must be a multiple of 4 (got ${p.dataBytes})`, 'dataBytes', 'a multiple of 4 bytes');
  if (p.stages > chip.topo.cores) throw overLimit('stages', p.stages, chip.topo.cores, `${chipHasCores(chip)} (one per stage)`);
  if (p.chunkBytes > p.dataBytes)
    throw new WorkloadParamError(`chunkBytes (${p.chunkBytes}) is larger than dataBytes (${p.dataBytes})`, 'chunkBytes', `at most dataBytes (${p.dataBytes} bytes)`);
  if (p.bug === 'skip-flush' && p.mode !== 'cached-shared')
    throw new WorkloadParamError(
      `bug=skip-flush skips the flush of the cached-shared mode, and mode is ${p.mode}`,
      'bug',
      `only with mode cached-shared (mode is ${p.mode})`,
    );
  if (p.slots > p.stages - 1)
    throw new WorkloadParamError(
      `slots (${p.slots}) must be at most stages - 1 (${p.stages - 1}): with synchronous hand-overs more slots deadlock the token ring`,
      'slots',
      `at most ${p.stages - 1} (stages - 1): more slots deadlock the token ring`,
    );
}

// private memory layout of every stage core
const TOKEN_IN = 1 * MB;
const TOKEN_OUT = TOKEN_IN + 16 * KB;
const OFFSETS = TOKEN_IN + 32 * KB; // shared modes: the offsets message from the first core
const OFFSETS_BYTES = 12; // queue, input, output: offsets from the start of the shared window
const BUF = 2 * MB; // private mode: the chunk buffer (received, transformed in place, sent)
const SRC = 8 * MB; // the input (first stage; private mode or ioBuffers 'private')
const FLUSH_REGION = 96 * MB;
const OUT = 128 * MB; // the output (last stage; private mode or ioBuffers 'private')

/** Core cycles per element besides its load and store: the add and the loop control (P54C, paired). */
export const LOOP_CYCLES = 2;
/** Bytes a stage handles before checking whether the epoch is over. */
const PIECE = 64;
/** Chunks whose spans a stage records (the Gantt view), at most. */
const MAX_SPANS = 4096;

const piece = new Uint8Array(PIECE);
const pieceDv = new DataView(piece.buffer);

/**
 * The stage operation in place: for every element of [addr, addr + bytes), load, add 1, store.
 * On cached pages a 32-bit loop is charged through readRange / writeRange line by line (the same
 * loads, stores and hit cycles as the word loop); on uncached pages, and for bytes, each element
 * is a scalar load and store (uncached: a DRAM transaction each).
 */
function* addOne(core: SccCore, addr: number, bytes: number, uncached: boolean, element: 'int32' | 'byte', work: number): Sim<void> {
  for (let o = 0; o < bytes; o += PIECE) {
    const n = Math.min(PIECE, bytes - o);
    const a = addr + o;
    if (element === 'byte') {
      for (let i = 0; i < n; i++) {
        const v = core.load8(a + i);
        core.compute(LOOP_CYCLES);
        core.store8(a + i, (v + 1) & 0xff);
      }
    } else if (uncached) {
      for (let i = 0; i < n; i += 4) {
        const v = core.load32(a + i);
        core.compute(LOOP_CYCLES);
        core.store32(a + i, (v + 1) >>> 0);
      }
    } else {
      core.readRange(a, n, piece);
      for (let i = 0; i < n; i += 4) pieceDv.setUint32(i, (pieceDv.getUint32(i, true) + 1) >>> 0, true);
      core.compute((LOOP_CYCLES * n) / 4);
      core.writeRange(a, n, piece);
    }
    if (work > 0) core.compute(work * n);
    if (core.due()) yield DUE;
  }
}

/**
 * memcpy of `bytes` (a multiple of 4) as 32-bit moves (rep movsl): in uncached mode a scalar
 * word loop (on an uncached page each load and store is a 4 B transaction); otherwise line by line through the caches, the stores with software
 * allocate-on-write when `allocate`. With `expect`, counts the bytes copied that differ from the
 * expected output (the last stage's check; no simulated cost).
 */
function* copyWords(core: SccCore, dst: number, src: number, bytes: number, uncached: boolean, allocate: boolean, expect: ((j: number) => number) | null, from: number): Sim<number> {
  let bad = 0;
  for (let o = 0; o < bytes; o += PIECE) {
    const n = Math.min(PIECE, bytes - o);
    if (uncached) {
      for (let i = 0; i < n; i += 4) {
        const v = core.load32(src + o + i);
        pieceDv.setUint32(i, v, true);
        core.store32(dst + o + i, v);
      }
    } else {
      core.readRange(src + o, n, piece);
      if (allocate) writeAllocated(core, dst + o, n, piece);
      else core.writeRange(dst + o, n, piece);
    }
    if (expect) for (let i = 0; i < n; i++) if (piece[i] !== expect(from + o + i)) bad++;
    if (core.due()) yield DUE;
  }
  return bad;
}

const checkBuf = new Uint8Array(2048);

/** Reads [addr, addr + bytes) and counts the bytes that differ from expect(from + i). */
function* checkRange(core: SccCore, addr: number, bytes: number, expect: (j: number) => number, from: number): Sim<number> {
  let bad = 0;
  for (let o = 0; o < bytes; o += checkBuf.length) {
    const n = Math.min(checkBuf.length, bytes - o);
    core.readRange(addr + o, n, checkBuf);
    for (let i = 0; i < n; i++) if (checkBuf[i] !== expect(from + o + i)) bad++;
    if (core.due()) yield DUE;
  }
  return bad;
}

/** Writes the first `bytes` of the input at addr (the first stage, before the timed run). */
function* generate(core: SccCore, addr: number, bytes: number, seed: number, uncached: boolean): Sim<void> {
  const buf = new Uint8Array(2048);
  for (let o = 0; o < bytes; o += buf.length) {
    const n = Math.min(buf.length, bytes - o);
    inputBytes(seed, o, buf, n);
    if (uncached) core.writeRange(addr + o, n, buf);
    else writeAllocated(core, addr + o, n, buf);
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
  chart: { x: 'stages', y: 'throughputMBps', series: 'mode' },
  description:
    'm stages, one core each, add 1 to every element of D bytes in chunks of C: chunks by RCCE between private memories, or a queue in uncached or cached (flushed) shared DRAM with tokens by RCCE in a ring; stages in id or snake order.',
  params: Params,
  bugs: {
    'skip-flush':
      'Cached-shared mode without the flush after writing a chunk: the +1 stays in dirty lines of the writer\'s cache, the next stage reads stale chunk data from memory, and the last stage\'s check counts the wrong bytes (correct = false).',
  },
  participants: (p, chip) => {
    checkRcceChip(chip);
    check(p, chip);
    return stageCores(chip, p.stages, p.order);
  },
  *program(core: SccCore, p: P, ctx) {
    const chip = core.chip;
    const cores = stageCores(chip, p.stages, p.order);
    const s = cores.indexOf(core.id);
    const m = p.stages;
    const first = s === 0;
    const last = s === m - 1;
    const prev = first ? -1 : cores[s - 1]!;
    const next = last ? -1 : cores[s + 1]!;
    const chunks = Math.ceil(p.dataBytes / p.chunkBytes);
    const rcce = new Rcce(core, ctx.participants);
    const shared = p.mode !== 'private';
    const uncached = p.mode === 'uncached-shared';
    const cached = p.mode === 'cached-shared';
    const base = core.privateBase;
    const plan = shared ? sharedPlan(chip, p) : null;
    const q = plan ? plan.slots : 0;
    const sharedIo = plan !== null && p.ioBuffers === 'shared';
    const input = sharedIo ? plan.input : base + SRC;
    const output = sharedIo ? plan.output : base + OUT;
    const expect = last ? (j: number) => outputByte(ctx.seed, j, m, p.element === 'byte' ? 1 : 4) : null;

    // ---- set-up (untimed)
    if (plan) {
      // the first core allocates the buffers and sends their offsets to the other stages
      const offsets = [plan.slotAddr[0]! - chip.sharedBase, plan.input - chip.sharedBase, plan.output - chip.sharedBase];
      if (first) {
        offsets.forEach((v, i) => core.store32(base + OFFSETS + 4 * i, v));
        for (let t = 1; t < m; t++) yield* rcce.send(base + OFFSETS, OFFSETS_BYTES, cores[t]!);
      } else {
        yield* rcce.recv(base + OFFSETS, OFFSETS_BYTES, cores[0]!);
        offsets.forEach((v, i) => {
          const got = core.load32(base + OFFSETS + 4 * i);
          if (got !== v) throw new Error(`pipeline: stage ${s} received offset ${got}, expected ${v}`);
        });
      }
      if (uncached) {
        for (const a of plan.slotAddr) mapUncached(core, a, p.chunkBytes);
        if (sharedIo) mapUncached(core, plan.input, plan.output + p.dataBytes - plan.input);
      }
    }
    if (first) {
      yield* generate(core, input, p.dataBytes, ctx.seed, uncached && sharedIo);
      core.flush(); // the input in memory, and clean caches for the timed run
    }
    if (p.preTouch && p.mode === 'private') yield* touch(core, base + BUF, p.chunkBytes);
    yield* core.barrier();

    const t0 = core.now;
    const reads0 = core.counter('dramReads');
    const writes0 = core.counter('dramWrites');
    const spans: number[] = [];
    let mismatches = 0;
    let flushes = 0;
    let flushPs = 0;
    /** Shared modes: receives a token from `from` and checks that it names chunk `k`. */
    const takeToken = function* (from: number, k: number): Sim<void> {
      yield* rcce.recv(base + TOKEN_IN, p.tokenBytes, from);
      const token = core.load32(base + TOKEN_IN);
      if (token !== k) throw new Error(`pipeline: stage ${s} expected token ${k}, got ${token}`);
    };
    const giveToken = function* (to: number, k: number): Sim<void> {
      core.store32(base + TOKEN_OUT, k);
      yield* rcce.send(base + TOKEN_OUT, p.tokenBytes, to);
    };
    const flushNow = function* (): Sim<void> {
      const f0 = core.now;
      yield* flushCache(core, p.flush, flushes++);
      flushPs += core.now - f0;
    };
    for (let k = 0; k < chunks; k++) {
      const bytes = Math.min(p.chunkBytes, p.dataBytes - k * p.chunkBytes);
      const tWait = core.now;
      // ---- input: the chunk (private) or the token of its slot (shared)
      let work: number;
      if (!plan) {
        if (!first) yield* rcce.recv(base + BUF, bytes, prev);
        work = base + BUF;
      } else {
        if (!first) yield* takeToken(prev, k);
        else if (k >= q) yield* takeToken(cores[m - 1]!, k - q); // the slot's token, back from the last stage
        work = plan.slotAddr[k % q]!;
      }
      const tIn = core.now;
      // ---- work
      if (cached) yield* flushNow(); // before reading shared memory
      if (first) yield* copyWords(core, work, input + k * p.chunkBytes, bytes, uncached, p.allocateOnWrite, null, 0);
      yield* addOne(core, work, bytes, uncached, p.element, p.workCyclesPerByte);
      if (last) mismatches += yield* copyWords(core, output + k * p.chunkBytes, work, bytes, uncached, p.allocateOnWrite, expect, k * p.chunkBytes);
      if (cached && p.bug !== 'skip-flush') yield* flushNow(); // after writing shared memory (the skip-flush bug leaves it out)
      core.fence();
      const tWork = core.now;
      // ---- output: the chunk or the token to the next stage; the last stage returns the token to the first
      if (!plan) {
        if (!last) yield* rcce.send(base + BUF, bytes, next);
      } else yield* giveToken(last ? cores[0]! : next, k);
      if (k < MAX_SPANS) spans.push((tWait - t0) / 1000, (tIn - t0) / 1000, (tWork - t0) / 1000, (core.now - t0) / 1000);
    }
    // the first stage takes back the tokens still out (the ring's last messages)
    if (plan && first) for (let k = Math.max(0, chunks - q); k < chunks; k++) yield* takeToken(cores[m - 1]!, k);
    core.fence();
    const endPs = core.now;
    const dramReads = core.counter('dramReads') - reads0;
    const dramWrites = core.counter('dramWrites') - writes0;
    // ---- after the timed run (untimed): the last stage reads back the output and, in the shared
    // modes, the slots of the last min(N, Q) chunks (chunk k in slot k mod Q, after every stage
    // added 1 to it in place)
    let readBackErrors = 0;
    if (expect) {
      readBackErrors += yield* checkRange(core, output, p.dataBytes, expect, 0);
      if (plan)
        for (let k = Math.max(0, chunks - q); k < chunks; k++)
          readBackErrors += yield* checkRange(core, plan.slotAddr[k % q]!, Math.min(p.chunkBytes, p.dataBytes - k * p.chunkBytes), expect, k * p.chunkBytes);
    }
    core.report({
      stage: s,
      core: core.id,
      startNs: t0 / 1000,
      endNs: endPs / 1000,
      mismatches: last ? mismatches : 0,
      readBackErrors,
      flushes,
      flushNs: flushPs / 1000,
      dramReads,
      dramWrites,
      checked: last,
      spans: spans.map((x) => Math.round(x * 1000) / 1000).join(','),
    });
  },
  summarize(rows: Row[], p: P): Row[] {
    const byStage = [...rows].sort((a, b) => (a.stage as number) - (b.stage as number));
    const start = Math.min(...byStage.map((r) => r.startNs as number));
    const end = Math.max(...byStage.map((r) => r.endNs as number));
    const timeNs = end - start;
    const n = byStage.length;
    const sum = (k: string) => byStage.reduce((a, r) => a + (r[k] as number), 0);
    const lastRow = byStage[n - 1]!;
    return [
      {
        mode: p.mode,
        order: p.order,
        stages: p.stages,
        dataBytes: p.dataBytes,
        chunkBytes: p.chunkBytes,
        tokenBytes: p.tokenBytes,
        slots: p.mode === 'private' ? 0 : queueSlots(p.stages, p.slots),
        element: p.element,
        workCyclesPerByte: p.workCyclesPerByte,
        placement: p.placement,
        ioBuffers: p.ioBuffers,
        allocateOnWrite: p.allocateOnWrite,
        preTouch: p.preTouch,
        timeNs,
        flushesPerCore: sum('flushes') / n,
        flushShare: sum('flushNs') / n / timeNs,
        dramReads: sum('dramReads'),
        dramWrites: sum('dramWrites'),
        throughputMBps: (p.dataBytes / timeNs) * 1000,
        correct: lastRow.checked === true && lastRow.mismatches === 0 && lastRow.readBackErrors === 0,
        ...(p.bug !== 'none' ? { bug: p.bug, wrongBytes: lastRow.mismatches as number } : {}),
      },
    ];
  },
  extra(rows: Row[], p: P, chip, sim: SimulatedStats) {
    const byStage = [...rows].sort((a, b) => (a.stage as number) - (b.stage as number));
    const cores = byStage.map((r) => r.core as number);
    const lastRow = byStage[byStage.length - 1]!;
    const plan = p.mode === 'private' ? null : sharedPlan(chip, p);
    return {
      correct: lastRow.checked === true && lastRow.mismatches === 0 && lastRow.readBackErrors === 0,
      mismatches: lastRow.mismatches as number,
      readBackErrors: lastRow.readBackErrors as number,
      stageHops: stageHops(chip, cores),
      queue: plan ? { slots: plan.slots, slotControllers: plan.slotController, inputController: plan.inputController, outputController: plan.outputController } : null,
      stages: byStage.map((r, s) => {
        const c = sim.cores[r.core as number]!;
        const nums = (r.spans as string).length ? (r.spans as string).split(',').map(Number) : [];
        const spans: { chunk: number; waitNs: number; inputNs: number; workNs: number; doneNs: number }[] = [];
        for (let i = 0; i + 3 < nums.length; i += 4) spans.push({ chunk: i / 4, waitNs: nums[i]!, inputNs: nums[i + 1]!, workNs: nums[i + 2]!, doneNs: nums[i + 3]! });
        const one = plan && new Set(plan.slotController).size === 1;
        return {
          stage: s,
          core: c.core,
          x: c.x,
          y: c.y,
          bufferController: plan && one ? plan.slotController[0]! : -1,
          busyNs: c.busyNs,
          waitNs: c.stallNs.wait,
          stallNs: c.stallNs,
          flushes: r.flushes as number,
          flushNs: r.flushNs as number,
          dramReads: r.dramReads as number,
          dramWrites: r.dramWrites as number,
          endNs: r.endNs as number,
          spans,
        };
      }),
    };
  },
};

export { dramHops } from './dram-hops';
