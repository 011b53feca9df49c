import { describe, expect, it } from 'vitest';
import { defaultExperiment, ExperimentError, type HostAdapter } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { applyVariant } from '../lib/chip-variants';
import { LiveRun } from './live-run';
import { PairRun } from './pair-run';
import { MAX_WEB_WORKERS, minCoresPerWorker, workerLimitProblem } from './worker-limit';

/** A host that records every worker start (a refused layout must start none). */
function countingHost(): { host: () => HostAdapter; started: () => number } {
  let started = 0;
  return {
    started: () => started,
    host: () => ({
      name: 'counting',
      wallMs: () => 0,
      terminateAll: () => {},
      startWorker: () => {
        started++;
        return new Promise(() => {});
      },
    }),
  };
}

/** l1-stream on 4 cores of the 1024-core mesh (the web's mesh-32x16 variant). */
const mesh1024 = () => ({ ...defaultExperiment('l1-stream', { cores: 4, loads: 10 }), chip: applyVariant({ preset: 'scc', overrides: {} }, 'mesh-32x16') });

describe('the Web Worker limit (worker-limit.ts)', () => {
  it('lets a layout within the limit through and names the setting and the least value that fits beyond it', () => {
    expect(MAX_WEB_WORKERS).toBe(512);
    expect(workerLimitProblem({ workers: 512, coresPerWorker: 2, cores: 1024 })).toBeNull();
    expect(workerLimitProblem({ workers: 48, coresPerWorker: 1, cores: 48 })).toBeNull();
    expect(workerLimitProblem({ workers: 1024, coresPerWorker: 1, cores: 1024 })).toBe(
      'this layout needs 1024 Web Workers (one per core, 1024 cores), more than the 512 the lab starts for a run: a browser page starting 1024 workers stopped answering. Set "Simulated cores per Web Worker" (Run settings) to 2 or more, or to auto, and run again.',
    );
    expect(minCoresPerWorker(1024)).toBe(2);
    expect(minCoresPerWorker(1000)).toBe(2);
    expect(minCoresPerWorker(48)).toBe(1);
    // a comparison's side gets half the page's workers
    expect(workerLimitProblem({ workers: 512, coresPerWorker: 2, cores: 1024 }, 256)).toMatch(/^this layout needs 512 Web Workers \(2 cores each, 1024 cores\), more than the 256 the lab starts for a run \(512 per page, shared by the runs of a comparison\): .* to 4 or more, or to auto/);
  });

  it('LiveRun refuses the 1024-core mesh with one worker per core before starting any worker; 2 cores per worker and auto are accepted', () => {
    const h = countingHost();
    const opts = { host: h.host, registry: workloads, pacing: null, fallback: false } as const;
    expect(() => new LiveRun(mesh1024(), { ...opts, coresPerWorker: 1 })).toThrow(ExperimentError);
    expect(() => new LiveRun(mesh1024(), { ...opts, coresPerWorker: 1 })).toThrow(/needs 1024 Web Workers .* to 2 or more, or to auto/);
    expect(h.started()).toBe(0);
    const two = new LiveRun(mesh1024(), { ...opts, coresPerWorker: 2 });
    expect([two.workers, two.sim.coresPerWorker]).toEqual([512, 2]);
    two.dispose();
    const auto = new LiveRun(mesh1024(), { ...opts, coresPerWorker: 'auto', hostCpus: 2 });
    expect(auto.workers).toBe(2);
    auto.dispose();
    // the fallback runs every core in one worker: no limit applies
    const fb = new LiveRun(mesh1024(), { ...opts, coresPerWorker: 1, fallback: true, fallbackHost: h.host as never });
    fb.dispose();
    expect(h.started()).toBe(0);
  });

  it('a comparison gives each side half the page\'s workers, naming the side', () => {
    const h = countingHost();
    expect(() => new PairRun({ A: mesh1024(), B: mesh1024() }, { coresPerWorker: 2, hostCpus: 2, host: h.host, registry: workloads, pacing: null })).toThrow(/^A: this layout needs 512 Web Workers .* more than the 256 the lab starts for a run/);
    expect(h.started()).toBe(0);
  });
});
