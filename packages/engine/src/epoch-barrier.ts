/**
 * The barrier between epochs: the protocol every worker thread runs (scheduler.ts supplies what
 * runs and what commits).
 *
 * Contract. `workers` threads call epochLoop with their own index 0..workers-1. In every epoch,
 * each worker named by the previous commit (every worker in the first epoch) calls run() once
 * and arrives; the last of them to arrive calls commit(), which names the workers of the next
 * epoch in `list` and returns how many. So commit() runs exactly once per epoch, never while a
 * run() or another commit() of the same run is in progress. Workers that are not named sleep on
 * their own wake word until a later commit names them. A worker leaves the loop when it finds
 * the run over: status Done, Error or Stopped (the committer of the last epoch names every
 * worker, so all of them see it).
 *
 * Shared words (Int32, Atomics only):
 *   ctl[CTL.expected]  workers of the current epoch; written by the committer BEFORE it wakes
 *                      anyone, constant until every one of them has arrived
 *   ctl[CTL.arrived]   arrivals in the current epoch; reset by the committer
 *   ctl[CTL.status]    Running (or Paused while a committer holds a pause) until the run is over
 *   wake[w]            bumped (and notified) to start worker w's next epoch
 *
 * Invariants that make it safe:
 * - A worker reads `expected` before it arrives. After its arrival the last worker may already
 *   have committed and stored the next epoch's count; comparing against that value could make
 *   a second worker commit while the next epoch runs.
 * - A worker leaves the loop only when the run is over (Done, Error, Stopped), never because it
 *   sees Paused. A committer that has just woken the next epoch's workers may find the status
 *   Paused: those workers can have run that epoch already, and its committer can be holding a
 *   pause request (honourRequests). Taking that for the end left the worker out of every later
 *   epoch that named it, and the barrier stalled (seen in the web lab, whose frame pacing pauses
 *   at every frame; workers/epoch-barrier.test.ts reproduces it).
 */
import { CTL, Status } from './layout';

export interface EpochHooks {
  /** Runs this worker's share of the current epoch. */
  run(): void;
  /**
   * Commits the epoch (on one worker only) and writes the workers of the next epoch into
   * `list`; returns how many. When the run is over it sets ctl[CTL.status] and names every worker.
   */
  commit(list: Int32Array): number;
}

/** Is the run over? (Running and Paused are not: a paused run goes on.) */
function over(ctl: Int32Array): boolean {
  const s = Atomics.load(ctl, CTL.status);
  return s !== Status.Running && s !== Status.Paused;
}

/** The whole epoch loop of worker `index`. Blocks (Atomics.wait) between epochs; returns when the run is over. */
export function epochLoop(ctl: Int32Array, wake: Int32Array, index: number, list: Int32Array, hooks: EpochHooks): void {
  for (;;) {
    const gen = Atomics.load(wake, index);
    if (over(ctl)) return;
    hooks.run();
    const expected = Atomics.load(ctl, CTL.expected);
    if (Atomics.add(ctl, CTL.arrived, 1) + 1 === expected) {
      Atomics.store(ctl, CTL.arrived, 0);
      // The list is complete before the first wake: a worker woken first may finish the next
      // epoch and commit it while this loop is still waking the others.
      const n = hooks.commit(list);
      Atomics.store(ctl, CTL.expected, n);
      // (the committer only bumps its own word: nobody sleeps on it, and a notify is a call
      // into the runtime's futex table every epoch)
      for (let i = 0; i < n; i++) {
        const w = list[i]!;
        Atomics.add(wake, w, 1);
        if (w !== index) Atomics.notify(wake, w);
      }
      if (over(ctl)) return;
    }
    while (Atomics.load(wake, index) === gen) Atomics.wait(wake, index, gen);
  }
}
