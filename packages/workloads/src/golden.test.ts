/**
 * Golden digests with fixed seeds. A change here means simulated results changed: if the
 * change to the model is intended, update the values (and say so in the commit message);
 * if not, it is a regression (performance work must leave these alone).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from './index';

const GOLDEN: [string, Record<string, unknown>, string][] = [
  ['memtest', {}, 'cdae3a527359b072'],
  ['mpb-pingpong', {}, '245b8a767c0cc2f4'],
  ['l1-stream', {}, '9d246c44dac12993'],
];

describe('golden digests (seed 1, default parameters)', () => {
  it.each(GOLDEN)('%s', (name, params, digest) => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name, params }, seed: 1 }, workloads).runInline();
    expect(r.digest).toBe(digest);
  });
});
