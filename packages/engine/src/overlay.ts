/**
 * A core's view of its own uncommitted writes (a store buffer keyed by line id).
 *
 * Contract: during an epoch a core must read what it wrote itself, while every other core
 * still sees committed memory. The overlay keeps a full 32-byte image of each line the core
 * wrote this epoch (committed bytes + its own writes). It is emptied at each epoch start in
 * O(1) by bumping an epoch tag. Open addressing over uint32 line ids; called on every
 * memory-side access (misses, uncached, MPB).
 *
 * Memory: `capacity` lines are the most it holds (the core's write-log capacity), but it starts
 * with room for INITIAL_LINES and doubles when an epoch fills it (image slots keep their
 * offsets; read `data` / `data32` after insert, as they may be new arrays). A core that writes
 * little, which is most cores of a big chip in most epochs, keeps a few KB instead of 56 B per
 * log entry (900 KB at 16384 entries). Growth depends only on what the core wrote, never on
 * results: an image's offset is its insertion order either way.
 */
import { LINE_BYTES, LINE_WORDS } from './vocabulary';

/** Lines an overlay has room for before its first growth. */
const INITIAL_LINES = 64;

export class Overlay {
  private keys!: Uint32Array;
  private tags!: Uint32Array;
  private slotOf!: Int32Array;
  /** Line images, 32 B each at the offsets insert/find return (a new array after a growth). */
  data!: Uint8Array;
  /** The same images as 32-bit words (line copies). */
  data32!: Uint32Array;
  private mask!: number;
  private epoch = 1;
  private used = 0;
  /** Lines the overlay may hold (the caller checks it before inserting a new line). */
  readonly capacity: number;
  /** Lines it has room for now (grows to `capacity`). */
  private room!: number;

  constructor(lines: number) {
    this.capacity = lines;
    this.allocate(Math.min(lines, INITIAL_LINES));
  }

  /** Fresh, empty tables and image slots with room for `room` lines. */
  private allocate(room: number): void {
    this.room = room;
    const size = Overlay.tableSize(room);
    this.keys = new Uint32Array(size);
    this.tags = new Uint32Array(size);
    this.slotOf = new Int32Array(size);
    this.mask = size - 1;
    this.data32 = new Uint32Array(room * LINE_WORDS);
    this.data = new Uint8Array(this.data32.buffer);
  }

  /** Hash-table slots for `lines` keys: a power of two, at least twice as many. */
  private static tableSize(lines: number): number {
    let size = 1;
    while (size < lines * 2) size <<= 1;
    return size;
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
    if (this.used === this.room && this.room < this.capacity) this.grow();
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

  /** Doubles the room (up to capacity): images copied to the same offsets, this epoch's keys rehashed. */
  private grow(): void {
    const { keys, tags, slotOf, data32, epoch } = this;
    this.allocate(Math.min(this.capacity, this.room * 2));
    this.data32.set(data32.subarray(0, this.used * LINE_WORDS));
    for (let j = 0; j < tags.length; j++) {
      if (tags[j] !== epoch) continue;
      let h = Math.imul(keys[j]!, 0x9e3779b1) >>> 0;
      while (this.tags[h & this.mask] === epoch) h++;
      const i = h & this.mask;
      this.tags[i] = epoch;
      this.keys[i] = keys[j]!;
      this.slotOf[i] = slotOf[j]!;
    }
  }
}
