/**
 * Web Worker entry of the fallback without SharedArrayBuffer: binds fallback-runner.ts to
 * `self`. Between slices the worker yields through a MessageChannel (no 4 ms timer clamp), so
 * the main thread's control messages are handled between slices.
 */
import { workloads } from '@manycore/workloads';
import type { ToFallbackWorker } from './fallback-protocol';
import { FallbackRunner } from './fallback-runner';

const channel = new MessageChannel();
let next: (() => void) | null = null;
channel.port1.onmessage = () => {
  const fn = next;
  next = null;
  fn?.();
};

const runner = new FallbackRunner(workloads, {
  post: (msg, transfer) => self.postMessage(msg, transfer),
  nowMs: () => performance.now(),
  later: (fn) => {
    next = fn;
    channel.port2.postMessage(null);
  },
});

self.onmessage = (e: MessageEvent<ToFallbackWorker>) => runner.receive(e.data);
