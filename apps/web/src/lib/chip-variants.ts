/**
 * The editor's mesh-size menu: the engine's MESH_VARIANTS (one definition for the web lab and
 * the CLI), read from and applied to a draft's chip (preset + overrides). A variant is a
 * preset and its mesh size: the SCC itself, or the `mesh` preset at a width x height, whose
 * islands, controllers, registers and LUT the engine derives from the size.
 */
import { MESH_VARIANTS, PRESETS, type MeshVariant } from '@manycore/engine';
import { getPath, setPath } from './params';

export type ChipVariant = MeshVariant;
export const CHIP_VARIANTS: readonly ChipVariant[] = MESH_VARIANTS;

/** A draft's chip choice. */
export interface ChipChoice {
  preset: string;
  overrides: Record<string, unknown>;
}

/** Overrides a variant owns besides the mesh size: dropped when switching variants (the mesh preset derives them). */
const DERIVED = ['islands.tiles', 'memory.controllers', 'lut', 'testAndSetRegisters'];
const SIZE = ['mesh.width', 'mesh.height'];

function sizeOf(chip: ChipChoice): [unknown, unknown] {
  const preset = PRESETS[chip.preset]?.chip;
  return [getPath(chip.overrides, 'mesh.width') ?? getPath(preset, 'mesh.width'), getPath(chip.overrides, 'mesh.height') ?? getPath(preset, 'mesh.height')];
}

/** The variant a chip choice is, or 'custom'. */
export function variantOf(chip: ChipChoice): string {
  if (DERIVED.some((p) => getPath(chip.overrides, p) !== undefined)) return 'custom';
  const [w, h] = sizeOf(chip);
  for (const v of CHIP_VARIANTS) {
    if (v.preset !== chip.preset) continue;
    const [vw, vh] = sizeOf({ preset: v.preset, overrides: v.overrides });
    if (vw === w && vh === h) return v.id;
  }
  return 'custom';
}

/**
 * The chip choice with variant `id`: its preset and mesh size. Other overrides stay when the
 * preset's family stays (clock divisors, latencies), and are dropped when it changes.
 */
export function applyVariant(chip: ChipChoice, id: string): ChipChoice {
  const v = CHIP_VARIANTS.find((x) => x.id === id);
  if (!v) return chip;
  if (PRESETS[chip.preset]?.family !== PRESETS[v.preset]?.family) return { preset: v.preset, overrides: JSON.parse(JSON.stringify(v.overrides)) as Record<string, unknown> };
  let out = chip.overrides;
  for (const p of [...SIZE, ...DERIVED]) out = setPath(out, p, undefined);
  for (const p of SIZE) {
    const val = getPath(v.overrides, p);
    if (val !== undefined) out = setPath(out, p, val);
  }
  return { preset: v.preset, overrides: out };
}
