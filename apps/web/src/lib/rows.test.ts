import { describe, expect, it } from 'vitest';
import { workloads } from '@manycore/workloads';
import { axesFor, chooseAxes, coincidentSeries, groupPoints, moreRowsNote, seriesDash } from './rows';

describe('result row axes', () => {
  it('picks hops against latency grouped by op for memtest rows', () => {
    const rows = [
      { hops: 0, op: 'read', latencyNs: 132, formulaNs: 132.5 },
      { hops: 1, op: 'read', latencyNs: 142, formulaNs: 142.5 },
      { hops: 0, op: 'write', latencyNs: 130, formulaNs: 132.5 },
    ];
    expect(chooseAxes(rows)).toMatchObject({ x: 'hops', y: 'latencyNs', group: 'op' });
    expect(groupPoints(rows, 'hops', 'latencyNs', 'op')).toEqual([
      { label: 'op=read', points: [[0, 132], [1, 142]] },
      { label: 'op=write', points: [[0, 130]] },
    ]);
  });
  it('prefers a time-like y column', () => {
    expect(chooseAxes([{ hops: 1, bytes: 32, roundTripNs: 400 }])).toMatchObject({ x: 'hops', y: 'roundTripNs' });
    expect(chooseAxes([])).toMatchObject({ x: null, y: null, group: null });
  });
});

describe('workload-declared chart axes', () => {
  const sweep = [
    { op: 'sendrecv', processes: 48, channel: 'improved', bytes: 1, latencyNs: 2792 },
    { op: 'sendrecv', processes: 48, channel: 'improved', bytes: 1024, latencyNs: 4100 },
    { op: 'sendrecv', processes: 48, channel: 'original', bytes: 1, latencyNs: 3000 },
  ];
  it('uses the declared x, y and series instead of the guess (mpi-sweep: latency against bytes, not processes)', () => {
    expect(chooseAxes(sweep)).toMatchObject({ x: 'processes' }); // the guess draws nothing useful
    const spec = workloads['mpi-sweep']!.chart!;
    expect(axesFor(sweep, spec)).toMatchObject({ x: 'bytes', y: 'latencyNs', group: 'channel', declared: true, logX: true, logY: true });
  });
  it('falls back to the guess when the declared columns are not numeric columns of these rows', () => {
    expect(axesFor(sweep, { x: 'cores', y: 'timeNs' })).toMatchObject({ x: 'processes', declared: false });
    expect(axesFor(sweep, null)).toMatchObject({ x: 'processes', declared: false });
  });
  it('draws one line when the declared chart names no series', () => {
    expect(axesFor([{ cores: 4, timeNs: 10, correct: true }], { x: 'cores', y: 'timeNs' })).toMatchObject({ x: 'cores', y: 'timeNs', group: null });
  });
  it('every workload declares what to plot', () => {
    for (const [name, w] of Object.entries(workloads)) {
      expect(w.chart, name).toBeDefined();
      expect(w.chart!.x, name).not.toBe(w.chart!.y);
    }
  });
});

describe('series that coincide', () => {
  it('finds series drawn on top of each other and gives each its own dash pattern', () => {
    const a = { label: 'A: op=read', points: [[0, 10], [1, 20]] as [number, number][] };
    const b = { label: 'B: op=read', points: [[1, 20], [0, 10.01]] as [number, number][] };
    const c = { label: 'A: op=write', points: [[0, 15], [1, 25]] as [number, number][] };
    expect(coincidentSeries([a, b, c])).toEqual([['A: op=read', 'B: op=read']]);
    expect(coincidentSeries([a, c])).toEqual([]);
    expect(coincidentSeries([a, { ...b, points: [[0, 10]] }])).toEqual([]);
    expect(seriesDash(0)).toEqual([]);
    expect(seriesDash(1)).not.toEqual(seriesDash(2));
  });
  it('says 1 more row, not 1 more rows', () => {
    expect(moreRowsNote(1)).toBe('1 more row in the CSV export.');
    expect(moreRowsNote(32)).toBe('32 more rows in the CSV export.');
  });
});
