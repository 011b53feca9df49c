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
