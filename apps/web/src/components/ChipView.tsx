/**
 * The chip floorplan view: cores coloured by the chosen metric, links by flits per µs,
 * controllers by busy share; hover shows values, click opens the core inspector. Drawn from
 * the chip family's FloorplanSpec (lib/floorplan.ts): what a tile holds, what the controllers
 * and power domains are called, come from the family. When the family describes a per-tile
 * memory-side unit (FloorplanSpec.unitOccupancy: TILE64's home L2 slices) the tiles are tinted
 * by its fill, read from the committed unit state each frame; a tile's tooltip says what its
 * part serves (e.g. the pages it homes) and a read-out under the chip sums it up. Zoom (wheel,
 * buttons) and pan (drag) for large meshes; below CELL_TILE_PX pixels per tile the tiles are
 * drawn as cells.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { BLOCK_REASON_NAMES, C, CORE_STATE_NAMES, CTRL, DIR_NAMES, ISL, type ResolvedChip } from '@manycore/engine';
import { chipGeometry, chipStaticKey, drawChip, drawChipDynamic, drawChipStatic, hitTest, levelOfDetail, type ChipFrame, type Detail, type Hit, type TileFill } from '../charts/chip-draw';
import type { Painter } from '../charts/painter';
import { controllerLabel, domainLabel, floorplanOf, hasDomains, hasMpb } from '../lib/floorplan';
import { bytes, num, pct, watts } from '../lib/format';
import { unitOccupancyOf, unitSummary } from '../lib/unit-occupancy';
import { linkMax, metricFor, metricsFor, niceCeil } from '../sim/metrics';
import type { Telemetry, Window } from '../sim/telemetry';
import { CanvasCard, type ChartTable, type ViewInfo } from './CanvasCard';
import { MIN_CANVAS_TEXT_PX, onAppearance, palette } from '../lib/theme';
import { isArrow, moveCore } from '../lib/theme-keyboard';
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
  /** A deadlock's wait-for cycles ([a, b, ..., a], engine wait-for.ts): arrows on the mesh and a line under it. */
  waitFor?: number[][] | null;
}

/** Core numbers are drawn when there are few cores, or when a tile is this many CSS pixels wide (zoomed in). */
const LABEL_TILE_PX = 60;

/** Legend text drawn at this many world units before the legend scale (chip-draw.ts). */
const LEGEND_TEXT = 12;

/**
 * The chip canvas's greatest CSS height that keeps it on screen. In the narrow or large-text
 * layout (styles.css: the chip view in a column of its own beside the run controls) that is
 * the viewport below the card's top and its header; otherwise the viewport less the card's
 * header (the page scrolls to the chip view).
 */
function fitHeight(): number {
  if (typeof window === 'undefined' || typeof document === 'undefined') return 760;
  const card = document.querySelector<HTMLElement>('[data-testid="view-chip"]');
  const row = card?.closest<HTMLElement>('.chip-row');
  const beside = row ? getComputedStyle(row).gridColumnStart === '2' : false;
  const top = beside && card ? card.getBoundingClientRect().top + window.scrollY : 0;
  const head = card?.querySelector<HTMLElement>(':scope > .card-head')?.offsetHeight ?? 60;
  const pad = card ? parseFloat(getComputedStyle(card).paddingTop) * 2 + 8 : 24;
  return Math.max(200, Math.floor(window.innerHeight - top - head - pad));
}

/** Most the legend is enlarged for readable text (beyond it the legend would crowd out the chip). */
const MAX_LEGEND_K = 2;

export function ChipView(props: ChipViewProps) {
  const spec = useMemo(() => floorplanOf(props.chip), [props.chip]);
  // the legend grows when its text would be smaller than readable at the view's scale
  const [legendK, setLegendK] = useState(1);
  const geo = useMemo(() => chipGeometry(props.chip, legendK), [props.chip, legendK]);
  const [maxHeight, setMaxHeight] = useState(760);
  useEffect(() => {
    const measure = () => setMaxHeight(Math.min(760, fitHeight()));
    measure();
    window.addEventListener('resize', measure);
    const offAppearance = onAppearance(() => requestAnimationFrame(measure));
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    const head = document.querySelector('[data-testid="view-chip"] > .card-head');
    const main = document.querySelector('.main');
    if (head) ro?.observe(head);
    if (main) ro?.observe(main);
    return () => {
      window.removeEventListener('resize', measure);
      offAppearance();
      ro?.disconnect();
    };
  }, []);
  // the keyboard cursor: a core the arrows move to (drawn as the hovered core), Enter inspects it
  const cursor = useRef<number | null>(null);
  const cursorText = useRef<HTMLParagraphElement>(null);
  const metrics = useMemo(() => metricsFor(spec), [spec]);
  const metricId = props.metric;
  const setMetricId = props.onMetric;
  const hover = useRef<Hit>(null);
  const hoverVersion = useRef(0);
  const detailNow = useRef<Detail>('cores');
  const tip = useRef<HTMLDivElement>(null);
  const tipPos = useRef({ x: 0, y: 0 });
  const sticky = useRef({ link: 1, msg: 1, unit: 1, key: null as unknown });
  const unitReadout = useRef<HTMLParagraphElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const metric = metricFor(spec, metricId);
  const cores = props.chip.topo.cores;
  const K = props.chip.topo.coresPerTile;
  const fewCores = cores <= 128;
  const mpb = hasMpb(spec);
  const domains = hasDomains(spec);
  const unit = unitOccupancyOf(spec);

  /** A tile's part of the family's unit: "home L2 slice: 12 of 1024 lines (1.2 %), 768 B". */
  const unitLine = (t: Telemetry | null, tile: number): string => {
    if (!unit) return '';
    const head = `${unit.label}: `;
    if (!t) return `${head}${unit.slotsPerTile} lines of ${unit.bytesPerSlot} B`;
    const used = t.unitUsed[tile]!;
    return `${head}${used} of ${unit.slotsPerTile} lines (${pct(used / unit.slotsPerTile)}), ${bytes(used * unit.bytesPerSlot)}`;
  };

  const where = (tile: number) => {
    const chip = latest.current.chip;
    const at = `tile ${tile} (${tile % chip.topo.width},${Math.floor(tile / chip.topo.width)})`;
    return domains ? `${at} · ${domainLabel(spec, chip.islandOfTile[tile]!)}` : at;
  };

  const tooltipLines = (h: Hit): string[] => {
    const t = latest.current.telemetry;
    const w = latest.current.window;
    if (!h) return [];
    const chip = latest.current.chip;
    if (h.kind === 'core') {
      const tile = Math.floor(h.id / K);
      const head = `Core ${h.id} · ${where(tile)}`;
      if (!t) return [head, latest.current.participants.has(h.id) ? 'runs the workload' : 'idle (not in this workload)'];
      return [
        head,
        `${metric.label}: ${metric.format(metric.value(t, h.id, w))}`,
        `state: ${CORE_STATE_NAMES[t.core(h.id, C.state)] ?? '?'}${t.core(h.id, C.blockedOn) ? ` (on ${BLOCK_REASON_NAMES[t.core(h.id, C.blockedOn)]})` : ''}`,
        `utilisation ${pct(w === 'recent' ? t.utilRecent[h.id]! : t.utilRun(h.id))} · power ${watts(t.corePowerW(h.id))}`,
        `loads ${num(t.core(h.id, C.loads))} · stores ${num(t.core(h.id, C.stores))} · msgs ${num(t.core(h.id, C.messagesSent))}`,
        unit ? `tile's ${unitLine(t, tile)}` : '',
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
      const head = `Memory controller ${controllerLabel(spec, h.id)} at tile ${tile}`;
      if (!t) return [head];
      return [
        head,
        `bandwidth ${num(w === 'recent' ? t.ctrlBwRecent[h.id]! : t.ctrlBwRun(h.id))} GB/s (${spec.transactionBytes} B per request) · busy ${pct(w === 'recent' ? t.ctrlUtilRecent[h.id]! : t.ctrlUtilRun(h.id))}`,
        `requests ${num(t.ctrl(h.id, CTRL.requests))} (reads ${num(t.ctrl(h.id, CTRL.reads))}, writes ${num(t.ctrl(h.id, CTRL.writes))})`,
        `deepest queue ${num(t.ctrl(h.id, CTRL.queueMax))}`,
      ];
    }
    if (h.kind === 'router') return [`Router of tile ${h.id}`, 'X-Y routing: packets go along x first, then y'];
    if (h.kind === 'tile') {
      const lines = [`Tile ${h.id} (${h.id % chip.topo.width},${Math.floor(h.id / chip.topo.width)})${domains ? ` · ${domainLabel(spec, chip.islandOfTile[h.id]!)}` : ''}`];
      if (spec.tileStore) {
        const kb = `${spec.tileStore.label} ${spec.tileStore.bytes / 1024} KB`;
        lines.push(mpb ? `${kb}, ${t ? pct(t.mpbOccupancy[h.id]!) : '–'} non-zero` : kb);
      }
      if (unit) lines.push(unitLine(t, h.id), ...(unit.tileNotes?.[h.id] ?? []));
      if (detailNow.current === 'cells') {
        const first = h.id * K;
        const names = Array.from({ length: K }, (_, k) => first + k);
        if (t) lines.push(...names.map((c) => `core ${c}: ${metric.label} ${metric.format(metric.value(t, c, w))}${latest.current.participants.has(c) ? '' : ' (idle)'}`));
        else lines.push(`cores ${names.join(', ')}`);
        lines.push(`click to inspect core ${first} · zoom in for each core`);
      }
      return lines;
    }
    if (h.kind === 'domain') {
      const name = domainLabel(spec, h.id);
      if (!t) return [`Power domain: ${name}`];
      return [`Power domain: ${name}`, `divisor ${t.island(h.id, ISL.divisor)} · ${num(t.island(h.id, ISL.volts))} V · ${watts(t.islandPowerW(h.id))}`];
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
    [metricId, spec],
  );

  // the unit's summary under the chip, written when the telemetry changed
  useEffect(() => {
    if (!unit) return;
    let drawn = '';
    return frameLoop.add(() => {
      const el = unitReadout.current;
      const t = latest.current.telemetry;
      if (!el) return;
      const key = `${t?.version ?? -1}`;
      if (key === drawn) return;
      drawn = key;
      const name = unit.label.charAt(0).toUpperCase() + unit.label.slice(1);
      if (!t) {
        el.textContent = `${name}s: ${unit.slotsPerTile} lines of ${unit.bytesPerSlot} B per tile; run to see them fill. Hover a tile for what it is the home of.`;
        el.dataset.max = '0';
        el.dataset.total = '0';
        el.dataset.tiles = '0';
        return;
      }
      const s = unitSummary(t.unitUsed);
      el.textContent =
        s.total === 0
          ? `${name}s: empty so far.`
          : `${name}s: ${s.total} lines (${bytes(s.total * unit.bytesPerSlot)}) in ${s.tilesUsed} of ${t.tiles} tiles; fullest: tile ${s.maxTile}, ${s.max} of ${unit.slotsPerTile} lines. Hover a tile for what it is the home of.`;
      el.dataset.max = String(s.max);
      el.dataset.total = String(s.total);
      el.dataset.tiles = String(s.tilesUsed);
    });
  }, [unit]);

  /** The frame for a view (null: the whole chip at full detail, as the exports draw it). */
  const frame = (view: ViewInfo | null): ChipFrame => {
    const { telemetry: t, window: w, chip, participants, selected } = latest.current;
    if (sticky.current.key !== latest.current.runKey) sticky.current = { link: 1, msg: 1, unit: 1, key: latest.current.runKey };
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
    const detail = view ? levelOfDetail(view.pxPerUnit) : 'cores';
    const showLabels = fewCores || (view !== null && detail === 'cores' && view.pxPerUnit * 100 >= LABEL_TILE_PX);
    // tiles tinted by the unit's fill: the scale's top only grows during a run (a nice number of lines)
    let tileFill: TileFill | undefined;
    if (unit && detail === 'cores') {
      if (t) sticky.current.unit = Math.max(sticky.current.unit, niceCeil(Math.max(1, unitSummary(t.unitUsed).max)));
      const used = t?.unitUsed;
      const label = spec.tileStore?.label ?? '';
      tileFill = {
        value: (tile) => used?.[tile] ?? 0,
        max: sticky.current.unit,
        title: `lines in the ${unit.label} (of ${unit.slotsPerTile})`,
        format: (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1)),
        storeText: (tile) => (used && used[tile]! > 0 ? `${label} · ${used[tile]}` : label),
      };
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
      domainLabel: (i) => {
        const div = t ? t.island(i, ISL.divisor) : chip.tileDivisors[spec.domains[i]?.tiles[0] ?? 0]!;
        const vf = chip.vf.get(div);
        const base = `${domainLabel(spec, i)} · ${vf ? `${Math.round(vf.freqMHz)} MHz ${vf.volts.toFixed(2)} V` : `÷${div}`}`;
        return t ? `${base} · ${watts(t.islandPowerW(i))}` : base;
      },
      storeValue: t && mpb ? (tile) => t.mpbOccupancy[tile]! : undefined,
      tileFill,
      selected,
      hover: hover.current ?? (cursor.current !== null ? { kind: 'core', id: cursor.current } : null),
      showLabels,
      detail,
      visible: view && view.zoom > 1 ? view.visible : undefined,
      minText: view ? (MIN_CANVAS_TEXT_PX * palette.textScale) / view.pxPerUnit : 0,
      waitFor: latest.current.waitFor ?? undefined,
    };
  };
  // exports draw the whole chip; the screen keeps the static layer as a bitmap (CanvasCard)
  const draw = (p: Painter) => drawChip(p, geo, frame(null));
  const layers = (view: ViewInfo) => {
    // the legend's scale for readable text at the fitted scale (quarter steps; it shrinks back only well below)
    const fitPx = view.pxPerUnit / Math.max(1, view.zoom);
    const need = Math.min(MAX_LEGEND_K, Math.ceil(((MIN_CANVAS_TEXT_PX * palette.textScale) / (LEGEND_TEXT * fitPx)) * 4) / 4);
    if (need > legendK || need < legendK - 0.5) queueMicrotask(() => setLegendK(Math.max(1, need)));
    const f = frame(view);
    detailNow.current = f.detail ?? 'cores';
    return {
      key: chipStaticKey(geo, f),
      drawStatic: (p: Painter) => drawChipStatic(p, geo, f),
      drawDynamic: (p: Painter) => drawChipDynamic(p, geo, f),
      dataset: { detail: detailNow.current },
    };
  };

  const version = () => {
    const t = latest.current.telemetry;
    return `${t?.version ?? -1}|${metricId}|${latest.current.window}|${hoverVersion.current}|${cursor.current}|${latest.current.selected}|${latest.current.runKey === sticky.current.key}|${String(latest.current.runKey)}|${latest.current.waitFor?.join(';') ?? ''}`;
  };

  /** Says where the keyboard cursor is (a live region: screen readers read it as it moves). */
  const describeCursor = () => {
    const el = cursorText.current;
    if (!el) return;
    const c = cursor.current;
    if (c === null) {
      el.textContent = '';
      delete el.dataset.core;
      return;
    }
    const t = latest.current.telemetry;
    const value = t ? ` · ${metric.label}: ${metric.format(metric.value(t, c, latest.current.window))}` : '';
    el.textContent = `Core ${c} · ${where(Math.floor(c / K))}${value} · ${latest.current.participants.has(c) ? 'runs the workload' : 'idle'}. Enter: inspect, Escape: close.`;
    el.dataset.core = String(c);
  };
  const onKeyDown = (e: ReactKeyboardEvent<HTMLCanvasElement>) => {
    const { chip, selected, onSelect } = latest.current;
    if (isArrow(e.key)) {
      e.preventDefault();
      const next = moveCore(cursor.current ?? selected, e.key, chip.topo.width, chip.topo.height, chip.topo.coresPerTile);
      cursor.current = next;
      // with the inspector open it follows the cursor
      if (selected !== null) onSelect(next);
      hoverVersion.current++;
      describeCursor();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (cursor.current === null) cursor.current = selected ?? 0;
      onSelect(cursor.current);
      hoverVersion.current++;
      describeCursor();
    } else if (e.key === 'Escape') {
      if (selected !== null) {
        e.preventDefault();
        onSelect(null);
      }
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      cursor.current = e.key === 'Home' ? 0 : cores - 1;
      if (selected !== null) onSelect(cursor.current);
      hoverVersion.current++;
      describeCursor();
    }
  };
  const table: ChartTable = {
    caption: `each core's ${metric.label} (${props.window === 'recent' ? 'recent' : 'whole run'})`,
    columns: ['core', 'tile (x,y)', metric.label, 'in the workload'],
    rows: () => {
      const { telemetry: t, window: w, participants, chip } = latest.current;
      return Array.from({ length: Math.min(cores, 4096) }, (_, c) => {
        const tile = Math.floor(c / K);
        return [String(c), `${tile} (${tile % chip.topo.width},${Math.floor(tile / chip.topo.width)})`, t ? metric.format(metric.value(t, c, w)) : '–', participants.has(c) ? 'yes' : 'no'];
      });
    },
  };

  return (
    <CanvasCard
      id="chip"
      title={`Chip: ${props.chip.config.name}, ${props.chip.topo.width}×${props.chip.topo.height} mesh, ${cores} cores`}
      subtitle={`Hover for values, click a core to inspect it (or focus the chip: arrow keys, Enter)${cores > 128 ? '; wheel or +/− to zoom, drag to pan' : ''}.`}
      world={{ w: geo.width, h: geo.height }}
      maxHeight={maxHeight}
      draw={draw}
      layers={layers}
      version={version}
      className="chip-card"
      zoomable
      table={table}
      canvasProps={{
        tabIndex: 0,
        role: 'application',
        'aria-roledescription': 'chip floorplan',
        'aria-label': `Chip floorplan, ${cores} cores: arrow keys move between cores, Enter opens the core inspector, Escape closes it`,
        'aria-describedby': 'chip-cursor',
        onKeyDown,
        onBlur: () => {
          if (cursor.current !== null && latest.current.selected === null) {
            cursor.current = null;
            hoverVersion.current++;
            describeCursor();
          }
        },
      }}
      toolbar={
        <>
          <label className="inline">
            Colour cores by{' '}
            <select value={metric.id} onChange={(e) => setMetricId(e.target.value)} data-testid="metric">
              {metrics.map((m) => (
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
      onPointer={(x, y, kind, ev, view) => {
        const wrap = (ev as unknown as { currentTarget?: HTMLElement }).currentTarget?.parentElement;
        const r = wrap?.getBoundingClientRect();
        if (r) tipPos.current = { x: ev.clientX - r.left, y: ev.clientY - r.top };
        const detail = levelOfDetail(view.pxPerUnit);
        // a few pixels of slack around thin shapes when zoomed out
        const h = kind === 'leave' ? null : hitTest(geo, x, y, detail, Math.max(0, 3 / view.pxPerUnit - 5));
        if (JSON.stringify(h) !== JSON.stringify(hover.current)) {
          hover.current = h;
          hoverVersion.current++;
        }
        if (kind === 'click') {
          if (h?.kind === 'core') latest.current.onSelect(h.id);
          else if (h?.kind === 'tile' && detail === 'cells') latest.current.onSelect(h.id * K);
        }
      }}
    >
      <div ref={tip} className="tooltip" data-testid="chip-tooltip" role="tooltip" style={{ display: 'none' }} />
      <span
        hidden
        data-testid="chip-floorplan"
        data-cores={cores}
        data-tiles={spec.width * spec.height}
        data-controllers={spec.controllers.length}
        data-domains={spec.domains.length}
        data-store={spec.tileStore?.label ?? ''}
        data-unit={unit?.label ?? ''}
      />
      <p ref={cursorText} id="chip-cursor" className="chip-cursor" data-testid="chip-cursor" aria-live="polite" />
      {unit ? <p ref={unitReadout} className="sub unit-readout" data-testid="unit-occupancy" aria-live="off" /> : null}
      {props.waitFor?.length ? (
        <p className="waitfor-cycle" data-testid="waitfor-cycle" data-cycle={props.waitFor[0]!.slice(0, -1).join(',')} data-cycles={props.waitFor.map((c) => c.slice(0, -1).join(',')).join(';')}>
          Wait-for cycle{props.waitFor.length > 1 ? 's' : ''} (red arrows: a core points at the core it waits for): {props.waitFor.map((c) => c.map((k) => `core ${k}`).join(' → ')).join('; ')}
        </p>
      ) : null}
    </CanvasCard>
  );
}

