import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { IMP_MASK, rckmpiChecksum, RCCE_FLAG_OFFSET, workloads } from '@manycore/workloads';
import { decodeMpb, hex32, maskSlots, mpbSpecOf, popcount32, postedCount, regionsOf, wordRegions, describeRegion, type MpbSpec } from './mpb-decode';
import { halfOffset, MpbProbe } from './mpb-probe';
import { drawMpb, lineAt, lineBox, mpbGeometry } from './mpb-draw';
import { SvgPainter } from '../charts/painter';

const le16 = (b: Uint8Array, o: number, v: number) => {
  b[o] = v & 0xff;
  b[o + 1] = (v >>> 8) & 0xff;
};
const le32 = (b: Uint8Array, o: number, v: number) => {
  le16(b, o, v & 0xffff);
  le16(b, o + 2, v >>> 16);
};

describe('mpb layouts', () => {
  it('maps workloads to their protocol', () => {
    expect(mpbSpecOf('mpi-sweep', { channel: 'improved' }, [0, 1], 8192).protocol).toBe('rckmpi-improved');
    expect(mpbSpecOf('mpi-sweep', { channel: 'original' }, [0, 1], 8192).protocol).toBe('rckmpi-original');
    expect(mpbSpecOf('rcce-pair', {}, [0, 1], 8192).protocol).toBe('rcce');
    expect(mpbSpecOf('socket-pingpong', { transport: 'rcce' }, [0, 1], 8192).protocol).toBe('rcce');
    expect(mpbSpecOf('socket-pingpong', { transport: 'socket' }, [0, 1], 8192).protocol).toBe('raw');
    expect(mpbSpecOf('mpi-sweep', { channel: 'improved' }, [0, 1], 4096).protocol).toBe('raw');
  });

  it('regions cover the half without gaps or overlaps', () => {
    for (const spec of [
      { protocol: 'rckmpi-original', members: Array.from({ length: 48 }, (_, i) => i), regionBytes: 8192 },
      { protocol: 'rckmpi-improved', members: [0, 1, 2, 3], regionBytes: 8192 },
      { protocol: 'rcce', members: [0, 5], regionBytes: 8192 },
      { protocol: 'raw', members: [0, 5], regionBytes: 8192 },
    ] as MpbSpec[]) {
      const rs = regionsOf(spec);
      let at = 0;
      for (const r of rs) {
        expect(r.offset).toBe(at);
        at += r.bytes;
      }
      expect(at).toBe(8192);
      const words = wordRegions(rs, 8192);
      expect(words.length).toBe(2048);
      const kindAt = (offset: number) => rs[words[offset / 4]!]!.kind;
      if (spec.protocol === 'rckmpi-improved') expect([kindAt(IMP_MASK), kindAt(7200), kindAt(3072), kindAt(7300)]).toEqual(['mask', 'wake', 'ext-slot', 'unused']);
      if (spec.protocol === 'rckmpi-original') expect([kindAt(0), kindAt(12), kindAt(8160)]).toEqual(['metadata', 'payload', 'wake']);
      if (spec.protocol === 'rcce') expect([kindAt(0), kindAt(8160), kindAt(8176), kindAt(8180)]).toEqual(['payload', 'flags', 'seq', 'barrier']);
    }
  });

  it('original sections at 48 processes are 160 B: 12 B metadata + 148 B payload', () => {
    const rs = regionsOf({ protocol: 'rckmpi-original', members: Array.from({ length: 48 }, (_, i) => i), regionBytes: 8192 });
    expect(rs[0]).toMatchObject({ offset: 0, bytes: 12, kind: 'metadata', writer: 0 });
    expect(rs[1]).toMatchObject({ offset: 12, bytes: 148, kind: 'payload', writer: 0 });
    expect(rs.find((r) => r.writer === 47 && r.kind === 'metadata')!.offset).toBe(47 * 160);
  });
});

describe('decodeMpb', () => {
  it('reads the improved metadata: seqs, ext control mask, checksum, occupancy mask', () => {
    const spec: MpbSpec = { protocol: 'rckmpi-improved', members: [4, 5, 6], regionBytes: 8192 };
    const b = new Uint8Array(8192);
    // rank 2 (core 6) posted its 3rd packet to core 5 (rank 1): 1536 B in its slots 0..11
    const o = 2 * 64;
    const mask = 0xfff00000;
    const sizeTag = (4096 | (7 << 24)) >>> 0;
    le16(b, o, rckmpiChecksum(1536, mask, sizeTag, 3));
    le16(b, o + 2, 1536);
    le32(b, o + 4, mask);
    le32(b, o + 8, sizeTag);
    le16(b, o + 12, 2);
    le16(b, o + 14, 3);
    le32(b, IMP_MASK, 0xffff0000);
    const f = decodeMpb(spec, 5, b);
    if (f.protocol !== 'rckmpi-improved') throw new Error(f.protocol);
    expect(f.rank).toBe(1);
    expect(f.sections.map((s) => s.rank)).toEqual([0, 2]);
    expect(f.sections[0]).toMatchObject({ empty: true, checksumOk: false, sendSeq: 0 });
    expect(f.sections[1]).toMatchObject({ core: 6, empty: false, checksumOk: true, packetBytes: 1536, extMask: mask, size: 4096, tag: 7, recvSeq: 2, sendSeq: 3 });
    expect(f.extMask).toBe(0xffff0000);
    expect(f.slotsUsed).toBe(16);
    expect(postedCount(f)).toBe(3);
    expect(hex32(mask)).toBe('0xFFF00000');
    expect(maskSlots(mask)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // a torn or stale post does not pass the checksum
    le16(b, o + 14, 4);
    const g = decodeMpb(spec, 5, b);
    expect(g.protocol === 'rckmpi-improved' && g.sections[1]!.checksumOk).toBe(false);
    const tip = describeRegion(regionsOf(spec)[2 * 2]!, f, b).join('\n');
    expect(tip).toContain('rank 2 (core 6)');
    expect(tip).toContain('0xFFF00000');
  });

  it('reads the original flag, packet bytes, size and tag', () => {
    const spec: MpbSpec = { protocol: 'rckmpi-original', members: [0, 1, 2, 3], regionBytes: 8192 };
    const b = new Uint8Array(8192);
    const s = 2016; // 8160 / 4 rounded down to 32
    le32(b, 3 * s, 9);
    le32(b, 3 * s + 4, 2004);
    le32(b, 3 * s + 8, (10000 | (2 << 24)) >>> 0);
    const f = decodeMpb(spec, 0, b);
    if (f.protocol !== 'rckmpi-original') throw new Error(f.protocol);
    expect(f.sectionBytes).toBe(s);
    expect(f.sections.find((x) => x.rank === 3)).toMatchObject({ offset: 3 * s, flag: 9, packetBytes: 2004, size: 10000, tag: 2 });
    expect(postedCount(f)).toBe(1);
  });

  it('reads the RCCE flag line: sent and ready bits by core id, version, barrier', () => {
    const b = new Uint8Array(8192);
    b[RCCE_FLAG_OFFSET + 0] = 0b0000_0010; // sent: core 1
    b[RCCE_FLAG_OFFSET + 5] = 0b1000_0000; // sent: core 47
    b[RCCE_FLAG_OFFSET + 8] = 0b0000_0001; // ready: core 0
    le32(b, RCCE_FLAG_OFFSET + 16, 12);
    le32(b, RCCE_FLAG_OFFSET + 20, 3);
    le32(b, RCCE_FLAG_OFFSET + 24, 1);
    const f = decodeMpb({ protocol: 'rcce', members: [0, 1, 47], regionBytes: 8192 }, 0, b);
    expect(f).toMatchObject({ protocol: 'rcce', flags: { sent: [1, 47], ready: [0], version: 12, barrierCount: 3, barrierGen: 1 } });
  });

  it('popcount', () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0xfff00000)).toBe(12);
  });
});

describe('MpbProbe', () => {
  it('copies the owner half out of the whole MPB region and notes changed lines', () => {
    const spec: MpbSpec = { protocol: 'rckmpi-improved', members: [0, 1, 2, 3], regionBytes: 8192 };
    const mpb = new Uint8Array(24 * 16384);
    const probe = new MpbProbe(spec, 3); // tile 1, second half
    expect(halfOffset(3, 16384, 2)).toBe(16384 + 8192);
    expect(probe.sample(mpb, 16384, 2, 0)).toBe(false);
    le32(mpb, halfOffset(3, 16384, 2) + IMP_MASK, 0xfff00000);
    le16(mpb, halfOffset(3, 16384, 2) + 64 + 14, 5); // rank 1 posted 5 packets
    le32(mpb, halfOffset(2, 16384, 2) + IMP_MASK, 0xffffffff); // another core's half: ignored
    expect(probe.sample(mpb, 16384, 2, 100)).toBe(true);
    expect(probe.fields.protocol === 'rckmpi-improved' && probe.fields.extMask).toBe(0xfff00000);
    expect(probe.changedAt[IMP_MASK / 32]).toBe(100);
    expect(probe.changedAt[2]).toBe(100);
    expect(probe.changedAt[0]).toBe(-Infinity);
    expect(probe.peakSlots).toBe(12);
    expect(probe.seqChanges).toBe(1);
    expect(probe.fading(300, 700)).toBe(true);
    expect(probe.fading(900, 700)).toBe(false);
    le32(mpb, halfOffset(3, 16384, 2) + IMP_MASK, 0);
    expect(probe.sample(mpb, 16384, 2, 200)).toBe(true);
    expect(probe.peakSlots).toBe(12);
    expect(probe.sample(null, 16384, 2, 300)).toBe(true); // no run: zeros
    expect(probe.fields.nonZeroBytes).toBe(0);
  });
});

describe('decoding a real run', () => {
  const run = (params: Record<string, unknown>) => {
    const sim = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'mpi-sweep', params } }, workloads);
    sim.runInline();
    return sim;
  };
  /** What the MPB view decodes from `rank`'s MPB half at the end of the run. */
  const probeOf = (sim: Simulation, rank: number) => {
    const spec = mpbSpecOf('mpi-sweep', sim.run.params, sim.run.settings.participants, 8192);
    const probe = new MpbProbe(spec, rank);
    probe.sample(sim.views.mpb, sim.run.chip.mpbBytes, sim.run.chip.topo.coresPerTile, 0);
    return probe.fields;
  };

  it('improved channel: every post to rank 0 is consistent and carries an extended mask for 4 KB messages', () => {
    const sim = run({ op: 'sendrecv', processes: 4, channel: 'improved', sizes: '4096', iterations: 1, warmup: 0 });
    const f = probeOf(sim, 0);
    if (f.protocol !== 'rckmpi-improved') throw new Error(f.protocol);
    // the ring: rank 3 sends to rank 0
    const from3 = f.sections.find((s) => s.rank === 3)!;
    expect(from3.checksumOk).toBe(true);
    expect(from3.sendSeq).toBeGreaterThan(0);
    expect(from3.size).toBe(4096);
    expect(from3.extMask).not.toBe(0);
    // the slots still held at the end are those of the last packet rank 0 posted to rank 1,
    // released only when rank 0 would next see rank 1's receive sequence number
    const rank1 = probeOf(sim, 1);
    const to1 = rank1.protocol === 'rckmpi-improved' ? rank1.sections.find((s) => s.rank === 0)! : null;
    expect(to1?.extMask).not.toBe(0);
    expect(f.extMask).toBe(to1!.extMask);
    expect(f.slotsUsed).toBe(16);
    // rank 0 sends to rank 1: rank 1's receive sequence number for it lands in rank 0's MPB
    expect(f.sections.find((s) => s.rank === 1)!.recvSeq).toBeGreaterThan(0);
  });

  it('original channel: the sections hold the last packet header (flag cleared when consumed)', () => {
    const sim = run({ op: 'sendrecv', processes: 4, channel: 'original', sizes: '4096', iterations: 1, warmup: 0 });
    const f = probeOf(sim, 0);
    if (f.protocol !== 'rckmpi-original') throw new Error(f.protocol);
    const from3 = f.sections.find((s) => s.rank === 3)!;
    expect(from3.flag).toBe(0);
    expect(from3.size).toBe(4096);
    expect(from3.packetBytes).toBeGreaterThan(0);
    expect(f.nonZeroBytes).toBeGreaterThan(0);
  });
});

describe('drawing the MPB view', () => {
  it('draws every layout (the SVG export) with its live fields, and hit-tests lines', () => {
    for (const [protocol, owner] of [
      ['rckmpi-improved', 1],
      ['rckmpi-original', 1],
      ['rcce', 0],
      ['raw', 0],
    ] as const) {
      const spec: MpbSpec = { protocol, members: [0, 1, 2, 3], regionBytes: 8192 };
      const mpb = new Uint8Array(2 * 16384);
      le32(mpb, halfOffset(owner, 16384, 2) + IMP_MASK, 0xfff00000);
      mpb[halfOffset(owner, 16384, 2) + RCCE_FLAG_OFFSET] = 0b10;
      const probe = new MpbProbe(spec, owner);
      probe.sample(mpb, 16384, 2, 0);
      const geo = mpbGeometry(8192, 3);
      const p = new SvgPainter(geo.width, geo.height);
      drawMpb(p, { probe, cores: 48, hoverRegion: 3, nowMs: 100, title: `core ${owner}` });
      const svg = p.toString();
      expect(svg).toContain(`core ${owner}`);
      if (protocol === 'rckmpi-improved') expect(svg).toContain('0xFFF00000');
      if (protocol === 'rcce') expect(svg).toContain('sent: 1 ');
    }
    for (const line of [0, 7, 8, 255]) {
      const b = lineBox(line);
      expect(lineAt(b.x + 3, b.y + 3, 256)).toBe(line);
    }
    expect(lineAt(0, 0, 256)).toBe(-1);
  });
});
