/**
 * Water-N-Squared, the SPLASH molecular-dynamics code (Singh, Weber, Gupta, "SPLASH: Stanford
 * Parallel Applications for Shared-Memory", 1992; SPLASH-2 water-nsquared), as paper 004 ran it
 * (Table 1: 1728 and 2744 molecules, 2 steps; Table 4; line 407), written against Dsm (../api.ts).
 *
 * Contract
 * - Data as SPLASH allocates them: one shared 1-D array `molecules` of n objects of 672 bytes,
 *   SPLASH's molecule_type: VM[3] (a molecule's centre) then F[9][3][3] doubles, F[order][dir]
 *   [atom] with orders DISP 0, VEL 1, ACC 2, DER_3..DER_6 3..6, FORCES 7 (index 8 unused, as
 *   MXOD2 = MAXODR + 2 in SPLASH), atoms H1 0, O 1, H2 2 (24 + 648 = 672 bytes); and one shared
 *   `globals` object (SPLASH's gl sums: VIR, SUM[3], POTA, POTR, POTRF) of 64 bytes.
 * - Work split as SPLASH: processor p owns molecules [StartMol[p], StartMol[p+1]) with
 *   StartMol[p] = p floor(n / P) and the last processor taking the rest. Processor 0 builds the
 *   initial state (SPLASH's INITIA in main), then barrier, INTRAF, barrier, INTERF(ACC), barrier;
 *   then per step: processor 0 zeroes the sums, barrier, PREDIC + INTRAF (own molecules),
 *   barrier, INTERF(FORCES), CORREC + BNDRY + KINETI (own), barrier, POTENG at the last step
 *   (NPRINT = steps, model: the energies are printed once), barrier.
 * - INTERF as SPLASH: each processor computes the interactions of each own molecule with the
 *   n/2 molecules following it (modulo n, SPLASH's comp_last rule for even n, so each pair is
 *   computed once), in fixed increasing order (paper 004 line 407), accumulating forces into a
 *   private array (PFORCES); adds its virial under InterfVirLock; then adds its private forces
 *   into the shared molecules it touched, in the same order, holding the lock of the block the
 *   molecule belongs to (one lock per processor's block: model choice, see below); barrier;
 *   then scales its own molecules' forces by the masses. KINETI adds each direction's sum under
 *   KinetiSumLock, INTRAF the virial under IntrafVirLock, POTENG the energies under
 *   PotengSumLock, as SPLASH.
 *   Locks: SPLASH-2 uses one lock per molecule (MolLock[mol % MAXLCKS]); here one per block,
 *   because Table 4's counts fit it (derived estimate at 32 processors, 1728 molecules: per
 *   molecule, ~918 acquires per processor per INTERF x 3 INTERFs would already cost ~200,000
 *   messages, far above Table 4's 77,075; per block, ~17 acquires per processor per INTERF).
 * - Simplified physics (what differs from SPLASH; the access pattern, object sizes and
 *   synchronisation are SPLASH's): reduced units; a rigid-geometry-free three-site molecule
 *   (O-H bonds and the H-H distance as harmonic springs instead of SPLASH's intramolecular
 *   potential); between molecules, a Lennard-Jones O-O term plus a Coulomb term between the 9
 *   atom pairs (SPC-like charges), within a cutoff of half the box on the centres VM with the
 *   minimum-image shift taken from the centres (SPLASH: 14 site-site terms with exponentials and
 *   an M site); a 6-value Gear predictor-corrector (orders 0..5; SPLASH uses up to DER_6); the
 *   initial state on a cubic lattice with velocities from a fixed 32-bit LCG (SPLASH: lattice
 *   and its own xrand).
 * - Costs: the object accesses are the core's loads and stores; the arithmetic is charged with
 *   `compute`, counted per kernel in x87 operations (X87_CYCLES): FDIV and FSQRT at the lab's
 *   P6 latencies (bh-x87.ts: Agner Fog's P6 table, 38 and 69 cycles, extended precision), charged
 *   in full since the P6 divider is not pipelined; FADD and FMUL at their issue rate, one per
 *   cycle and one per two cycles on port 0 (model: the 9 atom pairs of a molecule pair are
 *   independent, so the out-of-order core overlaps their add/multiply latencies); the private
 *   force array is plain JavaScript, its accesses charged one cycle each (model: a processor's
 *   touched PFORCES lines stay in its L1/L2).
 * - `check` (processor 0): every molecule's VM, F[0..5] and F[FORCES] and the global sums
 *   against the sequential reference with a relative tolerance of 1e-9 of each field's largest
 *   magnitude: the forces are summed in another order (per processor, then block by block under
 *   the locks), which changes the last bits (about 1e-16 relative per addition; measured with 4
 *   and 5 processors interleaved: largest deviation 1.6e-14); 1e-9 leaves a margin of about
 *   1e5 and still catches a change of 1e-6 of a field in one value (water-nsq.test.ts). F[FORCES]
 *   and F[ACC] are compared against their own scales, so a lost or doubled pair shows there even
 *   where it moves the positions by less than the tolerance.
 * Units: bytes, core cycles; physical quantities in reduced units.
 */
import type { CheckResult, Dsm, DsmApp, SharedArrayDesc, SizeName } from '../api';
import type { Sim } from '@manycore/engine';
import { FDIV, FSQRT } from './bh-x87';
import { ReferenceMemory, type F64Access } from './sor';

export interface WaterSize {
  molecules: number;
  steps: number;
}

// ------------------------------------------------------------------ layout (SPLASH molecule_type)
export const MOLECULE_BYTES = 24 + 9 * 3 * 3 * 8;
export const GLOBALS_BYTES = 64;
const DISP = 0;
const VEL = 1;
const ACC = 2;
const FORCES = 7;
const NORDER = 5; // predictor-corrector orders 0..NORDER
const H1 = 0;
const O = 1;
const H2 = 2;
/** Byte offset of VM[dir]. */
const vmOff = (dir: number): number => 8 * dir;
/** Byte offset of F[order][dir][atom]. */
const fOff = (order: number, dir: number, atom: number): number => 24 + 8 * ((order * 3 + dir) * 3 + atom);
// globals: VIR, SUM[3], POTA, POTR, POTRF
const G_VIR = 0;
const G_SUM = 8;
const G_POTA = 32;
const G_POTR = 40;
const G_POTRF = 48;

// ------------------------------------------------------------------ physics (model, reduced units)
const OMAS = 16; // relative masses of O and H
const HMAS = 1;
const ROH = 0.316; // O-H bond / sigma(O-O) (SPC geometry: 1.0 A / 3.166 A)
const ANGLE = (109.47 * Math.PI) / 180; // SPC H-O-H angle
const RHH = 2 * ROH * Math.sin(ANGLE / 2);
const KBOND = 500; // spring constants (model)
const QO = -0.82; // SPC-like charges
const QH = 0.41;
const KCOUL = 1; // Coulomb constant (model, reduced)
const TSTEP = 0.0005;
const DENSITY = 1; // molecules per sigma^3 (about water's)
const FHM = (TSTEP * TSTEP) / 2 / HMAS; // force -> scaled acceleration, as SPLASH's FHM and FOM
const FOM = (TSTEP * TSTEP) / 2 / OMAS;
const Q = [QH, QO, QH];
/** Gear corrector coefficients, second-order equation, 6 values (Gear 1971; Allen & Tildesley Table E.2). */
const PCC = [3 / 16, 251 / 360, 1, 11 / 18, 1 / 6, 1 / 60];
/** Binomial coefficients C(j, k) for the Taylor predictor of scaled derivatives. */
const BINOM: number[][] = Array.from({ length: NORDER + 1 }, (_, j) => Array.from({ length: NORDER + 1 }, (_, k) => binom(j, k)));
function binom(j: number, k: number): number {
  if (k > j) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (j - k + i)) / i;
  return r;
}

export interface WaterBox {
  n: number;
  side: number; // lattice sites per side
  boxl: number;
  boxh: number;
  cut2: number;
}
export function waterBox(size: WaterSize): WaterBox {
  const side = Math.ceil(Math.cbrt(size.molecules) - 1e-9);
  const boxl = side / Math.cbrt(DENSITY);
  const boxh = boxl / 2;
  return { n: size.molecules, side, boxl, boxh, cut2: boxh * boxh };
}

// ------------------------------------------------------------------ costs (x87 operations)
/** Cycles per x87 operation (module comment): adds and multiplies at their issue rate, the divider's operations in full. */
export const X87_CYCLES = { add: 1, mul: 2, div: FDIV, sqrt: FSQRT } as const;
const x87 = (adds: number, muls: number, divs = 0, sqrts = 0): number =>
  adds * X87_CYCLES.add + muls * X87_CYCLES.mul + divs * X87_CYCLES.div + sqrts * X87_CYCLES.sqrt;
const ops = (adds: number, muls: number, divs = 0, sqrts = 0): number => adds + muls + divs + sqrts;
/** Centre distance, minimum-image shift and cutoff test of one pair: 3 sub, 3 shift adds, 4 compares, 3 squares, 2 adds. */
export const PAIR_TEST = { cycles: x87(12, 3), instructions: ops(12, 3) };
/**
 * One pair within the cutoff: 9 atom pairs x (6 sub, 2 adds, 3 squares, r2 r, f x 3, virial; 1 sqrt, 1 div;
 * 6 private force updates) + the O-O Lennard-Jones term (1 div, 6 mul, 2 add) + 36 private accesses at 1 cycle.
 */
export const PAIR_FORCE = { cycles: 9 * x87(15, 9, 1, 1) + x87(2, 6, 1) + 36, instructions: 9 * ops(15, 9, 1, 1) + ops(2, 6, 1) + 36 };
/** Energy of a pair within the cutoff: 9 x (6 sub, 2 add, 3 mul, sqrt, div, sum) + Lennard-Jones (1 div, 4 mul, 2 add). */
export const PAIR_ENERGY = { cycles: 9 * x87(9, 4, 1, 1) + x87(2, 4, 1), instructions: 9 * ops(9, 4, 1, 1) + ops(2, 4, 1) };
/** PREDIC per molecule: 9 components x 15 multiply-adds of the Pascal triangle. */
const PREDICT = { cycles: 9 * x87(15, 15), instructions: 9 * ops(15, 15) };
/** CORREC per molecule: 9 x (1 sub + 6 multiply-adds). */
const CORRECT = { cycles: 9 * x87(7, 6), instructions: 9 * ops(7, 6) };
/** INTRAF per molecule: centre (3 x 4 add, 3 mul), 3 springs x (3 sub, 2 add, 3 mul, sqrt, div, sub, mul, 6 add, 3 mul, virial 2). */
const INTRA = { cycles: 3 * x87(4, 3) + 3 * x87(14, 8, 1, 1), instructions: 3 * ops(4, 3) + 3 * ops(14, 8, 1, 1) };
/** Intra-molecular energy per molecule: 3 springs x (3 sub, 2 add, 3 mul, sqrt, sub, 2 mul, add). */
const INTRA_ENERGY = { cycles: 3 * x87(7, 5, 0, 1), instructions: 3 * ops(7, 5, 0, 1) };
/** BNDRY per molecule: 3 directions x 2 compares (a shift is rare). KINETI per molecule and direction: 3 squares, 2 mul, 2 add. */
const BOUNDARY = { cycles: x87(6, 0), instructions: ops(6, 0) };
const KINETIC = { cycles: x87(3, 5), instructions: ops(3, 5) };
/** Scaling of one molecule's 9 force components by the masses; adding 9 private components into a molecule (+ 9 private loads). */
const SCALE = { cycles: x87(0, 9), instructions: ops(0, 9) };
const ADD_PRIVATE = { cycles: x87(9, 0) + 9, instructions: ops(9, 0) + 9 };

// ------------------------------------------------------------------ kernels (shared by run and reference)
/** 32-bit LCG (Numerical Recipes constants), deterministic: the initial orientations and velocities. */
class Lcg {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (Math.imul(this.s, 1664525) + 1013904223) >>> 0;
    return this.s / 4294967296;
  }
}

/** SPLASH's INITIA (simplified): molecule i on lattice site i, a random orientation, random velocities; all higher orders 0. */
function initMolecule(mem: F64Access, box: WaterBox, i: number, a: number, rng: Lcg): void {
  const s = box.side;
  const spacing = box.boxl / s;
  const centre = [((i % s) + 0.5) * spacing, ((Math.floor(i / s) % s) + 0.5) * spacing, (Math.floor(i / (s * s)) + 0.5) * spacing];
  // orientation: the H-O-H plane rotated by angles phi, theta
  const phi = 2 * Math.PI * rng.next();
  const theta = Math.PI * rng.next();
  const half = ANGLE / 2;
  const local = [
    [ROH * Math.sin(half), ROH * Math.cos(half), 0],
    [0, 0, 0],
    [-ROH * Math.sin(half), ROH * Math.cos(half), 0],
  ];
  const [cp, sp, ct, st] = [Math.cos(phi), Math.sin(phi), Math.cos(theta), Math.sin(theta)];
  for (let order = 0; order < 9; order++) for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) mem.storeF64(a + fOff(order, dir, atom), 0);
  for (let atom = 0; atom < 3; atom++) {
    const [x, y, z] = local[atom]!;
    const ry = y * ct - z * st;
    const rz = y * st + z * ct;
    const pos = [centre[0]! + x * cp - ry * sp, centre[1]! + x * sp + ry * cp, centre[2]! + rz];
    for (let dir = 0; dir < 3; dir++) {
      mem.storeF64(a + fOff(DISP, dir, atom), pos[dir]!);
      mem.storeF64(a + fOff(VEL, dir, atom), TSTEP * (2 * rng.next() - 1));
    }
  }
  for (let dir = 0; dir < 3; dir++) mem.storeF64(a + vmOff(dir), 0);
}

/** PREDIC for one molecule: x_k += sum_{j>k} C(j, k) x_j (scaled derivatives), ascending k. */
function predictMolecule(mem: F64Access, a: number, x: Float64Array): void {
  for (let dir = 0; dir < 3; dir++)
    for (let atom = 0; atom < 3; atom++) {
      for (let k = 0; k <= NORDER; k++) x[k] = mem.loadF64(a + fOff(k, dir, atom));
      for (let k = 0; k < NORDER; k++) {
        let v = x[k]!;
        for (let j = k + 1; j <= NORDER; j++) v += BINOM[j]![k]! * x[j]!;
        x[k] = v;
        mem.storeF64(a + fOff(k, dir, atom), v);
      }
    }
}

/** CORREC for one molecule: corr = F[FORCES] - F[ACC]; x_k += PCC_k corr. */
function correctMolecule(mem: F64Access, a: number): void {
  for (let dir = 0; dir < 3; dir++)
    for (let atom = 0; atom < 3; atom++) {
      const corr = mem.loadF64(a + fOff(FORCES, dir, atom)) - mem.loadF64(a + fOff(ACC, dir, atom));
      for (let k = 0; k <= NORDER; k++) {
        const o = a + fOff(k, dir, atom);
        mem.storeF64(o, mem.loadF64(o) + PCC[k]! * corr);
      }
    }
}

/** BNDRY: a molecule whose oxygen left the box is moved back by a box length (all three atoms). */
function boundaryMolecule(mem: F64Access, box: WaterBox, a: number): void {
  for (let dir = 0; dir < 3; dir++) {
    const o = mem.loadF64(a + fOff(DISP, dir, O));
    const shift = o < 0 ? box.boxl : o > box.boxl ? -box.boxl : 0;
    if (shift !== 0)
      for (let atom = 0; atom < 3; atom++) {
        const p = a + fOff(DISP, dir, atom);
        mem.storeF64(p, mem.loadF64(p) + shift);
      }
  }
}

/** KINETI's term of one molecule in one direction. */
function kineticMolecule(mem: F64Access, a: number, dir: number): number {
  const h1 = mem.loadF64(a + fOff(VEL, dir, H1));
  const o = mem.loadF64(a + fOff(VEL, dir, O));
  const h2 = mem.loadF64(a + fOff(VEL, dir, H2));
  return (h1 * h1 + h2 * h2) * HMAS + o * o * OMAS;
}

const SPRINGS: ReadonlyArray<readonly [number, number, number]> = [
  [O, H1, ROH],
  [O, H2, ROH],
  [H1, H2, RHH],
];

/** INTRAF for one molecule: VM = centre of mass; F[FORCES] = the springs' forces (set); returns the virial. */
function intraMolecule(mem: F64Access, a: number, p: Float64Array, f: Float64Array): number {
  for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) p[dir * 3 + atom] = mem.loadF64(a + fOff(DISP, dir, atom));
  for (let dir = 0; dir < 3; dir++)
    mem.storeF64(a + vmOff(dir), ((p[dir * 3 + H1]! + p[dir * 3 + H2]!) * HMAS + p[dir * 3 + O]! * OMAS) / (2 * HMAS + OMAS));
  f.fill(0);
  let vir = 0;
  for (let k = 0; k < 3; k++) {
    const [i, j, r0] = SPRINGS[k]!;
    const dx = p[i]! - p[j]!;
    const dy = p[3 + i]! - p[3 + j]!;
    const dz = p[6 + i]! - p[6 + j]!;
    const rs = dx * dx + dy * dy + dz * dz;
    const r = Math.sqrt(rs);
    const ff = (-KBOND * (r - r0)) / r;
    f[i] = f[i]! + ff * dx;
    f[j] = f[j]! - ff * dx;
    f[3 + i] = f[3 + i]! + ff * dy;
    f[3 + j] = f[3 + j]! - ff * dy;
    f[6 + i] = f[6 + i]! + ff * dz;
    f[6 + j] = f[6 + j]! - ff * dz;
    vir += ff * rs;
  }
  for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) mem.storeF64(a + fOff(FORCES, dir, atom), f[dir * 3 + atom]!);
  return vir;
}

/** Intra-molecular (spring) energy of one molecule. */
function intraEnergy(mem: F64Access, a: number): number {
  let e = 0;
  for (let k = 0; k < 3; k++) {
    const [i, j, r0] = SPRINGS[k]!;
    let rs = 0;
    for (let dir = 0; dir < 3; dir++) {
      const d = mem.loadF64(a + fOff(DISP, dir, i)) - mem.loadF64(a + fOff(DISP, dir, j));
      rs += d * d;
    }
    const dr = Math.sqrt(rs) - r0;
    e += 0.5 * KBOND * dr * dr;
  }
  return e;
}

/** Loads a molecule's VM and positions into `s` (VM x, y, z, then F[DISP][dir][atom] at 3 + dir 3 + atom). */
function loadSites(mem: F64Access, a: number, s: Float64Array): void {
  for (let dir = 0; dir < 3; dir++) s[dir] = mem.loadF64(a + vmOff(dir));
  for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) s[3 + dir * 3 + atom] = mem.loadF64(a + fOff(DISP, dir, atom));
}

/**
 * The minimum-image shift of comp (at b) relative to mol (sites in `sm`) into `shift`; loads comp's
 * centre; returns false when the centres are beyond the cutoff.
 */
function pairInRange(mem: F64Access, box: WaterBox, sm: Float64Array, b: number, shift: Float64Array): boolean {
  let rs = 0;
  for (let dir = 0; dir < 3; dir++) {
    const d = mem.loadF64(b + vmOff(dir)) - sm[dir]!;
    const sh = d > box.boxh ? -box.boxl : d < -box.boxh ? box.boxl : 0;
    shift[dir] = sh;
    rs += (d + sh) * (d + sh);
  }
  return rs <= box.cut2;
}

/**
 * Forces between mol m (sites `sm`) and comp (at b, shifted by `shift`), accumulated into the
 * private array pf[mol][dir][atom]; returns the virial.
 */
function pairForces(mem: F64Access, sm: Float64Array, b: number, shift: Float64Array, sc: Float64Array, pf: Float64Array, m: number, comp: number): number {
  for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) sc[dir * 3 + atom] = mem.loadF64(b + fOff(DISP, dir, atom)) + shift[dir]!;
  let vir = 0;
  const pm = m * 9;
  const pc = comp * 9;
  for (let ia = 0; ia < 3; ia++)
    for (let ib = 0; ib < 3; ib++) {
      const dx = sm[3 + ia]! - sc[ib]!;
      const dy = sm[6 + ia]! - sc[3 + ib]!;
      const dz = sm[9 + ia]! - sc[6 + ib]!;
      const rs = dx * dx + dy * dy + dz * dz;
      const r = Math.sqrt(rs);
      let ff = (KCOUL * Q[ia]! * Q[ib]!) / (rs * r);
      if (ia === O && ib === O) {
        const inv2 = 1 / rs;
        const inv6 = inv2 * inv2 * inv2;
        ff += 24 * inv2 * inv6 * (2 * inv6 - 1);
      }
      pf[pm + ia] = pf[pm + ia]! + ff * dx;
      pf[pm + 3 + ia] = pf[pm + 3 + ia]! + ff * dy;
      pf[pm + 6 + ia] = pf[pm + 6 + ia]! + ff * dz;
      pf[pc + ib] = pf[pc + ib]! - ff * dx;
      pf[pc + 3 + ib] = pf[pc + 3 + ib]! - ff * dy;
      pf[pc + 6 + ib] = pf[pc + 6 + ib]! - ff * dz;
      vir += ff * rs;
    }
  return vir;
}

/** Energies of one pair within the cutoff: adds the Lennard-Jones term to e[0] (POTA) and the Coulomb terms to e[1] (POTR). */
function pairEnergy(mem: F64Access, sm: Float64Array, b: number, shift: Float64Array, sc: Float64Array, e: Float64Array): void {
  for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) sc[dir * 3 + atom] = mem.loadF64(b + fOff(DISP, dir, atom)) + shift[dir]!;
  for (let ia = 0; ia < 3; ia++)
    for (let ib = 0; ib < 3; ib++) {
      const dx = sm[3 + ia]! - sc[ib]!;
      const dy = sm[6 + ia]! - sc[3 + ib]!;
      const dz = sm[9 + ia]! - sc[6 + ib]!;
      const rs = dx * dx + dy * dy + dz * dz;
      e[1] = e[1]! + (KCOUL * Q[ia]! * Q[ib]!) / Math.sqrt(rs);
      if (ia === O && ib === O) {
        const inv6 = 1 / (rs * rs * rs);
        e[0] = e[0]! + 4 * inv6 * (inv6 - 1);
      }
    }
}

/** SPLASH's comp_last: the last (unreduced) partner index of molecule `mol`, so each pair is computed once. */
export function compLast(mol: number, n: number): number {
  const half = Math.floor(n / 2);
  let last = mol + half;
  if (n % 2 === 0) {
    if (half <= mol && mol % 2 === 0) last--;
    if (mol < half && last % 2 === 1) last--;
  }
  return last;
}

/** SPLASH's StartMol: processor p owns [start(p), start(p + 1)). */
export function waterStart(n: number, p: number, procs: number): number {
  return p === procs ? n : p * Math.floor(n / procs);
}
/** The block (= lock) a molecule's updates are made under: the processor owning it. */
export function waterBlockOf(n: number, m: number, procs: number): number {
  const per = Math.floor(n / procs);
  return per === 0 ? procs - 1 : Math.min(Math.floor(m / per), procs - 1);
}
/** The molecules a processor's INTERF touched, in SPLASH's update order. */
export function touchedOrder(n: number, p: number, procs: number): number[] {
  const start = waterStart(n, p, procs);
  const end = waterStart(n, p + 1, procs);
  if (start >= end) return [];
  const last = compLast(end - 1, n);
  const out: number[] = [];
  if (last > n - 1) {
    for (let m = start; m < n; m++) out.push(m);
    for (let m = 0; m <= last % n && m < start; m++) out.push(m);
  } else for (let m = start; m <= last; m++) out.push(m);
  return out;
}

export function waterValidate(size: WaterSize): void {
  if (!Number.isInteger(size.molecules) || size.molecules < 2) throw new Error(`water-nsq: molecules must be an integer >= 2, got ${String(size.molecules)}`);
  if (!Number.isInteger(size.steps) || size.steps < 1) throw new Error(`water-nsq: steps must be an integer >= 1, got ${String(size.steps)}`);
}

// ------------------------------------------------------------------ the reference (plain JavaScript)
export interface WaterResult {
  /** n x 672 bytes as doubles (84 per molecule). */
  molecules: Float64Array;
  /** VIR, SUM[3], POTA, POTR, POTRF. */
  globals: Float64Array;
}

/** The sequential program (one processor owns every molecule), same kernels, plain memory. */
export function waterReference(size: WaterSize): WaterResult {
  waterValidate(size);
  const box = waterBox(size);
  const n = size.molecules;
  const gBase = n * MOLECULE_BYTES;
  const mem = new ReferenceMemory(gBase + GLOBALS_BYTES);
  const at = (m: number): number => m * MOLECULE_BYTES;
  const s = new Scratch(n);
  const rng = new Lcg(1);
  for (let m = 0; m < n; m++) initMolecule(mem, box, m, at(m), rng);
  const addG = (off: number, v: number): void => mem.storeF64(gBase + off, mem.loadF64(gBase + off) + v);
  const intraf = (): void => {
    let vir = 0;
    for (let m = 0; m < n; m++) vir += intraMolecule(mem, at(m), s.p, s.f);
    addG(G_VIR, vir);
  };
  const interf = (dest: number): void => {
    s.pf.fill(0);
    let vir = 0;
    for (let m = 0; m < n; m++) {
      loadSites(mem, at(m), s.sm);
      const last = compLast(m, n);
      for (let ic = m + 1; ic <= last; ic++) {
        const comp = ic % n;
        if (pairInRange(mem, box, s.sm, at(comp), s.shift)) vir += pairForces(mem, s.sm, at(comp), s.shift, s.sc, s.pf, m, comp);
      }
    }
    addG(G_VIR, vir);
    for (const m of touchedOrder(n, 0, 1)) addPrivate(mem, at(m), dest, s.pf, m);
    for (let m = 0; m < n; m++) scaleMolecule(mem, at(m), dest);
  };
  intraf();
  interf(ACC);
  for (let step = 1; step <= size.steps; step++) {
    for (let k = 0; k < 7; k++) mem.storeF64(gBase + 8 * k, 0);
    for (let m = 0; m < n; m++) predictMolecule(mem, at(m), s.x);
    intraf();
    interf(FORCES);
    for (let m = 0; m < n; m++) correctMolecule(mem, at(m));
    for (let m = 0; m < n; m++) boundaryMolecule(mem, box, at(m));
    for (let dir = 0; dir < 3; dir++) {
      let sum = 0;
      for (let m = 0; m < n; m++) sum += kineticMolecule(mem, at(m), dir);
      addG(G_SUM + 8 * dir, sum);
    }
    if (step === size.steps) {
      s.e.fill(0);
      let intra = 0;
      for (let m = 0; m < n; m++) intra += intraEnergy(mem, at(m));
      for (let m = 0; m < n; m++) {
        loadSites(mem, at(m), s.sm);
        const last = compLast(m, n);
        for (let ic = m + 1; ic <= last; ic++) {
          const comp = ic % n;
          if (pairInRange(mem, box, s.sm, at(comp), s.shift)) pairEnergy(mem, s.sm, at(comp), s.shift, s.sc, s.e);
        }
      }
      addG(G_POTA, s.e[0]!);
      addG(G_POTR, s.e[1]!);
      addG(G_POTRF, intra);
    }
  }
  return { molecules: mem.f64.slice(0, gBase / 8), globals: mem.f64.slice(gBase / 8, gBase / 8 + 7) };
}

/** F[dest] += the private forces of molecule m. */
function addPrivate(mem: F64Access, a: number, dest: number, pf: Float64Array, m: number): void {
  for (let dir = 0; dir < 3; dir++)
    for (let atom = 0; atom < 3; atom++) {
      const o = a + fOff(dest, dir, atom);
      mem.storeF64(o, mem.loadF64(o) + pf[m * 9 + dir * 3 + atom]!);
    }
}

/** F[dest] scaled by the masses (SPLASH's FHM, FOM): force -> scaled acceleration. */
function scaleMolecule(mem: F64Access, a: number, dest: number): void {
  for (let dir = 0; dir < 3; dir++)
    for (let atom = 0; atom < 3; atom++) {
      const o = a + fOff(dest, dir, atom);
      mem.storeF64(o, mem.loadF64(o) * (atom === O ? FOM : FHM));
    }
}

/** Per-processor private buffers, allocated once per run. */
class Scratch {
  readonly pf: Float64Array;
  readonly sm = new Float64Array(12);
  readonly sc = new Float64Array(9);
  readonly shift = new Float64Array(3);
  readonly p = new Float64Array(9);
  readonly f = new Float64Array(9);
  readonly x = new Float64Array(NORDER + 1);
  readonly e = new Float64Array(2);
  constructor(n: number) {
    this.pf = new Float64Array(n * 9);
  }
}

// ------------------------------------------------------------------ the parallel program
const allocated = new WeakMap<Dsm, { mols: SharedArrayDesc; globals: SharedArrayDesc }>();

/** Lock numbers: 0..procs-1 the molecule blocks, then SPLASH's four sum locks. */
const intrafVirLock = (procs: number): number => procs;
const interfVirLock = (procs: number): number => procs + 1;
const kinetiSumLock = (procs: number): number => procs + 2;
const potengSumLock = (procs: number): number => procs + 3;

function* addGlobal(dsm: Dsm, globals: SharedArrayDesc, lock: number, off: number, v: number): Sim<void> {
  yield* dsm.acquire(lock);
  const g = yield* dsm.open(globals, 0, true);
  dsm.core.storeF64(g + off, dsm.core.loadF64(g + off) + v);
  dsm.core.compute(X87_CYCLES.add, 1);
  yield* dsm.release(lock);
}

function* run(dsm: Dsm, size: WaterSize): Sim<void> {
  waterValidate(size);
  const core = dsm.core;
  const n = size.molecules;
  const P = dsm.procs;
  const box = waterBox(size);
  const mols = dsm.alloc('molecules', n, MOLECULE_BYTES);
  const globals = dsm.alloc('globals', 1, GLOBALS_BYTES);
  allocated.set(dsm, { mols, globals });
  const start = waterStart(n, dsm.me, P);
  const end = waterStart(n, dsm.me + 1, P);
  const touched = touchedOrder(n, dsm.me, P);
  const s = new Scratch(n);

  if (dsm.me === 0) {
    // SPLASH's INITIA, in the master before the workers start
    const rng = new Lcg(1);
    for (let m = 0; m < n; m++) {
      const a = yield* dsm.open(mols, m, true);
      initMolecule(core, box, m, a, rng);
      core.compute(200, 200); // model: the lattice position, two angles' sines and cosines, 9 velocities
      yield* dsm.poll();
    }
    const g = yield* dsm.open(globals, 0, true);
    for (let k = 0; k < 7; k++) core.storeF64(g + 8 * k, 0);
  }
  yield* dsm.barrier();

  const intraf = function* (): Sim<void> {
    let vir = 0;
    for (let m = start; m < end; m++) {
      const a = yield* dsm.open(mols, m, true);
      vir += intraMolecule(core, a, s.p, s.f);
      core.compute(INTRA.cycles, INTRA.instructions);
      yield* dsm.poll();
    }
    yield* addGlobal(dsm, globals, intrafVirLock(P), G_VIR, vir);
  };

  /**
   * The inter-molecular loop of INTERF and POTENG: each own molecule m against the next
   * compLast(m, n) - m molecules (cyclically), both opened for reading; for each pair in range
   * `pair(m, comp, b)` (b: the address of molecule comp) and `cost` are charged. Returns the sum
   * of `pair`'s results in loop order.
   */
  const ownPairs = function* (pair: (m: number, comp: number, b: number) => number, cost: { cycles: number; instructions: number }): Sim<number> {
    let sum = 0;
    for (let m = start; m < end; m++) {
      const a = yield* dsm.open(mols, m, false);
      loadSites(core, a, s.sm);
      const last = compLast(m, n);
      for (let ic = m + 1; ic <= last; ic++) {
        const comp = ic % n;
        const b = yield* dsm.open(mols, comp, false);
        core.compute(PAIR_TEST.cycles, PAIR_TEST.instructions);
        if (pairInRange(core, box, s.sm, b, s.shift)) {
          sum += pair(m, comp, b);
          core.compute(cost.cycles, cost.instructions);
        }
        yield* dsm.poll();
      }
    }
    return sum;
  };
  /** INTERF's pair: the forces into the private s.pf; returns the pair's virial. */
  const forcePair = (m: number, comp: number, b: number): number => pairForces(core, s.sm, b, s.shift, s.sc, s.pf, m, comp);
  /** POTENG's pair: the energies into s.e; no virial (0). */
  const energyPair = (_m: number, _comp: number, b: number): number => {
    pairEnergy(core, s.sm, b, s.shift, s.sc, s.e);
    return 0;
  };

  const interf = function* (dest: number): Sim<void> {
    s.pf.fill(0);
    core.compute(9 * n, 9 * n); // SPLASH zeroes its PFORCES: 9 n private stores
    const vir = yield* ownPairs(forcePair, PAIR_FORCE);
    yield* addGlobal(dsm, globals, interfVirLock(P), G_VIR, vir);
    // migratory data: add the private forces into the shared molecules under the blocks' locks
    let held = -1;
    for (const m of touched) {
      const block = waterBlockOf(n, m, P);
      if (block !== held) {
        if (held >= 0) yield* dsm.release(held);
        yield* dsm.acquire(block);
        held = block;
      }
      const a = yield* dsm.open(mols, m, true);
      addPrivate(core, a, dest, s.pf, m);
      core.compute(ADD_PRIVATE.cycles, ADD_PRIVATE.instructions);
      yield* dsm.poll();
    }
    if (held >= 0) yield* dsm.release(held);
    yield* dsm.barrier(); // SPLASH's InterfBar
    for (let m = start; m < end; m++) {
      const a = yield* dsm.open(mols, m, true);
      scaleMolecule(core, a, dest);
      core.compute(SCALE.cycles, SCALE.instructions);
      yield* dsm.poll();
    }
  };

  yield* intraf();
  yield* dsm.barrier();
  yield* interf(ACC);
  yield* dsm.barrier();

  for (let step = 1; step <= size.steps; step++) {
    if (dsm.me === 0) {
      const g = yield* dsm.open(globals, 0, true);
      for (let k = 0; k < 7; k++) core.storeF64(g + 8 * k, 0);
    }
    yield* dsm.barrier();
    for (let m = start; m < end; m++) {
      const a = yield* dsm.open(mols, m, true);
      predictMolecule(core, a, s.x);
      core.compute(PREDICT.cycles, PREDICT.instructions);
      yield* dsm.poll();
    }
    yield* intraf();
    yield* dsm.barrier();
    yield* interf(FORCES);
    for (let m = start; m < end; m++) {
      const a = yield* dsm.open(mols, m, true);
      correctMolecule(core, a);
      core.compute(CORRECT.cycles, CORRECT.instructions);
      yield* dsm.poll();
    }
    for (let m = start; m < end; m++) {
      const a = yield* dsm.open(mols, m, true);
      boundaryMolecule(core, box, a);
      core.compute(BOUNDARY.cycles, BOUNDARY.instructions);
    }
    for (let dir = 0; dir < 3; dir++) {
      let sum = 0;
      for (let m = start; m < end; m++) {
        const a = yield* dsm.open(mols, m, false);
        sum += kineticMolecule(core, a, dir);
        core.compute(KINETIC.cycles, KINETIC.instructions);
      }
      yield* addGlobal(dsm, globals, kinetiSumLock(P), G_SUM + 8 * dir, sum);
    }
    yield* dsm.barrier();
    if (step === size.steps) {
      // POTENG (NPRINT = steps)
      let intra = 0;
      for (let m = start; m < end; m++) {
        const a = yield* dsm.open(mols, m, false);
        intra += intraEnergy(core, a);
        core.compute(INTRA_ENERGY.cycles, INTRA_ENERGY.instructions);
      }
      s.e.fill(0);
      yield* ownPairs(energyPair, PAIR_ENERGY);
      yield* dsm.acquire(potengSumLock(P));
      const g = yield* dsm.open(globals, 0, true);
      core.storeF64(g + G_POTA, core.loadF64(g + G_POTA) + s.e[0]!);
      core.storeF64(g + G_POTR, core.loadF64(g + G_POTR) + s.e[1]!);
      core.storeF64(g + G_POTRF, core.loadF64(g + G_POTRF) + intra);
      core.compute(3 * X87_CYCLES.add, 3);
      yield* dsm.release(potengSumLock(P));
      yield* dsm.barrier(); // SPLASH's PotengBar
    }
    yield* dsm.barrier();
  }
}

// ------------------------------------------------------------------ check
/** Relative tolerance against each field's largest magnitude (module comment). */
export const WATER_TOLERANCE = 1e-9;
const CHECKED_ORDERS = [0, 1, 2, 3, 4, 5, FORCES];

const referenceCache = new Map<string, WaterResult>();
function cachedReference(size: WaterSize): WaterResult {
  const key = `${size.molecules}x${size.steps}`;
  let r = referenceCache.get(key);
  if (!r) {
    r = waterReference(size);
    referenceCache.clear();
    referenceCache.set(key, r);
  }
  return r;
}

function* check(dsm: Dsm, size: WaterSize): Sim<CheckResult> {
  const arrays = allocated.get(dsm);
  if (!arrays) throw new Error('water-nsq: check runs after run on the same processor (no arrays allocated on this Dsm)');
  const ref = cachedReference(size);
  const n = size.molecules;
  const per = MOLECULE_BYTES / 8;
  // field scale: the largest magnitude of VM (index -1) and of each checked order over all molecules
  const fields = [-1, ...CHECKED_ORDERS];
  const idx = (field: number, dir: number, atom: number): number => (field < 0 ? dir : fOff(field, dir, atom) / 8);
  const scale = new Map<number, number>();
  for (const field of fields) {
    let mx = 0;
    for (let m = 0; m < n; m++) for (let dir = 0; dir < 3; dir++) for (let atom = 0; atom < 3; atom++) mx = Math.max(mx, Math.abs(ref.molecules[m * per + idx(field, dir, atom)]!));
    scale.set(field, mx > 0 ? mx : 1);
  }
  let worst = 0;
  let first = '';
  for (let m = 0; m < n; m++) {
    const a = yield* dsm.open(arrays.mols, m, false);
    for (const field of fields)
      for (let dir = 0; dir < 3; dir++)
        for (let atom = 0; atom < (field < 0 ? 1 : 3); atom++) {
          const k = idx(field, dir, atom);
          const got = dsm.core.loadF64(a + 8 * k);
          const want = ref.molecules[m * per + k]!;
          const dev = Math.abs(got - want) / scale.get(field)!;
          if (!(dev <= WATER_TOLERANCE) && !first) first = `molecule ${m} ${field < 0 ? 'VM' : `F[${field}]`}[${dir}]${field < 0 ? '' : `[${atom}]`}: ${got} vs sequential ${want}`;
          if (dev > worst) worst = dev;
        }
    yield* dsm.poll();
  }
  const g = yield* dsm.open(arrays.globals, 0, false);
  const names = ['VIR', 'SUM[0]', 'SUM[1]', 'SUM[2]', 'POTA', 'POTR', 'POTRF'];
  const sums: number[] = [];
  for (let k = 0; k < 7; k++) {
    const got = dsm.core.loadF64(g + 8 * k);
    sums.push(got);
    const want = ref.globals[k]!;
    const dev = Math.abs(got - want) / Math.max(Math.abs(want), 1e-300);
    if (!(dev <= WATER_TOLERANCE) && !first) first = `${names[k]}: ${got} vs sequential ${want}`;
  }
  if (first) return { correct: false, detail: `differs from the sequential run beyond ${WATER_TOLERANCE} relative: first at ${first}` };
  const kinetic = sums[1]! + sums[2]! + sums[3]!;
  return {
    correct: true,
    detail: `${n} molecules after ${size.steps} steps within ${WATER_TOLERANCE} of the sequential run (largest deviation ${worst.toExponential(2)}); kinetic sum ${kinetic}, POTA ${sums[4]}, POTR ${sums[5]}, POTRF ${sums[6]}`,
  };
}

export const waterNsq: DsmApp<WaterSize> = {
  name: 'water-nsq',
  title: 'Water-N-Squared',
  sizes: {
    small: { molecules: 216, steps: 2 },
    'paper-sm': { molecules: 1728, steps: 2 },
    'paper-lg': { molecules: 2744, steps: 2 },
  } satisfies Record<SizeName, WaterSize>,
  describe: (s) => `${s.molecules} mols, ${s.steps} steps (molecules of ${MOLECULE_BYTES} bytes)`,
  locks: (_s, procs) => procs + 4,
  run,
  check,
};
