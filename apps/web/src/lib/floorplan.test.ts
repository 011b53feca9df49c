import { describe, expect, it } from 'vitest';
import { resolveChip, type FloorplanSpec } from '@manycore/engine';
import { controllerKind, floorplanOf, hasDomains, hasMpb, transactionBytesOf } from './floorplan';
import { unitOccupancyOf } from './unit-occupancy';
import { metricsFor } from '../sim/metrics';
import { inspectorRows } from '../components/Inspector';

const noMpb: FloorplanSpec = {
  width: 8,
  height: 8,
  coresPerTile: 1,
  tileStore: { label: 'L2 (home)', bytes: 65536 },
  controllers: [{ tile: 1, label: 'DDR0' }],
  domains: [],
  transactionBytes: 64,
};

describe('what the web takes from the family floorplan', () => {
  it('the SCC: MPBs, voltage islands, 32-byte transactions, MC controllers', () => {
    const spec = floorplanOf(resolveChip('scc'));
    expect(hasMpb(spec)).toBe(true);
    expect(hasDomains(spec)).toBe(true);
    expect(controllerKind(spec)).toBe('MC');
    expect(transactionBytesOf({ preset: 'scc' })).toBe(32);
    expect(metricsFor(spec).map((m) => m.id)).toContain('mpb');
    expect(inspectorRows(spec).map((r) => r.key)).toContain('mpb');
  });

  it('a family whose tiles hold no MPB gets no MPB metrics, rows or stalls', () => {
    expect(hasMpb(noMpb)).toBe(false);
    expect(hasDomains(noMpb)).toBe(false);
    expect(controllerKind(noMpb)).toBe('DDR');
    const ids = metricsFor(noMpb).map((m) => m.id);
    expect(ids).not.toContain('mpb');
    expect(ids).not.toContain('stall-mpb');
    expect(ids).toContain('utilization');
    const rows = inspectorRows(noMpb).map((r) => r.label);
    expect(rows.some((l) => l.includes('MPB'))).toBe(false);
    expect(rows).toContain('Loads / stores');
    expect(hasMpb({ ...noMpb, tileStore: null })).toBe(false);
  });

  it('TILE64: 64-byte transactions, no MPB, no domains', () => {
    const spec = floorplanOf(resolveChip('tile64'));
    expect(spec.transactionBytes).toBe(64);
    expect(hasMpb(spec)).toBe(false);
    expect(hasDomains(spec)).toBe(false);
    expect(transactionBytesOf({ preset: 'tile64' })).toBe(64);
  });

  it('the per-tile unit the chip view tints tiles by: TILE64 describes its home L2 slices, the SCC has none', () => {
    const scc = floorplanOf(resolveChip('scc'));
    expect(scc.unitOccupancy).toBeUndefined();
    expect(unitOccupancyOf(scc)).toBeNull();
    expect(inspectorRows(scc).map((r) => r.key)).not.toContain('unit');
    const chip = resolveChip('tile64');
    const u = unitOccupancyOf(floorplanOf(chip))!;
    expect(u).not.toBeNull();
    expect(u.label).toBe('home L2 slice');
    // 64 KB of 64 B lines per tile, the tags first, every tile's part inside the unit region
    expect(u.slotsPerTile).toBe(1024);
    expect(u.bytesPerSlot).toBe(64);
    expect(u.tagOffsetWords).toBe(0);
    expect(u.tagOffsetWords * 4 + u.slotsPerTile * 4).toBeLessThanOrEqual(u.bytesPerTile);
    expect(u.bytesPerTile * chip.topo.tiles).toBeLessThanOrEqual(chip.unitStateBytes ?? 0);
    // which tile homes which pages: shared page k on tile k mod 64
    expect(u.note).toContain('k mod 64');
    expect(u.tileNotes).toHaveLength(64);
    expect(u.tileNotes![3]![0]).toMatch(/^home of shared pages 3, 67, 131, … 4035 \(64 of 4096\)$/);
    expect(u.tileNotes![3]![1]).toContain("core 3's");
    expect(inspectorRows(floorplanOf(chip)).find((r) => r.key === 'unit')?.label).toBe("Tile's home L2 slice");
  });
});
