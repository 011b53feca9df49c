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
 * - `set(page, level)` changes one page's access level (keeping its mark); the runtime charges
 *   protectCycles per call it makes (an mprotect system call), not this module.
 * - A page's byte holds its level in bits 1..0 and the runtime's own marks above them: bit 2,
 *   PAGE_MARK_TWIN, "this page has a twin" (a runtime sets it with `markPage(page, on)` when it
 *   makes a twin and clears it when it drops one). Marks are for the views only: `allows` and
 *   `get` read `levels[page] & PROT_MASK`, so a mark never changes whether an access faults.
 * - Visible levels: `enable(spec, shared)` keeps the levels in `shared.levels` (the core's slice
 *   of the state's `pages` region, layout.ts) when the range has no more pages than it holds, and
 *   writes `shared.header` (PAGE_HDR: base, pages, pageBytes, visible = 1), so telemetry and the
 *   scrub recorder see them; a larger range (or no region: the family gives 0 pages per core)
 *   keeps its own array, as without a region, and the header says visible = 0 (the page map
 *   shows "not visible"). The simulation reads the levels the same way in both cases.
 * Units: bytes, core cycles. Called on every access when on: no allocation.
 */
import { PAGE_HDR } from './layout';

export const PROT_NONE = 0;
export const PROT_READ = 1;
export const PROT_READ_WRITE = 2;
export const PROT_NAMES = ['invalid', 'read-only', 'read-write'] as const;
/** The level bits of a page's byte; the bits above are the runtime's marks. */
export const PROT_MASK = 3;
/** Mark bit: the runtime holds a twin of this page (a copy kept to diff against at release). */
export const PAGE_MARK_TWIN = 4;

/** Where a core's levels are visible to the views: its slice of the state's page regions (layout.ts PAGE_HDR). */
export interface SharedPageState {
  /** The core's slice of the `pages` region (layout.pagesPerCore bytes). */
  levels: Uint8Array;
  /** The core's PAGE_HDR_SLOTS header words. */
  header: Float64Array;
}

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

  /** Whether the levels live in the shared state (the views can read them). */
  visible = false;

  enable(spec: ProtectionSpec, shared: SharedPageState | null = null): void {
    const { base, bytes, pageBytes, initial, trapCycles } = spec;
    if (!Number.isInteger(pageBytes) || pageBytes < 1 || (pageBytes & (pageBytes - 1)) !== 0) throw new Error(`page protection: pageBytes ${pageBytes} is not a power of two`);
    if (base % pageBytes !== 0 || bytes % pageBytes !== 0 || bytes <= 0) throw new Error(`page protection: range 0x${base.toString(16)} + ${bytes} is not whole pages of ${pageBytes} bytes`);
    if (initial !== PROT_NONE && initial !== PROT_READ && initial !== PROT_READ_WRITE) throw new Error(`page protection: unknown level ${initial}`);
    if (!(trapCycles >= 0)) throw new Error(`page protection: trapCycles ${trapCycles} is negative`);
    const pages = bytes / pageBytes;
    this.visible = shared !== null && pages <= shared.levels.length;
    this.levels = (this.visible ? shared!.levels.subarray(0, pages) : new Uint8Array(pages)).fill(initial);
    if (shared) {
      const h = shared.header;
      h[PAGE_HDR.base] = base;
      h[PAGE_HDR.pages] = pages;
      h[PAGE_HDR.pageBytes] = pageBytes;
      h[PAGE_HDR.visible] = this.visible ? 1 : 0;
    }
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
    const level = this.levels[Math.floor((addr - this.base) / (1 << this.pageShift))]! & PROT_MASK;
    return write ? level === PROT_READ_WRITE : level !== PROT_NONE;
  }

  /** Sets page `page`'s access level (PROT_NONE, PROT_READ or PROT_READ_WRITE); its marks stay. */
  set(page: number, level: number): void {
    if (page < 0 || page >= this.levels.length) throw new Error(`page protection: page ${page} is outside the protected range (0..${this.levels.length - 1})`);
    if (level !== PROT_NONE && level !== PROT_READ && level !== PROT_READ_WRITE) throw new Error(`page protection: unknown level ${level} for page ${page} (expected 0 invalid, 1 read-only or 2 read-write)`);
    this.levels[page] = (this.levels[page]! & ~PROT_MASK) | level;
  }

  /** Page `page`'s access level (without its marks). */
  get(page: number): number {
    return this.levels[page]! & PROT_MASK;
  }

  /** Sets (on) or clears a runtime mark of page `page` (default PAGE_MARK_TWIN); the level stays. */
  markPage(page: number, on: boolean, mark: number = PAGE_MARK_TWIN): void {
    if (page < 0 || page >= this.levels.length) throw new Error(`page protection: page ${page} is outside the protected range (0..${this.levels.length - 1})`);
    if (!Number.isInteger(mark) || mark <= PROT_MASK || mark > 0xff || (mark & PROT_MASK) !== 0) throw new Error(`page protection: mark ${mark} is not a mark bit (a bit above the level bits, e.g. PAGE_MARK_TWIN = ${PAGE_MARK_TWIN})`);
    this.levels[page] = on ? this.levels[page]! | mark : this.levels[page]! & ~mark;
  }

  /** Whether page `page` carries `mark` (default PAGE_MARK_TWIN). */
  marked(page: number, mark: number = PAGE_MARK_TWIN): boolean {
    return (this.levels[page]! & mark) !== 0;
  }
}
