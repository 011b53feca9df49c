/**
 * One run in the lab: wraps the engine's Simulation with the host, live control, a speed
 * governor and queued what-if changes. The main thread never waits: it only stores control
 * words (Atomics.store + notify inside the engine) and reads progress from shared memory.
 *
 * Speed: the governor lets simulated time advance at most `speedNsPerS` per wall second by
 * pausing the workers at an epoch boundary when they are ahead and resuming them when the
 * wall clock catches up. Pausing never changes results (the run is deterministic).
 *
 * Frame pacing (frame-pacer.ts): while the page is visible and the run is going, the workers
 * are also held for a moment around each animation frame so the main thread gets the CPU.
 * The workers run only when nothing holds them: the user's pause, the governor and the pacer
 * are separate reasons, combined here; the pacer never resumes a run the user paused. A
 * hidden page (document.hidden) is not paced: it runs flat out.
 */
import {
  CTL,
  CTLF,
  ExperimentError,
  Simulation,
  type Experiment,
  type HostAdapter,
  type Progress,
  type Results,
  type TimelineEvent,
  type WorkloadRegistry,
} from '@manycore/engine';
import { browserPacerHost, DEFAULT_PACING, FramePacer, type PacerHost, type PacerOptions, type PacerStats } from './frame-pacer';
import { frameLoop } from './frame-loop';
import { Telemetry } from './telemetry';
import { workerLimitProblem } from './worker-limit';
import { sharedMemoryAvailable, type FallbackHost } from '@manycore/workers/fallback-host';
import { webFallbackHost } from '@manycore/workers/fallback-web';

export type RunStatus = 'ready' | 'running' | 'paused' | 'done' | 'stopped' | 'error';

export interface LiveRunOptions {
  /** Simulated cores per worker, or 'auto': fitted to `hostCpus` (the engine's fitCoresPerWorker). */
  coresPerWorker: number | 'auto';
  /** Host CPUs for 'auto' (default 1). */
  hostCpus?: number;
  host: () => HostAdapter;
  registry: WorkloadRegistry;
  /** Simulated ns per wall second; Infinity runs flat out. */
  speedNsPerS?: number;
  /** Frame pacing (default: DEFAULT_PACING); null turns it off. */
  pacing?: PacerOptions | null;
  /** Animation frames (default: the page's frame loop) and the pacer's clock and timers. */
  frames?: { add(cb: (now: number) => void, order?: number): () => void };
  pacerHost?: PacerHost;
  /** Is the page hidden (default: document.hidden)? */
  hidden?: () => boolean;
  /**
   * Run without SharedArrayBuffer (default: when the page has none, i.e. it is not cross-origin
   * isolated): one worker owns every core (workers/fallback-host.ts) and copies the state into
   * this run's views after each slice of about 12 ms; control goes to it by message. Frame
   * pacing is off (the worker yields by itself and the main thread only copies); the speed
   * governor sends its budget as a bound on simulated time, at which the worker stops at an
   * epoch boundary by itself. Same results, slower.
   */
  fallback?: boolean;
  /** The most Web Workers this run may start (default MAX_WEB_WORKERS, worker-limit.ts); more: the constructor throws, naming the setting to change. */
  maxWorkers?: number;
  /** The host of a fallback run (default: webFallbackHost(), a Web Worker). */
  fallbackHost?: () => HostAdapter;
}

export interface PendingChange {
  island: number;
  divisor: number;
}

/** Timeline of `base` plus the events a run applied (deduplicated, in time order). */
export function mergeTimeline(base: readonly TimelineEvent[], applied: readonly TimelineEvent[]): TimelineEvent[] {
  const seen = new Set<string>();
  const out: TimelineEvent[] = [];
  for (const ev of [...base, ...applied]) {
    const k = JSON.stringify(ev);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(ev);
  }
  return out.map((ev, i) => ({ ev, i })).sort((a, b) => a.ev.atNs - b.ev.atNs || a.i - b.i).map((x) => x.ev);
}

/** Status.Paused of the engine's control block (a const enum there). */
const STATUS_PAUSED = 1;

export class LiveRun {
  readonly experiment: Experiment;
  readonly sim: Simulation;
  /** What the live buffers hold (the views read `telemetry`, which is this unless scrubbed). */
  readonly liveTelemetry: Telemetry;
  /** While the timeline is scrubbed (ScrubBar.tsx): telemetry over a recorded snapshot. */
  private scrubbed: Telemetry | null = null;
  private readonly releaseHooks = new Set<() => void>();
  status: RunStatus = 'ready';
  results: Results | null = null;
  error: string | null = null;
  /** Wall time from start to results, ms (measured here, the same as results.host.wallMs). */
  wallMs = 0;
  pending: PendingChange[] = [];
  appliedCount = 0;
  private host: HostAdapter | null = null;
  private readonly opts: LiveRunOptions;
  private speed: number;
  private governorPaused = false;
  /** Last request sent to the workers while running: true = pause. */
  private requestedPause = false;
  private readonly pacer: FramePacer | null;
  private unframe: (() => void) | null = null;
  private readonly hidden: () => boolean;
  private budgetNs = 0;
  private lastTick = 0;
  private startedAt = 0;
  private sent = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<() => void>();
  private disposed = false;

  /** Runs in the fallback without SharedArrayBuffer (LiveRunOptions.fallback). */
  readonly fallback: boolean;

  constructor(experiment: Experiment, opts: LiveRunOptions) {
    this.opts = opts;
    this.fallback = opts.fallback ?? !sharedMemoryAvailable();
    this.sim = new Simulation(experiment, opts.registry, { coresPerWorker: opts.coresPerWorker, hostCpus: opts.hostCpus, memory: this.fallback ? 'mirror' : 'shared' });
    // too many Web Workers hang the page (worker-limit.ts): refuse before any worker starts (the fallback has one)
    const tooMany = this.fallback ? null : workerLimitProblem({ workers: this.sim.workers, coresPerWorker: this.sim.coresPerWorker, cores: this.sim.run.chip.topo.cores }, opts.maxWorkers);
    if (tooMany) throw new ExperimentError(tooMany);
    this.experiment = this.sim.run.experiment;
    this.liveTelemetry = new Telemetry(this.sim.run, this.sim.views);
    this.speed = opts.speedNsPerS ?? Infinity;
    this.hidden = opts.hidden ?? (() => typeof document !== 'undefined' && document.hidden);
    const pacing = this.fallback ? null : opts.pacing === undefined ? DEFAULT_PACING : opts.pacing;
    const ctl = this.sim.views.ctl;
    this.pacer = pacing
      ? new FramePacer(() => this.applyRequest(), opts.pacerHost ?? browserPacerHost(() => Atomics.load(ctl, CTL.status) === STATUS_PAUSED), pacing)
      : null;
  }

  /** The telemetry every view reads: the live buffers', or a scrubbed snapshot's (setScrubbed). */
  get telemetry(): Telemetry {
    return this.scrubbed ?? this.liveTelemetry;
  }
  get isScrubbed(): boolean {
    return this.scrubbed !== null;
  }
  /** Shows a snapshot's telemetry instead of the live one (null: back to live). */
  setScrubbed(t: Telemetry | null): void {
    if (t === this.scrubbed) return;
    this.scrubbed = t;
    this.emit();
  }
  /**
   * `fn` runs just before the workers are released from a hold at an epoch boundary (pacer,
   * governor, the user's resume or step): the moment a recorder can copy a complete commit.
   */
  onBeforeRelease(fn: () => void): () => void {
    this.releaseHooks.add(fn);
    return () => void this.releaseHooks.delete(fn);
  }
  private beforeRelease(): void {
    for (const fn of this.releaseHooks) fn();
  }
  private readonly sliceHooks = new Set<() => void>();
  /**
   * Fallback runs only: `fn` runs right after each slice's state copy is written into the views
   * (FallbackHost.onSlice): they then hold a complete epoch boundary and nothing writes them
   * until `fn` returns; the fallback's moment for a recorder (there is no held boundary).
   */
  onSliceApplied(fn: () => void): () => void {
    this.sliceHooks.add(fn);
    return () => void this.sliceHooks.delete(fn);
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The results when the run finishes (done, or stopped at its time limit); rejects when it fails. Call before start(). */
  finished(): Promise<Results> {
    return new Promise((resolve, reject) => {
      this.subscribe(() => {
        if ((this.status === 'done' || this.status === 'stopped') && this.results) resolve(this.results);
        else if (this.status === 'error') reject(new Error(this.error ?? 'the run failed'));
      });
    });
  }
  private emit(): void {
    for (const fn of this.listeners) fn();
  }
  private set(status: RunStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.emit();
  }

  get workers(): number {
    return this.sim.workers;
  }

  progress(): Progress {
    return this.sim.progress(performance.now());
  }

  /** Starts the workers; with `paused` the run stops after its first epoch. */
  start(paused = false): void {
    if (this.status !== 'ready') return;
    if (paused) this.sim.pause();
    this.requestedPause = paused;
    this.host = this.fallback ? (this.opts.fallbackHost ?? webFallbackHost)() : this.opts.host();
    if (this.fallback)
      (this.host as Partial<FallbackHost>).onSlice?.(() => {
        for (const fn of this.sliceHooks) fn();
      });
    this.startedAt = performance.now();
    this.lastTick = this.startedAt;
    this.budgetNs = 0;
    this.set(paused ? 'paused' : 'running');
    this.timer = setInterval(() => this.tick(), 16);
    if (this.pacer) {
      const frames = this.opts.frames ?? frameLoop;
      this.unframe = frames.add((now) => this.onFrame(now), -10);
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.onVisibility);
      this.syncPacer();
    }
    const started = this.sim.start(this.host);
    // the fallback's worker exists now: bound it by the governor's first budget (a quarter second at this speed)
    if (this.fallback) this.limitFallback(Number.isFinite(this.speed) ? this.speed * 0.25 : Infinity);
    started.then(
      (r) => {
        if (this.disposed) return;
        this.wallMs = performance.now() - this.startedAt;
        this.results = r;
        this.finish(r.simulated.stopped ? 'stopped' : 'done');
      },
      (err: unknown) => {
        if (this.disposed) return;
        this.error = err instanceof Error ? err.message : String(err);
        this.finish('error');
      },
    );
  }

  private finish(status: RunStatus): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopPacing();
    this.appliedCount = this.sim.appliedEvents().length;
    this.pending = [];
    this.liveTelemetry.update(performance.now());
    this.set(status);
    this.emit();
  }

  get active(): boolean {
    return this.status === 'running' || this.status === 'paused';
  }

  pause(): void {
    if (this.status !== 'running') return;
    this.sim.pause();
    this.requestedPause = true;
    this.set('paused');
    this.syncPacer();
  }

  resume(): void {
    if (this.status === 'ready') return this.start();
    if (this.status !== 'paused') return;
    this.governorPaused = false;
    this.budgetNs = Math.max(this.budgetNs, this.liveTelemetry.simNs);
    this.lastTick = performance.now();
    this.set('running');
    this.syncPacer();
    this.applyRequest(true);
  }

  /** One epoch. From ready: starts paused after the first epoch. */
  step(): void {
    if (this.status === 'ready') return this.start(true);
    if (this.status === 'running') {
      this.pause();
      return;
    }
    if (this.status === 'paused') {
      this.beforeRelease();
      this.sim.step();
    }
  }

  setSpeed(nsPerS: number): void {
    this.speed = nsPerS;
    this.budgetNs = this.liveTelemetry.simNs;
    this.lastTick = performance.now();
  }

  /** Queues an island divisor change; it lands at the next epoch boundary and in the timeline. */
  setIslandDivisor(island: number, divisor: number): void {
    const chip = this.sim.run.chip;
    if (!chip.vf.has(divisor)) throw new ExperimentError(`divisor ${divisor} has no V/f table entry`);
    if (island < 0 || island >= chip.islands) throw new ExperimentError(`island ${island} does not exist`);
    this.pending.push({ island, divisor });
    this.emit();
    this.tick();
  }

  /** Timeline events applied by this run so far (timeline and live changes). */
  appliedEvents(): TimelineEvent[] {
    return this.sim.appliedEvents();
  }

  /** The experiment with every change applied so far written into its timeline. */
  reproducible(): Experiment {
    return { ...this.experiment, timeline: mergeTimeline(this.experiment.timeline, this.appliedEvents()) };
  }

  /** The governor and the live-change queue; cheap, runs every 16 ms while the run is active. */
  tick(): void {
    if (!this.active || this.disposed) return;
    const now = performance.now();
    const ctl = this.sim.views.ctl;
    // live changes: one at a time, each acknowledged by the committer
    if (this.pending.length > 0 && Atomics.load(ctl, CTL.liveAckSeq) >= this.sent) {
      const next = this.pending.shift()!;
      this.sent++;
      this.sim.setIslandDivisor(next.island, next.divisor);
    }
    const applied = ctl[CTL.eventsCount]!;
    if (applied !== this.appliedCount) {
      this.appliedCount = applied;
      this.emit();
    }
    // speed governor
    const simNs = this.sim.views.ctlF[CTLF.simTimePs]!;
    const simNow = simNs / 1000;
    if (this.status === 'running' && Number.isFinite(this.speed)) {
      const dt = Math.min(now - this.lastTick, 250);
      this.budgetNs = Math.min(this.budgetNs + (this.speed * dt) / 1000, simNow + this.speed * 0.25);
      if (!this.governorPaused && simNow >= this.budgetNs) {
        this.governorPaused = true;
        this.applyRequest();
      } else if (this.governorPaused && simNow < this.budgetNs) {
        this.governorPaused = false;
        this.applyRequest();
      }
    } else if (this.status === 'running' && this.governorPaused) {
      this.governorPaused = false;
      this.applyRequest();
    }
    // the fallback's worker stops by itself at the governor's budget (a pause request would land a whole slice late)
    if (this.fallback) this.limitFallback(Number.isFinite(this.speed) ? this.budgetNs : Infinity);
    this.syncPacer();
    this.lastTick = now;
  }

  /**
   * While running: the workers go when neither the governor nor the pacer holds them. Sends a
   * request only when that changes (or when `force`d, after the user's resume).
   */
  /** The fallback host's bound on simulated time (its worker starts no epoch past it), sent when it changes. */
  private limitFallback(simNs: number): void {
    const ps = simNs * 1000;
    if (ps === this.lastLimitPs) return;
    this.lastLimitPs = ps;
    (this.host as Partial<FallbackHost> | null)?.limit?.(ps);
  }
  private lastLimitPs = NaN;

  private applyRequest(force = false): void {
    if (this.status !== 'running' || this.disposed) return;
    const pause = (this.governorPaused && !this.fallback) || (this.pacer?.holding ?? false);
    if (pause === this.requestedPause && !force) return;
    this.requestedPause = pause;
    if (pause) this.sim.pause();
    else {
      this.beforeRelease();
      this.sim.resume();
    }
  }

  /** The pacer runs while the run is going on a visible page. */
  private syncPacer(): void {
    this.pacer?.setActive(this.status === 'running' && !this.disposed && !this.hidden());
  }
  private onVisibility = (): void => this.syncPacer();
  private onFrame(now: number): void {
    this.syncPacer();
    this.pacer?.frame(now);
  }
  private stopPacing(): void {
    this.unframe?.();
    this.unframe = null;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.onVisibility);
    this.pacer?.dispose();
  }

  /** The pacer's numbers (null when pacing is off). */
  pacingStats(): PacerStats | null {
    return this.pacer ? this.pacer.stats() : null;
  }

  /** Stops the workers at once and forgets the run. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopPacing();
    if (this.active) {
      this.sim.stop();
      this.host?.terminateAll?.();
    }
    this.listeners.clear();
  }
}
