/**
 * The VM's object memory on the SCC (issue 15 item 4): the same heap design as the TILE64's
 * (tile64-space.ts) on a chip with no homing and no coherence at all (scc.md section 1).
 *
 * Contract
 * - Every heap must be readable by every core (the interpreter reads methods, classes and
 *   arguments wherever they live), so the heaps are in the SCC's shared DRAM window, not in
 *   private memory. One read-write heap per core, heapBytes each (a power of two), on the
 *   memory controller nearest its core (chip.nearestController, where its private memory is
 *   too): the controller's first group of shared pages (the LUT puts sharedGroupPages
 *   consecutive 16 MB pages on one controller) holds, in order, the read-write heaps of the
 *   cores nearest it, their object-table slices, and on the main core's controller the
 *   snapshot's object table and the kernel's time-keeping page (the clock call, model). With
 *   replication, each controller's read-mostly slices (or the one global read-mostly heap, on
 *   the main core's controller) start on the next 16 MB page, because the memory type is per
 *   16 MB page. A layout that does not fit is a WorkloadParamError naming heapKB.
 * - Home of an address: a table indexed by (addr - sharedBase) >> log2(heapBytes) (the TILE64's
 *   shift, then one lookup, since the heaps of one controller are not next to those of the
 *   next). The baton rule still follows the heap's owner (the address names the core); on the
 *   SCC that buys locality only through the controller distance: shared pages bypass L2.
 * - Per-core VM data (method cache, context free lists: VmSpace.coreData) and the Heap
 *   descriptor {next free, end, next OTE, OTE end} are in the core's private memory (cached in
 *   L1 and L2): only their owner reads or writes them.
 * - Memory types (SccCore.mapPage, per core): read-write heaps, object table and kernel page
 *   by `sccSharing`:
 *     'uncached': every load and store a DRAM transaction; nothing to flush, nothing stale.
 *     'flush': MPBT (L1 only, write-through by the write-combine buffer; scc.md: MPBT, CL1INVMB),
 *       MetalSVM's svm_flush / svm_invalidate (paper 003 lines 804-819): the sender of the
 *       baton drains its write-combine buffer and waits for its writes (so memory holds every
 *       store it made before the baton's flag), the receiver runs CL1INVMB after the flag (so
 *       no L1 line it read before its last pass survives). One interpreter thread, so between
 *       two passes only one core writes: these two steps are what make the non-coherent chip
 *       correct.
 *   Read-mostly heaps: ordinary cached pages (L1 + L2). The store barrier moves an object out
 *   before any store, so these pages are written only by the snapshot load (stores that miss:
 *   no write-allocate, straight to memory) and a cached copy is never stale: the SCC's form of
 *   the TILE64's replicated pages, with no coherence work at all.
 * - The baton (sccBatonPost / sccBatonWait / sccBatonTake): one slot per receiver in its MPB
 *   half, like the TILE64's doorbell: line 0 the baton's BATON_WORDS words, line 1 the flag
 *   (the stamp). The sender flushes (above), writes the words (one write-combined line) and the
 *   stamp into the receiver's MPB; the receiver waits on its local flag (RCCE_wait_until:
 *   CL1INVMB and a local read per poll), runs CL1INVMB and reads the words. One token in
 *   flight: a receiver's slot is written again only after it passed the baton on, so no
 *   acknowledgement (MetalSVM's mailbox clears its flag; here the stamps increase instead).
 * Hot paths (SccSpace.homeOf / batonTarget / readMostly) do not allocate.
 */
import { PAGE_BYTES, WorkloadParamError, type SccChip, type SccCore, type Sim } from '@manycore/engine';
import { BATON_WORDS, CORE_DATA_WORDS, FMT_DONT_PASS, type VmMemory, type VmSpace } from './format';
import type { ObjectRole, Placement } from './image';
import { dealTo, type Replication } from './snapshot';
import { SNAPSHOT_OTES } from './tile64-space';

export const SCC_SHARING = ['uncached', 'flush'] as const;
export type SccSharing = (typeof SCC_SHARING)[number];

const KERNEL_PAGE_BYTES = 65536;
/** Private memory: the VM's per-core data (as on the TILE64: one 64 KB page in), then the Heap descriptor. */
const CORE_DATA_OFFSET = 65536;
const DESCRIPTOR_OFFSET = CORE_DATA_OFFSET + Math.ceil((CORE_DATA_WORDS * 4) / 64) * 64;
const D_NEXT = 0;
const D_END = 4;
const D_OT_NEXT = 8;
const D_OT_END = 12;
/** The baton's slot in each core's MPB half: the words' line, then the flag line. */
export const BATON_SLOT_OFFSET = 0;
const BATON_FLAG_OFFSET = BATON_SLOT_OFFSET + 32;
/** homeTable: an address that is in no heap. */
const NO_HOME = -1;

export interface SccLayout {
  cores: number;
  heapBytes: number;
  heapShift: number;
  replication: Replication;
  sharedBase: number;
  sharedBytes: number;
  mainCore: number;
  /** per core: its read-write heap, its object-table slice, its read-mostly slice (-1: none), its controller */
  heapBase: Float64Array;
  otSliceBase: Float64Array;
  otSliceEntries: number;
  rmBase: Float64Array;
  controller: Int32Array;
  /** the global read-mostly heap (replication 'global'), else -1 */
  globalRmBase: number;
  globalRmBytes: number;
  snapshotOtBase: number;
  kernelPage: number;
  /** per heap-sized chunk of the shared window: the core whose read-write heap or read-mostly slice it is, or -1 */
  homeTable: Int32Array;
  /** per heap-sized chunk: 1 when it is read-mostly (a slice or the global heap) */
  rmTable: Uint8Array;
  /** 16 MB pages to map: read-write (typed by sccSharing) and read-mostly (cached) */
  rwPages: number[];
  rmPages: number[];
}

/** The layout for `cores` heaps of `heapBytes` on an SCC-family chip; a WorkloadParamError naming heapKB when it does not fit. */
export function sccLayout(chip: SccChip, cores: number, heapBytes: number, replication: Replication, mainCore = 0): SccLayout {
  if (!Number.isInteger(Math.log2(heapBytes)) || heapBytes < 65536 || heapBytes > PAGE_BYTES)
    throw new WorkloadParamError(`heapKB = ${heapBytes / 1024}: a heap is a power of two from 64 KB to 16 MB (one SCC page)`, 'heapKB');
  const heapShift = Math.log2(heapBytes);
  const lut = chip.config.lut;
  const M = chip.controllers;
  const G = lut.sharedGroupPages;
  const sharedBase = chip.sharedBase;
  const sharedBytes = chip.sharedBytes;
  const otSliceEntries = heapBytes / 16; // an object is at least 16 B (3 header words + a slot), as on the TILE64
  const heapBase = new Float64Array(cores).fill(-1);
  const otSliceBase = new Float64Array(cores).fill(-1);
  const rmBase = new Float64Array(cores).fill(-1);
  const controller = new Int32Array(cores);
  const homeTable = new Int32Array(Math.ceil(sharedBytes / heapBytes)).fill(NO_HOME);
  const rmTable = new Uint8Array(homeTable.length);
  const rwPages: number[] = [];
  const rmPages: number[] = [];
  const mainCtrl = chip.nearestController[mainCore]!;
  let globalRmBase = -1;
  let snapshotOtBase = -1;
  let kernelPage = -1;
  const globalRmBytes = replication === 'global' ? cores * heapBytes : 0;
  const mark = (addr: number, bytes: number, core: number, rm: boolean) => {
    for (let a = addr; a < addr + bytes; a += heapBytes) {
      const i = (a - sharedBase) / heapBytes;
      homeTable[i] = core;
      rmTable[i] = rm ? 1 : 0;
    }
  };
  for (let m = 0; m < M; m++) {
    const mine: number[] = [];
    for (let k = 0; k < cores; k++) if (chip.nearestController[k] === m) mine.push(k);
    if (mine.length === 0 && m !== mainCtrl) continue;
    // the controller's first group of shared pages: pages m x G .. m x G + G - 1 of the window (resolve.ts)
    const firstPage = m * G;
    const pages = Math.min(G, lut.sharedPages - firstPage);
    if (pages <= 0)
      throw new WorkloadParamError(`memory controller ${m} has no shared page in this chip's LUT (${lut.sharedPages} shared pages, ${G} per controller), so cores ${mine.join(', ')} have no heap near them`, 'cores');
    const start = sharedBase + firstPage * PAGE_BYTES;
    let off = 0;
    for (const k of mine) {
      heapBase[k] = start + off;
      controller[k] = m;
      mark(start + off, heapBytes, k, false);
      off += heapBytes;
    }
    mine.forEach((k, j) => (otSliceBase[k] = start + off + j * otSliceEntries * 4));
    off += mine.length * otSliceEntries * 4;
    if (m === mainCtrl) {
      off = Math.ceil(off / 4096) * 4096;
      snapshotOtBase = start + off;
      off += SNAPSHOT_OTES * 4;
      off = Math.ceil(off / KERNEL_PAGE_BYTES) * KERNEL_PAGE_BYTES;
      kernelPage = start + off;
      off += KERNEL_PAGE_BYTES;
    }
    const rwCount = Math.ceil(off / PAGE_BYTES);
    for (let p = 0; p < rwCount; p++) rwPages.push(start + p * PAGE_BYTES);
    let rmBytes = 0;
    const rmStart = start + rwCount * PAGE_BYTES;
    if (replication === 'global') {
      if (m === mainCtrl) {
        globalRmBase = rmStart;
        rmBytes = globalRmBytes;
        mark(rmStart, rmBytes, NO_HOME, true);
      }
    } else if (replication !== 'none') {
      mine.forEach((k, j) => {
        rmBase[k] = rmStart + j * heapBytes;
        mark(rmStart + j * heapBytes, heapBytes, k, true);
      });
      rmBytes = mine.length * heapBytes;
    }
    const rmCount = Math.ceil(rmBytes / PAGE_BYTES);
    for (let p = 0; p < rmCount; p++) rmPages.push(rmStart + p * PAGE_BYTES);
    if (rwCount + rmCount > pages)
      throw new WorkloadParamError(
        `heapKB = ${heapBytes / 1024} on ${cores} cores needs ${rwCount + rmCount} shared 16 MB pages on memory controller ${m} (${mine.length} cores near it${replication === 'none' ? '' : `, replication ${replication}`}); the chip's LUT has ${pages} there`,
        'heapKB',
      );
  }
  return {
    cores,
    heapBytes,
    heapShift,
    replication,
    sharedBase,
    sharedBytes,
    mainCore,
    heapBase,
    otSliceBase,
    otSliceEntries,
    rmBase,
    controller,
    globalRmBase,
    globalRmBytes,
    snapshotOtBase,
    kernelPage,
    homeTable,
    rmTable,
    rwPages,
    rmPages,
  };
}

/** Sets this core's memory types for the VM's pages (per core, as the SCC's page tables are): read-write pages by sccSharing, read-mostly pages cached. */
export function mapSccSpace(core: SccCore, L: SccLayout, sharing: SccSharing): void {
  for (const a of L.rwPages) core.mapPage(a, sharing === 'uncached' ? 'uncached' : 'mpbt');
  for (const a of L.rmPages) core.mapPage(a, 'cached');
}


/** Host-side placement of the snapshot while the image is laid out (every core computes the same). */
export class SccSnapshotPlacement implements Placement {
  readonly rwNext: Float64Array;
  readonly rmNext: Float64Array;
  private globalNext: number;
  constructor(private readonly L: SccLayout) {
    this.rwNext = Float64Array.from(L.heapBase);
    this.rmNext = Float64Array.from(L.rmBase);
    this.globalNext = L.globalRmBase;
  }
  place(index: number, words: number, what: ObjectRole): number {
    const L = this.L;
    const { core, readMostly } = dealTo(L.cores, L.replication, L.mainCore, index, what);
    const bytes = words * 4;
    let body: number;
    if (!readMostly) {
      body = this.rwNext[core]!;
      this.rwNext[core] = body + bytes;
      if (body + bytes > L.heapBase[core]! + L.heapBytes) throw new WorkloadParamError(`the snapshot does not fit in core ${core}'s ${L.heapBytes / 1024} KB heap`, 'heapKB');
    } else if (L.replication === 'global') {
      body = this.globalNext;
      this.globalNext = body + bytes;
      if (body + bytes > L.globalRmBase + L.globalRmBytes) throw new WorkloadParamError('the snapshot does not fit in the read-mostly heap', 'heapKB');
    } else {
      body = this.rmNext[core]!;
      this.rmNext[core] = body + bytes;
      if (body + bytes > L.rmBase[core]! + L.heapBytes) throw new WorkloadParamError('the snapshot does not fit in the read-mostly heap', 'heapKB');
    }
    return body;
  }
  ote(index: number): number {
    if (index >= SNAPSHOT_OTES) throw new WorkloadParamError(`the snapshot has more than ${SNAPSHOT_OTES} objects`, 'size');
    return this.L.snapshotOtBase + 4 * index;
  }
}

/** The running core's view of the heaps (VmSpace): allocation through its private Heap descriptor, the baton rule, the store barrier's test. */
export class SccSpace implements VmSpace {
  readonly coreData: number;
  /** Bytes this core allocated during the run (objects and contexts; for the heap map). */
  allocatedBytes = 0;
  private readonly desc: number;
  private readonly heap: number;
  constructor(
    private readonly mem: VmMemory,
    private readonly L: SccLayout,
    readonly core: number,
    readonly mainCore: number,
    privateBase: number,
  ) {
    this.coreData = privateBase + CORE_DATA_OFFSET;
    this.desc = privateBase + DESCRIPTOR_OFFSET;
    this.heap = L.heapBase[core]!;
  }

  /** Writes this core's Heap descriptor (at start, after the snapshot is dealt): `next` is its heap's first free byte. */
  initDescriptor(next: number): void {
    const m = this.mem;
    m.store32(this.desc + D_NEXT, next);
    m.store32(this.desc + D_END, this.heap + this.L.heapBytes);
    const ot = this.L.otSliceBase[this.core]!;
    m.store32(this.desc + D_OT_NEXT, ot);
    m.store32(this.desc + D_OT_END, ot + 4 * this.L.otSliceEntries);
  }

  allocate(words: number): number {
    const m = this.mem;
    const next = m.load32(this.desc + D_NEXT);
    const end = m.load32(this.desc + D_END);
    if (next + 4 * words > end) throw new WorkloadParamError(`core ${this.core}'s ${this.L.heapBytes / 1024} KB heap is full (no garbage collector): a bigger heapKB or a smaller size`, 'heapKB');
    m.store32(this.desc + D_NEXT, next + 4 * words);
    this.allocatedBytes += 4 * words;
    return next;
  }

  allocateOte(): number {
    const m = this.mem;
    const next = m.load32(this.desc + D_OT_NEXT);
    const end = m.load32(this.desc + D_OT_END);
    if (next >= end) throw new WorkloadParamError(`core ${this.core}'s part of the object table is full: a bigger heapKB or a smaller size`, 'heapKB');
    m.store32(this.desc + D_OT_NEXT, next + 4);
    return next;
  }

  homeOf(body: number): number {
    const L = this.L;
    const d = body - L.sharedBase;
    if (d < 0 || d >= L.sharedBytes) return NO_HOME;
    return L.homeTable[d >>> L.heapShift]!;
  }

  batonTarget(body: number, fmt: number): number {
    if ((fmt & FMT_DONT_PASS) !== 0) return NO_HOME;
    return this.homeOf(body);
  }

  readMostly(body: number): boolean {
    const L = this.L;
    const d = body - L.sharedBase;
    return d >= 0 && d < L.sharedBytes && L.rmTable[d >>> L.heapShift] === 1;
  }
}


/**
 * Passes the baton to core `dst` (non-blocking): the flush (write-combine buffer drained, every
 * outstanding write done, so memory holds this core's stores before the flag), then the words
 * into dst's baton line and the stamp into its flag line, both in dst's MPB half (write-combined
 * lines; touching the flag line sends the words' line first).
 */
export function sccBatonPost(core: SccCore, dst: number, stamp: number, words: ArrayLike<number>): void {
  core.drainWcb();
  core.fence();
  const slot = core.mpbOf(dst, BATON_SLOT_OFFSET);
  for (let i = 0; i < BATON_WORDS; i++) core.store32(slot + 4 * i, i < words.length ? words[i]! : 0);
  core.store32(core.mpbOf(dst, BATON_FLAG_OFFSET), stamp);
  core.drainWcb();
}

/** Waits on this core's flag line for a baton stamped above `after` (RCCE_wait_until on the local MPB); returns its stamp. */
export function* sccBatonWait(core: SccCore, after: number): Sim<number> {
  return yield* core.waitUntil(core.mpbOf(core.id, BATON_FLAG_OFFSET), '>=', after + 1, 4);
}

/**
 * Takes the baton that arrived: CL1INVMB (in flush mode this is the receiver's invalidate), then
 * the words from the local MPB. `invalidate: false` leaves CL1INVMB out (the protocol's bug, for
 * the tests: lines read before the last pass survive in L1, stale).
 */
export function sccBatonTake(core: SccCore, out: Uint32Array, invalidate = true): void {
  if (invalidate) core.invalidateMpbt();
  const slot = core.mpbOf(core.id, BATON_SLOT_OFFSET);
  for (let i = 0; i < BATON_WORDS; i++) out[i] = core.load32(slot + 4 * i);
}
