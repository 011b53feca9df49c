import { describe, expect, it } from 'vitest';
import { parseExperiment, prepareRun } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { GALLERY } from './entries';
import { CORE_METRICS } from '../sim/metrics';

describe('guided experiments gallery', () => {
  it('has unique ids and valid experiments', () => {
    expect(new Set(GALLERY.map((g) => g.id)).size).toBe(GALLERY.length);
    for (const g of GALLERY) {
      expect(g.title.length).toBeGreaterThan(0);
      expect(g.whatToLookFor.length).toBeGreaterThan(0);
      expect(() => prepareRun(parseExperiment(g.experiment), workloads), g.id).not.toThrow();
      if (g.metric) expect(CORE_METRICS.map((m) => m.id)).toContain(g.metric);
    }
  });
});
