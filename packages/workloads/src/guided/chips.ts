/** Other chips: the TILE64 preset, the 1999 cluster and SCC tiles on meshes of up to 1024 cores. */
import { exp, type GuidedExperiment } from './types';

const TILE64 = { preset: 'tile64' };
const CLUSTER = { preset: 'cluster-1999' };
const mesh = (width: number, height: number) => ({ preset: 'mesh', overrides: { mesh: { width, height } } });

export const otherChips: GuidedExperiment[] = [
  {
    id: 'tile64-latency-ladder',
    title: 'TILE64: the cost of a load at every level',
    summary: 'Core 0 of the 64-core TILE64 times single loads from its L1, its L2, the home L2 of a shared page at every distance on the mesh, and memory, in the three caching regimes.',
    source: 'paper 000 Tables 1 and 3',
    whatToLookFor: [
      'L1 2 cycles, L2 8, as in Table 1; a word homed on another tile costs about 35 cycles plus 2 per hop: the remote-home line climbs gently with distance.',
      'Read-only and user-managed pages are cached anywhere: after the first load they cost what a local L2 hit costs, at any distance.',
      'The paper markers are the values the paper states, beside each measured point.',
    ],
    experiments: (['homed', 'read-only', 'user-managed'] as const).map((regime) => exp('latency-ladder', { regime }, TILE64)),
    sweep: { param: 'regime', values: ['homed', 'read-only', 'user-managed'] },
    chart: { x: 'hops', y: 'latencyCycles', series: 'level' },
    paper: { source: 'paper 000 Tables 1 and 3', rowField: 'paperCycles' },
  },
  {
    id: 'tile64-messages',
    title: 'TILE64: moving words by message, load or DMA',
    summary: '1 and 10 words from a tile 1 or 3 hops away, five ways: a raw network message, loads from the other tile\'s cache or from memory, and DMA.',
    source: 'paper 000 Fig. 1',
    whatToLookFor: [
      'Raw messages beat loads; hops add time to every method; DMA is uneconomical for 10 words (its set-up cost dominates).',
      'The paper gives no values for Fig. 1, only this order.',
    ],
    experiments: [exp('tile-messages', { rounds: 3 }, TILE64)],
    chart: { x: 'words', y: 'cycles', series: ['method', 'hops'] },
  },
  {
    id: 'cluster-rtt',
    title: 'A 1999 cluster: round trip, lock and barrier over UDP',
    summary: "Paper 004's 32 Pentium II PCs on switched 100 Mbps Ethernet: a 1-byte ping-pong, a TreadMarks lock acquire through its manager (granted by the manager, or forwarded to the last holder) and a barrier of 4 to 32 nodes through a barrier manager.",
    source: 'paper 004 line 308; ../shared/reference/dsm.md section 1',
    whatToLookFor: [
      'Software, not the wire, dominates: each message costs about 31 us of CPU to send and 26-31 us to receive, while a minimum frame takes 6.7 us on each of its two links.',
      'A forwarded lock costs one message more than one the manager grants: the paper\'s 178-272 us range.',
      'The barrier grows linearly with the nodes: the manager receives every arrival and sends every departure, one after another (the lab is above the paper\'s 1,333 us at 32).',
    ],
    experiments: [4, 8, 16, 32].map((processors) => exp('cluster-rtt', { processors }, CLUSTER)),
    sweep: { param: 'processors', values: [4, 8, 16, 32] },
    chart: { x: 'processors', y: 'timeNs', series: 'measurement' },
    paper: { source: 'paper 004 line 308', rowField: 'paperNs', note: 'The paper gives the lock as a range (178-272 us) and the barrier at 32 processors only.' },
  },
  {
    id: 'dsm-sor-page',
    title: 'Distributed shared memory on a 1999 cluster: Red-Black SOR on TreadMarks-style pages',
    summary: "Paper 004's SOR on the page-based runtime (lazy release consistency, twins and diffs, write notices at barriers) over the cluster model, on 4 to 32 processors at the interactive size.",
    source: 'paper 004 Tables 1 and 4; ../shared/reference/dsm.md sections 3 and 5-7',
    whatToLookFor: [
      'Only the band edges travel: each processor fetches its neighbours\' boundary rows after every colour phase, one diff request per page (the overlapped requests grow with the processors, not with the grid).',
      'The Pages view shows each node\'s pages: its own band read-write with twins during a phase, the neighbours\' edge pages invalid after a barrier until the first access fetches the diffs.',
      'At 32 processors the barrier manager\'s departures, carrying every write notice, serialise on its one 100 Mbps link: at paper size the lab sends 2.5x the paper\'s bytes in almost exactly its messages (see the issue note).',
    ],
    experiments: [4, 8, 16, 32].map((processors) => exp('dsm', { runtime: 'page', app: 'sor', processors }, CLUSTER)),
    sweep: { param: 'processors', values: [4, 8, 16, 32] },
    chart: { x: 'processors', y: 'timeNs', series: 'runtime' },
    paper: { source: 'paper 004 Table 4', note: 'The paper measured 32 processors at 3070 x 2047 and 4094 x 2047 (size paper-sm, paper-lg): those runs carry paper columns and ratios; this interactive size has no paper value.' },
  },
  {
    id: 'dsm-sor-cluster-vs-scc',
    title: 'One DSM protocol, two machines: SOR on the 1999 cluster and on the SCC',
    summary:
      "The same Red-Black SOR on the same page-based runtime (TreadMarks-style lazy release consistency) on 4 to 32 processors: first on paper 004's Ethernet cluster, then on the SCC, where the datagrams travel through the message-passing buffers (mailbox lines, interrupt status, pieces of 2 KB) and the pages live in each core's private DRAM.",
    source: 'paper 004 Tables 1 and 4; paper 003 lines 862-893 (MetalSVM mailboxes); ../shared/reference/dsm.md, scc.md sections 2 and 4',
    whatToLookFor: [
      'The protocol does not change with the machine: messages, bytes, overlapped requests, faults, write notices, diffs and twins are equal run for run on both chips (compare the rows); only the time differs.',
      'The cluster pays about 30 us of software per message and 100 Mbps links; on the SCC a piece costs a few microseconds of MPB traffic. With few processors the computation dominates and the SCC is about 2x faster (4 and 8 processors); with more, communication does, and the SCC is about 4x faster at 16 and 7x at 32.',
      "Neither scales well at this size: the barrier manager sends every departure, carrying every write notice, one after another; on the SCC each piece also waits for the receiver's copy into private DRAM (no write-allocate: one memory transaction per 4-byte store).",
      "The object runtime runs on the SCC too (set runtime to object: the SCC core maps the storage three times, one view per protection level, as mmap does on the cluster): its counts equal its cluster run's; at 32 processors it takes 24.1 ms on the SCC against 139.9 ms on the cluster (not in this sweep, to keep it short).",
    ],
    experiments: (['cluster-1999', 'scc'] as const).flatMap((preset) => [4, 8, 16, 32].map((processors) => exp('dsm', { runtime: 'page', app: 'sor', processors }, { preset }))),
    sweep: { param: 'processors', values: [4, 8, 16, 32] },
    chart: { x: 'processors', y: 'timeNs', series: 'chip', logY: true },
  },
  {
    id: 'dsm-water-spatial-page',
    title: 'False sharing on pages: Water-Spatial on the page-based runtime',
    summary: 'SPLASH-2 Water-Spatial (molecules in boxes, each processor owning a fixed block of boxes) on the page-based runtime: molecules of different processors share pages, so pages carry multiple writers, twins and diffs.',
    source: 'paper 004 Table 3; ../shared/reference/dsm.md sections 5-7',
    whatToLookFor: [
      'Messages grow much faster than with SOR: a page holds molecules of several processors, so a fault asks several writers for diffs at once.',
      'The object runtime (a later step of this issue) fetches whole molecules instead; the paper reports 3x fewer messages at 32 processors.',
    ],
    experiments: [4, 8, 16, 32].map((processors) => exp('dsm', { runtime: 'page', app: 'water-spatial', processors }, CLUSTER)),
    sweep: { param: 'processors', values: [4, 8, 16, 32] },
    chart: { x: 'processors', y: 'messages', series: 'runtime' },
  },
  {
    id: 'dsm-fetch',
    title: 'What a diff costs on the 1999 cluster',
    summary: "The page runtime's own fault path: a read fault on a page another processor changed, the diff request, the writer's lazy diff, the reply and its application, for diffs of 4 B to a whole page, beside paper 004's 313-1,544 us.",
    source: 'paper 004 line 308',
    whatToLookFor: ['Software dominates small diffs (two messages, a trap, mprotect calls); the wire adds about 0.34 ms for a page-sized diff.', 'The lab is below the paper: the kernel costs are model values (see the preset).'],
    experiments: [exp('dsm-fetch', {}, CLUSTER)],
    chart: { x: 'changedBytes', y: 'timeNs', series: 'measurement' },
    paper: { source: 'paper 004 line 308', rowField: 'paperNs', note: 'The paper gives the diff time as a range (313-1,544 us) and the full page as 1,308 us.' },
  },
  {
    id: 'mesh-memtest-128',
    title: 'Memory latency across a 128-core mesh',
    summary: 'SCC tiles on an 8 x 8 mesh (128 cores, the four controllers on its edges): one core at each distance from controller 0, up to 14 hops, reads and writes its DRAM.',
    whatToLookFor: [
      'The same 10 ns per hop as on the 48-core SCC, now over 14 hops: the far corner waits about twice as long as the controller\'s neighbour.',
      'Only one core runs at a time; the path to MC0 is the only traffic on the chip.',
    ],
    experiments: [exp('memtest', { controller: 0, accesses: 16 }, mesh(8, 8))],
    chart: { x: 'hops', y: 'latencyNs', series: 'op' },
  },
  {
    id: 'mesh-stream-scaling',
    title: 'DRAM streaming on bigger meshes: four controllers do not scale',
    summary: 'Every core streams 32 KB from DRAM on meshes of 48, 128, 256 and 512 cores; the chip keeps its four memory controllers.',
    whatToLookFor: [
      'The slowest core\'s time grows with the core count: the four controllers serve 12 cores each on the SCC and 128 each on the 512-core mesh.',
      'On the chip view of a big run, the controller queues and the links next to the controllers are the hot spots.',
    ],
    experiments: [
      exp('l1-stream', { cores: 48, bufferBytes: 32768, loads: 500, strideBytes: 32 }),
      exp('l1-stream', { cores: 128, bufferBytes: 32768, loads: 500, strideBytes: 32 }, mesh(8, 8)),
      exp('l1-stream', { cores: 256, bufferBytes: 32768, loads: 500, strideBytes: 32 }, mesh(16, 8)),
      exp('l1-stream', { cores: 512, bufferBytes: 32768, loads: 500, strideBytes: 32 }, mesh(16, 16)),
    ],
    sweep: { param: 'cores', values: [48, 128, 256, 512] },
    chart: { x: 'cores', y: 'timeNs', aggregate: 'max', logX: true },
    metric: 'stall-l2Miss',
  },
];
