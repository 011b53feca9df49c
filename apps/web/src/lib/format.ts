/** Number and unit formatting for labels, tooltips and tables. */

const SI = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
] as const;

/** Significant-digit formatting without exponent noise: 3 significant digits by default. */
export function num(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return '–';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-3) {
    for (const [f, p] of SI) if (a >= f) return `${trim((x / f).toPrecision(digits))}${p}`;
    return x.toExponential(digits - 1);
  }
  if (a >= 10 ** digits) return String(Math.round(x));
  return trim(x.toPrecision(digits));
}

function trim(s: string): string {
  return s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s;
}

/** Byte counts as 1 B, 512 B, 4 KB, 1 MB (whole KB and MB when exact). */
export function bytes(b: number): string {
  if (b >= 1 << 20 && b % (1 << 20) === 0) return `${b / (1 << 20)} MB`;
  if (b >= 1024 && b % 1024 === 0) return `${b / 1024} KB`;
  return `${num(b)} B`;
}

/** Simulated time from ns, in the largest unit that keeps the number >= 1. */
export function simTime(ns: number, digits = 3): string {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${num(ns / 1e9, digits)} s`;
  if (a >= 1e6) return `${num(ns / 1e6, digits)} ms`;
  if (a >= 1e3) return `${num(ns / 1e3, digits)} µs`;
  return `${num(ns, digits)} ns`;
}

/** A unit for a time axis spanning maxNs: divisor and label. */
export function timeUnit(maxNs: number): { div: number; label: string } {
  if (maxNs >= 2e9) return { div: 1e9, label: 's' };
  if (maxNs >= 2e6) return { div: 1e6, label: 'ms' };
  if (maxNs >= 2e3) return { div: 1e3, label: 'µs' };
  return { div: 1, label: 'ns' };
}

export function watts(w: number): string {
  return Math.abs(w) < 1 && w !== 0 ? `${num(w * 1000)} mW` : `${num(w)} W`;
}

export function joules(j: number): string {
  const a = Math.abs(j);
  if (a === 0) return '0 J';
  if (a < 1e-6) return `${num(j * 1e9)} nJ`;
  if (a < 1e-3) return `${num(j * 1e6)} µJ`;
  if (a < 1) return `${num(j * 1e3)} mJ`;
  return `${num(j)} J`;
}

export function pct(x: number): string {
  return `${num(x * 100, 3)} %`;
}

/** Signed delta and relative change of b against a, e.g. "+12.5 (+4.1 %)". */
export function delta(a: number, b: number): { abs: string; rel: string; sign: -1 | 0 | 1 } {
  const d = b - a;
  const sign = d > 0 ? 1 : d < 0 ? -1 : 0;
  const abs = `${d > 0 ? '+' : ''}${num(d)}`;
  const rel = a === 0 ? (d === 0 ? '0 %' : 'n/a') : `${d > 0 ? '+' : ''}${num((d / Math.abs(a)) * 100, 3)} %`;
  return { abs, rel, sign };
}

/** Rate of simulated time per wall-clock second, e.g. "12.3 µs/s". */
export function simRate(simNs: number, wallMs: number): string {
  if (wallMs <= 0) return '–';
  return `${simTime(simNs / (wallMs / 1000))}/s`;
}
