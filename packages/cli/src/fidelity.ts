/**
 * `manycore fidelity`: runs every reproduction of a paper's table or figure (the reproductions
 * of @manycore/workloads; each distinct experiment once, --jobs of them at once, heaviest first)
 * on worker threads and writes the markdown report (docs/fidelity.md by default). Each job gets
 * its share of the host's CPUs for its worker layout (--cores-per-worker auto): with as many jobs
 * as CPUs every run is one worker thread, so the runs use the CPUs side by side instead of
 * several runs' epoch barriers taking turns on them. Results do not depend on the layout or the
 * order. Progress goes to stderr; the summary of each reproduction is printed at the end, with
 * the report's wall and CPU time. Unknown ids in --only are an error naming the known ones.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { renderReport, reproductions, runReproductions, summaryOf } from '@manycore/workloads';
import { UsageError, type FidelityArgs } from './args';
import { workerRunner, writeAtomically } from './io';

/** The commit the report comes from, "+ uncommitted changes" when tracked files differ from it. */
function gitCommit(): string | undefined {
  const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    if (!head) return undefined;
    return git('status', '--porcelain', '--untracked-files=no') ? `${head} + uncommitted changes` : head;
  } catch {
    return undefined;
  }
}

/** CPU time of the process (every thread), ms. */
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

export async function fidelity(args: FidelityArgs): Promise<void> {
  if (args.list) {
    for (const r of reproductions) process.stdout.write(`${r.id.padEnd(22)} ${String(r.experiments.length).padStart(3)} runs  ${r.title}\n`);
    return;
  }
  const unknown = args.only.filter((id) => !reproductions.some((r) => r.id === id));
  if (unknown.length) throw new UsageError(`fidelity --only: unknown reproduction ${unknown.join(', ')} (known: ${reproductions.map((r) => r.id).join(', ')})`);
  const list = args.only.length ? reproductions.filter((r) => args.only.includes(r.id)) : reproductions;
  const cpus = availableParallelism();
  const jobs = args.jobs === 'auto' ? cpus : args.jobs;
  const run = workerRunner(args.coresPerWorker, Math.max(1, Math.floor(cpus / jobs)));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const tty = process.stderr.isTTY && !args.quiet;
  let runs = 0;
  const results = await runReproductions(run, list, {
    jobs,
    onRun: (done, total, what) => {
      runs = total;
      const line = `[${done}/${total}] ${((performance.now() - t0) / 1000).toFixed(0)} s  ${what}`;
      if (tty) process.stderr.write('\r' + line.slice(0, (process.stderr.columns || 100) - 1) + '\x1b[K');
      else if (!args.quiet) process.stderr.write(line + '\n');
    },
  });
  if (tty) process.stderr.write('\r\x1b[2K');
  for (const r of results) {
    const s = summaryOf(r);
    process.stdout.write(`${r.id.padEnd(22)} ${r.error ? `FAILED: ${r.error}` : `cells agreeing ${s.agree}/${s.cells}, checks passing ${s.pass}/${s.checks}`}  (${(r.wallMs / 1000).toFixed(1)} s)\n`);
  }
  const text = renderReport(results, {
    date: new Date().toISOString().slice(0, 10),
    host: `node ${process.version}, ${cpus} CPUs`,
    commit: gitCommit(),
    cost: { runs, jobs, wallMs: performance.now() - t0, cpuMs: cpuMs(process.cpuUsage(cpu0)) },
  });
  writeAtomically(args.out, text);
  process.stdout.write(`wrote ${args.out} (${((performance.now() - t0) / 1000).toFixed(0)} s wall, ${(cpuMs(process.cpuUsage(cpu0)) / 1000).toFixed(0)} s CPU)\n`);
}
