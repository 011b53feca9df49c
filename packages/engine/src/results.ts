/**
 * Results: the resolved experiment, every simulated statistic, the time series, the
 * workload's rows, a digest over all simulated values, and host figures (not in the digest).
 * Schema "manycore-results/1". Units are in the field names.
 */
import type { Row } from './core';
import { CORE_SLOTS, CTL, CTLF, CTRL_SLOTS, ISL_SLOTS, LINK_SLOTS, S, seriesOffsets, type Views } from './layout';
import type { PreparedRun } from './simulation';
import { ISL } from './power';
import { meshLinks, coreTile, tileX, tileY } from './topology';
import { PS_PER_NS } from './units';
import { C, CORE_STATE_NAMES, STALL_NAMES, type CoreState } from './vocabulary';
import { digestOf } from './digest';
import { paramsForDigest, protocolBugOf, type ProtocolBug } from './protocol-bug';
import { CTRL, LINK } from './weave';

export const RESULTS_SCHEMA = 'manycore-results/1';

export interface CoreResult {
  core: number;
  tile: number;
  x: number;
  y: number;
  state: string;
  runs: boolean;
  endTimeNs: number;
  cycles: number;
  busyNs: number;
  stallNs: Record<(typeof STALL_NAMES)[number], number>;
  sleepNs: number;
  utilization: number;
  loads: number;
  stores: number;
  l1Hits: number;
  l1Misses: number;
  l2Hits: number;
  l2Misses: number;
  dramReads: number;
  dramWrites: number;
  mpbReads: number;
  mpbWrites: number;
  bytesSent: number;
  bytesReceived: number;
  messagesSent: number;
  messagesReceived: number;
  flushes: number;
  flits: number;
  energyJ: number;
  /** Instructions executed (vocabulary C.instructions). */
  instructions: number;
  /** instructions / cycles: the RCCE study's IPC (wall-clock core cycles, paper 003 Table I); 0 for a core that never ran. */
  ipc: number;
  /** Bus reads from uncached pages (the P54C event "non-cacheable memory reads"; SCC only). */
  nonCacheableReads: number;
  /** Messages as a message-passing library logged them (RCCE: RCCE_put and RCCE_get calls). */
  loggedMessages: number;
  /** loggedMessages / instructions (0 without instructions). */
  messagesPerInstruction: number;
  /** Page faults taken (page-protection.ts): present only on cores that took any. */
  readFaults?: number;
  writeFaults?: number;
}

export interface Results {
  schema: typeof RESULTS_SCHEMA;
  experiment: PreparedRun['experiment'];
  chip: PreparedRun['chip']['config'];
  digest: string;
  simulated: {
    endTimeNs: number;
    epochs: number;
    stopped: boolean;
    chip: {
      energyJ: number;
      avgPowerW: number;
      loads: number;
      stores: number;
      cycles: number;
      instructions: number;
      dramReads: number;
      dramWrites: number;
      flits: number;
      activeCores: number;
    };
    cores: CoreResult[];
    links: { id: number; from: number; to: number; dir: string; flits: number; flitsPerUs: number }[];
    controllers: {
      controller: number;
      tile: number;
      x: number;
      y: number;
      requests: number;
      reads: number;
      writes: number;
      queueMax: number;
      queueDepthAtEnd: number;
      queueDelayNs: number;
      utilization: number;
      /** DDR model: transactions that found their row open, their bank closed, another row open (0 for model 'fixed'). */
      rowHits: number;
      rowMisses: number;
      rowConflicts: number;
    }[];
    islands: { island: number; tiles: number[]; divisor: number; volts: number; energyJ: number; avgPowerW: number }[];
    messageMatrix: { messages: number[][]; bytes: number[][] };
    events: PreparedRun['experiment']['timeline'];
  };
  series: {
    intervalNs: number;
    timeNs: number[];
    chipPowerW: number[];
    flitsPerUs: number[];
    islandPowerW: number[][];
    controllerRequests: number[][];
    controllerQueueDepth: number[][];
    coreUtilization: number[][];
  };
  workload: { name: string; params: Record<string, unknown>; rows: Row[]; [k: string]: unknown };
  /** Present when a protocol bug is on (protocol-bug.ts): the workload's switch and what should go wrong. */
  protocolBug?: ProtocolBug;
  host: { name: string; wallMs: number; workers: number; coresPerWorker: number; simOpsPerSec: number; simCoreCyclesPerSec: number };
}

/** Rounds to 9 significant digits so that printed values are stable and compact. */
function r(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(12));
}

export function buildResults(
  run: PreparedRun,
  v: Views,
  reported: Row[],
  host: { wallMs: number; workers: number; coresPerWorker: number; host: string; stopped: boolean },
): Results {
  const { chip } = run;
  const topo = chip.topo;
  const participants = new Set(run.settings.participants);
  const cores: CoreResult[] = [];
  let endPs = 0;
  for (const c of run.settings.participants) endPs = Math.max(endPs, v.core[c * CORE_SLOTS + C.clockPs]!);
  if (host.stopped) endPs = Math.max(endPs, v.ctlF[CTLF.simTimePs]!);
  const tot = { loads: 0, stores: 0, cycles: 0, instructions: 0, dramReads: 0, dramWrites: 0, flits: 0 };
  for (let id = 0; id < topo.cores; id++) {
    const b = id * CORE_SLOTS;
    const g = (k: number) => v.core[b + k]!;
    const tile = coreTile(topo, id);
    const clock = g(C.clockPs);
    const stallNs = {} as CoreResult['stallNs'];
    STALL_NAMES.forEach((name, i) => (stallNs[name] = r(g(C.stallL1MissPs + i) / PS_PER_NS)));
    const core: CoreResult = {
      core: id,
      tile,
      x: tileX(topo, tile),
      y: tileY(topo, tile),
      state: CORE_STATE_NAMES[g(C.state) as CoreState] ?? 'unknown',
      runs: participants.has(id),
      endTimeNs: r(clock / PS_PER_NS),
      cycles: r(g(C.cycles)),
      busyNs: r(g(C.busyPs) / PS_PER_NS),
      stallNs,
      sleepNs: r(g(C.sleepPs) / PS_PER_NS),
      utilization: clock > 0 ? r(g(C.busyPs) / clock) : 0,
      loads: g(C.loads),
      stores: g(C.stores),
      l1Hits: g(C.l1Hits),
      l1Misses: g(C.l1Misses),
      l2Hits: g(C.l2Hits),
      l2Misses: g(C.l2Misses),
      dramReads: g(C.dramReads),
      dramWrites: g(C.dramWrites),
      mpbReads: g(C.mpbReads),
      mpbWrites: g(C.mpbWrites),
      bytesSent: g(C.bytesSent),
      bytesReceived: g(C.bytesReceived),
      messagesSent: g(C.messagesSent),
      messagesReceived: g(C.messagesReceived),
      flushes: g(C.flushes),
      flits: g(C.flits),
      energyJ: r(g(C.energyJ)),
      instructions: g(C.instructions),
      ipc: g(C.cycles) > 0 ? r(g(C.instructions) / g(C.cycles)) : 0,
      nonCacheableReads: g(C.nonCacheableReads),
      loggedMessages: g(C.loggedMessages),
      messagesPerInstruction: g(C.instructions) > 0 ? r(g(C.loggedMessages) / g(C.instructions)) : 0,
      // only where a runtime protects pages (every earlier run's results and digest unchanged)
      ...(g(C.readFaults) + g(C.writeFaults) > 0 ? { readFaults: g(C.readFaults), writeFaults: g(C.writeFaults) } : {}),
    };
    cores.push(core);
    tot.loads += core.loads;
    tot.stores += core.stores;
    tot.cycles += core.cycles;
    tot.instructions += core.instructions;
    tot.dramReads += core.dramReads;
    tot.dramWrites += core.dramWrites;
    tot.flits += core.flits;
  }
  const accountedPs = Math.max(v.ctlF[CTLF.simTimePs]!, 1);
  const links = meshLinks(topo).map((l) => {
    const flits = v.links[l.id * LINK_SLOTS + LINK.flits]!;
    return { ...l, flits, flitsPerUs: r((flits / accountedPs) * 1e6) };
  });
  const controllers = Array.from({ length: chip.controllers }, (_, m) => {
    const b = m * CTRL_SLOTS;
    const tile = chip.controllerTile[m]!;
    return {
      controller: m,
      tile,
      x: tileX(topo, tile),
      y: tileY(topo, tile),
      requests: v.ctrl[b + CTRL.requests]!,
      reads: v.ctrl[b + CTRL.reads]!,
      writes: v.ctrl[b + CTRL.writes]!,
      queueMax: v.ctrl[b + CTRL.queueMax]!,
      queueDepthAtEnd: v.ctrl[b + CTRL.queueDepth]!,
      queueDelayNs: r(v.ctrl[b + CTRL.queueDelayPs]! / PS_PER_NS),
      utilization: r(v.ctrl[b + CTRL.busyPs]! / accountedPs),
      // DDR model (dram/ddr.ts): what each transaction found at its bank (all 0 for model 'fixed')
      rowHits: v.ctrl[b + CTRL.rowHits]!,
      rowMisses: v.ctrl[b + CTRL.rowMisses]!,
      rowConflicts: v.ctrl[b + CTRL.rowConflicts]!,
    };
  });
  const islands = Array.from({ length: chip.islands }, (_, i) => {
    const b = i * ISL_SLOTS;
    const tiles: number[] = [];
    for (let t = 0; t < topo.tiles; t++) if (chip.islandOfTile[t] === i) tiles.push(t);
    const energy = v.isl[b + ISL.energyJ]!;
    return {
      island: i,
      tiles,
      divisor: v.isl[b + ISL.divisor]!,
      volts: v.isl[b + ISL.volts]!,
      energyJ: r(energy),
      avgPowerW: r(energy / (accountedPs * 1e-12)),
    };
  });
  const messages: number[][] = [];
  const bytes: number[][] = [];
  for (let i = 0; i < topo.cores; i++) {
    const m: number[] = [];
    const by: number[] = [];
    for (let j = 0; j < topo.cores; j++) {
      m.push(v.matrix[(i * topo.cores + j) * 2]!);
      by.push(v.matrix[(i * topo.cores + j) * 2 + 1]!);
    }
    messages.push(m);
    bytes.push(by);
  }
  const energyJ = v.ctlF[CTLF.chipEnergyJ]!;
  const series = readSeries(v, chip.islands, chip.controllers, topo.cores);
  const events: Results['simulated']['events'] = [];
  const nEv = v.ctl[CTL.eventsCount]!;
  for (let i = 0; i < nEv; i++) {
    const [at, kind, target, value] = [v.events[i * 4]!, v.events[i * 4 + 1]!, v.events[i * 4 + 2]!, v.events[i * 4 + 3]!];
    events.push(
      kind === 1
        ? { kind: 'island-divisor', atNs: at / PS_PER_NS, island: target, divisor: value }
        : { kind: 'tile-divisor', atNs: at / PS_PER_NS, tile: target, divisor: value },
    );
  }
  const simulated: Results['simulated'] = {
    endTimeNs: r(endPs / PS_PER_NS),
    epochs: v.ctl[CTL.epoch]!,
    stopped: host.stopped,
    chip: {
      energyJ: r(energyJ),
      avgPowerW: r(energyJ / (accountedPs * 1e-12)),
      ...tot,
      cycles: r(tot.cycles),
      activeCores: participants.size,
    },
    cores,
    links,
    controllers,
    islands,
    messageMatrix: { messages, bytes },
    events,
  };
  // A run stopped before every core reported (a time limit, the scrub timeline's replay) may
  // not hold what a workload's summary needs: its rows are then the cores' own rows, and the
  // results say why (a run that finished never takes this path: its summary errors propagate).
  let summarized: Row[] = reported;
  let extra: Record<string, unknown> = {};
  let summaryNote: string | undefined;
  try {
    summarized = run.workload.summarize ? run.workload.summarize(reported, run.params as never, chip, simulated, series) : reported;
    extra = run.workload.extra ? run.workload.extra(reported, run.params as never, chip, simulated, series) : {};
  } catch (err) {
    if (!host.stopped) throw err;
    summarized = reported;
    extra = {};
    summaryNote = `the run stopped before every core reported, so the rows are the cores' own (the summary failed: ${err instanceof Error ? err.message : String(err)})`;
  }
  const workload = { name: run.workload.name, params: run.params, rows: summarized, ...extra, ...(summaryNote ? { summaryNote } : {}) };
  // the digest covers the parameters without `bug: 'none'` (the digest runs had before the switch)
  const digest = digestOf({ simulated, series, workload: { ...workload, params: paramsForDigest(workload.params as Record<string, unknown>) } });
  const protocolBug = protocolBugOf({ workload: { name: run.workload.name, params: run.params as Record<string, unknown> } }, { [run.workload.name]: run.workload });
  const wallS = Math.max(host.wallMs, 1) / 1000;
  return {
    schema: RESULTS_SCHEMA,
    experiment: run.experiment,
    chip: chip.config,
    digest,
    simulated,
    series,
    workload,
    ...(protocolBug ? { protocolBug } : {}),
    host: {
      name: host.host,
      wallMs: Math.round(host.wallMs),
      workers: host.workers,
      coresPerWorker: host.coresPerWorker,
      simOpsPerSec: Math.round((tot.loads + tot.stores) / wallS),
      simCoreCyclesPerSec: Math.round(tot.cycles / wallS),
    },
  };
}

/**
 * Average chip power (W) over the simulated window [fromNs, toNs], from the engine's power
 * samples (each the average over its interval), weighted by overlap. Resolution: the
 * experiment's sampling interval.
 */
export function windowPowerW(series: Results['series'], fromNs: number, toNs: number): number {
  let energy = 0;
  let covered = 0;
  let prev = 0;
  for (let i = 0; i < series.timeNs.length; i++) {
    const t = series.timeNs[i]!;
    const overlap = Math.min(t, toNs) - Math.max(prev, fromNs);
    if (overlap > 0) {
      energy += series.chipPowerW[i]! * overlap;
      covered += overlap;
    }
    prev = t;
  }
  return covered > 0 ? energy / covered : NaN;
}

export function readSeries(v: Views, islands: number, controllers: number, cores: number): Results['series'] {
  const n = v.ctl[CTL.seriesCount]!;
  const stride = v.layout.seriesStride;
  const s = v.series;
  const out: Results['series'] = {
    intervalNs: v.ctlF[CTLF.samplePs]! / PS_PER_NS,
    timeNs: [],
    chipPowerW: [],
    flitsPerUs: [],
    islandPowerW: [],
    controllerRequests: [],
    controllerQueueDepth: [],
    coreUtilization: [],
  };
  // the record layout commit.ts writes (one descriptor: seriesOffsets)
  const off = seriesOffsets(islands, controllers);
  for (let i = 0; i < n; i++) {
    const o = i * stride;
    out.timeNs.push(s[o + off.timePs]! / PS_PER_NS);
    out.chipPowerW.push(r(s[o + off.chipPowerW]!));
    out.flitsPerUs.push(r(s[o + off.flitsPerUs]!));
    out.islandPowerW.push(Array.from(s.subarray(o + off.islandPowerW, o + off.islandPowerW + islands), r));
    out.controllerRequests.push(Array.from(s.subarray(o + off.controllerRequests, o + off.controllerRequests + controllers)));
    out.controllerQueueDepth.push(Array.from(s.subarray(o + off.controllerQueueDepth, o + off.controllerQueueDepth + controllers)));
    out.coreUtilization.push(Array.from(s.subarray(o + off.coreUtilization, o + off.coreUtilization + cores), r));
  }
  return out;
}

void S;
