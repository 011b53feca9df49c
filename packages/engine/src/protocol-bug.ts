/**
 * Protocol bugs on purpose: a workload may declare switches that break one rule of its
 * protocol (WorkloadDef.bugs: the value of its `bug` parameter -> one sentence on what should go
 * wrong; 'none', the default, is the correct protocol). This module answers "is a bug on in this
 * experiment, and what should it do?" for the results, the CLI summary and the web's badge.
 *
 * Contract
 * - `protocolBugOf(experiment, registry)`: {workload, bug, expect} when the experiment's workload
 *   declares bugs and its `bug` parameter names one of them (not 'none'); null otherwise (an
 *   unknown workload, no `bug`, 'none', or a value the workload does not declare, which its
 *   parameter schema rejects anyway). Pure; reads the parameters as given (a link, a file).
 * - `paramsForDigest(params)`: the parameters the results digest covers: without `bug` when it is
 *   'none', so a run with the bug off has the digest it had before the switch existed.
 */
import type { WorkloadRegistry } from './workload';

export const NO_BUG = 'none';

export interface ProtocolBug {
  workload: string;
  bug: string;
  /** What should go wrong (the workload's sentence). */
  expect: string;
}

export function protocolBugOf(experiment: { workload?: { name?: string; params?: Record<string, unknown> } } | null | undefined, registry: WorkloadRegistry): ProtocolBug | null {
  const name = experiment?.workload?.name;
  if (typeof name !== 'string') return null;
  const def = Object.prototype.hasOwnProperty.call(registry, name) ? registry[name] : undefined;
  const bug = experiment?.workload?.params?.bug;
  if (!def?.bugs || typeof bug !== 'string' || bug === NO_BUG) return null;
  if (!Object.prototype.hasOwnProperty.call(def.bugs, bug)) return null;
  return { workload: name, bug, expect: def.bugs[bug]! };
}

export function paramsForDigest(params: Record<string, unknown>): Record<string, unknown> {
  if (params.bug !== NO_BUG) return params;
  const { bug: _bug, ...rest } = params;
  return rest;
}
