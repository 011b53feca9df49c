/**
 * Barnes-Hut's input, constants and pure helpers, shared by the DSM program (barnes-hut.ts) and
 * its plain-JavaScript reference (bh-reference.ts). SPLASH-2 barnes (Woo et al., ISCA 1995).
 *
 * Contract
 * - `plummer(n)`: the initial bodies as SPLASH-2's testdata builds them (two Plummer spheres,
 *   the second a copy of the first offset by 4 in every coordinate, centre of mass and mean
 *   velocity removed; Aarseth, Henon & Wielen 1974), from the engine's seeded rng (no
 *   Math.random): deterministic for a given n.
 * - `intcoord`, `subindex`, `depthOf`: the integerised coordinates and the child-slot choice of
 *   the octree (IMAX = 2^30, root level 2^29, a node's level halves at each depth).
 * - Object layouts in bytes, fields 8-byte aligned because the simulated cores require aligned
 *   doubles (model: the i386 layouts of SPLASH-2's structs are body 108 B, cell 104 B, leaf 116 B).
 * Units: the program's (G = 1, total mass 1), bytes.
 */
import { makeRng } from '@manycore/engine';

/** SPLASH-2 barnes input defaults: dtime, eps, tol, fcells, fleaves (the program's input file). */
export const DTIME = 0.025;
export const DTHF = 0.5 * DTIME;
export const EPS = 0.05;
export const EPSSQ = EPS * EPS;
export const TOL = 1.0;
export const TOLSQ = TOL * TOL;
export const FCELLS = 2.0;
export const FLEAVES = 0.5;
export const SEED = 123;
/** SPLASH-2 defs.H. */
export const MAX_BODIES_PER_LEAF = 10;
export const MAXLOCK = 2048;
export const NSUB = 8;
export const IMAX = 2 ** 30;
export const ROOT_LEVEL = IMAX / 2;

export const BODY = 1;
export const CELL = 2;
export const LEAF = 3;

// node header (body, cell, leaf): type, cost, mass, pos[3], level, parent, child_num
export const N_TYPE = 0;
export const N_COST = 4;
export const N_MASS = 8;
export const N_POS = 16;
export const N_LEVEL = 40;
export const N_PARENT = 44;
export const N_CHILD = 48;
// body
export const B_VEL = 56;
export const B_ACC = 80;
export const B_PHI = 104;
export const BODY_BYTES = 112;
// cell and leaf: processor, next, prev, seqnum, done
export const T_PROC = 52;
export const T_NEXT = 56;
export const T_PREV = 60;
export const T_SEQ = 64;
export const T_DONE = 68;
export const C_SUBP = 72;
export const CELL_BYTES = 104;
export const L_NUMB = 72;
export const L_BODYP = 76;
export const LEAF_BYTES = 120;
// Global (SPLASH-2 GlobalMemory's shared fields): rmin[3], rsize, min[3], max[3], the tree's depth
export const G_RMIN = 0;
export const G_RSIZE = 24;
export const G_MIN = 32;
export const G_MAX = 56;
export const G_DEPTH = 80;
export const GLOBAL_BYTES = 88;

/** Node references as stored in the shared objects: 0 = none, cell c = 2c + 1, leaf l = 2l + 2. */
export const cellRef = (c: number): number => 2 * c + 1;
export const leafRef = (l: number): number => 2 * l + 2;
export const isCellRef = (r: number): boolean => (r & 1) === 1;
export const refIndex = (r: number): number => (r - 1) >> 1;

export interface BhSize {
  readonly bodies: number;
  readonly steps: number;
}

/** Pool sizes (SPLASH-2 code.C: maxleaf = fleaves n, maxcell = fcells maxleaf, split evenly), plus
 * 64 each per processor (model: slack so a processor that creates more than its even share at
 * small sizes does not stop; SPLASH-2 would stop with "increase fcells/fleaves"). */
export function pools(n: number, procs: number): { maxmycell: number; maxmyleaf: number } {
  const maxleaf = Math.floor(FLEAVES * n);
  const maxcell = Math.floor(FCELLS * maxleaf);
  return { maxmycell: Math.ceil(maxcell / procs) + 64, maxmyleaf: Math.ceil(maxleaf / procs) + 64 };
}

export interface Bodies {
  readonly n: number;
  readonly mass: number;
  readonly pos: Float64Array;
  readonly vel: Float64Array;
}

const MFRAC = 0.999;

/** SPLASH-2 testdata: Plummer-model bodies (see the module contract). */
export function plummer(n: number): Bodies {
  if (!Number.isInteger(n) || n < 2) throw new Error(`barnes-hut: bodies must be an integer >= 2 (got ${n})`);
  const rng = makeRng(SEED, 0);
  const xrand = (lo: number, hi: number): number => lo + (hi - lo) * rng.next();
  const pos = new Float64Array(3 * n);
  const vel = new Float64Array(3 * n);
  const shell = (out: Float64Array, at: number, rad: number): void => {
    let x: number, y: number, z: number, rsq: number;
    do {
      x = xrand(-1, 1);
      y = xrand(-1, 1);
      z = xrand(-1, 1);
      rsq = x * x + y * y + z * z;
    } while (rsq > 1.0);
    const s = rad / Math.sqrt(rsq);
    out[at] = x * s;
    out[at + 1] = y * s;
    out[at + 2] = z * s;
  };
  const rsc = (9 * Math.PI) / 16;
  const vsc = Math.sqrt(1.0 / rsc);
  const half = Math.ceil(n / 2);
  for (let i = 0; i < half; i++) {
    let r = 1 / Math.sqrt(Math.pow(xrand(0.0, MFRAC), -2.0 / 3.0) - 1);
    while (r > 9.0) r = 1 / Math.sqrt(Math.pow(xrand(0.0, MFRAC), -2.0 / 3.0) - 1);
    shell(pos, 3 * i, rsc * r);
    let x: number, y: number;
    do {
      x = xrand(0.0, 1.0);
      y = xrand(0.0, 0.1);
    } while (y > x * x * Math.pow(1 - x * x, 3.5));
    const v = (Math.sqrt(2.0) * x) / Math.pow(1 + r * r, 0.25);
    shell(vel, 3 * i, vsc * v);
  }
  for (let i = half; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      pos[3 * i + k] = pos[3 * (i - half) + k]! + 4.0;
      vel[3 * i + k] = vel[3 * (i - half) + k]!;
    }
  }
  for (let k = 0; k < 3; k++) {
    let cmr = 0;
    let cmv = 0;
    for (let i = 0; i < n; i++) {
      cmr += pos[3 * i + k]!;
      cmv += vel[3 * i + k]!;
    }
    cmr /= n;
    cmv /= n;
    for (let i = 0; i < n; i++) {
      pos[3 * i + k] -= cmr;
      vel[3 * i + k] -= cmv;
    }
  }
  return { n, mass: 1.0 / n, pos, vel };
}

/** SPLASH-2 setbound / the end of stepsystem: the root box from the bodies' extent. */
export function bound(min: ArrayLike<number>, max: ArrayLike<number>, rmin: Float64Array): number {
  let side = 0;
  for (let k = 0; k < 3; k++) side = Math.max(side, max[k]! - min[k]!);
  for (let k = 0; k < 3; k++) rmin[k] = min[k]! - side / 100000.0;
  return 1.00002 * side;
}

/** Integerised coordinates in [0, IMAX); false when a coordinate is outside the root box. */
export function intcoord(xp: Int32Array, x: number, y: number, z: number, rmin: Float64Array, rsize: number): boolean {
  for (let k = 0; k < 3; k++) {
    const xsc = ((k === 0 ? x : k === 1 ? y : z) - rmin[k]!) / rsize;
    if (!(xsc >= 0 && xsc < 1)) return false;
    xp[k] = Math.floor(IMAX * xsc);
  }
  return true;
}

/** The child slot of a cell at `level` for integer coordinates xp (SPLASH-2 subindex's order). */
export function subindex(xp: Int32Array, level: number): number {
  let i = 0;
  let yes = false;
  if (xp[0]! & level) {
    i += NSUB >> 1;
    yes = true;
  }
  for (let k = 1; k < 3; k++) {
    const bit = (xp[k]! & level) !== 0;
    if ((bit && !yes) || (!bit && yes)) {
      i += NSUB >> (k + 1);
      yes = true;
    } else yes = false;
  }
  return i;
}

/** Depth below the root of a node at `level` (root 0). */
export function depthOf(level: number): number {
  return 29 - (31 - Math.clz32(level));
}
