import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { Telemetry } from './telemetry';
import { chipClockNsOf, emptyTotals, liveTotals, PauseClock, QUANTITIES, RESULT_IDS, resultTotals, runningWallMs } from './telemetry-quantities';

function pingpong(hops: number) {
  const sim = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { hops, bytes: 1024, iterations: 4 } } }, workloads);
  const t = new Telemetry(sim.run, sim.views);
  const r = sim.runInline();
  t.update(0);
  return { t, r };
}

describe('quantities shown in more than one place', () => {
  it('the live totals at the end of a run equal the same totals read from the results JSON', () => {
    const { t, r } = pingpong(8);
    const live = liveTotals(t, emptyTotals());
    const done = resultTotals(r);
    for (const id of ['loads', 'stores', 'loadsStores', 'dramReads', 'controllerRequests', 'flitsInjected', 'flitHops', 'messagesSent'] as const) expect(live[id], id).toBe(done[id]);
    expect(live.chipClockNs).toBeCloseTo(done.chipClockNs, 6);
    // each formatted the one way, so the counters and the key numbers read the same
    expect(QUANTITIES.flitHops.format(live.flitHops)).toBe(QUANTITIES.flitHops.format(done.flitHops));
    expect(QUANTITIES.chipClockNs.format(live.chipClockNs)).toBe(QUANTITIES.chipClockNs.format(done.chipClockNs));
  });

  it('keeps flits injected and flit-hops on links apart: 8 hops apart, the hops count every link crossed', () => {
    const { r } = pingpong(8);
    const q = resultTotals(r);
    expect(q.flitsInjected).toBe(r.simulated.chip.flits);
    expect(q.flitHops).toBe(r.simulated.links.reduce((s, l) => s + l.flits, 0));
    expect(q.flitHops).toBeGreaterThan(3 * q.flitsInjected); // most packets cross 8 links
    expect(QUANTITIES.flitsInjected.label).toBe('flits injected');
    expect(QUANTITIES.flitHops.label).toBe('flit-hops on links');
  });

  it('the chip clock is the end of the last epoch, at or after the workload finish time', () => {
    const { t, r } = pingpong(1);
    expect(chipClockNsOf(r)).toBe(r.series.timeNs[r.series.timeNs.length - 1]);
    expect(chipClockNsOf(r)).toBeGreaterThanOrEqual(r.simulated.endTimeNs);
    expect(t.simTimePs() / 1000).toBeCloseTo(chipClockNsOf(r), 6);
    expect(resultTotals(r).finishNs).toBe(r.simulated.endTimeNs);
    expect(RESULT_IDS.slice(0, 2)).toEqual(['finishNs', 'chipClockNs']);
  });

  it('does not invent a power "now" from the results', () => {
    const { r } = pingpong(1);
    expect(Number.isNaN(resultTotals(r).powerNowW)).toBe(true);
    expect(RESULT_IDS).not.toContain('powerNowW');
  });
});

describe('running wall time', () => {
  it('counts only the time the run was not paused', () => {
    const c = new PauseClock();
    c.observe(false, 0);
    c.observe(true, 1000); // paused at 1 s
    expect(c.pausedMs(1500)).toBe(500);
    c.observe(true, 2000); // still paused: no double count
    c.observe(false, 3000); // resumed at 3 s
    expect(c.pausedMs(10_000)).toBe(2000);
    c.observe(true, 4000);
    c.observe(false, 4250);
    expect(c.pausedMs(5000)).toBe(2250);
    expect(runningWallMs(5000, c.pausedMs(5000))).toBe(2750);
    expect(runningWallMs(100, 200)).toBe(0);
    c.reset();
    expect(c.pausedMs(9000)).toBe(0);
  });
});
