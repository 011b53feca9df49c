/**
 * Helpers for tests: run an ad-hoc per-core program inline (all cores on the calling thread)
 * without registering a workload. Same engine path as any other run.
 */
import { z } from 'zod';
import { presetOf } from './chips/registry';
import type { SccCore } from './chips/scc/core';
import type { CoreBase } from './core';
import { allocateBuffers, makeViews, type Layout, type Views } from './layout';
import type { Results } from './results';
import { Simulation } from './simulation';
import type { Sim } from './vocabulary';
import type { WorkloadDef } from './workload';

export interface ProgramRun<K extends CoreBase = SccCore> {
  cores: number[];
  program: (core: K) => Sim<void>;
  /** Chip preset (default 'scc'); the program's core is that preset's family's class. */
  preset?: string;
  chip?: Record<string, unknown>;
  seed?: number;
  quantumNs?: number;
  timeline?: unknown[];
  maxTimeNs?: number;
}

export function programWorkload<K extends CoreBase = SccCore>(run: ProgramRun<K>): WorkloadDef<Record<string, never>, K> {
  return {
    name: 'test-program',
    title: 'test program',
    description: 'an ad-hoc program for tests',
    families: [presetOf(run.preset ?? 'scc').family],
    params: z.strictObject({}) as unknown as z.ZodType<Record<string, never>>,
    participants: () => run.cores,
    program: (core) => run.program(core),
  };
}

export function experimentFor<K extends CoreBase>(run: ProgramRun<K>): Record<string, unknown> {
  return {
    version: 1,
    chip: { preset: run.preset ?? 'scc', overrides: run.chip ?? {} },
    workload: { name: 'test-program', params: {} },
    seed: run.seed ?? 1,
    quantumNs: run.quantumNs ?? 1000,
    timeline: run.timeline ?? [],
    stop: run.maxTimeNs !== undefined ? { maxTimeNs: run.maxTimeNs } : {},
  };
}

export function runProgram<K extends CoreBase = SccCore>(run: ProgramRun<K>): Results {
  const sim = new Simulation(experimentFor(run), { 'test-program': programWorkload(run) }, { layout: { wlogCap: 4096, txnCap: 2048 } });
  return sim.runInline();
}

/**
 * Zeroes every region of the state buffer but the caches (l1, l2), and the DRAM pool: a fresh
 * state as allocateBuffers gives, without allocating (found from the layout's offsets, so a
 * region added to the layout is zeroed too).
 */
export function zeroState(v: Views): void {
  const regions = Object.entries(v.layout.off).sort((a, b) => a[1] - b[1]);
  const bytes = new Uint8Array(v.state);
  regions.forEach(([name, start], i) => {
    if (name !== 'l1' && name !== 'l2') bytes.fill(0, start, i + 1 < regions.length ? regions[i + 1]![1] : v.layout.stateBytes);
  });
  v.poolU8.fill(0);
}

/** Fresh buffers and views over `layout`. */
export function freshState(layout: Layout): Views {
  const { state, pool } = allocateBuffers(layout);
  return makeViews(layout, state, pool);
}

/** One state over `layout`, zeroed at every call (property tests: a fresh 20 MB state per run costs more than the run). */
export function reusedState(layout: Layout): () => Views {
  let v: Views | null = null;
  return () => {
    v ??= freshState(layout);
    zeroState(v);
    return v;
  };
}
