/**
 * Power: dynamic C x V^2 x f x activity per core, per-core leakage, mesh dynamic power plus
 * per-flit energy, per-transaction controller energy, and uncore static power.
 *
 * Activity of a core over a span = (busy + stallActivity x memory stalls + waitActivity x
 * waiting) / span length (time beyond the span is carried to the next spans as a credit;
 * waiting is spinning on a flag), floored at idleActivity (a core with nothing to run idles
 * in its OS). An island's voltage is the one
 * its fastest tile needs (the V/f table); frequency is per tile. Units: W, J, V, Hz.
 * Calibration of the SCC constants: presets/scc.ts. Stateless between calls except for the
 * shared slots (any worker may run it).
 */
import type { ResolvedChip } from './chip';
import { CORE_SLOTS, CTLF, CTRL_SLOTS, ISL_SLOTS, S, type Views } from './layout';
import { coreTile } from './topology';
import { C, CoreState } from './vocabulary';
import { CTRL } from './weave';

export const ISL = { energyJ: 0, powerW: 1, divisor: 2, volts: 3 } as const;

export class PowerModel {
  private readonly chip: ResolvedChip;
  private readonly v: Views;
  private readonly islandW: Float64Array;

  constructor(chip: ResolvedChip, v: Views) {
    this.chip = chip;
    this.v = v;
    this.islandW = new Float64Array(chip.islands);
  }

  /** Voltage of each island from its tiles' divisors. */
  islandVolts(island: number): number {
    const { chip, v } = this;
    let volts = 0;
    for (let t = 0; t < chip.topo.tiles; t++) {
      if (chip.islandOfTile[t] !== island) continue;
      const p = chip.vf.get(v.tileDiv[t]!);
      if (p && p.volts > volts) volts = p.volts;
    }
    return volts;
  }

  /** Accounts energy for the span [startPs, endPs); updates core, island and chip slots. */
  account(startPs: number, endPs: number): void {
    const { chip, v } = this;
    const span = endPs - startPs;
    if (span <= 0) return;
    const pw = chip.config.power;
    const dt = span * 1e-12;
    const cores = chip.topo.cores;
    this.islandW.fill(0);
    const volts = new Float64Array(chip.islands);
    for (let i = 0; i < chip.islands; i++) {
      volts[i] = this.islandVolts(i);
      v.isl[i * ISL_SLOTS + ISL.volts] = volts[i]!;
    }
    for (let core = 0; core < cores; core++) {
      const b = core * CORE_SLOTS;
      const c = v.core;
      const busy = c[b + C.busyPs]!;
      const stall =
        c[b + C.stallL1MissPs]! + c[b + C.stallL2MissPs]! + c[b + C.stallDramPs]! + c[b + C.stallMpbPs]! + c[b + C.stallNetworkPs]! + c[b + C.stallFlushPs]!;
      const dBusy = busy - c[b + S.prevBusyPs]!;
      const dStall = stall - c[b + S.prevStallPs]!;
      c[b + S.prevBusyPs] = busy;
      c[b + S.prevStallPs] = stall;
      // A core's clock runs ahead of the epoch (one compute may span several epochs): its
      // weighted active time is a credit spent over the following spans, so energy follows
      // simulated time rather than the epoch in which the work was executed.
      let credit = c[b + S.activeCreditPs]! + dBusy + pw.stallActivity * dStall;
      // Waiting is spinning on a flag: active. The part of a wait that fell in earlier spans
      // while the core was blocked was accounted then (waitAccountedPs); the rest is credited
      // when the wake shows up in stallWaitPs.
      const wait = c[b + C.stallWaitPs]!;
      const dWait = wait - c[b + S.prevWaitPs]!;
      c[b + S.prevWaitPs] = wait;
      if (dWait > 0) {
        credit += pw.waitActivity * Math.max(0, dWait - c[b + S.waitAccountedPs]!);
        c[b + S.waitAccountedPs] = 0;
      }
      const use = Math.min(credit, span);
      c[b + S.activeCreditPs] = credit - use;
      let activity = use / span;
      if (c[b + C.state] === CoreState.Blocked) {
        // the blocked part of this span, as far as the span has room left; what does not fit
        // is credited when the wake shows up
        const blocked = Math.min(Math.max(0, endPs - Math.max(startPs, c[b + S.blockedAtPs]!)), span - use);
        activity += (pw.waitActivity * blocked) / span;
        c[b + S.waitAccountedPs] += blocked;
      }
      activity = Math.max(pw.idleActivity, Math.min(1, activity));
      const tile = coreTile(chip.topo, core);
      const island = chip.islandOfTile[tile]!;
      const V = volts[island]!;
      const f = (chip.baseMHz / v.tileDiv[tile]!) * 1e6;
      const watts = pw.coreCapacitanceF * V * V * f * activity + pw.coreLeakageWPerV * V;
      c[b + S.powerW] = watts;
      c[b + C.energyJ] += watts * dt;
      this.islandW[island] += watts;
    }
    let coresW = 0;
    for (let i = 0; i < chip.islands; i++) {
      const w = this.islandW[i]!;
      coresW += w;
      v.isl[i * ISL_SLOTS + ISL.powerW] = w;
      v.isl[i * ISL_SLOTS + ISL.energyJ] += w * dt;
    }
    // mesh and controllers
    let flits = 0;
    for (let core = 0; core < cores; core++) flits += v.core[core * CORE_SLOTS + C.flits]!;
    let requests = 0;
    for (let m = 0; m < chip.controllers; m++) requests += v.ctrl[m * CTRL_SLOTS + CTRL.requests]!;
    const meshW = pw.meshCapacitanceF * pw.meshVolts * pw.meshVolts * (1e12 / chip.meshPeriodPs);
    // previous totals live in the shared control slots: any worker may be the committer
    const trafficJ =
      (flits - v.ctlF[CTLF.prevFlits]!) * pw.flitEnergyPJ * 1e-12 +
      (requests - v.ctlF[CTLF.prevRequests]!) * pw.controllerAccessEnergyNJ * 1e-9;
    v.ctlF[CTLF.prevFlits] = flits;
    v.ctlF[CTLF.prevRequests] = requests;
    const chipW = coresW + meshW + pw.uncoreStaticW + trafficJ / dt;
    v.ctlF[CTLF.chipPowerW] = chipW;
    v.ctlF[CTLF.chipEnergyJ] += chipW * dt;
  }
}
