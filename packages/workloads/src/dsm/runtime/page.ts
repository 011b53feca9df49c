/**
 * The page-based runtime (TreadMarks-like; ../shared/reference/dsm.md section 3, paper 004
 * lines 33, 50, 137, 154, 379): the unit of sharing is a 4 KB page, access is detected by page
 * protection, and a multiple-writer protocol with twins and diffs keeps the pages consistent
 * under lazy release consistency (lrc.ts).
 *
 * Contract
 * - Layout: every shared array starts at a page boundary, contiguous, at the same address on
 *   every processor (all shared memory at one virtual address); arrays follow each other in
 *   allocation order. Twins live in a private area above the shared range.
 * - Initial state: every page valid read-only with zeros on every processor (the pages of a
 *   freshly allocated region are identical zeros everywhere, so no processor fetches them: the
 *   paper's SOR counts, 4962 overlapped requests = 2 x 62 x 40 + 2, leave no room for cold
 *   fetches). A page is counted in memory when this processor first opens or updates it.
 * - Write: a write to a read-only page faults; the runtime makes a twin (a copy of the page) and
 *   makes the page read-write. At the interval's close (release, barrier arrival, acquire) each
 *   dirty page gets a write notice and stays read-write with its twin (TreadMarks 1998 sources,
 *   ParallelTools/Rice: interval.c rev 10.5.1.5 Tmk_interval_create calls no mprotect): later
 *   writes take no fault and make no new notice until the twin's diff is made, which then
 *   carries them (a diff request: the reply, then mprotect read-only, diff.c
 *   Tmk_diff_sigio_handler; a notice from another processor: diff, then invalid). Writes after
 *   the diff fault again and twin the page again.
 *   The notices go in ascending page order, runs of consecutive pages as ranges (lrc.ts: TreadMarks'
 *   encoding, 2 B page ids while the pages allocated fit below its unitLimit, 65,503 at 32
 *   processors; 4 B beyond, where TreadMarks stops).
 * - Lazy diff creation (TreadMarks, Keleher's lazy diffing): the diff of interval i (the page's
 *   words that differ from the twin, run-length encoded) is made only when first needed: a diff
 *   request for it, a write fault on the page in a later interval (before the new twin), or a
 *   write notice from another processor invalidating the page. Then the twin is freed and the
 *   diff kept (no garbage collection of diffs here: a processor may hold an unapplied notice
 *   for any diff until it faults on the page, and nothing local proves it has none; TreadMarks'
 *   own collection validates pages first, which costs messages paper 004 does not give).
 *   Host memory: the diffs are packed in 1 MB chunks, indexed per page by interval (ids rise:
 *   a page's next twin comes after its previous diff), so the host holds about the diff bytes
 *   the model counts, not an object per diff.
 * - Diff encoding: runs of changed 32-bit words: start word 2 B + word count 2 B + 4 B per word.
 * - Invalidation: a write notice (page, p, i) from another processor is recorded as unapplied and
 *   the page made invalid if it was not; the mprotect calls are merged: one per run of
 *   consecutive pages invalidated by a grant's or a departure's records, made when they are all
 *   incorporated (the barrier manager: after its departures are sent) (page.c rev 10.15.1.9
 *   Tmk_page_inval_merge / Tmk_page_inval_perform, "mprotect merging"; barrier.c rev 10.6.1.10).
 * - Fault on an invalid page: one diff request to every processor named in the page's unapplied
 *   notices, all sent before waiting (one overlapped request, one round), each asking for that
 *   writer's diffs of the page for intervals [first, last] (DIFF_REQ: page 4 B, first 4 B,
 *   last 4 B); each reply (DIFF_REPLY: page 4 B, diff count 4 B, then per diff interval 4 B +
 *   length 4 B + runs) carries every diff of those intervals that touched the page (diff
 *   accumulation). The diffs are applied in happens-before order (sum of the interval's vector
 *   timestamp, then processor), then the page is made read-only (or read-write with a twin for
 *   a write fault).
 * - Costs: faults (the node's trap), mprotect calls (the node's kernel cost), twins, diff
 *   creation and diff application as whole-line copies through the caches (loadLines /
 *   storeLines), plus one compare per word for a diff (model: a compare and branch per word).
 * - Memory per processor: pages opened or updated here x 4 KB + live twins x 4 KB + bytes of
 *   the diffs kept.
 * Units: bytes, core cycles.
 */
import { DUE, PROT_NONE, PROT_READ, PROT_READ_WRITE, type Sim } from '@manycore/engine';
import type { SharedArrayDesc } from '../api';
import { HEADER_BYTES, LrcRuntime, MSG } from './lrc';
import { K_FAULT } from './record';
import type { DsmTransport } from './transport';

export const PAGE_BYTES = 4096;
const PAGE_WORDS = PAGE_BYTES / 4;
const PAGE_LINES = PAGE_BYTES / 32;
/**
 * Twin area (model): MAX_TWINS twins above the shared range; more live at once (a processor
 * initialising a large input in one interval) take pages from the top of the shared range
 * downwards, above the arrays allocated (TreadMarks mallocs its twins: no fixed limit). Those
 * pages are made read-write once, uncharged (malloc'd memory is never protected).
 */
export const MAX_TWINS = 1024;
const DIFF_REQ = MSG.UNIT;
const DIFF_REPLY = MSG.UNIT + 1;
/** Bytes of one chunk of the diff store (host memory, not simulated). */
export const DIFF_CHUNK_BYTES = 1 << 20;
/** CPU cycles per word compared when making a diff (model: a compare and a branch). */
const DIFF_COMPARE_CYCLES_PER_WORD = 1;

interface PageArray extends SharedArrayDesc {
  readonly base: number;
}

export class PageRuntime extends LrcRuntime {
  private readonly arrays: PageArray[] = [];
  private next: number;
  private readonly pages: number;
  private readonly twinBase: number;
  private readonly allocated: Uint8Array;
  private readonly twinSlot: Int32Array;
  /** Interval whose diff the twin waits to make (0: the twin belongs to the open interval). */
  private readonly twinInterval: Int32Array;
  private readonly dirty: Uint8Array;
  private dirtyList: number[] = [];
  private readonly freeTwins: number[] = [];
  /** Twin slots beyond MAX_TWINS taken so far (below twinBase). */
  private extraTwins = 0;
  /** Unapplied write notices per page: pairs (proc * 2^32 + interval, the interval's vector-timestamp sum), in arrival order. */
  private readonly pending: Array<number[] | undefined>;
  /** Vector-timestamp sums of the notices the fault being served asked for: proc * 2^32 + interval -> sum. */
  private readonly fetchSums = new Map<number, number>();
  /** Diffs this processor made, per page: triples (interval, store position, bytes), intervals rising. */
  private readonly diffIndex: Array<number[] | undefined>;
  /** Pages invalidated by the records being incorporated, for one mprotect per run (invalidationsDone). */
  private readonly invalPages: number[] = [];
  /** mprotect calls made (charged by the node; tests and measurements). */
  mprotectCalls = 0;
  /** The diff store: chunks of DIFF_CHUNK_BYTES; a store position is chunk * DIFF_CHUNK_BYTES + offset. */
  private readonly diffChunks: Uint8Array[] = [];
  private diffChunkPos = DIFF_CHUNK_BYTES;
  private diffCount = 0;
  private diffStoreBytes = 0;
  private readonly a = new Uint32Array(PAGE_WORDS);
  private readonly b = new Uint32Array(PAGE_WORDS);
  private readonly runBuf = new Uint8Array(PAGE_BYTES + 4 * PAGE_WORDS);
  private readonly runDv = new DataView(this.runBuf.buffer);
  // the fault being served: replies expected and received
  private awaiting = 0;
  private fetchPage = -1;
  private readonly got: Array<{ proc: number; id: number; vtSum: number; diff: Uint8Array }> = [];

  constructor(t: DsmTransport, locks: number) {
    super(t, locks);
    const twinBytes = MAX_TWINS * PAGE_BYTES;
    const sharedBytes = Math.floor((t.regionBytes - twinBytes) / PAGE_BYTES) * PAGE_BYTES;
    if (sharedBytes <= 0) throw new Error(`dsm page runtime: the node's memory (${t.regionBytes} B for the runtime) is smaller than its twin area (${twinBytes} B)`);
    this.pages = sharedBytes / PAGE_BYTES;
    this.next = t.sharedBase;
    this.twinBase = t.sharedBase + sharedBytes;
    for (let s = MAX_TWINS - 1; s >= 0; s--) this.freeTwins.push(s);
    this.allocated = new Uint8Array(this.pages);
    this.twinSlot = new Int32Array(this.pages).fill(-1);
    this.twinInterval = new Int32Array(this.pages);
    this.dirty = new Uint8Array(this.pages);
    this.pending = new Array<number[] | undefined>(this.pages);
    this.diffIndex = new Array<number[] | undefined>(this.pages);
    t.protectPages(t.sharedBase, sharedBytes, PAGE_BYTES, PROT_READ, (addr, write) => this.fault(addr, write));
  }

  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    if (!Number.isInteger(count) || count < 1 || !Number.isInteger(objectBytes) || objectBytes < 1 || objectBytes % 4 !== 0)
      throw new Error(`dsm alloc ${name}: count ${count} and objectBytes ${objectBytes} must be positive integers, objectBytes a multiple of 4`);
    const bytes = Math.ceil((count * objectBytes) / PAGE_BYTES) * PAGE_BYTES;
    if (this.next + bytes > this.twinBase - this.extraTwins * PAGE_BYTES)
      throw new Error(
        `dsm alloc ${name}: ${count} x ${objectBytes} B does not fit in the shared range of a node (${(this.twinBase - this.t.sharedBase) / 1048576} MB; memory.privateBytes sets it)`,
      );
    const d: PageArray = { id: this.arrays.length, name, count, objectBytes, base: this.next };
    this.arrays.push(d);
    this.next += bytes;
    return d;
  }

  *open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number> {
    const d = this.arrays[arr.id];
    if (!d || d.name !== arr.name) throw new Error(`dsm open: array ${arr.name} (id ${arr.id}) was not allocated by this runtime`);
    if (!Number.isInteger(i) || i < 0 || i >= d.count) throw new Error(`dsm open ${d.name}: object ${i} is outside 0..${d.count - 1}`);
    yield* this.serveArrived();
    const addr = d.base + i * d.objectBytes;
    const first = (addr - this.t.sharedBase) / PAGE_BYTES;
    const firstPage = Math.floor(first);
    const lastPage = Math.floor((addr + d.objectBytes - 1 - this.t.sharedBase) / PAGE_BYTES);
    for (let p = firstPage; p <= lastPage; p++) this.touchMemory(p);
    const k = this.recorder.enter(K_FAULT); // a fault's trap and handler (none: a zero-length span, dropped)
    // a request served during a later page's fault may close the interval and write-protect an
    // earlier page again (lrc.ts: lazy intervals): the access then faults on it again
    do yield* this.core.touch(addr, d.objectBytes, write);
    while (!this.allows(addr, d.objectBytes, write));
    this.recorder.leave(k);
    return addr;
  }

  private allows(addr: number, bytes: number, write: boolean): boolean {
    const pr = this.core.protection;
    return pr.allows(addr, write) && pr.allows(addr + bytes - 1, write);
  }

  private touchMemory(page: number): void {
    if (this.allocated[page]) return;
    this.allocated[page] = 1;
    this.stats.memoryBytes += PAGE_BYTES;
    this.stats.allocatedBytes += PAGE_BYTES;
  }

  private protect(page: number, level: number): void {
    this.t.mprotect(page, level);
    this.mprotectCalls += 1;
  }

  private pageAddr(page: number): number {
    return this.t.sharedBase + page * PAGE_BYTES;
  }

  // ------------------------------------------------------------ twins and diffs

  /** Address of twin slot `slot`: the twin area, or below it for slots beyond MAX_TWINS. */
  private twinAddr(slot: number): number {
    return slot < MAX_TWINS ? this.twinBase + slot * PAGE_BYTES : this.twinBase - (slot - MAX_TWINS + 1) * PAGE_BYTES;
  }

  private makeTwin(page: number): void {
    let slot = this.freeTwins.pop();
    if (slot === undefined) {
      const at = this.twinBase - (this.extraTwins + 1) * PAGE_BYTES;
      if (at < this.next) throw new Error(`dsm processor ${this.me}: ${MAX_TWINS + this.extraTwins + 1} twins live at once do not fit between the shared arrays and the twin area (memory.privateBytes sets it)`);
      slot = MAX_TWINS + this.extraTwins++;
      this.core.protection.set((at - this.t.sharedBase) / PAGE_BYTES, PROT_READ_WRITE);
    }
    this.t.loadLines(this.pageAddr(page), PAGE_LINES, this.a, 0);
    this.t.storeLines(this.twinAddr(slot), PAGE_LINES, this.a, 0);
    this.twinSlot[page] = slot;
    this.twinInterval[page] = 0;
    this.core.protection.markPage(page, true); // for the page map: this page has a twin
    this.stats.twins += 1;
    this.stats.memoryBytes += PAGE_BYTES;
  }

  /** Makes the diff of the twin's closed interval (page vs twin), keeps it, frees the twin. */
  private makeDiff(page: number): void {
    const slot = this.twinSlot[page]!;
    const id = this.twinInterval[page]!;
    this.t.loadLines(this.pageAddr(page), PAGE_LINES, this.a, 0);
    this.t.loadLines(this.twinAddr(slot), PAGE_LINES, this.b, 0);
    this.t.core.compute(PAGE_WORDS * DIFF_COMPARE_CYCLES_PER_WORD);
    const a = this.a;
    const b = this.b;
    const dv = this.runDv;
    let pos = 0;
    let w = 0;
    while (w < PAGE_WORDS) {
      if (a[w] === b[w]) {
        w++;
        continue;
      }
      const start = w;
      while (w < PAGE_WORDS && a[w] !== b[w]) w++;
      dv.setUint16(pos, start, true);
      dv.setUint16(pos + 2, w - start, true);
      pos += 4;
      for (let k = start; k < w; k++, pos += 4) dv.setUint32(pos, a[k]!, true);
    }
    this.keepDiff(page, id, pos);
    this.stats.diffs += 1;
    this.stats.memoryBytes += pos - PAGE_BYTES; // the diff kept, the twin freed
    this.freeTwins.push(slot);
    this.core.protection.markPage(page, false);
    this.twinSlot[page] = -1;
    this.twinInterval[page] = 0;
  }

  /** Appends runBuf[0, bytes) to the diff store as the diff of interval `id` for `page`. */
  private keepDiff(page: number, id: number, bytes: number): void {
    if (this.diffChunks.length === 0 || this.diffChunkPos + bytes > DIFF_CHUNK_BYTES) {
      this.diffChunks.push(new Uint8Array(DIFF_CHUNK_BYTES));
      this.diffChunkPos = 0;
    }
    const c = this.diffChunks.length - 1;
    this.diffChunks[c]!.set(this.runBuf.subarray(0, bytes), this.diffChunkPos);
    (this.diffIndex[page] ??= []).push(id, c * DIFF_CHUNK_BYTES + this.diffChunkPos, bytes);
    this.diffChunkPos += bytes;
    this.diffCount++;
    this.diffStoreBytes += bytes;
  }

  /** Diffs kept here and their bytes (host memory; tests and measurements). */
  retainedDiffs(): { diffs: number; bytes: number; chunks: number } {
    return { diffs: this.diffCount, bytes: this.diffStoreBytes, chunks: this.diffChunks.length };
  }

  // ------------------------------------------------------------ LRC hooks

  protected takeDirty(): Int32Array {
    // ascending: TreadMarks merges the dirty pages into runs (Tmk_page_dirty_merge), sent as ranges
    const u = Int32Array.from(this.dirtyList).sort();
    this.dirtyList = [];
    return u;
  }

  protected unitIds(): number {
    return (this.next - this.t.sharedBase) / PAGE_BYTES;
  }

  protected intervalClosed(id: number, units: Int32Array): void {
    // the pages stay read-write with their twins (TreadMarks' Tmk_interval_create calls no
    // mprotect): the twin now waits for interval id's diff
    for (let k = 0; k < units.length; k++) {
      const page = units[k]!;
      this.dirty[page] = 0;
      this.twinInterval[page] = id;
    }
  }

  protected writtenInOpenInterval(page: number): boolean {
    return this.dirty[page] === 1;
  }

  protected invalidate(page: number, proc: number, id: number, vtSum: number): void {
    let list = this.pending[page];
    if (!list) list = this.pending[page] = [];
    list.push(proc * 4294967296 + id, vtSum);
    if (this.core.protection.get(page) === PROT_NONE) return;
    if (this.twinSlot[page]! >= 0) this.makeDiff(page); // keep this processor's changes before they are overwritten
    // Tmk_page_inval_merge: the level now, the mprotect call with its run (invalidationsDone)
    this.core.protection.set(page, PROT_NONE);
    this.invalPages.push(page);
  }

  protected override invalidationsDone(): void {
    // Tmk_page_inval_perform: one mprotect(PROT_NONE) per run of consecutive pages invalidated
    const list = this.invalPages;
    if (list.length === 0) return;
    list.sort((x, y) => x - y);
    for (let k = 0; k < list.length; ) {
      let j = k;
      while (j + 1 < list.length && list[j + 1] === list[j]! + 1) j++;
      if (this.t.mprotectRange) {
        this.t.mprotectRange(list[k]!, j - k + 1, PROT_NONE);
        this.mprotectCalls += 1;
      } else for (let q = k; q <= j; q++) this.protect(list[q]!, PROT_NONE);
      k = j + 1;
    }
    list.length = 0;
  }

  protected *serveUnit(type: number, from: number, _msg: Uint8Array, dv: DataView, len: number): Sim<void> {
    if (type === DIFF_REQ) {
      const page = dv.getUint32(4, true);
      const firstId = dv.getUint32(8, true);
      const lastId = dv.getUint32(12, true);
      const e = this.out;
      e.begin(DIFF_REPLY);
      e.u32(page);
      const countAt = e.pos;
      e.u32(0);
      let n = 0;
      const ti = this.twinInterval[page]!;
      const made = this.twinSlot[page]! >= 0 && ti >= firstId && ti <= lastId;
      if (made) this.makeDiff(page);
      const index = this.diffIndex[page];
      if (index) {
        // the first diff at or after firstId (intervals rise along the index)
        let lo = 0;
        let hi = index.length / 3;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (index[3 * mid]! < firstId) lo = mid + 1;
          else hi = mid;
        }
        for (let k = 3 * lo; k < index.length && index[k]! <= lastId; k += 3) {
          const at = index[k + 1]!;
          const bytes = index[k + 2]!;
          const chunk = Math.floor(at / DIFF_CHUNK_BYTES);
          e.u32(index[k]!);
          e.u32(bytes);
          e.bytesFrom(this.diffChunks[chunk]!, at - chunk * DIFF_CHUNK_BYTES, bytes);
          n++;
        }
      }
      e.dv.setUint32(countAt, n, true);
      yield* this.sendOut(from);
      // Tmk_diff_sigio_handler: after the reply, write-protect the page (its twin is gone: a later
      // write faults and twins it again) ("perform_mprotect_and_free")
      if (made && this.core.protection.get(page) === PROT_READ_WRITE) this.protect(page, PROT_READ);
      return;
    }
    if (type === DIFF_REPLY) {
      const page = dv.getUint32(4, true);
      if (page !== this.fetchPage) throw new Error(`dsm processor ${this.me}: a diff reply for page ${page} arrived while fetching page ${this.fetchPage}`);
      const n = dv.getUint32(8, true);
      let off = 12;
      for (let k = 0; k < n; k++) {
        const id = dv.getUint32(off, true);
        const bytes = dv.getUint32(off + 4, true);
        off += 8;
        const vtSum = this.fetchSums.get(from * 4294967296 + id);
        if (vtSum === undefined) throw new Error(`dsm processor ${this.me}: a diff of interval ${id} of processor ${from}, for which it holds no unapplied write notice on page ${page}`);
        this.got.push({ proc: from, id, vtSum, diff: new Uint8Array(dv.buffer.slice(dv.byteOffset + off, dv.byteOffset + off + bytes)) });
        off += bytes;
      }
      if (off !== len) throw new Error(`dsm processor ${this.me}: a diff reply of ${len} B decoded to ${off} B`);
      this.awaiting--;
      return;
    }
    throw new Error(`dsm processor ${this.me}: unknown page-runtime message type ${type} from ${from}`);
  }

  // ------------------------------------------------------------ faults

  private *fault(addr: number, write: boolean): Sim<void> {
    const page = Math.floor((addr - this.t.sharedBase) / PAGE_BYTES);
    if (write) this.stats.writeFaults += 1;
    else this.stats.readFaults += 1;
    this.touchMemory(page);
    const level = this.core.protection.get(page);
    if (level === PROT_NONE) {
      yield* this.fetchDiffs(page);
      if (write) {
        this.makeTwin(page);
        this.markDirty(page);
        // the page stays read-write (fetchDiffs left it so)
      } else this.protect(page, PROT_READ);
    } else if (write) {
      if (this.twinSlot[page]! >= 0) this.makeDiff(page); // the previous interval's diff, before the new writes
      this.makeTwin(page);
      this.markDirty(page);
      this.protect(page, PROT_READ_WRITE);
    }
    if (this.core.due()) yield DUE;
  }

  private markDirty(page: number): void {
    if (this.dirty[page]) return;
    this.dirty[page] = 1;
    this.dirtyList.push(page);
  }

  /** Brings an invalid page up to date: diff requests to every writer at once, then the diffs in happens-before order. Leaves it read-write. */
  private *fetchDiffs(page: number): Sim<void> {
    const list = this.pending[page] ?? [];
    this.pending[page] = undefined;
    // per writer: the first and last unapplied interval
    const first = new Map<number, number>();
    const last = new Map<number, number>();
    this.fetchSums.clear();
    for (let k = 0; k < list.length; k += 2) {
      const key = list[k]!;
      this.fetchSums.set(key, list[k + 1]!);
      const proc = Math.floor(key / 4294967296);
      const id = key - proc * 4294967296;
      if (!first.has(proc) || id < first.get(proc)!) first.set(proc, id);
      if (!last.has(proc) || id > last.get(proc)!) last.set(proc, id);
    }
    this.fetchPage = page;
    this.got.length = 0;
    this.awaiting = 0;
    for (const proc of [...first.keys()].sort((x, y) => x - y)) {
      const e = this.out;
      e.begin(DIFF_REQ);
      e.u32(page);
      e.u32(first.get(proc)!);
      e.u32(last.get(proc)!);
      yield* this.sendOut(proc);
      this.awaiting++;
    }
    this.stats.overlappedRequests += 1;
    this.stats.rounds += 1;
    yield* this.waitUntil(() => this.awaiting === 0);
    this.fetchPage = -1;
    this.fetchSums.clear();
    this.got.sort((x, y) => x.vtSum - y.vtSum || x.proc - y.proc || x.id - y.id);
    this.protect(page, PROT_READ_WRITE);
    const addr = this.pageAddr(page);
    this.t.loadLines(addr, PAGE_LINES, this.a, 0);
    for (const g of this.got) {
      const d = g.diff;
      const dv = new DataView(d.buffer, d.byteOffset, d.length);
      let pos = 0;
      while (pos < d.length) {
        const start = dv.getUint16(pos, true);
        const n = dv.getUint16(pos + 2, true);
        pos += 4;
        for (let k = 0; k < n; k++, pos += 4) this.a[start + k] = dv.getUint32(pos, true);
      }
    }
    this.t.storeLines(addr, PAGE_LINES, this.a, 0);
    this.got.length = 0;
  }
}

/** Bytes of the run-length diff encoding of `changed` words in `runs` runs (for tests and views). */
export function diffBytes(runs: number, changed: number): number {
  return 4 * runs + 4 * changed;
}

export { HEADER_BYTES };
