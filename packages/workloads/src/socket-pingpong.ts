/**
 * socket-pingpong: round trip of a message between two cores through a socket-like transport
 * with a 1500 B MTU, or through RCCE, on the same mesh (scc.md section 2: RCCE latency is well
 * below a socket path for small messages).
 *
 * Socket path, per message (every step runs on the simulated cores, costs in core cycles):
 *   send():  system call entry; copy of the user buffer into a kernel socket buffer (private
 *            memory); per segment of at most MTU - 40 B payload: TCP/IP output processing, a
 *            software checksum that reads every payload byte, the driver copying header and
 *            payload into a transmit slot of the sender's MPB ring (waiting for a free slot),
 *            a descriptor and doorbell written into the receiver's MPB (the inter-core
 *            interrupt); system call exit.
 *   recv():  system call entry; sleep until a frame is announced; per frame: interrupt entry,
 *            the driver copying the frame from the sender's MPB into a socket buffer (remote
 *            MPB reads), releasing the slot, TCP/IP input processing, the checksum check,
 *            waking the receiving process (context switch), copying the payload to the user
 *            buffer; system call exit.
 * Software costs (model, P54C running Linux): SYSCALL_CYCLES, TCPIP_TX/RX_CYCLES, IRQ_CYCLES,
 * WAKEUP_CYCLES below; the data path (copies, MPB traffic, waiting) is simulated. No ACK
 * packets (a datagram-like socket): the slot release is the flow control.
 *
 * RCCE path: RCCE_send / RCCE_recv (rcce/index.ts).
 * Rows {transport, hops, bytes, roundTripNs, packets}: mean round trip over the iterations
 * after one untimed warm-up; packets = frames per one-way message.
 */
import { z } from 'zod';
import { DUE, type SccCore, type ResolvedChip, type Sim, type WorkloadDef } from '@manycore/engine';
import { checkPattern, copy, fillPattern, touch } from './lib/mem';
import { coreAtHopsFromCore, farthest } from './placement';
import { checkRcceChip, Rcce } from './rcce/index';

/** System call entry + exit (model). */
export const SYSCALL_CYCLES = 1200;
/** TCP/IP output processing per segment: headers, routing, queueing (model). */
export const TCPIP_TX_CYCLES = 2500;
/** TCP/IP input processing per segment: demultiplexing, socket lookup, queueing (model). */
export const TCPIP_RX_CYCLES = 2500;
/** Interrupt entry, handler dispatch and exit per received frame (model). */
export const IRQ_CYCLES = 3000;
/** Waking the blocked receiver and switching to it (model). */
export const WAKEUP_CYCLES = 2000;
/** TCP/IP headers per frame, bytes. */
export const HEADER_BYTES = 40;

const SLOT_BYTES = 1536; // a transmit slot: header + up to 1496 B
const SLOTS = 5; // 5 x 1536 = 7680 B of the 8 KB MPB half
const TX_FREED = 7680; // in the sender's MPB: frames the receiver has released (u32)
const RX_POSTED = 7712; // in the receiver's MPB: frames announced (u32); lengths are in the slot headers

const Params = z.strictObject({
  transport: z.enum(['socket', 'rcce']).default('socket').describe('socket-like (1500 B MTU) or RCCE'),
  hops: z.number().int().min(0).max(8).default(1).describe('mesh hops between the two cores'),
  bytes: z.number().int().min(1).max(1 << 20).default(64).describe('message size, bytes'),
  mtu: z.number().int().min(HEADER_BYTES + 8).max(SLOT_BYTES).default(1500).describe('socket: maximum frame size, bytes'),
  iterations: z.number().int().min(1).max(10_000).default(8).describe('timed round trips'),
});
type P = z.infer<typeof Params>;

function partnerOf(p: P, chip: ResolvedChip): number {
  const c = coreAtHopsFromCore(chip, 0, p.hops);
  if (c < 0) throw farthest(p.hops, chip);
  return c;
}

const MB = 1 << 20;
const USER_TX = 1 * MB;
const USER_RX = 4 * MB;
const SKB = 8 * MB;

/** One end of the socket-like transport between this core and `peer`. */
class Socket {
  private sent = 0; // frames announced to the peer
  private freedSeen = 0; // frames of ours the peer has released
  private received = 0; // frames taken from the peer
  private readonly hdr = new Uint8Array(HEADER_BYTES);
  constructor(
    readonly core: SccCore,
    readonly peer: number,
    readonly mtu: number,
  ) {}

  private *checksum(addr: number, bytes: number): Sim<void> {
    // one 32-bit add per word read
    for (let o = 0; o < bytes; o += 256) {
      const n = Math.min(256, bytes - o);
      this.core.readRange(addr + o, n);
      this.core.compute(Math.ceil(n / 4));
      if (this.core.due()) yield DUE;
    }
  }

  /** Frames a message of `bytes` takes. */
  frames(bytes: number): number {
    return Math.max(1, Math.ceil(bytes / (this.mtu - HEADER_BYTES)));
  }

  *send(user: number, bytes: number): Sim<void> {
    const core = this.core;
    const skb = core.privateBase + SKB;
    core.compute(SYSCALL_CYCLES / 2);
    yield* copy(core, skb, user, bytes);
    const per = this.mtu - HEADER_BYTES;
    core.countMessage(this.peer, bytes);
    for (let off = 0; off < bytes || off === 0; off += per) {
      const n = Math.min(per, bytes - off);
      core.compute(TCPIP_TX_CYCLES);
      yield* this.checksum(skb + off, n);
      // driver: a free transmit slot (the peer releases them in order)
      if (this.sent - this.freedSeen >= SLOTS) {
        this.freedSeen = yield* core.waitUntil(core.mpbOf(core.id, TX_FREED), '>=', this.sent - SLOTS + 1);
      }
      const slot = core.mpbOf(core.id, (this.sent % SLOTS) * SLOT_BYTES);
      this.hdr.fill(0);
      this.hdr[0] = n & 0xff;
      this.hdr[1] = n >>> 8;
      core.writeRange(slot, HEADER_BYTES, this.hdr);
      yield* copy(core, slot + HEADER_BYTES, skb + off, n);
      this.sent++;
      // doorbell in the receiver's MPB (the inter-core interrupt)
      core.store32(core.mpbOf(this.peer, RX_POSTED), this.sent);
      core.drainWcb();
      if (n < per) break;
    }
    core.compute(SYSCALL_CYCLES / 2);
  }

  *recv(user: number, bytes: number): Sim<void> {
    const core = this.core;
    const skb = core.privateBase + SKB + 2 * MB;
    core.compute(SYSCALL_CYCLES / 2);
    const per = this.mtu - HEADER_BYTES;
    for (let off = 0; off < bytes || off === 0; off += per) {
      yield* core.waitUntil(core.mpbOf(core.id, RX_POSTED), '>=', this.received + 1);
      core.compute(IRQ_CYCLES);
      core.invalidateMpbt();
      const slot = core.mpbOf(this.peer, (this.received % SLOTS) * SLOT_BYTES);
      core.readRange(slot, HEADER_BYTES, this.hdr);
      const n = this.hdr[0]! | (this.hdr[1]! << 8);
      yield* copy(core, skb, slot + HEADER_BYTES, n);
      this.received++;
      core.store32(core.mpbOf(this.peer, TX_FREED), this.received);
      core.drainWcb();
      core.compute(TCPIP_RX_CYCLES);
      yield* this.checksum(skb, n);
      core.compute(WAKEUP_CYCLES);
      yield* copy(core, user + off, skb, n);
      if (n < per) break;
    }
    core.compute(SYSCALL_CYCLES / 2);
  }
}

export const socketPingpong: WorkloadDef<P> = {
  name: 'socket-pingpong',
  title: 'RCCE vs a socket-like transport',
  chart: { x: 'bytes', y: 'roundTripNs', series: 'transport', logX: true, logY: true },
  description: 'Round trip of a message between two cores through RCCE or through a socket-like stack with a 1500 B MTU on the same mesh.',
  params: Params,
  participants: (p, chip) => {
    if (p.transport === 'rcce') checkRcceChip(chip);
    return [0, partnerOf(p, chip)];
  },
  *program(core: SccCore, p: P, ctx) {
    const other = ctx.participants.find((c) => c !== core.id)!;
    const first = core.id === 0;
    const tx = core.privateBase + USER_TX;
    const rx = core.privateBase + USER_RX;
    yield* fillPattern(core, tx, p.bytes, 3);
    yield* touch(core, tx, p.bytes);
    yield* touch(core, rx, p.bytes);
    const rcce = p.transport === 'rcce' ? new Rcce(core, ctx.participants) : null;
    const sock = p.transport === 'socket' ? new Socket(core, other, p.mtu) : null;
    const send = (buf: number) => (rcce ? rcce.send(buf, p.bytes, other) : sock!.send(buf, p.bytes));
    const recv = (buf: number) => (rcce ? rcce.recv(buf, p.bytes, other) : sock!.recv(buf, p.bytes));
    let t0 = 0;
    for (let it = -1; it < p.iterations; it++) {
      if (it === 0) {
        yield* core.barrier();
        t0 = core.now;
      }
      if (first) {
        yield* send(tx);
        yield* recv(rx);
      } else {
        yield* recv(rx);
        yield* send(rx);
      }
    }
    if (first) {
      const roundTripNs = (core.now - t0) / 1000 / p.iterations;
      const bad = yield* checkPattern(core, rx, p.bytes, 3);
      if (bad >= 0) throw new Error(`socket-pingpong: byte ${bad} came back wrong`);
      core.report({
        transport: p.transport,
        hops: p.hops,
        bytes: p.bytes,
        roundTripNs,
        packets: p.transport === 'socket' ? Math.max(1, Math.ceil(p.bytes / (p.mtu - HEADER_BYTES))) : Math.max(1, Math.ceil(p.bytes / 8160)),
      });
    }
  },
};
