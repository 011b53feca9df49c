/**
 * rcce-bcast: the RCCE study's Bcast (paper 003 lines 2939-2945, 3025-3026, 3139-3162; scc.md
 * section 6): one root (core 0) sends messages to N receivers (cores 1..N, 1 <= N <= 47).
 *
 * Messages: Bcast is "derived from Pingpong" and "has the same distribution of message sizes"
 * (Fig. 4, lines 3080-3088): "the majority of Pingpong messages are small; however, there are
 * also a significant number [of] large messages". The histogram's bars are not in the text, so
 * the mix is a parameter: mix 'pingpong' is the RCCE ping-pong benchmark's schedule, one message
 * of each power of two from 1 B to maxBytes in ascending order (default 16 KB: 15 sizes, 13 of
 * them at most 4 KB, 2 longer than one 8160 B chunk); mix 'fixed' sends `bytes` every time.
 *
 * algorithm 'linear' (default; the study's, and RCCE_bcast as RCCE ships it): for each message
 * the root calls the blocking RCCE_send to each receiver in turn; each receiver calls RCCE_recv,
 * then does `work` instructions (one per cycle) before its next receive. 'pull': one copy in the
 * root's MPB that every receiver pulls at once (Rcce.bcast), for comparison.
 *
 * Which hypothesis of scc.md section 6: 'linear' implements H1, the serial server. A blocking
 * send serves one receiver at a time (T_s: put into the own MPB, a locked flag write, the
 * receiver's pull and its flag write, hop-dependent MPB latencies); a receiver needs T_r = its
 * receive + `work` before it can take the next message. Below N* ~ 1 + work / T_s the receivers
 * set the pace and the root spins between sends; above it the root is never idle and each
 * receiver spins (N - 1) x T_s per message. Spinning executes the poll loop (4 instructions per
 * local MPB read, about 0.27 IPC) while work runs at 1 IPC, so the averaged IPC peaks near N*
 * when work is large enough, and falls from N = 1 when it is not. H2 (concurrent pulls through
 * the root tile's port) needs one shared copy: 'pull', where the weave queues the pulls on the
 * mesh links; the MPB port itself has no service limit in this model.
 *
 * Counters over the timed passes (after one untimed pass and a harness barrier), each core over
 * its own window (from the common start to its own end, as the study's library started and
 * saved the counters per thread, lines 2873-2876):
 *  - IPC = instructions / (window x core clock), the study's definition (Table I). `ipc` is the
 *    mean over all participating cores (root and receivers), `rootIpc` the root's own,
 *    `receiverIpc` the receivers' mean.
 *  - messages = RCCE_put and RCCE_get calls (the study's logger, lines 2867-2876; polls are not
 *    calls): 5 per chunk on each side (rcce/index.ts). `messagesPerInstruction` = all
 *    participating cores' messages / their instructions; `rootMessagesPerInstruction` the root's.
 * Rows {receivers, work, algorithm, messages, bytes, timeNs, ipc, rootIpc, receiverIpc,
 * loggedMessages, instructions, messagesPerInstruction, rootMessagesPerInstruction, busyRatio,
 * senderBusyRatio, receiverBusyRatio, powerW}: messages and bytes per receiver over the timed
 * passes; loggedMessages and instructions summed over the participating cores; timeNs the
 * root's; busyRatio = busy / time summed over the participating cores (busy cycles, not IPC).
 */
import { z } from 'zod';
import { windowPowerW, DUE, type SccCore, type Row, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from './lib/limits';
import { checkPattern, fillPattern, touch } from './lib/mem';
import { ActivityMeter, activityFromRow } from './lib/power';
import { checkRcceChip, Rcce } from './rcce/index';

const Params = z.strictObject({
  receivers: z.number().int().min(1).max(MAX_CORES).default(8).describe('receivers (cores 1..N); the root is core 0'),
  mix: z.enum(['pingpong', 'fixed']).default('pingpong').describe("'pingpong': one message of each power of two from 1 B to maxBytes (Pingpong's mix); 'fixed': every message `bytes`"),
  maxBytes: z.number().int().min(1).max(1 << 20).default(16384).describe('largest message of the pingpong mix, bytes'),
  bytes: z.number().int().min(0).max(1 << 20).default(4096).describe("message size of mix 'fixed', bytes"),
  rounds: z.number().int().min(1).max(10_000).default(1).describe('timed passes over the messages, after one untimed'),
  work: z.number().int().min(0).max(100_000_000).default(0).describe("receiver's work after each message, instructions (one per cycle)"),
  algorithm: z.enum(['linear', 'pull']).default('linear').describe("'linear': blocking RCCE_send to each receiver in turn (the study's Bcast); 'pull': one copy in the root's MPB, receivers pull concurrently"),
});
type P = z.infer<typeof Params>;

const BUF = 1 << 20;

/** Message sizes of one pass: the pingpong mix (1, 2, 4, ... <= maxBytes) or one fixed size. */
export function bcastSizes(p: Pick<P, 'mix' | 'maxBytes' | 'bytes'>): number[] {
  if (p.mix === 'fixed') return [p.bytes];
  const out: number[] = [];
  for (let n = 1; n <= p.maxBytes; n *= 2) out.push(n);
  return out;
}

export const rcceBcast: WorkloadDef<P> = {
  name: 'rcce-bcast',
  title: 'RCCE broadcast: one root, N receivers (the RCCE study\'s Bcast)',
  chart: { x: 'receivers', y: 'timeNs', series: 'algorithm' },
  description:
    "One core sends Pingpong's message mix to 1..47 receivers with blocking RCCE sends, each receiver working a set number of instructions between messages: IPC (instructions / wall-clock cycles) and messages (RCCE_put/get calls) per instruction against N.",
  params: Params,
  participants: (p, chip) => {
    checkRcceChip(chip);
    if (p.receivers + 1 > chip.topo.cores) throw overLimit('receivers', p.receivers, chip.topo.cores - 1, `${chipHasCores(chip)} and the root takes one`);
    return Array.from({ length: p.receivers + 1 }, (_, i) => i);
  },
  coresParam: { name: 'receivers', extraCores: 1 },
  *program(core: SccCore, p: P, ctx) {
    const rcce = new Rcce(core, ctx.participants);
    const root = 0;
    const receivers = ctx.participants.filter((c) => c !== root);
    const sizes = bcastSizes(p);
    const longest = Math.max(...sizes);
    const buf = core.privateBase + BUF;
    if (core.id === root) yield* fillPattern(core, buf, longest, 7);
    yield* touch(core, buf, longest);
    const pass = function* () {
      for (const n of sizes) {
        if (p.algorithm === 'pull') yield* rcce.bcast(buf, n, root, receivers);
        else if (core.id === root) for (const r of receivers) yield* rcce.send(buf, n, r);
        else yield* rcce.recv(buf, n, root);
        if (core.id !== root && p.work > 0) core.compute(p.work, p.work);
        if (core.due()) yield DUE;
      }
    };
    yield* pass(); // warm-up
    yield* core.barrier();
    const t0 = core.now;
    const i0 = core.counter('instructions');
    const m0 = core.counter('loggedMessages');
    const meter = new ActivityMeter(core);
    for (let r = 0; r < p.rounds; r++) yield* pass();
    const timeNs = (core.now - t0) / 1000;
    core.report({
      core: core.id,
      startNs: t0 / 1000,
      timeNs,
      cycles: (core.now - t0) / core.period,
      instructions: core.counter('instructions') - i0,
      loggedMessages: core.counter('loggedMessages') - m0,
      ...meter.fields(),
    });
    if (core.id !== root) {
      // the last message of a pass is the longest: the buffer holds all of it
      const bad = yield* checkPattern(core, buf, longest, 7);
      if (bad >= 0) throw new Error(`rcce-bcast: receiver ${core.id} got a wrong byte at offset ${bad}`);
    }
  },
  summarize(rows: Row[], p: P, _chip, _sim, series): Row[] {
    const acts = rows.map(activityFromRow).filter((a) => a !== null);
    const busy = (list: typeof acts) => list.reduce((s, a) => s + a.busyPs, 0) / Math.max(list.reduce((s, a) => s + a.ownPs, 0), 1e-9);
    const ipcOf = (r: Row) => (r.instructions as number) / Math.max(r.cycles as number, 1e-9);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(xs.length, 1);
    const sum = (list: Row[], k: string) => list.reduce((s, r) => s + (r[k] as number), 0);
    const root = rows.find((r) => r.core === 0)!;
    const recv = rows.filter((r) => r.core !== 0);
    const sizes = bcastSizes(p);
    return [
      {
        receivers: p.receivers,
        work: p.work,
        algorithm: p.algorithm,
        messages: sizes.length * p.rounds,
        bytes: sizes.reduce((s, n) => s + n, 0) * p.rounds,
        timeNs: root.timeNs as number,
        ipc: mean(rows.map(ipcOf)),
        rootIpc: ipcOf(root),
        receiverIpc: mean(recv.map(ipcOf)),
        loggedMessages: sum(rows, 'loggedMessages'),
        instructions: sum(rows, 'instructions'),
        messagesPerInstruction: sum(rows, 'loggedMessages') / Math.max(sum(rows, 'instructions'), 1),
        rootMessagesPerInstruction: (root.loggedMessages as number) / Math.max(root.instructions as number, 1),
        busyRatio: busy(acts),
        senderBusyRatio: busy(acts.filter((a) => a.core === 0)),
        receiverBusyRatio: busy(acts.filter((a) => a.core !== 0)),
        powerW: windowPowerW(series, Math.min(...rows.map((r) => r.startNs as number)), Math.max(...rows.map((r) => (r.startNs as number) + (r.timeNs as number)))),
      },
    ];
  },
};
