/**
 * Golden digests with fixed seeds. A change here means simulated results changed: if the
 * change to the model is intended, update the values (and say so in the commit message);
 * if not, it is a regression (performance work must leave these alone). Every SCC workload is
 * here, so moving the SCC behind the chip-family seam (chips/scc/) was checked against all of them.
 * Updated on purpose for issue 14 (every value): the DDR3 controller model (banks, open rows,
 * JEDEC timings) replaced the fixed 20 ns service, transaction records carry line addresses,
 * cores count instructions, and the pipeline and dram-hops workloads run the paper's code.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

const GOLDEN: [string, Record<string, unknown>, string][] = [
  ['memtest', {}, 'bff2b89343ff77bd'],
  ['memtest', { controller: 2 }, '4d6ed21b958804db'],
  ['mpb-pingpong', {}, 'c8ad21c054dc5a4d'],
  ['mpb-pingpong', { hops: 3, bytes: 256 }, '9bed29c6ac6efe42'],
  ['l1-stream', {}, 'b8ff366352579ca1'],
  ['l1-stream', { bufferBytes: 1048576, loads: 20000 }, 'a2e86f872b2541ac'],
  ['stale-read', {}, '5a6cf66bc8f25197'],
  ['rcce-pair', {}, '570bc6352b6c56b3'],
  ['rcce-bcast', {}, '8b5fde1893011fd5'],
  ['dvfs-kernels', {}, 'e681e8d0a3816977'],
  ['socket-pingpong', {}, '9cb65279aae44d32'],
  ['pipeline', {}, '172b3817953f943e'],
  ['pipeline', { mode: 'uncached-shared' }, '2075d7ac697765a0'],
  ['pipeline', { mode: 'cached-shared' }, '010df91558a6c66e'],
  ['dram-hops', {}, '3ddba351cba38f2d'],
  ['nbody-ring', {}, 'b31d4d6f08c8665b'],
  ['concordance', {}, '24e8a843816e4ba5'],
  ['mpi-sweep', { op: 'gather', sizes: '1,1024', channel: 'original' }, 'fcbc2651bad8cca8'],
  ['mpi-sweep', { sizes: '64,4096' }, 'e0829fe203b856e8'],
];

describe('golden digests (seed 1, default parameters)', () => {
  it.each(GOLDEN)('%s %o', (name, params, digest) => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name, params }, seed: 1 }, workloads).runInline();
    expect(r.digest).toBe(digest);
  });
});
