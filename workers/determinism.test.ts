/**
 * Determinism across hosts: the same experiment gives the same digest run after run, on one
 * or two host CPUs (taskset), with one worker per core or eight cores per worker, and inline.
 * Uses the bundled CLI and worker (npm test builds them first: npm run build:node).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { nodeHost } from './node-host';

const cli = fileURLToPath(new URL('../packages/cli/dist/manycore.mjs', import.meta.url));
const workerUrl = new URL('../packages/cli/dist/worker.mjs', import.meta.url);

function digest(args: string[], cpus?: string): string {
  const cmd = cpus ? 'taskset' : process.execPath;
  const argv = cpus ? ['-c', cpus, process.execPath, cli, ...args] : [cli, ...args];
  const out = execFileSync(cmd, [...argv, '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(out) as { digest: string }).digest;
}

beforeAll(() => {
  if (!existsSync(cli) || !existsSync(fileURLToPath(workerUrl))) throw new Error('run `npm run build:node` first (npm test does)');
});

describe('digest is bit-identical across host layouts', () => {
  for (const [name, params] of [
    ['memtest', ['--param', 'accesses=16']],
    ['l1-stream', ['--param', 'loads=20000', '--param', 'bufferBytes=65536']],
    ['mpb-pingpong', ['--param', 'hops=3', '--param', 'bytes=512']],
    // RCKMPI gather into a 384 KB receive buffer (larger than L2): locks, polling and about
    // 130 000 store misses, each a DRAM write of its own, from the root
    // TILE64: raw messages, remote homed loads whose home-L2 fills are committed as unit requests, DMA
    ['tile-messages', ['--preset', 'tile64']],
    ['mpi-sweep', ['--param', 'op=gather', '--param', 'processes=6', '--param', 'minBytes=65536', '--param', 'maxBytes=65536', '--param', 'iterations=1', '--param', 'warmup=0']],
  ] as const) {
    it(`${name}: twice, taskset -c 0 and -c 0,1, 1 and 8 cores per worker, inline`, () => {
      const base = ['run', '--workload', name, ...params];
      const d = [
        digest([...base, '--cores-per-worker', '1'], '0'),
        digest([...base, '--cores-per-worker', '1'], '0,1'),
        digest([...base, '--cores-per-worker', '8'], '0'),
        digest([...base, '--cores-per-worker', '8'], '0,1'),
        digest([...base, '--cores-per-worker', '8']),
        digest([...base, '--inline']),
      ];
      expect(new Set(d).size).toBe(1);
      expect(d[0]).toMatch(/^[0-9a-f]{16}$/);
      // and the digest does see simulated differences
      expect(digest([...base, '--seed', '2', '--quantum-ns', '500', '--inline'])).not.toBe(d[0]);
    }, 180_000);
  }
});

describe('digest is bit-identical across host layouts on a 1024-core mesh', () => {
  // l1-stream on every core of a 32 x 16 mesh of SCC tiles (the mesh preset derives islands,
  // 14 controllers, registers and LUTs): 1000 loads each, 125 cold misses per core through 14
  // controllers. One worker per core is left out here: 1024 worker isolates take about 17 MB
  // each (17.5 GB and more than 15 minutes on the 2-CPU VM before it was stopped), so packing
  // is the only way such a chip runs; 8 cores per worker is 128 workers (about 20 s, 3.3 GB).
  it('8 and 64 cores per worker, 2 workers, inline; taskset -c 0 and -c 0,1', () => {
    const base = ['run', '--preset', 'mesh', '--chip', 'mesh.width=32', '--chip', 'mesh.height=16', '--workload', 'l1-stream', '--param', 'cores=1024', '--param', 'loads=1000'];
    const d = [
      digest([...base, '--cores-per-worker', '64'], '0'),
      digest([...base, '--cores-per-worker', '64'], '0,1'),
      digest([...base, '--cores-per-worker', '8'], '0,1'),
      digest([...base, '--cores-per-worker', '512'], '0'),
      digest([...base, '--inline']),
    ];
    expect(new Set(d).size).toBe(1);
    expect(d[0]).toMatch(/^[0-9a-f]{16}$/);
  }, 120_000);
});

describe('live control through worker threads', () => {
  const exp = { version: 1, chip: { preset: 'scc' }, workload: { name: 'l1-stream', params: { loads: 400_000, cores: 16 } } };

  it('a divisor changed mid-run lands in the timeline; replaying it gives the same digest', async () => {
    const sim = new Simulation(exp, workloads, { coresPerWorker: 4 });
    const done = sim.start(nodeHost(workerUrl));
    while (sim.progress().simTimePs < 20_000_000 && sim.progress().status === 'running') await new Promise((r) => setTimeout(r, 5));
    sim.setIslandDivisor(1, 6);
    const live = await done;
    const events = sim.appliedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'island-divisor', island: 1, divisor: 6 });
    expect(live.simulated.islands[1]!.divisor).toBe(6);
    const replay = new Simulation({ ...exp, timeline: events }, workloads).runInline();
    expect(replay.digest).toBe(live.digest);
    const untouched = new Simulation(exp, workloads).runInline();
    expect(untouched.digest).not.toBe(live.digest);
  }, 120_000);

  it('pause holds the run at an epoch boundary, step advances exactly one epoch, resume finishes', async () => {
    const sim = new Simulation(exp, workloads, { coresPerWorker: 8 });
    sim.pause();
    const done = sim.start(nodeHost(workerUrl));
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 2000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
      expect(ok()).toBe(true);
    };
    await until(() => sim.progress().status === 'paused');
    const e0 = sim.progress().epoch;
    await new Promise((r) => setTimeout(r, 50));
    expect(sim.progress().epoch).toBe(e0);
    sim.step();
    await until(() => sim.progress().epoch === e0 + 1 && sim.progress().status === 'paused');
    sim.resume();
    const r = await done;
    expect(r.digest).toBe(new Simulation(exp, workloads).runInline().digest);
  }, 120_000);
});

describe('the CLI refuses bad input clearly and writes nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manycore-'));
  const run = (args: string[]) => {
    try {
      execFileSync(process.execPath, [cli, ...args], { encoding: 'utf8', stdio: 'pipe' });
      return { code: 0, err: '' };
    } catch (e) {
      const x = e as { status: number; stderr: string };
      return { code: x.status, err: x.stderr };
    }
  };
  const out = join(dir, 'r.json');
  it.each([
    [['run', '--preset', 'nope', '--workload', 'memtest', '--out', out], /chip\.preset: unknown preset "nope" \(known: scc, mesh, tile64, cluster-1999\)/],
    [['run', '--workload', 'memtest', '--chip', 'caches.l1d.sizeBytes=-16', '--out', out], /chip\.caches\.l1d\.sizeBytes: more than 0 bytes/],
    [['run', '--workload', 'stale-read', '--param', 'reader=48', '--out', out], /workload\.params \(stale-read\): reader=48 but this chip has 48 cores \(0\.\.47\)/],
    [['run', '--workload', 'memtest', '--param', 'accesses=-1', '--out', out], /workload\.params \(memtest\)\.accesses: at least 1 access/],
    [['run', '--workload', 'nosuch', '--out', out], /unknown workload "nosuch"/],
    [['run', '--workload', 'memtest', '--seed', 'x'], /--seed x: not a number/],
    [['run', '--workload', 'memtest', '--frobnicate'], /unknown option --frobnicate/],
    [['run', '--experiment', join(dir, 'missing.json')], /cannot read \(ENOENT\)/],
  ])('%j', (args, message) => {
    const r = run(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it('a malformed experiment file names the problem', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 1, "chip": {"preset": "scc"}, "workload": ');
    const r = run(['run', '--experiment', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.json: not valid JSON/);
    writeFileSync(bad, JSON.stringify({ version: 1, chip: { preset: 'scc' }, workload: { name: 'memtest' }, quantumNs: -5 }));
    expect(run(['run', '--experiment', bad]).err).toMatch(/experiment\.quantumNs: more than 0 ns/);
    expect(existsSync(out)).toBe(false);
  });

  it('an experiment file runs and --out gets the results', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ version: 1, chip: { preset: 'scc' }, workload: { name: 'memtest', params: { accesses: 4 } } }));
    const r = run(['run', '--experiment', good, '--out', out, '--cores-per-worker', '8']);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
  }, 60_000);
});
