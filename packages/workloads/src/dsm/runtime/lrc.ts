/**
 * Lazy release consistency, independent of the unit of sharing (a page in page.ts, an object in
 * the object runtime): intervals, vector timestamps, write notices, TreadMarks' lock and barrier
 * protocols, and request serving (../shared/reference/dsm.md section 2; paper 004 lines 82-96).
 *
 * Contract
 * - Interval: the epoch between two synchronisation operations of one processor, created
 *   lazily as TreadMarks does (TreadMarks sources, ParallelTools/Rice 1998: lock.c rev
 *   10.20.1.7.0.3 Tmk_lock_release and Tmk_lock_sigio_handler, barrier.c rev 10.6.1.10
 *   Tmk_barrier, interval.c rev 10.5.1.5 Tmk_interval_create and Tmk_interval_incorporate):
 *   the open interval is closed (1) at a barrier arrival; (2) at a lock release when another
 *   processor's request for that lock waits here (the grant follows); (3) when a request
 *   reaches the holder of a free lock's token and no interval was closed here since this
 *   processor's last release of that lock (`lockTime`, Tmk's lock->time == vt[me]); (4) while a
 *   grant is incorporated, before a notice invalidates a unit written in the open interval
 *   (Tmk: an incoming notice for a dirty page), with the vector timestamp of before the grant.
 *   An acquire closes nothing, and a release nobody waits for only records lockTime: the
 *   writes of several critical sections of one processor form one interval until another
 *   processor asks. A closed interval that wrote units gets the next number (vt[me] + 1), a
 *   copy of the vector timestamp and the list of units written: one write notice (unit,
 *   processor, interval) per unit. Intervals without writes are not numbered (Tmk: "Create an
 *   interval (and record) if a page is dirty").
 * - vt[p] = the highest interval of processor p incorporated here; intervals of p are
 *   incorporated in order. Incorporating interval (p, i) calls `invalidate(unit, p, i)` for each
 *   of its units (the runtime records the notice and invalidates its copy).
 * - Locks: lock l is managed by processor l mod procs, which initially holds its token. An
 *   acquire on a processor holding the free token is local (no message). Otherwise the acquirer
 *   sends LOCK_REQ (its vt) to the manager, which records the requester as the last one and
 *   forwards the request (LOCK_FWD) to the previous last requester (or handles it itself when it
 *   is that processor); the token holder grants when the lock is free (at once, or at its
 *   release): LOCK_GRANT carries every interval the acquirer has not seen (by its vt). Release
 *   is local. One acquire waiting for a grant = one round.
 * - Barrier: central manager, processor 0. Arrival (BAR_ARRIVE): the arriver's vt and its own
 *   intervals since its last barrier, kept by the manager until it reaches the barrier itself
 *   (incorporated then, in processor order); when all have arrived the manager sends each processor a
 *   departure (BAR_DEPART) with every interval it has not seen (by its arrival vt). One round
 *   per processor per barrier.
 * - Serving: every entry point (open, acquire, release, barrier, poll) first serves the
 *   datagrams that have arrived by `now` (pendingArrivalPs() <= now), charging one signal
 *   (interrupt(): the process was computing, SIGIO); every wait for a reply serves whatever
 *   arrives (receiveAny) until the reply is there. Unit requests (diffs, objects) go to
 *   `serveUnit`.
 * - Messages: each datagram starts with a 4-byte header (type 1 B, "more datagrams follow" 1 B,
 *   2 B zero); a message longer than one datagram is split and reassembled per sender. The
 *   fields follow TreadMarks' own encoding (1998 sources: interval.c rev 10.5.1.5
 *   Tmk_interval_request_proc / Tmk_interval_incorporate, "All fields of the message are
 *   unsigned shorts"; Tmk.h rev 10.27.1.23.0.3 struct req_syn), little-endian:
 *   - NPROCS = TMK_NPROCS = 32, a compile-time maximum (public Tmk.h rev 10.7.1.7.0.1,
 *     `#define TMK_NPROCS 32`): every vector time on the wire has NPROCS entries of 2 B, also
 *     when fewer processors run (entries beyond them are 0); a run of more processors uses
 *     NPROCS = processors (model: TreadMarks rebuilt with a larger TMK_NPROCS). A vector-time
 *     entry (an interval number) above 65,535 is an error, not wrapped.
 *   - Interval record: the processor id one's-complemented (~p, 2 B: "complemented to
 *     distinguish it from a page id"), its vector time (2 B x NPROCS; the interval's number is
 *     its own entry), then its write notices as ranges of consecutive units (TreadMarks merges
 *     dirty pages into runs, Tmk_page_dirty_merge / page->partner): a single unit = the unit
 *     (2 B), a run of two = first, last (4 B), a longer run = the marker ~NPROCS, first, last
 *     (6 B). No interval count and no notice count: a record ends where the next ~p or the
 *     message ends. Units must stay below ~NPROCS = 65,536 - NPROCS - 1 (TreadMarks' limit;
 *     65,503 at NPROCS = 32). When a run's unit ids do not (the page runtime's pages in use,
 *     the object runtime's OIDs, fixed at the first record this processor encodes or decodes),
 *     the ~p, the markers and every unit field are 4 B instead (lab: a wider field rather than
 *     a wrap; `unitBytes`). Size: 2 + 2 x NPROCS = 66 B + the ranges at NPROCS = 32.
 *   - Reduced record (write-notice reduction, below; the paper gives no encoding, model): ~p,
 *     the vector time, the marker ~(NPROCS + 1), the base interval's number (2 B), the units
 *     added as ranges, then, when units were removed, the marker ~(NPROCS + 2) and their
 *     ranges (with reduction, units must stay below ~(NPROCS + 2)).
 *   - LOCK_REQ / LOCK_FWD = lock 2 B + requester 2 B + vector time (2 B x NPROCS; TreadMarks'
 *     struct req_syn carries the lock id and the sender in its 8 B header, which the lab's 4 B
 *     header does not: model); LOCK_GRANT = lock 2 B + interval records; BAR_ARRIVE = vector
 *     time + the arriver's own interval records; BAR_DEPART = interval records.
 *   Only bytes (and the time they take) depend on the encoding: the messages, their rounds and
 *   the notices counted do not.
 * - Write-notice reduction (`noticeReduction`, off unless a runtime sets it; paper 004 line
 *   100): closing an interval, the creator scans its own earlier intervals backwards
 *   (reduceNotices) and, when one is similar (the difference names fewer units than the
 *   interval), stores and sends the new one as a difference from it (the reduced record
 *   above). A receiver rebuilds the units from the base (incorporated before: intervals of one
 *   processor arrive in order) and forwards the difference as it came.
 * - Counters (stats): messages and bytes sent (datagrams, their sizes), rounds, write notices
 *   sent (units in the intervals of sent grants, arrivals and departures; for a reduced interval
 *   the units added and removed).
 * - Recording (record.ts, for the views; charges nothing): waits for a grant (lock), at a
 *   barrier (barrier) and serving on a signal (serve) as spans; notices per receiver; datagrams and their bytes by type.
 * - Host memory (bookkeeping of the simulator, charges nothing, changes no result): when a
 *   barrier completes here (the departure incorporated; the manager: every departure sent), this
 *   processor's vt is the barrier's (the manager's, which holds every interval) and no request
 *   is outstanding (an acquirer waiting for a grant cannot have arrived), so every later request
 *   carries a vt covering it: the intervals it covers are dropped (collect; `logFloor` counts
 *   them), except, with write-notice reduction, each processor's last REDUCTION_WINDOW (the
 *   bases a reduced interval may name). Paper 004 says nothing of TreadMarks' own garbage
 *   collection of consistency data (it validates pages first, which would cost messages): it is
 *   not modelled, the simulated run is the same with or without this.
 * Protocol bookkeeping (tables, encoding) is charged no CPU time (model: the per-message
 * software cost of the network, 25-30 us, dominates it); sends, receives, signals, mprotect
 * and traps are charged by the node.
 * Units: bytes, core cycles.
 */
import { DUE, type Sim } from '@manycore/engine';
import type { Dsm, DsmCore, DsmStats, SharedArrayDesc } from '../api';
import { zeroStats } from '../api';
import type { DsmTransport } from './transport';
import { DsmRecorder, K_BARRIER, K_LOCK, K_SERVE } from './record';

export const MSG = {
  LOCK_REQ: 1,
  LOCK_FWD: 2,
  LOCK_GRANT: 3,
  BAR_ARRIVE: 4,
  BAR_DEPART: 5,
  /** Unit requests and replies (a runtime's own) start here. */
  UNIT: 16,
} as const;

export const HEADER_BYTES = 4;

export interface Interval {
  readonly proc: number;
  readonly id: number;
  readonly vt: Int32Array;
  /** Sum of vt: a linear extension of happens-before (a < b implies sum(a) < sum(b)). */
  readonly vtSum: number;
  /** Units written (ascending when reduced), rebuilt by a receiver of a reduced interval. */
  readonly units: Int32Array;
  /** Write-notice reduction: the creator's earlier interval this one is sent as a difference from (0: sent whole). */
  readonly base?: number;
  /** The difference: units added to and removed from the base interval's. */
  readonly plus?: Int32Array;
  readonly minus?: Int32Array;
}

/** Earlier own intervals scanned backwards for a similar one (model: the paper does not say how far it looks). */
export const REDUCTION_WINDOW = 64;

/** TreadMarks' compile-time maximum of processors (public Tmk.h rev 10.7.1.7.0.1, 1998: `#define TMK_NPROCS 32`). */
export const TMK_NPROCS = 32;
/** Bytes of one vector-time entry (an interval number) on the wire: an unsigned short (Tmk.h struct interval, struct req_syn). */
export const VT_ENTRY_BYTES = 2;

/** NPROCS of the wire for a run of `procs` processors: TMK_NPROCS, or `procs` when more (model: TreadMarks rebuilt for them). */
export function wireProcs(procs: number): number {
  return Math.max(TMK_NPROCS, procs);
}

/** The largest value of a unit field of `unitBytes` bytes (the one's complement of 0). */
function fieldMax(unitBytes: number): number {
  return unitBytes === 2 ? 0xffff : 0xffffffff;
}

/**
 * Unit ids of a record must be below this (exclusive): the range marker ~NPROCS (TreadMarks:
 * page ids below 65,536 - NPROCS - 1 in 2 B fields), or ~(NPROCS + 2) with write-notice
 * reduction's two markers.
 */
export function unitLimit(nprocs: number, unitBytes: number, reduction: boolean): number {
  return fieldMax(unitBytes) - nprocs - (reduction ? 2 : 0);
}

/** Bytes of `units` as TreadMarks' write-notice ranges of consecutive units: 1 field for a single unit, 2 for a run of two, 3 (marker, first, last) for a longer run. */
export function rangeBytes(units: ArrayLike<number>, unitBytes: number): number {
  let fields = 0;
  for (let k = 0; k < units.length; ) {
    let j = k;
    while (j + 1 < units.length && units[j + 1] === units[j]! + 1) j++;
    fields += j === k ? 1 : j === k + 1 ? 2 : 3;
    k = j + 1;
  }
  return fields * unitBytes;
}

/** Bytes of one interval record on the wire (the contract's Messages): ~p, the vector time, the ranges (a reduced record: marker, base, added, [marker, removed]). */
export function intervalBytes(iv: Pick<Interval, 'units' | 'base' | 'plus' | 'minus'>, nprocs: number, unitBytes: number): number {
  const head = unitBytes + VT_ENTRY_BYTES * nprocs;
  if (!iv.base) return head + rangeBytes(iv.units, unitBytes);
  const minus = iv.minus!.length ? unitBytes + rangeBytes(iv.minus!, unitBytes) : 0;
  return head + unitBytes + VT_ENTRY_BYTES + rangeBytes(iv.plus!, unitBytes) + minus;
}

/**
 * Write-notice reduction (paper 004 line 100): the most recent of the creator's earlier intervals
 * (`own`, at most REDUCTION_WINDOW back) whose units differ from `units` (ascending) by fewer
 * than units.length - 2 units added or removed (model, counted in units: a base and a count
 * against the units themselves), with the difference; null when none is.
 */
export function reduceNotices(own: readonly Interval[], units: Int32Array): { base: number; plus: Int32Array; minus: Int32Array } | null {
  for (let k = own.length - 1; k >= 0 && k >= own.length - REDUCTION_WINDOW; k--) {
    const old = own[k]!.units;
    const budget = units.length - 2; // the difference must carry fewer than this many units
    let i = 0;
    let j = 0;
    let n = 0;
    while ((i < units.length || j < old.length) && n < budget) {
      if (j >= old.length || (i < units.length && units[i]! < old[j]!)) i++;
      else if (i >= units.length || old[j]! < units[i]!) j++;
      else {
        i++;
        j++;
        continue;
      }
      n++;
    }
    if (n >= budget) continue;
    const plus: number[] = [];
    const minus: number[] = [];
    i = j = 0;
    while (i < units.length || j < old.length) {
      if (j >= old.length || (i < units.length && units[i]! < old[j]!)) plus.push(units[i++]!);
      else if (i >= units.length || old[j]! < units[i]!) minus.push(old[j++]!);
      else {
        i++;
        j++;
      }
    }
    return { base: own[k]!.id, plus: Int32Array.from(plus), minus: Int32Array.from(minus) };
  }
  return null;
}

/** Units of an interval sent as a difference from `base` (ascending). */
function rebuild(base: Int32Array, plus: Int32Array, minus: Int32Array): Int32Array {
  const drop = new Set(minus);
  const out: number[] = [];
  for (let k = 0; k < base.length; k++) if (!drop.has(base[k]!)) out.push(base[k]!);
  for (let k = 0; k < plus.length; k++) out.push(plus[k]!);
  return Int32Array.from(out).sort();
}

/** A growable little-endian message being encoded (allocates only when it grows). */
export class Encoder {
  buf = new Uint8Array(1 << 16);
  dv = new DataView(this.buf.buffer);
  pos = 0;
  begin(type: number): void {
    this.pos = HEADER_BYTES;
    this.buf[0] = type;
  }
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.pos));
    this.buf = b;
    this.dv = new DataView(b.buffer);
  }
  u32(v: number): void {
    this.room(4);
    this.dv.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }
  u16(v: number): void {
    this.room(2);
    this.dv.setUint16(this.pos, v, true);
    this.pos += 2;
  }
  /** A unit field of `unitBytes` (2 or 4) bytes. */
  field(unitBytes: number, v: number): void {
    if (unitBytes === 2) this.u16(v);
    else this.u32(v);
  }
  bytes(src: Uint8Array): void {
    this.room(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }
  /** Appends src[from, from + n). */
  bytesFrom(src: Uint8Array, from: number, n: number): void {
    this.room(n);
    this.buf.set(src.subarray(from, from + n), this.pos);
    this.pos += n;
  }
  words(src: Uint32Array, from: number, n: number): void {
    this.room(4 * n);
    for (let i = 0; i < n; i++) this.dv.setUint32(this.pos + 4 * i, src[from + i]!, true);
    this.pos += 4 * n;
  }
}

export abstract class LrcRuntime implements Dsm {
  readonly me: number;
  readonly procs: number;
  /** NPROCS of the wire: entries of every vector time sent (wireProcs). */
  readonly nprocs: number;
  readonly core: DsmCore;
  /** The views' recording (record.ts): spans, notices per receiver, datagrams by type; charges nothing. */
  readonly recorder: DsmRecorder;
  readonly stats: DsmStats = zeroStats();
  /** vt[p]: highest interval of p incorporated here. */
  readonly vt: Int32Array;
  /** log[p][i - 1 - logFloor[p]]: interval i of processor p (every interval incorporated here and not yet dropped by collect). */
  readonly log: Interval[][];
  /** Intervals of each processor dropped after barriers (host memory only; see the contract). */
  readonly logFloor: Int32Array;
  protected readonly out = new Encoder();
  /** Host memory: drop the intervals no request can name again after each barrier (collect); off only to compare (tests). */
  hostCollect = true;
  /** Write-notice reduction (an object runtime's switch): own intervals stored and sent as differences from similar earlier ones; `units` must then be ascending. */
  protected noticeReduction = false;
  /** Bytes of a unit field on the wire (2, or 4 when the unit ids do not fit below unitLimit), fixed at first use. */
  private unitW = 0;
  private readonly plusScratch: number[] = [];
  private readonly minusScratch: number[] = [];
  private readonly inbuf: Uint8Array;
  private readonly partial: Array<Encoder | null>;
  // locks
  private readonly lockLast: Int32Array; // manager: last requester
  private readonly tokenHere: Uint8Array;
  private readonly held: Uint8Array;
  private readonly queued: Int32Array; // a forwarded request waiting for the token here, -1 none
  private readonly queuedVt: Int32Array; // its vt (procs per lock)
  private granted = -1;
  /** vt[me] at this processor's last release of each lock (Tmk lock->time). */
  private readonly lockTime: Int32Array;
  /** The vector timestamp before the grant being incorporated (Tmk: the acquirer's copy), for an interval closed during it. */
  private readonly vtBefore: Int32Array;
  private incorporating = false;
  // barrier
  private arrivals = 0;
  private readonly arrivedVt: Int32Array; // manager: each processor's vt at arrival
  private readonly arrived: Array<Uint8Array | null>; // manager: each arrival, incorporated at its own barrier
  private departed = false;
  /** Own interval number at the last barrier arrival (the manager has everything before it). */
  private lastBarrierId = 0;

  constructor(
    protected readonly t: DsmTransport,
    readonly locks: number,
  ) {
    this.me = t.me;
    this.procs = t.procs;
    this.nprocs = wireProcs(t.procs);
    if (locks > 0x10000) throw new Error(`dsm: ${locks} locks do not fit the 2-byte lock field of a lock request (at most 65,536)`);
    this.core = t.core;
    this.recorder = new DsmRecorder(t.core, t.procs);
    this.vt = new Int32Array(this.procs);
    this.log = Array.from({ length: this.procs }, () => []);
    this.logFloor = new Int32Array(this.procs);
    this.inbuf = new Uint8Array(t.maxDatagramBytes);
    this.partial = new Array<Encoder | null>(this.procs).fill(null);
    this.lockLast = new Int32Array(Math.max(locks, 1));
    for (let l = 0; l < locks; l++) this.lockLast[l] = l % this.procs;
    this.tokenHere = new Uint8Array(Math.max(locks, 1));
    for (let l = 0; l < locks; l++) this.tokenHere[l] = l % this.procs === this.me ? 1 : 0;
    this.held = new Uint8Array(Math.max(locks, 1));
    this.queued = new Int32Array(Math.max(locks, 1)).fill(-1);
    this.queuedVt = new Int32Array(Math.max(locks, 1) * this.procs);
    this.lockTime = new Int32Array(Math.max(locks, 1));
    this.vtBefore = new Int32Array(this.procs);
    this.arrivedVt = new Int32Array(this.procs * this.procs);
    this.arrived = new Array<Uint8Array | null>(this.procs).fill(null);
  }

  // ------------------------------------------------------------ the unit runtime's part

  abstract alloc(name: string, count: number, objectBytes: number): SharedArrayDesc;
  abstract open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number>;
  /** Units written in the interval being closed (then forgotten); empty when none. */
  protected abstract takeDirty(): Int32Array;
  /** The interval `id` of this processor was closed with `units` (the runtime's bookkeeping: twins, protection). */
  protected abstract intervalClosed(id: number, units: Int32Array): void;
  /** Whether `unit` was written (or made writable) here in the open interval: a notice for it closes the interval first. */
  protected abstract writtenInOpenInterval(unit: number): boolean;
  /** A write notice (unit, proc, id) arrived (the interval's vector-timestamp sum `vtSum`): record it, invalidate the local copy. */
  protected abstract invalidate(unit: number, proc: number, id: number, vtSum: number): void;
  /** Unit ids in use (pages allocated, OIDs): every unit a record names is below it; sets the wire's unit field width. */
  protected abstract unitIds(): number;
  /** A unit message (type >= MSG.UNIT) from `from`, body at [HEADER_BYTES, len) of `msg`. */
  protected abstract serveUnit(type: number, from: number, msg: Uint8Array, dv: DataView, len: number): Sim<void>;
  /**
   * The invalidations of a grant's or a departure's records are all done (the barrier manager:
   * its arrivals', after it sent the departures): a runtime that merges its mprotect calls makes
   * them now (TreadMarks page.c Tmk_page_inval_perform, called at the end of
   * Tmk_interval_incorporate and, for the manager, after Tmk_barrier's sends). Default: nothing.
   */
  protected invalidationsDone(): void {}

  // ------------------------------------------------------------ messages

  /**
   * Sends the encoded message to `to`, split into datagrams of at most maxDatagramBytes. Before
   * each datagram the transport's sendReady (when it has one) may block (the receiver's socket
   * buffer is full of this processor's datagrams) or yield (the write log is full): nothing else
   * runs on this processor meanwhile, so `out` stays intact.
   */
  protected *sendOut(to: number): Sim<void> {
    this.recorder.sendingTo(to);
    const e = this.out;
    const max = this.t.maxDatagramBytes;
    const body = e.pos - HEADER_BYTES;
    if (body + HEADER_BYTES <= max) {
      e.buf[1] = 0;
      yield* this.datagram(to, e.buf, e.pos);
      return;
    }
    // split: each datagram repeats the 4-byte header, with "more" set on all but the last
    const chunk = max - HEADER_BYTES;
    const type = e.buf[0]!;
    const tmp = this.inbufOut ?? (this.inbufOut = new Uint8Array(max));
    for (let off = 0; off < body; off += chunk) {
      const n = Math.min(chunk, body - off);
      tmp[0] = type;
      tmp[1] = off + n < body ? 1 : 0;
      tmp[2] = 0;
      tmp[3] = 0;
      tmp.set(e.buf.subarray(HEADER_BYTES + off, HEADER_BYTES + off + n), HEADER_BYTES);
      yield* this.datagram(to, tmp, HEADER_BYTES + n);
    }
  }
  private inbufOut: Uint8Array | null = null;

  private *datagram(to: number, buf: Uint8Array, bytes: number): Sim<void> {
    if (this.t.sendReady) yield* this.t.sendReady(to, bytes);
    this.t.send(to, buf, bytes);
    this.stats.messages += 1;
    this.stats.bytes += bytes;
    this.recorder.sent(buf[0]!, bytes);
  }

  /** Takes one datagram (blocking) and handles it, or buffers it when more of its message follows. */
  private *takeOne(): Sim<void> {
    const n = yield* this.t.receiveAny(this.inbuf);
    const from = this.t.lastFrom;
    const more = this.inbuf[1] === 1;
    let p = this.partial[from] ?? null;
    if (!more && !p) {
      yield* this.handle(from, this.inbuf, n);
      return;
    }
    if (!p) {
      p = new Encoder();
      p.begin(this.inbuf[0]!);
      this.partial[from] = p;
    }
    p.bytes(this.inbuf.subarray(HEADER_BYTES, n));
    if (!more) {
      this.partial[from] = null;
      yield* this.handle(from, p.buf, p.pos);
    }
  }

  private *handle(from: number, msg: Uint8Array, len: number): Sim<void> {
    const type = msg[0]!;
    const dv = new DataView(msg.buffer, msg.byteOffset, len);
    switch (type) {
      case MSG.LOCK_REQ: {
        const l = dv.getUint16(4, true);
        yield* this.manage(l, dv.getUint16(6, true), dv, 8);
        return;
      }
      case MSG.LOCK_FWD: {
        const l = dv.getUint16(4, true);
        yield* this.forwarded(l, dv.getUint16(6, true), dv, 8);
        return;
      }
      case MSG.LOCK_GRANT: {
        const l = dv.getUint16(4, true);
        this.incorporate(dv, 6, len);
        this.invalidationsDone();
        this.tokenHere[l] = 1;
        this.granted = l;
        return;
      }
      case MSG.BAR_ARRIVE: {
        if (this.me !== 0) throw new Error(`dsm processor ${this.me}: a barrier arrival from ${from} reached a processor that is not the barrier manager`);
        for (let p = 0; p < this.procs; p++) this.arrivedVt[from * this.procs + p] = dv.getUint16(HEADER_BYTES + VT_ENTRY_BYTES * p, true);
        // kept until the manager itself reaches the barrier: its own interval is still open, and
        // it may see the others' writes only at its departure (lazy release consistency)
        this.arrived[from] = msg.slice(0, len);
        this.arrivals++;
        return;
      }
      case MSG.BAR_DEPART:
        this.incorporate(dv, HEADER_BYTES, len);
        this.invalidationsDone();
        this.departed = true;
        return;
      default:
        if (type >= MSG.UNIT) yield* this.serveUnit(type, from, msg, dv, len);
        else throw new Error(`dsm processor ${this.me}: unknown message type ${type} from ${from}`);
    }
  }

  /** Serves every datagram that has arrived by now; one signal if there was any (the process was computing). */
  protected *serveArrived(): Sim<void> {
    if (this.t.pendingArrivalPs() > this.core.now) return;
    this.t.interrupt();
    const k = this.recorder.enter(K_SERVE);
    while (this.t.pendingArrivalPs() <= this.core.now) {
      yield* this.takeOne();
      if (this.core.due()) yield DUE;
    }
    this.recorder.leave(k);
  }

  /** Serves arriving datagrams until `done()` (a reply this processor waits for). */
  protected *waitUntil(done: () => boolean): Sim<void> {
    while (!done()) {
      yield* this.takeOne();
      if (this.core.due()) yield DUE;
    }
  }

  // ------------------------------------------------------------ intervals

  /** Bytes of a unit field on the wire: 2, or 4 when the runtime's unit ids do not fit below unitLimit (fixed at first use; see the contract). */
  unitBytes(): number {
    if (this.unitW === 0) this.unitW = this.unitIds() <= unitLimit(this.nprocs, 2, this.noticeReduction) ? 2 : 4;
    return this.unitW;
  }

  /** Writes a vector time (procs entries of `src` from `off`, zeros up to NPROCS), 2 B each. */
  private putVt(src: Int32Array, off: number): void {
    const e = this.out;
    for (let p = 0; p < this.nprocs; p++) {
      const v = p < this.procs ? src[off + p]! : 0;
      if (v > 0xffff) throw new Error(`dsm processor ${this.me}: interval ${v} of processor ${p} does not fit the 2-byte vector-time entry of TreadMarks' encoding (at most 65,535 intervals per processor)`);
      e.u16(v);
    }
  }

  /** Writes `units` as TreadMarks' ranges (single, pair, marker + first + last). */
  private putRanges(units: Int32Array, w: number, limit: number): void {
    const e = this.out;
    const marker = fieldMax(w) - this.nprocs;
    for (let k = 0; k < units.length; ) {
      let j = k;
      while (j + 1 < units.length && units[j + 1] === units[j]! + 1) j++;
      const first = units[k]!;
      const last = units[j]!;
      if (first >= limit || last >= limit || first < 0)
        throw new Error(`dsm processor ${this.me}: unit ${first >= limit || first < 0 ? first : last} does not fit a ${w}-byte write-notice field (ids below ${limit}, with NPROCS = ${this.nprocs})`);
      if (j > k + 1) e.field(w, marker);
      if (j > k) e.field(w, first);
      e.field(w, last);
      k = j + 1;
    }
  }

  private encodeIntervalsSince(since: Int32Array, sinceOff: number): void {
    // every interval here that `since` has not seen, by processor then number (Tmk_interval_request)
    for (let p = 0; p < this.procs; p++) {
      const seen = since[sinceOff + p]!;
      const mine = this.log[p]!;
      const floor = this.logFloor[p]!;
      if (seen < floor && seen < this.vt[p]!) throw new Error(`dsm processor ${this.me}: asked for interval ${seen + 1} of processor ${p}, which it dropped after a barrier every processor had passed`);
      for (let i = seen; i < this.vt[p]!; i++) this.encodeInterval(mine[i - floor]!);
    }
  }

  private encodeInterval(iv: Interval): void {
    const e = this.out;
    const w = this.unitBytes();
    const max = fieldMax(w);
    const limit = unitLimit(this.nprocs, w, this.noticeReduction);
    e.field(w, max - iv.proc); // ~p
    this.putVt(iv.vt, 0);
    if (iv.base) {
      // reduced: marker ~(NPROCS + 1), base 2 B, the units added, [marker ~(NPROCS + 2), the units removed]
      const plus = iv.plus!;
      const minus = iv.minus!;
      e.field(w, max - this.nprocs - 1);
      e.u16(iv.base);
      this.putRanges(plus, w, limit);
      if (minus.length) {
        e.field(w, max - this.nprocs - 2);
        this.putRanges(minus, w, limit);
      }
      this.stats.writeNotices += plus.length + minus.length;
      this.recorder.notices(plus.length + minus.length);
      return;
    }
    this.putRanges(iv.units, w, limit);
    this.stats.writeNotices += iv.units.length;
    this.recorder.notices(iv.units.length);
  }

  /** Incorporates the interval records encoded in [off, end). */
  private incorporate(dv: DataView, off: number, end: number): void {
    this.vtBefore.set(this.vt);
    this.incorporating = true;
    try {
      this.incorporateAll(dv, off, end);
    } finally {
      this.incorporating = false;
    }
  }

  private incorporateAll(dv: DataView, off: number, end: number): void {
    if (off >= end) return; // no record (the unit field width is fixed by the first one)
    const w = this.unitBytes();
    const max = fieldMax(w);
    const N = this.nprocs;
    const pidFloor = max - N + 1; // ~p for p < NPROCS
    const RANGE = max - N;
    const REDUCED = max - N - 1;
    const MINUS = max - N - 2;
    const field = (o: number): number => (w === 2 ? dv.getUint16(o, true) : dv.getUint32(o, true));
    const plusL = this.plusScratch;
    const minusL = this.minusScratch;
    while (off < end) {
      const m = field(off);
      off += w;
      const proc = max - m;
      if (m < pidFloor || proc >= this.procs) throw new Error(`dsm processor ${this.me}: an interval record starts with ${m}, not a processor id (~p for p < ${this.procs})`);
      const vtAt = off;
      off += VT_ENTRY_BYTES * N;
      const id = dv.getUint16(vtAt + VT_ENTRY_BYTES * proc, true);
      const fresh = id > this.vt[proc]!;
      let reduced = false;
      let base = 0;
      plusL.length = 0;
      minusL.length = 0;
      let into = plusL;
      if (off < end && field(off) === REDUCED) {
        reduced = true;
        base = dv.getUint16(off + w, true);
        off += w + 2;
      }
      while (off < end) {
        let u = field(off);
        if (u >= pidFloor) break; // the next record
        off += w;
        if (u === MINUS && reduced) {
          into = minusL;
          continue;
        }
        let v = u;
        if (u === RANGE) {
          u = field(off);
          v = field(off + w);
          off += 2 * w;
        }
        if (fresh) for (let x = u; x <= v; x++) into.push(x);
      }
      if (!fresh) continue; // seen already
      if (id !== this.vt[proc]! + 1) throw new Error(`dsm processor ${this.me}: interval ${id} of processor ${proc} arrived before interval ${this.vt[proc]! + 1}`);
      const vt = new Int32Array(this.procs);
      let sum = 0;
      for (let p = 0; p < this.procs; p++) {
        vt[p] = dv.getUint16(vtAt + VT_ENTRY_BYTES * p, true);
        sum += vt[p]!;
      }
      let u: Int32Array;
      if (reduced) {
        const from = this.interval(proc, base);
        if (!from || base >= id) throw new Error(`dsm processor ${this.me}: interval ${id} of processor ${proc} is a difference from interval ${base}, which it has not incorporated (or dropped: more than ${REDUCTION_WINDOW} back)`);
        const plus = Int32Array.from(plusL);
        const minus = Int32Array.from(minusL);
        u = rebuild(from.units, plus, minus);
        this.log[proc]!.push({ proc, id, vt, vtSum: sum, units: u, base, plus, minus });
      } else {
        u = Int32Array.from(plusL);
        this.log[proc]!.push({ proc, id, vt, vtSum: sum, units: u });
      }
      this.vt[proc] = id;
      for (let j = 0; j < u.length; j++) {
        // Tmk_interval_incorporate: a notice for a page dirty here creates the open interval first
        if (this.writtenInOpenInterval(u[j]!)) this.closeInterval();
        this.invalidate(u[j]!, proc, id, sum);
      }
    }
  }

  /** Interval `id` of processor p, if kept here (not yet dropped by collect). */
  protected interval(p: number, id: number): Interval | undefined {
    return this.log[p]![id - 1 - this.logFloor[p]!];
  }

  /** Interval records kept here (host memory; tests and measurements). */
  retainedIntervals(): number {
    let n = 0;
    for (let p = 0; p < this.procs; p++) n += this.log[p]!.length;
    return n;
  }

  /**
   * Drops the intervals no request can name again (the contract's host memory): called when a
   * barrier has completed here, vt = the barrier's. Charges nothing.
   */
  private collect(): void {
    if (!this.hostCollect) return;
    const keep = this.noticeReduction ? REDUCTION_WINDOW : 0;
    for (let p = 0; p < this.procs; p++) {
      const upTo = this.vt[p]! - keep;
      const drop = upTo - this.logFloor[p]!;
      if (drop <= 0) continue;
      this.log[p]!.splice(0, drop);
      this.logFloor[p] = upTo;
    }
  }

  /** Closes this processor's open interval: numbers it if it wrote anything (during a grant's incorporation, with the vector timestamp of before it). */
  protected closeInterval(): void {
    const units = this.takeDirty();
    if (units.length === 0) return;
    const id = this.vt[this.me]! + 1;
    this.vt[this.me] = id;
    const vt = Int32Array.from(this.incorporating ? this.vtBefore : this.vt);
    vt[this.me] = id;
    let sum = 0;
    for (let p = 0; p < this.procs; p++) sum += vt[p]!;
    const r = this.noticeReduction ? reduceNotices(this.log[this.me]!, units) : null;
    this.log[this.me]!.push(r ? { proc: this.me, id, vt, vtSum: sum, units, ...r } : { proc: this.me, id, vt, vtSum: sum, units });
    this.intervalClosed(id, units);
  }

  // ------------------------------------------------------------ locks

  private checkLock(lock: number): void {
    if (!Number.isInteger(lock) || lock < 0 || lock >= this.locks) throw new Error(`dsm: lock ${lock} does not exist (the application declared ${this.locks}: 0..${this.locks - 1})`);
  }

  *acquire(lock: number): Sim<void> {
    this.checkLock(lock);
    if (this.held[lock]) throw new Error(`dsm processor ${this.me}: acquires lock ${lock}, which it holds`);
    yield* this.serveArrived();
    // no interval closes here (Tmk_lock_acquire creates none): the writes before the acquire
    // stay in the open interval, closed when another processor asks (see the contract)
    if (this.tokenHere[lock] && this.queued[lock] < 0) {
      this.held[lock] = 1;
      return;
    }
    this.granted = -1;
    const k = this.recorder.enter(K_LOCK);
    const m = lock % this.procs;
    if (m === this.me) yield* this.manage(lock, this.me, this.vtView(), 0);
    else {
      const e = this.out;
      e.begin(MSG.LOCK_REQ);
      e.u16(lock);
      e.u16(this.me);
      this.putVt(this.vt, 0);
      yield* this.sendOut(m);
    }
    this.stats.rounds += 1;
    yield* this.waitUntil(() => this.granted === lock);
    this.recorder.leave(k);
    this.held[lock] = 1;
  }

  private vtBuf: DataView | null = null;
  /** This processor's vt as a DataView (to handle its own request like a received one). */
  private vtView(): DataView {
    if (!this.vtBuf) this.vtBuf = new DataView(new ArrayBuffer(VT_ENTRY_BYTES * this.procs));
    for (let p = 0; p < this.procs; p++) this.vtBuf.setUint16(VT_ENTRY_BYTES * p, this.vt[p]!, true);
    return this.vtBuf;
  }

  /** Manager: a request for `lock` from `requester` (vt at dv[vtOff..]). */
  private *manage(lock: number, requester: number, dv: DataView, vtOff: number): Sim<void> {
    const last = this.lockLast[lock]!;
    this.lockLast[lock] = requester;
    if (last === this.me) yield* this.forwarded(lock, requester, dv, vtOff);
    else {
      const e = this.out;
      e.begin(MSG.LOCK_FWD);
      e.u16(lock);
      e.u16(requester);
      for (let p = 0; p < this.nprocs; p++) e.u16(p < this.procs ? dv.getUint16(vtOff + VT_ENTRY_BYTES * p, true) : 0);
      yield* this.sendOut(last);
    }
  }

  /** Token holder (or future holder): grant now if free, else queue until the release. */
  private *forwarded(lock: number, requester: number, dv: DataView, vtOff: number): Sim<void> {
    for (let p = 0; p < this.procs; p++) this.queuedVt[lock * this.procs + p] = dv.getUint16(vtOff + VT_ENTRY_BYTES * p, true);
    if (requester === this.me) {
      // this processor's own request came back to it: it is the last requester and holds the token
      if (!this.tokenHere[lock]) throw new Error(`dsm processor ${this.me}: lock ${lock} request returned to a processor without its token`);
      this.tokenHere[lock] = 1;
      this.granted = lock;
      return;
    }
    if (this.queued[lock]! >= 0) throw new Error(`dsm processor ${this.me}: two requests for lock ${lock} queued here`);
    this.queued[lock] = requester;
    if (this.tokenHere[lock] && !this.held[lock]) {
      // Tmk_lock_sigio_handler: an interval only if none was closed since the last release here
      if (this.lockTime[lock] === this.vt[this.me]) this.closeInterval();
      yield* this.grantQueued(lock);
    }
  }

  private *grantQueued(lock: number): Sim<void> {
    const r = this.queued[lock]!;
    this.queued[lock] = -1;
    this.tokenHere[lock] = 0;
    const e = this.out;
    e.begin(MSG.LOCK_GRANT);
    e.u16(lock);
    this.encodeIntervalsSince(this.queuedVt, lock * this.procs);
    yield* this.sendOut(r);
  }

  *release(lock: number): Sim<void> {
    this.checkLock(lock);
    if (!this.held[lock]) throw new Error(`dsm processor ${this.me}: releases lock ${lock}, which it does not hold`);
    yield* this.serveArrived();
    this.held[lock] = 0;
    if (this.queued[lock]! >= 0) {
      // Tmk_lock_release: another processor waits: close the interval, grant
      this.closeInterval();
      yield* this.grantQueued(lock);
    } else this.lockTime[lock] = this.vt[this.me]!; // nobody waits: no interval (Tmk lock->time)
  }

  // ------------------------------------------------------------ barrier

  *barrier(): Sim<void> {
    yield* this.serveArrived();
    this.closeInterval();
    this.stats.rounds += 1;
    const k = this.recorder.enter(K_BARRIER);
    if (this.me !== 0) {
      const e = this.out;
      e.begin(MSG.BAR_ARRIVE);
      this.putVt(this.vt, 0);
      // own intervals since the last arrival (the manager has the rest from their creators)
      for (let i = this.lastBarrierId; i < this.vt[this.me]!; i++) this.encodeInterval(this.log[this.me]![i - this.logFloor[this.me]!]!);
      this.lastBarrierId = this.vt[this.me]!;
      this.departed = false;
      yield* this.sendOut(0);
      yield* this.waitUntil(() => this.departed);
      this.collect();
      this.recorder.leave(k);
      return;
    }
    yield* this.waitUntil(() => this.arrivals === this.procs - 1);
    this.arrivals = 0;
    for (let q = 1; q < this.procs; q++) {
      const m = this.arrived[q]!;
      this.arrived[q] = null;
      this.incorporate(new DataView(m.buffer, m.byteOffset, m.length), HEADER_BYTES + VT_ENTRY_BYTES * this.nprocs, m.length);
    }
    for (let q = 1; q < this.procs; q++) {
      const e = this.out;
      e.begin(MSG.BAR_DEPART);
      this.encodeIntervalsSince(this.arrivedVt, q * this.procs);
      yield* this.sendOut(q);
      if (this.core.due()) yield DUE; // the departures' lines fill the epoch's write log
    }
    this.invalidationsDone(); // Tmk_barrier: "Perform the merged mprotects" after the sends
    this.collect();
    this.recorder.leave(k);
  }

  *poll(): Sim<void> {
    yield* this.serveArrived();
    if (this.core.due()) yield DUE;
  }
}
