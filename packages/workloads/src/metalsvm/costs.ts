/**
 * Software costs of MetalSVM's kernel paths on the SCC's P54C cores, in core cycles, and of the
 * Laplace/JOR point update. Paper 003 (MetalSVM, lines 556-1240) gives no cycle counts for any of
 * them, and no SCC document at hand does: every value here is labelled (model) with its reason.
 * Everything else a fault costs (the mails, the IPI register write, the ownership-vector writes
 * and polls, the write-combine drain, CL1INVMB) is simulated memory traffic of the chip model.
 *
 * Contract: plain numbers, read by the metalsvm workload only; changing one changes only
 * metalsvm results.
 */

/**
 * Page fault: the exception into the MetalSVM kernel, its dispatch to the SVM handler and the
 * IRET back (model: the Pentium's protected-mode exception through an interrupt gate and IRET
 * take some tens of cycles each (Pentium Processor Family Developer's Manual, instruction
 * timings); a bare-metal kernel saves and restores the registers and looks the page up: 300).
 */
export const FAULT_TRAP_CYCLES = 300;

/**
 * Taking an inter-core interrupt: the interrupt gate, reading the GIC's sender status (sccKit
 * 1.4.0, paper 003 lines 851-856) and the IRET (model: as the fault's trap, 300).
 */
export const IPI_ENTRY_CYCLES = 300;

/** Handling one mail in the interrupt handler: decode, look the page up, decide (model: 100). */
export const MAIL_HANDLER_CYCLES = 100;

/**
 * Changing one page-table entry of the core's private page tables and INVLPG of that page
 * (model: a store and the TLB invalidation, 50 cycles).
 */
export const PTE_CHANGE_CYCLES = 50;

/**
 * One JOR point besides its 4 loads and 1 store (which the core model charges): three dependent
 * x87 FADDs and an FMUL at 3 cycles each, plus the loop's index update and branch (model: the
 * Pentium's x87 latencies; 14 cycles, 6 instructions).
 */
export const JOR_POINT_CYCLES = 14;
export const JOR_POINT_INSTRUCTIONS = 6;
