/**
 * Compare: two experiments, A and B, run at the same time (sim/pair-run.ts: two LiveRuns, the
 * host's CPUs split between them, paced like the lab); key results side by side with deltas,
 * overlaid time series (drawn from both live series while they run, from the results after)
 * and workload results. A fork from the lab's timeline plays both A (the original) and B (the
 * fork) from the start side by side, the fork's time marked on the charts.
 */
import { useEffect, useReducer, useRef, useState } from 'react';
import type { HostAdapter, Results, WorkloadRegistry } from '@manycore/engine';
import { drawLineChart } from '../charts/draw';
import type { Painter } from '../charts/painter';
import { CanvasCard } from '../components/CanvasCard';
import { Editor } from '../components/Editor';
import { ForkSummary, sameExperiment, type ForkRequest } from '../components/ForkPanel';
import { scrubTimeLabel } from '../components/ScrubBar';
import { chartOf, keyNumbers, RowsChart } from '../components/ResultsPanel';
import { transactionBytesOf } from '../lib/floorplan';
import { delta } from '../lib/format';
import { runBlockedReason, validateDraft, withOverridesProblem, type Draft } from '../lib/params';
import type { CoresPerWorker } from '../lib/workers';
import { frameLoop } from '../sim/frame-loop';
import { overlayLines, PairRun, PairStopped, progressLabel, sumInto, type Side } from '../sim/pair-run';
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
/** The pair of runs last started here: it outlives a visit to another tab (the runs go on, and show again on return). */
let shownPair: PairRun | null = null;

/** Where a chart reads one side's series: the results once there, else the live run's telemetry. */
type SeriesSource = () => SeriesColumns | null;

function OverlayChart({ id, title, yLabel, a, b, pick, forkAtNs, version }: { id: string; title: string; yLabel: string; a: SeriesSource; b: SeriesSource; pick: (s: SeriesColumns, side: Side) => Float64Array; forkAtNs?: number; version: () => string }) {
  const draw = (p: Painter) => {
    const sa = a();
    const sb = b();
    drawLineChart(p, {
      yLabel,
      // the marker stays in view before the runs reach it
      ...(forkAtNs !== undefined ? { xMaxNs: forkAtNs } : {}),
      markers: forkAtNs !== undefined ? [{ x: forkAtNs, label: `fork at ${scrubTimeLabel(forkAtNs * 1000)}` }] : [],
      series: overlayLines(sa, sb, pick),
    });
  };
  return (
    <CanvasCard
      id={id}
      title={title}
      subtitle="A solid, B dashed"
      draw={draw}
      // one layer that changes (the static one is the background): the canvas carries the sample counts it drew, for the tests
      layers={() => ({
        key: 'overlay',
        drawStatic: () => {},
        drawDynamic: draw,
        dataset: { pointsA: String(a()?.length ?? 0), pointsB: String(b()?.length ?? 0), forkAtNs: forkAtNs === undefined ? '' : String(forkAtNs) },
      })}
      version={version}
    />
  );
}

/** Columns of a finished run's series (once per results object). */
const resultsColumns = new WeakMap<Results, SeriesColumns>();
function columnsOf(r: Results): SeriesColumns {
  let c = resultsColumns.get(r);
  if (!c) {
    c = SeriesColumns.fromResults(r.series, transactionBytesOf(r.experiment.chip));
    resultsColumns.set(r, c);
  }
  return c;
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
  const [pair, setPair] = useState<PairRun | null>(shownPair);
  const [, bump] = useReducer((x: number) => x + 1, 0);
  useEffect(() => pair?.subscribe(bump), [pair]);
  const running = pair?.active ?? false;
  const [error, setError] = useState<string | null>(null);
  // override JSON that does not parse blocks that side's run, as in the lab
  const [problemA, setProblemA] = useState<string | null>(null);
  const [problemB, setProblemB] = useState<string | null>(null);
  const va = withOverridesProblem(validateDraft(props.a.draft, props.registry), problemA);
  const vb = withOverridesProblem(validateDraft(props.b.draft, props.registry), problemB);
  const blocked = runBlockedReason(va) ?? runBlockedReason(vb);
  const blockedSide = runBlockedReason(va) ? 'A' : 'B';

  /**
   * Runs the sides without results at the same time ('missing'), or both from the start
   * ('both': a fork plays the original beside the fork; a re-run of A must give the digest A
   * already had, the runs being deterministic).
   */
  const runBoth = async (play: 'missing' | 'both') => {
    if (shownPair?.active) return;
    setError(null);
    const slots = { A: props.a, B: props.b };
    const set = { A: props.onA, B: props.onB };
    const valid = { A: va, B: vb };
    const sides = (['A', 'B'] as const).filter((s) => play === 'both' || !slots[s].results);
    if (sides.length === 0) return;
    const experiments: { A?: NonNullable<typeof va.experiment>; B?: NonNullable<typeof va.experiment> } = {};
    for (const s of sides) {
      const v = valid[s];
      if (!v.experiment) return setError(`${s}: ${[...Object.values(v.fieldErrors), ...v.general].join('; ')}`);
      experiments[s] = v.experiment;
    }
    let p: PairRun;
    try {
      p = new PairRun(experiments, { coresPerWorker: props.coresPerWorker, hostCpus: props.hostCpus, host: props.host, registry: props.registry });
    } catch (err) {
      return setError(err instanceof Error ? err.message : String(err));
    }
    shownPair?.dispose();
    shownPair = p;
    setPair(p);
    for (const s of sides) {
      const before = slots[s].results;
      set[s]({ ...slots[s], results: null, wallMs: 0 });
      // each slot gets its results as soon as its own run finished
      p.finished(s).then(
        (r) => {
          set[s]({ ...slots[s], results: r.results, wallMs: r.wallMs });
          if (before && before.digest !== r.results.digest) setError(`${s}: the re-run gave digest ${r.results.digest}, the run before gave ${before.digest}`);
        },
        () => {}, // start() reports the failure
      );
    }
    try {
      await p.start();
    } catch (err) {
      if (!(err instanceof PairStopped)) setError(err instanceof Error ? err.message : String(err));
    } finally {
      p.dispose();
    }
  };

  // a fork from the timeline: shown while the slots still hold its two experiments; played once
  const fork = props.fork && va.experiment && vb.experiment && sameExperiment(va.experiment, props.fork.original) && sameExperiment(vb.experiment, props.fork.fork) ? props.fork : null;
  const forkAtNs = fork ? fork.atPs / 1000 : undefined;
  useEffect(() => {
    if (!fork || fork.token <= lastForkRun || shownPair?.active) return;
    lastForkRun = fork.token;
    void runBoth('both');
  }, [fork?.token]); // once per fork (runBoth reads the slots of this render)

  // progress of each side, written into the DOM at frames (no React render per frame)
  const progress = { A: useRef<HTMLSpanElement>(null), B: useRef<HTMLSpanElement>(null) };
  useEffect(() => {
    if (!pair) return;
    const shownNs = { A: NaN, B: NaN };
    const shownState = { A: '', B: '' };
    const paint = () => {
      for (const s of pair.sides) {
        const el = progress[s].current;
        const run = pair.runs[s]!;
        const status = pair.status(s)!;
        const ns = run.liveTelemetry.simNs;
        if (!el || (ns === shownNs[s] && status === shownState[s])) continue;
        shownNs[s] = ns;
        shownState[s] = status;
        el.textContent = progressLabel(s, ns, status);
        el.dataset.state = status;
        el.dataset.simNs = String(ns);
      }
    };
    paint();
    const unsub = pair.subscribe(paint);
    const unframe = running ? frameLoop.add(paint, 50) : null;
    return () => {
      unsub();
      unframe?.();
    };
  }, [pair, running]);

  const A = props.a.results;
  const B = props.b.results;
  // each chart side: the results once there, else that side's live run (while it runs, or as far as it got)
  const liveOf = (s: Side): SeriesSource | null => {
    const run = pair?.runs[s];
    return run ? () => run.liveTelemetry.series : null;
  };
  const srcA: SeriesSource | null = A ? () => columnsOf(A) : liveOf('A');
  const srcB: SeriesSource | null = B ? () => columnsOf(B) : liveOf('B');
  // redrawn when a live series got a sample (the pair counts them at each frame) or results arrived
  const chartVersion = () => `${A?.digest ?? 'live'}|${B?.digest ?? 'live'}|${pair?.samplesVersion ?? 0}|${forkAtNs ?? ''}`;
  const bandwidth = useRef({ A: { data: new Float64Array(0) }, B: { data: new Float64Array(0) } });
  /** A slot edited or cleared: the last pair's live series no longer belong to it. */
  const forget = () => {
    if (!pair || pair.active) return;
    if (shownPair === pair) shownPair = null;
    setPair(null);
  };
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
            ) : pair?.runs[which] && pair.status(which) !== 'halted' && running ? (
              'running…'
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
          disabled={running}
          onChange={(d) => {
            forget();
            set({ draft: d, results: null, wallMs: 0 });
          }}
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
        <button type="button" className="primary" onClick={() => void runBoth('missing')} disabled={running || !va.experiment || !vb.experiment} aria-describedby={blocked ? 'compare-run-blocked' : undefined} data-testid="compare-run">
          {running ? `Running ${pair!.sides.join(' and ')}…` : A && B ? 'Both done' : 'Run A and B'}
        </button>
        <button type="button" onClick={() => pair?.stop()} disabled={!running} data-testid="compare-stop" title="Stop both runs">
          Stop
        </button>
        <button
          type="button"
          onClick={() => {
            forget();
            props.onA({ ...props.a, results: null });
            props.onB({ ...props.b, results: null });
          }}
          disabled={running}
        >
          Clear results
        </button>
        {blocked && !running ? (
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
      {pair ? (
        <p className="pair-progress" aria-live="off" data-testid="compare-progress" data-cpus-each={pair.cpusEach}>
          {pair.sides.map((s) => (
            <span key={s} ref={progress[s]} className={`pair-side side-${s.toLowerCase()}`} data-testid={`compare-progress-${s.toLowerCase()}`} />
          ))}
          <span className="sub">
            {pair.sides.length === 2 ? `at the same time, ${pair.cpusEach} host CPU${pair.cpusEach === 1 ? '' : 's'} each` : `${pair.cpusEach} host CPUs`}
          </span>
        </p>
      ) : null}
      {fork ? <ForkSummary atNs={fork.atPs / 1000} change={fork.change} a={va.experiment} b={vb.experiment} digestA={A?.digest} digestB={B?.digest} /> : null}
      {A && B ? (
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
      ) : null}
      {srcA && srcB ? (
        <div className="chart-grid">
          <OverlayChart id="compare-power" title="Chip power, A vs B" yLabel="power (W)" a={srcA} b={srcB} pick={(s) => s.chipPowerW.view()} forkAtNs={forkAtNs} version={chartVersion} />
          <OverlayChart id="compare-network" title="Network throughput, A vs B" yLabel="flit-hops per µs" a={srcA} b={srcB} pick={(s) => s.flitsPerUs.view()} forkAtNs={forkAtNs} version={chartVersion} />
          <OverlayChart
            id="compare-bandwidth"
            title="Total memory bandwidth, A vs B"
            yLabel="GB/s"
            a={srcA}
            b={srcB}
            pick={(s, side) => sumInto(s.controllerGBps, s.length, bandwidth.current[side])}
            forkAtNs={forkAtNs}
            version={chartVersion}
          />
          {A && B ? (
            <RowsChart
              id="compare-rows"
              chart={A.workload.name === B.workload.name ? chartOf(A.workload.name) : null}
              sets={[
                { label: 'A', rows: A.workload.rows as Record<string, unknown>[] },
                { label: 'B', rows: B.workload.rows as Record<string, unknown>[], dash: [7, 4] },
              ]}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
