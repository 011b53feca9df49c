/**
 * Barnes-Hut's reference: the computation of barnes-hut.ts in plain JavaScript arrays, without
 * the simulator, as one processor runs it (bodies inserted in their partition order, cells and
 * leaves numbered in creation order, the same summation orders), so the DSM program on one
 * processor gives the same bits and on several processors the same values up to rounding.
 *
 * Contract: `bhReference(size)` returns the bodies' final position, velocity, acceleration,
 * potential and cost, and the tree statistics of the last step (cells, leaves, interactions).
 */
import {
  DTHF,
  DTIME,
  EPSSQ,
  MAX_BODIES_PER_LEAF,
  ROOT_LEVEL,
  TOLSQ,
  bound,
  intcoord,
  plummer,
  pools,
  subindex,
  type BhSize,
} from './bh-model';

export interface BhResult {
  readonly n: number;
  readonly pos: Float64Array;
  readonly vel: Float64Array;
  readonly acc: Float64Array;
  readonly phi: Float64Array;
  readonly cost: Int32Array;
  /** Last step: cells and leaves built, body-body and body-cell interactions, deepest level. */
  readonly cells: number;
  readonly leaves: number;
  readonly n2b: number;
  readonly nbc: number;
  /** Bodies moved into a new cell by SubdivideLeaf in the last step's tree build. */
  readonly moves: number;
  /** Nodes (cells and leaves) visited by the force walks. */
  readonly visits: number;
  readonly depth: number;
}

export function bhReference(size: BhSize): BhResult {
  const { bodies: n, steps } = size;
  const init = plummer(n);
  const mass = init.mass;
  const pos = Float64Array.from(init.pos);
  const vel = Float64Array.from(init.vel);
  const acc = new Float64Array(3 * n);
  const phi = new Float64Array(n);
  const cost = new Int32Array(n).fill(1);
  const { maxmycell: maxc, maxmyleaf: maxl } = pools(n, 1);
  const sub = new Int32Array(maxc * 8); // refs: cell c = 2c+1, leaf l = 2l+2
  const cLevel = new Int32Array(maxc);
  const cMass = new Float64Array(maxc);
  const cPos = new Float64Array(3 * maxc);
  const cCost = new Int32Array(maxc);
  const lBody = new Int32Array(maxl * MAX_BODIES_PER_LEAF);
  const lN = new Int32Array(maxl);
  const lLevel = new Int32Array(maxl);
  const lMass = new Float64Array(maxl);
  const lPos = new Float64Array(3 * maxl);
  const lCost = new Int32Array(maxl);
  let ncell = 0;
  let nleaf = 0;
  const rmin = new Float64Array(3);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, pos[3 * i + k]!);
      max[k] = Math.max(max[k]!, pos[3 * i + k]!);
    }
  let rsize = bound(min, max, rmin);
  let order = Int32Array.from({ length: n }, (_, i) => i);
  const xp = new Int32Array(3); // the inserted body's coordinates
  const xs = new Int32Array(3); // a moved body's coordinates (SubdivideLeaf's own)
  let depthMax = 0;
  let n2b = 0;
  let nbc = 0;
  let visits = 0;
  let moves = 0;

  const makeCell = (level: number): number => {
    if (ncell === maxc) throw new Error('barnes-hut reference: cell pool full');
    const c = ncell++;
    sub.fill(0, 8 * c, 8 * c + 8);
    cLevel[c] = level;
    cMass[c] = 0;
    return c;
  };
  const makeLeaf = (level: number): number => {
    if (nleaf === maxl) throw new Error('barnes-hut reference: leaf pool full');
    const l = nleaf++;
    lN[l] = 0;
    lLevel[l] = level;
    lMass[l] = 0;
    return l;
  };
  const depth = (level: number): number => 29 - (31 - Math.clz32(level));
  const coords = (b: number, out: Int32Array = xp): void => {
    if (!intcoord(out, pos[3 * b]!, pos[3 * b + 1]!, pos[3 * b + 2]!, rmin, rsize)) throw new Error(`barnes-hut reference: body ${b} outside the root box`);
  };
  const subdivide = (l: number, level: number): number => {
    const nb = lN[l]!;
    moves += nb;
    const moved = Array.from(lBody.subarray(l * MAX_BODIES_PER_LEAF, l * MAX_BODIES_PER_LEAF + nb));
    lN[l] = 0;
    const c = makeCell(level);
    const deeper = level >> 1;
    depthMax = Math.max(depthMax, depth(deeper));
    coords(moved[0]!, xs);
    let idx = subindex(xs, level);
    sub[8 * c + idx] = 2 * l + 2;
    lLevel[l] = deeper;
    lBody[l * MAX_BODIES_PER_LEAF + lN[l]!++] = moved[0]!;
    for (let i = 1; i < nb; i++) {
      const p = moved[i]!;
      coords(p, xs);
      idx = subindex(xs, level);
      let le: number;
      if (sub[8 * c + idx] === 0) {
        le = makeLeaf(deeper);
        sub[8 * c + idx] = 2 * le + 2;
      } else le = (sub[8 * c + idx]! - 1) >> 1;
      lBody[le * MAX_BODIES_PER_LEAF + lN[le]!++] = p;
    }
    return c;
  };
  const insert = (b: number): void => {
    coords(b);
    let node = 0;
    let kid = subindex(xp, cLevel[0]!);
    let l = cLevel[0]! >> 1;
    for (;;) {
      if (l === 0) throw new Error('barnes-hut reference: not enough levels in tree');
      let q = sub[8 * node + kid]!;
      if (q === 0) {
        const le = makeLeaf(l);
        depthMax = Math.max(depthMax, depth(l));
        lBody[le * MAX_BODIES_PER_LEAF + lN[le]!++] = b;
        sub[8 * node + kid] = 2 * le + 2;
        return;
      }
      if ((q & 1) === 0) {
        const le = (q - 1) >> 1;
        if (lN[le] === MAX_BODIES_PER_LEAF) {
          q = 2 * subdivide(le, l) + 1;
          sub[8 * node + kid] = q;
        } else {
          lBody[le * MAX_BODIES_PER_LEAF + lN[le]!++] = b;
          return;
        }
      }
      node = (q - 1) >> 1;
      kid = subindex(xp, l);
      l >>= 1;
    }
  };
  const cofm = (r: number): void => {
    const i = (r - 1) >> 1;
    let m = 0;
    let c = 0;
    let x = 0;
    let y = 0;
    let z = 0;
    if ((r & 1) === 0) {
      for (let k = 0; k < lN[i]!; k++) {
        const p = lBody[i * MAX_BODIES_PER_LEAF + k]!;
        m += mass;
        c += cost[p]!;
        x += pos[3 * p]! * mass;
        y += pos[3 * p + 1]! * mass;
        z += pos[3 * p + 2]! * mass;
      }
      lMass[i] = m;
      lCost[i] = c;
      lPos[3 * i] = x / m;
      lPos[3 * i + 1] = y / m;
      lPos[3 * i + 2] = z / m;
      return;
    }
    for (let k = 0; k < 8; k++) {
      const q = sub[8 * i + k]!;
      if (q === 0) continue;
      cofm(q);
      const j = (q - 1) >> 1;
      const leaf = (q & 1) === 0;
      const qm = leaf ? lMass[j]! : cMass[j]!;
      const qp = leaf ? lPos : cPos;
      m += qm;
      c += leaf ? lCost[j]! : cCost[j]!;
      x += qp[3 * j]! * qm;
      y += qp[3 * j + 1]! * qm;
      z += qp[3 * j + 2]! * qm;
    }
    cMass[i] = m;
    cCost[i] = c;
    cPos[3 * i] = x / m;
    cPos[3 * i + 1] = y / m;
    cPos[3 * i + 2] = z / m;
  };
  const collect = (r: number, out: number[]): void => {
    const i = (r - 1) >> 1;
    if ((r & 1) === 0) {
      for (let k = 0; k < lN[i]!; k++) out.push(lBody[i * MAX_BODIES_PER_LEAF + k]!);
      return;
    }
    for (let k = 0; k < 8; k++) if (sub[8 * i + k] !== 0) collect(sub[8 * i + k]!, out);
  };
  const grav = (b: number, nstep: number): void => {
    const x0 = pos[3 * b]!;
    const y0 = pos[3 * b + 1]!;
    const z0 = pos[3 * b + 2]!;
    let p0 = 0;
    let ax = 0;
    let ay = 0;
    let az = 0;
    let terms = 0;
    const term = (m: number, dx: number, dy: number, dz: number, drsq0: number): void => {
      const drsq = drsq0 + EPSSQ;
      const drabs = Math.sqrt(drsq);
      const phii = m / drabs;
      p0 -= phii;
      const mor3 = phii / drsq;
      ax += dx * mor3;
      ay += dy * mor3;
      az += dz * mor3;
      terms++;
    };
    const walk = (r: number, dsq: number): void => {
      visits++;
      const i = (r - 1) >> 1;
      const leaf = (r & 1) === 0;
      const np = leaf ? lPos : cPos;
      const dx = np[3 * i]! - x0;
      const dy = np[3 * i + 1]! - y0;
      const dz = np[3 * i + 2]! - z0;
      const drsq = dx * dx + dy * dy + dz * dz;
      if (TOLSQ * drsq < dsq) {
        if (!leaf) {
          for (let k = 0; k < 8; k++) if (sub[8 * i + k] !== 0) walk(sub[8 * i + k]!, dsq / 4.0);
        } else {
          for (let k = 0; k < lN[i]!; k++) {
            const p = lBody[i * MAX_BODIES_PER_LEAF + k]!;
            if (p === b) continue;
            const ex = pos[3 * p]! - x0;
            const ey = pos[3 * p + 1]! - y0;
            const ez = pos[3 * p + 2]! - z0;
            term(mass, ex, ey, ez, ex * ex + ey * ey + ez * ez);
            n2b++;
          }
        }
      } else {
        term(leaf ? lMass[i]! : cMass[i]!, dx, dy, dz, drsq);
        nbc++;
      }
    };
    const a1x = acc[3 * b]!;
    const a1y = acc[3 * b + 1]!;
    const a1z = acc[3 * b + 2]!;
    walk(1, rsize * rsize);
    phi[b] = p0;
    acc[3 * b] = ax;
    acc[3 * b + 1] = ay;
    acc[3 * b + 2] = az;
    cost[b] = terms;
    if (nstep > 0) {
      vel[3 * b] += (ax - a1x) * DTHF;
      vel[3 * b + 1] += (ay - a1y) * DTHF;
      vel[3 * b + 2] += (az - a1z) * DTHF;
    }
  };

  for (let step = 0; step < steps; step++) {
    ncell = 0;
    nleaf = 0;
    depthMax = 0;
    n2b = 0;
    nbc = 0;
    visits = 0;
    moves = 0;
    makeCell(ROOT_LEVEL);
    for (const b of order) insert(b);
    cofm(1);
    const mine: number[] = [];
    collect(1, mine);
    order = Int32Array.from(mine);
    for (const b of order) grav(b, step);
    for (let k = 0; k < 3; k++) {
      min[k] = 1e99;
      max[k] = -1e99;
    }
    for (const b of order) {
      for (let k = 0; k < 3; k++) {
        const dvel = acc[3 * b + k]! * DTHF;
        const vel1 = vel[3 * b + k]! + dvel;
        pos[3 * b + k] += vel1 * DTIME;
        vel[3 * b + k] = vel1 + dvel;
        min[k] = Math.min(min[k]!, pos[3 * b + k]!);
        max[k] = Math.max(max[k]!, pos[3 * b + k]!);
      }
    }
    rsize = bound(min, max, rmin);
  }
  return { n, pos, vel, acc, phi, cost, cells: ncell, leaves: nleaf, n2b, nbc, moves, visits, depth: depthMax };
}
