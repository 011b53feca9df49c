/** Headline counters of the running chip, written from the frame loop (TEXT_HZ while running). */
import { useEffect, useRef } from 'react';
import { C, CTRL } from '@manycore/engine';
import { num, watts } from '../lib/format';
import { frameLoop } from '../sim/frame-loop';
import type { LiveRun } from '../sim/live-run';
import { TEXT_HZ } from './Controls';

const ITEMS = [
  { id: 'power', label: 'chip power' },
  { id: 'ops', label: 'loads + stores' },
  { id: 'dram', label: 'DRAM requests' },
  { id: 'flits', label: 'flits on links' },
  { id: 'messages', label: 'messages' },
] as const;

export function Counters({ run }: { run: LiveRun | null }) {
  const refs = useRef<Record<string, HTMLElement | null>>({});
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    let drawn = -2;
    let drawnRun: LiveRun | null = null;
    let drawnAt = -Infinity;
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
      if (!t) {
        for (const it of ITEMS) set(it.id, '–');
        return;
      }
      let ops = 0;
      let msgs = 0;
      for (let c = 0; c < t.cores; c++) {
        ops += t.core(c, C.loads) + t.core(c, C.stores);
        msgs += t.core(c, C.messagesSent);
      }
      let req = 0;
      for (let m = 0; m < t.chip.controllers; m++) req += t.ctrl(m, CTRL.requests);
      let flits = 0;
      for (const l of t.links) flits += t.views.links[l.id * 4]!;
      set('power', watts(t.chipPowerW()));
      set('ops', num(ops, 4));
      set('dram', num(req, 4));
      set('flits', num(flits, 4));
      set('messages', num(msgs, 4));
    });
  }, []);
  return (
    <dl className="counters" data-testid="counters">
      {ITEMS.map((it) => (
        <div key={it.id}>
          <dt>{it.label}</dt>
          <dd ref={(el) => void (refs.current[it.id] = el)} data-testid={`counter-${it.id}`}>
            –
          </dd>
        </div>
      ))}
    </dl>
  );
}
