/** A finished run: digest, key numbers, the workload's rows (table and chart), exports. */
import { useMemo, useState } from 'react';
import type { Results, WorkloadChart } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { CATEGORY, drawXY } from '../charts/draw';
import { coreRecords, seriesRecords, toCsv } from '../lib/csv';
import { downloadText, safeName } from '../lib/download';
import { count, fieldUnit, formatField, formatTick } from '../lib/format';
import { axesFor, coincidentSeries, groupPoints, moreRowsNote, seriesDash } from '../lib/rows';
import { QUANTITIES, RESULT_IDS, resultTotals, type QuantityId } from '../sim/telemetry-quantities';
import { CanvasCard } from './CanvasCard';
import { PaperBesidePanel } from './PaperBeside';

/** The key numbers of a run, labelled and formatted as everywhere else on the page (telemetry-quantities.ts). */
export function keyNumbers(r: Results): { key: QuantityId; label: string; title: string; value: number; format(v: number): string }[] {
  const totals = resultTotals(r);
  return RESULT_IDS.map((id) => ({ key: id, label: QUANTITIES[id].label, title: QUANTITIES[id].title, value: totals[id], format: QUANTITIES[id].format }));
}

/** The workload's declared default chart (WorkloadDef.chart), if the workload is known. */
export function chartOf(workload: string): WorkloadChart | null {
  return workloads[workload]?.chart ?? null;
}

/** A column header: the field's name, as in the results JSON and CSV. */
function Header({ k }: { k: string }) {
  return <th scope="col">{k}</th>;
}

/** The field on one axis of the results chart. */
function AxisSelect(props: { axis: 'x' | 'y'; value: string; fields: readonly string[]; onChange(field: string): void; testId: string }) {
  return (
    <label className="inline">
      {props.axis}{' '}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)} data-testid={props.testId}>
        {props.fields.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
    </label>
  );
}

type Set_ = { label: string; rows: Record<string, unknown>[]; dash?: number[] };

export function RowsChart({ id, sets, chart }: { id: string; sets: Set_[]; chart?: WorkloadChart | null }) {
  const allRows = useMemo(() => sets.flatMap((s) => s.rows), [sets]);
  const auto = useMemo(() => axesFor(allRows, chart), [allRows, chart]);
  const [x, setX] = useState<string | null>(null);
  const [y, setY] = useState<string | null>(null);
  const xs = x && auto.numeric.includes(x) ? x : auto.x;
  const ys = y && auto.numeric.includes(y) ? y : auto.y;
  const groups = useMemo(() => {
    if (!xs || !ys) return [];
    return sets.flatMap((s, si) =>
      groupPoints(s.rows, xs, ys, auto.group).map((g, gi) => ({
        label: sets.length > 1 ? `${s.label}: ${g.label}` : g.label,
        color: CATEGORY[gi % CATEGORY.length]!,
        // one dash pattern per series (per run when several runs share the chart), so lines that overlap stay apart
        dash: sets.length > 1 ? (s.dash ?? seriesDash(si)) : seriesDash(gi),
        points: g.points,
      })),
    );
  }, [sets, xs, ys, auto.group]);
  const together = useMemo(() => coincidentSeries(groups), [groups]);
  if (!xs || !ys) return null;
  const declared = auto.declared && xs === auto.x && ys === auto.y;
  const logX = declared ? auto.logX : undefined;
  const xScale: 'auto' | 'linear' | number = logX === undefined ? 'auto' : logX ? (fieldUnit(xs) === 'bytes' ? 2 : 10) : 'linear';
  const key = JSON.stringify([xs, ys, sets.map((s) => s.rows.length)]);
  const note = together.length ? ` · series coincide: ${together.map((t) => t.join(' = ')).join('; ')}` : '';
  return (
    <div className="rows-chart" data-testid={`${id}-chart`}>
      <CanvasCard
        id={id}
        title="Workload results"
        subtitle={`${ys} against ${xs}${auto.group ? `, one line per ${auto.group}` : ''}${auto.declared ? '' : ' (axes guessed from the rows)'}${note}`}
        height={300}
        draw={(p) =>
          drawXY(p, groups, xs, ys, {
            xScale,
            logY: declared && auto.logY,
            xFormat: (v) => formatTick(xs, v),
            yFormat: (v) => formatTick(ys, v),
          })
        }
        version={() => key}
        table={{
          caption: `${ys} against ${xs}, one row per point`,
          columns: ['series', xs, ys],
          rows: () => groups.flatMap((g) => g.points.map(([a, b]) => [g.label, formatField(xs, a), formatField(ys, b)])),
        }}
        toolbar={
          <>
            <AxisSelect axis="x" value={xs} fields={auto.numeric} onChange={setX} testId={`${id}-x`} />
            <AxisSelect axis="y" value={ys} fields={auto.numeric} onChange={setY} testId={`${id}-y`} />
          </>
        }
      />
      {together.length ? (
        <p className="sub series-coincide" data-testid={`${id}-coincide`}>
          Series coincide (drawn on top of each other, told apart by their dash patterns): {together.map((t) => t.join(' = ')).join('; ')}.
        </p>
      ) : null}
    </div>
  );
}

export function RowsTable({ rows, max = 200 }: { rows: Record<string, unknown>[]; max?: number }) {
  const cols = useMemo(() => {
    const out: string[] = [];
    for (const r of rows) for (const k of Object.keys(r)) if (!out.includes(k)) out.push(k);
    return out;
  }, [rows]);
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Results rows">
      <table className="rows" data-testid="rows-table">
        <thead>
          <tr>
            {cols.map((c) => (
              <Header key={c} k={c} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, max).map((r, i) => (
            <tr key={i}>
              {cols.map((c) => (
                <td key={c}>{formatField(c, r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > max ? <p className="sub">{moreRowsNote(rows.length - max)}</p> : null}
    </div>
  );
}

export function ResultsPanel({ results, wallMs }: { results: Results; wallMs: number }) {
  const name = safeName(`${results.workload.name}-${results.digest}`);
  const rows = results.workload.rows as Record<string, unknown>[];
  const sets = useMemo(() => [{ label: 'run', rows }], [rows]);
  const h = results.host;
  return (
    <section className="card results" data-testid="results">
      <header className="card-head">
        <div>
          <h3>Results</h3>
          <p className="sub">
            digest <code data-testid="digest">{results.digest}</code> · ran in {(wallMs / 1000).toFixed(2)} s on {count(h.workers, 'Web Worker')} ({count(h.coresPerWorker, 'core')} each)
            {results.simulated.stopped ? ' · stopped at the time limit' : ''}
          </p>
        </div>
        <div className="card-tools">
          <button type="button" className="small" onClick={() => downloadText(`${name}.json`, JSON.stringify(results, null, 2), 'application/json')} data-testid="export-json">
            Results JSON
          </button>
          <button type="button" className="small" onClick={() => downloadText(`${name}-rows.csv`, toCsv(rows), 'text/csv')} data-testid="export-csv">
            Rows CSV
          </button>
          <button type="button" className="small" onClick={() => downloadText(`${name}-cores.csv`, toCsv(coreRecords(results)), 'text/csv')} data-testid="export-cores-csv">
            Cores CSV
          </button>
          <button type="button" className="small" onClick={() => downloadText(`${name}-series.csv`, toCsv(seriesRecords(results)), 'text/csv')} data-testid="export-series-csv">
            Series CSV
          </button>
        </div>
      </header>
      <dl className="keynums">
        {keyNumbers(results).map((k) => (
          <div key={k.key} title={k.title}>
            <dt>{k.label}</dt>
            <dd data-testid={`result-${k.key}`}>{k.format(k.value)}</dd>
          </div>
        ))}
      </dl>
      <PaperBesidePanel results={results} />
      {typeof results.workload.summaryNote === 'string' ? (
        <p className="sub" data-testid="summary-note">
          {results.workload.summaryNote}
        </p>
      ) : null}
      <RowsTable rows={rows} />
      <RowsChart id="rows" sets={sets} chart={chartOf(results.workload.name)} />
    </section>
  );
}
