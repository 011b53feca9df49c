/**
 * The sequential runtime: one processor, shared arrays laid out contiguously in its private
 * memory from a page boundary, no protection, no messages; synchronisation is free. Runs an
 * application as the paper's "original" sequential program did (for tests and the reference).
 */
import type { Dsm, DsmCore, DsmStats, SharedArrayDesc } from './api';
import { zeroStats } from './api';
import type { Sim } from '@manycore/engine';
import { DUE } from '@manycore/engine';

const PAGE = 4096;

export class LocalDsm implements Dsm {
  readonly me = 0;
  readonly procs = 1;
  readonly stats: DsmStats = zeroStats();
  private readonly arrays: Array<SharedArrayDesc & { base: number }> = [];
  private next: number;

  constructor(
    readonly core: DsmCore,
    /** First byte of the shared arrays. */
    base: number,
  ) {
    this.next = base;
  }

  alloc(name: string, count: number, objectBytes: number): SharedArrayDesc {
    const d = { id: this.arrays.length, name, count, objectBytes, base: this.next };
    this.arrays.push(d);
    this.next += Math.ceil((count * objectBytes) / PAGE) * PAGE;
    this.stats.memoryBytes += Math.ceil((count * objectBytes) / PAGE) * PAGE;
    return d;
  }

  *open(arr: SharedArrayDesc, i: number, _write: boolean): Sim<number> {
    const d = this.arrays[arr.id]!;
    if (!Number.isInteger(i) || i < 0 || i >= d.count) throw new Error(`${d.name}: object ${i} is outside 0..${d.count - 1}`);
    return d.base + i * d.objectBytes;
  }

  *acquire(_lock: number): Sim<void> {}
  *release(_lock: number): Sim<void> {}
  *barrier(): Sim<void> {}
  *poll(): Sim<void> {
    if (this.core.due()) yield DUE;
  }
}
