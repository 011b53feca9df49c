/**
 * The registry of guided experiments (issue 17): one list, used by the web gallery (Load and
 * run, Run sweep) and by `manycore guided list|run`. The first entry is the web lab's default
 * experiment. Every workload has at least one entry (guided.test.ts checks it).
 *  - guided/types.ts: what an entry is; guided/chart.ts: rows and chart points of a sweep
 *  - guided/first-steps.ts, guided/scc-studies.ts, guided/chips.ts, guided/dsm.ts, guided/bugs.ts: the entries
 */
import { otherChips } from './guided/chips';
import { protocolBugs } from './guided/bugs';
import { dsmStudies } from './guided/dsm';
import { firstSteps } from './guided/first-steps';
import { sccStudies } from './guided/scc-studies';
import { vmStudies } from './guided/vm';
import type { GuidedExperiment } from './guided/types';

export * from './guided/types';
export { chartPoints, chipOf, describeRun, familyOf, resolvePaperPoints, sweepRows, type ChartPoint } from './guided/chart';

export const guidedExperiments: GuidedExperiment[] = [...firstSteps, ...sccStudies, ...otherChips, ...dsmStudies, ...vmStudies, ...protocolBugs];

/** The entry with this id, or undefined. */
export function guidedById(id: string): GuidedExperiment | undefined {
  return guidedExperiments.find((g) => g.id === id);
}
