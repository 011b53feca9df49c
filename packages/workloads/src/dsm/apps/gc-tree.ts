/**
 * Tree, paper 004's synthetic garbage-collected application (lines 322-326, Tables 2 and 5;
 * ../shared/reference/dsm.md sections 3-7), written against Dsm (../api.ts), with the
 * mark-and-sweep collector (lines 282-298). The copying collectors are not written.
 *
 * Contract
 * - The program (paper line 322): processor 0, the master, builds a binary search tree from a
 *   list of <item, index> pairs; then `rounds` times: an update phase, in which the master
 *   inserts new data items (at a random key) or deletes existing ones (the first item of the
 *   leaf a random key leads to), a barrier, a search phase, in which every
 *   processor searches its own list of indices and, for every data item found, allocates a
 *   temporary object and processes it, and a barrier. The tree is leaf-oriented: an internal
 *   node holds a key and two children (a key k goes left when k < key), a leaf a key and a list
 *   of data items of variable size (1-12 words of payload).
 * - Shared data: `nodes` (32 B cells: internal nodes, leaves and temporaries), `items` (64 B
 *   cells: data items), `meta` (one 8 B object: the root), `results` (16 B per processor: the
 *   processor's checksum, items found, allocations, collections). Each processor allocates only
 *   in its own region of `nodes` (the master's region first, `masterCells`; then `searcherCells`
 *   per other processor, page-aligned at the default sizes) and only the master in `items`:
 *   so a master's temporary may reuse the cell of a tree node the master cut off, on a page the
 *   searchers read (the paper's false sharing, line 391), and new tree nodes land in cells
 *   freed anywhere in the region (its falling spatial locality, line 389).
 * - Pseudo-random keys and sizes from a 32-bit LCG (Numerical Recipes' constants) per stream
 *   (the master's updates, each processor's searches per round), seeded by `seed`: the same on
 *   every run.
 * - Memory manager (per processor, of its own cells): a bump pointer, then a LIFO free list;
 *   when both are empty, a collection: mark (depth first from the roots: the master's tree
 *   root and the cells it allocated but has not linked yet; a searcher has no roots, its
 *   temporaries die with each item processed), then sweep its cells up to the bump pointer
 *   (unmarked allocated cells join the free list, in address order). Marking reads the
 *   master's own cells, of which it is the only writer, so it never faults, as the paper's
 *   collectors disable coherence while marking (line 296); mark bits, allocated bits and free
 *   lists are the processor's private tables (host memory, charged as compute). No cross-node
 *   references outlive a phase (searchers restart from the root after every barrier), so the
 *   import and export tables and weighted reference counting (lines 284-292) would stay empty:
 *   not modelled. A collection that frees nothing the allocator can use is an error naming the
 *   region.
 * - Costs: every field is read and written with the core's 32-bit loads and stores at the
 *   address `open` returned (open before a phase's first access to a cell, for writing before
 *   a store); CPU work besides as `compute` (model values, P6-class integer code; the paper
 *   gives none): WALK_CYCLES per tree node visited (compare, branch), ALLOC_CYCLES per
 *   allocation (a free-list pop or a bump), MARK_CYCLES per cell marked, SWEEP_CYCLES per cell
 *   swept, one cycle per word a temporary copies and sums. dsm.poll() once per search and per
 *   update.
 * - Result: each processor's checksum (sum mod 2^32 of the words its temporaries held), items
 *   found, allocations and collections, and the final tree (leaves, internal nodes, items, and
 *   a hash of the keys and payload words in order), all equal to `treeReference`: the same
 *   program over plain JavaScript memory, the master's update phase and then every processor's
 *   search phase in order, round by round.
 * Units: bytes, cells, core cycles.
 */
import type { Sim } from '@manycore/engine';
import type { CheckResult, Dsm, DsmApp, SharedArrayDesc, SizeName } from '../api';

export interface TreeSize {
  /** Keys are 0..keys-1. */
  keys: number;
  /** <item, index> pairs the master builds the tree from. */
  initialPairs: number;
  rounds: number;
  /** Inserts or deletes by the master per round (half each on average). */
  updatesPerRound: number;
  /** Searches per processor per round. */
  searchesPerRound: number;
  /** Cells of `nodes` in the master's region (tree nodes and its temporaries). */
  masterCells: number;
  /** Cells of `nodes` per other processor (its temporaries). */
  searcherCells: number;
  /** Cells of `items` (the master's). */
  itemCells: number;
  seed: number;
}

export const NODE_BYTES = 32;
export const ITEM_BYTES = 64;
const RESULT_BYTES = 16;
const KIND_INTERNAL = 1;
const KIND_LEAF = 2;
const KIND_ITEM = 3;
const KIND_TEMP = 4;
/** Payload words of an item: 1..MAX_ITEM_WORDS (variable size, paper line 324). */
export const MAX_ITEM_WORDS = 12;
/** Words a temporary copies from an item (a 32 B cell: kind + 7 words). */
const TEMP_WORDS = 7;
/** (model) cycles per tree node visited: load compare, branch, child select. */
export const WALK_CYCLES = 4;
/** (model) cycles per allocation: a free-list pop or a bump and the header store's bookkeeping. */
export const ALLOC_CYCLES = 12;
/** (model) cycles per cell marked: a private bitmap test-and-set and a stack push/pop. */
export const MARK_CYCLES = 6;
/** (model) cycles per cell swept: bitmap tests and a free-list push. */
export const SWEEP_CYCLES = 3;

/** What the tree program needs of memory: Dsm and its core in a run, plain JavaScript memory in the reference. */
export interface TreeMem {
  open(arr: SharedArrayDesc, i: number, write: boolean): Sim<number>;
  load32(addr: number): number;
  store32(addr: number, value: number): void;
  compute(cycles: number, instructions: number): void;
  poll(): Sim<void>;
}

export interface TreeArrays {
  nodes: SharedArrayDesc;
  items: SharedArrayDesc;
  meta: SharedArrayDesc;
  results: SharedArrayDesc;
}

/** Per processor results (the shared `results` object's words). */
export interface TreeProcResult {
  checksum: number;
  found: number;
  allocations: number;
  collections: number;
}

/** The final tree, walked in order. */
export interface TreeShape {
  leaves: number;
  internal: number;
  items: number;
  hash: number;
}

export function treeValidate(s: TreeSize): void {
  for (const [k, v, min] of [
    ['keys', s.keys, 2],
    ['initialPairs', s.initialPairs, 1],
    ['rounds', s.rounds, 1],
    ['updatesPerRound', s.updatesPerRound, 0],
    ['searchesPerRound', s.searchesPerRound, 0],
    ['masterCells', s.masterCells, 8],
    ['searcherCells', s.searcherCells, 1],
    ['itemCells', s.itemCells, 2],
    ['seed', s.seed, 0],
  ] as const)
    if (!Number.isInteger(v) || v < min) throw new Error(`gc-tree: ${k} must be an integer >= ${min}, got ${String(v)}`);
}

/** First cell and end of processor p's region of `nodes`. */
export function treeRegion(s: TreeSize, p: number): [number, number] {
  if (p === 0) return [0, s.masterCells];
  const lo = s.masterCells + (p - 1) * s.searcherCells;
  return [lo, lo + s.searcherCells];
}

/** One 32-bit LCG stream (Numerical Recipes' a = 1664525, c = 1013904223). */
class Lcg {
  private x: number;
  constructor(seed: number, stream: number) {
    this.x = (Math.imul(seed + 1, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
    this.next();
  }
  next(): number {
    this.x = (Math.imul(this.x, 1664525) + 1013904223) >>> 0;
    return this.x;
  }
  /** 0..n-1 from the high bits. */
  below(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }
}

/** Payload word w of the item made by the master's seq-th insert (and its size from w = -1). */
function itemWord(key: number, seq: number, w: number): number {
  let h = Math.imul(key + 1, 0x27d4eb2d) ^ Math.imul(seq + 1, 0x165667b1) ^ Math.imul(w + 2, 0x61c88647);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}
const itemWords = (key: number, seq: number): number => 1 + (itemWord(key, seq, -1) % MAX_ITEM_WORDS);

/** A processor's cells of one array: bump pointer, free list, allocated and mark bits (private tables). */
class Heap {
  bump: number;
  readonly free: number[] = [];
  readonly allocated: Uint8Array;
  readonly marked: Uint8Array;
  constructor(
    readonly lo: number,
    readonly hi: number,
  ) {
    this.bump = lo;
    this.allocated = new Uint8Array(hi - lo);
    this.marked = new Uint8Array(hi - lo);
  }
  take(): number {
    const c = this.free.length > 0 ? this.free.pop()! : this.bump < this.hi ? this.bump++ : -1;
    if (c >= 0) this.allocated[c - this.lo] = 1;
    return c;
  }
}

/** Stream numbers: the master's build and updates, and each processor's searches per round. */
const STREAM_BUILD = 0;
const streamUpdate = (round: number) => 1 + round;
const streamSearch = (s: TreeSize, round: number, p: number) => 1 + s.rounds + round * 4096 + p;

/** One processor's program: its heaps and counters; the phases the run and the reference compose. */
export class TreeProgram {
  readonly nodeHeap: Heap;
  readonly itemHeap: Heap | null;
  checksum = 0;
  found = 0;
  allocations = 0;
  collections = 0;
  /** The master's insert counter (item payloads depend on it). */
  private seq = 0;
  /** Cells allocated and not yet linked into the tree (roots of a collection), as [array 0 nodes / 1 items, cell]. */
  private readonly pending: number[] = [];
  private readonly stack: number[] = [];

  constructor(
    private readonly m: TreeMem,
    private readonly s: TreeSize,
    private readonly a: TreeArrays,
    readonly me: number,
  ) {
    const [lo, hi] = treeRegion(s, me);
    this.nodeHeap = new Heap(lo, hi);
    this.itemHeap = me === 0 ? new Heap(0, s.itemCells) : null;
  }

  // ------------------------------------------------------------ the tree (cells: index + 1, 0 = null)

  private *root(): Sim<number> {
    const a = yield* this.m.open(this.a.meta, 0, false);
    return this.m.load32(a);
  }
  private *setRoot(ref: number): Sim<void> {
    const a = yield* this.m.open(this.a.meta, 0, true);
    this.m.store32(a, ref);
  }

  /**
   * Walks from the root to the leaf for `key`: returns the leaf's ref (0: empty tree), leaves its
   * parent and grandparent in `parent` / `grand` (0 when absent) and in `side` whether the leaf
   * (bit 0) and the parent (bit 1) are right children. No allocation per walk.
   */
  private side = 0;
  private parent = 0;
  private grand = 0;
  private *walk(key: number): Sim<number> {
    let c = yield* this.root();
    let parent = 0;
    let grand = 0;
    this.side = 0;
    while (c !== 0) {
      const a = yield* this.m.open(this.a.nodes, c - 1, false);
      this.m.compute(WALK_CYCLES, WALK_CYCLES);
      if (this.m.load32(a) !== KIND_INTERNAL) break;
      const right = key >= this.m.load32(a + 4);
      grand = parent;
      parent = c;
      this.side = ((this.side << 1) | (right ? 1 : 0)) & 3;
      c = this.m.load32(a + (right ? 12 : 8));
    }
    this.parent = parent;
    this.grand = grand;
    return c;
  }

  private *alloc(items: boolean): Sim<number> {
    const heap = items ? this.itemHeap! : this.nodeHeap;
    let c = heap.take();
    if (c < 0) {
      yield* this.collect();
      c = heap.take();
      if (c < 0)
        throw new Error(
          `gc-tree processor ${this.me}: its ${items ? 'items' : 'nodes'} region (cells ${heap.lo}..${heap.hi - 1}) is full of live objects after a collection; give it more cells`,
        );
    }
    this.allocations++;
    this.m.compute(ALLOC_CYCLES, ALLOC_CYCLES);
    this.pending.push(items ? 1 : 0, c);
    return c;
  }

  /** Links `pending` into the tree: they are reachable from the root again. */
  private linked(): void {
    this.pending.length = 0;
  }

  private *insert(key: number): Sim<void> {
    const seq = this.seq++;
    const leaf = yield* this.walk(key);
    const parent = this.parent;
    const leafSide = this.side & 1;
    const words = itemWords(key, seq);
    // the new item first (it is a root until linked)
    const item = yield* this.alloc(true);
    const ia = yield* this.m.open(this.a.items, item, true);
    this.m.store32(ia, KIND_ITEM);
    this.m.store32(ia + 8, words);
    for (let w = 0; w < words; w++) this.m.store32(ia + 12 + 4 * w, itemWord(key, seq, w));
    let la = leaf !== 0 ? yield* this.m.open(this.a.nodes, leaf - 1, false) : 0;
    if (leaf !== 0 && this.m.load32(la + 4) === key) {
      // same key: the item joins the leaf's list
      la = yield* this.m.open(this.a.nodes, leaf - 1, true);
      this.m.store32(ia + 4, this.m.load32(la + 8));
      this.m.store32(la + 8, item + 1);
      this.m.store32(la + 12, this.m.load32(la + 12) + 1);
      this.linked();
      return;
    }
    const nl = yield* this.alloc(false);
    const na = yield* this.m.open(this.a.nodes, nl, true);
    this.m.store32(na, KIND_LEAF);
    this.m.store32(na + 4, key);
    this.m.store32(na + 8, item + 1);
    this.m.store32(na + 12, 1);
    this.m.store32(ia + 4, 0);
    if (leaf === 0) {
      yield* this.setRoot(nl + 1);
      this.linked();
      return;
    }
    const oldKey = this.m.load32(la + 4);
    const inner = yield* this.alloc(false);
    const xa = yield* this.m.open(this.a.nodes, inner, true);
    this.m.store32(xa, KIND_INTERNAL);
    this.m.store32(xa + 4, Math.max(key, oldKey));
    this.m.store32(xa + 8, key < oldKey ? nl + 1 : leaf);
    this.m.store32(xa + 12, key < oldKey ? leaf : nl + 1);
    yield* this.replaceChild(parent, leafSide, inner + 1);
    this.linked();
  }

  private *replaceChild(parent: number, right: number, ref: number): Sim<void> {
    if (parent === 0) {
      yield* this.setRoot(ref);
      return;
    }
    const pa = yield* this.m.open(this.a.nodes, parent - 1, true);
    this.m.store32(pa + (right ? 12 : 8), ref);
  }

  /** Deletes the first item of the leaf `key` leads to (an existing item: its key or a neighbour's); the leaf (and its parent) when it was the last. */
  private *remove(key: number): Sim<void> {
    const leaf = yield* this.walk(key);
    if (leaf === 0) return;
    const parent = this.parent;
    const grand = this.grand;
    const sides = this.side;
    let la = yield* this.m.open(this.a.nodes, leaf - 1, false);
    const n = this.m.load32(la + 12);
    if (n > 1) {
      la = yield* this.m.open(this.a.nodes, leaf - 1, true);
      const first = this.m.load32(la + 8);
      const fa = yield* this.m.open(this.a.items, first - 1, false);
      this.m.store32(la + 8, this.m.load32(fa + 4));
      this.m.store32(la + 12, n - 1);
      return;
    }
    // the leaf goes: its sibling takes the parent's place
    if (parent === 0) {
      yield* this.setRoot(0);
      return;
    }
    const pa = yield* this.m.open(this.a.nodes, parent - 1, false);
    const sibling = this.m.load32(pa + ((sides & 1) === 1 ? 8 : 12));
    yield* this.replaceChild(grand, (sides >> 1) & 1, sibling);
  }

  /** Searches `key`; processes every item found through a temporary. */
  private *search(key: number): Sim<void> {
    const leaf = yield* this.walk(key);
    if (leaf === 0) return;
    const la = yield* this.m.open(this.a.nodes, leaf - 1, false);
    if (this.m.load32(la + 4) !== key) return;
    let item = this.m.load32(la + 8);
    while (item !== 0) {
      const ia = yield* this.m.open(this.a.items, item - 1, false);
      const words = Math.min(this.m.load32(ia + 8), TEMP_WORDS);
      const t = yield* this.alloc(false);
      this.linked(); // a temporary is never a root: it dies with this item
      const ta = yield* this.m.open(this.a.nodes, t, true);
      this.m.store32(ta, KIND_TEMP);
      for (let w = 0; w < words; w++) this.m.store32(ta + 4 + 4 * w, this.m.load32(ia + 12 + 4 * w));
      let sum = 0;
      for (let w = 0; w < words; w++) sum = (sum + this.m.load32(ta + 4 + 4 * w)) >>> 0;
      this.m.compute(2 * words, 2 * words);
      this.checksum = (this.checksum + sum) >>> 0;
      this.found++;
      item = this.m.load32(ia + 4);
    }
  }

  // ------------------------------------------------------------ the collector

  private *collect(): Sim<void> {
    this.collections++;
    const nh = this.nodeHeap;
    const ih = this.itemHeap;
    const st = this.stack;
    st.length = 0;
    if (this.me === 0) {
      const r = yield* this.root();
      if (r !== 0) st.push(0, r - 1);
    }
    for (const v of this.pending) st.push(v);
    while (st.length > 0) {
      const c = st.pop()!;
      const isItem = st.pop()! === 1;
      const heap = isItem ? ih! : nh;
      if (c < heap.lo || c >= heap.hi || heap.marked[c - heap.lo]) continue;
      heap.marked[c - heap.lo] = 1;
      this.m.compute(MARK_CYCLES, MARK_CYCLES);
      const a = yield* this.m.open(isItem ? this.a.items : this.a.nodes, c, false);
      if (isItem) {
        const next = this.m.load32(a + 4);
        if (next !== 0) st.push(1, next - 1);
        continue;
      }
      const kind = this.m.load32(a);
      if (kind === KIND_INTERNAL) {
        const l = this.m.load32(a + 8);
        const r = this.m.load32(a + 12);
        if (r !== 0) st.push(0, r - 1);
        if (l !== 0) st.push(0, l - 1);
      } else if (kind === KIND_LEAF) {
        const h = this.m.load32(a + 8);
        if (h !== 0) st.push(1, h - 1);
      }
    }
    for (const heap of ih ? [nh, ih] : [nh]) {
      const n = heap.bump - heap.lo;
      for (let k = 0; k < n; k++) {
        if (heap.allocated[k] && !heap.marked[k]) {
          heap.allocated[k] = 0;
          heap.free.push(heap.lo + k);
        }
        heap.marked[k] = 0;
      }
      this.m.compute(SWEEP_CYCLES * n, SWEEP_CYCLES * n);
      // LIFO: the lowest free cell is taken first
      heap.free.sort((x, y) => y - x);
    }
  }

  // ------------------------------------------------------------ phases

  /** The master builds the tree from `initialPairs` pairs. */
  *build(): Sim<void> {
    if (this.me !== 0) return;
    yield* this.setRoot(0);
    const r = new Lcg(this.s.seed, STREAM_BUILD);
    for (let k = 0; k < this.s.initialPairs; k++) {
      yield* this.insert(r.below(this.s.keys));
      yield* this.m.poll();
    }
  }

  /** The master's update phase of `round`. */
  *update(round: number): Sim<void> {
    if (this.me !== 0) return;
    const r = new Lcg(this.s.seed, streamUpdate(round));
    for (let k = 0; k < this.s.updatesPerRound; k++) {
      const insert = (r.next() & 0x80000000) !== 0;
      const key = r.below(this.s.keys);
      if (insert) yield* this.insert(key);
      else yield* this.remove(key);
      yield* this.m.poll();
    }
  }

  /** This processor's search phase of `round`. */
  *searchPhase(round: number): Sim<void> {
    const r = new Lcg(this.s.seed, streamSearch(this.s, round, this.me));
    for (let k = 0; k < this.s.searchesPerRound; k++) {
      yield* this.search(r.below(this.s.keys));
      yield* this.m.poll();
    }
  }

  /** Writes this processor's results object. */
  *finish(): Sim<void> {
    const a = yield* this.m.open(this.a.results, this.me, true);
    this.m.store32(a, this.checksum);
    this.m.store32(a + 4, this.found);
    this.m.store32(a + 8, this.allocations);
    this.m.store32(a + 12, this.collections);
  }
}

/** The final tree walked in order (keys, then each leaf's item payloads). */
export function* treeShape(m: TreeMem, a: TreeArrays): Sim<TreeShape> {
  const shape: TreeShape = { leaves: 0, internal: 0, items: 0, hash: 0 };
  const ma = yield* m.open(a.meta, 0, false);
  const stack: number[] = [];
  const r = m.load32(ma);
  if (r !== 0) stack.push(r);
  const mix = (v: number) => {
    shape.hash = (Math.imul(shape.hash ^ v, 0x01000193) + 0x9e3779b9) >>> 0;
  };
  while (stack.length > 0) {
    const c = stack.pop()!;
    const na = yield* m.open(a.nodes, c - 1, false);
    if (m.load32(na) === KIND_INTERNAL) {
      shape.internal++;
      stack.push(m.load32(na + 12), m.load32(na + 8)); // left on top: in order
      continue;
    }
    shape.leaves++;
    mix(m.load32(na + 4));
    let item = m.load32(na + 8);
    while (item !== 0) {
      const ia = yield* m.open(a.items, item - 1, false);
      shape.items++;
      const words = m.load32(ia + 8);
      for (let w = 0; w < words; w++) mix(m.load32(ia + 12 + 4 * w));
      item = m.load32(ia + 4);
    }
    yield* m.poll();
  }
  return shape;
}

function allocArrays(dsm: Dsm, s: TreeSize): TreeArrays {
  return {
    nodes: dsm.alloc('nodes', s.masterCells + (dsm.procs - 1) * s.searcherCells, NODE_BYTES),
    items: dsm.alloc('items', s.itemCells, ITEM_BYTES),
    meta: dsm.alloc('meta', 1, 8),
    results: dsm.alloc('results', dsm.procs, RESULT_BYTES),
  };
}

const memOf = (dsm: Dsm): TreeMem => ({
  open: (arr, i, write) => dsm.open(arr, i, write),
  load32: (addr) => dsm.core.load32(addr),
  store32: (addr, v) => dsm.core.store32(addr, v),
  compute: (c, n) => dsm.core.compute(c, n),
  poll: () => dsm.poll(),
});

const allocated = new WeakMap<Dsm, TreeArrays>();

function* run(dsm: Dsm, s: TreeSize): Sim<void> {
  treeValidate(s);
  const a = allocArrays(dsm, s);
  allocated.set(dsm, a);
  const prog = new TreeProgram(memOf(dsm), s, a, dsm.me);
  yield* prog.build();
  yield* dsm.barrier();
  for (let round = 0; round < s.rounds; round++) {
    yield* prog.update(round);
    yield* dsm.barrier();
    yield* prog.searchPhase(round);
    yield* dsm.barrier();
  }
  yield* prog.finish();
}

/** Plain JavaScript memory: arrays laid out one after another, `open` gives the cell's byte address. */
class RefMem implements TreeMem {
  private readonly words: Uint32Array;
  private next = 0;
  private readonly bases: number[] = [];
  constructor(bytes: number) {
    this.words = new Uint32Array(bytes / 4);
  }
  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    this.bases.push(this.next);
    this.next += count * objectBytes;
    return { id: this.bases.length - 1, name, count, objectBytes };
  }
  *open(arr: SharedArrayDesc, i: number, _write: boolean): Sim<number> {
    if (i < 0 || i >= arr.count) throw new Error(`gc-tree reference: ${arr.name}[${i}] is outside 0..${arr.count - 1}`);
    return this.bases[arr.id]! + i * arr.objectBytes;
  }
  load32(addr: number): number {
    return this.words[addr >>> 2]!;
  }
  store32(addr: number, v: number): void {
    this.words[addr >>> 2] = v;
  }
  compute(): void {}
  *poll(): Sim<void> {}
}

/** Runs a generator that never yields (the reference's memory never blocks). */
function drive<T>(g: Sim<T>): T {
  const r = g.next();
  if (!r.done) throw new Error('gc-tree reference: the program yielded on plain memory');
  return r.value;
}

export interface TreeReference {
  procs: TreeProcResult[];
  shape: TreeShape;
}

/** The sequential run: the master's phases and every processor's search phase in processor order, round by round. */
export function treeReference(s: TreeSize, procs: number): TreeReference {
  treeValidate(s);
  const nodes = s.masterCells + (procs - 1) * s.searcherCells;
  const mem = new RefMem(nodes * NODE_BYTES + s.itemCells * ITEM_BYTES + 8 + procs * RESULT_BYTES);
  const a: TreeArrays = { nodes: mem.alloc('nodes', nodes, NODE_BYTES), items: mem.alloc('items', s.itemCells, ITEM_BYTES), meta: mem.alloc('meta', 1, 8), results: mem.alloc('results', procs, RESULT_BYTES) };
  const progs = Array.from({ length: procs }, (_, p) => new TreeProgram(mem, s, a, p));
  drive(progs[0]!.build());
  for (let round = 0; round < s.rounds; round++) {
    drive(progs[0]!.update(round));
    for (const p of progs) drive(p.searchPhase(round));
  }
  return {
    procs: progs.map((p) => ({ checksum: p.checksum, found: p.found, allocations: p.allocations, collections: p.collections })),
    shape: drive(treeShape(mem, a)),
  };
}

const refCache = new Map<string, TreeReference>();
function cachedReference(s: TreeSize, procs: number): TreeReference {
  const key = JSON.stringify([s, procs]);
  let r = refCache.get(key);
  if (!r) {
    r = treeReference(s, procs);
    refCache.clear();
    refCache.set(key, r);
  }
  return r;
}

const fmt = (x: TreeProcResult) => `checksum ${x.checksum}, found ${x.found}, allocations ${x.allocations}, collections ${x.collections}`;

function* check(dsm: Dsm, s: TreeSize): Sim<CheckResult> {
  const a = allocated.get(dsm);
  if (!a) throw new Error('gc-tree: check runs after run on the same processor (no arrays allocated on this Dsm)');
  const ref = cachedReference(s, dsm.procs);
  const m = memOf(dsm);
  let totals = { found: 0, allocations: 0, collections: 0 };
  for (let p = 0; p < dsm.procs; p++) {
    const ra = yield* dsm.open(a.results, p, false);
    const got: TreeProcResult = { checksum: dsm.core.load32(ra), found: dsm.core.load32(ra + 4), allocations: dsm.core.load32(ra + 8), collections: dsm.core.load32(ra + 12) };
    const want = ref.procs[p]!;
    if (got.checksum !== want.checksum || got.found !== want.found || got.allocations !== want.allocations || got.collections !== want.collections)
      return { correct: false, detail: `processor ${p} differs from the sequential run: ${fmt(got)}; sequential ${fmt(want)}` };
    totals = { found: totals.found + got.found, allocations: totals.allocations + got.allocations, collections: totals.collections + got.collections };
  }
  const shape = yield* treeShape(m, a);
  const w = ref.shape;
  if (shape.leaves !== w.leaves || shape.internal !== w.internal || shape.items !== w.items || shape.hash !== w.hash)
    return { correct: false, detail: `the final tree differs from the sequential run: ${JSON.stringify(shape)}; sequential ${JSON.stringify(w)}` };
  return {
    correct: true,
    detail: `equal to the sequential run: final tree of ${shape.internal} internal nodes, ${shape.leaves} leaves, ${shape.items} items (hash ${shape.hash}); ${totals.found} items found, ${totals.allocations} allocations, ${totals.collections} collections`,
  };
}

export const gcTree: DsmApp<TreeSize> = {
  name: 'gc-tree',
  title: 'Tree (garbage-collected binary search tree, mark-and-sweep)',
  sizes: {
    // small: a few collections on every processor in 4 rounds (the test's counts)
    small: { keys: 2048, initialPairs: 800, rounds: 4, updatesPerRound: 200, searchesPerRound: 120, masterCells: 2048, searcherCells: 128, itemCells: 1024, seed: 1 },
    // the paper's one input (line 326: a tree of about 24K nodes, 1 MB; mark-and-sweep heap 8 MB;
    // the master allocates 30 MB): 8,192 pairs give about 7,000 leaves and as many internal nodes
    // and 8,000 items (about 1 MB); (model) a 1 MB node region and 1 MB of items, so that the master
    // collects several times in 10 rounds (the lab's master allocates about 4 MB, not 30 MB: a
    // shorter run). paper-sm and paper-lg are the same input.
    'paper-sm': { keys: 32768, initialPairs: 8192, rounds: 10, updatesPerRound: 4000, searchesPerRound: 200, masterCells: 32768, searcherCells: 256, itemCells: 16384, seed: 1 },
    'paper-lg': { keys: 32768, initialPairs: 8192, rounds: 10, updatesPerRound: 4000, searchesPerRound: 200, masterCells: 32768, searcherCells: 256, itemCells: 16384, seed: 1 },
  } satisfies Record<SizeName, TreeSize>,
  describe: (s) => `${s.initialPairs} pairs over ${s.keys} keys, ${s.rounds} rounds of ${s.updatesPerRound} updates and ${s.searchesPerRound} searches per processor; ${s.masterCells} + ${s.searcherCells} per processor node cells, ${s.itemCells} item cells`,
  locks: () => 0,
  run,
  check,
};
