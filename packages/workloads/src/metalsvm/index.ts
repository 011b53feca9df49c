/**
 * metalsvm: MetalSVM's Laplace/JOR measurement on the SCC (paper 003 lines 1120-1209, scc.md
 * section 4): `cores` cores iterate JOR over a rows x columns matrix of doubles (the paper's
 * 1024 x 512 is `rows: 1024, columns: 512`; the default is smaller for interactive use), static
 * split of the rows, two arrays swapped by reference each iteration.
 *
 * consistency
 * - 'strong' / 'lazy': the arrays live in shared off-chip memory that every core maps MPBT
 *   (L1 only, write-through, write-combined), under MetalSVM's shared virtual memory (svm.ts:
 *   4 KB pages, mailboxes, IPIs, the ownership vector), with RCCE's linear barrier each
 *   iteration. Each core writes its own rows' initial values, and the pages its rows start on
 *   are its own at the start.
 * - 'message-passing': each core keeps its rows and one halo row above and below in private
 *   memory (L1 and L2), and after each iteration exchanges its edge rows with its neighbours
 *   with non-blocking iRCCE sends and receives over the MPBs (rcce/index.ts), as the paper's
 *   iRCCE variant; no barrier (the exchange synchronises neighbours).
 * controllers: 1 puts the whole matrix on controller 0; 4 splits it into four quarters of rows
 * (both arrays of a quarter together), quarter k on controller k ("statically partitioned to all
 * four MC's", line 1176). Unused by message passing (private memory is at each core's nearest
 * controller).
 *
 * Timed: from an ideal barrier after set-up to the end of the last iteration (its barrier, or
 * its exchange), over all cores. faults and mails count only the timed part. correct: every
 * core's rows of the final array equal a sequential computation of the same iterations, bit for
 * bit (jor.ts reference). Costs: costs.ts (model values, with reasons).
 * Rows (one): {consistency, controllers, cores, timeNs, faults, mails, correct, iterations, matrix}.
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, asScc, type ResolvedChip, type Row, type SccCore, type Sim, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from '../lib/limits';
import { mapUncached } from '../lib/mem';
import { sharedRunOnController } from '../placement';
import { checkRcceChip, Rcce, type RcceRequest } from '../rcce/index';
import { JOR_POINT_CYCLES, JOR_POINT_INSTRUCTIONS } from './costs';
import { blockOf, initialValue, jorPoint, reference } from './jor';
import { MAX_SVM_CORES, SVM_MPB_BYTES, SVM_PAGE_BYTES, Svm } from './svm';

const LUT_PAGE = 1 << 24;

const Params = z.strictObject({
  consistency: z.enum(['strong', 'lazy', 'message-passing']).default('strong').describe('MetalSVM strong consistency, lazy release, or iRCCE message passing'),
  controllers: z.union([z.literal(1), z.literal(4)]).default(1).describe('memory controllers holding the shared matrix: 1 or 4'),
  cores: z.number().int().min(1).max(MAX_CORES).default(8).describe('cores (cores 0 .. cores - 1)'),
  iterations: z.number().int().min(1).max(10_000).default(4).describe('JOR iterations'),
  rows: z.number().int().min(3).max(8192).default(128).describe('matrix rows (the paper: 1024)'),
  columns: z.number().int().min(16).max(4096).default(512).describe('matrix columns, a power of two (the paper: 512, one 4 KB page per row)'),
});
type P = z.infer<typeof Params>;

/** Where the arrays live: rows [k partRows, (k + 1) partRows) of both arrays on controller k. */
interface Geometry {
  rowBytes: number;
  partRows: number;
  partBytes: number; // one array's part
  partBase: number[];
}

function geometry(p: P, chip: ResolvedChip): Geometry {
  const rowBytes = p.columns * 8;
  const partRows = p.rows / p.controllers;
  const partBase: number[] = [];
  for (let k = 0; k < p.controllers; k++) partBase.push(sharedRunOnController(chip, k).addr);
  return { rowBytes, partRows, partBytes: partRows * rowBytes, partBase };
}

function rowAddr(g: Geometry, array: number, r: number): number {
  const k = Math.floor(r / g.partRows);
  return g.partBase[k]! + array * g.partBytes + (r - k * g.partRows) * g.rowBytes;
}

/** The row holding shared address addr. */
function rowAt(g: Geometry, addr: number): number {
  for (let k = g.partBase.length - 1; k >= 0; k--) {
    const off = addr - g.partBase[k]!;
    if (off >= 0) return k * g.partRows + Math.floor((off % g.partBytes) / g.rowBytes);
  }
  throw new Error(`MetalSVM: 0x${addr.toString(16)} is not in the matrix`);
}

function checkParams(p: P, chip: ResolvedChip): void {
  if (p.cores > chip.topo.cores) throw overLimit('cores', p.cores, chip.topo.cores, chipHasCores(chip));
  if ((p.columns & (p.columns - 1)) !== 0) throw new WorkloadParamError(`columns=${p.columns} is not a power of two`, 'columns');
  if (p.cores > p.rows) throw new WorkloadParamError(`cores=${p.cores} but rows=${p.rows}: each core needs at least one row`, 'cores');
  if (p.consistency === 'message-passing') {
    checkRcceChip(chip);
    return;
  }
  if (chip.topo.cores > MAX_SVM_CORES) throw new WorkloadParamError(`MetalSVM's mailboxes here hold at most ${MAX_SVM_CORES} cores, and ${chipHasCores(chip)}`, 'consistency');
  if (chip.mpbBytes / chip.topo.coresPerTile < SVM_MPB_BYTES)
    throw new WorkloadParamError(`MetalSVM needs ${SVM_MPB_BYTES} bytes of MPB per core; this chip has ${chip.mpbBytes / chip.topo.coresPerTile}`, 'consistency');
  if (p.controllers > chip.controllers) throw new WorkloadParamError(`controllers=${p.controllers} but this chip has ${chip.controllers}`, 'controllers');
  if (p.rows % p.controllers !== 0 || ((p.rows / p.controllers) * p.columns * 8) % SVM_PAGE_BYTES !== 0)
    throw new WorkloadParamError(
      `rows=${p.rows} x columns=${p.columns} does not split into ${p.controllers} parts of whole 4 KB pages (rows x columns / controllers must be a multiple of 512)`,
      'rows',
    );
  const part = 2 * (p.rows / p.controllers) * p.columns * 8;
  const room = sharedRunOnController(chip, 0).bytes;
  if (part > room) throw new WorkloadParamError(`rows=${p.rows} x columns=${p.columns}: ${part} bytes per controller exceed the ${room} bytes of shared memory there`, 'rows');
}

/** A row's initial values as bytes. */
function initialRow(r: number, p: P, seed: number, out: Float64Array): Uint8Array {
  for (let c = 0; c < p.columns; c++) out[c] = initialValue(r, c, p.rows, p.columns, seed);
  return new Uint8Array(out.buffer);
}

/** Compares `bytes` read at addr with row r of the reference; true when bit-exact. */
function rowMatches(core: SccCore, addr: number, r: number, ref: Float64Array, p: P, buf: Float64Array): boolean {
  core.readRange(addr, p.columns * 8, new Uint8Array(buf.buffer));
  const want = new Uint32Array(ref.buffer, r * p.columns * 8, p.columns * 2);
  const got = new Uint32Array(buf.buffer);
  for (let i = 0; i < want.length; i++) if (want[i] !== got[i]) return false;
  return true;
}

/**
 * JOR over one row: out[c] from up/mid/down, c in 1..columns-2. Every 4 points (a line of the
 * row), `poll` runs when `due()` says there is something to do (an interrupt, the epoch's end).
 */
function* jorRow(core: SccCore, up: number, mid: number, down: number, out: number, columns: number, due: () => boolean, poll: () => Sim<void>): Sim<void> {
  for (let c = 1; c < columns - 1; c++) {
    const o = 8 * c;
    const v = jorPoint(core.loadF64(up + o), core.loadF64(down + o), core.loadF64(mid + o - 8), core.loadF64(mid + o + 8));
    core.compute(JOR_POINT_CYCLES, JOR_POINT_INSTRUCTIONS);
    core.storeF64(out + o, v);
    if ((c & 3) === 0 && due()) yield* poll();
  }
}

function* svmProgram(core: SccCore, p: P, members: readonly number[], seed: number): Sim<void> {
  const chip = core.chip;
  const n = members.length;
  const rank = members.indexOf(core.id);
  const g = geometry(p, chip);
  const [b0, b1] = blockOf(rank, n, p.rows);
  const lut = asScc(chip).config.lut;
  const vectorBase = chip.sharedBase + (lut.sharedPages - 1) * LUT_PAGE;
  mapUncached(core, vectorBase);
  for (const base of g.partBase) for (let a = base; a < base + 2 * g.partBytes; a += LUT_PAGE) core.mapPage(a, 'mpbt');
  const rangeBase = g.partBase[0]!;
  const rangeBytes = g.partBase[g.partBase.length - 1]! + 2 * g.partBytes - rangeBase;
  const svm = new Svm(core, p.consistency as 'strong' | 'lazy', members, vectorBase);
  // set-up: own rows of both arrays, the vector entries of the pages own rows start on
  const rowBuf = new Float64Array(p.columns);
  const own: number[] = [];
  for (let x = 0; x < 2; x++)
    for (let r = b0; r < b1; r++) {
      core.writeRange(rowAddr(g, x, r), g.rowBytes, initialRow(r, p, seed, rowBuf));
      if (core.due()) yield DUE;
      for (let a = Math.floor(rowAddr(g, x, r) / SVM_PAGE_BYTES) * SVM_PAGE_BYTES; a < rowAddr(g, x, r) + g.rowBytes; a += SVM_PAGE_BYTES) {
        const r0 = rowAt(g, a);
        const page = (a - rangeBase) / SVM_PAGE_BYTES;
        if (r0 >= b0 && r0 < b1 && !own.includes(page)) {
          own.push(page);
          core.store32(vectorBase + 4 * page, core.id);
        }
      }
    }
  core.drainWcb();
  svm.enable(rangeBase, rangeBytes, own);
  yield* core.barrier();
  const t0 = core.now;
  const faults0 = core.counter('readFaults') + core.counter('writeFaults');
  const mails0 = svm.mails;
  const first = Math.max(b0, 1);
  const last = Math.min(b1, p.rows - 1);
  let up = 0;
  let mid = 0;
  let down = 0;
  let out = 0;
  const acquire = function* (): Sim<void> {
    // the hoisted touches of a row; again after an interrupt took a page away
    while (!(svm.allows(up, g.rowBytes, false) && svm.allows(mid, g.rowBytes, false) && svm.allows(down, g.rowBytes, false) && svm.allows(out, g.rowBytes, true))) {
      yield* core.touch(up, g.rowBytes, false);
      yield* core.touch(mid, g.rowBytes, false);
      yield* core.touch(down, g.rowBytes, false);
      yield* core.touch(out, g.rowBytes, true);
    }
  };
  const due = () => svm.pending() || core.due();
  const poll = function* (): Sim<void> {
    if (svm.pending()) {
      yield* svm.serve();
      yield* acquire();
    }
    if (core.due()) yield DUE;
  };
  let old = 0;
  for (let it = 0; it < p.iterations; it++) {
    const nw = 1 - old;
    for (let r = first; r < last; r++) {
      up = rowAddr(g, old, r - 1);
      mid = rowAddr(g, old, r);
      down = rowAddr(g, old, r + 1);
      out = rowAddr(g, nw, r);
      yield* acquire();
      yield* jorRow(core, up, mid, down, out, p.columns, due, poll);
    }
    yield* svm.barrier();
    old = nw;
  }
  const t1 = core.now;
  const faults = core.counter('readFaults') + core.counter('writeFaults') - faults0;
  const mails = svm.mails - mails0;
  // check (untimed), then a barrier that keeps serving until every core has checked
  const ref = reference(p.rows, p.columns, p.iterations, seed);
  let correct = true;
  for (let r = b0; r < b1; r++) {
    const a = rowAddr(g, old, r);
    while (!svm.allows(a, g.rowBytes, false)) yield* core.touch(a, g.rowBytes, false);
    if (!rowMatches(core, a, r, ref, p, rowBuf)) correct = false;
    yield* svm.idle();
  }
  yield* svm.barrier();
  core.report({ core: core.id, startPs: t0, endPs: t1, faults, mails, correct });
}

function* mpProgram(core: SccCore, p: P, members: readonly number[], seed: number): Sim<void> {
  const n = members.length;
  const rank = members.indexOf(core.id);
  const [b0, b1] = blockOf(rank, n, p.rows);
  const rowBytes = p.columns * 8;
  const local = b1 - b0 + 2; // halo above, own rows, halo below
  const base = core.privateBase + (1 << 20);
  const addr = (x: number, r: number) => base + (x * local + (r - b0 + 1)) * rowBytes;
  const rowBuf = new Float64Array(p.columns);
  for (let x = 0; x < 2; x++)
    for (let r = Math.max(b0 - 1, 0); r < Math.min(b1 + 1, p.rows); r++) {
      core.writeRange(addr(x, r), rowBytes, initialRow(r, p, seed, rowBuf));
      if (core.due()) yield DUE;
    }
  const rcce = new Rcce(core, members);
  const upCore = rank > 0 ? members[rank - 1]! : -1;
  const downCore = rank < n - 1 ? members[rank + 1]! : -1;
  yield* core.barrier();
  const t0 = core.now;
  const first = Math.max(b0, 1);
  const last = Math.min(b1, p.rows - 1);
  const due = () => core.due();
  const poll = function* (): Sim<void> {
    yield DUE;
  };
  let old = 0;
  for (let it = 0; it < p.iterations; it++) {
    const nw = 1 - old;
    for (let r = first; r < last; r++) yield* jorRow(core, addr(old, r - 1), addr(old, r), addr(old, r + 1), addr(nw, r), p.columns, due, poll);
    const reqs: RcceRequest[] = [];
    if (upCore >= 0) {
      reqs.push(yield* rcce.isend(addr(nw, b0), rowBytes, upCore));
      reqs.push(rcce.irecv(addr(nw, b0 - 1), rowBytes, upCore));
    }
    if (downCore >= 0) {
      reqs.push(yield* rcce.isend(addr(nw, b1 - 1), rowBytes, downCore));
      reqs.push(rcce.irecv(addr(nw, b1), rowBytes, downCore));
    }
    yield* rcce.waitAll(reqs);
    old = nw;
  }
  const t1 = core.now;
  const ref = reference(p.rows, p.columns, p.iterations, seed);
  let correct = true;
  for (let r = b0; r < b1; r++) if (!rowMatches(core, addr(old, r), r, ref, p, rowBuf)) correct = false;
  core.report({ core: core.id, startPs: t0, endPs: t1, faults: 0, mails: 0, correct });
}

export const metalsvm: WorkloadDef<P> = {
  name: 'metalsvm',
  title: 'MetalSVM: Laplace/JOR under strong, lazy release and message passing',
  description:
    "MetalSVM's shared virtual memory on the SCC (paper 003): Laplace/JOR with page ownership moved by mailboxes and inter-core interrupts (strong), pages lent until the next barrier (lazy release), or rows exchanged over the MPBs with iRCCE; the matrix on one memory controller or four.",
  chart: { x: 'cores', y: 'timeNs', series: 'consistency' },
  params: Params,
  coresParam: { name: 'cores' },
  participants: (p, chip) => {
    checkParams(p, chip);
    return Array.from({ length: p.cores }, (_, i) => i);
  },
  *program(core: SccCore, p: P, ctx) {
    if (p.consistency === 'message-passing') yield* mpProgram(core, p, ctx.participants, ctx.seed);
    else yield* svmProgram(core, p, ctx.participants, ctx.seed);
  },
  summarize(rows: Row[], p: P): Row[] {
    const start = Math.min(...rows.map((r) => r.startPs as number));
    const end = Math.max(...rows.map((r) => r.endPs as number));
    return [
      {
        consistency: p.consistency,
        controllers: p.controllers,
        cores: p.cores,
        timeNs: (end - start) / 1000,
        faults: rows.reduce((a, r) => a + (r.faults as number), 0),
        mails: rows.reduce((a, r) => a + (r.mails as number), 0),
        correct: rows.every((r) => r.correct === true),
        iterations: p.iterations,
        matrix: `${p.rows}x${p.columns}`,
      },
    ];
  },
};
