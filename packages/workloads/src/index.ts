/** @manycore/workloads: workloads written against the engine's core API, and their registry. */
import type { WorkloadRegistry } from '@manycore/engine';
import { memtest } from './memtest';
import { mpbPingpong } from './mpb-pingpong';
import { staleRead } from './stale-read';
import { l1Stream } from './l1-stream';

export const workloads: WorkloadRegistry = {
  [memtest.name]: memtest,
  [mpbPingpong.name]: mpbPingpong,
  [staleRead.name]: staleRead,
  [l1Stream.name]: l1Stream,
};

export { memtest, mpbPingpong, staleRead, l1Stream };
export * from './placement';
