/**
 * The shared vocabulary of the engine (cf. ZSim's memory_hierarchy.h): address encoding,
 * access kinds, stall causes, counter slots and yield tokens. Every other module speaks
 * in these terms; nothing here allocates or holds state.
 *
 * Addresses
 * - A *core address* is a 32-bit core-physical address as a workload sees it. Its top 8 bits
 *   are a page number into the core's lookup table (LUT, 256 pages of 16 MB, as on the SCC).
 * - A LUT entry names a *target*: a DRAM controller (with a system page there), a tile's
 *   MPB, or a test-and-set register bank. Entries are packed into one uint32 (see lutEntry*).
 * - A *line id* is a uint32 naming one 32-byte line of system memory anywhere on the chip:
 *   bits 31..28 = space (0..13 DRAM controller, SPACE_MPB, SPACE_TAS), bits 27..0 = line
 *   within that space (DRAM: up to 8 GB per controller; MPB: tile << 9 | line).
 */

export const LINE_BYTES = 32;
export const LINE_WORDS = LINE_BYTES / 4; // 32-bit words per line (line copies)
export const LINE_SHIFT = 5;
export const PAGE_SHIFT = 24;
export const PAGE_BYTES = 1 << PAGE_SHIFT;
export const LUT_ENTRIES = 256;

// ---- line-id spaces --------------------------------------------------------------
export const SPACE_SHIFT = 28;
export const SPACE_MPB = 15;
export const SPACE_TAS = 14;
export const MAX_CONTROLLERS = 14;
export const MPB_TILE_SHIFT = 9; // 512 lines of 32 B = 16 KB per tile at most

export function dramLineId(ctrl: number, sysOffsetBytes: number): number {
  return ((ctrl << SPACE_SHIFT) | (sysOffsetBytes / LINE_BYTES)) >>> 0;
}
export function mpbLineId(tile: number, offsetBytes: number): number {
  return ((SPACE_MPB << SPACE_SHIFT) | (tile << MPB_TILE_SHIFT) | (offsetBytes >>> LINE_SHIFT)) >>> 0;
}
export function tasLineId(reg: number): number {
  return ((SPACE_TAS << SPACE_SHIFT) | reg) >>> 0;
}

// ---- LUT entries -----------------------------------------------------------------
/** Target kinds of a LUT entry (bits 31..29). */
export const TARGET_NONE = 0;
export const TARGET_DRAM = 1;
export const TARGET_MPB = 2;
/** Page attributes (bits 28..27): how the issuing core's caches treat the page. */
export const ATTR_MPBT = 1; // cached in L1 only, write-combined, invalidated by CL1INVMB
export const ATTR_UNCACHED = 2; // bypasses every cache

/** Packs kind (3 bits), attributes (2 bits), unit (controller or tile, 7 bits) and system page (20 bits). */
export function lutEntry(kind: number, attrs: number, unit: number, sysPage: number): number {
  return ((kind << 29) | (attrs << 27) | (unit << 20) | sysPage) >>> 0;
}
export function lutKind(e: number): number {
  return e >>> 29;
}
export function lutAttrs(e: number): number {
  return (e >>> 27) & 3;
}
export function lutUnit(e: number): number {
  return (e >>> 20) & 0x7f;
}
export function lutSysPage(e: number): number {
  return e & 0xfffff;
}

// ---- stall causes and per-core counters ------------------------------------------
/** Per-core counter slots (Float64 each) in the telemetry region. Times in ps. */
export const C = {
  clockPs: 0,
  cycles: 1,
  busyPs: 2,
  stallL1MissPs: 3, // waiting for an L2 hit
  stallL2MissPs: 4, // waiting for DRAM to fill a cached line
  stallDramPs: 5, // uncached DRAM accesses
  stallMpbPs: 6,
  stallNetworkPs: 7, // queueing charged by the weave phase (links and controllers)
  stallWaitPs: 8, // blocked on a flag, barrier or lock
  stallFlushPs: 9,
  sleepPs: 10,
  loads: 11,
  stores: 12,
  l1Hits: 13,
  l1Misses: 14,
  l2Hits: 15,
  l2Misses: 16,
  dramReads: 17,
  dramWrites: 18,
  mpbReads: 19,
  mpbWrites: 20,
  bytesSent: 21,
  bytesReceived: 22,
  messagesSent: 23,
  messagesReceived: 24,
  flushes: 25,
  energyJ: 26,
  state: 27, // CoreState
  blockedOn: 28, // BlockReason
  l1Lines: 29, // valid lines in L1D (refreshed each epoch)
  l2Lines: 30,
  flits: 31,
  /**
   * Instructions executed. Every operation declares its own (a scalar load or store: 1; a bulk
   * range: its moves plus the loop's overhead, see the family's core; `compute(cycles,
   * instructions)`: what the caller says, one per cycle by default; a spin on a flag: the poll
   * loop's instructions once per poll read while it waits). IPC = instructions / cycles, the
   * RCCE study's definition (wall-clock core cycles, not busy cycles; paper 003 Table I).
   */
  instructions: 32,
  /**
   * Reads that go to memory from a page mapped uncached (the P54C event "non-cacheable memory
   * reads", paper 003 lines 2841-2848): one per bus read. Reads of MPBT lines (L1-cached) are
   * not counted. SCC family only; 0 elsewhere.
   */
  nonCacheableReads: 33,
  /**
   * Messages as a message-passing library logs them: the RCCE study's logger counted every
   * RCCE_put and RCCE_get call (paper 003 lines 2867-2876; flag polling is not a call). Counted
   * by the library (`CoreBase.logMessage`), not by the hardware.
   */
  loggedMessages: 34,
  /**
   * Page faults a page-protection runtime took (page-protection.ts; CoreBase.touch): an access to
   * an invalid page (read) or a store to a read-only one (write). 0 without page protection.
   */
  readFaults: 35,
  writeFaults: 36,
} as const;
/**
 * Counter slots in use. The P54C's two programmable counters (CESR at MSR 0x11, counters at
 * 0x12 and 0x13; paper 003 lines 2831-2852) count two events per run; the lab counts every event
 * it models on every core at once (instructions and non-cacheable reads: what the study's
 * event word 0xD600DE selects, without a second run). L1 code misses (the other word,
 * 0xD600CE) are not modelled: workloads declare instruction counts, not code addresses, and
 * there is no instruction-fetch or L1I model, so there is no slot for them.
 */
export const CORE_COUNTERS = 37;
export const COUNTER_NAMES = Object.keys(C) as (keyof typeof C)[];

/** Stall cause codes, used as an index into the stall counters (C.stallL1MissPs + cause). */
export const STALL_L1_MISS = 0;
export const STALL_L2_MISS = 1;
export const STALL_DRAM = 2;
export const STALL_MPB = 3;
export const STALL_NETWORK = 4;
export const STALL_WAIT = 5;
export const STALL_FLUSH = 6;
export const STALL_NAMES = ['l1Miss', 'l2Miss', 'dram', 'mpb', 'network', 'wait', 'flush'] as const;

export const enum CoreState {
  Idle = 0, // runs no workload
  Runnable = 1,
  Blocked = 2,
  Sleeping = 3,
  Finished = 4,
  Failed = 5,
}
export const CORE_STATE_NAMES = ['idle', 'runnable', 'blocked', 'sleeping', 'finished', 'failed'] as const;

export const enum BlockReason {
  None = 0,
  Flag = 1,
  Barrier = 2,
  Lock = 3,
  Sleep = 4,
}
export const BLOCK_REASON_NAMES = ['none', 'flag', 'barrier', 'lock', 'sleep'] as const;

/** Comparison operators of waitUntil. */
export const enum WaitOp {
  Eq = 0,
  Ne = 1,
  Ge = 2,
  Gt = 3,
  Le = 4,
  Lt = 5,
}
export const WAIT_OPS = { '==': 0, '!=': 1, '>=': 2, '>': 3, '<=': 4, '<': 5 } as const;
export type WaitOpName = keyof typeof WAIT_OPS;

export function compare(op: number, a: number, b: number): boolean {
  switch (op) {
    case 0:
      return a === b;
    case 1:
      return a !== b;
    case 2:
      return a >= b;
    case 3:
      return a > b;
    case 4:
      return a <= b;
    default:
      return a < b;
  }
}

/** What a workload generator yields to the scheduler. */
export const YIELD_DUE = 0; // "check the epoch end" (long loops yield this regularly)
export const YIELD_BLOCKED = 1; // the core registered a blocking operation; stop running it
export type YieldToken = typeof YIELD_DUE | typeof YIELD_BLOCKED;
/** A workload's per-core program and the blocking core operations are generators of this type. */
export type Sim<T = void> = Generator<YieldToken, T, void>;
