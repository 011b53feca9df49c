/**
 * Barnes-Hut on DSM (paper 004 Table 1; SPLASH-2 barnes, Woo et al. ISCA 1995): the N-body
 * program the paper ran on TreadMarks and SkidMarks, written against the Dsm interface.
 *
 * Contract
 * - Shared data (one object = one body, cell or leaf; layouts in bh-model.ts): `bodies` (n x
 *   112 B: mass, position, velocity, acceleration, potential, cost, tree links), `cells` and
 *   `leaves` (per-processor pools, procs x maxmycell x 104 B and procs x maxmyleaf x 120 B,
 *   processor p's pool at p x maxmy...), `global` (one 88 B object: root box, min/max, depth).
 * - Each step, as SPLASH-2's stepsystem:
 *   1. processor 0 initialises the root (cell 0), every pool restarts; barrier (Barstart);
 *   2. maketree: each processor inserts its bodies from the root down, reading cells without
 *      locks; a slot is filled (new leaf) or a leaf extended or subdivided (new cell) only under
 *      the lock of the parent cell (CellLock[seqnum mod 2048]), re-reading the slot after the
 *      acquire; new cells and leaves come from the processor's own pool; the tree's depth goes
 *      to `global` under CountLock; barrier (Bartree);
 *   3. hackcofm: each processor computes the mass, centre of mass and cost of the leaves and
 *      cells it created (its mycelltab, myleaftab) from their children, depth by depth from the
 *      deepest, with a barrier after each depth (the last is Barcom). SPLASH-2 waits on each
 *      child's `done` flag instead: a flag read without synchronisation is not defined under
 *      release consistency (the DSM program must synchronise), so the flag spin becomes one
 *      barrier per depth (model);
 *   4. cost zones: each processor walks the tree from the root in child order, taking the bodies
 *      whose cumulative cost falls in [Cavg p, Cavg (p + 1)) (Cavg = root cost / procs), so
 *      bodies change owner from step to step and leave holes in pages (paper 004 lines 466-468);
 *      barrier (Barload: SPLASH-2 has it commented out; kept so no processor writes a body's
 *      cost while another reads it for its zone: an undefined race under release consistency);
 *   5. forces: for each of its bodies, a walk from the root with the opening criterion
 *      tol^2 |dr|^2 < side^2 (tol = 1.0), a leaf opened interacts body by body; the body's
 *      acceleration, potential, cost (interactions) and, after step 0, the velocity correction
 *      are written; barrier (Baraccel, declared in SPLASH-2: keeps a body's position from
 *      moving while others still read it);
 *   6. update: leapfrog advance of its bodies; the extent goes to `global` under CountLock;
 *      barrier (Barpos); processor 0 computes the next root box.
 *   Before the first step processor 0 writes the Plummer bodies (bh-model.ts plummer) and the
 *   root box; bodies start in contiguous blocks (find_my_initial_bodies).
 * - Simplified against SPLASH-2 (access pattern, object sizes and synchronisation kept):
 *   monopole forces only (QUADPOLE off: no quadrupole moments in cells); the cost-zone walk
 *   visits children in index order (SPLASH-2 uses a Peano-Hilbert order table); the `done`
 *   field holds the step's stamp instead of a flag (the per-depth barriers above take the
 *   flag's role; the stamp lets the unlocked descent detect a stale cell or leaf under release
 *   consistency and fetch its creator's interval through the lock that ordered it: loadtree).
 * - An object is (re)opened for writing right before its stores whenever another open or a
 *   poll() came between: a request served there may close this processor's interval (a lock
 *   requested from it, lrc.ts: lazy intervals), write-protecting the page (page runtime) or
 *   moving the object to the read-only view (object runtime), so the next store must fault
 *   again, as it would through the handle or the MMU: hackgrav reads, walks, then opens to
 *   write; addBody, subdivide, loadtree and hackcofm reopen the leaf or cell they write.
 * - Locks: 0..2047 CellLock, 2048 CountLock.
 * - Arithmetic the loads and stores do not cover is charged with core.compute from P6 x87
 *   latencies (bh-x87.ts); dsm.poll() once per node or body visited.
 * - check: processor 0 opens every body and compares position, velocity and acceleration with
 *   bhReference (bh-reference.ts): |lab - reference| <= 1e-9 x the largest reference magnitude
 *   of that quantity. Why: the summation order of a leaf's bodies (and so of every centre of
 *   mass and force sum) depends on the order processors insert them, so results differ in the
 *   last bits with the processor count; over 3 steps such differences stay far below 1e-9, while
 *   any error of the program (a lost body, a stale position) is many orders above it.
 * Units: the program's (G = 1, total mass 1), bytes, core cycles.
 */
import type { Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, DsmCore, SharedArrayDesc } from '../api';
import {
  BODY,
  BODY_BYTES,
  B_ACC,
  B_PHI,
  B_VEL,
  CELL,
  CELL_BYTES,
  C_SUBP,
  DTHF,
  DTIME,
  EPSSQ,
  GLOBAL_BYTES,
  G_DEPTH,
  G_MAX,
  G_MIN,
  G_RMIN,
  G_RSIZE,
  LEAF,
  LEAF_BYTES,
  L_BODYP,
  L_NUMB,
  MAXLOCK,
  MAX_BODIES_PER_LEAF,
  N_CHILD,
  N_COST,
  N_LEVEL,
  N_MASS,
  N_PARENT,
  N_POS,
  N_TYPE,
  ROOT_LEVEL,
  TOLSQ,
  T_DONE,
  T_NEXT,
  T_PREV,
  T_PROC,
  T_SEQ,
  bound,
  cellRef,
  depthOf,
  intcoord,
  isCellRef,
  leafRef,
  plummer,
  pools,
  refIndex,
  subindex,
  type BhSize,
} from './bh-model';
import { bhReference, type BhResult } from './bh-reference';
import { DESCEND_CYCLES, DESCEND_INSTRUCTIONS, FADD, FDIV, FMUL, FSQRT } from './bh-x87';

export type { BhSize } from './bh-model';

export const COUNT_LOCK = MAXLOCK;

/** subdivp: 3 subtractions, r^2 (3 multiplies, 2 adds), tol^2 r^2, compare: the dependent chain FSUB, FMUL, FADD, FADD, FMUL, FCOM (model). */
const SUBDIVP_CYCLES = FADD + FMUL + 2 * FADD + FMUL + FADD;
const SUBDIVP_INSTRUCTIONS = 12;
/** gravsub: r^2 + eps^2, FSQRT, m / r, phi, (m / r) / r^2, 3 multiply-adds into acc: chain FADD, FSQRT, FDIV, FDIV, FMUL, FADD (model). */
const GRAV_CYCLES = FADD + FSQRT + FDIV + FADD + FDIV + FMUL + FADD;
const GRAV_INSTRUCTIONS = 16;
/** A body's coordinates in a body-body term: 3 subtractions and r^2 (chain FSUB, FMUL, FADD, FADD; model). */
const DR_CYCLES = FADD + FMUL + 2 * FADD;
const DR_INSTRUCTIONS = 8;
/** intcoord: 3 x (subtract, divide, multiply, floor) (chain FSUB, FDIV, FMUL, FIST ~ FADD; model). */
const INTCOORD_CYCLES = FADD + FDIV + FMUL + FADD;
const INTCOORD_INSTRUCTIONS = 12;
/** One child in a centre-of-mass sum: m, cost, 3 multiply-adds (chain FMUL, FADD; model). */
const COFM_CHILD_CYCLES = FMUL + FADD;
const COFM_CHILD_INSTRUCTIONS = 9;
/** Closing a centre of mass: 3 divisions (FDIV pipelines poorly on P6: 3 in sequence; model). */
const COFM_CLOSE_CYCLES = 3 * FDIV;
/** Leapfrog advance of one body: 9 multiply-adds in 3 independent chains of FMUL, FADD, FMUL, FADD, FADD, plus min/max compares (model). */
const ADVANCE_CYCLES = 2 * FMUL + 3 * FADD + 6;
const ADVANCE_INSTRUCTIONS = 30;

export const barnesHutSizes = {
  small: { bodies: 1024, steps: 3 },
  'paper-sm': { bodies: 32768, steps: 3 },
  'paper-lg': { bodies: 131072, steps: 3 },
} as const satisfies Record<string, BhSize>;

export interface Arrays {
  bodies: SharedArrayDesc;
  cells: SharedArrayDesc;
  leaves: SharedArrayDesc;
  global: SharedArrayDesc;
}

/** The arrays `run` allocated on each processor's Dsm (check, on processor 0 after run, opens the same ones). */
const allocated = new WeakMap<Dsm, Arrays>();

/** The arrays `run` allocated on this Dsm (tests read the tree through them). */
export function bhArraysOf(dsm: Dsm): Arrays | undefined {
  return allocated.get(dsm);
}

function allocArrays(dsm: Dsm, size: BhSize): { arr: Arrays; maxmycell: number; maxmyleaf: number } {
  const { maxmycell, maxmyleaf } = pools(size.bodies, dsm.procs);
  const arr: Arrays = {
    bodies: dsm.alloc('bodies', size.bodies, BODY_BYTES),
    cells: dsm.alloc('cells', dsm.procs * maxmycell, CELL_BYTES),
    leaves: dsm.alloc('leaves', dsm.procs * maxmyleaf, LEAF_BYTES),
    global: dsm.alloc('global', 1, GLOBAL_BYTES),
  };
  allocated.set(dsm, arr);
  return { arr, maxmycell, maxmyleaf };
}

/** One processor's run: its private state (SPLASH-2's Local[ProcessId]). */
class BhProc {
  private readonly core: DsmCore;
  private readonly me: number;
  private readonly procs: number;
  private readonly n: number;
  private readonly mybody: Int32Array;
  private mynbody = 0;
  private readonly mycells: Int32Array;
  private myncell = 0;
  private readonly myleaves: Int32Array;
  private mynleaf = 0;
  private readonly cellDepth: Int32Array;
  private readonly leafDepth: Int32Array;
  private readonly rmin = new Float64Array(3);
  private rsize = 0;
  /** The inserted body's integer coordinates, and a moved body's in SubdivideLeaf. */
  private readonly xp = new Int32Array(3);
  private readonly xs = new Int32Array(3);
  private readonly moved = new Int32Array(MAX_BODIES_PER_LEAF);
  private readonly stackRef = new Int32Array(512);
  private readonly stackDsq = new Float64Array(512);
  private readonly min = new Float64Array(3);
  private readonly max = new Float64Array(3);
  /** hackcofm's sums for the node being closed: mass, cost, mass-weighted x, y, z (addChild, storeCofm). */
  private readonly cofm = new Float64Array(5);
  private localDepth = 0;
  /** This step's stamp (step + 1), written into the `done` field of every cell and leaf made in the step. */
  private stamp = 0;
  private workMin = 0;
  private workMax = 0;

  constructor(
    private readonly dsm: Dsm,
    private readonly a: Arrays,
    private readonly maxmycell: number,
    private readonly maxmyleaf: number,
  ) {
    this.core = dsm.core;
    this.me = dsm.me;
    this.procs = dsm.procs;
    this.n = a.bodies.count;
    this.mybody = new Int32Array(this.n);
    this.mycells = new Int32Array(maxmycell);
    this.myleaves = new Int32Array(maxmyleaf);
    this.cellDepth = new Int32Array(maxmycell);
    this.leafDepth = new Int32Array(maxmyleaf);
  }

  *run(steps: number): Sim<void> {
    const { dsm, core } = this;
    if (this.me === 0) yield* this.initBodies();
    // find_my_initial_bodies: contiguous blocks
    const per = Math.floor(this.n / this.procs);
    const extra = this.n % this.procs;
    const count = per + (this.me < extra ? 1 : 0);
    const offset = this.me < extra ? count * this.me : (per + 1) * extra + (this.me - extra) * per;
    for (let i = 0; i < count; i++) this.mybody[i] = offset + i;
    this.mynbody = count;
    for (let step = 0; step < steps; step++) {
      this.myncell = 0;
      this.mynleaf = 0;
      this.localDepth = 0;
      this.stamp = step + 1;
      if (this.me === 0) yield* this.makeCell(-1, ROOT_LEVEL); // init_root: cell 0
      yield* dsm.barrier(); // Barstart
      const g = yield* dsm.open(this.a.global, 0, false);
      for (let k = 0; k < 3; k++) this.rmin[k] = core.loadF64(g + G_RMIN + 8 * k);
      this.rsize = core.loadF64(g + G_RSIZE);
      // maketree
      for (let i = 0; i < this.mynbody; i++) {
        yield* this.loadtree(this.mybody[i]!);
        yield* dsm.poll();
      }
      yield* dsm.acquire(COUNT_LOCK);
      const gw = yield* dsm.open(this.a.global, 0, true);
      if (this.localDepth > core.load32(gw + G_DEPTH)) core.store32(gw + G_DEPTH, this.localDepth);
      yield* dsm.release(COUNT_LOCK);
      yield* dsm.barrier(); // Bartree
      yield* this.hackcofm(); // ends with Barcom
      // cost zones
      const root = yield* dsm.open(this.a.cells, 0, false);
      const cavg = core.load32(root + N_COST) / this.procs;
      this.workMin = Math.trunc(cavg * this.me);
      this.workMax = Math.trunc(cavg * (this.me + 1) + (this.me === this.procs - 1 ? 1 : 0));
      this.mynbody = 0;
      yield* this.findMyBodies(cellRef(0), 0);
      yield* dsm.barrier(); // Barload
      for (let i = 0; i < this.mynbody; i++) yield* this.hackgrav(this.mybody[i]!, step);
      yield* dsm.barrier(); // Baraccel
      yield* this.advance();
      yield* dsm.barrier(); // Barpos
      if (this.me === 0) {
        const g0 = yield* dsm.open(this.a.global, 0, true);
        for (let k = 0; k < 3; k++) {
          this.min[k] = core.loadF64(g0 + G_MIN + 8 * k);
          this.max[k] = core.loadF64(g0 + G_MAX + 8 * k);
        }
        yield* this.writeBound(g0);
      }
    }
  }

  /** testdata + setbound on processor 0 (the sequential start of SPLASH-2 barnes). */
  private *initBodies(): Sim<void> {
    const { dsm, core } = this;
    const init = plummer(this.n);
    for (let k = 0; k < 3; k++) {
      this.min[k] = 1e99;
      this.max[k] = -1e99;
    }
    for (let b = 0; b < this.n; b++) {
      const p = yield* dsm.open(this.a.bodies, b, true);
      core.store32(p + N_TYPE, BODY);
      core.store32(p + N_COST, 1);
      core.storeF64(p + N_MASS, init.mass);
      for (let k = 0; k < 3; k++) {
        const x = init.pos[3 * b + k]!;
        core.storeF64(p + N_POS + 8 * k, x);
        core.storeF64(p + B_VEL + 8 * k, init.vel[3 * b + k]!);
        if (x < this.min[k]!) this.min[k] = x;
        if (x > this.max[k]!) this.max[k] = x;
      }
      core.compute(ADVANCE_CYCLES, ADVANCE_INSTRUCTIONS);
      yield* dsm.poll();
    }
    const g = yield* dsm.open(this.a.global, 0, true);
    yield* this.writeBound(g);
  }

  /** The root box from min/max; resets min/max and the depth for the next step (processor 0). */
  private *writeBound(g: number): Sim<void> {
    const core = this.core;
    this.rsize = bound(this.min, this.max, this.rmin);
    for (let k = 0; k < 3; k++) {
      core.storeF64(g + G_RMIN + 8 * k, this.rmin[k]!);
      core.storeF64(g + G_MIN + 8 * k, 1e99);
      core.storeF64(g + G_MAX + 8 * k, -1e99);
    }
    core.storeF64(g + G_RSIZE, this.rsize);
    core.store32(g + G_DEPTH, 0);
    core.compute(4 * FADD + FMUL, 10);
  }

  /** The fields a new cell and a new leaf share, stored in this order: type, no mass, level, parent and child refs, owner, no links, seq, this step's stamp. */
  private initNode(p: number, type: number, level: number, parentRef: number, child: number, seq: number): void {
    const core = this.core;
    core.store32(p + N_TYPE, type);
    core.storeF64(p + N_MASS, 0);
    core.store32(p + N_LEVEL, level);
    core.store32(p + N_PARENT, parentRef);
    core.store32(p + N_CHILD, child);
    core.store32(p + T_PROC, this.me);
    core.store32(p + T_NEXT, 0);
    core.store32(p + T_PREV, 0);
    core.store32(p + T_SEQ, seq);
    core.store32(p + T_DONE, this.stamp);
  }

  private *makeCell(parent: number, level: number): Sim<number> {
    if (this.myncell === this.maxmycell) throw new Error(`barnes-hut: processor ${this.me} needs more than ${this.maxmycell} cells`);
    const c = this.me * this.maxmycell + this.myncell;
    this.mycells[this.myncell++] = c;
    const p = yield* this.dsm.open(this.a.cells, c, true);
    this.initNode(p, CELL, level, parent < 0 ? 0 : cellRef(parent), 0, c);
    for (let i = 0; i < 8; i++) this.core.store32(p + C_SUBP + 4 * i, 0);
    return c;
  }

  private *makeLeaf(parent: number, level: number, kid: number): Sim<number> {
    if (this.mynleaf === this.maxmyleaf) throw new Error(`barnes-hut: processor ${this.me} needs more than ${this.maxmyleaf} leaves`);
    const l = this.me * this.maxmyleaf + this.mynleaf;
    this.myleaves[this.mynleaf++] = l;
    const p = yield* this.dsm.open(this.a.leaves, l, true);
    const core = this.core;
    this.initNode(p, LEAF, level, cellRef(parent), kid, l);
    core.store32(p + L_NUMB, 0);
    for (let i = 0; i < MAX_BODIES_PER_LEAF; i++) core.store32(p + L_BODYP + 4 * i, 0);
    if (depthOf(level) > this.localDepth) this.localDepth = depthOf(level);
    return l;
  }

  /** Appends body b to the open leaf at lp (leaf index l, bodies at `level`). */
  private *addBody(lp: number, l: number, b: number, level: number): Sim<void> {
    const core = this.core;
    const nb = core.load32(lp + L_NUMB);
    const bp = yield* this.dsm.open(this.a.bodies, b, true);
    core.store32(bp + N_PARENT, leafRef(l));
    core.store32(bp + N_LEVEL, level);
    core.store32(bp + N_CHILD, nb);
    const lw = yield* this.dsm.open(this.a.leaves, l, true); // reopened after the body's open (module contract)
    core.store32(lw + L_BODYP + 4 * nb, b + 1);
    core.store32(lw + L_NUMB, nb + 1);
  }

  private *coords(b: number, out: Int32Array): Sim<void> {
    const core = this.core;
    const bp = yield* this.dsm.open(this.a.bodies, b, false);
    const x = core.loadF64(bp + N_POS);
    const y = core.loadF64(bp + N_POS + 8);
    const z = core.loadF64(bp + N_POS + 16);
    core.compute(INTCOORD_CYCLES, INTCOORD_INSTRUCTIONS);
    if (!intcoord(out, x, y, z, this.rmin, this.rsize)) throw new Error(`barnes-hut: body ${b} is outside the root box`);
  }

  /** SPLASH-2 SubdivideLeaf: leaf l (open at lp) under cell `parent` at `level` becomes a cell. */
  private *subdivide(l: number, lp: number, parent: number, level: number): Sim<number> {
    const { core, dsm } = this;
    const nb = core.load32(lp + L_NUMB);
    for (let i = 0; i < nb; i++) {
      this.moved[i] = core.load32(lp + L_BODYP + 4 * i) - 1;
      core.store32(lp + L_BODYP + 4 * i, 0);
    }
    core.store32(lp + L_NUMB, 0);
    const c = yield* this.makeCell(parent, level);
    let cp = yield* dsm.open(this.a.cells, c, true);
    core.store32(cp + N_CHILD, core.load32(lp + N_CHILD));
    const deeper = level >> 1;
    yield* this.coords(this.moved[0]!, this.xs);
    let idx = subindex(this.xs, level);
    cp = yield* dsm.open(this.a.cells, c, true); // reopened after the body's open (module contract)
    core.store32(cp + C_SUBP + 4 * idx, leafRef(l));
    const lw = yield* dsm.open(this.a.leaves, l, true);
    core.store32(lw + N_CHILD, idx);
    core.store32(lw + N_PARENT, cellRef(c));
    core.store32(lw + N_LEVEL, deeper);
    if (depthOf(deeper) > this.localDepth) this.localDepth = depthOf(deeper);
    yield* this.addBody(lw, l, this.moved[0]!, deeper);
    for (let i = 1; i < nb; i++) {
      const p = this.moved[i]!;
      yield* this.coords(p, this.xs);
      idx = subindex(this.xs, level);
      core.compute(DESCEND_CYCLES, DESCEND_INSTRUCTIONS);
      const q = core.load32(cp + C_SUBP + 4 * idx);
      let le: number;
      if (q === 0) {
        le = yield* this.makeLeaf(c, deeper, idx);
        cp = yield* dsm.open(this.a.cells, c, true);
        core.store32(cp + C_SUBP + 4 * idx, leafRef(le));
      } else le = refIndex(q);
      const lep = yield* dsm.open(this.a.leaves, le, true);
      yield* this.addBody(lep, le, p, deeper);
    }
    return c;
  }

  /**
   * SPLASH-2 loadtree: insert body b from the root. Release consistency makes two checks
   * necessary that SPLASH-2 (on coherent hardware) does not have: the slots of a cell are read
   * without its lock, so a page may be stale or newer than the intervals this processor knows of.
   * A cell descended into must carry this step's stamp (else its creator's interval is fetched by
   * taking the lock of the cell it was linked into, which the creator held); a leaf found under
   * the lock of its parent X must carry the stamp and name X as its parent (else it was moved
   * under X by a subdivision done under the lock of X's parent, which is then taken). Both only
   * fetch intervals: on one processor or coherent memory they never fire.
   */
  private *loadtree(b: number): Sim<void> {
    const { core, dsm } = this;
    yield* this.coords(b, this.xp);
    let up = -1;
    let node = 0;
    let cp = yield* dsm.open(this.a.cells, node, false);
    let kid = subindex(this.xp, core.load32(cp + N_LEVEL));
    let l = core.load32(cp + N_LEVEL) >> 1;
    let refreshes = 0;
    for (;;) {
      if (l === 0) throw new Error('barnes-hut: not enough levels in tree');
      core.compute(DESCEND_CYCLES, DESCEND_INSTRUCTIONS);
      let q = core.load32(cp + C_SUBP + 4 * kid);
      if (q === 0) {
        const lock = core.load32(cp + T_SEQ) % MAXLOCK;
        yield* dsm.acquire(lock);
        cp = yield* dsm.open(this.a.cells, node, true);
        let done = false;
        if (core.load32(cp + C_SUBP + 4 * kid) === 0) {
          const le = yield* this.makeLeaf(node, l, kid);
          const lp = yield* dsm.open(this.a.leaves, le, true);
          yield* this.addBody(lp, le, b, l);
          cp = yield* dsm.open(this.a.cells, node, true); // reopened after the leaf's and body's opens (module contract)
          core.store32(cp + C_SUBP + 4 * kid, leafRef(le));
          done = true;
        }
        yield* dsm.release(lock);
        if (done) return;
        cp = yield* dsm.open(this.a.cells, node, false);
        q = core.load32(cp + C_SUBP + 4 * kid);
      }
      if (!isCellRef(q)) {
        const lock = core.load32(cp + T_SEQ) % MAXLOCK;
        yield* dsm.acquire(lock);
        cp = yield* dsm.open(this.a.cells, node, true);
        q = core.load32(cp + C_SUBP + 4 * kid);
        let done = false;
        let stale = false;
        if (!isCellRef(q)) {
          const le = refIndex(q);
          const lp = yield* dsm.open(this.a.leaves, le, true);
          if (core.load32(lp + T_DONE) !== this.stamp || core.load32(lp + N_PARENT) !== cellRef(node)) stale = true;
          else if (core.load32(lp + L_NUMB) === MAX_BODIES_PER_LEAF) {
            const c = yield* this.subdivide(le, lp, node, l);
            cp = yield* dsm.open(this.a.cells, node, true);
            core.store32(cp + C_SUBP + 4 * kid, cellRef(c));
          } else {
            yield* this.addBody(lp, le, b, l);
            done = true;
          }
        }
        yield* dsm.release(lock);
        if (done) return;
        if (stale) {
          if (up < 0 || ++refreshes > 2) throw new Error(`barnes-hut: processor ${this.me}: leaf ${refIndex(q)} under cell ${node} is stale after taking the locks that ordered its writes`);
          yield* this.refresh(up);
          cp = yield* dsm.open(this.a.cells, node, false);
          continue;
        }
        cp = yield* dsm.open(this.a.cells, node, false);
        q = core.load32(cp + C_SUBP + 4 * kid);
      }
      const child = refIndex(q);
      let np = yield* dsm.open(this.a.cells, child, false);
      if (core.load32(np + T_DONE) !== this.stamp) {
        yield* this.refresh(node);
        np = yield* dsm.open(this.a.cells, child, false);
        if (core.load32(np + T_DONE) !== this.stamp) throw new Error(`barnes-hut: processor ${this.me}: cell ${child} is stale after taking the lock of cell ${node}, which its creator held`);
      }
      up = node;
      node = child;
      cp = np;
      refreshes = 0;
      kid = subindex(this.xp, l);
      l >>= 1;
    }
  }

  /** Acquires and releases the lock of `cell`: fetches the write notices of the intervals that held it. */
  private *refresh(cell: number): Sim<void> {
    const p = yield* this.dsm.open(this.a.cells, cell, false);
    const lock = this.core.load32(p + T_SEQ) % MAXLOCK;
    yield* this.dsm.acquire(lock);
    yield* this.dsm.release(lock);
  }

  /** hackcofm by depth (see the module contract); ends with the barrier after depth 0 (Barcom). */
  private *hackcofm(): Sim<void> {
    const { core, dsm } = this;
    for (let i = 0; i < this.mynleaf; i++) {
      const p = yield* dsm.open(this.a.leaves, this.myleaves[i]!, false);
      this.leafDepth[i] = depthOf(core.load32(p + N_LEVEL));
      yield* dsm.poll();
    }
    for (let i = 0; i < this.myncell; i++) {
      const p = yield* dsm.open(this.a.cells, this.mycells[i]!, false);
      this.cellDepth[i] = depthOf(core.load32(p + N_LEVEL));
      yield* dsm.poll();
    }
    const g = yield* dsm.open(this.a.global, 0, false);
    const depth = core.load32(g + G_DEPTH);
    for (let d = depth; d >= 0; d--) {
      for (let i = 0; i < this.mynleaf; i++) {
        if (this.leafDepth[i] !== d) continue;
        const lp = yield* dsm.open(this.a.leaves, this.myleaves[i]!, false);
        const nb = core.load32(lp + L_NUMB);
        this.cofm.fill(0);
        for (let k = 0; k < nb; k++) this.addChild(yield* dsm.open(this.a.bodies, core.load32(lp + L_BODYP + 4 * k) - 1, false));
        this.storeCofm(yield* dsm.open(this.a.leaves, this.myleaves[i]!, true)); // reopened after the children's opens (module contract)
        yield* dsm.poll();
      }
      for (let i = 0; i < this.myncell; i++) {
        if (this.cellDepth[i] !== d) continue;
        const cp = yield* dsm.open(this.a.cells, this.mycells[i]!, false);
        this.cofm.fill(0);
        for (let k = 0; k < 8; k++) {
          const r = core.load32(cp + C_SUBP + 4 * k);
          if (r === 0) continue;
          this.addChild(yield* dsm.open(isCellRef(r) ? this.a.cells : this.a.leaves, refIndex(r), false));
        }
        this.storeCofm(yield* dsm.open(this.a.cells, this.mycells[i]!, true));
        yield* dsm.poll();
      }
      yield* dsm.barrier();
    }
  }

  /** Adds the node at p (a body, leaf or cell) to the sums in this.cofm, in hackcofm's order, its cost charged. */
  private addChild(p: number): void {
    const core = this.core;
    const s = this.cofm;
    const pm = core.loadF64(p + N_MASS);
    s[0] = s[0]! + pm;
    s[1] = s[1]! + core.load32(p + N_COST);
    s[2] = s[2]! + core.loadF64(p + N_POS) * pm;
    s[3] = s[3]! + core.loadF64(p + N_POS + 8) * pm;
    s[4] = s[4]! + core.loadF64(p + N_POS + 16) * pm;
    core.compute(COFM_CHILD_CYCLES, COFM_CHILD_INSTRUCTIONS);
  }

  /** Closes the node at p from the sums in this.cofm: its mass, cost and centre of mass. */
  private storeCofm(p: number): void {
    const core = this.core;
    const s = this.cofm;
    const m = s[0]!;
    const c = s[1]!;
    const x = s[2]!;
    const y = s[3]!;
    const z = s[4]!;
    core.compute(COFM_CLOSE_CYCLES, 6);
    core.storeF64(p + N_MASS, m);
    core.store32(p + N_COST, c);
    core.storeF64(p + N_POS, x / m);
    core.storeF64(p + N_POS + 8, y / m);
    core.storeF64(p + N_POS + 16, z / m);
  }

  /** SPLASH-2 find_my_bodies (children in index order). */
  private *findMyBodies(ref: number, work0: number): Sim<void> {
    const { core, dsm } = this;
    let work = work0;
    yield* dsm.poll();
    if (!isCellRef(ref)) {
      const lp = yield* dsm.open(this.a.leaves, refIndex(ref), false);
      const nb = core.load32(lp + L_NUMB);
      for (let i = 0; i < nb; i++) {
        const b = core.load32(lp + L_BODYP + 4 * i) - 1;
        const bp = yield* dsm.open(this.a.bodies, b, false);
        core.compute(4, 4);
        if (work >= this.workMin - 0.1) this.mybody[this.mynbody++] = b;
        work += core.load32(bp + N_COST);
        if (work >= this.workMax - 0.1) break;
      }
      return;
    }
    const cp = yield* dsm.open(this.a.cells, refIndex(ref), false);
    for (let i = 0; i < 8 && work < this.workMax - 0.1; i++) {
      const q = core.load32(cp + C_SUBP + 4 * i);
      if (q === 0) continue;
      const qp = yield* dsm.open(isCellRef(q) ? this.a.cells : this.a.leaves, refIndex(q), false);
      const qc = core.load32(qp + N_COST);
      core.compute(4, 4);
      if (work + qc >= this.workMin - 0.1) yield* this.findMyBodies(q, work);
      work += qc;
    }
  }

  /** SPLASH-2 ComputeForces for one body: hackgrav (walksub, subdivp, gravsub) and the velocity correction. */
  private *hackgrav(b: number, nstep: number): Sim<void> {
    const { core, dsm } = this;
    // read now, write after the walk: a poll() in the walk may serve a diff request for this
    // body's page and write-protect it again (a page runtime), so the write is opened afresh
    const pr = yield* dsm.open(this.a.bodies, b, false);
    const x0 = core.loadF64(pr + N_POS);
    const y0 = core.loadF64(pr + N_POS + 8);
    const z0 = core.loadF64(pr + N_POS + 16);
    const a1x = core.loadF64(pr + B_ACC);
    const a1y = core.loadF64(pr + B_ACC + 8);
    const a1z = core.loadF64(pr + B_ACC + 16);
    let phi0 = 0;
    let ax = 0;
    let ay = 0;
    let az = 0;
    let terms = 0;
    let sp = 0;
    this.stackRef[sp] = cellRef(0);
    this.stackDsq[sp++] = this.rsize * this.rsize;
    while (sp > 0) {
      sp--;
      const r = this.stackRef[sp]!;
      const dsq = this.stackDsq[sp]!;
      yield* dsm.poll();
      const leaf = !isCellRef(r);
      const np = yield* dsm.open(leaf ? this.a.leaves : this.a.cells, refIndex(r), false);
      const dx = core.loadF64(np + N_POS) - x0;
      const dy = core.loadF64(np + N_POS + 8) - y0;
      const dz = core.loadF64(np + N_POS + 16) - z0;
      const drsq = dx * dx + dy * dy + dz * dz;
      core.compute(SUBDIVP_CYCLES, SUBDIVP_INSTRUCTIONS);
      if (TOLSQ * drsq < dsq) {
        if (!leaf) {
          for (let k = 7; k >= 0; k--) {
            const q = core.load32(np + C_SUBP + 4 * k);
            if (q === 0) continue;
            if (sp === this.stackRef.length) throw new Error('barnes-hut: tree walk stack overflow');
            this.stackRef[sp] = q;
            this.stackDsq[sp++] = dsq / 4.0;
          }
        } else {
          const nb = core.load32(np + L_NUMB);
          for (let k = 0; k < nb; k++) {
            const q = core.load32(np + L_BODYP + 4 * k) - 1;
            if (q === b) continue;
            yield* dsm.poll();
            const qp = yield* dsm.open(this.a.bodies, q, false);
            const ex = core.loadF64(qp + N_POS) - x0;
            const ey = core.loadF64(qp + N_POS + 8) - y0;
            const ez = core.loadF64(qp + N_POS + 16) - z0;
            const m = core.loadF64(qp + N_MASS);
            const d2 = ex * ex + ey * ey + ez * ez + EPSSQ;
            const drabs = Math.sqrt(d2);
            const phii = m / drabs;
            phi0 -= phii;
            const mor3 = phii / d2;
            ax += ex * mor3;
            ay += ey * mor3;
            az += ez * mor3;
            terms++;
            core.compute(DR_CYCLES + GRAV_CYCLES, DR_INSTRUCTIONS + GRAV_INSTRUCTIONS);
          }
        }
      } else {
        const m = core.loadF64(np + N_MASS);
        const d2 = drsq + EPSSQ;
        const drabs = Math.sqrt(d2);
        const phii = m / drabs;
        phi0 -= phii;
        const mor3 = phii / d2;
        ax += dx * mor3;
        ay += dy * mor3;
        az += dz * mor3;
        terms++;
        core.compute(GRAV_CYCLES, GRAV_INSTRUCTIONS);
      }
    }
    const p = yield* dsm.open(this.a.bodies, b, true);
    core.storeF64(p + B_PHI, phi0);
    core.storeF64(p + B_ACC, ax);
    core.storeF64(p + B_ACC + 8, ay);
    core.storeF64(p + B_ACC + 16, az);
    core.store32(p + N_COST, terms);
    if (nstep > 0) {
      core.storeF64(p + B_VEL, core.loadF64(p + B_VEL) + (ax - a1x) * DTHF);
      core.storeF64(p + B_VEL + 8, core.loadF64(p + B_VEL + 8) + (ay - a1y) * DTHF);
      core.storeF64(p + B_VEL + 16, core.loadF64(p + B_VEL + 16) + (az - a1z) * DTHF);
      core.compute(FADD + FMUL + FADD, 9);
    }
  }

  /** Advance my bodies (leapfrog), then fold my extent into `global` under CountLock. */
  private *advance(): Sim<void> {
    const { core, dsm } = this;
    for (let k = 0; k < 3; k++) {
      this.min[k] = 1e99;
      this.max[k] = -1e99;
    }
    for (let i = 0; i < this.mynbody; i++) {
      const p = yield* dsm.open(this.a.bodies, this.mybody[i]!, true);
      for (let k = 0; k < 3; k++) {
        const dvel = core.loadF64(p + B_ACC + 8 * k) * DTHF;
        const vel1 = core.loadF64(p + B_VEL + 8 * k) + dvel;
        const x = core.loadF64(p + N_POS + 8 * k) + vel1 * DTIME;
        core.storeF64(p + N_POS + 8 * k, x);
        core.storeF64(p + B_VEL + 8 * k, vel1 + dvel);
        if (x < this.min[k]!) this.min[k] = x;
        if (x > this.max[k]!) this.max[k] = x;
      }
      core.compute(ADVANCE_CYCLES, ADVANCE_INSTRUCTIONS);
      yield* dsm.poll();
    }
    yield* dsm.acquire(COUNT_LOCK);
    const g = yield* dsm.open(this.a.global, 0, true);
    for (let k = 0; k < 3; k++) {
      if (core.loadF64(g + G_MIN + 8 * k) > this.min[k]!) core.storeF64(g + G_MIN + 8 * k, this.min[k]!);
      if (core.loadF64(g + G_MAX + 8 * k) < this.max[k]!) core.storeF64(g + G_MAX + 8 * k, this.max[k]!);
    }
    yield* dsm.release(COUNT_LOCK);
  }
}

const refCache = new Map<string, BhResult>();
/** The reference result of a size (computed once per size in this process). */
export function bhReferenceCached(size: BhSize): BhResult {
  const key = `${size.bodies}x${size.steps}`;
  let r = refCache.get(key);
  if (!r) {
    r = bhReference(size);
    refCache.set(key, r);
  }
  return r;
}

function validate(size: BhSize): void {
  // 2^17 bodies (paper-lg): 36.6 MB of bodies, cells and leaves; twice as many would not fit a node's 64 MB window (cluster-1999)
  if (!Number.isInteger(size.bodies) || size.bodies < 2 || size.bodies > 1 << 17) throw new Error(`barnes-hut: bodies must be an integer in 2..${1 << 17} (got ${size.bodies})`);
  if (!Number.isInteger(size.steps) || size.steps < 1 || size.steps > 100) throw new Error(`barnes-hut: steps must be an integer in 1..100 (got ${size.steps})`);
}

export const barnesHut: DsmApp<BhSize> = {
  name: 'barnes-hut',
  title: 'Barnes-Hut',
  sizes: barnesHutSizes,
  describe: (size) => `${size.bodies} bodies, ${size.steps} steps`,
  locks: () => MAXLOCK + 1,
  *run(dsm, size) {
    validate(size);
    const { arr, maxmycell, maxmyleaf } = allocArrays(dsm, size);
    yield* new BhProc(dsm, arr, maxmycell, maxmyleaf).run(size.steps);
  },
  *check(dsm, size): Sim<CheckResult> {
    validate(size);
    const ref = bhReferenceCached(size);
    const arr = allocated.get(dsm);
    if (!arr) throw new Error('barnes-hut: check runs after run on the same processor (no arrays allocated on this Dsm)');
    const core = dsm.core;
    const fields: Array<[string, number, Float64Array]> = [
      ['position', N_POS, ref.pos],
      ['velocity', B_VEL, ref.vel],
      ['acceleration', B_ACC, ref.acc],
    ];
    const scale = fields.map(([, , v]) => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0));
    const worst = [0, 0, 0];
    let worstBody = -1;
    for (let b = 0; b < size.bodies; b++) {
      const p = yield* dsm.open(arr.bodies, b, false);
      for (let f = 0; f < 3; f++) {
        const [, off, v] = fields[f]!;
        for (let k = 0; k < 3; k++) {
          const d = Math.abs(core.loadF64(p + off + 8 * k) - v[3 * b + k]!) / scale[f]!;
          if (!(d <= worst[f]!)) {
            worst[f] = Number.isNaN(d) ? Infinity : d;
            worstBody = b;
          }
        }
      }
      yield* dsm.poll();
    }
    const tol = 1e-9;
    const correct = worst.every((w) => w <= tol);
    const parts = fields.map(([name], f) => `${name} ${worst[f]!.toExponential(2)}`).join(', ');
    return {
      correct,
      detail: `${size.bodies} bodies vs the sequential reference: worst |difference| / largest magnitude: ${parts} (tolerance ${tol}${correct ? '' : `; worst body ${worstBody}`})`,
    };
  },
};
