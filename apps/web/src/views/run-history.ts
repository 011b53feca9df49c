/**
 * The finished runs of this page session, per workload (in memory only), so a chart whose
 * trend needs several runs (one divisor, one pair count per run) can draw them together.
 */
import { useSyncExternalStore } from 'react';
import type { Results } from '@manycore/engine';
import { recordOf, type RunRecord } from './mp-series';

/** Runs kept per workload (the oldest are dropped). */
export const HISTORY_MAX = 64;

const byWorkload = new Map<string, RunRecord[]>();
const listeners = new Set<() => void>();
const EMPTY: RunRecord[] = [];

function emit(): void {
  for (const l of listeners) l();
}

/** Adds a finished run (once per digest: a repeat moves it to the end). */
export function addRun(r: Results): void {
  const rec = recordOf(r);
  const list = (byWorkload.get(rec.workload) ?? []).filter((x) => x.digest !== rec.digest);
  list.push(rec);
  byWorkload.set(rec.workload, list.slice(-HISTORY_MAX));
  emit();
}

export function clearRuns(workload: string): void {
  byWorkload.delete(workload);
  emit();
}

export function runsOf(workload: string): RunRecord[] {
  return byWorkload.get(workload) ?? EMPTY;
}

export function useRunHistory(workload: string): RunRecord[] {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => runsOf(workload),
  );
}
