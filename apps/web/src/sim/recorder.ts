/**
 * The run's recorder: snapshots of the state the views read, for scrubbing back in simulated time.
 *
 * Contract.
 * - `capture()` copies the regions the views read (control words, core counters and scheduler
 *   fields, links, controllers, islands, tile divisors, the message matrix, the MPBs, the
 *   family's unit state and the page-protection headers and levels) out of the live buffers ONLY while the run is held at an epoch
 *   boundary: status Paused is stored by the committer after the commit is complete, and it
 *   blocks (Atomics.wait in scheduler.ts honourRequests) before waking any worker of the next
 *   epoch, so nothing writes those regions while it reads Paused. The copy is checked like a
 *   seqlock: the status must read Paused and the epoch counter the same value before and after
 *   the copy, else the copy is dropped (a stale Paused seen just as the run was released).
 * - `captureAtBoundary()` is the fallback's way in (no SharedArrayBuffer, LiveRun.fallback):
 *   there the views are a mirror that only this thread writes, by copying the worker's state
 *   after each slice (workers/fallback-host.ts), and every slice ends at an epoch boundary
 *   (CooperativeRun.slice). Called right after such a copy (LiveRun.onSliceApplied), it takes
 *   the mirror as it is, whatever its status word says, with the same rules as `capture`
 *   (first epoch at its time, budget and thinning, wall-time share).
 * - A snapshot is tagged with its epoch and simulated time (ps). It is kept only when its epoch
 *   is the first to reach that time (an epoch of zero length repeats a boundary time; a run
 *   stopped at that time stops after the first), so "the state at time T" is one state.
 * - The time series and the divisor-change events are append-only logs in the live buffer: a
 *   snapshot keeps only its counts, and `restore` takes the samples up to T (and the events the
 *   snapshot counted) from the live buffer.
 * - `restore` writes a snapshot into a scratch Views object shaped like the live one (same
 *   layout, same typed-array fields), so every view reads it unchanged. Received-message totals
 *   are derived as the committer derives them at a sample (column sums of the message matrix
 *   over the senders, in the same order), so they are those of a run stopped at T.
 * - Memory: every snapshot takes `snapshotBytes(layout)`; slots are allocated on first use and
 *   reused. At `budgetBytes` the recording is thinned: every second snapshot is dropped and new
 *   captures keep the spacing of the kept ones; `notice()` says so. Snapshots made by a replay
 *   (`store`) are kept through thinning (they were asked for).
 * - Main-thread time: a capture is a copy (SCC 48 cores: 450 KB, ~0.3 ms; a 1024-core mesh:
 *   25 MB, several ms), so captures are spaced in wall time to take at most CAPTURE_SHARE of
 *   it (`clock`, default performance.now; host timing only, it decides which boundaries get a
 *   snapshot, never what a snapshot holds).
 * Nothing here touches the simulation: it only reads the live buffers.
 */
import { CORE_SLOTS, CTL, CTLF, CTLF_SLOTS, EPOCH_LOG_CAP, EVENTS_CAP, PAGE_HDR_SLOTS, SERIES_CAP, receivedTotals, type Layout, type Views } from '@manycore/engine';

/** Status.Paused of the engine's control block (a const enum there). */
const STATUS_PAUSED = 1;
export const DEFAULT_BUDGET_BYTES = 256 * 1024 * 1024;
/** Most of the main thread's wall time captures may take. */
export const CAPTURE_SHARE = 0.05;

/** One region of a snapshot: where it lives in the snapshot and which Views field it copies. */
interface Region {
  field: 'ctl' | 'ctlF' | 'core' | 'links' | 'ctrl' | 'isl' | 'tileDiv' | 'matrix' | 'mpb' | 'unit' | 'pageHdr' | 'pages';
  byteOffset: number;
  bytes: number;
}

/** The regions of a snapshot for `layout`, 8-byte aligned, and the bytes of one snapshot. */
export function snapshotRegions(layout: Layout): { regions: Region[]; bytes: number } {
  const sizes: [Region['field'], number][] = [
    ['ctl', 32 * 4],
    ['ctlF', CTLF_SLOTS * 8],
    ['core', layout.cores * CORE_SLOTS * 8],
    ['links', layout.links * 4 * 8],
    ['ctrl', layout.controllers * 16 * 8],
    ['isl', layout.islands * 4 * 8],
    ['tileDiv', layout.tiles * 4],
    ['matrix', layout.cores * layout.cores * 2 * 8],
    ['mpb', layout.tiles * layout.mpbBytes],
    ['unit', layout.unitBytes & ~3],
    ['pageHdr', layout.pagesPerCore > 0 ? layout.cores * PAGE_HDR_SLOTS * 8 : 0],
    ['pages', layout.cores * layout.pagesPerCore],
  ];
  const regions: Region[] = [];
  let at = 0;
  for (const [field, bytes] of sizes) {
    regions.push({ field, byteOffset: at, bytes });
    at += Math.ceil(bytes / 8) * 8;
  }
  return { regions, bytes: at };
}

/** Bytes of one snapshot of a run with this layout. */
export function snapshotBytes(layout: Layout): number {
  return snapshotRegions(layout).bytes;
}

export interface SnapshotInfo {
  epoch: number;
  timePs: number;
  /** 'live': captured from the run at a pause; 'replay': the final state of a replay stopped at timePs. */
  source: 'live' | 'replay';
}

interface Entry extends SnapshotInfo {
  slot: number;
}

function bytesOf(v: Views, field: Region['field']): Uint8Array {
  const a = v[field];
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Epoch boundaries recorded by the engine (its epoch log), and whether the log is full. */
export interface Boundaries {
  /** Distinct boundary times in ps, increasing (position i of the timeline). */
  timesPs: Float64Array;
  /** The first epoch (1-based) that reached each time. */
  epochs: Int32Array;
  /** Epochs committed; more than EPOCH_LOG_CAP means the later ones were not stored. */
  committed: number;
}

/**
 * The timeline's positions from the engine's epoch log: distinct boundary times, each with the
 * first epoch that reached it. Allocates (called when the user scrubs, not per frame).
 */
export function readBoundaries(v: Views): Boundaries {
  const committed = Atomics.load(v.ctl, CTL.epochLogCount);
  const n = Math.min(committed, EPOCH_LOG_CAP);
  const times = new Float64Array(n);
  const epochs = new Int32Array(n);
  let k = 0;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const t = v.epochLog[i]!;
    if (t === last) continue;
    times[k] = t;
    epochs[k] = i + 1;
    k++;
    last = t;
  }
  return { timesPs: times.slice(0, k), epochs: epochs.slice(0, k), committed };
}

/** A Views object over fresh plain arrays, shaped like `like` (the scrubbed views read it). */
export function scratchViews(like: Views): Views {
  const L = like.layout;
  const empty = new ArrayBuffer(0) as unknown as Views['state'];
  const mpb = new Uint8Array(like.mpb.length);
  return {
    layout: L,
    state: empty,
    pool: empty,
    ctl: new Int32Array(32),
    ctlF: new Float64Array(CTLF_SLOTS),
    core: new Float64Array(like.core.length),
    wlogF: new Float64Array(0),
    wlogU: new Uint32Array(0),
    txnF: new Float64Array(0),
    txnU: new Uint32Array(0),
    mpb,
    mpb32: new Uint32Array(mpb.buffer, 0, mpb.length >>> 2),
    tas: new Int32Array(0),
    blocks: new Int32Array(0),
    poolU8: new Uint8Array(0),
    pool32: new Uint32Array(0),
    links: new Float64Array(like.links.length),
    ctrl: new Float64Array(like.ctrl.length),
    isl: new Float64Array(like.isl.length),
    tileDiv: new Int32Array(like.tileDiv.length),
    matrix: new Float64Array(like.matrix.length),
    series: new Float64Array(SERIES_CAP * L.seriesStride),
    events: new Float64Array(EVENTS_CAP * 4),
    wake: new Int32Array(0),
    cal: new Float64Array(0),
    dram: new Float64Array(0),
    unit: new Int32Array(like.unit.length),
    epochLog: new Float64Array(0),
    pageHdr: new Float64Array(like.pageHdr.length),
    pages: new Uint8Array(like.pages.length),
  };
}

function ordinal(n: number): string {
  return `${n}${n % 10 === 2 && n % 100 !== 12 ? 'nd' : 'th'}`;
}

export class Recorder {
  readonly bytesPerSnapshot: number;
  readonly budgetBytes: number;
  /** Most snapshots the budget holds (at least 2). */
  readonly maxSnapshots: number;
  private readonly regions: Region[];
  private readonly slots: Uint8Array[] = [];
  private readonly free: number[] = [];
  private entries: Entry[] = [];
  /** Times the recording was thinned (every 2^thinned-th capture kept). */
  thinned = 0;
  private minGap = 1;
  private lastLiveEpoch = 0;
  private nextCaptureMs = -Infinity;
  /** The simulated time read by the last `begin` (its snapshot's). */
  private beginTimePs = 0;
  private readonly clock: () => number;
  /** Bumped whenever the set of snapshots changes. */
  version = 0;

  constructor(
    private readonly live: Views,
    opts: { budgetBytes?: number; clock?: () => number } = {},
  ) {
    this.clock = opts.clock ?? (() => performance.now());
    const { regions, bytes } = snapshotRegions(live.layout);
    this.regions = regions;
    this.bytesPerSnapshot = bytes;
    this.budgetBytes = opts.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.maxSnapshots = Math.max(2, Math.floor(this.budgetBytes / bytes));
  }

  get count(): number {
    return this.entries.length;
  }
  /** Host memory the snapshots take now, bytes. */
  get usedBytes(): number {
    return this.slots.length * this.bytesPerSnapshot;
  }
  snapshots(): readonly SnapshotInfo[] {
    return this.entries;
  }

  /**
   * Takes a snapshot when the run is held at an epoch boundary not recorded yet (cheap when it
   * is not). Returns true when it took one. Call from the frame loop and before every release.
   */
  capture(): boolean {
    const v = this.live;
    if (Atomics.load(v.ctl, CTL.status) !== STATUS_PAUSED) return false;
    const epoch = Atomics.load(v.ctl, CTL.epoch);
    const slot = this.begin(epoch);
    if (slot < 0) return false;
    if (Atomics.load(v.ctl, CTL.status) !== STATUS_PAUSED || Atomics.load(v.ctl, CTL.epoch) !== epoch) {
      this.free.push(slot); // released while copying: not a boundary state
      return false;
    }
    this.commit(epoch, slot);
    return true;
  }

  /**
   * Takes a snapshot of the live views as they are, which the caller vouches are still and at
   * an epoch boundary: the fallback's mirror right after a slice's copy was applied (nothing
   * else writes it; LiveRun.onSliceApplied). Same rules as `capture` otherwise. Returns true
   * when it took one.
   */
  captureAtBoundary(): boolean {
    const epoch = this.live.ctl[CTL.epoch]!;
    const slot = this.begin(epoch);
    if (slot < 0) return false;
    this.commit(epoch, slot);
    return true;
  }

  /** The capture rules for the live views at `epoch`; copies them into a slot (returned), or -1 when not taken. */
  private begin(epoch: number): number {
    const v = this.live;
    if (epoch <= 0 || epoch <= this.lastLiveEpoch || epoch - this.lastLiveEpoch < this.minGap) return -1;
    const timePs = v.ctlF[CTLF.simTimePs]!;
    // an epoch that repeats the previous boundary's time is not "the state at that time"
    if (epoch >= 2 && epoch - 2 < EPOCH_LOG_CAP && v.epochLog[epoch - 2] === timePs) return -1;
    if (this.find(epoch) >= 0) return -1;
    const t0 = this.clock();
    if (t0 < this.nextCaptureMs) return -1;
    const slot = this.takeSlot();
    this.copyIn(v, slot);
    const t1 = this.clock();
    this.nextCaptureMs = t1 + ((t1 - t0) * (1 - CAPTURE_SHARE)) / CAPTURE_SHARE;
    this.beginTimePs = timePs;
    return slot;
  }

  private commit(epoch: number, slot: number): void {
    this.lastLiveEpoch = epoch;
    this.insert({ epoch, timePs: this.beginTimePs, source: 'live', slot });
  }

  /**
   * Stores the final state of `v` (a replay stopped at `timePs`, its `epoch`-th epoch) as a
   * snapshot; its buffers must be still (the replay is over).
   */
  store(v: Views, epoch: number, timePs: number): void {
    if (this.find(epoch) >= 0) return;
    const slot = this.takeSlot();
    this.copyIn(v, slot);
    this.insert({ epoch, timePs, source: 'replay', slot });
  }

  /** The snapshot of exactly this epoch, or null. */
  at(epoch: number): SnapshotInfo | null {
    const i = this.find(epoch);
    return i >= 0 ? this.entries[i]! : null;
  }

  /**
   * Writes the snapshot of `epoch` into `target` (from scratchViews), with the live buffer's
   * time-series samples up to its time and the events it counted. False when there is none.
   */
  restore(epoch: number, target: Views): boolean {
    const i = this.find(epoch);
    if (i < 0) return false;
    const e = this.entries[i]!;
    const src = this.slots[e.slot]!;
    for (const r of this.regions) if (r.bytes > 0) bytesOf(target, r.field).set(src.subarray(r.byteOffset, r.byteOffset + r.bytes));
    const live = this.live;
    // series: the live samples up to T (the engine may have thinned them since; times increase)
    const stride = live.layout.seriesStride;
    const count = Atomics.load(live.ctl, CTL.seriesCount);
    let n = 0;
    while (n < count && live.series[n * stride]! <= e.timePs) n++;
    target.series.set(live.series.subarray(0, n * stride));
    target.ctl[CTL.seriesCount] = n;
    target.ctl[CTL.seriesStrideLog] = Atomics.load(live.ctl, CTL.seriesStrideLog);
    // events: the first eventsCount of the live log (the snapshot's count)
    target.events.set(live.events.subarray(0, Math.min(EVENTS_CAP, target.ctl[CTL.eventsCount]!) * 4));
    receivedTotals(target); // as the committer derives them at a sample: the same sums
    return true;
  }

  /** The notice to show, or null: thinning and a full epoch log are never silent. */
  notice(): string | null {
    const parts: string[] = [];
    if (this.thinned > 0)
      parts.push(
        `recording thinned: every ${ordinal(2 ** this.thinned)} snapshot kept, ${(this.usedBytes / 2 ** 20).toFixed(0)} MB (budget ${(this.budgetBytes / 2 ** 20).toFixed(0)} MB, ${(this.bytesPerSnapshot / 1024).toFixed(0)} KB per snapshot); other epochs are replayed from the start`,
      );
    const committed = Atomics.load(this.live.ctl, CTL.epochLogCount);
    if (committed > EPOCH_LOG_CAP) parts.push(`epoch log full: the timeline holds the first ${EPOCH_LOG_CAP} of ${committed} epochs`);
    return parts.length ? parts.join('; ') : null;
  }

  private find(epoch: number): number {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.entries[mid]!.epoch;
      if (e === epoch) return mid;
      if (e < epoch) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private insert(e: Entry): void {
    let i = this.entries.length;
    while (i > 0 && this.entries[i - 1]!.epoch > e.epoch) i--;
    this.entries.splice(i, 0, e);
    this.version++;
  }

  private copyIn(v: Views, slot: number): void {
    const dst = this.slots[slot]!;
    for (const r of this.regions) if (r.bytes > 0) dst.set(bytesOf(v, r.field).subarray(0, r.bytes), r.byteOffset);
  }

  private takeSlot(): number {
    const f = this.free.pop();
    if (f !== undefined) return f;
    if (this.slots.length >= this.maxSnapshots) {
      this.thin();
      const g = this.free.pop();
      if (g !== undefined) return g;
    }
    this.slots.push(new Uint8Array(this.bytesPerSnapshot));
    return this.slots.length - 1;
  }

  /** Drops every second live snapshot; later captures keep the spacing of those kept. */
  private thin(): void {
    const live = this.entries.filter((e) => e.source === 'live');
    const drop = new Set(live.filter((_, i) => i % 2 === 1));
    if (drop.size === 0) {
      // nothing to thin (all asked for by replays): drop the oldest replay
      const oldest = this.entries.shift();
      if (oldest) this.free.push(oldest.slot);
      this.version++;
      return;
    }
    for (const e of drop) this.free.push(e.slot);
    this.entries = this.entries.filter((e) => !drop.has(e));
    this.thinned++;
    const kept = live.filter((e) => !drop.has(e));
    const span = kept.length > 1 ? kept[kept.length - 1]!.epoch - kept[0]!.epoch : 0;
    this.minGap = Math.max(2 * this.minGap, kept.length > 1 ? Math.ceil(span / (kept.length - 1)) : 2);
    this.version++;
  }
}
