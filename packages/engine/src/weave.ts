/**
 * Weave phase: contention, resolved after each epoch (in the spirit of ZSim's bound-weave).
 *
 * During an epoch every memory transaction was timed at zero load and recorded (core.ts
 * txn). Here, between epochs and on one thread:
 *  - memory controllers: each controller keeps a calendar of booked service intervals
 *    (serviceMemCycles each). The epoch's arrivals are booked in the order they reach the
 *    controllers (ties by core id), each in the first free slot at or after its arrival, so a
 *    core that ran ahead of the epoch and booked the future does not make earlier arrivals of
 *    other cores wait; a transaction that found the controller busy waited `start - arrival`.
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
 */
import type { ResolvedChip } from './chip';
import { CAL_CAP, CORE_SLOTS, CTLF, CTRL_SLOTS, LINK_SLOTS, S, TXN_BYTES, TXN_TARGET_MPB, type Views } from './layout';
import { DIR_E, DIR_N, DIR_S, DIR_W, tileX, tileY, type Topology } from './topology';
import { C } from './vocabulary';

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
} as const;
/** Link slots (LINK_SLOTS per link). window: decaying flit count over the contention window. */
export const LINK = { flits: 0, epochFlits: 1, window: 2, utilization: 3 } as const;

/**
 * Walks the X-Y route a -> b. mode 0: adds `flits` to each link's epoch flits; mode 1:
 * returns the sum of the links' waits. No closures: called for every transaction.
 */
function walk(t: Topology, a: number, b: number, mode: number, flits: number, links: Float64Array, wait: Float64Array): number {
  let x = tileX(t, a);
  let y = tileY(t, a);
  const bx = tileX(t, b);
  const by = tileY(t, b);
  let sum = 0;
  while (x !== bx) {
    const l = (y * t.width + x) * 4 + (bx > x ? DIR_E : DIR_W);
    if (mode === 0) links[l * LINK_SLOTS + LINK.epochFlits] += flits;
    else sum += wait[l]!;
    x += bx > x ? 1 : -1;
  }
  while (y !== by) {
    const l = (y * t.width + x) * 4 + (by > y ? DIR_S : DIR_N);
    if (mode === 0) links[l * LINK_SLOTS + LINK.epochFlits] += flits;
    else sum += wait[l]!;
    y += by > y ? 1 : -1;
  }
  return sum;
}

/** Min-heap of core ids by (key[core], core). Returns the new size. */
function less(key: Float64Array, a: number, b: number): boolean {
  return key[a]! < key[b]! || (key[a] === key[b] && a < b);
}
function heapPush(heap: Int32Array, size: number, key: Float64Array, core: number): number {
  let i = size;
  heap[i] = core;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!less(key, heap[i]!, heap[parent]!)) break;
    const t = heap[i]!;
    heap[i] = heap[parent]!;
    heap[parent] = t;
    i = parent;
  }
  return size + 1;
}
function heapPop(heap: Int32Array, size: number, key: Float64Array): number {
  const n = size - 1;
  heap[0] = heap[n]!;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && less(key, heap[l]!, heap[m]!)) m = l;
    if (r < n && less(key, heap[r]!, heap[m]!)) m = r;
    if (m === i) break;
    const t = heap[i]!;
    heap[i] = heap[m]!;
    heap[m] = t;
    i = m;
  }
  return n;
}

/**
 * A controller's calendar: sorted, disjoint, merged [start, end) intervals in the shared
 * buffer. book() serves one transaction in the first free slot at or after `arrival`.
 */
export class Calendar {
  private readonly cal: Float64Array;
  private readonly ctrl: Float64Array;

  constructor(v: Views) {
    this.cal = v.cal;
    this.ctrl = v.ctrl;
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

  /** Books `service` ps at or after `arrival`; returns the start. */
  book(m: number, arrival: number, service: number): number {
    const cal = this.cal;
    const base = m * CAL_CAP * 2;
    let n = this.count(m);
    // first interval that ends after the arrival (ends are increasing)
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cal[base + mid * 2 + 1]! <= arrival) lo = mid + 1;
      else hi = mid;
    }
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
      cal.copyWithin(base + (i + 1) * 2, base + i * 2, base + n * 2);
      cal[base + i * 2] = start;
      cal[base + i * 2 + 1] = end;
      n++;
    }
    this.ctrl[m * CTRL_SLOTS + CTRL.calCount] = n;
    const last = cal[base + (n - 1) * 2 + 1]!;
    this.ctrl[m * CTRL_SLOTS + CTRL.lastFinishPs] = last;
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

export class Weaver {
  private readonly chip: ResolvedChip;
  private readonly v: Views;
  private arrivals = new Float64Array(4096);
  private owners = new Float64Array(4096); // core * 2^20 + record, for deterministic ties
  private order = new Uint32Array(4096);
  private readonly linkWait: Float64Array;
  private readonly delay: Float64Array; // per core, ps
  private readonly calendar: Calendar;
  private readonly shift: Float64Array; // per core: controller waits so far this epoch
  private readonly blocks: Int32Array; // per core: first arrival index (cores + 1 entries)
  private readonly cursor: Int32Array;
  private readonly key: Float64Array;
  private readonly heap: Int32Array;

  constructor(chip: ResolvedChip, v: Views) {
    this.chip = chip;
    this.v = v;
    this.linkWait = new Float64Array(chip.topo.links);
    this.delay = new Float64Array(chip.topo.cores);
    this.calendar = new Calendar(v);
    this.shift = new Float64Array(chip.topo.cores);
    this.blocks = new Int32Array(chip.topo.cores + 1);
    this.cursor = new Int32Array(chip.topo.cores);
    this.key = new Float64Array(chip.topo.cores);
    this.heap = new Int32Array(chip.topo.cores);
  }

  private grow(n: number): void {
    if (n <= this.arrivals.length) return;
    let size = this.arrivals.length;
    while (size < n) size *= 2;
    const a = new Float64Array(size);
    a.set(this.arrivals);
    this.arrivals = a;
    const o = new Float64Array(size);
    o.set(this.owners);
    this.owners = o;
    this.order = new Uint32Array(size);
  }

  /** Resolves contention for the epoch [startPs, endPs); returns per-core delays (ps). */
  run(startPs: number, endPs: number, quantumPs: number): Float64Array {
    const { chip, v } = this;
    const topo = chip.topo;
    const cores = topo.cores;
    const cap = v.layout.txnCap;
    const delay = this.delay;
    delay.fill(0);
    const links = v.links;
    for (let l = 0; l < topo.links; l++) links[l * LINK_SLOTS + LINK.epochFlits] = 0;

    // 1. link loads
    let total = 0;
    for (let core = 0; core < cores; core++) {
      const n = v.core[core * CORE_SLOTS + S.txnCount]!;
      for (let r = 0; r < n; r++) {
        const p = (core * cap * TXN_BYTES + r * TXN_BYTES) >>> 2;
        const target = v.txnU[p + 2]!;
        const src = v.txnU[p + 3]! & 0xfffff;
        const flits = v.txnU[p + 4]!;
        const count = v.txnU[p + 5]!;
        const dst = target & TXN_TARGET_MPB ? target & 0xffff : chip.controllerTile[target]!;
        walk(topo, src, dst, 0, (flits >>> 16) * count, links, this.linkWait);
        walk(topo, dst, src, 0, (flits & 0xffff) * count, links, this.linkWait);
        if (!(target & TXN_TARGET_MPB)) total += count;
      }
    }
    // utilisation over a sliding window (a decaying count), the same for any quantum
    const windowPs = chip.contentionWindowPs;
    const since = endPs - Math.min(v.ctlF[CTLF.lastWeavePs]!, startPs);
    v.ctlF[CTLF.lastWeavePs] = endPs;
    const keep = since >= windowPs ? 0 : 1 - since / windowPs;
    const flitPs = chip.meshPeriodPs;
    for (let l = 0; l < topo.links; l++) {
      const b = l * LINK_SLOTS;
      const f = links[b + LINK.epochFlits]!;
      links[b + LINK.flits] += f;
      const w = links[b + LINK.window]! * keep + f;
      links[b + LINK.window] = w;
      const rho = Math.min((w * flitPs) / Math.max(windowPs, since), 0.98);
      links[b + LINK.utilization] = rho;
      // M/D/1 wait for a packet of ~2 flits
      this.linkWait[l] = rho > 0 ? (rho * 2 * flitPs) / (2 * (1 - rho)) : 0;
    }

    // 2. per-transaction link delays, and controller arrivals
    this.grow(total);
    let k = 0;
    const lw = this.linkWait;
    for (let core = 0; core < cores; core++) {
      this.blocks[core] = k;
      const n = v.core[core * CORE_SLOTS + S.txnCount]!;
      for (let r = 0; r < n; r++) {
        const p = (core * cap * TXN_BYTES + r * TXN_BYTES) >>> 2;
        const target = v.txnU[p + 2]!;
        const meta = v.txnU[p + 3]!;
        const src = meta & 0xfffff;
        const weight = Math.max(1, meta >>> 24);
        const count = v.txnU[p + 5]!;
        const dst = target & TXN_TARGET_MPB ? target & 0xffff : chip.controllerTile[target]!;
        const w = walk(topo, src, dst, 1, 0, links, lw) + walk(topo, dst, src, 1, 0, links, lw);
        if (w > 0) {
          const d = (w * count) / weight;
          delay[core] += d;
          v.core[core * CORE_SLOTS + C.stallNetworkPs] += d;
        }
        if (target & TXN_TARGET_MPB) continue;
        const first = v.txnF[p >>> 1]!;
        const last = v.txnF[(p >>> 1) + 3]!;
        const step = count > 1 ? (last - first) / (count - 1) : 0;
        for (let i = 0; i < count; i++) {
          this.arrivals[k] = first + i * step;
          this.owners[k] = core * 1048576 + r;
          k++;
        }
      }
    }

    this.blocks[cores] = k;

    // 3. controllers: book arrivals in the order they really reach the controllers. A core's
    //    later requests were issued after its earlier ones completed, so they arrive later by
    //    the waits those had: each core's arrivals are shifted by its waits so far, and a heap
    //    over cores (key: next shifted arrival, then core id) picks the next one to book.
    const order = this.order.subarray(0, k);
    for (let i = 0; i < k; i++) order[i] = i;
    const arr = this.arrivals;
    const own = this.owners;
    const blocks = this.blocks;
    for (let core = 0; core < cores; core++) {
      const s0 = blocks[core]!;
      const s1 = blocks[core + 1]!;
      if (s1 - s0 > 1) order.subarray(s0, s1).sort((a, b) => arr[a]! - arr[b]! || a - b);
    }
    const service = chip.serviceMemPs;
    const ctrl = v.ctrl;
    const cal = this.calendar;
    const shift = this.shift;
    shift.fill(0);
    for (let m = 0; m < chip.controllers; m++) {
      ctrl[m * CTRL_SLOTS + CTRL.epochRequests] = 0;
      // a lagging core may still arrive a few quanta in the past; older bookings are history
      cal.prune(m, startPs - 8 * quantumPs);
    }
    const heap = this.heap;
    const cursor = this.cursor;
    const key = this.key;
    let size = 0;
    for (let core = 0; core < cores; core++) {
      cursor[core] = blocks[core]!;
      if (blocks[core]! < blocks[core + 1]!) {
        key[core] = arr[order[blocks[core]!]!]!;
        size = heapPush(heap, size, key, core);
      }
    }
    while (size > 0) {
      const core = heap[0]!;
      size = heapPop(heap, size, key);
      const idx = order[cursor[core]!]!;
      const r = own[idx]! - core * 1048576;
      const p = (core * cap * TXN_BYTES + r * TXN_BYTES) >>> 2;
      const m = v.txnU[p + 2]!;
      const meta = v.txnU[p + 3]!;
      const cause = (meta >>> 20) & 0xf;
      const weight = Math.max(1, meta >>> 24);
      const isWrite = v.txnU[p + 4]! >>> 16 > 1;
      const base = m * CTRL_SLOTS;
      const a = arr[idx]! + shift[core]!;
      const start = cal.book(m, a, service);
      const wait = start - a;
      ctrl[base + CTRL.requests] += 1;
      ctrl[base + CTRL.epochRequests] += 1;
      ctrl[base + (isWrite ? CTRL.writes : CTRL.reads)] += 1;
      ctrl[base + CTRL.busyPs] += service;
      if (wait > 0) {
        ctrl[base + CTRL.queueDelayPs] += wait;
        const q = Math.ceil(wait / service);
        if (q > ctrl[base + CTRL.queueMax]!) ctrl[base + CTRL.queueMax] = q;
        const d = wait / weight;
        delay[core] += d;
        shift[core] += d;
        v.core[core * CORE_SLOTS + C.stallL1MissPs + cause] += d;
      }
      cursor[core]! += 1;
      if (cursor[core]! < blocks[core + 1]!) {
        key[core] = arr[order[cursor[core]!]!]! + shift[core]!;
        size = heapPush(heap, size, key, core);
      }
    }
    for (let m = 0; m < chip.controllers; m++) ctrl[m * CTRL_SLOTS + CTRL.queueDepth] = Math.ceil(cal.bookedAfter(m, endPs) / service);
    return delay;
  }
}
