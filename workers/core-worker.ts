/**
 * The body every worker runs, whatever the host: take the init message, run the engine's
 * worker loop over the registry of workloads, report rows or an error. Host adapters
 * (node-worker.ts, browser-worker.ts) only move messages.
 */
import { workerMain, type WorkerInit, type WorkerRunResult } from '@manycore/engine';
import { workloads } from '@manycore/workloads';

export type WorkerReply = { type: 'done'; result: WorkerRunResult } | { type: 'error'; message: string };

export function runWorker(init: WorkerInit): WorkerReply {
  try {
    return { type: 'done', result: workerMain(init, workloads) };
  } catch (err) {
    return { type: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}
