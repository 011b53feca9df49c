/**
 * Helpers for tests: run an ad-hoc per-core program inline (all cores on the calling thread)
 * without registering a workload. Same engine path as any other run.
 */
import { z } from 'zod';
import { presetOf } from './chips/registry';
import type { SccCore } from './chips/scc/core';
import type { CoreBase } from './core';
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
