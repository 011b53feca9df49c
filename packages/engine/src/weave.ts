/**
 * Weave phase: contention, resolved after each epoch (in the spirit of ZSim's bound-weave).
 *
 * During an epoch every memory transaction was timed at zero load and recorded (core.ts
 * txn). Here, between epochs and on one thread:
 *  - memory controllers: each controller's DRAM (dram/ddr.ts DdrController: banks with open
 *    rows, one data bus) serves the epoch's arrivals in the order they reach the controllers
 *    (ties by core id), first come first served with bank-level parallelism. The bus is a
 *    calendar of booked column-command slots, and a transaction takes the first free slot at or
 *    after its bank is ready (a row hit at once, a closed bank after ACT + tRCD, a row conflict
 *    after PRE + tRP + tRCD), so a core that ran ahead of the epoch and booked the future does
 *    not make earlier arrivals of other cores wait. The zero-load time the core charged at
 *    issue is a row hit's; a transaction waited `completion - arrival - row hit` (its column
 *    command's wait, never negative). The 'fixed' model (chip.dram.model) instead books a
 *    constant service time per transaction on the calendar and waited `start - arrival`.
 *  - mesh links: flits are added to every link on the X-Y route there and back. A link's
 *    utilisation is taken over a sliding window of mesh.contentionWindowNs of simulated time
 *    (a decaying flit count), independent of the quantum; each packet crossing a link waits
 *    the M/D/1 queueing time for that utilisation.
 * Within an epoch, a core's later arrivals are shifted by the controller waits its earlier
 * ones had (its requests are issued in order), so a long burst is not charged its backlog
 * over and over, and contending cores share a controller fairly.
 * Each transaction's delay, divided by the misses the core had in flight when it issued
 * (overlapped misses share a stall), is charged to its core: the clock moves on and the stall
 * is counted (controller waits to the transaction's own cause, link waits to network).
 * Units: ps, flits. Deterministic: depends only on the logged records and shared state.
 *
 * How (this is most of the serial commit phase on memory-bound runs, so the hot loops avoid
 * allocation, closures and repeated work; each result is the reference algorithm's, bit for
 * bit, which weave.test.ts and the golden digests check):
 *  - each core's controller arrivals (time, what the record says, the line) are materialised
 *    once and put in (arrival, record, position) order by a stable merge of its records'
 *    ascending runs;
 *  - the next arrival to book comes from a loser tree over the cores that have arrivals (key:
 *    next shifted arrival, then core id). That order is total, so the bookings happen in the
 *    same sequence as with any priority queue;
 *  - cores that reach no common controller (directly or through other cores) share nothing the
 *    booking touches, so each such component gets a tree of its own, booked one after the
 *    other: every booking and every sum keeps its order (the global order restricted to the
 *    component), with shallower trees (the SCC's quadrants: one component per controller when
 *    cores stream their private memory; a lone core needs no tree);
 *  - Calendar.book decides the common cases (after the last interval, or queueing behind it)
 *    from the last two intervals before any search; otherwise it searches from where its last
 *    search ended (DDR bookings land a few intervals before the end), bisecting if that is far;
 *  - a controller route's flits are summed per (source tile, controller) and walked once, and
 *    its wait is computed once per epoch, after this epoch's utilisation update; a link's M/D/1
 *    wait is computed when a route first needs it (from the utilisation stored for the link);
 *  - only integer sums are regrouped (flits, request and row counts, busy time in whole ps):
 *    exact in any grouping. Every floating sum (delays, stall counters, queue delay, the waits
 *    along a route) keeps the reference order: record order, then booking order.
 * Scratch state lives in the Weaver only within one run (any worker's Weaver may commit the
 * next epoch); everything carried between epochs is in the shared buffer.
 */
import type { ResolvedChip } from './chip';
import { DdrController, LOCAL_LINE_MASK, beatsOf } from './dram/ddr';
import { CAL_CAP, CORE_SLOTS, CTLF, CTRL_SLOTS, LINK_SLOTS, S, TXN_BYTES, TXN_TARGET_MPB, type Views } from './layout';
import { DIR_E, DIR_N, DIR_S, DIR_W, tileX, tileY } from './topology';
import { C, LINE_BYTES } from './vocabulary';

/** Controller slots (CTRL_SLOTS per controller). queueDepth: transactions still waiting at the epoch end. */
export const CTRL = {
  requests: 0,
  reads: 1,
  writes: 2,
  lastFinishPs: 3, // end of the latest booked service
  queueMax: 4,
  queueDelayPs: 5,
  busyPs: 6,
  epochRequests: 7,
  queueDepth: 8,
  calCount: 9, // intervals in the calendar
  rowHits: 10, // DDR: transactions that found their row open
  rowMisses: 11, // DDR: transactions that found their bank closed (ACT only)
  rowConflicts: 12, // DDR: transactions that found another row open (PRE + ACT)
} as const;

/**
 * A controller arrival's record, packed in an Int32 (Weaver.infos): controller (bits 3..0),
 * stall cause (7..4), write (8), data beats on the DRAM bus (16..9), misses in flight (22..17).
 */
const INFO_CAUSE = 4;
const INFO_WRITE = 8;
const INFO_BEATS = 9;
const INFO_WEIGHT = 17;
/** Link slots (LINK_SLOTS per link). window: decaying flit count over the contention window. */
export const LINK = { flits: 0, epochFlits: 1, window: 2, utilization: 3 } as const;

/**
 * Adds `flits` to ef[link] (the epoch's flits per link) for every link on the X-Y route
 * a -> b (x first, then y; tx/ty: each tile's coordinates). Called on every record.
 */
function routeAdd(width: number, tx: Int32Array, ty: Int32Array, a: number, b: number, flits: number, ef: Float64Array): void {
  let x = tx[a]!;
  const y = ty[a]!;
  const bx = tx[b]!;
  const by = ty[b]!;
  let l = (y * width + x) * 4;
  if (x < bx) for (l += DIR_E; x < bx; x++, l += 4) ef[l] += flits;
  else if (x > bx) for (l += DIR_W; x > bx; x--, l -= 4) ef[l] += flits;
  l = (y * width + x) * 4;
  const row = width * 4;
  if (y < by) for (let yy = y, m = l + DIR_S; yy < by; yy++, m += row) ef[m] += flits;
  else if (y > by) for (let yy = y, m = l + DIR_N; yy > by; yy--, m -= row) ef[m] += flits;
}

/** The index of the lowest set bit of a non-zero 32-bit mask. */
function lowestBit(bits: number): number {
  return 31 - Math.clz32(bits & -bits);
}

/** The root of x in a union-find forest over controllers (path halving). */
function findRoot(root: Int32Array, x: number): number {
  while (root[x] !== x) {
    const up = root[root[x]!]!;
    root[x] = up;
    x = up;
  }
  return x;
}

/**
 * Sorts the arrivals arr/info/line[s0, s1) by arrival time, ties in index order: a stable merge of
 * the segment's ascending runs (each coalesced record is one run). The arrays have two halves
 * of `half` entries; the merge passes go back and forth between [s0, s1) and the same
 * positions in the other half. Returns the offset (0 or half) of the sorted segment. bounds
 * holds run limits (s1 - s0 + 1 entries from s0): bounds[s0 + 1 .. s0 + starts] the starts of
 * the runs after the first, or, when starts is -1, found here by a scan. Called on every epoch
 * for every core whose records' arrivals interleave.
 */
function mergeRuns(arr: Float64Array, info: Int32Array, line: Int32Array, half: number, bounds: Int32Array, s0: number, s1: number, starts: number): number {
  let runs = starts;
  if (runs < 0) {
    runs = 0;
    bounds[s0] = s0;
    for (let i = s0 + 1; i < s1; i++) if (arr[i]! < arr[i - 1]!) bounds[s0 + ++runs] = i;
    if (runs === 0) return 0;
  }
  bounds[s0 + ++runs] = s1; // runs: the number of runs; bounds[s0 .. s0 + runs] their limits
  let from = 0;
  let to = half;
  while (runs > 1) {
    let out = 0;
    for (let q = 0; q < runs; q += 2) {
      const lo = bounds[s0 + q]!;
      const mid = bounds[s0 + q + 1]!;
      if (q + 1 === runs) {
        // an odd run out: copied as it is
        for (let i = lo; i < mid; i++) {
          arr[to + i] = arr[from + i]!;
          info[to + i] = info[from + i]!;
          line[to + i] = line[from + i]!;
        }
      } else {
        const hi = bounds[s0 + q + 2]!;
        let i = from + lo;
        let j = from + mid;
        const iEnd = j;
        const jEnd = from + hi;
        let o = to + lo;
        while (i < iEnd && j < jEnd) {
          // ties go to the left run (its indices are lower)
          if (arr[j]! < arr[i]!) {
            arr[o] = arr[j]!;
            line[o] = line[j]!;
            info[o++] = info[j++]!;
          } else {
            arr[o] = arr[i]!;
            line[o] = line[i]!;
            info[o++] = info[i++]!;
          }
        }
        while (i < iEnd) {
          arr[o] = arr[i]!;
          line[o] = line[i]!;
          info[o++] = info[i++]!;
        }
        while (j < jEnd) {
          arr[o] = arr[j]!;
          line[o] = line[j]!;
          info[o++] = info[j++]!;
        }
      }
      bounds[s0 + out++] = lo;
    }
    bounds[s0 + out] = s1;
    runs = out;
    const t = from;
    from = to;
    to = t;
  }
  return from;
}

/**
 * A controller's calendar: sorted, disjoint, merged [start, end) intervals in the shared
 * buffer. book() serves one transaction in the first free slot at or after `arrival`.
 */
export class Calendar {
  private readonly cal: Float64Array;
  private readonly ctrl: Float64Array;
  /** Per controller, where the last general search ended (a search start only: never changes a result). */
  private readonly hint: Int32Array;

  constructor(v: Views) {
    this.cal = v.cal;
    this.ctrl = v.ctrl;
    this.hint = new Int32Array(v.layout.controllers);
  }

  count(m: number): number {
    return this.ctrl[m * CTRL_SLOTS + CTRL.calCount]!;
  }

  /** Drops intervals that ended before `horizon` (nothing can arrive that early any more). */
  prune(m: number, horizon: number): void {
    const base = m * CAL_CAP * 2;
    const n = this.count(m);
    let k = 0;
    while (k < n && this.cal[base + k * 2 + 1]! < horizon) k++;
    if (k === 0) return;
    this.cal.copyWithin(base, base + k * 2, base + n * 2);
    this.ctrl[m * CTRL_SLOTS + CTRL.calCount] = n - k;
  }

  /**
   * Books `service` ps at or after `arrival`; returns the start. Called on every controller
   * arrival: most land after the last interval or queue behind it, which is decided here from
   * the last two intervals; the rest take the general path (the same result either way).
   */
  book(m: number, arrival: number, service: number): number {
    const cal = this.cal;
    const n = this.count(m) | 0;
    if (n > 0) {
      const last = m * CAL_CAP * 2 + n * 2 - 2; // the last interval's start
      const lastEnd = cal[last + 1]!;
      if (arrival === lastEnd) {
        // served at once, joining the last interval
        const end = arrival + service;
        cal[last + 1] = end;
        this.ctrl[m * CTRL_SLOTS + CTRL.lastFinishPs] = end;
        return arrival;
      }
      if (arrival > lastEnd) {
        if (n === CAL_CAP) return this.bookAt(m, arrival, service, n, n);
        // served at once, a new interval at the end
        const end = arrival + service;
        cal[last + 2] = arrival;
        cal[last + 3] = end;
        this.ctrl[m * CTRL_SLOTS + CTRL.calCount] = n + 1;
        this.ctrl[m * CTRL_SLOTS + CTRL.lastFinishPs] = end;
        return arrival;
      }
      if ((n === 1 || cal[last - 1]! <= arrival) && arrival + service > cal[last]!) {
        // overlaps the last interval (and is past the one before): queues behind it
        const end = lastEnd + service;
        cal[last + 1] = end;
        this.ctrl[m * CTRL_SLOTS + CTRL.lastFinishPs] = end;
        return lastEnd;
      }
    }
    // first interval that ends after the arrival (ends are increasing). Bookings come mostly in
    // time order and land a few intervals before the end (the DDR model books a busy bank's
    // column commands ahead): a few steps from where the last search ended, else bisection
    const base = m * CAL_CAP * 2;
    let lo = 0;
    let hi = n;
    let h = this.hint[m]!;
    if (h > n) h = n;
    if (h > 0 && cal[base + h * 2 - 1]! > arrival) {
      // the answer is before h
      hi = h - 1;
      for (let k = 0; k < 4 && hi > 0 && cal[base + hi * 2 - 1]! > arrival; k++) hi--;
      if (hi > 0 && cal[base + hi * 2 - 1]! > arrival) hi--;
      else lo = hi;
    } else {
      // the answer is at h or after
      lo = h;
      for (let k = 0; k < 4 && lo < n && cal[base + lo * 2 + 1]! <= arrival; k++) lo++;
      if (lo < n && cal[base + lo * 2 + 1]! <= arrival) lo++;
      else hi = lo;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cal[base + mid * 2 + 1]! <= arrival) lo = mid + 1;
      else hi = mid;
    }
    this.hint[m] = lo;
    return this.bookAt(m, arrival, service, n, lo);
  }

  /** The general case of book(): `lo` is the first of the n intervals that ends after `arrival`. */
  private bookAt(m: number, arrival: number, service: number, count: number, lo: number): number {
    const cal = this.cal;
    const base = m * CAL_CAP * 2;
    let n = count;
    let i = lo;
    let start = arrival;
    while (i < n && start + service > cal[base + i * 2]!) {
      start = Math.max(start, cal[base + i * 2 + 1]!);
      i++;
    }
    const end = start + service;
    const joinsPrev = i > 0 && cal[base + (i - 1) * 2 + 1] === start;
    const joinsNext = i < n && cal[base + i * 2] === end;
    if (joinsPrev && joinsNext) {
      cal[base + (i - 1) * 2 + 1] = cal[base + i * 2 + 1]!;
      cal.copyWithin(base + i * 2, base + (i + 1) * 2, base + n * 2);
      n--;
    } else if (joinsPrev) cal[base + (i - 1) * 2 + 1] = end;
    else if (joinsNext) cal[base + i * 2] = start;
    else {
      if (n === CAL_CAP) {
        // full: forget the oldest interval (or, when the new one would be first, the newest);
        // an approximation that errs towards less waiting
        if (i > 0) {
          cal.copyWithin(base, base + 2, base + n * 2);
          i--;
        }
        n--;
      }
      if (i < n) cal.copyWithin(base + (i + 1) * 2, base + i * 2, base + n * 2);
      cal[base + i * 2] = start;
      cal[base + i * 2 + 1] = end;
      n++;
    }
    this.ctrl[m * CTRL_SLOTS + CTRL.calCount] = n;
    this.ctrl[m * CTRL_SLOTS + CTRL.lastFinishPs] = cal[base + n * 2 - 1]!;
    return start;
  }

  /** Booked service time after `t`, ps. */
  bookedAfter(m: number, t: number): number {
    const base = m * CAL_CAP * 2;
    let sum = 0;
    for (let i = this.count(m) - 1; i >= 0; i--) {
      const s = this.cal[base + i * 2]!;
      const e = this.cal[base + i * 2 + 1]!;
      if (e <= t) break;
      sum += e - Math.max(s, t);
    }
    return sum;
  }
}

/** Weaver.served slots per controller. */
const SERVED = 6;

export class Weaver {
  private readonly chip: ResolvedChip;
  private readonly v: Views;
  // the epoch's controller arrivals, grouped by core, what their records say (INFO_*) and
  // their controller-local lines; each core's are put in (arrival, record, position) order in
  // one half or the other (half: `room` entries each)
  private room = 2048;
  private arrivals = new Float64Array(4096);
  private infos = new Int32Array(4096);
  private lines = new Int32Array(4096);
  private bounds = new Int32Array(2049); // merge runs
  private readonly linkWait: Float64Array; // per link, this epoch's (valid where waitStamp is the epoch's stamp)
  private readonly waitStamp: Int32Array;
  private readonly epochFlits: Float64Array; // per link, this epoch's flits; zero between runs
  private readonly tileXs: Int32Array;
  private readonly tileYs: Int32Array;
  private readonly delay: Float64Array; // per core, ps
  private readonly calendar: Calendar;
  // routes to controllers, per (source tile, controller) slot: flits there and back are
  // summed per slot and walked once, and the route's wait is computed once per epoch
  private readonly slotStamp: Int32Array;
  private readonly slotUp: Float64Array;
  private readonly slotDown: Float64Array;
  private readonly slotWait: Float64Array;
  private readonly slotList: Int32Array;
  private stamp = 0;
  // a loser tree over the cores with arrivals (leaves in core order; key: next shifted
  // arrival, then leaf = core order); internal nodes hold the loser of their match
  private readonly leafCore: Int32Array;
  private readonly leafKey: Float64Array;
  private readonly leafCursor: Int32Array;
  private readonly leafEnd: Int32Array;
  private readonly leafShift: Float64Array; // controller waits of the leaf's core so far this epoch
  private readonly tree: Int32Array;
  private readonly treeKey: Float64Array; // the key of the loser held at each internal node
  private readonly winners: Int32Array; // tree building scratch
  // the cores with arrivals this epoch (in core order): where their arrivals are, and the
  // controllers they reach (a bit per controller); components are booked one at a time
  private readonly srcCore: Int32Array;
  private readonly srcCursor: Int32Array;
  private readonly srcEnd: Int32Array;
  private readonly srcMask: Int32Array;
  private readonly srcOrder: Int32Array; // the sources grouped by component (core order within one)
  private readonly ctrlRoot = new Int32Array(16); // union-find over controllers (MAX_CONTROLLERS <= 16)
  private readonly ctrlGroup = new Int32Array(16); // a root controller's component
  private readonly groupStart = new Int32Array(17);
  private readonly groupFill = new Int32Array(16);
  // per controller, this epoch: reads, writes, row hits, row misses, row conflicts, bus busy ps
  private readonly served: Float64Array;
  private readonly ddr: DdrController | null; // the DRAM model (null: fixed service)

  constructor(chip: ResolvedChip, v: Views) {
    this.chip = chip;
    this.v = v;
    const cores = chip.topo.cores;
    this.linkWait = new Float64Array(chip.topo.links);
    this.waitStamp = new Int32Array(chip.topo.links);
    this.epochFlits = new Float64Array(chip.topo.links);
    this.tileXs = new Int32Array(chip.topo.tiles);
    this.tileYs = new Int32Array(chip.topo.tiles);
    for (let t = 0; t < chip.topo.tiles; t++) {
      this.tileXs[t] = tileX(chip.topo, t);
      this.tileYs[t] = tileY(chip.topo, t);
    }
    this.delay = new Float64Array(cores);
    this.calendar = new Calendar(v);
    const slots = chip.topo.tiles * chip.controllers;
    this.slotStamp = new Int32Array(slots);
    this.slotUp = new Float64Array(slots);
    this.slotDown = new Float64Array(slots);
    this.slotWait = new Float64Array(slots);
    this.slotList = new Int32Array(slots);
    let leaves = 1;
    while (leaves < cores) leaves *= 2;
    this.leafCore = new Int32Array(leaves);
    this.leafKey = new Float64Array(leaves);
    this.leafCursor = new Int32Array(leaves);
    this.leafEnd = new Int32Array(leaves);
    this.leafShift = new Float64Array(leaves);
    this.tree = new Int32Array(leaves);
    this.treeKey = new Float64Array(leaves);
    this.winners = new Int32Array(leaves);
    this.srcCore = new Int32Array(cores);
    this.srcCursor = new Int32Array(cores);
    this.srcEnd = new Int32Array(cores);
    this.srcMask = new Int32Array(cores);
    this.srcOrder = new Int32Array(cores);
    this.served = new Float64Array(chip.controllers * SERVED);
    this.ddr = chip.dram.model === 'ddr' ? new DdrController(chip.dram, v.dram, this.calendar) : null;
  }

  /**
   * Groups the epoch's `active` sources (srcMask: the controllers each reaches) into
   * components of sources that share a controller, directly or through other sources:
   * srcOrder lists the sources component by component, in core order within each, and
   * component g is srcOrder[groupStart[g] .. groupStart[g + 1]). Returns the number of
   * components. Called on every epoch (O(sources x controllers), no allocation).
   */
  private components(active: number): number {
    const root = this.ctrlRoot;
    const groupOf = this.ctrlGroup;
    const mask = this.srcMask;
    const start = this.groupStart;
    const fill = this.groupFill;
    for (let m = 0; m < 16; m++) {
      root[m] = m;
      groupOf[m] = -1;
    }
    for (let i = 0; i < active; i++) {
      let bits = mask[i]!;
      let r = findRoot(root, lowestBit(bits));
      for (bits &= bits - 1; bits !== 0; bits &= bits - 1) {
        const b = findRoot(root, lowestBit(bits));
        if (b < r) {
          root[r] = b;
          r = b;
        } else if (b > r) root[b] = r;
      }
    }
    // components numbered by their first source; sizes, then starts, then placed in core order
    let groups = 0;
    for (let i = 0; i < active; i++) {
      const r = findRoot(root, lowestBit(mask[i]!));
      let g = groupOf[r]!;
      if (g < 0) {
        g = groups++;
        groupOf[r] = g;
        start[g + 1] = 0;
      }
      start[g + 1] += 1;
    }
    start[0] = 0;
    for (let g = 0; g < groups; g++) {
      start[g + 1] += start[g]!;
      fill[g] = start[g]!;
    }
    const order = this.srcOrder;
    for (let i = 0; i < active; i++) order[fill[groupOf[findRoot(root, lowestBit(mask[i]!))]!]!++] = i;
    return groups;
  }

  /**
   * The sum of the waits of the links on the X-Y route a -> b, in route order. A link's wait
   * (M/D/1, a packet of ~2 flits) is computed from its utilisation once per epoch, when a
   * route first crosses it. Called on every route of the epoch.
   */
  private routeWait(a: number, b: number): number {
    const width = this.chip.topo.width;
    let x = this.tileXs[a]!;
    let y = this.tileYs[a]!;
    const bx = this.tileXs[b]!;
    const by = this.tileYs[b]!;
    let sum = 0;
    if (x < bx) for (; x < bx; x++) sum += this.linkWaitOf((y * width + x) * 4 + DIR_E);
    else for (; x > bx; x--) sum += this.linkWaitOf((y * width + x) * 4 + DIR_W);
    if (y < by) for (; y < by; y++) sum += this.linkWaitOf((y * width + x) * 4 + DIR_S);
    else for (; y > by; y--) sum += this.linkWaitOf((y * width + x) * 4 + DIR_N);
    return sum;
  }

  /** Link l's wait this epoch (computed at its first use). Called on every link of every route. */
  private linkWaitOf(l: number): number {
    if (this.waitStamp[l] === this.stamp) return this.linkWait[l]!;
    const rho = this.v.links[l * LINK_SLOTS + LINK.utilization]!;
    const flitPs = this.chip.meshPeriodPs;
    const w = rho > 0 ? (rho * 2 * flitPs) / (2 * (1 - rho)) : 0;
    this.linkWait[l] = w;
    this.waitStamp[l] = this.stamp;
    return w;
  }

  private grow(n: number): void {
    if (n <= this.room) return;
    let size = this.room;
    while (size < n) size *= 2;
    this.room = size;
    this.arrivals = new Float64Array(size * 2);
    this.infos = new Int32Array(size * 2);
    this.lines = new Int32Array(size * 2);
    this.bounds = new Int32Array(size + 1);
  }

  /** Resolves contention for the epoch [startPs, endPs); returns per-core delays (ps). */
  run(startPs: number, endPs: number, quantumPs: number): Float64Array {
    const { chip, v } = this;
    const topo = chip.topo;
    const cores = topo.cores;
    const tiles = topo.tiles;
    const controllers = chip.controllers;
    const ctrlTile = chip.controllerTile;
    const cap = v.layout.txnCap;
    const txnU = v.txnU;
    const txnF = v.txnF;
    const vc = v.core;
    const delay = this.delay;
    delay.fill(0);
    const links = v.links;
    const width = topo.width;
    const tx = this.tileXs;
    const ty = this.tileYs;
    const ef = this.epochFlits;
    const slotStamp = this.slotStamp;
    const slotUp = this.slotUp;
    const slotDown = this.slotDown;
    const slotWait = this.slotWait;
    const slotList = this.slotList;
    if (++this.stamp > 0x3fffffff) {
      slotStamp.fill(0);
      this.waitStamp.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    let slots = 0;

    // 1. link loads (called on every record), summed in ef (zero between runs). A controller
    //    route's flits are summed per (source tile, controller) and walked once: the counts
    //    are integers, so the link sums are exact in any order.
    let total = 0;
    for (let core = 0; core < cores; core++) {
      const n = vc[core * CORE_SLOTS + S.txnCount]!;
      for (let r = 0; r < n; r++) {
        const p = (core * cap * TXN_BYTES + r * TXN_BYTES) >>> 2;
        const target = txnU[p + 2]!;
        const src = txnU[p + 3]! & 0xfffff;
        const flits = txnU[p + 4]!;
        const count = txnU[p + 5]!;
        if (target & TXN_TARGET_MPB || src >= tiles) {
          const dst = target & TXN_TARGET_MPB ? target & 0xffff : ctrlTile[target]!;
          routeAdd(width, tx, ty, src, dst, (flits >>> 16) * count, ef);
          routeAdd(width, tx, ty, dst, src, (flits & 0xffff) * count, ef);
          if (!(target & TXN_TARGET_MPB)) total += count;
          continue;
        }
        total += count;
        const slot = src * controllers + target;
        if (slotStamp[slot] !== stamp) {
          slotStamp[slot] = stamp;
          slotUp[slot] = 0;
          slotDown[slot] = 0;
          slotList[slots++] = slot;
        }
        slotUp[slot] += (flits >>> 16) * count;
        slotDown[slot] += (flits & 0xffff) * count;
      }
    }
    for (let q = 0; q < slots; q++) {
      const slot = slotList[q]!;
      const src = (slot / controllers) | 0;
      const dst = ctrlTile[slot - src * controllers]!;
      routeAdd(width, tx, ty, src, dst, slotUp[slot]!, ef);
      routeAdd(width, tx, ty, dst, src, slotDown[slot]!, ef);
    }
    // utilisation over a sliding window (a decaying count), the same for any quantum; a link's
    // wait is computed from it when a route needs it (routeWait)
    const windowPs = chip.contentionWindowPs;
    const since = endPs - Math.min(v.ctlF[CTLF.lastWeavePs]!, startPs);
    v.ctlF[CTLF.lastWeavePs] = endPs;
    const keep = since >= windowPs ? 0 : 1 - since / windowPs;
    const flitPs = chip.meshPeriodPs;
    const span = Math.max(windowPs, since);
    for (let l = 0; l < topo.links; l++) {
      const b = l * LINK_SLOTS;
      const f = ef[l]!;
      ef[l] = 0;
      links[b + LINK.epochFlits] = f;
      const w0 = links[b + LINK.window]!;
      // an idle link that has never carried flits (or has forgotten them) stays at zero
      if (f === 0 && w0 === 0 && links[b + LINK.utilization] === 0 && span > 0) continue;
      links[b + LINK.flits] += f;
      const w = w0 * keep + f;
      links[b + LINK.window] = w;
      links[b + LINK.utilization] = Math.min((w * flitPs) / span, 0.98);
    }
    // each controller route's wait, from this epoch's link waits (there, then back)
    for (let q = 0; q < slots; q++) {
      const slot = slotList[q]!;
      const src = (slot / controllers) | 0;
      const dst = ctrlTile[slot - src * controllers]!;
      slotWait[slot] = this.routeWait(src, dst) + this.routeWait(dst, src);
    }

    // 2. per-transaction link delays, and controller arrivals (called on every record); each
    //    core's arrivals are put in time order (ties by record, then position) and the core
    //    becomes a leaf of the tournament
    this.grow(total);
    const arr = this.arrivals;
    const info = this.infos;
    const lines = this.lines;
    const busBytes = this.ddr ? this.ddr.t.busBytes : 8;
    const half = this.room;
    const bounds = this.bounds;
    const leafCore = this.leafCore;
    const leafKey = this.leafKey;
    const leafCursor = this.leafCursor;
    const leafEnd = this.leafEnd;
    const leafShift = this.leafShift;
    const srcCore = this.srcCore;
    const srcCursor = this.srcCursor;
    const srcEnd = this.srcEnd;
    const srcMask = this.srcMask;
    let k = 0;
    let active = 0;
    for (let core = 0; core < cores; core++) {
      const s0 = k;
      // the core's arrivals as ascending runs: a record with last >= first is one (its
      // arrivals first + i * step rise with i), joined to the previous run when it starts no
      // earlier than that ended; a falling record (none from txnRecord) asks for a scan
      let runs = 0;
      let scan = false;
      let reach = 0;
      bounds[s0] = s0;
      const n = vc[core * CORE_SLOTS + S.txnCount]!;
      for (let r = 0; r < n; r++) {
        const p = (core * cap * TXN_BYTES + r * TXN_BYTES) >>> 2;
        const target = txnU[p + 2]!;
        const meta = txnU[p + 3]!;
        const src = meta & 0xfffff;
        const weight = Math.max(1, meta >>> 24);
        const count = txnU[p + 5]!;
        let w: number;
        if (target & TXN_TARGET_MPB || src >= tiles) {
          const dst = target & TXN_TARGET_MPB ? target & 0xffff : ctrlTile[target]!;
          w = this.routeWait(src, dst) + this.routeWait(dst, src);
        } else w = slotWait[src * controllers + target]!;
        if (w > 0) {
          const d = (w * count) / weight;
          delay[core] += d;
          vc[core * CORE_SLOTS + C.stallNetworkPs] += d;
        }
        if (target & TXN_TARGET_MPB) continue;
        if (count > 0) reach |= 1 << target; // target < MAX_CONTROLLERS (14)
        const first = txnF[p >>> 1]!;
        const last = txnF[(p >>> 1) + 3]!;
        const step = count > 1 ? (last - first) / (count - 1) : 0;
        const isWrite = txnU[p + 4]! >>> 16 > 1 ? 1 : 0;
        const shape = txnU[p + 9]!;
        const beats = beatsOf(shape & 0xff, busBytes);
        const rec = target | (((meta >>> 20) & 0xf) << INFO_CAUSE) | (isWrite << INFO_WRITE) | (beats << INFO_BEATS) | (weight << INFO_WEIGHT);
        if (!(step >= 0)) scan = true;
        else if (k > s0 && count > 0 && first < arr[k - 1]!) bounds[s0 + ++runs] = k;
        // transaction i is at line first + floor(i / repeat) x stride (controller-local)
        let line = txnU[p + 8]! & LOCAL_LINE_MASK;
        const stride = shape >> 16;
        const repeat = (shape >>> 8) & 0xff || 1;
        for (let i = 0, rep = 0; i < count; i++) {
          arr[k] = first + i * step;
          info[k] = rec;
          lines[k] = line;
          k++;
          if (++rep === repeat) {
            rep = 0;
            line += stride;
          }
        }
      }
      if (k === s0) continue;
      // a core's arrivals are almost always logged in time order; interleaved records (two
      // streams) are merged
      const at = runs > 0 || scan ? mergeRuns(arr, info, lines, half, bounds, s0, k, scan ? -1 : runs) : 0;
      srcCore[active] = core;
      srcCursor[active] = at + s0;
      srcEnd[active] = at + k;
      srcMask[active] = reach;
      active++;
    }

    // 3. controllers: book arrivals in the order they really reach the controllers. A core's
    //    later requests were issued after its earlier ones completed, so they arrive later by
    //    the waits those had: each core's arrivals are shifted by its waits so far, and a
    //    tournament over cores (key: next shifted arrival, then core id) picks the next one to
    //    book. The order is total, so the sequence of bookings is that of any priority queue.
    //    DDR: the DRAM serves each (dram/ddr.ts); fixed: a constant service on the calendar.
    const ddr = this.ddr;
    const service = chip.dram.model === 'fixed' ? chip.dram.servicePs : 0;
    // a queue's depth is counted in bus slots of a 32 B line
    const unit = ddr ? ddr.slotPs(beatsOf(LINE_BYTES, ddr.t.busBytes)) : service;
    const ctrl = v.ctrl;
    const cal = this.calendar;
    const served = this.served;
    served.fill(0);
    // wait > max * slot is exact (integers) only for whole-ps slots (resolved timings are)
    const wholeService = ddr ? Number.isInteger(ddr.t.tCkPs) && Number.isInteger(ddr.t.tCcdPs) : Number.isInteger(service);
    for (let m = 0; m < controllers; m++) {
      ctrl[m * CTRL_SLOTS + CTRL.epochRequests] = 0;
      // a lagging core may still arrive a few quanta in the past; older bookings are history
      cal.prune(m, startPs - 8 * quantumPs);
    }
    // Components: cores that reach a common controller (directly or through other cores) and
    // their controllers. Two components share nothing the booking reads or writes (calendar,
    // banks and counters are per controller; shifts and charges per core), so each is booked by
    // a tournament of its own: the global order restricted to one component is that
    // tournament's order (same keys, ties in core order), so every booking, and every sum in
    // its order, is the single tournament's; only the trees are smaller (a lone core books its
    // arrivals in order, no tree at all).
    const groups = this.components(active);
    const order = this.srcOrder;
    const gs = this.groupStart;
    for (let g = 0; g < groups; g++) {
      const g0 = gs[g]!;
      const size = gs[g + 1]! - g0;
      let left = 0;
      for (let i = 0; i < size; i++) {
        const src = order[g0 + i]!;
        leafCore[i] = srcCore[src]!;
        leafCursor[i] = srcCursor[src]!;
        leafEnd[i] = srcEnd[src]!;
        leafShift[i] = 0;
        leafKey[i] = arr[srcCursor[src]!]!;
        left += srcEnd[src]! - srcCursor[src]!;
      }
      let leaves = 1;
      while (leaves < size) leaves *= 2;
      for (let i = size; i < leaves; i++) leafKey[i] = Infinity;
      const tree = this.tree;
      const treeKey = this.treeKey;
      const win = this.winners;
      // build: node i's children are 2i and 2i + 1; leaf j is node leaves + j
      for (let node = leaves - 1; node >= 1; node--) {
        const c0 = node * 2;
        const a = c0 >= leaves ? c0 - leaves : win[c0]!;
        const b = c0 + 1 >= leaves ? c0 + 1 - leaves : win[c0 + 1]!;
        if (leafKey[b]! < leafKey[a]! || (leafKey[b] === leafKey[a] && b < a)) {
          win[node] = b;
          tree[node] = a;
          treeKey[node] = leafKey[a]!;
        } else {
          win[node] = a;
          tree[node] = b;
          treeKey[node] = leafKey[b]!;
        }
      }
      let top = leaves > 1 ? win[1]! : 0;
      // called on every controller arrival: the top leaf's next arrival is booked
      for (; left > 0; left--) {
        const leaf = top;
        const core = leafCore[leaf]!;
        const j = leafCursor[leaf]!;
        const rec = info[j]!;
        const m = rec & 0xf;
        const a = arr[j]! + leafShift[leaf]!;
        const write = (rec >>> INFO_WRITE) & 1;
        let wait: number;
        let slot: number;
        if (ddr) {
          const beats = (rec >>> INFO_BEATS) & 0xff;
          // the extra beyond a row hit, which the core already charged: the column command's wait
          wait = ddr.access(m, a, lines[j]!, write === 1, beats) - a - ddr.zeroLoadPs(write === 1, beats);
          slot = ddr.slotPs(beats);
          served[m * SERVED + 2 + ddr.outcome] += 1;
        } else {
          wait = cal.book(m, a, service) - a;
          slot = service;
        }
        served[m * SERVED + write] += 1;
        served[m * SERVED + 5] += slot;
        if (wait > 0) {
          const base = m * CTRL_SLOTS;
          ctrl[base + CTRL.queueDelayPs] += wait;
          // ceil(wait / unit) > max only if wait > max * unit (both exact integers)
          const qMax = ctrl[base + CTRL.queueMax]!;
          if (!wholeService || wait > qMax * unit) {
            const q = Math.ceil(wait / unit);
            if (q > qMax) ctrl[base + CTRL.queueMax] = q;
          }
          const d = wait / (rec >>> INFO_WEIGHT);
          delay[core] += d;
          leafShift[leaf] += d;
          vc[core * CORE_SLOTS + C.stallL1MissPs + ((rec >>> INFO_CAUSE) & 0xf)] += d;
        }
        const next = j + 1;
        leafCursor[leaf] = next;
        // the leaf's next key (an exhausted leaf loses to every other), and its matches
        // replayed up to the root: the stored loser goes up wherever it beats the key coming up
        let kt = next < leafEnd[leaf]! ? arr[next]! + leafShift[leaf]! : Infinity;
        let t = leaf;
        for (let node = (leaf + leaves) >> 1; node >= 1; node >>= 1) {
          const ko = treeKey[node]!;
          if (ko < kt || (ko === kt && tree[node]! < t)) {
            const o = tree[node]!;
            tree[node] = t;
            treeKey[node] = kt;
            t = o;
            kt = ko;
          }
        }
        top = t;
      }
    }
    // the counters, one per request: integer sums, exact in any grouping
    for (let m = 0; m < controllers; m++) {
      const base = m * CTRL_SLOTS;
      const sb = m * SERVED;
      const reads = served[sb]!;
      const writes = served[sb + 1]!;
      const n = reads + writes;
      ctrl[base + CTRL.requests] += n;
      ctrl[base + CTRL.epochRequests] += n;
      ctrl[base + CTRL.reads] += reads;
      ctrl[base + CTRL.writes] += writes;
      ctrl[base + CTRL.rowHits] += served[sb + 2]!;
      ctrl[base + CTRL.rowMisses] += served[sb + 3]!;
      ctrl[base + CTRL.rowConflicts] += served[sb + 4]!;
      ctrl[base + CTRL.busyPs] += served[sb + 5]!;
    }
    for (let m = 0; m < controllers; m++) ctrl[m * CTRL_SLOTS + CTRL.queueDepth] = Math.ceil(cal.bookedAfter(m, endPs) / unit);
    return delay;
  }
}
