/**
 * Host adapter of the fallback without SharedArrayBuffer (a page that is not cross-origin
 * isolated: the browser has no SharedArrayBuffer and Atomics.wait throws on plain memory).
 *
 * Contract. The driver is a Simulation with memory 'mirror' (one worker, all cores; its views
 * are a plain copy). startWorker starts ONE worker through `spawn` (fallback-web.ts: a Web
 * Worker running fallback-worker.ts; fallback-runner.ts's inThreadFallbackHost: a MessageChannel
 * on this thread) that owns the run's plain buffers and runs the cooperative loop in slices
 * (fallback-runner.ts); each slice's copy of the mirrored state
 * (fallback-protocol.ts) is written into the driver's views here, on the main thread, so
 * Telemetry and every view read it as they read shared memory. The driver's control writes
 * (pause, resume, step, stop, live divisor changes) reach the worker through `control`; those
 * written before the start travel with the start message. The promise resolves with the
 * worker's rows after the final copy, so the driver builds its results from its views as with
 * any host. Same digest as every worker layout; slower (one thread for every core).
 * `onSlice(fn)`: `fn` runs right after each slice's copy is written into the views (not the
 * final one), on this thread, before the next message: the views then hold the state at the
 * epoch boundary the slice ended on, and nothing writes them until `fn` returns (a recorder's
 * moment to copy them: LiveRun.onSliceApplied, apps/web/src/sim/recorder.ts).
 */
import { HOST_CONTROL_WORDS, type HostAdapter, type WorkerInit, type WorkerRunResult } from '@manycore/engine';
import { applySegments, segmentBytes, type FromFallbackWorker, type ToFallbackWorker } from './fallback-protocol';

/** What the host needs of a worker (a Web Worker, or a MessagePort pair in tests). */
export interface WorkerLike {
  postMessage(msg: ToFallbackWorker, transfer?: ArrayBuffer[]): void;
  onmessage: ((e: { data: FromFallbackWorker }) => void) | null;
  onerror?: ((e: { message: string }) => void) | null;
  terminate(): void;
}

export interface FallbackStats {
  /** State copies received (slices, and the final copy). */
  copies: number;
  /** Bytes of all of them, and of the last. */
  bytes: number;
  lastBytes: number;
}

export interface FallbackHost extends HostAdapter {
  stats(): FallbackStats;
  /** Bounds the run's simulated time (the speed governor's budget, ps; Infinity: none): the worker starts no epoch past it. */
  limit(simPs: number): void;
  /** `fn` runs after each slice's copy is applied (the views hold an epoch boundary); replaces the previous one. */
  onSlice(fn: (() => void) | null): void;
}

export const FALLBACK_HOST_NAME = 'browser-fallback-1-worker';

/** Is SharedArrayBuffer usable here (a cross-origin isolated page, or Node)? Where not, the lab runs in the fallback. */
export function sharedMemoryAvailable(): boolean {
  const g = globalThis as { crossOriginIsolated?: boolean };
  return typeof SharedArrayBuffer === 'function' && g.crossOriginIsolated !== false;
}

/** The host over `spawn`'s worker (fallback-web.ts: a Web Worker running fallback-worker.ts; tests: a MessageChannel). */
export function fallbackHost(spawn: () => WorkerLike, name = FALLBACK_HOST_NAME): FallbackHost {
  let current: WorkerLike | null = null;
  const stats: FallbackStats = { copies: 0, bytes: 0, lastBytes: 0 };
  const keep = new Int32Array(HOST_CONTROL_WORDS.length);
  let sliceHook: (() => void) | null = null;
  const stop = () => {
    current?.terminate();
    current = null;
  };
  return {
    name,
    wallMs: () => performance.now(),
    terminateAll: stop,
    stats: () => ({ ...stats }),
    control(writes: readonly number[]): void {
      current?.postMessage({ type: 'control', writes: [...writes] });
    },
    limit(simPs: number): void {
      current?.postMessage({ type: 'limit', simPs });
    },
    onSlice(fn: (() => void) | null): void {
      sliceHook = fn;
    },
    startWorker(init: WorkerInit): Promise<WorkerRunResult> {
      return new Promise((resolve, reject) => {
        if (init.workers !== 1 || init.coreIds.length !== init.plan.chip.topo.cores) {
          reject(new Error(`the fallback runs every core in one worker; this run has ${init.workers} workers (use Simulation memory 'mirror')`));
          return;
        }
        if (current) {
          reject(new Error('the fallback host runs one simulation at a time; make a host per run'));
          return;
        }
        const w = spawn();
        current = w;
        const ctlOffset = init.plan.layout.off.ctl;
        const ctl = new Int32Array(init.state, ctlOffset, 32);
        const copy = (segments: number[], data: ArrayBuffer) => {
          applySegments(init.state, ctlOffset, segments, data, keep);
          const n = segmentBytes(segments);
          stats.copies++;
          stats.bytes += n;
          stats.lastBytes = n;
        };
        const fail = (message: string) => {
          if (current === w) stop();
          reject(new Error(message));
        };
        w.onmessage = (e) => {
          const msg = e.data;
          try {
            if (msg.type === 'slice') {
              copy(msg.segments, msg.data);
              w.postMessage({ type: 'ack', buffer: msg.data }, [msg.data]);
              sliceHook?.(); // the next copy is applied only after this handler returns
            } else if (msg.type === 'done') {
              copy(msg.segments, msg.data);
              if (current === w) stop();
              resolve(msg.result);
            } else fail(msg.message);
          } catch (err) {
            fail(err instanceof Error ? err.message : String(err));
          }
        };
        w.onerror = (e) => fail(e.message || 'the fallback worker failed');
        w.postMessage({ type: 'start', plan: init.plan, control: HOST_CONTROL_WORDS.flatMap((i) => [i, ctl[i]!]) });
      });
    },
  };
}
