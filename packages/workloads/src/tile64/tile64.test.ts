import { describe, expect, it } from 'vitest';
import { Simulation, type Results, type Row } from '@manycore/engine';
import { workloads } from '../index';

function run(name: string, params: Record<string, unknown> = {}, preset = 'tile64'): Results {
  return new Simulation({ version: 1, chip: { preset }, workload: { name, params } }, workloads).runInline();
}
const pick = (rows: Row[], level: string) => rows.filter((r) => r.level === level);

describe('latency-ladder (TILE64, paper 000 Tables 1 and 3)', () => {
  const rows = run('latency-ladder').workload.rows;

  it('L1 2, L2 8, DRAM 69 + 2 per hop to the controller, remote home L2 35 + 2 per hop', () => {
    expect(pick(rows, 'L1')[0]!.latencyCycles).toBe(2);
    expect(pick(rows, 'L2')[0]!.latencyCycles).toBe(8);
    const dram = pick(rows, 'DRAM');
    expect(dram.length).toBe(4);
    for (const r of dram) expect(r.latencyCycles).toBe(69 + 2 * (r.hops as number));
    const remote = pick(rows, 'remote home L2');
    expect(remote.map((r) => r.hops)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    for (const r of remote) expect(r.latencyCycles).toBe(35 + 2 * (r.hops as number));
  });

  it('about 40 cycles from a home L2 and about 80 from DRAM at typical distances; memory through a remote home costs more than either', () => {
    const remote = pick(rows, 'remote home L2').filter((r) => (r.hops as number) <= 5);
    for (const r of remote) expect(Math.abs((r.latencyCycles as number) - 40)).toBeLessThanOrEqual(5);
    const dram = pick(rows, 'DRAM').map((r) => r.latencyCycles as number);
    expect(Math.min(...dram)).toBeGreaterThanOrEqual(69);
    expect(dram.reduce((a, b) => a + b, 0) / dram.length).toBeGreaterThan(75);
    expect(dram.reduce((a, b) => a + b, 0) / dram.length).toBeLessThan(90);
    // the lab serialises request, home miss, DRAM and reply: above the paper's ~80 (named in the note)
    for (const r of pick(rows, 'remote home memory')) expect(r.latencyCycles as number).toBeGreaterThan(100);
  });

  it('read-only pages: the first load reads memory, the next is served by the own L1', () => {
    const ro = run('latency-ladder', { regime: 'read-only' }).workload.rows;
    const first = pick(ro, 'read-only first');
    expect(first.length).toBe(14);
    for (const r of first) expect(r.latencyCycles as number).toBeGreaterThanOrEqual(69);
    for (const r of pick(ro, 'read-only again')) expect(r.latencyCycles).toBe(2);
  });

  it('runs on the TILE64 family only: on the SCC the error names both', () => {
    expect(() => run('latency-ladder', {}, 'scc')).toThrow(/latency-ladder runs on chip families tile64; preset "scc" is a scc chip/);
    expect(() => run('memtest', {}, 'tile64')).toThrow(/memtest runs on chip families scc; preset "tile64" is a tile64 chip/);
  });
});

describe('tile-messages (TILE64, paper 000 Fig. 1)', () => {
  const rows = run('tile-messages').workload.rows;
  const cyc = (method: string, words: number, hops: number) => rows.find((r) => r.method === method && r.words === words && r.hops === hops)!.cycles as number;

  it('a 10-word raw message: 23 cycles to send, 12 to receive, plus the hops', () => {
    expect(cyc('message', 10, 1)).toBe(23 + 12 + 1);
    expect(cyc('message', 10, 3)).toBe(23 + 12 + 3);
  });

  it('hops add time; a 10-word message beats 10 loads from the other cache', () => {
    for (const m of ['message', 'load from cache', 'DMA from cache']) expect(cyc(m, 10, 3)).toBeGreaterThan(cyc(m, 10, 1));
    for (const h of [1, 3]) expect(cyc('message', 10, h)).toBeLessThan(cyc('load from cache', 10, h) / 5);
  });

  it('DMA loses at 10 words against the raw message and against loads from memory (its set-up dominates)', () => {
    for (const h of [1, 3]) expect(cyc('DMA from cache', 10, h)).toBeGreaterThan(5 * cyc('message', 10, h));
    expect(cyc('DMA from memory', 10, 0)).toBeGreaterThan(3 * cyc('load from memory', 10, 0));
  });
});
