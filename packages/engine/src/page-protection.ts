/**
 * Page protection: the present and writable bits a distributed-shared-memory runtime sets on
 * its pages (mprotect on a Unix node, the page tables of a bare-metal kernel), checked on every
 * simulated access of the range it protects.
 *
 * Contract
 * - Off until a runtime calls `CoreBase.enableProtection`: one level per page of [base, base +
 *   bytes): PROT_NONE (any access faults), PROT_READ (a store faults), PROT_READ_WRITE.
 *   Addresses outside the range are not checked.
 * - A family's core calls `allows(addr, write)` on every load and store (one typed-array read
 *   and a compare when on; one compare when off) and throws `CoreBase.protectionError` when it
 *   fails: a program must take the fault first (`yield* core.touch(addr, bytes, write)`), which
 *   counts it (C.readFaults / C.writeFaults), charges the trap (trapCycles: the hardware
 *   exception, the kernel's signal delivery and the return, the family's number with its
 *   source) and runs the runtime's handler (a generator: it may send messages and block).
 * - `set(page, level)` changes one page; the runtime charges protectCycles per call it makes
 *   (an mprotect system call), not this module.
 * Units: bytes, core cycles. Called on every access when on: no allocation.
 */
export const PROT_NONE = 0;
export const PROT_READ = 1;
export const PROT_READ_WRITE = 2;
export const PROT_NAMES = ['invalid', 'read-only', 'read-write'] as const;

export interface ProtectionSpec {
  /** First byte of the protected range (a multiple of pageBytes). */
  base: number;
  bytes: number;
  /** A power of two. */
  pageBytes: number;
  /** Level every page starts at. */
  initial: number;
  /** Core cycles from the faulting access to the runtime's handler and back (trap, signal, return). */
  trapCycles: number;
}

export class PageProtection {
  /** Levels per page; empty while off. */
  levels: Uint8Array = new Uint8Array(0);
  base = 0;
  end = 0;
  pageShift = 12;
  trapCycles = 0;
  on = false;

  enable(spec: ProtectionSpec): void {
    const { base, bytes, pageBytes, initial, trapCycles } = spec;
    if (!Number.isInteger(pageBytes) || pageBytes < 1 || (pageBytes & (pageBytes - 1)) !== 0) throw new Error(`page protection: pageBytes ${pageBytes} is not a power of two`);
    if (base % pageBytes !== 0 || bytes % pageBytes !== 0 || bytes <= 0) throw new Error(`page protection: range 0x${base.toString(16)} + ${bytes} is not whole pages of ${pageBytes} bytes`);
    if (initial !== PROT_NONE && initial !== PROT_READ && initial !== PROT_READ_WRITE) throw new Error(`page protection: unknown level ${initial}`);
    if (!(trapCycles >= 0)) throw new Error(`page protection: trapCycles ${trapCycles} is negative`);
    this.levels = new Uint8Array(bytes / pageBytes).fill(initial);
    this.base = base;
    this.end = base + bytes;
    this.pageShift = Math.log2(pageBytes);
    this.trapCycles = trapCycles;
    this.on = true;
  }

  /** Page index of addr in the range, or -1 outside it. */
  pageOf(addr: number): number {
    if (addr < this.base || addr >= this.end) return -1;
    return Math.floor((addr - this.base) / (1 << this.pageShift));
  }

  /** First byte of page `page`. */
  addressOf(page: number): number {
    return this.base + page * (1 << this.pageShift);
  }

  /** True when an access of `addr` may proceed. Called on every access. */
  allows(addr: number, write: boolean): boolean {
    if (!this.on || addr < this.base || addr >= this.end) return true;
    const level = this.levels[Math.floor((addr - this.base) / (1 << this.pageShift))]!;
    return write ? level === PROT_READ_WRITE : level !== PROT_NONE;
  }

  set(page: number, level: number): void {
    if (page < 0 || page >= this.levels.length) throw new Error(`page protection: page ${page} is outside the protected range (0..${this.levels.length - 1})`);
    this.levels[page] = level;
  }

  get(page: number): number {
    return this.levels[page]!;
  }
}
