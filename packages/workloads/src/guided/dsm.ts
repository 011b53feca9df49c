/**
 * Guided entries of paper 004's DSM study beyond the runtimes' own (those are in chips.ts):
 * SOR with and without the compiler's hoisting (Table 7) and the garbage-collected Tree
 * (Table 5). Data only; the paper's values come from the dsm workload's tables
 * (PAPER_TABLE7, PAPER_TABLE5), never typed twice.
 */
import { PAPER_TABLE5, PAPER_TABLE7 } from '../dsm/workload';
import { exp, type GuidedExperiment, type PaperPoint } from './types';

const CLUSTER = { preset: 'cluster-1999' };
const NAMES = { page: 'TreadMarks', object: 'SkidMarks' } as const;

/** Table 7's slowdown without hoisting, as a factor on the lab's own hoisted point (the paper measured SOR/lg). */
const hoistingPoints: PaperPoint[] = (['page', 'object'] as const).flatMap((runtime) =>
  ([1, 32] as const).map((procs) => {
    const pref = PAPER_TABLE7[procs].pref[runtime];
    const nopref = PAPER_TABLE7[procs].nopref[runtime];
    return {
      x: procs,
      y: nopref / pref,
      series: `${runtime} false`,
      relativeTo: { series: `${runtime} true` },
      label: `${NAMES[runtime]} without hoisting ${nopref} s vs ${pref} s with, on ${procs} processor${procs > 1 ? 's' : ''} (${Math.round((nopref / pref - 1) * 100)}% slower; Table 7, SOR/lg)`,
    };
  }),
);

export const dsmStudies: GuidedExperiment[] = [
  {
    id: 'dsm-sor-hoisting',
    title: "What the compiler's hoisting is worth: SOR with and without it on pages and on handles",
    summary:
      "Paper 004's Table 7: Red-Black SOR with the row pointer (TreadMarks' a[i]) and the handles (SkidMarks' a->handle[i]->handle) hoisted out of the inner loop, and without: then every grid reference reloads them, 6 extra loads per element on pages and 12 through handles. On 1 and 32 processors of the 1999 cluster, at the interactive size.",
    source: 'paper 004 section 4 (lines 160-260) and Table 7; ../shared/reference/dsm.md section 4 and trend 9',
    whatToLookFor: [
      'The protocol does not change: messages, bytes, faults and write notices are equal with and without hoisting (compare the rows); only the core does more work (more loads, more time).',
      "On 1 processor the handle program loses nearly twice what the array program loses (12 extra loads per element against 6, nearly all L1 hits); the paper's gap is wider (69% against 20%), which the lab's extra loads alone do not explain.",
      'On 32 processors at this small grid the network dominates and the loss almost vanishes; at the paper\'s 4094 x 2047 grid (size paper-lg, several minutes per run with scripts/dsm-run.mjs) the rows carry Table 7\'s seconds and the ratio.',
    ],
    experiments: (['page', 'object'] as const).flatMap((runtime) =>
      [true, false].flatMap((sorHoisting) => [1, 32].map((processors) => exp('dsm', { runtime, app: 'sor', processors, sorHoisting }, CLUSTER))),
    ),
    sweep: { param: 'processors', values: [1, 32] },
    chart: { x: 'processors', y: 'timeNs', series: ['runtime', 'sorHoisting'], logY: true },
    paper: {
      source: 'paper 004 Table 7',
      points: hoistingPoints,
      note: "Table 7 measured SOR/lg (4094 x 2047, 20 steps); its slowdowns are drawn as factors on the lab's hoisted point of the same runtime and processor count.",
    },
  },
  {
    id: 'dsm-gc-tree',
    title: 'A garbage-collected tree on pages and on objects',
    summary:
      "Paper 004's Tree: the master builds and updates a binary search tree, every processor searches it and allocates a temporary per item found; each collects its own cells by mark-and-sweep when its heap runs out. On the page runtime and the object runtime, 4 to 32 processors of the 1999 cluster, at the interactive size.",
    source: 'paper 004 lines 282-298, 322-326, Table 5; ../shared/reference/dsm.md trends 7 and 8',
    whatToLookFor: [
      "Every run ends with the sequential run's tree and checksums (the row's check), with both runtimes.",
      "Pages: a searcher fetches a page of the master's cells per fault (diffs), and the master's temporaries reuse cut-off tree cells on pages the searchers read (false sharing); objects: each node the searcher reads is fetched alone the first time and packed into its own pages (lazy allocation), later faults fetch a page's worth at once (read aggregation).",
      `The lab does not reproduce the paper here: pages win, at this size and at the paper's (size paper-sm), because a searcher's first read of each object is one round trip of its own (lazy allocation leaves nothing else invalid on its page to aggregate) and every object the master writes becomes a write notice to all processors, while a page fault brings 128 cells at once. The paper has ${NAMES.page} ${PAPER_TABLE5.page.timeS} s and ${PAPER_TABLE5.page.dataMB} MB against ${NAMES.object} ${PAPER_TABLE5.object.timeS} s and ${PAPER_TABLE5.object.dataMB} MB on 32 processors (Table 5, mark-and-sweep); it gives no search or round counts, so the lab's input is a model.`,
    ],
    experiments: (['page', 'object'] as const).flatMap((runtime) => [4, 8, 16, 32].map((processors) => exp('dsm', { runtime, app: 'gc-tree', processors }, CLUSTER))),
    sweep: { param: 'processors', values: [4, 8, 16, 32] },
    chart: { x: 'processors', y: 'bytes', series: 'runtime' },
    paper: { source: 'paper 004 Table 5', rowField: 'paperBytes', note: 'Table 5 measured the paper\'s input on 32 processors (size paper-sm here): those rows carry its time, data and overlapped requests and the ratios; this interactive size has no paper value.' },
  },
];
