/** Text the CLI prints: the progress line and the one-screen summary. Pure functions. */
import type { Progress, Results } from '@manycore/engine';

export function formatTime(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} us`;
  return `${ns.toFixed(1)} ns`;
}

function rate(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return n.toFixed(0);
}

export function progressLine(p: Progress, stopAtPs: number, wallMs: number): string {
  const width = 24;
  let bar: string;
  if (Number.isFinite(stopAtPs) || p.finishedCores > 0) {
    const frac = Number.isFinite(stopAtPs) ? p.simTimePs / stopAtPs : p.finishedCores / Math.max(1, p.participants);
    const filled = Math.max(0, Math.min(width, Math.round(frac * width)));
    bar = '#'.repeat(filled) + '-'.repeat(width - filled);
  } else {
    // no known end: a sweep that moves with the epochs
    const at = Math.floor(p.epoch / 8) % (2 * (width - 4));
    const pos = at < width - 4 ? at : 2 * (width - 4) - at;
    bar = '-'.repeat(pos) + '####' + '-'.repeat(width - 4 - pos);
  }
  const ops = wallMs > 0 ? (p.simOps / wallMs) * 1000 : 0;
  return `[${bar}] ${p.status} | simulated ${formatTime(p.simTimePs / 1000)} | ${p.finishedCores}/${p.participants} cores done | epoch ${p.epoch} | ${rate(ops)} ops/s`;
}

/** The first `max` rows; `out` is where the whole results JSON went (none: say how to get every row). */
function table(rows: Record<string, unknown>[], max: number, out: string | undefined): string[] {
  if (rows.length === 0) return ['  (no rows)'];
  const cols = Object.keys(rows[0]!);
  const fmt = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v));
  const shown = rows.slice(0, max);
  const widths = cols.map((c) => Math.max(c.length, ...shown.map((r) => fmt(r[c]).length)));
  const line = (vals: string[]) => '  ' + vals.map((v, i) => v.padStart(widths[i]!)).join('  ');
  const lines = [line(cols), ...shown.map((r) => line(cols.map((c) => fmt(r[c]))))];
  const more = rows.length - max;
  if (more > 0)
    lines.push(`  ... ${more} more row${more === 1 ? '' : 's'} ${out ? `in ${out}` : '(write them all with --out FILE or --json)'}`);
  return lines;
}

export function formatSummary(r: Results, out?: string): string {
  const s = r.simulated;
  const busiest = [...s.controllers].sort((a, b) => b.requests - a.requests)[0];
  const lines = [
    `Manycore Lab: ${r.chip.name}, workload ${r.workload.name} ${JSON.stringify(r.workload.params)}`,
    `  digest            ${r.digest}`,
    `  simulated time    ${formatTime(s.endTimeNs)}${s.stopped ? ' (stopped at the time limit)' : ''} in ${s.epochs} epochs`,
    `  active cores      ${s.chip.activeCores} of ${s.cores.length}`,
    `  chip power        ${s.chip.avgPowerW.toFixed(2)} W average, ${s.chip.energyJ.toPrecision(4)} J`,
    `  memory ops        ${s.chip.loads} loads, ${s.chip.stores} stores; DRAM ${s.chip.dramReads} reads, ${s.chip.dramWrites} writes`,
    `  network           ${s.chip.flits} flits` + (busiest ? `; busiest controller ${busiest.controller} (${busiest.requests} requests, max queue ${busiest.queueMax})` : ''),
    `  host              ${r.host.name}, ${r.host.workers} worker(s), ${(r.host.wallMs / 1000).toFixed(2)} s wall, ${rate(r.host.simOpsPerSec)} ops/s, ${rate(r.host.simCoreCyclesPerSec)} core-cycles/s`,
    ...(r.protocolBug ? [`  protocol bug on: ${r.protocolBug.workload} bug=${r.protocolBug.bug}: ${r.protocolBug.expect}`] : []),
    '',
    `Rows (${r.workload.rows.length}):`,
    ...table(r.workload.rows, 16, out),
  ];
  if (out) lines.push('', `Results written to ${out}`);
  return lines.join('\n') + '\n';
}
