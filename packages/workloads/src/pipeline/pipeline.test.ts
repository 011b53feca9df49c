import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, coreHops, resolveChip, type Results, type Row } from '@manycore/engine';
import { guidedExperiments, workloads } from '../index';
import { queueSlots, sharedPlan, stageCores, stageHops } from './plan';
import { linearFit } from '../lib/fit';

function results(name: string, params: Record<string, unknown>): Results {
  return new Simulation({ version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name, params } }, workloads).runInline();
}
const run = (params: Record<string, unknown>): Row => results('pipeline', params).workload.rows[0]!;
const time = (r: Row) => r.timeNs as number;

const fit = linearFit;

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

  it("the shared queue has stages - 1 slots of C bytes; the paper's LUT arrangement puts queue, input and output on the controller at (0,0)", () => {
    expect(chip.controllerTile[0]).toBe(0); // MC0 at tile (0,0)
    const plan = sharedPlan(chip, { stages: 48, chunkBytes: 256 * KB, dataBytes: 8 * MB, placement: 'sequential' });
    expect(plan.slots).toBe(47);
    plan.slotAddr.forEach((a, j) => expect(a).toBe(chip.sharedBase + j * 256 * KB));
    expect(new Set([...plan.slotController, plan.inputController, plan.outputController])).toEqual(new Set([0]));
    expect(plan.input).toBeGreaterThanOrEqual(plan.slotAddr[46]! + 256 * KB);
    expect(plan.output).toBeGreaterThanOrEqual(plan.input + 8 * MB);
    // what-if: slots interleaved over the four controllers
    const inter = sharedPlan(chip, { stages: 48, chunkBytes: 256 * KB, dataBytes: 8 * MB, placement: 'interleaved' });
    expect(inter.slotController.slice(0, 8)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    expect(new Set(inter.slotAddr).size).toBe(47);
    // fewer slots on request, never more than stages - 1
    expect(queueSlots(48)).toBe(47);
    expect(queueSlots(48, 10)).toBe(10);
    expect(queueSlots(4, 10)).toBe(3);
  });
});

describe('dram-hops', () => {
  it('the default block is 4 MB; reading and writing shared memory takes time linear in the hops to each controller', () => {
    const small = results('dram-hops', { bytes: 64 * KB }).workload;
    expect(small.params.bytes).toBe(64 * KB);
    // what-if: 8 B per uncached transaction (the lab's earlier default) halves the transactions
    const wide = results('dram-hops', { bytes: 64 * KB, accessBytes: 8 }).workload.rows;
    small.rows.forEach((r, i) => expect(time(wide[i]!)).toBeLessThan(0.7 * time(r)));
    expect(workloads['dram-hops']!.params.parse({})).toMatchObject({ bytes: 4 * MB, mapping: 'uncached', accessBytes: 4 });
    // core 0 is 0, 5, 2, 7 hops from the four controllers; core 47 is 8, 3, 6, 1 hops away
    const rows = [0, 47].flatMap((core) => results('dram-hops', { core, bytes: 256 * KB }).workload.rows);
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
  const modes = ['private', 'uncached-shared', 'cached-shared'] as const;

  it('output equals the input plus 1 per stage, in every mode and order (partial last chunk included); the last stage checks every byte', () => {
    for (const mode of modes)
      for (const order of ['id', 'snake']) {
        const r = run({ mode, order, stages: 5, dataBytes: 64 * KB + 96, chunkBytes: 16 * KB });
        expect(r.correct).toBe(true);
        expect(r.flushesPerCore).toBe(mode === 'cached-shared' ? 2 * 5 : 0);
      }
    // every what-if switch keeps the result right
    for (const mode of modes)
      for (const w of [{ allocateOnWrite: true }, { preTouch: true }, { element: 'byte' }, { placement: 'interleaved' }, { ioBuffers: 'private' }, { slots: 2 }, { workCyclesPerByte: 2 }])
        expect(run({ mode, stages: 4, dataBytes: 8 * KB + 32, chunkBytes: 4 * KB, ...w }).correct).toBe(true);
    expect(run({ mode: 'cached-shared', stages: 3, dataBytes: 32 * KB, chunkBytes: 8 * KB, flush: 'engine' }).correct).toBe(true);
    expect(() => run({ mode: 'uncached-shared', stages: 4, dataBytes: 32 * KB, chunkBytes: 8 * KB, slots: 4 })).toThrow(/slots \(4\) must be at most stages - 1/);
  });

  it('defaults: the plain add-1 loop over 32-bit ints, no extra work, no software allocate-on-write, no pre-touching, the queue from the start of the shared window', () => {
    expect(workloads.pipeline!.params.parse({})).toMatchObject({
      element: 'int32',
      workCyclesPerByte: 0,
      allocateOnWrite: false,
      preTouch: false,
      placement: 'sequential',
      ioBuffers: 'shared',
      slots: 0,
      flush: 'routine',
    });
  });

  it('cached shared: 2 flushes per chunk per core, each stage; a token ring (the last stage returns every token to the first)', () => {
    const res = results('pipeline', { mode: 'cached-shared', stages: 3, dataBytes: 32 * KB, chunkBytes: 8 * KB });
    expect(res.workload.correct).toBe(true);
    const stages = res.workload.stages as { core: number; busyNs: number; waitNs: number; spans: unknown[]; flushes: number }[];
    expect(stages).toHaveLength(3);
    for (const s of stages) {
      expect(s.busyNs).toBeGreaterThan(0);
      expect(s.spans).toHaveLength(4);
      expect(s.flushes).toBe(8);
    }
    // the last stage waits for the others to fill the pipeline
    expect(stages[2]!.waitNs).toBeGreaterThan(stages[0]!.waitNs);
    // messages: stage s -> s + 1 one token per chunk (stage 0 also sent each stage the offsets
    // message in set-up), and the last stage -> the first one per chunk
    const msg = res.simulated.messageMatrix.messages;
    const [c0, c1, c2] = stages.map((s) => s.core) as [number, number, number];
    expect(msg[c0]![c1]).toBe(4 + 1);
    expect(msg[c1]![c2]).toBe(4);
    expect(msg[c2]![c0]).toBe(4);
    expect(msg[c0]![c2]).toBe(1);
  });

  it('uncached shared: the queue slots are transformed in place, one 4 B read and one 4 B write per word per stage; the first and the last stage also copy', () => {
    const D = 24 * KB;
    const res = results('pipeline', { mode: 'uncached-shared', stages: 4, dataBytes: D, chunkBytes: 4 * KB, slots: 2 });
    // 6 chunks through 2 slots: every slot reused; the read-back of the slots of the last two chunks
    // (after all 4 stages) and of the output is part of `correct`
    expect(res.workload.correct).toBe(true);
    expect(res.workload.readBackErrors).toBe(0);
    expect((res.workload.queue as { slots: number }).slots).toBe(2);
    const st = res.workload.stages as { dramReads: number; dramWrites: number }[];
    const words = D / 4;
    // middle stages: the add-1 loop only (plus a few private-memory lines of the token buffers)
    for (const s of [st[1]!, st[2]!]) {
      expect(s.dramReads - words).toBeGreaterThanOrEqual(0);
      expect(s.dramReads - words).toBeLessThan(16);
      expect(s.dramWrites - words).toBeGreaterThanOrEqual(0);
      expect(s.dramWrites - words).toBeLessThan(16);
    }
    // first: input -> slot copy and the loop; last: the loop and slot -> output
    for (const s of [st[0]!, st[3]!]) {
      expect(Math.abs(s.dramReads - 2 * words)).toBeLessThan(16);
      expect(Math.abs(s.dramWrites - 2 * words)).toBeLessThan(16);
    }
    // the byte loop (what-if): a transaction per byte in the add-1 loop (the copies stay word moves)
    const bytes = run({ mode: 'uncached-shared', stages: 4, dataBytes: D, chunkBytes: 4 * KB, element: 'byte' });
    const ints = run({ mode: 'uncached-shared', stages: 4, dataBytes: D, chunkBytes: 4 * KB });
    expect((bytes.dramReads as number) / (ints.dramReads as number)).toBeCloseTo((4 * 4 + 2) / (4 + 2), 1);
    expect(time(bytes)).toBeGreaterThan(2 * time(ints));
  });

  it('what-if allocateOnWrite: the copies\' word stores to uncached lines become line fills and whole-line write-backs (fewer DRAM writes, faster)', () => {
    const D = 32 * KB;
    for (const mode of ['cached-shared', 'private'] as const) {
      const base = { mode, stages: 4, dataBytes: D, chunkBytes: 8 * KB };
      const plain = run(base);
      const aow = run({ ...base, allocateOnWrite: true });
      expect(aow.allocateOnWrite).toBe(true);
      const saved = (plain.dramWrites as number) - (aow.dramWrites as number);
      if (mode === 'cached-shared') {
        // first stage (input -> slot) and last (slot -> output): D / 4 word writes each become
        // D / 32 write-backs at the flush after writing, for the output copy only (the slot's
        // lines are written back anyway, after the in-place add)
        expect(saved).toBe(2 * (D / 4) - D / 32);
        expect(aow.dramReads as number).toBeGreaterThan(plain.dramReads as number); // the allocating loads
      } else expect(saved).toBeGreaterThan(0.9 * (D / 4)); // the last stage's output copy
      expect(time(aow)).toBeLessThan(time(plain));
    }
    // uncached pages do not cache: the switch changes nothing
    const u = { mode: 'uncached-shared', stages: 4, dataBytes: D, chunkBytes: 8 * KB };
    expect(run({ ...u, allocateOnWrite: true }).dramWrites).toBe(run(u).dramWrites);
  });

  it('what-if preTouch (private mode): the first chunk\'s receive and copy hit L2 instead of writing every word to DRAM', () => {
    const base = { mode: 'private', stages: 4, dataBytes: 64 * KB, chunkBytes: 16 * KB };
    const plain = run(base);
    const touched = run({ ...base, preTouch: true });
    expect(touched.correct).toBe(true);
    // every stage's chunk buffer: C / 4 word writes of the first chunk
    expect((plain.dramWrites as number) - (touched.dramWrites as number)).toBe(4 * ((16 * KB) / 4));
    expect(time(touched)).toBeLessThan(time(plain));
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
    const t1 = time(run({ ...base, dataBytes: 128 * KB, chunkBytes: 4 * KB }));
    const t4 = time(run({ ...base, dataBytes: 512 * KB, chunkBytes: 4 * KB }));
    expect(t4 / t1).toBeGreaterThan(3.6);
    expect(t4 / t1).toBeLessThan(4.2);
    // independent of C, given enough chunks that filling and draining the 4 stages
    // ((N + m - 1) / N) stays small: 512 KB in 2 KB, 4 KB or 16 KB chunks (256, 128 or 32 chunks)
    for (const chunkBytes of [2 * KB, 16 * KB]) expect(Math.abs(time(run({ ...base, dataBytes: 512 * KB, chunkBytes })) / t4 - 1)).toBeLessThan(0.1);
  });

  it('cached shared mode: dominated by flushes at small chunks, faster as C grows, faster than private at large chunks', () => {
    const base = { mode: 'cached-shared', stages: 4, dataBytes: 512 * KB };
    const cs = [16 * KB, 64 * KB, 256 * KB];
    const rows = cs.map((chunkBytes) => run({ ...base, chunkBytes }));
    // 2 flushes per chunk per core: the flushes' share falls as C grows, and so does the time;
    // it levels off once the per-byte costs (reads, the first and last stages' word writes,
    // write-backs) and filling 4 stages with fewer chunks dominate
    rows.forEach((r, i) => expect(r.flushesPerCore).toBe((2 * base.dataBytes) / cs[i]!));
    for (let i = 1; i < rows.length; i++) {
      expect(time(rows[i]!)).toBeLessThan(time(rows[i - 1]!));
      expect(rows[i]!.flushShare as number).toBeLessThan(rows[i - 1]!.flushShare as number);
    }
    expect(time(rows[1]!)).toBeLessThan(time(rows[0]!) * 0.8);
    expect(rows[0]!.flushShare as number).toBeGreaterThan(0.5);
    // at small chunks the flushes make it far slower than private mode
    expect(time(rows[0]!)).toBeGreaterThan(3 * time(run({ ...base, mode: 'private', chunkBytes: 16 * KB })));
    // at 256 KB chunks the flushes are amortised and cached shared beats private mode, whose
    // chunk buffer fills L2 and keeps going to DRAM
    expect(time(rows[2]!)).toBeLessThan(time(run({ ...base, mode: 'private', chunkBytes: 256 * KB })));
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
    }, 300_000);

    it('snake is a little faster than id in every mode', () => {
      for (const mode of modes) {
        expect(gains[mode]).toBeGreaterThan(0);
        expect(gains[mode]).toBeLessThan(0.05);
      }
    });

    // scc.md 7: the gain is largest for cached shared memory. With one chunk (D = C) the stages
    // run one after another and all 48 cores take part in both orders, so the middle stages'
    // costs are the same; what the order changes is the hand-overs (tokens) and the end stages
    // (scc.md 7, hypothesis H2): the last stage is core 47, 8 hops from MC0 (where the queue and
    // the output live), in id order and core 36, 3 hops away, in snake order, and it copies the
    // chunk to the output one 4 B store at a time (no write-allocate). Measured (HEAD engine,
    // fixed-service controllers): private 0.21 %, uncached 0.58 %, cached 1.12 %. The cached gain
    // comes from that copy: with allocateOnWrite or the output in the last stage's private memory
    // (ioBuffers 'private') it shrinks (1 MB, 48 stages: 4.2 % -> 1.9 % and 0.2 %). Until the
    // pipeline followed the paper's code (issue 14) this was an it.fails.
    it('the gain is largest in cached-shared mode', () => {
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
