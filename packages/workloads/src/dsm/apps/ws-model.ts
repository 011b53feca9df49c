/**
 * Water-Spatial's input, geometry and pure helpers, shared by the DSM program
 * (water-spatial.ts) and its plain-JavaScript reference (ws-reference.ts). SPLASH-2
 * water-spatial (Woo et al., ISCA 1995).
 *
 * Contract
 * - Molecules on a cubic lattice at liquid-water density (1 g/cm^3), in a periodic cube of side
 *   L; a 3-D grid of B^3 boxes of side L / B >= the cutoff (B = floor(L / cutoff)).
 * - `initial(n)`: positions of the three sites (O, H, H; rigid SPC geometry, random orientation),
 *   centre-of-mass velocities at 298 K, from the engine's seeded rng (no Math.random).
 * - `boxOf`, `neighbours`: the box of a position and the distinct neighbour boxes of a box (the
 *   27 around it, periodic; with B < 3 the duplicates are dropped, as SPLASH-2's B == 2 case).
 * - `partition(B, procs)`: SPLASH-2's 3-D split of the boxes over processors (px x py x pz =
 *   procs, each dimension's boxes split in contiguous ranges); a processor's boxes are fixed.
 * - Object layout (SPLASH-2's link_type: molecule_type {VM[3], F[MXOD2 = 9][3 dirs][3 atoms]} +
 *   next_mol): 84 doubles + a link = 680 B, a box 24 B (list head, coordinates, next box).
 * Units: angstrom, picosecond, atomic mass unit (energy in amu A^2 / ps^2 = 10 J/mol), bytes.
 */
import { makeRng } from '@manycore/engine';

export interface WsSize {
  readonly molecules: number;
  readonly steps: number;
}

/** Time step: SPLASH-2 water's TSTEP = 1e-15 s. */
export const DT = 0.001;
/** Cutoff radius (model: the 6.212752 A of SPLASH-2 water's input files, as distributed with the suite). */
export const CUTOFF = 6.212752;
export const CUT2 = CUTOFF * CUTOFF;
/** O-O Lennard-Jones of SPC/E water (Berendsen, Grigera & Straatsma 1987): sigma 3.166 A, epsilon 0.6502 kJ/mol = 65.02 amu A^2/ps^2. */
export const SIGMA2 = 3.166 * 3.166;
export const EPSILON = 65.02;
/** Masses (amu): O, H, H. */
export const MASS = [15.9994, 1.008, 1.008] as const;
export const MTOT = MASS[0] + MASS[1] + MASS[2];
/** Molecules per A^3 at 1 g/cm^3: 6.02214e23 / 18.0154 / 1e24. */
export const DENSITY = 0.0334280;
const KT = 0.83144626 * 298; // kB T in amu A^2/ps^2 (8.3144626 J/mol/K / 10)
const OH = 1.0; // SPC O-H bond, A
const HOH = (109.47 * Math.PI) / 180;
/** Gear corrector coefficients, 6 values, second-order equation (Allen & Tildesley, Computer Simulation of Liquids, Appendix E). */
export const GEAR = [3 / 16, 251 / 360, 1, 11 / 18, 1 / 6, 1 / 60] as const;
export const NORDER = 6;

// molecule object: VM[3] then F[order][dir][atom]; orders: 0 DISP .. 5 (scaled derivatives), 7 FORCES
export const M_VM = 0;
export const FORCES = 7;
export const fOff = (order: number, dir: number, atom: number): number => 24 + ((order * 3 + dir) * 3 + atom) * 8;
export const M_NEXT = 672;
export const MOL_BYTES = 680;
// box object
export const X_HEAD = 0;
export const X_COORD = 4;
export const X_NEXT = 16;
export const BOX_BYTES = 24;
// global sums (SPLASH-2 gl: VIR, SUM[3] kinetic, POTA)
export const G_VIR = 0;
export const G_KIN = 8;
export const G_POT = 32;
export const GLOBAL_BYTES = 40;
export const VIR_LOCK = 0;
export const KIN_LOCK = 1;
export const POT_LOCK = 2;

export interface Geometry {
  readonly n: number;
  /** Box side L, A. */
  readonly side: number;
  /** Boxes per dimension. */
  readonly b: number;
}

export function geometry(n: number): Geometry {
  if (!Number.isInteger(n) || n < 8) throw new Error(`water-spatial: molecules must be an integer >= 8 (got ${n})`);
  const side = Math.cbrt(n / DENSITY);
  const b = Math.floor(side / CUTOFF);
  if (b < 1) throw new Error(`water-spatial: ${n} molecules make a box of ${side.toFixed(2)} A, smaller than the cutoff ${CUTOFF} A`);
  if (side < 2 * CUTOFF) throw new Error(`water-spatial: ${n} molecules make a box of ${side.toFixed(2)} A; at least ${(2 * CUTOFF).toFixed(2)} A (2 x cutoff) is needed for the minimum image`);
  return { n, side, b };
}

/** Sites' positions (n x 3 atoms x 3 dirs, [mol][atom][dir]) and centre-of-mass velocities (n x 3). */
export function initial(g: Geometry): { pos: Float64Array; vel: Float64Array } {
  const rng = makeRng(4096, 0);
  const { n, side } = g;
  const per = Math.ceil(Math.cbrt(n - 0.5));
  const a = side / per;
  const pos = new Float64Array(n * 9);
  const vel = new Float64Array(n * 3);
  const unit = (): [number, number, number] => {
    for (;;) {
      const x = 2 * rng.next() - 1;
      const y = 2 * rng.next() - 1;
      const z = 2 * rng.next() - 1;
      const r = Math.sqrt(x * x + y * y + z * z);
      if (r > 0.1 && r <= 1) return [x / r, y / r, z / r];
    }
  };
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const vsd = Math.sqrt(KT / MTOT);
  for (let m = 0; m < n; m++) {
    const ix = Math.floor(m / (per * per));
    const iy = Math.floor(m / per) % per;
    const iz = m % per;
    const o = [(ix + 0.5) * a + 0.1 * a * (rng.next() - 0.5), (iy + 0.5) * a + 0.1 * a * (rng.next() - 0.5), (iz + 0.5) * a + 0.1 * a * (rng.next() - 0.5)];
    const u = unit();
    const w0 = unit();
    // w: the part of w0 perpendicular to u, normalised
    const dot = u[0] * w0[0] + u[1] * w0[1] + u[2] * w0[2];
    const w = [w0[0] - dot * u[0], w0[1] - dot * u[1], w0[2] - dot * u[2]];
    const wl = Math.hypot(w[0]!, w[1]!, w[2]!);
    for (let d = 0; d < 3; d++) {
      pos[m * 9 + d] = o[d]!;
      pos[m * 9 + 3 + d] = o[d]! + OH * u[d]!;
      pos[m * 9 + 6 + d] = o[d]! + OH * (Math.cos(HOH) * u[d]! + (Math.sin(HOH) * w[d]!) / wl);
      vel[m * 3 + d] = vsd * gauss();
    }
  }
  for (let d = 0; d < 3; d++) {
    let mean = 0;
    for (let m = 0; m < n; m++) mean += vel[m * 3 + d]!;
    mean /= n;
    for (let m = 0; m < n; m++) vel[m * 3 + d] -= mean;
  }
  return { pos, vel };
}

/** The box (0..b^3-1) holding position (x, y, z) in [0, side). */
export function boxOf(g: Geometry, x: number, y: number, z: number): number {
  const c = (v: number): number => Math.min(g.b - 1, Math.max(0, Math.floor((v / g.side) * g.b)));
  return (c(x) * g.b + c(y)) * g.b + c(z);
}

/** Distinct neighbour boxes of box `box` (itself included), in SPLASH-2's XBOX, YBOX, ZBOX loop order. */
export function neighbours(g: Geometry, box: number): number[] {
  const b = g.b;
  const i = Math.floor(box / (b * b));
  const j = Math.floor(box / b) % b;
  const k = box % b;
  const out: number[] = [];
  for (let x = i - 1; x <= i + 1; x++)
    for (let y = j - 1; y <= j + 1; y++)
      for (let z = k - 1; z <= k + 1; z++) {
        const nb = ((((x + b) % b) * b + ((y + b) % b)) * b + ((z + b) % b)) | 0;
        if (!out.includes(nb)) out.push(nb);
      }
  return out;
}

/** The boxes of processor `me` (SPLASH-2's 3-D split; see the module contract), in box order. */
export function partition(b: number, procs: number, me: number): number[] {
  const dims = [1, 1, 1];
  const factors: number[] = [];
  let r = procs;
  for (let f = 2; f * f <= r; f++)
    while (r % f === 0) {
      factors.push(f);
      r /= f;
    }
  if (r > 1) factors.push(r);
  factors.sort((x, y) => y - x);
  for (const f of factors) {
    let best = 0;
    for (let d = 1; d < 3; d++) if (b / dims[d]! > b / dims[best]!) best = d;
    dims[best]! *= f;
  }
  const [px, py, pz] = dims as [number, number, number];
  const ix = Math.floor(me / (py * pz));
  const iy = Math.floor(me / pz) % py;
  const iz = me % pz;
  const range = (i: number, p: number): [number, number] => [Math.floor((i * b) / p), Math.floor(((i + 1) * b) / p)];
  const [x0, x1] = range(ix, px);
  const [y0, y1] = range(iy, py);
  const [z0, z1] = range(iz, pz);
  const out: number[] = [];
  for (let x = x0; x < x1; x++) for (let y = y0; y < y1; y++) for (let z = z0; z < z1; z++) out.push((x * b + y) * b + z);
  return out;
}

/** Minimum-image difference along one dimension. */
export function wrap(d: number, side: number): number {
  if (d > side / 2) return d - side;
  if (d < -side / 2) return d + side;
  return d;
}

/** Lennard-Jones at squared distance r2 (< CUT2): out[0] = force / r (along the separation), out[1] = potential. */
export function lj(r2: number, out: Float64Array): void {
  const s2 = SIGMA2 / r2;
  const s6 = s2 * s2 * s2;
  const s12 = s6 * s6;
  out[0] = (24 * EPSILON * (2 * s12 - s6)) / r2;
  out[1] = 4 * EPSILON * (s12 - s6);
}

/** Molecule state as doubles in the object's layout: [VM 0..2][F (order, dir, atom) 3..83]. */
export const MOL_DOUBLES = 84;
export const fIdx = (order: number, dir: number, atom: number): number => 3 + (order * 3 + dir) * 3 + atom;
