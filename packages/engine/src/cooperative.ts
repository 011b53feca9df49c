/**
 * The cooperative run: every core of a run on one thread, in slices that return to the caller,
 * for hosts without SharedArrayBuffer (a page that is not cross-origin isolated) or that must
 * not block their thread.
 *
 * Contract. A CooperativeRun owns one worker's share of a run that has exactly one worker: all
 * cores, on plain (or shared) buffers. `slice(shouldYield)` runs epochs, each a run phase and a
 * commit as the single worker of epochLoop runs them, and returns at an epoch boundary:
 *   'over'    the run ended (Done, Error or Stopped in ctl[CTL.status]); `result()` has the rows;
 *   'paused'  a pause request holds (status Paused); call again after the request changed;
 *   'yield'   `shouldYield()`, asked after each commit that leaves the run going, said so.
 * It never calls Atomics.wait (which throws on non-shared memory). Requests (pause, step, stop)
 * and live changes are read from ctl at the same boundaries as the blocking loop reads them, and
 * `shouldYield` is host timing that never reaches simulated state, so the epochs, and the
 * results and digest, are those of any worker layout (workers/fallback.test.ts, cooperative.test.ts).
 * `control(writes)` applies a driver's control-word writes (HostAdapter.control's pairs) to ctl.
 */
import { Committer } from './commit';
import { allocateBuffers, CTL, makeViews, type StateBuffer, type Views } from './layout';
import { CoreRunner, type SliceEnd, type WorkerRunResult } from './scheduler';
import { findWorkload, type RunPlan } from './simulation';
import type { WorkloadRegistry } from './workload';

export class CooperativeRun {
  readonly views: Views;
  private readonly runner: CoreRunner;

  /**
   * `buffers`: run over these (already initialised by a Simulation, e.g. its own plain buffers);
   * without them, allocates plain buffers and initialises them as Simulation does.
   */
  constructor(plan: RunPlan, registry: WorkloadRegistry, buffers?: { state: StateBuffer; pool: StateBuffer }) {
    const workload = findWorkload(registry, plan.workloadName);
    const own = buffers ?? allocateBuffers(plan.layout, { shared: false });
    this.views = makeViews(plan.layout, own.state, own.pool);
    if (!buffers) new Committer(plan.chip, this.views, plan.settings).initState();
    Atomics.store(this.views.ctl, CTL.expected, 1);
    const all: number[] = [];
    for (let c = 0; c < plan.chip.topo.cores; c++) all.push(c);
    this.runner = new CoreRunner(plan.chip, this.views, plan.settings, workload, plan.params, plan.experiment.seed, all);
  }

  /** Runs epochs until the run is over, a pause holds, or `shouldYield()` says so after a commit. */
  slice(shouldYield: () => boolean): SliceEnd {
    return this.runner.runSlice(shouldYield);
  }

  /** Applies control-word writes (pairs: index into ctl, value), in order. */
  control(writes: ArrayLike<number>): void {
    const ctl = this.views.ctl;
    for (let i = 0; i + 1 < writes.length; i += 2) {
      const at = writes[i]!;
      if (!Number.isInteger(at) || at < 0 || at >= ctl.length) throw new RangeError(`control: no ctl word ${at}`);
      Atomics.store(ctl, at, writes[i + 1]!);
    }
  }

  result(): WorkerRunResult {
    return this.runner.result();
  }
}
