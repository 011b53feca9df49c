import { describe, expect, it } from 'vitest';
import { chartPoints, guidedById, resolvePaperPoints, sweepRows } from '../guided';

describe('guided dsm-sor-hoisting (paper 004 Table 7)', () => {
  const entry = guidedById('dsm-sor-hoisting')!;

  it('runs both runtimes with and without hoisting on 1 and 32 processors; rows chart as "runtime hoisting" series', () => {
    expect(entry.experiments.map((e) => e.workload.params)).toContainEqual({ runtime: 'object', app: 'sor', processors: 32, sorHoisting: false });
    expect(entry.experiments).toHaveLength(8);
    // a hoisted row has no sorHoisting field: the run's parameter names its series
    const rows = entry.experiments.map((e, run) => {
      const p = e.workload.params as { runtime: string; processors: number; sorHoisting: boolean };
      return sweepRows(entry, run, [{ runtime: p.runtime, processors: p.processors, timeNs: p.sorHoisting ? 100 : 150, ...(p.sorHoisting ? {} : { sorHoisting: false }) }])[0]!;
    });
    const lab = rows.flatMap((r, run) => chartPoints(entry, run, [r]).lab);
    expect(new Set(lab.map((q) => q.series))).toEqual(new Set(['page true', 'page false', 'object true', 'object false']));
    // the paper's slowdowns as factors on the lab's hoisted point: 33.19 / 27.57 and 47.47 / 28.05 on 1 processor, 1.54 / 1.32 and 1.84 / 1.31 on 32
    const paper = resolvePaperPoints(entry.paper!.points!, lab);
    expect(paper.map((q) => [q.series, q.x, Math.round(q.y * 100) / 100])).toEqual([
      ['page false', 1, 120.38],
      ['page false', 32, 116.67],
      ['object false', 1, 169.23],
      ['object false', 32, 140.46],
    ]);
    expect(paper[2]!.label).toBe('SkidMarks without hoisting 47.47 s vs 28.05 s with, on 1 processor (69% slower; Table 7, SOR/lg)');
  });
});
