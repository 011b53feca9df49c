/**
 * Mesh topology: tile coordinates, X-Y (dimension-ordered) routes and directed link ids.
 *
 * Units: hops. Invariants: tiles are numbered row-major (tile t at x = t mod width,
 * y = t div width); core c is on tile c div coresPerTile; a directed link id is
 * tile * 4 + direction (E, W, N, S = +x, -x, -y, +y) naming the link leaving that tile's
 * router. Routes go along x first, then y, so hops = |dx| + |dy|.
 */
export const DIR_E = 0;
export const DIR_W = 1;
export const DIR_N = 2;
export const DIR_S = 3;
export const DIR_NAMES = ['E', 'W', 'N', 'S'] as const;

export interface Topology {
  readonly width: number;
  readonly height: number;
  readonly tiles: number;
  readonly coresPerTile: number;
  readonly cores: number;
  readonly links: number; // directed link slots (tiles * 4; edge slots stay unused)
}

export function makeTopology(width: number, height: number, coresPerTile: number): Topology {
  const tiles = width * height;
  return { width, height, tiles, coresPerTile, cores: tiles * coresPerTile, links: tiles * 4 };
}

export function tileX(t: Topology, tile: number): number {
  return tile % t.width;
}
export function tileY(t: Topology, tile: number): number {
  return Math.floor(tile / t.width);
}
export function tileAt(t: Topology, x: number, y: number): number {
  return y * t.width + x;
}
export function coreTile(t: Topology, core: number): number {
  return Math.floor(core / t.coresPerTile);
}
export function tileHops(t: Topology, a: number, b: number): number {
  return Math.abs(tileX(t, a) - tileX(t, b)) + Math.abs(tileY(t, a) - tileY(t, b));
}
export function coreHops(t: Topology, a: number, b: number): number {
  return tileHops(t, coreTile(t, a), coreTile(t, b));
}

/**
 * Calls visit(linkId) for every directed link on the X-Y route from tile a to tile b.
 * Called by the weave phase for every transaction: no allocation.
 */
export function forEachRouteLink(t: Topology, a: number, b: number, visit: (link: number) => void): void {
  let x = tileX(t, a);
  let y = tileY(t, a);
  const bx = tileX(t, b);
  const by = tileY(t, b);
  while (x !== bx) {
    const dir = bx > x ? DIR_E : DIR_W;
    visit((y * t.width + x) * 4 + dir);
    x += bx > x ? 1 : -1;
  }
  while (y !== by) {
    const dir = by > y ? DIR_S : DIR_N;
    visit((y * t.width + x) * 4 + dir);
    y += by > y ? 1 : -1;
  }
}

/** The link ids that exist on the mesh (edges have no outgoing link in their direction). */
export function meshLinks(t: Topology): { id: number; from: number; to: number; dir: string }[] {
  const out: { id: number; from: number; to: number; dir: string }[] = [];
  for (let tile = 0; tile < t.tiles; tile++) {
    const x = tileX(t, tile);
    const y = tileY(t, tile);
    const nbrs: [number, number, number][] = [
      [DIR_E, x + 1, y],
      [DIR_W, x - 1, y],
      [DIR_N, x, y - 1],
      [DIR_S, x, y + 1],
    ];
    for (const [dir, nx, ny] of nbrs) {
      if (nx < 0 || ny < 0 || nx >= t.width || ny >= t.height) continue;
      out.push({ id: tile * 4 + dir, from: tile, to: tileAt(t, nx, ny), dir: DIR_NAMES[dir]! });
    }
  }
  return out;
}
