/**
 * The SCC family's core (SccCore): the core API a workload's program calls on an SCC chip.
 * The generic parts (clock, miss slots, logs, blocking operations) are in CoreBase (core.ts).
 *
 * Contract
 * - Non-blocking operations are plain calls that advance this core's clock and counters:
 *   compute, loads and stores of 8..64 bits, bulk ranges, flush, CL1INVMB, lock release.
 * - Blocking operations are generators used with `yield*`: waitUntil, barrier, testAndSet,
 *   sleep. They first wait for outstanding misses and drain the write-combine buffer.
 * - Long loops call `if (core.due()) yield DUE;` so the scheduler can end the epoch.
 * - A core reads committed memory plus its own uncommitted writes (the overlay); what
 *   others wrote this epoch becomes visible at the next epoch, at its visible time.
 *
 * Timing (bound phase, zero load; queueing is charged later by the weave, see weave.ts)
 * - L1 hit: l1d.hitCycles; L2 hit: l2.hitCycles (stall "l1Miss").
 * - DRAM: coreOverheadCycles core cycles + 2 x hops x hopMeshCycles mesh cycles + accessMemCycles
 *   memory cycles (scc.md: 40 + 4 x n x 2 + 46), the time of a DRAM row hit; the weave adds
 *   bank (closed bank, row conflict) and bus waits (dram/ddr.ts). Each transaction is recorded
 *   with its line id, so its bank and row are known.
 * - MPB: local tile mpb.localAccessCycles; remote mpb.remoteAccessCycles + 2 x hops x hop.
 * - Memory transactions occupy one of `missesInFlight` slots; the core keeps executing and
 *   stalls only when it needs a slot and none is free, or at a fence (compute/memory overlap).
 * Instructions (C.instructions; IPC = instructions / cycles): a scalar load or store is 1, a
 * bulk range one per 32-bit word plus LINE_LOOP_INSTRUCTIONS per line, CL1INVMB 1, a
 * test-and-set read 1, a release (a store) 1, the software flush one load per line of its
 * region plus its loop; a wait executes its poll loop once per poll read. Cache fills, stalls
 * and the write-combine drain execute nothing. C.nonCacheableReads: bus reads from uncached
 * pages (scalar, bulk and poll reads).
 * Page protection (page-protection.ts, off by default): every scalar load and store, each page
 * a bulk range covers, and a wait's address are checked; an access the page does not allow
 * throws protectionError (take the fault first with `yield* core.touch`). Off, it costs one
 * boolean test per access. `interruptLines` reads a modelled interrupt-request line at no cost.
 * Aliased views (mapAliases, off by default): `copies` virtual views of one range of private
 * pages; an address in view k folds onto view 0 before the LUT translation, so caches and memory
 * see one physical line, while page protection is checked on the address as issued (each view
 * its own levels). On the P54C this is the core's page tables (Linux's, or a bare-metal
 * kernel's) mapping one physical 4 KB page several times; the SCC's 16 MB LUT pages are not
 * involved. Off, it costs one range check per access.
 * Units: time in ps, sizes in bytes. Functional caches are non-coherent, as on the SCC.
 * Hot paths (load*, store*, the line helpers) are called on every access: no allocation.
 */
import { Cache, FLAG_DIRTY, FLAG_MPBT } from '../../cache';
import { aliasViewsEnd } from '../../alias-views';
import { CoreBase, F64_ZERO, FULL_MASK, SimulationError, popcount } from '../../core';
import { S, TXN_TARGET_MPB, WLOG_TAS, type Views } from '../../layout';
import { copyBytes, copyLine } from '../../line-copy';
import { valueAt } from '../../memory';
import { tileHops } from '../../topology';
import {
  ATTR_MPBT,
  ATTR_UNCACHED,
  BlockReason,
  C,
  LINE_BYTES,
  LINE_WORDS,
  LINE_SHIFT,
  LUT_ENTRIES,
  STALL_DRAM,
  STALL_FLUSH,
  STALL_L1_MISS,
  STALL_L2_MISS,
  STALL_MPB,
  STALL_WAIT,
  MPB_TILE_SHIFT,
  SPACE_MPB,
  SPACE_TAS,
  SPACE_SHIFT,
  TARGET_DRAM,
  TARGET_MPB,
  mpbLineId,
  tasLineId,
  WAIT_OPS,
  compare,
  type Sim,
  type WaitOpName,
} from '../../vocabulary';
import type { WaitOn } from '../../wait-for';
import { MPB_STRIDE, type SccChip } from './resolve';

/** No line (a negative double, so the field holds doubles from the start: line ids reach 2^32). */
const NO_LINE = -(2 ** 40);
/** A line-id base in the test-and-set space, which caches never hold (unmapped pages). */
const SPACE_TAS_LINES = (SPACE_TAS << SPACE_SHIFT) >>> 0;

/**
 * Instructions of a bulk range's loop per 32 B line besides its 32-bit moves: a pointer add, a
 * counter decrement and a branch (a loop unrolled by the line, as RCCE's memcpy_scc1 copies: 8
 * loads, 8 stores and 6 loop instructions per line). The P54C pairs them with the moves, so they
 * take no cycle of their own here. copy() runs both loops' overhead: 6 per line.
 */
export const LINE_LOOP_INSTRUCTIONS = 3;
/**
 * A spin on a flag (waitUntil), per poll read: CL1INVMB, the load, a compare and a branch
 * (RCCE_wait_until: invalidate, read, test, loop). On a page that is not MPBT, no CL1INVMB: 3.
 */
export const POLL_MPBT_INSTRUCTIONS = 4;
export const POLL_INSTRUCTIONS = 3;

export class SccCore extends CoreBase {
  declare readonly chip: SccChip;


  private readonly lut: Uint32Array;
  private readonly lineBase: Float64Array;
  readonly l1: Cache;
  readonly l2: Cache | null;
  private readonly l1Write: boolean; // L1 write-back
  private readonly l2WriteBack: boolean;
  private readonly l1Alloc: boolean;
  private readonly l2Alloc: boolean;
  private readonly l1HitCycles: number;
  private readonly l2HitCycles: number;
  /** L1 slots filled with MPBT lines since the last CL1INVMB (may repeat; checked on use). */
  private readonly mpbtSlots: Int32Array;
  private mpbtCount = 0;
  private mpbtOverflow = false;
  // line buffers, each with a word view for copyLine
  private readonly scratch32 = new Uint32Array(LINE_WORDS);
  private readonly scratch = new Uint8Array(this.scratch32.buffer);
  private readonly fillBuf = new Uint8Array(LINE_BYTES);
  // write-combine buffer (one line)
  private readonly wcbEnabled: boolean;
  private wcbKey = NO_LINE; // the buffered line's system line id, or NO_LINE
  private wcbMask = F64_ZERO;
  private readonly wcb32 = new Uint32Array(LINE_WORDS);
  private readonly wcbData = new Uint8Array(this.wcb32.buffer);
  // translation result of the last translate()
  private tKind = 0;
  private tAttrs = 0;
  private tUnit = 0;
  private tLine = F64_ZERO;
  // latency tables (mesh + memory parts in ps, core parts in cycles)
  private readonly dramMeshPs: Float64Array; // per controller: 2 x hops x hop + memory access
  private readonly dramTailPs: Float64Array; // per controller: the DRAM access + hops x hop back (arrival at the controller = done - this)
  private readonly tileMeshPs: Float64Array; // per tile: 2 x hops x hop
  private readonly mpbRegion: number;
  private readonly cpt: number;

  constructor(id: number, chip: SccChip, views: Views, seed: number) {
    super(id, chip, views, seed);
    const topo = chip.topo;
    // a private copy: mapPage changes this core's memory types only
    this.lut = chip.luts.slice(id * LUT_ENTRIES, (id + 1) * LUT_ENTRIES);
    // per page, the system line id of its first line (DRAM: controller and system page; MPB: the
    // page's first tile), so a cache key is lineBase[page] + line within the page without a full
    // translation; unmapped pages point into the test-and-set space, which is never cached, so
    // they miss and translate() names the error
    this.lineBase = new Float64Array(LUT_ENTRIES).fill(SPACE_TAS_LINES);
    for (let p = 0; p < LUT_ENTRIES; p++) {
      const e = this.lut[p]!;
      const kind = e >>> 29;
      if (kind === TARGET_DRAM) this.lineBase[p] = (((e >>> 20) & 0x7f) << SPACE_SHIFT | ((e & 0xfffff) << 19)) >>> 0;
      else if (kind === TARGET_MPB) this.lineBase[p] = ((SPACE_MPB << SPACE_SHIFT) | ((e & 0xfffff) << MPB_TILE_SHIFT)) >>> 0;
    }
    const L = views.layout;
    this.l1 = new Cache(views.state, L.off.l1 + id * L.l1Stride, chip.l1d.sets, chip.l1d.ways);
    this.l2 = chip.l2 ? new Cache(views.state, L.off.l2 + id * L.l2Stride, chip.l2.sets, chip.l2.ways) : null;
    // a run starts with cold caches (the shared buffer starts zeroed, and 0 is a valid tag)
    this.l1.reset();
    this.l2?.reset();
    this.l1Write = chip.l1d.writeBack;
    this.l1Alloc = chip.l1d.allocateOnWrite;
    this.l1HitCycles = chip.l1d.hitCycles;
    this.l2WriteBack = chip.l2?.writeBack ?? false;
    this.l2Alloc = chip.l2?.allocateOnWrite ?? false;
    this.l2HitCycles = chip.l2?.hitCycles ?? 0;
    this.mpbtSlots = new Int32Array(this.l1.slots);
    // MPBT lines already in L1 (state in the shared buffer): the next CL1INVMB scans every slot
    for (let s = 0; s < this.l1.slots; s++) if (this.l1.flags[s]! & FLAG_MPBT) this.mpbtOverflow = true;
    this.wcbEnabled = chip.wcbBytes > 0;
    this.dramMeshPs = new Float64Array(chip.controllers);
    this.dramTailPs = new Float64Array(chip.controllers);
    for (let m = 0; m < chip.controllers; m++) {
      const hops = tileHops(topo, this.tile, chip.controllerTile[m]!);
      this.dramMeshPs[m] = 2 * hops * chip.hopPs + chip.dramAccessPs;
      this.dramTailPs[m] = hops * chip.hopPs + chip.dramAccessPs; // from reaching the controller to completion
    }
    this.tileMeshPs = new Float64Array(topo.tiles);
    for (let t = 0; t < topo.tiles; t++) this.tileMeshPs[t] = 2 * tileHops(topo, this.tile, t) * chip.hopPs;
    this.cpt = topo.coresPerTile;
    this.mpbRegion = chip.mpbBytes / topo.coresPerTile;
  }

  // ---------------------------------------------------------------- addresses

  /** Core address of this core's private memory. */
  get privateBase(): number {
    return this.chip.privateBase;
  }
  /** Core address of the shared DRAM window (same on every core). */
  get sharedBase(): number {
    return this.chip.sharedBase;
  }
  /** Core address of byte `offset` of tile `tile`'s 16 KB MPB. */
  mpbAddr(tile: number, offset: number): number {
    return this.chip.mpbBase + tile * MPB_STRIDE + offset;
  }
  /** Core address of the 8 KB MPB half owned by core `core` (by convention). */
  mpbOf(core: number, offset = 0): number {
    return this.mpbAddr(Math.floor(core / this.cpt), (core % this.cpt) * this.mpbRegion + offset);
  }

  /**
   * Sets the memory type of the 16 MB page holding addr for this core only (on the SCC the
   * type lives in each core's page tables): 'cached' (L1 + L2), 'mpbt' (L1 only,
   * write-combined, dropped by CL1INVMB) or 'uncached' (every access goes to memory). Lines
   * already cached stay cached: flush first when changing a page that was in use. An address in
   * an aliased view (mapAliases) sets the type of view 0's page, which every view uses.
   */
  mapPage(addr: number, type: 'cached' | 'mpbt' | 'uncached'): void {
    if (addr >= this.aliasBase && addr < this.aliasEnd) addr = this.aliasBase + ((addr - this.aliasBase) % this.aliasBytes);
    const page = addr >>> 24;
    const e = this.lut[page]!;
    if (e >>> 29 === 0) throw new SimulationError(`core ${this.id}: page ${page} is not mapped`);
    const attrs = type === 'uncached' ? ATTR_UNCACHED : type === 'mpbt' ? ATTR_MPBT : 0;
    this.lut[page] = ((e & ~(3 << 27)) | (attrs << 27)) >>> 0;
  }

  /** Aliased mappings (mapAliases): [aliasBase, aliasEnd) folds onto its first aliasBytes. */
  private aliasBase = Infinity;
  private aliasEnd = -Infinity;
  private aliasBytes = 1;

  /**
   * Maps `copies` virtual views of the physical pages [base, base + bytes) of this core's private
   * memory: view k at base + k x bytes reads and writes the same memory (and cache lines) as view
   * 0, as mapping one physical page several times in the core's page tables does (Linux's mmap of
   * one object several times; the 16 MB LUT pages are not involved: the fold happens before the
   * LUT, so every view has view 0's memory type). Each view keeps its own page protection (an
   * object runtime gives the views fixed levels and moves objects between them: paper 004 lines
   * 120-129). Whole 4 KB pages, at least 2 copies, all views inside private memory; one aliased
   * range per core (a later call replaces the earlier one). Costs nothing here: the runtime
   * charges its page-table changes.
   */
  mapAliases(base: number, bytes: number, copies: number): void {
    const end = aliasViewsEnd(`core ${this.id}`, base, bytes, copies, this.chip.privateBase, this.chip.privateBytes);
    this.aliasBase = base;
    this.aliasEnd = end;
    this.aliasBytes = bytes;
  }

  /** Resolves addr through the LUT into tKind/tAttrs/tUnit/tLine (an aliased view folded onto view 0 first). Called on every memory-side access. */
  private translate(addr: number): void {
    if (addr >= this.aliasBase && addr < this.aliasEnd) addr = this.aliasBase + ((addr - this.aliasBase) % this.aliasBytes);
    const e = this.lut[addr >>> 24]!;
    const kind = e >>> 29;
    this.tKind = kind;
    this.tAttrs = (e >>> 27) & 3;
    if (kind === TARGET_DRAM) {
      const ctrl = (e >>> 20) & 0x7f;
      this.tUnit = ctrl;
      this.tLine = ((ctrl << SPACE_SHIFT) | ((e & 0xfffff) << 19) | ((addr & 0xffffff) >>> LINE_SHIFT)) >>> 0;
    } else if (kind === TARGET_MPB) {
      const tile = (e & 0xfffff) + ((addr & 0xffffff) >>> 14);
      const off = addr & 0x3fff;
      if (off >= this.chip.mpbBytes || tile >= this.chip.topo.tiles)
        throw new SimulationError(
          `core ${this.id}: address 0x${(addr >>> 0).toString(16)} is ${off} bytes into tile ${tile}'s MPB, which has ${this.chip.mpbBytes}`,
        );
      this.tUnit = tile;
      this.tLine = mpbLineId(tile, off);
    } else {
      throw new SimulationError(`core ${this.id}: address 0x${(addr >>> 0).toString(16)} is not mapped (LUT page ${addr >>> 24})`);
    }
  }

  /** The current translation packed in one exact number (line id + attributes). */
  private saveTarget(): number {
    return this.tLine + this.tAttrs * 4294967296;
  }
  private restoreTarget(saved: number): void {
    const line = saved % 4294967296;
    this.tLine = line;
    this.tAttrs = ((saved - line) / 4294967296) | 0;
    const space = line >>> SPACE_SHIFT;
    this.tKind = space === SPACE_MPB ? TARGET_MPB : TARGET_DRAM;
    this.tUnit = space === SPACE_MPB ? (line & 0x0fffffff) >>> 9 : space;
  }

  // ---------------------------------------------------------------- time

  /** Latency of one access to the current translation target, ps (zero load). */
  private targetLatency(): number {
    if (this.tKind === TARGET_DRAM) return this.chip.coreOverheadCycles * this.period + this.dramMeshPs[this.tUnit]!;
    if (this.tUnit === this.tile) return this.chip.mpbLocalCycles * this.period;
    return this.chip.mpbRemoteCycles * this.period + this.tileMeshPs[this.tUnit]!;
  }

  // ---------------------------------------------------------------- memory side

  /** Records a memory transaction to the current translation target (its line: DRAM bank and row) for the weave phase. */
  private txn(arrivalPs: number, write: boolean, bytes: number, cause: number): void {
    if (this.tKind === TARGET_DRAM) this.txnRecord(this.tUnit, arrivalPs, write, bytes, cause, this.tLine);
    else this.txnRecord(TXN_TARGET_MPB | this.tUnit, arrivalPs, write, bytes, cause, 0);
  }

  /** Appends a buffered write (CoreBase.appendWrite) and counts MPB bytes in the message matrix. */
  private logWrite(lineId: number, mask: number, src: Uint8Array, src32: Uint32Array, srcOff: number, visiblePs: number): void {
    this.appendWrite(lineId, mask, src, src32, srcOff, visiblePs);
    // message matrix: bytes written into another core's MPB half
    if (lineId >>> SPACE_SHIFT === SPACE_MPB) {
      const off = ((lineId & 0x1ff) << 5) >>> 0;
      const tile = (lineId & 0x0fffffff) >>> 9;
      const owner = tile * this.cpt + Math.floor(off / this.mpbRegion);
      if (owner !== this.id) {
        const n = mask === FULL_MASK || mask === -1 ? LINE_BYTES : popcount(mask);
        this.v.matrix[this.matrixRow + owner * 2 + 1] += n;
        this.c[this.cb + C.bytesSent] += n;
      }
    }
  }

  /** A posted write of the masked bytes of src to the current translation target. */
  private memWrite(mask: number, src: Uint8Array, src32: Uint32Array, srcOff: number, bytes: number): void {
    const mpb = this.tKind === TARGET_MPB;
    const cause = mpb ? STALL_MPB : STALL_DRAM;
    const lat = this.targetLatency();
    const done = this.issue(lat, cause);
    this.logWrite(this.tLine, mask, src, src32, srcOff, done);
    this.txn(done - (mpb ? this.tileMeshPs[this.tUnit]! / 2 : this.dramTailPs[this.tUnit]!), true, bytes, cause);
    this.c[this.cb + (mpb ? C.mpbWrites : C.dramWrites)] += 1;
  }

  /** A read of a line from the current translation target into `bulk`; returns completion time. */
  private memRead(bytes: number, cause: number): number {
    const mpb = this.tKind === TARGET_MPB;
    const done = this.issue(this.targetLatency(), mpb ? STALL_MPB : cause);
    this.readMemLine(this.tLine, this.bulk32, 0);
    this.txn(done - (mpb ? this.tileMeshPs[this.tUnit]! / 2 : this.dramTailPs[this.tUnit]!), false, bytes, cause);
    this.c[this.cb + (mpb ? C.mpbReads : C.dramReads)] += 1;
    return done;
  }

  // ---------------------------------------------------------------- write-combine buffer

  /** Sends the write-combine buffer's bytes to memory (if any). */
  drainWcb(): void {
    this.drainWrites();
  }

  protected override drainWrites(): void {
    if (this.wcbKey < 0) return;
    const key = this.wcbKey;
    this.wcbKey = NO_LINE;
    const saved = this.saveTarget();
    this.restoreTarget(key); // the buffered line's system line id
    this.memWrite(this.wcbMask, this.wcbData, this.wcb32, 0, popcount(this.wcbMask));
    this.restoreTarget(saved);
  }

  private wcbPut(key: number, off: number, src: Uint8Array, srcOff: number, size: number): void {
    if (!this.wcbEnabled) {
      const mask = size >= 32 ? FULL_MASK : (((1 << size) - 1) << off) >>> 0;
      copyBytes(this.scratch, off, src, srcOff, size);
      this.memWrite(mask, this.scratch, this.scratch32, 0, size);
      return;
    }
    if (this.wcbKey !== key) {
      this.drainWcb();
      this.wcbKey = key;
      this.wcbMask = 0;
    }
    copyBytes(this.wcbData, off, src, srcOff, size);
    this.wcbMask = (this.wcbMask | (size >= 32 ? FULL_MASK : ((1 << size) - 1) << off)) >>> 0;
  }

  // ---------------------------------------------------------------- cached line access

  /** Writes back a dirty L2 victim. */
  private writeBackL2(slot: number): void {
    const l2 = this.l2!;
    const saved = this.saveTarget();
    this.restoreTarget(l2.tags[slot]! >>> 0); // keys are system line ids

    this.memWrite(FULL_MASK, l2.data, l2.data32, slot * LINE_BYTES, LINE_BYTES);
    this.restoreTarget(saved);
  }

  /** Fills L2 with the line in src; writes back a dirty victim. Returns the slot. */
  private fillL2(key: number, src: Uint32Array, srcWord: number): number {
    const l2 = this.l2!;
    const s = l2.victim(key);
    if (l2.tags[s] !== -1 && l2.flags[s]! & FLAG_DIRTY) this.writeBackL2(s);
    l2.fill(s, key, src, srcWord, 0);
    return s;
  }

  /** Fills L1; a dirty victim (write-back L1 only) goes to L2 or memory. */
  private fillL1(key: number, src: Uint32Array, srcWord: number, flags: number): number {
    const l1 = this.l1;
    const s = l1.victim(key);
    if (l1.tags[s] !== -1 && l1.flags[s]! & FLAG_DIRTY) this.evictDirtyL1(s);
    l1.fill(s, key, src, srcWord, flags);
    if (flags & FLAG_MPBT) {
      if (this.mpbtCount < this.mpbtSlots.length) this.mpbtSlots[this.mpbtCount++] = s;
      else this.mpbtOverflow = true;
    }
    return s;
  }

  private evictDirtyL1(slot: number): void {
    const l1 = this.l1;
    const key = l1.tags[slot]!;
    const mpbt = (l1.flags[slot]! & FLAG_MPBT) !== 0;
    const s2 = !mpbt && this.l2 ? this.l2.probe(key) : -1;
    if (s2 >= 0) {
      copyLine(this.l2!.data32, s2 * LINE_WORDS, l1.data32, slot * LINE_WORDS);
      this.l2!.flags[s2]! |= FLAG_DIRTY;
      return;
    }
    const saved = this.saveTarget();
    this.restoreTarget(key >>> 0); // keys are system line ids
    this.memWrite(FULL_MASK, l1.data, l1.data32, slot * LINE_BYTES, LINE_BYTES);
    this.restoreTarget(saved);
  }

  /** L1 hit accounting. Called on every cached access that hits. */
  private l1Hit(): void {
    const c = this.c;
    const cb = this.cb;
    c[cb + C.l1Hits] += 1;
    const ps = this.l1HitCycles * this.period;
    this.now += ps;
    c[cb + C.busyPs] += ps;
  }

  /** L1 slot of the line `key` for a load (translation of its address already done). */
  private loadSlot(key: number): number {
    const s = this.l1.lookup(key);
    if (s >= 0) {
      this.l1Hit();
      return s;
    }
    return this.loadMiss(key);
  }

  /** Fills L1 on a load miss from L2 or memory; returns the L1 slot. Requires translate(). */
  private loadMiss(key: number): number {
    const c = this.c;
    const cb = this.cb;
    c[cb + C.l1Misses] += 1;
    if ((this.tAttrs & ATTR_MPBT) !== 0) {
      this.drainWcb();
      this.memRead(LINE_BYTES, STALL_MPB);
      return this.fillL1(key, this.bulk32, 0, FLAG_MPBT);
    }
    const l2 = this.l2;
    if (l2) {
      const s2 = l2.lookup(key);
      if (s2 >= 0) {
        c[cb + C.l2Hits] += 1;
        const ps = this.l2HitCycles * this.period;
        this.now += ps;
        this.stall(STALL_L1_MISS, ps);
        return this.fillL1(key, l2.data32, s2 * LINE_WORDS, 0);
      }
      c[cb + C.l2Misses] += 1;
    }
    this.memRead(LINE_BYTES, STALL_L2_MISS);
    if (l2) this.fillL2(key, this.bulk32, 0);
    return this.fillL1(key, this.bulk32, 0, 0);
  }

  /**
   * Stores `size` bytes from src at addr through the hierarchy (write-through L1, write-back
   * L2, no write-allocate, MPBT through the write-combine buffer). Caller translated addr.
   * `size` bytes are size / storeWidth stores: on an uncached page, or when the line misses both
   * caches, each store is its own memory transaction (scc.md: byte stores are one memory
   * transaction each).
   * Called on every cached store.
   */
  private storeBytes(addr: number, src: Uint8Array, srcOff: number, size: number, storeWidth: number): void {
    const key = this.tLine | 0; // caches are keyed by system line (as Int32)
    const off = addr & 31;
    const c = this.c;
    const cb = this.cb;
    if (this.tAttrs & ATTR_UNCACHED) {
      this.writeStores(off, src, srcOff, size, storeWidth);
      return;
    }
    const mpbt = (this.tAttrs & ATTR_MPBT) !== 0;
    const l1 = this.l1;
    const s1 = l1.lookup(key);
    if (s1 >= 0) {
      this.l1Hit();
      copyBytes(l1.data, s1 * LINE_BYTES + off, src, srcOff, size);
      if (this.l1Write && !mpbt) {
        l1.flags[s1]! |= FLAG_DIRTY;
        return;
      }
    } else {
      c[cb + C.l1Misses] += 1;
      if (this.l1Alloc && !mpbt) {
        // allocate-on-write: read the line first, then write into it
        const s = this.loadMiss(key);
        copyBytes(l1.data, s * LINE_BYTES + off, src, srcOff, size);
        if (this.l1Write) {
          l1.flags[s]! |= FLAG_DIRTY;
          return;
        }
      }
    }
    if (mpbt) {
      this.wcbPut(this.tLine, off, src, srcOff, size);
      return;
    }
    const l2 = this.l2;
    if (l2) {
      let s2 = l2.lookup(key);
      if (s2 < 0 && this.l2Alloc) {
        c[cb + C.l2Misses] += 1;
        this.memRead(LINE_BYTES, STALL_L2_MISS);
        s2 = this.fillL2(key, this.bulk32, 0);
      } else if (s2 >= 0) c[cb + C.l2Hits] += 1;
      else c[cb + C.l2Misses] += 1;
      if (s2 >= 0) {
        copyBytes(l2.data, s2 * LINE_BYTES + off, src, srcOff, size);
        if (this.l2WriteBack) {
          l2.flags[s2]! |= FLAG_DIRTY;
          return;
        }
      }
    }
    // no write-allocate: a store that misses goes to memory, one transaction per store
    this.writeStores(off, src, srcOff, size, storeWidth);
  }

  /**
   * Sends `size` bytes from src, at byte `off` of the current translation target's line, to
   * memory as stores of `storeWidth` bytes (at most 8), each a transaction of its own.
   */
  private writeStores(off: number, src: Uint8Array, srcOff: number, size: number, storeWidth: number): void {
    for (let k = 0; k < size; k += storeWidth) {
      const m = Math.min(storeWidth, size - k);
      copyBytes(this.scratch, off + k, src, srcOff + k, m);
      this.memWrite((((1 << m) - 1) << (off + k)) >>> 0, this.scratch, this.scratch32, 0, m);
    }
  }

  // ---------------------------------------------------------------- scalar loads and stores

  /** Byte offset in `bytes` of a value of `size` at addr, after bringing it in. Called on every load. */
  private loadAt(addr: number, size: number): Uint8Array {
    this.checkAlign(addr, size);
    if (!this.protection.allows(addr, false)) throw this.protectionError(addr, false);
    this.c[this.cb + C.loads] += 1;
    this.retire(1);
    // caches are keyed by system line (as Int32); the key without a full translation (an aliased view folded onto view 0)
    const a = addr >= this.aliasBase && addr < this.aliasEnd ? this.aliasBase + ((addr - this.aliasBase) % this.aliasBytes) : addr;
    const key = (this.lineBase[a >>> 24]! + ((a & 0xffffff) >>> LINE_SHIFT)) | 0;
    const s = this.l1.lookup(key);
    if (s >= 0) {
      // L1 hit fast path: only cacheable pages ever fill L1
      this.l1Hit();
      this.loadOff = s * LINE_BYTES + (addr & 31);
      return this.l1.data;
    }
    this.translate(addr);
    if (this.tAttrs & ATTR_UNCACHED) {
      this.memRead(size, STALL_DRAM);
      this.c[this.cb + C.nonCacheableReads] += 1;
      // the SCC quirk: an uncached MPB read returns the first 8 B of the line
      this.loadOff = this.tKind === TARGET_MPB ? addr & 7 & ~(size - 1) : addr & 31;
      return this.bulk;
    }
    const slot = this.loadMiss(key);
    this.loadOff = slot * LINE_BYTES + (addr & 31);
    return this.l1.data;
  }
  private loadOff = 0;

  load8(addr: number): number {
    const b = this.loadAt(addr, 1);
    return b[this.loadOff]!;
  }
  load16(addr: number): number {
    const b = this.loadAt(addr, 2);
    const o = this.loadOff;
    return b[o]! | (b[o + 1]! << 8);
  }
  load32(addr: number): number {
    const b = this.loadAt(addr, 4);
    const o = this.loadOff;
    return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
  }
  loadI32(addr: number): number {
    return this.load32(addr) | 0;
  }
  loadF64(addr: number): number {
    const b = this.loadAt(addr, 8);
    return valueAt(b, this.loadOff, 8);
  }

  /**
   * NOT FOR SIMULATED CODE (CoreBase.peek32): the word at `addr` as this core's next load32
   * would return it, untimed and without side effects (caches probed, LRU, counters, clock,
   * write log, write-combine buffer and translation state untouched; no page-protection check):
   * the L1 copy when L1 holds the line (any memory type, as the load's fast path; an MPBT copy
   * may be stale, a write-back copy dirty); else, on a cached page, the L2 copy when L2 holds it
   * (possibly dirty: the SCC's caches are not coherent); else memory as this core sees it
   * (committed memory plus its own uncommitted writes), on an MPBT page with the bytes of the
   * same line still in this core's write-combine buffer over it (the load drains the buffer
   * first). One difference from a load: on an uncached MPB page it returns the addressed word,
   * not the P54C's first-8-bytes quirk. Unmapped or unaligned addresses are SimulationErrors.
   */
  override peek32(addr: number): number {
    this.checkPeek(addr);
    const [kind, attrs0, unit, line0] = [this.tKind, this.tAttrs, this.tUnit, this.tLine];
    this.translate(addr); // names an unmapped address; the translation state is put back below
    const line = this.tLine;
    const attrs = this.tAttrs;
    [this.tKind, this.tAttrs, this.tUnit, this.tLine] = [kind, attrs0, unit, line0];
    const key = line | 0;
    const off = addr & 31;
    const s1 = this.l1.probe(key);
    if (s1 >= 0) return valueAt(this.l1.data, s1 * LINE_BYTES + off, 4);
    if ((attrs & (ATTR_UNCACHED | ATTR_MPBT)) === 0 && this.l2) {
      const s2 = this.l2.probe(key);
      if (s2 >= 0) return valueAt(this.l2.data, s2 * LINE_BYTES + off, 4);
    }
    let w = this.peekMemWord(line, off);
    if ((attrs & ATTR_MPBT) !== 0 && this.wcbKey === line)
      for (let i = 0; i < 4; i++)
        if ((this.wcbMask >>> (off + i)) & 1) w = ((w & ~(0xff << (8 * i))) | (this.wcbData[off + i]! << (8 * i))) >>> 0;
    return w;
  }

  private storeScalar(addr: number, size: number): void {
    this.checkAlign(addr, size);
    if (!this.protection.allows(addr, true)) throw this.protectionError(addr, true);
    this.c[this.cb + C.stores] += 1;
    this.retire(1);
    this.translate(addr);
    this.storeBytes(addr, this.scratchVal, 0, size, size);
  }
  private readonly scratchVal = new Uint8Array(8);
  private readonly scratchValDv = new DataView(this.scratchVal.buffer);

  store8(addr: number, value: number): void {
    this.scratchVal[0] = value;
    this.storeScalar(addr, 1);
  }
  store16(addr: number, value: number): void {
    this.scratchValDv.setUint16(0, value, true);
    this.storeScalar(addr, 2);
  }
  store32(addr: number, value: number): void {
    this.scratchValDv.setUint32(0, value >>> 0, true);
    this.storeScalar(addr, 4);
  }
  storeF64(addr: number, value: number): void {
    this.scratchValDv.setFloat64(0, value, true);
    this.storeScalar(addr, 8);
  }

  // ---------------------------------------------------------------- bulk ranges

  /**
   * Reads `bytes` from addr (into dst when given) as a loop of 32-bit loads would, line by
   * line through the caches (uncached: one transaction per 8 bytes, the P54C bus width).
   * Instructions: one load per 32-bit word plus LINE_LOOP_INSTRUCTIONS per line.
   */
  readRange(addr: number, bytes: number, dst?: Uint8Array, dstOff = 0): void {
    if (this.protection.on) this.checkPages(addr, bytes, false);
    let a = addr;
    let done = 0;
    while (done < bytes) {
      const off = a & 31;
      const n = Math.min(32 - off, bytes - done);
      this.translate(a);
      this.c[this.cb + C.loads] += Math.ceil(n / 4);
      this.retire(Math.ceil(n / 4) + LINE_LOOP_INSTRUCTIONS);
      if (this.tAttrs & ATTR_UNCACHED) {
        for (let k = 0; k < n; k += 8) this.memRead(Math.min(8, n - k), STALL_DRAM);
        this.c[this.cb + C.nonCacheableReads] += Math.ceil(n / 8);
        if (dst) copyBytes(dst, dstOff + done, this.bulk, off, n);
      } else {
        const s = this.loadSlot(this.tLine | 0);
        const extra = Math.ceil(n / 4) - 1;
        if (extra > 0) this.busyCycles(extra * this.l1HitCycles);
        if (dst) copyBytes(dst, dstOff + done, this.l1.data, s * LINE_BYTES + off, n);
      }
      a += n;
      done += n;
    }
  }

  /**
   * Writes `bytes` at addr from src (or a repeated fill byte), as 32-bit stores would.
   * Instructions: one store per 32-bit word plus LINE_LOOP_INSTRUCTIONS per line.
   */
  writeRange(addr: number, bytes: number, src: Uint8Array | number, srcOff = 0): void {
    if (this.protection.on) this.checkPages(addr, bytes, true);
    let a = addr;
    let done = 0;
    const fill = typeof src === 'number';
    if (fill) this.fillBuf.fill(src);
    while (done < bytes) {
      const off = a & 31;
      const n = Math.min(32 - off, bytes - done);
      this.translate(a);
      const words = Math.ceil(n / 4);
      this.c[this.cb + C.stores] += words;
      this.retire(words + LINE_LOOP_INSTRUCTIONS);
      const from = fill ? this.fillBuf : (src as Uint8Array);
      const fo = fill ? 0 : srcOff + done;
      // uncached: 8 B bus transactions; cached: 32-bit stores (the first charged by the store)
      const uncached = (this.tAttrs & ATTR_UNCACHED) !== 0;
      this.storeBytes(a, from, fo, n, uncached ? 8 : 4);
      if (!uncached && words > 1) this.busyCycles((words - 1) * this.l1HitCycles);
      a += n;
      done += n;
    }
  }

  /** Page protection of a bulk range: each protected page it covers is checked once. */
  private checkPages(addr: number, bytes: number, write: boolean): void {
    const pageBytes = 2 ** this.protection.pageShift;
    const last = addr + Math.max(bytes, 1) - 1;
    for (let a = addr; a <= last; a = (Math.floor(a / pageBytes) + 1) * pageBytes)
      if (!this.protection.allows(a, write)) throw this.protectionError(a, write);
  }

  /**
   * memcpy: reads src range and writes it to dst range (both through the hierarchy).
   * Instructions: readRange's and writeRange's (a load and a store per word, 6 per line).
   */
  copy(dstAddr: number, srcAddr: number, bytes: number): void {
    const buf = this.copyBuf;
    let done = 0;
    while (done < bytes) {
      const n = Math.min(32 - ((srcAddr + done) & 31), 32 - ((dstAddr + done) & 31), bytes - done);
      this.readRange(srcAddr + done, n, buf, 0);
      this.writeRange(dstAddr + done, n, buf, 0);
      done += n;
    }
  }
  private readonly copyBuf = new Uint8Array(32);

  // ---------------------------------------------------------------- cache control

  /**
   * Software flush, as on the SCC (no hardware flush): the core reads a flush region the size
   * of L2 (the last L2-sized bytes of its private memory) through the cache, which writes back
   * every dirty line and evicts the rest; then L1 and L2 are invalid. Cost comes from the
   * modelled reads and write-backs: each is a transaction to its own line's controller (the
   * write-backs where the dirty lines live, the reads at the private memory's controller),
   * queueing there like any other traffic.
   */
  flush(): void {
    this.drainWcb();
    const l1 = this.l1;
    const l2 = this.l2;
    // write back dirty L1 lines first (write-back L1 only)
    for (let s = 0; s < l1.slots; s++) if (l1.tags[s] !== -1 && l1.flags[s]! & FLAG_DIRTY) this.evictDirtyL1(s);
    if (l2) {
      // the flush region: the last L2-sized bytes of this core's private memory, read line by
      // line (each read a transaction to its own line, at the private memory's controller)
      this.translate(this.chip.privateBase + this.chip.privateBytes - l2.slots * LINE_BYTES);
      const ctrl = this.tUnit;
      const region = this.tLine;
      const lat = this.chip.coreOverheadCycles * this.period + this.dramMeshPs[ctrl]!;
      const ways = l2.ways;
      const setMask = l2.sets - 1;
      const setShift = Math.log2(l2.sets);
      for (let j = 0; j < l2.slots; j++) {
        // region line j maps to set j mod sets, so the reads pass over every set `ways` times;
        // read j fills an invalid way if its set has one (the region lines filled earlier hold
        // `pass` ways), else evicts the set's least recently used line, written back if dirty.
        // Region lines are not kept: after the flush L2 is empty.
        const base = (j & setMask) * ways;
        let valid = 0;
        let lru = -1;
        for (let w = 0; w < ways; w++) {
          const s = base + w;
          if (l2.tags[s] === -1) continue;
          valid++;
          if (lru < 0 || l2.lru[s]! < l2.lru[lru]!) lru = s;
        }
        if (valid > 0 && (j >>> setShift) + valid >= ways) {
          if (l2.flags[lru]! & FLAG_DIRTY) this.writeBackL2(lru);
          l2.invalidate(lru);
        }
        // the flush routine's read of one line of its flush region (one load instruction)
        this.retire(1);
        this.tKind = TARGET_DRAM;
        this.tUnit = ctrl;
        this.tLine = region + j;
        const done = this.issue(lat, STALL_FLUSH);
        this.txn(done - this.dramTailPs[ctrl]!, false, LINE_BYTES, STALL_FLUSH);
        if ((j & 7) === 7) this.compute(1); // loop overhead of the flush routine
      }
    }
    for (let s = 0; s < l1.slots; s++) l1.invalidate(s);
    this.fence();
    this.c[this.cb + C.flushes] += 1;
  }

  /**
   * CL1INVMB: invalidates every MPBT line in L1 (one cycle). Visits only the slots filled
   * with MPBT lines since the last call (mpbtSlots), or every slot after that list overflowed.
   */
  invalidateMpbt(): void {
    const l1 = this.l1;
    if (this.mpbtOverflow) {
      for (let s = 0; s < l1.slots; s++) if (l1.flags[s]! & FLAG_MPBT) l1.invalidate(s);
      this.mpbtOverflow = false;
    } else
      for (let i = 0; i < this.mpbtCount; i++) {
        const s = this.mpbtSlots[i]!;
        if (l1.flags[s]! & FLAG_MPBT) l1.invalidate(s);
      }
    this.mpbtCount = 0;
    this.compute(1);
  }

  // ---------------------------------------------------------------- messages

  /**
   * Inter-core interrupt request lines (model, for a bare-metal runtime that takes IPIs, such
   * as MetalSVM's mailboxes: paper 003 lines 835-866): copies the 32 B line at MPB address
   * `addr` (line-aligned), as this core sees it now (committed memory plus its own writes),
   * into out at word `outWord`, taking no simulated time and executing nothing: an interrupt
   * reaches a core on a wire, not through a load. Only for words that stand for interrupt
   * request lines (the GIC's per-sender status); the handler's work is the caller's to charge.
   */
  interruptLines(addr: number, out: Uint32Array, outWord = 0): void {
    const rel = addr - this.chip.mpbBase;
    const tile = Math.floor(rel / MPB_STRIDE);
    const off = rel - tile * MPB_STRIDE;
    if (rel < 0 || (addr & 31) !== 0 || tile >= this.chip.topo.tiles || off >= this.chip.mpbBytes)
      throw new SimulationError(`core ${this.id}: interrupt lines at 0x${(addr >>> 0).toString(16)} are not a line of an MPB`);
    this.readMemLine(mpbLineId(tile, off), out, outWord);
  }

  // ---------------------------------------------------------------- blocking operations

  /** Cost of one poll read of a line (the final, successful read of a wait). */
  private pollPs(): number {
    if ((this.tLine >>> SPACE_SHIFT) === 14) return this.chip.mpbLocalCycles * this.period; // TAS register
    return this.targetLatency();
  }

  /**
   * Blocks until the `size`-byte value at addr (1, 2, 4: unsigned; 8: float64) satisfies
   * `op value`. Polls memory, not the cache: on an MPBT page the poll loop is RCCE_wait_until's
   * (CL1INVMB, then the read), so every read misses L1. Returns the value seen. Executes the poll
   * loop (POLL_MPBT_INSTRUCTIONS or POLL_INSTRUCTIONS) once per poll read; on an uncached page
   * each poll read is a non-cacheable read.
   * `opts.on`: the core whose write releases the wait (the wait-for graph of a deadlock message).
   * `opts.cl1invmb: false` (a protocol bug, MPBT pages only): the loop skips CL1INVMB, so its
   * read goes through L1 like any load: a hit returns the L1 copy, a miss fills L1 with the line
   * as memory holds it now. If that value does not satisfy the condition, the core spins on its
   * own copy, which nothing changes: it never wakes (the deadlock message names the stale copy).
   */
  *waitUntil(addr: number, op: WaitOpName, value: number, size = 4, opts?: { on?: WaitOn; cl1invmb?: boolean }): Sim<number> {
    this.checkAlign(addr, size);
    if (!this.protection.allows(addr, false)) throw this.protectionError(addr, false);
    this.prepareBlock();
    this.translate(addr);
    if (opts?.cl1invmb === false && (this.tAttrs & ATTR_MPBT) !== 0) return yield* this.waitOnL1Copy(addr, op, value, size, opts.on);
    const uncached = (this.tAttrs & ATTR_UNCACHED) !== 0;
    const pollInstr = this.tAttrs & ATTR_MPBT ? POLL_MPBT_INSTRUCTIONS : POLL_INSTRUCTIONS;
    const v = yield* this.waitLine(this.tLine, addr & 31, size, op, value, this.pollPs(), this.tKind === TARGET_MPB ? STALL_MPB : STALL_DRAM, pollInstr, opts?.on);
    if (uncached) this.c[this.cb + C.nonCacheableReads] += this.lastPolls;
    return v;
  }

  /**
   * A poll loop without CL1INVMB on an MPBT line (waitUntil with cl1invmb false; translation
   * done): the read goes through L1 (POLL_INSTRUCTIONS per read). Satisfied: returns the value.
   * Otherwise the core spins on its L1 copy, which cannot change while it spins: it blocks with
   * that copy's value recorded (S.waitL1Value), and the committer never wakes it.
   */
  private *waitOnL1Copy(addr: number, op: WaitOpName, value: number, size: number, on: WaitOn | undefined): Sim<number> {
    const opCode = WAIT_OPS[op];
    if (opCode === undefined) throw new SimulationError(`core ${this.id}: unknown wait operator ${String(op)}`);
    const slot = this.loadSlot(this.tLine | 0);
    const v0 = valueAt(this.l1.data, slot * LINE_BYTES + (addr & 31), size);
    this.retire(POLL_INSTRUCTIONS);
    this.lastPolls = 1;
    if (compare(opCode, v0, value)) return v0;
    const c = this.c;
    const cb = this.cb;
    c[cb + S.waitLine] = this.tLine;
    c[cb + S.waitOffset] = addr & 31;
    c[cb + S.waitSize] = size;
    c[cb + S.waitOp] = opCode;
    c[cb + S.waitValue] = value;
    c[cb + S.waitReadPs] = this.l1HitCycles * this.period;
    this.recordWaitOn(on, v0);
    yield* this.blockOn(BlockReason.Flag);
    return c[cb + S.tasResult]!;
  }

  /** One-way latency to test-and-set register `reg` (on the tile of core `reg`). */
  private tasOneWayPs(reg: number): number {
    const t = Math.floor(reg / this.cpt);
    return this.chip.mpbLocalCycles * this.period + this.tileMeshPs[t]! / 2;
  }

  private checkReg(reg: number): void {
    if (!Number.isInteger(reg) || reg < 0 || reg >= this.chip.tasRegisters)
      throw new SimulationError(`core ${this.id}: test-and-set register ${reg} does not exist (0..${this.chip.tasRegisters - 1})`);
  }

  /** Atomic test-and-set of register `reg`; true when this core acquired it (it was 0). */
  *testAndSet(reg: number): Sim<boolean> {
    this.checkReg(reg);
    this.prepareBlock();
    const oneWay = this.tasOneWayPs(reg);
    this.retire(1); // the read of the register
    this.appendRequest(WLOG_TAS, tasLineId(reg), 1, this.now + oneWay);
    this.c[this.cb + S.waitReadPs] = oneWay;
    yield* this.blockOn(BlockReason.Lock);
    return this.c[this.cb + S.tasResult] === 0;
  }

  /** Releases test-and-set register `reg` (writes 0). */
  release(reg: number): void {
    this.checkReg(reg);
    this.scratch.fill(0);
    this.logWrite(tasLineId(reg), 1, this.scratch, this.scratch32, 0, this.now + this.tasOneWayPs(reg));
    this.compute(1);
  }

  /** Acquires lock `reg`: test-and-set, waiting for a release between attempts. */
  *lock(reg: number): Sim<void> {
    while (!(yield* this.testAndSet(reg))) {
      // spin reading the register (a load, a test, a branch per read) until it is released
      yield* this.waitLine(tasLineId(reg), 0, 1, '==', 0, this.tasOneWayPs(reg) * 2, STALL_WAIT, POLL_INSTRUCTIONS);
    }
  }

  // ---------------------------------------------------------------- scheduler hooks


  protected cacheLines(level: 1 | 2): number {
    return level === 1 ? this.l1.valid : this.l2 ? this.l2.valid : 0;
  }
}
