/**
 * Contract tests for dram/ddr.ts (DdrController) on the SCC preset's DDR3-800E (tCK 2.5 ns,
 * CL 15, CWL 12.5, tRCD 15, tRP 15, tRAS 37.5, tWR 15, tRTP 10 ns, tCCD 4 tCK, 8 banks, 8 KB
 * rows, 64-bit bus) and the TILE64 preset's DDR2-800:
 * - the address mapping (row:bank:column, and the XOR variant);
 * - a row hit < a closed bank < a row conflict, each exactly CL + burst, + tRCD, + tRP + tRCD;
 * - tRAS, tRTP and tWR hold a precharge back; bank-level parallelism; the bus serialises
 *   column commands (tCCD), and a 4 B word takes a 32 B line's slot on DDR3 (BC4 in a tCCD
 *   slot), less on DDR2 (BL4, tCCD 2);
 * - an arrival before its bank's latest is timed as if the bank were free and leaves the state;
 * - the same sequence gives the same times on a fresh state (determinism).
 */
import { describe, expect, it } from 'vitest';
import { resolveChip } from '../chips/registry';
import { computeLayout } from '../layout';
import { freshState } from '../testing';
import { Calendar } from '../weave';
import { BANK, BANK_SLOTS, DdrController, ROW_CLOSED, ROW_CONFLICT, ROW_HIT, beatsOf, type DdrTiming } from './ddr';

const chip = resolveChip('scc', { memory: { poolBytes: 2 * 128 * 1024 } });
const layout = computeLayout(chip, { wlogCap: 64, txnCap: 64 });
const T = chip.dram as DdrTiming;
const NS = 1000;
const ROW_LINES = 8192 / 32; // 256 lines per row
const BANK_LINES = ROW_LINES * 8; // lines per row of all banks (row:bank:column)

/** The line (controller-local) at column `col` of `row` in `bank` (row:bank:column). */
const lineAt = (bank: number, row: number, col = 0) => row * BANK_LINES + bank * ROW_LINES + col;

function fresh(t: DdrTiming = T) {
  const v = freshState(layout);
  return { v, ddr: new DdrController(t, v.dram, new Calendar(v)) };
}

const LINE = beatsOf(32, 8); // 4 beats
const WORD = beatsOf(4, 8); // 1 beat

describe('DdrController: timings', () => {
  it('resolves the preset: DDR3-800E in whole ps', () => {
    expect(T).toMatchObject({ model: 'ddr', banks: 8, rowLineShift: 8, busBytes: 8, tCkPs: 2500, clPs: 15_000, cwlPs: 12_500, tRcdPs: 15_000, tRpPs: 15_000, tRasPs: 37_500, tWrPs: 15_000, tRtpPs: 10_000, tCcdPs: 10_000, minBurstBeats: 4 });
    const { ddr } = fresh();
    // a 32 B line is a BC4 (4 beats, 2 tCK of data) in a tCCD slot of 4 tCK; a 4 B word the same slot
    expect(ddr.slotPs(LINE)).toBe(10_000);
    expect(ddr.slotPs(WORD)).toBe(10_000);
    expect(ddr.slotPs(beatsOf(64, 8))).toBe(10_000); // BL8
    expect(ddr.slotPs(beatsOf(128, 8))).toBe(20_000); // two BL8
    expect(ddr.zeroLoadPs(false, LINE)).toBe(15_000 + 5_000);
    expect(ddr.zeroLoadPs(true, LINE)).toBe(12_500 + 5_000);
  });

  it('maps lines to banks and rows: row:bank:column, and the XOR variant', () => {
    const { ddr } = fresh();
    expect([ddr.bankOf(0), ddr.rowOf(0)]).toEqual([0, 0]);
    expect([ddr.bankOf(255), ddr.rowOf(255)]).toEqual([0, 0]); // 8 KB of one row
    expect([ddr.bankOf(256), ddr.rowOf(256)]).toEqual([1, 0]); // the next 8 KB: next bank
    expect([ddr.bankOf(lineAt(7, 3, 5)), ddr.rowOf(lineAt(7, 3, 5))]).toEqual([7, 3]);
    expect([ddr.bankOf(2048), ddr.rowOf(2048)]).toEqual([0, 1]); // 64 KB on: bank 0 again, next row
    const xor = fresh({ ...T, xorBanks: true }).ddr;
    expect([xor.bankOf(2048), xor.rowOf(2048)]).toEqual([1, 1]); // bank 0 ^ row 1
    expect([xor.bankOf(lineAt(7, 3)), xor.rowOf(lineAt(7, 3))]).toEqual([4, 3]);
  });

  it('row hit < closed bank < row conflict, with exact latencies', () => {
    const { ddr } = fresh();
    const a = 1_000_000;
    // closed: ACT, tRCD, CL, burst
    expect(ddr.access(0, a, lineAt(2, 5), false, LINE)).toBe(a + 15_000 + 15_000 + 5_000);
    expect(ddr.outcome).toBe(ROW_CLOSED);
    // hit (long after): CL + burst, the zero-load time
    const b = a + 100 * NS;
    expect(ddr.access(0, b, lineAt(2, 5, 9), false, LINE)).toBe(b + ddr.zeroLoadPs(false, LINE));
    expect(ddr.outcome).toBe(ROW_HIT);
    // conflict (tRAS long past): PRE, tRP, ACT, tRCD, CL, burst
    const c = b + 100 * NS;
    expect(ddr.access(0, c, lineAt(2, 6), false, LINE)).toBe(c + 15_000 + 15_000 + 15_000 + 5_000);
    expect(ddr.outcome).toBe(ROW_CONFLICT);
    // the bank's state: the new row is open
    const s = (m: number, bank: number, slot: number) => ddr['state'][(m * 8 + bank) * BANK_SLOTS + slot];
    expect(s(0, 2, BANK.row)).toBe(6 + 1);
    expect(s(0, 2, BANK.colReadyPs)).toBe(c + 30_000);
    expect(s(0, 2, BANK.lastArrivalPs)).toBe(c);
  });

  it('holds a precharge back for tRAS after the ACT and tRTP after a read command', () => {
    const { ddr } = fresh();
    ddr.access(0, 0, lineAt(0, 0), false, LINE); // ACT at 0, read command at 15 ns
    // 1 ns later, another row: PRE at max(ACT + tRAS = 37.5, read + tRTP = 25) = 37.5 ns
    const done = ddr.access(0, 1 * NS, lineAt(0, 1), false, LINE);
    expect(done).toBe(37_500 + 15_000 + 15_000 + 20_000);
    expect(ddr.outcome).toBe(ROW_CONFLICT);
    // a read command late in the row's life: tRTP decides (read at 200 ns: PRE at 210 ns)
    ddr.access(0, 200 * NS, lineAt(0, 1, 1), false, LINE);
    expect(ddr.access(0, 201 * NS, lineAt(0, 2), false, LINE)).toBe(210_000 + 30_000 + 20_000);
  });

  it('holds a precharge back for tWR after a write’s data', () => {
    const { ddr } = fresh();
    ddr.access(0, 0, lineAt(3, 0), false, LINE); // opens the row
    const w = 500 * NS;
    expect(ddr.access(0, w, lineAt(3, 0, 1), true, LINE)).toBe(w + 12_500 + 5_000); // write hit: CWL + burst
    // write data ends at w + 17.5 ns; PRE no earlier than + tWR 15 ns = w + 32.5 ns
    expect(ddr.access(0, w + 1 * NS, lineAt(3, 1), false, LINE)).toBe(w + 32_500 + 30_000 + 20_000);
  });

  it('serves banks in parallel and serialises column commands on the bus (tCCD)', () => {
    const { ddr } = fresh();
    const a = 10 * NS;
    // two closed banks at once: both ACT at a; the second's column command waits a bus slot
    expect(ddr.access(0, a, lineAt(0, 0), false, LINE)).toBe(a + 35_000);
    expect(ddr.access(0, a, lineAt(1, 0), false, LINE)).toBe(a + 45_000);
    // the same bank, another row, at the same time: PRE waits for tRAS
    expect(ddr.access(0, a, lineAt(0, 1), false, LINE)).toBe(a + 37_500 + 30_000 + 20_000);
    // words take a line's slot: 4 hits in one row at the same time finish 10 ns apart
    const b = 1_000 * NS;
    const ends = [0, 1, 2, 3].map((i) => ddr.access(0, b, lineAt(1, 0, i), false, WORD));
    expect(ends.map((e) => e - ends[0]!)).toEqual([0, 10_000, 20_000, 30_000]);
    // controllers are independent
    expect(ddr.access(1, a, lineAt(0, 1), false, LINE)).toBe(a + 35_000);
  });

  it('DDR2 (TILE64 preset): BL4 words take half a BL8 line’s slot (tCCD 2 tCK)', () => {
    const t64 = resolveChip('tile64', {}).dram as DdrTiming;
    expect(t64).toMatchObject({ tCkPs: 2500, clPs: 12_500, tCcdPs: 5_000, tRasPs: 45_000 });
    const ddr = new DdrController(t64, new Float64Array(4 * 8 * BANK_SLOTS), { book: (_m, t) => t });
    expect(ddr.slotPs(beatsOf(64, 8))).toBe(10_000); // a 64 B line: BL8, 4 tCK
    expect(ddr.slotPs(beatsOf(4, 8))).toBe(5_000); // a word: BL4, 2 tCK
  });

  it('times an arrival before its bank’s latest as if the bank were free, and leaves the bank alone', () => {
    const { ddr } = fresh();
    ddr.access(0, 0, lineAt(4, 0), false, LINE);
    ddr.access(0, 10_000 * NS, lineAt(4, 1), false, LINE); // row 1 open, latest arrival at 10 us
    // a lagging core at 5 us, row 0: a conflict with row 1, but no wait for the bank
    const a = 5_000 * NS;
    expect(ddr.access(0, a, lineAt(4, 0, 1), false, LINE)).toBe(a + 30_000 + 20_000);
    expect(ddr.outcome).toBe(ROW_CONFLICT);
    // row 1 still open: the next in-order access hits
    const b = 10_100 * NS;
    expect(ddr.access(0, b, lineAt(4, 1, 1), false, LINE)).toBe(b + 20_000);
    expect(ddr.outcome).toBe(ROW_HIT);
  });

  it('is deterministic: the same sequence gives the same times and state on a fresh state', () => {
    const seq = Array.from({ length: 500 }, (_, i) => ({ m: i % 3, a: ((i * 7919) % 1000) * 5 * NS + i * NS, line: (i * 104_729) % (BANK_LINES * 16), write: i % 5 === 0, beats: i % 7 === 0 ? WORD : LINE }));
    const run = () => {
      const { v, ddr } = fresh();
      const ends = seq.map((x) => ddr.access(x.m, x.a, x.line, x.write, x.beats));
      return { ends, banks: Array.from(v.dram), cal: Array.from(v.cal) };
    };
    const a = run();
    expect(run()).toEqual(a);
    expect(new Set(a.ends).size).toBeGreaterThan(400);
  });
});
