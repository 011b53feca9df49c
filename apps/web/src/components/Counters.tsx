/**
 * Headline counters of the running chip, written from the frame loop (TEXT_HZ while running).
 * The quantities and their labels are telemetry-quantities.ts's (the results show the same
 * ones under the same labels). The page-fault counters (NONZERO_COUNTER_IDS) appear only once
 * a run has taken a fault.
 */
import { useEffect, useRef } from 'react';
import { frameLoop } from '../sim/frame-loop';
import type { LiveRun } from '../sim/live-run';
import { COUNTER_IDS, COUNTER_TESTIDS, emptyTotals, liveTotals, NONZERO_COUNTER_IDS, QUANTITIES } from '../sim/telemetry-quantities';
import { TEXT_HZ } from './Controls';
import { Term } from './Term';

export function Counters({ run }: { run: LiveRun | null }) {
  const refs = useRef<Record<string, HTMLElement | null>>({});
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    let drawn = -2;
    let drawnRun: LiveRun | null = null;
    let drawnAt = -Infinity;
    const totals = emptyTotals();
    return frameLoop.add((now) => {
      const r = latest.current;
      const t = r && r.status !== 'ready' ? r.telemetry : null;
      const v = t ? t.version : -1;
      if (v === drawn && r === drawnRun) return;
      if (r === drawnRun && r?.status === 'running' && now - drawnAt < 1000 / TEXT_HZ) return;
      drawn = v;
      drawnAt = now;
      drawnRun = r;
      const set = (id: string, text: string) => {
        const el = refs.current[id];
        if (el && el.textContent !== text) el.textContent = text;
      };
      const show = (id: string, on: boolean) => {
        const el = refs.current[id]?.parentElement;
        if (el && el.hidden === on) el.hidden = !on;
      };
      if (!t) {
        for (const id of COUNTER_IDS) set(id, '–');
        for (const id of NONZERO_COUNTER_IDS) show(id, false);
        return;
      }
      liveTotals(t, totals);
      for (const id of COUNTER_IDS) set(id, QUANTITIES[id].format(totals[id]));
      for (const id of NONZERO_COUNTER_IDS) {
        show(id, totals[id] > 0);
        set(id, QUANTITIES[id].format(totals[id]));
      }
    });
  }, []);
  return (
    <dl className="counters" data-testid="counters">
      {COUNTER_IDS.map((id) => (
        <div key={id} title={QUANTITIES[id].title}>
          <dt>{QUANTITIES[id].term ? <Term id={QUANTITIES[id].term}>{QUANTITIES[id].label}</Term> : QUANTITIES[id].label}</dt>
          <dd ref={(el) => void (refs.current[id] = el)} data-testid={COUNTER_TESTIDS[id] ?? `counter-${id}`}>
            –
          </dd>
        </div>
      ))}
      {NONZERO_COUNTER_IDS.map((id) => (
        <div key={id} title={QUANTITIES[id].title} hidden>
          <dt>{QUANTITIES[id].label}</dt>
          <dd ref={(el) => void (refs.current[id] = el)} data-testid={`counter-${id}`}>
            –
          </dd>
        </div>
      ))}
    </dl>
  );
}
