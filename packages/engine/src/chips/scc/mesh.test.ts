import { describe, expect, it } from 'vitest';
import { chipConfig as anyChipConfig, presetNames } from '../registry';
import { computeLayout } from '../../layout';
import { Simulation, SimulationFailed } from '../../simulation';
import { experimentFor, programWorkload, type ProgramRun } from '../../testing';
import { lutKind, lutUnit, TARGET_DRAM, TARGET_MPB } from '../../vocabulary';
import { deriveMesh, islands2x2, meshControllers, MESH_VARIANTS } from './mesh';
import { sccPreset } from './preset';
import { resolveScc } from './resolve';
import type { SccChipConfig } from './schema';

const chipConfig = (preset: string, overrides: Record<string, unknown> = {}) => anyChipConfig(preset, overrides) as SccChipConfig;

describe('mesh derivation', () => {
  it('gives the SCC preset its own islands, controllers, registers and LUT at 6x4', () => {
    expect(deriveMesh(6, 4)).toEqual({
      islands: sccPreset.islands.tiles,
      controllers: sccPreset.memory.controllers,
      testAndSetRegisters: 48,
      lut: sccPreset.lut,
    });
  });

  it('leaves the scc preset as it is (same values, same key order)', () => {
    expect(JSON.stringify(chipConfig('scc'))).toBe(JSON.stringify(sccPreset));
    // a mesh preset at 6x4 derives the same chip
    const m = chipConfig('mesh', { mesh: { width: 6, height: 4 } });
    expect({ ...m, name: sccPreset.name }).toEqual(sccPreset);
  });

  it('derives a 1024-core chip from mesh.width and mesh.height alone', () => {
    const c = chipConfig('mesh', { mesh: { width: 32, height: 16 } });
    expect(c.memory.controllers).toHaveLength(14);
    expect(c.memory.controllers.filter((m) => m.x === 0).map((m) => m.y)).toEqual([0, 2, 4, 6, 9, 11, 13]);
    expect(c.memory.controllers.filter((m) => m.x === 31)).toHaveLength(7);
    expect(c.islands.tiles).toHaveLength(128);
    expect(c.islands.tiles.every((l) => l.length === 4)).toBe(true);
    expect(c.testAndSetRegisters).toBe(1024);
    // 14 controllers: shared groups of 4 pages (56 pages below the MPBs); the busiest controller
    // backs 96 cores: floor((512 - 4) / 96) = 5 private pages each
    expect(c.lut).toEqual({ privatePages: 5, sharedBasePage: 0x80, sharedPages: 56, sharedGroupPages: 4, mpbBasePage: 0xc0 });
    const chip = resolveScc(c);
    expect(chip.topo.cores).toBe(1024);
    expect(Math.max(...Array.from({ length: 14 }, (_, m) => chip.nearestController.filter((x) => x === m).length))).toBe(96);
    expect(chip.ctrlBytes).toBeLessThanOrEqual(8 * 1024 ** 3);
    const lut = (core: number, page: number) => chip.luts[core * 256 + page]!;
    expect(lutKind(lut(1023, 0))).toBe(TARGET_DRAM);
    expect(lutUnit(lut(1023, 0))).toBe(chip.nearestController[1023]);
    expect(lutKind(lut(5, 0xc0))).toBe(TARGET_MPB);
    expect(lutKind(lut(5, 0xc1))).toBe(0); // 512 tiles: one MPB page
  });

  it('validates a 32x32 mesh (2048 cores)', () => {
    const c = chipConfig('mesh', { mesh: { width: 32, height: 32 } });
    expect(c.testAndSetRegisters).toBe(2048);
    expect(c.memory.controllers).toHaveLength(14);
    const chip = resolveScc(c);
    expect(chip.topo.cores).toBe(2048);
    expect(c.lut.privatePages).toBeGreaterThanOrEqual(2);
  });

  it('keeps what the overrides give and derives the rest', () => {
    const c = chipConfig('mesh', { mesh: { width: 16, height: 8 }, lut: { privatePages: 2 }, testAndSetRegisters: 300 });
    expect(c.lut).toEqual({ privatePages: 2, sharedBasePage: 0x80, sharedPages: 64, sharedGroupPages: 8, mpbBasePage: 0xc0 });
    expect(c.testAndSetRegisters).toBe(300);
    const d = chipConfig('mesh', { memory: { controllers: [{ x: 3, y: 3 }] } });
    expect(d.memory.controllers).toEqual([{ x: 3, y: 3 }]);
    expect(d.lut).toMatchObject({ sharedPages: 15, sharedGroupPages: 15 });
    // 128 cores on one controller: (512 - 15) / 128 = 3 pages each
    expect(d.lut.privatePages).toBe(3);
  });

  it('names what cannot be derived or does not fit', () => {
    expect(() => chipConfig('mesh', { mesh: { width: 64, height: 64 }, memory: { controllers: [{ x: 0, y: 0 }] } })).toThrow(
      /chip\.lut: cannot derive the LUT: a 64x64 mesh puts 8192 cores' private memory on one controller/,
    );
    expect(() => chipConfig('mesh', { memory: { controllers: [{ x: 9, y: 0 }] }, mesh: { width: 6, height: 4 } })).toThrow(
      /memory controller 0 at \(9,0\) is outside the 6x4 mesh/,
    );
    expect(() => chipConfig('mesh', { testAndSetRegisters: 10 })).toThrow(/need at least one test-and-set register per core \(128\)/);
    // the scc preset gives its 6x4 islands explicitly: a bigger mesh on it says what to do
    expect(() => chipConfig('scc', { mesh: { width: 8, height: 8 } })).toThrow(/voltage islands cover 24 of 64 tiles \(leave islands\.tiles out, as the mesh preset does/);
  });

  it('puts controllers on both edges, at most 14, and one column on one side', () => {
    expect(meshControllers(1, 8)).toEqual([0, 2, 4, 6].map((y) => ({ x: 0, y })));
    expect(meshControllers(4, 1)).toEqual([
      { x: 0, y: 0 },
      { x: 3, y: 0 },
    ]);
    expect(meshControllers(64, 64)).toHaveLength(14);
    expect(islands2x2(3, 3)).toEqual([[0, 1, 3, 4], [2, 5], [6, 7], [8]]);
  });
});

describe('mesh variants (the web lab and the CLI)', () => {
  it('are valid chips of known presets, one of them 1024 cores', () => {
    const cores = MESH_VARIANTS.map((v) => {
      expect(presetNames()).toContain(v.preset);
      return resolveScc(chipConfig(v.preset, v.overrides)).topo.cores;
    });
    expect(cores).toEqual([48, 128, 256, 512, 1024]);
    expect(new Set(MESH_VARIANTS.map((v) => v.id)).size).toBe(MESH_VARIANTS.length);
  });
});

describe('log sizes', () => {
  it('keep the defaults on the SCC and shrink per core on big meshes', () => {
    const scc = computeLayout(resolveScc(chipConfig('scc')), {}, 1_000_000);
    expect([scc.wlogCap, scc.txnCap]).toEqual([16384, 8192]);
    const big = computeLayout(resolveScc(chipConfig('mesh', { mesh: { width: 32, height: 16 } })), {}, 1_000_000);
    expect([big.wlogCap, big.txnCap]).toEqual([4096, 4096]);
    // a long quantum: the time bound, but never beyond the defaults
    const slow = computeLayout(resolveScc(chipConfig('mesh', { mesh: { width: 32, height: 16 } })), {}, 5_000_000);
    expect([slow.wlogCap, slow.txnCap]).toEqual([16384, 8192]);
    // < 820 KB per core (812 KB: 40 B transaction records, which name their DRAM line, were 32 B: 780 KB)
    expect(big.stateBytes / 1024).toBeLessThan(820 * 1024);
  });
});

describe('a core that buffers more than its log holds', () => {
  const run: ProgramRun = {
    cores: [3],
    *program(core) {
      core.mapPage(core.privateBase, 'uncached');
      core.writeRange(core.privateBase, 1024, 7); // 128 stores of 8 B, each a logged write, in one step
    },
  };
  const sim = (layout: { wlogCap?: number; txnCap?: number }) => new Simulation(experimentFor(run), { 'test-program': programWorkload(run) }, { layout });

  it('fails naming the capacity and how to raise it; a larger log gives the run', () => {
    expect(() => sim({ wlogCap: 64 }).runInline()).toThrow(SimulationFailed);
    expect(() => sim({ wlogCap: 64 }).runInline()).toThrow(/core 3: more than 64 line writes .*one epoch's log holds 64 line writes .* raise them with --wlog-cap/);
    expect(sim({ wlogCap: 128 }).runInline().simulated.cores[3]!.dramWrites).toBe(128);
    expect(() => sim({ wlogCap: 8 })).toThrow(/layout\.wlogCap: expected an integer from 16 to 1048576 entries per core, got 8/);
  });
});
