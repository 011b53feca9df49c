/**
 * A card holding one canvas view: sized to its container (device-pixel sharp), redrawn from
 * the frame loop only when `version()` changes, with SVG and PNG export of the same drawing.
 * A canvas out of the viewport is redrawn at most every OFFSCREEN_MS while its data keeps
 * changing (while a run goes every chart changes every frame, and each redraw costs the page
 * a raster and a copy of all the canvas's pixels to the compositor, far more than the drawing
 * commands), and at once when the data settles or the canvas scrolls into view.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CanvasPainter, type Painter } from '../charts/painter';
import { downloadBlob, downloadText, renderPng, renderSvg, safeName } from '../lib/download';
import { frameLoop } from '../sim/frame-loop';

/** Least time between redraws of a canvas outside the viewport while its data changes, ms. */
export const OFFSCREEN_MS = 1000;

export interface CanvasLayers {
  key: string;
  drawStatic(p: Painter): void;
  drawDynamic(p: Painter): void;
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
  layers?: () => CanvasLayers;
  version: () => unknown;
  onPointer?: (x: number, y: number, kind: 'move' | 'click' | 'leave', ev: { clientX: number; clientY: number }) => void;
  toolbar?: ReactNode;
  children?: ReactNode;
  className?: string;
}

export function CanvasCard(props: CanvasCardProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const latest = useRef(props);
  latest.current = props;
  const { world, height = 260, maxHeight = 900 } = props;
  const scale = world && width > 0 ? Math.min(width / world.w, maxHeight / world.h) : 1;
  const cssW = world ? world.w * scale : width;
  const cssH = world ? world.h * scale : height;

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => setWidth(Math.floor(entries[0]!.contentRect.width)));
    ro.observe(el);
    setWidth(Math.floor(el.getBoundingClientRect().width));
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const c = canvas.current;
    if (!c || cssW <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(cssW * dpr);
    c.height = Math.round(cssH * dpr);
    c.style.width = `${cssW}px`;
    c.style.height = `${cssH}px`;
    const ctx = c.getContext('2d', { alpha: false })!;
    let drawn: unknown = Symbol('never');
    let drawnAt = -Infinity;
    let seen: unknown = drawn;
    let visible = true;
    const io =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => (visible = entries[entries.length - 1]!.isIntersecting), { rootMargin: '64px' })
        : null;
    io?.observe(c);
    const s = world ? scale : 1;
    const pw = world ? world.w : cssW;
    const ph = world ? world.h : cssH;
    let cache: HTMLCanvasElement | null = null;
    let cacheKey: string | null = null;
    /** The static layer, repainted when its key changes. */
    const paintStatic = (l: CanvasLayers): HTMLCanvasElement => {
      if (cache && cacheKey === l.key) return cache;
      if (!cache) {
        cache = document.createElement('canvas');
        cache.width = c.width;
        cache.height = c.height;
      }
      const cc = cache.getContext('2d', { alpha: false })!;
      cc.setTransform(dpr, 0, 0, dpr, 0, 0);
      cc.fillStyle = '#ffffff';
      cc.fillRect(0, 0, cssW, cssH);
      cc.setTransform(dpr * s, 0, 0, dpr * s, 0, 0);
      l.drawStatic(new CanvasPainter(cc, pw, ph));
      cacheKey = l.key;
      return cache;
    };
    const remove = frameLoop.add((now) => {
      const v = latest.current.version();
      if (v === drawn) return;
      const settled = v === seen;
      seen = v;
      if (!visible && !settled && now - drawnAt < OFFSCREEN_MS) return;
      drawn = v;
      drawnAt = now;
      const layers = latest.current.layers?.();
      if (layers) {
        const bg = paintStatic(layers);
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.drawImage(bg, 0, 0);
        ctx.setTransform(dpr * s, 0, 0, dpr * s, 0, 0);
        layers.drawDynamic(new CanvasPainter(ctx, pw, ph));
      } else {
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        ctx.fillStyle = '#ffffff';
        ctx.fillRect(0, 0, cssW, cssH);
        ctx.setTransform(dpr * s, 0, 0, dpr * s, 0, 0);
        latest.current.draw(new CanvasPainter(ctx, pw, ph));
      }
    });
    return () => {
      remove();
      io?.disconnect();
    };
  }, [cssW, cssH, scale, world]);

  const exportSize = () => (world ? { w: world.w, h: world.h } : { w: Math.max(cssW, 480), h: cssH });
  const exportSvg = () => {
    const { w, h } = exportSize();
    downloadText(`${safeName(props.id)}.svg`, renderSvg(w, h, (p) => latest.current.draw(p)), 'image/svg+xml');
  };
  const exportPng = async () => {
    const { w, h } = exportSize();
    downloadBlob(`${safeName(props.id)}.png`, await renderPng(w, h, (p) => latest.current.draw(p), world ? 1.5 : 2));
  };
  const pointer = (kind: 'move' | 'click' | 'leave') => (e: React.PointerEvent<HTMLCanvasElement> | React.MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    props.onPointer?.((e.clientX - r.left) / scale, (e.clientY - r.top) / scale, kind, e);
  };

  return (
    <section className={`card ${props.className ?? ''}`} data-testid={`view-${props.id}`}>
      <header className="card-head">
        <div>
          <h3>{props.title}</h3>
          {props.subtitle ? <p className="sub">{props.subtitle}</p> : null}
        </div>
        <div className="card-tools">
          {props.toolbar}
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
          data-testid={`canvas-${props.id}`}
          data-world-width={world?.w}
          onPointerMove={props.onPointer ? pointer('move') : undefined}
          onPointerLeave={props.onPointer ? pointer('leave') : undefined}
          onClick={props.onPointer ? pointer('click') : undefined}
        />
        {props.children}
      </div>
    </section>
  );
}
