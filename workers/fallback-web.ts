/**
 * The fallback host over a real Web Worker (module worker fallback-worker.ts, bundled by Vite):
 * what the web lab uses where the page has no SharedArrayBuffer. Kept apart from
 * fallback-host.ts so that Node tests of the host need no Worker global.
 */
import { fallbackHost, type FallbackHost, type WorkerLike } from './fallback-host';

export function webFallbackHost(): FallbackHost {
  return fallbackHost(() => new Worker(new URL('./fallback-worker.ts', import.meta.url), { type: 'module', name: 'manycore-fallback' }) as unknown as WorkerLike);
}
