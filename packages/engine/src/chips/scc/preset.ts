/**
 * Intel Single-chip Cloud Computer, as in ../shared/reference/scc.md section 1.
 * (seed) = from the papers, (doc) = vendor documentation, (derived) = arithmetic on those,
 * (model) = an assumption of this lab, chosen and documented here.
 */
import { islands2x2 } from './mesh';
import type { SccChipConfig, SccChipInput } from './schema';

/** V/f pairs (seed): divisor 2: 800 MHz at 1.1 V; 3: 533 MHz at 0.8 V; 4: 400 MHz at 0.7 V; 5..16 at 0.6 V. */
const vf = [
  [2, 800, 1.1],
  [3, 533, 0.8],
  [4, 400, 0.7],
  [5, 320, 0.6],
  [6, 266, 0.6],
  [7, 228, 0.6],
  [8, 200, 0.6],
  [9, 178, 0.6],
  [10, 160, 0.6],
  [11, 145, 0.6],
  [12, 133, 0.6],
  [13, 123, 0.6],
  [14, 114, 0.6],
  [15, 106, 0.6],
  [16, 100, 0.6],
].map(([divisor, freqMHz, volts]) => ({ divisor: divisor!, freqMHz: freqMHz!, volts: volts! }));

/*
 * Power calibration (derived). Seed: 31.6 W with one communicating pair and 46 idle cores,
 * 50.8 W with all 48 active, linear in active cores, at 533/800/800 (0.8 V).
 *   active - idle per core = C V^2 f (1 - idleActivity) = (50.8 - 31.6) / 46 = 0.41739 W
 *   with idleActivity 0.25, V = 0.8, f = 533.33 MHz: C = 0.41739 / 0.75 / 0.64 / 533.33e6 = 1.6304e-9 F
 *   per-core leakage (model): 0.125 W/V -> 0.1 W at 0.8 V
 *   mesh (model): 2.0e-9 F at 1.1 V, 800 MHz -> 1.936 W
 *   uncore static = 31.6 - [2 (0.55652 + 0.1) + 46 (0.13913 + 0.1) + 1.936] = 17.371 W
 * Flit and controller energies (model) are small and add on top with traffic.
 */
const coreCapacitanceF = 0.417391304 / 0.75 / 0.64 / (1600e6 / 3);
const uncoreStaticW = 31.6 - (2 * (0.556522 + 0.1) + 46 * (0.139130 + 0.1) + 2.0e-9 * 1.1 * 1.1 * 800e6);

/*
 * Each controller's DRAM (dram/ddr.ts). The SCC runs its DDR3 at 800 (or 1066) MHz (seed, lines
 * 333-336, 1965-1980); the speed bin, channel and devices are not in the papers:
 *   JESD79-3F (JEDEC DDR3 SDRAM standard), DDR3-800 speed bin 800E (6-6-6): tCK 2.5 ns,
 *   CL 6 = 15 ns, CWL 5 = 12.5 ns, tRCD 15 ns, tRP 15 ns, tRAS 37.5 ns; tWR 15 ns;
 *   tRTP max(4 tCK, 7.5 ns) = 10 ns; tCCD 4 tCK; 8 banks; BL8, burst chop BC4 the shortest
 *   burst; x8 devices have 1 KB pages, so 8 KB per row of a 64-bit rank.
 *   (model): one rank on a 64-bit channel per controller (the DDR3 DIMM data width), open-page
 *   policy, row:bank:column mapping; the bin (800E, the slowest DDR3-800 bin) is a choice, not
 *   a documented SCC board part.
 *   At memoryMHz 1066 give a DDR3-1066 bin as well (the schema rejects a tCK that does not match
 *   the memory clock): e.g. 1066G 8-8-8, tCkNs 1.875 with the same 15 ns CL, tRCD and tRP.
 * serviceMemCycles is used only by model 'fixed' (the lab's earlier model: 32 B every 20 ns at
 * 800 MHz = 1.6 GB/s per controller).
 */
const sccDram: SccChipConfig['memory']['dram'] = {
  model: 'ddr',
  serviceMemCycles: 16,
  banks: 8,
  rowBytes: 8192,
  busBytes: 8,
  mapping: 'row:bank:column',
  tCkNs: 2.5,
  clNs: 15,
  cwlNs: 12.5,
  tRcdNs: 15,
  tRpNs: 15,
  tRasNs: 37.5,
  tWrNs: 15,
  tRtpNs: 10,
  tCcdTck: 4,
  minBurstBeats: 4,
};

export const sccPreset: SccChipConfig = {
  name: 'Intel SCC',
  mesh: {
    width: 6,
    height: 4,
    hopMeshCycles: 4, // seed: 4 x n x 2 mesh cycles
    flitBytes: 16, // doc
    contentionWindowNs: 10_000, // model: links' utilisation is averaged over 10 us of simulated time
  },
  coresPerTile: 2, // seed
  caches: {
    // seed: 16 KB I + 16 KB D (one seed says 8 + 8); ways and hit latency (doc)
    l1i: { sizeBytes: 16384, ways: 4, lineBytes: 32, hitCycles: 1, writePolicy: 'write-through', allocateOnWrite: false },
    l1d: { sizeBytes: 16384, ways: 4, lineBytes: 32, hitCycles: 1, writePolicy: 'write-through', allocateOnWrite: false },
    // seed: 256 KB unified, private, write-back, no write-allocate; ~18 cycles hit (doc)
    l2: { sizeBytes: 262144, ways: 4, lineBytes: 32, hitCycles: 18, writePolicy: 'write-back', allocateOnWrite: false },
  },
  l2Enabled: true,
  missesInFlight: 2, // seed
  writeCombineBytes: 32, // seed: one 32 B line
  mpb: { bytesPerTile: 16384 /* seed */, localAccessCycles: 15 /* doc */, remoteAccessCycles: 45 /* doc */ },
  memory: {
    // doc: (0,0), (5,0), (0,2), (5,2); one seed paper writes (5,3) for the last one
    controllers: [
      { x: 0, y: 0 },
      { x: 5, y: 0 },
      { x: 0, y: 2 },
      { x: 5, y: 2 },
    ],
    coreOverheadCycles: 40, // seed: 40 core cycles + 4 x n x 2 mesh cycles + 46 memory cycles
    accessMemCycles: 46, // seed; the lab takes it as a row hit's time (dram/ddr.ts): the weave charges only bank and bus waits beyond it
    dram: sccDram,
    poolBytes: 256 * 1024 * 1024, // model: host memory backing the sparse DRAM
  },
  clocks: { baseMHz: 1600, divisor: 3, meshMHz: 800, memoryMHz: 800 }, // seed: 533/800/800
  islands: { tiles: islands2x2(6, 4) /* doc: 6 voltage islands of 2 x 2 tiles */, vf },
  power: {
    coreCapacitanceF,
    coreLeakageWPerV: 0.125,
    idleActivity: 0.25,
    stallActivity: 0.5,
    waitActivity: 1.0, // a core polling a flag executes instructions
    meshCapacitanceF: 2.0e-9,
    meshVolts: 1.1,
    flitEnergyPJ: 10,
    controllerAccessEnergyNJ: 1,
    uncoreStaticW,
  },
  lut: {
    privatePages: 41, // seed-like: 41 x 16 MB private per core
    sharedBasePage: 0x80,
    sharedPages: 60, // scc.md 7: four groups of 15 entries, one per controller
    sharedGroupPages: 15,
    mpbBasePage: 0xc0,
  },
  testAndSetRegisters: 48, // seed: one per core
};

/**
 * SCC tiles on a mesh of any size (model): the `scc` preset's tiles (2 cores, 16 KB MPB, a
 * router), caches, latencies, clocks and power constants, on a width x height mesh (8 x 8 unless
 * mesh.width / mesh.height say otherwise). Voltage islands, memory controllers, test-and-set
 * registers and the LUT are left out, so they are derived from the mesh size (mesh.ts).
 * The chip-wide power constants (uncore static power, whole-mesh capacitance) stay the SCC's:
 * they are not scaled with the mesh, so a larger chip's power grows with its cores and traffic only.
 */
const { lut: _lut, testAndSetRegisters: _registers, ...sccTiles } = sccPreset;
export const meshPreset: SccChipInput = {
  ...sccTiles,
  name: 'SCC-tile mesh',
  mesh: { ...sccPreset.mesh, width: 8, height: 8 },
  memory: {
    coreOverheadCycles: sccPreset.memory.coreOverheadCycles,
    accessMemCycles: sccPreset.memory.accessMemCycles,
    dram: sccPreset.memory.dram,
    poolBytes: sccPreset.memory.poolBytes,
  },
  islands: { vf: sccPreset.islands.vf },
};
