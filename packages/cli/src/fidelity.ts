/**
 * `manycore fidelity`: runs every reproduction of a paper's table or figure (the reproductions
 * of @manycore/workloads, in order, one simulation at a time on worker threads) and writes the
 * markdown report (docs/fidelity.md by default). Progress goes to stderr; the summary of each
 * reproduction is printed as it finishes. Unknown ids in --only are an error naming the known ones.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { renderReport, reproductions, runReproductions, summaryOf } from '@manycore/workloads';
import { UsageError, type FidelityArgs } from './args';
import { workerRunner, writeAtomically } from './io';

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function fidelity(args: FidelityArgs): Promise<void> {
  if (args.list) {
    for (const r of reproductions) process.stdout.write(`${r.id.padEnd(22)} ${String(r.experiments.length).padStart(3)} runs  ${r.title}\n`);
    return;
  }
  const unknown = args.only.filter((id) => !reproductions.some((r) => r.id === id));
  if (unknown.length) throw new UsageError(`fidelity --only: unknown reproduction ${unknown.join(', ')} (known: ${reproductions.map((r) => r.id).join(', ')})`);
  const list = args.only.length ? reproductions.filter((r) => args.only.includes(r.id)) : reproductions;
  const run = workerRunner(args.coresPerWorker);
  const t0 = performance.now();
  const tty = process.stderr.isTTY && !args.quiet;
  const results = await runReproductions(
    run,
    list,
    (done, total, what) => {
      const line = `[${done}/${total}] ${((performance.now() - t0) / 1000).toFixed(0)} s  ${what}`;
      if (tty) process.stderr.write('\r' + line.slice(0, (process.stderr.columns || 100) - 1) + '\x1b[K');
      else if (!args.quiet) process.stderr.write(line + '\n');
    },
    () => performance.now(),
    args.jobs === 'auto' ? availableParallelism() : args.jobs,
  );
  if (tty) process.stderr.write('\r\x1b[2K');
  for (const r of results) {
    const s = summaryOf(r);
    process.stdout.write(`${r.id.padEnd(22)} ${r.error ? `FAILED: ${r.error}` : `cells agreeing ${s.agree}/${s.cells}, checks passing ${s.pass}/${s.checks}`}  (${(r.wallMs / 1000).toFixed(1)} s)\n`);
  }
  const text = renderReport(results, {
    date: new Date().toISOString().slice(0, 10),
    host: `node ${process.version}, ${availableParallelism()} CPUs`,
    commit: gitCommit(),
  });
  writeAtomically(args.out, text);
  process.stdout.write(`wrote ${args.out} (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
}
