/**
 * The fidelity report's reproductions, in report order, and the driver-independent runner:
 * `runReproductions(run, ...)` calls `run(experiment)` for each experiment in order (the CLI
 * passes one that runs the engine on worker threads) and evaluates each reproduction. A failed
 * run marks its reproduction failed and the report goes on.
 */
import type { ExperimentInput } from '@manycore/engine';
import { dvfsKernels } from './dvfs';
import { metalsvmLaplace } from './metalsvm';
import { roarvmHeap } from './roarvm';
import { pipelineTable1 } from './pipeline';
import { rcceBcastStudy, rccePairHops, rccePairScaling, rccePower, rcceTable1 } from './rcce-study';
import { rckmpiChannels } from './rckmpi';
import { concordanceTable3, nbodyTable5 } from './sicsa';
import type { Reproduction, ReproductionResult, RunOutput } from './types';

export * from './types';
export { cell, verdictOf, fmt } from './cells';
export { renderReport, summaryOf, type ReportMeta } from './report';
export { PIPELINE_TABLE_1 } from './pipeline';
// the papers' values, for the guided experiments' charts (guided/)
export { RCKMPI_FACTORS } from './rckmpi';
export { RCCE_TABLE_1, RCCE_POWER_W } from './rcce-study';
export { NBODY_TABLE_5, CONCORDANCE_TABLE_3 } from './sicsa';
export { DVFS_DOT_16_OVER_5 } from './dvfs';
export { METALSVM_CORES, METALSVM_SETUPS, METALSVM_SVM_OVER_MP_1_CORE } from './metalsvm';
export { ROARVM_CORES, ROARVM_SETUPS, ROARVM_PAPER } from './roarvm';
export { linearFit } from './rcce-study';
export { paperBeside, type PaperBeside } from './paper-beside';

export const reproductions: Reproduction[] = [pipelineTable1, rckmpiChannels, rccePairHops, rccePairScaling, rcceTable1, rccePower, rcceBcastStudy, dvfsKernels, nbodyTable5, concordanceTable3, metalsvmLaplace, roarvmHeap];

export type RunExperiment = (experiment: ExperimentInput) => Promise<RunOutput>;

/**
 * Runs every distinct experiment of `list` once (at most `jobs` at once; each run's results do
 * not depend on what else runs, or in which order) and evaluates each reproduction once its runs
 * are back. Two reproductions that name the same experiment (the same JSON) share one run: the
 * RCCE study's Table I and power sections reuse pair runs of the hops and pairs sections. Runs
 * start heaviest first by their reproduction's `hostCost` hint (then in report order), so the
 * long runs do not end up alone at the tail. `onRun` reports progress (distinct runs finished of
 * the total, the run just finished). A failed run marks every reproduction that uses it failed;
 * the others are evaluated as usual.
 */
export async function runReproductions(
  run: RunExperiment,
  list: Reproduction[] = reproductions,
  { onRun, jobs = 1 }: { onRun?: (done: number, total: number, what: string) => void; jobs?: number } = {},
): Promise<ReproductionResult[]> {
  const work: { e: ExperimentInput; cost: number; uses: { ri: number; ei: number }[] }[] = [];
  const byKey = new Map<string, (typeof work)[number]>();
  list.forEach((r, ri) =>
    r.experiments.forEach((e, ei) => {
      const key = JSON.stringify(e);
      let w = byKey.get(key);
      if (!w) {
        w = { e, cost: r.hostCost?.(e) ?? 0, uses: [] };
        byKey.set(key, w);
        work.push(w);
      }
      w.uses.push({ ri, ei });
    }),
  );
  // stable: equal hints keep report order
  const order = work.map((w, i) => ({ w, i })).sort((a, b) => b.w.cost - a.w.cost || a.i - b.i).map((x) => x.w);
  const outputs: (RunOutput | undefined)[][] = list.map((r) => new Array<RunOutput | undefined>(r.experiments.length));
  const errors: (string | undefined)[] = list.map(() => undefined);
  let next = 0;
  let done = 0;
  const describe = (e: ExperimentInput) => `${e.workload.name} ${JSON.stringify(e.workload.params ?? {})}`;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= order.length) return;
      const { e, uses } = order[i]!;
      try {
        const output = await run(e);
        for (const { ri, ei } of uses) outputs[ri]![ei] = output;
      } catch (err) {
        for (const { ri } of uses) errors[ri] ??= `${describe(e)}: ${err instanceof Error ? err.message : String(err)}`;
      }
      onRun?.(++done, order.length, `${uses.map((u) => list[u.ri]!.id).join(', ')}: ${describe(e)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, order.length)) }, worker));
  return list.map((r, ri) => {
    const runs = outputs[ri]!.filter((x): x is RunOutput => x !== undefined);
    const error = errors[ri];
    const evaluated = error ? { cells: [], checks: [] } : r.evaluate(runs);
    return {
      id: r.id,
      title: r.title,
      source: r.source,
      kind: r.kind,
      mechanism: r.mechanism,
      ...evaluated,
      runs: runs.map((x) => ({ workload: String(x.experiment.workload.name), params: (x.experiment.workload.params ?? {}) as Record<string, unknown>, digest: x.digest, wallMs: x.wallMs })),
      // host time of this reproduction's runs, added up (runs of several reproductions overlap
      // when jobs > 1, and a shared run counts in each reproduction that uses it)
      wallMs: runs.reduce((a, x) => a + x.wallMs, 0),
      ...(error ? { error } : {}),
    };
  });
}
