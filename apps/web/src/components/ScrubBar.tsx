/**
 * The run's timeline: scrub and step back in simulated time.
 *
 * Contract. The track's positions are the run's epoch boundaries (the engine's epoch log,
 * CTL.epochLogCount). Choosing one shows the chip as it was at that boundary in every view
 * (chip view, charts, counters, inspector, MPB view): LiveRun.setScrubbed swaps in a Telemetry
 * over a scratch copy of the recorder's snapshot (sim/recorder.ts). A boundary without a
 * snapshot is replayed from the start, headless, stopped exactly there (sim/replay.ts), then
 * cached as a snapshot; "replaying to 4.000 µs…" shows meanwhile. Snapshots are taken where the
 * run is held at a boundary, and in the fallback mode (no SharedArrayBuffer) after every
 * slice's copy into the mirror, which always ends on a boundary (Recorder.captureAtBoundary).
 * Scrubbing pauses a running run (the user's pause: the views show the past, the run does not go on behind them); "Live"
 * returns to the run's own state and resumes it if scrubbing paused it; pressing Run does too.
 * Keys (outside text fields): [ and ] (or Shift+← / Shift+→) step one epoch back / forward,
 * L goes live. From a scrubbed time the fork panel (ForkPanel.tsx) forks the run there.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CTL, CTLF, EPOCH_LOG_CAP, type HostAdapter, type WorkloadRegistry } from '@manycore/engine';
import { isTypingTarget } from '../lib/theme-keyboard';
import { frameLoop } from '../sim/frame-loop';
import type { LiveRun } from '../sim/live-run';
import { Recorder, scratchViews } from '../sim/recorder';
import { replayTo } from '../sim/replay';
import { Telemetry } from '../sim/telemetry';
import { ForkPanel, type ForkRequest } from './ForkPanel';

export interface ScrubBarProps {
  run: LiveRun;
  host: () => HostAdapter;
  registry: WorkloadRegistry;
  coresPerWorker: number | 'auto';
  hostCpus: number;
  /** Snapshot memory budget, bytes (default: the recorder's 256 MB). */
  budgetBytes?: number;
  onFork(f: ForkRequest): void;
}

/** Simulated time of a boundary for the timeline: µs with 3 decimals (whole ps kept in data-time-ps). */
export function scrubTimeLabel(ps: number): string {
  return `${(ps / 1e6).toFixed(3)} µs`;
}

type Shown =
  | { state: 'live' }
  | { state: 'snapshot' | 'replayed'; epoch: number; timePs: number }
  | { state: 'replaying'; epoch: number; timePs: number }
  | { state: 'error'; epoch: number; timePs: number; message: string };

/** Epochs committed and stored in the run's epoch log. */
function logged(run: LiveRun): number {
  return Math.min(Atomics.load(run.sim.views.ctl, CTL.epochLogCount), EPOCH_LOG_CAP);
}
/** The first epoch (1-based) whose end is the same time as epoch e's (zero-length epochs repeat a time). */
function canonical(log: Float64Array, e: number): number {
  while (e > 1 && log[e - 2] === log[e - 1]) e--;
  return e;
}

const runIds = new WeakMap<LiveRun, number>();
let nextRunId = 0;

/** The timeline of `run` (a fresh one for every run: its scrub state belongs to that run). */
export function ScrubBar(props: ScrubBarProps) {
  let id = runIds.get(props.run);
  if (id === undefined) runIds.set(props.run, (id = ++nextRunId));
  return <RunTimeline key={id} {...props} />;
}

function RunTimeline(props: ScrubBarProps) {
  const { run } = props;
  const rec = useMemo(() => new Recorder(run.sim.views, props.budgetBytes === undefined ? {} : { budgetBytes: props.budgetBytes }), [run, props.budgetBytes]);
  const scratch = useMemo(() => scratchViews(run.sim.views), [run]);
  const [shown, setShown] = useState<Shown>({ state: 'live' });
  const [notice, setNotice] = useState<string | null>(null);
  const trackRef = useRef<HTMLInputElement>(null);
  const countRef = useRef<HTMLSpanElement>(null);
  const pausedByScrub = useRef(false);
  const want = useRef<number | null>(null); // the epoch the user asked for last
  const replaying = useRef(false);
  const scrubVersion = useRef(1_000_000_000);
  const latest = useRef(props);
  latest.current = props;

  // capture at every hold the run is released from, and at frames that find it held; in the
  // fallback (no holds: one worker runs in slices) after each slice's copy into the mirror
  useEffect(() => {
    const offRelease = run.onBeforeRelease(() => rec.capture());
    const offSlice = run.onSliceApplied(() => rec.captureAtBoundary());
    const offFrame = frameLoop.add(() => {
      rec.capture();
    }, -20);
    return () => {
      offRelease();
      offSlice();
      offFrame();
    };
  }, [run, rec]);

  // the track's extent, the snapshot count and the notice, a few times a second (no allocation per frame)
  useEffect(() => {
    let at = -Infinity;
    let shownMax = -1;
    let shownCount = -1;
    let shownNotice: string | null = null;
    return frameLoop.add((now) => {
      if (now - at < 250) return;
      at = now;
      const n = logged(run);
      const el = trackRef.current;
      if (el && n !== shownMax) {
        shownMax = n;
        el.max = String(Math.max(1, n));
        if (want.current === null) el.value = String(n);
      }
      if (countRef.current && rec.count !== shownCount) {
        shownCount = rec.count;
        countRef.current.textContent = `${rec.count} snapshot${rec.count === 1 ? '' : 's'}, ${(rec.usedBytes / 2 ** 20).toFixed(1)} MB (${(rec.bytesPerSnapshot / 1024).toFixed(0)} KB each)`;
      }
      const nt = rec.notice();
      if (nt !== shownNotice) {
        shownNotice = nt;
        setNotice(nt);
      }
    }, 50);
  }, [run, rec]);

  const show = useCallback(
    (epoch: number, state: 'snapshot' | 'replayed') => {
      if (!rec.restore(epoch, scratch)) return false;
      const t = new Telemetry(run.sim.run, scratch);
      t.update(performance.now());
      t.version = ++scrubVersion.current; // never a version the views drew from another telemetry
      run.setScrubbed(t);
      setShown({ state, epoch, timePs: rec.at(epoch)!.timePs });
      return true;
    },
    [rec, run, scratch],
  );

  /** Replays to the epoch the user wants (one replay at a time; the latest wish wins). */
  const replayNext = useCallback(async () => {
    if (replaying.current) return;
    replaying.current = true;
    try {
      for (;;) {
        const epoch = want.current;
        if (epoch === null || rec.at(epoch)) break;
        const timePs = run.sim.views.epochLog[epoch - 1]!;
        setShown({ state: 'replaying', epoch, timePs });
        const p = latest.current;
        try {
          const r = await replayTo(run.reproducible(), timePs, { host: p.host, registry: p.registry, coresPerWorker: p.coresPerWorker, hostCpus: p.hostCpus });
          const reached = Atomics.load(r.sim.views.ctl, CTL.epoch);
          if (reached !== epoch) {
            r.dispose();
            throw new Error(`the replay stopped at epoch ${reached}, not ${epoch}: the run is not reproducible from its experiment`);
          }
          rec.store(r.sim.views, epoch, timePs);
          r.dispose();
        } catch (err) {
          if (want.current === epoch) setShown({ state: 'error', epoch, timePs, message: err instanceof Error ? err.message : String(err) });
          break;
        }
        if (want.current === epoch) {
          show(epoch, 'replayed');
          break;
        }
      }
    } finally {
      replaying.current = false;
    }
    // the user moved on while the replay ran
    const w = want.current;
    if (w !== null && !rec.at(w) && !replaying.current) void replayNext();
    else if (w !== null && rec.at(w)) show(w, rec.at(w)!.source === 'live' ? 'snapshot' : 'replayed');
  }, [rec, run, show]);

  const goTo = useCallback(
    (requested: number) => {
      const n = logged(run);
      if (n === 0) return;
      if (run.status === 'running') {
        run.pause();
        pausedByScrub.current = true;
      }
      const log = run.sim.views.epochLog;
      const epoch = canonical(log, Math.min(Math.max(1, Math.round(requested)), n));
      want.current = epoch;
      if (trackRef.current) trackRef.current.value = String(epoch);
      // the run held at exactly this boundary right now: take it
      rec.capture();
      const s = rec.at(epoch);
      if (s) show(epoch, s.source === 'live' ? 'snapshot' : 'replayed');
      else void replayNext();
    },
    [rec, run, show, replayNext],
  );

  const goLive = useCallback(() => {
    want.current = null;
    run.setScrubbed(null);
    setShown({ state: 'live' });
    if (trackRef.current) trackRef.current.value = String(logged(run));
    if (pausedByScrub.current && run.status === 'paused') run.resume();
    pausedByScrub.current = false;
  }, [run]);

  /** One epoch back (-1) or forward (+1) from the shown one (from live: the last boundary). */
  const step = useCallback(
    (dir: -1 | 1) => {
      const n = logged(run);
      const log = run.sim.views.epochLog;
      const cur = want.current ?? n + (dir < 0 ? 1 : 0);
      if (dir < 0) goTo(Math.max(1, cur - 1));
      else {
        let e = cur + 1;
        while (e <= n && log[e - 1] === log[cur - 1]) e++;
        if (e > n) goLive();
        else goTo(e);
      }
    },
    [run, goTo, goLive],
  );

  // the user's Run while scrubbed returns to live
  useEffect(
    () =>
      run.subscribe(() => {
        if (run.status === 'running' && want.current !== null) {
          pausedByScrub.current = false;
          goLive();
        }
      }),
    [run, goLive],
  );
  // leaving the run (a new run, reset) drops the scrub
  useEffect(() => () => run.setScrubbed(null), [run]);

  // keys: [ ] and Shift+arrows step, L goes live
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || isTypingTarget(e.target)) return;
      const back = e.key === '[' || (e.shiftKey && e.key === 'ArrowLeft');
      const fwd = e.key === ']' || (e.shiftKey && e.key === 'ArrowRight');
      const live = e.key === 'l' || e.key === 'L';
      if (!back && !fwd && !live) return;
      // a focused track moves with its own arrow keys
      if (e.target === trackRef.current && e.key.startsWith('Arrow')) return;
      e.preventDefault();
      if (back) step(-1);
      else if (fwd) step(1);
      else goLive();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step, goLive]);

  const scrubbed = shown.state !== 'live';
  const timePs = scrubbed ? shown.timePs : run.sim.views.ctlF[CTLF.simTimePs]!;
  const label =
    shown.state === 'live'
      ? `live${run.active ? '' : ' (end of the run)'}`
      : shown.state === 'replaying'
        ? `replaying to ${scrubTimeLabel(shown.timePs)}…`
        : shown.state === 'error'
          ? `${scrubTimeLabel(shown.timePs)}: ${shown.message}`
          : `${scrubTimeLabel(shown.timePs)}, epoch ${shown.epoch} (${shown.state === 'snapshot' ? 'recorded snapshot' : 'replayed from the start'})`;
  return (
    <section className="card scrub" data-testid="scrub" aria-label="Timeline of the run">
      <header className="card-head">
        <div>
          <h3>Timeline: scrub back in simulated time</h3>
          <p className="sub">
            Drag to an epoch boundary: every view shows the chip as it was then (a recorded snapshot, or an exact replay from the start). Scrubbing pauses the run; Live or Run
            returns to it. Keys: <kbd>[</kbd> / <kbd>]</kbd> or <kbd>Shift</kbd>+<kbd>←</kbd> / <kbd>→</kbd> one epoch back / forward, <kbd>L</kbd> live.
          </p>
        </div>
      </header>
      <div className="scrub-row">
        <button type="button" className="small" onClick={() => step(-1)} data-testid="scrub-back" aria-keyshortcuts="[ Shift+ArrowLeft" title="One epoch back (key [)">
          ◀ epoch
        </button>
        <input
          ref={trackRef}
          type="range"
          className="scrub-track"
          min={1}
          max={Math.max(1, logged(run))}
          step={1}
          defaultValue={Math.max(1, logged(run))}
          aria-label="Epoch boundary shown"
          aria-valuetext={label}
          onChange={(e) => goTo(Number(e.currentTarget.value))}
          data-testid="scrub-track"
        />
        <button type="button" className="small" onClick={() => step(1)} data-testid="scrub-forward" aria-keyshortcuts="] Shift+ArrowRight" title="One epoch forward (key ])">
          epoch ▶
        </button>
        <button type="button" className={scrubbed ? 'small primary' : 'small'} onClick={goLive} disabled={!scrubbed} data-testid="scrub-live" aria-keyshortcuts="L" title="Follow the run again (key L)">
          Live
        </button>
      </div>
      <p className="scrub-status">
        <span
          data-testid="scrub-time"
          data-state={shown.state}
          data-time-ps={String(timePs)}
          data-epoch={scrubbed ? String(shown.epoch) : ''}
          role="status"
          className={shown.state === 'error' ? 'error' : undefined}
        >
          {label}
        </span>{' '}
        <span className="sub" ref={countRef} data-testid="scrub-snapshots" />
      </p>
      {notice ? (
        <p className="banner info recording-notice" role="status" data-testid="recording-notice">
          {notice}
        </p>
      ) : null}
      {scrubbed && shown.state !== 'replaying' ? <ForkPanel chip={run.sim.run.chip} original={run.reproducible()} atPs={shown.timePs} onFork={props.onFork} /> : null}
    </section>
  );
}
