/**
 * The embed of one guided experiment (`?embed=<id>` or `#/embed/<id>`, main.tsx): minimal
 * chrome for a course page's iframe: a title, run/pause, the entry's one control (lib/embed.ts:
 * a swept parameter's value, a typed parameter, or an island's divisor changed live), the chip
 * view with the entry's metric, the result when the run ends, and a link that opens the same
 * experiment in the full lab. It runs where the page is not cross-origin isolated (the normal
 * case inside another site's page): LiveRun falls back to one worker without SharedArrayBuffer.
 * An entry of several runs (a sweep; lib/embed.ts embedView) shows the chart of the whole sweep
 * instead: the gallery's SweepPanel without its chrome, "Run sweep" / "Stop", progress "run 3 of
 * 8", the curve drawn as each run finishes with the papers' values as diamonds; the link to the
 * full lab opens the sweep's first run there.
 * An unknown id gets a message listing the valid ones; the id is only shown as text.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { parseExperiment, prepareRun, type Experiment } from '@manycore/engine';
import { guidedById, guidedExperiments, workloads, type GuidedExperiment } from '@manycore/workloads';
import { browserHost } from '@manycore/workers/browser-host';
import { sharedMemoryAvailable } from '@manycore/workers/fallback-host';
import { ChipView } from '../components/ChipView';
import { FallbackNotice } from '../components/FallbackNotice';
import { chartOf, RowsChart } from '../components/ResultsPanel';
import { SweepPanel } from '../components/SweepPanel';
import { controlChoices, embedControlOf, embedView, labUrl, parseParamValue } from '../lib/embed';
import { formatField, simTime } from '../lib/format';
import { shareUrl } from '../lib/link';
import { hostCpus } from '../lib/workers';
import { frameLoop } from '../sim/frame-loop';
import { LiveRun } from '../sim/live-run';
import type { Window } from '../sim/telemetry';

const host = () => browserHost();
const CPUS = hostCpus();
const STATUS_TEXT: Record<string, string> = { ready: 'ready', running: 'running', paused: 'paused', done: 'finished', stopped: 'stopped', error: 'failed' };

export function Embed({ id }: { id: string }) {
  const entry = guidedById(id);
  if (!entry)
    return (
      <div className="embed" data-testid="embed">
        <div className="banner error" role="alert" data-testid="embed-error">
          <strong>No guided experiment “{id}”.</strong> An embed names one of: {guidedExperiments.map((g) => g.id).join(', ')}.
        </div>
      </div>
    );
  return embedView(entry) === 'chart' ? <EmbedSweep entry={entry} /> : <EmbedEntry entry={entry} />;
}

/** A sweep entry: the chart of all its runs (SweepPanel, embedded), run from here. */
function EmbedSweep({ entry }: { entry: GuidedExperiment }) {
  const fallback = !sharedMemoryAvailable();
  const [labLink, setLabLink] = useState<string>(() => labUrl(window.location.href));
  const first = useMemo(() => {
    try {
      return parseExperiment(entry.experiments[0]!);
    } catch {
      return null;
    }
  }, [entry]);
  useEffect(() => {
    let live = true;
    if (first) void shareUrl(labUrl(window.location.href), first).then((u) => live && setLabLink(u));
    return () => {
      live = false;
    };
  }, [first]);
  return (
    <div className="embed embed-sweep" data-testid="embed" data-embed-id={entry.id} data-embed-view="chart">
      <header className="embed-head">
        <h1 data-testid="embed-title">{entry.title}</h1>
        <a href={labLink} target="_blank" rel="noopener noreferrer" data-testid="embed-open-lab" title="The sweep's first run in the full lab (its gallery runs the whole sweep)">
          Open in the full lab ↗
        </a>
      </header>
      <p className="embed-summary">{entry.summary}</p>
      {fallback ? <FallbackNotice compact /> : null}
      <SweepPanel entry={entry} registry={workloads} host={host} hostCpus={CPUS} embedded />
    </div>
  );
}

function EmbedEntry({ entry }: { entry: GuidedExperiment }) {
  const control = useMemo(() => embedControlOf(entry), [entry]);
  const choices = useMemo(() => (control ? controlChoices(entry, control) : null), [entry, control]);
  const [choice, setChoice] = useState(0);
  const [typed, setTyped] = useState<string | null>(null);
  const [divisor, setDivisor] = useState<number | null>(null);
  const [run, setRun] = useState<LiveRun | null>(null);
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const [metric, setMetric] = useState(entry.metric ?? 'utilization');
  const [win, setWin] = useState<Window>('recent');
  const [selected, setSelected] = useState<number | null>(null);
  const [labLink, setLabLink] = useState<string>(() => labUrl(window.location.href));
  const fallback = !sharedMemoryAvailable();

  // the experiment the control gives (a sweep's run, a typed parameter, an island's divisor from the start)
  const built = useMemo((): { experiment: Experiment | null; problem: string | null } => {
    try {
      const base = entry.experiments[choices ? choice : 0]!;
      let input = base;
      if (control && 'param' in control && !choices && typed !== null)
        input = { ...base, workload: { ...base.workload, params: { ...(base.workload.params ?? {}), [control.param]: parseParamValue(typed) } } };
      const experiment = parseExperiment(input);
      prepareRun(experiment, workloads);
      if (control && 'islandDivisor' in control && divisor !== null)
        return { experiment: { ...experiment, timeline: [...experiment.timeline, { kind: 'island-divisor', atNs: 0, island: control.islandDivisor, divisor }] }, problem: null };
      return { experiment, problem: null };
    } catch (err) {
      return { experiment: null, problem: err instanceof Error ? err.message : String(err) };
    }
  }, [entry, control, choices, choice, typed, divisor]);
  const prepared = useMemo(() => (built.experiment ? prepareRun(built.experiment, workloads) : null), [built.experiment]);
  const chip = run ? run.sim.run.chip : (prepared?.chip ?? null);
  const participants = useMemo(() => new Set(run ? run.sim.run.settings.participants : (prepared?.settings.participants ?? [])), [run, prepared]);

  useEffect(() => (run ? run.subscribe(rerender) : undefined), [run]);
  useEffect(() => () => run?.dispose(), [run]);
  const runRef = useRef<LiveRun | null>(null);
  runRef.current = run;
  useEffect(
    () =>
      frameLoop.add((now) => {
        const r = runRef.current;
        if (r && r.status !== 'ready') r.telemetry.update(now);
      }, 0),
    [],
  );
  // the simulated time, written by the frame loop (no React render per frame)
  const timeEl = useRef<HTMLSpanElement>(null);
  useEffect(
    () =>
      frameLoop.add(() => {
        const r = runRef.current;
        if (timeEl.current) timeEl.current.textContent = r && r.status !== 'ready' ? simTime(r.telemetry.simNs, 4) : '0 ns';
      }, 50),
    [],
  );

  const status = run?.status ?? 'ready';
  const experimentShown = run && run.status !== 'ready' ? run.reproducible() : built.experiment;
  useEffect(() => {
    let live = true;
    if (experimentShown) void shareUrl(labUrl(window.location.href), experimentShown).then((u) => live && setLabLink(u));
    return () => {
      live = false;
    };
  }, [experimentShown]);

  const start = useCallback(() => {
    if (!built.experiment) return;
    const speed = control && 'islandDivisor' in control ? (entry.speedNsPerS ?? Infinity) : Infinity;
    const r = new LiveRun(built.experiment, { coresPerWorker: 'auto', hostCpus: CPUS, host, registry: workloads, speedNsPerS: speed });
    setRun(r);
    setWin('recent');
    r.start(false);
  }, [built.experiment, control, entry.speedNsPerS]);
  const onRun = () => {
    if (run && run.status === 'running') run.pause();
    else if (run && run.status === 'paused') run.resume();
    else start();
  };
  const reset = () => {
    run?.dispose();
    setRun(null);
  };
  const active = run?.active ?? false;
  const finished = status === 'done' || status === 'stopped' || status === 'error';

  const controlField = (() => {
    if (!control) return null;
    if ('islandDivisor' in control) {
      if (!chip) return null;
      const island = control.islandDivisor;
      const tile = [...chip.islandOfTile].indexOf(island);
      const current = divisor ?? (tile >= 0 ? chip.tileDivisors[tile]! : chip.config.clocks.divisor);
      return (
        <label className="inline">
          Island {island} divisor{' '}
          <select
            value={current}
            onChange={(e) => {
              const d = Number(e.target.value);
              setDivisor(d);
              if (run && run.active) run.setIslandDivisor(island, d);
            }}
            disabled={finished}
            data-testid="embed-control"
          >
            {[...chip.vf.keys()]
              .sort((a, b) => a - b)
              .map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
          </select>
        </label>
      );
    }
    if (choices)
      return (
        <label className="inline">
          {control.param}{' '}
          <select
            value={choice}
            onChange={(e) => {
              setChoice(Number(e.target.value));
              reset();
            }}
            disabled={active}
            data-testid="embed-control"
          >
            {choices.map((v, i) => (
              <option key={i} value={i}>
                {String(v)}
              </option>
            ))}
          </select>
        </label>
      );
    const params = (entry.experiments[0]!.workload.params ?? {}) as Record<string, unknown>;
    return (
      <label className="inline">
        {control.param}{' '}
        <input
          value={typed ?? String(params[control.param] ?? '')}
          size={8}
          onChange={(e) => {
            setTyped(e.target.value);
            reset();
          }}
          disabled={active}
          data-testid="embed-control"
        />
      </label>
    );
  })();

  const results = run?.results ?? null;
  const rows = results?.workload.rows ?? [];
  const chart = results ? chartOf(results.workload.name) : null;
  const keyField = entry.chart?.y ?? chart?.y;

  return (
    <div className="embed" data-testid="embed" data-embed-id={entry.id}>
      <header className="embed-head">
        <h1 data-testid="embed-title">{entry.title}</h1>
        <a href={labLink} target="_blank" rel="noopener noreferrer" data-testid="embed-open-lab">
          Open in the full lab ↗
        </a>
      </header>
      <p className="embed-summary">{entry.summary}</p>
      {fallback ? <FallbackNotice compact /> : null}
      <div className="embed-controls">
        <button type="button" className="primary" onClick={onRun} disabled={!built.experiment && !active} data-testid="embed-run">
          {status === 'running' ? '❚❚ Pause' : status === 'paused' ? '▶ Resume' : finished ? '▶ Run again' : '▶ Run'}
        </button>
        {controlField}
        <span className={`status status-${status}`} role="status" data-testid="embed-status">
          {STATUS_TEXT[status] ?? status}
        </span>
        <span className="sub">
          chip clock <span ref={timeEl} data-testid="embed-sim-time">0 ns</span>
        </span>
      </div>
      {built.problem ? (
        <p className="field-error" role="alert" data-testid="embed-control-error">
          {built.problem}
        </p>
      ) : null}
      {run?.error ? (
        <div className="banner error" role="alert" data-testid="embed-run-error">
          The run failed: {run.error}
        </div>
      ) : null}
      {results ? (
        <p className="embed-result" data-testid="embed-result">
          {keyField && rows.length > 0 && rows[0]![keyField] !== undefined ? (
            <>
              {keyField} <strong data-testid="embed-result-value">{formatField(keyField, rows[0]![keyField])}</strong>
              {rows.length > 1 ? ` (first of ${rows.length} rows)` : ''} ·{' '}
            </>
          ) : null}
          workload finished at {simTime(results.simulated.endTimeNs, 5)} · digest <code data-testid="embed-digest">{results.digest}</code>
        </p>
      ) : null}
      {chip ? (
        <ChipView
          chip={chip}
          telemetry={run && run.status !== 'ready' ? run.telemetry : null}
          participants={participants}
          window={win}
          onWindow={setWin}
          selected={selected}
          onSelect={setSelected}
          runKey={run}
          metric={metric}
          onMetric={setMetric}
        />
      ) : null}
      {results && rows.length > 1 ? <RowsChart id="embed-rows" sets={[{ label: entry.title, rows }]} chart={chart} /> : null}
    </div>
  );
}
