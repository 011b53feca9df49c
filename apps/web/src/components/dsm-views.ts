/**
 * The DSM views' data (issue 16 item 7): pure shaping of a finished `dsm` run's
 * `results.workload.dsm` (DsmExtra, written by packages/workloads/src/dsm/extra.ts) and its row
 * into what DsmViews.tsx draws. No React, no DOM.
 *
 * Contract
 * - `dsmExtraOf(results)`: the run's DsmExtra when `results.workload.dsm` has its shape (the
 *   data decide whether the views show, not the workload's name), else null; a value of the
 *   wrong shape is rejected, never half drawn. `dsmRowOf(results)`: the row's numbers.
 * - `timeline(x)`: one lane per processor: its spans (exact, the first spanCap), its time
 *   slices (the whole timed part), each kind's share of its timed part (kindPs / duration), and
 *   whether every processor's spans fit (`exact`: then the spans alone draw the whole run);
 *   `endPs` is the latest processor's end (the axis), `totals` the share of each kind over all
 *   processors.
 * - `noticeMatrix(x)`: the write notices per (sender, receiver), the largest cell, each
 *   sender's and receiver's total and the sum (equal to the row's writeNotices).
 * - `paperTable(row, x)`: Table 3/4's rows for the run (time s, data MB, messages, overlapped
 *   requests, memory per processor MB as "object memory alloc.", MB = 10^6 B as the workload
 *   reads the paper) with the paper's value and the ratio lab / paper when the row carries them
 *   (32 processors at a paper size), then the protocol counters the paper's Tables 3/4 do not
 *   list; `ablation` names the object runtime's switches that are off (a Table 6 column).
 * Every number comes from the results; nothing here computes a simulated quantity.
 */
import type { Results } from '@manycore/engine';

export const SPAN_KINDS = ['compute', 'fault', 'lock', 'barrier', 'serve'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

/** What each kind means (the legend's and the data table's words). */
export const KIND_TITLES: Record<SpanKind, string> = {
  compute: 'computing (the application, closing intervals)',
  fault: 'in a fault (trap, twin, fetching diffs or objects)',
  lock: 'waiting for a lock grant',
  barrier: 'at a barrier (arrival to departure)',
  serve: 'serving requests on a signal',
};

export interface DsmSpan {
  kind: SpanKind;
  startPs: number;
  endPs: number;
}

/** The results' `workload.dsm` (packages/workloads/src/dsm/extra.ts DsmExtra), as the web reads it. */
export interface DsmExtra {
  runtime: string;
  app: string;
  size: string;
  processors: number;
  family: string;
  switchesOff: string[];
  spanKinds: string[];
  spanCap: number;
  timeline: { proc: number; startPs: number; endPs: number; spans: DsmSpan[]; moreSpans: number; kindPs: Record<SpanKind, number>; slicePs: number; slices: number[][] }[];
  notices: number[][];
  messagesByType: { type: number; name: string; messages: number }[];
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRec = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isKind = (v: unknown): v is SpanKind => typeof v === 'string' && (SPAN_KINDS as readonly string[]).includes(v);

/** The run's DsmExtra, or null when the results have none (or one of another shape). */
export function dsmExtraOf(results: Pick<Results, 'workload'> | null | undefined): DsmExtra | null {
  const v = (results?.workload as Record<string, unknown> | undefined)?.dsm;
  if (!isRec(v)) return null;
  if (typeof v.runtime !== 'string' || typeof v.app !== 'string' || typeof v.size !== 'string' || !isNum(v.processors) || !isNum(v.spanCap)) return null;
  if (!Array.isArray(v.switchesOff) || !v.switchesOff.every((s) => typeof s === 'string')) return null;
  const { timeline, notices, messagesByType } = v;
  if (!Array.isArray(timeline) || !Array.isArray(notices) || !Array.isArray(messagesByType)) return null;
  const okLane = (t: unknown) =>
    isRec(t) &&
    isNum(t.proc) &&
    isNum(t.startPs) &&
    isNum(t.endPs) &&
    isNum(t.moreSpans) &&
    isNum(t.slicePs) &&
    Array.isArray(t.spans) &&
    t.spans.every((s) => isRec(s) && isKind(s.kind) && isNum(s.startPs) && isNum(s.endPs)) &&
    isRec(t.kindPs) &&
    SPAN_KINDS.every((k) => isNum((t.kindPs as Record<string, unknown>)[k])) &&
    Array.isArray(t.slices) &&
    t.slices.every((s) => Array.isArray(s) && s.length === SPAN_KINDS.length && s.every(isNum));
  if (!timeline.every(okLane)) return null;
  if (!notices.every((r) => Array.isArray(r) && r.length === notices.length && r.every(isNum))) return null;
  if (!messagesByType.every((m) => isRec(m) && isNum(m.type) && typeof m.name === 'string' && isNum(m.messages))) return null;
  return v as unknown as DsmExtra;
}

/** The row fields the views quote (results.workload.rows[0]); paper fields only at 32 processors on a paper size. */
export interface DsmRow {
  timeNs: number;
  messages: number;
  bytes: number;
  overlappedRequests: number;
  rounds: number;
  readFaults: number;
  writeFaults: number;
  writeNotices: number;
  diffs: number;
  twins: number;
  memoryPerProcessorBytes: number;
  allocatedPerProcessorBytes: number;
  correct: boolean;
  paper?: { table: string; timeNs: number; messages: number; bytes: number; overlappedRequests: number; memoryPerProcessorBytes: number; ratios: { time: number; messages: number; bytes: number; overlapped: number; memory: number } };
}

const ROW_NUMS = ['timeNs', 'messages', 'bytes', 'overlappedRequests', 'rounds', 'readFaults', 'writeFaults', 'writeNotices', 'diffs', 'twins', 'memoryPerProcessorBytes', 'allocatedPerProcessorBytes'] as const;

export function dsmRowOf(results: Pick<Results, 'workload'>): DsmRow | null {
  const r = results.workload.rows[0] as Record<string, unknown> | undefined;
  if (!r || !ROW_NUMS.every((k) => isNum(r[k]))) return null;
  const out = Object.fromEntries(ROW_NUMS.map((k) => [k, r[k]])) as unknown as DsmRow;
  out.correct = r.correct === true;
  if (typeof r.paperTable === 'string' && [r.paperTimeNs, r.paperMessages, r.paperBytes, r.paperOverlappedRequests, r.paperMemoryPerProcessorBytes, r.timeRatio, r.messagesRatio, r.bytesRatio, r.overlappedRequestsRatio, r.memoryRatio].every(isNum))
    out.paper = {
      table: r.paperTable,
      timeNs: r.paperTimeNs as number,
      messages: r.paperMessages as number,
      bytes: r.paperBytes as number,
      overlappedRequests: r.paperOverlappedRequests as number,
      memoryPerProcessorBytes: r.paperMemoryPerProcessorBytes as number,
      ratios: { time: r.timeRatio as number, messages: r.messagesRatio as number, bytes: r.bytesRatio as number, overlapped: r.overlappedRequestsRatio as number, memory: r.memoryRatio as number },
    };
  return out;
}

// ------------------------------------------------------------------ timeline

export interface TimelineLane {
  proc: number;
  startPs: number;
  endPs: number;
  spans: DsmSpan[];
  moreSpans: number;
  slicePs: number;
  slices: number[][];
  /** each kind's share of this processor's timed part */
  shares: Record<SpanKind, number>;
  kindPs: Record<SpanKind, number>;
}

export interface TimelineData {
  lanes: TimelineLane[];
  endPs: number;
  /** every processor's spans fit (none beyond spanCap): the spans draw the whole run */
  exact: boolean;
  spanCap: number;
  /** each kind's share over all processors' timed parts */
  totals: Record<SpanKind, number>;
}

const zeroKinds = (): Record<SpanKind, number> => ({ compute: 0, fault: 0, lock: 0, barrier: 0, serve: 0 });

export function timeline(x: DsmExtra): TimelineData {
  const sum = zeroKinds();
  let all = 0;
  const lanes = x.timeline.map((t) => {
    const dur = Math.max(1, t.endPs - t.startPs);
    const shares = zeroKinds();
    for (const k of SPAN_KINDS) {
      shares[k] = t.kindPs[k] / dur;
      sum[k] += t.kindPs[k];
      all += t.kindPs[k];
    }
    return { proc: t.proc, startPs: t.startPs, endPs: t.endPs, spans: t.spans, moreSpans: t.moreSpans, slicePs: t.slicePs, slices: t.slices, shares, kindPs: t.kindPs };
  });
  const totals = zeroKinds();
  for (const k of SPAN_KINDS) totals[k] = all > 0 ? sum[k] / all : 0;
  return { lanes, endPs: Math.max(0, ...lanes.map((l) => l.endPs)), exact: lanes.every((l) => l.moreSpans === 0), spanCap: x.spanCap, totals };
}

/** The kind that filled most of a slice (ties: SPAN_KINDS order), or null for an empty slice. */
export function dominantKind(slice: number[]): SpanKind | null {
  let best = -1;
  let bestPs = 0;
  slice.forEach((ps, i) => {
    if (ps > bestPs) {
      best = i;
      bestPs = ps;
    }
  });
  return best < 0 ? null : SPAN_KINDS[best]!;
}

// ------------------------------------------------------------------ write-notice matrix

export interface NoticeMatrix {
  procs: number;
  counts: number[][];
  max: number;
  total: number;
  sent: number[];
  received: number[];
}

export function noticeMatrix(x: DsmExtra): NoticeMatrix {
  const n = x.notices.length;
  const sent = x.notices.map((r) => r.reduce((a, b) => a + b, 0));
  const received = Array.from({ length: n }, (_, c) => x.notices.reduce((a, r) => a + r[c]!, 0));
  return { procs: n, counts: x.notices, max: Math.max(0, ...x.notices.flat()), total: sent.reduce((a, b) => a + b, 0), sent, received };
}

// ------------------------------------------------------------------ Table 3/4 for the run

export interface PaperTableRow {
  metric: string;
  /** the lab's value in the paper's unit */
  lab: number;
  paper: number | null;
  ratio: number | null;
  unit: string;
}

export interface PaperTableData {
  /** "Table 3" or "Table 4" when the run is at 32 processors on a paper size, else null */
  table: string | null;
  column: string;
  rows: PaperTableRow[];
  /** the object runtime's switches that are off (Table 6's ablations), in words */
  ablation: string[];
}

const SWITCH_WORDS: Record<string, string> = {
  readAggregation: 'no read aggregation',
  lazyAllocation: 'no lazy allocation',
  writeAggregation: 'no write aggregation',
  writeNoticeReduction: 'no write-notice reduction',
};

export function paperTable(row: DsmRow, x: DsmExtra): PaperTableData {
  const p = row.paper;
  const MB = 1e6;
  const rows: PaperTableRow[] = [
    { metric: 'time', unit: 's', lab: row.timeNs / 1e9, paper: p ? p.timeNs / 1e9 : null, ratio: p ? p.ratios.time : null },
    { metric: 'data', unit: 'MB', lab: row.bytes / MB, paper: p ? p.bytes / MB : null, ratio: p ? p.ratios.bytes : null },
    { metric: 'messages', unit: '', lab: row.messages, paper: p ? p.messages : null, ratio: p ? p.ratios.messages : null },
    { metric: 'overlapped requests', unit: '', lab: row.overlappedRequests, paper: p ? p.overlappedRequests : null, ratio: p ? p.ratios.overlapped : null },
    { metric: 'memory per processor (object memory alloc.)', unit: 'MB', lab: row.allocatedPerProcessorBytes / MB, paper: p ? p.memoryPerProcessorBytes / MB : null, ratio: p ? p.ratios.memory : null },
    { metric: 'memory per processor with twins and diffs', unit: 'MB', lab: row.memoryPerProcessorBytes / MB, paper: null, ratio: null },
    { metric: 'rounds', unit: '', lab: row.rounds, paper: null, ratio: null },
    { metric: 'read faults', unit: '', lab: row.readFaults, paper: null, ratio: null },
    { metric: 'write faults', unit: '', lab: row.writeFaults, paper: null, ratio: null },
    { metric: 'write notices', unit: '', lab: row.writeNotices, paper: null, ratio: null },
    { metric: 'diffs', unit: '', lab: row.diffs, paper: null, ratio: null },
    { metric: 'twins', unit: '', lab: row.twins, paper: null, ratio: null },
  ];
  const column = `${x.runtime === 'object' ? 'SkidMarks (object)' : 'TreadMarks (page)'} · ${x.app}/${x.size} · ${x.processors} processors`;
  return { table: p ? p.table : null, column, rows, ablation: x.switchesOff.map((s) => SWITCH_WORDS[s] ?? s) };
}
