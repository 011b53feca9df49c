/**
 * This core's own counters, read mid-run (busy time, stalls) so a workload can measure a
 * window of its program, e.g. the busy ratio of a timed region.
 */
import { C, STALL_NAMES, type SccCore } from '@manycore/engine';

/** Counter `k` (a vocabulary C slot) of this core, as accumulated so far (times in ps). */
export function counter(core: SccCore, k: number): number {
  const name = (Object.keys(C) as (keyof typeof C)[]).find((n) => C[n] === k);
  if (!name) throw new Error(`no counter slot ${k}`);
  return core.counter(name);
}

/** Busy time of this core so far, ps (instruction issue and compute, no stalls or waits). */
export function busyPs(core: SccCore): number {
  return core.counter('busyPs');
}

/** All stall counters of this core so far, ps: l1Miss, l2Miss, dram, mpb, network, wait, flush. */
export function stallsPs(core: SccCore): number[] {
  return STALL_NAMES.map((_, i) => counter(core, C.stallL1MissPs + i));
}
