/**
 * The chip families and presets the engine knows. A preset names its family; an experiment
 * names a preset (chip.preset) and overrides; `chipConfig` validates the merged config with
 * the family's schema and `resolveFamilyChip` resolves it. This is the only module that
 * imports every family.
 */
import { deepMerge, type ResolvedChip } from '../chip';
import { ExperimentError, formatIssues, issueFields } from '../experiment';
import type { AnyChipFamily, ChipPreset } from './family';
import { sccFamily, sccPresets } from './scc/index';
import { tile64Family, tile64Presets } from './tile64/index';
import { clusterFamily, clusterPresets } from './cluster/index';

export const FAMILIES: Record<string, AnyChipFamily> = {
  [sccFamily.name]: sccFamily,
  [tile64Family.name]: tile64Family,
  [clusterFamily.name]: clusterFamily,
};

/** Every family's presets by name (a family's index.ts lists its own, with sources). */
export const PRESETS: Record<string, ChipPreset> = {
  ...sccPresets,
  ...tile64Presets,
  ...clusterPresets,
};

export function presetNames(): string[] {
  return Object.keys(PRESETS);
}

export function presetOf(preset: string): ChipPreset {
  const p = PRESETS[preset];
  if (!p) throw new ExperimentError(`chip.preset: unknown preset "${preset}" (known: ${presetNames().join(', ')})`);
  return p;
}

export function familyOf(name: string): AnyChipFamily {
  const f = FAMILIES[name];
  if (!f) throw new Error(`unknown chip family "${name}"`);
  return f;
}

/** The preset's config with overrides merged and validated by its family's schema. */
export function chipConfig(preset: string, overrides: Record<string, unknown> = {}): unknown {
  const p = presetOf(preset);
  const merged = deepMerge(JSON.parse(JSON.stringify(p.chip)), overrides);
  const parsed = familyOf(p.family).schema.safeParse(merged);
  if (!parsed.success) throw new ExperimentError(formatIssues(parsed.error, 'chip'), issueFields(parsed.error, 'chip'));
  return parsed.data;
}

/** Resolves a validated config of `preset`'s family. */
export function resolvePresetChip(preset: string, config: unknown): ResolvedChip {
  return familyOf(presetOf(preset).family).resolve(config);
}

/** Validates `preset` with `overrides` and resolves it: the ResolvedChip a run of that chip uses. */
export function resolveChip(preset: string, overrides: Record<string, unknown> = {}): ResolvedChip {
  return resolvePresetChip(preset, chipConfig(preset, overrides));
}
