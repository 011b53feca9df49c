/**
 * dram-hops: one core reads and then writes a block of shared memory (4 MB by default) on each
 * memory controller in turn, through the LUT's shared groups (15 pages per controller, scc.md
 * 7; paper 003 Figure 2, lines 4113-4193). A plain loop over 32-bit words, as the pipeline's
 * stages (accessBytes 4): uncached (the pipeline's uncached-shared mode), every load and store
 * is a 4 B DRAM transaction; accessBytes 8 (what-if, the lab's earlier default) moves 8 B per
 * transaction. Cached: one 32 B line per read miss; stores do not allocate, so each goes to
 * memory on its own. Every transaction crosses the mesh there and back, so the time grows
 * linearly with the hops from the core to the controller.
 * Rows {core, controller, hops, op, bytes, mapping, accessBytes, timeNs, nsPerLine}.
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, tileHops, type SccCore, type Row, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, overLimit } from '../lib/limits';
import { sharedAddrOnController } from '../placement';

const MB = 1 << 20;

const Params = z.strictObject({
  core: z.number().int().min(0).default(0).describe('the core that reads and writes'),
  bytes: z.number().int().min(32).max(64 * MB).default(4 * MB).describe('bytes read, then written, on each controller'),
  mapping: z.enum(['uncached', 'cached']).default('uncached').describe('page type of the shared block for this core'),
  accessBytes: z.number().int().min(4).max(8).default(4).describe('bytes per load / store: 4 (a 32-bit word loop) or 8 (what-if: 8 B transactions on uncached pages)'),
});
type P = z.infer<typeof Params>;

/** Bytes between the read block and the write block (so writes never hit lines the reads cached). */
const WRITE_OFFSET = 64 * MB;

export const dramHops: WorkloadDef<P> = {
  name: 'dram-hops',
  title: 'Shared DRAM: time vs hops to each controller',
  chart: { x: 'hops', y: 'nsPerLine', series: 'op' },
  description: 'One core reads and writes 4 MB of shared memory on each of the four memory controllers; time grows linearly with the hops to the controller.',
  params: Params,
  participants: (p, chip) => {
    if (p.core >= chip.topo.cores) throw overLimit('core', p.core, chip.topo.cores - 1, `${chipHasCores(chip)} (0..${chip.topo.cores - 1})`);
    if (p.accessBytes !== 4 && p.accessBytes !== 8) throw new WorkloadParamError(`accessBytes must be 4 or 8 (got ${p.accessBytes})`, 'accessBytes', '4 or 8 bytes');
    return [p.core];
  },
  *program(core: SccCore, p: P) {
    const chip = core.chip;
    const bytes = Math.ceil(p.bytes / 32) * 32;
    for (let m = 0; m < chip.controllers; m++) {
      const base = sharedAddrOnController(chip, m);
      for (let page = base >>> 24; page <= (base + WRITE_OFFSET + bytes - 1) >>> 24; page++) core.mapPage(page * (1 << 24), p.mapping);
      const hops = tileHops(chip.topo, core.tile, chip.controllerTile[m]!);
      for (const op of ['read', 'write'] as const) {
        const addr = base + (op === 'write' ? WRITE_OFFSET : 0);
        const t0 = core.now;
        for (let o = 0; o < bytes; o += 32) {
          if (p.accessBytes === 8) {
            // readRange / writeRange: 8 B transactions on uncached pages, 32-bit accesses when cached
            if (op === 'read') core.readRange(addr + o, 32);
            else core.writeRange(addr + o, 32, o & 0xff);
          } else if (op === 'read') for (let w = 0; w < 32; w += 4) core.load32(addr + o + w);
          else for (let w = 0; w < 32; w += 4) core.store32(addr + o + w, o + w);
          if (core.due()) yield DUE;
        }
        core.fence();
        const timeNs = (core.now - t0) / 1000;
        core.report({ core: core.id, controller: m, hops, op, bytes, mapping: p.mapping, accessBytes: p.accessBytes, timeNs, nsPerLine: timeNs / (bytes / 32) });
      }
    }
  },
  summarize: (rows: Row[]) => [...rows].sort((a, b) => (a.op as string).localeCompare(b.op as string) || (a.controller as number) - (b.controller as number)),
};
