/**
 * dsm-fetch (cluster family): what one diff fetch of the page runtime costs, measured through
 * the runtime's own fault and serving path, beside paper 004 line 308 ("The time to obtain a
 * diff varies from 313 to 1,544 microseconds, depending on the size of the diff. The time to
 * obtain a full page is 1,308 microseconds.").
 *
 * Contract
 * - Two processors (nodes 0 and 1) run the page runtime (page.ts). For each size in `sizes`
 *   (bytes changed, a multiple of 4 up to 4096): processor 0 opens a fresh page for writing and
 *   changes that many contiguous bytes (twin at the write fault), both meet at the runtime's
 *   barrier (the write notice reaches processor 1, which invalidates the page), then processor 1
 *   opens the page for reading: trap, diff request, processor 0 (the barrier manager, waiting
 *   for the next barrier's arrival, so idle in recvfrom) makes the diff lazily and replies,
 *   processor 1 applies it and write-protects the page. The row's timeNs runs from the open (the
 *   faulting access) to the page being readable.
 * - Rows {measurement, changedBytes, diffBytes, messages, timeNs, paperNs, ratio}: paperNs is
 *   1,308 us for a whole page (4096 B changed: a page-sized diff; this runtime never fetches
 *   whole pages, since every page starts as identical zeros everywhere: page.ts), else 313 us
 *   for the smallest size and 1,544 us for the largest, 0 for the sizes between (the paper
 *   names only the range). Which diff sizes the paper's two ends were measured at is not said (our
 *   reading: the smallest and the largest diff). A comparison only: nothing here feeds back.
 * Units: bytes, ns.
 */
import { z } from 'zod';
import { WorkloadParamError, type ClusterCore, type Row, type WorkloadDef } from '@manycore/engine';
import { PAGE_BYTES, PageRuntime } from './page';
import { clusterTransport } from './transport';

/** Paper 004 line 308, ns. */
export const PAPER_FETCH_NS = { diffLow: 313_000, diffHigh: 1_544_000, page: 1_308_000 } as const;

// The writer is the barrier manager (processor 0): after a barrier it waits for the next
// arrival without sending anything, so it serves the reader's request with nothing in between.
const WRITER = 0;
const READER = 1;

const Params = z.strictObject({
  sizes: z
    .string()
    .default('4,64,512,2048,4096')
    .describe('bytes processor 1 changes in each measured page, comma-separated (multiples of 4, 4..4096); 4096 = a page-sized diff'),
});
type P = z.infer<typeof Params>;

export function parseSizes(s: string): number[] {
  const out = s.split(',').map((x) => Number(x.trim()));
  for (const n of out) if (!Number.isInteger(n) || n < 4 || n > PAGE_BYTES || n % 4 !== 0) throw new WorkloadParamError(`sizes: ${JSON.stringify(s)} has ${n}; each size is a multiple of 4 from 4 to ${PAGE_BYTES}`, 'sizes');
  if (out.length === 0 || out.length > 32) throw new WorkloadParamError('sizes: give 1 to 32 sizes', 'sizes');
  return out;
}

export const dsmFetch: WorkloadDef<P, ClusterCore> = {
  name: 'dsm-fetch',
  title: 'DSM diff fetch: fault to usable page',
  description: "The page runtime's diff fetch on the cluster model (fault, request, lazy diff, reply, apply), by diff size, beside paper 004's 313-1,544 us (diff) and 1,308 us (page).",
  families: ['cluster'],
  params: Params,
  chart: { x: 'changedBytes', y: 'timeNs', series: 'measurement' },
  participants: (p, chip) => {
    parseSizes(p.sizes);
    if (chip.topo.cores < 2) throw new WorkloadParamError('dsm-fetch needs 2 nodes');
    return [0, 1];
  },
  *program(core: ClusterCore, p: P) {
    const sizes = parseSizes(p.sizes);
    const dsm = new PageRuntime(clusterTransport(core, 2), 0);
    const pages = dsm.alloc('pages', sizes.length, PAGE_BYTES);
    yield* core.barrier();
    for (let k = 0; k < sizes.length; k++) {
      if (core.id === WRITER) {
        const a = yield* dsm.open(pages, k, true);
        for (let w = 0; w < sizes[k]! / 4; w++) core.store32(a + 4 * w, 0x01010101 * (k + 1) + w);
      }
      yield* dsm.barrier();
      if (core.id === READER) {
        const m0 = dsm.stats.messages;
        const sent1 = core.counter('messagesReceived');
        const t0 = core.now;
        const a = yield* dsm.open(pages, k, false);
        const timeNs = Math.round((core.now - t0) / 1000);
        if (core.load32(a) !== (0x01010101 * (k + 1)) >>> 0) throw new Error(`dsm-fetch: page ${k} did not arrive`);
        const n = sizes[k]!;
        const paperNs = n === PAGE_BYTES ? PAPER_FETCH_NS.page : n === Math.min(...sizes) ? PAPER_FETCH_NS.diffLow : n === Math.max(...sizes) ? PAPER_FETCH_NS.diffHigh : 0;
        core.report({
          measurement: n === PAGE_BYTES ? 'page-sized diff' : 'diff',
          changedBytes: n,
          diffBytes: 4 + n, // one run: start 2 B + count 2 B, then the words
          messages: dsm.stats.messages - m0 + (core.counter('messagesReceived') - sent1),
          timeNs,
          paperNs,
          ratio: paperNs > 0 ? Math.round((timeNs / paperNs) * 1000) / 1000 : 0,
        } as Row);
      }
    }
    yield* dsm.barrier();
  },
};
