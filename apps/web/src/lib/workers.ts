/**
 * How a run is spread over Web Workers: the lab's "cores per worker" setting. 'auto' (the
 * default) fits the layout to the host: one worker per simulated core while the host has a
 * CPU for each, else several cores per worker, about one worker per CPU (the engine's
 * fitCoresPerWorker). A number is a fixed layout; 1 is one worker per core. Results do not
 * depend on the layout, only speed does.
 */
import { fitCoresPerWorker } from '@manycore/engine';

export type CoresPerWorker = number | 'auto';

/**
 * More worker threads than this get a warning: headless Chromium's page crashed starting 1024
 * workers (one per core of a 1024-core mesh) on a 2-CPU machine; 256 ran.
 */
export const MANY_WORKERS = 256;

/** The fixed layouts the editor offers besides 'auto'. */
export const CORES_PER_WORKER_CHOICES = [1, 2, 4, 8, 16, 32, 48, 64, 128, 256];

/** CPUs of this host as the browser reports them (at least 1). */
export function hostCpus(): number {
  const n = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0;
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Cores per worker of a run of `cores` cores with this setting on a host of `cpus` CPUs. */
export function effectiveCoresPerWorker(setting: CoresPerWorker, cores: number, cpus: number): number {
  const cpw = setting === 'auto' ? fitCoresPerWorker(Math.max(1, cores), cpus) : setting;
  return Math.max(1, Math.min(cpw, Math.max(1, cores)));
}

/** Workers and cores per worker for `cores` cores (the layout the engine makes of them). */
export function workerLayout(setting: CoresPerWorker, cores: number, cpus: number): { workers: number; coresPerWorker: number } {
  const coresPerWorker = effectiveCoresPerWorker(setting, cores, cpus);
  return { workers: Math.ceil(Math.max(1, cores) / coresPerWorker), coresPerWorker };
}

/** The setting from a URL's `cpw` parameter ("auto" or 1..1024); 'auto' when absent or invalid. */
export function parseCoresPerWorker(q: string | null): CoresPerWorker {
  if (q === null || q === '' || q === 'auto') return 'auto';
  const n = Number(q);
  return Number.isInteger(n) && n >= 1 && n <= 1024 ? n : 'auto';
}

/** A short description of the layout ("2 workers × 24 cores", "48 workers, one per core"). */
export function describeLayout(setting: CoresPerWorker, cores: number, cpus: number): string {
  const { workers, coresPerWorker } = workerLayout(setting, cores, cpus);
  const what = coresPerWorker === 1 ? `${workers} worker${workers === 1 ? '' : 's'}, one per core` : `${workers} worker${workers === 1 ? '' : 's'} × ${coresPerWorker} cores`;
  return setting === 'auto' ? `${what} (auto, ${cpus} CPU${cpus === 1 ? '' : 's'})` : what;
}
