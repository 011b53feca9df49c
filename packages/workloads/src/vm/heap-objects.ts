/**
 * The heap map's data (issue 15 item 5): every heap of a vm run described object by object, as
 * a fixed-resolution strip of cells, read by walking the object headers in memory.
 *
 * Contract
 * - walkObjects(mem, start, end): the objects laid out from `start` to `end` (byte addresses),
 *   read from memory only: at each address the header's class oop (a zero word is a gap never
 *   written: the image filler, skipped word by word), its format word (size: format.ts), its
 *   back pointer to the object-table entry; an object is live when its OTE holds its body,
 *   else it is vacated (the old copy the store barrier left behind when it moved the object:
 *   the copy stays, its OTE points at the new body). An object running past `end` or a header
 *   that is not an object is an Error naming the address.
 * - ClassLegend: class names read from memory (class oop -> its OTE -> body -> CLS_NAME -> the
 *   Symbol's bytes); an instance of a metaclass (a class object) is listed as 'Class'. Codes in
 *   first-seen order: cell code CELL_CLASS0 + i is names[i]; at most MAX_HEAP_MAP_CLASSES.
 * - Strip (one heap, its first HEAP_MAP_CELLS x cellBytes bytes from the heap's base): one byte
 *   per cell: CELL_FREE (no object byte in it), CELL_VACATED (some byte of a vacated object;
 *   it wins so that a moved object's old place always shows), else the code covering most of
 *   the cell's object bytes (ties: the first object). Encoded as base64 (RFC 4648, with '='
 *   padding) of the HEAP_MAP_CELLS bytes: VmExtra.heapMap; apps/web vm-views.ts decodes it.
 * - replayHeaps(...): the memory the walk reads. The engine has no untimed read of simulated
 *   memory (a load through the core would charge time, cache state and counters after the run
 *   and change every simulated result), so the run's functional part is replayed on the host:
 *   the same layout (spaceLayout / sccLayout), placement, image, per-core spaces (each core its
 *   own private window: method cache, free lists, the SCC's Heap descriptor) and interpreter,
 *   the baton handed from core to core exactly where the simulated run handed it (one thread
 *   of control, so the words in memory at the end are the simulated run's). No time: the move
 *   times come from the simulated run's rows.
 * Off the hot path: once per run, after it (VmExtra).
 */
import { WorkloadParamError, type ResolvedChip, type SccChip } from '@manycore/engine';
import { CLS_NAME, HDR_CLASS, HDR_FORMAT, HDR_OTE, HEADER_WORDS, KIND_BYTES, KIND_CONTEXT, KIND_METHOD, KIND_POINTERS, STOP, fmtCount, fmtKind, mhLiterals, type VmMemory } from './format';
import { layoutImage, type Image } from './image';
import { Interpreter } from './interpreter';
import { buildProgram, sourceText, type Benchmark } from './program';
import { SccSnapshotPlacement, SccSpace, sccLayout } from './scc-space';
import type { Replication } from './snapshot';
import { HEAP_DESCRIPTOR_BYTES, SnapshotPlacement, Tile64Space, spaceLayout } from './tile64-space';

/** Cells per heap in the strip (a heap column of the map). */
export const HEAP_MAP_CELLS = 256;
export const CELL_FREE = 0;
export const CELL_VACATED = 1;
/** A header whose class has no readable name. */
export const CELL_UNKNOWN = 2;
export const CELL_CLASS0 = 3;
export const MAX_HEAP_MAP_CLASSES = 256 - CELL_CLASS0;
/** The smallest cell: one word (an object, at least 12 bytes, then covers 3 cells or more). */
export const MIN_CELL_BYTES = 4;

export interface WordReader {
  load32(addr: number): number;
}

export interface HeapObjectRecord {
  body: number;
  bytes: number;
  classOop: number;
  /** false: vacated (its OTE points elsewhere: a moved object's old copy) */
  live: boolean;
}

const hex = (a: number) => `0x${(a >>> 0).toString(16)}`;

/** Words of the object at `body` (header included), from its format word (and a method's header slot). */
export function objectWords(mem: WordReader, body: number): number {
  const fmt = mem.load32(body + HDR_FORMAT);
  const kind = fmtKind(fmt);
  const count = fmtCount(fmt);
  if (kind === KIND_POINTERS || kind === KIND_CONTEXT) return HEADER_WORDS + count;
  if (kind === KIND_BYTES) return HEADER_WORDS + Math.ceil(count / 4);
  if (kind === KIND_METHOD) return HEADER_WORDS + 1 + mhLiterals(mem.load32(body + 4 * HEADER_WORDS)) + Math.ceil(count / 4);
  throw new Error(`heap walk: the object at ${hex(body)} has format word ${hex(fmt)} (kind ${kind} is none of the VM's)`);
}

/** The objects from `start` to `end`, read from memory (see the contract). */
export function walkObjects(mem: WordReader, start: number, end: number): HeapObjectRecord[] {
  const out: HeapObjectRecord[] = [];
  let a = start;
  while (a < end) {
    const cls = mem.load32(a + HDR_CLASS);
    if (cls === 0) {
      a += 4;
      continue;
    }
    if ((cls & 3) !== 0) throw new Error(`heap walk: the word at ${hex(a)} (${hex(cls)}) is not an object header's class (an OTE address)`);
    const bytes = 4 * objectWords(mem, a);
    if (a + bytes > end) throw new Error(`heap walk: the object at ${hex(a)} (${bytes} bytes) runs past the heap's end ${hex(end)}`);
    const ote = mem.load32(a + HDR_OTE);
    out.push({ body: a, bytes, classOop: cls, live: ote !== 0 && mem.load32(ote) === a });
    a += bytes;
  }
  return out;
}

/** Class names by class oop, read from memory; codes in first-seen order. */
export class ClassLegend {
  readonly names: string[] = [];
  private readonly codes = new Map<number, number>();
  private readonly byName = new Map<string, number>();
  constructor(private readonly mem: WordReader) {}

  /** The cell code of instances of the class `classOop`. */
  codeOf(classOop: number): number {
    let code = this.codes.get(classOop);
    if (code !== undefined) return code;
    const name = this.nameOf(classOop);
    if (name === null) code = CELL_UNKNOWN;
    else {
      const label = name.endsWith(' class') ? 'Class' : name;
      code = this.byName.get(label);
      if (code === undefined) {
        if (this.names.length >= MAX_HEAP_MAP_CLASSES) throw new Error(`heap map: more than ${MAX_HEAP_MAP_CLASSES} classes (a cell is one byte)`);
        code = CELL_CLASS0 + this.names.length;
        this.names.push(label);
        this.byName.set(label, code);
      }
    }
    this.codes.set(classOop, code);
    return code;
  }

  private nameOf(classOop: number): string | null {
    const m = this.mem;
    const body = m.load32(classOop);
    if (body === 0 || (body & 3) !== 0) return null;
    const sym = m.load32(body + 4 * (HEADER_WORDS + CLS_NAME));
    if (sym === 0 || (sym & 3) !== 0) return null;
    const sb = m.load32(sym);
    if (sb === 0 || (sb & 3) !== 0) return null;
    const fmt = m.load32(sb + HDR_FORMAT);
    if (fmtKind(fmt) !== KIND_BYTES || fmtCount(fmt) > 200) return null;
    let s = '';
    for (let i = 0; i < fmtCount(fmt); i++) s += String.fromCharCode((m.load32(sb + 4 * HEADER_WORDS + (i & ~3)) >>> (8 * (i & 3))) & 0xff);
    return s;
  }
}

/** The strip of one heap whose cells start at `base` (see the contract). */
export function stripCells(objects: readonly HeapObjectRecord[], base: number, cellBytes: number, codeOf: (classOop: number) => number, cells = HEAP_MAP_CELLS): Uint8Array {
  const out = new Uint8Array(cells);
  const bytesBy = new Map<number, number>();
  let cell = -1;
  const close = () => {
    if (cell < 0 || cell >= cells || out[cell] === CELL_VACATED) return;
    let best = CELL_FREE;
    let most = 0;
    for (const [code, n] of bytesBy) if (n > most) [best, most] = [code, n];
    out[cell] = best;
  };
  for (const o of objects) {
    const first = Math.floor((o.body - base) / cellBytes);
    const last = Math.floor((o.body + o.bytes - 1 - base) / cellBytes);
    const code = o.live ? codeOf(o.classOop) : CELL_VACATED;
    for (let c = Math.max(first, 0); c <= last && c < cells; c++) {
      if (c !== cell) {
        close();
        cell = c;
        bytesBy.clear();
      }
      if (code === CELL_VACATED) out[c] = CELL_VACATED;
      const lo = Math.max(o.body, base + c * cellBytes);
      const hi = Math.min(o.body + o.bytes, base + (c + 1) * cellBytes);
      bytesBy.set(code, (bytesBy.get(code) ?? 0) + hi - lo);
    }
  }
  close();
  return out;
}

/** The smallest power-of-two cell (at least MIN_CELL_BYTES) whose HEAP_MAP_CELLS cells cover `bytes`. */
export function cellBytesFor(bytes: number, cells = HEAP_MAP_CELLS): number {
  let c = MIN_CELL_BYTES;
  while (c * cells < bytes) c *= 2;
  return c;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** RFC 4648 base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    s += B64[(n >>> 18) & 63]! + B64[(n >>> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >>> 6) & 63]! : '=') + (i + 2 < bytes.length ? B64[n & 63]! : '=');
  }
  return s;
}

// ---------------------------------------------------------------- the replay's memory

const PAGE_SHIFT = 16;
const PAGE_WORDS = (1 << PAGE_SHIFT) / 4;
const OFFSET_MASK = (1 << PAGE_SHIFT) - 1;
type Pages = (Uint32Array | undefined)[];
/** A page table over the 32-bit space (packed, so lookups stay fast element accesses). */
const newPages = (): Pages => new Array<Uint32Array | undefined>(1 << (32 - PAGE_SHIFT)).fill(undefined);

function pageFor(pages: Pages, addr: number): Uint32Array {
  const k = addr >>> PAGE_SHIFT;
  let p = pages[k];
  if (p === undefined) pages[k] = p = new Uint32Array(PAGE_WORDS);
  return p;
}

/**
 * A sparse host memory of 64 KB pages over the 32-bit address space (unwritten words read 0).
 * load32 / store32 reach the shared pages; core(k, lo, hi) is core k's VmMemory, whose addresses
 * outside [lo, hi) are its own private pages (the private windows alias on the real chips).
 */
export class SparseMemory implements WordReader {
  readonly shared: Pages = newPages();
  load32(addr: number): number {
    const p = this.shared[addr >>> PAGE_SHIFT];
    return p === undefined ? 0 : p[(addr & OFFSET_MASK) >>> 2]!;
  }
  store32(addr: number, value: number): void {
    pageFor(this.shared, addr)[(addr & OFFSET_MASK) >>> 2] = value;
  }
  core(_k: number, sharedLo: number, sharedHi: number): VmMemory {
    return new CoreView(this.shared, sharedLo, sharedHi);
  }
}

/** One core's VmMemory over a SparseMemory: shared pages in [lo, hi), its own few private pages elsewhere; no time. */
class CoreView implements VmMemory {
  private readonly own = new Map<number, Uint32Array>();
  private ownKey = -1;
  private ownPage: Uint32Array = new Uint32Array(PAGE_WORDS);
  constructor(
    private readonly shared: Pages,
    private readonly lo: number,
    private readonly hi: number,
  ) {}
  /** The page holding addr (created when `create`; else null when never written). */
  private page(addr: number, create: boolean): Uint32Array | null {
    const k = addr >>> PAGE_SHIFT;
    if (addr >= this.lo && addr < this.hi) return this.shared[k] ?? (create ? pageFor(this.shared, addr) : null);
    if (k === this.ownKey) return this.ownPage;
    let p = this.own.get(k);
    if (p === undefined) {
      if (!create) return null;
      this.own.set(k, (p = new Uint32Array(PAGE_WORDS)));
    }
    this.ownKey = k;
    this.ownPage = p;
    return p;
  }
  load32(addr: number): number {
    const p = this.page(addr, false);
    return p === null ? 0 : p[(addr & OFFSET_MASK) >>> 2]!;
  }
  store32(addr: number, value: number): void {
    this.page(addr, true)![(addr & OFFSET_MASK) >>> 2] = value;
  }
  load8(addr: number): number {
    return (this.load32(addr - (addr & 3)) >>> (8 * (addr & 3))) & 0xff;
  }
  store8(addr: number, value: number): void {
    const w = addr - (addr & 3);
    const s = 8 * (addr & 3);
    this.store32(w, (this.load32(w) & ~(0xff << s)) | ((value & 0xff) << s));
  }
  compute(): void {}
  enter(): void {}
}

// ---------------------------------------------------------------- the replay and the map

export interface HeapRegion {
  /** the core whose heap it is; -1: the global read-mostly heap */
  core: number;
  region: 'readWrite' | 'readMostly';
  /** address of the heap's first byte (cell 0) */
  base: number;
  /** where the walk starts (after the TILE64's Heap descriptor) and ends (the allocation pointer) */
  start: number;
  end: number;
}

export interface ReplayParams {
  benchmark: Benchmark;
  size: number;
  cores: number;
  heapBytes: number;
  replication: Replication;
  imageFillerKB: number;
}

export interface Replay {
  mem: SparseMemory;
  image: Image;
  regions: HeapRegion[];
  result: number;
  bytecodes: number;
  /** the replay's store-barrier moves, as Interpreter.moves (per core, concatenated in core order) */
  moves: number[];
}

/** Replays the run's functional part on the host (see the contract): the memory the heap map walks. */
export function replayHeaps(chip: ResolvedChip, p: ReplayParams): Replay {
  const mem = new SparseMemory();
  const program = buildProgram(p.benchmark);
  const regions: HeapRegion[] = [];
  type Space = Tile64Space | SccSpace;
  const spaces: Space[] = [];
  const views: VmMemory[] = [];
  let image: Image;
  let rwNext: Float64Array;
  if (chip.family === 'scc') {
    const L = sccLayout(chip as SccChip, p.cores, p.heapBytes, p.replication, 0);
    const placement = new SccSnapshotPlacement(L);
    image = layoutImage(program, p.size, placement);
    rwNext = placement.rwNext;
    for (let k = 0; k < p.cores; k++) {
      views.push(mem.core(k, L.sharedBase, L.sharedBase + L.sharedBytes));
      spaces.push(new SccSpace(views[k]!, L, k, 0, chip.privateBase));
      regions.push({ core: k, region: 'readWrite', base: L.heapBase[k]!, start: L.heapBase[k]!, end: 0 });
    }
    if (p.replication === 'global') regions.push({ core: -1, region: 'readMostly', base: L.globalRmBase, start: L.globalRmBase, end: 0 });
    else if (p.replication !== 'none') for (let k = 0; k < p.cores; k++) regions.push({ core: k, region: 'readMostly', base: L.rmBase[k]!, start: L.rmBase[k]!, end: 0 });
  } else if (chip.family === 'tile64') {
    const L = spaceLayout(chip.sharedBase, chip.sharedBytes, p.cores, p.heapBytes, p.replication);
    const objects = p.imageFillerKB > 0 ? layoutImage(program, p.size, { place: () => 0, ote: () => 0 }).objects.length : 1;
    const placement = new SnapshotPlacement(L, Math.floor((p.imageFillerKB * 1024) / objects / 4) * 4);
    image = layoutImage(program, p.size, placement);
    rwNext = placement.rwNext;
    for (let k = 0; k < p.cores; k++) {
      views.push(mem.core(k, L.otBase, L.end));
      spaces.push(new Tile64Space(views[k]!, L, k, 0, chip.privateBase));
      const base = L.rwBase + k * L.heapBytes;
      regions.push({ core: k, region: 'readWrite', base, start: base + HEAP_DESCRIPTOR_BYTES, end: 0 });
    }
    if (p.replication === 'global') regions.push({ core: -1, region: 'readMostly', base: L.rmBase, start: L.rmBase, end: 0 });
    else if (p.replication !== 'none') for (let k = 0; k < p.cores; k++) regions.push({ core: k, region: 'readMostly', base: L.rmBase + k * L.heapBytes, start: L.rmBase + k * L.heapBytes, end: 0 });
  } else throw new WorkloadParamError(`the vm heap map knows the tile64 and scc families, not ${chip.family}`, 'chip');
  // the snapshot (every core's share: the words each core wrote), its OTEs, the descriptors
  for (const o of image.objects) {
    for (let w = 0; w < o.words.length; w++) mem.store32(o.body + 4 * w, o.words[w]!);
    mem.store32(o.ote, o.body);
  }
  spaces.forEach((s, k) => s.initDescriptor(rwNext[k]!));
  // the interpreter thread, core to core
  const text = sourceText(p.benchmark);
  const interps = spaces.map((s, k) => new Interpreter(views[k]!, s, image, { sourceText: text }));
  let cur = 0;
  interps[0]!.start();
  let bytecodes = 0;
  for (;;) {
    const it = interps[cur]!;
    const stop = it.run(1 << 20);
    if (stop === STOP.done) break;
    if (stop === STOP.migrate) {
      interps[it.batonTarget]!.resume(it.baton);
      cur = it.batonTarget;
    }
    bytecodes = interps.reduce((a, i) => a + i.counters.bytecodes, 0);
    if (bytecodes > 2e9) throw new Error('heap map replay: no result after 2e9 bytecodes');
  }
  bytecodes = interps.reduce((a, i) => a + i.counters.bytecodes, 0);
  // where each heap's objects end: the allocation pointer (read-write), the snapshot's extent (read-mostly)
  for (const r of regions) {
    if (r.region === 'readWrite') r.end = rwNext[r.core]! + spaces[r.core]!.allocatedBytes;
    else r.end = r.start;
  }
  for (const o of image.objects) {
    const end = o.body + 4 * o.words.length;
    for (const r of regions) if (r.region === 'readMostly' && o.body >= r.base && o.body < r.base + (r.core < 0 ? p.cores : 1) * p.heapBytes) r.end = Math.max(r.end, end);
  }
  return { mem, image, regions, result: interps[cur]!.result, bytecodes, moves: interps.flatMap((i) => i.moves) };
}

/** One heap of the map (VmExtra.heapMap.heaps). */
export interface HeapStrip {
  core: number;
  region: 'readWrite' | 'readMostly';
  /** bytes per cell (the same for every heap of a region kind) */
  cellBytes: number;
  /** bytes from the heap's base to its last object's end */
  usedBytes: number;
  liveObjects: number;
  vacatedObjects: number;
  /** base64 of HEAP_MAP_CELLS cell codes */
  cells: string;
}

export interface HeapMapData {
  cellsPerHeap: number;
  /** cell code CELL_CLASS0 + i is classes[i] */
  classes: string[];
  heaps: HeapStrip[];
}

/** Walks every region of `memory` and encodes its strip; cells of one region kind share their size. */
export function heapMapOf(memory: WordReader, regions: readonly HeapRegion[], cells = HEAP_MAP_CELLS): { map: HeapMapData; objects: HeapObjectRecord[][] } {
  const legend = new ClassLegend(memory);
  const objects = regions.map((r) => walkObjects(memory, r.start, r.end));
  const cellOf = { readWrite: MIN_CELL_BYTES, readMostly: MIN_CELL_BYTES };
  regions.forEach((r) => (cellOf[r.region] = Math.max(cellOf[r.region], cellBytesFor(r.end - r.base, cells))));
  const heaps = regions.map((r, i) => {
    const os = objects[i]!;
    const cellBytes = cellOf[r.region];
    return {
      core: r.core,
      region: r.region,
      cellBytes,
      usedBytes: r.end - r.base,
      liveObjects: os.filter((o) => o.live).length,
      vacatedObjects: os.filter((o) => !o.live).length,
      cells: toBase64(stripCells(os, r.base, cellBytes, (c) => legend.codeOf(c), cells)),
    };
  });
  return { map: { cellsPerHeap: cells, classes: legend.names, heaps }, objects };
}
