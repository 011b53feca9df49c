/**
 * Helpers every reproduction uses: a cell from a paper value and a lab value (ratio and
 * verdict), and finding the rows of the run whose parameters match. Pure functions.
 *
 * Verdicts (ratio = lab / paper): 'agrees' when 0.8 <= ratio <= 1.25 (within 25 % either way),
 * 'within 2x' when 0.5 <= ratio <= 2, 'off' otherwise; 'not measured' when either side is
 * missing. These bands are the report's reading aid, not a target anything is tuned to.
 */
import type { Row } from '@manycore/engine';
import type { Cell, RunOutput, Verdict } from './types';

export function verdictOf(ratio: number | null): Verdict {
  if (ratio === null || !Number.isFinite(ratio) || ratio <= 0) return 'not measured';
  if (ratio >= 0.8 && ratio <= 1.25) return 'agrees';
  if (ratio >= 0.5 && ratio <= 2) return 'within 2x';
  return 'off';
}

export function cell(label: string, paper: number | null, lab: number | null, unit: string): Cell {
  const ratio = paper !== null && lab !== null && paper !== 0 && Number.isFinite(lab) ? lab / paper : null;
  return { label, paper, lab, unit, ratio, verdict: verdictOf(ratio) };
}

/** True when every key of `want` equals the run's workload parameter. */
function matches(run: RunOutput, workload: string, want: Record<string, unknown>): boolean {
  if (run.experiment.workload.name !== workload) return false;
  const params = (run.experiment.workload.params ?? {}) as Record<string, unknown>;
  return Object.entries(want).every(([k, v]) => params[k] === v);
}

/** The summary rows of the first run of `workload` whose parameters include `want`. */
export function rowsOf(runs: RunOutput[], workload: string, want: Record<string, unknown>): Row[] {
  const run = runs.find((r) => matches(r, workload, want));
  return run ? run.rows : [];
}

/** Field `field` of the first row of the matching run (null when there is none). */
export function valueOf(runs: RunOutput[], workload: string, want: Record<string, unknown>, field: string, rowWhere: Record<string, unknown> = {}): number | null {
  const row = rowsOf(runs, workload, want).find((r) => Object.entries(rowWhere).every(([k, v]) => r[k] === v));
  const v = row?.[field];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** a / b, or null when either is missing or b is zero. */
export function ratioOf(a: number | null, b: number | null): number | null {
  return a !== null && b !== null && b !== 0 ? a / b : null;
}

/** A number for the report's text: 3 significant digits, or "n/a". */
export function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  if (x !== 0 && (Math.abs(x) >= 1e6 || Math.abs(x) < 1e-3)) return x.toExponential(digits - 1);
  return Number(x.toPrecision(digits)).toString();
}
