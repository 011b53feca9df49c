/**
 * Schema parts every chip family shares: caches, voltage/frequency points, the power model's
 * constants. A family's own schema (chips/<family>/schema.ts) composes them; units are in the
 * names, defaults in the presets.
 */
import { z } from 'zod';

/** Field types every family's schema uses. */
export const positiveInt = z.number().int().positive();
export const nonNegInt = z.number().int().nonnegative();
export const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

export const CacheSchema = z.strictObject({
  sizeBytes: positiveInt.describe('capacity in bytes'),
  ways: positiveInt.describe('associativity'),
  lineBytes: z.literal(32).describe('line size in bytes (32 on the SCC, all levels)'),
  hitCycles: nonNegInt.describe('hit latency in core cycles'),
  writePolicy: z.enum(['write-back', 'write-through']),
  allocateOnWrite: z.boolean().describe('false on the SCC: a store miss goes straight to memory'),
});

/** A cache that keeps tags only (TILE64, cluster nodes): geometry and hit latency. */
export const TagCacheSchema = z.strictObject({
  sizeBytes: positiveInt.describe('capacity in bytes'),
  ways: positiveInt.describe('associativity'),
  lineBytes: positiveInt.refine(isPowerOfTwo, 'a power of two').describe('line size in bytes'),
  hitCycles: nonNegInt.describe('hit latency in core cycles'),
});

/**
 * The geometry rules of a family's tag-only L1D and L2 (`caches.l1d`, `caches.l2`), for its
 * superRefine: sets a power of two, lines of 16 to 64 bytes; issues name the cache.
 */
export function checkTagCaches(caches: { l1d: z.infer<typeof TagCacheSchema>; l2: z.infer<typeof TagCacheSchema> }, ctx: z.RefinementCtx): void {
  for (const name of ['l1d', 'l2'] as const) {
    const c = caches[name];
    const sets = c.sizeBytes / (c.ways * c.lineBytes);
    if (!Number.isInteger(sets) || !isPowerOfTwo(sets))
      ctx.addIssue({ code: 'custom', path: ['caches', name], message: `cache ${name}: sizeBytes / (ways x lineBytes) must be a power of two (got ${sets})` });
    if (c.lineBytes < 16 || c.lineBytes > 64)
      ctx.addIssue({ code: 'custom', path: ['caches', name, 'lineBytes'], message: `cache ${name}: lines of 16 to 64 bytes are modelled (got ${c.lineBytes})` });
  }
}

export const VfPointSchema = z.strictObject({
  divisor: z.number().int().min(2).max(16),
  freqMHz: z.number().positive(),
  volts: z.number().positive(),
});

export const PowerSchema = z.strictObject({
  coreCapacitanceF: z.number().positive().describe('effective switched capacitance of one core, farads'),
  coreLeakageWPerV: z.number().nonnegative().describe('static power of one core per volt of supply, watts'),
  idleActivity: z.number().min(0).max(1).describe('activity of a core with nothing to run (idle loop)'),
  stallActivity: z.number().min(0).max(1).describe('activity while stalled on memory'),
  waitActivity: z.number().min(0).max(1).describe('activity while spinning on a flag, lock or barrier'),
  meshCapacitanceF: z.number().nonnegative().describe('whole-mesh switched capacitance, farads'),
  meshVolts: z.number().positive(),
  flitEnergyPJ: z.number().nonnegative().describe('energy per flit per link traversal, picojoules'),
  controllerAccessEnergyNJ: z.number().nonnegative().describe('energy per memory transaction, nanojoules'),
  uncoreStaticW: z.number().nonnegative().describe('memory controllers, I/O and other uncontrollable power, watts'),
});


/**
 * A memory controller's DRAM (dram/ddr.ts): 'ddr' models banks with open rows and a data bus
 * from JEDEC timings; 'fixed' books a constant serviceMemCycles per transaction (the lab's
 * earlier model, kept for comparison). Every field is always given (the preset has both
 * models' numbers), so `model` alone switches between them.
 */
export const DramSchema = z
  .strictObject({
    model: z.enum(['ddr', 'fixed']).describe("'ddr': banks, open rows, bus (JEDEC timings); 'fixed': serviceMemCycles per transaction"),
    serviceMemCycles: positiveInt.describe("'fixed' model only: controller occupancy per transaction, memory cycles"),
    banks: positiveInt.max(64).refine(isPowerOfTwo, 'a power of two').describe('banks per controller (one rank; 8 for DDR3 and 1 Gb+ DDR2)'),
    rowBytes: positiveInt.min(32).max(1 << 20).refine(isPowerOfTwo, 'a power of two').describe('row (page) size of the rank, bytes'),
    busBytes: positiveInt.max(64).refine(isPowerOfTwo, 'a power of two').describe('data bus width, bytes per beat (8: a 64-bit channel)'),
    mapping: z.enum(['row:bank:column', 'row:bank-xor:column']).describe('system address -> bank, row, column (dram/ddr.ts)'),
    tCkNs: z.number().positive().describe('clock period tCK, ns (two data beats per tCK)'),
    clNs: z.number().nonnegative().describe('CAS latency CL x tCK (tAA), ns'),
    cwlNs: z.number().nonnegative().describe('CAS write latency CWL x tCK, ns'),
    tRcdNs: z.number().nonnegative().describe('ACT to column command, ns'),
    tRpNs: z.number().nonnegative().describe('precharge period, ns'),
    tRasNs: z.number().nonnegative().describe('ACT to PRE, minimum, ns'),
    tWrNs: z.number().nonnegative().describe('write recovery: end of write data to PRE, ns'),
    tRtpNs: z.number().nonnegative().describe('read command to PRE, ns'),
    tCcdTck: positiveInt.max(16).describe('column command to column command, tCK (DDR3: 4, DDR2: 2)'),
    minBurstBeats: z.union([z.literal(4), z.literal(8)]).describe('shortest burst, beats (DDR3 BC4 and DDR2 BL4: 4)'),
  })
  .describe("a controller's DRAM");

/**
 * Cross-field check of a DDR model against the chip's memory clock: the DRAM's tCK must be the
 * clock the chip runs it at (`tCkNs` = `nsPerTck`, within 1 %), so a changed memory clock
 * never runs with another speed bin's timing silently. The message names both fields and the fix.
 */
export function checkDramClock(dram: z.infer<typeof DramSchema>, memoryMHz: number, nsPerTck: number, what: string, ctx: z.RefinementCtx): void {
  if (dram.model !== 'ddr' || Math.abs(dram.tCkNs / nsPerTck - 1) <= 0.01) return;
  ctx.addIssue({
    code: 'custom',
    path: ['memory', 'dram', 'tCkNs'],
    message: `memory.dram.tCkNs ${dram.tCkNs} ns does not match clocks.memoryMHz ${memoryMHz} (${what}: tCK ${Number(nsPerTck.toFixed(4))} ns); give that speed bin's timings (memory.dram.tCkNs and the CL, tRCD, tRP ns values) or memory.dram.model=fixed`,
  });
}

export type CacheConfig = z.infer<typeof CacheSchema>;
export type DramConfig = z.infer<typeof DramSchema>;
export type PowerConfig = z.infer<typeof PowerSchema>;
export type VfPoint = z.infer<typeof VfPointSchema>;
