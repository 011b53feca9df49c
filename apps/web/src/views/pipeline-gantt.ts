/**
 * Pure derivations for the pipeline views (no DOM, no React): the stage timeline (Gantt
 * segments) from the chunk spans the workload reports or from the cores' live counters, the
 * queue occupancy between consecutive stages, the throughput curve, and the transfers between
 * stages on the mesh (hops, route links).
 *
 * Times are simulated ns since the start of the run (the set-up before the pipeline's start
 * barrier, e.g. stage 0 generating its input, comes first). The workload's spans are relative
 * to each stage's own start (its clock after the barrier); `stageOffsets` puts them on the run's
 * axis.
 */
import { coreHops, coreTile, forEachRouteLink, type ResolvedChip } from '@manycore/engine';

// ------------------------------------------------------------------ results

/** One chunk of one stage (ns since the stage's start). */
export interface ChunkSpan {
  chunk: number;
  /** Starts waiting for (or receiving) its input. */
  waitNs: number;
  /** Has its input; starts working. */
  inputNs: number;
  /** Work done (in cached-shared mode: flush, transform, flush). */
  workNs: number;
  /** Handed over to the next stage. */
  doneNs: number;
}

export interface PipelineStage {
  stage: number;
  core: number;
  x: number;
  y: number;
  bufferController: number;
  busyNs: number;
  waitNs: number;
  flushes: number;
  flushNs: number;
  endNs: number;
  spans: ChunkSpan[];
}

export interface PipelineResults {
  stages: PipelineStage[];
  row: { mode: string; order: string; stages: number; dataBytes: number; chunkBytes: number; tokenBytes: number; timeNs: number; throughputMBps: number; flushesPerCore: number };
  stageHops: { total: number; max: number } | null;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The pipeline part of results.workload, or null when it is not a pipeline's (checked field by field). */
export function pipelineResults(workload: { rows: unknown[]; [k: string]: unknown } | null | undefined): PipelineResults | null {
  if (!workload) return null;
  const stages = workload.stages;
  const row = workload.rows[0] as Record<string, unknown> | undefined;
  if (!Array.isArray(stages) || !row || !isNum(row.timeNs) || !isNum(row.dataBytes) || !isNum(row.chunkBytes)) return null;
  const out: PipelineStage[] = [];
  for (const s of stages as Record<string, unknown>[]) {
    if (!s || !isNum(s.stage) || !isNum(s.core) || !isNum(s.endNs) || !Array.isArray(s.spans)) return null;
    out.push({
      stage: s.stage,
      core: s.core,
      x: isNum(s.x) ? s.x : 0,
      y: isNum(s.y) ? s.y : 0,
      bufferController: isNum(s.bufferController) ? s.bufferController : -1,
      busyNs: isNum(s.busyNs) ? s.busyNs : 0,
      waitNs: isNum(s.waitNs) ? s.waitNs : 0,
      flushes: isNum(s.flushes) ? s.flushes : 0,
      flushNs: isNum(s.flushNs) ? s.flushNs : 0,
      endNs: s.endNs,
      spans: s.spans as ChunkSpan[],
    });
  }
  const hops = workload.stageHops as { total?: unknown; max?: unknown } | undefined;
  return {
    stages: out,
    row: {
      mode: String(row.mode ?? ''),
      order: String(row.order ?? ''),
      stages: isNum(row.stages) ? row.stages : out.length,
      dataBytes: row.dataBytes,
      chunkBytes: row.chunkBytes,
      tokenBytes: isNum(row.tokenBytes) ? row.tokenBytes : 0,
      timeNs: row.timeNs,
      throughputMBps: isNum(row.throughputMBps) ? row.throughputMBps : 0,
      flushesPerCore: isNum(row.flushesPerCore) ? row.flushesPerCore : 0,
    },
    stageHops: hops && isNum(hops.total) && isNum(hops.max) ? { total: hops.total, max: hops.max } : null,
  };
}

/**
 * The run time at which each stage's spans start (its clock after the start barrier). A stage
 * reports at its last handover, so start = endNs - the last span's doneNs when it recorded
 * every chunk; otherwise (more chunks than the workload records spans for) the pipeline's
 * common start: the latest end minus the pipeline's time.
 */
export function stageOffsets(r: PipelineResults): number[] {
  const chunks = Math.ceil(r.row.dataBytes / r.row.chunkBytes);
  const common = Math.max(...r.stages.map((s) => s.endNs)) - r.row.timeNs;
  return r.stages.map((s) => {
    const last = s.spans[s.spans.length - 1];
    return last && s.spans.length === chunks ? s.endNs - last.doneNs : common;
  });
}

/** The pipeline's start on the run's axis (the earliest stage start). */
export function pipelineStart(offsets: readonly number[]): number {
  return offsets.length ? Math.min(...offsets) : 0;
}

// ------------------------------------------------------------------ Gantt segments

/** Segment kinds. From spans: INPUT, WORK, HANDOVER; from live counters: WORK, WAIT, FLUSH. */
export const SEG = { input: 0, work: 1, handover: 2, wait: 3, flush: 4 } as const;
export type SegKind = (typeof SEG)[keyof typeof SEG];

export const SEG_LABEL: Record<SegKind, string> = {
  0: 'waiting for / receiving input',
  1: 'working',
  2: 'handing over (send)',
  3: 'waiting (blocked)',
  4: 'flushing (engine flush)',
};

/** Okabe-Ito colours (colour-blind safe), one per kind. */
export const SEG_COLOR: Record<SegKind, string> = {
  0: '#E69F00',
  1: '#0072B2',
  2: '#CC79A7',
  3: '#E69F00',
  4: '#009E73',
};

export interface Segment {
  start: number;
  end: number;
  kind: SegKind;
}

/** Gantt segments of one stage from its chunk spans (zero-length parts dropped), on the run's axis. */
export function spanSegments(spans: readonly ChunkSpan[], offset: number): Segment[] {
  const out: Segment[] = [];
  const add = (a: number, b: number, kind: SegKind) => {
    if (b > a) out.push({ start: offset + a, end: offset + b, kind });
  };
  for (const s of spans) {
    add(s.waitNs, s.inputNs, SEG.input);
    add(s.inputNs, s.workNs, SEG.work);
    add(s.workNs, s.doneNs, SEG.handover);
  }
  return out;
}

/** Total time per kind of a list of segments. */
export function segmentTotals(segs: readonly Segment[]): Record<SegKind, number> {
  const t: Record<SegKind, number> = { 0: 0, 1: 0, 2: 0, 3: 0, 4: 0 };
  for (const s of segs) t[s.kind] += s.end - s.start;
  return t;
}

// ------------------------------------------------------------------ live Gantt

/** The counters of one core the live Gantt reads each frame (ns). */
export interface CoreSample {
  clockNs: number;
  busyNs: number;
  /** Memory stalls (cache misses, DRAM, MPB, network): the core is working, slowed down. */
  stallNs: number;
  waitNs: number;
  flushNs: number;
}

/**
 * Segments of one row, appended in time order; an appended segment that continues the last
 * one with the same kind extends it. Plain arrays of numbers (no object per segment).
 */
export class SegmentList {
  starts: number[] = [];
  ends: number[] = [];
  kinds: SegKind[] = [];
  get length(): number {
    return this.starts.length;
  }
  push(start: number, end: number, kind: SegKind): void {
    if (!(end > start)) return;
    const n = this.starts.length;
    if (n > 0 && this.kinds[n - 1] === kind && Math.abs(this.ends[n - 1]! - start) < 1e-6) {
      this.ends[n - 1] = end;
      return;
    }
    this.starts.push(start);
    this.ends.push(end);
    this.kinds.push(kind);
  }
  /** Halves the count: each pair of neighbours becomes one segment of the longer one's kind. */
  compact(): void {
    const s: number[] = [];
    const e: number[] = [];
    const k: SegKind[] = [];
    for (let i = 0; i < this.starts.length; i += 2) {
      const j = Math.min(i + 1, this.starts.length - 1);
      const li = this.ends[i]! - this.starts[i]!;
      const lj = this.ends[j]! - this.starts[j]!;
      const kind = lj > li ? this.kinds[j]! : this.kinds[i]!;
      const n = k.length;
      if (n > 0 && k[n - 1] === kind && e[n - 1] === this.starts[i]) e[n - 1] = this.ends[j]!;
      else {
        s.push(this.starts[i]!);
        e.push(this.ends[j]!);
        k.push(kind);
      }
    }
    this.starts = s;
    this.ends = e;
    this.kinds = k;
  }
  count(kind: SegKind): number {
    let n = 0;
    for (const k of this.kinds) if (k === kind) n++;
    return n;
  }
  toSegments(): Segment[] {
    return this.starts.map((start, i) => ({ start, end: this.ends[i]!, kind: this.kinds[i]! }));
  }
}

/**
 * The live stage timeline: each frame, per stage core, the time its clock advanced since the
 * last frame is split by the counters' deltas into waiting (blocked on a flag: RCCE's
 * receive and synchronous send), flushing (the engine's flush) and working (busy plus memory
 * stalls), in that order. A frame covers one or more whole epochs, so a segment is exact in
 * total but its parts are ordered by this rule, not by when they happened inside the frame.
 * A blocked core's clock stands still until it is woken; `pendingFrom` says where its
 * current wait began (drawn up to the chip's time).
 */
export class LiveGantt {
  readonly rows: SegmentList[];
  readonly pendingFrom: number[];
  private readonly prev: (CoreSample | null)[];
  /** Most segments per row before `compact` halves them. */
  constructor(
    stages: number,
    readonly maxSegments = 6000,
  ) {
    this.rows = Array.from({ length: stages }, () => new SegmentList());
    this.prev = new Array<CoreSample | null>(stages).fill(null);
    this.pendingFrom = new Array<number>(stages).fill(NaN);
  }

  /** One frame's counters of stage `s`'s core; `blocked` while it waits. Returns true when a segment was added. */
  sample(s: number, c: CoreSample, blocked: boolean): boolean {
    const p = this.prev[s];
    this.pendingFrom[s] = blocked ? c.clockNs : NaN;
    if (!p) {
      // the first frame: everything so far (the set-up before the first frame) as one step
      this.prev[s] = { clockNs: 0, busyNs: 0, stallNs: 0, waitNs: 0, flushNs: 0 };
      return this.sample(s, c, blocked);
    }
    const d = c.clockNs - p.clockNs;
    // the clock is published at the end of each run phase, the counters as the core runs:
    // keep the deltas until the clock moves so that no time is lost
    if (!(d > 0)) return false;
    const wait = Math.max(0, c.waitNs - p.waitNs);
    const flush = Math.max(0, c.flushNs - p.flushNs);
    const work = Math.max(0, c.busyNs - p.busyNs) + Math.max(0, c.stallNs - p.stallNs);
    const total = wait + flush + work;
    const row = this.rows[s]!;
    let t = p.clockNs;
    if (total <= 0) row.push(t, t + d, SEG.work);
    else {
      const f = d / total;
      for (const [part, kind] of [
        [wait, SEG.wait],
        [flush, SEG.flush],
        [work, SEG.work],
      ] as const) {
        if (part <= 0) continue;
        row.push(t, t + part * f, kind);
        t += part * f;
      }
    }
    this.prev[s] = { ...c };
    if (row.length > this.maxSegments) row.compact();
    return true;
  }

  /** Latest time any row reaches. */
  endNs(): number {
    let m = 0;
    for (const r of this.rows) if (r.length) m = Math.max(m, r.ends[r.length - 1]!);
    return m;
  }
}

// ------------------------------------------------------------------ queues

export type QueueKind = 'ready' | 'held';

export interface StepSeries {
  /** Step function: ys[i] holds from xs[i] to xs[i + 1] (two points per change). */
  xs: number[];
  ys: number[];
  max: number;
  /** Time-weighted mean over [first event, last event]. */
  mean: number;
}

/**
 * Chunks between stage `a` and the next stage `b` over time (run axis).
 * ready: produced by a (its work on chunk i done) and not yet taken by b (b has chunk i's
 * input); held: from a starting to work on chunk i (writing its output) to b finishing
 * chunk i (the buffer slot is free again), i.e. chunks in a's output buffer or in flight.
 */
export function queueOccupancy(a: readonly ChunkSpan[], offA: number, b: readonly ChunkSpan[], offB: number, kind: QueueKind = 'ready'): StepSeries {
  const ev: [number, number][] = [];
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const sa = a[i]!;
    const sb = b[i]!;
    if (kind === 'ready') {
      ev.push([offA + sa.workNs, +1], [offB + sb.inputNs, -1]);
    } else {
      ev.push([offA + sa.inputNs, +1], [offB + sb.workNs, -1]);
    }
  }
  return stepsOf(ev);
}

/** A step function from (time, +-1) events; events at the same time are applied together. */
export function stepsOf(events: [number, number][]): StepSeries {
  const ev = [...events].sort((p, q) => p[0] - q[0]);
  const xs: number[] = [];
  const ys: number[] = [];
  let v = 0;
  let max = 0;
  let area = 0;
  let i = 0;
  while (i < ev.length) {
    const t = ev[i]![0];
    if (xs.length) area += v * (t - xs[xs.length - 1]!);
    if (xs.length) {
      xs.push(t);
      ys.push(v);
    }
    while (i < ev.length && ev[i]![0] === t) v += ev[i++]![1];
    xs.push(t);
    ys.push(v);
    max = Math.max(max, v);
  }
  const span = xs.length ? xs[xs.length - 1]! - xs[0]! : 0;
  return { xs, ys, max, mean: span > 0 ? area / span : 0 };
}

// ------------------------------------------------------------------ throughput

export interface ThroughputCurve {
  /** Time the last stage finished each chunk (run axis). */
  xs: number[];
  /** Bytes delivered by then. */
  bytes: number[];
  /** MB/s since the pipeline's start (10^6 B/s, as the workload's throughputMBps). */
  cumulativeMBps: number[];
  /** MB/s of each chunk: its bytes over the time since the previous chunk (the first: since the start). */
  perChunkMBps: number[];
}

/** Throughput of the last stage's output: chunks of `chunkBytes` (the last one shorter) out of `dataBytes`. */
export function throughputCurve(last: readonly ChunkSpan[], offset: number, startNs: number, chunkBytes: number, dataBytes: number): ThroughputCurve {
  const out: ThroughputCurve = { xs: [], bytes: [], cumulativeMBps: [], perChunkMBps: [] };
  let bytes = 0;
  let prev = startNs;
  for (const s of last) {
    const t = offset + s.workNs;
    const b = Math.max(0, Math.min(chunkBytes, dataBytes - s.chunk * chunkBytes));
    bytes += b;
    out.xs.push(t);
    out.bytes.push(bytes);
    out.cumulativeMBps.push(t > startNs ? (bytes / (t - startNs)) * 1000 : 0);
    out.perChunkMBps.push(t > prev ? (b / (t - prev)) * 1000 : 0);
    prev = t;
  }
  return out;
}

// ------------------------------------------------------------------ transfers on the mesh

export interface Transfer {
  from: number;
  to: number;
  /** Cores of the two stages. */
  fromCore: number;
  toCore: number;
  hops: number;
  /** Directed links of the X-Y route from the sender's tile to the receiver's, and back. */
  links: number[];
  back: number[];
}

/** The transfers between consecutive stages (stage s to s + 1) of a pipeline on `cores`. */
export function transfers(chip: ResolvedChip, cores: readonly number[]): Transfer[] {
  const out: Transfer[] = [];
  const topo = chip.topo;
  for (let s = 0; s + 1 < cores.length; s++) {
    const a = cores[s]!;
    const b = cores[s + 1]!;
    const links: number[] = [];
    const back: number[] = [];
    forEachRouteLink(topo, coreTile(topo, a), coreTile(topo, b), (l) => links.push(l));
    forEachRouteLink(topo, coreTile(topo, b), coreTile(topo, a), (l) => back.push(l));
    out.push({ from: s, to: s + 1, fromCore: a, toCore: b, hops: coreHops(topo, a, b), links, back });
  }
  return out;
}

/** A transfer is long when it crosses at least `LONG_HOPS` hops (on the SCC id order: 11 -> 12 is 6). */
export const LONG_HOPS = 3;
