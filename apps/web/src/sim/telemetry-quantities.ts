/**
 * The chip-wide quantities the page shows in more than one place (live counters, progress
 * area, results key numbers, Compare), each computed in one place with one label:
 *  - from the live telemetry (liveTotals, no allocation: fills the caller's object), and
 *  - from a finished run's results JSON (resultTotals),
 * so that the counters at the end of a run and the results agree, and the labels say what
 * each counts. Two quantities that sound alike are kept apart and named:
 *  - "flits injected": flits the cores put into the network, each packet's flits counted once
 *    (results.simulated.chip.flits, the sum of the cores' flit counters);
 *  - "flit-hops on links": flits counted on every link they cross (the sum of
 *    results.simulated.links[].flits; the network chart's flit-hops per µs). A packet that
 *    crosses 4 links adds its flits once to the first and 4 times to the second; one that
 *    stays on its tile adds none to the second.
 *  - "chip clock": simulated time the chip has reached, the end of the last epoch run (the
 *    progress area; at the end the last sample of results.series.timeNs, the time the
 *    averages are over); "workload finished at": the last participating core's clock
 *    (results.simulated.endTimeNs), before or at the chip clock's end.
 */
import { C, CTRL, LINK, LINK_SLOTS, type Results } from '@manycore/engine';
import { integer, joules, simTime, watts } from '../lib/format';
import type { Telemetry } from './telemetry';
import type { TermId } from '../lib/glossary';

export type QuantityId =
  | 'chipClockNs'
  | 'finishNs'
  | 'powerNowW'
  | 'avgPowerW'
  | 'energyJ'
  | 'loads'
  | 'stores'
  | 'loadsStores'
  | 'dramReads'
  | 'controllerRequests'
  | 'flitsInjected'
  | 'flitHops'
  | 'messagesSent'
  | 'readFaults'
  | 'writeFaults'
  | 'epochs';

export interface Quantity {
  label: string;
  /** What it counts, for a tooltip. */
  title: string;
  /** The glossary term its label uses (lib/glossary.ts), shown on hover where the label appears. */
  term?: TermId;
  format(v: number): string;
}

/** Counts: the label names what is counted, the value is the number (exact below 100 000). */
const counted = (v: number) => integer(v, 4);

export const QUANTITIES: Readonly<Record<QuantityId, Quantity>> = {
  chipClockNs: { label: 'chip clock', title: 'simulated time the chip has reached: the end of the last epoch run', format: (v) => simTime(v, 5) },
  finishNs: { label: 'workload finished at', title: "simulated time when the last participating core finished (the chip clock runs on to the end of that epoch)", format: (v) => simTime(v, 5) },
  powerNowW: { label: 'chip power now', title: 'whole-chip power over the last epoch', format: watts },
  avgPowerW: { label: 'average chip power', title: 'chip energy divided by the chip clock at the end', format: watts },
  energyJ: { label: 'chip energy', title: 'energy of the whole chip over the run', format: joules },
  loads: { label: 'loads', title: 'loads executed by all cores', format: counted },
  stores: { label: 'stores', title: 'stores executed by all cores', format: counted },
  loadsStores: { label: 'loads + stores', title: 'loads and stores executed by all cores', format: counted },
  dramReads: { label: 'DRAM reads', title: 'line reads from DRAM the cores issued', format: counted },
  controllerRequests: { label: 'memory-controller requests', title: 'requests the memory controllers served (reads and writes, all sources)', format: counted },
  flitsInjected: { label: 'flits injected', term: 'flit', title: "flits the cores put into the network, each packet's flits counted once", format: counted },
  flitHops: { label: 'flit-hops on links', term: 'flitHop', title: 'flits counted on every mesh link they cross (a packet crossing 4 links counts 4 times)', format: counted },
  messagesSent: { label: 'messages sent', title: 'messages the cores sent', format: counted },
  readFaults: { label: 'read faults', title: 'page faults taken by loads of protected pages (all cores; a page-protection runtime such as a DSM)', format: counted },
  writeFaults: { label: 'write faults', title: 'page faults taken by stores to protected pages (all cores; a page-protection runtime such as a DSM)', format: counted },
  epochs: { label: 'epochs', term: 'epoch', title: 'epochs simulated (the chip advances one epoch at a time)', format: counted },
};

export type Totals = Record<QuantityId, number>;

export function emptyTotals(): Totals {
  return {
    chipClockNs: 0,
    finishNs: 0,
    powerNowW: 0,
    avgPowerW: 0,
    energyJ: 0,
    loads: 0,
    stores: 0,
    loadsStores: 0,
    dramReads: 0,
    controllerRequests: 0,
    flitsInjected: 0,
    flitHops: 0,
    messagesSent: 0,
    readFaults: 0,
    writeFaults: 0,
    epochs: 0,
  };
}

/**
 * The totals from the live buffers into `out` (allocation-free; per frame). finishNs,
 * avgPowerW, energyJ and epochs are the results' business and stay 0 here.
 */
export function liveTotals(t: Telemetry, out: Totals): Totals {
  let loads = 0;
  let stores = 0;
  let dram = 0;
  let flits = 0;
  let msgs = 0;
  let readFaults = 0;
  let writeFaults = 0;
  for (let c = 0; c < t.cores; c++) {
    loads += t.core(c, C.loads);
    stores += t.core(c, C.stores);
    dram += t.core(c, C.dramReads);
    flits += t.core(c, C.flits);
    msgs += t.core(c, C.messagesSent);
    readFaults += t.core(c, C.readFaults);
    writeFaults += t.core(c, C.writeFaults);
  }
  let req = 0;
  for (let m = 0; m < t.chip.controllers; m++) req += t.ctrl(m, CTRL.requests);
  let hops = 0;
  const links = t.views.links;
  for (const l of t.links) hops += links[l.id * LINK_SLOTS + LINK.flits]!;
  out.chipClockNs = t.simTimePs() / 1000;
  out.powerNowW = t.chipPowerW();
  out.loads = loads;
  out.stores = stores;
  out.loadsStores = loads + stores;
  out.dramReads = dram;
  out.controllerRequests = req;
  out.flitsInjected = flits;
  out.flitHops = hops;
  out.messagesSent = msgs;
  out.readFaults = readFaults;
  out.writeFaults = writeFaults;
  return out;
}

/** The chip clock at the end of a finished run: the last sample's time (the time averages are over). */
export function chipClockNsOf(r: Results): number {
  const ts = r.series.timeNs;
  return ts.length > 0 ? Math.max(ts[ts.length - 1]!, r.simulated.endTimeNs) : r.simulated.endTimeNs;
}

/** The same quantities from a finished run's results JSON (powerNowW, the last epoch's power, is not in it: NaN). */
export function resultTotals(r: Results): Totals {
  const s = r.simulated;
  let msgs = 0;
  let readFaults = 0;
  let writeFaults = 0;
  for (const c of s.cores) {
    msgs += c.messagesSent;
    readFaults += c.readFaults ?? 0; // in the results only where taken
    writeFaults += c.writeFaults ?? 0;
  }
  let hops = 0;
  for (const l of s.links) hops += l.flits;
  let req = 0;
  for (const m of s.controllers) req += m.requests;
  return {
    chipClockNs: chipClockNsOf(r),
    finishNs: s.endTimeNs,
    powerNowW: NaN,
    avgPowerW: s.chip.avgPowerW,
    energyJ: s.chip.energyJ,
    loads: s.chip.loads,
    stores: s.chip.stores,
    loadsStores: s.chip.loads + s.chip.stores,
    dramReads: s.chip.dramReads,
    controllerRequests: req,
    flitsInjected: s.chip.flits,
    flitHops: hops,
    messagesSent: msgs,
    readFaults,
    writeFaults,
    epochs: s.epochs,
  };
}

/** The headline counters of the live view, in order, with their data-testid (kept from before the quantities had ids). */
export const COUNTER_TESTIDS: Readonly<Partial<Record<QuantityId, string>>> = {
  powerNowW: 'counter-power',
  loadsStores: 'counter-ops',
  controllerRequests: 'counter-dram',
  flitsInjected: 'counter-flits-injected',
  flitHops: 'counter-flits',
  messagesSent: 'counter-messages',
};

export const COUNTER_IDS: readonly QuantityId[] = ['powerNowW', 'loadsStores', 'controllerRequests', 'flitsInjected', 'flitHops', 'messagesSent'];

/** Counters of the live view shown only once they are non-zero (a run whose runtime protects pages). */
export const NONZERO_COUNTER_IDS: readonly QuantityId[] = ['readFaults', 'writeFaults'];

/** The key numbers of a finished run, in order. */
export const RESULT_IDS: readonly QuantityId[] = [
  'finishNs',
  'chipClockNs',
  'avgPowerW',
  'energyJ',
  'loads',
  'stores',
  'dramReads',
  'controllerRequests',
  'flitsInjected',
  'flitHops',
  'messagesSent',
  'epochs',
];

/**
 * Wall time a run spent paused by the user, so that "simulated per wall second" counts only
 * running time. Fed the run's status from the frame loop (a pause starts and ends with a
 * click, so the page is visible and frames run); pure, the clock is the caller's.
 */
export class PauseClock {
  private since: number | null = null;
  private total = 0;
  observe(paused: boolean, nowMs: number): void {
    if (paused && this.since === null) this.since = nowMs;
    else if (!paused && this.since !== null) {
      this.total += nowMs - this.since;
      this.since = null;
    }
  }
  pausedMs(nowMs: number): number {
    return this.total + (this.since !== null ? Math.max(0, nowMs - this.since) : 0);
  }
  reset(): void {
    this.since = null;
    this.total = 0;
  }
}

/** Wall time the run was going: `wallMs` since its start less the time it was paused (never below 0). */
export function runningWallMs(wallMs: number, pausedMs: number): number {
  return Math.max(0, wallMs - pausedMs);
}
