import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coreHops, forEachRouteLink, makeTopology, meshLinks, tileHops } from './topology';

const scc = makeTopology(6, 4, 2);

describe('mesh topology', () => {
  it('has the hop examples of scc.md', () => {
    expect([1, 2, 4, 6, 47].map((c) => coreHops(scc, 0, c))).toEqual([0, 1, 2, 3, 8]);
  });

  it('routes X then Y along exactly hops links, all of which exist', () => {
    const exists = new Set(meshLinks(scc).map((l) => l.id));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 23 }), (a, b) => {
        const links: number[] = [];
        forEachRouteLink(scc, a, b, (l) => links.push(l));
        expect(links.length).toBe(tileHops(scc, a, b));
        for (const l of links) expect(exists.has(l)).toBe(true);
        // X first: every E/W link comes before every N/S link
        const dirs = links.map((l) => l % 4);
        const firstY = dirs.findIndex((d) => d >= 2);
        if (firstY >= 0) expect(dirs.slice(firstY).every((d) => d >= 2)).toBe(true);
      }),
    );
  });

  it('has 2 x (w-1) x h + 2 x w x (h-1) directed links', () => {
    expect(meshLinks(scc).length).toBe(2 * 5 * 4 + 2 * 6 * 3);
  });
});
