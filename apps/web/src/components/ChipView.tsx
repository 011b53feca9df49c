/**
 * The chip floorplan view: cores coloured by the chosen metric, links by flits per µs,
 * controllers by busy share; hover shows values, click opens the core inspector.
 */
import { useEffect, useMemo, useRef } from 'react';
import { BLOCK_REASON_NAMES, C, CORE_STATE_NAMES, CTRL, DIR_NAMES, ISL, type ResolvedChip } from '@manycore/engine';
import { chipGeometry, chipStaticKey, drawChip, drawChipDynamic, drawChipStatic, hitTest, type ChipFrame, type Hit } from '../charts/chip-draw';
import type { Painter } from '../charts/painter';
import { num, pct, watts } from '../lib/format';
import { CORE_METRICS, linkMax, metricById, niceCeil } from '../sim/metrics';
import type { Telemetry, Window } from '../sim/telemetry';
import { CanvasCard } from './CanvasCard';
import { frameLoop } from '../sim/frame-loop';

export interface ChipViewProps {
  chip: ResolvedChip;
  telemetry: Telemetry | null;
  participants: ReadonlySet<number>;
  window: Window;
  onWindow(w: Window): void;
  selected: number | null;
  onSelect(core: number | null): void;
  runKey: unknown;
  metric: string;
  onMetric(id: string): void;
}

export function ChipView(props: ChipViewProps) {
  const geo = useMemo(() => chipGeometry(props.chip), [props.chip]);
  const metricId = props.metric;
  const setMetricId = props.onMetric;
  const hover = useRef<Hit>(null);
  const hoverVersion = useRef(0);
  const tip = useRef<HTMLDivElement>(null);
  const tipPos = useRef({ x: 0, y: 0 });
  const sticky = useRef({ link: 1, msg: 1, key: null as unknown });
  const latest = useRef(props);
  latest.current = props;
  const metric = metricById(metricId);
  const cores = props.chip.topo.cores;
  const showLabels = cores <= 128;

  const tooltipLines = (h: Hit): string[] => {
    const t = latest.current.telemetry;
    const w = latest.current.window;
    if (!h) return [];
    const chip = latest.current.chip;
    if (h.kind === 'core') {
      const tile = Math.floor(h.id / chip.topo.coresPerTile);
      const head = `Core ${h.id} · tile ${tile} (${tile % chip.topo.width},${Math.floor(tile / chip.topo.width)}) · island ${chip.islandOfTile[tile]}`;
      if (!t) return [head, latest.current.participants.has(h.id) ? 'runs the workload' : 'idle (not in this workload)'];
      return [
        head,
        `${metric.label}: ${metric.format(metric.value(t, h.id, w))}`,
        `state: ${CORE_STATE_NAMES[t.core(h.id, C.state)] ?? '?'}${t.core(h.id, C.blockedOn) ? ` (on ${BLOCK_REASON_NAMES[t.core(h.id, C.blockedOn)]})` : ''}`,
        `utilisation ${pct(w === 'recent' ? t.utilRecent[h.id]! : t.utilRun(h.id))} · power ${watts(t.corePowerW(h.id))}`,
        `loads ${num(t.core(h.id, C.loads))} · stores ${num(t.core(h.id, C.stores))} · msgs ${num(t.core(h.id, C.messagesSent))}`,
        'click to inspect',
      ];
    }
    if (h.kind === 'link') {
      const l = t?.links.find((x) => x.id === h.id);
      const from = Math.floor(h.id / 4);
      const dir = DIR_NAMES[h.id % 4];
      const v = t ? (w === 'recent' ? t.linkRecent[h.id]! : t.linkRun(h.id)) : 0;
      return [`Link ${h.id}: tile ${from} → ${l ? l.to : '?'} (${dir})`, `${num(v)} flits/µs (${w === 'recent' ? 'recent' : 'whole run'})`, t ? `${num(t.views.links[h.id * 4]!)} flits in total` : ''];
    }
    if (h.kind === 'controller') {
      const tile = chip.controllerTile[h.id]!;
      if (!t) return [`Memory controller ${h.id} at tile ${tile}`];
      return [
        `Memory controller ${h.id} at tile ${tile}`,
        `bandwidth ${num(w === 'recent' ? t.ctrlBwRecent[h.id]! : t.ctrlBwRun(h.id))} GB/s · busy ${pct(w === 'recent' ? t.ctrlUtilRecent[h.id]! : t.ctrlUtilRun(h.id))}`,
        `requests ${num(t.ctrl(h.id, CTRL.requests))} (reads ${num(t.ctrl(h.id, CTRL.reads))}, writes ${num(t.ctrl(h.id, CTRL.writes))})`,
        `deepest queue ${num(t.ctrl(h.id, CTRL.queueMax))}`,
      ];
    }
    if (h.kind === 'router') return [`Router of tile ${h.id}`, 'X-Y routing: packets go along x first, then y'];
    if (h.kind === 'tile') {
      const occ = t ? pct(t.mpbOccupancy[h.id]!) : '–';
      return [`Tile ${h.id} (${h.id % chip.topo.width},${Math.floor(h.id / chip.topo.width)}) · island ${chip.islandOfTile[h.id]}`, `MPB ${chip.mpbBytes / 1024} KB, ${occ} non-zero`];
    }
    if (h.kind === 'island') {
      if (!t) return [`Voltage island ${h.id}`];
      return [`Voltage island ${h.id}`, `divisor ${t.island(h.id, ISL.divisor)} · ${num(t.island(h.id, ISL.volts))} V · ${watts(t.islandPowerW(h.id))}`];
    }
    return [];
  };

  // tooltip text follows the data while the pointer rests
  useEffect(
    () =>
      frameLoop.add(() => {
        const el = tip.current;
        if (!el) return;
        const h = hover.current;
        if (!h) {
          if (el.style.display !== 'none') el.style.display = 'none';
          return;
        }
        const text = tooltipLines(h).filter(Boolean).join('\n');
        if (el.textContent !== text) el.textContent = text;
        el.style.display = 'block';
        el.style.left = `${tipPos.current.x + 14}px`;
        el.style.top = `${tipPos.current.y + 14}px`;
      }),
    [metricId],
  );

  const frame = (): ChipFrame => {
    const { telemetry: t, window: w, chip, participants, selected } = latest.current;
    if (sticky.current.key !== latest.current.runKey) sticky.current = { link: 1, msg: 1, key: latest.current.runKey };
    let lmax = 1;
    let cmax = 1;
    if (t) {
      lmax = linkMax(t, w);
      sticky.current.link = Math.max(sticky.current.link, lmax);
      lmax = w === 'recent' ? sticky.current.link : lmax;
      cmax = metric.max(t, w);
      if (metric.id === 'messages') {
        sticky.current.msg = Math.max(sticky.current.msg, niceCeil(cmax));
        cmax = sticky.current.msg;
      }
    }
    return {
      coreValue: (c) => (t ? metric.value(t, c, w) : 0),
      coreMax: cmax,
      coreActive: (c) => participants.has(c),
      coreFormat: metric.format,
      coreTitle: `${metric.label}${w === 'recent' ? ' (recent)' : ' (whole run)'}`,
      linkValue: (id) => (t ? (w === 'recent' ? t.linkRecent[id]! : t.linkRun(id)) : 0),
      linkMax: lmax,
      controllerUtil: (m) => (t ? (w === 'recent' ? t.ctrlUtilRecent[m]! : t.ctrlUtilRun(m)) : 0),
      controllerLabel: (m) => (t ? `${num(w === 'recent' ? t.ctrlBwRecent[m]! : t.ctrlBwRun(m), 2)} GB/s` : `tile ${chip.controllerTile[m]}`),
      islandLabel: (i) => {
        const div = t ? t.island(i, ISL.divisor) : chip.tileDivisors[chip.config.islands.tiles[i]![0]!]!;
        const vf = chip.vf.get(div);
        const base = `island ${i} · ${vf ? `${Math.round(vf.freqMHz)} MHz ${vf.volts.toFixed(2)} V` : `÷${div}`}`;
        return t ? `${base} · ${watts(t.islandPowerW(i))}` : base;
      },
      mpbValue: t ? (tile) => t.mpbOccupancy[tile]! : undefined,
      selected,
      hover: hover.current,
      showLabels,
    };
  };
  // exports draw the whole chip; the screen keeps the static layer as a bitmap (CanvasCard)
  const draw = (p: Painter) => drawChip(p, geo, frame());
  const layers = () => {
    const f = frame();
    return { key: chipStaticKey(geo, f), drawStatic: (p: Painter) => drawChipStatic(p, geo, f), drawDynamic: (p: Painter) => drawChipDynamic(p, geo, f) };
  };

  const version = () => {
    const t = latest.current.telemetry;
    return `${t?.version ?? -1}|${metricId}|${latest.current.window}|${hoverVersion.current}|${latest.current.selected}|${latest.current.runKey === sticky.current.key}|${String(latest.current.runKey)}`;
  };

  return (
    <CanvasCard
      id="chip"
      title={`Chip: ${props.chip.config.name}, ${props.chip.topo.width}×${props.chip.topo.height} mesh, ${cores} cores`}
      subtitle="Hover for values, click a core to inspect it."
      world={{ w: geo.width, h: geo.height }}
      maxHeight={760}
      draw={draw}
      layers={layers}
      version={version}
      className="chip-card"
      toolbar={
        <>
          <label className="inline">
            Colour cores by{' '}
            <select value={metricId} onChange={(e) => setMetricId(e.target.value)} data-testid="metric">
              {CORE_METRICS.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          <select value={props.window} onChange={(e) => props.onWindow(e.target.value as Window)} data-testid="window" aria-label="Time window">
            <option value="recent">recent</option>
            <option value="run">whole run</option>
          </select>
        </>
      }
      onPointer={(x, y, kind, ev) => {
        const wrap = (ev as unknown as { currentTarget?: HTMLElement }).currentTarget?.parentElement;
        const r = wrap?.getBoundingClientRect();
        if (r) tipPos.current = { x: ev.clientX - r.left, y: ev.clientY - r.top };
        const h = kind === 'leave' ? null : hitTest(geo, x, y);
        if (JSON.stringify(h) !== JSON.stringify(hover.current)) {
          hover.current = h;
          hoverVersion.current++;
        }
        if (kind === 'click') {
          if (h?.kind === 'core') latest.current.onSelect(h.id);
        }
      }}
    >
      <div ref={tip} className="tooltip" data-testid="chip-tooltip" role="tooltip" style={{ display: 'none' }} />
    </CanvasCard>
  );
}
