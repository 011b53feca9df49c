/**
 * Committed system memory: sparse DRAM per controller (128 KB blocks from a shared pool,
 * allocated on a block's first committed write), one MPB per tile, test-and-set registers.
 *
 * Contract: during an epoch every thread only reads this state; only the committer writes
 * it, between epochs, in (visible time, core, sequence) order. That is what makes reads
 * deterministic. Units: bytes; lines are 32 B, named by line id (vocabulary.ts).
 */
import { BLOCK_BYTES, BLOCKS_PER_CTRL, CTL, type Views } from './layout';
import { copyLine, copyMasked } from './line-copy';
import { MPB_TILE_SHIFT, SPACE_MPB, SPACE_SHIFT, SPACE_TAS } from './vocabulary';

const LINES_PER_BLOCK_SHIFT = 12; // 4096 lines of 32 B = 128 KB
/** Shift that puts a value in byte 0 of a 32-bit word, on this host's byte order. */
const BYTE0_SHIFT = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 24;

export class PoolExhaustedError extends Error {}

/** Byte offset of a line in the MPB region. */
export function mpbByteOffset(v: Views, lineId: number): number {
  const rel = lineId & 0x0fffffff;
  const tile = rel >>> MPB_TILE_SHIFT;
  return tile * v.layout.mpbBytes + ((rel & ((1 << MPB_TILE_SHIFT) - 1)) << 5);
}

/**
 * Zeroes the line at word dstWord of dst as eight stores: TypedArray fill is a runtime call,
 * several times slower for 8 words. Called on every read of never-written memory.
 */
function zeroLine(dst: Uint32Array, dstWord: number): void {
  dst[dstWord] = 0;
  dst[dstWord + 1] = 0;
  dst[dstWord + 2] = 0;
  dst[dstWord + 3] = 0;
  dst[dstWord + 4] = 0;
  dst[dstWord + 5] = 0;
  dst[dstWord + 6] = 0;
  dst[dstWord + 7] = 0;
}

/** Copies the committed 32 bytes of a line into dst (a word view) at word dstWord. Called on every memory read. */
export function readCommittedLine(v: Views, lineId: number, dst: Uint32Array, dstWord: number): void {
  const space = lineId >>> SPACE_SHIFT;
  if (space === SPACE_MPB) {
    copyLine(dst, dstWord, v.mpb32, mpbByteOffset(v, lineId) >>> 2);
    return;
  }
  if (space === SPACE_TAS) {
    zeroLine(dst, dstWord);
    dst[dstWord] = (v.tas[lineId & 0x0fffffff]! & 0xff) << BYTE0_SHIFT; // the register is the line's first byte
    return;
  }
  const line = lineId & 0x0fffffff;
  const b = v.blocks[space * BLOCKS_PER_CTRL + (line >>> LINES_PER_BLOCK_SHIFT)]!;
  if (b === 0) {
    // never written: zeros (every read of untouched DRAM, e.g. a stream over a fresh buffer)
    zeroLine(dst, dstWord);
    return;
  }
  copyLine(dst, dstWord, v.pool32, ((b - 1) * BLOCK_BYTES + ((line & ((1 << LINES_PER_BLOCK_SHIFT) - 1)) << 5)) >>> 2);
}

/**
 * Applies a masked line write to committed memory (committer only): bit i of `mask` set means
 * byte i of the line takes byte i of the image; the other bytes of the image are never read
 * (a logged word store leaves them stale, CoreBase.appendWord). The image is at byte srcOff of
 * src and at word srcWord of src32 (the same bytes). Called on every committed write: the copy
 * is line-copy.ts copyMasked (word copies for the common masks), shared with the core's overlay.
 */
export function writeCommittedLine(v: Views, lineId: number, mask: number, src: Uint8Array, srcOff: number, src32: Uint32Array, srcWord: number): void {
  const space = lineId >>> SPACE_SHIFT;
  let base: Uint8Array;
  let base32: Uint32Array;
  let o: number;
  if (space === SPACE_MPB) {
    base = v.mpb;
    base32 = v.mpb32;
    o = mpbByteOffset(v, lineId);
  } else if (space === SPACE_TAS) {
    v.tas[lineId & 0x0fffffff] = src[srcOff]!;
    return;
  } else {
    const line = lineId & 0x0fffffff;
    const bi = space * BLOCKS_PER_CTRL + (line >>> LINES_PER_BLOCK_SHIFT);
    let b = v.blocks[bi]!;
    if (b === 0) {
      const next = v.ctl[CTL.poolNext]!;
      if ((next + 1) * BLOCK_BYTES > v.poolU8.length)
        throw new PoolExhaustedError(
          `simulated DRAM pool exhausted (${v.poolU8.length / 1048576} MB touched); raise chip memory.poolBytes`,
        );
      v.ctl[CTL.poolNext] = next + 1;
      b = next + 1;
      v.blocks[bi] = b;
    }
    base = v.poolU8;
    base32 = v.pool32;
    o = (b - 1) * BLOCK_BYTES + ((line & ((1 << LINES_PER_BLOCK_SHIFT) - 1)) << 5);
  }
  copyMasked(base, base32, o, src, srcOff, src32, srcWord, mask);
}

/** Reads a little-endian value of `size` bytes (1, 2, 4 unsigned; 8 = float64) from 32 line bytes. */
export function valueAt(bytes: Uint8Array, off: number, size: number): number {
  if (size === 1) return bytes[off]!;
  if (size === 2) return bytes[off]! | (bytes[off + 1]! << 8);
  if (size === 4) return (bytes[off]! | (bytes[off + 1]! << 8) | (bytes[off + 2]! << 16) | (bytes[off + 3]! << 24)) >>> 0;
  const dv = new DataView(bytes.buffer as ArrayBuffer, bytes.byteOffset + off, 8);
  return dv.getFloat64(0, true);
}
