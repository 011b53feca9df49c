import { describe, expect, it } from 'vitest';
import { Simulation } from '@manycore/engine';
import { workloads } from '@manycore/workloads';
import { coreRecords, csvCell, seriesRecords, toCsv } from './csv';

describe('CSV export', () => {
  it('quotes and escapes per RFC 4180', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(NaN)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(undefined)).toBe('');
  });

  it('defuses spreadsheet formulas in text cells but keeps negative numbers', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('-12')).toBe('-12');
  });

  it('builds a header from the union of keys in first-seen order', () => {
    const csv = toCsv([
      { hops: 0, op: 'read', latencyNs: 132.5 },
      { hops: 1, op: 'write', extra: 'x' },
    ]);
    expect(csv).toBe('hops,op,latencyNs,extra\r\n0,read,132.5,\r\n1,write,,x\r\n');
  });

  it('exports the rows, cores and series of a real run', () => {
    const r = new Simulation({ version: 1, chip: { preset: 'scc' }, workload: { name: 'memtest', params: { accesses: 4 } } }, workloads).runInline();
    const rows = toCsv(r.workload.rows).trim().split('\r\n');
    expect(rows[0]).toBe('hops,op,latencyNs,formulaNs');
    expect(rows).toHaveLength(1 + 18);
    const cores = toCsv(coreRecords(r)).split('\r\n');
    expect(cores[0]).toContain('stall_dram_ns');
    expect(cores).toHaveLength(48 + 2);
    const series = seriesRecords(r);
    expect(series.length).toBe(r.series.timeNs.length);
    expect(Object.keys(series[0]!)).toContain('island5PowerW');
  });
});
