/**
 * Overlay growth (overlay.ts): an overlay starts small and doubles up to its capacity; keys,
 * offsets and images survive each growth, and clear() still forgets everything in O(1).
 */
import { describe, expect, it } from 'vitest';
import { Overlay } from './overlay';
import { dramLineId, LINE_BYTES, LINE_WORDS } from './vocabulary';

describe('Overlay growth', () => {
  it('starts with room for 64 lines and grows to its capacity keeping every offset and image', () => {
    const o = new Overlay(1000);
    expect(o.data32.length).toBe(64 * LINE_WORDS);
    const key = (k: number) => dramLineId(k % 14, Math.floor(k / 14) * 4096 + 32);
    for (let k = 0; k < 1000; k++) {
      const at = o.insert(key(k));
      expect(at).toBe(k * LINE_BYTES);
      o.data32.fill(k + 1, at >>> 2, (at >>> 2) + LINE_WORDS);
    }
    expect(o.size).toBe(1000);
    expect(o.data32.length).toBe(1000 * LINE_WORDS); // 64, 128, ..., 512, then the capacity
    for (let k = 0; k < 1000; k++) {
      expect(o.find(key(k))).toBe(k * LINE_BYTES);
      expect(o.data32[k * LINE_WORDS + 7]).toBe(k + 1);
    }
    expect(o.find(key(1000))).toBe(-1);
    // keys of an earlier epoch are not carried into a grown table
    o.clear();
    for (let k = 0; k < 1000; k++) expect(o.find(key(k))).toBe(-1);
    expect(o.insert(key(3))).toBe(0);
    expect(o.find(key(4))).toBe(-1);
  });

  it('rehashes only the current epoch when it grows', () => {
    const o = new Overlay(256);
    for (let k = 0; k < 64; k++) o.insert(k * 1024);
    o.clear();
    for (let k = 0; k < 100; k++) expect(o.insert(k * 1024 + 1)).toBe(k * LINE_BYTES); // grows at 64
    for (let k = 0; k < 64; k++) expect(o.find(k * 1024)).toBe(-1);
    for (let k = 0; k < 100; k++) expect(o.find(k * 1024 + 1)).toBe(k * LINE_BYTES);
  });
});
