import { describe, expect, it } from 'vitest';
import { Simulation, type Results } from '@manycore/engine';
import { workloads } from '../../index';
import { gcTree, ITEM_BYTES, treeReference, treeRegion, treeValidate, type TreeSize } from './gc-tree';
import { runOnLocal } from './test-helper';

const tiny: TreeSize = { keys: 64, initialPairs: 40, rounds: 3, updatesPerRound: 30, searchesPerRound: 20, masterCells: 128, searcherCells: 16, itemCells: 64, seed: 1 };

describe('Tree (gc-tree) on the sequential runtime', () => {
  it('the shared tree and the results equal the plain-JavaScript reference; golden counts at the small size', () => {
    const r = runOnLocal(gcTree, gcTree.sizes.small);
    expect(r.check).toEqual({
      correct: true,
      detail: 'equal to the sequential run: final tree of 604 internal nodes, 605 leaves, 774 items (hash 608513730); 218 items found, 3246 allocations, 1 collections',
    });
    // the reference for 4 processors: the master collects once, every searcher once (its 128 cells hold its temporaries)
    const ref = treeReference(gcTree.sizes.small, 4);
    expect(ref.procs.map((p) => p.collections)).toEqual([1, 1, 1, 1]);
    expect(ref.procs.map((p) => p.found)).toEqual([218, 204, 197, 177]);
    expect(ref.procs.slice(1).map((p) => p.allocations)).toEqual([204, 197, 177]); // a searcher allocates one temporary per item found
    expect(ref.shape).toEqual({ leaves: 605, internal: 604, items: 774, hash: 608513730 });
  });

  it('a collection frees what the master cut off: with 128 node cells the master collects twice, and the final tree is the same as with room to spare', () => {
    const roomy = treeReference({ ...tiny, masterCells: 4096, itemCells: 4096 }, 2);
    const tight = treeReference(tiny, 2);
    expect(roomy.procs[0]!.collections).toBe(0);
    expect(tight.procs[0]!.collections).toBe(2);
    expect(tight.procs[0]!.allocations).toBe(roomy.procs[0]!.allocations);
    expect(tight.shape).toEqual(roomy.shape);
    expect(tight.procs.map((p) => p.checksum)).toEqual(roomy.procs.map((p) => p.checksum));
  });

  it('the check fails, naming the tree, when one item word differs from the sequential run', () => {
    const r = runOnLocal(gcTree, tiny, undefined, function* (dsm) {
      // items is the second array; item 0 was the first allocated and is still in the tree at this size
      const items = { id: 1, name: 'items', count: tiny.itemCells, objectBytes: ITEM_BYTES };
      let a = yield* dsm.open(items, 0, true);
      for (let k = 0; k < tiny.itemCells && dsm.core.load32(a) !== 3; k++) a = yield* dsm.open(items, k, true);
      dsm.core.store32(a + 12, dsm.core.load32(a + 12) + 1);
    });
    expect(r.check.correct).toBe(false);
    expect(r.check.detail).toMatch(/^the final tree differs from the sequential run: /);
  });

  it('names a full heap and bad sizes', () => {
    expect(() => treeReference({ ...tiny, masterCells: 16 }, 1)).toThrow('gc-tree processor 0: its nodes region (cells 0..15) is full of live objects after a collection; give it more cells');
    expect(() => treeValidate({ ...tiny, rounds: 0 })).toThrow('gc-tree: rounds must be an integer >= 1, got 0');
    expect(treeRegion(gcTree.sizes['paper-sm'], 2)).toEqual([32768 + 256, 32768 + 512]);
  });
});

describe('Tree on the DSM runtimes (4 processors, small)', () => {
  const run = (params: Record<string, unknown>, preset = 'cluster-1999'): Results =>
    new Simulation({ version: 1, chip: { preset }, workload: { name: 'dsm', params: { app: 'gc-tree', processors: 4, ...params } }, seed: 1 }, workloads).runInline();
  const COUNTS = ['messages', 'bytes', 'overlappedRequests', 'readFaults', 'writeFaults', 'writeNotices', 'diffs', 'allocatedPerProcessorBytes'];
  const counts = (r: Record<string, unknown>) => COUNTS.map((k) => r[k]);
  const DETAIL = 'equal to the sequential run: final tree of 604 internal nodes, 605 leaves, 774 items (hash 608513730); 796 items found, 3824 allocations, 4 collections';

  it('the page runtime: the sequential result, page faults served by diffs of the master\'s pages; the same protocol on the SCC', () => {
    const page = run({ runtime: 'page' }).workload.rows[0]!;
    expect(page.check).toBe(DETAIL);
    expect(page.correct).toBe(true);
    // bytes 296,536 before interval records took TreadMarks' encoding (lrc.ts: 2 B fields, vector time 2 B x 32, page runs)
    // write faults 119, notices 357, diffs 113, bytes 299,482 before pages stayed read-write with
    // their twins across intervals (TreadMarks: a rewrite before the diff takes no fault, no notice)
    expect(counts(page)).toEqual([556, 297136, 248, 248, 90, 270, 87, 134144]);
    const scc = run({ runtime: 'page' }, 'scc').workload.rows[0]!;
    expect(scc.check).toBe(DETAIL);
    // a page rewritten before its diff is asked for takes no fault and names itself in no new
    // notice (TreadMarks' lazy diffing), so write faults, notices and bytes depend on when the
    // requests arrive: on the SCC 92 / 276 / 295,324 B; the rest of the protocol is the same
    const timingFree = (r: Record<string, unknown>) => [r.messages, r.overlappedRequests, r.readFaults, r.diffs, r.allocatedPerProcessorBytes];
    expect(timingFree(scc)).toEqual(timingFree(page));
    expect([scc.writeFaults, scc.writeNotices, scc.bytes]).toEqual([92, 276, 295324]);
  });

  it('the object runtime: the sequential result, one fetch per object first read (lazy allocation packs them), write notices per object, less memory', () => {
    const obj = run({ runtime: 'object' }).workload.rows[0]!;
    expect(obj.check).toBe(DETAIL);
    // bytes 357,684 before interval records took TreadMarks' encoding (lrc.ts: 2 B fields, vector time 2 B x 32, OID runs)
    expect(counts(obj)).toEqual([6578, 315852, 3259, 3259, 171, 13200, 0, 64512]);
  });
});
