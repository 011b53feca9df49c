import { describe, expect, it } from 'vitest';
import { prepareRun, Simulation, type Row } from '@manycore/engine';
import { workloads } from './index';
import { chartPoints, chipOf, describeRun, familyOf, guidedById, guidedExperiments, resolvePaperPoints, sweepRows } from './guided';
import { NBODY_TABLE_5, RCKMPI_FACTORS } from './fidelity/index';

describe('guided experiments', () => {
  it('have unique ids, text, and experiments that validate against their workloads', () => {
    const ids = new Set<string>();
    for (const g of guidedExperiments) {
      expect(ids.has(g.id), g.id).toBe(false);
      ids.add(g.id);
      expect(g.id).toMatch(/^[a-z0-9-]+$/);
      expect(g.title.length).toBeGreaterThan(5);
      expect(g.summary.length, g.id).toBeGreaterThan(20);
      expect(g.whatToLookFor.length, g.id).toBeGreaterThan(0);
      for (const w of g.whatToLookFor) expect(w.length).toBeGreaterThan(20);
      expect(g.experiments.length).toBeGreaterThan(0);
      for (const e of g.experiments) {
        const run = prepareRun(e, workloads);
        expect(run.workload.name).toBe(e.workload.name);
      }
      if (g.sweep) {
        expect(g.experiments.length, g.id).toBeGreaterThan(1);
        for (const e of g.experiments) expect(g.sweep.values).toContain(e.workload.params![g.sweep.param]);
      }
      if (g.speedNsPerS !== undefined) expect(g.speedNsPerS).toBeGreaterThan(0);
      if (g.paper) expect(g.paper.points?.length || g.paper.rowField || g.paper.note, g.id).toBeTruthy();
      if (g.paper?.points?.length) expect(g.chart, `${g.id} has paper points but no chart`).toBeDefined();
    }
  });

  it('give every workload at least one entry, on its own chip family, and one on a big mesh', () => {
    const byWorkload = new Map<string, string[]>();
    for (const g of guidedExperiments)
      for (const e of g.experiments) byWorkload.set(String(e.workload.name), [...(byWorkload.get(String(e.workload.name)) ?? []), chipOf(g)]);
    for (const name of Object.keys(workloads)) expect(byWorkload.has(name), `no guided entry runs ${name}`).toBe(true);
    expect(byWorkload.get('latency-ladder')).toContain('tile64');
    expect(byWorkload.get('tile-messages')).toContain('tile64');
    const big = guidedExperiments.filter((g) => g.experiments.some((e) => prepareRun(e, workloads).chip.topo.cores >= 256));
    expect(big.length).toBeGreaterThan(0); // mesh-stream-scaling: up to 512 cores
    expect(big.every((g) => familyOf(g) === 'Big meshes')).toBe(true);
  });

  it('start with the lab\'s default experiment, slow enough for its what-if', () => {
    const first = guidedExperiments[0]!;
    expect(first.id).toBe('dram-stream');
    expect(first.metric).toBe('stall-l2Miss');
    expect(first.experiments).toHaveLength(1);
    expect(first.whatToLookFor.some((w) => /divisor 8 while it runs/.test(w))).toBe(true);
    // the run simulates about 490 us: at the entry's speed that is well over 20 s of wall time
    expect(490_000 / first.speedNsPerS!).toBeGreaterThan(20);
  });

  it('cover every must-show trend of issues 4 and 5', () => {
    const ids = guidedExperiments.map((g) => g.id);
    for (const id of ['rckmpi-sendrecv-channels', 'rckmpi-collectives', 'rckmpi-bcast-256k', 'rckmpi-barrier', 'rcce-pair-hops', 'rcce-pair-scaling', 'rcce-power-vs-cores', 'rcce-bcast-receivers', 'dvfs-memory-bound', 'dvfs-efficiency', 'rcce-vs-socket'])
      expect(ids).toContain(id);
  });

  it('take the paper values from the fidelity module', () => {
    const nbody = guidedById('nbody-ring-workers')!;
    expect(nbody.paper!.points!.map((p) => [p.x, p.y])).toEqual(NBODY_TABLE_5.map(([w, ms]) => [w, ms * 1e6]));
    const sendrecv = guidedById('rckmpi-sendrecv-channels')!;
    const f = RCKMPI_FACTORS.find((x) => x.op === 'sendrecv')!;
    expect(sendrecv.paper!.points).toEqual([expect.objectContaining({ x: f.bytes, y: 1 / f.factor, series: 'improved', relativeTo: { series: 'original' } })]);
  });
});

describe('sweep rows and chart points', () => {
  const entry = guidedById('rckmpi-sendrecv-channels')!;

  it('adds the run index and the run\'s parameters the row does not give', () => {
    const rows = sweepRows(entry, 1, [{ bytes: 64, latencyNs: 900, op: 'sendrecv' }]);
    expect(rows).toEqual([{ run: 1, processes: 48, channel: 'improved', bytes: 64, latencyNs: 900, op: 'sendrecv' }]);
    expect(Object.keys(rows[0]!).slice(0, 3)).toEqual(['run', 'processes', 'channel']);
  });

  it('picks x, y and series per the chart hint and resolves relative paper points once their anchor arrives', () => {
    const orig = chartPoints(entry, 0, sweepRows(entry, 0, [{ bytes: 16384, latencyNs: 62_500 }, { bytes: 1, latencyNs: NaN }]));
    expect(orig.lab).toEqual([{ x: 16384, y: 62_500, series: 'original', run: 0 }]);
    expect(resolvePaperPoints(entry.paper!.points!, [])).toEqual([]);
    const paper = resolvePaperPoints(entry.paper!.points!, orig.lab);
    expect(paper).toHaveLength(1);
    expect(paper[0]!.x).toBe(16384);
    expect(paper[0]!.series).toBe('improved');
    expect(paper[0]!.y).toBeCloseTo(62_500 / 6.25, 6);
  });

  it('aggregates rows of one run and reads paper values from a row field', () => {
    const pairs = guidedById('rcce-pair-scaling')!;
    const rows: Row[] = [
      { pair: 0, timeNs: 10, benchmark: 'share' },
      { pair: 1, timeNs: 30, benchmark: 'share' },
    ];
    expect(chartPoints(pairs, 3, sweepRows(pairs, 3, rows)).lab).toEqual([{ x: 24, y: 30, series: 'share', run: 3 }]);
    const ladder = guidedById('tile64-latency-ladder')!;
    const pts = chartPoints(ladder, 0, sweepRows(ladder, 0, [{ level: 'L1', hops: 0, latencyCycles: 2, paper: '2 (Table 1)', paperCycles: 2 }, { level: 'X', hops: 1, latencyCycles: 5, paper: '', paperCycles: 0 }]));
    expect(pts.lab.map((p) => p.series)).toEqual(['L1', 'X']);
    expect(pts.paper).toEqual([{ x: 0, y: 2, series: 'L1', run: 0, label: '2 (Table 1) (paper 000 Tables 1 and 3)' }]);
    const coll = guidedById('rckmpi-collectives')!;
    expect(chartPoints(coll, 1, sweepRows(coll, 1, [{ bytes: 8, latencyNs: 5 }])).lab).toEqual([{ x: 8, y: 5, series: 'gather improved', run: 1 }]);
  });

  it('describes a run by its swept value', () => {
    expect(describeRun(entry, 1)).toBe('channel=improved');
    expect(describeRun(guidedById('rcce-pair-hops')!, 5)).toBe('hops=0, benchmark=pingpong');
  });

  it('the quick sweep gives one point per hop, rising with distance', () => {
    const quick = guidedById('pingpong-hops')!;
    const points = quick.experiments.flatMap((e, i) => chartPoints(quick, i, sweepRows(quick, i, new Simulation(e, workloads).runInline().workload.rows)).lab);
    expect(points.map((p) => p.x)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (let i = 1; i < points.length; i++) expect(points[i]!.y).toBeGreaterThan(points[i - 1]!.y);
  });
});

describe('a guided comparison of chips (dsm-sor-cluster-vs-scc)', () => {
  const entry = guidedById('dsm-sor-cluster-vs-scc')!;
  it('runs the same app, runtime and processors on cluster-1999 and on the SCC', () => {
    const key = (i: number) => JSON.stringify(entry.experiments[i]!.workload);
    expect(entry.experiments.map((e) => e.chip.preset)).toEqual([...Array(4).fill('cluster-1999'), ...Array(4).fill('scc')]);
    for (let i = 0; i < 4; i++) expect(key(i)).toBe(key(i + 4));
  });
  it('names each run\'s chip in its sweep rows and its description, and draws one series per chip', () => {
    const rows = sweepRows(entry, 5, [{ processors: 8, timeNs: 2e6, chip: 'scc' }]);
    expect(rows[0]).toMatchObject({ run: 5, chip: 'scc', runtime: 'page', app: 'sor', processors: 8 });
    expect(sweepRows(entry, 1, [{ processors: 8, timeNs: 9e6 }])[0]!.chip).toBe('cluster-1999');
    expect(describeRun(entry, 1)).toBe('processors=8 on cluster-1999');
    expect(describeRun(entry, 5)).toBe('processors=8 on scc');
    expect(chartPoints(entry, 1, sweepRows(entry, 1, [{ processors: 8, timeNs: 9e6 }])).lab).toEqual([{ x: 8, y: 9e6, series: 'cluster-1999', run: 1 }]);
    // an entry on one chip keeps its rows as they were (no chip column)
    expect('chip' in sweepRows(guidedById('dsm-sor-page')!, 0, [{ timeNs: 1 }])[0]!).toBe(false);
  });
});
