/**
 * The cluster family's chip schema: N nodes of one core each (private L1 and L2, private
 * memory), connected by one switch (every node has a full-duplex link to it) that carries UDP
 * datagrams in Ethernet frames. There is no shared memory. Units in the names; cross-field
 * rules name the component; unknown keys are rejected.
 */
import { z } from 'zod';
import { PowerSchema, TagCacheSchema, checkTagCaches, positiveInt, nonNegInt } from '../../chip-schema';


export const ClusterChipSchema = z
  .strictObject({
    name: z.string().min(1),
    nodes: z.strictObject({
      columns: z.number().int().min(1).max(16).describe('nodes per row of the drawing (placement only: every pair is one switch apart)'),
      rows: z.number().int().min(1).max(16).describe('rows of the drawing; nodes = columns x rows'),
    }),
    caches: z.strictObject({ l1d: TagCacheSchema, l2: TagCacheSchema }),
    memory: z.strictObject({
      accessCycles: nonNegInt.describe("an L2 miss served by the node's own memory, core cycles (latency; one core per memory, no contention)"),
      privateBytes: positiveInt.describe('simulated private memory per node, bytes (a window of the real memory)'),
      poolBytes: positiveInt.describe('simulated memory actually backed by the host (sparse, allocated on first write)'),
    }),
    network: z.strictObject({
      linkMbps: z.number().positive().describe('bandwidth of each node-switch link, each direction, Mbit/s'),
      switchLatencyNs: z.number().nonnegative().describe('store-and-forward switch: from a frame fully received to its first bit sent on, ns'),
      frameOverheadBytes: nonNegInt.describe('Ethernet header + FCS per frame, bytes'),
      minFrameBytes: nonNegInt.describe('shortest frame (header + payload + FCS), bytes; shorter frames are padded'),
      gapBytes: nonNegInt.describe('preamble + start delimiter + inter-frame gap per frame, byte times'),
      headerBytes: nonNegInt.describe('IP + UDP headers per datagram, bytes'),
      maxPayloadBytes: z.number().int().min(1).max(65507).describe('datagram bytes one Ethernet frame carries (larger datagrams are IP fragments, one frame each), bytes'),
      maxDatagramBytes: z.number().int().min(1).max(65507).describe('largest message (UDP payload of one datagram, sent as fragments of maxPayloadBytes), bytes'),
      slotsPerPair: z.number().int().min(1).max(64).describe('messages one sender may have waiting, unreceived, at one receiver (a socket buffer)'),
      sendOverheadCycles: nonNegInt.describe('CPU time of one send (system call, UDP/IP, driver), core cycles'),
      sendPerByteCycles: z.number().nonnegative().describe('CPU time per payload byte sent (copy, checksum), core cycles'),
      receiveOverheadCycles: nonNegInt.describe('CPU time of one receive (interrupt, UDP/IP, wake-up, system call), core cycles'),
      receiveWakeupCycles: nonNegInt.describe('CPU time added to a receive when the process slept waiting for the message (scheduling it again), core cycles'),
      receivePerByteCycles: z.number().nonnegative().describe('CPU time per payload byte received (copy, checksum), core cycles'),
    }),
    kernel: z.strictObject({
      faultTrapCycles: nonNegInt.describe('a page-protection fault: from the faulting access to the user handler (exception, kernel, signal delivery) and back, core cycles'),
      mprotectCycles: nonNegInt.describe('one mprotect system call changing one page, core cycles'),
      sigioCycles: nonNegInt.describe("delivering a message to a computing process as a signal (SIGIO: the interrupt's signal delivery and return), core cycles, besides the receive itself"),
    }),
    clocks: z.strictObject({
      baseMHz: z.number().positive().describe('the core clock'),
      divisor: z.literal(1).describe('the core runs at baseMHz (no divisor on a PC)'),
      meshMHz: z.number().positive().describe('unused by the cluster (no mesh); kept for the generic clock record'),
      memoryMHz: z.number().positive().describe('the memory bus clock'),
    }),
    islands: z.strictObject({
      // one power domain per node (resolve.ts builds the list): only the operating point is given
      vf: z.array(z.strictObject({ divisor: z.literal(1), freqMHz: z.number().positive(), volts: z.number().positive() })).length(1),
    }),
    power: PowerSchema,
  })
  .superRefine((chip, ctx) => {
    const nodes = chip.nodes.columns * chip.nodes.rows;
    if (nodes > 256) ctx.addIssue({ code: 'custom', path: ['nodes'], message: `nodes: ${chip.nodes.columns} x ${chip.nodes.rows} = ${nodes} nodes; at most 256 are modelled` });
    checkTagCaches(chip.caches, ctx);
    if (chip.memory.privateBytes % 4096 !== 0)
      ctx.addIssue({ code: 'custom', path: ['memory', 'privateBytes'], message: 'memory.privateBytes must be a whole number of 4 KB pages' });
    if (chip.network.maxDatagramBytes < chip.network.maxPayloadBytes)
      ctx.addIssue({ code: 'custom', path: ['network', 'maxDatagramBytes'], message: `network.maxDatagramBytes ${chip.network.maxDatagramBytes} is smaller than one frame's network.maxPayloadBytes ${chip.network.maxPayloadBytes}` });
    const slotBytes = 32 + Math.ceil(chip.network.maxDatagramBytes / 32) * 32;
    const total = nodes * chip.memory.privateBytes + nodes * nodes * chip.network.slotsPerPair * slotBytes;
    if (total > 2 ** 33)
      ctx.addIssue({ code: 'custom', path: ['memory', 'privateBytes'], message: `${nodes} nodes x memory.privateBytes ${chip.memory.privateBytes} and the receive slots exceed the 8 GB the memory space holds` });
    if (chip.islands.vf[0]!.freqMHz !== chip.clocks.baseMHz)
      ctx.addIssue({ code: 'custom', path: ['islands', 'vf', 0, 'freqMHz'], message: `islands.vf[0].freqMHz ${chip.islands.vf[0]!.freqMHz} differs from clocks.baseMHz ${chip.clocks.baseMHz}` });
  });

export type ClusterChipConfig = z.infer<typeof ClusterChipSchema>;
