/**
 * The VM's object memory on the TILE64 (paper 000 sections 4-5): where every part of the heap
 * lives in the shared address space, which tile homes it, and what it costs to reach.
 *
 * Layout of the shared window (every core maps it alike; addresses in bytes):
 *   otBase:  the object table: SNAPSHOT_OTES entries for the snapshot's objects, then one slice
 *            of otSliceEntries per core for the objects it allocates. Pages homed round-robin
 *            over the tiles (the shared window's default): "there is no good single place in
 *            which to cache the object table" (paper 000 line 548).
 *   rwBase:  the read-write heaps, one per core, heapBytes each (a power of two, a whole
 *            number of 64 KB pages), homed on their core's tile: home = (addr - rwBase) >>
 *            log2(heapBytes) (paper 000 lines 558-563). Each heap opens with its "Heap"
 *            descriptor {next free, end, next OTE, OTE end} (lines 563-566), homed with it.
 *   rmBase:  the read-mostly heap (paper 000 section 5.5), user-managed pages (cached in any
 *            tile): per-core slices of heapBytes (v2: the address still names a core) or, with
 *            replication 'global', one heap (v1: a receiver there never takes the baton).
 *   kernel:  one 64 KB page homed on the main core's tile: the kernel's time-keeping words the
 *            per-migration clock call reads (model, see clockCall in workload.ts).
 * Snapshot objects are dealt round-robin over the cores like cards (lines 624-628); the
 * replication mode decides whether a dealt object goes to the core's read-write heap or to
 * its read-mostly slice (methods only, everything but contexts, or one global heap).
 * User-managed copies are real (Tile64Core): the snapshot a core writes into the read-mostly
 * heap sits in its own L2 until written back, so publishReadMostly does the coherence work
 * once for the whole heap before the run (paper 000 lines 1263-1266: bulk operations do it
 * once). After that the read-mostly heap is never stored into: the store barrier copies an
 * object out before any store and repoints its OTE (the object table is homed, so coherent);
 * the old copy, and any tile's cached lines of it, are garbage nothing reaches any more.
 * Called on every access: Tile64Space's homeOf, batonTarget and readMostly (no allocation).
 */
import { DUE, WorkloadParamError, type Sim, type Tile64Core } from '@manycore/engine';
import { FMT_DONT_PASS, type VmMemory, type VmSpace } from './format';
import type { Image } from './image';
import { dealTo, type Replication } from './snapshot';


const PAGE = 65536;
/** OTEs reserved for the snapshot's objects (model: far above what the benchmarks' images hold). */
export const SNAPSHOT_OTES = 65536;
/** Bytes at the start of each read-write heap for its Heap descriptor (one 64 B line). */
export const HEAP_DESCRIPTOR_BYTES = 64;
const D_NEXT = 0;
const D_END = 4;
const D_OT_NEXT = 8;
const D_OT_END = 12;
/** Offset of the VM's per-core data (method cache, free lists) in each core's private window. */
const CORE_DATA_OFFSET = PAGE;

export interface SpaceLayout {
  cores: number;
  heapBytes: number;
  heapShift: number;
  otBase: number;
  otSliceEntries: number;
  rwBase: number;
  rmBase: number;
  kernelPage: number;
  end: number;
  replication: Replication;
}

/** The layout for `cores` heaps of `heapBytes`; a WorkloadParamError naming the parameter when it does not fit. */
export function spaceLayout(sharedBase: number, sharedBytes: number, cores: number, heapBytes: number, replication: Replication): SpaceLayout {
  if (!Number.isInteger(Math.log2(heapBytes)) || heapBytes < PAGE)
    throw new WorkloadParamError(`heapKB = ${heapBytes / 1024}: a heap is a power of two of at least 64 KB (a whole number of pages)`, 'heapKB');
  const heapShift = Math.log2(heapBytes);
  const otSliceEntries = heapBytes / 16; // an object is at least 16 B (3 header words + a slot)
  const otBytes = (SNAPSHOT_OTES + cores * otSliceEntries) * 4;
  const align = (x: number, a: number) => Math.ceil(x / a) * a;
  const otBase = sharedBase;
  const rwBase = sharedBase + align(otBytes, heapBytes);
  const rmBase = rwBase + cores * heapBytes;
  const kernelPage = rmBase + cores * heapBytes;
  const end = kernelPage + PAGE;
  if (end - sharedBase > sharedBytes)
    throw new WorkloadParamError(
      `heapKB = ${heapBytes / 1024} on ${cores} cores needs ${Math.ceil((end - sharedBase) / 2 ** 20)} MB of shared memory; the chip maps ${sharedBytes / 2 ** 20} MB`,
      'heapKB',
    );
  return { cores, heapBytes, heapShift, otBase, otSliceEntries, rwBase, rmBase, kernelPage, end, replication };
}

/** Maps the heaps on `core`'s page table: read-write heaps homed on their cores, the read-mostly heap user-managed, the kernel page on the main core. */
export function mapSpace(core: Tile64Core, L: SpaceLayout, mainCore: number): void {
  for (let k = 0; k < L.cores; k++) core.mapRegion(L.rwBase + k * L.heapBytes, L.heapBytes, 'homed', core.tileOf(k));
  if (L.replication !== 'none') core.mapRegion(L.rmBase, L.cores * L.heapBytes, 'user-managed');
  core.mapRegion(L.kernelPage, PAGE, 'homed', core.tileOf(mainCore));
}


/**
 * Makes the snapshot objects this core wrote into the read-mostly heap visible to every tile
 * (before the start barrier): per-core slices, only this core wrote the lines, so it flushes
 * them (one flush per L2 line, CHIP_FLUSH_STRIDE) and keeps clean copies; one global heap,
 * lines hold several cores' objects, so its copies would be stale in the others' bytes: it
 * flushes and invalidates them (finv per L1D line, CHIP_FINV_STRIDE). Then a fence waits for
 * the write-backs. Each flush or finv is one instruction plus its write-back (Tile64Core).
 * Returns the number of flush / finv instructions.
 */
export function* publishReadMostly(core: Tile64Core, L: SpaceLayout, image: Image, mainCore: number): Sim<number> {
  if (L.replication === 'none') return 0;
  const global = L.replication === 'global';
  const stride = global ? core.chip.config.caches.l1d.lineBytes : core.chip.config.caches.l2.lineBytes;
  let last = -1;
  let n = 0;
  for (const o of image.objects) {
    const dealt = dealTo(L.cores, L.replication, mainCore, o.index, o.what);
    if (dealt.core !== core.id || !dealt.readMostly) continue;
    // objects are placed in index order: their lines only grow
    for (let a = o.body - (o.body % stride); a < o.body + 4 * o.words.length; a += stride) {
      if (a <= last) continue;
      last = a;
      if (global) core.invalidateLine(a);
      else core.flushLine(a);
      n++;
    }
    if (core.due()) yield DUE;
  }
  core.fence();
  return n;
}

/** Host-side placement of the snapshot while the image is laid out (every core computes the same). */
export class SnapshotPlacement {
  readonly rwNext: Float64Array;
  readonly rmNext: Float64Array;
  /**
   * fillerBytes: address space left after each dealt object for the untouched rest of a large
   * image (imageFillerKB), so the benchmark's objects spread over as many pages as in a
   * ~10 MB image; nothing is written there.
   */
  constructor(
    private readonly L: SpaceLayout,
    private readonly fillerBytes = 0,
  ) {
    this.rwNext = new Float64Array(L.cores);
    this.rmNext = new Float64Array(L.cores);
    for (let k = 0; k < L.cores; k++) {
      this.rwNext[k] = L.rwBase + k * L.heapBytes + HEAP_DESCRIPTOR_BYTES;
      this.rmNext[k] = L.rmBase + k * L.heapBytes;
    }
  }
  place(index: number, words: number, what: string): number {
    const L = this.L;
    const { core, readMostly } = dealTo(L.cores, L.replication, 0, index, what);
    const bytes = words * 4 + this.fillerBytes;
    let body: number;
    if (!readMostly) {
      body = this.rwNext[core]!;
      this.rwNext[core] = body + bytes;
      if (body + bytes > L.rwBase + (core + 1) * L.heapBytes) throw new WorkloadParamError(`the snapshot does not fit in core ${core}'s ${L.heapBytes / 1024} KB heap`, 'heapKB');
    } else {
      const slice = L.replication === 'global' ? 0 : core;
      body = this.rmNext[slice]!;
      this.rmNext[slice] = body + bytes;
      const limit = L.replication === 'global' ? L.rmBase + L.cores * L.heapBytes : L.rmBase + (slice + 1) * L.heapBytes;
      if (body + bytes > limit) throw new WorkloadParamError(`the snapshot does not fit in the read-mostly heap`, 'heapKB');
    }
    return body;
  }
  ote(index: number): number {
    if (index >= SNAPSHOT_OTES) throw new WorkloadParamError(`the snapshot has more than ${SNAPSHOT_OTES} objects`, 'size');
    return this.L.otBase + 4 * index;
  }
}

/** The running core's view of the heaps (VmSpace): allocation through its own Heap descriptor, the baton rule, the store barrier's test. */
export class Tile64Space implements VmSpace {
  readonly coreData: number;
  /** Bytes this core allocated during the run (objects and contexts; for the heap map). */
  allocatedBytes = 0;
  private readonly heap: number;
  private readonly rmEnd: number;
  private readonly rwEnd: number;
  constructor(
    private readonly mem: VmMemory,
    private readonly L: SpaceLayout,
    readonly core: number,
    readonly mainCore: number,
    privateBase: number,
  ) {
    this.coreData = privateBase + CORE_DATA_OFFSET;
    this.heap = L.rwBase + core * L.heapBytes;
    this.rwEnd = L.rwBase + L.cores * L.heapBytes;
    this.rmEnd = L.replication === 'none' ? L.rmBase : L.rmBase + L.cores * L.heapBytes;
  }

  /** Writes this core's Heap descriptor (at start, after the snapshot is dealt). */
  initDescriptor(next: number): void {
    const L = this.L;
    const m = this.mem;
    m.store32(this.heap + D_NEXT, next);
    m.store32(this.heap + D_END, this.heap + L.heapBytes);
    const ot = L.otBase + 4 * (SNAPSHOT_OTES + this.core * L.otSliceEntries);
    m.store32(this.heap + D_OT_NEXT, ot);
    m.store32(this.heap + D_OT_END, ot + 4 * L.otSliceEntries);
  }

  allocate(words: number): number {
    const m = this.mem;
    const next = m.load32(this.heap + D_NEXT);
    const end = m.load32(this.heap + D_END);
    if (next + 4 * words > end) throw new WorkloadParamError(`core ${this.core}'s ${this.L.heapBytes / 1024} KB heap is full (no garbage collector): a bigger heapKB or a smaller size`, 'heapKB');
    m.store32(this.heap + D_NEXT, next + 4 * words);
    this.allocatedBytes += 4 * words;
    return next;
  }

  allocateOte(): number {
    const m = this.mem;
    const next = m.load32(this.heap + D_OT_NEXT);
    const end = m.load32(this.heap + D_OT_END);
    if (next >= end) throw new WorkloadParamError(`core ${this.core}'s part of the object table is full: a bigger heapKB or a smaller size`, 'heapKB');
    m.store32(this.heap + D_OT_NEXT, next + 4);
    return next;
  }

  homeOf(body: number): number {
    const L = this.L;
    if (body >= L.rwBase && body < this.rwEnd) return (body - L.rwBase) >>> L.heapShift;
    if (body >= L.rmBase && body < this.rmEnd) return L.replication === 'global' ? -1 : (body - L.rmBase) >>> L.heapShift;
    return -1;
  }

  batonTarget(body: number, fmt: number): number {
    if ((fmt & FMT_DONT_PASS) !== 0) return -1;
    return this.homeOf(body);
  }

  readMostly(body: number): boolean {
    return body >= this.L.rmBase && body < this.rmEnd;
  }
}

