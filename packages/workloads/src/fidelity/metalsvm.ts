/**
 * Reproduction: MetalSVM's Laplace/JOR runtimes (paper 003 lines 1145-1209, Fig. 6; scc.md
 * section 4) at the paper's size, 1024 x 512 doubles, on 1-48 cores: strong consistency with
 * the matrix on one controller and on four, lazy release on four, and iRCCE message passing.
 * Fig. 6 is a plot whose values the text does not give; the one number in the text is that the
 * shared-memory version's single-core ("linear") runtime is about half the message-passing
 * one's (lines 1203-1206). The rest are trends: one controller hits the memory wall, four scale
 * to 8 cores, lazy release is nearly optimal, message passing turns super-linear at 32-48 cores
 * (lines 1169-1209). The paper does not give its iteration count: the lab runs 2.
 */
import type { ExperimentInput } from '@manycore/engine';
import { cell, fmt, ratioOf, valueOf } from './cells';
import type { Check, Reproduction, RunOutput } from './types';

export const METALSVM_CORES = [1, 2, 4, 8, 16, 32, 48];
/** The setups of Fig. 6: consistency and controllers. */
export const METALSVM_SETUPS = [
  { consistency: 'strong', controllers: 1 },
  { consistency: 'strong', controllers: 4 },
  { consistency: 'lazy', controllers: 4 },
  { consistency: 'message-passing', controllers: 1 },
] as const;
/** Shared-memory single-core runtime / message passing's: "approximately half" (lines 1203-1206). */
export const METALSVM_SVM_OVER_MP_1_CORE = 0.5;

const SIZE = { rows: 1024, columns: 512, iterations: 2 };

function exp(consistency: string, controllers: number, cores: number): ExperimentInput {
  return { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'metalsvm', params: { consistency, controllers, cores, ...SIZE } } };
}

function times(runs: RunOutput[], consistency: string, controllers: number): (number | null)[] {
  return METALSVM_CORES.map((cores) => valueOf(runs, 'metalsvm', { consistency, controllers, cores }, 'timeNs'));
}

const at = (xs: (number | null)[], cores: number) => xs[METALSVM_CORES.indexOf(cores)] ?? null;
const speedup = (xs: (number | null)[], cores: number) => ratioOf(at(xs, 1), at(xs, cores));
const ms = (xs: (number | null)[]) => xs.map((t) => fmt(t === null ? null : t / 1e6)).join(', ') + ' ms';

export const metalsvmLaplace: Reproduction = {
  id: 'metalsvm-laplace',
  title: 'MetalSVM: Laplace/JOR runtimes, strong (1 and 4 controllers), lazy release, message passing',
  source: 'paper 003 lines 1145-1209 (Fig. 6); scc.md section 4',
  kind: 'mechanistic',
  experiments: METALSVM_SETUPS.flatMap((s) => METALSVM_CORES.map((n) => exp(s.consistency, s.controllers, n))),
  evaluate(runs) {
    const s1 = times(runs, 'strong', 1);
    const s4 = times(runs, 'strong', 4);
    const lazy = times(runs, 'lazy', 4);
    const mp = times(runs, 'message-passing', 1);
    const correct = runs.length > 0 && runs.every((r) => r.rows[0]?.correct === true);
    const cells = [cell('strong (1 controller) / message passing, 1 core', METALSVM_SVM_OVER_MP_1_CORE, ratioOf(at(s1, 1), at(mp, 1)), 'x')];
    const lazyBest = METALSVM_CORES.slice(1).every((n) => at(lazy, n) !== null && at(s4, n) !== null && at(lazy, n)! <= at(s4, n)!);
    const mpStep = ratioOf(at(mp, 32), at(mp, 48));
    const checks: Check[] = [
      { label: 'every run computes the sequential result bit for bit', pass: correct, lab: correct ? 'all correct' : 'a run is wrong or missing', paper: 'the same JOR iterations (lines 1145-1158)' },
      {
        label: 'strong, 1 controller: the speedup stays below 8 at 16-48 cores (memory wall)',
        pass: [16, 32, 48].every((n) => (speedup(s1, n) ?? Infinity) < 8),
        lab: `${ms(s1)}; speedup at 16, 32, 48: ${[16, 32, 48].map((n) => fmt(speedup(s1, n))).join(', ')}`,
        paper: 'one controller holding the matrix: the memory wall reduces scalability (lines 1172-1175)',
      },
      {
        label: 'strong, 4 controllers scales further: at 8 cores at least 1.3x faster than 1 controller, speedup >= 5',
        pass: (ratioOf(at(s1, 8), at(s4, 8)) ?? 0) >= 1.3 && (speedup(s4, 8) ?? 0) >= 5,
        lab: `${ms(s4)}; at 8 cores ${fmt(ratioOf(at(s1, 8), at(s4, 8)))}x faster than 1 controller, speedup ${fmt(speedup(s4, 8))}`,
        paper: 'the matrix over all four controllers scales better, up to 8 cores (lines 1176-1179)',
      },
      {
        label: 'lazy release is at least as fast as strong (4 controllers) at 2-48 cores',
        pass: lazyBest,
        lab: `lazy ${ms(lazy)}`,
        paper: 'lazy release: nearly optimal (lines 1180-1186)',
      },
      {
        label: 'lazy release scales nearly ideally: speedup at 48 cores >= 0.8 x 48',
        pass: (speedup(lazy, 48) ?? 0) >= 0.8 * 48,
        lab: `speedup ${fmt(speedup(lazy, 48))} at 48 cores`,
        paper: 'nearly optimal (line 1186)',
      },
      {
        label: 'message passing goes super-linear at 32-48 cores: time(32) / time(48) > 48 / 32',
        pass: (mpStep ?? 0) > 1.5,
        lab: `${ms(mp)}; time(32) / time(48) = ${fmt(mpStep)}, time(16) / time(32) = ${fmt(ratioOf(at(mp, 16), at(mp, 32)))}`,
        paper: 'super-linear speedup from 32 to 48 cores, the problem fits in L2 (lines 1206-1209)',
      },
    ];
    return { cells, checks };
  },
  mechanism:
    'Shared pages are MPBT (L1 only, write-through): the write-combine buffer sends each row out as whole lines, while message passing keeps rows in private memory behind a write-back L2 without write-allocate, so its stores go to memory one transaction each until the rows stay in L2; hence the ~2x single-core gap and the super-linear step once a core\'s rows fit L2. One controller saturates under the cores\' line streams. Faults are few (4 per neighbour pair per iteration for strong, 2 for lazy) and, at the modelled kernel costs (costs.ts, model values), cost little against a 1024 x 512 sweep, so lazy release and strong consistency on four controllers end up alike and both are bounded by the controllers\' bandwidth rather than scaling ideally.',
};
