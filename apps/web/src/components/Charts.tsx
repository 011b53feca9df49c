/**
 * Live charts of a run, all drawn from the shared buffers by the frame loop. Labels and which
 * charts apply come from the chip family's FloorplanSpec (controller names, power domains,
 * bytes per memory transaction, whether the tiles hold MPBs).
 */
import { useMemo } from 'react';
import { C, STALL_NAMES, type ResolvedChip, type TimelineEvent } from '@manycore/engine';
import { CATEGORY, drawHeatmap, drawLineChart, drawStackedBars, type Marker } from '../charts/draw';
import { controllerLabel, domainLabel, floorplanOf, hasDomains } from '../lib/floorplan';
import { num, pct, simTime } from '../lib/format';
import { palette, seriesDash } from '../lib/theme';
import { stallApplies, stallLabel } from '../sim/metrics';
import type { SeriesColumns, Telemetry } from '../sim/telemetry';
import { CanvasCard, type ChartTable } from './CanvasCard';

export function markersOf(events: readonly TimelineEvent[]): Marker[] {
  return events.map((e) => ({
    x: e.atNs,
    label: e.kind === 'island-divisor' ? `island ${e.island} ÷${e.divisor}` : `tile ${e.tile} ÷${e.divisor}`,
  }));
}

const STALL_COLORS = ['#56B4E9', '#0072B2', '#CC79A7', '#009E73', '#D55E00', '#E69F00', '#7f7f7f'];

interface Props {
  telemetry: Telemetry | null;
  chip: ResolvedChip;
  participants: ReadonlySet<number>;
  markers: () => Marker[];
  runKey: unknown;
}

export function LiveCharts({ telemetry: t, chip, participants, markers }: Props) {
  const spec = useMemo(() => floorplanOf(chip), [chip]);
  const stalls = useMemo(() => STALL_NAMES.map((_, k) => k).filter((k) => stallApplies(spec, k)), [spec]);
  const series: SeriesColumns | null = t ? t.series : null;
  const v = () => `${t?.version ?? -1}|${markers().length}|${chip.topo.cores}`;
  // a colour and a dash pattern per series: lines that coincide stay apart
  const cols = (f: (s: SeriesColumns) => { label: string; ys: Float64Array }[]) =>
    series ? f(series).map((c, i) => ({ label: c.label, ys: c.ys, xs: series.timeNs.view(), color: CATEGORY[i % CATEGORY.length]!, dash: seriesDash(i) })) : [];
  /** The samples of a line chart as a table: simulated time, then a column per series. */
  const lineTable = (unit: string, f: (s: SeriesColumns) => { label: string; ys: Float64Array }[], labels: string[]): ChartTable => ({
    columns: ['simulated time', ...labels.map((l) => `${l} (${unit})`)],
    rows: () => (series ? sampleRows(series.timeNs.view(), f(series).map((c) => c.ys)) : []),
    note: () => (series && series.timeNs.length > MAX_TABLE_ROWS ? `every ${Math.ceil(series.timeNs.length / MAX_TABLE_ROWS)}th of ${series.timeNs.length} samples` : ''),
  });
  const islandLabels = spec.domains.map((_, i) => domainLabel(spec, i));
  const controllerLabels = spec.controllers.map((_, i) => controllerLabel(spec, i));
  const stallTable: ChartTable = {
    caption: 'share of each core’s simulated time so far',
    columns: ['core', 'busy', ...stalls.map((k) => stallLabel(k)), 'sleep', 'in the workload'],
    rows: () =>
      t
        ? Array.from({ length: chip.topo.cores }, (_, i) => [
            String(i),
            pct(t.utilRun(i)),
            ...stalls.map((k) => pct(t.stallRun(i, k))),
            pct(t.core(i, C.clockPs) > 0 ? t.core(i, C.sleepPs) / t.core(i, C.clockPs) : 0),
            participants.has(i) ? 'yes' : 'no',
          ])
        : [],
  };
  const matrixTable: ChartTable = {
    caption: 'core pairs that exchanged messages, most first',
    columns: ['sender core', 'receiver core', 'messages'],
    rows: () => {
      if (!t) return [];
      const pairs: [number, number, number][] = [];
      for (let i = 0; i < chip.topo.cores; i++)
        for (let j = 0; j < chip.topo.cores; j++) {
          const m = t.messages(i, j);
          if (m > 0) pairs.push([i, j, m]);
        }
      pairs.sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
      return pairs.slice(0, MAX_TABLE_ROWS).map(([i, j, m]) => [String(i), String(j), num(m, 6)]);
    },
  };
  return (
    <div className="chart-grid">
      <CanvasCard
        id="chip-power"
        title="Chip power"
        subtitle="whole chip, averaged over each sample interval"
        draw={(p) => drawLineChart(p, { series: cols((s) => [{ label: 'chip', ys: s.chipPowerW.view() }]), yLabel: 'power (W)', markers: markers() })}
        version={v}
        table={lineTable('W', (s) => [{ label: 'chip', ys: s.chipPowerW.view() }], ['chip power'])}
      />
      {hasDomains(spec) ? (
        <CanvasCard
          id="island-power"
          title="Power per voltage island"
          subtitle="lower an island's divisor in What-if and watch its line drop"
          draw={(p) =>
            drawLineChart(p, {
              series: cols((s) => s.islandPowerW.map((c, i) => ({ label: domainLabel(spec, i), ys: c.view() }))),
              yLabel: 'power (W)',
              markers: markers(),
            })
          }
          version={v}
          table={lineTable('W', (s) => s.islandPowerW.map((c, i) => ({ label: domainLabel(spec, i), ys: c.view() })), islandLabels)}
        />
      ) : null}
      <CanvasCard
        id="network"
        title="Network throughput"
        subtitle="flit-hops per µs of simulated time: flits counted on every link they cross, all links summed"
        draw={(p) => drawLineChart(p, { series: cols((s) => [{ label: 'all links', ys: s.flitsPerUs.view() }]), yLabel: 'flit-hops per µs', markers: markers() })}
        version={v}
        table={lineTable('flit-hops per µs', (s) => [{ label: 'all links', ys: s.flitsPerUs.view() }], ['all links'])}
      />
      <CanvasCard
        id="controller-bandwidth"
        title="Memory-controller bandwidth"
        subtitle={`${spec.transactionBytes}-byte transactions served per sample interval`}
        draw={(p) =>
          drawLineChart(p, {
            series: cols((s) => s.controllerGBps.map((c, i) => ({ label: controllerLabel(spec, i), ys: c.view() }))),
            yLabel: 'bandwidth (GB/s)',
            markers: markers(),
          })
        }
        version={v}
        table={lineTable('GB/s', (s) => s.controllerGBps.map((c, i) => ({ label: controllerLabel(spec, i), ys: c.view() })), controllerLabels)}
      />
      <CanvasCard
        id="controller-queue"
        title="Memory-controller backlog"
        subtitle="service booked ahead of each controller at each sample, in requests; it counts requests the cores issued up to the end of the epoch, so it can exceed the longest wait any one request had"
        draw={(p) =>
          drawLineChart(p, {
            series: cols((s) => s.controllerQueueDepth.map((c, i) => ({ label: controllerLabel(spec, i), ys: c.view() }))),
            yLabel: 'backlog (requests)',
            markers: markers(),
          })
        }
        version={v}
        table={lineTable('requests', (s) => s.controllerQueueDepth.map((c, i) => ({ label: controllerLabel(spec, i), ys: c.view() })), controllerLabels)}
      />
      <CanvasCard
        id="stalls"
        title="Where each core's time went"
        subtitle="share of each core's simulated time so far; faint bars: cores not in the workload"
        draw={(p) =>
          drawStackedBars(p, {
            n: chip.topo.cores,
            xLabel: 'core',
            yLabel: 'share of time',
            active: (i) => participants.has(i),
            stacks: [
              { label: 'busy', color: palette.busy, value: (i) => (t ? t.utilRun(i) : 0) },
              ...stalls.map((k) => ({ label: stallLabel(k), color: STALL_COLORS[k]!, value: (i: number) => (t ? t.stallRun(i, k) : 0) })),
              {
                label: 'sleep',
                color: palette.sleep,
                value: (i: number) => (t && t.core(i, C.clockPs) > 0 ? t.core(i, C.sleepPs) / t.core(i, C.clockPs) : 0),
              },
            ],
          })
        }
        version={v}
        height={300}
        table={stallTable}
      />
      <CanvasCard
        id="matrix"
        title="Core-to-core messages"
        subtitle="messages from each sender (row) to each receiver (column), log colour scale"
        draw={(p) => drawHeatmap(p, { n: chip.topo.cores, value: (i, j) => (t ? t.messages(i, j) : 0), title: 'messages' })}
        version={v}
        table={matrixTable}
        height={Math.min(560, Math.max(360, chip.topo.cores * 2 + 120))}
      />
    </div>
  );
}

/** Most rows a chart's data table shows (longer series are thinned evenly, the last sample kept). */
export const MAX_TABLE_ROWS = 400;

/** Rows of samples: the time, then each column's value at that sample; at most MAX_TABLE_ROWS, evenly thinned. */
export function sampleRows(timeNs: ArrayLike<number>, cols: ArrayLike<number>[]): string[][] {
  const n = Math.min(timeNs.length, ...cols.map((c) => c.length));
  const step = Math.max(1, Math.ceil(n / MAX_TABLE_ROWS));
  const out: string[][] = [];
  for (let i = 0; i < n; i += step) out.push([simTime(timeNs[i]!), ...cols.map((c) => num(c[i]!, 4))]);
  if (n > 0 && (n - 1) % step !== 0) out.push([simTime(timeNs[n - 1]!), ...cols.map((c) => num(c[n - 1]!, 4))]);
  return out;
}

export function fmtW(x: number): string {
  return `${num(x)} W`;
}
