/**
 * The VM views' data (issue 15, the Smalltalk VM on the TILE64): pure shaping of the results'
 * `workload.vm` (VmExtra, written by packages/workloads/src/vm/workload.ts) and its row into
 * what VmViews.tsx draws. No React, no DOM.
 *
 * Contract
 * - `vmExtraOf(results)` returns the run's VmExtra when `results.workload.vm` has its shape
 *   (the data decide whether the views show, not the workload's name), else null; a value of
 *   the wrong shape is rejected, never half drawn.
 * - `heapMap(x)`: one column per core's heap: its read-write heap (the snapshot's bytes by role
 *   plus the bytes the run allocated there) and its read-mostly slice (the snapshot's bytes by
 *   role). With replication 'global' the read-mostly heap is one heap (paper 000 v1): the
 *   per-core columns then hold no read-mostly bytes and `global` sums what every core wrote
 *   into it. Each store-barrier move is mapped to the region it left (a core's read-mostly
 *   slice, or the global heap for fromCore -1) and the read-write heap it went to. `maxBytes`
 *   is the tallest bar (the common scale).
 * - `batonPath(x, row)`: the migrations from core to core merged per (from, to), largest first
 *   (ties: from, then to), each with its share of the total and a width scaled linearly by
 *   count / largest count between EDGE_MIN_PX and EDGE_MAX_PX; the total, the row's
 *   migrations per 1000 bytecodes and migrations per simulated second (migrations / timeNs).
 * - `routineBars(x)`: the routines' cycles largest first (ties by name), each with its share
 *   of the total (the shares sum to 1 when any cycles were spent) and its cycles by cause
 *   (`causes`, in the results' cause order, only the causes some routine spent cycles in:
 *   `activeCauses`); results without the split (older runs) give no causes.
 * - `perCoreRoutines(x)`: each core's cycles per routine (the results' perCore, in the routines'
 *   order), its total, and the largest total (the common scale); empty without perCore.
 * - `describeCause(name)`: what a cause means in the lab (for legends and tables).
 * - `objectMap(x)`: the heap map object by object (VmExtra.heapMap, vm/heap-objects.ts): each
 *   heap's strip decoded (`decodeCells`: base64 of cellsPerHeap one-byte cell codes: 0 free, 1
 *   vacated, 2 unknown class, 3 + i classes[i]); one column per core (its read-write heap above,
 *   its read-mostly slice below) and, with replication 'global', one more column for the global
 *   read-mostly heap; the moves that carry offsets, in simulated-time order (ties: their order
 *   in the results), each with the column and cell it left and the one it reached; the classes
 *   present ranked by cells (ties: name). A malformed heapMap (bad base64, a wrong cell count,
 *   a code naming no class, a move outside its heap) throws an Error naming the problem: the
 *   view shows the message, never a half-drawn map. Null when the results have no heapMap.
 * - `movesAt(d, step)`: the slider: step 0 shows no move, step d.moves.length all of them.
 * Every number comes from the results; nothing here computes a simulated quantity.
 */
import type { Results } from '@manycore/engine';
import { CELL_CLASS0, CELL_FREE, CELL_UNKNOWN, CELL_VACATED, type HeapStrip } from '@manycore/workloads';

/** The object roles of the VM's image (vm/image.ts ObjectRole), in drawing order. */
export const ROLES = ['class', 'method', 'methodDict', 'symbol', 'other', 'context'] as const;
export type Role = (typeof ROLES)[number];

/** The results' `workload.vm` (packages/workloads/src/vm/workload.ts VmExtra), as the web reads it. */
export interface VmExtra {
  cores: number;
  heapBytes: number;
  replication: string;
  heaps: { core: number; readWrite: Record<string, number>; readMostly: Record<string, number>; allocatedBytes: number }[];
  baton: { from: number; to: number; count: number }[];
  /** fromOffset / toOffset (bytes into the heaps) and timeNs: absent in results from before the object map */
  moves: { className: string; fromCore: number; toCore: number; bytes: number; fromOffset?: number; toOffset?: number; timeNs?: number }[];
  /** the heap map object by object (vm/heap-objects.ts); absent in results from before it */
  heapMap?: { cellsPerHeap: number; classes: string[]; heaps: HeapStripExtra[] };
  /** cycles by cause (`causes` names them; they sum to cycles) — absent in results from before the split */
  routines: { name: string; cycles: number; causes?: Record<string, number> }[];
  causes?: string[];
  /** each core's cycles per routine, in `routines` order */
  perCore?: { core: number; cycles: number[] }[];
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRec = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const numRecord = (v: unknown): v is Record<string, number> => isRec(v) && Object.values(v).every(isNum);

/** The run's VmExtra, or null when the results have none (or one of another shape). */
export function vmExtraOf(results: Pick<Results, 'workload'> | null | undefined): VmExtra | null {
  const v = (results?.workload as Record<string, unknown> | undefined)?.vm;
  if (!isRec(v)) return null;
  if (!isNum(v.cores) || !isNum(v.heapBytes) || typeof v.replication !== 'string') return null;
  const { heaps, baton, moves, routines } = v;
  if (!Array.isArray(heaps) || !Array.isArray(baton) || !Array.isArray(moves) || !Array.isArray(routines)) return null;
  if (!heaps.every((h) => isRec(h) && isNum(h.core) && numRecord(h.readWrite) && numRecord(h.readMostly) && isNum(h.allocatedBytes))) return null;
  if (!baton.every((e) => isRec(e) && isNum(e.from) && isNum(e.to) && isNum(e.count))) return null;
  if (!moves.every((m) => isRec(m) && typeof m.className === 'string' && isNum(m.fromCore) && isNum(m.toCore) && isNum(m.bytes))) return null;
  if (!routines.every((r) => isRec(r) && typeof r.name === 'string' && isNum(r.cycles) && (r.causes === undefined || numRecord(r.causes)))) return null;
  if (v.causes !== undefined && !(Array.isArray(v.causes) && v.causes.every((c) => typeof c === 'string'))) return null;
  if (v.perCore !== undefined && !(Array.isArray(v.perCore) && v.perCore.every((c) => isRec(c) && isNum(c.core) && Array.isArray(c.cycles) && c.cycles.length === routines.length && c.cycles.every(isNum))))
    return null;
  return v as unknown as VmExtra;
}

/** The VM's row fields the views quote (the first row of results.workload.rows). */
export interface VmRow {
  migrations: number;
  migrationsPer1000Bytecodes: number;
  timeNs: number;
  bytecodes: number;
}

export function vmRowOf(results: Pick<Results, 'workload'>): VmRow | null {
  const r = results.workload.rows[0] as Record<string, unknown> | undefined;
  if (!r || !isNum(r.migrations) || !isNum(r.migrationsPer1000Bytecodes) || !isNum(r.timeNs) || !isNum(r.bytecodes)) return null;
  return { migrations: r.migrations, migrationsPer1000Bytecodes: r.migrationsPer1000Bytecodes, timeNs: r.timeNs, bytecodes: r.bytecodes };
}

// ------------------------------------------------------------------ heap map

/** Bytes by role of one region (a read-write heap's snapshot, a read-mostly slice); roles not in ROLES go to 'other'. */
export type RoleBytes = Record<Role, number>;

function roleBytes(src: Record<string, number>): RoleBytes {
  const out = Object.fromEntries(ROLES.map((r) => [r, 0])) as RoleBytes;
  for (const [k, v] of Object.entries(src)) out[(ROLES as readonly string[]).includes(k) ? (k as Role) : 'other'] += v;
  return out;
}
const sumRoles = (r: RoleBytes) => ROLES.reduce((a, k) => a + r[k], 0);

export interface HeapColumn {
  core: number;
  /** the snapshot's bytes in this core's read-write heap, by role */
  readWrite: RoleBytes;
  readWriteSnapshotBytes: number;
  /** bytes the run allocated in this core's read-write heap (objects, contexts) */
  allocatedBytes: number;
  /** snapshot + allocated */
  readWriteBytes: number;
  /** the snapshot's bytes in this core's read-mostly slice, by role (all 0 with a global read-mostly heap) */
  readMostly: RoleBytes;
  readMostlyBytes: number;
  /** store-barrier moves that left this core's read-mostly slice / arrived in its read-write heap */
  movesOut: number;
  movesIn: number;
}

export interface HeapMove {
  className: string;
  bytes: number;
  /** the core whose read-mostly slice the object left; -1: the global read-mostly heap */
  fromCore: number;
  toCore: number;
  /** the column the arrow starts at (a core's index in `columns`, or -1 for the global column) and ends at */
  fromColumn: number;
  toColumn: number;
}

export interface HeapMapData {
  replication: string;
  heapBytes: number;
  columns: HeapColumn[];
  /** the single global read-mostly heap (replication 'global'), else null */
  global: { readMostly: RoleBytes; bytes: number; movesOut: number } | null;
  moves: HeapMove[];
  /** the tallest bar, bytes (0 when every heap is empty) */
  maxBytes: number;
  totals: { readWriteSnapshotBytes: number; allocatedBytes: number; readMostlyBytes: number };
}

export function heapMap(x: VmExtra): HeapMapData {
  const isGlobal = x.replication === 'global';
  const heaps = [...x.heaps].sort((a, b) => a.core - b.core);
  const columnOf = new Map<number, number>();
  const globalRm = roleBytes({});
  const columns: HeapColumn[] = heaps.map((h, i) => {
    columnOf.set(h.core, i);
    const rw = roleBytes(h.readWrite);
    const rm = roleBytes(h.readMostly);
    if (isGlobal) for (const r of ROLES) globalRm[r] += rm[r];
    const readMostly = isGlobal ? roleBytes({}) : rm;
    const snap = sumRoles(rw);
    return {
      core: h.core,
      readWrite: rw,
      readWriteSnapshotBytes: snap,
      allocatedBytes: h.allocatedBytes,
      readWriteBytes: snap + h.allocatedBytes,
      readMostly,
      readMostlyBytes: sumRoles(readMostly),
      movesOut: 0,
      movesIn: 0,
    };
  });
  const global = isGlobal ? { readMostly: globalRm, bytes: sumRoles(globalRm), movesOut: 0 } : null;
  const moves: HeapMove[] = x.moves.map((m) => {
    const fromColumn = m.fromCore < 0 ? -1 : (columnOf.get(m.fromCore) ?? -1);
    const toColumn = columnOf.get(m.toCore) ?? -1;
    if (fromColumn >= 0) columns[fromColumn]!.movesOut++;
    else if (global) global.movesOut++;
    if (toColumn >= 0) columns[toColumn]!.movesIn++;
    return { className: m.className, bytes: m.bytes, fromCore: m.fromCore, toCore: m.toCore, fromColumn, toColumn };
  });
  let maxBytes = global?.bytes ?? 0;
  for (const c of columns) maxBytes = Math.max(maxBytes, c.readWriteBytes, c.readMostlyBytes);
  const totals = {
    readWriteSnapshotBytes: columns.reduce((a, c) => a + c.readWriteSnapshotBytes, 0),
    allocatedBytes: columns.reduce((a, c) => a + c.allocatedBytes, 0),
    readMostlyBytes: (global?.bytes ?? 0) + columns.reduce((a, c) => a + c.readMostlyBytes, 0),
  };
  return { replication: x.replication, heapBytes: x.heapBytes, columns, global, moves, maxBytes, totals };
}

/** Where a move's object went, in words: "core 2's read-mostly slice → core 2's read-write heap". */
export function describeMove(m: Pick<HeapMove, 'fromCore' | 'toCore'>): string {
  return `${m.fromCore < 0 ? 'the global read-mostly heap' : `core ${m.fromCore}'s read-mostly slice`} → core ${m.toCore}'s read-write heap`;
}

// ------------------------------------------------------------------ baton path

/** Thinnest and widest edge of the baton path, world units of the floorplan (a UI choice). */
export const EDGE_MIN_PX = 1.5;
export const EDGE_MAX_PX = 16;

export interface BatonEdge {
  from: number;
  to: number;
  count: number;
  share: number;
  widthPx: number;
}

export interface BatonPathData {
  edges: BatonEdge[];
  /** migrations summed over the edges */
  migrations: number;
  /** cores that sent or received the baton */
  cores: number[];
  per1000Bytecodes: number;
  /** migrations per simulated second: migrations / (timeNs * 1e-9); 0 when timeNs is 0 */
  perSimSecond: number;
  timeNs: number;
}

export function batonPath(x: VmExtra, row: Pick<VmRow, 'migrationsPer1000Bytecodes' | 'timeNs'>): BatonPathData {
  const merged = new Map<string, BatonEdge>();
  for (const e of x.baton) {
    if (e.count <= 0) continue;
    const k = `${e.from}>${e.to}`;
    const m = merged.get(k);
    if (m) m.count += e.count;
    else merged.set(k, { from: e.from, to: e.to, count: e.count, share: 0, widthPx: 0 });
  }
  const edges = [...merged.values()].sort((a, b) => b.count - a.count || a.from - b.from || a.to - b.to);
  const migrations = edges.reduce((a, e) => a + e.count, 0);
  const top = edges[0]?.count ?? 0;
  for (const e of edges) {
    e.share = migrations > 0 ? e.count / migrations : 0;
    e.widthPx = top > 0 ? EDGE_MIN_PX + ((EDGE_MAX_PX - EDGE_MIN_PX) * e.count) / top : EDGE_MIN_PX;
  }
  const cores = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort((a, b) => a - b);
  return { edges, migrations, cores, per1000Bytecodes: row.migrationsPer1000Bytecodes, perSimSecond: row.timeNs > 0 ? migrations / (row.timeNs * 1e-9) : 0, timeNs: row.timeNs };
}

// ------------------------------------------------------------------ stalls by routine

export interface RoutineBar {
  name: string;
  cycles: number;
  share: number;
  /** the routine's cycles by cause, in `activeCauses` order */
  causes: { cause: string; cycles: number }[];
}

export function routineBars(x: Pick<VmExtra, 'routines' | 'causes'>): { bars: RoutineBar[]; totalCycles: number; activeCauses: string[]; causeTotals: Record<string, number> } {
  const totalCycles = x.routines.reduce((a, r) => a + r.cycles, 0);
  const causeTotals: Record<string, number> = {};
  for (const c of x.causes ?? []) causeTotals[c] = x.routines.reduce((a, r) => a + (r.causes?.[c] ?? 0), 0);
  const activeCauses = (x.causes ?? []).filter((c) => causeTotals[c]! > 0);
  const bars = x.routines
    .map((r) => ({
      name: r.name,
      cycles: r.cycles,
      share: totalCycles > 0 ? r.cycles / totalCycles : 0,
      causes: r.causes ? activeCauses.map((c) => ({ cause: c, cycles: r.causes![c] ?? 0 })) : [],
    }))
    .sort((a, b) => b.cycles - a.cycles || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { bars, totalCycles, activeCauses, causeTotals };
}

/** What each cause of a routine's cycles is (vm/core-memory.ts CAUSE_NAMES), for the legend and the table. */
export const CAUSE_TITLES: Record<string, string> = {
  executed: 'executed work (instructions, L1 hits)',
  tlbRefill: 'TLB refill handler (executed)',
  remoteHome: 'stall: word read at a non-home tile (its home L2, or memory through it)',
  l1Miss: 'stall: own L2 hit after an L1 miss (and write-through stores)',
  l2Miss: 'stall: own L2 miss, line filled from DRAM',
  dram: 'stall: uncached or write-through traffic (remote stores, write-backs, SCC uncached)',
  mpb: 'stall: message-passing buffer',
  network: 'stall: on-chip network',
  wait: 'stall: waiting on a flag',
  flush: 'stall: cache flush',
};
export function describeCause(name: string): string {
  return CAUSE_TITLES[name] ?? name;
}

export interface CoreRoutines {
  core: number;
  /** cycles per routine, in the results' routine order (`names`) */
  cycles: number[];
  total: number;
}

export function perCoreRoutines(x: Pick<VmExtra, 'routines' | 'perCore'>): { names: string[]; cores: CoreRoutines[]; maxTotal: number } {
  const names = x.routines.map((r) => r.name);
  const cores = [...(x.perCore ?? [])]
    .sort((a, b) => a.core - b.core)
    .map((c) => ({ core: c.core, cycles: [...c.cycles], total: c.cycles.reduce((a, b) => a + b, 0) }));
  return { names, cores, maxTotal: cores.reduce((a, c) => Math.max(a, c.total), 0) };
}

/** What each VM routine's cycles cover (vm/format.ts ROUTINE), for the chart's labels and table. */
export const ROUTINE_TITLES: Record<string, string> = {
  fetchBytecode: 'fetch next bytecode',
  fetchClass: 'fetch class',
  lookup: 'method lookup',
  activate: 'context allocation and argument copy',
  return: 'return',
  stack: 'pushes and pops on the active context',
  objectAccess: 'receiver variables, at:, at:put:, literals',
  primitive: 'primitives',
  storeBarrier: 'store barrier',
  allocate: 'allocation',
  migrate: 'baton send and receive',
  clock: 'per-migration clock call',
};

// ------------------------------------------------------------------ heap map, object by object

/** One heap's strip in the results, and the cell codes: the workload's own format (vm/heap-objects.ts). */
export type HeapStripExtra = HeapStrip;
export { CELL_FREE, CELL_VACATED, CELL_UNKNOWN, CELL_CLASS0 };

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** Decodes a strip (RFC 4648 base64 with padding) of exactly `cells` bytes; an Error naming what is wrong otherwise. */
export function decodeCells(b64: string, cells: number, what = 'a heap'): Uint8Array {
  if (b64.length % 4 !== 0) throw new Error(`heap map: ${what}'s cells are not base64 (length ${b64.length} is not a multiple of 4)`);
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  const n = (b64.length / 4) * 3 - pad;
  if (n !== cells) throw new Error(`heap map: ${what} has ${n} cells, expected ${cells}`);
  const out = new Uint8Array(n);
  for (let i = 0, o = 0; i < b64.length; i += 4) {
    let v = 0;
    for (let j = 0; j < 4; j++) {
      const ch = b64.charCodeAt(i + j);
      const d = ch === 61 && i + j >= b64.length - pad ? 0 : ch < 128 ? B64_INDEX[ch]! : -1;
      if (d < 0) throw new Error(`heap map: ${what}'s cells are not base64 (character ${JSON.stringify(b64[i + j])} at ${i + j})`);
      v = (v << 6) | d;
    }
    if (o < n) out[o++] = (v >>> 16) & 0xff;
    if (o < n) out[o++] = (v >>> 8) & 0xff;
    if (o < n) out[o++] = v & 0xff;
  }
  return out;
}

export type HeapRegionName = 'readWrite' | 'readMostly';

export interface ObjectHeap {
  core: number;
  region: HeapRegionName;
  cells: Uint8Array;
  cellBytes: number;
  usedBytes: number;
  liveObjects: number;
  vacatedObjects: number;
}

export interface ObjectColumn {
  /** -1: the global read-mostly heap */
  core: number;
  readWrite: ObjectHeap | null;
  readMostly: ObjectHeap | null;
}

export interface ObjectMove {
  index: number;
  className: string;
  bytes: number;
  fromCore: number;
  toCore: number;
  timeNs: number;
  /** the column (index into columns) and cell the object left (in a read-mostly heap) and reached (in a read-write heap) */
  fromColumn: number;
  fromCell: number;
  toColumn: number;
  toCell: number;
  fromOffset: number;
  toOffset: number;
}

export interface ObjectMapData {
  cellsPerHeap: number;
  classes: string[];
  columns: ObjectColumn[];
  moves: ObjectMove[];
  /** class codes present in some cell, most cells first (ties: name) */
  present: { code: number; name: string; cells: number }[];
  /** cells of the read-write and read-mostly heaps (each the same for every heap of its kind) */
  cellBytes: Record<HeapRegionName, number>;
}

const isRegion = (v: unknown): v is HeapRegionName => v === 'readWrite' || v === 'readMostly';

export function objectMap(x: VmExtra): ObjectMapData | null {
  const hm = x.heapMap as unknown;
  if (hm === undefined) return null;
  if (!isRec(hm) || !isNum(hm.cellsPerHeap) || hm.cellsPerHeap <= 0 || !Array.isArray(hm.classes) || !hm.classes.every((c) => typeof c === 'string') || !Array.isArray(hm.heaps))
    throw new Error('heap map: the results\' heapMap lacks cellsPerHeap, classes or heaps');
  const cells = hm.cellsPerHeap;
  const classes = hm.classes as string[];
  const global = x.replication === 'global';
  const columns: ObjectColumn[] = [...x.heaps].sort((a, b) => a.core - b.core).map((h) => ({ core: h.core, readWrite: null, readMostly: null }));
  const colOf = new Map(columns.map((c, i) => [c.core, i]));
  if (global) {
    colOf.set(-1, columns.length);
    columns.push({ core: -1, readWrite: null, readMostly: null });
  }
  const counts = new Map<number, number>();
  const cellBytes: Record<HeapRegionName, number> = { readWrite: 0, readMostly: 0 };
  for (const h of hm.heaps as unknown[]) {
    if (!isRec(h) || !isNum(h.core) || !isRegion(h.region) || !isNum(h.cellBytes) || h.cellBytes <= 0 || !isNum(h.usedBytes) || !isNum(h.liveObjects) || !isNum(h.vacatedObjects) || typeof h.cells !== 'string')
      throw new Error('heap map: a heap lacks core, region, cellBytes, usedBytes, object counts or cells');
    const name = h.core < 0 ? 'the global read-mostly heap' : `core ${h.core}'s ${h.region === 'readWrite' ? 'read-write heap' : 'read-mostly slice'}`;
    const col = colOf.get(h.core);
    if (col === undefined || (h.core < 0 && h.region !== 'readMostly')) throw new Error(`heap map: ${name} is not one of the run's heaps`);
    const decoded = decodeCells(h.cells, cells, name);
    for (const c of decoded) {
      if (c >= CELL_CLASS0 + classes.length) throw new Error(`heap map: ${name} has cell code ${c}, but only ${classes.length} classes are named`);
      if (c >= CELL_CLASS0) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    if (columns[col]![h.region]) throw new Error(`heap map: ${name} appears twice`);
    columns[col]![h.region] = { core: h.core, region: h.region, cells: decoded, cellBytes: h.cellBytes, usedBytes: h.usedBytes, liveObjects: h.liveObjects, vacatedObjects: h.vacatedObjects };
    cellBytes[h.region] = Math.max(cellBytes[h.region], h.cellBytes);
  }
  const moves: ObjectMove[] = [];
  x.moves.forEach((m, index) => {
    if (!isNum(m.fromOffset) || !isNum(m.toOffset) || !isNum(m.timeNs)) return;
    const fromColumn = colOf.get(m.fromCore) ?? -1;
    const toColumn = colOf.get(m.toCore) ?? -1;
    const from = columns[fromColumn]?.readMostly;
    const to = columns[toColumn]?.readWrite;
    if (!from || !to) throw new Error(`heap map: move ${index} (${m.className}) names a heap the map lacks (${describeMove(m)})`);
    if (m.fromOffset < 0 || m.toOffset < 0) throw new Error(`heap map: move ${index} (${m.className}) has a negative offset`);
    moves.push({
      index,
      className: m.className,
      bytes: m.bytes,
      fromCore: m.fromCore,
      toCore: m.toCore,
      timeNs: m.timeNs,
      fromColumn,
      toColumn,
      fromOffset: m.fromOffset,
      toOffset: m.toOffset,
      fromCell: Math.min(cells - 1, Math.floor(m.fromOffset / from.cellBytes)),
      toCell: Math.min(cells - 1, Math.floor(m.toOffset / to.cellBytes)),
    });
  });
  moves.sort((a, b) => a.timeNs - b.timeNs || a.index - b.index);
  const present = [...counts]
    .map(([code, n]) => ({ code, name: classes[code - CELL_CLASS0]!, cells: n }))
    .sort((a, b) => b.cells - a.cells || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { cellsPerHeap: cells, classes, columns, moves, present, cellBytes };
}

/** The moves drawn at slider position `step` (0: none; d.moves.length: all), in time order. */
export function movesAt(d: Pick<ObjectMapData, 'moves'>, step: number): ObjectMove[] {
  return d.moves.slice(0, Math.max(0, Math.min(d.moves.length, Math.floor(step))));
}

/** What a cell holds, in words (the tooltip): its core, heap, class (or free / vacated) and byte range. */
export function describeCell(d: ObjectMapData, column: number, region: HeapRegionName, cell: number): { core: string; heap: string; what: string; from: number; to: number } | null {
  const col = d.columns[column];
  const h = col?.[region];
  if (!col || !h || cell < 0 || cell >= h.cells.length) return null;
  const code = h.cells[cell]!;
  const what = code === CELL_FREE ? 'free' : code === CELL_VACATED ? 'vacated (a moved object\'s old copy)' : code === CELL_UNKNOWN ? 'an object of an unnamed class' : d.classes[code - CELL_CLASS0]!;
  return {
    core: col.core < 0 ? 'all cores' : `core ${col.core}`,
    heap: col.core < 0 ? 'global read-mostly heap (user-managed)' : region === 'readWrite' ? 'read-write heap (homed)' : 'read-mostly slice (user-managed)',
    what,
    from: cell * h.cellBytes,
    to: (cell + 1) * h.cellBytes,
  };
}
