/**
 * Guided experiments for the `vm` workload (issue 15): paper 000's Smalltalk heap on the TILE64.
 * The paper's values come from the fidelity module (fidelity/roarvm.ts), never typed twice;
 * they are ratios (the paper's figures use different time bases), so each paper point is
 * relative to a lab point.
 */
import { ROARVM_PAPER } from '../fidelity/roarvm';
import { exp, type GuidedExperiment } from './types';

const TILE64 = { preset: 'tile64' };
const BATON_CORES = [1, 2, 4, 8, 16, 32, 56];
const FIXES = [
  { clockCall: true, hugePages: false },
  { clockCall: false, hugePages: false },
  { clockCall: true, hugePages: true },
  { clockCall: false, hugePages: true },
];
const REPLICATION = ['none', 'methods', 'all-but-contexts', 'global'];

export const vmStudies: GuidedExperiment[] = [
  {
    id: 'vm-baton',
    title: 'A Smalltalk heap over 56 cores: the baton passes and the time grows',
    summary:
      "Paper 000's VM on the TILE64: one interpreter thread, per-core heaps homed on their tiles, the snapshot dealt round-robin, and the thread hopping to the receiver's core on every send and return, as first measured (a clock system call per migration, 64 KB pages). The compiler-like benchmark on 1 to 56 cores.",
    source: 'paper 000 lines 700-874 (Figs. 6 and 8); tile64-roarvm.md sections 2 and 5',
    whatToLookFor: [
      'The bytecode count is the same on every number of cores: only where the objects live changes.',
      'One core: everything is local. Two cores: half the methods, classes and objects are homed on the other tile, which cannot cache them: every bytecode of a remote method is a remote load of about 40 cycles instead of a 2-cycle L1 hit.',
      'Migrations per 1000 bytecodes grow with the cores (round-robin placement makes a receiver local with probability 1/N) and each costs a raw message and the clock call.',
      'The VM routines chart: fetchBytecode is the largest new cost, as in the paper\'s Fig. 11.',
    ],
    experiments: BATON_CORES.map((cores) => exp('vm', { benchmark: 'compiler', cores }, TILE64)),
    sweep: { param: 'cores', values: BATON_CORES },
    chart: { x: 'cores', y: 'timeNs', logX: true },
    paper: {
      source: 'paper 000 lines 834-874 (Fig. 8)',
      points: [
        { x: 2, y: ROARVM_PAPER.twoOverOneFirst, label: '2 cores: 3.31 s against 1.3 s on one core (Fig. 8)', relativeTo: { x: 1 } },
        { x: 56, y: ROARVM_PAPER.fiftySixOverTwoFirst, label: '56 cores: "almost doubled again" from 2 (lines 834-838)', relativeTo: { x: 2 } },
      ],
      note: 'Ratios only: the paper timed Squeak\'s Compiler Benchmark on a ~10 MB image; the lab runs a compiler-like benchmark on a small image built from source.',
    },
  },
  {
    id: 'vm-fixes',
    title: 'The observer effect: a clock call per migration, and huge pages',
    summary: 'The paper found two culprits for its 2-core slowdown: reading the real-time clock by a system call on every migration (its own instrumentation), and TLB misses with 64 KB pages over a ~10 MB heap. Each is a switch here, on 1 and 2 cores, with the image spread over 10 MB.',
    source: 'paper 000 lines 940-1061 (Figs. 11-13)',
    whatToLookFor: [
      'The clock call costs the same per migration on any core: on 1 core there are no migrations, so it costs nothing there.',
      'Huge pages matter when the heap spreads over more pages than the 16-entry TLB maps (1 MB of reach): here 10 MB of untouched objects (imageFillerKB) stand for the rest of the paper\'s ~10 MB image, dealt between the benchmark\'s. The refill handler\'s cost is a model value (50 cycles): the paper names the handler, not its cost.',
      'The clock call\'s cost is a modelled trap plus remote reads of kernel words: see it in the "clock" routine.',
    ],
    experiments: FIXES.flatMap((f) => [1, 2].map((cores) => exp('vm', { benchmark: 'compiler', cores, ...f, imageFillerKB: 10240, heapKB: 16384 }, TILE64))),
    chart: { x: 'cores', y: 'timeNs', series: ['clockCall', 'hugePages'] },
    paper: {
      source: 'paper 000 lines 1035-1061 (Fig. 13)',
      points: [
        { x: 2, y: ROARVM_PAPER.twoOverOneFirst, series: 'true false', label: 'as first measured: 2 cores 2.55x one core (Fig. 8)', relativeTo: { x: 1 } },
        { x: 2, y: ROARVM_PAPER.twoOverOneFixed, series: 'false true', label: 'both fixes: about 1.7x (Fig. 13)', relativeTo: { x: 1 } },
      ],
    },
  },
  {
    id: 'vm-replication',
    title: 'Replicating the read-mostly objects in every cache',
    summary:
      'The user-managed regime caches a page on any tile; the VM then needs a store barrier. No replication, methods only, everything but contexts (per-core slices: the address still names the core that runs the receiver), and one global read-mostly heap (v1), on 1, 2 and 56 cores, without the clock call and with huge pages.',
    source: 'paper 000 lines 1167-1321 (Figs. 15-18)',
    whatToLookFor: [
      'Methods only: bytecode fetches become cache hits everywhere. The lab gains a lot here, the paper "little": see the fidelity report for why the two differ.',
      'Everything but contexts: classes, method dictionaries and symbols are cached too; the baton still passes (the address names a core).',
      'One global heap: receivers there never take the baton, so the thread stays on core 0 and the time equals one core\'s: the paper\'s "too good to be true" 1.1x, an artifact, not a design.',
    ],
    experiments: REPLICATION.flatMap((replication) => [1, 2, 56].map((cores) => exp('vm', { benchmark: 'compiler', cores, replication, clockCall: false, hugePages: true }, TILE64))),
    chart: { x: 'cores', y: 'timeNs', series: 'replication', logX: true },
    paper: {
      source: 'paper 000 lines 1177-1196 and 1306-1312',
      points: [
        { x: 2, y: ROARVM_PAPER.twoOverOneFig15, series: 'none', label: 'no replication: 2 cores "perhaps 1.5 times slower" (Fig. 15)', relativeTo: { x: 1 } },
        { x: 56, y: ROARVM_PAPER.fiftySixOverOneFig15, series: 'none', label: 'no replication: 56 cores "between two and three times slower" (Fig. 15)', relativeTo: { x: 1 } },
        { x: 2, y: ROARVM_PAPER.twoOverOneGlobal, series: 'global', label: 'global read-mostly heap: "only 1.1 times as slow" (lines 1306-1312)', relativeTo: { x: 1 } },
      ],
    },
  },
  {
    id: 'vm-store-barrier',
    title: 'A store into a replicated object moves it',
    summary: 'Three cores with everything but contexts in the read-mostly heap. The benchmark stores each compiled method into the global LastMethod: the first store into that snapshot Association makes the store barrier copy it into the read-write heap of the core running, and repoint its object-table entry.',
    source: 'paper 000 lines 1287-1291',
    whatToLookFor: [
      'The heap map: the Association leaves its read-mostly slice for a read-write heap; every later store finds it there (one move, not one per store).',
      'The object keeps its identity: its reference is the address of its object-table entry, which now points at the copy.',
    ],
    experiments: [exp('vm', { benchmark: 'compiler', cores: 3, replication: 'all-but-contexts', clockCall: false }, TILE64)],
  },
  {
    id: 'vm-chips',
    title: 'The same VM on the TILE64 and on the SCC',
    summary:
      "The compiler-like benchmark on 1, 2 and 48 cores of both chips. The SCC has no homing: the heaps live in shared DRAM on each core's nearest controller, the baton is an MPB message, and shared objects are either MPBT-cached with a flush and CL1INVMB at every baton pass, or uncached.",
    source: 'paper 000 (TILE64); scc.md sections 1-2 (SCC memory); issue 15 item 4 (no paper ran this)',
    whatToLookFor: [
      'On the TILE64 the owner of an object reads it from its own caches and everyone else pays a remote home read: locality decides, and bytecode fetch from remote methods is the new cost.',
      'On the SCC every shared access costs about the same DRAM trip whoever owns the heap, so passing the baton buys little locality; what grows with the cores is the baton itself, the clock call and the L1 emptied by CL1INVMB on every arrival.',
      'Uncached shared objects make every access a DRAM transaction: several times slower on one core, but the gap narrows as migrations dominate.',
    ],
    experiments: [
      ...[1, 2, 48].map((cores) => exp('vm', { benchmark: 'compiler', cores }, TILE64)),
      ...(['flush', 'uncached'] as const).flatMap((sccSharing) => [1, 2, 48].map((cores) => exp('vm', { benchmark: 'compiler', cores, sccSharing }))),
    ],
    chart: { x: 'cores', y: 'timeNs', series: ['chip', 'sccSharing'], logX: true },
  },
  {
    id: 'vm-tiny',
    title: 'tinyBenchmarks: SmallIntegers never pass the baton',
    summary: "Squeak's two tinyBenchmarks (a sieve of bytecodes and recursive fib sends) on 1 and 2 cores. Their receivers are SmallIntegers, which the baton rule keeps on the running core.",
    source: 'paper 000 Fig. 6',
    whatToLookFor: [
      'Migrations stay near zero: fib\'s receivers are all SmallIntegers; the sieve\'s Array sends are primitives, which run where the thread is.',
      'The time on 2 cores still grows a little: half the methods and classes are homed on the other tile.',
    ],
    experiments: (['tiny-loop', 'tiny-fib'] as const).flatMap((benchmark) => [1, 2].map((cores) => exp('vm', { benchmark, cores }, TILE64))),
    chart: { x: 'cores', y: 'timeNs', series: 'benchmark' },
  },
];
