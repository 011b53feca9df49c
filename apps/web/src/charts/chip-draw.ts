/**
 * The chip floorplan, drawn from the resolved chip: tiles (cores + MPB) at their mesh
 * positions, a router at each tile's corner, the two directed links between neighbouring
 * routers, memory controllers on the mesh edge beside their tile's router, voltage islands
 * as dashed outlines. Coordinates are world units; the caller scales.
 */
import { interpolateViridis, interpolateYlOrRd } from 'd3';
import { DIR_E, DIR_N, DIR_S, DIR_W, type ResolvedChip } from '@manycore/engine';
import { INK, MUTED, drawColorLegendBar, drawColorLegendTicks } from './draw';
import type { Painter, PathSink, Style } from './painter';

export const TILE = 100;
export const GAP = 46; // between tile columns (vertical link channel)
export const GAP_Y = 70; // between tile rows (horizontal link channel + island labels)
const ROUTER_DY = 21; // router centre below its tile
export const ROUTER_R = 11;
const PAD_SIDE = 104;
const PAD_TOP = 40;
const PAD_BOTTOM = 100; // legends

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ChipGeometry {
  width: number;
  height: number;
  tiles: Rect[];
  cores: Rect[];
  mpbs: Rect[];
  routers: { x: number; y: number }[];
  links: { id: number; from: number; to: number; x1: number; y1: number; x2: number; y2: number; dir: number }[];
  controllers: { rect: Rect; tile: number; side: 'left' | 'right' }[];
  islands: { rect: Rect; island: number }[];
  legendY: number;
}

export function chipGeometry(chip: ResolvedChip): ChipGeometry {
  const { width: W, height: H, coresPerTile: K } = chip.topo;
  const S = TILE + GAP;
  const SY = TILE + GAP_Y;
  const origin = (t: number) => ({ x: PAD_SIDE + (t % W) * S, y: PAD_TOP + Math.floor(t / W) * SY });
  const tiles: Rect[] = [];
  const cores: Rect[] = [];
  const mpbs: Rect[] = [];
  const routers: { x: number; y: number }[] = [];
  const cols = K <= 2 ? K : Math.ceil(Math.sqrt(K));
  const rows = Math.ceil(K / cols);
  for (let t = 0; t < chip.topo.tiles; t++) {
    const o = origin(t);
    tiles.push({ x: o.x, y: o.y, w: TILE, h: TILE });
    const areaW = TILE - 14;
    const areaH = TILE * 0.6;
    const cw = (areaW - (cols - 1) * 6) / cols;
    const ch = (areaH - (rows - 1) * 6) / rows;
    for (let k = 0; k < K; k++) {
      const c = k % cols;
      const r = Math.floor(k / cols);
      cores.push({ x: o.x + 7 + c * (cw + 6), y: o.y + 7 + r * (ch + 6), w: cw, h: ch });
    }
    mpbs.push({ x: o.x + 7, y: o.y + TILE * 0.6 + 13, w: TILE - 14, h: TILE * 0.4 - 20 });
    routers.push({ x: o.x + TILE + GAP / 2, y: o.y + TILE + ROUTER_DY });
  }
  const links: ChipGeometry['links'] = [];
  const off = 5;
  for (let t = 0; t < chip.topo.tiles; t++) {
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
  const controllers: ChipGeometry['controllers'] = [];
  for (let m = 0; m < chip.controllers; m++) {
    const tile = chip.controllerTile[m]!;
    const r = routers[tile]!;
    const left = tile % W < W / 2;
    const w = 78;
    const h = 40;
    const x = left ? PAD_SIDE - w - 14 : r.x + ROUTER_R + 16;
    controllers.push({ rect: { x, y: r.y - h / 2, w, h }, tile, side: left ? 'left' : 'right' });
  }
  const islands: ChipGeometry['islands'] = [];
  for (let i = 0; i < chip.islands; i++) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let t = 0; t < chip.topo.tiles; t++) {
      if (chip.islandOfTile[t] !== i) continue;
      const o = tiles[t]!;
      x0 = Math.min(x0, o.x);
      y0 = Math.min(y0, o.y);
      x1 = Math.max(x1, o.x + TILE);
      y1 = Math.max(y1, o.y + TILE);
    }
    if (Number.isFinite(x0)) islands.push({ island: i, rect: { x: x0 - 9, y: y0 - 24, w: x1 - x0 + 18, h: y1 - y0 + 24 + 9 } });
  }
  const width = PAD_SIDE + W * S + 96;
  const meshBottom = PAD_TOP + H * SY;
  return { width, height: meshBottom + PAD_BOTTOM, tiles, cores, mpbs, routers, links, controllers, islands, legendY: meshBottom + 30 };
}

export type Hit = { kind: 'core' | 'link' | 'controller' | 'tile' | 'router' | 'island'; id: number } | null;

function inside(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}

function segDist(px: number, py: number, l: { x1: number; y1: number; x2: number; y2: number }): number {
  const dx = l.x2 - l.x1;
  const dy = l.y2 - l.y1;
  const len = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((px - l.x1) * dx + (py - l.y1) * dy) / len));
  return Math.hypot(px - (l.x1 + t * dx), py - (l.y1 + t * dy));
}

export function hitTest(g: ChipGeometry, x: number, y: number): Hit {
  for (let i = 0; i < g.cores.length; i++) if (inside(g.cores[i]!, x, y)) return { kind: 'core', id: i };
  for (let m = 0; m < g.controllers.length; m++) if (inside(g.controllers[m]!.rect, x, y)) return { kind: 'controller', id: m };
  for (let t = 0; t < g.routers.length; t++) if (Math.hypot(g.routers[t]!.x - x, g.routers[t]!.y - y) <= ROUTER_R + 2) return { kind: 'router', id: t };
  let best = -1;
  let bestD = 5;
  for (const l of g.links) {
    const d = segDist(x, y, l);
    if (d < bestD) {
      bestD = d;
      best = l.id;
    }
  }
  if (best >= 0) return { kind: 'link', id: best };
  for (let t = 0; t < g.tiles.length; t++) if (inside(g.tiles[t]!, x, y)) return { kind: 'tile', id: t };
  for (const isl of g.islands) if (inside({ ...isl.rect, h: 22 }, x, y)) return { kind: 'island', id: isl.island };
  return null;
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
  controllerLabel(m: number): string;
  islandLabel(i: number): string;
  mpbValue?(tile: number): number;
  selected: number | null;
  hover: Hit;
  showLabels: boolean;
}

export const LINK_COLOR = (t: number) => interpolateYlOrRd(0.12 + 0.88 * t);
export const IDLE_LINK = '#d5dae0';
const LINK_LUT: string[] = Array.from({ length: 256 }, (_, i) => LINK_COLOR(i / 255));
/** LINK_COLOR in 256 steps (as the viridis ramp): no colour string is built per link and frame. */
export const linkColor = (t: number): string => LINK_LUT[Math.max(0, Math.min(255, Math.round(t * 255)))]!;

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

function mpbLevel(f: ChipFrame, tile: number): number {
  return f.mpbValue ? Math.min(1, f.mpbValue(tile)) : 0;
}

function legendWidth(g: ChipGeometry): number {
  return Math.min(300, (g.width - 2 * PAD_SIDE) / 2 - 30);
}
const LINK_LEGEND = 'Links: flits per µs (grey: idle)';

/**
 * The whole floorplan (what the SVG and PNG exports draw): the static layer, then the dynamic
 * one. The canvas view caches the static layer as a bitmap while `chipStaticKey` stays the
 * same and draws only the dynamic layer each frame. Shapes of the two layers do not overlap
 * where the order would matter (links run in the channels between tiles and end short of
 * the routers, island labels sit above the tiles), so the picture is the same either way.
 */
export function drawChip(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  drawChipStatic(p, g, f);
  drawChipDynamic(p, g, f);
}

/** What the static layer depends on besides the geometry. */
export function chipStaticKey(g: ChipGeometry, f: ChipFrame): string {
  let mpb = '';
  if (f.mpbValue) for (let t = 0; t < g.tiles.length; t++) if (mpbLevel(f, t) > 0) mpb += `${t},`;
  const h = f.hover && (f.hover.kind === 'tile' || f.hover.kind === 'router') ? `${f.hover.kind}${f.hover.id}` : '';
  return `${f.showLabels}|${f.coreTitle}|${h}|${mpb}`;
}

/** Island outlines, controller attachments, tiles with their MPBs (idle ones), routers, legend bars. */
export function drawChipStatic(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  for (const isl of g.islands) {
    p.rect(isl.rect.x, isl.rect.y, isl.rect.w, isl.rect.h, { stroke: '#8a94a3', lineWidth: 1.5, dash: [6, 4] }, 8);
  }
  for (const mc of g.controllers) {
    const r = g.routers[mc.tile]!;
    const edgeX = mc.side === 'left' ? mc.rect.x + mc.rect.w : mc.rect.x;
    p.line(edgeX, r.y, r.x, r.y, { stroke: '#4b5563', lineWidth: 4 });
  }
  for (let t = 0; t < g.tiles.length; t++) {
    const r = g.tiles[t]!;
    const hover = f.hover?.kind === 'tile' && f.hover.id === t;
    p.rect(r.x, r.y, r.w, r.h, { fill: '#f7f8fa', stroke: hover ? '#000' : '#9aa4b1', lineWidth: hover ? 2.5 : 1.25 }, 6);
    // router stub
    const q = g.routers[t]!;
    p.line(r.x + r.w - 4, r.y + r.h - 4, q.x, q.y, { stroke: '#6b7280', lineWidth: 2 });
    if (mpbLevel(f, t) <= 0) drawMpb(p, g, f, t, 0);
  }
  for (let t = 0; t < g.routers.length; t++) {
    const q = g.routers[t]!;
    const hover = f.hover?.kind === 'router' && f.hover.id === t;
    p.rect(q.x - ROUTER_R, q.y - ROUTER_R, ROUTER_R * 2, ROUTER_R * 2, { fill: '#4b5563', stroke: hover ? '#000' : '#1f2933', lineWidth: hover ? 2.5 : 1 }, 3);
    if (f.showLabels) p.text(q.x, q.y + 0.5, 'R', { size: 11, color: '#ffffff', anchor: 'middle', baseline: 'middle', weight: 'bold' });
  }
  const lw = legendWidth(g);
  drawColorLegendBar(p, PAD_SIDE, g.legendY + 14, lw, interpolateViridis, `Cores: ${f.coreTitle}`);
  drawColorLegendBar(p, PAD_SIDE + lw + 60, g.legendY + 14, lw, LINK_COLOR, LINK_LEGEND);
  p.text(PAD_SIDE, g.legendY + 58, 'Dashed outline: voltage island · dashed core: not running the workload · MC colour: controller busy share', { size: 12, color: MUTED });
}

function drawMpb(p: Painter, g: ChipGeometry, f: ChipFrame, t: number, mv: number): void {
  const mpb = g.mpbs[t]!;
  p.rect(mpb.x, mpb.y, mpb.w, mpb.h, { fill: '#e9edf2', stroke: '#9aa4b1', lineWidth: 1 }, 3);
  if (mv > 0) p.rect(mpb.x, mpb.y, mpb.w * mv, mpb.h, { fill: '#7fa7c9' }, 3);
  if (f.showLabels) p.text(mpb.x + mpb.w / 2, mpb.y + mpb.h / 2 + 0.5, 'MPB', { size: 11, color: '#3b4654', anchor: 'middle', baseline: 'middle' });
}

/** Links, controllers, island labels, busy MPBs, cores, legend ticks: everything the data moves. */
export function drawChipDynamic(p: Painter, g: ChipGeometry, f: ChipFrame): void {
  // links, one path per colour; then their direction ticks (at 70 % of the way)
  const lines = new Map<string, ChipGeometry['links']>();
  const ticks = new Map<string, ChipGeometry['links']>();
  let hovered: ChipGeometry['links'][number] | null = null;
  for (const l of g.links) {
    const v = f.linkValue(l.id);
    const t = f.linkMax > 0 ? Math.min(1, v / f.linkMax) : 0;
    const hot = v > 0;
    if (f.hover?.kind === 'link' && f.hover.id === l.id) hovered = l;
    else group(lines, hot ? linkColor(t) : IDLE_LINK, l);
    group(ticks, hot && t > 0.55 ? '#ffffff' : '#4b5563', l);
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
  if (hovered) p.line(hovered.x1, hovered.y1, hovered.x2, hovered.y2, { stroke: '#000', lineWidth: 7 });
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
    const u = Math.min(1, f.controllerUtil(m));
    const hover = f.hover?.kind === 'controller' && f.hover.id === m;
    p.rect(mc.rect.x, mc.rect.y, mc.rect.w, mc.rect.h, { fill: interpolateViridis(u), stroke: hover ? '#000' : '#374151', lineWidth: hover ? 3 : 1.5 }, 5);
    p.text(mc.rect.x + mc.rect.w / 2, mc.rect.y + 13, `MC${m}`, { size: 13, weight: 'bold', color: textOn(u), anchor: 'middle', baseline: 'middle' });
    p.text(mc.rect.x + mc.rect.w / 2, mc.rect.y + 29, f.controllerLabel(m), { size: 11.5, color: textOn(u), anchor: 'middle', baseline: 'middle' });
  });
  // island labels over the link channels
  if (f.showLabels)
    for (const isl of g.islands) {
      const label = f.islandLabel(isl.island);
      p.rect(isl.rect.x + 4, isl.rect.y + 4, p.measure(label, 12.5) + 8, 18, { fill: '#ffffff' }, 3);
      p.text(isl.rect.x + 8, isl.rect.y + 13, label, { size: 12.5, color: INK, baseline: 'middle' });
    }
  // MPBs that hold data
  if (f.mpbValue)
    for (let t = 0; t < g.tiles.length; t++) {
      const mv = mpbLevel(f, t);
      if (mv > 0) drawMpb(p, g, f, t, mv);
    }
  // cores: fills grouped by colour, outlines by style (cores never overlap), then labels
  const fills = new Map<string, Rect[]>();
  const outlines = new Map<string, Rect[]>();
  const levels = new Float64Array(g.cores.length);
  for (let c = 0; c < g.cores.length; c++) {
    const r = g.cores[c]!;
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
        ? { stroke: '#D55E00', lineWidth: 4 }
        : kind === 'hover'
          ? { stroke: '#000000', lineWidth: 3 }
          : kind === 'active'
            ? { stroke: '#1f2933', lineWidth: 1.5 }
            : { stroke: '#9aa4b1', lineWidth: 1, dash: [3, 2] };
    p.path((c) => rs.forEach((r) => roundRectPath(c, r, 4)), style);
  }
  if (f.showLabels)
    for (let c = 0; c < g.cores.length; c++) {
      const r = g.cores[c]!;
      p.text(r.x + r.w / 2, r.y + r.h / 2 + 0.5, String(c), { size: Math.min(16, r.h * 0.42), color: textOn(levels[c]!), anchor: 'middle', baseline: 'middle', weight: 'bold' });
    }
  // legend ticks
  const lw = legendWidth(g);
  drawColorLegendTicks(p, PAD_SIDE, g.legendY + 14, lw, f.coreMax, f.coreFormat);
  drawColorLegendTicks(p, PAD_SIDE + lw + 60, g.legendY + 14, lw, f.linkMax, (v) => (v >= 10 ? String(Math.round(v)) : v.toFixed(1)));
}
