/**
 * Reproductions of the SICSA multi-core challenge on the SCC (paper 003 lines 4944-5579): the
 * n-body ring's time per step against workers (Table V, lines 5471-5477; 1024 bodies, the
 * paper's size) and the concordance against cores (Table III, lines 5126-5133). The lab's
 * concordance runs a smaller text than the paper's 4.79 MB WEB.txt, so it is compared as time
 * relative to one core.
 */
import type { ExperimentInput } from '@manycore/engine';
import { cell, fmt, ratioOf, valueOf } from './cells';
import type { Cell, Check, Reproduction } from './types';

function exp(workload: string, params: Record<string, number | string>): ExperimentInput {
  return { version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: workload, params } };
}

/** Table V, SCC column: workers -> ms per step. */
export const NBODY_TABLE_5: [number, number][] = [
  [1, 967],
  [2, 648],
  [4, 702],
  [8, 1025],
  [16, 2032],
];

export const nbodyTable5: Reproduction = {
  id: 'nbody-table-5',
  title: 'SICSA n-body ring: time per step against workers (1024 bodies)',
  source: 'paper 003 lines 5471-5477 (Table V), 5498-5519 (fit); scc.md section 8',
  kind: 'both',
  experiments: NBODY_TABLE_5.map(([workers]) => exp('nbody-ring', { workers, steps: 2 })),
  evaluate(runs) {
    const lab = NBODY_TABLE_5.map(([workers]) => valueOf(runs, 'nbody-ring', { workers, steps: 2 }, 'stepNs'));
    const cells: Cell[] = NBODY_TABLE_5.map(([workers, ms], i) => cell(`${workers} worker${workers > 1 ? 's' : ''}: ms per step`, ms, lab[i] === null ? null : (lab[i] as number) / 1e6, 'ms'));
    const best = lab.every((v) => v !== null) ? NBODY_TABLE_5[lab.indexOf(Math.min(...(lab as number[])))]![0] : null;
    cells.push(cell('workers at the fastest step', 2, best, 'workers'));
    const checks: Check[] = [
      { label: 'the step time is lowest at 2-4 workers and rises to 16', pass: best !== null && best >= 2 && best <= 4 && (lab[4] ?? 0) > (lab[2] ?? Infinity), lab: `fastest at ${best ?? 'n/a'} workers`, paper: 'fastest at 2 workers; p* = sqrt(aN/b) = 2.7 from the paper\'s fit' },
    ];
    return { cells, checks };
  },
  mechanism:
    'The ring passes one ~65 KB text message, and every member parses and prints it at every hop, as the paper\'s Lino shell pipes did: the step time is a N^2 / p + b N p and is fastest at 2 workers, as on the chip. The lab is about 3x faster at every count: its per-character parsing costs (model constants in nbody-ring.ts) and the RCCE relay processes\' costs are estimates, not measurements.',
};

/** Table III: cores -> seconds (4.79 MB WEB.txt, phrases up to 4 words). */
export const CONCORDANCE_TABLE_3: [number, number][] = [
  [1, 26.17],
  [2, 49],
  [8, 36],
  [32, 34],
];

export const concordanceTable3: Reproduction = {
  id: 'concordance-table-3',
  title: 'SICSA concordance: time against cores, relative to one core',
  source: 'paper 003 lines 5126-5133 (Table III), 5140-5163 (model t = P/n + R n + W); scc.md section 8',
  kind: 'empirical',
  experiments: CONCORDANCE_TABLE_3.map(([cores]) => exp('concordance', { cores })),
  evaluate(runs) {
    const t = CONCORDANCE_TABLE_3.map(([cores]) => valueOf(runs, 'concordance', { cores }, 'timeNs'));
    const cells: Cell[] = CONCORDANCE_TABLE_3.slice(1).map(([cores, s], i) => cell(`${cores} cores: time / time on 1 core`, s / 26.17, ratioOf(t[i + 1] ?? null, t[0] ?? null), 'x'));
    const checks: Check[] = [{ label: '2 cores are slower than 1', pass: (ratioOf(t[1] ?? null, t[0] ?? null) ?? 0) > 1, lab: `T(2) / T(1) = ${fmt(ratioOf(t[1] ?? null, t[0] ?? null))}`, paper: '49 s vs 26.17 s (Table III)' }];
    return { cells, checks };
  },
  mechanism:
    'Each core reads the whole text and counts the phrases it owns; the file server then appends the other cores\' records one message at a time. The lab\'s text is 64 KB, not the paper\'s 4.79 MB, so times are compared relative to one core. 2 cores are slower than 1 as on the chip, but by less (1.17x against 1.87x): the paper\'s writing time W = 31 s (NFS file output) dominated its runs, and the lab\'s record write is a model constant.',
};
