/**
 * The experiment object: chip preset + overrides, workload + parameters, seed, quantum,
 * stop condition and a timeline of parameter changes at simulated times. One versioned zod
 * schema; it is what the UI edits, what a share link encodes and what the CLI runs.
 * Parsing goes through `parseExperiment`, which migrates older versions first.
 */
import { z } from 'zod';
import { plainIssue } from './issues';

/**
 * Versions: 1 until issue 14; 2 since the memory controllers became a DRAM model
 * (`memory.serviceMemCycles` moved to `memory.dram.serviceMemCycles` under `model: 'fixed'`).
 * Results of any version are those of today's model: a migration keeps what an experiment
 * asked for, not the old model's numbers.
 */
export const EXPERIMENT_VERSION = 2;

export const TimelineEventSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('island-divisor'),
    atNs: z.number().nonnegative().describe('simulated time the change takes effect, ns'),
    island: z.number().int().nonnegative(),
    divisor: z.number().int().min(2).max(16),
  }),
  z.strictObject({
    kind: z.literal('tile-divisor'),
    atNs: z.number().nonnegative(),
    tile: z.number().int().nonnegative(),
    divisor: z.number().int().min(2).max(16),
  }),
]);
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

const paramValue = z.union([z.number(), z.string(), z.boolean()]);

export const ExperimentSchema = z.strictObject({
  version: z.literal(EXPERIMENT_VERSION),
  chip: z.strictObject({
    preset: z.string().min(1),
    overrides: z.record(z.string(), z.unknown()).default({}).describe('partial chip config merged over the preset'),
  }),
  workload: z.strictObject({
    name: z.string().min(1),
    params: z.record(z.string(), paramValue).default({}),
  }),
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  quantumNs: z.number().positive().max(1e6).default(1000).describe('epoch length in simulated ns'),
  sampleIntervalNs: z.number().positive().default(10_000).describe('time-series sampling interval, simulated ns'),
  stop: z
    .strictObject({ maxTimeNs: z.number().positive().optional().describe('stop at this simulated time even if cores still run') })
    .default({}),
  timeline: z.array(TimelineEventSchema).default([]),
});
export type Experiment = z.infer<typeof ExperimentSchema>;
/** An experiment as written by hand, a link or an older lab: any version up to this one (migrated when parsed). */
export type ExperimentInput = Omit<z.input<typeof ExperimentSchema>, 'version'> & { version?: number };

/** Migrations from older versions, keyed by the version they upgrade from. */
const MIGRATIONS: Record<number, (old: Record<string, unknown>) => Record<string, unknown>> = {
  // 1 -> 2: a fixed controller service time overridden in version 1 is the 'fixed' DRAM model now
  1: (old) => {
    const chip = old.chip as { overrides?: unknown } | undefined;
    const memory = (chip?.overrides as { memory?: unknown } | undefined)?.memory;
    if (!memory || typeof memory !== 'object' || Array.isArray(memory) || !('serviceMemCycles' in memory)) return old;
    const { serviceMemCycles, ...rest } = memory as Record<string, unknown>;
    const dram = { ...((rest.dram as Record<string, unknown> | undefined) ?? {}), model: 'fixed', serviceMemCycles };
    return { ...old, chip: { ...chip, overrides: { ...(chip!.overrides as Record<string, unknown>), memory: { ...rest, dram } } } };
  },
};

export class ExperimentError extends Error {
  /**
   * @param fields the problems that concern one field, by its dotted path in the experiment
   * ("seed", "workload.params.cores", "chip.clocks.divisor"): the same words, for an editor to
   * show beside the field (the message has them all, one per line, for the CLI).
   */
  constructor(
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ExperimentError';
  }
}

/** Formats zod issues as "path: message" lines, the messages in plain words (issues.ts). */
export function formatIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((i) => {
      const path = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
      return (path ? path + ': ' : '') + plainIssue(i);
    })
    .join('\n');
}

/** The plain-words messages of zod issues by field path (`prefix` + the issue's path; the first per field). */
export function issueFields(error: z.ZodError, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of error.issues) {
    const path = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
    if (path && out[path] === undefined) out[path] = plainIssue(i);
  }
  return out;
}

/** Parses and migrates an experiment; throws ExperimentError naming every problem. */
export function parseExperiment(input: unknown): Experiment {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ExperimentError('experiment: expected a JSON object');
  let obj = input as Record<string, unknown>;
  const version = obj.version ?? EXPERIMENT_VERSION;
  if (typeof version !== 'number' || !Number.isInteger(version))
    throw new ExperimentError(`experiment.version: expected an integer, got ${JSON.stringify(version)}`);
  if (version > EXPERIMENT_VERSION)
    throw new ExperimentError(
      `experiment.version: ${version} is newer than this lab understands (${EXPERIMENT_VERSION}); update the lab`,
    );
  for (let v = version; v < EXPERIMENT_VERSION; v++) {
    const m = MIGRATIONS[v];
    if (!m) throw new ExperimentError(`experiment.version: no migration from version ${v}`);
    obj = m(obj);
  }
  const parsed = ExperimentSchema.safeParse({ ...obj, version: EXPERIMENT_VERSION });
  if (!parsed.success) throw new ExperimentError(formatIssues(parsed.error, 'experiment'), issueFields(parsed.error));
  return parsed.data;
}

export function defaultExperiment(workload = 'memtest', params: Record<string, number | string | boolean> = {}): Experiment {
  return parseExperiment({ version: EXPERIMENT_VERSION, chip: { preset: 'scc' }, workload: { name: workload, params } });
}
