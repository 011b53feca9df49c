/**
 * RCCE and iRCCE on the simulated message-passing buffers (scc.md section 2).
 *
 * MPB region of each core (the 8 KB half of its tile's MPB):
 *   [0, 8160)     communication buffer: one chunk of an outgoing message (RCCE_BUFF_SIZE)
 *   [8160, 8192)  the flag line, single-bit flags as in RCCE built with SINGLEBITFLAGS:
 *     bytes 0..7   "sent" bits: bit s set = core s has a chunk for me in ITS communication buffer
 *     bytes 8..15  "ready" bits: bit r set = core r has copied my chunk out
 *     bytes 16..19 flag version: +1 on every flag write (lets a core wait for any flag of its line)
 *     bytes 20..23 barrier arrival count (used in the line of the communicator's first core)
 *     bytes 24..27 barrier generation
 *
 * Blocking send of a chunk (sender S, receiver R):
 *   1. S copies the chunk from private memory into its OWN communication buffer;
 *   2. S sets "sent" bit S in R's flag line;
 *   3. R, waiting on its flag line, clears the bit and copies the chunk from S's MPB into its
 *      private memory;
 *   4. R sets "ready" bit R in S's flag line; S, waiting on its own line, clears it.
 * Messages longer than 8160 B go chunk by chunk. Flags share bytes, so every flag write is a
 * read-modify-write of the owner's flag line under the owner's test-and-set register (as
 * RCCE does for single-bit flags). Supports up to 64 cores (one 32 B flag line).
 *
 * Logged messages (core.logMessage, C.loggedMessages): as the RCCE study's modified library
 * counted them (paper 003 lines 2867-2876), one per RCCE_put or RCCE_get call: a chunk copied
 * into the own communication buffer is a put, a chunk copied out of another core's a get, a
 * flag write a get and a put of the flag line (RCCE_flag_write with single-bit flags). Flag
 * reads and polling (RCCE_wait_until, RCCE_test_flag) are not calls. Per chunk: 5 on each side.
 * (RCCE sends a message's last partial line as a padded line with a flag round of its own;
 * here a chunk goes whole, so a message of n <= 8160 B is one put and one get.)
 */
import { DUE, WorkloadParamError, type ResolvedChip, type SccCore, type Sim, type WaitOn } from '@manycore/engine';
import { copy } from '../lib/mem';

export const RCCE_REGION_BYTES = 8192;
export const RCCE_CHUNK_BYTES = 8160;
export const RCCE_FLAG_OFFSET = 8160;
export const FLAG_SENT = 0;
export const FLAG_READY = 8;
export const FLAG_VERSION = 16;
export const BARRIER_COUNT = 20;
export const BARRIER_GEN = 24;
export const RCCE_MAX_CORES = 64;

export type FlagKind = typeof FLAG_SENT | typeof FLAG_READY;

/** An iRCCE request: a non-blocking send or receive in progress. */
export interface RcceRequest {
  kind: 'send' | 'recv';
  peer: number; // core id
  buf: number; // private address
  bytes: number;
  offset: number; // bytes of the message done so far
  /** send: 'post' = chunk to copy and announce, 'ready' = waiting for the receiver's ready bit */
  stage: 'post' | 'ready' | 'sent';
  done: boolean;
}

/**
 * Whether RCCE runs on this chip, checked when a workload's cores are chosen (before a run, so
 * the editor and the CLI name it instead of a run failing): its flags fit one 32 B line per
 * core (at most RCCE_MAX_CORES cores on the chip) and each core needs an 8 KB MPB region.
 */
export function checkRcceChip(chip: ResolvedChip): void {
  if (chip.topo.cores > RCCE_MAX_CORES)
    throw new WorkloadParamError(`RCCE keeps its flags in one 32 B line: it runs on chips of at most ${RCCE_MAX_CORES} cores, and this chip has ${chip.topo.cores}`);
  const region = chip.mpbBytes / chip.topo.coresPerTile;
  if (region < RCCE_REGION_BYTES) throw new WorkloadParamError(`RCCE needs an 8 KB MPB region per core; this chip has ${region} bytes`);
}

export class Rcce {
  readonly core: SccCore;
  /** Core ids of the communicator; a core's rank is its index. */
  readonly members: readonly number[];
  readonly rank: number;
  readonly size: number;
  /** Chunks this core has announced and taken (one flag round each). */
  readonly stats = { chunksSent: 0, chunksReceived: 0 };
  /** Outgoing requests in posting order: only the head owns the communication buffer. */
  private readonly sendQueue: RcceRequest[] = [];
  /**
   * Whether flag reads (RCCE_wait_until's poll, RCCE_test_flag) run CL1INVMB first, as RCCE
   * does. false is a protocol bug (`skipCl1invmb`): the read hits whatever copy of the flag line
   * L1 holds, and a wait spins on that copy for ever.
   */
  private readonly invalidateFlags: boolean;

  constructor(core: SccCore, members: readonly number[], opts: { skipCl1invmb?: boolean } = {}) {
    this.invalidateFlags = opts.skipCl1invmb !== true;
    if (core.chip.topo.cores > RCCE_MAX_CORES)
      throw new Error(`RCCE here keeps its flags in one 32 B line: at most ${RCCE_MAX_CORES} cores (the chip has ${core.chip.topo.cores})`);
    if (core.chip.mpbBytes / core.chip.topo.coresPerTile < RCCE_REGION_BYTES)
      throw new Error(`RCCE needs an 8 KB MPB region per core; this chip has ${core.chip.mpbBytes / core.chip.topo.coresPerTile} B`);
    this.core = core;
    this.members = members;
    this.rank = members.indexOf(core.id);
    if (this.rank < 0) throw new Error(`core ${core.id} is not in the RCCE communicator`);
    this.size = members.length;
  }

  /** Address of core `owner`'s communication buffer. */
  commBuf(owner: number): number {
    return this.core.mpbOf(owner, 0);
  }
  /** Address of core `owner`'s flag line. */
  flagLine(owner: number): number {
    return this.core.mpbOf(owner, RCCE_FLAG_OFFSET);
  }

  // ------------------------------------------------------------------ flags

  /**
   * Sets or clears flag bits `bits` (core ids) of kind `kind` in core `owner`'s flag line:
   * a read-modify-write of the line under owner's test-and-set lock; bumps the version.
   */
  *writeFlags(owner: number, kind: FlagKind, bits: readonly number[], value: boolean): Sim<void> {
    const core = this.core;
    const line = this.flagLine(owner);
    core.logMessage(2); // RCCE_flag_write: RCCE_get and RCCE_put of the flag line
    yield* core.lock(owner);
    core.invalidateMpbt();
    for (const b of bits) {
      const a = line + kind + (b >>> 3);
      const old = core.load8(a);
      core.store8(a, value ? old | (1 << (b & 7)) : old & ~(1 << (b & 7)));
    }
    core.store32(line + FLAG_VERSION, (core.load32(line + FLAG_VERSION) + 1) >>> 0);
    // the line must be in the MPB before the lock is free again
    core.drainWcb();
    core.fence();
    core.release(owner);
  }

  *writeFlag(owner: number, kind: FlagKind, bit: number, value: boolean): Sim<void> {
    yield* this.writeFlags(owner, kind, [bit], value);
  }

  /** Reads this core's flag bit (fresh from the MPB; from L1 when CL1INVMB is skipped). */
  flag(kind: FlagKind, bit: number): boolean {
    const core = this.core;
    if (this.invalidateFlags) core.invalidateMpbt();
    return ((core.load8(this.flagLine(core.id) + kind + (bit >>> 3)) >>> (bit & 7)) & 1) === 1;
  }

  /** Version of this core's flag line, fresh from the MPB. */
  private version(): number {
    if (this.invalidateFlags) this.core.invalidateMpbt();
    return this.core.load32(this.flagLine(this.core.id) + FLAG_VERSION);
  }

  /** Blocks until every bit in `bits` of kind `kind` in this core's flag line equals `value`. */
  *waitFlags(kind: FlagKind, bits: readonly number[], value = true): Sim<void> {
    const core = this.core;
    const line = this.flagLine(core.id);
    for (;;) {
      const ver = this.version(); // same line as the flags: one read, a consistent snapshot
      let waitsFor = -1;
      for (const b of bits) if ((((core.load8(line + kind + (b >>> 3)) >>> (b & 7)) & 1) === 1) !== value && waitsFor < 0) waitsFor = b;
      if (waitsFor < 0) return;
      const on: WaitOn = { core: waitsFor, what: kind === FLAG_READY ? 'ready flag' : 'sent flag' };
      yield* core.waitUntil(line + FLAG_VERSION, '!=', ver, 4, { on, cl1invmb: this.invalidateFlags });
    }
  }

  // ------------------------------------------------------------------ blocking send / recv

  /** RCCE_send: blocks until the receiver has copied the last chunk. */
  *send(buf: number, bytes: number, dest: number): Sim<void> {
    const r = this.isendRequest(buf, bytes, dest);
    yield* this.wait(r);
  }

  /** RCCE_recv: blocks until the whole message is in private memory at buf. */
  *recv(buf: number, bytes: number, src: number): Sim<void> {
    const r = this.irecv(buf, bytes, src);
    yield* this.wait(r);
  }

  // ------------------------------------------------------------------ iRCCE

  private isendRequest(buf: number, bytes: number, dest: number): RcceRequest {
    if (dest === this.core.id) throw new Error('RCCE: a core cannot send to itself');
    const r: RcceRequest = { kind: 'send', peer: dest, buf, bytes, offset: 0, stage: 'post', done: false };
    this.sendQueue.push(r);
    this.core.countMessage(dest, bytes);
    return r;
  }

  /** iRCCE_isend: queues the send and pushes it as far as it goes without waiting. */
  *isend(buf: number, bytes: number, dest: number): Sim<RcceRequest> {
    const r = this.isendRequest(buf, bytes, dest);
    yield* this.push();
    return r;
  }

  /** iRCCE_irecv: posts a receive (progress happens in test / wait). */
  irecv(buf: number, bytes: number, src: number): RcceRequest {
    if (src === this.core.id) throw new Error('RCCE: a core cannot receive from itself');
    return { kind: 'recv', peer: src, buf, bytes, offset: 0, stage: 'sent', done: false };
  }

  /** Advances the head of the send queue; true when something happened. */
  private *pushSend(): Sim<boolean> {
    const r = this.sendQueue[0];
    if (!r) return false;
    const core = this.core;
    if (r.stage === 'post') {
      const n = Math.min(RCCE_CHUNK_BYTES, r.bytes - r.offset);
      core.logMessage(); // RCCE_put into the own communication buffer
      yield* copy(core, this.commBuf(core.id), r.buf + r.offset, n);
      yield* this.writeFlag(r.peer, FLAG_SENT, core.id, true);
      this.stats.chunksSent++;
      r.stage = 'ready';
      return true;
    }
    if (!this.flag(FLAG_READY, r.peer)) return false;
    yield* this.writeFlag(core.id, FLAG_READY, r.peer, false);
    r.offset += Math.min(RCCE_CHUNK_BYTES, r.bytes - r.offset);
    if (r.offset >= r.bytes) {
      r.done = true;
      this.sendQueue.shift();
    } else r.stage = 'post';
    return true;
  }

  /** Advances a receive; true when something happened. */
  private *pushRecv(r: RcceRequest): Sim<boolean> {
    if (r.done || !this.flag(FLAG_SENT, r.peer)) return false;
    const core = this.core;
    const n = Math.min(RCCE_CHUNK_BYTES, r.bytes - r.offset);
    yield* this.writeFlag(core.id, FLAG_SENT, r.peer, false);
    core.invalidateMpbt();
    core.logMessage(); // RCCE_get from the sender's communication buffer
    yield* copy(core, r.buf + r.offset, this.commBuf(r.peer), n);
    yield* this.writeFlag(r.peer, FLAG_READY, core.id, true);
    this.stats.chunksReceived++;
    r.offset += n;
    if (r.offset >= r.bytes) r.done = true;
    return true;
  }

  private *push(extra?: RcceRequest): Sim<boolean> {
    let any = false;
    while (yield* this.pushSend()) any = true;
    if (extra && extra.kind === 'recv') while (yield* this.pushRecv(extra)) any = true;
    return any;
  }

  /** iRCCE_test: advances the request without waiting; true when it is complete. */
  *test(r: RcceRequest): Sim<boolean> {
    if (!r.done) yield* this.push(r);
    return r.done;
  }

  /** iRCCE_wait: blocks until the request completes (other sends keep moving meanwhile). */
  *wait(r: RcceRequest): Sim<void> {
    yield* this.waitAll([r]);
  }

  /** iRCCE_wait_all: blocks until every request completes. */
  *waitAll(rs: readonly RcceRequest[]): Sim<void> {
    const core = this.core;
    for (;;) {
      const ver = this.version();
      let progressed = false;
      while (yield* this.pushSend()) progressed = true;
      for (const r of rs) if (r.kind === 'recv') while (yield* this.pushRecv(r)) progressed = true;
      if (rs.every((r) => r.done)) return;
      if (!progressed) yield* core.waitUntil(this.flagLine(core.id) + FLAG_VERSION, '!=', ver, 4, { on: this.awaited(rs), cl1invmb: this.invalidateFlags });
      else if (core.due()) yield DUE;
    }
  }

  /**
   * Who a blocked wait waits for (the wait-for graph of a deadlock message): the receiver of the
   * send whose ready flag is due, else the sender of the first receive not done.
   */
  private awaited(rs: readonly RcceRequest[]): WaitOn | undefined {
    const head = this.sendQueue[0];
    if (head && head.stage === 'ready') return { core: head.peer, what: 'ready flag' };
    const r = rs.find((x) => x.kind === 'recv' && !x.done);
    return r ? { core: r.peer, what: 'sent flag' } : undefined;
  }

  /**
   * RCCE peek: if `src` has announced a chunk for this core, copies up to `bytes` of it into
   * buf without clearing the sent flag or acknowledging; returns whether there was one.
   */
  *peek(buf: number, bytes: number, src: number): Sim<boolean> {
    if (!this.flag(FLAG_SENT, src)) return false;
    this.core.invalidateMpbt();
    this.core.logMessage(); // RCCE_get
    yield* copy(this.core, buf, this.commBuf(src), Math.min(bytes, RCCE_CHUNK_BYTES));
    return true;
  }

  // ------------------------------------------------------------------ collectives, locks

  /**
   * RCCE_barrier: every core increments the arrival count in the first member's flag line
   * under that core's lock; the last one resets it and bumps the generation the others wait on.
   */
  *barrier(): Sim<void> {
    const core = this.core;
    const master = this.members[0]!;
    const line = this.flagLine(master);
    core.logMessage(2); // the counter line's RCCE_get and RCCE_put
    yield* core.lock(master);
    core.invalidateMpbt();
    const gen = core.load32(line + BARRIER_GEN);
    const count = core.load32(line + BARRIER_COUNT) + 1;
    const last = count >= this.size;
    core.store32(line + BARRIER_COUNT, last ? 0 : count);
    if (last) core.store32(line + BARRIER_GEN, (gen + 1) >>> 0);
    core.drainWcb();
    core.fence();
    core.release(master);
    if (!last) yield* core.waitUntil(line + BARRIER_GEN, '!=', gen, 4, { cl1invmb: this.invalidateFlags });
  }

  /**
   * One sender to many receivers through the sender's MPB: the root copies each chunk into its
   * communication buffer once, announces it to every receiver, and waits for all of them to
   * have pulled it. Receivers pull concurrently.
   */
  *bcast(buf: number, bytes: number, root: number, receivers: readonly number[]): Sim<void> {
    const core = this.core;
    if (core.id === root) {
      for (const r of receivers) core.countMessage(r, bytes);
      for (let off = 0; off < bytes || (off === 0 && bytes === 0); off += RCCE_CHUNK_BYTES) {
        const n = Math.min(RCCE_CHUNK_BYTES, bytes - off);
        core.logMessage(); // RCCE_put
        yield* copy(core, this.commBuf(core.id), buf + off, n);
        for (const r of receivers) yield* this.writeFlag(r, FLAG_SENT, core.id, true);
        yield* this.waitFlags(FLAG_READY, receivers, true);
        yield* this.writeFlags(core.id, FLAG_READY, receivers, false);
        if (bytes === 0) break;
      }
      return;
    }
    for (let off = 0; off < bytes || (off === 0 && bytes === 0); off += RCCE_CHUNK_BYTES) {
      const n = Math.min(RCCE_CHUNK_BYTES, bytes - off);
      yield* this.waitFlags(FLAG_SENT, [root], true);
      yield* this.writeFlag(core.id, FLAG_SENT, root, false);
      core.invalidateMpbt();
      core.logMessage(); // RCCE_get
      yield* copy(core, buf + off, this.commBuf(root), n);
      yield* this.writeFlag(root, FLAG_READY, core.id, true);
      if (bytes === 0) break;
    }
  }

  /** RCCE_acquire_lock: the test-and-set register of core `id`. */
  *acquireLock(id: number): Sim<void> {
    yield* this.core.lock(id);
  }

  /** RCCE_release_lock: makes this core's MPB writes visible first, then frees the register. */
  releaseLock(id: number): void {
    this.core.drainWcb();
    this.core.fence();
    this.core.release(id);
  }
}

/** The regions of one core's 8 KB MPB half under RCCE, for the live MPB view. */
export function rcceLayout(): { offset: number; bytes: number; kind: string; label: string }[] {
  return [
    { offset: 0, bytes: RCCE_CHUNK_BYTES, kind: 'comm', label: 'communication buffer (one 8160 B chunk)' },
    { offset: RCCE_FLAG_OFFSET + FLAG_SENT, bytes: 8, kind: 'flags', label: 'sent bits (bit s: core s has a chunk for me)' },
    { offset: RCCE_FLAG_OFFSET + FLAG_READY, bytes: 8, kind: 'flags', label: 'ready bits (bit r: core r took my chunk)' },
    { offset: RCCE_FLAG_OFFSET + FLAG_VERSION, bytes: 4, kind: 'seq', label: 'flag version' },
    { offset: RCCE_FLAG_OFFSET + BARRIER_COUNT, bytes: 8, kind: 'barrier', label: 'barrier count and generation' },
  ];
}
