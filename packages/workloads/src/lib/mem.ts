/**
 * Memory helpers shared by the message-passing workloads: bounded copies that let the
 * scheduler end an epoch, deterministic fill patterns and their checks, a bump allocator
 * for private memory, and the one LUT change the SCC workloads need (an uncached mapping).
 */
import { DUE, type SccCore, type Sim } from '@manycore/engine';

/** Bytes per step of the set-up helpers (fill, check) before checking core.due(). */
export const COPY_STEP = 2048;

/**
 * memcpy through the cache hierarchy, one destination line per step, yielding as soon as the
 * epoch is over. Fine steps matter: a core that runs far past the epoch end puts its memory
 * transactions in the future, and the controller queues of the next epoch then charge the
 * other cores for waiting behind them (see the report on the weave phase).
 */
export function* copy(core: SccCore, dst: number, src: number, bytes: number): Sim<void> {
  let done = 0;
  while (done < bytes) {
    const n = Math.min(32 - ((dst + done) & 31), bytes - done);
    core.copy(dst + done, src + done, n);
    done += n;
    if (core.due()) yield DUE;
  }
}

/** Reads a range (e.g. to bring a buffer into L2), in steps that yield when the epoch is over. */
export function* touch(core: SccCore, addr: number, bytes: number): Sim<void> {
  for (let done = 0; done < bytes; done += 32) {
    core.readRange(addr + done, Math.min(32, bytes - done));
    if (core.due()) yield DUE;
  }
}

/** Byte i of the pattern that `seed` names (seed = e.g. source rank and repetition). */
export function patternByte(seed: number, i: number): number {
  return (Math.imul(seed + 1, 97) + Math.imul(i, 31) + (i >>> 8)) & 0xff;
}

const patternBuf = new Uint8Array(COPY_STEP);

/** Writes the pattern `seed` into [addr, addr + bytes) (offset `from` into the pattern). */
export function* fillPattern(core: SccCore, addr: number, bytes: number, seed: number, from = 0): Sim<void> {
  for (let done = 0; done < bytes; done += COPY_STEP) {
    const n = Math.min(COPY_STEP, bytes - done);
    for (let i = 0; i < n; i++) patternBuf[i] = patternByte(seed, from + done + i);
    core.writeRange(addr + done, n, patternBuf);
    if (core.due()) yield DUE;
  }
}

/**
 * Reads [addr, addr + bytes) and compares it with the pattern `seed` (offset `from`).
 * Returns the index of the first wrong byte, or -1.
 */
export function* checkPattern(core: SccCore, addr: number, bytes: number, seed: number, from = 0): Sim<number> {
  for (let done = 0; done < bytes; done += COPY_STEP) {
    const n = Math.min(COPY_STEP, bytes - done);
    core.readRange(addr + done, n, patternBuf);
    for (let i = 0; i < n; i++) if (patternBuf[i] !== patternByte(seed, from + done + i)) return done + i;
    if (core.due()) yield DUE;
  }
  return -1;
}

/**
 * Stores `bytes` from src at addr with software allocate-on-write (scc.md sections 1 and 9): the
 * SCC's caches do not allocate on a write miss, so a store to a line that is not cached goes to
 * memory as a transaction of its own; loading one word of each destination line first brings
 * the line into the caches, and the stores then hit (the dirty line goes back whole when it is
 * evicted or flushed). Charges the loads and the stores like the loop that does it.
 */
export function writeAllocated(core: SccCore, addr: number, bytes: number, src: Uint8Array, srcOff = 0): void {
  for (let line = addr - (addr & 31); line < addr + bytes; line += 32) core.load32(line);
  core.writeRange(addr, bytes, src, srcOff);
}

/** A bump allocator over a core's private memory (32 B aligned). */
export class Arena {
  private next: number;
  constructor(
    readonly base: number,
    readonly limit: number,
  ) {
    this.next = base;
  }
  alloc(bytes: number, align = 32): number {
    const a = Math.ceil(this.next / align) * align;
    if (a + bytes > this.limit) throw new Error(`private memory arena exhausted (${bytes} B requested)`);
    this.next = a + bytes;
    return a;
  }
  reset(): void {
    this.next = this.base;
  }
}

/** Maps the 16 MB pages holding [addr, addr + bytes) uncached for this core (every access goes to memory). */
export function mapUncached(core: SccCore, addr: number, bytes = 1): void {
  for (let page = addr >>> 24; page <= (addr + bytes - 1) >>> 24; page++) core.mapPage(page * (1 << 24), 'uncached');
}
