/**
 * What the CLI's commands share: writing an output file atomically (a finished file or none)
 * and running one experiment on worker threads for the commands that run many of them.
 */
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { Simulation, type ExperimentInput } from '@manycore/engine';
import { workloads, type RunOutput } from '@manycore/workloads';
import { nodeHost } from '@manycore/workers/node-host';
import { UsageError } from './args';

/** Writes `text` to `file` through a temporary file and a rename (creating the folder); a failure is a UsageError naming the file. */
export function writeAtomically(file: string, text: string, flag = '--out'): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* nothing to clean */
    }
    throw new UsageError(`${flag} ${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** A runner of one experiment on worker threads (the CLI's bundled worker), for commands that run many. */
export function workerRunner(coresPerWorker: number | 'auto', hostCpus: number = availableParallelism()): (experiment: ExperimentInput) => Promise<RunOutput> {
  const workerUrl = new URL('./worker.mjs', import.meta.url);
  return async (experiment) => {
    const t0 = performance.now();
    const sim = new Simulation(experiment, workloads, { coresPerWorker, hostCpus });
    const results = await sim.start(nodeHost(workerUrl));
    return { experiment, rows: results.workload.rows, digest: results.digest, wallMs: performance.now() - t0 };
  };
}
