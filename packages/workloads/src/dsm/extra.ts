/**
 * results.workload.dsm (the `dsm` workload's extra, issue 16 item 7): what the web's DSM views
 * draw, built from the processors' own rows (each carries its recorder's fields, record.ts).
 *
 * Contract
 * - `timeline`: one entry per processor (ascending), its spans {kind, startPs, endPs} (the first
 *   SPAN_CAP; `moreSpans` counts the rest) and its time per kind `kindPs` (all spans), over its
 *   timed part [startPs, endPs]; every time is ps since the run's start (the earliest
 *   processor's start of the timed part), so the row's timeNs = (max endPs) / 1000 within
 *   rounding.
 * - `slicePs` and `slices`: the processor's whole timed part in time slices of slicePs from its
 *   startPs, each the ps per kind (SPAN_KINDS order) spent in it (record.ts).
 * - `notices[s][r]`: write notices processor s sent to r in the timed part (lock grants, barrier
 *   arrivals and departures); the matrix sums to the row's writeNotices.
 * - `messagesByType`: datagrams sent in the timed part by message type (they sum to the row's
 *   messages), named per runtime (record.ts MESSAGE_NAMES).
 * - `switchesOff`: the object runtime's switches set false (Table 6's ablations); [] for the
 *   page runtime, which ignores them.
 * Nothing here changes a row: the rows (and their digest) are the summary's alone.
 * Units: ps.
 */
import type { Row } from '@manycore/engine';
import { MESSAGE_NAMES, SPAN_CAP, SPAN_KINDS, type SpanKind } from './runtime/record';

export interface DsmSpan {
  kind: SpanKind;
  startPs: number;
  endPs: number;
}

export interface DsmTimelineRow {
  proc: number;
  startPs: number;
  endPs: number;
  spans: DsmSpan[];
  moreSpans: number;
  kindPs: Record<SpanKind, number>;
  slicePs: number;
  slices: number[][];
}

export interface DsmExtra {
  runtime: 'page' | 'object';
  app: string;
  size: string;
  processors: number;
  family: string;
  switchesOff: string[];
  spanKinds: SpanKind[];
  spanCap: number;
  timeline: DsmTimelineRow[];
  notices: number[][];
  messagesByType: { type: number; name: string; messages: number }[];
}

export const SWITCH_NAMES = ['readAggregation', 'lazyAllocation', 'writeAggregation', 'writeNoticeReduction'] as const;

/** The extra of a run from its processors' rows (rows without recorder fields give an empty timeline). */
export function dsmExtra(rows: Row[], p: { runtime: 'page' | 'object'; app: string; size: string; processors: number } & Record<string, unknown>, family: string): { dsm: DsmExtra } {
  const procs = rows.filter((r) => typeof r.proc === 'number' && typeof r.spans === 'string').sort((a, b) => (a.proc as number) - (b.proc as number));
  const runStart = procs.length ? Math.min(...procs.map((r) => r.beganPs as number)) : 0;
  const timeline: DsmTimelineRow[] = procs.map((r) => {
    const spans: DsmSpan[] = String(r.spans)
      .split(' ')
      .filter(Boolean)
      .map((s) => {
        const [k, a, b] = s.split(':').map(Number) as [number, number, number];
        return { kind: SPAN_KINDS[k]!, startPs: a - runStart, endPs: b - runStart };
      });
    const ps = String(r.kindPs).split(' ').map(Number);
    const kindPs = Object.fromEntries(SPAN_KINDS.map((k, i) => [k, ps[i] ?? 0])) as Record<SpanKind, number>;
    const slices = String(r.slices)
      .split(' ')
      .filter(Boolean)
      .map((s) => s.split(',').map(Number));
    return { proc: r.proc as number, startPs: (r.beganPs as number) - runStart, endPs: (r.finishedPs as number) - runStart, spans, moreSpans: r.moreSpans as number, kindPs, slicePs: r.slicePs as number, slices };
  });
  const notices = procs.map((r) => String(r.noticesTo).split(' ').map(Number));
  const byType = new Map<number, number>();
  for (const r of procs)
    for (const e of String(r.msgTypes).split(' ').filter(Boolean)) {
      const [t, n] = e.split(':').map(Number) as [number, number];
      byType.set(t, (byType.get(t) ?? 0) + n);
    }
  const names = MESSAGE_NAMES[p.runtime];
  const messagesByType = [...byType.entries()].sort((a, b) => a[0] - b[0]).map(([type, messages]) => ({ type, name: names[type] ?? `type ${type}`, messages }));
  const switchesOff = p.runtime === 'object' ? SWITCH_NAMES.filter((s) => p[s] === false) : [];
  return {
    dsm: { runtime: p.runtime, app: p.app, size: p.size, processors: p.processors, family, switchesOff: [...switchesOff], spanKinds: [...SPAN_KINDS], spanCap: SPAN_CAP, timeline, notices, messagesByType },
  };
}
