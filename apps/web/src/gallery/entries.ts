/**
 * The guided-experiments gallery. Data only: each entry is a title, what to look for, and
 * the experiment itself (the same object a share link carries). Workloads add their own
 * entries by appending to GALLERY; the first entry is the lab's default experiment.
 */
import type { ExperimentInput } from '@manycore/engine';

export interface GuidedExperiment {
  id: string;
  title: string;
  /** One or two sentences: what the experiment shows. */
  summary: string;
  /** Things to watch while it runs and in its results. */
  whatToLookFor: string[];
  experiment: ExperimentInput;
  /** Chip-view metric to select when loading (an id from CORE_METRICS). */
  metric?: string;
}

export const GALLERY: GuidedExperiment[] = [
  {
    id: 'dram-stream',
    title: 'All 48 cores stream from DRAM',
    summary:
      'Every core walks a 1 MB buffer in its private memory, one 32-byte line per load, so each load goes to the nearest of the four memory controllers.',
    whatToLookFor: [
      'The links towards the four memory controllers light up; routing is X then Y, so traffic runs along a row before turning.',
      'The controller queue chart climbs: 12 cores share each controller.',
      'Cores spend most of their time stalled on L2 misses (the stall chart), not computing.',
      'What-if: set island 0 to divisor 8 while it runs. Its power drops by more than half, yet its cores barely slow: they were waiting for memory anyway.',
    ],
    experiment: {
      version: 1,
      chip: { preset: 'scc', overrides: {} },
      workload: { name: 'l1-stream', params: { cores: 48, bufferBytes: 1048576, loads: 3000, strideBytes: 32 } },
    },
    metric: 'stall-l2Miss',
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
    experiment: { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'memtest', params: { controller: 0, accesses: 64 } } },
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
    experiment: { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'mpb-pingpong', params: { hops: 8, bytes: 1024, iterations: 16 } } },
    metric: 'mpb',
  },
  {
    id: 'pingpong-near',
    title: 'MPB ping-pong between neighbours',
    summary: 'The same ping-pong between core 0 and a core one hop away, with a 32-byte payload.',
    whatToLookFor: ['A short round trip: one hop and a single line per message.', 'Use it as A and the cross-chip entry as B in Compare to see the deltas.'],
    experiment: { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'mpb-pingpong', params: { hops: 1, bytes: 32, iterations: 16 } } },
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
    experiment: { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'stale-read', params: { writer: 0, reader: 5, mode: 'both' } } },
  },
  {
    id: 'l1-resident',
    title: 'Everything fits in L1',
    summary: 'All 48 cores loop over an 8 KB buffer that stays in their L1 caches.',
    whatToLookFor: ['Cores are busy nearly all the time; links and memory controllers stay dark.', 'Contrast with "All 48 cores stream from DRAM".'],
    experiment: { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'l1-stream', params: { cores: 48, bufferBytes: 8192, loads: 20000 } } },
  },
];
