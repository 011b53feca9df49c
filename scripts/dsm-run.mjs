// Runs one `dsm` experiment inline (one thread) and prints its row and the wall time: for the
// Must-show numbers (SOR on 32 processors at paper-sm beside paper 004 Table 4) and the Speed
// targets, which are too long for the unit suite. Bundles the workloads with esbuild into a
// private temporary directory (not the shared packages/cli/dist), so it needs no lock.
// Usage: node scripts/dsm-run.mjs app=sor processors=32 size=paper-sm [runtime=page] [key=value ...] [--extra]
// (--extra also prints results.workload.dsm: the interval timeline, the write-notice matrix, messages by type.)
// (DSM_WORKLOAD=dsm-fetch runs the diff-fetch measurement instead.) Prints peakRssMB, the process's peak resident memory.
import { loadPackages } from './load-packages.mjs';

const { Simulation, workloads } = await loadPackages('dsm-run');
const workloadName = process.env.DSM_WORKLOAD ?? "dsm";

const params = {};
let preset = 'cluster-1999';
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
const r = new Simulation({ version: 1, chip: { preset }, workload: { name: workloadName, params }, seed: 1 }, workloads).runInline();
const wallS = (performance.now() - t0) / 1000;
const cpuS = (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1e6; // CPU time: wall time on a shared machine overstates
const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024); // host memory high-water mark (the runtimes drop consumed intervals at barriers)
console.log(JSON.stringify({ params, wallS: Math.round(wallS * 10) / 10, cpuS: Math.round(cpuS * 10) / 10, peakRssMB, digest: r.digest, rows: r.workload.rows, ...(showExtra ? { dsm: r.workload.dsm } : {}) }, null, 1));
