/**
 * The VM on the SCC (scc-space.ts, issue 15 item 4): the layout puts each heap on its core's
 * nearest controller and names its home; the baton protocol's CL1INVMB is what keeps a core from
 * reading its own stale L1 copy; the three benchmarks give the reference result and bytecode
 * count on the SCC; the sharing modes differ by mechanism; bad combinations are named.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExperimentError, Simulation, prepareRun, resolveChip, type Row, type SccChip, type SccCore, type WorkloadDef, type WorkloadRegistry } from '@manycore/engine';
import { workloads } from '../index';
import { FMT_DONT_PASS, type VmMemory } from './format';
import { SccSnapshotPlacement, SccSpace, mapSccSpace, sccBatonPost, sccBatonTake, sccBatonWait, sccLayout } from './scc-space';

const scc = resolveChip('scc') as SccChip;
const noMemory: VmMemory = { load32: () => 0, store32: () => {}, load8: () => 0, store8: () => {}, compute: () => {}, enter: () => {} };

describe('SCC VM layout', () => {
  it('puts every core\'s heap on its nearest controller, aligned, and names its home', () => {
    const L = sccLayout(scc, 48, 1 << 20, 'none');
    const space = new SccSpace(noMemory, L, 0, 0, 0);
    const bases = new Set<number>();
    for (let k = 0; k < 48; k++) {
      expect(L.controller[k]).toBe(scc.nearestController[k]);
      const base = L.heapBase[k]!;
      expect(base % (1 << 20)).toBe(0);
      bases.add(base);
      // the shared page holding the heap is on that controller (the LUT's groups of sharedGroupPages pages)
      const page = (base - scc.sharedBase) / 2 ** 24;
      expect(Math.floor(page / scc.config.lut.sharedGroupPages) % scc.controllers).toBe(scc.nearestController[k]);
      expect(space.homeOf(base + 12)).toBe(k);
      expect(space.homeOf(base + (1 << 20) - 4)).toBe(k);
      expect(space.batonTarget(base + 12, 0)).toBe(k);
      expect(space.batonTarget(base + 12, FMT_DONT_PASS)).toBe(-1);
      expect(space.readMostly(base + 12)).toBe(false);
    }
    expect(bases.size).toBe(48);
    // the object table, the kernel page and private memory are in no heap
    expect(space.homeOf(L.snapshotOtBase)).toBe(-1);
    expect(space.homeOf(L.kernelPage)).toBe(-1);
    expect(space.homeOf(space.coreData)).toBe(-1);
    expect(space.coreData).toBeLessThan(scc.privateBytes);
    // cores 0..11 are nearest controller 0: 12 heaps + their table slices + the snapshot's table fit one 16 MB page
    expect(L.rwPages.length).toBe(4);
  });

  it('deals the snapshot as the TILE64 does, and places read-mostly slices on cached pages of their own', () => {
    const L = sccLayout(scc, 6, 1 << 20, 'all-but-contexts');
    const space = new SccSpace(noMemory, L, 2, 0, 0);
    // round-robin like cards into the read-mostly slices; the boot context stays with the main core, read-write
    const deal = new SccSnapshotPlacement(L);
    for (let i = 0; i < 40; i++)
      for (const what of ['class', 'method', 'symbol'] as const) {
        const body = deal.place(i, 4, what);
        expect([space.homeOf(body), space.readMostly(body)]).toEqual([i % 6, true]);
      }
    const ctx = deal.place(41, 21, 'context');
    expect([space.homeOf(ctx), space.readMostly(ctx)]).toEqual([0, false]);
    for (let k = 0; k < 6; k++) {
      expect(space.readMostly(L.rmBase[k]! + 12)).toBe(true);
      expect(space.homeOf(L.rmBase[k]! + 12)).toBe(k); // v2: the address still names a core
    }
    const rwPages = new Set(L.rwPages);
    for (const p of L.rmPages) expect(rwPages.has(p)).toBe(false);
    const G = sccLayout(scc, 6, 1 << 20, 'global');
    const gs = new SccSpace(noMemory, G, 0, 0, 0);
    expect(gs.readMostly(G.globalRmBase + 100)).toBe(true);
    expect(gs.homeOf(G.globalRmBase + 100)).toBe(-1); // v1: a receiver there never takes the baton
  });

  it('names the parameter when the heaps do not fit a controller\'s shared pages', () => {
    expect(() => sccLayout(scc, 48, 16 << 20, 'none')).toThrow(
      'heapKB = 16384 on 48 cores needs 16 shared 16 MB pages on memory controller 0 (12 cores near it); the chip\'s LUT has 15 there',
    );
    expect(() => sccLayout(scc, 2, 96 * 1024, 'none')).toThrow('heapKB = 96: a heap is a power of two from 64 KB to 16 MB (one SCC page)');
  });
});

/** Two SCC cores pass the baton twice over a word of core 0's heap (flush mode: MPBT pages); what core 0 reads at the end. */
function protocolRun(invalidate: boolean): Row[] {
  const w: WorkloadDef<Record<string, never>, SccCore> = {
    name: 'vm-scc-protocol-test',
    title: 'test',
    description: 'test',
    params: z.strictObject({}),
    participants: () => [0, 1],
    *program(core) {
      const L = sccLayout(core.chip, 2, 1 << 20, 'none');
      mapSccSpace(core, L, 'flush');
      const x = L.heapBase[0]! + 64;
      const words = new Uint32Array(8);
      if (core.id === 0) {
        core.store32(x, 5);
        const before = core.load32(x); // now in core 0's L1 (MPBT)
        sccBatonPost(core, 1, 1, words);
        yield* sccBatonWait(core, 1);
        sccBatonTake(core, words, invalidate);
        core.report({ before, after: core.load32(x) });
      } else {
        yield* sccBatonWait(core, 0);
        sccBatonTake(core, words);
        core.store32(x, core.load32(x) + 2);
        sccBatonPost(core, 0, 2, words);
      }
    },
  };
  const registry: WorkloadRegistry = { [w.name]: w };
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: w.name, params: {} }, seed: 1 }, registry).runInline().workload.rows;
}

describe('SCC baton protocol', () => {
  it('the receiver\'s CL1INVMB is what makes it see the other core\'s store', () => {
    expect(protocolRun(true)).toEqual([{ before: 5, after: 7 }]);
    expect(protocolRun(false)).toEqual([{ before: 5, after: 5 }]); // its own stale L1 copy
  });
});

const runs = new Map<string, Row>();
/** The vm row of one run (each run once per file: the tests share the 2-core compiler run). */
function vm(params: Record<string, unknown>, preset = 'scc'): Row {
  const key = `${preset} ${JSON.stringify(params)}`;
  let row = runs.get(key);
  if (!row) {
    row = new Simulation({ version: 1, chip: { preset }, workload: { name: 'vm', params }, seed: 1 }, workloads).runInline().workload.rows[0]!;
    runs.set(key, row);
  }
  return row;
}

describe('vm on the SCC', () => {
  it('gives each benchmark\'s reference result and the TILE64 run\'s bytecode count', () => {
    const sizes = { 'tiny-loop': 1, 'tiny-fib': 12, compiler: 3 } as const;
    for (const [benchmark, size] of Object.entries(sizes)) {
      const r = vm({ benchmark, size, cores: 2 });
      expect(r.correct, benchmark).toBe(true);
      expect(r.result).toBe(r.referenceResult);
      expect(r.bytecodes).toBe(r.referenceBytecodes);
      expect(r.chip).toBe('scc');
      expect(r.sccSharing).toBe('flush');
      if (benchmark === 'compiler') {
        const t = vm({ benchmark, size, cores: 2 }, 'tile64');
        expect(r.bytecodes).toBe(t.bytecodes);
        expect(r.migrations).toBe(t.migrations); // same dealing, same baton rule
        expect(r.migrations as number).toBeGreaterThan(0);
        expect(r.migrateCycles as number).toBeGreaterThan(0);
        expect(t.chip).toBe('tile64');
      }
    }
  });

  it('uncached shared heaps are slower than MPBT-cached ones with the flush protocol', () => {
    const flush = vm({ benchmark: 'compiler', size: 3, cores: 2 }); // flush is the default
    const uncached = vm({ benchmark: 'compiler', size: 3, cores: 2, sccSharing: 'uncached' });
    expect(uncached.correct).toBe(true);
    expect(uncached.migrations).toBe(flush.migrations);
    expect((uncached.timeNs as number) / (flush.timeNs as number)).toBeGreaterThan(3);
    // the difference is in the interpreter's memory traffic, bytecode fetch first among the routines
    expect(uncached.fetchBytecodeCycles as number).toBeGreaterThan(5 * (flush.fetchBytecodeCycles as number));
  });

  it('replication puts read-mostly objects on cached pages; results stay right', () => {
    const r = vm({ benchmark: 'compiler', size: 2, cores: 2, replication: 'all-but-contexts' });
    expect(r.correct).toBe(true);
    expect(r.storeBarrierMoves as number).toBeGreaterThan(0);
  });

  it('names bad combinations', () => {
    const problem = (params: Record<string, unknown>, preset: string): string => {
      try {
        prepareRun({ chip: { preset }, workload: { name: 'vm', params } }, workloads);
      } catch (e) {
        if (e instanceof ExperimentError) return e.message;
        throw e;
      }
      return 'prepared';
    };
    expect(problem({ sccSharing: 'uncached' }, 'tile64')).toBe(
      "workload.params (vm): sccSharing = uncached is for the SCC: the TILE64's heaps are homed and the hardware keeps them coherent; leave sccSharing out",
    );
    expect(problem({ hugePages: true }, 'scc')).toBe(
      'workload.params (vm): hugePages: the SCC model has no TLB to relieve (its lookup table already maps 16 MB pages); leave hugePages false on the SCC',
    );
    expect(problem({ cores: 48, heapKB: 16384 }, 'scc')).toContain('heapKB = 16384 on 48 cores needs 16 shared 16 MB pages on memory controller 0');
    expect(problem({ cores: 49 }, 'scc')).toBe('workload.params (vm): cores = 49, but the chip has 48 cores');
  });
});
