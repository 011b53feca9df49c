/**
 * The commit phase: what happens at the barrier between two epochs, on one thread (the last
 * worker to arrive; any worker may be it, so everything it needs or keeps is in the shared
 * buffer).
 *
 * Order of work (each step deterministic, independent of which thread runs it):
 *  1. weave: contention delays for the epoch's transactions (weave.ts), charged to cores;
 *  2. buffered writes and test-and-set requests of every core, sorted by (visible time,
 *     core id, sequence), applied to committed memory; after each write the cores waiting on
 *     that line are checked: a waiter is released at max(its block time, the write's visible
 *     time), so it wakes exactly when the releasing write became visible;
 *  3. ideal barriers release when every participating core has arrived;
 *  4. power, telemetry samples, timeline events and live changes;
 *  5. completion, deadlock detection and the bounds of the next epoch: it ends one quantum
 *     after the slowest runnable core (and never before the current end), so chip time stays
 *     within a quantum of the cores.
 */
import type { ResolvedChip } from './chip';
import { corePeriodPs } from './chip';
import { familyOf } from './chips/registry';
import type { AnyChipFamily } from './chips/family';
import { CORE_SLOTS, CTL, CTLF, CTRL_SLOTS, EPOCH_LOG_CAP, EVENTS_CAP, ISL_SLOTS, LINK_SLOTS, S, SERIES_CAP, Status, Request, WLOG_BYTES, WLOG_TAS, WLOG_UNIT, seriesOffsets, type Views } from './layout';
import { readCommittedLine, valueAt, writeCommittedLine } from './memory';
import { ISL, PowerModel } from './power';
import { BlockReason, C, CoreState, compare, LINE_WORDS } from './vocabulary';
import { CTRL, LINK, Weaver } from './weave';
import { describeDeadlock } from './wait-for';

/** Plain run settings derived from the experiment (experiment.ts) and the chip. */
export interface RunSettings {
  quantumPs: number;
  samplePs: number;
  stopAtPs: number; // Infinity when the run ends only when the workload does
  timeline: { atPs: number; tiles: number[]; divisor: number; kind: number; target: number }[];
  participants: number[];
}

export const EVENT_ISLAND_DIVISOR = 1;
export const EVENT_TILE_DIVISOR = 2;

export class Committer {
  private readonly chip: ResolvedChip;
  private readonly v: Views;
  private readonly settings: RunSettings;
  private readonly weaver: Weaver;
  private readonly power: PowerModel;
  private readonly participant: Uint8Array;
  private readonly family: AnyChipFamily;
  private readonly seriesOff: ReturnType<typeof seriesOffsets>;
  // the epoch's write-log entries, sorted into commit order (sortEntries): visible time and
  // slot (core x wlogCap + index in the core's log: its order is (core, sequence)), with the
  // merge buffers and run starts; grown, never shrunk (growSort), nothing allocated per epoch
  private times = new Float64Array(1024);
  private slots = new Uint32Array(1024);
  private timesAux = new Float64Array(1024);
  private slotsAux = new Uint32Array(1024);
  private runs = new Uint32Array(1025);
  // the cores waiting on a flag, by line: an open-addressed table (line id -> first and last
  // waiter, in ascending core order, chained through waitNext), sized for every core at
  // start; waitUsed lists the table slots filled this epoch (cleared at the next build)
  private readonly waitKeys: Float64Array; // (the line ids as the core slots hold them)
  private readonly waitHead: Int32Array;
  private readonly waitTail: Int32Array;
  private readonly waitNext: Int32Array;
  private readonly waitUsed: Int32Array;
  private readonly waitShift: number;
  private waitLines = 0;
  private readonly line32 = new Uint32Array(LINE_WORDS);
  private readonly line = new Uint8Array(this.line32.buffer);
  private readonly lineBytes: Uint8Array;
  /** Set by the committer when the run fails; read by the host. */
  error: string | null = null;

  constructor(chip: ResolvedChip, v: Views, settings: RunSettings) {
    this.chip = chip;
    this.v = v;
    this.settings = settings;
    this.weaver = new Weaver(chip, v);
    this.power = new PowerModel(chip, v);
    this.participant = new Uint8Array(chip.topo.cores);
    this.family = familyOf(chip.family);
    this.seriesOff = seriesOffsets(chip.islands, chip.controllers);
    for (const c of settings.participants) this.participant[c] = 1;
    this.lineBytes = new Uint8Array(v.state);
    const cores = chip.topo.cores;
    let bits = 4;
    while (1 << bits < 2 * cores) bits++; // at most half full: a probe ends at an empty slot soon
    this.waitShift = 32 - bits;
    this.waitKeys = new Float64Array(1 << bits);
    this.waitHead = new Int32Array(1 << bits).fill(-1);
    this.waitTail = new Int32Array(1 << bits);
    this.waitNext = new Int32Array(cores);
    this.waitUsed = new Int32Array(cores);
  }

  /** The table slot of `lineId` among the waited lines: its own, or the empty one it would take. */
  private waitSlot(lineId: number): number {
    const keys = this.waitKeys;
    const head = this.waitHead;
    const last = keys.length - 1;
    let h = Math.imul(lineId, 0x9e3779b1) >>> this.waitShift;
    while (head[h] !== -1 && keys[h] !== lineId) h = (h + 1) & last;
    return h;
  }

  /** Initialises the shared state before any worker starts (driver only). */
  initState(): void {
    const { chip, v, settings } = this;
    v.ctl[CTL.status] = Status.Running;
    v.ctl[CTL.request] = Request.Run;
    v.ctl[CTL.generation] = 0;
    v.ctl[CTL.arrived] = 0;
    v.ctl[CTL.poolNext] = 0;
    v.ctl[CTL.errorCore] = -1;
    v.tileDiv.set(chip.tileDivisors);
    v.ctlF[CTLF.quantumPs] = settings.quantumPs;
    v.ctlF[CTLF.samplePs] = settings.samplePs;
    v.ctlF[CTLF.stopAtPs] = settings.stopAtPs;
    v.ctlF[CTLF.nextSamplePs] = settings.samplePs;
    v.blocks.fill(0);
    for (let core = 0; core < chip.topo.cores; core++) {
      const b = core * CORE_SLOTS;
      v.core.fill(0, b, b + CORE_SLOTS);
      v.core[b + C.state] = this.participant[core] ? CoreState.Runnable : CoreState.Idle;
      v.core[b + S.participates] = this.participant[core]!;
      v.core[b + S.wakePs] = NaN;
      v.core[b + S.waitsFor] = -1; // wait-for.ts: no wait names a core yet, none polls an L1 copy
      v.core[b + S.waitL1Value] = NaN;
    }
    for (let i = 0; i < chip.islands; i++) v.isl[i * ISL_SLOTS + ISL.volts] = this.power.islandVolts(i);
    this.applyTimeline(0);
    this.refreshPeriods();
    v.ctlF[CTLF.epochStartPs] = 0;
    v.ctlF[CTLF.epochEndPs] = this.nextEnd(0, settings.quantumPs);
  }

  private refreshPeriods(): void {
    const { chip, v } = this;
    for (let core = 0; core < chip.topo.cores; core++) {
      const tile = Math.floor(core / chip.topo.coresPerTile);
      v.core[core * CORE_SLOTS + S.periodPs] = corePeriodPs(chip, v.tileDiv[tile]!);
    }
    for (let i = 0; i < chip.islands; i++) {
      let d = 16;
      for (let t = 0; t < chip.topo.tiles; t++) if (chip.islandOfTile[t] === i && v.tileDiv[t]! < d) d = v.tileDiv[t]!;
      v.isl[i * ISL_SLOTS + ISL.divisor] = d;
    }
  }

  /** Applies experiment timeline events due at or before t. */
  private applyTimeline(t: number): boolean {
    const { v, settings } = this;
    let changed = false;
    let next = v.ctl[CTL.timelineNext]!;
    while (next < settings.timeline.length && settings.timeline[next]!.atPs <= t) {
      const ev = settings.timeline[next]!;
      for (const tile of ev.tiles) v.tileDiv[tile] = ev.divisor;
      this.logEvent(ev.atPs, ev.kind, ev.target, ev.divisor);
      next++;
      changed = true;
    }
    v.ctl[CTL.timelineNext] = next;
    return changed;
  }

  private logEvent(atPs: number, kind: number, target: number, value: number): void {
    const v = this.v;
    const n = v.ctl[CTL.eventsCount]!;
    if (n >= EVENTS_CAP) return;
    v.events.set([atPs, kind, target, value], n * 4);
    v.ctl[CTL.eventsCount] = n + 1;
  }

  /** A live change requested by the host: applied now, at the epoch boundary `t`. */
  private applyLive(t: number): boolean {
    const v = this.v;
    const seq = Atomics.load(v.ctl, CTL.liveSeq);
    if (seq === v.ctl[CTL.liveAckSeq]) return false;
    const kind = v.ctl[CTL.liveKind]!;
    const target = v.ctl[CTL.liveTarget]!;
    const value = v.ctl[CTL.liveValue]!;
    const chip = this.chip;
    if (kind === EVENT_ISLAND_DIVISOR && target >= 0 && target < chip.islands && chip.vf.has(value)) {
      for (let tile = 0; tile < chip.topo.tiles; tile++) if (chip.islandOfTile[tile] === target) v.tileDiv[tile] = value;
      this.logEvent(t, kind, target, value);
    } else if (kind === EVENT_TILE_DIVISOR && target >= 0 && target < chip.topo.tiles && chip.vf.has(value)) {
      v.tileDiv[target] = value;
      this.logEvent(t, kind, target, value);
    }
    Atomics.store(v.ctl, CTL.liveAckSeq, seq);
    return true;
  }

  /** The end of the epoch after `start`: `candidate`, clipped to the next timeline event and the stop time. */
  private nextEnd(start: number, candidate: number): number {
    const { settings, v } = this;
    let end = candidate;
    const next = v.ctl[CTL.timelineNext]!;
    if (next < settings.timeline.length) {
      const at = settings.timeline[next]!.atPs;
      if (at > start && at < end) end = at;
    }
    if (settings.stopAtPs < end && settings.stopAtPs > start) end = settings.stopAtPs;
    return end;
  }

  private wake(core: number, atPs: number): void {
    const c = this.v.core;
    const b = core * CORE_SLOTS;
    const blockedAt = c[b + S.blockedAtPs]!;
    const t = Math.max(atPs, blockedAt);
    c[b + C.stallWaitPs] += t - blockedAt;
    c[b + C.clockPs] = t;
    c[b + S.wakePs] = t;
    c[b + C.state] = CoreState.Runnable;
  }

  private growSort(n: number): void {
    if (n <= this.times.length) return;
    let size = this.times.length;
    while (size < n) size *= 2;
    this.times = new Float64Array(size);
    this.slots = new Uint32Array(size);
    this.timesAux = new Float64Array(size);
    this.slotsAux = new Uint32Array(size);
    this.runs = new Uint32Array(size + 1);
  }

  /**
   * Sorts the k gathered entries by (visible time, slot), the commit order. They are gathered
   * core by core in log order, so they come in ascending runs (one per core, or fewer: a
   * single core's log is usually in order already, and then nothing is moved); the runs are
   * merged pairwise, bottom-up, between the two buffer pairs (slots are unique: any correct
   * sort gives this one order). O(k log runs), no allocation.
   */
  private sortEntries(k: number): void {
    const runs = this.runs;
    let n = 1;
    runs[0] = 0;
    let ts = this.times;
    for (let i = 1; i < k; i++) if (ts[i]! < ts[i - 1]!) runs[n++] = i; // a descent starts a run
    if (n === 1) return;
    runs[n] = k;
    let ss = this.slots;
    let td = this.timesAux;
    let sd = this.slotsAux;
    while (n > 1) {
      let out = 0;
      let r = 0;
      for (; r + 1 < n; r += 2) {
        const a1 = runs[r + 1]!;
        const b1 = runs[r + 2]!;
        let i = runs[r]!;
        let j = a1;
        let o = i;
        runs[out++] = i; // (out <= r: the starts still to read are not overwritten)
        while (i < a1 && j < b1) {
          const ti = ts[i]!;
          const tj = ts[j]!;
          if (tj < ti || (tj === ti && ss[j]! < ss[i]!)) {
            td[o] = tj;
            sd[o++] = ss[j++]!;
          } else {
            td[o] = ti;
            sd[o++] = ss[i++]!;
          }
        }
        for (; i < a1; i++, o++) {
          td[o] = ts[i]!;
          sd[o] = ss[i]!;
        }
        for (; j < b1; j++, o++) {
          td[o] = ts[j]!;
          sd[o] = ss[j]!;
        }
      }
      if (r < n) {
        // an odd run out: copied as it is
        const i0 = runs[r]!;
        runs[out++] = i0;
        for (let i = i0; i < k; i++) {
          td[i] = ts[i]!;
          sd[i] = ss[i]!;
        }
      }
      runs[out] = k;
      n = out;
      const t = ts;
      ts = td;
      td = t;
      const s2 = ss;
      ss = sd;
      sd = s2;
    }
    this.times = ts;
    this.slots = ss;
    this.timesAux = td;
    this.slotsAux = sd;
  }

  /** Runs the whole commit phase. Returns false when the run is over. */
  commit(): boolean {
    const { chip, v, settings } = this;
    const cores = chip.topo.cores;
    const c = v.core;
    const startPs = v.ctlF[CTLF.epochStartPs]!;
    const endPs = v.ctlF[CTLF.epochEndPs]!;
    v.ctl[CTL.epoch]! += 1;
    // the epoch log (the web's timeline): entry k is the end of epoch k + 1; past the cap the
    // count still grows, so a full log is visible, never silent. Nothing simulated reads it.
    const logged = v.ctl[CTL.epochLogCount]!;
    if (logged < EPOCH_LOG_CAP) v.epochLog[logged] = endPs;
    v.ctl[CTL.epochLogCount] = logged + 1;

    // failures first
    for (let core = 0; core < cores; core++)
      if (c[core * CORE_SLOTS + C.state] === CoreState.Failed) {
        v.ctl[CTL.errorCore] = core;
        v.ctl[CTL.status] = Status.Error;
        return false;
      }

    // 1. weave
    const delay = this.weaver.run(startPs, endPs, settings.quantumPs);
    for (let core = 0; core < cores; core++) {
      const d = delay[core]!;
      if (d === 0) continue;
      const b = core * CORE_SLOTS;
      if (c[b + C.state] === CoreState.Blocked) c[b + S.blockedAtPs] += d;
      else c[b + C.clockPs] += d;
    }

    // 2. buffered writes, in (visible time, core, sequence) order
    let n = 0;
    for (let core = 0; core < cores; core++) n += c[core * CORE_SLOTS + S.logCount]!;
    this.growSort(n);
    const cap = v.layout.wlogCap;
    let k = 0;
    for (let core = 0; core < cores; core++) {
      const count = c[core * CORE_SLOTS + S.logCount]!;
      const first = core * cap;
      for (let i = 0; i < count; i++) {
        this.times[k] = v.wlogF[((first + i) * WLOG_BYTES) >>> 3]!;
        this.slots[k] = first + i;
        k++;
      }
    }
    this.sortEntries(k);
    const times = this.times;
    const slots = this.slots;

    // waiters by line (the table is filled only in an epoch where some core waits on a flag)
    const head = this.waitHead;
    const tail = this.waitTail;
    const next = this.waitNext;
    const used = this.waitUsed;
    for (let j = 0; j < this.waitLines; j++) head[used[j]!] = -1;
    let lines = 0;
    for (let core = 0; core < cores; core++) {
      const b = core * CORE_SLOTS;
      if (c[b + C.state] !== CoreState.Blocked || c[b + C.blockedOn] !== BlockReason.Flag) continue;
      if (!Number.isNaN(c[b + S.waitL1Value]!)) continue; // spins on its own L1 copy (CL1INVMB skipped): no write reaches it
      c[b + S.waitCand] = 0;
      const line = c[b + S.waitLine]!;
      const h = this.waitSlot(line);
      next[core] = -1;
      if (head[h] === -1) {
        this.waitKeys[h] = line;
        head[h] = core;
        used[lines++] = h;
      } else next[tail[h]!] = core;
      tail[h] = core;
    }
    this.waitLines = lines;
    const wlogBase = v.layout.off.wlog;
    for (let i = 0; i < k; i++) {
      const at = slots[i]! * WLOG_BYTES;
      const t = times[i]!;
      let lineId = v.wlogU[(at >>> 2) + 2]!;
      const mask = v.wlogU[(at >>> 2) + 3]!;
      const kind = v.wlogU[(at >>> 2) + 4]!;
      if (kind === WLOG_UNIT) {
        // a family unit's request (a line filled into a home L2: no waiter to check; a cluster
        // node's arrival counter: the line it wrote, whose waiters are checked like a write's)
        const wrote = this.family.commitUnit?.(v, chip, lineId, mask, Math.floor(slots[i]! / cap), t);
        if (wrote === undefined || wrote < 0) continue;
        lineId = wrote;
      } else if (kind === WLOG_TAS) {
        const reg = lineId & 0x0fffffff;
        const old = v.tas[reg]!;
        v.tas[reg] = 1;
        const core = Math.floor(slots[i]! / cap);
        const b = core * CORE_SLOTS;
        c[b + S.tasResult] = old;
        this.wake(core, t + c[b + S.waitReadPs]!);
      } else {
        try {
          writeCommittedLine(v, lineId, mask, this.lineBytes, wlogBase + at + 32, v.wlogU, (at + 32) >>> 2);
        } catch (err) {
          this.error = (err as Error).message;
          v.ctl[CTL.status] = Status.Error;
          return false;
        }
      }
      if (lines === 0) continue;
      const h = this.waitSlot(lineId);
      for (let w = head[h]!; w !== -1; w = next[w]!) {
        const b = w * CORE_SLOTS;
        if (c[b + C.state] !== CoreState.Blocked) continue;
        const tb = c[b + S.blockedAtPs]!;
        if (c[b + S.waitCand] === 1 && t > tb) {
          // it was already satisfied when the waiter looked at tb
          this.wake(w, tb + c[b + S.waitReadPs]!);
          continue;
        }
        readCommittedLine(v, lineId, this.line32, 0);
        const val = valueAt(this.line, c[b + S.waitOffset]!, c[b + S.waitSize]!);
        const ok = compare(c[b + S.waitOp]!, val, c[b + S.waitValue]!);
        if (ok) {
          c[b + S.tasResult] = val;
          if (t >= tb) this.wake(w, t + c[b + S.waitReadPs]!);
          else c[b + S.waitCand] = 1;
        } else if (t <= tb) c[b + S.waitCand] = 0;
      }
    }
    for (let j = 0; j < lines; j++)
      for (let w = head[used[j]!]!; w !== -1; w = next[w]!) {
        const b = w * CORE_SLOTS;
        if (c[b + C.state] === CoreState.Blocked && c[b + S.waitCand] === 1) this.wake(w, c[b + S.blockedAtPs]! + c[b + S.waitReadPs]!);
      }
    for (let core = 0; core < cores; core++) {
      c[core * CORE_SLOTS + S.logCount] = 0;
      c[core * CORE_SLOTS + S.txnCount] = 0;
    }

    // 3. ideal barrier
    let waiting = 0;
    let finished = 0;
    let live = 0;
    let latest = 0;
    for (const core of settings.participants) {
      const b = core * CORE_SLOTS;
      const st = c[b + C.state]!;
      if (st === CoreState.Finished) finished++;
      else {
        live++;
        if (st === CoreState.Blocked && c[b + C.blockedOn] === BlockReason.Barrier) {
          waiting++;
          latest = Math.max(latest, c[b + S.blockedAtPs]!);
        }
      }
    }
    if (waiting > 0 && waiting === live) {
      if (finished > 0) return this.fail(`deadlock: ${finished} core(s) finished while ${waiting} wait at a barrier`);
      for (const core of settings.participants) this.wake(core, latest);
    }

    // 4. power, samples, timeline, live changes (the latter two only at a boundary that moved
    //    time forward, so a replay applies them at the same commit)
    const fresh = endPs > v.ctlF[CTLF.lastBoundaryPs]!;
    v.ctlF[CTLF.lastBoundaryPs] = Math.max(endPs, v.ctlF[CTLF.lastBoundaryPs]!);
    this.power.account(startPs, endPs);
    let ops = 0;
    for (let core = 0; core < cores; core++) ops += c[core * CORE_SLOTS + C.loads]! + c[core * CORE_SLOTS + C.stores]!;
    v.ctlF[CTLF.simOps] = ops;
    v.ctlF[CTLF.simTimePs] = endPs;
    if (endPs >= v.ctlF[CTLF.nextSamplePs]!) this.sample(endPs);
    if (fresh) {
      const changed = this.applyTimeline(endPs) || this.applyLive(endPs);
      if (changed) this.refreshPeriods();
    }

    // 5. completion, deadlock, next epoch
    let runnable = 0;
    let minClock = Infinity;
    let done = 0;
    for (const core of settings.participants) {
      const b = core * CORE_SLOTS;
      const st = c[b + C.state]!;
      if (st === CoreState.Finished) done++;
      else if (st === CoreState.Runnable) {
        runnable++;
        minClock = Math.min(minClock, c[b + C.clockPs]!);
      }
    }
    v.ctl[CTL.finishedCores] = done;
    if (done === settings.participants.length) {
      // cores may have run past this boundary: account power and time up to the last of them
      let last = endPs;
      for (const core of settings.participants) last = Math.max(last, c[core * CORE_SLOTS + C.clockPs]!);
      last = Math.ceil(last);
      if (last > endPs) {
        this.power.account(endPs, last);
        v.ctlF[CTLF.simTimePs] = last;
      }
      this.finalSample(last);
      v.ctl[CTL.status] = Status.Done;
      return false;
    }
    if (endPs >= settings.stopAtPs) {
      this.finalSample(endPs);
      v.ctl[CTL.status] = Status.Stopped;
      return false;
    }
    if (runnable === 0) return this.fail(this.describeDeadlock());
    // The next epoch ends one quantum after the slowest runnable core, never before this end:
    // time on the chip does not run ahead of the cores (cores that exchange messages advance
    // one hop per epoch), and empty stretches are skipped.
    v.ctlF[CTLF.epochStartPs] = endPs;
    // (whole picoseconds, so a boundary written into a timeline as ns replays exactly)
    v.ctlF[CTLF.epochEndPs] = this.nextEnd(endPs, Math.max(endPs, Math.ceil(minClock) + settings.quantumPs));
    return true;
  }

  private fail(message: string): false {
    this.error = message;
    this.v.ctl[CTL.status] = Status.Error;
    return false;
  }

  /** The failure message when no core can run: the wait-for cycle or the stale flag copy (wait-for.ts). */
  describeDeadlock(): string {
    return describeDeadlock(this.v, this.settings.participants);
  }

  /** Appends a telemetry sample for the interval since the previous one. */
  sample(atPs: number): void {
    const { chip, v } = this;
    receivedTotals(this.v);
    const L = v.layout;
    let n = v.ctl[CTL.seriesCount]!;
    if (n >= SERIES_CAP) {
      // downsample in place: keep every second sample, double the interval
      const stride = L.seriesStride;
      for (let i = 0; i < SERIES_CAP / 2; i++) v.series.copyWithin(i * stride, (2 * i + 1) * stride, (2 * i + 2) * stride);
      n = SERIES_CAP / 2;
      v.ctl[CTL.seriesStrideLog]! += 1;
      v.ctlF[CTLF.samplePs] = v.ctlF[CTLF.samplePs]! * 2;
    }
    const prevT = v.ctlF[CTLF.lastSamplePs]!;
    const dt = Math.max(atPs - prevT, 1);
    const o = n * L.seriesStride;
    const s = v.series;
    const energy = v.ctlF[CTLF.chipEnergyJ]!;
    const off = this.seriesOff; // the one record layout (results and the web read it)
    s[o + off.timePs] = atPs;
    s[o + off.chipPowerW] = ((energy - v.ctlF[CTLF.seriesPrevEnergyJ]!) / dt) * 1e12;
    let flits = 0;
    for (let l = 0; l < chip.topo.links; l++) flits += v.links[l * LINK_SLOTS + LINK.flits]!;
    s[o + off.flitsPerUs] = ((flits - v.ctlF[CTLF.seriesPrevFlits]!) / dt) * 1e6; // flits per us
    for (let i = 0; i < chip.islands; i++) s[o + off.islandPowerW + i] = v.isl[i * ISL_SLOTS + ISL.powerW]!;
    for (let m = 0; m < chip.controllers; m++) s[o + off.controllerRequests + m] = v.ctrl[m * CTRL_SLOTS + CTRL.requests]!;
    for (let m = 0; m < chip.controllers; m++) s[o + off.controllerQueueDepth + m] = v.ctrl[m * CTRL_SLOTS + CTRL.queueDepth]!;
    for (let core = 0; core < chip.topo.cores; core++) {
      const b = core * CORE_SLOTS;
      const busy = v.core[b + C.busyPs]!;
      s[o + off.coreUtilization + core] = Math.min(1, Math.max(0, (busy - v.core[b + S.sampleBusyPs]!) / dt));
      v.core[b + S.sampleBusyPs] = busy;
    }
    v.ctlF[CTLF.seriesPrevEnergyJ] = energy;
    v.ctlF[CTLF.seriesPrevFlits] = flits;
    v.ctlF[CTLF.lastSamplePs] = atPs;
    v.ctl[CTL.seriesCount] = n + 1;
    v.ctlF[CTLF.nextSamplePs] = atPs + v.ctlF[CTLF.samplePs]! - (atPs % v.ctlF[CTLF.samplePs]!);
  }

  private finalSample(atPs: number): void {
    if (atPs > this.v.ctlF[CTLF.lastSamplePs]!) this.sample(atPs);
    receivedTotals(this.v);
  }
}

/**
 * Received totals per core: column sums of the message matrix (at samples and at the end; the
 * web's scrub recorder derives them the same way for a snapshot, so the sums are bit-identical).
 * Only the rows of cores that have sent are summed: a core writes its matrix row only
 * together with its own messagesSent or bytesSent counter (CoreBase.countMessage, a family's
 * MPB-byte accounting), so a core whose counters are both zero has an all-zero row. The sums
 * run over the senders in ascending order, as the full column sums did (they skipped only
 * exact zeros): the same values, at O(cores x senders) instead of O(cores^2) per sample.
 */
export function receivedTotals(v: Views): void {
  const cores = v.layout.cores;
  const c = v.core;
  const m = v.matrix;
  for (let j = 0; j < cores; j++) {
    c[j * CORE_SLOTS + C.messagesReceived] = 0;
    c[j * CORE_SLOTS + C.bytesReceived] = 0;
  }
  for (let i = 0; i < cores; i++) {
    if (!(c[i * CORE_SLOTS + C.messagesSent]! > 0 || c[i * CORE_SLOTS + C.bytesSent]! > 0)) continue;
    const row = i * cores * 2;
    for (let j = 0; j < cores; j++) {
      const b = j * CORE_SLOTS;
      c[b + C.messagesReceived] += m[row + j * 2]!;
      c[b + C.bytesReceived] += m[row + j * 2 + 1]!;
    }
  }
}
