/**
 * dvfs-kernels: one core runs a numerical kernel at a chosen clock divisor (scc.md section 5).
 *  - dot:    dot product of two 16 MB vectors of doubles (memory-bound: 1 M lines streamed);
 *  - matvec: y = A x with A 512 x 1024 doubles (4 MB, streamed), x in cache (memory-bound);
 *  - matmul: C = A B, 160 x 160 doubles, tiled in 20 x 20 blocks that fit L1 (compute-bound).
 * The kernels really load every element (64-bit loads, as x87 FLD does), do the
 * floating-point work (MADD_CYCLES per multiply-add) and check their result.
 *
 * Set-up: the dot and matvec inputs are zero except one element per 4 KB of memory (DRAM
 * reads of untouched memory return zero), so preparing 32 MB costs 8 K writes instead of 1 M,
 * and the run's energy is the kernel's; the kernel still streams every line.
 *
 * Clocks (chipOverrides): every tile of the kernel core's voltage island runs at `divisor`
 * (an island's voltage follows its fastest tile, so the island must slow down as a whole for
 * the voltage to drop), all other tiles stay at divisor 3 (533 MHz).
 * Rows {kernel, divisor, freqMHz, volts, cycles, kernelTimeNs, flops, gflops, paperPowerW,
 * gflopsPerWattPaper, avgPowerW, gflopsPerW, instructions, ipc}: cycles and kernelTimeNs of the kernel
 * alone. Two efficiencies:
 *  - gflopsPerWattPaper: the DVFS paper's definition, power_eff(f_div) = flop / (model(f_div) /
 *    freq) / power(f_div) (lines 2092-2107, 2145-2147, 2183-2185) with power(f_div) = C V^2 f
 *    (line 2006, "P = CV3f" in the OCR; lines 2006-2012: C a constant, V from Table I, lines
 *    1965-1982) and the lab's cycles in place of the model's. The paper gives no value of C: the
 *    lab's core capacitance (power.coreCapacitanceF, calibrated in presets/scc.ts) stands in,
 *    which scales every value alike and leaves every ratio between divisors the paper's. The
 *    core switches at full activity (no activity factor, no leakage, no memory power: the
 *    paper leaves memory out, lines 2014-2027). With kernelTimeNs x f = cycles this is
 *    flops / (cycles x C V^2): it rises where the voltage drops (divisor 2 to 5) and, for a
 *    memory-bound kernel, as the cycles per DRAM access fall (40 + 46 x f_core / f_mem).
 *  - gflopsPerW: gflops / avgPowerW, the lab's full core power: the kernel core's simulated energy
 *    / its run time (dynamic C V^2 f x activity, stalls at stallActivity, plus leakage).
 * instructions / ipc: the kernel's (a 64-bit load is one FLD; a multiply-add an FMUL and an FADD).
 */
import { z } from 'zod';
import { DUE, WorkloadParamError, corePeriodPs, type SccCore, type Row, type Sim, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORE, overLimit } from './lib/limits';

/**
 * Cycles of one multiply-add (2 flops) on the P54C x87 unit (model): the multiply pipelines, the
 * add into a running sum waits for the previous add (3-cycle latency).
 */
export const MADD_CYCLES = 3;
/** Instructions of one multiply-add besides its operand loads (counted by the loads): FMUL, FADD. */
export const MADD_INSTRUCTIONS = 2;

export const KERNELS = ['dot', 'matvec', 'matmul'] as const;
export type Kernel = (typeof KERNELS)[number];

/** SCC mesh assumed by chipOverrides (the preset): 6 x 4 tiles, 2 cores per tile, 2 x 2-tile islands. */
const MESH_W = 6;
const MESH_H = 4;
const CORES_PER_TILE = 2;

const Params = z.strictObject({
  kernel: z.enum(KERNELS).default('dot').describe('dot (2 x 16 MB), matvec (512 x 1024), matmul (160 x 160)'),
  divisor: z.number().int().min(2).max(16).default(3).describe('clock divisor of the kernel core (1600 / divisor MHz)'),
  core: z.number().int().min(0).max(MAX_CORE).default(0).describe('core that runs the kernel'),
});
type P = z.infer<typeof Params>;

/** Tiles of the 2 x 2-tile voltage island of `core` on the SCC mesh. */
export function islandTilesOf(core: number): number[] {
  const tile = Math.floor(core / CORES_PER_TILE);
  const bx = Math.floor((tile % MESH_W) / 2) * 2;
  const by = Math.floor(Math.floor(tile / MESH_W) / 2) * 2;
  const out: number[] = [];
  for (let y = by; y < Math.min(by + 2, MESH_H); y++) for (let x = bx; x < Math.min(bx + 2, MESH_W); x++) out.push(y * MESH_W + x);
  return out;
}

const MB = 1 << 20;
const X = 16 * MB; // private offsets
const Y = 32 * MB;
const Z = 48 * MB;
const DOT_N = (16 * MB) / 8; // doubles per vector
const MV_ROWS = 512;
const MV_COLS = 1024;
const MM_N = 160;
const MM_T = 20;
const SPARSE = 512; // doubles between non-zero elements (4 KB)

const line = new Float64Array(32);
const lineU8 = new Uint8Array(line.buffer);
const line2 = new Float64Array(32);
/** Loads `n` doubles at addr into dst (one 64-bit load each: 1 cycle on an L1 hit). */
function loadDoubles(core: SccCore, addr: number, n: number, dst: Float64Array): void {
  for (let q = 0; q < n; q++) dst[q] = core.loadF64(addr + q * 8);
}

const one = new Float64Array(1);
const oneU8 = new Uint8Array(one.buffer);

function storeDouble(core: SccCore, addr: number, v: number): void {
  one[0] = v;
  core.writeRange(addr, 8, oneU8);
}

const dotX = (i: number) => 1 + ((i / SPARSE) % 7);
const dotY = (i: number) => 2 - ((i / SPARSE) % 5);
const mvA = (i: number) => 1 + (i % 9); // non-zero of row i, at column (7 i) mod cols
const mvX = (j: number) => 1 + (j % 3);
const mmA = (i: number, k: number) => ((i + 2 * k) % 5) - 2;
const mmB = (k: number, j: number) => ((3 * k + j) % 7) - 3;

function* setup(core: SccCore, kernel: Kernel): Sim<void> {
  const b = core.privateBase;
  if (kernel === 'dot') {
    for (let i = 0; i < DOT_N; i += SPARSE) {
      storeDouble(core, b + X + i * 8, dotX(i));
      storeDouble(core, b + Y + i * 8, dotY(i));
      if (core.due()) yield DUE;
    }
  } else if (kernel === 'matvec') {
    for (let i = 0; i < MV_ROWS; i++) {
      storeDouble(core, b + X + (i * MV_COLS + ((7 * i) % MV_COLS)) * 8, mvA(i));
      if (core.due()) yield DUE;
    }
    for (let j = 0; j < MV_COLS; j += 4) {
      for (let q = 0; q < 4; q++) line[q] = mvX(j + q);
      core.writeRange(b + Y + j * 8, 32, lineU8);
      if (core.due()) yield DUE;
    }
  } else {
    for (let r = 0; r < MM_N; r++) {
      for (let c = 0; c < MM_N; c += 4) {
        for (let q = 0; q < 4; q++) line[q] = mmA(r, c + q);
        core.writeRange(b + X + (r * MM_N + c) * 8, 32, lineU8);
        for (let q = 0; q < 4; q++) line[q] = mmB(r, c + q);
        core.writeRange(b + Y + (r * MM_N + c) * 8, 32, lineU8);
        line.fill(0, 0, 4);
        core.writeRange(b + Z + (r * MM_N + c) * 8, 32, lineU8);
        if (core.due()) yield DUE;
      }
    }
  }
  core.fence();
}

/** Runs the kernel; returns [flops, ok, detail]. */
function* kernelRun(core: SccCore, kernel: Kernel): Sim<[number, boolean, string]> {
  const b = core.privateBase;
  if (kernel === 'dot') {
    let sum = 0;
    for (let i = 0; i < DOT_N; i += 4) {
      loadDoubles(core, b + X + i * 8, 4, line);
      loadDoubles(core, b + Y + i * 8, 4, line2);
      for (let q = 0; q < 4; q++) sum += line[q]! * line2[q]!;
      core.compute(4 * MADD_CYCLES, 4 * MADD_INSTRUCTIONS);
      if ((i & 63) === 0 && core.due()) yield DUE;
    }
    core.fence();
    let expect = 0;
    for (let i = 0; i < DOT_N; i += SPARSE) expect += dotX(i) * dotY(i);
    return [2 * DOT_N, sum === expect, `sum ${sum}, expected ${expect}`];
  }
  if (kernel === 'matvec') {
    let bad = '';
    for (let i = 0; i < MV_ROWS; i++) {
      let acc = 0;
      for (let j = 0; j < MV_COLS; j += 4) {
        loadDoubles(core, b + X + (i * MV_COLS + j) * 8, 4, line);
        loadDoubles(core, b + Y + j * 8, 4, line2);
        for (let q = 0; q < 4; q++) acc += line[q]! * line2[q]!;
        core.compute(4 * MADD_CYCLES, 4 * MADD_INSTRUCTIONS);
        if ((j & 63) === 0 && core.due()) yield DUE;
      }
      storeDouble(core, b + Z + i * 8, acc);
      const col = (7 * i) % MV_COLS;
      if (!bad && acc !== mvA(i) * mvX(col)) bad = `y[${i}] = ${acc}, expected ${mvA(i) * mvX(col)}`;
    }
    core.fence();
    return [2 * MV_ROWS * MV_COLS, bad === '', bad || 'y = A x checked'];
  }
  // matmul, tiled: for each (ii, jj) block of C, accumulate over kk blocks; a C row segment
  // is read, updated by T multiply-adds per A element, and written back
  const rowC = new Float64Array(MM_T);
  for (let ii = 0; ii < MM_N; ii += MM_T)
    for (let jj = 0; jj < MM_N; jj += MM_T)
      for (let kk = 0; kk < MM_N; kk += MM_T)
        for (let i = ii; i < ii + MM_T; i++) {
          loadDoubles(core, b + Z + (i * MM_N + jj) * 8, MM_T, rowC);
          loadDoubles(core, b + X + (i * MM_N + kk) * 8, MM_T, line2);
          for (let k = kk; k < kk + MM_T; k++) {
            const a = line2[k - kk]!;
            loadDoubles(core, b + Y + (k * MM_N + jj) * 8, MM_T, line);
            for (let j = 0; j < MM_T; j++) rowC[j]! += a * line[j]!;
            core.compute(MM_T * MADD_CYCLES, MM_T * MADD_INSTRUCTIONS);
          }
          for (let j = 0; j < MM_T; j++) core.storeF64(b + Z + (i * MM_N + jj + j) * 8, rowC[j]!);
          if (core.due()) yield DUE;
        }
  core.fence();
  // check three rows of C
  const row = new Float64Array(MM_N);
  const rowU8 = new Uint8Array(row.buffer);
  for (const i of [0, 79, 159]) {
    core.readRange(b + Z + i * MM_N * 8, MM_N * 8, rowU8);
    for (let j = 0; j < MM_N; j++) {
      let e = 0;
      for (let k = 0; k < MM_N; k++) e += mmA(i, k) * mmB(k, j);
      if (row[j] !== e) return [2 * MM_N ** 3, false, `C[${i}][${j}] = ${row[j]}, expected ${e}`];
    }
  }
  return [2 * MM_N ** 3, true, 'rows 0, 79, 159 of C checked'];
}

export const dvfsKernels: WorkloadDef<P> = {
  name: 'dvfs-kernels',
  title: 'DVFS: kernels at any clock divisor',
  chart: { x: 'divisor', y: 'gflopsPerW', series: 'kernel' },
  description:
    'Dot product, matrix-vector and tiled matrix-matrix product on one core at divisor 2..16: memory-bound kernels need fewer cycles but more time at low clocks; GFlops/W jumps where the voltage drops.',
  params: Params,
  participants: (p, chip) => {
    if (p.core >= chip.topo.cores) throw overLimit('core', p.core, chip.topo.cores - 1, `${chipHasCores(chip)} (0..${chip.topo.cores - 1})`);
    return [p.core];
  },
  chipOverrides(p: P) {
    const tiles = new Array<number>(MESH_W * MESH_H).fill(3);
    for (const t of islandTilesOf(p.core)) tiles[t] = p.divisor;
    return { clocks: { tileDivisors: tiles } };
  },
  *program(core: SccCore, p: P) {
    if (core.chip.topo.tiles !== MESH_W * MESH_H) throw new WorkloadParamError('dvfs-kernels sets the clocks of the SCC mesh (6 x 4 tiles)');
    yield* setup(core, p.kernel);
    const t0 = core.now;
    const i0 = core.counter('instructions');
    const [flops, ok, detail] = yield* kernelRun(core, p.kernel);
    const wallPs = core.now - t0;
    const instructions = core.counter('instructions') - i0;
    if (!ok) throw new Error(`dvfs-kernels ${p.kernel}: wrong result (${detail})`);
    const period = corePeriodPs(core.chip, core.chip.tileDivisors[core.tile]!);
    core.report({ kernel: p.kernel, divisor: p.divisor, cycles: wallPs / period, kernelTimeNs: wallPs / 1000, flops, instructions, check: detail });
  },
  summarize(rows: Row[], p: P, chip, sim): Row[] {
    const c = sim.cores[p.core]!;
    const vf = chip.vf.get(p.divisor)!;
    const freqMHz = chip.baseMHz / p.divisor;
    return rows.map((r) => {
      const avgPowerW = c.energyJ / (c.endTimeNs * 1e-9);
      const gflops = (r.flops as number) / (r.kernelTimeNs as number);
      // the paper's power(f_div) = C V^2 f (lines 2006-2012), C = the lab's core capacitance
      const paperPowerW = chip.config.power.coreCapacitanceF * vf.volts * vf.volts * freqMHz * 1e6;
      return {
        kernel: r.kernel as string,
        divisor: p.divisor,
        freqMHz,
        volts: vf.volts,
        cycles: r.cycles as number,
        kernelTimeNs: r.kernelTimeNs as number,
        flops: r.flops as number,
        gflops,
        paperPowerW,
        gflopsPerWattPaper: gflops / paperPowerW,
        avgPowerW,
        gflopsPerW: gflops / avgPowerW,
        instructions: r.instructions as number,
        ipc: (r.instructions as number) / (r.cycles as number),
        check: r.check as string,
      };
    });
  },
};
