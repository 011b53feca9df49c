/**
 * Test helper for the DSM applications: runs an app on the sequential runtime (LocalDsm) on one
 * node of the cluster-1999 preset (node 0, shared arrays from the start of its private memory),
 * then its check, and counts what the app asked of the runtime (opens per array and object,
 * acquires per lock, barriers, polls) through a counting wrapper around the Dsm.
 * The counts are the application's access pattern, independent of the runtime: the protocol
 * counts of the page and object runtimes come from them.
 * The wrapper also counts per phase (`phases`, see PhaseCounts); `runPhases` runs one processor
 * and returns them: an app's access pattern phase by phase.
 *
 * runInterleaved runs `procs` processors' programs of an app interleaved on ONE simulated core
 * over one LocalDsm memory (sequentially consistent shared memory), to test the programs'
 * parallel logic (partitioning, locks, barriers, the parallel summation orders, the
 * lock-and-recheck of a parallel tree build) without a DSM runtime.
 * - Every processor sees the same memory; `alloc` is collective (the k-th call of every
 *   processor returns the same descriptor; the first caller allocates).
 * - Locks and barriers are real: a processor waiting for a held lock or at a barrier lets the
 *   next runnable processor run (round robin); a release of a lock not held throws.
 * - `fine: false` (coarse): the driver switches only while a processor waits and after the last
 *   arrival at a barrier, so each barrier phase runs processor 0's part, then 1's, ... in order.
 *   `fine: true`: it also switches at every open, poll and acquire (before the lock is tested):
 *   a fine interleaving, so lost races in the programs show up.
 * - When no processor can go on (all left wait, and a whole round changed nothing) it throws,
 *   naming who waits for what and who finished.
 * - Timing is meaningless (one core runs all processors); results and counts are exact.
 * - After all processors finish, processor 0's check runs (for an app with `combine`, every
 *   processor's check in order, combined). runOnLocal's single processor checks the whole result
 *   (through combine when the app has one).
 */
import { runProgram, type ClusterCore, type Results, type Sim, type YieldToken } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, DsmCore, DsmStats, SharedArrayDesc } from '../api';
import { LocalDsm } from '../local';

/** Opens per phase (index = barriers passed before it): "array:r" / "array:w" -> count; "acquire" -> count. */
export type PhaseCounts = Array<Map<string, number>>;

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
  /** The opens and acquires again, per phase. */
  phases: PhaseCounts;
}

const bump = <K>(m: Map<K, number>, k: K): void => {
  m.set(k, (m.get(k) ?? 0) + 1);
};

/** A Dsm that forwards to `inner` and counts every call; `counting` switches counting on and off. */
export class CountingDsm implements Dsm {
  readonly counts: OpenCounts = { reads: new Map(), writes: new Map(), perObject: new Map(), acquires: new Map(), releases: 0, barriers: 0, polls: 0, phases: [new Map()] };
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
      bump(this.phase(), `${arr.name}:${write ? 'w' : 'r'}`);
    }
    return yield* this.inner.open(arr, i, write);
  }
  private phase(): Map<string, number> {
    return this.counts.phases[this.counts.phases.length - 1]!;
  }
  *acquire(lock: number): Sim<void> {
    if (this.counting) {
      bump(this.counts.acquires, lock);
      bump(this.phase(), 'acquire');
    }
    yield* this.inner.acquire(lock);
  }
  *release(lock: number): Sim<void> {
    if (this.counting) this.counts.releases++;
    yield* this.inner.release(lock);
  }
  *barrier(): Sim<void> {
    if (this.counting) {
      this.counts.barriers++;
      this.counts.phases.push(new Map());
    }
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
      if (as) check = { correct: false, detail: `not checked: processor ${as.me} of ${as.procs} ran alone` };
      else {
        const own = yield* app.check(dsm, size);
        check = app.combine ? app.combine([own], size) : own; // one processor: its own part is the whole result
      }
    },
  });
  if (!check || !dsm) throw new Error(`${app.name}: the program did not finish`);
  return { check, counts: dsm.counts, results, runTimeNs };
}

/** Runs `app` at `size` on one processor (LocalDsm on cluster-1999 node 0), no check, and returns its opens and acquires per phase. */
export function runPhases<S>(app: DsmApp<S>, size: S): PhaseCounts {
  let phases: PhaseCounts | undefined;
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000,
    *program(core) {
      const dsm = new CountingDsm(new LocalDsm(core, core.privateBase));
      yield* app.run(dsm, size);
      phases = dsm.counts.phases;
    },
  });
  if (!phases) throw new Error(`${app.name}: the program did not finish`);
  return phases;
}

/** A token the driver intercepts: "run another processor now". */
const SWITCH = 99 as YieldToken;

/** The state all processors' views share. */
class Shared {
  readonly descs: SharedArrayDesc[] = [];
  readonly held = new Set<number>();
  arrived = 0;
  generation = 0;
  /** Bumped by every acquire, release and barrier arrival: a round of the driver without a bump while all wait is a deadlock. */
  progress = 0;
  /** Per processor: what it waits for at its last switch ('' = it did not wait). */
  readonly waits: string[];
  constructor(
    readonly local: LocalDsm,
    readonly procs: number,
    readonly fine: boolean,
  ) {
    this.waits = new Array<string>(procs).fill('');
  }
}

/** Processor `me`'s view of the shared memory, locks and barriers. */
class InterleavedDsm implements Dsm {
  private allocs = 0;
  constructor(
    private readonly s: Shared,
    readonly me: number,
  ) {}
  get procs(): number {
    return this.s.procs;
  }
  get core(): DsmCore {
    return this.s.local.core;
  }
  get stats(): DsmStats {
    return this.s.local.stats;
  }
  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    const k = this.allocs++;
    const d = this.s.descs[k];
    if (d) {
      if (d.name !== name || d.count !== count || d.objectBytes !== objectBytes) throw new Error(`processor ${this.me}: alloc ${k} (${name}) differs from the first caller's (${d.name})`);
      return d;
    }
    const nd = this.s.local.alloc(name, count, objectBytes);
    this.s.descs.push(nd);
    return nd;
  }
  *open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number> {
    if (this.s.fine) yield SWITCH;
    return yield* this.s.local.open(arr, i, write);
  }
  *acquire(lock: number): Sim<void> {
    if (this.s.fine) yield SWITCH;
    while (this.s.held.has(lock)) yield* this.wait(`lock ${lock}`);
    this.s.held.add(lock);
    this.s.progress++;
  }
  *release(lock: number): Sim<void> {
    if (!this.s.held.delete(lock)) throw new Error(`processor ${this.me}: release of lock ${lock}, which is not held`);
    this.s.progress++;
  }
  *barrier(): Sim<void> {
    const s = this.s;
    const gen = s.generation;
    s.progress++;
    if (++s.arrived === s.procs) {
      s.arrived = 0;
      s.generation++;
      if (!s.fine) yield SWITCH; // coarse: the next phase starts again at processor 0
      return;
    }
    while (s.generation === gen) yield* this.wait('a barrier');
  }
  *poll(): Sim<void> {
    if (this.s.fine) yield SWITCH;
    yield* this.s.local.poll();
  }
  private *wait(what: string): Sim<void> {
    this.s.waits[this.me] = what;
    yield SWITCH;
    this.s.waits[this.me] = '';
  }
}

/**
 * Runs `app` at `size` as `procs` interleaved processors on cluster-1999 node 0 (see the module
 * contract; `fine` defaults to true); returns processor 0's check.
 */
export function runInterleaved<S>(app: DsmApp<S>, size: S, procs: number, opts: { fine?: boolean } = {}): CheckResult {
  let check: CheckResult | undefined;
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000,
    *program(core) {
      const s = new Shared(new LocalDsm(core, core.privateBase), procs, opts.fine ?? true);
      const views = Array.from({ length: procs }, (_, p) => new InterleavedDsm(s, p));
      const gens = views.map((v) => app.run(v, size));
      const done = gens.map(() => false);
      let left = procs;
      while (left > 0) {
        const before = s.progress;
        let waiting = 0;
        for (let p = 0; p < procs; p++) {
          if (done[p]) continue;
          for (;;) {
            const r = gens[p]!.next();
            if (r.done) {
              done[p] = true;
              left--;
              s.progress++;
              break;
            }
            if (r.value === SWITCH) break;
            yield r.value;
          }
          if (s.waits[p]) waiting++;
        }
        if (left > 0 && waiting === left && s.progress === before) {
          const who = views.filter((_, p) => !done[p]).map((v) => `processor ${v.me} waits for ${s.waits[v.me]}`);
          const finished = views.filter((_, p) => done[p]).map((v) => v.me);
          throw new Error(`${app.name}: no processor can go on: ${who.join(', ')}${finished.length ? `; processors ${finished.join(', ')} finished` : ''}`);
        }
      }
      if (app.combine) {
        // every processor checks its own part, in processor order
        const checks: CheckResult[] = [];
        for (const v of views) checks.push(yield* app.check(v, size));
        check = app.combine(checks, size);
      } else check = yield* app.check(views[0]!, size);
    },
  });
  if (!check) throw new Error(`${app.name}: the interleaved run did not finish`);
  return check;
}
