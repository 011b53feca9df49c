/**
 * memtest: cores at each hop distance from a chosen memory controller read and write a
 * buffer there, one access at a time (each waits for its miss), one core at a time.
 * Rows {hops, op, latencyNs, formulaNs}: the measured mean latency, and the SCC formula
 * (40 core + 4 x n x 2 mesh + 46 memory cycles) from the chip parameters for comparison.
 */
import { z } from 'zod';
import { corePeriodPs, DUE, type SccCore, type ResolvedChip, type Row, type WorkloadDef } from '@manycore/engine';
import { overLimit } from './lib/limits';
import { coreAtHopsFromTile, maxHopsFromTile, sharedRunOnController } from './placement';

const Params = z.strictObject({
  controller: z.number().int().min(0).default(0).describe('memory controller whose DRAM is tested'),
  accesses: z.number().int().min(1).max(16_384).default(64).describe('accesses per core and operation (each a new 32 B line of the core\'s 512 KB read or write half)'),
});
type P = z.infer<typeof Params>;

function plan(params: P, chip: ResolvedChip): { hops: number; core: number }[] {
  if (params.controller >= chip.controllers)
    throw overLimit('controller', params.controller, chip.controllers - 1, `this chip has ${chip.controllers} memory controller${chip.controllers === 1 ? '' : 's'} (0..${chip.controllers - 1})`);
  const tile = chip.controllerTile[params.controller]!;
  const out: { hops: number; core: number }[] = [];
  for (let h = 0; h <= maxHopsFromTile(chip, tile); h++) {
    const core = coreAtHopsFromTile(chip, tile, h);
    if (core >= 0) out.push({ hops: h, core });
  }
  return out;
}

export const memtest: WorkloadDef<P> = {
  name: 'memtest',
  title: 'DRAM latency vs hops',
  chart: { x: 'hops', y: 'latencyNs', series: 'op' },
  description: 'Cores at each hop distance from a memory controller read and write a buffer there; latency grows linearly with hops.',
  params: Params,
  participants: (p, chip) => plan(p, chip).map((x) => x.core),
  *program(core: SccCore, p: P) {
    const chip = core.chip;
    const order = plan(p, chip);
    const me = order.find((x) => x.core === core.id)!;
    // 1 MB per core inside the controller's run of shared pages (wrapping on meshes with more
    // cores than the run has megabytes, so every access stays on the tested controller)
    const run = sharedRunOnController(chip, p.controller);
    const base = run.addr + ((core.id * (1 << 20)) % run.bytes);
    for (const turn of order) {
      yield* core.barrier();
      if (turn.core !== core.id) continue;
      for (const op of ['read', 'write'] as const) {
        const t0 = core.now;
        for (let i = 0; i < p.accesses; i++) {
          const addr = base + (op === 'write' ? 1 << 19 : 0) + i * 32;
          if (op === 'read') core.load32(addr);
          else core.store32(addr, i);
          core.fence();
          if (core.due()) yield DUE;
        }
        const latencyNs = (core.now - t0) / p.accesses / 1000;
        const period = corePeriodPs(chip, chip.tileDivisors[core.tile]!);
        const formulaNs = (chip.coreOverheadCycles * period + 2 * me.hops * chip.hopPs + chip.dramAccessPs) / 1000;
        core.report({ hops: me.hops, op, latencyNs, formulaNs });
      }
    }
  },
  summarize: (rows: Row[]) => [...rows].sort((a, b) => (a.op as string).localeCompare(b.op as string) || (a.hops as number) - (b.hops as number)),
};
