import { describe, expect, it } from 'vitest';
import { prepareRun } from '@manycore/engine';
import { workloads } from './index';
import { guidedExperiments } from './guided';

describe('guided experiments', () => {
  it('have unique ids, text, and experiments that validate against their workloads', () => {
    const ids = new Set<string>();
    for (const g of guidedExperiments) {
      expect(ids.has(g.id)).toBe(false);
      ids.add(g.id);
      expect(g.title.length).toBeGreaterThan(5);
      expect(g.whatToLookFor.length).toBeGreaterThan(40);
      expect(g.experiments.length).toBeGreaterThan(0);
      for (const e of g.experiments) {
        const run = prepareRun(e, workloads);
        expect(run.workload.name).toBe(e.workload.name);
        if (g.chart) expect(run.params).toBeDefined();
      }
      if (g.sweep) for (const e of g.experiments) expect(g.sweep.values).toContain(e.workload.params![g.sweep.param]);
    }
  });

  it('cover every must-show trend of issue 4', () => {
    const ids = guidedExperiments.map((g) => g.id);
    for (const id of [
      'rckmpi-sendrecv-channels',
      'rckmpi-collectives',
      'rckmpi-bcast-256k',
      'rckmpi-barrier',
      'rcce-pair-hops',
      'rcce-pair-scaling',
      'rcce-power-vs-cores',
      'rcce-bcast-receivers',
      'dvfs-memory-bound',
      'dvfs-efficiency',
      'rcce-vs-socket',
    ])
      expect(ids).toContain(id);
  });
});
