/**
 * The driver: experiment -> prepared run -> shared buffers -> workers -> results.
 *
 * Data flow
 *   Experiment (experiment.ts) --prepareRun--> ResolvedChip + workload params + RunSettings
 *   + Layout; the driver allocates the shared buffers and initialises them (Committer.initState),
 *   then starts ceil(cores / coresPerWorker) workers through a HostAdapter. Each worker gets
 *   the prepared plan as plain data (RunPlan: nothing is validated or resolved again), the
 *   buffers and its core ids, and runs the epoch loop (scheduler.ts). The driver never blocks:
 *   it reads progress and telemetry straight from the shared buffer and collects each
 *   worker's rows when it ends.
 * Host adapters are thin: workers/node-host.ts (worker_threads), workers/browser-host.ts (Web
 * Workers), and the inline host here (all cores on the calling thread, for tests).
 */
import { deepMerge, type ResolvedChip } from './chip';
import { chipConfig, presetOf, resolvePresetChip } from './chips/registry';
import { EVENT_ISLAND_DIVISOR, EVENT_TILE_DIVISOR, type RunSettings } from './commit';
import type { Row } from './core';
import { ExperimentError, formatIssues, issueFields, parseExperiment, type Experiment } from './experiment';
import { allocateBuffers, computeLayout, CTL, CTLF, makeViews, Request, Status, type Layout, type LayoutOptions, type StateBuffer, type Views } from './layout';
import { buildResults, type Results } from './results';
import { CoreRunner, type WorkerRunResult } from './scheduler';
import { PS_PER_NS } from './units';
import type { AnyWorkload, WorkloadRegistry } from './workload';
import { WorkloadParamError } from './workload';
import { Committer } from './commit';

export interface PreparedRun {
  experiment: Experiment;
  chip: ResolvedChip;
  workload: AnyWorkload;
  params: Record<string, unknown>;
  settings: RunSettings;
  layout: Layout;
}

export function findWorkload(registry: WorkloadRegistry, name: string): AnyWorkload {
  const w = registry[name];
  if (!w) throw new ExperimentError(`workload.name: unknown workload "${name}" (known: ${Object.keys(registry).join(', ')})`);
  return w;
}

/** Validates everything about an experiment and derives the plain values of a run. */
export function prepareRun(input: unknown, registry: WorkloadRegistry, layoutOpts: LayoutOptions = {}): PreparedRun {
  const experiment = parseExperiment(input);
  const workload = findWorkload(registry, experiment.workload.name);
  const parsed = workload.params.safeParse(experiment.workload.params);
  if (!parsed.success) throw new ExperimentError(formatIssues(parsed.error, `workload.params (${workload.name})`), issueFields(parsed.error, 'workload.params'));
  const params = parsed.data as Record<string, unknown>;
  const family = presetOf(experiment.chip.preset).family;
  const families = workload.families ?? ['scc'];
  if (!families.includes(family))
    throw new ExperimentError(
      `workload.name: ${workload.name} runs on chip families ${families.join(', ')}; preset "${experiment.chip.preset}" is a ${family} chip`,
    );
  const fromWorkload = workload.chipOverrides ? workload.chipOverrides(params, family) : {};
  const config = chipConfig(experiment.chip.preset, deepMerge(fromWorkload, experiment.chip.overrides) as Record<string, unknown>);
  const chip = resolvePresetChip(experiment.chip.preset, config);
  let participants: number[];
  try {
    participants = workload.participants(params, chip);
  } catch (err) {
    if (err instanceof WorkloadParamError)
      throw new ExperimentError(`workload.params (${workload.name}): ${err.message}`, err.param ? { [`workload.params.${err.param}`]: err.fieldMessage ?? err.message } : {});
    throw err;
  }
  for (const c of participants)
    if (!Number.isInteger(c) || c < 0 || c >= chip.topo.cores)
      throw new ExperimentError(`workload.params (${workload.name}): core ${c} is beyond the chip's ${chip.topo.cores} cores`);
  participants = [...new Set(participants)].sort((a, b) => a - b);
  const timeline = experiment.timeline.map((ev, i) => {
    if (ev.kind === 'island-divisor') {
      if (ev.island >= chip.islands)
        throw new ExperimentError(`timeline.${i}.island: island ${ev.island} does not exist (the chip has ${chip.islands})`);
      const tiles: number[] = [];
      for (let t = 0; t < chip.topo.tiles; t++) if (chip.islandOfTile[t] === ev.island) tiles.push(t);
      return { atPs: Math.round(ev.atNs * PS_PER_NS), tiles, divisor: ev.divisor, kind: EVENT_ISLAND_DIVISOR, target: ev.island };
    }
    if (ev.tile >= chip.topo.tiles)
      throw new ExperimentError(`timeline.${i}.tile: tile ${ev.tile} does not exist (the chip has ${chip.topo.tiles})`);
    return { atPs: Math.round(ev.atNs * PS_PER_NS), tiles: [ev.tile], divisor: ev.divisor, kind: EVENT_TILE_DIVISOR, target: ev.tile };
  });
  for (const [i, ev] of timeline.entries())
    if (!chip.vf.has(ev.divisor)) throw new ExperimentError(`timeline.${i}.divisor: ${ev.divisor} has no V/f table entry`);
  timeline.sort((a, b) => a.atPs - b.atPs);
  const settings: RunSettings = {
    quantumPs: Math.round(experiment.quantumNs * PS_PER_NS),
    samplePs: Math.round(experiment.sampleIntervalNs * PS_PER_NS),
    stopAtPs: experiment.stop.maxTimeNs !== undefined ? Math.round(experiment.stop.maxTimeNs * PS_PER_NS) : Infinity,
    timeline,
    participants,
  };
  let layout: Layout;
  try {
    layout = computeLayout(chip, layoutOpts, settings.quantumPs);
  } catch (err) {
    if (err instanceof RangeError) throw new ExperimentError(err.message);
    throw err;
  }
  return { experiment, chip, workload, params, settings, layout };
}

/**
 * A prepared run as plain, structured-clonable data (typed arrays, a Map, numbers, strings):
 * what the driver hands its workers, so a run is validated and resolved once, by the driver.
 * The workload travels by name (its functions cannot be cloned) and is looked up in the worker's
 * registry, the same registry the driver prepared with.
 */
export interface RunPlan {
  experiment: Experiment;
  chip: ResolvedChip;
  workloadName: string;
  params: Record<string, unknown>;
  settings: RunSettings;
  layout: Layout;
}

export function planOf(run: PreparedRun): RunPlan {
  return { experiment: run.experiment, chip: run.chip, workloadName: run.workload.name, params: run.params, settings: run.settings, layout: run.layout };
}

/** What a worker receives. Plain data (structured-clonable). */
export interface WorkerInit {
  plan: RunPlan;
  state: StateBuffer;
  pool: StateBuffer;
  coreIds: number[];
  workers: number;
  coresPerWorker: number;
  index: number;
}

/** The body of every worker (and of the inline host): run the loop, return rows. */
export function workerMain(init: WorkerInit, registry: WorkloadRegistry): WorkerRunResult {
  const plan = init.plan;
  const workload = findWorkload(registry, plan.workloadName);
  const views = makeViews(plan.layout, init.state, init.pool);
  const runner = new CoreRunner(plan.chip, views, plan.settings, workload, plan.params, plan.experiment.seed, init.coreIds);
  runner.loop(init.workers, init.coresPerWorker, init.index);
  return runner.result();
}

export interface HostAdapter {
  /** Starts a worker that runs workerMain(init) and resolves with its result. */
  startWorker(init: WorkerInit): Promise<WorkerRunResult>;
  /** Wall clock in ms (host timing only; never reaches simulated state). */
  wallMs(): number;
  /** Stops every worker (after a failure). */
  terminateAll?(): void;
  /**
   * Hosts whose worker owns the state (the fallback without SharedArrayBuffer: the driver's
   * views are a copy) get the driver's control-word writes here, as flat pairs (index into
   * ctl, value), in the order written; the worker applies them at its next epoch boundary.
   */
  control?(writes: readonly number[]): void;
  name: string;
}

/**
 * The ctl words the driver writes (everything else in ctl is written by the workers): what a
 * host that owns the state must carry to its worker (HostAdapter.control), and keep in the
 * driver's copy when it refreshes the rest. In the order a host replays them: the live-change
 * sequence number last, after the change it announces.
 */
export const HOST_CONTROL_WORDS: readonly number[] = [CTL.request, CTL.liveKind, CTL.liveTarget, CTL.liveValue, CTL.liveSeq];

export interface SimulationOptions {
  /** Simulated cores per worker thread (default 1), or 'auto': fitted to `hostCpus` (fitCoresPerWorker). */
  coresPerWorker?: number | 'auto';
  /** Host CPUs, for coresPerWorker 'auto' (the host adapter's count; the engine never asks the host). */
  hostCpus?: number;
  layout?: LayoutOptions;
  /**
   * The run's memory. 'shared' (default): SharedArrayBuffers, any worker layout. 'plain': plain
   * ArrayBuffers (pages that are not cross-origin isolated have no SharedArrayBuffer), so one
   * worker runs every core (coresPerWorker is ignored): runInline, or the cooperative loop
   * (cooperative.ts). 'mirror': a plain copy of the state and no DRAM pool; the run itself is
   * owned by a host's worker that copies the state into these views (the web fallback,
   * workers/fallback-host.ts) and gets control writes through HostAdapter.control.
   */
  memory?: 'shared' | 'plain' | 'mirror';
}

/**
 * The worker layout that fits a host with `hostCpus` CPUs: one worker thread per simulated core
 * when there is a CPU for each, else ceil(cores / hostCpus) cores per worker (one worker per
 * CPU). Results do not depend on the layout; speed does: every epoch wakes each worker that
 * owns a runnable core, and threads beyond the CPUs only add switches and per-thread JIT
 * warm-up (ARCHITECTURE.md, "What one thread per core costs on a small host").
 */
export function fitCoresPerWorker(cores: number, hostCpus: number): number {
  if (!Number.isInteger(cores) || cores < 1) throw new ExperimentError(`cores: expected a positive integer, got ${cores}`);
  const cpus = Number.isFinite(hostCpus) && hostCpus >= 1 ? Math.floor(hostCpus) : 1;
  return cpus >= cores ? 1 : Math.ceil(cores / cpus);
}

export interface Progress {
  status: 'running' | 'paused' | 'done' | 'error' | 'stopped';
  simTimePs: number;
  epoch: number;
  finishedCores: number;
  participants: number;
  simOps: number;
  wallMs: number;
}

const STATUS_NAMES: Progress['status'][] = ['running', 'paused', 'done', 'error', 'stopped'];

export class SimulationFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationFailed';
  }
}

/** One run of one experiment. */
export class Simulation {
  readonly run: PreparedRun;
  readonly views: Views;
  readonly workers: number;
  readonly coresPerWorker: number;
  private readonly registry: WorkloadRegistry;
  private readonly layoutOpts: LayoutOptions;
  private startedAt = 0;
  private endedAt = 0;
  private liveSeq = 0;
  private host: HostAdapter | null = null;
  /** What the run's memory is (SimulationOptions.memory). */
  readonly memory: 'shared' | 'plain' | 'mirror';

  constructor(input: unknown, registry: WorkloadRegistry, opts: SimulationOptions = {}) {
    this.registry = registry;
    this.layoutOpts = opts.layout ?? {};
    this.run = prepareRun(input, registry, this.layoutOpts);
    const cores = this.run.chip.topo.cores;
    this.memory = opts.memory ?? 'shared';
    const shared = this.memory === 'shared';
    const cpw = !shared ? cores : opts.coresPerWorker === 'auto' ? fitCoresPerWorker(cores, opts.hostCpus ?? 1) : (opts.coresPerWorker ?? 1);
    if (!Number.isInteger(cpw) || cpw < 1) throw new ExperimentError(`coresPerWorker: expected a positive integer, got ${cpw}`);
    this.coresPerWorker = Math.min(cpw, cores);
    this.workers = Math.ceil(cores / this.coresPerWorker);
    const { state, pool } = allocateBuffers(this.run.layout, { shared, poolBytes: this.memory === 'mirror' ? 0 : undefined });
    this.views = makeViews(this.run.layout, state, pool);
    new Committer(this.run.chip, this.views, this.run.settings).initState();
  }

  private inits(workers: number, cpw: number): WorkerInit[] {
    const cores = this.run.chip.topo.cores;
    const out: WorkerInit[] = [];
    const plan = planOf(this.run);
    for (let w = 0; w < workers; w++) {
      const coreIds: number[] = [];
      for (let c = w * cpw; c < Math.min(cores, (w + 1) * cpw); c++) coreIds.push(c);
      out.push({ plan, state: this.views.state, pool: this.views.pool, coreIds, workers, coresPerWorker: cpw, index: w });
    }
    // every worker runs the first epoch
    Atomics.store(this.views.ctl, CTL.expected, workers);
    return out;
  }

  /** Runs on worker threads through `host`; resolves with the results. */
  async start(host: HostAdapter): Promise<Results> {
    this.startedAt = host.wallMs();
    this.host = host;
    const inits = this.inits(this.workers, this.coresPerWorker);
    let results: WorkerRunResult[];
    try {
      results = await Promise.all(inits.map((i) => host.startWorker(i)));
    } catch (err) {
      host.terminateAll?.();
      throw err;
    }
    this.endedAt = host.wallMs();
    return this.finish(results, host.name);
  }

  /** Runs every core on the calling thread (blocking). Same results as any worker layout. */
  runInline(wallMs: () => number = () => 0): Results {
    this.startedAt = wallMs();
    const [init] = this.inits(1, this.run.chip.topo.cores);
    const result = workerMain(init!, this.registry);
    this.endedAt = wallMs();
    return this.finish([result], 'inline');
  }

  /**
   * The results of a run whose workers a caller drove itself (e.g. the cooperative loop over
   * this simulation's own plain buffers), from their reports and its wall time.
   */
  resultsOf(results: WorkerRunResult[], hostName: string, wallMs: number): Results {
    this.startedAt = 0;
    this.endedAt = wallMs;
    return this.finish(results, hostName);
  }

  private finish(results: WorkerRunResult[], hostName: string): Results {
    const status = Atomics.load(this.views.ctl, CTL.status);
    const errors = results.map((r) => r.error).filter((e): e is string => !!e);
    if (status === Status.Error || errors.length > 0) {
      throw new SimulationFailed(errors.sort()[0] ?? 'the simulation failed');
    }
    const rows: Row[] = [];
    for (const r of results.flatMap((x) => x.rows).sort((a, b) => a.core - b.core)) rows.push(...r.rows);
    return buildResults(this.run, this.views, rows, {
      wallMs: this.endedAt - this.startedAt,
      workers: hostName === 'inline' ? 1 : this.workers,
      coresPerWorker: hostName === 'inline' ? this.run.chip.topo.cores : this.coresPerWorker,
      host: hostName,
      stopped: status === Status.Stopped,
    });
  }

  // ---- live control (the host thread never waits) ----

  progress(wallMs = 0): Progress {
    const v = this.views;
    return {
      status: STATUS_NAMES[Atomics.load(v.ctl, CTL.status)] ?? 'running',
      simTimePs: v.ctlF[CTLF.simTimePs]!,
      epoch: v.ctl[CTL.epoch]!,
      finishedCores: v.ctl[CTL.finishedCores]!,
      participants: this.run.settings.participants.length,
      simOps: v.ctlF[CTLF.simOps]!,
      wallMs: wallMs - this.startedAt,
    };
  }

  private request(r: Request): void {
    Atomics.store(this.views.ctl, CTL.request, r);
    Atomics.notify(this.views.ctl, CTL.request);
    this.host?.control?.([CTL.request, r]);
  }
  pause(): void {
    this.request(Request.Pause);
  }
  resume(): void {
    this.request(Request.Run);
  }
  step(): void {
    this.request(Request.Step);
  }
  stop(): void {
    this.request(Request.Stop);
  }

  /** Asks for an island's divisor to change at the next epoch boundary (lands in the events log). */
  setIslandDivisor(island: number, divisor: number): void {
    this.requestLive(EVENT_ISLAND_DIVISOR, 'island', island, this.run.chip.islands, divisor);
  }

  /** Asks for one tile's divisor to change at the next epoch boundary (lands in the events log). */
  setTileDivisor(tile: number, divisor: number): void {
    this.requestLive(EVENT_TILE_DIVISOR, 'tile', tile, this.run.chip.topo.tiles, divisor);
  }

  private requestLive(kind: number, what: string, target: number, count: number, divisor: number): void {
    if (!Number.isInteger(target) || target < 0 || target >= count) throw new ExperimentError(`${what} ${target} does not exist (0..${count - 1})`);
    if (!this.run.chip.vf.has(divisor)) throw new ExperimentError(`divisor ${divisor} has no V/f table entry`);
    const ctl = this.views.ctl;
    ctl[CTL.liveKind] = kind;
    ctl[CTL.liveTarget] = target;
    ctl[CTL.liveValue] = divisor;
    Atomics.store(ctl, CTL.liveSeq, ++this.liveSeq);
    this.host?.control?.([CTL.liveKind, kind, CTL.liveTarget, target, CTL.liveValue, divisor, CTL.liveSeq, this.liveSeq]);
  }

  /** True when the last live change was applied (the next one may be sent). */
  liveChangeAcknowledged(): boolean {
    return Atomics.load(this.views.ctl, CTL.liveAckSeq) === this.liveSeq;
  }

  /** Live changes applied so far, as experiment timeline events. */
  appliedEvents(): Experiment['timeline'] {
    const v = this.views;
    const out: Experiment['timeline'] = [];
    const n = v.ctl[CTL.eventsCount]!;
    for (let i = 0; i < n; i++) {
      const [at, kind, target, value] = [v.events[i * 4]!, v.events[i * 4 + 1]!, v.events[i * 4 + 2]!, v.events[i * 4 + 3]!];
      if (kind === EVENT_ISLAND_DIVISOR) out.push({ kind: 'island-divisor', atNs: at / PS_PER_NS, island: target, divisor: value });
      else out.push({ kind: 'tile-divisor', atNs: at / PS_PER_NS, tile: target, divisor: value });
    }
    return out;
  }
}
