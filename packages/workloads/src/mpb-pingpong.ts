/**
 * mpb-pingpong: two cores bounce a payload and a flag through the MPB. Core 0 writes the
 * payload into its partner's MPB half, then a sequence flag after it; the partner waits for
 * the flag, invalidates its MPBT lines (CL1INVMB), reads the payload from its own MPB and
 * answers the same way. Rows {hops, bytes, roundTripNs} (mean over the iterations).
 * Bug 'skip-cl1invmb': the flag's poll loop skips CL1INVMB (waitUntil cl1invmb false), so it
 * reads the flag through L1: once a read has brought the flag line into L1 before the partner's
 * write, the core spins on that copy for ever (the deadlock message names it).
 */
import { z } from 'zod';
import { DUE, type SccCore, type ResolvedChip, type WorkloadDef } from '@manycore/engine';
import { coreAtHopsFromCore, farthest } from './placement';

const Params = z.strictObject({
  hops: z.number().int().min(0).default(1).describe('mesh hops between the two cores'),
  bytes: z.number().int().min(0).max(8160).default(32).describe('payload per message, bytes (at most 8 KB - one flag line)'),
  iterations: z.number().int().min(1).max(100_000).default(16),
  bug: z.enum(['none', 'skip-cl1invmb']).default('none').describe('protocol bug: none, or skip-cl1invmb (the flag poll skips CL1INVMB)'),
});
type P = z.infer<typeof Params>;

function partner(p: P, chip: ResolvedChip): number {
  const c = coreAtHopsFromCore(chip, 0, p.hops);
  if (c < 0) throw farthest(p.hops, chip);
  return c;
}

const FLAG_OFFSET = 8160; // the last 32 B line of the 8 KB half

export const mpbPingpong: WorkloadDef<P> = {
  name: 'mpb-pingpong',
  title: 'MPB ping-pong',
  chart: { x: 'bytes', y: 'roundTripNs', series: 'hops', logX: true },
  description: 'Two cores bounce a flag and a payload through the message-passing buffers; round trip grows with hops and payload.',
  params: Params,
  bugs: {
    'skip-cl1invmb':
      "The flag's poll loop skips CL1INVMB: it reads the copy of the flag line in its own L1, never sees the partner's new flag, and the run stops naming the stale copy.",
  },
  participants: (p, chip) => [0, partner(p, chip)],
  *program(core: SccCore, p: P) {
    const other = core.id === 0 ? partner(p, core.chip) : 0;
    const payload = new Uint8Array(Math.max(p.bytes, 1));
    const t0 = core.now;
    const waitOpts = { on: { core: other }, cl1invmb: p.bug !== 'skip-cl1invmb' };
    for (let i = 1; i <= p.iterations; i++) {
      const first = core.id === 0;
      if (!first) {
        yield* core.waitUntil(core.mpbOf(core.id, FLAG_OFFSET), '==', i, 4, waitOpts);
        core.invalidateMpbt();
        core.readRange(core.mpbOf(core.id), p.bytes, payload);
      }
      payload.fill(i & 0xff);
      core.writeRange(core.mpbOf(other), p.bytes, payload);
      core.store32(core.mpbOf(other, FLAG_OFFSET), i);
      core.countMessage(other, p.bytes);
      if (first) {
        yield* core.waitUntil(core.mpbOf(core.id, FLAG_OFFSET), '==', i, 4, waitOpts);
        core.invalidateMpbt();
        core.readRange(core.mpbOf(core.id), p.bytes, payload);
        if (p.bytes > 0 && payload[0] !== (i & 0xff)) throw new Error(`payload corrupted in iteration ${i}`);
      }
      if (core.due()) yield DUE;
    }
    if (core.id === 0) core.report({ hops: p.hops, bytes: p.bytes, roundTripNs: (core.now - t0) / p.iterations / 1000 });
  },
};
