/**
 * The fallback's messages and state copies (no SharedArrayBuffer: a page that is not
 * cross-origin isolated). One Web Worker owns the run's plain buffers and runs every core with
 * the engine's cooperative loop (fallback-runner.ts); after each slice it sends a copy of the
 * state regions the main thread's views read, and the main thread writes them into its mirror,
 * a plain ArrayBuffer laid out like the state (Simulation memory 'mirror'), so Telemetry and
 * every view work unchanged (fallback-host.ts).
 *
 * Contract.
 * - `mirroredSegments(layout, ctl, out)` lists the byte ranges of the state to copy as flat
 *   pairs (offset, bytes) into `out`: ctl, ctlF, core (counters and scheduler fields), mpb,
 *   links, ctrl, isl, tileDiv, matrix, the used rows of series, events and the epoch log, unit,
 *   the page-protection headers and levels (the page map). Not the write
 *   and transaction logs, caches, test-and-set registers, the DRAM block table, calendars,
 *   bank state or the DRAM pool: no view reads them. It covers everything buildResults reads
 *   (ctl, ctlF, core, ctrl, events, isl, links, matrix, series), so the final copy lets the
 *   main thread build the results from its mirror.
 * - `packSegments` copies those ranges into one buffer, `applySegments` writes them into the
 *   mirror, keeping the words the driver writes (HOST_CONTROL_WORDS): the driver's latest
 *   requests stay in its copy until the worker has applied them.
 */
import { CORE_SLOTS, CTL, CTLF_SLOTS, CTRL_SLOTS, EPOCH_LOG_CAP, HOST_CONTROL_WORDS, ISL_SLOTS, LINK_SLOTS, PAGE_HDR_SLOTS, type Layout, type RunPlan, type WorkerRunResult } from '@manycore/engine';

/** Main thread -> worker. */
export type ToFallbackWorker =
  | { type: 'start'; plan: RunPlan; control: number[] }
  | { type: 'control'; writes: number[] }
  /**
   * Run no further than simulated time `simPs` (the speed governor's budget; Infinity: no
   * limit): the worker stops starting epochs once the chip's time reaches it, at an epoch
   * boundary, like a pause that needs no request; results do not change.
   */
  | { type: 'limit'; simPs: number }
  /** A slice's buffer, handed back for reuse (and the acknowledgement that lets the next copy go). */
  | { type: 'ack'; buffer: ArrayBuffer };

/** Worker -> main thread. `segments`: flat pairs (state byte offset, bytes), packed in order into `data`. */
export type FromFallbackWorker =
  | { type: 'slice'; segments: number[]; data: ArrayBuffer }
  | { type: 'done'; segments: number[]; data: ArrayBuffer; result: WorkerRunResult }
  | { type: 'error'; message: string };

/** Regions copied whole, by their name in Layout.off and their size in bytes. */
function wholeRegions(layout: Layout): [number, number][] {
  const o = layout.off;
  const cores = layout.cores;
  return [
    [o.ctl, 32 * 4],
    [o.ctlF, CTLF_SLOTS * 8],
    [o.core, cores * CORE_SLOTS * 8],
    [o.mpb, layout.tiles * layout.mpbBytes],
    [o.links, layout.links * LINK_SLOTS * 8],
    [o.ctrl, layout.controllers * CTRL_SLOTS * 8],
    [o.isl, layout.islands * ISL_SLOTS * 8],
    [o.tileDiv, layout.tiles * 4],
    [o.matrix, cores * cores * 2 * 8],
    [o.unit, layout.unitBytes],
    [o.pageHdr, layout.pagesPerCore > 0 ? cores * PAGE_HDR_SLOTS * 8 : 0],
    [o.pages, cores * layout.pagesPerCore],
  ];
}

/** The byte ranges of the state the main thread mirrors (see the contract), as flat pairs into `out` (cleared first). */
export function mirroredSegments(layout: Layout, ctl: Int32Array, out: number[]): number[] {
  out.length = 0;
  for (const [off, bytes] of wholeRegions(layout)) if (bytes > 0) out.push(off, bytes);
  const series = Math.max(0, ctl[CTL.seriesCount]!) * layout.seriesStride * 8;
  if (series > 0) out.push(layout.off.series, series);
  const events = Math.max(0, ctl[CTL.eventsCount]!) * 4 * 8;
  if (events > 0) out.push(layout.off.events, events);
  // the epoch log (the scrub timeline's epoch boundaries): its written entries only
  const epochs = Math.min(EPOCH_LOG_CAP, Math.max(0, ctl[CTL.epochLogCount]!)) * 8;
  if (epochs > 0) out.push(layout.off.epochLog, epochs);
  return out;
}

/** Total bytes of a segment list. */
export function segmentBytes(segments: readonly number[]): number {
  let n = 0;
  for (let i = 1; i < segments.length; i += 2) n += segments[i]!;
  return n;
}

/** Packs the ranges of `state` into `into` when it is large enough, else into a new buffer; returns the buffer used. */
export function packSegments(state: ArrayBufferLike, segments: readonly number[], into: ArrayBuffer | null): ArrayBuffer {
  const need = segmentBytes(segments);
  const buf = into && into.byteLength >= need ? into : new ArrayBuffer(need);
  const dst = new Uint8Array(buf);
  const src = new Uint8Array(state);
  let at = 0;
  for (let i = 0; i < segments.length; i += 2) {
    const off = segments[i]!;
    const n = segments[i + 1]!;
    dst.set(src.subarray(off, off + n), at);
    at += n;
  }
  return buf;
}

/**
 * Writes packed ranges into the mirror state, keeping the driver's control words
 * (HOST_CONTROL_WORDS in ctl at `ctlOffset`). Throws on a range outside the mirror.
 */
export function applySegments(mirror: ArrayBufferLike, ctlOffset: number, segments: readonly number[], data: ArrayBuffer, keep: Int32Array): void {
  const dst = new Uint8Array(mirror);
  const src = new Uint8Array(data);
  const ctl = new Int32Array(mirror, ctlOffset, 32);
  for (let i = 0; i < HOST_CONTROL_WORDS.length; i++) keep[i] = ctl[HOST_CONTROL_WORDS[i]!]!;
  let at = 0;
  for (let i = 0; i < segments.length; i += 2) {
    const off = segments[i]!;
    const n = segments[i + 1]!;
    if (off < 0 || off + n > dst.length || at + n > src.length) throw new RangeError(`fallback: a state copy (${n} bytes at ${off}) does not fit the mirror`);
    dst.set(src.subarray(at, at + n), off);
    at += n;
  }
  for (let i = 0; i < HOST_CONTROL_WORDS.length; i++) ctl[HOST_CONTROL_WORDS[i]!] = keep[i]!;
}
