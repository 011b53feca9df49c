/**
 * Manycore Lab: the page. Holds the experiment draft, the current run, the compare slots
 * and the share-link state; the views draw themselves from the frame loop.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { findWaitForCycles, parseExperiment, prepareRun, protocolBugOf, resolveChip, waitForEdges, type Experiment, type PreparedRun, type TimelineEvent } from '@manycore/engine';
import { guidedExperiments, workloads, type GuidedExperiment } from '@manycore/workloads';
import { browserHost } from '@manycore/workers/browser-host';
import { sharedMemoryAvailable } from '@manycore/workers/fallback-host';
import { LiveCharts, markersOf } from './components/Charts';
import { ChipView } from './components/ChipView';
import { Controls } from './components/Controls';
import { Counters } from './components/Counters';
import { Editor } from './components/Editor';
import { Inspector } from './components/Inspector';
import { PageMap } from './components/PageMap';
import { FALLBACK_WORKERS_REASON, FallbackNotice } from './components/FallbackNotice';
import { EmbedCode } from './components/EmbedCode';
import { checkDigest, LinkDigest } from './components/LinkDigest';
import { Glossary } from './components/Glossary';
import { Term } from './components/Term';
import { firstVisit, rememberTourClosed, Tour } from './components/Tour';
import { ResultsPanel } from './components/ResultsPanel';
import { VmViews } from './components/VmViews';
import { DsmViews } from './components/DsmViews';
import { WhatIf } from './components/WhatIf';
import { ScrubBar } from './components/ScrubBar';
import type { ForkRequest } from './components/ForkPanel';
import { WorkloadViews } from './views/WorkloadViews';
import { downloadText } from './lib/download';
import { decodeLink, shareUrl } from './lib/link';
import { draftOf, runBlockedReason, validateDraft, withOverridesProblem, type Draft } from './lib/params';
import { AppearanceControls } from './lib/theme-controls';
import { isTypingTarget } from './lib/theme-keyboard';
import { Compare, type Slot } from './pages/Compare';
import { Gallery } from './pages/Gallery';
import { frameLoop } from './sim/frame-loop';
import { parsePacing } from './sim/frame-pacer';
import { LiveRun, mergeTimeline } from './sim/live-run';
import type { Window } from './sim/telemetry';
import { describeLayout, hostCpus, MANY_WORKERS, parseCoresPerWorker, workerLayout, type CoresPerWorker } from './lib/workers';

const REGISTRY = workloads;
const host = () => browserHost();
export const DEFAULT_EXPERIMENT: Experiment = parseExperiment(guidedExperiments[0]!.experiments[0]!);

type Tab = 'lab' | 'compare' | 'gallery';

/** `?cpw=<n>` or `?cpw=auto`; default 'auto' (one worker per core while the host has a CPU for each). */
function initialCoresPerWorker(): CoresPerWorker {
  return parseCoresPerWorker(new URLSearchParams(window.location.search).get('cpw'));
}
const CPUS = hostCpus();

/** localStorage, or null where the page may not use it (sandboxed embeds, blocked storage). */
function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Frame pacing of runs (sim/frame-pacer.ts); `?pace=off` or `?pace=<lead ms>,<max share>` for measuring. */
const PACING = parsePacing(new URLSearchParams(window.location.search).get('pace'));
/** Snapshot memory of the timeline (ScrubBar), `?recmb=<MB>` (default: the recorder's 256 MB). */
const REC_BUDGET = ((mb) => (mb > 0 ? mb * 2 ** 20 : undefined))(Number(new URLSearchParams(window.location.search).get('recmb')));

function Fps() {
  const el = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let shown = -1;
    return frameLoop.add(() => {
      if (frameLoop.fps !== shown && el.current) {
        shown = frameLoop.fps;
        el.current.textContent = `${shown} fps`;
      }
    }, 99);
  }, []);
  return <span className="fps" ref={el} data-testid="fps" title="Frames per second of the page" />;
}

export function App() {
  // without SharedArrayBuffer (a page that is not cross-origin isolated) the lab runs in the fallback: one worker, same results
  const fallback = !sharedMemoryAvailable();
  const [tab, setTab] = useState<Tab>('lab');
  const [draft, setDraft] = useState<Draft>(() => draftOf(DEFAULT_EXPERIMENT));
  // overrides JSON that does not parse blocks Run (the draft still holds the last good overrides)
  const [overridesProblem, setOverridesProblem] = useState<string | null>(null);
  const validation = useMemo(() => withOverridesProblem(validateDraft(draft, REGISTRY), overridesProblem), [draft, overridesProblem]);
  const [run, setRun] = useState<LiveRun | null>(null);
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const [cpw, setCpw] = useState<CoresPerWorker>(initialCoresPerWorker);
  const [speed, setSpeed] = useState(Infinity);
  const [metric, setMetric] = useState(guidedExperiments[0]!.metric ?? 'utilization');
  const [win, setWin] = useState<Window>('recent');
  const [selected, setSelected] = useState<number | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // the first-visit tour (step index, null when closed) and the glossary panel
  const [tourStep, setTourStep] = useState<number | null>(() => (firstVisit(safeStorage()) ? 0 : null));
  const [glossaryOpen, setGlossaryOpen] = useState(false);
  // the guided entry last loaded from the gallery (its embed code is offered beside the link)
  const [guided, setGuided] = useState<GuidedExperiment | null>(null);
  const closeTour = () => {
    setTourStep(null);
    rememberTourClosed(safeStorage());
  };
  const [shared, setShared] = useState<{ url: string; copied: boolean } | null>(null);
  // the digest a loaded link says its run produced, with the experiment it belongs to (JSON)
  const [linkDigest, setLinkDigest] = useState<{ digest: string; json: string } | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [slotA, setSlotA] = useState<Slot>(() => ({ draft: draftOf(DEFAULT_EXPERIMENT), results: null, wallMs: 0 }));
  const [slotB, setSlotB] = useState<Slot>(() => ({ draft: draftOf(DEFAULT_EXPERIMENT), results: null, wallMs: 0 }));
  // a fork made on the timeline: A the original, B the fork; Compare marks the time and runs both
  const [fork, setFork] = useState<(ForkRequest & { token: number }) | null>(null);
  const onFork = useCallback((f: ForkRequest) => {
    const r = runRef.current;
    const finished = r && (r.status === 'done' || r.status === 'stopped') && r.results && JSON.stringify(r.reproducible()) === JSON.stringify(f.original);
    setSlotA({ draft: draftOf(f.original), results: finished ? r.results : null, wallMs: finished ? r.wallMs : 0 });
    setSlotB({ draft: draftOf(f.fork), results: null, wallMs: 0 });
    setFork((old) => ({ ...f, token: (old?.token ?? 0) + 1 }));
    setTab('compare');
  }, []);
  const lastPrepared = useRef<PreparedRun | null>(null);

  useEffect(() => (run ? run.subscribe(rerender) : undefined), [run]);
  const runRef = useRef<LiveRun | null>(null);
  runRef.current = run;
  // telemetry is read once per frame, before any view draws
  useEffect(
    () =>
      frameLoop.add((now) => {
        const r = runRef.current;
        if (r && r.status !== 'ready') r.telemetry.update(now);
      }, 0),
    [],
  );
  // for benchmarks and tests: the run's exact simulated time and the pacer's numbers (readable
  // while no frame is drawn, e.g. in a hidden page)
  useEffect(() => {
    const m = (window.__manycore ??= { fps: 0, frames: 0, longFrames: 0, workMs: 0 });
    m.run = run
      ? {
          get status() {
            return run.status;
          },
          get simNs() {
            return run.progress().simTimePs / 1000;
          },
          get epoch() {
            return run.progress().epoch;
          },
          get pacing() {
            return run.pacingStats();
          },
        }
      : undefined;
  }, [run]);
  const status = run?.status ?? 'ready';

  // the chip shown: the run's, else the draft's (the last valid one while the draft is invalid)
  const prepared = useMemo(() => {
    if (run) return run.sim.run;
    if (!validation.experiment) return lastPrepared.current;
    try {
      return prepareRun(validation.experiment, REGISTRY);
    } catch {
      return lastPrepared.current;
    }
  }, [run, validation.experiment]);
  lastPrepared.current = prepared;
  // while the experiment is invalid (e.g. a workload of another chip family) the chip view still
  // shows the draft's chip when it resolves on its own, with no core in the workload
  const draftChip = useMemo(() => {
    try {
      return resolveChip(draft.chip.preset, draft.chip.overrides);
    } catch {
      return null;
    }
  }, [draft.chip]);
  const chipFromDraft = !run && !validation.experiment && draftChip !== null;
  const participants = useMemo(() => new Set(chipFromDraft ? [] : (prepared?.settings.participants ?? [])), [prepared, chipFromDraft]);

  // links: on load and when the hash changes
  useEffect(() => {
    const load = async () => {
      const r = await decodeLink(window.location.hash, REGISTRY);
      if (!r) return;
      if (r.ok) {
        setDraft(draftOf(r.experiment));
        setGuided(null);
        setLinkError(null);
        setLinkDigest(r.digest ? { digest: r.digest, json: JSON.stringify(r.experiment) } : null);
        setNotice(
          r.digest
            ? `Loaded the experiment from the link. Press Run to reproduce it: its run gave digest ${r.digest}.`
            : 'Loaded the experiment from the link. Press Run to reproduce it.',
        );
        setRun((old) => {
          old?.dispose();
          return null;
        });
        setTab('lab');
      } else {
        setLinkError(r.problem);
        setNotice(null);
      }
    };
    void load();
    const onHash = () => void load();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // a finished run writes its applied changes into the experiment's timeline
  useEffect(() => {
    if (!run) return;
    if (status === 'done' || status === 'stopped') {
      const tl = run.reproducible().timeline;
      setDraft((d) => (JSON.stringify(d.timeline) === JSON.stringify(tl) ? d : { ...d, timeline: tl }));
      setWin('run');
    }
  }, [run, status]);

  const startRun = useCallback(
    (paused: boolean, exp: Experiment | null, speedNsPerS: number = speed) => {
      if (!exp) return;
      setRunError(null);
      setShared(null);
      let r: LiveRun;
      try {
        r = new LiveRun(exp, { coresPerWorker: cpw, hostCpus: CPUS, host, registry: REGISTRY, speedNsPerS, pacing: PACING });
      } catch (err) {
        setRunError(err instanceof Error ? err.message : String(err));
        return;
      }
      setRun((old) => {
        old?.dispose();
        return r;
      });
      setWin('recent');
      r.start(paused);
    },
    [cpw, speed],
  );

  const onRun = useCallback(() => {
    if (run && run.status === 'paused') run.resume();
    else if (run && run.status === 'running') run.pause();
    else startRun(false, validation.experiment);
  }, [run, startRun, validation.experiment]);
  const onPause = useCallback(() => run?.pause(), [run]);
  const onStep = useCallback(() => {
    if (run && run.active) run.step();
    else startRun(true, validation.experiment);
  }, [run, startRun, validation.experiment]);
  const onReset = useCallback(() => {
    if (run) {
      const tl = run.reproducible().timeline;
      setDraft((d) => ({ ...d, timeline: mergeTimeline(d.timeline, tl) }));
      run.dispose();
    }
    setRun(null);
    setRunError(null);
  }, [run]);
  const onSpeed = (s: number) => {
    setSpeed(s);
    run?.setSpeed(s);
  };

  // keyboard: Space run/pause, S step wherever focus is except in text fields (isTypingTarget);
  // capture phase and preventDefault, so a focused button is not pressed as well (Space on a
  // button clicks it on keyup, which preventDefault on keydown cancels); Enter still presses buttons
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (tab !== 'lab' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (e.key !== ' ' && e.key !== 's' && e.key !== 'S') return;
      if (isTypingTarget(e.target)) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.repeat) return;
      if (e.key === ' ') onRun();
      else onStep();
    };
    // the keyup of Space activates a focused button (or checkbox, summary) too: swallow it
    const onKeyUp = (e: KeyboardEvent) => {
      if (tab !== 'lab' || e.key !== ' ' || isTypingTarget(e.target)) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [tab, onRun, onStep]);

  const shareable: Experiment | null = run && run.status !== 'ready' ? run.reproducible() : validation.experiment;
  // protocol bugs: the badge (the switch of the running experiment, else of the editor's, and what
  // it should break), and a deadlock's wait-for cycles read from the failed run's scheduler fields
  // (engine wait-for.ts)
  const protocolBug = protocolBugOf(run?.active ? shareable : validation.experiment, REGISTRY);
  const waitFor = run?.status === 'error' && run.error?.startsWith('deadlock') ? findWaitForCycles(waitForEdges(run.sim.views, run.sim.run.settings.participants)) : null;
  const copyLink = async () => {
    if (!shareable) return;
    // a finished run's link carries its digest: the experiment is exactly the run's
    const digest = run && run.status === 'done' && run.results ? run.results.digest : undefined;
    const url = await shareUrl(window.location.href, shareable, digest);
    window.history.replaceState(null, '', url);
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false;
    }
    setShared({ url, copied });
  };

  const loadGuided = (g: GuidedExperiment, runIt: boolean) => {
    const exp = parseExperiment(g.experiments[0]!);
    setGuided(g);
    // entries that ask for an action during the run start slow enough to do it
    const entrySpeed = g.speedNsPerS ?? Infinity;
    setSpeed(entrySpeed);
    setDraft(draftOf(exp));
    setMetric(g.metric ?? 'utilization');
    setSelected(null);
    setNotice(`Loaded “${g.title}”. ${g.whatToLookFor[0] ?? ''}${g.speedNsPerS !== undefined ? ' The speed is set slow so there is time to act while it runs (change it next to Run).' : ''}`);
    setRun((old) => {
      old?.dispose();
      return null;
    });
    setTab('lab');
    if (runIt) startRun(false, exp, entrySpeed);
  };

  const toSlot = (): Slot => {
    const d = shareable ? draftOf(shareable) : draft;
    const same = run?.results && shareable && JSON.stringify(run.reproducible()) === JSON.stringify(shareable);
    return { draft: d, results: same ? run!.results : null, wallMs: same ? run!.wallMs : 0 };
  };

  // the link's digest claim holds for its experiment unchanged: the draft before a run, the run's
  // starting experiment during one (a what-if applied mid-run makes the digest not comparable)
  const digestCheck = (() => {
    if (!linkDigest) return null;
    if (run && run.status !== 'ready') {
      if (JSON.stringify(run.experiment) !== linkDigest.json) return null;
      const finished = run.status === 'done' && run.results ? run.results.digest : null;
      return checkDigest(linkDigest.digest, { digest: finished, sameExperiment: JSON.stringify(run.reproducible()) === linkDigest.json });
    }
    return validation.experiment && JSON.stringify(validation.experiment) === linkDigest.json ? checkDigest(linkDigest.digest, { digest: null, sameExperiment: true }) : null;
  })();

  const timeline: TimelineEvent[] = run && run.status !== 'ready' ? run.reproducible().timeline : draft.timeline;
  const chip = chipFromDraft ? draftChip : (prepared?.chip ?? null);

  return (
    <div className="app">
      <header className="top">
        <div className="brand">
          <h1>Manycore Lab</h1>
          <span className="tagline">{chip ? `${chip.config.name}: ${chip.topo.cores} cores on a ${chip.topo.width}×${chip.topo.height} mesh` : 'simulated manycore chips'}</span>
        </div>
        <nav aria-label="Views" className="tabs">
          {(
            [
              ['lab', 'Lab'],
              ['compare', 'Compare A/B'],
              ['gallery', 'Guided experiments'],
            ] as const
          ).map(([id, label]) => (
            <button key={id} type="button" className={tab === id ? 'tab active' : 'tab'} aria-current={tab === id ? 'page' : undefined} onClick={() => setTab(id)} data-testid={`tab-${id}`}>
              {label}
            </button>
          ))}
        </nav>
        <div className="help-buttons">
          <button
            type="button"
            className="small"
            onClick={() => {
              setTab('lab');
              setTourStep(0);
            }}
            data-testid="tour-open"
          >
            Tour
          </button>
          <button type="button" className="small" aria-expanded={glossaryOpen} onClick={() => setGlossaryOpen((o) => !o)} data-testid="glossary-open">
            Glossary
          </button>
        </div>
        <AppearanceControls />
        <Fps />
      </header>

      {linkError ? (
        <div className="banner error" role="alert" data-testid="link-error">
          <strong>This link could not be opened.</strong> <span data-testid="link-error-text">{linkError}</span> The lab continues with the default experiment.
          <button type="button" className="small" onClick={() => setLinkError(null)} aria-label="Dismiss">
            Dismiss
          </button>
        </div>
      ) : null}
      {glossaryOpen ? <Glossary onClose={() => setGlossaryOpen(false)} /> : null}
      {notice ? (
        <div className="banner info" role="status" data-testid="link-notice">
          {notice}
          <button type="button" className="small" onClick={() => setNotice(null)} aria-label="Dismiss">
            Dismiss
          </button>
        </div>
      ) : null}

      {fallback ? <FallbackNotice /> : null}
      {tab === 'gallery' ? (
        <Gallery registry={REGISTRY} onLoad={loadGuided} />
      ) : tab === 'compare' ? (
        <Compare a={slotA} b={slotB} onA={setSlotA} onB={setSlotB} registry={REGISTRY} coresPerWorker={cpw} onCoresPerWorker={setCpw} hostCpus={CPUS} host={host} fork={fork} />
      ) : (
        <div className="lab">
          <aside className="sidebar">
            <Editor
              draft={draft}
              validation={validation}
              registry={REGISTRY}
              disabled={!!run?.active}
              onChange={(d) => {
                setDraft(d);
                setShared(null);
              }}
              coresPerWorker={cpw}
              onCoresPerWorker={setCpw}
              cores={chip?.topo.cores}
              hostCpus={CPUS}
              onOverridesProblem={setOverridesProblem}
              workersFixed={fallback ? FALLBACK_WORKERS_REASON : undefined}
            />
          </aside>
          <main className="main">
            {tourStep !== null ? <Tour step={tourStep} onStep={setTourStep} onClose={closeTour} /> : null}
            <Controls run={run} status={status} canRun={!!validation.experiment} disabledReason={runBlockedReason(validation)} speed={speed} onSpeed={onSpeed} onRun={onRun} onPause={onPause} onStep={onStep} onReset={onReset} />
            {chip && fallback ? (
              <p className="worker-layout" data-testid="worker-layout">
                <span data-testid="worker-layout-text">Web Workers: 1 × {chip.topo.cores} cores (fallback mode: this page has no SharedArrayBuffer)</span>
              </p>
            ) : chip ? (
              <p className="worker-layout" data-testid="worker-layout">
                <span data-testid="worker-layout-text">
                  Web Workers:{' '}
                  {run && run.status !== 'ready'
                    ? `${run.sim.workers} × ${run.sim.coresPerWorker} core${run.sim.coresPerWorker === 1 ? '' : 's'} (this run)`
                    : describeLayout(cpw, chip.topo.cores, CPUS)}
                </span>{' '}
                {!run && workerLayout(cpw, chip.topo.cores, CPUS).workers > MANY_WORKERS ? (
                  <span className="warn-text" data-testid="worker-warning">
                    (more than {MANY_WORKERS} worker threads: a browser may fail to start them all; auto packs cores)
                  </span>
                ) : null}{' '}
                {cpw !== 1 ? (
                  <button type="button" className="small link" onClick={() => setCpw(1)} data-testid="one-worker-per-core" title="Run each simulated core in a Web Worker of its own (from the next run)">
                    one worker per core
                  </button>
                ) : (
                  <button type="button" className="small link" onClick={() => setCpw('auto')} data-testid="auto-workers" title="Fit the number of workers to this host's CPUs (from the next run)">
                    fit to {CPUS} CPU{CPUS === 1 ? '' : 's'}
                  </button>
                )}
              </p>
            ) : null}
            {protocolBug ? (
              <p className="protocol-bug" role="note" data-testid="protocol-bug" data-bug={protocolBug.bug}>
                <strong>Protocol bug on</strong> ({protocolBug.workload}, bug={protocolBug.bug}): {protocolBug.expect}
              </p>
            ) : null}
            <Counters run={run} />
            {runError || run?.error ? (
              <div className="banner error" role="alert" data-testid="run-error">
                The run failed: {runError ?? run?.error}
              </div>
            ) : null}
            <div className="share">
              <button type="button" onClick={() => void copyLink()} disabled={!shareable} data-testid="copy-link">
                Copy link
              </button>
              <button type="button" onClick={() => setSlotA(toSlot())} data-testid="use-as-a" title="Put this experiment (and its results, if finished) into Compare slot A">
                Compare as A
              </button>
              <button type="button" onClick={() => setSlotB(toSlot())} data-testid="use-as-b" title="Put this experiment into Compare slot B">
                Compare as B
              </button>
              <button
                type="button"
                disabled={!shareable}
                onClick={() => shareable && downloadText('experiment.json', JSON.stringify(shareable, null, 2) + '\n', 'application/json')}
                data-testid="export-experiment"
              >
                Experiment JSON
              </button>
              {shared ? (
                <label className="share-url">
                  <span>{shared.copied ? 'Copied:' : 'Copy this link:'}</span>
                  <input readOnly value={shared.url} onFocus={(e) => e.currentTarget.select()} data-testid="share-url" />
                </label>
              ) : null}
              {guided ? <EmbedCode entry={guided} /> : null}
            </div>
            {chip ? (
              <div className={selected !== null ? 'chip-row with-inspector' : 'chip-row'}>
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
                  waitFor={waitFor}
                />
                {selected !== null && selected < chip.topo.cores ? (
                  <Inspector core={selected} chip={chip} telemetry={run && run.status !== 'ready' ? run.telemetry : null} runs={participants.has(selected)} onClose={() => setSelected(null)} />
                ) : null}
              </div>
            ) : null}
            {run && run.sim.views.layout.pagesPerCore > 0 ? <PageMap run={run} /> : null}
            {chip ? <WhatIf chip={chip} run={run} timeline={timeline} editable={!run?.active} onTimeline={(tl) => setDraft((d) => ({ ...d, timeline: tl }))} /> : null}
            {linkDigest && digestCheck ? <LinkDigest expected={linkDigest.digest} check={digestCheck} /> : null}
            {run?.results ? <ResultsPanel results={run.results} wallMs={run.wallMs} /> : null}
            {run?.results ? <VmViews results={run.results} chip={run.sim.run.chip} /> : null}
            {run?.results && (run.results.workload as Record<string, unknown>).dsm ? <DsmViews results={run.results} /> : null}
            {prepared && shareable ? <WorkloadViews experiment={shareable} prepared={prepared} run={run} results={run?.results ?? null} /> : null}
            {chip ? <LiveCharts telemetry={run && run.status !== 'ready' ? run.telemetry : null} chip={chip} participants={participants} markers={() => markersOf(timeline)} runKey={run} /> : null}
            {run && run.status !== 'ready' ? <ScrubBar run={run} host={host} registry={REGISTRY} coresPerWorker={cpw} hostCpus={CPUS} budgetBytes={REC_BUDGET} onFork={onFork} /> : null}
            <details className="card">
              <summary>Experiment JSON: run it from the command line too</summary>
              <p className="sub">
                Save as experiment.json and run <code>npx manycore run --experiment experiment.json</code> in the lab&apos;s repository: the <Term id="digest" /> matches the lab&apos;s.
              </p>
              <pre data-testid="experiment-json">{shareable ? JSON.stringify(shareable, null, 2) : 'fix the problems in the editor first'}</pre>
            </details>
          </main>
        </div>
      )}
      <footer className="foot">
        Manycore Lab simulates the chip in this browser tab (
        {fallback ? 'one Web Worker for every core: fallback mode' : cpw === 1 ? 'one Web Worker per simulated core' : cpw === 'auto' ? `Web Workers fitted to ${CPUS} CPU${CPUS === 1 ? '' : 's'}` : `one Web Worker per ${cpw} simulated cores`}); nothing is sent anywhere.
      </footer>
    </div>
  );
}
