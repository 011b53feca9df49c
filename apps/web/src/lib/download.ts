/** Downloads built in the page (Blob + object URL); nothing leaves the browser. */
import { CanvasPainter, SvgPainter, type Painter } from '../charts/painter';

export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, mime: string): void {
  downloadBlob(name, new Blob([text], { type: mime }));
}

/** Renders a drawing to an SVG document. */
export function renderSvg(width: number, height: number, draw: (p: Painter) => void): string {
  const p = new SvgPainter(width, height);
  draw(p);
  return p.toString();
}

/** Renders a drawing to a PNG at `scale` x resolution. */
export async function renderPng(width: number, height: number, draw: (p: Painter) => void, scale = 2): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  draw(new CanvasPainter(ctx, width, height));
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
}

export function safeName(s: string): string {
  return s.replace(/[^a-z0-9._-]+/gi, '-').replace(/^-+|-+$/g, '').toLowerCase() || 'export';
}
