/**
 * rcce-bcast: one sender (core 0) broadcasts a message to N receivers (cores 1..N), `rounds`
 * times (scc.md section 6). RCCE style, through the sender's MPB: the sender copies each
 * 8160 B chunk into its communication buffer once, sets the "sent" flag of every receiver
 * (one locked read-modify-write per receiver), and waits until every receiver has set its
 * "ready" flag; the receivers pull the chunk concurrently from the sender's MPB.
 * algorithm 'linear' is RCCE_bcast as RCCE ships it (RCCE_bcast.c: "naive, linear"): the root
 * calls RCCE_send to each receiver in turn, every receiver calls RCCE_recv.
 *
 * Rows {receivers, bytes, timeNs, busyRatio, senderBusyRatio, receiverBusyRatio, powerW}: timeNs
 * is the time of all rounds at the sender; busyRatio = busy / time summed over every
 * participating core for the timed rounds (the lab's IPC proxy).
 */
import { z } from 'zod';
import { windowPowerW, DUE, WorkloadParamError, type SccCore, type Row, type WorkloadDef } from '@manycore/engine';
import { MAX_CORES } from './lib/limits';
import { checkPattern, fillPattern, touch } from './lib/mem';
import { ActivityMeter, activityFromRow } from './lib/power';
import { Rcce } from './rcce/index';

const Params = z.strictObject({
  receivers: z.number().int().min(1).max(MAX_CORES).default(8).describe('receivers (cores 1..N); the sender is core 0'),
  bytes: z.number().int().min(0).max(1 << 20).default(4096).describe('message size, bytes'),
  rounds: z.number().int().min(1).max(10_000).default(8).describe('broadcasts (timed), after one untimed'),
  algorithm: z.enum(['pull', 'linear']).default('pull').describe("'pull': one copy in the root's MPB, receivers pull concurrently; 'linear': RCCE_bcast as shipped (a loop of RCCE_send from the root)"),
});
type P = z.infer<typeof Params>;

const BUF = 1 << 20;

export const rcceBcast: WorkloadDef<P> = {
  name: 'rcce-bcast',
  title: 'RCCE broadcast: one sender, N receivers',
  description: 'One core broadcasts through its MPB to 1..47 receivers (concurrent pull, or RCCE_bcast\'s linear loop of sends); watch the time grow and the busy ratio fall as receivers are added.',
  params: Params,
  participants: (p, chip) => {
    if (p.receivers + 1 > chip.topo.cores) throw new WorkloadParamError(`receivers: ${p.receivers} receivers and the sender need ${p.receivers + 1} cores but the chip has ${chip.topo.cores}`);
    return Array.from({ length: p.receivers + 1 }, (_, i) => i);
  },
  *program(core: SccCore, p: P, ctx) {
    const rcce = new Rcce(core, ctx.participants);
    const root = 0;
    const receivers = ctx.participants.filter((c) => c !== root);
    const buf = core.privateBase + BUF;
    if (core.id === root) yield* fillPattern(core, buf, p.bytes, 7);
    yield* touch(core, buf, p.bytes);
    const bcast = function* () {
      if (p.algorithm === 'pull') yield* rcce.bcast(buf, p.bytes, root, receivers);
      else if (core.id === root) for (const r of receivers) yield* rcce.send(buf, p.bytes, r);
      else yield* rcce.recv(buf, p.bytes, root);
    };
    yield* bcast(); // warm-up
    yield* core.barrier();
    const t0 = core.now;
    const meter = new ActivityMeter(core);
    for (let r = 0; r < p.rounds; r++) {
      yield* bcast();
      if (core.due()) yield DUE;
    }
    const timeNs = (core.now - t0) / 1000;
    core.report({ core: core.id, startNs: t0 / 1000, timeNs, ...meter.fields() });
    if (core.id !== root) {
      const bad = yield* checkPattern(core, buf, p.bytes, 7);
      if (bad >= 0) throw new Error(`rcce-bcast: receiver ${core.id} got a wrong byte at offset ${bad}`);
    }
  },
  summarize(rows: Row[], p: P, _chip, _sim, series): Row[] {
    const acts = rows.map(activityFromRow).filter((a) => a !== null);
    const busy = (list: typeof acts) => list.reduce((s, a) => s + a.busyPs, 0) / Math.max(list.reduce((s, a) => s + a.ownPs, 0), 1e-9);
    const sender = rows.find((r) => r.core === 0)!;
    return [
      {
        receivers: p.receivers,
        bytes: p.bytes,
        timeNs: sender.timeNs as number,
        busyRatio: busy(acts),
        senderBusyRatio: busy(acts.filter((a) => a.core === 0)),
        receiverBusyRatio: busy(acts.filter((a) => a.core !== 0)),
        powerW: windowPowerW(series, Math.min(...rows.map((r) => r.startNs as number)), Math.max(...rows.map((r) => (r.startNs as number) + (r.timeNs as number)))),
      },
    ];
  },
};
