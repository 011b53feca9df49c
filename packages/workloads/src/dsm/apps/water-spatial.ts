/**
 * Water-Spatial on DSM (paper 004 Table 1; SPLASH-2 water-spatial, Woo et al. ISCA 1995): the
 * molecular-dynamics program the paper ran on TreadMarks and SkidMarks, written against Dsm.
 *
 * Contract
 * - Shared data (one object = one molecule or box; ws-model.ts): `molecules` (n x 680 B,
 *   SPLASH-2's link_type: VM, F[9 orders][3 dirs][3 atoms], next_mol, in input (lattice) order,
 *   so a page holds molecules of several processors' boxes), `boxes` (B^3 x 24 B: list head,
 *   coordinates, next box of the same owner), `global` (one 40 B object: virial, kinetic sums
 *   per direction, potential).
 * - Each processor owns a fixed 3-D block of boxes (ws-model partition) and so a fixed set of
 *   molecules (paper 004 line 466). Each step, as SPLASH-2's MDMAIN:
 *   PREDIC + INTRAF on its molecules (Gear predictor over 6 values of the 3 sites; centre of
 *   mass into VM; FORCES cleared); barrier; INTERF: for each own box, for each neighbour box
 *   (27, periodic), for each molecule of that box, for each own molecule of the box, the pair
 *   is tested against the cutoff and, within it, the force added to the OWN molecule only (each
 *   pair is computed by both owners, no locks); the local virial is added to `global` under
 *   InterfVirLock; barrier; CORREC + BNDRY (Gear corrector, periodic wrap) and KINETI, whose
 *   local sums go to `global` under KinetiSumLock; barrier. After the last step, POTENG sums the
 *   potential under PotengSumLock; barrier.
 *   Before the first step processor 0 writes the molecules and the box lists (SPLASH-2's
 *   sequential INITIA); barrier.
 * - Simplified against SPLASH-2 (object sizes, access pattern and synchronisation kept): the
 *   intermolecular force is one Lennard-Jones term between the oxygens (SPC/E parameters)
 *   instead of the 14 site-site terms of the original's potential, applied to the three sites in
 *   proportion to their masses (a rigid translation), and no intramolecular force (INTRAF
 *   computes VM and clears FORCES); a pair within the cutoff is one whose oxygens are. The
 *   compute time charged is that of the original's code (op counts below), so simulated time
 *   stands for the program the paper ran. Molecules keep their boxes for the run (SPLASH-2
 *   relinks one that crosses a box boundary; the paper notes the sets stay fixed, line 466).
 *   The inner pair loop loads the own molecule's oxygen (3 doubles) and link per pair and the
 *   neighbour's VM and three sites (12) once per neighbour (the original loads VM and the three
 *   sites of both per pair: fewer simulated loads of lines already in the cache, to keep the
 *   simulation fast).
 * - Locks: 0 InterfVirLock, 1 KinetiSumLock, 2 PotengSumLock.
 * - dsm.poll() once per molecule visited (per neighbour molecule in INTERF).
 * - check: processor 0 opens every molecule: its 84 doubles must equal the reference's bit for
 *   bit (a molecule's force is summed in an order that does not depend on the processor count);
 *   the global sums (summed under locks in the processors' arrival order) within 1e-9 relative.
 * Units: angstrom, picosecond, amu, bytes, core cycles.
 */
import type { Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, DsmCore, SharedArrayDesc } from '../api';
import { FADD, FDIV, FMUL, FSQRT } from './bh-x87';
import {
  BOX_BYTES,
  CUT2,
  DT,
  FORCES,
  GEAR,
  GLOBAL_BYTES,
  G_KIN,
  G_POT,
  G_VIR,
  KIN_LOCK,
  MASS,
  MOL_BYTES,
  MOL_DOUBLES,
  MTOT,
  M_NEXT,
  NORDER,
  POT_LOCK,
  VIR_LOCK,
  X_COORD,
  X_HEAD,
  X_NEXT,
  fOff,
  geometry,
  lj,
  neighbours,
  partition,
  wrap,
  type Geometry,
  type WsSize,
} from './ws-model';
import { wsInitial, wsReference, type WsResult } from './ws-reference';

export type { WsSize } from './ws-model';

/**
 * One pair test of SPLASH-2's INTERF (model, op counts of the original): 14 site-site differences
 * in each of 3 dimensions (42 FSUB), 42 periodic-boundary tests (FABS, FCOM, branch), 9 squared
 * distances (27 FMUL, 18 FADD) and 9 cutoff compares; independent operations, so throughput-bound
 * on the P6 (an FADD per cycle, an FMUL every 2): 42 + 42 + 54 + 18 + 9 cycles.
 */
const PAIR_TEST_CYCLES = 42 + 42 + 2 * 27 + 18 + 9;
const PAIR_TEST_INSTRUCTIONS = 42 * 3 + 42 * 3 + 27 + 18 + 9 * 2;
/**
 * One interacting pair (model, op counts of the original with all sites within the cutoff): 9
 * FSQRT and 9 FDIV (not pipelined on the P6), 5 exponentials (F2XM1, FSCALE and range reduction,
 * about 100 cycles each: model), UPDATE_FORCES (14 x 3 multiply-adds into FORCES).
 */
const PAIR_FORCE_CYCLES = 9 * FSQRT + 9 * FDIV + 5 * 100 + 42 * (FMUL + FADD);
const PAIR_FORCE_INSTRUCTIONS = 9 + 9 + 5 * 12 + 42 * 3 + 40;
/** PREDIC for one molecule: 9 coordinates x 15 FADD of the Pascal triangle (6 values), chains of 5 (model). */
const PREDIC_CYCLES = 9 * 5 * FADD;
const PREDIC_INSTRUCTIONS = 9 * 15 * 2;
/** INTRAF for one molecule (model, the original's intramolecular potential: 3 distances, 3 FSQRT, an angle by FPATAN-like series, about 40 multiply-adds). */
const INTRAF_CYCLES = 3 * FSQRT + 3 * FDIV + 150 + 40 * FADD;
const INTRAF_INSTRUCTIONS = 150;
/** CORREC + BNDRY for one molecule: 9 x (an FDIV, 6 multiply-adds), 3 boundary tests (model). */
const CORREC_CYCLES = 9 * (FDIV + FMUL + FADD) + 9;
const CORREC_INSTRUCTIONS = 9 * 16 + 9;
/** KINETI for one molecule: 9 x (FDIV, FMUL, FMUL, FADD) (model). */
const KINETI_CYCLES = 9 * (FMUL + FADD) + FDIV;
const KINETI_INSTRUCTIONS = 9 * 5;

export const waterSpatialSizes = {
  small: { molecules: 1000, steps: 2 },
  'paper-sm': { molecules: 4096, steps: 9 },
  'paper-lg': { molecules: 32768, steps: 2 },
} as const satisfies Record<string, WsSize>;

export interface WsArrays {
  molecules: SharedArrayDesc;
  boxes: SharedArrayDesc;
  global: SharedArrayDesc;
}

const allocated = new WeakMap<Dsm, WsArrays>();
/** The arrays `run` allocated on this Dsm. */
export function wsArraysOf(dsm: Dsm): WsArrays | undefined {
  return allocated.get(dsm);
}

class WsProc {
  private readonly core: DsmCore;
  private readonly myBoxes: number[];
  private readonly neigh: number[][];
  private readonly x = new Float64Array(NORDER);
  private readonly ljOut = new Float64Array(2);
  private readonly nb = new Float64Array(12);

  constructor(
    private readonly dsm: Dsm,
    private readonly a: WsArrays,
    private readonly g: Geometry,
  ) {
    this.core = dsm.core;
    this.myBoxes = partition(g.b, dsm.procs, dsm.me);
    this.neigh = this.myBoxes.map((b) => neighbours(g, b));
  }

  *run(size: WsSize): Sim<void> {
    const { dsm } = this;
    if (dsm.me === 0) yield* this.initia(size);
    yield* dsm.barrier();
    for (let step = 0; step < size.steps; step++) {
      yield* this.ownMolecules(0); // PREDIC + INTRAF
      yield* dsm.barrier();
      yield* this.interf();
      yield* dsm.barrier();
      yield* this.ownMolecules(1); // CORREC + BNDRY + KINETI
      yield* dsm.barrier();
    }
    yield* this.poteng();
    yield* dsm.barrier();
  }

  /** SPLASH-2 INITIA on processor 0: molecules, box lists, the owners' box chains. */
  private *initia(size: WsSize): Sim<void> {
    const { dsm, core, g } = this;
    const { mol, lists } = wsInitial(size);
    for (let m = 0; m < g.n; m++) {
      const p = yield* dsm.open(this.a.molecules, m, true);
      for (let k = 0; k < MOL_DOUBLES; k++) if (mol[m * MOL_DOUBLES + k] !== 0) core.storeF64(p + 8 * k, mol[m * MOL_DOUBLES + k]!);
      core.store32(p + M_NEXT, 0);
      yield* dsm.poll();
    }
    for (let b = 0; b < lists.length; b++) {
      const list = lists[b]!;
      for (let i = 0; i + 1 < list.length; i++) {
        const p = yield* dsm.open(this.a.molecules, list[i]!, true);
        core.store32(p + M_NEXT, list[i + 1]! + 1);
        yield* dsm.poll();
      }
    }
    for (let me = 0; me < dsm.procs; me++) {
      const boxes = partition(g.b, dsm.procs, me);
      for (let i = 0; i < boxes.length; i++) {
        const b = boxes[i]!;
        const p = yield* dsm.open(this.a.boxes, b, true);
        core.store32(p + X_HEAD, lists[b]!.length > 0 ? lists[b]![0]! + 1 : 0);
        core.store32(p + X_COORD, Math.floor(b / (g.b * g.b)));
        core.store32(p + X_COORD + 4, Math.floor(b / g.b) % g.b);
        core.store32(p + X_COORD + 8, b % g.b);
        core.store32(p + X_NEXT, i + 1 < boxes.length ? boxes[i + 1]! + 1 : 0);
        yield* dsm.poll();
      }
    }
  }

  /** The head of box b's list (molecule index, -1 when empty). */
  private *head(b: number): Sim<number> {
    const p = yield* this.dsm.open(this.a.boxes, b, false);
    return this.core.load32(p + X_HEAD) - 1;
  }

  /** Phase 0: PREDIC + INTRAF; phase 1: CORREC + BNDRY + KINETI (then the kinetic sums under KinetiSumLock). */
  private *ownMolecules(phase: 0 | 1): Sim<void> {
    const { dsm, core, g, x } = this;
    let k0 = 0;
    let k1 = 0;
    let k2 = 0;
    for (const b of this.myBoxes) {
      let m = yield* this.head(b);
      while (m >= 0) {
        yield* dsm.poll();
        const p = yield* dsm.open(this.a.molecules, m, true);
        if (phase === 0) {
          for (let d = 0; d < 3; d++)
            for (let a = 0; a < 3; a++) {
              for (let k = 0; k < NORDER; k++) x[k] = core.loadF64(p + fOff(k, d, a));
              for (let i = 0; i < NORDER - 1; i++) for (let j = NORDER - 2; j >= i; j--) x[j] += x[j + 1]!;
              for (let k = 0; k < NORDER; k++) core.storeF64(p + fOff(k, d, a), x[k]!);
            }
          core.compute(PREDIC_CYCLES, PREDIC_INSTRUCTIONS);
          for (let d = 0; d < 3; d++) {
            let vm = 0;
            for (let a = 0; a < 3; a++) {
              vm += MASS[a]! * core.loadF64(p + fOff(0, d, a));
              core.storeF64(p + fOff(FORCES, d, a), 0);
            }
            core.storeF64(p + 8 * d, vm / MTOT);
          }
          core.compute(INTRAF_CYCLES, INTRAF_INSTRUCTIONS);
        } else {
          for (let d = 0; d < 3; d++)
            for (let a = 0; a < 3; a++) {
              const corr = ((core.loadF64(p + fOff(FORCES, d, a)) / MASS[a]!) * DT * DT) / 2 - core.loadF64(p + fOff(2, d, a));
              for (let k = 0; k < NORDER; k++) core.storeF64(p + fOff(k, d, a), core.loadF64(p + fOff(k, d, a)) + GEAR[k]! * corr);
            }
          for (let d = 0; d < 3; d++) {
            const o = core.loadF64(p + fOff(0, d, 0));
            const shift = o < 0 ? g.side : o >= g.side ? -g.side : 0;
            if (shift !== 0) for (let a = 0; a < 3; a++) core.storeF64(p + fOff(0, d, a), core.loadF64(p + fOff(0, d, a)) + shift);
          }
          core.compute(CORREC_CYCLES, CORREC_INSTRUCTIONS);
          for (let a = 0; a < 3; a++) {
            const v0 = core.loadF64(p + fOff(1, 0, a)) / DT;
            const v1 = core.loadF64(p + fOff(1, 1, a)) / DT;
            const v2 = core.loadF64(p + fOff(1, 2, a)) / DT;
            k0 += MASS[a]! * v0 * v0;
            k1 += MASS[a]! * v1 * v1;
            k2 += MASS[a]! * v2 * v2;
          }
          core.compute(KINETI_CYCLES, KINETI_INSTRUCTIONS);
        }
        m = core.load32(p + M_NEXT) - 1;
      }
    }
    if (phase === 1) {
      yield* dsm.acquire(KIN_LOCK);
      const gp = yield* dsm.open(this.a.global, 0, true);
      core.storeF64(gp + G_KIN, core.loadF64(gp + G_KIN) + k0);
      core.storeF64(gp + G_KIN + 8, core.loadF64(gp + G_KIN + 8) + k1);
      core.storeF64(gp + G_KIN + 16, core.loadF64(gp + G_KIN + 16) + k2);
      yield* dsm.release(KIN_LOCK);
    }
  }

  /** SPLASH-2 INTERF: forces on own molecules from the molecules of the neighbour boxes. */
  private *interf(): Sim<void> {
    const { dsm, core, g, nb, ljOut } = this;
    let lvir = 0;
    for (let bi = 0; bi < this.myBoxes.length; bi++) {
      const b = this.myBoxes[bi]!;
      for (const nbox of this.neigh[bi]!) {
        let n = yield* this.head(nbox);
        while (n >= 0) {
          yield* dsm.poll();
          const np = yield* dsm.open(this.a.molecules, n, false);
          for (let k = 0; k < 3; k++) nb[k] = core.loadF64(np + 8 * k);
          for (let d = 0; d < 3; d++) for (let a = 0; a < 3; a++) nb[3 + d * 3 + a] = core.loadF64(np + fOff(0, d, a));
          const nNext = core.load32(np + M_NEXT) - 1;
          let c = yield* this.head(b);
          while (c >= 0) {
            const cp = yield* dsm.open(this.a.molecules, c, false);
            const cNext = core.load32(cp + M_NEXT) - 1;
            if (c !== n) {
              const dx = wrap(core.loadF64(cp + fOff(0, 0, 0)) - nb[3]!, g.side);
              const dy = wrap(core.loadF64(cp + fOff(0, 1, 0)) - nb[6]!, g.side);
              const dz = wrap(core.loadF64(cp + fOff(0, 2, 0)) - nb[9]!, g.side);
              const r2 = dx * dx + dy * dy + dz * dz;
              core.compute(PAIR_TEST_CYCLES, PAIR_TEST_INSTRUCTIONS);
              if (r2 < CUT2) {
                lj(r2, ljOut);
                const f = ljOut[0]!;
                lvir += f * r2;
                const cw = yield* dsm.open(this.a.molecules, c, true);
                for (let a = 0; a < 3; a++) {
                  const share = MASS[a]! / MTOT;
                  core.storeF64(cw + fOff(FORCES, 0, a), core.loadF64(cw + fOff(FORCES, 0, a)) + f * dx * share);
                  core.storeF64(cw + fOff(FORCES, 1, a), core.loadF64(cw + fOff(FORCES, 1, a)) + f * dy * share);
                  core.storeF64(cw + fOff(FORCES, 2, a), core.loadF64(cw + fOff(FORCES, 2, a)) + f * dz * share);
                }
                core.compute(PAIR_FORCE_CYCLES, PAIR_FORCE_INSTRUCTIONS);
              }
            }
            c = cNext;
          }
          n = nNext;
        }
      }
    }
    yield* dsm.acquire(VIR_LOCK);
    const gp = yield* dsm.open(this.a.global, 0, true);
    core.storeF64(gp + G_VIR, core.loadF64(gp + G_VIR) + lvir);
    yield* dsm.release(VIR_LOCK);
  }

  /** SPLASH-2 POTENG (intermolecular part): half of each pair's potential, summed under PotengSumLock. */
  private *poteng(): Sim<void> {
    const { dsm, core, g, ljOut } = this;
    let lpot = 0;
    for (let bi = 0; bi < this.myBoxes.length; bi++) {
      let c = yield* this.head(this.myBoxes[bi]!);
      while (c >= 0) {
        const cp = yield* dsm.open(this.a.molecules, c, false);
        const cx = core.loadF64(cp + fOff(0, 0, 0));
        const cy = core.loadF64(cp + fOff(0, 1, 0));
        const cz = core.loadF64(cp + fOff(0, 2, 0));
        const cNext = core.load32(cp + M_NEXT) - 1;
        for (const nbox of this.neigh[bi]!) {
          let n = yield* this.head(nbox);
          while (n >= 0) {
            yield* dsm.poll();
            const np = yield* dsm.open(this.a.molecules, n, false);
            if (n !== c) {
              const dx = wrap(cx - core.loadF64(np + fOff(0, 0, 0)), g.side);
              const dy = wrap(cy - core.loadF64(np + fOff(0, 1, 0)), g.side);
              const dz = wrap(cz - core.loadF64(np + fOff(0, 2, 0)), g.side);
              const r2 = dx * dx + dy * dy + dz * dz;
              core.compute(PAIR_TEST_CYCLES, PAIR_TEST_INSTRUCTIONS);
              if (r2 < CUT2) {
                lj(r2, ljOut);
                lpot += 0.5 * ljOut[1]!;
                core.compute(PAIR_FORCE_CYCLES, PAIR_FORCE_INSTRUCTIONS);
              }
            }
            n = core.load32(np + M_NEXT) - 1;
          }
        }
        c = cNext;
      }
    }
    yield* dsm.acquire(POT_LOCK);
    const gp = yield* dsm.open(this.a.global, 0, true);
    core.storeF64(gp + G_POT, core.loadF64(gp + G_POT) + lpot);
    yield* dsm.release(POT_LOCK);
  }
}

const refCache = new Map<string, WsResult>();
/** The reference result of a size (computed once per size in this process). */
export function wsReferenceCached(size: WsSize): WsResult {
  const key = `${size.molecules}x${size.steps}`;
  let r = refCache.get(key);
  if (!r) {
    r = wsReference(size);
    refCache.set(key, r);
  }
  return r;
}

function validate(size: WsSize): Geometry {
  if (!Number.isInteger(size.steps) || size.steps < 1 || size.steps > 100) throw new Error(`water-spatial: steps must be an integer in 1..100 (got ${size.steps})`);
  // 2^16 molecules x 680 B = 44.6 MB: the shared arrays must fit a node's 64 MB window (cluster-1999)
  if (size.molecules > 1 << 16) throw new Error(`water-spatial: molecules must be at most ${1 << 16} (got ${size.molecules})`);
  return geometry(size.molecules);
}

export const waterSpatial: DsmApp<WsSize> = {
  name: 'water-spatial',
  title: 'Water-Spatial',
  sizes: waterSpatialSizes,
  describe: (size) => {
    const g = geometry(size.molecules);
    return `${size.molecules} molecules, ${size.steps} steps (${g.b}^3 boxes)`;
  },
  locks: () => 3,
  *run(dsm, size) {
    const g = validate(size);
    const a: WsArrays = {
      molecules: dsm.alloc('molecules', g.n, MOL_BYTES),
      boxes: dsm.alloc('boxes', g.b ** 3, BOX_BYTES),
      global: dsm.alloc('global', 1, GLOBAL_BYTES),
    };
    allocated.set(dsm, a);
    yield* new WsProc(dsm, a, g).run(size);
  },
  *check(dsm, size): Sim<CheckResult> {
    validate(size);
    const a = allocated.get(dsm);
    if (!a) throw new Error('water-spatial: check runs after run on the same processor (no arrays allocated on this Dsm)');
    const ref = wsReferenceCached(size);
    const core = dsm.core;
    let differing = 0;
    let first = -1;
    for (let m = 0; m < ref.n; m++) {
      const p = yield* dsm.open(a.molecules, m, false);
      for (let k = 0; k < MOL_DOUBLES; k++)
        if (!Object.is(core.loadF64(p + 8 * k), ref.mol[m * MOL_DOUBLES + k]!)) {
          if (first < 0) first = m;
          differing++;
          break;
        }
      yield* dsm.poll();
    }
    const gp = yield* dsm.open(a.global, 0, false);
    const sums: Array<[string, number, number]> = [
      ['virial', core.loadF64(gp + G_VIR), ref.vir],
      ['kinetic x', core.loadF64(gp + G_KIN), ref.kin[0]],
      ['kinetic y', core.loadF64(gp + G_KIN + 8), ref.kin[1]],
      ['kinetic z', core.loadF64(gp + G_KIN + 16), ref.kin[2]],
      ['potential', core.loadF64(gp + G_POT), ref.pot],
    ];
    const tol = 1e-9;
    const bad = sums.filter(([, v, r]) => !(Math.abs(v - r) <= tol * Math.abs(r)));
    const correct = differing === 0 && bad.length === 0;
    const detail =
      `${ref.n} molecules vs the sequential reference: ${differing === 0 ? 'all bit-identical' : `${differing} differ (first: molecule ${first})`}; ` +
      `sums ${bad.length === 0 ? `within ${tol} relative` : bad.map(([name, v, r]) => `${name} ${v} vs ${r}`).join(', ')} (potential ${ref.pot.toExponential(4)}, virial ${ref.vir.toExponential(4)})`;
    return { correct, detail };
  },
};
