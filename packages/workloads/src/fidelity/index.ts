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
 * Runs every experiment of `list` (at most `jobs` at once; each run's results do not depend on
 * what else runs) and evaluates each reproduction once its runs are back. `onRun` reports
 * progress (runs finished of the total, the run just finished). A failed run marks its
 * reproduction failed; the others are evaluated as usual.
 */
export async function runReproductions(
  run: RunExperiment,
  list: Reproduction[] = reproductions,
  onRun?: (done: number, total: number, what: string) => void,
  clockMs: () => number = () => 0,
  jobs = 1,
): Promise<ReproductionResult[]> {
  const work = list.flatMap((r, ri) => r.experiments.map((e, ei) => ({ ri, ei, e })));
  const outputs: (RunOutput | undefined)[][] = list.map((r) => new Array<RunOutput | undefined>(r.experiments.length));
  const errors: (string | undefined)[] = list.map(() => undefined);
  const started = list.map(() => Infinity);
  const finished = list.map(() => 0);
  let next = 0;
  let done = 0;
  const describe = (e: ExperimentInput) => `${e.workload.name} ${JSON.stringify(e.workload.params ?? {})}`;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= work.length) return;
      const { ri, ei, e } = work[i]!;
      started[ri] = Math.min(started[ri]!, clockMs());
      try {
        outputs[ri]![ei] = await run(e);
      } catch (err) {
        errors[ri] ??= `${describe(e)}: ${err instanceof Error ? err.message : String(err)}`;
      }
      finished[ri] = Math.max(finished[ri]!, clockMs());
      onRun?.(++done, work.length, `${list[ri]!.id}: ${describe(e)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, work.length)) }, worker));
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
      // host time from the first run started to the last finished (runs of other reproductions may overlap)
      wallMs: Number.isFinite(started[ri]!) ? finished[ri]! - started[ri]! : 0,
      ...(error ? { error } : {}),
    };
  });
}
