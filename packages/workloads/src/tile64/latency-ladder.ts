/**
 * latency-ladder (TILE64): the cost of one load at each level of the memory system, measured
 * by core 0 with single loads (TLB warmed on another line of the same page, the word used at
 * once). Paper 000 Table 1 and Table 3: L1 2 cycles, L2 8, a non-home word about 40 cycles
 * from the home L2 (35 + 2 per hop, lines 420-426) and about 80 from memory, DRAM 69-88.
 * Rows {regime, level, hops, latencyCycles, paper, paperCycles, ratio}: `paper` is the paper's
 * figure as it states it, paperCycles a number for it (the middle of a range; 0 where the paper
 * gives none) and ratio = lab / paper.
 *  - homed: L1 hit, L2 hit, DRAM (one row per controller, hops to it), remote home L2 and
 *    remote home from memory at every distance 1..max on the mesh (a shared page homed on
 *    the tile at that distance).
 *  - read-only: the same shared pages mapped read-only: the first load reads memory, the
 *    next ones are served from the core's own L1 / L2 (cached anywhere).
 *  - user-managed: cached anywhere like read-only; a store is the 4-step sequence of Table 2
 *    (here: store, flush the line, fence; invalidating other tiles' copies is theirs to do).
 */
import { z } from 'zod';
import { tileHops, WorkloadParamError, type Tile64Core, type WorkloadDef } from '@manycore/engine';

const Params = z.strictObject({
  regime: z.enum(['homed', 'read-only', 'user-managed']).default('homed').describe('caching regime of the shared pages measured'),
});
type P = z.infer<typeof Params>;

const PAGE = 65536;

function row(regime: string, level: string, hops: number, latencyCycles: number, paper: string, paperCycles: number) {
  return { regime, level, hops, latencyCycles, paper, paperCycles, ratio: paperCycles > 0 ? Math.round((latencyCycles / paperCycles) * 1000) / 1000 : 0 };
}

/** Cycles one load of addr takes (the word used at once). */
function timeLoad(core: Tile64Core, addr: number): number {
  core.fence();
  const t = core.now;
  core.load32(addr);
  core.fence();
  return Math.round((core.now - t) / core.period);
}

export const latencyLadder: WorkloadDef<P, Tile64Core> = {
  name: 'latency-ladder',
  title: 'TILE64 latency ladder',
  chart: { x: 'hops', y: 'latencyCycles', series: 'level' },
  description: 'One load at each level (L1, L2, remote home L2 at every distance, memory), per caching regime, beside paper 000 Tables 1 and 3.',
  families: ['tile64'],
  params: Params,
  participants: (_p, chip) => {
    if (chip.topo.cores < 2) throw new WorkloadParamError(`the chip has ${chip.topo.cores} core; the ladder needs remote tiles`);
    return [0];
  },
  *program(core: Tile64Core, p: P) {
    const chip = core.chip;
    const topo = chip.topo;
    const priv = core.privateBase;
    // L1 and L2: a private line (homed on this tile)
    const a = priv + 8 * PAGE;
    core.load32(a + 4 * 1024); // TLB
    core.load32(a);
    core.report(row(p.regime, 'L1', 0, timeLoad(core, a), '2 (Table 1)', 2));
    // evict a from L1 only: two lines in the same L1 set (L1 size / ways apart), different L2 sets
    const l1Span = chip.config.caches.l1d.sizeBytes / chip.config.caches.l1d.ways;
    core.load32(a + l1Span);
    core.load32(a + 2 * l1Span);
    core.report(row(p.regime, 'L2', 0, timeLoad(core, a), '8 (Table 1)', 8));
    // DRAM: fresh private pages, one per controller (physical pages interleave over the controllers)
    for (let k = 0; k < chip.controllers; k++) {
      const page = priv + (16 + k) * PAGE;
      core.load32(page + PAGE / 2); // TLB
      const ctrl = (core.id * chip.privatePages + 16 + k) % chip.controllers;
      const hops = tileHops(topo, core.tile, chip.controllerTile[ctrl]!);
      core.report(row(p.regime, 'DRAM', hops, timeLoad(core, page), '69-88 (Table 1)', 78.5));
      if (core.due()) yield 0;
    }
    // a shared page homed at the first tile (row-major) at each distance
    const maxHops = topo.width - 1 + topo.height - 1;
    for (let d = 1; d <= maxHops; d++) {
      let tile = -1;
      for (let t = 0; t < topo.tiles && tile < 0; t++) if (tileHops(topo, core.tile, t) === d) tile = t;
      if (tile < 0) continue;
      const page = core.sharedBase + tile * PAGE; // shared page k is homed on tile k mod tiles
      if (p.regime !== 'homed') core.mapRegion(page, PAGE, p.regime);
      core.load32(page + PAGE / 2); // TLB (another line)
      if (p.regime === 'homed') {
        core.report(row(p.regime, 'remote home memory', d, timeLoad(core, page), '~80 (Table 3)', 80));
        core.report(row(p.regime, 'remote home L2', d, timeLoad(core, page), '~35 + 2/hop (lines 420-426); ~40 (Table 3)', 35 + 2 * d));
      } else {
        core.report(row(p.regime, `${p.regime} first`, d, timeLoad(core, page), 'not given', 0));
        core.report(row(p.regime, `${p.regime} again`, d, timeLoad(core, page), '2 if in L1 (Table 2)', 2));
        if (p.regime === 'user-managed') {
          core.fence();
          const t = core.now;
          core.store32(page, d);
          core.flushLine(page);
          core.fence();
          core.report(row(p.regime, 'user-managed store+flush+fence', d, Math.round((core.now - t) / core.period), 'not given (Table 2: 4 steps)', 0));
        }
      }
      if (core.due()) yield 0;
    }
  },
};
