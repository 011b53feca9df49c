/**
 * Workload `dsm` (issue 16): one of paper 004's applications (apps/index.ts) on a distributed
 * shared memory runtime (runtime/page.ts: TreadMarks-like pages; `object`: SkidMarks-like
 * objects) over `processors` nodes of a cluster.
 *
 * Contract
 * - Every processor builds the runtime, meets the others at a harness barrier (time 0 of the
 *   run), runs app.run, and joins the runtime's end barrier: the time and the protocol counters
 *   are taken between the harness barrier and the end barrier's departure (counters summed over
 *   processors; memory per processor is the mean of each processor's shared-data bytes at the
 *   end). Then processor 0 runs app.check (or, for an app with `combine` (SOR), every processor
 *   checks its own part and combine gives the verdict) (opening the result through the runtime; the others
 *   serve its requests from a last barrier): not counted.
 * - One row per run: {runtime, app, processors, size, timeNs, messages, bytes,
 *   overlappedRequests, rounds, readFaults, writeFaults, writeNotices, diffs, twins,
 *   memoryPerProcessorBytes (shared data + twins + diffs kept), allocatedPerProcessorBytes
 *   (shared data only), correct, check}; on 32 processors at a paper size, the paper's
 *   value and the ratio lab / paper for time, messages, bytes, overlapped requests and memory
 *   (the paper's "object memory alloc." vs allocatedPerProcessorBytes) (paper 004 Table 3 or 4, the TreadMarks column for `page`, SkidMarks for `object`; MB read
 *   as 10^6 B: the paper does not say, and SOR's 1.64 MB per processor fits 10^6 (50.3e6 B of
 *   grid / 32 + 4 boundary rows), not 2^20).
 * - `sorHoisting: false` (SOR only; absent = hoisted, so earlier runs keep their params and
 *   digests): the un-hoisted SOR of Table 7 (apps/sor.ts), the array program on the page
 *   runtime, the handle program on the object runtime, its pointers in the bottom of the
 *   reserved private MB; its rows carry sorHoisting: false, and at paper-lg on 1 or 32
 *   processors Table 7's time and ratio (hoisted 32-processor rows keep Table 4's). gc-tree rows
 *   on 32 processors at a paper size carry Table 5's mark-and-sweep time, data and overlapped
 *   requests and the ratios.
 * - The runtime is chosen from RUNTIMES by name: the object runtime plugs in with one line there.
 * - results.workload.dsm (extra.ts): each processor's interval timeline, the write-notice matrix
 *   and messages by type over the same timed part, from its recorder (runtime/record.ts); the
 *   rows never carry them.
 * Units: ns, bytes.
 */
import { z } from 'zod';
import { WorkloadParamError, type ClusterCore, type Row, type SccCore, type WorkloadDef } from '@manycore/engine';
import type { Dsm, DsmApp, DsmStats, SizeName } from './api';
import { dsmApps, sorProgram, type SorSize } from './apps'; // the directory's index (the lint rule's '**/apps/**' is meant for apps/web)
import { ObjectRuntime } from './runtime/object';
import { PageRuntime } from './runtime/page';
import { LrcRuntime } from './runtime/lrc';
import { dsmExtra } from './extra';
import { sccTransport, sccTransportProblem, RESERVED_BYTES as SCC_RESERVED_BYTES } from './runtime/scc-transport';
import { clusterTransport, type DsmTransport } from './runtime/transport';

/** The object runtime's switches (paper 004 Table 6's ablations). */
export interface ObjectSwitches {
  readAggregation: boolean;
  lazyAllocation: boolean;
  writeAggregation: boolean;
  writeNoticeReduction: boolean;
}

export type RuntimeFactory = (t: DsmTransport, locks: number, switches: ObjectSwitches) => Dsm;

/** Runtimes by the `runtime` parameter's names; null: not built yet. */
export const RUNTIMES: Record<'page' | 'object', RuntimeFactory | null> = {
  page: (t, locks) => new PageRuntime(t, locks),
  object: (t, locks, s) => new ObjectRuntime(t, locks, { readAggregation: s.readAggregation, lazyAllocation: s.lazyAllocation, writeAggregation: s.writeAggregation, writeNoticeReduction: s.writeNoticeReduction }),
};

const MB = 1e6;
interface PaperCell {
  timeS: number;
  dataMB: number;
  messages: number;
  overlapped: number;
  memMB: number;
}
/** Paper 004 Table 7 (SOR/lg, seconds): [processors][hoisting ? 'pref' : 'nopref'] per runtime (../shared/reference/dsm.md section 6). */
export const PAPER_TABLE7: Record<1 | 32, Record<'pref' | 'nopref', { page: number; object: number }>> = {
  1: { pref: { page: 27.57, object: 28.05 }, nopref: { page: 33.19, object: 47.47 } },
  32: { pref: { page: 1.32, object: 1.31 }, nopref: { page: 1.54, object: 1.84 } },
};
/** Paper 004 Table 5, Tree with the mark-and-sweep collector on 32 processors (the copying collectors are not written). */
export const PAPER_TABLE5: Record<'page' | 'object', { timeS: number; dataMB: number; overlapped: number }> = {
  page: { timeS: 9.99, dataMB: 42.7, overlapped: 239000 },
  object: { timeS: 3.95, dataMB: 13.9, overlapped: 57400 },
};
/** Private memory for the program's own variables (the un-hoisted SOR's pointers): the bottom of the 1 MB both transports reserve below the DSM region. */
const PROGRAM_BYTES = 1 << 20;

/** Paper 004 Tables 3 and 4 (32 processors): [TreadMarks, SkidMarks] (../shared/reference/dsm.md section 6). */
export const PAPER_32: Record<string, { table: string; page: PaperCell; object: PaperCell }> = {
  'sor/paper-sm': { table: 'Table 4', page: { timeS: 1.1, dataMB: 23.6, messages: 12564, overlapped: 4962, memMB: 1.64 }, object: { timeS: 1.1, dataMB: 23.6, messages: 12564, overlapped: 4962, memMB: 1.64 } },
  'sor/paper-lg': { table: 'Table 4', page: { timeS: 1.32, dataMB: 23.6, messages: 12440, overlapped: 4962, memMB: 1.64 }, object: { timeS: 1.31, dataMB: 23.6, messages: 12440, overlapped: 4962, memMB: 2.18 } },
  'water-nsq/paper-sm': { table: 'Table 4', page: { timeS: 4.52, dataMB: 134.1, messages: 77075, overlapped: 33033, memMB: 1.58 }, object: { timeS: 4.27, dataMB: 114.0, messages: 63742, overlapped: 28032, memMB: 0.66 } },
  'water-nsq/paper-lg': { table: 'Table 4', page: { timeS: 9.74, dataMB: 212.4, messages: 114322, overlapped: 51816, memMB: 2.1 }, object: { timeS: 9.58, dataMB: 181.4, messages: 101098, overlapped: 44758, memMB: 1.04 } },
  'barnes-hut/paper-sm': { table: 'Table 3', page: { timeS: 18.07, dataMB: 315.3, messages: 2549648, overlapped: 108225, memMB: 7.36 }, object: { timeS: 12.06, dataMB: 82.6, messages: 307223, overlapped: 98896, memMB: 1.05 } },
  'barnes-hut/paper-lg': { table: 'Table 3', page: { timeS: 89.07, dataMB: 1307, messages: 10994350, overlapped: 439463, memMB: 29.4 }, object: { timeS: 45.98, dataMB: 246, messages: 1027932, overlapped: 341303, memMB: 3.35 } },
  'water-spatial/paper-sm': { table: 'Table 3', page: { timeS: 12.52, dataMB: 475.1, messages: 617793, overlapped: 193692, memMB: 3.15 }, object: { timeS: 8.04, dataMB: 262.6, messages: 188687, overlapped: 66937, memMB: 0.61 } },
  'water-spatial/paper-lg': { table: 'Table 3', page: { timeS: 12.89, dataMB: 342.1, messages: 330737, overlapped: 202170, memMB: 25.2 }, object: { timeS: 8.52, dataMB: 166.8, messages: 109560, overlapped: 41491, memMB: 2.64 } },
};

const SWITCH = (what: string) => z.boolean().default(true).describe(`object runtime: ${what} (paper 004 Table 6's ablation; ignored by the page runtime)`);

function paramsFor(appNames: [string, ...string[]]) {
  return z.strictObject({
    runtime: z.enum(['page', 'object']).default('page').describe('page: TreadMarks-like (4 KB pages, twins and diffs); object: SkidMarks-like (objects, single writer)'),
    app: z.enum(appNames).default(appNames.includes('sor') ? 'sor' : appNames[0]).describe("paper 004's application (Table 1)"),
    processors: z.number().int().min(1).max(256).default(8).describe('processors (nodes 0..processors-1 of the cluster), one process each'),
    size: z.enum(['small', 'paper-sm', 'paper-lg']).default('small').describe("input: small (interactive), or the paper's small and large inputs (Table 1)"),
    readAggregation: SWITCH('read aggregation, fetch every invalid object of the faulting page at once'),
    lazyAllocation: SWITCH('lazy allocation, local storage only at first access'),
    writeAggregation: SWITCH('write aggregation, twin the page and make all its objects writable'),
    writeNoticeReduction: SWITCH('write-notice reduction, send intervals as differences from similar earlier ones'),
    // optional, not defaulted: an absent switch is hoisting, and the params (in every run's digest) stay as they were
    sorHoisting: z
      .boolean()
      .optional()
      .describe("sor only (absent = true): the compiler's hoisting of row pointers and handles out of the inner loop (paper 004 section 4, Table 7 'pref.'); false: every reference reloads them (the page runtime runs TreadMarks' a[i][j], the object runtime SkidMarks' a->handle[i]->handle[j])"),
  });
}
export type DsmParams = z.infer<ReturnType<typeof paramsFor>>;

const COUNTERS = ['messages', 'bytes', 'overlappedRequests', 'rounds', 'readFaults', 'writeFaults', 'writeNotices', 'diffs', 'twins'] as const satisfies ReadonlyArray<keyof DsmStats>;

const ratio = (lab: number, paper: number) => Math.round((lab / paper) * 1000) / 1000;

/** The `dsm` workload over a set of applications (the registry's, or a test's own). */
export function makeDsmWorkload(apps: Record<string, DsmApp>): WorkloadDef<DsmParams, ClusterCore | SccCore> {
  const names = Object.keys(apps) as [string, ...string[]];
  const Params = paramsFor(names);
  const appOf = (p: DsmParams) => apps[p.app]!;
  return {
    name: 'dsm',
    title: 'Distributed shared memory: TreadMarks pages vs SkidMarks objects',
    description:
      "Paper 004's applications on a lazy-release-consistent DSM over a cluster: messages, bytes, overlapped requests, faults, write notices, twins, diffs and memory per processor, beside the paper's Tables 3 and 4 at 32 processors.",
    families: ['cluster', 'scc'],
    params: Params,
    coresParam: { name: 'processors' },
    chart: { x: 'processors', y: 'timeNs', series: 'runtime' },
    // every node maps all shared memory at one address: the large inputs (SOR/lg: 4094 x 2 x 8 KB
    // = 67 MB) need more than the preset's 64 MB window; (model) a 128 MB window of each node's
    // 256 MB (paper 004 line 308), and 512 MB of host memory to back what the nodes touch
    // (poolBytes: host capacity, not a simulated cost). Receive slots: every pair of processors
    // that talks touches up to slotsPerPair (8) slots of one 64 KB datagram each, backed in
    // 128 KB blocks: 512 KB of host memory per ordered pair (Water-Spatial on 32 processors
    // talks between all 992), on top of the data the nodes touch.
    // On the SCC (runtime/scc-transport.ts) each core's private DRAM (41 x 16 MB) holds any
    // size's window and messages travel through the MPBs: only the host memory backing what the
    // cores touch (host sizing, not a simulated cost): at the small size the cluster's data
    // budget and 1 MB per core (its 64 KB receive buffer), at paper sizes every core's whole
    // window (sized when processor 0's check opened the whole grid; kept so the configs stay the
    // same, SOR's processors now check their own rows) and that 1 MB.
    chipOverrides: (p, family) => {
      const data = p.size === 'paper-lg' ? 512 : 256;
      if (family === 'scc') {
        const windowMB = p.size === 'paper-lg' ? 128 : 64;
        return { memory: { poolBytes: (p.size === 'small' ? data + p.processors : p.processors * (windowMB + 1)) * 1024 * 1024 } };
      }
      const slotsMB = Math.ceil((p.processors * (p.processors - 1)) / 2);
      if (p.size === 'small') return { memory: { poolBytes: (data + slotsMB) * 1024 * 1024 } };
      // paper sizes (host sizing from the parameters, never exhausted): every node's whole
      // private window (64 MB, or 128 MB for paper-lg), plus each ordered pair's receive slots
      // (8 x 65,568 B = 524,544 B, which straddle at most 5 blocks of 128 KB: 640 KB). Backed
      // lazily by the host: only what the nodes touch takes memory. Capped at 4 GB less one block:
      // one JavaScript typed array holds at most 4 GB (V8; a pool of exactly 2^32 bytes works since
      // layout.ts poolWords, the cap is kept so the rows' configs stay the same); 32 x 128 MB windows exceed it, and a
      // node touching its whole window runs out with the pool's own message.
      const windowMB = p.size === 'paper-lg' ? 128 : 64;
      const pairsKB = p.processors * (p.processors - 1) * 640;
      const poolBytes = Math.min((p.processors * windowMB * 1024 + pairsKB) * 1024, 2 ** 32 - 128 * 1024);
      return { memory: { ...(p.size === 'paper-lg' ? { privateBytes: windowMB * 1024 * 1024 } : {}), poolBytes } };
    },
    participants: (p, chip) => {
      if (chip.family === 'scc') {
        const problem = sccTransportProblem(chip, p.processors);
        if (problem) throw new WorkloadParamError(`processors = ${p.processors}: ${problem}`, 'processors', `at most ${Math.min(chip.topo.cores, 64)} on this chip`);
      }
      if (p.processors > chip.topo.cores) throw new WorkloadParamError(`processors = ${p.processors}, but the cluster has ${chip.topo.cores} nodes`, 'processors', `at most ${chip.topo.cores}`);
      if (!RUNTIMES[p.runtime]) throw new WorkloadParamError(`runtime ${p.runtime}: the object runtime is not built yet`, 'runtime');
      const app = appOf(p);
      if (app.sizes[p.size as SizeName] == null) throw new WorkloadParamError(`app ${p.app} (${app.title}) is not written yet`, 'app');
      if (p.sorHoisting === false && p.app !== 'sor') throw new WorkloadParamError(`sorHoisting = false: only app sor has the un-hoisted variant (paper 004 Table 7), not ${p.app}`, 'sorHoisting', 'true for this app');
      return Array.from({ length: p.processors }, (_, i) => i);
    },
    *program(core: ClusterCore | SccCore, p: DsmParams) {
      const app = appOf(p);
      const size0 = app.sizes[p.size as SizeName];
      // SOR without hoisting (Table 7): the page runtime runs the array program, the object runtime the handle program
      const size =
        p.app === 'sor' && p.sorHoisting === false
          ? sorProgram(size0 as SorSize, { hoisting: false, access: p.runtime === 'object' ? 'handle' : 'array', programBase: core.privateBase, programBytes: PROGRAM_BYTES })
          : size0;
      // the SCC: the same window as the cluster's (64 MB, 128 MB for paper-lg) less the reserved MB
      const scc = core.chip.family === 'scc' ? sccTransport(core as SccCore, p.processors, { regionBytes: (p.size === 'paper-lg' ? 128 << 20 : 64 << 20) - SCC_RESERVED_BYTES }) : null;
      const t = scc ?? clusterTransport(core as ClusterCore, p.processors);
      const dsm = RUNTIMES[p.runtime]!(t, app.locks(size, p.processors), p);
      yield* core.barrier();
      const t0 = core.now;
      const rec = dsm instanceof LrcRuntime ? dsm.recorder : null; // the views' recording (extra.ts), not in the rows
      rec?.begin();
      const s0 = { ...dsm.stats };
      const pieces0 = scc?.piecesSent ?? 0;
      yield* app.run(dsm, size);
      yield* dsm.barrier();
      const t1 = core.now;
      rec?.finish();
      const s1 = { ...dsm.stats };
      const pieces1 = scc?.piecesSent ?? 0;
      let check = { correct: true, detail: '' };
      const checks = core.id === 0 || app.combine !== undefined; // with combine, every processor checks its own part
      if (checks) check = yield* app.check(dsm, size);
      yield* dsm.barrier(); // the others serve processor 0's check
      const row: Row = { proc: core.id, t0Ns: t0 / 1000, t1Ns: t1 / 1000, memoryBytes: s1.memoryBytes, allocatedBytes: s1.allocatedBytes, ...rec?.toRow() };
      for (const k of COUNTERS) row[k] = s1[k] - s0[k];
      if (checks) {
        row.correct = check.correct;
        row.check = check.detail;
      }
      if (scc) row.mpbPieces = pieces1 - pieces0;
      core.report(row);
      if (scc) yield* scc.drain(); // the last departures still reach their receivers
    },
    summarize: (rows, p, chip) => {
      const procs = rows.filter((r) => typeof r.proc === 'number');
      const t0 = Math.min(...procs.map((r) => r.t0Ns as number));
      const t1 = Math.max(...procs.map((r) => r.t1Ns as number));
      const out: Row = { runtime: p.runtime, app: p.app, processors: p.processors, size: p.size, timeNs: Math.round(t1 - t0) };
      for (const k of COUNTERS) out[k] = procs.reduce((s, r) => s + (r[k] as number), 0);
      out.memoryPerProcessorBytes = Math.round(procs.reduce((s, r) => s + (r.memoryBytes as number), 0) / procs.length);
      out.allocatedPerProcessorBytes = Math.round(procs.reduce((s, r) => s + (r.allocatedBytes as number), 0) / procs.length);
      const r0 = procs.find((r) => r.proc === 0)!;
      out.correct = r0.correct as boolean;
      out.check = r0.check as string;
      const app = appOf(p);
      if (app.combine) {
        const v = app.combine([...procs].sort((a, b) => (a.proc as number) - (b.proc as number)).map((r) => ({ correct: r.correct as boolean, detail: r.check as string })), app.sizes[p.size as SizeName]);
        out.correct = v.correct;
        out.check = v.detail;
      }
      if (chip.family !== 'cluster') {
        // rows on the cluster carry no chip field (their digests predate the SCC transport)
        out.chip = chip.family;
        out.mpbPieces = procs.reduce((s, r) => s + (r.mpbPieces as number), 0);
      }
      const hoisting = p.sorHoisting !== false;
      if (p.app === 'sor' && !hoisting) out.sorHoisting = false; // hoisted rows keep their fields (and digests)
      const t7 = p.app === 'sor' && p.size === 'paper-lg' && (p.processors === 1 || p.processors === 32) ? PAPER_TABLE7[p.processors as 1 | 32][hoisting ? 'pref' : 'nopref'][p.runtime] : undefined;
      const paper = p.processors === 32 && hoisting ? PAPER_32[`${p.app}/${p.size}`] : undefined;
      if (t7 !== undefined && !paper) {
        out.paperTable = 'Table 7';
        out.paperTimeNs = t7 * 1e9;
        out.timeRatio = ratio(out.timeNs as number, t7 * 1e9);
      }
      const t5 = p.app === 'gc-tree' && p.processors === 32 && p.size !== 'small' ? PAPER_TABLE5[p.runtime] : undefined;
      if (t5) {
        // Table 5 has no message count and no memory row
        out.paperTable = 'Table 5 (mark-and-sweep)';
        out.paperTimeNs = t5.timeS * 1e9;
        out.timeRatio = ratio(out.timeNs as number, t5.timeS * 1e9);
        out.paperBytes = t5.dataMB * MB;
        out.bytesRatio = ratio(out.bytes as number, t5.dataMB * MB);
        out.paperOverlappedRequests = t5.overlapped;
        out.overlappedRequestsRatio = ratio(out.overlappedRequests as number, t5.overlapped);
      }
      if (paper) {
        const c = paper[p.runtime];
        out.paperTable = paper.table;
        out.paperTimeNs = c.timeS * 1e9;
        out.timeRatio = ratio(out.timeNs as number, c.timeS * 1e9);
        out.paperMessages = c.messages;
        out.messagesRatio = ratio(out.messages as number, c.messages);
        out.paperBytes = c.dataMB * MB;
        out.bytesRatio = ratio(out.bytes as number, c.dataMB * MB);
        out.paperOverlappedRequests = c.overlapped;
        out.overlappedRequestsRatio = ratio(out.overlappedRequests as number, c.overlapped);
        out.paperMemoryPerProcessorBytes = c.memMB * MB;
        out.memoryRatio = ratio(out.allocatedPerProcessorBytes as number, c.memMB * MB); // the paper's "object memory alloc.": shared data only
      }
      return [out];
    },
    extra: (rows, p, chip) => dsmExtra(rows, p, chip.family),
  };
}

export const dsmWorkload = makeDsmWorkload(dsmApps);
