/**
 * tile-messages (TILE64): moving 1 and 10 words from a tile 1 or 3 hops away, five ways, as
 * in paper 000 Fig. 1 (lines 366-405): a raw network message, loads from the other tile's
 * cache (a page homed there, its lines in the home L2), loads from memory, a DMA from the
 * other tile's cache and a DMA from memory. Rows {method, words, hops, cycles}.
 * The paper gives no values (Fig. 1's axis runs 0-1000 cycles) but states the order: hops add
 * time, raw messages beat loads, DMA is uneconomical for 10 words. The DMA set-up cost is a
 * preset parameter (dma.setupCycles, model): the rows show what it gives.
 *
 * The program, as the paper measured it with the cycle counter: core 0 is the receiving tile;
 * the cores on the tiles 1 and 3 hops away along its row hold the data. A message carries the
 * sender's cycle count as its first word, so the receiver measures send start to receive end.
 */
import { z } from 'zod';
import { WorkloadParamError, type Row, type Tile64Core, type WorkloadDef } from '@manycore/engine';

const Params = z.strictObject({
  rounds: z.number().int().min(1).max(100).default(3).describe('repetitions of each measurement (the last is reported)'),
});
type P = z.infer<typeof Params>;

const PAGE = 65536;
const HOPS = [1, 3] as const;
const WORDS = [1, 10] as const;

function cyclesSince(core: Tile64Core, t: number): number {
  return Math.round((core.now - t) / core.period);
}

export const tileMessages: WorkloadDef<P, Tile64Core> = {
  name: 'tile-messages',
  title: 'TILE64 data movement: messages, loads, DMA',
  chart: { x: 'words', y: 'cycles', series: 'method', logY: true },
  description: 'Paper 000 Fig. 1: 1 and 10 words from a tile 1 or 3 hops away by raw message, loads (from its cache, from memory) and DMA.',
  families: ['tile64'],
  params: Params,
  participants: (_p, chip) => {
    if (chip.topo.width < 4) throw new WorkloadParamError(`the mesh is ${chip.topo.width} tiles wide; tile-messages needs 4 (tiles 1 and 3 hops along row 0)`);
    return [0, 1, 3];
  },
  *program(core: Tile64Core, p: P) {
    const buf = new Uint32Array(14);
    const sharedPageOf = (tile: number) => core.sharedBase + tile * PAGE; // homed on `tile`
    if (core.id !== 0) {
      // the data holder: bring its page's lines into its L2 (the home), then send messages
      const page = sharedPageOf(core.tile);
      for (let i = 0; i < 64; i++) core.load32(page + i * 4);
      yield* core.barrier();
      for (const words of WORDS)
        for (let r = 0; r < p.rounds; r++) {
          yield* core.udnReceive(0, buf); // core 0 is ready
          buf[0] = Math.round(core.now / core.period);
          for (let i = 1; i < words; i++) buf[i] = i;
          core.udnSend(0, buf.subarray(0, words));
        }
      yield* core.barrier();
      return;
    }
    yield* core.barrier();
    const rows: Row[] = [];
    for (const hops of HOPS) {
      const src = core.id + hops; // one core per tile, tiles along row 0
      const page = sharedPageOf(src);
      core.load32(page + PAGE / 2); // TLB
      for (const words of WORDS) {
        let cycles = 0;
        for (let r = 0; r < p.rounds; r++) {
          core.udnSend(src, [words]);
          yield* core.udnReceive(src, buf);
          cycles = Math.round(core.now / core.period) - buf[0]!;
        }
        rows.push({ method: 'message', words, hops, cycles });
        // loads from the other tile's cache (homed there; its L2 holds the lines)
        core.fence();
        let t = core.now;
        for (let i = 0; i < words; i++) core.load32(page + i * 4);
        core.fence();
        rows.push({ method: 'load from cache', words, hops, cycles: cyclesSince(core, t) });
        // DMA from the other tile's cache into a private buffer
        const dst = core.privateBase + 4 * PAGE;
        core.load32(dst + PAGE / 2);
        t = core.now;
        yield* core.dma(dst, page, words * 4);
        rows.push({ method: 'DMA from cache', words, hops, cycles: cyclesSince(core, t) });
      }
    }
    // from memory: fresh private lines (homed here, cached nowhere yet)
    for (const words of WORDS) {
      const mem = core.privateBase + (words === 1 ? 8 : 9) * PAGE;
      core.load32(mem + PAGE / 2); // TLB
      core.fence();
      let t = core.now;
      for (let i = 0; i < words; i++) core.load32(mem + 1024 + i * 4);
      core.fence();
      rows.push({ method: 'load from memory', words, hops: 0, cycles: cyclesSince(core, t) });
      const dst = core.privateBase + 4 * PAGE;
      t = core.now;
      yield* core.dma(dst, mem + 2048, words * 4);
      rows.push({ method: 'DMA from memory', words, hops: 0, cycles: cyclesSince(core, t) });
    }
    for (const r of rows) core.report(r);
    yield* core.barrier();
  },
};
