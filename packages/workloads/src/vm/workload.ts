/**
 * vm (TILE64, SCC): a Smalltalk-style bytecode VM hosting one object heap across the chip, as paper
 * 000's RoarVM design (issue 15). One interpreter thread passes "the baton" from core to core.
 *
 * Contract
 * - Every core of `cores` (0..cores-1; core 0 the main core) lays out the same image
 *   (vm/image.ts, from the benchmark's source compiled by vm/compiler), writes the snapshot
 *   objects dealt to it round-robin (paper 000 lines 624-628) into its read-write heap or its
 *   read-mostly slice (tile64-space.ts), then all meet at a harness barrier: the timed run
 *   starts there (the paper timed the benchmark, not the snapshot load).
 * - The interpreter (vm/interpreter.ts) runs on the core holding the baton; every header read,
 *   table lookup, bytecode fetch and context push is a load or store through the TILE64 core
 *   (homing, caches, TLB). A migration (STOP.migrate) is one raw-network message to the
 *   target's doorbell (Tile64Core.udnPost / udnAwait): the baton's words. The message is the
 *   lab's choice (model): the paper does not say how its thread hopped; raw messages are the
 *   chip's fastest channel (paper 000 lines 353-357).
 * - clockCall (paper 000 lines 989-1000: "every migration read the real-time clock via a
 *   system call", ioMsecs): on every baton arrival the receiving core traps into the kernel
 *   (clockTrapCycles, model: no figure in the paper) and reads the kernel's time-keeping words
 *   (clockKernelWords loads from one page homed on the main core's tile, model: the words a
 *   gettimeofday-like call reads). Remote reads and a TLB entry for the kernel page: its cost
 *   comes from the memory system.
 * - hugePages: the data TLB maps 16 MB pages (chip override tlb.hugePages; paper 000 line 1010).
 *   Homing stays per 64 KB page in the model (a known simplification).
 * - SCC (issue 15 item 4; scc-space.ts): the same image, dealing, interpreter and rows (plus
 *   {chip: 'scc', sccSharing}); heaps in shared DRAM on the controller nearest their core, no
 *   homing; the baton a message in the receiver's MPB; shared objects uncached or MPBT-cached
 *   with the flush / CL1INVMB protocol at every pass (`sccSharing`, default 'flush'); replication
 *   puts read-mostly objects on ordinary cached pages (never written: the store barrier moves
 *   an object out first); the clock call reads its kernel words from the main core's
 *   controller. sccSharing on the TILE64 and hugePages on the SCC (no TLB in the SCC model)
 *   are WorkloadParamErrors.
 * - Rows: one per run {benchmark, cores, replication, clockCall, hugePages, size, bytecodes,
 *   sends, migrations, timeNs, result, referenceResult, referenceBytecodes, correct,
 *   migrationsPer1000Bytecodes, <routine>Cycles...}: time spent in each VM routine's accesses
 *   and native work (the stall breakdown by routine), summed over the cores.
 * - Heap map (VmExtra.heapMap, heap-objects.ts): at its end each core walks its own heaps object
 *   by object in the simulated memory through the engine's untimed read (core.peek32: no time,
 *   counter, cache or log change, so every simulated number is the same as without the map)
 *   and reports them in its row (`heapMap`, JSON); extra merges the cores' parts. The store
 *   barrier's moves carry their addresses and simulated time from the run's own rows.
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, type ResolvedChip, type Row, type SccChip, type SccCore, type Sim, type Tile64Core, type WorkloadDef } from '@manycore/engine';
import { BATON_HALT, BATON_WORDS, ROUTINE, ROUTINE_NAMES, STOP, intValue, isSmallInt, type VmMemory, type VmSpace } from './format';
import { layoutImage, type Image, type ImageObject } from './image';
import { Interpreter, MOVE_FIELDS } from './interpreter';
import { coreHeapMap, mergeHeapMaps, snapshotEnd, type CoreHeapRegion, type HeapMapData, type HeapRegion } from './heap-objects';
import { BENCHMARKS, buildProgram, sourceText } from './program';
import { referenceRun } from './reference';
import { CAUSE_NAMES, CoreVmMemory } from './core-memory';
import { REPLICATION, dealTo, type Replication } from './snapshot';
import { HEAP_DESCRIPTOR_BYTES, SnapshotPlacement, Tile64Space, mapSpace, publishReadMostly, spaceLayout } from './tile64-space';
import { SCC_SHARING, SccSnapshotPlacement, SccSpace, mapSccSpace, sccBatonPost, sccBatonTake, sccBatonWait, sccLayout } from './scc-space';

/** Default sizes: a guided run finishes in seconds of wall time. */
export const DEFAULT_SIZE: Record<(typeof BENCHMARKS)[number], number> = { 'tiny-loop': 1, 'tiny-fib': 16, compiler: 8 };

const Params = z.strictObject({
  benchmark: z.enum(BENCHMARKS).default('compiler').describe('tinyBenchmarks bytecode loop, tinyBenchmarks recursive fib sends, or the compiler-like benchmark'),
  cores: z.number().int().min(1).max(1024).default(2).describe('cores running the VM (paper 000: 56 of the TILE64\'s 64)'),
  replication: z.enum(REPLICATION).default('none').describe('read-mostly heap: none, methods only, everything but contexts (per-core slices), one global heap (v1)'),
  clockCall: z.boolean().default(true).describe('read the real-time clock by a system call on every migration (the paper\'s observer effect)'),
  hugePages: z.boolean().default(false).describe('16 MB huge pages in the data TLB'),
  size: z.number().int().min(1).max(100000).optional().describe('benchmark size (iterations, fib argument, expressions); default per benchmark'),
  heapKB: z.number().int().min(64).max(65536).default(1024).describe('each core\'s heap, KB (a power of two)'),
  imageFillerKB: z
    .number()
    .int()
    .min(0)
    .max(65536)
    .default(0)
    .describe("TILE64: KB of untouched objects standing for the rest of a Squeak image, dealt between the benchmark's so they spread over pages as in the paper's ~10 MB heap (model; 0: the benchmark's image only)"),
  clockTrapCycles: z.number().int().min(0).max(100000).default(200).describe('cycles of the clock system call\'s trap and return (model)'),
  clockKernelWords: z.number().int().min(0).max(256).default(8).describe('kernel time-keeping words the clock call reads (model)'),
  sccSharing: z
    .enum(SCC_SHARING)
    .optional()
    .describe("SCC only (default flush): shared heaps uncached (every access a DRAM transaction) or MPBT-cached in L1, flushed by the baton's sender and invalidated (CL1INVMB) by its receiver"),
});
type P = z.infer<typeof Params>;

const BUDGET = 256; // bytecodes between checks of the epoch (host-side granularity, no simulated effect)

function sizeOf(p: P): number {
  return p.size ?? DEFAULT_SIZE[p.benchmark];
}

function* program(core: Tile64Core | SccCore, p: P): Sim<void> {
  if (core.chip.family === 'scc') yield* programScc(core as SccCore, p);
  else yield* programTile64(core as Tile64Core, p);
}

function* programTile64(core: Tile64Core, p: P): Sim<void> {
  const main = 0;
  const L = spaceLayout(core.sharedBase, core.chip.sharedBytes, p.cores, p.heapKB * 1024, p.replication);
  mapSpace(core, L, main);
  const mem = new CoreVmMemory(core, { tlb: core.tlb, tlbMissCycles: core.chip.config.tlb.missCycles, remote: core });
  const space = new Tile64Space(mem, L, core.id, main, core.privateBase);
  // the snapshot: every core lays out the same image and writes what was dealt to it
  // the filler: imageFillerKB spread evenly after the image's objects (counted by a first, flat layout)
  const objects = p.imageFillerKB > 0 ? layoutImage(buildProgram(p.benchmark), sizeOf(p), { place: () => 0, ote: () => 0 }).objects.length : 1;
  const placement = new SnapshotPlacement(L, Math.floor((p.imageFillerKB * 1024) / objects / 4) * 4);
  const image = layoutImage(buildProgram(p.benchmark), sizeOf(p), placement);
  const snapshot = yield* writeShare(core, image, p.cores, p.replication, main, (o) => {
    for (let w = 0; w < o.words.length; w++) core.store32(o.body + 4 * w, o.words[w]!);
  });
  yield* publishReadMostly(core, L, image, main); // user-managed copies are real: write the read-mostly share back
  mem.sync(); // the snapshot's writes went to the core directly
  space.initDescriptor(placement.rwNext[core.id]!); // through mem: counted under the first routine (fetchBytecode), as always
  mem.flush();
  yield* core.barrier();
  const transport: BatonTransport = {
    *wait(after, out) {
      return yield* core.udnAwait(after, out);
    },
    post: (dst, stamp, words) => core.udnPost(dst, stamp, words),
    takePs: 0,
  };
  const heapRegions = (): MapRegion[] => {
    const base = L.rwBase + core.id * L.heapBytes;
    const rw: MapRegion = { core: core.id, region: 'readWrite', base, start: base + HEAP_DESCRIPTOR_BYTES, end: placement.rwNext[core.id]! + space.allocatedBytes, capacityBytes: L.heapBytes };
    return [rw, ...readMostlyRegion(core.id, main, p, image, p.replication === 'global' ? L.rmBase : L.rmBase + core.id * L.heapBytes, L.heapBytes)];
  };
  yield* runBaton(core, p, mem, space, image, snapshot, L.kernelPage, transport, heapRegions);
}

/** A heap of the map as a core walks it at its end (heap-objects.ts coreHeapMap): its capacity bounds its cells. */
type MapRegion = HeapRegion & { capacityBytes: number };

/**
 * The read-mostly heap core `id` walks for the map (none without replication; the global one
 * by the main core only): `base` is its slice (or the global heap), each slice `heapBytes`.
 */
function readMostlyRegion(id: number, main: number, p: P, image: Image, base: number, heapBytes: number): MapRegion[] {
  if (p.replication === 'none' || (p.replication === 'global' && id !== main)) return [];
  const capacityBytes = p.replication === 'global' ? p.cores * heapBytes : heapBytes;
  return [{ core: p.replication === 'global' ? -1 : id, region: 'readMostly', base, start: base, end: snapshotEnd(image, base, capacityBytes, base), capacityBytes }];
}

/**
 * Writes the snapshot objects dealt to this core (snapshot.ts) with the family's `write`, and
 * their OTEs; returns its bytes by region and role ("rw:method", ...) for the heap map.
 */
function* writeShare(core: Tile64Core | SccCore, image: Image, cores: number, replication: Replication, mainCore: number, write: (o: ImageObject) => void): Sim<Row> {
  const snapshot: Row = {};
  for (const o of image.objects) {
    const dealt = dealTo(cores, replication, mainCore, o.index, o.what);
    if (dealt.core !== core.id) continue;
    const key = `${dealt.readMostly ? 'rm' : 'rw'}:${o.what}`;
    snapshot[key] = ((snapshot[key] as number | undefined) ?? 0) + 4 * o.words.length;
    write(o);
    core.store32(o.ote, o.body);
    if (core.due()) yield DUE;
  }
  return snapshot;
}

/** How a family passes the baton: wait for a stamp above `after` (the words into `out`; takePs: the part spent taking them, charged to the migrate routine), post to a core. */
interface BatonTransport {
  wait(after: number, out: Uint32Array): Sim<number>;
  post(dst: number, stamp: number, words: Uint32Array): void;
  takePs: number;
}

/**
 * The interpreter thread's life on one core, either family: the main core starts the image;
 * a core runs bytecodes while it holds the baton, posts it where the baton rule says (stamps
 * increase along its one path), and waits for it again; the core that finishes tells the
 * others to stop. Then its row.
 */
function* runBaton(core: Tile64Core | SccCore, p: P, mem: CoreVmMemory, space: VmSpace & { allocatedBytes: number }, image: Image, snapshot: Row, kernelPage: number, transport: BatonTransport, heapRegions: () => MapRegion[]): Sim<void> {
  const main = 0;
  const t0 = core.now;
  const interp = new Interpreter(mem, space, image, { sourceText: sourceText(p.benchmark) });
  interp.moveClock = () => (core.now - t0) / 1000; // a store-barrier move's simulated time, ns since the timed run's start (the heap map)
  const baton = new Uint32Array(BATON_WORDS);
  const halt = new Uint32Array(1);
  halt[0] = BATON_HALT;
  let stamp = 0; // the stamp of the last baton this core took (one baton: stamps increase along its path)
  let migrations = 0;
  let waitPs = 0;
  const batonTo = new Int32Array(p.cores);
  let holding = core.id === main;
  mem.sync(); // the snapshot's writes and the barrier are not the interpreter's time
  if (holding) interp.start();
  for (;;) {
    if (!holding) {
      const waited = core.now;
      stamp = yield* transport.wait(stamp, baton); // charges the take (SCC) to the migrate routine
      waitPs += core.now - waited - transport.takePs; // without the baton: not the interpreter's time
      mem.sync();
      if (baton[0] === BATON_HALT) break;
      if (p.clockCall) clockCall(mem, kernelPage, p);
      interp.resume(baton);
      holding = true;
    }
    const stop = interp.run(BUDGET);
    if (stop === STOP.yield) {
      if (core.due()) {
        mem.flush();
        yield DUE;
        mem.sync(); // the epoch's end (the weave's queueing) is not a routine's time
      }
      continue;
    }
    if (stop === STOP.migrate) {
      migrations++;
      batonTo[interp.batonTarget]! += 1;
      mem.flush();
      const t = core.now;
      transport.post(interp.batonTarget, stamp + 1, interp.baton);
      mem.charge(ROUTINE.migrate, core.now - t);
      stamp++;
      holding = false;
      continue;
    }
    // done: this core ends the run and tells the others
    mem.flush();
    const result = interp.result;
    for (let k = 0; k < p.cores; k++) if (k !== core.id) transport.post(k, stamp + 1, halt);
    core.report({ final: true, timeNs: (core.now - t0) / 1000, result: isSmallInt(result) ? intValue(result) : -1 });
    break;
  }
  const row = coreRow(core.id, interp, space, image, snapshot, migrations, waitPs, batonTo, mem);
  // the heap map: this core's heaps walked object by object in simulated memory, untimed (peek32:
  // committed memory plus this core's own writes). The memory is final here: the thread has
  // stopped (this core sent the halt after its last write, or took it), and every other core's
  // writes were committed before the baton left it
  row.heapMap = JSON.stringify(coreHeapMap({ load32: (a) => core.peek32(a) }, heapRegions()));
  core.report(row);
}

/** One core's row: its counts, its snapshot share, the baton's path from it, the store barrier's moves, time per VM routine. */
function coreRow(id: number, interp: Interpreter, space: VmSpace & { allocatedBytes: number }, image: Image, snapshot: Row, migrations: number, waitPs: number, batonTo: Int32Array, mem: CoreVmMemory): Row {
  const row: Row = { core: id, bytecodes: interp.counters.bytecodes, sends: interp.counters.sends, migrations, waitPs, allocatedBytes: space.allocatedBytes };
  for (const k of Object.keys(snapshot)) row[`snapshot ${k}`] = snapshot[k]!;
  // the baton's path and the store barrier's moves, as text (rows hold scalars): "to:count ..." and "class:fromCore:toCore:bytes:oldBody:newBody:timeNs ..."
  row.batonTo = [...batonTo].flatMap((n, k) => (n > 0 ? [`${k}:${n}`] : [])).join(' ');
  const className = new Map(Object.entries(image.classes).map(([name, oop]) => [oop, name]));
  const moves: string[] = [];
  const mv = interp.moves;
  for (let i = 0; i < mv.length; i += MOVE_FIELDS)
    moves.push(`${className.get(mv[i + 4]!) ?? '?'}:${space.homeOf(mv[i + 1]!)}:${space.homeOf(mv[i + 2]!)}:${mv[i + 3]! * 4}:${mv[i + 1]!}:${mv[i + 2]!}:${mv[i + 5]!}`);
  row.moves = moves.join(' ');
  row.storeBarrierMoves = interp.counters.storeBarrierMoves;
  for (let r = 0; r < ROUTINE_NAMES.length; r++) {
    row[`${ROUTINE_NAMES[r]}Ps`] = mem.routinePs[r]!;
    // the routine's time by cause ("fetchBytecode:remoteHomePs"), where not zero
    for (let k = 0; k < CAUSE_NAMES.length; k++) {
      const ps = mem.causePs[r * CAUSE_NAMES.length + k]!;
      if (ps !== 0) row[`${ROUTINE_NAMES[r]}:${CAUSE_NAMES[k]}Ps`] = ps;
    }
  }
  return row;
}

/**
 * The VM on an SCC core (issue 15 item 4; scc-space.ts): heaps in shared DRAM near their
 * cores, the baton as a message in the receiver's MPB, shared objects uncached or MPBT-cached
 * with the flush / CL1INVMB protocol at every pass. Same image, dealing, interpreter, clock
 * call and rows as the TILE64 path.
 */
function* programScc(core: SccCore, p: P): Sim<void> {
  const main = 0;
  const sharing = p.sccSharing ?? 'flush';
  const L = sccLayout(core.chip, p.cores, p.heapKB * 1024, p.replication, main);
  mapSccSpace(core, L, sharing);
  const mem = new CoreVmMemory(core);
  const space = new SccSpace(mem, L, core.id, main, core.privateBase);
  const placement = new SccSnapshotPlacement(L);
  const image = layoutImage(buildProgram(p.benchmark), sizeOf(p), placement);
  const snapshot = yield* writeShare(core, image, p.cores, p.replication, main, (o) =>
    core.writeRange(o.body, 4 * o.words.length, new Uint8Array(o.words.buffer, o.words.byteOffset, o.words.byteLength)),
  );
  mem.sync(); // the snapshot's writes went to the core directly
  space.initDescriptor(placement.rwNext[core.id]!); // through mem: counted under the first routine (fetchBytecode), as always
  mem.flush();
  yield* core.barrier(); // drains the write-combine buffer and waits for the snapshot's writes first
  core.invalidateMpbt();
  const transport: BatonTransport = {
    *wait(after, out) {
      const stamp = yield* sccBatonWait(core, after);
      const t = core.now;
      mem.sync(); // the wait is not a routine's time (the sender flushed before posting)
      sccBatonTake(core, out);
      this.takePs = core.now - t;
      mem.charge(ROUTINE.migrate, this.takePs);
      return stamp;
    },
    post: (dst, stamp, words) => sccBatonPost(core, dst, stamp, words),
    takePs: 0,
  };
  const heapRegions = (): MapRegion[] => {
    const base = L.heapBase[core.id]!;
    const rw: MapRegion = { core: core.id, region: 'readWrite', base, start: base, end: placement.rwNext[core.id]! + space.allocatedBytes, capacityBytes: p.heapKB * 1024 };
    return [rw, ...readMostlyRegion(core.id, main, p, image, p.replication === 'global' ? L.globalRmBase : L.rmBase[core.id]!, p.heapKB * 1024)];
  };
  yield* runBaton(core, p, mem, space, image, snapshot, L.kernelPage, transport, heapRegions);
}

/** The per-migration clock system call (model): a trap, then the kernel's time-keeping words. */
function clockCall(mem: VmMemory, kernelPage: number, p: P): void {
  mem.enter(ROUTINE.clock);
  mem.compute(p.clockTrapCycles);
  for (let w = 0; w < p.clockKernelWords; w++) mem.load32(kernelPage + 4 * w);
}

function summarize(rows: Row[], p: P, chip: ResolvedChip): Row[] {
  const fin = rows.find((r) => r.final === true);
  const cores = rows.filter((r) => r.final !== true);
  const sum = (k: string) => cores.reduce((a, r) => a + ((r[k] as number) ?? 0), 0);
  const size = sizeOf(p);
  const ref = referenceRun(buildProgram(p.benchmark), size, { sourceText: sourceText(p.benchmark) });
  const bytecodes = sum('bytecodes');
  const periodPs = corePeriodPs(chip);
  const row: Row = {
    chip: chip.family,
    benchmark: p.benchmark,
    cores: p.cores,
    replication: p.replication,
    clockCall: p.clockCall,
    hugePages: p.hugePages,
    size,
    bytecodes,
    sends: sum('sends'),
    migrations: sum('migrations'),
    timeNs: fin ? (fin.timeNs as number) : 0,
    result: fin ? (fin.result as number) : -1,
    referenceResult: ref.result,
    referenceBytecodes: ref.bytecodes,
    correct: fin !== undefined && fin.result === ref.result && bytecodes === ref.bytecodes,
    migrationsPer1000Bytecodes: bytecodes > 0 ? Math.round((sum('migrations') / bytecodes) * 1e6) / 1000 : 0,
  };
  if (chip.family === 'scc') row.sccSharing = p.sccSharing ?? 'flush';
  row.storeBarrierMoves = sum('storeBarrierMoves');
  for (const name of ROUTINE_NAMES) row[`${name}Cycles`] = Math.round(sum(`${name}Ps`) / periodPs);
  return [row];
}

/** A core's clock period, ps: the TILE64's cores run at baseMHz; the SCC's at baseMHz / divisor (the VM's cores share tile 0's divisor unless tileDivisors differ). */
function corePeriodPs(chip: ResolvedChip): number {
  return chip.family === 'scc' ? (1e6 * chip.tileDivisors[0]!) / chip.baseMHz : 1e6 / chip.baseMHz;
}

/** One heap of the heap map: the snapshot's bytes by role in its read-write heap and read-mostly slice, and what the run allocated there. */
export interface VmHeap {
  core: number;
  readWrite: Record<string, number>;
  readMostly: Record<string, number>;
  allocatedBytes: number;
}

/** results.workload.vm (the workload's extra): what the web's heap map and baton view draw (every number from the run). */
export interface VmExtra {
  cores: number;
  heapBytes: number;
  replication: string;
  heaps: VmHeap[];
  /** the baton's path: migrations from core to core */
  baton: { from: number; to: number; count: number }[];
  /**
   * store-barrier moves (the first 64 per core), in simulated-time order: the object's class, the
   * heap it left (-1: the global read-mostly heap) and the one it went to, its byte offsets in
   * those heaps (heapMap's cells: offset / cellBytes), and the simulated time of the move (ns
   * since the timed run's start)
   */
  moves: { className: string; fromCore: number; toCore: number; bytes: number; fromOffset: number; toOffset: number; timeNs: number }[];
  /**
   * the heap map object by object (heap-objects.ts): every heap's strip of cells, walked in the
   * simulated memory at the run's end by the core whose heap it is (the engine's untimed peek32)
   */
  heapMap: HeapMapData;
  /**
   * core cycles per VM routine, summed over the cores, and the same cycles by cause (`causes`:
   * executed work, TLB refills, stalls on a remote home, the engine's stall causes; core-memory.ts
   * CAUSE_NAMES); the causes of a routine sum to its cycles exactly (rounded by largest remainder)
   */
  routines: { name: string; cycles: number; causes: Record<string, number> }[];
  /** the cause names, in drawing order */
  causes: string[];
  /** each core's cycles per routine, in `routines` order; over the cores they sum to routines[i].cycles exactly (rounded by largest remainder) */
  perCore: { core: number; cycles: number[] }[];
}

/**
 * Integers for `parts` (reals, negatives taken as 0) that sum to `total`: each part's floor,
 * then one more to the parts with the largest fractions (ties: the earlier part), or one less
 * from the smallest, once each; what is left beyond that (parts that do not add up to the total
 * within one per part) goes to the largest part. For tables whose parts must add up.
 */
export function apportion(parts: readonly number[], total: number): number[] {
  const n = parts.length;
  const clean = parts.map((x) => (x > 0 ? x : 0));
  const out = clean.map((x) => Math.floor(x));
  if (n === 0) return out;
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = out.map((_, i) => i).sort((a, b) => clean[b]! - out[b]! - (clean[a]! - out[a]!) || a - b);
  for (let j = 0; j < n && left > 0; j++, left--) out[order[j]!]! += 1;
  for (let j = n - 1; j >= 0 && left < 0; j--)
    if (out[order[j]!]! > 0) {
      out[order[j]!]! -= 1;
      left++;
    }
  if (left !== 0) {
    let big = 0;
    for (let i = 1; i < n; i++) if (out[i]! > out[big]!) big = i;
    out[big] = Math.max(0, out[big]! + left);
  }
  return out;
}

function extra(rows: Row[], p: P, chip: ResolvedChip): { vm: VmExtra } {
  const cores = rows.filter((r) => r.final !== true).sort((a, b) => (a.core as number) - (b.core as number));
  const periodPs = corePeriodPs(chip);
  const heaps: VmHeap[] = cores.map((r) => {
    const h: VmHeap = { core: r.core as number, readWrite: {}, readMostly: {}, allocatedBytes: r.allocatedBytes as number };
    for (const [k, v] of Object.entries(r))
      if (k.startsWith('snapshot ')) {
        const [region, role] = k.slice(9).split(':') as [string, string];
        (region === 'rm' ? h.readMostly : h.readWrite)[role] = v as number;
      }
    return h;
  });
  const baton: VmExtra['baton'] = [];
  const moves: VmExtra['moves'] = [];
  for (const r of cores) {
    for (const e of String(r.batonTo).split(' ').filter(Boolean)) {
      const [to, count] = e.split(':').map(Number) as [number, number];
      baton.push({ from: r.core as number, to, count });
    }
    for (const m of String(r.moves).split(' ').filter(Boolean)) {
      const [className, from, to, bytes, oldBody, newBody, timeNs] = m.split(':') as [string, string, string, string, string, string, string];
      moves.push({ className, fromCore: Number(from), toCore: Number(to), bytes: Number(bytes), fromOffset: Number(oldBody), toOffset: Number(newBody), timeNs: Number(timeNs) });
    }
  }
  // the heap map: each core's heaps, walked in simulated memory at its end (its row's heapMap; heap-objects.ts)
  const parts = cores.flatMap((r) => JSON.parse(String(r.heapMap)) as CoreHeapRegion[]);
  const map = mergeHeapMaps(parts);
  const regionOf = (body: number, region: 'readWrite' | 'readMostly') =>
    parts.find((g) => g.region === region && body >= g.base && body < g.base + (g.core < 0 ? p.cores : 1) * p.heapKB * 1024);
  for (const m of moves) {
    m.fromOffset -= regionOf(m.fromOffset, 'readMostly')?.base ?? 0;
    m.toOffset -= regionOf(m.toOffset, 'readWrite')?.base ?? 0;
  }
  moves.sort((a, b) => a.timeNs - b.timeNs);
  const sumPs = (k: string) => cores.reduce((a, r) => a + ((r[k] as number | undefined) ?? 0), 0);
  const routines = ROUTINE_NAMES.map((name) => {
    const cycles = Math.round(sumPs(`${name}Ps`) / periodPs);
    const split = apportion(CAUSE_NAMES.map((k) => sumPs(`${name}:${k}Ps`) / periodPs), cycles);
    return { name, cycles, causes: Object.fromEntries(CAUSE_NAMES.map((k, i) => [k, split[i]!])) };
  });
  const byCore = ROUTINE_NAMES.map((name, i) =>
    apportion(
      cores.map((r) => ((r[`${name}Ps`] as number | undefined) ?? 0) / periodPs),
      routines[i]!.cycles,
    ),
  );
  const perCore = cores.map((r, c) => ({ core: r.core as number, cycles: byCore.map((col) => col[c]!) }));
  return { vm: { cores: p.cores, heapBytes: p.heapKB * 1024, replication: p.replication, heaps, baton, moves, heapMap: map, routines, causes: [...CAUSE_NAMES], perCore } };
}

export const vmWorkload: WorkloadDef<P, Tile64Core | SccCore> = {
  name: 'vm',
  title: 'Smalltalk VM: one object heap across the TILE64 (RoarVM design)',
  description:
    "A bytecode VM in simulated memory (paper 000): an object table, per-core heaps homed on their cores, an interpreter thread that passes the baton to the receiver's core, a read-mostly heap replicated in every cache, the per-migration clock call and huge pages as switches.",
  families: ['tile64', 'scc'],
  chart: { x: 'cores', y: 'timeNs', series: 'replication' },
  params: Params,
  coresParam: { name: 'cores' },
  chipOverrides: (p, family) => (family === 'tile64' && p.hugePages ? { tlb: { hugePages: true } } : {}),
  participants: (p, chip) => {
    if (chip.family === 'tile64' && p.sccSharing !== undefined)
      throw new WorkloadParamError(`sccSharing = ${p.sccSharing} is for the SCC: the TILE64's heaps are homed and the hardware keeps them coherent; leave sccSharing out`, 'sccSharing');
    if (chip.family === 'scc' && p.imageFillerKB > 0)
      throw new WorkloadParamError('imageFillerKB: TILE64 only (it spreads the image over pages for the TLB); leave it 0 on the SCC', 'imageFillerKB');
    if (chip.family === 'scc' && p.hugePages)
      throw new WorkloadParamError('hugePages: the SCC model has no TLB to relieve (its lookup table already maps 16 MB pages); leave hugePages false on the SCC', 'hugePages');
    if (p.cores > chip.topo.cores) throw new WorkloadParamError(`cores = ${p.cores}, but the chip has ${chip.topo.cores} cores`, 'cores', `at most ${chip.topo.cores}`);
    if (chip.family === 'scc') sccLayout(chip as SccChip, p.cores, p.heapKB * 1024, p.replication); // a layout that does not fit, named before the run
    return Array.from({ length: p.cores }, (_, i) => i);
  },
  program,
  summarize,
  extra,
};
