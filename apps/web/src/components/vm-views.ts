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
 * Every number comes from the results; nothing here computes a simulated quantity.
 */
import type { Results } from '@manycore/engine';

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
  moves: { className: string; fromCore: number; toCore: number; bytes: number }[];
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
