import { describe, expect, it } from 'vitest';
import { parseArgs, parseValue } from './args';
import { formatSummary, progressLine } from './summary';
import { EXPERIMENT_VERSION, Simulation } from '@manycore/engine';
import { workloads } from '@manycore/workloads';

describe('manycore arguments', () => {
  it('builds an experiment from flags', () => {
    const a = parseArgs(['run', '--workload', 'memtest', '--param', 'controller=2', '--param', 'label=x=y', '--chip', 'caches.l1d.sizeBytes=8192', '--chip', 'clocks.divisor=2', '--seed', '7', '--quantum-ns', '500', '--cores-per-worker', '8']);
    expect(a).toMatchObject({
      command: 'run',
      coresPerWorker: 8,
      experiment: {
        version: EXPERIMENT_VERSION,
        chip: { preset: 'scc', overrides: { caches: { l1d: { sizeBytes: 8192 } }, clocks: { divisor: 2 } } },
        workload: { name: 'memtest', params: { controller: 2, label: 'x=y' } },
        seed: 7,
        quantumNs: 500,
      },
    });
  });

  it('fits the worker layout to the host unless told: --cores-per-worker auto is the default', () => {
    expect(parseArgs(['run', '--workload', 'memtest'])).toMatchObject({ coresPerWorker: 'auto' });
    expect(parseArgs(['run', '--workload', 'memtest', '--cores-per-worker', 'auto'])).toMatchObject({ coresPerWorker: 'auto' });
    expect(parseArgs(['run', '--workload', 'memtest', '--cores-per-worker', '1'])).toMatchObject({ coresPerWorker: 1 });
  });

  it('takes the mesh preset and log capacities', () => {
    const a = parseArgs(['run', '--preset', 'mesh', '--chip', 'mesh.width=32', '--chip', 'mesh.height=16', '--workload', 'l1-stream', '--wlog-cap', '8192', '--txn-cap', '2048']);
    expect(a).toMatchObject({ layout: { wlogCap: 8192, txnCap: 2048 }, experiment: { chip: { preset: 'mesh', overrides: { mesh: { width: 32, height: 16 } } } } });
    expect(parseArgs(['run', '--workload', 'memtest'])).toMatchObject({ layout: {} });
    expect(() => parseArgs(['run', '--workload', 'memtest', '--wlog-cap', '8'])).toThrow(/--wlog-cap 8: must be at least 16/);
  });

  it('parses values as JSON when they are JSON', () => {
    expect(parseValue('3')).toBe(3);
    expect(parseValue('true')).toBe(true);
    expect(parseValue('[1,2]')).toEqual([1, 2]);
    expect(parseValue('improved')).toBe('improved');
  });

  it('names the bad flag', () => {
    expect(() => parseArgs(['run'])).toThrow(/--workload is required/);
    expect(() => parseArgs(['run', '--workload'])).toThrow(/--workload needs a name/);
    expect(() => parseArgs(['run', '--workload', 'm', '--param', 'novalue'])).toThrow(/--param novalue: expected key=value/);
    expect(() => parseArgs(['run', '--workload', 'm', '--cores-per-worker', '0'])).toThrow(/--cores-per-worker 0: must be at least 1/);
    expect(() => parseArgs(['run', '--workload', 'm', '--cores-per-worker', '1.5'])).toThrow(/expected a whole number/);
    expect(() => parseArgs(['run', '--workload', 'm', '--cores-per-worker', 'many'])).toThrow(/--cores-per-worker many: expected a whole number or auto/);
    expect(() => parseArgs(['run', '--workload', 'm', '--chip', '__proto__.x=1'])).toThrow(/bad path/);
    expect(() => parseArgs(['run', '--experiment', 'f.json', '--seed', '3'])).toThrow(/cannot be combined/);
    expect(() => parseArgs(['fly'])).toThrow(/unknown command "fly"/);
  });
});

describe('summary', () => {
  it('shows the digest, times, power and the rows', () => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'memtest', params: { accesses: 4 } } }, workloads).runInline();
    const text = formatSummary(r, 'out.json');
    expect(text).toContain(`digest            ${r.digest}`);
    expect(text).toMatch(/chip power +3\d\.\d\d W average/);
    expect(text).toMatch(/hops +op +latencyNs +formulaNs/);
    expect(text).toContain('Results written to out.json');
    // more rows than the summary shows: where to find them, only where they were written
    const many = { ...r, workload: { ...r.workload, rows: Array.from({ length: 18 }, () => r.workload.rows[0]!) } };
    expect(formatSummary(many, 'out.json')).toContain('  ... 2 more rows in out.json\n');
    expect(formatSummary(many)).toContain('  ... 2 more rows (write them all with --out FILE or --json)\n');
    const one = { ...r, workload: { ...r.workload, rows: Array.from({ length: 17 }, () => r.workload.rows[0]!) } };
    expect(formatSummary(one)).toContain('  ... 1 more row (write');
    const line = progressLine({ status: 'running', simTimePs: 2_500_000, epoch: 3, finishedCores: 12, participants: 48, simOps: 1e6, wallMs: 0 }, Infinity, 1000);
    expect(line).toBe('[######------------------] running | simulated 2.50 us | 12/48 cores done | epoch 3 | 1.00 M ops/s');
    const sweep = (epoch: number) => progressLine({ status: 'running', simTimePs: 0, epoch, finishedCores: 0, participants: 48, simOps: 0, wallMs: 0 }, Infinity, 1000).slice(0, 26);
    expect(sweep(0)).toBe('[####--------------------]');
    expect(sweep(80)).toBe('[----------####----------]');
    expect(sweep(8 * 25)).toBe('[---------------####-----]');
    expect(progressLine({ status: 'running', simTimePs: 5e6, epoch: 3, finishedCores: 0, participants: 2, simOps: 0, wallMs: 0 }, 10e6, 1000).slice(0, 26)).toBe('[############------------]');
  });
});

describe('fidelity arguments', () => {
  it('defaults to the whole report in docs/fidelity.md', () => {
    expect(parseArgs(['fidelity'])).toEqual({ command: 'fidelity', out: 'docs/fidelity.md', only: [], list: false, coresPerWorker: 'auto', jobs: 'auto', quiet: false });
  });
  it('takes --out, repeated or comma-separated --only, --list and --cores-per-worker', () => {
    expect(parseArgs(['fidelity', '--out', 'r.md', '--only', 'a,b', '--only', 'c', '--list', '--cores-per-worker', '4', '--jobs', '2', '--quiet'])).toEqual({
      command: 'fidelity',
      out: 'r.md',
      only: ['a', 'b', 'c'],
      list: true,
      coresPerWorker: 4,
      jobs: 2,
      quiet: true,
    });
  });
  it('names the problem with a bad flag', () => {
    expect(() => parseArgs(['fidelity', '--only'])).toThrow('--only needs a value');
    expect(() => parseArgs(['fidelity', '--cores-per-worker', 'x'])).toThrow('--cores-per-worker x: not a number');
    expect(() => parseArgs(['fidelity', '--param', 'a=1'])).toThrow('fidelity: unknown option --param');
    expect(() => parseArgs(['fidelity', '--jobs', '0'])).toThrow('--jobs 0: must be at least 1');
    expect(() => parseArgs(['frobnicate'])).toThrow('expected run, list, fidelity, guided or sweep');
  });
});
