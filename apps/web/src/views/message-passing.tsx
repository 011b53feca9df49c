/**
 * Charts of the message-passing and DVFS workloads (scc.md sections 3, 5, 6): RCKMPI latency
 * against message size (mpi-sweep), GFlops/W and kernel time against the clock divisor
 * (dvfs-kernels), chip power against the active cores (rcce-pair). Each draws the finished runs
 * of its workload in this session (run-history.ts): one run of dvfs-kernels or rcce-pair is one
 * point, so changing the divisor or the pair count and running again extends the line.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Results } from '@manycore/engine';
import { CATEGORY, drawXY, type XYOptions } from '../charts/draw';
import { CanvasCard } from '../components/CanvasCard';
import { bytes, num, simTime } from '../lib/format';
import { dvfsSeries, POWER_Y, powerSeries, SWEEP_Y, sweepSeries, type RunRecord, type Series } from './mp-series';
import { addRun, clearRuns, useRunHistory } from './run-history';
import { MPB_VIEW_WORKLOADS } from './mpb-decode';
import { MpbView } from './MpbView';
import type { WorkloadView, WorkloadViewProps } from './WorkloadViews';

interface TrendProps<Y extends string> {
  id: string;
  title: string;
  workload: string;
  results: Results | null;
  ys: readonly Y[];
  yLabel: Record<Y, string>;
  yFormat?: Partial<Record<Y, (v: number) => string>>;
  xLabel: string;
  opts: (y: Y) => XYOptions;
  series: (records: readonly RunRecord[], y: Y, current: string | null) => Series[];
  /** How to get more points, shown under the title. */
  hint: string;
  initialY?: Y;
}

function TrendChart<Y extends string>(props: TrendProps<Y>) {
  const { results, workload } = props;
  useEffect(() => {
    if (results && results.workload.name === workload) addRun(results);
  }, [results, workload]);
  const records = useRunHistory(workload);
  const [y, setY] = useState<Y>(props.initialY ?? props.ys[0]!);
  const current = results?.digest ?? null;
  const groups = useMemo(
    () =>
      props.series(records, y, current).map((s, i) => ({
        label: s.current ? `${s.label} (this run)` : s.label,
        color: CATEGORY[i % CATEGORY.length]!,
        ...(s.current || !current ? {} : { dash: [5, 3] }),
        points: s.points,
      })),
    [props, records, y, current],
  );
  const points = groups.reduce((a, g) => a + g.points.length, 0);
  const key = JSON.stringify([y, records.map((r) => r.digest), current]);
  const opts: XYOptions = { ...props.opts(y), ...(props.yFormat?.[y] ? { yFormat: props.yFormat[y] } : {}), empty: 'no finished run yet: press Run' };
  return (
    <CanvasCard
      id={props.id}
      title={props.title}
      subtitle={
        <>
          <span data-testid={`${props.id}-runs`}>
            {records.length} {records.length === 1 ? 'run' : 'runs'}, {points} {points === 1 ? 'point' : 'points'}
          </span>
          {groups.length === 1 ? ` · ${groups[0]!.label}` : ''}{' '}
          · {props.hint}
        </>
      }
      height={320}
      draw={(p) => drawXY(p, groups, props.xLabel, props.yLabel[y], opts)}
      version={() => key}
      toolbar={
        <>
          <label className="inline">
            y{' '}
            <select value={y} onChange={(e) => setY(e.target.value as Y)} data-testid={`${props.id}-y`}>
              {props.ys.map((k) => (
                <option key={k} value={k}>
                  {props.yLabel[k]}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="small" onClick={() => clearRuns(workload)} disabled={records.length === 0} data-testid={`${props.id}-clear`} title="Forget the runs collected so far">
            Clear
          </button>
        </>
      }
    />
  );
}

const ns = (v: number) => simTime(v, 3);

export function MpiLatencyView({ results }: WorkloadViewProps) {
  return (
    <TrendChart
      id="mpi-latency"
      title="RCKMPI latency against message size"
      workload="mpi-sweep"
      results={results}
      ys={SWEEP_Y}
      yLabel={{ latencyNs: 'latency per operation', sectionReads: 'section reads per rank per run', packets: 'packets per rank per run' }}
      yFormat={{ latencyNs: ns }}
      xLabel="message size (log2)"
      opts={(y) => ({ xScale: 2, logY: y === 'latencyNs', xFormat: bytes })}
      series={sweepSeries}
      hint="one line per op, channel and process count; run the other channel to compare"
    />
  );
}

export function DvfsEfficiencyView({ results }: WorkloadViewProps) {
  return (
    <TrendChart
      id="dvfs-efficiency"
      title="Energy efficiency against the clock divisor"
      workload="dvfs-kernels"
      results={results}
      ys={['gflopsPerW', 'avgPowerW', 'gflops'] as const}
      yLabel={{ gflopsPerW: 'GFlops/W', avgPowerW: 'kernel core power (W)', gflops: 'GFlops' }}
      xLabel="clock divisor (1600 / divisor MHz)"
      opts={() => ({ xScale: 'linear' })}
      series={dvfsSeries}
      hint="one point per run: change the divisor and run again; one line per kernel"
    />
  );
}

export function DvfsTimeView({ results }: WorkloadViewProps) {
  return (
    <TrendChart
      id="dvfs-time"
      title="Kernel time and cycles against the clock divisor"
      workload="dvfs-kernels"
      results={results}
      ys={['kernelTimeNs', 'cycles'] as const}
      yLabel={{ kernelTimeNs: 'kernel time', cycles: 'core cycles' }}
      yFormat={{ kernelTimeNs: ns, cycles: (v) => num(v) }}
      xLabel="clock divisor (1600 / divisor MHz)"
      opts={() => ({ xScale: 'linear' })}
      series={dvfsSeries}
      hint="memory-bound kernels need fewer cycles at low clocks, yet more time"
    />
  );
}

export function PairPowerView({ results }: WorkloadViewProps) {
  return (
    <TrendChart
      id="pair-power"
      title="Chip power against active cores"
      workload="rcce-pair"
      results={results}
      ys={POWER_Y}
      yLabel={{ chipPowerW: 'chip power, whole run (W)', powerW: 'chip power, timed rounds (W)' }}
      xLabel="active cores (2 per pair)"
      opts={() => ({ xScale: 'linear' })}
      series={powerSeries}
      hint="one point per run: change pairs and run again; one line per benchmark and hop count"
    />
  );
}

/** The message-passing family's entries of WORKLOAD_VIEWS, in display order. */
export const MESSAGE_PASSING_VIEWS: WorkloadView[] = [
  { id: 'mpb', workloads: MPB_VIEW_WORKLOADS, Component: MpbView },
  { id: 'mpi-latency', workloads: ['mpi-sweep'], Component: MpiLatencyView },
  { id: 'dvfs-efficiency', workloads: ['dvfs-kernels'], Component: DvfsEfficiencyView },
  { id: 'dvfs-time', workloads: ['dvfs-kernels'], Component: DvfsTimeView },
  { id: 'pair-power', workloads: ['rcce-pair'], Component: PairPowerView },
];
