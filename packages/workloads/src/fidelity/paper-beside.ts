/**
 * The paper beside one run: when a finished run is one of a reproduction's experiments (same
 * workload, same parameters once defaults are filled in, the stock chip), the cells that this
 * run alone gives (e.g. one cell of the pipeline's Table I) with the paper's value and the
 * ratio, and the reproduction's mechanism note. The web lab shows them under the results.
 * Pure: results in, cells out.
 */
import type { ExperimentInput, Row, WorkloadRegistry } from '@manycore/engine';
import type { Cell, Reproduction } from './types';

export interface PaperBeside {
  reproduction: string;
  title: string;
  source: string;
  mechanism: string;
  cells: Cell[];
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function fullParams(registry: WorkloadRegistry, e: ExperimentInput): string | null {
  const def = registry[String(e.workload.name)];
  if (!def) return null;
  const parsed = def.params.safeParse(e.workload.params ?? {});
  return parsed.success ? stable(parsed.data) : null;
}

function stockChip(e: ExperimentInput): boolean {
  const chip = e.chip as { preset?: string; overrides?: Record<string, unknown> } | undefined;
  return (chip?.preset ?? 'scc') === 'scc' && Object.keys(chip?.overrides ?? {}).length === 0 && !((e as { timeline?: unknown[] }).timeline ?? []).length;
}

/** The paper's values this run gives, per reproduction that includes it (none when it is not a reproduction's run). */
export function paperBeside(list: Reproduction[], registry: WorkloadRegistry, experiment: ExperimentInput, rows: Row[]): PaperBeside[] {
  if (!stockChip(experiment)) return [];
  const mine = fullParams(registry, experiment);
  if (mine === null) return [];
  const out: PaperBeside[] = [];
  for (const r of list) {
    const at = r.experiments.findIndex((e) => e.workload.name === experiment.workload.name && stockChip(e) && fullParams(registry, e) === mine);
    if (at < 0) continue;
    const runs = r.experiments.map((e, i) => ({ experiment: e, rows: i === at ? rows : [], digest: '', wallMs: 0 }));
    const cells = r.evaluate(runs).cells.filter((c) => c.lab !== null && c.paper !== null);
    if (cells.length) out.push({ reproduction: r.id, title: r.title, source: r.source, mechanism: r.mechanism, cells });
  }
  return out;
}
