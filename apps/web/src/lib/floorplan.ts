/**
 * What the web knows about a chip's family: only what the family's FloorplanSpec says
 * (familyOf(chip.family).floorplan(chip)). Views ask these helpers instead of assuming SCC
 * parts (an MPB per tile, voltage islands, 32-byte memory transactions).
 */
import { familyOf, presetOf, resolveChip, type FloorplanSpec, type ResolvedChip } from '@manycore/engine';

const cache = new WeakMap<ResolvedChip, FloorplanSpec>();

/** The family's floorplan of `chip` (computed once per resolved chip). */
export function floorplanOf(chip: ResolvedChip): FloorplanSpec {
  let spec = cache.get(chip);
  if (!spec) {
    spec = familyOf(chip.family).floorplan(chip);
    cache.set(chip, spec);
  }
  return spec;
}

/** The family's floorplan of an experiment's chip (preset + overrides), or null when it does not resolve. */
export function floorplanOfExperiment(chip: { preset: string; overrides?: Record<string, unknown> }): FloorplanSpec | null {
  try {
    return floorplanOf(resolveChip(chip.preset, chip.overrides ?? {}));
  } catch {
    return null;
  }
}

/** Bytes per memory transaction the controllers count (the SCC's 32 B lines, TILE64's 64 B). */
export function transactionBytesOf(experimentChip: { preset: string; overrides?: Record<string, unknown> }): number {
  return floorplanOfExperiment(experimentChip)?.transactionBytes ?? 32;
}

/**
 * Whether the tiles hold message-passing buffers (the engine's `mpb` region): the tile store
 * the family names "MPB". Only then do MPB occupancy, MPB accesses and MPB stalls mean anything.
 */
export function hasMpb(spec: FloorplanSpec): boolean {
  return spec.tileStore !== null && /^MPB\b/.test(spec.tileStore.label);
}

/** Whether the family draws power domains (voltage islands) of its own. */
export function hasDomains(spec: FloorplanSpec): boolean {
  return spec.domains.length > 0;
}

/** A domain's label (the spec's), else "domain i". */
export function domainLabel(spec: FloorplanSpec, i: number): string {
  return spec.domains[i]?.label ?? `domain ${i}`;
}

/** A controller's label (the spec's), else "MC m". */
export function controllerLabel(spec: FloorplanSpec, m: number): string {
  return spec.controllers[m]?.label ?? `MC${m}`;
}

/** What the family calls its controllers ("MC" for MC0, MC1, ...; "DDR" for DDR0, ...). */
export function controllerKind(spec: FloorplanSpec): string {
  const first = spec.controllers[0]?.label ?? 'MC';
  return first.replace(/\s*\d+$/, '') || first;
}

/** Chip family title of a preset (for grouping presets in the editor). */
export function familyTitleOf(preset: string): string {
  try {
    return familyOf(presetOf(preset).family).title;
  } catch {
    return preset;
  }
}
