/**
 * The vocabulary of the guided experiments (issue 17): one registry used by the web gallery and
 * by `manycore guided`. An entry is data: a title, a summary, what to look for, the experiments
 * to run (one, or a sweep), how to chart their rows together, and, where a paper measured the
 * quantity, the paper's values (taken from the fidelity module, never typed twice).
 */
import type { ExperimentInput } from '@manycore/engine';

export type ParamValue = number | string | boolean;

/** How to draw the rows of all of an entry's runs as one chart. */
export interface ChartHint {
  /** row field (or workload parameter) on the x axis */
  x: string;
  /** row field on the y axis (numbers) */
  y: string;
  /** row field(s) (or parameters) naming the series; several are joined by a space, e.g. "gather original" */
  series?: string | string[];
  logX?: boolean;
  logY?: boolean;
  /** several rows of one run at the same x and series become one point: their mean or maximum */
  aggregate?: 'mean' | 'max';
}

/**
 * A value the paper gives, in the chart's units. With `relativeTo` the paper gives a ratio:
 * `y` is then a factor applied to the lab's own point at (relativeTo.x ?? x, relativeTo.series
 * ?? series), e.g. "the improved channel is 6.25x faster at 16 KB" is y = 1 / 6.25 relative to
 * the original channel's lab point.
 */
export interface PaperPoint {
  x: number | string;
  y: number;
  series?: string;
  /** what the paper says, with its place: "5 ms per step at 2 workers (Table V)" */
  label: string;
  relativeTo?: { x?: number | string; series?: string };
}

export interface PaperValues {
  /** where the paper gives them */
  source: string;
  points?: PaperPoint[];
  /** a row field holding the paper's value for the row's y (the workload reports it; 0 = none) */
  rowField?: string;
  /** a sentence shown with the chart (e.g. a paper value that is not a point, like "the peak is at N = 8") */
  note?: string;
}

export interface GuidedExperiment {
  id: string;
  title: string;
  /** One or two sentences: what the experiment is. */
  summary: string;
  /** where the trend comes from (scc.md sections, papers) */
  source?: string;
  /** Things to watch while it runs and in its results. */
  whatToLookFor: string[];
  /** the experiments to run, in order (one, or a sweep) */
  experiments: ExperimentInput[];
  /** present when `experiments` vary one workload parameter */
  sweep?: { param: string; values: ParamValue[] };
  /** how to chart the rows of all the experiments together */
  chart?: ChartHint;
  /** chip-view metric to select when loading into the lab (an id of the web lab's CORE_METRICS) */
  metric?: string;
  /** simulated ns per wall second to start at when loaded into the lab (entries that ask for an action during the run) */
  speedNsPerS?: number;
  /** the paper's values beside the lab's */
  paper?: PaperValues;
  /** how the entry shows in an embed (the web lab's `?embed=<id>`); default: a sweep's chart (entries of several runs) or the chip view (one run), the first swept parameter as its control */
  embed?: EmbedHint;
}

/**
 * The one control an embed offers: a workload parameter (a sweep's values, or any value the
 * parameter takes), or a voltage island's clock divisor, changed live while the run goes.
 */
export type EmbedControl = { param: string } | { islandDivisor: number };

export interface EmbedHint {
  /** null: no control */
  control?: EmbedControl | null;
  /** what the embed shows: the chip view (default) or, for a sweep, the chart of its points */
  view?: 'chip' | 'chart';
}

export type Params = Record<string, ParamValue>;

export function exp(workload: string, params: Params, chip: { preset: string; overrides?: Record<string, unknown> } = { preset: 'scc' }): ExperimentInput {
  return { version: 1, chip: { preset: chip.preset, overrides: chip.overrides ?? {} }, workload: { name: workload, params } };
}

export function sweep(workload: string, base: Params, param: string, values: ParamValue[]): ExperimentInput[] {
  return values.map((v) => exp(workload, { ...base, [param]: v }));
}
