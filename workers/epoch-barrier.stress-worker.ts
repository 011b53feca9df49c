/**
 * A worker for epoch-barrier.test.ts: runs the engine's epochLoop with hooks that check its
 * contract instead of simulating. Shared check words (Int32): 0 commits so far, 1 commits in
 * progress, 2 violations seen, 3 runs in progress, 4 workers that left the loop before the run
 * was over, 5 a word the pausing committer waits on. Each commit names a pseudo-random subset of
 * the workers (at least one), so the expected count changes from epoch to epoch, and about one
 * commit in four holds the run paused for a moment, as the engine's committer does for a pause
 * request (status Paused while it waits, Running again before it names the next workers).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CTL, Status, epochLoop } from '@manycore/engine';

interface Init {
  ctl: SharedArrayBuffer;
  wake: SharedArrayBuffer;
  check: SharedArrayBuffer;
  index: number;
  workers: number;
  epochs: number;
  pauses: boolean;
}
const init = workerData as Init;
const ctl = new Int32Array(init.ctl);
const wake = new Int32Array(init.wake);
const chk = new Int32Array(init.check);
const { index, workers, epochs, pauses } = init;

epochLoop(ctl, wake, index, new Int32Array(workers), {
  run() {
    Atomics.add(chk, 3, 1);
    if (Atomics.load(chk, 1) !== 0) Atomics.add(chk, 2, 1);
    Atomics.sub(chk, 3, 1);
  },
  commit(list) {
    if (Atomics.add(chk, 1, 1) !== 0) Atomics.add(chk, 2, 1);
    if (Atomics.load(chk, 3) !== 0) Atomics.add(chk, 2, 1);
    const e = Atomics.add(chk, 0, 1) + 1;
    let n = 0;
    if (e >= epochs) {
      Atomics.store(ctl, CTL.status, Status.Done);
      for (let w = 0; w < workers; w++) list[n++] = w;
    } else {
      const h = Math.imul(e, 0x9e3779b1) >>> 7;
      if ((h & 3) === 0 && pauses) {
        Atomics.store(ctl, CTL.status, Status.Paused);
        Atomics.wait(chk, 5, 0, 0.05);
        Atomics.store(ctl, CTL.status, Status.Running);
      }
      for (let w = 0; w < workers; w++) if ((h >>> w) & 1) list[n++] = w;
      if (n === 0) list[n++] = e % workers;
    }
    Atomics.sub(chk, 1, 1);
    return n;
  },
});
// the loop may end only with the run: a worker that leaves it earlier is never there again
// when a later commit names it, and the barrier stalls
if (Atomics.load(ctl, CTL.status) !== Status.Done) Atomics.add(chk, 4, 1);
parentPort!.postMessage(index);
