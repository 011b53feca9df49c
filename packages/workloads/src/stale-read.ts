/**
 * stale-read: the SCC has no cache coherence. A writer and a reader both have a shared
 * word cached; the writer stores a new value. Without flushes the reader keeps seeing its
 * stale copy; when the writer flushes (write-back) and the reader flushes (invalidate)
 * before reading, the reader sees the new value. Rows {flush, valueSeen, valueWritten}.
 */
import { z } from 'zod';
import { WorkloadParamError, type SccCore, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, overLimit } from './lib/limits';
import { sharedAddrOnController } from './placement';

const Params = z.strictObject({
  writer: z.number().int().min(0).default(0),
  reader: z.number().int().min(0).default(5),
  mode: z.enum(['both', 'no-flush', 'flush']).default('both').describe('which variants to run'),
});
type P = z.infer<typeof Params>;

export const staleRead: WorkloadDef<P> = {
  name: 'stale-read',
  title: 'Stale read without flush',
  chart: { x: 'valueWritten', y: 'valueSeen', series: 'flush' },
  description: 'Without a flush a reader keeps seeing its cached copy of a word another core changed; with one it sees the update.',
  params: Params,
  participants: (p, chip) => {
    if (p.writer === p.reader) throw new WorkloadParamError('writer and reader must be different cores', 'reader', `a core other than the writer (${p.writer})`);
    for (const k of ['writer', 'reader'] as const)
      if (p[k] >= chip.topo.cores) throw overLimit(k, p[k], chip.topo.cores - 1, `${chipHasCores(chip)} (0..${chip.topo.cores - 1})`);
    return [p.writer, p.reader];
  },
  *program(core: SccCore, p: P) {
    const variants = p.mode === 'both' ? [false, true] : [p.mode === 'flush'];
    const base = sharedAddrOnController(core.chip, 0);
    let round = 0;
    for (const flush of variants) {
      const addr = base + round * 64;
      const written = 42 + round;
      round++;
      core.load32(addr); // both cores cache the word (value 0)
      yield* core.barrier();
      if (core.id === p.writer) {
        core.store32(addr, written);
        if (flush) core.flush();
      }
      yield* core.barrier();
      if (core.id === p.reader) {
        if (flush) core.flush();
        const seen = core.load32(addr);
        core.report({ flush, valueSeen: seen, valueWritten: written });
      }
      yield* core.barrier();
    }
  },
};
