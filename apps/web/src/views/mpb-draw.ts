/**
 * Drawing of the MPB view on a Painter: one core's MPB half as a grid of 32 B lines (8 lines,
 * 256 B, per row), each line split into its eight 4-byte words coloured by region kind (faint
 * while the word is zero, full while it holds data), lines written in the last moments
 * outlined; beside it the decoded fields of the layout (ext mask boxes, section table, RCCE
 * flag bits). Static layer (faint grid, legend, headings) and dynamic layer (data) separate.
 */
import { CATEGORY } from '../charts/draw';
import { palette } from '../lib/theme';
import type { Painter } from '../charts/painter';
import { hex32, IMP_EXT, IMP_SLOT, KIND_LABEL, type ImprovedSection, type MpbCell, type MpbKind, type OriginalSection } from './mpb-decode';
import { LINE, type MpbProbe } from './mpb-probe';

export const FADE_MS = 700;
const PER_ROW = 8;
const WORD_W = 7;
const LINE_W = WORD_W * 8;
const LINE_GAP = 4;
const ROW_H = 15;
const ROW_GAP = 2;
const GX = 62;
const GY = 66;
const PX = 590;
const TABLE_ROW = 11.5;

const KIND_COLOR: Record<MpbKind, string> = {
  metadata: CATEGORY[1]!,
  payload: CATEGORY[0]!,
  'ext-slot': CATEGORY[2]!,
  mask: CATEGORY[4]!,
  wake: CATEGORY[3]!,
  flags: CATEGORY[1]!,
  seq: CATEGORY[4]!,
  barrier: CATEGORY[3]!,
  unused: '#aab2bd',
};

/** Colour of a region: payload sections of odd writer ranks in the lighter blue, so section boundaries show. */
export function cellColor(c: MpbCell): string {
  if (c.kind === 'payload' && c.writer !== undefined && c.writer % 2 === 1) return CATEGORY[5]!;
  return KIND_COLOR[c.kind];
}

export interface MpbGeometry {
  width: number;
  height: number;
  rows: number;
}

export function mpbGeometry(regionBytes: number, tableRows: number): MpbGeometry {
  const rows = Math.ceil(regionBytes / LINE / PER_ROW);
  const gridBottom = GY + rows * (ROW_H + ROW_GAP);
  const tableBottom = GY + 96 + (tableRows + 1) * TABLE_ROW;
  return { width: 1010, height: Math.ceil(Math.max(gridBottom, tableBottom) + 14), rows };
}

export function lineBox(line: number): { x: number; y: number; w: number; h: number } {
  return { x: GX + (line % PER_ROW) * (LINE_W + LINE_GAP), y: GY + Math.floor(line / PER_ROW) * (ROW_H + ROW_GAP), w: LINE_W, h: ROW_H };
}

/** The 32 B line under a world point, or -1. */
export function lineAt(x: number, y: number, lines: number): number {
  const col = Math.floor((x - GX) / (LINE_W + LINE_GAP));
  const row = Math.floor((y - GY) / (ROW_H + ROW_GAP));
  if (col < 0 || col >= PER_ROW || row < 0 || x - GX - col * (LINE_W + LINE_GAP) > LINE_W) return -1;
  const line = row * PER_ROW + col;
  return line < lines ? line : -1;
}

export interface MpbDrawState {
  probe: MpbProbe;
  /** Cores of the chip (RCCE bit boxes). */
  cores: number;
  /** Region index under the pointer, or -1. */
  hoverRegion: number;
  nowMs: number;
  title: string;
}

export function drawMpbStatic(p: Painter, s: MpbDrawState): void {
  const { probe } = s;
  const lines = probe.bytes.length / LINE;
  p.text(GX, 14, s.title, { size: 13, color: palette.ink, weight: 'bold', baseline: 'middle' });
  // legend: the kinds of this layout
  const kinds: MpbCell[] = [];
  for (const r of probe.regions) if (!kinds.some((k) => k.kind === r.kind)) kinds.push(r);
  let x = GX;
  for (const k of kinds) {
    const label = KIND_LABEL[k.kind];
    p.rect(x, 30, 12, 12, { fill: cellColor({ ...k, writer: 0 }) });
    p.text(x + 16, 36, label, { size: 12, color: palette.ink, baseline: 'middle' });
    x += 16 + p.measure(label, 12) + 14;
  }
  const inUse = probe.spec.protocol === 'rckmpi-improved' ? ' · pink outline: extended slot in use (its mask bit is set)' : '';
  p.text(GX, 54, `faint: all-zero word · full: holds data · white gap: a new section · black outline: written just now${inUse}`, { size: 11, color: palette.muted, baseline: 'middle' });
  // offsets
  for (let r = 0; r * PER_ROW < lines; r++) {
    const b = lineBox(r * PER_ROW);
    p.text(GX - 6, b.y + ROW_H / 2, `0x${(r * PER_ROW * LINE).toString(16).padStart(4, '0')}`, { size: 10, color: palette.muted, anchor: 'end', baseline: 'middle', font: 'monospace' });
  }
  // every word, faint
  const w = probe.words;
  for (let line = 0; line < lines; line++) {
    const b = lineBox(line);
    for (let k = 0; k < 8; k++) {
      const c = probe.regions[w[line * 8 + k]!]!;
      p.rect(b.x + k * WORD_W, b.y, WORD_W - 0.6, b.h, { fill: cellColor(c), opacity: c.kind === 'unused' ? 0.12 : 0.22 });
    }
    // a section starting in this line: a tick at its first word
    for (let k = 0; k < 8; k++) {
      const i = w[line * 8 + k]!;
      const c = probe.regions[i]!;
      if (c.writer !== undefined && c.kind === 'metadata' && c.offset === (line * 8 + k) * 4 && c.offset > 0) p.line(b.x + k * WORD_W - 0.3, b.y, b.x + k * WORD_W - 0.3, b.y + b.h, { stroke: '#ffffff', lineWidth: 2 });
    }
  }
  drawPanelStatic(p, s);
}

function drawPanelStatic(p: Painter, s: MpbDrawState): void {
  const f = s.probe.fields;
  const head = { size: 12, color: palette.ink, weight: 'bold' as const, baseline: 'middle' as const };
  if (f.protocol === 'rckmpi-improved') {
    p.text(PX, GY + 4, 'extended-section occupancy mask (MSB = slot 0)', head);
    for (let k = 0; k < 32; k += 4) p.text(PX + k * 13 + 6, GY + 44, String(k), { size: 9, color: palette.muted, anchor: 'middle', baseline: 'middle' });
    tableHead(p, GY + 96, ['writer rank (core)', 'send seq', 'recv seq', 'packet B', 'ext control mask']);
  } else if (f.protocol === 'rckmpi-original') {
    p.text(PX, GY + 4, `a section per writer: ${f.sectionBytes} B = 12 B metadata + ${f.sectionBytes - 12} B payload`, head);
    tableHead(p, GY + 96, ['writer rank (core)', 'flag/seq', 'packet B', 'msg B', 'tag']);
  } else if (f.protocol === 'rcce') {
    p.text(PX, GY + 4, 'flag line at 0x1FE0 (bit = core id)', head);
    p.text(PX, GY + 22, 'sent: core s has a chunk for me in its buffer', { size: 11, color: palette.muted, baseline: 'middle' });
    p.text(PX, GY + 40 + rcceRows(s.cores) * 17 + 14, 'ready: core r took my chunk', { size: 11, color: palette.muted, baseline: 'middle' });
  } else {
    p.text(PX, GY + 4, 'this workload uses the MPB with its own layout: bytes only', head);
  }
}

const COLS = [0, 112, 176, 240, 304];

function tableHead(p: Painter, y: number, cols: string[]): void {
  cols.forEach((c, i) => p.text(PX + COLS[i]!, y, c, { size: 11, color: palette.muted, weight: 'bold', baseline: 'middle' }));
  p.line(PX, y + 7, PX + 420, y + 7, { stroke: palette.muted, lineWidth: 0.75 });
}

const rcceRows = (cores: number) => Math.ceil(Math.min(cores, 64) / 24);

export function drawMpbDynamic(p: Painter, s: MpbDrawState): void {
  const { probe, nowMs } = s;
  const b = probe.bytes;
  const w = probe.words;
  const lines = b.length / LINE;
  const f = probe.fields;
  for (let line = 0; line < lines; line++) {
    const box = lineBox(line);
    for (let k = 0; k < 8; k++) {
      const o = line * LINE + k * 4;
      if (b[o] || b[o + 1] || b[o + 2] || b[o + 3]) p.rect(box.x + k * WORD_W, box.y, WORD_W - 0.6, box.h, { fill: cellColor(probe.regions[w[line * 8 + k]!]!) });
    }
    const age = nowMs - probe.changedAt[line]!;
    if (age < FADE_MS) p.rect(box.x - 1, box.y - 1, box.w + 2, box.h + 2, { stroke: palette.ink, lineWidth: 1.6, opacity: 1 - age / FADE_MS });
  }
  // the extended slots in use, outlined in the slot colour
  if (f.protocol === 'rckmpi-improved' && f.extMask) {
    for (let k = 0; k < 32; k++)
      if ((f.extMask >>> (31 - k)) & 1)
        for (let l = 0; l < IMP_SLOT / LINE; l++) {
          const box = lineBox((IMP_EXT + k * IMP_SLOT) / LINE + l);
          p.rect(box.x - 1.5, box.y - 1.5, box.w + 3, box.h + 3, { stroke: KIND_COLOR.mask, lineWidth: 2 });
        }
  }
  // the hovered region
  if (s.hoverRegion >= 0) {
    const c = probe.regions[s.hoverRegion];
    if (c)
      for (let line = Math.floor(c.offset / LINE); line < Math.ceil((c.offset + c.bytes) / LINE) && line < lines; line++) {
        const box = lineBox(line);
        p.rect(box.x - 2, box.y - 2, box.w + 4, box.h + 4, { stroke: palette.marker, lineWidth: 2, dash: [3, 2] });
      }
  }
  drawPanelDynamic(p, s);
}

function drawPanelDynamic(p: Painter, s: MpbDrawState): void {
  const { probe } = s;
  const f = probe.fields;
  const cell = { size: 11, color: palette.ink, baseline: 'middle' as const, font: 'monospace' };
  if (f.protocol === 'rckmpi-improved') {
    for (let k = 0; k < 32; k++) {
      const on = (f.extMask >>> (31 - k)) & 1;
      p.rect(PX + k * 13, GY + 16, 12, 20, { fill: on ? KIND_COLOR.mask : palette.canvas, stroke: palette.muted, lineWidth: 0.75 });
    }
    p.text(PX, GY + 62, `${hex32(f.extMask)}`, { size: 16, color: palette.ink, weight: 'bold', baseline: 'middle', font: 'monospace' });
    p.text(PX + 118, GY + 62, `${f.slotsUsed} of 32 slots in use · peak ${probe.peakSlots} (${hex32(probe.peakMask)})`, { size: 11, color: palette.muted, baseline: 'middle' });
    f.sections.forEach((sec: ImprovedSection, i) => {
      const y = GY + 96 + (i + 1) * TABLE_ROW + 2;
      const faint = sec.empty ? { color: palette.muted } : {};
      p.text(PX + COLS[0]!, y, `${sec.rank} (${sec.core})`, { ...cell, ...faint });
      p.text(PX + COLS[1]!, y, String(sec.sendSeq), { ...cell, ...faint });
      p.text(PX + COLS[2]!, y, String(sec.recvSeq), { ...cell, ...faint });
      p.text(PX + COLS[3]!, y, sec.empty ? '–' : String(sec.packetBytes), { ...cell, ...faint });
      p.text(PX + COLS[4]!, y, sec.empty ? '–' : hex32(sec.extMask), { ...cell, ...faint });
    });
  } else if (f.protocol === 'rckmpi-original') {
    const full = f.sections.filter((x) => x.flag !== 0).length;
    p.text(PX, GY + 40, `${full} of ${f.sections.length} sections hold a packet`, { size: 14, color: palette.ink, weight: 'bold', baseline: 'middle' });
    p.text(PX, GY + 62, `wake word 0x${f.wake.toString(16).padStart(8, '0')}`, { size: 11, color: palette.muted, baseline: 'middle', font: 'monospace' });
    f.sections.forEach((sec: OriginalSection, i) => {
      const y = GY + 96 + (i + 1) * TABLE_ROW + 2;
      const faint = sec.flag === 0 ? { color: palette.muted } : {};
      p.text(PX + COLS[0]!, y, `${sec.rank} (${sec.core})`, { ...cell, ...faint });
      p.text(PX + COLS[1]!, y, String(sec.flag), { ...cell, ...faint });
      p.text(PX + COLS[2]!, y, String(sec.packetBytes), { ...cell, ...faint });
      p.text(PX + COLS[3]!, y, String(sec.size), { ...cell, ...faint });
      p.text(PX + COLS[4]!, y, String(sec.tag), { ...cell, ...faint });
    });
  } else if (f.protocol === 'rcce') {
    const n = Math.min(s.cores, 64);
    const rows = rcceRows(n);
    const members = new Set(probe.spec.members);
    const bits = (set: number[], y0: number, color: string) => {
      const on = new Set(set);
      for (let c = 0; c < n; c++) {
        const x = PX + (c % 24) * 17;
        const y = y0 + Math.floor(c / 24) * 17;
        p.rect(x, y, 15, 15, { fill: on.has(c) ? color : palette.canvas, stroke: members.has(c) ? palette.ink : palette.tileLine, lineWidth: members.has(c) ? 1 : 0.75 });
        p.text(x + 7.5, y + 8, String(c), { size: 8, color: on.has(c) ? '#ffffff' : members.has(c) ? palette.ink : palette.muted, anchor: 'middle', baseline: 'middle' });
      }
    };
    bits(f.flags.sent, GY + 34, KIND_COLOR.flags);
    const readyY = GY + 40 + rows * 17 + 24;
    bits(f.flags.ready, readyY, CATEGORY[0]!);
    const y = readyY + rows * 17 + 18;
    p.text(PX, y, `flag version ${f.flags.version}`, { size: 14, color: palette.ink, weight: 'bold', baseline: 'middle' });
    p.text(PX, y + 20, `barrier count ${f.flags.barrierCount} · generation ${f.flags.barrierGen}`, { size: 11, color: palette.muted, baseline: 'middle' });
    p.text(PX, y + 38, `sent: ${f.flags.sent.join(', ') || 'none'} · ready: ${f.flags.ready.join(', ') || 'none'}`, { size: 11, color: palette.muted, baseline: 'middle' });
  } else {
    p.text(PX, GY + 30, `${f.nonZeroBytes} non-zero bytes`, { size: 14, color: palette.ink, weight: 'bold', baseline: 'middle' });
  }
}

export function drawMpb(p: Painter, s: MpbDrawState): void {
  drawMpbStatic(p, s);
  drawMpbDynamic(p, s);
}
