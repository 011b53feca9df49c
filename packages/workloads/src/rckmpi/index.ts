/**
 * RCKMPI: an MPI subset over the SCC's message-passing buffers, with the two channel layouts
 * of scc.md section 3 (see layout.ts for the byte layouts).
 *
 * Progress engine (as in MPICH's ch3 channels): every wait runs passes. A pass
 *  1. invalidates the MPBT lines in L1 (CL1INVMB), then pushes pending sends (original: a
 *     remote read of the section flag at the receiver, then the payload and metadata written
 *     into that section; improved: payload copied into free 128 B slots of this process's own
 *     extended section, then metadata posted in the base section at the receiver);
 *  2. reads, in this process's own MPB, the metadata of EVERY section, ranks 0..n-1 (n - 1
 *     reads: this is why polling cost grows with the number of processes);
 *  3. takes each new packet: copies its payload into the posted receive buffer or into an
 *     unexpected-message buffer in private memory, then releases the space (original: clears
 *     the section flag; improved: writes its receive sequence number into the sender's MPB);
 *  4. matches posted receives with complete unexpected messages.
 * When a pass finds nothing to do, the process sleeps until its wake word changes (layout.ts).
 *
 * Point-to-point order is FIFO per pair; a receive must name its source (no MPI_ANY_SOURCE)
 * and tags are 8-bit and must match in order. Collectives follow MPICH2's algorithms:
 * dissemination barrier, binomial bcast / gather / scatter / reduce, allreduce = reduce + bcast.
 */
import { DUE, type SccCore, type Sim } from '@manycore/engine';
import { Arena, copy } from '../lib/mem';
import {
  IMP_BASE,
  IMP_EXT,
  IMP_INLINE,
  IMP_MASK,
  IMP_MAX_PROCS,
  IMP_META,
  IMP_PACKET_SLOTS,
  IMP_SLOT,
  IMP_SLOTS,
  IMP_WAKE,
  ORIG_META,
  ORIG_WAKE,
  originalSectionBytes,
  type Channel,
} from './layout';

export * from './layout';

/** Cycles of one floating-point add in a reduction (model: P54C x87, pipelined). */
export const FADD_CYCLES = 2;
/** Instructions around each section check of a pass: load, compare, branch, loop (model). */
export const POLL_CYCLES = 8;
/** Software cost of handling one packet at either end: header build or parse, request matching (model). */
export const PACKET_CYCLES = 60;

const NOTHING = 0;
const PROGRESS = 1;
const NEW_PACKET = 2;

export interface SendRequest {
  kind: 'send';
  peer: number; // rank
  buf: number;
  bytes: number;
  tag: number;
  placed: number; // bytes assigned to packets
  done: boolean;
}
export interface RecvRequest {
  kind: 'recv';
  peer: number;
  buf: number;
  bytes: number;
  tag: number;
  received: number;
  done: boolean;
}
export type Request = SendRequest | RecvRequest;

interface Staged {
  req: SendRequest;
  off: number;
  n: number;
  mask: number;
}

interface Out {
  queue: SendRequest[];
  seq: number; // original: last packet number written (1..); improved: send sequence (mod 2^16)
  posted: boolean; // a packet is in the section at the receiver, not yet released
  ackSeq: number; // improved: receiver's receive sequence number for us
  postedMask: number;
  staged: Staged | null;
}

interface Incoming {
  size: number;
  tag: number;
  received: number;
  addr: number;
  req: RecvRequest | null;
}

interface In {
  seq: number; // improved: packets consumed (mod 2^16)
  cur: Incoming | null;
  unexpected: { addr: number; size: number; tag: number }[];
  posted: RecvRequest[];
}

/** Counters of the protocol work a process did (reported by the workloads). */
export interface MpiStats {
  passes: number;
  sectionReads: number;
  packetsIn: number;
  packetsOut: number;
  wakes: number;
}

export class Mpi {
  readonly core: SccCore;
  readonly channel: Channel;
  /** Core id of each rank. */
  readonly members: readonly number[];
  readonly rank: number;
  readonly size: number;
  readonly stats: MpiStats = { passes: 0, sectionReads: 0, packetsIn: 0, packetsOut: 0, wakes: 0 };
  /** Bytes per section (original) / 64 (improved). */
  readonly sectionBytes: number;
  private readonly out: Out[];
  private readonly inn: In[];
  private readonly active = new Set<number>();
  private readonly wakeAddr: number;
  private snap = 0;
  private ringSeq = 0;
  private extMask = 0; // improved: occupancy of this process's extended section
  private readonly unexpectedArena: Arena;
  /** Scratch memory for collectives (temporary buffers), private. */
  readonly scratch: Arena;
  private unexpectedCount = 0;

  constructor(core: SccCore, members: readonly number[], channel: Channel, privateScratch: { base: number; bytes: number }) {
    this.core = core;
    this.channel = channel;
    this.members = members;
    this.rank = members.indexOf(core.id);
    if (this.rank < 0) throw new Error(`core ${core.id} is not an MPI process`);
    this.size = members.length;
    if (core.chip.mpbBytes / core.chip.topo.coresPerTile < 8192) throw new Error('RCKMPI needs an 8 KB MPB region per core');
    if (channel === 'improved' && this.size > IMP_MAX_PROCS)
      throw new Error(`the improved channel has ${IMP_MAX_PROCS} base sections: at most ${IMP_MAX_PROCS} processes`);
    this.sectionBytes = channel === 'original' ? originalSectionBytes(this.size) : IMP_BASE;
    if (channel === 'original' && this.sectionBytes <= ORIG_META) throw new Error(`too many processes for the original layout (${this.size})`);
    this.wakeAddr = core.mpbOf(core.id, channel === 'original' ? ORIG_WAKE : IMP_WAKE);
    this.out = Array.from({ length: this.size }, () => ({ queue: [], seq: 0, posted: false, ackSeq: 0, postedMask: 0, staged: null }));
    this.inn = Array.from({ length: this.size }, () => ({ seq: 0, cur: null, unexpected: [], posted: [] }));
    const half = Math.floor(privateScratch.bytes / 2 / 32) * 32;
    this.unexpectedArena = new Arena(privateScratch.base, privateScratch.base + half);
    this.scratch = new Arena(privateScratch.base + half, privateScratch.base + 2 * half);
  }

  // ------------------------------------------------------------------ addresses

  /** Section written by rank `writer` in the MPB of rank `owner`. */
  private section(owner: number, writer: number): number {
    return this.core.mpbOf(this.members[owner]!, writer * this.sectionBytes);
  }

  private ring(rank: number): void {
    this.ringSeq = (this.ringSeq + 1) & 0xffffff;
    this.core.store32(this.core.mpbOf(this.members[rank]!, this.channel === 'original' ? ORIG_WAKE : IMP_WAKE), ((this.core.id << 24) | this.ringSeq) >>> 0);
    this.core.drainWcb();
  }

  // ------------------------------------------------------------------ point to point

  isend(buf: number, bytes: number, dst: number, tag = 0): SendRequest {
    this.checkPeer(dst, bytes, tag);
    const r: SendRequest = { kind: 'send', peer: dst, buf, bytes, tag, placed: 0, done: false };
    this.out[dst]!.queue.push(r);
    this.active.add(dst);
    return r;
  }

  irecv(buf: number, bytes: number, src: number, tag = 0): RecvRequest {
    this.checkPeer(src, bytes, tag);
    const r: RecvRequest = { kind: 'recv', peer: src, buf, bytes, tag, received: 0, done: false };
    this.inn[src]!.posted.push(r);
    return r;
  }

  private checkPeer(peer: number, bytes: number, tag: number): void {
    if (!Number.isInteger(peer) || peer < 0 || peer >= this.size || peer === this.rank)
      throw new Error(`MPI: rank ${this.rank} cannot talk to rank ${peer} (size ${this.size})`);
    if (bytes < 0 || bytes >= 1 << 24) throw new Error(`MPI: message of ${bytes} B is beyond this implementation's 16 MB`);
    if (tag < 0 || tag > 255) throw new Error(`MPI: tags are 0..255 here (got ${tag})`);
  }

  *send(buf: number, bytes: number, dst: number, tag = 0): Sim<void> {
    yield* this.waitAll([this.isend(buf, bytes, dst, tag)]);
  }

  *recv(buf: number, bytes: number, src: number, tag = 0): Sim<void> {
    yield* this.waitAll([this.irecv(buf, bytes, src, tag)]);
  }

  *sendrecv(sbuf: number, sbytes: number, dst: number, rbuf: number, rbytes: number, src: number, tag = 0): Sim<void> {
    const r = this.irecv(rbuf, rbytes, src, tag);
    const s = this.isend(sbuf, sbytes, dst, tag);
    yield* this.waitAll([r, s]);
  }

  *wait(r: Request): Sim<void> {
    yield* this.waitAll([r]);
  }

  /** Runs the progress engine until every request is complete. */
  *waitAll(rs: readonly Request[]): Sim<void> {
    const core = this.core;
    for (;;) {
      const progressed = yield* this.pass();
      if (rs.every((r) => r.done)) return;
      if (!progressed) {
        this.stats.wakes++;
        yield* core.waitUntil(this.wakeAddr, '!=', this.snap);
      } else if (core.due()) yield DUE;
    }
  }

  /** One pass of the progress engine; true when anything moved. */
  private *pass(): Sim<boolean> {
    const core = this.core;
    this.stats.passes++;
    core.invalidateMpbt();
    this.snap = core.load32(this.wakeAddr);
    let progressed = false;
    for (const dst of this.active) {
      if (this.channel === 'original' ? yield* this.pushOriginal(dst) : yield* this.pushImproved(dst)) progressed = true;
      const o = this.out[dst]!;
      if (o.queue.length === 0 && !o.staged) this.active.delete(dst);
      if (core.due()) yield DUE;
    }
    const original = this.channel === 'original';
    for (let s = 0; s < this.size; s++) {
      if (s === this.rank) continue;
      core.compute(POLL_CYCLES);
      this.stats.sectionReads++;
      // the metadata read decides; only a new packet needs the (generator) copy path
      const found = original ? this.peekOriginal(s) : this.peekImproved(s);
      if (found === NEW_PACKET) yield* original ? this.takeOriginal(s) : this.takeImproved(s);
      if (found !== NOTHING) progressed = true;
      if (core.due()) yield DUE;
    }
    if (this.unexpectedCount > 0 && (yield* this.matchUnexpected())) progressed = true;
    return progressed;
  }

  // ------------------------------------------------------------------ receiving

  /** Copies one packet's payload segments into the message being received from `src`. */
  private *deliver(src: number, sizeTag: number, segs: readonly number[]): Sim<void> {
    const inn = this.inn[src]!;
    const size = sizeTag & 0xffffff;
    const tag = sizeTag >>> 24;
    if (!inn.cur) {
      const head = inn.posted[0];
      if (head && inn.unexpected.length === 0) {
        if (head.tag !== tag) throw new Error(`MPI: rank ${this.rank} expected tag ${head.tag} from rank ${src}, got ${tag}`);
        if (size > head.bytes) throw new Error(`MPI: message of ${size} B from rank ${src} truncated to ${head.bytes} B`);
        inn.posted.shift();
        inn.cur = { size, tag, received: 0, addr: head.buf, req: head };
      } else {
        if (this.unexpectedCount === 0) this.unexpectedArena.reset();
        inn.cur = { size, tag, received: 0, addr: this.unexpectedArena.alloc(Math.max(size, 32)), req: null };
        this.unexpectedCount++;
      }
    }
    const cur = inn.cur;
    this.core.compute(PACKET_CYCLES);
    for (let i = 0; i < segs.length; i += 2) {
      yield* copy(this.core, cur.addr + cur.received, segs[i]!, segs[i + 1]!);
      cur.received += segs[i + 1]!;
    }
    this.stats.packetsIn++;
    if (cur.received >= cur.size) {
      inn.cur = null;
      if (cur.req) {
        cur.req.received = cur.size;
        cur.req.done = true;
      } else inn.unexpected.push({ addr: cur.addr, size: cur.size, tag: cur.tag });
    }
  }

  private *matchUnexpected(): Sim<boolean> {
    let any = false;
    for (let src = 0; src < this.size; src++) {
      const inn = this.inn[src]!;
      while (inn.posted.length > 0 && inn.unexpected.length > 0) {
        const r = inn.posted.shift()!;
        const m = inn.unexpected.shift()!;
        if (r.tag !== m.tag) throw new Error(`MPI: rank ${this.rank} expected tag ${r.tag} from rank ${src}, got ${m.tag}`);
        if (m.size > r.bytes) throw new Error(`MPI: message of ${m.size} B from rank ${src} truncated to ${r.bytes} B`);
        yield* copy(this.core, r.buf, m.addr, m.size);
        r.received = m.size;
        r.done = true;
        this.unexpectedCount--;
        any = true;
      }
    }
    return any;
  }

  private peekOriginal(src: number): number {
    return this.core.load32(this.section(this.rank, src)) === 0 ? NOTHING : NEW_PACKET;
  }

  private *takeOriginal(src: number): Sim<void> {
    const core = this.core;
    const sec = this.section(this.rank, src);
    const n = core.load32(sec + 4);
    const sizeTag = core.load32(sec + 8);
    yield* this.deliver(src, sizeTag, [sec + ORIG_META, n]);
    core.store32(sec, 0); // the section is free again
    this.ring(src);
  }

  private readonly segs: number[] = [];

  private peekImproved(src: number): number {
    const core = this.core;
    const base = this.section(this.rank, src);
    // the 16 B of metadata share one line: the first load brings it in, the others hit L1
    const sseq = core.load16(base + 14);
    const acked = this.out[src]!.posted ? this.acked(src, core.load16(base + 12)) : false;
    if (sseq === ((this.inn[src]!.seq + 1) & 0xffff)) return NEW_PACKET;
    return acked ? PROGRESS : NOTHING;
  }

  private *takeImproved(src: number): Sim<void> {
    const core = this.core;
    const base = this.section(this.rank, src);
    const inn = this.inn[src]!;
    const sseq = core.load16(base + 14);
    const cks = core.load16(base);
    const pbytes = core.load16(base + 2);
    const mask = core.load32(base + 4);
    const sizeTag = core.load32(base + 8);
    if (cks !== checksum(pbytes, mask, sizeTag, sseq))
      throw new Error(`MPI: rank ${this.rank}: bad metadata checksum in the base section of rank ${src}`);
    const segs = this.segs;
    segs.length = 0;
    if (mask === 0) segs.push(base + IMP_META, pbytes);
    else {
      const srcCore = this.members[src]!;
      let left = pbytes;
      for (let k = 0; k < IMP_SLOTS && left > 0; k++)
        if ((mask >>> (31 - k)) & 1) {
          const len = Math.min(IMP_SLOT, left);
          segs.push(core.mpbOf(srcCore, IMP_EXT + k * IMP_SLOT), len);
          left -= len;
        }
    }
    yield* this.deliver(src, sizeTag, segs);
    inn.seq = sseq;
    core.store16(this.section(src, this.rank) + 12, sseq); // receive sequence number, at the sender
    this.ring(src);
  }

  // ------------------------------------------------------------------ sending

  private *pushOriginal(dst: number): Sim<boolean> {
    const core = this.core;
    const o = this.out[dst]!;
    const req = o.queue[0];
    if (!req) return false;
    const sec = this.section(dst, this.rank);
    let progressed = false;
    if (o.posted) {
      if (core.load32(sec) !== 0) return false; // remote read: still full
      o.posted = false;
      progressed = true;
    }
    const cap = this.sectionBytes - ORIG_META;
    const n = Math.min(cap, req.bytes - req.placed);
    core.compute(PACKET_CYCLES);
    if (req.placed === 0) core.countMessage(this.members[dst]!, req.bytes);
    yield* copy(core, sec + ORIG_META, req.buf + req.placed, n);
    o.seq = o.seq >= 0x7fffffff ? 1 : o.seq + 1;
    core.store32(sec + 4, n);
    core.store32(sec + 8, (req.bytes | (req.tag << 24)) >>> 0);
    core.store32(sec, o.seq); // flag last: same line, one write-combined store
    this.ring(dst);
    req.placed += n;
    this.stats.packetsOut++;
    if (req.placed >= req.bytes) {
      req.done = true;
      o.queue.shift();
    }
    o.posted = true;
    return progressed || true;
  }

  /** Copies the next piece of the head request into free extended slots (or marks it inline). */
  private *stage(o: Out): Sim<boolean> {
    const core = this.core;
    const req = o.queue[0];
    if (!req || o.staged) return false;
    const off = req.placed;
    const rem = req.bytes - off;
    if (rem <= IMP_INLINE) {
      o.staged = { req, off, n: rem, mask: 0 };
      req.placed = req.bytes;
      o.queue.shift();
      return true;
    }
    const free = ~this.extMask >>> 0;
    if (free === 0) return false;
    const want = Math.min(Math.ceil(rem / IMP_SLOT), IMP_PACKET_SLOTS);
    let mask = 0;
    let got = 0;
    let n = 0;
    for (let k = 0; k < IMP_SLOTS && got < want; k++) {
      const bit = (1 << (31 - k)) >>> 0;
      if (!(free & bit)) continue;
      const len = Math.min(IMP_SLOT, rem - n);
      core.copy(core.mpbOf(core.id, IMP_EXT + k * IMP_SLOT), req.buf + off + n, len);
      if (core.due()) yield DUE;
      mask = (mask | bit) >>> 0;
      n += len;
      got++;
    }
    this.extMask = (this.extMask | mask) >>> 0;
    core.store32(core.mpbOf(core.id, IMP_MASK), this.extMask);
    req.placed += n;
    o.staged = { req, off, n, mask };
    if (req.placed >= req.bytes) o.queue.shift();
    return true;
  }

  /**
   * Handles the receive sequence number `rseq` that rank `peer` wrote for us: when it covers our
   * posted packet, the base section at peer is free again and the packet's slots are released.
   */
  private acked(peer: number, rseq: number): boolean {
    const o = this.out[peer]!;
    if (!o.posted || rseq !== o.seq) return false;
    o.posted = false;
    if (o.postedMask !== 0) {
      this.extMask = (this.extMask & ~o.postedMask) >>> 0;
      this.core.store32(this.core.mpbOf(this.core.id, IMP_MASK), this.extMask);
    }
    o.postedMask = 0;
    return true;
  }

  /** Posts the staged packet in our base section at the receiver, if that section is free. */
  private *post(dst: number, o: Out): Sim<boolean> {
    const p = o.staged;
    if (!p) return false;
    const core = this.core;
    // the receiver's acknowledgement is in our own MPB (a local read)
    if (o.posted && !this.acked(dst, core.load16(this.section(this.rank, dst) + 12))) return false;
    const base = this.section(dst, this.rank);
    core.compute(PACKET_CYCLES);
    if (p.off === 0) core.countMessage(this.members[dst]!, p.req.bytes);
    if (p.mask === 0 && p.n > 0) yield* copy(core, base + IMP_META, p.req.buf + p.off, p.n);
    const seq = (o.seq + 1) & 0xffff;
    const sizeTag = (p.req.bytes | (p.req.tag << 24)) >>> 0;
    core.store16(base + 2, p.n);
    core.store32(base + 4, p.mask);
    core.store32(base + 8, sizeTag);
    core.store16(base + 12, this.inn[dst]!.seq);
    core.store16(base + 14, seq);
    core.store16(base, checksum(p.n, p.mask, sizeTag, seq));
    this.ring(dst);
    o.seq = seq;
    o.posted = true;
    o.postedMask = p.mask;
    o.staged = null;
    // complete once its last packet is posted: after that no step of the sender is needed
    if (p.off + p.n >= p.req.bytes) p.req.done = true;
    this.stats.packetsOut++;
    return true;
  }

  private *pushImproved(dst: number): Sim<boolean> {
    const o = this.out[dst]!;
    let progressed = false;
    for (;;) {
      const posted = yield* this.post(dst, o);
      const staged = yield* this.stage(o);
      if (!posted && !staged) return progressed;
      progressed = true;
    }
  }

  // ------------------------------------------------------------------ collectives

  /** Dissemination barrier (MPICH2): ceil(log2 n) rounds of zero-byte sendrecv. */
  *barrier(): Sim<void> {
    const n = this.size;
    for (let k = 1; k < n; k <<= 1) yield* this.sendrecv(0, 0, (this.rank + k) % n, 0, 0, (this.rank - k + n) % n, 1);
  }

  /** Binomial-tree broadcast of `bytes` at buf from `root`. */
  *bcast(buf: number, bytes: number, root = 0): Sim<void> {
    const n = this.size;
    const rr = (this.rank - root + n) % n;
    let mask = 1;
    while (mask < n) {
      if (rr & mask) {
        yield* this.recv(buf, bytes, (this.rank - mask + n) % n, 2);
        break;
      }
      mask <<= 1;
    }
    mask >>= 1;
    while (mask > 0) {
      if (rr + mask < n) yield* this.send(buf, bytes, (this.rank + mask) % n, 2);
      mask >>= 1;
    }
  }

  /**
   * Binomial gather: every rank contributes `bytes` at sbuf; the root receives n x bytes in rank
   * order at rbuf. Inner nodes collect their subtree in a scratch buffer.
   */
  *gather(sbuf: number, rbuf: number, bytes: number, root = 0): Sim<void> {
    const n = this.size;
    const rr = (this.rank - root + n) % n;
    const core = this.core;
    // my subtree spans relative ranks rr .. rr + extent - 1
    let extent = 1;
    while (!(rr & extent) && rr + extent < n) extent <<= 1;
    extent = Math.min(extent, n - rr);
    const tmp = rr === 0 && root === 0 ? rbuf : this.scratch.alloc(Math.max(extent * bytes, 32));
    yield* copy(core, tmp, sbuf, bytes);
    let mask = 1;
    while (mask < n) {
      if (rr & mask) {
        yield* this.send(tmp, Math.min(mask, n - rr) * bytes, (this.rank - mask + n) % n, 3);
        break;
      }
      if (rr + mask < n) yield* this.recv(tmp + mask * bytes, Math.min(mask, n - rr - mask) * bytes, (this.rank + mask) % n, 3);
      mask <<= 1;
    }
    if (rr === 0 && root !== 0) {
      // relative order -> rank order
      const firstBlocks = n - root;
      yield* copy(core, rbuf + root * bytes, tmp, firstBlocks * bytes);
      yield* copy(core, rbuf, tmp + firstBlocks * bytes, root * bytes);
    }
    this.scratch.reset();
  }

  /** Binomial scatter: the root holds n x bytes at sbuf; each rank receives its `bytes` at rbuf. */
  *scatter(sbuf: number, rbuf: number, bytes: number, root = 0): Sim<void> {
    const n = this.size;
    const rr = (this.rank - root + n) % n;
    const core = this.core;
    let tmp: number;
    if (rr === 0) {
      if (root === 0) tmp = sbuf;
      else {
        tmp = this.scratch.alloc(n * bytes);
        yield* copy(core, tmp, sbuf + root * bytes, (n - root) * bytes);
        yield* copy(core, tmp + (n - root) * bytes, sbuf, root * bytes);
      }
    } else tmp = 0;
    let mask = 1;
    while (mask < n) {
      if (rr & mask) {
        const count = Math.min(mask, n - rr);
        tmp = this.scratch.alloc(Math.max(count * bytes, 32));
        yield* this.recv(tmp, count * bytes, (this.rank - mask + n) % n, 4);
        break;
      }
      mask <<= 1;
    }
    mask >>= 1;
    while (mask > 0) {
      if (rr + mask < n) yield* this.send(tmp + mask * bytes, Math.min(mask, n - rr - mask) * bytes, (this.rank + mask) % n, 4);
      mask >>= 1;
    }
    yield* copy(core, rbuf, tmp, bytes);
    this.scratch.reset();
  }

  /** Binomial reduction (sum) of `count` doubles at sbuf into rbuf at the root. */
  *reduce(sbuf: number, rbuf: number, count: number, root = 0): Sim<void> {
    const n = this.size;
    const rr = (this.rank - root + n) % n;
    const bytes = count * 8;
    const core = this.core;
    const acc = rr === 0 ? rbuf : this.scratch.alloc(Math.max(bytes, 32));
    const tmp = this.scratch.alloc(Math.max(bytes, 32));
    yield* copy(core, acc, sbuf, bytes);
    let mask = 1;
    while (mask < n) {
      if (rr & mask) {
        yield* this.send(acc, bytes, (this.rank - mask + n) % n, 5);
        break;
      }
      if (rr + mask < n) {
        yield* this.recv(tmp, bytes, (this.rank + mask) % n, 5);
        yield* accumulate(core, acc, tmp, count);
      }
      mask <<= 1;
    }
    this.scratch.reset();
  }

  /** Allreduce (sum of doubles): reduce to rank 0, then broadcast. */
  *allreduce(sbuf: number, rbuf: number, count: number): Sim<void> {
    yield* this.reduce(sbuf, rbuf, count, 0);
    yield* this.bcast(rbuf, count * 8, 0);
  }
}

/** 16-bit checksum of the packet fields of an improved base section. */
export function checksum(pbytes: number, mask: number, sizeTag: number, sseq: number): number {
  return (pbytes + (mask >>> 16) + (mask & 0xffff) + (sizeTag >>> 16) + (sizeTag & 0xffff) + sseq + 0x5a5a) & 0xffff;
}

const accA = new Float64Array(4);
const accB = new Float64Array(4);
const accAU8 = new Uint8Array(accA.buffer);
const accBU8 = new Uint8Array(accB.buffer);

/** dst[i] += src[i] for `count` doubles: real loads, adds and stores. */
export function* accumulate(core: SccCore, dst: number, src: number, count: number): Sim<void> {
  for (let i = 0; i < count; i += 4) {
    const k = Math.min(4, count - i);
    core.readRange(dst + i * 8, k * 8, accAU8);
    core.readRange(src + i * 8, k * 8, accBU8);
    for (let j = 0; j < k; j++) accA[j]! += accB[j]!;
    core.compute(k * FADD_CYCLES);
    core.writeRange(dst + i * 8, k * 8, accAU8);
    if ((i & 255) === 252 && core.due()) yield DUE;
  }
}
