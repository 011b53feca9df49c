/**
 * Run controls and progress. Buttons re-render on status changes only; the progress bar,
 * simulated time and rate are written from the frame loop (the numbers at most TEXT_HZ times
 * a second while a run goes: nobody reads faster, and every text change costs the page a
 * layout and a paint).
 */
import { useEffect, useRef } from 'react';
import { CTL, CTLF } from '@manycore/engine';
import { simRate, simTime } from '../lib/format';
import { frameLoop } from '../sim/frame-loop';
import type { LiveRun, RunStatus } from '../sim/live-run';
import { PauseClock, QUANTITIES, runningWallMs } from '../sim/telemetry-quantities';
import { Term } from './Term';

/** Writes `text` unless the element shows it already (a rewrite would cost a layout). */
export function setText(el: HTMLElement | null, text: string): void {
  if (el && el.textContent !== text) el.textContent = text;
}

/** How often running numbers are rewritten. */
export const TEXT_HZ = 12;

export const SPEEDS: { label: string; nsPerS: number }[] = [
  { label: 'as fast as possible', nsPerS: Infinity },
  { label: '1 ms simulated per second', nsPerS: 1e6 },
  { label: '100 µs per second', nsPerS: 1e5 },
  { label: '10 µs per second', nsPerS: 1e4 },
  { label: '1 µs per second', nsPerS: 1e3 },
];

export interface ControlsProps {
  run: LiveRun | null;
  status: RunStatus;
  canRun: boolean;
  /** Why the experiment cannot run (shown beside Run while it is disabled). */
  disabledReason?: string | null;
  speed: number;
  onSpeed(nsPerS: number): void;
  onRun(): void;
  onPause(): void;
  onStep(): void;
  onReset(): void;
}

const STATUS_TEXT: Record<RunStatus, string> = {
  ready: 'ready',
  running: 'running',
  paused: 'paused',
  done: 'finished',
  stopped: 'stopped',
  error: 'failed',
};

export function Controls(props: ControlsProps) {
  const bar = useRef<HTMLDivElement>(null);
  const time = useRef<HTMLSpanElement>(null);
  const rate = useRef<HTMLSpanElement>(null);
  const epoch = useRef<HTMLSpanElement>(null);
  const cores = useRef<HTMLSpanElement>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    let last = -Infinity;
    // wall time paused by the user does not count in "simulated per wall second"
    const pauses = new PauseClock();
    let pausesOf: LiveRun | null = null;
    return frameLoop.add((now) => {
      const run = latest.current.run;
      if (run !== pausesOf) {
        pauses.reset();
        pausesOf = run;
      }
      if (run) pauses.observe(run.status === 'paused', performance.now());
      if (run && run.status === 'running' && now - last < 1000 / TEXT_HZ) return;
      last = now;
      if (!run || run.status === 'ready') {
        setText(time.current, simTime(0));
        setText(rate.current, '–');
        setText(epoch.current, '0');
        setText(cores.current, '–');
        if (bar.current) bar.current.style.width = '0%';
        return;
      }
      const p = run.progress();
      if (run.isScrubbed) {
        // the timeline is scrubbed (ScrubBar): the progress area shows the chip as it was then
        const v = run.telemetry.views;
        p.simTimePs = v.ctlF[CTLF.simTimePs]!;
        p.epoch = v.ctl[CTL.epoch]!;
        p.finishedCores = v.ctl[CTL.finishedCores]!;
      }
      const simNs = p.simTimePs / 1000;
      const wall = runningWallMs(run.results ? run.wallMs : p.wallMs, pauses.pausedMs(performance.now()));
      const stopNs = run.experiment.stop.maxTimeNs;
      let frac = p.participants > 0 ? p.finishedCores / p.participants : 0;
      if (stopNs) frac = Math.max(frac, simNs / stopNs);
      if (run.status === 'done' || run.status === 'stopped') frac = 1;
      setText(time.current, QUANTITIES.chipClockNs.format(simNs));
      setText(rate.current, `${simRate(simNs, wall)} (${(wall / 1000).toFixed(1)} s running)`);
      setText(epoch.current, QUANTITIES.epochs.format(p.epoch));
      // where the engine itself is: a pause lands at the end of the epoch in flight (tests wait for it)
      if (epoch.current && epoch.current.dataset.engine !== p.status) epoch.current.dataset.engine = p.status;
      setText(cores.current, `${p.finishedCores} / ${p.participants}`);
      if (bar.current) bar.current.style.width = `${Math.round(Math.min(1, frac) * 100)}%`;
    });
  }, []);

  const { status, canRun } = props;
  const running = status === 'running';
  const finished = status === 'done' || status === 'stopped' || status === 'error';
  return (
    <div className="controls" data-testid="controls">
      <div className="buttons">
        {running ? (
          <button type="button" className="primary" onClick={props.onPause} data-testid="run" aria-keyshortcuts="Space">
            ❚❚ Pause
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={props.onRun}
            disabled={!canRun && !(status === 'paused')}
            data-testid="run"
            aria-keyshortcuts="Space"
            aria-describedby={!canRun && status !== 'paused' && props.disabledReason ? 'run-disabled-reason' : undefined}
          >
            ▶ {status === 'paused' ? 'Resume' : finished ? 'Run again' : 'Run'}
          </button>
        )}
        <button type="button" onClick={props.onStep} disabled={finished || (!canRun && status === 'ready')} data-testid="step" aria-keyshortcuts="S" title="Run one epoch (key S)">
          Step
        </button>
        <button type="button" onClick={props.onReset} disabled={status === 'ready'} data-testid="reset" title="Stop and clear the run">
          Reset
        </button>
        <label className="inline">
          Speed{' '}
          <select value={String(props.speed)} onChange={(e) => props.onSpeed(Number(e.target.value))} data-testid="speed">
            {SPEEDS.map((s) => (
              <option key={s.label} value={String(s.nsPerS)}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <span className={`status status-${status}`} data-testid="status" role="status">
          {STATUS_TEXT[status]}
        </span>
      </div>
      {!canRun && !running && status !== 'paused' && props.disabledReason ? (
        <p className="run-disabled-reason" id="run-disabled-reason" data-testid="run-disabled-reason">
          {props.disabledReason}
        </p>
      ) : null}
      <div className="progress" aria-label="Progress">
        <div className="progress-track">
          <div className="progress-bar" ref={bar} data-testid="progress" />
        </div>
        <dl className="progress-stats">
          <div title={QUANTITIES.chipClockNs.title}>
            <dt>{QUANTITIES.chipClockNs.label}</dt>
            <dd ref={time} data-testid="sim-time">
              0 ns
            </dd>
          </div>
          <div title="simulated time per second of wall time the run was going (paused time does not count)">
            <dt>simulated per wall second</dt>
            <dd ref={rate} data-testid="sim-rate">
              –
            </dd>
          </div>
          <div>
            <dt>
              <Term id="epoch" />
            </dt>
            <dd ref={epoch} data-testid="epoch">
              0
            </dd>
          </div>
          <div>
            <dt>cores finished</dt>
            <dd ref={cores} data-testid="cores-finished">
              –
            </dd>
          </div>
        </dl>
      </div>
      <p className="keys">Keys: Space run/pause · S step one epoch</p>
    </div>
  );
}
