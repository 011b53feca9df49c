/**
 * Decoding one core's MPB half (the 8 KB the message-passing libraries own) for the MPB view:
 * which protocol layout applies to a workload, the regions of that layout, and the live fields
 * (flags, sequence numbers, masks) read from the bytes. Pure: bytes in, fields out.
 *
 * Layouts (packages/workloads): RCKMPI original / improved channels (rckmpi/layout.ts, all
 * metadata little-endian as the engine's load16/load32 read it), RCCE's communication buffer
 * and flag line (rcce/index.ts). Workloads with their own ad-hoc MPB use ('raw') show bytes only.
 */
import {
  BARRIER_COUNT,
  BARRIER_GEN,
  FLAG_READY,
  FLAG_SENT,
  FLAG_VERSION,
  IMP_BASE,
  IMP_EXT,
  IMP_MASK,
  IMP_META,
  IMP_SLOT,
  IMP_SLOTS,
  IMP_WAKE,
  mpbLayout,
  ORIG_META,
  ORIG_WAKE,
  originalSectionBytes,
  rcceLayout,
  RCCE_FLAG_OFFSET,
  RCCE_MAX_CORES,
  rckmpiChecksum,
  type Channel,
} from '@manycore/workloads';

export type MpbProtocol = 'rckmpi-original' | 'rckmpi-improved' | 'rcce' | 'raw';

export interface MpbSpec {
  protocol: MpbProtocol;
  /** Core id of each rank (RCKMPI: rank = index), or the RCCE communicator. */
  members: readonly number[];
  /** Bytes of one core's MPB half (8192 on the SCC). */
  regionBytes: number;
}

/** Workloads whose cores talk through RCCE (rcce/index.ts) for all their messages. */
export const RCCE_WORKLOADS = ['rcce-pair', 'rcce-bcast', 'nbody-ring', 'concordance'] as const;
/** Workloads the MPB view is registered for. */
export const MPB_VIEW_WORKLOADS = ['mpi-sweep', ...RCCE_WORKLOADS, 'socket-pingpong', 'mpb-pingpong'] as const;

/** The MPB protocol of a workload run (from its parsed parameters and participants). */
export function mpbSpecOf(workload: string, params: Record<string, unknown>, participants: readonly number[], regionBytes: number): MpbSpec {
  let protocol: MpbProtocol = 'raw';
  if (regionBytes >= 8192) {
    if (workload === 'mpi-sweep') protocol = params.channel === 'original' ? 'rckmpi-original' : 'rckmpi-improved';
    else if ((RCCE_WORKLOADS as readonly string[]).includes(workload)) protocol = 'rcce';
    else if (workload === 'socket-pingpong' && params.transport === 'rcce') protocol = 'rcce';
  }
  return { protocol, members: participants, regionBytes };
}

export type MpbKind = 'metadata' | 'payload' | 'ext-slot' | 'mask' | 'wake' | 'flags' | 'seq' | 'barrier' | 'unused';

export const KIND_LABEL: Record<MpbKind, string> = {
  metadata: 'section metadata',
  payload: 'payload',
  'ext-slot': 'extended slot',
  mask: 'occupancy mask',
  wake: 'wake word',
  flags: 'flag bits',
  seq: 'flag version',
  barrier: 'barrier',
  unused: 'unused',
};

export interface MpbCell {
  offset: number;
  bytes: number;
  kind: MpbKind;
  label: string;
  /** Rank that writes it (RCKMPI sections). */
  writer?: number;
}

/** The regions of the layout in address order, gaps filled with 'unused', covering [0, regionBytes). */
export function regionsOf(spec: MpbSpec): MpbCell[] {
  let raw: MpbCell[];
  if (spec.protocol === 'rckmpi-original' || spec.protocol === 'rckmpi-improved') {
    const channel: Channel = spec.protocol === 'rckmpi-original' ? 'original' : 'improved';
    raw = mpbLayout(channel, spec.members.length).map((r) => ({ offset: r.offset, bytes: r.bytes, kind: r.kind === 'section' ? 'payload' : r.kind, label: r.label, ...(r.writer !== undefined ? { writer: r.writer } : {}) }));
  } else if (spec.protocol === 'rcce') {
    raw = rcceLayout().map((r) => ({
      offset: r.offset,
      bytes: r.bytes,
      kind: r.kind === 'comm' ? 'payload' : r.kind === 'flags' ? 'flags' : r.kind === 'seq' ? 'seq' : r.kind === 'barrier' ? 'barrier' : 'unused',
      label: r.label,
    }));
  } else raw = [{ offset: 0, bytes: spec.regionBytes, kind: 'payload', label: 'MPB bytes (this workload uses its own layout)' }];
  raw.sort((a, b) => a.offset - b.offset);
  const out: MpbCell[] = [];
  let at = 0;
  for (const r of raw) {
    if (r.offset > at) out.push({ offset: at, bytes: r.offset - at, kind: 'unused', label: 'unused' });
    out.push(r);
    at = Math.max(at, r.offset + r.bytes);
  }
  if (at < spec.regionBytes) out.push({ offset: at, bytes: spec.regionBytes - at, kind: 'unused', label: 'unused' });
  return out;
}

/** Index into `regions` of the region holding each 4-byte word of the half. */
export function wordRegions(regions: readonly MpbCell[], regionBytes: number): Uint16Array {
  const out = new Uint16Array(Math.ceil(regionBytes / 4));
  regions.forEach((r, i) => {
    for (let w = Math.floor(r.offset / 4); w < Math.ceil((r.offset + r.bytes) / 4) && w < out.length; w++) out[w] = i;
  });
  return out;
}

// ---------------------------------------------------------------------------- fields

const u16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number) => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;

export interface OriginalSection {
  rank: number;
  core: number;
  offset: number;
  /** Packet sequence number; 0 = empty (the receiver clears it when done). */
  flag: number;
  packetBytes: number;
  /** Size of the whole message (24 bits) and its tag (8 bits). */
  size: number;
  tag: number;
}

export interface ImprovedSection {
  rank: number;
  core: number;
  offset: number;
  /** All 16 metadata bytes are zero: nothing was ever posted here. */
  empty: boolean;
  checksum: number;
  /** The checksum matches the packet fields (a complete, consistent post). */
  checksumOk: boolean;
  packetBytes: number;
  /** The sender's extended slots that hold this packet (MSB = slot 0); 0 = payload inline. */
  extMask: number;
  size: number;
  tag: number;
  /** Packets of this MPB's owner that the writer has consumed (mod 2^16). */
  recvSeq: number;
  /** Packets the writer has posted here (mod 2^16). */
  sendSeq: number;
}

export interface RcceFlags {
  /** Cores whose "sent" bit is set: they have a chunk for this core in their buffer. */
  sent: number[];
  /** Cores whose "ready" bit is set: they took this core's chunk. */
  ready: number[];
  version: number;
  barrierCount: number;
  barrierGen: number;
}

export type MpbFields =
  | { protocol: 'rckmpi-original'; rank: number; sectionBytes: number; sections: OriginalSection[]; wake: number; nonZeroBytes: number }
  | { protocol: 'rckmpi-improved'; rank: number; sections: ImprovedSection[]; extMask: number; slotsUsed: number; wake: number; nonZeroBytes: number }
  | { protocol: 'rcce'; flags: RcceFlags; nonZeroBytes: number }
  | { protocol: 'raw'; nonZeroBytes: number };

function nonZero(b: Uint8Array, n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (b[i] !== 0) k++;
  return k;
}

function bitsSet(b: Uint8Array, o: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) if ((b[o + (i >>> 3)]! >>> (i & 7)) & 1) out.push(i);
  return out;
}

export function popcount32(x: number): number {
  let v = x >>> 0;
  let n = 0;
  while (v) {
    v &= v - 1;
    n++;
  }
  return n;
}

/** A 32-bit mask as 0xFFF00000. */
export function hex32(x: number): string {
  return `0x${(x >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

/** Extended slots named by a mask (MSB = slot 0), in slot order. */
export function maskSlots(mask: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 32; k++) if ((mask >>> (31 - k)) & 1) out.push(k);
  return out;
}

/**
 * The live fields of core `owner`'s MPB half `bytes` (its first spec.regionBytes bytes) under
 * the layout of `spec`. Sections are listed by writer rank, the owner's own rank left out.
 */
export function decodeMpb(spec: MpbSpec, owner: number, bytes: Uint8Array): MpbFields {
  const nz = nonZero(bytes, Math.min(bytes.length, spec.regionBytes));
  const rank = spec.members.indexOf(owner);
  const n = spec.members.length;
  if (spec.protocol === 'rckmpi-original') {
    const s = originalSectionBytes(n);
    const sections: OriginalSection[] = [];
    for (let r = 0; r < n; r++) {
      if (r === rank) continue;
      const o = r * s;
      const st = u32(bytes, o + 8);
      sections.push({ rank: r, core: spec.members[r]!, offset: o, flag: u32(bytes, o), packetBytes: u32(bytes, o + 4), size: st & 0xffffff, tag: st >>> 24 });
    }
    return { protocol: spec.protocol, rank, sectionBytes: s, sections, wake: u32(bytes, ORIG_WAKE), nonZeroBytes: nz };
  }
  if (spec.protocol === 'rckmpi-improved') {
    const sections: ImprovedSection[] = [];
    for (let r = 0; r < n; r++) {
      if (r === rank) continue;
      const o = r * IMP_BASE;
      let empty = true;
      for (let i = 0; i < IMP_META; i++) if (bytes[o + i] !== 0) empty = false;
      const cks = u16(bytes, o);
      const pbytes = u16(bytes, o + 2);
      const mask = u32(bytes, o + 4);
      const st = u32(bytes, o + 8);
      const sendSeq = u16(bytes, o + 14);
      sections.push({
        rank: r,
        core: spec.members[r]!,
        offset: o,
        empty,
        checksum: cks,
        checksumOk: !empty && cks === rckmpiChecksum(pbytes, mask, st, sendSeq),
        packetBytes: pbytes,
        extMask: mask,
        size: st & 0xffffff,
        tag: st >>> 24,
        recvSeq: u16(bytes, o + 12),
        sendSeq,
      });
    }
    const extMask = u32(bytes, IMP_MASK);
    return { protocol: spec.protocol, rank, sections, extMask, slotsUsed: popcount32(extMask), wake: u32(bytes, IMP_WAKE), nonZeroBytes: nz };
  }
  if (spec.protocol === 'rcce') {
    const f = RCCE_FLAG_OFFSET;
    return {
      protocol: 'rcce',
      flags: {
        sent: bitsSet(bytes, f + FLAG_SENT, RCCE_MAX_CORES),
        ready: bitsSet(bytes, f + FLAG_READY, RCCE_MAX_CORES),
        version: u32(bytes, f + FLAG_VERSION),
        barrierCount: u32(bytes, f + BARRIER_COUNT),
        barrierGen: u32(bytes, f + BARRIER_GEN),
      },
      nonZeroBytes: nz,
    };
  }
  return { protocol: 'raw', nonZeroBytes: nz };
}

/** Sum of the send sequence numbers (improved) or of the non-empty flags (original) in this MPB. */
export function postedCount(f: MpbFields): number {
  if (f.protocol === 'rckmpi-improved') return f.sections.reduce((a, s) => a + s.sendSeq, 0);
  if (f.protocol === 'rckmpi-original') return f.sections.reduce((a, s) => a + (s.flag !== 0 ? 1 : 0), 0);
  if (f.protocol === 'rcce') return f.flags.version;
  return 0;
}

/** Tooltip lines for the region `cell` given the decoded fields. */
export function describeRegion(cell: MpbCell, f: MpbFields, bytes: Uint8Array): string[] {
  const lines = [`${cell.label}`, `bytes ${cell.offset}..${cell.offset + cell.bytes - 1} (0x${cell.offset.toString(16)})`];
  if (cell.writer !== undefined && (f.protocol === 'rckmpi-original' || f.protocol === 'rckmpi-improved')) {
    if (cell.writer === f.rank) {
      lines.push('own rank: never written');
      return lines;
    }
    const s = f.sections.find((x) => x.rank === cell.writer);
    if (s && f.protocol === 'rckmpi-original') {
      const o = s as OriginalSection;
      lines.push(`writer: rank ${o.rank} (core ${o.core})`, o.flag ? `flag/seq ${o.flag}: packet of ${o.packetBytes} B, message ${o.size} B, tag ${o.tag}` : 'flag 0: empty');
    } else if (s && f.protocol === 'rckmpi-improved') {
      const m = s as ImprovedSection;
      lines.push(`writer: rank ${m.rank} (core ${m.core})`);
      if (m.empty) lines.push('nothing posted yet');
      else
        lines.push(
          `send seq ${m.sendSeq} · recv seq ${m.recvSeq}`,
          `packet ${m.packetBytes} B ${m.extMask ? `in slots ${maskSlots(m.extMask).join(',')} of its sender` : 'inline'}`,
          `ext control ${hex32(m.extMask)} · message ${m.size} B, tag ${m.tag} · checksum ${m.checksumOk ? 'ok' : 'stale'}`,
        );
    }
  } else if (cell.kind === 'mask' && f.protocol === 'rckmpi-improved') lines.push(`${hex32(f.extMask)}: ${f.slotsUsed} of ${IMP_SLOTS} slots in use`);
  else if (cell.kind === 'ext-slot' && f.protocol === 'rckmpi-improved') {
    const k = Math.floor((cell.offset - IMP_EXT) / IMP_SLOT);
    lines.push((f.extMask >>> (31 - k)) & 1 ? 'in use: holds a packet not yet consumed' : 'free');
  } else if (cell.kind === 'wake') lines.push(`value 0x${u32(bytes, cell.offset).toString(16)}`);
  else if (f.protocol === 'rcce' && (cell.kind === 'flags' || cell.kind === 'seq' || cell.kind === 'barrier')) {
    lines.push(
      `sent bits: ${f.flags.sent.join(', ') || 'none'}`,
      `ready bits: ${f.flags.ready.join(', ') || 'none'}`,
      `version ${f.flags.version} · barrier count ${f.flags.barrierCount}, generation ${f.flags.barrierGen}`,
    );
  }
  return lines;
}

export { IMP_EXT, IMP_MASK, IMP_SLOT, IMP_SLOTS, IMP_BASE, ORIG_META };
