/**
 * Live charts of a run, all drawn from the shared buffers by the frame loop. Labels and which
 * charts apply come from the chip family's FloorplanSpec (controller names, power domains,
 * bytes per memory transaction, whether the tiles hold MPBs).
 */
import { useMemo } from 'react';
import { C, STALL_NAMES, type ResolvedChip, type TimelineEvent } from '@manycore/engine';
import { CATEGORY, drawHeatmap, drawLineChart, drawStackedBars, type Marker } from '../charts/draw';
import { controllerLabel, domainLabel, floorplanOf, hasDomains } from '../lib/floorplan';
import { num } from '../lib/format';
import { stallApplies, stallLabel } from '../sim/metrics';
import type { SeriesColumns, Telemetry } from '../sim/telemetry';
import { CanvasCard } from './CanvasCard';

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
  const cols = (f: (s: SeriesColumns) => { label: string; ys: Float64Array }[]) =>
    series ? f(series).map((c, i) => ({ label: c.label, ys: c.ys, xs: series.timeNs.view(), color: CATEGORY[i % CATEGORY.length]! })) : [];
  return (
    <div className="chart-grid">
      <CanvasCard
        id="chip-power"
        title="Chip power"
        subtitle="whole chip, averaged over each sample interval"
        draw={(p) => drawLineChart(p, { series: cols((s) => [{ label: 'chip', ys: s.chipPowerW.view() }]), yLabel: 'power (W)', markers: markers() })}
        version={v}
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
        />
      ) : null}
      <CanvasCard
        id="network"
        title="Network throughput"
        subtitle="flits injected into all links per µs of simulated time"
        draw={(p) => drawLineChart(p, { series: cols((s) => [{ label: 'all links', ys: s.flitsPerUs.view() }]), yLabel: 'flits per µs', markers: markers() })}
        version={v}
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
      />
      <CanvasCard
        id="controller-queue"
        title="Memory-controller queue"
        subtitle="requests waiting at each sample"
        draw={(p) =>
          drawLineChart(p, {
            series: cols((s) => s.controllerQueueDepth.map((c, i) => ({ label: controllerLabel(spec, i), ys: c.view() }))),
            yLabel: 'queue depth (requests)',
            markers: markers(),
          })
        }
        version={v}
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
              { label: 'busy', color: '#1f2933', value: (i) => (t ? t.utilRun(i) : 0) },
              ...stalls.map((k) => ({ label: stallLabel(k), color: STALL_COLORS[k]!, value: (i: number) => (t ? t.stallRun(i, k) : 0) })),
              {
                label: 'sleep',
                color: '#c9ced6',
                value: (i: number) => (t && t.core(i, C.clockPs) > 0 ? t.core(i, C.sleepPs) / t.core(i, C.clockPs) : 0),
              },
            ],
          })
        }
        version={v}
        height={300}
      />
      <CanvasCard
        id="matrix"
        title="Core-to-core messages"
        subtitle="messages from each sender (row) to each receiver (column), log colour scale"
        draw={(p) => drawHeatmap(p, { n: chip.topo.cores, value: (i, j) => (t ? t.messages(i, j) : 0), title: 'messages' })}
        version={v}
        height={Math.min(560, Math.max(360, chip.topo.cores * 2 + 120))}
      />
    </div>
  );
}

export function fmtW(x: number): string {
  return `${num(x)} W`;
}
