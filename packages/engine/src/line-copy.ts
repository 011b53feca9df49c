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
