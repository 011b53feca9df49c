/**
 * Schema parts every chip family shares: caches, voltage/frequency points, the power model's
 * constants. A family's own schema (chips/<family>/schema.ts) composes them; units are in the
 * names, defaults in the presets.
 */
import { z } from 'zod';

const positiveInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();

export const CacheSchema = z.strictObject({
  sizeBytes: positiveInt.describe('capacity in bytes'),
  ways: positiveInt.describe('associativity'),
  lineBytes: z.literal(32).describe('line size in bytes (32 on the SCC, all levels)'),
  hitCycles: nonNegInt.describe('hit latency in core cycles'),
  writePolicy: z.enum(['write-back', 'write-through']),
  allocateOnWrite: z.boolean().describe('false on the SCC: a store miss goes straight to memory'),
});

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

export type CacheConfig = z.infer<typeof CacheSchema>;
export type PowerConfig = z.infer<typeof PowerSchema>;
export type VfPoint = z.infer<typeof VfPointSchema>;
