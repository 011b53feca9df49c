/**
 * Helpers for tests: run an ad-hoc per-core program inline (all cores on the calling thread)
 * without registering a workload. Same engine path as any other run.
 */
import { z } from 'zod';
import type { SccCore } from './chips/scc/core';
import type { Results } from './results';
import { Simulation } from './simulation';
import type { Sim } from './vocabulary';
import type { WorkloadDef } from './workload';

export interface ProgramRun {
  cores: number[];
  program: (core: SccCore) => Sim<void>;
  chip?: Record<string, unknown>;
  seed?: number;
  quantumNs?: number;
  timeline?: unknown[];
  maxTimeNs?: number;
}

export function programWorkload(run: ProgramRun): WorkloadDef<Record<string, never>, SccCore> {
  return {
    name: 'test-program',
    title: 'test program',
    description: 'an ad-hoc program for tests',
    params: z.strictObject({}) as unknown as z.ZodType<Record<string, never>>,
    participants: () => run.cores,
    program: (core) => run.program(core),
  };
}

export function experimentFor(run: ProgramRun): Record<string, unknown> {
  return {
    version: 1,
    chip: { preset: 'scc', overrides: run.chip ?? {} },
    workload: { name: 'test-program', params: {} },
    seed: run.seed ?? 1,
    quantumNs: run.quantumNs ?? 1000,
    timeline: run.timeline ?? [],
    stop: run.maxTimeNs !== undefined ? { maxTimeNs: run.maxTimeNs } : {},
  };
}

export function runProgram(run: ProgramRun): Results {
  const sim = new Simulation(experimentFor(run), { 'test-program': programWorkload(run) }, { layout: { wlogCap: 4096, txnCap: 2048 } });
  return sim.runInline();
}
