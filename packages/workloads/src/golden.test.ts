/**
 * Golden digests with fixed seeds. A change here means simulated results changed: if the
 * change to the model is intended, update the values (and say so in the commit message);
 * if not, it is a regression (performance work must leave these alone). Every SCC workload is
 * here, so moving the SCC behind the chip-family seam (chips/scc/) was checked against all of them.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

const GOLDEN: [string, Record<string, unknown>, string][] = [
  ['memtest', {}, '61d3f91ae26271c9'],
  ['memtest', { controller: 2 }, '11e4988ef1e69421'],
  ['mpb-pingpong', {}, 'dc9f662206e5ac8e'],
  ['mpb-pingpong', { hops: 3, bytes: 256 }, 'c4b1a4aa14934e34'],
  ['l1-stream', {}, '2ec72124a569062d'],
  ['l1-stream', { bufferBytes: 1048576, loads: 20000 }, '2e9d182b2ec2fedd'],
  ['stale-read', {}, '0ff926e318d89923'],
  ['rcce-pair', {}, '1a0a200839fbf84b'],
  ['rcce-bcast', {}, '35271b826fbc146e'],
  ['dvfs-kernels', {}, '8a1e480838ab1e49'],
  ['socket-pingpong', {}, 'a0e6503da83ca67e'],
  ['pipeline', {}, 'fa5dd324d1833b41'],
  ['pipeline', { mode: 'uncached-shared' }, '02d190fb24e26fae'],
  ['pipeline', { mode: 'cached-shared' }, '1a541cdb6130ec26'],
  ['dram-hops', {}, '81669f9cf3c3b7ff'],
  ['nbody-ring', {}, 'fb4159f86745866b'],
  ['concordance', {}, 'e37584d7eaf39119'],
  ['mpi-sweep', { op: 'gather', sizes: '1,1024', channel: 'original' }, 'c183fa76adc9e743'],
  ['mpi-sweep', { sizes: '64,4096' }, '18ce8ec540a0e6d6'],
];

describe('golden digests (seed 1, default parameters)', () => {
  it.each(GOLDEN)('%s %o', (name, params, digest) => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name, params }, seed: 1 }, workloads).runInline();
    expect(r.digest).toBe(digest);
  });
});
