/** Web Worker entry: thin adapter around core-worker.ts. */
import type { WorkerInit } from '@manycore/engine';
import { runWorker } from './core-worker';

self.onmessage = (e: MessageEvent<WorkerInit>) => {
  self.postMessage(runWorker(e.data));
};
