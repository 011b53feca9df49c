/**
 * The Laplace/JOR problem of MetalSVM's measurement (paper 003 lines 1120-1158): a matrix of
 * `rows` x `columns` doubles, fixed edges (top row 1.0, the other edges 0.0), interior values
 * from the seed; each iteration computes every interior point of `new` from its four
 * neighbours in `old`, ((up + down) + left) + right) * 0.25 in that order, then the two arrays
 * swap by reference. Rows are split statically: core k of n updates the interior rows of
 * [floor(k rows / n), floor((k + 1) rows / n)).
 *
 * Contract: pure functions; `reference` is the sequential computation (same arithmetic in the
 * same order, so a parallel run is correct when it matches bit for bit). Memoised per worker
 * thread (a few entries), as every core of a run checks against the same matrix.
 */

/** Rows [from, to) of core rank k of n. */
export function blockOf(k: number, n: number, rows: number): [number, number] {
  return [Math.floor((k * rows) / n), Math.floor(((k + 1) * rows) / n)];
}

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Initial value of point (r, c). */
export function initialValue(r: number, c: number, rows: number, columns: number, seed: number): number {
  if (r === 0) return 1.0;
  if (r === rows - 1 || c === 0 || c === columns - 1) return 0.0;
  return mix32(mix32(seed * 0x9e3779b1 + r) ^ Math.imul(c, 0x85ebca6b)) / 4294967296;
}

/** One JOR point: the order of the additions is part of the contract. */
export function jorPoint(up: number, down: number, left: number, right: number): number {
  return (up + down + left + right) * 0.25;
}

const memo = new Map<string, Float64Array>();

/** The matrix after `iterations` sequential JOR iterations (row-major). */
export function reference(rows: number, columns: number, iterations: number, seed: number): Float64Array {
  const key = `${rows}x${columns}x${iterations}@${seed}`;
  const hit = memo.get(key);
  if (hit) return hit;
  let a = new Float64Array(rows * columns);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) a[r * columns + c] = initialValue(r, c, rows, columns, seed);
  let b = a.slice();
  for (let it = 0; it < iterations; it++) {
    for (let r = 1; r < rows - 1; r++)
      for (let c = 1; c < columns - 1; c++) {
        const o = r * columns + c;
        b[o] = jorPoint(a[o - columns]!, a[o + columns]!, a[o - 1]!, a[o + 1]!);
      }
    const t = a;
    a = b;
    b = t;
  }
  if (memo.size >= 4) memo.delete(memo.keys().next().value!);
  memo.set(key, a);
  return a;
}
