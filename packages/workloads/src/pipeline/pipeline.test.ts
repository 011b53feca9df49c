import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, coreHops, resolveChip, type Results, type Row } from '@manycore/engine';
import { guidedExperiments, workloads } from '../index';
import { stageBuffers, stageCores, stageHops } from './plan';

function results(name: string, params: Record<string, unknown>): Results {
  return new Simulation({ version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name, params } }, workloads).runInline();
}
const run = (params: Record<string, unknown>): Row => results('pipeline', params).workload.rows[0]!;
const time = (r: Row) => r.timeNs as number;

/** Least-squares line through (x, y): slope, intercept and R^2. */
function fit(xs: number[], ys: number[]): { slope: number; intercept: number; r2: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx, r2: (sxy * sxy) / (sxx * syy) };
}

const KB = 1024;
const MB = 1024 * KB;

describe('pipeline plan', () => {
  const chip = resolveChip('scc');

  it('id order crosses the mesh at 11-12, 23-24 and 35-36; snake order keeps every neighbour within one hop', () => {
    const id = stageCores(chip, 48, 'id');
    const snake = stageCores(chip, 48, 'snake');
    expect(new Set(snake).size).toBe(48);
    expect(coreHops(chip.topo, id[11]!, id[12]!)).toBe(6);
    expect(stageHops(chip, id).max).toBe(6);
    expect(stageHops(chip, snake).max).toBe(1);
    expect(stageHops(chip, snake).total).toBeLessThan(stageHops(chip, id).total);
    expect(snake.slice(10, 14)).toEqual([10, 11, 22, 23]);
  });

  it('shared buffers sit on the controller nearest each stage (all four in use at 48 stages), or all on controller 0 when sequential', () => {
    const cores = stageCores(chip, 48, 'id');
    const near = stageBuffers(chip, cores, 256 * KB, 'nearest');
    near.forEach((b, s) => expect(b.controller).toBe(chip.nearestController[cores[s]!]));
    expect(new Set(near.map((b) => b.controller)).size).toBe(4);
    expect(new Set(near.map((b) => b.addr)).size).toBe(48);
    const seq = stageBuffers(chip, cores, 256 * KB, 'sequential');
    expect(new Set(seq.map((b) => b.controller))).toEqual(new Set([0]));
  });
});

describe('dram-hops', () => {
  it('the default block is 4 MB; reading and writing shared memory takes time linear in the hops to each controller', () => {
    expect(results('dram-hops', { bytes: 64 * KB }).workload.params.bytes).toBe(64 * KB);
    expect(workloads['dram-hops']!.params.parse({})).toMatchObject({ bytes: 4 * MB, mapping: 'uncached' });
    // core 0 is 0, 5, 2, 7 hops from the four controllers; core 47 is 8, 3, 6, 1 hops away
    const rows = [0, 47].flatMap((core) => results('dram-hops', { core, bytes: 512 * KB }).workload.rows);
    expect(rows).toHaveLength(16);
    for (const op of ['read', 'write']) {
      const r = rows.filter((x) => x.op === op).sort((a, b) => (a.hops as number) - (b.hops as number));
      expect(r.map((x) => x.hops)).toEqual([0, 1, 2, 3, 5, 6, 7, 8]);
      for (let i = 1; i < r.length; i++) expect(time(r[i]!)).toBeGreaterThan(time(r[i - 1]!));
      const { slope, intercept, r2 } = fit(
        r.map((x) => x.hops as number),
        r.map(time),
      );
      expect(r2).toBeGreaterThan(0.99);
      // each hop adds a visible share: 8 hops cost at least a quarter more than 0 hops
      expect((slope * 8) / intercept).toBeGreaterThan(0.25);
    }
  });
});

describe('pipeline', () => {
  it('output equals the input transformed by every stage, in every mode and order (partial last chunk included)', () => {
    for (const mode of ['private', 'uncached-shared', 'cached-shared'])
      for (const order of ['id', 'snake']) {
        const r = run({ mode, order, stages: 5, dataBytes: 96 * KB + 96, chunkBytes: 16 * KB });
        expect(r.correct).toBe(true);
        expect(r.flushesPerCore).toBe(mode === 'cached-shared' ? 2 * 7 : 0);
      }
    expect(run({ mode: 'cached-shared', stages: 3, dataBytes: 32 * KB, chunkBytes: 8 * KB, placement: 'sequential', flush: 'engine' }).correct).toBe(true);
    const res = results('pipeline', { mode: 'cached-shared', stages: 3, dataBytes: 32 * KB, chunkBytes: 8 * KB });
    expect(res.workload.correct).toBe(true);
    const stages = res.workload.stages as { busyNs: number; waitNs: number; spans: unknown[]; flushes: number }[];
    expect(stages).toHaveLength(3);
    for (const s of stages) {
      expect(s.busyNs).toBeGreaterThan(0);
      expect(s.spans).toHaveLength(4);
      expect(s.flushes).toBe(8);
    }
    // the last stage waits for the others to fill the pipeline
    expect(stages[2]!.waitNs).toBeGreaterThan(stages[0]!.waitNs);
  });

  it('private mode: time linear in D', () => {
    const ds = [256 * KB, 512 * KB, 768 * KB, 1 * MB];
    const t = ds.map((dataBytes) => time(run({ mode: 'private', stages: 4, dataBytes, chunkBytes: 64 * KB })));
    const { slope, r2 } = fit(ds, t);
    expect(slope).toBeGreaterThan(0);
    expect(r2).toBeGreaterThan(0.995);
  });

  it('uncached shared mode: time proportional to D and independent of C', () => {
    const base = { mode: 'uncached-shared', stages: 4 };
    const t1 = time(run({ ...base, dataBytes: 256 * KB, chunkBytes: 8 * KB }));
    const t4 = time(run({ ...base, dataBytes: 1 * MB, chunkBytes: 8 * KB }));
    expect(t4 / t1).toBeGreaterThan(3.6);
    expect(t4 / t1).toBeLessThan(4.2);
    // independent of C, given enough chunks that filling and draining the 4 stages
    // ((N + m - 1) / N) stays small: 2 MB in 4 KB or 64 KB chunks (512 or 32 chunks)
    const [small, large] = [4 * KB, 64 * KB].map((chunkBytes) => time(run({ ...base, dataBytes: 2 * MB, chunkBytes })));
    expect(Math.abs(large! / small! - 1)).toBeLessThan(0.08);
    expect(Math.abs(time(run({ ...base, dataBytes: 1 * MB, chunkBytes: 16 * KB })) / t4 - 1)).toBeLessThan(0.08);
  });

  it('cached shared mode: dominated by flushes, improving as C grows, faster than private at large chunks', () => {
    const base = { mode: 'cached-shared', stages: 4, dataBytes: 512 * KB };
    const cs = [16 * KB, 64 * KB, 256 * KB];
    const rows = cs.map((chunkBytes) => run({ ...base, chunkBytes }));
    // each 4x in C at least 20 % faster (the per-byte costs, reads, allocate-on-write loads and
    // write-backs, and filling 4 stages with fewer chunks do not shrink with C; the flushes do)
    for (let i = 1; i < rows.length; i++) expect(time(rows[i]!)).toBeLessThan(time(rows[i - 1]!) * 0.8);
    // 2 flushes per chunk per core; at small chunks the flushes are most of the time
    rows.forEach((r, i) => expect(r.flushesPerCore).toBe((2 * base.dataBytes) / cs[i]!));
    expect(rows[0]!.flushShare as number).toBeGreaterThan(0.75);
    expect(rows[1]!.flushShare as number).toBeGreaterThan(0.5);
    // at small chunks the flushes make it far slower than private mode
    expect(time(rows[0]!)).toBeGreaterThan(5 * time(run({ ...base, mode: 'private', chunkBytes: 16 * KB })));
    // chunks of 1 MB: private mode's chunk no longer fits L2 and spills to DRAM, the flushes are amortised
    const big = { stages: 4, dataBytes: 2 * MB, chunkBytes: 1 * MB };
    const cached = time(run({ ...big, mode: 'cached-shared' }));
    const priv = time(run({ ...big, mode: 'private' }));
    expect(cached).toBeLessThan(priv * 0.8);
  });

  describe('48 stages, 256 KB chunks: snake vs id order', () => {
    const modes = ['private', 'uncached-shared', 'cached-shared'] as const;
    let gains: Record<(typeof modes)[number], number> = { private: 0, 'uncached-shared': 0, 'cached-shared': 0 };
    beforeAll(() => {
      gains = Object.fromEntries(
        modes.map((mode) => {
          const p = { mode, stages: 48, dataBytes: 256 * KB, chunkBytes: 256 * KB };
          const id = run({ ...p, order: 'id' });
          const snake = run({ ...p, order: 'snake' });
          expect(id.correct && snake.correct).toBe(true);
          return [mode, 1 - time(snake) / time(id)];
        }),
      ) as typeof gains;
    });

    it('snake is a little faster than id in every mode', () => {
      for (const mode of modes) {
        expect(gains[mode]).toBeGreaterThan(0.002);
        expect(gains[mode]).toBeLessThan(0.05);
      }
    });

    // scc.md 7: the gain is largest for cached shared memory. With one chunk (D = C) the stages
    // run one after another and all 48 cores take part in both orders, so every per-core cost
    // (flushes and output writes to the core's own controller, compute) is the same; only the
    // transfer between consecutive stages depends on the order: the input read from the
    // previous stage's buffer (nearest placement: 93 hops summed over the stages in id order,
    // 78 in snake) and the token. 15 hops x 10 ns (2 x 4 mesh cycles) on each read, halved by the
    // 2 misses in flight, over 32768 uncached 8 B reads or 8192 cached line reads: 2.46 ms of
    // 234 ms (uncached, 1.05 %) vs 0.55 ms of 147 ms (cached, 0.38 %; private 0.69 %). For the
    // cached gain to be the largest, a cached stage would have to move its 1 MB per chunk
    // (input, allocate-on-write, two flushes) at about twice the rate 2 misses in flight allow at
    // the reference's DRAM latency. With the shared window allocated from its start (placement
    // 'sequential', every buffer on controller 0 as the LUT groups of scc.md 7 place small
    // allocations) both shared modes gain 0.00 %. See the notes on issue 5.
    it.fails('the gain is largest in cached-shared mode (not reproduced by this model)', () => {
      expect(gains['cached-shared']).toBeGreaterThan(gains.private);
      expect(gains['cached-shared']).toBeGreaterThan(gains['uncached-shared']);
    });
  });
});

describe('guided experiments of issue 5', () => {
  it('cover every must-show trend', () => {
    const ids = guidedExperiments.map((g) => g.id);
    for (const id of ['pipeline-dram-hops', 'pipeline-private-vs-d', 'pipeline-uncached-vs-c', 'pipeline-cached-vs-c', 'pipeline-snake-order', 'nbody-ring-workers', 'concordance-cores'])
      expect(ids).toContain(id);
  });
});
