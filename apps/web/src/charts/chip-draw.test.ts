import { describe, expect, it } from 'vitest';
import { resolveChip } from '@manycore/engine';
import { CHIP_VARIANTS } from '../lib/chip-variants';
import { chipGeometry, chipStaticKey, drawChip, drawChipDynamic, drawChipStatic, ROUTER_R, type ChipFrame, type Rect } from './chip-draw';
import { SvgPainter } from './painter';

const chips = CHIP_VARIANTS.map((v) => ({ id: v.id, chip: resolveChip('scc', v.overrides) }));

function frame(seed: number, over: Partial<ChipFrame> = {}): ChipFrame {
  const v = (i: number) => ((i * 7919 + seed * 104729) % 1000) / 1000;
  return {
    coreValue: v,
    coreMax: 1,
    coreActive: (c) => c % 5 !== 0,
    coreFormat: (x) => x.toFixed(2),
    coreTitle: 'Utilisation (recent)',
    linkValue: (id) => (id % 3 === 0 ? 0 : v(id) * 40),
    linkMax: 40,
    controllerUtil: v,
    controllerLabel: (m) => `${v(m).toFixed(2)} GB/s`,
    islandLabel: (i) => `island ${i} · ${(v(i) * 3).toFixed(2)} W`,
    mpbValue: () => 0,
    selected: null,
    hover: null,
    showLabels: true,
    ...over,
  };
}

const svg = (w: number, h: number, draw: (p: SvgPainter) => void) => {
  const p = new SvgPainter(w, h);
  draw(p);
  return p.toString();
};

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

describe('chip floorplan layers', () => {
  for (const { id, chip } of chips) {
    const g = chipGeometry(chip);
    it(`${id}: the static layer and its key do not depend on the data`, () => {
      const a = frame(1);
      const b = frame(2, { linkMax: 10, coreMax: 0.5 });
      expect(chipStaticKey(g, a)).toBe(chipStaticKey(g, b));
      expect(svg(g.width, g.height, (p) => drawChipStatic(p, g, a))).toBe(svg(g.width, g.height, (p) => drawChipStatic(p, g, b)));
      expect(svg(g.width, g.height, (p) => drawChipDynamic(p, g, a))).not.toBe(svg(g.width, g.height, (p) => drawChipDynamic(p, g, b)));
      // what changes the static layer changes its key
      expect(chipStaticKey(g, frame(1, { hover: { kind: 'tile', id: 3 } }))).not.toBe(chipStaticKey(g, a));
      expect(chipStaticKey(g, frame(1, { hover: { kind: 'router', id: 3 } }))).not.toBe(chipStaticKey(g, a));
      expect(chipStaticKey(g, frame(1, { mpbValue: (t) => (t === 2 ? 0.5 : 0) }))).not.toBe(chipStaticKey(g, a));
      expect(chipStaticKey(g, frame(1, { coreTitle: 'Power' }))).not.toBe(chipStaticKey(g, a));
      expect(chipStaticKey(g, frame(1, { hover: { kind: 'core', id: 3 } }))).toBe(chipStaticKey(g, a));
    });

    it(`${id}: drawChip draws both layers (the exports) with every core`, () => {
      const out = svg(g.width, g.height, (p) => drawChip(p, g, frame(3, { showLabels: chip.topo.cores <= 128 })));
      expect(out.startsWith('<svg')).toBe(true);
      expect(out.trim().endsWith('</svg>')).toBe(true);
      if (chip.topo.cores <= 128) expect(out).toContain(`>${chip.topo.cores - 1}</text>`);
      expect(out).toContain('Links: flits per µs');
    });

    it(`${id}: dynamic shapes drawn after static ones never overlap tiles or routers (same picture either order)`, () => {
      // tiles and routers with half of their widest (hovered) outline
      const statics: Rect[] = [
        ...g.tiles.map((t) => ({ x: t.x - 1.25, y: t.y - 1.25, w: t.w + 2.5, h: t.h + 2.5 })),
        ...g.routers.map((q) => ({ x: q.x - ROUTER_R - 1.25, y: q.y - ROUTER_R - 1.25, w: 2 * ROUTER_R + 2.5, h: 2 * ROUTER_R + 2.5 })),
      ];
      const half = 7 / 2; // the widest link stroke (hovered)
      for (const l of g.links) {
        // butt caps: the stroke widens a link across its direction only
        const across = l.y1 === l.y2 ? { x: 0, y: half } : { x: half, y: 0 };
        const band: Rect = { x: Math.min(l.x1, l.x2) - across.x, y: Math.min(l.y1, l.y2) - across.y, w: Math.abs(l.x2 - l.x1) + 2 * across.x, h: Math.abs(l.y2 - l.y1) + 2 * across.y };
        for (const r of statics) expect(overlaps(band, r), `link ${l.id}`).toBe(false);
      }
      for (const mc of g.controllers) for (const r of statics) expect(overlaps({ ...mc.rect, x: mc.rect.x - 1.5, w: mc.rect.w + 3 }, r)).toBe(false);
      for (const isl of g.islands) {
        const label: Rect = { x: isl.rect.x + 4, y: isl.rect.y + 4, w: 260, h: 18 };
        for (const r of statics) expect(overlaps(label, r), `island ${isl.island}`).toBe(false);
      }
    });
  }
});
