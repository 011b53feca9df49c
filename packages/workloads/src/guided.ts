/**
 * Guided experiments for the SCC message-passing and DVFS trends (issue 4; scc.md sections 2,
 * 3, 5, 6) and for the pipeline, n-body ring and concordance workloads (issue 5; sections 7, 8). Each entry is data the web lab shows: a title, what to look for, the experiments
 * to run (one, or a sweep of one parameter), and a chart hint over the workload's rows.
 */
import type { ExperimentInput } from '@manycore/engine';

export interface GuidedExperiment {
  id: string;
  title: string;
  /** scc.md section(s) the trend comes from */
  source: string;
  whatToLookFor: string;
  /** the experiments to run, in order; a sweep varies one workload parameter */
  experiments: ExperimentInput[];
  /** present when `experiments` is a sweep of one parameter */
  sweep?: { param: string; values: (number | string | boolean)[] };
  /** how to chart the rows of all the experiments together */
  chart?: { x: string; y: string; series?: string; logX?: boolean; logY?: boolean };
}

type Params = Record<string, number | string | boolean>;

function exp(workload: string, params: Params): ExperimentInput {
  return { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: workload, params } };
}

function sweep(workload: string, base: Params, param: string, values: (number | string | boolean)[]): ExperimentInput[] {
  return values.map((v) => exp(workload, { ...base, [param]: v }));
}

const HOPS = [0, 1, 2, 3, 8];
const DIVISORS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

export const guidedExperiments: GuidedExperiment[] = [
  {
    id: 'rckmpi-sendrecv-channels',
    title: 'RCKMPI Sendrecv at 48 processes: original vs improved channel',
    source: 'scc.md 3',
    whatToLookFor:
      'Both channels cost the same for tiny messages: every pass of the progress engine reads the metadata of all 47 sections either way. Above about 128 B the original layout (160 B sections, 148 B of payload) needs one round trip per section-full while the improved one streams 128 B slots from the sender\'s 4 KB extended section: at 16 KB the improved channel is several times faster. Compare sectionReads per run too.',
    experiments: sweep('mpi-sweep', { op: 'sendrecv', processes: 48 }, 'channel', ['original', 'improved']),
    sweep: { param: 'channel', values: ['original', 'improved'] },
    chart: { x: 'bytes', y: 'latencyNs', series: 'channel', logX: true, logY: true },
  },
  {
    id: 'rckmpi-polling-vs-processes',
    title: 'Polling cost grows with the number of processes',
    source: 'scc.md 3',
    whatToLookFor:
      'A 1 KB Sendrecv ring at 2..48 processes. Each pass reads one section header per process, so latency climbs with the process count; the original layout also shrinks its sections (8 KB / n), so its packets per message grow as well.',
    experiments: [2, 4, 8, 16, 32, 48].flatMap((n) =>
      (['original', 'improved'] as const).map((channel) => exp('mpi-sweep', { op: 'sendrecv', processes: n, channel, sizes: '1024' })),
    ),
    sweep: { param: 'processes', values: [2, 4, 8, 16, 32, 48] },
    chart: { x: 'processes', y: 'latencyNs', series: 'channel' },
  },
  {
    id: 'rckmpi-collectives',
    title: 'Gather and Scatter at 48 processes',
    source: 'scc.md 3',
    whatToLookFor:
      'Binomial-tree Gather and Scatter move many medium messages through the root: the improved channel is several times faster over most sizes. Watch the message matrix: the root talks to 6 children, inner nodes forward whole subtrees.',
    experiments: (['gather', 'scatter'] as const).flatMap((op) =>
      (['original', 'improved'] as const).map((channel) => exp('mpi-sweep', { op, processes: 48, channel, maxBytes: 16384 })),
    ),
    chart: { x: 'bytes', y: 'latencyNs', series: 'channel', logX: true, logY: true },
  },
  {
    id: 'rckmpi-bcast-256k',
    title: 'A 256 KB broadcast to 48 processes',
    source: 'scc.md 3',
    whatToLookFor:
      'The binomial broadcast sends 256 KB down 6 levels. The original channel moves it 148 B per round trip, the improved one 2 KB packets double-buffered in the 32-slot extended section (watch its occupancy mask): several times faster.',
    experiments: sweep('mpi-sweep', { op: 'bcast', processes: 48, sizes: '262144', iterations: 1, warmup: 0 }, 'channel', ['original', 'improved']),
    sweep: { param: 'channel', values: ['original', 'improved'] },
    chart: { x: 'channel', y: 'latencyNs' },
  },
  {
    id: 'rckmpi-barrier',
    title: 'Barrier: no difference',
    source: 'scc.md 3',
    whatToLookFor: 'A dissemination barrier sends only empty messages (6 rounds at 48 processes): both channels take about the same time.',
    experiments: sweep('mpi-sweep', { op: 'barrier', processes: 48, iterations: 4 }, 'channel', ['original', 'improved']),
    sweep: { param: 'channel', values: ['original', 'improved'] },
    chart: { x: 'channel', y: 'latencyNs' },
  },
  {
    id: 'rcce-pair-hops',
    title: 'Stencil and Pingpong time vs hop distance',
    source: 'scc.md 6',
    whatToLookFor:
      'One pair at 0, 1, 2, 3 and 8 hops. Every remote MPB access (flag writes under the test-and-set lock, pulling the partner\'s chunk) pays 2 x 4 mesh cycles per hop, so pair time grows linearly from 1 to 8 hops. At 0 hops both cores share a tile: the MPB is local (15 instead of 45 core cycles), so that point sits below the line.',
    experiments: (['stencil', 'pingpong'] as const).flatMap((benchmark) => HOPS.map((hops) => exp('rcce-pair', { benchmark, hops }))),
    sweep: { param: 'hops', values: HOPS },
    chart: { x: 'hops', y: 'timeNs', series: 'benchmark' },
  },
  {
    id: 'rcce-pair-scaling',
    title: 'Adding pairs: the mesh keeps up, memory does not',
    source: 'scc.md 6',
    whatToLookFor:
      '1 to 24 pairs at 1 hop. Shift and Stencil pairs only use their own MPBs and links: 24 pairs run as fast as one. Share pairs stream uncached DRAM, 12 cores per memory controller: with 24 pairs the controllers saturate and the pairs slow down (see the controller queue in the results).',
    experiments: (['share', 'shift', 'stencil'] as const).flatMap((benchmark) => [1, 6, 12, 24].map((pairs) => exp('rcce-pair', { benchmark, pairs }))),
    sweep: { param: 'pairs', values: [1, 6, 12, 24] },
    chart: { x: 'pairs', y: 'timeNs', series: 'benchmark' },
  },
  {
    id: 'rcce-power-vs-cores',
    title: 'Chip power vs active cores',
    source: 'scc.md 1, 6',
    whatToLookFor:
      'At 533/800/800 one busy pair draws about 31.6 W and 24 Stencil pairs (all 48 cores) about 50.8 W, linearly in between. Power follows activity: Share cores mostly stall on memory and draw the least, Stencil the most.',
    experiments: [
      ...[1, 2, 4, 8, 12, 16, 20, 24].map((pairs) => exp('rcce-pair', { benchmark: 'stencil', pairs })),
      ...(['share', 'shift', 'pingpong'] as const).map((benchmark) => exp('rcce-pair', { benchmark, pairs: 24 })),
    ],
    chart: { x: 'pairs', y: 'powerW', series: 'benchmark' },
  },
  {
    id: 'rcce-bcast-receivers',
    title: 'RCCE broadcast: IPC vs receivers',
    source: 'scc.md 6',
    whatToLookFor:
      "The study's Bcast: the root sends Pingpong's message mix to 1..47 receivers with blocking RCCE sends, one receiver at a time (hypothesis H1). IPC is instructions / wall-clock cycles, averaged over the root and the receivers. With no receiver work it falls from N = 1 toward the IPC of a core spinning on its flag; with work between messages (one series per work setting, instructions) it peaks where the root becomes the bottleneck, later the more work. The paper's peak is at N = 8. The rows also give messages (RCCE_put/get calls) per instruction.",
    experiments: [0, 20_000, 100_000].flatMap((work) => [1, 2, 4, 6, 8, 12, 16, 24, 32, 47].map((receivers) => exp('rcce-bcast', { receivers, work }))),
    sweep: { param: 'receivers', values: [1, 2, 4, 6, 8, 12, 16, 24, 32, 47] },
    chart: { x: 'receivers', y: 'ipc', series: 'work' },
  },
  {
    id: 'dvfs-memory-bound',
    title: 'Memory-bound kernels under DVFS: fewer cycles, more time',
    source: 'scc.md 5',
    whatToLookFor:
      'The dot product at divisors 2..16. A DRAM access costs 40 core cycles plus a fixed 57.5 ns in the memory clock: the slower the core, the fewer core cycles it waits, so cycles fall while wall time rises.',
    experiments: sweep('dvfs-kernels', { kernel: 'dot' }, 'divisor', DIVISORS),
    sweep: { param: 'divisor', values: DIVISORS },
    chart: { x: 'divisor', y: 'cycles' },
  },
  {
    id: 'dvfs-efficiency',
    title: 'GFlops/W vs divisor',
    source: 'scc.md 5',
    whatToLookFor:
      "GFlops/W with the paper's power model (C V^2 f of the core, gflopsPerWattPaper): it jumps from divisor 2 (1.1 V) to 5 (0.6 V) because power goes with V squared, then the memory-bound dot product and matrix-vector product gain about a quarter more to 16 (fewer core cycles per DRAM access) while the compute-bound matrix product stays flat. The rows also give gflopsPerW with the lab's full core power (activity and leakage), which falls slowly past 5 as leakage takes a larger share.",
    experiments: (['dot', 'matvec', 'matmul'] as const).flatMap((kernel) => [2, 3, 4, 5, 8, 12, 16].map((divisor) => exp('dvfs-kernels', { kernel, divisor }))),
    sweep: { param: 'divisor', values: [2, 3, 4, 5, 8, 12, 16] },
    chart: { x: 'divisor', y: 'gflopsPerWattPaper', series: 'kernel' },
  },
  {
    id: 'rcce-vs-socket',
    title: 'RCCE vs a socket-like transport',
    source: 'scc.md 2',
    whatToLookFor:
      'The same round trip through RCCE and through a socket-like stack with a 1500 B MTU over the same mesh. For small messages RCCE is tens of times faster: the socket path pays system calls, protocol processing, an interrupt, a wake-up and two extra copies per message.',
    experiments: (['rcce', 'socket'] as const).flatMap((transport) => [1, 64, 1024, 4096, 16384].map((bytes) => exp('socket-pingpong', { transport, bytes }))),
    chart: { x: 'bytes', y: 'roundTripNs', series: 'transport', logX: true, logY: true },
  },
  {
    id: 'rcce-chunking',
    title: 'RCCE moves messages in 8160 B chunks',
    source: 'scc.md 2',
    whatToLookFor:
      'RCCE round trips at 8160, 8161 and 16320 B. One more byte than 8160 needs a second chunk: another round of flags (sent in the receiver\'s MPB, ready in the sender\'s) on top of the extra byte. In the MPB view, watch the sender fill its own communication buffer and the flag bits flip.',
    experiments: sweep('socket-pingpong', { transport: 'rcce', iterations: 4 }, 'bytes', [8159, 8160, 8161, 16320]),
    sweep: { param: 'bytes', values: [8159, 8160, 8161, 16320] },
    chart: { x: 'bytes', y: 'roundTripNs' },
  },
  {
    id: 'pipeline-dram-hops',
    title: 'Shared DRAM: 4 MB read and written on each controller',
    source: 'scc.md 7',
    whatToLookFor:
      'Core 0 and core 47 each read and then write 4 MB of uncached shared memory on each of the four controllers (the LUT maps the shared window in four groups of 15 pages). Every 4 B access of the 32-bit word loop crosses the mesh there and back, 2 x 4 mesh cycles per hop on top of 40 core and 46 memory cycles: time grows linearly with the hops to the controller (0 to 8), the same slope for reads and writes.',
    experiments: [0, 47].map((core) => exp('dram-hops', { core })),
    sweep: { param: 'core', values: [0, 47] },
    chart: { x: 'hops', y: 'timeNs', series: 'op' },
  },
  {
    id: 'pipeline-private-vs-d',
    title: 'Pipeline, private memory: time linear in D',
    source: 'scc.md 7',
    whatToLookFor:
      'Eight stages forward 64 KB chunks with RCCE (8160 B pieces through the MPBs) into a private buffer and add 1 to every 32-bit word in place, as the paper\'s code does. The buffers are not pre-touched: with no write-allocate the first chunk\'s receive writes every word to DRAM, later chunks find the buffer in L2 (preTouch: true is the what-if). Doubling D doubles the chunks: time is a straight line in D, offset by filling the pipeline (stages - 1 chunk times). Watch the stage timeline: each stage waits for its input, works, then waits for the next stage to take the chunk.',
    experiments: sweep('pipeline', { mode: 'private', chunkBytes: 65536 }, 'dataBytes', [262144, 524288, 1048576, 2097152]),
    sweep: { param: 'dataBytes', values: [262144, 524288, 1048576, 2097152] },
    chart: { x: 'dataBytes', y: 'timeNs' },
  },
  {
    id: 'pipeline-uncached-vs-c',
    title: 'Pipeline, uncached shared memory: time set by D, not by C',
    source: 'scc.md 7',
    whatToLookFor:
      'The chunks stay in a queue of stages - 1 slots in uncached shared DRAM, allocated from the start of the shared window (the paper\'s LUT set-up puts it on the controller at (0,0)); every stage adds 1 to each 32-bit word of its slot in place, one 4 B read and one 4 B write transaction per word, and only 32 B tokens travel, in a ring (the last stage returns each token to the first). The time per byte is the same at any chunk size: the bars are flat over C (and grow in proportion to D). The controllers\' request counts show that MC0 serves everything.',
    experiments: sweep('pipeline', { mode: 'uncached-shared', stages: 4 }, 'chunkBytes', [4096, 16384, 65536]),
    sweep: { param: 'chunkBytes', values: [4096, 16384, 65536] },
    chart: { x: 'chunkBytes', y: 'timeNs', logX: true },
  },
  {
    id: 'pipeline-cached-vs-c',
    title: 'Pipeline, cached shared memory: the flushes set the pace',
    source: 'scc.md 7',
    whatToLookFor:
      'With no coherence every stage flushes its whole cache before reading a chunk and after writing it (2 flushes per chunk per core, the SCC\'s software flush reads an L2-sized region). The in-place add reads each line before writing it, so its stores hit; the first stage\'s copy into the slot and the last stage\'s copy to the output write into lines the flush has just evicted, and with no write-allocate each 32-bit store is a DRAM transaction (allocateOnWrite: true is the what-if). A flush costs the same at any chunk size, so small chunks are dominated by flushes (flushShare) and slow; as C grows the flushes are amortised (up to 256 KB here: beyond it 2 MB makes too few chunks to keep 4 stages busy). Private mode slows down as C grows (its chunk buffer fills L2 from 256 KB on), so above 256 KB cached shared memory is the faster one.',
    experiments: (['cached-shared', 'private'] as const).flatMap((mode) =>
      [16384, 65536, 262144, 524288, 1048576].map((chunkBytes) => exp('pipeline', { mode, stages: 4, dataBytes: 2097152, chunkBytes })),
    ),
    sweep: { param: 'chunkBytes', values: [16384, 65536, 262144, 524288, 1048576] },
    chart: { x: 'chunkBytes', y: 'timeNs', series: 'mode', logX: true, logY: true },
  },
  {
    id: 'pipeline-snake-order',
    title: '48 stages: snake order vs id order',
    source: 'scc.md 7',
    whatToLookFor:
      'In id order stage 11 hands over to stage 12 across the whole mesh (6 hops), likewise 23-24 and 35-36, and the last stage (core 47) is 8 hops from the controller at (0,0) that holds the shared queue and output; in snake order every neighbour is on the same tile or one hop away and the last stage (core 36) is 3 hops from it. With one 256 KB chunk snake order is a little faster in every mode and, as in the paper\'s Table I, most in cached shared mode (about 0.2 % private, 0.6 % uncached, 1.1 % cached). The cached gain comes mostly from the last stage copying the chunk to the output one 4 B store at a time (no write-allocate) from farther away: compare allocateOnWrite: true or ioBuffers: \'private\'.',
    experiments: (['private', 'uncached-shared', 'cached-shared'] as const).flatMap((mode) =>
      (['id', 'snake'] as const).map((order) => exp('pipeline', { mode, order, stages: 48, dataBytes: 262144, chunkBytes: 262144 })),
    ),
    sweep: { param: 'order', values: ['id', 'snake'] },
    chart: { x: 'order', y: 'timeNs', series: 'mode' },
  },
  {
    id: 'pipeline-allocate-on-write',
    title: 'Pipeline what-if: software allocate-on-write',
    source: 'scc.md 1, 7, 9',
    whatToLookFor:
      'The paper\'s code copies with plain stores. The SCC\'s caches do not allocate on a write miss, so the first stage\'s copy into a flushed queue slot and the last stage\'s copy to the output send every 32-bit store to DRAM. With allocateOnWrite the copies load one word of each destination line first: the stores hit and each line goes back whole at the next flush. Compare dramWrites and timeNs (cached shared and private; uncached pages never cache, so nothing changes there).',
    experiments: (['cached-shared', 'private'] as const).flatMap((mode) => ([false, true] as const).map((allocateOnWrite) => exp('pipeline', { mode, allocateOnWrite }))),
    sweep: { param: 'allocateOnWrite', values: [false, true] },
    chart: { x: 'allocateOnWrite', y: 'dramWrites', series: 'mode' },
  },
  {
    id: 'pipeline-pre-touch',
    title: 'Pipeline what-if: pre-touched receive buffers',
    source: 'scc.md 1, 7',
    whatToLookFor:
      'Private mode as the paper ran it: every stage receives into a malloc\'d buffer nobody has read, so the first chunk\'s receive writes every word to DRAM (no write-allocate); later chunks find the buffer in L2. With preTouch every stage reads its buffer once before the timed run and even the first chunk\'s receive hits: dramWrites fall by about one chunk\'s words per stage. The effect is largest when there are few chunks (D close to C).',
    experiments: ([65536, 262144] as const).flatMap((chunkBytes) => ([false, true] as const).map((preTouch) => exp('pipeline', { mode: 'private', chunkBytes, preTouch }))),
    sweep: { param: 'preTouch', values: [false, true] },
    chart: { x: 'preTouch', y: 'timeNs', series: 'chunkBytes' },
  },
  {
    id: 'nbody-ring-workers',
    title: 'N-body ring: more workers, slower steps',
    source: 'scc.md 8',
    whatToLookFor:
      'A controller and 1..16 workers pass one ~65 KB text message (1024 bodies x 7 numbers of 9 characters) around the ring twice per step. The workers share the N^2 force computation (a N^2 / p), but every ring member decodes and re-encodes the whole message at every hop (b N p): the step time is lowest at 2-3 workers and rises steeply by 16. With binary messages (encoding: binary) only the RCCE copies remain per hop and the best count moves to about 16.',
    experiments: sweep('nbody-ring', { steps: 2 }, 'workers', [1, 2, 3, 4, 6, 8, 12, 16]),
    sweep: { param: 'workers', values: [1, 2, 3, 4, 6, 8, 12, 16] },
    chart: { x: 'workers', y: 'stepNs' },
  },
  {
    id: 'concordance-cores',
    title: 'Concordance: a serialising file server',
    source: 'scc.md 8',
    whatToLookFor:
      'Every core reads the whole text from shared memory and hashes every phrase, counting only its own; the file server (on the first core) then appends the other cores\' records one RCCE message at a time. The shared counting shrinks with the cores, but each record that is not the server\'s costs a message round trip in a single queue: 2 cores are slower than 1, and beyond 8 cores there is nothing left to gain.',
    experiments: sweep('concordance', {}, 'cores', [1, 2, 4, 8, 16]),
    sweep: { param: 'cores', values: [1, 2, 4, 8, 16] },
    chart: { x: 'cores', y: 'timeNs' },
  },
];
