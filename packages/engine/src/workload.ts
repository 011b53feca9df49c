/**
 * The workload contract. A workload is a generator function run once per participating
 * core (`program(core, params, ctx)`), a zod schema for its parameters (defaults and units
 * in it), the cores it runs on, and an optional `summarize` that turns the rows the cores
 * reported into the final `workload.rows` (run on the driver, deterministic).
 * Parameters are parsed before the chip is resolved, so `chipOverrides` can depend on them.
 */
import type { z } from 'zod';
import type { ResolvedChip } from './chip';
import type { CoreBase, Row } from './core';
import type { Sim } from './vocabulary';
import type { Results } from './results';

export type SimulatedStats = Results['simulated'];
export type SimulatedSeries = Results['series'];

export interface WorkloadContext {
  chip: ResolvedChip;
  seed: number;
  /** Cores running the program, ascending. */
  participants: readonly number[];
}

export interface WorkloadDef<P = Record<string, unknown>, K extends CoreBase = CoreBase> {
  name: string;
  /** Chip families the program runs on (chips/<family>/; default ['scc']): its core is that family's class. */
  families?: readonly string[];
  title: string;
  description: string;
  params: z.ZodType<P>;
  /** Cores that run the program (others idle). Throw WorkloadParamError for impossible params. */
  participants(params: P, chip: ResolvedChip): number[];
  /**
   * The parameter that says how many cores run (`extraCores` more run besides it, e.g. a root
   * or a controller). When the chip changes, an editor makes a value that used every core of
   * the old chip follow the new one, and says so (no silent change of what runs).
   */
  coresParam?: { name: string; extraCores?: number };
  program(core: K, params: P, ctx: WorkloadContext): Sim<void>;
  /**
   * Chip overrides this workload needs (merged over the experiment's own overrides, which win),
   * e.g. a clock divisor that is a workload parameter. `family` is the preset's chip family
   * (a workload that runs on several families gives each the fields its schema knows).
   */
  chipOverrides?(params: P, family: string): Record<string, unknown>;
  /**
   * Final rows from the reported ones; `simulated` is results.simulated (energy, counters),
   * `series` the sampled time series (e.g. windowPowerW for the chip power of a timed window).
   */
  summarize?(rows: Row[], params: P, chip: ResolvedChip, simulated: SimulatedStats, series: SimulatedSeries): Row[];
  /** Workload-specific results besides rows (e.g. checks), deterministic. */
  extra?(rows: Row[], params: P, chip: ResolvedChip, simulated: SimulatedStats, series: SimulatedSeries): Record<string, unknown>;
  /**
   * What to plot of the rows by default (the web lab's results chart; a reader can pick other
   * columns): `x` and `y` are numeric row keys, `series` a key whose values split the rows
   * into one line each, `logX`/`logY` log axes (a byte-size x is drawn in powers of 2).
   * Presentation only: not part of the results or their digest.
   */
  chart?: WorkloadChart;
  /**
   * Protocol bugs on purpose (protocol-bug.ts): each value of the workload's `bug` parameter
   * (a zod enum with default 'none', the correct protocol) with one sentence on what should go
   * wrong; the web and the CLI list and explain them. The mechanism is the workload's code.
   */
  bugs?: Record<string, string>;
}

/** WorkloadDef.chart: the default axes of a workload's results chart. */
export interface WorkloadChart {
  x: string;
  y: string;
  series?: string;
  logX?: boolean;
  logY?: boolean;
}

export type AnyWorkload = WorkloadDef<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type WorkloadRegistry = Record<string, AnyWorkload>;

/**
 * Parameters the chip (or each other) cannot satisfy. `param`: the parameter the problem is
 * about, so an editor shows it beside that field; `fieldMessage`: the words for beside the
 * field (default: the message), e.g. "at most 48: this chip has 48 cores" for the message
 * "cores=1024 but this chip has 48 cores".
 */
export class WorkloadParamError extends Error {
  constructor(
    message: string,
    readonly param?: string,
    readonly fieldMessage?: string,
  ) {
    super(message);
    this.name = 'WorkloadParamError';
  }
}
