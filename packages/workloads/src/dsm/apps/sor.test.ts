import { describe, expect, it } from 'vitest';
import { runProgram, Simulation, type ClusterCore, type Results } from '@manycore/engine';
import type { CheckResult, DsmApp } from '../api';
import { LocalDsm } from '../local';
import { makeDsmWorkload } from '../workload';
import { workloads } from '../../index';
import { dsmApps } from './index';
import { sor, sorBand, sorChecksum, sorOwnRows, sorProgram, sorProgramBytes, sorReference, sorValidate, sorWidth, type SorAccess, type SorSize } from './sor';
import { runInterleaved, runOnLocal } from './test-helper';

const tiny: SorSize = { rows: 6, cols: 9, steps: 2 };

describe('Red-Black SOR on the sequential runtime', () => {
  it('at small: the shared grid is bit-exact equal to the plain-JavaScript reference (wall time in the report)', () => {
    const r = runOnLocal(sor, sor.sizes.small);
    expect(r.check).toEqual({ correct: true, detail: '258 x 1023 grid bit-exact equal to the sequential run after 4 steps; checksum 136554.95706266316' });
    const ref = sorReference(sor.sizes.small);
    expect(sorChecksum(ref.red, ref.black)).toBe(136554.95706266316);
  });

  it('at a tiny size: golden checksum and values (catches any change of the arithmetic or the initial values)', () => {
    const r = runOnLocal(sor, tiny);
    expect(r.check.correct).toBe(true);
    expect(r.check.detail).toContain('checksum 48.73962616920471');
    const ref = sorReference(tiny);
    expect(sorWidth(tiny)).toBe(5);
    // row 1 (odd) red = columns 1, 3, 5, 7 relaxed twice; the unused slot (column 9) stays 0
    expect(Array.from(ref.red.subarray(5, 10))).toEqual([0.99078369140625, 0.8327407836914062, 0.78961181640625, 0.8660964965820312, 0]);
    // boundary row 0 (red = even columns) stays 1
    expect(Array.from(ref.red.subarray(0, 5))).toEqual([1, 1, 1, 1, 1]);
  });

  it('several processors (interleaved between barriers) give the bit-exact sequential grid, also with more processors than rows', () => {
    expect(runInterleaved(sor, { rows: 18, cols: 9, steps: 2 }, 4, { fine: false })).toEqual({ correct: true, detail: '18 x 9 grid bit-exact equal to the sequential run after 2 steps; checksum 128.5742256641388' });
    expect(runInterleaved(sor, { rows: 5, cols: 7, steps: 3 }, 4, { fine: false }).correct).toBe(true); // 3 interior rows: one band is empty
    expect(sorBand({ rows: 5, cols: 7, steps: 3 }, 0, 4)).toEqual([1, 1]);
  });

  it('the check fails, naming the element, when one shared value differs from the sequential run', () => {
    const r = runOnLocal(sor, tiny, undefined, function* (dsm) {
      // the arrays are the first two allocated: red is id 0
      const addr = yield* dsm.open({ id: 0, name: 'red', count: tiny.rows, objectBytes: 8 * sorWidth(tiny) }, 2, true);
      dsm.core.storeF64(addr + 8 * 2, dsm.core.loadF64(addr + 8 * 2) + 2 ** -40);
    });
    expect(r.check.correct).toBe(false);
    // row 2 (even): red slot 2 is column 4
    const want = sorReference(tiny).red[2 * sorWidth(tiny) + 2]!;
    expect(r.check.detail).toBe(`grid differs from the sequential run: first at processor 0's red row 2 slot 2 (column 4): ${want + 2 ** -40} != sequential ${want}`);
  });

  it('one processor opens every row of its colour once per phase for writing and every row of the other colour once for reading', () => {
    const { counts, check } = runOnLocal(sor, tiny);
    expect(check.correct).toBe(true);
    // init: 6 rows per colour; each step: 4 interior rows written in its phase, 6 rows read in the other phase
    expect(Object.fromEntries(counts.writes)).toEqual({ red: 6 + 2 * 4, black: 6 + 2 * 4 });
    expect(Object.fromEntries(counts.reads)).toEqual({ red: 2 * 6, black: 2 * 6 });
    expect(counts.perObject.get('red')!.get(1)).toBe(1 + 2 + 2);
    expect(counts.perObject.get('red')!.get(0)).toBe(1 + 2);
    expect(counts.barriers).toBe(1 + 2 * 2);
    expect(counts.acquires.size).toBe(0);
  });

  it('processor 1 of 4 opens its own band once per phase and the two boundary rows of its neighbours once per phase, nothing else', () => {
    const size: SorSize = { rows: 18, cols: 9, steps: 2 };
    expect(sorBand(size, 1, 4)).toEqual([5, 9]);
    const { counts } = runOnLocal(sor, size, { me: 1, procs: 4 });
    for (const colour of ['red', 'black']) {
      expect(counts.writes.get(colour)).toBe(4 + 2 * 4);
      expect(counts.reads.get(colour)).toBe(2 * 6);
      const per = counts.perObject.get(colour)!;
      expect([...per.keys()].sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9]);
      expect([4, 5, 6, 7, 8, 9].map((i) => per.get(i))).toEqual([2, 5, 5, 5, 5, 2]);
    }
    expect(counts.barriers).toBe(5);
    expect(counts.polls).toBe(4 + 2 * 2 * 4);
  });

  it('bands cover the interior rows exactly once, in order', () => {
    const size = sor.sizes['paper-sm'];
    const bands = Array.from({ length: 32 }, (_, p) => sorBand(size, p, 32));
    expect(bands[0]![0]).toBe(1);
    expect(bands[31]![1]).toBe(size.rows - 1);
    for (let p = 1; p < 32; p++) expect(bands[p]![0]).toBe(bands[p - 1]![1]);
    expect(sorWidth(size) * 8).toBe(8192); // a colour row of the paper's grid is two whole 4 KB pages
  });

  it('describes sizes and rejects bad ones with a message naming the field', () => {
    expect(sor.describe(sor.sizes['paper-lg'])).toBe('4094 x 2047, 20 steps (red and black arrays of 4094 rows x 1024 doubles)');
    expect(sor.locks(sor.sizes.small, 32)).toBe(0);
    expect(() => sorReference({ rows: 2, cols: 9, steps: 1 })).toThrow('sor: rows must be an integer >= 3, got 2');
    expect(() => sorReference({ rows: 5, cols: 9, steps: 0.5 })).toThrow('sor: steps must be an integer >= 1, got 0.5');
  });
});

/** One node of cluster-1999 running SOR on the sequential runtime; `loads` / `stores`: the core's own counters at the end of run. */
function runAlone(size: SorSize): { check: CheckResult; loads: number; stores: number } {
  let out: { check: CheckResult; loads: number; stores: number } | undefined;
  runProgram<ClusterCore>({
    preset: 'cluster-1999',
    cores: [0],
    quantumNs: 100_000,
    *program(core) {
      const dsm = new LocalDsm(core, core.privateBase + PROGRAM_BYTES); // the arrays above the program's own variables
      yield* sor.run(dsm, size);
      const loads = core.counter('loads');
      const stores = core.counter('stores');
      out = { check: yield* sor.check(dsm, size), loads, stores };
    },
  });
  return out!;
}
const PROGRAM_BYTES = 1 << 20;

describe('Red-Black SOR without hoisting (paper 004 section 4, Table 7 "nopref.")', () => {
  const size: SorSize = { rows: 10, cols: 17, steps: 3 };
  // relaxed elements: per step and colour, 8 interior rows of 7 or 8 slots (15 per pair of rows): 3 x 2 x 4 x 15
  const relaxed = 3 * 2 * 4 * 15;
  const initElems = 2 * size.rows * sorWidth(size);
  // opens (each one stores the row's address into its pointer or handle entry): init 2 x 10, each phase 8 written + 10 read
  const opens = 2 * 10 + 3 * 2 * (8 + 10);
  const variant = (access: SorAccess): SorSize => sorProgram(size, { hoisting: false, access, programBase: 0x10000000, programBytes: PROGRAM_BYTES });

  it('the array (TreadMarks) and handle (SkidMarks) programs give the bit-exact sequential grid, with 6 and 12 more loads per element, counted by the core', () => {
    const hoisted = runAlone(size);
    expect(hoisted.check.correct).toBe(true);
    const array = runAlone(variant('array'));
    const handle = runAlone(variant('handle'));
    expect(array.check).toEqual(hoisted.check);
    expect(handle.check).toEqual(hoisted.check);
    // array: per relaxed element the 2 globals and 4 row pointers; per initial value the global and the row pointer
    expect(array.loads - hoisted.loads).toBe(6 * relaxed + 2 * initElems);
    // handle: + the 2 pointer arrays' handle entries and the 4 rows' handle entries; per initial value 4
    expect(handle.loads - hoisted.loads).toBe(12 * relaxed + 4 * initElems);
    // stores: the globals, (handle) the pointer arrays' entries and their row OIDs, and one per open
    expect(array.stores - hoisted.stores).toBe(2 + opens);
    expect(handle.stores - hoisted.stores).toBe(2 + 2 + 2 * size.rows + opens);
    expect(sorProgramBytes(variant('handle'))).toBe(32 + 4 * (2 + 20) + 4 * 20);
  });

  it('the un-hoisted program uses the pointers it loads: with its pointer area on top of the grid, the grid stores overwrite them and the next reference goes astray', () => {
    // programBase = the red array's first row: initialising row 0 (boundary values 1.0 = 0x3ff00000 00000000) overwrites the globals
    expect(() => runAlone(sorProgram(size, { hoisting: false, access: 'array', programBase: 0x10000000 + PROGRAM_BYTES, programBytes: PROGRAM_BYTES }))).toThrow(/address 0x0 is outside its private memory/);
  });

  it('rejects an un-hoisted size without room for its pointers, naming what is missing', () => {
    expect(() => sorValidate({ ...size, hoisting: false })).toThrow('sor: without hoisting the program needs programBase (a 32-byte aligned address of private memory for its pointers), got undefined');
    expect(() => sorValidate({ ...size, hoisting: false, access: 'handle', programBase: 0, programBytes: 64 })).toThrow('sor: without hoisting the program\'s pointers need 200 B of private memory (10 rows, access handle), but programBytes is 64');
    expect(sorProgram(size, { hoisting: true, access: 'handle', programBase: 0, programBytes: 0 })).toBe(size);
  });
});

describe('dsm workload: sorHoisting (Table 7) on the cluster', () => {
  const mini: DsmApp<SorSize> = { ...sor, sizes: { ...sor.sizes, small: { rows: 34, cols: 1023, steps: 2 } } };
  const reg = { ...workloads, dsm: makeDsmWorkload({ ...dsmApps, sor: mini as DsmApp }) };
  const run = (params: Record<string, unknown>): Results =>
    new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'sor', ...params } }, seed: 1 }, reg).runInline();
  const PROTOCOL = ['messages', 'bytes', 'overlappedRequests', 'rounds', 'readFaults', 'writeFaults', 'writeNotices', 'diffs', 'twins', 'allocatedPerProcessorBytes', 'check'];
  const protocol = (r: Record<string, unknown>) => Object.fromEntries(PROTOCOL.map((k) => [k, r[k]]));

  it.each(['page', 'object'])('%s runtime on 4 processors: the same protocol and result, more loads and more time without hoisting (more for the handle program)', (runtime) => {
    const pref = run({ runtime, processors: 4 });
    const nopref = run({ runtime, processors: 4, sorHoisting: false });
    const [a, b] = [pref.workload.rows[0]!, nopref.workload.rows[0]!];
    expect(b.correct).toBe(true);
    expect(protocol(b)).toEqual(protocol(a));
    expect(b.sorHoisting).toBe(false);
    expect('sorHoisting' in a).toBe(false);
    // 32 interior rows x 511 or 510 slots x 2 steps x 2 colours = 65,408 relaxed elements; init 34 x 2 x 512
    const relaxed = 2 * 2 * 16 * (511 + 510);
    const perElement = runtime === 'page' ? 6 : 12;
    const extra = nopref.simulated.chip.loads - pref.simulated.chip.loads;
    expect(extra).toBe(perElement * relaxed + (perElement / 3) * 34 * 2 * 512);
    expect(b.timeNs as number).toBeGreaterThan(a.timeNs as number);
  });

  it('rows at paper-lg on 1 processor carry Table 7\'s time for their runtime and variant (here a tiny stand-in for paper-lg)', () => {
    const tinyLg: DsmApp<SorSize> = { ...sor, sizes: { ...sor.sizes, 'paper-lg': { rows: 6, cols: 17, steps: 1 } } };
    const lgReg = { ...workloads, dsm: makeDsmWorkload({ ...dsmApps, sor: tinyLg as DsmApp }) };
    const row = (params: Record<string, unknown>) =>
      new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'sor', size: 'paper-lg', processors: 1, ...params } }, seed: 1 }, lgReg).runInline().workload.rows[0]!;
    const skid = row({ runtime: 'object', sorHoisting: false });
    expect([skid.paperTable, skid.paperTimeNs, skid.correct]).toEqual(['Table 7', 47.47e9, true]);
    expect(skid.timeRatio).toBe(Math.round(((skid.timeNs as number) / 47.47e9) * 1000) / 1000);
    expect(row({ runtime: 'page' }).paperTimeNs).toBe(27.57e9);
  });

  it('refuses sorHoisting = false for another app', () => {
    expect(() => run({ app: 'water-nsq', sorHoisting: false })).toThrow('sorHoisting = false: only app sor has the un-hoisted variant (paper 004 Table 7), not water-nsq');
  });
});

describe("SOR's check: every processor checks the rows it wrote, combined in processor order", () => {
  const mini: SorSize = { rows: 34, cols: 1023, steps: 2 };
  /** SOR whose processors in `bad` change one value of their own band after the run (a wrong grid). */
  const corrupting = (bad: number[]): DsmApp<SorSize> => ({
    ...sor,
    sizes: { ...sor.sizes, small: mini },
    *run(dsm, size) {
      yield* sor.run(dsm, size);
      if (!bad.includes(dsm.me)) return;
      const [from] = sorOwnRows(size, dsm.me, dsm.procs);
      const i = from + 1; // the second row this processor wrote
      const addr = yield* dsm.open({ id: 1, name: 'black', count: size.rows, objectBytes: 8 * sorWidth(size) }, i, true);
      dsm.core.storeF64(addr + 8 * 3, dsm.core.loadF64(addr + 8 * 3) * 2);
    },
  });
  const reg = (app: DsmApp<SorSize>) => ({ ...workloads, dsm: makeDsmWorkload({ ...dsmApps, sor: app as DsmApp }) });
  const run = (app: DsmApp<SorSize>, params: Record<string, unknown>): Results =>
    new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params: { app: 'sor', ...params } }, seed: 1 }, reg(app)).runInline();

  it('own rows cover the grid exactly once (row 0 on the first processor, the last row on the last)', () => {
    expect([0, 1, 2, 3].map((p) => sorOwnRows(mini, p, 4))).toEqual([
      [0, 9],
      [9, 17],
      [17, 25],
      [25, 34],
    ]);
    expect(sorOwnRows(mini, 0, 1)).toEqual([0, 34]);
  });

  it.each(['page', 'object'])('%s runtime, 4 processors: a correct grid gives the whole-grid verdict and the check sends no message', (runtime) => {
    const r = run(corrupting([]), { runtime, processors: 4 });
    const row = r.workload.rows[0]!;
    const ref = sorReference(mini);
    expect(row.correct).toBe(true);
    expect(row.check).toBe(`34 x 1023 grid bit-exact equal to the sequential run after 2 steps; checksum ${sorChecksum(ref.red, ref.black)}`);
    // every message of the run is in the row, plus the last barrier after the check (3 arrivals + 3 departures): the check itself sends none
    const sent = r.simulated.cores.reduce((s, c) => s + c.messagesSent, 0);
    expect(sent).toBe((row.messages as number) + 6);
  });

  it.each(['page', 'object'])('%s runtime, 4 processors: a changed value on processors 1 and 3 makes the run incorrect, naming processor 1\'s element', (runtime) => {
    const good = run(corrupting([]), { runtime, processors: 4 }).workload.rows[0]!;
    const row = run(corrupting([1, 3]), { runtime, processors: 4 }).workload.rows[0]!;
    expect(row.correct).toBe(false);
    const want = sorReference(mini).black[10 * sorWidth(mini) + 3]!;
    // row 10 (even): black slot 3 is column 2 x 3 + 1 = 7
    expect(row.check).toBe(`grid differs from the sequential run: first at processor 1's black row 10 slot 3 (column 7): ${want * 2} != sequential ${want}`);
    expect(row.timeNs).toBeGreaterThan(0);
    expect(good.correct).toBe(true);
  });

  it('interleaved processors: the combined check catches a wrong value on the last processor', () => {
    const bad = corrupting([3]);
    expect(runInterleaved(bad, mini, 4, { fine: false }).detail).toMatch(/^grid differs from the sequential run: first at processor 3's black row 26 slot 3 \(column 7\): /);
    expect(runInterleaved(corrupting([]), mini, 4, { fine: false }).correct).toBe(true);
  });
});
