import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Simulation, type SccCore, type Row, type Sim, type WorkloadDef, type WorkloadRegistry } from '@manycore/engine';
import { workloads } from '../index';
import { IMP_MASK, Mpi, mpbLayout, originalSectionBytes, type Channel } from './index';

const MB = 1 << 20;

function runBody(cores: number[], channel: Channel, body: (core: SccCore, mpi: Mpi) => Sim<void>): Row[] {
  const w: WorkloadDef<Record<string, never>, SccCore> = {
    name: 'mpi-test',
    title: 'MPI test',
    description: 'test',
    params: z.strictObject({}),
    participants: () => cores,
    *program(core, _p, ctx) {
      yield* body(core, new Mpi(core, ctx.participants, channel, { base: core.privateBase + 256 * MB, bytes: 64 * MB }));
    },
  };
  const registry: WorkloadRegistry = { [w.name]: w };
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: w.name, params: {} } }, registry).runInline().workload.rows;
}

function sweep(params: Record<string, unknown>) {
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpi-sweep', params } }, workloads).runInline();
}

describe('RCKMPI channel layouts', () => {
  it('original: one equal section per process, 160 B at 48 processes', () => {
    expect(originalSectionBytes(48)).toBe(160);
    const l = mpbLayout('original', 48);
    expect(l.filter((r) => r.kind === 'metadata').every((r) => r.bytes === 12)).toBe(true);
    expect(l.find((r) => r.kind === 'payload')!.bytes).toBe(148);
  });

  it('improved: 48 x 64 B base sections, 32 x 128 B extended slots, mask and wake word in the last KB', () => {
    const l = mpbLayout('improved', 48);
    expect(l.filter((r) => r.kind === 'metadata')).toHaveLength(48);
    const slots = l.filter((r) => r.kind === 'ext-slot');
    expect(slots).toHaveLength(32);
    expect(slots[0]!.offset).toBe(3072);
    expect(slots[31]!.offset + 128).toBe(7168);
    expect(l.find((r) => r.kind === 'mask')!.offset).toBe(7168);
  });

  it('improved: a 1536 B message occupies slots 0..11 of the SENDER\'s extended section, mask 0xFFF00000 (MSB first)', () => {
    const rows = runBody([0, 9], 'improved', function* (core, mpi) {
      const buf = core.privateBase + MB;
      if (mpi.rank === 0) {
        yield* mpi.send(buf, 1536, 1, 0); // complete once posted; the receiver has not taken it yet
        core.invalidateMpbt();
        core.report({ mask: core.load32(core.mpbOf(0, IMP_MASK)) });
      }
      yield* core.barrier();
      if (mpi.rank === 1) yield* mpi.recv(buf, 1536, 0, 0);
      yield* core.barrier();
      if (mpi.rank === 0) {
        yield* mpi.send(buf, 8, 1, 1); // its pass sees the acknowledgement and frees the slots
        core.invalidateMpbt();
        core.report({ maskAfter: core.load32(core.mpbOf(0, IMP_MASK)) });
      } else yield* mpi.recv(buf, 8, 0, 1);
    });
    expect(rows[0]!.mask).toBe(0xfff00000);
    expect(rows[1]!.maskAfter).toBe(0);
  });

  for (const channel of ['original', 'improved'] as const) {
    it(`${channel}: every operation delivers the right bytes (5 processes, odd sizes)`, () => {
      for (const op of ['sendrecv', 'bcast', 'gather', 'scatter', 'reduce', 'allreduce', 'barrier']) {
        const r = sweep({ op, processes: 5, channel, sizes: '1,200,5000', iterations: 1, warmup: 1 });
        expect(r.workload.rows.length).toBeGreaterThan(0); // verify is on: a wrong byte fails the run
      }
    });

    it(`${channel}: unexpected messages (sent before the receive is posted) are kept and matched in order`, () => {
      const rows = runBody([0, 1, 2], channel, function* (core, mpi) {
        const buf = core.privateBase + MB;
        if (mpi.rank > 0) {
          for (let k = 0; k < 3; k++) {
            core.store32(buf, 100 * mpi.rank + k);
            yield* mpi.send(buf, 300, 0, k);
          }
        } else {
          yield* core.sleep(200_000); // everything arrives first
          const got: number[] = [];
          for (const src of [2, 1])
            for (let k = 0; k < 3; k++) {
              yield* mpi.recv(buf, 300, src, k);
              got.push(core.load32(buf));
            }
          core.report({ got: got.join(',') });
        }
      });
      expect(rows[0]!.got).toBe('200,201,202,100,101,102');
    });
  }

  it('polling cost grows with the number of processes: a pass reads one section per other process', () => {
    const lat: number[] = [];
    for (const n of [2, 8, 24, 48]) {
      const cores = Array.from({ length: n }, (_, i) => i);
      const rows = runBody(cores, 'improved', function* (core, mpi) {
        const buf = core.privateBase + MB;
        let ns = 0;
        for (let it = 0; it < 3; it++) {
          yield* core.barrier();
          const t0 = core.now;
          yield* mpi.sendrecv(buf, 1, (mpi.rank + 1) % n, buf + 4096, 1, (mpi.rank - 1 + n) % n);
          if (it > 0) ns += (core.now - t0) / 1000;
        }
        core.report({ ns: ns / 2, readsPerPass: mpi.stats.sectionReads / mpi.stats.passes });
      });
      for (const r of rows) expect(r.readsPerPass).toBe(n - 1);
      lat.push(Math.max(...rows.map((r) => r.ns as number)));
    }
    for (let i = 1; i < lat.length; i++) expect(lat[i]!).toBeGreaterThan(lat[i - 1]!);
    expect(lat[3]! / lat[0]!).toBeGreaterThan(4);
  });
  it('collectives with a root other than rank 0 (bcast, gather, scatter, reduce)', () => {
    const rows = runBody([0, 1, 2, 3, 4], 'improved', function* (core, mpi) {
      const n = mpi.size;
      const root = 2;
      const a = core.privateBase + MB;
      const b = core.privateBase + 2 * MB;
      // bcast
      if (mpi.rank === root) core.store32(a, 777);
      yield* mpi.bcast(a, 100, root);
      const bc = core.load32(a);
      // gather: rank r contributes 64 B starting with r
      core.store32(a, 1000 + mpi.rank);
      yield* mpi.gather(a, b, 64, root);
      const gathered = mpi.rank === root ? Array.from({ length: n }, (_, r) => core.load32(b + r * 64)).join(',') : '';
      // scatter back from the gathered buffer
      yield* mpi.scatter(b, a + 4096, 64, root);
      const scattered = core.load32(a + 4096);
      // reduce of one double
      core.storeF64(a, mpi.rank + 1);
      yield* mpi.reduce(a, b + 8192, 1, root);
      core.report({ rank: mpi.rank, bc, gathered, scattered, sum: mpi.rank === root ? core.loadF64(b + 8192) : 0 });
    });
    for (const r of rows) expect(r.bc).toBe(777);
    const root = rows.find((r) => r.rank === 2)!;
    expect(root.gathered).toBe('1000,1001,1002,1003,1004');
    expect(root.sum).toBe(15);
    for (const r of rows) expect(r.scattered).toBe(1000 + (r.rank as number));
  });
});
