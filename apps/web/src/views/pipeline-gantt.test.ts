import { describe, expect, it } from 'vitest';
import { resolveChip } from '@manycore/engine';
import { stageCores } from '@manycore/workloads';
import { chipGeometry } from '../charts/chip-draw';
import { SvgPainter } from '../charts/painter';
import { drawPipelineMesh, meshGeometry } from './pipeline-draw';
import {
  LiveGantt,
  SEG,
  SegmentList,
  pipelineResults,
  pipelineStart,
  queueOccupancy,
  segmentTotals,
  spanSegments,
  stageOffsets,
  stepsOf,
  throughputCurve,
  transfers,
  type ChunkSpan,
} from './pipeline-gantt';

const span = (chunk: number, waitNs: number, inputNs: number, workNs: number, doneNs: number): ChunkSpan => ({ chunk, waitNs, inputNs, workNs, doneNs });

// A 2-stage pipeline of 3 chunks; stage 0 starts at 500 ns (after its set-up), stage 1 too.
const s0 = [span(0, 0, 0, 100, 110), span(1, 110, 110, 210, 230), span(2, 230, 230, 330, 340)];
const s1 = [span(0, 0, 110, 200, 200), span(1, 200, 230, 320, 320), span(2, 320, 340, 430, 430)];
const workload = {
  rows: [{ mode: 'private', order: 'id', stages: 2, dataBytes: 2500, chunkBytes: 1000, tokenBytes: 32, timeNs: 430, throughputMBps: (2500 / 430) * 1000, flushesPerCore: 0 }],
  stageHops: { total: 0, max: 0 },
  stages: [
    { stage: 0, core: 0, x: 0, y: 0, bufferController: -1, busyNs: 300, waitNs: 0, flushes: 0, flushNs: 0, endNs: 840, spans: s0 },
    { stage: 1, core: 1, x: 0, y: 0, bufferController: -1, busyNs: 280, waitNs: 150, flushes: 0, flushNs: 0, endNs: 930, spans: s1 },
  ],
};

describe('pipeline results', () => {
  it('reads the stages and the row, and rejects other workloads', () => {
    const r = pipelineResults(workload)!;
    expect(r.stages).toHaveLength(2);
    expect(r.row.chunkBytes).toBe(1000);
    expect(r.stageHops).toEqual({ total: 0, max: 0 });
    expect(pipelineResults({ rows: [{ workers: 4, stepNs: 3 }] })).toBeNull();
    expect(pipelineResults(null)).toBeNull();
  });

  it('puts each stage on the run axis from its end and last handover', () => {
    const r = pipelineResults(workload)!;
    // 840 - 340 and 930 - 430
    expect(stageOffsets(r)).toEqual([500, 500]);
    expect(pipelineStart(stageOffsets(r))).toBe(500);
  });

  it('falls back to the common start when spans were cut short', () => {
    const r = pipelineResults({ ...workload, stages: [{ ...workload.stages[0]!, spans: s0.slice(0, 2) }, workload.stages[1]!] })!;
    // latest end 930 minus the pipeline time 430; stage 1 still from its own spans
    expect(stageOffsets(r)).toEqual([500, 500]);
  });
});

describe('Gantt segments from spans', () => {
  it('splits each chunk into input, work and hand-over, dropping empty parts', () => {
    const segs = spanSegments(s0, 500);
    // stage 0 never waits for input: 3 work + 3 hand-overs
    expect(segs.map((s) => s.kind)).toEqual([SEG.work, SEG.handover, SEG.work, SEG.handover, SEG.work, SEG.handover]);
    expect(segs[0]).toEqual({ start: 500, end: 600, kind: SEG.work });
    expect(segs[3]).toEqual({ start: 710, end: 730, kind: SEG.handover });
    const segs1 = spanSegments(s1, 500);
    expect(segs1.filter((s) => s.kind === SEG.input)).toHaveLength(3);
    expect(segs1.filter((s) => s.kind === SEG.handover)).toHaveLength(0);
    const t = segmentTotals(segs1);
    expect(t[SEG.input]).toBe(110 + 30 + 20);
    expect(t[SEG.work]).toBe(90 + 90 + 90);
  });
});

describe('live Gantt from counters', () => {
  it('splits each frame by the counter deltas and merges continuing segments', () => {
    const g = new LiveGantt(1);
    // first frame: 100 ns of set-up, all waiting at the barrier
    expect(g.sample(0, { clockNs: 100, busyNs: 0, stallNs: 0, waitNs: 100, flushNs: 0 }, false)).toBe(true);
    // next frame: 40 ns more waiting, then 50 busy + 10 memory stall
    g.sample(0, { clockNs: 200, busyNs: 50, stallNs: 10, waitNs: 140, flushNs: 0 }, false);
    const segs = g.rows[0]!.toSegments();
    expect(segs).toEqual([
      { start: 0, end: 140, kind: SEG.wait },
      { start: 140, end: 200, kind: SEG.work },
    ]);
    // the clock did not move (a torn read): nothing is added and the deltas are kept
    expect(g.sample(0, { clockNs: 200, busyNs: 70, stallNs: 10, waitNs: 140, flushNs: 0 }, true)).toBe(false);
    expect(g.pendingFrom[0]).toBe(200);
    g.sample(0, { clockNs: 300, busyNs: 150, stallNs: 10, waitNs: 140, flushNs: 0 }, false);
    expect(g.rows[0]!.toSegments()).toEqual([
      { start: 0, end: 140, kind: SEG.wait },
      { start: 140, end: 300, kind: SEG.work },
    ]);
    expect(Number.isNaN(g.pendingFrom[0])).toBe(true);
    expect(g.endNs()).toBe(300);
  });

  it('scales the parts to the clock when the counters ran ahead', () => {
    const g = new LiveGantt(1);
    g.sample(0, { clockNs: 100, busyNs: 100, stallNs: 0, waitNs: 100, flushNs: 0 }, false);
    expect(g.rows[0]!.toSegments()).toEqual([
      { start: 0, end: 50, kind: SEG.wait },
      { start: 50, end: 100, kind: SEG.work },
    ]);
  });

  it('compacts a long row by merging neighbours', () => {
    const l = new SegmentList();
    for (let i = 0; i < 8; i++) {
      l.push(i * 10, i * 10 + (i % 2 ? 3 : 7), SEG.work);
      l.push(i * 10 + (i % 2 ? 3 : 7), i * 10 + 10, SEG.wait);
    }
    expect(l.length).toBe(16);
    l.compact();
    // pairs (work 7, wait 3) -> work, (work 3, wait 7) -> wait, alternating
    expect(l.length).toBe(8);
    expect(l.kinds).toEqual([SEG.work, SEG.wait, SEG.work, SEG.wait, SEG.work, SEG.wait, SEG.work, SEG.wait]);
    expect(l.starts[0]).toBe(0);
    expect(l.ends[7]).toBe(80);
  });
});

describe('queue occupancy', () => {
  it('counts chunks produced but not yet taken', () => {
    const q = queueOccupancy(s0, 500, s1, 500, 'ready');
    // chunk 0: 600 -> 610, chunk 1: 710 -> 730, chunk 2: 830 -> 840
    expect(q.max).toBe(1);
    expect(q.xs).toEqual([600, 610, 610, 710, 710, 730, 730, 830, 830, 840, 840]);
    expect(q.ys).toEqual([1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0]);
    // occupied 10 + 20 + 10 ns of 240
    expect(q.mean).toBeCloseTo(40 / 240, 10);
  });

  it('counts buffer slots held from writing to the next stage finishing', () => {
    const q = queueOccupancy(s0, 500, s1, 500, 'held');
    // chunk 0: 500 -> 700, chunk 1: 610 -> 820, chunk 2: 730 -> 930: up to 2 at a time
    expect(q.max).toBe(2);
    expect(q.xs[0]).toBe(500);
    expect(q.xs[q.xs.length - 1]).toBe(930);
  });

  it('applies events at the same time together', () => {
    const q = stepsOf([
      [0, 1],
      [5, -1],
      [5, 1],
      [10, -1],
    ]);
    expect(q.max).toBe(1);
    expect(q.ys).toEqual([1, 1, 1, 1, 0]);
    expect(q.mean).toBe(1);
  });
});

describe('throughput curve', () => {
  it('gives cumulative and per-chunk MB/s of the last stage, the last chunk shorter', () => {
    const c = throughputCurve(s1, 500, 500, 1000, 2500);
    expect(c.xs).toEqual([700, 820, 930]);
    expect(c.bytes).toEqual([1000, 2000, 2500]);
    // 1000 B in 200 ns = 5 B/ns = 5000 MB/s
    expect(c.cumulativeMBps[0]).toBeCloseTo(5000, 9);
    expect(c.cumulativeMBps[2]).toBeCloseTo((2500 / 430) * 1000, 9);
    expect(c.perChunkMBps[1]).toBeCloseTo((1000 / 120) * 1000, 9);
    expect(c.perChunkMBps[2]).toBeCloseTo((500 / 110) * 1000, 9);
  });
});

describe('transfers on the SCC mesh', () => {
  const chip = resolveChip('scc', {});
  it('id order: 11 -> 12 crosses the mesh (6 hops)', () => {
    const cores = stageCores(chip, 14, 'id');
    const t = transfers(chip, cores);
    expect(t).toHaveLength(13);
    expect(t[0]!.hops).toBe(0);
    expect(t[0]!.links).toEqual([]);
    expect(t[1]!.hops).toBe(1);
    expect(t[11]).toMatchObject({ fromCore: 11, toCore: 12, hops: 6 });
    expect(t[11]!.links).toHaveLength(6);
    expect(t[11]!.back).toHaveLength(6);
  });
  it('snake order: never more than one hop', () => {
    const t = transfers(chip, stageCores(chip, 48, 'snake'));
    expect(Math.max(...t.map((x) => x.hops))).toBe(1);
    expect(t.reduce((a, x) => a + x.hops, 0)).toBe(23);
  });
});

describe('drawing the stages on the mesh', () => {
  const chip = resolveChip('scc', {});
  it('puts every stage on its core of the chip view floorplan and badges the long transfers', () => {
    const cores = stageCores(chip, 14, 'id');
    const g = meshGeometry(chip);
    const floor = chipGeometry(chip);
    expect(g.width).toBe(floor.width);
    for (const c of cores) expect(g.core(c)).toEqual(floor.cores[c]);
    expect(g.controller(1)).toEqual(floor.controllers[1]!.rect);
    const p = new SvgPainter(g.width, g.height);
    const ts = transfers(chip, cores);
    drawPipelineMesh(p, g, { chip, cores, transfers: ts, buffers: [], traffic: () => null, linkMax: 0, trafficTitle: 'flits/µs' });
    const svg = p.toString();
    for (let s = 0; s < cores.length; s++) expect(svg).toContain(`>S${s}<`);
    expect(svg).toContain('>6<'); // the 11 -> 12 transfer's hop badge
    expect(svg).not.toContain('buf '); // private mode: no buffers on the controllers
  });
});
