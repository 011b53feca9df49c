/**
 * Parameters a chip cannot satisfy are errors naming the parameter, its value, the limit and
 * why (never clamped to the chip), with the words for beside the field in ExperimentError.fields.
 */
import { describe, expect, it } from 'vitest';
import { ExperimentError, prepareRun } from '@manycore/engine';
import { workloads } from './index';

const exp = (name: string, params: Record<string, unknown>, preset = 'scc', overrides: Record<string, unknown> = {}) => ({
  chip: { preset, overrides },
  workload: { name, params },
});

/** The ExperimentError of preparing the experiment (fails the test when it prepares). */
function problem(name: string, params: Record<string, unknown>, preset = 'scc', overrides: Record<string, unknown> = {}): ExperimentError {
  try {
    prepareRun(exp(name, params, preset, overrides), workloads);
  } catch (err) {
    if (err instanceof ExperimentError) return err;
    throw err;
  }
  throw new Error(`${name} ${JSON.stringify(params)} prepared without an error`);
}

describe('parameters the chip cannot satisfy', () => {
  it.each([
    ['l1-stream', { cores: 1024 }, 'cores', 'cores=1024 but this chip has 48 cores', 'at most 48: this chip has 48 cores'],
    ['concordance', { cores: 100 }, 'cores', 'cores=100 but this chip has 48 cores', 'at most 48: this chip has 48 cores'],
    ['mpi-sweep', { processes: 64 }, 'processes', 'processes=64 but this chip has 48 cores (one per process)', 'at most 48: this chip has 48 cores (one per process)'],
    ['rcce-bcast', { receivers: 48 }, 'receivers', 'receivers=48 but this chip has 48 cores and the root takes one', 'at most 47: this chip has 48 cores and the root takes one'],
    ['nbody-ring', { workers: 60 }, 'workers', 'workers=60 but this chip has 48 cores and the controller takes one', 'at most 47: this chip has 48 cores and the controller takes one'],
    ['pipeline', { stages: 49 }, 'stages', 'stages=49 but this chip has 48 cores (one per stage)', 'at most 48: this chip has 48 cores (one per stage)'],
    ['memtest', { controller: 9 }, 'controller', 'controller=9 but this chip has 4 memory controllers (0..3)', 'at most 3: this chip has 4 memory controllers (0..3)'],
    ['stale-read', { reader: 48 }, 'reader', 'reader=48 but this chip has 48 cores (0..47)', 'at most 47: this chip has 48 cores (0..47)'],
    ['dram-hops', { core: 50 }, 'core', 'core=50 but this chip has 48 cores (0..47)', 'at most 47: this chip has 48 cores (0..47)'],
    ['mpb-pingpong', { hops: 9 }, 'hops', 'hops=9 but no core is 9 hops from core 0 on this chip (the farthest is 8)', 'at most 8: no core is farther from core 0 on this chip'],
    ['rcce-pair', { benchmark: 'shift', hops: 8, pairs: 5 }, 'pairs', 'only 4 disjoint pairs are 8 hops apart on this chip (asked for 5)', 'at most 4: only 4 disjoint pairs are 8 hops apart on this chip'],
  ])('%s %j', (name, params, param, message, beside) => {
    const e = problem(name, params);
    expect(e.message).toBe(`workload.params (${name}): ${message}`);
    expect(e.fields).toEqual({ [`workload.params.${param}`]: beside });
  });

  it('the improved RCKMPI channel has 48 sections: more processes is an error before the run, not a failed run', () => {
    const e = problem('mpi-sweep', { processes: 64, channel: 'improved' }, 'mesh');
    expect(e.message).toBe('workload.params (mpi-sweep): processes=64 but the improved channel has 48 base sections (one per process)');
    expect(e.fields).toEqual({ 'workload.params.processes': 'at most 48: the improved channel has 48 base sections (one per process)' });
    // the original channel takes them (sections of 96 B)
    expect(prepareRun(exp('mpi-sweep', { processes: 64, channel: 'original' }, 'mesh'), workloads).settings.participants).toHaveLength(64);
  });

  it('a chip RCCE cannot run on is named before the run (not a run that fails), for every RCCE workload', () => {
    for (const name of ['concordance', 'rcce-bcast', 'nbody-ring', 'pipeline', 'rcce-pair']) {
      const e = problem(name, {}, 'mesh', { mesh: { width: 16, height: 8 } });
      expect(e.message).toBe(`workload.params (${name}): RCCE keeps its flags in one 32 B line: it runs on chips of at most 64 cores, and this chip has 256`);
      expect(e.fields).toEqual({});
    }
    expect(problem('socket-pingpong', { transport: 'rcce' }, 'mesh', { mesh: { width: 16, height: 8 } }).message).toMatch(/at most 64 cores, and this chip has 256$/);
    // the socket transport does not use RCCE: it prepares on the big mesh
    expect(prepareRun(exp('socket-pingpong', { transport: 'socket' }, 'mesh', { mesh: { width: 16, height: 8 } }), workloads).settings.participants).toHaveLength(2);
    // a 64-core mesh is fine
    expect(prepareRun(exp('concordance', {}, 'mesh', { mesh: { width: 8, height: 4 } }), workloads).settings.participants).toHaveLength(4);
  });

  it('schema problems are plain words with units, by field', () => {
    const e = problem('l1-stream', { cores: 0, bufferBytes: 1.5, strideBytes: 8192 });
    expect(e.message.split('\n')).toEqual([
      'workload.params (l1-stream).cores: at least 1 core',
      'workload.params (l1-stream).bufferBytes: a whole number',
      'workload.params (l1-stream).strideBytes: at most 4 KB',
    ]);
    expect(e.fields).toEqual({ 'workload.params.cores': 'at least 1 core', 'workload.params.bufferBytes': 'a whole number', 'workload.params.strideBytes': 'at most 4 KB' });
    expect(problem('mpi-sweep', { channel: 'fast' }).fields).toEqual({ 'workload.params.channel': 'one of: original, improved' });
  });

  it('values the chip can satisfy stay exactly as given (no clamping either way)', () => {
    expect(prepareRun(exp('l1-stream', { cores: 48 }), workloads).settings.participants).toHaveLength(48);
    expect(prepareRun(exp('l1-stream', { cores: 48 }, 'mesh', { mesh: { width: 16, height: 8 } }), workloads).settings.participants).toHaveLength(48);
    expect(prepareRun(exp('rcce-bcast', { receivers: 47 }), workloads).settings.participants).toHaveLength(48);
  });

  it('the workloads that count cores say which parameter does', () => {
    const counted = Object.values(workloads)
      .filter((w) => w.coresParam)
      .map((w) => [w.name, w.coresParam!.name, w.coresParam!.extraCores ?? 0]);
    expect(counted).toEqual(
      expect.arrayContaining([
        ['l1-stream', 'cores', 0],
        ['concordance', 'cores', 0],
        ['mpi-sweep', 'processes', 0],
        ['rcce-bcast', 'receivers', 1],
        ['nbody-ring', 'workers', 1],
      ]),
    );
    for (const [name, param] of counted) expect(Object.keys((workloads[name as string]!.params as unknown as { shape: object }).shape)).toContain(param);
  });
});
