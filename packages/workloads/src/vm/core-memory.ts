/**
 * VmMemory over a simulated core of any family (TILE64, SCC): every access is the core's own
 * load or store; the simulated time each takes (its instruction, its cache and network time)
 * is charged to the VM routine running (ps), for the stall breakdown by routine.
 *
 * Contract
 * - routinePs[r]: the time of routine r's accesses and native work, and of the spans charged to
 *   it (charge), ps: the core's clock measured around each access (as before the split).
 * - causePs[r * CAUSES + k]: the same time split by cause k (CAUSE_NAMES), from the core's own
 *   counters (CoreBase.counterAt), never from a cost table. They are read when the routine
 *   changes (enter), and the change since the last read is the ended span's, i.e. the routine's:
 *     executed:   busy time (C.busyPs) less the TLB refills;
 *     tlbRefill:  the TLB refill handler (executed work: misses x tlbMissCycles; TILE64);
 *     remoteHome: the L2-miss-cause stall of words read at a non-home tile (waiting for the home
 *                 tile's L2, or memory through it; Tile64Core.remoteReads counts the reads);
 *     l1Miss, l2Miss, dram, mpb, network, wait, flush: the engine's stall causes (STALL_NAMES),
 *                 l2Miss without the remote reads.
 *   Every ps an access moves the core's clock is busy or a stall in the engine, so a routine's
 *   causes sum to routinePs[r] (float rounding aside) provided no time passes outside the
 *   accesses between two reads: the workload calls flush() before such time (a wait for the
 *   baton, an epoch's end where the weave charges queueing, a baton's message) and sync() after
 *   it (which drops it), and charge() for a span it wants counted.
 *   A span with both remote reads and local L2 misses (rare: about 0.5 % of the L2-cause stall
 *   of the compiler benchmark) splits its L2-cause stall between them by their counts (model).
 * - The accesses themselves only add their time to routinePs (no allocation, no counter read):
 *   the counters are read once per routine change, the stall counters only when the span
 *   stalled. One family per run keeps the call sites monomorphic.
 */
import { C, STALL_NAMES } from '@manycore/engine';
import { ROUTINE, ROUTINE_NAMES, type VmMemory } from './format';

/** The causes the routines' time is split by (VmExtra routines[].causes), in drawing order. */
export const CAUSE_NAMES = ['executed', 'tlbRefill', 'remoteHome', ...STALL_NAMES] as const;
export type CauseName = (typeof CAUSE_NAMES)[number];
const CAUSES = CAUSE_NAMES.length;
const K_EXECUTED = 0;
const K_TLB = 1;
const K_REMOTE = 2;
/** Index of the engine's first stall cause (STALL_L1_MISS) in CAUSE_NAMES. */
const K_STALL0 = 3;
const STALLS = STALL_NAMES.length;
const S_L2MISS = STALL_NAMES.indexOf('l2Miss');
/** Below this (ps) an access's time beyond its busy time is float rounding, not a stall. */
const EPS_PS = 1e-3;

/** What CoreVmMemory needs of a core: its clock, its scalar accesses and its counters. */
export interface ScalarCore {
  readonly now: number;
  load32(addr: number): number;
  store32(addr: number, value: number): void;
  load8(addr: number): number;
  store8(addr: number, value: number): void;
  compute(cycles: number): void;
  /** the core's clock period, ps */
  readonly period: number;
  /** the core's counter at index C.* so far; times in ps */
  counterAt(index: number): number;
}

/** What the family's core can say beyond the engine's counters (absent: that cause stays 0). */
export interface CauseSources {
  /** the data TLB's miss count, and the refill handler's cycles per miss (TILE64) */
  tlb?: { readonly misses: number };
  tlbMissCycles?: number;
  /** the words it read at a non-home tile so far (TILE64 homing: Tile64Core.remoteReads) */
  remote?: { readonly remoteReads: number };
}

export class CoreVmMemory implements VmMemory {
  readonly routinePs = new Float64Array(ROUTINE_NAMES.length);
  readonly causePs = new Float64Array(ROUTINE_NAMES.length * CAUSES);
  /** spans whose L2-miss stall mixed remote reads and local L2 misses (split by count) */
  mixedSpans = 0;
  private routine: number = ROUTINE.fetchBytecode;
  private readonly tlb: { readonly misses: number } | null;
  private readonly tlbMissCycles: number;
  private readonly remote: { readonly remoteReads: number } | null;
  // the counters as last read
  private lastBusy = 0;
  private lastMisses = 0;
  private lastRemote = 0;
  private lastL2Misses = 0;
  /** the core's clock at the last read of the counters */
  private lastNow = 0;
  private readonly lastStall = new Float64Array(STALLS);

  constructor(
    private readonly core: ScalarCore,
    sources: CauseSources = {},
  ) {
    this.tlb = sources.tlb ?? null;
    this.tlbMissCycles = sources.tlbMissCycles ?? 0;
    this.remote = sources.remote ?? null;
    this.sync();
  }

  load32(addr: number): number {
    const c = this.core;
    const t = c.now;
    const v = c.load32(addr);
    this.routinePs[this.routine] += c.now - t;
    return v;
  }
  store32(addr: number, value: number): void {
    const c = this.core;
    const t = c.now;
    c.store32(addr, value);
    this.routinePs[this.routine] += c.now - t;
  }
  load8(addr: number): number {
    const c = this.core;
    const t = c.now;
    const v = c.load8(addr);
    this.routinePs[this.routine] += c.now - t;
    return v;
  }
  store8(addr: number, value: number): void {
    const c = this.core;
    const t = c.now;
    c.store8(addr, value);
    this.routinePs[this.routine] += c.now - t;
  }
  compute(cycles: number): void {
    const c = this.core;
    const t = c.now;
    c.compute(cycles);
    this.routinePs[this.routine] += c.now - t;
  }
  enter(routine: number): void {
    if (routine !== this.routine) {
      this.flushTo(this.routine);
      this.routine = routine;
    }
  }

  /** Re-reads the core's counters, dropping their change since the last flush (time spent outside the routines: call flush() before it). */
  sync(): void {
    const c = this.core;
    this.lastBusy = c.counterAt(C.busyPs);
    for (let s = 0; s < STALLS; s++) this.lastStall[s] = c.counterAt(C.stallL1MissPs + s);
    this.lastMisses = this.tlb?.misses ?? 0;
    this.lastRemote = this.remote?.remoteReads ?? 0;
    this.lastL2Misses = c.counterAt(C.l2Misses);
    this.lastNow = c.now;
  }

  /** Charges `ps` of the core's clock spent outside the loads and stores since the last flush() (a baton's message or flush) to `routine`, split by cause. */
  charge(routine: number, ps: number): void {
    this.routinePs[routine] += ps;
    this.flushTo(routine);
  }

  /** Attributes the counters' change since they were last read to the routine running (before time passes outside the routines). */
  flush(): void {
    this.flushTo(this.routine);
  }

  /** Attributes the counters' change since they were last read to `routine`. */
  private flushTo(routine: number): void {
    const c = this.core;
    const base = routine * CAUSES;
    const cp = this.causePs;
    const busy = c.counterAt(C.busyPs);
    const busy0 = this.lastBusy;
    let executed = busy - busy0;
    this.lastBusy = busy;
    const tlb = this.tlb;
    if (tlb !== null && tlb.misses !== this.lastMisses) {
      const ps = (tlb.misses - this.lastMisses) * this.tlbMissCycles * c.period;
      this.lastMisses = tlb.misses;
      executed -= ps;
      cp[base + K_TLB] += ps;
    }
    cp[base + K_EXECUTED] += executed;
    const now = c.now;
    const stallPs = now - this.lastNow - (busy - busy0);
    this.lastNow = now;
    if (stallPs <= EPS_PS) return;
    const last = this.lastStall;
    let l2 = 0;
    let seen = 0;
    for (let s = 0; s < STALLS && seen < stallPs - EPS_PS; s++) {
      const v = c.counterAt(C.stallL1MissPs + s);
      const d = v - last[s]!;
      if (d === 0) continue;
      last[s] = v;
      seen += d;
      if (s === S_L2MISS) l2 = d;
      else cp[base + K_STALL0 + s] += d;
    }
    const remote = this.remote === null ? 0 : this.remote.remoteReads - this.lastRemote;
    const local = c.counterAt(C.l2Misses) - this.lastL2Misses;
    if (remote !== 0) this.lastRemote += remote;
    if (local !== 0) this.lastL2Misses += local;
    if (l2 === 0) return;
    if (remote === 0) cp[base + K_STALL0 + S_L2MISS] += l2;
    else if (local === 0) cp[base + K_REMOTE] += l2;
    else {
      this.mixedSpans++;
      cp[base + K_REMOTE] += l2 * remote / (remote + local);
      cp[base + K_STALL0 + S_L2MISS] += l2 * local / (remote + local);
    }
  }
}
