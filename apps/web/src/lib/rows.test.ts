import { describe, expect, it } from 'vitest';
import { chooseAxes, groupPoints } from './rows';

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
