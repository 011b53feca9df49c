/**
 * The generic part of a simulated core: what every chip family's core shares. A family's core
 * (chips/<family>/core.ts) extends CoreBase with its address map, cache hierarchy and its own
 * operations (the SCC: MPB, CL1INVMB, test-and-set; TILE64: caching regimes, raw network
 * messages, DMA). One family per run, so every call site sees one class: monomorphic.
 *
 * Contract
 * - Time: `now` is this core's clock in ps; `compute(cycles, instructions)` advances it; memory
 *   transactions occupy one of `missesInFlight` slots (`issue`), and the core stalls only when
 *   it needs a slot and none is free, or at a `fence`.
 * - Instructions (C.instructions): every operation declares what it executes (`compute`'s
 *   count, 1 per scalar load or store, the family's count for bulk ranges, `retire`); a core
 *   that spins on a flag (waitLine) executes its poll loop once per poll read while it waits.
 * - Memory side: a family reads a line as this core sees it (`readMemLine`: committed memory
 *   plus the core's own writes of this epoch, the overlay), appends buffered writes with their
 *   visible time (`appendWrite`), and records memory transactions for the weave (`txnRecord`,
 *   target = a controller index, or TXN_TARGET_MPB | tile for a tile's on-chip buffer; with
 *   the line id, which gives a DRAM transaction its bank and row).
 * - Blocking operations are generators used with `yield*`: waitLine (a family's waitUntil),
 *   barrier, sleep. Before blocking a core drains what it buffers (`drainWrites`, a family hook).
 * - Long loops call `if (core.due()) yield DUE;` so the scheduler can end the epoch.
 * Units: time in ps, sizes in bytes. Hot paths (issue, txnRecord, appendWrite, readMemLine) are
 * called on every memory-side access: no allocation.
 */
import type { ResolvedChip } from './chip';
import { CORE_SLOTS, PAGE_HDR_SLOTS, S, TXN_BYTES, WLOG_BYTES, WLOG_WRITE, type Views } from './layout';
import { copyLine, copyMasked } from './line-copy';
import { readCommittedLine, valueAt } from './memory';
import { Overlay } from './overlay';
import { PROT_NAMES, PageProtection, type ProtectionSpec } from './page-protection';
import { makeRng, type Rng } from './rng';
import { coreTile, tileX, tileY } from './topology';
import { BlockReason, C, CoreState, LINE_WORDS, WAIT_OPS, YIELD_BLOCKED, YIELD_DUE, compare, type Sim, type WaitOpName } from './vocabulary';
import { waitWhatCode, type WaitOn } from './wait-for';

export const DUE = YIELD_DUE;

export class SimulationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationError';
  }
}

/** A row a workload reports; flat records charted and exported as CSV. */
export type Row = Record<string, number | string | boolean>;

export const FULL_MASK = 0xffffffff;
/**
 * Zero stored as a double. V8 keeps a field's representation from its first store: fields that
 * will hold non-Smi numbers (picosecond times, counts read from Float64Arrays, 32-bit line ids
 * and masks) start as doubles, so the first large value does not change Core's hidden class
 * and deoptimise every hot path that inlined it (once per isolate: 48 times with a worker per
 * core). -0 behaves as 0 in every use here; each field is overwritten before it is reported.
 */
export const F64_ZERO = -0;

export function popcount(m: number): number {
  m = m - ((m >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (Math.imul((m + (m >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export abstract class CoreBase {
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

  protected readonly v: Views;
  protected readonly c: Float64Array;
  protected readonly cb: number;
  protected readonly ovl: Overlay;
  private readonly mshr: Float64Array;
  private readonly mshrCause: Int32Array;
  /** A line buffer (word view bulk32) that memory reads fill. */
  protected readonly bulk32 = new Uint32Array(LINE_WORDS);
  protected readonly bulk = new Uint8Array(this.bulk32.buffer);
  // logs
  private readonly logBase: number;
  private readonly logCap: number;
  private readonly logSoft: number;
  logCount = F64_ZERO;
  private readonly txnBase: number;
  private readonly txnCap: number;
  private readonly txnSoft: number;
  txnCount = F64_ZERO;
  protected seq = 0;
  protected readonly matrixRow: number;
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
    const L = views.layout;
    this.ovl = new Overlay(L.wlogCap);
    this.mshr = new Float64Array(chip.missesInFlight);
    this.mshrCause = new Int32Array(chip.missesInFlight);
    this.logBase = id * L.wlogCap * WLOG_BYTES;
    this.logCap = L.wlogCap;
    this.logSoft = L.wlogCap >>> 1;
    this.txnBase = id * L.txnCap * TXN_BYTES;
    this.txnCap = L.txnCap;
    this.txnSoft = L.txnCap >>> 1;
    this.matrixRow = id * topo.cores * 2;
  }

  get cores(): number {
    return this.chip.topo.cores;
  }
  get nowNs(): number {
    return this.now / 1000;
  }

  // ---------------------------------------------------------------- time

  /** True when the workload should `yield DUE` (epoch end passed, or logs half full). */
  due(): boolean {
    return this.now >= this.epochEnd || this.logCount >= this.logSoft || this.txnCount >= this.txnSoft;
  }

  /**
   * Executes `cycles` cycles of work that retire `instructions` instructions. The default, one
   * instruction per cycle, is a plain in-order core's: callers that know their loop's count pass
   * it (the P54C can pair two simple instructions in a cycle; an x87 multiply-add waits for its
   * latency). Counted in C.instructions.
   */
  compute(cycles: number, instructions: number = cycles): void {
    this.busyCycles(cycles);
    this.retire(instructions);
  }

  /** Busy cycles that retire no instruction of their own (the time of one already counted). */
  protected busyCycles(cycles: number): void {
    const ps = cycles * this.period;
    this.now += ps;
    this.c[this.cb + C.busyPs] += ps;
  }

  /** Counts `n` executed instructions whose time is charged elsewhere (a load, a store). */
  protected retire(n: number): void {
    this.c[this.cb + C.instructions] += n;
  }

  protected stall(cause: number, ps: number): void {
    this.c[this.cb + C.stallL1MissPs + cause] += ps;
  }

  /**
   * Takes a miss slot: waits (stalling) for the earliest free slot, then occupies it until
   * now + latency. Returns the completion time. Issue itself costs one cycle.
   */
  protected issue(latencyPs: number, cause: number): number {
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

  protected busySlots(): number {
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

  // ---------------------------------------------------------------- memory side

  /** Copies the line as this core sees it (committed + own writes) into dst at word dstWord. */
  protected readMemLine(lineId: number, dst: Uint32Array, dstWord: number): void {
    const o = this.ovl.find(lineId);
    if (o >= 0) copyLine(dst, dstWord, this.ovl.data32, o >>> 2);
    else readCommittedLine(this.v, lineId, dst, dstWord);
  }

  /**
   * Records a memory transaction for the weave phase; coalesces streams to one record.
   * target: a controller index, or TXN_TARGET_MPB | tile (a tile's on-chip buffer). line: the
   * system line id the transaction reads or writes (the DRAM bank and row follow from it; 0 for
   * an on-chip buffer). A transaction joins a record only when its line continues the record's
   * shape (layout.ts TXN_BYTES): the same line `repeat` times, then the next line `stride` on.
   */
  protected txnRecord(target: number, arrivalPs: number, write: boolean, bytes: number, cause: number, line: number): void {
    const data = 1 + Math.ceil(bytes / this.chip.flitBytes);
    const flits = write ? (data << 16) | 1 : (1 << 16) | data;
    const meta = this.tile | (cause << 20) | (Math.max(1, this.busySlots()) << 24);
    const size = bytes < 255 ? bytes : 255;
    const u = this.v.txnU;
    const f = this.v.txnF;
    // coalesce with one of the last four records (streams, and flushes that interleave
    // write-backs with reads, stay one record each; a flush's scattered write-backs, which
    // follow no stride, take records of their own without breaking its read stream)
    for (let back = 1; back <= 4 && back <= this.txnCount; back++) {
      const p = (this.txnBase + (this.txnCount - back) * TXN_BYTES) >>> 2;
      if (u[p + 2] !== target || u[p + 3] !== meta || u[p + 4] !== flits || arrivalPs < f[(p >>> 1) + 3]!) continue;
      const shape = u[p + 9]!;
      if ((shape & 0xff) !== size) continue;
      const count = u[p + 5]!;
      const first = u[p + 8]!;
      const stride = shape >> 16; // signed
      if (stride === 0) {
        if (line !== first) {
          // the first line change fixes the shape: `count` transactions per line, then stride
          const d = line - first;
          if (count > 255 || d < -32768 || d > 32767) continue;
          u[p + 9] = ((d << 16) | (count << 8) | size) >>> 0;
        }
      } else {
        // the line transaction `count` is at (a stream of one transaction per line: no division)
        const repeat = (shape >>> 8) & 0xff;
        if (line !== first + (repeat === 1 ? count : Math.floor(count / repeat)) * stride) continue;
      }
      u[p + 5] = count + 1;
      f[(p >>> 1) + 3] = arrivalPs;
      this.c[this.cb + C.flits] += (flits >>> 16) + (flits & 0xffff);
      return;
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
    u[p + 8] = line;
    u[p + 9] = (1 << 8) | size;
    this.txnCount++;
    this.c[this.cb + C.flits] += (flits >>> 16) + (flits & 0xffff);
  }

  /**
   * Appends a buffered write (visible at visiblePs) and updates the overlay. src holds the
   * line image at srcOff (a multiple of 32; src32 is its word view).
   */
  protected appendWrite(lineId: number, mask: number, src: Uint8Array, src32: Uint32Array, srcOff: number, visiblePs: number): void {
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
    copyMasked(this.ovl.data, this.ovl.data32, o, src, srcOff, src32, srcOff >>> 2, mask);
  }

  /**
   * appendWrite of one aligned 32-bit word (a scalar store: mask 0xf << byteOff, byteOff a
   * multiple of 4) whose bytes are `word`'s as a host Uint32Array holds them: the same log entry
   * and overlay update, without a line image. The entry's other 28 data bytes are left as they
   * were: the committer copies only the masked bytes of a write. Called on every word store.
   */
  protected appendWord(lineId: number, byteOff: number, word: number, visiblePs: number): void {
    if (this.logCount >= this.logCap)
      throw new SimulationError(`core ${this.id}: more than ${this.logCap} line writes without yielding; yield DUE in long loops`);
    const at = this.logBase + this.logCount * WLOG_BYTES;
    const u = this.v.wlogU;
    this.v.wlogF[at >>> 3] = visiblePs;
    u[(at >>> 2) + 2] = lineId;
    u[(at >>> 2) + 3] = (0xf << byteOff) >>> 0;
    u[(at >>> 2) + 4] = WLOG_WRITE;
    u[(at >>> 2) + 5] = this.seq++;
    u[((at + 32 + byteOff) >>> 2)] = word;
    this.logCount++;
    // own view
    const ovl = this.ovl;
    let o = ovl.find(lineId);
    if (o < 0) {
      o = ovl.insert(lineId);
      readCommittedLine(this.v, lineId, ovl.data32, o >>> 2);
    }
    ovl.data32[(o + byteOff) >>> 2] = word;
  }

  /**
   * Appends a request without data (WLOG_TAS, WLOG_UNIT) to the write log: `lineId` and `aux`
   * as the committer reads them, applied at visiblePs in the same order as writes.
   */
  protected appendRequest(kind: number, lineId: number, aux: number, visiblePs: number): void {
    if (this.logCount >= this.logCap) throw new SimulationError(`core ${this.id}: write log full; yield DUE in long loops`);
    const at = this.logBase + this.logCount * WLOG_BYTES;
    const u = this.v.wlogU;
    this.v.wlogF[at >>> 3] = visiblePs;
    u[(at >>> 2) + 2] = lineId;
    u[(at >>> 2) + 3] = aux;
    u[(at >>> 2) + 4] = kind;
    u[(at >>> 2) + 5] = this.seq++;
    this.logCount++;
  }

  /** Throws when addr is not aligned to `size` bytes. Called on every scalar access. */
  protected checkAlign(addr: number, size: number): void {
    if ((addr & (size - 1)) !== 0)
      throw new SimulationError(`core ${this.id}: unaligned ${size}-byte access at 0x${(addr >>> 0).toString(16)}`);
  }

  /**
   * Counts `n` messages as a message-passing library logs them (C.loggedMessages; RCCE: one per
   * RCCE_put or RCCE_get call, as the RCCE study's logger did). Messages per instruction =
   * loggedMessages / instructions.
   */
  logMessage(n = 1): void {
    this.c[this.cb + C.loggedMessages] += n;
  }

  /** Counts a protocol-level message from this core to `dst` (the message matrix). */
  countMessage(dst: number, _bytes = 0): void {
    this.v.matrix[this.matrixRow + dst * 2] += 1;
    this.c[this.cb + C.messagesSent] += 1;
  }

  /** This core's counter `name` (vocabulary C) as accumulated so far; times in ps. */
  counter(name: keyof typeof C): number {
    return this.c[this.cb + C[name]]!;
  }

  /** This core's counter at index `index` of vocabulary C (C.busyPs, ...): counter() without the name lookup, for accounting on every access. */
  counterAt(index: number): number {
    return this.c[this.cb + index]!;
  }

  /** Reports a result row. */
  report(row: Row): void {
    this.rows.push(row);
  }

  // ---------------------------------------------------------------- untimed reads (not for simulated code)

  /**
   * NOT FOR SIMULATED CODE (a workload's bookkeeping after its run, tests, views): the 32-bit
   * word at `addr` (4-byte aligned, little-endian) as this core's next load32 of it would return
   * it, read without simulating that load: no time, no counter, no instruction, no cache, LRU,
   * TLB or write-log change, no page-protection check. A family that has one overrides it
   * (TILE64, SCC: their contracts say which copy they read); this default names the family.
   * After a run's last commit, the memory part is the committed memory.
   */
  peek32(addr: number): number {
    throw new SimulationError(`core ${this.id}: the ${this.chip.family} family has no untimed read (peek32 at 0x${(addr >>> 0).toString(16)})`);
  }

  /** peek32's line buffer (a byte view of one line). */
  private readonly peekLine32 = new Uint32Array(LINE_WORDS);
  private readonly peekLine8 = new Uint8Array(this.peekLine32.buffer);

  /**
   * Not for simulated code (peek32's memory part): the little-endian 32-bit word at byte `byte`
   * (a multiple of 4) of line `lineId` as this core sees memory (committed memory plus its own
   * uncommitted writes, the overlay); nothing else changes.
   */
  protected peekMemWord(lineId: number, byte: number): number {
    this.readMemLine(lineId, this.peekLine32, 0);
    return valueAt(this.peekLine8, byte, 4);
  }

  /** Throws unless `addr` is 4-byte aligned (peek32's check). */
  protected checkPeek(addr: number): void {
    if ((addr & 3) !== 0) throw new SimulationError(`core ${this.id}: peek32 at 0x${(addr >>> 0).toString(16)}: not 4-byte aligned`);
  }

  // ---------------------------------------------------------------- page protection

  /** Page protection (off until a runtime enables it): checked by the family on every access. */
  readonly protection = new PageProtection();
  /**
   * The runtime's fault handler: runs after the trap, may send messages and block, and must
   * leave the page at a level that allows the access.
   */
  faultHandler: ((addr: number, write: boolean) => Sim<void>) | null = null;

  /**
   * Turns page protection on for a range (page-protection.ts) with the runtime's handler. The
   * levels live in this core's slice of the state's page regions when the family has them and
   * the range fits (the views' page map reads them), else in a private array.
   */
  enableProtection(spec: ProtectionSpec, handler: (addr: number, write: boolean) => Sim<void>): void {
    const n = this.v.layout.pagesPerCore;
    const shared = n > 0 ? { levels: this.v.pages.subarray(this.id * n, (this.id + 1) * n), header: this.v.pageHdr.subarray(this.id * PAGE_HDR_SLOTS, (this.id + 1) * PAGE_HDR_SLOTS) } : null;
    this.protection.enable(spec, shared);
    this.faultHandler = handler;
  }

  /**
   * Takes the faults an access of [addr, addr + bytes) would raise, page by page in address
   * order: counts each (C.writeFaults for a store, else C.readFaults; one per page, as the
   * hardware raises one and the handler leaves the page accessible), charges the trap and runs the handler.
   * Costs nothing for pages that allow the access. Use before loads and stores of a protected
   * range (a compiler's hoisted `touch`, or the access itself retried after its fault).
   */
  *touch(addr: number, bytes: number, write: boolean): Sim<void> {
    const pr = this.protection;
    if (!pr.on) return;
    const pageBytes = 1 << pr.pageShift;
    const last = addr + Math.max(bytes, 1) - 1;
    for (let a = addr; a <= last; a = (Math.floor(a / pageBytes) + 1) * pageBytes) {
      if (pr.allows(a, write)) continue;
      this.c[this.cb + (write ? C.writeFaults : C.readFaults)] += 1;
      this.compute(pr.trapCycles);
      if (!this.faultHandler) throw new SimulationError(`core ${this.id}: page fault at 0x${(a >>> 0).toString(16)} without a fault handler`);
      yield* this.faultHandler(a, write);
      if (!pr.allows(a, write))
        throw new SimulationError(`core ${this.id}: the fault handler left page ${pr.pageOf(a)} ${PROT_NAMES[pr.get(pr.pageOf(a))]} for a ${write ? 'store' : 'load'} at 0x${(a >>> 0).toString(16)}`);
    }
  }

  /**
   * A fault the runtime takes itself (`touch` cannot: with aliased views the handler moves the
   * object to another view, so the faulting address stays inaccessible): counts it like touch
   * (C.writeFaults for a store, else C.readFaults) and charges the trap. The caller then runs
   * its handler.
   */
  trap(write: boolean): void {
    this.c[this.cb + (write ? C.writeFaults : C.readFaults)] += 1;
    this.compute(this.protection.trapCycles);
  }

  /** The error a family throws when an access reaches a page that does not allow it. */
  protected protectionError(addr: number, write: boolean): SimulationError {
    const pr = this.protection;
    return new SimulationError(
      `core ${this.id}: ${write ? 'store to' : 'load from'} 0x${(addr >>> 0).toString(16)} on ${PROT_NAMES[pr.get(pr.pageOf(addr))]} page ${pr.pageOf(addr)}: take the fault first (yield* core.touch(addr, bytes, ${write}))`,
    );
  }

  // ---------------------------------------------------------------- blocking operations

  /** Family hook: sends whatever the core buffers (a write-combine buffer) to memory. */
  protected drainWrites(): void {}

  protected prepareBlock(): void {
    this.fence();
    this.drainWrites();
    this.fence();
  }

  protected *blockOn(reason: BlockReason): Sim<void> {
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

  /** Poll reads of the last waitLine (the first read and one per `pollPs` while it was blocked). */
  protected lastPolls = 0;

  /**
   * Blocks until the `size`-byte value at byte `off` of line `lineId` satisfies `op value`
   * (the committer checks it after each write to the line). `pollPs` is the cost of the final,
   * successful read; `cause` the stall it is charged to. Returns the value seen.
   * Instructions: the core spins (reads, compares, branches), so a wait executes
   * `pollInstructions` per poll read: one for the first read, and one per `pollPs` of the time
   * it was blocked (counted when it wakes). 0 for a core that stalls without executing.
   * `on`: the core whose write releases the wait, if the caller knows it (the wait-for graph a
   * deadlock message names, wait-for.ts); not read by the simulation.
   */
  protected *waitLine(lineId: number, off: number, size: number, op: WaitOpName, value: number, pollPs: number, cause: number, pollInstructions: number, on?: WaitOn): Sim<number> {
    const opCode = WAIT_OPS[op];
    if (opCode === undefined) throw new SimulationError(`core ${this.id}: unknown wait operator ${String(op)}`);
    this.readMemLine(lineId, this.bulk32, 0);
    const v0 = valueAt(this.bulk, off, size);
    this.now += pollPs;
    this.stall(cause, pollPs);
    this.lastPolls = 1;
    this.retire(pollInstructions);
    if (compare(opCode, v0, value)) return v0;
    const c = this.c;
    const cb = this.cb;
    c[cb + S.waitLine] = lineId;
    c[cb + S.waitOffset] = off;
    c[cb + S.waitSize] = size;
    c[cb + S.waitOp] = opCode;
    c[cb + S.waitValue] = value;
    c[cb + S.waitReadPs] = pollPs;
    this.recordWaitOn(on, NaN);
    yield* this.blockOn(BlockReason.Flag);
    const polls = pollPs > 0 ? Math.floor((c[cb + S.wakePs]! - c[cb + S.blockedAtPs]!) / pollPs) : 0;
    this.lastPolls += polls;
    this.retire(polls * pollInstructions);
    return c[cb + S.tasResult]!;
  }

  /**
   * Records who releases the flag wait about to block (S.waitsFor, S.waitWhat; -1 = nobody
   * named) and, for a poll that reads a copy in the core's own cache, that copy's value
   * (S.waitL1Value; NaN = the poll reads memory). Read only to explain a deadlock.
   */
  protected recordWaitOn(on: WaitOn | undefined, l1Value: number): void {
    const c = this.c;
    const cb = this.cb;
    c[cb + S.waitsFor] = on ? on.core : -1;
    c[cb + S.waitWhat] = waitWhatCode(on?.what);
    c[cb + S.waitL1Value] = l1Value;
  }

  /** Ideal barrier over every core that runs the workload (harness synchronisation). */
  *barrier(): Sim<void> {
    this.prepareBlock();
    this.c[this.cb + S.barrierCount] += 1;
    yield* this.blockOn(BlockReason.Barrier);
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

  /** Family hook: cache occupancy published at the end of each run phase. */
  protected abstract cacheLines(level: 1 | 2): number;

  /** Publishes state after running in an epoch. */
  endRun(): void {
    const c = this.c;
    const cb = this.cb;
    c[cb + C.clockPs] = this.now;
    c[cb + C.cycles] += (this.now - this.cyclesClock) / this.period;
    this.cyclesClock = this.now;
    c[cb + S.logCount] = this.logCount;
    c[cb + S.txnCount] = this.txnCount;
    c[cb + C.l1Lines] = this.cacheLines(1);
    c[cb + C.l2Lines] = this.cacheLines(2);
  }

  /** Finishes the program: waits for outstanding work and drains buffers. */
  finish(): void {
    this.prepareBlock();
    this.c[this.cb + C.state] = CoreState.Finished;
  }
}
