/**
 * rcce-pair: the RCCE pair benchmarks of the SCC performance and power study (scc.md section 6).
 * `pairs` disjoint core pairs, both cores of a pair `hops` hops apart, run the same benchmark at
 * once (all start together after a harness barrier):
 *  - share:    both cores stream a block through uncached shared DRAM (8 B transactions) at the
 *              pair's nearest memory controller, write then read the partner's block, with an
 *              RCCE token exchange in between (memory-bound: stalls, lowest activity);
 *  - shift:    both cores exchange 128 B RCCE messages (a ring of two);
 *  - stencil:  both cores update a 1-D 3-point stencil over their private array, then exchange
 *              their 64 B halos;
 *  - pingpong: the first core sends a message, the second sends it back; sizes cycle through
 *              64 B .. 16 KB (two RCCE chunks).
 * Rows, one per pair: {benchmark, hops, pairs, pair, cores, timeNs, busyRatio, messages, bytes,
 * chipPowerW, ipc, messagesPerInstruction}. ipc and messagesPerInstruction are the study's
 * definitions over the pair's two cores for the whole run: instructions / wall-clock cycles, and
 * RCCE put/get calls / instructions (engine counters `instructions`, `loggedMessages`). busyRatio = busy time / time of the pair's two cores over the timed rounds (the
 * lab's IPC proxy: cycles spent issuing instructions, not stalled or waiting);
 * messages and bytes come from the simulated message matrix (both directions). powerW is the
 * chip's power over the timed rounds (lib/power.ts, every wait counted as polling activity);
 * chipPowerW is the engine's average over the whole run (simulated.chip.avgPowerW).
 * Protocol bugs (`bug`, RCCE_PAIR_BUGS): 'deadlock' makes both cores of a pair send first (the
 * run stops naming the wait-for cycle: RCCE's waits say whose flag they wait for);
 * 'skip-cl1invmb' makes RCCE's flag reads skip CL1INVMB (Rcce skipCl1invmb: a wait spins on the
 * flag line's copy in L1; the run stops naming the stale copy).
 */
import { z } from 'zod';
import { windowPowerW, DUE, WorkloadParamError, type SccCore, type ResolvedChip, type Row, type Sim, type WorkloadDef } from '@manycore/engine';
import { checkPattern, fillPattern, mapUncached, touch } from './lib/mem';
import { pairsAtHops, sharedAddrOnController } from './placement';
import { checkRcceChip, Rcce } from './rcce/index';
import { busyPs } from './lib/counters';
import { ActivityMeter } from './lib/power';

export const PAIR_BENCHMARKS = ['share', 'shift', 'stencil', 'pingpong'] as const;
export type PairBenchmark = (typeof PAIR_BENCHMARKS)[number];

/** Pingpong message sizes, cycled (bytes). */
export const PINGPONG_SIZES = [64, 256, 1024, 4096, 16384] as const;
/** Cycles of one floating-point operation of the stencil (model: P54C x87, pipelined). */
export const STENCIL_FLOP_CYCLES = 2;

const Params = z.strictObject({
  benchmark: z.enum(PAIR_BENCHMARKS).default('stencil').describe('share, shift, stencil or pingpong'),
  hops: z.number().int().min(0).max(8).default(1).describe('mesh hops between the two cores of each pair'),
  pairs: z.number().int().min(1).max(24).default(1).describe('pairs running at once'),
  rounds: z.number().int().min(0).max(100_000).default(0).describe('iterations per pair (0 = the benchmark default)'),
  shareBytes: z.number().int().min(8).max(65536).default(2048).describe('share: bytes each core writes and reads per round'),
  stencilPoints: z.number().int().min(16).max(65536).default(512).describe('stencil: doubles per core'),
  bug: z.enum(['none', 'deadlock', 'skip-cl1invmb']).default('none').describe('protocol bug: none, deadlock (both cores of a pair send first) or skip-cl1invmb (flag reads skip CL1INVMB)'),
});
type P = z.infer<typeof Params>;

const DEFAULT_ROUNDS: Record<PairBenchmark, number> = { share: 20, shift: 100, stencil: 40, pingpong: 10 };

export function pairList(p: Pick<P, 'hops' | 'pairs'>, chip: ResolvedChip): [number, number][] {
  const all = pairsAtHops(chip, p.hops);
  if (all.length < p.pairs)
    throw new WorkloadParamError(
      `only ${all.length} disjoint pairs are ${p.hops} hops apart on this chip (asked for ${p.pairs})`,
      'pairs',
      `at most ${all.length}: only ${all.length} disjoint pairs are ${p.hops} hops apart on this chip`,
    );
  return all.slice(0, p.pairs);
}

const rounds = (p: P) => p.rounds || DEFAULT_ROUNDS[p.benchmark];

const KB = 1024;
const MB = 1024 * KB;
const BUF_A = 1 * MB; // private offsets
const BUF_B = 2 * MB;
const BUF_MSG = 4 * MB;
const BUF_IN = 5 * MB;

/** What each protocol bug of rcce-pair should break (WorkloadDef.bugs). */
export const RCCE_PAIR_BUGS = {
  deadlock:
    "Both cores of each pair send first: RCCE's send is synchronous (it waits for the receiver's ready flag), so each core waits for the other's ready flag for ever and the run stops with the wait-for cycle.",
  'skip-cl1invmb':
    'Flag reads skip CL1INVMB: the poll reads the copy of the flag line its L1 already holds, never sees the partner\'s flag change, and the run stops with the stale copy named.',
} as const;

/**
 * Exchanges `bytes` with the partner: the lower core id sends first (RCCE is synchronous);
 * `bothSend` (the deadlock bug): both send first.
 */
function* exchange(rcce: Rcce, me: number, other: number, sbuf: number, rbuf: number, bytes: number, bothSend = false): Sim<void> {
  if (me < other || bothSend) {
    yield* rcce.send(sbuf, bytes, other);
    yield* rcce.recv(rbuf, bytes, other);
  } else {
    yield* rcce.recv(rbuf, bytes, other);
    yield* rcce.send(sbuf, bytes, other);
  }
}

const rowA = new Float64Array(34);
const rowB = new Float64Array(32);
const rowAU8 = new Uint8Array(rowA.buffer);
const rowBU8 = new Uint8Array(rowB.buffer);

/** One stencil sweep b[i] = (a[i-1] + a[i] + a[i+1]) / 3 over `n` doubles (real loads, flops, stores). */
function* stencilSweep(core: SccCore, a: number, b: number, n: number): Sim<void> {
  for (let i = 1; i < n - 1; i += 32) {
    const k = Math.min(32, n - 1 - i);
    core.readRange(a + (i - 1) * 8, (k + 2) * 8, rowAU8);
    for (let j = 0; j < k; j++) rowB[j] = (rowA[j]! + rowA[j + 1]! + rowA[j + 2]!) / 3;
    core.compute(k * 3 * STENCIL_FLOP_CYCLES);
    core.writeRange(b + i * 8, k * 8, rowBU8);
    if (core.due()) yield DUE;
  }
}

export const rccePair: WorkloadDef<P> = {
  name: 'rcce-pair',
  title: 'RCCE pair benchmarks: hops and pairs',
  chart: { x: 'hops', y: 'timeNs', series: 'benchmark' },
  description:
    'Share, Shift, Stencil or Pingpong on core pairs at 0..8 hops, 1..24 pairs at once: time grows with hops, Share saturates memory, power follows activity.',
  params: Params,
  bugs: RCCE_PAIR_BUGS,
  participants: (p, chip) => {
    checkRcceChip(chip);
    return pairList(p, chip).flat();
  },
  *program(core: SccCore, p: P, ctx) {
    const chip = core.chip;
    const list = pairList(p, chip);
    const pi = list.findIndex(([a, b]) => a === core.id || b === core.id);
    const [a, b] = list[pi]!;
    const first = core.id === a;
    const other = first ? b : a;
    const rcce = new Rcce(core, ctx.participants, { skipCl1invmb: p.bug === 'skip-cl1invmb' });
    const bothSend = p.bug === 'deadlock';
    const base = core.privateBase;
    const n = rounds(p);
    const msg = base + BUF_MSG;
    const inbuf = base + BUF_IN;

    // ---- set-up (untimed): buffers in L2, shared page mapped uncached
    let shared = 0;
    if (p.benchmark === 'share') {
      const ctrl = chip.nearestController[a]!;
      shared = sharedAddrOnController(chip, ctrl) + (pi % 64) * 2 * p.shareBytes * 2;
      mapUncached(core, shared);
    } else if (p.benchmark === 'stencil') {
      yield* fillPattern(core, base + BUF_A, p.stencilPoints * 8, 0);
      yield* touch(core, base + BUF_A, p.stencilPoints * 8);
      yield* touch(core, base + BUF_B, p.stencilPoints * 8);
      yield* touch(core, inbuf, 64);
    } else {
      const max = p.benchmark === 'pingpong' ? PINGPONG_SIZES[PINGPONG_SIZES.length - 1] : 128;
      yield* fillPattern(core, msg, max, core.id);
      yield* touch(core, msg, max);
      yield* touch(core, inbuf, max);
    }

    // one untimed warm-up pass (every pingpong size once), then the timed rounds
    const warm = p.benchmark === 'pingpong' ? PINGPONG_SIZES.length : 1;
    let t0 = 0;
    let busy0 = 0;
    let meter: ActivityMeter | null = null;
    for (let r = -warm; r < n; r++) {
      if (r === 0) {
        yield* core.barrier();
        t0 = core.now;
        busy0 = busyPs(core);
        meter = new ActivityMeter(core);
      }
      switch (p.benchmark) {
        case 'share': {
          const mine = shared + (first ? 0 : p.shareBytes);
          const theirs = shared + (first ? p.shareBytes : 0);
          for (let o = 0; o < p.shareBytes; o += 32) {
            core.writeRange(mine + o, Math.min(32, p.shareBytes - o), (r + core.id) & 0xff);
            if (core.due()) yield DUE;
          }
          yield* exchange(rcce, core.id, other, msg, inbuf, 8, bothSend);
          yield* touch(core, theirs, p.shareBytes);
          yield* exchange(rcce, core.id, other, msg, inbuf, 8, bothSend);
          break;
        }
        case 'shift':
          yield* exchange(rcce, core.id, other, msg, inbuf, 128, bothSend);
          break;
        case 'stencil': {
          const [src, dst] = (r + warm) % 2 === 0 ? [base + BUF_A, base + BUF_B] : [base + BUF_B, base + BUF_A];
          yield* stencilSweep(core, src, dst, p.stencilPoints);
          // halo: my last 64 B to the partner, theirs into the halo buffer
          yield* exchange(rcce, core.id, other, dst + (p.stencilPoints - 8) * 8, inbuf, 64, bothSend);
          break;
        }
        case 'pingpong': {
          const size = PINGPONG_SIZES[(r + warm) % PINGPONG_SIZES.length]!;
          if (first || bothSend) {
            yield* rcce.send(msg, size, other);
            yield* rcce.recv(inbuf, size, other);
          } else {
            yield* rcce.recv(inbuf, size, other);
            yield* rcce.send(inbuf, size, other);
          }
          break;
        }
      }
      if (core.due()) yield DUE;
    }
    const timeNs = (core.now - t0) / 1000;
    const busyNs = (busyPs(core) - busy0) / 1000;
    const activity = meter!.fields();
    if (p.benchmark === 'pingpong' && first) {
      // the last message came back unchanged
      const last = PINGPONG_SIZES[(n - 1 + warm) % PINGPONG_SIZES.length]!;
      const bad = yield* checkPattern(core, inbuf, last, core.id);
      if (bad >= 0) throw new Error(`pingpong: byte ${bad} of the returned message is wrong`);
    }
    core.report({ pair: pi, a, b, first, startNs: t0 / 1000, timeNs, busyNs, ...activity });
  },
  summarize(rows: Row[], p: P, _chip, sim, series): Row[] {
    // chip power over the timed rounds, from the engine's power samples
    const from = Math.min(...rows.map((r) => r.startNs as number));
    const to = Math.max(...rows.map((r) => (r.startNs as number) + (r.timeNs as number)));
    const powerW = windowPowerW(series, from, to);
    // a run stopped early (a time limit, the scrub timeline's replay) reports only the pairs
    // whose both cores finished their rounds
    return rows
      .filter((row) => row.first === true && rows.some((x) => x.pair === row.pair && x.first === false))
      .map((row) => {
        const a = row.a as number;
        const b = row.b as number;
        const second = rows.find((x) => x.pair === row.pair && x.first === false)!;
        return {
          benchmark: p.benchmark,
          hops: p.hops,
          pairs: p.pairs,
          pair: row.pair as number,
          cores: `${a}-${b}`,
          timeNs: row.timeNs as number,
          busyRatio: ((row.busyNs as number) + (second.busyNs as number)) / Math.max((row.timeNs as number) + (second.timeNs as number), 1e-9),
          messages: sim.messageMatrix.messages[a]![b]! + sim.messageMatrix.messages[b]![a]!,
          bytes: sim.messageMatrix.bytes[a]![b]! + sim.messageMatrix.bytes[b]![a]!,
          powerW,
          chipPowerW: sim.chip.avgPowerW,
          // the RCCE study's counters over the pair's two cores (paper 003 lines 2831-2876):
          // instructions over wall-clock core cycles, and RCCE put/get calls per instruction
          ipc: (sim.cores[a]!.instructions + sim.cores[b]!.instructions) / Math.max(sim.cores[a]!.cycles + sim.cores[b]!.cycles, 1),
          messagesPerInstruction: (sim.cores[a]!.loggedMessages + sim.cores[b]!.loggedMessages) / Math.max(sim.cores[a]!.instructions + sim.cores[b]!.instructions, 1),
        };
      })
      .sort((x, y) => x.pair - y.pair);
  },
};
