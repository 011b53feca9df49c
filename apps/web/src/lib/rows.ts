/** Picking chart axes for a workload's result rows, whatever the workload. */
export type RowRecord = Record<string, unknown>;

export interface Axes {
  x: string | null;
  y: string | null;
  group: string | null;
  numeric: string[];
  categorical: string[];
}

const Y_TIME = /(ns|us|ms|time|latency|trip)$/i;
const Y_OTHER = /(w|watts|gbps|rate|seen)$/i;

export function chooseAxes(rows: readonly RowRecord[]): Axes {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of rows)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
  const numeric = keys.filter((k) => rows.every((r) => r[k] === undefined || (typeof r[k] === 'number' && Number.isFinite(r[k]))));
  const categorical = keys.filter((k) => !numeric.includes(k) && rows.every((r) => ['string', 'boolean', 'undefined'].includes(typeof r[k])));
  const x = numeric[0] ?? null;
  const rest = numeric.filter((k) => k !== x);
  const y = rest.find((k) => Y_TIME.test(k)) ?? rest.find((k) => Y_OTHER.test(k)) ?? rest[0] ?? null;
  return { x, y, group: categorical[0] ?? null, numeric, categorical };
}

/** Points of y against x, one group per distinct value of `group`. */
export function groupPoints(rows: readonly RowRecord[], x: string, y: string, group: string | null): { label: string; points: [number, number][] }[] {
  const out = new Map<string, [number, number][]>();
  for (const r of rows) {
    const xv = r[x];
    const yv = r[y];
    if (typeof xv !== 'number' || typeof yv !== 'number') continue;
    const g = group ? `${group}=${String(r[group])}` : y;
    if (!out.has(g)) out.set(g, []);
    out.get(g)!.push([xv, yv]);
  }
  return [...out.entries()].map(([label, points]) => ({ label, points }));
}
