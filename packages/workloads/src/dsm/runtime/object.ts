/**
 * The object-based runtime (SkidMarks-like; ../shared/reference/dsm.md section 4, paper 004
 * lines 86-160): the unit of sharing is an object of a shared array, kept consistent by a
 * single-writer lazy-invalidate protocol under lazy release consistency (lrc.ts: intervals,
 * vector timestamps, write notices per object, locks, barriers, request serving).
 *
 * Contract
 * - Objects and handles: object i of array d has the global id (OID) d's first OID + i, the same
 *   on every processor. The handle table (per processor, indexed by OID) holds the object's local
 *   storage offset (-1: not allocated here), its view (0 invalid, 1 read-only, 2 read-write: its
 *   state), its last writer and that writer's interval's vector-timestamp sum. The inverse object
 *   table (a hash: storage offset of an object's first byte -> OID) and the per-page lists of
 *   local objects (every object overlapping a local page, in address order; the paper's "next
 *   object on the same page" link) serve the fault handler and the aggregations.
 * - Protection by aliasing (paper 004 lines 120-129): the local storage [0, S) is mapped three
 *   times (transport mapAliases) at sharedBase + v x S for v = 0 (invalid: PROT_NONE), 1
 *   (read-only), 2 (read-write); the three levels are set once at start-up (two mprotectRange
 *   calls, before the timed run) and never changed. An object's state = the view its handle
 *   points to; open() returns its address in the current view.
 * - Faults: open(arr, i, write) checks the access page by page in address order through the
 *   current view (the page protection of that view, as the hardware would) and takes each fault
 *   it raises: one fault per failing page, counted in stats (readFaults / writeFaults), the node's
 *   trap charged (protection.trapCycles), then the handler (the address -> the inverse table ->
 *   the protocol). The runtime takes the faults itself instead of core.touch: touch requires
 *   the handler to make the faulting address accessible, which aliasing never does (the handle
 *   moves to another view instead); so the engine's per-core fault telemetry does not see them.
 * - Lazy allocation (switch lazyAllocation, paper 004 line 116): local storage for an object only
 *   at its first open on this processor, objects packed one after the other in first-open
 *   order (an object of at least a page starts a new page: model, a large-block allocator).
 *   A read-only object placed on a page that has a twin (write aggregation) joins the page's
 *   read-write objects at once (as if it had been on the page at the write fault: its bytes are
 *   zeros in both): a processor filling fresh pages (an initialisation) takes one write fault per
 *   page, not per object, as SkidMarks' creator of a `new` object does not fault on it.
 *   Off: every array allocated on every processor at alloc(), contiguous from a page boundary, as
 *   the original program's arrays. Fresh storage is zeros (initial contents everywhere), so a
 *   new object is read-only unless a write notice for it has arrived (then invalid).
 * - Invalidation: a write notice (o, p, i) sets o's last writer to p when interval (p, i) is later
 *   in happens-before order (vector-timestamp sum, then processor) than the recorded one, and
 *   moves o's handle to the invalid view.
 * - Fetch on an invalid object (single writer, whole-object transfer from the last writer): an
 *   object larger than a page fetches only the faulting page's part of it (paper 004 line 148),
 *   the handle leaving the invalid view at the object's last page. An object smaller than a page
 *   with read aggregation (switch readAggregation, lines 141-146) fetches every invalid object
 *   (not larger than a page) on the faulting local page: one OBJ_REQ per distinct last writer,
 *   all sent before waiting (one overlapped request, one round); without, only the faulting
 *   object (one request, one round). Every fetch counts one overlapped request and one round, as
 *   the page runtime's. Fetched objects become read-only.
 * - Writes (single writer per object between synchronisations): a write fault on a read-only
 *   object with write aggregation (switch writeAggregation, line 133) twins the faulting local
 *   page and makes every read-only object on it read-write (twinning every page those objects
 *   span); at the interval's close each twinned page is compared with its twin (one compare per
 *   word, as the page runtime's diff) and only the objects whose bytes changed get write
 *   notices (no diffs); twins deleted, objects back to read-only. Without write aggregation only
 *   the faulting object becomes read-write, with no twin: the paper's "only one object at a time
 *   is made read-write" leaves nothing to compare against, so every object made read-write in
 *   the interval gets a write notice (a write fault is a store attempt). Objects larger than a
 *   page take one write fault per page (page fallback), each twinning its page with aggregation.
 * - Write-notice reduction (switch writeNoticeReduction, line 100): lrc.ts closeInterval, on.
 *   Write notices are counted as sent (lrc.ts), as Table 6's "write notices" (the paper: "the
 *   amount of write notice data").
 * - Messages: OBJ_REQ = count 4 B + entries (OID 4 B, first byte 4 B, bytes 4 B); OBJ_REPLY =
 *   count 4 B + entries (OID 4 B, first byte 4 B, bytes 4 B, then the bytes). Interval records
 *   and write notices take lrc.ts's encoding (TreadMarks', as SkidMarks' synchronisation "is
 *   implemented as in TreadMarks", paper 004 line 86), the unit being the OID's index in the
 *   handle table (the entry's address less the table's, over the entry size: the same on every
 *   processor), runs of consecutive OIDs as ranges. Width (model; the paper gives no encoding):
 *   2 B while every OID of the run fits below lrc.ts's unitLimit (65,501 with 32 processors and
 *   write-notice reduction's two markers), as a page id does; 4 B (a 32-bit handle address's
 *   index) when the arrays hold more objects.
 * - Costs: faults (the node's trap), twins, compares, fetched data and served data as whole-line
 *   copies through the caches (loadLines / storeLines); bookkeeping free (lrc.ts).
 * - Layout: the node's region (transport regionBytes) in four: the three views, then the twin
 *   area (one slot per page of storage, so a processor may twin every page it holds).
 * - Memory per processor: allocatedBytes = local storage pages in use x 4 KB (the paper's
 *   "object memory alloc."); memoryBytes adds the live twins. The handle and inverse tables are
 *   not counted (the paper's Tables 3, 4 and 6 count object memory).
 * Units: bytes, core cycles.
 */
import { DUE, PROT_NONE, PROT_READ, PROT_READ_WRITE, type Sim } from '@manycore/engine';
import type { SharedArrayDesc } from '../api';
import { LrcRuntime, MSG } from './lrc';
import { K_FAULT } from './record';
import { PAGE_BYTES } from './page';
import type { DsmTransport } from './transport';

const PAGE_WORDS = PAGE_BYTES / 4;
const PAGE_LINES = PAGE_BYTES / 32;
const LINE = 32;
const OBJ_REQ = MSG.UNIT;
const OBJ_REPLY = MSG.UNIT + 1;
/** CPU cycles per word compared at release (model: a compare and a branch, as the page runtime's diff). */
const COMPARE_CYCLES_PER_WORD = 1;
const V_INVALID = 0;
const V_READ = 1;
const V_WRITE = 2;

/** The object runtime's switches (paper 004 Table 6's ablations). */
export interface ObjectRuntimeSwitches {
  readAggregation: boolean;
  lazyAllocation: boolean;
  writeAggregation: boolean;
  writeNoticeReduction: boolean;
}

export const ALL_ON: ObjectRuntimeSwitches = { readAggregation: true, lazyAllocation: true, writeAggregation: true, writeNoticeReduction: true };

interface ObjectArray extends SharedArrayDesc {
  readonly firstOid: number;
}

function grow(a: Int32Array<ArrayBuffer>, n: number, fill: number): Int32Array<ArrayBuffer> {
  if (a.length >= n) return a;
  const b = new Int32Array(Math.max(n, a.length * 2)).fill(fill);
  b.set(a);
  return b;
}

export class ObjectRuntime extends LrcRuntime {
  private readonly arrays: ObjectArray[] = [];
  private oids = 0;
  /** Bytes of one view (the local storage). */
  private readonly viewBytes: number;
  private readonly base: number;
  private readonly twinBase: number;
  // handle table, by OID
  private loc = new Int32Array(1024).fill(-1);
  private view = new Int32Array(1024);
  private lastWriter = new Int32Array(1024).fill(-1);
  private lastVtSum = new Int32Array(1024).fill(-1);
  private size = new Int32Array(1024);
  /** A notice arrived before the object was allocated here. */
  private stale = new Int32Array(1024);
  /** Read-write in the open interval without a twin (write aggregation off). */
  private untwinned = new Int32Array(1024);
  private changed = new Int32Array(1024);
  /** Inverse object table: storage offset of an object's first byte -> OID. */
  private readonly inverse = new Map<number, number>();
  /** Objects overlapping each local page, in address order. */
  private readonly pageObjs: Array<number[] | undefined> = [];
  private nextFree = 0;
  private pagesInUse = 0;
  // twins
  private readonly twinSlot: Int32Array;
  private readonly twinPages: number[] = [];
  private readonly freeTwins: number[] = [];
  /** Objects made read-write in the open interval. */
  private rwList: number[] = [];
  // fetching
  private awaiting = 0;
  private readonly fetchList: number[] = [];
  private readonly byWriter = new Map<number, number[]>();
  private readonly a = new Uint32Array(PAGE_WORDS + 16);
  private readonly b = new Uint32Array(PAGE_WORDS + 16);

  constructor(
    t: DsmTransport,
    locks: number,
    readonly switches: ObjectRuntimeSwitches = ALL_ON,
  ) {
    super(t, locks);
    if (!t.mapAliases || !t.mprotectRange) throw new Error('dsm object runtime: this node offers no aliased mappings (transport mapAliases / mprotectRange)');
    // three views of the storage and a twin area as large as one view (a twin per page at most)
    this.viewBytes = Math.floor(t.regionBytes / 4 / PAGE_BYTES) * PAGE_BYTES;
    if (this.viewBytes <= 0) throw new Error(`dsm object runtime: the node's memory (${t.regionBytes} B for the runtime) is too small for three views and a twin area`);
    this.base = t.sharedBase;
    this.twinBase = this.base + 3 * this.viewBytes;
    const pages = this.viewBytes / PAGE_BYTES;
    this.twinSlot = new Int32Array(pages).fill(-1);
    for (let s = pages - 1; s >= 0; s--) this.freeTwins.push(s);
    this.noticeReduction = switches.writeNoticeReduction;
    t.mapAliases(this.base, this.viewBytes, 3);
    t.protectPages(this.base, 3 * this.viewBytes, PAGE_BYTES, PROT_NONE, (addr, write) => this.fault(addr, write));
    t.mprotectRange(pages, pages, PROT_READ);
    t.mprotectRange(2 * pages, pages, PROT_READ_WRITE);
  }

  // ------------------------------------------------------------ handles and storage

  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    if (!Number.isInteger(count) || count < 1 || !Number.isInteger(objectBytes) || objectBytes < 1 || objectBytes % 4 !== 0)
      throw new Error(`dsm alloc ${name}: count ${count} and objectBytes ${objectBytes} must be positive integers, objectBytes a multiple of 4`);
    const d: ObjectArray = { id: this.arrays.length, name, count, objectBytes, firstOid: this.oids };
    this.arrays.push(d);
    const n = this.oids + count;
    this.loc = grow(this.loc, n, -1);
    this.view = grow(this.view, n, 0);
    this.lastWriter = grow(this.lastWriter, n, -1);
    this.lastVtSum = grow(this.lastVtSum, n, -1);
    this.size = grow(this.size, n, 0);
    this.stale = grow(this.stale, n, 0);
    this.untwinned = grow(this.untwinned, n, 0);
    this.changed = grow(this.changed, n, 0);
    for (let k = 0; k < count; k++) this.size[this.oids + k] = objectBytes;
    this.oids = n;
    if (!this.switches.lazyAllocation) {
      // as the original arrays: contiguous from a page boundary, every object at start-up
      this.nextFree = Math.ceil(this.nextFree / PAGE_BYTES) * PAGE_BYTES;
      for (let k = 0; k < count; k++) this.place(d.firstOid + k, false);
      this.nextFree = Math.ceil(this.nextFree / PAGE_BYTES) * PAGE_BYTES;
      this.account();
    }
    return d;
  }

  /** Gives object o local storage at the next free offset (`pack`: an object of a page or more starts a page). */
  private place(o: number, pack: boolean): void {
    const bytes = this.size[o]!;
    if (pack && bytes >= PAGE_BYTES) this.nextFree = Math.ceil(this.nextFree / PAGE_BYTES) * PAGE_BYTES;
    const off = this.nextFree;
    if (off + bytes > this.viewBytes)
      throw new Error(`dsm object runtime: local storage full on processor ${this.me} (${this.viewBytes / 1048576} MB per view; memory.privateBytes sets it)`);
    this.nextFree = off + bytes;
    this.loc[o] = off;
    this.view[o] = this.stale[o] ? V_INVALID : V_READ;
    this.inverse.set(off, o);
    const p0 = Math.floor(off / PAGE_BYTES);
    const p1 = Math.floor((off + bytes - 1) / PAGE_BYTES);
    for (let p = p0; p <= p1; p++) (this.pageObjs[p] ??= []).push(o);
    // a read-only object placed on a page whose objects write aggregation made read-write joins
    // them (its bytes are zeros in the storage and, for the twin, as if it had been there)
    if (this.view[o] === V_READ && bytes <= PAGE_BYTES && this.twinSlot[p0]! >= 0) {
      for (let p = p0; p <= p1; p++) this.twin(p);
      this.makeWritable(o, false);
    }
  }

  private account(): void {
    const pages = Math.ceil(this.nextFree / PAGE_BYTES);
    const add = (pages - this.pagesInUse) * PAGE_BYTES;
    this.pagesInUse = pages;
    this.stats.allocatedBytes += add;
    this.stats.memoryBytes += add;
  }

  private addr(o: number): number {
    return this.base + this.view[o]! * this.viewBytes + this.loc[o]!;
  }

  /** The OID at a faulting address (any view): the inverse table, else the page's list (a page boundary inside an object). */
  private oidAt(addr: number): number {
    const off = (addr - this.base) % this.viewBytes;
    const o = this.inverse.get(off);
    if (o !== undefined) return o;
    for (const q of this.pageObjs[Math.floor(off / PAGE_BYTES)] ?? []) if (this.loc[q]! <= off && off < this.loc[q]! + this.size[q]!) return q;
    throw new Error(`dsm processor ${this.me}: fault at 0x${addr.toString(16)} outside every local object`);
  }

  *open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number> {
    const d = this.arrays[arr.id];
    if (!d || d.name !== arr.name) throw new Error(`dsm open: array ${arr.name} (id ${arr.id}) was not allocated by this runtime`);
    if (!Number.isInteger(i) || i < 0 || i >= d.count) throw new Error(`dsm open ${d.name}: object ${i} is outside 0..${d.count - 1}`);
    yield* this.serveArrived();
    const o = d.firstOid + i;
    if (this.loc[o]! < 0) {
      this.place(o, true);
      this.account();
    }
    const pr = this.core.protection;
    const loc = this.loc[o]!;
    const bytes = this.size[o]!;
    // the hoisted touch: every page of the object, in address order, through the current view;
    // again when a request served during a later page's fault closed the interval (lrc.ts: lazy
    // intervals) and moved the object back to the read-only view
    for (let pass = 0; pass < 4; pass++) {
      for (let off = 0; off < bytes; off = (Math.floor((loc + off) / PAGE_BYTES) + 1) * PAGE_BYTES - loc) {
        const a = this.addr(o) + off;
        if (!pr.allows(a, write)) {
          if (write) this.stats.writeFaults += 1;
          else this.stats.readFaults += 1;
          const k = this.recorder.enter(K_FAULT);
          this.core.trap(write); // the engine's fault counters and the trap cost (CoreBase.trap)
          yield* this.fault(a, write);
          this.recorder.leave(k);
        }
      }
      if (pr.allows(this.addr(o), write) && pr.allows(this.addr(o) + bytes - 1, write)) break;
    }
    const a = this.addr(o);
    if (!pr.allows(a, write) || !pr.allows(a + bytes - 1, write)) throw new Error(`dsm processor ${this.me}: the fault handler left ${d.name}[${i}] in the ${['invalid', 'read-only', 'read-write'][this.view[o]!]} view for a ${write ? 'store' : 'load'}`);
    return a;
  }

  // ------------------------------------------------------------ the fault handler

  private *fault(addr: number, write: boolean): Sim<void> {
    const o = this.oidAt(addr);
    const off = (addr - this.base) % this.viewBytes;
    const page = Math.floor(off / PAGE_BYTES);
    const large = this.size[o]! > PAGE_BYTES;
    const end = this.loc[o]! + this.size[o]!;
    const lastPart = !large || (page + 1) * PAGE_BYTES >= end;
    if (this.view[o] === V_INVALID) {
      if (large) {
        // page fallback: only this page's part of the object
        const first = off - this.loc[o]!;
        const n = Math.min(end, (page + 1) * PAGE_BYTES) - off;
        this.fetchList.length = 0;
        this.byWriter.clear();
        this.request(o, first, n);
        yield* this.fetchRound();
        if (lastPart) this.view[o] = V_READ;
        else if (write) {
          if (this.switches.writeAggregation) this.twin(page);
          return;
        }
      } else {
        this.fetchList.length = 0;
        this.byWriter.clear();
        if (this.switches.readAggregation && this.size[o]! < PAGE_BYTES) {
          for (const q of this.pageObjs[page]!) if (this.view[q] === V_INVALID && this.size[q]! <= PAGE_BYTES) this.request(q, 0, this.size[q]!);
        } else this.request(o, 0, this.size[o]!);
        yield* this.fetchRound();
        for (const q of this.fetchList) this.view[q] = V_READ;
      }
    }
    if (write && this.view[o] !== V_WRITE) {
      if (large) {
        if (this.switches.writeAggregation) this.twin(page);
        if (lastPart) this.makeWritable(o, !this.switches.writeAggregation);
      } else if (this.switches.writeAggregation) {
        for (const q of this.pageObjs[page]!) {
          if (this.view[q] !== V_READ || this.size[q]! > PAGE_BYTES) continue;
          for (let p = Math.floor(this.loc[q]! / PAGE_BYTES); p <= Math.floor((this.loc[q]! + this.size[q]! - 1) / PAGE_BYTES); p++) this.twin(p);
          this.makeWritable(q, false);
        }
      } else this.makeWritable(o, true);
    }
    if (this.core.due()) yield DUE;
  }

  private makeWritable(o: number, untwinned: boolean): void {
    this.view[o] = V_WRITE;
    this.untwinned[o] = untwinned ? 1 : 0;
    this.rwList.push(o);
  }

  // ------------------------------------------------------------ fetching

  private request(o: number, first: number, bytes: number): void {
    const w = this.lastWriter[o]!;
    if (w < 0 || w === this.me) throw new Error(`dsm processor ${this.me}: object ${o} is invalid without another processor as its last writer`);
    let list = this.byWriter.get(w);
    if (!list) this.byWriter.set(w, (list = []));
    list.push(o, first, bytes);
    this.fetchList.push(o);
  }

  /** Sends one OBJ_REQ per last writer (in processor order), all before waiting: one overlapped request, one round. */
  private *fetchRound(): Sim<void> {
    const writers = [...this.byWriter.keys()].sort((x, y) => x - y);
    this.awaiting = 0;
    for (const w of writers) {
      const list = this.byWriter.get(w)!;
      const e = this.out;
      e.begin(OBJ_REQ);
      e.u32(list.length / 3);
      for (const v of list) e.u32(v);
      yield* this.sendOut(w);
      this.awaiting++;
    }
    this.stats.overlappedRequests += 1;
    this.stats.rounds += 1;
    yield* this.waitUntil(() => this.awaiting === 0);
  }

  /** Reads `words` words at addr (word aligned) through whole lines into this.a; returns the first word's index there. */
  private readWords(addr: number, words: number): number {
    const lineAt = Math.floor(addr / LINE) * LINE;
    const lines = Math.ceil((addr + 4 * words) / LINE) - lineAt / LINE;
    this.t.loadLines(lineAt, lines, this.a, 0);
    return (addr - lineAt) / 4;
  }

  /** Writes `bytes` bytes of the message at `off` to addr (word aligned) as whole lines (edge lines read first). */
  private patch(addr: number, dv: DataView, off: number, bytes: number): void {
    const lineAt = Math.floor(addr / LINE) * LINE;
    const lines = Math.ceil((addr + bytes) / LINE) - lineAt / LINE;
    const w = this.readWords(addr, bytes / 4);
    for (let j = 0; j < bytes / 4; j++) this.a[w + j] = dv.getUint32(off + 4 * j, true);
    this.t.storeLines(lineAt, lines, this.a, 0);
  }

  protected *serveUnit(type: number, from: number, _msg: Uint8Array, dv: DataView, len: number): Sim<void> {
    if (type === OBJ_REQ) {
      const n = dv.getUint32(4, true);
      const e = this.out;
      e.begin(OBJ_REPLY);
      e.u32(n);
      for (let k = 0; k < n; k++) {
        const o = dv.getUint32(8 + 12 * k, true);
        const first = dv.getUint32(12 + 12 * k, true);
        const bytes = dv.getUint32(16 + 12 * k, true);
        if (o >= this.oids || this.loc[o]! < 0) throw new Error(`dsm processor ${this.me}: asked by ${from} for object ${o}, which it never held`);
        e.u32(o);
        e.u32(first);
        e.u32(bytes);
        // the local copy through the read-only view (its level never changes)
        const w = this.readWords(this.base + this.viewBytes + this.loc[o]! + first, bytes / 4);
        e.words(this.a, w, bytes / 4);
      }
      yield* this.sendOut(from);
      return;
    }
    if (type === OBJ_REPLY) {
      const n = dv.getUint32(4, true);
      let off = 8;
      for (let k = 0; k < n; k++) {
        const o = dv.getUint32(off, true);
        const first = dv.getUint32(off + 4, true);
        const bytes = dv.getUint32(off + 8, true);
        off += 12;
        // into the local storage through the read-write view
        const at = this.loc[o]! + first;
        this.patch(this.base + 2 * this.viewBytes + at, dv, off, bytes);
        // and into the twin of a twinned page it lies on: the twin holds what this processor had
        // before its own writes, so a fetched object does not look written at the compare
        for (let p = Math.floor(at / PAGE_BYTES); p <= Math.floor((at + bytes - 1) / PAGE_BYTES); p++) {
          const slot = this.twinSlot[p]!;
          if (slot < 0) continue;
          const from = Math.max(at, p * PAGE_BYTES);
          const to = Math.min(at + bytes, (p + 1) * PAGE_BYTES);
          this.patch(this.twinBase + slot * PAGE_BYTES + (from - p * PAGE_BYTES), dv, off + (from - at), to - from);
        }
        off += bytes;
      }
      if (off !== len) throw new Error(`dsm processor ${this.me}: an object reply of ${len} B decoded to ${off} B`);
      this.awaiting--;
      return;
    }
    throw new Error(`dsm processor ${this.me}: unknown object-runtime message type ${type} from ${from}`);
  }

  // ------------------------------------------------------------ twins and release

  private twin(page: number): void {
    if (this.twinSlot[page]! >= 0) return;
    const slot = this.freeTwins.pop();
    if (slot === undefined) throw new Error(`dsm processor ${this.me}: no free twin slot (one per page of storage)`);
    this.t.loadLines(this.base + this.viewBytes + page * PAGE_BYTES, PAGE_LINES, this.a, 0);
    this.t.storeLines(this.twinBase + slot * PAGE_BYTES, PAGE_LINES, this.a, 0);
    this.twinSlot[page] = slot;
    this.twinPages.push(page);
    this.core.protection.markPage(page, true);
    this.stats.twins += 1;
    this.stats.memoryBytes += PAGE_BYTES;
  }

  protected takeDirty(): Int32Array {
    // compare every twinned page with its twin: objects with a changed word were written
    for (const page of this.twinPages) {
      const slot = this.twinSlot[page]!;
      this.t.loadLines(this.base + this.viewBytes + page * PAGE_BYTES, PAGE_LINES, this.a, 0);
      this.t.loadLines(this.twinBase + slot * PAGE_BYTES, PAGE_LINES, this.b, 0);
      this.core.compute(PAGE_WORDS * COMPARE_CYCLES_PER_WORD);
      const p0 = page * PAGE_BYTES;
      for (const q of this.pageObjs[page]!) {
        if (this.view[q] !== V_WRITE || this.changed[q]) continue;
        const from = Math.max(this.loc[q]!, p0) - p0;
        const to = Math.min(this.loc[q]! + this.size[q]!, p0 + PAGE_BYTES) - p0;
        for (let w = from / 4; w < to / 4; w++)
          if (this.a[w] !== this.b[w]) {
            this.changed[q] = 1;
            break;
          }
      }
      this.freeTwins.push(slot);
      this.twinSlot[page] = -1;
      this.core.protection.markPage(page, false);
      this.stats.memoryBytes -= PAGE_BYTES;
    }
    this.twinPages.length = 0;
    const units: number[] = [];
    for (const o of this.rwList) {
      if (this.untwinned[o] || this.changed[o]) units.push(o);
      this.changed[o] = 0;
      this.untwinned[o] = 0;
      this.view[o] = V_READ;
    }
    this.rwList = [];
    return Int32Array.from(units).sort();
  }

  protected unitIds(): number {
    return this.oids;
  }

  protected intervalClosed(id: number, units: Int32Array): void {
    const sum = this.interval(this.me, id)!.vtSum;
    for (let k = 0; k < units.length; k++) {
      this.lastWriter[units[k]!] = this.me;
      this.lastVtSum[units[k]!] = sum;
    }
  }

  protected writtenInOpenInterval(o: number): boolean {
    return this.view[o] === V_WRITE;
  }

  protected invalidate(o: number, proc: number, _id: number, sum: number): void {
    const last = this.lastVtSum[o]!;
    if (sum < last || (sum === last && proc < this.lastWriter[o]!)) return; // an older write than the one recorded
    this.lastWriter[o] = proc;
    this.lastVtSum[o] = sum;
    if (this.loc[o]! < 0) {
      this.stale[o] = 1;
      return;
    }
    if (this.view[o] === V_WRITE) throw new Error(`dsm processor ${this.me}: a write notice for object ${o} from processor ${proc} while this processor writes it (two writers of one object)`);
    this.view[o] = V_INVALID;
  }
}
