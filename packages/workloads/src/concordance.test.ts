import { describe, expect, it } from 'vitest';
import { Simulation, type Results, type Row } from '@manycore/engine';
import { workloads } from './index';
import { concordanceDigest, directCount, generateText } from './concordance';

function results(params: Record<string, unknown>): Results {
  return new Simulation({ version: 1, chip: { preset: 'scc', overrides: {} }, workload: { name: 'concordance', params } }, workloads).runInline();
}
const run = (params: Record<string, unknown>): Row => results(params).workload.rows[0]!;

describe('concordance', () => {
  it('the direct count counts every phrase of 1..K words', () => {
    const text = new Uint8Array([...'the cat. the cat sat\nthe'].map((c) => c.charCodeAt(0)));
    const c = directCount(text, 2);
    expect(c.get('the')).toBe(3);
    expect(c.get('the cat')).toBe(2);
    expect(c.get('cat the')).toBe(1);
    expect(c.get('sat the')).toBe(1);
    expect(c.size).toBe(3 + 4);
    const t = generateText(7, 4096);
    expect(t).toHaveLength(4096);
    expect(generateText(7, 4096)).toEqual(t);
    expect(generateText(8, 4096)).not.toEqual(t);
  });

  it('the file server writes exactly the direct count of the same text', () => {
    for (const cores of [1, 3]) {
      const res = results({ cores, textBytes: 8192, maxPhrase: 4 });
      const direct = directCount(generateText(1, 8192), 4);
      expect(res.workload.correct).toBe(true);
      expect(res.workload.rows[0]!.correct).toBe(true);
      expect(res.workload.rows[0]!.phrases).toBe(direct.size);
      expect(res.workload.digest).toBe(concordanceDigest(direct));
    }
  });

  it('with the serialising file server 2 cores are slower than 1, and there is little gain beyond 8', () => {
    const ns = [1, 2, 4, 8, 16];
    // a 16 KB text: the trend comes from per-record costs, so it does not depend on the text size
    const rows = ns.map((cores) => run({ cores, textBytes: 16 * 1024 }));
    for (const r of rows) expect(r.correct).toBe(true);
    const t = rows.map((r) => r.timeNs as number);
    expect(t[1]!).toBeGreaterThan(t[0]! * 1.1);
    // 16 cores are at most 10% faster than 8 (here they are slower: more records queue at the server)
    expect(t[4]!).toBeGreaterThan(t[3]! * 0.9);
  });
});
