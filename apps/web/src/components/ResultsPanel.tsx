/** A finished run: digest, key numbers, the workload's rows (table and chart), exports. */
import { useMemo, useState } from 'react';
import type { Results } from '@manycore/engine';
import { CATEGORY, drawXY } from '../charts/draw';
import { coreRecords, seriesRecords, toCsv } from '../lib/csv';
import { downloadText, safeName } from '../lib/download';
import { joules, num, simTime, watts } from '../lib/format';
import { chooseAxes, groupPoints } from '../lib/rows';
import { CanvasCard } from './CanvasCard';
import { PaperBesidePanel } from './PaperBeside';

export function keyNumbers(r: Results): { key: string; label: string; value: number; format(v: number): string }[] {
  const s = r.simulated;
  return [
    { key: 'endTimeNs', label: 'simulated time', value: s.endTimeNs, format: (v) => simTime(v, 5) },
    { key: 'avgPowerW', label: 'average chip power', value: s.chip.avgPowerW, format: watts },
    { key: 'energyJ', label: 'chip energy', value: s.chip.energyJ, format: joules },
    { key: 'loads', label: 'loads', value: s.chip.loads, format: (v) => num(v, 6) },
    { key: 'stores', label: 'stores', value: s.chip.stores, format: (v) => num(v, 6) },
    { key: 'dramReads', label: 'DRAM reads', value: s.chip.dramReads, format: (v) => num(v, 6) },
    { key: 'flits', label: 'flits', value: s.chip.flits, format: (v) => num(v, 6) },
    { key: 'epochs', label: 'epochs', value: s.epochs, format: (v) => num(v, 6) },
  ];
}

export function RowsChart({ id, sets }: { id: string; sets: { label: string; rows: Record<string, unknown>[]; dash?: number[] }[] }) {
  const allRows = useMemo(() => sets.flatMap((s) => s.rows), [sets]);
  const auto = useMemo(() => chooseAxes(allRows), [allRows]);
  const [x, setX] = useState<string | null>(null);
  const [y, setY] = useState<string | null>(null);
  const xs = x && auto.numeric.includes(x) ? x : auto.x;
  const ys = y && auto.numeric.includes(y) ? y : auto.y;
  if (!xs || !ys) return null;
  const groups = sets.flatMap((s, si) =>
    groupPoints(s.rows, xs, ys, auto.group).map((g, gi) => ({
      label: sets.length > 1 ? `${s.label}: ${g.label}` : g.label,
      color: CATEGORY[(gi + (sets.length > 1 ? 0 : si)) % CATEGORY.length]!,
      ...(s.dash ? { dash: s.dash } : {}),
      points: g.points,
    })),
  );
  const key = JSON.stringify([xs, ys, sets.map((s) => s.rows.length)]);
  return (
    <CanvasCard
      id={id}
      title="Workload results"
      subtitle={`${ys} against ${xs}${auto.group ? `, one line per ${auto.group}` : ''}`}
      height={300}
      draw={(p) => drawXY(p, groups, xs, ys)}
      version={() => key}
      toolbar={
        <>
          <label className="inline">
            x{' '}
            <select value={xs} onChange={(e) => setX(e.target.value)} data-testid={`${id}-x`}>
              {auto.numeric.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
          </label>
          <label className="inline">
            y{' '}
            <select value={ys} onChange={(e) => setY(e.target.value)} data-testid={`${id}-y`}>
              {auto.numeric.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
          </label>
        </>
      }
    />
  );
}

export function RowsTable({ rows, max = 200 }: { rows: Record<string, unknown>[]; max?: number }) {
  const cols = useMemo(() => {
    const out: string[] = [];
    for (const r of rows) for (const k of Object.keys(r)) if (!out.includes(k)) out.push(k);
    return out;
  }, [rows]);
  return (
    <div className="table-wrap">
      <table className="rows" data-testid="rows-table">
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, max).map((r, i) => (
            <tr key={i}>
              {cols.map((c) => (
                <td key={c}>{typeof r[c] === 'number' ? num(r[c] as number, 6) : String(r[c] ?? '')}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > max ? <p className="sub">{rows.length - max} more rows in the CSV export.</p> : null}
    </div>
  );
}

export function ResultsPanel({ results, wallMs }: { results: Results; wallMs: number }) {
  const name = safeName(`${results.workload.name}-${results.digest}`);
  const rows = results.workload.rows as Record<string, unknown>[];
  return (
    <section className="card results" data-testid="results">
      <header className="card-head">
        <div>
          <h3>Results</h3>
          <p className="sub">
            digest <code data-testid="digest">{results.digest}</code> · ran in {(wallMs / 1000).toFixed(2)} s on {results.host.workers} Web Workers ({results.host.coresPerWorker} cores each)
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
          <div key={k.key}>
            <dt>{k.label}</dt>
            <dd data-testid={`result-${k.key}`}>{k.format(k.value)}</dd>
          </div>
        ))}
      </dl>
      <PaperBesidePanel results={results} />
      <RowsTable rows={rows} />
      <RowsChart id="rows" sets={[{ label: 'run', rows }]} />
    </section>
  );
}
