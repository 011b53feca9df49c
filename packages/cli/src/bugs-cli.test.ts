// The built CLI (packages/cli/dist, `npm run build:node`) with protocol bugs on: a deadlock
// exits 1 with a message that says deadlock and names the wait-for cycle; a bug that does not
// stop the run prints "protocol bug on: ..." in the summary and marks the results JSON.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/manycore.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, 'run', '--inline', ...args], { encoding: 'utf8' });

describe('manycore run with a protocol bug (built CLI)', () => {
  it('a deadlock exits 1 naming the wait-for cycle', () => {
    expect(existsSync(cli), `${cli} is missing: run npm run build:node first`).toBe(true);
    const r = run('--workload', 'rcce-pair', '--param', 'benchmark=shift', '--param', 'rounds=2', '--param', 'bug=deadlock');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "manycore: simulation failed: deadlock: wait-for cycle core 0 -> core 2 -> core 0 (core 0 waits for core 2's ready flag; core 2 waits for core 0's ready flag)",
    );
  });

  it('the LOCK-prefix counter runs to the end, says the bug is on and counts lost updates', () => {
    const r = run('--workload', 'shared-counter', '--param', 'cores=4', '--param', 'increments=20', '--param', 'bug=lock-prefix');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/protocol bug on: shared-counter bug=lock-prefix: Increments use the x86 LOCK prefix/);
    const json = spawnSync(process.execPath, [cli, 'run', '--inline', '--json', '--workload', 'shared-counter', '--param', 'cores=4', '--param', 'increments=20', '--param', 'bug=lock-prefix'], { encoding: 'utf8' });
    const results = JSON.parse(json.stdout);
    expect(results.protocolBug).toMatchObject({ workload: 'shared-counter', bug: 'lock-prefix' });
    expect(results.workload.rows[0].lostUpdates).toBeGreaterThan(0);
    expect(results.workload.rows[0].expected).toBe(80);
  });

  it('a bug the workload does not have is a usage error (exit 2) listing the values', () => {
    const r = run('--workload', 'rcce-pair', '--param', 'bug=lock-prefix');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bug/);
    expect(r.stderr).toMatch(/deadlock/);
  });
});
