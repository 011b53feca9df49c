/**
 * Reproductions of the RCCE performance and power study (paper 003 lines 2687-3252): pair time
 * against hops, pairs running at once, chip power against active cores, and the broadcast
 * (IPC and messages per instruction against receivers).
 */
import type { ExperimentInput, Row } from '@manycore/engine';
import { cell, fmt, ratioOf, rowsOf, valueOf } from './cells';
import type { Cell, Check, Reproduction } from './types';
import { linearFit } from '../lib/fit';

function exp(workload: string, params: Record<string, number | string>): ExperimentInput {
  return { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: workload, params } };
}

const HOPS = [0, 1, 2, 3, 8];

export { linearFit };

// ---- pair time and IPC against hops (lines 3091-3101)

export const rccePairHops: Reproduction = {
  id: 'rcce-pair-hops',
  title: 'RCCE study: Stencil and Pingpong pair time against hops (0, 1, 2, 3, 8)',
  source: 'paper 003 lines 2969-2983 (pairs), 3091-3101 (results, Figs. 6-7); scc.md section 6',
  kind: 'mechanistic',
  experiments: (['stencil', 'pingpong'] as const).flatMap((benchmark) => HOPS.map((hops) => exp('rcce-pair', { benchmark, hops }))),
  evaluate(runs) {
    const checks: Check[] = [];
    for (const benchmark of ['stencil', 'pingpong']) {
      const t = HOPS.map((hops) => valueOf(runs, 'rcce-pair', { benchmark, hops }, 'timeNs'));
      const ipc = HOPS.map((hops) => valueOf(runs, 'rcce-pair', { benchmark, hops }, 'ipc'));
      const ok = t.every((v) => v !== null);
      const fit = ok ? linearFit(HOPS.slice(1), t.slice(1) as number[]) : null;
      checks.push({
        label: `${benchmark}: time rises linearly with hops from 1 to 8 (slope > 0, R^2 >= 0.95)`,
        pass: fit !== null && fit.slope > 0 && fit.r2 >= 0.95,
        lab: `time at 0, 1, 2, 3, 8 hops: ${t.map((v) => fmt(v === null ? null : v / 1000)).join(', ')} us; slope ${fmt(fit ? fit.slope / 1000 : null)} us/hop, R^2 ${fmt(fit?.r2 ?? null)}`,
        paper: 'time rises linearly with the hop count (lines 3091-3101; the figure\'s values are not legible in the OCR)',
      });
      if (ipc.every((v) => v !== null))
        checks.push({
          label: `${benchmark}: IPC falls as the hops grow (1 -> 8)`,
          pass: (ipc[4] as number) < (ipc[1] as number),
          lab: `IPC at 0, 1, 2, 3, 8 hops: ${ipc.map((v) => fmt(v)).join(', ')}`,
          paper: 'IPC falls accordingly (lines 3091-3101)',
        });
    }
    return { cells: [], checks };
  },
  mechanism:
    'Every remote MPB access (the partner\'s flags under the test-and-set lock, pulling its chunk) pays 2 x 4 mesh cycles per hop; at 0 hops the MPB is on the same tile. IPC does not fall with hops in the lab: the longer waits are spent polling a local flag, and a polling core executes its poll loop (4 instructions per read of a local MPB line, about 15 cycles), at an IPC close to the benchmarks\' own; on the chip the measured IPC fell, so its waiting ran at a lower IPC than the lab\'s poll loop (a P54C stalled on an uncached read, or on code misses, which the lab does not model).',
};

// ---- Table I: IPC of two neighbouring cores (lines 2987-3009)

export const RCCE_TABLE_1: { benchmark: string; ipc: number; messagesPer100M: number }[] = [
  { benchmark: 'share', ipc: 0.0558, messagesPer100M: 871 },
  { benchmark: 'shift', ipc: 0.241, messagesPer100M: 147904 },
  { benchmark: 'stencil', ipc: 0.3393, messagesPer100M: 23283 },
  { benchmark: 'pingpong', ipc: 0.0888, messagesPer100M: 68407 },
];

export const rcceTable1: Reproduction = {
  id: 'rcce-table-1',
  title: 'RCCE study, Table I: IPC and messages of two neighbouring cores',
  source: 'paper 003 lines 2987-3009 (Table I: per 100 M instructions, 533/800/800)',
  kind: 'empirical',
  experiments: RCCE_TABLE_1.map((b) => exp('rcce-pair', { benchmark: b.benchmark, hops: 1 })),
  evaluate(runs) {
    const cells: Cell[] = [];
    for (const b of RCCE_TABLE_1) {
      cells.push(cell(`${b.benchmark}: IPC`, b.ipc, valueOf(runs, 'rcce-pair', { benchmark: b.benchmark, hops: 1 }, 'ipc'), 'instr/cycle'));
      const mpi = valueOf(runs, 'rcce-pair', { benchmark: b.benchmark, hops: 1 }, 'messagesPerInstruction');
      cells.push(cell(`${b.benchmark}: messages per 100 M instructions`, b.messagesPer100M, mpi === null ? null : mpi * 1e8, 'messages'));
    }
    const order = (key: 'ipc') => [...RCCE_TABLE_1].sort((a, b) => a[key] - b[key]).map((b) => b.benchmark);
    const labIpc = RCCE_TABLE_1.map((b) => ({ benchmark: b.benchmark, ipc: valueOf(runs, 'rcce-pair', { benchmark: b.benchmark, hops: 1 }, 'ipc') }));
    const labOrder = labIpc.every((x) => x.ipc !== null) ? [...labIpc].sort((a, b) => (a.ipc as number) - (b.ipc as number)).map((x) => x.benchmark) : [];
    const checks: Check[] = [
      {
        label: 'IPC ranks the benchmarks as the paper does (lowest to highest)',
        pass: labOrder.join() === order('ipc').join(),
        lab: labOrder.join(' < ') || 'n/a',
        paper: order('ipc').join(' < '),
      },
    ];
    return { cells, checks };
  },
  mechanism:
    'IPC ranks the four benchmarks as on the chip, but the lab\'s values are 1.4-3.3x higher: compute blocks declare one instruction per cycle by default (the P54C\'s pairing, dependencies and code misses are not modelled; no instruction-cache model, so the study\'s L1 code-miss event has no counter), and a core spinning on a flag counts its poll loop. Messages are RCCE_put/RCCE_get calls; the lab\'s Share pair exchanges an 8 B RCCE token twice per round between writing and reading 2 KB of uncached DRAM (its rounds are short), so it logs about a million calls per 100 M instructions where the paper lists 871 (and calls Share message-free, line 2954): the study\'s Share code is not described beyond that.',
};

// ---- pairs at once (lines 3105-3135)

const PAIRS = [1, 6, 24];

export const rccePairScaling: Reproduction = {
  id: 'rcce-pair-scaling',
  title: 'RCCE study: 1 to 24 pairs at once (mesh vs memory)',
  source: 'paper 003 lines 3105-3135; scc.md section 6',
  kind: 'mechanistic',
  experiments: (['share', 'shift', 'stencil'] as const).flatMap((benchmark) => PAIRS.map((pairs) => exp('rcce-pair', { benchmark, pairs }))),
  evaluate(runs) {
    const worst = (benchmark: string, pairs: number) => {
      const rows = rowsOf(runs, 'rcce-pair', { benchmark, pairs });
      return rows.length ? Math.max(...rows.map((r: Row) => r.timeNs as number)) : null;
    };
    const slow = (b: string) => ratioOf(worst(b, 24), worst(b, 1));
    const checks: Check[] = [
      ...['shift', 'stencil'].map((b) => ({
        label: `${b}: 24 pairs as fast as 1 (slowest pair within 10 %)`,
        pass: (slow(b) ?? Infinity) <= 1.1,
        lab: `T(24) / T(1) = ${fmt(slow(b))}`,
        paper: 'the pairs do not slow each other (lines 3105-3135)',
      })),
      {
        label: 'share: 24 pairs slow down strongly (at least 1.5x)',
        pass: (slow('share') ?? 0) >= 1.5,
        lab: `T(24) / T(1) = ${fmt(slow('share'))}`,
        paper: 'uncached DRAM traffic saturates the controllers (lines 3105-3135)',
      },
    ];
    return { cells: [], checks };
  },
  mechanism: 'Shift and Stencil use only their own tiles\' MPBs and the links between them; Share streams uncached DRAM, 12 cores per controller, and queues at the controllers.',
};

// ---- chip power (lines 3166-3200)

/** The paper's chip power at 533/800/800, W: one Share pair (46 cores idle in Linux), 24 Share pairs (48 active cores); lines 3190-3196. */
export const RCCE_POWER_W = { onePair: 31.616, allCores: 50.768 } as const;

export const rccePower: Reproduction = {
  id: 'rcce-power',
  title: 'RCCE study: chip power with 1 and 24 Share pairs; power ranks with IPC',
  source: 'paper 003 lines 3190-3196 (31.616 W, 50.768 W at 533/800/800); lines 3166-3200',
  kind: 'both',
  experiments: [exp('rcce-pair', { benchmark: 'share', pairs: 1 }), ...(['share', 'shift', 'stencil', 'pingpong'] as const).map((benchmark) => exp('rcce-pair', { benchmark, pairs: 24 }))],
  evaluate(runs) {
    const p = (benchmark: string, pairs: number) => valueOf(runs, 'rcce-pair', { benchmark, pairs }, 'powerW');
    const cells = [cell('Share, 1 pair (46 cores idle in Linux)', RCCE_POWER_W.onePair, p('share', 1), 'W'), cell('Share, 24 pairs (48 active cores)', RCCE_POWER_W.allCores, p('share', 24), 'W')];
    const at24 = ['share', 'shift', 'stencil', 'pingpong'].map((b) => ({ b, w: p(b, 24) }));
    const lowest = at24.every((x) => x.w !== null) ? at24.reduce((a, x) => ((x.w as number) < (a.w as number) ? x : a)).b : 'n/a';
    const stencil24 = p('stencil', 24);
    const checks: Check[] = [
      { label: 'one Share pair: within 10 % of 31.6 W', pass: cells[0]!.ratio !== null && Math.abs(cells[0]!.ratio - 1) <= 0.1, lab: `${fmt(p('share', 1))} W`, paper: '31.616 W (line 3192)' },
      {
        label: '48 active cores (24 Stencil pairs): within 10 % of 50.8 W',
        pass: stencil24 !== null && Math.abs(stencil24 / RCCE_POWER_W.allCores - 1) <= 0.1,
        lab: `${fmt(stencil24)} W`,
        paper: '50.768 W with 24 pairs (lines 3193-3194; the paper ran Share)',
      },
      { label: 'at 24 pairs Share draws the least power', pass: lowest === 'share', lab: at24.map((x) => `${x.b} ${fmt(x.w)} W`).join(', '), paper: 'Share lowest, Shift and Stencil highest (lines 3166-3200)' },
    ];
    return { cells, checks };
  },
  mechanism:
    'The power constants were calibrated to these two wattages (presets/scc.ts: dynamic C from 50.8 W with 48 busy cores, static power from 31.6 W), so the two cells test the activity model, not an independent prediction; the ranking follows from how much of its time each core stalls.',
};

// ---- broadcast (lines 3139-3162)

const RECEIVERS = [1, 2, 4, 8, 16, 32, 47];
/** receiver work between messages, instructions: the paper describes none (0); two what-ifs */
const WORK = [0, 20_000, 100_000];

export const rcceBcastStudy: Reproduction = {
  id: 'rcce-bcast',
  title: 'RCCE study: Bcast, IPC and messages per instruction against receivers',
  source: 'paper 003 lines 2939-2945, 3084-3088, 3139-3162; scc.md section 6',
  kind: 'empirical',
  experiments: WORK.flatMap((work) => RECEIVERS.map((receivers) => exp('rcce-bcast', { receivers, work }))),
  evaluate(runs) {
    const cells: Cell[] = [];
    const checks: Check[] = [];
    for (const work of WORK) {
      const ipc = RECEIVERS.map((n) => valueOf(runs, 'rcce-bcast', { receivers: n, work }, 'ipc'));
      const mpi = RECEIVERS.map((n) => valueOf(runs, 'rcce-bcast', { receivers: n, work }, 'messagesPerInstruction'));
      const known = ipc.every((v) => v !== null);
      const peakAt = known ? RECEIVERS[ipc.indexOf(Math.max(...(ipc as number[])))]! : null;
      const what = work === 0 ? 'no receiver work (the paper describes none)' : `receiver work ${work} instructions (what-if)`;
      cells.push(cell(`${what}: receivers at the IPC peak`, 8, peakAt, 'receivers'));
      checks.push({
        label: `${what}: IPC peaks at N = 8 receivers`,
        pass: peakAt === 8,
        lab: `IPC at N = ${RECEIVERS.join(', ')}: ${ipc.map((v) => fmt(v)).join(', ')}`,
        paper: 'IPC peaks at N = 8 (lines 3145-3162)',
      });
      checks.push({
        label: `${what}: messages per instruction rise with N`,
        pass: mpi.every((v) => v !== null) && (mpi[mpi.length - 1] as number) > (mpi[0] as number),
        lab: `at N = ${RECEIVERS.join(', ')}: ${mpi.map((v) => fmt(v)).join(', ')}`,
        paper: 'rise with N, a local inflection at N = 8 (lines 3145-3162)',
      });
    }
    return { cells, checks };
  },
  mechanism:
    'The lab implements hypothesis H1 (scc.md 6): blocking RCCE sends from the root to one receiver at a time, Pingpong\'s message mix. With no receiver work (the paper describes none) IPC falls monotonically from N = 1 toward the IPC of a core spinning on its flag, and messages per instruction fall as receivers add polling instructions: no peak. With work between messages a peak appears where the root becomes the bottleneck (N* = receiver time / root time per message): N = 4 at 20 000 instructions, N = 8 at 100 000. The peak is set by that ratio, not by a hardware constant; the paper does not say what its receivers did, so the N = 8 match at 100 000 is a what-if, not a reproduction.',
};
