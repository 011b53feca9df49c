/**
 * The DSM views (issue 16 item 7) of a finished `dsm` run, drawn from results.workload.dsm
 * (dsm-views.ts shapes it): the interval timeline per processor, the write-notice matrix and a
 * table shaped like paper 004's Tables 3/4 for the run.
 *
 * Contract
 * - Shows only when the results carry `workload.dsm` of the DsmExtra shape and a dsm row
 *   (dsmExtraOf, dsmRowOf): the data decide, not the workload's name. Nothing while a run goes.
 * - Timeline: one lane per processor over a simulated-time axis (ms, or the unit that fits), a
 *   legend of the kinds, and each processor's share of each kind beside it (an HTML list with
 *   data-testid dsm-timeline-proc-<p>). When every processor's spans fit the recording
 *   (`exact`) the spans are drawn; otherwise its time slices are (each slice a stacked column of
 *   its kinds' shares), and the subtitle says so.
 * - Write-notice matrix: sender (rows) x receiver (columns), each cell shaded by its count
 *   against the largest, with the count written when the cell is big enough; beside it the
 *   totals (notices, the run's messages, messages by type).
 * - Table 3/4: an HTML table of the run's metrics with the paper's value and the ratio lab /
 *   paper when the row carries them (32 processors at a paper size); a Table 6 note when an
 *   object-runtime switch is off (Table 6 is a set of runs: scripts/dsm-ablations.mjs).
 * - The canvas views have their numbers in a DataTable, SVG/PNG export (CanvasCard) and take
 *   their colours from the theme's palette at draw time (light, dark, high contrast); the HTML
 *   legend re-renders when the theme changes.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { scaleLinear } from 'd3';
import type { Results } from '@manycore/engine';
import { TICK } from '../charts/draw';
import type { Painter } from '../charts/painter';
import { integer, num, pct, simTime, timeUnit } from '../lib/format';
import { appearanceVersion, onAppearance, palette } from '../lib/theme';
import { CanvasCard, type ChartTable } from './CanvasCard';
import { KIND_TITLES, SPAN_KINDS, dsmExtraOf, dsmRowOf, noticeMatrix, paperTable, timeline, type NoticeMatrix, type SpanKind, type TimelineData } from './dsm-views';

/** Colour of each kind (from the palette in force). */
export function kindColour(k: SpanKind): string {
  return palette.category[SPAN_KINDS.indexOf(k) % palette.category.length]!;
}

// ------------------------------------------------------------------ timeline drawing

const LEGEND_H = 26;
const AXIS_H = 34;
const LABEL_W = 56;

function laneHeight(lanes: number): number {
  return Math.max(6, Math.min(24, Math.floor(420 / Math.max(1, lanes))));
}

export function timelineHeight(lanes: number): number {
  return LEGEND_H + lanes * laneHeight(lanes) + AXIS_H + 8;
}

export function drawTimeline(p: Painter, d: TimelineData): void {
  const lh = laneHeight(d.lanes.length);
  const box = { x: LABEL_W, y: LEGEND_H, w: Math.max(40, p.width - LABEL_W - 12), h: d.lanes.length * lh };
  // legend
  let lx = box.x;
  for (const k of SPAN_KINDS) {
    p.rect(lx, 6, 14, 12, { fill: kindColour(k), stroke: palette.ink, lineWidth: 1 });
    p.text(lx + 19, 12, k, { size: TICK, color: palette.ink, baseline: 'middle' });
    lx += 19 + p.measure(k, TICK) + 18;
  }
  const u = timeUnit(d.endPs / 1000);
  const x = scaleLinear()
    .domain([0, Math.max(1, d.endPs / 1000 / u.div)])
    .range([box.x, box.x + box.w]);
  const xPs = (ps: number) => x(ps / 1000 / u.div);
  for (const t of x.ticks(6)) {
    p.line(x(t), box.y, x(t), box.y + box.h, { stroke: palette.grid, lineWidth: 1 });
    p.text(x(t), box.y + box.h + 5, num(t), { size: 12, color: palette.muted, anchor: 'middle', baseline: 'top' });
  }
  p.text(box.x + box.w / 2, box.y + box.h + 20, `simulated time (${u.label}) since the start of the timed part`, { size: 12, color: palette.ink, anchor: 'middle', baseline: 'top' });
  const every = Math.max(1, Math.ceil(14 / lh));
  d.lanes.forEach((l, i) => {
    const y = box.y + i * lh;
    const h = Math.max(1, lh - (lh >= 10 ? 2 : 1));
    if (i % every === 0 || i === d.lanes.length - 1) p.text(box.x - 6, y + lh / 2, `P${l.proc}`, { size: Math.min(12, Math.max(9, lh - 2)), color: palette.ink, anchor: 'end', baseline: 'middle' });
    if (d.exact) {
      for (const s of l.spans) {
        const x0 = xPs(s.startPs);
        p.rect(x0, y, Math.max(0.5, xPs(s.endPs) - x0), h, { fill: kindColour(s.kind) });
      }
      return;
    }
    // time slices: a stacked column of the kinds' shares per slice
    l.slices.forEach((sl, j) => {
      const a = l.startPs + j * l.slicePs;
      const b = Math.min(l.endPs, a + l.slicePs);
      if (b <= a) return;
      const x0 = xPs(a);
      const w = Math.max(0.5, xPs(b) - x0);
      const tot = sl.reduce((s, v) => s + v, 0);
      if (tot <= 0) return;
      let acc = 0;
      sl.forEach((ps, k) => {
        if (ps <= 0) return;
        const hk = (ps / tot) * h;
        p.rect(x0, y + acc, w, hk, { fill: kindColour(SPAN_KINDS[k]!) });
        acc += hk;
      });
    });
  });
  p.line(box.x, box.y + box.h, box.x + box.w, box.y + box.h, { stroke: palette.muted, lineWidth: 1 });
}

// ------------------------------------------------------------------ notice matrix drawing

export function matrixHeight(procs: number): number {
  return 60 + Math.min(560, Math.max(240, procs * 34));
}

export function drawMatrix(p: Painter, m: NoticeMatrix): void {
  const top = 40;
  const left = 64;
  const side = Math.max(40, Math.min(p.width - left - 16, p.height - top - 20));
  const cell = side / Math.max(1, m.procs);
  const col = palette.category[0]!;
  p.text(left + side / 2, 12, 'receiver', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'middle' });
  p.text(14, top + side / 2, 'sender', { size: TICK, color: palette.ink, anchor: 'middle', baseline: 'middle', rotate: -90 });
  const every = Math.max(1, Math.ceil(18 / cell));
  for (let i = 0; i < m.procs; i++) {
    if (i % every !== 0 && i !== m.procs - 1) continue;
    p.text(left + (i + 0.5) * cell, top - 8, String(i), { size: 11, color: palette.muted, anchor: 'middle', baseline: 'bottom' });
    p.text(left - 6, top + (i + 0.5) * cell, String(i), { size: 11, color: palette.muted, anchor: 'end', baseline: 'middle' });
  }
  const labels = cell >= 30;
  for (let s = 0; s < m.procs; s++)
    for (let r = 0; r < m.procs; r++) {
      const v = m.counts[s]![r]!;
      const x = left + r * cell;
      const y = top + s * cell;
      p.rect(x, y, cell, cell, { fill: palette.canvas, stroke: palette.grid, lineWidth: 1 });
      if (v > 0) p.rect(x + 0.5, y + 0.5, cell - 1, cell - 1, { fill: col, opacity: 0.15 + 0.85 * (v / Math.max(1, m.max)) });
      if (labels && v > 0) {
        const dark = v / Math.max(1, m.max) > 0.55;
        p.text(x + cell / 2, y + cell / 2, num(v), { size: Math.min(12, cell / 3), color: dark ? palette.canvas : palette.ink, anchor: 'middle', baseline: 'middle' });
      }
    }
  p.rect(left, top, side, side, { stroke: palette.muted, lineWidth: 1 });
}

// ------------------------------------------------------------------ the views

export function DsmViews({ results }: { results: Results }) {
  useSyncExternalStore(onAppearance, appearanceVersion); // the legend's swatches follow the theme
  const x = useMemo(() => dsmExtraOf(results), [results]);
  const row = useMemo(() => dsmRowOf(results), [results]);
  const tl = useMemo(() => (x ? timeline(x) : null), [x]);
  const mat = useMemo(() => (x ? noticeMatrix(x) : null), [x]);
  const tab = useMemo(() => (x && row ? paperTable(row, x) : null), [x, row]);
  if (!x || !row || !tl || !mat || !tab) return null;
  const version = () => results;
  const ms = (ps: number) => num(ps / 1e9, 4);

  const timelineTable: ChartTable = {
    caption: 'Each processor’s timed part: start and end (ms since the run’s start), spans recorded, and the time and share of each kind',
    columns: ['processor', 'start ms', 'end ms', 'spans recorded', 'spans not recorded', ...SPAN_KINDS.flatMap((k) => [`${k} ms`, `${k} share`])],
    rows: () => tl.lanes.map((l) => [`P${l.proc}`, ms(l.startPs), ms(l.endPs), String(l.spans.length), String(l.moreSpans), ...SPAN_KINDS.flatMap((k) => [ms(l.kindPs[k]), pct(l.shares[k])])]),
    note: () => `All processors: ${SPAN_KINDS.map((k) => `${k} ${pct(tl.totals[k])}`).join(', ')}.`,
  };
  const matrixTable: ChartTable = {
    caption: 'Write notices sent, sender (rows) to receiver (columns), in the timed part',
    columns: ['sender', ...mat.counts.map((_, r) => `to P${r}`), 'sent'],
    rows: () => mat.counts.map((c, s) => [`P${s}`, ...c.map(String), String(mat.sent[s])]),
    note: () => `${mat.total} write notices in all (the row's writeNotices ${row.writeNotices}); ${row.messages} messages: ${x.messagesByType.map((m) => `${m.name} ${m.messages}`).join(', ')}.`,
  };
  const sliceNote = tl.exact
    ? 'Each span is one stretch of one kind.'
    : `More than ${tl.spanCap} spans on a processor: each lane shows its time slices (${simTime((tl.lanes[0]?.slicePs ?? 0) / 1000)} each on P0), a column per slice stacked by the share of each kind; the data table has the exact time per kind.`;

  return (
    <div className="dsm-views" data-testid="dsm-views" data-runtime={x.runtime} data-app={x.app} data-processors={x.processors}>
      <div data-testid="dsm-timeline" data-lanes={tl.lanes.length} data-exact={tl.exact ? 'true' : 'false'} data-end-ps={tl.endPs} style={{ marginBottom: '1rem' }}>
        <CanvasCard
          id="dsm-timeline"
          title="Interval timeline per processor"
          subtitle={`What each processor did between the start of the timed part and the end barrier's departure (the row's time, ${simTime(row.timeNs)}): computing, in a fault, waiting for a lock, at a barrier, or serving other processors' requests. ${sliceNote}`}
          height={timelineHeight(tl.lanes.length)}
          draw={(p) => drawTimeline(p, tl)}
          version={version}
          table={timelineTable}
        />
        <details className="card" style={{ marginTop: '0.5rem' }} open={tl.lanes.length <= 8} data-testid="dsm-timeline-shares">
          <summary>Share of each kind per processor ({SPAN_KINDS.map((k) => `${k} ${pct(tl.totals[k])}`).join(' · ')} over all)</summary>
          <ul className="sub" style={{ listStyle: 'none', padding: 0, margin: '0 0 0.3rem', display: 'flex', flexWrap: 'wrap', gap: '0.2rem 1rem' }} aria-label="Kinds">
            {SPAN_KINDS.map((k) => (
              <li key={k}>
                <span aria-hidden="true" data-testid={`dsm-kind-${k}`} style={{ display: 'inline-block', width: '0.8em', height: '0.8em', background: kindColour(k), border: '1px solid currentColor', marginRight: '0.3em' }} />
                <strong>{k}</strong>: {KIND_TITLES[k]}
              </li>
            ))}
          </ul>
          <ol aria-label="Share of each kind per processor" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(22rem, 1fr))', gap: '0.2rem 0.8rem', fontSize: '0.85rem' }}>
            {tl.lanes.map((l) => (
              <li key={l.proc} data-testid={`dsm-timeline-proc-${l.proc}`} data-proc={l.proc} {...Object.fromEntries(SPAN_KINDS.map((k) => [`data-${k}-ps`, l.kindPs[k]]))}>
                <strong>P{l.proc}</strong>: {SPAN_KINDS.filter((k) => l.kindPs[k] > 0).map((k) => `${k} ${pct(l.shares[k])}`).join(' · ')}
              </li>
            ))}
          </ol>
        </details>
      </div>

      <div data-testid="dsm-notices" data-total={mat.total} data-max={mat.max} data-messages={row.messages} style={{ marginBottom: '1rem' }}>
        <CanvasCard
          id="dsm-notices"
          title="Write notices on the network: sender × receiver"
          subtitle={
            <>
              Write notices travel in lock grants, barrier arrivals (to the manager, P0) and barrier departures (from it); each cell is shaded by its count against the largest ({integer(mat.max)}).{' '}
              <span data-testid="dsm-notices-summary">
                <span data-testid="dsm-notices-total">{mat.total}</span> write notices · <span data-testid="dsm-notices-messages">{row.messages}</span> messages in the run (
                {x.messagesByType.map((m, i) => (
                  <span key={m.type} data-testid={`dsm-messages-${m.type}`} data-name={m.name} data-messages={m.messages}>
                    {i ? ', ' : ''}
                    {m.name} {m.messages}
                  </span>
                ))}
                ).
              </span>
            </>
          }
          height={matrixHeight(mat.procs)}
          draw={(p) => drawMatrix(p, mat)}
          version={version}
          table={matrixTable}
        />
      </div>

      <section className="card" data-testid="dsm-paper-table" data-table={tab.table ?? ''} aria-labelledby="dsm-paper-table-title" style={{ marginBottom: '1rem' }}>
        <h3 id="dsm-paper-table-title" style={{ marginTop: 0 }}>
          {tab.table ? `Paper 004 ${tab.table} beside the lab` : 'The run in the shape of paper 004 Tables 3 and 4'}
        </h3>
        <p className="sub">
          {tab.column}.{' '}
          {tab.table
            ? `The paper's column (32 processors) is ${x.runtime === 'object' ? 'SkidMarks' : 'TreadMarks'}; ratio = lab / paper; MB = 10^6 B. Memory is the paper's "object memory alloc." (shared data only).`
            : 'The paper measured 32 processors at its own input sizes (paper-sm, paper-lg): run one of those for its values beside the lab’s.'}
        </p>
        {tab.ablation.length ? (
          <p className="sub" data-testid="dsm-ablation">
            Object runtime with {tab.ablation.join(' and ')}: one column of paper 004 Table 6 (the ablations). Table 6 is a set of runs, every switch off in turn:{' '}
            <code>node scripts/dsm-ablations.mjs</code> prints it beside the paper&apos;s.
          </p>
        ) : x.runtime === 'object' ? (
          <p className="sub" data-testid="dsm-ablation">
            Every switch on: Table 6&apos;s “full” column. Turn one off (readAggregation, lazyAllocation, writeAggregation, writeNoticeReduction) for the others, or run <code>node scripts/dsm-ablations.mjs</code>.
          </p>
        ) : null}
        <div className="table-wrap" tabIndex={0} role="region" aria-label="The run's protocol counts beside paper 004">
          <table className="rows">
            <thead>
              <tr>
                <th scope="col">metric</th>
                <th scope="col">lab</th>
                <th scope="col">paper</th>
                <th scope="col">lab / paper</th>
              </tr>
            </thead>
            <tbody>
              {tab.rows.map((r, i) => (
                <tr key={r.metric} data-testid={`dsm-paper-row-${i}`} data-metric={r.metric} data-lab={r.lab} data-paper={r.paper ?? ''} data-ratio={r.ratio ?? ''}>
                  <th scope="row">
                    {r.metric}
                    {r.unit ? ` (${r.unit})` : ''}
                  </th>
                  <td>{r.unit ? num(r.lab, 4) : String(r.lab)}</td>
                  <td>{r.paper === null ? '–' : r.unit ? num(r.paper, 4) : String(r.paper)}</td>
                  <td>{r.ratio === null ? '–' : `${num(r.ratio)}×`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
