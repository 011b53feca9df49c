/**
 * The SCC family's chip schema: the one source of truth for an SCC-style chip's configuration
 * (units in the names, defaults in presets). Unknown keys are rejected; cross-field rules name
 * the component. Components never see this raw config: `resolveScc` (resolve.ts) turns it
 * into plain values.
 */
import { z } from 'zod';
import { CacheSchema, PowerSchema, VfPointSchema } from '../../chip-schema';

const positiveInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();

export const SccChipSchema = z
  .strictObject({
    name: z.string().min(1),
    mesh: z.strictObject({
      width: z.number().int().min(1).max(64),
      height: z.number().int().min(1).max(64),
      hopMeshCycles: nonNegInt.describe('router + link latency per hop per direction, mesh cycles'),
      flitBytes: positiveInt.describe('payload bytes per flit'),
      contentionWindowNs: z.number().positive().describe('simulated time over which link utilisation is measured for queueing, ns'),
    }),
    coresPerTile: z.number().int().min(1).max(8),
    caches: z.strictObject({ l1i: CacheSchema, l1d: CacheSchema, l2: CacheSchema }),
    l2Enabled: z.boolean(),
    missesInFlight: z.number().int().min(1).max(16).describe('outstanding misses per core'),
    writeCombineBytes: z.number().int().min(0).max(32).describe('write-combine buffer size (one line on the SCC)'),
    mpb: z.strictObject({
      bytesPerTile: positiveInt.max(16384),
      localAccessCycles: nonNegInt.describe('access to the own tile MPB, core cycles'),
      remoteAccessCycles: nonNegInt.describe('core-side cost of a remote MPB line, core cycles (mesh time added)'),
    }),
    memory: z.strictObject({
      controllers: z.array(z.strictObject({ x: nonNegInt, y: nonNegInt })).min(1).max(14),
      coreOverheadCycles: nonNegInt.describe('core-side part of a DRAM access, core cycles'),
      accessMemCycles: nonNegInt.describe('controller + DRAM part of an access, memory cycles'),
      serviceMemCycles: positiveInt.describe('controller occupancy per 32 B transaction, memory cycles'),
      poolBytes: positiveInt.describe('simulated DRAM actually backed by the host (sparse, allocated on first write)'),
    }),
    clocks: z.strictObject({
      baseMHz: z.number().positive().describe('tile clocks are baseMHz / divisor'),
      divisor: z.number().int().min(2).max(16).describe('default divisor of every tile'),
      tileDivisors: z.array(z.number().int().min(2).max(16)).optional().describe('per-tile divisors (override divisor)'),
      meshMHz: z.number().positive(),
      memoryMHz: z.number().positive(),
    }),
    islands: z.strictObject({
      tiles: z.array(z.array(nonNegInt).min(1)).min(1).describe('tiles of each voltage island'),
      vf: z.array(VfPointSchema).min(1).describe('voltage needed for each divisor'),
    }),
    power: PowerSchema,
    lut: z.strictObject({
      privatePages: z.number().int().min(1).max(100).describe('16 MB pages of private memory per core, from page 0'),
      sharedBasePage: z.number().int().min(0).max(255),
      sharedPages: z.number().int().min(0).max(128),
      sharedGroupPages: z.number().int().min(1).describe('consecutive shared pages on one controller before the next'),
      mpbBasePage: z.number().int().min(0).max(255),
    }),
    testAndSetRegisters: z.number().int().min(1).max(1024),
  })
  .superRefine((chip, ctx) => {
    const { width, height } = chip.mesh;
    const tiles = width * height;
    chip.memory.controllers.forEach((mc, i) => {
      if (mc.x >= width || mc.y >= height)
        ctx.addIssue({
          code: 'custom',
          path: ['memory', 'controllers', i],
          message: `memory controller ${i} at (${mc.x},${mc.y}) is outside the ${width}x${height} mesh`,
        });
    });
    for (const name of ['l1i', 'l1d', 'l2'] as const) {
      const c = chip.caches[name];
      const sets = c.sizeBytes / (c.ways * c.lineBytes);
      if (!Number.isInteger(sets) || sets < 1 || (sets & (sets - 1)) !== 0)
        ctx.addIssue({
          code: 'custom',
          path: ['caches', name],
          message: `cache ${name}: sizeBytes / (ways x lineBytes) must be a power of two (got ${sets})`,
        });
    }
    if (chip.clocks.tileDivisors && chip.clocks.tileDivisors.length !== tiles)
      ctx.addIssue({
        code: 'custom',
        path: ['clocks', 'tileDivisors'],
        message: `clocks.tileDivisors has ${chip.clocks.tileDivisors.length} entries but the mesh has ${tiles} tiles`,
      });
    const seen = new Set<number>();
    chip.islands.tiles.forEach((list, i) =>
      list.forEach((t) => {
        if (t >= tiles)
          ctx.addIssue({ code: 'custom', path: ['islands', 'tiles', i], message: `voltage island ${i} names tile ${t}, beyond the ${tiles} tiles` });
        if (seen.has(t))
          ctx.addIssue({ code: 'custom', path: ['islands', 'tiles', i], message: `tile ${t} is in two voltage islands` });
        seen.add(t);
      }),
    );
    if (seen.size !== tiles && chip.islands.tiles.every((l) => l.every((t) => t < tiles)))
      ctx.addIssue({ code: 'custom', path: ['islands', 'tiles'], message: `voltage islands cover ${seen.size} of ${tiles} tiles` });
    const divisors = new Set(chip.islands.vf.map((p) => p.divisor));
    const used = [chip.clocks.divisor, ...(chip.clocks.tileDivisors ?? [])];
    for (const d of used)
      if (!divisors.has(d))
        ctx.addIssue({ code: 'custom', path: ['islands', 'vf'], message: `divisor ${d} has no entry in the V/f table` });
    const tilesLim = 1 << 19;
    if (tiles > tilesLim) ctx.addIssue({ code: 'custom', path: ['mesh'], message: 'mesh too large' });
    if (chip.mpb.bytesPerTile % 32 !== 0)
      ctx.addIssue({ code: 'custom', path: ['mpb', 'bytesPerTile'], message: 'mpb.bytesPerTile must be a multiple of 32' });
    const lut = chip.lut;
    const cores = tiles * chip.coresPerTile;
    const ranges: [string, number, number][] = [
      ['private', 0, lut.privatePages],
      ['shared', lut.sharedBasePage, lut.sharedBasePage + lut.sharedPages],
      ['mpb', lut.mpbBasePage, lut.mpbBasePage + Math.ceil(tiles / 1024)],
    ];
    for (const [n, a, b] of ranges)
      if (b > 256) ctx.addIssue({ code: 'custom', path: ['lut'], message: `LUT ${n} pages ${a}..${b - 1} run past page 255` });
    for (let i = 0; i < ranges.length; i++)
      for (let j = i + 1; j < ranges.length; j++) {
        const [na, a0, a1] = ranges[i]!;
        const [nb, b0, b1] = ranges[j]!;
        if (a0 < b1 && b0 < a1 && a1 > a0 && b1 > b0)
          ctx.addIssue({ code: 'custom', path: ['lut'], message: `LUT ${na} pages overlap ${nb} pages` });
      }
    if (chip.testAndSetRegisters < cores)
      ctx.addIssue({ code: 'custom', path: ['testAndSetRegisters'], message: `need at least one test-and-set register per core (${cores})` });
  });

export type SccChipConfig = z.infer<typeof SccChipSchema>;
