import { describe, expect, it } from 'vitest';
import { Simulation, type Row } from '@manycore/engine';
import { workloads } from './index';
import { sweepSizes } from './mpi-sweep';

function run(params: Record<string, unknown>): Row[] {
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpi-sweep', params } }, workloads).runInline().workload.rows;
}

/** latency per size for both channels */
function both(params: Record<string, unknown>): { original: Map<number, number>; improved: Map<number, number> } {
  const get = (channel: string) => new Map(run({ ...params, channel }).map((r) => [r.bytes as number, r.latencyNs as number]));
  return { original: get('original'), improved: get('improved') };
}

describe('mpi-sweep', () => {
  it('sizes: powers of two between minBytes and maxBytes, or an explicit list', () => {
    expect(sweepSizes({ op: 'sendrecv', minBytes: 1, maxBytes: 65536, sizes: '' })).toHaveLength(17);
    expect(sweepSizes({ op: 'bcast', minBytes: 4, maxBytes: 32, sizes: '' })).toEqual([4, 8, 16, 32]);
    expect(sweepSizes({ op: 'sendrecv', minBytes: 1, maxBytes: 1, sizes: '64, 256' })).toEqual([64, 256]);
    expect(sweepSizes({ op: 'barrier', minBytes: 1, maxBytes: 64, sizes: '' })).toEqual([0]);
    expect(sweepSizes({ op: 'reduce', minBytes: 1, maxBytes: 1, sizes: '1,12' })).toEqual([8, 16]);
  });

  it('rows have the issue\'s shape', () => {
    const rows = run({ op: 'sendrecv', processes: 3, sizes: '1,64' });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['op', 'processes', 'channel', 'bytes', 'latencyNs']));
      expect(r.latencyNs as number).toBeGreaterThan(0);
    }
  });

  it('48 processes, Sendrecv: same cost for small messages, improved ahead above ~128 B, far ahead at 16 KB', () => {
    const { original, improved } = both({ op: 'sendrecv', processes: 48, sizes: '64,256,16384' });
    // 64 B: one packet either way (within 20 %)
    expect(improved.get(64)! / original.get(64)!).toBeGreaterThan(0.8);
    expect(improved.get(64)! / original.get(64)!).toBeLessThan(1.2);
    // 256 B: the original needs two 148 B packets, the improved one posting
    expect(original.get(256)! / improved.get(256)!).toBeGreaterThan(1.5);
    // 16 KB: 111 round trips of 148 B against 8 streamed 2 KB packets
    expect(original.get(16384)! / improved.get(16384)!).toBeGreaterThan(3);
  });

  it('48 processes: Gather and Scatter several times faster on the improved channel', () => {
    for (const op of ['gather', 'scatter']) {
      const { original, improved } = both({ op, processes: 48, sizes: '1024', iterations: 1 });
      expect(original.get(1024)! / improved.get(1024)!).toBeGreaterThan(3);
    }
  });

  it('48 processes: a 256 KB broadcast is several times faster on the improved channel', () => {
    const { original, improved } = both({ op: 'bcast', processes: 48, sizes: '262144', iterations: 1, warmup: 0, verify: false });
    expect(original.get(262144)! / improved.get(262144)!).toBeGreaterThan(3);
  });

  it('48 processes: the barrier costs about the same on both channels', () => {
    const { original, improved } = both({ op: 'barrier', processes: 48, iterations: 3 });
    const ratio = original.get(0)! / improved.get(0)!;
    expect(ratio).toBeGreaterThan(0.85);
    expect(ratio).toBeLessThan(1.15);
  });
});
