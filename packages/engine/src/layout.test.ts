/**
 * Regression tests for the DRAM pool's word view (layout.ts poolWords / makeViews): a pool of
 * exactly 2^32 bytes (4 GiB, the largest a typed array holds) once got a word view of 0 words
 * (`byteLength >>> 2` wraps at 2^32), so committed writes vanished and the cluster deadlocked at
 * start. The buffer is allocated but never touched beyond one line (the host backs it lazily).
 */
import { describe, expect, it } from 'vitest';
import { resolveChip } from './chips/registry';
import { allocateBuffers, BLOCK_BYTES, computeLayout, CTL, makeViews, poolWords } from './layout';
import { readCommittedLine, writeCommittedLine } from './memory';
import { dramLineId, LINE_WORDS } from './vocabulary';

describe('DRAM pool word view', () => {
  it('poolWords is bytes / 4 on both sides of 2^32 (not wrapped to 32 bits)', () => {
    expect(poolWords(2 ** 32 - BLOCK_BYTES)).toBe(2 ** 30 - BLOCK_BYTES / 4);
    expect(poolWords(2 ** 32)).toBe(2 ** 30);
    expect(poolWords(BLOCK_BYTES)).toBe(BLOCK_BYTES / 4);
  });

  it('a 4 GiB pool keeps a line written to its last block', () => {
    const layout = computeLayout(resolveChip('cluster-1999', { memory: { poolBytes: 2 ** 32 } }), { wlogCap: 64, txnCap: 64 });
    expect(layout.poolBytes).toBe(2 ** 32);
    const { state, pool } = allocateBuffers(layout);
    const v = makeViews(layout, state, pool);
    expect(v.pool32.length).toBe(2 ** 30);
    v.ctl[CTL.poolNext] = 2 ** 32 / BLOCK_BYTES - 1; // the next block handed out is the pool's last
    const img = Uint32Array.from({ length: LINE_WORDS }, (_, i) => 0xa0000000 + i);
    const line = dramLineId(0, 4095 * 32); // the last line of controller 0's first block
    writeCommittedLine(v, line, -1, new Uint8Array(img.buffer), 0, img, 0);
    const back = new Uint32Array(LINE_WORDS);
    readCommittedLine(v, line, back, 0);
    expect([...back]).toEqual([...img]);
    expect(v.pool32[2 ** 30 - 1]).toBe(0xa0000007); // the pool's very last word
  });
});
