/**
 * The TILE64 family's chip schema (../shared/reference/tile64-roarvm.md section 1): tiles of
 * one core each on a mesh, private L1 and L2 per tile, 64 KB pages with a caching regime each
 * (read-only, homed, user-managed), a software-refilled data TLB, raw on-chip network messages,
 * DMA, and memory controllers on the mesh edge. Units in the names; cross-field rules name the
 * component; unknown keys are rejected.
 */
import { z } from 'zod';
import { DramSchema, PowerSchema, TagCacheSchema, VfPointSchema, checkDramClock, checkTagCaches, positiveInt, nonNegInt, isPowerOfTwo } from '../../chip-schema';


export const Tile64ChipSchema = z
  .strictObject({
    name: z.string().min(1),
    mesh: z.strictObject({
      width: z.number().int().min(1).max(16),
      height: z.number().int().min(1).max(16),
      hopCycles: nonNegInt.describe('router + link latency per hop, core cycles (the mesh runs at the core clock)'),
      flitBytes: positiveInt.describe('payload bytes per flit'),
      contentionWindowNs: z.number().positive().describe('simulated time over which link utilisation is measured for queueing, ns'),
    }),
    caches: z.strictObject({ l1d: TagCacheSchema, l2: TagCacheSchema }),
    missesInFlight: z.number().int().min(1).max(16).describe('outstanding misses per core'),
    homing: z.strictObject({
      remoteBaseCycles: nonNegInt.describe('a word read or written at a non-home tile, served by the home L2: base cycles'),
      remotePerHopCycles: nonNegInt.describe('added per hop between the tile and the home tile'),
      homeSets: positiveInt.describe('sets of the home L2 as other tiles see it (the L2 geometry)'),
      homeWays: positiveInt,
    }),
    memory: z.strictObject({
      controllers: z.array(z.strictObject({ x: nonNegInt, y: nonNegInt })).min(1).max(14),
      accessCycles: nonNegInt.describe('a DRAM access from the tile next to a controller, core cycles'),
      perHopCycles: nonNegInt.describe('added per hop between the tile and the controller (there and back)'),
      dram: DramSchema,
      poolBytes: positiveInt.describe('simulated DRAM actually backed by the host (sparse, allocated on first write)'),
    }),
    pages: z.strictObject({
      privateBytes: positiveInt.describe('private memory per core (homed on its own tile), bytes'),
      sharedBytes: positiveInt.describe('shared window, same for every core, bytes'),
    }),
    tlb: z.strictObject({
      dataEntries: positiveInt.describe('data TLB entries (fully associative, LRU)'),
      hugePages: z.boolean().describe('map memory with 16 MB huge pages instead of 64 KB pages'),
      missCycles: nonNegInt.describe('cycles of the software TLB-miss handler (instructions executed)'),
    }),
    network: z.strictObject({
      sendBaseCycles: nonNegInt.describe('raw (UDN) message send overhead, cycles'),
      sendPerWordCycles: nonNegInt,
      receiveBaseCycles: nonNegInt.describe('raw message receive overhead, cycles'),
      receivePerWordCycles: nonNegInt,
      maxWords: z.number().int().min(1).max(14).describe('words per message (one receive slot per sender)'),
    }),
    dma: z.strictObject({
      setupCycles: nonNegInt.describe('start a DMA transfer and learn that it completed, cycles'),
      lineCycles: nonNegInt.describe('DMA engine occupancy per line moved, cycles'),
    }),
    clocks: z.strictObject({
      baseMHz: z.number().positive().describe('the core clock is baseMHz / divisor'),
      divisor: z.number().int().min(1).max(16),
      meshMHz: z.number().positive(),
      memoryMHz: z.number().positive(),
    }),
    islands: z.strictObject({
      tiles: z.array(z.array(nonNegInt).min(1)).min(1).describe('tiles of each power domain'),
      vf: z.array(VfPointSchema.extend({ divisor: z.number().int().min(1).max(16) })).min(1),
    }),
    power: PowerSchema,
  })
  .superRefine((chip, ctx) => {
    const { width, height } = chip.mesh;
    const tiles = width * height;
    // TILE64's memory clock is the DDR2 I/O clock (400 MHz: DDR2-800)
    checkDramClock(chip.memory.dram, chip.clocks.memoryMHz, 1000 / chip.clocks.memoryMHz, `DDR2-${2 * chip.clocks.memoryMHz}`, ctx);
    chip.memory.controllers.forEach((mc, i) => {
      if (mc.x >= width || mc.y >= height)
        ctx.addIssue({ code: 'custom', path: ['memory', 'controllers', i], message: `memory controller ${i} at (${mc.x},${mc.y}) is outside the ${width}x${height} mesh` });
    });
    checkTagCaches(chip.caches, ctx);
    // a user-managed line's L1 copy is filled from its L2 copy (core.ts): an L1 line lies within one L2 line
    if (chip.caches.l1d.lineBytes > chip.caches.l2.lineBytes)
      ctx.addIssue({ code: 'custom', path: ['caches', 'l1d', 'lineBytes'], message: `cache l1d: lines of ${chip.caches.l1d.lineBytes} bytes exceed the L2's ${chip.caches.l2.lineBytes}` });
    if (!isPowerOfTwo(chip.homing.homeSets))
      ctx.addIssue({ code: 'custom', path: ['homing', 'homeSets'], message: 'homing.homeSets must be a power of two' });
    for (const k of ['privateBytes', 'sharedBytes'] as const)
      if (chip.pages[k] % (1 << 16) !== 0)
        ctx.addIssue({ code: 'custom', path: ['pages', k], message: `pages.${k} must be a whole number of 64 KB pages` });
    const total = tiles * chip.pages.privateBytes + chip.pages.sharedBytes;
    if (total > 2 ** 31) ctx.addIssue({ code: 'custom', path: ['pages'], message: `private (${tiles} x ${chip.pages.privateBytes}) and shared memory exceed the 2 GB the address map holds` });
    const seen = new Set<number>();
    chip.islands.tiles.forEach((list, i) =>
      list.forEach((t) => {
        if (t >= tiles) ctx.addIssue({ code: 'custom', path: ['islands', 'tiles', i], message: `power domain ${i} names tile ${t}, beyond the ${tiles} tiles` });
        seen.add(t);
      }),
    );
    if (seen.size !== tiles) ctx.addIssue({ code: 'custom', path: ['islands', 'tiles'], message: `power domains cover ${seen.size} of ${tiles} tiles` });
    if (!chip.islands.vf.some((p) => p.divisor === chip.clocks.divisor))
      ctx.addIssue({ code: 'custom', path: ['islands', 'vf'], message: `divisor ${chip.clocks.divisor} has no entry in the V/f table` });
  });

export type Tile64ChipConfig = z.infer<typeof Tile64ChipSchema>;
