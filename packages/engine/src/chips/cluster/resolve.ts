/**
 * Cluster resolution: a validated ClusterChipConfig -> ClusterChip (plain values).
 *
 * Address map (model): every node sees only its own private memory, at privateBase..+privateBytes
 * (an access elsewhere is an error naming it: a cluster has no shared memory). The simulated
 * memory of all nodes lives in one line space (controller 0's), node n's at n x privateBytes,
 * followed by the receive slots: for each ordered pair (receiver d, sender s) `slotsPerPair`
 * slots of `slotBytes` (a 32 B header line, then the payload), at
 * slotBase + ((d x nodes + s) x slotsPerPair + k) x slotBytes (a slot holds one datagram of up
 * to maxDatagramBytes), then one arrival-counter line per node (arrivalBase + d x 32: datagrams
 * delivered to node d, counted at commit by the family's unit, index.ts), then one taken-counter
 * line per ordered pair (takenBase + (d x nodes + s) x 32: datagrams d took from s, written by d
 * when it takes one; a sender whose socket-buffer slots are all in use waits on it, core.ts).
 * The line space is storage only:
 * each node's memory serves its own core, so no memory transaction is recorded for the weave
 * (no controller is shared), and the "mesh" is only the drawing's grid (every pair of nodes is
 * one switch apart; the switch is modelled by the cores, core.ts).
 */
import type { ResolvedChip } from '../../chip';
import { resolveDram } from '../../dram/ddr';
import { makeTopology } from '../../topology';
import { periodPsFromMHz } from '../../units';
import type { ClusterChipConfig } from './schema';

/** The cluster's resolved config: the schema's, with one power domain per node listed. */
export type ClusterResolvedConfig = ClusterChipConfig & { islands: { tiles: number[][]; vf: ClusterChipConfig['islands']['vf'] } };

export interface ClusterChip extends ResolvedChip {
  family: 'cluster';
  config: ClusterResolvedConfig;
  nodes: number;
  l1LineShift: number;
  l2LineShift: number;
  memoryAccessCycles: number;
  /** Byte offset of the receive slots in the line space. */
  slotBase: number;
  slotBytes: number;
  slotsPerPair: number;
  /** Byte offset of the arrival counters (one 32 B line per node: datagrams delivered to it, word 0). */
  arrivalBase: number;
  /** Byte offset of the taken counters (one 32 B line per ordered pair (receiver d, sender s): datagrams d took from s, word 0). */
  takenBase: number;
  /** ps to serialise one byte on a link. */
  bytePs: number;
  switchLatencyPs: number;
}

export function resolveCluster(config: ClusterChipConfig): ClusterChip {
  const topo = makeTopology(config.nodes.columns, config.nodes.rows, 1);
  const nodes = topo.cores;
  const islandOfTile = Int32Array.from({ length: nodes }, (_, n) => n);
  const tiles = Array.from({ length: nodes }, (_, n) => [n]);
  const full: ClusterResolvedConfig = { ...config, islands: { tiles, vf: config.islands.vf } };
  const vf = new Map([[1, { freqMHz: config.islands.vf[0]!.freqMHz, volts: config.islands.vf[0]!.volts }]]);
  const cache = (c: ClusterChipConfig['caches']['l1d'], writeBack: boolean) => ({
    sets: c.sizeBytes / (c.ways * c.lineBytes),
    ways: c.ways,
    hitCycles: c.hitCycles,
    writeBack,
    allocateOnWrite: true,
  });
  const slotBytes = 32 + Math.ceil(config.network.maxDatagramBytes / 32) * 32;
  const slotBase = nodes * config.memory.privateBytes;
  const memPeriodPs = periodPsFromMHz(config.clocks.memoryMHz);
  return {
    family: 'cluster',
    config: full,
    topo,
    // (doc) P6: write-back L1 and L2 with write-allocate
    l1d: cache(config.caches.l1d, true),
    l2: cache(config.caches.l2, true),
    missesInFlight: 1,
    wcbBytes: 0,
    meshPeriodPs: periodPsFromMHz(config.clocks.meshMHz),
    memPeriodPs,
    hopPs: 0,
    flitBytes: 8,
    contentionWindowPs: 10_000_000,
    controllers: 1,
    controllerTile: Int32Array.from([0]),
    nearestController: new Int32Array(nodes),
    coreOverheadCycles: config.memory.accessCycles,
    dramAccessPs: 0,
    dram: resolveDram(
      { model: 'fixed', serviceMemCycles: 1, banks: 1, rowBytes: 4096, busBytes: 8, mapping: 'row:bank:column', tCkNs: 15, clNs: 0, cwlNs: 0, tRcdNs: 0, tRpNs: 0, tRasNs: 0, tWrNs: 0, tRtpNs: 0, tCcdTck: 1, minBurstBeats: 4 },
      memPeriodPs,
    ), // storage only: no transaction reaches it (see the contract above)
    mpbBytes: 0,
    mpbLocalCycles: 0,
    mpbRemoteCycles: 0,
    baseMHz: config.clocks.baseMHz,
    tileDivisors: new Int32Array(nodes).fill(1),
    islandOfTile,
    islands: nodes,
    vf,
    privateBase: 0x10000000,
    privateBytes: config.memory.privateBytes,
    sharedBase: 0,
    sharedBytes: 0,
    tasRegisters: 0,
    poolBytes: config.memory.poolBytes,
    ctrlBytes: slotBase + nodes * nodes * config.network.slotsPerPair * slotBytes + nodes * 32 + nodes * nodes * 32,
    // the page map can show every 4 KB page of a node's private memory (x86 pages, paper 004's
    // 4 KB unit); privateBytes is whole 4 KB pages (schema.ts)
    protectedPagesPerCore: config.memory.privateBytes / 4096,
    nodes,
    l1LineShift: Math.log2(config.caches.l1d.lineBytes),
    l2LineShift: Math.log2(config.caches.l2.lineBytes),
    memoryAccessCycles: config.memory.accessCycles,
    slotBase,
    slotBytes,
    slotsPerPair: config.network.slotsPerPair,
    arrivalBase: slotBase + nodes * nodes * config.network.slotsPerPair * slotBytes,
    takenBase: slotBase + nodes * nodes * config.network.slotsPerPair * slotBytes + nodes * 32,
    bytePs: 8e6 / config.network.linkMbps,
    switchLatencyPs: Math.round(config.network.switchLatencyNs * 1000),
  };
}
