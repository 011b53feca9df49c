/**
 * Views of the pipeline workload (scc.md section 7): the stage timeline (a Gantt of each
 * stage's waiting, working and handing over; live from the cores' counters while the run goes,
 * exact from the chunk spans the workload reports when it is done), the stages on the mesh
 * with their transfers (hops, link traffic, the controllers of the shared buffers), the queue
 * occupancy between stages and the throughput. Live parts draw from the frame loop.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { C, CORE_SLOTS, CORE_STATE_NAMES, type PreparedRun, type ResolvedChip } from '@manycore/engine';
import { stageBuffers, stageCores, type PipelineMode, type PipelineOrder, type PipelinePlacement } from '@manycore/workloads';
import { CATEGORY, drawLineChart, type LineSeries } from '../charts/draw';
import { CanvasCard } from '../components/CanvasCard';
import { bytes, num, pct, simTime } from '../lib/format';
import { frameLoop } from '../sim/frame-loop';
import { linkMax } from '../sim/metrics';
import type { Telemetry } from '../sim/telemetry';
import { drawGantt, drawPipelineMesh, ganttHeight, meshGeometry, type GanttRow, type MeshFrame } from './pipeline-draw';
import {
  LiveGantt,
  SEG,
  pipelineResults,
  pipelineStart,
  queueOccupancy,
  segmentTotals,
  spanSegments,
  stageOffsets,
  throughputCurve,
  transfers,
  type PipelineResults,
  type QueueKind,
  type SegKind,
  type Transfer,
} from './pipeline-gantt';
import type { WorkloadView, WorkloadViewProps } from './WorkloadViews';

interface Plan {
  chip: ResolvedChip;
  mode: PipelineMode;
  cores: number[];
  buffers: number[];
  transfers: Transfer[];
  chunkBytes: number;
  tokenBytes: number;
  dataBytes: number;
}

function planOf(prepared: PreparedRun): Plan {
  const p = prepared.params as { mode: PipelineMode; order: PipelineOrder; stages: number; chunkBytes: number; tokenBytes: number; dataBytes: number; slots: number; placement: PipelinePlacement };
  const chip = prepared.chip;
  const cores = stageCores(chip, p.stages, p.order);
  const buffers = p.mode === 'private' ? [] : stageBuffers(chip, cores, p);
  return { chip, mode: p.mode, cores, buffers, transfers: transfers(chip, cores), chunkBytes: p.chunkBytes, tokenBytes: p.tokenBytes, dataBytes: p.dataBytes };
}

function usePlan(prepared: PreparedRun): Plan {
  return useMemo(() => planOf(prepared), [prepared]);
}

function useResults(props: WorkloadViewProps): { res: PipelineResults; offsets: number[]; start: number } | null {
  const { results } = props;
  return useMemo(() => {
    if (!results || results.workload.name !== 'pipeline') return null;
    const res = pipelineResults(results.workload);
    if (!res) return null;
    const offsets = stageOffsets(res);
    return { res, offsets, start: pipelineStart(offsets) };
  }, [results]);
}

const MEMORY_STALLS = [C.stallL1MissPs, C.stallL2MissPs, C.stallDramPs, C.stallMpbPs, C.stallNetworkPs];
const BLOCKED = CORE_STATE_NAMES.indexOf('blocked');

function setData(el: HTMLElement | null, attrs: Record<string, string | number>): void {
  if (!el) return;
  for (const [k, v] of Object.entries(attrs)) {
    const s = String(v);
    if (el.getAttribute(`data-${k}`) !== s) el.setAttribute(`data-${k}`, s);
  }
}

// ------------------------------------------------------------------ stage timeline

type Source = 'spans' | 'live';

export function PipelineTimeline(props: WorkloadViewProps) {
  const { run, results } = props;
  const plan = usePlan(props.prepared);
  const done = useResults(props);
  // a new live record for every run
  const live = useMemo(() => new LiveGantt(plan.cores.length), [run, plan]);
  const liveVersion = useRef(0);
  const [choice, setChoice] = useState<Source | null>(null);
  const source: Source = choice === 'live' || !done ? 'live' : 'spans';
  const box = useRef<HTMLDivElement>(null);

  const spanRows = useMemo<GanttRow[] | null>(() => {
    if (!done) return null;
    return done.res.stages.map((st, i) => {
      const segs = spanSegments(st.spans, done.offsets[i]!);
      return { label: `S${st.stage} · core ${st.core}`, starts: segs.map((s) => s.start), ends: segs.map((s) => s.end), kinds: segs.map((s) => s.kind) };
    });
  }, [done]);

  const latest = useRef({ source, spanRows, live });
  latest.current = { source, spanRows, live };

  // live: sample the stage cores' counters each frame (after the telemetry update at order 0)
  useEffect(() => {
    if (!run) return;
    return frameLoop.add(() => {
      if (run.status === 'ready') return;
      const v = run.telemetry.views.core;
      let changed = false;
      plan.cores.forEach((core, s) => {
        const b = core * CORE_SLOTS;
        let stall = 0;
        for (const k of MEMORY_STALLS) stall += v[b + k]!;
        const sample = { clockNs: v[b + C.clockPs]! / 1000, busyNs: v[b + C.busyPs]! / 1000, stallNs: stall / 1000, waitNs: v[b + C.stallWaitPs]! / 1000, flushNs: v[b + C.stallFlushPs]! / 1000 };
        if (live.sample(s, sample, v[b + C.state] === BLOCKED)) changed = true;
      });
      if (changed) liveVersion.current++;
    }, 0.5);
  }, [run, live, plan]);

  // counts for tests and tools, on the view's element (no React render per frame)
  useEffect(
    () =>
      frameLoop.add(() => {
        const l = latest.current;
        let busy = 0;
        let rowsBusy = 0;
        let segs = 0;
        if (l.source === 'spans' && l.spanRows) {
          for (const r of l.spanRows) {
            let n = 0;
            for (let j = 0; j < r.kinds.length; j++) if (r.kinds[j] === SEG.work) n++;
            busy += n;
            segs += r.kinds.length;
            if (n > 0) rowsBusy++;
          }
        } else
          for (const r of l.live.rows) {
            const n = r.count(SEG.work);
            busy += n;
            segs += r.length;
            if (n > 0) rowsBusy++;
          }
        setData(box.current, { source: l.source, rows: l.source === 'spans' && l.spanRows ? l.spanRows.length : l.live.rows.length, segments: segs, 'busy-segments': busy, 'rows-with-busy': rowsBusy });
      }, 50),
    [],
  );

  const telemetry = run && run.status !== 'ready' ? run.telemetry : null;
  const draw = (p: Parameters<typeof drawGantt>[0]) => {
    const l = latest.current;
    if (l.source === 'spans' && l.spanRows && results) {
      drawGantt(p, { rows: l.spanRows, legend: [SEG.input, SEG.work, SEG.handover], xMaxNs: results.simulated.endTimeNs, setupNs: done?.start ?? 0 });
      return;
    }
    const rows: GanttRow[] = l.live.rows.map((r, i) => ({
      label: `S${i} · core ${plan.cores[i]}`,
      starts: r.starts,
      ends: r.ends,
      kinds: r.kinds,
      pendingFrom: l.live.pendingFrom[i]!,
    }));
    const now = telemetry ? telemetry.simNs : 0;
    drawGantt(p, {
      rows,
      legend: [SEG.wait, SEG.work, SEG.flush] as SegKind[],
      xMaxNs: Math.max(now, l.live.endNs()),
      ...(telemetry && run?.active ? { nowNs: now } : {}),
      empty: run ? 'waiting for the first epochs…' : 'Run the experiment: the timeline builds up live from the stage cores’ counters',
    });
  };

  const totals = useMemo(() => {
    if (!done || !spanRows) return null;
    return done.res.stages.map((st, i) => {
      const r = spanRows[i]!;
      const t = segmentTotals(Array.from(r.kinds, (kind, j) => ({ start: r.starts[j]!, end: r.ends[j]!, kind })));
      const span = t[SEG.input] + t[SEG.work] + t[SEG.handover];
      return { st, t, span };
    });
  }, [done, spanRows]);

  const subtitle =
    source === 'spans'
      ? 'Per chunk, from the spans each stage reports: waiting for its input (RCCE receive, in private mode with the copy), working on it (in cached-shared mode between two cache flushes), handing it over (synchronous send: waits for the next stage). Grey: set-up before the start barrier.'
      : 'Live from each stage core’s counters, frame by frame: time blocked on a flag (RCCE receive or synchronous send), working (busy + memory stalls), engine flushes. The parts of a frame are exact in total, drawn in that order. The chunk spans replace it when the run ends.';

  return (
    <div ref={box} data-testid="pipeline-gantt" style={{ marginBottom: '1rem' }}>
      <CanvasCard
        id="pipeline-timeline"
        title="Stage timeline"
        subtitle={subtitle}
        height={ganttHeight(plan.cores.length)}
        draw={draw}
        version={() => `${source}|${liveVersion.current}|${telemetry?.version ?? -1}|${done ? 1 : 0}|${plan.cores.length}`}
        toolbar={
          done ? (
            <label className="inline">
              from{' '}
              <select value={source} onChange={(e) => setChoice(e.target.value as Source)} data-testid="pipeline-gantt-source">
                <option value="spans">chunk spans</option>
                <option value="live">live counters</option>
              </select>
            </label>
          ) : null
        }
      />
      {totals ? (
        <details className="card" style={{ marginTop: '0.5rem' }}>
          <summary>Per stage: busy, waiting, flushes</summary>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Stage table">
            <table className="rows" data-testid="pipeline-stage-table">
              <thead>
                <tr>
                  {['stage', 'core', 'waiting for input', 'working', 'handing over', 'flushes', 'flush time', 'busy (counter)', 'wait (counter)'].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {totals.map(({ st, t, span }) => (
                  <tr key={st.stage}>
                    <td>{st.stage}</td>
                    <td>{st.core}</td>
                    <td>{span > 0 ? pct(t[SEG.input] / span) : '–'}</td>
                    <td>{span > 0 ? pct(t[SEG.work] / span) : '–'}</td>
                    <td>{span > 0 ? pct(t[SEG.handover] / span) : '–'}</td>
                    <td>{st.flushes}</td>
                    <td>{simTime(st.flushNs)}</td>
                    <td>{simTime(st.busyNs)}</td>
                    <td>{simTime(st.waitNs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </div>
  );
}

// ------------------------------------------------------------------ mesh

export function PipelineMesh(props: WorkloadViewProps) {
  const { run } = props;
  const plan = usePlan(props.prepared);
  const geo = useMemo(() => meshGeometry(plan.chip), [plan]);
  const runRef = useRef(run);
  runRef.current = run;
  const telemetryOf = (): Telemetry | null => {
    const r = runRef.current;
    return r && r.status !== 'ready' ? r.telemetry : null;
  };
  const frame = (): MeshFrame => {
    const t = telemetryOf();
    const recent = !!runRef.current?.active;
    const rate = (id: number) => (t ? (recent ? t.linkRecent[id]! : t.linkRun(id)) : 0);
    return {
      chip: plan.chip,
      cores: plan.cores,
      transfers: plan.transfers,
      buffers: plan.buffers,
      traffic: (x) => {
        if (!t || x.links.length === 0) return null;
        let m = 0;
        for (const id of x.links) m = Math.max(m, rate(id));
        for (const id of x.back) m = Math.max(m, rate(id));
        return m;
      },
      linkMax: t ? linkMax(t, recent ? 'recent' : 'run') : 0,
      trafficTitle: `Route traffic: busiest link, flits per µs (${recent ? 'recent' : 'whole run'})`,
    };
  };
  const hops = plan.transfers.map((x) => x.hops);
  const total = hops.reduce((a, h) => a + h, 0);
  const longest = hops.length ? Math.max(...hops) : 0;
  const shared = plan.mode !== 'private';
  const what = shared
    ? `Each arrow carries a ${bytes(plan.tokenBytes)} token through the MPBs (RCCE), and the last stage returns it to the first; the ${bytes(plan.chunkBytes)} chunk stays in its slot of a queue in shared DRAM (its controller in green), where every stage adds 1 to it in place.`
    : `Each arrow carries the ${bytes(plan.chunkBytes)} chunks by RCCE (8160 B pieces through the MPBs), from one private memory to the next.`;
  return (
    <div data-testid="pipeline-mesh" data-transfers={plan.transfers.length} data-total-hops={total} data-max-hops={longest} style={{ marginBottom: '1rem' }}>
      <CanvasCard
        id="pipeline-mesh"
        title="Stages on the mesh: token and chunk movement"
        subtitle={`${what} Hops between consecutive stages: ${total} in all, the longest ${longest}.`}
        world={{ w: geo.width, h: geo.height }}
        maxHeight={760}
        draw={(p) => drawPipelineMesh(p, geo, frame())}
        version={() => `${telemetryOf()?.version ?? -1}|${runRef.current?.active ? 1 : 0}`}
      />
      {plan.transfers.length <= 16 ? (
        <details className="card" style={{ marginTop: '0.5rem' }}>
          <summary>Transfers per chunk</summary>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Transfer table">
            <table className="rows" data-testid="pipeline-transfer-table">
              <thead>
                <tr>
                  {['from', 'to', 'cores', 'hops', 'through the MPBs', 'through DRAM'].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {plan.transfers.map((x) => (
                  <tr key={x.from}>
                    <td>stage {x.from}</td>
                    <td>stage {x.to}</td>
                    <td>
                      {x.fromCore} → {x.toCore}
                    </td>
                    <td>{x.hops}</td>
                    <td>{bytes(shared ? plan.tokenBytes : plan.chunkBytes)}</td>
                    <td>{shared ? `${bytes(plan.chunkBytes)} in place, ${(plan.buffers[x.from] ?? -1) >= 0 ? `on MC${plan.buffers[x.from]}` : 'slots on several controllers'}` : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </div>
  );
}

// ------------------------------------------------------------------ queues and throughput

const AFTER_RUN = 'after the run: derived from the stages’ chunk spans';

export function PipelineQueues(props: WorkloadViewProps) {
  const plan = usePlan(props.prepared);
  const done = useResults(props);
  const [kind, setKind] = useState<QueueKind>('ready');
  const data = useMemo(() => {
    if (!done) return null;
    const st = done.res.stages;
    const qs = st.slice(0, -1).map((a, i) => ({ from: i, q: queueOccupancy(a.spans, done.offsets[i]!, st[i + 1]!.spans, done.offsets[i + 1]!, kind) }));
    let series: LineSeries[];
    if (qs.length <= CATEGORY.length) series = qs.map(({ from, q }, i) => ({ label: `S${from}→S${from + 1}`, color: CATEGORY[i]!, xs: q.xs, ys: q.ys }));
    else {
      // many stages: the sum over all queues
      const ev: [number, number][] = [];
      for (const { q } of qs) {
        for (let j = 0; j < q.xs.length; j++) {
          const prev = j > 0 ? q.ys[j - 1]! : 0;
          if (q.ys[j] !== prev) ev.push([q.xs[j]!, q.ys[j]! - prev]);
        }
      }
      ev.sort((a, b) => a[0] - b[0]);
      const xs: number[] = [];
      const ys: number[] = [];
      let v = 0;
      for (const [t, d] of ev) {
        xs.push(t);
        ys.push(v);
        v += d;
        xs.push(t);
        ys.push(v);
      }
      series = [{ label: `all ${qs.length} queues`, color: CATEGORY[0]!, xs, ys }];
    }
    let shownMax = 0;
    for (const x of series) for (let i = 0; i < x.ys.length; i++) shownMax = Math.max(shownMax, x.ys[i]!);
    return { qs, series, shownMax };
  }, [done, kind]);
  const maxQ = data ? Math.max(0, ...data.qs.map((x) => x.q.max)) : 0;
  const endNs = props.results?.simulated.endTimeNs ?? 0;
  return (
    <div data-testid="pipeline-queues" data-queues={data?.qs.length ?? 0} data-max-occupancy={maxQ} style={{ marginBottom: '1rem' }}>
      <CanvasCard
        id="pipeline-queues"
        title="Queue occupancy between stages"
        subtitle={
          (data && data.qs.length > CATEGORY.length ? `Summed over all ${data.qs.length} queues. ` : '') +
          (kind === 'ready'
            ? `Chunks a stage has finished that the next stage has not yet taken${data ? ` (at most ${maxQ}; mean per queue ${data.qs.map((x) => num(x.q.mean, 2)).join(', ')})` : ''}. RCCE sends are synchronous, so a finished chunk waits until the next stage is ready.`
            : `Chunks from the moment a stage starts writing them until the next stage has finished reading them (${plan.mode === 'private' ? 'its receive buffer' : 'the two slots of the shared output buffer'})${data ? `; at most ${maxQ} per queue` : ''}.`)
        }
        height={260}
        draw={(p) =>
          drawLineChart(p, {
            series: data?.series ?? [],
            yLabel: 'chunks',
            xMaxNs: endNs,
            yMax: Math.max(2, data?.shownMax ?? 0),
            markers: done ? [{ x: done.start, label: 'start' }] : [],
            empty: AFTER_RUN,
            yFormat: (v) => (Number.isInteger(v) ? String(v) : ''),
          })
        }
        version={() => `${kind}|${done ? 1 : 0}|${endNs}`}
        toolbar={
          <label className="inline">
            count{' '}
            <select value={kind} onChange={(e) => setKind(e.target.value as QueueKind)} data-testid="pipeline-queue-kind">
              <option value="ready">finished, not yet taken</option>
              <option value="held">written until read</option>
            </select>
          </label>
        }
      />
    </div>
  );
}

export function PipelineThroughput(props: WorkloadViewProps) {
  const plan = usePlan(props.prepared);
  const done = useResults(props);
  const data = useMemo(() => {
    if (!done) return null;
    const st = done.res.stages;
    const last = st[st.length - 1]!;
    const c = throughputCurve(last.spans, done.offsets[st.length - 1]!, done.start, done.res.row.chunkBytes, done.res.row.dataBytes);
    const end = done.start + done.res.row.timeNs;
    // cumulative: bytes out / time since the start, falling between chunks and jumping at each;
    // per chunk: a step over the time since the previous chunk
    const cx = [done.start];
    const cy = [0];
    const px: number[] = [];
    const py: number[] = [];
    c.xs.forEach((t, i) => {
      const before = i > 0 ? c.bytes[i - 1]! : 0;
      cx.push(t, t);
      cy.push(t > done.start ? (before / (t - done.start)) * 1000 : 0, c.cumulativeMBps[i]!);
      px.push(i > 0 ? c.xs[i - 1]! : done.start, t);
      py.push(c.perChunkMBps[i]!, c.perChunkMBps[i]!);
    });
    const series: LineSeries[] = [
      { label: 'cumulative (bytes out / time since start)', color: CATEGORY[0]!, xs: cx, ys: cy },
      { label: 'per chunk', color: CATEGORY[1]!, xs: px, ys: py, width: 1.5 },
      { label: `final ${num(done.res.row.throughputMBps)} MB/s`, color: '#000000', dash: [6, 4], xs: [done.start, end], ys: [done.res.row.throughputMBps, done.res.row.throughputMBps], width: 1.5 },
    ];
    return { c, series };
  }, [done]);
  const endNs = props.results?.simulated.endTimeNs ?? 0;
  const final = done?.res.row.throughputMBps ?? 0;
  return (
    <div data-testid="pipeline-throughput" data-final-mbps={final} data-chunks={data?.c.xs.length ?? 0} style={{ marginBottom: '1rem' }}>
      <CanvasCard
        id="pipeline-throughput"
        title="Pipeline throughput"
        subtitle={
          done
            ? `${bytes(plan.dataBytes)} in ${simTime(done.res.row.timeNs)}: ${num(final)} MB/s (10⁶ B/s). The cumulative line rises as the pipeline fills (stages − 1 chunk times) and approaches the per-chunk rate of its slowest stage.`
            : 'Bytes out of the last stage per second of simulated time: cumulative, per chunk and final.'
        }
        height={260}
        draw={(p) => drawLineChart(p, { series: data?.series ?? [], yLabel: 'MB/s', xMaxNs: endNs, markers: done ? [{ x: done.start, label: 'start' }] : [], empty: AFTER_RUN })}
        version={() => `${done ? 1 : 0}|${endNs}`}
      />
    </div>
  );
}

export const PIPELINE_VIEWS: WorkloadView[] = [
  { id: 'pipeline-timeline', workloads: ['pipeline'], Component: PipelineTimeline },
  { id: 'pipeline-mesh', workloads: ['pipeline'], Component: PipelineMesh },
  { id: 'pipeline-queues', workloads: ['pipeline'], Component: PipelineQueues },
  { id: 'pipeline-throughput', workloads: ['pipeline'], Component: PipelineThroughput },
];
