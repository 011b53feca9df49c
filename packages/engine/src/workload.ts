/**
 * The workload contract. A workload is a generator function run once per participating
 * core (`program(core, params, ctx)`), a zod schema for its parameters (defaults and units
 * in it), the cores it runs on, and an optional `summarize` that turns the rows the cores
 * reported into the final `workload.rows` (run on the driver, deterministic).
 */
import type { z } from 'zod';
import type { ResolvedChip } from './chip';
import type { Core, Row } from './core';
import type { Sim } from './vocabulary';

export interface WorkloadContext {
  chip: ResolvedChip;
  seed: number;
  /** Cores running the program, ascending. */
  participants: readonly number[];
}

export interface WorkloadDef<P = Record<string, unknown>> {
  name: string;
  title: string;
  description: string;
  params: z.ZodType<P>;
  /** Cores that run the program (others idle). Throw WorkloadParamError for impossible params. */
  participants(params: P, chip: ResolvedChip): number[];
  program(core: Core, params: P, ctx: WorkloadContext): Sim<void>;
  summarize?(rows: Row[], params: P, chip: ResolvedChip): Row[];
  /** Workload-specific results besides rows (e.g. checks), deterministic. */
  extra?(rows: Row[], params: P, chip: ResolvedChip): Record<string, unknown>;
}

export type AnyWorkload = WorkloadDef<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type WorkloadRegistry = Record<string, AnyWorkload>;

export class WorkloadParamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkloadParamError';
  }
}
