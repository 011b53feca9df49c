/**
 * Contract tests for memory.ts (committed DRAM / MPB / test-and-set state):
 * - untouched DRAM reads as zero, and reading does not allocate;
 * - writeCommittedLine with a full mask replaces the line; with a byte mask only the masked
 *   bytes change (a model check over random masks); its word fast paths (one aligned word,
 *   whole aligned words) write the bytes of the byte loop (a seeded property over masks drawn
 *   for every path, image offsets and prior contents, and exact cases per path);
 * - MPB lines live in the `mpb` region at tile x mpbBytes + line offset; test-and-set
 *   registers read as the first byte of their line;
 * - DRAM is backed by 128 KB pool blocks handed out on a block's first write (CTL.poolNext
 *   grows by one per new block); a write that needs a block beyond the pool throws
 *   PoolExhaustedError with a message naming memory.poolBytes, and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { freshState, reusedState } from './testing';
import fc from 'fast-check';
import { resolveChip } from './chips/registry';
import { BLOCK_BYTES, BLOCKS_PER_CTRL, computeLayout, CTL, type Layout, type Views } from './layout';
import { mpbByteOffset, PoolExhaustedError, readCommittedLine, valueAt, writeCommittedLine } from './memory';
import { dramLineId, LINE_BYTES, LINE_WORDS, mpbLineId, tasLineId } from './vocabulary';

const layouts = new Map<number, Layout>();

/** Fresh, zeroed buffers over the SCC layout with a `poolBytes` DRAM pool. */
function fixture(poolBytes = 4 * BLOCK_BYTES): Views {
  let layout = layouts.get(poolBytes);
  if (!layout) {
    layout = computeLayout(resolveChip('scc', { memory: { poolBytes } }), { wlogCap: 64, txnCap: 64 });
    layouts.set(poolBytes, layout);
  }
  return freshState(layout);
}

/** One state reused by the property test, zeroed at each call. */
const cleanFixture = reusedState(fixture().layout);

/** A 32-byte line image (with its word view) filled from f(byte index). */
function line(f: (i: number) => number): { u8: Uint8Array; u32: Uint32Array } {
  const u32 = new Uint32Array(LINE_WORDS);
  const u8 = new Uint8Array(u32.buffer);
  for (let i = 0; i < LINE_BYTES; i++) u8[i] = f(i) & 0xff;
  return { u8, u32 };
}

function write(v: Views, lineId: number, mask: number, src: { u8: Uint8Array; u32: Uint32Array }): void {
  writeCommittedLine(v, lineId, mask, src.u8, 0, src.u32, 0);
}

function read(v: Views, lineId: number): number[] {
  const dst = line(() => 0x5a); // garbage that a read must overwrite
  readCommittedLine(v, lineId, dst.u32, 0);
  return Array.from(dst.u8);
}

const ZERO = new Array<number>(LINE_BYTES).fill(0);

describe('readCommittedLine', () => {
  it('untouched DRAM reads as zero in every controller, at low and high offsets, without allocating', () => {
    const v = fixture();
    for (let m = 0; m < v.layout.controllers; m++)
      for (const off of [0, 32, BLOCK_BYTES - 32, BLOCK_BYTES, 0x7fffffe0, 8 * 1024 ** 3 - 32]) expect(read(v, dramLineId(m, off))).toEqual(ZERO);
    expect(v.ctl[CTL.poolNext]).toBe(0);
    expect(v.blocks.every((b) => b === 0)).toBe(true);
  });

  it('fills exactly the eight words at dstWord and nothing around them', () => {
    const v = fixture();
    write(v, dramLineId(1, 64), 0xffffffff, line((i) => i + 1));
    const dst = new Uint32Array(3 * LINE_WORDS).fill(0xcafef00d);
    readCommittedLine(v, dramLineId(1, 64), dst, LINE_WORDS);
    readCommittedLine(v, dramLineId(1, 96), dst, 2 * LINE_WORDS); // untouched line of a touched block
    expect(Array.from(dst.subarray(0, LINE_WORDS))).toEqual(new Array<number>(LINE_WORDS).fill(0xcafef00d));
    expect(Array.from(new Uint8Array(dst.buffer, LINE_BYTES, LINE_BYTES))).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(Array.from(dst.subarray(2 * LINE_WORDS))).toEqual(new Array<number>(LINE_WORDS).fill(0));
  });
});

describe('writeCommittedLine: DRAM', () => {
  it('a full mask (0xffffffff or -1) replaces the whole line; neighbouring lines stay zero', () => {
    const v = fixture();
    const a = line((i) => 0xa0 + i);
    write(v, dramLineId(0, 4096), 0xffffffff, a);
    expect(read(v, dramLineId(0, 4096))).toEqual(Array.from(a.u8));
    expect(read(v, dramLineId(0, 4096 - 32))).toEqual(ZERO);
    expect(read(v, dramLineId(0, 4096 + 32))).toEqual(ZERO);
    expect(read(v, dramLineId(1, 4096))).toEqual(ZERO); // same offset, another controller
    const b = line((i) => 200 - i);
    write(v, dramLineId(0, 4096), -1, b);
    expect(read(v, dramLineId(0, 4096))).toEqual(Array.from(b.u8));
  });

  it('takes the image at srcOff / srcWord of a larger buffer', () => {
    const v = fixture();
    const src32 = new Uint32Array(4 * LINE_WORDS);
    const src = new Uint8Array(src32.buffer);
    for (let i = 0; i < src.length; i++) src[i] = i;
    writeCommittedLine(v, dramLineId(2, 0), 0xffffffff, src, 64, src32, 16);
    writeCommittedLine(v, dramLineId(2, 32), 0x0000000f, src, 96, src32, 24);
    expect(read(v, dramLineId(2, 0))).toEqual(Array.from({ length: 32 }, (_, i) => 64 + i));
    expect(read(v, dramLineId(2, 32))).toEqual([96, 97, 98, 99, ...new Array<number>(28).fill(0)]);
  });

  it('a partial byte mask changes only the masked bytes (bit i = byte i, bit 31 included)', () => {
    const v = fixture();
    const id = dramLineId(3, 1024);
    write(v, id, 0xffffffff, line(() => 0x11));
    const mask = (0x8000f00f | 0x00010000) >>> 0; // bytes 0..3, 12..15, 16, 31
    write(v, id, mask, line((i) => 0xe0 + i));
    const expected = Array.from({ length: 32 }, (_, i) => ((mask >>> i) & 1 ? 0xe0 + i : 0x11));
    expect(read(v, id)).toEqual(expected);
    expect(expected.filter((b) => b !== 0x11)).toHaveLength(10);
    write(v, id, 0, line(() => 0xff)); // an empty mask changes nothing
    expect(read(v, id)).toEqual(expected);
  });

  it('a partial write to an untouched block allocates it and leaves the other bytes zero', () => {
    const v = fixture();
    const id = dramLineId(0, 5 * BLOCK_BYTES + 320);
    write(v, id, 0x00000030, line(() => 0x77)); // bytes 4 and 5
    expect(read(v, id)).toEqual(Array.from({ length: 32 }, (_, i) => (i === 4 || i === 5 ? 0x77 : 0)));
    expect(v.ctl[CTL.poolNext]).toBe(1);
  });

  it('matches a byte model over random masked writes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ slot: fc.integer({ min: 0, max: 3 }), mask: fc.integer({ min: 0, max: 0xffffffff }), seed: fc.integer({ min: 0, max: 255 }) }), { maxLength: 40 }),
        (writes) => {
          const v = cleanFixture();
          const ids = [dramLineId(0, 0), dramLineId(0, 32), dramLineId(1, BLOCK_BYTES * 3), dramLineId(3, BLOCK_BYTES - 32)];
          const model = ids.map(() => new Array<number>(LINE_BYTES).fill(0));
          for (const w of writes) {
            const src = line((i) => w.seed * 31 + i * 7);
            write(v, ids[w.slot]!, w.mask, src);
            for (let i = 0; i < LINE_BYTES; i++) if ((w.mask >>> i) & 1) model[w.slot]![i] = src.u8[i]!;
          }
          ids.forEach((id, s) => expect(read(v, id)).toEqual(model[s]));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('writeCommittedLine: word fast paths against the byte loop', () => {
  /** Masks of every path: full line, one aligned word, whole words, unaligned runs, bytes, empty. */
  const wordsMask = (words: number) => Array.from({ length: 8 }, (_, j) => ((words >>> j) & 1 ? 0xf << (4 * j) : 0)).reduce((a, b) => (a | b) >>> 0, 0);
  const maskArb = fc.oneof(
    fc.constantFrom(-1, 0xffffffff, 0),
    fc.integer({ min: 0, max: 7 }).map((j) => (0xf << (4 * j)) >>> 0), // a scalar 32-bit store
    fc.integer({ min: 1, max: 27 }).filter((k) => k % 4 !== 0).map((k) => (0xf << k) >>> 0), // 4 bytes, unaligned
    fc.integer({ min: 1, max: 255 }).map(wordsMask), // whole words (a float64 store: two)
    fc.tuple(fc.integer({ min: 1, max: 255 }), fc.integer({ min: 0, max: 31 })).map(([w, b]) => (wordsMask(w) ^ (1 << b)) >>> 0), // a byte more or less
    fc.integer({ min: 0, max: 31 }).map((b) => (1 << b) >>> 0),
    fc.integer({ min: 0, max: 0xffffffff }),
  );
  // three adjacent lines in DRAM (a block boundary between the last two) and in one MPB
  const targets = [dramLineId(2, BLOCK_BYTES - 64), dramLineId(2, BLOCK_BYTES - 32), dramLineId(2, BLOCK_BYTES), mpbLineId(5, 224), mpbLineId(5, 256), mpbLineId(5, 288)];

  it('any mask, image offset and prior content gives the bytes of the byte loop, and nothing else changes (seeded property)', () => {
    const src32 = new Uint32Array(4 * LINE_WORDS);
    const src = new Uint8Array(src32.buffer);
    const seen = { full: 0, word: 0, words: 0, bytes: 0 }; // writes per kind of mask, so every path is exercised
    fc.assert(
      fc.property(
        fc.array(fc.record({ target: fc.integer({ min: 0, max: targets.length - 1 }), mask: maskArb, at: fc.integer({ min: 0, max: 3 }), bytes: fc.uint8Array({ minLength: 128, maxLength: 128 }) }), { minLength: 1, maxLength: 30 }),
        (writes) => {
          const v = cleanFixture();
          const model = targets.map(() => new Array<number>(LINE_BYTES).fill(0));
          for (const w of writes) {
            src.set(w.bytes); // every byte of the buffer differs from run to run: a stray copy shows
            const off = w.at * LINE_BYTES;
            writeCommittedLine(v, targets[w.target]!, w.mask, src, off, src32, off >>> 2);
            for (let i = 0; i < LINE_BYTES; i++) if ((w.mask >>> i) & 1) model[w.target]![i] = src[off + i]!;
            const m = w.mask >>> 0;
            const nibbles = Array.from({ length: 8 }, (_, j) => (m >>> (4 * j)) & 0xf);
            if (m === 0xffffffff) seen.full++;
            else if (nibbles.filter((n) => n === 0xf).length === 1 && nibbles.every((n) => n === 0 || n === 0xf)) seen.word++;
            else if (m !== 0 && nibbles.every((n) => n === 0 || n === 0xf)) seen.words++;
            else seen.bytes++;
          }
          targets.forEach((id, s) => expect(read(v, id)).toEqual(model[s]));
        },
      ),
      { seed: 20261125, numRuns: 300 },
    );
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(100);
  });

  it('each fast path writes exactly its bytes over a line of other bytes', () => {
    const v = fixture();
    const id = dramLineId(1, 4096);
    const cases: [number, number[]][] = [
      [0xf0000000, [28, 29, 30, 31]], // the last word
      [0x00000f00, [8, 9, 10, 11]],
      [0x0000ff00, [8, 9, 10, 11, 12, 13, 14, 15]], // a float64
      [0xf0f0000f, [0, 1, 2, 3, 20, 21, 22, 23, 28, 29, 30, 31]],
      [0x00000ff0, [4, 5, 6, 7, 8, 9, 10, 11]],
      [0x00001fe0, [5, 6, 7, 8, 9, 10, 11, 12]], // 8 bytes, unaligned: the byte loop
      [0x0000000e, [1, 2, 3]],
    ];
    for (const [mask, bytes] of cases) {
      write(v, id, -1, line(() => 0x11));
      write(v, id, mask, line((i) => 0x80 + i));
      expect(read(v, id)).toEqual(Array.from({ length: 32 }, (_, i) => (bytes.includes(i) ? 0x80 + i : 0x11)));
    }
  });
});

describe('MPB and test-and-set spaces', () => {
  it('an MPB line lives at tile x mpbBytes + line offset in the mpb region', () => {
    const v = fixture();
    expect(v.layout.mpbBytes).toBe(16384);
    expect(mpbByteOffset(v, mpbLineId(0, 0))).toBe(0);
    expect(mpbByteOffset(v, mpbLineId(3, 8192 + 40))).toBe(3 * 16384 + 8192 + 32); // line-aligned
    expect(mpbByteOffset(v, mpbLineId(23, 16384 - 32))).toBe(24 * 16384 - 32);
    const id = mpbLineId(7, 256);
    const a = line((i) => 3 * i + 1);
    write(v, id, 0xffffffff, a);
    expect(Array.from(v.mpb.subarray(7 * 16384 + 256, 7 * 16384 + 288))).toEqual(Array.from(a.u8));
    expect(read(v, id)).toEqual(Array.from(a.u8));
    expect(read(v, mpbLineId(6, 256))).toEqual(ZERO); // the same offset in another tile
    expect(read(v, mpbLineId(7, 224))).toEqual(ZERO);
    write(v, id, 0x000000f0, line(() => 0)); // partial: bytes 4..7 cleared
    expect(read(v, id)).toEqual(Array.from(a.u8, (b, i) => (i >= 4 && i < 8 ? 0 : b)));
    expect(v.ctl[CTL.poolNext]).toBe(0); // the MPB is not DRAM: no pool block
  });

  it('tiles are mpbBytes apart when the MPB is smaller than 16 KB', () => {
    const layout = computeLayout(resolveChip('scc', { memory: { poolBytes: BLOCK_BYTES }, mpb: { bytesPerTile: 8192, localAccessCycles: 15, remoteAccessCycles: 45 } }), { wlogCap: 64, txnCap: 64 });
    const v = freshState(layout);
    expect(v.mpb.length).toBe(24 * 8192);
    expect(mpbByteOffset(v, mpbLineId(3, 8192 - 32))).toBe(4 * 8192 - 32);
    const a = line((i) => i ^ 0x5c);
    write(v, mpbLineId(23, 8192 - 32), 0xffffffff, a);
    expect(Array.from(v.mpb.subarray(24 * 8192 - 32))).toEqual(Array.from(a.u8));
    expect(read(v, mpbLineId(23, 8192 - 32))).toEqual(Array.from(a.u8));
  });

  it('a register reads as the first byte of its line; a write stores the first byte of the image', () => {
    const v = fixture();
    expect(read(v, tasLineId(5))).toEqual(ZERO);
    write(v, tasLineId(5), 1, line((i) => (i === 0 ? 1 : 0x99)));
    expect(v.tas[5]).toBe(1);
    expect(v.tas[4]).toBe(0);
    expect(read(v, tasLineId(5))).toEqual([1, ...new Array<number>(31).fill(0)]);
    write(v, tasLineId(5), 1, line(() => 0));
    expect(v.tas[5]).toBe(0);
    expect(read(v, tasLineId(5))).toEqual(ZERO);
    v.tas[47] = 0x1ff; // only the low byte shows
    expect(read(v, tasLineId(47))).toEqual([0xff, ...new Array<number>(31).fill(0)]);
    expect(v.ctl[CTL.poolNext]).toBe(0);
  });
});

describe('DRAM pool blocks', () => {
  it('allocates one 128 KB block per touched block, on its first write, per controller', () => {
    const v = fixture(8 * BLOCK_BYTES);
    expect(v.ctl[CTL.poolNext]).toBe(0);
    write(v, dramLineId(0, 64), 0xffffffff, line(() => 1));
    expect(v.ctl[CTL.poolNext]).toBe(1);
    expect(v.blocks[0]).toBe(1); // block table: pool block + 1
    write(v, dramLineId(0, BLOCK_BYTES - 32), 0xffffffff, line(() => 2)); // same block, last line
    write(v, dramLineId(0, 64), 0x1, line(() => 9)); // rewrite
    expect(v.ctl[CTL.poolNext]).toBe(1);
    write(v, dramLineId(0, BLOCK_BYTES), 0xffffffff, line(() => 3)); // next block
    expect(v.ctl[CTL.poolNext]).toBe(2);
    expect(v.blocks[1]).toBe(2);
    write(v, dramLineId(2, 64), 0xffffffff, line(() => 4)); // same offset, controller 2
    expect(v.ctl[CTL.poolNext]).toBe(3);
    expect(v.blocks[2 * BLOCKS_PER_CTRL]).toBe(3);
    write(v, dramLineId(1, 1000 * BLOCK_BYTES + 32), 0x3, line(() => 5)); // a far block
    expect(v.ctl[CTL.poolNext]).toBe(4);
    expect(v.blocks[BLOCKS_PER_CTRL + 1000]).toBe(4);
    // the data sits at (pool block) x 128 KB + line offset within the block
    expect(v.poolU8[64]).toBe(9);
    expect(v.poolU8[65]).toBe(1);
    expect(v.poolU8[BLOCK_BYTES - 32]).toBe(2);
    expect(v.poolU8[BLOCK_BYTES]).toBe(3);
    expect(v.poolU8[2 * BLOCK_BYTES + 64]).toBe(4);
    expect(Array.from(v.poolU8.subarray(3 * BLOCK_BYTES + 32, 3 * BLOCK_BYTES + 35))).toEqual([5, 5, 0]);
    // reads go through the table
    expect(read(v, dramLineId(1, 1000 * BLOCK_BYTES + 32))).toEqual([5, 5, ...new Array<number>(30).fill(0)]);
    expect(read(v, dramLineId(1, 64))).toEqual(ZERO);
  });

  it('throws PoolExhaustedError when a new block does not fit, and changes nothing', () => {
    const v = fixture(2 * BLOCK_BYTES); // room for two blocks
    write(v, dramLineId(0, 0), 0xffffffff, line(() => 1));
    write(v, dramLineId(1, 0), 0xffffffff, line(() => 2));
    expect(v.ctl[CTL.poolNext]).toBe(2);
    let err: unknown;
    try {
      write(v, dramLineId(2, 0), 0xffffffff, line(() => 3));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PoolExhaustedError);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('simulated DRAM pool exhausted (0.25 MB touched); raise chip memory.poolBytes');
    expect(v.ctl[CTL.poolNext]).toBe(2);
    expect(v.blocks[2 * BLOCKS_PER_CTRL]).toBe(0);
    expect(read(v, dramLineId(2, 0))).toEqual(ZERO);
    // blocks already held still take writes
    write(v, dramLineId(1, 32), 0xffffffff, line(() => 6));
    expect(read(v, dramLineId(1, 32))).toEqual(new Array<number>(32).fill(6));
    expect(() => write(v, dramLineId(0, BLOCK_BYTES), 0x1, line(() => 7))).toThrow(PoolExhaustedError);
  });

  it('rounds the pool up to whole blocks (poolBytes 200,000 holds two blocks)', () => {
    const v = fixture(200_000);
    expect(v.poolU8.length).toBe(2 * BLOCK_BYTES);
    write(v, dramLineId(0, 0), 0x1, line(() => 1));
    write(v, dramLineId(0, BLOCK_BYTES), 0x1, line(() => 1));
    expect(() => write(v, dramLineId(0, 2 * BLOCK_BYTES), 0x1, line(() => 1))).toThrow(/pool exhausted \(0\.25 MB touched\)/);
  });
});

describe('valueAt', () => {
  it('reads little-endian unsigned 1, 2, 4 byte values and float64', () => {
    const b = new Uint8Array(32);
    b.set([0x01, 0x02, 0x03, 0xf4], 4);
    expect(valueAt(b, 4, 1)).toBe(0x01);
    expect(valueAt(b, 4, 2)).toBe(0x0201);
    expect(valueAt(b, 4, 4)).toBe(0xf4030201); // unsigned, not negative
    new DataView(b.buffer).setFloat64(16, -2.5, true);
    expect(valueAt(b, 16, 8)).toBe(-2.5);
    expect(valueAt(b.subarray(8), 8, 8)).toBe(-2.5); // honours the view's byteOffset
  });
});
