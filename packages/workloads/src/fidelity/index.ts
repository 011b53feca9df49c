/**
 * The fidelity report's reproductions, in report order, and the driver-independent runner:
 * `runReproductions(run, ...)` calls `run(experiment)` for each experiment in order (the CLI
 * passes one that runs the engine on worker threads) and evaluates each reproduction. A failed
 * run marks its reproduction failed and the report goes on.
 */
import type { ExperimentInput } from '@manycore/engine';
import { dvfsKernels } from './dvfs';
import { pipelineTable1 } from './pipeline';
import { rcceBcastStudy, rccePairHops, rccePairScaling, rccePower, rcceTable1 } from './rcce-study';
import { rckmpiChannels } from './rckmpi';
import { concordanceTable3, nbodyTable5 } from './sicsa';
import type { Reproduction, ReproductionResult, RunOutput } from './types';

export * from './types';
export { cell, verdictOf, fmt } from './cells';
export { renderReport, summaryOf, type ReportMeta } from './report';
export { PIPELINE_TABLE_1 } from './pipeline';
export { linearFit } from './rcce-study';
export { paperBeside, type PaperBeside } from './paper-beside';

export const reproductions: Reproduction[] = [pipelineTable1, rckmpiChannels, rccePairHops, rccePairScaling, rcceTable1, rccePower, rcceBcastStudy, dvfsKernels, nbodyTable5, concordanceTable3];

export type RunExperiment = (experiment: ExperimentInput) => Promise<RunOutput>;

/** Runs and evaluates the reproductions in order; `onRun` reports progress (i of n runs). */
export async function runReproductions(run: RunExperiment, list: Reproduction[] = reproductions, onRun?: (done: number, total: number, what: string) => void, clockMs: () => number = () => 0): Promise<ReproductionResult[]> {
  const total = list.reduce((a, r) => a + r.experiments.length, 0);
  let done = 0;
  const out: ReproductionResult[] = [];
  for (const r of list) {
    const t0 = clockMs();
    const runs: RunOutput[] = [];
    let error: string | undefined;
    for (const e of r.experiments) {
      onRun?.(done, total, `${r.id}: ${e.workload.name} ${JSON.stringify(e.workload.params ?? {})}`);
      try {
        if (!error) runs.push(await run(e));
      } catch (err) {
        error = `${e.workload.name} ${JSON.stringify(e.workload.params ?? {})}: ${err instanceof Error ? err.message : String(err)}`;
      }
      done++;
    }
    const evaluated = error ? { cells: [], checks: [] } : r.evaluate(runs);
    out.push({
      id: r.id,
      title: r.title,
      source: r.source,
      kind: r.kind,
      mechanism: r.mechanism,
      ...evaluated,
      runs: runs.map((x) => ({ workload: String(x.experiment.workload.name), params: (x.experiment.workload.params ?? {}) as Record<string, unknown>, digest: x.digest, wallMs: x.wallMs })),
      wallMs: clockMs() - t0,
      ...(error ? { error } : {}),
    });
  }
  onRun?.(done, total, 'done');
  return out;
}
