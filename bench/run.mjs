// npm run bench: simulated memory operations and core-cycles per wall second for a 48-core
// SCC run with L1-resident and DRAM-bound loads, on 1 and 2 host CPUs (taskset), with one
// worker per simulated core (the default) and with 24 cores per worker (2 workers).
// Then a 1024-core mesh (--preset mesh, 32 x 16 SCC tiles) with L1-resident loads, packed (the
// CLI's default layout: one worker per CPU) on 2 CPUs: simulated ops/s and the child's peak
// host memory (resourceUsage().maxRSS, worker threads included).
// Then a 48-process mpi-sweep over every size for two collectives (wall time, with the CLI's
// default layout fitted to the host and with one worker per core).
// Writes bench/results/latest.json and prints a table. Not a test: numbers depend on the host.
// Then the Smalltalk VM on the TILE64 (bytecodes per wall second on one CPU).
// Flags: --quick (shorter runs), --no-mpi, --no-mesh, --no-vm, --mesh-only (just the 1024-core run).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages/cli/dist/manycore.mjs');
const quick = process.argv.includes('--quick');
const meshOnly = process.argv.includes('--mesh-only');

const loads = {
  'L1-resident': ['--param', 'bufferBytes=8192', '--param', `loads=${quick ? 200_000 : 1_000_000}`],
  'DRAM-bound': ['--param', 'bufferBytes=4194304', '--param', 'strideBytes=32', '--param', `loads=${quick ? 5_000 : 80_000}`],
};
const layouts = { '1 core/worker (48 workers)': '1', '24 cores/worker (2 workers)': '24' };

function run(args, cpusList) {
  const out = execFileSync('taskset', ['-c', cpusList, process.execPath, cli, 'run', '--workload', 'l1-stream', ...args, '--json', '--quiet'], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  const r = JSON.parse(out);
  return { digest: r.digest, wallMs: r.host.wallMs, opsPerSec: r.host.simOpsPerSec, cyclesPerSec: r.host.simCoreCyclesPerSec, epochs: r.simulated.epochs };
}

const rows = [];
for (const [load, args] of Object.entries(meshOnly ? {} : loads)) {
  for (const [layout, cpw] of Object.entries(layouts)) {
    const best = {};
    for (const c of ['0', '0,1']) {
      // best of 2: the machine may be shared
      const a = run([...args, '--cores-per-worker', cpw], c);
      const b = run([...args, '--cores-per-worker', cpw], c);
      if (a.digest !== b.digest) throw new Error(`digest changed between runs: ${a.digest} ${b.digest}`);
      best[c] = a.wallMs <= b.wallMs ? a : b;
    }
    if (best['0'].digest !== best['0,1'].digest) throw new Error('digest differs between 1 and 2 CPUs');
    rows.push({
      load,
      layout,
      cpu1: { opsPerSec: best['0'].opsPerSec, cyclesPerSec: best['0'].cyclesPerSec, wallMs: best['0'].wallMs },
      cpu2: { opsPerSec: best['0,1'].opsPerSec, cyclesPerSec: best['0,1'].cyclesPerSec, wallMs: best['0,1'].wallMs },
      speedup: +(best['0'].wallMs / best['0,1'].wallMs).toFixed(2),
      epochs: best['0'].epochs,
      digest: best['0'].digest,
    });
  }
}
// a 1024-core mesh, L1-resident l1-stream, packed on 2 CPUs: ops/s and the child's peak RSS
// (target: >= 30 M simulated ops/s and under 1.5 GB)
const maxRssHook = join(root, 'bench/max-rss.cjs');
const mesh = [];
if (!process.argv.includes('--no-mesh')) {
  const meshArgs = ['--preset', 'mesh', '--chip', 'mesh.width=32', '--chip', 'mesh.height=16', '--workload', 'l1-stream', '--param', 'cores=1024', '--param', 'bufferBytes=8192', '--param', `loads=${quick ? 50_000 : 200_000}`];
  const runs = [];
  for (let i = 0; i < 2; i++) {
    const p = spawnSync('taskset', ['-c', '0,1', process.execPath, '--require', maxRssHook, cli, 'run', ...meshArgs, '--json', '--quiet'], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
    if (p.status !== 0) throw new Error(`1024-core mesh run failed: ${p.stderr}`);
    const r = JSON.parse(p.stdout);
    const kb = Number(/manycore-bench maxRSS (\d+)/.exec(p.stderr)?.[1]);
    runs.push({ digest: r.digest, wallMs: r.host.wallMs, opsPerSec: r.host.simOpsPerSec, workers: r.host.workers, coresPerWorker: r.host.coresPerWorker, epochs: r.simulated.epochs, maxRssMB: Math.round(kb / 1024) });
  }
  if (runs[0].digest !== runs[1].digest) throw new Error(`1024-core mesh: digest changed between runs: ${runs[0].digest} ${runs[1].digest}`);
  const best = runs[0].wallMs <= runs[1].wallMs ? runs[0] : runs[1];
  const peakMB = Math.max(runs[0].maxRssMB, runs[1].maxRssMB);
  mesh.push({ chip: 'mesh 32x16 (1024 cores)', load: 'L1-resident', cpus: 2, ...best, maxRssMB: peakMB, rssPerCoreKB: Math.round((peakMB * 1024) / 1024) /* 1024 cores */ });
}

// issue 4: a 48-process mpi-sweep over every size (1 B .. 64 KB) for one collective, with the
// CLI's default layout (auto: fitted to the host's CPUs) and with one worker thread per core
const mpi = [];
if (!process.argv.includes('--no-mpi') && !meshOnly)
  for (const [op, channel] of [['sendrecv', 'improved'], ['gather', 'original']])
    for (const layout of ['auto', '1']) {
      const t0 = Date.now();
      const out = execFileSync(
        process.execPath,
        [cli, 'run', '--workload', 'mpi-sweep', '--param', `op=${op}`, '--param', 'processes=48', '--param', `channel=${channel}`, '--cores-per-worker', layout, '--json', '--quiet'],
        { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
      );
      const r = JSON.parse(out);
      mpi.push({ op, channel, processes: 48, layout, sizes: r.workload.rows.length, wallS: +((Date.now() - t0) / 1000).toFixed(1), workers: r.host.workers, epochs: r.simulated.epochs, digest: r.digest });
    }
for (const op of new Set(mpi.map((x) => x.op)))
  if (new Set(mpi.filter((x) => x.op === op).map((x) => x.digest)).size !== 1) throw new Error(`mpi-sweep ${op}: the digest depends on the layout`);

// issue 15: the Smalltalk VM on the TILE64, on one host CPU with every simulated core on one
// worker thread (the TILE64's 64 cores on one worker): simulated bytecodes per wall second, overall at the larger size and marginal
// between two sizes (the run's fixed start-up, chip state and snapshot, cancels out).
// Target: at least 2 M bytecodes per second on one host core.
const vm = [];
if (!process.argv.includes('--no-vm') && !meshOnly)
  for (const [benchmark, cores, small, large] of [
    ['tiny-loop', 1, 2, quick ? 4 : 8],
    ['compiler', 2, 20, quick ? 60 : 120],
  ]) {
    const once = (size) => {
      const out = execFileSync(
        'taskset',
        ['-c', '0', process.execPath, cli, 'run', '--preset', 'tile64', '--workload', 'vm', '--param', `benchmark=${benchmark}`, '--param', `cores=${cores}`, '--param', `size=${size}`, '--cores-per-worker', '64', '--json', '--quiet'],
        { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
      );
      const r = JSON.parse(out);
      return { bytecodes: r.workload.rows[0].bytecodes, wallMs: r.host.wallMs, digest: r.digest };
    };
    const a = once(small);
    const b = once(large);
    vm.push({
      benchmark,
      cores,
      size: large,
      bytecodes: b.bytecodes,
      wallMs: Math.round(b.wallMs),
      bytecodesPerSec: Math.round(b.bytecodes / (b.wallMs / 1000)),
      marginalBytecodesPerSec: Math.round((b.bytecodes - a.bytecodes) / ((b.wallMs - a.wallMs) / 1000)),
      digest: b.digest,
    });
  }

const m = (n) => (n / 1e6).toFixed(2) + ' M';
console.log(`host: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}${quick ? ', quick' : ''}`);
if (rows.length) console.log('load         layout                        1 CPU ops/s  2 CPUs ops/s  2 CPUs core-cycles/s  speedup');
for (const r of rows)
  console.log(
    `${r.load.padEnd(12)} ${r.layout.padEnd(29)} ${m(r.cpu1.opsPerSec).padStart(11)}  ${m(r.cpu2.opsPerSec).padStart(12)}  ${m(r.cpu2.cyclesPerSec).padStart(20)}  ${String(r.speedup).padStart(6)}x`,
  );
for (const x of mesh)
  console.log(
    `${x.chip}, ${x.load}, ${x.cpus} CPUs, ${x.workers} x ${x.coresPerWorker} cores: ${m(x.opsPerSec)} ops/s, ${(x.wallMs / 1000).toFixed(2)} s wall, peak RSS ${x.maxRssMB} MB (${x.rssPerCoreKB} KB per core)`,
  );
for (const x of mpi)
  console.log(`mpi-sweep ${x.op} (${x.channel}), ${x.processes} processes, ${x.sizes} sizes, layout ${x.layout} (${x.workers} workers): ${x.wallS} s wall (process start included)`);
for (const x of vm)
  console.log(
    `vm ${x.benchmark}, ${x.cores} simulated core(s), 1 CPU, one worker: ${m(x.bytecodesPerSec)} bytecodes/s at size ${x.size} (${x.bytecodes} bytecodes, ${(x.wallMs / 1000).toFixed(2)} s), ${m(x.marginalBytecodesPerSec)} bytecodes/s marginal`,
  );
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, meshOnly ? 'bench/results/latest-mesh.json' : 'bench/results/latest.json'), JSON.stringify({ date: new Date().toISOString(), host: { cpus: cpus().length, node: process.version }, rows, mesh, mpi, vm }, null, 2));
