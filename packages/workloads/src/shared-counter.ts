/**
 * shared-counter: `cores` cores each increment one shared 32-bit word `increments` times.
 *
 * Correct protocol (bug 'none'), the SCC's: the chip has no cache coherence and no bus lock
 * across cores, so SCC software (RCCE_acquire_lock / RCCE_release_lock) guards shared data with
 * the on-chip test-and-set registers and keeps the data where every access reaches memory. Here:
 * the word is in a shared DRAM page each core maps uncached (as /dev/rckncm gives it); an
 * increment is lock(test-and-set register of the first core) -> load the word (the core waits for
 * the data) -> add 1 -> store -> wait until the store has completed (RCCE's release makes the
 * writes visible first) -> release the register.
 *
 * Bug 'lock-prefix': the x86 `lock incl` a P54C program would use on a coherent PC. The P54C's
 * LOCK# makes the read-modify-write atomic on its own bus, but the SCC's mesh does not carry it
 * to other cores: the instruction is a plain read, add, write of memory as this core sees it
 * (the core waits for the read and, as locked instructions serialise, for the write). Another
 * core's increment that lands between this core's read and its write is overwritten: a lost
 * update. How many are lost depends on how long a write takes to reach the other cores (a DRAM
 * round trip on the chip; here at least until the next epoch boundary, so the count grows with
 * the quantum), never on a formula: the row counts them.
 *
 * Rows (one): {cores, increments, expected, observed, lostUpdates, bug}: `expected` is the sum of
 * the increments the cores performed (each core counts its own), `observed` the word as the first
 * core reads it from memory after a final barrier, lostUpdates = expected - observed.
 */
import { z } from 'zod';
import { DUE, type SccCore, type ResolvedChip, type Row, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from './lib/limits';
import { mapUncached } from './lib/mem';
import { sharedAddrOnController } from './placement';

export const SHARED_COUNTER_BUGS = {
  'lock-prefix':
    "Increments use the x86 LOCK prefix, which the SCC does not carry across cores: each core's read-modify-write is atomic only for itself, so increments of other cores that land in between are overwritten (lost updates > 0 on 2 or more cores).",
} as const;

const Params = z.strictObject({
  cores: z.number().int().min(1).max(MAX_CORES).default(4).describe('cores incrementing the shared word (cores 0 .. cores - 1)'),
  increments: z.number().int().min(1).max(100_000).default(50).describe('increments per core'),
  workCycles: z.number().int().min(0).max(1_000_000).default(0).describe('core cycles of other work between two increments'),
  bug: z.enum(['none', 'lock-prefix']).default('none').describe("protocol bug: none (test-and-set lock around an uncached read-modify-write) or lock-prefix (x86 LOCK, not honoured across the SCC's cores)"),
});
type P = z.infer<typeof Params>;

/** The shared word: the start of the shared window's first page on controller 0. */
function counterAddr(chip: ResolvedChip): number {
  return sharedAddrOnController(chip, 0);
}

export const sharedCounter: WorkloadDef<P> = {
  name: 'shared-counter',
  title: 'Shared counter: test-and-set lock vs the x86 LOCK prefix',
  chart: { x: 'cores', y: 'lostUpdates' },
  description:
    'Cores increment one shared word: under a test-and-set lock around an uncached read-modify-write every increment counts; with the x86 LOCK prefix, which the SCC does not carry across cores, updates are lost.',
  params: Params,
  coresParam: { name: 'cores' },
  bugs: SHARED_COUNTER_BUGS,
  participants: (p, chip) => {
    if (p.cores > chip.topo.cores) throw overLimit('cores', p.cores, chip.topo.cores, chipHasCores(chip));
    return Array.from({ length: p.cores }, (_, i) => i);
  },
  *program(core: SccCore, p: P, ctx) {
    const addr = counterAddr(core.chip);
    const lockReg = ctx.participants[0]!;
    mapUncached(core, addr);
    yield* core.barrier();
    let done = 0;
    for (let i = 0; i < p.increments; i++) {
      if (p.bug === 'lock-prefix') {
        // lock incl (addr): read, add, write of memory as this core sees it, no lock across cores
        const v = core.load32(addr);
        core.fence(); // the add needs the data
        core.compute(1);
        core.store32(addr, (v + 1) >>> 0);
        core.fence(); // a locked instruction completes its write before the next one
      } else {
        yield* core.lock(lockReg);
        const v = core.load32(addr);
        core.fence();
        core.compute(1);
        core.store32(addr, (v + 1) >>> 0);
        core.fence(); // the store reaches memory before the lock is free again
        core.release(lockReg);
      }
      done++;
      if (p.workCycles > 0) core.compute(p.workCycles);
      if (core.due()) yield DUE;
    }
    yield* core.barrier();
    const observed = core.id === lockReg ? core.load32(addr) : -1;
    core.fence();
    core.report({ core: core.id, done, observed });
  },
  summarize(rows: Row[], p: P): Row[] {
    const expected = rows.reduce((a, r) => a + (r.done as number), 0);
    const observed = rows.find((r) => (r.observed as number) >= 0)!.observed as number;
    return [{ cores: p.cores, increments: p.increments, expected, observed, lostUpdates: expected - observed, bug: p.bug }];
  },
};
