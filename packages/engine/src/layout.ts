/**
 * Layout of the simulation's shared memory. Two SharedArrayBuffers:
 *  - `state`: control words, per-core slots, write and transaction logs, caches, MPBs,
 *    test-and-set registers, the DRAM block table and all telemetry;
 *  - `pool`: the host memory that backs simulated DRAM, handed out in 128 KB blocks on a
 *    block's first committed write (reads of untouched DRAM return zero).
 * Every offset is computed here, from the resolved chip and the log capacities, so every
 * thread builds the same views. Regions are 8-byte aligned.
 *
 * Log capacities (logCapacities) are host sizing, not simulation: they never change a result,
 * only whether a core that buffers more in one epoch than its log holds fails (with a message
 * naming the capacity). Small chips keep 16384 writes and 8192 transactions per core; on big
 * chips the logs of all cores share a budget, but never hold less than two quanta of one entry
 * per core cycle.
 *
 * Region map (state):
 *   ctl      Int32 x CTL_INTS        generation, arrival counter, status, control requests
 *   ctlF     Float64 x CTLF_SLOTS    epoch start/end, simulated time, next sample time
 *   core     Float64 x cores x CORE_SLOTS   counters (vocabulary C) + scheduler fields (S)
 *   wlog     per core WLOG_CAP x 64 B  buffered writes and test-and-set requests
 *   txn      per core TXN_CAP x 40 B   memory transactions for the weave phase (TXN_BYTES)
 *   l1/l2    per core tags Int32, lru Uint32, flags Uint8, data 32 B per slot
 *   mpb      tiles x mpbBytes
 *   tas      Int32 x registers
 *   blocks   Int32 x controllers x 65536   DRAM block table (0 = untouched, else pool block + 1)
 *   links    Float64 x links x LINK_SLOTS
 *   ctrl     Float64 x controllers x CTRL_SLOTS
 *   isl      Float64 x islands x ISL_SLOTS
 *   tileDiv  Int32 x tiles           current divisor of each tile
 *   matrix   Float64 x cores x cores x 2    messages, bytes (i -> j)
 *   series   Float64 x SERIES_CAP x seriesStride
 *   events   Float64 x EVENTS_CAP x 4     applied live changes (time, kind, target, value)
 *   wake     Int32 x cores            one wake word per worker (at most one worker per core)
 *   cal      Float64 x controllers x CAL_CAP x 2   booked service intervals per controller (DDR: the data bus's column slots)
 *   dram     Float64 x controllers x banks x BANK_SLOTS   each DRAM bank's open row and ready times (dram/ddr.ts), written only by the weave
 *   unit     chip.unitStateBytes     state of the family's memory-side units (a TILE64 home L2's tags);
 *            read by cores during an epoch, written only by the committer
 *   epochLog Float64 x EPOCH_LOG_CAP  end time (ps) of each committed epoch, in order (CTL.epochLogCount;
 *            a count beyond the cap means the later boundaries were not stored); read by the web's
 *            timeline (scrubbing), never by the simulation
 *   pageHdr  Float64 x cores x PAGE_HDR_SLOTS   each core's protected range (PAGE_HDR: base address,
 *            pages, page bytes, visible); 0 pages = protection off. Only when pagesPerCore > 0
 *   pages    Uint8 x cores x pagesPerCore   each core's page levels and marks (page-protection.ts),
 *            written only by the core itself; the views read them (page map). pagesPerCore comes
 *            from the family (ResolvedChip.protectedPagesPerCore; 0 or absent: no region at all,
 *            so the state of a family without it keeps its size)
 */
import { corePeriodPs, type ResolvedChip } from './chip';
import { BANK_SLOTS, dramBanks } from './dram/ddr';
import { CORE_COUNTERS } from './vocabulary';

export const CTL = {
  generation: 0,
  arrived: 1,
  status: 2, // Status
  request: 3, // Request (written by the host, read at the barrier)
  epoch: 4,
  workers: 5,
  errorCore: 6,
  poolNext: 7, // next free pool block
  seriesCount: 8,
  eventsCount: 9,
  liveSeq: 10, // sequence of the host's live-change request
  liveKind: 11,
  liveTarget: 12,
  liveValue: 13,
  liveAckSeq: 14,
  seriesStrideLog: 15, // series samples are every 2^k sample intervals after downsampling
  stepsLeft: 16,
  timelineNext: 17, // index of the next experiment timeline event to apply
  finishedCores: 18,
  expected: 19, // workers that run the current epoch (the barrier waits for this many)
  epochLogCount: 20, // epochs committed into the epoch log (beyond EPOCH_LOG_CAP: counted, not stored)
} as const;
export const CTL_INTS = 32;

export const CTLF = {
  epochStartPs: 0,
  epochEndPs: 1,
  simTimePs: 2,
  nextSamplePs: 3,
  lastSamplePs: 4,
  stopAtPs: 5,
  quantumPs: 6,
  samplePs: 7,
  chipEnergyJ: 8,
  chipPowerW: 9,
  simOps: 10, // loads + stores so far (progress display)
  prevFlits: 11,
  prevRequests: 12,
  seriesPrevEnergyJ: 13,
  seriesPrevFlits: 14,
  lastWeavePs: 15, // end of the span the weave last accounted (link utilisation window)
  lastBoundaryPs: 16, // the latest epoch end so far (boundaries that move time forward are "fresh")
} as const;
export const CTLF_SLOTS = 24;

/** A core's page-protection header (Float64 slots in the `pageHdr` region). */
export const PAGE_HDR = {
  base: 0, // first byte of the protected range (core address)
  pages: 1, // pages protected (0: protection off)
  pageBytes: 2,
  visible: 3, // 1: the levels are in the `pages` region; 0: the range has more pages than it holds
} as const;
export const PAGE_HDR_SLOTS = 4;

export const enum Status {
  Running = 0,
  Paused = 1,
  Done = 2,
  Error = 3,
  Stopped = 4,
}
export const enum Request {
  Run = 0,
  Pause = 1,
  Step = 2,
  Stop = 3,
}

/** Scheduler fields of a core slot, after the counters. */
export const S = {
  wakePs: CORE_COUNTERS + 0, // when a blocked core was released (NaN while blocked)
  blockedAtPs: CORE_COUNTERS + 1,
  waitLine: CORE_COUNTERS + 2,
  waitOffset: CORE_COUNTERS + 3,
  waitSize: CORE_COUNTERS + 4,
  waitOp: CORE_COUNTERS + 5,
  waitValue: CORE_COUNTERS + 6,
  waitCand: CORE_COUNTERS + 7, // commit-time candidate wake (internal)
  sleepUntilPs: CORE_COUNTERS + 8,
  pendingDelayPs: CORE_COUNTERS + 9, // queueing delay charged by the weave, applied next epoch
  tasResult: CORE_COUNTERS + 10,
  logCount: CORE_COUNTERS + 11,
  txnCount: CORE_COUNTERS + 12,
  barrierGroup: CORE_COUNTERS + 13,
  participates: CORE_COUNTERS + 14,
  periodPs: CORE_COUNTERS + 15,
  epochStartClockPs: CORE_COUNTERS + 16,
  prevBusyPs: CORE_COUNTERS + 17, // for power: busy/stall/wait at the previous commit
  prevStallPs: CORE_COUNTERS + 18,
  activeCreditPs: CORE_COUNTERS + 19, // power: weighted active time not yet accounted
  prevClockPs: CORE_COUNTERS + 20,
  powerW: CORE_COUNTERS + 21,
  barrierCount: CORE_COUNTERS + 22,
  waitReadPs: CORE_COUNTERS + 23, // cost of the final successful poll of a wait
  sampleBusyPs: CORE_COUNTERS + 24,
  sampleClockPs: CORE_COUNTERS + 25,
  prevWaitPs: CORE_COUNTERS + 26, // power: wait time seen at the previous commit
  waitAccountedPs: CORE_COUNTERS + 27, // power: blocked time already accounted, not yet in stallWaitPs
  waitsFor: CORE_COUNTERS + 28, // a flag wait: the core whose write releases it, -1 = not named (wait-for.ts)
  waitWhat: CORE_COUNTERS + 29, // what that core writes (index in WAIT_WHAT)
  waitL1Value: CORE_COUNTERS + 30, // a flag wait polling a copy in its L1 (CL1INVMB skipped): that copy's value; NaN = polls memory
} as const;
export const CORE_SLOTS = CORE_COUNTERS + 32;

/** Write-log entry (64 B): f64 visible time, u32 line id, u32 byte mask, u32 kind, u32 seq, 32 B data. */
export const WLOG_BYTES = 64;
export const WLOG_WRITE = 0;
export const WLOG_TAS = 1;
/** A request to a family memory-side unit, applied at commit by ChipFamily.commitUnit (no data written). */
export const WLOG_UNIT = 2;
/**
 * Transaction entry (40 B), one record per coalesced stream (CoreBase.txnRecord): f64 arrival
 * of the first transaction at its target; u32 target; u32 meta (source tile | cause << 20 |
 * misses in flight << 24); u32 flits (request << 16 | response); u32 count; f64 arrival of the
 * last; u32 line id of the first; u32 shape: bytes (bits 7..0), repeat (15..8), line stride
 * (31..16, signed). Transaction i (0-based) is at line first + floor(i / repeat) x stride and
 * arrives at first + i x (last - first) / (count - 1).
 */
export const TXN_BYTES = 40;
export const TXN_TARGET_MPB = 0x10000; // target = controller, or TXN_TARGET_MPB | tile

export const LINK_SLOTS = 4; // flits, epochFlits(scratch), busyPs, maxUtil
export const CTRL_SLOTS = 16; // see CTRL in weave.ts
export const ISL_SLOTS = 4; // energyJ, powerW, divisor, volts
export const SERIES_CAP = 2048;
export const EVENTS_CAP = 1024;
export const BLOCKS_PER_CTRL = 65536;
export const CAL_CAP = 1024;
export const BLOCK_BYTES = 128 * 1024;
/** Epoch boundaries the epoch log keeps (8 B each: 512 KB); later epochs are counted, not stored. */
export const EPOCH_LOG_CAP = 65536;

export interface Layout {
  cores: number;
  tiles: number;
  links: number;
  controllers: number;
  islands: number;
  wlogCap: number;
  txnCap: number;
  l1Slots: number;
  l2Slots: number;
  seriesStride: number;
  stateBytes: number;
  poolBytes: number;
  off: {
    ctl: number;
    ctlF: number;
    core: number;
    wlog: number;
    txn: number;
    l1: number;
    l2: number;
    mpb: number;
    tas: number;
    blocks: number;
    links: number;
    ctrl: number;
    isl: number;
    tileDiv: number;
    matrix: number;
    series: number;
    events: number;
    wake: number;
    cal: number;
    dram: number;
    unit: number;
    epochLog: number;
    pageHdr: number;
    pages: number;
  };
  l1Stride: number; // bytes per core
  l2Stride: number;
  mpbBytes: number;
  tasRegs: number;
  unitBytes: number;
  /** DRAM banks per controller (0: the fixed-service model). */
  dramBanks: number;
  /** Pages per core whose levels the `pages` region holds (0: no page regions). */
  pagesPerCore: number;
}

export interface LayoutOptions {
  /** Write-log entries per core (default: logCapacities). */
  wlogCap?: number;
  /** Transaction records per core (default: logCapacities). */
  txnCap?: number;
}

/** Per-core log capacities of small chips (the SCC): 1 MB of writes and 256 KB of transactions per core. */
export const WLOG_CAP_DEFAULT = 16384;
export const TXN_CAP_DEFAULT = 8192;
/**
 * Host memory all cores' write logs, and all cores' transaction logs, may take by default
 * (model of the host, not of the chip): a 48-core SCC stays at the defaults (its logs take
 * 48 MB and 12 MB), a 1024-core mesh gets 4096 entries of each per core.
 */
export const WLOG_BUDGET_BYTES = 256 * 1024 * 1024;
export const TXN_BUDGET_BYTES = 64 * 1024 * 1024;
/** Entries one program step may add beyond the time bound (the scheduler checks the epoch end between steps). */
const STEP_SLACK = 1024;

function pow2Ceil(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}
function pow2Floor(n: number): number {
  return 2 ** Math.floor(Math.log2(Math.max(1, n)));
}

/**
 * Default log capacities per core for `chip` at quantum `quantumPs`.
 * Time bound: every logged write and every new transaction record costs its core at least one
 * cycle (the issue), and a core runs about one quantum per epoch (less than two), plus one
 * program step past the epoch end; so 2 x (quantum / fastest core period) + STEP_SLACK entries
 * hold any epoch of programs that check `due()` in their loops. What a single call buffers
 * beyond that (a core.flush() of a whole dirty L2, a writeRange of a large buffer) is not
 * bounded by time: it needs the budget's room, or fails naming the capacity.
 * Capacity per core = min(default, max(time bound, budget / cores)), powers of two.
 */
export function logCapacities(chip: ResolvedChip, quantumPs: number): { wlogCap: number; txnCap: number } {
  const fastestDivisor = Math.min(...chip.vf.keys(), ...chip.tileDivisors);
  const fastestPs = corePeriodPs(chip, fastestDivisor);
  const timeBound = pow2Ceil(2 * Math.ceil(quantumPs / fastestPs) + STEP_SLACK);
  const cores = chip.topo.cores;
  const fit = (budget: number, entryBytes: number, dflt: number) => Math.min(dflt, Math.max(timeBound, pow2Floor(budget / cores / entryBytes)));
  return { wlogCap: fit(WLOG_BUDGET_BYTES, WLOG_BYTES, WLOG_CAP_DEFAULT), txnCap: fit(TXN_BUDGET_BYTES, TXN_BYTES, TXN_CAP_DEFAULT) };
}

/**
 * One time-series record (Float64 each), in this order: time ps, chip power W (average over
 * the interval), link flits per us, island power W x islands, controller requests (cumulative)
 * x controllers, controller queue depth at the sample x controllers, core utilisation over the
 * interval x cores. seriesOffsets gives the index of each group.
 */
export function seriesOffsets(islands: number, controllers: number): {
  timePs: number;
  chipPowerW: number;
  flitsPerUs: number;
  islandPowerW: number;
  controllerRequests: number;
  controllerQueueDepth: number;
  coreUtilization: number;
} {
  return {
    timePs: 0,
    chipPowerW: 1,
    flitsPerUs: 2,
    islandPowerW: 3,
    controllerRequests: 3 + islands,
    controllerQueueDepth: 3 + islands + controllers,
    coreUtilization: 3 + islands + 2 * controllers,
  };
}

export function seriesStride(cores: number, islands: number, controllers: number): number {
  return seriesOffsets(islands, controllers).coreUtilization + cores;
}

function cacheStride(slots: number): number {
  return slots * 8 + align8(slots) + slots * 32 + 8;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** The layout of a run of `chip` at quantum `quantumPs` (log capacities: `opts`, else logCapacities). */
export function computeLayout(chip: ResolvedChip, opts: LayoutOptions = {}, quantumPs = 1_000_000): Layout {
  const cores = chip.topo.cores;
  const caps = logCapacities(chip, quantumPs);
  const wlogCap = opts.wlogCap ?? caps.wlogCap;
  const txnCap = opts.txnCap ?? caps.txnCap;
  for (const [name, cap] of [
    ['wlogCap', wlogCap],
    ['txnCap', txnCap],
  ] as const)
    if (!Number.isInteger(cap) || cap < 16 || cap > 1 << 20)
      throw new RangeError(`layout.${name}: expected an integer from 16 to ${1 << 20} entries per core, got ${cap}`);
  const l1Slots = chip.l1d.sets * chip.l1d.ways;
  const l2Slots = chip.l2 ? chip.l2.sets * chip.l2.ways : 0;
  const stride = seriesStride(cores, chip.islands, chip.controllers);
  let at = 0;
  const take = (bytes: number): number => {
    const o = at;
    at = align8(at + bytes);
    return o;
  };
  const l1Stride = cacheStride(l1Slots);
  const l2Stride = cacheStride(l2Slots);
  const pagesPerCore = chip.protectedPagesPerCore ?? 0;
  if (!Number.isInteger(pagesPerCore) || pagesPerCore < 0) throw new RangeError(`layout: protectedPagesPerCore must be a whole number of pages, got ${pagesPerCore}`);
  const off = {
    ctl: take(32 * 4),
    ctlF: take(CTLF_SLOTS * 8),
    core: take(cores * CORE_SLOTS * 8),
    wlog: take(cores * wlogCap * WLOG_BYTES),
    txn: take(cores * txnCap * TXN_BYTES),
    l1: take(cores * l1Stride),
    l2: take(cores * l2Stride),
    mpb: take(chip.topo.tiles * chip.mpbBytes),
    tas: take(chip.tasRegisters * 4),
    blocks: take(chip.controllers * BLOCKS_PER_CTRL * 4),
    links: take(chip.topo.links * LINK_SLOTS * 8),
    ctrl: take(chip.controllers * CTRL_SLOTS * 8),
    isl: take(chip.islands * ISL_SLOTS * 8),
    tileDiv: take(chip.topo.tiles * 4),
    matrix: take(cores * cores * 2 * 8),
    series: take(SERIES_CAP * stride * 8),
    events: take(EVENTS_CAP * 4 * 8),
    wake: take(cores * 4),
    cal: take(chip.controllers * CAL_CAP * 2 * 8),
    dram: take(chip.controllers * dramBanks(chip.dram) * BANK_SLOTS * 8),
    unit: take(chip.unitStateBytes ?? 0),
    epochLog: take(EPOCH_LOG_CAP * 8),
    pageHdr: take(pagesPerCore > 0 ? cores * PAGE_HDR_SLOTS * 8 : 0),
    pages: take(cores * pagesPerCore),
  };
  return {
    cores,
    tiles: chip.topo.tiles,
    links: chip.topo.links,
    controllers: chip.controllers,
    islands: chip.islands,
    wlogCap,
    txnCap,
    l1Slots,
    l2Slots,
    seriesStride: stride,
    stateBytes: at,
    poolBytes: Math.ceil(chip.poolBytes / BLOCK_BYTES) * BLOCK_BYTES,
    off,
    l1Stride,
    l2Stride,
    mpbBytes: chip.mpbBytes,
    tasRegs: chip.tasRegisters,
    unitBytes: chip.unitStateBytes ?? 0,
    dramBanks: dramBanks(chip.dram),
    pagesPerCore,
  };
}

/** Typed views over the shared buffers; one per thread, built from the same layout. */
export interface Views {
  layout: Layout;
  /** Shared between worker threads, or a plain ArrayBuffer in the one-worker fallback (allocateBuffers). */
  state: StateBuffer;
  pool: StateBuffer;
  ctl: Int32Array;
  ctlF: Float64Array;
  core: Float64Array;
  wlogF: Float64Array;
  wlogU: Uint32Array;
  txnF: Float64Array;
  txnU: Uint32Array;
  mpb: Uint8Array;
  mpb32: Uint32Array;
  tas: Int32Array;
  blocks: Int32Array;
  poolU8: Uint8Array;
  pool32: Uint32Array;
  links: Float64Array;
  ctrl: Float64Array;
  isl: Float64Array;
  tileDiv: Int32Array;
  matrix: Float64Array;
  series: Float64Array;
  events: Float64Array;
  wake: Int32Array;
  cal: Float64Array;
  /** Every controller's DRAM bank state (dram/ddr.ts BANK_SLOTS per bank). */
  dram: Float64Array;
  /** The family units' state (layout.unitBytes bytes) as 32-bit words. */
  unit: Int32Array;
  /** End time (ps) of each committed epoch (EPOCH_LOG_CAP entries; CTL.epochLogCount of them written). */
  epochLog: Float64Array;
  /** Each core's page-protection header (PAGE_HDR_SLOTS per core; empty when layout.pagesPerCore is 0). */
  pageHdr: Float64Array;
  /** Each core's page levels and marks (layout.pagesPerCore per core; page-protection.ts). */
  pages: Uint8Array;
}

/**
 * 32-bit words in a DRAM pool of `bytes` bytes. Not `bytes >>> 2`: a pool of exactly 2^32 bytes
 * (4 GiB, the most one typed array holds) would wrap to 0 words, every committed write would be
 * dropped and every read return nothing (regression: the cluster deadlocked at start).
 */
export function poolWords(bytes: number): number {
  return Math.floor(bytes / 4);
}

export function makeViews(layout: Layout, state: StateBuffer, pool: StateBuffer): Views {
  const o = layout.off;
  const cores = layout.cores;
  return {
    layout,
    state,
    pool,
    ctl: new Int32Array(state, o.ctl, 32),
    ctlF: new Float64Array(state, o.ctlF, CTLF_SLOTS),
    core: new Float64Array(state, o.core, cores * CORE_SLOTS),
    wlogF: new Float64Array(state, o.wlog, (cores * layout.wlogCap * WLOG_BYTES) / 8),
    wlogU: new Uint32Array(state, o.wlog, (cores * layout.wlogCap * WLOG_BYTES) / 4),
    txnF: new Float64Array(state, o.txn, (cores * layout.txnCap * TXN_BYTES) / 8),
    txnU: new Uint32Array(state, o.txn, (cores * layout.txnCap * TXN_BYTES) / 4),
    mpb: new Uint8Array(state, o.mpb, layout.tiles * layout.mpbBytes),
    mpb32: new Uint32Array(state, o.mpb, (layout.tiles * layout.mpbBytes) / 4),
    tas: new Int32Array(state, o.tas, layout.tasRegs),
    blocks: new Int32Array(state, o.blocks, layout.controllers * BLOCKS_PER_CTRL),
    poolU8: new Uint8Array(pool),
    pool32: new Uint32Array(pool, 0, poolWords(pool.byteLength)),
    links: new Float64Array(state, o.links, layout.links * LINK_SLOTS),
    ctrl: new Float64Array(state, o.ctrl, layout.controllers * CTRL_SLOTS),
    isl: new Float64Array(state, o.isl, layout.islands * ISL_SLOTS),
    tileDiv: new Int32Array(state, o.tileDiv, layout.tiles),
    matrix: new Float64Array(state, o.matrix, cores * cores * 2),
    series: new Float64Array(state, o.series, SERIES_CAP * layout.seriesStride),
    events: new Float64Array(state, o.events, EVENTS_CAP * 4),
    wake: new Int32Array(state, o.wake, cores),
    cal: new Float64Array(state, o.cal, layout.controllers * CAL_CAP * 2),
    dram: new Float64Array(state, o.dram, layout.controllers * layout.dramBanks * BANK_SLOTS),
    unit: new Int32Array(state, o.unit, layout.unitBytes >>> 2),
    epochLog: new Float64Array(state, o.epochLog, EPOCH_LOG_CAP),
    pageHdr: new Float64Array(state, o.pageHdr, layout.pagesPerCore > 0 ? cores * PAGE_HDR_SLOTS : 0),
    pages: new Uint8Array(state, o.pages, cores * layout.pagesPerCore),
  };
}

/**
 * The buffers of a run. A SharedArrayBuffer is what lets several worker threads run the chip;
 * where the page is not cross-origin isolated there is none, and one thread owns plain
 * ArrayBuffers instead (`shared: false`: the cooperative loop, cooperative.ts, which never calls
 * Atomics.wait). Atomics.load/store/add work the same on both. `poolBytes` overrides the DRAM
 * pool's size: 0 for a thread that only reads a copy of the state (the fallback's mirror).
 */
export type StateBuffer = SharedArrayBuffer | ArrayBuffer;
export function allocateBuffers(layout: Layout, opts: { shared?: boolean; poolBytes?: number } = {}): { state: StateBuffer; pool: StateBuffer } {
  const poolBytes = opts.poolBytes ?? layout.poolBytes;
  if (opts.shared === false) return { state: new ArrayBuffer(layout.stateBytes), pool: new ArrayBuffer(poolBytes) };
  return { state: new SharedArrayBuffer(layout.stateBytes), pool: new SharedArrayBuffer(poolBytes) };
}
