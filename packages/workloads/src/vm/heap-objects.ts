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
 * - The memory the walk reads is the simulated memory itself: at its run's end each core walks
 *   its own heaps (its read-write heap, its read-mostly slice; the main core the global
 *   read-mostly heap) through the engine's untimed read (CoreBase.peek32: no time, no counter,
 *   no cache, TLB or write-log change; so the simulated results are the same with or without
 *   the map) and reports them in its row (coreHeapMap: each region with its own legend, at
 *   every cell size its capacity may need); mergeHeapMaps joins the cores' parts into the map
 *   heapMapOf would draw from one memory (regions in its order, one legend, one cell size per
 *   region kind). The move times and addresses come from the run's rows (vm/workload.ts).
 * - heapMapOf(mem, regions): the same map from one memory holding every region (tests, tools).
 * Off the hot path: once per run, after it (VmExtra).
 */
import { CLS_NAME, HDR_CLASS, HDR_FORMAT, HDR_OTE, HEADER_WORDS, KIND_BYTES, KIND_CONTEXT, KIND_METHOD, KIND_POINTERS, fmtCount, fmtKind, mhLiterals } from './format';
import type { Image } from './image';

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

// ---------------------------------------------------------------- the map

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

// ---------------------------------------------------------------- one core's heaps, walked in simulated memory

/** One region of a core's part of the map (CoreHeapMap): what extra needs to place it, its legend and its strips. */
export interface CoreHeapRegion {
  core: number;
  region: 'readWrite' | 'readMostly';
  /** the heap's first byte (cell 0): where the moves' offsets count from */
  base: number;
  usedBytes: number;
  liveObjects: number;
  vacatedObjects: number;
  /** the region's class names in first-seen order: code CELL_CLASS0 + i of its strips is classes[i] */
  classes: string[];
  /** the smallest cell (cellBytesFor(usedBytes)); strips[j] has cells of cellBytes x 2^j bytes */
  cellBytes: number;
  /** base64 strips, from cellBytes up to the cell the region's capacity needs (a kind's cell is its largest heap's) */
  strips: string[];
}

/**
 * One core's part of the heap map (run in the core's program, at its end): each region walked
 * through `mem` (the core's untimed peek32: memory as the core sees it, so the walk charges
 * nothing) and encoded with its own legend at every cell size from its own up to the one its
 * capacity (`capacityBytes` of the region) would need, since the cell of a region kind is the
 * largest any core's heap of that kind needs (heapMapOf) and no core knows the others'.
 */
export function coreHeapMap(mem: WordReader, regions: readonly (HeapRegion & { capacityBytes: number })[], cells = HEAP_MAP_CELLS): CoreHeapRegion[] {
  return regions.map((r) => {
    const objects = walkObjects(mem, r.start, r.end);
    const legend = new ClassLegend(mem);
    const cellBytes = cellBytesFor(r.end - r.base, cells);
    const strips: string[] = [];
    for (let c = cellBytes; c <= Math.max(cellBytes, cellBytesFor(r.capacityBytes, cells)); c *= 2) strips.push(toBase64(stripCells(objects, r.base, c, (k) => legend.codeOf(k), cells)));
    let live = 0;
    for (const o of objects) if (o.live) live++;
    return { core: r.core, region: r.region, base: r.base, usedBytes: r.end - r.base, liveObjects: live, vacatedObjects: objects.length - live, classes: legend.names, cellBytes, strips };
  });
}

/**
 * The heap map from every core's part (coreHeapMap), the same map heapMapOf draws from one
 * memory: regions in heapMapOf's order (read-write heaps by core, then read-mostly ones), each
 * kind's cell the largest its regions need, class codes renumbered into one legend in the
 * first-seen order of that region order (each region's legend is in its own first-seen order).
 */
export function mergeHeapMaps(parts: readonly CoreHeapRegion[], cells = HEAP_MAP_CELLS): HeapMapData {
  const regions = [...parts].sort((a, b) => Number(a.region === 'readMostly') - Number(b.region === 'readMostly') || a.core - b.core);
  const cellOf = { readWrite: MIN_CELL_BYTES, readMostly: MIN_CELL_BYTES };
  for (const r of regions) cellOf[r.region] = Math.max(cellOf[r.region], r.cellBytes);
  const names: string[] = [];
  const codeOfName = new Map<string, number>();
  const heaps = regions.map((r) => {
    const recode = new Uint8Array(256).map((_, i) => i);
    r.classes.forEach((name, i) => {
      let code = codeOfName.get(name);
      if (code === undefined) {
        if (names.length >= MAX_HEAP_MAP_CLASSES) throw new Error(`heap map: more than ${MAX_HEAP_MAP_CLASSES} classes (a cell is one byte)`);
        code = CELL_CLASS0 + names.length;
        names.push(name);
        codeOfName.set(name, code);
      }
      recode[CELL_CLASS0 + i] = code;
    });
    const cellBytes = cellOf[r.region];
    const strip = r.strips[Math.log2(cellBytes / r.cellBytes)];
    if (strip === undefined) throw new Error(`heap map: core ${r.core}'s ${r.region} heap has no strip of ${cellBytes}-byte cells (its strips start at ${r.cellBytes} bytes)`);
    const codes = Uint8Array.from(fromBase64(strip), (c) => recode[c]!);
    if (codes.length !== cells) throw new Error(`heap map: core ${r.core}'s ${r.region} strip has ${codes.length} cells, not ${cells}`);
    return { core: r.core, region: r.region, cellBytes, usedBytes: r.usedBytes, liveObjects: r.liveObjects, vacatedObjects: r.vacatedObjects, cells: toBase64(codes) };
  });
  return { cellsPerHeap: cells, classes: names, heaps };
}

/** Six-bit values of the base64 characters by char code (-1: not base64). */
const B64_VALUE = Int8Array.from({ length: 128 }, (_, c) => B64.indexOf(String.fromCharCode(c)));

/** RFC 4648 base64 with padding (toBase64's) back to bytes; a string that is not base64 is an Error naming the place. */
export function fromBase64(s: string): Uint8Array {
  if (s.length % 4 !== 0) throw new Error(`base64: ${s.length} characters, not a multiple of 4`);
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const c = s.charCodeAt(i + k);
      const v = c === 61 && i + 4 === s.length && k >= 4 - pad ? 0 : c < 128 ? B64_VALUE[c]! : -1; // '=' only as the padding
      if (v < 0) throw new Error(`base64: the character at ${i + k} is not base64`);
      n = (n << 6) | v;
    }
    out[o++] = (n >>> 16) & 0xff;
    if (o < out.length) out[o++] = (n >>> 8) & 0xff;
    if (o < out.length) out[o++] = n & 0xff;
  }
  return out;
}

/** The end of the snapshot objects `image` placed in [base, base + bytes) (`start` when none): a read-mostly region's end. */
export function snapshotEnd(image: Image, base: number, bytes: number, start: number): number {
  let end = start;
  for (const o of image.objects) if (o.body >= base && o.body < base + bytes) end = Math.max(end, o.body + 4 * o.words.length);
  return end;
}
