/**
 * mpi-sweep: SKaMPI-style latency of an MPI operation over message sizes on RCKMPI, with the
 * original or the improved MPB channel (scc.md section 3).
 *
 * Ranks are cores 0..processes-1. For every size: buffers are filled with a per-rank pattern,
 * the operation runs `warmup` times untimed, then `iterations` times, each started right after
 * an (ideal, zero-cost) harness barrier so every rank starts at the same instant; the latency
 * of one run is the time until the LAST rank has finished it. After the timed runs every rank
 * checks the bytes it received.
 *
 * Rows {op, processes, channel, bytes, latencyNs, sectionReads, packets}: latency averaged
 * over the timed runs; sectionReads = section metadata reads per rank per run (the polling
 * work), packets = packets sent per rank per run.
 * Ops: sendrecv (ring: send to rank+1, receive from rank-1), bcast, gather, scatter (root 0;
 * bytes = per-rank block), barrier (one row, bytes 0), reduce, allreduce (sum of bytes/8 doubles).
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, type SccCore, type Row, type Sim, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from './lib/limits';
import { checkPattern, fillPattern, touch } from './lib/mem';
import { IMP_MAX_PROCS, Mpi, ORIG_META, ORIG_USABLE, originalSectionBytes, type Channel } from './rckmpi/index';

/** Processes of the original channel whose sections still hold a 32 B line each. */
const ORIG_MAX_PROCS = Math.floor(ORIG_USABLE / 32);

export const MPI_OPS = ['sendrecv', 'bcast', 'gather', 'scatter', 'barrier', 'reduce', 'allreduce'] as const;
export type MpiOp = (typeof MPI_OPS)[number];

const MB = 1 << 20;
const SBUF = 16 * MB; // offsets into private memory
const RBUF = 96 * MB;
const SCRATCH = 192 * MB;
const SCRATCH_BYTES = 256 * MB;

const Params = z.strictObject({
  op: z.enum(MPI_OPS).default('sendrecv').describe('MPI operation'),
  processes: z.number().int().min(2).max(MAX_CORES).default(48).describe('MPI processes (cores 0..processes-1)'),
  channel: z.enum(['original', 'improved']).default('improved').describe('MPB channel layout'),
  minBytes: z.number().int().min(1).max(1 << 20).default(1).describe('smallest message, bytes (sizes are powers of two)'),
  maxBytes: z.number().int().min(1).max(1 << 20).default(65536).describe('largest message, bytes'),
  sizes: z
    .union([z.string(), z.number()])
    .default('')
    .describe('comma-separated sizes in bytes; when set, replaces minBytes..maxBytes'),
  iterations: z.number().int().min(1).max(1000).default(2).describe('timed runs per size'),
  warmup: z.number().int().min(0).max(100).default(1).describe('untimed runs per size first'),
  verify: z.boolean().default(true).describe('check every received byte after the timed runs'),
});
type P = z.infer<typeof Params>;

export function sweepSizes(p: Pick<P, 'op' | 'minBytes' | 'maxBytes' | 'sizes'>): number[] {
  if (p.op === 'barrier') return [0];
  let sizes: number[];
  const list = String(p.sizes).trim();
  if (list !== '') {
    sizes = list.split(',').map((s) => Number(s.trim()));
    if (sizes.some((s) => !Number.isInteger(s) || s < 0 || s > 1 << 20))
      throw new WorkloadParamError(`sizes: expected comma-separated integers 0..1048576, got "${list}"`, 'sizes', 'comma-separated whole numbers of bytes, 0..1048576');
  } else {
    if (p.minBytes > p.maxBytes) throw new WorkloadParamError(`minBytes ${p.minBytes} is above maxBytes ${p.maxBytes}`, 'minBytes', `at most maxBytes (${p.maxBytes} bytes)`);
    sizes = [];
    for (let b = 1; b <= p.maxBytes; b *= 2) if (b >= p.minBytes) sizes.push(b);
    if (sizes.length === 0) sizes.push(p.maxBytes);
  }
  if (p.op === 'reduce' || p.op === 'allreduce') sizes = sizes.map((b) => Math.max(8, Math.ceil(b / 8) * 8));
  return [...new Set(sizes)];
}

const f64 = new Float64Array(256);
const f64u8 = new Uint8Array(f64.buffer);

function* fillDoubles(core: SccCore, addr: number, count: number, rank: number): Sim<void> {
  for (let i = 0; i < count; i += 256) {
    const k = Math.min(256, count - i);
    for (let j = 0; j < k; j++) f64[j] = rank + ((i + j) % 7);
    core.writeRange(addr + i * 8, k * 8, f64u8);
    if (core.due()) yield DUE;
  }
}

function* checkDoubles(core: SccCore, addr: number, count: number, n: number): Sim<number> {
  for (let i = 0; i < count; i += 256) {
    const k = Math.min(256, count - i);
    core.readRange(addr + i * 8, k * 8, f64u8);
    for (let j = 0; j < k; j++) if (f64[j] !== (n * (n - 1)) / 2 + n * ((i + j) % 7)) return i + j;
    if (core.due()) yield DUE;
  }
  return -1;
}

/** Pattern seed of rank r's data for size index si. */
const seedOf = (r: number, si: number) => r * 64 + si;

function* prepare(mpi: Mpi, op: MpiOp, bytes: number, si: number, sbuf: number, rbuf: number): Sim<void> {
  const { core, rank, size: n } = mpi;
  // the receive buffer is read once, as a benchmark's earlier use would: with no write-allocate
  // on the SCC a buffer that is only ever written never enters L2, and every received line
  // would be a DRAM write
  yield* touch(core, rbuf, op === 'gather' && rank === 0 ? n * bytes : bytes);
  if (op === 'reduce' || op === 'allreduce') yield* fillDoubles(core, sbuf, bytes / 8, rank);
  else if (op === 'scatter') {
    if (rank === 0) for (let r = 0; r < n; r++) yield* fillPattern(core, sbuf + r * bytes, bytes, seedOf(r, si));
  } else if (op === 'bcast') {
    if (rank === 0) yield* fillPattern(core, sbuf, bytes, seedOf(0, si));
  } else if (op !== 'barrier') yield* fillPattern(core, sbuf, bytes, seedOf(rank, si));
}

function* runOp(mpi: Mpi, op: MpiOp, bytes: number, sbuf: number, rbuf: number): Sim<void> {
  const { rank, size: n } = mpi;
  switch (op) {
    case 'sendrecv':
      return yield* mpi.sendrecv(sbuf, bytes, (rank + 1) % n, rbuf, bytes, (rank - 1 + n) % n, 0);
    case 'bcast':
      return yield* mpi.bcast(rank === 0 ? sbuf : rbuf, bytes, 0);
    case 'gather':
      return yield* mpi.gather(sbuf, rbuf, bytes, 0);
    case 'scatter':
      return yield* mpi.scatter(sbuf, rbuf, bytes, 0);
    case 'barrier':
      return yield* mpi.barrier();
    case 'reduce':
      return yield* mpi.reduce(sbuf, rbuf, bytes / 8, 0);
    case 'allreduce':
      return yield* mpi.allreduce(sbuf, rbuf, bytes / 8);
  }
}

function* verify(mpi: Mpi, op: MpiOp, bytes: number, si: number, rbuf: number): Sim<string | null> {
  const { core, rank, size: n } = mpi;
  let bad = -1;
  switch (op) {
    case 'sendrecv':
      bad = yield* checkPattern(core, rbuf, bytes, seedOf((rank - 1 + n) % n, si));
      break;
    case 'bcast':
      if (rank !== 0) bad = yield* checkPattern(core, rbuf, bytes, seedOf(0, si));
      break;
    case 'gather':
      if (rank === 0)
        for (let r = 0; r < n && bad < 0; r++) {
          const b = yield* checkPattern(core, rbuf + r * bytes, bytes, seedOf(r, si));
          if (b >= 0) bad = r * bytes + b;
        }
      break;
    case 'scatter':
      bad = yield* checkPattern(core, rbuf, bytes, seedOf(rank, si));
      break;
    case 'reduce':
      if (rank === 0) bad = yield* checkDoubles(core, rbuf, bytes / 8, n);
      break;
    case 'allreduce':
      bad = yield* checkDoubles(core, rbuf, bytes / 8, n);
      break;
    case 'barrier':
      break;
  }
  return bad >= 0 ? `${op} ${bytes} B: rank ${rank} received a wrong byte at offset ${bad}` : null;
}

export const mpiSweep: WorkloadDef<P> = {
  name: 'mpi-sweep',
  title: 'RCKMPI latency vs message size',
  chart: { x: 'bytes', y: 'latencyNs', series: 'channel', logX: true, logY: true },
  description:
    'SKaMPI-style latency of Sendrecv, Bcast, Gather, Scatter or Barrier over message sizes, on the original or the improved MPB channel of RCKMPI.',
  params: Params,
  participants: (p, chip) => {
    if (p.processes > chip.topo.cores) throw overLimit('processes', p.processes, chip.topo.cores, `${chipHasCores(chip)} (one per process)`);
    if (p.channel === 'improved' && p.processes > IMP_MAX_PROCS)
      throw overLimit('processes', p.processes, IMP_MAX_PROCS, `the improved channel has ${IMP_MAX_PROCS} base sections (one per process)`);
    if (p.channel === 'original' && originalSectionBytes(p.processes) <= ORIG_META)
      throw overLimit('processes', p.processes, ORIG_MAX_PROCS, `the original channel's sections would hold no payload`);
    sweepSizes(p);
    return Array.from({ length: p.processes }, (_, i) => i);
  },
  coresParam: { name: 'processes' },
  *program(core: SccCore, p: P, ctx) {
    const base = core.privateBase;
    const mpi = new Mpi(core, ctx.participants, p.channel as Channel, { base: base + SCRATCH, bytes: SCRATCH_BYTES });
    const sbuf = base + SBUF;
    const rbuf = base + RBUF;
    const sizes = sweepSizes(p);
    for (let si = 0; si < sizes.length; si++) {
      const bytes = sizes[si]!;
      yield* prepare(mpi, p.op, bytes, si, sbuf, rbuf);
      for (let w = 0; w < p.warmup; w++) {
        yield* core.barrier();
        yield* runOp(mpi, p.op, bytes, sbuf, rbuf);
      }
      const reads0 = mpi.stats.sectionReads;
      const packets0 = mpi.stats.packetsOut;
      for (let it = 0; it < p.iterations; it++) {
        yield* core.barrier();
        const t0 = core.now;
        yield* runOp(mpi, p.op, bytes, sbuf, rbuf);
        core.report({ bytes, it, rank: mpi.rank, ns: (core.now - t0) / 1000 });
      }
      core.report({
        bytes,
        it: -1,
        rank: mpi.rank,
        sectionReads: (mpi.stats.sectionReads - reads0) / p.iterations,
        packets: (mpi.stats.packetsOut - packets0) / p.iterations,
      });
      yield* core.barrier();
      if (p.verify) {
        const err = yield* verify(mpi, p.op, bytes, si, rbuf);
        if (err) throw new Error(err);
      }
    }
  },
  summarize(rows: Row[], p: P): Row[] {
    const out: Row[] = [];
    for (const bytes of sweepSizes(p)) {
      const mine = rows.filter((r) => r.bytes === bytes);
      let total = 0;
      for (let it = 0; it < p.iterations; it++) total += Math.max(...mine.filter((r) => r.it === it).map((r) => r.ns as number));
      const stats = mine.filter((r) => r.it === -1);
      const mean = (k: string) => stats.reduce((a, r) => a + (r[k] as number), 0) / Math.max(stats.length, 1);
      out.push({
        op: p.op,
        processes: p.processes,
        channel: p.channel,
        bytes,
        latencyNs: total / p.iterations,
        sectionReads: mean('sectionReads'),
        packets: mean('packets'),
      });
    }
    return out;
  },
};
