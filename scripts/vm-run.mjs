// Runs one `vm` experiment (issue 15, the Smalltalk VM on the TILE64) inline on one thread and
// prints its row, the wall and CPU time and the simulated bytecodes per CPU second: for the
// Must-show ratios (1, 2 and 56 cores, each switch) and the Speed target, which are too long
// or too host-dependent for the unit suite. Bundles the packages with esbuild into a private
// temporary directory (not the shared packages/cli/dist), so it needs no lock.
// Usage: node scripts/vm-run.mjs benchmark=compiler cores=2 [replication=none] [clockCall=false] [--extra] [preset=tile64]
import { loadPackages } from './load-packages.mjs';

const { Simulation, workloads } = await loadPackages('vm-run');

const params = {};
let preset = 'tile64';
let showExtra = false;
for (const a of process.argv.slice(2)) {
  if (a === '--extra') {
    showExtra = true;
    continue;
  }
  const [k, v] = a.split('=');
  if (k === 'preset') preset = v;
  else params[k] = v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v;
}
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const r = new Simulation({ version: 1, chip: { preset }, workload: { name: 'vm', params }, seed: 1 }, workloads).runInline();
const wallS = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const cpuS = (cpu.user + cpu.system) / 1e6; // CPU time: wall time on a shared machine overstates
const row = r.workload.rows[0];
console.log(
  JSON.stringify(
    { params, wallS: +wallS.toFixed(2), cpuS: +cpuS.toFixed(2), bytecodesPerCpuS: Math.round(row.bytecodes / cpuS), digest: r.digest, row, ...(showExtra ? { vm: r.workload.vm } : {}) },
    null,
    1,
  ),
);
