/**
 * The DSM transport on the SCC (issue 16 item 5): the page runtime's datagrams travel through
 * the message-passing buffers, as an SCC message library moves them, and its pages live in each
 * core's private DRAM. Processor i = core i.
 *
 * Contract
 * - MPB layout (each core's 8 KB half, offsets in bytes): [0, 2048) mailboxes, one 32 B line per
 *   sender s at 32 s (MetalSVM's mailbox, paper 003 lines 862-893: a remote write, a local
 *   read); [2048, 2112) the interrupt status, byte s = pieces core s announced here, mod 256
 *   (MetalSVM's model of the sccKit 1.4.0 GIC, which names the sender: lines 851-861);
 *   [2112, 2368) ack words, word r = the last piece core r copied out of this core's buffer
 *   (RCCE's "ready" flag, written by the receiver into the sender's MPB: scc.md section 2);
 *   [2368, 2400) the doorbell word (the core's interrupt pin: any core that announces a piece
 *   or acks one writes its id + 1 and its own ring count above it, a value no earlier ring wrote;
 *   a waiting core reads it and spins until it changes); [2400, 8192) the outgoing area, 181
 *   lines from which pieces of up to PIECE_MAX_BYTES are allocated first-fit by the line.
 * - send(to, payload, bytes): a datagram of 1..maxDatagramBytes (65,507, the cluster's UDP
 *   maximum, so the runtime splits its messages into the same datagrams on both chips) is queued
 *   (SEND_CALL_CYCLES) and sent as pieces (SEND_CALL_CYCLES each: the library's bookkeeping,
 *   model). The queue is not bounded (the bytes wait in the sender's send buffer, read for
 *   cost modulo its 64 KB). A piece goes (RCCE's order, scc.md section 2 and
 *   section 6's t_m): the sender reads it from its send buffer in private memory and writes it
 *   into its own outgoing area; writes the mailbox line in the receiver's MPB (seq, piece
 *   bytes, offset of the piece in the sender's MPB, datagram bytes, offset in the datagram, the
 *   sender's clock when it announced it),
 *   raises the receiver's interrupt status byte and rings its doorbell. The receiver takes it
 *   (MAIL_HANDLER_CYCLES), reads the mailbox line and copies the piece from the sender's MPB
 *   (CL1INVMB first: MPBT lines, L1 only) into its receive buffer in private memory, then
 *   writes its ack word in the sender's MPB and rings the sender's doorbell.
 * - Flow control: one piece in flight per ordered pair (the mailbox line holds one), freed by
 *   the ack; the outgoing area's lines stay allocated until acked; later pieces and datagrams
 *   wait in the sender's queue (in order per pair). A queued piece moves at the sender's next
 *   transport call (send, receiveAny, pendingArrivalPs: a library's progress engine), so a
 *   fast sender never overwrites an unread piece. In order per pair: one mailbox, sequence
 *   numbers checked (a mismatch is an error naming both cores).
 * - receiveAny(out): takes whole datagrams, one sender at a time: the first sender with a raised
 *   interrupt status scanning round-robin from the sender after the last one taken (then that
 *   sender's following pieces until the datagram is complete); while nothing is there it
 *   makes progress on its own queue and spins on its doorbell (waitUntil). A piece counts as
 *   there from its announcement time: a core that lags its sender may see the announcement
 *   committed early (the engine commits writes per epoch) and then halts until that time.
 *   pendingArrivalPs(): the earliest announcement time among senders whose interrupt status is
 *   raised (the status read at no cost, SccCore.interruptLines, as MetalSVM does; the mailbox
 *   line once per piece), else Infinity. interrupt(): the IPI's entry (IPI_ENTRY_CYCLES).
 *   drain(): blocks until the queue is empty (the program's last call: its last departures).
 * - Pages: the shared region is in private memory (cached L1 + L2) at the same core address on
 *   every core (privateBase + RESERVED_BYTES); protectPages uses the engine's page protection
 *   with MetalSVM's bare-metal trap (FAULT_TRAP_CYCLES), mprotect sets a level and charges one
 *   page-table change (PTE_CHANGE_CYCLES). mapAliases: the SCC core's aliased views
 *   (SccCore.mapAliases: one physical page mapped several times in the core's page tables, for
 *   the object runtime's protection by aliasing), set up at no cost; mprotectRange sets the
 *   levels of `pages` pages and charges one page-table change per page (PTE_CHANGE_CYCLES x
 *   pages: a bare-metal kernel rewrites each entry, model; the cluster's mprotect is one system
 *   call per range). loadLines / storeLines are bulk ranges through the SCC core's caches
 *   (readRange / writeRange).
 * - Private memory after the region: send buffers (64 KB per destination) and the receive
 *   buffer (64 KB), below the last L2-sized bytes (the software flush's region).
 * The bytes of a queued datagram are kept in a JavaScript ring per destination (the runtime's
 * encoding into its buffers is charged nothing on any chip); the send buffer is read for its
 * cost. Units: bytes, core cycles, ps. Up to MAX_SCC_PROCS processors; no allocation per message
 * once the rings have grown.
 */
import { SimulationError, type SccCore, type Sim, type WaitOn } from '@manycore/engine';
import { FAULT_TRAP_CYCLES, IPI_ENTRY_CYCLES, MAIL_HANDLER_CYCLES, PTE_CHANGE_CYCLES } from '../../metalsvm/costs';
import type { DsmTransport } from './transport';

export const MAX_SCC_PROCS = 64;
export const MAILBOX_OFFSET = 0;
export const IPI_OFFSET = 2048;
export const ACK_OFFSET = 2112;
export const BELL_OFFSET = 2368;
export const OUT_OFFSET = 2400;
/** The MPB bytes a core's half must hold (the outgoing area needs at least one largest piece). */
export const SCC_MPB_BYTES = 8192;
/** The largest piece (model: 64 lines, so two large pieces and several small ones share the 5,792 B outgoing area). */
export const PIECE_MAX_BYTES = 2048;
/** The largest datagram: the cluster preset's network.maxDatagramBytes (UDP), so both chips carry the same datagrams. */
export const SCC_MAX_DATAGRAM_BYTES = 65507;
/** Bytes at the bottom of private memory kept for the harness and the runtime's own variables (model, as on the cluster). */
export const RESERVED_BYTES = 1 << 20;
/** Default shared region (model: the cluster preset's 64 MB window less the reserved 1 MB). */
export const DEFAULT_REGION_BYTES = 63 << 20;
const BUF_BYTES = 65536;
/**
 * The send call's own work: queue the datagram, pick a destination slot (model: as MetalSVM's
 * mail handler, MAIL_HANDLER_CYCLES, a short bare-metal code path; no SCC document gives it).
 */
export const SEND_CALL_CYCLES = MAIL_HANDLER_CYCLES;

const LINE = 32;

export interface SccTransportOptions {
  /** Bytes of the shared region (shared data and the runtime's twins); default DEFAULT_REGION_BYTES. */
  regionBytes?: number;
}

/** Why `procs` processors cannot use the transport on this core's chip, or null. */
export function sccTransportProblem(chip: { mpbBytes: number; topo: { coresPerTile: number; cores: number } }, procs: number): string | null {
  if (procs > MAX_SCC_PROCS) return `the SCC transport keeps one 32 B mailbox line per sender in an 8 KB MPB half: at most ${MAX_SCC_PROCS} processors, got ${procs}`;
  if (procs > chip.topo.cores) return `${procs} processors, but the chip has ${chip.topo.cores} cores`;
  const half = chip.mpbBytes / chip.topo.coresPerTile;
  if (half < SCC_MPB_BYTES) return `the SCC transport needs ${SCC_MPB_BYTES} B of MPB per core; this chip has ${half}`;
  return null;
}

class SccTransport implements DsmTransport {
  readonly me: number;
  readonly maxDatagramBytes = SCC_MAX_DATAGRAM_BYTES;
  readonly sharedBase: number;
  readonly regionBytes: number;
  lastFrom = -1;
  /** Pieces sent and datagrams taken (for tests and rows). */
  piecesSent = 0;
  piecesReceived = 0;

  private readonly sendBufBase: number;
  private readonly recvBufBase: number;
  // sender side
  private readonly sentSeq: Int32Array; // pieces announced per destination
  private readonly ipiSent: Uint8Array;
  private readonly flightLine: Int32Array; // first outgoing line of the piece in flight per destination, -1: none
  private readonly flightLines: Int32Array;
  private readonly lineUsed: Uint8Array; // the outgoing area's lines
  private readonly ring: Uint8Array[]; // queued bytes per destination
  private readonly ringHead: Int32Array; // first queued byte
  private readonly ringBytes: Int32Array; // queued bytes
  private readonly lens: number[][]; // queued datagram sizes per destination
  private readonly headSent: Int32Array; // bytes of the head datagram already announced
  private queuedDatagrams = 0;
  // receiver side
  private readonly recvSeq: Int32Array;
  private readonly ipiSeen: Uint8Array;
  private readonly ipi32 = new Uint32Array(16);
  private readonly ipi8 = new Uint8Array(this.ipi32.buffer);
  private rr = 0;
  /** Per sender: its announced piece's mailbox line has been read (fields below), 0/1. */
  private readonly peeked: Uint8Array;
  private readonly pSeq: Int32Array;
  private readonly pBytes: Int32Array;
  private readonly pSlot: Int32Array;
  private readonly pTotal: Int32Array;
  private readonly pOff: Int32Array;
  private readonly pAtPs: Float64Array;
  private readonly mail = new Uint8Array(LINE);
  private readonly mailDv = new DataView(this.mail.buffer);
  private readonly piece = new Uint8Array(PIECE_MAX_BYTES);
  private readonly waitOn: WaitOn = { core: -1, what: 'sent flag' };
  private readonly outLines: number;
  private readonly half: number;
  private view8a: Uint8Array | null = null;
  private view32a: Uint32Array | null = null;
  private view8b: Uint8Array | null = null;
  private view32b: Uint32Array | null = null;

  constructor(
    readonly core: SccCore,
    readonly procs: number,
    opts: SccTransportOptions,
  ) {
    const problem = sccTransportProblem(core.chip, procs);
    if (problem) throw new SimulationError(`core ${core.id}: ${problem}`);
    this.me = core.id;
    this.half = core.chip.mpbBytes / core.chip.topo.coresPerTile;
    this.outLines = Math.floor((this.half - OUT_OFFSET) / LINE);
    this.sharedBase = core.privateBase + RESERVED_BYTES;
    this.regionBytes = opts.regionBytes ?? DEFAULT_REGION_BYTES;
    this.sendBufBase = this.sharedBase + this.regionBytes;
    this.recvBufBase = this.sendBufBase + procs * BUF_BYTES;
    const flushBytes = core.chip.l2 ? core.chip.l2.sets * core.chip.l2.ways * LINE : 0;
    const end = this.recvBufBase + BUF_BYTES;
    if (end > core.privateBase + core.chip.privateBytes - flushBytes)
      throw new SimulationError(
        `core ${core.id}: the DSM region (${this.regionBytes} B) and the message buffers need ${end - core.privateBase} B of private memory; the core has ${core.chip.privateBytes - flushBytes} B besides its flush region`,
      );
    this.sentSeq = new Int32Array(procs);
    this.ipiSent = new Uint8Array(procs);
    this.flightLine = new Int32Array(procs).fill(-1);
    this.flightLines = new Int32Array(procs);
    this.lineUsed = new Uint8Array(this.outLines);
    this.ring = Array.from({ length: procs }, () => new Uint8Array(0));
    this.ringHead = new Int32Array(procs);
    this.ringBytes = new Int32Array(procs);
    this.lens = Array.from({ length: procs }, () => []);
    this.headSent = new Int32Array(procs);
    this.recvSeq = new Int32Array(procs);
    this.ipiSeen = new Uint8Array(procs);
    this.peeked = new Uint8Array(procs);
    this.pSeq = new Int32Array(procs);
    this.pBytes = new Int32Array(procs);
    this.pSlot = new Int32Array(procs);
    this.pTotal = new Int32Array(procs);
    this.pOff = new Int32Array(procs);
    this.pAtPs = new Float64Array(procs);
    this.rr = (this.me + 1) % procs;
  }

  // ------------------------------------------------------------------ addresses

  private mailAddr(at: number, from: number): number {
    return this.core.mpbOf(at, MAILBOX_OFFSET + LINE * from);
  }

  // ------------------------------------------------------------------ sending

  send(to: number, payload: Uint8Array, bytes: number): void {
    if (!Number.isInteger(to) || to < 0 || to >= this.procs || to === this.me)
      throw new SimulationError(`core ${this.me}: a DSM datagram goes to another processor (0..${this.procs - 1}), got ${to}`);
    if (!Number.isInteger(bytes) || bytes < 1 || bytes > this.maxDatagramBytes || bytes > payload.length)
      throw new SimulationError(`core ${this.me}: a datagram carries 1..${this.maxDatagramBytes} bytes from its payload of ${payload.length}, got ${bytes}`);
    this.core.compute(SEND_CALL_CYCLES);
    this.enqueue(to, payload, bytes);
    this.core.countMessage(to, bytes);
    this.progress();
  }

  private enqueue(to: number, payload: Uint8Array, bytes: number): void {
    let r = this.ring[to]!;
    const used = this.ringBytes[to]!;
    if (used + bytes > r.length) {
      // grow (rare): keep the queued bytes in order from 0
      const grown = new Uint8Array(Math.max(2 * r.length, used + bytes, 4096));
      for (let i = 0; i < used; i++) grown[i] = r[(this.ringHead[to]! + i) % r.length]!;
      this.ring[to] = r = grown;
      this.ringHead[to] = 0;
    }
    const cap = r.length;
    const at = (this.ringHead[to]! + used) % cap;
    const first = Math.min(bytes, cap - at);
    r.set(payload.subarray(0, first), at);
    if (first < bytes) r.set(payload.subarray(first, bytes), 0);
    this.ringBytes[to] = used + bytes;
    this.lens[to]!.push(bytes);
    this.queuedDatagrams++;
  }

  /** Moves queued pieces into the outgoing area where a destination's mailbox and lines are free (non-blocking). */
  private progress(): void {
    if (this.queuedDatagrams === 0) return;
    const core = this.core;
    // acks of pieces in flight (local MPB reads after CL1INVMB)
    let invalidated = false;
    for (let d = 0; d < this.procs; d++) {
      if (this.flightLine[d]! < 0) continue;
      if (!invalidated) {
        core.invalidateMpbt();
        invalidated = true;
      }
      const ack = core.load32(core.mpbOf(this.me, ACK_OFFSET + 4 * d));
      core.fence();
      if (ack === this.sentSeq[d]) {
        this.lineUsed.fill(0, this.flightLine[d]!, this.flightLine[d]! + this.flightLines[d]!);
        this.flightLine[d] = -1;
      }
    }
    for (let k = 1; k < this.procs; k++) {
      const d = (this.me + k) % this.procs;
      if (this.lens[d]!.length === 0 || this.flightLine[d]! >= 0) continue;
      const total = this.lens[d]![0]!;
      const off = this.headSent[d]!;
      const n = Math.min(PIECE_MAX_BYTES, total - off);
      const lines = Math.ceil(n / LINE);
      const at = this.allocLines(lines);
      if (at < 0) continue;
      this.push(d, at, lines, n, total, off);
      if (off + n === total) {
        this.lens[d]!.shift();
        this.headSent[d] = 0;
        this.queuedDatagrams--;
      } else this.headSent[d] = off + n;
    }
  }

  private allocLines(lines: number): number {
    const used = this.lineUsed;
    let run = 0;
    for (let i = 0; i < used.length; i++) {
      run = used[i] ? 0 : run + 1;
      if (run === lines) {
        used.fill(1, i + 1 - lines, i + 1);
        return i + 1 - lines;
      }
    }
    return -1;
  }

  /** One piece: send buffer -> own outgoing area, mailbox line, interrupt status, doorbell. */
  private push(d: number, line: number, lines: number, n: number, total: number, off: number): void {
    const core = this.core;
    const r = this.ring[d]!;
    const cap = r.length;
    const head = this.ringHead[d]!;
    for (let i = 0; i < n; i++) this.piece[i] = r[(head + i) % cap]!;
    this.ringHead[d] = (head + n) % cap;
    this.ringBytes[d] = this.ringBytes[d]! - n;
    const slotOff = OUT_OFFSET + line * LINE;
    core.compute(SEND_CALL_CYCLES);
    core.readRange(this.sendBufBase + d * BUF_BYTES + (off % BUF_BYTES), Math.min(n, BUF_BYTES - (off % BUF_BYTES))); // the send buffer's loads (cost)
    core.writeRange(core.mpbOf(this.me, slotOff), n, this.piece, 0);
    core.drainWcb();
    const seq = ++this.sentSeq[d]!;
    const dv = this.mailDv;
    this.mail.fill(0);
    dv.setUint32(0, seq, true);
    dv.setUint32(4, n, true);
    dv.setUint32(8, slotOff, true);
    dv.setUint32(12, total, true);
    dv.setUint32(16, off, true);
    dv.setFloat64(24, core.now, true); // the announcement's time (before its writes' latency)
    core.writeRange(this.mailAddr(d, this.me), LINE, this.mail, 0);
    core.drainWcb();
    this.ipiSent[d] = (this.ipiSent[d]! + 1) & 0xff;
    core.store8(core.mpbOf(d, IPI_OFFSET + this.me), this.ipiSent[d]!);
    core.drainWcb();
    this.ring_(d);
    this.flightLine[d] = line;
    this.flightLines[d] = lines;
    this.piecesSent++;
  }

  // ------------------------------------------------------------------ receiving

  /** Reads this core's interrupt status (no cost: the GIC's lines). */
  private readStatus(): void {
    const at = this.core.mpbOf(this.me, IPI_OFFSET);
    this.core.interruptLines(at, this.ipi32, 0);
    this.core.interruptLines(at + LINE, this.ipi32, 8);
  }

  private raised(s: number): boolean {
    return this.ipi8[s] !== this.ipiSeen[s];
  }

  /**
   * When sender s's announced piece is here for this core, ps (Infinity: none announced). Reads
   * its mailbox line once per piece (CL1INVMB, a local MPB line). A core that lags its sender
   * can see a committed announcement whose time lies in its own future (the engine commits
   * writes per epoch): the piece counts as there only from the time it was announced.
   */
  private arrivalPs(s: number): number {
    if (!this.raised(s)) return Infinity;
    if (!this.peeked[s]) {
      const core = this.core;
      core.invalidateMpbt();
      core.readRange(this.mailAddr(this.me, s), 32, this.mail, 0);
      core.fence();
      const dv = this.mailDv;
      this.pSeq[s] = dv.getUint32(0, true);
      this.pBytes[s] = dv.getUint32(4, true);
      this.pSlot[s] = dv.getUint32(8, true);
      this.pTotal[s] = dv.getUint32(12, true);
      this.pOff[s] = dv.getUint32(16, true);
      this.pAtPs[s] = dv.getFloat64(24, true);
      this.peeked[s] = 1;
    }
    return this.pAtPs[s]!;
  }

  /** The first sender whose piece is here by now, round-robin from `rr`; -1 when none. */
  private nextRaised(): number {
    this.readStatus();
    for (let k = 0; k < this.procs; k++) {
      const s = (this.rr + k) % this.procs;
      if (s !== this.me && this.arrivalPs(s) <= this.core.now) return s;
    }
    return -1;
  }

  /** The earliest announcement time among raised senders (Infinity: none). */
  private earliestPs(): number {
    this.readStatus();
    let t = Infinity;
    for (let s = 0; s < this.procs; s++) if (s !== this.me) t = Math.min(t, this.arrivalPs(s));
    return t;
  }

  pendingArrivalPs(): number {
    this.progress();
    return this.earliestPs();
  }

  /** Spins (halted, no bus traffic) until `ps`, an announcement this core already sees but lies ahead of its clock. */
  private *until(ps: number): Sim<void> {
    const core = this.core;
    if (ps > core.now) yield* core.sleep(Math.ceil(ps - core.now) / 1000);
  }

  interrupt(): void {
    this.core.compute(IPI_ENTRY_CYCLES);
  }

  /**
   * Blocks until every queued datagram is announced (its last piece written into the outgoing
   * area): a processor calls it before its program ends, so the pieces it queued last (the
   * barrier manager's departures) still reach their receivers.
   */
  *drain(): Sim<void> {
    const core = this.core;
    for (;;) {
      const rang = this.readBell();
      this.progress();
      if (this.queuedDatagrams === 0) return;
      this.waitOn.core = -1;
      yield* core.waitUntil(core.mpbOf(this.me, BELL_OFFSET), '!=', rang, 4, { on: this.waitOn });
    }
  }

  /** Rings core `to`'s doorbell: this core's id + 1 and its ring count above it (a value no earlier ring wrote). */
  private ring_(to: number): void {
    const core = this.core;
    this.rings = (this.rings + 1) & 0xffffff;
    core.store32(core.mpbOf(to, BELL_OFFSET), ((this.rings << 8) | (this.me + 1)) >>> 0);
    core.drainWcb();
  }
  private rings = 0;

  /** This core's doorbell as memory holds it (CL1INVMB, a local MPB read). */
  private readBell(): number {
    const core = this.core;
    core.invalidateMpbt();
    const v = core.load32(core.mpbOf(this.me, BELL_OFFSET));
    core.fence();
    return v;
  }

  *receiveAny(out: Uint8Array): Sim<number> {
    const core = this.core;
    let from = -1;
    for (;;) {
      this.progress();
      from = this.nextRaised();
      if (from >= 0) break;
      const ahead = this.earliestPs();
      if (ahead < Infinity) yield* this.until(ahead);
      else yield* this.waitBell(-1);
    }
    let total = -1;
    let got = 0;
    for (;;) {
      const m = this.takePiece(from, out);
      if (total < 0) {
        if (m.off !== 0) throw new SimulationError(`core ${this.me}: a datagram from core ${from} began at byte ${m.off}`);
        total = m.total;
      } else if (m.off !== got || m.total !== total) throw new SimulationError(`core ${this.me}: a piece from core ${from} at byte ${m.off} of ${m.total}, expected byte ${got} of ${total}`);
      got += m.n;
      if (got === total) break;
      for (;;) {
        this.progress();
        this.readStatus();
        const at = this.arrivalPs(from);
        if (at <= core.now) break;
        if (at < Infinity) yield* this.until(at);
        else yield* this.waitBell(from);
      }
    }
    this.lastFrom = from;
    this.rr = (from + 1) % this.procs;
    return total;
  }

  private readonly taken = { n: 0, total: 0, off: 0 };

  /** Copies the announced piece from `s` (its status is raised) into out; acks it. */
  private takePiece(s: number, out: Uint8Array): { n: number; total: number; off: number } {
    const core = this.core;
    core.compute(MAIL_HANDLER_CYCLES);
    this.arrivalPs(s); // the mailbox line (read once per piece)
    this.peeked[s] = 0;
    const seq = this.pSeq[s]!;
    const n = this.pBytes[s]!;
    const slotOff = this.pSlot[s]!;
    const total = this.pTotal[s]!;
    const off = this.pOff[s]!;
    core.invalidateMpbt(); // no stale line of the sender's outgoing area
    const expect = this.recvSeq[s]! + 1;
    if (seq !== expect) throw new SimulationError(`core ${this.me}: mailbox of core ${s} holds piece ${seq}, expected piece ${expect} (pieces out of order)`);
    if (off + n > out.length || total > out.length) throw new SimulationError(`core ${this.me}: a datagram of ${total} B from core ${s} does not fit the receive buffer of ${out.length} B`);
    core.readRange(core.mpbOf(s, slotOff), n, out, off);
    core.writeRange(this.recvBufBase + (off % BUF_BYTES), Math.min(n, BUF_BYTES - (off % BUF_BYTES)), out, off);
    this.recvSeq[s] = expect;
    this.ipiSeen[s] = (this.ipiSeen[s]! + 1) & 0xff;
    core.store32(core.mpbOf(s, ACK_OFFSET + 4 * this.me), seq);
    core.drainWcb();
    this.ring_(s);
    this.piecesReceived++;
    const t = this.taken;
    t.n = n;
    t.total = total;
    t.off = off;
    return t;
  }

  /**
   * Reads the doorbell, makes progress, and spins until the doorbell changes unless a piece
   * (from `from`, or any sender when -1) is already announced. Every ring writes a value no
   * earlier ring wrote, so a ring this core has not seen (even one not yet visible to its reads:
   * the committer compares the doorbell as it was at the time the core blocked) wakes it.
   */
  private *waitBell(from: number): Sim<void> {
    const core = this.core;
    const bell = core.mpbOf(this.me, BELL_OFFSET);
    const rang = this.readBell();
    this.progress();
    this.readStatus();
    if (from >= 0 ? this.raised(from) : this.earliestPs() < Infinity) return;
    this.waitOn.core = from;
    yield* core.waitUntil(bell, '!=', rang, 4, { on: this.waitOn });
  }

  // ------------------------------------------------------------------ pages

  protectPages(base: number, bytes: number, pageBytes: number, initial: number, handler: (addr: number, write: boolean) => Sim<void>): void {
    this.core.enableProtection({ base, bytes, pageBytes, initial, trapCycles: FAULT_TRAP_CYCLES }, handler);
  }

  mprotect(page: number, level: number): void {
    this.core.protection.set(page, level);
    this.core.compute(PTE_CHANGE_CYCLES);
  }

  mapAliases(base: number, bytes: number, copies: number): void {
    this.core.mapAliases(base, bytes, copies);
  }

  mprotectRange(first: number, pages: number, level: number): void {
    for (let p = first; p < first + pages; p++) this.core.protection.set(p, level);
    this.core.compute(PTE_CHANGE_CYCLES * pages);
  }

  private bytesOf(a: Uint32Array): Uint8Array {
    if (a === this.view32a) return this.view8a!;
    if (a === this.view32b) return this.view8b!;
    // two arrays in turn (the runtime's page buffers): remember both
    this.view32b = this.view32a;
    this.view8b = this.view8a;
    this.view32a = a;
    this.view8a = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    return this.view8a;
  }

  loadLines(addr: number, lines: number, out: Uint32Array, outWord: number): void {
    this.core.readRange(addr, lines * LINE, this.bytesOf(out), 4 * outWord);
  }

  storeLines(addr: number, lines: number, src: Uint32Array, srcWord: number): void {
    this.core.writeRange(addr, lines * LINE, this.bytesOf(src), 4 * srcWord);
  }
}

export type SccDsmTransport = DsmTransport & { readonly piecesSent: number; readonly piecesReceived: number; drain(): Sim<void> };

/** The SCC transport for core `core` of a DSM run on `procs` processors (cores 0..procs-1). */
export function sccTransport(core: SccCore, procs: number, opts: SccTransportOptions = {}): SccDsmTransport {
  return new SccTransport(core, procs, opts);
}
