import { describe, expect, it } from 'vitest';
import { logTicks } from '../charts/draw';
import { activeCores, dvfsSeries, powerSeries, sweepSeries, type RunRecord } from './mp-series';

const rec = (digest: string, workload: string, params: Record<string, unknown>, rows: Record<string, unknown>[], avgPowerW = 30): RunRecord => ({ digest, workload, params, rows, avgPowerW });

describe('sweepSeries', () => {
  it('one line per op, channel and process count; sizes > 0; a re-run replaces its points', () => {
    const rows = (channel: string, k: number) =>
      [1, 2, 1024].map((bytes) => ({ op: 'sendrecv', processes: 48, channel, bytes, latencyNs: bytes * k + 1000, sectionReads: 47, packets: 1 }));
    const records = [
      rec('a', 'mpi-sweep', {}, rows('original', 3)),
      rec('b', 'mpi-sweep', {}, rows('improved', 1)),
      rec('c', 'mpi-sweep', {}, [{ op: 'barrier', processes: 48, channel: 'improved', bytes: 0, latencyNs: 5000 }]),
      rec('d', 'mpi-sweep', {}, rows('original', 2)),
      rec('e', 'dvfs-kernels', {}, [{ kernel: 'dot', divisor: 3, gflopsPerW: 1 }]),
    ];
    const s = sweepSeries(records, 'latencyNs', 'b');
    expect(s.map((x) => x.label)).toEqual(['sendrecv · original · 48 procs', 'sendrecv · improved · 48 procs']);
    expect(s[0]!.points).toEqual([
      [1, 1002],
      [2, 1004],
      [1024, 3048],
    ]);
    expect(s.map((x) => x.current)).toEqual([false, true]);
    expect(sweepSeries(records, 'sectionReads', null)[1]!.points.map((p) => p[1])).toEqual([47, 47, 47]);
  });
});

describe('dvfsSeries', () => {
  it('one point per run, one line per kernel, sorted by divisor', () => {
    const records = [8, 3, 16].map((d, i) => rec(`r${i}`, 'dvfs-kernels', { divisor: d }, [{ kernel: 'dot', divisor: d, gflopsPerW: 1 / d, kernelTimeNs: d * 100, cycles: 1000 - d }]));
    records.push(rec('m', 'dvfs-kernels', {}, [{ kernel: 'matmul', divisor: 3, gflopsPerW: 2 }]));
    const s = dvfsSeries(records, 'gflopsPerW', 'm');
    expect(s).toHaveLength(2);
    expect(s[0]!.points.map((p) => p[0])).toEqual([3, 8, 16]);
    expect(s[1]).toMatchObject({ label: 'matmul', current: true, points: [[3, 2]] });
    expect(dvfsSeries(records, 'cycles', null)[0]!.points).toEqual([
      [3, 997],
      [8, 992],
      [16, 984],
    ]);
  });
});

describe('powerSeries', () => {
  it('x = 2 x pairs, y = chip power of the run, one line per benchmark and hops', () => {
    const pairRows = (pairs: number, w: number) => Array.from({ length: pairs }, (_, i) => ({ benchmark: 'stencil', hops: 1, pairs, pair: i, chipPowerW: w, powerW: w + 1 }));
    const records = [rec('a', 'rcce-pair', { pairs: 1 }, pairRows(1, 31.7)), rec('b', 'rcce-pair', { pairs: 24 }, pairRows(24, 45)), rec('c', 'rcce-pair', { pairs: 4 }, pairRows(4, 33))];
    const s = powerSeries(records, 'chipPowerW', 'c');
    expect(s).toEqual([
      {
        label: 'stencil, 1 hop',
        current: true,
        points: [
          [2, 31.7],
          [8, 33],
          [48, 45],
        ],
      },
    ]);
    expect(powerSeries(records, 'powerW', null)[0]!.points[0]).toEqual([2, 32.7]);
    // without the row field: the run's average
    expect(powerSeries([rec('x', 'rcce-pair', { pairs: 2 }, [{ benchmark: 'share', hops: 0, pairs: 2 }], 40)], 'chipPowerW', null)[0]!.points).toEqual([[4, 40]]);
    expect(activeCores({ pairs: 3 }, [])).toBe(6);
  });
});

describe('axis helpers', () => {
  it('log2 ticks are powers of two, thinned', () => {
    expect(logTicks(1, 65536, 2, 20)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]);
    expect(logTicks(1, 65536, 2, 9)).toEqual([1, 4, 16, 64, 256, 1024, 4096, 16384, 65536]);
  });
  it('log10 ticks: powers over several decades, 2x and 5x over fewer', () => {
    expect(logTicks(1000, 1e6, 10, 6)).toEqual([1000, 10000, 100000, 1e6]);
    expect(logTicks(1000, 10000, 10, 6)).toEqual([1000, 2000, 5000, 10000]);
  });
});
