/**
 * The cluster family's core (ClusterCore): one PC of a cluster, as a workload's program sees it.
 *
 * Contract
 * - Memory: only the node's own private memory, privateBase..privateBase + privateBytes; any
 *   other address is an error naming the node and the address (no shared memory on a cluster).
 *   Caches (tags; values always come from memory as this core sees it, exact here since no
 *   other core can write it): L1 and L2 write-back with write-allocate; an L1 miss that hits
 *   L2 costs l2 hitCycles, an L2 miss memory.accessCycles (latency only: the node's memory
 *   serves one core, so no transaction is recorded for the weave).
 * - Messages (UDP datagrams over a switch, one Ethernet frame each):
 *   send(to, payload, sizeBytes): the sender's CPU runs sendOverheadCycles + sendPerByteCycles x
 *     bytes (system call, UDP/IP, driver); the frame (max(frame overhead + IP/UDP headers +
 *     payload, minimum frame) + preamble and gap, in byte times) then serialises on the
 *     sender's link at linkMbps, after the frames it sent before (the uplink's busy-until time,
 *     private to the sender: exact); the switch forwards it switchLatencyNs after receiving it
 *     whole (store-and-forward) and it serialises again on the receiver's link. The data travel
 *     as memory writes into the receiver's slot for this sender (a header line: sequence, size,
 *     time the switch starts forwarding; then the payload), visible when the frame would arrive
 *     on an idle link. send returns after the CPU part (the NIC sends on its own).
 *   receive(from, out): blocks until the next message from `from` is there; the receiver's link
 *     is a FIFO in the order this node takes its messages (its busy-until time is private to the
 *     receiver, so deterministic): a frame whose link time overlaps the previous frame's waits
 *     for it. Then the CPU runs receiveOverheadCycles + receivePerByteCycles x bytes (interrupt,
 *     UDP/IP input, system call), plus receiveWakeupCycles when the process slept waiting (the
 *     message was not there yet when receive was called), and the payload is copied to `out`.
 *   receiveAny(out): the next datagram from any node (the one whose first frame left the switch
 *     first, then the lower node), blocking on the node's arrival counter (a line the family's
 *     commit unit increments when a datagram arrives: index.ts); `lastFrom` names the sender.
 *   A datagram of up to maxDatagramBytes travels as IP fragments of maxPayloadBytes, one frame
 *   each, back to back; the switch forwards each frame when it is whole.
 *   pendingArrivalPs() / interrupt(): a runtime serving requests from a SIGIO handler looks for a
 *   datagram that has arrived by `now` between pieces of work and charges the signal.
 *   At most slotsPerPair messages from one sender may wait unreceived at one receiver (its socket
 *   buffer holds that many from one sender); send() of one more overwrites the oldest, which the
 *   receiver detects and reports as an error. sendReady(to, bytes), a runtime's call before
 *   send, prevents it: when all of the pair's slots hold datagrams the receiver has not taken, the
 *   sender blocks until it takes the oldest (it writes a taken counter per pair when it takes
 *   one). (model) Flow control instead of UDP's drop: a dropped datagram would be retransmitted
 *   by the runtime after a timeout, later than this wait ends, so the lab's time is a lower bound
 *   where it happens; no datagram is lost or counted twice. sendReady also yields DUE when the
 *   datagram's lines would not fit in this epoch's write log (host sizing, no simulated cost).
 *   The wait is charged to STALL_NETWORK; `sendWaits` counts the sends that waited. The
 *   counter is read as committed (like every line): a receiver whose datagrams were all in its
 *   slots may have taken them ahead of the sender's clock, and frees the sender then (the
 *   datagram still arrives after the earlier ones: the link serialises them).
 * - Page protection (page-protection.ts): protectPages() turns it on over a range of private
 *   memory with kernel.faultTrapCycles per fault; mprotect(page, level) and mprotectRange charge
 *   kernel.mprotectCycles per call; every load and store checks it. mapAliases() maps several
 *   virtual views of one range of pages (each view with its own protection).
 * - Instructions: one per load or store; send and receive software overheads retire one per
 *   cycle (compute's default); waiting for a message retires none (the process sleeps).
 * Units: time in ps, sizes in bytes. Loads and stores are called on every access: no allocation.
 */
import { Cache, FLAG_DIRTY } from '../../cache';
import { aliasViewsEnd } from '../../alias-views';
import { FULL_MASK, SimulationError } from '../../core';
import { WordCore } from '../../word-core';
import { WLOG_UNIT, type Views } from '../../layout';
import { C, LINE_BYTES, STALL_L1_MISS, STALL_L2_MISS, STALL_NETWORK, YIELD_DUE, dramLineId, type Sim } from '../../vocabulary';
import type { WaitOn } from '../../wait-for';
import type { ClusterChip } from './resolve';

export class ClusterCore extends WordCore {
  declare readonly chip: ClusterChip;
  readonly l1: Cache;
  readonly l2: Cache;
  private readonly l1Shift: number;
  private readonly l2Shift: number;
  private readonly memBase: number; // this node's memory in the line space, bytes
  private readonly sendSeq: Int32Array; // per destination node
  private readonly recvSeq: Int32Array; // per source node
  private readonly lineDv = new DataView(this.line32.buffer);
  private readonly waitOn: WaitOn = { core: 0, what: 'sent flag' };
  private readonly wlogCap: number;
  /** sendReady calls that blocked because the receiver's slots from this node were all in use. */
  sendWaits = 0;
  private tPaddr = -0;
  /** The sender's link to the switch is busy until this time, ps. */
  uplinkFreePs = -0;
  /** The switch's link to this node is busy until this time, ps. */
  downlinkFreePs = -0;
  /** Frame time of the last message received, and how long it waited for the receiver's link, ps. */
  lastWireWaitPs = -0;

  constructor(id: number, chip: ClusterChip, views: Views, seed: number) {
    super(id, chip, views, seed);
    const L = views.layout;
    this.l1 = new Cache(views.state, L.off.l1 + id * L.l1Stride, chip.l1d.sets, chip.l1d.ways);
    this.l2 = new Cache(views.state, L.off.l2 + id * L.l2Stride, chip.l2!.sets, chip.l2!.ways);
    this.l1.reset();
    this.l2.reset();
    this.l1Shift = chip.l1LineShift;
    this.l2Shift = chip.l2LineShift;
    this.memBase = id * chip.privateBytes;
    this.sendSeq = new Int32Array(chip.nodes);
    this.recvSeq = new Int32Array(chip.nodes);
    this.wlogCap = L.wlogCap;
  }

  // ---------------------------------------------------------------- addresses

  get privateBase(): number {
    return this.chip.privateBase;
  }
  get privateBytes(): number {
    return this.chip.privateBytes;
  }
  /** Nodes of the cluster. */
  get nodes(): number {
    return this.chip.nodes;
  }

  private translate(addr: number): void {
    if (addr >= this.aliasBase && addr < this.aliasEnd) addr = this.aliasBase + ((addr - this.aliasBase) % this.aliasBytes);
    const off = addr - this.chip.privateBase;
    if (off < 0 || off >= this.chip.privateBytes)
      throw new SimulationError(
        `node ${this.id}: address 0x${(addr >>> 0).toString(16)} is outside its private memory (0x${this.chip.privateBase.toString(16)}..0x${(this.chip.privateBase + this.chip.privateBytes - 1).toString(16)}); a cluster has no shared memory: send a message`,
      );
    this.tPaddr = this.memBase + off;
  }

  /** Aliased mappings (mapAliases): [aliasBase, aliasEnd) folds onto its first aliasBytes. */
  private aliasBase = Infinity;
  private aliasEnd = -Infinity;
  private aliasBytes = 1;

  /**
   * Maps `copies` virtual views of the physical pages [base, base + bytes): view k at base + k x
   * bytes reads and writes the same memory (and cache lines) as view 0, as mmap of one object
   * several times does; each view keeps its own page protection (an object runtime gives the
   * views fixed levels and moves objects between them: paper 004 lines 120-129). One aliased
   * range per node; all views inside private memory.
   */
  mapAliases(base: number, bytes: number, copies: number): void {
    const end = aliasViewsEnd(`node ${this.id}`, base, bytes, copies, this.chip.privateBase, this.chip.privateBytes);
    this.aliasBase = base;
    this.aliasEnd = end;
    this.aliasBytes = bytes;
  }

  // ---------------------------------------------------------------- the hierarchy

  private access(write: boolean): void {
    const c = this.c;
    const cb = this.cb;
    const k1 = Math.floor(this.tPaddr / (1 << this.l1Shift));
    let s1 = this.l1.lookup(k1);
    if (s1 >= 0) {
      c[cb + C.l1Hits] += 1;
      this.busyCycles(this.chip.l1d.hitCycles);
    } else {
      c[cb + C.l1Misses] += 1;
      const k2 = Math.floor(this.tPaddr / (1 << this.l2Shift));
      let s2 = this.l2.lookup(k2);
      if (s2 >= 0) {
        c[cb + C.l2Hits] += 1;
        const ps = this.chip.l2!.hitCycles * this.period;
        this.now += ps;
        this.stall(STALL_L1_MISS, ps);
      } else {
        c[cb + C.l2Misses] += 1;
        c[cb + C.dramReads] += 1;
        this.issue(this.chip.memoryAccessCycles * this.period, STALL_L2_MISS);
        this.fence(); // the word is used: the core waits for it
        s2 = this.l2.victim(k2);
        if (this.l2.tags[s2] !== -1 && this.l2.flags[s2]! & FLAG_DIRTY) c[cb + C.dramWrites] += 1; // written back by the bus, off the core's path (model)
        this.l2.fillTag(s2, k2, 0);
      }
      s1 = this.l1.victim(k1);
      if (this.l1.tags[s1] !== -1 && this.l1.flags[s1]! & FLAG_DIRTY) {
        // the victim's data go to its L2 line, which stays dirty
        const v2 = this.l2.probe(this.l1.tags[s1]! >> (this.l2Shift - this.l1Shift));
        if (v2 >= 0) this.l2.flags[v2]! |= FLAG_DIRTY;
      }
      this.l1.fillTag(s1, k1, 0);
    }
    if (write) this.l1.flags[s1]! |= FLAG_DIRTY;
  }

  private lineId(paddr: number): number {
    return dramLineId(0, paddr - (paddr % LINE_BYTES));
  }

  /**
   * What every load and store does before its data move: the protection check, the counter,
   * `instructions` retired, the translation (tPaddr) and the cache hierarchy. Called on every
   * access.
   */
  private begin(addr: number, write: boolean, instructions: number): void {
    if (!this.protection.allows(addr, write)) throw this.protectionError(addr, write);
    this.c[this.cb + (write ? C.stores : C.loads)] += 1;
    this.retire(instructions);
    this.translate(addr);
    this.access(write);
  }

  protected loadAt(addr: number, size: number): number {
    this.checkAlign(addr, size);
    this.begin(addr, false, 1);
    this.readMemLine(this.lineId(this.tPaddr), this.line32, 0);
    return this.tPaddr & (LINE_BYTES - 1);
  }

  protected storeAt(addr: number, size: number): void {
    this.checkAlign(addr, size);
    this.begin(addr, true, 1);
    const off = this.tPaddr & (LINE_BYTES - 1);
    this.line.fill(0);
    for (let i = 0; i < size; i++) this.line[off + i] = this.val[i]!;
    this.appendWrite(this.lineId(this.tPaddr), (size === 8 ? 0xff : (1 << size) - 1) << off, this.line, this.line32, 0, this.now);
  }

  /**
   * A runtime's copy of whole lines (a DSM runtime's twins, diffs and page updates): reads
   * `lines` 32-byte lines from `addr` (line aligned) into `out` from word `outWord`, as this core
   * sees memory. Each line is one cache access (as a load: L1, L2 or memory) and retires 8
   * instructions (model: a copy loop's eight word moves ride on the line's access). Checks page
   * protection like a load. No allocation.
   */
  loadLines(addr: number, lines: number, out: Uint32Array, outWord: number): void {
    this.checkAlign(addr, LINE_BYTES);
    for (let k = 0; k < lines; k++) {
      this.begin(addr + k * LINE_BYTES, false, 8);
      this.readMemLine(this.lineId(this.tPaddr), out, outWord + 8 * k);
    }
  }

  /** The store side of loadLines: writes `lines` whole lines from `src` (from word `srcWord`) at `addr`. */
  storeLines(addr: number, lines: number, src: Uint32Array, srcWord: number): void {
    this.checkAlign(addr, LINE_BYTES);
    for (let k = 0; k < lines; k++) {
      this.begin(addr + k * LINE_BYTES, true, 8);
      this.appendWrite(this.lineId(this.tPaddr), FULL_MASK, this.line, src, 4 * (srcWord + 8 * k), this.now); // a full line: the byte view is not read
    }
  }

  // ---------------------------------------------------------------- messages

  /**
   * Byte times a datagram of `bytes` takes on a link: one frame per fragment of up to
   * maxPayloadBytes (frame overhead, IP/UDP headers, padding to the minimum frame, preamble and
   * gap each).
   */
  wireBytes(bytes: number): number {
    const full = Math.floor((bytes - 1) / this.chip.config.network.maxPayloadBytes);
    return full * this.frameBytes(this.chip.config.network.maxPayloadBytes) + this.frameBytes(bytes - full * this.chip.config.network.maxPayloadBytes);
  }

  /** Byte times of one frame carrying `bytes` of a datagram (headers, padding, preamble and gap). */
  private frameBytes(bytes: number): number {
    const n = this.chip.config.network;
    return Math.max(n.frameOverheadBytes + n.headerBytes + bytes, n.minFrameBytes) + n.gapBytes;
  }

  /** Byte times of the first frame of a datagram of `bytes` (the switch forwards it when it is whole). */
  private firstFrameBytes(bytes: number): number {
    return this.frameBytes(Math.min(bytes, this.chip.config.network.maxPayloadBytes));
  }

  private slotOffset(dst: number, src: number, seq: number): number {
    const chip = this.chip;
    return chip.slotBase + ((dst * chip.nodes + src) * chip.slotsPerPair + ((seq - 1) % chip.slotsPerPair)) * chip.slotBytes;
  }

  private checkNode(node: number, what: string): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.chip.nodes)
      throw new SimulationError(`node ${this.id}: ${what} node ${node} does not exist (0..${this.chip.nodes - 1})`);
    if (node === this.id) throw new SimulationError(`node ${this.id}: ${what} itself; a message goes to another node`);
  }

  /**
   * Sends `sizeBytes` (default payload.length) bytes of `payload` to node `to` as one UDP
   * datagram (IP fragments of maxPayloadBytes, one frame each, back to back on the link).
   * Returns after the sender's CPU time; the frames travel on their own.
   */
  send(to: number, payload: Uint8Array, sizeBytes: number = payload.length): void {
    const chip = this.chip;
    const net = chip.config.network;
    this.checkNode(to, 'sends to');
    if (!Number.isInteger(sizeBytes) || sizeBytes < 1 || sizeBytes > net.maxDatagramBytes || sizeBytes > payload.length)
      throw new SimulationError(`node ${this.id}: a message carries 1..${net.maxDatagramBytes} bytes (network.maxDatagramBytes) from its payload of ${payload.length}, got ${sizeBytes}`);
    this.compute(net.sendOverheadCycles + Math.round(net.sendPerByteCycles * sizeBytes));
    const serPs = this.wireBytes(sizeBytes) * chip.bytePs;
    const start = Math.max(this.now, this.uplinkFreePs);
    this.uplinkFreePs = start + serPs;
    // store-and-forward per frame: the first frame leaves the switch when it is whole; the rest
    // follow back to back (no later frame is longer than the first)
    const switchOutPs = start + this.firstFrameBytes(sizeBytes) * chip.bytePs + chip.switchLatencyPs;
    const arrivalPs = switchOutPs + serPs;
    const seq = ++this.sendSeq[to]!;
    const base = this.slotOffset(to, this.id, seq);
    const l32 = this.line32;
    for (let off = 0; off < sizeBytes; off += LINE_BYTES) {
      l32.fill(0);
      const n = Math.min(LINE_BYTES, sizeBytes - off);
      for (let i = 0; i < n; i++) this.line[i] = payload[off + i]!;
      this.appendWrite(dramLineId(0, base + LINE_BYTES + off), FULL_MASK, this.line, l32, 0, arrivalPs);
    }
    // the header last (the same visible time; later in the write order): a receiver that sees it sees the payload
    l32.fill(0);
    l32[0] = seq;
    l32[1] = sizeBytes;
    this.lineDv.setFloat64(8, switchOutPs, true);
    this.appendWrite(dramLineId(0, base), FULL_MASK, this.line, l32, 0, arrivalPs);
    // then the receiver's arrival counter (counted at commit, after the header)
    this.appendRequest(WLOG_UNIT, this.arrivalLine(to), 0, arrivalPs);
    this.countMessage(to);
    this.c[this.cb + C.bytesSent] += sizeBytes;
  }

  /** The line where `receiver` counts the datagrams it took from `sender` (word 0). */
  private takenLine(receiver: number, sender: number): number {
    return dramLineId(0, this.chip.takenBase + (receiver * this.chip.nodes + sender) * LINE_BYTES);
  }

  /**
   * Call before send(to, payload, sizeBytes) from a program that may send more than
   * slotsPerPair datagrams to one node before it takes them: blocks until the receiver has taken
   * the datagram whose slot the next one reuses (flow control, see the contract), then yields
   * DUE if the datagram would overflow this epoch's write log. No cost when neither applies.
   */
  *sendReady(to: number, sizeBytes: number): Sim<void> {
    this.checkNode(to, 'sends to');
    const need = this.sendSeq[to]! + 1 - this.chip.slotsPerPair; // the oldest slot's datagram
    if (need >= 1) {
      const line = this.takenLine(to, this.id);
      this.readMemLine(line, this.line32, 0);
      if (this.line32[0]! < need) {
        this.sendWaits++;
        this.prepareBlock();
        this.waitOn.core = to;
        yield* this.waitLine(line, 0, 4, '>=', need, 0, STALL_NETWORK, 0, this.waitOn);
      }
    }
    // header line, payload lines and the arrival counter's request
    if (this.logCount + Math.ceil(sizeBytes / LINE_BYTES) + 2 > this.wlogCap) yield YIELD_DUE;
  }

  private arrivalLine(node: number): number {
    return dramLineId(0, this.chip.arrivalBase + node * LINE_BYTES);
  }

  /** Node that sent the datagram the last receive or receiveAny took. */
  lastFrom = -1;
  /** Datagrams this node has taken (receive and receiveAny). */
  private taken = 0;

  /**
   * Receives the next message from node `from` into `out` (its first out.length bytes, if
   * given); returns the message's size in bytes.
   */
  *receive(from: number, out?: Uint8Array): Sim<number> {
    this.checkNode(from, 'receives from');
    const expect = this.recvSeq[from]! + 1;
    const head = dramLineId(0, this.slotOffset(this.id, from, expect));
    this.prepareBlock();
    const calledPs = this.now;
    this.waitOn.core = from;
    yield* this.waitLine(head, 0, 4, '>=', expect, 0, STALL_NETWORK, 0, this.waitOn);
    return this.take(from, calledPs, out);
  }

  /**
   * Receives the next datagram from any node (recvfrom on one socket): of the datagrams
   * delivered and not yet taken, the one whose first frame left the switch first (then the
   * lower node); blocks until one arrives. Sets `lastFrom`; returns its size in bytes.
   */
  *receiveAny(out?: Uint8Array): Sim<number> {
    this.prepareBlock();
    const calledPs = this.now;
    this.waitOn.core = -1;
    yield* this.waitLine(this.arrivalLine(this.id), 0, 4, '>=', this.taken + 1, 0, STALL_NETWORK, 0);
    const from = this.nextSender();
    if (from < 0) throw new SimulationError(`node ${this.id}: the arrival counter says a datagram is here, but no sender's slot holds one`);
    return this.take(from, calledPs, out);
  }

  /**
   * When the earliest datagram this node has not taken reaches it (its last frame delivered on
   * an idle link), ps; Infinity when none is here. For a runtime that serves requests as they
   * arrive (a SIGIO handler): it compares this with `now` between pieces of work. One line read
   * when nothing is waiting.
   */
  pendingArrivalPs(): number {
    this.readMemLine(this.arrivalLine(this.id), this.line32, 0);
    if (this.line32[0]! <= this.taken) return Infinity;
    const from = this.nextSender();
    if (from < 0) return Infinity;
    this.readMemLine(dramLineId(0, this.slotOffset(this.id, from, this.recvSeq[from]! + 1)), this.line32, 0);
    return this.lineDv.getFloat64(8, true) + this.wireBytes(this.line32[1]!) * this.chip.bytePs;
  }

  /** The sender whose next datagram left the switch first (then the lower node), or -1. */
  private nextSender(): number {
    let best = -1;
    let bestPs = Infinity;
    for (let s = 0; s < this.chip.nodes; s++) {
      if (s === this.id) continue;
      const expect = this.recvSeq[s]! + 1;
      this.readMemLine(dramLineId(0, this.slotOffset(this.id, s, expect)), this.line32, 0);
      if (this.line32[0]! !== expect) continue;
      const t = this.lineDv.getFloat64(8, true);
      if (t < bestPs) {
        bestPs = t;
        best = s;
      }
    }
    return best;
  }

  /** Takes the next datagram from `from` (its header is visible): link time, CPU time, copy out. */
  private take(from: number, calledPs: number, out: Uint8Array | undefined): number {
    const chip = this.chip;
    const net = chip.config.network;
    const expect = this.recvSeq[from]! + 1;
    const base = this.slotOffset(this.id, from, expect);
    this.readMemLine(dramLineId(0, base), this.line32, 0);
    const seq = this.line32[0]!;
    if (seq !== expect)
      throw new SimulationError(
        `node ${this.id}: node ${from} sent message ${seq} before this node received message ${expect}: more than network.slotsPerPair (${chip.slotsPerPair}) messages waiting from one sender`,
      );
    const bytes = this.line32[1]!;
    const switchOutPs = this.lineDv.getFloat64(8, true);
    this.recvSeq[from] = expect;
    this.taken++;
    this.lastFrom = from;
    // the receiver's link: a FIFO in the order this node takes its messages
    const serPs = this.wireBytes(bytes) * chip.bytePs;
    const start = Math.max(switchOutPs, this.downlinkFreePs);
    const delivered = start + serPs;
    this.downlinkFreePs = delivered;
    this.lastWireWaitPs = start - switchOutPs;
    if (delivered > this.now) {
      this.stall(STALL_NETWORK, delivered - this.now);
      this.now = delivered;
    }
    // a process that slept for the message is woken and scheduled again; one that finds it queued is not
    const slept = this.now > calledPs;
    this.compute(net.receiveOverheadCycles + (slept ? net.receiveWakeupCycles : 0) + Math.round(net.receivePerByteCycles * bytes));
    if (out) {
      const n = Math.min(out.length, bytes);
      for (let off = 0; off < n; off += LINE_BYTES) {
        this.readMemLine(dramLineId(0, base + LINE_BYTES + off), this.line32, 0);
        for (let i = 0; i < LINE_BYTES && off + i < n; i++) out[off + i] = this.line[i]!;
      }
    }
    this.c[this.cb + C.messagesReceived] += 1;
    this.c[this.cb + C.bytesReceived] += bytes;
    // the slot is free again: the sender's flow control (sendReady) reads this
    this.line32.fill(0);
    this.line32[0] = expect;
    this.appendWrite(this.takenLine(this.id, from), FULL_MASK, this.line, this.line32, 0, this.now);
    return bytes;
  }

  /**
   * Charges the signal delivery that interrupts a computing process for a datagram (SIGIO;
   * kernel.sigioCycles), for a runtime that serves requests from its handler.
   */
  interrupt(): void {
    this.compute(this.chip.config.kernel.sigioCycles);
  }

  /** Protects this node's pages [base, base + bytes) (page-protection.ts) with the preset's trap cost. */
  protectPages(base: number, bytes: number, pageBytes: number, initial: number, handler: (addr: number, write: boolean) => Sim<void>): void {
    this.enableProtection({ base, bytes, pageBytes, initial, trapCycles: this.chip.config.kernel.faultTrapCycles }, handler);
  }

  /** mprotect of one page: sets its level and charges kernel.mprotectCycles. */
  mprotect(page: number, level: number): void {
    this.protection.set(page, level);
    this.compute(this.chip.config.kernel.mprotectCycles);
  }

  /** One mprotect call over `pages` pages from `first` (one kernel.mprotectCycles charge). */
  mprotectRange(first: number, pages: number, level: number): void {
    for (let p = first; p < first + pages; p++) this.protection.set(p, level);
    this.compute(this.chip.config.kernel.mprotectCycles);
  }

  protected cacheLines(level: 1 | 2): number {
    return level === 1 ? this.l1.valid : this.l2.valid;
  }
}
