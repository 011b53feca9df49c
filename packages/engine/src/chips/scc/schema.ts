/**
 * The SCC family's chip schema: the one source of truth for an SCC-style chip's configuration
 * (units in the names, defaults in presets). Unknown keys are rejected; cross-field rules name
 * the component. Components never see this raw config: `resolveScc` (resolve.ts) turns it
 * into plain values.
 *
 * Parts that follow from the mesh size may be left out: voltage islands (islands.tiles),
 * memory controllers (memory.controllers), test-and-set registers and any LUT field. Parsing
 * derives them (mesh.ts) before the cross-field checks, so the parsed config (SccChipConfig,
 * echoed by results.chip) always has every part; a config that gives them (the `scc` preset)
 * parses to itself.
 */
import { z } from 'zod';
import { CacheSchema, DramSchema, PowerSchema, VfPointSchema, checkDramClock, positiveInt, nonNegInt } from '../../chip-schema';
import { makeTopology, tileAt } from '../../topology';
import { MAX_CONTROLLERS } from '../../vocabulary';
import { deriveLut, islands2x2, meshControllers, mpbPages } from './mesh';


/** The schema's own limits: what the engine's encodings allow, not what a chip may have. */
const MAX_MESH_SIDE = 256; // tiles per side: a transaction names an MPB's tile in 16 bits (layout.ts TXN_TARGET_MPB), 256 x 256 = 65536
const MAX_TAS_REGISTERS = 1 << 28; // a test-and-set register number is the 28-bit line of its line id

const SccChipObject = z.strictObject({
  name: z.string().min(1),
  mesh: z.strictObject({
    width: z.number().int().min(1).max(MAX_MESH_SIDE),
    height: z.number().int().min(1).max(MAX_MESH_SIDE),
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
    controllers: z
      .array(z.strictObject({ x: nonNegInt, y: nonNegInt }))
      .min(1)
      .max(MAX_CONTROLLERS)
      .optional()
      .describe('controller positions (tiles whose router they attach to); derived from the mesh when left out'),
    coreOverheadCycles: nonNegInt.describe('core-side part of a DRAM access, core cycles'),
    accessMemCycles: nonNegInt.describe('controller + DRAM part of a zero-load access (a row hit), memory cycles'),
    dram: DramSchema,
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
    tiles: z.array(z.array(nonNegInt).min(1)).min(1).optional().describe('tiles of each voltage island; 2 x 2 tiles when left out'),
    vf: z.array(VfPointSchema).min(1).describe('voltage needed for each divisor'),
  }),
  power: PowerSchema,
  lut: z
    .strictObject({
      privatePages: z.number().int().min(1).max(100).optional().describe('16 MB pages of private memory per core, from page 0'),
      sharedBasePage: z.number().int().min(0).max(255).optional(),
      sharedPages: z.number().int().min(0).max(128).optional(),
      sharedGroupPages: z.number().int().min(1).optional().describe('consecutive shared pages on one controller before the next'),
      mpbBasePage: z.number().int().min(0).max(255).optional(),
    })
    .optional()
    .describe('per-core lookup table layout; fields left out are derived from the mesh'),
  testAndSetRegisters: z.number().int().min(1).max(MAX_TAS_REGISTERS).optional().describe('one per core when left out'),
});

type SccChipParsed = z.output<typeof SccChipObject>;

/** A validated config: every part given or derived. */
export type SccChipConfig = Omit<SccChipParsed, 'memory' | 'islands' | 'lut' | 'testAndSetRegisters'> & {
  memory: SccChipParsed['memory'] & { controllers: NonNullable<SccChipParsed['memory']['controllers']> };
  islands: SccChipParsed['islands'] & { tiles: NonNullable<SccChipParsed['islands']['tiles']> };
  lut: Required<NonNullable<SccChipParsed['lut']>>;
  testAndSetRegisters: number;
};

/**
 * Fills in what the config leaves out (mesh.ts). Keys stay in schema order, so a config that
 * gives every part parses to an identical object.
 */
function derive(c: SccChipParsed, ctx: z.RefinementCtx): SccChipConfig {
  const { width, height } = c.mesh;
  const topo = makeTopology(width, height, c.coresPerTile);
  const controllers = c.memory.controllers ?? meshControllers(width, height);
  let outside = false;
  controllers.forEach((mc, i) => {
    if (mc.x < width && mc.y < height) return;
    outside = true;
    ctx.addIssue({ code: 'custom', path: ['memory', 'controllers', i], message: `memory controller ${i} at (${mc.x},${mc.y}) is outside the ${width}x${height} mesh` });
  });
  if (outside) return z.NEVER;
  const given = c.lut ?? {};
  const lut = deriveLut(
    topo,
    controllers.map((m) => tileAt(topo, m.x, m.y)),
    given,
  );
  if (typeof lut === 'string') {
    ctx.addIssue({ code: 'custom', path: ['lut'], message: `cannot derive the LUT: ${lut}; give lut.privatePages or fewer cores per controller` });
    return z.NEVER;
  }
  return {
    ...c,
    memory: { controllers, ...c.memory },
    islands: { tiles: c.islands.tiles ?? islands2x2(width, height), ...c.islands },
    lut,
    testAndSetRegisters: c.testAndSetRegisters ?? topo.cores,
  };
}

export const SccChipSchema = SccChipObject.transform(derive).superRefine((chip, ctx) => {
  const { width, height } = chip.mesh;
  const tiles = width * height;
  // the SCC's memory clock is the DDR3 data rate (800 or 1066 MT/s: DDR3-800, DDR3-1066)
  checkDramClock(chip.memory.dram, chip.clocks.memoryMHz, 2000 / chip.clocks.memoryMHz, `DDR3-${chip.clocks.memoryMHz}`, ctx);
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
    ctx.addIssue({
      code: 'custom',
      path: ['islands', 'tiles'],
      message: `voltage islands cover ${seen.size} of ${tiles} tiles (leave islands.tiles out, as the mesh preset does, to get 2 x 2 tiles on any mesh)`,
    });
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
    ['mpb', lut.mpbBasePage, lut.mpbBasePage + mpbPages(tiles)],
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

/** A config as presets and overrides give it (the parts that follow from the mesh may be left out). */
export type SccChipInput = z.input<typeof SccChipSchema>;
