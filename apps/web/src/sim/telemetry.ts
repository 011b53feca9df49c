/**
 * Live telemetry: everything the views draw, read straight from the simulation's shared
 * buffers once per animation frame. No allocation per frame: recent rates are exponential
 * moving averages over simulated time, the time series is read incrementally into growable
 * typed columns (re-read whole when the engine downsamples it).
 */
import {
  C,
  CORE_SLOTS,
  CTL,
  CTLF,
  CTRL,
  CTRL_SLOTS,
  ISL,
  ISL_SLOTS,
  LINK,
  LINK_SLOTS,
  meshLinks,
  PS_PER_NS,
  S,
  seriesOffsets,
  STALL_NAMES,
  type PreparedRun,
  type ResolvedChip,
  type UnitOccupancySpec,
  type Views,
} from '@manycore/engine';
import { floorplanOf, hasMpb } from '../lib/floorplan';
import { readUnitOccupancy, unitOccupancyOf } from '../lib/unit-occupancy';

export const STALLS = STALL_NAMES.length;

/** A growable column of numbers. */
export class Column {
  data = new Float64Array(256);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
  clear(): void {
    this.length = 0;
  }
  get(i: number): number {
    return this.data[i]!;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Time series columns, the same values as results.series. */
export class SeriesColumns {
  readonly timeNs = new Column();
  readonly chipPowerW = new Column();
  readonly flitsPerUs = new Column();
  readonly islandPowerW: Column[];
  readonly controllerRequests: Column[];
  readonly controllerQueueDepth: Column[];
  /** Controller bandwidth over each sample interval, GB/s (derived from the request counts). */
  readonly controllerGBps: Column[];
  /** The engine's one series-record layout for this chip's islands and controllers. */
  private readonly off: ReturnType<typeof seriesOffsets>;
  constructor(
    readonly islands: number,
    readonly controllers: number,
  ) {
    this.off = seriesOffsets(islands, controllers);
    this.islandPowerW = Array.from({ length: islands }, () => new Column());
    this.controllerRequests = Array.from({ length: controllers }, () => new Column());
    this.controllerQueueDepth = Array.from({ length: controllers }, () => new Column());
    this.controllerGBps = Array.from({ length: controllers }, () => new Column());
  }
  get length(): number {
    return this.timeNs.length;
  }
  clear(): void {
    for (const c of [this.timeNs, this.chipPowerW, this.flitsPerUs, ...this.islandPowerW, ...this.controllerRequests, ...this.controllerQueueDepth, ...this.controllerGBps]) c.clear();
  }
  /** Appends sample i from an engine series record layout (as readSeries reads it). */
  pushRecord(s: Float64Array, o: number, lineBytes: number): void {
    const prevT = this.timeNs.length ? this.timeNs.get(this.timeNs.length - 1) : 0;
    const off = this.off;
    const t = s[o + off.timePs]! / PS_PER_NS;
    this.timeNs.push(t);
    this.chipPowerW.push(s[o + off.chipPowerW]!);
    this.flitsPerUs.push(s[o + off.flitsPerUs]!);
    for (let i = 0; i < this.islands; i++) this.islandPowerW[i]!.push(s[o + off.islandPowerW + i]!);
    for (let m = 0; m < this.controllers; m++) {
      const req = s[o + off.controllerRequests + m]!;
      const col = this.controllerRequests[m]!;
      const prev = col.length ? col.get(col.length - 1) : 0;
      col.push(req);
      const dt = t - prevT;
      this.controllerGBps[m]!.push(dt > 0 ? ((req - prev) * lineBytes) / dt : 0);
    }
    for (let m = 0; m < this.controllers; m++) this.controllerQueueDepth[m]!.push(s[o + off.controllerQueueDepth + m]!);
  }
  /**
   * Columns from a finished run's results.series; `transactionBytes`: bytes per controller
   * request of that run's chip (its FloorplanSpec.transactionBytes), for the bandwidth.
   */
  static fromResults(
    series: {
    timeNs: number[];
    chipPowerW: number[];
    flitsPerUs: number[];
    islandPowerW: number[][];
    controllerRequests: number[][];
    controllerQueueDepth: number[][];
    },
    transactionBytes: number,
  ): SeriesColumns {
    const islands = series.islandPowerW[0]?.length ?? 0;
    const controllers = series.controllerRequests[0]?.length ?? 0;
    const out = new SeriesColumns(islands, controllers);
    const off = seriesOffsets(islands, controllers);
    const rec = new Float64Array(off.coreUtilization);
    series.timeNs.forEach((t, i) => {
      rec[off.timePs] = t * PS_PER_NS;
      rec[off.chipPowerW] = series.chipPowerW[i]!;
      rec[off.flitsPerUs] = series.flitsPerUs[i]!;
      rec.set(series.islandPowerW[i]!, off.islandPowerW);
      rec.set(series.controllerRequests[i]!, off.controllerRequests);
      rec.set(series.controllerQueueDepth[i]!, off.controllerQueueDepth);
      out.pushRecord(rec, 0, transactionBytes);
    });
    return out;
  }
}

export type Window = 'recent' | 'run';

export class Telemetry {
  readonly chip: ResolvedChip;
  readonly views: Views;
  readonly cores: number;
  readonly tiles: number;
  readonly links: { id: number; from: number; to: number; dir: string }[];
  readonly series: SeriesColumns;
  /** Simulated time of the last update, ns. */
  simNs = 0;
  /** Bumped whenever the data changed (views redraw when it differs from what they drew). */
  version = 0;
  // recent rates (EMA over simulated time)
  readonly utilRecent: Float64Array;
  readonly stallRecent: Float64Array; // cores x STALLS, share of time
  readonly msgRecent: Float64Array; // messages per µs
  readonly linkRecent: Float64Array; // flits per µs, by link id
  readonly ctrlBwRecent: Float64Array; // GB/s
  readonly ctrlUtilRecent: Float64Array;
  readonly mpbOccupancy: Float64Array; // per tile, share of non-zero bytes
  /** The family's per-tile memory-side unit (FloorplanSpec.unitOccupancy), or null. */
  readonly unit: UnitOccupancySpec | null;
  /** Per tile, filled slots of its part of the unit (e.g. lines in a TILE64 home L2 slice). */
  readonly unitUsed: Int32Array;
  private readonly prevCore: Float64Array;
  private readonly prevLinks: Float64Array;
  private readonly prevCtrl: Float64Array;
  private prevPs = 0;
  private seriesRead = 0;
  private seriesLog = 0;
  private mpbAt = -Infinity;
  private unitAt = -Infinity;
  private unitDirty = true;
  /** Least wall time between two scans of the unit state, ms (0: every frame; big units less often). */
  private readonly unitEveryMs: number;
  private readonly tauPs: number;
  /** Bytes per memory-controller request (the family's FloorplanSpec.transactionBytes). */
  readonly lineBytes: number;
  /** Whether the tiles hold MPBs (then the `mpb` region is scanned for occupancy). */
  readonly hasMpb: boolean;

  constructor(run: PreparedRun, views: Views) {
    this.chip = run.chip;
    this.views = views;
    this.cores = run.chip.topo.cores;
    this.tiles = run.chip.topo.tiles;
    this.links = meshLinks(run.chip.topo);
    const spec = floorplanOf(run.chip);
    this.lineBytes = spec.transactionBytes;
    this.hasMpb = hasMpb(spec);
    this.series = new SeriesColumns(run.chip.islands, run.chip.controllers);
    const n = this.cores;
    this.utilRecent = new Float64Array(n);
    this.stallRecent = new Float64Array(n * STALLS);
    this.msgRecent = new Float64Array(n);
    this.linkRecent = new Float64Array(run.chip.topo.links);
    this.ctrlBwRecent = new Float64Array(run.chip.controllers);
    this.ctrlUtilRecent = new Float64Array(run.chip.controllers);
    this.mpbOccupancy = new Float64Array(this.tiles);
    this.unit = unitOccupancyOf(spec);
    this.unitUsed = new Int32Array(this.unit ? this.tiles : 0);
    this.unitEveryMs = this.unit && this.unit.slotsPerTile * this.tiles > 1 << 18 ? 250 : 0;
    this.prevCore = new Float64Array(n * 3 + n * STALLS);
    this.prevLinks = new Float64Array(run.chip.topo.links);
    this.prevCtrl = new Float64Array(run.chip.controllers * 2);
    // the moving average forgets over ~8 epochs of simulated time
    this.tauPs = Math.max(run.settings.quantumPs * 8, 1);
  }

  simTimePs(): number {
    return this.views.ctlF[CTLF.simTimePs]!;
  }

  /** Reads the buffers; returns true when anything changed. `wallMs` paces the MPB scan. */
  update(wallMs: number): boolean {
    const v = this.views;
    const now = v.ctlF[CTLF.simTimePs]!;
    let changed = false;
    if (now !== this.prevPs) {
      const dt = now - this.prevPs;
      if (dt > 0) this.rates(dt);
      this.prevPs = now;
      this.simNs = now / PS_PER_NS;
      changed = true;
    }
    if (this.readSeries()) changed = true;
    if (changed && this.hasMpb && wallMs - this.mpbAt > 250) {
      this.mpbAt = wallMs;
      this.scanMpb();
    }
    // the unit's committed state: every frame the run moved (large units at most every 250 ms,
    // and once more after the last change, so the final state is always read)
    if (changed) this.unitDirty = true;
    if (this.unit && this.unitDirty && wallMs - this.unitAt >= this.unitEveryMs) {
      this.unitAt = wallMs;
      this.unitDirty = false;
      if (readUnitOccupancy(this.views.unit, this.unit, this.unitUsed)) changed = true;
    }
    if (changed) this.version++;
    return changed;
  }

  private rates(dtPs: number): void {
    const v = this.views;
    const c = v.core;
    const n = this.cores;
    const w = 1 - Math.exp(-dtPs / this.tauPs);
    const prev = this.prevCore;
    for (let core = 0; core < n; core++) {
      const b = core * CORE_SLOTS;
      const busy = c[b + C.busyPs]!;
      const msgs = c[b + C.messagesSent]!;
      const u = Math.min(1, Math.max(0, (busy - prev[core * 2]!) / dtPs));
      this.utilRecent[core]! += w * (u - this.utilRecent[core]!);
      const m = ((msgs - prev[core * 2 + 1]!) / dtPs) * 1e6;
      this.msgRecent[core]! += w * (m - this.msgRecent[core]!);
      prev[core * 2] = busy;
      prev[core * 2 + 1] = msgs;
      for (let s = 0; s < STALLS; s++) {
        const k = n * 2 + core * STALLS + s;
        const val = c[b + C.stallL1MissPs + s]!;
        const share = Math.min(1, Math.max(0, (val - prev[k]!) / dtPs));
        const r = core * STALLS + s;
        this.stallRecent[r]! += w * (share - this.stallRecent[r]!);
        prev[k] = val;
      }
    }
    for (const l of this.links) {
      const f = v.links[l.id * LINK_SLOTS + LINK.flits]!;
      const rate = ((f - this.prevLinks[l.id]!) / dtPs) * 1e6;
      this.linkRecent[l.id]! += w * (rate - this.linkRecent[l.id]!);
      this.prevLinks[l.id] = f;
    }
    for (let m = 0; m < this.chip.controllers; m++) {
      const b = m * CTRL_SLOTS;
      const req = v.ctrl[b + CTRL.requests]!;
      const busy = v.ctrl[b + CTRL.busyPs]!;
      const bw = ((req - this.prevCtrl[m * 2]!) * this.lineBytes) / (dtPs / PS_PER_NS); // bytes per ns = GB/s
      this.ctrlBwRecent[m]! += w * (bw - this.ctrlBwRecent[m]!);
      const u = Math.min(1, Math.max(0, (busy - this.prevCtrl[m * 2 + 1]!) / dtPs));
      this.ctrlUtilRecent[m]! += w * (u - this.ctrlUtilRecent[m]!);
      this.prevCtrl[m * 2] = req;
      this.prevCtrl[m * 2 + 1] = busy;
    }
  }

  private readSeries(): boolean {
    const v = this.views;
    const count = v.ctl[CTL.seriesCount]!;
    const log = v.ctl[CTL.seriesStrideLog]!;
    if (log !== this.seriesLog || count < this.seriesRead) {
      this.series.clear();
      this.seriesRead = 0;
      this.seriesLog = log;
    }
    if (count === this.seriesRead) return false;
    const stride = v.layout.seriesStride;
    for (let i = this.seriesRead; i < count; i++) this.series.pushRecord(v.series, i * stride, this.lineBytes);
    this.seriesRead = count;
    return true;
  }

  private scanMpb(): void {
    const bytes = this.chip.mpbBytes;
    const mpb = this.views.mpb;
    for (let t = 0; t < this.tiles; t++) {
      let used = 0;
      const end = (t + 1) * bytes;
      for (let i = t * bytes; i < end; i += 4) if (mpb[i] | mpb[i + 1]! | mpb[i + 2]! | mpb[i + 3]!) used += 4;
      this.mpbOccupancy[t] = used / bytes;
    }
  }

  // ---- whole-run values ----

  core(core: number, slot: number): number {
    return this.views.core[core * CORE_SLOTS + slot]!;
  }
  corePowerW(core: number): number {
    return this.views.core[core * CORE_SLOTS + S.powerW]!;
  }
  utilRun(core: number): number {
    const clock = this.core(core, C.clockPs);
    return clock > 0 ? Math.min(1, this.core(core, C.busyPs) / clock) : 0;
  }
  stallRun(core: number, stall: number): number {
    const clock = this.core(core, C.clockPs);
    return clock > 0 ? Math.min(1, this.core(core, C.stallL1MissPs + stall) / clock) : 0;
  }
  linkRun(id: number): number {
    const t = this.simTimePs();
    return t > 0 ? (this.views.links[id * LINK_SLOTS + LINK.flits]! / t) * 1e6 : 0;
  }
  ctrlBwRun(m: number): number {
    const t = this.simTimePs() / PS_PER_NS;
    return t > 0 ? (this.views.ctrl[m * CTRL_SLOTS + CTRL.requests]! * this.lineBytes) / t : 0;
  }
  ctrlUtilRun(m: number): number {
    const t = this.simTimePs();
    return t > 0 ? Math.min(1, this.views.ctrl[m * CTRL_SLOTS + CTRL.busyPs]! / t) : 0;
  }
  ctrl(m: number, slot: number): number {
    return this.views.ctrl[m * CTRL_SLOTS + slot]!;
  }
  island(i: number, slot: number): number {
    return this.views.isl[i * ISL_SLOTS + slot]!;
  }
  islandPowerW(i: number): number {
    return this.island(i, ISL.powerW);
  }
  chipPowerW(): number {
    return this.views.ctlF[CTLF.chipPowerW]!;
  }
  messages(i: number, j: number): number {
    return this.views.matrix[(i * this.cores + j) * 2]!;
  }
}
