/**
 * The cluster family: N PCs of one core each (private caches and memory, no shared memory)
 * on a switched Ethernet, exchanging UDP datagrams whose CPU overheads, frame sizes, link
 * bandwidth and switch latency are preset parameters. Source: ../shared/reference/dsm.md
 * section 1 (paper 004 line 308) and the documents named in preset.ts.
 */
import type { ChipFamily, ChipPreset } from '../family';
import { readCommittedLine, writeCommittedLine } from '../../memory';
import { ClusterCore } from './core';
import { cluster1999Preset } from './preset';
import { resolveCluster, type ClusterChip } from './resolve';
import { ClusterChipSchema, type ClusterChipConfig } from './schema';

/** A scratch line for the arrival counters (contents never outlive one call). */
const counterLine = new Uint32Array(8);
const counterBytes = new Uint8Array(counterLine.buffer);

export const clusterFamily: ChipFamily<ClusterChipConfig, ClusterChip, ClusterCore> = {
  name: 'cluster',
  title: 'Cluster of PCs (switched Ethernet)',
  schema: ClusterChipSchema,
  resolve: resolveCluster,
  makeCore: (id, chip, views, seed) => new ClusterCore(id, chip, views, seed),
  // a datagram delivered: the receiver's arrival counter (word 0 of its line) counts it, at the
  // datagram's arrival time in the commit order; a receiver waiting for any datagram waits on it
  commitUnit: (views, _chip, lineId) => {
    readCommittedLine(views, lineId, counterLine, 0);
    counterLine[0] = counterLine[0]! + 1;
    writeCommittedLine(views, lineId, 0xf, counterBytes, 0, counterLine, 0);
    return lineId;
  },
  // nodes on a grid (placement only: every pair is one switch apart); each node a power domain
  floorplan: (chip) => ({
    width: chip.topo.width,
    height: chip.topo.height,
    coresPerTile: 1,
    tileStore: { label: 'L2', bytes: chip.config.caches.l2.sizeBytes },
    controllers: [],
    domains: [],
    transactionBytes: chip.config.caches.l2.lineBytes,
  }),
};

export const clusterPresets: Record<string, ChipPreset<ClusterChipConfig>> = {
  'cluster-1999': {
    family: 'cluster',
    chip: cluster1999Preset,
    description: '32 PCs (300 MHz Pentium II, 512 KB L2) on switched 100 Mbps Ethernet, UDP: the TreadMarks/SkidMarks platform',
    source: '../shared/reference/dsm.md section 1 (paper 004 line 308); Ethernet and UDP/IP sizes from IEEE 802.3 and RFC 768/791; UDP software cost from UMD NetCalliper (see preset.ts)',
  },
};

export { ClusterCore } from './core';
export { type ClusterChip } from './resolve';
export { ClusterChipSchema, type ClusterChipConfig } from './schema';
export { cluster1999Preset } from './preset';
