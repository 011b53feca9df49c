/**
 * Test helper for the fine-grained DSM applications: runs `procs` processors' programs of an
 * app interleaved on ONE simulated core over one LocalDsm memory (sequentially consistent
 * shared memory), to test the programs' parallel logic (partitioning, locks, barriers, the
 * lock-and-recheck of a parallel tree build) without a DSM runtime.
 *
 * Contract
 * - Every processor sees the same memory; `alloc` is collective (the k-th call of every
 *   processor returns the same descriptor; the first caller allocates).
 * - The driver switches to the next runnable processor (round robin) while a processor waits
 *   for a lock or a barrier, and with `fine` (default) also at every open, poll and acquire
 *   (before the lock is tested): a fine interleaving, so lost races in the programs show up.
 * - Timing is meaningless (one core runs all processors); results and counts are exact.
 * - After all processors finish, processor 0's check runs.
 * - `runPhases`: one processor on LocalDsm, its opens counted per phase (the barriers so far) as
 *   "array:r" / "array:w", and its acquires per phase: an app's access pattern phase by phase.
 */
import { runProgram, type ClusterCore, type Sim, type YieldToken } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, DsmCore, DsmStats, SharedArrayDesc } from '../api';
import { LocalDsm } from '../local';

/** A token the driver intercepts: "run another processor now". */
const SWITCH = 99 as YieldToken;

class Shared {
  readonly descs: SharedArrayDesc[] = [];
  readonly held = new Set<number>();
  arrived = 0;
  generation = 0;
  constructor(
    readonly local: LocalDsm,
    readonly procs: number,
    /** Switch at opens and polls (fine interleaving) or only while waiting (coarse). */
    readonly fine: boolean,
  ) {}
}

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
      if (d.name !== name || d.count !== count || d.objectBytes !== objectBytes) throw new Error(`processor ${this.me}: alloc ${k} (${name}) differs from processor's first caller (${d.name})`);
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
    while (this.s.held.has(lock)) yield SWITCH;
    this.s.held.add(lock);
  }
  *release(lock: number): Sim<void> {
    if (!this.s.held.delete(lock)) throw new Error(`processor ${this.me}: release of lock ${lock}, which is not held`);
  }
  *barrier(): Sim<void> {
    const gen = this.s.generation;
    if (++this.s.arrived === this.s.procs) {
      this.s.arrived = 0;
      this.s.generation++;
      return;
    }
    while (this.s.generation === gen) yield SWITCH;
  }
  *poll(): Sim<void> {
    if (this.s.fine) yield SWITCH;
    yield* this.s.local.poll();
  }
}

/** Opens per phase (index = barriers passed before it): "array:r" / "array:w" -> count; "acquire" -> count. */
export type PhaseCounts = Array<Map<string, number>>;

class PhaseCountingDsm implements Dsm {
  readonly phases: PhaseCounts = [new Map()];
  constructor(private readonly inner: Dsm) {}
  get me(): number {
    return this.inner.me;
  }
  get procs(): number {
    return this.inner.procs;
  }
  get core(): DsmCore {
    return this.inner.core;
  }
  get stats(): DsmStats {
    return this.inner.stats;
  }
  private bump(key: string): void {
    const m = this.phases[this.phases.length - 1]!;
    m.set(key, (m.get(key) ?? 0) + 1);
  }
  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    return this.inner.alloc(name, count, objectBytes);
  }
  *open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number> {
    this.bump(`${arr.name}:${write ? 'w' : 'r'}`);
    return yield* this.inner.open(arr, i, write);
  }
  *acquire(lock: number): Sim<void> {
    this.bump('acquire');
    yield* this.inner.acquire(lock);
  }
  *release(lock: number): Sim<void> {
    yield* this.inner.release(lock);
  }
  *barrier(): Sim<void> {
    this.phases.push(new Map());
    yield* this.inner.barrier();
  }
  *poll(): Sim<void> {
    yield* this.inner.poll();
  }
}

/** Runs `app` at `size` on one processor (LocalDsm on cluster-1999 node 0) and counts its opens per phase. */
export function runPhases<S>(app: DsmApp<S>, size: S): PhaseCounts {
  let phases: PhaseCounts | undefined;
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000,
    *program(core) {
      const dsm = new PhaseCountingDsm(new LocalDsm(core, core.privateBase));
      yield* app.run(dsm, size);
      phases = dsm.phases;
    },
  });
  if (!phases) throw new Error(`${app.name}: the program did not finish`);
  return phases;
}

/** Runs `app` at `size` as `procs` interleaved processors on cluster-1999 node 0; returns processor 0's check. */
export function runInterleaved<S>(app: DsmApp<S>, size: S, procs: number, fine = true): CheckResult {
  let check: CheckResult | undefined;
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000,
    *program(core) {
      const s = new Shared(new LocalDsm(core, core.privateBase), procs, fine);
      const views = Array.from({ length: procs }, (_, p) => new InterleavedDsm(s, p));
      const gens = views.map((v) => app.run(v, size));
      const done = gens.map(() => false);
      let left = procs;
      while (left > 0) {
        for (let p = 0; p < procs; p++) {
          if (done[p]) continue;
          for (;;) {
            const r = gens[p]!.next();
            if (r.done) {
              done[p] = true;
              left--;
              break;
            }
            if (r.value === SWITCH) break;
            yield r.value;
          }
        }
      }
      check = yield* app.check(views[0]!, size);
    },
  });
  if (!check) throw new Error(`${app.name}: the interleaved run did not finish`);
  return check;
}
