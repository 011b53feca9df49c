import { describe, expect, it } from 'vitest';
import type { Results } from '@manycore/engine';
import {
  CELL_CLASS0,
  CELL_FREE,
  CELL_VACATED,
  EDGE_MAX_PX,
  EDGE_MIN_PX,
  batonPath,
  decodeCells,
  describeCause,
  describeCell,
  describeMove,
  heapMap,
  movesAt,
  objectMap,
  perCoreRoutines,
  routineBars,
  vmExtraOf,
  vmRowOf,
  type VmExtra,
} from './vm-views';

// Real values: `node scripts/vm-run.mjs cores=3 replication=all-but-contexts size=2 --extra`
// (benchmark compiler, clockCall true) and `... cores=2 replication=global size=2 --extra`.
const ROW3 = { migrations: 1114, migrationsPer1000Bytecodes: 35.416, timeNs: 3192469.459751262, bytecodes: 31455 };
const VM3: VmExtra = {
  cores: 3,
  heapBytes: 1048576,
  replication: 'all-but-contexts',
  heaps: [
    { core: 0, readWrite: { context: 96 }, readMostly: { other: 372, class: 616, symbol: 1448, methodDict: 1292, method: 2076 }, allocatedBytes: 2468 },
    { core: 1, readWrite: {}, readMostly: { other: 236, class: 588, symbol: 1532, method: 1800, methodDict: 1252 }, allocatedBytes: 2360 },
    { core: 2, readWrite: {}, readMostly: { other: 252, class: 588, symbol: 1572, method: 1936, methodDict: 1136 }, allocatedBytes: 2696 },
  ],
  baton: [
    { from: 0, to: 1, count: 96 },
    { from: 0, to: 2, count: 362 },
    { from: 1, to: 0, count: 96 },
    { from: 1, to: 2, count: 99 },
    { from: 2, to: 0, count: 362 },
    { from: 2, to: 1, count: 99 },
  ],
  moves: [{ className: 'Association', fromCore: 2, toCore: 2, bytes: 20 }],
  routines: [
    { name: 'fetchBytecode', cycles: 133739 },
    { name: 'fetchClass', cycles: 167630 },
    { name: 'lookup', cycles: 80465 },
    { name: 'activate', cycles: 288827 },
    { name: 'return', cycles: 275972 },
    { name: 'stack', cycles: 255024 },
    { name: 'objectAccess', cycles: 126999 },
    { name: 'primitive', cycles: 84918 },
    { name: 'storeBarrier', cycles: 79 },
    { name: 'allocate', cycles: 26033 },
    { name: 'migrate', cycles: 23399 },
    { name: 'clock', cycles: 437387 },
  ],
};
const VM2_GLOBAL: VmExtra = {
  cores: 2,
  heapBytes: 1048576,
  replication: 'global',
  heaps: [
    { core: 0, readWrite: { context: 96 }, readMostly: { other: 364, class: 896, symbol: 2068, method: 2860, methodDict: 2844 }, allocatedBytes: 5988 },
    { core: 1, readWrite: {}, readMostly: { other: 496, class: 896, symbol: 2484, methodDict: 836, method: 2952 }, allocatedBytes: 0 },
  ],
  baton: [],
  moves: [{ className: 'Association', fromCore: -1, toCore: 0, bytes: 20 }],
  routines: [
    { name: 'fetchBytecode', cycles: 132232 },
    { name: 'migrate', cycles: 0 },
    { name: 'clock', cycles: 0 },
  ],
};

const results = (vm: unknown, row: Record<string, unknown> = ROW3) => ({ workload: { name: 'vm', params: {}, rows: [row], vm } }) as unknown as Results;

describe('vmExtraOf', () => {
  it('takes the results’ workload.vm when it has the VmExtra shape, whatever the workload name', () => {
    expect(vmExtraOf(results(VM3))).toBe(VM3);
    expect(vmExtraOf({ workload: { name: 'other', params: {}, rows: [], vm: VM3 } } as unknown as Results)).toBe(VM3);
    expect(vmRowOf(results(VM3))).toEqual(ROW3);
  });
  it('rejects missing or malformed data instead of half drawing it', () => {
    expect(vmExtraOf(null)).toBeNull();
    expect(vmExtraOf(results(undefined))).toBeNull();
    expect(vmExtraOf(results({ ...VM3, heaps: [{ core: 0, readWrite: { context: '96' }, readMostly: {}, allocatedBytes: 0 }] }))).toBeNull();
    expect(vmExtraOf(results({ ...VM3, baton: [{ from: 0, to: 1 }] }))).toBeNull();
    expect(vmExtraOf(results({ ...VM3, moves: [{ className: 7, fromCore: 0, toCore: 0, bytes: 4 }] }))).toBeNull();
    expect(vmRowOf(results(VM3, { migrations: 3 }))).toBeNull();
  });
});

describe('heapMap', () => {
  it('gives each core’s read-write heap and read-mostly slice their bytes by role, plus the allocated bytes', () => {
    const m = heapMap(VM3);
    expect(m.global).toBeNull();
    expect(m.columns.map((c) => c.core)).toEqual([0, 1, 2]);
    const [c0, c1, c2] = m.columns;
    expect(c0!.readWrite).toEqual({ class: 0, method: 0, methodDict: 0, symbol: 0, other: 0, context: 96 });
    expect(c0!.readWriteSnapshotBytes).toBe(96);
    expect(c0!.readWriteBytes).toBe(96 + 2468);
    expect(c0!.readMostly).toEqual({ class: 616, method: 2076, methodDict: 1292, symbol: 1448, other: 372, context: 0 });
    expect(c0!.readMostlyBytes).toBe(5804);
    expect(c1!.readMostlyBytes).toBe(5408);
    expect(c2!.readWriteBytes).toBe(2696);
    expect(m.maxBytes).toBe(5804);
    expect(m.totals).toEqual({ readWriteSnapshotBytes: 96, allocatedBytes: 2468 + 2360 + 2696, readMostlyBytes: 5804 + 5408 + 5484 });
  });
  it('maps a store-barrier move from the read-mostly slice it left to the read-write heap it went to', () => {
    const m = heapMap(VM3);
    expect(m.moves).toEqual([{ className: 'Association', bytes: 20, fromCore: 2, toCore: 2, fromColumn: 2, toColumn: 2 }]);
    expect(m.columns.map((c) => [c.movesOut, c.movesIn])).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
    ]);
    expect(describeMove(m.moves[0]!)).toBe("core 2's read-mostly slice → core 2's read-write heap");
  });
  it('with replication global draws one global read-mostly heap and maps fromCore -1 to it', () => {
    const m = heapMap(VM2_GLOBAL);
    expect(m.global).toEqual({ readMostly: { class: 1792, method: 5812, methodDict: 3680, symbol: 4552, other: 860, context: 0 }, bytes: 16696, movesOut: 1 });
    expect(m.columns.map((c) => c.readMostlyBytes)).toEqual([0, 0]);
    expect(m.moves[0]).toMatchObject({ fromCore: -1, fromColumn: -1, toCore: 0, toColumn: 0 });
    expect(m.columns[0]!.movesIn).toBe(1);
    expect(m.maxBytes).toBe(16696);
    expect(describeMove(m.moves[0]!)).toBe("the global read-mostly heap → core 0's read-write heap");
  });
  it('puts a role it does not know under other', () => {
    const m = heapMap({ ...VM3, heaps: [{ core: 0, readWrite: { other: 4, bitmap: 8 }, readMostly: {}, allocatedBytes: 0 }], moves: [] });
    expect(m.columns[0]!.readWrite.other).toBe(12);
  });
});

describe('batonPath', () => {
  it('sorts the edges by migrations and scales their width linearly by count / largest', () => {
    const b = batonPath(VM3, ROW3);
    expect(b.edges.map((e) => [e.from, e.to, e.count])).toEqual([
      [0, 2, 362],
      [2, 0, 362],
      [1, 2, 99],
      [2, 1, 99],
      [0, 1, 96],
      [1, 0, 96],
    ]);
    expect(b.edges[0]!.widthPx).toBe(EDGE_MAX_PX);
    expect(b.edges[4]!.widthPx).toBeCloseTo(EDGE_MIN_PX + ((EDGE_MAX_PX - EDGE_MIN_PX) * 96) / 362, 10);
    expect(b.edges.reduce((a, e) => a + e.share, 0)).toBeCloseTo(1, 12);
    // the edges add up to the row's migrations
    expect(b.migrations).toBe(ROW3.migrations);
    expect(b.cores).toEqual([0, 1, 2]);
    expect(b.per1000Bytecodes).toBe(35.416);
    expect(b.perSimSecond).toBeCloseTo(1114 / 3.192469459751262e-3, 6);
  });
  it('merges repeated pairs and has no edges when the baton never moved', () => {
    const b = batonPath({ ...VM3, baton: [{ from: 1, to: 0, count: 2 }, { from: 1, to: 0, count: 3 }, { from: 0, to: 1, count: 0 }] }, ROW3);
    expect(b.edges.map((e) => [e.from, e.to, e.count, e.widthPx])).toEqual([[1, 0, 5, EDGE_MAX_PX]]);
    const none = batonPath(VM2_GLOBAL, { migrationsPer1000Bytecodes: 0, timeNs: 1729591.9126980028 });
    expect(none).toMatchObject({ edges: [], migrations: 0, cores: [], perSimSecond: 0 });
  });
});

describe('routineBars', () => {
  it('orders the routines largest first with shares that sum to 1', () => {
    const { bars, totalCycles } = routineBars(VM3);
    expect(totalCycles).toBe(1900472);
    expect(bars.slice(0, 3).map((b) => b.name)).toEqual(['clock', 'activate', 'return']);
    expect(bars[bars.length - 1]).toMatchObject({ name: 'storeBarrier', cycles: 79 });
    expect(bars[0]!.share).toBeCloseTo(437387 / 1900472, 12);
    expect(bars.reduce((a, b) => a + b.share, 0)).toBeCloseTo(1, 12);
  });
  it('keeps zero routines (ties by name) and gives shares of 0 when nothing was spent', () => {
    expect(routineBars(VM2_GLOBAL).bars.map((b) => b.name)).toEqual(['fetchBytecode', 'clock', 'migrate']);
    expect(routineBars({ routines: [{ name: 'a', cycles: 0 }] }).bars[0]!.share).toBe(0);
  });
});

// Real values, with the split by cause and by core: `node scripts/vm-run.mjs cores=3 replication=all-but-contexts size=2 --extra`.
const CAUSES = ['executed', 'tlbRefill', 'remoteHome', 'l1Miss', 'l2Miss', 'dram', 'mpb', 'network', 'wait', 'flush'];
const split = (c: Record<string, number>) => Object.fromEntries(CAUSES.map((k) => [k, c[k] ?? 0]));
const VM3_SPLIT: VmExtra = {
  ...VM3,
  causes: CAUSES,
  routines: [
    { name: 'fetchBytecode', cycles: 133701, causes: split({ executed: 129876, tlbRefill: 100, l1Miss: 1776, l2Miss: 1949 }) },
    { name: 'fetchClass', cycles: 167229, causes: split({ executed: 8959, tlbRefill: 250, remoteHome: 153802, l1Miss: 1144, l2Miss: 2608, dram: 466 }) },
    { name: 'lookup', cycles: 77349, causes: split({ executed: 30741, tlbRefill: 200, remoteHome: 12948, l1Miss: 9082, l2Miss: 20551, dram: 3827 }) },
    { name: 'activate', cycles: 288246, causes: split({ executed: 19415, tlbRefill: 750, remoteHome: 161823, l1Miss: 97612, l2Miss: 5466, dram: 3180 }) },
    { name: 'return', cycles: 275972, causes: split({ executed: 33813, remoteHome: 209133, l1Miss: 27437, l2Miss: 2148, dram: 3441 }) },
    { name: 'stack', cycles: 255022, causes: split({ executed: 50793, l1Miss: 192071, l2Miss: 908, dram: 11250 }) },
    { name: 'objectAccess', cycles: 126924, causes: split({ executed: 27779, remoteHome: 84475, l1Miss: 11890, l2Miss: 2512, dram: 268 }) },
    { name: 'primitive', cycles: 84903, causes: split({ executed: 9904, remoteHome: 73863, l1Miss: 208, l2Miss: 878, dram: 50 }) },
    { name: 'storeBarrier', cycles: 79, causes: split({ executed: 15, l1Miss: 64 }) },
    { name: 'allocate', cycles: 25879, causes: split({ executed: 1684, l1Miss: 11346, l2Miss: 10308, dram: 2541 }) },
    { name: 'migrate', cycles: 23399, causes: split({ executed: 23399 }) },
    { name: 'clock', cycles: 437387, causes: split({ executed: 235328, tlbRefill: 150, remoteHome: 196982, l1Miss: 376, l2Miss: 4551 }) },
  ],
  perCore: [
    { core: 2, cycles: [36718, 57661, 32638, 67742, 71981, 68236, 64856, 25106, 79, 7496, 9683, 236626] },
    { core: 0, cycles: [89107, 96163, 36129, 149523, 148459, 174701, 53947, 59442, 0, 11321, 9620, 103830] },
    { core: 1, cycles: [7876, 13405, 8582, 70981, 55532, 12085, 8121, 355, 0, 7062, 4096, 96931] },
  ],
};

describe('routineBars by cause', () => {
  it('stacks each routine by the causes some routine spent cycles in, in the results\' order, summing to its cycles', () => {
    const { bars, activeCauses, causeTotals } = routineBars(VM3_SPLIT);
    expect(activeCauses).toEqual(['executed', 'tlbRefill', 'remoteHome', 'l1Miss', 'l2Miss', 'dram']);
    expect(bars[0]!.name).toBe('clock');
    expect(bars[0]!.causes).toEqual([
      { cause: 'executed', cycles: 235328 },
      { cause: 'tlbRefill', cycles: 150 },
      { cause: 'remoteHome', cycles: 196982 },
      { cause: 'l1Miss', cycles: 376 },
      { cause: 'l2Miss', cycles: 4551 },
      { cause: 'dram', cycles: 0 },
    ]);
    for (const b of bars) expect(b.causes.reduce((a, c) => a + c.cycles, 0)).toBe(b.cycles);
    expect(causeTotals.remoteHome).toBe(153802 + 12948 + 161823 + 209133 + 84475 + 73863 + 196982);
    expect(causeTotals.mpb).toBe(0);
    expect(describeCause('remoteHome')).toMatch(/non-home tile/);
    expect(describeCause('unknown')).toBe('unknown');
  });
  it('gives no causes for results from before the split', () => {
    const { bars, activeCauses } = routineBars(VM3);
    expect(activeCauses).toEqual([]);
    expect(bars.every((b) => b.causes.length === 0)).toBe(true);
  });
});

describe('perCoreRoutines', () => {
  it('orders the cores, keeps the routines\' order and sums each core; over the cores each routine gives its total', () => {
    const d = perCoreRoutines(VM3_SPLIT);
    expect(d.names).toEqual(VM3_SPLIT.routines.map((r) => r.name));
    expect(d.cores.map((c) => c.core)).toEqual([0, 1, 2]);
    expect(d.cores[0]!.total).toBe(89107 + 96163 + 36129 + 149523 + 148459 + 174701 + 53947 + 59442 + 0 + 11321 + 9620 + 103830);
    expect(d.maxTotal).toBe(d.cores[0]!.total);
    VM3_SPLIT.routines.forEach((r, i) => expect(d.cores.reduce((a, c) => a + c.cycles[i]!, 0)).toBe(r.cycles));
    expect(perCoreRoutines(VM3)).toEqual({ names: VM3.routines.map((r) => r.name), cores: [], maxTotal: 0 });
  });
  it('vmExtraOf accepts the split and rejects a malformed one', () => {
    const results = (vm: unknown) => ({ workload: { rows: [], vm } }) as unknown as Pick<Results, 'workload'>;
    expect(vmExtraOf(results(VM3_SPLIT))).toBe(VM3_SPLIT);
    expect(vmExtraOf(results({ ...VM3_SPLIT, perCore: [{ core: 0, cycles: [1, 2] }] }))).toBeNull();
    expect(vmExtraOf(results({ ...VM3_SPLIT, causes: 'executed' }))).toBeNull();
    expect(vmExtraOf(results({ ...VM3_SPLIT, routines: [{ name: 'a', cycles: 1, causes: { executed: 'x' } }], perCore: undefined }))).toBeNull();
  });
});

describe('objectMap (the heap map object by object)', () => {
  const CELLS = 8;
  const b64 = (cells: number[]) => btoa(String.fromCharCode(...cells));
  // codes: 0 free, 1 vacated, 3 + i classes[i]
  const classes = ['MethodContext', 'Association', 'Symbol'];
  const strips = {
    rw0: [3, 3, 0, 0, 0, 0, 0, 0],
    rw1: [3, 3, 3, 4, 3, 3, 0, 0],
    rm0: [5, 5, 1, 5, 4, 5, 0, 0],
    rm1: [5, 5, 5, 1, 5, 0, 0, 0],
  };
  const heaps = [
    { core: 0, region: 'readWrite', cellBytes: 128, usedBytes: 160, liveObjects: 1, vacatedObjects: 0, cells: b64(strips.rw0) },
    { core: 1, region: 'readWrite', cellBytes: 128, usedBytes: 700, liveObjects: 7, vacatedObjects: 0, cells: b64(strips.rw1) },
    { core: 0, region: 'readMostly', cellBytes: 64, usedBytes: 350, liveObjects: 9, vacatedObjects: 1, cells: b64(strips.rm0) },
    { core: 1, region: 'readMostly', cellBytes: 64, usedBytes: 300, liveObjects: 8, vacatedObjects: 1, cells: b64(strips.rm1) },
  ];
  const X: VmExtra = {
    ...VM3,
    cores: 2,
    heaps: VM3.heaps.slice(0, 2),
    // in the results' order, not time order
    moves: [
      { className: 'Association', fromCore: 1, toCore: 1, bytes: 20, fromOffset: 200, toOffset: 390, timeNs: 9000 },
      { className: 'Association', fromCore: 0, toCore: 1, bytes: 20, fromOffset: 140, toOffset: 300, timeNs: 764 },
    ],
    heapMap: { cellsPerHeap: CELLS, classes, heaps: heaps as NonNullable<VmExtra['heapMap']>['heaps'] },
  };

  it('decodes a strip to the cells encoded, and rejects a malformed one with a message', () => {
    expect([...decodeCells(b64([0, 1, 2, 3, 250, 255, 7, 9]), 8)]).toEqual([0, 1, 2, 3, 250, 255, 7, 9]);
    expect([...decodeCells('AAECA/8=', 5)]).toEqual([0, 1, 2, 3, 255]);
    expect(() => decodeCells('AAECA/8', 5, "core 3's read-write heap")).toThrow("heap map: core 3's read-write heap's cells are not base64 (length 7 is not a multiple of 4)");
    expect(() => decodeCells('AAECA/8=', 8)).toThrow('heap map: a heap has 5 cells, expected 8');
    expect(() => decodeCells('AA*CA/8=', 5)).toThrow('heap map: a heap\'s cells are not base64 (character "*" at 2)');
  });

  it('shapes one column per core, read-write above and read-mostly below, with the strips decoded', () => {
    const d = objectMap(X)!;
    expect(d.columns.map((c) => c.core)).toEqual([0, 1]);
    expect([...d.columns[1]!.readWrite!.cells]).toEqual(strips.rw1);
    expect([...d.columns[0]!.readMostly!.cells]).toEqual(strips.rm0);
    expect(d.cellBytes).toEqual({ readWrite: 128, readMostly: 64 });
    // classes present, most cells first: Symbol 4 + 4, MethodContext 2 + 5, Association 1 + 1
    expect(d.present).toEqual([
      { code: 5, name: 'Symbol', cells: 8 },
      { code: 3, name: 'MethodContext', cells: 7 },
      { code: 4, name: 'Association', cells: 2 },
    ]);
    expect(describeCell(d, 0, 'readMostly', 2)).toEqual({ core: 'core 0', heap: 'read-mostly slice (user-managed)', what: "vacated (a moved object's old copy)", from: 128, to: 192 });
    expect(describeCell(d, 1, 'readWrite', 3)).toEqual({ core: 'core 1', heap: 'read-write heap (homed)', what: 'Association', from: 384, to: 512 });
    expect(describeCell(d, 1, 'readWrite', 7)!.what).toBe('free');
    expect(describeCell(d, 2, 'readWrite', 0)).toBeNull();
    expect(strips.rw0[7]).toBe(CELL_FREE);
    expect(strips.rm1[3]).toBe(CELL_VACATED);
    expect(CELL_CLASS0).toBe(3);
  });

  it('sorts the moves by simulated time and places their ends in cells; the slider shows none at 0 and all at the end', () => {
    const d = objectMap(X)!;
    expect(d.moves.map((m) => [m.timeNs, m.fromCore, m.toCore, m.fromColumn, m.fromCell, m.toColumn, m.toCell])).toEqual([
      [764, 0, 1, 0, 2, 1, 2], // 140 / 64 -> 2, 300 / 128 -> 2
      [9000, 1, 1, 1, 3, 1, 3], // 200 / 64 -> 3, 390 / 128 -> 3
    ]);
    expect(movesAt(d, 0)).toEqual([]);
    expect(movesAt(d, 1).map((m) => m.timeNs)).toEqual([764]);
    expect(movesAt(d, 2).length).toBe(2);
    expect(movesAt(d, 99).length).toBe(2);
  });

  it('the global read-mostly heap is a column of its own', () => {
    const G: VmExtra = {
      ...VM2_GLOBAL,
      moves: [{ className: 'Association', fromCore: -1, toCore: 0, bytes: 20, fromOffset: 64, toOffset: 0, timeNs: 5 }],
      heapMap: {
        cellsPerHeap: CELLS,
        classes,
        heaps: [heaps[0]!, heaps[1]!, { ...heaps[2]!, core: -1 }] as NonNullable<VmExtra['heapMap']>['heaps'],
      },
    };
    const d = objectMap(G)!;
    expect(d.columns.map((c) => [c.core, c.readWrite !== null, c.readMostly !== null])).toEqual([
      [0, true, false],
      [1, true, false],
      [-1, false, true],
    ]);
    expect(d.moves[0]).toMatchObject({ fromColumn: 2, fromCell: 1, toColumn: 0, toCell: 0 });
    expect(describeCell(d, 2, 'readMostly', 0)!.heap).toBe('global read-mostly heap (user-managed)');
  });

  it('no heapMap (older results): null; a malformed one: an Error naming the problem, never a half map', () => {
    expect(objectMap(VM3)).toBeNull();
    const bad = (heapMap: unknown, moves = X.moves) => () => objectMap({ ...X, moves, heapMap } as VmExtra);
    expect(bad({ cellsPerHeap: CELLS, classes })).toThrow("heap map: the results' heapMap lacks cellsPerHeap, classes or heaps");
    expect(bad({ ...X.heapMap, heaps: [{ ...heaps[0], cells: b64([3, 3, 9, 0, 0, 0, 0, 0]) }] })).toThrow("heap map: core 0's read-write heap has cell code 9, but only 3 classes are named");
    expect(bad({ ...X.heapMap, heaps: [{ ...heaps[0], cells: b64([3, 3]) }] })).toThrow("heap map: core 0's read-write heap has 2 cells, expected 8");
    expect(bad({ ...X.heapMap, heaps: [{ ...heaps[0], core: 5 }] })).toThrow("heap map: core 5's read-write heap is not one of the run's heaps");
    expect(bad({ ...X.heapMap, heaps: [heaps[0], heaps[0]] })).toThrow("heap map: core 0's read-write heap appears twice");
    expect(bad({ ...X.heapMap, heaps: heaps.slice(0, 2) })).toThrow(/move 0 \(Association\) names a heap the map lacks \(core 1's read-mostly slice → core 1's read-write heap\)/);
  });
});
