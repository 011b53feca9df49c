/**
 * Units used across the engine.
 *
 * Contract: simulated time is an integer number of picoseconds held in a JS number
 * (exact up to 2^53 ps, about 2.5 hours of simulated time). Clock periods are rounded to
 * whole picoseconds once, when a chip is resolved, so every later sum is an exact
 * integer and identical on every host.
 */
export const PS_PER_NS = 1_000;
export const PS_PER_US = 1_000_000;
export const PS_PER_S = 1e12;

/** Period of a clock in whole picoseconds (1600/3 MHz -> 1875 ps; 1066 MHz -> 938 ps). */
export function periodPsFromMHz(freqMHz: number): number {
  return Math.round(1e6 / freqMHz);
}
