/**
 * l1-stream: every core loads words from a buffer in its private memory, with some work
 * between loads. A small buffer stays L1-resident; a large one streams from DRAM. Used by the
 * benchmark (simulated operations per second) and as a load generator. Rows
 * {core, loads, timeNs, checksum} where checksum is the sum of the words read.
 */
import { z } from 'zod';
import { DUE, type SccCore, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from './lib/limits';

const Params = z.strictObject({
  cores: z.number().int().min(1).max(MAX_CORES).default(48).describe('cores 0..cores-1 run (at most the chip\'s)'),
  bufferBytes: z.number().int().min(32).max(64 * 1024 * 1024).default(8192).describe('per-core buffer; 8 KB stays in L1'),
  loads: z.number().int().min(1).max(1e9).default(100_000).describe('loads per core'),
  workCycles: z.number().int().min(0).default(0).describe('compute cycles between loads'),
  strideBytes: z.number().int().min(4).max(4096).default(4),
});
type P = z.infer<typeof Params>;

export const l1Stream: WorkloadDef<P> = {
  name: 'l1-stream',
  title: 'Load stream (L1-resident or DRAM-bound)',
  chart: { x: 'core', y: 'timeNs' },
  description: 'Every core loads a private buffer in a loop: small buffers hit L1, large ones stream from DRAM.',
  params: Params,
  participants: (p, chip) => {
    if (p.cores > chip.topo.cores) throw overLimit('cores', p.cores, chip.topo.cores, chipHasCores(chip));
    return Array.from({ length: p.cores }, (_, i) => i);
  },
  coresParam: { name: 'cores' },
  *program(core: SccCore, p: P) {
    const base = core.privateBase + 4096;
    const words = Math.floor(p.bufferBytes / p.strideBytes);
    let sum = 0;
    let i = 0;
    const t0 = core.now;
    for (let n = 0; n < p.loads; n++) {
      sum = (sum + core.load32(base + i * p.strideBytes)) | 0;
      if (++i === words) i = 0;
      if (p.workCycles > 0) core.compute(p.workCycles);
      if ((n & 63) === 63 && core.due()) yield DUE;
    }
    core.fence();
    core.report({ core: core.id, loads: p.loads, timeNs: (core.now - t0) / 1000, checksum: sum });
  },
};
