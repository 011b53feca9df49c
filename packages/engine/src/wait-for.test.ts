/**
 * The wait-for graph: the pure cycle finder (a property test over random functional graphs),
 * and the deadlock messages of real runs: a cycle of flag waits that name their releasing core,
 * and a poll that skips CL1INVMB and spins on a stale copy of the flag in its L1.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runProgram } from './testing';
import { findWaitForCycle, findWaitForCycles } from './wait-for';

describe('findWaitForCycle', () => {
  it('finds the cycle of a small graph, from its smallest core', () => {
    expect(findWaitForCycle([1, 0])).toEqual([0, 1, 0]);
    expect(findWaitForCycle([-1, 2, 3, 1])).toEqual([1, 2, 3, 1]);
    expect(findWaitForCycle([1, 2, -1])).toBeNull();
    expect(findWaitForCycle([])).toBeNull();
    expect(findWaitForCycles([1, 0, 3, 2, 0])).toEqual([
      [0, 1, 0],
      [2, 3, 2],
    ]);
  });

  it('on a random functional graph, every cycle it reports is a real cycle, and one is found whenever one exists', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((n) => fc.array(fc.integer({ min: -1, max: n - 1 }), { minLength: n, maxLength: n })),
        (edges) => {
          const cycles = findWaitForCycles(edges);
          const seen = new Set<number>();
          for (const cy of cycles) {
            expect(cy.length).toBeGreaterThanOrEqual(2); // a -> a (a self-loop) at least
            expect(cy[0]).toBe(cy[cy.length - 1]);
            expect(cy[0]).toBe(Math.min(...cy));
            const body = cy.slice(0, -1);
            expect(new Set(body).size).toBe(body.length);
            for (let i = 0; i + 1 < cy.length; i++) expect(edges[cy[i]!]).toBe(cy[i + 1]);
            for (const c of body) {
              expect(seen.has(c)).toBe(false);
              seen.add(c);
            }
          }
          // a cycle exists iff following edges from some node returns to it
          let exists = false;
          for (let s = 0; s < edges.length && !exists; s++) {
            let v = edges[s]!;
            for (let k = 0; k < edges.length && v >= 0; k++) {
              if (v === s) exists = true;
              v = edges[v]!;
            }
          }
          expect(cycles.length > 0).toBe(exists);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('deadlock messages', () => {
  it('names the wait-for cycle when both cores wait for the other (each names its releasing core)', () => {
    expect(() =>
      runProgram({
        cores: [0, 1],
        *program(core) {
          const other = 1 - core.id;
          yield* core.waitUntil(core.mpbOf(core.id, 8160), '==', 1, 4, { on: { core: other, what: 'ready flag' } });
        },
      }),
    ).toThrow("deadlock: wait-for cycle core 0 -> core 1 -> core 0 (core 0 waits for core 1's ready flag; core 1 waits for core 0's ready flag)");
  });

  const FLAG = 8160;
  /** Core 0 sets core 1's flag after 2 us and waits for the reply; core 1 waits for the flag, then replies. */
  const pingOnce = (cl1invmb: boolean) =>
    runProgram({
      cores: [0, 1],
      *program(core) {
        if (core.id === 0) {
          core.compute(1600); // 2 us at 800 MHz: core 1 polls first
          core.store32(core.mpbOf(1, FLAG), 1);
          yield* core.waitUntil(core.mpbOf(0, FLAG), '==', 1, 4, { on: { core: 1, what: 'reply flag' } });
        } else {
          yield* core.waitUntil(core.mpbOf(1, FLAG), '==', 1, 4, { on: { core: 0 }, cl1invmb });
          core.store32(core.mpbOf(0, FLAG), 1);
        }
      },
    });

  it('with CL1INVMB in the poll loop, the flag arrives and the run ends', () => {
    const r = pingOnce(true);
    expect(r.simulated.cores[1]!.state).toBe('finished');
    expect(r.simulated.endTimeNs).toBeGreaterThan(2000);
  });

  it('without it, the poll reads its L1 copy for ever: the message names the stale copy and both values', () => {
    expect(() => pingOnce(false)).toThrow(
      "deadlock: core 1 reads a stale copy of core 0's flag in its L1 (memory holds 1, its L1 holds 0): CL1INVMB was skipped",
    );
  });
});
