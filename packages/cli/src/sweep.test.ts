import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Simulation, parseExperiment, type Experiment } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { parseArgs, UsageError } from './args';
import { sweep, progressText, type RunPoint } from './sweep';
import type { SweepArgs } from './sweep-args';
import { checkResult, mergeRows } from './sweep-merge';
import { buildPoints, gridSize, parseVary, pointFile, pointValues, specDifference, sweepSpec, withPath } from './sweep-spec';

const base = parseExperiment({ chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { iterations: 4 } } });

/** A real (inline) runner that counts the points it runs; `onCall(n)` may abort the sweep before run n. */
function counting(onCall?: (n: number) => 'hang' | void): { run: RunPoint; calls: number[] } {
  const calls: number[] = [];
  const run: RunPoint = (experiment) => {
    calls.push(experiment.workload.params.hops as number);
    if (onCall?.(calls.length) === 'hang') {
      let reject!: (e: Error) => void;
      return { results: new Promise((_, rej) => (reject = rej)), abandon: () => reject(new Error('abandoned')) };
    }
    return { results: Promise.resolve(new Simulation(experiment, workloads).runInline()), abandon: () => {} };
  };
  return { run, calls };
}

const quiet = { log: () => {}, tty: false };

describe('sweep: grid, paths and values', () => {
  it('parses --vary values as JSON when they parse, else text', () => {
    expect(parseVary('workload.params.hops=1,2,3')).toEqual({ path: 'workload.params.hops', values: [1, 2, 3] });
    expect(parseVary('workload.params.mode=flush, no-flush,true')).toEqual({ path: 'workload.params.mode', values: ['flush', 'no-flush', true] });
    expect(parseVary('quantumNs=1e3,250.5')).toEqual({ path: 'quantumNs', values: [1000, 250.5] });
  });

  it('names the problem in a bad --vary', () => {
    expect(() => parseVary('hops')).toThrow('--vary hops: expected PATH=V1,V2,...');
    expect(() => parseVary('a..b=1')).toThrow('--vary a..b: bad path "a..b"');
    expect(() => parseVary('chip.__proto__.x=1')).toThrow('bad path');
    expect(() => parseVary('seed=1,,3')).toThrow('--vary seed: value 2 of 3 is empty');
    expect(() => parseVary('seed=1,2,1')).toThrow('--vary seed: value 1 is given twice');
    expect(() => parseVary('version=1,2')).toThrow("the experiment's version cannot be varied");
    expect(() => parseArgs(['sweep', '--experiment', 'e.json', '--out', 'd', '--vary', 'seed=1', '--vary', 'seed=2'])).toThrow(
      '--vary seed: the path is varied twice',
    );
    expect(() => parseArgs(['sweep', '--experiment', 'e.json', '--out', 'd', '--vary', 'chip.overrides.mesh=1', '--vary', 'chip.overrides.mesh.width=2'])).toThrow(
      'overlaps --vary chip.overrides.mesh',
    );
    expect(() => parseArgs(['sweep', '--experiment', 'e.json', '--out', 'd'])).toThrow('at least one --vary');
    expect(() => parseArgs(['sweep', '--out', 'd', '--vary', 'seed=1'])).toThrow('--experiment FILE is required');
    expect(() => parseArgs(['sweep', '--experiment', 'e.json', '--vary', 'seed=1'])).toThrow('--out DIR is required');
    expect(() => parseArgs(['sweep', '--experiment', 'e.json', '--out', 'd', '--vary', 'seed=1', '--emit', 'pbs'])).toThrow('--emit pbs: expected slurm or k8s');
    expect(() => parseArgs(['sweep', '--experiment', 'e.json', '--out', 'd', '--vary', 'seed=1', '--image', 'x'])).toThrow('--image only apply with --emit k8s');
    expect(() => parseArgs(['sweep', '--merge', 'd', '--vary', 'seed=1'])).toThrow('sweep --merge DIR takes no');
    expect(parseArgs(['sweep', '--experiment', 'e.json', '--out', 'd', '--vary', 'seed=1,2', '--jobs', '3', '--emit', 'k8s', '--parallelism', '4'])).toMatchObject({
      command: 'sweep',
      jobs: 3,
      emit: 'k8s',
      parallelism: 4,
      vary: [{ path: 'seed', values: [1, 2] }],
    });
  });

  it('orders the grid with the first --vary slowest', () => {
    const v = [parseVary('a=1,2'), parseVary('b=x,y,z')];
    expect(gridSize(v)).toBe(6);
    expect([0, 1, 2, 3, 5].map((i) => pointValues(v, i))).toEqual([
      { a: 1, b: 'x' },
      { a: 1, b: 'y' },
      { a: 1, b: 'z' },
      { a: 2, b: 'x' },
      { a: 2, b: 'z' },
    ]);
    expect(pointFile(7)).toBe('0007.json');
    expect(pointFile(12345)).toBe('12345.json');
  });

  it('sets a path in a copy, creating objects, refusing to go through a value', () => {
    const b = { quantumNs: 1000, chip: { preset: 'mesh', overrides: {} } };
    expect(withPath(b, 'chip.overrides.mesh.width', 8)).toEqual({ quantumNs: 1000, chip: { preset: 'mesh', overrides: { mesh: { width: 8 } } } });
    expect(b.chip.overrides).toEqual({});
    expect(() => withPath(b, 'quantumNs.x', 1)).toThrow('--vary quantumNs.x: quantumNs is 1000 in the experiment, not an object');
  });

  it('validates every point before anything runs, naming the point, its values and the problem', () => {
    const points = buildPoints(base, [parseVary('workload.params.hops=1,3'), parseVary('workload.params.bytes=32,256')]);
    expect(points.map((p) => [p.index, p.experiment.workload.params])).toEqual([
      [0, { iterations: 4, hops: 1, bytes: 32 }],
      [1, { iterations: 4, hops: 1, bytes: 256 }],
      [2, { iterations: 4, hops: 3, bytes: 32 }],
      [3, { iterations: 4, hops: 3, bytes: 256 }],
    ]);
    let err: unknown;
    try {
      buildPoints(base, [parseVary('workload.params.hops=1,30')]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain('1 of 2 points is not a valid experiment');
    expect((err as Error).message).toContain('point 1 (workload.params.hops=30): workload.params (mpb-pingpong): hops=30 but no core is 30 hops from core 0');
    expect(() => buildPoints(base, [parseVary('workload.params.hopz=1')])).toThrow('point 0 (workload.params.hopz=1): workload.params (mpb-pingpong): unknown field: hopz');
    expect(() => buildPoints(base, [parseVary('chip.overrides.mesh.widht=2')])).toThrow('point 0 (chip.overrides.mesh.widht=2): chip.mesh: unknown field: widht');
    expect(() => buildPoints(base, [parseVary('quantumNs=500,-1')])).toThrow(/point 1 \(quantumNs=-1\): experiment.quantumNs/);
    expect(() => buildPoints(base, [parseVary('nosuch=1')])).toThrow('point 0 (nosuch=1): experiment: unknown field: nosuch');
  });

  it('compares specs by content, not by key order, and names the difference', () => {
    const v = [parseVary('workload.params.hops=1,2')];
    const spec = sweepSpec(base, v, buildPoints(base, v), 'x');
    const reordered = JSON.parse(JSON.stringify({ ...spec, base: Object.fromEntries(Object.entries(spec.base).reverse()) })) as unknown;
    expect(specDifference(reordered, spec)).toBeUndefined();
    const other = sweepSpec(base, [parseVary('workload.params.hops=1,3')], buildPoints(base, [parseVary('workload.params.hops=1,3')]), 'x');
    expect(specDifference(other, spec)).toBe('the values of workload.params.hops differ ([1,3] there, [1,2] here)');
    expect(specDifference({ ...spec, base: { ...spec.base, seed: 9 } }, spec)).toBe('the base experiment differs');
  });

  it('draws progress: done / total, failures, elapsed and an estimate', () => {
    expect(progressText(5, 20, 1, 10_000, 5, 15, 10)).toBe('[###.......] 5/20 points, 1 failed, 10 s, about 30 s left');
    expect(progressText(20, 20, 0, 75_000, 20, 0, 10)).toBe('[##########] 20/20 points, 0 failed, 1 min 15 s');
  });
});

describe('sweep: merge', () => {
  it('merges finished points with their values and digest, and lists the missing and failed ones', () => {
    const v = [parseVary('workload.params.hops=1,2,3')];
    const spec = sweepSpec(base, v, buildPoints(base, v), 'x');
    const m = mergeRows(spec, [
      { status: 'ok', digest: 'd0', rows: [{ hops: 1, roundTripNs: 10, status: 'mine' }] },
      { status: 'failed', error: 'boom' },
      { status: 'missing' },
    ]);
    expect(m.doc.rows).toEqual([
      { point: 0, 'workload.params.hops': 1, status: 'ok', pointDigest: 'd0', hops: 1, roundTripNs: 10, 'row.status': 'mine' },
      { point: 1, 'workload.params.hops': 2, status: 'failed' },
      { point: 2, 'workload.params.hops': 3, status: 'missing' },
    ]);
    expect(m.doc).toMatchObject({ points: 3, finished: 1, failed: [1], missing: [2] });
    expect(m.csv.split('\r\n')[0]).toBe('point,workload.params.hops,status,pointDigest,hops,roundTripNs,row.status');
  });

  it('takes a results file only when it is a finished result of its own point', () => {
    const exp = buildPoints(base, [parseVary('workload.params.hops=1')])[0]!.experiment;
    const results = new Simulation(exp, workloads).runInline();
    const text = JSON.stringify(results);
    expect(checkResult(text, exp)).toMatchObject({ ok: true, digest: results.digest });
    expect(checkResult(text.slice(0, 100), exp)).toMatchObject({ ok: false, reason: expect.stringContaining('not valid JSON') });
    expect(checkResult(text, { ...exp, seed: 2 })).toEqual({ ok: false, reason: "its experiment is not this point's" });
  });
});

describe('sweep: run, interrupt and resume', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'manycore-sweep-'));
    file = join(dir, 'base.json');
    writeFileSync(file, JSON.stringify(base));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const args = (out: string, over: Partial<SweepArgs> = {}): SweepArgs => ({
    command: 'sweep',
    experimentFile: file,
    vary: [parseVary('workload.params.hops=0,1,2,3'), parseVary('workload.params.bytes=32,256')],
    out: join(dir, out),
    jobs: 1,
    quiet: true,
    merge: false,
    ...over,
  });

  it('runs every point once, writes the layout, and merges the rows in point order', async () => {
    const r = counting();
    const o = await sweep(args('a', { jobs: 3 }), { ...quiet, runPoint: r.run });
    expect(o).toMatchObject({ total: 8, kept: 0, ran: 8, failed: [], interrupted: false });
    expect(r.calls).toHaveLength(8);
    const spec = JSON.parse(readFileSync(join(dir, 'a', 'sweep.json'), 'utf8'));
    expect(spec.points[5]).toEqual({ index: 5, values: { 'workload.params.hops': 2, 'workload.params.bytes': 256 }, file: 'points/0005.json' });
    expect(JSON.parse(readFileSync(join(dir, 'a', 'points', '0005.json'), 'utf8')).workload.params).toEqual({ iterations: 4, hops: 2, bytes: 256 });
    const rows = JSON.parse(readFileSync(join(dir, 'a', 'rows.json'), 'utf8'));
    expect(rows.rows.map((x: Record<string, unknown>) => [x.point, x.hops, x.bytes])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, Math.floor(i / 2), i % 2 ? 256 : 32]));
    // the round trip grows with hops (the modelled mesh, not a formula here)
    const rt = rows.rows.filter((x: Record<string, unknown>) => x.bytes === 32).map((x: Record<string, number>) => x.roundTripNs);
    expect(rt).toEqual([...rt].sort((a: number, b: number) => a - b));
    expect(new Set(rt).size).toBe(4);
  });

  it('an interrupted sweep resumes: finished points are kept, not rerun, and the merged rows equal an uninterrupted run', async () => {
    const whole = counting();
    await sweep(args('whole'), { ...quiet, runPoint: whole.run });

    const ac = new AbortController();
    const first = counting((n) => {
      if (n === 4) {
        ac.abort();
        return 'hang';
      }
    });
    const logs: string[] = [];
    const o1 = await sweep(args('part'), { log: (t) => logs.push(t), tty: false, signal: ac.signal, runPoint: first.run });
    expect(o1).toMatchObject({ interrupted: true, ran: 3, missing: 5 });
    expect(logs.join('')).toContain('sweep interrupted: 3 of 8 points finished');
    expect(logs.join('')).toContain('run the same command again to resume');
    expect(existsSync(join(dir, 'part', 'results', '0002.json'))).toBe(true);
    expect(existsSync(join(dir, 'part', 'results', '0003.json'))).toBe(false); // in flight: abandoned
    expect(existsSync(join(dir, 'part', 'rows.json'))).toBe(false);

    // a results file that is not this point's (here: cut short) is run again, with a message
    writeFileSync(join(dir, 'part', 'results', '0001.json'), '{"schema":');
    const second = counting();
    const logs2: string[] = [];
    const o2 = await sweep(args('part', { quiet: false }), { log: (t) => logs2.push(t), tty: false, runPoint: second.run });
    expect(o2).toMatchObject({ kept: 2, ran: 6, failed: [], interrupted: false });
    expect(second.calls).toHaveLength(6);
    expect(logs2.join('')).toContain('resuming in');
    expect(logs2.join('')).toContain('2 finished points kept, 6 to run');
    expect(logs2.join('')).toContain('point 1: results/0001.json is not a finished result of it (not valid JSON');
    expect(readFileSync(join(dir, 'part', 'rows.json'), 'utf8')).toBe(readFileSync(join(dir, 'whole', 'rows.json'), 'utf8'));
    expect(readFileSync(join(dir, 'part', 'rows.csv'), 'utf8')).toBe(readFileSync(join(dir, 'whole', 'rows.csv'), 'utf8'));

    // once more: everything is kept, nothing runs
    const third = counting();
    const o3 = await sweep(args('part'), { ...quiet, runPoint: third.run });
    expect(o3).toMatchObject({ kept: 8, ran: 0 });
    expect(third.calls).toHaveLength(0);
  });

  it('reports a failed point, runs the others, merges without it and retries it on resume', async () => {
    const failing: RunPoint = (exp) =>
      exp.workload.params.hops === 2 && exp.workload.params.bytes === 256
        ? { results: Promise.reject(new Error('simulated failure for the test')), abandon: () => {} }
        : counting().run(exp);
    const o = await sweep(args('f'), { ...quiet, runPoint: failing });
    expect(o).toMatchObject({ ran: 7, failed: [5] });
    expect(readFileSync(join(dir, 'f', 'results', '0005.error.txt'), 'utf8')).toBe(
      'point 5 (workload.params.hops=2, workload.params.bytes=256) failed:\nsimulated failure for the test\n',
    );
    const rows = JSON.parse(readFileSync(join(dir, 'f', 'rows.json'), 'utf8'));
    expect(rows).toMatchObject({ finished: 7, failed: [5], missing: [] });
    const retry = counting();
    const o2 = await sweep(args('f'), { ...quiet, runPoint: retry.run });
    expect(o2).toMatchObject({ kept: 7, ran: 1, failed: [] });
    expect(existsSync(join(dir, 'f', 'results', '0005.error.txt'))).toBe(false);
  });

  it('refuses a different sweep in the same DIR, or a non-empty DIR without sweep.json, changing nothing', async () => {
    await sweep(args('d', { vary: [parseVary('workload.params.hops=1,2')] }), { ...quiet, runPoint: counting().run });
    const before = readFileSync(join(dir, 'd', 'sweep.json'), 'utf8');
    const r = counting();
    await expect(sweep(args('d', { vary: [parseVary('workload.params.hops=1,3')] }), { ...quiet, runPoint: r.run })).rejects.toThrow(
      /--out .*d holds a different sweep \(the values of workload.params.hops differ \(\[1,2\] there, \[1,3\] here\)\)/,
    );
    expect(r.calls).toHaveLength(0);
    expect(readFileSync(join(dir, 'd', 'sweep.json'), 'utf8')).toBe(before);
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'notes.txt'), 'mine');
    await expect(sweep(args('other'), { ...quiet, runPoint: r.run })).rejects.toThrow('is not empty and holds no sweep.json');
  });

  it('--merge merges what an array wrote and says what is missing', async () => {
    await sweep(args('m', { emit: 'slurm', manycore: 'manycore' }), quiet);
    expect(existsSync(join(dir, 'm', 'slurm.sbatch'))).toBe(true);
    // two "array tasks" finished: results as manycore run --out writes them
    for (const i of [0, 6]) {
      const exp = JSON.parse(readFileSync(join(dir, 'm', 'points', pointFile(i)), 'utf8')) as Experiment;
      writeFileSync(join(dir, 'm', 'results', pointFile(i)), JSON.stringify(new Simulation(exp, workloads).runInline(), null, 2) + '\n');
    }
    const logs: string[] = [];
    const o = await sweep({ command: 'sweep', vary: [], out: join(dir, 'm'), jobs: 1, quiet: true, merge: true }, { log: (t) => logs.push(t) });
    expect(o).toMatchObject({ kept: 2, missing: 6 });
    expect(logs.join('')).toContain('2 rows of 2/8 points (missing: 1, 2, 3, 4, 5, 7)');
    const rows = JSON.parse(readFileSync(join(dir, 'm', 'rows.json'), 'utf8'));
    expect(rows.rows.filter((r: Record<string, unknown>) => r.status === 'ok').map((r: Record<string, unknown>) => [r.point, r.hops, r.bytes])).toEqual([
      [0, 0, 32],
      [6, 3, 32],
    ]);
  });
});
