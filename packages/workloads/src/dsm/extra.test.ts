import { describe, expect, it } from 'vitest';
import { digestOf, Simulation, type Results } from '@manycore/engine';
import { workloads } from '../index';
import type { DsmExtra } from './extra';

const run = (params: Record<string, unknown>): Results => new Simulation({ version: 1, chip: { preset: 'cluster-1999' }, workload: { name: 'dsm', params }, seed: 1 }, workloads).runInline();

/** Every processor's spans ordered and contiguous from its start; kinds and slices cover its timed part. */
function checkTimeline(x: DsmExtra, timeNs: number): void {
  for (const t of x.timeline) {
    expect(t.spans[0]!.startPs).toBe(t.startPs);
    for (let i = 1; i < t.spans.length; i++) {
      expect(t.spans[i]!.startPs).toBe(t.spans[i - 1]!.endPs);
      expect(t.spans[i]!.endPs).toBeGreaterThan(t.spans[i]!.startPs);
      if (t.spans[i]!.kind === t.spans[i - 1]!.kind) throw new Error(`processor ${t.proc}: spans ${i - 1} and ${i} both ${t.spans[i]!.kind}: not merged`);
    }
    if (t.moreSpans === 0) expect(t.spans.at(-1)!.endPs).toBe(t.endPs);
    const dur = t.endPs - t.startPs;
    expect(Math.abs(Object.values(t.kindPs).reduce((a, b) => a + b, 0) - dur)).toBeLessThanOrEqual(5); // 5 kinds rounded to ps
    expect(Math.abs(t.slices.flat().reduce((a, b) => a + b, 0) - dur)).toBeLessThanOrEqual(t.slices.length * 5);
  }
  expect(Math.abs(Math.max(...x.timeline.map((t) => t.endPs)) / 1000 - timeNs)).toBeLessThanOrEqual(1);
}

describe('results.workload.dsm (extra.ts): the DSM views\' data', () => {
  it('SOR on 8 processors: the rows keep their digest; spans cover each processor; notices and messages sum to the row', () => {
    const r = run({});
    const { dsm, ...rest } = r.workload as Results['workload'] & { dsm: DsmExtra };
    // the digest of the results without the extra is the one the run had before the recording (workload.test.ts golden)
    // 9101ce280ce45d4a before the page runtime kept written pages read-write with their twins across intervals and merged its invalidation mprotects (page.ts: TreadMarks 1998); 6f7f598540a0c589 before interval records took TreadMarks' encoding (lrc.ts: bytes and time only); f52db66b6372eb46 before SOR's check became each processor's own rows (no check traffic; same row)
    expect(digestOf({ simulated: r.simulated, series: r.series, workload: rest })).toBe('66aeb6cda97f5c50');
    const row = r.workload.rows[0]!;
    expect(dsm.timeline.map((t) => t.proc)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    checkTimeline(dsm, row.timeNs as number);
    expect(dsm.timeline.every((t) => t.kindPs.barrier > 0 && t.kindPs.fault > 0 && t.kindPs.lock === 0)).toBe(true); // SOR takes no lock
    expect(dsm.notices.flat().reduce((a, b) => a + b, 0)).toBe(row.writeNotices);
    expect(dsm.notices.map((n, s) => n[s])).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    // the barrier manager (0) sends departures to all; the others send their own intervals to it at arrival
    expect(dsm.notices.slice(1).every((n) => n.slice(1).every((v) => v === 0) && n[0]! > 0)).toBe(true);
    expect(dsm.messagesByType.map((m) => m.name)).toEqual(['barrier arrival', 'barrier departure', 'diff request', 'diff reply']);
    expect(dsm.messagesByType.reduce((a, m) => a + m.messages, 0)).toBe(row.messages);
    expect(dsm.messagesByType[2]!.messages).toBe(row.overlappedRequests); // one writer per boundary page: one request per fault
    expect(dsm.switchesOff).toEqual([]);
  });

  it('object runtime without write aggregation: names the switch, waits for locks, counts object messages', () => {
    const r = run({ app: 'water-nsq', runtime: 'object', processors: 4, writeAggregation: false });
    const x = (r.workload as unknown as { dsm: DsmExtra }).dsm;
    const row = r.workload.rows[0]!;
    expect(x.switchesOff).toEqual(['writeAggregation']);
    checkTimeline(x, row.timeNs as number);
    expect(x.timeline.some((t) => t.kindPs.lock > 0)).toBe(true);
    expect(x.timeline.some((t) => t.spans.some((s) => s.kind === 'lock'))).toBe(true);
    expect(x.notices.flat().reduce((a, b) => a + b, 0)).toBe(row.writeNotices);
    const by = Object.fromEntries(x.messagesByType.map((m) => [m.name, m.messages]));
    expect(by['object request']).toBe(by['object reply']);
    expect(x.messagesByType.reduce((a, m) => a + m.messages, 0)).toBe(row.messages);
  });
});
