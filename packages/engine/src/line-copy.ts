/**
 * Copying one 32-byte line between line buffers as eight 32-bit words.
 *
 * Contract: both views are Uint32Array views of line-aligned storage (cache data, MPBs, the
 * DRAM pool, overlays, the write log, a core's line buffers), offsets in words (byte offset
 * / 4) and multiples of 8. Called on every line fill, memory read and logged write: no
 * allocation (a `set(subarray())` allocates a view per call and is several times slower).
 */
export function copyLine(dst: Uint32Array, dstWord: number, src: Uint32Array, srcWord: number): void {
  dst[dstWord] = src[srcWord]!;
  dst[dstWord + 1] = src[srcWord + 1]!;
  dst[dstWord + 2] = src[srcWord + 2]!;
  dst[dstWord + 3] = src[srcWord + 3]!;
  dst[dstWord + 4] = src[srcWord + 4]!;
  dst[dstWord + 5] = src[srcWord + 5]!;
  dst[dstWord + 6] = src[srcWord + 6]!;
  dst[dstWord + 7] = src[srcWord + 7]!;
}

/**
 * Copies `n` bytes (at most a line) between byte views: the partial-line copies of stores,
 * range reads and the write-combine buffer. Called on every store and range access: a loop,
 * no view allocated.
 */
export function copyBytes(dst: Uint8Array, dstOff: number, src: Uint8Array, srcOff: number, n: number): void {
  for (let i = 0; i < n; i++) dst[dstOff + i] = src[srcOff + i]!;
}

/**
 * Copies the bytes of one line that `mask` selects (bit i: byte i) from the image at byte
 * srcOff of src (and at word srcWord of src32: the same bytes) to the line at byte dstOff of dst
 * (dst32 a word view of the same buffer); the image's other bytes are never read. Offsets are line-aligned. Called on every
 * logged write (the core's overlay) and every committed write, so the common masks take word
 * copies (the same bytes as a byte loop): a full line, one aligned 32-bit word (a scalar
 * store), whole aligned words (a float64 store, a write-combined run); otherwise the set bits.
 */
export function copyMasked(dst: Uint8Array, dst32: Uint32Array, dstOff: number, src: Uint8Array, srcOff: number, src32: Uint32Array, srcWord: number, mask: number): void {
  const m = mask >>> 0;
  if (m === 0xffffffff) {
    copyLine(dst32, dstOff >>> 2, src32, srcWord);
    return;
  }
  const lo = 31 - Math.clz32(m & -m); // the lowest byte written (-1 for an empty mask)
  if ((lo & 3) === 0 && m === (0xf << lo) >>> 0) {
    dst32[(dstOff + lo) >>> 2] = src32[srcWord + (lo >>> 2)]!; // one aligned word: a scalar store
    return;
  }
  const words = m & 0x11111111; // bit 4j set: byte 4j of word j is written
  if (words * 0xf === m) {
    // whole aligned words only (each nibble of the mask 0 or 0xf; 0x11111111 x 15 < 2^36, exact)
    for (let w = words; w !== 0; w = (w & (w - 1)) >>> 0) {
      const i = 31 - Math.clz32(w & -w);
      dst32[(dstOff + i) >>> 2] = src32[srcWord + (i >>> 2)]!;
    }
    return;
  }
  for (let r = m; r !== 0; r = (r & (r - 1)) >>> 0) {
    const i = 31 - Math.clz32(r & -r); // the lowest byte still to copy
    dst[dstOff + i] = src[srcOff + i]!;
  }
}
