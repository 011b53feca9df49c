/**
 * What-if: change a voltage island's clock divisor. During a run the change lands at the
 * next epoch boundary and is written into the experiment's timeline (so the shared link
 * replays it at the same simulated time); before a run it becomes a timeline event at 0.
 */
import { ISL, type ResolvedChip, type TimelineEvent } from '@manycore/engine';
import { domainLabel, floorplanOf, hasDomains } from '../lib/floorplan';
import { simTime } from '../lib/format';
import type { LiveRun } from '../sim/live-run';
import { Term } from './Term';

export interface WhatIfProps {
  chip: ResolvedChip;
  run: LiveRun | null;
  timeline: readonly TimelineEvent[];
  editable: boolean;
  onTimeline(t: TimelineEvent[]): void;
}

function vfLabel(chip: ResolvedChip, d: number): string {
  const p = chip.vf.get(d);
  return p ? `÷${d}: ${Math.round(p.freqMHz)} MHz at ${p.volts.toFixed(2)} V` : `÷${d}`;
}

export function describeEvent(chip: ResolvedChip | null, e: TimelineEvent): string {
  const target = e.kind === 'island-divisor' ? `island ${e.island}` : `tile ${e.tile}`;
  return `at ${simTime(e.atNs, 6)}: ${target} → ${chip ? vfLabel(chip, e.divisor) : `divisor ${e.divisor}`}`;
}

export function WhatIf({ chip, run, timeline, editable, onTimeline }: WhatIfProps) {
  const active = !!run && run.active;
  const spec = floorplanOf(chip);
  const domains = hasDomains(spec);
  const divisors = [...chip.vf.keys()].sort((a, b) => a - b);
  const initial = (i: number) => {
    let d = chip.tileDivisors[chip.config.islands.tiles[i]![0]!]!;
    for (const e of timeline) if (e.kind === 'island-divisor' && e.island === i && e.atNs === 0) d = e.divisor;
    return d;
  };
  const current = (i: number) => (run && run.status !== 'ready' ? run.telemetry.island(i, ISL.divisor) : initial(i));
  const pending = (i: number) => run?.pending.filter((p) => p.island === i).at(-1);
  const change = (island: number, divisor: number) => {
    if (active) run!.setIslandDivisor(island, divisor);
    else {
      const rest = timeline.filter((e) => !(e.kind === 'island-divisor' && e.island === island && e.atNs === 0));
      onTimeline([...rest, { kind: 'island-divisor', atNs: 0, island, divisor }]);
    }
  };
  return (
    <section className="card whatif" data-testid="whatif">
      <header className="card-head">
        <div>
          <h3>
            What-if: <Term id="island">voltage islands</Term>
          </h3>
          <p className="sub">
            {active
              ? <>Change a <Term id="divisor" /> now: it applies at the next <Term id="epoch" /> boundary and is recorded in the timeline.</>
              : <>Set a <Term id="divisor" /> for the start of the run (timeline event at 0 ns), or change it while the run goes on.</>}
          </p>
        </div>
      </header>
      {domains ? null : (
        <p className="sub" data-testid="whatif-no-domains">
          This chip has no voltage islands: one clock ({chip.baseMHz / chip.config.clocks.divisor} MHz) for every core.
        </p>
      )}
      <table className="islands" hidden={!domains}>
        <thead>
          <tr>
            <th scope="col">Island</th>
            <th scope="col">Tiles</th>
            <th scope="col">Clock (divisor of {chip.baseMHz} MHz)</th>
          </tr>
        </thead>
        <tbody>
          {chip.config.islands.tiles.map((tiles, i) => {
            const p = pending(i);
            const cur = current(i);
            return (
              <tr key={i}>
                <th scope="row" title={domainLabel(spec, i)}>
                  {i}
                </th>
                <td>{tiles.join(', ')}</td>
                <td>
                  <select
                    value={p ? p.divisor : cur}
                    disabled={!active && !editable}
                    onChange={(e) => change(i, Number(e.target.value))}
                    data-testid={`island-divisor-${i}`}
                    aria-label={`Island ${i} divisor`}
                  >
                    {divisors.map((d) => (
                      <option key={d} value={d}>
                        {vfLabel(chip, d)}
                      </option>
                    ))}
                  </select>
                  {p ? <span className="pending"> pending…</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h4>Timeline</h4>
      {timeline.length === 0 ? (
        <p className="sub" data-testid="timeline-empty">
          No changes scheduled.
        </p>
      ) : (
        <ol className="timeline" data-testid="timeline">
          {timeline.map((e, i) => (
            <li key={`${i}-${e.atNs}`} data-testid="timeline-event">
              {describeEvent(chip, e)}
              {editable && !active ? (
                <button type="button" className="small link" onClick={() => onTimeline(timeline.filter((_, k) => k !== i))} aria-label="Remove this change">
                  remove
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
