/**
 * This core's own counters, read mid-run (busy time, stalls) so a workload can measure a
 * window of its program, e.g. the busy ratio of a timed region.
 *
 * Workaround: the engine's Core keeps its counter slots private and has no public getter yet;
 * this reads the same shared slots results.ts reports (vocabulary C), for this core only.
 */
import { C, type Core } from '@manycore/engine';

interface CoreSlots {
  c: Float64Array;
  cb: number;
}

/** Counter `k` (a vocabulary C slot) of this core, as accumulated so far (times in ps). */
export function counter(core: Core, k: number): number {
  const s = core as unknown as CoreSlots;
  return s.c[s.cb + k]!;
}

/** Busy time of this core so far, ps (instruction issue and compute, no stalls or waits). */
export function busyPs(core: Core): number {
  return counter(core, C.busyPs);
}

/** All stall counters of this core so far, ps: l1Miss, l2Miss, dram, mpb, network, wait, flush. */
export function stallsPs(core: Core): number[] {
  return [0, 1, 2, 3, 4, 5, 6].map((i) => counter(core, C.stallL1MissPs + i));
}
