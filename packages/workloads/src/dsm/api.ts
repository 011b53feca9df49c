/**
 * The interface between a distributed-shared-memory application and a runtime (issue 16;
 * ../shared/reference/dsm.md). One application code runs on every runtime: the page-based
 * (TreadMarks-like) and object-based (SkidMarks-like) runtimes on a cluster or the SCC, and the
 * sequential one (local.ts) that gives the reference result.
 *
 * Contract
 * - Shared data are arrays of objects (`alloc`): `count` objects of `objectBytes` each (a row of
 *   SOR, a molecule, a body or a cell). A page runtime lays them out contiguously from a page
 *   boundary, as the original program's arrays; an object runtime gives each a handle.
 * - `open(arr, i, write)` makes object i accessible and returns the address of its first byte;
 *   every fault an access to the object would take is taken here, page by page in address order
 *   (the compiler's hoisted `touch`, paper 004 lines 160-260). The application then reads and
 *   writes it with the core's scalar loads and stores (`core.loadF64(addr + 8 * k)`), only
 *   within [addr, addr + objectBytes), and only stores after open(..., true). The address is
 *   valid until the processor's next synchronisation operation (acquire, release, barrier):
 *   reopen after one (paper 004: a cached handle must not be reused across a synchronisation
 *   point).
 * - Synchronisation: `acquire(lock)` / `release(lock)` (locks 0..locks-1), `barrier()` of all
 *   processors. Lazy release consistency: a processor sees another's writes only after a
 *   chain of release -> acquire between them.
 * - `poll()`: call between pieces of work (once per object or row in long loops): the runtime
 *   serves requests that have arrived (a SIGIO handler) and yields to the scheduler when the
 *   epoch is due. It never blocks.
 * - `alloc` is collective: every processor calls it in the same order with the same arguments,
 *   before the first synchronisation that uses the array; it returns the same descriptor on
 *   every processor. Initial contents are zero.
 * - Counters (`stats`): messages, bytes, overlapped requests, rounds, faults, write notices,
 *   diffs, twins, memory: kept by the runtime, read by the workload.
 * Units: bytes, core cycles.
 */
import type { CoreBase, Sim } from '@manycore/engine';

/** Cores with scalar double and word access (ClusterCore, SccCore via an adapter). */
export interface DsmCore extends CoreBase {
  loadF64(addr: number): number;
  storeF64(addr: number, value: number): void;
  load32(addr: number): number;
  store32(addr: number, value: number): void;
}

export interface SharedArrayDesc {
  /** Allocation order, 0.. */
  readonly id: number;
  readonly name: string;
  readonly count: number;
  readonly objectBytes: number;
}

/** A runtime's protocol counters for one processor (summed over processors by the workload). */
export interface DsmStats {
  messages: number;
  bytes: number;
  /** Calls that sent requests to several processors at once and waited for all replies (Table 3's "overlapped requests"). */
  overlappedRequests: number;
  /** Request-reply rounds a processor waited for (one per overlapped request or single request). */
  rounds: number;
  readFaults: number;
  writeFaults: number;
  writeNotices: number;
  diffs: number;
  twins: number;
  /** Shared-data bytes this processor holds (pages or objects allocated locally, twins, diffs kept). */
  memoryBytes: number;
  /**
   * Of memoryBytes, the shared data allocated locally only (pages or objects, without twins and
   * diffs): what paper 004 Tables 3 and 4 call "object memory alloc.".
   */
  allocatedBytes: number;
}

export interface Dsm {
  /** This processor, 0..procs-1. */
  readonly me: number;
  readonly procs: number;
  readonly core: DsmCore;
  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc;
  open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number>;
  acquire(lock: number): Sim<void>;
  release(lock: number): Sim<void>;
  barrier(): Sim<void>;
  poll(): Sim<void>;
  readonly stats: DsmStats;
}

export type SizeName = 'small' | 'paper-sm' | 'paper-lg';

/** A result check: `correct` when the shared result equals the sequential one (detail says how it was compared). */
export interface CheckResult {
  correct: boolean;
  detail: string;
}

/**
 * A DSM application: the paper's program written against Dsm. `run` is what every processor
 * executes (timed, counted); `check` runs afterwards on processor 0 only (opening the result
 * through the runtime), or with `combine` on every processor (its traffic is not counted in the
 * rows either way) and compares it with `reference`,
 * a plain JavaScript computation of the same arithmetic.
 */
export interface DsmApp<S = unknown> {
  readonly name: string;
  readonly title: string;
  /** Sizes: `small` (interactive default) and the paper's two inputs (paper 004 Table 1). */
  readonly sizes: Record<SizeName, S>;
  /** One line describing a size ("3070 x 2047, 20 steps"). */
  describe(size: S): string;
  /** Locks the program uses. */
  locks(size: S, procs: number): number;
  run(dsm: Dsm, size: S): Sim<void>;
  check(dsm: Dsm, size: S): Sim<CheckResult>;
  /**
   * Present: `check` runs on every processor after the run (each checks what it computed, from
   * its own copy), and this combines their verdicts (in processor order) into the run's. Absent:
   * `check` runs on processor 0 only.
   */
  combine?(checks: CheckResult[], size: S): CheckResult;
}

export function zeroStats(): DsmStats {
  return { messages: 0, bytes: 0, overlappedRequests: 0, rounds: 0, readFaults: 0, writeFaults: 0, writeNotices: 0, diffs: 0, twins: 0, memoryBytes: 0, allocatedBytes: 0 };
}
