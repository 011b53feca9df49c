/**
 * A private set-associative cache that holds real data, so a stale copy is really stale.
 *
 * Contract: keys are system line numbers as Int32 (the SCC: line ids, vocabulary.ts, `| 0`;
 * TILE64: physical lines of the level's line size, tags only via fillTag); a slot is
 * set * ways + way.
 * lookup() returns the slot or -1 and updates LRU on a hit; victim() picks the slot to fill
 * (an invalid way first, else least recently used); fill() installs a line's 32 bytes (from a word view).
 * Units: bytes, slots. Invariants: a key appears at most once in a set; flags bit 0 = dirty,
 * bit 1 = MPBT line. State lives in the shared buffer so the lab can show occupancy; only
 * the owning core's thread writes it. lookup/touch are called on every cached access:
 * no allocation, typed arrays only.
 */
import { copyLine } from './line-copy';
import { LINE_BYTES, LINE_WORDS } from './vocabulary';

export const FLAG_DIRTY = 1;
export const FLAG_MPBT = 2;

export class Cache {
  readonly sets: number;
  readonly ways: number;
  readonly slots: number;
  readonly tags: Int32Array; // key, or -1 when invalid
  readonly lru: Uint32Array;
  readonly flags: Uint8Array;
  readonly data: Uint8Array;
  /** The same data as 32-bit words (line copies). */
  readonly data32: Uint32Array;
  private readonly setMask: number;
  private stamp = 1;
  /** Valid lines (kept incrementally so the lab can show occupancy cheaply). */
  valid = 0;

  constructor(buffer: SharedArrayBuffer | ArrayBuffer, byteOffset: number, sets: number, ways: number) {
    this.sets = sets;
    this.ways = ways;
    this.slots = sets * ways;
    this.setMask = sets - 1;
    const n = this.slots;
    this.tags = new Int32Array(buffer, byteOffset, n);
    this.lru = new Uint32Array(buffer, byteOffset + n * 4, n);
    this.flags = new Uint8Array(buffer, byteOffset + n * 8, n);
    const dataOff = Math.ceil((byteOffset + n * 9) / 8) * 8;
    this.data = new Uint8Array(buffer, dataOff, n * LINE_BYTES);
    this.data32 = new Uint32Array(buffer, dataOff, n * LINE_WORDS);
    let maxStamp = 0;
    for (let i = 0; i < n; i++) if (this.lru[i]! > maxStamp) maxStamp = this.lru[i]!;
    this.stamp = maxStamp + 1;
    for (let i = 0; i < n; i++) if (this.tags[i] !== -1) this.valid++;
  }

  /** Marks every slot invalid (start of a run). */
  reset(): void {
    this.tags.fill(-1);
    this.lru.fill(0);
    this.flags.fill(0);
    this.stamp = 1;
    this.valid = 0;
  }

  /** Slot holding `key`, or -1. Updates LRU on a hit. Called on every cached access. */
  lookup(key: number): number {
    const base = (key & this.setMask) * this.ways;
    const end = base + this.ways;
    const tags = this.tags;
    for (let s = base; s < end; s++)
      if (tags[s] === key) {
        this.lru[s] = this.stamp++;
        return s;
      }
    return -1;
  }

  /** Slot holding `key`, or -1, without touching LRU. */
  probe(key: number): number {
    const base = (key & this.setMask) * this.ways;
    for (let w = 0; w < this.ways; w++) if (this.tags[base + w] === key) return base + w;
    return -1;
  }

  /** The slot a fill of `key` would use. */
  victim(key: number): number {
    const base = (key & this.setMask) * this.ways;
    let best = base;
    for (let w = 0; w < this.ways; w++) {
      const s = base + w;
      if (this.tags[s] === -1) return s;
      if (this.lru[s]! < this.lru[best]!) best = s;
    }
    return best;
  }

  /** Installs key in slot with the 32 bytes at word srcWord of src. Called on every fill. */
  fill(slot: number, key: number, src: Uint32Array, srcWord: number, flags: number): void {
    if (this.tags[slot] === -1) this.valid++;
    this.tags[slot] = key;
    this.flags[slot] = flags;
    this.lru[slot] = this.stamp++;
    copyLine(this.data32, slot * LINE_WORDS, src, srcWord);
  }

  /** Installs key in slot without data (tag-only caches: timing and occupancy). */
  fillTag(slot: number, key: number, flags: number): void {
    if (this.tags[slot] === -1) this.valid++;
    this.tags[slot] = key;
    this.flags[slot] = flags;
    this.lru[slot] = this.stamp++;
  }

  invalidate(slot: number): void {
    if (this.tags[slot] !== -1) this.valid--;
    this.tags[slot] = -1;
    this.flags[slot] = 0;
  }


  validLines(): number {
    let n = 0;
    for (let i = 0; i < this.slots; i++) if (this.tags[i] !== -1) n++;
    return n;
  }
}
