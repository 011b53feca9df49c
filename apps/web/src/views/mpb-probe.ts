/**
 * The MPB view's live sampler: once per animation frame it copies one core's MPB half out of
 * the run's shared state buffer (a plain read, never Atomics.wait: a torn line shows for one
 * frame at most), notes which 32 B lines changed, and re-decodes the fields only then.
 * DOM-free, so it is tested with plain arrays.
 */
import { decodeMpb, postedCount, regionsOf, wordRegions, type MpbCell, type MpbFields, type MpbSpec } from './mpb-decode';

export const LINE = 32;

/** Byte offset of core `core`'s MPB half in the state buffer's `mpb` region. */
export function halfOffset(core: number, mpbBytes: number, coresPerTile: number): number {
  return Math.floor(core / coresPerTile) * mpbBytes + (core % coresPerTile) * (mpbBytes / coresPerTile);
}

export class MpbProbe {
  readonly regions: MpbCell[];
  /** Region index of each 4-byte word. */
  readonly words: Uint16Array;
  /** The owner's half as last sampled. */
  readonly bytes: Uint8Array;
  /** Wall time (ms) each 32 B line last changed; -Infinity = never. */
  readonly changedAt: Float64Array;
  fields: MpbFields;
  /** Bumped whenever the sampled bytes changed. */
  version = 0;
  /** Most extended slots seen in use at once (improved channel), and that mask. */
  peakSlots = 0;
  peakMask = 0;
  /** Samples in which the posted count (sequence numbers, flags) changed. */
  seqChanges = 0;
  private lastPosted = 0;

  constructor(
    readonly spec: MpbSpec,
    readonly owner: number,
  ) {
    this.regions = regionsOf(spec);
    this.words = wordRegions(this.regions, spec.regionBytes);
    this.bytes = new Uint8Array(spec.regionBytes);
    this.changedAt = new Float64Array(Math.ceil(spec.regionBytes / LINE)).fill(-Infinity);
    this.fields = decodeMpb(spec, owner, this.bytes);
  }

  /**
   * Reads the owner's half from `mpb` (all tiles, `mpbBytes` each); null reads as zeros (no
   * run yet). Returns true when any byte changed since the last sample.
   */
  sample(mpb: Uint8Array | null, mpbBytes: number, coresPerTile: number, nowMs: number): boolean {
    const n = this.bytes.length;
    const base = halfOffset(this.owner, mpbBytes, coresPerTile);
    const b = this.bytes;
    let changed = false;
    for (let line = 0; line * LINE < n; line++) {
      const o = line * LINE;
      const end = Math.min(n, o + LINE);
      let diff = false;
      for (let i = o; i < end; i++) {
        const v = mpb && base + i < mpb.length ? mpb[base + i]! : 0;
        if (v !== b[i]) {
          b[i] = v;
          diff = true;
        }
      }
      if (diff) {
        this.changedAt[line] = nowMs;
        changed = true;
      }
    }
    if (!changed) return false;
    this.version++;
    this.fields = decodeMpb(this.spec, this.owner, b);
    const f = this.fields;
    if (f.protocol === 'rckmpi-improved' && f.slotsUsed > this.peakSlots) {
      this.peakSlots = f.slotsUsed;
      this.peakMask = f.extMask;
    }
    const posted = postedCount(f);
    if (posted !== this.lastPosted) {
      this.seqChanges++;
      this.lastPosted = posted;
    }
    return true;
  }

  /** Is any line still within `fadeMs` of its last change at `nowMs`? */
  fading(nowMs: number, fadeMs: number): boolean {
    for (let i = 0; i < this.changedAt.length; i++) if (nowMs - this.changedAt[i]! < fadeMs) return true;
    return false;
  }
}
