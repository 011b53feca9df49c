import { describe, expect, it } from 'vitest';
import type { ExperimentInput, Row } from '@manycore/engine';
import { workloads } from '../index';
import { cell, verdictOf } from './cells';
import { PIPELINE_TABLE_1, pipelineTable1 } from './pipeline';
import { linearFit } from './rcce-study';
import { renderReport } from './report';
import { paperBeside, reproductions, runReproductions, type RunOutput } from './index';

const out = (experiment: ExperimentInput, rows: Row[]): RunOutput => ({ experiment, rows, digest: 'd', wallMs: 1 });

describe('verdicts and cells', () => {
  it('bands the ratio lab / paper', () => {
    expect(verdictOf(1)).toBe('agrees');
    expect(verdictOf(1.25)).toBe('agrees');
    expect(verdictOf(0.8)).toBe('agrees');
    expect(verdictOf(1.26)).toBe('within 2x');
    expect(verdictOf(0.5)).toBe('within 2x');
    expect(verdictOf(0.49)).toBe('off');
    expect(verdictOf(30)).toBe('off');
    expect(verdictOf(null)).toBe('not measured');
    expect(verdictOf(0)).toBe('not measured');
  });
  it('computes the ratio, or none when a side is missing', () => {
    expect(cell('x', 2, 3, 's')).toMatchObject({ ratio: 1.5, verdict: 'within 2x' });
    expect(cell('x', null, 3, 's')).toMatchObject({ ratio: null, verdict: 'not measured' });
    expect(cell('x', 2, null, 's')).toMatchObject({ ratio: null, verdict: 'not measured' });
  });
  it('fits a line', () => {
    const f = linearFit([1, 2, 3, 8], [10, 12, 14, 24]);
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.r2).toBeCloseTo(1, 12);
    expect(linearFit([1, 2, 3], [1, 3, 2]).r2).toBeLessThan(0.5);
  });
});

describe('every reproduction', () => {
  it('names experiments that validate against the workload registry', () => {
    for (const r of reproductions) {
      expect(r.experiments.length, r.id).toBeGreaterThan(0);
      for (const e of r.experiments) {
        const def = workloads[String(e.workload.name)];
        expect(def, `${r.id}: ${String(e.workload.name)}`).toBeDefined();
        // unknown or out-of-range parameters fail here, not after a 10-minute report
        expect(() => def!.params.parse(e.workload.params ?? {}), `${r.id}: ${JSON.stringify(e.workload.params)}`).not.toThrow();
      }
    }
  });
  it('has unique ids and a paper source with line numbers', () => {
    expect(new Set(reproductions.map((r) => r.id)).size).toBe(reproductions.length);
    for (const r of reproductions) expect(r.source, r.id).toMatch(/paper \d{3} lines? \d+/);
  });
  it('evaluates to cells "not measured" and failing checks when the runs give nothing', () => {
    for (const r of reproductions) {
      const { cells, checks } = r.evaluate(r.experiments.map((e) => out(e, [])));
      expect(cells.every((c) => c.lab === null && c.verdict === 'not measured'), r.id).toBe(true);
      expect(checks.every((c) => !c.pass), r.id).toBe(true);
    }
  });
});

describe('pipeline Table I', () => {
  // the paper's own values as lab rows: every cell agrees with ratio 1
  const paperRuns = pipelineTable1.experiments.map((e) => {
    const p = e.workload.params as { mode: keyof typeof PIPELINE_TABLE_1; order: string; dataBytes: number; chunkBytes: number };
    const d = [1, 2, 4, 8].indexOf(p.dataBytes / (1024 * 1024));
    const s = PIPELINE_TABLE_1[p.mode][d]![p.order === 'id' ? 0 : 1]!;
    return out(e, [{ timeNs: s * 1e9 }]);
  });
  it('has 24 paper cells plus the three 8 MB / 1 MB shapes', () => {
    const { cells } = pipelineTable1.evaluate(paperRuns);
    expect(cells).toHaveLength(27);
    expect(cells.slice(0, 24).every((c) => c.ratio !== null && Math.abs(c.ratio - 1) < 1e-12)).toBe(true);
    expect(cells[0]).toMatchObject({ label: 'private, D = 1 MB, trivial (id)', paper: 3.678, unit: 's' });
    expect(cells[23]).toMatchObject({ paper: 4.313 });
  });
  it('checks the issue\'s trends: the paper\'s own numbers pass every one', () => {
    // (the extra uncached C = 64 KB run is given the 1 MB id value, as if independent of C)
    const { checks } = pipelineTable1.evaluate(paperRuns);
    expect(checks).toHaveLength(9);
    expect(checks.filter((c) => !c.pass).map((c) => c.label)).toEqual([]);
  });
  it('fails "cached faster than private" when the lab has it the other way round', () => {
    const flipped = paperRuns.map((r) => {
      const p = r.experiment.workload.params as { mode: string };
      return p.mode === 'cached-shared' ? out(r.experiment, [{ timeNs: (r.rows[0]!.timeNs as number) * 10 }]) : r;
    });
    const check = pipelineTable1.evaluate(flipped).checks.find((c) => c.label.startsWith('at 1 MB'));
    expect(check?.pass).toBe(false);
    expect(check?.lab).toContain('cached 9.2 s');
  });
});

describe('the report', () => {
  it('runs every experiment, keeps going after a failure and marks only that reproduction', async () => {
    const seen: string[] = [];
    const two = reproductions.slice(0, 2);
    const results = await runReproductions(async (e) => {
      seen.push(String(e.workload.name));
      if (e.workload.name === 'mpi-sweep' && (e.workload.params as { op: string }).op === 'gather') throw new Error('boom');
      return out(e, []);
    }, two);
    expect(seen).toEqual(two.flatMap((r) => r.experiments.map((e) => String(e.workload.name))));
    expect(results[0]!.error).toBeUndefined();
    expect(results[0]!.runs).toHaveLength(25);
    expect(results[1]!.error).toMatch(/gather.*boom/);
  });
  it('gives the same evaluation with several runs at once, whatever order they finish in', async () => {
    const list = reproductions.slice(0, 1);
    const fake = (e: ExperimentInput) => {
      const p = e.workload.params as { dataBytes: number; chunkBytes: number; mode: string; order: string };
      return out(e, [{ timeNs: p.dataBytes / p.chunkBytes + p.mode.length * 1e3 + (p.order === 'id' ? 7 : 0) }]);
    };
    const serial = await runReproductions(async (e) => fake(e), list);
    let k = 0;
    const parallel = await runReproductions(
      async (e) => {
        await new Promise((r) => setTimeout(r, (k++ * 7) % 5)); // finish out of order
        return fake(e);
      },
      list,
      { jobs: 3 },
    );
    expect(parallel[0]!.cells).toEqual(serial[0]!.cells);
    expect(parallel[0]!.checks).toEqual(serial[0]!.checks);
    expect(parallel[0]!.runs.map((r) => r.params)).toEqual(serial[0]!.runs.map((r) => r.params));
  });
  it('runs an experiment two reproductions share once and gives both its output', async () => {
    const byId = (id: string) => reproductions.find((r) => r.id === id)!;
    // Table I's four pair runs at one hop: two of them are the hops section's
    const list = [byId('rcce-pair-hops'), byId('rcce-table-1')];
    const seen: string[] = [];
    const progress: number[] = [];
    const results = await runReproductions(
      async (e) => {
        seen.push(JSON.stringify(e));
        const p = e.workload.params as { benchmark: string; hops: number };
        return { ...out(e, [{ ipc: p.hops + p.benchmark.length / 100 }]), digest: `${p.benchmark}-${p.hops}` };
      },
      list,
      { onRun: (_done, total) => progress.push(total) },
    );
    expect(seen).toHaveLength(10 + 4 - 2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(progress.every((t) => t === 12)).toBe(true);
    expect(results[1]!.runs.map((r) => r.digest)).toEqual(['share-1', 'shift-1', 'stencil-1', 'pingpong-1']);
    expect(results[1]!.cells.find((c) => c.label === 'stencil: IPC')?.lab).toBeCloseTo(1.07, 12);
  });
  it('starts the heaviest runs first by the hostCost hint, then in report order', async () => {
    const seen: string[] = [];
    const pipeline = { ...pipelineTable1, hostCost: (e: ExperimentInput) => (e.workload.params as { dataBytes: number }).dataBytes };
    const other = reproductions.find((r) => r.id === 'rcce-table-1')!;
    await runReproductions(
      async (e) => {
        const p = e.workload.params as { dataBytes?: number; mode?: string; benchmark?: string; chunkBytes?: number };
        seen.push(p.dataBytes ? `${p.mode} ${p.dataBytes / 1048576} ${p.chunkBytes === 65536 ? '64K' : ''}`.trim() : String(p.benchmark));
        return out(e, []);
      },
      [other, pipeline],
    );
    expect(seen.slice(0, 6)).toEqual(['private 8', 'private 8', 'uncached-shared 8', 'uncached-shared 8', 'cached-shared 8', 'cached-shared 8']);
    // the 1 MB runs (the extra C = 64 KB run last among them), then the unhinted runs in report order
    expect(seen.slice(18)).toEqual(['private 1', 'private 1', 'uncached-shared 1', 'uncached-shared 1', 'cached-shared 1', 'cached-shared 1', 'uncached-shared 1 64K', 'share', 'shift', 'stencil', 'pingpong']);
  });
  it('renders a summary, tables with escaped text and the digests', () => {
    const text = renderReport(
      [
        {
          id: 'x',
          title: 'A <b>title</b> | with a bar',
          source: 'paper 003 lines 1-2',
          kind: 'mechanistic',
          mechanism: 'because',
          cells: [cell('c1', 2, 1, 's')],
          checks: [{ label: 'k', pass: false, lab: 'l', paper: 'p' }],
          runs: [{ workload: 'w', params: { a: 1 }, digest: 'abc123', wallMs: 1500 }],
          wallMs: 1500,
        },
      ],
      { date: '2026-11-24', host: 'test', cost: { runs: 1, jobs: 2, wallMs: 61_000, cpuMs: 118_000 } },
    );
    expect(text).toContain('| [A &lt;b&gt;title&lt;/b&gt; \\| with a bar](#x) |');
    expect(text).toContain('| c1 | 2 | 1 | s | 0.5 | within 2x |');
    expect(text).toContain('| k | **fail** | l | p |');
    expect(text).toContain('| **all** | | **0 / 1** | **0 / 1** |');
    expect(text).toContain('abc123');
    expect(text).toContain('The whole report: 1 distinct runs, 2 at once, 61 s wall, 118 s CPU.');
    expect(text).not.toContain('<b>');
  });
});

describe('the paper beside one run', () => {
  const cached1 = { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'pipeline', params: { mode: 'cached-shared', order: 'snake', stages: 48, dataBytes: 1048576, chunkBytes: 262144 } } } as ExperimentInput;
  it('finds the Table I cell a run gives, with the paper value and the ratio', () => {
    const found = paperBeside(reproductions, workloads, cached1, [{ timeNs: 0.434e9 }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.reproduction).toBe('pipeline-table-1');
    expect(found[0]!.cells).toEqual([expect.objectContaining({ label: 'cached-shared, D = 1 MB, min-routing (snake)', paper: 0.868, lab: 0.434, ratio: 0.5 })]);
  });
  it('matches with defaults filled in, and not with another parameter, a chip override or a timeline', () => {
    const def = workloads.pipeline!.params.parse(cached1.workload.params) as Record<string, string | number | boolean>;
    expect(paperBeside(reproductions, workloads, { ...cached1, workload: { name: 'pipeline', params: def } }, [{ timeNs: 1e9 }])).toHaveLength(1);
    expect(paperBeside(reproductions, workloads, { ...cached1, workload: { name: 'pipeline', params: { ...def, stages: 47 } } }, [{ timeNs: 1e9 }])).toHaveLength(0);
    expect(paperBeside(reproductions, workloads, { ...cached1, chip: { preset: 'scc', overrides: { mesh: { width: 4 } } } }, [{ timeNs: 1e9 }])).toHaveLength(0);
    expect(paperBeside(reproductions, workloads, { ...cached1, timeline: [{ atNs: 1, island: 0, divisor: 4 }] } as ExperimentInput, [{ timeNs: 1e9 }])).toHaveLength(0);
    expect(paperBeside(reproductions, workloads, { ...cached1, workload: { name: 'nope', params: {} } }, [])).toHaveLength(0);
  });
});
