/**
 * A core's view of its own uncommitted writes (a store buffer keyed by line id).
 *
 * Contract: during an epoch a core must read what it wrote itself, while every other core
 * still sees committed memory. The overlay keeps a full 32-byte image of each line the core
 * wrote this epoch (committed bytes + its own writes). It is emptied at each epoch start in
 * O(1) by bumping an epoch tag. Open addressing over uint32 line ids; called on every
 * memory-side access (misses, uncached, MPB): no allocation after construction.
 */
import { LINE_BYTES, LINE_WORDS } from './vocabulary';

export class Overlay {
  private readonly keys: Uint32Array;
  private readonly tags: Uint32Array;
  private readonly slotOf: Int32Array;
  readonly data: Uint8Array;
  /** The same images as 32-bit words (line copies). */
  readonly data32: Uint32Array;
  private readonly mask: number;
  private epoch = 1;
  private used = 0;
  readonly capacity: number;

  constructor(lines: number) {
    this.capacity = lines;
    let size = 1;
    while (size < lines * 2) size <<= 1;
    this.keys = new Uint32Array(size);
    this.tags = new Uint32Array(size);
    this.slotOf = new Int32Array(size);
    this.mask = size - 1;
    this.data32 = new Uint32Array(lines * LINE_WORDS);
    this.data = new Uint8Array(this.data32.buffer);
  }

  clear(): void {
    this.epoch++;
    this.used = 0;
  }

  get size(): number {
    return this.used;
  }

  /** Byte offset of the line's image in `data`, or -1. */
  find(lineId: number): number {
    if (this.used === 0) return -1;
    let h = Math.imul(lineId, 0x9e3779b1) >>> 0;
    for (;;) {
      const i = h & this.mask;
      if (this.tags[i] !== this.epoch) return -1;
      if (this.keys[i] === lineId) return this.slotOf[i]! * LINE_BYTES;
      h++;
    }
  }

  /** Adds a line (caller fills the image); returns its byte offset. Caller checks capacity. */
  insert(lineId: number): number {
    let h = Math.imul(lineId, 0x9e3779b1) >>> 0;
    for (;;) {
      const i = h & this.mask;
      if (this.tags[i] !== this.epoch) {
        this.tags[i] = this.epoch;
        this.keys[i] = lineId;
        this.slotOf[i] = this.used;
        return this.used++ * LINE_BYTES;
      }
      if (this.keys[i] === lineId) return this.slotOf[i]! * LINE_BYTES;
      h++;
    }
  }
}
