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

// ---- counts, plurals and unit-aware formatting by field name ----

/** Irregular plurals of the words the lab counts; others take an "s". */
const PLURALS: Record<string, string> = { 'more row': 'more rows', 'flit-hop': 'flit-hops', process: 'processes', entry: 'entries' };

/** The word for `n` things: "core" for 1, "cores" otherwise (an explicit plural wins). */
export function plural(n: number, singular: string, pluralForm?: string): string {
  return n === 1 ? singular : (pluralForm ?? PLURALS[singular] ?? `${singular}s`);
}

/** A count with its noun: "1 core", "48 cores", "2.5M flits" (digits: significant digits above 1e5). */
export function count(n: number, singular: string, pluralForm?: string, digits = 4): string {
  return `${integer(n, digits)} ${plural(n, singular, pluralForm)}`;
}

/** A whole number as is below 100 000 ("21901"), with an SI prefix above ("144k", "2.5M"). */
export function integer(n: number, digits = 4): string {
  if (!Number.isFinite(n)) return '–';
  if (Number.isInteger(n) && Math.abs(n) < 1e5) return String(n);
  return num(n, digits);
}

/** Byte sizes in the unit that reads best: 512 B, 4 KB, 1.5 KB, 64 MB (1 KB = 1024 B). */
export function size(b: number, digits = 3): string {
  if (!Number.isFinite(b)) return '–';
  const a = Math.abs(b);
  if (a >= 1 << 30) return `${num(b / (1 << 30), digits)} GB`;
  if (a >= 1 << 20) return `${num(b / (1 << 20), digits)} MB`;
  if (a >= 1024) return `${num(b / 1024, digits)} KB`;
  return `${num(b, digits)} B`;
}

/** A clock frequency given in MHz: "533 MHz", "1.07 GHz". */
export function freq(mhz: number, digits = 3): string {
  return Math.abs(mhz) >= 1000 ? `${num(mhz / 1000, digits)} GHz` : `${num(mhz, digits)} MHz`;
}

/** What a field's name says about its unit (the lab puts units in names: timeNs, sizeBytes, powerW, freqMHz). */
export type FieldUnit = 'ns' | 'ps' | 'us' | 'ms' | 'bytes' | 'W' | 'J' | 'MHz' | 'GHz' | 'V' | 'MBps' | 'GBps' | 'perW' | 'cycles' | 'share' | 'none';

export function fieldUnit(key: string): FieldUnit {
  if (/PerW$/.test(key)) return 'perW';
  if (/^nsPer/.test(key)) return 'ns';
  if (/Per[A-Z][A-Za-z]*$/.test(key)) return 'none'; // a rate: flitsPerUs, messagesPerInstruction
  if (/(^n|N)s$/.test(key)) return 'ns';
  if (/(^p|P)s$/.test(key)) return 'ps';
  if (/(^u|U)s$/.test(key)) return 'us';
  if (/(^m|[a-z]M)s$/.test(key)) return 'ms';
  if (/(^b|B)ytes$/.test(key)) return 'bytes';
  if (/MBps$/.test(key)) return 'MBps';
  if (/GBps$/.test(key)) return 'GBps';
  if (/(^w|[a-z]W)$/.test(key) || /^watts$/i.test(key)) return 'W';
  if (/(^j|[a-z]J)$/.test(key)) return 'J';
  if (/MHz$/.test(key)) return 'MHz';
  if (/GHz$/.test(key)) return 'GHz';
  if (/^volts$|[a-z]V$/.test(key)) return 'V';
  if (/(^c|C)ycles$/.test(key)) return 'cycles';
  if (/(^s|S)hare$|^utili[sz]ation$/.test(key)) return 'share';
  return 'none';
}

/** The text for a unit in an axis or column label ("" when the name carries none). */
export function unitLabel(u: FieldUnit): string {
  const L: Record<FieldUnit, string> = {
    ns: 'ns', ps: 'ps', us: 'µs', ms: 'ms', bytes: 'bytes', W: 'W', J: 'J', MHz: 'MHz', GHz: 'GHz', V: 'V', MBps: 'MB/s', GBps: 'GB/s', perW: 'per W', cycles: 'cycles', share: '%', none: '',
  };
  return L[u];
}

/** A value formatted by the unit its field name carries: timeNs 709715 -> "709.7 µs", bufferBytes 8192 -> "8 KB". */
export function formatField(key: string, v: unknown, digits = 4): string {
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v !== 'number') return v === null || v === undefined ? '' : String(v);
  if (!Number.isFinite(v)) return '–';
  switch (fieldUnit(key)) {
    case 'ns':
      return simTime(v, digits);
    case 'ps':
      return simTime(v / 1000, digits);
    case 'us':
      return simTime(v * 1e3, digits);
    case 'ms':
      return simTime(v * 1e6, digits);
    case 'bytes':
      return Number.isInteger(v) && Math.abs(v) < 1024 ? count(v, 'byte') : size(v, digits);
    case 'W':
      return watts(v);
    case 'J':
      return joules(v);
    case 'MHz':
      return freq(v, digits);
    case 'GHz':
      return freq(v * 1000, digits);
    case 'V':
      return `${num(v, digits)} V`;
    case 'MBps':
      return `${num(v, digits)} MB/s`;
    case 'GBps':
      return `${num(v, digits)} GB/s`;
    case 'perW':
      return `${num(v, digits)} /W`;
    case 'cycles':
      return count(v, 'cycle', undefined, digits);
    case 'share':
      return pct(v);
    default:
      return Number.isInteger(v) ? integer(v, digits) : num(v, digits);
  }
}

/** An axis label for a field: its shown name and the unit values are drawn in ("kernelTimeNs (ns)"). */
export function axisLabel(key: string): string {
  const u = unitLabel(fieldUnit(key));
  return u && u !== 'cycles' ? `${key} (${u})` : key;
}

/** An axis tick of a field: short (3 digits), with the field's unit, counts without a noun. */
export function formatTick(key: string, v: number): string {
  const u = fieldUnit(key);
  if (u === 'cycles' || u === 'none') return num(v, 3);
  if (u === 'bytes') return size(v, 3);
  return formatField(key, v, 3);
}
