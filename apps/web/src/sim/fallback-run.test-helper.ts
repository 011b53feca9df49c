/**
 * For tests: a LiveRun in the fallback without SharedArrayBuffer, its runner on this thread
 * (inThreadFallbackHost: the same messages as the Web Worker); starting the shared-memory host
 * instead is an error. The caller disposes it.
 */
import type { ExperimentInput } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { inThreadFallbackHost } from '@manycore/workers/fallback-runner';
import { LiveRun } from './live-run';

export function fallbackLiveRun(experiment: ExperimentInput, speedNsPerS = Infinity): LiveRun {
  return new LiveRun(experiment as never, {
    coresPerWorker: 8,
    host: () => {
      throw new Error('the fallback must not start the shared-memory host');
    },
    fallback: true,
    fallbackHost: () => inThreadFallbackHost(workloads),
    registry: workloads,
    speedNsPerS,
  });
}
