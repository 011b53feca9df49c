import { describe, expect, it } from 'vitest';
import { corePeriodPs, deepMerge } from '../../chip';
import { lutKind, lutUnit, TARGET_DRAM, TARGET_MPB, lutAttrs, ATTR_MPBT } from '../../vocabulary';
import { chipConfig as anyChipConfig } from '../registry';
import { resolveScc } from './resolve';
import type { SccChipConfig } from './schema';

const chipConfig = (preset: string, overrides: Record<string, unknown> = {}) => anyChipConfig(preset, overrides) as SccChipConfig;
const resolveChip = resolveScc;

describe('SCC preset', () => {
  const chip = resolveChip(chipConfig('scc'));

  it('has the numbers of scc.md section 1', () => {
    expect(chip.topo).toMatchObject({ width: 6, height: 4, tiles: 24, cores: 48, coresPerTile: 2 });
    expect(chip.config.caches.l1d.sizeBytes).toBe(16384);
    expect(chip.config.caches.l2.sizeBytes).toBe(262144);
    expect(chip.config.mpb.bytesPerTile).toBe(16384);
    expect(Array.from(chip.controllerTile)).toEqual([0, 5, 12, 17]); // (0,0) (5,0) (0,2) (5,2)
    expect(corePeriodPs(chip, 3)).toBe(1875); // 533 MHz
    expect(corePeriodPs(chip, 2)).toBe(1250); // 800 MHz
    expect(chip.meshPeriodPs).toBe(1250);
    expect(chip.islands).toBe(6);
    expect(chip.vf.get(5)).toEqual({ freqMHz: 320, volts: 0.6 });
    expect(chip.missesInFlight).toBe(2);
  });

  it('maps private memory to the nearest controller and shared pages in four groups of 15', () => {
    const lut = (core: number, page: number) => chip.luts[core * 256 + page]!;
    expect(lutUnit(lut(0, 0))).toBe(0);
    expect(lutUnit(lut(47, 0))).toBe(3);
    const shared = Array.from({ length: 60 }, (_, s) => lutUnit(lut(7, 0x80 + s)));
    expect(shared.slice(0, 15).every((c) => c === 0)).toBe(true);
    expect(shared.slice(15, 30).every((c) => c === 1)).toBe(true);
    expect(shared.slice(30, 45).every((c) => c === 2)).toBe(true);
    expect(shared.slice(45, 60).every((c) => c === 3)).toBe(true);
    expect(lutKind(lut(3, 0x80))).toBe(TARGET_DRAM);
    expect(lutKind(lut(3, 0xc0))).toBe(TARGET_MPB); // all 24 MPBs, 16 KB apart, in one page
    expect(lutKind(lut(3, 0xc1))).toBe(0);
    expect(lutAttrs(lut(3, 0xc0))).toBe(ATTR_MPBT);
    // every core sees the same shared pages
    for (let s = 0; s < 60; s++) expect(lut(0, 0x80 + s)).toBe(lut(47, 0x80 + s));
  });
});

describe('chip validation', () => {
  it('rejects negative sizes, unknown keys and controllers off the mesh, naming the component', () => {
    expect(() => chipConfig('scc', { caches: { l1d: { sizeBytes: -16 } } })).toThrow(/chip\.caches\.l1d\.sizeBytes: more than 0 bytes/);
    expect(() => chipConfig('scc', { caches: { l1d: { colour: 'red' } } })).toThrow(/chip\.caches\.l1d: unknown field: colour/);
    expect(() => chipConfig('scc', { memory: { controllers: [{ x: 9, y: 0 }] } })).toThrow(/memory controller 0 at \(9,0\) is outside the 6x4 mesh/);
    expect(() => chipConfig('scc', { caches: { l2: { sizeBytes: 100000 } } })).toThrow(/cache l2: sizeBytes \/ \(ways x lineBytes\) must be a power of two/);
    expect(() => chipConfig('scc', { clocks: { divisor: 1 } })).toThrow(/chip\.clocks\.divisor/);
    expect(() => chipConfig('nope')).toThrow(/unknown preset "nope" \(known: scc, mesh, tile64, cluster-1999\)/);
  });

  it('accepts overrides and keeps everything else from the preset', () => {
    const c = chipConfig('scc', { caches: { l1d: { sizeBytes: 8192 } }, clocks: { meshMHz: 1600 } });
    expect(c.caches.l1d.sizeBytes).toBe(8192);
    expect(c.caches.l1d.ways).toBe(4);
    expect(c.clocks.meshMHz).toBe(1600);
    expect(c.clocks.memoryMHz).toBe(800);
  });

  it('deepMerge replaces arrays and merges objects', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] } }, { a: { c: [3] } })).toEqual({ a: { b: 1, c: [3] } });
  });

  it('resolves a larger mesh', () => {
    const big = resolveChip(
      chipConfig('scc', {
        mesh: { width: 16, height: 8 },
        islands: { tiles: [Array.from({ length: 128 }, (_, i) => i)] },
        testAndSetRegisters: 256,
        lut: { privatePages: 2 },
      }),
    );
    expect(big.topo.cores).toBe(256);
    expect(() => chipConfig('scc', { mesh: { width: 16, height: 8 }, islands: { tiles: [Array.from({ length: 128 }, (_, i) => i)] }, testAndSetRegisters: 256 }))
      .not.toThrow();
    expect(() =>
      resolveChip(chipConfig('scc', { mesh: { width: 16, height: 8 }, islands: { tiles: [Array.from({ length: 128 }, (_, i) => i)] }, testAndSetRegisters: 256 })),
    ).toThrow(/pages per controller exceed the 8 GB a controller can address/);
  });
});
