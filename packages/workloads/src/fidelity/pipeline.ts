/**
 * Reproduction: the many-core pipeline paper's Table I (paper 003 lines 4239-4262): T(D, 256 KB,
 * 48) in seconds for D = 1, 2, 4, 8 MB, private / uncached shared / cached shared memory, stages
 * in trivial (id) and min-routing (snake) order: 24 cells, plus the must-show trends of issue 14
 * and one extra run (uncached at C = 64 KB) for "independent of C".
 */
import type { ExperimentInput } from '@manycore/engine';
import { cell, fmt, ratioOf, valueOf } from './cells';
import type { Cell, Check, Reproduction, RunOutput } from './types';

const KB = 1024;
const MB = 1024 * KB;
const MODES = ['private', 'uncached-shared', 'cached-shared'] as const;
const ORDERS = ['id', 'snake'] as const;
const DS = [1, 2, 4, 8] as const;

/** Table I, seconds: [mode][D index] = [trivial, min-routing]. "4313" is OCR for 4.313. */
export const PIPELINE_TABLE_1: Record<(typeof MODES)[number], [number, number][]> = {
  private: [
    [3.678, 3.67],
    [4.155, 4.151],
    [5.128, 5.117],
    [7.06, 7.054],
  ],
  'uncached-shared': [
    [6.635, 6.553],
    [12.2, 12.118],
    [24.031, 23.948],
    [47.693, 47.611],
  ],
  'cached-shared': [
    [0.92, 0.868],
    [1.256, 1.143],
    [2.252, 2.042],
    [4.745, 4.313],
  ],
};

function exp(params: Record<string, number | string>): ExperimentInput {
  return { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'pipeline', params } };
}

const experiments: ExperimentInput[] = [
  ...MODES.flatMap((mode) => DS.flatMap((d) => ORDERS.map((order) => exp({ mode, order, stages: 48, dataBytes: d * MB, chunkBytes: 256 * KB })))),
  exp({ mode: 'uncached-shared', order: 'id', stages: 48, dataBytes: 1 * MB, chunkBytes: 64 * KB }),
];

function seconds(runs: RunOutput[], mode: string, d: number, order: string, chunkBytes = 256 * KB): number | null {
  const ns = valueOf(runs, 'pipeline', { mode, order, stages: 48, dataBytes: d * MB, chunkBytes }, 'timeNs');
  return ns === null ? null : ns / 1e9;
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${fmt(x * 100)} %`);

function evaluate(runs: RunOutput[]): { cells: Cell[]; checks: Check[] } {
  const cells: Cell[] = [];
  for (const mode of MODES)
    DS.forEach((d, i) =>
      ORDERS.forEach((order, o) => cells.push(cell(`${mode}, D = ${d} MB, ${order === 'id' ? 'trivial (id)' : 'min-routing (snake)'}`, PIPELINE_TABLE_1[mode][i]![o]!, seconds(runs, mode, d, order), 's'))),
    );
  const checks: Check[] = [];
  // per mode: 8 MB / 1 MB beside the paper's (a shape, independent of absolute speed)
  for (const mode of MODES) {
    const paper = PIPELINE_TABLE_1[mode][3]![0]! / PIPELINE_TABLE_1[mode][0]![0]!;
    const lab = ratioOf(seconds(runs, mode, 8, 'id'), seconds(runs, mode, 1, 'id'));
    cells.push(cell(`${mode}: T(8 MB) / T(1 MB), id`, paper, lab, 'x'));
    checks.push({
      label: `${mode}: T(8 MB) / T(1 MB) within 25 % of the paper's`,
      pass: lab !== null && Math.abs(lab / paper - 1) <= 0.25,
      lab: fmt(lab),
      paper: `${fmt(paper)} (Table I)`,
    });
  }
  const u81 = ratioOf(seconds(runs, 'uncached-shared', 8, 'id'), seconds(runs, 'uncached-shared', 1, 'id'));
  checks.push({ label: 'uncached: time proportional to D (T(8 MB) / T(1 MB) between 6 and 8.5)', pass: u81 !== null && u81 >= 6 && u81 <= 8.5, lab: fmt(u81), paper: '7.19 (Table I)' });
  const uC = ratioOf(seconds(runs, 'uncached-shared', 1, 'id', 64 * KB), seconds(runs, 'uncached-shared', 1, 'id'));
  checks.push({ label: 'uncached: independent of C (C = 64 KB vs 256 KB at 1 MB within 10 %)', pass: uC !== null && Math.abs(uC - 1) <= 0.1, lab: `T(64 KB) / T(256 KB) = ${fmt(uC)}`, paper: 'independent of C (paper 003 lines 4120-4214)' });
  const p1 = seconds(runs, 'private', 1, 'id');
  const u1 = seconds(runs, 'uncached-shared', 1, 'id');
  const c1 = seconds(runs, 'cached-shared', 1, 'id');
  checks.push({
    label: 'at 1 MB: cached shared faster than private, private faster than uncached',
    pass: p1 !== null && u1 !== null && c1 !== null && c1 < p1 && p1 < u1,
    lab: `cached ${fmt(c1)} s, private ${fmt(p1)} s, uncached ${fmt(u1)} s`,
    paper: 'cached 0.920 s < private 3.678 s < uncached 6.635 s',
  });
  for (const mode of MODES) {
    const slower = DS.filter((d) => {
      const id = seconds(runs, mode, d, 'id');
      const snake = seconds(runs, mode, d, 'snake');
      return id === null || snake === null || snake > id;
    });
    const gains = DS.map((d) => {
      const id = seconds(runs, mode, d, 'id');
      const snake = seconds(runs, mode, d, 'snake');
      return id !== null && snake !== null ? 1 - snake / id : null;
    });
    const paperGains = PIPELINE_TABLE_1[mode].map(([id, snake]) => 1 - snake / id);
    checks.push({
      label: `${mode}: snake no slower than id at every D`,
      pass: slower.length === 0,
      lab: `snake gain at D = 1, 2, 4, 8 MB: ${gains.map(pct).join(', ')}`,
      paper: `${paperGains.map(pct).join(', ')} (Table I)`,
    });
  }
  return { cells, checks };
}

export const pipelineTable1: Reproduction = {
  id: 'pipeline-table-1',
  title: 'Many-core pipeline, Table I: 48 stages, C = 256 KB, D = 1..8 MB',
  source: 'paper 003 lines 4239-4262 (Table I); set-up lines 4094-4111; scc.md section 7',
  kind: 'both',
  experiments,
  evaluate,
  // every word of D passes through the 48 stages, so a run's host time grows with D (the 8 MB
  // runs are the report's longest: they start first)
  hostCost: (e) => Number((e.workload.params as { dataBytes?: number }).dataBytes ?? 0) / MB,
  mechanism:
    'The lab runs the paper\'s code (one queue of 47 slots on MC(0,0), a token ring, a plain add-1 loop over 32-bit words, no pre-touch or allocate-on-write) on a DDR3-800 controller model, and is 5-18x faster than the chip in every cell. Uncached: the paper\'s times imply MC(0,0) finished one uncached word every ~240 ns (47.7 s for 48 x 8 MB x 2 / 4 B = 201 M transactions), 24 DDR3 burst slots; the lab\'s controller is not saturated by the 4-32 stages active at once, so its time is per-word latency times the pipeline\'s N + m - 1 steps, T ~ D + (m - 1) C: 8 MB / 1 MB is 3.9 instead of 7.2 and 64 KB chunks run twice as fast as 256 KB. What makes the real controller that slow for uncached words is not in the lab (candidates: the memory interface unit serialising uncached requests, read-modify-write of partial ECC words); nothing is tuned to it. Snake order gains in every mode; the lab\'s gain comes from the last stage\'s distance to MC(0,0) (core 47, 8 hops, in id order; core 36, 3 hops, in snake order) while it copies each chunk to the output word by word (scc.md 7, hypothesis H2), not from the token ring\'s hops.',
};
