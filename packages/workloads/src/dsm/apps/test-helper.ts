/**
 * Test helper for the DSM applications: runs an app on the sequential runtime (LocalDsm) on one
 * node of the cluster-1999 preset (node 0, shared arrays from the start of its private memory),
 * then its check, and counts what the app asked of the runtime (opens per array and object,
 * acquires per lock, barriers, polls) through a counting wrapper around the Dsm.
 * The counts are the application's access pattern, independent of the runtime: the protocol
 * counts of the page and object runtimes come from them.
 * runInterleaved runs P processors' programs on the same node and memory, one after the other
 * between barriers (a sequentially consistent execution of the program, locks trivially held):
 * the parallel summation orders without a runtime.
 */
import { runProgram, type ClusterCore, type Results, type Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, DsmStats, SharedArrayDesc } from '../api';
import { zeroStats } from '../api';
import { LocalDsm } from '../local';

export interface OpenCounts {
  /** Opens per array name, for reading and for writing. */
  reads: Map<string, number>;
  writes: Map<string, number>;
  /** Opens of each object, per array name: index -> count (reads + writes). */
  perObject: Map<string, Map<number, number>>;
  acquires: Map<number, number>;
  releases: number;
  barriers: number;
  polls: number;
}

const bump = <K>(m: Map<K, number>, k: K): void => {
  m.set(k, (m.get(k) ?? 0) + 1);
};

/** A Dsm that forwards to `inner` and counts every call; `counting` switches counting on and off. */
export class CountingDsm implements Dsm {
  readonly counts: OpenCounts = { reads: new Map(), writes: new Map(), perObject: new Map(), acquires: new Map(), releases: 0, barriers: 0, polls: 0 };
  counting = true;
  /** `as` makes the wrapper claim to be processor `me` of `procs` (to count one processor's pattern alone; its data are then not the parallel run's). */
  constructor(
    readonly inner: Dsm,
    private readonly as?: { me: number; procs: number },
  ) {}
  get me(): number {
    return this.as?.me ?? this.inner.me;
  }
  get procs(): number {
    return this.as?.procs ?? this.inner.procs;
  }
  get core() {
    return this.inner.core;
  }
  get stats(): DsmStats {
    return this.inner.stats;
  }
  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    return this.inner.alloc(name, count, objectBytes);
  }
  *open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number> {
    if (this.counting) {
      bump(write ? this.counts.writes : this.counts.reads, arr.name);
      let m = this.counts.perObject.get(arr.name);
      if (!m) this.counts.perObject.set(arr.name, (m = new Map()));
      bump(m, i);
    }
    return yield* this.inner.open(arr, i, write);
  }
  *acquire(lock: number): Sim<void> {
    if (this.counting) bump(this.counts.acquires, lock);
    yield* this.inner.acquire(lock);
  }
  *release(lock: number): Sim<void> {
    if (this.counting) this.counts.releases++;
    yield* this.inner.release(lock);
  }
  *barrier(): Sim<void> {
    if (this.counting) this.counts.barriers++;
    yield* this.inner.barrier();
  }
  *poll(): Sim<void> {
    if (this.counting) this.counts.polls++;
    yield* this.inner.poll();
  }
}

export interface LocalRun {
  /** With `as` (one processor of several run alone): not checked, correct false. */
  check: CheckResult;
  /** Counts of `run` only (check's opens are not counted). */
  counts: OpenCounts;
  results: Results;
  /** The node's simulated time at the end of `run`, ns. */
  runTimeNs: number;
}

/**
 * Runs `app` at `size` on LocalDsm on cluster-1999 node 0, then its check; with `as`, runs only
 * processor `as.me`'s program of `as.procs` (synchronisation free, no check) to count its pattern.
 */
export function runOnLocal<S>(
  app: DsmApp<S>,
  size: S,
  as?: { me: number; procs: number },
  /** Runs between run and check (a test that the check can fail changes the result here). */
  between?: (dsm: Dsm) => Sim<void>,
): LocalRun {
  let check: CheckResult | undefined;
  let dsm: CountingDsm | undefined;
  let runTimeNs = 0;
  const results = runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000, // one node, no other core to interleave with: long epochs (the epoch machinery dominated the wall time)
    *program(core) {
      dsm = new CountingDsm(new LocalDsm(core, core.privateBase), as);
      yield* app.run(dsm, size);
      runTimeNs = core.now / 1000;
      dsm.counting = false;
      if (between) yield* between(dsm);
      check = as ? { correct: false, detail: `not checked: processor ${as.me} of ${as.procs} ran alone` } : yield* app.check(dsm, size);
    },
  });
  if (!check || !dsm) throw new Error(`${app.name}: the program did not finish`);
  return { check, counts: dsm.counts, results, runTimeNs };
}

const AT_BARRIER = Symbol('at barrier');

/** Processor `me` of `procs` over one LocalDsm shared by all: alloc returns the k-th shared array, barrier yields to the driver. */
class InterleavedDsm implements Dsm {
  readonly stats = zeroStats();
  private allocs = 0;
  constructor(
    readonly me: number,
    readonly procs: number,
    private readonly local: LocalDsm,
    private readonly shared: SharedArrayDesc[],
  ) {}
  get core() {
    return this.local.core;
  }
  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    const k = this.allocs++;
    const d = this.shared[k];
    if (d) {
      if (d.name !== name || d.count !== count || d.objectBytes !== objectBytes) throw new Error(`processor ${this.me}: alloc ${k} (${name}) differs from processor 0's (${d.name})`);
      return d;
    }
    const nd = this.local.alloc(name, count, objectBytes);
    this.shared.push(nd);
    return nd;
  }
  open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number> {
    return this.local.open(arr, i, write);
  }
  *acquire(_lock: number): Sim<void> {}
  *release(_lock: number): Sim<void> {}
  *barrier(): Sim<void> {
    yield AT_BARRIER as never;
  }
  poll(): Sim<void> {
    return this.local.poll();
  }
}

/** Runs `procs` processors of `app` interleaved barrier phase by barrier phase on cluster-1999 node 0, then processor 0's check. */
export function runInterleaved<S>(app: DsmApp<S>, size: S, procs: number): CheckResult {
  let check: CheckResult | undefined;
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000,
    *program(core) {
      const local = new LocalDsm(core, core.privateBase);
      const shared: SharedArrayDesc[] = [];
      const dsms = Array.from({ length: procs }, (_, p) => new InterleavedDsm(p, procs, local, shared));
      const gens = dsms.map((d) => app.run(d, size));
      const done = gens.map(() => false);
      while (!done.every(Boolean)) {
        for (let p = 0; p < procs; p++) {
          if (done[p]) continue;
          let r = gens[p]!.next();
          while (!r.done && (r.value as unknown) !== AT_BARRIER) {
            const back: unknown = yield r.value;
            r = gens[p]!.next(back as never);
          }
          if (r.done) done[p] = true;
        }
        if (done.some(Boolean) && !done.every(Boolean)) throw new Error(`${app.name}: processors ${done.map((d, p) => (d ? p : -1)).filter((p) => p >= 0).join(', ')} finished while others wait at a barrier`);
      }
      check = yield* app.check(dsms[0]!, size);
    },
  });
  if (!check) throw new Error(`${app.name}: the program did not finish`);
  return check;
}
