/**
 * The page levels in the shared state (layout.ts `pageHdr` / `pages`, page-protection.ts
 * SharedPageState): what the web's page map reads. The cluster gives every node a region of
 * privateBytes / 4096 pages; the SCC and TILE64 none (their state keeps its size).
 */
import { describe, expect, it } from 'vitest';
import type { ClusterCore } from './chips/cluster/core';
import { resolveChip } from './chips/registry';
import { computeLayout, PAGE_HDR, PAGE_HDR_SLOTS } from './layout';
import { PAGE_MARK_TWIN, PROT_NONE, PROT_READ, PROT_READ_WRITE } from './page-protection';
import type { Results } from './results';
import { Simulation } from './simulation';
import { experimentFor, programWorkload, type ProgramRun } from './testing';

function run(r: ProgramRun<ClusterCore>): Simulation & { results: Results } {
  const sim = new Simulation(experimentFor(r), { 'test-program': programWorkload(r) }, { layout: { wlogCap: 4096, txnCap: 2048 } });
  return Object.assign(sim, { results: sim.runInline() });
}

describe('page regions in the layout', () => {
  it('the cluster holds privateBytes / 4096 pages per node; the SCC and TILE64 have no page regions', () => {
    const cluster = computeLayout(resolveChip('cluster-1999'));
    expect(cluster.pagesPerCore).toBe((64 * 1024 * 1024) / 4096);
    expect(cluster.off.pages - cluster.off.pageHdr).toBe(32 * PAGE_HDR_SLOTS * 8);
    expect(cluster.stateBytes - cluster.off.pages).toBe(32 * 16384);
    for (const preset of ['scc', 'tile64']) {
      const L = computeLayout(resolveChip(preset));
      expect(L.pagesPerCore).toBe(0);
      // nothing after the epoch log: the state ends where it ended before the page regions
      expect(L.off.pageHdr).toBe(L.stateBytes);
      expect(L.off.pages).toBe(L.stateBytes);
      expect(L.off.epochLog + 65536 * 8).toBe(L.stateBytes);
    }
  });
});

describe('page levels visible in the shared views', () => {
  it('enable writes the header; mprotect and marks show in the pages region; marks do not change what faults', () => {
    const got: Array<string | boolean> = [];
    let base = 0;
    const sim = run({
      preset: 'cluster-1999',
      cores: [0, 1],
      *program(core) {
        if (core.id !== 1) return;
        base = core.privateBase + 65536;
        core.protectPages(base, 8 * 4096, 4096, PROT_NONE, function* () {});
        core.mprotect(2, PROT_READ_WRITE);
        core.mprotectRange(4, 2, PROT_READ);
        const pr = core.protection;
        pr.markPage(2, true);
        pr.markPage(5, true);
        pr.markPage(6, true);
        pr.markPage(6, false);
        // a mark is not a level: page 2 stays read-write, page 5 read-only, page 0 invalid
        got.push(pr.allows(base + 2 * 4096, true), pr.allows(base + 5 * 4096, false), pr.allows(base + 5 * 4096, true), pr.allows(base, false));
        got.push(`${pr.get(2)} ${pr.get(5)} ${pr.marked(2)} ${pr.marked(6)}`);
        core.storeF64(base + 2 * 4096, 1.5); // allowed
        try {
          core.storeF64(base + 5 * 4096, 1); // read-only though marked
        } catch (e) {
          got.push((e as Error).message);
        }
        core.mprotect(2, PROT_READ); // the level changes, the mark stays
        got.push(pr.marked(2));
      },
    });
    expect(got).toEqual([
      true,
      true,
      false,
      false,
      '2 1 true false',
      `core 1: store to 0x${(base + 5 * 4096).toString(16)} on read-only page 5: take the fault first (yield* core.touch(addr, bytes, true))`,
      true,
    ]);
    const v = sim.views;
    const h1 = v.pageHdr.subarray(PAGE_HDR_SLOTS, 2 * PAGE_HDR_SLOTS);
    expect([h1[PAGE_HDR.base], h1[PAGE_HDR.pages], h1[PAGE_HDR.pageBytes], h1[PAGE_HDR.visible]]).toEqual([base, 8, 4096, 1]);
    expect(Array.from(v.pageHdr.subarray(0, PAGE_HDR_SLOTS))).toEqual([0, 0, 0, 0]); // node 0 protects nothing
    const n = v.layout.pagesPerCore;
    expect(Array.from(v.pages.subarray(n, n + 8))).toEqual([PROT_NONE, PROT_NONE, PROT_READ | PAGE_MARK_TWIN, PROT_NONE, PROT_READ, PROT_READ | PAGE_MARK_TWIN, PROT_NONE, PROT_NONE]);
  });

  it('a range with more pages than the region keeps private levels and says so in the header; faults work the same', () => {
    let visible = true;
    const sim = run({
      preset: 'cluster-1999',
      chip: { memory: { privateBytes: 1 << 20 } }, // 256 pages of 4 KB per node in the region
      cores: [0],
      *program(core) {
        core.protectPages(core.privateBase, 1 << 20, 1024, PROT_NONE, function* (addr) {
          core.mprotect(Math.floor((addr - core.privateBase) / 1024), PROT_READ);
        });
        visible = core.protection.visible;
        yield* core.touch(core.privateBase + 5000, 8, false);
        core.loadF64(core.privateBase + 5000);
      },
    });
    expect(visible).toBe(false);
    const v = sim.views;
    expect(v.layout.pagesPerCore).toBe(256);
    expect(Array.from(v.pageHdr.subarray(0, PAGE_HDR_SLOTS))).toEqual([0x10000000, 1024, 1024, 0]);
    expect(v.pages.subarray(0, 256).every((b) => b === 0)).toBe(true); // untouched: the levels are private
    expect(sim.results.simulated.cores[0]).toMatchObject({ readFaults: 1, writeFaults: 0 });
  });

  it('rejects an unknown level and a mark that overlaps the level bits', () => {
    const errors: string[] = [];
    run({
      preset: 'cluster-1999',
      cores: [0],
      *program(core) {
        core.protectPages(core.privateBase, 4 * 4096, 4096, PROT_NONE, function* () {});
        for (const f of [() => core.protection.set(1, 3), () => core.protection.markPage(1, true, 2), () => core.protection.markPage(9, true)])
          try {
            f();
          } catch (e) {
            errors.push((e as Error).message);
          }
      },
    });
    expect(errors).toEqual([
      'page protection: unknown level 3 for page 1 (expected 0 invalid, 1 read-only or 2 read-write)',
      'page protection: mark 2 is not a mark bit (a bit above the level bits, e.g. PAGE_MARK_TWIN = 4)',
      'page protection: page 9 is outside the protected range (0..3)',
    ]);
  });
});
