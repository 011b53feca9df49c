/**
 * Weave phase: contention, resolved after each epoch (in the spirit of ZSim's bound-weave).
 *
 * During an epoch every memory transaction was timed at zero load and recorded (core.ts
 * txn). Here, between epochs and on one thread:
 *  - memory controllers: the transactions that reached each controller are served first
 *    come first served (ties by core id, then record order), one per serviceMemCycles; a
 *    transaction that found the controller busy waited `start - arrival`;
 *  - mesh links: flits are added to every link on the X-Y route there and back; a link's
 *    utilisation over the epoch gives each packet crossing it an M/D/1 queueing delay.
 * Each transaction's delay, divided by the misses the core had in flight when it issued
 * (overlapped misses share a stall), is charged to its core: the clock moves on and the
 * stall is counted (controller queueing to the transaction's own cause, links to network).
 * Units: ps, flits. Deterministic: depends only on the logged records.
 */
import type { ResolvedChip } from './chip';
import { CORE_SLOTS, CTRL_SLOTS, LINK_SLOTS, S, TXN_BYTES, TXN_TARGET_MPB, type Views } from './layout';
import { tileX, tileY, DIR_E, DIR_W, DIR_N, DIR_S, type Topology } from './topology';

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
    if (mode === 0) links[l * 4 + 1] += flits;
    else sum += wait[l]!;
    x += bx > x ? 1 : -1;
  }
  while (y !== by) {
    const l = (y * t.width + x) * 4 + (by > y ? DIR_S : DIR_N);
    if (mode === 0) links[l * 4 + 1] += flits;
    else sum += wait[l]!;
    y += by > y ? 1 : -1;
  }
  return sum;
}
import { C, STALL_NETWORK } from './vocabulary';

/** Controller slots (CTRL_SLOTS per controller). queueDepth: transactions still waiting at the epoch end. */
export const CTRL = { requests: 0, reads: 1, writes: 2, lastFinishPs: 3, queueMax: 4, queueDelayPs: 5, busyPs: 6, epochRequests: 7, queueDepth: 8 } as const;
export const LINK = { flits: 0, epochFlits: 1, waitPs: 2, utilization: 3 } as const; // LINK_SLOTS = 4

export class Weaver {
  private readonly chip: ResolvedChip;
  private readonly v: Views;
  private arrivals = new Float64Array(4096);
  private owners = new Float64Array(4096); // core * 2^20 + record, for deterministic ties
  private order = new Uint32Array(4096);
  private readonly linkWait: Float64Array;
  private readonly delay: Float64Array; // per core, ps

  constructor(chip: ResolvedChip, v: Views) {
    this.chip = chip;
    this.v = v;
    this.linkWait = new Float64Array(chip.topo.links);
    this.delay = new Float64Array(chip.topo.cores);
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
  run(startPs: number, endPs: number): Float64Array {
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
        const out = (flits >>> 16) * count;
        const back = (flits & 0xffff) * count;
        walk(topo, src, dst, 0, out, links, this.linkWait);
        walk(topo, dst, src, 0, back, links, this.linkWait);
        if (!(target & TXN_TARGET_MPB)) total += count;
      }
    }
    const spanPs = Math.max(endPs - startPs, 1);
    const flitPs = chip.meshPeriodPs;
    for (let l = 0; l < topo.links; l++) {
      const f = links[l * LINK_SLOTS + LINK.epochFlits]!;
      links[l * LINK_SLOTS + LINK.flits] += f;
      const rho = Math.min((f * flitPs) / spanPs, 0.98);
      links[l * LINK_SLOTS + LINK.utilization] = rho;
      // M/D/1 wait for a packet of ~2 flits
      this.linkWait[l] = rho > 0 ? (rho * 2 * flitPs) / (2 * (1 - rho)) : 0;
    }

    // 2. per-transaction link delays, and controller arrivals
    this.grow(total);
    let k = 0;
    const lw = this.linkWait;
    for (let core = 0; core < cores; core++) {
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

    // 3. controller queues: FIFO per controller
    const order = this.order.subarray(0, k);
    for (let i = 0; i < k; i++) order[i] = i;
    const arr = this.arrivals;
    const own = this.owners;
    order.sort((a, b) => arr[a]! - arr[b]! || own[a]! - own[b]! || a - b);
    const service = chip.serviceMemPs;
    const ctrl = v.ctrl;
    for (let m = 0; m < chip.controllers; m++) ctrl[m * CTRL_SLOTS + CTRL.epochRequests] = 0;
    for (let i = 0; i < k; i++) {
      const idx = order[i]!;
      const core = Math.floor(own[idx]! / 1048576);
      const r = own[idx]! - core * 1048576;
      const p = (core * cap * TXN_BYTES + r * TXN_BYTES) >>> 2;
      const m = v.txnU[p + 2]!;
      const meta = v.txnU[p + 3]!;
      const cause = (meta >>> 20) & 0xf;
      const weight = Math.max(1, meta >>> 24);
      const isWrite = v.txnU[p + 4]! >>> 16 > 1;
      const base = m * CTRL_SLOTS;
      const a = arr[idx]!;
      const free = ctrl[base + CTRL.lastFinishPs]!;
      const start = free > a ? free : a;
      const wait = start - a;
      ctrl[base + CTRL.lastFinishPs] = start + service;
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
        v.core[core * CORE_SLOTS + C.stallL1MissPs + cause] += d;
      }
    }
    for (let m = 0; m < chip.controllers; m++) {
      const backlog = ctrl[m * CTRL_SLOTS + CTRL.lastFinishPs]! - endPs;
      ctrl[m * CTRL_SLOTS + CTRL.queueDepth] = backlog > 0 ? Math.ceil(backlog / service) : 0;
    }
    void STALL_NETWORK;
    return delay;
  }
}
