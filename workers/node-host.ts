/** Node host adapter: one worker_thread per worker, running the bundled node-worker. */
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { HostAdapter, WorkerInit, WorkerRunResult } from '@manycore/engine';
import type { WorkerReply } from './core-worker';

export function nodeHost(workerUrl: URL): HostAdapter {
  const live = new Set<Worker>();
  return {
    name: 'node-worker_threads',
    wallMs: () => performance.now(),
    terminateAll: () => {
      for (const w of live) void w.terminate();
      live.clear();
    },
    startWorker(init: WorkerInit): Promise<WorkerRunResult> {
      return new Promise((resolve, reject) => {
        const w = new Worker(fileURLToPath(workerUrl), { workerData: init });
        live.add(w);
        let settled = false;
        w.on('message', (msg: WorkerReply) => {
          settled = true;
          live.delete(w);
          void w.terminate();
          if (msg.type === 'done') resolve(msg.result);
          else reject(new Error(msg.message));
        });
        w.on('error', (err) => {
          settled = true;
          live.delete(w);
          reject(err);
        });
        w.on('exit', (code) => {
          live.delete(w);
          if (!settled) reject(new Error(`worker exited with code ${code} before reporting`));
        });
      });
    },
  };
}
