import { describe, expect, it } from 'vitest';
import { runProgram, type Tile64Core } from '@manycore/engine';
import { layoutImage } from './image';
import { buildProgram } from './program';
import { dealTo, type Replication } from './snapshot';
import { SnapshotPlacement, mapSpace, publishReadMostly, spaceLayout } from './tile64-space';

/**
 * Two tiles deal a snapshot as the vm workload does, optionally publish their read-mostly share,
 * meet at a barrier, then each reads every word of the other's read-mostly objects.
 * Per core: [words read, words that differ from the image, flush / finv instructions].
 */
function exchange(replication: Replication, publish: boolean): number[][] {
  const out: number[][] = [[], []];
  runProgram<Tile64Core>({
    preset: 'tile64',
    cores: [0, 1],
    *program(core) {
      const L = spaceLayout(core.sharedBase, core.chip.sharedBytes, 2, 65536, replication);
      mapSpace(core, L, 0);
      const image = layoutImage(buildProgram('compiler'), 2, new SnapshotPlacement(L));
      for (const o of image.objects) {
        if (dealTo(2, replication, 0, o.index, o.what).core !== core.id) continue;
        for (let w = 0; w < o.words.length; w++) core.store32(o.body + 4 * w, o.words[w]!);
        if (core.due()) yield 0;
      }
      const flushes = publish ? yield* publishReadMostly(core, L, image, 0) : 0;
      yield* core.barrier();
      let words = 0;
      let wrong = 0;
      for (const o of image.objects) {
        const d = dealTo(2, replication, 0, o.index, o.what);
        if (d.core === core.id || !d.readMostly) continue;
        for (let w = 0; w < o.words.length; w++, words++) if (core.load32(o.body + 4 * w) !== o.words[w]) wrong++;
        if (core.due()) yield 0;
      }
      out[core.id] = [words, wrong, flushes];
    },
  });
  return out;
}

describe('the read-mostly heap in user-managed pages (real copies)', () => {
  it("without the write-back a tile reads memory that never got the other tile's snapshot share", () => {
    for (const [words, wrong] of exchange('all-but-contexts', false)) {
      expect(words).toBeGreaterThan(500);
      expect(wrong).toBeGreaterThan(words / 4);
    }
  });

  it('publishReadMostly (flush per L2 line of per-core slices) makes every word right on the other tile', () => {
    for (const [words, wrong, flushes] of exchange('all-but-contexts', true)) {
      expect(words).toBeGreaterThan(500);
      expect(wrong).toBe(0);
      expect(flushes).toBeGreaterThan(words / 16 / 2); // about one per 64 B of its own share
    }
  });

  it('one global heap: lines hold both tiles\' objects, so each finvs its lines (flushing alone would leave its copies stale)', () => {
    for (const [words, wrong, flushes] of exchange('global', true)) {
      expect(words).toBeGreaterThan(500);
      expect(wrong).toBe(0);
      expect(flushes).toBeGreaterThan(words / 4 / 2); // one per 16 B L1D line (CHIP_FINV_STRIDE)
    }
  });
});
