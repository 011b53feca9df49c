/**
 * The vocabulary of the fidelity report (issue 14): a *reproduction* is one table or figure of
 * a paper, as data. It names the experiments to run, and turns their rows into *cells* (a paper
 * value beside the lab's value, with the ratio and a verdict) and *checks* (a trend the paper's
 * mechanism implies, pass or fail, e.g. "uncached time 8 MB / 1 MB between 6 and 8.5").
 *
 * Pure data and pure functions: nothing here runs a simulation; the CLI's `manycore fidelity`
 * runs the experiments (in order) and hands the results back to `evaluate`. Paper values are
 * the paper's own numbers with their line in ../shared/papers (never adjusted); lab values come
 * from the rows of the runs. Nothing in the engine or the workloads reads these values.
 */
import type { ExperimentInput, Row } from '@manycore/engine';

/** How a lab value compares with the paper's (ratio = lab / paper). */
export type Verdict = 'agrees' | 'within 2x' | 'off' | 'not measured';

/** One paper value beside the lab's. */
export interface Cell {
  /** e.g. "private, D = 1 MB, id" */
  label: string;
  /** the paper's value, in `unit` (null where the paper gives none) */
  paper: number | null;
  /** the lab's value, in `unit` (null where the runs did not give one) */
  lab: number | null;
  unit: string;
  /** lab / paper */
  ratio: number | null;
  verdict: Verdict;
}

/** A trend the mechanism should give (a must-show item), checked on the lab's rows. */
export interface Check {
  label: string;
  pass: boolean;
  /** what the lab gave, in words and numbers */
  lab: string;
  /** what the paper reports or the issue asks, with its source */
  paper: string;
}

/** One run of a reproduction: the experiment and the workload's summary rows. */
export interface RunOutput {
  experiment: ExperimentInput;
  rows: Row[];
  /** the run's results digest (identifies the run exactly) */
  digest: string;
  /** host wall time of the run, ms */
  wallMs: number;
}

export interface Reproduction {
  id: string;
  title: string;
  /** where the paper gives the numbers: "paper 003 lines 4239-4262 (Table I)" */
  source: string;
  /** [mechanistic] trends should follow from the model; [empirical] values are the real chip's quirks */
  kind: 'mechanistic' | 'empirical' | 'both';
  /** the experiments to run, in order */
  experiments: ExperimentInput[];
  /** cells and checks from the runs (runs[i] is experiments[i]) */
  evaluate(runs: RunOutput[]): { cells: Cell[]; checks: Check[] };
  /** the mechanism behind the differences, one or two sentences (shown under the table) */
  mechanism: string;
  /**
   * A relative host-time estimate of one of its experiments (larger runs longer), used only to
   * start the long runs first; never part of a result. Experiments without it start last.
   */
  hostCost?(experiment: ExperimentInput): number;
}

/** A reproduction after its runs. */
export interface ReproductionResult {
  id: string;
  title: string;
  source: string;
  kind: Reproduction['kind'];
  mechanism: string;
  cells: Cell[];
  checks: Check[];
  runs: { workload: string; params: Record<string, unknown>; digest: string; wallMs: number }[];
  wallMs: number;
  /** set when a run failed: the reproduction is reported with the error, the others go on */
  error?: string;
}
