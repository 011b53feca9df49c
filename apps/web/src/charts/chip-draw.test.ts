import { describe, expect, it } from 'vitest';
import { resolveChip, type FloorplanSpec, type ResolvedChip } from '@manycore/engine';
import { CHIP_VARIANTS } from '../lib/chip-variants';
import { floorplanOf } from '../lib/floorplan';
import {
  CELL_TILE_PX,
  chipGeometry,
  chipStaticKey,
  drawChip,
  drawChipDynamic,
  drawChipStatic,
  floorplanGeometry,
  hitTest,
  legendNote,
  levelOfDetail,
  ROUTER_R,
  TILE,
  tileFillColor,
  type ChipFrame,
  type TileFill,
  type ChipGeometry,
  type Rect,
} from './chip-draw';
import { SvgPainter, type Painter, type PathSink, type Style, type TextStyle } from './painter';

const chips = CHIP_VARIANTS.map((v) => ({ id: v.id, chip: resolveChip(v.preset, v.overrides) }));

/** TILE64 as the engine resolves it, and its floorplan. */
function tile64Spec(): { spec: FloorplanSpec; resolved: ResolvedChip } {
  const chip = resolveChip('tile64');
  return { spec: floorplanOf(chip), resolved: chip };
}

/** A 1024-core SCC-tile mesh: the engine's `mesh` preset at 32x16. */
function mesh1024(): ResolvedChip {
  return resolveChip('mesh', { mesh: { width: 32, height: 16 } });
}

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
    domainLabel: (i) => `island ${i} · ${(v(i) * 3).toFixed(2)} W`,
    storeValue: () => 0,
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

/** Rects bucketed on a coarse grid: the rects a query rect may overlap, without scanning them all. */
function rectIndex(rects: Rect[], cell = 200): (q: Rect) => Rect[] {
  const m = new Map<string, Rect[]>();
  const cells = (r: Rect, f: (k: string) => void) => {
    for (let i = Math.floor(r.x / cell); i <= Math.floor((r.x + r.w) / cell); i++) for (let j = Math.floor(r.y / cell); j <= Math.floor((r.y + r.h) / cell); j++) f(`${i},${j}`);
  };
  for (const r of rects) cells(r, (k) => (m.get(k) ?? m.set(k, []).get(k)!).push(r));
  return (q) => {
    const out = new Set<Rect>();
    cells(q, (k) => m.get(k)?.forEach((r) => out.add(r)));
    return [...out];
  };
}

/** FNV-1a over the string's UTF-16 code units (a fingerprint of a drawing). */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

/** Counts the drawing calls (a batched layer makes few paths, whatever the number of cores). */
class CountingPainter implements Painter {
  paths = 0;
  rects = 0;
  texts = 0;
  lines = 0;
  subpaths = 0;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}
  rect(_x: number, _y: number, _w: number, _h: number, _s: Style): void {
    this.rects++;
  }
  line(): void {
    this.lines++;
  }
  path(build: (p: PathSink) => void, _s: Style): void {
    this.paths++;
    const count = () => void this.subpaths++;
    const nop = () => undefined;
    build({ moveTo: count, lineTo: nop, closePath: nop, arc: nop, rect: count, bezierCurveTo: nop, quadraticCurveTo: nop, arcTo: nop });
  }
  circle(): void {
    this.paths++;
  }
  text(_x: number, _y: number, _t: string, _s?: TextStyle): void {
    this.texts++;
  }
  measure(text: string, size = 12): number {
    return text.length * size * 0.56;
  }
}

/** Records filled round rects (as the bounding box of each subpath) and lines. */
class RecordingPainter implements Painter {
  fills: { fill: string; rect: Rect }[] = [];
  lines: { x1: number; y1: number; x2: number; y2: number }[] = [];
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}
  rect(): void {}
  circle(): void {}
  text(): void {}
  measure(text: string, size = 12): number {
    return text.length * size * 0.56;
  }
  line(x1: number, y1: number, x2: number, y2: number): void {
    this.lines.push({ x1, y1, x2, y2 });
  }
  path(build: (p: PathSink) => void, s: Style): void {
    const xs: number[] = [];
    const ys: number[] = [];
    const flush = () => {
      if (xs.length && s.fill) this.fills.push({ fill: s.fill, rect: { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) } });
      xs.length = 0;
      ys.length = 0;
    };
    const pt = (x: number, y: number) => void (xs.push(x), ys.push(y));
    const nop = () => undefined;
    build({
      moveTo: (x, y) => (flush(), pt(x, y)),
      lineTo: pt,
      arcTo: (x1, y1, x2, y2) => (pt(x1, y1), pt(x2, y2)),
      closePath: nop,
      arc: nop,
      rect: (x, y, w, h) => (flush(), pt(x, y), pt(x + w, y + h)),
      bezierCurveTo: nop,
      quadraticCurveTo: nop,
    });
    flush();
  }
}

/** The layer checks every floorplan must pass. */
function layerChecks(id: string, g: ChipGeometry, cores: number) {
  it(`${id}: the static layer and its key do not depend on the data`, () => {
    const a = frame(1);
    const b = frame(2, { linkMax: 10, coreMax: 0.5 });
    expect(chipStaticKey(g, a)).toBe(chipStaticKey(g, b));
    expect(svg(g.width, g.height, (p) => drawChipStatic(p, g, a))).toBe(svg(g.width, g.height, (p) => drawChipStatic(p, g, b)));
    expect(svg(g.width, g.height, (p) => drawChipDynamic(p, g, a))).not.toBe(svg(g.width, g.height, (p) => drawChipDynamic(p, g, b)));
    // what changes the static layer changes its key
    expect(chipStaticKey(g, frame(1, { hover: { kind: 'tile', id: 3 } }))).not.toBe(chipStaticKey(g, a));
    expect(chipStaticKey(g, frame(1, { hover: { kind: 'router', id: 3 } }))).not.toBe(chipStaticKey(g, a));
    expect(chipStaticKey(g, frame(1, { storeValue: (t) => (t === 2 ? 0.5 : 0) }))).not.toBe(chipStaticKey(g, a));
    expect(chipStaticKey(g, frame(1, { coreTitle: 'Power' }))).not.toBe(chipStaticKey(g, a));
    expect(chipStaticKey(g, frame(1, { detail: 'cells' }))).not.toBe(chipStaticKey(g, a));
    expect(chipStaticKey(g, frame(1, { hover: { kind: 'core', id: 3 } }))).toBe(chipStaticKey(g, a));
  });

  it(`${id}: drawChip draws both layers (the exports) with every core`, () => {
    const out = svg(g.width, g.height, (p) => drawChip(p, g, frame(3, { showLabels: cores <= 128 })));
    expect(out.startsWith('<svg')).toBe(true);
    expect(out.trim().endsWith('</svg>')).toBe(true);
    if (cores <= 128) expect(out).toContain(`>${cores - 1}</text>`);
    expect(out).toContain('Links: flits per µs');
  });

  it(`${id}: dynamic shapes drawn after static ones never overlap tiles or routers (same picture either order)`, () => {
    // tiles and routers with half of their widest (hovered) outline
    const statics: Rect[] = [
      ...g.tiles.map((t) => ({ x: t.x - 1.25, y: t.y - 1.25, w: t.w + 2.5, h: t.h + 2.5 })),
      ...g.routers.map((q) => ({ x: q.x - ROUTER_R - 1.25, y: q.y - ROUTER_R - 1.25, w: 2 * ROUTER_R + 2.5, h: 2 * ROUTER_R + 2.5 })),
    ];
    const near = rectIndex(statics);
    const half = 7 / 2; // the widest link stroke (hovered)
    const bad: string[] = [];
    for (const l of g.links) {
      // butt caps: the stroke widens a link across its direction only
      const across = l.y1 === l.y2 ? { x: 0, y: half } : { x: half, y: 0 };
      const band: Rect = { x: Math.min(l.x1, l.x2) - across.x, y: Math.min(l.y1, l.y2) - across.y, w: Math.abs(l.x2 - l.x1) + 2 * across.x, h: Math.abs(l.y2 - l.y1) + 2 * across.y };
      for (const r of near(band)) if (overlaps(band, r)) bad.push(`link ${l.id}`);
    }
    for (const mc of g.controllers) {
      const box = { x: mc.rect.x - 1.5, y: mc.rect.y - 1.5, w: mc.rect.w + 3, h: mc.rect.h + 3 };
      for (const r of near(box)) if (overlaps(box, r)) bad.push(`controller ${mc.label}`);
    }
    for (const d of g.domains) {
      const label: Rect = { x: d.rect.x + 4, y: d.rect.y + 4, w: 260, h: 18 };
      for (const r of near(label)) if (overlaps(label, r)) bad.push(`domain ${d.index}`);
    }
    expect(bad).toEqual([]);
  });
}

describe('chip floorplan layers', () => {
  for (const { id, chip } of chips) layerChecks(id, chipGeometry(chip), chip.topo.cores);
  const t64 = tile64Spec();
  layerChecks('tile64', floorplanGeometry(t64.spec), 64);
});

describe('the floorplan comes from the family (FloorplanSpec), not from SCC constants', () => {
  it('the SCC geometry is unchanged: tiles, cores, MPBs, controllers, islands where they were', () => {
    const g = chipGeometry(resolveChip('scc'));
    expect([g.width, g.height, g.legendY, g.legendScale]).toEqual([1076, 820, 750, 1]);
    expect(g.tiles).toHaveLength(24);
    expect(g.cores).toHaveLength(48);
    expect(g.stores).toHaveLength(24);
    expect(g.storeLabel).toBe('MPB');
    expect(g.links).toHaveLength(76);
    expect(g.tiles[0]).toEqual({ x: 104, y: 40, w: 100, h: 100 });
    expect(g.cores[0]).toEqual({ x: 111, y: 47, w: 40, h: 60 });
    expect(g.cores[47]).toEqual({ x: 887, y: 557, w: 40, h: 60 });
    expect(g.stores[23]).toEqual({ x: 841, y: 623, w: 86, h: 20 });
    expect(g.controllers.map((c) => [c.label, c.tile, c.side, c.rect])).toEqual([
      ['MC0', 0, 'left', { x: 12, y: 141, w: 78, h: 40 }],
      ['MC1', 5, 'right', { x: 984, y: 141, w: 78, h: 40 }],
      ['MC2', 12, 'left', { x: 12, y: 481, w: 78, h: 40 }],
      ['MC3', 17, 'right', { x: 984, y: 481, w: 78, h: 40 }],
    ]);
    expect(g.domains.map((d) => d.label)).toEqual(['island 0', 'island 1', 'island 2', 'island 3', 'island 4', 'island 5']);
    expect(g.domains[5]!.rect).toEqual({ x: 679, y: 356, w: 264, h: 303 });
    expect(legendNote(g)).toBe('Dashed outline: voltage island · dashed core: not running the workload · MC colour: controller busy share');
  });

  it('the SCC picture is the same drawing as before the family seam (SVG fingerprint)', () => {
    const g = chipGeometry(resolveChip('scc'));
    const out = svg(g.width, g.height, (p) => drawChip(p, g, frame(1, { selected: 3, storeValue: (t) => (t % 4 === 1 ? 0.5 : 0) })));
    // fingerprint of the pre-seam chip-draw output for this frame (SCC 6x4, labels, busy MPBs)
    expect([fnv(out), out.length]).toEqual(['f21ba878', 60785]);
  });

  it('TILE64: 64 one-core tiles with their home L2, 4 DDR controllers on the top and bottom edges, no island outlines', () => {
    const { resolved } = tile64Spec();
    const g = chipGeometry(resolved);
    expect(g.tiles).toHaveLength(64);
    expect(g.cores).toHaveLength(64);
    expect(g.coresPerTile).toBe(1);
    expect(g.storeLabel).toBe('L2 (home)');
    expect(g.stores).toHaveLength(64);
    expect(g.controllers).toHaveLength(4);
    expect(g.controllers.map((c) => c.label)).toEqual(['DDR0', 'DDR1', 'DDR2', 'DDR3']);
    expect(g.controllers.map((c) => c.side)).toEqual(['top', 'top', 'bottom', 'bottom']);
    expect(g.domains).toHaveLength(0);
    // each controller sits over (or under) its tile's router, clear of the tiles
    for (const c of g.controllers) expect(Math.abs(c.rect.x + c.rect.w / 2 - g.routers[c.tile]!.x)).toBeLessThan(1e-9);
    const out = svg(g.width, g.height, (p) => drawChip(p, g, frame(1)));
    expect(out).toContain('>L2 (home)</text>');
    expect(out).toContain('>DDR3</text>');
    expect(out).not.toContain('MPB');
    expect(out).not.toContain('island');
    expect(out).not.toContain('stroke-dasharray="6 4"'); // no domain outlines
    expect(legendNote(g)).toBe('dashed core: not running the workload · DDR colour: controller busy share');
  });

  it('a family without a tile store gives the cores the whole tile', () => {
    const g = floorplanGeometry({ width: 2, height: 2, coresPerTile: 4, tileStore: null, controllers: [{ tile: 0, label: 'MC0' }], domains: [], transactionBytes: 64 });
    expect(g.stores).toHaveLength(0);
    expect(g.storeLabel).toBeNull();
    const bottom = Math.max(...g.cores.slice(0, 4).map((c) => c.y + c.h));
    expect(bottom).toBeCloseTo(g.tiles[0]!.y + TILE - 7, 9);
    expect(svg(g.width, g.height, (p) => drawChip(p, g, frame(1)))).not.toContain('MPB');
  });
});

describe('tiles tinted by the fill of the family\'s per-tile unit (TILE64\'s home L2 slices)', () => {
  const { resolved } = tile64Spec();
  const g = chipGeometry(resolved);
  const fill = (seed: number, over: Partial<TileFill> = {}): TileFill => ({
    value: (t) => ((t * 31 + seed * 17) % 5 === 0 ? 0 : (t * 7 + seed) % 40),
    max: 40,
    title: 'lines in the home L2 slice (of 1024)',
    format: (v) => String(v),
    storeText: (t) => `L2 (home) · ${t}`,
    ...over,
  });

  it('the static layer does not depend on the values; the dynamic one draws tints, stores and a third legend bar', () => {
    const a = frame(1, { tileFill: fill(1) });
    const b = frame(1, { tileFill: fill(2, { max: 80 }) });
    expect(chipStaticKey(g, a)).toBe(chipStaticKey(g, b));
    expect(chipStaticKey(g, a)).not.toBe(chipStaticKey(g, frame(1))); // tinted or not changes the static layer
    const staticA = svg(g.width, g.height, (p) => drawChipStatic(p, g, a));
    expect(staticA).toBe(svg(g.width, g.height, (p) => drawChipStatic(p, g, b)));
    expect(staticA).toContain('Tiles: lines in the home L2 slice (of 1024)');
    expect(staticA).not.toContain('L2 (home)'); // every store is drawn over the tints
    const dynA = svg(g.width, g.height, (p) => drawChipDynamic(p, g, a));
    expect(dynA).not.toBe(svg(g.width, g.height, (p) => drawChipDynamic(p, g, b)));
    expect(dynA).toContain('>L2 (home) · 63</text>');
    expect(dynA).toContain(tileFillColor(39 / 40)); // tile 34 of seed 1: 39 of 40 lines
    expect(dynA).toContain('>40</text>'); // the tile legend's top tick
  });

  it('a tile at 0 stays plain, the tint stays inside the tile outline and clear of the router stub', () => {
    const p = new RecordingPainter(g.width, g.height);
    drawChipDynamic(p, g, frame(1, { tileFill: fill(1, { value: (t) => (t === 9 ? 20 : 0) }) }));
    const tints = p.fills.filter((f) => f.fill === tileFillColor(0.5));
    expect(tints).toHaveLength(1);
    const r = g.tiles[9]!;
    const tint = tints[0]!.rect;
    expect(tint.x).toBeGreaterThan(r.x + 1.25); // inside the widest (hovered) outline
    expect(tint.x + tint.w).toBeLessThan(r.x + r.w - 1.25);
    expect(tint.y + tint.h).toBeLessThan(r.y + r.h - 1.25);
    const st = new RecordingPainter(g.width, g.height);
    drawChipStatic(st, g, frame(1, { tileFill: fill(1) }));
    // tinted floorplans start the router stub at the tile's corner (outside the tint)
    expect(st.lines.some((l) => l.x1 === r.x + r.w && l.y1 === r.y + r.h)).toBe(true);
    expect(st.lines.some((l) => l.x1 > r.x && l.x1 < r.x + r.w && l.y1 > r.y && l.y1 < r.y + r.h)).toBe(false);
  });

  it('the family\'s homing note is a second legend line, inside the drawing', () => {
    expect(g.unitNote).toContain('k mod 64');
    const out = svg(g.width, g.height, (p) => drawChip(p, g, frame(1, { tileFill: fill(1) })));
    expect(out).toContain('Homing: shared page k on tile k mod 64');
    expect(g.legendY + 78 + 12).toBeLessThan(g.height);
    expect(chipGeometry(resolveChip('scc')).unitNote).toBeNull();
  });
});

describe('large meshes', () => {
  const chip = mesh1024();
  it('a 1024-core mesh builds its geometry quickly and draws at the cells level in a few batched paths', () => {
    const t0 = performance.now();
    const g = chipGeometry(chip);
    const ms = performance.now() - t0;
    expect(g.cores).toHaveLength(1024);
    expect(g.tiles).toHaveLength(512);
    expect(ms).toBeLessThan(250);
    // fit on a 1000 px card: a tile is ~20 px, below the per-core level of detail
    const fitScale = Math.min(1000 / g.width, 760 / g.height);
    expect(levelOfDetail(fitScale)).toBe('cells');
    expect(g.legendScale).toBeGreaterThan(3); // the legend stays readable at that scale
    const cells = new CountingPainter(g.width, g.height);
    const t1 = performance.now();
    drawChipDynamic(cells, g, frame(1, { detail: 'cells', showLabels: false }));
    const drawMs = performance.now() - t1;
    // one path per colour: at most 256 viridis + 256 link colours + idle, never one per core
    expect(cells.paths).toBeLessThan(600);
    expect(cells.texts).toBeLessThan(40); // controllers and legend ticks, no core numbers
    expect(drawMs).toBeLessThan(250);
    const full = new CountingPainter(g.width, g.height);
    drawChipDynamic(full, g, frame(1, { detail: 'cores', showLabels: false }));
    expect(full.subpaths).toBeGreaterThan(cells.subpaths); // cores and link arrows only at full detail
  });

  it('zoomed in, shapes out of view are skipped', () => {
    const g = chipGeometry(chip);
    const all = new CountingPainter(g.width, g.height);
    drawChipDynamic(all, g, frame(1, { showLabels: true }));
    const part = new CountingPainter(g.width, g.height);
    const visible = { x: g.tiles[0]!.x, y: g.tiles[0]!.y, w: 4 * (TILE + 46), h: 3 * (TILE + 70) };
    drawChipDynamic(part, g, frame(1, { showLabels: true, visible }));
    expect(part.texts).toBeLessThan(all.texts / 10);
    expect(part.subpaths).toBeLessThan(all.subpaths / 10);
    const st = new CountingPainter(g.width, g.height);
    drawChipStatic(st, g, frame(1, { visible }));
    const stAll = new CountingPainter(g.width, g.height);
    drawChipStatic(stAll, g, frame(1));
    expect(st.rects).toBeLessThan(stAll.rects / 10);
  });

  it('level of detail: cells below CELL_TILE_PX pixels per tile; at the cells level a point on a tile is the tile', () => {
    expect(levelOfDetail(CELL_TILE_PX / TILE - 0.001)).toBe('cells');
    expect(levelOfDetail(CELL_TILE_PX / TILE)).toBe('cores');
    const scc = chipGeometry(resolveChip('scc'));
    expect(levelOfDetail(Math.min(1000 / scc.width, 760 / scc.height))).toBe('cores'); // the SCC shows its cores at fit
    const c0 = scc.cores[0]!;
    expect(hitTest(scc, c0.x + 5, c0.y + 5)).toEqual({ kind: 'core', id: 0 });
    expect(hitTest(scc, c0.x + 5, c0.y + 5, 'cells')).toEqual({ kind: 'tile', id: 0 });
  });
});
