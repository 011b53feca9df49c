/**
 * Water-Spatial's reference: the computation of water-spatial.ts in plain JavaScript arrays,
 * without the simulator. Each molecule's force is summed in the program's order (neighbour box,
 * then that box's list), which does not depend on the processor count, so molecules come out
 * bit-identical; the global sums (virial, kinetic, potential) are summed here box by box, in
 * the program under locks in the processors' order, so they agree up to rounding.
 *
 * Contract: `wsReference(size)` returns every molecule's state (MOL_DOUBLES doubles each, the
 * object's layout) and the global sums after `size.steps` steps.
 */
import {
  DT,
  CUT2,
  FORCES,
  GEAR,
  MASS,
  MOL_DOUBLES,
  MTOT,
  NORDER,
  boxOf,
  fIdx,
  geometry,
  initial,
  lj,
  neighbours,
  wrap,
  type WsSize,
} from './ws-model';

export interface WsResult {
  readonly n: number;
  readonly mol: Float64Array;
  readonly vir: number;
  readonly kin: [number, number, number];
  readonly pot: number;
  /** Pairs tested and pairs within the cutoff, over the run. */
  readonly pairs: number;
  readonly interacting: number;
}

/** Initial molecule state (the object layout) and box lists (molecules in increasing index order). */
export function wsInitial(size: WsSize): { mol: Float64Array; lists: number[][] } {
  const g = geometry(size.molecules);
  const { pos, vel } = initial(g);
  const n = g.n;
  const mol = new Float64Array(n * MOL_DOUBLES);
  const lists: number[][] = Array.from({ length: g.b ** 3 }, () => []);
  for (let m = 0; m < n; m++) {
    const s = m * MOL_DOUBLES;
    for (let d = 0; d < 3; d++) {
      let vm = 0;
      for (let a = 0; a < 3; a++) {
        const x = pos[m * 9 + a * 3 + d]!;
        mol[s + fIdx(0, d, a)] = x;
        mol[s + fIdx(1, d, a)] = vel[m * 3 + d]! * DT;
        vm += MASS[a]! * x;
      }
      mol[s + d] = vm / MTOT;
    }
    lists[boxOf(g, pos[m * 9]!, pos[m * 9 + 1]!, pos[m * 9 + 2]!)]!.push(m);
  }
  return { mol, lists };
}

export function wsReference(size: WsSize): WsResult {
  const g = geometry(size.molecules);
  const { mol, lists } = wsInitial(size);
  const n = g.n;
  const x = new Float64Array(NORDER);
  const out = new Float64Array(2);
  let vir = 0;
  let pot = 0;
  const kin: [number, number, number] = [0, 0, 0];
  let pairs = 0;
  let interacting = 0;
  const neigh = lists.map((_, b) => neighbours(g, b));
  for (let step = 0; step < size.steps; step++) {
    for (let m = 0; m < n; m++) {
      const s = m * MOL_DOUBLES;
      for (let d = 0; d < 3; d++)
        for (let a = 0; a < 3; a++) {
          for (let k = 0; k < NORDER; k++) x[k] = mol[s + fIdx(k, d, a)]!;
          for (let i = 0; i < NORDER - 1; i++) for (let j = NORDER - 2; j >= i; j--) x[j] += x[j + 1]!;
          for (let k = 0; k < NORDER; k++) mol[s + fIdx(k, d, a)] = x[k]!;
        }
      for (let d = 0; d < 3; d++) {
        let vm = 0;
        for (let a = 0; a < 3; a++) {
          vm += MASS[a]! * mol[s + fIdx(0, d, a)]!;
          mol[s + fIdx(FORCES, d, a)] = 0;
        }
        mol[s + d] = vm / MTOT;
      }
    }
    for (let b = 0; b < lists.length; b++) {
      let lvir = 0;
      for (const nb of neigh[b]!)
        for (const nm of lists[nb]!) {
          const ns = nm * MOL_DOUBLES;
          for (const c of lists[b]!) {
            if (c === nm) continue;
            const cs = c * MOL_DOUBLES;
            pairs++;
            const dx = wrap(mol[cs + fIdx(0, 0, 0)]! - mol[ns + fIdx(0, 0, 0)]!, g.side);
            const dy = wrap(mol[cs + fIdx(0, 1, 0)]! - mol[ns + fIdx(0, 1, 0)]!, g.side);
            const dz = wrap(mol[cs + fIdx(0, 2, 0)]! - mol[ns + fIdx(0, 2, 0)]!, g.side);
            const r2 = dx * dx + dy * dy + dz * dz;
            if (!(r2 < CUT2)) continue;
            interacting++;
            lj(r2, out);
            const f = out[0]!;
            lvir += f * r2;
            for (let a = 0; a < 3; a++) {
              const share = MASS[a]! / MTOT;
              mol[cs + fIdx(FORCES, 0, a)] += f * dx * share;
              mol[cs + fIdx(FORCES, 1, a)] += f * dy * share;
              mol[cs + fIdx(FORCES, 2, a)] += f * dz * share;
            }
          }
        }
      vir += lvir;
    }
    for (let b = 0; b < lists.length; b++) {
      const lk = [0, 0, 0];
      for (const m of lists[b]!) {
        const s = m * MOL_DOUBLES;
        for (let d = 0; d < 3; d++)
          for (let a = 0; a < 3; a++) {
            const corr = ((mol[s + fIdx(FORCES, d, a)]! / MASS[a]!) * DT * DT) / 2 - mol[s + fIdx(2, d, a)]!;
            for (let k = 0; k < NORDER; k++) mol[s + fIdx(k, d, a)] += GEAR[k]! * corr;
          }
        for (let d = 0; d < 3; d++) {
          const o = mol[s + fIdx(0, d, 0)]!;
          const shift = o < 0 ? g.side : o >= g.side ? -g.side : 0;
          if (shift !== 0) for (let a = 0; a < 3; a++) mol[s + fIdx(0, d, a)] += shift;
        }
        for (let d = 0; d < 3; d++)
          for (let a = 0; a < 3; a++) {
            const v = mol[s + fIdx(1, d, a)]! / DT;
            lk[d] += MASS[a]! * v * v;
          }
      }
      for (let d = 0; d < 3; d++) kin[d] += lk[d]!;
    }
  }
  for (let b = 0; b < lists.length; b++) {
    let lpot = 0;
    for (const c of lists[b]!)
      for (const nb of neigh[b]!)
        for (const nm of lists[nb]!) {
          if (nm === c) continue;
          const cs = c * MOL_DOUBLES;
          const ns = nm * MOL_DOUBLES;
          const dx = wrap(mol[cs + fIdx(0, 0, 0)]! - mol[ns + fIdx(0, 0, 0)]!, g.side);
          const dy = wrap(mol[cs + fIdx(0, 1, 0)]! - mol[ns + fIdx(0, 1, 0)]!, g.side);
          const dz = wrap(mol[cs + fIdx(0, 2, 0)]! - mol[ns + fIdx(0, 2, 0)]!, g.side);
          const r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < CUT2) {
            lj(r2, out);
            lpot += 0.5 * out[1]!;
          }
        }
    pot += lpot;
  }
  return { n, mol, vir, kin, pot, pairs, interacting };
}
