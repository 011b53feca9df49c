import { describe, expect, it } from 'vitest';
import { clampView, FIT_VIEW, maxZoom, panBy, pxPerUnit, toCanvas, toWorld, visibleRect, wheelFactor, zoomAt, zoomCentre, ZOOM_STEP, type Fit } from './viewport';

// a 4872 x 2860 world (the 32x16 mesh) shown 1000 px wide
const fit: Fit = { w: 4872, h: 2860, scale: 1000 / 4872 };

describe('zoom and pan of the chip canvas', () => {
  it('at fit the whole world is visible and canvas points map to world points by the fit scale', () => {
    expect(visibleRect(FIT_VIEW, fit)).toEqual({ x: 0, y: 0, w: 4872, h: 2860 });
    expect(toWorld(FIT_VIEW, 500, 100, fit)).toEqual({ x: 500 / fit.scale, y: 100 / fit.scale });
    expect(pxPerUnit(FIT_VIEW, fit)).toBe(fit.scale);
  });

  it('zooming about a point keeps the world point under it in place', () => {
    const px = 312;
    const py = 207;
    const before = toWorld(FIT_VIEW, px, py, fit);
    const v = zoomAt(FIT_VIEW, 3, px, py, fit);
    expect(v.k).toBe(3);
    const after = toWorld(v, px, py, fit);
    expect(after.x).toBeCloseTo(before.x, 9);
    expect(after.y).toBeCloseTo(before.y, 9);
    const c = toCanvas(v, before.x, before.y, fit);
    expect(c.x).toBeCloseTo(px, 9);
    expect(c.y).toBeCloseTo(py, 9);
    // and zooming back out by the same factor returns to fit
    const back = zoomAt(v, 1 / 3, px, py, fit);
    expect(back.k).toBeCloseTo(1, 12);
    expect(back.x).toBeCloseTo(0, 9);
    expect(back.y).toBeCloseTo(0, 9);
  });

  it('zoom stays between fit and the maximum, and the view inside the world', () => {
    expect(zoomAt(FIT_VIEW, 0.5, 10, 10, fit)).toEqual(FIT_VIEW);
    const max = maxZoom(fit);
    expect(max).toBeCloseTo(2 / fit.scale, 9); // 2 px per world unit at most
    expect(maxZoom({ w: 1000, h: 800, scale: 0.9 })).toBe(4);
    const deep = zoomAt(FIT_VIEW, 1e6, 999, 585, fit);
    expect(deep.k).toBe(max);
    const r = visibleRect(deep, fit);
    expect(r.x + r.w).toBeLessThanOrEqual(fit.w + 1e-9);
    expect(r.y + r.h).toBeLessThanOrEqual(fit.h + 1e-9);
    expect(clampView({ k: 2, x: -50, y: 1e9 }, fit)).toEqual({ k: 2, x: 0, y: fit.h / 2 });
    expect(clampView({ k: NaN, x: NaN, y: 5 }, fit)).toEqual(FIT_VIEW);
  });

  it('a drag moves the world with the pointer, clamped at the edges; at fit there is nothing to pan', () => {
    const v = zoomCentre(FIT_VIEW, 4, fit);
    expect(v.k).toBe(4);
    expect(v.x).toBeCloseTo((fit.w - fit.w / 4) / 2, 9); // centred
    const moved = panBy(v, 100, -50, fit);
    const s = pxPerUnit(v, fit);
    expect(moved.x).toBeCloseTo(v.x - 100 / s, 9);
    expect(moved.y).toBeCloseTo(v.y + 50 / s, 9);
    expect(panBy(v, 1e6, 1e6, fit)).toEqual({ k: 4, x: 0, y: 0 });
    expect(panBy(FIT_VIEW, 300, 300, fit)).toEqual(FIT_VIEW);
  });

  it('wheel: up zooms in, down zooms out, one notch is about half a button step', () => {
    expect(wheelFactor(-100)).toBeGreaterThan(1);
    expect(wheelFactor(100)).toBeLessThan(1);
    expect(wheelFactor(-100) * wheelFactor(-100)).toBeCloseTo(ZOOM_STEP, 9);
    expect(wheelFactor(-100000)).toBe(wheelFactor(-300)); // a fling is bounded
    expect(wheelFactor(0)).toBe(1);
  });
});
