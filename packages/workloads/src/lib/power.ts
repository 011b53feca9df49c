/**
 * What a core did over a measured window (busy, stall and wait time, flits, DRAM accesses),
 * reported in its rows so a workload can compute busy ratios of a timed region. Chip power
 * over a window comes from the engine's own power samples (windowPowerW in @manycore/engine).
 */
import { C, type SccCore, type Row } from '@manycore/engine';
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
  constructor(private readonly core: SccCore) {
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
