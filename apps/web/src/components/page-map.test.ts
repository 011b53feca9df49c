import { describe, expect, it } from 'vitest';
import { PAGE_HDR_SLOTS, PAGE_MARK_TWIN, PROT_NONE, PROT_READ, PROT_READ_WRITE } from '@manycore/engine';
import { COUNT, PAGE_COLOURS, PageMapData, type PageViews } from './page-map';

/** A fake state: 3 nodes, a region of 8 pages each. */
function fake(): PageViews {
  const ppc = 8;
  const v: PageViews = { layout: { cores: 3, pagesPerCore: ppc }, pageHdr: new Float64Array(3 * PAGE_HDR_SLOTS), pages: new Uint8Array(3 * ppc) };
  // node 0: 6 pages of 4 KB at 0x10010000
  v.pageHdr.set([0x10010000, 6, 4096, 1], 0);
  v.pages.set([PROT_NONE, PROT_READ, PROT_READ | PAGE_MARK_TWIN, PROT_READ_WRITE | PAGE_MARK_TWIN, PROT_READ_WRITE, PROT_NONE], 0);
  // node 1: protects nothing; node 2: 20 pages, more than the region holds (not visible)
  v.pageHdr.set([0x10000000, 20, 1024, 0], 2 * PAGE_HDR_SLOTS);
  v.pages.set([PROT_READ_WRITE, PROT_READ_WRITE], 2 * ppc); // stale bytes that must not be counted
  return v;
}

describe('page map data', () => {
  it('counts invalid, read-only, read-write, valid and twins per node from the state', () => {
    const v = fake();
    const d = new PageMapData(v.layout);
    expect(d.read(v)).toBe(true);
    expect(d.any).toBe(true);
    expect([0, 1, 2].map((n) => [d.count(n, COUNT.invalid), d.count(n, COUNT.readOnly), d.count(n, COUNT.readWrite), d.valid(n), d.count(n, COUNT.twins)])).toEqual([
      [2, 2, 2, 4, 2],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
    expect(d.maxPages).toBe(6);
    expect(d.total(COUNT.twins)).toBe(2);
    expect(d.rowNote(1)).toBe('no protected pages');
    expect(d.rowNote(2)).toBe('not visible: 20 pages of 1024 B exceed the 8-page map');
    expect(d.describe(v, 0, 3)).toBe('node 0 · page 3 at 0x10013000 (4096 B) · read-write · twin');
    expect(d.describe(v, 0, 0)).toBe('node 0 · page 0 at 0x10010000 (4096 B) · invalid');
    expect(d.describe(v, 0, 6)).toBeNull();
    expect(d.describe(v, 2, 0)).toBeNull();
  });

  it('reports a change only when a level, a mark or a header changed', () => {
    const v = fake();
    const d = new PageMapData(v.layout);
    d.read(v);
    expect(d.read(v)).toBe(false);
    v.pages[1] = PROT_READ_WRITE; // page 1 of node 0 becomes writable
    expect(d.read(v)).toBe(true);
    expect(d.count(0, COUNT.readWrite)).toBe(3);
    v.pages[4] |= PAGE_MARK_TWIN;
    expect(d.read(v)).toBe(true);
    expect(d.count(0, COUNT.twins)).toBe(3);
    v.pageHdr[PAGE_HDR_SLOTS + 1] = 4; // node 1 starts protecting 4 pages (all invalid)
    v.pageHdr[PAGE_HDR_SLOTS + 3] = 1;
    expect(d.read(v)).toBe(true);
    expect(d.count(1, COUNT.invalid)).toBe(4);
  });

  it('the active axis drops each node\'s uniform tail, never shrinks, and keeps rows once a node protected pages', () => {
    const ppc = 200;
    const v: PageViews = { layout: { cores: 2, pagesPerCore: ppc }, pageHdr: new Float64Array(2 * PAGE_HDR_SLOTS), pages: new Uint8Array(2 * ppc).fill(PROT_READ) };
    v.pageHdr.set([0x10000000, 200, 4096, 1], PAGE_HDR_SLOTS); // node 1 only
    v.pages[ppc + 99] = PROT_NONE; // node 1: pages 100..199 all read-only (the tail)
    const d = new PageMapData(v.layout);
    d.read(v);
    expect([d.maxPages, d.activePages, d.rows, d.rowNode[0]]).toEqual([200, 101, 1, 1]);
    v.pages[ppc + 99] = PROT_READ; // uniform again: the axis stays
    d.read(v);
    expect(d.activePages).toBe(101);
    v.pageHdr.set([0x10000000, 10, 4096, 1], 0); // node 0 starts protecting: a row before node 1
    d.read(v);
    expect(Array.from(d.rowNode.subarray(0, d.rows))).toEqual([0, 1]);
    v.pageHdr.fill(0); // scrubbed back before either protected: rows stay, nothing counted
    d.read(v);
    expect([d.rows, d.any, d.total(COUNT.readOnly)]).toEqual([2, false, 0]);
  });

  it('shows nothing for a run without page regions or protected pages', () => {
    const none: PageViews = { layout: { cores: 4, pagesPerCore: 0 }, pageHdr: new Float64Array(0), pages: new Uint8Array(0) };
    const d = new PageMapData(none.layout);
    d.read(none);
    expect(d.any).toBe(false);
    const off = fake();
    off.pageHdr.fill(0);
    const e = new PageMapData(off.layout);
    e.read(off);
    expect(e.any).toBe(false);
  });

  it('paints one column per page, or the mean colour of the pages a column covers, and a twin strip', () => {
    const v = fake();
    const d = new PageMapData(v.layout);
    d.read(v);
    const bg = [255, 255, 255];
    // rows: the nodes that protect pages (node 0, and node 2 whose levels are not visible)
    expect(Array.from(d.rowNode.subarray(0, d.rows))).toEqual([0, 2]);
    const px = (cols: number) => {
      const out = new Uint8ClampedArray(cols * d.rows * 2 * 4);
      d.paint(v, cols, d.maxPages, out, bg);
      return (row: number, strip: 0 | 1, col: number) => Array.from(out.subarray(((row * 2 + strip) * cols + col) * 4, ((row * 2 + strip) * cols + col) * 4 + 3));
    };
    const one = px(6);
    expect(one(0, 0, 1)).toEqual([...PAGE_COLOURS.readOnly]);
    expect(one(0, 0, 3)).toEqual([...PAGE_COLOURS.readWrite]);
    expect(one(0, 1, 3)).toEqual([...PAGE_COLOURS.twin]);
    expect(one(0, 1, 4)).toEqual(bg);
    expect(one(1, 0, 0)).toEqual(bg); // node 2: not visible, drawn as background
    const three = px(3); // two pages per column
    const mean = (a: readonly number[], b: readonly number[]) => a.map((x, i) => Math.round((x + b[i]!) / 2));
    expect(three(0, 0, 0)).toEqual(mean(PAGE_COLOURS.invalid, PAGE_COLOURS.readOnly));
    expect(three(0, 1, 1)).toEqual([...PAGE_COLOURS.twin]); // pages 2 and 3 both twinned
    expect(three(0, 1, 0)).toEqual(bg);
  });
});
