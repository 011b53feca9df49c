/**
 * The chip floorplan, drawn from the chip family's description (FloorplanSpec:
 * familyOf(chip.family).floorplan(chip)), never from one family's constants: tiles (cores, and
 * the tile store the family names, e.g. the SCC's MPB or TILE64's home L2) at their mesh
 * positions, a router at each tile's corner, the two directed links between neighbouring
 * routers, memory controllers with the family's labels on the mesh edge beside their tile's
 * router, power domains as dashed outlines when the family has them, and tiles tinted by the
 * fill of the family's per-tile memory-side unit when it describes one (TILE64's home L2
 * slices; FloorplanSpec.unitOccupancy) with a third legend bar. Coordinates are world
 * units; the caller scales (and zooms: `visible` culls what is out of view, `detail` is the
 * level of detail the caller chose for its scale, see `levelOfDetail`).
 */
import { interpolateRdPu, interpolateViridis, interpolateYlOrRd } from 'd3';
import { DIR_E, DIR_N, DIR_S, DIR_W, type FloorplanSpec, type ResolvedChip } from '@manycore/engine';
import { controllerKind, floorplanOf } from '../lib/floorplan';
import { palette } from '../lib/theme';
import { drawColorLegendBar, drawColorLegendTicks } from './draw';
import { ScaledPainter, type Painter, type PathSink, type Style } from './painter';

export const TILE = 100;
export const GAP = 46; // between tile columns (vertical link channel)
export const GAP_Y = 70; // between tile rows (horizontal link channel + domain labels)
const ROUTER_DY = 21; // router centre below its tile
export const ROUTER_R = 11;
const PAD_SIDE = 104;
const PAD_TOP = 40;
const PAD_BOTTOM = 100; // legends
const CTRL_W = 78;
const CTRL_H = 40;
/** Room above the tiles for controllers on the top edge. */
const TOP_CTRL_ROOM = CTRL_H + 24;
/** Room below the last router row for controllers on the bottom edge. */
const BOTTOM_CTRL_ROOM = CTRL_H;
/** Room below the legend for the family's line on its per-tile unit. */
const UNIT_NOTE_ROOM = 20;

/**
 * Level of detail: below this many CSS pixels per tile the floorplan draws each tile as one
 * coloured cell (no cores, stores, routers or link arrows); zoom in for the cores.
 */
export const CELL_TILE_PX = 30;
export type Detail = 'cores' | 'cells';

/** The level of detail for a scale of `pxPerUnit` CSS pixels per world unit. */
export function levelOfDetail(pxPerUnit: number): Detail {
  return TILE * pxPerUnit < CELL_TILE_PX ? 'cells' : 'cores';
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Side = 'left' | 'right' | 'top' | 'bottom';

export interface ChipGeometry {
  width: number;
  height: number;
  /** Mesh width in tiles. */
  meshWidth: number;
  coresPerTile: number;
  tiles: Rect[];
  cores: Rect[];
  /** The tile store of each tile (below its cores), empty when the family's tiles hold none. */
  stores: Rect[];
  /** The family's name of the tile store ("MPB", "L2 (home)"), null when none. */
  storeLabel: string | null;
  routers: { x: number; y: number }[];
  links: { id: number; from: number; to: number; x1: number; y1: number; x2: number; y2: number; dir: number }[];
  controllers: { rect: Rect; tile: number; side: Side; label: string }[];
  /** What the controllers are called ("MC", "DDR"): the legend's words. */
  controllerKind: string;
  /** Power domains (outlines), as the family lists them; index = the domain's number. */
  domains: { rect: Rect; index: number; label: string }[];
  legendY: number;
  /** The family's sentence on its per-tile unit (e.g. which tile homes which pages): a second legend line; null when none. */
  unitNote: string | null;
  /** Scale of the legend (1 up to SCC-sized floorplans; larger meshes enlarge it to stay readable). */
  legendScale: number;
  /** Whether the legend's note is drawn a part per line (room for up to three lines). */
  wrapNotes: boolean;
}

/** The floorplan geometry of a resolved chip, from its family's FloorplanSpec. */
export function chipGeometry(chip: ResolvedChip, minLegendScale = 1): ChipGeometry {
  return floorplanGeometry(floorplanOf(chip), minLegendScale);
}

/** Which edge a controller attached to tile (x, y) sits on: left/right edges first (the SCC), then top/bottom. */
function controllerSide(x: number, y: number, W: number, H: number): Side {
  if (x === 0) return 'left';
  if (x === W - 1) return 'right';
  if (y === 0) return 'top';
  if (y === H - 1) return 'bottom';
  return x < W / 2 ? 'left' : 'right';
}

/**
 * `minLegendScale`: the least legend scale (the view asks for more when the legend's text would
 * be smaller than readable at its scale); a legend enlarged for that gets room for its notes
 * on lines of their own.
 */
export function floorplanGeometry(spec: FloorplanSpec, minLegendScale = 1): ChipGeometry {
  const { width: W, height: H, coresPerTile: K } = spec;
  const nTiles = W * H;
  const S = TILE + GAP;
  const SY = TILE + GAP_Y;
  const sides = spec.controllers.map((c) => controllerSide(c.tile % W, Math.floor(c.tile / W), W, H));
  const padTop = PAD_TOP + (sides.includes('top') ? TOP_CTRL_ROOM : 0);
  const origin = (t: number) => ({ x: PAD_SIDE + (t % W) * S, y: padTop + Math.floor(t / W) * SY });
  const tiles: Rect[] = [];
  const cores: Rect[] = [];
  const stores: Rect[] = [];
  const routers: { x: number; y: number }[] = [];
  const cols = K <= 2 ? K : Math.ceil(Math.sqrt(K));
  const rows = Math.ceil(K / cols);
  const store = spec.tileStore;
  for (let t = 0; t < nTiles; t++) {
    const o = origin(t);
    tiles.push({ x: o.x, y: o.y, w: TILE, h: TILE });
    const areaW = TILE - 14;
    const areaH = store ? TILE * 0.6 : TILE - 14;
    const cw = (areaW - (cols - 1) * 6) / cols;
    const ch = (areaH - (rows - 1) * 6) / rows;
    for (let k = 0; k < K; k++) {
      const c = k % cols;
      const r = Math.floor(k / cols);
      cores.push({ x: o.x + 7 + c * (cw + 6), y: o.y + 7 + r * (ch + 6), w: cw, h: ch });
    }
    if (store) stores.push({ x: o.x + 7, y: o.y + TILE * 0.6 + 13, w: TILE - 14, h: TILE * 0.4 - 20 });
    routers.push({ x: o.x + TILE + GAP / 2, y: o.y + TILE + ROUTER_DY });
  }
  const links: ChipGeometry['links'] = [];
  const off = 5;
  for (let t = 0; t < nTiles; t++) {
    const x = t % W;
    const y = Math.floor(t / W);
    const r = routers[t]!;
    const nb: [number, number, number][] = [
      [DIR_E, x + 1, y],
      [DIR_W, x - 1, y],
      [DIR_N, x, y - 1],
      [DIR_S, x, y + 1],
    ];
    for (const [dir, nx, ny] of nb) {
      if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
      const to = ny * W + nx;
      const q = routers[to]!;
      const id = t * 4 + dir;
      const g = ROUTER_R + 2;
      if (dir === DIR_E) links.push({ id, from: t, to, dir, x1: r.x + g, y1: r.y - off, x2: q.x - g, y2: q.y - off });
      if (dir === DIR_W) links.push({ id, from: t, to, dir, x1: r.x - g, y1: r.y + off, x2: q.x + g, y2: q.y + off });
      if (dir === DIR_S) links.push({ id, from: t, to, dir, x1: r.x + off, y1: r.y + g, x2: q.x + off, y2: q.y - g });
      if (dir === DIR_N) links.push({ id, from: t, to, dir, x1: r.x - off, y1: r.y - g, x2: q.x - off, y2: q.y + g });
    }
  }
  const controllers: ChipGeometry['controllers'] = spec.controllers.map((mc, m) => {
    const side = sides[m]!;
    const r = routers[mc.tile]!;
    let rect: Rect;
    if (side === 'left') rect = { x: PAD_SIDE - CTRL_W - 14, y: r.y - CTRL_H / 2, w: CTRL_W, h: CTRL_H };
    else if (side === 'right') rect = { x: r.x + ROUTER_R + 16, y: r.y - CTRL_H / 2, w: CTRL_W, h: CTRL_H };
    else if (side === 'top') rect = { x: r.x - CTRL_W / 2, y: PAD_TOP - 10, w: CTRL_W, h: CTRL_H };
    else rect = { x: r.x - CTRL_W / 2, y: r.y + ROUTER_R + 14, w: CTRL_W, h: CTRL_H };
    return { rect, tile: mc.tile, side, label: mc.label };
  });
  const domains: ChipGeometry['domains'] = [];
  spec.domains.forEach((d, i) => {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const t of d.tiles) {
      const o = tiles[t];
      if (!o) continue;
      x0 = Math.min(x0, o.x);
      y0 = Math.min(y0, o.y);
      x1 = Math.max(x1, o.x + TILE);
      y1 = Math.max(y1, o.y + TILE);
    }
    if (Number.isFinite(x0)) domains.push({ index: i, label: d.label, rect: { x: x0 - 9, y: y0 - 24, w: x1 - x0 + 18, h: y1 - y0 + 24 + 9 } });
  });
  const width = PAD_SIDE + W * S + 96;
  const meshBottom = padTop + H * SY + (sides.includes('bottom') ? BOTTOM_CTRL_ROOM : 0);
  // the legend keeps about its SCC size on screen when a large mesh is shrunk to fit the card
  // (estimated for a card about 1000 px wide and at most 760 px high)
  const unitNote = spec.unitOccupancy?.note ?? null;
  const wrapNotes = minLegendScale > 1;
  const padBottom = PAD_BOTTOM + (unitNote ? UNIT_NOTE_ROOM : 0) + (wrapNotes ? 2 * UNIT_NOTE_ROOM : 0);
  const fitEstimate = Math.min(1000 / width, 760 / (meshBottom + padBottom));
  const legendScale = Math.max(1, 0.8 / fitEstimate, minLegendScale);
  return {
    width,
    height: meshBottom + padBottom * legendScale,
    meshWidth: W,
    coresPerTile: K,
    tiles,
    cores,
    stores,
    storeLabel: store ? store.label : null,
    routers,
    links,
    controllers,
    controllerKind: controllerKind(spec),
    domains,
    legendY: meshBottom + 30 * legendScale,
    unitNote,
    legendScale,
    wrapNotes,
  };
}

export type Hit = { kind: 'core' | 'link' | 'controller' | 'tile' | 'router' | 'domain'; id: number } | null;

function inside(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x <= b.x + b.w && b.x <= a.x + a.w && a.y <= b.y + b.h && b.y <= a.y + a.h;
}

function segDist(px: number, py: number, l: { x1: number; y1: number; x2: number; y2: number }): number {
  const dx = l.x2 - l.x1;
  const dy = l.y2 - l.y1;
  const len = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((px - l.x1) * dx + (py - l.y1) * dy) / len));
  return Math.hypot(px - (l.x1 + t * dx), py - (l.y1 + t * dy));
}

/**
 * What is under world point (x, y). At the 'cells' level of detail cores are not drawn: a
 * point on a tile is the tile. `tolerance` widens the hit area of links and routers (world
 * units; the caller passes a few pixels' worth when zoomed out).
 */
export function hitTest(g: ChipGeometry, x: number, y: number, detail: Detail = 'cores', tolerance = 0): Hit {
  if (detail === 'cores') for (let i = 0; i < g.cores.length; i++) if (inside(g.cores[i]!, x, y)) return { kind: 'core', id: i };
  for (let m = 0; m < g.controllers.length; m++) if (inside(g.controllers[m]!.rect, x, y)) return { kind: 'controller', id: m };
  if (detail === 'cores')
    for (let t = 0; t < g.routers.length; t++) if (Math.hypot(g.routers[t]!.x - x, g.routers[t]!.y - y) <= ROUTER_R + 2 + tolerance) return { kind: 'router', id: t };
  let best = -1;
  let bestD = 5 + tolerance;
  for (const l of g.links) {
    // cheap reject before the distance
    if (x < Math.min(l.x1, l.x2) - bestD || x > Math.max(l.x1, l.x2) + bestD || y < Math.min(l.y1, l.y2) - bestD || y > Math.max(l.y1, l.y2) + bestD) continue;
    const d = segDist(x, y, l);
    if (d < bestD) {
      bestD = d;
      best = l.id;
    }
  }
  if (best >= 0) return { kind: 'link', id: best };
  for (let t = 0; t < g.tiles.length; t++) if (inside(g.tiles[t]!, x, y)) return { kind: 'tile', id: t };
  for (const d of g.domains) if (inside({ ...d.rect, h: 22 }, x, y)) return { kind: 'domain', id: d.index };
  return null;
}

export interface TileFill {
  value(tile: number): number;
  /** Upper end of the colour scale (lower end 0: a tile at 0 stays plain). */
  max: number;
  title: string;
  format(v: number): string;
  /** The text in a tile's store box (e.g. the store's name and the value), absent: the store's name. */
  storeText?(tile: number): string;
}

export interface ChipFrame {
  coreValue(core: number): number;
  coreMax: number;
  coreActive(core: number): boolean;
  coreFormat(v: number): string;
  coreTitle: string;
  linkValue(id: number): number;
  linkMax: number;
  controllerUtil(m: number): number;
  /** The second line of a controller's box (bandwidth); the first is the family's label. */
  controllerLabel(m: number): string;
  domainLabel(i: number): string;
  /** How full each tile's store is (0..1): drawn as a bar in the store; absent: not measured. */
  storeValue?(tile: number): number;
  /**
   * Tiles tinted by a value of their own (the fill of the family's per-tile unit, e.g. lines in
   * a home L2 slice), with a legend bar `title`; absent: plain tiles (the SCC).
   */
  tileFill?: TileFill;
  selected: number | null;
  hover: Hit;
  showLabels: boolean;
  /** Level of detail (default 'cores'). */
  detail?: Detail;
  /** The part of the world on screen: shapes entirely outside it are skipped (absent: draw all). */
  visible?: Rect;
  /**
   * The smallest readable text, in world units at the view's scale (absent: 0): labels in the
   * mesh grow to it as far as their box allows (lib/theme.ts MIN_CANVAS_TEXT_PX).
   */
  minText?: number;
  /**
   * A deadlock's wait-for cycles (engine wait-for.ts), each [a, b, ..., a]: drawn as arrows from
   * each core to the core it waits for, over everything else; absent or empty: none.
   */
  waitFor?: readonly (readonly number[])[];
}

export const LINK_COLOR = (t: number) => interpolateYlOrRd(0.12 + 0.88 * t);
/** A link that carried nothing (the theme's colour). */
export const idleLink = (): string => palette.idleLink;
const LINK_LUT: string[] = Array.from({ length: 256 }, (_, i) => LINK_COLOR(i / 255));
/** LINK_COLOR in 256 steps (as the viridis ramp): no colour string is built per link and frame. */
export const linkColor = (t: number): string => LINK_LUT[Math.max(0, Math.min(255, Math.round(t * 255)))]!;
/** Tile tints (TileFill): a light ramp, apart from the cores' viridis and the links' yellow to red. */
export const TILE_FILL_COLOR = (t: number) => interpolateRdPu(0.08 + 0.72 * t);
const TILE_FILL_LUT: string[] = Array.from({ length: 256 }, (_, i) => TILE_FILL_COLOR(i / 255));
export const tileFillColor = (t: number): string => TILE_FILL_LUT[Math.max(0, Math.min(255, Math.round(t * 255)))]!;
/** A tile cell none of whose cores runs the workload. */
export const idleCell = (): string => palette.idleCell;

/**
 * The size of a label in a box of w x h world units: `base`, grown to `min` (the smallest
 * readable size at the view's scale) as far as the box allows (a digit or letter is about
 * 0.62 of the size wide).
 */
export function fitText(text: string, base: number, w: number, h: number, min = 0): number {
  if (!(min > base)) return base;
  const room = Math.min(h * 0.8, (w * 0.92) / Math.max(1, text.length * 0.62));
  return Math.max(base, Math.min(min, room));
}

function textOn(fill01: number): string {
  return fill01 < 0.6 ? '#ffffff' : '#10151a';
}

/**
 * A rounded rectangle as a subpath, so that many of them fill or stroke in one call. It ends
 * where it starts, in the middle of a straight edge, so it needs no closePath (which costs
 * time in proportion to the path's length in Chromium's canvas, quadratic over a batch).
 */
function roundRectPath(c: PathSink, r: Rect, radius: number): void {
  const { x, y, w, h } = r;
  c.moveTo(x + w / 2, y);
  c.arcTo(x + w, y, x + w, y + h, radius);
  c.arcTo(x + w, y + h, x, y + h, radius);
  c.arcTo(x, y + h, x, y, radius);
  c.arcTo(x, y, x + w, y, radius);
  c.lineTo(x + w / 2, y);
}

/** Appends `item` to the list of `key` (grouping shapes that share a style). */
function group<T>(m: Map<string, T[]>, key: string, item: T): void {
  const list = m.get(key);
  if (list) list.push(item);
  else m.set(key, [item]);
}

function storeLevel(f: ChipFrame, tile: number): number {
  return f.storeValue ? Math.min(1, f.storeValue(tile)) : 0;
}

function shown(f: ChipFrame, r: Rect): boolean {
  return !f.visible || overlaps(r, f.visible);
}

function linkShown(f: ChipFrame, l: ChipGeometry['links'][number]): boolean {
  const v = f.visible;
  if (!v) return true;
  return Math.max(l.x1, l.x2) + 4 >= v.x && Math.min(l.x1, l.x2) - 4 <= v.x + v.w && Math.max(l.y1, l.y2) + 4 >= v.y && Math.min(l.y1, l.y2) - 4 <= v.y + v.h;
}

/** Width of each legend bar when the legend has `bars` of them side by side. */
function legendWidth(g: ChipGeometry, bars = 2): number {
  return Math.min(300, (g.width / g.legendScale - 2 * PAD_SIDE) / bars - 30);
}
function legendBars(f: ChipFrame): number {
  return f.tileFill ? 3 : 2;
}
const LINK_LEGEND = 'Links: flits per µs (grey: idle)';

/** The legend's painter and origin: local coordinates from (PAD_SIDE, legendY), scaled by legendScale. */
function legendPainter(p: Painter, g: ChipGeometry): { lp: Painter; x: number; y: number } {
  if (g.legendScale === 1) return { lp: p, x: PAD_SIDE, y: g.legendY };
  return { lp: new ScaledPainter(p, g.legendScale, PAD_SIDE, g.legendY), x: 0, y: 0 };
}

/** The legend's explanation line: only what this floorplan draws. */
export function legendNote(g: ChipGeometry, detail: Detail = 'cores'): string {
  const parts: string[] = [];
  if (g.domains.length > 0) parts.push('Dashed outline: voltage island');
  parts.push(detail === 'cells' ? 'cells: tiles, coloured by the mean of their running cores (grey: none runs; zoom in for cores)' : 'dashed core: not running the workload');
  if (g.controllers.length > 0) parts.push(`${g.controllerKind} colour: controller busy share`);
  return parts.join(' · ');
}

/**
 * The whole floorplan (what the SVG and PNG exports draw): the static layer, then the dynamic
 * one. The canvas view caches the static layer as a bitmap while `chipStaticKey` stays the
 * same and draws only the dynamic layer each frame. Shapes of the two layers do not overlap
 * where the order would matter (links run in the channels between tiles and end short of
 * the routers, domain labels sit above the tiles), so the picture is the same either way.
 */
export function drawChip(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  drawChipStatic(p, g, f);
  drawChipDynamic(p, g, f);
}

/** What the static layer depends on besides the geometry (and the view, which the canvas keys itself). */
export function chipStaticKey(g: ChipGeometry, f: ChipFrame): string {
  let store = '';
  if (f.storeValue && !f.tileFill && f.detail !== 'cells') for (let t = 0; t < g.tiles.length; t++) if (storeLevel(f, t) > 0) store += `${t},`;
  const h = f.hover && (f.hover.kind === 'tile' || f.hover.kind === 'router') ? `${f.hover.kind}${f.hover.id}` : '';
  const tint = f.tileFill ? `|tiles:${f.tileFill.title}` : '';
  return `${f.showLabels}|${f.coreTitle}|${h}|${store}|${f.detail ?? 'cores'}${tint}`;
}

/**
 * Domain outlines, controller attachments, tiles with their stores (idle ones), routers, legend
 * bars. With a tile fill the tints and all stores are dynamic (drawn over the plain tile), and
 * the router stubs start at the tile's corner, so that no tint covers them.
 */
export function drawChipStatic(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  const cells = f.detail === 'cells';
  const tinted = !!f.tileFill;
  for (const d of g.domains) {
    if (shown(f, d.rect)) p.rect(d.rect.x, d.rect.y, d.rect.w, d.rect.h, { stroke: palette.domainLine, lineWidth: 1.5, dash: [6, 4] }, 8);
  }
  for (const mc of g.controllers) {
    const r = g.routers[mc.tile]!;
    if (mc.side === 'left' || mc.side === 'right') {
      const edgeX = mc.side === 'left' ? mc.rect.x + mc.rect.w : mc.rect.x;
      p.line(edgeX, r.y, r.x, r.y, { stroke: palette.router, lineWidth: 4 });
    } else {
      const edgeY = mc.side === 'top' ? mc.rect.y + mc.rect.h : mc.rect.y;
      p.line(r.x, edgeY, r.x, r.y, { stroke: palette.router, lineWidth: 4 });
    }
  }
  if (!cells) {
    for (let t = 0; t < g.tiles.length; t++) {
      const r = g.tiles[t]!;
      if (!shown(f, { x: r.x, y: r.y, w: r.w + GAP, h: r.h + GAP_Y })) continue;
      const hover = f.hover?.kind === 'tile' && f.hover.id === t;
      p.rect(r.x, r.y, r.w, r.h, { fill: palette.tile, stroke: hover ? palette.hover : palette.tileLine, lineWidth: hover ? 2.5 : 1.25 }, 6);
      // router stub
      const q = g.routers[t]!;
      const inset = tinted ? 0 : 4;
      p.line(r.x + r.w - inset, r.y + r.h - inset, q.x, q.y, { stroke: palette.stub, lineWidth: 2 });
      if (g.stores.length > 0 && !tinted && storeLevel(f, t) <= 0) drawStore(p, g, f, t, 0);
    }
    for (let t = 0; t < g.routers.length; t++) {
      const q = g.routers[t]!;
      if (!shown(f, { x: q.x - ROUTER_R, y: q.y - ROUTER_R, w: 2 * ROUTER_R, h: 2 * ROUTER_R })) continue;
      const hover = f.hover?.kind === 'router' && f.hover.id === t;
      p.rect(q.x - ROUTER_R, q.y - ROUTER_R, ROUTER_R * 2, ROUTER_R * 2, { fill: palette.router, stroke: hover ? palette.hover : palette.ink, lineWidth: hover ? 2.5 : 1 }, 3);
      if (f.showLabels) p.text(q.x, q.y + 0.5, 'R', { size: fitText('R', 11, 2 * ROUTER_R, 2 * ROUTER_R, f.minText), color: palette.routerInk, anchor: 'middle', baseline: 'middle', weight: 'bold' });
    }
  }
  const { lp, x, y } = legendPainter(p, g);
  const lw = legendWidth(g, legendBars(f));
  drawColorLegendBar(lp, x, y + 14, lw, interpolateViridis, `Cores: ${f.coreTitle}`);
  drawColorLegendBar(lp, x + lw + 60, y + 14, lw, LINK_COLOR, LINK_LEGEND);
  if (f.tileFill) drawColorLegendBar(lp, x + 2 * (lw + 60), y + 14, lw, TILE_FILL_COLOR, `Tiles: ${f.tileFill.title}`);
  // the note on one line, or (an enlarged legend) a line for each part
  const note = legendNote(g, f.detail);
  const lines = g.wrapNotes ? note.split(' · ') : [note];
  lines.forEach((line, i) => lp.text(x, y + 58 + i * UNIT_NOTE_ROOM, line, { size: 12, color: palette.muted }));
  if (g.unitNote) lp.text(x, y + 58 + lines.length * UNIT_NOTE_ROOM, g.unitNote, { size: 12, color: palette.muted });
}

function drawStore(p: Painter, g: ChipGeometry, f: ChipFrame, t: number, level: number): void {
  const s = g.stores[t]!;
  p.rect(s.x, s.y, s.w, s.h, { fill: palette.store, stroke: palette.tileLine, lineWidth: 1 }, 3);
  if (level > 0) p.rect(s.x, s.y, s.w * level, s.h, { fill: palette.storeFill }, 3);
  const label = f.tileFill?.storeText ? f.tileFill.storeText(t) : g.storeLabel;
  if (f.showLabels && label) p.text(s.x + s.w / 2, s.y + s.h / 2 + 0.5, label, { size: fitText(label, 11, s.w, s.h, f.minText), color: palette.storeInk, anchor: 'middle', baseline: 'middle' });
}

/** Links, controllers, domain labels, busy stores, cores (or tile cells), legend ticks: everything the data moves. */
export function drawChipDynamic(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  const cells = f.detail === 'cells';
  // links, one path per colour; then their direction ticks (at 70 % of the way)
  const lines = new Map<string, ChipGeometry['links']>();
  const ticks = new Map<string, ChipGeometry['links']>();
  let hovered: ChipGeometry['links'][number] | null = null;
  for (const l of g.links) {
    if (!linkShown(f, l)) continue;
    const v = f.linkValue(l.id);
    const t = f.linkMax > 0 ? Math.min(1, v / f.linkMax) : 0;
    const hot = v > 0;
    if (f.hover?.kind === 'link' && f.hover.id === l.id) hovered = l;
    else group(lines, hot ? linkColor(t) : palette.idleLink, l);
    if (!cells) group(ticks, hot && t > 0.55 ? '#ffffff' : palette.router, l);
  }
  for (const [stroke, ls] of lines)
    p.path(
      (c) => {
        for (const l of ls) {
          c.moveTo(l.x1, l.y1);
          c.lineTo(l.x2, l.y2);
        }
      },
      { stroke, lineWidth: 5.5 },
    );
  if (hovered) p.line(hovered.x1, hovered.y1, hovered.x2, hovered.y2, { stroke: palette.hover, lineWidth: 7 });
  const a = 5;
  for (const [fill, ls] of ticks)
    p.path(
      (c) => {
        for (const l of ls) {
          const mx = l.x1 + (l.x2 - l.x1) * 0.7;
          const my = l.y1 + (l.y2 - l.y1) * 0.7;
          const ang = Math.atan2(l.y2 - l.y1, l.x2 - l.x1);
          c.moveTo(mx + Math.cos(ang) * a, my + Math.sin(ang) * a);
          c.lineTo(mx + Math.cos(ang + 2.4) * a, my + Math.sin(ang + 2.4) * a);
          c.lineTo(mx + Math.cos(ang - 2.4) * a, my + Math.sin(ang - 2.4) * a);
          // a fill closes every subpath itself (no closePath: see roundRectPath)
        }
      },
      { fill },
    );
  // controllers
  g.controllers.forEach((mc, m) => {
    if (!shown(f, mc.rect)) return;
    const u = Math.min(1, f.controllerUtil(m));
    const hover = f.hover?.kind === 'controller' && f.hover.id === m;
    p.rect(mc.rect.x, mc.rect.y, mc.rect.w, mc.rect.h, { fill: interpolateViridis(u), stroke: hover ? palette.hover : palette.ctrlLine, lineWidth: hover ? 3 : 1.5 }, 5);
    p.text(mc.rect.x + mc.rect.w / 2, mc.rect.y + 13, mc.label, { size: fitText(mc.label, 13, mc.rect.w, mc.rect.h / 2, f.minText), weight: 'bold', color: textOn(u), anchor: 'middle', baseline: 'middle' });
    p.text(mc.rect.x + mc.rect.w / 2, mc.rect.y + 29, f.controllerLabel(m), { size: fitText(f.controllerLabel(m), 11.5, mc.rect.w, mc.rect.h / 2.4, f.minText), color: textOn(u), anchor: 'middle', baseline: 'middle' });
  });
  // domain labels over the link channels
  if (f.showLabels)
    for (const d of g.domains) {
      if (!shown(f, { ...d.rect, h: 22 })) continue;
      const label = f.domainLabel(d.index);
      const size = Math.max(12.5, Math.min(f.minText ?? 0, 20));
      p.rect(d.rect.x + 4, d.rect.y + 13 - size * 0.72, p.measure(label, size) + 8, size * 1.44, { fill: palette.canvas }, 3);
      p.text(d.rect.x + 8, d.rect.y + 13, label, { size, color: palette.ink, baseline: 'middle' });
    }
  if (cells) drawCells(p, g, f);
  else drawCores(p, g, f);
  if (f.waitFor?.length) drawWaitFor(p, g, f.waitFor);
  // legend ticks
  const { lp, x, y } = legendPainter(p, g);
  const lw = legendWidth(g, legendBars(f));
  drawColorLegendTicks(lp, x, y + 14, lw, f.coreMax, f.coreFormat);
  drawColorLegendTicks(lp, x + lw + 60, y + 14, lw, f.linkMax, (v) => (v >= 10 ? String(Math.round(v)) : v.toFixed(1)));
  if (f.tileFill) drawColorLegendTicks(lp, x + 2 * (lw + 60), y + 14, lw, f.tileFill.max, f.tileFill.format);
}

/** The tile's tint level (0..1) under a tile fill, 0 without one. */
export function tileFillLevel(f: ChipFrame, tile: number): number {
  const tf = f.tileFill;
  if (!tf || !(tf.max > 0)) return 0;
  return Math.max(0, Math.min(1, tf.value(tile) / tf.max));
}

/** Tints of tiles whose value is above 0 (inside their outline, one path per colour), then every store over them. */
function drawTileFill(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  const fills = new Map<string, Rect[]>();
  const inset = 1.5; // inside the tile's outline (at most 2.5 wide, hovered)
  for (let t = 0; t < g.tiles.length; t++) {
    const r = g.tiles[t]!;
    if (!shown(f, r) || !(f.tileFill!.value(t) > 0)) continue;
    group(fills, tileFillColor(tileFillLevel(f, t)), { x: r.x + inset, y: r.y + inset, w: r.w - 2 * inset, h: r.h - 2 * inset });
  }
  for (const [fill, rs] of fills) p.path((c) => rs.forEach((r) => roundRectPath(c, r, 5)), { fill });
  for (let t = 0; t < g.stores.length; t++) if (shown(f, g.stores[t]!)) drawStore(p, g, f, t, storeLevel(f, t));
}

/** Cores: fills grouped by colour, outlines by style (cores never overlap), then labels; stores that hold data. */
function drawCores(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  if (f.tileFill) drawTileFill(p, g, f);
  else if (f.storeValue && g.stores.length > 0)
    for (let t = 0; t < g.tiles.length; t++) {
      const level = storeLevel(f, t);
      if (level > 0 && shown(f, g.stores[t]!)) drawStore(p, g, f, t, level);
    }
  const fills = new Map<string, Rect[]>();
  const outlines = new Map<string, Rect[]>();
  const drawn: number[] = [];
  const levels = new Float64Array(g.cores.length);
  for (let c = 0; c < g.cores.length; c++) {
    const r = g.cores[c]!;
    if (!shown(f, r)) continue;
    drawn.push(c);
    const v = f.coreValue(c);
    const t = f.coreMax > 0 ? Math.max(0, Math.min(1, v / f.coreMax)) : 0;
    levels[c] = t;
    const active = f.coreActive(c);
    const sel = f.selected === c;
    const hover = f.hover?.kind === 'core' && f.hover.id === c;
    group(fills, interpolateViridis(t), r);
    group(outlines, sel ? 'sel' : hover ? 'hover' : active ? 'active' : 'idle', r);
  }
  for (const [fill, rs] of fills) p.path((c) => rs.forEach((r) => roundRectPath(c, r, 4)), { fill });
  for (const [kind, rs] of outlines) {
    const style: Style =
      kind === 'sel'
        ? { stroke: palette.select, lineWidth: 4 }
        : kind === 'hover'
          ? { stroke: palette.hover, lineWidth: 3 }
          : kind === 'active'
            ? { stroke: palette.ink, lineWidth: 1.5 }
            : { stroke: palette.tileLine, lineWidth: 1, dash: [3, 2] };
    p.path((c) => rs.forEach((r) => roundRectPath(c, r, 4)), style);
  }
  if (f.showLabels)
    for (const c of drawn) {
      const r = g.cores[c]!;
      p.text(r.x + r.w / 2, r.y + r.h / 2 + 0.5, String(c), { size: fitText(String(c), Math.min(16, r.h * 0.42), r.w, r.h, f.minText), color: textOn(levels[c]!), anchor: 'middle', baseline: 'middle', weight: 'bold' });
    }
}

/** The tile's value at the 'cells' level: the mean over its running cores, or null when none runs. */
export function tileCellValue(g: ChipGeometry, f: ChipFrame, tile: number): number | null {
  const K = g.coresPerTile;
  let sum = 0;
  let n = 0;
  for (let c = tile * K; c < tile * K + K; c++) {
    if (!f.coreActive(c)) continue;
    sum += f.coreValue(c);
    n++;
  }
  return n > 0 ? sum / n : null;
}

/** Tiles as single cells (the 'cells' level of detail): one path per colour, square corners. */
function drawCells(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  const fills = new Map<string, Rect[]>();
  const K = g.coresPerTile;
  const selTile = f.selected !== null ? Math.floor(f.selected / K) : -1;
  const hoverTile = f.hover?.kind === 'tile' ? f.hover.id : f.hover?.kind === 'core' ? Math.floor(f.hover.id / K) : -1;
  for (let t = 0; t < g.tiles.length; t++) {
    const r = g.tiles[t]!;
    if (!shown(f, r)) continue;
    const v = tileCellValue(g, f, t);
    group(fills, v === null ? palette.idleCell : interpolateViridis(f.coreMax > 0 ? Math.max(0, Math.min(1, v / f.coreMax)) : 0), r);
  }
  for (const [fill, rs] of fills) p.path((c) => rs.forEach((r) => c.rect(r.x, r.y, r.w, r.h)), { fill });
  if (hoverTile >= 0 && hoverTile < g.tiles.length) {
    const r = g.tiles[hoverTile]!;
    p.rect(r.x, r.y, r.w, r.h, { stroke: palette.hover, lineWidth: 8 });
  }
  if (selTile >= 0 && selTile < g.tiles.length) {
    const r = g.tiles[selTile]!;
    p.rect(r.x, r.y, r.w, r.h, { stroke: palette.select, lineWidth: 12 });
  }
}

/** Colour of the wait-for arrows: the theme's error red is not in the palette; one that reads on every theme. */
const WAIT_FOR_STROKE = '#d62728';

/**
 * A deadlock's wait-for cycles: an arrow from the centre of each core to the core it waits for
 * (bent a little, so the two arrows of a pair do not overlap), with a head at the waited-for core.
 */
export function drawWaitFor(p: Painter, g: ChipGeometry, cycles: readonly (readonly number[])[]): void {
  for (const cycle of cycles)
    for (let i = 0; i + 1 < cycle.length; i++) {
      const a = g.cores[cycle[i]!];
      const b = g.cores[cycle[i + 1]!];
      if (!a || !b) continue;
      const x1 = a.x + a.w / 2;
      const y1 = a.y + a.h / 2;
      const x2 = b.x + b.w / 2;
      const y2 = b.y + b.h / 2;
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      // control point off the middle, to the left of the direction of travel
      const bend = Math.min(40, len * 0.25);
      const cx = (x1 + x2) / 2 + (-(y2 - y1) / len) * bend;
      const cy = (y1 + y2) / 2 + ((x2 - x1) / len) * bend;
      // stop short of the target core's centre: the head sits on its edge
      const stop = Math.min(b.w, b.h) * 0.35;
      const ang = Math.atan2(y2 - cy, x2 - cx);
      const ex = x2 - Math.cos(ang) * stop;
      const ey = y2 - Math.sin(ang) * stop;
      p.path(
        (c) => {
          c.moveTo(x1, y1);
          c.quadraticCurveTo(cx, cy, ex, ey);
        },
        { stroke: WAIT_FOR_STROKE, lineWidth: 4 },
      );
      const h = 12;
      p.path(
        (c) => {
          c.moveTo(ex, ey);
          c.lineTo(ex - Math.cos(ang - 0.45) * h, ey - Math.sin(ang - 0.45) * h);
          c.lineTo(ex - Math.cos(ang + 0.45) * h, ey - Math.sin(ang + 0.45) * h);
        },
        { fill: WAIT_FOR_STROKE },
      );
    }
}
