/**
 * The most Web Workers the lab starts (issue 13 item 6: "one worker per core" stays one click
 * away, and a click must not kill the lab).
 *
 * Contract
 * - MAX_WEB_WORKERS: the most worker threads the lab's page runs at once. Measured (2026-11-25,
 *   headless Chromium on a 2-CPU, 24 GB host, each worker the lab's browser-worker bundle):
 *   512 workers all started (about 35 s, 5.6 GB of browser memory); with 768 (for the 2 minutes
 *   watched) and 1024 (one per core of the 1024-core mesh, for 7 minutes) the page stopped
 *   answering: no exception from `new Worker`,
 *   no error event, no crash event, so the failure cannot be caught and reported once it has
 *   happened. The lab refuses such a layout before starting any worker instead.
 * - workerLimitProblem: null when `workers` fit `limit` (default MAX_WEB_WORKERS; a comparison
 *   of two runs gives each half), else a message naming the workers needed, the limit, and the
 *   setting to change ("Simulated cores per Web Worker", with the least value that fits, or
 *   auto). Nothing is clamped: the caller does not start the run.
 */

export const MAX_WEB_WORKERS = 512;

export interface WorkerLayoutNeed {
  /** Worker threads the layout starts. */
  workers: number;
  coresPerWorker: number;
  /** Simulated cores of the run. */
  cores: number;
}

/** The least cores per worker that keeps `cores` cores within `limit` workers. */
export function minCoresPerWorker(cores: number, limit = MAX_WEB_WORKERS): number {
  return Math.max(1, Math.ceil(cores / Math.max(1, limit)));
}

/** Null when the layout fits `limit` workers, else what to change (module contract). */
export function workerLimitProblem(need: WorkerLayoutNeed, limit = MAX_WEB_WORKERS): string | null {
  if (need.workers <= limit) return null;
  const per = need.coresPerWorker === 1 ? 'one per core' : `${need.coresPerWorker} cores each`;
  const shared = limit < MAX_WEB_WORKERS ? ` (${MAX_WEB_WORKERS} per page, shared by the runs of a comparison)` : '';
  return (
    `this layout needs ${need.workers} Web Workers (${per}, ${need.cores} cores), more than the ${limit} the lab starts for a run${shared}: ` +
    `a browser page starting 1024 workers stopped answering. Set "Simulated cores per Web Worker" (Run settings) to ${minCoresPerWorker(need.cores, limit)} or more, or to auto, and run again.`
  );
}
