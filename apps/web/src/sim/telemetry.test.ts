import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { SeriesColumns, Telemetry } from './telemetry';
import { mergeTimeline } from './live-run';

describe('telemetry read from the shared buffers', () => {
  it('reads the same time series as the results, and whole-run values that match them', () => {
    const sim = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { hops: 3, iterations: 8 } } }, workloads);
    const t = new Telemetry(sim.run, sim.views);
    const r = sim.runInline();
    expect(t.update(0)).toBe(true);
    expect(t.update(0)).toBe(false); // nothing changed since
    const s = t.series;
    expect(Array.from(s.timeNs.view())).toEqual(r.series.timeNs);
    expect(Array.from(s.flitsPerUs.view()).map((x) => Number(x.toPrecision(12)))).toEqual(r.series.flitsPerUs);
    expect(Array.from(s.controllerQueueDepth[0]!.view())).toEqual(r.series.controllerQueueDepth.map((x) => x[0]));
    const fromResults = SeriesColumns.fromResults(r.series, t.lineBytes);
    expect(fromResults.length).toBe(s.length);
    expect(t.lineBytes).toBe(32); // the SCC's controllers count 32-byte lines (its FloorplanSpec)
    expect(Array.from(fromResults.controllerGBps[0]!.view())).toEqual(Array.from(s.controllerGBps[0]!.view()));
    for (const c of r.simulated.cores) expect(t.utilRun(c.core)).toBeCloseTo(c.utilization, 9);
    for (const l of r.simulated.links) expect(t.linkRun(l.id)).toBeCloseTo(l.flitsPerUs, 6);
    expect(t.messages(0, r.simulated.cores.find((c) => c.messagesReceived > 0 && c.core !== 0)!.core)).toBeGreaterThan(0);
  });
});

/** A TILE64 latency-ladder run, not started. */
function tile64Ladder(): Simulation {
  return new Simulation({ version: 1, chip: { preset: 'tile64' }, workload: { name: 'latency-ladder', params: {} } }, workloads);
}

describe('telemetry of another family', () => {
  it('takes bytes per memory transaction from the family floorplan and scans no MPBs on a chip without them', () => {
    const run = tile64Ladder();
    const t = new Telemetry(run.run, run.views);
    expect(t.lineBytes).toBe(64);
    expect(t.hasMpb).toBe(false);
  });

  it('reads the fill of the home L2 slices (the unit region) per tile; the SCC has no such unit', () => {
    const run = tile64Ladder();
    const t = new Telemetry(run.run, run.views);
    expect(t.unit?.label).toBe('home L2 slice');
    t.update(0);
    expect(Array.from(t.unitUsed).every((n) => n === 0)).toBe(true); // nothing committed yet
    run.runInline();
    expect(t.update(1)).toBe(true);
    // core 0 alone: its private lines in tile 0's slice; one shared page homed at each distance
    // along row 0 (tiles 1..7) then column 7 (tiles 15, 23, .. 63), two lines of each
    expect(t.unitUsed[0]).toBeGreaterThan(0);
    expect(t.unitUsed[1]).toBeGreaterThan(0);
    expect(t.unitUsed[63]).toBeGreaterThan(0);
    expect(t.unitUsed[9]).toBe(0);
    for (const n of t.unitUsed) expect(n).toBeLessThanOrEqual(t.unit!.slotsPerTile);
    expect(t.update(2)).toBe(false); // read once more, nothing changed
    const scc = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { hops: 1, iterations: 2 } } }, workloads);
    const ts = new Telemetry(scc.run, scc.views);
    expect(ts.unit).toBeNull();
    expect(ts.unitUsed).toHaveLength(0);
  });
});

describe('timeline merge', () => {
  it('adds applied events once, in time order', () => {
    const a = { kind: 'island-divisor' as const, atNs: 0, island: 1, divisor: 5 };
    const b = { kind: 'island-divisor' as const, atNs: 500, island: 0, divisor: 8 };
    expect(mergeTimeline([a], [a, b])).toEqual([a, b]);
    expect(mergeTimeline([b], [a])).toEqual([a, b]);
  });
});
