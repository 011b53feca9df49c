/** Browser host adapter: one Web Worker per worker (module workers, bundled by Vite). */
import type { HostAdapter, WorkerInit, WorkerRunResult } from '@manycore/engine';
import type { WorkerReply } from './core-worker';

export function browserHost(): HostAdapter {
  const live = new Set<Worker>();
  return {
    name: 'browser-web-workers',
    wallMs: () => performance.now(),
    terminateAll: () => {
      for (const w of live) w.terminate();
      live.clear();
    },
    startWorker(init: WorkerInit): Promise<WorkerRunResult> {
      return new Promise((resolve, reject) => {
        const w = new Worker(new URL('./browser-worker.ts', import.meta.url), { type: 'module' });
        live.add(w);
        w.onmessage = (e: MessageEvent<WorkerReply>) => {
          live.delete(w);
          w.terminate();
          if (e.data.type === 'done') resolve(e.data.result);
          else reject(new Error(e.data.message));
        };
        w.onerror = (e) => {
          live.delete(w);
          w.terminate();
          reject(new Error(e.message || 'worker failed'));
        };
        w.postMessage(init);
      });
    },
  };
}
