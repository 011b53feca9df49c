/**
 * A guided sweep running in the gallery: progress ("run 3 of 15"), Stop (keeps the points so
 * far), the curve drawn as points arrive with the paper's values beside, a data table of the
 * points, and the rows of every run as CSV. The runs go one after another on Web Workers
 * (sim/sweep.ts); this component only draws the state it is handed after each run.
 * `embedded` (pages/Embed.tsx): no title and no Close (the embed has its own), and the sweep
 * waits for "Run sweep" instead of starting at once (the paper's values show meanwhile).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { HostAdapter, WorkloadRegistry } from '@manycore/engine';
import type { ChartPoint, GuidedExperiment } from '@manycore/workloads';
import { toCsv } from '../lib/csv';
import { downloadText } from '../lib/download';
import { formatField } from '../lib/format';
import { initialSweep, liveRunStarter, paperPoints, progressText, SweepRunner, type SweepState } from '../sim/sweep';
import { SweepChart } from './SweepChart';

export interface SweepPanelProps {
  entry: GuidedExperiment;
  registry: WorkloadRegistry;
  host: () => HostAdapter;
  hostCpus: number;
  onClose?(): void;
  /** In an embed: no title or Close, and nothing runs until "Run sweep" is pressed. */
  embedded?: boolean;
}

function pointKey(p: ChartPoint): string {
  return JSON.stringify([p.x, p.series]);
}

export function SweepPanel({ entry, registry, host, hostCpus, onClose, embedded = false }: SweepPanelProps) {
  const [started, setState] = useState<SweepState | null>(null);
  const [round, setRound] = useState(embedded ? -1 : 0); // -1: not started (an embed waits for its Run)
  const runner = useRef<SweepRunner | null>(null);
  const idle = round < 0;
  const idleState = useMemo(() => initialSweep(entry), [entry]);
  const state = started ?? (embedded ? idleState : null); // an embed keeps its panel while its first run starts

  useEffect(() => {
    if (round < 0) return;
    const r = new SweepRunner(entry, liveRunStarter({ coresPerWorker: 'auto', hostCpus, host, registry }), setState);
    runner.current = r;
    setState(r.state);
    void r.run();
    return () => r.stop();
  }, [entry, registry, host, hostCpus, round]);

  const paper = useMemo(() => (state ? paperPoints(entry, state) : []), [entry, state]);
  if (!state) return null;
  const running = !idle && state.status === 'running';
  const hint = entry.chart;
  const xDomain = entry.sweep && hint && entry.sweep.param === hint.x ? entry.sweep.values.map((v) => (typeof v === 'boolean' ? String(v) : v)) : [];
  const paperAt = new Map(paper.map((p) => [pointKey(p), p]));
  const tableRows = [...state.lab.map((p) => ({ p, q: paperAt.get(pointKey(p)) })), ...paper.filter((q) => !state.lab.some((p) => pointKey(p) === pointKey(q))).map((q) => ({ p: null, q }))];

  return (
    <section className="card sweep-panel" data-testid="sweep-panel" aria-label={`Sweep: ${entry.title}`}>
      <header className="card-head">
        <div>
          {embedded ? null : <h3>{entry.title}</h3>}
          <p className="sub" role="status" aria-live="polite" data-testid="sweep-progress" data-status={idle ? 'ready' : state.status}>
            {idle ? `${state.total} run${state.total === 1 ? '' : 's'}: press Run sweep` : progressText(entry, state)}
          </p>
        </div>
        <div className="buttons">
          <button type="button" onClick={() => runner.current?.stop()} disabled={!running} data-testid="sweep-stop">
            ■ Stop
          </button>
          {!running ? (
            <button type="button" className={idle ? 'primary' : undefined} onClick={() => setRound((n) => n + 1)} data-testid={idle ? 'sweep-run' : 'sweep-again'}>
              {idle ? '▶ Run sweep' : '▶ Run again'}
            </button>
          ) : null}
          <button
            type="button"
            disabled={state.rows.length === 0}
            onClick={() => downloadText(`${entry.id}.csv`, toCsv(state.rows), 'text/csv')}
            data-testid="sweep-csv"
            title="The rows of every finished run, with the run index and its parameters"
          >
            Rows CSV
          </button>
          {onClose && !embedded ? (
            <button type="button" className="small" onClick={onClose} data-testid="sweep-close" aria-label="Close the sweep">
              Close
            </button>
          ) : null}
        </div>
      </header>
      <progress className="sweep-bar" max={state.total} value={state.done} aria-label="Runs finished" />
      {state.error ? (
        <p className="banner error" role="alert" data-testid="sweep-error">
          The sweep stopped: {state.error}
        </p>
      ) : null}
      {hint ? (
        <SweepChart hint={hint} lab={state.lab} paper={paper} xDomain={xDomain} title={entry.title} />
      ) : (
        <p className="sub" data-testid="sweep-points" data-count={state.rows.length}>
          {state.rows.length} row{state.rows.length === 1 ? '' : 's'} so far (this entry has no chart).
        </p>
      )}
      {entry.paper ? (
        <p className="sub sweep-paper-note">
          Paper values: {entry.paper.source}.{entry.paper.note ? ` ${entry.paper.note}` : ''}
        </p>
      ) : null}
      {hint ? (
        <details className="sweep-table">
          <summary>Data table ({state.lab.length} point{state.lab.length === 1 ? '' : 's'})</summary>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Sweep points">
            <table className="rows" data-testid="sweep-table">
              <thead>
                <tr>
                  <th scope="col">{hint.x}</th>
                  {hint.series ? <th scope="col">series</th> : null}
                  <th scope="col">{hint.y} (lab)</th>
                  {paper.length ? <th scope="col">paper</th> : null}
                  {paper.length ? <th scope="col">lab / paper</th> : null}
                  <th scope="col">run</th>
                </tr>
              </thead>
              <tbody>
                {tableRows.map(({ p, q }, i) => (
                  <tr key={i}>
                    <td>{String((p ?? q)!.x)}</td>
                    {hint.series ? <td>{(p ?? q)!.series}</td> : null}
                    <td>{p ? formatField(hint.y, p.y) : '–'}</td>
                    {paper.length ? <td title={q?.label}>{q ? formatField(hint.y, q.y) : ''}</td> : null}
                    {paper.length ? <td data-testid="sweep-ratio">{p && q && q.y !== 0 ? `${(p.y / q.y).toPrecision(3)}×` : ''}</td> : null}
                    <td>{p ? p.run + 1 : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </section>
  );
}
