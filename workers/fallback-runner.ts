/**
 * The fallback worker's body, independent of the Web Worker API (fallback-worker.ts binds it to
 * `self`; tests bind it to a MessageChannel): it owns the run's plain buffers and runs every
 * core with the engine's cooperative loop (CooperativeRun) in slices of about SLICE_MS of wall
 * time, then gives its event loop a turn (`later`) so control messages arrive between slices.
 *
 * Contract.
 * - 'start' allocates and initialises the buffers from the plan (as the driver initialised its
 *   mirror), applies the driver's control words written before the start (a run started
 *   paused), and runs.
 * - 'control' writes are applied to ctl at once, between slices; the loop reads them at its next
 *   epoch boundary, as the blocking loop does. A paused run sleeps until a control message.
 * - 'limit' bounds simulated time (the speed governor): no epoch starts once the chip's time has
 *   reached it; the worker sleeps until a higher limit arrives. Like a pause, it only decides
 *   when epochs run, never what they compute.
 * - After a slice it sends the mirrored state (fallback-protocol.ts) unless two copies are
 *   still unacknowledged (the main thread is busy): then it sends one when an 'ack' returns, so
 *   the main thread gets the latest state, never a backlog. Acks hand the buffers back for reuse.
 * - When the run is over it sends 'done' with the final copy and the rows; an exception ends it
 *   with 'error' and its message. The wall clock (`nowMs`) only sizes slices.
 */
import { CooperativeRun, CTLF, type WorkloadRegistry } from '@manycore/engine';
import { fallbackHost, type FallbackHost, type WorkerLike } from './fallback-host';
import { mirroredSegments, packSegments, type FromFallbackWorker, type ToFallbackWorker } from './fallback-protocol';

/** Wall time of one slice, ms: long enough that a copy per slice costs little, short enough for control to feel immediate. */
export const SLICE_MS = 12;
/** Copies sent and not yet acknowledged, at most. */
const MAX_IN_FLIGHT = 2;

export interface RunnerEnv {
  post(msg: FromFallbackWorker, transfer: ArrayBuffer[]): void;
  /** Wall clock, ms (slice sizing only). */
  nowMs(): number;
  /** Calls `fn` soon, after pending messages (a macrotask). */
  later(fn: () => void): void;
}

export class FallbackRunner {
  private run: CooperativeRun | null = null;
  private scheduled = false;
  private over = false;
  private inFlight = 0;
  private dirty = false;
  private spare: ArrayBuffer | null = null;
  private readonly segments: number[] = [];
  private sliceStart = 0;
  /** The governor's limit on simulated time, ps ('limit' messages). */
  private limitPs = Infinity;
  private readonly shouldYield = (): boolean => this.env.nowMs() - this.sliceStart >= SLICE_MS || this.atLimit();

  constructor(
    private readonly registry: WorkloadRegistry,
    private readonly env: RunnerEnv,
  ) {}

  receive(msg: ToFallbackWorker): void {
    try {
      if (msg.type === 'start') {
        if (this.run) throw new Error('fallback worker: started twice');
        this.run = new CooperativeRun(msg.plan, this.registry);
        this.run.control(msg.control);
        this.schedule();
      } else if (msg.type === 'control') {
        if (!this.run || this.over) return;
        this.run.control(msg.writes);
        this.schedule();
      } else if (msg.type === 'limit') {
        this.limitPs = msg.simPs;
        this.schedule();
      } else if (msg.type === 'ack') {
        this.inFlight = Math.max(0, this.inFlight - 1);
        this.spare = msg.buffer;
        if (this.dirty && !this.over) this.publish();
      }
    } catch (err) {
      this.fail(err);
    }
  }

  private atLimit(): boolean {
    return this.run !== null && this.run.views.ctlF[CTLF.simTimePs]! >= this.limitPs;
  }

  private schedule(): void {
    if (this.scheduled || this.over || this.atLimit()) return;
    this.scheduled = true;
    this.env.later(this.slice);
  }

  private readonly slice = (): void => {
    this.scheduled = false;
    const run = this.run;
    if (!run || this.over) return;
    try {
      this.sliceStart = this.env.nowMs();
      const end = run.slice(this.shouldYield);
      if (end === 'over') {
        this.over = true;
        const segments = mirroredSegments(run.views.layout, run.views.ctl, []);
        const data = packSegments(run.views.state, segments, null);
        this.env.post({ type: 'done', segments, data, result: run.result() }, [data]);
        return;
      }
      this.publish();
      if (end === 'yield') this.schedule();
    } catch (err) {
      this.fail(err);
    }
  };

  /** Sends the mirrored state now, or marks it to be sent when a copy is acknowledged. */
  private publish(): void {
    const run = this.run!;
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.dirty = true;
      return;
    }
    this.dirty = false;
    mirroredSegments(run.views.layout, run.views.ctl, this.segments);
    const data = packSegments(run.views.state, this.segments, this.spare);
    this.spare = null;
    this.inFlight++;
    this.env.post({ type: 'slice', segments: this.segments.slice(), data }, [data]);
  }

  private fail(err: unknown): void {
    this.over = true;
    this.env.post({ type: 'error', message: err instanceof Error ? err.message : String(err) }, []);
  }
}

/**
 * The fallback host with its runner on this thread, joined by a MessageChannel: the same
 * messages and transfers as a Web Worker, with slices between this thread's other tasks. For
 * tests (Node has no Web Worker), and for hosts that cannot start a worker at all.
 */
export function inThreadFallbackHost(registry: WorkloadRegistry): FallbackHost {
  return fallbackHost(() => {
    // typed by what both a browser's and Node's MessagePort offer
    type Port = { onmessage: ((e: { data: unknown }) => void) | null; postMessage(msg: unknown, transfer: ArrayBuffer[]): void; close(): void };
    const { port1, port2 } = new MessageChannel() as unknown as { port1: Port; port2: Port };
    const runner = new FallbackRunner(registry, {
      post: (msg, transfer) => port2.postMessage(msg, transfer),
      nowMs: () => performance.now(),
      later: (fn) => setTimeout(fn, 0),
    });
    port2.onmessage = (e) => runner.receive(e.data as ToFallbackWorker);
    const w: WorkerLike = {
      onmessage: null,
      postMessage: (msg, transfer) => port1.postMessage(msg, transfer ?? []),
      terminate: () => {
        port1.close();
        port2.close();
      },
    };
    port1.onmessage = (e) => w.onmessage?.({ data: e.data as FromFallbackWorker });
    return w;
  }, 'in-thread-fallback-1-worker');
}
