/**
 * The core API: what a workload's per-core program calls.
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
 *   memory cycles (scc.md: 40 + 4 x n x 2 + 46).
 * - MPB: local tile mpb.localAccessCycles; remote mpb.remoteAccessCycles + 2 x hops x hop.
 * - Memory transactions occupy one of `missesInFlight` slots; the core keeps executing and
 *   stalls only when it needs a slot and none is free, or at a fence (compute/memory overlap).
 * Units: time in ps, sizes in bytes. Functional caches are non-coherent, as on the SCC.
 * Hot paths (load*, store*, the line helpers) are called on every access: no allocation.
 */
import { Cache, FLAG_DIRTY, FLAG_MPBT } from './cache';
import { MPB_STRIDE, type ResolvedChip } from './chip';
import { CORE_SLOTS, S, TXN_BYTES, TXN_TARGET_MPB, WLOG_BYTES, WLOG_TAS, WLOG_WRITE, type Views } from './layout';
import { copyBytes, copyLine } from './line-copy';
import { readCommittedLine, valueAt } from './memory';
import { Overlay } from './overlay';
import { makeRng, type Rng } from './rng';
import { coreTile, tileHops, tileX, tileY } from './topology';
import {
  ATTR_MPBT,
  ATTR_UNCACHED,
  BlockReason,
  C,
  CoreState,
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
  SPACE_MPB,
  SPACE_SHIFT,
  TARGET_DRAM,
  TARGET_MPB,
  WAIT_OPS,
  YIELD_BLOCKED,
  YIELD_DUE,
  compare,
  mpbLineId,
  tasLineId,
  type Sim,
  type WaitOpName,
} from './vocabulary';

export const DUE = YIELD_DUE;

export class SimulationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationError';
  }
}

/** A row a workload reports; flat records charted and exported as CSV. */
export type Row = Record<string, number | string | boolean>;

const FULL_MASK = 0xffffffff;
/**
 * Zero stored as a double. V8 keeps a field's representation from its first store: fields that
 * will hold non-Smi numbers (picosecond times, counts read from Float64Arrays, 32-bit line ids
 * and masks) start as doubles, so the first large value does not change Core's hidden class
 * and deoptimise every hot path that inlined it (once per isolate: 48 times with a worker per
 * core). -0 behaves as 0 in every use here; each field is overwritten before it is reported.
 */
const F64_ZERO = -0;

function popcount(m: number): number {
  m = m - ((m >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (Math.imul((m + (m >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export class Core {
  readonly id: number;
  readonly tile: number;
  readonly x: number;
  readonly y: number;
  readonly rng: Rng;
  readonly chip: ResolvedChip;
  /** Reported rows, in order. */
  readonly rows: Row[] = [];

  /** This core's clock, ps. */
  now = F64_ZERO;
  epochEnd = F64_ZERO;
  period = F64_ZERO;

  private readonly v: Views;
  private readonly c: Float64Array;
  private readonly cb: number;
  private readonly lut: Uint32Array;
  readonly l1: Cache;
  readonly l2: Cache | null;
  private readonly l1Write: boolean; // L1 write-back
  private readonly l2WriteBack: boolean;
  private readonly l1Alloc: boolean;
  private readonly l2Alloc: boolean;
  private readonly l1HitCycles: number;
  private readonly l2HitCycles: number;
  private readonly ovl: Overlay;
  /** L1 slots filled with MPBT lines since the last CL1INVMB (may repeat; checked on use). */
  private readonly mpbtSlots: Int32Array;
  private mpbtCount = 0;
  private mpbtOverflow = false;
  private readonly mshr: Float64Array;
  private readonly mshrCause: Int32Array;
  // line buffers, each with a word view for copyLine
  private readonly scratch32 = new Uint32Array(LINE_WORDS);
  private readonly scratch = new Uint8Array(this.scratch32.buffer);
  private readonly bulk32 = new Uint32Array(LINE_WORDS);
  private readonly bulk = new Uint8Array(this.bulk32.buffer);
  private readonly fillBuf = new Uint8Array(LINE_BYTES);
  // write-combine buffer (one line)
  private readonly wcbEnabled: boolean;
  private wcbKey = -1;
  private wcbMask = F64_ZERO;
  private readonly wcb32 = new Uint32Array(LINE_WORDS);
  private readonly wcbData = new Uint8Array(this.wcb32.buffer);
  // logs
  private readonly logBase: number;
  private readonly logCap: number;
  private readonly logSoft: number;
  logCount = F64_ZERO;
  private readonly txnBase: number;
  private readonly txnCap: number;
  private readonly txnSoft: number;
  txnCount = F64_ZERO;
  private seq = 0;
  // translation result of the last translate()
  private tKind = 0;
  private tAttrs = 0;
  private tUnit = 0;
  private tLine = F64_ZERO;
  // latency tables (mesh + memory parts in ps, core parts in cycles)
  private readonly dramMeshPs: Float64Array; // per controller: 2 x hops x hop + memory access
  private readonly dramOneWayPs: Float64Array;
  private readonly tileMeshPs: Float64Array; // per tile: 2 x hops x hop
  private readonly mpbRegion: number;
  private readonly cpt: number;
  private readonly matrixRow: number;
  private cyclesClock = F64_ZERO;

  constructor(id: number, chip: ResolvedChip, views: Views, seed: number) {
    this.id = id;
    this.chip = chip;
    this.v = views;
    const topo = chip.topo;
    this.tile = coreTile(topo, id);
    this.x = tileX(topo, this.tile);
    this.y = tileY(topo, this.tile);
    this.rng = makeRng(seed, id);
    this.c = views.core;
    this.cb = id * CORE_SLOTS;
    // a private copy: mapPage changes this core's memory types only
    this.lut = chip.luts.slice(id * LUT_ENTRIES, (id + 1) * LUT_ENTRIES);
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
    this.ovl = new Overlay(L.wlogCap);
    this.mpbtSlots = new Int32Array(this.l1.slots);
    // MPBT lines already in L1 (state in the shared buffer): the next CL1INVMB scans every slot
    for (let s = 0; s < this.l1.slots; s++) if (this.l1.flags[s]! & FLAG_MPBT) this.mpbtOverflow = true;
    this.mshr = new Float64Array(chip.missesInFlight);
    this.mshrCause = new Int32Array(chip.missesInFlight);
    this.wcbEnabled = chip.wcbBytes > 0;
    this.logBase = id * L.wlogCap * WLOG_BYTES;
    this.logCap = L.wlogCap;
    this.logSoft = L.wlogCap >>> 1;
    this.txnBase = id * L.txnCap * TXN_BYTES;
    this.txnCap = L.txnCap;
    this.txnSoft = L.txnCap >>> 1;
    this.dramMeshPs = new Float64Array(chip.controllers);
    this.dramOneWayPs = new Float64Array(chip.controllers);
    for (let m = 0; m < chip.controllers; m++) {
      const hops = tileHops(topo, this.tile, chip.controllerTile[m]!);
      this.dramMeshPs[m] = 2 * hops * chip.hopPs + chip.dramAccessPs;
      this.dramOneWayPs[m] = hops * chip.hopPs;
    }
    this.tileMeshPs = new Float64Array(topo.tiles);
    for (let t = 0; t < topo.tiles; t++) this.tileMeshPs[t] = 2 * tileHops(topo, this.tile, t) * chip.hopPs;
    this.cpt = topo.coresPerTile;
    this.mpbRegion = chip.mpbBytes / topo.coresPerTile;
    this.matrixRow = id * topo.cores * 2;
  }

  // ---------------------------------------------------------------- addresses

  get cores(): number {
    return this.chip.topo.cores;
  }
  get nowNs(): number {
    return this.now / 1000;
  }
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
   * already cached stay cached: flush first when changing a page that was in use.
   */
  mapPage(addr: number, type: 'cached' | 'mpbt' | 'uncached'): void {
    const page = addr >>> 24;
    const e = this.lut[page]!;
    if (e >>> 29 === 0) throw new SimulationError(`core ${this.id}: page ${page} is not mapped`);
    const attrs = type === 'uncached' ? ATTR_UNCACHED : type === 'mpbt' ? ATTR_MPBT : 0;
    this.lut[page] = ((e & ~(3 << 27)) | (attrs << 27)) >>> 0;
  }

  /** Resolves addr through the LUT into tKind/tAttrs/tUnit/tLine. Called on every memory-side access. */
  private translate(addr: number): void {
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

  /** True when the workload should `yield DUE` (epoch end passed, or logs half full). */
  due(): boolean {
    return this.now >= this.epochEnd || this.logCount >= this.logSoft || this.txnCount >= this.txnSoft;
  }

  /** Executes `cycles` cycles of work. */
  compute(cycles: number): void {
    const ps = cycles * this.period;
    this.now += ps;
    this.c[this.cb + C.busyPs] += ps;
  }

  private stall(cause: number, ps: number): void {
    this.c[this.cb + C.stallL1MissPs + cause] += ps;
  }

  /**
   * Takes a miss slot: waits (stalling) for the earliest free slot, then occupies it until
   * now + latency. Returns the completion time. Issue itself costs one cycle.
   */
  private issue(latencyPs: number, cause: number): number {
    const m = this.mshr;
    let k = 0;
    for (let i = 1; i < m.length; i++) if (m[i]! < m[k]!) k = i;
    const free = m[k]!;
    if (free > this.now) {
      this.stall(this.mshrCause[k]!, free - this.now);
      this.now = free;
    }
    const done = this.now + latencyPs;
    m[k] = done;
    this.mshrCause[k] = cause;
    this.now += this.period;
    this.c[this.cb + C.busyPs] += this.period;
    return done;
  }

  private busySlots(): number {
    let n = 0;
    for (let i = 0; i < this.mshr.length; i++) if (this.mshr[i]! > this.now) n++;
    return n;
  }

  /** Waits for every outstanding memory transaction. */
  fence(): void {
    const m = this.mshr;
    for (;;) {
      let k = -1;
      for (let i = 0; i < m.length; i++) if (m[i]! > this.now && (k < 0 || m[i]! < m[k]!)) k = i;
      if (k < 0) return;
      this.stall(this.mshrCause[k]!, m[k]! - this.now);
      this.now = m[k]!;
    }
  }

  /** Latency of one access to the current translation target, ps (zero load). */
  private targetLatency(): number {
    if (this.tKind === TARGET_DRAM) return this.chip.coreOverheadCycles * this.period + this.dramMeshPs[this.tUnit]!;
    if (this.tUnit === this.tile) return this.chip.mpbLocalCycles * this.period;
    return this.chip.mpbRemoteCycles * this.period + this.tileMeshPs[this.tUnit]!;
  }

  // ---------------------------------------------------------------- memory side

  /** Copies the line as this core sees it (committed + own writes) into dst at word dstWord. */
  private readMemLine(lineId: number, dst: Uint32Array, dstWord: number): void {
    const o = this.ovl.find(lineId);
    if (o >= 0) copyLine(dst, dstWord, this.ovl.data32, o >>> 2);
    else readCommittedLine(this.v, lineId, dst, dstWord);
  }

  /** Records a memory transaction for the weave phase; coalesces streams to one record. */
  private txn(arrivalPs: number, write: boolean, bytes: number, cause: number): void {
    const target = this.tKind === TARGET_DRAM ? this.tUnit : TXN_TARGET_MPB | this.tUnit;
    const data = 1 + Math.ceil(bytes / this.chip.flitBytes);
    const flits = write ? (data << 16) | 1 : (1 << 16) | data;
    const meta = this.tile | (cause << 20) | (Math.max(1, this.busySlots()) << 24);
    const u = this.v.txnU;
    const f = this.v.txnF;
    // coalesce with one of the last two records (streams, and flushes that interleave
    // write-backs with reads, stay one record each)
    for (let back = 1; back <= 2 && back <= this.txnCount; back++) {
      const p = (this.txnBase + (this.txnCount - back) * TXN_BYTES) >>> 2;
      if (u[p + 2] === target && u[p + 3] === meta && u[p + 4] === flits && arrivalPs >= f[(p >>> 1) + 3]!) {
        u[p + 5]! += 1;
        f[(p >>> 1) + 3] = arrivalPs;
        this.c[this.cb + C.flits] += (flits >>> 16) + (flits & 0xffff);
        return;
      }
    }
    if (this.txnCount >= this.txnCap)
      throw new SimulationError(`core ${this.id}: more than ${this.txnCap} memory transactions without yielding; yield DUE in long loops`);
    const p = (this.txnBase + this.txnCount * TXN_BYTES) >>> 2;
    f[p >>> 1] = arrivalPs;
    u[p + 2] = target;
    u[p + 3] = meta;
    u[p + 4] = flits;
    u[p + 5] = 1;
    f[(p >>> 1) + 3] = arrivalPs;
    this.txnCount++;
    this.c[this.cb + C.flits] += (flits >>> 16) + (flits & 0xffff);
  }

  /**
   * Appends a buffered write (visible at visiblePs) and updates the overlay. src holds the
   * line image at srcOff (a multiple of 32; src32 is its word view).
   */
  private logWrite(lineId: number, mask: number, src: Uint8Array, src32: Uint32Array, srcOff: number, visiblePs: number): void {
    if (this.logCount >= this.logCap)
      throw new SimulationError(`core ${this.id}: more than ${this.logCap} line writes without yielding; yield DUE in long loops`);
    const at = this.logBase + this.logCount * WLOG_BYTES;
    const f = this.v.wlogF;
    const u = this.v.wlogU;
    f[at >>> 3] = visiblePs;
    u[(at >>> 2) + 2] = lineId;
    u[(at >>> 2) + 3] = mask >>> 0;
    u[(at >>> 2) + 4] = WLOG_WRITE;
    u[(at >>> 2) + 5] = this.seq++;
    copyLine(this.v.wlogU, (at + 32) >>> 2, src32, srcOff >>> 2);
    this.logCount++;
    // own view
    let o = this.ovl.find(lineId);
    if (o < 0) {
      o = this.ovl.insert(lineId);
      readCommittedLine(this.v, lineId, this.ovl.data32, o >>> 2);
    }
    const od = this.ovl.data;
    if (mask === FULL_MASK || mask === -1) copyLine(this.ovl.data32, o >>> 2, src32, srcOff >>> 2);
    else for (let i = 0; i < LINE_BYTES; i++) if ((mask >>> i) & 1) od[o + i] = src[srcOff + i]!;
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
    this.txn(done - (mpb ? this.tileMeshPs[this.tUnit]! / 2 : this.dramOneWayPs[this.tUnit]!), true, bytes, cause);
    this.c[this.cb + (mpb ? C.mpbWrites : C.dramWrites)] += 1;
  }

  /** A read of a line from the current translation target into `bulk`; returns completion time. */
  private memRead(bytes: number, cause: number): number {
    const mpb = this.tKind === TARGET_MPB;
    const done = this.issue(this.targetLatency(), mpb ? STALL_MPB : cause);
    this.readMemLine(this.tLine, this.bulk32, 0);
    this.txn(done - (mpb ? this.tileMeshPs[this.tUnit]! / 2 : this.dramOneWayPs[this.tUnit]!), false, bytes, cause);
    this.c[this.cb + (mpb ? C.mpbReads : C.dramReads)] += 1;
    return done;
  }

  // ---------------------------------------------------------------- write-combine buffer

  /** Sends the write-combine buffer's bytes to memory (if any). */
  drainWcb(): void {
    if (this.wcbKey < 0) return;
    const key = this.wcbKey;
    this.wcbKey = -1;
    const saved = this.saveTarget();
    this.translate((key << LINE_SHIFT) >>> 0);
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
    const addr = l2.addrOf(slot);
    const saved = this.saveTarget();
    this.translate(addr);
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
    this.translate((key << LINE_SHIFT) >>> 0);
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
    const key = addr >>> LINE_SHIFT;
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
      this.wcbPut(key, off, src, srcOff, size);
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

  private checkAlign(addr: number, size: number): void {
    if ((addr & (size - 1)) !== 0)
      throw new SimulationError(`core ${this.id}: unaligned ${size}-byte access at 0x${(addr >>> 0).toString(16)}`);
  }

  /** Byte offset in `bytes` of a value of `size` at addr, after bringing it in. Called on every load. */
  private loadAt(addr: number, size: number): Uint8Array {
    this.checkAlign(addr, size);
    this.c[this.cb + C.loads] += 1;
    const key = addr >>> LINE_SHIFT;
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

  private storeScalar(addr: number, size: number): void {
    this.checkAlign(addr, size);
    this.c[this.cb + C.stores] += 1;
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
   */
  readRange(addr: number, bytes: number, dst?: Uint8Array, dstOff = 0): void {
    let a = addr;
    let done = 0;
    while (done < bytes) {
      const off = a & 31;
      const n = Math.min(32 - off, bytes - done);
      this.translate(a);
      this.c[this.cb + C.loads] += Math.ceil(n / 4);
      if (this.tAttrs & ATTR_UNCACHED) {
        for (let k = 0; k < n; k += 8) this.memRead(Math.min(8, n - k), STALL_DRAM);
        if (dst) copyBytes(dst, dstOff + done, this.bulk, off, n);
      } else {
        const s = this.loadSlot(a >>> LINE_SHIFT);
        const extra = Math.ceil(n / 4) - 1;
        if (extra > 0) this.compute(extra * this.l1HitCycles);
        if (dst) copyBytes(dst, dstOff + done, this.l1.data, s * LINE_BYTES + off, n);
      }
      a += n;
      done += n;
    }
  }

  /** Writes `bytes` at addr from src (or a repeated fill byte), as 32-bit stores would. */
  writeRange(addr: number, bytes: number, src: Uint8Array | number, srcOff = 0): void {
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
      const from = fill ? this.fillBuf : (src as Uint8Array);
      const fo = fill ? 0 : srcOff + done;
      // uncached: 8 B bus transactions; cached: 32-bit stores (the first charged by the store)
      const uncached = (this.tAttrs & ATTR_UNCACHED) !== 0;
      this.storeBytes(a, from, fo, n, uncached ? 8 : 4);
      if (!uncached && words > 1) this.compute((words - 1) * this.l1HitCycles);
      a += n;
      done += n;
    }
  }

  /** memcpy: reads src range and writes it to dst range (both through the hierarchy). */
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
   * of L2 through the cache, which writes back every dirty line and evicts the rest; then L1
   * and L2 are invalid. Cost comes from the modelled reads and write-backs.
   */
  flush(): void {
    this.drainWcb();
    const l1 = this.l1;
    const l2 = this.l2;
    // write back dirty L1 lines first (write-back L1 only)
    for (let s = 0; s < l1.slots; s++) if (l1.tags[s] !== -1 && l1.flags[s]! & FLAG_DIRTY) this.evictDirtyL1(s);
    if (l2) {
      const ctrl = this.chip.nearestController[this.id]!;
      const lat = this.chip.coreOverheadCycles * this.period + this.dramMeshPs[ctrl]!;
      this.tKind = TARGET_DRAM;
      this.tUnit = ctrl;
      this.tLine = (ctrl << SPACE_SHIFT) >>> 0;
      for (let s = 0; s < l2.slots; s++) {
        if (l2.tags[s] !== -1 && l2.flags[s]! & FLAG_DIRTY) this.writeBackL2(s);
        // the flush routine's read of one line of its flush region
        this.tKind = TARGET_DRAM;
        this.tUnit = ctrl;
        const done = this.issue(lat, STALL_FLUSH);
        this.txn(done - this.dramOneWayPs[ctrl]!, false, LINE_BYTES, STALL_FLUSH);
        l2.invalidate(s);
        if ((s & 7) === 7) this.compute(1); // loop overhead of the flush routine
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

  /** Counts a protocol-level message from this core to `dst` (the message matrix). */
  countMessage(dst: number, _bytes = 0): void {
    this.v.matrix[this.matrixRow + dst * 2] += 1;
    this.c[this.cb + C.messagesSent] += 1;
  }

  /** This core's counter `name` (vocabulary C) as accumulated so far; times in ps. */
  counter(name: keyof typeof C): number {
    return this.c[this.cb + C[name]]!;
  }

  /** Reports a result row. */
  report(row: Row): void {
    this.rows.push(row);
  }

  // ---------------------------------------------------------------- blocking operations

  private prepareBlock(): void {
    this.fence();
    this.drainWcb();
    this.fence();
  }

  private *blockOn(reason: BlockReason): Sim<void> {
    const c = this.c;
    const cb = this.cb;
    c[cb + S.blockedAtPs] = this.now;
    c[cb + S.wakePs] = NaN;
    c[cb + C.state] = CoreState.Blocked;
    c[cb + C.blockedOn] = reason;
    yield YIELD_BLOCKED;
    // the committer released us: clock and wait accounting are already in the shared slot
    this.now = c[cb + C.clockPs]!;
    c[cb + C.blockedOn] = BlockReason.None;
  }

  /** Cost of one poll read of a line (the final, successful read of a wait). */
  private pollPs(): number {
    if ((this.tLine >>> SPACE_SHIFT) === 14) return this.chip.mpbLocalCycles * this.period; // TAS register
    return this.targetLatency();
  }

  /**
   * Blocks until the `size`-byte value at addr (1, 2, 4: unsigned; 8: float64) satisfies
   * `op value`. Polls memory, not the cache. Returns the value seen.
   */
  *waitUntil(addr: number, op: WaitOpName, value: number, size = 4): Sim<number> {
    this.checkAlign(addr, size);
    this.prepareBlock();
    this.translate(addr);
    return yield* this.waitLine(this.tLine, addr & 31, size, op, value, this.pollPs(), this.tKind === TARGET_MPB ? STALL_MPB : STALL_DRAM);
  }

  private *waitLine(lineId: number, off: number, size: number, op: WaitOpName, value: number, pollPs: number, cause: number): Sim<number> {
    const opCode = WAIT_OPS[op];
    if (opCode === undefined) throw new SimulationError(`core ${this.id}: unknown wait operator ${String(op)}`);
    this.readMemLine(lineId, this.bulk32, 0);
    const v0 = valueAt(this.bulk, off, size);
    this.now += pollPs;
    this.stall(cause, pollPs);
    if (compare(opCode, v0, value)) return v0;
    const c = this.c;
    const cb = this.cb;
    c[cb + S.waitLine] = lineId;
    c[cb + S.waitOffset] = off;
    c[cb + S.waitSize] = size;
    c[cb + S.waitOp] = opCode;
    c[cb + S.waitValue] = value;
    c[cb + S.waitReadPs] = pollPs;
    yield* this.blockOn(BlockReason.Flag);
    return c[cb + S.tasResult]!;
  }

  /** Ideal barrier over every core that runs the workload (harness synchronisation). */
  *barrier(): Sim<void> {
    this.prepareBlock();
    this.c[this.cb + S.barrierCount] += 1;
    yield* this.blockOn(BlockReason.Barrier);
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
    if (this.logCount >= this.logCap) throw new SimulationError(`core ${this.id}: write log full`);
    const at = this.logBase + this.logCount * WLOG_BYTES;
    this.v.wlogF[at >>> 3] = this.now + oneWay;
    this.v.wlogU[(at >>> 2) + 2] = tasLineId(reg);
    this.v.wlogU[(at >>> 2) + 3] = 1;
    this.v.wlogU[(at >>> 2) + 4] = WLOG_TAS;
    this.v.wlogU[(at >>> 2) + 5] = this.seq++;
    this.logCount++;
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
      yield* this.waitLine(tasLineId(reg), 0, 1, '==', 0, this.tasOneWayPs(reg) * 2, STALL_WAIT);
    }
  }

  /** Sleeps (halted, idle power) for `ns` simulated nanoseconds. */
  *sleep(ns: number): Sim<void> {
    this.prepareBlock();
    const ps = Math.round(ns * 1000);
    this.now += ps;
    this.c[this.cb + C.sleepPs] += ps;
    if (this.due()) yield YIELD_DUE;
  }

  // ---------------------------------------------------------------- scheduler hooks

  /** Loads scheduler-owned state before running in an epoch. */
  beginRun(epochEndPs: number): void {
    const c = this.c;
    const cb = this.cb;
    this.now = c[cb + C.clockPs]!;
    this.period = c[cb + S.periodPs]!;
    this.epochEnd = epochEndPs;
    this.logCount = c[cb + S.logCount]!;
    this.txnCount = c[cb + S.txnCount]!;
    if (this.logCount === 0) this.ovl.clear();
  }

  /** Publishes state after running in an epoch. */
  endRun(): void {
    const c = this.c;
    const cb = this.cb;
    c[cb + C.clockPs] = this.now;
    c[cb + C.cycles] += (this.now - this.cyclesClock) / this.period;
    this.cyclesClock = this.now;
    c[cb + S.logCount] = this.logCount;
    c[cb + S.txnCount] = this.txnCount;
    c[cb + C.l1Lines] = this.l1.valid;
    c[cb + C.l2Lines] = this.l2 ? this.l2.valid : 0;
  }

  /** Finishes the program: waits for outstanding work and drains buffers. */
  finish(): void {
    this.prepareBlock();
    this.c[this.cb + C.state] = CoreState.Finished;
  }
}
