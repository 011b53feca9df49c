/**
 * The page map's data: each node's protected pages read from the run's state (layout.ts
 * `pageHdr` and `pages`, written by the engine's page protection, page-protection.ts), as
 * counts per node and as one row of pixels per node for the canvas (PageMap.tsx).
 *
 * Contract
 * - `read(views)` scans every node's header and levels (one pass over the protected pages,
 *   no allocation once sized): per node the protected range (base, pages, page bytes), whether
 *   its levels are visible (a range larger than the region keeps them private in the engine),
 *   and the counts invalid / read-only / read-write / twins (PAGE_MARK_TWIN); `valid` is
 *   read-only + read-write. Returns true when anything differs from the previous read (a hash
 *   of headers and levels), so the canvas redraws only then.
 * - `any` is true when some node protects pages: the view shows only where there is something
 *   to show (the data decide, not the chip or the workload). The map's rows are the nodes that
 *   have protected pages in any state read so far (`rowNode`, in node order; sticky, so rows
 *   do not move when the scrub bar goes back before a node protected its range).
 * - The page axis: the whole range (`maxPages`), or the active part (`activePages`): each
 *   visible node's range without its uniform tail (the trailing pages whose byte equals its
 *   last page's, but one), the largest over the nodes, never shrinking within a run, at least
 *   MIN_ACTIVE_PAGES; the pages beyond it are all alike on each node (the counts include them).
 * - `paint(v, columns, axisPages, out)` turns the levels into `columns` pixels per row over
 *   pages [0, axisPages): a column covering several pages gets the mean colour of its pages
 *   (area average, so a few read-write pages in many invalid ones still tint it) and a twin
 *   strip whose strength is the share of twinned pages. RGBA bytes, two pixel rows per map row
 *   (levels, twins). Nodes with fewer pages leave the rest of their row as background.
 * - `describe(node, page)` names one page: node, page index, address and state.
 * Reads shared memory racily while a run goes (as every live view); at a pause or scrubbed
 * snapshot the state is exact.
 */
import { PAGE_HDR, PAGE_HDR_SLOTS, PAGE_MARK_TWIN, PROT_MASK, PROT_NAMES, PROT_READ, PROT_READ_WRITE, type Layout } from '@manycore/engine';

/** What the page map reads of the run's views. */
export interface PageViews {
  layout: Pick<Layout, 'cores' | 'pagesPerCore'>;
  pageHdr: Float64Array;
  pages: Uint8Array;
}

// the engine's level constants as plain module constants (the page loops read them per page)
const MASK = PROT_MASK;
const TWIN = PAGE_MARK_TWIN;
const RO = PROT_READ;
const RW = PROT_READ_WRITE;

/** Counts per node, NCOUNT slots each. */
export const COUNT = { invalid: 0, readOnly: 1, readWrite: 2, twins: 3 } as const;
const NCOUNT = 4;
/** Fewest pages the active axis shows (a UI choice: a handful of pages is not worth a zoom). */
export const MIN_ACTIVE_PAGES = 64;

/** RGB of each level and of the twin marker (fixed colours, legible on the light and dark canvas). */
export const PAGE_COLOURS = {
  invalid: [0x9a, 0xa0, 0xa6],
  readOnly: [0x1a, 0x73, 0xe8],
  readWrite: [0x18, 0x80, 0x38],
  twin: [0xf2, 0x99, 0x00],
} as const;
const LEVEL_RGB = [PAGE_COLOURS.invalid, PAGE_COLOURS.readOnly, PAGE_COLOURS.readWrite, PAGE_COLOURS.invalid] as const;
/** Red, green, blue of each page byte's level (flat lookups for the paint loop). */
const LR = Uint8Array.from({ length: 256 }, (_, b) => LEVEL_RGB[b & 3]![0]);
const LG = Uint8Array.from({ length: 256 }, (_, b) => LEVEL_RGB[b & 3]![1]);
const LB = Uint8Array.from({ length: 256 }, (_, b) => LEVEL_RGB[b & 3]![2]);
const LT = Uint8Array.from({ length: 256 }, (_, b) => (b & PAGE_MARK_TWIN ? 1 : 0));

export function rgb(c: readonly number[]): string {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

export class PageMapData {
  readonly nodes: number;
  readonly regionPages: number;
  readonly base: Float64Array;
  readonly pages: Int32Array;
  readonly pageBytes: Int32Array;
  readonly visible: Uint8Array;
  /** nodes x NCOUNT (COUNT). */
  readonly counts: Int32Array;
  /** Some node protects pages. */
  any = false;
  /** The most pages any visible node protects (the whole page axis). */
  maxPages = 0;
  /** The active page axis (see the contract); sticky within a run. */
  activePages = 0;
  /** Map row -> node (the first `rows` entries). */
  readonly rowNode: Int32Array;
  rows = 0;
  private readonly seen: Uint8Array;
  /** Bumped when a read found a change. */
  version = 0;
  private hash = -1;

  constructor(layout: Pick<Layout, 'cores' | 'pagesPerCore'>) {
    this.nodes = layout.cores;
    this.regionPages = layout.pagesPerCore;
    const n = this.nodes;
    this.base = new Float64Array(n);
    this.pages = new Int32Array(n);
    this.pageBytes = new Int32Array(n);
    this.visible = new Uint8Array(n);
    this.counts = new Int32Array(n * NCOUNT);
    this.rowNode = new Int32Array(n);
    this.seen = new Uint8Array(n);
  }

  count(node: number, which: number): number {
    return this.counts[node * NCOUNT + which]!;
  }
  valid(node: number): number {
    return this.count(node, COUNT.readOnly) + this.count(node, COUNT.readWrite);
  }
  /** Sum over the nodes of one count. */
  total(which: number): number {
    let s = 0;
    for (let n = 0; n < this.nodes; n++) s += this.counts[n * NCOUNT + which]!;
    return s;
  }

  /** Reads every node's header and levels; true when anything changed since the last read. */
  read(v: PageViews): boolean {
    const ppc = this.regionPages;
    let h = 0x811c9dc5 | 0;
    let any = false;
    let maxPages = 0;
    let active = 0;
    let newRow = false;
    this.counts.fill(0);
    if (ppc > 0)
      for (let n = 0; n < this.nodes; n++) {
        const hb = n * PAGE_HDR_SLOTS;
        const pages = v.pageHdr[hb + PAGE_HDR.pages]!;
        const vis = v.pageHdr[hb + PAGE_HDR.visible] === 1 && pages <= ppc;
        this.base[n] = v.pageHdr[hb + PAGE_HDR.base]!;
        this.pages[n] = pages;
        this.pageBytes[n] = v.pageHdr[hb + PAGE_HDR.pageBytes]!;
        this.visible[n] = vis ? 1 : 0;
        h = Math.imul(h ^ (pages | 0), 16777619) ^ (vis ? 1 : 2) ^ (this.base[n] | 0);
        if (pages > 0) {
          any = true;
          if (!this.seen[n]) {
            this.seen[n] = 1;
            newRow = true;
          }
        }
        if (!vis) continue;
        if (pages > maxPages) maxPages = pages;
        const c = n * NCOUNT;
        const lv = v.pages;
        const start = n * ppc;
        let inv = 0;
        let ro = 0;
        let rw = 0;
        let tw = 0;
        for (let i = start, end = start + pages; i < end; i++) {
          const b = lv[i]!;
          const level = b & MASK;
          if (level === RW) rw++;
          else if (level === RO) ro++;
          else inv++;
          if (b & TWIN) tw++;
          h = Math.imul(h ^ (b + i), 16777619);
        }
        this.counts[c + COUNT.invalid] = inv;
        this.counts[c + COUNT.readOnly] = ro;
        this.counts[c + COUNT.readWrite] = rw;
        this.counts[c + COUNT.twins] = tw;
        if (pages > 0) {
          const tail = lv[start + pages - 1];
          let hi = pages - 1;
          while (hi > 0 && lv[start + hi - 1] === tail) hi--;
          if (hi + 1 > active) active = hi + 1;
        }
      }
    this.any = any;
    this.maxPages = maxPages;
    this.activePages = Math.min(maxPages, Math.max(this.activePages, active, MIN_ACTIVE_PAGES));
    if (newRow) {
      this.rows = 0;
      for (let n = 0; n < this.nodes; n++) if (this.seen[n]) this.rowNode[this.rows++] = n;
    }
    if (h === this.hash) return false;
    this.hash = h;
    this.version++;
    return true;
  }

  /**
   * Pixels of the map: `columns` wide over pages [0, axisPages), two pixel rows per map row
   * (levels, then twins), RGBA into `out` (columns x rows x 2 x 4 bytes); `bg` is the
   * background RGB. Uses the levels of the last read's views `v`.
   */
  paint(v: PageViews, columns: number, axisPages: number, out: Uint8ClampedArray, bg: readonly number[]): void {
    const ppc = this.regionPages;
    const axis = Math.max(1, axisPages);
    const rowBytes = columns * 4;
    for (let row = 0; row < this.rows; row++) {
      const n = this.rowNode[row]!;
      const lvRow = row * 2 * rowBytes;
      const twRow = lvRow + rowBytes;
      const pages = this.visible[n] ? this.pages[n]! : 0;
      const start = n * ppc;
      for (let col = 0; col < columns; col++) {
        const p0 = Math.floor((col * axis) / columns);
        const p1 = Math.max(p0 + 1, Math.floor(((col + 1) * axis) / columns));
        const o = lvRow + col * 4;
        const t = twRow + col * 4;
        if (p0 >= pages) {
          out[o] = out[t] = bg[0]!;
          out[o + 1] = out[t + 1] = bg[1]!;
          out[o + 2] = out[t + 2] = bg[2]!;
          out[o + 3] = out[t + 3] = 255;
          continue;
        }
        const last = Math.min(p1, pages);
        let r = 0;
        let g = 0;
        let b = 0;
        let tw = 0;
        const lv = v.pages;
        for (let p = start + p0, end = start + last; p < end; p++) {
          const byte = lv[p]!;
          r += LR[byte]!;
          g += LG[byte]!;
          b += LB[byte]!;
          tw += LT[byte]!;
        }
        const k = last - p0;
        out[o] = r / k;
        out[o + 1] = g / k;
        out[o + 2] = b / k;
        out[o + 3] = 255;
        const a = tw / k;
        const m = PAGE_COLOURS.twin;
        out[t] = bg[0]! + (m[0] - bg[0]!) * a;
        out[t + 1] = bg[1]! + (m[1] - bg[1]!) * a;
        out[t + 2] = bg[2]! + (m[2] - bg[2]!) * a;
        out[t + 3] = 255;
      }
    }
  }

  /** One page by name: node, page index, address and state (from the views `v`); null when not a page of a visible range. */
  describe(v: PageViews, node: number, page: number): string | null {
    if (node < 0 || node >= this.nodes || !this.visible[node] || page < 0 || page >= this.pages[node]!) return null;
    const byte = v.pages[node * this.regionPages + page]!;
    const addr = this.base[node]! + page * this.pageBytes[node]!;
    return `node ${node} · page ${page} at 0x${addr.toString(16)} (${this.pageBytes[node]} B) · ${PROT_NAMES[byte & MASK] ?? 'invalid'}${byte & TWIN ? ' · twin' : ''}`;
  }

  /** A row's state in words, for nodes without a visible map. */
  rowNote(node: number): string {
    const pages = this.pages[node]!;
    if (pages <= 0) return 'no protected pages';
    if (!this.visible[node]) return `not visible: ${pages} pages of ${this.pageBytes[node]} B exceed the ${this.regionPages}-page map`;
    return '';
  }
}
