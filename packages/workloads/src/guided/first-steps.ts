/**
 * First steps on the SCC: single runs that show one mechanism each (the web gallery's original
 * entries; their ids are kept, and the first is the lab's default experiment), and a quick sweep.
 */
import { exp, type GuidedExperiment } from './types';

export const firstSteps: GuidedExperiment[] = [
  {
    id: 'dram-stream',
    title: 'All 48 cores stream from DRAM',
    summary:
      'Every core walks a 1 MB buffer in its private memory, one 32-byte line per load, so each load goes to the nearest of the four memory controllers. Loaded from the gallery it starts at 10 us of simulated time per second, to leave time for the what-if below (choose a faster speed above the chip to finish sooner).',
    whatToLookFor: [
      'The links towards the four memory controllers light up; routing is X then Y, so traffic runs along a row before turning.',
      'The memory-controller backlog chart climbs: 12 cores share each controller.',
      'Cores spend most of their time stalled on L2 misses (the stall chart), not computing.',
      'What-if: set island 0 to divisor 8 while it runs. Its power drops by more than half, yet its cores barely slow: they were waiting for memory anyway.',
    ],
    experiments: [exp('l1-stream', { cores: 48, bufferBytes: 1048576, loads: 3000, strideBytes: 32 })],
    metric: 'stall-l2Miss',
    speedNsPerS: 1e4,
    embed: { control: { islandDivisor: 0 } },
  },
  {
    id: 'memtest-hops',
    title: 'Memory latency grows with hops',
    summary: 'One core at each distance from memory controller 0 reads and writes its DRAM, one access at a time.',
    whatToLookFor: [
      'In the results, latency rises by the same step for every extra hop: 2 x 4 mesh cycles = 10 ns at 800 MHz.',
      'The measured latency matches the SCC formula column (40 core + 8 x hops mesh + 46 memory cycles).',
      'On the chip, only the path from each core to MC0 carries traffic, and only one core runs at a time.',
    ],
    experiments: [exp('memtest', { controller: 0, accesses: 64 })],
    chart: { x: 'hops', y: 'latencyNs', series: 'op' },
  },
  {
    id: 'pingpong-far',
    title: 'MPB ping-pong across the chip',
    summary: 'Core 0 and a core 8 hops away bounce a 1 KB message and a flag through the message-passing buffers.',
    whatToLookFor: [
      'The message matrix shows exactly two cores talking.',
      'Compare with the next entry (1 hop, 32 bytes): the round trip grows with distance and with payload.',
      'Colour cores by "MPB occupancy" to see the two tiles whose buffers hold the message.',
    ],
    experiments: [exp('mpb-pingpong', { hops: 8, bytes: 1024, iterations: 16 })],
    metric: 'mpb',
  },
  {
    id: 'pingpong-near',
    title: 'MPB ping-pong between neighbours',
    summary: 'The same ping-pong between core 0 and a core one hop away, with a 32-byte payload.',
    whatToLookFor: ['A short round trip: one hop and a single line per message.', 'Use it as A and the cross-chip entry as B in Compare to see the deltas.'],
    experiments: [exp('mpb-pingpong', { hops: 1, bytes: 32, iterations: 16 })],
    metric: 'mpb',
  },
  {
    id: 'pingpong-hops',
    title: 'MPB round trip vs hops (a quick sweep)',
    summary: 'The 32-byte ping-pong at 1 to 8 hops: eight short runs, one point each.',
    whatToLookFor: [
      'The round trip grows by the same step for every extra hop: each message and each flag crosses the mesh, 4 mesh cycles per hop each way.',
      'The line does not start at zero: copying into the MPB and polling the flag cost the same at any distance.',
    ],
    experiments: [1, 2, 3, 4, 5, 6, 7, 8].map((hops) => exp('mpb-pingpong', { hops, bytes: 32, iterations: 4 })),
    sweep: { param: 'hops', values: [1, 2, 3, 4, 5, 6, 7, 8] },
    chart: { x: 'hops', y: 'roundTripNs' },
    metric: 'mpb',
  },
  {
    id: 'stale-read',
    title: 'Stale read without a flush',
    summary: 'The SCC has no cache coherence. A writer updates a word that a reader has cached.',
    whatToLookFor: [
      'Without flushes the reader keeps seeing its stale copy (valueSeen 0 while valueWritten is 42).',
      'With a flush on both sides the reader sees the new value.',
    ],
    experiments: [exp('stale-read', { writer: 0, reader: 5, mode: 'both' })],
  },
  {
    id: 'l1-resident',
    title: 'Everything fits in L1',
    summary: 'All 48 cores loop over an 8 KB buffer that stays in their L1 caches.',
    whatToLookFor: ['Cores are busy nearly all the time; links and memory controllers stay dark.', 'Contrast with "All 48 cores stream from DRAM".'],
    experiments: [exp('l1-stream', { cores: 48, bufferBytes: 8192, loads: 20000 })],
  },
];
