/**
 * MPB layouts of the two RCKMPI channels (scc.md section 3), per process (8 KB MPB half).
 *
 * original: the 8 KB is cut at start-up into one equal exclusive write section per process,
 *   at the RECEIVER: section s of process r's MPB is written only by process s. Section size
 *   = (8160 / n) rounded down to 32 B (160 B at 48 processes), of which 12 B metadata:
 *     [0..3] flag / packet sequence number (0 = empty; the receiver clears it when done)
 *     [4..7] packet payload bytes
 *     [8..11] message size (low 24 bits) and tag (high 8 bits)
 *   The last 32 B line holds the wake word (see below).
 *
 * improved: 48 base sections of 64 B at the RECEIVER (16 B metadata + 48 B inline payload):
 *     [0..1] checksum of the packet fields   [2..3] packet payload bytes
 *     [4..7] extended-section control: the 32-bit mask of the sender's slots holding this packet
 *     [8..11] message size (24 bits) and tag (8 bits)
 *     [12..13] receive sequence number: packets of the section's owner this sender has consumed
 *     [14..15] send sequence number: packets this sender has posted here
 *   then a 4 KB general extended section at the SENDER: 32 slots of 128 B, with a 32-bit
 *   occupancy mask, most significant bit = slot 0 (1536 B in slots 0..11 -> 0xFFF00000);
 *   then 1 KB other (mask word, wake word).
 *
 * The wake word (both layouts) is the lab's stand-in for spinning: every write that may end a
 * wait of the owner (a new packet, a freed section, an acknowledgement) also stores a fresh
 * value there, so a process that has polled all its sections without finding work can sleep
 * until that word changes, instead of spinning in simulation. It never replaces a poll: after
 * every wake the process reads all its sections again.
 */

export type Channel = 'original' | 'improved';

export const MPB_REGION = 8192;
export const ORIG_META = 12;
export const ORIG_USABLE = 8160;
export const ORIG_WAKE = 8160;

export const IMP_BASE = 64;
export const IMP_META = 16;
export const IMP_INLINE = IMP_BASE - IMP_META; // 48
export const IMP_MAX_PROCS = 48;
export const IMP_EXT = IMP_MAX_PROCS * IMP_BASE; // 3072
export const IMP_SLOT = 128;
export const IMP_SLOTS = 32;
export const IMP_MASK = IMP_EXT + IMP_SLOT * IMP_SLOTS; // 7168
export const IMP_WAKE = IMP_MASK + 32; // 7200
/** Slots one packet may take: half the extended section, so the next packet streams in behind it. */
export const IMP_PACKET_SLOTS = 16;

/** Section size of the original layout for n processes (multiple of 32 B). */
export function originalSectionBytes(n: number): number {
  return Math.floor(ORIG_USABLE / Math.max(n, 1) / 32) * 32;
}

export interface MpbRegion {
  offset: number;
  bytes: number;
  kind: 'section' | 'metadata' | 'payload' | 'ext-slot' | 'mask' | 'wake' | 'unused';
  /** rank that writes it (sections), or the owner */
  writer?: number;
  label: string;
}

/** The regions of one process's 8 KB MPB half for a channel and process count (for the MPB view). */
export function mpbLayout(channel: Channel, processes: number): MpbRegion[] {
  const out: MpbRegion[] = [];
  if (channel === 'original') {
    const s = originalSectionBytes(processes);
    for (let r = 0; r < processes; r++) {
      out.push({ offset: r * s, bytes: ORIG_META, kind: 'metadata', writer: r, label: `from rank ${r}: flag/seq, packet bytes, size+tag` });
      out.push({ offset: r * s + ORIG_META, bytes: s - ORIG_META, kind: 'payload', writer: r, label: `from rank ${r}: payload (${s - ORIG_META} B)` });
    }
    if (processes * s < ORIG_WAKE) out.push({ offset: processes * s, bytes: ORIG_WAKE - processes * s, kind: 'unused', label: 'unused' });
    out.push({ offset: ORIG_WAKE, bytes: 32, kind: 'wake', label: 'wake word' });
    return out;
  }
  for (let r = 0; r < IMP_MAX_PROCS; r++) {
    out.push({ offset: r * IMP_BASE, bytes: IMP_META, kind: 'metadata', writer: r, label: `from rank ${r}: checksum, size, ext mask, seqs` });
    out.push({ offset: r * IMP_BASE + IMP_META, bytes: IMP_INLINE, kind: 'payload', writer: r, label: `from rank ${r}: inline payload (48 B)` });
  }
  for (let k = 0; k < IMP_SLOTS; k++)
    out.push({ offset: IMP_EXT + k * IMP_SLOT, bytes: IMP_SLOT, kind: 'ext-slot', label: `extended slot ${k} (mask bit ${31 - k})` });
  out.push({ offset: IMP_MASK, bytes: 4, kind: 'mask', label: 'extended-section occupancy mask (MSB = slot 0)' });
  out.push({ offset: IMP_WAKE, bytes: 32, kind: 'wake', label: 'wake word' });
  return out;
}
