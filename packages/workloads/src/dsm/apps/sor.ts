/**
 * Red-Black SOR, the coarse-grained DSM application of paper 004 (Table 1: 3070 x 2047 and
 * 4094 x 2047, 20 steps; Table 4; Table 7 for hoisting), written against Dsm (../api.ts).
 *
 * Contract
 * - The grid has `rows` x `cols` doubles; the outermost rows and columns are fixed boundary
 *   values, the interior is relaxed `steps` times, each step a red phase then a black phase
 *   (element (i, c) is red when i + c is even). A red element's four neighbours are black and
 *   vice versa, so the result does not depend on the order of the updates within a phase: the
 *   parallel result is bit-exact equal to the sequential one (`reference`).
 * - Data layout (model choice, inferred from Table 4; the TreadMarks sources were not at hand):
 *   two shared arrays, `red` and `black`, each `rows` objects of W = ceil(cols / 2) doubles
 *   (one object = one row of one colour; W = 1024 doubles = 8 KB, two whole pages, at the
 *   paper's 2047 columns). Row i of colour X holds the elements of grid row i whose colour is
 *   X, at slot j <-> column c = 2j + s (s = 0 for red in even rows and black in odd rows, else
 *   1); an unused last slot stays 0. Why: at 32 processors and 20 steps, Table 4's 4,962
 *   overlapped requests are 40 phases x 62 band boundaries x 2 (+2), i.e. each phase every
 *   processor fetches exactly two pages per neighbour, which is one row of the other colour
 *   when a colour row is 8 KB of doubles; one grid row of 2047 doubles would span 4-5 pages,
 *   and 1.5-2 MB per processor (Table 4's memory) is 96-128 rows x 2 colours x 8 KB.
 * - Initial values (model choice, not found in the sources at hand): boundary elements 1.0,
 *   interior ((31 i + 17 c) mod 64) / 64, so that every interior element changes every phase
 *   (Table 4's ~4.7 KB per overlapped request, derived: 23.6 MB / 4,962, says a boundary row's
 *   page diff is nearly the whole page, which a zero interior would not give).
 * - Work split: a static band of interior rows per processor, [1 + floor(p n / P),
 *   1 + floor((p + 1) n / P)) with n = rows - 2; each processor initialises its own band of
 *   both colours (processor 0 also row 0, the last one row rows - 1), then a barrier, then per
 *   step: red phase, barrier, black phase, barrier.
 * - Hoisting (paper 004 lines 160-260, Table 7 "pref."): each row is opened once before its
 *   inner loop (`open` takes the faults, the loop then loads and stores by address). A phase of
 *   colour X opens each own X row once for writing and each row of the other colour it reads
 *   once (own rows plus the two boundary rows of the neighbours, rolling up/mid/down row
 *   addresses down the band; a cached address is never used across a synchronisation).
 *   `dsm.poll()` once per row.
 * - Without hoisting (`hoisting: false`, Table 7 "nopref."; the workload's `sorHoisting`): the
 *   un-optimised loops of paper 004 section 4 (lines 166-176). Every grid reference of the inner
 *   loop reaches its row through the program's pointer structures with real 32-bit loads of the
 *   core, and uses the loaded address: `access: 'array'` (TreadMarks' original program,
 *   `a[i][j]`): the global `a`, then the row pointer `a[i]`; `access: 'handle'` (SkidMarks'
 *   handle program, `a->handle[i]->handle[j]`): the global `a` (the pointer array's OID), its
 *   handle entry `a->handle`, the row's OID `a->handle[i]`, the row's handle entry `->handle`.
 *   Compiler model (the paper names none; a 1999 gcc -O2): these loads cannot move out of the
 *   loop (the grid store may alias them, line 168) but are shared within one iteration (no
 *   store between them): per element 2 globals and 4 row pointers (own i, other i - 1, i, i + 1)
 *   for 'array' (6 loads), and in addition 2 array handle entries and 4 row handle entries for
 *   'handle' (12 loads). The initialisation loop reaches its row the same way (2 or 4 loads per
 *   element). Faults are taken where the hoisted program takes them: `open` at the row's first
 *   access (the un-hoisted loop's first reference faults on the same row; the handle program
 *   then reloads the handle the runtime changed), so the protocol is the hoisted one's.
 *   The program's variables live at `programBase` (each processor's private memory, below the
 *   DSM region: the transports' reserved 1 MB): globals (2 words), then for 'array' the two
 *   row-pointer arrays (rows words each), for 'handle' the handle entries (2 pointer arrays,
 *   then the red rows, the black rows: an OID is its entry's address) and the two pointer
 *   arrays' storage (rows OIDs each). (model) The row's address is stored into its pointer or
 *   handle entry at each open (one store per row opening): for SkidMarks this stands for the
 *   handle update of the fault handler (the lab's runtime keeps its handle table outside
 *   simulated memory), for TreadMarks it rewrites the pointer the real program writes once.
 *   Each processor writes its own copy of the read-only pointer arrays at start (model: in the
 *   paper they are shared, written once and never invalidated; the lab moves no protocol
 *   traffic for them). No extra `compute`: the loads are the extra instructions (x86 addressing
 *   modes do the index arithmetic).
 * - Arithmetic per element: new = old + OMEGA (0.25 (up + down + left + right) - old), OMEGA =
 *   1.25 (model: any 1 < omega < 2 is over-relaxation; the paper gives none). Five loads and a
 *   store are the core's own accesses; the arithmetic is charged as `compute`: 5 x87 adds and
 *   2 multiplies; on the P6 core (Pentium II) FADD and FMUL issue on port 0, FADD one per cycle
 *   and FMUL one per two cycles (Intel Architecture Optimization Reference Manual, P6 family
 *   latency/throughput table, as recalled, not re-checked here), and successive elements are independent, so the out-of-order
 *   core is throughput-bound: 5 + 2 x 2 = 9 cycles per element (model: the dependence chain of
 *   one element, 22 cycles, overlaps with the next ones'); 10 instructions (7 x87 + 3 loop).
 * - Check (the lab's verification, not part of the paper's measurement; the workload runs it
 *   after the end barrier, outside the row's time and counters): every processor compares the
 *   rows it wrote last (`sorOwnRows`: its band, plus row 0 on the first and the last row on the
 *   last processor; together every row once) of both colours with the sequential run, reading
 *   its own copy (no fault, no message: it is the rows' last writer), and `combine` gives the
 *   run's verdict: the first processor (in order) whose rows differ, naming its row, slot and
 *   column, else the whole grid's checksum. Why not processor 0 reading the whole grid through
 *   the DSM (the lab's earlier check): at paper-lg the grid (4094 x 2 x 8 KB = 67 MB) does not fit
 *   the object runtime's 31.75 MB view of local storage (runtime/object.ts: a quarter of the
 *   node's 127 MB region, a lab choice), and a runtime that released storage while reading
 *   would be a protocol the paper does not describe; reading the processors' memory host-side
 *   would bypass the simulated machine. Every value a processor computed from its neighbours'
 *   rows came through the protocol during the run, so a wrong fetch shows in its own rows.
 * Units: bytes, core cycles.
 */
import type { CheckResult, Dsm, DsmApp, DsmCore, SharedArrayDesc, SizeName } from '../api';
import type { Sim } from '@manycore/engine';

/** How the un-hoisted program reaches a row (module comment): TreadMarks' `a[i][j]` or SkidMarks' `a->handle[i]->handle[j]`. */
export type SorAccess = 'array' | 'handle';

export interface SorSize {
  rows: number;
  cols: number;
  steps: number;
  /** Table 7 "pref." (default true); false: the un-optimised loops (module comment). Not part of the result. */
  hoisting?: boolean;
  /** Without hoisting: how a reference reaches its row (default 'array'). */
  access?: SorAccess;
  /** Without hoisting: first byte and size of this processor's private memory for the program's own variables. */
  programBase?: number;
  programBytes?: number;
}

/** The size with the program variant of a run (what the `dsm` workload passes for `sorHoisting`); hoisting keeps the size as it is. */
export function sorProgram(size: SorSize, opts: { hoisting: boolean; access: SorAccess; programBase: number; programBytes: number }): SorSize {
  return opts.hoisting ? size : { ...size, hoisting: false, access: opts.access, programBase: opts.programBase, programBytes: opts.programBytes };
}

/** Scalar double access: a DsmCore in the simulation, ReferenceMemory in plain JavaScript. */
export interface F64Access {
  loadF64(addr: number): number;
  storeF64(addr: number, value: number): void;
}

/** Plain JavaScript memory of doubles addressed in bytes (the reference runs the same kernels on it). */
export class ReferenceMemory implements F64Access {
  readonly f64: Float64Array;
  constructor(bytes: number) {
    this.f64 = new Float64Array(Math.ceil(bytes / 8));
  }
  loadF64(addr: number): number {
    return this.f64[addr >>> 3]!;
  }
  storeF64(addr: number, value: number): void {
    this.f64[addr >>> 3] = value;
  }
}

export const OMEGA = 1.25;
/** x87 cycles per relaxed element (see the module comment: 5 FADD at 1/cycle + 2 FMUL at 1 per 2 cycles, P6 port 0). */
export const SOR_CYCLES_PER_ELEMENT = 5 * 1 + 2 * 2;
export const SOR_INSTRUCTIONS_PER_ELEMENT = 7 + 3;

const RED = 0;
const BLACK = 1;
const COLOURS = [RED, BLACK] as const;

export function sorValidate(size: SorSize): void {
  const { rows, cols, steps } = size;
  for (const [k, v, min] of [
    ['rows', rows, 3],
    ['cols', cols, 3],
    ['steps', steps, 1],
  ] as const)
    if (!Number.isInteger(v) || v < min) throw new Error(`sor: ${k} must be an integer >= ${min}, got ${String(v)}`);
  if (size.hoisting === false) {
    if (size.access !== undefined && size.access !== 'array' && size.access !== 'handle') throw new Error(`sor: access must be 'array' or 'handle', got ${String(size.access)}`);
    const need = sorProgramBytes(size);
    if (size.programBase === undefined || !Number.isInteger(size.programBase) || size.programBase % 32 !== 0)
      throw new Error(`sor: without hoisting the program needs programBase (a 32-byte aligned address of private memory for its pointers), got ${String(size.programBase)}`);
    if (size.programBytes === undefined || size.programBytes < need)
      throw new Error(`sor: without hoisting the program's pointers need ${need} B of private memory (${size.rows} rows, access ${size.access ?? 'array'}), but programBytes is ${String(size.programBytes)}`);
  }
}

/** Bytes of the un-hoisted program's own variables (module comment's layout). */
export function sorProgramBytes(size: SorSize): number {
  return 32 + (size.access === 'handle' ? 4 * (2 + 2 * size.rows) + 4 * 2 * size.rows : 4 * 2 * size.rows);
}

/**
 * Where the un-hoisted program's variables are (module comment): `globals` (2 words, by colour),
 * 'array': `ptr` (row-pointer arrays, by colour); 'handle': `handles` (entries: the 2 pointer
 * arrays, then rows of red, rows of black) and `ptr` (the pointer arrays' storage: row OIDs).
 */
interface Chain {
  handles: boolean;
  globals: number;
  ptr: [number, number];
  entries: number;
  rows: number;
}

function chainOf(size: SorSize): Chain {
  const base = size.programBase!;
  const rows = size.rows;
  const handles = size.access === 'handle';
  const entries = base + 32;
  const ptr0 = handles ? entries + 4 * (2 + 2 * rows) : base + 32;
  return { handles, globals: base, ptr: [ptr0, ptr0 + 4 * rows], entries, rows };
}

/** The word the program loads last to find row i of `colour`: its pointer (array) or its handle entry (handle). */
const rowSlot = (c: Chain, colour: number, i: number): number => (c.handles ? c.entries + 4 * (2 + colour * c.rows + i) : c.ptr[colour]! + 4 * i);

/** The program's start-up stores (each processor's own copy): globals, and for 'handle' the pointer arrays' entries and their OIDs. */
function initChain(core: DsmCore, c: Chain): void {
  for (const colour of COLOURS) {
    if (c.handles) {
      core.store32(c.globals + 4 * colour, c.entries + 4 * colour); // a = the pointer array's OID
      core.store32(c.entries + 4 * colour, c.ptr[colour]!); // a->handle = its storage
      for (let i = 0; i < c.rows; i++) core.store32(c.ptr[colour]! + 4 * i, rowSlot(c, colour, i)); // a->handle[i] = the row's OID
    } else core.store32(c.globals + 4 * colour, c.ptr[colour]!); // a = the row-pointer array
  }
}

/** The row's address as the un-hoisted reference computes it: 2 loads ('array') or 4 ('handle'). */
function rowVia(core: DsmCore, c: Chain, colour: number, i: number): number {
  const a = core.load32(c.globals + 4 * colour);
  if (!c.handles) return core.load32(a + 4 * i);
  return core.load32(core.load32(core.load32(a) + 4 * i));
}

/** Doubles per colour row. */
export const sorWidth = (size: SorSize): number => Math.ceil(size.cols / 2);

/** Offset s of colour `colour` in grid row i: slot j is column 2j + s. */
const offsetOf = (colour: number, i: number): number => (colour === RED ? i & 1 : (i + 1) & 1);

/** Initial value of grid element (i, c) (module comment). */
export function sorInitial(size: SorSize, i: number, c: number): number {
  if (i === 0 || i === size.rows - 1 || c === 0 || c === size.cols - 1) return 1;
  return ((31 * i + 17 * c) % 64) / 64;
}

/** Interior rows of processor p of `procs`: [begin, end). */
export function sorBand(size: SorSize, p: number, procs: number): [number, number] {
  const n = size.rows - 2;
  return [1 + Math.floor((p * n) / procs), 1 + Math.floor(((p + 1) * n) / procs)];
}

/** Writes the initial values of row i of `colour` at `addr`; returns the doubles stored. */
function initRow(mem: F64Access, size: SorSize, colour: number, i: number, addr: number): number {
  const w = sorWidth(size);
  const s = offsetOf(colour, i);
  for (let j = 0; j < w; j++) {
    const c = 2 * j + s;
    mem.storeF64(addr + 8 * j, c < size.cols ? sorInitial(size, i, c) : 0);
  }
  return w;
}

/**
 * Relaxes the interior elements of row i of colour X at `out` from the other colour's rows
 * i - 1 (`up`), i (`mid`) and i + 1 (`down`); returns the number of elements updated.
 * Neighbours of slot j: up[j], down[j], mid[j - 1 + s], mid[j + s].
 */
function relaxRow(mem: F64Access, size: SorSize, colour: number, i: number, out: number, up: number, mid: number, down: number): number {
  const s = offsetOf(colour, i);
  const jFrom = s === 0 ? 1 : 0;
  const jTo = Math.floor((size.cols - 2 - s) / 2);
  const left = mid + 8 * (s - 1);
  const right = mid + 8 * s;
  for (let j = jFrom; j <= jTo; j++) {
    const o = out + 8 * j;
    const old = mem.loadF64(o);
    const sum = mem.loadF64(up + 8 * j) + mem.loadF64(down + 8 * j) + (mem.loadF64(left + 8 * j) + mem.loadF64(right + 8 * j));
    mem.storeF64(o, old + OMEGA * (0.25 * sum - old));
  }
  return jTo - jFrom + 1;
}

/**
 * relaxRow without hoisting: every element reaches its four rows through the program's pointers
 * (module comment: 6 loads per element for 'array', 12 for 'handle', shared within the element),
 * then the same loads, arithmetic and store as relaxRow, in the same order (the same result).
 */
function relaxRowChained(core: DsmCore, size: SorSize, colour: number, i: number, c: Chain): number {
  const s = offsetOf(colour, i);
  const jFrom = s === 0 ? 1 : 0;
  const jTo = Math.floor((size.cols - 2 - s) / 2);
  const gOwn = c.globals + 4 * colour;
  const gOther = c.globals + 4 * (1 - colour);
  const di = 4 * i;
  for (let j = jFrom; j <= jTo; j++) {
    let a = core.load32(gOwn);
    let b = core.load32(gOther);
    if (c.handles) {
      a = core.load32(a); // a->handle: the pointer array's storage
      b = core.load32(b);
    }
    let out = core.load32(a + di);
    let up = core.load32(b + di - 4);
    let mid = core.load32(b + di);
    let down = core.load32(b + di + 4);
    if (c.handles) {
      out = core.load32(out); // ->handle: the row's address in its current view
      up = core.load32(up);
      mid = core.load32(mid);
      down = core.load32(down);
    }
    const o = out + 8 * j;
    const old = core.loadF64(o);
    const sum = core.loadF64(up + 8 * j) + core.loadF64(down + 8 * j) + (core.loadF64(mid + 8 * (j - 1 + s)) + core.loadF64(mid + 8 * (j + s)));
    core.storeF64(o, old + OMEGA * (0.25 * sum - old));
  }
  return jTo - jFrom + 1;
}

/** initRow without hoisting: each element's row reached through the pointers (2 or 4 loads). */
function initRowChained(core: DsmCore, size: SorSize, colour: number, i: number, c: Chain): number {
  const w = sorWidth(size);
  const s = offsetOf(colour, i);
  for (let j = 0; j < w; j++) {
    const col = 2 * j + s;
    core.storeF64(rowVia(core, c, colour, i) + 8 * j, col < size.cols ? sorInitial(size, i, col) : 0);
  }
  return w;
}

/** The sequential computation in plain JavaScript: red then black rows, rows x W doubles each. */
export function sorReference(size: SorSize): { red: Float64Array; black: Float64Array } {
  sorValidate(size);
  const w = sorWidth(size);
  const rowBytes = 8 * w;
  const mem = new ReferenceMemory(2 * size.rows * rowBytes);
  const base = [0, size.rows * rowBytes];
  const at = (colour: number, i: number): number => base[colour]! + i * rowBytes;
  for (let i = 0; i < size.rows; i++) for (const colour of COLOURS) initRow(mem, size, colour, i, at(colour, i));
  for (let step = 0; step < size.steps; step++)
    for (const colour of COLOURS) {
      const other = 1 - colour;
      for (let i = 1; i < size.rows - 1; i++) relaxRow(mem, size, colour, i, at(colour, i), at(other, i - 1), at(other, i), at(other, i + 1));
    }
  return { red: mem.f64.slice(0, size.rows * w), black: mem.f64.slice(size.rows * w) };
}

/** Sum of every element of both colours (a golden value; the order is fixed: red rows then black rows). */
export function sorChecksum(red: Float64Array, black: Float64Array): number {
  let sum = 0;
  for (const v of red) sum += v;
  for (const v of black) sum += v;
  return sum;
}

/** The arrays `run` allocated on each processor's Dsm (check, on the same processor after run, opens the same ones). */
const allocated = new WeakMap<Dsm, [SharedArrayDesc, SharedArrayDesc]>();

function arrays(dsm: Dsm, size: SorSize): [SharedArrayDesc, SharedArrayDesc] {
  const rowBytes = 8 * sorWidth(size);
  const a: [SharedArrayDesc, SharedArrayDesc] = [dsm.alloc('red', size.rows, rowBytes), dsm.alloc('black', size.rows, rowBytes)];
  allocated.set(dsm, a);
  return a;
}

function* run(dsm: Dsm, size: SorSize): Sim<void> {
  sorValidate(size);
  const core = dsm.core;
  const colours = arrays(dsm, size);
  const [begin, end] = sorBand(size, dsm.me, dsm.procs);
  const chain = size.hoisting === false ? chainOf(size) : null;
  if (chain) initChain(core, chain);
  /** Opens row i of `colour` (the faults of its first access); without hoisting, its pointer or handle entry gets the address. */
  const openRow = function* (colour: number, i: number, write: boolean): Sim<number> {
    const addr = yield* dsm.open(colours[colour]!, i, write);
    if (chain) core.store32(rowSlot(chain, colour, i), addr);
    return addr;
  };
  const initFrom = dsm.me === 0 ? 0 : begin;
  const initTo = dsm.me === dsm.procs - 1 ? size.rows : end;
  for (let i = initFrom; i < initTo; i++) {
    for (const colour of COLOURS) {
      const addr = yield* openRow(colour, i, true);
      const n = chain ? initRowChained(core, size, colour, i, chain) : initRow(core, size, colour, i, addr);
      core.compute(n, n); // model: one cycle of integer arithmetic per initial value (not timed by the paper)
    }
    yield* dsm.poll();
  }
  yield* dsm.barrier();
  for (let step = 0; step < size.steps; step++) {
    for (const colour of COLOURS) {
      if (begin < end) {
        const other = 1 - colour;
        let up = yield* openRow(other, begin - 1, false);
        let mid = yield* openRow(other, begin, false);
        for (let i = begin; i < end; i++) {
          const down = yield* openRow(other, i + 1, false);
          const out = yield* openRow(colour, i, true);
          const n = chain ? relaxRowChained(core, size, colour, i, chain) : relaxRow(core, size, colour, i, out, up, mid, down);
          core.compute(n * SOR_CYCLES_PER_ELEMENT, n * SOR_INSTRUCTIONS_PER_ELEMENT);
          up = mid;
          mid = down;
          yield* dsm.poll();
        }
      }
      yield* dsm.barrier();
    }
  }
}

const referenceCache = new Map<string, { red: Float64Array; black: Float64Array }>();
function cachedReference(size: SorSize): { red: Float64Array; black: Float64Array } {
  const key = `${size.rows}x${size.cols}x${size.steps}`;
  let r = referenceCache.get(key);
  if (!r) {
    r = sorReference(size);
    referenceCache.clear();
    referenceCache.set(key, r);
  }
  return r;
}

/**
 * Rows processor `me` of `procs` writes last: its band, and the grid's first (last) row on the
 * first (last) processor, as run's initialisation. Over all processors: every row exactly once.
 */
export function sorOwnRows(size: SorSize, me: number, procs: number): [number, number] {
  const [begin, end] = sorBand(size, me, procs);
  return [me === 0 ? 0 : begin, me === procs - 1 ? size.rows : end];
}

/** One processor's check (module comment, "Check"): its own rows of both colours against the sequential run, from its own copy. */
function* check(dsm: Dsm, size: SorSize): Sim<CheckResult> {
  const ref = cachedReference(size);
  const w = sorWidth(size);
  const colours = allocated.get(dsm);
  if (!colours) throw new Error('sor: check runs after run on the same processor (no arrays allocated on this Dsm)');
  const [from, to] = sorOwnRows(size, dsm.me, dsm.procs);
  for (const colour of COLOURS) {
    const name = colour === RED ? 'red' : 'black';
    const want = ref[name];
    for (let i = from; i < to; i++) {
      const addr = yield* dsm.open(colours[colour]!, i, false);
      for (let j = 0; j < w; j++) {
        const v = dsm.core.loadF64(addr + 8 * j);
        if (!Object.is(v, want[i * w + j])) {
          const c = 2 * j + offsetOf(colour, i);
          return { correct: false, detail: `processor ${dsm.me}'s ${name} row ${i} slot ${j} (${c < size.cols ? `column ${c}` : 'unused'}): ${v} != sequential ${want[i * w + j]}` };
        }
      }
      yield* dsm.poll();
    }
  }
  return { correct: true, detail: `processor ${dsm.me}: rows ${from}..${to - 1} of both colours bit-exact equal to the sequential run` };
}

/** The run's verdict from every processor's check (in processor order): the first that differs, else the whole grid's. */
function combine(checks: CheckResult[], size: SorSize): CheckResult {
  if (checks.length === 0) throw new Error('sor: no processor checked the grid');
  const bad = checks.find((c) => !c.correct);
  if (bad) return { correct: false, detail: `grid differs from the sequential run: first at ${bad.detail}` };
  const ref = cachedReference(size); // bit-exact equal to every processor's rows, so its checksum is the grid's
  return { correct: true, detail: `${size.rows} x ${size.cols} grid bit-exact equal to the sequential run after ${size.steps} steps; checksum ${sorChecksum(ref.red, ref.black)}` };
}

export const sor: DsmApp<SorSize> = {
  name: 'sor',
  title: 'Red-Black SOR',
  sizes: {
    // small: one colour row = 512 doubles = one 4 KB page (as the paper's rows are two whole pages)
    small: { rows: 258, cols: 1023, steps: 4 },
    'paper-sm': { rows: 3070, cols: 2047, steps: 20 },
    'paper-lg': { rows: 4094, cols: 2047, steps: 20 },
  } satisfies Record<SizeName, SorSize>,
  describe: (s) => `${s.rows} x ${s.cols}, ${s.steps} steps (red and black arrays of ${s.rows} rows x ${sorWidth(s)} doubles)`,
  locks: () => 0,
  run,
  check,
  combine,
};
