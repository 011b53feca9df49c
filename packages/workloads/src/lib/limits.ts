/**
 * Bounds of workload parameter schemas that count cores or name one. They are not chip limits:
 * they only keep the numbers sane; each workload's `participants` checks the chip it runs on
 * and throws a WorkloadParamError naming both numbers (no silent clamping).
 */
import { WorkloadParamError } from '@manycore/engine';

export const MAX_CORES = 1 << 20;
/** The highest core number a parameter may name. */
export const MAX_CORE = MAX_CORES - 1;

/** "this chip has 48 cores" (what a count of cores is measured against). */
export function chipHasCores(chip: { topo: { cores: number } }): string {
  const n = chip.topo.cores;
  return `this chip has ${n} core${n === 1 ? '' : 's'}`;
}

/**
 * A parameter above what the chip allows: the message names the parameter, its value and why
 * ("cores=1024 but this chip has 48 cores"); beside the field: "at most 48: this chip has 48 cores".
 */
export function overLimit(param: string, value: number, max: number, why: string): WorkloadParamError {
  return new WorkloadParamError(`${param}=${value} but ${why}`, param, `at most ${max}: ${why}`);
}
