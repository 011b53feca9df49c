/**
 * MetalSVM's shared virtual memory on the SCC (paper 003 lines 800-979; scc.md section 4): the
 * mailbox system, inter-core interrupts, the ownership vector, strong and lazy release
 * consistency, and the RCCE linear barrier, all as simulated memory traffic of one core.
 *
 * Contract
 * - Shared pages are 4 KB pages of a range the core maps MPBT (L1 only, write-through, stores
 *   merged in the write-combine buffer). svm_flush = drain the write-combine buffer (the paper's
 *   "fool write combine buffer"), svm_invalidate = CL1INVMB (lines 804-819, 908-918).
 * - Mailboxes (lines 862-893): core r's MPB half holds one 32 B line per sender s at
 *   MAILBOX_OFFSET + 32 s: byte 0 the flag (the sender sets it to 1 when it places a mail, the
 *   receiver sets it back to 0 when it has processed it), bytes 4-7 the page, 8-11 the original
 *   requester. A sender waits until its mailbox at the receiver is free (remote reads), writes
 *   the line (one write-combined line), then raises an IPI: a store to the receiver's GIC status
 *   byte for this sender (IPI_OFFSET + s, a count mod 256; model of the sccKit 1.4.0 GIC, which
 *   tells the receiver the sender, lines 851-861). The receiver sees a raised line at no cost
 *   (SccCore.interruptLines) whenever it calls `idle()` or `pending()`; taking the interrupt costs
 *   IPI_ENTRY_CYCLES, reading and clearing the mail are local MPB accesses.
 * - Strong consistency (lines 920-979): each page has one owner, with read and write access;
 *   the others have none. The ownership vector (4 B per page, in an uncached off-chip page)
 *   names the owner. A fault (trap FAULT_TRAP_CYCLES) reads the vector, mails the owner (page,
 *   requester) and polls the vector entry (uncached reads) until it names the requester, serving
 *   interrupts meanwhile; then the page is read-write and CL1INVMB drops stale lines. The owner,
 *   in its interrupt handler, clears its access (PTE_CHANGE_CYCLES), flushes, and writes the
 *   requester into the vector. A core that no longer owns the page forwards the mail to the
 *   owner the vector names (a mail more); one that is itself waiting for the page keeps the
 *   request until it has the page and serves it at its next interrupt point.
 * - Lazy release (model, one reading of a paper that contradicts itself, scc.md section 4): the
 *   vector names each page's home, the core whose rows start on it, which keeps read-write
 *   access. At each barrier every core flushes before it arrives ("the caches are flushed after
 *   each iteration", line 1184) and, when it leaves, invalidates (CL1INVMB) and drops its access
 *   to every page it was lent. The first access to another core's page after a barrier faults
 *   and sends a request mail and IPI to the page's home ("the majority of cores send a request
 *   mail and IPI to its neighbor just after the synchronization point", lines 1199-1201); the
 *   home flushes and clears the mailbox flag, which is the acknowledgement the requester polls
 *   (remote MPB reads); the page is then readable (writable for a store) until the next barrier.
 *   Pages are never taken away from their home, so a page is fetched once per barrier.
 * - Barrier: RCCE's linear barrier (line 1152): each core writes its arrival (the barrier's
 *   generation) into the first member's MPB and polls its own release byte; the first member
 *   polls every arrival, then writes every release. Every poll loop serves interrupts.
 * Counters: `mails` (mails placed, forwards included), `forwards`.
 * Units: bytes, core cycles. Supports up to MAX_SVM_CORES cores.
 */
import { DUE, PROT_NONE, PROT_READ, PROT_READ_WRITE, type SccCore, type Sim } from '@manycore/engine';
import { FAULT_TRAP_CYCLES, IPI_ENTRY_CYCLES, MAIL_HANDLER_CYCLES, PTE_CHANGE_CYCLES } from './costs';

export const MAX_SVM_CORES = 64;
export const SVM_PAGE_BYTES = 4096;
/** Line s of a core's MPB half: the mailbox for mails from core s. */
export const MAILBOX_OFFSET = 0;
/** 64 bytes: byte s counts the IPIs core s raised at this core (mod 256). */
export const IPI_OFFSET = 2048;
/** The first member's 64 bytes: byte k = the generation of member k's last barrier arrival. */
export const ARRIVE_OFFSET = 2112;
/** Byte 0: the generation of the last barrier this core was released from. */
export const RELEASE_OFFSET = 2176;
/** MPB bytes a core's half must hold for MetalSVM's layout. */
export const SVM_MPB_BYTES = 2208;

export type SvmConsistency = 'strong' | 'lazy';

export class Svm {
  readonly core: SccCore;
  /** Mails this core placed (requests and forwards). */
  mails = 0;
  forwards = 0;
  private readonly rank: number;
  private readonly ipiSeen = new Uint8Array(MAX_SVM_CORES);
  private readonly ipiSent = new Uint8Array(MAX_SVM_CORES);
  private readonly ipi32 = new Uint32Array(16);
  private readonly ipi8 = new Uint8Array(this.ipi32.buffer);
  /** Strong: pages this core has requested and not yet received. */
  private readonly waiting = new Set<number>();
  /** Strong: requests kept until this core has the page: page, requester pairs. */
  private readonly deferred: number[] = [];
  /** Lazy: pages lent to this core since the last barrier. */
  private readonly lent: number[] = [];
  private generation = 0;

  constructor(
    core: SccCore,
    readonly consistency: SvmConsistency,
    /** Core ids of the members; the first is the barrier's master. */
    readonly members: readonly number[],
    /** Core address of the ownership vector (4 B per page of the range), mapped uncached. */
    readonly vectorBase: number,
  ) {
    this.core = core;
    this.rank = members.indexOf(core.id);
    if (this.rank < 0) throw new Error(`core ${core.id} is not a MetalSVM member`);
  }

  /** svm_alloc's protection: the range's pages start invalid but for `own`, which are read-write. */
  enable(base: number, bytes: number, own: readonly number[]): void {
    const core = this.core;
    core.enableProtection({ base, bytes, pageBytes: SVM_PAGE_BYTES, initial: PROT_NONE, trapCycles: FAULT_TRAP_CYCLES }, (addr, write) => this.fault(addr, write));
    for (const p of own) core.protection.set(p, PROT_READ_WRITE);
  }

  private mailAddr(to: number, from: number): number {
    return this.core.mpbOf(to, MAILBOX_OFFSET + 32 * from);
  }
  private vectorAddr(page: number): number {
    return this.vectorBase + 4 * page;
  }
  private readVector(page: number): number {
    const v = this.core.load32(this.vectorAddr(page));
    this.core.fence(); // the handler needs the value
    return v;
  }

  // ------------------------------------------------------------------ interrupts

  /** True when an IPI is raised at this core or a kept request can be served (costs nothing). */
  pending(): boolean {
    const core = this.core;
    const at = core.mpbOf(core.id, IPI_OFFSET);
    core.interruptLines(at, this.ipi32, 0);
    core.interruptLines(at + 32, this.ipi32, 8);
    for (const s of this.members) if (this.ipi8[s] !== this.ipiSeen[s]) return true;
    for (let i = 0; i < this.deferred.length; i += 2) if (this.servable(this.deferred[i]!)) return true;
    return false;
  }

  private servable(page: number): boolean {
    return !this.waiting.has(page) && this.core.protection.get(page) === PROT_READ_WRITE;
  }

  /** The interrupt handler: takes every raised IPI (after `pending()`), then kept requests it can now serve. */
  *serve(): Sim<void> {
    const core = this.core;
    for (const s of this.members) {
      if (this.ipi8[s] === this.ipiSeen[s]) continue;
      this.ipiSeen[s] = this.ipi8[s]!;
      core.compute(IPI_ENTRY_CYCLES);
      const m = this.mailAddr(core.id, s);
      core.invalidateMpbt();
      const flag = core.load8(m);
      const page = core.load32(m + 4);
      const origin = core.load32(m + 8);
      core.fence();
      if (flag !== 1) throw new Error(`MetalSVM: core ${core.id} took an IPI from core ${s} with an empty mailbox`);
      core.compute(MAIL_HANDLER_CYCLES);
      yield* this.handle(page, origin);
      core.store8(m, 0); // processed: the sender may place the next mail (lazy: the acknowledgement)
      core.drainWcb();
    }
    for (let i = 0; i < this.deferred.length; ) {
      const page = this.deferred[i]!;
      if (!this.servable(page)) {
        i += 2;
        continue;
      }
      const origin = this.deferred[i + 1]!;
      this.deferred.splice(i, 2);
      this.give(page, origin);
    }
  }

  /** Between pieces of work and in every poll loop: serve interrupts, let the epoch end. */
  *idle(): Sim<void> {
    if (this.pending()) yield* this.serve();
    if (this.core.due()) yield DUE;
  }

  private *handle(page: number, origin: number): Sim<void> {
    const core = this.core;
    if (this.consistency === 'lazy') {
      core.drainWcb(); // svm_flush: the home's writes are in memory before it acknowledges
      return;
    }
    if (this.servable(page)) this.give(page, origin);
    else if (this.waiting.has(page)) this.deferred.push(page, origin);
    else {
      const owner = this.readVector(page);
      if (owner === core.id) throw new Error(`MetalSVM: core ${core.id} is named owner of page ${page} but has no access to it`);
      this.forwards++;
      yield* this.sendMail(owner, page, origin);
    }
  }

  /** Strong: the owner hands page to `to`: clear access, flush, write the new owner. */
  private give(page: number, to: number): void {
    const core = this.core;
    core.protection.set(page, PROT_NONE);
    core.compute(PTE_CHANGE_CYCLES);
    core.drainWcb(); // svm_flush
    core.store32(this.vectorAddr(page), to);
  }

  /** Places a mail (page, origin) in core `to`'s mailbox for this core and raises the IPI. */
  private *sendMail(to: number, page: number, origin: number): Sim<void> {
    const core = this.core;
    const m = this.mailAddr(to, core.id);
    yield* this.waitMailboxFree(m);
    core.store32(m + 4, page);
    core.store32(m + 8, origin);
    core.store8(m, 1);
    core.drainWcb();
    this.ipiSent[to] = (this.ipiSent[to]! + 1) & 0xff;
    core.store8(core.mpbOf(to, IPI_OFFSET + core.id), this.ipiSent[to]!);
    core.drainWcb();
    core.countMessage(to, 32);
    this.mails++;
  }

  private *waitMailboxFree(m: number): Sim<void> {
    const core = this.core;
    for (;;) {
      core.invalidateMpbt();
      const f = core.load8(m);
      core.fence();
      if (f === 0) return;
      yield* this.idle();
    }
  }

  // ------------------------------------------------------------------ faults

  private *fault(addr: number, write: boolean): Sim<void> {
    const core = this.core;
    const page = core.protection.pageOf(addr);
    if (this.consistency === 'strong') {
      this.waiting.add(page);
      const owner = this.readVector(page);
      if (owner === core.id) throw new Error(`MetalSVM: core ${core.id} faulted on page ${page}, which the vector says it owns`);
      yield* this.sendMail(owner, page, core.id);
      while (this.readVector(page) !== core.id) yield* this.idle();
      this.waiting.delete(page);
      core.protection.set(page, PROT_READ_WRITE);
      core.compute(PTE_CHANGE_CYCLES);
      core.invalidateMpbt(); // svm_invalidate: no stale line of the page stays in L1
      return;
    }
    const home = this.readVector(page);
    if (home === core.id) throw new Error(`MetalSVM: core ${core.id} faulted on its own page ${page}`);
    yield* this.sendMail(home, page, core.id);
    yield* this.waitMailboxFree(this.mailAddr(home, core.id)); // the home has flushed
    core.protection.set(page, write ? PROT_READ_WRITE : PROT_READ);
    core.compute(PTE_CHANGE_CYCLES);
    this.lent.push(page);
  }

  /** True when every page of [addr, addr + bytes) allows the access (no fault is due). */
  allows(addr: number, bytes: number, write: boolean): boolean {
    const pr = this.core.protection;
    for (let a = addr; a < addr + bytes; a += SVM_PAGE_BYTES) if (!pr.allows(a, write)) return false;
    return pr.allows(addr + bytes - 1, write);
  }

  // ------------------------------------------------------------------ barrier

  /** RCCE's linear barrier, serving interrupts while it waits; lazy release flushes and invalidates around it. */
  *barrier(): Sim<void> {
    const core = this.core;
    this.generation = (this.generation + 1) & 0xff;
    const g = this.generation;
    core.drainWcb(); // svm_flush
    const master = this.members[0]!;
    if (this.rank === 0) {
      for (let k = 1; k < this.members.length; k++) {
        const a = core.mpbOf(master, ARRIVE_OFFSET + k);
        for (;;) {
          core.invalidateMpbt();
          const v = core.load8(a);
          core.fence();
          if (v === g) break;
          yield* this.idle();
        }
      }
      for (let k = 1; k < this.members.length; k++) {
        core.store8(core.mpbOf(this.members[k]!, RELEASE_OFFSET), g);
        core.drainWcb();
      }
    } else {
      core.store8(core.mpbOf(master, ARRIVE_OFFSET + this.rank), g);
      core.drainWcb();
      const r = core.mpbOf(core.id, RELEASE_OFFSET);
      for (;;) {
        core.invalidateMpbt();
        const v = core.load8(r);
        core.fence();
        if (v === g) break;
        yield* this.idle();
      }
    }
    if (this.consistency === 'lazy') {
      core.invalidateMpbt(); // svm_invalidate
      for (const p of this.lent) {
        core.protection.set(p, PROT_NONE);
        core.compute(PTE_CHANGE_CYCLES);
      }
      this.lent.length = 0;
    }
  }
}

