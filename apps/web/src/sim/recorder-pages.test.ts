/**
 * The recorder keeps the page-protection regions (layout.ts pageHdr / pages), so a scrubbed
 * page map shows the pages as they were at that boundary; the SCC's snapshot keeps its size.
 */
import { describe, expect, it } from 'vitest';
import { computeLayout, CTL, CTLF, freshState, PAGE_HDR_SLOTS, PAGE_MARK_TWIN, PROT_READ, PROT_READ_WRITE, resolveChip } from '@manycore/engine';
import { Recorder, scratchViews, snapshotBytes, snapshotRegions } from './recorder';

describe('recorder: page regions', () => {
  it('a snapshot holds each node\'s page header and levels; restore gives the state of its boundary', () => {
    const layout = computeLayout(resolveChip('cluster-1999', { nodes: { columns: 2, rows: 2 } }));
    expect(layout.pagesPerCore).toBe(16384);
    const v = freshState(layout);
    const rec = new Recorder(v, { clock: () => 0 });
    const ppc = layout.pagesPerCore;
    // boundary 1: node 2 protects 4 pages, page 1 read-only
    v.pageHdr.set([0x10010000, 4, 4096, 1], 2 * PAGE_HDR_SLOTS);
    v.pages[2 * ppc + 1] = PROT_READ;
    v.ctl[CTL.epoch] = 1;
    v.ctlF[CTLF.simTimePs] = 1_000_000;
    expect(rec.captureAtBoundary()).toBe(true);
    // boundary 2: page 1 read-write with a twin, page 3 read-only
    v.pages[2 * ppc + 1] = PROT_READ_WRITE | PAGE_MARK_TWIN;
    v.pages[2 * ppc + 3] = PROT_READ;
    v.ctl[CTL.epoch] = 2;
    v.ctlF[CTLF.simTimePs] = 2_000_000;
    expect(rec.captureAtBoundary()).toBe(true);
    const s = scratchViews(v);
    expect(rec.restore(1, s)).toBe(true);
    expect(Array.from(s.pageHdr.subarray(2 * PAGE_HDR_SLOTS, 3 * PAGE_HDR_SLOTS))).toEqual([0x10010000, 4, 4096, 1]);
    expect(Array.from(s.pages.subarray(2 * ppc, 2 * ppc + 4))).toEqual([0, PROT_READ, 0, 0]);
    expect(rec.restore(2, s)).toBe(true);
    expect(Array.from(s.pages.subarray(2 * ppc, 2 * ppc + 4))).toEqual([0, PROT_READ_WRITE | PAGE_MARK_TWIN, 0, PROT_READ]);
  });

  it('a snapshot grows by the page regions on the cluster only', () => {
    const cluster = computeLayout(resolveChip('cluster-1999'));
    const none = { ...cluster, pagesPerCore: 0 };
    expect(snapshotBytes(cluster) - snapshotBytes(none)).toBe(32 * PAGE_HDR_SLOTS * 8 + 32 * 16384);
    const scc = snapshotRegions(computeLayout(resolveChip('scc'))).regions;
    expect(scc.filter((r) => r.field === 'pageHdr' || r.field === 'pages').map((r) => r.bytes)).toEqual([0, 0]);
  });
});
