/**
 * Compare: two experiments, A and B, run one after the other; key results side by side with
 * deltas, overlaid time series and workload results.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { HostAdapter, Results, WorkloadRegistry } from '@manycore/engine';
import { drawLineChart } from '../charts/draw';
import { CanvasCard } from '../components/CanvasCard';
import { Editor } from '../components/Editor';
import { ForkSummary, sameExperiment, type ForkRequest } from '../components/ForkPanel';
import { scrubTimeLabel } from '../components/ScrubBar';
import { chartOf, keyNumbers, RowsChart } from '../components/ResultsPanel';
import { transactionBytesOf } from '../lib/floorplan';
import { delta } from '../lib/format';
import { runBlockedReason, validateDraft, withOverridesProblem, type Draft } from '../lib/params';
import type { CoresPerWorker } from '../lib/workers';
import { LiveRun } from '../sim/live-run';
import { SeriesColumns } from '../sim/telemetry';

export interface Slot {
  draft: Draft;
  results: Results | null;
  wallMs: number;
}

export interface CompareProps {
  a: Slot;
  b: Slot;
  onA(s: Slot): void;
  onB(s: Slot): void;
  registry: WorkloadRegistry;
  coresPerWorker: CoresPerWorker;
  onCoresPerWorker(n: CoresPerWorker): void;
  hostCpus: number;
  host: () => HostAdapter;
  /** A fork made on the lab's timeline (A the original, B the fork): marked on the charts, run at once. */
  fork?: (ForkRequest & { token: number }) | null;
}

/** The last fork token Compare ran (a fork runs once, not at every visit of the tab). */
let lastForkRun = 0;

const A_COLOR = '#0072B2';
const B_COLOR = '#D55E00';

function OverlayChart({ id, title, yLabel, a, b, pick, forkAtNs }: { id: string; title: string; yLabel: string; a: Results; b: Results; pick: (s: SeriesColumns) => Float64Array; forkAtNs?: number }) {
  const sa = useMemo(() => SeriesColumns.fromResults(a.series, transactionBytesOf(a.experiment.chip)), [a]);
  const sb = useMemo(() => SeriesColumns.fromResults(b.series, transactionBytesOf(b.experiment.chip)), [b]);
  return (
    <CanvasCard
      id={id}
      title={title}
      subtitle="A solid, B dashed"
      draw={(p) =>
        drawLineChart(p, {
          yLabel,
          markers: forkAtNs !== undefined ? [{ x: forkAtNs, label: `fork at ${scrubTimeLabel(forkAtNs * 1000)}` }] : [],
          series: [
            { label: 'A', color: A_COLOR, xs: sa.timeNs.view(), ys: pick(sa) },
            { label: 'B', color: B_COLOR, dash: [7, 4], xs: sb.timeNs.view(), ys: pick(sb) },
          ],
        })
      }
      version={() => `${a.digest}|${b.digest}|${forkAtNs ?? ''}`}
    />
  );
}

function sumColumns(cols: { view(): Float64Array }[], n: number): Float64Array {
  const out = new Float64Array(n);
  for (const c of cols) {
    const v = c.view();
    for (let i = 0; i < n; i++) out[i]! += v[i] ?? 0;
  }
  return out;
}

function describe(d: Draft, registry: WorkloadRegistry): string {
  const parsed = registry[d.workload.name]?.params.safeParse(d.workload.params);
  const all = parsed?.success ? (parsed.data as Record<string, unknown>) : d.workload.params;
  const params = Object.entries(all)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const over = Object.keys(d.chip.overrides).length ? ` · chip overrides ${JSON.stringify(d.chip.overrides).slice(0, 80)}` : '';
  const tl = d.timeline.length ? ` · ${d.timeline.length} timeline change(s)` : '';
  return `${d.workload.name}${params ? ` (${params})` : ''}${over}${tl}`;
}

export function Compare(props: CompareProps) {
  const [running, setRunning] = useState<'A' | 'B' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<LiveRun | null>(null);
  // override JSON that does not parse blocks that side's run, as in the lab
  const [problemA, setProblemA] = useState<string | null>(null);
  const [problemB, setProblemB] = useState<string | null>(null);
  const va = withOverridesProblem(validateDraft(props.a.draft, props.registry), problemA);
  const vb = withOverridesProblem(validateDraft(props.b.draft, props.registry), problemB);
  const blocked = runBlockedReason(va) ?? runBlockedReason(vb);
  const blockedSide = runBlockedReason(va) ? 'A' : 'B';

  const runOne = (which: 'A' | 'B', slot: Slot): Promise<Slot> => {
    const v = which === 'A' ? va : vb;
    if (!v.experiment) return Promise.reject(new Error(`${which}: ${[...Object.values(v.fieldErrors), ...v.general].join('; ')}`));
    const run = new LiveRun(v.experiment, { coresPerWorker: props.coresPerWorker, hostCpus: props.hostCpus, host: props.host, registry: props.registry });
    current.current = run;
    setRunning(which);
    const finished = run.finished().then(
      (results) => ({ ...slot, results, wallMs: run.wallMs }),
      (err: Error) => Promise.reject(new Error(`${which}: ${err.message}`)),
    );
    run.start();
    return finished;
  };

  const runBoth = async () => {
    setError(null);
    try {
      const a = props.a.results ? props.a : await runOne('A', props.a);
      props.onA(a);
      const b = props.b.results ? props.b : await runOne('B', props.b);
      props.onB(b);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      current.current?.dispose();
      current.current = null;
      setRunning(null);
    }
  };

  // a fork from the timeline: shown while the slots still hold its two experiments; run once
  const fork = props.fork && va.experiment && vb.experiment && sameExperiment(va.experiment, props.fork.original) && sameExperiment(vb.experiment, props.fork.fork) ? props.fork : null;
  const forkAtNs = fork ? fork.atPs / 1000 : undefined;
  useEffect(() => {
    if (!fork || fork.token <= lastForkRun || running !== null) return;
    lastForkRun = fork.token;
    void runBoth();
  }, [fork?.token]); // once per fork (runBoth reads the slots of this render)

  const A = props.a.results;
  const B = props.b.results;
  const slot = (which: 'A' | 'B', s: Slot, set: (s: Slot) => void, v: ReturnType<typeof validateDraft>) => (
    <section className="card slot" data-testid={`compare-slot-${which.toLowerCase()}`}>
      <header className="card-head">
        <div>
          <h3>
            <span className={`badge badge-${which.toLowerCase()}`}>{which}</span> {describe(s.draft, props.registry)}
          </h3>
          <p className="sub">
            {s.results ? (
              <>
                done: digest <code data-testid={`compare-digest-${which.toLowerCase()}`}>{s.results.digest}</code>
              </>
            ) : (
              'not run yet'
            )}
          </p>
        </div>
      </header>
      <details>
        <summary>Edit {which}</summary>
        <Editor
          draft={s.draft}
          validation={v}
          registry={props.registry}
          disabled={running !== null}
          onChange={(d) => set({ draft: d, results: null, wallMs: 0 })}
          coresPerWorker={props.coresPerWorker}
          onCoresPerWorker={props.onCoresPerWorker}
          hostCpus={props.hostCpus}
          onOverridesProblem={which === 'A' ? setProblemA : setProblemB}
        />
      </details>
    </section>
  );

  return (
    <div className="compare" data-testid="compare">
      <p className="lead">
        Run two experiments and compare them: for example the same workload with one parameter changed. Send the lab's experiment here with “Compare as A/B”, or edit
        each side below.
      </p>
      <div className="slots">
        {slot('A', props.a, props.onA, va)}
        {slot('B', props.b, props.onB, vb)}
      </div>
      <div className="buttons">
        <button type="button" className="primary" onClick={() => void runBoth()} disabled={running !== null || !va.experiment || !vb.experiment} aria-describedby={blocked ? 'compare-run-blocked' : undefined} data-testid="compare-run">
          {running ? `Running ${running}…` : A && B ? 'Both done' : 'Run A and B'}
        </button>
        <button
          type="button"
          onClick={() => {
            props.onA({ ...props.a, results: null });
            props.onB({ ...props.b, results: null });
          }}
          disabled={running !== null}
        >
          Clear results
        </button>
        {blocked && running === null ? (
          <span className="run-disabled-reason" id="compare-run-blocked" data-testid="compare-run-blocked">
            {blockedSide}: {blocked}
          </span>
        ) : null}
        {error ? (
          <span className="error" role="alert" data-testid="compare-error">
            {error}
          </span>
        ) : null}
      </div>
      {fork ? <ForkSummary atNs={fork.atPs / 1000} change={fork.change} a={va.experiment} b={vb.experiment} digestA={A?.digest} digestB={B?.digest} /> : null}
      {A && B ? (
        <>
          <section className="card">
            <header className="card-head">
              <h3>Key results</h3>
            </header>
            <table className="compare-table" data-testid="compare-table">
              <thead>
                <tr>
                  <th scope="col">measure</th>
                  <th scope="col">A</th>
                  <th scope="col">B</th>
                  <th scope="col">B − A</th>
                  <th scope="col">change</th>
                </tr>
              </thead>
              <tbody>
                {keyNumbers(A).map((k, i) => {
                  const kb = keyNumbers(B)[i]!;
                  const d = delta(k.value, kb.value);
                  const abs = `${kb.value > k.value ? '+' : ''}${k.format(kb.value - k.value)}`;
                  return (
                    <tr key={k.key}>
                      <th scope="row">{k.label}</th>
                      <td>{k.format(k.value)}</td>
                      <td>{kb.format(kb.value)}</td>
                      <td className={d.sign > 0 ? 'up' : d.sign < 0 ? 'down' : ''}>{abs}</td>
                      <td className={d.sign > 0 ? 'up' : d.sign < 0 ? 'down' : ''}>{d.rel}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
          <div className="chart-grid">
            <OverlayChart id="compare-power" title="Chip power, A vs B" yLabel="power (W)" a={A} b={B} pick={(s) => s.chipPowerW.view()} forkAtNs={forkAtNs} />
            <OverlayChart id="compare-network" title="Network throughput, A vs B" yLabel="flit-hops per µs" a={A} b={B} pick={(s) => s.flitsPerUs.view()} forkAtNs={forkAtNs} />
            <OverlayChart id="compare-bandwidth" title="Total memory bandwidth, A vs B" yLabel="GB/s" a={A} b={B} pick={(s) => sumColumns(s.controllerGBps, s.length)} forkAtNs={forkAtNs} />
            <RowsChart
              id="compare-rows"
              chart={A.workload.name === B.workload.name ? chartOf(A.workload.name) : null}
              sets={[
                { label: 'A', rows: A.workload.rows as Record<string, unknown>[] },
                { label: 'B', rows: B.workload.rows as Record<string, unknown>[], dash: [7, 4] },
              ]}
            />
          </div>
        </>
      ) : null}
    </div>
  );
}
