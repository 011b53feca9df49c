/**
 * Fork at a time. ForkPanel (under the scrubbed timeline): choose a change the timeline allows
 * (an island's or a tile's clock divisor) and "Fork here": the fork is the run's experiment
 * with that timeline event at exactly the scrubbed boundary (sim/replay.ts forkExperiment),
 * handed to the page, which puts the original in Compare slot A and the fork in B and plays
 * both from the start at the same time (sim/pair-run.ts), their charts overlaid live.
 * ForkSummary (in Compare): the fork marker's legend and both experiments' share links,
 * each with its run's digest once known, so each reproduces on its own.
 * Choices are limited to what the chip has (islands, tiles, V/f divisors); anything the schema
 * still refuses is shown as its message, never thrown.
 */
import { useEffect, useState } from 'react';
import type { Experiment, ResolvedChip } from '@manycore/engine';
import { shareUrl } from '../lib/link';
import { forkExperiment, type ForkChange } from '../sim/replay';
import { scrubTimeLabel } from './ScrubBar';

export interface ForkRequest {
  original: Experiment;
  fork: Experiment;
  atPs: number;
  change: ForkChange;
}

/** JSON with keys sorted: the same experiment whatever order its fields were written in. */
function canonical(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(canonical);
  if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, canonical((x as Record<string, unknown>)[k])]));
  return x;
}
export function sameExperiment(a: Experiment, b: Experiment): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

export function describeChange(c: ForkChange): string {
  return c.kind === 'island-divisor' ? `island ${c.island} → ÷${c.divisor}` : `tile ${c.tile} → ÷${c.divisor}`;
}

export function ForkPanel(props: { chip: ResolvedChip; original: Experiment; atPs: number; onFork(f: ForkRequest): void }) {
  const { chip } = props;
  const divisors = [...chip.vf.keys()].sort((a, b) => a - b);
  const [kind, setKind] = useState<ForkChange['kind']>(chip.islands > 1 ? 'island-divisor' : 'tile-divisor');
  const [target, setTarget] = useState(0);
  const [divisor, setDivisor] = useState(divisors[divisors.length - 1] ?? 2);
  const [problem, setProblem] = useState<string | null>(null);
  const targets = kind === 'island-divisor' ? chip.islands : chip.topo.tiles;
  const fork = () => {
    const change: ForkChange = kind === 'island-divisor' ? { kind, island: target, divisor } : { kind, tile: target, divisor };
    try {
      props.onFork({ original: props.original, fork: forkExperiment(props.original, props.atPs, change), atPs: props.atPs, change });
      setProblem(null);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="fork-panel" data-testid="fork-panel">
      <span>Fork at {scrubTimeLabel(props.atPs)} with</span>
      <label>
        <span className="sr-only">change</span>
        <select
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as ForkChange['kind']);
            setTarget(0);
          }}
          data-testid="fork-kind"
        >
          {chip.islands > 0 ? <option value="island-divisor">island divisor</option> : null}
          <option value="tile-divisor">tile divisor</option>
        </select>
      </label>
      <label>
        {kind === 'island-divisor' ? 'island' : 'tile'}{' '}
        <select value={target} onChange={(e) => setTarget(Number(e.target.value))} data-testid="fork-target">
          {Array.from({ length: targets }, (_, i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </label>
      <label>
        divisor{' '}
        <select value={divisor} onChange={(e) => setDivisor(Number(e.target.value))} data-testid="fork-divisor">
          {divisors.map((d) => (
            <option key={d} value={d}>
              ÷{d} ({Math.round(chip.vf.get(d)!.freqMHz)} MHz)
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="primary small" onClick={fork} data-testid="fork-here" title="Run the same experiment with this change from this time on, beside the original (Compare)">
        Fork here
      </button>
      {problem ? (
        <span className="error" role="alert" data-testid="fork-problem">
          {problem}
        </span>
      ) : null}
    </div>
  );
}

function LinkField(props: { exp: Experiment | null; digest: string | undefined; testId: string; label: string }) {
  const [url, setUrl] = useState('');
  const json = props.exp ? JSON.stringify(props.exp) : '';
  useEffect(() => {
    let live = true;
    if (!props.exp) return;
    void shareUrl(window.location.href, props.exp, props.digest).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [json, props.digest]); // the experiment by value (a new object each render)
  return (
    <label className="share-url">
      <span>{props.label}</span>
      <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} data-testid={props.testId} data-digest={props.digest ?? ''} />
    </label>
  );
}

/** The fork's legend (what the dashed marker on the overlay charts is) and both links. */
export function ForkSummary(props: { atNs: number; change: ForkChange; a: Experiment | null; b: Experiment | null; digestA?: string; digestB?: string }) {
  return (
    <section className="card fork-summary">
      <p data-testid="fork-marker" data-at-ns={String(props.atNs)}>
        <strong>fork at {scrubTimeLabel(props.atNs * 1000)}</strong>: A is the original run, B the same experiment with {describeChange(props.change)} from that time on (the
        dashed marker on the charts). Up to the fork both are the same run; both play at once, each on half the host's CPUs.
      </p>
      <LinkField exp={props.a} digest={props.digestA} testId="fork-link-a" label="Original (A):" />
      <LinkField exp={props.b} digest={props.digestB} testId="fork-link-b" label="Fork (B):" />
    </section>
  );
}
