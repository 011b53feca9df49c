// The built CLI (packages/cli/dist, `npm run build:node`) end to end: a sweep interrupted with
// SIGINT and resumed merges to the same rows as an uninterrupted one, and the emitted Slurm
// script, run task by task as Slurm would (SLURM_ARRAY_TASK_ID), leaves work that the same
// sweep command only merges. (A real single-node Slurm: scripts/test-cluster.sh.)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/manycore.mjs', import.meta.url));
let dir: string;
let base: string;
const sweepArgs = (out: string) => [cli, 'sweep', '--experiment', base, '--vary', 'workload.params.hops=0,2', '--vary', 'workload.params.bytes=32,4096', '--out', join(dir, out), '--jobs', '1'];
const read = (out: string, f: string) => readFileSync(join(dir, out, f), 'utf8');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'manycore-sweep-cli-'));
  base = join(dir, 'base.json');
  writeFileSync(base, JSON.stringify({ chip: { preset: 'scc' }, workload: { name: 'mpb-pingpong', params: { iterations: 8 } } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('manycore sweep (built CLI)', () => {
  it('is interrupted by SIGINT, resumes, and merges the same rows as an uninterrupted sweep', async () => {
    expect(existsSync(cli), `${cli} is missing: run npm run build:node first`).toBe(true);
    execFileSync(process.execPath, sweepArgs('whole'), { stdio: 'pipe' });
    const whole = JSON.parse(read('whole', 'rows.json'));
    expect(whole).toMatchObject({ points: 4, finished: 4, missing: [], failed: [] });

    const child = spawn(process.execPath, sweepArgs('part'), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    // interrupt once a point is finished
    for (let t = 0; t < 600 && !existsSync(join(dir, 'part', 'results', '0000.json')); t++) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    expect(stderr).toMatch(/sweep interrupted: [1-3] of 4 points finished and kept in .*results \(points in flight were abandoned\); run the same command again to resume/);
    expect(existsSync(join(dir, 'part', 'rows.json'))).toBe(false);
    const finished = Number(/interrupted: (\d) of 4/.exec(stderr)![1]);

    const resumed = spawnSync(process.execPath, sweepArgs('part'), { encoding: 'utf8' });
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain(`resuming in ${join(dir, 'part')}: ${finished} finished point${finished === 1 ? '' : 's'} kept, ${4 - finished} to run`);
    expect(read('part', 'rows.json')).toBe(read('whole', 'rows.json'));
    expect(read('part', 'rows.csv')).toBe(read('whole', 'rows.csv'));
  });

  it('emits a Slurm array whose tasks write what the same sweep then only merges', () => {
    const emit = spawnSync(process.execPath, [...sweepArgs('slurm'), '--emit', 'slurm'], { encoding: 'utf8' });
    expect(emit.status).toBe(0);
    const script = join(dir, 'slurm', 'slurm.sbatch');
    expect(readFileSync(script, 'utf8')).toContain('#SBATCH --array=0-3');
    for (let i = 0; i < 4; i++) {
      const task = spawnSync('bash', [script], { encoding: 'utf8', env: { ...process.env, SLURM_ARRAY_TASK_ID: String(i) } });
      expect(task.status, task.stderr).toBe(0);
    }
    const merge = spawnSync(process.execPath, sweepArgs('slurm'), { encoding: 'utf8' });
    expect(merge.status).toBe(0);
    expect(merge.stderr).toContain('4 finished points kept, 0 to run');
    expect(read('slurm', 'rows.json')).toBe(read('whole', 'rows.json'));
    // a bad point fails before anything is written, exit 2
    const bad = spawnSync(process.execPath, [cli, 'sweep', '--experiment', base, '--vary', 'workload.params.hops=1,99', '--out', join(dir, 'bad')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('point 1 (workload.params.hops=99): workload.params (mpb-pingpong): hops=99');
    expect(existsSync(join(dir, 'bad'))).toBe(false);
  });
});
