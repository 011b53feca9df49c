/**
 * Mesh-size variants of a preset, as chip overrides: the SCC's own 6x4 mesh, and larger
 * meshes built from the same tiles (2 cores, one MPB, one router each) with voltage islands
 * of 2x2 tiles, memory controllers on the left and right edges, and a LUT that fits.
 */
import { getPath, setPath } from './params';

export interface ChipVariant {
  id: string;
  label: string;
  /** Overrides that make this variant (empty: the preset as is). */
  overrides: Record<string, unknown>;
}

export function islands2x2(width: number, height: number): number[][] {
  const out: number[][] = [];
  for (let by = 0; by < height; by += 2)
    for (let bx = 0; bx < width; bx += 2) {
      const list: number[] = [];
      for (let y = by; y < Math.min(by + 2, height); y++) for (let x = bx; x < Math.min(bx + 2, width); x++) list.push(y * width + x);
      out.push(list);
    }
  return out;
}

function mesh(width: number, height: number): Record<string, unknown> {
  const controllers: { x: number; y: number }[] = [];
  const perSide = Math.max(1, Math.min(7, Math.floor(height / 2)));
  for (const x of [0, width - 1])
    for (let i = 0; i < perSide; i++) controllers.push({ x, y: Math.floor((i * height) / perSide) });
  controllers.sort((a, b) => a.y - b.y || a.x - b.x);
  const cores = width * height * 2;
  return {
    mesh: { width, height },
    islands: { tiles: islands2x2(width, height) },
    memory: { controllers },
    lut: { privatePages: 8, sharedBasePage: 0x10, sharedPages: 32, sharedGroupPages: 4, mpbBasePage: 0x40 },
    testAndSetRegisters: cores,
  };
}

export const CHIP_VARIANTS: ChipVariant[] = [
  { id: 'preset', label: 'as the preset (SCC: 6×4 tiles, 48 cores)', overrides: {} },
  { id: 'mesh-8x8', label: '8×8 tiles, 128 cores', overrides: mesh(8, 8) },
  { id: 'mesh-16x8', label: '16×8 tiles, 256 cores', overrides: mesh(16, 8) },
];

/** Override paths a variant owns (replaced when switching variants). */
const OWNED = ['mesh.width', 'mesh.height', 'islands.tiles', 'memory.controllers', 'lut', 'testAndSetRegisters'];

export function variantOf(overrides: Record<string, unknown>): string {
  const w = getPath(overrides, 'mesh.width');
  const h = getPath(overrides, 'mesh.height');
  if (w === undefined && h === undefined) return 'preset';
  for (const v of CHIP_VARIANTS) if (getPath(v.overrides, 'mesh.width') === w && getPath(v.overrides, 'mesh.height') === h) return v.id;
  return 'custom';
}

export function applyVariant(overrides: Record<string, unknown>, id: string): Record<string, unknown> {
  const v = CHIP_VARIANTS.find((x) => x.id === id);
  if (!v) return overrides;
  let out = overrides;
  for (const p of OWNED) out = setPath(out, p, undefined);
  for (const p of OWNED) {
    const val = getPath(v.overrides, p);
    if (val !== undefined) out = setPath(out, p, val);
  }
  return out;
}
