/**
 * The experiment editor's model: form fields derived from the zod schemas (workload
 * parameters from the registry, a curated set of chip fields per chip family from that
 * family's schema, the experiment's own settings), a draft that may hold invalid values, and
 * validation that names each problem next to its field.
 */
import { z } from 'zod';
import {
  deepMerge,
  ExperimentError,
  familyOf,
  ExperimentSchema,
  formatIssues,
  parseExperiment,
  plainIssue,
  prepareRun,
  PRESETS,
  resolveChip,
  type ChipConfigBase,
  type Experiment,
  type WorkloadRegistry,
} from '@manycore/engine';

export type FieldKind = 'integer' | 'number' | 'boolean' | 'enum' | 'string';

export interface Field {
  /** Unique key: "param.<name>", "chip.<dotted path>" or "exp.<dotted path>". */
  key: string;
  name: string;
  label: string;
  kind: FieldKind;
  default?: unknown;
  min?: number;
  max?: number;
  options?: string[];
  description?: string;
}

interface JsonProp {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  description?: string;
  enum?: unknown[];
  properties?: Record<string, JsonProp>;
  anyOf?: JsonProp[];
}

const HUGE = 2 ** 52;

function fieldFromProp(key: string, name: string, p: JsonProp, label = name): Field {
  const kind: FieldKind = p.enum ? 'enum' : p.type === 'integer' ? 'integer' : p.type === 'number' ? 'number' : p.type === 'boolean' ? 'boolean' : 'string';
  const f: Field = { key, name, label, kind };
  if (p.default !== undefined) f.default = p.default;
  const min = p.minimum ?? p.exclusiveMinimum;
  const max = p.maximum ?? p.exclusiveMaximum;
  if (min !== undefined && Math.abs(min) < HUGE) f.min = min;
  if (max !== undefined && Math.abs(max) < HUGE) f.max = max;
  if (p.enum) f.options = p.enum.map(String);
  if (p.description) f.description = p.description;
  return f;
}

/** Form fields of a workload's parameters, from its zod schema (defaults, ranges, descriptions). */
export function workloadFields(registry: WorkloadRegistry, name: string): Field[] {
  const def = registry[name];
  if (!def) return [];
  const schema = z.toJSONSchema(def.params as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonProp;
  return Object.entries(schema.properties ?? {}).map(([n, p]) => fieldFromProp(`param.${n}`, n, p));
}

/**
 * Chip parameters the editor shows as fields, per chip family (the overrides JSON covers the
 * rest). Paths are dotted paths into that family's config; ranges, defaults and descriptions
 * come from the family's schema.
 */
export const CHIP_FIELD_PATHS: Record<string, { path: string; label: string }[]> = {
  scc: [
    { path: 'clocks.divisor', label: 'Core clock divisor (base MHz / d)' },
    { path: 'clocks.meshMHz', label: 'Mesh clock, MHz' },
    { path: 'clocks.memoryMHz', label: 'Memory clock, MHz' },
    { path: 'l2Enabled', label: 'L2 caches on' },
    { path: 'missesInFlight', label: 'Outstanding misses per core' },
    { path: 'mesh.hopMeshCycles', label: 'Hop latency, mesh cycles' },
    { path: 'memory.dram.model', label: 'DRAM controller model (ddr: banks and open rows; fixed: one service time)' },
    { path: 'memory.dram.tCkNs', label: 'DRAM clock period tCK, ns (2.5 at 800 MT/s, 1.875 at 1066)' },
    { path: 'memory.dram.tRcdNs', label: 'DRAM tRCD (activate to read), ns' },
    { path: 'mpb.remoteAccessCycles', label: 'Remote MPB access, core cycles' },
  ],
  tile64: [
    { path: 'clocks.baseMHz', label: 'Core clock, MHz' },
    { path: 'missesInFlight', label: 'Outstanding misses per core' },
    { path: 'homing.remoteBaseCycles', label: 'Remote home access, base cycles' },
    { path: 'memory.accessCycles', label: 'DRAM access next to a controller, cycles' },
    { path: 'tlb.hugePages', label: '16 MB huge pages' },
    { path: 'tlb.missCycles', label: 'TLB miss handler, cycles' },
    { path: 'dma.setupCycles', label: 'DMA setup and completion, cycles' },
  ],
};

/** The chip family of a preset (undefined for an unknown preset). */
export function familyOfPreset(preset: string): string | undefined {
  return PRESETS[preset]?.family;
}

/** The field paths of a family (none for a family the editor has no list for: the overrides JSON covers it). */
export function chipFieldPaths(family: string): { path: string; label: string }[] {
  return CHIP_FIELD_PATHS[family] ?? [];
}

const chipJson = new Map<string, JsonProp>();
function chipProp(family: string, path: string): JsonProp | undefined {
  let json = chipJson.get(family);
  if (!json) {
    json = z.toJSONSchema(familyOf(family).schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonProp;
    chipJson.set(family, json);
  }
  let p: JsonProp | undefined = json;
  for (const part of path.split('.')) p = p?.properties?.[part];
  return p;
}

/** The chip fields of a family (default: the SCC family, the default experiment's). */
export function chipFields(family = 'scc'): Field[] {
  return chipFieldPaths(family).map(({ path, label }) => {
    const p = chipProp(family, path) ?? {};
    return fieldFromProp(`chip.${path}`, path, p, label);
  });
}

/**
 * The draft with another preset. Overrides and timeline events belong to a family's config
 * (its paths, its power domains): when the family changes they are cleared, and `cleared`
 * says what went (for a visible note). Within one family they are kept.
 */
export function withPreset(draft: Draft, preset: string): { draft: Draft; cleared: string | null } {
  const from = familyOfPreset(draft.chip.preset);
  const to = familyOfPreset(preset);
  if (from === to) return { draft: { ...draft, chip: { ...draft.chip, preset } }, cleared: null };
  const what: string[] = [];
  const n = Object.keys(draft.chip.overrides).length;
  if (n > 0) what.push(`the chip overrides (${JSON.stringify(draft.chip.overrides).slice(0, 120)})`);
  if (draft.timeline.length > 0) what.push(`${draft.timeline.length} timeline change${draft.timeline.length === 1 ? '' : 's'}`);
  const next: Draft = { ...draft, chip: { preset, overrides: {} }, timeline: [] };
  return { draft: next, cleared: what.length ? `${what.join(' and ')} of the ${from ?? 'previous'} family` : null };
}

/** The experiment's own settings. */
export function experimentFields(): Field[] {
  const json = z.toJSONSchema(ExperimentSchema, { io: 'input', unrepresentable: 'any' }) as JsonProp;
  const props = json.properties ?? {};
  const stop = props.stop?.properties?.maxTimeNs ?? {};
  return [
    fieldFromProp('exp.seed', 'seed', props.seed ?? {}, 'Seed'),
    fieldFromProp('exp.quantumNs', 'quantumNs', props.quantumNs ?? {}, 'Quantum (epoch), ns'),
    fieldFromProp('exp.sampleIntervalNs', 'sampleIntervalNs', props.sampleIntervalNs ?? {}, 'Sample interval, ns'),
    { ...fieldFromProp('exp.stop.maxTimeNs', 'stop.maxTimeNs', stop, 'Stop at, ns (empty: run to the end)'), kind: 'number' },
  ];
}

export function getPath(obj: unknown, path: string): unknown {
  let o: unknown = obj;
  for (const part of path.split('.')) {
    if (o === null || typeof o !== 'object') return undefined;
    o = (o as Record<string, unknown>)[part];
  }
  return o;
}

/** Returns a copy of obj with path set to value (undefined removes it, and empty parents). */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  const parts = path.split('.');
  const walk = (o: unknown, i: number): unknown => {
    const base: Record<string, unknown> = o !== null && typeof o === 'object' && !Array.isArray(o) ? { ...(o as Record<string, unknown>) } : {};
    const k = parts[i]!;
    if (i === parts.length - 1) {
      if (value === undefined) delete base[k];
      else base[k] = value;
    } else {
      const child = walk(base[k], i + 1);
      if (child && typeof child === 'object' && Object.keys(child).length === 0) delete base[k];
      else base[k] = child;
    }
    return base;
  };
  return walk(obj, 0) as T;
}

const NUMBER_RE = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/** Turns what the user typed into the value to store: a number when it parses, else the text (flagged by validation). */
export function parseInput(field: Field, text: string): unknown {
  if (field.kind === 'integer' || field.kind === 'number') {
    if (text.trim() === '') return field.key === 'exp.stop.maxTimeNs' ? undefined : text;
    return NUMBER_RE.test(text) ? Number(text) : text;
  }
  return text;
}

/** A draft: an experiment whose values may still be invalid (strings where numbers belong). */
export type Draft = {
  version: number;
  chip: { preset: string; overrides: Record<string, unknown> };
  workload: { name: string; params: Record<string, unknown> };
  seed: unknown;
  quantumNs: unknown;
  sampleIntervalNs: unknown;
  stop: { maxTimeNs?: unknown };
  timeline: Experiment['timeline'];
};

export function draftOf(exp: Experiment): Draft {
  return JSON.parse(JSON.stringify(exp)) as Draft;
}

/** Value shown in a field: the draft's value, else the preset's (chip) or the default. */
export function fieldValue(draft: Draft, field: Field): unknown {
  if (field.key.startsWith('param.')) return draft.workload.params[field.name] ?? field.default;
  if (field.key.startsWith('chip.')) {
    const v = getPath(draft.chip.overrides, field.name);
    if (v !== undefined) return v;
    return getPath(PRESETS[draft.chip.preset]?.chip, field.name);
  }
  return getPath(draft, field.key.slice(4));
}

/** Writes a field into a copy of the draft. Chip values equal to the preset's are dropped from the overrides. */
export function withField(draft: Draft, field: Field, value: unknown): Draft {
  if (field.key.startsWith('param.')) {
    const params = { ...draft.workload.params };
    if (value === undefined) delete params[field.name];
    else params[field.name] = value;
    return { ...draft, workload: { ...draft.workload, params } };
  }
  if (field.key.startsWith('chip.')) {
    const presetValue = getPath(PRESETS[draft.chip.preset]?.chip, field.name);
    const v = value === presetValue ? undefined : value;
    return { ...draft, chip: { ...draft.chip, overrides: setPath(draft.chip.overrides, field.name, v) } };
  }
  return setPath(draft, field.key.slice(4), value);
}

export interface Validation {
  experiment: Experiment | null;
  fieldErrors: Record<string, string>;
  general: string[];
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Validates a draft; names every problem, next to its field where there is one. */
export function validateDraft(draft: Draft, registry: WorkloadRegistry): Validation {
  const fieldErrors: Record<string, string> = {};
  const general: string[] = [];
  const numericText = (key: string, v: unknown) => {
    if (typeof v === 'string') fieldErrors[key] = `"${v.slice(0, 30)}" is not a number`;
  };
  // experiment-level fields
  for (const f of experimentFields()) numericText(f.key, getPath(draft, f.key.slice(4)));
  // workload parameters
  const def = registry[draft.workload.name];
  if (!def) general.push(`workload.name: "${draft.workload.name}" is not in this lab (known: ${Object.keys(registry).join(', ')})`);
  else {
    const fields = workloadFields(registry, draft.workload.name);
    for (const f of fields) {
      const v = draft.workload.params[f.name];
      if ((f.kind === 'integer' || f.kind === 'number') && typeof v === 'string') numericText(f.key, v);
    }
    const parsed = def.params.safeParse(draft.workload.params);
    if (!parsed.success)
      for (const i of parsed.error.issues) {
        const key = i.path.length ? `param.${issuePath(i.path)}` : '';
        if (key && !fieldErrors[key]) fieldErrors[key] = plainIssue(i);
        else if (!key) general.push(`workload.params: ${plainIssue(i)}`);
      }
  }
  // chip
  const preset = PRESETS[draft.chip.preset];
  if (!preset) general.push(`chip.preset: unknown preset "${draft.chip.preset}" (known: ${Object.keys(PRESETS).join(', ')})`);
  else {
    const merged = deepMerge(JSON.parse(JSON.stringify(preset.chip)), draft.chip.overrides);
    const parsed = familyOf(preset.family).schema.safeParse(merged);
    if (!parsed.success) {
      // a chip field's problem beside that field; any other (a path only the overrides JSON sets) beside the JSON
      const known = new Set(chipFieldPaths(preset.family).map((f) => f.path));
      const other: string[] = [];
      for (const i of parsed.error.issues) {
        const p = issuePath(i.path);
        if (known.has(p)) fieldErrors[`chip.${p}`] ??= plainIssue(i);
        else other.push(formatIssues(new z.ZodError([i]), 'chip'));
      }
      if (other.length) fieldErrors[OVERRIDES_KEY] = other.join('\n');
    }
  }
  if (Object.keys(fieldErrors).length > 0 || general.length > 0) return { experiment: null, fieldErrors, general };
  // the whole experiment (cross-field rules: participants, timeline, ...)
  try {
    const experiment = parseExperiment(draft);
    prepareRun(experiment, registry);
    return { experiment, fieldErrors, general };
  } catch (err) {
    // problems that concern one field (a parameter the chip cannot satisfy: "at most 48: this
    // chip has 48 cores") go beside it; the rest, and all of them when one has no field here, in the list
    const lines = (err instanceof Error ? err.message : String(err)).split('\n');
    const fields = err instanceof ExperimentError ? Object.entries(err.fields) : [];
    const keys = new Set([...workloadFields(registry, draft.workload.name), ...chipFields(familyOfPreset(draft.chip.preset)), ...experimentFields()].map((f) => f.key));
    const mapped = fields.map(([path, message]) => [fieldKeyOf(path), message] as const);
    if (mapped.length > 0 && mapped.length === lines.length && mapped.every(([k]) => keys.has(k))) for (const [k, message] of mapped) fieldErrors[k] = message;
    else general.push(...lines);
    return { experiment: null, fieldErrors, general };
  }
}

/** The editor's key for the overrides JSON (its syntax errors and chip problems no field shows). */
export const OVERRIDES_KEY = 'chip.overrides';

/**
 * The editor field key of an experiment path as ExperimentError.fields names it
 * ("workload.params.cores" -> "param.cores", "chip.clocks.divisor" -> itself, "seed" -> "exp.seed").
 */
export function fieldKeyOf(path: string): string {
  if (path.startsWith('workload.params.')) return `param.${path.slice('workload.params.'.length)}`;
  if (path.startsWith('chip.')) return path;
  return `exp.${path}`;
}

/**
 * The validation with the overrides JSON's own problem (text that does not parse: the draft
 * still holds the last good overrides, so a run would silently ignore the text): it blocks the run.
 */
export function withOverridesProblem(v: Validation, problem: string | null): Validation {
  if (!problem) return v;
  return { experiment: null, fieldErrors: { ...v.fieldErrors, [OVERRIDES_KEY]: problem }, general: v.general };
}

/** The problem of overrides text, in words (null when it is a JSON object). */
export function overridesProblem(text: string): { problem: string | null; value: Record<string, unknown> | null } {
  let v: unknown;
  try {
    v = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (err) {
    return { problem: `not valid JSON: ${err instanceof Error ? err.message : String(err)}. Run waits until it parses.`, value: null };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { problem: `a JSON object is needed, like {"clocks":{"divisor":5}}, not ${Array.isArray(v) ? 'a list' : JSON.stringify(v)}. Run waits until it is one.`, value: null };
  return { problem: null, value: v as Record<string, unknown> };
}

/** The short name of a field key for a summary ("param.cores" -> "cores", "chip.overrides" -> "chip overrides (JSON)"). */
function shortName(key: string): string {
  if (key === OVERRIDES_KEY) return 'chip overrides (JSON)';
  return key.replace(/^(param|chip|exp)\./, '');
}

/**
 * Why Run is disabled, in one line for beside the Run button ("Fix 2 problems in the editor:
 * cores, bufferBytes"), or null when the experiment can run.
 */
export function runBlockedReason(v: Validation): string | null {
  if (v.experiment) return null;
  const names = [...Object.keys(v.fieldErrors).map(shortName), ...v.general.map((g) => /^([\w.]+(?: \([\w-]+\))?)[.:]/.exec(g)?.[1] ?? 'see the list below the editor')];
  const unique = [...new Set(names)];
  const n = Object.keys(v.fieldErrors).length + v.general.length;
  if (n === 0) return 'Checking the experiment…';
  return `Fix ${n} problem${n === 1 ? '' : 's'} in the editor: ${unique.join(', ')}`;
}

/** Cores of a chip choice (null when it does not resolve). */
export function chipCores(chip: { preset: string; overrides: Record<string, unknown> }): number | null {
  try {
    return resolveChip(chip.preset, chip.overrides).topo.cores;
  } catch {
    return null;
  }
}

/**
 * The draft on a chip with another core count. The workload's core-count parameter
 * (WorkloadDef.coresParam) follows the chip when it used every core of the old chip (cores=48
 * on the 48-core SCC becomes 256 on a 256-core mesh); otherwise it stays. Either way the note
 * says what happened (nothing changes silently); a value the new chip cannot run is flagged
 * beside its field by validation too.
 */
export function followChip(draft: Draft, registry: WorkloadRegistry, fromCores: number | null, toCores: number | null): { draft: Draft; note: string | null } {
  const def = registry[draft.workload.name];
  const cp = def?.coresParam;
  if (!cp || fromCores === null || toCores === null || fromCores === toCores) return { draft, note: null };
  // a workload of another chip family does not run here at all (validation says so): nothing to follow
  if (!(def.families ?? ['scc']).includes(familyOfPreset(draft.chip.preset) ?? '')) return { draft, note: null };
  const field = workloadFields(registry, draft.workload.name).find((f) => f.name === cp.name);
  const value = draft.workload.params[cp.name] ?? field?.default;
  if (!field || typeof value !== 'number') return { draft, note: null }; // text: its field says it is not a number
  const extra = cp.extraCores ?? 0;
  const uses = value + extra;
  const plus = extra ? ` + ${extra}` : '';
  if (uses === fromCores) {
    const next = withField(draft, field, toCores - extra);
    const problem = validateDraft(next, registry).fieldErrors[field.key];
    if (!problem) return { draft: next, note: `${cp.name} follows the chip: ${value} → ${toCores - extra} (it used all ${fromCores} cores of the previous chip; this one has ${toCores}).` };
    return { draft, note: `${cp.name} stays ${value}: all ${toCores} cores cannot run here (${cp.name}=${toCores - extra}: ${problem}). The run uses ${uses} of this chip's ${toCores} cores.` };
  }
  if (uses > toCores) return { draft, note: `${cp.name}=${value}${plus} needs ${uses} cores but this chip has ${toCores}: lower it (see the field).` };
  return { draft, note: `${cp.name} stays ${value}: the run uses ${uses} of this chip's ${toCores} cores.` };
}

/** The effective chip config of a draft (preset + overrides), or null when invalid. */
export function effectiveChip(draft: Draft): ChipConfigBase | null {
  const preset = PRESETS[draft.chip.preset];
  if (!preset) return null;
  const parsed = familyOf(preset.family).schema.safeParse(deepMerge(JSON.parse(JSON.stringify(preset.chip)), draft.chip.overrides));
  return parsed.success ? (parsed.data as ChipConfigBase) : null;
}
