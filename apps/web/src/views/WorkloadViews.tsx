/**
 * Workload-specific views: each workload family registers the views that make its mechanism
 * visible (the MPB section layout of RCKMPI, the stage timeline of a pipeline, ...). The lab
 * shows the views registered for the current experiment's workload, below the results.
 * A view draws from the live run (telemetry, shared buffers) and/or the finished results.
 */
import type { Experiment, PreparedRun, Results } from '@manycore/engine';
import type { LiveRun } from '../sim/live-run';
import { PIPELINE_VIEWS } from './PipelineViews';
import { MESSAGE_PASSING_VIEWS } from './message-passing';

export interface WorkloadViewProps {
  /** The experiment shown (the run's when there is one, else the editor's). */
  experiment: Experiment;
  /** The resolved run plan: chip, settings (participants), workload params. */
  prepared: PreparedRun;
  /** The live run, or null before Run. */
  run: LiveRun | null;
  /** The finished results, or null while running. */
  results: Results | null;
}

export interface WorkloadView {
  id: string;
  /** Workload names this view is for. */
  workloads: readonly string[];
  Component: (props: WorkloadViewProps) => React.ReactElement | null;
}

/** Registered views, in display order. Each family appends its entries here. */
export const WORKLOAD_VIEWS: WorkloadView[] = [
  ...PIPELINE_VIEWS, // pipeline: stage timeline, mesh transfers, queue occupancy, throughput
  ...MESSAGE_PASSING_VIEWS, // message passing: MPB layout (RCKMPI / RCCE), MPI latency, DVFS efficiency, power vs active cores
];

export function WorkloadViews(props: WorkloadViewProps) {
  const views = WORKLOAD_VIEWS.filter((v) => v.workloads.includes(props.experiment.workload.name));
  if (!views.length) return null;
  return (
    <div className="workload-views" data-testid="workload-views">
      {views.map((v) => (
        <v.Component key={v.id} {...props} />
      ))}
    </div>
  );
}
