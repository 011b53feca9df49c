/**
 * A worker for epoch-barrier.test.ts: runs the engine's epochLoop with hooks that check its
 * contract instead of simulating. Shared check words (Int32): 0 commits so far, 1 commits in
 * progress, 2 violations seen, 3 runs in progress. Each commit names a pseudo-random subset of
 * the workers (at least one), so the expected count changes from epoch to epoch.
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
}
const init = workerData as Init;
const ctl = new Int32Array(init.ctl);
const wake = new Int32Array(init.wake);
const chk = new Int32Array(init.check);
const { index, workers, epochs } = init;

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
      for (let w = 0; w < workers; w++) if ((h >>> w) & 1) list[n++] = w;
      if (n === 0) list[n++] = e % workers;
    }
    Atomics.sub(chk, 1, 1);
    return n;
  },
});
parentPort!.postMessage(index);
