import { describe, expect, it } from 'vitest';
import type { Results } from '@manycore/engine';
import { SPAN_KINDS, dominantKind, dsmExtraOf, dsmRowOf, noticeMatrix, paperTable, timeline, type DsmExtra } from './dsm-views';

// Real values: `node scripts/dsm-run.mjs app=sor processors=4 --extra` (page runtime, cluster-1999,
// size small). Each lane keeps its first 3 spans and 3 time slices of the run's 256 and 119 (the
// rest cut here for size; kindPs, notices and messages are the run's own, whole).
const ROW4 = {"runtime": "page", "app": "sor", "processors": 4, "size": "small", "timeNs": 121652497, "messages": 156, "bytes": 254184, "overlappedRequests": 48, "rounds": 88, "readFaults": 48, "writeFaults": 2564, "writeNotices": 7692, "diffs": 2054, "twins": 2564, "memoryPerProcessorBytes": 3129264, "allocatedPerProcessorBytes": 540672, "correct": true, "check": "258 x 1023 grid bit-exact equal to the sequential run after 4 steps; checksum 136554.95706266316"};
const SOR4: DsmExtra = {"runtime": "page", "app": "sor", "size": "small", "processors": 4, "family": "cluster", "switchesOff": [], "spanKinds": ["compute", "fault", "lock", "barrier", "serve"], "spanCap": 256, "timeline": [{"proc": 0, "startPs": 0, "endPs": 121606000152, "spans": [{"kind": "fault", "startPs": 0, "endPs": 72659400}, {"kind": "compute", "startPs": 72659400, "endPs": 79485384}, {"kind": "fault", "startPs": 79485384, "endPs": 152144784}], "moreSpans": 1045, "kindPs": {"compute": 42882871284, "fault": 56679543240, "lock": 0, "barrier": 21355161144, "serve": 688424484}, "slicePs": 1024000000, "slices": [[81911808, 942088192, 0, 0, 0], [88737792, 935262208, 0, 0, 0], [88737792, 935262208, 0, 0, 0]]}, {"proc": 1, "startPs": 0, "endPs": 121590383258, "spans": [{"kind": "fault", "startPs": 0, "endPs": 72659400}, {"kind": "compute", "startPs": 72659400, "endPs": 79485384}, {"kind": "fault", "startPs": 79485384, "endPs": 152144784}], "moreSpans": 1041, "kindPs": {"compute": 42586374270, "fault": 65111885637, "lock": 0, "barrier": 13015930979, "serve": 876192372}, "slicePs": 1024000000, "slices": [[81911808, 942088192, 0, 0, 0], [88737792, 935262208, 0, 0, 0], [88737792, 935262208, 0, 0, 0]]}, {"proc": 2, "startPs": 0, "endPs": 121621440152, "spans": [{"kind": "fault", "startPs": 0, "endPs": 72659400}, {"kind": "compute", "startPs": 72659400, "endPs": 79485384}, {"kind": "fault", "startPs": 79485384, "endPs": 152144784}], "moreSpans": 1035, "kindPs": {"compute": 42431589750, "fault": 63739328469, "lock": 0, "barrier": 15221638157, "serve": 228883776}, "slicePs": 1024000000, "slices": [[81911808, 942088192, 0, 0, 0], [88737792, 935262208, 0, 0, 0], [88737792, 935262208, 0, 0, 0]]}, {"proc": 3, "startPs": 0, "endPs": 121652497046, "spans": [{"kind": "fault", "startPs": 0, "endPs": 72659400}, {"kind": "compute", "startPs": 72659400, "endPs": 79485384}, {"kind": "fault", "startPs": 79485384, "endPs": 152144784}], "moreSpans": 1043, "kindPs": {"compute": 42801369435, "fault": 55229454672, "lock": 0, "barrier": 22974364343, "serve": 647308596}, "slicePs": 1024000000, "slices": [[81911808, 942088192, 0, 0, 0], [88737792, 935262208, 0, 0, 0], [88737792, 935262208, 0, 0, 0]]}], "notices": [[0, 1924, 1924, 1922], [640, 0, 0, 0], [640, 0, 0, 0], [642, 0, 0, 0]], "messagesByType": [{"type": 4, "name": "barrier arrival", "messages": 30}, {"type": 5, "name": "barrier departure", "messages": 30}, {"type": 16, "name": "diff request", "messages": 48}, {"type": 17, "name": "diff reply", "messages": 48}]};
const results = (row: Record<string, unknown>, dsm: unknown) => ({ workload: { name: 'dsm', params: {}, rows: [row], dsm } }) as unknown as Pick<Results, 'workload'>;

describe('dsm views: shaping results.workload.dsm', () => {
  it('accepts the run\'s extra and row, and rejects other shapes', () => {
    expect(dsmExtraOf(results(ROW4, SOR4))).toBe(SOR4);
    expect(dsmExtraOf(results(ROW4, undefined))).toBeNull();
    expect(dsmExtraOf(null)).toBeNull();
    expect(dsmExtraOf(results(ROW4, { ...SOR4, notices: [[0, 1]] }))).toBeNull(); // not square
    expect(dsmExtraOf(results(ROW4, { ...SOR4, timeline: [{ ...SOR4.timeline[0]!, spans: [{ kind: 'sleep', startPs: 0, endPs: 1 }] }] }))).toBeNull();
    const row = dsmRowOf(results(ROW4, SOR4))!;
    expect([row.timeNs, row.messages, row.writeNotices, row.correct, row.paper]).toEqual([121652497, 156, 7692, true, undefined]);
    expect(dsmRowOf(results({ timeNs: 5 }, SOR4))).toBeNull();
  });

  it('timeline: one lane per processor with its shares; sliced when the spans overflow', () => {
    const t = timeline(SOR4);
    expect(t.lanes.map((l) => l.proc)).toEqual([0, 1, 2, 3]);
    expect(t.exact).toBe(false); // 1045 spans of P0 were not recorded
    expect(t.endPs).toBe(121652497046); // P3's end = the row's timeNs x 1000 (rounded to ps)
    const p0 = t.lanes[0]!;
    expect(p0.shares.fault).toBeCloseTo(56679543240 / 121606000152, 12);
    expect(p0.shares.barrier).toBeCloseTo(21355161144 / 121606000152, 12);
    expect(p0.shares.lock).toBe(0); // SOR takes no lock
    for (const l of t.lanes) expect(SPAN_KINDS.reduce((a, k) => a + l.shares[k], 0)).toBeCloseTo(1, 9);
    const all = SOR4.timeline.reduce((a, l) => a + SPAN_KINDS.reduce((b, k) => b + l.kindPs[k], 0), 0);
    expect(t.totals.compute).toBeCloseTo(SOR4.timeline.reduce((a, l) => a + l.kindPs.compute, 0) / all, 12);
    expect(dominantKind(p0.slices[0]!)).toBe('fault'); // the first 1.024 ms slice: initialisation's write faults (twins)
    expect(dominantKind([0, 0, 0, 0, 0])).toBeNull();
    const exact = timeline({ ...SOR4, timeline: SOR4.timeline.map((l) => ({ ...l, moreSpans: 0 })) });
    expect(exact.exact).toBe(true);
  });

  it('notice matrix: barrier traffic through the manager P0, summing to the row\'s write notices', () => {
    const m = noticeMatrix(SOR4);
    expect(m.total).toBe(ROW4.writeNotices);
    expect(m.sent).toEqual([5770, 640, 640, 642]);
    expect(m.received).toEqual([1922, 1924, 1924, 1922]);
    expect(m.max).toBe(1924);
    expect(SOR4.messagesByType.reduce((a, b) => a + b.messages, 0)).toBe(ROW4.messages);
  });

  it('Table 3/4 shape without the paper at 4 processors: the lab\'s values only', () => {
    const t = paperTable(dsmRowOf(results(ROW4, SOR4))!, SOR4);
    expect(t.table).toBeNull();
    expect(t.column).toBe('TreadMarks (page) · sor/small · 4 processors');
    expect(t.rows.slice(0, 5).map((r) => [r.metric, r.lab, r.paper, r.ratio])).toEqual([
      ['time', 0.121652497, null, null],
      ['data', 0.254184, null, null],
      ['messages', 156, null, null],
      ['overlapped requests', 48, null, null],
      ['memory per processor (object memory alloc.)', 0.540672, null, null],
    ]);
    expect(t.rows.find((r) => r.metric === 'write faults')!.lab).toBe(2564);
    expect(t.ablation).toEqual([]);
    expect(paperTable(dsmRowOf(results(ROW4, SOR4))!, { ...SOR4, runtime: 'object', switchesOff: ['readAggregation', 'writeNoticeReduction'] }).ablation).toEqual(['no read aggregation', 'no write-notice reduction']);
  });

  it('Table 4 beside the lab at 32 processors on paper-sm: the paper\'s value and the ratio from the row', () => {
    // real row: `node scripts/dsm-run.mjs app=sor processors=32 size=paper-sm` (page runtime)
    const ROW32 = {"runtime": "page", "app": "sor", "processors": 32, "size": "paper-sm", "timeNs": 4763462897, "messages": 12524, "bytes": 58766628, "overlappedRequests": 4960, "rounds": 6304, "readFaults": 4960, "writeFaults": 257720, "writeNotices": 7989320, "diffs": 245564, "twins": 257720, "memoryPerProcessorBytes": 34474597, "allocatedPerProcessorBytes": 1603584, "correct": true, "check": "3070 x 2047 grid bit-exact equal to the sequential run after 20 steps; checksum 3200651.729214315", "paperTable": "Table 4", "paperTimeNs": 1100000000, "timeRatio": 4.33, "paperMessages": 12564, "messagesRatio": 0.997, "paperBytes": 23600000, "bytesRatio": 2.49, "paperOverlappedRequests": 4962, "overlappedRequestsRatio": 1, "paperMemoryPerProcessorBytes": 1640000, "memoryRatio": 0.978};
    const row = dsmRowOf(results(ROW32, SOR4))!;
    expect(row.paper!.table).toBe('Table 4');
    const t = paperTable(row, { ...SOR4, processors: 32, size: 'paper-sm' });
    expect(t.table).toBe('Table 4');
    expect(t.column).toBe('TreadMarks (page) · sor/paper-sm · 32 processors');
    expect(t.rows.slice(0, 5).map((r) => [r.metric, r.lab, r.paper, r.ratio])).toEqual([
      ['time', 4.763462897, 1.1, 4.33],
      ['data', 58.766628, 23.6, 2.49],
      ['messages', 12524, 12564, 0.997],
      ['overlapped requests', 4960, 4962, 1],
      ['memory per processor (object memory alloc.)', 1.603584, 1.64, 0.978],
    ]);
    expect(t.rows.slice(5).every((r) => r.paper === null && r.ratio === null)).toBe(true); // Table 4 lists no faults, notices, diffs
  });
});
