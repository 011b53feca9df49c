/**
 * The transport seam: what a DSM runtime needs from the node it runs on, so the protocol code
 * (lrc.ts, page.ts, the object runtime) never names a chip family. `clusterTransport` wraps a
 * ClusterCore (UDP datagrams over a switch, mprotect, SIGIO); `sccTransport` (scc-transport.ts)
 * implements the same interface on an SccCore (datagrams through the MPBs, aliased views).
 *
 * Contract
 * - Processor i of the runtime is node i of the chip (processors 0..procs-1 run the program).
 * - send(to, payload, bytes): one datagram of at most maxDatagramBytes, in order per pair;
 *   sendReady(to, bytes) (optional), which the runtime calls before every send, blocks while the
 *   receiver's buffer holds as many of this sender's datagrams as it can (cluster: slotsPerPair)
 *   and yields when the host's write log cannot take the datagram;
 *   receiveAny(out) takes the next datagram from any processor (blocking), `lastFrom` names its
 *   sender; pendingArrivalPs() says when the earliest untaken datagram arrives (Infinity: none);
 *   interrupt() charges the signal that interrupts a computing process (SIGIO).
 * - protectPages / mprotect: the node's page protection (engine page-protection.ts) over the
 *   shared range, each mprotect call charged by the node's kernel cost; mapAliases /
 *   mprotectRange (optional): aliased views of one range (an object runtime's protection by
 *   aliasing) and one mprotect call over several pages.
 * - loadLines / storeLines: whole-line copies through the node's caches (twins, diffs, pages).
 * - sharedBase: the address every processor maps the shared region at (TreadMarks: the same
 *   virtual address everywhere); scratchBase: the runtime's private area (twins) after it.
 * Units: bytes, core cycles, ps.
 */
import type { ClusterCore, Sim } from '@manycore/engine';
import type { DsmCore } from '../api';

export interface DsmTransport {
  readonly core: DsmCore;
  readonly me: number;
  readonly procs: number;
  readonly maxDatagramBytes: number;
  /** First byte of the shared region (a page boundary), the same on every processor. */
  readonly sharedBase: number;
  /** Bytes available for shared data and the runtime's private area (twins) together. */
  readonly regionBytes: number;
  readonly lastFrom: number;
  send(to: number, payload: Uint8Array, bytes: number): void;
  /** Optional: called before each send; may block (flow control: the receiver's buffer for this sender is full) or yield (host log room). */
  sendReady?(to: number, bytes: number): Sim<void>;
  receiveAny(out: Uint8Array): Sim<number>;
  pendingArrivalPs(): number;
  interrupt(): void;
  protectPages(base: number, bytes: number, pageBytes: number, initial: number, handler: (addr: number, write: boolean) => Sim<void>): void;
  mprotect(page: number, level: number): void;
  /** Optional (an object runtime needs them): `copies` views of [base, base + bytes), each with its own protection; one mprotect call over a range of pages. */
  mapAliases?(base: number, bytes: number, copies: number): void;
  mprotectRange?(first: number, pages: number, level: number): void;
  loadLines(addr: number, lines: number, out: Uint32Array, outWord: number): void;
  storeLines(addr: number, lines: number, src: Uint32Array, srcWord: number): void;
}

/** Bytes kept at the bottom of a node's private memory for the harness and the runtime's own variables (model). */
const RESERVED_BYTES = 1 << 20;

/** The cluster family: processor i = node i, UDP datagrams, mprotect and SIGIO with the preset's kernel costs. */
export function clusterTransport(core: ClusterCore, procs: number): DsmTransport {
  const base = core.privateBase + RESERVED_BYTES;
  return {
    core,
    me: core.id,
    procs,
    maxDatagramBytes: core.chip.config.network.maxDatagramBytes,
    sharedBase: base,
    regionBytes: core.privateBytes - RESERVED_BYTES,
    get lastFrom() {
      return core.lastFrom;
    },
    send: (to, payload, bytes) => core.send(to, payload, bytes),
    sendReady: (to, bytes) => core.sendReady(to, bytes),
    receiveAny: (out) => core.receiveAny(out),
    pendingArrivalPs: () => core.pendingArrivalPs(),
    interrupt: () => core.interrupt(),
    protectPages: (b, bytes, pageBytes, initial, handler) => core.protectPages(b, bytes, pageBytes, initial, handler),
    mprotect: (page, level) => core.mprotect(page, level),
    mapAliases: (b, bytes, copies) => core.mapAliases(b, bytes, copies),
    mprotectRange: (first, pages, level) => core.mprotectRange(first, pages, level),
    loadLines: (addr, lines, out, w) => core.loadLines(addr, lines, out, w),
    storeLines: (addr, lines, src, w) => core.storeLines(addr, lines, src, w),
  };
}
