/**
 * The SCC papers' trends as sweeps (issue 4: scc.md sections 2, 3, 5, 6; issue 5: sections 7,
 * 8): RCKMPI channels, the RCCE study, DVFS, the pipeline, the n-body ring and the concordance.
 * Where a paper measured a charted quantity its values come from the fidelity module.
 */
import { CONCORDANCE_TABLE_3, DVFS_DOT_16_OVER_5, METALSVM_CORES, METALSVM_SETUPS, METALSVM_SVM_OVER_MP_1_CORE, NBODY_TABLE_5, PIPELINE_TABLE_1, RCCE_POWER_W, RCCE_TABLE_1, RCKMPI_FACTORS } from '../fidelity/index';
import { exp, sweep, type GuidedExperiment } from './types';

const HOPS = [0, 1, 2, 3, 8];
const DIVISORS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

export const sccStudies: GuidedExperiment[] = [
  {
    id: 'rckmpi-sendrecv-channels',
    title: 'RCKMPI Sendrecv at 48 processes: original vs improved channel',
    summary:
      'A Sendrecv ring of 48 MPI processes over message sizes from 1 B to 16 KB, once with RCKMPI\'s original channel and once with the improved one.',
    source: 'scc.md 3',
    whatToLookFor:
      ['Both channels cost the same for tiny messages: every pass of the progress engine reads the metadata of all 47 sections either way. Above about 128 B the original layout (160 B sections, 148 B of payload) needs one round trip per section-full while the improved one streams 128 B slots from the sender\'s 4 KB extended section: at 16 KB the improved channel is several times faster. Compare sectionReads per run too.'],
    experiments: sweep('mpi-sweep', { op: 'sendrecv', processes: 48 }, 'channel', ['original', 'improved']),
    sweep: { param: 'channel', values: ['original', 'improved'] },
    chart: { x: 'bytes', y: 'latencyNs', series: 'channel', logX: true, logY: true },
    paper: {
      source: 'paper 003 lines 340-370',
      points: RCKMPI_FACTORS.filter((f) => f.op === 'sendrecv').map((f) => ({
        x: f.bytes,
        y: 1 / f.factor,
        series: 'improved',
        label: `improved ${f.factor}x faster than original at ${f.bytes} B (line ${f.line})`,
        relativeTo: { series: 'original' },
      })),
    },
  },
  {
    id: 'rckmpi-polling-vs-processes',
    title: 'Polling cost grows with the number of processes',
    summary:
      'A 1 KB Sendrecv ring at 2 to 48 processes, both channels: 12 runs.',
    source: 'scc.md 3',
    whatToLookFor:
      ['A 1 KB Sendrecv ring at 2..48 processes. Each pass reads one section header per process, so latency climbs with the process count; the original layout also shrinks its sections (8 KB / n), so its packets per message grow as well.'],
    experiments: [2, 4, 8, 16, 32, 48].flatMap((n) =>
      (['original', 'improved'] as const).map((channel) => exp('mpi-sweep', { op: 'sendrecv', processes: n, channel, sizes: '1024' })),
    ),
    sweep: { param: 'processes', values: [2, 4, 8, 16, 32, 48] },
    chart: { x: 'processes', y: 'latencyNs', series: 'channel' },
  },
  {
    id: 'rckmpi-collectives',
    title: 'Gather and Scatter at 48 processes',
    summary:
      'Gather and Scatter of up to 16 KB at 48 processes, both channels.',
    source: 'scc.md 3',
    whatToLookFor:
      ['Binomial-tree Gather and Scatter move many medium messages through the root: the improved channel is several times faster over most sizes. Watch the message matrix: the root talks to 6 children, inner nodes forward whole subtrees.'],
    experiments: (['gather', 'scatter'] as const).flatMap((op) =>
      (['original', 'improved'] as const).map((channel) => exp('mpi-sweep', { op, processes: 48, channel, maxBytes: 16384 })),
    ),
    chart: { x: 'bytes', y: 'latencyNs', series: ['op', 'channel'], logX: true, logY: true },
    paper: {
      source: 'paper 003 lines 340-370',
      points: RCKMPI_FACTORS.filter((f) => f.op === 'gather' || f.op === 'scatter').map((f) => ({
        x: f.bytes,
        y: 1 / f.factor,
        series: `${f.op} improved`,
        label: `${f.op}: improved ${f.factor}x faster than original at ${f.bytes} B${f.note ? ` (${f.note})` : ''} (line ${f.line})`,
        relativeTo: { series: `${f.op} original` },
      })),
    },
  },
  {
    id: 'rckmpi-bcast-256k',
    title: 'A 256 KB broadcast to 48 processes',
    summary:
      'One 256 KB broadcast from rank 0 to 48 processes, both channels.',
    source: 'scc.md 3',
    whatToLookFor:
      ['The binomial broadcast sends 256 KB down 6 levels. The original channel moves it 148 B per round trip, the improved one 2 KB packets double-buffered in the 32-slot extended section (watch its occupancy mask): several times faster.'],
    experiments: sweep('mpi-sweep', { op: 'bcast', processes: 48, sizes: '262144', iterations: 1, warmup: 0 }, 'channel', ['original', 'improved']),
    sweep: { param: 'channel', values: ['original', 'improved'] },
    chart: { x: 'channel', y: 'latencyNs' },
    paper: {
      source: 'paper 003 lines 340-370',
      points: RCKMPI_FACTORS.filter((f) => f.op === 'bcast' && f.bytes === 262144).map((f) => ({
        x: 'improved',
        y: 1 / f.factor,
        label: `improved ${f.factor}x faster than original at 256 KB (line ${f.line})`,
        relativeTo: { x: 'original' },
      })),
    },
  },
  {
    id: 'rckmpi-barrier',
    title: 'Barrier: no difference',
    summary:
      'A barrier of 48 processes, both channels.',
    source: 'scc.md 3',
    whatToLookFor: ['A dissemination barrier sends only empty messages (6 rounds at 48 processes): both channels take about the same time.'],
    experiments: sweep('mpi-sweep', { op: 'barrier', processes: 48, iterations: 4 }, 'channel', ['original', 'improved']),
    sweep: { param: 'channel', values: ['original', 'improved'] },
    chart: { x: 'channel', y: 'latencyNs' },
    paper: { source: 'scc.md 3', points: [{ x: 'improved', y: 1, label: 'the same time with both channels (scc.md 3)', relativeTo: { x: 'original' } }] },
  },
  {
    id: 'rcce-pair-hops',
    title: 'Stencil and Pingpong time vs hop distance',
    summary:
      'One pair of cores runs the Stencil and the Pingpong benchmark of the RCCE study at 0, 1, 2, 3 and 8 hops apart.',
    source: 'scc.md 6',
    whatToLookFor:
      ['One pair at 0, 1, 2, 3 and 8 hops. Every remote MPB access (flag writes under the test-and-set lock, pulling the partner\'s chunk) pays 2 x 4 mesh cycles per hop, so pair time grows linearly from 1 to 8 hops. At 0 hops both cores share a tile: the MPB is local (15 instead of 45 core cycles), so that point sits below the line.'],
    experiments: (['stencil', 'pingpong'] as const).flatMap((benchmark) => HOPS.map((hops) => exp('rcce-pair', { benchmark, hops }))),
    sweep: { param: 'hops', values: HOPS },
    chart: { x: 'hops', y: 'timeNs', series: 'benchmark' },
  },
  {
    id: 'rcce-pair-scaling',
    title: 'Adding pairs: the mesh keeps up, memory does not',
    summary:
      '1, 6, 12 and 24 pairs of neighbouring cores run Share, Shift or Stencil at once.',
    source: 'scc.md 6',
    whatToLookFor:
      ['1 to 24 pairs at 1 hop. Shift and Stencil pairs only use their own MPBs and links: 24 pairs run as fast as one. Share pairs stream uncached DRAM, 12 cores per memory controller: with 24 pairs the controllers saturate and the pairs slow down (see the controller queue in the results).'],
    experiments: (['share', 'shift', 'stencil'] as const).flatMap((benchmark) => [1, 6, 12, 24].map((pairs) => exp('rcce-pair', { benchmark, pairs }))),
    sweep: { param: 'pairs', values: [1, 6, 12, 24] },
    chart: { x: 'pairs', y: 'timeNs', series: 'benchmark', aggregate: 'max' },
  },
  {
    id: 'rcce-table-1',
    title: 'IPC of two neighbouring cores, four benchmarks',
    summary: 'Share, Shift, Stencil and Pingpong on one pair of neighbouring cores, as in Table I of the RCCE study.',
    source: 'scc.md 6',
    whatToLookFor: [
      'The order: Share (uncached DRAM, mostly stalled) has the lowest IPC, Stencil the highest. The lab ranks them as the chip did but its values are higher: compute blocks retire one instruction per cycle, and a core polling a flag counts its poll loop.',
    ],
    experiments: RCCE_TABLE_1.map((b) => exp('rcce-pair', { benchmark: b.benchmark, hops: 1 })),
    sweep: { param: 'benchmark', values: RCCE_TABLE_1.map((b) => b.benchmark) },
    chart: { x: 'benchmark', y: 'ipc' },
    paper: { source: 'paper 003 lines 2987-3009 (Table I)', points: RCCE_TABLE_1.map((b) => ({ x: b.benchmark, y: b.ipc, label: `IPC ${b.ipc} (Table I)` })) },
  },
  {
    id: 'rcce-power-vs-cores',
    title: 'Chip power vs active cores',
    summary:
      '1 to 24 Stencil pairs (2 to 48 busy cores), and Share, Shift and Pingpong with 1 or 24 pairs: the chip\'s average power.',
    source: 'scc.md 1, 6',
    whatToLookFor:
      ['At 533/800/800 one busy pair draws about 31.6 W and 24 Stencil pairs (all 48 cores) about 50.8 W, linearly in between. Power follows activity: Share cores mostly stall on memory and draw the least, Stencil the most.'],
    experiments: [
      ...[1, 2, 4, 8, 12, 16, 20, 24].map((pairs) => exp('rcce-pair', { benchmark: 'stencil', pairs })),
      exp('rcce-pair', { benchmark: 'share', pairs: 1 }),
      ...(['share', 'shift', 'pingpong'] as const).map((benchmark) => exp('rcce-pair', { benchmark, pairs: 24 })),
    ],
    chart: { x: 'pairs', y: 'powerW', series: 'benchmark', aggregate: 'max' },
    paper: {
      source: 'paper 003 lines 3190-3196 (533/800/800)',
      points: [
        { x: 1, y: RCCE_POWER_W.onePair, series: 'share', label: `${RCCE_POWER_W.onePair} W with one Share pair (line 3192)` },
        { x: 24, y: RCCE_POWER_W.allCores, series: 'share', label: `${RCCE_POWER_W.allCores} W with 24 Share pairs (lines 3193-3194)` },
      ],
      note: 'The lab\'s power constants were calibrated to these two wattages, so they test the activity model, not an independent prediction.',
    },
  },
  {
    id: 'rcce-bcast-receivers',
    title: 'RCCE broadcast: IPC vs receivers',
    summary:
      'The RCCE study\'s broadcast from one root to 1..47 receivers, with no work and with 20 000 or 100 000 instructions of work between messages: 30 runs.',
    source: 'scc.md 6',
    whatToLookFor:
      ["The study's Bcast: the root sends Pingpong's message mix to 1..47 receivers with blocking RCCE sends, one receiver at a time (hypothesis H1). IPC is instructions / wall-clock cycles, averaged over the root and the receivers. With no receiver work it falls from N = 1 toward the IPC of a core spinning on its flag; with work between messages (one series per work setting, instructions) it peaks where the root becomes the bottleneck, later the more work. The paper's peak is at N = 8. The rows also give messages (RCCE_put/get calls) per instruction."],
    experiments: [0, 20_000, 100_000].flatMap((work) => [1, 2, 4, 6, 8, 12, 16, 24, 32, 47].map((receivers) => exp('rcce-bcast', { receivers, work }))),
    sweep: { param: 'receivers', values: [1, 2, 4, 6, 8, 12, 16, 24, 32, 47] },
    chart: { x: 'receivers', y: 'ipc', series: 'work' },
    paper: { source: 'paper 003 lines 3145-3162', note: 'The paper\'s IPC peaks at N = 8 receivers; it does not say what its receivers did between messages.' },
  },
  {
    id: 'dvfs-memory-bound',
    title: 'Memory-bound kernels under DVFS: fewer cycles, more time',
    summary:
      'The dot product on one core at clock divisors 2 to 16 (800 down to 100 MHz).',
    source: 'scc.md 5',
    whatToLookFor:
      ['The dot product at divisors 2..16. A DRAM access costs 40 core cycles plus a fixed 57.5 ns in the memory clock: the slower the core, the fewer core cycles it waits, so cycles fall while wall time rises.'],
    experiments: sweep('dvfs-kernels', { kernel: 'dot' }, 'divisor', DIVISORS),
    sweep: { param: 'divisor', values: DIVISORS },
    chart: { x: 'divisor', y: 'cycles' },
  },
  {
    id: 'dvfs-efficiency',
    title: 'GFlops/W vs divisor',
    summary:
      'Dot product, matrix-vector and matrix-matrix product at divisors 2 to 16: GFlops per watt.',
    source: 'scc.md 5',
    whatToLookFor:
      ["GFlops/W with the paper's power model (C V^2 f of the core, gflopsPerWattPaper): it jumps from divisor 2 (1.1 V) to 5 (0.6 V) because power goes with V squared, then the memory-bound dot product and matrix-vector product gain about a quarter more to 16 (fewer core cycles per DRAM access) while the compute-bound matrix product stays flat. The rows also give gflopsPerW with the lab's full core power (activity and leakage), which falls slowly past 5 as leakage takes a larger share."],
    experiments: (['dot', 'matvec', 'matmul'] as const).flatMap((kernel) => [2, 3, 4, 5, 8, 12, 16].map((divisor) => exp('dvfs-kernels', { kernel, divisor }))),
    sweep: { param: 'divisor', values: [2, 3, 4, 5, 8, 12, 16] },
    chart: { x: 'divisor', y: 'gflopsPerWattPaper', series: 'kernel' },
    paper: {
      source: 'paper 003 lines 2223-2228',
      points: [
        {
          x: 16,
          y: DVFS_DOT_16_OVER_5.gflopsPerWatt,
          series: 'dot',
          label: `dot: ${DVFS_DOT_16_OVER_5.gflopsPerWatt}x the GFlops/W of divisor 5 at divisor 16 (the paper's model, lines 2223-2228)`,
          relativeTo: { x: 5 },
        },
      ],
    },
  },
  {
    id: 'rcce-vs-socket',
    title: 'RCCE vs a socket-like transport',
    summary:
      'A round trip of 1 B to 16 KB through RCCE and through a socket-like stack over the same mesh.',
    source: 'scc.md 2',
    whatToLookFor:
      ['The same round trip through RCCE and through a socket-like stack with a 1500 B MTU over the same mesh. For small messages RCCE is tens of times faster: the socket path pays system calls, protocol processing, an interrupt, a wake-up and two extra copies per message.'],
    experiments: (['rcce', 'socket'] as const).flatMap((transport) => [1, 64, 1024, 4096, 16384].map((bytes) => exp('socket-pingpong', { transport, bytes }))),
    chart: { x: 'bytes', y: 'roundTripNs', series: 'transport', logX: true, logY: true },
  },
  {
    id: 'rcce-chunking',
    title: 'RCCE moves messages in 8160 B chunks',
    summary:
      'RCCE round trips just below, at and just above the 8160 B chunk size.',
    source: 'scc.md 2',
    whatToLookFor:
      ['RCCE round trips at 8160, 8161 and 16320 B. One more byte than 8160 needs a second chunk: another round of flags (sent in the receiver\'s MPB, ready in the sender\'s) on top of the extra byte. In the MPB view, watch the sender fill its own communication buffer and the flag bits flip.'],
    experiments: sweep('socket-pingpong', { transport: 'rcce', iterations: 4 }, 'bytes', [8159, 8160, 8161, 16320]),
    sweep: { param: 'bytes', values: [8159, 8160, 8161, 16320] },
    chart: { x: 'bytes', y: 'roundTripNs' },
  },
  {
    id: 'pipeline-dram-hops',
    title: 'Shared DRAM: 4 MB read and written on each controller',
    summary:
      'Cores 0 and 47 read and write 4 MB of shared DRAM on each of the four controllers.',
    source: 'scc.md 7',
    whatToLookFor:
      ['Core 0 and core 47 each read and then write 4 MB of uncached shared memory on each of the four controllers (the LUT maps the shared window in four groups of 15 pages). Every 4 B access of the 32-bit word loop crosses the mesh there and back, 2 x 4 mesh cycles per hop on top of 40 core and 46 memory cycles: time grows linearly with the hops to the controller (0 to 8), the same slope for reads and writes.'],
    experiments: [0, 47].map((core) => exp('dram-hops', { core })),
    sweep: { param: 'core', values: [0, 47] },
    chart: { x: 'hops', y: 'timeNs', series: 'op' },
  },
  {
    id: 'pipeline-private-vs-d',
    title: 'Pipeline, private memory: time linear in D',
    summary:
      'An 8-stage pipeline in private memory with 256 KB to 2 MB of data in 64 KB chunks.',
    source: 'scc.md 7',
    whatToLookFor:
      ['Eight stages forward 64 KB chunks with RCCE (8160 B pieces through the MPBs) into a private buffer and add 1 to every 32-bit word in place, as the paper\'s code does. The buffers are not pre-touched: with no write-allocate the first chunk\'s receive writes every word to DRAM, later chunks find the buffer in L2 (preTouch: true is the what-if). Doubling D doubles the chunks: time is a straight line in D, offset by filling the pipeline (stages - 1 chunk times). Watch the stage timeline: each stage waits for its input, works, then waits for the next stage to take the chunk.'],
    experiments: sweep('pipeline', { mode: 'private', chunkBytes: 65536 }, 'dataBytes', [262144, 524288, 1048576, 2097152]),
    sweep: { param: 'dataBytes', values: [262144, 524288, 1048576, 2097152] },
    chart: { x: 'dataBytes', y: 'timeNs' },
  },
  {
    id: 'pipeline-uncached-vs-c',
    title: 'Pipeline, uncached shared memory: time set by D, not by C',
    summary:
      'A 4-stage pipeline through uncached shared DRAM with 4, 16 and 64 KB chunks.',
    source: 'scc.md 7',
    whatToLookFor:
      ['The chunks stay in a queue of stages - 1 slots in uncached shared DRAM, allocated from the start of the shared window (the paper\'s LUT set-up puts it on the controller at (0,0)); every stage adds 1 to each 32-bit word of its slot in place, one 4 B read and one 4 B write transaction per word, and only 32 B tokens travel, in a ring (the last stage returns each token to the first). The time per byte is the same at any chunk size: the bars are flat over C (and grow in proportion to D). The controllers\' request counts show that MC0 serves everything.'],
    experiments: sweep('pipeline', { mode: 'uncached-shared', stages: 4 }, 'chunkBytes', [4096, 16384, 65536]),
    sweep: { param: 'chunkBytes', values: [4096, 16384, 65536] },
    chart: { x: 'chunkBytes', y: 'timeNs', logX: true },
  },
  {
    id: 'pipeline-cached-vs-c',
    title: 'Pipeline, cached shared memory: the flushes set the pace',
    summary:
      'A 4-stage pipeline over 2 MB, cached shared memory against private, chunks of 16 KB to 1 MB.',
    source: 'scc.md 7',
    whatToLookFor:
      ['With no coherence every stage flushes its whole cache before reading a chunk and after writing it (2 flushes per chunk per core, the SCC\'s software flush reads an L2-sized region). The in-place add reads each line before writing it, so its stores hit; the first stage\'s copy into the slot and the last stage\'s copy to the output write into lines the flush has just evicted, and with no write-allocate each 32-bit store is a DRAM transaction (allocateOnWrite: true is the what-if). A flush costs the same at any chunk size, so small chunks are dominated by flushes (flushShare) and slow; as C grows the flushes are amortised (up to 256 KB here: beyond it 2 MB makes too few chunks to keep 4 stages busy). Private mode slows down as C grows (its chunk buffer fills L2 from 256 KB on), so above 256 KB cached shared memory is the faster one.'],
    experiments: (['cached-shared', 'private'] as const).flatMap((mode) =>
      [16384, 65536, 262144, 524288, 1048576].map((chunkBytes) => exp('pipeline', { mode, stages: 4, dataBytes: 2097152, chunkBytes })),
    ),
    sweep: { param: 'chunkBytes', values: [16384, 65536, 262144, 524288, 1048576] },
    chart: { x: 'chunkBytes', y: 'timeNs', series: 'mode', logX: true, logY: true },
  },
  {
    id: 'pipeline-snake-order',
    title: '48 stages: snake order vs id order',
    summary:
      '48 stages placed in core id order or in snake order, in each of the three memory modes.',
    source: 'scc.md 7',
    whatToLookFor:
      ['In id order stage 11 hands over to stage 12 across the whole mesh (6 hops), likewise 23-24 and 35-36, and the last stage (core 47) is 8 hops from the controller at (0,0) that holds the shared queue and output; in snake order every neighbour is on the same tile or one hop away and the last stage (core 36) is 3 hops from it. With one 256 KB chunk snake order is a little faster in every mode and, as in the paper\'s Table I, most in cached shared mode (about 0.2 % private, 0.6 % uncached, 1.1 % cached). The cached gain comes mostly from the last stage copying the chunk to the output one 4 B store at a time (no write-allocate) from farther away: compare allocateOnWrite: true or ioBuffers: \'private\'.'],
    experiments: (['private', 'uncached-shared', 'cached-shared'] as const).flatMap((mode) =>
      (['id', 'snake'] as const).map((order) => exp('pipeline', { mode, order, stages: 48, dataBytes: 262144, chunkBytes: 262144 })),
    ),
    sweep: { param: 'order', values: ['id', 'snake'] },
    chart: { x: 'order', y: 'timeNs', series: 'mode' },
  },
  {
    id: 'pipeline-table-1',
    title: 'Pipeline, Table I at D = 1 MB: three memory modes, two orders',
    summary: '48 stages, 256 KB chunks, 1 MB of data: private, uncached shared and cached shared memory, stages in id and in snake order (6 runs of about 5-25 s each).',
    source: 'scc.md 7',
    whatToLookFor: [
      'The order of the modes is the paper\'s: cached shared memory is the fastest, uncached the slowest, and snake order gains a little in every mode. The lab is several times faster than the chip in every cell (see docs/fidelity.md for why).',
    ],
    experiments: (['private', 'uncached-shared', 'cached-shared'] as const).flatMap((mode) =>
      (['id', 'snake'] as const).map((order) => exp('pipeline', { mode, order, stages: 48, dataBytes: 1048576, chunkBytes: 262144 })),
    ),
    sweep: { param: 'order', values: ['id', 'snake'] },
    chart: { x: 'order', y: 'timeNs', series: 'mode', logY: true },
    paper: {
      source: 'paper 003 lines 4239-4262 (Table I)',
      points: (['private', 'uncached-shared', 'cached-shared'] as const).flatMap((mode) =>
        (['id', 'snake'] as const).map((order, o) => ({ x: order, y: PIPELINE_TABLE_1[mode][0]![o]! * 1e9, series: mode, label: `${PIPELINE_TABLE_1[mode][0]![o]} s (Table I, D = 1 MB)` })),
      ),
    },
  },
  {
    id: 'pipeline-allocate-on-write',
    title: 'Pipeline what-if: software allocate-on-write',
    summary:
      'Cached shared and private pipelines with and without allocate-on-write in software.',
    source: 'scc.md 1, 7, 9',
    whatToLookFor:
      ['The paper\'s code copies with plain stores. The SCC\'s caches do not allocate on a write miss, so the first stage\'s copy into a flushed queue slot and the last stage\'s copy to the output send every 32-bit store to DRAM. With allocateOnWrite the copies load one word of each destination line first: the stores hit and each line goes back whole at the next flush. Compare dramWrites and timeNs (cached shared and private; uncached pages never cache, so nothing changes there).'],
    experiments: (['cached-shared', 'private'] as const).flatMap((mode) => ([false, true] as const).map((allocateOnWrite) => exp('pipeline', { mode, allocateOnWrite }))),
    sweep: { param: 'allocateOnWrite', values: [false, true] },
    chart: { x: 'allocateOnWrite', y: 'dramWrites', series: 'mode' },
  },
  {
    id: 'pipeline-pre-touch',
    title: 'Pipeline what-if: pre-touched receive buffers',
    summary:
      'Private pipelines with receive buffers nobody has touched, and pre-touched ones.',
    source: 'scc.md 1, 7',
    whatToLookFor:
      ['Private mode as the paper ran it: every stage receives into a malloc\'d buffer nobody has read, so the first chunk\'s receive writes every word to DRAM (no write-allocate); later chunks find the buffer in L2. With preTouch every stage reads its buffer once before the timed run and even the first chunk\'s receive hits: dramWrites fall by about one chunk\'s words per stage. The effect is largest when there are few chunks (D close to C).'],
    experiments: ([65536, 262144] as const).flatMap((chunkBytes) => ([false, true] as const).map((preTouch) => exp('pipeline', { mode: 'private', chunkBytes, preTouch }))),
    sweep: { param: 'preTouch', values: [false, true] },
    chart: { x: 'preTouch', y: 'timeNs', series: 'chunkBytes' },
  },
  {
    id: 'nbody-ring-workers',
    title: 'N-body ring: more workers, slower steps',
    summary:
      'The SICSA n-body challenge as a ring of 1 to 16 workers and a controller, 1024 bodies, 2 steps.',
    source: 'scc.md 8',
    whatToLookFor:
      ['A controller and 1..16 workers pass one ~65 KB text message (1024 bodies x 7 numbers of 9 characters) around the ring twice per step. The workers share the N^2 force computation (a N^2 / p), but every ring member decodes and re-encodes the whole message at every hop (b N p): the step time is lowest at 2-3 workers and rises steeply by 16. With binary messages (encoding: binary) only the RCCE copies remain per hop and the best count moves to about 16.'],
    experiments: sweep('nbody-ring', { steps: 2 }, 'workers', [1, 2, 3, 4, 6, 8, 12, 16]),
    sweep: { param: 'workers', values: [1, 2, 3, 4, 6, 8, 12, 16] },
    chart: { x: 'workers', y: 'stepNs' },
    paper: {
      source: 'paper 003 lines 5471-5477 (Table V)',
      points: NBODY_TABLE_5.map(([workers, ms]) => ({ x: workers, y: ms * 1e6, label: `${ms} ms per step with ${workers} worker${workers === 1 ? '' : 's'} (Table V, SCC)` })),
    },
  },
  {
    id: 'concordance-cores',
    title: 'Concordance: a serialising file server',
    summary:
      'The SICSA concordance challenge on 1 to 32 cores with a single file server.',
    source: 'scc.md 8',
    whatToLookFor:
      ['Every core reads the whole text from shared memory and hashes every phrase, counting only its own; the file server (on the first core) then appends the other cores\' records one RCCE message at a time. The shared counting shrinks with the cores, but each record that is not the server\'s costs a message round trip in a single queue: 2 cores are slower than 1, and beyond 8 cores there is nothing left to gain.'],
    experiments: sweep('concordance', {}, 'cores', [1, 2, 4, 8, 16, 32]),
    sweep: { param: 'cores', values: [1, 2, 4, 8, 16, 32] },
    chart: { x: 'cores', y: 'timeNs' },
    paper: {
      source: 'paper 003 lines 5126-5133 (Table III)',
      // the paper's text is 4.79 MB, the lab's 64 KB: its times are drawn relative to the lab's time on one core
      points: CONCORDANCE_TABLE_3.map(([cores, s]) => ({ x: cores, y: s / CONCORDANCE_TABLE_3[0]![1], label: `${s} s on ${cores} core${cores === 1 ? '' : 's'} (Table III; drawn relative to 1 core)`, relativeTo: { x: 1 } })),
      note: 'The paper ran a 4.79 MB text, the lab a 64 KB one: the paper\'s times are drawn as multiples of the lab\'s time on one core.',
    },
  },
  {
    id: 'metalsvm-laplace',
    title: 'MetalSVM: Laplace/JOR under strong consistency, lazy release and message passing',
    summary:
      'JOR on a 256 x 512 matrix of doubles (the paper: 1024 x 512, `rows: 1024`), 2 iterations, on 1 to 48 cores: MetalSVM strong consistency with the matrix on one controller and on four, lazy release on four, and iRCCE message passing: 28 runs.',
    source: 'scc.md 4',
    whatToLookFor: [
      'Strong consistency moves each page to one owner at a time: a fault traps, mails the owner (a 32 B line in its MPB) and raises an IPI, and polls the ownership vector until the owner has flushed and named the requester. Per neighbour pair and iteration that is 4 faults and 4 mails (3 in the first iteration): count them in the rows.',
      'With the matrix on one controller every core\'s line stream queues at that controller and the time stops falling after 16-32 cores; over four controllers it keeps falling.',
      'Lazy release, as the lab reads the paper (which contradicts itself, scc.md 4): every core flushes at the barrier and invalidates after it, and the first access to a neighbour\'s page after the barrier sends one request mail and IPI to that page\'s home, which flushes and acknowledges. Half the faults of strong consistency; at the modelled kernel costs that changes little, as the controllers bound both.',
      'Message passing keeps rows in private memory behind L2 without write-allocate: on one core its stores go to memory one by one and it takes about twice the shared-memory time (the paper: about half, the write-combine buffer); once a core\'s rows fit its 256 KB L2 (here from 8 cores; at the paper\'s 1024 rows from 32) the time drops faster than the cores grow.',
    ],
    experiments: METALSVM_SETUPS.flatMap((s) => METALSVM_CORES.map((cores) => exp('metalsvm', { consistency: s.consistency, controllers: s.controllers, cores, rows: 256, iterations: 2 }))),
    chart: { x: 'cores', y: 'timeNs', series: ['consistency', 'controllers'], logX: true, logY: true },
    paper: {
      source: 'paper 003 lines 1169-1209 (Fig. 6)',
      points: [
        {
          x: 1,
          y: METALSVM_SVM_OVER_MP_1_CORE,
          series: 'strong 1',
          label: 'the shared-memory runtime on one core is about half the message-passing one (lines 1203-1206)',
          relativeTo: { series: 'message-passing 1' },
        },
      ],
      note: 'Fig. 6 gives no numbers in the text: strong with one controller hits the memory wall, with four it scales to 8 cores, lazy release is nearly optimal, message passing is super-linear at 32-48 cores (the paper\'s 1024 rows; at 256 rows the rows fit L2 sooner).',
    },
  },
];
