/**
 * Bounds of workload parameter schemas that count cores or name one. They are not chip limits:
 * they only keep the numbers sane; each workload's `participants` checks the chip it runs on
 * and throws a WorkloadParamError naming both numbers (no silent clamping).
 */
export const MAX_CORES = 1 << 20;
/** The highest core number a parameter may name. */
export const MAX_CORE = MAX_CORES - 1;
