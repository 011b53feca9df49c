/**
 * A DDR SDRAM memory controller (DDR3 on the SCC, DDR2 on the TILE64): the DRAM behind each
 * memory controller, a memory-side unit the weave (weave.ts) drives. ZSim style: timing is
 * values, and `access(...)` returns when a transaction's data has gone over the bus.
 *
 * Contract
 * - One rank of `banks` banks per controller, each with an open-row buffer (open-page policy:
 *   a row stays open until another row of its bank is needed), and one data bus per controller
 *   of `busBytes` bytes (a 64-bit channel: 8 B per beat, two beats per tCK).
 * - Address mapping (system address -> bank, row, column), on the controller-local line index
 *   L = line id & 0x0fffffff (32 B lines; a line id is a controller and the line's offset in
 *   that controller's memory, vocabulary.ts):
 *     'row:bank:column'      column = L mod rowLines, bank = (L / rowLines) mod banks,
 *                            row = L / (rowLines x banks): consecutive rows' worth of bytes go to
 *                            consecutive banks, so a sequential stream stays in one row for
 *                            rowBytes and then moves to the next bank;
 *     'row:bank-xor:column'  the same, with the bank XORed with the row's low bits
 *                            (permutation-based interleaving, Zhang, Zhu and Zhang, MICRO-33,
 *                            2000), so buffers that are a multiple of rowBytes x banks apart
 *                            fall in different banks.
 * - Scheduling: first come, first served in the order the weave presents transactions (arrival
 *   time, then core), with bank-level parallelism: a transaction waits only for its own bank
 *   and for a free slot on the data bus. Each bank keeps its open row and when it can next
 *   take a column command (colReady) and a precharge (preReady); the bus is a calendar of
 *   column-command slots (the weave's Calendar, first fit at or after the bank is ready), so a
 *   transaction to an idle bank may use a bus slot before an earlier transaction that waits for
 *   its bank. FR-FCFS (row hits first) would need the whole queue at each decision, which the
 *   weave's one-at-a-time booking does not have; FCFS keeps booking a single deterministic pass.
 * - Costs, from the moment the transaction reaches the controller with its bank and the bus free:
 *     row hit       CAS (CL; CWL for a write) + burst
 *     bank closed   ACT, tRCD, then as a hit
 *     row conflict  PRE (no earlier than tRAS after the row's ACT, tRTP after its last read
 *                   command, tWR after its last write's data), tRP, ACT, tRCD, then as a hit
 *   The zero-load latency a core already charges at issue (the SCC's 46 memory cycles, the
 *   TILE64's DRAM cycles) is defined as a row hit's; `access` returns the completion and the
 *   weave charges only `completion - arrival - zeroLoadPs`, the column command's wait, which is
 *   never negative.
 * - Bursts: a transaction of n bytes moves ceil(n / busBytes) beats, rounded up to the
 *   shortest burst (minBurstBeats: DDR3's burst chop BC4 and DDR2's BL4 are 4 beats); longer
 *   transactions take bursts of up to 8 beats (BL8). Column commands are at least tCCD apart
 *   (DDR3: 4 tCK, so even a BC4 occupies a BL8's 4 tCK slot on the bus). A transaction's bus
 *   slot is max(its bursts' data time, bursts x tCCD): on DDR3 a 32 B line (4 beats) and a
 *   4 B uncached word (1 beat, masked) both take 4 tCK, so per byte a small transaction costs 8x
 *   a line. Partial writes use the data mask (no read-modify-write).
 * - Not modelled (known limits): refresh (tREFI / tRFC, about 1-2 % of the bandwidth), the
 *   command bus, the write-to-read turnaround (tWTR) and CWL vs CL on the shared bus (reads and
 *   writes book the same column slots), tFAW / tRRD between activations of different banks,
 *   more than one rank.
 * - A transaction that arrives before the latest arrival its bank has already served (only a
 *   core lagging behind the previous epoch's bookings, across an epoch boundary) is timed as if
 *   its bank were free at its arrival, with the row outcome of the bank's current row, and
 *   leaves the bank's state alone; the bus calendar still serves it in the first free slot.
 *   This errs towards less waiting, as the calendar does when it is full, instead of making a
 *   late core wait behind the future.
 * Units: ps (integers: the timings are rounded to whole ps once, in resolveDram), bytes, lines.
 * Invariants: the bank state lives in the shared buffer (views.dram) and is written only by
 * the committer's weave, so every worker layout sees the same state and results; `access` is
 * called on every controller transaction: no allocation.
 */
import type { DramConfig } from '../chip-schema';

/** DDR timing of one controller's DRAM, in whole ps (resolved from DramConfig). */
export interface DdrTiming {
  model: 'ddr';
  banks: number;
  bankBits: number;
  /** log2 of the 32 B lines in one row (rowBytes / 32). */
  rowLineShift: number;
  xorBanks: boolean;
  busBytes: number;
  tCkPs: number;
  clPs: number;
  cwlPs: number;
  tRcdPs: number;
  tRpPs: number;
  tRasPs: number;
  tWrPs: number;
  tRtpPs: number;
  tCcdPs: number;
  minBurstBeats: number;
}
/** The fixed-service model: every transaction occupies the controller servicePs (no banks). */
export interface FixedTiming {
  model: 'fixed';
  servicePs: number;
}
export type DramTiming = DdrTiming | FixedTiming;

/** Bank state slots (Float64), BANK_SLOTS per bank, banks per controller in controller order. */
export const BANK = {
  row: 0, // open row + 1; 0 = closed (the shared buffer starts zeroed)
  colReadyPs: 1, // earliest column command to the open row (its ACT + tRCD)
  preReadyPs: 2, // earliest precharge (ACT + tRAS, last read command + tRTP, last write data + tWR)
  lastArrivalPs: 3, // arrival of the latest transaction that changed the bank's state
} as const;
export const BANK_SLOTS = 4;

/** What `access` found at the bank. */
export const ROW_HIT = 0;
export const ROW_CLOSED = 1;
export const ROW_CONFLICT = 2;

/** Mask of a controller-local line index in a line id (bits 27..0, vocabulary.ts). */
export const LOCAL_LINE_MASK = 0x0fffffff;
/** Longest burst (BL8), beats. */
const MAX_BURST_BEATS = 8;
/** Table sizes: a transaction's bytes are 1..255 (the record's 8-bit field). */
const MAX_BEATS = 256;

const ps = (ns: number): number => Math.round(ns * 1000);

/** Resolves a DramConfig (chip-schema.ts) into whole-ps timing; memPeriodPs times the fixed model. */
export function resolveDram(c: DramConfig, memPeriodPs: number): DramTiming {
  if (c.model === 'fixed') return { model: 'fixed', servicePs: c.serviceMemCycles * memPeriodPs };
  const tCkPs = ps(c.tCkNs);
  return {
    model: 'ddr',
    banks: c.banks,
    bankBits: Math.log2(c.banks),
    rowLineShift: Math.log2(c.rowBytes / 32),
    xorBanks: c.mapping === 'row:bank-xor:column',
    busBytes: c.busBytes,
    tCkPs,
    clPs: ps(c.clNs),
    cwlPs: ps(c.cwlNs),
    tRcdPs: ps(c.tRcdNs),
    tRpPs: ps(c.tRpNs),
    tRasPs: ps(c.tRasNs),
    tWrPs: ps(c.tWrNs),
    tRtpPs: ps(c.tRtpNs),
    tCcdPs: c.tCcdTck * tCkPs,
    minBurstBeats: c.minBurstBeats,
  };
}

/** Banks per controller of a DramTiming (0 for the fixed model). */
export function dramBanks(t: DramTiming): number {
  return t.model === 'ddr' ? t.banks : 0;
}

/** Beats a transaction of `bytes` moves on a bus of `busBytes` (at least one). */
export function beatsOf(bytes: number, busBytes: number): number {
  return Math.max(1, Math.ceil(bytes / busBytes));
}

/** Books column-command slots on a controller's data bus (the weave's Calendar). */
export interface CommandBus {
  /** Books `slotPs` at the first free time at or after `earliestPs` on controller m's bus; returns that time. */
  book(m: number, earliestPs: number, slotPs: number): number;
}

export class DdrController {
  readonly t: DdrTiming;
  /** What the last access found: ROW_HIT, ROW_CLOSED or ROW_CONFLICT. */
  outcome = ROW_HIT;
  private readonly state: Float64Array;
  private readonly bus: CommandBus;
  private readonly slotTable: Float64Array; // per beats: bus slot, ps
  private readonly dataTable: Float64Array; // per beats: burst data time, ps

  /** `state`: every controller's bank state (controllers x banks x BANK_SLOTS), e.g. views.dram. */
  constructor(t: DdrTiming, state: Float64Array, bus: CommandBus) {
    this.t = t;
    this.state = state;
    this.bus = bus;
    this.slotTable = new Float64Array(MAX_BEATS);
    this.dataTable = new Float64Array(MAX_BEATS);
    for (let beats = 1; beats < MAX_BEATS; beats++) {
      const min = t.minBurstBeats;
      const burstBeats = Math.ceil(beats / min) * min; // whole short bursts
      const bursts = Math.ceil(burstBeats / MAX_BURST_BEATS);
      const data = (burstBeats / 2) * t.tCkPs; // two beats per tCK
      this.dataTable[beats] = data;
      this.slotTable[beats] = Math.max(data, bursts * t.tCcdPs);
    }
    this.slotTable[0] = this.slotTable[1]!;
    this.dataTable[0] = this.dataTable[1]!;
  }

  /** Bus occupancy of a transaction of `beats` beats, ps. */
  slotPs(beats: number): number {
    return this.slotTable[beats]!;
  }

  /** A row hit's latency with the bank and bus free (CL or CWL + burst): the zero-load time, ps. */
  zeroLoadPs(write: boolean, beats: number): number {
    return (write ? this.t.cwlPs : this.t.clPs) + this.dataTable[beats]!;
  }

  /** The bank of controller-local line `local` (the address mapping). */
  bankOf(local: number): number {
    const t = this.t;
    const rowBank = local >>> t.rowLineShift;
    const bank = rowBank & (t.banks - 1);
    return t.xorBanks ? bank ^ ((rowBank >>> t.bankBits) & (t.banks - 1)) : bank;
  }

  /** The row of controller-local line `local` within its bank. */
  rowOf(local: number): number {
    return local >>> (this.t.rowLineShift + this.t.bankBits);
  }

  /**
   * Serves one transaction that reaches controller m at `arrivalPs`: controller-local line
   * `local`, `beats` beats (1..255), a write or a read. Updates the bank state and books the
   * bus; returns the completion (last data beat), ps. Sets `outcome`.
   * Called on every controller transaction (the weave's booking loop).
   */
  access(m: number, arrivalPs: number, local: number, write: boolean, beats: number): number {
    const t = this.t;
    const s = this.state;
    const row = this.rowOf(local);
    const b = (m * t.banks + this.bankOf(local)) * BANK_SLOTS;
    const open = s[b + BANK.row]! - 1;
    const inOrder = arrivalPs >= s[b + BANK.lastArrivalPs]!;
    let act = -1;
    let col: number;
    if (open === row) {
      this.outcome = ROW_HIT;
      const ready = s[b + BANK.colReadyPs]!;
      col = inOrder && ready > arrivalPs ? ready : arrivalPs;
    } else if (open < 0) {
      this.outcome = ROW_CLOSED;
      act = arrivalPs;
      col = act + t.tRcdPs;
    } else {
      this.outcome = ROW_CONFLICT;
      const ready = s[b + BANK.preReadyPs]!;
      const pre = inOrder && ready > arrivalPs ? ready : arrivalPs;
      act = pre + t.tRpPs;
      col = act + t.tRcdPs;
    }
    const data = this.dataTable[beats]!;
    const start = this.bus.book(m, col, this.slotTable[beats]!);
    if (inOrder) {
      let pre: number;
      if (act >= 0) {
        s[b + BANK.row] = row + 1;
        s[b + BANK.colReadyPs] = act + t.tRcdPs;
        pre = act + t.tRasPs;
      } else pre = s[b + BANK.preReadyPs]!;
      const after = write ? start + t.cwlPs + data + t.tWrPs : start + t.tRtpPs;
      s[b + BANK.preReadyPs] = after > pre ? after : pre;
      s[b + BANK.lastArrivalPs] = arrivalPs;
    }
    return start + (write ? t.cwlPs : t.clPs) + data;
  }
}
