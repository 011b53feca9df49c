/**
 * A card holding one canvas view: sized to its container (device-pixel sharp), redrawn from
 * the frame loop only when `version()` (or the zoom) changes, with SVG and PNG export of the
 * same drawing (always the whole world, whatever the zoom). A `zoomable` world view zooms
 * (wheel, buttons) and pans (drag) over its world (charts/viewport.ts), with a "fit" reset;
 * its layers get the visible part and the scale, to cull and to pick a level of detail.
 * A canvas out of the viewport is redrawn at most every OFFSCREEN_MS while its data keeps
 * changing (while a run goes every chart changes every frame, and each redraw costs the page
 * a raster and a copy of all the canvas's pixels to the compositor, far more than the drawing
 * commands), and at once when the data settles or the canvas scrolls into view.
 */
import { useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from 'react';
import type { Rect } from '../charts/chip-draw';
import { CanvasPainter, type Painter } from '../charts/painter';
import { clampView, FIT_VIEW, panBy, pxPerUnit, sameView, toWorld, visibleRect, wheelFactor, zoomAt, zoomCentre, ZOOM_STEP, type Fit, type View } from '../charts/viewport';
import { downloadBlob, downloadText, renderPng, renderSvg, safeName } from '../lib/download';
import { appearanceVersion, onAppearance, palette, withLightPalette } from '../lib/theme';
import { frameLoop } from '../sim/frame-loop';

/** Least time between redraws of a canvas outside the viewport while its data changes, ms. */
export const OFFSCREEN_MS = 1000;

export interface CanvasLayers {
  key: string;
  drawStatic(p: Painter): void;
  drawDynamic(p: Painter): void;
  /** Written onto the canvas element's dataset after drawing (for tests: e.g. the level of detail). */
  dataset?: Record<string, string>;
}

/** What a zoomable view shows: the visible part of the world and CSS pixels per world unit. */
export interface ViewInfo {
  visible: Rect;
  pxPerUnit: number;
  zoom: number;
}

export interface CanvasCardProps {
  id: string;
  title: string;
  subtitle?: ReactNode;
  /** CSS height in px (ignored when `world` is set: then the aspect follows the world). */
  height?: number;
  /** World size: the drawing uses these units and is scaled to fit the width. */
  world?: { w: number; h: number };
  maxHeight?: number;
  draw: (p: Painter) => void;
  /**
   * Optional split of `draw` for the screen: a static layer kept as a bitmap while its key
   * stays the same, and a dynamic layer drawn over it on every redraw. Together they must
   * draw what `draw` draws (the exports use `draw`).
   */
  layers?: (view: ViewInfo) => CanvasLayers;
  version: () => unknown;
  /** Pointer events in world coordinates (through the zoom); `view` is the view at that moment. */
  onPointer?: (x: number, y: number, kind: 'move' | 'click' | 'leave', ev: { clientX: number; clientY: number }, view: ViewInfo) => void;
  /** Zoom (wheel, buttons) and pan (drag) over the world (only with `world`). */
  zoomable?: boolean;
  toolbar?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** The numbers the view shows, as a table in a "Data table" disclosure under it (built only while open). */
  table?: ChartTable;
  /** Attributes of the canvas element (e.g. tabIndex, role, aria-label and key handlers of a keyboard-driven view). */
  canvasProps?: HTMLAttributes<HTMLCanvasElement>;
}

/** A view's data as a table: column heads and rows of text (the first column heads the rows). */
export interface ChartTable {
  caption?: string;
  columns: string[];
  rows(): string[][];
  /** A sentence under the table (e.g. that rows were thinned). */
  note?(): string;
}

/** Least time between refreshes of an open data table while its view's data changes, ms. */
const TABLE_REFRESH_MS = 1000;

/** The "Data table" disclosure of a view: rebuilt when opened and, while open, at most every TABLE_REFRESH_MS as the data changes. */
export function DataTable(props: { id: string; table: ChartTable; version: () => unknown }) {
  const [open, setOpen] = useState(false);
  const [, setTick] = useState(0);
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    if (!open) return;
    let shown = latest.current.version();
    let at = -Infinity;
    return frameLoop.add((now) => {
      const v = latest.current.version();
      if (v === shown || now - at < TABLE_REFRESH_MS) return;
      shown = v;
      at = now;
      setTick((x) => x + 1);
    }, 90);
  }, [open]);
  const t = props.table;
  const rows = open ? t.rows() : [];
  const note = open && t.note ? t.note() : '';
  return (
    <details className="data-table" data-testid={`table-${props.id}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Data table</summary>
      {open ? (
        // focusable, so that the keyboard can scroll a long table
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t.caption ? `Data table: ${t.caption}` : 'Data table'}>
          <table>
            {t.caption ? <caption>{t.caption}</caption> : null}
            <thead>
              <tr>
                {t.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={t.columns.length}>no data yet</td>
                </tr>
              ) : (
                rows.map((r, i) => (
                  <tr key={i}>
                    {r.map((cell, j) =>
                      j === 0 ? (
                        <th key={j} scope="row">
                          {cell}
                        </th>
                      ) : (
                        <td key={j}>{cell}</td>
                      ),
                    )}
                  </tr>
                ))
              )}
            </tbody>
          </table>
          {note ? <p className="sub">{note}</p> : null}
        </div>
      ) : null}
    </details>
  );
}

export function CanvasCard(props: CanvasCardProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const latest = useRef(props);
  latest.current = props;
  const { world, maxHeight = 900 } = props;
  // charts (no world) are drawn at 1/k of their CSS size and scaled up by k: the text size
  // control enlarges their text, lines and margins alike, and their height grows with it
  const [textK, setTextK] = useState(palette.textScale);
  useEffect(() => onAppearance(() => setTextK(palette.textScale)), []);
  const k = world ? 1 : textK;
  const height = (props.height ?? 260) * k;
  const scale = world && width > 0 ? Math.min(width / world.w, maxHeight / world.h) : 1;
  const cssW = world ? world.w * scale : width;
  const cssH = world ? world.h * scale : height;
  const zoomable = !!(props.zoomable && world);
  // the zoom: a ref (drags change it every pointer move without re-rendering), its version
  // (the frame loop redraws when it changes) and the zoom factor shown in the toolbar
  const view = useRef<View>(FIT_VIEW);
  const viewVersion = useRef(0);
  const [zoomShown, setZoomShown] = useState(1);
  const fit = useRef<Fit>({ w: 1, h: 1, scale: 1 });
  fit.current = { w: world?.w ?? cssW / k, h: world?.h ?? cssH / k, scale: world ? scale : k };
  const setView = (v: View) => {
    const next = clampView(v, fit.current);
    if (sameView(next, view.current)) return;
    view.current = next;
    viewVersion.current++;
    setZoomShown(next.k);
    const c = canvas.current;
    if (c) {
      c.style.cursor = next.k > 1 ? 'grab' : '';
      c.dataset.view = `${next.x.toFixed(1)},${next.y.toFixed(1)}`;
    }
  };
  const viewInfo = (): ViewInfo => ({ visible: visibleRect(view.current, fit.current), pxPerUnit: pxPerUnit(view.current, fit.current), zoom: view.current.k });
  // a new world (another chip) starts at "fit"
  const worldKey = world ? `${world.w}x${world.h}` : '';
  useEffect(() => {
    view.current = FIT_VIEW;
    viewVersion.current++;
    setZoomShown(1);
    if (canvas.current) {
      canvas.current.style.cursor = '';
      canvas.current.dataset.view = '0.0,0.0';
    }
  }, [worldKey]);

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => setWidth(Math.floor(entries[0]!.contentRect.width)));
    ro.observe(el);
    setWidth(Math.floor(el.getBoundingClientRect().width));
    return () => ro.disconnect();
  }, []);

  // wheel zoom about the pointer (a native listener: React's wheel listeners are passive);
  // zooming out at "fit" leaves the wheel to the page (it scrolls)
  useEffect(() => {
    const c = canvas.current;
    if (!c || !zoomable) return;
    const onWheel = (e: WheelEvent) => {
      const factor = wheelFactor(e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY);
      if (factor < 1 && view.current.k <= 1) return;
      e.preventDefault();
      const r = c.getBoundingClientRect();
      setView(zoomAt(view.current, factor, e.clientX - r.left, e.clientY - r.top, fit.current));
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  }, [zoomable]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || cssW <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(cssW * dpr);
    c.height = Math.round(cssH * dpr);
    c.style.width = `${cssW}px`;
    c.style.height = `${cssH}px`;
    // the size changed: keep the view inside the world at the new scale
    view.current = clampView(view.current, fit.current);
    const ctx = c.getContext('2d', { alpha: false })!;
    let drawn: unknown = Symbol('never');
    let drawnView = -1;
    let drawnLook = -1;
    let drawnAt = -Infinity;
    let seen: unknown = drawn;
    let visible = true;
    const io =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => (visible = entries[entries.length - 1]!.isIntersecting), { rootMargin: '64px' })
        : null;
    io?.observe(c);
    const s = world ? scale : k;
    const pw = world ? world.w : cssW / k;
    const ph = world ? world.h : cssH / k;
    let cache: HTMLCanvasElement | null = null;
    let cacheKey: string | null = null;
    /** Device pixels per world unit and the world point at the top-left, for the current view. */
    const transform = (target: CanvasRenderingContext2D) => {
      const v = view.current;
      const k = dpr * s * v.k;
      target.setTransform(k, 0, 0, k, -k * v.x, -k * v.y);
    };
    /** The static layer, repainted when its key (or the view) changes. */
    const paintStatic = (l: CanvasLayers): HTMLCanvasElement => {
      const v = view.current;
      const key = `${l.key}|${v.k},${v.x},${v.y}|${appearanceVersion()}`;
      if (cache && cacheKey === key) return cache;
      if (!cache) {
        cache = document.createElement('canvas');
        cache.width = c.width;
        cache.height = c.height;
      }
      const cc = cache.getContext('2d', { alpha: false })!;
      // every device pixel (an opaque canvas starts black; cssW x dpr may round below its width)
      cc.setTransform(1, 0, 0, 1, 0, 0);
      cc.fillStyle = palette.canvas;
      cc.fillRect(0, 0, cache.width, cache.height);
      transform(cc);
      l.drawStatic(new CanvasPainter(cc, pw, ph));
      cacheKey = key;
      return cache;
    };
    const remove = frameLoop.add((now) => {
      const v = latest.current.version();
      const vv = viewVersion.current;
      const look = appearanceVersion();
      if (v === drawn && vv === drawnView && look === drawnLook) return;
      const settled = v === seen;
      seen = v;
      if (!visible && !settled && vv === drawnView && now - drawnAt < OFFSCREEN_MS) return;
      drawn = v;
      drawnView = vv;
      drawnLook = look;
      drawnAt = now;
      const layers = latest.current.layers?.(viewInfo());
      if (layers) {
        const bg = paintStatic(layers);
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.drawImage(bg, 0, 0);
        transform(ctx);
        layers.drawDynamic(new CanvasPainter(ctx, pw, ph));
        if (layers.dataset) for (const [k, val] of Object.entries(layers.dataset)) if (c.dataset[k] !== val) c.dataset[k] = val;
      } else {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.fillStyle = palette.canvas;
        ctx.fillRect(0, 0, c.width, c.height);
        transform(ctx);
        latest.current.draw(new CanvasPainter(ctx, pw, ph));
      }
    });
    return () => {
      remove();
      io?.disconnect();
    };
  }, [cssW, cssH, scale, world, k]);

  // exports are drawn in the light theme (on a white page) at the chart's logical size
  const exportSize = () => (world ? { w: world.w, h: world.h } : { w: Math.max(cssW / k, 480), h: cssH / k });
  const exportSvg = () => {
    const { w, h } = exportSize();
    downloadText(`${safeName(props.id)}.svg`, withLightPalette(() => renderSvg(w, h, (p) => latest.current.draw(p))), 'image/svg+xml');
  };
  const exportPng = async () => {
    const { w, h } = exportSize();
    // renderPng draws at once (before its first await), inside withLightPalette
    const png = withLightPalette(() => renderPng(w, h, (p) => latest.current.draw(p), world ? 1.5 : 2));
    downloadBlob(`${safeName(props.id)}.png`, await png);
  };

  // pointer: hover and click in world coordinates; a drag (more than a few pixels) pans
  const drag = useRef<{ x: number; y: number; from: View; moved: boolean } | null>(null);
  const dragged = useRef(false);
  const local = (e: { clientX: number; clientY: number; currentTarget: HTMLCanvasElement }) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const report = (kind: 'move' | 'click' | 'leave', e: React.PointerEvent<HTMLCanvasElement> | React.MouseEvent<HTMLCanvasElement>) => {
    if (!props.onPointer) return;
    const p = local(e);
    const w = toWorld(view.current, p.x, p.y, fit.current);
    props.onPointer(w.x, w.y, kind, e, viewInfo());
  };
  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    dragged.current = false;
    if (!zoomable || e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, from: view.current, moved: false };
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (d && (e.buttons & 1) === 1) {
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.hypot(dx, dy) > 4) {
        d.moved = true;
        e.currentTarget.setPointerCapture?.(e.pointerId);
        e.currentTarget.style.cursor = 'grabbing';
      }
      if (d.moved) {
        setView(panBy(d.from, dx, dy, fit.current));
        return;
      }
    } else if (d) drag.current = null;
    report('move', e);
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d?.moved) {
      dragged.current = true;
      e.currentTarget.style.cursor = view.current.k > 1 ? 'grab' : '';
    }
  };
  const onClick = (e: React.MouseEvent<HTMLCanvasElement>) => {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    report('click', e);
  };
  const pointerHandlers = props.onPointer || zoomable;

  return (
    <section className={`card ${props.className ?? ''}`} data-testid={`view-${props.id}`}>
      <header className="card-head">
        <div>
          <h3>{props.title}</h3>
          {props.subtitle ? <p className="sub">{props.subtitle}</p> : null}
        </div>
        <div className="card-tools">
          {props.toolbar}
          {zoomable ? (
            <span className="zoom-tools" role="group" aria-label="Zoom">
              <button type="button" className="small" onClick={() => setView(zoomCentre(view.current, 1 / ZOOM_STEP, fit.current))} disabled={zoomShown <= 1} data-testid={`zoom-out-${props.id}`} title="Zoom out (wheel)" aria-label="Zoom out">
                −
              </button>
              <span className="zoom-level" data-testid={`zoom-level-${props.id}`} aria-live="polite">
                {Math.round(zoomShown * 100)}%
              </span>
              <button type="button" className="small" onClick={() => setView(zoomCentre(view.current, ZOOM_STEP, fit.current))} data-testid={`zoom-in-${props.id}`} title="Zoom in (wheel); drag to pan" aria-label="Zoom in">
                +
              </button>
              <button type="button" className="small" onClick={() => setView(FIT_VIEW)} disabled={zoomShown <= 1} data-testid={`zoom-fit-${props.id}`} title="Show the whole chip">
                fit
              </button>
            </span>
          ) : null}
          <button type="button" className="small" onClick={exportSvg} data-testid={`export-svg-${props.id}`} title="Download this view as SVG">
            SVG
          </button>
          <button type="button" className="small" onClick={() => void exportPng()} data-testid={`export-png-${props.id}`} title="Download this view as PNG">
            PNG
          </button>
        </div>
      </header>
      <div ref={wrap} className="canvas-wrap" style={world ? undefined : { height }}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${props.title}${props.table ? ' (the numbers are in the data table below)' : ''}`}
          {...props.canvasProps}
          data-testid={`canvas-${props.id}`}
          data-world-width={world?.w}
          data-zoom={zoomable ? zoomShown.toFixed(3) : undefined}
          style={zoomable ? { touchAction: zoomShown > 1 ? 'none' : 'pan-y' } : undefined}
          onPointerDown={pointerHandlers ? onPointerDown : undefined}
          onPointerMove={pointerHandlers ? onPointerMove : undefined}
          onPointerUp={pointerHandlers ? onPointerUp : undefined}
          onPointerLeave={props.onPointer ? (e) => report('leave', e) : undefined}
          onClick={props.onPointer ? onClick : undefined}
        />
        {props.children}
      </div>
      {props.table ? <DataTable id={props.id} table={props.table} version={props.version} /> : null}
    </section>
  );
}
