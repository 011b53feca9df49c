/**
 * CSV export (RFC 4180): a header from the union of the rows' keys in first-seen order,
 * fields quoted when they contain a comma, quote or line break. Text cells that a
 * spreadsheet would run as a formula (=, +, -, @ at the start, when not a number) get a
 * leading apostrophe.
 */
import type { Results } from '@manycore/engine';

export type Cell = string | number | boolean | null | undefined;
export type Record_ = Record<string, unknown>;

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^[-+]?\d/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: readonly Record_[], columns?: readonly string[]): string {
  const cols: string[] = columns ? [...columns] : [];
  if (!columns) {
    const seen = new Set<string>();
    for (const r of rows)
      for (const k of Object.keys(r))
        if (!seen.has(k)) {
          seen.add(k);
          cols.push(k);
        }
  }
  const lines = [cols.map(csvCell).join(',')];
  for (const r of rows) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Per-core statistics as flat records (stall causes become stall_<cause>_ns columns). */
export function coreRecords(results: Results): Record_[] {
  return results.simulated.cores.map((c) => {
    const { stallNs, ...rest } = c;
    const out: Record_ = { ...rest };
    for (const [k, v] of Object.entries(stallNs)) out[`stall_${k}_ns`] = v;
    return out;
  });
}

/** The time series as flat records, one per sample. */
export function seriesRecords(results: Results): Record_[] {
  const s = results.series;
  return s.timeNs.map((t, i) => {
    const out: Record_ = { timeNs: t, chipPowerW: s.chipPowerW[i], flitsPerUs: s.flitsPerUs[i] };
    s.islandPowerW[i]?.forEach((w, k) => (out[`island${k}PowerW`] = w));
    s.controllerRequests[i]?.forEach((w, k) => (out[`controller${k}Requests`] = w));
    s.controllerQueueDepth[i]?.forEach((w, k) => (out[`controller${k}QueueDepth`] = w));
    return out;
  });
}
