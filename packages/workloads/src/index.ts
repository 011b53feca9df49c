/** @manycore/workloads: workloads written against the engine's core API, and their registry. */
import type { WorkloadRegistry } from '@manycore/engine';
import { memtest } from './memtest';
import { mpbPingpong } from './mpb-pingpong';
import { staleRead } from './stale-read';
import { l1Stream } from './l1-stream';
import { mpiSweep } from './mpi-sweep';
import { rccePair } from './rcce-pair';
import { rcceBcast } from './rcce-bcast';
import { dvfsKernels } from './dvfs-kernels';
import { socketPingpong } from './socket-pingpong';
import { pipeline, dramHops } from './pipeline/index';
import { nbodyRing } from './nbody-ring';
import { concordance } from './concordance';
import { latencyLadder } from './tile64/latency-ladder';
import { tileMessages } from './tile64/tile-messages';
import { clusterRtt } from './cluster-rtt';
import { sharedCounter } from './shared-counter';
import { dsmWorkload } from './dsm/workload';
import { dsmFetch } from './dsm/runtime/fetch-cost';
import { metalsvm } from './metalsvm/index';
import { vmWorkload } from './vm/workload';

export const workloads: WorkloadRegistry = {
  [memtest.name]: memtest,
  [mpbPingpong.name]: mpbPingpong,
  [staleRead.name]: staleRead,
  [l1Stream.name]: l1Stream,
  [mpiSweep.name]: mpiSweep,
  [rccePair.name]: rccePair,
  [rcceBcast.name]: rcceBcast,
  [dvfsKernels.name]: dvfsKernels,
  [socketPingpong.name]: socketPingpong,
  [pipeline.name]: pipeline,
  [dramHops.name]: dramHops,
  [nbodyRing.name]: nbodyRing,
  [concordance.name]: concordance,
  [latencyLadder.name]: latencyLadder,
  [tileMessages.name]: tileMessages,
  [clusterRtt.name]: clusterRtt,
  [sharedCounter.name]: sharedCounter,
  [dsmWorkload.name]: dsmWorkload,
  [dsmFetch.name]: dsmFetch,
  [metalsvm.name]: metalsvm,
  [vmWorkload.name]: vmWorkload,
};

export { memtest, mpbPingpong, staleRead, l1Stream };
export { mpiSweep, rccePair, rcceBcast, dvfsKernels, socketPingpong };
export { pipeline, dramHops, nbodyRing, concordance };
export { latencyLadder, tileMessages, clusterRtt };
export { sharedCounter };
export { dsmWorkload, makeDsmWorkload, RUNTIMES, PAPER_32 } from './dsm/workload';
export { dsmFetch, PAPER_FETCH_NS } from './dsm/runtime/fetch-cost';
export { metalsvm };
export { vmWorkload, DEFAULT_SIZE as VM_DEFAULT_SIZE } from './vm/workload';
/** The heap map's cell format (VmExtra.heapMap), for the views that decode it. */
export { CELL_FREE, CELL_VACATED, CELL_UNKNOWN, CELL_CLASS0, type HeapStrip } from './vm/heap-objects';
export { stageCores, stageHops, stageBuffers, type PipelineMode, type PipelineOrder, type PipelinePlacement } from './pipeline/plan';
export * from './placement';
export { Rcce, rcceLayout, RCCE_CHUNK_BYTES } from './rcce/index';
export { Mpi, mpbLayout, originalSectionBytes, type Channel, type MpbRegion } from './rckmpi/index';
// byte layouts of the MPB halves, for views that decode them (the web lab's MPB view)
export { RCCE_FLAG_OFFSET, FLAG_SENT, FLAG_READY, FLAG_VERSION, BARRIER_COUNT, BARRIER_GEN, RCCE_MAX_CORES } from './rcce/index';
export { checksum as rckmpiChecksum, IMP_BASE, IMP_EXT, IMP_MASK, IMP_META, IMP_SLOT, IMP_SLOTS, IMP_WAKE, MPB_REGION, ORIG_META, ORIG_WAKE } from './rckmpi/index';
export {
  guidedExperiments,
  guidedById,
  chartPoints,
  chipOf,
  describeRun,
  familyOf,
  resolvePaperPoints,
  sweepRows,
  type GuidedExperiment,
  type ChartHint,
  type ChartPoint,
  type PaperPoint,
  type PaperValues,
  type EmbedControl,
  type EmbedHint,
  type ParamValue,
} from './guided';
export { reproductions, runReproductions, renderReport, summaryOf, verdictOf, paperBeside, type PaperBeside, type Reproduction, type ReproductionResult, type RunOutput, type Cell, type Check } from './fidelity/index';
