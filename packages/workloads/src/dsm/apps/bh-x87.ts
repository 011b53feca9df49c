/**
 * Pentium II (P6) x87 costs of the fine-grained DSM applications' arithmetic (Barnes-Hut,
 * Water-Spatial; paper 004 line 308: 300 MHz Pentium II nodes).
 *
 * Contract: `core.compute(cycles, instructions)` is charged with these for the arithmetic the
 * simulated loads and stores do not cover. Latencies (doc): Agner Fog, "How to optimize for the
 * Pentium family of microprocessors", P6 (Pentium Pro / II / III) instruction table: FADD/FSUB 3,
 * FMUL 5, FDIV 38, FSQRT 69 cycles (extended precision, the slowest case). A dependent chain costs
 * the sum of its latencies; independent operations beside the chain are hidden (model: the P6
 * issues them out of order). Instruction counts are the operations written (model).
 */

export const FADD = 3;
export const FMUL = 5;
export const FDIV = 38;
export const FSQRT = 69;

/** Integer work of one step of a tree descent (subindex: 3 bit tests, index arithmetic, loop; model). */
export const DESCEND_CYCLES = 8;
export const DESCEND_INSTRUCTIONS = 12;
