/**
 * Tilera TILE64, as in ../shared/reference/tile64-roarvm.md section 1 (paper 000).
 * (paper 000 line N) = stated there; (doc) = vendor documentation; (derived) = arithmetic on
 * those; (model) = a choice of this lab, documented here.
 */
import type { Tile64ChipConfig } from './schema';

/** 8 x 8 tiles, one power domain (the TILE64 has no per-tile voltage islands (doc)). */
const allTiles = Array.from({ length: 64 }, (_, t) => t);

/*
 * Power (model): the TILE64 product brief gives 15-22 W at 700 MHz with all cores running (doc).
 * At 600 MHz and 1.0 V: 64 busy cores x 0.19 W dynamic (C = 0.19 / (1.0^2 x 600e6) = 3.2e-10 F)
 * + 64 x 0.05 W leakage + mesh 0.6 W + 4 W static (controllers, I/O) = about 20 W busy, 11.5 W
 * idle (activity 0.25). No paper in ../shared measures TILE64 power: these are placeholders
 * for relative comparisons, not calibrated figures.
 */
export const tile64Preset: Tile64ChipConfig = {
  name: 'Tilera TILE64',
  mesh: {
    width: 8, // paper 000 line 179 (64 tiles); (doc) 8 x 8
    height: 8,
    hopCycles: 1, // (doc) iMesh: one cycle per hop; with the 2 cycles per hop of paper 000 line 426 for a word there and back
    flitBytes: 4, // (doc) 32-bit network channels
    contentionWindowNs: 10_000, // model, as on the SCC preset
  },
  caches: {
    l1d: { sizeBytes: 8192, ways: 2, lineBytes: 16, hitCycles: 2 }, // paper 000 Table 1: 8 KB D, 16 B lines, 2 cycles; ways (doc)
    l2: { sizeBytes: 65536, ways: 2, lineBytes: 64, hitCycles: 8 }, // paper 000 Table 1: 64 KB, 64 B lines, 8 cycles; ways (doc)
  },
  missesInFlight: 1, // model: an in-order pipeline that uses each loaded word stalls on the miss
  homing: {
    remoteBaseCycles: 35, // paper 000 lines 420-426: "about 35 cycles plus 2 cycles per hop"
    remotePerHopCycles: 2,
    homeSets: 512, // (derived) the L2 geometry: 64 KB / (2 ways x 64 B)
    homeWays: 2,
  },
  memory: {
    // (doc) four DDR2 controllers, two on the north edge and two on the south; tiles (model)
    controllers: [
      { x: 1, y: 0 },
      { x: 6, y: 0 },
      { x: 1, y: 7 },
      { x: 6, y: 7 },
    ],
    accessCycles: 69, // paper 000 Table 1: DRAM 69-88 cycles; (model) 69 next to a controller + 2 per hop, a row hit's time (dram/ddr.ts)
    perHopCycles: 2,
    // DDR2-800 on a 64-bit channel (doc). Timings from JESD79-2F (JEDEC DDR2 SDRAM standard),
    // DDR2-800 speed bin 800D (5-5-5; the bin is a model choice, the docs name only DDR2-800):
    // tCK 2.5 ns, CL 5 = 12.5 ns, WL = CL - 1 = 10 ns, tRCD 12.5 ns, tRP 12.5 ns, tRAS 45 ns,
    // tWR 15 ns, tRTP 7.5 ns, tCCD 2 tCK, 8 banks (1 Gb devices), BL4 the shortest burst; x8
    // devices have 1 KB pages: 8 KB per row of a 64-bit rank. A 64 B line is one BL8: 4 tCK =
    // 10 ns on the bus. (model) one rank per controller, open-page, row:bank:column.
    // serviceMemCycles: model 'fixed' only ((derived) 64 B in 10 ns = 4 cycles of 400 MHz).
    dram: {
      model: 'ddr',
      serviceMemCycles: 4,
      banks: 8,
      rowBytes: 8192,
      busBytes: 8,
      mapping: 'row:bank:column',
      tCkNs: 2.5,
      clNs: 12.5,
      cwlNs: 10,
      tRcdNs: 12.5,
      tRpNs: 12.5,
      tRasNs: 45,
      tWrNs: 15,
      tRtpNs: 7.5,
      tCcdTck: 2,
      minBurstBeats: 4,
    },
    poolBytes: 256 * 1024 * 1024, // model: host memory backing the sparse DRAM
  },
  pages: {
    privateBytes: 4 * 1024 * 1024, // model: 4 MB per core, homed on its own tile
    sharedBytes: 256 * 1024 * 1024, // model: a shared window, pages homed round-robin over the tiles
  },
  tlb: {
    dataEntries: 16, // paper 000 lines 1003-1010: 16 data TLB entries, 64 KB pages
    hugePages: false, // paper 000 line 1010: optional 16 MB "huge pages"
    missCycles: 50, // model: the paper names the software DTLB-miss handler but not its cost; a parameter
  },
  network: {
    // paper 000 lines 353-357: a 10-word raw message takes 23 cycles to send, 12 to receive;
    // (model) one word per cycle through the network port, the rest fixed overhead
    sendBaseCycles: 13,
    sendPerWordCycles: 1,
    receiveBaseCycles: 2,
    receivePerWordCycles: 1,
    maxWords: 14, // model: one 64 B receive slot per sender (a sequence word, a length word, 14 words)
  },
  dma: {
    setupCycles: 300, // model: no figure in the paper (Fig. 1 has no values); a parameter, see tile-messages
    lineCycles: 4, // model: the DMA engine moves a 64 B line in 4 cycles once the data is there
  },
  clocks: {
    // (derived) paper 000 Table 1: "max 600 - 1800 MIPS" at 1-3 instructions per bundle = 600 MHz
    baseMHz: 600,
    divisor: 1,
    meshMHz: 600,
    memoryMHz: 400, // (doc) DDR2-800
  },
  islands: { tiles: [allTiles], vf: [{ divisor: 1, freqMHz: 600, volts: 1.0 }] },
  power: {
    coreCapacitanceF: 3.2e-10,
    coreLeakageWPerV: 0.05,
    idleActivity: 0.25,
    stallActivity: 0.5,
    waitActivity: 1.0,
    meshCapacitanceF: 1.0e-9,
    meshVolts: 1.0,
    flitEnergyPJ: 5,
    controllerAccessEnergyNJ: 1,
    uncoreStaticW: 4,
  },
};
