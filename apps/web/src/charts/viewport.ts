/**
 * Zoom and pan of a canvas that shows a world (the chip floorplan): pure functions over a
 * view { k, x, y }: k is the zoom relative to "fit" (1 = the whole world fits the canvas),
 * (x, y) the world point at the canvas's top-left corner. The canvas keeps its size; a view
 * only changes which part of the world it shows and how large.
 */
import type { Rect } from './chip-draw';

export interface View {
  k: number;
  x: number;
  y: number;
}

/** The world and how it fits its canvas: world units, and CSS pixels per world unit at fit. */
export interface Fit {
  w: number;
  h: number;
  scale: number;
}

export const FIT_VIEW: View = { k: 1, x: 0, y: 0 };

/** Zoom step of the buttons (and of one wheel notch, about). */
export const ZOOM_STEP = 1.5;

/** The largest zoom: at least 4x, and far enough in that a world unit is 2 CSS pixels. */
export function maxZoom(fit: Fit): number {
  return Math.max(4, fit.scale > 0 ? 2 / fit.scale : 4);
}

/** CSS pixels per world unit in `view`. */
export function pxPerUnit(view: View, fit: Fit): number {
  return fit.scale * view.k;
}

/** The part of the world the canvas shows, world units. */
export function visibleRect(view: View, fit: Fit): Rect {
  return { x: view.x, y: view.y, w: fit.w / view.k, h: fit.h / view.k };
}

/** Keeps k within [1, maxZoom] and the shown part inside the world. */
export function clampView(view: View, fit: Fit): View {
  const k = Math.min(maxZoom(fit), Math.max(1, Number.isFinite(view.k) ? view.k : 1));
  const maxX = fit.w - fit.w / k;
  const maxY = fit.h - fit.h / k;
  const x = Math.min(maxX, Math.max(0, Number.isFinite(view.x) ? view.x : 0));
  const y = Math.min(maxY, Math.max(0, Number.isFinite(view.y) ? view.y : 0));
  return { k, x, y };
}

/** The world point under canvas point (px, py) (CSS pixels from the canvas's top-left). */
export function toWorld(view: View, px: number, py: number, fit: Fit): { x: number; y: number } {
  const s = pxPerUnit(view, fit);
  return { x: view.x + px / s, y: view.y + py / s };
}

/** The canvas point (CSS pixels) where world point (wx, wy) is drawn. */
export function toCanvas(view: View, wx: number, wy: number, fit: Fit): { x: number; y: number } {
  const s = pxPerUnit(view, fit);
  return { x: (wx - view.x) * s, y: (wy - view.y) * s };
}

/** Zooms by `factor` keeping the world point under canvas point (px, py) where it is. */
export function zoomAt(view: View, factor: number, px: number, py: number, fit: Fit): View {
  const w = toWorld(view, px, py, fit);
  const k = Math.min(maxZoom(fit), Math.max(1, view.k * factor));
  const s = fit.scale * k;
  return clampView({ k, x: w.x - px / s, y: w.y - py / s }, fit);
}

/** Zooms about the canvas centre (the buttons). */
export function zoomCentre(view: View, factor: number, fit: Fit): View {
  return zoomAt(view, factor, (fit.w * fit.scale) / 2, (fit.h * fit.scale) / 2, fit);
}

/** Moves the world with the pointer by (dx, dy) CSS pixels (a drag). */
export function panBy(view: View, dx: number, dy: number, fit: Fit): View {
  const s = pxPerUnit(view, fit);
  return clampView({ k: view.k, x: view.x - dx / s, y: view.y - dy / s }, fit);
}

/** Wheel delta (pixels) to a zoom factor: one notch (100 px) is about ZOOM_STEP^0.5. */
export function wheelFactor(deltaY: number): number {
  const d = Math.max(-300, Math.min(300, deltaY));
  return Math.exp((-d / 100) * 0.5 * Math.log(ZOOM_STEP));
}

/** Whether two views show the same thing (to the hundredth of a world unit). */
export function sameView(a: View, b: View): boolean {
  return Math.abs(a.k - b.k) < 1e-9 && Math.abs(a.x - b.x) < 0.01 && Math.abs(a.y - b.y) < 0.01;
}
