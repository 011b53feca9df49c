/**
 * Golden digests with fixed seeds. A change here means simulated results changed: if the
 * change to the model is intended, update the values (and say so in the commit message);
 * if not, it is a regression (performance work must leave these alone).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

const GOLDEN: [string, Record<string, unknown>, string][] = [
  ['memtest', {}, '61d3f91ae26271c9'],
  ['mpb-pingpong', {}, 'dc9f662206e5ac8e'],
  ['l1-stream', {}, '2ec72124a569062d'],
];

describe('golden digests (seed 1, default parameters)', () => {
  it.each(GOLDEN)('%s', (name, params, digest) => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name, params }, seed: 1 }, workloads).runInline();
    expect(r.digest).toBe(digest);
  });
});
