/**
 * Run controls and progress. Buttons re-render on status changes only; the progress bar,
 * simulated time and rate are written from the frame loop (the numbers at most TEXT_HZ times
 * a second while a run goes: nobody reads faster, and every text change costs the page a
 * layout and a paint).
 */
import { useEffect, useRef } from 'react';
import { simRate, simTime } from '../lib/format';
import { frameLoop } from '../sim/frame-loop';
import type { LiveRun, RunStatus } from '../sim/live-run';

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
    return frameLoop.add((now) => {
      const run = latest.current.run;
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
      const simNs = p.simTimePs / 1000;
      const wall = run.results ? run.wallMs : p.wallMs;
      const stopNs = run.experiment.stop.maxTimeNs;
      let frac = p.participants > 0 ? p.finishedCores / p.participants : 0;
      if (stopNs) frac = Math.max(frac, simNs / stopNs);
      if (run.status === 'done' || run.status === 'stopped') frac = 1;
      setText(time.current, simTime(simNs, 4));
      setText(rate.current, `${simRate(simNs, wall)} (${(wall / 1000).toFixed(1)} s wall)`);
      setText(epoch.current, String(p.epoch));
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
          <button type="button" className="primary" onClick={props.onRun} disabled={!canRun && !(status === 'paused')} data-testid="run" aria-keyshortcuts="Space">
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
      <div className="progress" aria-label="Progress">
        <div className="progress-track">
          <div className="progress-bar" ref={bar} data-testid="progress" />
        </div>
        <dl className="progress-stats">
          <div>
            <dt>simulated time</dt>
            <dd ref={time} data-testid="sim-time">
              0 ns
            </dd>
          </div>
          <div>
            <dt>simulated per wall second</dt>
            <dd ref={rate} data-testid="sim-rate">
              –
            </dd>
          </div>
          <div>
            <dt>epoch</dt>
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
