/**
 * cluster-1999: the platform of paper 004 (../shared/reference/dsm.md section 1): 32 PCs of one
 * 300 MHz Pentium II each on a switched, full-duplex 100 Mbps Ethernet, talking UDP.
 * (paper 004 line N) = stated there; (doc) = a standard or vendor documentation; (derived) =
 * arithmetic on those; (model) = a choice of this lab, documented here.
 *
 * The paper's measured end-to-end costs (1-byte round trip 126 us, lock 178-272 us, 32-node
 * barrier 1,333 us; line 308) are NOT inputs: they are what the cluster-rtt workload compares
 * its results with. No number below was chosen to hit them.
 */
import type { ClusterChipConfig } from './schema';

/*
 * Power (placeholders, model): Intel's Pentium II (Klamath) 300 MHz datasheet gives 43 W
 * maximum at 2.8 V (doc): C = 35 W / (2.8^2 x 300e6) = 1.5e-8 F dynamic, 1 W/V leakage; the rest
 * of each PC (chipset, memory, disk, NIC, supply losses) as 20 W of uncontrollable power per
 * node, 640 W for 32. No paper in ../shared measures the cluster's power: for relative
 * comparisons only. There is no mesh (meshCapacitanceF and flitEnergyPJ are 0).
 */
export const cluster1999Preset: ClusterChipConfig = {
  name: 'Cluster 1999 (32 x Pentium II, 100 Mbps Ethernet)',
  nodes: { columns: 8, rows: 4 }, // paper 004 line 308: thirty-two computers; the 8 x 4 drawing is a model choice
  caches: {
    // (doc) Pentium II: 16 KB 4-way L1 data cache, 32 B lines, 3-cycle load-use latency
    l1d: { sizeBytes: 16384, ways: 4, lineBytes: 32, hitCycles: 3 },
    // paper 004 line 308: 512 KB secondary cache; (doc) 4-way, 32 B lines, off-die at half the
    // core clock; hitCycles (model): the paper and the docs at hand give no latency
    l2: { sizeBytes: 524288, ways: 4, lineBytes: 32, hitCycles: 10 },
  },
  memory: {
    accessCycles: 50, // model: about 165 ns to SDRAM over the 66 MHz front-side bus; no figure in the paper
    privateBytes: 64 * 1024 * 1024, // model: a 64 MB window of each node's 256 MB (paper 004 line 308)
    poolBytes: 256 * 1024 * 1024, // model: host memory backing the sparse simulated memory
  },
  network: {
    linkMbps: 100, // paper 004 line 308: switched, full-duplex 100 Mbps Ethernet
    switchLatencyNs: 2000, // model: forwarding decision after a frame is fully received (store-and-forward); no figure in the paper
    frameOverheadBytes: 18, // (doc) IEEE 802.3: 14 B header (2 addresses, type) + 4 B FCS
    minFrameBytes: 64, // (doc) IEEE 802.3: frames shorter than 64 B are padded
    gapBytes: 20, // (doc) IEEE 802.3: 7 B preamble + 1 B start delimiter + 12 B inter-frame gap
    headerBytes: 28, // (doc) RFC 791 IPv4 header 20 B (no options) + RFC 768 UDP header 8 B; paper 004 line 308: UDP sockets
    maxPayloadBytes: 1472, // (derived) the 1500 B Ethernet MTU - 28 B of IP and UDP headers: datagram bytes per frame
    // (doc) RFC 768/791: the largest UDP payload, 65,535 - 20 - 8 B; sent as IP fragments of one
    // frame each (model: every fragment carries headerBytes; a real later fragment carries 20 B)
    maxDatagramBytes: 65507,
    slotsPerPair: 8, // model: datagrams a socket buffer holds from one sender
    // (doc) UMD NetCalliper kernel instrumentation (cs.umd.edu/projects/netcalliper/sb/udpoverheads.html):
    // a 32 B UDP packet takes 34-37 us from the Ethernet driver to the user process on a
    // 266 MHz Pentium II (NetBSD), 5-7 us less for the 2nd and 3rd packet of a train, which find
    // the process already runnable. 35 us x 266 MHz = 9,310 cycles (derived), of which 6 us x
    // 266 = 1,596 (derived) is the wake-up of a sleeping receiver; kept in cycles so the 300 MHz
    // core runs them in 25.7 + 5.3 us. The send path is not measured there: the cost of a whole
    // receive (9,310 cycles) is a model choice for it (a system call, UDP/IP output, the driver).
    sendOverheadCycles: 9310,
    sendPerByteCycles: 1, // model: copy into an mbuf and checksum, about a byte per cycle
    receiveOverheadCycles: 7714,
    receiveWakeupCycles: 1596,
    receivePerByteCycles: 1, // model: checksum and copy out to the user buffer
  },
  // (model) FreeBSD 2.2 on a 300 MHz Pentium II, not measured in paper 004 or the documents at
  // hand. Thekkath and Levy (ASPLOS 1994, "Hardware and software support for efficient exception
  // handling") measure delivering a memory-access exception to a user handler and returning on
  // Unix systems of the early 1990s at tens of microseconds: 20 us (6,000 cycles) for the trap and
  // signal, 10 us (3,000 cycles) for one mprotect call, and a signal delivery (SIGIO) like the
  // fault's, 20 us. Named here so a reader can vary them.
  kernel: { faultTrapCycles: 6000, mprotectCycles: 3000, sigioCycles: 6000 },
  clocks: {
    baseMHz: 300, // paper 004 line 308: 300 MHz Pentium II
    divisor: 1,
    meshMHz: 300, // unused (no mesh)
    memoryMHz: 66, // (doc) the Pentium II's 66 MHz front-side bus (440LX)
  },
  islands: { vf: [{ divisor: 1, freqMHz: 300, volts: 2.8 }] }, // (doc) Klamath core voltage 2.8 V
  power: {
    coreCapacitanceF: 1.5e-8,
    coreLeakageWPerV: 1,
    idleActivity: 0.25,
    stallActivity: 0.5,
    waitActivity: 0.25, // a node blocked in recvfrom is idle in the kernel
    meshCapacitanceF: 0,
    meshVolts: 1,
    flitEnergyPJ: 0,
    controllerAccessEnergyNJ: 1,
    uncoreStaticW: 640,
  },
};
