/**
 * What the chip view can colour cores by, and how to read each metric from the telemetry
 * in the two windows: "recent" (moving average over the last few epochs, while running)
 * and "run" (the whole run so far).
 */
import { C, STALL_NAMES, type FloorplanSpec } from '@manycore/engine';
import { hasMpb } from '../lib/floorplan';
import { num, pct, watts } from '../lib/format';
import type { Telemetry, Window } from './telemetry';

export interface CoreMetric {
  id: string;
  label: string;
  /** Legend title, with unit. */
  unit: string;
  /** Upper end of the colour scale (lower end is 0). */
  max(t: Telemetry, win: Window): number;
  value(t: Telemetry, core: number, win: Window): number;
  format(v: number): string;
}

const STALL_LABELS: Record<(typeof STALL_NAMES)[number], string> = {
  l1Miss: 'L1 miss (L2 hit)',
  l2Miss: 'L2 miss (DRAM fill)',
  dram: 'uncached DRAM',
  mpb: 'MPB access',
  network: 'network/controller queueing',
  wait: 'waiting (flag, barrier, lock)',
  flush: 'cache flush',
};

export function stallLabel(i: number): string {
  return STALL_LABELS[STALL_NAMES[i]!] ?? STALL_NAMES[i]!;
}

const share = (v: number) => pct(v);

function ipcOf(t: Telemetry, c: number): number {
  const cycles = t.core(c, C.cycles);
  return cycles > 0 ? t.core(c, C.instructions) / cycles : 0;
}

export const CORE_METRICS: CoreMetric[] = [
  {
    id: 'utilization',
    label: 'Utilisation (busy share)',
    unit: 'busy share of time',
    max: () => 1,
    value: (t, c, w) => (w === 'recent' ? t.utilRecent[c]! : t.utilRun(c)),
    format: share,
  },
  ...STALL_NAMES.map(
    (name, i): CoreMetric => ({
      id: `stall-${name}`,
      label: `Stall: ${STALL_LABELS[name]}`,
      unit: `share of time stalled on ${STALL_LABELS[name]}`,
      max: () => 1,
      value: (t, c, w) => (w === 'recent' ? t.stallRecent[c * STALL_NAMES.length + i]! : t.stallRun(c, i)),
      format: share,
    }),
  ),
  {
    // the RCCE study's IPC: instructions / wall-clock core cycles (whole run in both windows)
    id: 'ipc',
    label: 'IPC (instructions / cycles)',
    unit: 'instructions per wall-clock cycle, run so far',
    max: (t) => {
      let m = 0;
      for (let c = 0; c < t.cores; c++) m = Math.max(m, ipcOf(t, c));
      return m > 0 ? m : 1;
    },
    value: (t, c) => ipcOf(t, c),
    format: (v) => v.toFixed(3),
  },
  {
    id: 'power',
    label: 'Power',
    unit: 'core power, W',
    max: (t) => {
      // the most a core of this chip draws: fastest V/f point at full activity
      let m = 0;
      const pw = t.chip.config.power;
      for (const [d, p] of t.chip.vf) m = Math.max(m, pw.coreCapacitanceF * p.volts * p.volts * (t.chip.baseMHz / d) * 1e6 + pw.coreLeakageWPerV * p.volts);
      const now = t.chip.config.clocks.divisor;
      const p = t.chip.vf.get(now);
      const typical = p ? pw.coreCapacitanceF * p.volts * p.volts * (t.chip.baseMHz / now) * 1e6 + pw.coreLeakageWPerV * p.volts : m;
      return Math.min(m, typical * 1.05);
    },
    value: (t, c, w) => {
      if (w === 'recent') return t.corePowerW(c);
      const s = t.core(c, C.clockPs) > 0 ? t.simTimePs() * 1e-12 : 0;
      return s > 0 ? t.core(c, C.energyJ) / s : 0;
    },
    format: watts,
  },
  {
    id: 'mpb',
    label: 'MPB occupancy (tile)',
    unit: 'non-zero share of the tile MPB',
    max: () => 1,
    value: (t, c) => t.mpbOccupancy[Math.floor(c / t.chip.topo.coresPerTile)]!,
    format: share,
  },
  {
    id: 'messages',
    label: 'Messages sent',
    unit: 'messages sent (recent: per µs)',
    max: (t, w) => {
      let m = 0;
      for (let c = 0; c < t.cores; c++) m = Math.max(m, w === 'recent' ? t.msgRecent[c]! : t.core(c, C.messagesSent));
      return m > 0 ? m : 1;
    },
    value: (t, c, w) => (w === 'recent' ? t.msgRecent[c]! : t.core(c, C.messagesSent)),
    format: (v) => num(v),
  },
  {
    id: 'l1',
    label: 'L1D occupancy',
    unit: 'valid share of L1D lines',
    max: () => 1,
    value: (t, c) => t.core(c, C.l1Lines) / (t.chip.l1d.sets * t.chip.l1d.ways),
    format: share,
  },
];

export function metricById(id: string): CoreMetric {
  return CORE_METRICS.find((m) => m.id === id) ?? CORE_METRICS[0]!;
}

/** Metrics that need the tiles' message-passing buffers (the engine's MPB region and MPB counters). */
const MPB_METRICS = new Set(['mpb', 'stall-mpb']);

/** The metrics that mean something on a chip of this floorplan (no MPB metrics without MPBs). */
export function metricsFor(spec: FloorplanSpec): CoreMetric[] {
  return hasMpb(spec) ? CORE_METRICS : CORE_METRICS.filter((m) => !MPB_METRICS.has(m.id));
}

/** The metric `id` if it means something on this floorplan, else the first (utilisation). */
export function metricFor(spec: FloorplanSpec, id: string): CoreMetric {
  const list = metricsFor(spec);
  return list.find((m) => m.id === id) ?? list[0]!;
}

/** Whether stall kind `i` (STALL_NAMES) can happen on this floorplan. */
export function stallApplies(spec: FloorplanSpec, i: number): boolean {
  return STALL_NAMES[i] !== 'mpb' || hasMpb(spec);
}

/** Upper end of the link colour scale: the busiest link, rounded up, at least 1 flit/µs. */
export function linkMax(t: Telemetry, win: Window): number {
  let m = 0;
  for (const l of t.links) m = Math.max(m, win === 'recent' ? t.linkRecent[l.id]! : t.linkRun(l.id));
  return niceCeil(Math.max(m, 1));
}

export function niceCeil(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const f of [1, 2, 2.5, 5, 10]) if (x <= f * p) return f * p;
  return 10 * p;
}
