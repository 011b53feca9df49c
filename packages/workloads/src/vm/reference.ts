/**
 * The reference run (issue 15): the same image and interpreter outside the simulator, over a
 * host Uint32Array, to check a simulated run (same result, same bytecode count).
 *
 * Contract
 * - HostMemory: a VmMemory over a Uint32Array (little-endian bytes in words). Stores beyond its
 *   size grow it (doubling, up to maxBytes); loads beyond it, negative or non-integer
 *   addresses, and stores beyond maxBytes throw an Error naming the address. compute() and
 *   enter() only count. No allocation per access.
 * - HostSpace: a VmSpace over one bump-allocated heap and one object-table slice; homeOf,
 *   batonTarget and readMostly are the reference's (homeOf = core inside its heap, else -1;
 *   never pass the baton; nothing read-mostly) unless the options replace them (tests build
 *   multi-core or read-mostly spaces with them). A full heap or table throws a VmError.
 * - FlatPlacement: the snapshot laid out contiguously from a base, OTE #i at otBase + 4i.
 * - referenceRun(program, size, opts): lays out the image (one flat heap), runs it to the
 *   boot context's return and gives {result (the decoded SmallInteger), bytecodes, sends,
 *   counters}. Throws if the result is not a SmallInteger or maxBytecodes pass. A pure function
 *   of (program, size, options): the last REFERENCE_MEMO results are kept per process (keyed by
 *   the program object, memoised by buildProgram, and the arguments), so a lab that runs the same
 *   benchmark again does not interpret it again; callers get their own counters object and must
 *   not mutate the image.
 */
import { CORE_DATA_WORDS, STOP, intValue, isSmallInt, type ProgramSpec, type VmMemory, type VmSpace } from './format';
import { layoutImage, type Image, type ObjectRole, type Placement } from './image';
import { Interpreter, VmError, type InterpreterCounters } from './interpreter';

export class HostMemory implements VmMemory {
  words: Uint32Array;
  loads = 0;
  stores = 0;
  computeCycles = 0;
  constructor(
    sizeBytes = 1 << 20,
    readonly maxBytes = 1 << 30,
  ) {
    this.words = new Uint32Array(Math.ceil(sizeBytes / 4));
  }
  get sizeBytes(): number {
    return this.words.length * 4;
  }
  load32(addr: number): number {
    const v = this.words[addr >>> 2];
    if (v === undefined || addr < 0) return this.outside(addr, 'load');
    this.loads++;
    return v;
  }
  store32(addr: number, value: number): void {
    if (addr >>> 2 >= this.words.length || addr < 0) this.grow(addr);
    this.stores++;
    this.words[addr >>> 2] = value;
  }
  load8(addr: number): number {
    const v = this.words[addr >>> 2];
    if (v === undefined || addr < 0) return this.outside(addr, 'load');
    this.loads++;
    return (v >>> (8 * (addr & 3))) & 0xff;
  }
  store8(addr: number, value: number): void {
    if (addr >>> 2 >= this.words.length || addr < 0) this.grow(addr);
    this.stores++;
    const i = addr >>> 2;
    const shift = 8 * (addr & 3);
    this.words[i] = (this.words[i]! & ~(0xff << shift)) | ((value & 0xff) << shift);
  }
  compute(cycles: number): void {
    this.computeCycles += cycles;
  }
  enter(_routine: number): void {}

  private outside(addr: number, what: string): never {
    throw new Error(`HostMemory: ${what} at address ${addr} (0x${(addr >>> 0).toString(16)}) is outside its ${this.sizeBytes} bytes`);
  }
  private grow(addr: number): void {
    if (!Number.isInteger(addr) || addr < 0 || addr >= this.maxBytes)
      throw new Error(`HostMemory: store at address ${addr} is outside 0..${this.maxBytes - 1} (its maximum size)`);
    let n = this.words.length * 2;
    while (n * 4 <= addr) n *= 2;
    const w = new Uint32Array(Math.min(n, Math.ceil(this.maxBytes / 4)));
    w.set(this.words);
    this.words = w;
  }
}

export interface HostSpaceOptions {
  core?: number;
  mainCore?: number;
  /** first byte of this core's heap, and its size */
  heapBase: number;
  heapBytes: number;
  /** first OTE address of this core's part of the object table, and its entries */
  otBase: number;
  otEntries: number;
  /** CORE_DATA_WORDS words for the method cache and free lists (zero in the memory) */
  coreData: number;
  homeOf?: (body: number) => number;
  batonTarget?: (body: number, fmt: number) => number;
  readMostly?: (body: number) => boolean;
}

/** A VmSpace over one bump-allocated heap (host-side pointers: the reference is not timed). */
export class HostSpace implements VmSpace {
  readonly core: number;
  readonly mainCore: number;
  readonly coreData: number;
  private next: number;
  private nextOte: number;
  constructor(private readonly o: HostSpaceOptions) {
    this.core = o.core ?? 0;
    this.mainCore = o.mainCore ?? 0;
    this.coreData = o.coreData;
    this.next = o.heapBase;
    this.nextOte = o.otBase;
  }
  /** Moves the allocation pointers past what is already in use (the snapshot). */
  reserve(heapNext: number, oteNext: number): void {
    this.next = Math.max(this.next, heapNext);
    this.nextOte = Math.max(this.nextOte, oteNext);
  }
  allocate(words: number): number {
    const body = this.next;
    if (body + 4 * words > this.o.heapBase + this.o.heapBytes)
      throw new VmError(`heap full: core ${this.core}'s ${this.o.heapBytes} bytes are used (no garbage collector)`);
    this.next = body + 4 * words;
    return body;
  }
  allocateOte(): number {
    const ote = this.nextOte;
    if (ote >= this.o.otBase + 4 * this.o.otEntries) throw new VmError(`object table full: core ${this.core}'s ${this.o.otEntries} entries are used`);
    this.nextOte = ote + 4;
    return ote;
  }
  homeOf(body: number): number {
    if (this.o.homeOf) return this.o.homeOf(body);
    return body >= this.o.heapBase && body < this.o.heapBase + this.o.heapBytes ? this.core : -1;
  }
  batonTarget(body: number, fmt: number): number {
    return this.o.batonTarget ? this.o.batonTarget(body, fmt) : -1;
  }
  readMostly(body: number): boolean {
    return this.o.readMostly ? this.o.readMostly(body) : false;
  }
}

/** The snapshot contiguous from `base`; OTE #i at otBase + 4i. */
export class FlatPlacement implements Placement {
  next: number;
  readonly roles: ObjectRole[] = [];
  constructor(
    base: number,
    private readonly otBase: number,
    private readonly otEntries: number,
  ) {
    this.next = base;
  }
  place(index: number, words: number, what: ObjectRole): number {
    this.roles[index] = what;
    const body = this.next;
    this.next += 4 * words;
    return body;
  }
  ote(index: number): number {
    if (index >= this.otEntries) throw new Error(`FlatPlacement: the snapshot has more than ${this.otEntries} objects`);
    return this.otBase + 4 * index;
  }
}

/** Writes the image's objects and OTEs into host memory. */
export function writeImage(mem: VmMemory, image: Image): void {
  for (const o of image.objects) {
    for (let w = 0; w < o.words.length; w++) mem.store32(o.body + 4 * w, o.words[w]!);
    mem.store32(o.ote, o.body);
  }
}

/** The reference memory map: core data, then the object table, then the heap. */
export const REF_CORE_DATA = 0x1000;
export const REF_OT_BASE = 0x10000;
export const REF_OT_ENTRIES = 1 << 20;
export const REF_HEAP_BASE = REF_OT_BASE + 4 * REF_OT_ENTRIES;

export interface ReferenceOptions {
  /** the heap's bytes (snapshot and new objects); default 64 MB */
  heapBytes?: number;
  /** stop with an Error after this many bytecodes (a runaway program); default 2e9 */
  maxBytecodes?: number;
  /** the compiler benchmark's "file" (primitives sourceAt / sourceSize) */
  sourceText?: string;
}

export interface ReferenceResult {
  result: number;
  bytecodes: number;
  sends: number;
  counters: InterpreterCounters;
  image: Image;
}

/** Results referenceRun keeps (a few benchmark sizes; each holds its image, some KB). */
export const REFERENCE_MEMO = 8;
const memo = new WeakMap<ProgramSpec, Map<string, ReferenceResult>>();

/** Runs `EntryClass entrySelector: size` outside the simulator (or answers a kept result of the same run). */
export function referenceRun(program: ProgramSpec, size: number, opts: ReferenceOptions = {}): ReferenceResult {
  const key = JSON.stringify([size, opts.heapBytes ?? null, opts.maxBytecodes ?? null, opts.sourceText ?? null]);
  let kept = memo.get(program);
  const hit = kept?.get(key);
  if (hit) return { ...hit, counters: { ...hit.counters } };
  const r = runReference(program, size, opts);
  if (!kept) memo.set(program, (kept = new Map()));
  if (kept.size >= REFERENCE_MEMO) kept.delete(kept.keys().next().value!);
  kept.set(key, r);
  return { ...r, counters: { ...r.counters } };
}

/** referenceRun without the kept results: always interprets (tests of determinism). */
export function runReference(program: ProgramSpec, size: number, opts: ReferenceOptions = {}): ReferenceResult {
  if (REF_CORE_DATA + 4 * CORE_DATA_WORDS > REF_OT_BASE) throw new Error('reference: core data overlaps the object table');
  const heapBytes = opts.heapBytes ?? 64 * 2 ** 20;
  const placement = new FlatPlacement(REF_HEAP_BASE, REF_OT_BASE, REF_OT_ENTRIES);
  const image = layoutImage(program, size, placement);
  if (placement.next > REF_HEAP_BASE + heapBytes) throw new Error(`reference: the image (${image.byteSize} bytes) does not fit the ${heapBytes}-byte heap`);
  const mem = new HostMemory(REF_HEAP_BASE + image.byteSize + (1 << 20));
  writeImage(mem, image);
  const space = new HostSpace({ heapBase: REF_HEAP_BASE, heapBytes, otBase: REF_OT_BASE, otEntries: REF_OT_ENTRIES, coreData: REF_CORE_DATA });
  space.reserve(placement.next, REF_OT_BASE + 4 * image.objects.length);
  const interp = new Interpreter(mem, space, image, opts.sourceText === undefined ? undefined : { sourceText: opts.sourceText });
  interp.start();
  const max = opts.maxBytecodes ?? 2e9;
  for (;;) {
    const stop = interp.run(1 << 20);
    if (stop === STOP.done) break;
    if (stop === STOP.migrate) throw new Error('reference: the interpreter asked to migrate on a one-core space');
    if (interp.counters.bytecodes >= max) throw new Error(`reference: no result after ${max} bytecodes`);
  }
  const r = interp.result;
  if (!isSmallInt(r)) throw new Error(`reference: ${program.entryClass} class>>${program.entrySelector} returned a non-SmallInteger (oop 0x${r.toString(16)})`);
  return { result: intValue(r), bytecodes: interp.counters.bytecodes, sends: interp.counters.sends, counters: { ...interp.counters }, image };
}
