/**
 * The scheduler: the epoch loop every worker runs over the cores it owns.
 *
 * Algorithm (deterministic parallel simulation with a quantum Q):
 *   loop:
 *     run phase: for each owned runnable core, resume its program until its clock passes the
 *       epoch end, it blocks, or it finishes. Reads see committed memory + the core's own
 *       writes; writes go to the core's log with their visible time.
 *     barrier (epoch-barrier.ts): Atomics.add on the arrival counter. The last worker to
 *       arrive runs the commit phase (commit.ts), then wakes the workers that own a runnable
 *       core (each waits with Atomics.wait on its own wake word). Pause/step requests from
 *       the host are honoured there.
 * Nothing a core can observe depends on the order in which cores run inside an epoch, on
 * which thread runs a core, or on which worker commits; hence identical results for any
 * host CPU count and any cores-per-worker packing.
 */
import { Committer, type RunSettings } from './commit';
import { epochLoop } from './epoch-barrier';
import type { ResolvedChip } from './chip';
import { familyOf } from './chips/registry';
import type { CoreBase, Row } from './core';
import { CORE_SLOTS, CTL, CTLF, Request, Status, type Views } from './layout';
import { C, CoreState, YIELD_BLOCKED, type Sim } from './vocabulary';
import type { AnyWorkload, WorkloadContext } from './workload';

export interface OwnedCore {
  core: CoreBase;
  program: Sim<void> | null;
}

/** Why CoreRunner.runSlice returned: the run is over, a pause holds at a boundary, or the host asked for its thread back. */
export type SliceEnd = 'over' | 'paused' | 'yield';

export interface WorkerRunResult {
  rows: { core: number; rows: Row[] }[];
  error: string | null;
}

export class CoreRunner {
  readonly owned: OwnedCore[] = [];
  private readonly v: Views;
  readonly committer: Committer;
  error: string | null = null;
  private readonly wakeList: Int32Array;

  constructor(
    chip: ResolvedChip,
    v: Views,
    settings: RunSettings,
    workload: AnyWorkload,
    params: unknown,
    seed: number,
    coreIds: number[],
  ) {
    this.v = v;
    this.committer = new Committer(chip, v, settings);
    this.wakeList = new Int32Array(chip.topo.cores);
    const ctx: WorkloadContext = { chip, seed, participants: settings.participants };
    const participates = new Set(settings.participants);
    const family = familyOf(chip.family);
    for (const id of coreIds) {
      const core = family.makeCore(id, chip, v, seed);
      this.owned.push({ core, program: participates.has(id) ? workload.program(core, params, ctx) : null });
    }
  }

  /** Runs the owned cores for the current epoch. */
  runEpoch(): void {
    const v = this.v;
    const end = v.ctlF[CTLF.epochEndPs]!;
    for (const o of this.owned) {
      const b = o.core.id * CORE_SLOTS;
      if (v.core[b + C.state] !== CoreState.Runnable || !o.program) continue;
      const core = o.core;
      core.beginRun(end);
      try {
        while (core.now < end) {
          const r = o.program.next();
          if (r.done) {
            core.finish();
            o.program = null;
            break;
          }
          if (r.value === YIELD_BLOCKED) break;
        }
      } catch (err) {
        v.core[b + C.state] = CoreState.Failed;
        o.program = null;
        let msg = err instanceof Error ? err.message : String(err);
        const L = v.layout;
        if (core.logCount >= L.wlogCap || core.txnCount >= L.txnCap)
          msg +=
            ` (one epoch's log holds ${L.wlogCap} line writes and ${L.txnCap} transaction records per core on this ${L.cores}-core chip;` +
            ' raise them with --wlog-cap / --txn-cap (SimulationOptions.layout), or shorten the quantum when the writes are spread over time)';
        this.error = msg.startsWith('core ') ? msg : `core ${core.id}: ${msg}`;
      }
      core.endRun();
    }
  }

  /**
   * The whole loop for one worker (epoch-barrier.ts). `workers` workers own contiguous ranges
   * of `coresPerWorker` cores; this one is number `index`. Blocks (Atomics.wait) between
   * epochs, so it must run on a worker thread unless workers === 1. Returns when the run is
   * over. The last worker to arrive commits, then wakes only the workers that own a runnable
   * core (idle workers sleep through epochs they have nothing to do in).
   */
  loop(workers: number, coresPerWorker: number, index: number): void {
    epochLoop(this.v.ctl, this.v.wake, index, this.wakeList, {
      run: () => this.runEpoch(),
      commit: (list) => {
        let more = this.committer.commit();
        if (more) more = this.honourRequests();
        let n = 0;
        for (let w = 0; w < workers; w++) if (!more || this.hasWork(w, coresPerWorker)) list[n++] = w;
        return n;
      },
    });
  }

  /** Does worker w own a runnable core? */
  private hasWork(w: number, coresPerWorker: number): boolean {
    const c = this.v.core;
    const cores = this.v.layout.cores;
    for (let id = w * coresPerWorker; id < Math.min(cores, (w + 1) * coresPerWorker); id++)
      if (c[id * CORE_SLOTS + C.state] === CoreState.Runnable) return true;
    return false;
  }

  /** Pause, step and stop requests from the host, at an epoch boundary. */
  private honourRequests(): boolean {
    const ctl = this.v.ctl;
    for (;;) {
      const req = Atomics.load(ctl, CTL.request);
      if (req === Request.Stop) {
        Atomics.store(ctl, CTL.status, Status.Stopped);
        return false;
      }
      if (req === Request.Step) {
        // one epoch, then pause, unless the host has asked for something else meanwhile (a
        // plain store would overwrite a Run sent just after the Step and leave the run paused)
        Atomics.compareExchange(ctl, CTL.request, Request.Step, Request.Pause);
        Atomics.store(ctl, CTL.status, Status.Running);
        return true;
      }
      if (req !== Request.Pause) {
        Atomics.store(ctl, CTL.status, Status.Running);
        return true;
      }
      Atomics.store(ctl, CTL.status, Status.Paused);
      Atomics.wait(ctl, CTL.request, Request.Pause);
    }
  }

  /**
   * The cooperative loop (cooperative.ts): this runner owns every core of the chip on plain
   * (non-shared) buffers, one thread, and must never block (Atomics.wait throws on non-shared
   * memory). Runs epochs (run phase, then commit, as the one worker of epochLoop does) until the
   * run is over ('over'), a pause request holds at an epoch boundary ('paused'), or
   * `shouldYield()` (host wall-clock budget, asked after each commit; it never reaches simulated
   * state) says to give the thread back ('yield'). Call again to go on: a paused run resumes
   * when the host has replaced the pause request. Requests are honoured exactly where
   * honourRequests honours them (after a commit that leaves the run going), so the epochs, and
   * hence the results, are those of the blocking loop.
   */
  runSlice(shouldYield: () => boolean): SliceEnd {
    const ctl = this.v.ctl;
    for (;;) {
      const s = Atomics.load(ctl, CTL.status);
      if (s !== Status.Running && s !== Status.Paused) return 'over';
      if (s === Status.Paused) {
        // held at a boundary by an earlier call: go on only when the host's request allows it
        const go = this.requestsWithoutWaiting();
        if (go !== 1) return go === 0 ? 'over' : 'paused';
      }
      this.runEpoch();
      if (!this.committer.commit()) return 'over';
      const go = this.requestsWithoutWaiting();
      if (go !== 1) return go === 0 ? 'over' : 'paused';
      if (shouldYield()) return 'yield';
    }
  }

  /** honourRequests without the wait: 1 go on, 0 stopped, -1 paused (status Paused, request unchanged). */
  private requestsWithoutWaiting(): number {
    const ctl = this.v.ctl;
    const req = Atomics.load(ctl, CTL.request);
    if (req === Request.Stop) {
      Atomics.store(ctl, CTL.status, Status.Stopped);
      return 0;
    }
    if (req === Request.Pause) {
      Atomics.store(ctl, CTL.status, Status.Paused);
      return -1;
    }
    if (req === Request.Step) Atomics.compareExchange(ctl, CTL.request, Request.Step, Request.Pause);
    Atomics.store(ctl, CTL.status, Status.Running);
    return 1;
  }

  result(): WorkerRunResult {
    return {
      rows: this.owned.map((o) => ({ core: o.core.id, rows: o.core.rows })),
      error: this.error ?? this.committer.error,
    };
  }
}
