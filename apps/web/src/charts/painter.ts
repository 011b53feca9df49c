/**
 * One drawing interface, two back ends: a 2D canvas (what the lab shows, fast enough for
 * 256-core views at animation-frame rate) and an SVG document (the "SVG" export of every
 * view). PNG export draws the same picture into an offscreen canvas.
 * Path building follows d3-path's interface, so d3-shape generators draw into either.
 */
import { path as d3path } from 'd3';

export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  arc(x: number, y: number, r: number, a0: number, a1: number, ccw?: boolean): void;
  rect(x: number, y: number, w: number, h: number): void;
  bezierCurveTo(a: number, b: number, c: number, d: number, e: number, f: number): void;
  quadraticCurveTo(a: number, b: number, c: number, d: number): void;
  arcTo(a: number, b: number, c: number, d: number, r: number): void;
}

export interface Style {
  fill?: string;
  stroke?: string;
  lineWidth?: number;
  dash?: number[];
  opacity?: number;
}

export interface TextStyle {
  size?: number;
  color?: string;
  anchor?: 'start' | 'middle' | 'end';
  baseline?: 'top' | 'middle' | 'bottom' | 'alphabetic';
  weight?: 'normal' | 'bold';
  rotate?: number; // degrees, around (x, y)
  font?: string;
}

export interface Painter {
  readonly width: number;
  readonly height: number;
  rect(x: number, y: number, w: number, h: number, style: Style, radius?: number): void;
  line(x1: number, y1: number, x2: number, y2: number, style: Style): void;
  path(build: (p: PathSink) => void, style: Style): void;
  circle(cx: number, cy: number, r: number, style: Style): void;
  text(x: number, y: number, text: string, style?: TextStyle): void;
  /** Approximate text width in px (layout of legends and labels). */
  measure(text: string, size?: number): number;
}

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export class CanvasPainter implements Painter {
  constructor(
    readonly ctx: CanvasRenderingContext2D,
    readonly width: number,
    readonly height: number,
  ) {}

  private apply(style: Style): void {
    const c = this.ctx;
    c.globalAlpha = style.opacity ?? 1;
    c.setLineDash(style.dash ?? []);
    if (style.lineWidth !== undefined) c.lineWidth = style.lineWidth;
  }

  rect(x: number, y: number, w: number, h: number, style: Style, radius = 0): void {
    const c = this.ctx;
    this.apply(style);
    c.beginPath();
    if (radius > 0) c.roundRect(x, y, w, h, radius);
    else c.rect(x, y, w, h);
    if (style.fill) {
      c.fillStyle = style.fill;
      c.fill();
    }
    if (style.stroke) {
      c.strokeStyle = style.stroke;
      c.stroke();
    }
    c.globalAlpha = 1;
  }
  line(x1: number, y1: number, x2: number, y2: number, style: Style): void {
    const c = this.ctx;
    this.apply(style);
    c.beginPath();
    c.moveTo(x1, y1);
    c.lineTo(x2, y2);
    c.strokeStyle = style.stroke ?? '#000';
    c.stroke();
    c.globalAlpha = 1;
  }
  path(build: (p: PathSink) => void, style: Style): void {
    const c = this.ctx;
    this.apply(style);
    c.beginPath();
    build(c as unknown as PathSink);
    if (style.fill) {
      c.fillStyle = style.fill;
      c.fill();
    }
    if (style.stroke) {
      c.strokeStyle = style.stroke;
      c.lineJoin = 'round';
      c.stroke();
    }
    c.globalAlpha = 1;
  }
  circle(cx: number, cy: number, r: number, style: Style): void {
    this.path((p) => p.arc(cx, cy, r, 0, Math.PI * 2), style);
  }
  text(x: number, y: number, text: string, s: TextStyle = {}): void {
    const c = this.ctx;
    c.globalAlpha = 1;
    c.font = `${s.weight ?? 'normal'} ${s.size ?? 12}px ${s.font ?? FONT}`;
    c.fillStyle = s.color ?? '#222';
    c.textAlign = s.anchor === 'middle' ? 'center' : s.anchor === 'end' ? 'right' : 'left';
    c.textBaseline = s.baseline ?? 'alphabetic';
    if (s.rotate) {
      c.save();
      c.translate(x, y);
      c.rotate((s.rotate * Math.PI) / 180);
      c.fillText(text, 0, 0);
      c.restore();
    } else c.fillText(text, x, y);
  }
  measure(text: string, size = 12): number {
    this.ctx.font = `normal ${size}px ${FONT}`;
    return this.ctx.measureText(text).width;
  }
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

function r2(x: number): string {
  return String(Math.round(x * 100) / 100);
}

export class SvgPainter implements Painter {
  private readonly parts: string[] = [];
  constructor(
    readonly width: number,
    readonly height: number,
    private readonly background = '#ffffff',
  ) {}

  private attrs(style: Style): string {
    const a: string[] = [];
    a.push(`fill="${style.fill ? escapeXml(style.fill) : 'none'}"`);
    if (style.stroke) a.push(`stroke="${escapeXml(style.stroke)}"`, `stroke-width="${r2(style.lineWidth ?? 1)}"`);
    if (style.dash && style.dash.length) a.push(`stroke-dasharray="${style.dash.map(r2).join(' ')}"`);
    if (style.opacity !== undefined && style.opacity < 1) a.push(`opacity="${r2(style.opacity)}"`);
    return a.join(' ');
  }
  rect(x: number, y: number, w: number, h: number, style: Style, radius = 0): void {
    const rr = radius > 0 ? ` rx="${r2(radius)}"` : '';
    this.parts.push(`<rect x="${r2(x)}" y="${r2(y)}" width="${r2(Math.max(0, w))}" height="${r2(Math.max(0, h))}"${rr} ${this.attrs(style)}/>`);
  }
  line(x1: number, y1: number, x2: number, y2: number, style: Style): void {
    this.parts.push(`<line x1="${r2(x1)}" y1="${r2(y1)}" x2="${r2(x2)}" y2="${r2(y2)}" ${this.attrs({ ...style, stroke: style.stroke ?? '#000', fill: undefined })} stroke-linecap="butt"/>`);
  }
  path(build: (p: PathSink) => void, style: Style): void {
    const p = d3path();
    build(p as unknown as PathSink);
    const d = p.toString();
    if (d) this.parts.push(`<path d="${d}" ${this.attrs(style)} stroke-linejoin="round"/>`);
  }
  circle(cx: number, cy: number, r: number, style: Style): void {
    this.parts.push(`<circle cx="${r2(cx)}" cy="${r2(cy)}" r="${r2(r)}" ${this.attrs(style)}/>`);
  }
  text(x: number, y: number, text: string, s: TextStyle = {}): void {
    const anchor = s.anchor ?? 'start';
    const base = { top: 'hanging', middle: 'central', bottom: 'text-after-edge', alphabetic: 'alphabetic' }[s.baseline ?? 'alphabetic'];
    const rot = s.rotate ? ` transform="rotate(${r2(s.rotate)} ${r2(x)} ${r2(y)})"` : '';
    this.parts.push(
      `<text x="${r2(x)}" y="${r2(y)}" font-size="${r2(s.size ?? 12)}" fill="${escapeXml(s.color ?? '#222')}" text-anchor="${anchor}" dominant-baseline="${base}"${s.weight === 'bold' ? ' font-weight="bold"' : ''}${rot}>${escapeXml(text)}</text>`,
    );
  }
  measure(text: string, size = 12): number {
    return text.length * size * 0.56;
  }
  toString(): string {
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}" font-family="${escapeXml(FONT)}">`,
      `<rect width="100%" height="100%" fill="${escapeXml(this.background)}"/>`,
      ...this.parts,
      '</svg>',
    ].join('\n');
  }
}

/**
 * A painter that draws through `inner` scaled by `k` about (ox, oy): what is drawn at local
 * (x, y) lands at (ox + k x, oy + k y), with line widths and text sizes scaled alike. Used to
 * keep legends of very large floorplans readable when the whole floorplan is shrunk to fit.
 */
export class ScaledPainter implements Painter {
  readonly width: number;
  readonly height: number;
  constructor(
    private readonly inner: Painter,
    private readonly k: number,
    private readonly ox: number,
    private readonly oy: number,
  ) {
    this.width = inner.width / k;
    this.height = inner.height / k;
  }
  private st(s: Style): Style {
    return {
      ...s,
      ...(s.lineWidth !== undefined ? { lineWidth: s.lineWidth * this.k } : s.stroke ? { lineWidth: this.k } : {}),
      ...(s.dash ? { dash: s.dash.map((d) => d * this.k) } : {}),
    };
  }
  private X(x: number): number {
    return this.ox + x * this.k;
  }
  private Y(y: number): number {
    return this.oy + y * this.k;
  }
  rect(x: number, y: number, w: number, h: number, style: Style, radius?: number): void {
    this.inner.rect(this.X(x), this.Y(y), w * this.k, h * this.k, this.st(style), radius === undefined ? undefined : radius * this.k);
  }
  line(x1: number, y1: number, x2: number, y2: number, style: Style): void {
    this.inner.line(this.X(x1), this.Y(y1), this.X(x2), this.Y(y2), this.st(style));
  }
  path(build: (p: PathSink) => void, style: Style): void {
    const { X, Y } = { X: (x: number) => this.X(x), Y: (y: number) => this.Y(y) };
    const k = this.k;
    this.inner.path((c) => {
      build({
        moveTo: (x, y) => c.moveTo(X(x), Y(y)),
        lineTo: (x, y) => c.lineTo(X(x), Y(y)),
        closePath: () => c.closePath(),
        arc: (x, y, r, a0, a1, ccw) => c.arc(X(x), Y(y), r * k, a0, a1, ccw),
        rect: (x, y, w, h) => c.rect(X(x), Y(y), w * k, h * k),
        bezierCurveTo: (a, b, cc, d, e, f) => c.bezierCurveTo(X(a), Y(b), X(cc), Y(d), X(e), Y(f)),
        quadraticCurveTo: (a, b, cc, d) => c.quadraticCurveTo(X(a), Y(b), X(cc), Y(d)),
        arcTo: (a, b, cc, d, r) => c.arcTo(X(a), Y(b), X(cc), Y(d), r * k),
      });
    }, this.st(style));
  }
  circle(cx: number, cy: number, r: number, style: Style): void {
    this.inner.circle(this.X(cx), this.Y(cy), r * this.k, this.st(style));
  }
  text(x: number, y: number, text: string, style: TextStyle = {}): void {
    this.inner.text(this.X(x), this.Y(y), text, { ...style, size: (style.size ?? 12) * this.k });
  }
  measure(text: string, size = 12): number {
    return this.inner.measure(text, size * this.k) / this.k;
  }
}
