import { describe, expect, it } from 'vitest';
import { Simulation, type Row } from '@manycore/engine';
import { workloads } from './index';

function run(params: Record<string, unknown>): Row {
  return new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'socket-pingpong', params } }, workloads).runInline().workload.rows[0]!;
}

describe('socket-pingpong', () => {
  it('RCCE round trip for small messages is well under a socket-like transport with a 1500 B MTU on the same mesh', () => {
    for (const bytes of [1, 64, 512]) {
      const rcce = run({ transport: 'rcce', bytes }).roundTripNs as number;
      const socket = run({ transport: 'socket', bytes }).roundTripNs as number;
      expect(socket / rcce).toBeGreaterThan(10);
    }
    // at 1 KB RCCE is still several times faster; its round trip there includes lock-order
    // inversions between epochs on the flag-line test-and-set registers (see the engine notes)
    const rcce1k = run({ transport: 'rcce', bytes: 1024 }).roundTripNs as number;
    const socket1k = run({ transport: 'socket', bytes: 1024 }).roundTripNs as number;
    expect(socket1k / rcce1k).toBeGreaterThan(5);
  });

  it('the socket path cuts messages into MTU-sized frames; RCCE into 8160 B chunks', () => {
    expect(run({ transport: 'socket', bytes: 4000, iterations: 2 }).packets).toBe(3);
    expect(run({ transport: 'rcce', bytes: 9000, iterations: 2 }).packets).toBe(2);
    // a smaller MTU means more frames and a longer round trip
    const big = run({ transport: 'socket', bytes: 4000, iterations: 2 });
    const small = run({ transport: 'socket', bytes: 4000, iterations: 2, mtu: 576 });
    expect(small.packets).toBe(8);
    expect(small.roundTripNs as number).toBeGreaterThan(big.roundTripNs as number);
  });

  it('both transports get slower with distance', () => {
    for (const transport of ['rcce', 'socket']) {
      const near = run({ transport, bytes: 1024, hops: 1 }).roundTripNs as number;
      const far = run({ transport, bytes: 1024, hops: 8 }).roundTripNs as number;
      expect(far).toBeGreaterThan(near);
    }
  });
});
