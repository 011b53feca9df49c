/**
 * Chip power over a measured window, from the activity the cores report for that window.
 *
 * Same model and constants as the engine's power.ts (chip.config.power): per core
 * C V^2 f x activity + leakage x V, mesh C V^2 f, per-flit and per-DRAM-access energy, uncore
 * static power; activity = (busy + stallActivity x stalls + waitActivity x waits) / window,
 * floored at idleActivity; a core idles (idleActivity) after its own window ends and for the
 * whole window when it reports nothing.
 *
 * Why the workloads compute it: the engine's avgPowerW covers the whole run (set-up included),
 * and its power model counts a core's waiting time only when the core is still blocked at the
 * end of an epoch; a core woken in that same commit (most flag waits) has its wait counted as
 * idle. This window power counts every wait as the model's documented waitActivity.
 */
import { C, type Core, type ResolvedChip, type Row } from '@manycore/engine';
import { counter } from './counters';

/** What a core reports about its window (all ps / counts, deltas over the window). */
export interface WindowActivity {
  core: number;
  busyPs: number;
  stallPs: number;
  waitPs: number;
  flits: number;
  dramAccesses: number;
  /** the core's own window (from the common start to its end); idle for the rest of the span */
  ownPs: number;
}

const STALLS = [C.stallL1MissPs, C.stallL2MissPs, C.stallDramPs, C.stallMpbPs, C.stallNetworkPs, C.stallFlushPs];

/** A snapshot of this core's activity counters; `since(snapshot)` gives the window's deltas. */
export class ActivityMeter {
  private readonly start: number[];
  private readonly t0: number;
  constructor(private readonly core: Core) {
    this.start = this.read();
    this.t0 = core.now;
  }
  private read(): number[] {
    const c = this.core;
    let stall = 0;
    for (const k of STALLS) stall += counter(c, k);
    return [counter(c, C.busyPs), stall, counter(c, C.stallWaitPs), counter(c, C.flits), counter(c, C.dramReads) + counter(c, C.dramWrites)];
  }
  /** Deltas since construction, as flat row fields (prefix act_). */
  fields(): Row {
    const now = this.read();
    const d = now.map((x, i) => x - this.start[i]!);
    return {
      act_core: this.core.id,
      act_busyPs: d[0]!,
      act_stallPs: d[1]!,
      act_waitPs: d[2]!,
      act_flits: d[3]!,
      act_dram: d[4]!,
      act_ownPs: this.core.now - this.t0,
    };
  }
}

export function activityFromRow(r: Row): WindowActivity | null {
  if (typeof r.act_core !== 'number') return null;
  return {
    core: r.act_core,
    busyPs: r.act_busyPs as number,
    stallPs: r.act_stallPs as number,
    waitPs: r.act_waitPs as number,
    flits: r.act_flits as number,
    dramAccesses: r.act_dram as number,
    ownPs: r.act_ownPs as number,
  };
}

/** Chip power (W) over a window of `spanPs` in which the listed cores did the given work. */
export function windowPowerW(chip: ResolvedChip, spanPs: number, active: readonly WindowActivity[]): number {
  const pw = chip.config.power;
  const topo = chip.topo;
  const byCore = new Map(active.map((a) => [a.core, a]));
  // island voltage: the voltage its fastest tile needs
  const volts = new Float64Array(chip.islands);
  for (let t = 0; t < topo.tiles; t++) {
    const v = chip.vf.get(chip.tileDivisors[t]!)?.volts ?? 0;
    const i = chip.islandOfTile[t]!;
    if (v > volts[i]!) volts[i] = v;
  }
  let coresW = 0;
  let flits = 0;
  let dram = 0;
  for (let c = 0; c < topo.cores; c++) {
    const tile = Math.floor(c / topo.coresPerTile);
    const V = volts[chip.islandOfTile[tile]!]!;
    const f = (chip.baseMHz / chip.tileDivisors[tile]!) * 1e6;
    const a = byCore.get(c);
    let activity = pw.idleActivity;
    if (a) {
      const rest = Math.max(0, spanPs - a.ownPs);
      activity = (a.busyPs + pw.stallActivity * a.stallPs + pw.waitActivity * a.waitPs + pw.idleActivity * rest) / spanPs;
      activity = Math.max(pw.idleActivity, Math.min(1, activity));
      flits += a.flits;
      dram += a.dramAccesses;
    }
    coresW += pw.coreCapacitanceF * V * V * f * activity + pw.coreLeakageWPerV * V;
  }
  const meshW = pw.meshCapacitanceF * pw.meshVolts * pw.meshVolts * (1e12 / chip.meshPeriodPs);
  const trafficW = (flits * pw.flitEnergyPJ * 1e-12 + dram * pw.controllerAccessEnergyNJ * 1e-9) / (spanPs * 1e-12);
  return coresW + meshW + pw.uncoreStaticW + trafficW;
}
