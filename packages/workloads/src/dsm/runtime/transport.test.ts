import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES, resolveChip, type ClusterChip } from '@manycore/engine';
import { dsmWorkload } from '../workload';

/**
 * Host memory for the cluster at the paper's sizes (regression: Barnes-Hut/sm on 32 processors
 * exhausted the 752 MB pool). The most the nodes can touch, from the resolved chip's layout:
 * every participating node's whole private window, plus the 128 KB pool blocks each ordered
 * pair's receive slots straddle, plus the blocks of the arrival and taken counters.
 */
function mostTouchedBytes(chip: ClusterChip, procs: number): number {
  const blocks = new Set<number>();
  const span = (from: number, bytes: number) => {
    for (let b = Math.floor(from / BLOCK_BYTES); b <= Math.floor((from + bytes - 1) / BLOCK_BYTES); b++) blocks.add(b);
  };
  for (let n = 0; n < procs; n++) span(n * chip.privateBytes, chip.privateBytes);
  for (let d = 0; d < procs; d++)
    for (let s = 0; s < procs; s++) if (s !== d) span(chip.slotBase + (d * chip.nodes + s) * chip.slotsPerPair * chip.slotBytes, chip.slotsPerPair * chip.slotBytes);
  span(chip.arrivalBase, chip.nodes * 32 + chip.nodes * chip.nodes * 32);
  return blocks.size * BLOCK_BYTES;
}

describe('dsm on the cluster: host memory at the paper sizes', () => {
  it.each([
    ['paper-sm', 32],
    ['paper-lg', 32],
    ['paper-sm', 16],
  ] as const)('%s on %i processors: the pool holds everything the nodes can touch', (size, processors) => {
    const params = dsmWorkload.params.parse({ app: 'barnes-hut', size, processors });
    const chip = resolveChip('cluster-1999', dsmWorkload.chipOverrides!(params, 'cluster')) as ClusterChip;
    const need = mostTouchedBytes(chip, processors);
    // capped below the 4 GB one typed array holds: 32 x 128 MB windows (paper-lg) exceed it alone
    const cap = 2 ** 32 - 128 * 1024;
    expect(chip.poolBytes).toBeGreaterThanOrEqual(Math.min(need, cap));
    expect(chip.poolBytes).toBeLessThanOrEqual(cap);
    // sized from the parameters, not a blanket figure: within 10% (5 blocks a pair is the worst case, most straddle 4)
    expect(chip.poolBytes).toBeLessThan(need * 1.1);
  });
});
