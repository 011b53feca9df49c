/**
 * The TILE64 family's core (Tile64Core): the core API a workload's program calls on a TILE64.
 *
 * Contract
 * - Addresses go through this core's page table (64 KB pages; regime, home tile and physical
 *   page per page; resolve.ts) and its data TLB (tlb.ts; a miss runs the software refill
 *   handler: tlb.missCycles of executed work).
 * - Caching regimes (paper 000 lines 414-431, Tables 2 and 3):
 *   homed: at the home tile through its L1 (16 B lines, write-through) and L2 (64 B lines,
 *     write-back, write-allocate); at any other tile no caching: each word goes to the home
 *     L2, remoteBaseCycles + remotePerHopCycles x hops when the home L2 holds the line, plus a
 *     DRAM access from the home when it does not (home-slice.ts decides, deterministically).
 *   read-only: cached in any tile's L1 and L2; a miss reads memory; stores are an error.
 *   user-managed (Tilera's "incoherent" memory): cached anywhere, and the copies are real. The
 *     tile's L1 and L2 hold the line's bytes: a hit returns the cached bytes, stale or not; a
 *     fill copies the line from memory as this core sees it; a store writes the own copies
 *     (L1 write-through to L2, L2 write-back with write-allocate, as for homed lines at home)
 *     and reaches memory only when the L2 line is written back: flushLine, invalidateLine or
 *     eviction. A write-back carries the bytes this tile stored (a per-byte dirty mask, model:
 *     the sources do not say whether the L2 keeps byte or line dirty bits). So another tile's
 *     store is seen only after the writer's write-back AND the reader's invalidateLine (or an
 *     eviction); software keeps copies apart with the 4-step store of Table 2 (other tiles
 *     invalidate, store, flush, fence). Timing is the same as a read-only page's.
 *   invalidateLine is Tilera's finv (TILE64 has no discarding inv: CHIP_HAS_INV() 0; stride
 *     one L1D line, CHIP_FINV_STRIDE(); Linux arch/tile/include/arch/chip_tile64.h): writes
 *     the L2 line back if dirty, then drops it and the L1 line holding addr. flushLine writes a
 *     dirty L2 line back and keeps it (stride one L2 line, CHIP_FLUSH_STRIDE()). fence waits
 *     for outstanding write-backs too (CHIP_HAS_MF_WAITS_FOR_VICTIMS() 1): a flag stored after
 *     flush + fence is seen after the data.
 *   mapRegion moving a page into or out of user-managed: the lines of it this tile caches keep
 *     their tags; their bytes are loaded from memory (entering: the hardware kept them
 *     coherent) or written back if dirty (leaving), untimed (model: the OS does this work
 *     when it changes a page's caching attributes; not charged).
 * - DRAM: accessCycles + perHopCycles x hops to the page's controller (Table 1: 69-88).
 * - Data of homed and read-only pages: their cache lines hold tags only (timing and occupancy);
 *   values come from memory as this core sees it (committed + its own writes), which is exact
 *   because the hardware keeps them coherent. User-managed lines carry FLAG_DATA and their
 *   bytes in per-core arrays (allocated when a page first becomes user-managed).
 * - DMA reads memory as this core sees it, not its caches, and writes memory: a user-managed
 *   line cached on a tile is not updated by a DMA into it (the tile must invalidate).
 * - Raw network messages (UDN): udnSend / udnReceive through one receive slot per sender in
 *   the destination tile's buffer (sendBase + words, hops x hopCycles in flight,
 *   receiveBase + words). DMA: dma() moves lines memory-to-memory after setupCycles.
 * - Instructions (C.instructions): 1 per load or store; the TLB refill handler, raw sends and
 *   receives and DMA set-up retire one per cycle (compute's default); a receive that waits for
 *   its message stalls without executing.
 * Units: time in ps, sizes in bytes. Loads and stores are called on every access: no allocation.
 */
import { Cache, FLAG_DIRTY } from '../../cache';
import { FULL_MASK, SimulationError } from '../../core';
import { LITTLE_ENDIAN_HOST, WordCore } from '../../word-core';
import { valueAt } from '../../memory';
import { TXN_TARGET_MPB, WLOG_UNIT, type Views } from '../../layout';
import { tileHops } from '../../topology';
import { C, LINE_BYTES, STALL_DRAM, STALL_L1_MISS, STALL_L2_MISS, STALL_NETWORK, dramLineId, mpbLineId, type Sim } from '../../vocabulary';
import { RecentFills, present } from './home-slice';
import {
  PAGES,
  PAGE_SHIFT_64K,
  REGIME_HOMED,
  REGIME_NAMES,
  REGIME_READ_ONLY,
  REGIME_USER_MANAGED,
  pte,
  pteHome,
  ptePhys,
  pteRegime,
  pteValid,
  type RegimeName,
  type Tile64Chip,
} from './resolve';
import { Tlb } from './tlb';

/** Entries translate keeps decoded (a power of two). */
const DECODED = 16;

/** Cache flag (bits 0 and 1 are cache.ts's): the slot holds the line's bytes (a user-managed line). */
export const FLAG_DATA = 4;

/** The shared window's page-table entries, the same for every core of a chip: built once per chip (start-up). */
const sharedTables = new WeakMap<Tile64Chip, Int32Array>();
function sharedEntries(chip: Tile64Chip): Int32Array {
  let t = sharedTables.get(chip);
  if (t === undefined) {
    t = new Int32Array(chip.sharedPages);
    for (let p = 0; p < chip.sharedPages; p++) t[p] = pte(REGIME_HOMED, p % chip.topo.tiles, chip.sharedPhysBase + p);
    sharedTables.set(chip, t);
  }
  return t;
}

export class Tile64Core extends WordCore {
  declare readonly chip: Tile64Chip;
  readonly l1: Cache;
  readonly l2: Cache;
  readonly tlb: Tlb;
  /** The page table (pte() entries as Int32: a valid entry is negative, the bits are the same; int32 values need no boxing on the hot path). */
  private readonly pt: Int32Array;
  private readonly recent = new RecentFills();
  private readonly l1Shift: number;
  /** The L1's and L2's hit cycles (chip.l1d / chip.l2, read on every access). */
  private readonly l1HitCycles: number;
  private readonly l2HitCycles: number;
  private readonly l2Shift: number;
  private readonly hopsTo: Int32Array; // per tile
  private readonly sendSeq: Int32Array; // per destination core
  private readonly recvSeq: Int32Array; // per source core
  // translation of the last access
  private tRegime = 0;
  private tHome = 0;
  private tPaddr = -0;
  /** The page-table entry translate decoded last (1 at first: no entry, valid ones are negative), its physical page's base address and its system line id base (lineIdOf of the page's first byte, as int32). */
  private tEntry = 1;
  private tPhysBase = -0;
  private tLineBase = 0;
  /** Decoded entries (translate): entry (1: none; valid ones are negative) and its tLineBase, by page mod DECODED. */
  private readonly decEntry = new Int32Array(DECODED).fill(1);
  private readonly decLine = new Int32Array(DECODED);
  /** Sequence word (or doorbell stamp) of the message takeMessage copied last. */
  private takenSeq = 0;
  /** Remote (non-home) accesses, for rows and views. */
  remoteReads = 0;
  remoteWrites = 0;
  /** User-managed lines' bytes per L1 / L2 slot (lineBytes each), and the L2's per-byte dirty marks; empty until a page becomes user-managed. */
  private l1Data = new Uint8Array(0);
  private l2Data = new Uint8Array(0);
  private l2Dirty = new Uint8Array(0);
  private l1Data32 = new Uint32Array(0);
  private l2Data32 = new Uint32Array(0);
  /** A 32 B system line: fills and write-backs of user-managed lines. */
  private readonly wb32 = new Uint32Array(8);
  private readonly wb = new Uint8Array(this.wb32.buffer);
  /** L2 slot of the last user-managed access, and its L1 slot (-1: not in L1). */
  private uS1 = -1;
  private uS2 = -1;

  constructor(id: number, chip: Tile64Chip, views: Views, seed: number) {
    super(id, chip, views, seed);
    const L = views.layout;
    this.l1 = new Cache(views.state, L.off.l1 + id * L.l1Stride, chip.l1d.sets, chip.l1d.ways);
    this.l2 = new Cache(views.state, L.off.l2 + id * L.l2Stride, chip.l2!.sets, chip.l2!.ways);
    this.l1.reset();
    this.l2.reset();
    this.l1HitCycles = chip.l1d.hitCycles;
    this.l2HitCycles = chip.l2!.hitCycles;
    this.l1Shift = chip.l1LineShift;
    this.l2Shift = chip.l2LineShift;
    this.tlb = new Tlb(chip.config.tlb.dataEntries, chip.config.tlb.hugePages ? 24 : PAGE_SHIFT_64K);
    this.hopsTo = new Int32Array(chip.topo.tiles);
    for (let t = 0; t < chip.topo.tiles; t++) this.hopsTo[t] = tileHops(chip.topo, this.tile, t);
    this.sendSeq = new Int32Array(chip.topo.cores);
    this.recvSeq = new Int32Array(chip.topo.cores);
    // the page table: the private window on this core's own physical pages, homed here; the
    // shared window the same for every core, homed round-robin over the tiles
    this.pt = new Int32Array(PAGES);
    const priv = chip.privateBase >>> PAGE_SHIFT_64K;
    for (let p = 0; p < chip.privatePages; p++) this.pt[priv + p] = pte(REGIME_HOMED, this.tile, id * chip.privatePages + p);
    this.pt.set(sharedEntries(chip), chip.sharedBase >>> PAGE_SHIFT_64K);
  }

  // ---------------------------------------------------------------- addresses

  get privateBase(): number {
    return this.chip.privateBase;
  }
  get sharedBase(): number {
    return this.chip.sharedBase;
  }
  /** Tile of core `core` (one core per tile). */
  tileOf(core: number): number {
    return core;
  }
  /** Hops from this core's tile to tile `t`. */
  hops(t: number): number {
    return this.hopsTo[t]!;
  }

  /**
   * Sets the caching regime (and, for homed pages, the home tile) of the 64 KB pages covering
   * [addr, addr + bytes) in this core's page table. Cores that share the data map it alike
   * (as every process mapping the same region would). Lines already cached stay cached.
   */
  mapRegion(addr: number, bytes: number, regime: RegimeName, homeTile = this.tile): void {
    const r = REGIME_NAMES.indexOf(regime);
    if (r < 0) throw new SimulationError(`core ${this.id}: unknown caching regime "${regime}" (known: ${REGIME_NAMES.join(', ')})`);
    if (!Number.isInteger(homeTile) || homeTile < 0 || homeTile >= this.chip.topo.tiles)
      throw new SimulationError(`core ${this.id}: home tile ${homeTile} does not exist (0..${this.chip.topo.tiles - 1})`);
    const user = r === REGIME_USER_MANAGED;
    let changed: Set<number> | null = null; // physical pages entering or leaving user-managed
    for (let p = addr >>> PAGE_SHIFT_64K; p <= (addr + bytes - 1) >>> PAGE_SHIFT_64K; p++) {
      const e = this.pt[p]!;
      if (!pteValid(e)) throw new SimulationError(`core ${this.id}: page 0x${(p << PAGE_SHIFT_64K).toString(16)} is not mapped`);
      if ((pteRegime(e) === REGIME_USER_MANAGED) !== user) (changed ??= new Set()).add(ptePhys(e));
      this.pt[p] = pte(r, homeTile, ptePhys(e));
    }
    if (user && this.l2Data.length === 0) {
      this.l1Data = new Uint8Array(this.l1.slots << this.l1Shift);
      this.l2Data = new Uint8Array(this.l2.slots << this.l2Shift);
      this.l2Dirty = new Uint8Array(this.l2.slots << this.l2Shift);
      this.l1Data32 = new Uint32Array(this.l1Data.buffer);
      this.l2Data32 = new Uint32Array(this.l2Data.buffer);
    }
    if (changed) this.regimeChanged(changed, user);
  }

  /**
   * The cached lines of physical pages `pages`, which just entered (or left) the user-managed
   * regime: entering, their bytes are loaded as memory holds them for this core (the hardware
   * kept them coherent until now); leaving, dirty bytes are written back and the bytes dropped.
   * Untimed (model: the OS's work when it changes a page's caching attributes). Off the hot path.
   */
  private regimeChanged(pages: Set<number>, entering: boolean): void {
    for (const [cache, shift, data] of [
      [this.l2, this.l2Shift, this.l2Data],
      [this.l1, this.l1Shift, this.l1Data],
    ] as const) {
      for (let s = 0; s < cache.slots; s++) {
        const key = cache.tags[s]!;
        if (key === -1 || !pages.has(Math.floor((key * (1 << shift)) / 65536))) continue;
        if (entering) {
          this.fillData(data, s, shift, key * (1 << shift));
          cache.flags[s]! |= FLAG_DATA;
        } else {
          if (cache === this.l2 && cache.flags[s]! & FLAG_DATA) this.writeBackData(s, key * (1 << shift), this.now);
          cache.flags[s]! &= ~FLAG_DATA;
        }
      }
    }
  }

  /** Regime and home tile of the page holding addr, as this core maps it. */
  pageInfo(addr: number): { regime: RegimeName; home: number } {
    this.translate(addr);
    return { regime: REGIME_NAMES[this.tRegime]!, home: this.tHome };
  }

  /**
   * NOT FOR SIMULATED CODE (CoreBase.peek32): the word at `addr` as this core's next load32
   * would return it, untimed and without side effects: the page table read directly (no TLB
   * lookup or refill, no decoded-entry change); on a user-managed page the bytes of this tile's
   * own copy when its L1 holds the line, else when its L2 does (probed, LRU untouched: the copy
   * a load would return, stale or dirty as it is); otherwise (homed and read-only pages, or a
   * user-managed line not cached here) memory as this core sees it: committed memory plus its
   * own uncommitted writes. An unmapped or unaligned address is a SimulationError.
   */
  override peek32(addr: number): number {
    this.checkPeek(addr);
    const e = this.pt[addr >>> PAGE_SHIFT_64K]!;
    if (!pteValid(e)) throw new SimulationError(`core ${this.id}: peek32 at 0x${(addr >>> 0).toString(16)}: the address is not mapped`);
    const paddr = ptePhys(e) * 65536 + (addr & 0xffff);
    if (pteRegime(e) === REGIME_USER_MANAGED) {
      const s1 = this.l1.probe(paddr >>> this.l1Shift);
      if (s1 >= 0) return valueAt(this.l1Data, (s1 << this.l1Shift) + (paddr & ((1 << this.l1Shift) - 1)), 4);
      const s2 = this.l2.probe(paddr >>> this.l2Shift);
      if (s2 >= 0) return valueAt(this.l2Data, (s2 << this.l2Shift) + (paddr & ((1 << this.l2Shift) - 1)), 4);
    }
    return this.peekMemWord(this.lineIdOf(paddr), paddr & (LINE_BYTES - 1));
  }

  /**
   * TLB, then page table, into tRegime / tHome / tPaddr (and tLineBase). Called on every
   * access: an entry equal to the last one decoded is not decoded again (a valid entry; the
   * entry is read from the page table every time, so mapRegion needs no invalidation).
   */
  private translate(addr: number): void {
    if (!this.tlb.lookup(addr)) this.compute(this.chip.config.tlb.missCycles);
    const page = addr >>> PAGE_SHIFT_64K;
    const e = this.pt[page]!;
    if (e !== this.tEntry) {
      if (!pteValid(e)) throw new SimulationError(`core ${this.id}: address 0x${(addr >>> 0).toString(16)} is not mapped`);
      this.tEntry = e;
      this.tRegime = pteRegime(e);
      this.tHome = pteHome(e);
      // the line id base is a function of the entry's physical page: kept per entry in a small
      // direct-mapped table (accesses alternate between a few pages: stack, method, cache)
      const i = page & (DECODED - 1);
      if (this.decEntry[i] === e) this.tLineBase = this.decLine[i]!;
      else {
        // lineIdOf(tPhysBase) in integer arithmetic: controller phys mod n, 2048 lines per page there
        const phys = ptePhys(e);
        const n = this.chip.controllers;
        const ctrl = phys % n;
        this.tLineBase = dramLineId(ctrl, ((phys - ctrl) / n) * 65536) | 0;
        this.decEntry[i] = e;
        this.decLine[i] = this.tLineBase;
      }
      this.tPhysBase = ptePhys(e) * 65536;
    }
    this.tPaddr = this.tPhysBase + (addr & 0xffff);
  }

  /** lineIdOf(tPaddr): the page's line id base and the line within the page (a page is 2048 lines of one controller). */
  private tLineId(): number {
    return (this.tLineBase | ((this.tPaddr & 0xffff) >>> 5)) >>> 0;
  }

  /** Controller and system line of a physical address. */
  private ctrlOf(paddr: number): number {
    return Math.floor(paddr / 65536) % this.chip.controllers;
  }
  /** The line id of the start of paddr's L2 line (a DRAM transaction's line: its bank and row). */
  private dramLineOf(paddr: number): number {
    const size = 1 << this.l2Shift;
    return this.lineIdOf(paddr - (paddr % size));
  }
  private lineIdOf(paddr: number): number {
    const page = Math.floor(paddr / 65536);
    const n = this.chip.controllers;
    return dramLineId(page % n, Math.floor(page / n) * 65536 + (paddr & 0xffff));
  }

  /** DRAM latency from tile `tile` to the controller of paddr, ps (zero load). */
  private dramPs(tile: number, paddr: number): number {
    const ctrl = this.ctrlOf(paddr);
    const hops = tileHops(this.chip.topo, tile, this.chip.controllerTile[ctrl]!);
    return (this.chip.dramAccessCycles + this.chip.dramPerHopCycles * hops) * this.period;
  }

  // ---------------------------------------------------------------- the hierarchy

  private dramRead(paddr: number, cause: number): number {
    const ctrl = this.ctrlOf(paddr);
    const lat = this.dramPs(this.tile, paddr);
    const done = this.issue(lat, cause);
    const oneWay = tileHops(this.chip.topo, this.tile, this.chip.controllerTile[ctrl]!) * this.chip.hopPs;
    this.txnRecord(ctrl, done - lat + oneWay, false, 1 << this.l2Shift, cause, this.dramLineOf(paddr));
    this.c[this.cb + C.dramReads] += 1;
    return done;
  }

  /** A line write-back to paddr's controller; returns the time it reaches memory. */
  private dramWriteBack(paddr: number): number {
    const ctrl = this.ctrlOf(paddr);
    const lat = this.dramPs(this.tile, paddr);
    const done = this.issue(lat, STALL_DRAM);
    this.txnRecord(ctrl, done - lat / 2, true, 1 << this.l2Shift, STALL_DRAM, this.dramLineOf(paddr));
    this.c[this.cb + C.dramWrites] += 1;
    return done - lat / 2;
  }

  /** Writes L2 slot s2 back if dirty (an eviction): timed; a user-managed line's stored bytes go to memory. */
  private evictL2(s2: number): void {
    const key = this.l2.tags[s2]!;
    if (key === -1 || (this.l2.flags[s2]! & FLAG_DIRTY) === 0) return;
    const base = key * (1 << this.l2Shift);
    const visible = this.dramWriteBack(base);
    if (this.l2.flags[s2]! & FLAG_DATA) this.writeBackData(s2, base, visible);
  }

  /**
   * Logs the bytes this core stored in user-managed L2 slot s2 (line at physical `base`), one
   * masked write per 32 B system line, visible at visiblePs; clears the dirty marks.
   */
  private writeBackData(s2: number, base: number, visiblePs: number): void {
    const size = 1 << this.l2Shift;
    const at = s2 << this.l2Shift;
    const n = size < 32 ? size : 32;
    const dirty = this.l2Dirty;
    for (let off = 0; off < size; off += 32) {
      const p = base + off;
      const from = p & 31;
      let mask = 0;
      for (let i = 0; i < n; i++)
        if (dirty[at + off + i] !== 0) {
          mask |= 1 << (from + i);
          this.wb[from + i] = this.l2Data[at + off + i]!;
          dirty[at + off + i] = 0;
        }
      if (mask !== 0) this.appendWrite(this.lineIdOf(p - from), mask, this.wb, this.wb32, 0, visiblePs);
    }
  }

  /** Loads the line at physical `base` (1 << shift bytes) into slot `slot` of `data`, as memory holds it for this core. */
  private fillData(data: Uint8Array, slot: number, shift: number, base: number): void {
    const size = 1 << shift;
    const n = size < 32 ? size : 32;
    for (let off = 0; off < size; off += 32) {
      const p = base + off;
      const from = p & 31;
      this.readMemLine(this.lineIdOf(p - from), this.wb32, 0);
      for (let i = 0; i < n; i++) data[(slot << shift) + off + i] = this.wb[from + i]!;
    }
  }

  /** Copies the bytes of tPaddr's 32 B system line that slot `slot` of data32 holds into line32 (a user-managed load). */
  private copyOut(data32: Uint32Array, slot: number, shift: number): void {
    const size = 1 << shift;
    const n = size < 32 ? size : 32;
    const src = ((slot << shift) + (this.tPaddr & (size - 1) & -n)) >>> 2;
    const dst = (this.tPaddr & 31 & -n) >>> 2;
    for (let i = 0; i < n >>> 2; i++) this.line32[dst + i] = data32[src + i]!;
  }

  /** Logs a home-L2 fill of paddr's line at tile `home` (applied at commit; seen at once by this core). */
  private homeFill(home: number, visiblePs: number): void {
    const key = this.tPaddr >>> this.l2Shift; // tPaddr < 2^32: Math.floor of the division
    if (this.recent.has(home, key)) return;
    this.recent.add(home, key);
    this.appendRequest(WLOG_UNIT, home, key, visiblePs);
  }

  /** Set by l2Reach: whether the line was filled from memory (a miss) rather than found. */
  private l2Filled = false;

  /**
   * The L2 part of a cached access (cachedAccess and userAccess): a hit charges the L2's hit
   * time, a miss reads the line from DRAM, waits for it, evicts a victim and fills the tag with
   * `flags`. Returns the slot; l2Filled says which happened. Called on every L1 miss.
   */
  private l2Reach(k2: number, flags: number): number {
    const c = this.c;
    const cb = this.cb;
    let s2 = this.l2.lookup(k2);
    if (s2 >= 0) {
      c[cb + C.l2Hits] += 1;
      const ps = this.l2HitCycles * this.period;
      this.now += ps;
      this.stall(STALL_L1_MISS, ps);
      this.l2Filled = false;
      return s2;
    }
    c[cb + C.l2Misses] += 1;
    this.dramRead(this.tPaddr, STALL_L2_MISS);
    this.fence(); // the word is used: an in-order core waits for it
    s2 = this.l2.victim(k2);
    this.evictL2(s2);
    this.l2.fillTag(s2, k2, flags);
    this.l2Filled = true;
    return s2;
  }

  /** A cached access (own tile's L1/L2) to tPaddr; returns nothing, charges time. */
  private cachedAccess(write: boolean): void {
    const c = this.c;
    const cb = this.cb;
    // tPaddr < 2^32 (a 16-bit physical page x 64 KB): >>> is Math.floor of the division
    const k1 = this.tPaddr >>> this.l1Shift;
    const s1 = this.l1.lookup(k1);
    if (s1 >= 0 && !write) {
      c[cb + C.l1Hits] += 1;
      this.busyCycles(this.l1HitCycles); // the load's own cycles (its instruction is counted by loadAt)
      return;
    }
    if (!write) c[cb + C.l1Misses] += 1;
    const k2 = this.tPaddr >>> this.l2Shift;
    const s2 = this.l2Reach(k2, 0);
    if (this.l2Filled && this.tRegime === REGIME_HOMED) this.homeFill(this.tile, this.now);
    if (write) this.l2.flags[s2]! |= FLAG_DIRTY;
    else this.l1.fillTag(this.l1.victim(k1), k1, 0);
  }

  /**
   * A user-managed access to tPaddr: cachedAccess's timing, with the bytes. A load leaves
   * tPaddr's 32 B line (the part the cache holds) in line32; a store leaves the slots in
   * uS1 / uS2 for storeAt to write. Called on every user-managed access: no allocation.
   */
  private userAccess(write: boolean): void {
    const c = this.c;
    const cb = this.cb;
    const k1 = this.tPaddr >>> this.l1Shift;
    const s1 = this.l1.lookup(k1);
    this.uS1 = s1;
    if (s1 >= 0 && !write) {
      c[cb + C.l1Hits] += 1;
      this.busyCycles(this.l1HitCycles);
      this.copyOut(this.l1Data32, s1, this.l1Shift);
      return;
    }
    if (!write) c[cb + C.l1Misses] += 1;
    const k2 = this.tPaddr >>> this.l2Shift;
    const s2 = this.l2Reach(k2, FLAG_DATA);
    if (this.l2Filled) this.fillData(this.l2Data, s2, this.l2Shift, k2 * (1 << this.l2Shift));
    this.uS2 = s2;
    if (write) {
      this.l2.flags[s2]! |= FLAG_DIRTY;
      return;
    }
    // the L1 copy comes from the L2 copy (an L1 line lies within one L2 line: schema.ts)
    const v1 = this.l1.victim(k1);
    this.l1.fillTag(v1, k1, FLAG_DATA);
    const from = ((s2 << this.l2Shift) + ((k1 << this.l1Shift) & ((1 << this.l2Shift) - 1))) >>> 2;
    const to = (v1 << this.l1Shift) >>> 2;
    const l1w = this.l1Data32;
    const l2w = this.l2Data32;
    for (let i = 0; i < 1 << (this.l1Shift - 2); i++) l1w[to + i] = l2w[from + i]!;
    this.copyOut(l2w, s2, this.l2Shift);
  }

  /** A word read or written at a non-home tile: served by the home tile's L2 (or memory through it). */
  private remoteAccess(write: boolean): number {
    const chip = this.chip;
    const home = this.tHome;
    const hops = this.hopsTo[home]!;
    let lat = (chip.remoteBaseCycles + chip.remotePerHopCycles * hops) * this.period;
    const key = this.tPaddr >>> this.l2Shift; // tPaddr < 2^32: Math.floor of the division
    const hit = present(this.v, chip, home, key) || this.recent.has(home, key);
    if (!hit) lat += this.dramPs(home, this.tPaddr);
    const done = this.issue(lat, write ? STALL_DRAM : STALL_L2_MISS);
    this.txnRecord(TXN_TARGET_MPB | home, done - (hops * chip.hopPs), write, 4, write ? STALL_DRAM : STALL_L2_MISS, 0);
    if (!hit) {
      const ctrl = this.ctrlOf(this.tPaddr);
      this.txnRecord(ctrl, done - lat / 2, false, 1 << this.l2Shift, STALL_L2_MISS, this.dramLineOf(this.tPaddr));
      this.c[this.cb + C.dramReads] += 1;
    }
    this.homeFill(home, done);
    if (write) this.remoteWrites++;
    else this.remoteReads++;
    return done;
  }

  /** Brings the value at addr in; returns its byte offset in `line`. Called on every load. */
  protected loadAt(addr: number, size: number): number {
    if (!this.loadAccess(addr, size)) this.readMemLine(this.tLineId(), this.line32, 0);
    return this.tPaddr & (LINE_BYTES - 1);
  }

  /**
   * A load's checks, counts and time (into tPaddr); true when the value is in line32 (a
   * user-managed load: the bytes come from the own caches), false when it is memory's as this
   * core sees it (homed and read-only pages). Called on every load.
   */
  private loadAccess(addr: number, size: number): boolean {
    this.checkAlign(addr, size);
    this.c[this.cb + C.loads] += 1;
    this.retire(1);
    this.translate(addr);
    if (this.tRegime === REGIME_USER_MANAGED) {
      this.userAccess(false);
      return true;
    }
    if (this.tRegime === REGIME_HOMED && this.tHome !== this.tile) {
      this.remoteAccess(false);
      this.fence(); // the word is used
    } else this.cachedAccess(false);
    return false;
  }

  // A scalar load of a homed or read-only word reads that word (memWord), not its whole line:
  // the same value, the same checks and time as WordCore's load through loadAt.
  // Addresses go in as int32 (addr | 0: the same 32 bits; translate and checkAlign use only
  // >>> and &), so an address at or above 2^31 (the shared window) is not boxed call by call.
  override load32(addr: number): number {
    if (!LITTLE_ENDIAN_HOST) return super.load32(addr);
    const user = this.loadAccess(addr | 0, 4);
    const off = this.tPaddr & (LINE_BYTES - 1);
    return user ? this.line32[off >>> 2]! : this.memWord(this.tLineId(), off) >>> 0;
  }
  override load8(addr: number): number {
    const user = this.loadAccess(addr | 0, 1);
    const off = this.tPaddr & (LINE_BYTES - 1);
    return user ? this.line[off]! : this.memByte(this.tLineId(), off);
  }
  // A scalar word store to a homed or read-only page logs just its word (appendWord), not a
  // line image: the same log entry as far as the committer reads it, the same overlay, checks
  // and time as storeAt's.
  override store32(addr: number, value: number): void {
    if (LITTLE_ENDIAN_HOST) this.val32[0] = value;
    else {
      this.valDv.setUint32(0, value >>> 0, true);
      this.storeAt(addr | 0, 4);
      return;
    }
    if (this.storeAccess(addr | 0, 4)) this.appendWord(this.tLineId(), this.tPaddr & (LINE_BYTES - 1), this.val32[0]!, this.sVisible);
  }
  override store8(addr: number, value: number): void {
    this.val[0] = value;
    this.storeAt(addr | 0, 1);
  }

  protected storeAt(addr: number, size: number): void {
    if (!this.storeAccess(addr, size)) return; // a user-managed store: in the own copies
    const visible = this.sVisible;
    const off = this.tPaddr & (LINE_BYTES - 1);
    const l32 = this.line32;
    l32[0] = l32[1] = l32[2] = l32[3] = l32[4] = l32[5] = l32[6] = l32[7] = 0;
    if (size === 4) l32[off >>> 2] = this.val32[0]!; // aligned (checkAlign): the same 4 bytes
    else for (let i = 0; i < size; i++) this.line[off + i] = this.val[i]!;
    this.appendWrite(this.tLineId(), (size === 8 ? 0xff : (1 << size) - 1) << off, this.line, l32, 0, visible);
  }

  /** The time the last store storeAccess passed on becomes visible (a field: a double returned would be boxed). */
  private sVisible = -0; // -0: a double field from the start

  /**
   * A store's checks, counts and time (into tPaddr): a user-managed store writes the first
   * `size` bytes of val into the own copies and answers false; any other answers true and
   * leaves the time the store becomes visible in sVisible, for the caller to log it. Called on
   * every store.
   */
  private storeAccess(addr: number, size: number): boolean {
    this.checkAlign(addr, size);
    this.c[this.cb + C.stores] += 1;
    this.retire(1);
    this.translate(addr);
    if (this.tRegime === REGIME_READ_ONLY) throw new SimulationError(`core ${this.id}: store to read-only page at 0x${(addr >>> 0).toString(16)}`);
    if (this.tRegime === REGIME_USER_MANAGED) {
      // into the own copies only: memory sees it when the L2 line is written back
      this.userAccess(true);
      const o2 = (this.uS2 << this.l2Shift) + (this.tPaddr & ((1 << this.l2Shift) - 1));
      const o1 = this.uS1 < 0 ? -1 : (this.uS1 << this.l1Shift) + (this.tPaddr & ((1 << this.l1Shift) - 1));
      for (let i = 0; i < size; i++) {
        this.l2Data[o2 + i] = this.val[i]!;
        this.l2Dirty[o2 + i] = 1;
        if (o1 >= 0) this.l1Data[o1 + i] = this.val[i]!; // L1 write-through: its copy too
      }
      return false;
    }
    if (this.tRegime === REGIME_HOMED && this.tHome !== this.tile) this.sVisible = this.remoteAccess(true);
    else {
      this.cachedAccess(true);
      this.sVisible = this.now;
    }
    return true;
  }

  // ---------------------------------------------------------------- user-managed cache control

  /**
   * finv: drops the L1 line holding addr and its L2 line from this core's caches, writing a
   * dirty L2 line back first (TILE64 has no discarding inv). The next load of it reads memory.
   */
  invalidateLine(addr: number): void {
    this.flushLine(addr);
    const k1 = Math.floor(this.tPaddr / (1 << this.l1Shift));
    const s1 = this.l1.probe(k1);
    if (s1 >= 0) this.l1.invalidate(s1);
    const s2 = this.l2.probe(Math.floor(this.tPaddr / (1 << this.l2Shift)));
    if (s2 >= 0) this.l2.invalidate(s2);
  }

  /**
   * flush: writes the L2 line holding addr back to memory if it is dirty in this core's L2 (a
   * user-managed line: the bytes this core stored, visible when the write-back reaches memory);
   * the line stays cached, clean. A fence after it waits for the write-back.
   */
  flushLine(addr: number): void {
    this.translate(addr);
    this.compute(1);
    const k2 = Math.floor(this.tPaddr / (1 << this.l2Shift));
    const s2 = this.l2.probe(k2);
    if (s2 >= 0 && this.l2.flags[s2]! & FLAG_DIRTY) {
      const visible = this.dramWriteBack(this.tPaddr);
      if (this.l2.flags[s2]! & FLAG_DATA) this.writeBackData(s2, k2 * (1 << this.l2Shift), visible);
      this.l2.flags[s2]! &= ~FLAG_DIRTY;
    }
  }

  // ---------------------------------------------------------------- raw network messages

  /**
   * Sends `words` (at most network.maxWords 32-bit words) to core `dst` on the raw network:
   * sendBase + words cycles on this core, then hops x hopCycles in flight. One message per
   * sender may wait in a receiver's slot: protocols acknowledge before sending again.
   */
  udnSend(dst: number, words: ArrayLike<number>): void {
    this.checkMessage(dst, words.length);
    this.post(dst, this.id * this.chip.udnSlotBytes, ++this.sendSeq[dst]!, words);
  }

  /**
   * The doorbell (model): one more receive slot per tile that any core may post to, for
   * protocols with a single token in flight (a baton passed from core to core: paper 000's
   * interpreter thread). The message carries `stamp`, which the protocol makes increase
   * (stamp >= 1); udnAwait(after) takes the first message stamped above `after`. Costs and
   * flight time as udnSend. Two posts to one tile that land in one epoch leave the later one
   * in commit order: a protocol with one token never does that; this one is not a queue.
   */
  udnPost(dst: number, stamp: number, words: ArrayLike<number>): void {
    this.checkMessage(dst, words.length);
    if (!Number.isInteger(stamp) || stamp < 1 || stamp > 0x7fffffff) throw new SimulationError(`core ${this.id}: a doorbell stamp is 1..2^31-1, got ${stamp}`);
    this.post(dst, this.chip.topo.tiles * this.chip.udnSlotBytes, stamp, words);
  }

  /** Waits for a doorbell message stamped above `after`, copies it into `out`; returns its stamp. */
  *udnAwait(after: number, out: Uint32Array): Sim<number> {
    const chip = this.chip;
    const line0 = mpbLineId(this.tile, chip.topo.tiles * chip.udnSlotBytes);
    this.prepareBlock();
    yield* this.waitLine(line0, 0, 4, '>=', after + 1, chip.config.network.receiveBaseCycles * this.period, STALL_NETWORK, 0);
    this.takeMessage(line0, chip.topo.tiles * chip.udnSlotBytes, out);
    return this.takenSeq;
  }

  private checkMessage(dst: number, n: number): void {
    const chip = this.chip;
    if (n < 1 || n > chip.config.network.maxWords)
      throw new SimulationError(`core ${this.id}: a raw message carries 1..${chip.config.network.maxWords} words, got ${n}`);
    if (!Number.isInteger(dst) || dst < 0 || dst >= chip.topo.cores) throw new SimulationError(`core ${this.id}: core ${dst} does not exist`);
  }

  /** Writes one message into receive slot `slot` of core dst's tile (sequence word `seq`). */
  private post(dst: number, slot: number, seq: number, words: ArrayLike<number>): void {
    const chip = this.chip;
    const n = words.length;
    this.compute(chip.config.network.sendBaseCycles + chip.config.network.sendPerWordCycles * n);
    const arrival = this.now + this.hopsTo[dst]! * chip.hopPs;
    const l32 = this.line32;
    for (let half = 0; half < 2; half++) {
      l32.fill(0);
      if (half === 0) {
        l32[0] = seq;
        l32[1] = n;
        for (let i = 0; i < Math.min(n, 6); i++) l32[2 + i] = words[i]! >>> 0;
      } else {
        if (n <= 6) break;
        for (let i = 6; i < n; i++) l32[i - 6] = words[i]! >>> 0;
      }
      this.appendWrite(mpbLineId(dst, slot + half * 32), FULL_MASK, this.line, l32, 0, arrival);
    }
    this.txnRecord(TXN_TARGET_MPB | dst, arrival, true, 8 + 4 * n, STALL_NETWORK, 0);
    this.countMessage(dst);
    this.c[this.cb + C.bytesSent] += 4 * n;
  }

  /** Receives the next raw message from core `src` into `out` (if given); returns its word count. */
  *udnReceive(src: number, out?: Uint32Array): Sim<number> {
    const chip = this.chip;
    if (!Number.isInteger(src) || src < 0 || src >= chip.topo.cores) throw new SimulationError(`core ${this.id}: core ${src} does not exist`);
    const expect = this.recvSeq[src]! + 1;
    const line0 = mpbLineId(this.tile, src * chip.udnSlotBytes);
    this.prepareBlock();
    // a receive stalls on the network register: no instructions while it waits
    yield* this.waitLine(line0, 0, 4, '>=', expect, chip.config.network.receiveBaseCycles * this.period, STALL_NETWORK, 0);
    this.recvSeq[src] = expect;
    return this.takeMessage(line0, src * chip.udnSlotBytes, out);
  }

  /** Copies the message in the slot at `slot` (first line line0) into out; returns its word count (its sequence word in takenSeq). */
  private takeMessage(line0: number, slot: number, out?: Uint32Array): number {
    this.readMemLine(line0, this.line32, 0);
    this.takenSeq = this.line32[0]!;
    const n = this.line32[1]!;
    if (out) for (let i = 0; i < Math.min(n, 6); i++) out[i] = this.line32[2 + i]!;
    if (out && n > 6) {
      this.readMemLine(mpbLineId(this.tile, slot + 32), this.line32, 0);
      for (let i = 6; i < n; i++) out[i] = this.line32[i - 6]!;
    }
    this.compute(this.chip.config.network.receivePerWordCycles * n);
    return n;
  }

  // ---------------------------------------------------------------- DMA

  /**
   * Copies `bytes` from srcAddr to dstAddr with the tile's DMA engine and waits for it:
   * setupCycles, then each 64 B line read from where it lives (home L2, own L2 or memory) and
   * written to the destination, the engine moving one line per lineCycles.
   */
  *dma(dstAddr: number, srcAddr: number, bytes: number): Sim<void> {
    const chip = this.chip;
    this.prepareBlock();
    this.compute(chip.config.dma.setupCycles);
    const lineBytes = 1 << this.l2Shift;
    const start = this.now;
    let done = start;
    let k = 0;
    for (let off = 0; off < bytes; off += lineBytes, k++) {
      this.translate(srcAddr + off);
      const home = this.tHome;
      const key = Math.floor(this.tPaddr / lineBytes);
      let srcPs: number;
      if (this.tRegime === REGIME_HOMED && (present(this.v, chip, home, key) || this.recent.has(home, key)))
        srcPs = (chip.remoteBaseCycles + chip.remotePerHopCycles * this.hopsTo[home]!) * this.period;
      else {
        srcPs = this.dramPs(this.tile, this.tPaddr);
        this.txnRecord(this.ctrlOf(this.tPaddr), start + srcPs / 2, false, lineBytes, STALL_DRAM, this.dramLineOf(this.tPaddr));
        this.c[this.cb + C.dramReads] += 1;
      }
      done = Math.max(done, start + k * chip.config.dma.lineCycles * this.period + srcPs);
    }
    // the data: as this core sees it now, written at completion
    for (let off = 0; off < bytes; off += 4) {
      this.translate(srcAddr + off);
      this.readMemLine(this.lineIdOf(this.tPaddr), this.line32, 0);
      const v = this.line32[(this.tPaddr & 31) >>> 2]!;
      this.translate(dstAddr + off);
      if (this.tRegime === REGIME_READ_ONLY) throw new SimulationError(`core ${this.id}: DMA into a read-only page`);
      const o = this.tPaddr & 31;
      this.line.fill(0);
      this.line32[o >>> 2] = v;
      this.appendWrite(this.lineIdOf(this.tPaddr), 0xf << o, this.line, this.line32, 0, done);
      if (this.due()) yield 0;
    }
    if (done > this.now) {
      this.stall(STALL_DRAM, done - this.now);
      this.now = done;
    }
  }

  protected cacheLines(level: 1 | 2): number {
    return level === 1 ? this.l1.valid : this.l2.valid;
  }

  override beginRun(epochEndPs: number): void {
    super.beginRun(epochEndPs);
    if (this.logCount === 0) this.recent.clear();
  }
}
