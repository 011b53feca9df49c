/**
 * nbody-ring: the SICSA n-body ring of scc.md section 8. A controller core and p workers form a
 * ring (controller -> worker 1 -> ... -> worker p -> controller) and pass one message around:
 * a command letter (D advance, U update, S stop), a hop count and N bodies x 7 numbers
 * (position, velocity, mass). Each step is two trips around the ring:
 *   D: every member decodes the message, increments the hop count, encodes it and forwards it;
 *      then a worker computes the new velocity and position of its N/p bodies from the
 *      positions of all N (direct summation, real double arithmetic, semi-implicit Euler), so
 *      the workers compute in parallel while the message goes on;
 *   U: every member decodes the message, a worker writes its bodies' new state into it (once
 *      its computation is done), increments the hop count, encodes and forwards.
 * The controller starts each trip and checks the hop count when the message comes back; S
 * ends the workers. Messages travel with RCCE between private memories.
 *
 * Encoding (the ~65 KB of scc.md: 1024 bodies x 7 numbers of 9 characters): 'text' writes each
 * number as 9 characters, so every hop parses and prints all 7N numbers (PARSE_NUMBER_CYCLES,
 * FORMAT_NUMBER_CYCLES): the b N p term of t = a N^2 / p + b N p + c, paid once per ring member
 * per trip, while the a N^2 / p term (INTERACTION_CYCLES per pair) shrinks with p. 'binary'
 * sends raw doubles (56 B per body): only the RCCE copies remain per hop.
 * Costs are model values for a P54C with x87 (no SIMD): see the constants below.
 *
 * Rows {workers, bodies, steps, stepNs, encoding, messageBytes, correct}: stepNs is the mean
 * time of a step (both trips) at the controller. The final state is checked against a
 * single-core reference computed from the seed (same arithmetic, same encoding round trips).
 */
import { z } from 'zod';
import { DUE, type SccCore, type ResolvedChip, type Row, type Sim, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from './lib/limits';
import { checkRcceChip, Rcce } from './rcce/index';
import { stageCores } from './pipeline/plan';

/** One body-body interaction: 3 subtractions, 3 multiply-adds for r^2, FSQRT (70), FDIV (39), 3 multiply-adds (model, P54C x87). */
export const INTERACTION_CYCLES = 120;
/** Integrating one body: 6 multiply-adds and stores (model). */
export const INTEGRATE_CYCLES = 30;
/** Parsing one 9-character number (strtod-like: a multiply-add per digit, scaling; model). */
export const PARSE_NUMBER_CYCLES = 400;
/** Printing one number in 9 characters (printf-like: digit extraction by x87 arithmetic; model). */
export const FORMAT_NUMBER_CYCLES = 1200;
/** Copying one double in or out of a binary message (model). */
export const BINARY_NUMBER_CYCLES = 4;

export const HEADER_BYTES = 32;
export const FIELD_CHARS = 9;
export const FIELDS = 7;
const SOFTENING2 = 0.01;
const DT = 0.001;

const Params = z.strictObject({
  workers: z.number().int().min(1).max(MAX_CORES).default(4).describe('workers in the ring (p), besides the controller'),
  bodies: z.number().int().min(2).max(8192).default(1024).describe('bodies (N)'),
  steps: z.number().int().min(1).max(1000).default(3).describe('time steps'),
  encoding: z.enum(['text', 'binary']).default('text').describe('message numbers as 9-character text (parsed and printed at every hop) or raw doubles'),
});
type P = z.infer<typeof Params>;

export function messageBytes(p: Pick<P, 'bodies' | 'encoding'>): number {
  return HEADER_BYTES + p.bodies * FIELDS * (p.encoding === 'text' ? FIELD_CHARS : 8);
}

/** Ring members in order: the controller first, then the workers; consecutive members are neighbours on the mesh (snake order). */
export function ringCores(p: Pick<P, 'workers'>, chip: ResolvedChip): number[] {
  if (p.workers + 1 > chip.topo.cores) throw overLimit('workers', p.workers, chip.topo.cores - 1, `${chipHasCores(chip)} and the controller takes one`);
  return stageCores(chip, p.workers + 1, 'snake');
}

/** Bodies [from, to) of worker w (1-based). */
export function workerBodies(w: number, workers: number, bodies: number): [number, number] {
  return [Math.floor(((w - 1) * bodies) / workers), Math.floor((w * bodies) / workers)];
}

// ------------------------------------------------------------------ state, arithmetic, encoding

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Initial state from the seed: positions in [-1, 1)^3, velocities in [-0.05, 0.05)^3, mass 1/N each. */
export function initialState(seed: number, bodies: number): Float64Array {
  const s = new Float64Array(bodies * FIELDS);
  let k = 0;
  const u = () => mix32(mix32(seed ^ 0x6b6f6479) + Math.imul(++k, 0x9e3779b1)) / 4294967296;
  for (let i = 0; i < bodies; i++) {
    for (let d = 0; d < 3; d++) s[i * FIELDS + d] = u() * 2 - 1;
    for (let d = 3; d < 6; d++) s[i * FIELDS + d] = (u() * 2 - 1) * 0.05;
    s[i * FIELDS + 6] = 1 / bodies;
  }
  return s;
}

/** The 9-character text of a number: sign, then as many decimals as fit (exponent form when nothing fits). */
export function formatNumber(x: number): string {
  const sign = x < 0 ? '-' : ' ';
  const a = Math.abs(x);
  for (let d = 6; d >= 0; d--) {
    const t = a.toFixed(d);
    if (t.length <= FIELD_CHARS - 1) return sign + t.padStart(FIELD_CHARS - 1);
  }
  return (sign + a.toExponential(2)).padStart(FIELD_CHARS).slice(0, FIELD_CHARS);
}

/** New velocity and position of bodies [from, to) after one step, from the state s (all N bodies). */
export function advance(s: Float64Array, bodies: number, from: number, to: number, out: Float64Array): void {
  for (let i = from; i < to; i++) {
    const bi = i * FIELDS;
    const xi = s[bi]!;
    const yi = s[bi + 1]!;
    const zi = s[bi + 2]!;
    let ax = 0;
    let ay = 0;
    let az = 0;
    for (let j = 0; j < bodies; j++) {
      if (j === i) continue;
      const bj = j * FIELDS;
      const dx = s[bj]! - xi;
      const dy = s[bj + 1]! - yi;
      const dz = s[bj + 2]! - zi;
      const r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
      const inv = s[bj + 6]! / (r2 * Math.sqrt(r2));
      ax += dx * inv;
      ay += dy * inv;
      az += dz * inv;
    }
    const vx = s[bi + 3]! + ax * DT;
    const vy = s[bi + 4]! + ay * DT;
    const vz = s[bi + 5]! + az * DT;
    const o = (i - from) * FIELDS;
    out[o] = xi + vx * DT;
    out[o + 1] = yi + vy * DT;
    out[o + 2] = zi + vz * DT;
    out[o + 3] = vx;
    out[o + 4] = vy;
    out[o + 5] = vz;
    out[o + 6] = s[bi + 6]!;
  }
}

/** Encodes the state into the body section of a message (text or binary). */
export function encodeBodies(s: Float64Array, encoding: P['encoding'], dst: Uint8Array, off = 0): void {
  if (encoding === 'binary') {
    new Uint8Array(s.buffer, s.byteOffset, s.byteLength).forEach((b, i) => (dst[off + i] = b));
    return;
  }
  let o = off;
  for (let k = 0; k < s.length; k++) {
    const t = formatNumber(s[k]!);
    for (let c = 0; c < FIELD_CHARS; c++) dst[o + c] = t.charCodeAt(c);
    o += FIELD_CHARS;
  }
}

/** Decodes the body section of a message into s. */
export function decodeBodies(src: Uint8Array, encoding: P['encoding'], s: Float64Array, off = 0): void {
  if (encoding === 'binary') {
    const dv = new DataView(src.buffer, src.byteOffset + off, s.length * 8);
    for (let k = 0; k < s.length; k++) s[k] = dv.getFloat64(k * 8, true);
    return;
  }
  let o = off;
  for (let k = 0; k < s.length; k++) {
    s[k] = parseFloat(String.fromCharCode(...src.subarray(o, o + FIELD_CHARS)));
    o += FIELD_CHARS;
  }
}

/** FNV-1a over bytes, as 8 hex digits. */
export function digest(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The single-core reference: the body section of the final message (same arithmetic and round trips). */
export function referenceBodies(seed: number, p: Pick<P, 'bodies' | 'steps' | 'encoding'>): Uint8Array {
  const n = p.bodies;
  const buf = new Uint8Array(messageBytes(p) - HEADER_BYTES);
  let s = initialState(seed, n);
  encodeBodies(s, p.encoding, buf);
  s = new Float64Array(n * FIELDS);
  decodeBodies(buf, p.encoding, s);
  const next = new Float64Array(n * FIELDS);
  for (let step = 0; step < p.steps; step++) {
    advance(s, n, 0, n, next);
    encodeBodies(next, p.encoding, buf);
    decodeBodies(buf, p.encoding, s);
  }
  return buf;
}

// ------------------------------------------------------------------ the ring

const KB = 1024;
const MB = 1024 * KB;
const MSG_IN = 1 * MB;
const MSG_OUT = 2 * MB;
const NEW_STATE = 4 * MB;
const STEP_BYTES = 64;

/** Reads bytes.length bytes at addr into bytes, yielding when the epoch is over. */
function* readBytes(core: SccCore, addr: number, bytes: Uint8Array): Sim<void> {
  for (let o = 0; o < bytes.length; o += STEP_BYTES) {
    core.readRange(addr + o, Math.min(STEP_BYTES, bytes.length - o), bytes, o);
    if (core.due()) yield DUE;
  }
}

/** Writes bytes at addr, yielding when the epoch is over. */
function* writeBytes(core: SccCore, addr: number, bytes: Uint8Array): Sim<void> {
  for (let o = 0; o < bytes.length; o += STEP_BYTES) {
    core.writeRange(addr + o, Math.min(STEP_BYTES, bytes.length - o), bytes, o);
    if (core.due()) yield DUE;
  }
}

const CMD_ADVANCE = 'D'.charCodeAt(0);
const CMD_UPDATE = 'U'.charCodeAt(0);
const CMD_STOP = 'S'.charCodeAt(0);

/** One ring member's message handling: decode from private memory, encode into private memory. */
class Member {
  readonly buf: Uint8Array;
  readonly state: Float64Array;
  constructor(
    readonly core: SccCore,
    readonly p: P,
  ) {
    this.buf = new Uint8Array(messageBytes(p));
    this.state = new Float64Array(p.bodies * FIELDS);
  }

  private get perNumber(): [number, number] {
    return this.p.encoding === 'text' ? [PARSE_NUMBER_CYCLES, FORMAT_NUMBER_CYCLES] : [BINARY_NUMBER_CYCLES, BINARY_NUMBER_CYCLES];
  }

  /** Reads the message at addr (header and all bodies) into buf and state; returns [command, hops]. */
  *decode(addr: number): Sim<[number, number]> {
    const core = this.core;
    yield* readBytes(core, addr, this.buf);
    decodeBodies(this.buf, this.p.encoding, this.state, HEADER_BYTES);
    const numbers = this.p.bodies * FIELDS;
    for (let k = 0; k < numbers; k += 256) {
      core.compute(Math.min(256, numbers - k) * this.perNumber[0]);
      if (core.due()) yield DUE;
    }
    const hops = this.p.encoding === 'text' ? Number(String.fromCharCode(...this.buf.subarray(1, 9))) : new DataView(this.buf.buffer).getUint32(4, true);
    return [this.buf[0]!, hops];
  }

  /** Writes command, hop count and the state as a message at addr. */
  *encode(addr: number, cmd: number, hops: number): Sim<void> {
    const core = this.core;
    this.buf.fill(32, 0, HEADER_BYTES);
    this.buf[0] = cmd;
    if (this.p.encoding === 'text') {
      const t = String(hops).padStart(8, '0');
      for (let c = 0; c < 8; c++) this.buf[1 + c] = t.charCodeAt(c);
    } else new DataView(this.buf.buffer).setUint32(4, hops, true);
    encodeBodies(this.state, this.p.encoding, this.buf, HEADER_BYTES);
    const numbers = this.p.bodies * FIELDS;
    for (let k = 0; k < numbers; k += 256) {
      core.compute(Math.min(256, numbers - k) * this.perNumber[1]);
      if (core.due()) yield DUE;
    }
    yield* writeBytes(core, addr, this.buf);
  }
}

export const nbodyRing: WorkloadDef<P> = {
  name: 'nbody-ring',
  title: 'SICSA n-body: a ring of workers',
  chart: { x: 'workers', y: 'stepNs', series: 'encoding' },
  description:
    'A controller and p workers pass one message of N bodies x 7 numbers around a ring (advance, update, stop); every hop decodes and encodes it, the workers integrate N/p bodies each. Step time is lowest at 2-3 workers.',
  params: Params,
  participants: (p, chip) => {
    checkRcceChip(chip);
    return ringCores(p, chip);
  },
  coresParam: { name: 'workers', extraCores: 1 },
  *program(core: SccCore, p: P, ctx) {
    const ring = ringCores(p, core.chip);
    const me = ring.indexOf(core.id);
    const prev = ring[(me + ring.length - 1) % ring.length]!;
    const next = ring[(me + 1) % ring.length]!;
    const rcce = new Rcce(core, ctx.participants);
    const member = new Member(core, p);
    const bytes = messageBytes(p);
    const base = core.privateBase;
    const members = p.workers + 1;

    if (me === 0) {
      // ---- the controller
      // the state as a message carries it
      encodeBodies(initialState(ctx.seed, p.bodies), p.encoding, member.buf, HEADER_BYTES);
      decodeBodies(member.buf, p.encoding, member.state, HEADER_BYTES);
      yield* core.barrier();
      const t0 = core.now;
      for (let step = 0; step <= p.steps; step++) {
        const trips = step === p.steps ? [CMD_STOP] : [CMD_ADVANCE, CMD_UPDATE];
        for (const cmd of trips) {
          yield* member.encode(base + MSG_OUT, cmd, 0);
          yield* rcce.send(base + MSG_OUT, bytes, next);
          yield* rcce.recv(base + MSG_IN, bytes, prev);
          const [got, hops] = yield* member.decode(base + MSG_IN);
          if (got !== cmd || hops !== members - 1) throw new Error(`nbody-ring: message came back as ${String.fromCharCode(got)} after ${hops} hops`);
        }
        if (step === p.steps - 1) {
          const timeNs = (core.now - t0) / 1000;
          core.report({ workers: p.workers, bodies: p.bodies, steps: p.steps, timeNs, seed: ctx.seed, final: digest(member.buf.subarray(HEADER_BYTES)) });
        }
      }
      return;
    }

    // ---- a worker
    const [from, to] = workerBodies(me, p.workers, p.bodies);
    const mine = new Float64Array((to - from) * FIELDS);
    const mineBytes = new Uint8Array(mine.buffer);
    yield* core.barrier();
    for (;;) {
      yield* rcce.recv(base + MSG_IN, bytes, prev);
      const [cmd, hops] = yield* member.decode(base + MSG_IN);
      if (cmd === CMD_UPDATE) {
        // my bodies' new state (computed after the advance trip) goes into the message
        yield* readBytes(core, base + NEW_STATE, mineBytes);
        member.state.set(mine, from * FIELDS);
      }
      yield* member.encode(base + MSG_OUT, cmd, hops + 1);
      yield* rcce.send(base + MSG_OUT, bytes, next);
      if (cmd === CMD_STOP) return;
      if (cmd === CMD_ADVANCE) {
        for (let i = from; i < to; i += 8) {
          const k = Math.min(8, to - i);
          advance(member.state, p.bodies, i, i + k, mine.subarray((i - from) * FIELDS));
          core.compute(k * ((p.bodies - 1) * INTERACTION_CYCLES + INTEGRATE_CYCLES));
          if (core.due()) yield DUE;
        }
        yield* writeBytes(core, base + NEW_STATE, mineBytes);
      }
    }
  },
  summarize(rows: Row[], p: P): Row[] {
    const r = rows[0]!;
    const ref = digest(referenceBodies(r.seed as number, p));
    return [
      {
        workers: p.workers,
        bodies: p.bodies,
        steps: p.steps,
        stepNs: (r.timeNs as number) / p.steps,
        encoding: p.encoding,
        messageBytes: messageBytes(p),
        correct: r.final === ref,
      },
    ];
  },
  extra(rows: Row[], p: P) {
    const r = rows[0]!;
    const ref = digest(referenceBodies(r.seed as number, p));
    return { correct: r.final === ref, finalDigest: r.final as string, referenceDigest: ref };
  },
};
